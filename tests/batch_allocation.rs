//! A warm batch allocates nothing: a counting global allocator (all threads: the queries
//! run on rayon's workers) around a second `Scene::contacts` and `Scene::distances` on the
//! same scene. The first batches may allocate (each worker's EPA pool, rayon's own set-up).
//! Its own test binary with a single test, so no other test allocates during the count.
//! Run with `cargo test --features rayon --test batch_allocation`.
#![cfg(feature = "rayon")]

use convex_proximity::{
    Tolerances, batch,
    gjk::Cache,
    query,
    shape::{Ball, Cuboid, Polytope, Shape},
};
use nalgebra::{Isometry3, Point3, Vector3};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; counting is an atomic add.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn warm_batches_do_not_allocate() {
    let hull = Polytope::try_new(
        (0..40)
            .map(|i| {
                let a = i as f64 * 2.4;
                Point3::new(a.cos(), a.sin(), (i as f64 / 20.0) - 1.0)
            })
            .collect(),
    )
    .unwrap();
    let mut shapes: Vec<Shape<f64, 3>> = Vec::new();
    let mut poses = Vec::new();
    for k in 0..24 {
        shapes.push(match k % 3 {
            0 => Cuboid::new(Vector3::new(0.5, 0.4, 0.3)).into(),
            1 => Ball::new(0.4).into(),
            _ => hull.clone().into(),
        });
        let x = k as f64 * 0.37;
        poses.push(Isometry3::new(
            Vector3::new(x.sin() * 1.5, x.cos() * 1.5, 0.1 * x),
            Vector3::new(0.3, x, 0.1),
        ));
    }
    let pairs: Vec<batch::Pair> = (0..24)
        .flat_map(|i| (i + 1..24).map(move |j| batch::Pair::new(i, j)))
        .collect();
    let n = pairs.len();
    let tol = Tolerances::default();
    let mut caches = vec![Cache::new(); n];
    let mut contacts = vec![None; n];
    let mut distances = vec![None; n];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let run = |caches: &mut [Cache<f64, 3>], contacts: &mut [_], distances: &mut [_]| {
        pool.install(|| {
            let scene = batch::Scene::new(&poses, &shapes);
            scene.contacts(&pairs, &tol, caches, contacts);
            scene.distances(&pairs, &tol, caches, distances);
        })
    };
    // Warm-up: a few batches, so the caches settle; then every worker runs every pair's
    // next contact query itself (on a copy of its cache: the very computation the measured
    // batch will make), so each worker's EPA pool has grown to what any pair needs,
    // whichever pairs work stealing hands it. Four batches alone did not always do that.
    for _ in 0..4 {
        run(&mut caches, &mut contacts, &mut distances);
    }
    pool.broadcast(|_| {
        for (&batch::Pair { a: i, b: j }, cache) in pairs.iter().zip(&caches) {
            let mut copy = *cache;
            let _ = query::contact_with_cache(
                &poses[i], &shapes[i], &poses[j], &shapes[j], &tol, &mut copy,
            );
        }
    });
    let overlapping = contacts
        .iter()
        .filter(|c| c.unwrap().unwrap().separation < 0.0)
        .count();
    assert!(overlapping > 0, "the scene must run EPA");
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    run(&mut caches, &mut contacts, &mut distances);
    let count = ALLOCATIONS.load(Ordering::Relaxed) - before;
    assert_eq!(
        count, 0,
        "a warm batch of {n} pairs allocated {count} times"
    );
}
