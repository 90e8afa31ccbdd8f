//! Regressions for the findings of the fuzzers and the seeded sweep (docs/testing.md, §3),
//! one per mechanism, with the numerical mechanism that broke it. Scalar-generic cases run
//! for f32, f64 and FixedI40F24, in 2D and 3D where they apply.
// Reproductions keep the exact decimal inputs they were found with.
#![allow(clippy::excessive_precision)]

mod common;
use common::*;
use convex_proximity::{
    Real, Termination, Tolerances,
    clip::{Feature, FeatureMap},
    epa::ContactDim,
    lit, query,
    shape::{
        Ball, Cone, Cuboid, Cylinder, Hull, MinkowskiSum, PointShape, Polytope, Rounded, Segment,
        Shape, SupportMap, Transformed,
    },
};
use nalgebra::{
    Const, Isometry, Isometry2, Matrix2, Matrix3, Point, Point2, Point3, Rotation, Rotation2,
    Rotation3, SVector, Translation, Translation2, Translation3, UnitComplex, Vector2, Vector3,
};

/// `contact`'s own promise, `point_b − point_a = separation · normal`: the largest
/// coordinate of the difference.
fn witness_gap<T: Real, const D: usize>(c: &query::Contact<T, D>) -> f64 {
    back(&(c.point_b - c.point_a - c.normal.into_inner() * c.separation)).amax()
}

/// The signed distance of `x` to the box `[−h, h]` (closed form).
fn box_signed_distance<const D: usize>(h: &SVector<f64, D>, x: &SVector<f64, D>) -> f64 {
    let q = x.abs() - h;
    q.map(|c| c.max(0.0)).norm() + q.max().min(0.0)
}

// ------------------------------------------- F7: EPA touching on cores GJK left unproven

/// Ball–box pairs, half of them with GJK capped at 1–3 iterations (a user's tolerance):
/// the capped GJK stops before it proves the ball's centre (its core) outside the box, so
/// EPA runs on cores that do not overlap. Its seed then grows towards the origin and
/// finds `A − B` does not reach past it: `Touching`, with the pair of the facet point
/// nearest the origin, up to 0.68 from it (fuzz sweep, 2D f64: a ball whose centre is
/// 0.23 outside a box got separation −r, witnesses 0.55 apart where `separation · normal`
/// put them at 0). A `Touching` EPA answer now takes the pair nearer the origin, GJK's or
/// EPA's, apart by its length along it after GJK's cap: witnesses exact, truth inside the bounds.
fn epa_touching_answer_keeps_a_consistent_pair<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(7);
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 2000 } else { 20000 };
    let mut capped = 0;
    for i in 0..n {
        let h: SVector<f64, D> = rng.vector(0.1, 2.0);
        let r = rng.uniform(0.1, 1.5);
        let (pa, pa64) = random_pose::<T, D>(&mut rng, 2.0);
        let (pb, pb64) = random_pose::<T, D>(&mut rng, 2.0);
        let (a, b) = (Ball::new(lit::<T>(r)), Cuboid::new(v::<T, D>(&h)));
        let mut tol = tol::<T>();
        if i % 2 == 0 {
            tol = tol
                .with_gjk_max_iterations(1 + (rng.next_u64() % 3) as u32)
                .unwrap();
        }
        let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
        let centre = pb64.inverse_transform_point(&pa64.translation.vector.into());
        let truth = box_signed_distance(&back(&b.half_extents), &centre.coords) - f(a.radius);
        let ctx = || format!("case {i}: truth {truth}, {c:?}");
        assert!(witness_gap(&c) <= acc, "witnesses: {}", ctx());
        assert!(
            f(c.lower_bound) <= truth + acc && truth - acc <= f(c.upper_bound),
            "bounds: {}",
            ctx()
        );
        assert!(
            f(c.lower_bound) <= f(c.separation) + acc && f(c.separation) <= f(c.upper_bound) + acc,
            "separation outside its bounds: {}",
            ctx()
        );
        capped +=
            usize::from(c.termination == Termination::MaxIterations && c.separation < T::zero());
    }
    // The path is exercised: penetrating balls whose core distance GJK left unproven.
    assert!(capped > n / 100, "{capped} capped cases");
}
cases!(epa_touching_answer_keeps_a_consistent_pair, [2 => d2, 3 => d3]);

/// The fuzz sweep's reproduction (2D seed 15550 of `query_2d`, `gjk_max_iterations` 2):
/// the ball's centre is 0.2277 outside the box; separation −0.99513, not −r = −1.22283.
fn epa_touching_answer_keeps_a_consistent_pair_reproduction<T: Real>() {
    let rot = |m: Matrix2<f64>| {
        UnitComplex::from_rotation_matrix(&Rotation2::from_matrix_unchecked(m.map(lit::<T>)))
    };
    let pa = Isometry2::from_parts(
        Translation2::new(lit::<T>(-1.2286869611657893), lit(-1.400198367284657)),
        rot(Matrix2::new(
            -0.2457496275634972,
            -0.9693333382033253,
            0.9693333382033253,
            -0.2457496275634972,
        )),
    );
    let pb = Isometry2::from_parts(
        Translation2::new(lit::<T>(-1.9459220263981079), lit(-1.3196307316701)),
        rot(Matrix2::new(
            0.579201065189722,
            0.8151847189950824,
            -0.8151847189950824,
            0.579201065189722,
        )),
    );
    let a = Ball::new(lit::<T>(1.222826733806363));
    let b = Cuboid::new(nalgebra::Vector2::new(
        lit::<T>(0.25340581368734266),
        lit(1.81923781185626),
    ));
    let tol = tol::<T>().with_gjk_max_iterations(2).unwrap();
    let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
    let acc = accuracy::<T>(4.0) * 4.0;
    assert!(witness_gap(&c) <= acc, "{c:?}");
    assert!((f(c.separation) + 0.9951317283211761).abs() <= acc, "{c:?}");
    assert!(
        f(c.lower_bound) <= -0.99513 && -0.99514 <= f(c.upper_bound),
        "{c:?}"
    );
}

#[test]
fn epa_touching_answer_keeps_a_consistent_pair_reproduction_all() {
    epa_touching_answer_keeps_a_consistent_pair_reproduction::<f32>();
    epa_touching_answer_keeps_a_consistent_pair_reproduction::<f64>();
    #[cfg(feature = "fixed")]
    epa_touching_answer_keeps_a_consistent_pair_reproduction::<Fx>();
}

// ------------------------------------------- F5: an EPA cap spent before any face support

/// The signed distance of `x` to conv(`pts`) (inside: exact, the largest facet offset;
/// outside: a lower bound of the distance, enough to catch a point off the surface).
fn hull_signed_distance<const D: usize>(
    normals: &[SVector<f64, D>],
    pts: &[Point<f64, D>],
    x: &Point<f64, D>,
) -> f64 {
    normals
        .iter()
        .map(|n| n.dot(&x.coords) - vertex_support(pts, n))
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Concentric (or nearly) pairs: GJK stops on a vertex at the origin and EPA's seed
/// spends `2D` supports along the axes before its first polytope. With a user's cap of
/// 1–8 EPA iterations the cap was reached before any face's support: the depth's upper
/// bound fell back to the face's own distance and its witnesses, mixed from the first
/// polytope's vertices, lay deep inside the shapes (fuzz sweep, 3D f64, caps 5 and 6: a
/// witness 0.92 inside A, the truth outside the bounds [0.335, 0.335]). The nearest face
/// is now probed once past the cap when none was: the bounds hold the truth and the
/// witnesses are within their width of the surfaces.
fn epa_cap_spent_by_the_seed_still_bounds_the_depth<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(11);
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 60 } else { 600 };
    let mut capped = 0;
    for i in 0..n {
        // Centrally symmetric: the polytope's centre is its frame's origin, B's centre.
        let mut cloud = rng.sphere_points::<D>(if D == 2 { 8 } else { 6 }, SVector::zeros(), 1.0);
        cloud.extend(cloud.clone().iter().map(|x| Point::from(-x.coords)));
        let h: SVector<f64, D> = rng.vector(0.2, 0.8);
        let (pa, pa64) = random_pose::<T, D>(&mut rng, 1.0);
        let (mut pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        pb.translation = pa.translation;
        if i % 2 == 1 {
            pb.translation.vector += v::<T, D>(&rng.vector(-0.05, 0.05));
        }
        let pb64 = Isometry::from_parts(
            Translation::from(back(&pb.translation.vector)),
            Rotation::from_matrix_unchecked(pb.rotation.matrix().map(f::<T>)),
        );
        let Ok(a) = Polytope::try_new(cloud.iter().map(p::<T, D>).collect()) else {
            continue;
        };
        let b = Cuboid::new(v::<T, D>(&h));
        let tol = tol::<T>()
            .with_epa_max_iterations(1 + (rng.next_u64() % 8) as u32)
            .unwrap();
        let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
        // The oracles on the inputs as `T` holds them.
        let wa: Vec<_> = a
            .points()
            .iter()
            .map(|x| pa64.transform_point(&pback(x)))
            .collect();
        let wb = box_vertices(&back(&b.half_extents), &pb64);
        let truth = -sat_depth(&wa, &wb, 2.0).depth;
        let width = f(c.upper_bound) - f(c.lower_bound);
        let ctx = || format!("case {i}: truth {truth}, {c:?}");
        assert!(
            f(c.lower_bound) <= truth + acc && truth - acc <= f(c.upper_bound),
            "bounds: {}",
            ctx()
        );
        let na = facet_normals(&wa);
        let da = hull_signed_distance(&na, &wa, &pback(&c.point_a));
        let db = box_signed_distance(
            &back(&b.half_extents),
            &pb64.inverse_transform_point(&pback(&c.point_b)).coords,
        );
        assert!(
            da.abs() <= width + acc && db.abs() <= width + acc,
            "witnesses off the surfaces (A {da}, B {db}): {}",
            ctx()
        );
        capped += usize::from(c.termination == Termination::MaxIterations);
    }
    assert!(capped > n / 4, "{capped} capped cases");
}
cases!(epa_cap_spent_by_the_seed_still_bounds_the_depth, [2 => d2, 3 => d3]);

/// The same mechanism at default tolerances (`cargo fuzz`, `query_3d`, 10 artifacts, f32
/// and f64): a ball stretched by a singular map (rows 2 and 3 equal: a flat ellipse, `D −
/// 1` dimensional) and a small ball whose centre lies on it. The cores touch, `A − B` is
/// flat, and EPA's touching pair was a facet point 0.03 to 0.06 from the origin, so the
/// witnesses were that far off `separation · normal`. Now GJK's pair (a common point of
/// the cores) is taken. Here the flat core is a singular `Transformed` ball in 2D (a
/// segment) and 3D (an ellipse), the small ball's centre on it; before the fix 3D f32
/// and f64 failed (witnesses 0.12 and 7.2e-3 off), 2D and fixed-point did not reach it.
fn flat_core_touching_a_point_core_keeps_a_common_point<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(5);
    let acc = accuracy::<T>(4.0) * 4.0;
    for i in 0..if cfg!(debug_assertions) { 200 } else { 2000 } {
        // Singular: in 3D the third row repeats the second (an ellipse), in 2D the
        // second row is zero (a segment).
        let mut m = nalgebra::SMatrix::<f64, D, D>::from_fn(|_, _| rng.uniform(-1.5, 1.5));
        for r in 2..D {
            let row = m.row(1).into_owned();
            m.set_row(r, &row);
        }
        if D == 2 {
            m.set_row(1, &nalgebra::SMatrix::<f64, 1, D>::zeros());
        }
        let r = rng.uniform(0.3, 2.0);
        let t: SVector<f64, D> = rng.vector(-1.0, 1.0);
        let a = Transformed::new(Ball::new(lit::<T>(r)), m.map(lit::<T>), v::<T, D>(&t));
        // A point of the flat core: the image of a point of the ball.
        let u: SVector<f64, D> = rng.unit::<D>() * r * rng.uniform(0.0, 0.9);
        let centre = m * u + t;
        let (pb, _) = translation::<T, D>(&centre);
        let b = Ball::new(lit::<T>(0.05));
        let c = query::contact(&Isometry::identity(), &a, &pb, &b, &tol::<T>()).expect("valid");
        let ctx = || format!("case {i}: {c:?}");
        assert!(witness_gap(&c) <= acc, "witnesses: {}", ctx());
        assert!(
            f(c.lower_bound) <= -0.05 + acc && -0.05 - acc <= f(c.upper_bound),
            "bounds: {}",
            ctx()
        );
    }
}
cases!(flat_core_touching_a_point_core_keeps_a_common_point, [2 => d2, 3 => d3]);

// ------------------------------- F10: a cone's or cylinder's rim along a near-axial direction

/// The support and the features of a cylinder and a cone along directions a few units of
/// the scalar's resolution off the axis. The rim point is `r·(dx, dz)/σ`, `σ = ‖(dx, dz)‖`:
/// in FixedI40F24, `(dx, dz) = (−1, −1)` ulps has `σ` rounded to one ulp, so the rim point
/// came out at `(−r, −r)`, `√2·r` from the axis, outside the shape (fuzz sweep, 3D fixed:
/// a distance 0.0381 below the truth, with bounds that excluded it). The radial direction
/// is now normalised by its larger component first (`real::normalize`): every point stays
/// on the rim. Floats take supports 1e-30 off the axis, whose squares underflow.
fn rim_of_a_near_axial_direction_stays_on_the_rim<T: Real>() {
    let tiny = if is_fixed::<T>() {
        f(T::default_epsilon())
    } else {
        1e-30
    };
    let (h, r) = (0.5, 1.0);
    let cyl = Cylinder::new(lit::<T>(h), lit(r));
    let cone = Cone::new(lit::<T>(h), lit(r)); // slant normal ∝ (c, r/2h = 1, s)
    // The rounding of `r·u` and of `u`'s norm: a few ulps (fixed), a few ε (floats).
    let slack = 8.0 * f(T::default_epsilon()) * r;
    let radial = |x: &Point3<T>| (f(x.x).powi(2) + f(x.z).powi(2)).sqrt();
    let mut out = Feature::<T, 3>::default();
    for a in -4i32..=4 {
        for b in -4i32..=4 {
            if a == 0 && b == 0 {
                continue;
            }
            let (x, z) = (lit::<T>(f64::from(a) * tiny), lit::<T>(f64::from(b) * tiny));
            for y in [T::one(), -T::one()] {
                let d = Vector3::new(x, y, z);
                for (name, p) in [("cylinder", cyl.support(&d)), ("cone", cone.support(&d))] {
                    assert!(radial(&p) <= r + slack, "{name} support {p} along {d}");
                }
            }
            // Side features: the cylinder's side segment (`d` perpendicular to the axis)
            // and the cone's slant generator (`d_y = σ·r/2h`). Floats: 1e-12, whose
            // squares the features' tests of the region do not underflow.
            let (x, z) = if is_fixed::<T>() {
                (x, z)
            } else {
                (
                    lit::<T>(f64::from(a) * 1e-12),
                    lit::<T>(f64::from(b) * 1e-12),
                )
            };
            let side = (f(x).powi(2) + f(z).powi(2)).sqrt();
            let d = Vector3::new(x, T::zero(), z);
            cyl.feature(&d, &mut out);
            assert_eq!(out.id, 2, "cylinder side along {d}");
            for v in out.vertices.iter().map(|v| &v.point) {
                assert!(
                    (radial(v) - r).abs() <= slack,
                    "cylinder side {v} along {d}"
                );
            }
            assert!((back(&out.normal.into_inner()).norm() - 1.0).abs() <= slack);
            let d = Vector3::new(x, lit::<T>(side), z);
            cone.feature(&d, &mut out);
            for v in out.vertices.iter().map(|v| &v.point) {
                assert!(radial(v) <= r + slack, "cone feature {v} along {d}");
            }
        }
    }
}

#[test]
fn rim_of_a_near_axial_direction_stays_on_the_rim_all() {
    rim_of_a_near_axial_direction_stays_on_the_rim::<f32>();
    rim_of_a_near_axial_direction_stays_on_the_rim::<f64>();
    #[cfg(feature = "fixed")]
    rim_of_a_near_axial_direction_stays_on_the_rim::<Fx>();
}

/// The fuzz sweep's reproduction (seed 88166 of `query_3d_fixed`): a flat box against the
/// sum of a cone and a cylinder. GJK asked B for its support along a direction one ulp
/// off B's axis; the cylinder's rim point lay 0.6 outside it, and A–B answered 0.21035
/// with bounds [0.210339, 0.210352] where the distance is 0.2484326 (B–A, which did not
/// meet that direction, was right). Both orders now hold the truth in every scalar.
fn rim_of_a_near_axial_direction_reproduction<T: Real>() {
    let pose = |m: [f64; 9], t: [f64; 3]| {
        Isometry::<T, Rotation3<T>, 3>::from_parts(
            Translation3::new(lit::<T>(t[0]), lit(t[1]), lit(t[2])),
            Rotation3::from_matrix_unchecked(Matrix3::from_column_slice(&m).map(lit::<T>)),
        )
    };
    // Columns of the rotations, as the sweep printed them.
    let pa = pose(
        [
            -0.08666026103839591,
            -0.9435822089864834,
            -0.3195975814065957,
            0.22960548134414788,
            -0.3310851970346212,
            0.9152398129677644,
            -0.9694180326842902,
            0.005933564589232221,
            0.24534357688308484,
        ],
        [0.8013733119707025, -0.7934996566720074, 1.907408255130846],
    );
    let pb = pose(
        [
            0.2620960275460224,
            -0.6748665548639696,
            -0.689826648855081,
            -0.2617633653674012,
            -0.7377328568394875,
            0.6222782114866152,
            -0.9288625371367536,
            0.01747469786533712,
            -0.3700121917429048,
        ],
        [
            -0.12130922407873657,
            -0.3567864499885558,
            -1.765316243228809,
        ],
    );
    let a = Cuboid::new(Vector3::new(
        lit::<T>(0.7085397116044863),
        lit(1.9075806820782786),
        T::zero(),
    ));
    let b = MinkowskiSum::new(
        Cone::new(lit::<T>(0.08070725566491188), lit(1.440753032730602)),
        Cylinder::new(lit::<T>(0.3244907301441977), lit(1.4671457999542228)),
    );
    // f64 GJK at gjk_rel 1e-12, both orders agreeing to 3e-12; the inputs' rounding in
    // `T` moves it by less than 1e-7.
    let truth = 0.2484325716543874;
    let slack = 1e-6;
    let ab = query::distance(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
    let ba = query::distance(&pb, &b, &pa, &a, &tol::<T>()).expect("valid input");
    for d in [ab, ba] {
        assert!(
            f(d.lower_bound) <= truth + slack && truth - slack <= f(d.upper_bound),
            "{d:?}"
        );
    }
}

#[test]
fn rim_of_a_near_axial_direction_reproduction_all() {
    rim_of_a_near_axial_direction_reproduction::<f32>();
    rim_of_a_near_axial_direction_reproduction::<f64>();
    #[cfg(feature = "fixed")]
    rim_of_a_near_axial_direction_reproduction::<Fx>();
}

// ------------------------------ F9: EPA's witnesses on one of several coplanar faces

/// The world vertices of `Segment(p, q) ⊕ Cuboid(h)` at `pose`: the boxes at both ends.
fn swept_box(
    p: &Point3<f64>,
    q: &Point3<f64>,
    h: &Vector3<f64>,
    pose: &Pose<f64, 3>,
) -> Vec<Point3<f64>> {
    [p, q]
        .iter()
        .flat_map(|e| {
            box_vertices(
                h,
                &Isometry::from_parts(Translation::from(e.coords), Rotation::identity()),
            )
        })
        .map(|x| pose.transform_point(&x))
        .collect()
}

/// Pairs of boxes swept along segments, unrotated: `A − B` has large flat facets (box
/// faces plus box faces), which EPA covers with several coplanar triangles of one
/// distance; the heap pops any of them, and the axis supports of its seed land on them.
/// The origin's projection `x` can then lie in another triangle of the facet: its
/// barycentric coordinates on the popped one are negative, and the witnesses mixed with
/// them lay past the triangle's vertices, off the shapes (fuzz sweep, 3D f64: a contact
/// witness 1.9e-4 outside A, on A's support plane). The witnesses now come from the
/// triangle that holds `x`, found by walking across coplanar neighbours.
fn epa_witnesses_come_from_the_face_holding_the_projection<T: Real>() {
    let mut rng = Rng(23);
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 60 } else { 1500 };
    let mut worst = 0.0f64;
    for i in 0..n {
        let shape = |rng: &mut Rng| {
            let (e0, e1) = (
                Point3::from(rng.vector::<3>(-1.0, 1.0)),
                Point3::from(rng.vector::<3>(-1.0, 1.0)),
            );
            let h: Vector3<f64> = rng.vector(0.1, 1.0);
            let s = MinkowskiSum::new(
                Segment::new(p::<T, 3>(&e0), p::<T, 3>(&e1)),
                Cuboid::new(v::<T, 3>(&h)),
            );
            (
                s,
                (
                    pback(&p::<T, 3>(&e0)),
                    pback(&p::<T, 3>(&e1)),
                    back(&v::<T, 3>(&h)),
                ),
            )
        };
        let (a, (pa0, pa1, ha)) = shape(&mut rng);
        let (b, (pb0, pb1, hb)) = shape(&mut rng);
        let (pose_a, pose_a64) = translation::<T, 3>(&rng.vector(-0.5, 0.5));
        let (pose_b, pose_b64) = translation::<T, 3>(&rng.vector(-0.5, 0.5));
        let c = query::contact(&pose_a, &a, &pose_b, &b, &tol::<T>()).expect("valid input");
        let (wa, wb) = (
            swept_box(&pa0, &pa1, &ha, &pose_a64),
            swept_box(&pb0, &pb1, &hb, &pose_b64),
        );
        let (na, nb) = (facet_normals(&wa), facet_normals(&wb));
        let da = hull_signed_distance(&na, &wa, &pback(&c.point_a));
        let db = hull_signed_distance(&nb, &wb, &pback(&c.point_b));
        let width = f(c.upper_bound) - f(c.lower_bound);
        worst = worst.max(da.abs().max(db.abs()) - width);
        assert!(
            da.abs() <= width + acc && db.abs() <= width + acc,
            "case {i}: witnesses off the surfaces (A {da:e}, B {db:e}): {c:?}"
        );
        assert!(witness_gap(&c) <= acc + width, "case {i}: {c:?}");
    }
    eprintln!("worst witness excess {worst:e}");
}

#[test]
fn epa_witnesses_come_from_the_face_holding_the_projection_all() {
    epa_witnesses_come_from_the_face_holding_the_projection::<f32>();
    epa_witnesses_come_from_the_face_holding_the_projection::<f64>();
    #[cfg(feature = "fixed")]
    epa_witnesses_come_from_the_face_holding_the_projection::<Fx>();
}

// ------------------------------------------ F9: clipping against a needle's tip

/// The manifold of polytope `a` against `b`, checked: every point on A (its hull's signed
/// distance) and on B (`on_b`, the signed distance of a world point; 0 when not checked),
/// none deeper than the contact, within `acc` plus the bounds' width. The number of points
/// checked (0 when `contact` fails).
fn check_clipped_on_a<T: Real, const D: usize, B: FeatureMap<T, D>>(
    i: usize,
    (pa, a, pa64): (&Pose<T, D>, &Polytope<T, D>, &Pose<f64, D>),
    (pb, b): (&Pose<T, D>, &B),
    acc: f64,
    on_b: impl Fn(&Point<f64, D>) -> f64,
) -> usize
where
    Const<D>: ContactDim<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let Ok(c) = query::contact(pa, a, pb, b, &tol::<T>()) else {
        return 0;
    };
    let m = query::manifold(pa, a, pb, b, lit(0.1), &tol::<T>()).expect("valid input");
    let wa: Vec<_> = a
        .points()
        .iter()
        .map(|x| pa64.transform_point(&pback(x)))
        .collect();
    let na = facet_normals(&wa);
    let slack = acc + (f(c.upper_bound) - f(c.lower_bound)).abs();
    for q in m.points() {
        let da = hull_signed_distance(&na, &wa, &pback(&q.point_a));
        let db = on_b(&pback(&q.point_b));
        assert!(
            da.abs() <= slack && db.abs() <= slack,
            "case {i}: point off A ({da:e}) or B ({db:e}): {q:?} in {m:?}, {c:?}"
        );
        assert!(
            f(q.separation) >= f(c.lower_bound) - slack,
            "case {i}: point deeper than the contact: {q:?} in {m:?}, {c:?}"
        );
    }
    m.points().len()
}

/// A sliver tetrahedron (a triangle and a copy of one corner moved by `δ` off its plane:
/// a cloud with a near-duplicate point) has faces that are needles `δ` wide; one can be
/// the manifold's reference face. Its two long edges' side planes meet at the tip at an
/// angle of about `δ`, and cut a point beyond the tip by its distance times that angle:
/// their rounding let clipped points through up to `rounding / δ` past the tip (fuzz
/// sweep, 3D f64, `δ` = 1.7e-12: a point 7.1e-7 past the tip, off A and 3.4e-7 deeper than
/// the contact). A supporting plane across each sharp corner's bisector now bounds it.
fn clip_against_a_needle_face_stays_within_its_tip<T: Real>() {
    let mut rng = Rng(29);
    let eps = f(T::default_epsilon());
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 300 } else { 3000 };
    let mut made = 0;
    for i in 0..n {
        let tri: Vec<Point3<f64>> = (0..3)
            .map(|_| Point3::from(rng.vector::<3>(-1.0, 1.0)))
            .collect();
        // Down to 64 ulps thin (fixed-point: 3.8e-6, where the short edge's side plane
        // lost its direction; see the planes' scaling in `clip::planes`).
        let delta = [1e-12, 64.0 * eps, 4096.0 * eps][i % 3].max(64.0 * eps);
        let mut cloud = tri.clone();
        cloud.push(tri[0] + Vector3::repeat(delta));
        let Ok(a) = Polytope::try_new(cloud.iter().map(p::<T, 3>).collect()) else {
            continue;
        };
        let (pa, pa64) = random_pose::<T, 3>(&mut rng, 0.5);
        let (pb, _) = random_pose::<T, 3>(&mut rng, 1.5);
        let b = Cylinder::new(lit::<T>(rng.uniform(0.2, 1.5)), lit(rng.uniform(0.2, 1.5)));
        made += check_clipped_on_a::<T, 3, _>(i, (&pa, &a, &pa64), (&pb, &b), acc, |_| 0.0);
    }
    assert!(made > n / 10, "{made} manifold points");
}

#[test]
fn clip_against_a_needle_face_stays_within_its_tip_all() {
    clip_against_a_needle_face_stays_within_its_tip::<f32>();
    clip_against_a_needle_face_stays_within_its_tip::<f64>();
    #[cfg(feature = "fixed")]
    clip_against_a_needle_face_stays_within_its_tip::<Fx>();
}

/// The 2D side planes: a triangle with one edge 64 ulps to 1e-3 long, that edge facing a
/// box it overlaps. As a reference edge its side planes' normal is the edge itself, which
/// fixed-point rounds to an absolute ulp: the planes are now made from the edge scaled
/// into `[1/2, 2)` (`clip::planes`). Every manifold point on both surfaces, none deeper
/// than the contact, every scalar.
fn clip_against_a_short_reference_edge_stays_on_it<T: Real>() {
    let mut rng = Rng(2203);
    let eps = f(T::default_epsilon());
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 300 } else { 3000 };
    let mut made = 0;
    for i in 0..n {
        let delta = [64.0 * eps, 4096.0 * eps, 1e-3][i % 3];
        let p0 = Point::<f64, 2>::from(rng.vector::<2>(-0.5, 0.5));
        let along = rng.unit::<2>();
        let tip = Point::<f64, 2>::new(-along[1], along[0]) * rng.uniform(0.5, 1.5);
        let tri = [p0, p0 + along * delta, p0 + tip.coords];
        let Ok(a) = Polytope::try_new(tri.iter().map(p::<T, 2>).collect()) else {
            continue;
        };
        // The box below the short edge (its outward normal is −tip), overlapping it.
        let h = Vector2::new(rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0));
        let n_out = -tip.coords.normalize();
        let centre = p0 + n_out * (h.norm() * rng.uniform(0.3, 0.9));
        let (pa, pa64) = random_pose::<T, 2>(&mut rng, 0.5);
        let angle = rng.uniform(-3.0, 3.0);
        let rb = Rotation2::new(angle);
        let pb64 = pa64 * Isometry::from_parts(Translation2::from(centre.coords), rb);
        let pb = Isometry::from_parts(
            Translation2::from(v::<T, 2>(&pb64.translation.vector)),
            Rotation2::from_matrix_unchecked(pb64.rotation.matrix().map(lit::<T>)),
        );
        let b = Cuboid::new(v::<T, 2>(&h));
        made += check_clipped_on_a::<T, 2, _>(i, (&pa, &a, &pa64), (&pb, &b), acc, |x| {
            box_signed_distance(&h, &pb64.inverse_transform_point(x).coords)
        });
    }
    assert!(made > n / 10, "{made} manifold points");
}
scalar_cases!(clip_against_a_short_reference_edge_stays_on_it);

/// A pose from the columns of its rotation and its translation, as the sweep prints them.
fn printed_pose<T: Real>(m: [f64; 9], t: [f64; 3]) -> (Pose<T, 3>, Pose<f64, 3>) {
    let mt = Matrix3::from_column_slice(&m).map(lit::<T>);
    let tt = Vector3::new(lit::<T>(t[0]), lit(t[1]), lit(t[2]));
    (
        Isometry::from_parts(Translation::from(tt), Rotation::from_matrix_unchecked(mt)),
        Isometry::from_parts(
            Translation::from(back(&tt)),
            Rotation::from_matrix_unchecked(mt.map(f::<T>)),
        ),
    )
}

/// The fuzz sweep's reproduction of the needle (seed 134415 of `manifold_3d_f64`): a
/// triangle with a corner repeated 1e-12 away against a cylinder; the manifold's point
/// was 3.4e-7 beyond A's support plane along the normal. (f32 and FixedI40F24 round the
/// repeated corner onto the first: a flat triangle.)
fn clip_against_a_needle_face_reproduction<T: Real>() {
    let cloud = [
        [0.3634851606012055, -0.993469138628214, -0.5188830395971618],
        [0.417898832684825, -0.7735255970092317, -0.16639963378347444],
        [0.43819333180743114, 0.30305943389028767, 0.756618600747692],
        [0.3634851606012055, -0.993469138628214, -0.5188830395971618],
        [0.3634851606022055, -0.993469138627214, -0.5188830395961618],
    ];
    let a = Polytope::try_new(
        cloud
            .iter()
            .map(|c| Point3::new(lit::<T>(c[0]), lit(c[1]), lit(c[2])))
            .collect(),
    )
    .expect("a triangle");
    let (pa, pa64) = printed_pose::<T>(
        [
            -0.308542842329237,
            0.2864078394718976,
            -0.9070677284174734,
            -0.9483013262974485,
            -0.16714025925852244,
            0.26979386256454047,
            -0.07433645801284744,
            0.9434164950985506,
            0.32317086469245726,
        ],
        [
            -0.7266041046768903,
            -0.16018921187151913,
            -0.16000610360875878,
        ],
    );
    let (pb, _) = printed_pose::<T>(
        [
            -0.91387271202541,
            0.25990082034324974,
            -0.3119106118749856,
            0.27890045547254205,
            -0.1564220324035275,
            -0.9474949518155537,
            -0.2950444070856633,
            -0.9528817929647179,
            0.07046336980171856,
        ],
        [-1.3689478904402228, 0.39359121080338744, -1.170885786221103],
    );
    let b = Cylinder::new(lit::<T>(1.6206225680933852), lit(1.4276012817578394));
    let c = query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
    let m = query::manifold(&pa, &a, &pb, &b, lit(0.2), &tol::<T>()).expect("valid input");
    let wa: Vec<_> = a
        .points()
        .iter()
        .map(|x| pa64.transform_point(&pback(x)))
        .collect();
    let n = back(&m.normal.into_inner());
    let slack = accuracy::<T>(4.0) * 4.0 + (f(c.upper_bound) - f(c.lower_bound));
    assert!(!m.is_empty(), "{m:?}");
    for q in m.points() {
        let beyond = n.dot(&pback(&q.point_a).coords) - vertex_support(&wa, &n);
        assert!(
            beyond <= slack,
            "{beyond:e} beyond A: {q:?} in {m:?}, {c:?}"
        );
        assert!(
            f(q.separation) >= f(c.lower_bound) - slack,
            "{q:?} in {m:?}, {c:?}"
        );
    }
}

#[test]
fn clip_against_a_needle_face_reproduction_all() {
    clip_against_a_needle_face_reproduction::<f32>();
    clip_against_a_needle_face_reproduction::<f64>();
    #[cfg(feature = "fixed")]
    clip_against_a_needle_face_reproduction::<Fx>();
}

/// The signed distance of `q` to `[e0, e1] ⊕ box(h) ⊕ ball(r)` (all in one frame): the box's
/// closed form, minimised over the segment by golden section (convex in the parameter).
fn swept_rounded_box_distance(
    e0: &Vector3<f64>,
    e1: &Vector3<f64>,
    h: &Vector3<f64>,
    r: f64,
    q: &Vector3<f64>,
) -> f64 {
    let g = |s: f64| box_signed_distance(h, &(q - (e0 + (e1 - e0) * s))) - r;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let (c, d) = (hi - phi * (hi - lo), lo + phi * (hi - lo));
        if g(c) < g(d) {
            hi = d;
        } else {
            lo = c;
        }
    }
    g(lo)
}

/// The fuzz sweep's reproduction of the coplanar faces (seed 175739 of `manifold_3d_f64`):
/// sums of a box and a linearly mapped collinear cloud (a segment), the same
/// orientation up to a rotation about x; `contact`'s witness on A was 1.85e-4 outside A,
/// on its support plane.
fn epa_witnesses_come_from_the_face_holding_the_projection_reproduction<T: Real>() {
    let pt = |c: &[f64; 3]| Point3::new(lit::<T>(c[0]), lit(c[1]), lit(c[2]));
    let mat = |m: [f64; 9]| Matrix3::from_column_slice(&m).map(lit::<T>);
    let vec = |c: [f64; 3]| Vector3::new(lit::<T>(c[0]), lit(c[1]), lit(c[2]));
    // A's cloud: multiples of (1, 0.3, 0.3), from −0.9484855420767528 to 0.9922789349202716.
    let (lo_a, hi_a) = (
        [
            -0.9484855420767528,
            -0.28454566262302583,
            -0.28454566262302583,
        ],
        [0.9922789349202716, 0.29768368047608146, 0.29768368047608146],
    );
    let ma = [
        -0.15961398215841485,
        -1.3182768017636948,
        -0.9678948401414437,
        -0.8550291393967718,
        0.8962650255004624,
        -1.0797152151323444,
        1.3941303089823285,
        0.39875562558734245,
        -0.7730106102638553,
    ];
    let ta = [0.1337453269245441, 0.8146944380865186, -0.18495460440985734];
    let ha = [0.41399404898146025, 1.6007164110780499, 1.5961043717097734];
    let ra = 0.8286907759212635;
    let a = MinkowskiSum::new(
        Transformed::new(
            Polytope::try_new(vec![
                pt(&lo_a),
                pt(&hi_a),
                pt(&[
                    0.17442587930113684,
                    0.05232776379034105,
                    0.05232776379034105,
                ]),
            ])
            .expect("a segment"),
            mat(ma),
            vec(ta),
        ),
        convex_proximity::shape::Rounded::new(Cuboid::new(vec(ha)), lit(ra)),
    );
    let cloud_b = [
        [-0.9169909208819714, 0.10841535057602814, 0.7151750972762645],
        [
            -0.8205233844510567,
            0.31828793774319064,
            -0.2213015945677882,
        ],
        [-0.0500953688868544, -0.49907682917524987, 0.443076218814374],
        [-0.616235599298085, 0.10875104905775546, -0.357473105973907],
        [-0.9169909208819714, 0.10841535057602814, 0.7151750972762645],
        [-0.9169909208809714, 0.10841535057702814, 0.7151750972772645],
    ];
    let b = MinkowskiSum::new(
        Transformed::new(
            Polytope::try_new(cloud_b.iter().map(pt).collect()).expect("a tetrahedron"),
            mat([
                1.37182421606775,
                1.0428702220187684,
                0.876424811169604,
                -0.6744563973449301,
                0.1007782101167316,
                1.4767452506294347,
                -0.2241016250858321,
                1.2598077363241016,
                -1.3555275806820783,
            ]),
            vec([
                -0.9728999771114671,
                -0.6678416113527124,
                -0.8724040588998245,
            ]),
        ),
        Cuboid::new(vec([
            0.7192515449759671,
            0.7182696269169146,
            1.9677157244220644,
        ])),
    );
    let (pa, pa64) = printed_pose::<T>(
        [
            1.0,
            1.2246467991473532e-16,
            1.2246467991473532e-16,
            -1.5360155020319495e-16,
            0.9537956006489726,
            0.3004562400461432,
            -8.001099567192336e-17,
            -0.3004562400461432,
            0.9537956006489726,
        ],
        [-2.0, -2.0, -2.0],
    );
    let (pb, _) = printed_pose::<T>(
        [
            1.0,
            1.2246467991473532e-16,
            1.2246467991473532e-16,
            -1.2246467991473535e-16,
            1.0,
            1.2246467991473532e-16,
            -1.224646799147353e-16,
            -1.2246467991473535e-16,
            1.0,
        ],
        [-2.0, -2.0, -2.0],
    );
    let c = query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
    // A in its own frame, from the inputs as `T` holds them.
    let r = |x: f64| f(lit::<T>(x));
    let m64 = Matrix3::from_column_slice(&ma).map(r);
    let t64 = Vector3::from_column_slice(&ta).map(r);
    let (e0, e1) = (
        m64 * Vector3::from_column_slice(&lo_a).map(r) + t64,
        m64 * Vector3::from_column_slice(&hi_a).map(r) + t64,
    );
    let h64 = Vector3::from_column_slice(&ha).map(r);
    let on_a = |x: &Point3<T>| {
        let q = pa64.inverse_transform_point(&pback(x)).coords;
        swept_rounded_box_distance(&e0, &e1, &h64, r(ra), &q)
    };
    let slack = accuracy::<T>(8.0) * 4.0 + (f(c.upper_bound) - f(c.lower_bound));
    let da = on_a(&c.point_a);
    assert!(da.abs() <= slack, "contact witness {da:e} off A: {c:?}");
}

#[test]
fn epa_witnesses_come_from_the_face_holding_the_projection_reproduction_all() {
    epa_witnesses_come_from_the_face_holding_the_projection_reproduction::<f32>();
    epa_witnesses_come_from_the_face_holding_the_projection_reproduction::<f64>();
    #[cfg(feature = "fixed")]
    epa_witnesses_come_from_the_face_holding_the_projection_reproduction::<Fx>();
}

// ------------------------------- an affine map's face turned away from the query direction

/// A random map far from a similarity: a rotation, a scale of 1 : `k` (`k` up to 20) and a
/// rotation.
fn anisotropic<const D: usize>(rng: &mut Rng) -> nalgebra::SMatrix<f64, D, D> {
    let k = rng.uniform(2.0, 20.0);
    let s = nalgebra::SMatrix::<f64, D, D>::from_fn(|i, j| {
        if i != j {
            0.0
        } else if i == 0 {
            1.0 / k.sqrt()
        } else {
            k.sqrt() / (i as f64)
        }
    });
    rotation::<D>(rng) * s * rotation::<D>(rng)
}

/// `Transformed` asks its inner shape for the face best aligned with `Mᵀ·d`; a map that is
/// not a similarity does not keep angles, so that face can map to one whose normal turns
/// away from `d` (fuzz sweep, 2D f64: a 10:1 scale gave a cosine of −0.68). The manifold
/// then pushed it inward by the rounding radius of an enclosing `Rounded`: a point 0.135
/// inside B. Such a feature is now the support point: every feature faces `d` (and in 2D
/// holds the support value).
fn affine_face_turned_away_falls_back_to_the_support_point<T: Real, const D: usize>()
where
    Const<D>: convex_proximity::Dim,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let mut rng = Rng(61 + D as u64);
    let acc = accuracy::<T>(20.0) * 20.0;
    let mut faces = 0;
    for i in 0..400 {
        let cloud: Vec<Point<f64, D>> = (0..4 + i % 6)
            .map(|_| Point::from(rng.vector::<D>(-1.0, 1.0)))
            .collect();
        let Ok(inner) = Polytope::try_new(cloud.iter().map(p::<T, D>).collect()) else {
            continue;
        };
        let m = anisotropic::<D>(&mut rng);
        let s = Transformed::new(inner, m.map(lit::<T>), SVector::zeros());
        let image: Vec<Point<f64, D>> = cloud.iter().map(|x| Point::from(m * x.coords)).collect();
        let mut out = Feature::default();
        for _ in 0..8 {
            let d = rng.unit::<D>();
            s.feature(&v::<T, D>(&d), &mut out);
            let n = back(&out.normal.into_inner());
            assert!(
                n.dot(&d) > 0.0,
                "case {i}: feature normal {n} against {d}: {out:?}"
            );
            // 2D: the edge best aligned with `Mᵀ·d` is one of the two at the support
            // vertex along it, and the map keeps supports. (3D: the best aligned face of a
            // polytope need not hold its support vertex, so only the facing is checked.)
            if D == 2 {
                let top = out
                    .vertices
                    .iter()
                    .map(|x| d.dot(&pback(&x.point).coords))
                    .fold(f64::NEG_INFINITY, f64::max);
                let h = vertex_support(&image, &d);
                assert!(
                    (top - h).abs() <= acc,
                    "case {i}: feature at {top}, support {h}"
                );
            }
            faces += usize::from(out.vertices.len() >= D);
        }
    }
    assert!(faces > 1000, "{faces} faces");
}

#[test]
fn affine_face_turned_away_falls_back_to_the_support_point_all() {
    affine_face_turned_away_falls_back_to_the_support_point::<f32, 2>();
    affine_face_turned_away_falls_back_to_the_support_point::<f64, 2>();
    affine_face_turned_away_falls_back_to_the_support_point::<f32, 3>();
    affine_face_turned_away_falls_back_to_the_support_point::<f64, 3>();
    #[cfg(feature = "fixed")]
    {
        affine_face_turned_away_falls_back_to_the_support_point::<Fx, 2>();
        affine_face_turned_away_falls_back_to_the_support_point::<Fx, 3>();
    }
}

/// The signed distance of `q` to conv(`pts`) ⊕ ball(`r`), 2D, exact: inside the core the
/// largest facet offset, outside the nearest of all segments between two points (the
/// hull's edges are among them, every other chord lies inside it).
fn rounded_polygon_signed_distance(pts: &[Point<f64, 2>], r: f64, q: &Point<f64, 2>) -> f64 {
    let normals = facet_normals(pts);
    let inside = hull_signed_distance(&normals, pts, q);
    let core = if inside <= 0.0 {
        inside
    } else {
        let mut best = f64::INFINITY;
        for (i, a) in pts.iter().enumerate() {
            for b in &pts[i..] {
                let e = b - a;
                let t = if e.norm_squared() > 0.0 {
                    ((q - a).dot(&e) / e.norm_squared()).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                best = best.min((q - (a + e * t)).norm());
            }
        }
        best
    };
    core - r
}

/// The manifold end of the same mechanism, 2D: a rounded, anisotropically mapped polygon
/// deep in a box; every manifold point lies on both surfaces.
fn affine_rounded_polygon_manifold_points_stay_on_the_surface<T: Real>() {
    let mut rng = Rng(67);
    let acc = accuracy::<T>(10.0) * 10.0;
    let mut made = 0;
    for i in 0..600 {
        let cloud: Vec<Point<f64, 2>> = (0..3 + i % 6)
            .map(|_| Point::from(rng.vector::<2>(-1.0, 1.0)))
            .collect();
        let Ok(inner) = Polytope::try_new(cloud.iter().map(p::<T, 2>).collect()) else {
            continue;
        };
        let m = anisotropic::<2>(&mut rng);
        let r = rng.uniform(0.0, 1.8);
        let a = convex_proximity::shape::Rounded::new(
            Transformed::new(inner, m.map(lit::<T>), SVector::zeros()),
            lit::<T>(r),
        );
        let h = rng.vector::<2>(0.3, 2.0);
        let b = Cuboid::new(v::<T, 2>(&h));
        let (pa, pa64) = random_pose::<T, 2>(&mut rng, 0.5);
        let (pb, pb64) = random_pose::<T, 2>(&mut rng, 1.5);
        let Ok(c) = query::contact(&pa, &a, &pb, &b, &tol::<T>()) else {
            continue;
        };
        let mm = query::manifold(&pa, &a, &pb, &b, lit(0.1), &tol::<T>()).expect("valid input");
        let image: Vec<Point<f64, 2>> = cloud.iter().map(|x| Point::from(m * x.coords)).collect();
        let slack = acc + (f(c.upper_bound) - f(c.lower_bound)).abs();
        for q in mm.points() {
            made += 1;
            let qa = pa64.inverse_transform_point(&pback(&q.point_a));
            let qb = pb64.inverse_transform_point(&pback(&q.point_b));
            let da = rounded_polygon_signed_distance(&image, r, &qa);
            let db = box_signed_distance(&h, &qb.coords);
            assert!(
                da.abs() <= slack && db.abs() <= slack,
                "case {i}: point off the surfaces (A {da:e}, B {db:e}): {q:?} in {mm:?}, {c:?}"
            );
        }
    }
    assert!(made > 300, "{made} manifold points");
}

#[test]
fn affine_rounded_polygon_manifold_points_stay_on_the_surface_all() {
    affine_rounded_polygon_manifold_points_stay_on_the_surface::<f32>();
    affine_rounded_polygon_manifold_points_stay_on_the_surface::<f64>();
    #[cfg(feature = "fixed")]
    affine_rounded_polygon_manifold_points_stay_on_the_surface::<Fx>();
}

// ------------------------------------------------- F8: a capped contact's witnesses

/// At GJK's or EPA's cap a contact's witnesses mix support points taken along earlier
/// directions, pushed out by the radii along the final normal: points inside the shapes
/// (fuzz sweep, 2D f64, GJK capped at one iteration: 0.032 inside a disc with bounds 0.011
/// wide; seeds 700000–899999: 0.39 and 0.56 inside with GJK capped at one iteration). A
/// capped contact's lower bound is now at most the gap between the supporting planes
/// normal to its normal, which is the separation minus both witnesses' depths: the bounds
/// stay proven and their width covers the witnesses. A rounded box against a capsule and
/// against a ball (whose truth has a closed form), GJK capped at 1–3 iterations, EPA at 1–6.
fn capped_contact_bounds_cover_its_witnesses<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(71 + D as u64);
    let acc = accuracy::<T>(6.0) * 6.0;
    let n = if cfg!(debug_assertions) { 1500 } else { 15000 };
    let mut capped = 0;
    for i in 0..n {
        let h: SVector<f64, D> = rng.vector(0.05, 1.5);
        let ra = rng.uniform(0.0, 1.5);
        let (e0, e1) = (rng.vector::<D>(-1.0, 1.0), rng.vector::<D>(-1.0, 1.0));
        let rb = rng.uniform(0.0, 1.5);
        let a = convex_proximity::shape::Rounded::new(Cuboid::new(v::<T, D>(&h)), lit::<T>(ra));
        let capsule =
            convex_proximity::shape::Capsule::new(p::<T, D>(&e0.into()), p(&e1.into()), lit(rb));
        let ball = Ball::new(lit::<T>(rb));
        let (pa, pa64) = random_pose::<T, D>(&mut rng, 2.5);
        let (pb, pb64) = random_pose::<T, D>(&mut rng, 2.5);
        let tol = tol::<T>()
            .with_gjk_max_iterations(1 + (rng.next_u64() % 3) as u32)
            .unwrap()
            .with_epa_max_iterations(1 + (rng.next_u64() % 6) as u32)
            .unwrap();
        let in_a = |x: &Point<T, D>| pa64.inverse_transform_point(&pback(x)).coords;
        let in_b = |x: &Point<T, D>| pb64.inverse_transform_point(&pback(x)).coords;
        let sd_a = |x: &Point<T, D>| box_signed_distance(&h, &in_a(x)) - ra;
        let c = query::contact(&pa, &a, &pb, &capsule, &tol).expect("valid input");
        let ball_c = query::contact(&pa, &a, &pb, &ball, &tol).expect("valid input");
        let ball_truth =
            box_signed_distance(&h, &in_a(&Point::from(pb.translation.vector))) - ra - rb;
        for (k, c) in [c, ball_c].into_iter().enumerate() {
            if c.termination != Termination::MaxIterations {
                continue;
            }
            capped += 1;
            let width = f(c.upper_bound) - f(c.lower_bound);
            let db = if k == 0 {
                let q = in_b(&c.point_b);
                origin_segment(&(e0 - q), &(e1 - q)) - rb
            } else {
                in_b(&c.point_b).norm() - rb
            };
            let da = sd_a(&c.point_a);
            assert!(
                da.abs() <= width + acc && db.abs() <= width + acc,
                "case {i}/{k}: witnesses off the surfaces (A {da:e}, B {db:e}, width {width:e}): {c:?}"
            );
            assert!(witness_gap(&c) <= acc, "case {i}/{k}: witnesses: {c:?}");
            if k == 1 {
                assert!(
                    f(c.lower_bound) <= ball_truth + acc && ball_truth <= f(c.upper_bound) + acc,
                    "case {i}: truth {ball_truth} outside the bounds: {c:?}"
                );
            }
        }
    }
    assert!(capped > n / 4, "{capped} capped contacts");
}
cases!(capped_contact_bounds_cover_its_witnesses, [2 => d2, 3 => d3]);

// ------------------------------------------- F1: fixed-point EPA normal of a small face

/// Deep overlaps of hulls of fat capsules and points (curved cores: EPA's polytope ends
/// in faces a few thousandths across). Fixed-point rounds each product of the face's
/// normal, the cross product of two such edges, to an absolute ulp: the normal was a few
/// tenths of a per cent off in direction and the witnesses' difference, which lies along
/// the true normal, up to 1e-2 off `separation · normal` (fuzz sweep, 3D FixedI40F24,
/// 16 of 800 000 cases). Fixed-point EPA now takes the face's closest point, its weights
/// and its normal in `f64` (exactly rounded; the face's vertices convert to 2⁻⁵³). Floats
/// keep their own projection; all three scalars are checked.
/// Runs `contact` on `n` random cases and checks `contact`'s promise on every
/// penetrating one (only the converged ones if `converged_only`): the witnesses lie
/// `separation · normal` apart to the accuracy plus the bounds' width. At least a third of
/// the cases must penetrate.
fn assert_deep_witness_gaps<T: Real>(
    n: usize,
    converged_only: bool,
    mut rng: Rng,
    mut contact: impl FnMut(&mut Rng) -> query::Contact<T, 3>,
) {
    let acc = accuracy::<T>(4.0) * 4.0;
    let (mut deep, mut worst) = (0, 0.0f64);
    for i in 0..n {
        let c = contact(&mut rng);
        if c.separation >= T::zero() || (converged_only && !c.termination.is_converged()) {
            continue;
        }
        deep += 1;
        let width = f(c.upper_bound) - f(c.lower_bound);
        let gap = witness_gap(&c);
        worst = worst.max(gap);
        assert!(
            gap <= acc + width,
            "case {i}: witnesses {gap:e} off (width {width:e}): {c:?}"
        );
    }
    assert!(deep > n / 3, "{deep} deep contacts of {n}");
    println!("{deep} deep contacts, largest witness gap {worst:e}");
}

fn epa_normal_of_a_small_face_comes_from_its_closest_point<T: Real>() {
    let n = if cfg!(debug_assertions) { 150 } else { 1500 };
    assert_deep_witness_gaps::<T>(n, true, Rng(1729), |rng| {
        let fat = |rng: &mut Rng| {
            let (e0, e1) = (rng.vector::<3>(-1.0, 1.0), rng.vector::<3>(-1.0, 1.0));
            let r = rng.uniform(1.0, 2.0);
            let cap =
                convex_proximity::shape::Capsule::new(p::<T, 3>(&e0.into()), p(&e1.into()), lit(r));
            let x = rng.vector::<3>(-1.0, 1.0);
            convex_proximity::shape::Hull::new(
                cap,
                convex_proximity::shape::PointShape::new(p(&x.into())),
            )
        };
        let (a, b) = (fat(rng), fat(rng));
        let (pa, _) = random_pose::<T, 3>(rng, 1.5);
        let (pb, _) = random_pose::<T, 3>(rng, 1.5);
        query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input")
    });
}
scalar_cases!(epa_normal_of_a_small_face_comes_from_its_closest_point);

// ------------------------------------------- EPA witnesses on a needle face (any scalar)

/// A capsule deep in the hull of a fat segment and a ball: a cone's ruled side, where
/// EPA's last face is a needle (two corners 6e-11 apart, f64). The cross product's
/// rounding turns the needle's normal by 1e-5, the origin's foot lands outside the
/// triangle, and its weights (±2·10⁴ once normalised) put the witnesses 4e-7 off
/// `separation · normal` within bounds 5e-12 wide (fuzz seed 9238708 of `query_3d_f64`,
/// a `NoProgress` stop). The witnesses now come from the triangle's closest point when
/// its direction is the needle's normal to rounding. Every termination is checked. Rare:
/// over 100 000 cases of this family (release) the old weights failed once in f64 (1.1e-6
/// off, case 63270), so the reproduction below is the regression; this keeps the family.
fn capsule_in_a_cone(rng: &mut Rng) -> [f64; 13] {
    let mut c = [0.0; 13];
    for x in c.iter_mut().take(6) {
        *x = rng.uniform(-1.0, 1.0);
    }
    c[6] = rng.uniform(0.1, 0.6);
    for x in c.iter_mut().skip(7).take(6) {
        *x = rng.uniform(-1.0, 1.0);
    }
    c
}

fn cone_hull<T: Real>(
    s: [f64; 6],
    fat: f64,
    round: f64,
) -> convex_proximity::shape::Hull<MinkowskiSum<Segment<T, 3>, Ball<T>>, Ball<T>> {
    let seg = Segment::new(
        p::<T, 3>(&Point3::new(s[0], s[1], s[2])),
        p(&Point3::new(s[3], s[4], s[5])),
    );
    convex_proximity::shape::Hull::new(
        MinkowskiSum::new(seg, Ball::new(lit(fat))),
        Ball::new(lit(round)),
    )
}

fn epa_witnesses_on_a_needle_face_come_from_its_closest_point<T: Real>() {
    let n = if cfg!(debug_assertions) { 200 } else { 2000 };
    assert_deep_witness_gaps::<T>(n, false, Rng(9238708), |rng| {
        let c = capsule_in_a_cone(rng);
        let a = convex_proximity::shape::Capsule::new(
            p::<T, 3>(&Point3::new(c[0], c[1], c[2])),
            p(&Point3::new(c[3], c[4], c[5])),
            lit(c[6]),
        );
        let (fat, round) = (rng.uniform(0.8, 1.8), rng.uniform(0.3, 1.0));
        let b = cone_hull::<T>([c[7], c[8], c[9], c[10], c[11], c[12]], fat, round);
        let (pa, _) = random_pose::<T, 3>(rng, 1.0);
        let (pb, _) = random_pose::<T, 3>(rng, 1.0);
        query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input")
    });
}
scalar_cases!(epa_witnesses_on_a_needle_face_come_from_its_closest_point);

/// The sweep's case itself (seed 9238708 of `query_3d_f64`), as it printed it.
fn epa_witnesses_on_a_needle_face_reproduction<T: Real>() {
    let a = convex_proximity::shape::Capsule::new(
        p::<T, 3>(&Point3::new(
            -0.37261005569542993,
            0.5283436331731135,
            -0.4227512016479744,
        )),
        p(&Point3::new(
            0.2385137712672618,
            0.9518730449378194,
            0.8143892576485847,
        )),
        lit(0.5068596932936599),
    );
    let b = cone_hull::<T>(
        [
            0.4218966964217594,
            -0.5840695811398489,
            0.8145723659113451,
            -0.48693064774547956,
            0.8525368123903259,
            -0.9539787899595635,
        ],
        1.6472236209658961,
        0.9098031586175326,
    );
    let (pa, _) = printed_pose::<T>(
        [
            0.914614537069505,
            0.4025457890935624,
            0.037909580110787794,
            0.3956943105306163,
            -0.9104150760693807,
            0.12070791970406856,
            0.0831039180474378,
            -0.09540061293631633,
            -0.9919639418126749,
        ],
        [-0.2894026092927444, -1.6785839627679866, 1.9198596169985502],
    );
    let (pb, _) = printed_pose::<T>(
        [
            0.06505727087978935,
            0.2580651224208453,
            -0.9639346160894876,
            0.10872038935307449,
            0.958397561040743,
            0.26392042726941595,
            0.9919412424355535,
            -0.12196928949973158,
            0.034293789151113946,
        ],
        [0.2884870679789424, -1.8258640421149004, 1.4924238956282903],
    );
    let k = query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
    assert!(
        (f(k.separation) + 1.601046).abs() < 1e-4,
        "depth 1.601046: {k:?}"
    );
    let width = f(k.upper_bound) - f(k.lower_bound);
    let gap = witness_gap(&k);
    assert!(
        gap <= accuracy::<T>(4.0) * 4.0 + width,
        "witnesses {gap:e} off (width {width:e}): {k:?}"
    );
}
scalar_cases!(epa_witnesses_on_a_needle_face_reproduction);

// ---------------------------------- EPA witnesses on a facet the walk cannot cross (F1)

/// A rounded box swept along a segment deep in a fat capsule's hull with a ball: `A − B`
/// has a large flat facet (the box's face) that EPA covers with coplanar triangles. In
/// FixedI40F24 their planes, built from rounded support points, miss the origin's foot by
/// 4e-6 to 1.4e-5, beyond the band: `locate`'s walk stopped on a triangle beside the foot
/// and the witnesses came out 0.16 off `separation · normal` (fuzz sweep with the F1 skip off,
/// seed 7455818 of `query_3d_fixed`). The face the line through the foot along the normal
/// crosses from the front now stands in (`Polytope3::pierced`). Every scalar.
fn epa_witnesses_come_from_the_pierced_face_reproduction<T: Real>() {
    let a = MinkowskiSum::new(
        convex_proximity::shape::Capsule::new(
            p::<T, 3>(&Point3::new(
                -0.699671931029221,
                -0.33092240787365534,
                -0.7487449454489967,
            )),
            p(&Point3::new(
                -0.15916685740444037,
                -0.921690699626154,
                -0.575768673228046,
            )),
            lit(0.9111421377889677),
        ),
        MinkowskiSum::new(
            Ball::new(lit::<T>(1.8670244907301443)),
            Cuboid::new(SVector::<T, 3>::new(
                lit(0.425658045319295),
                lit(1.6720691233691922),
                lit(1.2728152895399405),
            )),
        ),
    );
    let b = convex_proximity::shape::Hull::new(
        convex_proximity::shape::Rounded::new(
            convex_proximity::shape::Capsule::new(
                p::<T, 3>(&Point3::new(
                    -0.5166857404440375,
                    -0.8410009918364233,
                    -0.7785000381475548,
                )),
                p(&Point3::new(
                    0.11229114213778901,
                    0.8917830167086289,
                    -0.25685511558709084,
                )),
                lit(0.6003799496452278),
            ),
            lit(0.48490043488212403),
        ),
        Ball::new(lit::<T>(0.2711100938429847)),
    );
    let (pa, _) = printed_pose::<T>(
        [
            -0.6416295885013312,
            0.47349497973900123,
            -0.6034185738950825,
            0.5436647967268075,
            -0.27419566965715736,
            -0.7932498493799177,
            -0.541054581312839,
            -0.8370300107542297,
            -0.08149049721999908,
        ],
        [
            0.14731059739070718,
            -0.05978484779125659,
            -1.0359960326543067,
        ],
    );
    let (pb, _) = printed_pose::<T>(
        [
            0.22256389231896295,
            -0.32578175694400546,
            0.9188751605513722,
            -0.9319792315494863,
            0.20553931107828532,
            0.298610621984371,
            -0.2861468605388885,
            -0.9228325083372068,
            -0.25787620239137443,
        ],
        [
            -1.631769283588922,
            -1.1024643320363166,
            -0.26437781338216215,
        ],
    );
    let k = query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
    assert!(
        (f(k.separation) + 3.82517).abs() < 1e-3,
        "depth 3.82517: {k:?}"
    );
    let width = f(k.upper_bound) - f(k.lower_bound);
    let gap = witness_gap(&k);
    assert!(
        gap <= accuracy::<T>(4.0) * 4.0 + width,
        "witnesses {gap:e} off (width {width:e}): {k:?}"
    );
}
scalar_cases!(epa_witnesses_come_from_the_pierced_face_reproduction);

// ------------------------------------- EPA converges on the closest facet's own support

/// The hull of two affine ellipses against a 10-point polygon (FixedI40F24, fuzz seed
/// 7972283 of `manifold_2d_fixed`). An earlier edge's support had closed the bounds
/// (`upper − lower`), so EPA stopped on the next closest edge whose own support was still
/// far: its normal was 114° off the true one, the shapes overlapping by 1.6207 along it
/// where the depth is 1.6054. EPA now stops only when the closest facet's own support
/// closes the gap, so the shapes overlap along the returned normal by the separation.
fn epa_converges_on_the_facets_own_support<T: Real>() {
    fn pose<U: Real>(m: [f64; 4], t: [f64; 2]) -> Pose<U, 2> {
        let r = Matrix2::from_column_slice(&m).map(lit::<U>);
        Isometry::from_parts(
            Translation2::new(lit(t[0]), lit(t[1])),
            Rotation2::from_matrix_unchecked(r),
        )
    }
    fn shapes<U: Real>() -> (Shape<U, 2>, Polytope<U, 2>) {
        let m = |m: [f64; 4]| Matrix2::from_column_slice(&m).map(lit::<U>);
        let ellipse = |r: f64, a: [f64; 4], t: [f64; 2]| {
            Transformed::new(
                Ball::new(lit::<U>(r)),
                m(a),
                Vector2::new(lit(t[0]), lit(t[1])),
            )
        };
        let a = Shape::hull(
            ellipse(
                0.6642343785763333,
                [0.6364133669031815, 0.0, 0.0, 0.1006134126802472],
                [0.11985961699855041, 0.9523918516823071],
            ),
            ellipse(
                1.049741359578851,
                [
                    -1.2709315632867932,
                    1.1572213321126115,
                    -0.3090180819409476,
                    -0.8280384527351796,
                ],
                [-0.42516212710765244, -0.5515068284122988],
            ),
        );
        let pts = [
            [-0.4736552986953536, -0.46761272602426185],
            [0.21211566338597687, -0.08104066529335474],
            [-0.9564202334630351, -0.1396047913328755],
            [0.022964827954528033, 0.8666666666666667],
            [0.6181277180132754, 0.22542153047989633],
            [0.6341802090486, 0.008377203021286306],
            [-0.06025787747005418, 0.5987182421606776],
            [0.6422369726100556, 0.8165255207141222],
            [-0.7101091020065613, 0.8647135118638896],
            [0.24577706569008928, 0.1805294880598154],
        ];
        let pts = pts
            .iter()
            .map(|c| Point2::new(lit(c[0]), lit(c[1])))
            .collect();
        (a, Polytope::try_new(pts).expect("a polygon"))
    }
    let rot_a = [
        0.06335505729158115,
        0.9979910504185799,
        -0.9979910504185799,
        0.06335505729158115,
    ];
    let rot_b = [
        -0.999801163820133,
        -0.019940732782615097,
        0.019940732782615097,
        -0.999801163820133,
    ];
    let (ta, tb) = (
        [-0.6397497520408941, 1.8806134126802472],
        [-1.0044403753719386, 1.511833371480888],
    );
    let (a, b) = shapes::<T>();
    let c = query::contact(
        &pose::<T>(rot_a, ta),
        &a,
        &pose::<T>(rot_b, tb),
        &b,
        &tol::<T>(),
    )
    .expect("valid input");
    // The overlap along the returned normal, p(n) = h_A(n) + h_B(−n), in f64 on f64 shapes.
    let (a64, b64) = shapes::<f64>();
    let (pa, pb) = (pose::<f64>(rot_a, ta), pose::<f64>(rot_b, tb));
    let n = back(&c.normal.into_inner());
    let overlap = support_value(&pa, &a64, &n) + support_value(&pb, &b64, &-n);
    let depth = -query::contact(&pa, &a64, &pb, &b64, &Tolerances::default())
        .expect("valid input")
        .separation;
    let slack = 4.0 * accuracy::<T>(2.0).max(1e-6) + f(c.upper_bound - c.lower_bound).abs();
    assert!(
        (overlap - depth).abs() <= slack && (f(-c.separation) - depth).abs() <= slack,
        "overlap {overlap} along the normal, separation {}, depth {depth}: {c:?}",
        f(c.separation)
    );
}
scalar_cases!(epa_converges_on_the_facets_own_support);

// ------------------------------------- a flat cloud's edge: the more perpendicular one

/// The distance from `x` to the triangle `t` (closed form: the plane inside it, else the
/// nearest edge).
fn triangle_distance(t: &[Vector3<f64>; 3], x: &Vector3<f64>) -> f64 {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0])).normalize();
    let h = (x - t[0]).dot(&n);
    let foot = x - n * h;
    let inside = (0..3).all(|k| {
        let (u, w) = (t[k], t[(k + 1) % 3]);
        (w - u).cross(&(foot - u)).dot(&n) >= 0.0
    }) || (0..3).all(|k| {
        let (u, w) = (t[k], t[(k + 1) % 3]);
        (w - u).cross(&(foot - u)).dot(&n) <= 0.0
    });
    if inside {
        return h.abs();
    }
    (0..3)
        .map(|k| {
            let (u, w) = (t[k], t[(k + 1) % 3]);
            let e = w - u;
            let s = ((x - u).dot(&e) / e.norm_squared()).clamp(0.0, 1.0);
            (x - u - e * s).norm()
        })
        .fold(f64::INFINITY, f64::min)
}

/// A flat cloud's feature away from its normal is the edge at the support vertex nearly
/// perpendicular to `dir` (`clip::feature::flat_feature`). Both edges there can be within
/// the ~0.9° tilt; the first one tried was taken, 0.29° off perpendicular while its
/// neighbour was at 0°, and `dir`'s part in the plane then pointed over the face from it:
/// a rounded shape's offset of that edge lay below the face's offset plane. Now the more
/// perpendicular edge. Triangles whose face is 1.5°–5° from `dir` (not facing it), with
/// one edge at the support vertex exactly perpendicular to `dir` and the other long and
/// shallow (0.1°–0.6° off), every scalar.
fn flat_feature_takes_the_more_perpendicular_edge<T: Real>() {
    let mut rng = Rng(51922751);
    let mut edges = 0;
    for i in 0..200 {
        let d = rng.unit::<3>();
        // In-plane directions: `w` ⊥ d (the tied edge), `o` ⊥ both.
        let w = d.cross(&rng.unit::<3>()).normalize();
        let o = d.cross(&w);
        let face_tilt = rng.uniform(1.5, 5.0).to_radians();
        let s = Vector3::from(rng.vector::<3>(-0.5, 0.5));
        let (len, along, aside) = (
            rng.uniform(0.3, 0.6),
            rng.uniform(0.8, 1.5),
            rng.uniform(0.02, 0.05),
        );
        // The third vertex far along `w`, a little to the side −o and below along d by
        // the face's tilt: the edge to it is shallow, the face tilted.
        let third = s + w * along - o * aside - d * (aside * face_tilt.tan());
        let tri = [s, s + w * len, third];
        let cloud: Vec<Point3<T>> = tri.iter().map(|x| p::<T, 3>(&Point3::from(*x))).collect();
        let Ok(poly) = Polytope::try_new(cloud) else {
            continue;
        };
        let mut f = Feature::default();
        poly.feature(&v::<T, 3>(&d), &mut f);
        if f.vertices.len() != 2 {
            continue;
        }
        edges += 1;
        let shallow = d.dot(&(third - s)).abs() / (third - s).norm();
        let e = pback(&f.vertices[1].point) - pback(&f.vertices[0].point);
        let cos = d.dot(&e).abs() / e.norm();
        assert!(
            cos < 0.5 * shallow,
            "case {i}: edge {:.4}° off perpendicular (the tied one is at 0°, the shallow one \
             {:.4}°)",
            cos.asin().to_degrees(),
            shallow.asin().to_degrees()
        );
    }
    assert!(edges > 100, "{edges} edge features of 200");
}
scalar_cases!(flat_feature_takes_the_more_perpendicular_edge);

/// The sweep's case (seed 51922751 of `manifold_3d_f64`): a box against a rounded (r =
/// 1.94) affine-mapped flat triangle; a manifold point was 1.2e-3 inside B. Every point on
/// both surfaces (exact triangle distance minus r; the box's closed form), every scalar.
fn flat_feature_takes_the_more_perpendicular_edge_reproduction<T: Real>() {
    let h = Vector3::new(1.060720988784619, 1.815399404898146, 1.208008697642481);
    let (pa, pa64) = printed_pose::<T>(
        [
            0.650802316335904,
            0.4136115068508608,
            0.636696054999858,
            -0.7477474351678413,
            0.20376390321541266,
            0.6319446533885187,
            0.13164390700574402,
            -0.8873588863289646,
            0.4418869636018727,
        ],
        [1.571404592965591, -0.5576562142366674, -0.21023880369268322],
    );
    let (pb, pb64) = printed_pose::<T>(
        [
            -0.06840088393920092,
            -0.02791139742522832,
            -0.997267402941712,
            -0.21247481442301847,
            -0.9762679439484319,
            0.041896955194924215,
            -0.97476959960405,
            0.21475999513985972,
            0.0608471213393665,
        ],
        [1.8436255436026552, 1.7559777218280308, 0.05654993514915674],
    );
    let inner = [
        [-0.9090257114518959, 0.5898069733730067, 0.1],
        [-0.8731670099946593, 0.19365224689097427, 0.1],
        [-0.04533455405508502, -0.9195544365606164, 0.1],
    ];
    let m = Matrix3::from_column_slice(&[
        -0.07249105812346282,
        -0.09256156647889337,
        1.127961173628258,
        1.1289597153978344,
        -0.08527098192028462,
        0.06555781388144492,
        0.07946076900398343,
        1.1270670886699898,
        0.09759492884351977,
    ]);
    let t = Vector3::new(0.8064545662623026, 0.5540398260471504, -0.08976882581826506);
    let r = 1.9414122224765393;
    let tri = Polytope::try_new(
        inner
            .iter()
            .map(|q| p::<T, 3>(&Point3::new(q[0], q[1], q[2])))
            .collect(),
    )
    .expect("a flat cloud");
    let b = convex_proximity::shape::Rounded::new(
        Transformed::new(tri, m.map(lit::<T>), v::<T, 3>(&t)),
        lit(r),
    );
    let a = Cuboid::new(v::<T, 3>(&h));
    // The oracle's triangle: the points and map as `T` holds them.
    let (m64, t64) = (m.map(|x| f(lit::<T>(x))), back(&v::<T, 3>(&t)));
    let corners: [Vector3<f64>; 3] = core::array::from_fn(|k| {
        let q = pback(&p::<T, 3>(&Point3::new(
            inner[k][0],
            inner[k][1],
            inner[k][2],
        )));
        m64 * q.coords + t64
    });
    let tol = tol::<T>();
    let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
    let mf = query::manifold(&pa, &a, &pb, &b, lit(0.1), &tol).expect("valid input");
    let slack = 4.0 * accuracy::<T>(4.0) + f(c.upper_bound - c.lower_bound).abs();
    for q in mf.points() {
        let qa = pa64.inverse_transform_point(&pback(&q.point_a)).coords;
        let qb = pb64.inverse_transform_point(&pback(&q.point_b)).coords;
        let (da, db) = (
            box_signed_distance(&h, &qa),
            triangle_distance(&corners, &qb) - f(lit::<T>(r)),
        );
        assert!(
            da.abs() <= slack && db.abs() <= slack,
            "off the surfaces (A {da:e}, B {db:e}): {q:?} in {mf:?}"
        );
    }
}
scalar_cases!(flat_feature_takes_the_more_perpendicular_edge_reproduction);

// ------------------------------------- EPA's normal on cores that touch (FixedI40F24)

/// The overlap of `A` and `B` along the unit `n` (`h_A(n) + h_B(−n)`, f64 oracles): the
/// depth along `n`, which a contact's normal must hold to its separation.
fn overlap_along(
    h_a: impl Fn(&Vector3<f64>) -> f64,
    h_b: impl Fn(&Vector3<f64>) -> f64,
    n: &Vector3<f64>,
) -> f64 {
    h_a(n) + h_b(&-n)
}

/// A rounded box and a segment on one of its core's edges: the cores touch along the edge
/// (depth 0), the shapes overlap by the radius, and any normal of the edge's normal cone
/// holds that depth. EPA ends on a face through the origin to the rounding; fixed-point
/// took its normal as the direction of the face's closest point to the origin, computed in
/// `f64`, which there is a point a few ulps from the origin: noise, while the witnesses it
/// goes with are as near `depth · n` apart as any (fuzz sweep, `manifold_3d_fixed` seeds
/// 52035233, 52106594, 61378140, 61976380: contacts `Converged` at the right depth with
/// normals along which the shapes overlapped by 0.25 to 2.4 more, manifold points 3e-2 to
/// 9e-2 off a surface). That direction is now taken only for a depth beyond the rounding;
/// else the face's own normal, computed in `f64`.
fn epa_normal_of_touching_cores_holds_the_depth<T: Real>() {
    let mut rng = Rng(61378140);
    let n = if cfg!(debug_assertions) { 300 } else { 3000 };
    for i in 0..n {
        let h: Vector3<f64> = rng.vector(0.2, 1.5);
        let h = v::<T, 3>(&h);
        let r = lit::<T>(rng.uniform(0.02, 1.0));
        // An edge of the core along x at (y, z) = (±h_y, ±h_z), a part of it.
        let (sy, sz) = (
            if rng.next_u64().is_multiple_of(2) {
                T::one()
            } else {
                -T::one()
            },
            if rng.next_u64().is_multiple_of(2) {
                T::one()
            } else {
                -T::one()
            },
        );
        let (x0, x1) = (
            lit::<T>(rng.uniform(-1.0, 0.5)),
            lit::<T>(rng.uniform(0.5, 1.0)),
        );
        let end = |x: T| Point3::new(x * h.x, sy * h.y, sz * h.z);
        let (a, b) = (
            convex_proximity::shape::Rounded::new(Cuboid::new(h), r),
            Segment::new(end(x0), end(x1)),
        );
        let (pose, pose64) = random_pose::<T, 3>(&mut rng, 2.0);
        let c = query::contact(&pose, &a, &pose, &b, &tol::<T>()).expect("valid input");
        let (h64, r64) = (back(&h), f(r));
        let ends = [pback(&b.a), pback(&b.b)];
        let h_a = |d: &Vector3<f64>| {
            let l = pose64.inverse_transform_vector(d);
            l.abs().dot(&h64) + r64 * l.norm() + pose64.translation.vector.dot(d)
        };
        let h_b = |d: &Vector3<f64>| {
            ends.iter()
                .map(|e| pose64.transform_point(e).coords.dot(d))
                .fold(f64::NEG_INFINITY, f64::max)
        };
        let nrm = back(&c.normal.into_inner());
        let slack = 4.0 * accuracy::<T>(4.0) + f(c.upper_bound - c.lower_bound).abs();
        let along = overlap_along(h_a, h_b, &nrm);
        assert!(
            along <= -f(c.separation) + slack,
            "case {i}: overlap {along} along the normal, separation {}: {c:?}",
            f(c.separation)
        );
        assert!(
            (f(c.separation) + r64).abs() <= slack,
            "case {i}: depth: {c:?}"
        );
    }
}
scalar_cases!(epa_normal_of_touching_cores_holds_the_depth);

// ------------------------------- EPA's witnesses on a face the walk reached (needles)

/// The fuzz sweep's reproduction (seed 61148788 of `query_3d_f64`): a cylinder deep in the
/// hull of a capsule-plus-ball and a segment, at tight tolerances. EPA ended on a needle of
/// the cylinder's side (two corners 2e-6 apart), and the walk to the face holding the
/// depth's foot `x` reached another needle, whose plane holds `x` to the rounding but turns
/// about its axis. The witnesses' weights projected the origin onto that plane instead of
/// `x`: they were 6.8e-8 off `separation · normal` within bounds 6e-14 wide. The weights
/// are now `x`'s own on the face the walk reached.
fn epa_weights_are_the_foots_on_the_face_the_walk_reached<T: Real>() {
    let pose = |m: [f64; 9], t: [f64; 3]| {
        Isometry::<T, Rotation3<T>, 3>::from_parts(
            Translation3::new(lit::<T>(t[0]), lit(t[1]), lit(t[2])),
            Rotation3::from_matrix_unchecked(Matrix3::from_column_slice(&m).map(lit::<T>)),
        )
    };
    // Columns of the rotations, as the sweep printed them.
    let pa = pose(
        [
            -0.18811494038690654,
            -0.1857714476709757,
            -0.96441782357724,
            -0.32261597175391465,
            0.9391488685774539,
            -0.11797600357261386,
            0.9276484808226164,
            0.28894354445101894,
            -0.23660076954138182,
        ],
        [
            -0.11038376440070197,
            -1.5635309376668955,
            1.3408102540627147,
        ],
    );
    let pb = pose(
        [
            0.2997698355565899,
            0.5608521465590167,
            -0.7717401864555961,
            -0.6002143748570443,
            -0.5179036487517277,
            -0.6095231864536529,
            -0.7415394459537149,
            0.6459262189366447,
            0.18137962891368836,
        ],
        [1.5458304722667275, -1.2255130846112765, 1.5812314030670636],
    );
    let pt = |x: f64, y: f64, z: f64| Point3::new(lit::<T>(x), lit(y), lit(z));
    let a = Cylinder::new(lit::<T>(0.4350904097047379), lit(1.864822613870451));
    let b = convex_proximity::shape::Hull::new(
        MinkowskiSum::new(
            convex_proximity::shape::Capsule::new(
                pt(
                    -0.5843747615777828,
                    0.6507209887846188,
                    -0.22822919050888835,
                ),
                pt(
                    0.6824292362859541,
                    -0.34099336232547495,
                    -0.5414053559166858,
                ),
                lit(0.9160517280842297),
            ),
            Ball::new(lit::<T>(0.8579995422293432)),
        ),
        Segment::new(
            pt(
                -0.5621271076523995,
                0.32588693064774543,
                0.19154650186923017,
            ),
            pt(
                0.30305943389028767,
                -0.09752040894178682,
                0.5157091630426489,
            ),
        ),
    );
    let mut tol = tol::<T>()
        .with_gjk_rel(lit(2.842170943040401e-14))
        .unwrap()
        .with_epa_rel(lit(2.842170943040401e-14))
        .unwrap();
    if is_fixed::<T>() {
        tol = Tolerances::default(); // the sweep's value is below fixed-point's ulp
    }
    let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
    let slack = accuracy::<T>(1.0) + f(c.upper_bound - c.lower_bound).abs();
    assert!(witness_gap(&c) <= slack, "{}: {c:?}", witness_gap(&c));
}
scalar_cases!(epa_weights_are_the_foots_on_the_face_the_walk_reached);

// ------------------------------------- F10: 2D EPA's witnesses on nearly collinear edges

/// A capsule under a nearly singular map is a sliver whose rounded ends are ellipses of
/// tiny curvature along its length; with a segment added and a small rounded ellipse
/// pressed into its long side, `A − B` has runs of short, nearly collinear edges there.
/// Two mechanisms put 2D EPA's witnesses off `separation · normal`:
/// - on an edge a few 1e-4 long, fixed-point's `p · e` and `e · e` are a few ulps, and the
///   projection's `p + t e` from them was off by a sixth of the edge (FixedI40F24: 1.1e-4
///   with bounds 6e-7 wide, case 1 of this family); the projection is now solved in f64;
/// - EPA chooses the nearest edge by distances rounded to the vertices' magnitude, so it
///   can stop on a neighbour of the edge the origin projects onto, and the projection,
///   clamped to that edge, was a vertex up to the edge's length away (the reproduction
///   below, fuzz seed 71152061 of `query_2d_fixed`: 0.033 off); the witnesses now come from
///   the edge holding the projection.
fn epa_witnesses_come_from_the_edge_holding_the_projection<T: Real>() {
    let mut rng = Rng(71152061);
    let acc = accuracy::<T>(1.0);
    let n = if cfg!(debug_assertions) { 200 } else { 2000 };
    let (mut worst, mut deep) = (0.0f64, 0);
    for i in 0..n {
        let (c0, c1) = (rng.vector::<2>(-1.0, 1.0), rng.vector::<2>(-1.0, 1.0));
        let col: Vector2<f64> = rng.vector(-1.5, 1.5);
        let lean = rng.uniform(-0.01, 0.01);
        let m = Matrix2::from_columns(&[col, col * lean + rng.vector::<2>(-1e-4, 1e-4)]);
        let capsule = convex_proximity::shape::Capsule::new(
            p::<T, 2>(&Point::from(c0)),
            p::<T, 2>(&Point::from(c1)),
            lit(rng.uniform(0.2, 1.0)),
        );
        let a = MinkowskiSum::new(
            Transformed::new(capsule, m.map(lit::<T>), v::<T, 2>(&rng.vector(-0.5, 0.5))),
            Segment::new(
                p::<T, 2>(&Point::from(rng.vector::<2>(-1.0, 1.0))),
                p::<T, 2>(&Point::from(rng.vector::<2>(-1.0, 1.0))),
            ),
        );
        let rounding = rng.uniform(0.1, 0.3);
        let b = convex_proximity::shape::Rounded::new(
            Transformed::new(
                Ball::new(lit::<T>(rng.uniform(0.5, 1.5))),
                Matrix2::from_diagonal(&rng.vector(0.05, 0.2)).map(lit::<T>),
                SVector::zeros(),
            ),
            lit::<T>(rounding),
        );
        // B on A's side at a random point, its core pressed in by up to 0.1.
        let (pa, _) = random_pose::<T, 2>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, 2>(&mut rng, 0.0);
        let u = v::<T, 2>(&rng.unit());
        let xa = pa.transform_point(&a.support(&pa.inverse_transform_vector(&u)));
        let xb = pb.transform_point(&b.support(&pb.inverse_transform_vector(&-u)));
        let press = lit::<T>(rounding + rng.uniform(0.0, 0.1));
        let pb = Isometry::from_parts(Translation::from(xa - xb - u * press), pb.rotation);
        let Ok(c) = query::contact(&pa, &a, &pb, &b, &tol::<T>()) else {
            continue;
        };
        deep += usize::from(c.separation < T::zero());
        let width = f(c.upper_bound) - f(c.lower_bound);
        let gap = witness_gap(&c);
        worst = worst.max(gap - width);
        assert!(gap <= acc + width, "case {i}: witnesses {gap:e} off: {c:?}");
    }
    eprintln!("worst witness excess {worst:e}, {deep} of {n} overlapping");
    assert!(deep > n / 2, "{deep} of {n} overlapping");
}
scalar_cases!(epa_witnesses_come_from_the_edge_holding_the_projection);

/// Seed 71152061 of `query_2d_fixed`, as printed: with the sweep's tolerances EPA stops on
/// the neighbour of the edge holding the projection (the second mechanism above).
fn epa_witnesses_come_from_the_edge_holding_the_projection_reproduction<T: Real>() {
    let pose = |m: [f64; 4], t: [f64; 2]| {
        Isometry::from_parts(
            Translation2::from(Vector2::new(lit::<T>(t[0]), lit(t[1]))),
            Rotation2::from_matrix_unchecked(Matrix2::from_column_slice(&m).map(lit::<T>)),
        )
    };
    let pt = |x: f64, y: f64| Point2::new(lit::<T>(x), lit(y));
    let a = MinkowskiSum::new(
        Transformed::new(
            convex_proximity::shape::Capsule::new(
                pt(-0.8115510795757992, -0.036026550698100235),
                pt(0.9334706645304036, -0.1274586099031052),
                lit(0.7161272602426185),
            ),
            Matrix2::from_column_slice(&[
                1.2116044861524378,
                -1.096841382467384,
                0.007072556649118766,
                -0.00638590066376743,
            ])
            .map(lit::<T>),
            Vector2::new(lit(0.5220263981078812), lit(-0.8922407873655298)),
        ),
        Segment::new(
            pt(-0.7741054398413062, -0.008957045853360768),
            pt(0.9189745937285421, -0.15403982604715039),
        ),
    );
    let b = convex_proximity::shape::Rounded::new(
        Transformed::new(
            Ball::new(lit::<T>(1.0976470588235294)),
            Matrix2::from_diagonal(&Vector2::new(0.13450446326390478, 0.08775921263447013))
                .map(lit::<T>),
            Vector2::new(lit(-0.8340428778515298), lit(-0.8824444953078507)),
        ),
        lit(0.26289768825818266),
    );
    let pa = pose(
        [
            0.1634260668907639,
            -0.9865555841718274,
            0.9865555841718274,
            0.1634260668907639,
        ],
        [-1.925108720531014, 0.9975432974746319],
    );
    let pb = pose(
        [
            -0.1503118449420563,
            -0.9886386343200003,
            0.9886386343200003,
            -0.1503118449420563,
        ],
        [-1.0523537041275655, -0.24875257495994507],
    );
    let tol = tol::<T>()
        .with_gjk_rel(lit(7.6e-6))
        .unwrap()
        .with_epa_rel(lit(7.6e-6))
        .unwrap()
        .with_gjk_touching(lit(5e-7))
        .unwrap()
        .with_gjk_abs(lit(5e-7))
        .unwrap()
        .with_gjk_resolution(lit(9.5e-7))
        .unwrap();
    let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
    let slack = accuracy::<T>(1.0) + f(c.upper_bound - c.lower_bound).abs();
    assert!(witness_gap(&c) <= slack, "{}: {c:?}", witness_gap(&c));
}
scalar_cases!(epa_witnesses_come_from_the_edge_holding_the_projection_reproduction);

// ------------------------- F11: rounded cores proven apart at a loose relative gap

/// A ball against a rounded polygon whose radii exceed the cores' distance, at the
/// sweep's loose `gjk_rel` (5.9e-3): GJK stops after one vertex with the cores' distance
/// bounded to within 0.5 % and its `v` 5.5° off the true normal (`1 − cos θ ≤ (upper −
/// lower) / upper`). The witnesses, pushed out by the radii (2.14, the distance 0.398)
/// along `v`, lie up to `radii · (1 − cos θ)` inside the shapes, past the bounds' width,
/// and the manifold built along `v` had a point 5e-3 deeper than the contact's lower bound
/// (FixedI40F24, fuzz seed 75004199 of `manifold_2d_fixed`, as printed). The lower bound
/// now comes down to the supporting planes' gap along the normal then (`query::capped`),
/// as at an iteration cap. Every scalar at the same tolerances.
fn rounded_cores_apart_at_a_loose_gap_cover_their_witnesses<T: Real>() {
    let pose = |m: [f64; 4], t: [f64; 2]| {
        Isometry::from_parts(
            Translation2::from(Vector2::new(lit::<T>(t[0]), lit(t[1]))),
            Rotation2::from_matrix_unchecked(Matrix2::from_column_slice(&m).map(lit::<T>)),
        )
    };
    let cloud = [
        [-0.852323186083772, -0.5804074158846417],
        [0.3799038681620508, -0.8456092164492256],
        [0.55898374914168, -0.30858319981689175],
        [0.17994964522774093, -0.6648203250171665],
        [0.438803692683299, 0.5074692912184329],
        [-0.24708934157320517, 0.24501411459525446],
        [0.16765087357900366, 0.35820553902494856],
        [-0.006485084306095956, 0.21434348058289454],
        [0.7261615930418861, 0.7096818493934538],
        [-0.011978332188906649, -0.8821087968261234],
        [-0.852323186083772, -0.5804074158846417],
        [-0.852323186082772, -0.5804074158836418],
    ];
    let a = Ball::new(lit::<T>(0.5906500343327993));
    let b = convex_proximity::shape::Rounded::new(
        Polytope::try_new(
            cloud
                .iter()
                .map(|c| Point2::new(lit(c[0]), lit(c[1])))
                .collect(),
        )
        .expect("a polygon"),
        lit::<T>(1.5534950789654385),
    );
    let pa = pose(
        [
            -0.9723825086535861,
            -0.2333929237671067,
            0.2333929237671067,
            -0.9723825086535861,
        ],
        [0.9203326466773478, 0.12631418326085297],
    );
    let pb = pose(
        [
            -0.9986600961226628,
            -0.05174951605835427,
            0.05174951605835427,
            -0.9986600961226628,
        ],
        [1.0486305027847713, -1.142137788967727],
    );
    let tol = tol::<T>()
        .with_gjk_rel(lit(0.0059223))
        .unwrap()
        .with_gjk_max_iterations(59)
        .unwrap()
        .with_manifold_min_alignment(lit(0.5890364))
        .unwrap();
    let c = query::contact(&pa, &a, &pb, &b, &tol).expect("valid input");
    // The truth (f64 at the default tolerances) within the bounds.
    let truth = -1.7476429096681603;
    let acc = accuracy::<T>(4.0) * 4.0;
    assert!(
        f(c.lower_bound) <= truth + acc && f(c.upper_bound) >= truth - acc,
        "{c:?}"
    );
    let m = query::manifold(&pa, &a, &pb, &b, lit(0.1), &tol).expect("valid input");
    let slack = acc + f(c.upper_bound - c.lower_bound);
    assert!(!m.points().is_empty(), "{m:?}");
    for q in m.points() {
        assert!(
            f(q.separation) >= f(c.lower_bound) - slack,
            "a point deeper than the contact: {q:?} in {m:?}, {c:?}"
        );
    }
}
scalar_cases!(rounded_cores_apart_at_a_loose_gap_cover_their_witnesses);

// --------------------------- EPA's seed on a small A − B (fixed-point flatness underflow)

/// The rotation the fuzz harness builds for a zero angle, as the artifacts printed it:
/// the identity with 1e-16 off-diagonal terms.
fn artifact_rotation() -> Matrix3<f64> {
    let (a, b, c) = (
        1.2246467991473532e-16,
        -1.2246467991473535e-16,
        -1.224646799147353e-16,
    );
    Matrix3::new(1.0, b, c, a, 1.0, b, a, a, 1.0)
}

/// The hull of two concentric balls of radii `r₁ > r₂` has a ball of radius `r₁ − r₂` as
/// its core; against a concentric ball the cores overlap by `r₁ − r₂`. EPA's seed tested
/// each candidate simplex for flatness with products of degree `D + 1` of its edges, which
/// for an `A − B` 0.0036 across fell below one FixedI40F24 ulp on both sides (`2.3e-8`
/// against `3.8e-11`, both 0): every simplex was flat, the contact `Touching` at `−(r₁ +
/// r₂ + r)` with bounds 6e-6 wide that excluded the truth (`cargo fuzz`, `manifold_2d` and
/// `manifold_3d`, all 530 artifacts of the 900 s runs at 6c672be). The vertices are now
/// scaled by a power of two near unit size before the test. Every scalar: the truth
/// inside the bounds.
fn epa_seed_flatness_keeps_its_digits_on_a_small_core<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(530);
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 12 } else { 60 };
    for i in 0..n {
        let r2 = rng.uniform(0.03, 0.3);
        let r1 = r2 * rng.uniform(1.01, 1.1);
        let rb = rng.uniform(0.03, 0.3);
        let t: SVector<f64, D> = rng.vector(-2.0, 2.0);
        let (pose, _) = translation::<T, D>(&t);
        let a = convex_proximity::shape::Hull::new(Ball::new(lit::<T>(r1)), Ball::new(lit(r2)));
        let b = Ball::new(lit::<T>(rb));
        let c = query::contact(&pose, &a, &pose, &b, &tol::<T>()).expect("valid input");
        let truth = -(round::<T>(r1) + round::<T>(rb));
        assert!(
            f(c.lower_bound) <= truth + acc && f(c.upper_bound) >= truth - acc,
            "case {i}: truth {truth} outside {c:?}"
        );
    }
}
cases!(epa_seed_flatness_keeps_its_digits_on_a_small_core, [2 => d2, 3 => d3]);

/// The first `manifold_3d` artifact as it decoded (FixedI40F24; every scalar here).
fn epa_seed_flatness_reproduction<T: Real>() {
    let m = artifact_rotation();
    let pose = Isometry::from_parts(
        Translation3::new(lit::<T>(-2.0), lit(-2.0), lit(-2.0)),
        Rotation3::from_matrix_unchecked(m.map(lit::<T>)),
    );
    let a = convex_proximity::shape::Rounded::new(
        convex_proximity::shape::Hull::new(
            Ball::new(lit::<T>(0.057468528267338066)),
            Ball::new(lit(0.05)),
        ),
        lit(0.05),
    );
    let b = Ball::new(lit::<T>(0.05));
    let c = query::contact(&pose, &a, &pose, &b, &tol::<T>()).expect("valid input");
    let truth = -(round::<T>(0.057468528267338066) + round::<T>(0.05) + round::<T>(0.05));
    let acc = accuracy::<T>(4.0) * 4.0;
    assert!(
        f(c.lower_bound) <= truth + acc && f(c.upper_bound) >= truth - acc,
        "truth {truth} outside {c:?}"
    );
}
scalar_cases!(epa_seed_flatness_reproduction);

// ------------------------- a flat A − B whose support points include a noise edge (3D)

/// A ball centred on a flat disc (a cylinder or cone of height 0) under a rotation: `A − B`
/// is the disc, flat, and the contact is touching across it, depth `r`, normal the disc's
/// axis. GJK's two support points along `±x` came back 3e-23 apart in f32 (the rotation's
/// 1e-16 off-diagonal terms), and that noise edge made EPA's seed tetrahedron look thick
/// (its flatness measured over the facet opposite the shortest edge), its span normal a
/// direction of the disc, and its needle face's normal, squared to 1e-45, 0.95 long:
/// EPA converged along a normal 45° off the axis (f32, witnesses 1.3 apart) or with
/// witnesses 6e-3 off `separation · normal` (f64) (`cargo fuzz`, `query_3d`). Fixed by
/// the flatness over the largest facet, a span that ignores edges below the rounding, a
/// norm that scales subnormal squares, and no closest-point normal at depth 0.
fn ball_on_a_flat_disc_touches_along_its_axis<T: Real>() {
    let mut rng = Rng(23);
    let acc = accuracy::<T>(4.0) * 4.0;
    let n = if cfg!(debug_assertions) { 40 } else { 400 };
    for i in 0..n {
        let r = rng.uniform(0.03, 0.3);
        let disc = rng.uniform(0.03, 2.0);
        let (pa, _) = random_pose::<T, 3>(&mut rng, 2.0);
        // B centred where A is, in another orientation; every fourth case with the
        // axis-aligned rotation and its 1e-16 terms (the artifacts' poses).
        let (rb, rb64) = if i % 4 == 0 {
            let m = artifact_rotation();
            (Rotation3::from_matrix_unchecked(m.map(lit::<T>)), m)
        } else {
            let m = rotation::<3>(&mut rng);
            (Rotation3::from_matrix_unchecked(m.map(lit::<T>)), m)
        };
        let pb = Isometry::from_parts(pa.translation, rb);
        let a = Ball::new(lit::<T>(r));
        let c = if i % 2 == 0 {
            let b = Cylinder::new(T::zero(), lit::<T>(disc));
            query::contact(&pa, &a, &pb, &b, &tol::<T>())
        } else {
            let b = Cone::new(T::zero(), lit::<T>(disc));
            query::contact(&pa, &a, &pb, &b, &tol::<T>())
        }
        .expect("valid input");
        let axis = rb64 * Vector3::y();
        let n = back(&c.normal.into_inner());
        assert!(
            (f(c.separation) + round::<T>(r)).abs() <= acc
                && n.dot(&axis).abs() >= 1.0 - 1e-3
                && witness_gap(&c) <= acc + f(c.upper_bound - c.lower_bound),
            "case {i}: {c:?}, axis {axis}"
        );
    }
}
scalar_cases!(ball_on_a_flat_disc_touches_along_its_axis);

// --------------------------------------- 3D hull: every vertex against every triangle

/// The `polytope` artifact's needle: 39 points within 1.0e-12 of the line through
/// ±(1, 0.5, 0.5). Quickhull's triangulation passed every local test (twin links, no
/// reflex edge, the centroid behind every triangle, Euler) and had a triangle 1e-12
/// across with the needle's end 0.10 in front of it; the global check covered only the
/// points that are not vertices. It now covers every point (clouds of at most 2¹⁶
/// point–triangle pairs), so such a mesh fails and is rebuilt at coarser tolerances.
#[test]
fn hull_check_covers_its_vertices_reproduction() {
    let pts: Vec<Point3<f64>> = include_str!("data/needle_cloud.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|x| x.parse().expect("number"))
                .collect();
            Point3::new(v[0], v[1], v[2])
        })
        .collect();
    assert_eq!(pts.len(), 39);
    let poly = Polytope::try_new(pts.clone()).expect("a hull");
    // docs/hull.md §4: at most 1024 · 256 · 16 ε s in front of a face.
    let bound = 1024.0 * 256.0 * 16.0 * f64::EPSILON * 4.0;
    for face in poly.faces() {
        let n = face.normal().into_inner();
        let off = n.dot(&pts[face.vertex_indices()[0]].coords);
        for q in &pts {
            assert!(n.dot(&q.coords) - off <= bound, "{q} in front of {face:?}");
        }
    }
}

/// The harness's SAT oracle on two overlapping collinear clouds in 3D (the generator's
/// `p[k] = 0.3 p[0]`): their depth is 0 along any normal of the line, which facets and edge
/// cross products do not give (it answered 0.52 before the principal axes of `A − B`).
#[test]
fn sat_oracle_of_collinear_clouds_is_zero() {
    let line = |xs: &[f64]| -> Vec<Point3<f64>> {
        xs.iter()
            .map(|&x| Point3::new(x, 0.3 * x, 0.3 * x))
            .collect()
    };
    let (a, b) = (line(&[-1.0, 0.74, -0.99]), line(&[-1.0, 0.83, -0.2]));
    let depth = sat_depth(&a, &b, 1.0).depth;
    assert!(depth.abs() < 1e-12, "depth {depth}");
    // Apart along the line: SAT still finds the gap (negative overlap).
    let c = line(&[1.0, 1.5]);
    assert!(sat_depth(&a, &c, 1.0).depth < -0.2);
}

// --------------------------- EPA's seed on a needle around the origin (hull of a ball)

/// The fuzz artifact of `manifold_3d` (FixedI40F24, docs/testing.md §3): a ball of radius
/// 0.05 at the centre of the hull of a ball of radius `r` and a rounded point, core `A − B`
/// the hull of a ball of radius `r − 0.05` and a point 1.7 away. Three mechanisms:
/// the seed measured the needle simplices' largest facet as the longest edge squared (3
/// where the faces measured 0.004), so they were flat in fixed-point and the contact was
/// `Touching` 0.0018 too shallow, its bounds excluding the truth; with a core ball of
/// radius 1e-4 the determinants fall below one ulp, and the seed's rounds ended "flat"
/// without the probes' proof; and at the cap EPA finished on the facet that set the upper
/// bound (10 of 1024 iterations in, 0.0010 deep) and the contact kept GJK's `‖v‖ − margin`
/// above, bounds 1.8e-3 wide where the polytope had proven 3.7e-6 (f64).
fn needle_seed_around_the_origin_bounds_the_depth<T: Real, const D: usize>()
where
    Const<D>: convex_proximity::Dim + ContactDim<T, D>,
{
    let far = Point::<T, D>::from(SVector::repeat(-T::one()));
    let pose = Isometry::from_parts(
        Translation::from(SVector::<T, D>::repeat(lit(-2.0))),
        <Rotation<T, D>>::identity(),
    );
    let b = Ball::new(lit::<T>(0.05));
    for r in [0.0501, 0.051, 0.05175555046921493, 0.052, 0.06, 0.1] {
        let a = Hull::new(
            Ball::new(lit::<T>(r)),
            Rounded::new(PointShape::new(far), lit::<T>(0.05)),
        );
        let c = query::contact(&pose, &a, &pose, &b, &tol::<T>()).expect("valid input");
        let truth = -(f(lit::<T>(r)) + f(lit::<T>(0.05)));
        let slack = accuracy::<T>(1.0);
        assert!(
            f(c.lower_bound) <= truth + slack && truth - slack <= f(c.upper_bound),
            "r {r}: truth {truth} outside the bounds: {c:?}"
        );
        assert!(
            f(c.lower_bound) <= f(c.separation) && f(c.separation) <= f(c.upper_bound),
            "r {r}: {c:?}"
        );
        // f64 reaches the cap (1024 supports on the core ball) with the bounds within 1 %
        // of its radius (they were the whole radius).
        if core::any::type_name::<T>() == "f64" {
            let width = f(c.upper_bound) - f(c.lower_bound);
            assert!(
                width <= 0.01 * (r - 0.05),
                "r {r}: bounds {width} wide: {c:?}"
            );
        }
    }
}
cases!(needle_seed_around_the_origin_bounds_the_depth, [2 => d2, 3 => d3]);

// ------------------------------------- GJK's upper bound on a needle triangle (docs/gjk.md §2.6)

/// Both orders' distances: each upper bound covers its witnesses' separation (a point of
/// `A − B`), each lower bound stays below it, and the two answers' bounds overlap.
fn check_honest_distance_both_ways<T: Real, const D: usize, A, B>(
    what: &str,
    (pa, a): (&Pose<T, D>, &A),
    (pb, b): (&Pose<T, D>, &B),
    slack: f64,
) where
    Const<D>: convex_proximity::Dim,
    A: SupportMap<T, D>,
    B: SupportMap<T, D>,
{
    let d1 = query::distance(pa, a, pb, b, &tol::<T>()).expect("valid input");
    let d2 = query::distance(pb, b, pa, a, &tol::<T>()).expect("valid input");
    for d in [&d1, &d2] {
        let gap = (pback(&d.point_b) - pback(&d.point_a)).norm();
        assert!(
            gap <= f(d.upper_bound) + slack && f(d.lower_bound) <= gap + slack,
            "{what}: witnesses {gap} apart outside the bounds of {d:?}"
        );
    }
    let lo = f(d1.lower_bound).max(f(d2.lower_bound));
    let hi = f(d1.upper_bound).min(f(d2.upper_bound));
    assert!(
        lo <= hi + slack,
        "{what}: A–B {d1:?} and B–A {d2:?} disagree"
    );
}

/// The fuzz artifact (`query_3d`, f64): a segment (a box under a rank-one map) against
/// the hull of a cone and an ellipsoid. B–A formed a needle triangle (two vertices 7e-8
/// apart, one 6 away) whose projected origin `p₀` was 2.5e-8 nearer than the lower bound:
/// bounds [0.1408090951, 0.1408090951] against A–B's proven [0.1408091205, 0.1408091205].
fn needle_triangle_projection_keeps_the_upper_bound_honest_reproduction<T: Real>() {
    let m = |c: [f64; 9]| Matrix3::from_column_slice(&c).map(lit::<T>);
    let a = Hull::new(
        Cone::new(lit::<T>(0.05), lit(0.08808651865415426)),
        Transformed::new(
            Ball::new(lit::<T>(0.05)),
            m([
                0.8869135007779037,
                -0.08804161256811914,
                -0.10178393257100304,
                0.018809934562825276,
                -0.590709785239485,
                0.6748592359295333,
                -0.13325719806057576,
                -0.6693560161932187,
                -0.5821785766294718,
            ]),
            Vector3::repeat(lit::<T>(0.19999999999999996)),
        ),
    );
    let segment = Transformed::new(
        Cuboid::new(Vector3::repeat(lit::<T>(1.22))),
        m([0.2999999999999998; 9]),
        Vector3::repeat(lit::<T>(0.19999999999999996)),
    );
    let b = Transformed::new(
        segment,
        m([
            -0.4058823529411766,
            -1.4875944151979859,
            -0.40428015564202346,
            -0.4058823529411766,
            -0.7380865186541543,
            -1.4765621423666744,
            -0.01764705882352935,
            -0.4083543144884414,
            -1.4993133440146487,
        ]),
        Vector3::new(
            lit::<T>(-0.2705882352941177),
            lit(-0.2705882352941177),
            lit(-0.49205767910276954),
        ),
    );
    let (pa, _) = printed_pose::<T>(
        [
            1.0,
            1.2246467991473532e-16,
            1.2246467991473532e-16,
            -1.2247642068516063e-16,
            0.999999995403967,
            9.587526203637209e-5,
            -1.2245293801860659e-16,
            -9.587526203637209e-5,
            0.999999995403967,
        ],
        [-2.0; 3],
    );
    let (pb, _) = printed_pose::<T>(
        [
            1.0,
            1.2246467991473532e-16,
            1.2246467991473532e-16,
            -1.2246467991473535e-16,
            1.0,
            1.2246467991473532e-16,
            -1.224646799147353e-16,
            -1.2246467991473535e-16,
            1.0,
        ],
        [-2.0; 3],
    );
    let slack = accuracy::<T>(1.0) * 1e-3;
    check_honest_distance_both_ways("reproduction", (&pa, &a), (&pb, &b), slack);
}

scalar_cases!(needle_triangle_projection_keeps_the_upper_bound_honest_reproduction);

/// The family: a long segment against an ellipsoid, closest near the segment's middle, so
/// GJK's last triangles are needles (one segment end, two nearby points of the ellipsoid).
fn needle_triangle_projection_keeps_the_upper_bound_honest<T: Real, const D: usize>()
where
    Const<D>: convex_proximity::Dim,
{
    let mut rng = Rng(2026 + D as u64);
    let slack = accuracy::<T>(1.0) * 1e-3;
    for i in 0..2000 {
        let half = rng.uniform(1.0, 4.0);
        let mut e = SVector::<f64, D>::zeros();
        e[0] = half;
        let segment = Segment::new(p::<T, D>(&Point::from(-e)), p::<T, D>(&Point::from(e)));
        let ellipsoid = Transformed::new(
            Ball::new(lit::<T>(rng.uniform(0.02, 0.3))),
            anisotropic::<D>(&mut rng).map(|x| lit::<T>(x * 0.5)),
            SVector::zeros(),
        );
        let (pa, _) = random_pose::<T, D>(&mut rng, 0.0);
        // B beside the segment's middle, 0.05–0.5 beyond its reach.
        let mut off = rng.unit::<D>();
        off[0] *= 0.2;
        let at = pa64_apply(&pa, &(off.normalize() * rng.uniform(0.8, 1.5)));
        let (mut pb, _) = random_pose::<T, D>(&mut rng, 0.0);
        pb.translation = Translation::from(v::<T, D>(&at));
        check_honest_distance_both_ways(
            &format!("case {i}"),
            (&pa, &segment),
            (&pb, &ellipsoid),
            slack,
        );
    }
}

/// `pose · x` in f64.
fn pa64_apply<T: Real, const D: usize>(pose: &Pose<T, D>, x: &SVector<f64, D>) -> SVector<f64, D> {
    let r = pose.rotation.matrix().map(f::<T>);
    r * x + back(&pose.translation.vector)
}

#[test]
fn needle_triangle_projection_keeps_the_upper_bound_honest_all() {
    needle_triangle_projection_keeps_the_upper_bound_honest::<f32, 2>();
    needle_triangle_projection_keeps_the_upper_bound_honest::<f64, 2>();
    needle_triangle_projection_keeps_the_upper_bound_honest::<f32, 3>();
    needle_triangle_projection_keeps_the_upper_bound_honest::<f64, 3>();
    #[cfg(feature = "fixed")]
    {
        needle_triangle_projection_keeps_the_upper_bound_honest::<Fx, 2>();
        needle_triangle_projection_keeps_the_upper_bound_honest::<Fx, 3>();
    }
}

// ---------------------------------- F13: EPA's weights where cores touch on a sliver's edge

/// The `query_3d` fuzz artifact (FixedI40F24): a ball of radius 0.05 centred on the edge
/// from (−1, −1, −1) to (0.169, 0.169, 0.169) of a hull with a second corner 3e-5 from the
/// first. The cores touch (depth = the radius); EPA's last face is the sliver, and its
/// fixed-point projection of the origin put the witnesses 4e-3 off `separation · normal`
/// (point on A (−1.9975, −1.9975, −1.9975) for the ball's centre (−2, −2, −2)). The weights
/// of the `f64` closest point now serve at depth 0 too, with the face's normal.
fn touching_on_a_sliver_edge_keeps_exact_weights_reproduction<T: Real>() {
    let cloud = [
        [0.16862745098039222, -0.6516975661860075, 0.8046845197222858],
        [-0.9999694819562066, -1.0, -1.0],
        [-1.0, -1.0, -1.0],
        [-1.0, -1.0, -1.0],
    ];
    let poly = Polytope::try_new(
        cloud
            .iter()
            .map(|c| Point3::new(lit::<T>(c[0]), lit(c[1]), lit(c[2])))
            .collect(),
    )
    .expect("a triangle");
    let q = lit::<T>(0.16862745098039222);
    let a = Hull::new(
        Segment::new(
            Point3::new(lit::<T>(-0.7195391775387198), lit(-0.9843442435339895), q),
            Point3::new(q, q, q),
        ),
        poly,
    );
    let b = Ball::new(lit::<T>(0.05));
    let (pose, _) = printed_pose::<T>([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [-2.0; 3]);
    let c = query::contact(&pose, &a, &pose, &b, &tol::<T>()).expect("valid input");
    let acc = accuracy::<T>(1.0);
    assert!(witness_gap(&c) <= acc, "{:e}: {c:?}", witness_gap(&c));
    assert!((f(c.separation) + 0.05).abs() <= acc, "{c:?}");
    assert!(
        (pback(&c.point_a) - Point3::new(-2.0, -2.0, -2.0)).amax() <= acc,
        "{c:?}"
    );
}

scalar_cases!(touching_on_a_sliver_edge_keeps_exact_weights_reproduction);

/// The family, shaped as the artifact: the hull of a segment `[R, Q]` and a cloud `{S, P,
/// P'}` with `P'` up to 1e-4 from `P`, and a small ball centred on `PQ`, so EPA's last
/// face can be the sliver `(Q, P', P)` with the origin on its edge, at depth 0.
fn touching_on_a_sliver_edge_keeps_exact_weights<T: Real>() {
    let mut rng = Rng(1313);
    let acc = accuracy::<T>(1.0);
    for i in 0..4000 {
        let c: Vec<Vector3<f64>> = (0..4).map(|_| rng.vector::<3>(-1.0, 1.0)).collect();
        let (q, r, s, p0) = (c[0], c[1], c[2], c[3]);
        let near = p0 + rng.unit::<3>() * rng.uniform(1e-6, 1e-4);
        let pt = |x: &Vector3<f64>| p::<T, 3>(&Point3::from(*x));
        let Ok(cloud) = Polytope::try_new(vec![pt(&s), pt(&near), pt(&p0), pt(&p0)]) else {
            continue;
        };
        let a = Hull::new(Segment::new(pt(&r), pt(&q)), cloud);
        let centre = p0 + (q - p0) * rng.uniform(0.1, 0.9);
        let (pa, pa64) = random_pose::<T, 3>(&mut rng, 2.0);
        let world = pa64.transform_point(&Point3::from(centre));
        let (mut pb, _) = random_pose::<T, 3>(&mut rng, 0.0);
        pb.translation = Translation::from(v::<T, 3>(&world.coords));
        let b = Ball::new(lit::<T>(rng.uniform(0.01, 0.1)));
        let c = query::contact(&pa, &a, &pb, &b, &tol::<T>()).expect("valid input");
        assert!(
            witness_gap(&c) <= acc,
            "case {i}: witnesses {:e} off: {c:?}",
            witness_gap(&c)
        );
    }
}
scalar_cases!(touching_on_a_sliver_edge_keeps_exact_weights);

/// A backward sweep (`negative_toi`) that starts far away: a box with one half-extent of
/// 10³⁰ (f64; 10¹² in f32, 10 in fixed-point, within its range) overlapping a ball puts the
/// sweep's start near −10³⁰ / ‖u‖, and at that magnitude the rounding of `λ + gap / (n·u)`
/// stepped past the sweep's end 0 (fuzz sweep, seed 10113580 of `cast_2d_f64`: a
/// `StartedPenetrating` hit at toi 7.0e13 with `max_toi` 1.15; seed 10052682 of
/// `cast_3d_f32`: toi 8192). An advance now stops at the sweep's end: an overlapping start's
/// toi is at most 0. Before the fix 2D and 3D f32 and f64 failed here; fixed-point, whose
/// rounding is absolute and whose range keeps the start near, did not reach it.
fn backward_sweep_from_far_never_passes_its_end<T: Real, const D: usize>()
where
    Const<D>: convex_proximity::cast::CastDim<T, D>,
{
    use convex_proximity::query::{CastOptions, CastTermination, LinearMotion, cast_shapes};
    let big = if is_fixed::<T>() {
        10.0
    } else if T::default_epsilon() > lit(1e-10) {
        1e12
    } else {
        1e30
    };
    let mut rng = Rng(31);
    let options = CastOptions {
        max_toi: lit::<T>(1.0),
        target_distance: lit::<T>(0.125),
        negative_toi: true,
        ..CastOptions::default()
    };
    let (mut hits, mut overlapping) = (0, 0);
    for _ in 0..200 {
        let mut h = SVector::<f64, D>::repeat(0.11);
        h[D - 1] = big;
        let long = Cuboid::new(v::<T, D>(&h));
        let ball = Ball::new(lit::<T>(rng.uniform(0.5, 2.0)));
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.5);
        let (pb, _) = translation::<T, D>(&rng.vector(-1.0, 1.0));
        let (va, vb) = (v::<T, D>(&rng.vector(-1.0, 1.0)), SVector::zeros());
        let c = cast_shapes(
            &LinearMotion::new(pa, va),
            &long,
            &LinearMotion::new(pb, vb),
            &ball,
            &options,
            &tol(),
        )
        .unwrap();
        let Some(hit) = c.hit else { continue };
        hits += 1;
        if hit.termination == CastTermination::StartedPenetrating {
            overlapping += 1;
        }
        assert!(
            f(hit.toi) <= 0.0 || hit.termination != CastTermination::StartedPenetrating,
            "an overlapping start hit after time 0: {hit:?}"
        );
        assert!(f(hit.toi) <= 1.0, "a hit past max_toi: {hit:?}");
    }
    assert!(
        hits > 50 && overlapping > 50,
        "{hits} hits, {overlapping} overlapping starts"
    );
}
cases!(backward_sweep_from_far_never_passes_its_end, [2 => d2, 3 => d3]);

/// A time of impact whose start probe stops at a user's iteration cap (`gjk_max_iterations`
/// 2): its bounds `[0, 0.049]` prove the pair within the target distance 0.277 at time 0,
/// but the unconverged `v` is no normal, and it read the pair as separating. The cast then
/// looked for the return within the start distance taken from the lower bound, 0, and
/// reported a `Converged` hit where the shapes touch (toi 0.099, safe before it), a hit not
/// at the target and a safe time that was not (fuzz sweep, seed 10797719 of `cast_2d_f64`
/// and `cast_2d_f32`; the true start distance is 0.047, an approaching pair: with the
/// default tolerances the cast answers `StartedWithin` at 0). A start within the target
/// whose probe did not converge is now the start hit. Before the fix all three scalars failed
/// here (fixed-point with a `Bracketed` hit at 0.099).
fn unconverged_start_probe_is_the_start_hit<T: Real>() {
    use convex_proximity::cast::RigidMotion;
    use convex_proximity::query::{CastOptions, CastTermination};
    let p = |x: f64, y: f64| Point2::new(lit::<T>(x), lit::<T>(y));
    // The fuzz case's exact inputs: column-major rotation matrices, as printed.
    let pose = |c0: [f64; 2], c1: [f64; 2], t: [f64; 2]| {
        let m = Matrix2::new(c0[0], c1[0], c0[1], c1[1]).map(lit::<T>);
        Isometry::from_parts(
            Translation2::new(lit::<T>(t[0]), lit::<T>(t[1])),
            Rotation2::from_matrix_unchecked(m),
        )
    };
    let hull = Polytope::try_new(vec![
        p(-0.3285420004577707, 0.5396963454642558),
        p(0.0866559853513389, -0.22749675745784692),
        p(-0.4110322728313115, -0.7479209582665751),
    ])
    .unwrap();
    let a = Hull::new(
        hull,
        Segment::new(
            p(-0.05561913481345848, 0.8415808346684976),
            p(-0.9605096513313497, 0.6159304188601511),
        ),
    );
    let b = Segment::new(
        p(0.6896620126649882, 0.5461966887922485),
        p(-0.5467765316243229, 0.9916990920881972),
    );
    let pa0 = pose(
        [0.9067748846632978, -0.4216151189697341],
        [0.4216151189697341, 0.9067748846632978],
        [1.7230182345311666, -1.4333409628442817],
    );
    let pa1 = pose(
        [-0.3939756895558495, -0.9191208604090068],
        [0.9191208604090068, -0.3939756895558495],
        [-0.015655756466010473, 1.5665217059586483],
    );
    let pb = pose(
        [0.33926332427718203, -0.9406914461184367],
        [0.9406914461184367, 0.33926332427718203],
        [0.31223010605020196, -0.09658960860608845],
    );
    let ma = RigidMotion::between(&pa0, &pa1);
    let mb = RigidMotion::linear(
        &pb,
        Vector2::new(-0.5583733882658122, 0.43767452506294346).map(lit::<T>),
    );
    let options = CastOptions {
        max_toi: lit::<T>(2.5914396887159534),
        target_distance: lit::<T>(0.2771206225680934),
        stop_at_penetration: true,
        ..CastOptions::default()
    };
    // The start is within the target (0.047 against 0.277), converged or not.
    let d0 = query::distance(&pa0, &a, &pb, &b, &tol()).unwrap();
    assert!(f(d0.upper_bound) < 0.1, "{d0:?}");
    for cap in [2, 3, 100] {
        let capped = tol::<T>().with_gjk_max_iterations(cap).unwrap();
        let c = query::time_of_impact(&ma, &a, &mb, &b, &options, &capped).unwrap();
        let hit = c.hit.expect("a start within the target is a hit");
        assert_eq!(
            (f(hit.toi), hit.termination, f(c.safe_toi)),
            (0.0, CastTermination::StartedWithin, 0.0),
            "cap {cap}: {c:?}"
        );
    }
}

scalar_cases!(unconverged_start_probe_is_the_start_hit);
