//! Cuboid: an axis-aligned box centred at the origin, any dimension.

use super::{SupportMap, check_nonneg, extent_of};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// The box `[-h, h]` per axis, centred at the origin of its frame, in any dimension (a
/// rectangle in 2D).
///
/// ```
/// use convex_proximity::shape::{Cuboid, SupportMap};
/// use nalgebra::{Vector2, Point2};
/// let b = Cuboid::new(Vector2::new(2.0f32, 1.0));
/// assert_eq!(b.support(&Vector2::new(-1.0, 1.0)), Point2::new(-2.0, 1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<T: Real, const D: usize> {
    /// Half the side length along each axis (≥ 0).
    pub half_extents: SVector<T, D>,
}

impl<T: Real, const D: usize> Cuboid<T, D> {
    /// The box with the given half-extents.
    ///
    /// # Panics
    /// If a half-extent is negative or not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(half_extents: SVector<T, D>) -> Self {
        Self::try_new(half_extents).expect("Cuboid::new: half-extents must be finite and >= 0")
    }

    /// The box with the given half-extents.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] if a half-extent is negative or not finite.
    pub fn try_new(half_extents: SVector<T, D>) -> Result<Self, ShapeError> {
        for h in half_extents.iter() {
            check_nonneg(*h, "half-extent")?;
        }
        Ok(Self { half_extents })
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Cuboid<T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        // Vertex region: each coordinate takes the sign of the direction (+ at 0).
        Point::from(dir.zip_map(
            &self.half_extents,
            |d, h| if d < T::zero() { -h } else { h },
        ))
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        Point::origin()
    }
    #[inline]
    fn primitive(&self) -> Option<super::Primitive<T, D>> {
        Some(super::Primitive::Cuboid {
            half_extents: self.half_extents,
        })
    }
    fn validate(&self) -> Result<(), ShapeError> {
        for h in self.half_extents.iter() {
            check_nonneg(*h, "half-extent")?;
        }
        Ok(())
    }
    fn extent(&self) -> f64 {
        extent_of(&self.half_extents)
    }
}
