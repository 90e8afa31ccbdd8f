//! `query::contact_within` against `query::contact`: on every vendored hard case
//! (tests/data/hard_cases.jsonl) and on random pairs (hulls: GJK and EPA; balls, boxes and
//! capsules: the closed forms), at predictions below, at and above the separation, a pair
//! within the prediction gets `contact`'s answer bit for bit, an apart one a lower bound
//! above the prediction that `contact`'s upper bound confirms, and a pair that `contact`
//! proves beyond the prediction is apart. Far pairs stop early: fewer GJK iterations than
//! `contact`. f32, f64, FixedI40F24 (unit-scale cases); 2D and 3D.

mod common;
#[path = "common/corpus.rs"]
mod corpus;

#[cfg(feature = "fixed")]
use common::f;
use common::{Rng, p, random_pose};
use convex_proximity::{
    QueryError, Real, Tolerances,
    epa::ContactDim,
    lit,
    query::{self, Contact, Predicted},
    shape::{Ball, Capsule, Cuboid, Shape, ShapeDim},
};
use corpus::{Case, FromMatrix, Scalar};
use nalgebra::{Const, Isometry, Point, SVector, UnitQuaternion};

const DATA: &str = include_str!("data/hard_cases.jsonl");

fn same<X: std::fmt::Debug>(x: &X, y: &X, ctx: &str) {
    assert_eq!(format!("{x:?}"), format!("{y:?}"), "{ctx}");
}

/// `r` (at `prediction`) is consistent with `c`, the contact of the same pair; returns
/// which kind of answer it is (0 apart, 1 within and apart, 2 touching or overlapping).
fn consistent<T: Real, const D: usize>(
    r: &Predicted<T, D>,
    c: &Contact<T, D>,
    prediction: T,
    ctx: &str,
) -> usize {
    if c.lower_bound > prediction {
        assert!(
            r.is_apart(),
            "{ctx}: contact proves {c:?} beyond {prediction:?}: {r:?}"
        );
    }
    match r {
        Predicted::Apart { lower_bound, .. } => {
            assert!(*lower_bound >= prediction, "{ctx}: {r:?}");
            assert!(*lower_bound <= c.upper_bound, "{ctx}: {r:?} vs {c:?}");
            assert!(c.upper_bound > prediction, "{ctx}: {r:?} vs {c:?}");
            assert!(r.contact().is_none());
            0
        }
        Predicted::Contact(x) => {
            same(x, c, ctx);
            assert!(c.lower_bound <= prediction, "{ctx}: {c:?}");
            assert_eq!(r.contact(), Some(c));
            if c.separation > T::zero() { 1 } else { 2 }
        }
    }
}

/// The predictions tried for a pair with contact `c`: 0, around its separation and
/// bounds, far above.
fn predictions<T: Real, const D: usize>(c: &Contact<T, D>) -> Vec<T> {
    let two = lit::<T>(2.0);
    let mut m = vec![
        T::zero(),
        c.separation / two,
        c.lower_bound,
        c.separation,
        c.upper_bound,
        c.upper_bound * two + lit(0.1),
    ];
    m.retain(|x| *x >= T::zero());
    m
}

fn hard_cases<T: Real, R: FromMatrix<T, D>, const D: usize>(scalar: Scalar)
where
    Const<D>: ContactDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let cases: Vec<Case> = DATA
        .lines()
        .map(|l| Case::parse(l).expect("vendored case parses"))
        .filter(|c| c.dim == D && scalar.covers(c))
        .collect();
    assert!(!cases.is_empty());
    let mut kinds = [0usize; 3];
    for case in &cases {
        let (pa, pb) = case.placed::<D>().unwrap();
        let (a, b) = (pa.shape::<T>().unwrap(), pb.shape::<T>().unwrap());
        let (a, b) = (a.as_dyn(), b.as_dyn());
        let (qa, qb) = (pa.pose::<T, R>(), pb.pose::<T, R>());
        let c = query::contact(&qa, a, &qb, b, &tol).unwrap();
        for m in predictions(&c) {
            let r = query::contact_within(&qa, a, &qb, b, m, &tol).unwrap();
            kinds[consistent(&r, &c, m, &format!("{} at prediction {m:?}", case.id))] += 1;
        }
    }
    // Every kind of answer occurs on the vendored cases.
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
}

corpus::vendored_cases!(hard_cases);

/// Random pairs of hulls (GJK, EPA) and of balls, boxes and capsules (the closed forms),
/// overlapping to far apart: consistent with `contact` at every prediction; far hull pairs
/// (separation above twice the prediction) take fewer GJK iterations than `contact`.
fn random_pairs_and_early_exit<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D> + ShapeDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(0xc0e + D as u64);
    let half = SVector::<f64, D>::from_fn(|k, _| 0.3 + 0.1 * k as f64);
    let mut end = Point::<f64, D>::origin();
    end[0] = 0.4;
    let shapes: Vec<Shape<T, D>> = vec![
        Shape::from(common::sphere_hull::<T, D>(&mut rng, 12, 0.5)),
        Shape::from(common::sphere_hull::<T, D>(&mut rng, 28, 0.9)),
        Shape::from(Ball::new(lit::<T>(0.6))),
        Shape::from(Cuboid::new(common::v::<T, D>(&half))),
        Shape::from(Capsule::new(
            p::<T, D>(&(-end.coords).into()),
            p::<T, D>(&end),
            lit(0.25),
        )),
    ];
    let n = if cfg!(debug_assertions) { 50 } else { 2000 };
    let (mut far_within, mut far_contact, mut far_pairs) = (0u64, 0u64, 0u64);
    let mut kinds = [0usize; 3];
    for k in 0..n {
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 3.0);
        let (a, b) = (&shapes[k % 5], &shapes[(k / 5) % 5]);
        let c = query::contact(&pa, a, &pb, b, &tol).unwrap();
        for m in predictions(&c) {
            let ctx = format!("pair {k} at prediction {m:?}");
            let r = query::contact_within(&pa, a, &pb, b, m, &tol).unwrap();
            kinds[consistent(&r, &c, m, &ctx)] += 1;
        }
        let prediction = lit::<T>(0.2);
        let hulls = k % 5 < 2 && (k / 5) % 5 < 2;
        if hulls && c.separation > prediction * lit(2.0) {
            let r = query::contact_within(&pa, a, &pb, b, prediction, &tol).unwrap();
            let Predicted::Apart { iterations, .. } = r else {
                panic!("pair {k}: {r:?} for {c:?}");
            };
            far_within += u64::from(iterations);
            far_contact += u64::from(c.iterations);
            far_pairs += 1;
        }
    }
    eprintln!(
        "D = {D}: {kinds:?} answers (apart, within, overlapping); {far_pairs} far hull pairs, \
         GJK iterations: contact_within {far_within}, contact {far_contact}"
    );
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    assert!(far_pairs > 0);
    assert!(far_within < far_contact, "{far_within} vs {far_contact}");
}

cases!(random_pairs_and_early_exit, [2 => d2, 3 => d3]);

/// A negative, NaN or infinite prediction is an error; a huge one in fixed-point is no
/// overflow (capped beyond any distance in range).
#[test]
fn bad_predictions_are_errors() {
    let id = Isometry::<f64, UnitQuaternion<f64>, 3>::identity();
    let b = Ball::new(1.0);
    let tol = Tolerances::default();
    for m in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            query::contact_within(&id, &b, &id, &b, m, &tol),
            Err(QueryError::InvalidTolerance {
                field: "prediction"
            })
        );
    }
    #[cfg(feature = "fixed")]
    {
        type X = common::Fx;
        let id = Isometry::<X, UnitQuaternion<X>, 3>::identity();
        let far = Isometry::<X, UnitQuaternion<X>, 3>::translation(lit(10.0), lit(0.0), lit(0.0));
        let b = Ball::new(lit::<X>(1.0));
        let h = hull_fixed();
        let max = <X as nalgebra::RealField>::max_value().unwrap();
        let r = query::contact_within(&id, &b, &far, &b, max, &Tolerances::default()).unwrap();
        assert!(
            matches!(r, Predicted::Contact(c) if (f(c.separation) - 8.0).abs() < 1e-4),
            "{r:?}"
        );
        // The GJK path too (a hull: no closed form).
        let r = query::contact_within(&id, &h, &far, &h, max, &Tolerances::default()).unwrap();
        assert!(
            matches!(r, Predicted::Contact(c) if (f(c.separation) - 8.0).abs() < 1e-3),
            "{r:?}"
        );
    }
}

/// A unit cube as a hull, in fixed point.
#[cfg(feature = "fixed")]
fn hull_fixed() -> convex_proximity::shape::Polytope<common::Fx, 3> {
    let pts = (0..8)
        .map(|i| {
            let c = |b: usize| if i >> b & 1 == 1 { 1.0 } else { -1.0 };
            Point::<f64, 3>::new(c(0), c(1), c(2))
        })
        .map(|q| p::<common::Fx, 3>(&q))
        .collect();
    convex_proximity::shape::Polytope::try_new(pts).unwrap()
}
