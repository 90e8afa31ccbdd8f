//! The adversarial harness shared by the `cargo fuzz` targets (`fuzz/fuzz_targets/`) and
//! the seeded stable sweep (`tests/fuzz_sweep.rs`): shapes, poses and tolerances built
//! from raw bytes, every query run, and the library's promises asserted (docs/testing.md):
//! no panic, no NaN or ∞ in an `Ok`, a tolerance's setter refusing exactly the values out
//! of its range, `lower ≤ upper`, the truth inside the bounds for small polytope pairs
//! (brute-force f64 oracles), A↔B symmetry, `contact_within` against `contact` (the same
//! answer, or apart with a bound it confirms), manifold points on both surfaces, never
//! deeper than the contact and the deepest among them as deep as it.
#![allow(dead_code, clippy::too_many_arguments, clippy::large_enum_variant)]

use crate::common::{accuracy, back, f, pback, polytope_distance, sat_depth};
use convex_proximity::{
    Dim, QueryError, Real, ShapeError, Tolerances,
    clip::{Feature, FeatureMap, Vertex},
    epa::ContactDim,
    gjk::Cache,
    lit,
    query::{self, Predicted},
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, Hull, MinkowskiSum, PointShape, Polytope, Rounded,
        Segment, SupportMap, Transformed,
    },
};
use nalgebra::{
    Const, Isometry, Point, Point3, Rotation, SMatrix, SVector, Translation, Unit, Vector3,
};

// ------------------------------------------------------------------------ byte reader

/// Reads values from fuzzer bytes; past the end every read is 0.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Self { data, pos: 0 }
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from(self.u8()) | u16::from(self.u8()) << 8
    }
    /// In [0, 1].
    pub fn unit(&mut self) -> f64 {
        f64::from(self.u16()) / f64::from(u16::MAX)
    }
    /// In [lo, hi].
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    /// A size: usually in [0.05, 2], sometimes 0, tiny or large (`nice` cleared then).
    pub fn size(&mut self, nice: &mut bool) -> f64 {
        match self.u8() {
            0..=235 => self.range(0.05, 2.0),
            236..=241 => 0.0,
            242..=245 => {
                *nice = false;
                self.range(1e-9, 1e-3)
            }
            246..=249 => {
                *nice = false;
                self.range(5.0, 300.0)
            }
            _ => {
                *nice = false;
                [1e-300, 1e-30, 1e6, 1e12, 1e30, 1e155, 1e300, -1.0][usize::from(self.u8() % 8)]
            }
        }
    }
    /// A coordinate in [-s, s].
    pub fn coord(&mut self, s: f64) -> f64 {
        self.range(-s, s)
    }
    pub fn vector<const D: usize>(&mut self, s: f64) -> SVector<f64, D> {
        SVector::from_fn(|_, _| self.coord(s))
    }
}

// ------------------------------------------------------------------------ shape specs

/// A shape described in f64, to be built in any scalar.
#[derive(Clone, Debug)]
pub enum Spec<const D: usize> {
    Ball(f64),
    Cuboid(SVector<f64, D>),
    Capsule(Point<f64, D>, Point<f64, D>, f64),
    Segment(Point<f64, D>, Point<f64, D>),
    Point(Point<f64, D>),
    Polytope(Vec<Point<f64, D>>),
    /// 3D only.
    Cone(f64, f64),
    /// 3D only.
    Cylinder(f64, f64),
    Rounded(Box<Spec<D>>, f64),
    Transformed(Box<Spec<D>>, SMatrix<f64, D, D>, SVector<f64, D>),
    Sum(Box<Spec<D>>, Box<Spec<D>>),
    Hull(Box<Spec<D>>, Box<Spec<D>>),
}

impl<const D: usize> Spec<D> {
    /// A shape from the bytes (`depth` limits nesting); `nice` is cleared by extreme values.
    pub fn read(b: &mut Bytes<'_>, depth: u32, nice: &mut bool) -> Self {
        let kinds = if depth == 0 { 8 } else { 12 };
        match b.u8() % kinds {
            0 => Spec::Ball(b.size(nice)),
            1 => Spec::Cuboid(SVector::from_fn(|_, _| b.size(nice))),
            2 => Spec::Capsule(Self::point(b), Self::point(b), b.size(nice)),
            3 => Spec::Segment(Self::point(b), Self::point(b)),
            4 => Spec::Point(Self::point(b)),
            5 | 6 => {
                let n = 1 + usize::from(b.u8() % 12);
                let flat = b.u8();
                let mut pts: Vec<Point<f64, D>> = (0..n).map(|_| Self::point(b)).collect();
                // Degenerate clouds: collinear, coplanar, duplicated, nearly coincident.
                match flat % 8 {
                    0 => {
                        for p in pts.iter_mut() {
                            for k in 1..D {
                                p[k] = p[0] * 0.3;
                            }
                        }
                    }
                    1 => {
                        for p in pts.iter_mut() {
                            p[D - 1] = 0.1;
                        }
                    }
                    2 => {
                        let q = pts[0];
                        pts.push(q);
                        pts.push(q + SVector::repeat(1e-12));
                    }
                    _ => {}
                }
                Spec::Polytope(pts)
            }
            7 if D == 3 => {
                if b.u8().is_multiple_of(2) {
                    Spec::Cone(b.size(nice), b.size(nice))
                } else {
                    Spec::Cylinder(b.size(nice), b.size(nice))
                }
            }
            7 => Spec::Ball(b.size(nice)),
            8 => Spec::Rounded(Box::new(Self::read(b, depth - 1, nice)), b.size(nice)),
            9 => {
                let inner = Self::read(b, depth - 1, nice);
                let m = match b.u8() % 4 {
                    // A rotation times a uniform scale: a similarity.
                    0 => rotation::<D>(b) * b.range(0.2, 2.0),
                    1 => SMatrix::from_fn(|_, _| b.coord(1.5)),
                    2 => SMatrix::from_diagonal(&SVector::from_fn(|_, _| b.size(nice))),
                    _ => -rotation::<D>(b),
                };
                Spec::Transformed(Box::new(inner), m, b.vector(1.0))
            }
            10 => Spec::Sum(
                Box::new(Self::read(b, depth - 1, nice)),
                Box::new(Self::read(b, depth - 1, nice)),
            ),
            _ => Spec::Hull(
                Box::new(Self::read(b, depth - 1, nice)),
                Box::new(Self::read(b, depth - 1, nice)),
            ),
        }
    }

    fn point(b: &mut Bytes<'_>) -> Point<f64, D> {
        Point::from(b.vector(1.0))
    }

    /// Every number rounded through `T` (the shape `T` really holds, for the f64 oracles).
    pub fn rounded<T: Real>(&self) -> Self {
        let r = |x: f64| f(lit::<T>(x));
        let rv = |x: &SVector<f64, D>| x.map(r);
        let rp = |x: &Point<f64, D>| Point::from(rv(&x.coords));
        match self {
            Spec::Ball(x) => Spec::Ball(r(*x)),
            Spec::Cuboid(h) => Spec::Cuboid(rv(h)),
            Spec::Capsule(a, b, x) => Spec::Capsule(rp(a), rp(b), r(*x)),
            Spec::Segment(a, b) => Spec::Segment(rp(a), rp(b)),
            Spec::Point(a) => Spec::Point(rp(a)),
            Spec::Polytope(p) => Spec::Polytope(p.iter().map(rp).collect()),
            Spec::Cone(h, x) => Spec::Cone(r(*h), r(*x)),
            Spec::Cylinder(h, x) => Spec::Cylinder(r(*h), r(*x)),
            Spec::Rounded(s, x) => Spec::Rounded(Box::new(s.rounded::<T>()), r(*x)),
            Spec::Transformed(s, m, t) => {
                Spec::Transformed(Box::new(s.rounded::<T>()), m.map(r), rv(t))
            }
            Spec::Sum(a, b) => Spec::Sum(Box::new(a.rounded::<T>()), Box::new(b.rounded::<T>())),
            Spec::Hull(a, b) => Spec::Hull(Box::new(a.rounded::<T>()), Box::new(b.rounded::<T>())),
        }
    }

    /// The shape in `T`, through the `try_` constructors (`Err` also for a value `T`
    /// cannot hold: converting it would panic, as it would for a user).
    pub fn build<T: Real>(&self) -> Result<Shape<T, D>, ShapeError> {
        if !self.fits::<T>() {
            return Err(ShapeError::Empty);
        }
        let v = |x: &SVector<f64, D>| x.map(lit::<T>);
        let p = |x: &Point<f64, D>| Point::from(v(&x.coords));
        Ok(match self {
            Spec::Ball(r) => Shape::Ball(Ball::try_new(lit(*r))?),
            Spec::Cuboid(h) => Shape::Cuboid(Cuboid::try_new(v(h))?),
            Spec::Capsule(a, b, r) => Shape::Capsule(Capsule::try_new(p(a), p(b), lit(*r))?),
            Spec::Segment(a, b) => Shape::Segment(Segment::try_new(p(a), p(b))?),
            Spec::Point(a) => Shape::Point(PointShape::try_new(p(a))?),
            Spec::Polytope(pts) => Shape::Polytope(Polytope::try_new(pts.iter().map(p).collect())?),
            Spec::Cone(h, r) => Shape::Cone(Cone::try_new(lit(*h), lit(*r))?),
            Spec::Cylinder(h, r) => Shape::Cylinder(Cylinder::try_new(lit(*h), lit(*r))?),
            Spec::Rounded(s, r) => Shape::Rounded(Box::new(Rounded::try_new(s.build()?, lit(*r))?)),
            Spec::Transformed(s, m, t) => Shape::Transformed(Box::new(Transformed::try_new(
                s.build()?,
                m.map(lit),
                v(t),
            )?)),
            Spec::Sum(a, b) => Shape::Sum(Box::new(MinkowskiSum::new(a.build()?, b.build()?))),
            Spec::Hull(a, b) => Shape::Hull(Box::new(Hull::new(a.build()?, b.build()?))),
        })
    }

    /// Whether every number converts to `T` (fixed-point: within its range).
    fn fits<T: Real>(&self) -> bool {
        let ok = |x: f64| fits::<T>(x);
        let okv = |x: &SVector<f64, D>| x.iter().all(|y| ok(*y));
        match self {
            Spec::Ball(x) => ok(*x),
            Spec::Cuboid(h) => okv(h),
            Spec::Capsule(a, b, x) => okv(&a.coords) && okv(&b.coords) && ok(*x),
            Spec::Segment(a, b) => okv(&a.coords) && okv(&b.coords),
            Spec::Point(a) => okv(&a.coords),
            Spec::Polytope(p) => p.iter().all(|x| okv(&x.coords)),
            Spec::Cone(h, x) | Spec::Cylinder(h, x) => ok(*h) && ok(*x),
            Spec::Rounded(s, x) => s.fits::<T>() && ok(*x),
            Spec::Transformed(s, m, t) => s.fits::<T>() && m.iter().all(|y| ok(*y)) && okv(t),
            Spec::Sum(a, b) | Spec::Hull(a, b) => a.fits::<T>() && b.fits::<T>(),
        }
    }

    /// The polytope's points, if this is a polytope with a full-dimensional hull (the
    /// brute-force oracles need one).
    pub fn polytope_points(&self) -> Option<&[Point<f64, D>]> {
        match self {
            Spec::Polytope(p) if p.len() > D => Some(p),
            _ => None,
        }
    }

    /// Whether every part has features (manifold-capable without a point fallback).
    pub fn scale(&self) -> f64 {
        let m = |x: f64| x.abs();
        match self {
            Spec::Ball(r) => m(*r),
            Spec::Cuboid(h) => h.amax(),
            Spec::Capsule(a, b, r) => a.coords.amax().max(b.coords.amax()) + m(*r),
            Spec::Segment(a, b) => a.coords.amax().max(b.coords.amax()),
            Spec::Point(a) => a.coords.amax(),
            Spec::Polytope(p) => p.iter().fold(0.0, |s, x| s.max(x.coords.amax())),
            Spec::Cone(h, r) | Spec::Cylinder(h, r) => m(*h).max(m(*r)),
            Spec::Rounded(s, r) => s.scale() + m(*r),
            Spec::Transformed(s, mm, t) => mm.amax() * s.scale() * D as f64 + t.amax(),
            Spec::Sum(a, b) => a.scale() + b.scale(),
            Spec::Hull(a, b) => a.scale().max(b.scale()),
        }
    }
}

/// Whether `x` converts to `T` (fixed-point panics beyond its range, or on NaN).
pub fn fits<T: Real>(x: f64) -> bool {
    !crate::common::is_fixed::<T>() || x.abs() < 5e11
}

/// A rotation matrix from the bytes (2D: an angle; 3D: Euler angles; det +1).
pub fn rotation<const D: usize>(b: &mut Bytes<'_>) -> SMatrix<f64, D, D> {
    let pi = core::f64::consts::PI;
    if D == 2 {
        let r = nalgebra::Rotation2::new(b.range(-pi, pi));
        SMatrix::from_fn(|i, j| r[(i, j)])
    } else if D == 3 {
        let r = nalgebra::Rotation3::from_euler_angles(
            b.range(-pi, pi),
            b.range(-pi, pi),
            b.range(-pi, pi),
        );
        SMatrix::from_fn(|i, j| r[(i, j)])
    } else {
        SMatrix::identity()
    }
}

// --------------------------------------------------------------------- the shape enum

/// Any built-in shape, nested: one type for the queries' generic parameters.
#[derive(Clone, Debug)]
pub enum Shape<T: Real, const D: usize> {
    Ball(Ball<T>),
    Cuboid(Cuboid<T, D>),
    Capsule(Capsule<T, D>),
    Segment(Segment<T, D>),
    Point(PointShape<T, D>),
    Polytope(Polytope<T, D>),
    Cone(Cone<T>),
    Cylinder(Cylinder<T>),
    Rounded(Box<Rounded<Shape<T, D>, T>>),
    Transformed(Box<Transformed<Shape<T, D>, T, D>>),
    Sum(Box<MinkowskiSum<Shape<T, D>, Shape<T, D>>>),
    Hull(Box<Hull<Shape<T, D>, Shape<T, D>>>),
}

fn to3<T: Real, const D: usize>(d: &SVector<T, D>) -> Vector3<T> {
    Vector3::new(d[0], d[1], d[2])
}
fn from3<T: Real, const D: usize>(p: Point3<T>) -> Point<T, D> {
    Point::from(SVector::from_fn(|i, _| p[i]))
}

macro_rules! each {
    ($self:ident, $s:ident => $e:expr, $c3:ident => $e3:expr) => {
        match $self {
            Shape::Ball($s) => $e,
            Shape::Cuboid($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::Segment($s) => $e,
            Shape::Point($s) => $e,
            Shape::Polytope($s) => $e,
            Shape::Rounded($s) => $e,
            Shape::Transformed($s) => $e,
            Shape::Sum($s) => $e,
            Shape::Hull($s) => $e,
            Shape::Cone($c3) => $e3,
            Shape::Cylinder($c3) => $e3,
        }
    };
}

impl<T: Real, const D: usize> SupportMap<T, D> for Shape<T, D> {
    fn support(&self, d: &SVector<T, D>) -> Point<T, D> {
        each!(self, s => s.support(d), c => from3(c.support(&to3(d))))
    }
    fn radius(&self) -> T {
        each!(self, s => SupportMap::<T, D>::radius(s), _c => T::zero())
    }
    fn core_support(&self, d: &SVector<T, D>) -> Point<T, D> {
        each!(self, s => s.core_support(d), c => from3(c.core_support(&to3(d))))
    }
    fn center(&self) -> Point<T, D> {
        each!(self, s => SupportMap::<T, D>::center(s), c => from3(c.center()))
    }
    fn validate(&self) -> Result<(), ShapeError> {
        each!(self, s => SupportMap::<T, D>::validate(s), c => SupportMap::<T, 3>::validate(c))
    }
    fn extent(&self) -> f64 {
        each!(self, s => SupportMap::<T, D>::extent(s), c => SupportMap::<T, 3>::extent(c))
    }
}

/// A single-point feature (shapes without a feature map: sums and hulls).
fn point_feature<T: Real, const D: usize>(
    p: Point<T, D>,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    out.normal = convex_proximity::normalize(dir).unwrap_or_else(|| {
        let mut e = SVector::zeros();
        e[0] = T::one();
        Unit::new_unchecked(e)
    });
    out.id = 0;
    out.vertices.clear();
    out.vertices.push(Vertex::new(p, 0));
}

impl<T: Real, const D: usize> FeatureMap<T, D> for Shape<T, D>
where
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        match self {
            Shape::Ball(s) => s.feature(dir, out),
            Shape::Cuboid(s) => s.feature(dir, out),
            Shape::Capsule(s) => s.feature(dir, out),
            Shape::Segment(s) => s.feature(dir, out),
            Shape::Point(s) => s.feature(dir, out),
            Shape::Polytope(s) => s.feature(dir, out),
            Shape::Rounded(s) => s.feature(dir, out),
            Shape::Transformed(s) => s.feature(dir, out),
            Shape::Sum(s) => point_feature(s.core_support(dir), dir, out),
            Shape::Hull(s) => point_feature(s.core_support(dir), dir, out),
            Shape::Cone(_) | Shape::Cylinder(_) => {
                let mut f3 = Feature::<T, 3> {
                    inscribed: out.inscribed,
                    ..Default::default()
                };
                match self {
                    Shape::Cone(c) => c.feature(&to3(dir), &mut f3),
                    Shape::Cylinder(c) => c.feature(&to3(dir), &mut f3),
                    _ => unreachable!(),
                }
                out.normal = Unit::new_unchecked(SVector::from_fn(|i, _| f3.normal[i]));
                out.id = f3.id;
                out.inscribed = f3.inscribed;
                out.vertices.clear();
                out.vertices.extend(
                    f3.vertices
                        .iter()
                        .map(|v| Vertex::new(from3(v.point), v.id)),
                );
            }
        }
    }
    fn half_extents(&self) -> Option<SVector<T, D>> {
        match self {
            Shape::Cuboid(s) => s.half_extents(),
            _ => None,
        }
    }
}

// ------------------------------------------------------------------ poses, tolerances

/// A pose: mostly rigid; sometimes broken on purpose (the query must then be `Err`).
#[derive(Clone, Debug)]
pub struct PoseSpec<const D: usize> {
    pub m: SMatrix<f64, D, D>,
    pub t: SVector<f64, D>,
    /// Not a rigid motion (shear, mirror, scale, NaN): only `Err` is acceptable.
    pub broken: bool,
}

impl<const D: usize> PoseSpec<D> {
    pub fn read(b: &mut Bytes<'_>, spread: f64, nice: &mut bool) -> Self {
        let mut m = rotation::<D>(b);
        let mut t = b.vector::<D>(spread);
        let mut broken = false;
        match b.u8() {
            0..=239 => {}
            240..=243 => {
                m[(0, 1)] += 5.0; // shear
                broken = true;
            }
            244..=247 => {
                m.column_mut(0).neg_mut(); // mirror
                broken = true;
            }
            248..=250 => {
                m *= 1.01; // scale
                broken = true;
            }
            251 => {
                t[0] = f64::NAN;
                broken = true;
            }
            _ => {
                *nice = false;
                t[0] = [1e6, 1e12, 3e11, 1e155, 1e300][usize::from(b.u8() % 5)];
            }
        }
        Self { m, t, broken }
    }

    pub fn pose<T: Real>(&self) -> Isometry<T, Rotation<T, D>, D> {
        Isometry::from_parts(
            Translation::from(self.t.map(lit::<T>)),
            Rotation::from_matrix_unchecked(self.m.map(lit::<T>)),
        )
    }

    /// The pose as `T` holds it, read back in f64.
    pub fn pose64<T: Real>(&self) -> Isometry<f64, Rotation<f64, D>, D> {
        let p = self.pose::<T>();
        Isometry::from_parts(
            Translation::from(back(&p.translation.vector)),
            Rotation::from_matrix_unchecked(p.rotation.matrix().map(f::<T>)),
        )
    }
}

/// Tolerances: the defaults, perturbed ones, or the defaults after a setter refused an
/// out-of-range value. Every value is drawn through its `with_` setter, which must accept
/// it exactly when it is in the field's range, and otherwise refuse it naming the field
/// and leave the tolerances as they were (`Err`: a setter broke that promise). What is
/// returned is valid by construction: the queries must accept it.
pub fn tolerances<T: Real>(b: &mut Bytes<'_>) -> Result<Tolerances<T>, String> {
    let t = Tolerances::<T>::default();
    match b.u8() {
        0..=199 => Ok(t),
        200..=239 => {
            let rel = t.gjk_rel() * lit::<T>(b.range(1.0, 1e3));
            let in_range = rel >= T::zero() && rel < T::one();
            let t = set(t, "gjk_rel", rel, in_range, Tol::with_gjk_rel)?;
            let n = 1 + u32::from(b.u8());
            let t = set(
                t,
                "gjk_max_iterations",
                n,
                n >= 1,
                Tol::with_gjk_max_iterations,
            )?;
            let n = 1 + u32::from(b.u8());
            let t = set(
                t,
                "epa_max_iterations",
                n,
                n >= 1,
                Tol::with_epa_max_iterations,
            )?;
            let cos = lit::<T>(b.range(0.1, 1.0));
            let in_range = cos > T::zero() && cos <= T::one();
            set(
                t,
                "manifold_min_alignment",
                cos,
                in_range,
                Tol::with_manifold_min_alignment,
            )
        }
        // One out-of-range value per selector, each refused: NaN and +∞ are −1 in fixed
        // point, which holds neither.
        k => {
            let x = |v: f64| -> T {
                if crate::common::is_fixed::<T>() && !v.is_finite() {
                    lit(-1.0)
                } else {
                    lit(v)
                }
            };
            // The real-valued fields' out-of-range values, then the iteration caps' 0.
            let reals: [(&str, f64, With<T, T>); 14] = [
                ("gjk_rel", -1.0, Tol::with_gjk_rel),
                ("gjk_rel", f64::NAN, Tol::with_gjk_rel),
                ("gjk_rel", 1.0, Tol::with_gjk_rel),
                ("gjk_touching", -1e-3, Tol::with_gjk_touching),
                ("gjk_resolution", -1.0, Tol::with_gjk_resolution),
                ("gjk_resolution", f64::INFINITY, Tol::with_gjk_resolution),
                ("gjk_abs", f64::NAN, Tol::with_gjk_abs),
                ("gjk_abs", f64::INFINITY, Tol::with_gjk_abs),
                (
                    "gjk_momentum_accuracy",
                    1.5,
                    Tol::with_gjk_momentum_accuracy,
                ),
                (
                    "gjk_momentum_accuracy",
                    -0.25,
                    Tol::with_gjk_momentum_accuracy,
                ),
                ("epa_rel", 2.0, Tol::with_epa_rel),
                (
                    "manifold_reference_bias",
                    1.0,
                    Tol::with_manifold_reference_bias,
                ),
                (
                    "manifold_min_alignment",
                    0.0,
                    Tol::with_manifold_min_alignment,
                ),
                (
                    "manifold_min_alignment",
                    f64::NAN,
                    Tol::with_manifold_min_alignment,
                ),
            ];
            let caps: [(&str, With<T, u32>); 2] = [
                ("gjk_max_iterations", Tol::with_gjk_max_iterations),
                ("epa_max_iterations", Tol::with_epa_max_iterations),
            ];
            match usize::from(k - 240) {
                i if i < reals.len() => {
                    let (field, value, with) = reals[i];
                    set(t, field, x(value), false, with)
                }
                i => {
                    let (field, with) = caps[i - reals.len()];
                    set(t, field, 0, false, with)
                }
            }
        }
    }
}

/// A `with_` setter of [`Tolerances`].
type With<T, V> = fn(Tolerances<T>, V) -> Result<Tolerances<T>, QueryError>;

/// [`Tolerances`], short, for its setters' paths (`Tol::with_gjk_rel`).
type Tol<T> = Tolerances<T>;

/// `t` with `field` set to `value` through its setter `with` when `in_range`; otherwise `t`
/// itself, after checking that the setter refused the value naming `field`.
fn set<T: Real, V: Copy + core::fmt::Debug>(
    t: Tolerances<T>,
    field: &'static str,
    value: V,
    in_range: bool,
    with: With<T, V>,
) -> Result<Tolerances<T>, String> {
    match with(t, value) {
        Ok(set) if in_range => Ok(set),
        Err(QueryError::InvalidTolerance { field: named }) if !in_range && named == field => Ok(t),
        got => Err(format!(
            "with_{field}({value:?}) on {t:?}: {got:?}, expected {}",
            if in_range {
                "Ok"
            } else {
                "a refusal naming the field"
            }
        )),
    }
}

// ------------------------------------------------------------------------ the checks

/// What one case found: a broken promise (a panic would abort the fuzzer instead).
pub type Verdict = Result<(), String>;

fn finite<T: Real, const D: usize>(v: &SVector<T, D>) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// An `Err` is acceptable for broken input or values outside the documented ranges;
/// `fine` says whether the inputs were all valid and nice (then only range errors from a
/// fixed-point scalar's small range are accepted).
pub(crate) fn err_ok(e: &QueryError, fine: bool, fixed: bool) -> Verdict {
    match e {
        QueryError::OutOfRange if fixed || !fine => Ok(()),
        _ if !fine => Ok(()),
        other => Err(format!("unexpected error on valid input: {other:?}")),
    }
}

/// Runs every query on one pair and checks the promises. `pa64`/`pb64`, `sa`/`sb`: the
/// inputs as `T` holds them, in f64, for the oracles.
pub fn check_pair<T: Real, const D: usize>(
    sa: &Spec<D>,
    pa: &PoseSpec<D>,
    sb: &Spec<D>,
    pb: &PoseSpec<D>,
    tol: &Tolerances<T>,
    fine: bool,
    manifold: bool,
) -> Verdict
where
    Const<D>: Dim + ContactDim<T, D> + ContactDim<f64, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let fixed = crate::common::is_fixed::<T>();
    let (a, b) = match (sa.build::<T>(), sb.build::<T>()) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Ok(()), // a constructor refused: fine
    };
    if !pa.t.iter().chain(pb.t.iter()).all(|x| fits::<T>(*x)) {
        return Ok(()); // not representable in `T`
    }
    let (pose_a, pose_b) = (pa.pose::<T>(), pb.pose::<T>());
    let fine = fine && !pa.broken && !pb.broken;
    let scale = sa.scale().max(sb.scale()) + (pa.t - pb.t).amax();
    let acc = accuracy::<T>(scale.max(1e-3)) * 4.0;
    let ctx = || format!("A {sa:?} at {pa:?}\nB {sb:?} at {pb:?}\ntol {tol:?}");

    // distance, and its mirror image.
    let d = query::distance(&pose_a, &a, &pose_b, &b, tol);
    let d2 = query::distance(&pose_b, &b, &pose_a, &a, tol);
    let (d, d2) = match (d, d2) {
        (Ok(d), Ok(d2)) => (d, d2),
        (Err(e), _) | (_, Err(e)) => {
            return err_ok(&e, fine, fixed).map_err(|m| format!("{m}\n{}", ctx()));
        }
    };
    // Every scalar rejects non-rigid rotations (shear, mirror, 1.01 scale): `RᵀR` against I.
    if pa.broken || pb.broken {
        return Err(format!("broken pose accepted: {d:?}\n{}", ctx()));
    }
    for x in [&d, &d2] {
        let ok = x.distance.is_finite()
            && x.lower_bound.is_finite()
            && x.upper_bound.is_finite()
            && finite(&x.point_a.coords)
            && finite(&x.point_b.coords)
            && x.normal.is_none_or(|n| finite(&n.into_inner()));
        if !ok {
            return Err(format!("non-finite distance: {x:?}\n{}", ctx()));
        }
        if f(x.lower_bound) > f(x.upper_bound) + acc * 1e-3 {
            return Err(format!("lower > upper: {x:?}\n{}", ctx()));
        }
    }
    // Symmetry: both answers' bounds contain the truth, so they overlap.
    let lo = f(d.lower_bound).max(f(d2.lower_bound));
    let hi = f(d.upper_bound).min(f(d2.upper_bound));
    if fine && lo > hi + acc {
        return Err(format!("A-B asymmetric: {d:?} vs {d2:?}\n{}", ctx()));
    }
    // intersects agrees with the distance's bounds.
    let hit = query::intersects(&pose_a, &a, &pose_b, &b, tol);
    match hit {
        Ok(h) => {
            if fine && h && f(d.lower_bound) > acc {
                return Err(format!("intersects but lower bound {d:?}\n{}", ctx()));
            }
            if fine && !h && f(d.upper_bound) <= 0.0 && d.termination.is_converged() {
                return Err(format!("apart but distance 0 {d:?}\n{}", ctx()));
            }
        }
        Err(e) => err_ok(&e, fine, fixed).map_err(|m| format!("intersects: {m}\n{}", ctx()))?,
    }
    // Warm start from another pair's cache gives the same answer.
    let mut cache = Cache::new();
    let other = Cuboid::new(SVector::<T, D>::repeat(lit(0.3)));
    let _ = query::distance_with_cache(&pose_a, &other, &pose_b, &other, tol, &mut cache);
    if let Ok(w) = query::distance_with_cache(&pose_a, &a, &pose_b, &b, tol, &mut cache)
        && fine
        && (f(w.lower_bound) > f(d.upper_bound) + acc || f(w.upper_bound) < f(d.lower_bound) - acc)
    {
        return Err(format!("warm {w:?} vs cold {d:?}\n{}", ctx()));
    }
    // contact.
    let c = match query::contact(&pose_a, &a, &pose_b, &b, tol) {
        Ok(c) => c,
        Err(e) => return err_ok(&e, fine, fixed).map_err(|m| format!("contact: {m}\n{}", ctx())),
    };
    let ok = c.separation.is_finite()
        && c.lower_bound.is_finite()
        && c.upper_bound.is_finite()
        && finite(&c.normal.into_inner())
        && finite(&c.point_a.coords)
        && finite(&c.point_b.coords);
    if !ok {
        return Err(format!("non-finite contact: {c:?}\n{}", ctx()));
    }
    if f(c.lower_bound) > f(c.upper_bound) + acc * 1e-3 {
        return Err(format!("contact lower > upper: {c:?}\n{}", ctx()));
    }
    // point_b − point_a = separation · normal (the contact's own promise).
    let gap =
        pback(&c.point_b) - pback(&c.point_a) - back(&c.normal.into_inner()) * f(c.separation);
    let width = (f(c.upper_bound) - f(c.lower_bound)).abs();
    if fine && gap.amax() > acc * 4.0 + width {
        return Err(format!(
            "contact witnesses not separation·normal apart ({gap}): {c:?}\n{}",
            ctx()
        ));
    }
    // contact_within: contact's answer, or apart with a lower bound the contact confirms.
    let two = lit::<T>(2.0);
    for prediction in [T::zero(), c.separation, c.upper_bound * two] {
        if prediction < T::zero() {
            continue; // (finite: the contact was checked above)
        }
        let r = query::contact_within(&pose_a, &a, &pose_b, &b, prediction, tol)
            .map_err(|e| format!("contact_within at {prediction:?}: {e:?}\n{}", ctx()))?;
        let wrong = match &r {
            Predicted::Apart { lower_bound, .. } => {
                // Below the prediction, or NaN.
                let below = !matches!(
                    lower_bound.partial_cmp(&prediction),
                    Some(core::cmp::Ordering::Greater | core::cmp::Ordering::Equal)
                );
                below || (fine && f(*lower_bound) > f(c.upper_bound) + acc)
            }
            Predicted::Contact(x) => format!("{x:?}") != format!("{c:?}"),
        };
        if wrong || (c.lower_bound > prediction && !r.is_apart()) {
            return Err(format!(
                "contact_within at {prediction:?}: {r:?} against contact {c:?}\n{}",
                ctx()
            ));
        }
    }
    // Oracles for polytope pairs: the distance and the penetration depth by brute force.
    if fine
        && let (Some(qa), Some(qb)) = (
            sa.rounded::<T>().polytope_points().map(<[_]>::to_vec),
            sb.rounded::<T>().polytope_points().map(<[_]>::to_vec),
        )
    {
        let (p64a, p64b) = (pa.pose64::<T>(), pb.pose64::<T>());
        let wa: Vec<_> = qa.iter().map(|x| p64a.transform_point(x)).collect();
        let wb: Vec<_> = qb.iter().map(|x| p64b.transform_point(x)).collect();
        let truth = polytope_distance(&wa, &wb);
        let slack = acc.max(1e-7 * scale);
        if truth > 0.0 {
            if f(d.lower_bound) > truth + slack || f(d.upper_bound) < truth - slack {
                return Err(format!(
                    "truth {truth} outside the distance bounds {d:?}\n{}",
                    ctx()
                ));
            }
        } else {
            let depth = sat_depth(&wa, &wb, scale).depth;
            if depth > slack
                && (f(c.lower_bound) > -depth + slack || f(c.upper_bound) < -depth - slack)
            {
                return Err(format!(
                    "depth {depth} outside the contact bounds {c:?}\n{}",
                    ctx()
                ));
            }
        }
    }
    if manifold {
        check_manifold::<T, D>(sa, pa, sb, pb, &a, &b, tol, fine, fixed, acc, &c, scale)
            .map_err(|m| format!("{m}\n{}", ctx()))?;
    }
    Ok(())
}

/// The signed distance of `x` to the f64 shape `s` at `pose` (f64 oracle: the contact of
/// the point against the shape), as the bounds that contact proved. Its estimate alone is
/// not the oracle: near the surface of a hull of curved shapes GJK stops with
/// `NoProgress` and bounds a few 1e-8 wide, its estimate at the upper end (sweep seeds
/// 51392749, 51394089, 61374411 of `manifold_3d_f64`: points 2e-8 to 1.2e-7 "off" whose
/// bounds held 0).
pub(crate) fn signed_distance<const D: usize>(
    pose: &Isometry<f64, Rotation<f64, D>, D>,
    s: &Shape<f64, D>,
    x: &Point<f64, D>,
) -> Option<Bounds>
where
    Const<D>: ContactDim<f64, D>,
{
    query::contact(
        pose,
        s,
        &Isometry::identity(),
        &PointShape::new(*x),
        &Tolerances::default(),
    )
    .ok()
    .map(|c| Bounds {
        lower: c.lower_bound.min(c.separation),
        upper: c.upper_bound.max(c.separation),
    })
}

/// An interval an oracle proved a value in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub(crate) lower: f64,
    pub(crate) upper: f64,
}

impl Bounds {
    /// Whether the interval, widened by `slack`, misses 0.
    pub(crate) fn misses_zero(&self, slack: f64) -> bool {
        self.lower > slack || self.upper < -slack
    }
}

fn check_manifold<T: Real, const D: usize>(
    sa: &Spec<D>,
    pa: &PoseSpec<D>,
    sb: &Spec<D>,
    pb: &PoseSpec<D>,
    a: &Shape<T, D>,
    b: &Shape<T, D>,
    tol: &Tolerances<T>,
    fine: bool,
    fixed: bool,
    acc: f64,
    c: &query::Contact<T, D>,
    scale: f64,
) -> Verdict
where
    Const<D>: Dim + ContactDim<T, D> + ContactDim<f64, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let prediction = lit::<T>(0.05 * scale.min(10.0));
    let m = match query::manifold(&pa.pose::<T>(), a, &pb.pose::<T>(), b, prediction, tol) {
        Ok(m) => m,
        Err(e) => return err_ok(&e, fine, fixed).map_err(|m| format!("manifold: {m}")),
    };
    let n = back(&m.normal.into_inner());
    if !n.iter().all(|x| x.is_finite()) || (n.norm() - 1.0).abs() > 1e-3 {
        return Err(format!("manifold normal {n}: {m:?}"));
    }
    let (a64, b64) = match (
        sa.rounded::<T>().build::<f64>(),
        sb.rounded::<T>().build::<f64>(),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Ok(()),
    };
    let (p64a, p64b) = (pa.pose64::<T>(), pb.pose64::<T>());
    // Manifold points are as exact as the contact: its bounds' width (an EPA stopped by
    // its cap on a curved core) plus the rounding.
    let slack = acc * 4.0 + (f(c.upper_bound) - f(c.lower_bound)).abs();
    // The deepest pair is there (`clip::build`, step 5): a contact within the prediction
    // has a point as deep as it, up to the same slack.
    let deepest = m
        .points()
        .iter()
        .map(|p| f(p.separation))
        .fold(f64::INFINITY, f64::min);
    let misses = deepest > f(c.upper_bound) + slack || deepest.is_nan();
    if fine && f(c.upper_bound) <= f(prediction) && misses {
        return Err(format!(
            "manifold misses the deepest pair ({deepest:e} against {c:?}): {m:?}"
        ));
    }
    for p in m.points() {
        let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
        let sep = f(p.separation);
        if !sep.is_finite()
            || !qa
                .coords
                .iter()
                .chain(qb.coords.iter())
                .all(|x| x.is_finite())
        {
            return Err(format!("non-finite manifold point {p:?}"));
        }
        if !fine {
            continue;
        }
        if ((qb - qa) - n * sep).amax() > slack {
            return Err(format!("point pair not along the normal: {p:?} in {m:?}"));
        }
        if sep < f(c.lower_bound) - slack {
            return Err(format!(
                "manifold point deeper than the contact {c:?}: {p:?} in {m:?}"
            ));
        }
        let (da, db) = (
            signed_distance(&p64a, &a64, &qa),
            signed_distance(&p64b, &b64, &qb),
        );
        if let (Some(da), Some(db)) = (da, db)
            && (da.misses_zero(slack) || db.misses_zero(slack))
        {
            return Err(format!(
                "manifold point off the surfaces (A {da:?}, B {db:?}): {p:?} in {m:?}, contact {c:?}"
            ));
        }
    }
    Ok(())
}

/// One fuzz case: the scalar and dimension are chosen by the caller, the rest by the
/// bytes.
pub fn run_case<T: Real, const D: usize>(data: &[u8], manifold: bool) -> Verdict
where
    Const<D>: Dim + ContactDim<T, D> + ContactDim<f64, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let mut b = Bytes::new(data);
    let mut nice = true;
    let sa = Spec::<D>::read(&mut b, 2, &mut nice);
    let sb = Spec::<D>::read(&mut b, 2, &mut nice);
    let pa = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let pb = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let tol = tolerances::<T>(&mut b)?;
    check_pair::<T, D>(&sa, &pa, &sb, &pb, &tol, nice, manifold)
}

/// `Polytope::try_new` on a cloud from the bytes: `Ok` or a `ShapeError`, never a panic;
/// on `Ok`, every point inside every face (within the hull's own tolerance) and the
/// support equal to the brute-force maximum over the points.
pub fn run_polytope<T: Real, const D: usize>(data: &[u8]) -> Verdict {
    let mut b = Bytes::new(data);
    let mut nice = true;
    let Spec::Polytope(pts) = ({
        let mut s = Spec::<D>::read(&mut Bytes::new(&[5]), 0, &mut nice);
        if let Spec::Polytope(p) = &mut s {
            let n = 1 + usize::from(b.u8() % 40);
            *p = (0..n).map(|_| Point::from(b.vector(1.0))).collect();
            match b.u8() % 6 {
                0 => p.iter_mut().for_each(|q| q[D - 1] = q[0] * 1e-9),
                1 => p.iter_mut().for_each(|q| {
                    for k in 1..D {
                        q[k] = q[0] * 0.5 + 1e-12 * q[k];
                    }
                }),
                2 => {
                    let q = p[0];
                    p.extend((0..3).map(|_| q));
                }
                _ => {}
            }
        }
        s
    }) else {
        return Ok(());
    };
    let cloud: Vec<Point<T, D>> = pts
        .iter()
        .map(|x| Point::from(x.coords.map(lit::<T>)))
        .collect();
    let poly = match Polytope::try_new(cloud.clone()) {
        Ok(p) => p,
        Err(_) => return Ok(()),
    };
    let size = pts.iter().fold(0.0f64, |s, x| s.max(x.coords.amax())) + 1.0;
    // The hull's documented acceptance (docs/hull.md §4): a point at most `1024 · round`
    // (`round` = 16 ε₆₄ s) in front of its nearest triangle, at the tolerances of the
    // attempt that built it (up to 256 times the first's). For f64 input that is above
    // 1e3 ε s: needles 1e-12 thick came out with points 1.6e-10 outside (finding F6).
    let side = (0..D).fold(0.0f64, |m, k| {
        let (lo, hi) = pts
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(x[k]), h.max(x[k]))
            });
        m.max(hi - lo)
    });
    let s = side + size - 1.0;
    let acceptance = 1024.0 * 256.0 * 16.0 * f64::EPSILON * s;
    let tolerance = (1e3 * f(T::default_epsilon()) * size).max(acceptance)
        + 1e-5 * f64::from(u8::from(crate::common::is_fixed::<T>()));
    for face in poly.faces() {
        let nrm = back(&face.normal().into_inner());
        let k = face.vertex_indices()[0];
        let off = nrm.dot(&back(&cloud[k].coords));
        for q in &cloud {
            let excess = nrm.dot(&back(&q.coords)) - off;
            if excess > tolerance {
                return Err(format!(
                    "point {q} outside face by excess {excess:e} {face:?} of {pts:?}"
                ));
            }
        }
    }
    for _ in 0..8 {
        let d: SVector<f64, D> = b.vector(1.0);
        let got = d.dot(&back(&poly.support(&d.map(lit::<T>)).coords));
        let best = cloud
            .iter()
            .map(|q| d.dot(&back(&q.coords)))
            .fold(f64::NEG_INFINITY, f64::max);
        if got < best - tolerance {
            return Err(format!(
                "support {got} below the maximum {best} along {d} for {pts:?}"
            ));
        }
    }
    Ok(())
}

/// The inputs one case decodes to (after the scalar byte), for reproducing a crash.
pub fn describe<const D: usize>(data: &[u8]) -> String {
    let mut b = Bytes::new(data);
    let mut nice = true;
    let sa = Spec::<D>::read(&mut b, 2, &mut nice);
    let sb = Spec::<D>::read(&mut b, 2, &mut nice);
    let pa = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let pb = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let tol = tolerances::<f64>(&mut b);
    format!("A {sa:?} at {pa:?}\nB {sb:?} at {pb:?}\ntolerances {tol:?}, nice {nice}")
}
