//! Ball: the origin ⊕ a radius.

use super::{SupportMap, check_nonneg, f64_of, push};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// A ball of the given radius centred at the origin of its frame, in any dimension
/// (a disc in 2D). Its core is the centre point.
///
/// ```
/// use convex_proximity::shape::{Ball, SupportMap};
/// use nalgebra::Vector3;
/// let b = Ball::new(0.5);
/// assert_eq!(b.support(&Vector3::new(0.0, 0.0, -3.0)).z, -0.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<T> {
    /// The radius (≥ 0).
    pub radius: T,
}

impl<T: Real> Ball<T> {
    /// A ball of radius `radius`.
    ///
    /// # Panics
    /// If `radius` is negative or not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(radius: T) -> Self {
        Self::try_new(radius).expect("Ball::new: radius must be finite and non-negative")
    }

    /// A ball of radius `radius`.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] if `radius` is negative or not finite.
    pub fn try_new(radius: T) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: check_nonneg(radius, "radius")?,
        })
    }

    /// The radius, as a method: `b.radius()` on a `Ball` needs no dimension (the trait
    /// method [`SupportMap::radius`] is implemented for every `D`, so a bare call was
    /// ambiguous, E0284). The same value as the field.
    #[must_use]
    pub fn radius(&self) -> T {
        self.radius
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Ball<T> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        push(Point::origin(), self.radius, dir)
    }
    #[inline]
    fn radius(&self) -> T {
        self.radius
    }
    #[inline]
    fn core_support(&self, _dir: &SVector<T, D>) -> Point<T, D> {
        Point::origin()
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        Point::origin()
    }
    #[inline]
    fn primitive(&self) -> Option<super::Primitive<T, D>> {
        Some(super::Primitive::Ball {
            radius: self.radius,
        })
    }
    fn validate(&self) -> Result<(), ShapeError> {
        check_nonneg(self.radius, "radius").map(|_| ())
    }
    fn extent(&self) -> f64 {
        f64_of(self.radius)
    }
}
