//! The 3D f64 cases of `benches/peers_cast.rs` (the same seeded inputs,
//! `benches/common/cast_inputs.rs`), one case and one library at a time, for instruction
//! counts under callgrind (docs/PERFORMANCE.md §2.8, §3.2):
//!
//! ```sh
//! cargo build --release -p convex-proximity-peers --example cast_probe
//! valgrind --tool=callgrind --toggle-collect='*probe_calls*' \
//!     target/release/examples/cast_probe ray/hull32 ours 10
//! ```
//!
//! Arguments: the case (`ray/{ball,cuboid,capsule,hull32}`,
//! `linear/{box_box,ball_capsule,hull32}`), the library (`ours` or `parry`) and the passes
//! over the case's 64 casts. Instructions per cast: (the count for 2N passes − the count for
//! N) / (64 N). It prints the sum of the times of impact (both libraries agree on the hits).

#[macro_use]
#[path = "../benches/common/mod.rs"]
mod common;

use common::cast_inputs::{Inputs, inputs};
use convex_proximity::{
    Tolerances, query,
    query::{CastOptions, LinearMotion, Ray},
    shape::{Ball, Capsule, Cuboid, Polytope, SupportMap},
};
use nalgebra::{Point3, UnitQuaternion};
use parry3d_f64::query::RayCast;
use parry3d_f64::{query as pq, shape as ps};
use std::hint::black_box;

parry_scalar!(parry3d_f64, f64, 3);

/// One ray case: ours or parry's, `passes` times over the batch.
fn rays<S: SupportMap<T, 3>, P: RayCast>(
    s: &S,
    p: &P,
    inp: &Inputs,
    ours: bool,
    passes: usize,
) -> f64 {
    let tol = Tolerances::<T>::default();
    let mine: Vec<(Iso, Ray<T, 3>)> = inp
        .rays
        .iter()
        .map(|(q, r)| (iso(q), Ray::new(Point3::from(v3(&r.o)), v3(&r.d))))
        .collect();
    let theirs: Vec<(Pose, pq::Ray)> = inp
        .rays
        .iter()
        .map(|(q, r)| (pose(q), pq::Ray::new(pv(&r.o), pv(&r.d))))
        .collect();
    if ours {
        probe_calls(passes, mine.len(), |k| {
            let (q, r) = &mine[k];
            query::cast_ray(black_box(q), s, black_box(r), 10.0, true, &tol)
                .unwrap()
                .hit
                .map_or(0.0, |h| h.toi)
        })
    } else {
        probe_calls(passes, theirs.len(), |k| {
            let (q, r) = &theirs[k];
            p.cast_ray_and_get_normal(black_box(q), black_box(r), 10.0, true)
                .map_or(0.0, |h| h.time_of_impact)
        })
    }
}

/// One linear case (target 0, max time 4, as the bench).
fn linear<A: SupportMap<T, 3>, B: SupportMap<T, 3>>(
    a: &A,
    b: &B,
    pa: &dyn ps::Shape,
    pb: &dyn ps::Shape,
    inp: &Inputs,
    ours: bool,
    passes: usize,
) -> f64 {
    let tol = Tolerances::<T>::default();
    let opts = CastOptions {
        max_toi: 4.0,
        ..CastOptions::default()
    };
    let popts = pq::ShapeCastOptions {
        max_time_of_impact: 4.0,
        target_distance: 0.0,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: true,
    };
    type Motion = LinearMotion<T, UnitQuaternion<T>, 3>;
    let mine: Vec<(Motion, Motion)> = inp
        .linear
        .iter()
        .map(|m| {
            (
                LinearMotion::new(iso(&m.pa), v3(&m.va)),
                LinearMotion::new(iso(&m.pb), v3(&m.vb)),
            )
        })
        .collect();
    let theirs: Vec<(Pose, Vector, Pose, Vector)> = inp
        .linear
        .iter()
        .map(|m| (pose(&m.pa), pv(&m.va), pose(&m.pb), pv(&m.vb)))
        .collect();
    if ours {
        probe_calls(passes, mine.len(), |k| {
            let (ma, mb) = &mine[k];
            query::cast_shapes(black_box(ma), a, black_box(mb), b, &opts, &tol)
                .unwrap()
                .hit
                .map_or(0.0, |h| h.toi)
        })
    } else {
        probe_calls(passes, theirs.len(), |k| {
            let (qa, va, qb, vb) = &theirs[k];
            pq::cast_shapes(black_box(qa), *va, pa, black_box(qb), *vb, pb, popts)
                .unwrap()
                .map_or(0.0, |h| h.time_of_impact)
        })
    }
}

/// The counted region (`--toggle-collect='*probe_calls*'`): `passes` × `n` casts.
#[inline(never)]
fn probe_calls(passes: usize, n: usize, cast: impl Fn(usize) -> f64) -> f64 {
    let mut acc = 0.0;
    for _ in 0..passes {
        for k in 0..n {
            acc += black_box(cast(k));
        }
    }
    acc
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map_or("ray/hull32", String::as_str);
    let ours = match args.get(2).map_or("ours", String::as_str) {
        "ours" => true,
        "parry" => false,
        other => panic!("library `{other}`: ours or parry"),
    };
    let passes: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let inp = inputs();
    let hull = |pts: &[[f64; 3]]| {
        Polytope::try_new(pts.iter().map(|p| Point3::from(v3(p))).collect()).unwrap()
    };
    let phull = |pts: &[[f64; 3]]| {
        let v: Vec<Vector> = pts.iter().map(pv).collect();
        ps::ConvexPolyhedron::from_convex_hull(&v).unwrap()
    };
    let (hh, r) = inp.capsule;
    let capsule = Capsule::new(Point3::new(0.0, -hh, 0.0), Point3::new(0.0, hh, 0.0), r);
    let pcapsule = ps::Capsule::new_y(hh, r);
    let (ba, bb) = (Cuboid::new(v3(&inp.box_a)), Cuboid::new(v3(&inp.box_b)));
    let (pba, pbb) = (
        ps::Cuboid::new(pv(&inp.box_a)),
        ps::Cuboid::new(pv(&inp.box_b)),
    );
    let ball = Ball::new(inp.ball);
    let pball = ps::Ball::new(inp.ball);
    let (ha, hb) = (hull(&inp.hull_a), hull(&inp.hull_b));
    let (pha, phb) = (phull(&inp.hull_a), phull(&inp.hull_b));
    let sum = match case {
        "ray/ball" => rays(&ball, &pball, &inp, ours, passes),
        "ray/cuboid" => rays(&ba, &pba, &inp, ours, passes),
        "ray/capsule" => rays(&capsule, &pcapsule, &inp, ours, passes),
        "ray/hull32" => rays(&ha, &pha, &inp, ours, passes),
        "linear/box_box" => linear(&ba, &bb, &pba, &pbb, &inp, ours, passes),
        "linear/ball_capsule" => linear(&ball, &capsule, &pball, &pcapsule, &inp, ours, passes),
        "linear/hull32" => linear(&ha, &hb, &pha, &phb, &inp, ours, passes),
        other => panic!("case `{other}`"),
    };
    println!(
        "{case}\t{}\tpasses={passes}\tsum_toi={sum:.17e}",
        if ours { "ours" } else { "parry" }
    );
}
