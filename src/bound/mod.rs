//! Bounding volumes of posed shapes, for a broad phase: axis-aligned boxes ([`Aabb`]) and
//! balls ([`BoundingBall`]), world frame.
//!
//! A box is exact up to rounding: along each world axis `eₖ` the shape's extent is its
//! support value `max_x eₖ·(R·x + t) = eₖ·(R·s(Rᵀ·eₖ) + t)`, so `2·D` support calls give
//! the smallest box (van den Bergen 1999 §2). Balls, cuboids and capsules
//! ([`SupportMap::primitive`]) take closed forms instead: `t ± r`, `t ± |R|·h` (the row
//! sums of `|R|` times the half-extents), the end points' box `± r`.
//!
//! Rounding: the computed box is widened by `pad = 8·(D + 1)·ε·scale` per axis (`scale`
//! the magnitude of the sum `Σⱼ|Rₖⱼ·sⱼ| + |tₖ|`, at least 1 in fixed-point), which covers
//! the rounding of that sum (at most `(D + 1)·ε·scale`), of a support point computed along
//! a rounded direction, and of the normalisation of a round part, so every point a support
//! query returns for the posed shape lies inside it; the box is within `2·pad` of the
//! shape's extent along each axis (tests/bounds.rs).

mod swept;
#[cfg(feature = "bvh")]
mod tree;

#[cfg(feature = "bvh")]
pub use tree::{BvhEntry, overlaps};

use crate::{
    QueryError, Real,
    pose::{Frame, PoseRotation},
    real::{is_fixed, lit, norm},
    shape::{Primitive, SupportMap},
};
use nalgebra::{Isometry, Point, SVector};

/// An axis-aligned box `[min, max]` (per axis `min ≤ max`), world frame.
///
/// ```
/// use convex_proximity::{bound::Aabb, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry3, Point3, Vector3};
/// let cube = Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0));
/// let a = Aabb::of(&Isometry3::translation(5.0, 0.0, 0.0), &cube).unwrap();
/// assert!((a.min.x - 4.0).abs() < 1e-12 && (a.max.x - 6.0).abs() < 1e-12);
/// let b = Aabb::of(&Isometry3::translation(0.0, 0.0, 0.0), &Ball::new(0.5)).unwrap();
/// assert!(!a.intersects(&b));
/// assert!(a.loosened(3.6).intersects(&b));
/// let both = a.merge(&b);
/// assert!(both.contains(&a) && both.contains(&b));
/// assert!(both.contains_point(&Point3::new(3.0, 0.0, 0.0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb<T: Real, const D: usize> {
    /// The corner with the smallest coordinates.
    pub min: Point<T, D>,
    /// The corner with the largest coordinates.
    pub max: Point<T, D>,
}

/// A loosening margin: `margin` when positive, else 0 (negative and NaN margins).
fn margin_or_zero<T: Real>(margin: T) -> T {
    if margin > T::zero() {
        margin
    } else {
        T::zero()
    }
}

/// [`allowance::BOX_PAD_PER_TERM`](crate::tolerance::allowance::BOX_PAD_PER_TERM)`·(D + 1)`
/// ulps of `scale` (fixed-point: `scale ≥ 1`, its rounding is absolute).
fn pad<T: Real, const D: usize>(scale: T) -> T {
    let scale = if is_fixed::<T>() {
        scale.max(T::one())
    } else {
        scale
    };
    crate::tolerance::ulps::<T>(crate::tolerance::allowance::BOX_PAD_PER_TERM * (D as f64 + 1.0))
        * scale
}

impl<T: Real, const D: usize> Aabb<T, D> {
    /// The box `[min, max]`; the corners are taken per axis as given (the caller keeps
    /// `min ≤ max`).
    #[must_use]
    pub fn new(min: Point<T, D>, max: Point<T, D>) -> Self {
        Self { min, max }
    }

    /// The box of `shape` at `pose`: closed forms for balls, cuboids and capsules, else
    /// `2·D` support calls; widened by the rounding (module docs).
    ///
    /// # Errors
    /// As [`crate::query::distance`] for one shape: an invalid pose or shape, or a
    /// fixed-point shape or translation out of range.
    pub fn of<R, S>(pose: &Isometry<T, R, D>, shape: &S) -> Result<Self, QueryError>
    where
        R: PoseRotation<T, D>,
        S: SupportMap<T, D> + ?Sized,
    {
        let frame = checked(pose, shape)?;
        Ok(match shape.primitive() {
            Some(p) => Self::closed_form(&frame, &p),
            None => Self::supports(&frame, shape),
        })
    }

    /// The box of `shape` at `pose` from its `2·D` support calls, never a closed form (the
    /// reference [`of`](Self::of) is tested against).
    ///
    /// # Errors
    /// As [`of`](Self::of).
    pub fn from_supports<R, S>(pose: &Isometry<T, R, D>, shape: &S) -> Result<Self, QueryError>
    where
        R: PoseRotation<T, D>,
        S: SupportMap<T, D> + ?Sized,
    {
        Ok(Self::supports(&checked(pose, shape)?, shape))
    }

    /// Along each world axis `±eₖ`: the support point along `Rᵀ·(±eₖ)`, posed.
    fn supports<S: SupportMap<T, D> + ?Sized>(frame: &Frame<T, D>, shape: &S) -> Self {
        let (mut min, mut max) = (Point::origin(), Point::origin());
        for k in 0..D {
            // Rᵀ·eₖ is row k of R.
            let dir: SVector<T, D> = frame.rot.row(k).transpose();
            for (sign, out) in [(T::one(), &mut max), (-T::one(), &mut min)] {
                let s = shape.support(&(dir * sign));
                let x = row_dot(frame, k, &s.coords);
                out[k] = x.value + pad::<T, D>(x.magnitude) * sign;
            }
        }
        Self { min, max }
    }

    /// `t ± r`, `t ± |R|·h`, or the posed segment's box `± r`.
    fn closed_form(frame: &Frame<T, D>, p: &Primitive<T, D>) -> Self {
        let (mut min, mut max) = (Point::origin(), Point::origin());
        for k in 0..D {
            let (lo, hi, scale) = match *p {
                Primitive::Ball { radius } => {
                    let t = frame.t[k];
                    (t - radius, t + radius, t.abs() + radius)
                }
                Primitive::Cuboid { half_extents } => {
                    let w = (0..D).fold(T::zero(), |s, j| {
                        s + frame.rot[(k, j)].abs() * half_extents[j]
                    });
                    let t = frame.t[k];
                    (t - w, t + w, t.abs() + w)
                }
                Primitive::Capsule { a, b, radius } => {
                    let (xa, xb) = (row_dot(frame, k, &a.coords), row_dot(frame, k, &b.coords));
                    (
                        xa.value.min(xb.value) - radius,
                        xa.value.max(xb.value) + radius,
                        xa.magnitude.max(xb.magnitude) + radius,
                    )
                }
            };
            let e = pad::<T, D>(scale);
            min[k] = lo - e;
            max[k] = hi + e;
        }
        Self { min, max }
    }

    /// The smallest box holding both.
    #[must_use]
    pub fn merge(&self, other: &Self) -> Self {
        Self {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// Whether `other` lies inside this box (boundaries included).
    #[must_use]
    pub fn contains(&self, other: &Self) -> bool {
        (0..D).all(|k| self.min[k] <= other.min[k] && other.max[k] <= self.max[k])
    }

    /// Whether `p` lies inside this box (boundaries included).
    #[must_use]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        (0..D).all(|k| self.min[k] <= p[k] && p[k] <= self.max[k])
    }

    /// Whether the boxes overlap or touch.
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        (0..D).all(|k| self.min[k] <= other.max[k] && other.min[k] <= self.max[k])
    }

    /// The box grown by `margin` on every side (a negative or NaN margin counts as 0): the
    /// boxes of two shapes loosened by `m/2` each intersect whenever the shapes are within
    /// `m` of each other, and a moving shape's loosened box stays valid while it moves
    /// less than the margin.
    #[must_use]
    pub fn loosened(&self, margin: T) -> Self {
        let m = margin_or_zero(margin);
        Self {
            min: self.min - SVector::repeat(m),
            max: self.max + SVector::repeat(m),
        }
    }

    /// The centre `(min + max)/2`.
    #[must_use]
    pub fn center(&self) -> Point<T, D> {
        nalgebra::center(&self.min, &self.max)
    }

    /// The half-extents `(max − min)/2`.
    #[must_use]
    pub fn half_extents(&self) -> SVector<T, D> {
        (self.max - self.min) * lit::<T>(0.5)
    }
}

/// A coordinate of a placed point with the magnitude of its terms ([`row_dot`]).
#[derive(Clone, Copy, Debug)]
struct RowDot<T> {
    /// `(R·x + t)ₖ`.
    value: T,
    /// `Σⱼ|Rₖⱼ·xⱼ| + |tₖ|`, the scale of its rounding.
    magnitude: T,
}

/// `(R·x + t)ₖ` and its magnitude `Σⱼ|Rₖⱼ·xⱼ| + |tₖ|`.
fn row_dot<T: Real, const D: usize>(frame: &Frame<T, D>, k: usize, x: &SVector<T, D>) -> RowDot<T> {
    let (mut value, mut magnitude) = (frame.t[k], frame.t[k].abs());
    for j in 0..D {
        let p = frame.rot[(k, j)] * x[j];
        value += p;
        magnitude += p.abs();
    }
    RowDot { value, magnitude }
}

/// The pose's frame, after the checks every query makes on a shape and a pose.
fn checked<T, R, S, const D: usize>(
    pose: &Isometry<T, R, D>,
    shape: &S,
) -> Result<Frame<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    S: SupportMap<T, D> + ?Sized,
{
    crate::input::check_shape(shape)?;
    Frame::of(pose)
}

/// A ball holding a posed shape, world frame.
///
/// Exact for balls (`t`, `r`) and capsules (the segment's midpoint, half its length plus
/// `r`) and the circumscribed ball for cuboids; other shapes get the ball around their
/// local box (from `2·D` support calls in the shape's frame, so it does not depend on the
/// rotation): at most `√D` times the smallest ball's radius. The radius is widened by the
/// rounding as the box is.
///
/// ```
/// use convex_proximity::{bound::BoundingBall, shape::Capsule};
/// use nalgebra::{Isometry2, Point2};
/// let c = Capsule::new(Point2::new(-1.0f64, 0.0), Point2::new(1.0, 0.0), 0.5);
/// let b = BoundingBall::of(&Isometry2::new(nalgebra::Vector2::new(3.0, 0.0), 1.0), &c).unwrap();
/// assert!((b.radius - 1.5).abs() < 1e-12 && (b.center.x - 3.0).abs() < 1e-12);
/// assert!(b.contains_point(&Point2::new(3.0, 1.4)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundingBall<T: Real, const D: usize> {
    /// The centre.
    pub center: Point<T, D>,
    /// The radius (≥ 0).
    pub radius: T,
}

impl<T: Real, const D: usize> BoundingBall<T, D> {
    /// A ball holding `shape` at `pose` (see the type's docs).
    ///
    /// # Errors
    /// As [`Aabb::of`].
    pub fn of<R, S>(pose: &Isometry<T, R, D>, shape: &S) -> Result<Self, QueryError>
    where
        R: PoseRotation<T, D>,
        S: SupportMap<T, D> + ?Sized,
    {
        let frame = checked(pose, shape)?;
        let (c, r) = match shape.primitive() {
            Some(Primitive::Ball { radius }) => (Point::origin(), radius),
            Some(Primitive::Cuboid { half_extents }) => (Point::origin(), norm(&half_extents)),
            Some(Primitive::Capsule { a, b, radius }) => (
                nalgebra::center(&a, &b),
                norm(&(b - a)) * lit::<T>(0.5) + radius,
            ),
            None => {
                let local = Aabb::supports(
                    &Frame {
                        rot: nalgebra::SMatrix::identity(),
                        t: SVector::zeros(),
                    },
                    shape,
                );
                (local.center(), norm(&local.half_extents()))
            }
        };
        let center = frame.transform_point(&c);
        let scale = crate::shape::extent_of(&frame.t) + crate::shape::extent_of(&c.coords);
        let scale: T = lit(scale);
        Ok(Self {
            center,
            radius: r + pad::<T, D>(scale + r),
        })
    }

    /// Whether `p` lies inside the ball (boundary included).
    #[must_use]
    pub fn contains_point(&self, p: &Point<T, D>) -> bool {
        norm(&(p - self.center)) <= self.radius
    }

    /// Whether the balls overlap or touch.
    #[must_use]
    pub fn intersects(&self, other: &Self) -> bool {
        norm(&(other.center - self.center)) <= self.radius + other.radius
    }

    /// The ball grown by `margin` (a negative or NaN margin counts as 0).
    #[must_use]
    pub fn loosened(&self, margin: T) -> Self {
        let m = margin_or_zero(margin);
        Self {
            center: self.center,
            radius: self.radius + m,
        }
    }

    /// The box around the ball.
    #[must_use]
    pub fn aabb(&self) -> Aabb<T, D> {
        let r = SVector::repeat(self.radius);
        Aabb::new(self.center - r, self.center + r)
    }
}
