//! The seeded inputs of the manifold benches (`peers_manifold.rs`), shared with the
//! manifold probe (`examples/manifold_probe.rs`), which regenerates them for instruction
//! counts: B resting on the top face of a ground box A (see `peers_manifold.rs`).

use super::{Pose2F, Pose3F, SplitMix64};

/// Pose pairs per case.
pub const BATCH: usize = 64;
/// The speculative distance of both libraries.
pub const PREDICTION: f64 = 0.01;
/// The largest tilt of B from resting flat, degrees.
pub const MAX_TILT_DEG: f64 = 2.0;
/// The target signed distances are uniform in this range.
pub const SEPARATION_RANGE: (f64, f64) = (-0.01, 0.005);

pub const GROUND: [f64; 3] = [1.0, 0.5, 1.0];
pub const BOX: [f64; 3] = [0.5, 0.4, 0.6];
/// Capsule along local y: half-height, radius.
pub const CAPSULE: (f64, f64) = (0.6, 0.3);
/// The prism of `hull_on_hull`: sides, radius, half-height.
pub const PRISM: (usize, f64, f64) = (16, 0.5, 0.4);

/// The prism's points: two regular polygons at ±half-height (local y up).
pub fn prism_points() -> Vec<[f64; 3]> {
    let (n, r, h) = PRISM;
    (0..2 * n)
        .map(|k| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [r * a.cos(), if k < n { -h } else { h }, r * a.sin()]
        })
        .collect()
}

/// The height `h` in `[0, 3]` where `sep(h)` (increasing) reaches `target` (bisection).
pub fn height(target: f64, sep: impl Fn(f64) -> f64) -> f64 {
    super::bisect(0.0, 3.0, |mid| sep(mid) < target).1
}

/// Our f64 shapes and poses, used only to place the inputs.
pub mod reference {
    pub use super::super::reference::cuboid;
    pub use super::super::{iso2, iso3};
    use super::{CAPSULE, Pose3F};
    use convex_proximity::{
        Tolerances, query,
        shape::{Capsule, SupportMap},
    };
    use nalgebra::{Isometry2, Isometry3};

    pub fn pose3(i: &Isometry3<f64>) -> Pose3F {
        let q = i.rotation.quaternion();
        Pose3F {
            t: [i.translation.x, i.translation.y, i.translation.z],
            q: [q.w, q.i, q.j, q.k],
        }
    }
    pub fn sep3<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
        a: &A,
        pa: &Isometry3<f64>,
        b: &B,
        pb: &Isometry3<f64>,
    ) -> f64 {
        query::contact(pa, a, pb, b, &Tolerances::default())
            .unwrap()
            .separation
    }
    pub fn sep2<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(
        a: &A,
        pa: &Isometry2<f64>,
        b: &B,
        pb: &Isometry2<f64>,
    ) -> f64 {
        query::contact(pa, a, pb, b, &Tolerances::default())
            .unwrap()
            .separation
    }
    pub fn prism() -> convex_proximity::shape::Polytope<f64, 3> {
        super::super::reference::hull(&super::prism_points())
    }
    pub fn capsule() -> Capsule<f64, 3> {
        super::super::reference::capsule::<3>(CAPSULE)
    }
}

/// `BATCH` resting placements of `b` on the ground box (3D); `base`: B's rotation before
/// the yaw and tilt (lays the capsule flat).
pub fn resting3<B: convex_proximity::shape::SupportMap<f64, 3>>(
    rng: &mut SplitMix64,
    b: &B,
    base: nalgebra::UnitQuaternion<f64>,
) -> Vec<(Pose3F, Pose3F)> {
    use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
    let a = reference::cuboid::<3>(&GROUND);
    (0..BATCH)
        .map(|_| {
            let pa = reference::iso3(&Pose3F {
                t: std::array::from_fn(|_| rng.range(-3.0, 3.0)),
                q: rng.unit_vec::<4>(),
            });
            let yaw = UnitQuaternion::from_axis_angle(
                &Vector3::y_axis(),
                rng.range(-std::f64::consts::PI, std::f64::consts::PI),
            );
            let phi = rng.range(-std::f64::consts::PI, std::f64::consts::PI);
            let tilt = UnitQuaternion::from_axis_angle(
                &nalgebra::Unit::new_normalize(Vector3::new(phi.cos(), 0.0, phi.sin())),
                rng.range(0.0, MAX_TILT_DEG).to_radians(),
            );
            let (x, z) = (rng.range(-0.1, 0.1), rng.range(-0.1, 0.1));
            let target = rng.range(SEPARATION_RANGE.0, SEPARATION_RANGE.1);
            let rel = |h: f64| Isometry3::from_parts(Translation3::new(x, h, z), tilt * yaw * base);
            let h = height(target, |h| reference::sep3(&a, &pa, b, &(pa * rel(h))));
            (reference::pose3(&pa), reference::pose3(&(pa * rel(h))))
        })
        .collect()
}

/// As [`resting3`], in 2D (the tilt is the whole rotation).
pub fn resting2<B: convex_proximity::shape::SupportMap<f64, 2>>(
    rng: &mut SplitMix64,
    b: &B,
) -> Vec<(Pose2F, Pose2F)> {
    use nalgebra::{Isometry2, Vector2};
    let a = reference::cuboid::<2>(&GROUND);
    (0..BATCH)
        .map(|_| {
            let pa = Pose2F {
                t: std::array::from_fn(|_| rng.range(-3.0, 3.0)),
                angle: rng.range(-std::f64::consts::PI, std::f64::consts::PI),
            };
            let ia = reference::iso2(&pa);
            let tilt = rng.range(-MAX_TILT_DEG, MAX_TILT_DEG).to_radians();
            let x = rng.range(-0.1, 0.1);
            let target = rng.range(SEPARATION_RANGE.0, SEPARATION_RANGE.1);
            let rel = |h: f64| Isometry2::new(Vector2::new(x, h), tilt);
            let h = height(target, |h| reference::sep2(&a, &ia, b, &(ia * rel(h))));
            let pb = ia * rel(h);
            (
                pa,
                Pose2F {
                    t: [pb.translation.x, pb.translation.y],
                    angle: pb.rotation.angle(),
                },
            )
        })
        .collect()
}

/// The exact point count of each resting placement: B's vertices (`corners`, and the
/// radius of the round part around them) within [`PREDICTION`] of A's top face. B lies
/// over the face (lateral offsets ≤ 0.1), so each such vertex makes one point.
pub fn expected3(batch: &[(Pose3F, Pose3F)], corners: &[[f64; 3]], radius: f64) -> Vec<usize> {
    batch
        .iter()
        .map(|(pa, pb)| {
            let rel = reference::iso3(pa).inverse() * reference::iso3(pb);
            corners
                .iter()
                .filter(|c| {
                    let p = rel * nalgebra::Point3::new(c[0], c[1], c[2]);
                    p.y - radius - GROUND[1] <= PREDICTION
                })
                .count()
        })
        .collect()
}

/// As [`expected3`], in 2D.
pub fn expected2(batch: &[(Pose2F, Pose2F)], corners: &[[f64; 2]]) -> Vec<usize> {
    batch
        .iter()
        .map(|(pa, pb)| {
            let rel = reference::iso2(pa).inverse() * reference::iso2(pb);
            corners
                .iter()
                .filter(|c| (rel * nalgebra::Point2::new(c[0], c[1])).y - GROUND[1] <= PREDICTION)
                .count()
        })
        .collect()
}

/// A case's batch of pose pairs (A, B) and each placement's exact point count.
pub struct Batch<P> {
    pub poses: Vec<(P, P)>,
    pub expected: Vec<usize>,
}

/// The 3D cases, from their fixed seed, in the bench's order.
pub struct Inputs3 {
    pub box_stack: Batch<Pose3F>,
    pub capsule_on_box: Batch<Pose3F>,
    pub hull_on_hull: Batch<Pose3F>,
}

/// The 3D inputs (seed `0x5EED_AA03`).
pub fn inputs3() -> Inputs3 {
    use nalgebra::{UnitQuaternion, Vector3};
    let mut rng = SplitMix64(0x5EED_AA03);
    let stack = resting3(
        &mut rng,
        &reference::cuboid::<3>(&BOX),
        UnitQuaternion::identity(),
    );
    // The capsule's axis (local y) laid along x.
    let flat = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
    let caps = resting3(&mut rng, &reference::capsule(), flat);
    let box_corners: Vec<[f64; 3]> = (0..8)
        .map(|k| std::array::from_fn(|i| if k >> i & 1 == 1 { BOX[i] } else { -BOX[i] }))
        .collect();
    let hulls = resting3(&mut rng, &reference::prism(), UnitQuaternion::identity());
    Inputs3 {
        box_stack: Batch {
            expected: expected3(&stack, &box_corners, 0.0),
            poses: stack,
        },
        capsule_on_box: Batch {
            expected: expected3(
                &caps,
                &[[0.0, CAPSULE.0, 0.0], [0.0, -CAPSULE.0, 0.0]],
                CAPSULE.1,
            ),
            poses: caps,
        },
        hull_on_hull: Batch {
            expected: expected3(&hulls, &prism_points(), 0.0)
                .into_iter()
                .map(|n| n.min(4))
                .collect(),
            poses: hulls,
        },
    }
}

/// The 2D box stack (seed `0x5EED_AA02`).
pub fn inputs2() -> Batch<Pose2F> {
    let mut rng = SplitMix64(0x5EED_AA02);
    let stack = resting2(&mut rng, &reference::cuboid::<2>(&BOX));
    let corners: Vec<[f64; 2]> = (0..4)
        .map(|k| std::array::from_fn(|i| if k >> i & 1 == 1 { BOX[i] } else { -BOX[i] }))
        .collect();
    Batch {
        expected: expected2(&stack, &corners),
        poses: stack,
    }
}

/// The ground box's 8 corners (the points of `hull_on_hull`'s A).
pub fn ground_corners() -> Vec<[f64; 3]> {
    (0..8)
        .map(|k| {
            std::array::from_fn(|i| {
                if k >> i & 1 == 1 {
                    GROUND[i]
                } else {
                    -GROUND[i]
                }
            })
        })
        .collect()
}

/// The head of a manifold module written once per (parry crate, scalar `$T`, dimension
/// `$D`), shared by the bench and the probe: [`parry_scalar`](super::parry_scalar), parry's
/// manifold types, `reset`, and both libraries' shapes of the cases.
#[allow(unused_macros)]
macro_rules! manifold_scalar {
    ($parry:ident, $T:ty, $D:tt) => {
        $crate::common::parry_scalar!($parry, $T, $D);
        use $parry::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
        use $parry::shape as ps;

        /// Clears a reused parry manifold so the next query recomputes it (no
        /// coherence shortcut, no warm-start direction), keeping its memory.
        fn reset(ms: &mut [ContactManifold<(), ()>]) {
            for m in ms {
                m.clear();
                m.local_n1 = Vector::ZERO;
                m.local_n2 = Vector::ZERO;
            }
        }

        /// Both libraries' box of half-extents `h` (its first `D` entries).
        pub fn boxes(h: [f64; 3]) -> (convex_proximity::shape::Cuboid<T, D>, ps::Cuboid) {
            (
                convex_proximity::shape::Cuboid::new(svector::<D>(&h)),
                ps::Cuboid::new(vector(&h[..D])),
            )
        }
        $crate::common::manifold_inputs::manifold_scalar!(@$D);
    };
    (@3) => {
        /// Both libraries' capsule of `capsule_on_box` (`CAPSULE`, along local y).
        pub fn capsule() -> (convex_proximity::shape::Capsule<T, 3>, ps::Capsule) {
            use $crate::common::manifold_inputs::CAPSULE;
            let e = CAPSULE.0 as T;
            (
                convex_proximity::shape::Capsule::new(
                    nalgebra::Point3::new(0.0, -e, 0.0),
                    nalgebra::Point3::new(0.0, e, 0.0),
                    CAPSULE.1 as T,
                ),
                ps::Capsule::new_y(e, CAPSULE.1 as T),
            )
        }
        /// Both libraries' hull of `pts`.
        pub fn hull(
            pts: &[[f64; 3]],
        ) -> (convex_proximity::shape::Polytope<T, 3>, ps::ConvexPolyhedron) {
            let v: Vec<Vector> = pts.iter().map(|p| vector(p)).collect();
            (
                convex_proximity::shape::Polytope::try_new(
                    pts.iter().map(|p| nalgebra::Point::from(svector::<3>(p))).collect(),
                )
                .unwrap(),
                ps::ConvexPolyhedron::from_convex_hull(&v).unwrap(),
            )
        }
    };
    (@2) => {};
}
#[allow(unused_imports)]
pub(crate) use manifold_scalar;
