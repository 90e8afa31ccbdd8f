//! `query::manifold` against exact geometry: resting, stacked and rotated boxes, capsules
//! and balls on boxes, 2D rectangles; feature-id stability. f32, f64 and FixedI40F24.
// Reproductions keep the exact decimal inputs they were found with.
#![allow(clippy::excessive_precision)]

mod common;
use common::*;
use convex_proximity::{
    Real, Tolerances, lit, query,
    shape::{Ball, Capsule, Cuboid},
};
use convex_proximity::{
    clip::{FeatureId, FeatureMap},
    epa::ContactDim,
    shape::Polytope,
};
use nalgebra::{
    Const, Isometry2, Isometry3, Point, Point2, Point3, SVector, Translation3, UnitQuaternion,
    Vector2, Vector3,
};

fn tol<T: Real>() -> Tolerances<T> {
    Tolerances::default()
}

/// The accuracy for unit-scale contacts.
fn acc<T: Real>() -> f64 {
    accuracy::<T>(1.0).max(1e-6)
}

/// A cube of half-size 0.5 resting on a slab (top face y = 0), sunk by `depth`, shifted in
/// x/z: four points, exactly the cube's bottom corners, separation −depth each.
fn box_on_box_face_to_face<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    for (depth, dx, dz) in [(0.01, 0.0, 0.0), (0.1, 0.7, -1.3), (0.0, 0.2, 0.3)] {
        let pb = Isometry3::translation(lit::<T>(dx), lit(0.5 - depth), lit(dz));
        let m = query::manifold(&pa, &slab, &pb, &cube, lit(0.0), &tol()).unwrap();
        assert_eq!(m.len(), 4, "{m:?}");
        assert!((f(m.normal.y) - 1.0).abs() < acc::<T>(), "{m:?}");
        for p in m.points() {
            assert!((f(p.separation) + depth).abs() <= acc::<T>(), "{p:?}");
            // point_b is a bottom corner of the cube, point_a right below it on the slab.
            let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
            assert!(
                ((qb.x - dx).abs() - 0.5).abs() <= acc::<T>()
                    && ((qb.z - dz).abs() - 0.5).abs() <= acc::<T>(),
                "{p:?}"
            );
            assert!(
                (qb.y + depth).abs() <= acc::<T>() && qa.y.abs() <= acc::<T>(),
                "{p:?}"
            );
            assert!(
                (qa.x - qb.x).abs() <= acc::<T>() && (qa.z - qb.z).abs() <= acc::<T>(),
                "{p:?}"
            );
        }
        // The deepest point agrees with `contact`.
        let c = query::contact(&pa, &slab, &pb, &cube, &tol()).unwrap();
        let deepest = m
            .points()
            .iter()
            .map(|p| f(p.separation))
            .fold(f64::INFINITY, f64::min);
        assert!(
            (deepest - f(c.separation)).abs() <= acc::<T>(),
            "{deepest} vs {c:?}"
        );
    }
}

/// A cube tilted 45° about z resting on an edge: two points along that edge.
fn box_edge_on_face<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let h = 0.5 * 2f64.sqrt();
    let pb = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.0), lit(h - 0.02), lit(0.0)),
        UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_4).cast::<T>(),
    );
    let m = query::manifold(&pa, &slab, &pb, &cube, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((f(p.separation) + 0.02).abs() <= 10.0 * acc::<T>(), "{p:?}");
        let qb = pback(&p.point_b);
        assert!(
            qb.x.abs() <= 10.0 * acc::<T>() && (qb.z.abs() - 0.5).abs() <= 10.0 * acc::<T>(),
            "{p:?}"
        );
    }
}

/// A cube standing on a corner: one point.
fn box_vertex_on_face<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    // Rotate so that the corner (−,−,−) points straight down.
    let q = UnitQuaternion::rotation_between(
        &Vector3::new(-1.0, -1.0, -1.0),
        &Vector3::new(0.0, -1.0, 0.0),
    )
    .unwrap();
    let h = 0.5 * 3f64.sqrt();
    let pb = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.3), lit(h - 0.01), lit(0.0)),
        q.cast::<T>(),
    );
    let m = query::manifold(&pa, &slab, &pb, &cube, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    let p = m.points()[0];
    assert!((f(p.separation) + 0.01).abs() <= 10.0 * acc::<T>(), "{p:?}");
    assert!(
        (pback(&p.point_b).x - 0.3).abs() <= 10.0 * acc::<T>(),
        "{p:?}"
    );
}

/// A capsule lying on a box: two points (its segment's ends), separation from the radius.
fn capsule_on_box<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cap = Capsule::new(
        Point3::new(lit::<T>(-0.6), lit(0.0), lit(0.0)),
        Point3::new(lit(0.6), lit(0.0), lit(0.0)),
        lit(0.2),
    );
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let pb = Isometry3::new(
        Vector3::new(lit::<T>(0.1), lit(0.19), lit(0.4)),
        Vector3::new(lit(0.0), lit(0.7), lit(0.0)),
    );
    let m = query::manifold(&pa, &slab, &pb, &cap, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((f(p.separation) + 0.01).abs() <= 10.0 * acc::<T>(), "{p:?}");
        assert!(
            (pback(&p.point_b).y + 0.01).abs() <= 10.0 * acc::<T>(),
            "{p:?}"
        );
    }
}

/// A ball on a box, and on a rotated box: one point, at the ball's lowest point.
fn ball_on_box<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let ball = Ball::new(lit::<T>(0.3));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let pb = Isometry3::translation(lit::<T>(0.2), lit(0.28), lit(-0.1));
    let m = query::manifold(&pa, &slab, &pb, &ball, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    let p = m.points()[0];
    assert!((f(p.separation) + 0.02).abs() <= 10.0 * acc::<T>(), "{p:?}");
    let qb = pback(&p.point_b);
    assert!(
        (qb.x - 0.2).abs() <= 10.0 * acc::<T>() && (qb.y + 0.02).abs() <= 10.0 * acc::<T>(),
        "{p:?}"
    );
    // Apart beyond the prediction: empty; within it: a speculative point.
    let far = Isometry3::translation(lit::<T>(0.2), lit(0.35), lit(-0.1));
    assert!(
        query::manifold(&pa, &slab, &far, &ball, lit(0.0), &tol())
            .unwrap()
            .is_empty()
    );
    let m = query::manifold(&pa, &slab, &far, &ball, lit(0.1), &tol()).unwrap();
    assert_eq!(m.len(), 1);
    assert!(
        (f(m.points()[0].separation) - 0.05).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
}

/// 2D: a rectangle on a rectangle (2 points), tilted on a corner (1 point).
fn rectangles_2d<T: Real>() {
    let ground = Cuboid::new(Vector2::new(lit::<T>(5.0), lit(0.5)));
    let r = Cuboid::new(Vector2::new(lit::<T>(0.4), lit(0.2)));
    let pa = Isometry2::translation(lit::<T>(0.0), lit(-0.5));
    let pb = Isometry2::translation(lit::<T>(0.3), lit(0.19));
    let m = query::manifold(&pa, &ground, &pb, &r, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|p| pback(&p.point_b).x).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] + 0.1).abs() <= 10.0 * acc::<T>() && (xs[1] - 0.7).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
    for p in m.points() {
        assert!((f(p.separation) + 0.01).abs() <= 10.0 * acc::<T>(), "{p:?}");
    }
    // Lowest corner at 0.4·sin 0.5 + 0.2·cos 0.5 = 0.367 below the centre: 0.007 deep.
    let tilted = Isometry2::new(Vector2::new(lit::<T>(0.0), lit(0.36)), lit(0.5));
    let c = query::contact(&pa, &ground, &tilted, &r, &tol()).unwrap();
    let m = query::manifold(&pa, &ground, &tilted, &r, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        (f(m.points()[0].separation) - f(c.separation)).abs() <= 10.0 * acc::<T>(),
        "{m:?} vs {c:?}"
    );
    let _ = Point2::new(lit::<T>(0.0), lit(0.0));
}

/// Every point lies on both shapes (support values along ± the normal) and within
/// `point_b − point_a ≈ separation · normal`, for random rotated box pairs; the deepest
/// agrees with `contact`.
fn rotated_boxes_points_on_shapes<T: Real>() {
    let mut rng = Rng(41);
    for i in 0..100 {
        let ha: Vector3<f64> = rng.vector(0.2, 0.8);
        let hb: Vector3<f64> = rng.vector(0.2, 0.8);
        let pa = Isometry3::new(
            v::<T, 3>(&Vector3::zeros()),
            v::<T, 3>(&rng.vector(-3.0, 3.0)),
        );
        let pb = Isometry3::new(
            v::<T, 3>(&rng.vector(-0.9, 0.9)),
            v::<T, 3>(&rng.vector(-3.0, 3.0)),
        );
        let (a, b) = (Cuboid::new(v::<T, 3>(&ha)), Cuboid::new(v::<T, 3>(&hb)));
        let c = query::contact(&pa, &a, &pb, &b, &tol()).unwrap();
        let m = query::manifold(&pa, &a, &pb, &b, lit(0.05), &tol()).unwrap();
        if f(c.separation) > 0.05 {
            assert!(m.is_empty(), "#{i}");
            continue;
        }
        assert!(!m.is_empty() && m.len() <= 4, "#{i}: {m:?}");
        let n = back(&m.normal.into_inner());
        let slack = 1e-3f64.max(acc::<T>());
        for p in m.points() {
            let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
            assert!(f(p.separation) <= 0.05 + slack, "#{i}: {p:?}");
            // On A's boundary along n, on B's along −n (within the points' depth below it).
            assert!(
                n.dot(&qa.coords) <= support_value(&pa, &a, &n) + slack,
                "#{i}: {p:?}"
            );
            assert!(
                -n.dot(&qb.coords) <= support_value(&pb, &b, &-n) + slack,
                "#{i}: {p:?}"
            );
            assert!(
                ((qb - qa).dot(&n) - f(p.separation)).abs() <= slack,
                "#{i}: {p:?}"
            );
        }
        let deepest = m
            .points()
            .iter()
            .map(|p| f(p.separation))
            .fold(f64::INFINITY, f64::min);
        assert!(
            deepest <= f(c.separation) + 0.02,
            "#{i}: deepest {deepest} vs contact {c:?}"
        );
    }
}

/// Feature ids stay equal under a tiny motion and change when the touching faces change.
fn feature_ids_are_stable<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let at = |dx: f64, ang: f64| {
        Isometry3::from_parts(
            Translation3::new(lit::<T>(dx), lit(0.49), lit(0.0)),
            UnitQuaternion::from_euler_angles(0.0, ang, 0.0).cast::<T>(),
        )
    };
    let ids = |pose: &Isometry3<T>| {
        let m = query::manifold(&pa, &slab, pose, &cube, lit(0.0), &tol()).unwrap();
        let mut v: Vec<(u32, u32)> = m
            .points()
            .iter()
            .map(|p| (p.id.a.get(), p.id.b.get()))
            .collect();
        v.sort();
        v
    };
    let base = ids(&at(0.0, 0.1));
    assert_eq!(base.len(), 4);
    assert_eq!(ids(&at(0.001, 0.1001)), base, "a tiny motion keeps the ids");
    // Rolled onto another face (90° about x): the cube's bottom face changes.
    let rolled = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.0), lit(0.49), lit(0.0)),
        UnitQuaternion::from_euler_angles(std::f64::consts::FRAC_PI_2, 0.1, 0.0).cast::<T>(),
    );
    assert_ne!(ids(&rolled), base, "other faces, other ids");
}

/// Polytopes use their hull faces: two cube-shaped hulls face to face give the 4 corners,
/// 2D squares the 2 ends, and a large sphere-like hull on a slab one point.
fn hull_on_hull<T: Real>() {
    let corners3 = |h: f64| -> Vec<Point3<T>> {
        (0..8)
            .map(|i| {
                let s = |b: usize| if i & b == 0 { -h } else { h };
                Point3::new(lit::<T>(s(1)), lit(s(2)), lit(s(4)))
            })
            .collect()
    };
    let big = convex_proximity::shape::Polytope::try_new(corners3(1.0)).unwrap();
    let small = convex_proximity::shape::Polytope::try_new(corners3(0.5)).unwrap();
    let pa = Isometry3::identity();
    let pb = Isometry3::translation(lit::<T>(0.2), lit(1.48), lit(-0.1));
    let m = query::manifold(&pa, &big, &pb, &small, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
    for p in m.points() {
        assert!((f(p.separation) + 0.02).abs() <= acc::<T>(), "{p:?}");
    }
    let sq = |h: f64| -> Vec<Point2<T>> {
        [(-h, -h), (h, -h), (h, h), (-h, h)]
            .iter()
            .map(|&(x, y)| Point2::new(lit::<T>(x), lit(y)))
            .collect()
    };
    let (a2, b2) = (
        convex_proximity::shape::Polytope::try_new(sq(1.0)).unwrap(),
        convex_proximity::shape::Polytope::try_new(sq(0.5)).unwrap(),
    );
    let m = query::manifold(
        &Isometry2::identity(),
        &a2,
        &Isometry2::translation(lit::<T>(1.49), lit(0.3)),
        &b2,
        lit(0.0),
        &tol(),
    )
    .unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    for p in m.points() {
        assert!((f(p.separation) + 0.01).abs() <= acc::<T>(), "{p:?}");
    }
    // A 500-vertex sphere-like hull resting on a slab: one point at the bottom.
    let mut rng = Rng(43);
    let ball = convex_proximity::shape::Polytope::try_new(
        rng.sphere_points::<3>(500, nalgebra::SVector::zeros(), 0.5)
            .iter()
            .map(p::<T, 3>)
            .collect(),
    )
    .unwrap();
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let c = query::contact(
        &Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0)),
        &slab,
        &Isometry3::translation(lit::<T>(0.0), lit(0.45), lit(0.0)),
        &ball,
        &tol(),
    )
    .unwrap();
    let m = query::manifold(
        &Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0)),
        &slab,
        &Isometry3::translation(lit::<T>(0.0), lit(0.45), lit(0.0)),
        &ball,
        lit(0.0),
        &tol(),
    )
    .unwrap();
    assert!(!m.is_empty() && m.len() <= 4, "{m:?}");
    let deepest = m
        .points()
        .iter()
        .map(|p| f(p.separation))
        .fold(f64::INFINITY, f64::min);
    assert!(
        (deepest - f(c.separation)).abs() <= 10.0 * acc::<T>(),
        "{m:?} vs {c:?}"
    );
}

/// Cylinders and cones: standing on a cap (its rim points, reduced to 4), lying on the side
/// (2 points along the touching generator).
fn cylinders_and_cones<T: Real>() {
    use convex_proximity::shape::{Cone, Cylinder};
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let cyl = Cylinder::new(lit::<T>(0.4), lit::<T>(0.3));
    // Standing: bottom cap at y = −0.01.
    let m = query::manifold(
        &pa,
        &slab,
        &Isometry3::translation(lit::<T>(0.1), lit(0.39), lit(0.0)),
        &cyl,
        lit(0.0),
        &tol(),
    )
    .unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
    for p in m.points() {
        let qb = pback(&p.point_b);
        assert!((f(p.separation) + 0.01).abs() <= 10.0 * acc::<T>(), "{p:?}");
        assert!(
            (((qb.x - 0.1).powi(2) + qb.z.powi(2)).sqrt() - 0.3).abs() <= 10.0 * acc::<T>(),
            "on the rim: {p:?}"
        );
    }
    // Lying along x: the side generator at y = −0.01, from x = −0.4 to 0.4.
    let lying = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.0), lit(0.29), lit(0.0)),
        UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_2).cast::<T>(),
    );
    let m = query::manifold(&pa, &slab, &lying, &cyl, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|p| pback(&p.point_b).x).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] + 0.4).abs() <= 10.0 * acc::<T>() && (xs[1] - 0.4).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
    // A cone on its base.
    let cone = Cone::new(lit::<T>(0.5), lit::<T>(0.3));
    let m = query::manifold(
        &pa,
        &slab,
        &Isometry3::translation(lit::<T>(0.0), lit(0.49), lit(0.0)),
        &cone,
        lit(0.0),
        &tol(),
    )
    .unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
    assert!(
        m.points()
            .iter()
            .all(|p| (f(p.separation) + 0.01).abs() <= 10.0 * acc::<T>()),
        "{m:?}"
    );
}

/// Under a tiny motion the points move by about as much and keep their ids, for a box, a
/// cube-shaped hull and a cylinder resting on a slab (a solver warm-starts on that).
fn points_move_continuously<T: Real>() {
    use convex_proximity::shape::{Cylinder, Polytope};
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let corners: Vec<Point3<T>> = (0..8)
        .map(|i| {
            let s = |b: usize| if i & b == 0 { -0.5 } else { 0.5 };
            Point3::new(lit::<T>(s(1)), lit(s(2)), lit(s(4)))
        })
        .collect();
    let hull = Polytope::try_new(corners).unwrap();
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let cyl = Cylinder::new(lit::<T>(0.5), lit::<T>(0.4));
    let shapes: [&dyn convex_proximity::clip::FeatureMap<T, 3>; 3] = [&cube, &hull, &cyl];
    let step = 1e-3;
    for (k, shape) in shapes.iter().enumerate() {
        let at = |dx: f64, ang: f64| {
            Isometry3::from_parts(
                Translation3::new(lit::<T>(0.1 + dx), lit(0.49), lit(0.0)),
                UnitQuaternion::from_euler_angles(0.0, 0.2 + ang, 0.0).cast::<T>(),
            )
        };
        let m0 = query::manifold(&pa, &slab, &at(0.0, 0.0), *shape, lit(0.0), &tol()).unwrap();
        let m1 = query::manifold(&pa, &slab, &at(step, step), *shape, lit(0.0), &tol()).unwrap();
        assert!(
            m0.len() >= 3 && m0.len() == m1.len(),
            "shape {k}: {m0:?} / {m1:?}"
        );
        for p in m0.points() {
            let q = m1
                .points()
                .iter()
                .find(|q| q.id == p.id)
                .unwrap_or_else(|| panic!("shape {k}: id {:?} lost", p.id));
            // A rotation by `step` moves points 0.7 from the axis by 0.7·step, plus `step`.
            let moved = (pback(&q.point_b) - pback(&p.point_b)).norm();
            assert!(
                moved <= 3.0 * step + 10.0 * acc::<T>(),
                "shape {k}: point moved {moved}"
            );
        }
    }
}

/// Signed distance from `x` to conv(`pts`) where it is inside or on the boundary: the
/// largest facet-plane offset (0 on the boundary, > 0 outside).
fn plane_distance<const D: usize>(pts: &[Point<f64, D>], x: &Point<f64, D>) -> f64 {
    facet_normals(pts)
        .iter()
        .map(|n| n.dot(&x.coords) - vertex_support(pts, n))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Checks a manifold of two polytopes (world vertices `wa`, `wb`) against exact geometry:
/// every point on both boundaries, `point_b − point_a = separation · normal`, no pair deeper
/// than the SAT depth, the deepest equal to it, and the normal on a unique SAT axis.
#[allow(clippy::too_many_arguments)]
fn check_exact<T: Real, const D: usize, A, B>(
    what: &str,
    pa: &Pose<T, D>,
    a: &A,
    pb: &Pose<T, D>,
    b: &B,
    wa: &[Point<f64, D>],
    wb: &[Point<f64, D>],
    scale: f64,
) -> bool
where
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D>,
    B: FeatureMap<T, D>,
{
    let sat = sat_depth(wa, wb, scale);
    if sat.depth <= 0.0 {
        return false;
    }
    let m = query::manifold(pa, a, pb, b, lit(0.0), &tol()).unwrap();
    let acc = 10.0 * accuracy::<T>(scale).max(32.0 * f(T::default_epsilon()) * scale);
    let cap = if D == 2 { 2 } else { 4 };
    assert!(!m.is_empty() && m.len() <= cap, "{what}: {m:?}");
    let n = back(&m.normal.into_inner());
    assert!((n.norm() - 1.0).abs() <= 1e-3, "{what}: {m:?}");
    if sat.unique {
        let cos = n.dot(&sat.axis).clamp(-1.0, 1.0);
        let limit = if accuracy::<T>(1.0) < 1e-6 {
            1e-6
        } else {
            1e-3
        };
        assert!(cos.acos() <= limit, "{what}: normal {n:?} vs SAT {sat:?}");
    }
    let mut deepest = f64::INFINITY;
    for p in m.points() {
        let (qa, qb, sep) = (pback(&p.point_a), pback(&p.point_b), f(p.separation));
        deepest = deepest.min(sep);
        assert!(sep >= -sat.depth - acc, "{what}: {p:?} deeper than {sat:?}");
        assert!(plane_distance(wa, &qa).abs() <= acc, "{what}: {p:?} off A");
        assert!(plane_distance(wb, &qb).abs() <= acc, "{what}: {p:?} off B");
        assert!(
            ((qb - qa) - n * sep).norm() <= acc,
            "{what}: {p:?} not along the normal {n:?}"
        );
    }
    assert!(
        (deepest + sat.depth).abs() <= acc,
        "{what}: deepest {deepest} vs SAT {sat:?}: {m:?}"
    );
    true
}

/// Random rotated boxes and random hulls, overlapping, against exact geometry (SAT depth and
/// axis, every point on both boundaries along the normal), at three scales.
fn exact_geometry<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let mut rng = Rng(404);
    let scales: &[f64] = if is_fixed::<T>() {
        &[1.0]
    } else {
        &[1e-2, 1.0, 1e2]
    };
    for &s in scales {
        let mut overlapping = 0;
        for i in 0..80 {
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.5 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.5 * s);
            let what = format!("#{i} scale {s}");
            if i % 2 == 0 {
                let ha = v::<T, D>(&rng.vector(0.1 * s, s));
                let hb = v::<T, D>(&rng.vector(0.1 * s, s));
                let (wa, wb) = (box_vertices(&back(&ha), &fa), box_vertices(&back(&hb), &fb));
                let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
                overlapping +=
                    check_exact(&format!("boxes {what}"), &pa, &a, &pb, &b, &wa, &wb, s) as usize;
            } else {
                let hull = |rng: &mut Rng| {
                    let k = 5 + rng.next_u64() as usize % 8;
                    let r = s * rng.uniform(0.4, 1.0);
                    let pts = rng.sphere_points(k, SVector::zeros(), r);
                    Polytope::<T, D>::try_new(pts.iter().map(p::<T, D>).collect()).unwrap()
                };
                let (a, b) = (hull(&mut rng), hull(&mut rng));
                let world = |q: &Polytope<T, D>, pose: &Pose<f64, D>| -> Vec<Point<f64, D>> {
                    q.points()
                        .iter()
                        .map(|x| pose.transform_point(&pback(x)))
                        .collect()
                };
                let (wa, wb) = (world(&a, &fa), world(&b, &fb));
                overlapping +=
                    check_exact(&format!("hulls {what}"), &pa, &a, &pb, &b, &wa, &wb, s) as usize;
            }
        }
        assert!(overlapping >= 30, "only {overlapping} overlapping pairs");
    }
}
cases!(exact_geometry, [2 => d2, 3 => d3]);

/// Two cubes crossing edge over edge (A's top edge along x, B's bottom edge along z): one
/// point where the edges cross, along +y, exactly the sunk depth; with the edges parallel
/// the faces beside them are too, and the contact is face to face.
fn edge_over_edge<T: Real>() {
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let h = 0.5 * 2f64.sqrt();
    let q = |axis: Vector3<f64>| {
        UnitQuaternion::from_axis_angle(
            &nalgebra::Unit::new_normalize(axis),
            std::f64::consts::FRAC_PI_4,
        )
        .cast::<T>()
    };
    let pa = Isometry3::from_parts(Translation3::identity(), q(Vector3::x()));
    let depth = 0.01;
    let pb = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.0), lit(2.0 * h - depth), lit(0.0)),
        q(Vector3::z()),
    );
    let m = query::manifold(&pa, &cube, &pb, &cube, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    assert!((f(m.normal.y) - 1.0).abs() <= 10.0 * acc::<T>(), "{m:?}");
    let p = m.points()[0];
    assert!(
        (f(p.separation) + depth).abs() <= 10.0 * acc::<T>(),
        "{p:?}"
    );
    let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
    assert!(
        (qa - Point3::new(0.0, h, 0.0)).norm() <= 10.0 * acc::<T>(),
        "{p:?}"
    );
    assert!(
        (qb - Point3::new(0.0, h - depth, 0.0)).norm() <= 10.0 * acc::<T>(),
        "{p:?}"
    );
    // Both turned about x: the edges are parallel, and so are two faces of each; the depth
    // is along those faces' normal, depth·cos 45°, over the edges' overlap x ∈ [−0.2, 0.5].
    let pb = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.3), lit(2.0 * h - depth), lit(0.0)),
        q(Vector3::x()),
    );
    let m = query::manifold(&pa, &cube, &pb, &cube, lit(0.0), &tol()).unwrap();
    assert!(m.len() >= 2, "{m:?}");
    let xs: Vec<f64> = m.points().iter().map(|p| pback(&p.point_a).x).collect();
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, u), &x| {
            (l.min(x), u.max(x))
        });
    assert!(
        (lo + 0.2).abs() <= 10.0 * acc::<T>() && (hi - 0.5).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
    for p in m.points() {
        assert!(
            (f(p.separation) + depth / 2f64.sqrt()).abs() <= 10.0 * acc::<T>(),
            "{p:?}"
        );
    }
}

/// Two capsules lying parallel, one on the other: two points at the ends of their overlap;
/// crossing at an angle: one point.
fn parallel_capsules<T: Real>() {
    let cap = Capsule::new(
        Point3::new(lit::<T>(-1.0), lit(0.0), lit(0.0)),
        Point3::new(lit(1.0), lit(0.0), lit(0.0)),
        lit(0.25),
    );
    let pa = Isometry3::identity();
    let pb = Isometry3::translation(lit::<T>(0.6), lit(0.48), lit(0.0));
    let m = query::manifold(&pa, &cap, &pb, &cap, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    let mut xs: Vec<f64> = m.points().iter().map(|p| pback(&p.point_a).x).collect();
    xs.sort_by(f64::total_cmp);
    assert!(
        (xs[0] + 0.4).abs() <= 10.0 * acc::<T>() && (xs[1] - 1.0).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
    for p in m.points() {
        assert!((f(p.separation) + 0.02).abs() <= 10.0 * acc::<T>(), "{p:?}");
        assert!(
            (pback(&p.point_a).y - 0.25).abs() <= 10.0 * acc::<T>(),
            "{p:?}"
        );
        assert!(
            (pback(&p.point_b).y - 0.23).abs() <= 10.0 * acc::<T>(),
            "{p:?}"
        );
    }
    let crossing = Isometry3::new(
        Vector3::new(lit::<T>(0.6), lit(0.48), lit(0.0)),
        Vector3::new(lit(0.0), lit(0.3), lit(0.0)),
    );
    let m = query::manifold(&pa, &cap, &crossing, &cap, lit(0.0), &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        (f(m.points()[0].separation) + 0.02).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
}

/// A box tilted by 1° resting on a slab, with the box as A and as B: both orders give the
/// same points, at the corners' exact heights, along the slab's normal.
fn tilted_box_either_order<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let ps = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let tilt = 1f64.to_radians();
    let low = 0.5 * tilt.cos() + 0.5 * tilt.sin();
    let pc = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.2), lit(low - 0.01), lit(0.0)),
        UnitQuaternion::from_euler_angles(0.0, 0.0, tilt).cast::<T>(),
    );
    for swap in [false, true] {
        let m = if swap {
            query::manifold(&pc, &cube, &ps, &slab, lit(0.05), &tol()).unwrap()
        } else {
            query::manifold(&ps, &slab, &pc, &cube, lit(0.05), &tol()).unwrap()
        };
        assert_eq!(m.len(), 4, "swap {swap}: {m:?}");
        let sign = if swap { -1.0 } else { 1.0 };
        assert!((f(m.normal.y) - sign).abs() <= 10.0 * acc::<T>(), "{m:?}");
        let mut seps: Vec<f64> = m.points().iter().map(|p| f(p.separation)).collect();
        seps.sort_by(f64::total_cmp);
        // Two corners 0.01 deep, two lifted by the bottom face's rise, 1·sin 1°.
        for (k, s) in seps.iter().enumerate() {
            let want = if k < 2 { -0.01 } else { tilt.sin() - 0.01 };
            assert!(
                (s - want).abs() <= 10.0 * acc::<T>(),
                "swap {swap}: {seps:?} vs {want}"
            );
        }
        for p in m.points() {
            let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
            let on_slab = if swap { qb } else { qa };
            assert!(on_slab.y.abs() <= 10.0 * acc::<T>(), "swap {swap}: {p:?}");
        }
    }
}

/// A rounded box and a rounded hull resting on a slab: the core's 4 bottom corners pushed
/// down by the radius; a box under a non-uniform scale, and under a reflection, likewise;
/// a rounded box under a non-uniform scale (no core in the image): its one deepest point.
fn rounded_and_transformed<T: Real>() {
    use convex_proximity::shape::{Rounded, Transformed};
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let pa = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let unit = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let corners: Vec<Point3<T>> = (0..8)
        .map(|i| {
            let s = |b: usize| if i & b == 0 { -0.4 } else { 0.4 };
            Point3::new(lit::<T>(s(1)), lit(s(2)), lit(s(4)))
        })
        .collect();
    let rounded_box = Rounded::new(
        Cuboid::new(Vector3::new(lit::<T>(0.4), lit(0.4), lit(0.4))),
        lit(0.1),
    );
    let rounded_hull = Rounded::new(Polytope::try_new(corners).unwrap(), lit::<T>(0.1));
    let stretched = Transformed::scaled(unit, Vector3::new(lit::<T>(2.0), lit(1.0), lit(0.6)));
    let mirrored = Transformed::scaled(unit, Vector3::new(lit::<T>(-1.0), lit(1.0), lit(1.0)));
    let at = |half: f64, dx: f64| {
        Isometry3::from_parts(
            Translation3::new(lit::<T>(dx), lit(half - 0.02), lit(0.1)),
            UnitQuaternion::from_euler_angles(0.0, 0.3, 0.0).cast::<T>(),
        )
    };
    let cases: [(&dyn FeatureMap<T, 3>, f64, &str); 4] = [
        (&rounded_box, 0.5, "rounded box"),
        (&rounded_hull, 0.5, "rounded hull"),
        (&stretched, 0.5, "stretched box"),
        (&mirrored, 0.5, "mirrored box"),
    ];
    for (shape, half, what) in cases {
        let m = query::manifold(&pa, &slab, &at(half, 0.2), shape, lit(0.0), &tol()).unwrap();
        assert_eq!(m.len(), 4, "{what}: {m:?}");
        assert!(
            (f(m.normal.y) - 1.0).abs() <= 10.0 * acc::<T>(),
            "{what}: {m:?}"
        );
        for p in m.points() {
            assert!(
                (f(p.separation) + 0.02).abs() <= 10.0 * acc::<T>(),
                "{what}: {p:?}"
            );
            let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
            assert!(qa.y.abs() <= 10.0 * acc::<T>(), "{what}: {p:?}");
            assert!((qb.y + 0.02).abs() <= 10.0 * acc::<T>(), "{what}: {p:?}");
        }
    }
    // Stretched along x and y, so its lowest point is on the rounded bottom face.
    let oval = Transformed::scaled(rounded_box, Vector3::new(lit::<T>(2.0), lit(1.0), lit(1.0)));
    let m = query::manifold(&pa, &slab, &at(0.5, 0.0), &oval, lit(0.0), &tol()).unwrap();
    let c = query::contact(&pa, &slab, &at(0.5, 0.0), &oval, &tol()).unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(
        (f(m.points()[0].separation) - f(c.separation)).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
}

/// Long sequences: a box sliding and turning over a slab (1000 steps), rocking ±3° on it
/// (600 steps, prediction 0.1 keeps the lifted corners), and a tower of three boxes under
/// random jitter (400 steps), each both ways round (A below, then A above). Every step keeps
/// the 4 ids and moves each point by at most about the motion of the shapes.
fn long_sequences_are_stable<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let flat = Cuboid::new(Vector3::new(lit::<T>(0.6), lit(0.3), lit(0.4)));
    let ground = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    // A pose from (x, y, z, yaw, roll) in f64.
    let pose = |q: [f64; 5]| {
        Isometry3::from_parts(
            Translation3::new(lit::<T>(q[0]), lit(q[1]), lit(q[2])),
            UnitQuaternion::from_euler_angles(q[4], q[3], 0.0).cast::<T>(),
        )
    };
    let mut rng = Rng(77);
    // Each sequence: the lower and upper shape's poses per step, and the motion bound.
    type Seq<T> = Vec<(Isometry3<T>, Isometry3<T>, f64)>;
    let slide: Seq<T> = (0..1000)
        .map(|k| {
            let t = k as f64 / 1000.0;
            (
                ground,
                pose([-2.0 + 4.0 * t, 0.49, 0.5 * t, 2.0 * t, 0.0]),
                4e-3 + 2e-3,
            )
        })
        .collect();
    let rock: Seq<T> = (0..600)
        .map(|k| {
            let roll = 0.05 * (k as f64 / 600.0 * std::f64::consts::TAU).sin();
            let low = 0.5 * roll.cos() + 0.5 * roll.abs().sin();
            (ground, pose([0.3, low - 0.01, 0.0, 0.4, roll]), 1e-3)
        })
        .collect();
    let mut jitter: Seq<T> = Vec::new();
    let (mut q1, mut q2) = (
        [0.0, 0.29, 0.0, 0.1, 0.0],
        [0.1, 0.29 + 0.6 - 0.005, 0.05, -0.2, 0.0],
    );
    for _ in 0..400 {
        for q in [&mut q1, &mut q2] {
            for (i, x) in q.iter_mut().take(4).enumerate() {
                *x += rng.uniform(-1e-4, 1e-4) * if i == 1 { 0.1 } else { 1.0 };
            }
        }
        jitter.push((pose(q1), pose(q2), 2e-3));
    }
    type Run<'r, T> = (
        &'r dyn FeatureMap<T, 3>,
        &'r dyn FeatureMap<T, 3>,
        &'r Seq<T>,
        &'r str,
    );
    let runs: [Run<T>; 4] = [
        (&slab, &cube, &slide, "slide"),
        (&slab, &cube, &rock, "rock"),
        (&flat, &flat, &jitter, "stack"),
        (
            &slab,
            &flat,
            &jitter.iter().map(|s| (ground, s.0, s.2)).collect(),
            "stack base",
        ),
    ];
    for (lower, upper, seq, what) in runs {
        for swap in [false, true] {
            let mut prev: Option<convex_proximity::clip::Manifold<T, 3>> = None;
            for (k, (pl, pu, bound)) in seq.iter().enumerate() {
                let m = if swap {
                    query::manifold(pu, upper, pl, lower, lit(0.1), &tol()).unwrap()
                } else {
                    query::manifold(pl, lower, pu, upper, lit(0.1), &tol()).unwrap()
                };
                assert_eq!(m.len(), 4, "{what} swap {swap} step {k}: {m:?}");
                if let Some(p) = prev {
                    for a in p.points() {
                        let b = m.points().iter().find(|b| b.id == a.id).unwrap_or_else(|| {
                            panic!(
                                "{what} swap {swap} step {k}: id {:?} lost: {p:?} -> {m:?}",
                                a.id
                            )
                        });
                        let moved = (pback(&b.point_a) - pback(&a.point_a)).norm();
                        assert!(
                            moved <= 4.0 * bound + 10.0 * acc::<T>(),
                            "{what} swap {swap} step {k}: moved {moved}"
                        );
                    }
                }
                prev = Some(m);
            }
        }
    }
}

/// Contact polygons with more than 4 corners at one depth (a cube turned 45° on a cube: an
/// octagon; a cylinder on its cap: 8 rim points) reduce to 4 points, the same 4 ids under
/// 200 small horizontal moves and turns about the normal: ties in depth, distance and area
/// go to the smallest id, not to rounding.
fn reduction_ties_keep_ids<T: Real>() {
    use convex_proximity::shape::Cylinder;
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let cyl = Cylinder::new(lit::<T>(0.5), lit::<T>(0.4));
    let pa = Isometry3::translation(0.0, -0.5, 0.0);
    let shapes: [(&dyn FeatureMap<T, 3>, f64, &str); 2] = [
        (&cube, std::f64::consts::FRAC_PI_4, "turned cube"),
        (&cyl, 0.1, "cylinder"),
    ];
    let mut rng = Rng(5);
    let step = 10.0 * acc::<T>();
    for (shape, yaw, what) in shapes {
        let (mut x, mut z, mut turn) = (0.05, -0.03, yaw);
        let mut ids: Option<Vec<FeatureId>> = None;
        for k in 0..200 {
            // The whole scene turned by a generic rotation: depths equal up to rounding.
            let world = Isometry3::from_parts(
                Translation3::new(0.3, -0.2, 0.7),
                UnitQuaternion::from_euler_angles(0.4, -0.7, 1.1),
            );
            let pb = world
                * Isometry3::from_parts(
                    Translation3::new(x, 0.49, z),
                    UnitQuaternion::from_euler_angles(0.0, turn, 0.0),
                );
            let m = query::manifold(
                &(world * pa).cast::<T>(),
                &cube,
                &pb.cast::<T>(),
                shape,
                lit(0.0),
                &tol(),
            )
            .unwrap();
            assert_eq!(m.len(), 4, "{what} step {k}: {m:?}");
            let mut now: Vec<FeatureId> = m.points().iter().map(|p| p.id).collect();
            now.sort_by_key(|i| (i.a, i.b));
            if let Some(before) = &ids {
                assert_eq!(before, &now, "{what} step {k}: {m:?}");
            }
            ids = Some(now);
            x += rng.uniform(-step, step);
            z += rng.uniform(-step, step);
            turn += rng.uniform(-step, step);
        }
    }
}

/// Two boxes stacked with a five-cornered contact polygon whose deepest corner's farthest
/// corner is its neighbour: the fourth point used to be sought only on the far side of
/// that pair's line, where there is none, so 3 points were kept. The fourth is now the one
/// adding the most area outside the first three's triangle.
fn reduction_keeps_four_of_a_pentagon<T: Real>() {
    let q =
        |w: f64, y: f64| UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(w, 0.0, y, 0.0));
    let a = Cuboid::new(v::<T, 3>(&Vector3::new(
        0.005059039168394187,
        0.0023561787285105006,
        0.0022647098958276774,
    )));
    let b = Cuboid::new(v::<T, 3>(&Vector3::new(
        0.006799751668828036,
        0.0019289841571924471,
        0.004010545184871399,
    )));
    let pa = Isometry3::from_parts(
        Translation3::new(
            3.12498840928377417e-4,
            -2.83939499216651590e-3,
            -8.65706439587451938e-5,
        ),
        q(-2.98517926913728204e-3, 0.999995544342439091),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(
            1.79938852603439277e-5,
            1.37637787340152626e-3,
            8.72936534376455675e-4,
        ),
        q(-0.815156751708431826, 0.579240425163988326),
    );
    let m = query::manifold(&pa.cast::<T>(), &a, &pb.cast::<T>(), &b, lit(3e-4), &tol()).unwrap();
    assert_eq!(m.len(), 4, "{m:?}");
}

/// The box–box separating-axis path gives the manifold the general path (GJK/EPA, here
/// forced by hiding the boxes behind an identity `Transformed`) gives: the same points,
/// ids, separations and normal, on random pairs overlapping, touching and apart within the
/// prediction, 2D and 3D.
fn box_fast_path_agrees_with_general<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
{
    use convex_proximity::shape::Transformed;
    let mut rng = Rng(808);
    let tol_pos = 100.0 * acc::<T>();
    let mut compared = 0;
    for i in 0..300 {
        let ha = v::<T, D>(&rng.vector(0.2, 1.0));
        let hb = v::<T, D>(&rng.vector(0.2, 1.0));
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
        let hide =
            |c: Cuboid<T, D>| Transformed::new(c, nalgebra::SMatrix::identity(), SVector::zeros());
        let (ga, gb) = (hide(a), hide(b));
        let fast = query::manifold(&pa, &a, &pb, &b, lit(0.1), &tol()).unwrap();
        let general = query::manifold(&pa, &ga, &pb, &gb, lit(0.1), &tol()).unwrap();
        assert_eq!(
            fast.is_empty(),
            general.is_empty(),
            "#{i}: {fast:?} vs {general:?}"
        );
        if fast.is_empty() {
            continue;
        }
        let deepest = |m: &convex_proximity::clip::Manifold<T, D>| {
            m.points()
                .iter()
                .map(|p| f(p.separation))
                .fold(f64::INFINITY, f64::min)
        };
        assert!(
            (deepest(&fast) - deepest(&general)).abs() <= tol_pos,
            "#{i}: {fast:?} vs {general:?}"
        );
        // Two axes within the scalar's accuracy of each other (f32, deep): either is right,
        // and normals more than ~tol_pos rad apart clip different points (f32: 2.4° apart,
        // depths 6e-5 apart, 4 points against 3 on a deep corner overlap).
        let cos = back(&fast.normal.into_inner()).dot(&back(&general.normal.into_inner()));
        if 1.0 - cos > tol_pos * tol_pos {
            assert!(accuracy::<T>(1.0) > 1e-6, "#{i}: {fast:?} vs {general:?}");
            continue;
        }
        compared += 1;
        assert_eq!(fast.len(), general.len(), "#{i}: {fast:?} vs {general:?}");
        for p in fast.points() {
            let q = general
                .points()
                .iter()
                .min_by(|x, y| {
                    let d = |z: &convex_proximity::clip::ContactPoint<T, D>| {
                        (pback(&z.point_a) - pback(&p.point_a)).norm()
                    };
                    d(x).total_cmp(&d(y))
                })
                .unwrap();
            assert!(
                (pback(&q.point_a) - pback(&p.point_a)).norm() <= tol_pos
                    && (f(q.separation) - f(p.separation)).abs() <= tol_pos,
                "#{i}: {p:?} vs {q:?}"
            );
        }
    }
    assert!(compared >= 100, "only {compared} in contact");
}
cases!(box_fast_path_agrees_with_general, [2 => d2, 3 => d3]);

/// A cylinder tilted onto its rim, touching a slab at one point: one manifold point. The
/// contact (FixedI40F24) was 2.4e-5 deeper than the truth, so the witnesses were added
/// beside the clipped support point, which was exact; a single incident point is now the
/// contact itself, the witnesses standing in only when it is clipped away.
fn single_incident_point_is_the_contact<T: Real>() {
    use convex_proximity::shape::Cylinder;
    let q = |w: f64, i: f64, j: f64, k: f64| {
        UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(w, i, j, k))
    };
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cyl = Cylinder::new(lit::<T>(0.383467435836792), lit::<T>(0.4782296419143677));
    let pa = Isometry3::from_parts(
        Translation3::new(
            -6.84117734432220459e-1,
            -1.18414312601089478e0,
            -1.34811526536941528e0,
        ),
        q(
            7.38466143608093262e-1,
            -6.72187805175781250e-2,
            -1.47103071212768555e-1,
            -6.54606759548187256e-1,
        ),
    );
    let pb = Isometry3::from_parts(
        Translation3::new(
            3.61263811588287354e-1,
            -3.31605494022369385e-1,
            -1.89229416847229004e0,
        ),
        q(
            -6.46567523479461670e-1,
            3.90149414539337158e-1,
            6.49922192096710205e-1,
            -8.56446027755737305e-2,
        ),
    );
    let m = query::manifold(
        &pa.cast::<T>(),
        &slab,
        &pb.cast::<T>(),
        &cyl,
        lit(0.04),
        &tol(),
    )
    .unwrap();
    assert_eq!(m.len(), 1, "{m:?}");
    // The exact signed distance (the evaluation's f64 oracle): −1.060386e-3.
    assert!(
        (f(m.points()[0].separation) + 1.060386384939e-3).abs() <= 10.0 * acc::<T>(),
        "{m:?}"
    );
}

/// A capsule lying on a slab tilted by 0.5° along its length: 2 points, each on the
/// capsule's surface (distance r from its segment), the lower one at the end's sphere
/// directly below the end (the capsule's support point), the upper one at the end of the
/// side line facing the slab, r from the upper end's core point perpendicular to the axis
/// (`clip::to_surface`), so r·cos 0.5° below it.
fn tilted_capsule_points_on_surface<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let (h, r) = (0.6, 0.2);
    let cap = Capsule::new(
        Point3::new(lit::<T>(-h), lit(0.0), lit(0.0)),
        Point3::new(lit(h), lit(0.0), lit(0.0)),
        lit(r),
    );
    let ground = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let tilt = 0.5f64.to_radians();
    // The lower end (−h) at height r − 0.01: 0.01 deep.
    let centre_y = r - 0.01 + h * tilt.sin();
    let pose = Isometry3::from_parts(
        Translation3::new(0.1, centre_y, 0.2),
        UnitQuaternion::from_euler_angles(0.0, 0.0, tilt),
    );
    let m = query::manifold(&ground, &slab, &pose.cast::<T>(), &cap, lit(0.05), &tol()).unwrap();
    assert_eq!(m.len(), 2, "{m:?}");
    let (lo, hi) = (
        pose * Point3::new(-h, 0.0, 0.0),
        pose * Point3::new(h, 0.0, 0.0),
    );
    let on_capsule = |q: &Point3<f64>| {
        let e = hi - lo;
        let s = ((q - lo).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
        (q - (lo + e * s)).norm()
    };
    let mut seps: Vec<f64> = Vec::new();
    for p in m.points() {
        let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
        assert!(
            (on_capsule(&qb) - r).abs() <= acc::<T>(),
            "{p:?}: {}",
            on_capsule(&qb)
        );
        assert!(qa.y.abs() <= acc::<T>(), "{p:?}");
        assert!(
            ((qb - qa) - Vector3::y() * f(p.separation)).norm() <= acc::<T>(),
            "{p:?}"
        );
        seps.push(f(p.separation));
    }
    seps.sort_by(f64::total_cmp);
    let upper = hi.y - r * tilt.cos();
    assert!((seps[0] + 0.01).abs() <= acc::<T>(), "{seps:?}");
    assert!((seps[1] - upper).abs() <= acc::<T>(), "{seps:?} vs {upper}");
}

/// A cylinder standing on a slab tilted by 0.5°: its cap is 8 rim points, the lowest rim
/// point usually between two of them. The deepest manifold point is that lowest point, its
/// separation exact (`h cos θ + r sin θ` below the centre), not the contact's (EPA on a
/// curved shape, about 1e-9 off in f64): the cylinder's support point stands in.
fn tilted_cap_deepest_is_exact<T: Real>() {
    use convex_proximity::shape::Cylinder;
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let ground = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let (h, r) = (0.5, 0.4);
    let cyl = Cylinder::new(lit::<T>(h), lit::<T>(r));
    let mut rng = Rng(19);
    for i in 0..50 {
        let tilt = rng.uniform(0.1, 0.8).to_radians();
        let phi = rng.uniform(-3.0, 3.0);
        let axis = nalgebra::Unit::new_normalize(Vector3::new(phi.cos(), 0.0, phi.sin()));
        let q = UnitQuaternion::from_axis_angle(&axis, tilt)
            * UnitQuaternion::from_euler_angles(0.0, rng.uniform(-3.0, 3.0), 0.0);
        let low = h * tilt.cos() + r * tilt.sin();
        let pose = Isometry3::from_parts(Translation3::new(0.2, low - 0.01, -0.1), q);
        let m = query::manifold(&ground, &slab, &pose.cast::<T>(), &cyl, lit(0.0), &tol()).unwrap();
        let deepest = m
            .points()
            .iter()
            .map(|p| f(p.separation))
            .fold(f64::INFINITY, f64::min);
        assert!(
            (deepest + 0.01).abs() <= accuracy::<T>(1.0).max(1e-6 * f(T::default_epsilon()).sqrt()),
            "#{i}: deepest {deepest}: {m:?}"
        );
    }
}

/// Degenerate box pairs through the separating-axis path: identical boxes at one pose, a
/// flat box (zero half-extent), a tiny box on a huge slab, a pair far from the origin, and
/// boxes exactly touching (in the rounding of the separation: such a pair used to come out
/// 1e-16 apart and empty at prediction 0). Never an error, a NaN or an empty manifold for
/// overlapping or touching boxes; every point on both boxes (box distance ≈ 0) along the
/// normal.
fn degenerate_boxes<T: Real>() {
    let fixed = is_fixed::<T>();
    let box_distance = |pose: &Isometry3<f64>, h: &Vector3<f64>, q: &Point3<f64>| {
        let p = pose.inverse_transform_point(q);
        let d = p.coords.abs() - h;
        let outside = d.map(|x| x.max(0.0)).norm();
        outside + d.max().min(0.0)
    };
    let far = if fixed { 20.0 } else { 1e6 };
    // (name, A's half-extents, B's, B's pose in A's frame, scale)
    type Case = (
        &'static str,
        Vector3<f64>,
        Vector3<f64>,
        Isometry3<f64>,
        f64,
    );
    let cases: Vec<Case> = vec![
        (
            "identical",
            Vector3::new(0.5, 0.4, 0.3),
            Vector3::new(0.5, 0.4, 0.3),
            Isometry3::identity(),
            1.0,
        ),
        (
            "flat",
            Vector3::new(1.0, 0.5, 1.0),
            Vector3::new(0.4, 0.0, 0.3),
            Isometry3::translation(0.1, 0.5, 0.2),
            1.0,
        ),
        (
            "tiny on huge",
            Vector3::new(
                if fixed { 40.0 } else { 1e4 },
                0.5,
                if fixed { 40.0 } else { 1e4 },
            ),
            Vector3::new(1e-3, 1e-3, 1e-3),
            Isometry3::translation(3.0, 0.5 + 0.9e-3, -2.0),
            if fixed { 40.0 } else { 1e4 },
        ),
        (
            "touching",
            Vector3::new(0.5, 0.5, 0.5),
            Vector3::new(0.5, 0.5, 0.5),
            Isometry3::translation(0.3, 1.0, 0.0),
            1.0,
        ),
        (
            "turned, touching on an edge",
            Vector3::new(0.5, 0.5, 0.5),
            Vector3::new(0.5, 0.5, 0.5),
            Isometry3::from_parts(
                Translation3::new(0.0, 0.5 + 0.5 * 2f64.sqrt(), 0.0),
                UnitQuaternion::from_euler_angles(0.0, 0.0, std::f64::consts::FRAC_PI_4),
            ),
            1.0,
        ),
    ];
    for (what, ha, hb, rel, scale) in cases {
        for offset in [0.0, far] {
            let pa = Isometry3::translation(offset, -offset, offset);
            let pb = pa * rel;
            let (a, b) = (Cuboid::new(v::<T, 3>(&ha)), Cuboid::new(v::<T, 3>(&hb)));
            let (fa, fb) = (pa, pb);
            let (pa, pb) = (pa.cast::<T>(), pb.cast::<T>());
            // Far from the origin, "touching" holds only to the rounding of the world poses.
            let prediction = 1e3 * f(T::default_epsilon()) * offset;
            let m = query::manifold(&pa, &a, &pb, &b, lit(prediction), &tol()).unwrap();
            let ctx = format!("{what} at {offset}: {m:?}");
            assert!(!m.is_empty(), "{ctx}");
            let n = back(&m.normal.into_inner());
            assert!((n.norm() - 1.0).abs() < 1e-3, "{ctx}");
            let slack = 1e-3f64.max(100.0 * accuracy::<T>(scale.max(offset)));
            for p in m.points() {
                let (qa, qb) = (pback(&p.point_a), pback(&p.point_b));
                assert!(f(p.separation).is_finite(), "{ctx}");
                assert!(box_distance(&fa, &ha, &qa).abs() <= slack, "{ctx}");
                assert!(box_distance(&fb, &hb, &qb).abs() <= slack, "{ctx}");
                assert!(((qb - qa) - n * f(p.separation)).norm() <= slack, "{ctx}");
            }
        }
    }
}

/// The manifold thresholds in `Tolerances` take effect: a box tilted 1° on a slab, the box
/// as A. By default A's bottom face stays the reference (the slab's is better aligned by
/// only 1.5e-4 in cosine); with `manifold_reference_bias = 0` the slab's face takes over.
/// Both give the same 4 pairs.
fn manifold_tolerances_take_effect<T: Real>() {
    let slab = Cuboid::new(Vector3::new(lit::<T>(5.0), lit(0.5), lit(5.0)));
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.5), lit(0.5)));
    let ps = Isometry3::translation(lit::<T>(0.0), lit(-0.5), lit(0.0));
    let tilt = 1f64.to_radians();
    let low = 0.5 * tilt.cos() + 0.5 * tilt.sin();
    let pc = Isometry3::from_parts(
        Translation3::new(lit::<T>(0.2), lit(low - 0.01), lit(0.0)),
        UnitQuaternion::from_euler_angles(0.0, 0.0, tilt).cast::<T>(),
    );
    let run = |t: &Tolerances<T>| query::manifold(&pc, &cube, &ps, &slab, lit(0.05), t).unwrap();
    let default = run(&tol());
    let unbiased = run(&tol().with_manifold_reference_bias(T::zero()).unwrap());
    // The cube's bottom face is 2·axis(y) + 0 = 2; the slab's top 2·1 + 1 = 3.
    assert!(
        default.points().iter().all(|p| p.id.a.get() == 2),
        "{default:?}"
    );
    assert!(
        unbiased.points().iter().all(|p| p.id.b.get() == 3),
        "{unbiased:?}"
    );
    assert_eq!((default.len(), unbiased.len()), (4, 4));
    let seps = |m: &convex_proximity::clip::Manifold<T, 3>| {
        let mut s: Vec<f64> = m.points().iter().map(|p| f(p.separation)).collect();
        s.sort_by(f64::total_cmp);
        s
    };
    for (x, y) in seps(&default).iter().zip(seps(&unbiased)) {
        assert!(
            (x - y).abs() <= 10.0 * acc::<T>(),
            "{default:?} vs {unbiased:?}"
        );
    }
}

scalar_cases!(
    box_on_box_face_to_face,
    box_edge_on_face,
    box_vertex_on_face,
    capsule_on_box,
    ball_on_box,
    rectangles_2d,
    rotated_boxes_points_on_shapes,
    feature_ids_are_stable,
    hull_on_hull,
    cylinders_and_cones,
    points_move_continuously,
    edge_over_edge,
    parallel_capsules,
    tilted_box_either_order,
    rounded_and_transformed,
    long_sequences_are_stable,
    reduction_ties_keep_ids,
    reduction_keeps_four_of_a_pentagon,
    single_incident_point_is_the_contact,
    tilted_capsule_points_on_surface,
    tilted_cap_deepest_is_exact,
    degenerate_boxes,
    manifold_tolerances_take_effect,
);
