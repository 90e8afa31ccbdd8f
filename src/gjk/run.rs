//! GJK's main loop, shared by the distance and the intersection test
//! (van den Bergen 1999 §4–5; docs/gjk.md §3).

use super::{
    Distance, Intersection, Termination,
    simplex::{Simplex, SupportPoint},
};
use crate::{
    QueryError, Real, Tolerances,
    dim::Dim,
    real::{all_finite, norm, normalize},
    shape::SupportMap,
};
use nalgebra::{Const, Point, SVector};

/// What the loop is for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mode<T> {
    /// Run to convergence.
    Distance,
    /// Stop as soon as the core distance is proved above or below `margin`.
    Intersect { margin: T },
}

/// One GJK run on the cores of `a` and `b`.
pub(crate) struct Run<'r, T: Real, const D: usize, A: ?Sized, B: ?Sized>
where
    Const<D>: Dim,
{
    a: &'r A,
    b: &'r B,
    tol: &'r Tolerances<T>,
    simplex: &'r mut Simplex<T, D>,
    mode: Mode<T>,
}

/// The loop's result, on the cores.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome<T: Real, const D: usize> {
    /// The closest point of the cores' `A − B` found, with its witnesses.
    pub(crate) v: SVector<T, D>,
    pub(crate) a: Point<T, D>,
    pub(crate) b: Point<T, D>,
    /// `‖v‖`, the upper bound of the core distance.
    pub(crate) upper: T,
    /// The best separating-plane bound.
    pub(crate) lower: T,
    pub(crate) iterations: u32,
    pub(crate) termination: Termination,
    /// `gjk_touching × ` the largest coordinate of any support point seen: distances
    /// below it read as touching.
    pub(crate) band: T,
    /// That largest coordinate (the pair's size).
    pub(crate) scale: T,
}

impl<T: Real, const D: usize> Outcome<T, D> {
    /// Whether the cores touch or overlap (the origin is in, or within the touching band
    /// of, their `A − B`).
    pub(crate) fn cores_meet(&self) -> bool {
        matches!(
            self.termination,
            Termination::Contained | Termination::Touching
        ) || self.upper <= self.band
    }
}

impl<'r, T: Real, const D: usize, A, B> Run<'r, T, D, A, B>
where
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    pub(crate) fn new(
        a: &'r A,
        b: &'r B,
        tol: &'r Tolerances<T>,
        simplex: &'r mut Simplex<T, D>,
        mode: Mode<T>,
    ) -> Self {
        Self {
            a,
            b,
            tol,
            simplex,
            mode,
        }
    }

    /// The starting point: the warm simplex's closest point, else the centres' difference
    /// (a point of `A − B`, so `‖v‖` is an upper bound from the start).
    fn start(&mut self, limit: Option<T>) -> Result<(SupportPoint<T, D>, bool, bool), QueryError> {
        if !self.simplex.is_empty() {
            self.simplex.rederive(self.a, self.b);
            let mut pts =
                [SupportPoint::new(Point::origin(), Point::origin()); crate::dim::MAX_DIM + 1];
            let mut n = 0;
            for p in self.simplex.points() {
                pts[n] = *p;
                n += 1;
            }
            // A warm start out of range (the pair moved far) is dropped, not an error.
            if pts[..n].iter().all(|p| check_range(p, limit).is_ok())
                && let Some(c) = self.simplex.reseed(&pts[..n], self.tol.gjk_touching)
                && !self.simplex.overflowed()
            {
                return Ok((
                    SupportPoint {
                        w: c.v,
                        a: c.a,
                        b: c.b,
                    },
                    true,
                    c.full,
                ));
            }
        }
        self.simplex.clear();
        let (ca, cb) = (self.a.center(), self.b.center());
        let mut p = SupportPoint::new(ca, cb);
        check_range(&p, limit)?;
        if p.w == SVector::<T, D>::zeros() {
            // Coincident centres: the origin is in A − B, but stopping here would leave no
            // simplex for EPA. Start from a vertex instead; GJK then encloses the origin.
            let mut e = SVector::<T, D>::zeros();
            e[0] = T::one();
            p = SupportPoint::new(self.a.core_support(&-e), self.b.core_support(&e));
            check_range(&p, limit)?;
        }
        Ok((p, false, false))
    }

    pub(crate) fn go(mut self) -> Result<Outcome<T, D>, QueryError> {
        let limit = coordinate_limit::<T, D>();
        let (p, mut from_simplex, full) = self.start(limit)?;
        let mut out = Outcome {
            v: p.w,
            a: p.a,
            b: p.b,
            upper: norm(&p.w),
            lower: T::zero(),
            iterations: 0,
            termination: Termination::Contained,
            band: T::zero(),
            scale: T::zero(),
        };
        // The pair's size: the largest offset of a support point from its shape's centre,
        // or coordinate of A − B, seen so far (never where the shapes sit in their frames,
        // which says nothing about their size; A − B alone can stay near 0 for identical
        // shapes).
        let (ca, cb) = (self.a.center(), self.b.center());
        let extent =
            |s: &SupportPoint<T, D>| s.w.amax().max((s.a - ca).amax()).max((s.b - cb).amax());
        let mut seen = extent(&p);
        // Fixed-point: 64 ulps absolute, the resolution of the projection's arithmetic
        // (a point at a small box's centre read 1.3e-6 apart).
        let floor = if crate::real::is_fixed::<T>() {
            T::default_epsilon() * crate::real::lit(64.0)
        } else {
            T::zero()
        };
        let tol = *self.tol;
        if full || out.upper == T::zero() {
            // The origin is a point of A − B (or inside the warm simplex).
            return Ok(out);
        }
        for it in 1..=tol.gjk_max_iterations {
            out.iterations = it;
            let v = out.v;
            let (pa, pb) = (self.a.core_support(&-v), self.b.core_support(&v));
            let sp = SupportPoint::new(pa, pb);
            check_range(&sp, limit)?;
            seen = seen.max(extent(&sp));
            out.band = tol.gjk_touching * seen + floor;
            out.scale = seen;
            // Separating-plane lower bound: A − B lies in {x : v·x ≥ v·w}.
            let vw = v.dot(&sp.w);
            if vw > T::zero() {
                out.lower = out.lower.max(vw / out.upper);
            }
            if let Mode::Intersect { margin } = self.mode
                && out.lower > margin + out.band
            {
                out.termination = Termination::SeparatingAxis;
                return Ok(out);
            }
            // Relative gap: ‖v‖ − μ ≤ ε_rel·‖v‖.
            if out.upper - out.lower <= tol.gjk_rel * out.upper {
                out.termination = Termination::Converged;
                return Ok(out);
            }
            if self.simplex.contains(&sp.w) {
                out.termination = Termination::RepeatedSupport;
                return Ok(out);
            }
            if !self.simplex.push(sp) {
                out.termination = Termination::Degenerate;
                return Ok(out);
            }
            self.simplex.set_dir(v);
            if self.simplex.overflowed() {
                return Err(QueryError::OutOfRange);
            }
            let Some(c) = self.simplex.solve(tol.gjk_touching) else {
                out.termination = Termination::Degenerate;
                return Ok(out);
            };
            let nc = norm(&c.v);
            if c.full || nc <= tol.gjk_touching * c.scale.max(seen) + floor {
                (out.v, out.a, out.b, out.upper) = (c.v, c.a, c.b, nc);
                out.termination = if c.full {
                    Termination::Contained
                } else {
                    Termination::Touching
                };
                return Ok(out);
            }
            // Backup (van den Bergen 1999 §4.2): in exact arithmetic ‖v‖ strictly decreases.
            if from_simplex && nc >= out.upper {
                out.termination = Termination::NoProgress;
                return Ok(out);
            }
            (out.v, out.a, out.b, out.upper) = (c.v, c.a, c.b, nc);
            from_simplex = true;
            if let Mode::Intersect { margin } = self.mode
                && nc <= margin
            {
                out.termination = Termination::Touching;
                return Ok(out);
            }
        }
        out.termination = Termination::MaxIterations;
        Ok(out)
    }
}

/// A support point must be finite and within `limit` (fixed-point; see
/// [`coordinate_limit`]); floats detect overflow as a non-finite result instead: a NaN
/// coordinate is a broken support map, an infinite one an overflow (a large affine map).
pub(crate) fn check_range<T: Real, const D: usize>(
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
        None => !p.w.norm_squared().is_finite(),
    };
    if too_big {
        Err(QueryError::OutOfRange)
    } else {
        Ok(())
    }
}

/// The largest coordinate of `A − B` for which Johnson's determinants (degree `2D`, sums
/// of a few products) stay below the largest value of a fixed-point `T`:
/// `(max / 64)^(1/2D)`. FixedI40F24: 2D 304, 3D 45, 4D 17, 6D 6.7. `None` for floating
/// point, which scales its determinants and reports overflow as ∞ instead of wrapping.
pub(crate) fn coordinate_limit<T: Real, const D: usize>() -> Option<T> {
    if !crate::real::is_fixed::<T>() {
        return None;
    }
    let max: f64 = T::max_value()
        .and_then(|m| m.to_subset())
        .unwrap_or(f64::MAX);
    Some(T::from_subset(&(max / 64.0).powf(1.0 / (2 * D) as f64)))
}

impl<T: Real, const D: usize> Outcome<T, D> {
    /// The distance between the rounded shapes: the cores' minus the radii
    /// (`margin = r_a + r_b`), witness points pushed out by the radii.
    pub(super) fn rounded(mut self, radius_a: T, margin: T) -> Distance<T, D> {
        // Rounding can put the plane bound an ulp above ‖v‖; the true value lies between.
        self.lower = self.lower.min(self.upper);
        let overlap = matches!(
            self.termination,
            Termination::Contained | Termination::Touching
        ) || self.upper <= margin + self.band;
        let normal = if overlap { None } else { normalize(&-self.v) };
        match normal {
            Some(n) => Distance {
                distance: self.upper - margin,
                point_a: self.a + n.into_inner() * radius_a,
                point_b: self.b - n.into_inner() * (margin - radius_a),
                normal: Some(n),
                lower_bound: (self.lower - margin).max(T::zero()),
                upper_bound: self.upper - margin,
                iterations: self.iterations,
                termination: self.termination,
            },
            None => {
                // A common point: on [a, b] at the fraction r_a / (r_a + r_b), within r_a
                // of a and r_b of b.
                let p = if margin > T::zero() {
                    self.a + (self.b - self.a) * (radius_a / margin)
                } else {
                    self.a
                };
                let q = if margin > T::zero() { p } else { self.b };
                Distance {
                    distance: T::zero(),
                    point_a: p,
                    point_b: q,
                    normal: None,
                    lower_bound: T::zero(),
                    upper_bound: (self.upper - margin).max(T::zero()),
                    iterations: self.iterations,
                    termination: self.termination,
                }
            }
        }
    }

    /// The intersection verdict for rounded shapes with `margin = r_a + r_b`.
    pub(super) fn intersection(self, margin: T) -> Intersection<T, D> {
        let intersects = match self.termination {
            Termination::SeparatingAxis => false,
            Termination::Contained | Termination::Touching => true,
            _ => self.upper <= margin + self.band,
        };
        let axis = if intersects {
            None
        } else {
            normalize(&-self.v)
        };
        Intersection {
            intersects,
            axis,
            iterations: self.iterations,
            termination: self.termination,
        }
    }
}
