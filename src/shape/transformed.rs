//! A shape under an affine map.

use super::{SupportMap, check_finite};
use crate::{Real, ShapeError};
use nalgebra::{Point, SMatrix, SVector};

/// The image of `inner` under the affine map `x ↦ M·x + t`: rotations, translations,
/// non-uniform scales and shears (an ellipsoid is a scaled [`Ball`](super::Ball)). The
/// support map is `s(d) = M·s_inner(Mᵀ·d) + t` (van den Bergen 1999 §2).
///
/// ```
/// use convex_proximity::shape::{Ball, SupportMap, Transformed};
/// use nalgebra::{Vector3};
/// let ellipsoid = Transformed::scaled(Ball::new(1.0), Vector3::new(3.0, 2.0, 1.0));
/// assert_eq!(ellipsoid.support(&Vector3::new(1.0, 0.0, 0.0)).x, 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transformed<S, T: Real, const D: usize> {
    /// The shape being mapped.
    pub inner: S,
    linear: SMatrix<T, D, D>,
    translation: SVector<T, D>,
}

impl<S, T: Real, const D: usize> Transformed<S, T, D> {
    /// `inner` mapped by `x ↦ linear·x + translation`.
    ///
    /// # Panics
    /// If an entry is not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(inner: S, linear: SMatrix<T, D, D>, translation: SVector<T, D>) -> Self {
        Self::try_new(inner, linear, translation).expect("Transformed::new: non-finite map")
    }

    /// `inner` mapped by `x ↦ linear·x + translation`. A singular `linear` is allowed: it
    /// flattens the shape, which stays convex.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (index 0: the matrix, 1: the translation).
    pub fn try_new(
        inner: S,
        linear: SMatrix<T, D, D>,
        translation: SVector<T, D>,
    ) -> Result<Self, ShapeError> {
        if !linear.iter().all(|x| x.is_finite()) {
            return Err(ShapeError::NonFinite { index: 0 });
        }
        check_finite(&translation, 1)?;
        Ok(Self {
            inner,
            linear,
            translation,
        })
    }

    /// `inner` scaled by `scale` along the axes.
    ///
    /// # Panics
    /// If a factor is not finite.
    #[must_use]
    pub fn scaled(inner: S, scale: SVector<T, D>) -> Self {
        Self::new(inner, SMatrix::from_diagonal(&scale), SVector::zeros())
    }

    /// The linear part `M`.
    #[must_use]
    pub fn linear(&self) -> &SMatrix<T, D, D> {
        &self.linear
    }

    /// The translation `t`.
    #[must_use]
    pub fn translation(&self) -> &SVector<T, D> {
        &self.translation
    }
}

impl<T: Real, const D: usize, S: SupportMap<T, D>> SupportMap<T, D> for Transformed<S, T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let local = self.inner.support(&self.linear.tr_mul(dir));
        Point::from(self.linear * local.coords + self.translation)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        Point::from(self.linear * self.inner.center().coords + self.translation)
    }
}
