//! The `serde` feature: every shape (bare and in the `Shape` enum), motion, option,
//! bounding volume and result reads back equal to what was written (compared by `Debug`
//! text, which tells `-0` from `0`; fixed-point values travel as their bits), and a query
//! on a read-back shape gives the same answer bit for bit. Reading invalid input is an
//! error, never an invalid value. f32, f64, FixedI40F24; 2D, 3D. Run with
//! `cargo test --features serde --test serde`.
#![cfg(feature = "serde")]

mod common;
use common::*;
use convex_proximity::{
    Real, Subalgorithm, Termination, Tolerances,
    bound::{Aabb, BoundingBall},
    cast::{CastOptions, LinearMotion, Ray, RigidMotion, RotationDim},
    clip::FeatureMap,
    epa::{Contact, ContactDim},
    gjk::{self, Simplex},
    lit, query,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, Hull, MinkowskiSum, PointShape, Polytope,
        Revolution, Rounded, Segment, Shape, ShapeDim, Transformed,
    },
};
use nalgebra::{Const, Point, SMatrix, SVector, Unit};
use serde::{Serialize, de::DeserializeOwned};
use std::fmt::Debug;

/// Written to JSON and read back: the same value (Debug text), and the JSON of the read
/// value is the same text.
fn round_trip<X: Serialize + DeserializeOwned + Debug>(x: &X) -> X {
    let json = serde_json::to_string(x).expect("serialize");
    let back: X = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    assert_eq!(format!("{x:?}"), format!("{back:?}"), "{json}");
    assert_eq!(serde_json::to_string(&back).unwrap(), json);
    back
}

fn cloud<T: Real, const D: usize>(rng: &mut Rng, n: usize) -> Vec<Point<T, D>> {
    (0..n)
        .map(|_| p::<T, D>(&Point::from(rng.vector::<D>(-1.0, 1.0))))
        .collect()
}

/// Every shape of dimension `D`, bare and in the enum, nested composites included; a
/// distance on each read-back shape equals the original's.
fn shapes_round_trip<T, const D: usize>()
where
    T: Real + Serialize + DeserializeOwned,
    Const<D>: ShapeDim<T, D> + ContactDim<T, D>,
    <Const<D> as ShapeDim<T, D>>::Extra: Serialize + DeserializeOwned,
    Shape<T, D>: FeatureMap<T, D>,
{
    let mut rng = Rng(11 + D as u64);
    let l = lit::<T>;
    let ball = Ball::new(l(0.5));
    let cuboid = Cuboid::new(v::<T, D>(&SVector::repeat(0.75)));
    let a = p::<T, D>(&Point::from(rng.vector::<D>(-1.0, 1.0)));
    let capsule = Capsule::new(a, Point::origin(), l(0.25));
    let segment = Segment::new(Point::origin(), a);
    let point = PointShape::new(a);
    let hull = Polytope::try_new(cloud::<T, D>(&mut rng, 12)).unwrap();
    let mut m = SMatrix::<T, D, D>::identity() * l(2.0);
    m[(0, D - 1)] = l(0.5); // a shear: not a similarity
    let transformed = Transformed::new(ball, m, v::<T, D>(&SVector::repeat(0.1)));
    round_trip(&ball);
    round_trip(&cuboid);
    round_trip(&capsule);
    round_trip(&segment);
    round_trip(&point);
    round_trip(&hull);
    round_trip(&transformed);
    round_trip(&Rounded::new(cuboid, l(0.1)));
    round_trip(&MinkowskiSum::new(ball, segment));
    round_trip(&Hull::new(capsule, point));

    let scene: Vec<Shape<T, D>> = vec![
        ball.into(),
        cuboid.into(),
        capsule.into(),
        segment.into(),
        point.into(),
        hull.clone().into(),
        Shape::rounded(hull.clone(), l(0.05)).unwrap(),
        Shape::transformed(Shape::sum(ball, segment), m, SVector::zeros()).unwrap(),
        Shape::hull(Shape::rounded(point, l(0.2)).unwrap(), cuboid),
    ];
    let back = round_trip(&scene);
    let tol = Tolerances::default();
    let (pose_b, _) = translation::<T, D>(&SVector::repeat(3.0));
    for (s, r) in scene.iter().zip(&back) {
        let d = query::distance(&Pose::identity(), s, &pose_b, &cuboid, &tol).unwrap();
        let e = query::distance(&Pose::identity(), r, &pose_b, &cuboid, &tol).unwrap();
        assert_eq!(format!("{d:?}"), format!("{e:?}"), "{s:?}");
    }
}
cases!(shapes_round_trip, [2 => d2, 3 => d3]);

/// The 3D-only shapes, bare, in `Revolution` and in the enum (also nested).
fn shapes_3d_round_trip<T: Real + Serialize + DeserializeOwned, const D: usize>() {
    let (cone, cyl) = (
        Cone::new(lit::<T>(1.0), lit(0.5)),
        Cylinder::new(lit::<T>(0.5), lit(2.0)),
    );
    round_trip(&cone);
    round_trip(&cyl);
    round_trip(&Revolution::Cylinder(cyl));
    let scene: Vec<Shape<T, 3>> = vec![
        cone.into(),
        cyl.into(),
        Shape::rounded(cyl, lit(0.125)).unwrap(),
    ];
    round_trip(&scene);
}
cases!(shapes_3d_round_trip, [3 => d3]);

/// Options, motions, bounding volumes and the results of real queries.
fn results_round_trip<T, const D: usize>()
where
    T: Real + Serialize + DeserializeOwned,
    Const<D>: ShapeDim<T, D> + ContactDim<T, D> + RotationDim<T, D>,
    <Const<D> as RotationDim<T, D>>::Angular: Serialize + DeserializeOwned,
    Cuboid<T, D>: FeatureMap<T, D>,
{
    let l = lit::<T>;
    let tol = Tolerances::<T>::default()
        .with_gjk_subalgorithm(Subalgorithm::Johnson)
        .unwrap();
    round_trip(&tol);
    round_trip(&Tolerances::<T>::default());
    let opts = CastOptions::<T> {
        target_distance: l(0.01),
        ..CastOptions::default()
    };
    round_trip(&opts);
    round_trip(&Termination::SeparatingAxis);

    let mut rng = Rng(5);
    let a = Cuboid::new(v::<T, D>(&SVector::repeat(1.0)));
    let b = Ball::new(l(0.5));
    let (pose_a, _) = random_pose::<T, D>(&mut rng, 1.0);
    let (near, _) = translation::<T, D>(&SVector::repeat(0.5));
    let (far, _) = translation::<T, D>(&SVector::repeat(4.0));
    round_trip(&pose_a); // nalgebra's own serde, through the feature
    round_trip(&query::distance(&pose_a, &a, &far, &b, &tol).unwrap());
    round_trip(&query::contact(&pose_a, &a, &near, &b, &tol).unwrap());
    round_trip(&query::contact(&pose_a, &a, &far, &b, &tol).unwrap());
    for margin in [0.1, 10.0] {
        round_trip(&query::distance_within(&pose_a, &a, &far, &b, l(margin), &tol).unwrap());
    }
    round_trip(&query::distance_within(&pose_a, &a, &near, &b, l(0.1), &tol).unwrap());
    for (pose_b, prediction) in [(&far, 0.1), (&far, 10.0), (&near, 0.1)] {
        let r = query::contact_within(&pose_a, &a, pose_b, &b, l(prediction), &tol).unwrap();
        round_trip(&r);
    }
    let (on_top, _) = {
        let mut t = SVector::<f64, D>::zeros();
        t[D - 1] = 1.95;
        translation::<T, D>(&t)
    };
    let m = query::manifold(&Pose::identity(), &a, &on_top, &a, l(0.0), &tol).unwrap();
    assert!(m.len() >= 2);
    round_trip(&m);
    let mut simplex = Simplex::new();
    round_trip(&gjk::intersects(&a, &b, &tol, &mut simplex).unwrap());
    round_trip(&Contact {
        separation: l(-0.25),
        normal: Unit::new_normalize(v::<T, D>(&SVector::repeat(1.0))),
        point_a: Point::origin(),
        point_b: Point::origin(),
        lower_bound: l(-0.25),
        upper_bound: l(-0.125),
        iterations: 7,
        termination: Termination::Converged,
    });

    round_trip(&Aabb::of(&pose_a, &a).unwrap());
    round_trip(&BoundingBall::of(&pose_a, &a).unwrap());
    let ray = Ray::new(
        Point::from(v::<T, D>(&SVector::repeat(-5.0))),
        v(&SVector::repeat(1.0)),
    );
    round_trip(&ray);
    round_trip(&query::cast_ray(&pose_a, &a, &ray, l(10.0), true, &tol).unwrap());
    let motion = LinearMotion::new(far, v::<T, D>(&SVector::repeat(-4.0)));
    round_trip(&motion);
    let still = LinearMotion::new(pose_a, SVector::zeros());
    let cast = query::cast_shapes(&still, &a, &motion, &b, &opts, &tol).unwrap();
    assert!(cast.hit.is_some());
    round_trip(&cast);
    let rigid = RigidMotion::between(&far, &pose_a);
    round_trip(&rigid);
    let toi =
        query::time_of_impact(&RigidMotion::fixed(&pose_a), &a, &rigid, &b, &opts, &tol).unwrap();
    round_trip(&toi);
}
cases!(results_round_trip, [2 => d2, 3 => d3]);

fn rejects<X: DeserializeOwned + Debug>(json: &str, what: &str) {
    match serde_json::from_str::<X>(json) {
        Ok(x) => panic!("accepted {json} as {x:?}"),
        Err(e) => assert!(e.to_string().contains(what), "{json}: {e}"),
    }
}

/// Invalid input is a serde error naming the problem, for bare shapes, shapes deep inside
/// the enum, options, motions and volumes.
#[test]
fn invalid_input_is_rejected() {
    rejects::<Ball<f64>>(r#"{"radius":-1.0}"#, "radius");
    rejects::<Cuboid<f32, 2>>(r#"{"half_extents":[1.0,-0.5]}"#, "half-extent");
    rejects::<Capsule<f64, 3>>(r#"{"a":[0,0,0],"b":[1,0,0],"radius":-0.1}"#, "radius");
    rejects::<Cone<f64>>(r#"{"half_height":-1.0,"radius":1.0}"#, "half-height");
    rejects::<Cylinder<f64>>(r#"{"half_height":1.0,"radius":-2.0}"#, "radius");
    rejects::<Polytope<f64, 3>>(r#"{"points":[]}"#, "at least one point");
    rejects::<Rounded<Ball<f64>, f64>>(r#"{"inner":{"radius":1.0},"radius":-1.0}"#, "radius");
    rejects::<Shape<f64, 3>>(r#"{"Ball":{"radius":-1.0}}"#, "radius");
    // Deep inside a composite.
    rejects::<Shape<f64, 2>>(
        r#"{"Sum":{"a":{"Ball":{"radius":1.0}},"b":{"Rounded":{"inner":{"Polytope":{"points":[]}},"radius":0.1}}}}"#,
        "at least one point",
    );
    // No cones in 2D.
    rejects::<Shape<f64, 2>>(
        r#"{"Extra":{"Cone":{"half_height":1.0,"radius":1.0}}}"#,
        "cylinders are 3D",
    );
    rejects::<Shape<f64, 3>>(r#"{"Capsule":{"a":[0,0,0],"b":[1,0,0]}}"#, "radius");
    // A tolerance out of its range: its setter would refuse it, so it is written here.
    let mut tol = serde_json::to_value(Tolerances::<f64>::default()).unwrap();
    tol["gjk_rel"] = 2.0.into();
    rejects::<Tolerances<f64>>(&tol.to_string(), "gjk_rel");
    rejects::<CastOptions<f64>>(
        &serde_json::to_string(&CastOptions::<f64> {
            max_steps: 0,
            ..Default::default()
        })
        .unwrap(),
        "max_steps",
    );
    rejects::<Aabb<f64, 2>>(r#"{"min":[0.0,2.0],"max":[1.0,1.0]}"#, "min ≤ max");
    rejects::<BoundingBall<f64, 2>>(r#"{"center":[0.0,0.0],"radius":-1.0}"#, "radius");
    // A scaled "rotation" is not a rigid motion.
    let good = serde_json::to_string(&RigidMotion::<f64, 2>::fixed(
        &nalgebra::Isometry2::identity(),
    ))
    .unwrap();
    let bad = good.replacen("1.0", "2.0", 1);
    assert_ne!(good, bad);
    rejects::<RigidMotion<f64, 2>>(&bad, "rotation");
    // A manifold has at most 4 points.
    let pt = r#"{"separation":0.0,"point_a":[0.0,0.0],"point_b":[0.0,0.0],"id":{"a":0,"b":0}}"#;
    let five = format!(r#"{{"normal":[0.0,1.0],"points":[{pt},{pt},{pt},{pt},{pt}]}}"#);
    rejects::<convex_proximity::clip::Manifold<f64, 2>>(&five, "at most 4");
}

/// Fixed-point values travel as their bits (`{"bits": n}`), exactly.
#[cfg(feature = "fixed")]
#[test]
fn fixed_point_travels_as_bits() {
    let r = lit::<Fx>(0.1);
    let json = serde_json::to_string(&Ball::new(r)).unwrap();
    assert_eq!(
        json,
        format!(
            r#"{{"radius":{{"bits":{}}}}}"#,
            (0.1f64 * (1u64 << 24) as f64).round() as i64
        )
    );
    let back: Ball<Fx> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.radius, r);
    rejects::<Ball<Fx>>(r#"{"radius":{"bits":-5}}"#, "radius");
}
