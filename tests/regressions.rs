//! The hard cases, one function each, with the numerical mechanism that broke (or could
//! break) them. Scalar-generic cases run for f32, f64 and FixedI40F24.
// Reproductions keep the exact decimal inputs they were found with.
#![allow(clippy::excessive_precision)]

mod common;
use common::*;
use convex_proximity::{
    Dim, QueryError, Real, ShapeError, Termination, lit, query,
    shape::{Ball, Capsule, Cone, Cuboid, Cylinder, Polytope, Segment, SupportMap, Transformed},
    trace::{Solver, Trace},
};
use nalgebra::{
    Const, Isometry3, Point, Point2, Point3, Quaternion, SVector, Translation3, UnitQuaternion,
    Vector2, Vector3,
};

fn unit_box<T: Real, const D: usize>() -> Cuboid<T, D> {
    Cuboid::new(SVector::repeat(lit::<T>(0.5)))
}

/// Face-to-face boxes exactly touching: distance 0 (within the touching band) and
/// `intersects`, never a separating axis found in the rounding.
fn touching_boxes<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(21);
    for _ in 0..20 {
        let mut t: SVector<f64, D> = rng.vector(-0.4, 0.4);
        t[0] = 1.0; // faces x = 0.5 and x = 0.5 meet
        let (pb, _) = translation::<T, D>(&t);
        let d = query::distance(
            &Pose::identity(),
            &unit_box::<T, D>(),
            &pb,
            &unit_box::<T, D>(),
            &tol(),
        )
        .unwrap();
        assert!(f(d.distance) <= accuracy::<T>(1.0), "{d:?}");
        assert!(
            query::intersects(
                &Pose::identity(),
                &unit_box::<T, D>(),
                &pb,
                &unit_box::<T, D>(),
                &tol()
            )
            .unwrap()
        );
    }
}
cases!(touching_boxes, [2 => d2, 3 => d3, 4 => d4]);

/// Identical shapes at the same pose: the centres coincide, so the first point of `A − B`
/// is the origin itself (`Contained` at iteration 0).
fn identical_shapes_same_pose<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(22);
    let pts: Vec<Point<T, D>> = rng
        .sphere_points::<D>(20, SVector::zeros(), 0.7)
        .iter()
        .map(p::<T, D>)
        .collect();
    let poly = Polytope::try_new(pts).unwrap();
    let (pose, _) = random_pose::<T, D>(&mut rng, 0.5);
    let d = query::distance(&pose, &poly, &pose, &poly, &tol()).unwrap();
    assert_eq!(f(d.distance), 0.0, "{d:?}");
    assert!(d.normal.is_none());
    let b = unit_box::<T, D>();
    assert_eq!(
        f(query::distance(&pose, &b, &pose, &b, &tol())
            .unwrap()
            .distance),
        0.0
    );
    assert!(query::intersects(&pose, &poly, &pose, &poly, &tol()).unwrap());
}
cases!(identical_shapes_same_pose, [2 => d2, 3 => d3, 6 => d6]);

/// One shape inside another, off-centre: distance 0, never the gap between boundaries.
fn nested_shapes<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let big = Cuboid::new(SVector::repeat(lit::<T>(1.0)));
    let mut rng = Rng(23);
    for _ in 0..20 {
        let (pb, _) = translation::<T, D>(&rng.vector(-0.6, 0.6));
        let small = Ball::new(lit::<T>(0.2));
        let d = query::distance(&Pose::identity(), &big, &pb, &small, &tol()).unwrap();
        assert_eq!(f(d.distance), 0.0, "{d:?}");
        let tiny = Polytope::try_new(
            rng.sphere_points::<D>(8, SVector::zeros(), 0.1)
                .iter()
                .map(p::<T, D>)
                .collect(),
        )
        .unwrap();
        let d = query::distance(&Pose::identity(), &big, &pb, &tiny, &tol()).unwrap();
        assert_eq!(f(d.distance), 0.0, "{d:?}");
    }
}
cases!(nested_shapes, [2 => d2, 3 => d3, 4 => d4]);

/// Concentric shapes (coincident centres, the origin deep inside `A − B`): GJK starts from
/// the vertex `s_A(−e₀) − s_B(e₀)` and keeps it as the simplex's first, so the first
/// solve holds two vertices, that one and the first support point (it used to drop the
/// start vertex and begin again from the first support point alone: one support
/// evaluation more). The answer is unchanged: distance 0, contained or touching.
fn coincident_centres_start_vertex_joins_the_simplex<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(24);
    for _ in 0..10 {
        // Point-symmetric clouds (each point with its opposite): both centres at the
        // origin, to rounding. One translated pose (no rotation: the start vertex below
        // is then the shapes' own support points, exactly, in A's frame).
        let cloud = |rng: &mut Rng, r: f64| {
            let half = rng.sphere_points::<D>(6, SVector::zeros(), r);
            let both = half.iter().flat_map(|q| [*q, -*q]);
            Polytope::try_new(both.map(|q| p::<T, D>(&q)).collect()).unwrap()
        };
        let (big, small) = (cloud(&mut rng, 1.0), cloud(&mut rng, 0.3));
        let (pose, _) = translation::<T, D>(&rng.vector(-0.5, 0.5));
        let mut trace = Trace::default();
        let d = query::distance_traced(&pose, &big, &pose, &small, &tol(), &mut trace).unwrap();
        assert_eq!(f(d.distance), 0.0, "{d:?}");
        let mut e = SVector::<T, D>::zeros();
        e[0] = T::one();
        let start = big.core_support(&-e) - small.core_support(&e);
        let first = trace.gjk.first().expect("a first iteration");
        let solve = first.solve.expect("a first solve");
        let kept: Vec<SVector<T, D>> = solve.simplex.points().map(|y| y.w).collect();
        assert!(
            solve.solver != Solver::Vertex,
            "the first solve is the start vertex's and the first support point's: {kept:?}"
        );
        for w in &kept {
            assert!(
                *w == start || *w == first.support.point.w,
                "kept {w:?}: neither the start vertex {start:?} nor the first support point"
            );
        }
    }
}
cases!(
    coincident_centres_start_vertex_joins_the_simplex,
    [2 => d2, 3 => d3, 4 => d4]
);

/// Degenerate polytopes: one point, duplicate points, collinear points, a flat (coplanar)
/// cloud in 3D, a flat box. Their simplices are affinely dependent.
fn degenerate_polytopes<T: Real>() {
    let pose = |x: f64, y: f64, z: f64| translation::<T, 3>(&Vector3::new(x, y, z)).0;
    let pt = |x: f64, y: f64, z: f64| Point3::new(lit::<T>(x), lit(y), lit(z));
    let acc = accuracy::<T>(1.0);
    // single point vs unit box: gap 0.25 along x
    let single = Polytope::try_new(vec![pt(0.0, 0.0, 0.0)]).unwrap();
    let d = query::distance(
        &pose(0.75, 0.1, 0.0),
        &single,
        &Pose::identity(),
        &unit_box::<T, 3>(),
        &tol(),
    )
    .unwrap();
    assert!((f(d.distance) - 0.25).abs() <= acc, "{d:?}");
    // duplicated vertices of a segment from (0,0,1) to (1,0,1) above the box top z = 0.5
    let dup = Polytope::try_new(vec![
        pt(0.0, 0.0, 1.0),
        pt(0.0, 0.0, 1.0),
        pt(1.0, 0.0, 1.0),
        pt(1.0, 0.0, 1.0),
        pt(0.5, 0.0, 1.0),
    ])
    .unwrap();
    let d = query::distance(
        &Pose::identity(),
        &dup,
        &Pose::identity(),
        &unit_box::<T, 3>(),
        &tol(),
    )
    .unwrap();
    assert!((f(d.distance) - 0.5).abs() <= acc, "{d:?}");
    // a flat square in z = 0.7 above the box, rotated in its plane
    let flat = Polytope::try_new(vec![
        pt(-0.3, -0.3, 0.7),
        pt(0.3, -0.35, 0.7),
        pt(0.35, 0.3, 0.7),
        pt(-0.3, 0.3, 0.7),
    ])
    .unwrap();
    let d = query::distance(
        &Pose::identity(),
        &flat,
        &Pose::identity(),
        &unit_box::<T, 3>(),
        &tol(),
    )
    .unwrap();
    assert!((f(d.distance) - 0.2).abs() <= acc, "{d:?}");
    // a flat box (zero height) crossing the unit box: overlap
    let sheet = Cuboid::new(Vector3::new(lit::<T>(2.0), lit(2.0), lit(0.0)));
    let d = query::distance(
        &pose(0.0, 0.0, 0.3),
        &sheet,
        &Pose::identity(),
        &unit_box::<T, 3>(),
        &tol(),
    )
    .unwrap();
    assert_eq!(f(d.distance), 0.0, "{d:?}");
    // two coplanar flat polygons overlapping in their plane (F2 below is the rotated case)
    let d = query::distance(
        &pose(0.2, 0.1, 0.0),
        &flat,
        &Pose::identity(),
        &flat,
        &tol(),
    )
    .unwrap();
    assert_eq!(f(d.distance), 0.0, "{d:?}");
    // collinear points vs a segment crossing them at right angles, 0.3 apart
    let line = Polytope::try_new(vec![
        pt(-1.0, 0.0, 0.0),
        pt(0.0, 0.0, 0.0),
        pt(1.0, 0.0, 0.0),
    ])
    .unwrap();
    let seg = Segment::new(pt(0.0, -1.0, 0.3), pt(0.0, 1.0, 0.3));
    let d = query::distance(&Pose::identity(), &line, &Pose::identity(), &seg, &tol()).unwrap();
    assert!((f(d.distance) - 0.3).abs() <= acc, "{d:?}");
}

scalar_cases!(degenerate_polytopes);

/// Size ratio 1e4: a ball of radius 1 near the face of a box of half-extent 1e4. The
/// simplex mixes points 1e4 apart with a gap of 0.5.
fn size_ratio_1e4<T: Real>() {
    if is_fixed::<T>() {
        return; // fixed-point: unit-scale shapes only (docs/tolerances.md)
    }
    let big = Cuboid::new(Vector3::repeat(lit::<T>(1e4)));
    let ball = Ball::new(lit::<T>(1.0));
    let (pb, fb) = translation::<T, 3>(&Vector3::new(1e4 + 1.5, 1234.5, -777.25));
    let exact = fb.translation.vector.x - 1e4 - 1.0;
    let d = query::distance(&Pose::identity(), &big, &pb, &ball, &tol()).unwrap();
    check_distance(
        "ratio 1e4",
        &Pose::identity(),
        &big,
        &pb,
        &ball,
        &d,
        exact,
        accuracy::<T>(1e4),
    );
    // and the other way round, with a tiny box near a huge ball
    let huge = Ball::new(lit::<T>(1e4));
    let tiny = Cuboid::new(Vector3::repeat(lit::<T>(1.0)));
    let (pb, _) = translation::<T, 3>(&Vector3::new(0.0, 1e4 + 1.5, 0.0));
    let d = query::distance(&Pose::identity(), &huge, &pb, &tiny, &tol()).unwrap();
    assert!((f(d.distance) - 0.5).abs() <= accuracy::<T>(1e4), "{d:?}");
}
scalar_cases!(size_ratio_1e4);

/// Pairs 1e6 from the world origin: queries run in A's frame, so the distance keeps the
/// digits the pair's own size needs (only the world-frame witnesses carry 1e6's rounding).
fn far_from_origin<T: Real>() {
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(24);
    for _ in 0..20 {
        let far = Vector3::new(1e6, -2e6, 1.5e6);
        let (pa, fa) = translation::<T, 3>(&far);
        let (pb, fb) = translation::<T, 3>(
            &(far + Vector3::new(1.5 + rng.uniform(0.0, 0.5), rng.uniform(-0.3, 0.3), 0.0)),
        );
        let c = fb.translation.vector - fa.translation.vector;
        let exact = SVector::<f64, 3>::from_fn(|k, _| (c[k].abs() - 1.0).max(0.0)).norm();
        let d =
            query::distance(&pa, &unit_box::<T, 3>(), &pb, &unit_box::<T, 3>(), &tol()).unwrap();
        // The relative pose itself is rounded at 1e6's ulp for f32 (0.06): compare with it.
        let rel = 4.0 * f(T::default_epsilon()) * 1e6;
        assert!(
            (f(d.distance) - exact).abs() <= accuracy::<T>(1.0) + rel,
            "{d:?} exact {exact}"
        );
    }
}
scalar_cases!(far_from_origin);

/// Nearly parallel faces: a box tilted by 1e-6 rad, 1e-3 above another. Every direction
/// within ~1e-3 rad is nearly optimal; the distance must still be exact.
fn nearly_parallel_faces<T: Real>() {
    let tilt = UnitQuaternion::from_euler_angles(1e-6, 0.0, 0.0);
    let (rot, _) = translation::<T, 3>(&Vector3::zeros());
    let _ = rot;
    let q: UnitQuaternion<T> = tilt.cast::<T>();
    let pb = Isometry3::from_parts(Translation3::new(lit::<T>(0.3), lit(0.2), lit(1.001)), q);
    let a = unit_box::<T, 3>();
    let corners = |pose: &Isometry3<f64>| -> Vec<Point3<f64>> {
        (0..8)
            .map(|i| {
                pose * Point3::new(
                    if i & 1 == 0 { -0.5 } else { 0.5 },
                    if i & 2 == 0 { -0.5 } else { 0.5 },
                    if i & 4 == 0 { -0.5 } else { 0.5 },
                )
            })
            .collect()
    };
    let fb = Isometry3::from_parts(
        Translation3::new(
            f(pb.translation.x),
            f(pb.translation.y),
            f(pb.translation.z),
        ),
        UnitQuaternion::new_normalize(Quaternion::new(f(q.w), f(q.i), f(q.j), f(q.k))),
    );
    let exact = polytope_distance(&corners(&Isometry3::identity()), &corners(&fb));
    let d = query::distance(&Isometry3::identity(), &a, &pb, &a, &tol()).unwrap();
    check_distance(
        "nearly parallel",
        &Isometry3::identity(),
        &a,
        &pb,
        &a,
        &d,
        exact,
        accuracy::<T>(1.0).max(1e-6),
    );
}
scalar_cases!(nearly_parallel_faces);

/// Curved shapes: cones and cylinders against boxes and each other; GJK converges on
/// smooth supports to the relative gap.
fn curved_shapes_converge<T: Real>() {
    let cyl = Cylinder::new(lit::<T>(0.5), lit::<T>(0.3));
    let cone = Cone::new(lit::<T>(0.5), lit::<T>(0.3));
    // cylinder side (radius 0.3) against a box face at x = 1 - 0.5: gap 0.2
    let (pb, _) = translation::<T, 3>(&Vector3::new(1.0, 0.1, 0.0));
    let d = query::distance(&Pose::identity(), &cyl, &pb, &unit_box::<T, 3>(), &tol()).unwrap();
    assert!(
        (f(d.distance) - 0.2).abs() <= accuracy::<T>(1.0) + 1e-6,
        "{d:?}"
    );
    // cone apex (0, 0.5, 0) below a box bottom face at y = 1.2 - 0.5: gap 0.2
    let (pb, _) = translation::<T, 3>(&Vector3::new(0.0, 1.2, 0.0));
    let d = query::distance(&Pose::identity(), &cone, &pb, &unit_box::<T, 3>(), &tol()).unwrap();
    assert!(
        (f(d.distance) - 0.2).abs() <= accuracy::<T>(1.0) + 1e-6,
        "{d:?}"
    );
    // an ellipsoid (scaled ball) against a plane-like flat box: semi-axis 0.6 along y
    let ell = Transformed::scaled(
        Ball::new(lit::<T>(1.0)),
        Vector3::new(lit::<T>(0.2), lit(0.6), lit(0.4)),
    );
    let sheet = Cuboid::new(Vector3::new(lit::<T>(2.0), lit(0.0), lit(2.0)));
    let (pb, _) = translation::<T, 3>(&Vector3::new(0.0, 0.9, 0.0));
    let d = query::distance(&Pose::identity(), &ell, &pb, &sheet, &tol()).unwrap();
    assert!(
        (f(d.distance) - 0.3).abs() <= accuracy::<T>(1.0) + 1e-5,
        "{d:?}"
    );
    assert!(
        d.termination.is_converged() || d.termination == Termination::NoProgress,
        "{d:?}"
    );
}
scalar_cases!(curved_shapes_converge);

/// Capsules crossing at right angles (2D and 3D): the cores' closest points are interior
/// to both segments; the rounded path must not need EPA or loop.
fn crossing_capsules<T: Real>() {
    let c2 = Capsule::new(
        Point2::new(lit::<T>(-1.0), lit(0.0)),
        Point2::new(lit(1.0), lit(0.0)),
        lit(0.1),
    );
    let pb2 = nalgebra::Isometry2::new(
        Vector2::new(lit::<T>(0.0), lit(0.0)),
        lit(std::f64::consts::FRAC_PI_2),
    );
    let d = query::distance(&nalgebra::Isometry2::identity(), &c2, &pb2, &c2, &tol()).unwrap();
    assert_eq!(f(d.distance), 0.0, "{d:?}");
    let c3 = Capsule::new(
        Point3::new(lit::<T>(-1.0), lit(0.0), lit(0.0)),
        Point3::new(lit(1.0), lit(0.0), lit(0.0)),
        lit(0.1),
    );
    let pb3 = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.0), lit(0.0), lit(0.5)),
        UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2).cast::<T>(),
    );
    let d = query::distance(&Isometry3::identity(), &c3, &pb3, &c3, &tol()).unwrap();
    assert!(
        (f(d.distance) - 0.3).abs() <= accuracy::<T>(1.0) + 1e-6,
        "{d:?}"
    );
    assert!(d.iterations <= 4, "{d:?}");
}
scalar_cases!(crossing_capsules);

// ------------------------------------------------------------------------- invalid input

/// NaN or ∞ in a pose → `Err(NonFinitePose)`, never a panic, a hang or a NaN.
#[test]
fn non_finite_pose_is_an_error() {
    let b = unit_box::<f64, 3>();
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let t = Isometry3::translation(bad, 0.0, 0.0);
        let r = Isometry3::from_parts(
            Translation3::identity(),
            UnitQuaternion::new_unchecked(Quaternion::new(bad, 0.0, 0.0, 0.0)),
        );
        for pose in [t, r] {
            let e = query::distance(&pose, &b, &Isometry3::identity(), &b, &tol());
            assert_eq!(e, Err(QueryError::NonFinitePose));
            let e = query::intersects(&Isometry3::identity(), &b, &pose, &b, &tol());
            assert_eq!(e, Err(QueryError::NonFinitePose));
        }
    }
}

/// Shapes reject NaN/∞/negative parameters at construction.
#[test]
fn invalid_shapes_are_rejected() {
    assert_eq!(
        Polytope::<f64, 3>::try_new(vec![]).unwrap_err(),
        ShapeError::Empty
    );
    let bad = vec![Point3::new(0.0, 0.0, 0.0), Point3::new(f64::NAN, 0.0, 0.0)];
    assert_eq!(
        Polytope::try_new(bad).unwrap_err(),
        ShapeError::NonFinite { index: 1 }
    );
    assert!(Ball::try_new(-1.0f32).is_err());
    assert!(Ball::try_new(f64::INFINITY).is_err());
    assert!(Cuboid::try_new(Vector3::new(1.0, f64::NAN, 1.0)).is_err());
    assert!(Capsule::try_new(Point2::new(0.0, 0.0), Point2::new(1.0, f64::INFINITY), 0.1).is_err());
    assert!(Cone::try_new(-0.5, 1.0).is_err());
    assert!(Cylinder::try_new(0.5, f32::NAN).is_err());
    assert!(
        Transformed::try_new(
            Ball::new(1.0),
            nalgebra::Matrix3::from_element(f64::NAN),
            Vector3::zeros()
        )
        .is_err()
    );
    let msg = format!("{}", ShapeError::NonFinite { index: 3 });
    assert!(msg.contains('3'), "{msg}");
}

/// A user support map that returns NaN → `Err(NonFiniteSupport)`.
#[test]
fn non_finite_support_is_an_error() {
    struct Broken;
    impl SupportMap<f64, 3> for Broken {
        fn support(&self, _: &Vector3<f64>) -> Point3<f64> {
            Point3::new(f64::NAN, 0.0, 0.0)
        }
        fn center(&self) -> Point3<f64> {
            Point3::origin()
        }
    }
    let apart = Isometry3::translation(3.0, 0.0, 0.0);
    let e = query::distance(
        &Isometry3::identity(),
        &Broken,
        &apart,
        &unit_box::<f64, 3>(),
        &tol(),
    );
    assert_eq!(e, Err(QueryError::NonFiniteSupport));
    let e = query::intersects(
        &apart,
        &unit_box::<f64, 3>(),
        &Isometry3::identity(),
        &Broken,
        &tol(),
    );
    assert_eq!(e, Err(QueryError::NonFiniteSupport));
}

/// Finite but enormous coordinates (squares overflow f64) → `Err(OutOfRange)`, not ∞/NaN.
#[test]
fn overflowing_coordinates_are_an_error() {
    let huge = Cuboid::new(Vector3::repeat(1e200));
    let e = query::distance(
        &Isometry3::identity(),
        &huge,
        &Isometry3::translation(1e200, 0.0, 0.0),
        &huge,
        &tol(),
    );
    assert_eq!(e, Err(QueryError::OutOfRange));
}

/// Out-of-range tolerances → `Err(InvalidTolerance)` naming the field, from the setter;
/// the tolerances it was called on are unchanged, and a query runs on them.
#[test]
fn invalid_tolerances_are_an_error() {
    let b = unit_box::<f64, 3>();
    let t = tol::<f64>();
    for (e, field) in [
        (t.with_gjk_rel(f64::NAN), "gjk_rel"),
        (t.with_gjk_touching(-1.0), "gjk_touching"),
        (t.with_gjk_max_iterations(0), "gjk_max_iterations"),
        (
            t.with_manifold_reference_bias(1.0),
            "manifold_reference_bias",
        ),
        (t.with_manifold_min_alignment(0.0), "manifold_min_alignment"),
    ] {
        assert_eq!(e, Err(QueryError::InvalidTolerance { field }));
    }
    assert_eq!(t, tol());
    let d = query::distance(&Isometry3::identity(), &b, &Isometry3::identity(), &b, &t);
    assert!(d.is_ok(), "{d:?}");
}

/// An iteration cap is reported as such, with the best estimate and honest bounds.
#[test]
fn capped_run_says_so() {
    let mut rng = Rng(25);
    let a = Polytope::try_new(rng.sphere_points::<3>(500, SVector::zeros(), 1.0)).unwrap();
    let b = Ball::new(0.5);
    let capped = tol().with_gjk_max_iterations(2).unwrap();
    let pb = Isometry3::translation(1.3, 1.1, 0.9);
    let d = query::distance(&Isometry3::identity(), &a, &pb, &b, &capped).unwrap();
    let full = query::distance(&Isometry3::identity(), &a, &pb, &b, &tol()).unwrap();
    assert_eq!(d.termination, Termination::MaxIterations);
    assert!(
        d.lower_bound <= full.distance + 1e-12 && full.distance <= d.upper_bound + 1e-12,
        "{d:?} vs {full:?}"
    );
    assert!(d.distance.is_finite());
}

// ------------------------------------------------------------- found by adversarial tests

/// Flat full simplex passing Johnson's sign test (f64 3D): separated polytopes reported
/// `Contained`, distance 0, while `intersects` said false. Containment of a full simplex
/// is now decided by a pivoted solve.
#[test]
fn flat_full_simplex_is_not_containment() {
    let a = Polytope::try_new(vec![
        Point3::new(-112.90447588764675f64, -996.8746099062566, 0.0),
        Point3::new(417.57810186501956, -140.52798268160393, 0.0),
        Point3::new(-97.34977869163106, 12.569175735597014, 0.0),
    ])
    .unwrap();
    let p = Point3::new(-125.32040779187412, 726.0415242305824, 69.6976022396027);
    let b = Polytope::try_new(vec![
        p,
        Point3::new(-26.807804001309364, -705.6408889441399, 270.26203846213275),
        Point3::new(-467.8762439499178, -417.2918706646295, 763.8458226233886),
        p,
        p,
    ])
    .unwrap();
    let pa = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.0),
        UnitQuaternion::new_unchecked(Quaternion::new(
            0.27803186795978485,
            0.815376739229077,
            0.494984600843177,
            -0.11335474604563789,
        )),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(-77.32369105629277, 329.4638879552032, 300.0396264803442),
        UnitQuaternion::new_unchecked(Quaternion::new(
            -0.5467309917585709,
            -0.08825807137610728,
            0.637050727265397,
            -0.5361549275893006,
        )),
    );
    let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
    assert!(
        (d.distance - 64.92278795818017).abs() < 1e-9 * 1000.0,
        "{d:?}"
    );
    assert!(!query::intersects(&pa, &a, &pb, &b, &tol()).unwrap());
}

/// Thin genuine full simplex in f32 (overlapping coplanar polygons): Johnson's `v` misses
/// the origin by more than the touching band, so a norm test on it rejected a real
/// containment. The pivoted solve's residual stays at rounding level.
#[test]
fn thin_full_simplex_in_f32_is_containment() {
    let a = Polytope::try_new(vec![
        Point3::new(0.8824214935302734f32, -0.8342636823654175, 0.0),
        Point3::new(0.0813727006316185, 0.8549947738647461, 0.0),
        Point3::new(0.02346659079194069, 0.4220280349254608, 0.0),
        Point3::new(0.1546192467212677, -0.5526700019836426, 0.0),
        Point3::new(0.0021561402827501297, 0.43579956889152527, 0.0),
        Point3::new(0.8056958913803101, 0.9671648144721985, 0.0),
    ])
    .unwrap();
    let b = Polytope::try_new(vec![
        Point3::new(0.6665003299713135f32, -0.4000610113143921, 0.0),
        Point3::new(0.27970218658447266, 0.5521619915962219, 0.0),
        Point3::new(-0.45460039377212524, 0.6486306190490723, 0.0),
        Point3::new(-0.861569881439209, 0.814945638179779, 0.0),
        Point3::new(0.6521661877632141, 0.09527615457773209, 0.0),
    ])
    .unwrap();
    let pa = Isometry3::from_parts(
        Translation3::new(0.0f32, 0.0, 0.0),
        UnitQuaternion::new_unchecked(Quaternion::new(
            -0.806501679793284f32,
            0.1464518925782463,
            0.5514535467592988,
            -0.15493827615360595,
        )),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(
            -0.03501726284284523f32,
            0.010756610491973701,
            0.04788687302175636,
        ),
        UnitQuaternion::new_unchecked(Quaternion::new(
            -0.1660296531077664f32,
            0.2137112644047192,
            -0.9194490612784405,
            0.28526316528715323,
        )),
    );
    let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
    assert!(d.distance <= 2e-4, "{d:?}");
    assert!(query::intersects(&pa, &a, &pb, &b, &tol()).unwrap());
}

/// The plane bound `v·w/‖v‖` rounds an ulp above `‖v‖` (f32, point vs point): the lower
/// bound is clamped to the upper one.
#[test]
fn lower_bound_never_exceeds_upper_bound() {
    let a = Polytope::try_new(vec![Point3::new(
        0.15136900544166565f32,
        0.4661652147769928,
        0.5725034475326538,
    )])
    .unwrap();
    let b = Polytope::try_new(vec![Point3::new(
        0.19020089507102966f32,
        0.585407018661499,
        -0.6449979543685913,
    )])
    .unwrap();
    let pa = Isometry3::from_parts(
        Translation3::new(0.0f32, 0.0, 0.0),
        UnitQuaternion::new_unchecked(Quaternion::new(
            0.09762593609920217f32,
            0.6159482808022795,
            -0.6526818828018681,
            -0.4302130307646192,
        )),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(
            -0.2915455116079072f32,
            -0.5041085098098987,
            -0.6358881011389061,
        ),
        UnitQuaternion::new_unchecked(Quaternion::new(
            -0.6386726042781429f32,
            -0.5140955239707079,
            -0.44497551549150394,
            0.3602775144120546,
        )),
    );
    let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
    assert!(
        d.lower_bound <= d.upper_bound && d.lower_bound <= d.distance,
        "{d:?}"
    );
}

/// Fixed-point shapes beyond the type's range (Johnson's determinants have degree 2D:
/// I40F24 overflows them from coordinates ~45 in 3D) → `Err(OutOfRange)`, never the
/// overflow panic (debug) or a silently wrong answer (release).
#[cfg(feature = "fixed")]
#[test]
fn fixed_point_out_of_range_is_an_error() {
    type F = Fx;
    let a = Cuboid::new(Vector3::new(lit::<F>(40.0), lit(40.0), lit(40.0)));
    let b = Cuboid::new(Vector3::new(lit::<F>(40.0), lit(20.0), lit(28.0)));
    let pb = Isometry3::from_parts(
        Translation3::new(lit::<F>(12.0), lit(8.0), lit(4.0)),
        UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1).cast::<F>(),
    );
    let e = query::distance(&Isometry3::identity(), &a, &pb, &b, &tol());
    assert_eq!(e, Err(QueryError::OutOfRange));
    assert_eq!(
        query::intersects(&Isometry3::identity(), &a, &pb, &b, &tol()),
        Err(QueryError::OutOfRange)
    );
    // The same pair at a twentieth of the size is in range and overlaps.
    let s = lit::<F>(0.05);
    let (a, b) = (
        Cuboid::new(a.half_extents * s),
        Cuboid::new(b.half_extents * s),
    );
    let pb = Isometry3::from_parts(Translation3::from(pb.translation.vector * s), pb.rotation);
    assert_eq!(
        f(query::distance(&Isometry3::identity(), &a, &pb, &b, &tol())
            .unwrap()
            .distance),
        0.0
    );
}

/// The hull of two translated balls is a capsule: `Transformed` by a similarity keeps the
/// round part, so GJK runs on the cores (segment) and converges like `Capsule` instead of
/// crawling over the curved surface into `NoProgress` (found by the adversarial tests).
#[test]
fn similarity_transform_keeps_the_round_part() {
    use convex_proximity::shape::Hull;
    let ball = |x: f64| {
        Transformed::new(
            Ball::new(0.25),
            nalgebra::Matrix3::identity(),
            Vector3::new(x, 0.0, 0.0),
        )
    };
    let stadium = Hull::new(ball(-1.0), ball(1.0));
    assert_eq!(stadium.radius(), 0.25);
    let capsule = Capsule::new(
        Point3::new(-1.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        0.25,
    );
    let seg = Segment::new(Point3::new(-3.0, 0.0, 0.0), Point3::new(3.0, 0.0, 0.0));
    let pb = Isometry3::new(Vector3::new(0.3, 1.25, 0.2), Vector3::new(0.0, 0.7, 0.0));
    let h = query::distance(&Isometry3::identity(), &stadium, &pb, &seg, &tol()).unwrap();
    let c = query::distance(&Isometry3::identity(), &capsule, &pb, &seg, &tol()).unwrap();
    assert!((h.distance - c.distance).abs() < 1e-12, "{h:?} vs {c:?}");
    assert!(
        h.termination.is_converged() && h.iterations <= c.iterations + 1,
        "{h:?}"
    );
    // A rotation keeps it too; a non-uniform scale (an ellipsoid) does not.
    let rot = nalgebra::Rotation3::from_euler_angles(0.3, -0.2, 1.1).into_inner();
    let r: f64 = Transformed::new(Ball::new(0.5), rot * 2.0, Vector3::zeros()).radius();
    assert!((r - 1.0).abs() < 1e-12);
    assert_eq!(
        Transformed::scaled(Ball::new(0.5), Vector3::new(1.0, 2.0, 1.0)).radius(),
        0.0
    );
}

/// Elongated simplices (a flat 1e4 box beside a unit box, f64): Johnson's cofactors
/// subtract cached products of ~7e7 to get terms of ~0.2, so the barycentric coordinates
/// lost 7 digits and the point landed 3.8e-5 off along the long edge (reported as
/// converged). The point is now the Gram–Schmidt projection of the origin.
#[test]
fn elongated_simplex_projects_accurately() {
    let a = Cuboid::new(Vector3::new(9444.562542819336, 4186.689625205353, 0.0));
    let b = Cuboid::new(Vector3::new(
        0.3431338284134857,
        0.2695133062215034,
        0.21361418995785464,
    ));
    let exact: f64 = 9444.905676647788 - 9444.562542819336 - 0.3431338284134857; // 3.8e-11
    for far in [Vector3::zeros(), Vector3::new(1e6, -2e6, 3e5)] {
        let pa = Isometry3::translation(far.x, far.y, far.z);
        let pb = Isometry3::translation(far.x - 9444.905676647788, far.y - 464.0682309847, far.z);
        let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
        let acc = 1e-9 * 9444.0;
        assert!(
            (d.distance - exact).abs() <= acc
                && d.lower_bound <= exact + acc
                && exact <= d.upper_bound + acc,
            "{d:?}"
        );
    }
    // Rotated: the separating-axis bound proves ≥ 9.61741e-3; GJK had stopped at 9.97e-3.
    let a = Cuboid::new(Vector3::new(0.0, 9788.862552707751, 1003.6220612446557));
    let b = Cuboid::new(Vector3::new(0.12155858675156359, 0.0, 0.8302306759645987));
    let q = UnitQuaternion::new_unchecked(Quaternion::new(
        0.9999998750000026,
        0.00023041599555996206,
        0.0004435646903200796,
        -1.2602129107048622e-5,
    ));
    let pb = Isometry3::from_parts(
        Translation3::new(0.0, -9788.872552707751, 77.6846450896703),
        q,
    );
    let d = query::distance(&Isometry3::identity(), &a, &pb, &b, &tol()).unwrap();
    let corners = |pose: &Isometry3<f64>, h: &Vector3<f64>| -> Vec<Point3<f64>> {
        (0..8)
            .map(|i| {
                pose * Point3::new(
                    if i & 1 == 0 { -h.x } else { h.x },
                    if i & 2 == 0 { -h.y } else { h.y },
                    if i & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect()
    };
    // A is flat (zero extent), B too; the brute force needs a full-dimensional A − B, which
    // their sum is (flat along different axes).
    let exact = polytope_distance(
        &corners(&Isometry3::identity(), &a.half_extents),
        &corners(&pb, &b.half_extents),
    );
    assert!(
        (d.distance - exact).abs() <= 1e-9 * 1e4,
        "{d:?} exact {exact}"
    );
}

/// The touching band must scale with the pair's size, not with where the shapes sit in
/// their own frames: meshes stored in world coordinates (identity pose, coordinates ~1e6)
/// read as touching at the start when the band used the centres' absolute coordinates.
#[test]
fn touching_band_ignores_absolute_position() {
    let id = Isometry3::identity();
    let a = Segment::new(
        Point3::new(1e6 - 1.0f64, 0.0, 0.0),
        Point3::new(1e6 + 1.0, 0.0, 0.0),
    );
    let b = Segment::new(Point3::new(1e6, -1.0, 1e-4), Point3::new(1e6, 1.0, 1e-4));
    let d = query::distance(&id, &a, &id, &b, &tol()).unwrap();
    assert!((d.distance - 1e-4).abs() < 1e-12, "{d:?}");
    assert!(!query::intersects(&id, &a, &id, &b, &tol()).unwrap());
    let id2 = nalgebra::Isometry2::<f32>::identity();
    let s = Segment::new(Point2::new(999.0f32, 0.0), Point2::new(1001.0, 0.0));
    let p = convex_proximity::shape::PointShape::new(Point2::new(1000.0f32, 0.01));
    let d = query::distance(&id2, &s, &id2, &p, &tol()).unwrap();
    assert!((d.distance - 0.01).abs() < 1e-4, "{d:?}");
}

/// A "rotation" that scales (a non-unit quaternion, as `from_rotation_matrix` returns for a
/// reflection) is no rigid motion: `Err(NonRigidPose)`, not silently scaled answers.
#[test]
fn non_rigid_pose_is_an_error() {
    let b = unit_box::<f64, 3>();
    let q = UnitQuaternion::new_unchecked(Quaternion::new(0.3, 0.1, 0.0, 0.0));
    let pose = Isometry3::from_parts(Translation3::new(2.0, 0.0, 0.0), q);
    assert_eq!(
        query::distance(&Isometry3::identity(), &b, &pose, &b, &tol()),
        Err(QueryError::NonRigidPose)
    );
    // A quaternion off unit length by rounding (R scales by (1 + 1e-12)², RᵀR by 4e-12).
    let fine = UnitQuaternion::new_unchecked(Quaternion::new(1.0 + 1e-12, 0.0, 0.0, 0.0));
    let pose = Isometry3::from_parts(Translation3::new(2.0, 0.0, 0.0), fine);
    assert!(query::distance(&Isometry3::identity(), &b, &pose, &b, &tol()).is_ok());
}

/// Johnson's sign tests chose a sub-simplex whose true projection lies outside it (a unit
/// segment against a 1.2e4-long nearly parallel one): `v` was no point of `A − B`, and the
/// run reported `Converged` at 7.6e-4 with bounds excluding the truth 9.995e-4. Now the
/// projection's barycentric coordinates and the optimality condition `v·(yⱼ − v) ≥ 0` are
/// checked, with an exhaustive search over sub-simplices as the fallback.
#[test]
fn projection_outside_its_subsimplex_is_rejected() {
    let id = Isometry3::identity();
    let a = Segment::new(
        Point3::new(
            -0.4493660239136057f64,
            -0.5140255138587887,
            0.6061236785456633,
        ),
        Point3::new(-0.9216356015106589, -0.7424541106401785, 1.4574648688147505),
    );
    let b = Segment::new(
        Point3::new(3038.7989462553237, 1469.5247690003432, -5478.1307376938075),
        Point3::new(-2361.85593057146, -1142.6897723874429, 4257.419997239621),
    );
    let exact = segment_segment(&a.a.coords, &a.b.coords, &b.a.coords, &b.b.coords);
    let d = query::distance(&id, &a, &id, &b, &tol()).unwrap();
    check_distance("needle", &id, &a, &id, &b, &d, exact, 1e-9 * 1.2e4);
}

/// A vertex-to-vertex contact: the simplex shrinks to one tiny vertex, so a touching band
/// scaled by the simplex alone was ~0 and the pair read 1.4e-15 apart, `intersects` false.
/// The band now scales with the largest support point seen.
#[test]
fn vertex_vertex_contact_is_touching() {
    let h = Vector3::new(0.539677960335512, 0.4967034792287821, 0.6650403654863593);
    let a = Cuboid::new(h);
    let r = UnitQuaternion::new_unchecked(Quaternion::new(
        -0.11947555071633453,
        0.06683219468963382,
        0.9376476450629565,
        -0.3194932616533368,
    ));
    let pa = Isometry3::from_parts(Translation3::new(0.0, 0.0, 0.0), r);
    let pb = Isometry3::from_parts(Translation3::from(r * (2.0 * h)), r);
    let d = query::distance(&pa, &a, &pb, &a, &tol()).unwrap();
    assert_eq!(d.distance, 0.0, "{d:?}");
    assert!(query::intersects(&pa, &a, &pb, &a, &tol()).unwrap());
    assert!(query::intersects(&pb, &a, &pa, &a, &tol()).unwrap());
}

/// A 1e4-long plate against a small one, nearly touching (true gap 2e-9): the run stopped
/// with `NoProgress` at 0.39 (an invalid sub-simplex choice, as above).
#[test]
fn long_thin_plates_near_contact() {
    let q =
        |w: f64, i: f64, j: f64, k: f64| UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k));
    let a = Cuboid::new(Vector3::new(0.3, 1e-6, 0.7));
    let b = Cuboid::new(Vector3::new(10000.0, 1e-6, 1.0));
    let pa = Isometry3::from_parts(
        Translation3::new(0.0, 0.0, 0.0),
        q(
            -0.7712603029342846,
            -0.22760023971152774,
            -0.46941622636593616,
            0.36469724762511585,
        ),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(
            -0.06495851456187758,
            0.19078145597948734,
            0.6793214831538698,
        ),
        q(
            -0.5371801103464926,
            0.6838172504111772,
            -0.16256110525810077,
            -0.4662675027765628,
        ),
    );
    let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
    assert!(d.distance <= 1e-9 * 1e4 && d.lower_bound <= 2.1e-9, "{d:?}");
    assert!(
        d.upper_bound >= 1.9e-9,
        "the witnesses cannot be closer than the true gap: {d:?}"
    );
}

/// Shapes sharing a centre: GJK stops on a segment {w, −w} through the origin and the
/// axis supports can all fall on one flat set, so EPA's seed read A − B as flat (touching,
/// depth 0) for about half of such pairs (polytopes against themselves, crossing segments).
/// The seed now probes along the normal of the candidates' span before calling it flat.
#[test]
fn shared_centre_is_not_read_as_flat() {
    let id2 = nalgebra::Isometry2::identity();
    let tri = Polytope::try_new(vec![
        Point2::new(-0.8, -0.9),
        Point2::new(0.2, 0.6),
        Point2::new(-0.2, -0.4),
    ])
    .unwrap();
    let c = query::contact(&id2, &tri, &id2, &tri, &tol()).unwrap();
    assert!((c.separation + 0.221880078490092f64).abs() < 1e-9, "{c:?}");
    let tet = Polytope::try_new(vec![
        Point3::new(0.4, 0.8, -0.8),
        Point3::new(1.0, 1.0, 0.7),
        Point3::new(-0.6, -0.3, 0.5),
        Point3::new(-0.1, -0.2, -0.1),
    ])
    .unwrap();
    let id3 = Isometry3::identity();
    let c = query::contact(&id3, &tet, &id3, &tet, &tol()).unwrap();
    assert!((c.separation + 0.30343f64).abs() < 1e-4, "{c:?}");
    // Crossing segments: a parallelogram difference, depth = its nearer edge line, 0.2/‖(1, 1.1)‖.
    let a = Segment::new(Point2::new(-1.0, -0.9), Point2::new(1.0, 0.9));
    let b = Segment::new(Point2::new(-1.0, -1.1), Point2::new(1.0, 1.1));
    let c = query::contact(&id2, &a, &id2, &b, &tol()).unwrap();
    assert!(
        (c.separation + 0.2 / 1.1f64.hypot(1.0)).abs() < 1e-12,
        "{c:?}"
    );
}

/// Fixed-point: a point at the centre of a small box read 1.3e-6 apart (the projection's
/// rounding, above a touching band proportional to the box's 0.02 size). The band now has
/// an absolute floor of 64 ulps in fixed-point.
#[cfg(feature = "fixed")]
#[test]
fn fixed_point_band_has_an_absolute_floor() {
    type F = Fx;
    let id = nalgebra::Isometry2::<F>::identity();
    let p = convex_proximity::shape::PointShape::new(Point2::new(lit::<F>(0.0), lit(0.0)));
    let b = Cuboid::new(Vector2::new(lit::<F>(0.02), lit(0.012)));
    assert!(query::intersects(&id, &p, &id, &b, &tol()).unwrap());
    let c = query::contact(&id, &p, &id, &b, &tol()).unwrap();
    assert!((f(c.separation) + 0.012).abs() < 1e-4, "{c:?}");
}

/// Inside the touching band from outside (1.5e-9 apart), EPA on GJK's simplex at the origin
/// took a normal from a face of its first polytope, 1.5 rad off. GJK's `−v/‖v‖` is used when
/// `‖v‖` is well above rounding: the normal is continuous through touching.
#[test]
fn normal_is_continuous_inside_the_touching_band() {
    let a = Cuboid::new(Vector2::new(0.4901357582194555, 0.6119840537632399));
    let b = Cuboid::new(Vector2::new(0.24973091702209232, 0.9126926779069342));
    let ra = nalgebra::Matrix2::new(
        -0.030814138408688713,
        -0.9995251316871078,
        0.9995251316871078,
        -0.030814138408688713,
    );
    let rb = nalgebra::Matrix2::new(
        -0.019117350674773274,
        0.9998172467522142,
        -0.9998172467522142,
        -0.019117350674773277,
    );
    let pa = nalgebra::IsometryMatrix2::from_parts(
        nalgebra::Translation2::new(0.0, 0.0),
        nalgebra::Rotation2::from_matrix_unchecked(ra),
    );
    let base = Vector2::new(-0.16715612298328775, 0.773140811733136);
    let n = Vector2::new(0.019117350674773312, 0.9998172467522141);
    for s in [-30i32, -5, 0, 5, 10, 14, 15, 16, 18, 20, 25, 30] {
        let t = base + n * (s as f64 * 1e-10);
        let pb = nalgebra::IsometryMatrix2::from_parts(
            nalgebra::Translation2::from(t),
            nalgebra::Rotation2::from_matrix_unchecked(rb),
        );
        let c = query::contact(&pa, &a, &pb, &b, &tol()).unwrap();
        assert!(
            (c.normal.into_inner() - n).norm() < 1e-6,
            "offset {s}e-10: {c:?}"
        );
    }
}

/// A box sunk 0.01 into a 10-wide slab: GJK stopped Touching on a triangle inside `A − B`,
/// and no simplex of its points and the axis supports contained the origin (it lay 0.07
/// outside their top triangle), so EPA's seed called the pair flat and answered "touching,
/// depth 0" along a sideways normal (f32, FixedI40F24). The seed now grows the largest
/// candidate simplex towards the origin, GJK's step, before deciding.
fn epa_seed_grows_when_gjk_stops_on_an_inner_simplex<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = unit_box::<T, 3>();
    let ground = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    for k in 200..330 {
        let t = k as f64 / 1000.0;
        let pose = Isometry3::from_parts(
            Translation3::new(lit::<T>(-2.0 + 4.0 * t), lit(0.49), lit(0.5 * t)),
            UnitQuaternion::from_euler_angles(0.0, 2.0 * t, 0.0).cast::<T>(),
        );
        let c = query::contact(&ground, &slab, &pose, &cube, &tol()).unwrap();
        assert!(
            (f(c.separation) + 0.01).abs() <= accuracy::<T>(1.0) && f(c.normal.y) > 0.999,
            "step {k}: {c:?}"
        );
    }
}
scalar_cases!(epa_seed_grows_when_gjk_stops_on_an_inner_simplex);

/// A flat box sunk 0.01 into a slab (FixedI40F24): GJK's tetrahedron passed the barycentric
/// test, but the rounded plane of one face put the origin 8.8e-5 outside it (the band was
/// 8.6e-5), so EPA answered "touching across that face", a face inside `A − B`. EPA's start
/// now asks for the support beyond such a face and, when `A − B` extends past it, replaces
/// the opposite vertex with it.
fn epa_start_replaces_a_vertex_beyond_an_inner_face<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let flat = Cuboid::new(Vector3::new(lit::<T>(0.6), lit(0.3), lit(0.4)));
    let ground = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let q = [
        0.0001365865472876293,
        0.2899675506657544,
        -0.0002570945594064456,
        0.09940090995367179,
    ];
    let pose = Isometry3::from_parts(
        Translation3::new(lit::<T>(q[0]), lit(q[1]), lit(q[2])),
        UnitQuaternion::from_euler_angles(0.0, q[3], 0.0).cast::<T>(),
    );
    let c = query::contact(&ground, &slab, &pose, &flat, &tol()).unwrap();
    assert!(
        (f(c.separation) - (q[1] - 0.3)).abs() <= accuracy::<T>(1.0) && f(c.normal.y) > 0.999,
        "{c:?}"
    );
}
scalar_cases!(epa_start_replaces_a_vertex_beyond_an_inner_face);
