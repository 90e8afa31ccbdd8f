//! GJK's main loop, shared by the distance and the intersection test
//! (van den Bergen 1999 §4–5; docs/gjk.md §3).

use super::{
    Cores, Difference, Distance, Intersection, Termination,
    accel::{self, Steer},
    johnson::Johnson,
    observe,
    simplex::{Closest, Simplex, SupportPoint},
};
use crate::{
    QueryError, Real, Subalgorithm, Tolerances,
    dim::Dim,
    linalg::Witnesses,
    real::{all_finite, amax, amax_from, lit, norm, normalize},
    tolerance::Rounding,
    trace::{GjkEnd, Observer},
};
use nalgebra::{Const, Point, SVector, Unit};
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// What the loop is for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mode<T> {
    /// Run to convergence.
    Distance,
    /// Stop as soon as the core distance is proved above or below `margin`.
    Intersect { margin: T },
    /// Run to convergence unless the core distance is first proved above `margin`
    /// (`SeparatingAxis`): `query::distance_within`.
    Within { margin: T },
}

/// One GJK run on the cores' `A − B` ([`Difference`]).
pub(crate) struct Run<'r, T: Real, const D: usize, P>
where
    Const<D>: Dim,
{
    pair: P,
    tol: &'r Tolerances<T>,
    simplex: &'r mut Simplex<T, D>,
    mode: Mode<T>,
}

/// The loop's result, on the cores.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome<T: Real, const D: usize> {
    /// The closest point of the cores' `A − B` found, with its witnesses.
    pub(crate) v: SVector<T, D>,
    /// A vector along `v`, as accurate in direction as the solver could make it
    /// ([`Closest::dir`]): the search direction and the normal.
    pub(crate) dir: SVector<T, D>,
    /// `v`'s witnesses on A and on B (not computed by an intersection test once the
    /// simplex has two vertices: [`Mode::Intersect`] leaves them at the origin).
    pub(crate) a: Point<T, D>,
    pub(crate) b: Point<T, D>,
    /// `‖v‖`, the upper bound of the core distance.
    pub(crate) upper: T,
    /// The best separating-plane bound.
    pub(crate) lower: T,
    pub(crate) iterations: u32,
    pub(crate) termination: Termination,
    /// The rounding of the run's arithmetic ([`Rounding::band`] of `coords`): a distance
    /// below it reads as touching, a lower bound must exceed it to prove separation.
    pub(crate) band: T,
    /// The largest coordinate of any support point (on A or on B) seen: the magnitude of
    /// the numbers the run computed with.
    pub(crate) coords: T,
}

/// Where a run starts: a point of `A − B` and where it came from.
struct Start<T: Real, const D: usize> {
    point: SupportPoint<T, D>,
    /// A vector along `point.w` ([`Closest::dir`]).
    dir: SVector<T, D>,
    from: StartFrom,
    /// The largest coordinate of the shapes' centres.
    centres: T,
}

/// The source of a run's starting point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StartFrom {
    /// The centres' difference: no simplex yet.
    Centres,
    /// A warm simplex's closest point, or the vertex that starts a run from coincident
    /// centres, the simplex's first (so `‖v‖` must decrease from it).
    Simplex,
    /// A warm simplex containing the origin: the run is settled.
    Contained,
}

impl<T: Real, const D: usize> Outcome<T, D> {
    /// Whether the run proved the cores apart by more than `margin`: a separating-plane
    /// bound beyond the rounding.
    pub(crate) fn proves_apart(&self, margin: T) -> bool {
        self.lower > margin + self.band
    }
}

/// The largest coordinate a support point may have (fixed-point; `None` for floats):
/// Johnson's tables test their own range (each product before it is formed), so a small
/// simplex may lie far from the origin ([`vertex_limit`]); signed volumes need every
/// coordinate of `A − B` within [`coordinate_limit`].
pub(crate) fn support_limit<T: Real, const D: usize>(tol: &Tolerances<T>) -> Option<T> {
    if uses_johnson::<T, D>(tol) {
        vertex_limit::<T>()
    } else {
        coordinate_limit::<T, D>()
    }
}

/// Whether the run uses Johnson's subalgorithm: always for `D ≥ 4`, on request below.
pub(crate) fn uses_johnson<T: Real, const D: usize>(tol: &Tolerances<T>) -> bool {
    D > 3 || tol.gjk_subalgorithm == Subalgorithm::Johnson
}

impl<'r, T: Real, const D: usize, A: ?Sized, B: ?Sized> Run<'r, T, D, Cores<'r, A, B>>
where
    Const<D>: Dim,
{
    /// A run on the cores of `a` and `b`.
    pub(crate) fn new(
        a: &'r A,
        b: &'r B,
        tol: &'r Tolerances<T>,
        simplex: &'r mut Simplex<T, D>,
        mode: Mode<T>,
    ) -> Self {
        Self {
            pair: Cores { a, b },
            tol,
            simplex,
            mode,
        }
    }
}

impl<'r, T: Real, const D: usize, P: Difference<T, D>> Run<'r, T, D, P>
where
    Const<D>: Dim,
{
    /// A run on `pair`.
    pub(crate) fn on(
        pair: P,
        tol: &'r Tolerances<T>,
        simplex: &'r mut Simplex<T, D>,
        mode: Mode<T>,
    ) -> Self {
        Self {
            pair,
            tol,
            simplex,
            mode,
        }
    }

    /// The starting point: the warm simplex's closest point, else the centres' difference
    /// (a point of `A − B`, so `‖v‖` is an upper bound from the start). Inlined into
    /// both loops of [`Run::steered`]: out of line it cost ~10 instructions a query.
    #[inline(always)]
    fn start(
        &mut self,
        limit: Option<T>,
        mut johnson: Option<&mut Johnson<T, D>>,
        r: &Rounding<T>,
    ) -> Result<Start<T, D>, QueryError> {
        let c = self.pair.centres();
        let centres = c.a.coords.amax().max(c.b.coords.amax());
        if !self.simplex.is_empty() {
            self.simplex.rederive(&self.pair);
            let mut pts =
                [SupportPoint::new(Point::origin(), Point::origin()); crate::dim::MAX_DIM + 1];
            let mut n = 0;
            for p in self.simplex.points() {
                pts[n] = *p;
                n += 1;
            }
            // A warm start out of range (the pair moved far) is dropped, not an error.
            let seeded = pts[..n]
                .iter()
                .all(|p| check_range(p, limit).is_ok())
                .then(|| self.simplex.reseed(&pts[..n], johnson.as_deref_mut(), r))
                .flatten();
            let overflow = johnson
                .as_deref_mut()
                .filter(|j| crate::real::is_fixed::<T>() && j.overflow);
            if let Some(j) = overflow {
                // Johnson's own range test (fixed point): dropped too.
                *j = Johnson::new();
            } else if let Some(c) = seeded {
                return Ok(Start {
                    point: SupportPoint {
                        w: c.v,
                        a: c.a,
                        b: c.b,
                    },
                    dir: c.dir,
                    from: if c.full {
                        StartFrom::Contained
                    } else {
                        StartFrom::Simplex
                    },
                    centres,
                });
            }
        }
        self.simplex.clear();
        check_range(&c, limit)?;
        if norm(&c.w) <= r.band(centres) {
            // Coincident centres (up to rounding): the origin is in A − B, but stopping
            // here would leave no simplex for EPA. Start from a vertex instead, the
            // simplex's first (as GJK's first support point): GJK then encloses the
            // origin, one support evaluation sooner than from the vertex alone.
            let mut e = SVector::<T, D>::zeros();
            e[0] = T::one();
            let p = self.pair.support(&-e);
            check_range(&p, limit)?;
            if self.simplex.push_along(p, e, johnson).is_some() {
                return Ok(Start {
                    point: p,
                    dir: p.w,
                    from: StartFrom::Simplex,
                    centres,
                });
            }
        }
        Ok(Start {
            point: c,
            dir: c.w,
            from: StartFrom::Centres,
            centres,
        })
    }

    /// Runs GJK towards the point of the cores' `A − B` closest to the origin, stopping
    /// early where the mode allows (docs/gjk.md §3). Algorithm, from the start point `v`
    /// (a warm simplex's closest point, or the centres' difference; a warm simplex around
    /// the origin ends the run at once):
    /// 1. `w = s(−v)`, checked; the rounding band grows with the coordinates seen.
    /// 2. The lower bound `μ = max(μ, v·w/‖v‖)`; in an intersection or margin test, `μ`
    ///    beyond the margin and the rounding proves the shapes apart (`SeparatingAxis`).
    /// 3. Bounds within the rounding (or, for distances, the relative gap): `Converged`.
    /// 4. `w` already a vertex: `RepeatedSupport` (`v` is then optimal up to rounding).
    /// 5. Add `w`, solve the simplex. The origin inside: `Contained`; `‖v‖` within the
    ///    rounding: `Touching`; `‖v‖` not decreasing: `NoProgress` (keep the previous).
    ///
    /// Another criterion or momentum ([`Tolerances::gjk_criterion`],
    /// [`Tolerances::gjk_acceleration`]) runs the same loop compiled with `TUNED`: the
    /// direction, the bound and the stop of steps 1–4 then come from [`Steer`]
    /// (docs/gjk.md §6–7); plain GJK is compiled without them. Every step reports to `obs`
    /// ([`crate::trace`]; nothing for `()`).
    #[inline(always)]
    pub(super) fn steered<O: Observer<T, D>>(
        self,
        obs: &mut O,
    ) -> Result<Outcome<T, D>, QueryError> {
        let tol = self.tol;
        let witnesses = !matches!(self.mode, Mode::Intersect { .. });
        // Both loops inlined into the query (3D f64 corpus distance instructions −3.1 %,
        // 2D −4.6 %), but in the plane the selected variants' loop stays out of line:
        // inlined beside the plain one, it made the 2D distance 6 % slower at fewer
        // instructions (docs/PERFORMANCE.md §2.11).
        let mut out = if accel::is_plain(self.tol) {
            self.iterate::<false, O>(obs)?
        } else if D == 2 {
            self.iterate_tuned(obs)?
        } else {
            self.iterate::<true, O>(obs)?
        };
        if witnesses {
            out.keep_upper_on_witnesses(tol);
        }
        Ok(out)
    }

    /// [`Run::iterate`] compiled with `TUNED`, out of line: the variants a study selects
    /// need not grow every query that inlines the plain loop.
    #[inline(never)]
    fn iterate_tuned<O: Observer<T, D>>(self, obs: &mut O) -> Result<Outcome<T, D>, QueryError> {
        self.iterate::<true, O>(obs)
    }

    /// [`Run::steered`]'s loop, plain GJK or (`TUNED`) the selected variant: the steps of
    /// its outline, from [`Run::start`]. Beyond them: a vertex the simplex cannot take or a
    /// failed solve is `Degenerate`, Johnson's overflow `OutOfRange`, a solve nearer than
    /// the lower bound by more than the band `NoProgress`; a stall first bounds along the
    /// new simplex's direction ([`Run::bound_along`]); `TUNED`, a momentum step that proves
    /// nothing is undone and the run goes on plain (docs/gjk.md §7); in an intersection
    /// test `‖v‖` within the margin is `Touching`; the iteration cap `MaxIterations`.
    #[inline(always)]
    fn iterate<const TUNED: bool, O: Observer<T, D>>(
        mut self,
        obs: &mut O,
    ) -> Result<Outcome<T, D>, QueryError> {
        let tol = *self.tol;
        let r = Rounding::of(&tol);
        let mut johnson = uses_johnson::<T, D>(&tol).then(Johnson::new);
        let limit = support_limit::<T, D>(&tol);
        let start = self.start(limit, johnson.as_mut(), &r)?;
        let p = start.point;
        let mut from_simplex = start.from != StartFrom::Centres;
        // The magnitudes computed with: the start's points and the shapes' centres (B's
        // centre in A's frame carries the placement's translation).
        let coords = amax(&p.a.coords).max(amax(&p.b.coords)).max(start.centres);
        let mut out = Outcome {
            v: p.w,
            dir: start.dir,
            a: p.a,
            b: p.b,
            upper: norm(&p.w),
            lower: T::zero(),
            iterations: 0,
            termination: Termination::Contained,
            band: r.band(coords),
            coords,
        };
        if start.from == StartFrom::Contained || out.upper == T::zero() {
            // The origin is a point of A − B (or inside the warm simplex).
            return Ok(out);
        }
        let (intersect, beyond) = match self.mode {
            Mode::Intersect { margin } => (Some(margin), Some(margin)),
            Mode::Within { margin } => (None, Some(margin)),
            Mode::Distance => (None, None),
        };
        // An intersection test never reads the witnesses.
        let witnesses = intersect.is_none();
        let mut steer = Steer::new(&tol, intersect.is_some(), &out.v);
        for it in 1..=tol.gjk_max_iterations {
            out.iterations = it;
            let v = if TUNED {
                steer.direction(it, &out)
            } else {
                out.dir
            };
            // Staged in its slot and read there (`Simplex::stage`). The simplex is never full
            // here: a solve that fills it ends the run.
            let Some(slot) = self.simplex.stage(self.pair.support(&-v)) else {
                out.termination = Termination::Degenerate;
                return Ok(out);
            };
            let sp = self.simplex.staged(slot);
            check_range(sp, limit)?;
            // Plain comparisons (`real::amax`): `check_range` passed the point.
            out.coords = amax_from(amax_from(out.coords, &sp.a.coords), &sp.b.coords);
            out.band = r.band(out.coords);
            let probe = TUNED.then(|| steer.probe(&v, &out, &sp.w));
            let bound = probe.map_or_else(|| plane_bound(&v, out.upper, &sp.w), |p| p.lower);
            out.lower = out.lower.max(bound);
            observe::support(obs, it, &v, sp, &out);
            if let Some(margin) = beyond
                && out.proves_apart(margin)
            {
                out.termination = Termination::SeparatingAxis;
                return Ok(out);
            }
            // The bounds met: within the rounding, or (distances) the relative gap. Not
            // before the simplex has a vertex: a start point within the rounding of the
            // origin is a touching or overlapping pair, which needs a simplex (EPA).
            let gap = out.upper - out.lower;
            let criterion = |out: &Outcome<T, D>| match &probe {
                Some(p) => steer.converged(out, p),
                None => intersect.is_none() && gap <= tol.gjk_rel * out.upper,
            };
            if !self.simplex.is_empty() && (gap <= out.band || criterion(&out)) {
                out.termination = Termination::Converged;
                return Ok(out);
            }
            // Momentum whose support point promises no progress, or repeats a vertex,
            // proves nothing: plain GJK from here (docs/gjk.md §7).
            if TUNED
                && (probe.is_some_and(|p| p.stalls) || self.simplex.contains(&sp.w))
                && steer.switch_off()
            {
                continue;
            }
            if self.simplex.contains(&sp.w) {
                out.termination = Termination::RepeatedSupport;
                return Ok(out);
            }
            // A momentum vertex can leave `‖v‖` where it was (the backup below), which
            // proves nothing about `v`: the run then goes back to the simplex before it,
            // without momentum (docs/gjk.md §7).
            // (An `if`, not `then_some`: the plain loop must not copy the simplex.)
            let before = if TUNED && steer.stepped() {
                Some((*self.simplex, johnson))
            } else {
                None
            };
            self.simplex.push_staged(slot, v, johnson.as_mut());
            if johnson.as_ref().is_some_and(|j| j.overflow) {
                return Err(QueryError::OutOfRange);
            }
            // Read in place (a reference into the returned `Option`): unwrapped by value,
            // the whole answer was copied once more on every solve.
            let solved = self.simplex.solve_for(johnson.as_ref(), &r, witnesses);
            let Some(c) = solved.as_ref() else {
                out.termination = Termination::Degenerate;
                return Ok(out);
            };
            let nc = norm(&c.v);
            observe::solved(obs, self.simplex, c, nc);
            // Every point of `A − B` is at least the proven lower bound from the origin: a
            // solve nearer than it by more than the rounding lost its digits (the plane of a
            // needle triangle, tilted by its normal's rounding, put `p₀` 2.5e-8 below the
            // bound; docs/gjk.md §2.6). Keep the estimate before it.
            if nc + out.band < out.lower {
                out.termination = Termination::NoProgress;
                return Ok(out);
            }
            if c.full || nc <= out.band {
                set(&mut out, c, nc);
                if !c.full && witnesses {
                    self.meet_witnesses(&r, &mut out);
                }
                out.termination = if c.full {
                    Termination::Contained
                } else {
                    Termination::Touching
                };
                return Ok(out);
            }
            // Backup (van den Bergen 1999 §4.2): in exact arithmetic ‖v‖ strictly decreases.
            if from_simplex && nc >= out.upper {
                if let Some((simplex, j)) = before
                    && steer.switch_off()
                {
                    (*self.simplex, johnson) = (simplex, j);
                    continue;
                }
                // The stalled estimate keeps its upper bound, but the new simplex's
                // direction (a face normal, reorthogonalised) can be the better one: one
                // support along it may prove the lower bound the old direction could not
                // (an f32 edge direction 6e-3 off left 0 for a 1e-5 gap).
                self.bound_along(&c.dir, &r, &mut out)?;
                out.termination = if intersect.is_some_and(|m| out.proves_apart(m)) {
                    Termination::SeparatingAxis
                } else {
                    Termination::NoProgress
                };
                return Ok(out);
            }
            set(&mut out, c, nc);
            from_simplex = true;
            if let Some(margin) = intersect
                && nc <= margin
            {
                // A point of the cores' A − B within the radii: the round parts overlap.
                out.termination = Termination::Touching;
                return Ok(out);
            }
        }
        out.termination = Termination::MaxIterations;
        Ok(out)
    }

    /// Touching cores' witnesses must meet (`a − b = v`, within the rounding of `Σ λᵢ yᵢ`);
    /// the area weights of a sliver triangle need not (f32: 2.4e-4 apart at `‖v‖` within the
    /// band, docs/testing.md F14). Then the backward-stable projections of the exhaustive
    /// search give the weights, if their witnesses are nearer.
    #[inline(never)]
    fn meet_witnesses(&self, r: &Rounding<T>, out: &mut Outcome<T, D>) {
        let apart = norm(&(out.a - out.b));
        if apart <= r.residual(out.coords, D) {
            return;
        }
        if let Some(c) = self.simplex.closest(r)
            && norm(&(c.a - c.b)) < apart
        {
            (out.a, out.b) = (c.a, c.b);
        }
    }

    /// The plane bound along `dir` ([`plane_min`], clamped at 0) into `out.lower`, the
    /// support point's coordinates counted in the rounding band.
    fn bound_along(
        &self,
        dir: &SVector<T, D>,
        r: &Rounding<T>,
        out: &mut Outcome<T, D>,
    ) -> Result<(), QueryError> {
        if let Some(p) = plane_min(&self.pair, dir, support_limit::<T, D>(self.tol))? {
            out.coords = out.coords.max(p.coords);
            out.band = r.band(out.coords);
            out.lower = out.lower.max(p.lower);
        }
        Ok(())
    }
}

/// [`plane_min`]'s bound and the magnitude it was computed at.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlaneBound<T> {
    /// `d̂·w`: every signed distance of the cores is at least it.
    pub lower: T,
    /// The largest coordinate of the two support points (for the rounding band).
    pub coords: T,
}

/// The plane bound of `A − B` along `dir`, unclamped: `d̂·w` for `w = s_A(−d̂) − s_B(d̂)`
/// (van den Bergen 1999 §4.1: every signed distance is at least it), with the largest
/// coordinate of the support points. `None` for a zero `dir`.
///
/// # Errors
/// As a GJK step: a non-finite support point, or (fixed-point) one beyond `limit` (the
/// run's [`support_limit`]; [`coordinate_limit`] for EPA's callers).
pub(crate) fn plane_min<T: Real, const D: usize, P: Difference<T, D>>(
    pair: &P,
    dir: &SVector<T, D>,
    limit: Option<T>,
) -> Result<Option<PlaneBound<T>>, QueryError>
where
    Const<D>: Dim,
{
    let Some(u) = normalize(dir) else {
        return Ok(None);
    };
    let u = u.into_inner();
    let sp = pair.support(&-u);
    check_range(&sp, limit)?;
    let coords = amax(&sp.a.coords).max(amax(&sp.b.coords));
    Ok(Some(PlaneBound {
        lower: u.dot(&sp.w),
        coords,
    }))
}

/// The separating-plane lower bound `v·w / ‖v‖` (van den Bergen 1999 §4.1: `A − B` lies in
/// `{x : v·x ≥ v·w}`), 0 when negative. Fixed-point takes `v̂·w` with `v̂ = v/‖v‖` scaled
/// first ([`normalize`]): `v·w` of a short `v` is a few ulps (a 3.3e-4 gap read as 0).
#[inline]
fn plane_bound<T: Real, const D: usize>(v: &SVector<T, D>, norm_v: T, w: &SVector<T, D>) -> T {
    if crate::real::is_fixed::<T>() {
        return normalize(v).map_or(T::zero(), |u| u.dot(w).max(T::zero()));
    }
    let vw = v.dot(w);
    if vw > T::zero() {
        vw / norm_v
    } else {
        T::zero()
    }
}

/// The run's estimate becomes the simplex's closest point `c` (of norm `nc`).
fn set<T: Real, const D: usize>(out: &mut Outcome<T, D>, c: &Closest<T, D>, nc: T) {
    (out.v, out.dir, out.a, out.b, out.upper) = (c.v, c.dir, c.a, c.b, nc);
}

/// A support point must be finite and within `limit` (fixed-point; see
/// [`coordinate_limit`]); floats detect overflow as a non-finite result instead: a NaN
/// coordinate is a broken support map, an infinite one an overflow (a large affine map).
#[inline]
pub(crate) fn check_range<T: Real, const D: usize>(
    p: &SupportPoint<T, D>,
    limit: Option<T>,
) -> Result<(), QueryError> {
    // Floats: a NaN or ∞ in `a` or `b` reaches `w = a − b` (∞ − ∞ is NaN), and an
    // overflowing ‖w‖² is out of range too: one test on the common path, inlined; the
    // rest (fixed point, and floats that fail it) out of line.
    if limit.is_none() && crate::real::finite(p.w.norm_squared()) {
        return Ok(());
    }
    check_range_whole(p, limit)
}

/// [`check_range`] past its float fast path.
#[inline(never)]
fn check_range_whole<T: Real, const D: usize>(
    p: &SupportPoint<T, D>,
    limit: Option<T>,
) -> Result<(), QueryError> {
    if !all_finite(&p.a.coords) || !all_finite(&p.b.coords) {
        let nan = |x: &T| x.partial_cmp(x).is_none();
        if p.a.coords.iter().any(nan) || p.b.coords.iter().any(nan) {
            return Err(QueryError::NonFiniteSupport);
        }
        return Err(QueryError::OutOfRange);
    }
    let too_big = match limit {
        Some(l) => p.w.amax() > l,
        None => !crate::real::finite(p.w.norm_squared()),
    };
    if too_big {
        Err(QueryError::OutOfRange)
    } else {
        Ok(())
    }
}

/// The largest coordinate of `A − B` where Johnson's tables are not used (signed volumes,
/// `D ≤ 3`; EPA), sized after determinants of degree `2D` in a fixed-point `T`:
/// `(max / DETERMINANT_SUMS)^(1/2D)` (`tolerance::range`). FixedI40F24: 2D 304, 3D 45, 4D 17, 6D 6.7. `None` for floating
/// point, which scales its determinants and reports overflow as ∞ instead of wrapping.
pub(crate) fn coordinate_limit<T: Real, const D: usize>() -> Option<T> {
    if !crate::real::is_fixed::<T>() {
        return None;
    }
    let max: f64 = T::max_value()
        .and_then(|m| m.to_subset())
        .unwrap_or(f64::MAX);
    let headroom = crate::tolerance::range::DETERMINANT_SUMS;
    Some(T::from_subset(&(max / headroom).powf(1.0 / (2 * D) as f64)))
}

/// The largest coordinate of a vertex when Johnson's tables test their own range
/// ([`Johnson::overflow`]): the shapes' own limit, `√max / PRODUCT_SUMS`
/// (`input::fixed_extent_limit`, FixedI40F24 46341), which keeps the cached products of
/// two coordinates in range. `None` for floating point.
pub(crate) fn vertex_limit<T: Real>() -> Option<T> {
    crate::real::is_fixed::<T>().then(|| T::from_subset(&crate::input::fixed_extent_limit::<T>()))
}

/// The distance between rounded shapes from their cores' answer (GJK's end, or a pair's
/// closed form in the same terms): the cores' distance
/// minus the radii, the witnesses pushed out by the radii along `normal` (from A to B);
/// without a normal (the cores within the radii and the band: touching or overlapping)
/// distance 0 at a [`common_point`]. The bounds are the cores', widened by the band and by
/// `widen` (rounding the answer did not see: the poses', for an answer computed in the
/// world frame): proven for the exact shapes, not only for the computed points.
#[inline]
pub(crate) fn rounded_distance<T: Real, const D: usize>(
    core: &GjkEnd<T, D>,
    normal: Option<Unit<SVector<T, D>>>,
    radius_a: T,
    radius_b: T,
    widen: T,
) -> Distance<T, D> {
    let margin = radius_a + radius_b;
    // Rounding can put the plane bound an ulp above the upper bound; the truth is between.
    let lower = core.lower.min(core.upper);
    let band = core.band + widen;
    match normal {
        Some(n) => Distance {
            distance: core.upper - margin,
            point_a: core.a + n.into_inner() * radius_a,
            point_b: core.b - n.into_inner() * radius_b,
            normal: Some(n),
            lower_bound: (lower - margin - band).max(T::zero()),
            upper_bound: core.upper - margin + band,
            iterations: core.iterations,
            termination: core.termination,
        },
        None => {
            let w = common_point(&core.a, &core.b, radius_a, margin);
            Distance {
                distance: T::zero(),
                point_a: w.a,
                point_b: w.b,
                normal: None,
                lower_bound: T::zero(),
                upper_bound: (core.upper - margin).max(T::zero()) + band,
                iterations: core.iterations,
                termination: core.termination,
            }
        }
    }
}

/// The witnesses of rounded shapes that touch or overlap, from their cores' points `a` and
/// `b`: a common point on `[a, b]` at the fraction `r_a / (r_a + r_b)`, within `r_a` of `a`
/// and `r_b` of `b` (`margin = r_a + r_b`); without radii, the cores' points themselves.
#[inline]
fn common_point<T: Real, const D: usize>(
    a: &Point<T, D>,
    b: &Point<T, D>,
    radius_a: T,
    margin: T,
) -> Witnesses<T, D> {
    if margin > T::zero() {
        let p = a + (b - a) * (radius_a / margin);
        Witnesses { a: p, b: p }
    } else {
        Witnesses { a: *a, b: *b }
    }
}

impl<T: Real, const D: usize> Outcome<T, D> {
    /// `‖v‖` is an upper bound only if `v` is a point of `A − B`; the witnesses are one by
    /// construction (`Σ λᵢ aᵢ − Σ λᵢ bᵢ`, `λ ≥ 0`), the solver's `v` (a projection on the
    /// simplex's plane) need not be (docs/gjk.md §2.6). The upper bound covers the
    /// witnesses' separation beyond half the band (within it, the band that widens the
    /// bounds covers the rounding of their sums: an ulp apart on most runs), and a run whose
    /// bounds then no longer meet the criterion did not converge. Compared squared: no root
    /// on the common path.
    fn keep_upper_on_witnesses(&mut self, tol: &Tolerances<T>) {
        if matches!(
            self.termination,
            Termination::Contained | Termination::Touching
        ) {
            return;
        }
        let ab = self.a - self.b;
        let ceiling = self.upper + self.band * lit::<T>(0.5);
        if ab.norm_squared() <= ceiling * ceiling {
            return;
        }
        self.upper = norm(&ab);
        let gap = self.upper - self.lower;
        if self.termination == Termination::Converged
            && gap > self.band
            && gap > tol.gjk_rel * self.upper
        {
            self.termination = Termination::NoProgress;
        }
    }

    /// The distance between the rounded shapes ([`rounded_distance`]); the normal from A
    /// to B is `−dir` unless the cores touch or overlap.
    pub(super) fn rounded(&self, radius_a: T, radius_b: T) -> Distance<T, D> {
        let overlap = matches!(
            self.termination,
            Termination::Contained | Termination::Touching
        ) || self.upper <= radius_a + radius_b + self.band;
        let normal = if overlap { None } else { normalize(&-self.dir) };
        rounded_distance(&self.end(), normal, radius_a, radius_b, T::zero())
    }

    /// How the run ended, as [`crate::trace`] reports it.
    #[inline]
    pub(super) fn end(&self) -> GjkEnd<T, D> {
        GjkEnd {
            v: self.v,
            a: self.a,
            b: self.b,
            lower: self.lower,
            upper: self.upper,
            band: self.band,
            iterations: self.iterations,
            termination: self.termination,
        }
    }

    /// The intersection verdict for rounded shapes with `margin = r_a + r_b`: apart only
    /// when proven (a separating plane beyond the margin and the rounding); a run that
    /// stopped without a proof either way (cap, stall) answers "intersecting", the
    /// conservative answer, and its termination says why.
    pub(super) fn intersection(self, margin: T) -> Intersection<T, D> {
        let intersects = matches!(
            self.termination,
            Termination::Contained | Termination::Touching
        ) || !self.proves_apart(margin);
        let axis = if intersects {
            None
        } else {
            normalize(&-self.dir)
        };
        Intersection {
            intersects,
            axis,
            iterations: self.iterations,
            termination: self.termination,
        }
    }
}
