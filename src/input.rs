//! Checks of a query's inputs, made once per query before any support point is computed:
//! shape parameters, the radii's sum, and (fixed-point) the range of shapes and poses.
//!
//! Fixed-point overflow wraps silently in release and panics in debug, and it cannot be
//! detected after the fact, so a fixed-point query first bounds what it will multiply:
//! every shape's [`SupportMap::extent`] and every pose translation must be within
//! [`fixed_extent_limit`] (docs/tolerances.md, "Ranges"). Floating-point queries skip
//! that part (overflow there is an ∞ the range checks see).

use crate::{
    QueryError, Real,
    pose::{PoseRotation, Relative},
    real::is_fixed,
    shape::SupportMap,
};
use nalgebra::Isometry;
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// The largest coordinate a fixed-point shape (in its own frame, round part included) or
/// pose translation may have: `√max / PRODUCT_SUMS` (`tolerance::range`), so that products of two coordinates, with
/// the factors of up to 16 the algorithms' sums of such products add, stay below the type's
/// largest value. FixedI40F24: 46341. `f64::INFINITY` for floating point.
#[must_use]
pub(crate) fn fixed_extent_limit<T: Real>() -> f64 {
    if !is_fixed::<T>() {
        return f64::INFINITY;
    }
    let max: f64 = T::max_value()
        .and_then(|m| m.to_subset())
        .unwrap_or(f64::MAX);
    max.sqrt() / crate::tolerance::range::PRODUCT_SUMS
}

/// One shape: its parameters ([`SupportMap::validate`]) and, in fixed-point, its extent.
///
/// # Errors
/// [`QueryError::InvalidShape`] for an invalid parameter, [`QueryError::OutOfRange`] for
/// a fixed-point shape beyond [`fixed_extent_limit`].
#[inline]
pub(crate) fn check_shape<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized>(
    s: &S,
) -> Result<(), QueryError> {
    s.validate().map_err(QueryError::InvalidShape)?;
    if is_fixed::<T>() && !(s.extent() <= fixed_extent_limit::<T>()) {
        return Err(QueryError::OutOfRange);
    }
    Ok(())
}

/// Both shapes, and the sum of their radii (finite: two radii of 1e308 add up to ∞).
///
/// # Errors
/// As [`check_shape`]; [`QueryError::OutOfRange`] when the radii's sum overflows.
pub(crate) fn check_pair<T, const D: usize, A, B>(a: &A, b: &B) -> Result<(), QueryError>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    check_shape(a)?;
    check_shape(b)?;
    if !crate::real::finite(a.radius() + b.radius()) {
        return Err(QueryError::OutOfRange);
    }
    Ok(())
}

/// Both shapes ([`check_pair`]) and both poses ([`crate::pose::relative`]) checked: what a
/// two-shape query on posed shapes starts from, B's frame in A's.
///
/// # Errors
/// As [`check_pair`] and [`crate::pose::Frame::of`].
pub(crate) fn check_posed_pair<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
) -> Result<Relative<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    check_pair(a, b)?;
    crate::pose::relative(pose_a, pose_b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_extent_limit_per_scalar() {
        assert_eq!(fixed_extent_limit::<f64>(), f64::INFINITY);
        assert_eq!(fixed_extent_limit::<f32>(), f64::INFINITY);
        #[cfg(feature = "fixed")]
        {
            let l = fixed_extent_limit::<simba::scalar::FixedI40F24>();
            assert!((l - 46341.0).abs() < 1.0, "{l}");
        }
    }
}
