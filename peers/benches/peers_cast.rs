//! Side-by-side benches of the casts: convex-proximity against parry 0.31 on the same
//! seeded inputs (3D, f32 and f64).
//!
//! - `ray/<shape>`: [`BATCH`] rays from 4 units away aimed near the shape (about two in
//!   three hit), ours `query::cast_ray` (solid) against parry's `cast_ray_and_get_normal`
//!   (both return the normal); shapes ball, cuboid, capsule, 32-point hull.
//! - `linear/<pair>`: B thrown at A (constant velocities), ours `query::cast_shapes`
//!   against parry's `query::cast_shapes` (target 0, `compute_impact_geometry_on_penetration`).
//! - `nonlinear/<pair>`: both turning (about 2 rad per unit of time) over `t ∈ [0, 1]`,
//!   ours `query::time_of_impact` against parry's `query::cast_shapes_nonlinear`.
//!
//! One measured iteration runs the whole batch (divide by [`BATCH`]). Before timing, each
//! case prints (lines starting `iters`) our mean support evaluations and steps, the number
//! of hits of each library, the hit/miss disagreements and the largest time difference.

#[macro_use]
mod common;
use common::cast_inputs::{BATCH, Inputs, MoveF, inputs};
use criterion::{Criterion, criterion_group, criterion_main};
use std::time::Duration;

macro_rules! peers_cast {
    ($m:ident, $parry:ident, $T:ty, $label:literal) => {
        mod $m {
            use super::{BATCH, Inputs, MoveF};
            use convex_proximity::{
                Tolerances, query,
                query::{CastOptions, LinearMotion, Ray, RigidMotion},
                shape::{Ball, Capsule, Cuboid, Polytope, SupportMap},
            };
            use criterion::Criterion;
            use nalgebra::Point3;
            use $parry::query::RayCast;
            use $parry::{query as pq, shape as ps};
            use std::hint::black_box;

            crate::common::parry_scalar!($parry, $T, 3);
            const LABEL: &str = $label;

            /// Our time of impact and steps, or None.
            type Toi = Option<f64>;

            fn report(what: &str, ours: &[Toi], theirs: &[Toi], its: u64, steps: u64) {
                let hits = |v: &[Toi]| v.iter().filter(|x| x.is_some()).count();
                let disagree = ours.iter().zip(theirs).filter(|(a, b)| a.is_some() != b.is_some()).count();
                let diff = ours
                    .iter()
                    .zip(theirs)
                    .filter_map(|(a, b)| Some((a.as_ref()? - b.as_ref()?).abs()))
                    .fold(0.0f64, f64::max);
                eprintln!(
                    "iters\t{LABEL}/{what}\tsupport_evals={:.2}\tsteps={:.2}\thits_ours={}\thits_parry={}\tdisagree={disagree}\tmax_toi_diff={diff:.1e}",
                    its as f64 / ours.len() as f64,
                    steps as f64 / ours.len() as f64,
                    hits(ours),
                    hits(theirs)
                );
            }

            fn rays<S: SupportMap<T, 3>, P: RayCast>(c: &mut Criterion, name: &str, s: &S, p: &P, inp: &Inputs) {
                let tol = Tolerances::<T>::default();
                let ours: Vec<(Iso, Ray<T, 3>)> = inp
                    .rays
                    .iter()
                    .map(|(q, r)| (iso(q), Ray::new(Point3::from(v3(&r.o)), v3(&r.d))))
                    .collect();
                let theirs: Vec<(Pose, pq::Ray)> =
                    inp.rays.iter().map(|(q, r)| (pose(q), pq::Ray::new(pv(&r.o), pv(&r.d)))).collect();
                let (mut its, mut steps) = (0u64, 0u64);
                let a: Vec<Toi> = ours
                    .iter()
                    .map(|(q, r)| {
                        let c = query::cast_ray(q, s, r, 10.0, true, &tol).unwrap();
                        its += u64::from(c.iterations);
                        steps += u64::from(c.steps);
                        c.hit.map(|h| f64::from(h.toi))
                    })
                    .collect();
                let b: Vec<Toi> = theirs
                    .iter()
                    .map(|(q, r)| p.cast_ray_and_get_normal(q, r, 10.0, true).map(|h| f64::from(h.time_of_impact)))
                    .collect();
                report(&format!("ray/{name}"), &a, &b, its, steps);
                let mut g = c.benchmark_group(format!("{LABEL}/ray/{name}"));
                g.bench_function("ours", |bch| {
                    bch.iter(|| {
                        let mut acc: T = 0.0;
                        for (q, r) in &ours {
                            if let Some(h) = query::cast_ray(black_box(q), s, black_box(r), 10.0, true, &tol).unwrap().hit {
                                acc += h.toi;
                            }
                        }
                        acc
                    })
                });
                g.bench_function("parry", |bch| {
                    bch.iter(|| {
                        let mut acc: T = 0.0;
                        for (q, r) in &theirs {
                            if let Some(h) = p.cast_ray_and_get_normal(black_box(q), black_box(r), 10.0, true) {
                                acc += h.time_of_impact;
                            }
                        }
                        acc
                    })
                });
                g.finish();
            }

            #[allow(clippy::too_many_arguments)]
            fn pair<A, B>(
                c: &mut Criterion,
                name: &str,
                a: &A,
                b: &B,
                pa: &dyn ps::Shape,
                pb: &dyn ps::Shape,
                batch: &[MoveF],
                rotating: bool,
            ) where
                A: SupportMap<T, 3>,
                B: SupportMap<T, 3>,
            {
                let tol = Tolerances::<T>::default();
                let kind = if rotating { "nonlinear" } else { "linear" };
                let max_toi: T = if rotating { 1.0 } else { 4.0 };
                let opts = CastOptions { max_toi, ..CastOptions::default() };
                let popts = pq::ShapeCastOptions {
                    max_time_of_impact: max_toi,
                    target_distance: 0.0,
                    stop_at_penetration: true,
                    compute_impact_geometry_on_penetration: true,
                };
                let lin: Vec<(LinearMotion<T, nalgebra::UnitQuaternion<T>, 3>, LinearMotion<T, nalgebra::UnitQuaternion<T>, 3>)> = batch
                    .iter()
                    .map(|m| (LinearMotion::new(iso(&m.pa), v3(&m.va)), LinearMotion::new(iso(&m.pb), v3(&m.vb))))
                    .collect();
                let rigid: Vec<(RigidMotion<T, 3>, RigidMotion<T, 3>)> = batch
                    .iter()
                    .map(|m| {
                        (
                            RigidMotion::new(&iso(&m.pa), Point3::origin(), v3(&m.va), v3(&m.wa)),
                            RigidMotion::new(&iso(&m.pb), Point3::origin(), v3(&m.vb), v3(&m.wb)),
                        )
                    })
                    .collect();
                let theirs: Vec<(Pose, Pose, MoveF)> = batch.iter().map(|m| (pose(&m.pa), pose(&m.pb), *m)).collect();
                let motion = |q: &Pose, v: &[f64; 3], w: &[f64; 3]| pq::NonlinearRigidMotion::new(*q, Vector::ZERO, pv(v), pv(w));
                let ours_one = |k: usize| {
                    if rotating {
                        let (ma, mb) = &rigid[k];
                        query::time_of_impact(ma, a, mb, b, &opts, &tol).unwrap()
                    } else {
                        let (ma, mb) = &lin[k];
                        query::cast_shapes(ma, a, mb, b, &opts, &tol).unwrap()
                    }
                };
                let theirs_one = |k: usize| {
                    let (qa, qb, m) = &theirs[k];
                    if rotating {
                        pq::cast_shapes_nonlinear(&motion(qa, &m.va, &m.wa), pa, &motion(qb, &m.vb, &m.wb), pb, 0.0, 1.0, true).unwrap()
                    } else {
                        pq::cast_shapes(qa, pv(&m.va), pa, qb, pv(&m.vb), pb, popts).unwrap()
                    }
                };
                let (mut its, mut steps) = (0u64, 0u64);
                let x: Vec<Toi> = (0..batch.len())
                    .map(|k| {
                        let c = ours_one(k);
                        its += u64::from(c.iterations);
                        steps += u64::from(c.steps);
                        c.hit.map(|h| f64::from(h.toi))
                    })
                    .collect();
                let y: Vec<Toi> = (0..batch.len()).map(|k| theirs_one(k).map(|h| f64::from(h.time_of_impact))).collect();
                report(&format!("{kind}/{name}"), &x, &y, its, steps);
                let mut g = c.benchmark_group(format!("{LABEL}/{kind}/{name}"));
                g.bench_function("ours", |bch| {
                    bch.iter(|| {
                        let mut acc: T = 0.0;
                        for k in 0..batch.len() {
                            if let Some(h) = black_box(ours_one(k)).hit {
                                acc += h.toi;
                            }
                        }
                        acc
                    })
                });
                g.bench_function("parry", |bch| {
                    bch.iter(|| {
                        let mut acc: T = 0.0;
                        for k in 0..batch.len() {
                            if let Some(h) = black_box(theirs_one(k)) {
                                acc += h.time_of_impact;
                            }
                        }
                        acc
                    })
                });
                g.finish();
                assert_eq!(x.len(), BATCH);
            }

            pub fn run(c: &mut Criterion, inp: &Inputs) {
                let hull = |pts: &[[f64; 3]]| Polytope::try_new(pts.iter().map(|p| Point3::from(v3(p))).collect()).unwrap();
                let phull = |pts: &[[f64; 3]]| {
                    let v: Vec<Vector> = pts.iter().map(pv).collect();
                    ps::ConvexPolyhedron::from_convex_hull(&v).unwrap()
                };
                let (hh, r) = inp.capsule;
                let capsule = Capsule::new(Point3::new(0.0, -hh as T, 0.0), Point3::new(0.0, hh as T, 0.0), r as T);
                let pcapsule = ps::Capsule::new_y(hh as T, r as T);
                let (ba, bb) = (Cuboid::new(v3(&inp.box_a)), Cuboid::new(v3(&inp.box_b)));
                let (pba, pbb) = (ps::Cuboid::new(pv(&inp.box_a)), ps::Cuboid::new(pv(&inp.box_b)));
                let ball = Ball::new(inp.ball as T);
                let pball = ps::Ball::new(inp.ball as T);
                let (ha, hb) = (hull(&inp.hull_a), hull(&inp.hull_b));
                let (pha, phb) = (phull(&inp.hull_a), phull(&inp.hull_b));
                rays(c, "ball", &ball, &pball, inp);
                rays(c, "cuboid", &ba, &pba, inp);
                rays(c, "capsule", &capsule, &pcapsule, inp);
                rays(c, "hull32", &ha, &pha, inp);
                for (rotating, batch) in [(false, &inp.linear), (true, &inp.nonlinear)] {
                    pair(c, "box_box", &ba, &bb, &pba, &pbb, batch, rotating);
                    pair(c, "ball_capsule", &ball, &capsule, &pball, &pcapsule, batch, rotating);
                    pair(c, "hull32", &ha, &hb, &pha, &phb, batch, rotating);
                }
            }
        }
    };
}

peers_cast!(d3_f64, parry3d_f64, f64, "3d_f64");
peers_cast!(d3_f32, parry3d, f32, "3d_f32");

fn bench(c: &mut Criterion) {
    let inp = inputs();
    d3_f64::run(c, &inp);
    d3_f32::run(c, &inp);
}

fn criterion() -> Criterion {
    common::criterion(Duration::from_millis(500), Duration::from_secs(2)).sample_size(30)
}

criterion_group! {
    name = peers;
    config = criterion();
    targets = bench
}
criterion_main!(peers);
