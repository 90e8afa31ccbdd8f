//! Large hulls (issue 9, class 8): clouds of 1e3 to 1e5 points build a hull (they used to
//! come out without faces, silently falling back to brute force) whose faces hold every
//! point and whose support equals brute force; the build time table.

use super::*;
use nalgebra::Point3;

/// `n` points on the surface of the cylinder of radius 1 and half-height 1 about the
/// z axis: half on the side, a quarter on each cap (uniform in the disc).
pub(super) fn cylinder(rng: &mut Rng, n: usize) -> Vec<Point<f64, 3>> {
    (0..n)
        .map(|_| {
            let a = rng.uniform(0.0, std::f64::consts::TAU);
            let u = rng.uniform(0.0, 4.0);
            if u < 2.0 {
                Point3::new(a.cos(), a.sin(), u - 1.0)
            } else {
                let r = rng.uniform(0.0, 1.0).sqrt();
                Point3::new(r * a.cos(), r * a.sin(), if u < 3.0 { -1.0 } else { 1.0 })
            }
        })
        .collect()
}

/// `n` points on the surface of the cube `[-1, 1]³` (a random face each).
fn cube_surface(rng: &mut Rng, n: usize) -> Vec<Point<f64, 3>> {
    (0..n)
        .map(|_| {
            let mut v: SVector<f64, 3> = rng.vector(-1.0, 1.0);
            let k = (rng.next_u64() % 3) as usize;
            v[k] = if rng.next_u64() & 1 == 0 { -1.0 } else { 1.0 };
            Point::from(v)
        })
        .collect()
}

/// The checks of a large hull, in `O(n)` per check: faces exist, every directed edge has
/// its twin and `V − E + F = 2`, every point lies behind 64 faces spread over the list,
/// and the support along warm-started jumps and random directions equals brute force.
fn check_large<T: Real>(what: &str, poly: &Polytope<T, 3>, scale: f64) {
    let faces = poly.faces();
    assert!(!faces.is_empty(), "{what}: no faces");
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for f in faces {
        let v = f.vertex_indices();
        edges.extend((0..v.len()).map(|i| (v[i], v[(i + 1) % v.len()])));
    }
    edges.sort_unstable();
    for &(a, b) in &edges {
        assert!(
            edges.binary_search(&(b, a)).is_ok(),
            "{what}: edge {a}-{b} has no twin"
        );
    }
    let (nv, ne, nf) = (poly.vertices().len(), edges.len() / 2, faces.len());
    assert_eq!(
        nv + nf,
        ne + 2,
        "{what}: Euler V - E + F = {nv} - {ne} + {nf}"
    );
    let pts: Vec<Point<f64, 3>> = poly.points().iter().map(pback).collect();
    let acc = accuracy::<T>(scale) * 10.0;
    for face in faces.iter().step_by(faces.len().div_ceil(64)) {
        let n = back(&face.normal().into_inner());
        let base = pts[face.vertex_indices()[0]];
        for (i, x) in pts.iter().enumerate() {
            let h = n.dot(&(x - base));
            assert!(
                h <= acc,
                "{what}: point {i} is {h} in front of face {} (acc {acc})",
                face.id()
            );
        }
    }
    let mut rng = Rng(0x1a59e);
    let mut dirs: Vec<SVector<f64, 3>> = Vec::new();
    for k in 0..3 {
        let mut e = SVector::<f64, 3>::zeros();
        e[k] = 1.0;
        dirs.extend([e, -e, e]);
    }
    dirs.extend((0..64).map(|_| rng.unit::<3>()));
    check_support(what, poly, &dirs);
}

/// One reported or analogue cloud: a sphere or cylinder of `n` points, radius `r`,
/// centred at `(c, c, c)`, generated as the search that found the analogues did (one
/// generator for the sphere and then the cylinder).
fn cloud(kind: &str, n: usize, c: f64, r: f64) -> Vec<Point<f64, 3>> {
    let mut rng = Rng(7);
    let sphere = rng.sphere_points::<3>(n, SVector::repeat(c), r);
    if kind == "sphere" {
        return sphere;
    }
    cylinder(&mut rng, n)
        .into_iter()
        .map(|x| Point::from(x.coords * r + SVector::repeat(c)))
        .collect()
}

fn build_and_check<T: Real>(kind: &str, n: usize, c: f64, r: f64) {
    let what = format!(
        "{kind} of {n} points, radius {r} at {c} ({})",
        std::any::type_name::<T>()
    );
    let poly = Polytope::try_new(to_t::<T, 3>(&cloud(kind, n, c, r)))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    check_large(&what, &poly, r.max(c * 0.1));
}

#[test]
fn visibility_at_the_rounding_builds_f32_clouds() {
    // Quickhull's visibility test used the input's tolerance (f32: 16 ulps of the cloud's
    // scale), much coarser than the f64 rounding of the test: facets the apex saw by less
    // than it stayed, and the fan over a horizon that was not the apex's silhouette folded
    // over its neighbours with reversed normals. These clouds had no faces at 801d779.
    build_and_check::<f32>("sphere", 4000, 100.0, 1.0);
    build_and_check::<f32>("cylinder", 1000, 100.0, 1.0);
    build_and_check::<f32>("cylinder", 4000, 10.0, 1.0);
}

#[test]
#[cfg(feature = "fixed")]
fn visibility_at_the_rounding_builds_fixed_point_clouds() {
    // The same in FixedI40F24 (absolute tolerance 16 ulps = 9.5e-7): no faces at 801d779.
    build_and_check::<Fx>("cylinder", 4000, 0.0, 0.1);
    build_and_check::<Fx>("sphere", 8000, 0.0, 0.05);
}

/// The clouds of the issue: `cargo test --release --test polytope -- --ignored large`.
#[test]
#[ignore]
fn large_reported_clouds_build_a_hull() {
    build_and_check::<f32>("sphere", 100_000, 0.0, 1.0);
    build_and_check::<f32>("cylinder", 10_000, 0.0, 1.0);
    #[cfg(feature = "fixed")]
    build_and_check::<Fx>("sphere", 50_000, 0.0, 1.0);
    build_and_check::<f64>("cylinder", 100_000, 0.0, 1.0);
}

/// The build time table of `src/shape/hull/mod.rs` (wall time here; the table there is
/// CPU time): `cargo test --release --test polytope -- --ignored --nocapture timing_hull`.
#[test]
#[ignore]
fn timing_hull_build() {
    use std::time::Instant;
    fn time<T: Real>(c: &[Point<f64, 3>]) -> (f64, usize) {
        let pts = to_t::<T, 3>(c);
        let t0 = Instant::now();
        let poly = Polytope::try_new(pts).unwrap();
        (t0.elapsed().as_secs_f64() * 1e3, poly.faces().len())
    }
    println!("cloud      points   f64 ms    f32 ms    I40F24 ms   (faces f64/f32/I40F24)");
    for n in [1000, 10_000, 100_000] {
        let mut rng = Rng(1);
        let clouds = [
            ("sphere", rng.sphere_points::<3>(n, SVector::zeros(), 1.0)),
            ("cylinder", cylinder(&mut rng, n)),
            ("cube", cube_surface(&mut rng, n)),
        ];
        for (name, c) in &clouds {
            let (a, fa) = time::<f64>(c);
            let (b, fb) = time::<f32>(c);
            #[cfg(feature = "fixed")]
            let (x, fx) = time::<Fx>(c);
            #[cfg(not(feature = "fixed"))]
            let (x, fx) = (0.0, 0);
            println!("{name:9} {n:7} {a:9.1} {b:9.1} {x:11.1}   ({fa}/{fb}/{fx})");
            assert!(fa > 0 && fb > 0 && fx > 0);
        }
    }
}
