//! Unit tests of the simplex and its solve: case tables for both solvers, and the
//! fixed-point cases of short `v` and ties.

use super::*;
use nalgebra::{Point2, Point3, Vector2, Vector3};

fn sp3(x: f64, y: f64, z: f64) -> SupportPoint<f64, 3> {
    SupportPoint::new(Point3::new(x, y, z), Point3::origin())
}

/// Both solvers on the same cases: (vertices, expected closest point, vertices kept).
#[test]
fn closest_point_cases_3d_both_solvers() {
    type Case<'a> = (&'a [(f64, f64, f64)], [f64; 3], usize);
    let cases: &[Case] = &[
        (&[(1.0, 2.0, 3.0)], [1.0, 2.0, 3.0], 1),
        (&[(1.0, -1.0, 1.0), (1.0, 1.0, 1.0)], [1.0, 0.0, 1.0], 2),
        (&[(3.0, 1.0, 0.0), (1.0, 1.0, 0.0)], [1.0, 1.0, 0.0], 1),
        (
            &[(-1.0, -1.0, 2.0), (2.0, -1.0, 2.0), (-1.0, 2.0, 2.0)],
            [0.0, 0.0, 2.0],
            3,
        ),
        (
            &[(3.0, 0.0, 0.0), (1.0, -1.0, 0.0), (1.0, 1.0, 0.0)],
            [1.0, 0.0, 0.0],
            2,
        ),
        (
            &[
                (1.0, 1.0, 1.0),
                (-1.0, -1.0, 1.0),
                (-1.0, 1.0, -1.0),
                (1.0, -1.0, -1.0),
            ],
            [0.0, 0.0, 0.0],
            4,
        ),
        (
            &[
                (3.0, 0.0, 0.0),
                (1.0, -1.0, -1.0),
                (1.0, 2.0, -1.0),
                (1.0, -1.0, 2.0),
            ],
            [1.0, 0.0, 0.0],
            3,
        ),
    ];
    let r = Rounding::of(&crate::Tolerances::<f64>::default());
    for johnson in [false, true] {
        for (pts, want, kept) in cases {
            let mut s = Simplex::<f64, 3>::new();
            let mut j = Johnson::new();
            let mut c = None;
            for &(x, y, z) in pts.iter() {
                assert!(s.push(sp3(x, y, z), johnson.then_some(&mut j)).is_some());
                c = s.solve(johnson.then_some(&j), &r);
            }
            let c = c.expect("solvable");
            let err = (c.v - Vector3::from(*want)).norm();
            assert!(
                err < 1e-12,
                "{pts:?} (johnson {johnson}): v = {:?}, want {want:?}",
                c.v
            );
            assert_eq!(s.len(), *kept, "{pts:?} (johnson {johnson})");
        }
    }
}

#[test]
fn far_apart_small_simplex_keeps_its_witnesses_in_f32() {
    // A unit segment 1e4 away: plain `yᵢ·yⱼ` products would lose the barycentric
    // coordinates entirely in f32 (ε·‖y‖² ≈ 12 against terms of size 1).
    let r = Rounding::of(&crate::Tolerances::<f32>::default());
    for johnson in [false, true] {
        let mut s = Simplex::<f32, 2>::new();
        let mut j = Johnson::new();
        s.push(
            SupportPoint::new(Point2::new(1e4, -0.25), Point2::origin()),
            johnson.then_some(&mut j),
        );
        s.push(
            SupportPoint::new(Point2::new(1e4, 0.75), Point2::origin()),
            johnson.then_some(&mut j),
        );
        let c = s.solve(johnson.then_some(&j), &r).unwrap();
        assert!((c.v - Vector2::new(1e4, 0.0)).norm() < 2e-3, "{:?}", c.v);
    }
}

#[cfg(feature = "fixed")]
mod fixed_tests {
    use super::*;
    use nalgebra::{Point3, Vector3};
    use simba::scalar::FixedI40F24 as Fx;

    /// GJK's iteration 10 on two ellipsoids 1e-4 apart (fixed point): a segment and a new
    /// vertex, 0.05 across, whose triangle's closest point (1.21578e-3 from the origin, in
    /// its interior) is 1e-5 closer than the segment's (1.22600e-3).
    fn small_triangle() -> [Vector3<f64>; 3] {
        [
            Vector3::new(
                0.020998835563659668,
                -0.0333673357963562,
                0.022930562496185303,
            ),
            Vector3::new(
                -0.03522831201553345,
                0.05451810359954834,
                -0.041455209255218506,
            ),
            Vector3::new(
                -0.016300320625305176,
                0.008378565311431885,
                -0.007094025611877441,
            ),
        ]
    }

    fn f<T: Real>(x: T) -> f64 {
        x.to_subset().unwrap()
    }

    /// The optimality condition of a short `v`: at `‖v‖ = 1.2e-3` against vertices 0.05
    /// across, `v·(yⱼ − v)` is a few ulps and the slack `(rel·|v|∞·4 + abs)·m` was under
    /// one, so the exact interior point failed its certificate by rounding and went to the
    /// search. Tested on `v` at unit size, signed volumes' own answer is kept.
    #[test]
    fn short_v_passes_its_certificate_at_unit_size_fixed() {
        let r = Rounding::of(&crate::Tolerances::<Fx>::default());
        let mut s = Simplex::<Fx, 3>::new();
        for y in small_triangle() {
            let p = Point3::from(y.map(crate::real::lit::<Fx>));
            assert!(
                s.push(SupportPoint::new(p, Point3::origin()), None)
                    .is_some()
            );
        }
        let c = s.solve(None, &r).expect("solvable");
        let n = f(crate::real::norm(&c.v));
        assert_eq!(c.via, Solver::SignedVolumes, "{c:?}");
        assert_eq!(s.len(), 3);
        assert!((n - 1.2157834772361879e-3).abs() < 1e-7, "{n}");
    }

    /// The projection of the origin onto the same triangle's plane: products of its
    /// unscaled edges (`q̃·q̃` about 1e-6, 16 ulps) left `v` off by 1e-6 and more; on the
    /// vertices scaled by a power of two it is within a few ulps of the exact point.
    #[test]
    fn small_simplex_projects_on_scaled_vertices_fixed() {
        let pts = small_triangle().map(|y| {
            SupportPoint::new(
                Point3::from(y.map(crate::real::lit::<Fx>)),
                Point3::origin(),
            )
        });
        let mut slots = [SupportPoint::new(Point3::origin(), Point3::origin()); 4];
        slots[..3].copy_from_slice(&pts);
        let mut lambda = <Const<3> as Dim>::slots(Fx::from_num(0));
        let v =
            crate::gjk::project::project(&slots, crate::gjk::VertexSet::first(3), 2, &mut lambda)
                .expect("projects")
                .v;
        // The exact projection (rational arithmetic on the vertices as stored).
        let want = Vector3::new(
            -5.087_760_311_293_243e-5_f64,
            -7.388_935_061_503_359e-4,
            -9.641_459_016_097_422e-4,
        );
        let err = (v.map(f) - want).amax();
        assert!(err < 5e-7, "{v:?}: off by {err:e}");
    }
}

#[cfg(feature = "fixed")]
mod tie_tests {
    use super::*;
    use nalgebra::{Point3, Vector3};
    use simba::scalar::FixedI40F24 as Fx;

    /// Johnson in fixed point on two 100-point hulls 1e-4 apart (GJK's last iteration): an
    /// edge `y₁y₂` and a new vertex `w` 0.75 away whose triangle holds the closest point at
    /// `λ_w = 3e-7`. The sign tests reject the triangle, the search found its point an ulp
    /// farther than the edge's and kept the edge, whose direction proves nothing
    /// (`NoProgress`, lower bound 0, `intersects` true); the triangle is kept now, and the
    /// stalled run's bound along its direction proves the pair apart.
    #[test]
    fn new_vertex_wins_a_tie_fixed() {
        let r = Rounding::of(&crate::Tolerances::<Fx>::default());
        let ys = [
            Vector3::new(
                0.11565500497817993,
                0.5317477583885193,
                -0.14896917343139648,
            ),
            Vector3::new(
                -0.023600101470947266,
                -0.10907101631164551,
                0.03053569793701172,
            ),
            Vector3::new(0.08591979742050171, 0.5731474757194519, -0.518583357334137),
        ];
        let mut s = Simplex::<Fx, 3>::new();
        let mut j = Johnson::new();
        for y in ys {
            let p = Point3::from(y.map(crate::real::lit::<Fx>));
            assert!(
                s.push(SupportPoint::new(p, Point3::origin()), Some(&mut j))
                    .is_some()
            );
        }
        // The search itself (the run reached it through Johnson's rejected sign tests).
        let c = s.search(false, &r, Some(&j)).expect("solvable");
        assert_eq!(s.len(), 3, "{c:?}");
    }
}
