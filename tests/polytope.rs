//! Polytope hulls (faces, vertices, adjacency) and the hill-climbing support map, against
//! brute force, for f32, f64 and FixedI40F24 in 2D and 3D.

mod common;

use common::*;
use convex_proximity::shape::{Polytope, SupportMap};
use convex_proximity::{Real, lit};
use nalgebra::{Point, SVector};

#[path = "polytope/flat.rs"]
mod flat;
#[path = "polytope/large.rs"]
mod large;
#[path = "polytope/regressions.rs"]
mod regressions;

// ---------------------------------------------------------------- local helpers

/// The brute-force support value `max_i d·p_i`, in `T`.
fn brute<T: Real, const D: usize>(pts: &[Point<T, D>], d: &SVector<T, D>) -> T {
    pts.iter()
        .map(|x| d.dot(&x.coords))
        .fold(d.dot(&pts[0].coords), |a, b| if b > a { b } else { a })
}

fn to_t<T: Real, const D: usize>(pts: &[Point<f64, D>]) -> Vec<Point<T, D>> {
    pts.iter().map(p::<T, D>).collect()
}

/// Directions: random units, slowly rotating units (warm starts), the axes, small integer
/// vectors (ties on grids), scaled copies and zero.
fn directions<const D: usize>(rng: &mut Rng, n: usize) -> Vec<SVector<f64, D>> {
    let mut out: Vec<SVector<f64, D>> = (0..n).map(|_| rng.unit()).collect();
    let (a, b): (SVector<f64, D>, SVector<f64, D>) = (rng.unit(), rng.unit());
    for k in 0..n {
        let t = k as f64 * 0.01;
        out.push((a * t.cos() + b * t.sin() + a * 0.3 * (3.1 * t).sin()).normalize());
    }
    for k in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[k] = 1.0;
        out.push(e);
        out.push(-e);
    }
    for _ in 0..n / 4 {
        out.push(SVector::from_fn(|_, _| (rng.uniform(-2.0, 3.0)).floor()));
    }
    for _ in 0..n / 8 {
        out.push(rng.unit::<D>() * rng.uniform(0.01, 10.0));
    }
    out.push(SVector::zeros());
    out
}

/// The support value of `poly` equals brute force along every direction.
fn check_support<T: Real, const D: usize>(
    what: &str,
    poly: &Polytope<T, D>,
    dirs: &[SVector<f64, D>],
) {
    for d in dirs {
        let dt = v::<T, D>(d);
        let got = dt.dot(&poly.support(&dt).coords);
        let want = brute(poly.points(), &dt);
        assert!(
            got == want,
            "{what}: support value {} != brute force {} along {d} ({} points, {} vertices)",
            f(got),
            f(want),
            poly.points().len(),
            poly.vertices().len()
        );
    }
}

/// Hull invariants: faces have unit outward normals, every point lies behind every face
/// plane (so inside the hull), face vertices lie on their plane in CCW order, ids are
/// indices, every vertex is on a face; 3D: V − E + F = 2 and every edge is shared by two
/// faces; 2D: the edges chain into one CCW loop.
fn check_hull<T: Real, const D: usize>(what: &str, poly: &Polytope<T, D>, scale: f64) {
    let acc = accuracy::<T>(scale) * 10.0;
    let pts: Vec<Point<f64, D>> = poly.points().iter().map(pback).collect();
    let faces = poly.faces();
    assert!(!faces.is_empty(), "{what}: no faces");
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (k, face) in faces.iter().enumerate() {
        assert_eq!(face.id(), k, "{what}: face id");
        let n = back(&face.normal().into_inner());
        assert!((n.norm() - 1.0).abs() < 1e-3, "{what}: normal {n} not unit");
        let vi = face.vertex_indices();
        let base = pts[vi[0]];
        for (i, x) in pts.iter().enumerate() {
            let h = n.dot(&(x - base));
            assert!(
                h <= acc,
                "{what}: point {i} {x} is {h} in front of face {k} (acc {acc})"
            );
        }
        for &a in vi {
            let h = n.dot(&(pts[a] - base)).abs();
            assert!(h <= acc, "{what}: vertex {a} {h} off face {k}'s plane");
            assert!(
                poly.vertices().contains(&a),
                "{what}: face vertex {a} not a vertex"
            );
        }
        if D == 2 {
            assert_eq!(vi.len(), 2, "{what}: 2D faces are edges");
            let e = pts[vi[1]] - pts[vi[0]];
            assert!(
                n.dot(&e).abs() < 1e-3 * e.norm() + acc,
                "{what}: normal not ⟂ edge"
            );
            assert!(n[0] * e[1] - n[1] * e[0] > 0.0, "{what}: edge {k} not CCW");
            edges.push((vi[0], vi[1]));
        } else {
            let m = vi.len();
            assert!(m >= 3, "{what}: face {k} has {m} vertices");
            for i in 0..m {
                let (a, b, c) = (pts[vi[i]], pts[vi[(i + 1) % m]], pts[vi[(i + 2) % m]]);
                let (u, w) = (b - a, c - b);
                let turn = (u[1] * w[2] - u[2] * w[1]) * n[0]
                    + (u[2] * w[0] - u[0] * w[2]) * n[1]
                    + (u[0] * w[1] - u[1] * w[0]) * n[2];
                assert!(
                    turn >= -acc * scale,
                    "{what}: face {k} not convex CCW at {i}: {turn}"
                );
                edges.push((vi[i], vi[(i + 1) % m]));
            }
        }
    }
    let nv = poly.vertices().len();
    if D == 3 {
        // Every directed edge has its reverse in another face.
        let mut sorted = edges.clone();
        sorted.sort_unstable();
        for &(a, b) in &edges {
            assert!(
                sorted.binary_search(&(b, a)).is_ok(),
                "{what}: edge {a}-{b} has no twin"
            );
        }
        let (ne, nf) = (edges.len() / 2, faces.len());
        assert_eq!(
            nv + nf,
            ne + 2,
            "{what}: Euler V - E + F = {nv} - {ne} + {nf}"
        );
    } else {
        assert_eq!(edges.len(), nv, "{what}: edges vs vertices");
        for w in 0..edges.len() {
            assert_eq!(
                edges[w].1,
                edges[(w + 1) % edges.len()].0,
                "{what}: edges do not chain"
            );
        }
    }
}

// ---------------------------------------------------------------- clouds (f64, unit scale)

/// The grid `{-1, -1 + 2/k, …, 1}^D` (surface and interior points).
fn grid<const D: usize>(k: usize) -> Vec<Point<f64, D>> {
    let n = (k + 1).pow(D as u32);
    (0..n)
        .map(|mut m| {
            Point::from(SVector::<f64, D>::from_fn(|_, _| {
                let c = m % (k + 1);
                m /= k + 1;
                -1.0 + 2.0 * c as f64 / k as f64
            }))
        })
        .collect()
}

/// A regular `sides`-gon (2D) or prism over it (3D, `layers` layers, cap centres), with
/// `per_edge` points along each polygon edge.
fn prism<const D: usize>(sides: usize, per_edge: usize, layers: usize) -> Vec<Point<f64, D>> {
    let mut out = Vec::new();
    let ring: Vec<[f64; 2]> = (0..sides)
        .flat_map(|i| {
            let (a0, a1) = (
                i as f64 * std::f64::consts::TAU / sides as f64,
                (i + 1) as f64 * std::f64::consts::TAU / sides as f64,
            );
            (0..per_edge).map(move |j| {
                let t = j as f64 / per_edge as f64;
                [
                    a0.cos() * (1.0 - t) + a1.cos() * t,
                    a0.sin() * (1.0 - t) + a1.sin() * t,
                ]
            })
        })
        .collect();
    let layers = if D == 2 { 1 } else { layers };
    for l in 0..layers {
        let z = -1.0 + 2.0 * l as f64 / (layers.max(2) - 1) as f64;
        for xy in &ring {
            let mut q = SVector::<f64, D>::zeros();
            q[0] = xy[0];
            q[1] = xy[1];
            if D == 3 {
                q[2] = z;
            }
            out.push(Point::from(q));
        }
    }
    if D == 3 {
        for z in [-1.0, 1.0] {
            let mut q = SVector::<f64, D>::zeros();
            q[2] = z;
            out.push(Point::from(q));
        }
    }
    out
}

/// Points uniform in the unit ball (interior points).
fn ball<const D: usize>(rng: &mut Rng, n: usize) -> Vec<Point<f64, D>> {
    (0..n)
        .map(|_| Point::from(rng.unit::<D>() * rng.uniform(0.0, 1.0)))
        .collect()
}

/// Shuffles in place (Fisher–Yates).
fn shuffle<X>(rng: &mut Rng, xs: &mut [X]) {
    for i in (1..xs.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        xs.swap(i, j);
    }
}

// ---------------------------------------------------------------- cases

fn support_matches_brute_force<T: Real, const D: usize>() {
    let mut rng = Rng(0x5eed + D as u64);
    let mut clouds: Vec<(String, Vec<Point<f64, D>>)> = Vec::new();
    for n in [32, 100, 500, 2000] {
        clouds.push((
            format!("sphere {n}"),
            rng.sphere_points(n, SVector::zeros(), 1.0),
        ));
    }
    let mut mixed = rng.sphere_points::<D>(300, SVector::zeros(), 1.0);
    mixed.extend(ball::<D>(&mut rng, 700));
    shuffle(&mut rng, &mut mixed);
    clouds.push(("sphere + interior".into(), mixed));
    let mut dup = rng.sphere_points::<D>(150, SVector::zeros(), 1.0);
    dup.extend(dup.clone());
    dup.extend(dup[..100].to_vec());
    shuffle(&mut rng, &mut dup);
    clouds.push(("duplicates".into(), dup));
    clouds.push(("grid".into(), grid::<D>(if D == 2 { 40 } else { 9 })));
    let mut g = grid::<D>(if D == 2 { 30 } else { 8 });
    shuffle(&mut rng, &mut g);
    clouds.push(("shuffled grid".into(), g));
    clouds.push(("prism".into(), prism::<D>(48, 3, 6)));
    let mut near = rng.sphere_points::<D>(200, SVector::zeros(), 1.0);
    near.extend(rng.sphere_points::<D>(200, SVector::zeros(), 1.0 - 1e-7));
    clouds.push(("nearly coincident shells".into(), near));
    // Rotated grid and prism: coplanar points no longer exactly coplanar after rounding.
    let rot = rotation::<D>(&mut rng);
    let turn = |c: Vec<Point<f64, D>>| c.into_iter().map(|x| Point::from(rot * x.coords)).collect();
    clouds.push((
        "rotated grid".into(),
        turn(grid::<D>(if D == 2 { 20 } else { 7 })),
    ));
    clouds.push(("rotated prism".into(), turn(prism::<D>(40, 4, 5))));
    let mut dirs = directions::<D>(&mut rng, 1500);
    // Directions a hair off the rotated grid's face normals (near-ties on big faces).
    for k in 0..D {
        for eps in [1e-9, 1e-6, 1e-3] {
            let e = rot.column(k).into_owned();
            dirs.push(e + rng.unit::<D>() * eps);
            dirs.push(-e + rng.unit::<D>() * eps);
        }
    }
    for (name, cloud) in &clouds {
        let poly = Polytope::try_new(to_t::<T, D>(cloud)).unwrap();
        let what = format!("{name} ({} {D}D)", std::any::type_name::<T>());
        assert!(!poly.faces().is_empty(), "{what}: no hull");
        check_hull(&what, &poly, 1.0);
        check_support(&what, &poly, &dirs);
    }
}
cases!(support_matches_brute_force, [2 => d2, 3 => d3]);

/// A cloud with interior points (which `Polytope` leaves out of its support scan: only the
/// hull graph's nodes may win): the support values stay the brute-force maximum over every
/// point, and `points()` still returns the cloud as given.
fn interior_points_keep_the_cloud_and_the_support_values<T: Real, const D: usize>() {
    let mut rng = Rng(0x1a7e + D as u64);
    let mut cloud = rng.sphere_points::<D>(12, SVector::zeros(), 1.0);
    cloud.extend(
        ball::<D>(&mut rng, 80)
            .into_iter()
            .map(|x| Point::from(x.coords * 0.9)),
    );
    shuffle(&mut rng, &mut cloud);
    let given = to_t::<T, D>(&cloud);
    let poly = Polytope::try_new(given.clone()).unwrap();
    assert_eq!(poly.points(), &given[..]);
    let what = format!("interior ({} {D}D)", std::any::type_name::<T>());
    check_support(&what, &poly, &directions::<D>(&mut rng, 400));
}
cases!(interior_points_keep_the_cloud_and_the_support_values, [2 => d2, 3 => d3]);

fn cube_and_square_faces_merge<T: Real, const D: usize>() {
    // Corners only, then a grid with face and edge points: the same 2D faces.
    for (what, cloud) in [("corners", grid::<D>(1)), ("grid", grid::<D>(6))] {
        let poly = Polytope::try_new(to_t::<T, D>(&cloud)).unwrap();
        check_hull(what, &poly, 1.0);
        assert_eq!(poly.faces().len(), 2 * D, "{what}: {:?}", poly.faces());
        assert_eq!(
            poly.vertices().len(),
            1 << D,
            "{what}: {:?}",
            poly.vertices()
        );
        for face in poly.faces() {
            assert_eq!(
                face.vertex_indices().len(),
                if D == 2 { 2 } else { 4 },
                "{what}"
            );
            let n = back(&face.normal().into_inner());
            assert!(
                (n.amax() - 1.0).abs() < 1e-6,
                "{what}: normal {n} not an axis"
            );
            let k = poly.face_towards(&face.normal().into_inner()).unwrap();
            assert_eq!(k, face.id(), "{what}: face_towards its own normal");
        }
    }
}
cases!(cube_and_square_faces_merge, [2 => d2, 3 => d3]);

fn faces_match_brute_force_facets<T: Real, const D: usize>() {
    // Small clouds in general position: every brute-force supporting facet is a face.
    let mut rng = Rng(77 + D as u64);
    for trial in 0..6 {
        let mut cloud = rng.sphere_points::<D>(10, SVector::zeros(), 1.0);
        cloud.extend(ball::<D>(&mut rng, 4));
        let poly = Polytope::try_new(to_t::<T, D>(&cloud)).unwrap();
        let pts: Vec<Point<f64, D>> = poly.points().iter().map(pback).collect();
        let want = facet_normals(&pts);
        let what = format!("trial {trial}");
        check_hull(&what, &poly, 1.0);
        assert_eq!(poly.faces().len(), want.len(), "{what}: face count");
        for n in &want {
            let k = poly.face_towards(&v::<T, D>(n)).unwrap();
            let got = back(&poly.faces()[k].normal().into_inner());
            assert!(
                (got - n).norm() < 1e-3,
                "{what}: facet {n} not found (closest {got})"
            );
        }
    }
}
cases!(faces_match_brute_force_facets, [2 => d2, 3 => d3]);

fn sphere_hull_is_a_triangulated_sphere<T: Real, const D: usize>() {
    // Points in general position on a sphere: all are vertices, no face merges, Euler's
    // count for a triangulated sphere F = 2V − 4 (3D), a V-gon (2D). On the circle, a few
    // random neighbours sit within f32's / I40F24's facet tolerance (16 ulps) of the
    // chord through their neighbours (sagitta of a 1e-3 gap: 1.3e-7) and are dropped.
    let mut rng = Rng(3);
    let cloud = rng.sphere_points::<D>(200, SVector::zeros(), 1.0);
    let poly = Polytope::try_new(to_t::<T, D>(&cloud)).unwrap();
    check_hull("sphere", &poly, 1.0);
    let nv = poly.vertices().len();
    if D == 3 || f(T::default_epsilon()) < 1e-12 {
        assert_eq!(nv, 200);
    } else {
        assert!(nv >= 190, "{nv} vertices");
    }
    if D == 3 {
        assert!(poly.faces().iter().all(|f| f.vertex_indices().len() == 3));
        assert_eq!(poly.faces().len(), 2 * nv - 4);
    } else {
        assert_eq!(poly.faces().len(), nv);
    }
}
cases!(sphere_hull_is_a_triangulated_sphere, [2 => d2, 3 => d3]);

fn degenerate_clouds_do_not_panic<T: Real, const D: usize>() {
    let mut rng = Rng(11);
    let dirs = directions::<D>(&mut rng, 200);
    let mut clouds: Vec<(&str, Vec<Point<f64, D>>)> = Vec::new();
    let one = Point::from(rng.vector::<D>(-1.0, 1.0));
    clouds.push(("single", vec![one]));
    clouds.push(("repeated", vec![one; 50]));
    let (a, b): (SVector<f64, D>, SVector<f64, D>) = (rng.unit(), rng.unit());
    clouds.push((
        "collinear",
        (0..60)
            .map(|i| Point::from(a * (i as f64 / 30.0 - 1.0)))
            .collect(),
    ));
    clouds.push((
        "two points",
        vec![Point::from(a), Point::from(-a), Point::from(a)],
    ));
    if D == 3 {
        let plane = (0..100)
            .map(|_| Point::from(a * rng.uniform(-1.0, 1.0) + b * rng.uniform(-1.0, 1.0)))
            .collect();
        clouds.push(("coplanar", plane));
        let mut square = grid::<D>(5);
        square.iter_mut().for_each(|x| x[2] = 0.5);
        clouds.push(("flat grid", square));
    }
    for (what, cloud) in &clouds {
        let poly = Polytope::try_new(to_t::<T, D>(cloud)).unwrap();
        assert!(
            poly.faces().is_empty() && poly.vertices().is_empty(),
            "{what}"
        );
        assert_eq!(poly.face_towards(&v::<T, D>(&a)), None, "{what}");
        check_support(what, &poly, &dirs);
    }
    // A thin but proper sliver still gets a hull.
    let mut thin = grid::<D>(4);
    thin.iter_mut().for_each(|x| x[D - 1] *= 1e-2);
    let poly = Polytope::try_new(to_t::<T, D>(&thin)).unwrap();
    check_hull("thin", &poly, 1.0);
    check_support("thin", &poly, &dirs);
}
cases!(degenerate_clouds_do_not_panic, [2 => d2, 3 => d3]);

fn far_and_small_clouds<T: Real, const D: usize>() {
    // Floats only: far from the origin and tiny (fixed-point has an absolute resolution).
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(5);
    let dirs = directions::<D>(&mut rng, 400);
    for (c, r) in [(1e3, 1.0), (0.0, 1e-3), (50.0, 1e-2)] {
        let cloud = rng.sphere_points::<D>(300, SVector::repeat(c), r);
        let poly = Polytope::try_new(to_t::<T, D>(&cloud)).unwrap();
        let what = format!("centre {c} radius {r}");
        check_support(&what, &poly, &dirs);
        if !poly.faces().is_empty() {
            // Facet tolerances grow with the absolute coordinates (16 ulps of them, and the
            // monotone chain can drop a few such points in a row on a noisy f32 arc).
            check_hull(&what, &poly, r.max(c * 0.1));
        }
    }
}
cases!(far_and_small_clouds, [2 => d2, 3 => d3]);

/// The face scan: the first face with the largest `normal·d`, and that value.
fn face_scan<T: Real, const D: usize>(poly: &Polytope<T, D>, d: &SVector<T, D>) -> (usize, T) {
    let faces = poly.faces();
    let mut best = (0, faces[0].normal().dot(d));
    for face in &faces[1..] {
        let x = face.normal().dot(d);
        if x > best.1 {
            best = (face.id(), x);
        }
    }
    best
}

fn face_towards_matches_scan<T: Real, const D: usize>() {
    // Hulls with at least HILL_CLIMB_MIN_FACES faces climb over the hull of their normals
    // (3D), small ones and 2D scan: the answer is the scan's face (same dot product, bit for bit, and the same id: ties go to
    // the lowest id in both).
    let mut rng = Rng(0xface + D as u64);
    let mut clouds: Vec<(String, Vec<Point<f64, D>>)> = Vec::new();
    for n in [40, 200, 1000] {
        clouds.push((
            format!("sphere {n}"),
            rng.sphere_points(n, SVector::zeros(), 1.0),
        ));
    }
    // A stretched sphere: long thin faces whose adjacency misleads a climb over faces.
    let stretch = SVector::<f64, D>::from_fn(|k, _| [3.0, 0.2, 1.0][k]);
    clouds.push((
        "ellipsoid 1000".into(),
        rng.sphere_points::<D>(1000, SVector::zeros(), 1.0)
            .into_iter()
            .map(|x| Point::from(x.coords.component_mul(&stretch)))
            .collect(),
    ));
    // Boxes: 6 faces (scan), and a box with bevelled corners (big faces tied with many
    // small ones around them).
    let rot = rotation::<D>(&mut rng);
    let turn = |c: Vec<Point<f64, D>>| c.into_iter().map(|x| Point::from(rot * x.coords)).collect();
    clouds.push(("box".into(), grid::<D>(1)));
    clouds.push(("rotated box grid".into(), turn(grid::<D>(4))));
    let mut rounded = Vec::new();
    for corner in grid::<D>(1) {
        for x in rng.sphere_points::<D>(40, SVector::zeros(), 0.1) {
            rounded.push(Point::from(corner.coords * 0.9 + x.coords));
        }
    }
    clouds.push(("rounded box".into(), rounded.clone()));
    clouds.push(("rotated rounded box".into(), turn(rounded)));
    // Prisms: two big caps and many tied side faces (3D: above the climbing threshold).
    clouds.push(("prism".into(), prism::<D>(160, 2, 4)));
    clouds.push(("rotated prism".into(), turn(prism::<D>(130, 3, 5))));
    let base = directions::<D>(&mut rng, 1000);
    let mut climbing = 0;
    for (name, cloud) in &clouds {
        let poly = Polytope::try_new(to_t::<T, D>(cloud)).unwrap();
        climbing += usize::from(poly.faces().len() >= Polytope::<T, D>::HILL_CLIMB_MIN_FACES);
        let what = format!(
            "{name} ({} {D}D, {} faces)",
            std::any::type_name::<T>(),
            poly.faces().len()
        );
        assert!(!poly.faces().is_empty(), "{what}: no hull");
        // The face normals themselves and directions a hair off them (ties, near-ties).
        let mut dirs = base.clone();
        for face in poly.faces().iter().take(300) {
            let n = back(&face.normal().into_inner());
            dirs.push(n);
            dirs.push(n + rng.unit::<D>() * 1e-6);
        }
        for d in &dirs {
            let dt = v::<T, D>(d);
            let got = poly.face_towards(&dt).unwrap();
            let (want, best) = face_scan(&poly, &dt);
            let val = poly.faces()[got].normal().dot(&dt);
            assert!(
                val == best && got == want,
                "{what}: face {got} (n·d = {}) != scan's face {want} (n·d = {}) along {d}",
                f(val),
                f(best)
            );
        }
    }
    if D == 3 {
        assert!(
            climbing >= 7,
            "only {climbing} clouds above the climbing threshold"
        );
    }
}
cases!(face_towards_matches_scan, [2 => d2, 3 => d3]);

#[test]
fn polytope_is_send_sync_and_clone_keeps_answers() {
    fn assert_send_sync<X: Send + Sync>() {}
    assert_send_sync::<Polytope<f64, 3>>();
    let mut rng = Rng(8);
    let poly = Polytope::try_new(rng.sphere_points::<3>(100, SVector::zeros(), 1.0)).unwrap();
    let copy = poly.clone();
    assert_eq!(poly, copy);
    let dirs = directions::<3>(&mut rng, 50);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| check_support("threads", &poly, &dirs));
        }
    });
    check_support("clone", &copy, &dirs);
}

#[test]
fn quick_start_in_both_dimensions() {
    let square = Polytope::try_new(grid::<2>(1)).unwrap();
    assert_eq!(square.faces().len(), 4);
    let dir = nalgebra::Vector2::new(lit::<f64>(1.0), 0.2);
    assert_eq!(
        square.faces()[square.face_towards(&dir).unwrap()]
            .normal()
            .x,
        1.0
    );
}

/// Rough timing (release): `cargo test --release --test polytope -- --ignored --nocapture`.
/// The timing tests' inputs: a 1000-point sphere cloud, its hull, and 200 000 slowly
/// rotating (1e-3 rad per step) and random unit directions.
#[allow(clippy::type_complexity)]
fn timing_setup() -> (
    Vec<Point<f64, 3>>,
    Polytope<f64, 3>,
    Vec<SVector<f64, 3>>,
    Vec<SVector<f64, 3>>,
    usize,
) {
    let mut rng = Rng(42);
    let cloud = rng.sphere_points::<3>(1000, SVector::zeros(), 1.0);
    let poly = Polytope::try_new(cloud.clone()).unwrap();
    println!(
        "hull: {} vertices, {} faces",
        poly.vertices().len(),
        poly.faces().len()
    );
    let n = 200_000;
    let (a, b): (SVector<f64, 3>, SVector<f64, 3>) = (rng.unit(), rng.unit());
    let rotating = (0..n)
        .map(|k| {
            let t = k as f64 * 1e-3;
            a * t.cos() + b * t.sin()
        })
        .collect();
    let random = (0..n).map(|_| rng.unit()).collect();
    (cloud, poly, rotating, random, n)
}

#[test]
#[ignore]
fn timing_support_1000_vertices() {
    use std::hint::black_box;
    use std::time::Instant;
    let (cloud, poly, rotating, random, n) = timing_setup();
    for (name, dirs) in [("slowly rotating", &rotating), ("random", &random)] {
        let t0 = Instant::now();
        let mut acc = 0.0;
        for d in dirs {
            acc += black_box(brute(&cloud, black_box(d)));
        }
        let brute_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        let t0 = Instant::now();
        let mut acc2 = 0.0;
        for d in dirs {
            acc2 += d.dot(&black_box(&poly).support(black_box(d)).coords);
        }
        let climb_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        assert_eq!(acc, acc2);
        println!(
            "{name}: brute force {brute_ns:.0} ns/call, hill climbing {climb_ns:.0} ns/call ({:.1}x)",
            brute_ns / climb_ns
        );
    }
}

/// Rough timing (release): `cargo test --release --test polytope -- --ignored --nocapture`.
#[test]
#[ignore]
fn timing_face_towards_1000_vertices() {
    use std::hint::black_box;
    use std::time::Instant;
    let (_, poly, rotating, random, n) = timing_setup();
    for (name, dirs) in [("slowly rotating", &rotating), ("random", &random)] {
        let t0 = Instant::now();
        let mut scan = 0;
        for d in dirs {
            scan += black_box(face_scan(black_box(&poly), black_box(d))).0;
        }
        let scan_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        let t0 = Instant::now();
        let mut climb = 0;
        for d in dirs {
            climb += black_box(&poly).face_towards(black_box(d)).unwrap();
        }
        let climb_ns = t0.elapsed().as_nanos() as f64 / n as f64;
        assert_eq!(scan, climb);
        println!(
            "{name}: scan {scan_ns:.0} ns/call, hill climbing {climb_ns:.0} ns/call ({:.1}x)",
            scan_ns / climb_ns
        );
    }
}
