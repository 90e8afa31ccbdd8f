//! Shared by the side-by-side benches (and the corpus speed runner): the seeded input
//! generator, the f64 poses, and their conversions to our types and to parry's.
#![allow(dead_code)]

use convex_proximity::{Tolerances, query, shape::SupportMap};
use nalgebra::{Isometry2, Isometry3, Quaternion, Translation3, UnitQuaternion, Vector2};

#[path = "../../../tests/common/splitmix.rs"]
mod splitmix;

pub mod cast_inputs;
pub mod manifold_inputs;

/// splitmix64 (`tests/common/splitmix.rs`): tiny, deterministic, good enough for inputs.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        splitmix::next_u64(&mut self.0)
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        splitmix::uniform(&mut self.0, 0.0, 1.0)
    }
    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        splitmix::uniform(&mut self.0, lo, hi)
    }
    /// Uniform on the unit sphere of dimension `N - 1` (rejection from the cube).
    pub fn unit_vec<const N: usize>(&mut self) -> [f64; N] {
        loop {
            let v: [f64; N] = std::array::from_fn(|_| self.range(-1.0, 1.0));
            let n2: f64 = v.iter().map(|x| x * x).sum();
            if n2 > 1e-4 && n2 <= 1.0 {
                let n = n2.sqrt();
                return v.map(|x| x / n);
            }
        }
    }
}

include!("../../../benches/common/bisect.rs");

/// A pose that can be placed along a random line: [`Pose3F`] and [`Pose2F`].
pub trait Line: Copy {
    /// A random placement of B relative to A: A's pose (translation in `[-3, 3)^D`, random
    /// orientation), then B's orientation and a unit direction `u`, drawn in that order;
    /// B's pose at offset `s` from A's centre along `u` is `at(s)`.
    fn line(rng: &mut SplitMix64) -> (Self, impl Fn(f64) -> Self);
}

impl Line for Pose3F {
    fn line(rng: &mut SplitMix64) -> (Self, impl Fn(f64) -> Self) {
        let pa = Pose3F {
            t: std::array::from_fn(|_| rng.range(-3.0, 3.0)),
            q: rng.unit_vec::<4>(),
        };
        let qb = rng.unit_vec::<4>();
        let u = rng.unit_vec::<3>();
        let at = move |s: f64| Pose3F {
            t: std::array::from_fn(|i| pa.t[i] + s * u[i]),
            q: qb,
        };
        (pa, at)
    }
}

impl Line for Pose2F {
    fn line(rng: &mut SplitMix64) -> (Self, impl Fn(f64) -> Self) {
        let pa = Pose2F {
            t: std::array::from_fn(|_| rng.range(-3.0, 3.0)),
            angle: rng.range(-std::f64::consts::PI, std::f64::consts::PI),
        };
        let angle_b = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
        let u = rng.unit_vec::<2>();
        let at = move |s: f64| Pose2F {
            t: std::array::from_fn(|i| pa.t[i] + s * u[i]),
            angle: angle_b,
        };
        (pa, at)
    }
}

/// A pose of dimension `D` that can be placed along a line, with our f64 distance between
/// two shapes at two such poses ([`dist3`], [`dist2`]).
pub trait Dist<const D: usize>: Line {
    fn dist<A: SupportMap<f64, D>, B: SupportMap<f64, D>>(
        a: &A,
        b: &B,
    ) -> impl Fn(&Self, &Self) -> f64;
}

impl Dist<3> for Pose3F {
    fn dist<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
        a: &A,
        b: &B,
    ) -> impl Fn(&Self, &Self) -> f64 {
        dist3(a, b)
    }
}

impl Dist<2> for Pose2F {
    fn dist<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(
        a: &A,
        b: &B,
    ) -> impl Fn(&Self, &Self) -> f64 {
        dist2(a, b)
    }
}

/// Our f64 shapes, used to place the inputs and check the answers.
pub mod reference {
    use convex_proximity::shape::{Ball, Capsule, Cuboid, Polytope};
    use nalgebra::{Point, SVector};

    /// The box of half-extents `h` (its first `D` entries).
    pub fn cuboid<const D: usize>(h: &[f64]) -> Cuboid<f64, D> {
        Cuboid::new(SVector::from_fn(|i, _| h[i]))
    }
    /// The capsule along local y of half-height `hh` and radius `r`.
    pub fn capsule<const D: usize>((hh, r): (f64, f64)) -> Capsule<f64, D> {
        let mut e = SVector::<f64, D>::zeros();
        e[1] = hh;
        Capsule::new(Point::from(-e), Point::from(e), r)
    }
    pub fn hull<const D: usize>(pts: &[[f64; D]]) -> Polytope<f64, D> {
        Polytope::try_new(pts.iter().map(|p| Point::from(*p)).collect()).unwrap()
    }
    pub fn ball(r: f64) -> Ball<f64> {
        Ball::new(r)
    }
}

/// The benches' criterion settings: warm-up and measurement times.
pub fn criterion(
    warm_up: std::time::Duration,
    measurement: std::time::Duration,
) -> criterion::Criterion {
    criterion::Criterion::default()
        .warm_up_time(warm_up)
        .measurement_time(measurement)
}

/// A 3D pose: translation and unit quaternion `(w, x, y, z)`.
#[derive(Clone, Copy, Debug)]
pub struct Pose3F {
    pub t: [f64; 3],
    pub q: [f64; 4],
}

/// A 2D pose: translation and angle.
#[derive(Clone, Copy, Debug)]
pub struct Pose2F {
    pub t: [f64; 2],
    pub angle: f64,
}

/// Our f64 reference side: poses and distances.
pub fn iso3(p: &Pose3F) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(p.t[0], p.t[1], p.t[2]),
        UnitQuaternion::new_normalize(Quaternion::new(p.q[0], p.q[1], p.q[2], p.q[3])),
    )
}
pub fn iso2(p: &Pose2F) -> Isometry2<f64> {
    Isometry2::new(Vector2::new(p.t[0], p.t[1]), p.angle)
}
pub fn dist3<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
    a: &A,
    b: &B,
) -> impl Fn(&Pose3F, &Pose3F) -> f64 {
    move |pa, pb| {
        query::distance(&iso3(pa), a, &iso3(pb), b, &Tolerances::default())
            .unwrap()
            .distance
    }
}
pub fn dist2<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(
    a: &A,
    b: &B,
) -> impl Fn(&Pose2F, &Pose2F) -> f64 {
    move |pa, pb| {
        query::distance(&iso2(pa), a, &iso2(pb), b, &Tolerances::default())
            .unwrap()
            .distance
    }
}

/// Conversions of the f64 inputs ([`Pose3F`], [`Pose2F`], coordinate slices) to our types
/// and to one parry crate's, in scalar `T`: `iso` (our `Isometry`), `pose` (parry's
/// `Pose`), `vector` (parry's `Vector`), `svector` (our `SVector`), and in 3D `v3` and `pv`
/// (ours and parry's 3-vector). Expand it where `T` and
/// that crate's `Pose`, `Rotation` and `Vector` are in scope.
#[allow(unused_macros)]
macro_rules! pose_conversions {
    (3) => {
        type Iso = nalgebra::Isometry3<T>;
        type PoseF = crate::common::Pose3F;
        fn iso(p: &PoseF) -> Iso {
            nalgebra::Isometry3::from_parts(
                nalgebra::Translation3::new(p.t[0] as T, p.t[1] as T, p.t[2] as T),
                nalgebra::UnitQuaternion::new_normalize(nalgebra::Quaternion::new(
                    p.q[0] as T,
                    p.q[1] as T,
                    p.q[2] as T,
                    p.q[3] as T,
                )),
            )
        }
        fn pose(p: &PoseF) -> Pose {
            Pose::from_parts(
                Vector::new(p.t[0] as T, p.t[1] as T, p.t[2] as T),
                Rotation::from_xyzw(p.q[1] as T, p.q[2] as T, p.q[3] as T, p.q[0] as T).normalize(),
            )
        }
        /// A 3-vector in `T`, ours (no allocation, unlike `svector`).
        #[allow(dead_code)]
        fn v3(x: &[f64; 3]) -> nalgebra::Vector3<T> {
            nalgebra::Vector3::new(x[0] as T, x[1] as T, x[2] as T)
        }
        /// A 3-vector in `T`, parry's (no allocation, unlike `vector`).
        #[allow(dead_code)]
        fn pv(x: &[f64; 3]) -> Vector {
            Vector::new(x[0] as T, x[1] as T, x[2] as T)
        }
        $crate::common::pose_conversions!(any);
    };
    (2) => {
        type Iso = nalgebra::Isometry2<T>;
        type PoseF = crate::common::Pose2F;
        fn iso(p: &PoseF) -> Iso {
            nalgebra::Isometry2::new(
                nalgebra::Vector2::new(p.t[0] as T, p.t[1] as T),
                p.angle as T,
            )
        }
        fn pose(p: &PoseF) -> Pose {
            Pose::new(Vector::new(p.t[0] as T, p.t[1] as T), p.angle as T)
        }
        $crate::common::pose_conversions!(any);
    };
    (any) => {
        #[allow(dead_code)]
        fn vector(x: &[f64]) -> Vector {
            let v: Vec<T> = x.iter().map(|&c| c as T).collect();
            Vector::from_slice(&v)
        }
        #[allow(dead_code)]
        fn svector<const N: usize>(x: &[f64]) -> nalgebra::SVector<T, N> {
            nalgebra::SVector::from_fn(|i, _| x[i] as T)
        }
    };
}
#[allow(unused_imports)]
pub(crate) use pose_conversions;

/// The head of a module written once per (parry crate, scalar `$T`, dimension `$D`):
/// parry's `Pose`, `Rotation` and `Vector`, `T`, `D` and [`pose_conversions`].
#[allow(unused_macros)]
macro_rules! parry_scalar {
    ($parry:ident, $T:ty, $D:tt) => {
        #[allow(unused_imports)]
        use $parry::math::{Pose, Rotation, Vector};
        type T = $T;
        #[allow(dead_code)]
        const D: usize = $D;
        $crate::common::pose_conversions!($D);
    };
}
#[allow(unused_imports)]
pub(crate) use parry_scalar;
