//! Side-by-side benches of contact manifolds: convex-proximity's `query::manifold` against
//! parry 0.31's `contact_manifolds` (`PersistentQueryDispatcher` of `DefaultQueryDispatcher`,
//! the API rapier calls), on the same seeded resting configurations.
//!
//! Every case is a batch of [`BATCH`] pose pairs generated once in `f64` (splitmix64,
//! fixed seeds) and converted to each library's types. One measured iteration runs the
//! batch: divide criterion's times by [`BATCH`] for the time per query.
//!
//! Pairs (B resting on the top face of A, a box of half-extents (1, 0.5, 1); A at a random
//! pose; B with a random yaw, a random tilt of at most [`MAX_TILT_DEG`] degrees and a random
//! lateral offset; B's height set by bisection on our `f64` `contact` so that its signed
//! distance to A is uniform in [−0.01, 0.005]):
//! - `box_stack`: B a box of half-extents (0.5, 0.4, 0.6) (3D) / (0.5, 0.4) (2D);
//! - `capsule_on_box` (3D): B a capsule (half-height 0.6, radius 0.3) lying flat;
//! - `hull_on_hull` (3D): A the hull of the ground box's 8 corners, B the hull of a
//!   16-sided prism (radius 0.5, half-height 0.4; 32 points) standing on its base: parry's
//!   `ConvexPolyhedron` against our `Polytope`, both from the same points.
//!
//! Functions: `ours` is `query::manifold_with_workspace` (prediction [`PREDICTION`], one
//! workspace reused over the batch); `parry` is `contact_manifolds` with the same prediction,
//! one `Vec<ContactManifold>` and workspace reused over the batch, the manifold's points and
//! normals cleared before each query so parry recomputes it (without the clearing, parry's
//! `try_update_contacts` would return the previous query's points: a cache hit, not a
//! manifold computation).
//!
//! Before timing, each case prints (lines `manifold\t`) the mean point count of each
//! library, our mean iterations (GJK + EPA of the underlying `contact`), and the largest
//! difference of the deepest point's separation between the two.
//!
//! The exact point count of `hull_on_hull` is capped at 4, the most either library keeps.

mod common;
use common::{Pose2F, Pose3F, SplitMix64};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

/// Pose pairs per case.
const BATCH: usize = 64;
/// The speculative distance of both libraries.
const PREDICTION: f64 = 0.01;
/// The largest tilt of B from resting flat, degrees.
const MAX_TILT_DEG: f64 = 2.0;
/// The target signed distances are uniform in this range.
const SEPARATION_RANGE: (f64, f64) = (-0.01, 0.005);

const GROUND: [f64; 3] = [1.0, 0.5, 1.0];
const BOX: [f64; 3] = [0.5, 0.4, 0.6];
/// Capsule along local y: half-height, radius.
const CAPSULE: (f64, f64) = (0.6, 0.3);
/// The prism of `hull_on_hull`: sides, radius, half-height.
const PRISM: (usize, f64, f64) = (16, 0.5, 0.4);

/// The prism's points: two regular polygons at ±half-height (local y up).
fn prism_points() -> Vec<[f64; 3]> {
    let (n, r, h) = PRISM;
    (0..2 * n)
        .map(|k| {
            let a = std::f64::consts::TAU * (k % n) as f64 / n as f64;
            [r * a.cos(), if k < n { -h } else { h }, r * a.sin()]
        })
        .collect()
}

/// The height `h` in `[0, 3]` where `sep(h)` (increasing) reaches `target` (bisection).
fn height(target: f64, sep: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 3.0);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if sep(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Our f64 shapes and poses, used only to place the inputs.
mod reference {
    use super::{CAPSULE, Pose3F};
    pub use crate::common::{iso2, iso3};
    use convex_proximity::{
        Tolerances, query,
        shape::{Capsule, Cuboid, SupportMap},
    };
    use nalgebra::{Isometry2, Isometry3, Point, SVector};

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
    pub fn cuboid<const D: usize>(h: &[f64]) -> Cuboid<f64, D> {
        Cuboid::new(SVector::from_fn(|i, _| h[i]))
    }
    pub fn prism() -> convex_proximity::shape::Polytope<f64, 3> {
        let pts = super::prism_points()
            .iter()
            .map(|p| Point::from(*p))
            .collect();
        convex_proximity::shape::Polytope::try_new(pts).unwrap()
    }
    pub fn capsule() -> Capsule<f64, 3> {
        let e = SVector::<f64, 3>::new(0.0, CAPSULE.0, 0.0);
        Capsule::new(Point::from(-e), Point::from(e), CAPSULE.1)
    }
}

/// `BATCH` resting placements of `b` on the ground box (3D); `base`: B's rotation before
/// the yaw and tilt (lays the capsule flat).
fn resting3<B: convex_proximity::shape::SupportMap<f64, 3>>(
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
fn resting2<B: convex_proximity::shape::SupportMap<f64, 2>>(
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
fn expected3(batch: &[(Pose3F, Pose3F)], corners: &[[f64; 3]], radius: f64) -> Vec<usize> {
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
fn expected2(batch: &[(Pose2F, Pose2F)], corners: &[[f64; 2]]) -> Vec<usize> {
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

/// Pose conversions for one parry crate and scalar `T`.
macro_rules! conversions {
    (3, $T:ty) => {
        crate::common::pose_conversions!(3);
    };
    (2, $T:ty) => {
        crate::common::pose_conversions!(2);
    };
}

macro_rules! peers {
    ($m:ident, $parry:ident, $T:ty, $D:tt, $label:literal) => {
        mod $m {
            use super::PREDICTION;
            use convex_proximity::{Tolerances, clip, clip::FeatureMap, query};
            use criterion::Criterion;
            #[allow(unused_imports)]
            use $parry::math::{Pose, Rotation, Vector};
            use $parry::query::{
                ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher,
            };
            use $parry::shape as ps;
            use std::hint::black_box;

            type T = $T;
            const D: usize = $D;
            const LABEL: &str = $label;
            conversions!($D, $T);

            /// Clears a reused parry manifold so the next query recomputes it (no
            /// coherence shortcut, no warm-start direction), keeping its memory.
            fn reset(ms: &mut [ContactManifold<(), ()>]) {
                for m in ms {
                    m.clear();
                    m.local_n1 = Vector::ZERO;
                    m.local_n2 = Vector::ZERO;
                }
            }

            /// One pair: checks, then both libraries' manifolds over the batch.
            pub fn pair<A, B>(
                c: &mut Criterion,
                pair: &str,
                (a, b): (&A, &B),
                (pa, pb): (&dyn ps::Shape, &dyn ps::Shape),
                (batch, expected): (&[(PoseF, PoseF)], &[usize]),
            ) where
                A: FeatureMap<T, D>,
                B: FeatureMap<T, D>,
            {
                let tol = Tolerances::<T>::default();
                let prediction = PREDICTION as T;
                let ours: Vec<(Iso, Iso)> = batch.iter().map(|(p, q)| (iso(p), iso(q))).collect();
                let theirs: Vec<(Pose, Pose)> =
                    batch.iter().map(|(p, q)| (pose(p), pose(q))).collect();
                let dispatcher = DefaultQueryDispatcher;

                // Checks, outside the timing.
                let mut ws = clip::ManifoldWorkspace::new();
                let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
                let mut pws = None;
                let (mut n_ours, mut n_parry, mut iters, mut deepest_diff) =
                    (0usize, 0usize, 0u64, 0.0f64);
                let (mut empty_ours, mut empty_parry) = (0, 0);
                let (mut exp, mut miss_ours, mut miss_parry) = (0usize, 0usize, 0usize);
                let (mut max_sep_ours, mut max_sep_parry) = (f64::MIN, f64::MIN);
                for (((oa, ob), (ta, tb)), &want) in ours.iter().zip(&theirs).zip(expected) {
                    let m = query::manifold_with_workspace(oa, a, ob, b, prediction, &tol, &mut ws)
                        .expect("ours: manifold");
                    iters += u64::from(
                        query::contact(oa, a, ob, b, &tol).expect("ours: contact").iterations,
                    );
                    n_ours += m.len();
                    empty_ours += usize::from(m.is_empty());
                    reset(&mut manifolds);
                    dispatcher
                        .contact_manifolds(
                            &ta.inv_mul(tb),
                            pa,
                            pb,
                            prediction,
                            &mut manifolds,
                            &mut pws,
                        )
                        .expect("parry: unsupported");
                    let pts: usize = manifolds.iter().map(|m| m.points.len()).sum();
                    exp += want;
                    miss_ours += usize::from(m.len() != want);
                    miss_parry += usize::from(pts != want);
                    for p in m.points() {
                        max_sep_ours = max_sep_ours.max(f64::from(p.separation));
                    }
                    for p in manifolds.iter().flat_map(|m| m.points.iter()) {
                        max_sep_parry = max_sep_parry.max(f64::from(p.dist));
                    }
                    n_parry += pts;
                    empty_parry += usize::from(pts == 0);
                    let ours_min = m.points().iter().map(|p| f64::from(p.separation)).reduce(f64::min);
                    let parry_min = manifolds
                        .iter()
                        .flat_map(|m| m.points.iter().map(|p| f64::from(p.dist)))
                        .reduce(f64::min);
                    if let (Some(x), Some(y)) = (ours_min, parry_min) {
                        deepest_diff = deepest_diff.max((x - y).abs());
                    }
                }
                let n = batch.len() as f64;
                eprintln!(
                    "manifold\t{LABEL}/{pair}\tours_points={:.2}\tparry_points={:.2}\titerations={:.2}\tours_empty={empty_ours}\tparry_empty={empty_parry}\tmax|deepest_ours-deepest_parry|={deepest_diff:.1e}\texpected_points={:.2}\tours_count_wrong={miss_ours}\tparry_count_wrong={miss_parry}\tmax_sep_ours={max_sep_ours:.2e}\tmax_sep_parry={max_sep_parry:.2e}",
                    n_ours as f64 / n,
                    n_parry as f64 / n,
                    iters as f64 / n,
                    exp as f64 / n,
                );

                let mut g = c.benchmark_group(format!("manifold_{LABEL}/{pair}"));
                g.sample_size(50);
                g.bench_function("ours", |bch| {
                    bch.iter(|| {
                        let mut acc = 0usize;
                        for (oa, ob) in &ours {
                            acc += query::manifold_with_workspace(
                                black_box(oa),
                                a,
                                black_box(ob),
                                b,
                                prediction,
                                &tol,
                                &mut ws,
                            )
                            .unwrap()
                            .len();
                        }
                        acc
                    })
                });
                g.bench_function("parry", |bch| {
                    bch.iter(|| {
                        let mut acc = 0usize;
                        for (ta, tb) in &theirs {
                            reset(&mut manifolds);
                            let pos12 = black_box(ta).inv_mul(black_box(tb));
                            dispatcher
                                .contact_manifolds(&pos12, pa, pb, prediction, &mut manifolds, &mut pws)
                                .unwrap();
                            acc += manifolds.iter().map(|m| m.points.len()).sum::<usize>();
                        }
                        acc
                    })
                });
                g.finish();
            }
        }
    };
}

peers!(d3_f32, parry3d, f32, 3, "3d_f32");
peers!(d3_f64, parry3d_f64, f64, 3, "3d_f64");
peers!(d2_f32, parry2d, f32, 2, "2d_f32");
peers!(d2_f64, parry2d_f64, f64, 2, "2d_f64");

macro_rules! run3 {
    ($c:expr, $m:ident, $parry:ident, $T:ty, $stack:expr, $caps:expr, $hulls:expr) => {{
        use convex_proximity::shape::{Capsule, Cuboid};
        use nalgebra::{Point3, Vector3};
        use $parry::{math::Vector, shape as ps};
        let cub = |h: [f64; 3]| Cuboid::new(Vector3::new(h[0] as $T, h[1] as $T, h[2] as $T));
        let pcub = |h: [f64; 3]| ps::Cuboid::new(Vector::new(h[0] as $T, h[1] as $T, h[2] as $T));
        $m::pair(
            $c,
            "box_stack",
            (&cub(GROUND), &cub(BOX)),
            (&pcub(GROUND), &pcub(BOX)),
            $stack,
        );
        let e = CAPSULE.0 as $T;
        let capsule = Capsule::new(
            Point3::new(0.0, -e, 0.0),
            Point3::new(0.0, e, 0.0),
            CAPSULE.1 as $T,
        );
        let pcapsule = ps::Capsule::new_y(e, CAPSULE.1 as $T);
        $m::pair(
            $c,
            "capsule_on_box",
            (&cub(GROUND), &capsule),
            (&pcub(GROUND), &pcapsule),
            $caps,
        );
        let corners: Vec<[f64; 3]> = (0..8)
            .map(|k| {
                std::array::from_fn(|i| {
                    if k >> i & 1 == 1 {
                        GROUND[i]
                    } else {
                        -GROUND[i]
                    }
                })
            })
            .collect();
        let ours_hull = |pts: &[[f64; 3]]| {
            convex_proximity::shape::Polytope::try_new(
                pts.iter()
                    .map(|p| Point3::new(p[0] as $T, p[1] as $T, p[2] as $T))
                    .collect(),
            )
            .unwrap()
        };
        let parry_hull = |pts: &[[f64; 3]]| {
            let v: Vec<Vector> = pts
                .iter()
                .map(|p| Vector::new(p[0] as $T, p[1] as $T, p[2] as $T))
                .collect();
            ps::ConvexPolyhedron::from_convex_hull(&v).unwrap()
        };
        let prism = prism_points();
        $m::pair(
            $c,
            "hull_on_hull",
            (&ours_hull(&corners), &ours_hull(&prism)),
            (&parry_hull(&corners), &parry_hull(&prism)),
            $hulls,
        );
    }};
}

macro_rules! run2 {
    ($c:expr, $m:ident, $parry:ident, $T:ty, $stack:expr) => {{
        use convex_proximity::shape::Cuboid;
        use nalgebra::Vector2;
        use $parry::{math::Vector, shape as ps};
        let cub = |h: [f64; 3]| Cuboid::new(Vector2::new(h[0] as $T, h[1] as $T));
        let pcub = |h: [f64; 3]| ps::Cuboid::new(Vector::new(h[0] as $T, h[1] as $T));
        $m::pair(
            $c,
            "box_stack",
            (&cub(GROUND), &cub(BOX)),
            (&pcub(GROUND), &pcub(BOX)),
            $stack,
        );
    }};
}

fn bench_3d(c: &mut Criterion) {
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
    let stack = (&stack[..], &expected3(&stack, &box_corners, 0.0)[..]);
    let caps = (
        &caps[..],
        &expected3(
            &caps,
            &[[0.0, CAPSULE.0, 0.0], [0.0, -CAPSULE.0, 0.0]],
            CAPSULE.1,
        )[..],
    );
    let hulls = resting3(&mut rng, &reference::prism(), UnitQuaternion::identity());
    let want: Vec<usize> = expected3(&hulls, &prism_points(), 0.0)
        .into_iter()
        .map(|n| n.min(4))
        .collect();
    let hulls = (&hulls[..], &want[..]);
    run3!(c, d3_f32, parry3d, f32, stack, caps, hulls);
    run3!(c, d3_f64, parry3d_f64, f64, stack, caps, hulls);
}

fn bench_2d(c: &mut Criterion) {
    let mut rng = SplitMix64(0x5EED_AA02);
    let stack = resting2(&mut rng, &reference::cuboid::<2>(&BOX));
    let corners: Vec<[f64; 2]> = (0..4)
        .map(|k| std::array::from_fn(|i| if k >> i & 1 == 1 { BOX[i] } else { -BOX[i] }))
        .collect();
    let stack = (&stack[..], &expected2(&stack, &corners)[..]);
    run2!(c, d2_f32, parry2d, f32, stack);
    run2!(c, d2_f64, parry2d_f64, f64, stack);
}

fn criterion() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = peers_manifold;
    config = criterion();
    targets = bench_3d, bench_2d
}
criterion_main!(peers_manifold);
