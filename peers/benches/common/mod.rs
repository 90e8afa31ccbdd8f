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
/// `Pose`), `vector` (parry's `Vector`), `svector` (our `SVector`). Expand it where `T` and
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
