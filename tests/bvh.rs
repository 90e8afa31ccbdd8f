//! The `bvh` feature: posed shapes in the `bvh` crate's tree answer box queries exactly as
//! brute force over the same boxes (`Aabb::intersects`, boundaries included), for random
//! scenes and query boxes, before and after the shapes move (the tree rebuilt), and the
//! pairs the tree finds are the pairs within the margin that `query::distance_within`
//! cannot rule out. f32, f64 (bvh needs `num_traits::Float`: no fixed-point); 2D, 3D. Run
//! with `cargo test --features bvh --test bvh`.
#![cfg(feature = "bvh")]

mod common;
use common::*;
use convex_proximity::{
    Real, Tolerances,
    bound::{Aabb, BvhEntry, overlaps},
    lit, query,
    shape::{Ball, Capsule, Cuboid, Shape, ShapeDim},
};
use nalgebra::{Const, Point};

fn tree_matches_brute_force<T: Real + bvh::bounding_hierarchy::BHValue, const D: usize>()
where
    Const<D>: ShapeDim<T, D>,
{
    let mut rng = Rng(99 + D as u64);
    let shapes: Vec<Shape<T, D>> = (0..80)
        .map(|i| match i % 3 {
            0 => Ball::new(lit::<T>(rng.uniform(0.1, 0.6))).into(),
            1 => Cuboid::new(v::<T, D>(&rng.vector::<D>(0.1, 0.5))).into(),
            _ => Capsule::new(
                p(&Point::from(rng.vector::<D>(-0.5, 0.5))),
                Point::origin(),
                lit(0.1),
            )
            .into(),
        })
        .collect();
    let margin = lit::<T>(0.2);
    let tol = Tolerances::default();
    for round in 0..2 {
        let poses: Vec<Pose<T, D>> = (0..shapes.len())
            .map(|_| random_pose::<T, D>(&mut rng, 6.0 + round as f64).0)
            .collect();
        let boxes: Vec<Aabb<T, D>> = shapes
            .iter()
            .zip(&poses)
            .map(|(s, p)| Aabb::of(p, s).unwrap().loosened(margin * lit(0.5)))
            .collect();
        let mut entries: Vec<BvhEntry<T, D>> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| BvhEntry::new(*b, i))
            .collect();
        let tree = bvh::bvh::Bvh::build(&mut entries);
        let mut found = 0;
        for (i, b) in boxes.iter().enumerate() {
            let mut got = overlaps(&tree, &entries, b);
            got.sort();
            let want: Vec<usize> = (0..boxes.len())
                .filter(|&j| boxes[j].intersects(b))
                .collect();
            assert_eq!(got, want, "round {round}, box {i}");
            found += got.len() - 1;
            // Every pair within the margin is among the tree's candidates.
            for j in 0..shapes.len() {
                if j == i || got.contains(&j) {
                    continue;
                }
                let p = query::distance_within(
                    &poses[i], &shapes[i], &poses[j], &shapes[j], margin, &tol,
                )
                .unwrap();
                assert!(
                    p.is_disjoint(),
                    "pair ({i}, {j}) within the margin but not found"
                );
            }
        }
        assert!(found > 0, "the scene has overlapping boxes");
    }
}

mod tree_matches_brute_force {
    #[test]
    fn d2_f32() {
        super::tree_matches_brute_force::<f32, 2>();
    }
    #[test]
    fn d2_f64() {
        super::tree_matches_brute_force::<f64, 2>();
    }
    #[test]
    fn d3_f32() {
        super::tree_matches_brute_force::<f32, 3>();
    }
    #[test]
    fn d3_f64() {
        super::tree_matches_brute_force::<f64, 3>();
    }
}
