//! The cases of `benches/peers_manifold.rs` (the same seeded resting placements,
//! `benches/common/manifold_inputs.rs`), one case, scalar and library at a time, for
//! instruction counts under callgrind (docs/PERFORMANCE.md §2.7, §3.2):
//!
//! ```sh
//! cargo build --release -p convex-proximity-peers --example manifold_probe
//! valgrind --tool=callgrind --toggle-collect='*probe_calls*' \
//!     target/release/examples/manifold_probe 3d/hull_on_hull f64 ours 10
//! ```
//!
//! Arguments: the case (`3d/box_stack`, `3d/capsule_on_box`, `3d/hull_on_hull`,
//! `2d/box_stack`), the scalar (`f64` or `f32`), the library (`ours`:
//! `query::manifold_with_workspace`, one workspace reused; `parry`: `contact_manifolds`
//! with its manifolds cleared before each query, as the bench) and the passes over the
//! case's 64 placements. Instructions per manifold: (the count for 2N passes − the count
//! for N) / (64 N). It prints the total number of points each library made.

#[macro_use]
#[path = "../benches/common/mod.rs"]
mod common;

use common::manifold_inputs::{
    BOX, Batch, GROUND, PREDICTION, ground_corners, inputs2, inputs3, prism_points,
};
use std::hint::black_box;

/// The counted region (`--toggle-collect='*probe_calls*'`): `passes` × `n` manifolds.
#[inline(never)]
fn probe_calls(passes: usize, n: usize, mut manifold: impl FnMut(usize) -> usize) -> usize {
    let mut acc = 0;
    for _ in 0..passes {
        for k in 0..n {
            acc += black_box(manifold(k));
        }
    }
    acc
}

/// One library's manifolds of a case, for one parry crate and scalar.
macro_rules! probe {
    ($m:ident, $parry:ident, $T:ty, $D:tt) => {
        mod $m {
            use super::{PREDICTION, probe_calls};
            use convex_proximity::{Tolerances, clip, clip::FeatureMap, query};
            use std::hint::black_box;

            crate::common::manifold_inputs::manifold_scalar!($parry, $T, $D);

            pub fn run<A: FeatureMap<T, D>, B: FeatureMap<T, D>>(
                (a, b): (&A, &B),
                (pa, pb): (&dyn ps::Shape, &dyn ps::Shape),
                batch: &super::Batch<PoseF>,
                ours: bool,
                passes: usize,
            ) -> usize {
                let prediction = PREDICTION as T;
                if ours {
                    let tol = Tolerances::<T>::default();
                    let mut ws = clip::ManifoldWorkspace::new();
                    let poses: Vec<(Iso, Iso)> =
                        batch.poses.iter().map(|(p, q)| (iso(p), iso(q))).collect();
                    probe_calls(passes, poses.len(), |k| {
                        let (oa, ob) = &poses[k];
                        query::manifold_with_workspace(
                            black_box(oa),
                            a,
                            black_box(ob),
                            b,
                            prediction,
                            &tol,
                            &mut ws,
                        )
                        .unwrap()
                        .len()
                    })
                } else {
                    let dispatcher = DefaultQueryDispatcher;
                    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
                    let mut pws = None;
                    let poses: Vec<(Pose, Pose)> = batch
                        .poses
                        .iter()
                        .map(|(p, q)| (pose(p), pose(q)))
                        .collect();
                    probe_calls(passes, poses.len(), |k| {
                        reset(&mut manifolds);
                        let (ta, tb) = &poses[k];
                        let pos12 = black_box(ta).inv_mul(black_box(tb));
                        dispatcher
                            .contact_manifolds(&pos12, pa, pb, prediction, &mut manifolds, &mut pws)
                            .unwrap();
                        manifolds.iter().map(|m| m.points.len()).sum::<usize>()
                    })
                }
            }
        }
    };
}

probe!(d3_f32, parry3d, f32, 3);
probe!(d3_f64, parry3d_f64, f64, 3);
probe!(d2_f32, parry2d, f32, 2);
probe!(d2_f64, parry2d_f64, f64, 2);

/// A 3D case in one scalar (module `$m`): the shapes of both libraries, then the probe.
macro_rules! case3 {
    ($m:ident, $case:expr, $ours:expr, $passes:expr) => {{
        let inp = inputs3();
        let (ground, pground) = $m::boxes(GROUND);
        match $case {
            "box_stack" => {
                let (bx, pbx) = $m::boxes(BOX);
                $m::run(
                    (&ground, &bx),
                    (&pground, &pbx),
                    &inp.box_stack,
                    $ours,
                    $passes,
                )
            }
            "capsule_on_box" => {
                let (capsule, pcapsule) = $m::capsule();
                $m::run(
                    (&ground, &capsule),
                    (&pground, &pcapsule),
                    &inp.capsule_on_box,
                    $ours,
                    $passes,
                )
            }
            "hull_on_hull" => {
                let ((ha, pha), (hb, phb)) =
                    ($m::hull(&ground_corners()), $m::hull(&prism_points()));
                $m::run((&ha, &hb), (&pha, &phb), &inp.hull_on_hull, $ours, $passes)
            }
            other => panic!("3D case `{other}`: box_stack, capsule_on_box or hull_on_hull"),
        }
    }};
}

/// The 2D box stack in one scalar (module `$m`).
macro_rules! case2 {
    ($m:ident, $ours:expr, $passes:expr) => {{
        let ((ground, pground), (bx, pbx)) = ($m::boxes(GROUND), $m::boxes(BOX));
        $m::run((&ground, &bx), (&pground, &pbx), &inputs2(), $ours, $passes)
    }};
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map_or("3d/hull_on_hull", String::as_str);
    let scalar = args.get(2).map_or("f64", String::as_str);
    let ours = match args.get(3).map_or("ours", String::as_str) {
        "ours" => true,
        "parry" => false,
        other => panic!("library `{other}`: ours or parry"),
    };
    let passes: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let points = match (case.split_once('/'), scalar) {
        (Some(("3d", c)), "f64") => case3!(d3_f64, c, ours, passes),
        (Some(("3d", c)), "f32") => case3!(d3_f32, c, ours, passes),
        (Some(("2d", "box_stack")), "f64") => case2!(d2_f64, ours, passes),
        (Some(("2d", "box_stack")), "f32") => case2!(d2_f32, ours, passes),
        _ => panic!("case `{case}` in `{scalar}`"),
    };
    println!(
        "{case}\t{scalar}\t{}\tpasses={passes}\tpoints={points}",
        if ours { "ours" } else { "parry" }
    );
}
