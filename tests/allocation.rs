//! No query allocates once warm: a counting global allocator (per thread, so the other
//! tests of this binary running beside it do not count) around repeated queries on shapes
//! built beforehand. The first call of each kind may allocate (the per-thread pool of
//! `contact` and `manifold`, a polytope's workspace growing); the next ones must not.

mod common;

use common::*;
use convex_proximity::{
    Real, Tolerances,
    clip::FeatureMap,
    epa::{ContactDim, Workspace},
    gjk::Cache,
    lit, query,
    shape::{Ball, Capsule, Cuboid, Polytope},
};
use nalgebra::{Const, Point, SVector};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

std::thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the counter is a const-initialised thread
// local, which never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as ours.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as ours.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn axis<const D: usize>(i: usize, x: f64) -> SVector<f64, D> {
    let mut a = SVector::zeros();
    a[i] = x;
    a
}

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Every query kind on a pair, first once (warm-up), then `reps` times with small moves:
/// the second pass must not allocate.
fn queries_do_not_allocate<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(77);
    let hull_a = Polytope::try_new(
        rng.sphere_points::<D>(24, SVector::zeros(), 0.9)
            .iter()
            .map(p::<T, D>)
            .collect(),
    )
    .unwrap();
    let hull_b = Polytope::try_new(
        rng.sphere_points::<D>(16, SVector::zeros(), 0.7)
            .iter()
            .map(p::<T, D>)
            .collect(),
    )
    .unwrap();
    let cube = Cuboid::new(v::<T, D>(&SVector::repeat(0.6)));
    let ball = Ball::new(lit::<T>(0.5));
    let cap = Capsule::new(
        Point::from(v::<T, D>(&axis(0, -0.4))),
        Point::from(v::<T, D>(&axis(0, 0.4))),
        lit::<T>(0.3),
    );
    let mut cache = Cache::<T, D>::new();
    let mut ws = Workspace::<T, D>::new();
    let poses: Vec<_> = (0..8)
        .map(|i| {
            let (pa, _) = random_pose::<T, D>(&mut rng, 0.2);
            // Separated (even i) and penetrating (odd i) placements.
            let gap = if i % 2 == 0 { 2.2 } else { 0.9 };
            let (pb, _) = random_pose::<T, D>(&mut rng, 0.1);
            let pb = nalgebra::Isometry::from_parts(
                (pb.translation.vector + v::<T, D>(&axis(0, gap))).into(),
                pb.rotation,
            );
            (pa, pb)
        })
        .collect();
    let mut run = || {
        for (pa, pb) in &poses {
            let _ = query::distance(pa, &hull_a, pb, &hull_b, &tol).unwrap();
            let _ = query::intersects(pa, &hull_a, pb, &cube, &tol).unwrap();
            let _ = query::contact(pa, &hull_a, pb, &hull_b, &tol).unwrap();
            let _ = query::contact(pa, &cube, pb, &cube, &tol).unwrap();
            let _ = query::contact(pa, &cap, pb, &ball, &tol).unwrap();
            let _ = query::contact_within(pa, &hull_a, pb, &hull_b, lit(0.1), &tol).unwrap();
            let _ = query::contact_with_workspace(pa, &hull_b, pb, &cube, &tol, &mut ws).unwrap();
            let _ = query::distance_with_cache(pa, &hull_a, pb, &cap, &tol, &mut cache).unwrap();
            let _ = query::intersects_with_cache(pa, &hull_a, pb, &cap, &tol, &mut cache).unwrap();
            let _ = query::manifold(pa, &cube, pb, &cube, lit(0.1), &tol).unwrap();
            let _ = query::manifold(pa, &hull_a, pb, &cube, lit(0.1), &tol).unwrap();
        }
    };
    run();
    let n = allocations(run);
    assert_eq!(n, 0, "{n} allocations in the warm pass");
}
cases!(queries_do_not_allocate, [2 => d2, 3 => d3]);

/// The counter itself works: a `Vec` with content allocates.
#[test]
fn counter_counts() {
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 64]))) >= 1);
}
