//! Side-by-side benches of the signed-distance `contact` query (GJK + EPA) on overlapping
//! pairs: convex-proximity against parry 0.31, on the same seeded inputs.
//!
//! Every case is a batch of [`BATCH`] overlapping pose pairs generated once in `f64`
//! (splitmix64, fixed seeds) and converted to each library's types (nalgebra for ours,
//! glam for parry). One measured iteration runs the whole batch: divide criterion's times
//! by [`BATCH`] for the time per query (`docs/PERFORMANCE.md` does).
//!
//! Groups are named `epa_<dim>_<scalar>/<pair>/<config>`, functions:
//! - `ours`: `query::contact_with_workspace`, one EPA workspace reused over the batch;
//! - `parry`: `parry::query::contact(.., prediction = 0)`. For every pair here (box–box,
//!   capsule–capsule, hulls) its dispatcher runs GJK then EPA
//!   (`contact_support_map_support_map`): the like-for-like comparison.
//!
//! Configurations: B placed along a random direction from A's centre at a fraction of the
//! centre offset where the shapes first touch (found by bisection on our `f64` distance):
//! `shallow` (0.95 of it) and `deep` (0.5 of it).
//!
//! Before timing, each case prints to stderr (lines starting `epa\t`) our mean iterations
//! (GJK + EPA support evaluations, and GJK's alone), how far the two libraries' depths
//! and normals differ, how many overlapping pairs parry answered with `None` or a
//! non-negative distance, and an independent check of both answers: the overlap of the
//! shapes along each library's normal, `h_A(n) + h_B(−n)` in `f64`, which is an upper
//! bound of the true depth and should equal the depth the library reports.

// `!(x < 0)` is deliberate: a NaN separation must count as "not penetrating".
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod common;
use common::{Dist, Line, Pose2F, Pose3F, SplitMix64};
use convex_proximity::shape::{Capsule, Cuboid, Polytope, SupportMap};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

/// Pose pairs per case.
const BATCH: usize = 64;
/// The configurations: the fraction of the touching offset B is placed at.
const CONFIGS: [(&str, f64); 2] = [("shallow", 0.95), ("deep", 0.5)];
/// Vertices of the large hulls.
const BIG: usize = 500;

// ---------------------------------------------------------------------------------------
// Seeded inputs, in f64
// ---------------------------------------------------------------------------------------

/// The shapes of every pair, in f64 (unit scale).
struct Shapes<const D: usize> {
    box_a: [f64; D],
    box_b: [f64; D],
    /// Capsules along local y: (half-height, radius) of A and of B.
    capsule_a: (f64, f64),
    capsule_b: (f64, f64),
    hull32_a: Vec<[f64; D]>,
    hull32_b: Vec<[f64; D]>,
    hull_big_a: Vec<[f64; D]>,
    hull_big_b: Vec<[f64; D]>,
}

impl<const D: usize> Shapes<D> {
    fn new(rng: &mut SplitMix64) -> Self {
        let mut sphere = |n: usize| (0..n).map(|_| rng.unit_vec::<D>()).collect::<Vec<_>>();
        let (hull32_a, hull32_b) = (sphere(32), sphere(32));
        let (hull_big_a, hull_big_b) = (sphere(BIG), sphere(BIG));
        Self {
            box_a: std::array::from_fn(|i| [1.0, 0.7, 0.5][i]),
            box_b: std::array::from_fn(|i| [0.6, 0.9, 0.4][i]),
            capsule_a: (0.8, 0.4),
            capsule_b: (0.6, 0.3),
            hull32_a,
            hull32_b,
            hull_big_a,
            hull_big_b,
        }
    }
}

const PAIR_NAMES: [&str; 4] = ["box_box", "capsule_capsule", "hull32", "hull500"];

/// The largest `t` in `[0, 10]` with `dist(t) <= 0` (bisection; `dist` is convex in `t`
/// and 0 at `t = 0`, where the shapes share their centre): the touching offset.
fn touching(dist: impl Fn(f64) -> f64) -> f64 {
    assert!(dist(10.0) > 0.0, "touching: shapes still overlap at t = 10");
    common::bisect(0.0, 10.0, |mid| dist(mid) <= 0.0).0
}

/// The batches of every configuration, from `BATCH` random placements; `dist` is our
/// f64 distance between A at the first pose and B at the second.
fn configs<P: Line>(rng: &mut SplitMix64, dist: impl Fn(&P, &P) -> f64) -> Vec<Vec<(P, P)>> {
    let mut out = vec![Vec::new(); CONFIGS.len()];
    for _ in 0..BATCH {
        let (pa, at) = P::line(rng);
        let t = touching(|s| dist(&pa, &at(s)));
        for (k, (_, f)) in CONFIGS.iter().enumerate() {
            out[k].push((pa, at(f * t)));
        }
    }
    out
}

/// Every input of the 3D or 2D benches: shapes and, per pair, the configurations.
struct Inputs<const D: usize, P> {
    shapes: Shapes<D>,
    /// Indexed like [`PAIR_NAMES`], then like [`CONFIGS`].
    poses: [Vec<Vec<(P, P)>>; 4],
}

/// Our f64 shapes and poses: placing the inputs and checking both libraries' answers.
mod reference {
    use super::{Pose2F, Pose3F};
    pub use crate::common::reference::{capsule, cuboid, hull};
    pub use crate::common::{iso2, iso3};
    use convex_proximity::shape::SupportMap;
    use nalgebra::SVector;

    /// The overlap of A at `pa` and B at `pb` along the world unit direction `n`:
    /// `max_A n·x − min_B n·x`. Moving B by this along `n` makes them touch, so it bounds
    /// the penetration depth from above, with equality along the minimal direction.
    pub fn overlap3<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
        a: &A,
        pa: &Pose3F,
        b: &B,
        pb: &Pose3F,
        n: &SVector<f64, 3>,
    ) -> f64 {
        let (ia, ib) = (iso3(pa), iso3(pb));
        let sa = ia.transform_point(&a.support(&ia.inverse_transform_vector(n)));
        let sb = ib.transform_point(&b.support(&ib.inverse_transform_vector(&-n)));
        n.dot(&(sa - sb))
    }
    /// As [`overlap3`], in 2D.
    pub fn overlap2<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(
        a: &A,
        pa: &Pose2F,
        b: &B,
        pb: &Pose2F,
        n: &SVector<f64, 2>,
    ) -> f64 {
        let (ia, ib) = (iso2(pa), iso2(pb));
        let sa = ia.transform_point(&a.support(&ia.inverse_transform_vector(n)));
        let sb = ib.transform_point(&b.support(&ib.inverse_transform_vector(&-n)));
        n.dot(&(sa - sb))
    }
}

/// The inputs of one dimension, from `seed`.
fn inputs<const D: usize, P>(seed: u64) -> Inputs<D, P>
where
    P: Dist<D>,
    Cuboid<f64, D>: SupportMap<f64, D>,
    Capsule<f64, D>: SupportMap<f64, D>,
    Polytope<f64, D>: SupportMap<f64, D>,
{
    use reference::{capsule, cuboid, hull};
    let mut rng = SplitMix64(seed);
    let s = Shapes::<D>::new(&mut rng);
    let poses = [
        configs(
            &mut rng,
            P::dist(&cuboid::<D>(&s.box_a), &cuboid::<D>(&s.box_b)),
        ),
        configs(
            &mut rng,
            P::dist(&capsule::<D>(s.capsule_a), &capsule::<D>(s.capsule_b)),
        ),
        configs(&mut rng, P::dist(&hull(&s.hull32_a), &hull(&s.hull32_b))),
        configs(
            &mut rng,
            P::dist(&hull(&s.hull_big_a), &hull(&s.hull_big_b)),
        ),
    ];
    Inputs { shapes: s, poses }
}

// ---------------------------------------------------------------------------------------
// The benches, once per (parry crate, scalar, dimension)
// ---------------------------------------------------------------------------------------

/// The overlap check, the exact SAT axes where there are some and parry's hulls, per
/// dimension.
macro_rules! per_dim {
    (3) => {
        fn overlap<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
            a: &A,
            pa: &PoseF,
            b: &B,
            pb: &PoseF,
            n: &SVector<f64, 3>,
        ) -> f64 {
            crate::reference::overlap3(a, pa, b, pb, n)
        }
        /// SAT axes of two boxes: both rotations' columns and their cross products.
        fn box_axes(pa: &PoseF, pb: &PoseF) -> Vec<SVector<f64, 3>> {
            let (ra, rb) = (
                crate::reference::iso3(pa).rotation.to_rotation_matrix(),
                crate::reference::iso3(pb).rotation.to_rotation_matrix(),
            );
            let mut out = Vec::new();
            for i in 0..3 {
                out.push(ra.matrix().column(i).into_owned());
                out.push(rb.matrix().column(i).into_owned());
                for j in 0..3 {
                    let c = ra.matrix().column(i).cross(&rb.matrix().column(j));
                    if c.norm() > 1e-9 {
                        out.push(c.normalize());
                    }
                }
            }
            out
        }
        /// No exact oracle for 3D hulls here (it needs the faces and edges).
        fn hull_axes(
            _: &[[f64; 3]],
            _: &[[f64; 3]],
            _: &PoseF,
            _: &PoseF,
        ) -> Option<Vec<SVector<f64, 3>>> {
            None
        }
        /// parry's hull of `pts` (all on a sphere) and whether it kept every point.
        fn parry_hull(pts: &[Vector]) -> Option<ps::ConvexPolyhedron> {
            ps::ConvexPolyhedron::from_convex_hull(pts).filter(|h| h.points().len() == pts.len())
        }
        fn parry_hull_len(pts: &[Vector]) -> usize {
            ps::ConvexPolyhedron::from_convex_hull(pts).map_or(0, |h| h.points().len())
        }
    };
    (2) => {
        fn overlap<A: SupportMap<f64, 2>, B: SupportMap<f64, 2>>(
            a: &A,
            pa: &PoseF,
            b: &B,
            pb: &PoseF,
            n: &SVector<f64, 2>,
        ) -> f64 {
            crate::reference::overlap2(a, pa, b, pb, n)
        }
        /// SAT axes of two rectangles: both rotations' columns.
        fn box_axes(pa: &PoseF, pb: &PoseF) -> Vec<SVector<f64, 2>> {
            let (ra, rb) = (
                crate::reference::iso2(pa).rotation.to_rotation_matrix(),
                crate::reference::iso2(pb).rotation.to_rotation_matrix(),
            );
            (0..2)
                .flat_map(|i| {
                    [
                        ra.matrix().column(i).into_owned(),
                        rb.matrix().column(i).into_owned(),
                    ]
                })
                .collect()
        }
        /// SAT axes of two polygons whose vertices all lie on a circle: the edge normals of
        /// both (vertices sorted by angle), in the world frame.
        fn hull_axes(
            ha: &[[f64; 2]],
            hb: &[[f64; 2]],
            pa: &PoseF,
            pb: &PoseF,
        ) -> Option<Vec<SVector<f64, 2>>> {
            let mut out = Vec::new();
            for (h, p) in [(ha, pa), (hb, pb)] {
                let iso = crate::reference::iso2(p);
                let mut v: Vec<SVector<f64, 2>> = h
                    .iter()
                    .map(|q| SVector::<f64, 2>::new(q[0], q[1]))
                    .collect();
                v.sort_by(|p, q| p.y.atan2(p.x).total_cmp(&q.y.atan2(q.x)));
                for i in 0..v.len() {
                    let e = v[(i + 1) % v.len()] - v[i];
                    if e.norm() > 0.0 {
                        out.push(iso.rotation * SVector::<f64, 2>::new(e.y, -e.x).normalize());
                    }
                }
            }
            Some(out)
        }
        /// parry's polygon of `pts` (all on a circle) and whether it kept every point.
        fn parry_hull(pts: &[Vector]) -> Option<ps::ConvexPolygon> {
            ps::ConvexPolygon::from_convex_hull(pts).filter(|h| h.points().len() == pts.len())
        }
        fn parry_hull_len(pts: &[Vector]) -> usize {
            ps::ConvexPolygon::from_convex_hull(pts).map_or(0, |h| h.points().len())
        }
    };
}

macro_rules! peers {
    ($m:ident, $parry:ident, $T:ty, $D:tt, $label:literal) => {
        mod $m {
            use super::{BATCH, CONFIGS, Inputs, PAIR_NAMES, reference};
            use convex_proximity::{
                Tolerances, epa, query,
                shape::{Capsule, Cuboid, Polytope, SupportMap},
            };
            use criterion::Criterion;
            use nalgebra::{Point, SVector};
            use $parry::{query as pq, shape as ps};
            use std::hint::black_box;

            crate::common::parry_scalar!($parry, $T, $D);
            const LABEL: &str = $label;
            per_dim!($D);


            /// One pair in every configuration: checks, then `contact` of both libraries.
            /// `fa`, `fb`: the same shapes in f64 for the overlap check.
            #[allow(clippy::too_many_arguments)]
            fn pair<A, B, FA, FB>(
                c: &mut Criterion,
                pair: &str,
                (a, b): (&A, &B),
                (fa, fb): (&FA, &FB),
                parry: Option<(&dyn ps::Shape, &dyn ps::Shape)>,
                axes: Option<&dyn Fn(&PoseF, &PoseF) -> Vec<SVector<f64, D>>>,
                configs: &[Vec<(PoseF, PoseF)>],
            ) where
                A: SupportMap<T, D>,
                B: SupportMap<T, D>,
                FA: SupportMap<f64, D>,
                FB: SupportMap<f64, D>,
            {
                let tol = Tolerances::<T>::default();
                for ((config, _), batch) in CONFIGS.iter().zip(configs) {
                    let ours: Vec<(Iso, Iso)> =
                        batch.iter().map(|(p, q)| (iso(p), iso(q))).collect();
                    let theirs: Vec<(Pose, Pose)> =
                        batch.iter().map(|(p, q)| (pose(p), pose(q))).collect();
                    assert_eq!(ours.len(), BATCH);

                    // Checks, outside the timing.
                    let mut ws = epa::Workspace::new();
                    let (mut it_c, mut it_g, mut not_neg, mut not_conv) = (0u64, 0u64, 0, 0);
                    let (mut depth_sum, mut self_ours) = (0.0f64, 0.0f64);
                    let (mut none, mut nonneg_parry, mut self_parry) = (0, 0, 0.0f64);
                    let (mut d_diff, mut angle, mut worse_ours, mut worse_parry) =
                        (0.0f64, 0.0f64, 0.0f64, 0.0f64);
                    // Against the exact depth (SAT) where we have one.
                    let (mut sat_ours, mut sat_parry) = (0.0f64, 0.0f64);
                    for (((oa, ob), (ta, tb)), (fpa, fpb)) in
                        ours.iter().zip(&theirs).zip(batch.iter())
                    {
                        let co = query::contact_with_workspace(oa, a, ob, b, &tol, &mut ws)
                            .expect("ours: contact");
                        let dg = query::distance(oa, a, ob, b, &tol).expect("ours: distance");
                        it_c += u64::from(co.iterations);
                        it_g += u64::from(dg.iterations);
                        not_neg += usize::from(!(co.separation < 0.0));
                        not_conv += usize::from(!co.termination.is_converged());
                        let d_ours = -f64::from(co.separation);
                        depth_sum += d_ours;
                        let n_ours: SVector<f64, D> = co.normal.into_inner().map(f64::from).normalize();
                        let o_ours = overlap(fa, fpa, fb, fpb, &n_ours);
                        self_ours = self_ours.max((d_ours - o_ours).abs());
                        let sat = axes.map(|f| {
                            f(fpa, fpb)
                                .iter()
                                .flat_map(|n| [*n, -n])
                                .map(|n| overlap(fa, fpa, fb, fpb, &n))
                                .fold(f64::INFINITY, f64::min)
                        });
                        if let Some(sat) = sat {
                            sat_ours = sat_ours.max((d_ours - sat).abs());
                        }
                        let Some((pa, pb)) = parry else { continue };
                        match pq::contact(ta, pa, tb, pb, 0.0).expect("parry: unsupported") {
                            None => none += 1,
                            Some(pc) => {
                                let d_parry = -f64::from(pc.dist);
                                nonneg_parry += usize::from(!(pc.dist < 0.0));
                                let arr: [T; D] = pc.normal1.to_array();
                                let n_parry: SVector<f64, D> =
                                    SVector::<f64, D>::from_fn(|i, _| f64::from(arr[i])).normalize();
                                let o_parry = overlap(fa, fpa, fb, fpb, &n_parry);
                                self_parry = self_parry.max((d_parry - o_parry).abs());
                                d_diff = d_diff.max((d_ours - d_parry).abs());
                                if let Some(sat) = sat {
                                    sat_parry = sat_parry.max((d_parry - sat).abs());
                                }
                                angle = angle.max(n_ours.dot(&n_parry).clamp(-1.0, 1.0).acos());
                                let best = o_ours.min(o_parry);
                                worse_ours = worse_ours.max(o_ours - best);
                                worse_parry = worse_parry.max(o_parry - best);
                            }
                        }
                    }
                    let n = ours.len() as f64;
                    let exact = if axes.is_some() {
                        let parry_sat = if parry.is_some() {
                            format!("{sat_parry:.1e}")
                        } else {
                            "n/a".to_string()
                        };
                        format!("\tmax|d_ours-sat|={sat_ours:.1e}\tmax|d_parry-sat|={parry_sat}")
                    } else {
                        String::new()
                    };
                    let peer = if parry.is_some() {
                        format!(
                            "parry_none={none}/{BATCH}\tparry_nonneg={nonneg_parry}\tmax|d_ours-d_parry|={d_diff:.1e}\tmax_angle={angle:.1e}\tmax|d_parry-overlap(n_parry)|={self_parry:.1e}\tours_worse_by={worse_ours:.1e}\tparry_worse_by={worse_parry:.1e}"
                        )
                    } else {
                        "parry=n/a".to_string()
                    };
                    eprintln!(
                        "epa\t{LABEL}/{pair}/{config}\titerations={:.2}\tgjk_iterations={:.2}\tmean_depth={:.3}\tours_not_negative={not_neg}\tours_not_converged={not_conv}\tmax|d_ours-overlap(n_ours)|={self_ours:.1e}\t{peer}{exact}",
                        it_c as f64 / n,
                        it_g as f64 / n,
                        depth_sum / n,
                    );

                    let mut g = c.benchmark_group(format!("epa_{LABEL}/{pair}/{config}"));
                    if pair.starts_with("hull500") {
                        g.sample_size(20);
                    } else {
                        g.sample_size(50);
                    }
                    g.bench_function("ours", |bch| {
                        bch.iter(|| {
                            let mut acc: T = 0.0;
                            for (oa, ob) in &ours {
                                acc += query::contact_with_workspace(
                                    black_box(oa),
                                    a,
                                    black_box(ob),
                                    b,
                                    &tol,
                                    &mut ws,
                                )
                                .unwrap()
                                .separation;
                            }
                            acc
                        })
                    });
                    if let Some((pa, pb)) = parry {
                        g.bench_function("parry", |bch| {
                            bch.iter(|| {
                                let mut acc: T = 0.0;
                                for (ta, tb) in &theirs {
                                    acc += pq::contact(black_box(ta), pa, black_box(tb), pb, 0.0)
                                        .unwrap()
                                        .map_or(0.0, |c| c.dist);
                                }
                                acc
                            })
                        });
                    }
                    g.finish();
                }
            }

            pub fn run(c: &mut Criterion, inputs: &Inputs<D, PoseF>) {
                let s = &inputs.shapes;
                let capsule = |(hh, r): (f64, f64)| {
                    let mut e = SVector::<T, D>::zeros();
                    e[1] = hh as T;
                    Capsule::new(Point::from(-e), Point::from(e), r as T)
                };
                let hull = |pts: &[[f64; D]]| {
                    Polytope::try_new(pts.iter().map(|p| Point::from(svector(p))).collect())
                        .unwrap()
                };
                let pts = |pts: &[[f64; D]]| pts.iter().map(|p| vector(p)).collect::<Vec<_>>();
                for (name, poses) in PAIR_NAMES.iter().zip(&inputs.poses) {
                    match *name {
                        "box_box" => {
                            let (pa, pb) = (
                                ps::Cuboid::new(vector(&s.box_a)),
                                ps::Cuboid::new(vector(&s.box_b)),
                            );
                            pair(
                                c,
                                name,
                                (&Cuboid::new(svector(&s.box_a)), &Cuboid::new(svector(&s.box_b))),
                                (&reference::cuboid(&s.box_a), &reference::cuboid(&s.box_b)),
                                Some((&pa, &pb)),
                                Some(&box_axes),
                                poses,
                            )
                        }
                        "capsule_capsule" => {
                            let (pa, pb) = (
                                ps::Capsule::new_y(s.capsule_a.0 as T, s.capsule_a.1 as T),
                                ps::Capsule::new_y(s.capsule_b.0 as T, s.capsule_b.1 as T),
                            );
                            pair(
                                c,
                                name,
                                (&capsule(s.capsule_a), &capsule(s.capsule_b)),
                                (
                                    &reference::capsule::<D>(s.capsule_a),
                                    &reference::capsule::<D>(s.capsule_b),
                                ),
                                Some((&pa, &pb)),
                                None,
                                poses,
                            )
                        }
                        "hull32" | "hull500" => {
                            let (ha, hb) = if *name == "hull32" {
                                (&s.hull32_a, &s.hull32_b)
                            } else {
                                (&s.hull_big_a, &s.hull_big_b)
                            };
                            let (qa, qb) = (pts(ha), pts(hb));
                            // The exact depth where the dimension has one (2D).
                            let oracle = |p: &PoseF, q: &PoseF| hull_axes(ha, hb, p, q).unwrap_or_default();
                            let exact = hull_axes(ha, hb, &poses[0][0].0, &poses[0][0].1).is_some();
                            let (pa, pb) = (parry_hull(&qa), parry_hull(&qb));
                            if pa.is_none() || pb.is_none() {
                                eprintln!(
                                    "hull\t{LABEL}/{name}: parry keeps {} and {} of {} points: no parry column",
                                    parry_hull_len(&qa),
                                    parry_hull_len(&qb),
                                    ha.len()
                                );
                            }
                            let peer = match (&pa, &pb) {
                                (Some(pa), Some(pb)) => {
                                    Some((pa as &dyn ps::Shape, pb as &dyn ps::Shape))
                                }
                                _ => None,
                            };
                            pair(
                                c,
                                name,
                                (&hull(ha), &hull(hb)),
                                (&reference::hull(ha), &reference::hull(hb)),
                                peer,
                                exact.then_some(&oracle as &dyn Fn(&PoseF, &PoseF) -> Vec<SVector<f64, D>>),
                                poses,
                            )
                        }
                        _ => unreachable!(),
                    }
                }
            }
        }
    };
}

peers!(d3_f32, parry3d, f32, 3, "3d_f32");
peers!(d3_f64, parry3d_f64, f64, 3, "3d_f64");
peers!(d2_f32, parry2d, f32, 2, "2d_f32");
peers!(d2_f64, parry2d_f64, f64, 2, "2d_f64");

fn bench_3d(c: &mut Criterion) {
    let inputs = inputs::<3, Pose3F>(0x5EED_E003);
    d3_f32::run(c, &inputs);
    d3_f64::run(c, &inputs);
}

fn bench_2d(c: &mut Criterion) {
    let inputs = inputs::<2, Pose2F>(0x5EED_E002);
    d2_f32::run(c, &inputs);
    d2_f64::run(c, &inputs);
}

fn criterion() -> Criterion {
    common::criterion(Duration::from_secs(1), Duration::from_secs(2))
}

criterion_group! {
    name = peers_epa;
    config = criterion();
    targets = bench_3d, bench_2d
}
criterion_main!(peers_epa);
