//! `query::contact` (signed distance; EPA penetration depth when the cores overlap) against
//! exact oracles: SAT over every facet normal and edge–edge axis for polytopes, closed forms
//! for balls, capsules and boxes; the properties the issue lists; and the hard cases.
//! Every case for f32, f64 and FixedI40F24 (unit scale), in 2D and 3D.

mod common;
use common::*;
use convex_proximity::{
    Real,
    epa::ContactDim,
    lit,
    query::{self, Contact},
    shape::{Ball, Capsule, Cuboid, Polytope, Rounded, Segment, SupportMap},
};
use nalgebra::{Const, Point, SVector};

/// Scales to run floats at (fixed-point: unit scale only, its documented range).
fn scales<T: Real>() -> &'static [f64] {
    if is_fixed::<T>() {
        &[1.0]
    } else {
        &[1e-2, 1.0, 1e3]
    }
}

/// The accuracy at scale `s`, plus the slack of a rotation read back from `T` (orthonormal
/// only to the scalar's precision).
fn acc_rot<T: Real>(s: f64) -> f64 {
    accuracy::<T>(s).max(32.0 * f(T::default_epsilon()) * s)
}

/// The accepted angle between the reported normal and a unique minimising axis.
fn normal_tol<T: Real>() -> f64 {
    if !is_fixed::<T>() && f(T::default_epsilon()) < 1e-12 {
        1e-6
    } else {
        1e-3
    }
}

/// How far from 1 the normal's length may be.
fn unit_tol<T: Real>() -> f64 {
    if is_fixed::<T>() {
        1e-4
    } else {
        // The test poses' rotations are orthonormal to ~1e-12 only (one Gram–Schmidt pass).
        1e-9f64.max(1e3 * f(T::default_epsilon()))
    }
}

type Shape<T, const D: usize> = Box<dyn SupportMap<T, D>>;

fn run<T: Real, const D: usize, A, B>(
    pa: &Pose<T, D>,
    a: &A,
    pb: &Pose<T, D>,
    b: &B,
) -> Contact<T, D>
where
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    query::contact(pa, a, pb, b, &tol()).expect("valid input")
}

/// The angle between two unit vectors (robust near 0).
fn angle<const D: usize>(x: &SVector<f64, D>, y: &SVector<f64, D>) -> f64 {
    2.0 * ((x - y).norm() / 2.0).min(1.0).asin()
}

/// Checks a contact against the exact separation `exact` (and the exact normal, when it is
/// unique): finite fields, a unit normal, the separation within `acc`, bounds that bracket
/// it and the truth, `point_b − point_a = separation · normal`, and witnesses on their
/// shapes' boundaries (support values along ±normal) and inside them (other directions).
#[allow(clippy::too_many_arguments)]
fn check<T, A, B, const D: usize>(
    what: &str,
    pose_a: &Pose<T, D>,
    a: &A,
    pose_b: &Pose<T, D>,
    b: &B,
    c: &Contact<T, D>,
    exact: f64,
    normal: Option<SVector<f64, D>>,
    acc: f64,
) where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let sep = f(c.separation);
    let n = back(&c.normal.into_inner());
    let (qa, qb) = (pback(&c.point_a), pback(&c.point_b));
    let (lo, hi) = (f(c.lower_bound), f(c.upper_bound));
    let ctx = format!(
        "{what}: separation {sep:e} exact {exact:e} acc {acc:e} normal {n:?} expected \
         {normal:?} bounds [{lo:e}, {hi:e}] {:?} after {} (pose_a {pose_a:?} pose_b {pose_b:?})",
        c.termination, c.iterations
    );
    let finite = sep.is_finite()
        && lo.is_finite()
        && hi.is_finite()
        && n.iter()
            .chain(qa.iter())
            .chain(qb.iter())
            .all(|x| x.is_finite());
    assert!(finite, "non-finite field: {ctx}");
    assert!(
        (n.norm() - 1.0).abs() <= unit_tol::<T>(),
        "normal not unit: {ctx}"
    );
    assert!((sep - exact).abs() <= acc, "separation off: {ctx}");
    assert!(
        lo <= sep && sep <= hi,
        "separation outside its bounds: {ctx}"
    );
    assert!(
        lo <= exact + acc && exact <= hi + acc,
        "bounds do not bracket the truth: {ctx}"
    );
    // The normal is a valid direction: the overlap along it is the depth.
    let along = support_value(pose_a, a, &n) + support_value(pose_b, b, &-n);
    assert!(
        (along + sep).abs() <= 2.0 * acc,
        "overlap along the normal {along:e} != -separation: {ctx}"
    );
    assert!(
        ((qb - qa) - n * sep).norm() <= 2.0 * acc,
        "point_b - point_a = {} != separation * normal: {ctx}",
        qb - qa
    );
    let (ha, hb) = (support_value(pose_a, a, &n), support_value(pose_b, b, &-n));
    assert!(
        (ha - n.dot(&qa.coords)).abs() <= 2.0 * acc,
        "point_a not on A's boundary along the normal (h {ha}, n·a {}): {ctx}",
        n.dot(&qa.coords)
    );
    assert!(
        (hb + n.dot(&qb.coords)).abs() <= 2.0 * acc,
        "point_b not on B's boundary along -normal (h {hb}, -n·b {}): {ctx}",
        -n.dot(&qb.coords)
    );
    let mut rng = Rng(7);
    let mut dirs: Vec<SVector<f64, D>> = (0..8).map(|_| rng.unit()).collect();
    for k in 0..D {
        let mut e = SVector::<f64, D>::zeros();
        e[k] = 1.0;
        dirs.push(e);
        dirs.push(-e);
    }
    for d in &dirs {
        assert!(
            d.dot(&qa.coords) <= support_value(pose_a, a, d) + 2.0 * acc,
            "point_a outside A along {d:?}: {ctx}"
        );
        assert!(
            d.dot(&qb.coords) <= support_value(pose_b, b, d) + 2.0 * acc,
            "point_b outside B along {d:?}: {ctx}"
        );
    }
    check_normal::<T, D>(&n, normal, &ctx);
}

fn check_normal<T: Real, const D: usize>(
    n: &SVector<f64, D>,
    normal: Option<SVector<f64, D>>,
    ctx: &str,
) {
    if let Some(m) = normal {
        assert!(
            angle(n, &m) <= normal_tol::<T>(),
            "normal off by {} rad: {ctx}",
            angle(n, &m)
        );
    }
}

fn polytope<T: Real, const D: usize>(pts: &[Point<f64, D>]) -> Polytope<T, D> {
    Polytope::try_new(pts.iter().map(p::<T, D>).collect()).unwrap()
}

/// Vertices of a polytope in `T`, placed by the read-back f64 pose.
fn world<T: Real, const D: usize>(
    poly: &Polytope<T, D>,
    pose: &Pose<f64, D>,
) -> Vec<Point<f64, D>> {
    poly.points()
        .iter()
        .map(|x| pose.transform_point(&pback(x)))
        .collect()
}

/// Runs a polytope pair both ways against its SAT oracle; returns whether it overlapped.
#[allow(clippy::too_many_arguments)]
fn sat_pair<T: Real, const D: usize, A, B>(
    what: &str,
    pa: &Pose<T, D>,
    a: &A,
    pb: &Pose<T, D>,
    b: &B,
    sat: &Sat<D>,
    acc: f64,
) -> bool
where
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    if sat.depth <= 0.0 {
        // Separated: `contact` is the distance; its own tests cover that.
        let c = run(pa, a, pb, b);
        assert!(
            f(c.separation) >= -acc,
            "{what}: SAT separated {sat:?} but {c:?}"
        );
        return false;
    }
    let expect = sat.unique.then_some(sat.axis);
    let c = run(pa, a, pb, b);
    check(what, pa, a, pb, b, &c, -sat.depth, expect, acc);
    // Symmetry: swapping A and B keeps the separation and reverses the normal.
    let r = run(pb, b, pa, a);
    check(
        &format!("{what} (swapped)"),
        pb,
        b,
        pa,
        a,
        &r,
        -sat.depth,
        expect.map(|m| -m),
        acc,
    );
    true
}

// ================================================================ 1. SAT oracle

fn sat_boxes<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(301);
    for &s in scales::<T>() {
        let mut overlapping = 0;
        for i in 0..60 {
            let ha = v::<T, D>(&rng.vector(0.1 * s, 1.0 * s));
            let hb = v::<T, D>(&rng.vector(0.1 * s, 1.0 * s));
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.6 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.6 * s);
            let sat = sat_depth(
                &box_vertices(&back(&ha), &fa),
                &box_vertices(&back(&hb), &fb),
                s,
            );
            let what = format!("boxes #{i} scale {s} ha {ha:?} hb {hb:?}");
            overlapping += sat_pair(
                &what,
                &pa,
                &Cuboid::new(ha),
                &pb,
                &Cuboid::new(hb),
                &sat,
                acc_rot::<T>(s),
            ) as usize;
        }
        assert!(overlapping >= 40, "only {overlapping} overlapping pairs");
    }
}
cases!(sat_boxes, [2 => d2, 3 => d3]);

fn sat_polytopes<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(302);
    for &s in scales::<T>() {
        let mut overlapping = 0;
        for i in 0..60 {
            let (na, nb) = (4 + i % 7, 4 + (i / 7) % 7);
            let (ra, rb) = (s * rng.uniform(0.3, 1.0), s * rng.uniform(0.3, 1.0));
            let a = polytope::<T, D>(&rng.sphere_points(na, SVector::zeros(), ra));
            let b = polytope::<T, D>(&rng.sphere_points(nb, SVector::zeros(), rb));
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.35 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.35 * s);
            let sat = sat_depth(&world(&a, &fa), &world(&b, &fb), s);
            let what = format!(
                "polytopes #{i} scale {s} a {:?} b {:?}",
                a.points(),
                b.points()
            );
            overlapping += sat_pair(&what, &pa, &a, &pb, &b, &sat, acc_rot::<T>(s)) as usize;
        }
        assert!(overlapping >= 30, "only {overlapping} overlapping pairs");
    }
}
cases!(sat_polytopes, [2 => d2, 3 => d3]);

// ================================================================ 2. closed forms

fn ball_ball<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(303);
    for &s in scales::<T>() {
        for i in 0..100 {
            let (ra, rb) = (
                round::<T>(rng.uniform(0.05, 1.0) * s),
                round::<T>(rng.uniform(0.05, 1.0) * s),
            );
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.8 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.8 * s);
            let c = fb.translation.vector - fa.translation.vector;
            let (a, b) = (Ball::new(lit::<T>(ra)), Ball::new(lit::<T>(rb)));
            let got = run(&pa, &a, &pb, &b);
            // Concentric-ish balls: every direction is a minimiser.
            let expect = (c.norm() > 1e-3 * s).then(|| c.normalize());
            check(
                &format!("ball-ball #{i} scale {s}"),
                &pa,
                &a,
                &pb,
                &b,
                &got,
                c.norm() - ra - rb,
                expect,
                acc_rot::<T>(s),
            );
        }
        // Concentric: depth ra + rb.
        let (a, b) = (Ball::new(lit::<T>(0.5 * s)), Ball::new(lit::<T>(0.25 * s)));
        let (pa, _) = random_pose::<T, D>(&mut rng, s);
        let got = run(&pa, &a, &pa, &b);
        check(
            "concentric balls",
            &pa,
            &a,
            &pa,
            &b,
            &got,
            -0.75 * s,
            None,
            acc_rot::<T>(s),
        );
    }
}
cases!(ball_ball, [2 => d2, 3 => d3]);

/// The world-frame core segment of a capsule.
fn core<T: Real, const D: usize>(pose: &Pose<f64, D>, x: &SVector<T, D>) -> SVector<f64, D> {
    pose.transform_point(&Point::from(back(x))).coords
}

fn capsule_capsule<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(304);
    for &s in scales::<T>() {
        for i in 0..100 {
            let mk = |rng: &mut Rng| {
                (
                    v::<T, D>(&rng.vector(-0.5 * s, 0.5 * s)),
                    v::<T, D>(&rng.vector(-0.5 * s, 0.5 * s)),
                    lit::<T>(rng.uniform(0.05, 0.4) * s),
                )
            };
            let (a0, a1, ar) = mk(&mut rng);
            let (b0, b1, br) = mk(&mut rng);
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.5 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.5 * s);
            let ca = Capsule::new(Point::from(a0), Point::from(a1), ar);
            let cb = Capsule::new(Point::from(b0), Point::from(b1), br);
            let (sa, sb) = (
                [core(&fa, &a0), core(&fa, &a1)].map(Point::from),
                [core(&fb, &b0), core(&fb, &b1)].map(Point::from),
            );
            let dist = segment_segment(&sa[0].coords, &sa[1].coords, &sb[0].coords, &sb[1].coords);
            let radii = f(ar) + f(br);
            let (exact, expect) = if dist > 1e-6 * s {
                (dist - radii, None)
            } else if D == 2 {
                // Crossing cores (2D): the segments' own SAT depth plus the radii.
                let sat = sat_depth(&sa, &sb, s);
                (-(sat.depth + radii), sat.unique.then_some(sat.axis))
            } else {
                continue; // crossing in 3D only on a null set
            };
            let got = run(&pa, &ca, &pb, &cb);
            check(
                &format!("capsule-capsule #{i} scale {s}"),
                &pa,
                &ca,
                &pb,
                &cb,
                &got,
                exact,
                expect,
                acc_rot::<T>(s),
            );
        }
    }
}
cases!(capsule_capsule, [2 => d2, 3 => d3]);

/// Capsules whose core segments cross at right angles (2D: a case parry looped on): the
/// cores' Minkowski difference is a rectangle around the origin.
fn capsules_crossing_at_right_angles<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(305);
    let e = |k: usize, x: f64| {
        let mut y = SVector::<f64, D>::zeros();
        y[k] = x;
        y
    };
    for i in 0..30 {
        let (la, lb) = (rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0));
        let (ra, rb) = (
            round::<T>(rng.uniform(0.05, 0.3)),
            round::<T>(rng.uniform(0.05, 0.3)),
        );
        // B's centre: exactly on A's line (i even: also exactly the crossing at A's centre).
        let (x0, y0) = if i % 2 == 0 {
            (0.0, 0.0)
        } else {
            (
                round::<T>(rng.uniform(-0.5, 0.5) * la),
                round::<T>(rng.uniform(-0.5, 0.5) * lb),
            )
        };
        let ca = Capsule::new(
            p(&Point::from(e(0, -la))),
            p(&Point::from(e(0, la))),
            lit::<T>(ra),
        );
        let cb = Capsule::new(
            p(&Point::from(e(1, -lb))),
            p(&Point::from(e(1, lb))),
            lit::<T>(rb),
        );
        let (la, lb) = (round::<T>(la), round::<T>(lb));
        let (pb, _) = translation::<T, D>(&(e(0, x0) + e(1, y0)));
        let got = run(&Pose::identity(), &ca, &pb, &cb);
        let (exact, expect) = if D == 2 {
            let (dx, dy) = (la - x0.abs(), lb - y0.abs());
            let axis = if dx < dy {
                e(0, x0.signum())
            } else {
                e(1, y0.signum())
            };
            // At the exact centre both signs of the axis are minimisers.
            let unique = (dx - dy).abs() > 1e-3 && (if dx < dy { x0 } else { y0 }) != 0.0;
            (-(dx.min(dy) + ra + rb), unique.then_some(axis))
        } else {
            // 3D: the cores touch (a flat difference); any normal perpendicular to both
            // segments (±z) is the answer.
            (-(ra + rb), None)
        };
        let what =
            format!("crossing capsules #{i}: la {la} lb {lb} ra {ra} rb {rb} at ({x0}, {y0})");
        check(
            &what,
            &Pose::identity(),
            &ca,
            &pb,
            &cb,
            &got,
            exact,
            expect,
            accuracy::<T>(1.0),
        );
        if D == 3 {
            let n = back(&got.normal.into_inner());
            assert!(n[2].abs() > 1.0 - 1e-3, "{what}: normal {n:?} not ±z");
            // Lifted by dz < ra + rb along z: the closed form radii − |dz|, normal +z.
            let dz = round::<T>(0.5 * (ra + rb));
            let (pb, _) = translation::<T, D>(&(e(0, x0) + e(1, y0) + e(2, dz)));
            let got = run(&Pose::identity(), &ca, &pb, &cb);
            check(
                &format!("{what} lifted {dz}"),
                &Pose::identity(),
                &ca,
                &pb,
                &cb,
                &got,
                dz - ra - rb,
                Some(e(2, 1.0)),
                accuracy::<T>(1.0),
            );
        }
    }
}
cases!(capsules_crossing_at_right_angles, [2 => d2, 3 => d3]);

fn box_ball<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(306);
    for &s in scales::<T>() {
        for i in 0..100 {
            let h = v::<T, D>(&rng.vector(0.1 * s, 1.0 * s));
            let r = lit::<T>(rng.uniform(0.05, 0.5) * s);
            let (pa, fa) = random_pose::<T, D>(&mut rng, 0.8 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 0.8 * s);
            let c = fa
                .inverse_transform_point(&Point::from(fb.translation.vector))
                .coords;
            let hf = back(&h);
            let outside = SVector::<f64, D>::from_fn(|k, _| (c[k].abs() - hf[k]).max(0.0));
            let (exact, local) = if outside.norm() > 0.0 {
                (outside.norm() - f(r), None)
            } else {
                // Inside: the nearest face, plus the radius.
                let (k, gap) = (0..D)
                    .map(|k| (k, hf[k] - c[k].abs()))
                    .min_by(|x, y| x.1.total_cmp(&y.1))
                    .unwrap();
                let second = (0..D)
                    .filter(|&j| j != k)
                    .map(|j| hf[j] - c[j].abs())
                    .fold(f64::INFINITY, f64::min);
                let mut e = SVector::<f64, D>::zeros();
                e[k] = c[k].signum();
                (-(gap + f(r)), (second - gap > 1e-3 * s).then_some(e))
            };
            let expect = local.map(|e| fa.rotation * e);
            let (a, b) = (Cuboid::new(h), Ball::new(r));
            let got = run(&pa, &a, &pb, &b);
            check(
                &format!("box-ball #{i} scale {s} centre in box frame {c:?}"),
                &pa,
                &a,
                &pb,
                &b,
                &got,
                exact,
                expect,
                acc_rot::<T>(s),
            );
        }
    }
}
cases!(box_ball, [2 => d2, 3 => d3]);

fn box_box_axis_aligned<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(307);
    for &s in scales::<T>() {
        for i in 0..100 {
            let ha = v::<T, D>(&rng.vector(0.1 * s, 1.0 * s));
            let hb = v::<T, D>(&rng.vector(0.1 * s, 1.0 * s));
            let (pa, fa) = translation::<T, D>(&rng.vector(-0.8 * s, 0.8 * s));
            let (pb, fb) = translation::<T, D>(&rng.vector(-0.8 * s, 0.8 * s));
            let c = fb.translation.vector - fa.translation.vector;
            let over = SVector::<f64, D>::from_fn(|k, _| f(ha[k]) + f(hb[k]) - c[k].abs());
            let (exact, expect) = if over.min() > 0.0 {
                let k = over.imin();
                let second = (0..D)
                    .filter(|&j| j != k)
                    .map(|j| over[j])
                    .fold(f64::INFINITY, f64::min);
                let mut e = SVector::<f64, D>::zeros();
                e[k] = if c[k] >= 0.0 { 1.0 } else { -1.0 };
                let unique = second - over[k] > 1e-3 * s && c[k].abs() > 1e-3 * s;
                (-over[k], unique.then_some(e))
            } else {
                (over.map(|x| (-x).max(0.0)).norm(), None)
            };
            let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
            let got = run(&pa, &a, &pb, &b);
            check(
                &format!("box-box #{i} scale {s} centres {c:?}"),
                &pa,
                &a,
                &pb,
                &b,
                &got,
                exact,
                expect,
                accuracy::<T>(s),
            );
        }
    }
}
cases!(box_box_axis_aligned, [2 => d2, 3 => d3]);

// ================================================================ 3. properties

/// A random unit-scale shape (balls, boxes, capsules, hulls, rounded boxes).
fn shape<T: Real, const D: usize>(rng: &mut Rng) -> Shape<T, D> {
    match rng.next_u64() % 5 {
        0 => Box::new(Ball::new(lit::<T>(rng.uniform(0.1, 0.8)))),
        1 => Box::new(Cuboid::new(v::<T, D>(&rng.vector(0.1, 0.8)))),
        2 => Box::new(Capsule::new(
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            lit::<T>(rng.uniform(0.05, 0.3)),
        )),
        3 => {
            let n = 4 + (rng.next_u64() % 12) as usize;
            let r = rng.uniform(0.3, 0.8);
            Box::new(polytope::<T, D>(&rng.sphere_points(n, SVector::zeros(), r)))
        }
        _ => Box::new(Rounded::new(
            Cuboid::new(v::<T, D>(&rng.vector(0.1, 0.5))),
            lit::<T>(rng.uniform(0.02, 0.2)),
        )),
    }
}

struct Pair<T: Real, const D: usize> {
    a: Shape<T, D>,
    b: Shape<T, D>,
    pa: Pose<T, D>,
    pb: Pose<T, D>,
}

fn pair<T: Real, const D: usize>(seed: u64, spread: f64) -> Pair<T, D> {
    let mut rng = Rng(seed);
    let (a, b) = (shape::<T, D>(&mut rng), shape::<T, D>(&mut rng));
    let (pa, _) = random_pose::<T, D>(&mut rng, spread);
    let (pb, _) = random_pose::<T, D>(&mut rng, spread);
    Pair { a, b, pa, pb }
}

/// B's pose moved by `t` along the world vector `n`.
fn shifted<T: Real, const D: usize>(pose: &Pose<T, D>, n: &SVector<f64, D>, t: f64) -> Pose<T, D> {
    let mut q = *pose;
    q.translation.vector += v::<T, D>(&(n * t));
    q
}

/// δ of the round trip: f64 1e-6, f32 and fixed 1e-3 (unit scale).
fn delta<T: Real>() -> f64 {
    if normal_tol::<T>() < 1e-5 { 1e-6 } else { 1e-3 }
}

/// Moving B by (depth + δ) along the normal separates the pair; by (depth − δ) it does not.
/// Also: the contact passes every check of `check` against itself, and swapping A and B
/// gives the same separation.
fn round_trip_and_symmetry<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let acc = accuracy::<T>(1.0);
    let mut tested = 0;
    for seed in 0..150u64 {
        let s = pair::<T, D>(seed, 0.4);
        let c = run(&s.pa, &*s.a, &s.pb, &*s.b);
        let sep = f(c.separation);
        let what = format!("seed {seed}");
        check(&what, &s.pa, &*s.a, &s.pb, &*s.b, &c, sep, None, acc);
        let r = run(&s.pb, &*s.b, &s.pa, &*s.a);
        check(
            &format!("{what} swapped"),
            &s.pb,
            &*s.b,
            &s.pa,
            &*s.a,
            &r,
            sep,
            None,
            2.0 * acc,
        );
        let depth = -sep;
        let dl = delta::<T>();
        if depth < 10.0 * dl {
            continue;
        }
        tested += 1;
        let n = back(&c.normal.into_inner());
        let out = shifted(&s.pb, &n, depth + dl);
        let inn = shifted(&s.pb, &n, depth - dl);
        assert!(
            !query::intersects(&s.pa, &*s.a, &out, &*s.b, &tol()).unwrap(),
            "{what}: still intersecting after moving by depth + δ: {c:?}"
        );
        assert!(
            query::intersects(&s.pa, &*s.a, &inn, &*s.b, &tol()).unwrap(),
            "{what}: apart after moving by depth − δ: {c:?}"
        );
        // The moved pair: separation δ and −δ (the normal stays a minimiser).
        let c_out = run(&s.pa, &*s.a, &out, &*s.b);
        assert!(
            (f(c_out.separation) - dl).abs() <= 4.0 * acc + 1e-3 * dl,
            "{what}: moved by depth + δ, separation {:e} != δ {dl:e}",
            f(c_out.separation)
        );
    }
    assert!(tested >= 60, "only {tested} overlapping pairs");
}
cases!(round_trip_and_symmetry, [2 => d2, 3 => d3]);

/// `contact` agrees with `query::distance` whenever the shapes are apart.
fn agrees_with_distance<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let acc = accuracy::<T>(1.0);
    let mut apart = 0;
    for seed in 1000..1150u64 {
        let s = pair::<T, D>(seed, 1.2);
        let c = run(&s.pa, &*s.a, &s.pb, &*s.b);
        let d = query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol()).unwrap();
        if f(d.distance) > 0.0 {
            apart += 1;
            assert!(
                (f(c.separation) - f(d.distance)).abs() <= acc,
                "seed {seed}: contact {c:?} distance {d:?}"
            );
            check(
                &format!("seed {seed}"),
                &s.pa,
                &*s.a,
                &s.pb,
                &*s.b,
                &c,
                f(d.distance),
                None,
                acc,
            );
        } else {
            assert!(f(c.separation) <= acc, "seed {seed}: distance 0 but {c:?}");
        }
    }
    assert!(apart >= 30, "only {apart} separated pairs");
}
cases!(agrees_with_distance, [2 => d2, 3 => d3]);

/// A pair translated through touching: the separation is 1-Lipschitz in the translation,
/// changes sign once, and the normal never flips (rounded pairs: it barely turns).
fn continuous_across_touching<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let acc = accuracy::<T>(1.0);
    let h = delta::<T>();
    let mut tested = 0;
    for seed in 2000..2060u64 {
        let s = pair::<T, D>(seed, 0.3);
        let sep_at = |t: f64, u: &SVector<f64, D>| run(&s.pa, &*s.a, &shifted(&s.pb, u, t), &*s.b);
        let c0 = run(&s.pa, &*s.a, &s.pb, &*s.b);
        if f(c0.separation) > -0.05 {
            continue;
        }
        let mut rng = Rng(seed);
        let u: SVector<f64, D> = rng.unit();
        // Bisect the exit time along u on the sign of the separation.
        let (mut lo, mut hi) = (0.0, 4.0);
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            if f(sep_at(mid, &u).separation) < 0.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let t0 = 0.5 * (lo + hi);
        let at0 = sep_at(t0, &u);
        if back(&at0.normal.into_inner()).dot(&u) < 0.3 {
            continue; // grazing: the separation barely changes along u
        }
        tested += 1;
        let rounded = f(s.a.radius()) + f(s.b.radius()) > 0.0;
        let runs: Vec<Contact<T, D>> = (-4..=4).map(|k| sep_at(t0 + k as f64 * h, &u)).collect();
        let what = format!("seed {seed} exit {t0} along {u:?}");
        for (k, w) in runs.windows(2).enumerate() {
            let (s0, s1) = (f(w[0].separation), f(w[1].separation));
            let (n0, n1) = (
                back(&w[0].normal.into_inner()),
                back(&w[1].normal.into_inner()),
            );
            assert!(
                (s1 - s0).abs() <= h + 2.0 * acc && s1 >= s0 - 2.0 * acc,
                "{what}: step {k}: separation {s0:e} -> {s1:e}"
            );
            assert!(
                n0.dot(&n1) > 0.0,
                "{what}: step {k}: normal flipped {n0:?} -> {n1:?}"
            );
            if rounded {
                assert!(
                    n0.dot(&n1) > 0.98,
                    "{what}: step {k}: normal jumped {n0:?} -> {n1:?}"
                );
            }
        }
        assert!(
            f(runs[0].separation) < 0.0 && f(runs[8].separation) > 0.0,
            "{what}: no sign change"
        );
    }
    assert!(tested >= 15, "only {tested} pairs");
}
cases!(continuous_across_touching, [2 => d2, 3 => d3]);

// ================================================================ 4. hard cases

fn axis<const D: usize>(k: usize, x: f64) -> SVector<f64, D> {
    let mut y = SVector::<f64, D>::zeros();
    y[k] = x;
    y
}

/// A pose composed of a common random pose and a local offset, as (T, f64 read-back).
fn composed<T: Real, const D: usize>(
    common: &(Pose<T, D>, Pose<f64, D>),
    t: &SVector<f64, D>,
) -> (Pose<T, D>, Pose<f64, D>) {
    let (lt, lf) = translation::<T, D>(t);
    (common.0 * lt, common.1 * lf)
}

/// Exactly touching pairs: separation 0 with the touching normal (face–face boxes,
/// vertex on a face, ball on a face).
fn touching<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(308);
    let acc = accuracy::<T>(1.0);
    for i in 0..20 {
        let ha = v::<T, D>(&rng.vector(0.2, 1.0));
        let hb = v::<T, D>(&rng.vector(0.2, 1.0));
        let mut t: SVector<f64, D> = rng.vector(-0.1, 0.1);
        t[0] = f(ha[0]) + f(hb[0]);
        let (pb, _) = translation::<T, D>(&t);
        let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
        let got = run(&Pose::identity(), &a, &pb, &b);
        check(
            &format!("touching boxes #{i}"),
            &Pose::identity(),
            &a,
            &pb,
            &b,
            &got,
            0.0,
            Some(axis(0, 1.0)),
            acc,
        );
        // A ball on the face.
        let r = round::<T>(rng.uniform(0.1, 0.5));
        let mut t: SVector<f64, D> = rng.vector(-0.1, 0.1);
        t[0] = f(ha[0]) + r;
        let (pb, _) = translation::<T, D>(&t);
        let ball = Ball::new(lit::<T>(r));
        let got = run(&Pose::identity(), &a, &pb, &ball);
        check(
            &format!("ball on box #{i}"),
            &Pose::identity(),
            &a,
            &pb,
            &ball,
            &got,
            0.0,
            Some(axis(0, 1.0)),
            acc,
        );
        // A polytope with one vertex on the face x = ha[0], the rest beyond it.
        let mut pts = rng.sphere_points::<D>(8, axis(0, 0.6), 0.3);
        pts.retain(|x| x[0] > 0.35);
        pts.push(Point::from(axis(0, 0.0) + rng.vector::<D>(-0.1, 0.1)));
        let last = pts.len() - 1;
        pts[last][0] = 0.0;
        let poly = polytope::<T, D>(&pts);
        let (pb, _) = translation::<T, D>(&axis(0, f(ha[0])));
        let got = run(&Pose::identity(), &a, &pb, &poly);
        check(
            &format!("vertex on face #{i}"),
            &Pose::identity(),
            &a,
            &pb,
            &poly,
            &got,
            0.0,
            Some(axis(0, 1.0)),
            acc,
        );
    }
}
cases!(touching, [2 => d2, 3 => d3]);

/// Face-to-face boxes under a common random rotation, depth from 1e-9 to A's whole
/// thickness (and beyond it, B's face past A's far face).
fn shallow_to_deep<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(309);
    let (ha, hb) = (
        SVector::<f64, D>::from_fn(|k, _| if k == 0 { 0.25 } else { 0.8 }),
        SVector::<f64, D>::from_fn(|k, _| if k == 0 { 0.5 } else { 1.0 }),
    );
    let (a, b) = (Cuboid::new(v::<T, D>(&ha)), Cuboid::new(v::<T, D>(&hb)));
    for &depth in &[1e-9, 1e-7, 1e-5, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7] {
        for i in 0..5 {
            let frame = random_pose::<T, D>(&mut rng, 1.0);
            let mut t: SVector<f64, D> = rng.vector(-0.2, 0.2);
            t[0] = 0.75 - depth;
            let (pa, fa) = composed(&frame, &SVector::zeros());
            let (pb, fb) = composed(&frame, &t);
            let sat = sat_depth(&box_vertices(&ha, &fa), &box_vertices(&hb, &fb), 1.0);
            let normal = fa.rotation * axis::<D>(0, 1.0);
            let got = run(&pa, &a, &pb, &b);
            let acc = acc_rot::<T>(1.0);
            assert!((sat.depth - depth).abs() < 1e-6, "SAT {sat:?} vs {depth}");
            check(
                &format!("depth {depth:e} #{i}"),
                &pa,
                &a,
                &pb,
                &b,
                &got,
                -sat.depth,
                Some(normal),
                acc,
            );
        }
    }
}
cases!(shallow_to_deep, [2 => d2, 3 => d3]);

/// Identical shapes at the same pose: the depth is the shape's minimal width.
fn identical_shapes_same_pose<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(310);
    for i in 0..10 {
        let (pose, fpose) = random_pose::<T, D>(&mut rng, 1.0);
        let acc = acc_rot::<T>(1.0);
        // Box: 2 · min half-extent, along that axis (either sign).
        let h = v::<T, D>(&rng.vector(0.1, 1.0));
        let b = Cuboid::new(h);
        let got = run(&pose, &b, &pose, &b);
        let k = h.imin();
        check(
            &format!("same box #{i}"),
            &pose,
            &b,
            &pose,
            &b,
            &got,
            -2.0 * f(h[k]),
            None,
            acc,
        );
        let n = back(&got.normal.into_inner());
        let e = fpose.rotation * axis::<D>(k, 1.0);
        let second = (0..D)
            .filter(|&j| j != k)
            .map(|j| f(h[j]))
            .fold(f64::INFINITY, f64::min);
        if second - f(h[k]) > 1e-3 {
            assert!(
                angle(&n, &e).min(angle(&n, &-e)) <= normal_tol::<T>(),
                "same box #{i}: normal {n:?} not ±{e:?}"
            );
        }
        // Polytope: its SAT width.
        let poly = polytope::<T, D>(&rng.sphere_points(6 + i, SVector::zeros(), 0.7));
        let w = world(&poly, &fpose);
        let sat = sat_depth(&w, &w, 1.0);
        let got = run(&pose, &poly, &pose, &poly);
        check(
            &format!("same polytope #{i}"),
            &pose,
            &poly,
            &pose,
            &poly,
            &got,
            -sat.depth,
            None,
            acc,
        );
        // Ball: 2r; capsule: 2r (the cores' difference is a segment through the origin).
        let r = round::<T>(rng.uniform(0.1, 1.0));
        let ball = Ball::new(lit::<T>(r));
        let got = run(&pose, &ball, &pose, &ball);
        check(
            &format!("same ball #{i}"),
            &pose,
            &ball,
            &pose,
            &ball,
            &got,
            -2.0 * r,
            None,
            acc,
        );
        let cap = Capsule::new(
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            lit::<T>(r),
        );
        let got = run(&pose, &cap, &pose, &cap);
        check(
            &format!("same capsule #{i}"),
            &pose,
            &cap,
            &pose,
            &cap,
            &got,
            -2.0 * r,
            None,
            acc,
        );
    }
}
cases!(identical_shapes_same_pose, [2 => d2, 3 => d3]);

/// A small ball (or box) deep inside a big box: the depth is the centre's distance to the
/// nearest face plus the radius, never the gap between the boundaries.
fn nested<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(311);
    let hf = SVector::<f64, D>::from_fn(|k, _| 1.0 + 0.5 * k as f64);
    let big = Cuboid::new(v::<T, D>(&hf));
    for i in 0..30 {
        let c = round_v::<T, D>(&rng.vector(-0.7, 0.7));
        let (pb, _) = translation::<T, D>(&c);
        let r = round::<T>(rng.uniform(0.05, 0.25));
        let ball = Ball::new(lit::<T>(r));
        let gaps = SVector::<f64, D>::from_fn(|k, _| hf[k] - c[k].abs());
        let k = gaps.imin();
        let second = (0..D)
            .filter(|&j| j != k)
            .map(|j| gaps[j])
            .fold(f64::INFINITY, f64::min);
        let expect = (second - gaps[k] > 1e-3).then(|| axis(k, c[k].signum()));
        let got = run(&Pose::identity(), &big, &pb, &ball);
        let what = format!("ball inside box #{i} at {c:?} r {r}");
        check(
            &what,
            &Pose::identity(),
            &big,
            &pb,
            &ball,
            &got,
            -(gaps[k] + r),
            expect,
            accuracy::<T>(1.0),
        );
        // A small rotated box inside: SAT.
        let hs = v::<T, D>(&rng.vector(0.05, 0.2));
        let (ps, fs) = random_pose::<T, D>(&mut rng, 0.6);
        let small = Cuboid::new(hs);
        let sat = sat_depth(
            &box_vertices(&hf, &Pose::identity()),
            &box_vertices(&back(&hs), &fs),
            1.0,
        );
        assert!(sat_pair(
            &format!("box inside box #{i}"),
            &Pose::identity(),
            &big,
            &ps,
            &small,
            &sat,
            acc_rot::<T>(1.0)
        ));
    }
}
cases!(nested, [2 => d2, 3 => d3]);

fn round_v<T: Real, const D: usize>(x: &SVector<f64, D>) -> SVector<f64, D> {
    x.map(round::<T>)
}

/// 3D boxes edge to edge: A's top is an edge along y, B's bottom an edge along x (each box
/// turned 45° about its edge's axis); the minimal axis is the edges' cross product (z).
fn boxes_edge_to_edge<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(312);
    let h = 0.5;
    let b = Cuboid::new(v::<T, D>(&SVector::repeat(h)));
    let rot = |axis_k: usize| {
        let q = nalgebra::Rotation3::from_axis_angle(
            &nalgebra::Unit::new_normalize(nalgebra::Vector3::from_fn(|r, _| {
                if r == axis_k { 1.0 } else { 0.0 }
            })),
            std::f64::consts::FRAC_PI_4,
        );
        nalgebra::SMatrix::<f64, D, D>::from_fn(|r, c| q.matrix()[(r, c)])
    };
    let mk = |m: nalgebra::SMatrix<f64, D, D>, t: SVector<f64, D>| {
        let mt = m.map(lit::<T>);
        let tt = v::<T, D>(&t);
        (
            Pose::<T, D>::from_parts(
                nalgebra::Translation::from(tt),
                nalgebra::Rotation::from_matrix_unchecked(mt),
            ),
            Pose::<f64, D>::from_parts(
                nalgebra::Translation::from(back(&tt)),
                nalgebra::Rotation::from_matrix_unchecked(mt.map(f::<T>)),
            ),
        )
    };
    for &depth in &[1e-6, 1e-3, 0.05, 0.2] {
        for _ in 0..4 {
            let off: SVector<f64, D> = rng.vector(-0.1, 0.1);
            let (pa, fa) = mk(rot(1), SVector::zeros());
            let mut t = off;
            t[2] = 2.0 * h * std::f64::consts::SQRT_2 - depth;
            let (pb, fb) = mk(rot(0), t);
            let sat = sat_depth(
                &box_vertices(&SVector::repeat(h), &fa),
                &box_vertices(&SVector::repeat(h), &fb),
                1.0,
            );
            assert!(
                (sat.depth - depth).abs() < 1e-5,
                "SAT {sat:?} vs closed form {depth}"
            );
            assert!(sat.unique && sat.axis[2] > 1.0 - 1e-6, "SAT {sat:?}");
            assert!(sat_pair(
                &format!("edge-edge depth {depth} off {off:?}"),
                &pa,
                &b,
                &pb,
                &b,
                &sat,
                acc_rot::<T>(1.0)
            ));
        }
    }
}
cases!(boxes_edge_to_edge, [3 => d3]);

/// Large hulls (600 vertices on a unit sphere/circle) against a ball inside them (depth =
/// the centre's distance to the nearest facet + radius) and a box (SAT over the hull's
/// facets and edges).
fn large_hulls<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(313);
    let n = 600;
    let mut pts: Vec<Point<f64, D>> = rng
        .sphere_points::<D>(n, SVector::zeros(), 1.0)
        .iter()
        .map(|x| pback(&p::<T, D>(x)))
        .collect();
    let (normals, edges) = if D == 2 {
        pts.sort_by(|x, y| x[1].atan2(x[0]).total_cmp(&y[1].atan2(y[0])));
        let ns = (0..n)
            .map(|i| {
                let e = pts[(i + 1) % n] - pts[i];
                let mut m = SVector::<f64, D>::zeros();
                m[0] = e[1];
                m[1] = -e[0];
                m.normalize()
            })
            .collect::<Vec<_>>();
        (ns, Vec::new())
    } else {
        let p3: Vec<Point<f64, 3>> = pts
            .iter()
            .map(|x| Point::<f64, 3>::new(x[0], x[1], x[2]))
            .collect();
        let tris = sphere_hull_triangles(&p3, 30);
        let (ns, es) = hull_axes(&p3, &tris);
        let lift = |x: &nalgebra::Vector3<f64>| SVector::<f64, D>::from_fn(|r, _| x[r]);
        (ns.iter().map(lift).collect(), es.iter().map(lift).collect())
    };
    let hull = polytope::<T, D>(&pts);
    let offsets: Vec<f64> = normals.iter().map(|m| vertex_support(&pts, m)).collect();
    for i in 0..6 {
        // A ball inside.
        let c = round_v::<T, D>(&rng.vector(-0.4, 0.4));
        let r = round::<T>(rng.uniform(0.05, 0.3));
        let (pb, _) = translation::<T, D>(&c);
        let (k, gap) = normals
            .iter()
            .zip(&offsets)
            .map(|(m, o)| o - m.dot(&c))
            .enumerate()
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .unwrap();
        let ball = Ball::new(lit::<T>(r));
        let got = run(&Pose::identity(), &hull, &pb, &ball);
        let second = normals
            .iter()
            .zip(&offsets)
            .filter(|(m, _)| angle(m, &normals[k]) > 1e-6)
            .map(|(m, o)| o - m.dot(&c))
            .fold(f64::INFINITY, f64::min);
        let expect = (second - gap > 1e-3).then_some(normals[k]);
        let what = format!("{n}-hull vs ball #{i} at {c:?} r {r}");
        check(
            &what,
            &Pose::identity(),
            &hull,
            &pb,
            &ball,
            &got,
            -(gap + r),
            expect,
            accuracy::<T>(1.0),
        );
        // A rotated box overlapping the boundary.
        let hb = SVector::<f64, D>::from_fn(|_, _| rng.uniform(0.1, 0.3));
        let mut frame = random_pose::<T, D>(&mut rng, 0.0);
        frame.0.translation.vector = v::<T, D>(&(rng.unit::<D>() * 0.95));
        frame.1.translation.vector = back(&frame.0.translation.vector);
        let bv = box_vertices(&round_v::<T, D>(&hb), &frame.1);
        let box_normals: Vec<SVector<f64, D>> = (0..D)
            .flat_map(|k| {
                let e = frame.1.rotation * axis::<D>(k, 1.0);
                [e, -e]
            })
            .collect();
        let box_edges: Vec<SVector<f64, D>> = (0..D)
            .map(|k| frame.1.rotation * axis::<D>(k, 1.0))
            .collect();
        let axes = sat_axes(&normals, &box_normals, &edges, &box_edges);
        let sat = sat_over(&pts, &bv, &axes, 1.0);
        let bx = Cuboid::new(v::<T, D>(&hb));
        assert!(sat_pair(
            &format!("{n}-hull vs box #{i}"),
            &Pose::identity(),
            &hull,
            &frame.0,
            &bx,
            &sat,
            acc_rot::<T>(1.0)
        ));
    }
}
cases!(large_hulls, [2 => d2, 3 => d3]);

/// Degenerate GJK simplices through the origin: segments crossing (2D: a parallelogram
/// difference; 3D: a flat one, depth 0 along their common normal), a segment through a
/// box, coplanar flat boxes in 3D (a flat difference: depth 0 along the plane's normal),
/// a flat box through a box.
fn degenerate_simplices<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(314);
    let acc = acc_rot::<T>(1.0);
    for i in 0..20 {
        let frame = random_pose::<T, D>(&mut rng, 1.0);
        let (pa, fa) = composed(&frame, &SVector::zeros());
        // Two segments crossing (at right angles for i even).
        let (la, lb) = (rng.uniform(0.3, 1.0), rng.uniform(0.3, 1.0));
        let ang: f64 = if i % 2 == 0 {
            std::f64::consts::FRAC_PI_2
        } else {
            rng.uniform(0.3, 2.8)
        };
        let mut db = axis::<D>(0, ang.cos());
        db[1] = ang.sin();
        let sa = Segment::new(
            p::<T, D>(&Point::from(axis(0, -la))),
            p::<T, D>(&Point::from(axis(0, la))),
        );
        let off = axis::<D>(0, rng.uniform(-0.2, 0.2));
        let sb = Segment::new(
            p::<T, D>(&Point::from(off - db * lb)),
            p::<T, D>(&Point::from(off + db * lb)),
        );
        let (pb, fb) = composed(&frame, &SVector::zeros());
        let wa = [Point::from(axis(0, -la)), Point::from(axis(0, la))]
            .map(|x| fa.transform_point(&pback(&p::<T, D>(&x))));
        let wb = [off - db * lb, off + db * lb]
            .map(|x| fb.transform_point(&pback(&p::<T, D>(&Point::from(x)))));
        let sat = sat_depth(&wa, &wb, 1.0);
        let got = run(&pa, &sa, &pb, &sb);
        let what = format!("crossing segments #{i} angle {ang}");
        check(
            &what,
            &pa,
            &sa,
            &pb,
            &sb,
            &got,
            -sat.depth.max(0.0),
            sat.unique.then_some(sat.axis),
            acc,
        );
        // A segment through a box.
        let bx = Cuboid::new(v::<T, D>(&rng.vector(0.2, 0.6)));
        let (pc, fc) = composed(&frame, &rng.vector(-0.1, 0.1));
        let sat = sat_depth(&wa, &box_vertices(&back(&bx.half_extents), &fc), 1.0);
        assert!(sat_pair(
            &format!("segment through box #{i}"),
            &pa,
            &sa,
            &pc,
            &bx,
            &sat,
            acc
        ));
        if D == 3 {
            // A flat box through a box, and two coplanar flat boxes.
            let mut hf: SVector<f64, D> = rng.vector(0.3, 0.8);
            hf[2] = 0.0;
            let flat = Cuboid::new(v::<T, D>(&hf));
            let fv = box_vertices(&round_v::<T, D>(&hf), &fa);
            let sat = sat_depth(&fv, &box_vertices(&back(&bx.half_extents), &fc), 1.0);
            assert!(sat_pair(
                &format!("flat box through box #{i}"),
                &pa,
                &flat,
                &pc,
                &bx,
                &sat,
                acc
            ));
            let t =
                SVector::<f64, D>::from_fn(|k, _| if k < 2 { rng.uniform(-0.2, 0.2) } else { 0.0 });
            let (pd, fd) = composed(&frame, &t);
            let sat = sat_depth(&fv, &box_vertices(&round_v::<T, D>(&hf), &fd), 1.0);
            let got = run(&pa, &flat, &pd, &flat);
            let what = format!("coplanar flat boxes #{i}");
            check(
                &what,
                &pa,
                &flat,
                &pd,
                &flat,
                &got,
                -sat.depth.max(0.0),
                None,
                acc,
            );
            let n = fa.rotation.inverse() * back(&got.normal.into_inner());
            assert!(
                n[2].abs() > 1.0 - 1e-3,
                "{what}: normal {n:?} (A's frame) not ±z"
            );
        }
    }
}
cases!(degenerate_simplices, [2 => d2, 3 => d3]);

/// Pairs 1e6 from the origin (f64): boxes and polytopes, SAT in world coordinates. The
/// input itself is rounded at 1e6's ulp (1.2e-10).
fn far_from_origin<const D: usize>()
where
    Const<D>: ContactDim<f64, D>,
{
    let mut rng = Rng(315);
    let far = SVector::<f64, D>::from_fn(|k, _| [1e6, -2e6, 1.5e6][k]);
    let acc = 1e-9 + 8.0 * f64::EPSILON * 2e6;
    for i in 0..30 {
        let frame = random_pose::<f64, D>(&mut rng, 0.0);
        let mut frame = frame;
        frame.0.translation.vector = far;
        frame.1.translation.vector = far;
        let (pa, fa) = composed(&frame, &rng.vector(-0.3, 0.3));
        let (pb, fb) = composed(&frame, &rng.vector(-0.3, 0.3));
        let (ha, hb) = (rng.vector::<D>(0.2, 0.8), rng.vector::<D>(0.2, 0.8));
        let sat = sat_depth(&box_vertices(&ha, &fa), &box_vertices(&hb, &fb), 1.0);
        sat_pair(
            &format!("far boxes #{i}"),
            &pa,
            &Cuboid::new(ha),
            &pb,
            &Cuboid::new(hb),
            &sat,
            acc,
        );
        let a = polytope::<f64, D>(&rng.sphere_points(8, SVector::zeros(), 0.6));
        let b = polytope::<f64, D>(&rng.sphere_points(8, SVector::zeros(), 0.6));
        let sat = sat_depth(&world(&a, &fa), &world(&b, &fb), 1.0);
        sat_pair(&format!("far polytopes #{i}"), &pa, &a, &pb, &b, &sat, acc);
    }
}

#[test]
fn far_from_origin_2d() {
    far_from_origin::<2>();
}

#[test]
fn far_from_origin_3d() {
    far_from_origin::<3>();
}

/// Every overlap GJK reports gets a negative separation with a finite unit normal: a long
/// sweep of random mixed pairs (run with `--ignored`).
#[test]
#[ignore = "long sweep; known limitation: 10 of 30000 fail (9 FixedI40F24, f32 2D seed 396): rounded pairs whose cores are apart, GJK stops on RepeatedSupport and its normal is off by ~1e-3 rad, so the overlap along it exceeds the (correct) depth by up to 2e-3"]
fn sweep_random_pairs() {
    fn go<T: Real, const D: usize>(failures: &mut Vec<String>)
    where
        Const<D>: ContactDim<T, D>,
    {
        for seed in 0..5000u64 {
            let r = std::panic::catch_unwind(|| {
                let s = pair::<T, D>(seed, 0.5);
                let c = run(&s.pa, &*s.a, &s.pb, &*s.b);
                let sep = f(c.separation);
                check(
                    "sweep",
                    &s.pa,
                    &*s.a,
                    &s.pb,
                    &*s.b,
                    &c,
                    sep,
                    None,
                    accuracy::<T>(1.0),
                );
                if query::distance(&s.pa, &*s.a, &s.pb, &*s.b, &tol())
                    .unwrap()
                    .distance
                    == T::zero()
                {
                    assert!(sep <= accuracy::<T>(1.0));
                }
            });
            if r.is_err() {
                failures.push(format!("{} D={D} seed {seed}", std::any::type_name::<T>()));
            }
        }
    }
    let mut failures = Vec::new();
    go::<f32, 2>(&mut failures);
    go::<f32, 3>(&mut failures);
    go::<f64, 2>(&mut failures);
    go::<f64, 3>(&mut failures);
    #[cfg(feature = "fixed")]
    {
        go::<Fx, 2>(&mut failures);
        go::<Fx, 3>(&mut failures);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// ================================================================ known bugs (ignored)

/// `Termination::Touching` answers carry the witnesses of one support point of `A − B`
/// (`epa::touching` takes `p.a`, `p.b` with `p.w ≠ 0`), not a common point: for boxes
/// touching face to face `point_b − point_a` is (0, 0.3), where it must be
/// `separation · normal` = 0. Seen in 2D and 3D, f32/f64/fixed, for touching boxes, crossing
/// capsules (3D), identical capsules, coplanar flat boxes.
#[test]
fn touching_witnesses_coincide() {
    fn go<T: Real, const D: usize>()
    where
        Const<D>: ContactDim<T, D>,
    {
        let b = Cuboid::new(SVector::<T, D>::repeat(lit(0.5)));
        let mut t = SVector::<f64, D>::zeros();
        t[0] = 1.0;
        t[1] = 0.3;
        let (pb, _) = translation::<T, D>(&t);
        let c = run(&Pose::identity(), &b, &pb, &b);
        let gap = back(&(c.point_b - c.point_a)) - back(&c.normal.into_inner()) * f(c.separation);
        assert!(gap.norm() <= 2.0 * accuracy::<T>(1.0), "{c:?}: gap {gap:?}");
        // 3D capsules crossing at right angles, cores touching: the witnesses must be 0.5
        // apart along ±z.
        if D == 3 {
            let e = |k: usize, x: f64| p::<T, D>(&Point::from(axis::<D>(k, x)));
            let ca = Capsule::new(e(0, -1.0), e(0, 1.0), lit(0.25));
            let cb = Capsule::new(e(1, -1.0), e(1, 1.0), lit(0.25));
            let c = run(&Pose::identity(), &ca, &Pose::identity(), &cb);
            let gap =
                back(&(c.point_b - c.point_a)) - back(&c.normal.into_inner()) * f(c.separation);
            assert!(gap.norm() <= 2.0 * accuracy::<T>(1.0), "{c:?}: gap {gap:?}");
        }
    }
    go::<f64, 2>();
    go::<f64, 3>();
    go::<f32, 2>();
    go::<f32, 3>();
}

#[cfg(feature = "fixed")]
/// Rebuilds the inputs of `identical_shapes_same_pose` #`i` (seed 310): the pose, then a
/// box, a polytope, a radius and a capsule, in that order.
fn same_pose_inputs<T: Real, const D: usize>(
    i: usize,
) -> (Pose<T, D>, Pose<f64, D>, Polytope<T, D>, Capsule<T, D>) {
    let mut rng = Rng(310);
    for k in 0..=i {
        let (pose, fpose) = random_pose::<T, D>(&mut rng, 1.0);
        let _box: SVector<f64, D> = rng.vector(0.1, 1.0);
        let poly = polytope::<T, D>(&rng.sphere_points(6 + k, SVector::zeros(), 0.7));
        let r = round::<T>(rng.uniform(0.1, 1.0));
        let cap = Capsule::new(
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            p::<T, D>(&Point::from(rng.vector(-0.5, 0.5))),
            lit::<T>(r),
        );
        if k == i {
            return (pose, fpose, poly, cap);
        }
    }
    unreachable!()
}

/// FixedI40F24, 2D: a 7-vertex polytope against itself at the same pose (rotation
/// [[0.9999511, -0.0098859], [-0.0098859, -0.9999511]], translation (0.8169058, 0.4122888)).
/// The relative pose rounds to a rotation 6e-8 off the identity; GJK's first support point
/// is exactly the origin (a 1-point simplex, `Touching` after 1 iteration) and EPA returns
/// depth 0 (`Touching`, 0 iterations). Expected: the polytope's width, 0.92306.
#[cfg(feature = "fixed")]
#[test]
fn identical_polytopes_fixed_point_same_pose() {
    let (pose, fpose, poly, _) = same_pose_inputs::<Fx, 2>(1);
    let w = world(&poly, &fpose);
    let sat = sat_depth(&w, &w, 1.0);
    let c = run(&pose, &poly, &pose, &poly);
    check(
        "same polytope",
        &pose,
        &poly,
        &pose,
        &poly,
        &c,
        -sat.depth,
        None,
        acc_rot::<Fx>(1.0),
    );
}

/// FixedI40F24, 3D: a capsule (segment (0.3004, -0.4921, 0.0196)–(0.0225, -0.1709, 0.3229),
/// radius 0.81434) against itself at the same rotated pose. The relative pose is 2e-7 off
/// the identity, so the cores' GJK ends `RepeatedSupport` at distance 2e-7 (not "cores
/// meet") and `contact` takes the apart branch with the rounding noise as the normal:
/// separation −2r is right but the normal lies 30° from the capsule's axis, and B's witness
/// is 0.32 inside B along −normal (moving B by 2r along it does not separate them).
/// Expected: a normal perpendicular to the axis.
#[cfg(feature = "fixed")]
#[test]
fn identical_capsules_fixed_point_same_pose() {
    let (pose, _, _, cap) = same_pose_inputs::<Fx, 3>(0);
    let c = run(&pose, &cap, &pose, &cap);
    let r = f(cap.radius);
    check(
        "same capsule",
        &pose,
        &cap,
        &pose,
        &cap,
        &c,
        -2.0 * r,
        None,
        acc_rot::<Fx>(1.0),
    );
}

/// f32, 3D: two polytopes (seed 2031 of `continuous_across_touching`) overlapping by about
/// 9.6e-4 read as touching: separation −0, `Touching`, normal (0.456, −0.864, 0.213), while
/// the translations 1e-3 either side along the same line give −1.93e-3 and −5e-8 with
/// normal (−0.752, −0.379, 0.540). Expected: separation ≈ −9.6e-4 (within 2e-4).
#[test]
fn shallow_f32_penetration_is_not_touching() {
    let s = pair::<f32, 3>(2031, 0.3);
    let u = SVector::<f64, 3>::new(-0.551998519332017, -0.46891437280920095, 0.6895048554058298);
    let t0 = 0.5346690247557131;
    let before = run(&s.pa, &*s.a, &shifted(&s.pb, &u, t0 - 2e-3), &*s.b);
    let after = run(&s.pa, &*s.a, &shifted(&s.pb, &u, t0), &*s.b);
    let mid = run(&s.pa, &*s.a, &shifted(&s.pb, &u, t0 - 1e-3), &*s.b);
    let expect = 0.5 * (f(before.separation) + f(after.separation));
    assert!(
        (f(mid.separation) - expect).abs() <= 2e-4,
        "separation {:e}, expected about {expect:e}: {mid:?} (neighbours {before:?} {after:?})",
        f(mid.separation)
    );
}

/// Unit cubes (half-extent 0.5) touching face to face, B at (1, 0.3, 0): the origin is
/// inside the face x = 0 of `A − B`, so the only valid normal is +x. 3D `contact` (f64 and
/// f32; 2D is right) returns
/// separation 0 (`Touching`) with normal (0.816, 0.408, 0.408), along which the shapes
/// overlap by 0.69 (moving B by 0 along it does not make them touch).
#[test]
fn touching_cubes_normal() {
    fn go<T: Real, const D: usize>()
    where
        Const<D>: ContactDim<T, D>,
    {
        let b = Cuboid::new(SVector::<T, D>::repeat(lit(0.5)));
        let mut t = SVector::<f64, D>::zeros();
        t[0] = 1.0;
        t[1] = 0.3;
        let (pb, _) = translation::<T, D>(&t);
        let c = run(&Pose::identity(), &b, &pb, &b);
        let n = back(&c.normal.into_inner());
        assert!(
            f(c.separation).abs() <= accuracy::<T>(1.0)
                && angle(&n, &axis(0, 1.0)) <= normal_tol::<T>(),
            "{} D={D}: {c:?}",
            std::any::type_name::<T>()
        );
    }
    let mut failures = Vec::new();
    for (name, g) in [
        ("f64 2D", go::<f64, 2> as fn()),
        ("f64 3D", go::<f64, 3>),
        ("f32 2D", go::<f32, 2>),
        ("f32 3D", go::<f32, 3>),
    ] {
        if std::panic::catch_unwind(g).is_err() {
            failures.push(name);
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// Polytopes touching exactly (a box face on a box face, a box on a rotated box's vertex,
/// a rounded box on a polytope): GJK's `‖v‖` lies within the rounding and the plane along
/// it bounds the separation below within the rounding too, so the contact is proven
/// without EPA (`Termination::Touching`, bounds around 0, witnesses on both surfaces).
/// EPA used to run on these and start from a polytope with the origin on its boundary
/// (4.4× parry's time on touching corpus pairs). Overlapping by 1e-3 they still take EPA.
fn touching_cores_are_proven_without_epa<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let tol = tol::<T>();
    let unit = Pose::<f64, D>::identity();
    let cube: Vec<Point<f64, D>> = box_vertices(&SVector::repeat(1.0), &unit);
    let a = Polytope::try_new(cube.iter().map(p::<T, D>).collect()).unwrap();
    let b = Polytope::try_new(
        box_vertices(&SVector::repeat(0.5), &unit)
            .iter()
            .map(p::<T, D>)
            .collect(),
    )
    .unwrap();
    let eps = f(T::default_epsilon()).max(1e-15);
    for (k, shift) in [(0usize, 1.5), (1, -1.5), (D - 1, 1.5)] {
        let mut at = SVector::<f64, D>::zeros();
        at[k] = shift;
        // Off-centre along another axis: the faces touch over a patch, not a point.
        at[(k + 1) % D] = 0.25;
        let (pose_b, _) = translation::<T, D>(&at);
        let pose_a = Pose::<T, D>::identity();
        let c = query::contact(&pose_a, &a, &pose_b, &b, &tol).unwrap();
        let what = format!("axis {k} shift {shift}: {c:?}");
        assert_eq!(
            c.termination,
            convex_proximity::Termination::Touching,
            "{what}"
        );
        assert!(f(c.separation).abs() <= 64.0 * eps * 2.0, "{what}");
        assert!(f(c.lower_bound) <= 0.0 && 0.0 <= f(c.upper_bound), "{what}");
        let n = back(&c.normal.into_inner());
        assert!(
            (n[k] * shift.signum() - 1.0).abs() <= 1e-3,
            "normal: {what}"
        );
        // Witnesses on both faces: A's on x_k = ±1, B's on the same plane.
        for q in [pback(&c.point_a), pback(&c.point_b)] {
            assert!(
                (q[k] - shift.signum()).abs() <= 1e3 * eps,
                "witness: {what}"
            );
        }
        // Overlapping by 1e-3: EPA's depth.
        at[k] -= 1e-3 * shift.signum();
        let (pose_b, _) = translation::<T, D>(&at);
        let c = query::contact(&pose_a, &a, &pose_b, &b, &tol).unwrap();
        assert!(
            c.termination != convex_proximity::Termination::Touching
                && (f(c.separation) + 1e-3).abs() <= 1e3 * eps,
            "overlap: {c:?}"
        );
    }
}
cases!(touching_cores_are_proven_without_epa, [2 => d2, 3 => d3]);
