//! quickcheck properties of `query::distance` and `query::intersects` on random mixed
//! shapes: symmetry, rigid-motion invariance, bounds, witnesses on the shapes, and the
//! intersection test agreeing with the distance.

mod common;
use common::*;
use convex_proximity::{
    Dim, Real, lit, query,
    shape::{Ball, Capsule, Cuboid, Polytope, Rounded, SupportMap},
};
use nalgebra::{Const, Isometry, Point, SVector};
use quickcheck::{QuickCheck, TestResult};

type Shape<T, const D: usize> = Box<dyn SupportMap<T, D>>;

/// A random unit-scale shape from a seed.
fn shape<T: Real, const D: usize>(rng: &mut Rng) -> Shape<T, D> {
    match rng.next_u64() % 5 {
        0 => Box::new(Ball::new(lit::<T>(rng.uniform(0.05, 0.8)))),
        1 => Box::new(Cuboid::new(v::<T, D>(&rng.vector(0.05, 0.8)))),
        2 => Box::new(Capsule::new(
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            lit::<T>(rng.uniform(0.02, 0.3)),
        )),
        3 => {
            let n = 3 + (rng.next_u64() % 12) as usize;
            let r = rng.uniform(0.2, 0.8);
            Box::new(
                Polytope::try_new(
                    rng.sphere_points::<D>(n, SVector::zeros(), r)
                        .iter()
                        .map(p::<T, D>)
                        .collect(),
                )
                .unwrap(),
            )
        }
        _ => Box::new(Rounded::new(
            Cuboid::new(v::<T, D>(&rng.vector(0.05, 0.5))),
            lit::<T>(rng.uniform(0.01, 0.2)),
        )),
    }
}

struct Pair<T: Real, const D: usize> {
    a: Shape<T, D>,
    b: Shape<T, D>,
    pa: Pose<T, D>,
    pb: Pose<T, D>,
}

fn pair<T: Real, const D: usize>(seed: u64) -> Pair<T, D> {
    let mut rng = Rng(seed);
    let (a, b) = (shape::<T, D>(&mut rng), shape::<T, D>(&mut rng));
    let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
    let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
    Pair { a, b, pa, pb }
}

fn qc() -> QuickCheck {
    QuickCheck::new().tests(150).max_tests(300)
}

fn symmetric<T: Real, const D: usize>(seed: u64) -> TestResult
where
    Const<D>: Dim,
{
    let s = pair::<T, D>(seed);
    let ab = query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
    let ba = query::distance(&s.pb, &*s.b, &s.pa, &*s.a, &tol()).unwrap();
    let acc = 2.0 * accuracy::<T>(1.0);
    let same = (f(ab.distance) - f(ba.distance)).abs() <= acc;
    // A normal is as good as its run's bounds: direction error θ ≲ √(2·(upper − lower)/upper).
    let slack = |d: &convex_proximity::Distance<T, D>| {
        (2.0 * f(d.upper_bound - d.lower_bound).max(0.0) / f(d.upper_bound)).sqrt()
    };
    let opposite = match (ab.normal, ba.normal) {
        (Some(n), Some(m)) if f(ab.distance) > 100.0 * acc => {
            (back(&n) + back(&m)).norm() < 1e-2 + 2.0 * slack(&ab).max(slack(&ba))
        }
        _ => true,
    };
    TestResult::from_bool(same && opposite)
}

fn rigid_motion_invariant<T: Real, const D: usize>(seed: u64) -> TestResult
where
    Const<D>: Dim,
{
    let s = pair::<T, D>(seed);
    let (m, _) = random_pose::<T, D>(&mut Rng(seed ^ 0xABCD), 1.0);
    let d0 = query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
    let d1 = query::distance(&(m * s.pa), &*s.a, &(m * s.pb), &*s.b, &tol()).unwrap();
    // The composed poses are rounded again: allow for that at the scalar's precision.
    let acc = 2.0 * accuracy::<T>(1.0) + 64.0 * f(T::default_epsilon());
    TestResult::from_bool((f(d0.distance) - f(d1.distance)).abs() <= acc)
}

fn bounds_and_witnesses<T: Real, const D: usize>(seed: u64) -> TestResult
where
    Const<D>: Dim,
{
    let s = pair::<T, D>(seed);
    let d = query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
    // `exact` := the reported distance: checks bounds, witnesses, normal, membership.
    check_distance(
        "property",
        &s.pa,
        &*s.a,
        &s.pb,
        &*s.b,
        &d,
        f(d.distance),
        accuracy::<T>(1.0),
    );
    // Any honest stop but the cap (`NoProgress` is rounding's limit: see docs/gjk.md), with
    // bounds that say something.
    let useful = f(d.upper_bound - d.lower_bound) <= 1e-2;
    let capped = d.termination == convex_proximity::Termination::MaxIterations;
    TestResult::from_bool(f(d.distance) >= 0.0 && useful && !capped)
}

fn intersects_iff_zero_distance<T: Real, const D: usize>(seed: u64) -> TestResult
where
    Const<D>: Dim,
{
    let s = pair::<T, D>(seed);
    let d = query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
    let hit = query::intersects(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
    let band = if is_fixed::<T>() { 1e-3 } else { 1e-5 };
    if f(d.distance) == 0.0 {
        TestResult::from_bool(hit)
    } else if f(d.distance) > band {
        TestResult::from_bool(!hit)
    } else {
        TestResult::discard()
    }
}

fn properties<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    qc().quickcheck(symmetric::<T, D> as fn(u64) -> TestResult);
    qc().quickcheck(rigid_motion_invariant::<T, D> as fn(u64) -> TestResult);
    qc().quickcheck(bounds_and_witnesses::<T, D> as fn(u64) -> TestResult);
    qc().quickcheck(intersects_iff_zero_distance::<T, D> as fn(u64) -> TestResult);
}
cases!(properties, [2 => d2, 3 => d3, 4 => d4]);

#[test]
fn identity_pose_type_is_accepted() {
    // Poses can be any `Isometry<T, R, D>`; here `R = UnitComplex` (2D).
    let d = query::distance(
        &Isometry::<f64, nalgebra::UnitComplex<f64>, 2>::identity(),
        &Ball::new(1.0),
        &nalgebra::Isometry2::new(nalgebra::Vector2::new(3.0, 0.0), 1.0),
        &Ball::new(1.0),
        &tol(),
    )
    .unwrap();
    assert!((d.distance - 1.0).abs() < 1e-12);
}

/// Every property over 3000 fixed seeds per scalar and dimension (quickcheck above draws
/// fresh seeds each run; this one is reproducible).
#[test]
fn sweep_fixed_seeds() {
    fn run<T: Real, const D: usize>(name: &str, failures: &mut Vec<String>)
    where
        Const<D>: Dim,
    {
        type Prop = fn(u64) -> TestResult;
        let props: [(&str, Prop); 4] = [
            ("symmetric", symmetric::<T, D>),
            ("rigid", rigid_motion_invariant::<T, D>),
            ("bounds", bounds_and_witnesses::<T, D>),
            ("intersects", intersects_iff_zero_distance::<T, D>),
        ];
        for seed in 0..3000u64 {
            for (pn, p) in props {
                match std::panic::catch_unwind(|| p(seed)) {
                    Ok(t) if !t.is_failure() => {}
                    _ => failures.push(format!("{name} {pn} seed {seed}")),
                }
            }
        }
    }
    let mut failures = Vec::new();
    run::<f32, 2>("f32 2D", &mut failures);
    run::<f32, 3>("f32 3D", &mut failures);
    run::<f64, 2>("f64 2D", &mut failures);
    run::<f64, 3>("f64 3D", &mut failures);
    run::<f64, 4>("f64 4D", &mut failures);
    #[cfg(feature = "fixed")]
    {
        run::<Fx, 2>("fixed 2D", &mut failures);
        run::<Fx, 3>("fixed 3D", &mut failures);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
