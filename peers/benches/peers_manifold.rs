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
use common::manifold_inputs::{
    BOX, GROUND, PREDICTION, ground_corners, inputs2, inputs3, prism_points,
};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

macro_rules! peers {
    ($m:ident, $parry:ident, $T:ty, $D:tt, $label:literal) => {
        mod $m {
            use super::PREDICTION;
            use convex_proximity::{Tolerances, clip, clip::FeatureMap, query};
            use criterion::Criterion;
            use std::hint::black_box;

            crate::common::manifold_inputs::manifold_scalar!($parry, $T, $D);
            const LABEL: &str = $label;

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

/// The 3D cases of one parry crate and scalar (module `$m`).
macro_rules! run3 {
    ($c:expr, $m:ident, $stack:expr, $caps:expr, $hulls:expr) => {{
        let (ground, pground) = $m::boxes(GROUND);
        let (bx, pbx) = $m::boxes(BOX);
        $m::pair($c, "box_stack", (&ground, &bx), (&pground, &pbx), $stack);
        let (capsule, pcapsule) = $m::capsule();
        $m::pair(
            $c,
            "capsule_on_box",
            (&ground, &capsule),
            (&pground, &pcapsule),
            $caps,
        );
        let ((ha, pha), (hb, phb)) = ($m::hull(&ground_corners()), $m::hull(&prism_points()));
        $m::pair($c, "hull_on_hull", (&ha, &hb), (&pha, &phb), $hulls);
    }};
}

/// The 2D case of one parry crate and scalar (module `$m`).
macro_rules! run2 {
    ($c:expr, $m:ident, $stack:expr) => {{
        let ((ground, pground), (bx, pbx)) = ($m::boxes(GROUND), $m::boxes(BOX));
        $m::pair($c, "box_stack", (&ground, &bx), (&pground, &pbx), $stack);
    }};
}

fn bench_3d(c: &mut Criterion) {
    let inp = inputs3();
    let stack = (&inp.box_stack.poses[..], &inp.box_stack.expected[..]);
    let caps = (
        &inp.capsule_on_box.poses[..],
        &inp.capsule_on_box.expected[..],
    );
    let hulls = (&inp.hull_on_hull.poses[..], &inp.hull_on_hull.expected[..]);
    run3!(c, d3_f32, stack, caps, hulls);
    run3!(c, d3_f64, stack, caps, hulls);
}

fn bench_2d(c: &mut Criterion) {
    let inp = inputs2();
    let stack = (&inp.poses[..], &inp.expected[..]);
    run2!(c, d2_f32, stack);
    run2!(c, d2_f64, stack);
}

fn criterion() -> Criterion {
    common::criterion(Duration::from_secs(1), Duration::from_secs(2))
}

criterion_group! {
    name = peers_manifold;
    config = criterion();
    targets = bench_3d, bench_2d
}
criterion_main!(peers_manifold);
