//! `query::contact_with_cache`: along a path through contact (separated, touching,
//! penetrating) the warm answer agrees with the cold `contact` within the accuracy and their
//! proven bounds overlap, with fewer GJK + EPA iterations in total; a cache left by another
//! pair (issue 9: a reused cache may cost speed, never correctness) gives the cold answer
//! too. f32, f64, FixedI40F24; 2D and 3D.

mod common;
use common::*;
use convex_proximity::{
    Real, Tolerances,
    epa::ContactDim,
    gjk::Cache,
    lit,
    query::{self, Contact},
    shape::Rounded,
};
use nalgebra::{Const, SVector};

/// Warm and cold answers of one pair agree: separations within the accuracy, bounds
/// overlapping (both contain the true separation).
fn agree<T: Real, const D: usize>(warm: &Contact<T, D>, cold: &Contact<T, D>, ctx: &str) {
    let acc = accuracy::<T>(2.0).max(1e-6);
    assert!(
        (f(warm.separation) - f(cold.separation)).abs() <= acc,
        "{ctx}: warm {warm:?} vs cold {cold:?}"
    );
    assert!(
        warm.lower_bound <= cold.upper_bound && cold.lower_bound <= warm.upper_bound,
        "{ctx}: disjoint bounds, warm {warm:?} vs cold {cold:?}"
    );
    assert!(
        warm.lower_bound <= warm.separation && warm.separation <= warm.upper_bound,
        "{ctx}: {warm:?}"
    );
}

fn warm_path_agrees_and_saves_work<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(0xc0a7 + D as u64);
    let a = common::sphere_hull::<T, D>(&mut rng, 24, 1.0);
    let b = Rounded::new(
        common::sphere_hull::<T, D>(&mut rng, 16, 0.6),
        lit::<T>(0.05),
    );
    let steps = if cfg!(debug_assertions) { 40 } else { 400 };
    let (pa, _) = random_pose::<T, D>(&mut rng, 0.3);
    let dir: SVector<f64, D> = rng.unit();
    let (mut cache, mut warm_it, mut cold_it) = (Cache::new(), 0u64, 0u64);
    let mut other = Cache::new();
    for k in 0..steps {
        // B's centre from 2.9 to −1.1 along `dir` (through A's centre) and back: about 1.25
        // apart to about 1.6 deep; a new rotation every 8 steps.
        let s = k as f64 / steps as f64;
        let along = 2.9 - 4.0 * (1.0 - (2.0 * s - 1.0).abs());
        let (mut pb, _) = translation::<T, D>(&(dir * along));
        let turn = random_pose::<T, D>(&mut Rng(k as u64 / 8), 0.0).0;
        pb.rotation = turn.rotation;
        let ctx = format!("step {k} at {along}");
        let cold = query::contact(&pa, &a, &pb, &b, &tol).unwrap();
        let warm = query::contact_with_cache(&pa, &a, &pb, &b, &tol, &mut cache).unwrap();
        agree(&warm, &cold, &ctx);
        warm_it += u64::from(warm.iterations);
        cold_it += u64::from(cold.iterations);
        // A cache from another pair (the shapes swapped and moved): still the cold answer.
        let far = translation::<T, D>(&(dir * -along)).0;
        let _ = query::contact_with_cache(&far, &b, &pa, &a, &tol, &mut other).unwrap();
        let reused = query::contact_with_cache(&pa, &a, &pb, &b, &tol, &mut other).unwrap();
        agree(&reused, &cold, &format!("{ctx}, cache of another pair"));
    }
    // `iterations` counts GJK and EPA iterations, not the re-derivation of the cached
    // vertices (up to D + 1 support pairs per warm query).
    eprintln!("D = {D}: iterations warm {warm_it}, cold {cold_it}");
    assert!(warm_it < cold_it, "warm {warm_it} vs cold {cold_it}");
}
cases!(warm_path_agrees_and_saves_work, [2 => d2, 3 => d3]);

/// An error leaves the cache as it was.
#[test]
fn errors_leave_the_cache_unchanged() {
    let tol = Tolerances::<f64>::default();
    let a = convex_proximity::shape::Cuboid::new(nalgebra::Vector3::new(1.0, 1.0, 1.0));
    let id = nalgebra::Isometry3::identity();
    let mut cache = Cache::new();
    query::contact_with_cache(
        &id,
        &a,
        &nalgebra::Isometry3::translation(1.5, 0.0, 0.0),
        &a,
        &tol,
        &mut cache,
    )
    .unwrap();
    let before = format!("{cache:?}");
    let nan = nalgebra::Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert!(query::contact_with_cache(&id, &a, &nan, &a, &tol, &mut cache).is_err());
    assert_eq!(format!("{cache:?}"), before);
    assert!(!cache.is_empty());
}
