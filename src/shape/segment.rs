//! A single point and a segment.

use super::{SupportMap, check_finite, extent_of};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// A single point, in any dimension.
///
/// ```
/// use convex_proximity::shape::{PointShape, SupportMap};
/// use nalgebra::{Point2, Vector2};
/// let p = PointShape::new(Point2::new(1.0, 2.0));
/// assert_eq!(p.support(&Vector2::new(-1.0, 0.0)), Point2::new(1.0, 2.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointShape<T: Real, const D: usize> {
    /// The point.
    pub point: Point<T, D>,
}

impl<T: Real, const D: usize> PointShape<T, D> {
    /// The shape `{point}`.
    ///
    /// # Panics
    /// If a coordinate is not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(point: Point<T, D>) -> Self {
        Self::try_new(point).expect("PointShape::new: coordinates must be finite")
    }

    /// The shape `{point}`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] if a coordinate is NaN or infinite.
    pub fn try_new(point: Point<T, D>) -> Result<Self, ShapeError> {
        check_finite(&point.coords, 0)?;
        Ok(Self { point })
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for PointShape<T, D> {
    #[inline]
    fn support(&self, _dir: &SVector<T, D>) -> Point<T, D> {
        self.point
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.point
    }
    #[inline]
    fn validate(&self) -> Result<(), ShapeError> {
        check_finite(&self.point.coords, 0)
    }
    fn extent(&self) -> f64 {
        extent_of(&self.point.coords)
    }
}

/// The segment between two points, in any dimension.
///
/// ```
/// use convex_proximity::shape::{Segment, SupportMap};
/// use nalgebra::{Point3, Vector3};
/// let s = Segment::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0));
/// assert_eq!(s.support(&Vector3::new(1.0, 1.0, 0.0)).x, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<T: Real, const D: usize> {
    /// First end point.
    pub a: Point<T, D>,
    /// Second end point.
    pub b: Point<T, D>,
}

impl<T: Real, const D: usize> Segment<T, D> {
    /// The segment `[a, b]` (`a = b` is allowed: a point).
    ///
    /// # Panics
    /// If a coordinate is not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(a: Point<T, D>, b: Point<T, D>) -> Self {
        Self::try_new(a, b).expect("Segment::new: coordinates must be finite")
    }

    /// The segment `[a, b]`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (index 0 for `a`, 1 for `b`) if a coordinate is NaN or
    /// infinite.
    pub fn try_new(a: Point<T, D>, b: Point<T, D>) -> Result<Self, ShapeError> {
        check_finite(&a.coords, 0)?;
        check_finite(&b.coords, 1)?;
        Ok(Self { a, b })
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Segment<T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        if dir.dot(&self.b.coords) > dir.dot(&self.a.coords) {
            self.b
        } else {
            self.a
        }
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        nalgebra::center(&self.a, &self.b)
    }
    #[inline]
    fn validate(&self) -> Result<(), ShapeError> {
        // Both ends in one test (their sum is finite only when both are; fixed point is
        // always finite), each one's error only when it fails.
        if crate::real::is_fixed::<T>() || crate::real::all_finite(&(self.a.coords + self.b.coords))
        {
            return Ok(());
        }
        check_finite(&self.a.coords, 0)?;
        check_finite(&self.b.coords, 1)
    }
    fn extent(&self) -> f64 {
        extent_of(&self.a.coords).max(extent_of(&self.b.coords))
    }
}
