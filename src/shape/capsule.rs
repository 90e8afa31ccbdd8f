//! Capsule: a segment ⊕ a radius.

use super::{Segment, SupportMap, check_nonneg, f64_of, push};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// The set of points within `radius` of the segment `[a, b]`, in any dimension (a
/// stadium in 2D). Its core is the segment.
///
/// ```
/// use convex_proximity::shape::{Capsule, SupportMap};
/// use nalgebra::{Point2, Vector2};
/// let c = Capsule::new(Point2::new(-1.0, 0.0), Point2::new(1.0, 0.0), 0.5);
/// assert_eq!(c.support(&Vector2::new(0.0, 1.0)).y, 0.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule<T: Real, const D: usize> {
    /// The core segment.
    pub segment: Segment<T, D>,
    /// The radius (≥ 0).
    pub radius: T,
}

impl<T: Real, const D: usize> Capsule<T, D> {
    /// The capsule around `[a, b]` with radius `radius`.
    ///
    /// # Panics
    /// On non-finite coordinates or a negative radius; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(a: Point<T, D>, b: Point<T, D>, radius: T) -> Self {
        Self::try_new(a, b, radius).expect("Capsule::new: invalid segment or radius")
    }

    /// The capsule around `[a, b]` with radius `radius`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] for a non-finite end point, [`ShapeError::Negative`] for a
    /// negative or non-finite radius.
    pub fn try_new(a: Point<T, D>, b: Point<T, D>, radius: T) -> Result<Self, ShapeError> {
        Ok(Self {
            segment: Segment::try_new(a, b)?,
            radius: check_nonneg(radius, "radius")?,
        })
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Capsule<T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        push(self.segment.support(dir), self.radius, dir)
    }
    #[inline]
    fn radius(&self) -> T {
        self.radius
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.segment.support(dir)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.segment.center()
    }
    #[inline]
    fn primitive(&self) -> Option<super::Primitive<T, D>> {
        Some(super::Primitive::Capsule {
            a: self.segment.a,
            b: self.segment.b,
            radius: self.radius,
        })
    }
    #[inline]
    fn validate(&self) -> Result<(), ShapeError> {
        self.segment.validate()?;
        check_nonneg(self.radius, "radius").map(|_| ())
    }
    fn extent(&self) -> f64 {
        self.segment.extent() + f64_of(self.radius)
    }
}
