//! `query::distance_within` against `query::distance`: on every vendored hard case
//! (tests/data/hard_cases.jsonl) and on random pairs, at margins below, at and above the
//! distance, a pair within the margin gets `distance`'s answer bit for bit, a disjoint one
//! a lower bound above the margin that `distance`'s upper bound confirms, and a pair that
//! `distance` proves beyond the margin is disjoint. Far pairs stop early: fewer GJK
//! iterations than `distance`. f32, f64, FixedI40F24 (unit-scale cases); 2D and 3D.

mod common;
#[path = "common/corpus.rs"]
mod corpus;

#[cfg(feature = "fixed")]
use common::f;
use common::{Rng, random_pose};
use convex_proximity::{
    Dim, Distance, QueryError, Real, Tolerances,
    gjk::Cache,
    lit,
    query::{self, Proximity},
    shape::Polytope,
};
use corpus::{Case, FromMatrix, Scalar};
use nalgebra::{Const, Isometry, UnitQuaternion};

const DATA: &str = include_str!("data/hard_cases.jsonl");

fn same<X: std::fmt::Debug>(x: &X, y: &X, ctx: &str) {
    assert_eq!(format!("{x:?}"), format!("{y:?}"), "{ctx}");
}

/// `r` (at `margin`) is consistent with `d`, the distance of the same pair.
fn consistent<T: Real, const D: usize>(
    r: &Proximity<T, D>,
    d: &Distance<T, D>,
    margin: T,
    ctx: &str,
) {
    match r {
        Proximity::Disjoint { lower_bound, .. } => {
            assert!(*lower_bound >= margin, "{ctx}: {r:?}");
            assert!(*lower_bound <= d.upper_bound, "{ctx}: {r:?} vs {d:?}");
            assert!(d.upper_bound > margin, "{ctx}: {r:?} vs {d:?}");
        }
        Proximity::WithinMargin(x) => {
            same(x, d, ctx);
            assert!(
                d.lower_bound <= margin && d.normal.is_some(),
                "{ctx}: {d:?}"
            );
        }
        Proximity::Intersecting(x) => {
            same(x, d, ctx);
            assert!(d.normal.is_none(), "{ctx}: {d:?}");
        }
    }
    if d.lower_bound > margin {
        assert!(
            r.is_disjoint(),
            "{ctx}: distance proves {d:?} beyond {margin:?}: {r:?}"
        );
    }
}

/// The margins tried for a pair at distance `d`: 0, around `d` and its bounds, far above.
fn margins<T: Real, const D: usize>(d: &Distance<T, D>) -> Vec<T> {
    let two = lit::<T>(2.0);
    let mut m = vec![
        T::zero(),
        d.distance / two,
        d.lower_bound,
        d.distance,
        d.upper_bound,
        d.upper_bound * two + lit(0.1),
    ];
    m.retain(|x| *x >= T::zero());
    m
}

fn hard_cases<T: Real, R: FromMatrix<T, D>, const D: usize>(scalar: Scalar)
where
    Const<D>: Dim,
{
    let tol = Tolerances::<T>::default();
    let cases: Vec<Case> = DATA
        .lines()
        .map(|l| Case::parse(l).expect("vendored case parses"))
        .filter(|c| c.dim == D && scalar.covers(c))
        .collect();
    assert!(!cases.is_empty());
    let mut kinds = [0usize; 3];
    for c in &cases {
        let (pa, pb) = c.placed::<D>().unwrap();
        let (a, b) = (pa.shape::<T>().unwrap(), pb.shape::<T>().unwrap());
        let (a, b) = (a.as_dyn(), b.as_dyn());
        let (qa, qb) = (pa.pose::<T, R>(), pb.pose::<T, R>());
        let d = query::distance(&qa, a, &qb, b, &tol).unwrap();
        for m in margins(&d) {
            let r = query::distance_within(&qa, a, &qb, b, m, &tol).unwrap();
            consistent(&r, &d, m, &format!("{} at margin {m:?}", c.id));
            kinds[match r {
                Proximity::Disjoint { .. } => 0,
                Proximity::WithinMargin(_) => 1,
                Proximity::Intersecting(_) => 2,
            }] += 1;
        }
    }
    // Every kind of answer occurs on the vendored cases.
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
}

corpus::vendored_cases!(hard_cases);

/// Random hull pairs (the GJK path): consistent with `distance` at every margin, warm
/// started too; far pairs (distance above twice the margin) take fewer iterations.
fn random_pairs_and_early_exit<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(0x3a4 + D as u64);
    let shapes: Vec<Polytope<T, D>> = (0..4)
        .map(|k| common::sphere_hull(&mut rng, 12 + 8 * k, 0.5 + 0.2 * k as f64))
        .collect();
    let n = if cfg!(debug_assertions) { 60 } else { 3000 };
    let (mut far_within, mut far_distance, mut far_pairs) = (0u64, 0u64, 0u64);
    let mut cache = Cache::new();
    for k in 0..n {
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 4.0);
        let (a, b) = (&shapes[k % 4], &shapes[(k / 4) % 4]);
        let d = query::distance(&pa, a, &pb, b, &tol).unwrap();
        for m in margins(&d) {
            let ctx = format!("pair {k} at margin {m:?}");
            let r = query::distance_within(&pa, a, &pb, b, m, &tol).unwrap();
            consistent(&r, &d, m, &ctx);
            // Warm: the same cache state for both queries.
            let (mut c1, mut c2) = (cache, cache);
            let dw = query::distance_with_cache(&pa, a, &pb, b, &tol, &mut c1).unwrap();
            let rw = query::distance_within_with_cache(&pa, a, &pb, b, m, &tol, &mut c2).unwrap();
            consistent(&rw, &dw, m, &format!("{ctx}, warm"));
            cache = c2;
        }
        let margin = lit::<T>(0.25);
        if d.distance > margin * lit(2.0) {
            let r = query::distance_within(&pa, a, &pb, b, margin, &tol).unwrap();
            let Proximity::Disjoint { iterations, .. } = r else {
                panic!("pair {k}: {r:?} for {d:?}");
            };
            far_within += u64::from(iterations);
            far_distance += u64::from(d.iterations);
            far_pairs += 1;
        }
    }
    eprintln!(
        "D = {D}: {far_pairs} far pairs, GJK iterations: distance_within {far_within}, distance {far_distance}"
    );
    assert!(far_pairs > n as u64 / 4);
    assert!(far_within < far_distance, "{far_within} vs {far_distance}");
}
cases!(random_pairs_and_early_exit, [2 => d2, 3 => d3]);

/// A negative, NaN or infinite margin is an error; a huge one in fixed-point is no
/// overflow (capped beyond any distance in range).
#[test]
fn bad_margins_are_errors() {
    let id = Isometry::<f64, UnitQuaternion<f64>, 3>::identity();
    let b = convex_proximity::shape::Ball::new(1.0);
    let tol = Tolerances::default();
    for m in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            query::distance_within(&id, &b, &id, &b, m, &tol),
            Err(QueryError::InvalidTolerance { field: "margin" })
        );
    }
    #[cfg(feature = "fixed")]
    {
        type X = common::Fx;
        let id = Isometry::<X, UnitQuaternion<X>, 3>::identity();
        let far = Isometry::<X, UnitQuaternion<X>, 3>::translation(lit(10.0), lit(0.0), lit(0.0));
        let b = convex_proximity::shape::Ball::new(lit::<X>(1.0));
        let max = <X as nalgebra::RealField>::max_value().unwrap();
        let r = query::distance_within(&id, &b, &far, &b, max, &Tolerances::default()).unwrap();
        assert!(
            matches!(r, Proximity::WithinMargin(d) if (f(d.distance) - 8.0).abs() < 1e-4),
            "{r:?}"
        );
    }
}
