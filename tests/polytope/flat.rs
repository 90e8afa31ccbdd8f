//! Nearly collinear and nearly coplanar clouds: the first tetrahedron, the flat
//! classification and the support of what is built, against brute force.

use super::*;
use nalgebra::SMatrix;

/// The cloud kinds of the sweep.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Along a line, each point off it by up to `off` (relative to the cloud's size).
    Line,
    /// In a plane, each point off it by up to `off` (3D).
    Plane,
    /// Two end points and the rest near the segment between them, one at `off`.
    Triple,
}

/// A nearly flat cloud of `n` points: `kind` with relative thickness `off`, rotated by
/// `rot`, of size `scale`, centred at `offset`.
fn flat_cloud<const D: usize>(
    rng: &mut Rng,
    kind: Kind,
    n: usize,
    off: f64,
    rot: &SMatrix<f64, D, D>,
    scale: f64,
    offset: f64,
) -> Vec<Point<f64, D>> {
    let axis = |k: usize| SVector::<f64, D>::from_fn(|i, _| if i == k { 1.0 } else { 0.0 });
    (0..n)
        .map(|i| {
            let mut x = SVector::<f64, D>::zeros();
            match kind {
                Kind::Line => {
                    x += axis(0) * rng.uniform(-1.0, 1.0);
                    for k in 1..D {
                        x += axis(k) * rng.uniform(-off, off);
                    }
                }
                Kind::Plane => {
                    for k in 0..D - 1 {
                        x += axis(k) * rng.uniform(-1.0, 1.0);
                    }
                    x += axis(D - 1) * rng.uniform(-off, off);
                }
                Kind::Triple => {
                    x += axis(0)
                        * [-1.0, 1.0]
                            .get(i)
                            .copied()
                            .unwrap_or(rng.uniform(-1.0, 1.0));
                    if i == 2 {
                        x += axis(1) * off;
                    } else if i > 2 {
                        x += axis(1) * rng.uniform(-off, off);
                    }
                }
            }
            Point::from(rot * x * scale + SVector::repeat(offset))
        })
        .collect()
}

/// The sweep: every cloud builds (no panic, no error), every face has all points behind
/// it, and the support value along every direction equals brute force's.
fn nearly_flat_clouds_build_and_support_matches_brute_force<T: Real, const D: usize>(count: usize) {
    let mut rng = Rng(0xf1a7 + D as u64);
    let dirs = directions::<D>(&mut rng, 24);
    let kinds: &[Kind] = if D == 3 {
        &[Kind::Line, Kind::Plane, Kind::Triple]
    } else {
        &[Kind::Line, Kind::Triple]
    };
    // Fixed-point: unit-scale clouds (absolute resolution 6e-8, range 5.5e11).
    let scales: &[f64] = if is_fixed::<T>() {
        &[0.5, 20.0]
    } else {
        &[1e-3, 1.0, 1e4]
    };
    let (mut built, mut flat) = (0, 0);
    for i in 0..count {
        let kind = kinds[i % kinds.len()];
        // 3 to 10 points; every 16th cloud 100 to 240 (above the climbing threshold).
        let n = if i % 16 == 15 {
            100 + 20 * (i / 16 % 8)
        } else {
            3 + i / kinds.len() % 8
        };
        let off = 10f64.powi(-(1 + (i / 24 % 9) as i32 * 2)); // 1e-1 .. 1e-17
        let scale = scales[i / 216 % scales.len()];
        let offset = [0.0, 1.0, -100.0][i / 7 % 3] * scale;
        let rot = if i % 5 == 0 {
            SMatrix::identity()
        } else {
            rotation::<D>(&mut rng)
        };
        let cloud = flat_cloud::<D>(&mut rng, kind, n, off, &rot, scale, offset);
        let what = format!(
            "cloud {i} ({kind:?}, {n} points, off {off:e}, scale {scale}, offset {offset}, {} {D}D): {cloud:?}",
            std::any::type_name::<T>()
        );
        let poly = match Polytope::try_new(to_t::<T, D>(&cloud)) {
            Ok(poly) => poly,
            Err(e) => panic!("{what}: {e}"),
        };
        if poly.faces().is_empty() {
            flat += 1;
        } else {
            built += 1;
            // Hull invariants at the cloud's scale (f32 far away: its offset's ulps).
            check_hull(&what, &poly, scale.max(offset.abs() * 0.1));
        }
        check_support(&what, &poly, &dirs);
    }
    println!("{count} clouds: {built} with a hull, {flat} flat");
    assert!(
        built > count / 10 && flat > count / 10,
        "{built} built, {flat} flat"
    );
}

fn nearly_flat_sweep<T: Real, const D: usize>() {
    nearly_flat_clouds_build_and_support_matches_brute_force::<T, D>(if D == 3 {
        648
    } else {
        432
    });
}
cases!(nearly_flat_sweep, [2 => d2, 3 => d3]);

/// The long sweep: `cargo test --release --test polytope -- --ignored nearly_flat`.
#[test]
#[ignore]
fn nearly_flat_sweep_long() {
    nearly_flat_clouds_build_and_support_matches_brute_force::<f64, 3>(6000);
    nearly_flat_clouds_build_and_support_matches_brute_force::<f32, 3>(6000);
    #[cfg(feature = "fixed")]
    nearly_flat_clouds_build_and_support_matches_brute_force::<Fx, 3>(6000);
    nearly_flat_clouds_build_and_support_matches_brute_force::<f64, 2>(3000);
}
