//! The linear cast of two boxes by the separating-axis test over time (docs/casts.md §3),
//! 2D and 3D, floats, target distance 0.
//!
//! In A's frame A is `[−a, a]` and B is `t + τ·u + R·[−b, b]`. Along an axis `n` of the
//! complete set (the faces' normals, in 3D the edges' crosses `e_i × R_j`; Gottschalk et
//! al. 1996) the projections overlap while `|n·t + τ n·u| ≤ r(n)`, `r(n) = Σ a_k |n_k| +
//! Σ b_k |n·R_k|`: an interval of `τ` (all or none of them when `n·u = 0`). The boxes
//! overlap exactly when every axis does, so the first contact is the latest entry, if it
//! comes before the earliest exit; its axis is the normal. The witnesses at that time are
//! the box–box distance fast path's (`crate::pair`). Pairs touching or overlapping at
//! `τ = 0`, grazing within the rounding, or parallel edges the skipped crosses would
//! decide, are left to the GJK ray cast (`None`).

use super::{Cast, CastTermination, ShapeCast, ShapeHit};
use crate::{Real, Tolerances, real::norm, tolerance::Rounding};
use nalgebra::{SMatrix, SVector, Unit};

/// The cast of box `b` (placed by `rot`, `t` in A's frame, moving by `τ·u`) against box
/// `a` over `[0, max_toi]`, in A's frame; `None` where the GJK ray cast must decide.
pub(super) fn box_box<T: Real, const D: usize>(
    (a, b): (&SVector<T, D>, &SVector<T, D>),
    (rot, t, u): (&SMatrix<T, D, D>, &SVector<T, D>, &SVector<T, D>),
    max_toi: T,
    tol: &Tolerances<T>,
) -> Option<ShapeCast<T, D>> {
    if !(D == 2 || D == 3) || crate::real::is_fixed::<T>() {
        return None;
    }
    let r = Rounding::of(tol);
    let big = T::max_value()?;
    let mut iv = Intervals::<T, D> {
        enter: -big,
        exit: big,
        normal: SVector::zeros(),
        enter_slack: T::zero(),
        exit_slack: T::zero(),
        gap: -big,
        separating: false,
        band: r.band(t.amax() + a.sum() + b.sum()),
        band_u: r.band(u.amax()),
    };
    // B's support value along n: exact for any matrix (h(n) = Σ b_k |n·R_k|).
    let reach = |n: &SVector<T, D>| {
        let mut h = T::zero();
        for k in 0..D {
            h += a[k] * n[k].abs() + b[k] * n.dot(&rot.column(k)).abs();
        }
        h
    };
    for i in 0..D {
        let mut n = SVector::<T, D>::zeros();
        n[i] = T::one();
        iv.axis(&n, reach(&n), t, u)?;
    }
    // B's face normals: the cofactor columns of R (its columns for a rotation; exact
    // normals of the placed box when R is a few ulps off one, as `crate::pair`'s boxes).
    for j in 0..D {
        let mut n = SVector::<T, D>::zeros();
        if D == 2 {
            (n[0], n[1]) = (rot[(1, 1 - j)], -rot[(0, 1 - j)]);
        } else {
            let (p, q) = (rot.column((j + 1) % 3), rot.column((j + 2) % 3));
            for k in 0..3 {
                let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                n[k] = p[k1] * q[k2] - p[k2] * q[k1];
            }
        }
        iv.axis(&n, reach(&n), t, u)?;
    }
    if D == 3 {
        let eps2 = T::default_epsilon() * T::default_epsilon();
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                // e_i × R_j, exact; edges parallel to rounding are bounded by the faces'
                // normals within ε·(Σa + Σb), inside the band (as `crate::pair`'s boxes).
                let mut n = SVector::<T, D>::zeros();
                (n[i1], n[i2]) = (-rot[(i2, j)], rot[(i1, j)]);
                if n.norm_squared() > eps2 {
                    iv.axis(&n, reach(&n), t, u)?;
                }
            }
        }
    }
    iv.answer((a, b), (rot, t, u), max_toi, tol)
}

/// The intersection of the axes' overlap intervals so far.
struct Intervals<T: Real, const D: usize> {
    /// The latest entry, its unit normal (A to B) and its rounding in time.
    enter: T,
    normal: SVector<T, D>,
    enter_slack: T,
    /// The earliest exit and its rounding in time.
    exit: T,
    exit_slack: T,
    /// The largest separation at `τ = 0`.
    gap: T,
    /// An axis separates for every `τ ≥ 0`.
    separating: bool,
    /// The rounding of a projection of the boxes at `τ = 0`, and of `u`'s per unit time.
    band: T,
    band_u: T,
}

impl<T: Real, const D: usize> Intervals<T, D> {
    /// One axis `n` (any length) of reach `r`.
    fn axis(
        &mut self,
        n: &SVector<T, D>,
        r: T,
        t: &SVector<T, D>,
        u: &SVector<T, D>,
    ) -> Option<()> {
        let len = norm(n);
        let (c0, cu, slack) = (n.dot(t), n.dot(u), self.band * len);
        self.gap = self.gap.max((c0.abs() - r) / len);
        if cu == T::zero() {
            // The projections keep their distance: apart for ever, or overlapping.
            self.separating |= c0.abs() > r;
            return Some(());
        }
        let (t1, t2) = ((-r - c0) / cu, (r - c0) / cu);
        let (lo, hi) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
        // The times' rounding: the projections' over |n·u|, growing with |τ|.
        let dt = (slack + self.band_u * len * lo.abs().max(hi.abs())) / cu.abs();
        if lo > self.enter {
            let s = if c0 < T::zero() { -T::one() } else { T::one() };
            (self.enter, self.enter_slack, self.normal) = (lo, dt, n * (s / len));
        }
        if hi < self.exit {
            (self.exit, self.exit_slack) = (hi, dt);
        }
        Some(())
    }

    fn answer(
        &self,
        (a, b): (&SVector<T, D>, &SVector<T, D>),
        (rot, t, u): (&SMatrix<T, D, D>, &SVector<T, D>, &SVector<T, D>),
        max_toi: T,
        tol: &Tolerances<T>,
    ) -> Option<ShapeCast<T, D>> {
        let two = T::one() + T::one();
        if !(self.gap > self.band * two) {
            // Touching or overlapping at the start.
            return None;
        }
        let miss = |termination| Cast {
            hit: None,
            safe_toi: max_toi,
            iterations: 0,
            steps: 0,
            termination,
        };
        if self.separating {
            return Some(miss(CastTermination::Separating));
        }
        let (slack, room) = (self.enter_slack + self.exit_slack, self.exit - self.enter);
        if room.abs() <= slack * two {
            // Grazing within the rounding.
            return None;
        }
        if room < T::zero() {
            return Some(miss(CastTermination::Separating));
        }
        if self.enter > max_toi + self.enter_slack * two {
            return Some(miss(CastTermination::Horizon));
        }
        if !(self.enter <= max_toi) || !(self.enter > T::zero()) {
            return None;
        }
        let toi = self.enter;
        let at = t + u * toi;
        let ans = crate::pair::box_pair(*a, *b, *rot, at, tol)?;
        let lower = (toi - self.enter_slack).max(T::zero());
        let upper = toi + self.enter_slack;
        let hit = ShapeHit {
            toi,
            lower_bound: lower,
            upper_bound: (upper <= self.exit - self.exit_slack).then_some(upper),
            distance: T::zero(),
            normal: Some(Unit::new_unchecked(self.normal)),
            point_a: ans.a,
            point_b: ans.b,
            termination: CastTermination::Converged,
        };
        Some(Cast {
            hit: Some(hit),
            safe_toi: lower,
            iterations: 0,
            steps: 0,
            termination: CastTermination::Converged,
        })
    }
}
