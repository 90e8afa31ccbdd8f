//! Small dense linear algebra shared by GJK, EPA and the manifolds: a pivoted solve that
//! is safe in every scalar (no division that could overflow a fixed-point type), and the
//! fallback direction.

use crate::Real;
use nalgebra::{Point, SMatrix, SVector, Unit};
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// A pair of points, one of shape A and one of shape B (the witnesses of a distance or a
/// contact, in one frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Witnesses<T: Real, const D: usize> {
    pub a: Point<T, D>,
    pub b: Point<T, D>,
}

/// A unit direction to fall back on when the geometry gives none: the first axis.
pub(crate) fn any_axis<T: Real, const D: usize>() -> Unit<SVector<T, D>> {
    let mut e = SVector::<T, D>::zeros();
    e[0] = T::one();
    Unit::new_unchecked(e)
}

/// [`solve_pivoted`]'s answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Solution<T: Real, const D: usize> {
    /// The solution of `m·x = rhs`.
    pub x: SVector<T, D>,
    /// `|det m|`: the product of the pivots.
    pub abs_det: T,
}

/// Solves `m·x = rhs` by Gaussian elimination with partial pivoting, returning `x` and
/// `|det m|` (the product of the pivots, [`Solution`]); `None` if a pivot is zero or a coordinate would
/// leave `[-2, 2]` (then it is no barycentric coordinate of an inside point, and dividing
/// could overflow a fixed-point type).
///
/// Backward stable: the residual `m·x − rhs` stays near `ε·‖m‖·‖x‖` however thin the
/// simplex whose edges are the columns (docs/gjk.md §2.4).
pub(crate) fn solve_pivoted<T: Real, const D: usize>(
    mut m: SMatrix<T, D, D>,
    mut rhs: SVector<T, D>,
) -> Option<Solution<T, D>> {
    let mut det = T::one();
    for col in 0..D {
        let mut piv = col;
        for r in col + 1..D {
            if m[(r, col)].abs() > m[(piv, col)].abs() {
                piv = r;
            }
        }
        if m[(piv, col)] == T::zero() {
            return None;
        }
        det *= m[(piv, col)].abs();
        m.swap_rows(col, piv);
        rhs.swap_rows(col, piv);
        for r in col + 1..D {
            // |f| ≤ 1 by the choice of pivot.
            let f = m[(r, col)] / m[(col, col)];
            for c in col..D {
                let x = m[(col, c)];
                m[(r, c)] -= f * x;
            }
            let x = rhs[col];
            rhs[r] -= f * x;
        }
    }
    let two = T::one() + T::one();
    let mut x = SVector::<T, D>::zeros();
    for r in (0..D).rev() {
        let mut num = rhs[r];
        for c in r + 1..D {
            num -= m[(r, c)] * x[c];
        }
        let den = m[(r, r)];
        if den == T::zero() || num.abs() > two * den.abs() {
            return None;
        }
        x[r] = num / den;
    }
    Some(Solution { x, abs_det: det })
}

/// A power of two `k` that brings `m` (a largest coordinate) into `[1/2, 2)` where
/// products of degree 3 would otherwise over- or underflow (floats outside `[2⁻³⁰, 2³⁰]`:
/// GJK's signed volumes) or lose digits (fixed-point below 1/2: an ulp is absolute); 1
/// when `m` is fine as it is (or 0). Scaling by it is exact.
pub(crate) fn pow2_scale<T: Real>(m: T) -> T {
    let fixed = crate::real::is_fixed::<T>();
    let (lo, hi) = if fixed {
        (crate::real::lit::<T>(0.5), T::max_value().unwrap_or(m))
    } else {
        let range = crate::tolerance::range::SIGNED_VOLUME_RANGE;
        (
            crate::real::lit::<T>(1.0 / range),
            crate::real::lit::<T>(range),
        )
    };
    if !(m > T::zero()) || (m >= lo && m <= hi) {
        return T::one();
    }
    let mf: f64 = m.to_subset().unwrap_or(1.0);
    let k = 2f64.powi(-(mf.log2().round() as i32));
    crate::real::lit(k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Matrix3, Vector3};

    #[test]
    fn pow2_scale_cases() {
        assert_eq!(pow2_scale(1.0f64), 1.0);
        assert_eq!(pow2_scale(0.0f64), 1.0);
        assert_eq!(pow2_scale(1e12f64) * 1e12, 1e12 * 2f64.powi(-40));
        assert!((0.5..2.0).contains(&(pow2_scale(3e-20f32) * 3e-20)));
    }

    #[test]
    fn pivoted_solve_cases() {
        let m = Matrix3::new(0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0);
        let Solution { x, abs_det: det } = solve_pivoted(m, Vector3::new(0.5, 0.25, 1.0)).unwrap();
        assert_eq!(x, Vector3::new(0.25, 0.5, 0.5));
        assert_eq!(det, 2.0);
        // Singular.
        assert!(solve_pivoted(Matrix3::<f64>::zeros(), Vector3::x()).is_none());
        // A coordinate beyond [−2, 2].
        assert!(solve_pivoted(Matrix3::<f64>::identity(), Vector3::new(3.0, 0.0, 0.0)).is_none());
    }
}
