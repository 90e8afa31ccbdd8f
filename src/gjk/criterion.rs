//! GJK's selectable stopping criteria ([`Criterion`]; docs/gjk.md §6).
//!
//! Each criterion is a threshold `τ` on a gap `q` (a length): the gap of the bounds
//! `‖v‖ − μ` (`μ` the best plane bound so far) for the gap criteria, `‖v‖ − v̂·w` for the
//! duality gaps (`w = s(−v)`, so `g = v·(v − w) = ‖v‖ · q`). The rounding band stays the
//! floor under each: the loop stops on `‖v‖ − μ ≤ band` whatever is selected.

use crate::{Criterion, Real, Tolerances, real::normalize};
use nalgebra::SVector;

/// The largest gap `q` the criterion accepts at upper bound `upper` (docs/gjk.md §6).
/// The absolute duality gap `g ≤ ε_abs²` is `q ≤ ε_abs · (ε_abs/‖v‖)`; above `‖v‖` it is
/// taken as `q ≤ ε_abs` (`g ≤ ‖v‖·ε_abs < ε_abs²`: stricter, never a square to overflow).
#[inline]
pub(crate) fn threshold<T: Real>(tol: &Tolerances<T>, upper: T) -> T {
    match tol.gjk_criterion {
        Criterion::AbsoluteGap => tol.gjk_abs,
        Criterion::AbsoluteDualityGap if tol.gjk_abs <= upper => {
            tol.gjk_abs * (tol.gjk_abs / upper)
        }
        Criterion::AbsoluteDualityGap => tol.gjk_abs,
        _ => tol.gjk_rel * upper,
    }
}

/// Whether the selected criterion is met (the band floor is the caller's): `lower` is the
/// best plane bound `μ`, `along_v` this iteration's plane value `v̂·w` when its support
/// point was queried along `v` itself (`None` under momentum: no duality gap then). In an
/// intersection test (`intersect`) the relative criteria do not stop the run, which goes
/// on to a proof of its verdict.
#[inline]
pub(crate) fn met<T: Real>(
    tol: &Tolerances<T>,
    intersect: bool,
    upper: T,
    lower: T,
    along_v: Option<T>,
) -> bool {
    let tau = threshold(tol, upper);
    match tol.gjk_criterion {
        Criterion::AbsoluteGap => upper - lower <= tau,
        Criterion::AbsoluteDualityGap => along_v.is_some_and(|p| upper - p <= tau),
        Criterion::DualityGap => !intersect && along_v.is_some_and(|p| upper - p <= tau),
        _ => !intersect && upper - lower <= tau,
    }
}

/// The plane value `d̂·w` of a support point `w = s(−d)`, unclamped (a duality gap needs
/// its sign): `norm_d = ‖d‖` for floats; fixed-point normalises `d` first, as
/// `run::plane_bound` does. `None` for a zero `d`.
#[inline]
pub(crate) fn plane_value<T: Real, const D: usize>(
    d: &SVector<T, D>,
    norm_d: T,
    w: &SVector<T, D>,
) -> Option<T> {
    if crate::real::is_fixed::<T>() || norm_d <= T::zero() {
        return normalize(d).map(|u| u.dot(w));
    }
    Some(d.dot(w) / norm_d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tol(criterion: Criterion) -> Tolerances<f64> {
        Tolerances {
            gjk_criterion: criterion,
            gjk_rel: 1e-3,
            gjk_abs: 1e-2,
            ..Tolerances::default()
        }
    }

    /// Case table: (criterion, intersect, upper, lower, along_v, met).
    #[test]
    fn criteria_table() {
        let cases = [
            (Criterion::RelativeGap, false, 1.0, 0.9995, None, true),
            (Criterion::RelativeGap, false, 1.0, 0.998, None, false),
            (Criterion::RelativeGap, true, 1.0, 0.9999, None, false),
            (Criterion::AbsoluteGap, false, 10.0, 9.995, None, true),
            (Criterion::AbsoluteGap, true, 10.0, 9.995, None, true),
            (Criterion::AbsoluteGap, false, 10.0, 9.98, None, false),
            // The duality gap reads only the current support's plane, not μ.
            (Criterion::DualityGap, false, 1.0, 1.0, None, false),
            (Criterion::DualityGap, false, 1.0, 0.0, Some(0.9995), true),
            (Criterion::DualityGap, false, 1.0, 1.0, Some(0.998), false),
            (Criterion::DualityGap, true, 1.0, 0.0, Some(0.9999), false),
            // g = ‖v‖·q ≤ ε_abs² = 1e-4: at ‖v‖ = 1, q ≤ 1e-4.
            (
                Criterion::AbsoluteDualityGap,
                false,
                1.0,
                0.0,
                Some(1.0 - 0.9e-4),
                true,
            ),
            (
                Criterion::AbsoluteDualityGap,
                false,
                1.0,
                0.0,
                Some(1.0 - 1.1e-4),
                false,
            ),
            (
                Criterion::AbsoluteDualityGap,
                true,
                1.0,
                0.0,
                Some(1.0 - 0.9e-4),
                true,
            ),
            // Above ‖v‖ the stricter q ≤ ε_abs: 1e-3·1e-2 = 1e-5 ≤ 1e-4.
            (
                Criterion::AbsoluteDualityGap,
                false,
                1e-3,
                0.0,
                Some(0.0),
                true,
            ),
            (
                Criterion::AbsoluteDualityGap,
                false,
                1e-3,
                0.0,
                Some(-0.005),
                true,
            ),
            (
                Criterion::AbsoluteDualityGap,
                false,
                1e-3,
                0.0,
                Some(-0.011),
                false,
            ),
        ];
        for (c, intersect, upper, lower, along, want) in cases {
            assert_eq!(
                met(&tol(c), intersect, upper, lower, along),
                want,
                "{c:?} intersect {intersect} upper {upper} lower {lower} along {along:?}"
            );
        }
    }

    /// The absolute duality gap's threshold never admits `g > ε_abs²`.
    #[test]
    fn absolute_duality_threshold_is_sound() {
        let t = tol(Criterion::AbsoluteDualityGap);
        for upper in [1e-6, 1e-3, 5e-3, 1e-2, 2e-2, 1.0, 1e3] {
            let q = threshold(&t, upper);
            assert!(
                upper * q <= t.gjk_abs * t.gjk_abs * (1.0 + 1e-12),
                "{upper}"
            );
        }
    }

    #[test]
    fn plane_value_keeps_the_sign() {
        let d = SVector::<f64, 2>::new(3.0, 4.0);
        let w = SVector::<f64, 2>::new(-1.0, 0.0);
        assert_eq!(plane_value(&d, 5.0, &w), Some(-0.6));
        assert_eq!(plane_value(&SVector::<f64, 2>::zeros(), 0.0, &w), None);
    }
}
