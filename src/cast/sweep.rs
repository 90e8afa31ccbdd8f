//! The GJK ray cast (van den Bergen 2004, "Ray casting against general convex objects with
//! application to continuous collision detection", Algorithm 1; docs/casts.md §1), written
//! as GJK on A against B translated by `λ·u`.
//!
//! The ray `λ·u` enters the configuration-space obstacle `A − B` exactly when B moved by
//! `λ·u` touches A. Each iteration takes the support point `w` of `A − B(λ)` along `−v`;
//! when `v·w > m‖v‖` the plane `{x : v·x = v·w}` separates the origin from `A − B(λ)`
//! grown by the margin `m` (the radii plus the target distance), and the cast advances to
//! the `λ` where that plane, moving with B, reaches distance `m` from the origin:
//!
//! ```text
//! λ ← λ + (v·w − m‖v‖) / (v·u)            (v·u ≤ 0: the plane never gets closer: a miss)
//! ```
//!
//! Every `λ` skipped is proven free (the plane separates), so each `λ` is a lower bound of
//! the time of impact. The simplex moves with B (its vertices shift by `−Δλ·u`) and GJK
//! goes on; the cast hits when `‖v‖ ≤ m + band`, GJK's touching band.

use super::CastTermination;
use crate::{
    QueryError, Real, Subalgorithm, Tolerances,
    dim::Dim,
    gjk::{Johnson, Simplex, SupportPoint, check_range, support_limit, uses_johnson},
    real::{amax_from, norm, normalize},
    shape::SupportMap,
    tolerance::Rounding,
};
use nalgebra::{Const, Point, SVector, Unit};

/// What to sweep: B moves by `λ·u` for `λ ∈ [start, end]`; the hit is where the cores come
/// within `margin`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sweep<T: Real, const D: usize> {
    pub(crate) u: SVector<T, D>,
    pub(crate) margin: T,
    pub(crate) start: T,
    pub(crate) end: T,
    /// Whether the answer needs the witnesses ([`Reached::a`], [`Reached::b`]); a ray cast
    /// does not, and its solves then skip them.
    pub(crate) witnesses: bool,
}

/// Where the cores came within the margin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reached<T: Real, const D: usize> {
    pub(crate) lambda: T,
    /// The closest point of the cores' `A − B(λ)` to the origin, and its witnesses (B's at
    /// λ; the origin unless [`Sweep::witnesses`]).
    pub(crate) v: SVector<T, D>,
    pub(crate) a: Point<T, D>,
    pub(crate) b: Point<T, D>,
    /// `‖v‖`, an upper bound of the core distance at `λ`.
    pub(crate) upper: T,
    /// GJK's touching band at the end.
    pub(crate) band: T,
    /// The unit normal (A to B) of the last advance's plane.
    pub(crate) plane: Option<Unit<SVector<T, D>>>,
    /// Whether the cast moved from `start` (otherwise the cores were within the margin there).
    pub(crate) advanced: bool,
    /// Reached by a fixed-point stall near the margin: `v`'s direction is the rounding's.
    pub(crate) stalled: bool,
}

impl<T: Real, const D: usize> Reached<T, D> {
    /// The normal from A to B: `−v/‖v‖` when the cores are apart beyond the band (exact for
    /// the closest points), else the last advance's plane.
    pub(crate) fn normal(&self) -> Option<Unit<SVector<T, D>>> {
        if self.upper > self.band && !(self.stalled && self.plane.is_some()) {
            normalize(&-self.v).or(self.plane)
        } else {
            self.plane
        }
    }

    /// A later `λ` by which the cores are proven within the margin: the first root of
    /// `‖v − δu‖ = m` (the point `v − δu` lies in `A − B(λ + δ)`), when it has one.
    pub(crate) fn proven_by(&self, u: &SVector<T, D>, margin: T) -> Option<T> {
        if self.upper <= margin {
            return Some(self.lambda);
        }
        // Fixed point: the products below leave the type's range beyond the shapes' range
        // (`input::fixed_extent_limit`); the bound is optional, so none is claimed there.
        // (`|u|∞`, `v·u` and `‖u‖·(‖v‖ + m)` at most `√max / 16`: their squares stay in range.)
        if crate::real::is_fixed::<T>() {
            let limit = crate::input::fixed_extent_limit::<T>();
            let (fu, fv) = (crate::shape::extent_of(u), crate::shape::extent_of(&self.v));
            let fm = crate::shape::f64_of(self.upper + margin);
            let d = D as f64;
            let um = fu * fm;
            if !(fu <= limit && d * fu * fv <= limit && d * um * um <= limit * limit) {
                return None;
            }
        }
        let (uu, vu) = (u.norm_squared(), self.v.dot(u));
        if !(uu > T::zero()) || !(vu > T::zero()) {
            return None;
        }
        let c = (self.upper - margin) * (self.upper + margin);
        let disc = vu * vu - uu * c;
        if disc < T::zero() {
            return None;
        }
        // Smaller root of uu·δ² − 2 vu·δ + (‖v‖² − m²) = 0, without cancellation.
        let q = vu + crate::real::sqrt0(disc);
        (q > T::zero()).then(|| self.lambda + c / q)
    }
}

/// How a sweep ended.
#[derive(Clone, Copy, Debug)]
pub(crate) enum End<T: Real, const D: usize> {
    Reached(Reached<T, D>),
    /// Proven: the cores stay farther than the margin on `[start, end]`; `separating` when
    /// a plane moves away for ever (not only until `end`).
    Miss {
        separating: bool,
    },
    /// Gave up; proven free on `[start, lambda)`.
    Stalled {
        lambda: T,
        termination: CastTermination,
    },
}

/// The sweep's answer and its support evaluations and advances.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Swept<T: Real, const D: usize> {
    pub(crate) end: End<T, D>,
    pub(crate) iterations: u32,
    pub(crate) steps: u32,
}

/// The GJK ray cast of B's cores moving by `λ·u` against A's (module doc). `simplex` is
/// scratch (left holding the final simplex).
///
/// Algorithm:
/// 1. Start at `λ = start` from the centres' difference.
/// 2. Support point `w` along `−v`; separating plane at offset `m` → advance `λ` (or miss),
///    shift the simplex with B.
/// 3. Add `w`, solve for the new `v` (Johnson's subalgorithm, `gjk::Simplex`).
/// 4. Hit when `‖v‖ ≤ m + band` or the simplex contains the origin.
#[inline(always)]
pub(crate) fn sweep<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    s: &Sweep<T, D>,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
) -> Result<Swept<T, D>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    // The ray's point moves the simplex far from the origin, keeping it small.
    let limit = sweep_limit::<T, D>(tol);
    let (mut lambda, mut shift) = (s.start, s.u * s.start);
    let (ca, cb) = (a.center(), b.center());
    let first = SupportPoint::new(ca, cb + shift);
    check_range(&first, limit)?;
    simplex.clear();
    let mut v = first.w;
    let (mut wa, mut wb) = (first.a, first.b);
    let mut upper = norm(&v);
    // The pair's size (as in GJK's loop): support offsets from the centres, coordinates of
    // the CSO; fixed-point adds 64 ulps absolute, the projection's resolution. `seen`
    // grows from it by plain comparisons (`real::amax_from`; nalgebra's `amax` and `max`
    // are NaN-aware, about 40 instructions more an iteration): every point it sees has
    // passed `check_range`.
    // (`b0`: B's support point before the sweep's shift.)
    let extent = |seen: T, p: &SupportPoint<T, D>, b0: &Point<T, D>| {
        let m = amax_from(seen, &p.w);
        let m = amax_from(m, &(p.a - ca));
        amax_from(m, &(b0 - cb))
    };
    let r = Rounding::of(tol);
    let mut johnson = sweep_uses_johnson::<T, D>(tol).then(Johnson::new);
    let mut seen = extent(T::zero(), &first, &cb);
    let mut band = r.band(seen);

    let (mut plane, mut advanced, mut from_simplex, mut steps) = (None, false, false, 0u32);
    if upper <= s.margin + band {
        let end = End::Reached(Reached {
            lambda,
            v,
            a: first.a,
            b: first.b,
            upper,
            band,
            plane: None,
            advanced: false,
            stalled: false,
        });
        return Ok(Swept {
            end,
            iterations: 0,
            steps,
        });
    }
    let mut restarted = false;
    let far_band = crate::real::lit::<T>(crate::tolerance::factor::FACET_NORMAL_BANDS);
    for it in 1..=tol.gjk_max_iterations {
        // The plane test on the unit normal (`v·w` of a short `v` underflows in fixed
        // point), there with its direction taken orthogonal to the simplex's edges; the
        // support point is taken along that same direction, so `n·w` bounds `A − B`.
        // Floats far from the margin skip it: there `v`'s rounding (ε·size) tilts it by
        // about 2⁻¹⁹ at most (the band is 8ε·size); in exact arithmetic the two agree.
        let facet = crate::real::is_fixed::<T>() || upper <= s.margin + band * far_band;
        let along = if facet { facet_normal(simplex, &v) } else { v };
        let unit = normalize(&along).map(Unit::into_inner);
        let (n, dir) = unit.map_or((SVector::zeros(), v), |n| (n, n));
        let b0 = b.core_support(&dir);
        let mut sp = SupportPoint::new(a.core_support(&-dir), b0 + shift);
        check_range(&sp, limit)?;
        seen = extent(seen, &sp, &b0);
        band = r.band(seen);
        let nw = n.dot(&sp.w);
        // Every vertex `y` of the simplex has `n·y ≥ ‖v‖` (`v` is its closest point), less
        // the rounding: a `w` below that is none of them, and needs no search (floats, away
        // from the margin, where `n` is `v`'s own direction).
        let fresh = !facet && unit.is_some() && nw + band < upper;
        let gap = nw - s.margin;
        if gap > T::zero() {
            // Separating plane at offset m: advance to where B's motion brings it to m.
            let nu = n.dot(&s.u);
            let room = s.end - lambda;
            if !(nu > T::zero()) || gap > nu * room {
                let end = End::Miss {
                    separating: !(nu > T::zero()),
                };
                return Ok(Swept {
                    end,
                    iterations: it,
                    steps,
                });
            }
            // Never past the end: rounding of `gap / nu` and of a far start's `λ` (a
            // backward sweep from −10³⁰ stepped to +7·10¹³ past its end 0) would report a
            // time outside the sweep. At `end` the next plane either misses or reaches.
            // A plain comparison (`min` is NaN-aware: a few instructions more an advance);
            // B's shift keeps the step (the two differ by the rounding alone).
            let step = gap / nu;
            lambda += step;
            if lambda > s.end {
                lambda = s.end;
            }
            let du = s.u * step;
            shift += du;
            match johnson.as_mut() {
                // Signed volumes keep no state beside the vertices (inline: the call cost
                // 17 instructions an advance).
                None => simplex.shift_b(&du),
                Some(j) => shift_johnson(simplex, j, &du),
            }
            sp = SupportPoint::new(sp.a, sp.b + du);
            check_range(&sp, limit)?;
            plane = Some(Unit::new_unchecked(-n));
            (advanced, from_simplex, restarted) = (true, false, false);
            steps += 1;
        }
        let stall = |termination| {
            Ok(Swept {
                end: End::Stalled {
                    lambda,
                    termination,
                },
                iterations: it,
                steps,
            })
        };
        if (fresh || !simplex.contains(&sp.w)) && simplex.push(sp, johnson.as_mut()).is_none() {
            return stall(CastTermination::Degenerate);
        }
        if johnson.as_ref().is_some_and(|j| j.overflow) {
            return Err(QueryError::OutOfRange);
        }
        let solved = simplex.solve_for(johnson.as_ref(), &r, s.witnesses);
        let nc = solved.as_ref().map_or(upper, |c| norm(&c.v));
        if let Some(c) = solved.filter(|c| c.full || nc <= s.margin + band) {
            let end = End::Reached(Reached {
                lambda,
                v: c.v,
                a: c.a,
                b: c.b,
                upper: nc,
                band,
                plane,
                advanced,
                stalled: false,
            });
            return Ok(Swept {
                end,
                iterations: it,
                steps,
            });
        }
        // At a fixed λ, ‖v‖ strictly decreases in exact arithmetic (GJK's backup test).
        // A simplex carried across advances can stall on rounding (4D in f32): restart GJK
        // once at this λ from the centres before giving up.
        let Some(c) = solved.filter(|_| !(from_simplex && nc >= upper)) else {
            // Fixed point, stalled within 16 bands of the margin: its resolution there (an
            // ulp of a short `v` tilts it: docs/casts.md §1). A hit, its distance says how far.
            if restarted
                && crate::real::is_fixed::<T>()
                && upper
                    <= s.margin
                        + band * crate::real::lit(crate::tolerance::factor::FIXED_STALL_BANDS)
            {
                let end = End::Reached(Reached {
                    lambda,
                    v,
                    a: wa,
                    b: wb,
                    upper,
                    band,
                    plane,
                    advanced,
                    stalled: true,
                });
                return Ok(Swept {
                    end,
                    iterations: it,
                    steps,
                });
            }
            if restarted {
                let end = if solved.is_some() {
                    CastTermination::NoProgress
                } else {
                    CastTermination::Degenerate
                };
                return stall(end);
            }
            simplex.clear();
            if let Some(j) = johnson.as_mut() {
                *j = Johnson::new();
            }
            let p = SupportPoint::new(ca, cb + shift);
            (v, wa, wb) = (p.w, p.a, p.b);
            (upper, from_simplex, restarted) = (norm(&v), false, true);
            continue;
        };
        (v, wa, wb, upper, from_simplex) = (c.v, c.a, c.b, nc, true);
    }
    Ok(Swept {
        end: End::Stalled {
            lambda,
            termination: CastTermination::MaxIterations,
        },
        iterations: tol.gjk_max_iterations,
        steps,
    })
}

/// Whether the sweep solves its simplices by Johnson's subalgorithm: as GJK (`D ≥ 4`, or on
/// request), and always in fixed point, where its tables test each product's range before
/// forming it, so vertices may reach the shapes' range (`√max / 16`, FixedI40F24 46341;
/// docs/tolerances.md, "Ranges"). Signed volumes need every coordinate of `A − B` within
/// `(max/64)^(1/2D)` (FixedI40F24: 304 in 2D, 45 in 3D), and a cast starts as far apart as
/// its motion is long: unit shapes 50 apart in 3D were `Err(OutOfRange)`.
#[inline]
pub(crate) fn sweep_uses_johnson<T: Real, const D: usize>(tol: &Tolerances<T>) -> bool {
    crate::real::is_fixed::<T>() || uses_johnson::<T, D>(tol)
}

/// The largest coordinate a support point of the sweep may have ([`sweep_uses_johnson`];
/// `None` for floats).
#[inline]
pub(crate) fn sweep_limit<T: Real, const D: usize>(tol: &Tolerances<T>) -> Option<T> {
    if crate::real::is_fixed::<T>() {
        let johnson = Tolerances {
            gjk_subalgorithm: Subalgorithm::Johnson,
            ..*tol
        };
        support_limit::<T, D>(&johnson)
    } else {
        support_limit::<T, D>(tol)
    }
}

/// Moves every vertex's B witness by `du` (B moved), rebuilding Johnson's determinants.
fn shift_johnson<T: Real, const D: usize>(
    simplex: &mut Simplex<T, D>,
    johnson: &mut Johnson<T, D>,
    du: &SVector<T, D>,
) where
    Const<D>: Dim,
{
    let mut pts = [SupportPoint::new(Point::origin(), Point::origin()); crate::dim::MAX_DIM + 1];
    let mut n = 0;
    for p in simplex.points() {
        pts[n] = SupportPoint::new(p.a, p.b + du);
        n += 1;
    }
    simplex.clear();
    *johnson = Johnson::new();
    for p in &pts[..n] {
        if !simplex.contains(&p.w) {
            simplex.push(*p, Some(&mut *johnson));
        }
    }
}

/// `v` without its components along the edges of the simplex (in exact arithmetic `v` is
/// orthogonal to them). Near contact `v` is short and its rounding — one ulp per component
/// in fixed point — tilts it by `ulp/‖v‖`; over a face as long as the pair that moves the
/// support point by more than `‖v‖` and no plane separates. The edges are long, so the
/// direction orthogonal to them is accurate (Gram–Schmidt on the edges).
fn facet_normal<T: Real, const D: usize>(
    simplex: &Simplex<T, D>,
    v: &SVector<T, D>,
) -> SVector<T, D>
where
    Const<D>: Dim,
{
    let mut basis = [SVector::<T, D>::zeros(); crate::dim::MAX_DIM];
    let (mut k, mut base) = (0, None);
    for p in simplex.points() {
        let Some(b) = base else {
            base = Some(p.w);
            continue;
        };
        let mut e = p.w - b;
        for q in &basis[..k] {
            e -= q * q.dot(&e);
        }
        let scale = p.w.amax().max(b.amax());
        if k < D
            && norm(&e)
                > crate::tolerance::ulps::<T>(crate::tolerance::allowance::INDEPENDENT_EDGE) * scale
            && let Some(u) = normalize(&e)
        {
            basis[k] = u.into_inner();
            k += 1;
        }
    }
    // Fixed point from `v`'s unit direction: removing the edges' components from a short
    // `v` itself leaves an absolute ulp per component on a vector of length ‖v‖ (6e-8 on
    // 2.6e-4 tilted a 2D ray's plane by 4e-4 rad: no plane separated and the cast stalled
    // 2.6e-4 short of the hull); from the unit vector, an ulp on 1. Floats round relative
    // to ‖v‖ either way.
    let mut r = if crate::real::is_fixed::<T>() {
        match normalize(v) {
            Some(u) => u.into_inner(),
            None => return *v,
        }
    } else {
        *v
    };
    for q in &basis[..k] {
        r -= q * q.dot(&r);
    }
    if normalize(&r).is_some() { r } else { *v }
}

#[cfg(all(test, feature = "fixed"))]
mod fixed_tests {
    use super::*;
    use nalgebra::Vector2;

    /// Regression (casts' fuzzing, FixedI40F24): the proven time's quadratic squared
    /// `v·u` (here 1e6, far beyond `√max`): a panic with overflow checks, a wrapped bound
    /// without. There the optional bound is not claimed; within range it still is.
    #[test]
    fn proven_by_stays_in_fixed_range() {
        type F = simba::scalar::FixedI40F24;
        let l = |x: f64| crate::real::lit::<F>(x);
        let reached = |x: f64| Reached {
            lambda: l(0.5),
            v: Vector2::new(l(x), l(0.0)),
            a: Point::origin(),
            b: Point::origin(),
            upper: l(x),
            band: l(1e-6),
            plane: None,
            advanced: true,
            stalled: false,
        };
        let far = reached(1e3).proven_by(&Vector2::new(l(1e3), l(0.0)), l(1.0));
        assert!(far.is_none(), "{far:?}");
        // ‖v − δu‖ = m at δ = (2 − 1)/1: proven by λ + 1.
        let near = reached(2.0).proven_by(&Vector2::new(l(1.0), l(0.0)), l(1.0));
        let t = crate::shape::f64_of(near.expect("in range"));
        assert!((t - 1.5).abs() < 1e-5, "{t}");
    }
}
