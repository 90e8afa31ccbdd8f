//! Runs one query kind many times on a fixed box pair, for instruction counts under
//! callgrind (docs/testing.md, "Cost of the input checks"):
//!
//! ```sh
//! cargo build --release --example probe
//! valgrind --tool=callgrind target/release/examples/probe distance 1000
//! ```
//!
//! Kinds: `distance`, `intersects`, `contact`, `manifold`, `warm` (distance with a cache,
//! the pair moving a little each step), `fixed` (distance in FixedI40F24), `box2` (2D
//! boxes apart, the pair fast path). Divide the
//! difference of two runs' totals (N and 2N queries) by N for the cost per query.

use convex_proximity::{Tolerances, gjk::Cache, lit, query, shape::Cuboid};
use nalgebra::{Isometry2, Isometry3, Translation3, UnitQuaternion, Vector2, Vector3};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map_or("distance", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let a = Cuboid::new(Vector3::new(1.0, 0.5, 0.75));
    let b = Cuboid::new(Vector3::new(0.5, 0.5, 0.5));
    let tol = Tolerances::<f64>::default();
    let pa = Isometry3::new(Vector3::new(0.1, -0.2, 0.3), Vector3::new(0.1, 0.2, 0.3));
    let pose = |i: usize| {
        let s = 1e-4 * (i % 100) as f64;
        Isometry3::new(
            Vector3::new(2.2 + s, 0.4, -0.1),
            Vector3::new(0.3, -0.2 + s, 0.5),
        )
    };
    let deep = |i: usize| {
        let s = 1e-4 * (i % 100) as f64;
        Isometry3::new(
            Vector3::new(1.3 + s, 0.4, -0.1),
            Vector3::new(0.3, -0.2 + s, 0.5),
        )
    };
    let mut acc = 0.0;
    match kind {
        "distance" => {
            for i in 0..n {
                acc += query::distance(&pa, &a, &pose(i), &b, &tol)
                    .unwrap()
                    .distance;
            }
        }
        "intersects" => {
            for i in 0..n {
                acc += f64::from(u8::from(
                    query::intersects(&pa, &a, &pose(i), &b, &tol).unwrap(),
                ));
            }
        }
        "contact" => {
            for i in 0..n {
                acc += query::contact(&pa, &a, &deep(i), &b, &tol)
                    .unwrap()
                    .separation;
            }
        }
        "manifold" => {
            for i in 0..n {
                acc += query::manifold(&pa, &a, &deep(i), &b, 0.0, &tol)
                    .unwrap()
                    .len() as f64;
            }
        }
        "warm" => {
            let mut cache = Cache::new();
            for i in 0..n {
                let d = query::distance_with_cache(&pa, &a, &pose(i), &b, &tol, &mut cache);
                acc += d.unwrap().distance;
            }
        }
        "fixed" => {
            type F = simba::scalar::FixedI40F24;
            let a = Cuboid::new(Vector3::new(lit::<F>(1.0), lit(0.5), lit(0.75)));
            let b = Cuboid::new(Vector3::new(lit::<F>(0.5), lit(0.5), lit(0.5)));
            let tol = Tolerances::<F>::default();
            let pa = Isometry3::from_parts(
                Translation3::new(lit::<F>(0.1), lit(-0.2), lit(0.3)),
                UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3).cast::<F>(),
            );
            let pb = Isometry3::from_parts(
                Translation3::new(lit::<F>(2.2), lit(0.4), lit(-0.1)),
                UnitQuaternion::from_euler_angles(0.3, -0.2, 0.5).cast::<F>(),
            );
            for _ in 0..n {
                let d = query::distance(&pa, &a, black_box(&pb), &b, &tol).unwrap();
                acc += nalgebra::try_convert::<F, f64>(d.distance).unwrap();
            }
        }
        "box2" => {
            // 2D boxes apart, rotated: the pair fast path's separating axes and witness.
            let a = Cuboid::new(Vector2::new(1.0, 0.5));
            let b = Cuboid::new(Vector2::new(0.5, 0.25));
            let pa = Isometry2::new(Vector2::new(0.1, -0.2), 0.3);
            for i in 0..n {
                let s = 1e-4 * (i % 100) as f64;
                let pb = Isometry2::new(Vector2::new(2.4 + s, 0.7), 0.9 + s);
                acc += query::distance(&pa, &a, black_box(&pb), &b, &tol)
                    .unwrap()
                    .distance;
            }
        }
        other => panic!("unknown kind {other}"),
    }
    println!("{kind} x{n}: {}", black_box(acc));
}
