//! The shapes of the accelerated-GJK papers (Montaut et al., RSS 2022 and IEEE T-RO
//! 2024), generated: ellipsoids as transformed unit balls, and convex hulls of random
//! points near the unit sphere, at imposed gaps from overlap through near contact to far.
//! The truth of each pair is a long f64 run (`gjk_rel = 0`, 100 000 iterations: it stops
//! only at the rounding or on a repeated support point).

use crate::corpus::FromMatrix;
use crate::measure::Meta;
use crate::splitmix::uniform;
use convex_proximity::{
    Real, Tolerances, lit, query,
    shape::{Ball, Polytope, SupportMap, Transformed},
};
use nalgebra::{
    Isometry3, Matrix3, Point3, Quaternion, Translation3, UnitQuaternion, Vector3, Vector4,
};

/// The imposed signed distances (the shapes are about 1 across): two overlaps, near
/// contact, far. Overlaps are made by pushing a pair at gap 1e-2 along its normal.
pub const GAPS: [f64; 8] = [-0.1, -1e-2, 1e-4, 1e-3, 1e-2, 0.1, 1.0, 3.0];

/// The hulls' point counts (the papers' range).
pub const HULL_SIZES: [usize; 5] = [33, 100, 330, 1000, 2500];

/// One shape of a generated pair: its local form, rotation and centre (f64).
#[derive(Clone, Debug)]
pub struct Body {
    pub kind: Kind,
    pub rotation: Matrix3<f64>,
    pub center: Vector3<f64>,
}

#[derive(Clone, Debug)]
pub enum Kind {
    /// The unit ball under `diag(semi-axes)`.
    Ellipsoid(Vector3<f64>),
    /// The hull of `pool[i]`.
    Hull(usize),
}

/// The generated pairs and the hulls' point sets they share.
pub struct Papers {
    pub pool: Vec<Vec<Point3<f64>>>,
    pub pairs: Vec<(Body, Body, Meta)>,
}

/// How many pairs and pooled hulls.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub ellipsoids_per_gap: usize,
    pub hulls_per_gap: usize,
    pub pool_per_size: usize,
}

struct Rng(u64);

impl Rng {
    fn u(&mut self, lo: f64, hi: f64) -> f64 {
        uniform(&mut self.0, lo, hi)
    }
    /// A standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let (u, v) = (self.u(f64::MIN_POSITIVE, 1.0), self.u(0.0, 1.0));
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
    fn direction(&mut self) -> Vector3<f64> {
        Vector3::new(self.normal(), self.normal(), self.normal()).normalize()
    }
    /// A uniformly random rotation (a normalised Gaussian quaternion).
    fn rotation(&mut self) -> Matrix3<f64> {
        let q = Vector4::new(self.normal(), self.normal(), self.normal(), self.normal());
        UnitQuaternion::from_quaternion(Quaternion::from(q))
            .to_rotation_matrix()
            .into_inner()
    }
}

/// The reference run's tolerances.
fn reference() -> Tolerances<f64> {
    Tolerances::default()
        .with_gjk_rel(0.0)
        .and_then(|t| t.with_gjk_max_iterations(100_000))
        .expect("a relative gap of 0 and a cap of 100 000 are in range")
}

/// A body's pose in `T` (the rotation through the type users hold).
pub fn pose<T: Real>(b: &Body) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::from(b.center.map(lit::<T>)),
        <UnitQuaternion<T> as FromMatrix<T, 3>>::from_matrix(&b.rotation),
    )
}

/// The ellipsoid of semi-axes `axes` in `T`.
pub fn ellipsoid<T: Real>(axes: &Vector3<f64>) -> Transformed<Ball<T>, T, 3> {
    Transformed::new(
        Ball::new(T::one()),
        Matrix3::from_diagonal(axes).map(lit::<T>),
        Vector3::zeros(),
    )
}

/// The hull of `points` in `T`.
pub fn hull<T: Real>(points: &[Point3<f64>]) -> Polytope<T, 3> {
    Polytope::try_new(points.iter().map(|p| p.map(lit::<T>)).collect())
        .expect("a hull of points near the sphere is valid")
}

/// The world bounding box of a posed shape, from its supports along ±eᵢ.
fn bbox<S: SupportMap<f64, 3>>(s: &S, b: &Body) -> (Vector3<f64>, Vector3<f64>) {
    let (mut lo, mut hi) = (Vector3::zeros(), Vector3::zeros());
    for i in 0..3 {
        let e = Vector3::ith(i, 1.0);
        let local = |d: Vector3<f64>| {
            let p = s.support(&(b.rotation.transpose() * d)).coords;
            let r = s.radius();
            b.rotation * (p + b.rotation.transpose() * d * r) + b.center
        };
        hi[i] = local(e)[i];
        lo[i] = local(-e)[i];
    }
    (lo, hi)
}

/// Moves `b` along the pair's normal until the reference distance is `gap` (overlaps:
/// to 1e-2, then pushed through by `1e-2 − gap`), and returns the pair's truth.
fn place<SA, SB>(sa: &SA, a: &Body, sb: &SB, b: &mut Body, gap: f64, id: String) -> Meta
where
    SA: SupportMap<f64, 3>,
    SB: SupportMap<f64, 3>,
{
    let tol = reference();
    let pa = pose::<f64>(a);
    let dist = |b: &Body| query::distance(&pa, sa, &pose::<f64>(b), sb, &tol).expect("valid");
    let goal = if gap < 0.0 { 1e-2 } else { gap };
    for _ in 0..12 {
        let d = dist(b);
        let Some(n) = d.normal else { break };
        let step = goal - d.distance;
        b.center += n.into_inner() * step;
        if step.abs() <= 1e-14 {
            break;
        }
    }
    if gap < 0.0 {
        let d = dist(b);
        if let Some(n) = d.normal {
            b.center += n.into_inner() * (gap - d.distance);
        }
    }
    let d = dist(b);
    let (la, ha) = bbox(sa, a);
    let (lb, hb) = bbox(sb, b);
    let (lo, hi) = (la.inf(&lb), ha.sup(&hb));
    let scale = (hi - lo).norm();
    let coord = lo.abs().max().max(hi.abs().max());
    let group = id.split(' ').next().unwrap_or_default().to_string();
    Meta {
        id,
        group,
        gap: Some((GAPS.iter().position(|g| *g == gap).unwrap_or(0), gap)),
        vertices: 0,
        intersecting: d.distance == 0.0,
        distance: d.distance,
        signed: if d.distance == 0.0 { gap } else { d.distance },
        scale,
        size: scale + coord,
        boundary: false,
    }
}

/// A pair's second body, started in direction `dir` beyond both shapes' reach.
fn start(kind: Kind, rng: &mut Rng, reach: f64) -> Body {
    let dir = rng.direction();
    Body {
        kind,
        rotation: rng.rotation(),
        center: dir * (reach + 0.5),
    }
}

/// Every generated pair (seeded: the same pairs on every run of the same sizes).
pub fn generate(sizes: Sizes) -> Papers {
    let mut rng = Rng(0x5EED_2022);
    let mut pairs = Vec::new();
    // Ellipsoids: semi-axes in [0.2, 1].
    for &gap in &GAPS {
        for _ in 0..sizes.ellipsoids_per_gap {
            let axes =
                |rng: &mut Rng| Vector3::new(rng.u(0.2, 1.0), rng.u(0.2, 1.0), rng.u(0.2, 1.0));
            let (xa, xb) = (axes(&mut rng), axes(&mut rng));
            let a = Body {
                kind: Kind::Ellipsoid(xa),
                rotation: rng.rotation(),
                center: Vector3::zeros(),
            };
            let mut b = start(Kind::Ellipsoid(xb), &mut rng, xa.max() + xb.max());
            let meta = place(
                &ellipsoid::<f64>(&xa),
                &a,
                &ellipsoid::<f64>(&xb),
                &mut b,
                gap,
                format!("ellipsoids gap {gap:e} #{}", pairs.len()),
            );
            pairs.push((a, b, meta));
        }
    }
    // Hulls of n points at radius [0.98, 1] in uniform directions.
    let mut pool = Vec::new();
    for &n in &HULL_SIZES {
        let first = pool.len();
        for _ in 0..sizes.pool_per_size {
            let pts: Vec<Point3<f64>> = (0..n)
                .map(|_| Point3::from(rng.direction() * rng.u(0.98, 1.0)))
                .collect();
            pool.push(pts);
        }
        let hulls: Vec<Polytope<f64, 3>> = pool[first..].iter().map(|p| hull(p)).collect();
        let k = sizes.pool_per_size;
        for &gap in &GAPS {
            for j in 0..sizes.hulls_per_gap {
                let (ia, ib) = (j % k, (j + 1 + j / k) % k);
                let a = Body {
                    kind: Kind::Hull(first + ia),
                    rotation: rng.rotation(),
                    center: Vector3::zeros(),
                };
                let mut b = start(Kind::Hull(first + ib), &mut rng, 2.0);
                let mut meta = place(
                    &hulls[ia],
                    &a,
                    &hulls[ib],
                    &mut b,
                    gap,
                    format!("hull{n} gap {gap:e} #{}", pairs.len()),
                );
                meta.vertices = n;
                pairs.push((a, b, meta));
            }
        }
    }
    Papers { pool, pairs }
}
