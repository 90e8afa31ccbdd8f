//! The pair-specific fast paths (`src/pair/`): every pair of primitives (cuboid, ball,
//! capsule), both ways round, f32 and f64, 2D and 3D, against exact f64 oracles on the
//! rounded inputs (brute-force polytope distance, separating-axis depth, closed forms) and
//! against the general GJK/EPA path (the same shapes behind a wrapper without
//! `primitive()`): verdicts, distances and depths within the promised accuracy, honest
//! bounds, witnesses on the shapes, normals along the truth. Fixed-point and 4D must
//! fall back (answers equal to the general path's).

mod common;

use common::*;
use convex_proximity::{
    Distance, QueryError, Real, Tolerances,
    epa::ContactDim,
    lit, query,
    query::Contact,
    shape::{Ball, Capsule, Cuboid, SupportMap},
};
use nalgebra::{Const, Point, SMatrix, SVector};

/// A shape behind a wrapper without `primitive()`: the queries take the general path.
struct General<'a, S: ?Sized>(&'a S);

impl<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized> SupportMap<T, D> for General<'_, S> {
    fn support(&self, d: &SVector<T, D>) -> Point<T, D> {
        self.0.support(d)
    }
    fn radius(&self) -> T {
        self.0.radius()
    }
    fn core_support(&self, d: &SVector<T, D>) -> Point<T, D> {
        self.0.core_support(d)
    }
    fn center(&self) -> Point<T, D> {
        self.0.center()
    }
    fn validate(&self) -> Result<(), convex_proximity::ShapeError> {
        self.0.validate()
    }
    fn extent(&self) -> f64 {
        self.0.extent()
    }
}

/// A primitive in f64: ball radius, box half-extents, capsule ends (local) and radius.
#[derive(Clone, Copy, Debug)]
enum Spec<const D: usize> {
    Ball(f64),
    Box(SVector<f64, D>),
    Capsule(SVector<f64, D>, SVector<f64, D>, f64),
}

impl<const D: usize> Spec<D> {
    /// The shape in `T`, and the spec as `T` holds it (read back in f64).
    fn build<T: Real>(&self) -> (Box<dyn SupportMap<T, D>>, Self) {
        match *self {
            Spec::Ball(r) => (Box::new(Ball::new(lit::<T>(r))), Spec::Ball(round::<T>(r))),
            Spec::Box(h) => (
                Box::new(Cuboid::new(v::<T, D>(&h))),
                Spec::Box(back(&v::<T, D>(&h))),
            ),
            Spec::Capsule(a, b, r) => (
                Box::new(Capsule::new(
                    Point::from(v::<T, D>(&a)),
                    Point::from(v::<T, D>(&b)),
                    lit::<T>(r),
                )),
                Spec::Capsule(back(&v::<T, D>(&a)), back(&v::<T, D>(&b)), round::<T>(r)),
            ),
        }
    }

    fn radius(&self) -> f64 {
        match *self {
            Spec::Ball(r) | Spec::Capsule(_, _, r) => r,
            Spec::Box(_) => 0.0,
        }
    }

    /// The core's points (world frame): the centre, the segment's ends, the corners.
    fn core(&self, pose: &Pose<f64, D>) -> Vec<Point<f64, D>> {
        match self {
            Spec::Ball(_) => vec![pose.transform_point(&Point::origin())],
            Spec::Box(h) => box_vertices(h, pose),
            Spec::Capsule(a, b, _) => vec![
                pose.transform_point(&Point::from(*a)),
                pose.transform_point(&Point::from(*b)),
            ],
        }
    }

    /// The largest extent (for the scale).
    fn size(&self) -> f64 {
        match self {
            Spec::Ball(r) => *r,
            Spec::Box(h) => h.norm(),
            Spec::Capsule(a, b, r) => a.norm().max(b.norm()) + r,
        }
    }
}

/// The exact signed distance of the pair (f64, on the rounded inputs), and the
/// penetration normal where the separating-axis oracle says it is unique.
struct Truth<const D: usize> {
    signed: f64,
    normal: Option<SVector<f64, D>>,
}

fn truth<const D: usize>(
    a: &Spec<D>,
    pa: &Pose<f64, D>,
    b: &Spec<D>,
    pb: &Pose<f64, D>,
    scale: f64,
) -> Option<Truth<D>> {
    let (ca, cb) = (a.core(pa), b.core(pb));
    let margin = a.radius() + b.radius();
    let pts = |c: &[Point<f64, D>]| c.len();
    let core_dist = match (pts(&ca), pts(&cb)) {
        (1, 1) => (ca[0] - cb[0]).norm(),
        (1, 2) => origin_segment(&(cb[0] - ca[0]), &(cb[1] - ca[0])),
        (2, 1) => origin_segment(&(ca[0] - cb[0]), &(ca[1] - cb[0])),
        (2, 2) => {
            let d = segment_segment(&ca[0].coords, &ca[1].coords, &cb[0].coords, &cb[1].coords);
            // Crossing segments: 2D, a depth this oracle does not compute; 3D, depth 0.
            if d <= 1e-14 * scale {
                if D == 2 {
                    return None;
                }
                return Some(Truth {
                    signed: d - margin,
                    normal: None,
                });
            }
            d
        }
        (1, _) | (_, 1) => {
            // A point and a box: the clamp in the box's frame.
            let (c, spec, pose) = if pts(&ca) == 1 {
                (ca[0], b, pb)
            } else {
                (cb[0], a, pa)
            };
            let Spec::Box(h) = spec else { unreachable!() };
            let l = pose.inverse_transform_point(&c).coords;
            let clamped = l.zip_map(h, |x, e| x.clamp(-e, e));
            let d = (l - clamped).norm();
            if d > 0.0 {
                d
            } else {
                let depth = (0..D)
                    .map(|k| h[k] - l[k].abs())
                    .fold(f64::INFINITY, f64::min);
                return Some(Truth {
                    signed: -(depth + margin),
                    normal: None,
                });
            }
        }
        _ => polytope_distance(&ca, &cb),
    };
    if core_dist > 0.0 {
        return Some(Truth {
            signed: core_dist - margin,
            normal: None,
        });
    }
    // Cores touching or overlapping: points and segments have no depth (3D; a 2D segment
    // pair crosses with a depth the test does not compute), polytopes their SAT depth.
    if pts(&ca) <= 2 && pts(&cb) <= 2 {
        if D == 2 && pts(&ca) == 2 && pts(&cb) == 2 {
            return None;
        }
        return Some(Truth {
            signed: -margin,
            normal: None,
        });
    }
    let sat = sat_depth(&ca, &cb, scale);
    Some(Truth {
        signed: -(sat.depth.max(0.0) + margin),
        normal: (sat.unique && sat.depth > 1e-6 * scale).then_some(sat.axis),
    })
}

/// One ulp of 1, in f64.
fn eps<T: Real>() -> f64 {
    f(T::default_epsilon())
}

/// The angle between two unit vectors.
fn angle<const D: usize>(x: &SVector<f64, D>, y: &SVector<f64, D>) -> f64 {
    2.0 * ((x - y).norm() / 2.0).min(1.0).asin()
}

/// Contact invariants: separation within `acc` of the truth, bounds bracketing it, the
/// overlap along the normal equal to −separation, `point_b − point_a = separation·normal`,
/// witnesses on their shapes' boundaries along ±normal and inside them.
#[allow(clippy::too_many_arguments)]
fn check_contact<T: Real, const D: usize>(
    ctx: &str,
    pa: &Pose<T, D>,
    a: &dyn SupportMap<T, D>,
    pb: &Pose<T, D>,
    b: &dyn SupportMap<T, D>,
    c: &Contact<T, D>,
    exact: f64,
    acc: f64,
) {
    let sep = f(c.separation);
    let n = back(&c.normal.into_inner());
    let (qa, qb) = (pback(&c.point_a), pback(&c.point_b));
    let (lo, hi) = (f(c.lower_bound), f(c.upper_bound));
    let ctx = format!("{ctx}: contact {c:?}, truth {exact:e}, acc {acc:e}");
    // The test poses' rotations are orthonormal to ~1e-12 only (one Gram–Schmidt pass).
    let unit = 1e-9f64.max(1e3 * eps::<T>());
    assert!((n.norm() - 1.0).abs() <= unit, "normal not unit: {ctx}");
    assert!((sep - exact).abs() <= acc, "separation off: {ctx}");
    assert!(
        lo <= sep && sep <= hi,
        "separation outside its bounds: {ctx}"
    );
    let slack = acc * 1e-3;
    assert!(
        lo <= exact + slack && exact <= hi + slack,
        "bounds do not bracket: {ctx}"
    );
    let (ha, hb) = (support_value(pa, a, &n), support_value(pb, b, &-n));
    assert!(
        (ha + hb + sep).abs() <= 2.0 * acc,
        "overlap along the normal: {ctx}"
    );
    assert!(
        ((qb - qa) - n * sep).norm() <= 2.0 * acc,
        "point_b − point_a: {ctx}"
    );
    assert!(
        (ha - n.dot(&qa.coords)).abs() <= 2.0 * acc,
        "point_a off A's boundary: {ctx}"
    );
    assert!(
        (hb + n.dot(&qb.coords)).abs() <= 2.0 * acc,
        "point_b off B's boundary: {ctx}"
    );
    let mut rng = Rng(7);
    let mut dirs: Vec<SVector<f64, D>> = (0..6).map(|_| rng.unit()).collect();
    for k in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[k] = 1.0;
        dirs.push(e);
        dirs.push(-e);
    }
    for d in &dirs {
        assert!(
            d.dot(&qa.coords) <= support_value(pa, a, d) + 2.0 * acc,
            "point_a outside A: {ctx}"
        );
        assert!(
            d.dot(&qb.coords) <= support_value(pb, b, d) + 2.0 * acc,
            "point_b outside B: {ctx}"
        );
    }
}

/// Everything about one pair: the fast path against the truth and the general path.
fn compare<T, const D: usize>(
    what: &str,
    a: &Spec<D>,
    pa: &(Pose<T, D>, Pose<f64, D>),
    b: &Spec<D>,
    pb: &(Pose<T, D>, Pose<f64, D>),
) where
    T: Real,
    Const<D>: ContactDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let ((sa, ra), (sb, rb)) = (a.build::<T>(), b.build::<T>());
    let (sa, sb) = (sa.as_ref(), sb.as_ref());
    let (ga, gb) = (General(sa), General(sb));
    let ((ta, fa), (tb, fb)) = (pa, pb);
    let reach = fa
        .translation
        .vector
        .amax()
        .max(fb.translation.vector.amax());
    let scale =
        (a.size() + b.size()).max(1e-300) + (fa.translation.vector - fb.translation.vector).norm();
    let Some(tr) = truth(&ra, fa, &rb, fb, scale) else {
        return;
    };
    let acc = accuracy::<T>(scale + reach);
    let clear = 1e3 * eps::<T>() * (scale + reach);
    let ctx = format!(
        "{what}: {a:?} at {fa:?}, {b:?} at {fb:?}, truth {:e}",
        tr.signed
    );

    let d: Distance<T, D> = query::distance(ta, sa, tb, sb, &tol).unwrap();
    let dg = query::distance(ta, &ga, tb, &gb, &tol).unwrap();
    let h = query::intersects(ta, sa, tb, sb, &tol).unwrap();
    let hg = query::intersects(ta, &ga, tb, &gb, &tol).unwrap();
    let c = query::contact(ta, sa, tb, sb, &tol).unwrap();
    let cg = query::contact(ta, &ga, tb, &gb, &tol).unwrap();
    let ctx = format!("{ctx}\n fast {d:?}\n general {dg:?}");

    // Against the truth.
    check_distance(&ctx, ta, sa, tb, sb, &d, tr.signed.max(0.0), acc);
    let slack = acc * 1e-3;
    let dt = tr.signed.max(0.0);
    assert!(
        f(d.lower_bound) <= dt + slack && dt <= f(d.upper_bound) + slack,
        "distance bounds: {ctx}"
    );
    check_contact(&ctx, ta, sa, tb, sb, &c, tr.signed, acc);
    if tr.signed.abs() > clear {
        assert_eq!(h, tr.signed < 0.0, "verdict: {ctx}");
        assert_eq!(
            f(c.separation) < 0.0,
            tr.signed < 0.0,
            "contact sign: {ctx}"
        );
        // The general path agrees wherever it is right (near-touching vertex–edge pairs of
        // boxes can stall GJK without a proof: "touching" at 5e-11 apart).
        if hg == (tr.signed < 0.0) {
            assert_eq!(h, hg, "verdict differs from the general path: {ctx}");
        }
    }
    if let Some(m) = tr.normal {
        let n = back(&c.normal.into_inner());
        let lim = if eps::<T>() < 1e-12 { 1e-6 } else { 1e-2 };
        assert!(
            angle(&n, &m) <= lim,
            "normal off the truth by {}: {ctx}",
            angle(&n, &m)
        );
        let ng = back(&cg.normal.into_inner());
        assert!(
            angle(&n, &ng) <= 2.0 * lim,
            "normal differs from the general path: {ctx}"
        );
    }
    // Against the general path.
    assert!(
        (f(d.distance) - f(dg.distance)).abs() <= 2.0 * acc,
        "distance vs general: {ctx}"
    );
    assert!(
        (f(c.separation) - f(cg.separation)).abs() <= 2.0 * acc,
        "separation vs general: {ctx}\n fast contact {c:?}\n general contact {cg:?}"
    );
}

/// A random spec of `kind` (0 ball, 1 box, 2 capsule) of size about `s`; `flat` zeroes
/// one half-extent (boxes) or the segment (capsules).
fn spec<const D: usize>(rng: &mut Rng, kind: usize, s: f64, flat: bool) -> Spec<D> {
    match kind {
        0 => Spec::Ball(s * rng.uniform(0.1, 1.0)),
        1 => {
            let mut h: SVector<f64, D> = rng.vector(0.1 * s, s);
            if flat {
                h[(rng.next_u64() % D as u64) as usize] = 0.0;
            }
            Spec::Box(h)
        }
        _ => {
            let u: SVector<f64, D> = rng.unit::<D>() * (s * rng.uniform(0.1, 1.0));
            let u = if flat { SVector::zeros() } else { u };
            Spec::Capsule(u, -u, s * rng.uniform(0.05, 0.5))
        }
    }
}

/// B's pose moved along the general path's normal so that the pair is `gap` apart
/// (a separated pair moved by `−(d − gap)·n`; negative gaps go through the contact).
fn at_gap<T: Real, const D: usize>(
    a: &Spec<D>,
    pa: &(Pose<T, D>, Pose<f64, D>),
    b: &Spec<D>,
    pb: &(Pose<T, D>, Pose<f64, D>),
    gap: f64,
) -> Option<(Pose<T, D>, Pose<f64, D>)>
where
    Const<D>: ContactDim<f64, D>,
{
    let ((sa, _), (sb, _)) = (a.build::<f64>(), b.build::<f64>());
    let tol = Tolerances::<f64>::default();
    let c = query::contact(
        &pa.1,
        &General(sa.as_ref()),
        &pb.1,
        &General(sb.as_ref()),
        &tol,
    )
    .ok()?;
    let n = c.normal.into_inner();
    let t = pb.1.translation.vector + n * (gap - c.separation);
    let (rt, rf) = (pb.0.rotation, pb.1.rotation);
    let tt = v::<T, D>(&t);
    Some((
        Pose::<T, D>::from_parts(nalgebra::Translation::from(tt), rt),
        Pose::<f64, D>::from_parts(nalgebra::Translation::from(back(&tt)), rf),
    ))
}

/// The pairs of kinds (A, B): every ordered pair of ball, box, capsule.
const PAIRS: [(usize, usize); 9] = [
    (1, 1),
    (1, 0),
    (0, 1),
    (0, 0),
    (0, 2),
    (2, 0),
    (2, 2),
    (1, 2),
    (2, 1),
];

const NAMES: [&str; 3] = ["ball", "box", "capsule"];

/// Random poses, sizes about 1, spreads from overlapping to apart; degenerate shapes.
fn random_pairs<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let n = if cfg!(debug_assertions) { 24 } else { 300 };
    for (ka, kb) in PAIRS {
        let mut rng = Rng(1000 + 10 * ka as u64 + kb as u64);
        for i in 0..n {
            let flat = i % 6 == 5;
            let (a, b) = (
                spec::<D>(&mut rng, ka, 1.0, flat),
                spec::<D>(&mut rng, kb, 1.0, false),
            );
            let spread = [0.3, 1.0, 2.5, 6.0][i % 4];
            let (pa, pb) = (
                random_pose::<T, D>(&mut rng, spread),
                random_pose::<T, D>(&mut rng, spread),
            );
            compare(
                &format!("{}–{} #{i}", NAMES[ka], NAMES[kb]),
                &a,
                &pa,
                &b,
                &pb,
            );
        }
    }
}
cases!(random_pairs, [2 => d2, 3 => d3]);

/// Pairs moved to gaps of ±1e-12…1e-4 of their size (touching to the rounding and just
/// beyond), and through the contact.
fn near_touching_pairs<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
    Const<D>: ContactDim<f64, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let n = if cfg!(debug_assertions) { 12 } else { 150 };
    for (ka, kb) in PAIRS {
        let mut rng = Rng(2000 + 10 * ka as u64 + kb as u64);
        for i in 0..n {
            let (a, b) = (
                spec::<D>(&mut rng, ka, 1.0, false),
                spec::<D>(&mut rng, kb, 1.0, false),
            );
            let (pa, pb) = (
                random_pose::<T, D>(&mut rng, 1.0),
                random_pose::<T, D>(&mut rng, 3.0),
            );
            let gap = 10f64.powf(rng.uniform(-12.0, -4.0)) * if i % 2 == 0 { 1.0 } else { -1.0 };
            let Some(pb) = at_gap(&a, &pa, &b, &pb, gap) else {
                continue;
            };
            compare(
                &format!("{}–{} #{i} gap {gap:e}", NAMES[ka], NAMES[kb]),
                &a,
                &pa,
                &b,
                &pb,
            );
        }
    }
}
cases!(near_touching_pairs, [2 => d2, 3 => d3]);

/// Boxes (and a capsule over a box) face to face, tilted by 1e-9…1e-3 rad, apart or
/// overlapping by 1e-9…1e-3: the separating axes of near-parallel faces and edges.
fn near_parallel_faces<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
    Const<D>: ContactDim<f64, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(3000);
    let n = if cfg!(debug_assertions) { 40 } else { 400 };
    for i in 0..n {
        let ha: SVector<f64, D> = rng.vector(0.5, 1.0);
        let a = Spec::Box(ha);
        let b = if i % 3 == 2 {
            let mut u = SVector::<f64, D>::zeros();
            u[0] = rng.uniform(0.2, 0.8);
            Spec::Capsule(u, -u, rng.uniform(0.05, 0.3))
        } else {
            Spec::Box(rng.vector(0.3, 0.8))
        };
        let tilt = 10f64.powf(rng.uniform(-9.0, -3.0));
        let m: SMatrix<f64, D, D> = if D == 2 {
            SMatrix::from_fn(|r, c| match (r, c) {
                (0, 0) | (1, 1) => tilt.cos(),
                (0, 1) => -tilt.sin(),
                _ => tilt.sin(),
            })
        } else {
            let ax = nalgebra::Vector3::new(rng.uniform(-1.0, 1.0), 0.0, rng.uniform(-1.0, 1.0));
            let r = nalgebra::Rotation3::from_axis_angle(&nalgebra::Unit::new_normalize(ax), tilt);
            SMatrix::from_fn(|r_, c| r.matrix()[(r_, c)])
        };
        let mt = m.map(lit::<T>);
        let mut t: SVector<f64, D> = rng.vector(-0.2, 0.2);
        t[1] = ha[1] + 1.0;
        let tt = v::<T, D>(&t);
        let pb = (
            Pose::<T, D>::from_parts(
                nalgebra::Translation::from(tt),
                nalgebra::Rotation::from_matrix_unchecked(mt),
            ),
            Pose::<f64, D>::from_parts(
                nalgebra::Translation::from(back(&tt)),
                nalgebra::Rotation::from_matrix_unchecked(mt.map(f::<T>)),
            ),
        );
        let pa = (Pose::<T, D>::identity(), Pose::<f64, D>::identity());
        let gap = 10f64.powf(rng.uniform(-9.0, -3.0)) * if i % 2 == 0 { 1.0 } else { -1.0 };
        let Some(pb) = at_gap(&a, &pa, &b, &pb, gap) else {
            continue;
        };
        compare(
            &format!("near-parallel #{i} tilt {tilt:e} gap {gap:e}"),
            &a,
            &pa,
            &b,
            &pb,
        );
    }
}
cases!(near_parallel_faces, [2 => d2, 3 => d3]);

/// Deep overlaps (centres close, one shape inside the other) and huge and tiny scales.
fn deep_and_scaled_pairs<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let n = if cfg!(debug_assertions) { 8 } else { 100 };
    for (ka, kb) in PAIRS {
        let mut rng = Rng(4000 + 10 * ka as u64 + kb as u64);
        for i in 0..n {
            let s = [1.0, 1e-4, 1e5, 1.0][i % 4];
            let (a, b) = (
                spec::<D>(&mut rng, ka, s, false),
                spec::<D>(&mut rng, kb, s * [1.0, 0.2][i % 2], false),
            );
            let spread = if i % 4 == 3 { 0.05 * s } else { 0.3 * s };
            let (pa, pb) = (
                random_pose::<T, D>(&mut rng, spread),
                random_pose::<T, D>(&mut rng, spread),
            );
            compare(
                &format!("deep/scaled {}–{} #{i} s {s:e}", NAMES[ka], NAMES[kb]),
                &a,
                &pa,
                &b,
                &pb,
            );
        }
    }
}
cases!(deep_and_scaled_pairs, [2 => d2, 3 => d3]);

/// Axis-aligned boxes and capsules (ties everywhere: whole faces are supporting features),
/// stacked, side by side and overlapping by a face.
fn aligned_pairs<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(5000);
    let n = if cfg!(debug_assertions) { 30 } else { 300 };
    for i in 0..n {
        let ha: SVector<f64, D> = rng.vector(0.2, 1.0);
        let b = if i % 3 == 0 {
            let mut u = SVector::<f64, D>::zeros();
            u[(i / 3) % D] = rng.uniform(0.2, 0.8);
            Spec::Capsule(u, -u, rng.uniform(0.05, 0.3))
        } else {
            Spec::Box(rng.vector(0.2, 1.0))
        };
        let mut t: SVector<f64, D> = rng.vector(-1.0, 1.0);
        let k = i % D;
        t[k] = ha[k] + b.size() * rng.uniform(-0.5, 1.2);
        let pa = translation::<T, D>(&SVector::zeros());
        let pb = translation::<T, D>(&t);
        compare(&format!("aligned #{i}"), &Spec::Box(ha), &pa, &b, &pb);
    }
}
cases!(aligned_pairs, [2 => d2, 3 => d3]);

/// Nested and concentric boxes (and capsules inside boxes): a distance query takes the
/// overlap's common point from the second core's centre (no witness clip); the answers
/// agree with the truth and the general path as every other pair's.
fn nested_and_concentric_boxes<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(5500);
    let n = if cfg!(debug_assertions) { 24 } else { 240 };
    for i in 0..n {
        let ha: SVector<f64, D> = rng.vector(0.5, 1.5);
        let b = match i % 3 {
            0 => Spec::Box(ha),
            1 => Spec::Box(ha * rng.uniform(0.1, 0.9)),
            _ => {
                let u: SVector<f64, D> = rng.vector(-0.3, 0.3);
                Spec::Capsule(u, -u, rng.uniform(0.05, 0.2))
            }
        };
        let pa = random_pose::<T, D>(&mut rng, 1.0);
        // B's centre at A's, or moved inside A by up to a quarter of its smallest extent.
        let shift: SVector<f64, D> = rng.vector(-0.25, 0.25) * ha.min() * ((i % 2) as f64);
        let mut pb = pa;
        let t = pa.1.translation.vector + pa.1.rotation.transform_vector(&shift);
        pb.0.translation.vector = v::<T, D>(&t);
        pb.1.translation.vector = back(&pb.0.translation.vector);
        compare(&format!("nested #{i}"), &Spec::Box(ha), &pa, &b, &pb);
    }
}
cases!(nested_and_concentric_boxes, [2 => d2, 3 => d3]);

/// Fixed-point (and floats with tolerances the closed forms do not honour) take the
/// general path: the answers equal the general path's, field for field.
fn falls_back<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(6000);
    let tols = [
        Tolerances::<T>::default(),
        Tolerances::<T>::default()
            .with_gjk_max_iterations(3)
            .unwrap(),
        Tolerances::<T>::default()
            .with_gjk_subalgorithm(convex_proximity::Subalgorithm::Johnson)
            .unwrap(),
    ];
    for (ka, kb) in PAIRS {
        for i in 0..4 {
            let (a, b) = (
                spec::<D>(&mut rng, ka, 1.0, false),
                spec::<D>(&mut rng, kb, 1.0, false),
            );
            let (pa, pb) = (
                random_pose::<T, D>(&mut rng, 1.5),
                random_pose::<T, D>(&mut rng, 1.5),
            );
            let ((sa, _), (sb, _)) = (a.build::<T>(), b.build::<T>());
            let (sa, sb) = (sa.as_ref(), sb.as_ref());
            let (ga, gb) = (General(sa), General(sb));
            for (k, tol) in tols.iter().enumerate() {
                if k == 0 && !is_fixed::<T>() {
                    continue;
                }
                let what = format!("{}–{} #{i} tolerances #{k}", NAMES[ka], NAMES[kb]);
                let d = query::distance(&pa.0, sa, &pb.0, sb, tol).unwrap();
                let dg = query::distance(&pa.0, &ga, &pb.0, &gb, tol).unwrap();
                assert_eq!(d, dg, "{what}");
                let c = query::contact(&pa.0, sa, &pb.0, sb, tol).unwrap();
                let cg = query::contact(&pa.0, &ga, &pb.0, &gb, tol).unwrap();
                assert_eq!(c, cg, "{what}");
                let h = query::intersects(&pa.0, sa, &pb.0, sb, tol).unwrap();
                let hg = query::intersects(&pa.0, &ga, &pb.0, &gb, tol).unwrap();
                assert_eq!(h, hg, "{what}");
            }
        }
    }
}
cases!(falls_back, [2 => d2, 3 => d3]);

/// GJK runs up to 6D; the fast paths are for 2D and 3D only: 4D boxes take the general
/// path.
#[test]
fn four_dimensional_boxes_fall_back() {
    let mut rng = Rng(7000);
    let tol = Tolerances::<f64>::default();
    for i in 0..10 {
        let (a, b) = (
            Cuboid::new(rng.vector::<4>(0.2, 1.0)),
            Cuboid::new(rng.vector::<4>(0.2, 1.0)),
        );
        let (pa, pb) = (
            random_pose::<f64, 4>(&mut rng, 1.5),
            random_pose::<f64, 4>(&mut rng, 1.5),
        );
        let d = query::distance(&pa.0, &a, &pb.0, &b, &tol).unwrap();
        let dg = query::distance(&pa.0, &General(&a), &pb.0, &General(&b), &tol).unwrap();
        assert_eq!(d, dg, "#{i}");
        let h = query::intersects(&pa.0, &a, &pb.0, &b, &tol).unwrap();
        assert_eq!(
            h,
            query::intersects(&pa.0, &General(&a), &pb.0, &General(&b), &tol).unwrap()
        );
    }
}

/// Invalid input is the general path's error, in its order: the fast path never answers
/// for it.
#[test]
fn invalid_input_is_the_general_paths_error() {
    let tol = Tolerances::<f64>::default();
    let cube = Cuboid::new(nalgebra::Vector3::new(1.0, 1.0, 1.0));
    let mut bad = cube;
    bad.half_extents.x = f64::NAN;
    let pose = nalgebra::Isometry3::identity();
    let far = nalgebra::Isometry3::translation(f64::INFINITY, 0.0, 0.0);
    let e = query::distance(&pose, &bad, &pose, &cube, &tol).unwrap_err();
    let eg = query::distance(&pose, &General(&bad), &pose, &General(&cube), &tol).unwrap_err();
    assert_eq!(e, eg);
    let e = query::contact(&pose, &cube, &far, &cube, &tol).unwrap_err();
    let eg = query::contact(&pose, &General(&cube), &far, &General(&cube), &tol).unwrap_err();
    assert_eq!(e, eg);
    // An out-of-range tolerance reaches neither path: its setter refuses it, naming the
    // field, and both paths answer alike on the tolerances it was called on.
    assert_eq!(
        tol.with_gjk_rel(-1.0),
        Err(QueryError::InvalidTolerance { field: "gjk_rel" })
    );
    let e = query::intersects(&pose, &cube, &pose, &cube, &tol);
    let eg = query::intersects(&pose, &General(&cube), &pose, &General(&cube), &tol);
    assert_eq!(e, Ok(true));
    assert_eq!(e, eg);
}

/// 2D boxes face to face at any angle (B turned by a multiple of a right angle from A,
/// exactly or within 1e-9): B's face is A's incident edge, clipped to A's face on neither,
/// one or both sides (the fast path's segment clip), overlapping, touching and apart.
/// Each answer agrees with the truth and the general path, and the fast path gives it
/// (one iteration): a clip that misses the face's side would hand the pair to GJK.
fn rotated_face_to_face<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() || D != 2 {
        return;
    }
    let turn = |a: f64, t: &SVector<f64, D>| {
        let mut m = SMatrix::<f64, D, D>::identity();
        let (s, c) = a.sin_cos();
        (m[(0, 0)], m[(0, 1)], m[(1, 0)], m[(1, 1)]) = (c, -s, s, c);
        let (mt, tt) = (m.map(lit::<T>), v::<T, D>(&(m * t)));
        (
            nalgebra::Isometry::from_parts(
                nalgebra::Translation::from(tt),
                nalgebra::Rotation::from_matrix_unchecked(mt),
            ),
            nalgebra::Isometry::from_parts(
                nalgebra::Translation::from(back(&tt)),
                nalgebra::Rotation::from_matrix_unchecked(mt.map(f::<T>)),
            ),
        )
    };
    let mut rng = Rng(5700);
    let n = if cfg!(debug_assertions) { 40 } else { 400 };
    for i in 0..n {
        let (ha, hb): (SVector<f64, D>, SVector<f64, D>) =
            (rng.vector(0.2, 1.0), rng.vector(0.2, 1.0));
        let th = rng.uniform(-3.2, 3.2);
        let k = i % 4;
        let tilt = [0.0, 1e-9, -1e-9, 0.0][(i / 4) % 4];
        // B's half-extent along A's first axis, and across it.
        let (along, across) = if k % 2 == 0 {
            (hb[0], hb[1])
        } else {
            (hb[1], hb[0])
        };
        let gap = [-0.3, -1e-3, 0.0, 1e-9, 0.25][i % 5] * ha[0].min(along);
        let lateral = rng.uniform(-1.2, 1.2) * (ha[1] + across);
        let mut t = SVector::<f64, D>::zeros();
        (t[0], t[1]) = (ha[0] + along + gap, lateral);
        let pa = turn(th, &SVector::zeros());
        let pb = turn(th + k as f64 * core::f64::consts::FRAC_PI_2 + tilt, &t);
        compare(
            &format!("face to face #{i}"),
            &Spec::Box(ha),
            &pa,
            &Spec::Box(hb),
            &pb,
        );
        let (a, b) = (Cuboid::new(v::<T, D>(&ha)), Cuboid::new(v::<T, D>(&hb)));
        let tol = Tolerances::<T>::default();
        let d = query::distance(&pa.0, &a, &pb.0, &b, &tol).expect("valid input");
        let c = query::contact(&pa.0, &a, &pb.0, &b, &tol).expect("valid input");
        assert!(
            d.iterations == 1 && c.iterations == 1,
            "face to face #{i}: not the fast path: {d:?} {c:?}"
        );
    }
}
cases!(rotated_face_to_face, [2 => d2]);

/// A ball with a box (both ways round): the ball's witness is its centre as given, moved
/// by its radius along the normal (`Answer::centred`; mapping the centre into the box's
/// frame and back rounds it), and the box's witness is on the box. Separated, touching,
/// overlapping; distance and contact, the fast path answering (one iteration).
fn ball_witness_from_its_centre<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    if is_fixed::<T>() {
        return;
    }
    let mut rng = Rng(5800);
    let tol = Tolerances::<T>::default();
    let mut moved = 0;
    for i in 0..200 {
        let h: SVector<f64, D> = rng.vector(0.2, 1.0);
        let r = [0.0, 0.1, 0.5][i % 3];
        let (pbox, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (mut pball, _) = random_pose::<T, D>(&mut rng, 1.0);
        // Every other ball centre inside the box (an overlap), in the box's frame.
        if i % 2 == 1 {
            let u: SVector<f64, D> = rng.vector(-0.9, 0.9);
            let inside = u.component_mul(&h);
            pball.translation.vector = pbox
                .transform_point(&Point::from(v::<T, D>(&inside)))
                .coords;
        }
        let (cube, ball) = (Cuboid::new(v::<T, D>(&h)), Ball::new(lit::<T>(r)));
        let centre = Point::from(pball.translation.vector);
        let rt = lit::<T>(r);
        for swap in [false, true] {
            let (d, c) = if swap {
                (
                    query::distance(&pball, &ball, &pbox, &cube, &tol),
                    query::contact(&pball, &ball, &pbox, &cube, &tol),
                )
            } else {
                (
                    query::distance(&pbox, &cube, &pball, &ball, &tol),
                    query::contact(&pbox, &cube, &pball, &ball, &tol),
                )
            };
            let (d, c) = (d.expect("valid input"), c.expect("valid input"));
            let what = format!("#{i} swap {swap}: {d:?} {c:?}");
            assert!(
                d.iterations == 1 && c.iterations == 1,
                "not the fast path: {what}"
            );
            // The normal from A to B: from the ball outwards when the ball is A.
            let n = if swap {
                c.normal.into_inner()
            } else {
                -c.normal.into_inner()
            };
            let wc = if swap { c.point_a } else { c.point_b };
            assert_eq!(wc, centre + n * rt, "contact: {what}");
            let (wd, od) = if swap {
                (d.point_a, d.point_b)
            } else {
                (d.point_b, d.point_a)
            };
            if let Some(nd) = d.normal {
                let nd = if swap {
                    nd.into_inner()
                } else {
                    -nd.into_inner()
                };
                assert_eq!(wd, centre + nd * rt, "distance: {what}");
            } else if r > 0.0 && i % 2 == 1 {
                // Overlapping: the common point is the centre, exactly.
                assert!(wd == centre && od == centre, "distance: {what}");
            }
            moved += usize::from(pbox.inverse_transform_point(&centre) != centre);
        }
    }
    assert!(moved > 0);
}
cases!(ball_witness_from_its_centre, [2 => d2, 3 => d3]);

/// Admission checks every number the closed forms read in one finiteness sum and the
/// signs by plain comparisons (`pair::admit`): each invalid value in each slot is the
/// general path's error, and a valid one the fast path's answer (−0 radius, a radius next
/// to an overflowing one).
#[test]
fn admission_in_one_finiteness_sum() {
    use nalgebra::{Isometry3, Point3, UnitQuaternion, Vector3};
    let tol = Tolerances::<f64>::default();
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0];
    let pose = Isometry3::translation(0.1, 0.2, 3.0);
    let cube = Cuboid::new(Vector3::new(1.0, 0.5, 0.25));
    let ball = Ball::new(0.5);
    let cap = Capsule::new(
        Point3::new(0.0, 0.0, -0.5),
        Point3::new(0.0, 0.0, 0.5),
        0.25,
    );
    fn same<A: SupportMap<f64, 3>, B: SupportMap<f64, 3>>(
        what: &str,
        pa: &nalgebra::Isometry3<f64>,
        a: &A,
        pb: &nalgebra::Isometry3<f64>,
        b: &B,
    ) {
        let tol = Tolerances::<f64>::default();
        let (ga, gb) = (General(a), General(b));
        let d = query::distance(pa, a, pb, b, &tol).map(|_| ());
        let dg = query::distance(pa, &ga, pb, &gb, &tol).map(|_| ());
        assert!(d.is_err() && d == dg, "{what}: {d:?} {dg:?}");
        let c = query::contact(pa, a, pb, b, &tol).map(|_| ());
        let cg = query::contact(pa, &ga, pb, &gb, &tol).map(|_| ());
        assert!(c.is_err() && c == cg, "{what}: {c:?} {cg:?}");
        let h = query::intersects(pa, a, pb, b, &tol).map(|_| ());
        let hg = query::intersects(pa, &ga, pb, &gb, &tol).map(|_| ());
        assert!(h.is_err() && h == hg, "{what}: {h:?} {hg:?}");
    }
    let id = Isometry3::identity();
    for x in bad {
        for k in 0..3 {
            let mut c = cube;
            c.half_extents[k] = x;
            same(&format!("half-extent {k} = {x}"), &id, &c, &pose, &ball);
            same(&format!("half-extent {k} = {x}, B"), &pose, &ball, &id, &c);
            let mut t = pose;
            t.translation.vector[k] = x;
            if x.is_finite() {
                continue;
            }
            same(&format!("translation {k} = {x}"), &id, &cube, &t, &ball);
            same(&format!("translation {k} = {x}, A"), &t, &ball, &id, &cap);
            let mut c = cap;
            c.segment.b[k] = x;
            same(&format!("capsule end {k} = {x}"), &id, &c, &pose, &ball);
            same(&format!("capsule end {k} = {x}, B"), &pose, &cube, &id, &c);
        }
        let mut b = ball;
        b.radius = x;
        same(&format!("radius {x}"), &id, &cube, &pose, &b);
        same(&format!("radius {x}, A"), &id, &b, &pose, &cap);
        let mut c = cap;
        c.radius = x;
        same(&format!("capsule radius {x}"), &id, &ball, &pose, &c);
    }
    // Radii each finite, their sum not.
    let huge = Ball::new(f64::MAX);
    same("radii overflowing", &id, &huge, &pose, &huge);
    // A pose that is not rigid.
    let mut skew = pose;
    skew.rotation = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(1.5, 0.0, 0.0, 0.0));
    same("non-unit rotation", &id, &cube, &skew, &ball);
    same("non-unit rotation, A", &skew, &ball, &id, &ball);
    // Valid: a −0 radius, and the largest radius beside a zero one.
    for (what, b) in [
        ("-0 radius", Ball::new(-0.0)),
        ("largest radius", Ball::new(f64::MAX / 4.0)),
    ] {
        let d = query::distance(&id, &cube, &pose, &b, &tol).expect(what);
        let c = query::contact(&id, &Ball::new(0.0), &pose, &b, &tol).expect(what);
        assert!(
            d.iterations == 1 && c.iterations == 1,
            "{what}: {d:?} {c:?}"
        );
    }
}

/// A 2D pose turned by `angle` and moved to `t`, in `T` and as `T` holds it (read back in
/// f64).
fn turned<T: Real>(angle: f64, t: &SVector<f64, 2>) -> (Pose<T, 2>, Pose<f64, 2>) {
    let (s, c) = angle.sin_cos();
    let m = SMatrix::<f64, 2, 2>::new(c, -s, s, c);
    let (mt, tt) = (m.map(lit::<T>), v::<T, 2>(t));
    (
        nalgebra::Isometry::from_parts(
            nalgebra::Translation::from(tt),
            nalgebra::Rotation::from_matrix_unchecked(mt),
        ),
        nalgebra::Isometry::from_parts(
            nalgebra::Translation::from(back(&tt)),
            nalgebra::Rotation::from_matrix_unchecked(mt.map(f::<T>)),
        ),
    )
}

/// The corners of a 2D box in cyclic order (world frame, f64).
fn corners(h: &SVector<f64, 2>, pose: &Pose<f64, 2>) -> [Point<f64, 2>; 4] {
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .map(|(x, y)| pose.transform_point(&nalgebra::Point2::new(x * h[0], y * h[1])))
}

/// Whether a point lies in a 2D box, within `slack` (f64).
fn in_box(h: &SVector<f64, 2>, pose: &Pose<f64, 2>, x: &Point<f64, 2>, slack: f64) -> bool {
    let l = pose.inverse_transform_point(x);
    (0..2).all(|k| l[k].abs() <= h[k] + slack)
}

/// The distance of two 2D boxes by brute force: 0 when a corner of either lies in the
/// other or two edges cross, else the least of the 4×4 vertex–edge distances both ways.
fn brute_box_distance(
    ha: &SVector<f64, 2>,
    pa: &Pose<f64, 2>,
    hb: &SVector<f64, 2>,
    pb: &Pose<f64, 2>,
) -> f64 {
    let (va, vb) = (corners(ha, pa), corners(hb, pb));
    let inside =
        va.iter().any(|x| in_box(hb, pb, x, 0.0)) || vb.iter().any(|x| in_box(ha, pa, x, 0.0));
    let side = |a: &Point<f64, 2>, b: &Point<f64, 2>, c: &Point<f64, 2>| (b - a).perp(&(c - a));
    let mut d = f64::INFINITY;
    let mut crossing = false;
    for i in 0..4 {
        let (p, q) = (va[i], va[(i + 1) % 4]);
        for j in 0..4 {
            let (r, s) = (vb[j], vb[(j + 1) % 4]);
            crossing |= side(&p, &q, &r) * side(&p, &q, &s) <= 0.0
                && side(&r, &s, &p) * side(&r, &s, &q) <= 0.0;
            d = d
                .min(origin_segment(&(p - vb[j]), &(q - vb[j])))
                .min(origin_segment(&(r - va[i]), &(s - va[i])));
        }
    }
    if inside || crossing { 0.0 } else { d }
}

/// The 2D box pairs of [`box_pairs_against_brute_force`]: `(case, A's half-extents, B's,
/// B's turn from A, B's centre in A's frame)`; cases 0 cross-shaped overlaps (no corner of
/// either inside the other), 1 a corner of B inside A (B's centre outside), 2 nested and
/// identical, 3 touching by a corner, 4 apart, 5 overlapping at random.
fn brute_force_case(
    rng: &mut Rng,
    i: usize,
) -> (
    usize,
    SVector<f64, 2>,
    SVector<f64, 2>,
    f64,
    SVector<f64, 2>,
) {
    let tiny = [0.0, 1e-12, -1e-9, 1e-6, rng.uniform(-3.2, 3.2)][i % 5];
    let ha = nalgebra::Vector2::new(rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0));
    let hr = nalgebra::Vector2::new(rng.uniform(0.2, 1.0), rng.uniform(0.2, 1.0));
    let case = (i / 5) % 6;
    let (hb, turn, t) = match case {
        0 => (
            nalgebra::Vector2::new(0.5 * ha[0], 3.0 * ha[1]),
            tiny * 1e-3,
            nalgebra::Vector2::new(rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2)) * ha.min(),
        ),
        1 => (
            ha * rng.uniform(0.5, 1.5),
            tiny * 1e-3,
            nalgebra::Vector2::new(ha[0] * rng.uniform(1.1, 1.4), ha[1] * rng.uniform(1.1, 1.4)),
        ),
        2 => (
            ha * [1.0, rng.uniform(0.1, 0.9)][i % 2],
            [0.0, tiny * 1e-3][i % 2],
            SVector::zeros(),
        ),
        // B's diagonal along A's x axis: its corner on A's face x = a_0.
        3 => (
            hr,
            hr[1].atan2(hr[0]) + tiny * 1e-3,
            nalgebra::Vector2::new(ha[0] + hr.norm(), rng.uniform(-0.5, 0.5) * ha[1]),
        ),
        4 => (
            hr,
            tiny,
            nalgebra::Vector2::new(2.5 + rng.uniform(0.0, 1.0), rng.uniform(-1.0, 1.0)),
        ),
        _ => (
            hr,
            tiny,
            nalgebra::Vector2::new(rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)),
        ),
    };
    (case, ha, hb, turn, t)
}

/// 2D box pairs in every relation the closed form tells apart: cross-shaped overlaps,
/// a corner of one inside the other, nested and identical boxes, touching by a corner,
/// apart and overlapping at random, each turned by 0, ±1e-12…1e-6 rad or at random. The
/// fast path answers (one iteration) with the distance of the brute force over the 4×4
/// vertex–edge pairs, and agrees with the truth and the general path ([`compare`]).
fn box_pairs_against_brute_force<T: Real, const D: usize>() {
    if !is_fixed::<T>() && D == 2 {
        brute_force_2d::<T>();
    }
}

fn brute_force_2d<T: Real>() {
    let mut rng = Rng(5800);
    let n = if cfg!(debug_assertions) { 60 } else { 600 };
    let tol = Tolerances::<T>::default();
    for i in 0..n {
        let (case, ha, hb, turn, t) = brute_force_case(&mut rng, i);
        let th = rng.uniform(-3.2, 3.2);
        let pa = turned::<T>(th, &SVector::zeros());
        let pb = turned::<T>(th + turn, &(nalgebra::Rotation2::new(th) * t));
        let what = format!("brute #{i} (case {case})");
        compare(&what, &Spec::Box(ha), &pa, &Spec::Box(hb), &pb);
        let (ra, rb) = (back(&v::<T, 2>(&ha)), back(&v::<T, 2>(&hb)));
        let exact = brute_box_distance(&ra, &pa.1, &rb, &pb.1);
        let (a, b) = (Cuboid::new(v::<T, 2>(&ha)), Cuboid::new(v::<T, 2>(&hb)));
        let d = query::distance(&pa.0, &a, &pb.0, &b, &tol).expect("valid input");
        let acc = accuracy::<T>(4.0 + t.norm());
        assert!(
            (f(d.distance) - exact).abs() <= acc && d.iterations == 1,
            "{what}: {d:?}, brute force {exact:e}, acc {acc:e}"
        );
    }
}
cases!(box_pairs_against_brute_force, [2 => d2]);

/// The vertex common point (`pair::boxes`, 2D): boxes overlapping with a corner of one
/// inside the other and neither centre inside the other box take that corner as the
/// distance's common point, exactly on both (`point_a == point_b`, a corner of A or B,
/// inside the other box). Without it the common point came from the witness clip: the
/// clipped feature's midpoint or its projection, not a corner.
fn vertex_common_point<T: Real, const D: usize>() {
    if !is_fixed::<T>() && D == 2 {
        vertex_common_point_2d::<T>();
    }
}
cases!(vertex_common_point, [2 => d2]);

fn vertex_common_point_2d<T: Real>() {
    let mut rng = Rng(5900);
    let n = if cfg!(debug_assertions) { 40 } else { 400 };
    let tol = Tolerances::<T>::default();
    // Corners this far inside the other box: inside it in `T` too.
    let slack = 128.0 * eps::<T>();
    let mut checked = 0;
    for i in 0..n {
        let ha = nalgebra::Vector2::new(rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0));
        let hb = nalgebra::Vector2::new(rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0));
        let th = rng.uniform(-3.2, 3.2);
        // B's centre beyond A's corner (a_0, a_1) along A's diagonal, by 0.3 of B's
        // smallest half-extent (that corner inside B), B turned a little or at random.
        let turn = [1e-9, rng.uniform(-0.3, 0.3), rng.uniform(-3.2, 3.2)][i % 3];
        let dir = nalgebra::Vector2::new(ha[0], ha[1]).normalize();
        let t = nalgebra::Vector2::new(ha[0], ha[1]) + dir * (0.3 * hb.min());
        let pa = turned::<T>(th, &SVector::zeros());
        let pb = turned::<T>(th + turn, &(nalgebra::Rotation2::new(th) * t));
        let (ra, rb) = (back(&v::<T, 2>(&ha)), back(&v::<T, 2>(&hb)));
        if in_box(&ra, &pa.1, &Point::from(pb.1.translation.vector), 0.0)
            || in_box(&rb, &pb.1, &Point::from(pa.1.translation.vector), 0.0)
            || brute_box_distance(&ra, &pa.1, &rb, &pb.1) > 0.0
        {
            continue;
        }
        let (va, vb) = (corners(&ra, &pa.1), corners(&rb, &pb.1));
        let inner = vb.iter().any(|x| in_box(&ra, &pa.1, x, -slack))
            || va.iter().any(|x| in_box(&rb, &pb.1, x, -slack));
        if !inner {
            continue;
        }
        checked += 1;
        let (a, b) = (Cuboid::new(v::<T, 2>(&ha)), Cuboid::new(v::<T, 2>(&hb)));
        let d = query::distance(&pa.0, &a, &pb.0, &b, &tol).expect("valid input");
        let x = pback(&d.point_a);
        let near = |p: &Point<f64, 2>| (p - x).norm() <= slack * 4.0;
        let on_a = va.iter().any(near) && in_box(&rb, &pb.1, &x, slack);
        let on_b = vb.iter().any(near) && in_box(&ra, &pa.1, &x, slack);
        assert!(
            d.distance == T::zero() && d.point_a == d.point_b && (on_a || on_b),
            "vertex common point #{i}: {d:?}\n A {ha:?} at {:?}\n B {hb:?} at {:?}",
            pa.1,
            pb.1
        );
    }
    assert!(
        checked >= n / 2,
        "only {checked} of {n} pairs overlap by a corner"
    );
}
