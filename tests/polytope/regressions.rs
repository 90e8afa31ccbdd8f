//! Regressions of the hull and the climb, one function per mechanism (issue 9, classes
//! 1, 7 and 8), for f32, f64 and FixedI40F24.

use super::*;
use convex_proximity::ShapeError;
use nalgebra::Point3;

/// The support along a sequence that jumps between opposite directions (each query
/// warm-starts from the last answer) and random ones equals brute force.
fn check_jumps<T: Real, const D: usize>(what: &str, poly: &Polytope<T, D>, rng: &mut Rng) {
    let mut dirs: Vec<SVector<f64, D>> = Vec::new();
    for k in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[k] = 1.0;
        dirs.extend([e, -e, e, -e]);
    }
    for _ in 0..64 {
        let u: SVector<f64, D> = rng.unit();
        dirs.extend([u, -u]);
    }
    check_support(what, poly, &dirs);
}

fn nearly_collinear_triple_picks_no_repeated_simplex_vertex<T: Real, const D: usize>() {
    // The first tetrahedron's fourth point was the farthest from the plane of the first
    // three, which for a triple nearly on a line is so ill-determined (its normal's
    // direction is off by ε|c − a|/h) that the triple's own points read as off it
    // (8.7e-8 for h = 4.4e-13 against a tolerance of 3.9e-15): one of them was picked
    // again, the tetrahedron had a repeated vertex, and its missing neighbour
    // (u32::MAX) was used as an index. Now the fourth point is another point clearing
    // the tolerance plus that rounding, else the cloud is flat.
    let mut rng = Rng(0x7219);
    let mut clouds: Vec<Vec<Point<f64, 3>>> = vec![vec![
        Point3::new(
            0.06635327464668152,
            0.022409793605701153,
            0.009084592357647811,
        ),
        Point3::new(
            -0.23394936985258055,
            0.13880099584257077,
            0.010073094326279869,
        ),
        Point3::new(
            0.07395006438003096,
            0.019465432288020376,
            0.009059586112328794,
        ),
    ]];
    for k in 1..=17 {
        let e = 10f64.powi(-k);
        let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, e, 0.0]];
        let rot = rotation::<3>(&mut rng);
        let shift = rng.vector::<3>(-2.0, 2.0);
        clouds.push(tri.iter().map(|x| Point3::new(x[0], x[1], x[2])).collect());
        clouds.push(
            tri.iter()
                .map(|x| Point::from(rot * SVector::from(*x) + shift))
                .collect(),
        );
    }
    for (i, cloud) in clouds.iter().enumerate() {
        let what = format!("triple {i} ({}): {cloud:?}", std::any::type_name::<T>());
        let poly = Polytope::try_new(to_t::<T, 3>(cloud)).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            poly.faces().is_empty(),
            "{what}: three points have no 3D faces"
        );
        check_jumps(&what, &poly, &mut rng);
        // With two points well off the triple's line, in two directions: a hull.
        let mut five = cloud.clone();
        let (a, b) = (cloud[0].coords, cloud[1].coords);
        let n1 = (b - a).cross(&rng.unit::<3>()).normalize() * (b - a).norm();
        let n2 = (b - a).cross(&n1) / (b - a).norm();
        five.push(Point::from((a + b) / 2.0 + n1));
        five.push(Point::from((a + b) / 2.0 + n2));
        let what = format!("{what} with {:?}", &five[3..]);
        let poly = Polytope::try_new(to_t::<T, 3>(&five)).unwrap_or_else(|e| panic!("{what}: {e}"));
        check_hull(&what, &poly, 1.0);
        check_jumps(&what, &poly, &mut rng);
    }
}
cases!(nearly_collinear_triple_picks_no_repeated_simplex_vertex, [3 => d3]);

fn climb_ascends_over_corners_not_near_points<T: Real, const D: usize>() {
    // Points within the graph's margin inside the hull join the graph linked to their
    // nearest triangle's corners only; the ascent used to step onto one when it beat the
    // current vertex's neighbours, and for a direction into the hull all its links lie
    // below it: a dead end. An f32 plate 20 thick (1e4 wide, at 1e4): from the bottom,
    // the support along +z stopped 2 above the bottom. Plates of 240 points, thickness
    // 2e-3 of their width, as in the sweep of `flat.rs`.
    let mut rng = Rng(0x91a7e);
    for trial in 0..24 {
        let (scale, offset) = if is_fixed::<T>() {
            ([0.5, 2.0, 8.0][trial % 3], [0.0, 1.0][trial / 3 % 2])
        } else {
            ([1.0, 1e4][trial % 2], [0.0, 1.0, 100.0][trial / 2 % 3])
        };
        let cloud: Vec<Point<f64, D>> = (0..240)
            .map(|_| {
                let mut x: SVector<f64, D> = rng.vector(-1.0, 1.0);
                x[D - 1] *= 1e-3;
                Point::from(x * scale + SVector::repeat(offset * scale))
            })
            .collect();
        let what = format!("plate {trial} ({} {D}D)", std::any::type_name::<T>());
        let poly = Polytope::try_new(to_t::<T, D>(&cloud)).unwrap();
        assert!(!poly.faces().is_empty(), "{what}: no hull");
        check_jumps(&what, &poly, &mut rng);
    }
}
cases!(climb_ascends_over_corners_not_near_points, [3 => d3]);

/// Whether `c` lies inside the polytope: behind every face plane by at most `acc`, and
/// in the bounding box.
fn assert_inside<T: Real, const D: usize>(what: &str, poly: &Polytope<T, D>, acc: f64) {
    let c = pback(&poly.center());
    let pts: Vec<Point<f64, D>> = poly.points().iter().map(pback).collect();
    for k in 0..D {
        let lo = pts.iter().map(|x| x[k]).fold(f64::INFINITY, f64::min);
        let hi = pts.iter().map(|x| x[k]).fold(f64::NEG_INFINITY, f64::max);
        assert!(
            lo <= c[k] && c[k] <= hi,
            "{what}: centre {c} outside the box"
        );
    }
    for face in poly.faces() {
        let n = back(&face.normal().into_inner());
        let h = n.dot(&(c - pts[face.vertex_indices()[0]]));
        assert!(h <= acc, "{what}: centre {c} {h} in front of face {face:?}");
    }
}

#[test]
#[cfg(feature = "fixed")]
fn fixed_point_centre_near_the_range_end_does_not_wrap() {
    // The centre was the mean of `p − p₀` summed in I40F24 (range ±5.5e11): points at
    // ±3e11 differ by 6e11, which wraps (release; debug panics), and the centre came out
    // at x = 4.25e11, outside the hull. It is now the mean in f64 about the box centre,
    // clamped to the box; this test runs in debug too, where any overflow would panic.
    let r = 3e11;
    let octahedron: Vec<Point<f64, 3>> = (0..6)
        .map(|i| {
            let mut x = SVector::<f64, 3>::zeros();
            x[i / 2] = if i % 2 == 0 { r } else { -r };
            Point::from(x)
        })
        .collect();
    let mut shifted = octahedron.clone();
    shifted.iter_mut().for_each(|x| x[0] = x[0] / 2.0 + 2.5e11);
    let line = vec![Point3::new(-5e11, 1.0, 2.0), Point3::new(5.4e11, 1.0, 2.0)];
    for (name, cloud) in [
        ("octahedron", octahedron),
        ("shifted", shifted),
        ("line", line),
    ] {
        let poly = Polytope::try_new(to_t::<Fx, 3>(&cloud)).unwrap();
        let c = pback(&poly.center());
        let mean = cloud.iter().fold(SVector::zeros(), |m, x| m + x.coords) / cloud.len() as f64;
        assert!(
            (c.coords - mean).amax() < 1.0,
            "{name}: centre {c}, mean {mean}"
        );
        assert_inside(name, &poly, 1.0);
    }
}

#[test]
fn float_centre_and_hull_of_huge_and_tiny_coordinates() {
    // The centre and the hull's f64 products are computed about the box centre on
    // coordinates scaled by a power of two: no sum of 1e308s overflows to ∞, and no
    // cross product of 1e200s (∞) or 1e-200s (0) spoils the normals.
    for s in [1e-200, 1e-30, 1e30, 1e200, 1e307] {
        let mut rng = Rng(4);
        let cloud: Vec<Point<f64, 3>> = rng
            .sphere_points::<3>(100, SVector::repeat(0.5), 0.5)
            .into_iter()
            .map(|x| Point::from(x.coords * s))
            .collect();
        let what = format!("sphere at scale {s:e}");
        let poly = Polytope::try_new(cloud.clone()).unwrap();
        assert!(poly.center().coords.iter().all(|x| x.is_finite()), "{what}");
        assert_eq!(poly.faces().len(), 196, "{what}: a triangulated sphere");
        assert_inside(&what, &poly, 1e-9 * s);
        check_jumps(&what, &poly, &mut rng);
    }
    let poly = Polytope::try_new(vec![
        Point3::new(-1.7e308, 0.0, 0.0),
        Point3::new(1.7e308, 0.0, 0.0),
        Point3::new(0.0, 1.7e308, 0.0),
        Point3::new(0.0, 0.0, 1.7e308),
    ])
    .unwrap();
    assert!(poly.center().coords.iter().all(|x: &f64| x.is_finite()));
    assert_eq!(poly.faces().len(), 4);
}

#[test]
fn hull_failure_is_an_error_with_a_message() {
    // Never observed for any cloud (the retries at coarser tolerances): the variant and
    // its message only.
    let e = ShapeError::HullFailed;
    assert!(e.to_string().contains("hull"), "{e}");
}
