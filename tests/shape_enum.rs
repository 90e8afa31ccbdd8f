//! `shape::Shape` and the pointer impls (`&S`, `Box<S>`, `Arc<S>`, `Rc<S>`, `Box<dyn …>`):
//! every query on a wrapped shape gives the bare shape's answer, bit for bit (compared by
//! their `Debug` text, which tells `-0` from `0`). A forwarding impl that forgot a trait
//! method (`radius`, `core_support`, `center`, `primitive`, `half_extents`, `extent`)
//! would change the path a query takes (the rounded-core split, the pair fast paths, the
//! box–box manifold) and with it the rounding of the answer. f32, f64, FixedI40F24; 2D, 3D.

mod common;
use common::*;
use convex_proximity::{
    Real, Tolerances,
    clip::FeatureMap,
    epa::ContactDim,
    gjk::Cache,
    lit, query,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, DynFeatureMap, DynSupportMap, Hull, MinkowskiSum,
        PointShape, Polytope, Revolution, Rounded, Segment, Shape, ShapeDim, SupportMap,
        Transformed,
    },
};
use nalgebra::{Const, Point, SMatrix, SVector};
use std::{fmt::Debug, rc::Rc, sync::Arc};

/// Poses per pair: debug keeps the test fast, release sweeps more.
fn poses() -> usize {
    if cfg!(debug_assertions) { 2 } else { 40 }
}

fn same<X: Debug>(x: X, y: X, ctx: &str) {
    assert_eq!(format!("{x:?}"), format!("{y:?}"), "{ctx}");
}

/// `distance`, `distance_with_cache` (twice, warm), `intersects` and `contact` agree on
/// (a, b) and (wa, wb) at random poses, far and overlapping.
fn gjk_same<T, const D: usize, A, B, WA, WB>(a: &A, b: &B, wa: &WA, wb: &WB, ctx: &str)
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
    WA: SupportMap<T, D> + ?Sized,
    WB: SupportMap<T, D> + ?Sized,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(0x5eed ^ ctx.len() as u64);
    let (mut c1, mut c2) = (Cache::new(), Cache::new());
    for k in 0..poses() {
        let spread = [0.3, 1.5, 4.0][k % 3];
        let (pa, _) = random_pose::<T, D>(&mut rng, 0.5);
        let (pb, _) = random_pose::<T, D>(&mut rng, spread);
        let ctx = format!("{ctx}, pose {k}");
        same(
            query::distance(&pa, a, &pb, b, &tol),
            query::distance(&pa, wa, &pb, wb, &tol),
            &ctx,
        );
        for _ in 0..2 {
            same(
                query::distance_with_cache(&pa, a, &pb, b, &tol, &mut c1),
                query::distance_with_cache(&pa, wa, &pb, wb, &tol, &mut c2),
                &ctx,
            );
        }
        same(
            query::intersects(&pa, a, &pb, b, &tol),
            query::intersects(&pa, wa, &pb, wb, &tol),
            &ctx,
        );
        same(
            query::contact(&pa, a, &pb, b, &tol),
            query::contact(&pa, wa, &pb, wb, &tol),
            &ctx,
        );
    }
}

/// `manifold` agrees on (a, b) and (wa, wb), with and without a prediction distance.
fn manifold_same<T, const D: usize, A, B, WA, WB>(a: &A, b: &B, wa: &WA, wb: &WB, ctx: &str)
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
    WA: FeatureMap<T, D> + ?Sized,
    WB: FeatureMap<T, D> + ?Sized,
{
    let tol = Tolerances::<T>::default();
    let mut rng = Rng(0xfea7 ^ ctx.len() as u64);
    for k in 0..poses() {
        let (pa, _) = random_pose::<T, D>(&mut rng, 0.5);
        let (pb, _) = random_pose::<T, D>(&mut rng, [0.5, 1.5][k % 2]);
        let prediction = lit::<T>([0.0, 0.5][k % 2]);
        same(
            query::manifold(&pa, a, &pb, b, prediction, &tol),
            query::manifold(&pa, wa, &pb, wb, prediction, &tol),
            &format!("{ctx}, pose {k}"),
        );
    }
}

/// The partners every shape is queried against: a cuboid, a ball, a polytope, a capsule
/// (the first two take the pair fast paths with a cuboid, ball or capsule), as `dyn`
/// feature maps (every method forwarded: `pointers_answer_bit_for_bit`), so that the
/// tests instantiate the query stack once per shape, not once per pair of types (the
/// release build of this file took over 16 CPU-minutes with concrete partners).
fn partners<T: Real, const D: usize>() -> Vec<(Box<DynFeatureMap<T, D>>, &'static str)>
where
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    let mut rng = Rng(7);
    let cloud: Vec<Point<T, D>> = rng
        .sphere_points::<D>(12, SVector::zeros(), 0.8)
        .iter()
        .map(p::<T, D>)
        .collect();
    let (o, x) = (p(&Point::origin()), p(&Point::from(rng.unit::<D>())));
    vec![
        (Box::new(Cuboid::new(SVector::repeat(lit(0.6)))), "cuboid"),
        (Box::new(Ball::new(lit(0.5))), "ball"),
        (Box::new(Polytope::try_new(cloud).unwrap()), "polytope"),
        (Box::new(Capsule::new(o, x, lit(0.3))), "capsule"),
    ]
}

/// The partners as `Shape`s, with their names.
fn wrapped_partners<T: Real, const D: usize>() -> Vec<(Shape<T, D>, &'static str)>
where
    Const<D>: ShapeDim<T, D>,
{
    let mut rng = Rng(7);
    let cloud: Vec<Point<T, D>> = rng
        .sphere_points::<D>(12, SVector::zeros(), 0.8)
        .iter()
        .map(p::<T, D>)
        .collect();
    let (o, x) = (p(&Point::origin()), p(&Point::from(rng.unit::<D>())));
    vec![
        (Cuboid::new(SVector::repeat(lit(0.6))).into(), "cuboid"),
        (Ball::new(lit(0.5)).into(), "ball"),
        (Polytope::try_new(cloud).unwrap().into(), "polytope"),
        (Capsule::new(o, x, lit(0.3)).into(), "capsule"),
    ]
}

/// Runs `gjk_same` (and `manifold_same` with `manifold`) for the bare shape and the shape
/// converted to a `Shape` against every partner, both orders.
macro_rules! check {
    ($T:ty, $D:tt, $name:expr, $bare:expr, $features:tt) => {{
        let bare = $bare;
        let wrapped: Shape<$T, $D> = bare.clone().into();
        for (partner, pname) in partners::<$T, $D>() {
            let ctx = format!("{} vs {}", $name, pname);
            check!(@run partner, bare, wrapped, ctx, $features);
        }
    }};
    (@run $partner:ident, $bare:ident, $wrapped:ident, $ctx:ident, gjk) => {
        gjk_same(&$bare, &*$partner, &$wrapped, &*$partner, &$ctx);
        gjk_same(&*$partner, &$bare, &*$partner, &$wrapped, &$ctx);
    };
    (@run $partner:ident, $bare:ident, $wrapped:ident, $ctx:ident, manifold) => {
        check!(@run $partner, $bare, $wrapped, $ctx, gjk);
        manifold_same(&$bare, &*$partner, &$wrapped, &*$partner, &$ctx);
        manifold_same(&*$partner, &$bare, &*$partner, &$wrapped, &$ctx);
    };
}

/// A similarity: a rotation scaled by 1.5.
fn similarity<T: Real, const D: usize>(rng: &mut Rng) -> SMatrix<T, D, D> {
    (rotation::<D>(rng) * 1.5).map(lit::<T>)
}

/// Every D-generic shape and composite, wrapped in a `Shape`, answers as the bare one.
fn generic_shapes_answer_bit_for_bit<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D> + ShapeDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
    Shape<T, D>: FeatureMap<T, D>,
{
    let mut rng = Rng(11);
    let o = Point::<T, D>::origin();
    let x = p::<T, D>(&Point::from(rng.unit::<D>()));
    let cube = Cuboid::<T, D>::new(SVector::from_fn(|i, _| lit(0.4 + 0.1 * i as f64)));
    let cloud: Vec<Point<T, D>> = rng
        .sphere_points::<D>(20, SVector::zeros(), 0.7)
        .iter()
        .map(p::<T, D>)
        .collect();
    let hull = Polytope::try_new(cloud).unwrap();
    let t: SVector<T, D> = v(&rng.vector(-0.2, 0.2));
    let sim = similarity::<T, D>(&mut rng);
    let stretch =
        SMatrix::<T, D, D>::from_diagonal(&SVector::from_fn(|i, _| lit(0.5 + 0.4 * i as f64)));
    let shifted = |s: Ball<T>, k: f64| {
        Transformed::new(
            s,
            SMatrix::identity(),
            SVector::from_fn(|i, _| lit(k * (i == 0) as u8 as f64)),
        )
    };

    check!(T, D, "ball", Ball::new(lit::<T>(0.4)), manifold);
    check!(T, D, "cuboid", cube, manifold);
    check!(T, D, "capsule", Capsule::new(o, x, lit(0.25)), manifold);
    check!(T, D, "segment", Segment::new(o, x), manifold);
    check!(T, D, "point", PointShape::new(x), manifold);
    check!(T, D, "polytope", hull.clone(), manifold);
    check!(
        T,
        D,
        "rounded cuboid",
        Rounded::new(cube, lit(0.1)),
        manifold
    );
    check!(
        T,
        D,
        "rounded polytope",
        Rounded::new(hull.clone(), lit(0.2)),
        manifold
    );
    check!(
        T,
        D,
        "rounded capsule",
        Rounded::new(Capsule::new(o, x, lit(0.1)), lit(0.1)),
        manifold
    );
    check!(
        T,
        D,
        "similar cuboid",
        Transformed::new(cube, sim, t),
        manifold
    );
    check!(
        T,
        D,
        "similar rounded",
        Transformed::new(Rounded::new(cube, lit(0.1)), sim, t),
        manifold
    );
    check!(
        T,
        D,
        "ellipsoid",
        Transformed::new(Ball::new(lit::<T>(0.5)), stretch, t),
        manifold
    );
    check!(
        T,
        D,
        "sheared hull",
        Transformed::new(hull.clone(), stretch, t),
        manifold
    );
    check!(
        T,
        D,
        "sum",
        MinkowskiSum::new(cube, Ball::new(lit::<T>(0.1))),
        gjk
    );
    check!(
        T,
        D,
        "stadium",
        Hull::new(
            shifted(Ball::new(lit(0.3)), -0.4),
            shifted(Ball::new(lit(0.2)), 0.5)
        ),
        gjk
    );
    check!(
        T,
        D,
        "hull of sum",
        Hull::new(
            MinkowskiSum::new(cube, Ball::new(lit::<T>(0.1))),
            PointShape::new(x)
        ),
        gjk
    );
}
cases!(generic_shapes_answer_bit_for_bit, [2 => d2, 3 => d3]);

/// The 3D-only shapes (in `Shape::Extra`) and composites of them.
fn revolution_shapes_answer_bit_for_bit<T: Real, const D: usize>() {
    let mut rng = Rng(13);
    let cone = Cone::new(lit::<T>(0.6), lit(0.4));
    let cyl = Cylinder::new(lit::<T>(0.5), lit(0.3));
    let sim = similarity::<T, 3>(&mut rng);
    check!(T, 3, "cone", cone, manifold);
    check!(T, 3, "cylinder", cyl, manifold);
    check!(
        T,
        3,
        "rounded cylinder",
        Rounded::new(cyl, lit(0.1)),
        manifold
    );
    check!(
        T,
        3,
        "turned cone",
        Transformed::new(cone, sim, SVector::zeros()),
        manifold
    );
    check!(T, 3, "revolution", Revolution::Cone(cone), manifold);
    check!(T, 3, "sum of cylinders", MinkowskiSum::new(cyl, cyl), gjk);
}
cases!(revolution_shapes_answer_bit_for_bit, [3 => d3]);

/// `&S`, `Box<S>`, `Arc<S>`, `Rc<S>` and the `dyn` aliases answer as the bare shape, in
/// every query; the `dyn` feature map takes `manifold`.
fn pointers_answer_bit_for_bit<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D> + ShapeDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
    Shape<T, D>: FeatureMap<T, D>,
{
    let o = Point::<T, D>::origin();
    let x = p::<T, D>(&Point::from(SVector::from_fn(|i, _| 0.3 + 0.2 * i as f64)));
    let r = Rounded::new(Cuboid::<T, D>::new(SVector::repeat(lit(0.4))), lit(0.1));
    let c = Capsule::new(o, x, lit::<T>(0.2));
    for (partner, pname) in wrapped_partners::<T, D>() {
        let ctx = format!("pointers vs {pname}");
        let (rr, bx, arc, rc) = (&r, Box::new(r), Arc::new(r), Rc::new(r));
        let dyn_s: Box<DynSupportMap<T, D>> = Box::new(c);
        let dyn_f: Box<DynFeatureMap<T, D>> = Box::new(r);
        let arc_f: Arc<DynFeatureMap<T, D>> = Arc::new(c);
        gjk_same(&r, &partner, &rr, &partner, &ctx);
        gjk_same(&r, &partner, &bx, &partner, &ctx);
        gjk_same(&r, &partner, &arc, &partner, &ctx);
        gjk_same(&r, &partner, &rc, &partner, &ctx);
        gjk_same(&c, &partner, &dyn_s, &partner, &ctx);
        gjk_same(&r, &partner, &dyn_f, &partner, &ctx);
        manifold_same(&r, &partner, &rr, &partner, &ctx);
        manifold_same(&r, &partner, &bx, &partner, &ctx);
        manifold_same(&r, &partner, &arc, &partner, &ctx);
        manifold_same(&r, &partner, &rc, &partner, &ctx);
        manifold_same(&r, &partner, &dyn_f, &partner, &ctx);
        manifold_same(&partner, &c, &partner, &arc_f, &ctx);
        // Both sides behind trait objects of different kinds.
        let boxed_partner: Box<DynFeatureMap<T, D>> = Box::new(partner.clone());
        manifold_same(&r, &partner, &dyn_f, &boxed_partner, &ctx);
    }
}
cases!(pointers_answer_bit_for_bit, [2 => d2, 3 => d3]);

/// Every `SupportMap` method of a `Shape` equals the bare shape's, one by one (the
/// queries above see them only through their effect).
fn every_method_is_forwarded<T: Real, const D: usize>() {
    fn methods<T: Real, S: FeatureMap<T, 3>, W: FeatureMap<T, 3>>(s: &S, w: &W, ctx: &str) {
        let mut rng = Rng(3);
        same(s.radius(), w.radius(), ctx);
        same(s.center(), w.center(), ctx);
        same(s.primitive(), w.primitive(), ctx);
        same(s.validate(), w.validate(), ctx);
        same(s.extent().to_bits(), w.extent().to_bits(), ctx);
        same(s.half_extents(), w.half_extents(), ctx);
        let (mut fs, mut fw) = Default::default();
        for _ in 0..20 {
            let d: SVector<T, 3> = v(&rng.unit::<3>());
            same(s.support(&d), w.support(&d), ctx);
            same(s.core_support(&d), w.core_support(&d), ctx);
            s.feature(&d, &mut fs);
            w.feature(&d, &mut fw);
            same(&fs, &fw, ctx);
        }
    }
    let cube = Cuboid::new(Vector3::new(lit::<T>(0.5), lit(0.4), lit(0.3)));
    let cyl = Cylinder::new(lit::<T>(0.5), lit(0.3));
    let ball = Ball::new(lit::<T>(0.5));
    let rounded = Rounded::new(cyl, lit(0.2));
    methods(&cube, &Shape::from(cube), "cuboid");
    methods(&ball, &Shape::from(ball), "ball");
    methods(&cyl, &Shape::from(cyl), "cylinder");
    methods(&rounded, &Shape::from(rounded), "rounded cylinder");
    methods(&rounded, &Box::new(rounded), "box");
    methods(&rounded, &Arc::new(rounded), "arc");
    methods(&rounded, &Rc::new(rounded), "rc");
    let dyn_f: Box<DynFeatureMap<T, 3>> = Box::new(rounded);
    methods(&rounded, &dyn_f, "dyn");
}
cases!(every_method_is_forwarded, [3 => d3]);

use nalgebra::Vector3;

/// An invalid shape inside a `Shape` is the same error as bare (its `validate` is
/// forwarded), and the radius of a `Ball` reads without naming the dimension.
#[test]
fn invalid_shapes_stay_invalid_and_ball_radius_reads() {
    let mut bad = Ball::new(1.0f64);
    bad.radius = -1.0;
    let tol = Tolerances::default();
    let id = nalgebra::Isometry3::identity();
    let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
    let wrapped: Shape<f64, 3> = Shape::rounded(bad, 0.5).unwrap();
    same(
        query::distance(&id, &Rounded::new(bad, 0.5), &id, &cube, &tol),
        query::distance(&id, &wrapped, &id, &cube, &tol),
        "negative ball radius",
    );
    assert!(query::distance(&id, &wrapped, &id, &cube, &tol).is_err());
    assert!(Shape::<f64, 3>::rounded(cube, f64::NAN).is_err());
    assert_eq!(Ball::new(2.5f32).radius(), 2.5);
}

/// Collections of `Shape`s and of `dyn` shapes move to other threads and are shared by
/// them (the aliases carry `Send + Sync`).
#[test]
fn collections_cross_threads() {
    fn send_sync<X: Send + Sync>(_: &X) {}
    let shapes: Vec<Shape<f64, 3>> = vec![
        Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).into(),
        Cylinder::new(1.0, 0.5).into(),
    ];
    let dyns: Vec<Box<DynFeatureMap<f64, 3>>> =
        vec![Box::new(Ball::new(0.5)), Box::new(Cone::new(1.0, 0.5))];
    send_sync(&shapes);
    send_sync(&dyns);
    let shared = Arc::new((shapes, dyns));
    let handles: Vec<_> = (0..2)
        .map(|k| {
            let s = Arc::clone(&shared);
            std::thread::spawn(move || {
                let id = nalgebra::Isometry3::identity();
                let far = nalgebra::Isometry3::translation(5.0, 0.0, 0.0);
                let tol = Tolerances::default();
                query::distance(&id, &s.0[k], &far, &s.1[k], &tol)
                    .unwrap()
                    .distance
            })
        })
        .collect();
    let d: Vec<f64> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    // Cube (half-size 1) to ball (0.5): 5 − 1 − 0.5; cylinder (0.5) to cone (base 0.5): 5 − 0.5 − 0.5.
    assert!(
        (d[0] - 3.5).abs() < 1e-12 && (d[1] - 4.0).abs() < 1e-9,
        "{d:?}"
    );
}

/// A sum or hull inside a `Shape` has no faces: its manifold is the one deepest point,
/// which agrees with `contact` (separation, normal, the points on both surfaces).
fn faceless_composites_give_one_contact_point<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D> + ShapeDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
    Shape<T, D>: FeatureMap<T, D>,
{
    let tol = Tolerances::<T>::default();
    let slab = Cuboid::<T, D>::new(SVector::from_fn(|i, _| lit(if i == 1 { 0.5 } else { 3.0 })));
    let cube = Cuboid::<T, D>::new(SVector::repeat(lit(0.3)));
    let mut rng = Rng(21);
    for (k, s) in [
        Shape::sum(cube, Ball::new(lit::<T>(0.2))),
        Shape::hull(cube, PointShape::new(p(&Point::from(rng.unit::<D>())))),
    ]
    .iter()
    .enumerate()
    {
        let (pb, _) = random_pose::<T, D>(&mut rng, 0.2);
        let mut pb = pb;
        pb.translation.vector[1] += lit(0.9);
        let pa = nalgebra::Isometry::identity();
        let c = query::contact(&pa, &slab, &pb, s, &tol).unwrap();
        let m = query::manifold(&pa, &slab, &pb, s, lit(0.5), &tol).unwrap();
        let acc = accuracy::<T>(2.0).max(1e-6);
        assert_eq!(m.len(), 1, "{k}: {m:?}");
        let q = &m.points()[0];
        assert!(
            (f(q.separation) - f(c.separation)).abs() <= acc,
            "{k}: {m:?} vs {c:?}"
        );
        assert!(
            (back(&m.normal) - back(&c.normal)).amax() <= acc,
            "{k}: {m:?} vs {c:?}"
        );
    }
}
cases!(faceless_composites_give_one_contact_point, [2 => d2, 3 => d3]);
