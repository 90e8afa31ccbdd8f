//! Side-by-side benches: convex-proximity against parry 0.31, on the same seeded inputs.
//!
//! Every case is a batch of [`BATCH`] pose pairs generated once in `f64` (splitmix64,
//! fixed seeds) and converted to each library's types (nalgebra for ours, glam for
//! parry), so both libraries answer exactly the same queries. One measured iteration runs
//! the whole batch: divide criterion's times by [`BATCH`] for the time per query
//! (`docs/PERFORMANCE.md` does).
//!
//! Groups are named `<dim>_<scalar>/<query>/<pair>/<config>`, functions:
//! - `ours`: `convex_proximity::query::{distance, intersects}`;
//! - `parry`: `parry::query::{distance, intersection_test}` (its dispatcher, which uses
//!   special-purpose code for some pairs: SAT for box–box, point projection for
//!   ball–anything);
//! - `parry_gjk` (box–box and ball–capsule only): parry's GJK on the same pair
//!   (`query::details::*_support_map_support_map`), the like-for-like comparison. For hulls
//!   the dispatcher already runs that GJK.
//!
//! Configurations: `separated` (gap 0.5, shapes of size ~1), `close` (gap 1e-3),
//! `overlapping` (the `close` placement moved 20% of the way back towards A's centre).
//! The gaps are set by bisection on our own `f64` distance along a random direction.
//!
//! Before timing, each case prints to stderr (lines starting `iters`) our mean GJK
//! iteration count (distance and intersection test) and the largest difference between
//! our distance and parry's, so a fast wrong answer cannot hide.
//!
//! The `warm` group times a slowly moving pair (3D, f64): our cold `distance`, our
//! `distance_with_cache`, and parry, over a closed path of [`PATH`] steps.

mod common;
use common::{Dist, Line, Pose2F, Pose3F, SplitMix64};
use convex_proximity::shape::{Ball, Capsule, Cuboid, Polytope, SupportMap};
use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// Pose pairs per case.
const BATCH: usize = 64;
/// Steps of the warm-start path.
const PATH: usize = 256;
/// Gap of the `separated` configuration.
const GAP_SEPARATED: f64 = 0.5;
/// Gap of the `close` configuration (1e-3 of the shapes' unit size).
const GAP_CLOSE: f64 = 1e-3;
/// The `overlapping` configuration: this fraction of the `close` offset.
const OVERLAP_FRACTION: f64 = 0.8;

// ---------------------------------------------------------------------------------------
// Seeded inputs, in f64
// ---------------------------------------------------------------------------------------

/// The shapes of every pair, in f64 (unit scale).
struct Shapes<const D: usize> {
    box_a: [f64; D],
    box_b: [f64; D],
    ball: f64,
    /// Capsule along local y: half-height, radius.
    capsule: (f64, f64),
    hull32_a: Vec<[f64; D]>,
    hull32_b: Vec<[f64; D]>,
    hull1000_a: Vec<[f64; D]>,
    hull1000_b: Vec<[f64; D]>,
}

impl<const D: usize> Shapes<D> {
    fn new(rng: &mut SplitMix64) -> Self {
        let mut sphere = |n: usize| (0..n).map(|_| rng.unit_vec::<D>()).collect::<Vec<_>>();
        let (hull32_a, hull32_b) = (sphere(32), sphere(32));
        let (hull1000_a, hull1000_b) = (sphere(1000), sphere(1000));
        Self {
            box_a: std::array::from_fn(|i| [1.0, 0.7, 0.5][i]),
            box_b: std::array::from_fn(|i| [0.6, 0.9, 0.4][i]),
            ball: 1.0,
            capsule: (0.8, 0.4),
            hull32_a,
            hull32_b,
            hull1000_a,
            hull1000_b,
        }
    }
}

/// The pose batches of one pair: `[separated, close, overlapping]`.
type Configs<P> = [Vec<(P, P)>; 3];
const CONFIG_NAMES: [&str; 3] = ["separated", "close", "overlapping"];
/// Which parry functions a case is compared with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Peer {
    /// None: parry cannot build the same shape (see `docs/PERFORMANCE.md`).
    Skip,
    /// parry's dispatcher (`query::distance`, `query::intersection_test`).
    Parry,
    /// The dispatcher and parry's GJK called directly.
    ParryAndGjk,
}

/// The true distance of each configuration (by construction, to f64 bisection accuracy).
const GAPS: [f64; 3] = [GAP_SEPARATED, GAP_CLOSE, 0.0];
const PAIR_NAMES: [&str; 4] = ["box_box", "ball_capsule", "hull32", "hull1000"];

/// The smallest `t` in `[0, 10]` with `dist(t) >= gap` (bisection; `dist` is convex in
/// `t` and 0 at `t = 0`, where the shapes share their centre).
fn bisect(gap: f64, dist: impl Fn(f64) -> f64) -> f64 {
    assert!(dist(10.0) > gap, "bisect: shapes still close at t = 10");
    common::bisect(0.0, 10.0, |mid| dist(mid) < gap).1
}

/// The three configurations of a pair, from `BATCH` random placements; `dist` is our f64
/// distance between A at the first pose and B at the second.
fn configs<P: Line>(rng: &mut SplitMix64, dist: impl Fn(&P, &P) -> f64) -> Configs<P> {
    let mut out: Configs<P> = Default::default();
    for _ in 0..BATCH {
        let (pa, at) = P::line(rng);
        let t_sep = bisect(GAP_SEPARATED, |s| dist(&pa, &at(s)));
        let t_close = bisect(GAP_CLOSE, |s| dist(&pa, &at(s)));
        out[0].push((pa, at(t_sep)));
        out[1].push((pa, at(t_close)));
        out[2].push((pa, at(OVERLAP_FRACTION * t_close)));
    }
    out
}

/// Every input of the 3D or 2D benches: shapes and, per pair, the three configurations.
struct Inputs<const D: usize, P> {
    shapes: Shapes<D>,
    /// Indexed like [`PAIR_NAMES`].
    poses: [Configs<P>; 4],
}

/// The inputs of one dimension, from `seed`.
fn inputs<const D: usize, P>(seed: u64) -> Inputs<D, P>
where
    P: Dist<D>,
    Cuboid<f64, D>: SupportMap<f64, D>,
    Capsule<f64, D>: SupportMap<f64, D>,
    Polytope<f64, D>: SupportMap<f64, D>,
    Ball<f64>: SupportMap<f64, D>,
{
    use common::reference::{ball, capsule, cuboid, hull};
    let mut rng = SplitMix64(seed);
    let s = Shapes::<D>::new(&mut rng);
    let poses = [
        configs(
            &mut rng,
            P::dist(&cuboid::<D>(&s.box_a), &cuboid::<D>(&s.box_b)),
        ),
        configs(&mut rng, P::dist(&ball(s.ball), &capsule::<D>(s.capsule))),
        configs(&mut rng, P::dist(&hull(&s.hull32_a), &hull(&s.hull32_b))),
        configs(
            &mut rng,
            P::dist(&hull(&s.hull1000_a), &hull(&s.hull1000_b)),
        ),
    ];
    Inputs { shapes: s, poses }
}

// ---------------------------------------------------------------------------------------
// The benches, once per (parry crate, scalar, dimension)
// ---------------------------------------------------------------------------------------

/// parry's hull, per dimension.
macro_rules! parry_hull {
    (3) => {
        fn parry_hull(pts: &[Vector]) -> ps::ConvexPolyhedron {
            ps::ConvexPolyhedron::from_convex_hull(pts).unwrap()
        }
        fn parry_hull_len(h: &ps::ConvexPolyhedron) -> usize {
            h.points().len()
        }
    };
    (2) => {
        /// parry's polygon of `pts` (all on a circle). `from_convex_hull` returns `None`
        /// for the 1000 points on a circle in f32, so fall back on the polyline through
        /// the points sorted by angle (they are in convex position by construction).
        fn parry_hull(pts: &[Vector]) -> ps::ConvexPolygon {
            ps::ConvexPolygon::from_convex_hull(pts).unwrap_or_else(|| {
                let mut sorted = pts.to_vec();
                sorted.sort_by(|p, q| p.y.atan2(p.x).total_cmp(&q.y.atan2(q.x)));
                sorted.dedup();
                eprintln!(
                    "hull\t{}: from_convex_hull failed, using from_convex_polyline",
                    LABEL
                );
                ps::ConvexPolygon::from_convex_polyline(sorted).expect("parry polygon")
            })
        }
        fn parry_hull_len(h: &ps::ConvexPolygon) -> usize {
            h.points().len()
        }
    };
}

macro_rules! peers {
    ($m:ident, $parry:ident, $T:ty, $D:tt, $label:literal, $pairs:expr) => {
        mod $m {
            use super::{BATCH, CONFIG_NAMES, GAPS, Inputs, PAIR_NAMES, Peer, config_group};
            use convex_proximity::{
                Tolerances, gjk, query,
                shape::{Ball, Capsule, Cuboid, Polytope, SupportMap},
            };
            use criterion::Criterion;
            use nalgebra::{Point, SVector};
            use $parry::{query as pq, shape as ps};
            use std::hint::black_box;

            crate::common::parry_scalar!($parry, $T, $D);
            const LABEL: &str = $label;
            parry_hull!($D);

            /// `B` placed in A's frame, forwarding the core and radius (as
            /// `query::distance` does internally): used only to count the intersection
            /// test's iterations with `gjk::intersects`.
            struct Placed<'a, S> {
                shape: &'a S,
                rel: Iso,
            }
            impl<S: SupportMap<T, D>> SupportMap<T, D> for Placed<'_, S> {
                fn support(&self, d: &SVector<T, D>) -> Point<T, D> {
                    self.rel
                        .transform_point(&self.shape.support(&self.rel.inverse_transform_vector(d)))
                }
                fn radius(&self) -> T {
                    self.shape.radius()
                }
                fn core_support(&self, d: &SVector<T, D>) -> Point<T, D> {
                    self.rel.transform_point(
                        &self.shape.core_support(&self.rel.inverse_transform_vector(d)),
                    )
                }
                fn center(&self) -> Point<T, D> {
                    self.rel.transform_point(&self.shape.center())
                }
            }


            /// One pair in every configuration, distance and intersection test.
            #[allow(clippy::too_many_arguments)]
            fn pair<A, B, PA, PB>(
                c: &mut Criterion,
                pair: &str,
                a: &A,
                b: &B,
                pa: &PA,
                pb: &PB,
                configs: &super::Configs<PoseF>,
                peer: Peer,
            ) where
                A: SupportMap<T, D>,
                B: SupportMap<T, D>,
                PA: ps::Shape + ps::SupportMap,
                PB: ps::Shape + ps::SupportMap,
            {
                let tol = Tolerances::<T>::default();
                // parry's relative gap for its GJK distance, sqrt(10·ε) (f32: 1.1e-3,
                // f64: 4.7e-8), against our default 128·ε: `ours_parry_tol` stops as early.
                let loose = tol.with_gjk_rel((T::EPSILON * 10.0).sqrt()).unwrap();
                for (k, (config, batch)) in CONFIG_NAMES.iter().zip(configs).enumerate() {
                    let ours: Vec<(Iso, Iso)> = batch.iter().map(|(p, q)| (iso(p), iso(q))).collect();
                    let theirs: Vec<(Pose, Pose)> =
                        batch.iter().map(|(p, q)| (pose(p), pose(q))).collect();
                    assert_eq!(ours.len(), BATCH);

                    // Iterations and accuracy, outside the timing: the error of each
                    // library against the gap the poses were built for (in f64).
                    let gap = GAPS[k];
                    let (mut it_d, mut it_i, mut err_ours, mut err_parry, mut disagree) =
                        (0u64, 0u64, 0.0f64, 0.0f64, 0);
                    let (mut it_loose, mut err_loose) = (0u64, 0.0f64);
                    for ((oa, ob), (ta, tb)) in ours.iter().zip(&theirs) {
                        let d = query::distance(oa, a, ob, b, &tol).unwrap();
                        it_d += u64::from(d.iterations);
                        let dl = query::distance(oa, a, ob, b, &loose).unwrap();
                        it_loose += u64::from(dl.iterations);
                        err_loose = err_loose.max((f64::from(dl.distance) - gap).abs());
                        let placed = Placed { shape: b, rel: oa.inv_mul(ob) };
                        let hit = gjk::intersects(a, &placed, &tol, &mut gjk::Simplex::new()).unwrap();
                        it_i += u64::from(hit.iterations);
                        err_ours = err_ours.max((f64::from(d.distance) - gap).abs());
                        if peer != Peer::Skip {
                            let pd = pq::distance(ta, pa, tb, pb).unwrap().distance;
                            err_parry = err_parry.max((f64::from(pd) - gap).abs());
                            let pi = pq::intersection_test(ta, pa, tb, pb).unwrap().intersecting;
                            disagree += usize::from(pi != hit.intersects);
                        }
                    }
                    let n = ours.len() as f64;
                    let parry_err = if peer == Peer::Skip {
                        "n/a".to_string()
                    } else {
                        format!("{err_parry:.1e}")
                    };
                    eprintln!(
                        "iters\t{LABEL}/{pair}/{config}\tdistance={:.2}\tintersects={:.2}\tmax_err_ours={err_ours:.1e}\tmax_err_parry={parry_err}\tintersects_disagree={disagree}/{}\tdistance_parry_tol={:.2}\tmax_err_ours_parry_tol={err_loose:.1e}",
                        it_d as f64 / n,
                        it_i as f64 / n,
                        ours.len(),
                        it_loose as f64 / n
                    );

                    {
                        let mut g = c.benchmark_group(format!("{}/distance/{pair}/{config}", LABEL));
                        config_group(&mut g, pair);
                        g.bench_function("ours", |bch| {
                            bch.iter(|| {
                                let mut acc: T = 0.0;
                                for (oa, ob) in &ours {
                                    acc += query::distance(black_box(oa), a, black_box(ob), b, &tol)
                                        .unwrap()
                                        .distance;
                                }
                                acc
                            })
                        });
                        g.bench_function("ours_parry_tol", |bch| {
                            bch.iter(|| {
                                let mut acc: T = 0.0;
                                for (oa, ob) in &ours {
                                    acc += query::distance(black_box(oa), a, black_box(ob), b, &loose)
                                        .unwrap()
                                        .distance;
                                }
                                acc
                            })
                        });
                        if peer != Peer::Skip {
                        g.bench_function("parry", |bch| {
                            bch.iter(|| {
                                let mut acc: T = 0.0;
                                for (ta, tb) in &theirs {
                                    acc += pq::distance(black_box(ta), pa, black_box(tb), pb)
                                        .unwrap()
                                        .distance;
                                }
                                acc
                            })
                        });
                        }
                        if peer == Peer::ParryAndGjk {
                            g.bench_function("parry_gjk", |bch| {
                                bch.iter(|| {
                                    let mut acc: T = 0.0;
                                    for (ta, tb) in &theirs {
                                        let pos12 = black_box(ta).inv_mul(black_box(tb));
                                        acc += pq::details::distance_support_map_support_map(
                                            &pos12, pa, pb,
                                        );
                                    }
                                    acc
                                })
                            });
                        }
                        g.finish();
                    }
                    {
                        let mut g = c.benchmark_group(format!("{}/intersects/{pair}/{config}", LABEL));
                        config_group(&mut g, pair);
                        g.bench_function("ours", |bch| {
                            bch.iter(|| {
                                let mut acc = 0u32;
                                for (oa, ob) in &ours {
                                    acc += u32::from(
                                        query::intersects(black_box(oa), a, black_box(ob), b, &tol)
                                            .unwrap(),
                                    );
                                }
                                acc
                            })
                        });
                        if peer != Peer::Skip {
                        g.bench_function("parry", |bch| {
                            bch.iter(|| {
                                let mut acc = 0u32;
                                for (ta, tb) in &theirs {
                                    acc += u32::from(
                                        pq::intersection_test(black_box(ta), pa, black_box(tb), pb)
                                            .unwrap()
                                            .intersecting,
                                    );
                                }
                                acc
                            })
                        });
                        }
                        if peer == Peer::ParryAndGjk {
                            g.bench_function("parry_gjk", |bch| {
                                bch.iter(|| {
                                    let mut acc = 0u32;
                                    for (ta, tb) in &theirs {
                                        let pos12 = black_box(ta).inv_mul(black_box(tb));
                                        acc += u32::from(
                                            pq::details::intersection_test_support_map_support_map(
                                                &pos12, pa, pb,
                                            ),
                                        );
                                    }
                                    acc
                                })
                            });
                        }
                        g.finish();
                    }
                }
            }

            pub fn run(c: &mut Criterion, inputs: &Inputs<D, PoseF>) {
                let s = &inputs.shapes;
                let pairs: &[&str] = &$pairs;
                let hull = |pts: &[[f64; D]]| {
                    Polytope::try_new(pts.iter().map(|p| Point::from(svector(p))).collect())
                        .unwrap()
                };
                let phull = |pts: &[[f64; D]]| {
                    let v: Vec<Vector> = pts.iter().map(|p| vector(p)).collect();
                    let h = parry_hull(&v);
                    let kept = parry_hull_len(&h);
                    eprintln!("hull\t{}\t{} points in, parry keeps {kept}", LABEL, pts.len());
                    // Compare only when parry's shape is (nearly) ours.
                    let same = 100 * kept >= 99 * pts.len();
                    (h, same)
                };
                for (k, name) in PAIR_NAMES.iter().enumerate() {
                    if !pairs.contains(name) {
                        continue;
                    }
                    let configs = &inputs.poses[k];
                    match *name {
                        "box_box" => pair(
                            c,
                            name,
                            &Cuboid::new(svector(&s.box_a)),
                            &Cuboid::new(svector(&s.box_b)),
                            &ps::Cuboid::new(vector(&s.box_a)),
                            &ps::Cuboid::new(vector(&s.box_b)),
                            configs,
                            Peer::ParryAndGjk,
                        ),
                        "ball_capsule" => {
                            let (hh, r) = s.capsule;
                            let mut e = SVector::<T, D>::zeros();
                            e[1] = hh as T;
                            pair(
                                c,
                                name,
                                &Ball::new(s.ball as T),
                                &Capsule::new(Point::from(-e), Point::from(e), r as T),
                                &ps::Ball::new(s.ball as T),
                                &ps::Capsule::new_y(hh as T, r as T),
                                configs,
                                Peer::ParryAndGjk,
                            )
                        }
                        "hull32" => {
                            let ((pa, same_a), (pb, same_b)) = (phull(&s.hull32_a), phull(&s.hull32_b));
                            let peer = if same_a && same_b { Peer::Parry } else { Peer::Skip };
                            pair(c, name, &hull(&s.hull32_a), &hull(&s.hull32_b), &pa, &pb, configs, peer)
                        }
                        "hull1000" => {
                            let ((pa, same_a), (pb, same_b)) = (phull(&s.hull1000_a), phull(&s.hull1000_b));
                            let peer = if same_a && same_b { Peer::Parry } else { Peer::Skip };
                            pair(c, name, &hull(&s.hull1000_a), &hull(&s.hull1000_b), &pa, &pb, configs, peer)
                        }
                        _ => unreachable!(),
                    }
                }
            }
        }
    };
}

/// Sample sizes: the 1000-vertex hulls take ~1 ms per batch, so fewer samples.
fn config_group(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pair: &str,
) {
    if pair == "hull1000" {
        g.sample_size(20).sampling_mode(SamplingMode::Flat);
    } else {
        g.sample_size(50);
    }
}

peers!(d3_f32, parry3d, f32, 3, "3d_f32", PAIR_NAMES);
peers!(d3_f64, parry3d_f64, f64, 3, "3d_f64", PAIR_NAMES);
peers!(
    d2_f32,
    parry2d,
    f32,
    2,
    "2d_f32",
    ["box_box", "hull32", "hull1000"]
);
peers!(
    d2_f64,
    parry2d_f64,
    f64,
    2,
    "2d_f64",
    ["box_box", "hull32", "hull1000"]
);

fn bench_3d(c: &mut Criterion) {
    let inputs = inputs::<3, Pose3F>(0x5EED_0003);
    d3_f32::run(c, &inputs);
    d3_f64::run(c, &inputs);
}

fn bench_2d(c: &mut Criterion) {
    let inputs = inputs::<2, Pose2F>(0x5EED_0002);
    d2_f32::run(c, &inputs);
    d2_f64::run(c, &inputs);
}

// ---------------------------------------------------------------------------------------
// Warm starts: a slowly moving pair (3D, f64)
// ---------------------------------------------------------------------------------------

/// A closed path: B orbits A (fixed) at centre distance `radius` in a tilted plane,
/// turning about a fixed axis, one full turn of each over [`PATH`] steps (0.025 rad per
/// step), so the cache stays coherent when the path wraps around.
fn orbit(rng: &mut SplitMix64, radius: f64) -> Vec<(Pose3F, Pose3F)> {
    let pa = Pose3F {
        t: std::array::from_fn(|_| rng.range(-3.0, 3.0)),
        q: rng.unit_vec::<4>(),
    };
    let (u, w0) = (rng.unit_vec::<3>(), rng.unit_vec::<3>());
    // v: unit, orthogonal to u.
    let dot: f64 = (0..3).map(|i| u[i] * w0[i]).sum();
    let mut v: [f64; 3] = std::array::from_fn(|i| w0[i] - dot * u[i]);
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v = v.map(|x| x / n);
    let axis = rng.unit_vec::<3>();
    (0..PATH)
        .map(|k| {
            let phi = std::f64::consts::TAU * k as f64 / PATH as f64;
            let (s, c) = (0.5 * phi).sin_cos();
            let pb = Pose3F {
                t: std::array::from_fn(|i| {
                    pa.t[i] + radius * (phi.cos() * u[i] + phi.sin() * v[i])
                }),
                q: [c, s * axis[0], s * axis[1], s * axis[2]],
            };
            (pa, pb)
        })
        .collect()
}

fn bench_warm(c: &mut Criterion) {
    use convex_proximity::shape::{Cuboid, Polytope, SupportMap};
    use convex_proximity::{Tolerances, gjk::Cache, query};
    use nalgebra::{Isometry3, Point3, Vector3};
    use parry3d_f64::{math::Pose, query as pq, shape as ps};

    let mut rng = SplitMix64(0x5EED_0004);
    let s = Shapes::<3>::new(&mut rng);
    #[allow(clippy::too_many_arguments)]
    fn run<
        A: SupportMap<f64, 3>,
        B: SupportMap<f64, 3>,
        PA: ps::Shape + ps::SupportMap,
        PB: ps::Shape + ps::SupportMap,
    >(
        c: &mut Criterion,
        name: &str,
        a: &A,
        b: &B,
        pa: &PA,
        pb: &PB,
        path: &[(Pose3F, Pose3F)],
        with_parry_gjk: bool,
    ) {
        let tol = Tolerances::<f64>::default();
        let ours: Vec<(Isometry3<f64>, Isometry3<f64>)> = path
            .iter()
            .map(|(p, q)| (common::iso3(p), common::iso3(q)))
            .collect();
        let theirs: Vec<(Pose, Pose)> = path
            .iter()
            .map(|(p, q)| {
                let conv = |x: &Pose3F| {
                    Pose::from_parts(
                        parry3d_f64::math::Vector::new(x.t[0], x.t[1], x.t[2]),
                        parry3d_f64::math::Rotation::from_xyzw(x.q[1], x.q[2], x.q[3], x.q[0])
                            .normalize(),
                    )
                };
                (conv(p), conv(q))
            })
            .collect();
        // Iterations: cold, and warm on the second lap (the cache primed by the first).
        let mut cache = Cache::new();
        let (mut cold, mut warm, mut max_diff, mut min_d) = (0u64, 0u64, 0.0f64, f64::MAX);
        for lap in 0..2 {
            for ((oa, ob), (ta, tb)) in ours.iter().zip(&theirs) {
                let w = query::distance_with_cache(oa, a, ob, b, &tol, &mut cache).unwrap();
                if lap == 1 {
                    let d = query::distance(oa, a, ob, b, &tol).unwrap();
                    cold += u64::from(d.iterations);
                    warm += u64::from(w.iterations);
                    let pd = pq::distance(ta, pa, tb, pb).unwrap().distance;
                    max_diff = max_diff
                        .max((w.distance - pd).abs())
                        .max((d.distance - pd).abs());
                    min_d = min_d.min(d.distance);
                }
            }
        }
        let n = ours.len() as f64;
        eprintln!(
            "iters\twarm_3d_f64/{name}\tcold={:.2}\twarm={:.2}\tmax|d_ours-d_parry|={max_diff:.2e}\tmin_distance={min_d:.3}",
            cold as f64 / n,
            warm as f64 / n
        );
        let mut g = c.benchmark_group(format!("warm_3d_f64/distance/{name}/moving"));
        config_group(&mut g, name);
        g.bench_function("ours_cold", |bch| {
            bch.iter(|| {
                let mut acc = 0.0;
                for (oa, ob) in &ours {
                    acc += query::distance(black_box(oa), a, black_box(ob), b, &tol)
                        .unwrap()
                        .distance;
                }
                acc
            })
        });
        g.bench_function("ours_warm", |bch| {
            bch.iter(|| {
                let mut acc = 0.0;
                for (oa, ob) in &ours {
                    acc += query::distance_with_cache(
                        black_box(oa),
                        a,
                        black_box(ob),
                        b,
                        &tol,
                        &mut cache,
                    )
                    .unwrap()
                    .distance;
                }
                acc
            })
        });
        g.bench_function("parry", |bch| {
            bch.iter(|| {
                let mut acc = 0.0;
                for (ta, tb) in &theirs {
                    acc += pq::distance(black_box(ta), pa, black_box(tb), pb)
                        .unwrap()
                        .distance;
                }
                acc
            })
        });
        if with_parry_gjk {
            g.bench_function("parry_gjk", |bch| {
                bch.iter(|| {
                    let mut acc = 0.0;
                    for (ta, tb) in &theirs {
                        let pos12 = black_box(ta).inv_mul(black_box(tb));
                        acc += pq::details::distance_support_map_support_map(&pos12, pa, pb);
                    }
                    acc
                })
            });
        }
        g.finish();
    }

    let p3 = |x: &[f64; 3]| parry3d_f64::math::Vector::new(x[0], x[1], x[2]);
    let hull = |pts: &[[f64; 3]]| {
        Polytope::try_new(pts.iter().map(|p| Point3::from(*p)).collect()).unwrap()
    };
    let phull = |pts: &[[f64; 3]]| {
        ps::ConvexPolyhedron::from_convex_hull(&pts.iter().map(p3).collect::<Vec<_>>()).unwrap()
    };
    // Box half-diagonals 1.32 and 1.15, unit hulls: a centre distance of 2.6 keeps every
    // pair apart along the whole path.
    let path = orbit(&mut rng, 2.6);
    run(
        c,
        "box_box",
        &Cuboid::new(Vector3::from(s.box_a)),
        &Cuboid::new(Vector3::from(s.box_b)),
        &ps::Cuboid::new(p3(&s.box_a)),
        &ps::Cuboid::new(p3(&s.box_b)),
        &path,
        true,
    );
    run(
        c,
        "hull32",
        &hull(&s.hull32_a),
        &hull(&s.hull32_b),
        &phull(&s.hull32_a),
        &phull(&s.hull32_b),
        &path,
        false,
    );
    run(
        c,
        "hull1000",
        &hull(&s.hull1000_a),
        &hull(&s.hull1000_b),
        &phull(&s.hull1000_a),
        &phull(&s.hull1000_b),
        &path,
        false,
    );
}

fn criterion() -> Criterion {
    common::criterion(Duration::from_secs(1), Duration::from_secs(3))
}

criterion_group! {
    name = peers;
    config = criterion();
    targets = bench_3d, bench_2d, bench_warm
}
criterion_main!(peers);
