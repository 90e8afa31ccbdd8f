//! Polytope: the convex hull of a point cloud.

use super::{SupportMap, check_finite};
use crate::{Real, ShapeError};
use nalgebra::{Point, SVector};

/// The convex hull of a finite point cloud, in any dimension. The points need not be in
/// convex position (interior points never win a support query) and may repeat.
///
/// ```
/// use convex_proximity::shape::{Polytope, SupportMap};
/// use nalgebra::{Point2, Vector2};
/// let tri = Polytope::try_new(vec![
///     Point2::new(0.0, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0), Point2::new(0.2, 0.2),
/// ]).unwrap();
/// assert_eq!(tri.support(&Vector2::new(1.0, 0.1)), Point2::new(1.0, 0.0));
/// assert!(Polytope::<f64, 2>::try_new(vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Polytope<T: Real, const D: usize> {
    points: Vec<Point<T, D>>,
    center: Point<T, D>,
}

impl<T: Real, const D: usize> Polytope<T, D> {
    /// The hull of `points`.
    ///
    /// # Errors
    /// [`ShapeError::Empty`] for no points, [`ShapeError::NonFinite`] (with the index of the
    /// first bad point) for a NaN or infinite coordinate.
    pub fn try_new(points: Vec<Point<T, D>>) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::Empty);
        }
        for (i, p) in points.iter().enumerate() {
            check_finite(&p.coords, i)?;
        }
        // The vertex mean, computed relative to the first point so that far-away clouds
        // keep their digits (and fixed-point sums stay in range).
        let origin = points[0];
        let mut sum = SVector::<T, D>::zeros();
        for p in &points {
            sum += p - origin;
        }
        let n: T = crate::real::lit(points.len() as f64);
        let center = origin + sum / n;
        Ok(Self { points, center })
    }

    /// The points as given.
    #[must_use]
    pub fn points(&self) -> &[Point<T, D>] {
        &self.points
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for Polytope<T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        // Brute force over the vertices (the first of equal maxima wins, so the answer is
        // deterministic).
        let mut best = self.points[0];
        let mut best_dot = dir.dot(&best.coords);
        for p in &self.points[1..] {
            let d = dir.dot(&p.coords);
            if d > best_dot {
                best_dot = d;
                best = *p;
            }
        }
        best
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.center
    }
}
