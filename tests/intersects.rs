//! `query::intersects` against exact verdicts, and warm starts (`*_with_cache`) against
//! cold queries. Every case for f32, f64 and FixedI40F24.

mod common;
use common::*;
use convex_proximity::{
    Dim, Real,
    gjk::Cache,
    lit, query,
    shape::{Ball, Capsule, Cuboid, Polytope},
};
use nalgebra::{Const, Point, SVector};

/// Away from the tolerance band (`band` × scale), the verdict must match the oracle.
fn band<T: Real>() -> f64 {
    if is_fixed::<T>() {
        1e-3
    } else {
        1e-3 * f(T::default_epsilon()).sqrt().max(1e-6)
    }
}

fn intersects_balls_boxes_capsules<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(11);
    let (mut hits, mut misses) = (0, 0);
    for i in 0..300 {
        // balls: exact separation of centres minus radii
        let (ra, rb) = (
            round::<T>(rng.uniform(0.1, 1.0)),
            round::<T>(rng.uniform(0.1, 1.0)),
        );
        // Closer in higher dimensions, so that both verdicts occur.
        let spread = 3.0 / D as f64;
        let (pa, fa) = random_pose::<T, D>(&mut rng, spread);
        let (pb, fb) = random_pose::<T, D>(&mut rng, spread);
        let gap = (fb.translation.vector - fa.translation.vector).norm() - ra - rb;
        let got = query::intersects(
            &pa,
            &Ball::new(lit::<T>(ra)),
            &pb,
            &Ball::new(lit::<T>(rb)),
            &tol(),
        )
        .unwrap();
        if gap.abs() > band::<T>() {
            assert_eq!(got, gap < 0.0, "balls #{i}: gap {gap}");
            if got { hits += 1 } else { misses += 1 }
        }
        // axis-aligned boxes: overlap iff every axis overlaps
        let (ha, hb) = (rng.vector::<D>(0.1, 1.0), rng.vector::<D>(0.1, 1.0));
        let (pa, fa) = translation::<T, D>(&rng.vector(-1.5, 1.5));
        let (pb, fb) = translation::<T, D>(&rng.vector(-1.5, 1.5));
        let c = fb.translation.vector - fa.translation.vector;
        let (ta, tb) = (v::<T, D>(&ha), v::<T, D>(&hb));
        let margins = SVector::<f64, D>::from_fn(|k, _| c[k].abs() - f(ta[k]) - f(tb[k]));
        let got = query::intersects(&pa, &Cuboid::new(ta), &pb, &Cuboid::new(tb), &tol()).unwrap();
        let sep = margins.iter().fold(f64::NEG_INFINITY, |m, x| m.max(*x));
        if sep.abs() > band::<T>() {
            assert_eq!(got, sep < 0.0, "boxes #{i}: margins {margins:?}");
        }
        // capsules: segment distance against the radii
        let seg = |rng: &mut Rng| {
            (
                v::<T, D>(&rng.vector(-0.7, 0.7)),
                v::<T, D>(&rng.vector(-0.7, 0.7)),
            )
        };
        let ((a0, a1), (b0, b1)) = (seg(&mut rng), seg(&mut rng));
        let (r1, r2) = (
            lit::<T>(rng.uniform(0.05, 0.3)),
            lit::<T>(rng.uniform(0.05, 0.3)),
        );
        let core = segment_segment(&back(&a0), &back(&a1), &back(&b0), &back(&b1));
        let gap = core - f(r1) - f(r2);
        let id = Pose::<T, D>::identity();
        let got = query::intersects(
            &id,
            &Capsule::new(Point::from(a0), Point::from(a1), r1),
            &id,
            &Capsule::new(Point::from(b0), Point::from(b1), r2),
            &tol(),
        )
        .unwrap();
        if gap.abs() > band::<T>() {
            assert_eq!(got, gap < 0.0, "capsules #{i}: gap {gap}");
        }
    }
    assert!(
        hits > 20 && misses > 20,
        "the cases exercise both verdicts ({hits}/{misses})"
    );
}
cases!(intersects_balls_boxes_capsules, [2 => d2, 3 => d3, 4 => d4, 6 => d6]);

fn intersects_agrees_with_distance<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(12);
    for i in 0..100 {
        let a = Polytope::try_new(
            rng.sphere_points::<D>(12, SVector::zeros(), 0.7)
                .iter()
                .map(p::<T, D>)
                .collect(),
        )
        .unwrap();
        let b = Polytope::try_new(
            rng.sphere_points::<D>(12, SVector::zeros(), 0.5)
                .iter()
                .map(p::<T, D>)
                .collect(),
        )
        .unwrap();
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
        let hit = query::intersects(&pa, &a, &pb, &b, &tol()).unwrap();
        if f(d.distance) > band::<T>() {
            assert!(!hit, "#{i}: distance {:?} but intersects", d.distance);
        } else if f(d.distance) == 0.0 {
            assert!(hit, "#{i}: distance 0 but no intersection: {d:?}");
        }
    }
}
cases!(intersects_agrees_with_distance, [2 => d2, 3 => d3]);

/// `query::intersection`'s evidence on one posed pair: its verdict is `intersects`' away
/// from the touching band (|signed distance| beyond `band`); apart, its world-frame axis
/// separates the shapes, `h_A(n) + h_B(−n) ≤ 0` by the support values (up to the
/// accuracy); the counts are GJK's.
fn check_evidence<T, const D: usize, A, B>(
    what: &str,
    pa: &Pose<T, D>,
    a: &A,
    pb: &Pose<T, D>,
    b: &B,
) -> bool
where
    T: Real,
    Const<D>: convex_proximity::epa::ContactDim<T, D>,
    A: convex_proximity::shape::SupportMap<T, D>,
    B: convex_proximity::shape::SupportMap<T, D>,
{
    let hit = query::intersection(pa, a, pb, b, &tol()).unwrap();
    let verdict = query::intersects(pa, a, pb, b, &tol()).unwrap();
    let sep = f(query::contact(pa, a, pb, b, &tol()).unwrap().separation);
    assert!(hit.iterations >= 1, "{what}: {hit:?}");
    if sep.abs() > band::<T>() {
        assert_eq!(hit.intersects, verdict, "{what}: separation {sep}, {hit:?}");
        assert_eq!(
            hit.intersects,
            sep < 0.0,
            "{what}: separation {sep}, {hit:?}"
        );
    }
    match (hit.intersects, hit.axis) {
        (false, Some(n)) => {
            let n = back(&n.into_inner());
            assert!((n.norm() - 1.0).abs() < 1e-3, "{what}: axis {n} not unit");
            let gap = support_value(pa, a, &n) + support_value(pb, b, &-n);
            assert!(
                gap <= accuracy::<T>(1.0),
                "{what}: axis {n} does not separate: h_A(n) + h_B(-n) = {gap}, {hit:?}"
            );
        }
        (false, None) => panic!("{what}: apart without an axis: {hit:?}"),
        (true, axis) => assert!(axis.is_none(), "{what}: {hit:?}"),
    }
    !hit.intersects
}

fn intersection_evidence_agrees_and_separates<T: Real, const D: usize>()
where
    Const<D>: convex_proximity::epa::ContactDim<T, D>,
{
    let mut rng = Rng(13);
    let mut apart = 0;
    for i in 0..100 {
        let hull = |rng: &mut Rng, r: f64| {
            let pts = rng.sphere_points::<D>(12, SVector::zeros(), r);
            Polytope::try_new(pts.iter().map(p::<T, D>).collect()).unwrap()
        };
        let (a, b) = (hull(&mut rng, 0.7), hull(&mut rng, 0.5));
        let (ca, cb) = (
            Cuboid::new(v::<T, D>(&rng.vector(0.2, 0.8))),
            Cuboid::new(v::<T, D>(&rng.vector(0.2, 0.8))),
        );
        let ball = Ball::new(lit::<T>(rng.uniform(0.1, 0.6)));
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        let counted = [
            check_evidence(&format!("#{i} hulls"), &pa, &a, &pb, &b),
            check_evidence(&format!("#{i} boxes"), &pa, &ca, &pb, &cb),
            check_evidence(&format!("#{i} box-ball"), &pa, &ca, &pb, &ball),
        ];
        apart += counted.iter().filter(|x| **x).count();
    }
    // Both verdicts occur.
    assert!(apart > 30 && apart < 270, "{apart} of 300 apart");
}
cases!(intersection_evidence_agrees_and_separates, [2 => d2, 3 => d3]);

/// A pair moving by small steps: warm-started answers equal cold ones, and the warm start
/// saves support evaluations.
fn warm_start_matches_cold_and_saves_iterations<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(13);
    let a = Polytope::try_new(
        rng.sphere_points::<D>(40, SVector::zeros(), 0.8)
            .iter()
            .map(p::<T, D>)
            .collect(),
    )
    .unwrap();
    let b = Polytope::try_new(
        rng.sphere_points::<D>(40, SVector::zeros(), 0.6)
            .iter()
            .map(p::<T, D>)
            .collect(),
    )
    .unwrap();
    let (pa, _) = random_pose::<T, D>(&mut rng, 0.0);
    let (mut cold, mut warm) = (0u32, 0u32);
    let (mut cache_d, mut cache_i) = (Cache::new(), Cache::new());
    let dir: SVector<f64, D> = rng.unit();
    let other: SVector<f64, D> = rng.unit();
    for step in 0..200 {
        // Along a line through the pair (separated → overlapping → separated), with a drift.
        let t =
            2.0 * dir * (1.0 - step as f64 / 100.0) + other * (0.1 * (step as f64 * 0.05).sin());
        let (pb, _) = translation::<T, D>(&t);
        let c = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
        let w = query::distance_with_cache(&pa, &a, &pb, &b, &tol(), &mut cache_d).unwrap();
        let acc = accuracy::<T>(1.0).max(1e-4 * f(c.distance));
        assert!(
            (f(c.distance) - f(w.distance)).abs() <= acc,
            "step {step}: cold {c:?} warm {w:?}"
        );
        cold += c.iterations;
        warm += w.iterations;
        let hit = query::intersects(&pa, &a, &pb, &b, &tol()).unwrap();
        let hit_w = query::intersects_with_cache(&pa, &a, &pb, &b, &tol(), &mut cache_i).unwrap();
        if f(c.distance) > band::<T>() || f(c.distance) == 0.0 {
            assert_eq!(hit, hit_w, "step {step}");
        }
    }
    assert!(
        warm * 10 < cold * 9,
        "warm start should save iterations: cold {cold}, warm {warm}"
    );
}
cases!(warm_start_matches_cold_and_saves_iterations, [2 => d2, 3 => d3]);

#[test]
fn warm_start_iteration_counts_are_reported() {
    // Prints the saving for the record (docs/gjk.md quotes this test's output).
    let mut rng = Rng(14);
    let a = Polytope::try_new(rng.sphere_points::<3>(1000, SVector::zeros(), 1.0)).unwrap();
    let b = Polytope::try_new(rng.sphere_points::<3>(1000, SVector::zeros(), 1.0)).unwrap();
    let pa = nalgebra::Isometry3::identity();
    let (mut cold, mut warm) = (0u32, 0u32);
    let mut cache = Cache::new();
    for step in 0..100 {
        let pb = nalgebra::Isometry3::new(
            nalgebra::Vector3::new(2.5 - 0.001 * step as f64, 0.0, 0.0),
            nalgebra::Vector3::new(0.0, 0.002 * step as f64, 0.0),
        );
        cold += query::distance(&pa, &a, &pb, &b, &tol())
            .unwrap()
            .iterations;
        warm += query::distance_with_cache(&pa, &a, &pb, &b, &tol(), &mut cache)
            .unwrap()
            .iterations;
    }
    println!("1000-vertex hulls, 100 small steps: cold {cold} iterations, warm {warm}");
    assert!(warm < cold);
}
