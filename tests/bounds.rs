//! `bound::Aabb` and `bound::BoundingBall` against brute force: support points sampled in
//! many directions never leave the box or the ball; the box is tight to rounding along
//! each axis (the posed support point along `±eₖ` lies on its face within the rounding
//! band); the closed forms agree with the support calls; the set operations agree with
//! coordinate-wise brute force; loosened boxes never miss a pair within the margin.
//! f32, f64, FixedI40F24; 2D and 3D.

mod common;
use common::*;
use convex_proximity::{
    QueryError, Real,
    bound::{Aabb, BoundingBall},
    lit, query,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, Hull, PointShape, Polytope, Rounded, Segment, Shape,
        ShapeDim, SupportMap, Transformed,
    },
};
use nalgebra::{Const, Point, SMatrix, SVector};

/// Directions sampled per shape and pose.
fn samples() -> usize {
    if cfg!(debug_assertions) { 60 } else { 2000 }
}

/// The rounding band the box may be off by: a few times the pad of `src/bound`
/// (`8·(D+1)·ε·scale`, `scale ≥ 1` in fixed-point).
fn band<T: Real, const D: usize>(scale: f64) -> f64 {
    let s = if is_fixed::<T>() {
        scale.max(1.0)
    } else {
        scale
    };
    4.0 * 8.0 * (D as f64 + 1.0) * f(T::default_epsilon()) * s
}

/// The posed support point along the world direction `d`, computed in `T`.
fn posed_support<T: Real, const D: usize, S: SupportMap<T, D>>(
    pose: &Pose<T, D>,
    s: &S,
    d: &SVector<T, D>,
) -> Point<T, D> {
    pose.transform_point(&s.support(&pose.inverse_transform_vector(d)))
}

/// Every sample inside both boxes and the ball; the boxes tight along each axis and
/// within the band of each other.
fn check_shape<T: Real, const D: usize, S: SupportMap<T, D>>(s: &S, name: &str, rng: &mut Rng) {
    for k in 0..4 {
        let (pose, pose_f) = random_pose::<T, D>(rng, [0.0, 1.0, 5.0, 20.0][k]);
        let of = Aabb::of(&pose, s).unwrap();
        let sup = Aabb::from_supports(&pose, s).unwrap();
        let ball = BoundingBall::of(&pose, s).unwrap();
        let scale = pose_f.translation.vector.amax() + s.extent();
        let ctx = format!("{name}, pose {k}: {of:?} {sup:?} {ball:?}");
        for _ in 0..samples() {
            let d: SVector<T, D> = v(&rng.unit::<D>());
            let q = posed_support(&pose, s, &d);
            assert!(of.contains_point(&q), "{q:?} outside, {ctx}");
            assert!(sup.contains_point(&q), "{q:?} outside, {ctx}");
            assert!(ball.contains_point(&q), "{q:?} outside the ball, {ctx}");
        }
        let mut farthest = 0.0f64;
        for axis in 0..D {
            for sign in [1.0, -1.0] {
                let mut e = SVector::<f64, D>::zeros();
                e[axis] = sign;
                let q = pback(&posed_support(&pose, s, &v(&e)));
                for (b, which) in [(&of, "of"), (&sup, "from_supports")] {
                    let face = if sign > 0.0 {
                        f(b.max[axis])
                    } else {
                        f(b.min[axis])
                    };
                    assert!(
                        (face - q[axis]).abs() <= band::<T, D>(scale),
                        "{which} not tight along {sign}e{axis}: {face} vs {}, {ctx}",
                        q[axis]
                    );
                }
                farthest = farthest.max((q - pback(&ball.center)).norm());
            }
        }
        // The ball: at most √D times the box's half-diagonal around its own centre, and
        // exact for the closed forms (checked in `closed_form_balls_are_exact`).
        let half_diag = back(&of.half_extents()).norm();
        assert!(
            f(ball.radius) <= (D as f64).sqrt() * half_diag + band::<T, D>(scale),
            "{ctx}"
        );
        assert!(f(ball.radius) + band::<T, D>(scale) >= farthest, "{ctx}");
    }
}

fn boxes_hold_every_support_point_and_are_tight<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D>,
{
    let mut rng = Rng(0xb0c5 + D as u64);
    let o = Point::<T, D>::origin();
    let x = p::<T, D>(&Point::from(rng.unit::<D>() * 1.5));
    let cube = Cuboid::<T, D>::new(SVector::from_fn(|i, _| lit(0.3 + 0.4 * i as f64)));
    let c = rng.vector(-0.5, 0.5);
    let cloud: Vec<Point<T, D>> = rng
        .sphere_points::<D>(30, c, 1.2)
        .iter()
        .map(p::<T, D>)
        .collect();
    let hull = Polytope::try_new(cloud).unwrap();
    let stretch =
        SMatrix::<T, D, D>::from_diagonal(&SVector::from_fn(|i, _| lit(0.5 + 0.7 * i as f64)));
    let off: SVector<T, D> = v(&rng.vector(-1.0, 1.0));
    check_shape::<T, D, _>(&Ball::new(lit::<T>(0.7)), "ball", &mut rng);
    check_shape(&cube, "cuboid", &mut rng);
    check_shape(&Capsule::new(x, o + off, lit(0.4)), "capsule", &mut rng);
    check_shape(&Segment::new(x, o), "segment", &mut rng);
    check_shape(&PointShape::new(x), "point", &mut rng);
    check_shape(&hull, "polytope", &mut rng);
    check_shape(
        &Rounded::new(hull.clone(), lit(0.3)),
        "rounded polytope",
        &mut rng,
    );
    check_shape(&Rounded::new(cube, lit(0.3)), "rounded cuboid", &mut rng);
    check_shape(
        &Transformed::new(Ball::new(lit::<T>(1.0)), stretch, off),
        "ellipsoid",
        &mut rng,
    );
    check_shape(&Hull::new(cube, PointShape::new(x)), "hull", &mut rng);
    let wrapped: Shape<T, D> = Rounded::new(hull, lit(0.1)).into();
    check_shape(&wrapped, "Shape", &mut rng);
}
cases!(boxes_hold_every_support_point_and_are_tight, [2 => d2, 3 => d3]);

fn boxes_of_3d_shapes<T: Real, const D: usize>() {
    let mut rng = Rng(0x3d);
    check_shape(&Cone::new(lit::<T>(1.0), lit(0.6)), "cone", &mut rng);
    check_shape(
        &Cylinder::new(lit::<T>(0.4), lit(0.9)),
        "cylinder",
        &mut rng,
    );
    check_shape(
        &Rounded::new(Cylinder::new(lit::<T>(0.4), lit(0.9)), lit(0.2)),
        "rounded cylinder",
        &mut rng,
    );
}
cases!(boxes_of_3d_shapes, [3 => d3]);

/// Balls, capsules and cuboids: the closed-form ball is the smallest one (to rounding).
fn closed_form_balls_are_exact<T: Real, const D: usize>() {
    let mut rng = Rng(0xba11);
    let (pose, pose_f) = random_pose::<T, D>(&mut rng, 3.0);
    let band = band::<T, D>(pose_f.translation.vector.amax() + 3.0);
    let t = pose_f.translation.vector;
    let b = BoundingBall::of(&pose, &Ball::new(lit::<T>(0.75))).unwrap();
    assert!(
        (f(b.radius) - round::<T>(0.75)).abs() <= band
            && (back(&b.center.coords) - t).amax() <= band
    );
    let (a, e) = (
        Point::<f64, D>::from(rng.vector(-1.0, 1.0)),
        Point::<f64, D>::from(rng.vector(-1.0, 1.0)),
    );
    let c = Capsule::new(p::<T, D>(&a), p::<T, D>(&e), lit(0.25));
    let b = BoundingBall::of(&pose, &c).unwrap();
    let want = (pback(&c.segment.b) - pback(&c.segment.a)).norm() / 2.0 + 0.25;
    let mid = pose_f.transform_point(&nalgebra::center(
        &pback(&c.segment.a),
        &pback(&c.segment.b),
    ));
    assert!(
        (f(b.radius) - want).abs() <= band && (pback(&b.center) - mid).amax() <= band,
        "{b:?}"
    );
    let h: SVector<f64, D> = rng.vector(0.1, 1.0);
    let b = BoundingBall::of(&pose, &Cuboid::new(v::<T, D>(&h))).unwrap();
    assert!(
        (f(b.radius) - back(&v::<T, D>(&h)).norm()).abs() <= band,
        "{b:?}"
    );
}
cases!(closed_form_balls_are_exact, [2 => d2, 3 => d3]);

/// `merge`, `contains`, `intersects`, `loosened` against coordinate-wise brute force.
fn set_operations_agree_with_brute_force<T: Real, const D: usize>() {
    let mut rng = Rng(0x5e7);
    let random_box = |rng: &mut Rng| {
        let (a, b): (SVector<f64, D>, SVector<f64, D>) =
            (rng.vector(-2.0, 2.0), rng.vector(-2.0, 2.0));
        let (lo, hi) = (a.inf(&b), a.sup(&b));
        Aabb::new(Point::from(v::<T, D>(&lo)), Point::from(v::<T, D>(&hi)))
    };
    for _ in 0..300 {
        let (a, b) = (random_box(&mut rng), random_box(&mut rng));
        let (al, ah, bl, bh) = (pback(&a.min), pback(&a.max), pback(&b.min), pback(&b.max));
        let overlap = (0..D).all(|k| al[k] <= bh[k] && bl[k] <= ah[k]);
        assert_eq!(a.intersects(&b), overlap);
        assert_eq!(b.intersects(&a), overlap);
        let inside = (0..D).all(|k| al[k] <= bl[k] && bh[k] <= ah[k]);
        assert_eq!(a.contains(&b), inside);
        let m = a.merge(&b);
        assert!(m.contains(&a) && m.contains(&b));
        for k in 0..D {
            assert_eq!(f(m.min[k]), al[k].min(bl[k]));
            assert_eq!(f(m.max[k]), ah[k].max(bh[k]));
        }
        let l = a.loosened(lit(0.5));
        assert!(l.contains(&a));
        assert!((0..D).all(|k| (f(l.max[k]) - ah[k] - 0.5).abs() < 1e-6
            && (al[k] - f(l.min[k]) - 0.5).abs() < 1e-6));
        assert_eq!(a.loosened(lit(-1.0)), a);
        let c = pback(&a.center());
        assert!(a.contains_point(&a.center()));
        assert!((0..D).all(|k| (c[k] - (al[k] + ah[k]) / 2.0).abs() < 1e-6));
    }
}
cases!(set_operations_agree_with_brute_force, [2 => d2, 3 => d3]);

/// A broad phase on loosened boxes never misses a pair within the margin, and disjoint
/// boxes mean disjoint shapes.
fn loosened_boxes_never_miss_a_close_pair<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D>,
{
    let mut rng = Rng(0x10053);
    let tol = convex_proximity::Tolerances::default();
    let cube = Cuboid::<T, D>::new(SVector::repeat(lit(0.5)));
    let shapes: Vec<Shape<T, D>> = vec![
        cube.into(),
        Ball::new(lit(0.4)).into(),
        Shape::rounded(cube, lit(0.2)).unwrap(),
        Capsule::new(Point::origin(), p(&Point::from(rng.unit::<D>())), lit(0.2)).into(),
    ];
    let margin = 0.5;
    let n = if cfg!(debug_assertions) { 60 } else { 2000 };
    for k in 0..n {
        let (pa, _) = random_pose::<T, D>(&mut rng, 2.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 2.0);
        let (a, b) = (&shapes[k % 4], &shapes[(k / 4) % 4]);
        let (ba, bb) = (Aabb::of(&pa, a).unwrap(), Aabb::of(&pb, b).unwrap());
        let d = f(query::distance(&pa, a, &pb, b, &tol).unwrap().distance);
        let close = ba
            .loosened(lit(margin / 2.0))
            .intersects(&bb.loosened(lit(margin / 2.0)));
        assert!(close || d > margin, "pair {k} at {d} missed");
        if !ba.intersects(&bb) {
            assert!(
                !query::intersects(&pa, a, &pb, b, &tol).unwrap(),
                "pair {k}"
            );
        }
    }
}
cases!(loosened_boxes_never_miss_a_close_pair, [2 => d2, 3 => d3]);

/// Invalid input is an error, as in the queries.
#[test]
fn invalid_input_is_an_error() {
    let id = nalgebra::Isometry3::<f64>::identity();
    let mut bad = Ball::new(1.0);
    bad.radius = f64::NAN;
    assert!(matches!(
        Aabb::of(&id, &bad),
        Err(QueryError::InvalidShape(_))
    ));
    assert!(matches!(
        BoundingBall::of(&id, &bad),
        Err(QueryError::InvalidShape(_))
    ));
    let nan = nalgebra::Isometry3::translation(f64::NAN, 0.0, 0.0);
    assert_eq!(
        Aabb::of(&nan, &Ball::new(1.0)),
        Err(QueryError::NonFinitePose)
    );
    #[cfg(feature = "fixed")]
    {
        type X = simba::scalar::FixedI40F24;
        let far = nalgebra::Isometry3::translation(lit::<X>(50000.0), lit(0.0), lit(0.0));
        assert_eq!(
            Aabb::of(&far, &Ball::new(lit::<X>(1.0))),
            Err(QueryError::OutOfRange)
        );
        let big = Ball::new(lit::<X>(50000.0));
        assert_eq!(
            Aabb::of(&nalgebra::Isometry3::identity(), &big),
            Err(QueryError::OutOfRange)
        );
    }
}
