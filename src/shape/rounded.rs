//! Rounded shape: any shape ⊕ a ball.

use super::{SupportMap, check_nonneg, f64_of, push};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// `inner ⊕ ball(radius)`: the points within `radius` of `inner` (a rounded box, a
/// rounded polytope, ...). GJK runs on the inner shape's core and adds the radii.
///
/// ```
/// use convex_proximity::shape::{Cuboid, Rounded, SupportMap};
/// use nalgebra::Vector3;
/// let r = Rounded::new(Cuboid::new(Vector3::new(1.0, 1.0, 1.0)), 0.25);
/// assert_eq!(r.support(&Vector3::new(1.0, 0.0, 0.0)).x, 1.25);
/// assert_eq!(r.radius(), 0.25);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rounded<S, T> {
    /// The shape being rounded.
    pub inner: S,
    /// The rounding radius added to the inner shape's own (≥ 0).
    pub radius: T,
}

impl<S, T: Real> Rounded<S, T> {
    /// `inner` rounded by `radius`.
    ///
    /// # Panics
    /// If `radius` is negative or not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(inner: S, radius: T) -> Self {
        Self::try_new(inner, radius).expect("Rounded::new: radius must be finite and >= 0")
    }

    /// `inner` rounded by `radius`.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] if `radius` is negative or not finite.
    pub fn try_new(inner: S, radius: T) -> Result<Self, ShapeError> {
        Ok(Self {
            inner,
            radius: check_nonneg(radius, "radius")?,
        })
    }
}

impl<T: Real, const D: usize, S: SupportMap<T, D>> SupportMap<T, D> for Rounded<S, T> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        push(self.inner.support(dir), self.radius, dir)
    }
    #[inline]
    fn radius(&self) -> T {
        self.inner.radius() + self.radius
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.inner.core_support(dir)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.inner.center()
    }
    #[inline]
    fn validate(&self) -> Result<(), ShapeError> {
        self.inner.validate()?;
        check_nonneg(self.radius, "radius").map(|_| ())
    }
    fn extent(&self) -> f64 {
        self.inner.extent() + f64_of(self.radius)
    }
}
