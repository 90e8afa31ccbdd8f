//! The development corpus (docs/corpus.md): reading its JSON lines, the evaluation's
//! thresholds per scalar, and the shapes and poses of a case for any scalar `T` and
//! dimension `D`. Shared by the correctness runner (`examples/corpus`), the study of the
//! GJK variants (`examples/experiments`), the speed runner (`peers/examples/corpus_speed`)
//! and the format test (`tests/corpus_format.rs`), which include it with `#[path]`;
//! `runner.rs` beside it holds the rest they share.
#![allow(dead_code)]

use convex_proximity::{
    Real, ShapeError, lit,
    shape::{Ball, Capsule, Cuboid, Polytope, SupportMap},
};
use nalgebra::{
    Complex, Isometry, Point, Quaternion, Rotation, Rotation3, SMatrix, SVector, Translation,
    UnitComplex, UnitQuaternion,
};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Tests over the vendored hard cases (`tests/data/`): `$body::<T, R, D>(scalar)` as one
/// test per dimension and scalar (f64, f32 and, with the `fixed` feature, FixedI40F24),
/// named `$body::d3::f64` and so on. The including crate declares this file as `corpus`.
#[allow(unused_macros)]
macro_rules! vendored_cases {
    ($body:ident) => {
        mod $body {
            use nalgebra::{UnitComplex, UnitQuaternion};
            crate::corpus::vendored_dimension!($body, d3, UnitQuaternion, 3);
            crate::corpus::vendored_dimension!($body, d2, UnitComplex, 2);
        }
    };
}

/// One dimension of [`vendored_cases`]: module `$dim` with a test per scalar, calling
/// `$body::<T, $rot<T>, $d>` two modules up.
#[allow(unused_macros)]
macro_rules! vendored_dimension {
    ($body:ident, $dim:ident, $rot:ident, $d:literal) => {
        mod $dim {
            use super::*;
            use crate::corpus::Scalar;
            #[test]
            fn f64() {
                super::super::$body::<f64, $rot<f64>, $d>(Scalar::F64);
            }
            #[test]
            fn f32() {
                super::super::$body::<f32, $rot<f32>, $d>(Scalar::F32);
            }
            #[cfg(feature = "fixed")]
            #[test]
            fn fixed() {
                type Fx = simba::scalar::FixedI40F24;
                super::super::$body::<Fx, $rot<Fx>, $d>(Scalar::Fixed);
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use vendored_cases;
#[allow(unused_imports)]
pub(crate) use vendored_dimension;

/// The categories of the corpus, in the order the runners print them.
pub const CATEGORIES: [&str; 9] = [
    "sep_random",
    "pen_random",
    "touching",
    "degenerate_shapes",
    "identical_nested",
    "scale",
    "near_parallel",
    "cuboids",
    "round",
];

/// The categories of the fixed-point (unit-scale) subset.
pub const FIXED_CATEGORIES: [&str; 5] =
    ["sep_random", "pen_random", "cuboids", "round", "touching"];

/// One shape as written in the corpus (world coordinates).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ShapeSpec {
    /// The convex hull of the points.
    Polytope { points: Vec<Vec<f64>> },
    /// A ball.
    Ball { center: Vec<f64>, radius: f64 },
    /// The segment `[a, b]` grown by `radius`.
    Capsule {
        a: Vec<f64>,
        b: Vec<f64>,
        radius: f64,
    },
    /// Corner k is `rotation · (s_k ∘ half_extents) + translation`.
    Cuboid {
        half_extents: Vec<f64>,
        rotation: Vec<Vec<f64>>,
        translation: Vec<f64>,
    },
}

impl ShapeSpec {
    /// The kind's name, as in the JSON (`polytope`, `ball`, `capsule`, `cuboid`).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Polytope { .. } => "polytope",
            Self::Ball { .. } => "ball",
            Self::Capsule { .. } => "capsule",
            Self::Cuboid { .. } => "cuboid",
        }
    }
}

/// The ground truth of a case.
#[derive(Clone, Debug, Deserialize)]
pub struct Expect {
    pub intersecting: bool,
    pub distance: f64,
    pub depth: f64,
    /// From A towards B (separated: the closest points' direction; penetrating: the
    /// direction of the shortest translation of B that separates).
    pub normal: Vec<f64>,
    pub witness_a: Option<Vec<f64>>,
    pub witness_b: Option<Vec<f64>>,
}

/// The case's metadata the metrics use (other fields are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct Meta {
    /// The diagonal of the joint bounding box.
    pub scale: f64,
    /// The signed distance is within 1e-12 · scale of 0.
    pub boundary: bool,
    pub normal_unique: bool,
    /// Penetrating: the gap, in units of scale, between the best and the best different
    /// direction.
    pub normal_margin: Option<f64>,
    #[serde(default)]
    pub witness_unique: bool,
    #[serde(default)]
    pub sub: String,
}

/// One line of the corpus.
#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    pub id: String,
    pub dim: usize,
    pub category: String,
    pub a: ShapeSpec,
    pub b: ShapeSpec,
    pub expect: Expect,
    pub meta: Meta,
    /// The JSON line as read (for dumps).
    #[serde(skip)]
    pub line: String,
}

impl Case {
    /// Parses one JSON line.
    ///
    /// # Errors
    /// The parser's message.
    pub fn parse(line: &str) -> Result<Self, String> {
        let mut case: Self = serde_json::from_str(line).map_err(|e| e.to_string())?;
        case.line = line.to_string();
        Ok(case)
    }

    /// The true signed distance: the distance if separated, minus the depth if not.
    #[must_use]
    pub fn signed_distance(&self) -> f64 {
        if self.expect.intersecting {
            -self.expect.depth
        } else {
            self.expect.distance
        }
    }

    /// The largest absolute coordinate of the pair's joint bounding box (round parts and
    /// cuboid corners included).
    #[must_use]
    pub fn max_coord(&self) -> f64 {
        extent(&self.a).max(extent(&self.b))
    }

    /// Whether the case is in the fixed-point subset: a unit-scale category, every
    /// coordinate within ±8 and scale ≥ 1e-2.
    #[must_use]
    pub fn unit_scale(&self) -> bool {
        FIXED_CATEGORIES.contains(&self.category.as_str())
            && self.max_coord() <= 8.0
            && self.meta.scale >= 1e-2
    }

    /// Both shapes, placed, in dimension `D`.
    ///
    /// # Errors
    /// A message naming the case if a coordinate list has the wrong length.
    pub fn placed<const D: usize>(&self) -> Result<(Placed<D>, Placed<D>), String> {
        let err = |e: String| format!("{}: {e}", self.id);
        Ok((
            Placed::new(&self.a).map_err(err)?,
            Placed::new(&self.b).map_err(err)?,
        ))
    }
}

/// The largest absolute world coordinate a shape reaches.
fn extent(s: &ShapeSpec) -> f64 {
    let max_abs = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    match s {
        ShapeSpec::Polytope { points } => points.iter().map(|p| max_abs(p)).fold(0.0, f64::max),
        ShapeSpec::Ball { center, radius } => max_abs(center) + radius,
        ShapeSpec::Capsule { a, b, radius } => max_abs(a).max(max_abs(b)) + radius,
        ShapeSpec::Cuboid {
            half_extents,
            rotation,
            translation,
        } => (0..translation.len())
            .map(|i| {
                // |t_i| + Σ_j |R_ij| h_j: the farthest corner along axis i.
                let reach: f64 = (0..half_extents.len())
                    .map(|j| rotation[i][j].abs() * half_extents[j])
                    .sum();
                translation[i].abs() + reach
            })
            .fold(0.0, f64::max),
    }
}

/// Reads `corpus{dim}d.jsonl` from `dir`.
///
/// # Errors
/// A message naming the file (unreadable, or the line that does not parse).
pub fn load(dir: &Path, dim: usize) -> Result<Vec<Case>, String> {
    let path = dir.join(format!("corpus{dim}d.jsonl"));
    let text = std::fs::read_to_string(&path).map_err(|e| {
        format!(
            "cannot read {}: {e} (pass the corpus directory with --corpus DIR)",
            path.display()
        )
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let case = Case::parse(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
            if case.dim == dim {
                Ok(case)
            } else {
                Err(format!(
                    "{}:{}: dim {} in the {dim}D file",
                    path.display(),
                    i + 1,
                    case.dim
                ))
            }
        })
        .collect()
}

/// The corpus directory: `--corpus DIR` if given, else the directory in [`DIR_VARIABLE`].
///
/// # Errors
/// Neither given: a message saying how to name it.
pub fn corpus_dir(arg: Option<&str>) -> Result<PathBuf, String> {
    arg.map(PathBuf::from)
        .or_else(|| std::env::var_os(DIR_VARIABLE).map(PathBuf::from))
        .ok_or_else(|| {
            format!(
                "no corpus: the corpus is not in the repository; pass --corpus DIR or set \
                 {DIR_VARIABLE} (docs/corpus.md)"
            )
        })
}

/// The environment variable naming the corpus directory when no `--corpus` is given (the
/// ignored corpus tests read only this).
pub const DIR_VARIABLE: &str = "CORPUS_DIR";

// ---------------------------------------------------------------------------------------
// The evaluation's thresholds (the corpus README, "How the independent evaluation scores")
// ---------------------------------------------------------------------------------------

/// The scalar a case is evaluated in; it sets the thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    F64,
    F32,
    /// FixedI40F24, on the unit-scale subset only.
    Fixed,
}

impl Scalar {
    /// The scalars a runner's `--scalar` value selects: `f64`, `f32`, `fixed` or `all`.
    ///
    /// # Errors
    /// Any other value, with the message the runners print.
    pub fn list(value: &str) -> Result<Vec<Self>, String> {
        match value {
            "f64" => Ok(vec![Self::F64]),
            "f32" => Ok(vec![Self::F32]),
            "fixed" => Ok(vec![Self::Fixed]),
            "all" => Ok(vec![Self::F64, Self::F32, Self::Fixed]),
            s => Err(format!("--scalar {s}: expected f64, f32, fixed or all")),
        }
    }

    /// The name the runners print.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::F64 => "f64",
            Self::F32 => "f32",
            Self::Fixed => "fixed",
        }
    }

    /// The band around 0 inside which a verdict or a sign is not "clear": 1e-12 ·
    /// (scale + max|coordinate|) in f64, 1e-6 · (…) in f32 and fixed-point.
    #[must_use]
    pub fn clear_band(self, case: &Case) -> f64 {
        let size = case.meta.scale + case.max_coord();
        match self {
            Self::F64 => 1e-12 * size,
            Self::F32 | Self::Fixed => 1e-6 * size,
        }
    }

    /// Whether the true signed distance is clearly nonzero: outside the band and not a
    /// `boundary` case.
    #[must_use]
    pub fn is_clear(self, case: &Case) -> bool {
        !case.meta.boundary && case.signed_distance().abs() > self.clear_band(case)
    }

    /// The allowed distance and depth error: 1e-9 · scale (f64), 1e-4 · (scale +
    /// max|coordinate|) (f32), 1e-4 absolute (fixed-point).
    #[must_use]
    pub fn error_threshold(self, case: &Case) -> f64 {
        match self {
            Self::F64 => 1e-9 * case.meta.scale,
            Self::F32 => 1e-4 * (case.meta.scale + case.max_coord()),
            Self::Fixed => 1e-4,
        }
    }

    /// Whether the scalar evaluates the case (fixed-point: the unit-scale subset).
    #[must_use]
    pub fn covers(self, case: &Case) -> bool {
        self != Self::Fixed || case.unit_scale()
    }
}

// ---------------------------------------------------------------------------------------
// Shapes in their local frames and poses
// ---------------------------------------------------------------------------------------

/// A shape in its local frame, in f64.
#[derive(Clone, Debug)]
pub enum Local<const D: usize> {
    /// The points relative to their bounding-box centre.
    Polytope(Vec<SVector<f64, D>>),
    /// A ball of this radius at the origin.
    Ball(f64),
    /// The ends relative to their midpoint, and the radius.
    Capsule([SVector<f64, D>; 2], f64),
    /// The half extents.
    Cuboid(SVector<f64, D>),
}

/// A shape of the corpus: its local shape and the pose `x ↦ rotation · x + translation`
/// that puts it where the corpus says, in f64.
#[derive(Clone, Debug)]
pub struct Placed<const D: usize> {
    pub local: Local<D>,
    pub rotation: SMatrix<f64, D, D>,
    pub translation: SVector<f64, D>,
}

/// The determinant of `m` by Gaussian elimination with partial pivoting (any `D`).
#[must_use]
pub fn determinant<const D: usize>(m: &SMatrix<f64, D, D>) -> f64 {
    let (mut a, mut det) = (*m, 1.0);
    for k in 0..D {
        let p = (k..D)
            .max_by(|&i, &j| a[(i, k)].abs().total_cmp(&a[(j, k)].abs()))
            .unwrap_or(k);
        if p != k {
            a.swap_rows(k, p);
            det = -det;
        }
        det *= a[(k, k)];
        if a[(k, k)] == 0.0 {
            return 0.0;
        }
        for i in k + 1..D {
            let f = a[(i, k)] / a[(k, k)];
            for j in k..D {
                a[(i, j)] -= f * a[(k, j)];
            }
        }
    }
    det
}

/// `x` as a vector of dimension `D`.
fn vector<const D: usize>(x: &[f64]) -> Result<SVector<f64, D>, String> {
    if x.len() == D {
        Ok(SVector::from_column_slice(x))
    } else {
        Err(format!("{} coordinates where {D} are expected", x.len()))
    }
}

impl<const D: usize> Placed<D> {
    /// The local shape and pose of `spec`: polytopes and capsules relative to the centre
    /// of their points (which is the pose's translation), balls at their centre, cuboids
    /// at their rotation and translation.
    ///
    /// # Errors
    /// A coordinate list of the wrong length.
    pub fn new(spec: &ShapeSpec) -> Result<Self, String> {
        let at = |local, translation| Self {
            local,
            rotation: SMatrix::identity(),
            translation,
        };
        Ok(match spec {
            ShapeSpec::Polytope { points } => {
                let pts = points
                    .iter()
                    .map(|p| vector::<D>(p))
                    .collect::<Result<Vec<_>, _>>()?;
                let first = pts.first().copied().unwrap_or_else(SVector::zeros);
                let (lo, hi) = pts
                    .iter()
                    .fold((first, first), |(lo, hi), p| (lo.inf(p), hi.sup(p)));
                let c = (lo + hi) * 0.5;
                at(Local::Polytope(pts.iter().map(|p| p - c).collect()), c)
            }
            ShapeSpec::Ball { center, radius } => at(Local::Ball(*radius), vector(center)?),
            ShapeSpec::Capsule { a, b, radius } => {
                let (a, b) = (vector::<D>(a)?, vector::<D>(b)?);
                let m = (a + b) * 0.5;
                at(Local::Capsule([a - m, b - m], *radius), m)
            }
            ShapeSpec::Cuboid {
                half_extents,
                rotation,
                translation,
            } => {
                if rotation.len() != D {
                    return Err(format!(
                        "{} rotation rows where {D} are expected",
                        rotation.len()
                    ));
                }
                let rows = rotation
                    .iter()
                    .map(|r| vector::<D>(r))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut m = SMatrix::<f64, D, D>::from_fn(|i, j| rows[i][j]);
                // A box is symmetric under s ↦ −s per axis: a reflection (det −1) describes
                // the same box as the rotation with its first column negated.
                if determinant(&m) < 0.0 {
                    m.set_column(0, &-m.column(0));
                }
                Self {
                    local: Local::Cuboid(vector(half_extents)?),
                    rotation: m,
                    translation: vector(translation)?,
                }
            }
        })
    }

    /// Our shape, inputs cast to `T`.
    ///
    /// # Errors
    /// The constructor's (a valid input must be accepted: the runners count this as a
    /// failure).
    pub fn shape<T: Real>(&self) -> Result<Shape<T, D>, ShapeError> {
        let v = |x: &SVector<f64, D>| x.map(lit::<T>);
        Ok(match &self.local {
            Local::Polytope(pts) => Shape::Polytope(Polytope::try_new(
                pts.iter().map(|p| Point::from(v(p))).collect(),
            )?),
            Local::Ball(r) => Shape::Ball(Ball::try_new(lit(*r))?),
            Local::Capsule([a, b], r) => Shape::Capsule(Capsule::try_new(
                Point::from(v(a)),
                Point::from(v(b)),
                lit(*r),
            )?),
            Local::Cuboid(h) => Shape::Cuboid(Cuboid::try_new(v(h))?),
        })
    }

    /// The pose, cast to `T`, with the rotation type `R` (the one users hold:
    /// `UnitComplex` in 2D, `UnitQuaternion` in 3D).
    #[must_use]
    pub fn pose<T: Real, R: FromMatrix<T, D>>(&self) -> Isometry<T, R, D> {
        Isometry::from_parts(
            Translation::from(self.translation.map(lit::<T>)),
            R::from_matrix(&self.rotation),
        )
    }
}

/// A rotation type built from an f64 rotation matrix, accurate to f64 rounding, then cast.
pub trait FromMatrix<T: Real, const D: usize>: convex_proximity::PoseRotation<T, D> {
    /// The rotation of `m` (orthonormal with determinant 1 up to rounding).
    fn from_matrix(m: &SMatrix<f64, D, D>) -> Self;
}

impl<T: Real> FromMatrix<T, 2> for UnitComplex<T> {
    /// The first column is `(cos θ, sin θ)`.
    fn from_matrix(m: &SMatrix<f64, 2, 2>) -> Self {
        UnitComplex::new_unchecked(Complex::new(lit(m[(0, 0)]), lit(m[(1, 0)])))
    }
}

impl<T: Real> FromMatrix<T, 3> for UnitQuaternion<T> {
    /// Shepperd's closed form in f64 (nalgebra's `from_rotation_matrix`).
    fn from_matrix(m: &SMatrix<f64, 3, 3>) -> Self {
        let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(*m));
        UnitQuaternion::new_unchecked(Quaternion::from(q.coords.map(lit::<T>)))
    }
}

impl<T: Real, const D: usize> FromMatrix<T, D> for Rotation<T, D> {
    /// The matrix itself, cast.
    fn from_matrix(m: &SMatrix<f64, D, D>) -> Self {
        Rotation::from_matrix_unchecked(m.map(lit::<T>))
    }
}

/// The largest entry of `R(from_matrix(m)) − m` in f64: how exactly the rotation type
/// represents the corpus's matrix.
#[must_use]
pub fn rotation_error<const D: usize, R: FromMatrix<f64, D>>(m: &SMatrix<f64, D, D>) -> f64 {
    let r = R::from_matrix(m);
    let mut worst = 0.0f64;
    for j in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[j] = 1.0;
        let col = r.transform_vector(&e);
        for i in 0..D {
            worst = worst.max((col[i] - m[(i, j)]).abs());
        }
    }
    worst
}

/// Our shape of a corpus case (built once per case: the size of the polytope variant does
/// not matter).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Shape<T: Real, const D: usize> {
    Polytope(Polytope<T, D>),
    Ball(Ball<T>),
    Capsule(Capsule<T, D>),
    Cuboid(Cuboid<T, D>),
}

impl<T: Real, const D: usize> Shape<T, D> {
    /// The shape as a trait object (every method of [`SupportMap`] goes to the concrete
    /// shape, so the round parts' `radius` and `core_support` are kept).
    #[must_use]
    pub fn as_dyn(&self) -> &dyn SupportMap<T, D> {
        match self {
            Self::Polytope(s) => s,
            Self::Ball(s) => s,
            Self::Capsule(s) => s,
            Self::Cuboid(s) => s,
        }
    }
}

/// A computation on a pair of concrete shape types, chosen once per pair by [`dispatch`]
/// (what a user's code does: no dispatch per support call).
pub trait PairQuery<T: Real, const D: usize> {
    /// What it returns.
    type Output;
    /// Runs on `a` and `b`.
    fn run<A: SupportMap<T, D>, B: SupportMap<T, D>>(&mut self, a: &A, b: &B) -> Self::Output;
}

/// Runs `q` on the concrete types of `a` and `b`.
pub fn dispatch<T: Real, const D: usize, Q: PairQuery<T, D>>(
    a: &Shape<T, D>,
    b: &Shape<T, D>,
    q: &mut Q,
) -> Q::Output {
    macro_rules! with_b {
        ($a:expr) => {
            match b {
                Shape::Polytope(b) => q.run($a, b),
                Shape::Ball(b) => q.run($a, b),
                Shape::Capsule(b) => q.run($a, b),
                Shape::Cuboid(b) => q.run($a, b),
            }
        };
    }
    match a {
        Shape::Polytope(a) => with_b!(a),
        Shape::Ball(a) => with_b!(a),
        Shape::Capsule(a) => with_b!(a),
        Shape::Cuboid(a) => with_b!(a),
    }
}
