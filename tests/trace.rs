//! Traces replay their runs (src/trace.rs, docs/gjk.md §6, docs/epa.md §7): every
//! recorded support point is the support of the shapes along its direction, each direction
//! and upper bound is the previous solve's, each lower bound the running maximum of the
//! plane bounds, each simplex a subset of the previous one and the new point with `v` its
//! closest point (an f64 brute-force oracle), and the last record the returned answer,
//! exactly. A traced query returns the untraced one's answer bit for bit.
//!
//! f32, f64 and FixedI40F24; GJK in D = 2, 3, 4 (both subalgorithms where they differ),
//! EPA in D = 2, 3.

mod common;
use common::*;
use convex_proximity::{
    Dim, Real, Subalgorithm, Termination, Tolerances,
    epa::ContactDim,
    gjk::{Cache, SupportPoint},
    lit, norm, query,
    shape::{Cuboid, Polytope, SupportMap},
    trace::{Solver, Trace},
};
use nalgebra::{Const, DMatrix, DVector, Isometry, SVector};

type Pose<T, const D: usize> = Isometry<T, nalgebra::Rotation<T, D>, D>;

/// A random hull of `n` points on a sphere of radius in `[0.5, 1)` around `c`.
fn hull<T: Real, const D: usize>(rng: &mut Rng, n: usize, c: SVector<f64, D>) -> Polytope<T, D>
where
    Const<D>: Dim,
{
    let r = rng.uniform(0.5, 1.0);
    let pts = rng.sphere_points::<D>(n, c, r);
    Polytope::try_new(pts.iter().map(p::<T, D>).collect()).unwrap()
}

/// The pairs: A around the origin, B around a centre up to 2.5 away (separated, touching
/// and overlapping pairs), both at the identity pose so that A's frame is the world's and
/// the recorded support points can be re-derived exactly.
fn pairs<T: Real, const D: usize>(seed: u64, count: usize) -> Vec<(Polytope<T, D>, Polytope<T, D>)>
where
    Const<D>: Dim,
{
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let a = hull::<T, D>(&mut rng, 12, SVector::zeros());
            let c = rng.unit::<D>() * rng.uniform(0.0, 2.5);
            let b = hull::<T, D>(&mut rng, 12, c);
            (a, b)
        })
        .collect()
}

/// The closest point to the origin of the hull of `ys` (every subset's affine projection
/// with non-negative barycentric coordinates, the nearest kept).
fn hull_closest<const D: usize>(ys: &[SVector<f64, D>]) -> SVector<f64, D> {
    let n = ys.len();
    let mut best: Option<SVector<f64, D>> = None;
    for mask in 1u32..(1 << n) {
        let idx: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
        let y0 = ys[idx[0]];
        let m = idx.len() - 1;
        let x = if m == 0 {
            Some(y0)
        } else {
            let e = DMatrix::from_fn(D, m, |r, c| ys[idx[c + 1]][r] - y0[r]);
            let rhs = -(e.transpose() * DVector::from_column_slice(y0.as_slice()));
            (e.transpose() * &e).lu().solve(&rhs).and_then(|mu| {
                let l0 = 1.0 - mu.sum();
                (l0 >= -1e-12 && mu.iter().all(|&l| l >= -1e-12)).then(|| {
                    let mut x = y0;
                    for c in 0..m {
                        x += (ys[idx[c + 1]] - y0) * mu[c];
                    }
                    x
                })
            })
        };
        if let Some(x) = x
            && best.is_none_or(|b| x.norm() < b.norm())
        {
            best = Some(x);
        }
    }
    best.expect("a vertex is always a candidate")
}

/// The tolerance of the f64 re-checks of values computed in `T` at unit scale.
fn eps<T: Real>() -> f64 {
    if is_fixed::<T>() {
        2e-4
    } else {
        1e3 * f(T::default_epsilon())
    }
}

/// Checks GJK's records in `trace` against the shapes and against the run's answer
/// (`v`'s norm `end_upper`, `iterations`, `termination`); `what` names the case.
fn replay_gjk<T: Real, const D: usize>(
    what: &str,
    a: &Polytope<T, D>,
    b: &Polytope<T, D>,
    trace: &Trace<T, D>,
    iterations: u32,
    termination: Termination,
    johnson: bool,
) where
    Const<D>: Dim,
{
    let end = trace
        .gjk_end
        .unwrap_or_else(|| panic!("{what}: no end record"));
    assert_eq!(end.iterations, iterations, "{what}");
    assert_eq!(end.termination, termination, "{what}");
    assert_eq!(
        trace.gjk.len() as u32,
        iterations,
        "{what}: one record per iteration"
    );
    let e = eps::<T>();
    let mut prev_simplex: Vec<SupportPoint<T, D>> = Vec::new();
    for (k, step) in trace.gjk.iter().enumerate() {
        let s = &step.support;
        let at = format!("{what}, iteration {}", s.iteration);
        assert_eq!(s.iteration as usize, k + 1, "{at}");
        // The support point is the shapes' along the recorded direction, exactly.
        assert_eq!(s.point.a, a.core_support(&-s.dir), "{at}: a = s_A(-v)");
        assert_eq!(s.point.b, b.core_support(&s.dir), "{at}: b = s_B(v)");
        assert_eq!(s.point.w, s.point.a - s.point.b, "{at}");
        // The direction and the upper bound are the previous solve's (the start's: ‖v₀‖).
        match k.checked_sub(1).map(|j| &trace.gjk[j]) {
            None => assert_eq!(s.upper, norm(&s.dir), "{at}: upper = ‖v₀‖"),
            Some(p) => {
                let ps = p
                    .solve
                    .unwrap_or_else(|| panic!("{at}: a step after a stop"));
                assert_eq!(s.dir, ps.dir, "{at}: the direction is the last solve's");
                assert_eq!(
                    s.upper, ps.norm,
                    "{at}: the upper bound is the last solve's ‖v‖"
                );
                // From the second solve on (the first vertex can be farther than the
                // centres' difference the run started from).
                assert!(k < 2 || s.upper <= p.support.upper, "{at}: ‖v‖ increased");
                assert!(
                    s.lower >= p.support.lower,
                    "{at}: the lower bound decreased"
                );
            }
        }
        // The lower bound: the running maximum of the plane bounds v·w/‖v‖ (at 0).
        let (dir, w) = (back(&s.dir), back(&s.point.w));
        let plane = (dir.dot(&w) / dir.norm()).max(0.0);
        let before = k
            .checked_sub(1)
            .map_or(0.0, |j| f(trace.gjk[j].support.lower));
        let want = before.max(plane);
        assert!(
            (f(s.lower) - want).abs() <= e * (1.0 + w.norm()),
            "{at}: lower {} vs max(previous {before}, plane {plane}), tolerance {e}",
            f(s.lower)
        );
        let Some(solve) = step.solve else {
            assert_eq!(k + 1, trace.gjk.len(), "{at}: no solve before the end");
            continue;
        };
        // The kept vertices: the previous simplex's and the new point, no others.
        let kept: Vec<SupportPoint<T, D>> = solve.simplex.points().copied().collect();
        for y in &kept {
            assert!(
                y.w == s.point.w || prev_simplex.iter().any(|q| q.w == y.w),
                "{at}: kept vertex {:?} is neither new nor old",
                y.w
            );
        }
        assert_eq!(solve.norm, norm(&solve.v), "{at}");
        // v is the closest point of the kept simplex (f64 oracle), which lies in its hull.
        let ys: Vec<SVector<f64, D>> = kept.iter().map(|y| back(&y.w)).collect();
        let scale = ys.iter().map(|y| y.amax()).fold(1.0, f64::max);
        let v = back(&solve.v);
        let oracle = hull_closest(&ys);
        assert!(
            (v - oracle).norm() <= e * scale,
            "{at}: v {v:?} vs the simplex's closest point {oracle:?} ({:?}), tolerance {e}",
            solve.solver
        );
        let shifted: Vec<SVector<f64, D>> = ys.iter().map(|y| y - v).collect();
        assert!(
            hull_closest(&shifted).norm() <= e * scale,
            "{at}: v outside the simplex"
        );
        // The subalgorithm that decided is the one configured.
        match solve.solver {
            Solver::SignedVolumes | Solver::Vertex => assert!(!johnson, "{at}"),
            Solver::Johnson => assert!(johnson, "{at}"),
            _ => {}
        }
        if prev_simplex.is_empty() && !johnson {
            assert_eq!(solve.solver, Solver::Vertex, "{at}");
        }
        prev_simplex = kept;
    }
    // The last record and the end.
    let Some(last) = trace.gjk.last() else {
        return;
    };
    match (termination, last.solve) {
        (Termination::Contained | Termination::Touching | Termination::MaxIterations, Some(s)) => {
            assert_eq!(
                (end.v, end.upper),
                (s.v, s.norm),
                "{what}: the end is the last solve"
            );
        }
        (Termination::NoProgress, Some(s)) => {
            assert!(
                s.norm >= last.support.upper,
                "{what}: a stall that made progress"
            );
            assert_eq!(
                end.upper, last.support.upper,
                "{what}: the stall keeps the old v"
            );
            assert!(end.lower >= last.support.lower, "{what}");
        }
        (
            Termination::Converged | Termination::RepeatedSupport | Termination::SeparatingAxis,
            None,
        ) => {
            assert_eq!(
                (end.upper, end.lower),
                (last.support.upper, last.support.lower),
                "{what}: the end holds the last step's bounds"
            );
        }
        (Termination::Degenerate, _) => assert_eq!(end.upper, last.support.upper, "{what}"),
        (t, s) => panic!("{what}: termination {t:?} after solve {s:?}"),
    }
}

/// GJK distance traces replay their runs and end on the returned answer.
fn gjk_replays<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let id = Pose::<T, D>::identity();
    for sub in [Subalgorithm::Auto, Subalgorithm::Johnson] {
        let johnson = D > 3 || sub == Subalgorithm::Johnson;
        let tol = Tolerances::<T>::default()
            .with_gjk_subalgorithm(sub)
            .unwrap();
        let mut trace = Trace::new();
        for (i, (a, b)) in pairs::<T, D>(10 + D as u64, 60).iter().enumerate() {
            let what = format!("distance #{i} ({sub:?})");
            let d = query::distance_traced(&id, a, &id, b, &tol, &mut trace).unwrap();
            replay_gjk(&what, a, b, &trace, d.iterations, d.termination, johnson);
            let end = trace.gjk_end.unwrap();
            // The answer is the end record's, exactly: no radii, identity poses.
            assert_eq!(d.upper_bound, end.upper + end.band, "{what}");
            if d.normal.is_some() {
                assert_eq!(
                    (d.distance, d.point_a, d.point_b),
                    (end.upper, end.a, end.b),
                    "{what}"
                );
            } else {
                assert_eq!(d.distance, T::zero(), "{what}");
            }
            let hit = query::intersection_traced(&id, a, &id, b, &tol, &mut trace).unwrap();
            let what = format!("intersection #{i} ({sub:?})");
            replay_gjk(
                &what,
                a,
                b,
                &trace,
                hit.iterations,
                hit.termination,
                johnson,
            );
        }
    }
}

/// EPA traces replay their runs: supports, bounds, the closest feature, the polytope's
/// growth, and the end on the returned contact.
fn epa_replays<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let id = Pose::<T, D>::identity();
    let tol = Tolerances::<T>::default();
    let e = eps::<T>();
    let mut trace = Trace::new();
    let mut expanded = 0;
    for (i, (a, b)) in pairs::<T, D>(20 + D as u64, 80).iter().enumerate() {
        let what = format!("contact #{i}");
        let c = query::contact_traced(&id, a, &id, b, &tol, &mut trace).unwrap();
        let g = trace.gjk_end.unwrap();
        let Some(end) = trace.epa_end else {
            // Apart (or touching): GJK's answer.
            assert_eq!(
                (c.iterations, c.termination),
                (g.iterations, g.termination),
                "{what}"
            );
            assert!(trace.epa.is_empty() && trace.epa_start.is_none(), "{what}");
            continue;
        };
        assert_eq!(c.iterations, g.iterations + end.iterations, "{what}");
        if end.termination != Termination::Touching {
            assert_eq!(c.termination, end.termination, "{what}");
            assert_eq!(c.separation, end.separation, "{what}");
            assert_eq!(
                (c.normal, c.point_a, c.point_b),
                (end.normal, end.point_a, end.point_b),
                "{what}"
            );
        }
        let Some(start) = &trace.epa_start else {
            assert!(trace.epa.is_empty(), "{what}: steps without a polytope");
            continue;
        };
        expanded += 1;
        assert_eq!(start.vertices.len(), D + 1, "{what}: the seed is a simplex");
        let mut upper: Option<T> = None;
        for (k, s) in trace.epa.iter().enumerate() {
            let at = format!("{what}, EPA step {k}");
            assert_eq!(s.iteration, start.iterations + k as u32 + 1, "{at}");
            let n = s.normal.into_inner();
            assert_eq!(s.support.a, a.core_support(&n), "{at}: a = s_A(n)");
            assert_eq!(s.support.b, b.core_support(&-n), "{at}: b = s_B(-n)");
            let wd = s.normal.dot(&s.support.w);
            let want = upper.map_or(wd, |u| if wd < u { wd } else { u });
            assert_eq!(s.upper, want, "{at}: upper = the smallest support value");
            upper = Some(s.upper);
            assert_eq!(s.lower, s.distance.max(T::zero()), "{at}");
            // Both are rounded: the plane offset can exceed the support value by its error.
            let scale = back(&s.support.w).amax().max(1.0);
            assert!(
                f(s.lower) <= f(s.upper) + e * scale,
                "{at}: lower {:?} above upper {:?}",
                s.lower,
                s.upper
            );
            // The feature lies in its plane.
            for &j in &s.feature {
                let y = back(&s.vertices[j].w);
                let off = back(&n).dot(&y);
                assert!(
                    (off - f(s.distance)).abs() <= e * 4.0,
                    "{at}: vertex {j} off its plane by {off}"
                );
            }
            if D == 2 {
                // The edge expanded is the polygon's closest to the origin.
                assert_eq!(s.faces, s.vertices.len(), "{at}");
                let m = s.vertices.len();
                for j in 0..m {
                    let (p, q) = (back(&s.vertices[j].w), back(&s.vertices[(j + 1) % m].w));
                    let t = q - p;
                    let nn = SVector::<f64, D>::from_fn(|r, _| if r == 0 { t[1] } else { -t[0] });
                    if nn.norm() > 0.0 {
                        let off = nn.dot(&p) / nn.norm();
                        assert!(
                            off >= f(s.distance) - e * 4.0,
                            "{at}: edge {j} nearer ({off})"
                        );
                    }
                }
            }
            if let Some(next) = trace.epa.get(k + 1) {
                // The polytope grew by the support point.
                assert!(
                    next.vertices.iter().any(|y| y.w == s.support.w),
                    "{at}: support not added"
                );
                if D == 3 {
                    assert_eq!(next.vertices.len(), s.vertices.len() + 1, "{at}");
                } else {
                    assert!(next.vertices.len() <= s.vertices.len() + 1, "{at}");
                }
            }
        }
        if let Some(last) = trace.epa.last()
            && matches!(
                end.termination,
                Termination::Converged | Termination::RepeatedSupport
            )
        {
            assert_eq!(
                -end.separation, last.lower,
                "{what}: ends on the last feature"
            );
            // (3D renormalises the face's normal: equal up to its rounding.)
            let dn = (back(&end.normal.into_inner()) - back(&last.normal.into_inner())).norm();
            assert!(
                dn <= e,
                "{what}: normal {:?} vs the last feature's {:?}",
                end.normal,
                last.normal
            );
            assert_eq!(
                -end.lower_bound,
                if last.upper > last.lower {
                    last.upper
                } else {
                    last.lower
                },
                "{what}"
            );
        }
    }
    assert!(expanded > 10, "only {expanded} pairs ran EPA's expansion");
}

/// Debug strings tell `-0.0` from `0.0`: equal strings are the same bits.
fn same<X: std::fmt::Debug>(x: &X, y: &X) -> bool {
    format!("{x:?}") == format!("{y:?}")
}

/// Traced and untraced queries return the same bits, at random poses.
fn traced_is_untraced<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(30 + D as u64);
    let tol = Tolerances::<T>::default();
    let mut trace = Trace::new();
    for (i, (a, b)) in pairs::<T, D>(40 + D as u64, 40).iter().enumerate() {
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        let plain = query::distance(&pa, a, &pb, b, &tol).unwrap();
        let traced = query::distance_traced(&pa, a, &pb, b, &tol, &mut trace).unwrap();
        assert!(same(&plain, &traced), "#{i}: {plain:?} vs {traced:?}");
        let plain = query::intersection(&pa, a, &pb, b, &tol).unwrap();
        let traced = query::intersection_traced(&pa, a, &pb, b, &tol, &mut trace).unwrap();
        assert!(same(&plain, &traced), "#{i}: {plain:?} vs {traced:?}");
        // Boxes have a closed form: the traced query runs GJK, as a cold cache does.
        let ha = Cuboid::new(SVector::<T, D>::from_fn(|k, _| lit(0.3 + 0.1 * k as f64)));
        let hb = Cuboid::new(SVector::<T, D>::from_fn(|k, _| lit(0.5 - 0.1 * k as f64)));
        let cold = query::distance_with_cache(&pa, &ha, &pb, &hb, &tol, &mut Cache::new()).unwrap();
        let traced = query::distance_traced(&pa, &ha, &pb, &hb, &tol, &mut trace).unwrap();
        assert!(same(&cold, &traced), "#{i} boxes: {cold:?} vs {traced:?}");
        // `()` is an observer too.
        let unit = query::distance_traced(&pa, a, &pb, b, &tol, &mut ()).unwrap();
        assert!(
            same(&query::distance(&pa, a, &pb, b, &tol).unwrap(), &unit),
            "#{i}"
        );
    }
}

/// The same for the signed distance (2D, 3D).
fn traced_contact_is_untraced<T: Real, const D: usize>()
where
    Const<D>: ContactDim<T, D>,
{
    let mut rng = Rng(50 + D as u64);
    let tol = Tolerances::<T>::default();
    let mut trace = Trace::new();
    for (i, (a, b)) in pairs::<T, D>(60 + D as u64, 60).iter().enumerate() {
        let (pa, _) = random_pose::<T, D>(&mut rng, 1.0);
        let (pb, _) = random_pose::<T, D>(&mut rng, 1.0);
        let plain = query::contact(&pa, a, &pb, b, &tol).unwrap();
        let traced = query::contact_traced(&pa, a, &pb, b, &tol, &mut trace).unwrap();
        assert!(same(&plain, &traced), "#{i}: {plain:?} vs {traced:?}");
        let ha = Cuboid::new(SVector::<T, D>::from_fn(|k, _| lit(0.6 + 0.1 * k as f64)));
        let cold = query::contact_with_cache(&pa, &ha, &pb, &ha, &tol, &mut Cache::new()).unwrap();
        let traced = query::contact_traced(&pa, &ha, &pb, &ha, &tol, &mut trace).unwrap();
        assert!(same(&cold, &traced), "#{i} boxes: {cold:?} vs {traced:?}");
    }
}

/// The trace records the iterations in the frame GJK runs in (A's): a rotated A gives the
/// same records as the same pair expressed in A's frame.
fn trace_is_in_a_frame<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let tol = Tolerances::<T>::default();
    let (a, b) = pairs::<T, D>(70 + D as u64, 1).remove(0);
    let id = Pose::<T, D>::identity();
    let shift: SVector<f64, D> = SVector::from_fn(|k, _| 0.5 + k as f64);
    let (moved, _) = translation::<T, D>(&shift);
    let (mut here, mut there) = (Trace::new(), Trace::new());
    query::distance_traced(&id, &a, &id, &b, &tol, &mut here).unwrap();
    query::distance_traced(&moved, &a, &moved, &b, &tol, &mut there).unwrap();
    assert_eq!(here.gjk.len(), there.gjk.len());
    for (x, y) in here.gjk.iter().zip(&there.gjk) {
        assert_eq!(
            x.support.point, y.support.point,
            "A's frame: the same support points"
        );
    }
}

cases!(gjk_replays, [2 => d2, 3 => d3, 4 => d4]);
cases!(epa_replays, [2 => d2, 3 => d3]);
cases!(traced_is_untraced, [2 => d2, 3 => d3, 4 => d4]);
cases!(traced_contact_is_untraced, [2 => d2, 3 => d3]);
cases!(trace_is_in_a_frame, [2 => d2, 3 => d3]);
