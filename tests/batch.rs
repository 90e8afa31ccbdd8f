//! The `rayon` batches (`batch::Scene::{distances, contacts, distances_within}`)
//! answer exactly what a sequential loop over the pairs answers (compared by `Debug` text,
//! which tells `-0` from `0`), cold and warm (the caches after the first batch equal the
//! loop's), in 1, 2 and 4 threads. A scene of mixed shapes at random poses, overlapping
//! and apart. f32, f64, FixedI40F24; 2D, 3D. Run with `cargo test --features rayon --test batch`.
#![cfg(feature = "rayon")]

mod common;
use common::*;
use convex_proximity::{
    QueryError, Real, Tolerances, batch,
    epa::ContactDim,
    gjk::Cache,
    lit, query,
    shape::{Ball, Capsule, Cuboid, Polytope, Shape, ShapeDim},
};
use nalgebra::{Const, Point, SVector};
use std::fmt::Debug;

fn scene<T: Real, const D: usize>(rng: &mut Rng, n: usize) -> (Vec<Shape<T, D>>, Vec<Pose<T, D>>)
where
    Const<D>: ShapeDim<T, D>,
{
    let mut shapes = Vec::new();
    let mut poses = Vec::new();
    for i in 0..n {
        let s: Shape<T, D> = match i % 4 {
            0 => Ball::new(lit::<T>(rng.uniform(0.2, 0.8))).into(),
            1 => Cuboid::new(v::<T, D>(&rng.vector::<D>(0.2, 0.8))).into(),
            2 => Capsule::new(
                p(&Point::from(rng.vector::<D>(-0.5, 0.5))),
                Point::origin(),
                lit(0.2),
            )
            .into(),
            _ => {
                let pts: Vec<Point<T, D>> = (0..10)
                    .map(|_| p::<T, D>(&Point::from(rng.vector::<D>(-0.6, 0.6))))
                    .collect();
                Polytope::try_new(pts).unwrap().into()
            }
        };
        shapes.push(s);
        // Dense enough that some pairs overlap in 3D too.
        poses.push(random_pose::<T, D>(rng, if D == 3 { 1.2 } else { 2.5 }).0);
    }
    (shapes, poses)
}

fn same<X: Debug>(x: &[X], y: &[X], what: &str) {
    for (k, (a, b)) in x.iter().zip(y).enumerate() {
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what}, pair {k}");
    }
}

fn batches_equal_loops<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D> + ContactDim<T, D>,
{
    let mut rng = Rng(17 + D as u64);
    let (shapes, mut poses) = scene::<T, D>(&mut rng, 12);
    let pairs: Vec<batch::Pair> = (0..shapes.len())
        .flat_map(|i| (i + 1..shapes.len()).map(move |j| batch::Pair::new(i, j)))
        .collect();
    let tol = Tolerances::<T>::default();
    let margin = lit::<T>(0.5);
    let n = pairs.len();
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (mut cd, mut cc, mut cw) = (
            vec![Cache::new(); n],
            vec![Cache::new(); n],
            vec![Cache::new(); n],
        );
        let (mut ld, mut lc, mut lw) = (cd.clone(), cc.clone(), cw.clone());
        for round in 0..2 {
            // Round 1 is warm: every pair moves a little, as along a planner's path.
            if round == 1 {
                for p in &mut poses {
                    p.translation.vector += v::<T, D>(&SVector::repeat(0.01));
                }
            }
            let (mut od, mut oc, mut ow) = (vec![None; n], vec![None; n], vec![None; n]);
            pool.install(|| {
                let scene = batch::Scene::new(&poses, &shapes);
                scene.distances(&pairs, &tol, &mut cd, &mut od);
                scene.contacts(&pairs, &tol, &mut cc, &mut oc);
                scene.distances_within(&pairs, margin, &tol, &mut cw, &mut ow);
            });
            let mut sd = Vec::new();
            let mut sc = Vec::new();
            let mut sw = Vec::new();
            for (k, &batch::Pair { a: i, b: j }) in pairs.iter().enumerate() {
                let (pa, a, pb, b) = (&poses[i], &shapes[i], &poses[j], &shapes[j]);
                sd.push(Some(query::distance_with_cache(
                    pa, a, pb, b, &tol, &mut ld[k],
                )));
                sc.push(Some(query::contact_with_cache(
                    pa, a, pb, b, &tol, &mut lc[k],
                )));
                sw.push(Some(query::distance_within_with_cache(
                    pa, a, pb, b, margin, &tol, &mut lw[k],
                )));
            }
            let ctx = format!("{threads} threads, round {round}");
            same(&od, &sd, &format!("distances, {ctx}"));
            same(&oc, &sc, &format!("contacts, {ctx}"));
            same(&ow, &sw, &format!("distances_within, {ctx}"));
            same(&cd, &ld, &format!("distance caches, {ctx}"));
            same(&cc, &lc, &format!("contact caches, {ctx}"));
            // The scene has both overlapping and separated pairs.
            let overlapping = oc
                .iter()
                .filter(|c| c.unwrap().unwrap().separation < T::zero())
                .count();
            assert!(
                overlapping > 0 && overlapping < n,
                "{overlapping} of {n} overlap"
            );
        }
    }
}
cases!(batches_equal_loops, [2 => d2, 3 => d3]);

/// Mismatched lengths are a documented panic, not a silent partial batch.
#[test]
#[should_panic(expected = "one cache per pair")]
fn mismatched_caches_panic() {
    let shapes = [Ball::new(1.0f64), Ball::new(1.0)];
    let poses = [nalgebra::Isometry2::identity(); 2];
    let mut out = vec![None; 1];
    batch::Scene::new(&poses, &shapes).distances(
        &[batch::Pair::new(0, 1)],
        &Tolerances::default(),
        &mut [],
        &mut out,
    );
}

/// A pose missing for a shape is a documented panic at the scene, before any pair runs.
#[test]
#[should_panic(expected = "one pose per shape")]
fn mismatched_poses_panic() {
    let shapes = [Ball::new(1.0f64), Ball::new(1.0)];
    let poses = [nalgebra::Isometry2::identity(); 1];
    let _ = batch::Scene::new(&poses, &shapes);
}

/// A pair naming a shape past the scene is that pair's error; the other pairs are answered
/// as the sequential query answers them.
#[test]
fn pair_past_the_scene_is_no_such_shape() {
    let shapes = [Ball::new(1.0f64), Ball::new(1.0)];
    let poses = [
        nalgebra::Isometry2::identity(),
        nalgebra::Isometry2::translation(3.0, 0.0),
    ];
    let pairs = [(0, 1), (0, 2), (7, 1)].map(batch::Pair::from);
    let tol = Tolerances::default();
    let mut out = vec![None; 3];
    let scene = batch::Scene::new(&poses, &shapes);
    scene.distances(&pairs, &tol, &mut [Cache::new(); 3], &mut out);
    let d = out[0].unwrap().unwrap();
    assert!((d.distance - 1.0).abs() < 1e-12, "{d:?}");
    assert_eq!(out[1], Some(Err(QueryError::NoSuchShape { index: 2 })));
    assert_eq!(out[2], Some(Err(QueryError::NoSuchShape { index: 7 })));
    let mut out = vec![None; 3];
    scene.contacts(&pairs, &tol, &mut [Cache::new(); 3], &mut out);
    assert_eq!(out[1], Some(Err(QueryError::NoSuchShape { index: 2 })));
    let mut out = vec![None; 3];
    scene.distances_within(&pairs, 0.5, &tol, &mut [Cache::new(); 3], &mut out);
    assert_eq!(out[2], Some(Err(QueryError::NoSuchShape { index: 7 })));
}
