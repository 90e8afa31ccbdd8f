//! The decisions of a GJK run that is not plain GJK: the search direction with momentum
//! ([`Acceleration`]; Montaut, Le Lidec, Petrik, Sivic, Carpentier, RSS 2022 and IEEE T-RO
//! 2024) and the selected stopping criterion ([`crate::Criterion`], `criterion.rs`);
//! docs/gjk.md §6–7.
//!
//! The certificate is GJK's: every lower bound is the plane bound `d̂·w` of a support point
//! `w = s(−d)` along the direction `d` actually queried. Momentum only changes `d`; it is
//! switched off for the rest of the run, so the run ends on plain GJK steps, as soon as
//! its direction turns 90° or more away from `v`, or its support point promises a descent
//! below [`Tolerances::gjk_momentum_accuracy`] (`κ`) of the gap it certifies (or below the criterion's
//! threshold or the rounding band): docs/gjk.md §7.

use super::{criterion, run::Outcome};
use crate::{
    Acceleration, Criterion, Real, Tolerances,
    dim::Dim,
    real::{all_finite, lit, norm, normalize},
};
use nalgebra::{Const, SVector};

/// Whether `tol` asks for plain GJK (the default criterion, no momentum): the loop is then
/// compiled without any of this module.
#[inline]
pub(crate) fn is_plain<T: Real>(tol: &Tolerances<T>) -> bool {
    tol.gjk_criterion == Criterion::RelativeGap && tol.gjk_acceleration == Acceleration::None
}

/// The state of a run's variant: the criterion's settings and the momentum's memory.
pub(crate) struct Steer<T: Real, const D: usize> {
    tol: Tolerances<T>,
    /// An intersection test (the relative criteria do not stop it).
    intersect: bool,
    /// The momentum in use: [`Acceleration::None`] from the start or once switched off.
    momentum: Acceleration,
    /// The previous search direction `d_{k−1}`.
    prev_dir: SVector<T, D>,
    /// The previous support point `w_{k−1}`.
    prev_w: SVector<T, D>,
    /// Whether this iteration's direction came from the momentum (not `v` itself).
    stepped: bool,
}

/// What one support point `w = s(−d)` tells the loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe<T> {
    /// The plane bound along `d`, clamped at 0 (van den Bergen 1999 §4.1).
    pub(crate) lower: T,
    /// `v̂·w` when `d` was `v` itself (a plain step): what the duality gap reads.
    pub(crate) along_v: Option<T>,
    /// A momentum step whose support point promises too little progress: its descent
    /// `q = ‖v‖ − v̂·w` (`v·(v − w)` over `‖v‖`) within the criterion's threshold or the
    /// band, or below `κ` ([`Tolerances::gjk_momentum_accuracy`]) of the gap `‖v‖ − d̂·w` along `d`.
    pub(crate) stalls: bool,
}

impl<T: Real, const D: usize> Steer<T, D>
where
    Const<D>: Dim,
{
    /// A run's variant from its start point `start` (the first `d_{−1}` and `w_{−1}`).
    pub(crate) fn new(tol: &Tolerances<T>, intersect: bool, start: &SVector<T, D>) -> Self {
        Self {
            tol: *tol,
            intersect,
            momentum: tol.gjk_acceleration,
            prev_dir: *start,
            prev_w: *start,
            stepped: false,
        }
    }

    /// The direction to query at iteration `it` (from 1): `v` (`out.dir`) without
    /// momentum and at `k = it − 1 = 0` (where every update is `v`: `d_{−1} = w_{−1} =
    /// v_0`); from `k = 1` the update of [`Acceleration`]'s variant. A zero or non-finite
    /// update switches the momentum off, and so does one at 90° or more from `v`: its
    /// plane bound is `d̂·w ≤ d̂·v ≤ 0` (it can prove nothing) and its support point lies
    /// on the side of `A − B` that `v` already reached. That is how the momentum stalls
    /// on overlapping shapes: the first support point crosses the origin, `v` turns
    /// round, the normalised update keeps `δ → 1` of the old direction, and the simplex
    /// creeps along the boundary nearest the origin without ever enclosing it.
    pub(crate) fn direction(&mut self, it: u32, out: &Outcome<T, D>) -> SVector<T, D> {
        self.stepped = false;
        if it <= 1 {
            return out.dir;
        }
        let k = lit::<T>(f64::from(it - 1));
        let one = T::one();
        let (d, v, w) = (self.prev_dir, out.v, self.prev_w);
        let next = match self.momentum {
            Acceleration::Nesterov => {
                // Montaut et al. 2022 Alg. 2: y_k = δ v_k + (1 − δ) w_{k−1}, δ = (k+1)/(k+3).
                let delta = (k + one) / (k + lit(3.0));
                let y = v * delta + w * (one - delta);
                Some(d * delta + y * (one - delta))
            }
            Acceleration::NesterovNormalized => {
                // The normalised update for polytopes (Montaut et al. 2024 §IV), δ = (k+2)/(k+3).
                let delta = (k + lit(2.0)) / (k + lit(3.0));
                let y = v * delta + w * (one - delta);
                normalize(&d)
                    .zip(normalize(&y))
                    .map(|(d, y)| d.into_inner() * delta + y.into_inner() * (one - delta))
            }
            Acceleration::Polyak => {
                let delta = one / (k + one);
                Some(d * delta + v * (one - delta))
            }
            _ => return out.dir,
        };
        // `n̂·v > 0`, read as a plane value (normalised first in fixed-point, where the
        // product of two short vectors rounds to 0).
        let ahead = |n: &SVector<T, D>| {
            criterion::plane_value(n, norm(n), &out.v).is_some_and(|c| c > T::zero())
        };
        match next.filter(|n| all_finite(n) && *n != SVector::<T, D>::zeros() && ahead(n)) {
            Some(n) => {
                self.prev_dir = n;
                self.stepped = true;
                n
            }
            None => {
                self.momentum = Acceleration::None;
                out.dir
            }
        }
    }

    /// The support point `w` found along `d` (this iteration's [`Steer::direction`]).
    pub(crate) fn probe(
        &mut self,
        d: &SVector<T, D>,
        out: &Outcome<T, D>,
        w: &SVector<T, D>,
    ) -> Probe<T> {
        self.prev_w = *w;
        let clamp = |p: Option<T>| p.map_or(T::zero(), |p| p.max(T::zero()));
        if !self.stepped {
            // A plain step: `d` is `out.dir`, of norm `‖v‖` for floats.
            let p = criterion::plane_value(d, out.upper, w);
            return Probe {
                lower: clamp(p),
                along_v: p,
                stalls: false,
            };
        }
        let p = criterion::plane_value(&out.dir, out.upper, w);
        let along_d = criterion::plane_value(d, norm(d), w);
        let floor = out.band.max(criterion::threshold(&self.tol, out.upper));
        let kappa = self.tol.gjk_momentum_accuracy;
        let stalls = match (p, along_d) {
            // No descent along [v, w] beyond the threshold or the rounding, or less than
            // κ of the gap the plane along `d` leaves.
            (Some(p), Some(pd)) => {
                let q = out.upper - p;
                q <= floor || q < (out.upper - pd) * kappa
            }
            _ => true,
        };
        Probe {
            lower: clamp(along_d),
            along_v: None,
            stalls,
        }
    }

    /// Whether the selected criterion stops the run ([`criterion::met`]).
    pub(crate) fn converged(&self, out: &Outcome<T, D>, probe: &Probe<T>) -> bool {
        criterion::met(
            &self.tol,
            self.intersect,
            out.upper,
            out.lower,
            probe.along_v,
        )
    }

    /// Whether this iteration's direction came from the momentum (not `v` itself).
    pub(crate) fn stepped(&self) -> bool {
        self.stepped
    }

    /// Switches the momentum off for the rest of the run; whether it was on.
    pub(crate) fn switch_off(&mut self) -> bool {
        let was_on = self.momentum != Acceleration::None;
        self.momentum = Acceleration::None;
        was_on
    }
}
