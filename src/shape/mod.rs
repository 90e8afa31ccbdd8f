//! Shapes as support maps, each in its own local frame.
//!
//! A convex shape `S` is described by its support map `s(d) = argmax_{x ∈ S} d·x`
//! (van den Bergen 1999 §2). Shapes with a round part (balls, capsules, [`Rounded`]) also
//! expose their *core* and *radius*, `S = core ⊕ ball(radius)`, so GJK runs on the cores
//! and adds the radii (docs/gjk.md §1).

mod ball;
mod capsule;
mod combine;
mod cuboid;
mod hull;
mod mixed;
mod pointer;
mod polytope;
mod round3;
mod rounded;
mod segment;
mod transformed;

pub use ball::Ball;
pub use capsule::Capsule;
pub use combine::{Hull, MinkowskiSum};
pub use cuboid::Cuboid;
pub use mixed::{NoShape, Revolution, Shape, ShapeDim};
pub use pointer::{DynFeatureMap, DynSupportMap};
pub use polytope::{Face, Polytope};
pub(crate) use round3::radial;
pub use round3::{Cone, Cylinder};
pub use rounded::Rounded;
pub use segment::{PointShape, Segment};
pub use transformed::Transformed;

use crate::Real;
use nalgebra::{Point, SVector};

/// A convex shape given by its support map, in its local frame.
///
/// `support(d)` returns a point of the shape farthest along `d`; any point of the shape is
/// a valid answer for `d = 0`. The result must be finite for finite `d`.
///
/// Rounded shapes override [`radius`](Self::radius) and
/// [`core_support`](Self::core_support) so that `support(d) = core_support(d) + radius·d/‖d‖`.
///
/// ```
/// use convex_proximity::shape::{Ball, Cuboid, SupportMap};
/// use nalgebra::{Vector2, Vector3};
/// let b = Cuboid::new(Vector3::new(1.0, 2.0, 3.0));
/// assert_eq!(b.support(&Vector3::new(1.0, -1.0, 1.0)).coords, Vector3::new(1.0, -2.0, 3.0));
/// let c = Ball::new(2.0f32);
/// assert_eq!(SupportMap::<f32, 2>::support(&c, &Vector2::new(0.0, 5.0)).y, 2.0);
/// ```
pub trait SupportMap<T: Real, const D: usize> {
    /// A point of the shape farthest along `dir` (local frame).
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D>;

    /// The radius of the round part (0 for shapes without one).
    #[inline]
    fn radius(&self) -> T {
        T::zero()
    }

    /// The support point of the core (the shape shrunk by [`radius`](Self::radius)).
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.support(dir)
    }

    /// A point of the core (GJK's starting point). Default: the midpoint of the core's
    /// supports along ± the first axis.
    fn center(&self) -> Point<T, D> {
        let mut e = SVector::<T, D>::zeros();
        e[0] = T::one();
        let (p, q) = (self.core_support(&e), self.core_support(&-e));
        nalgebra::center(&p, &q)
    }

    /// The shape as a [`Primitive`] when it is exactly one (in its local frame), so that
    /// queries with a closed form (ray casts against balls and boxes) can take it. Default
    /// `None`: the support map is all the queries use. An override must describe the same
    /// set as [`support`](Self::support).
    #[inline]
    fn primitive(&self) -> Option<Primitive<T, D>> {
        None
    }

    /// Checks the shape's parameters; every query calls it once per shape before using
    /// the shape, so a shape whose public fields were set to invalid values (a NaN or
    /// negative radius or half-extent) is an error, not a NaN or a wrong answer. Default:
    /// [`radius`](Self::radius) is finite and non-negative.
    ///
    /// # Errors
    /// The [`ShapeError`](crate::ShapeError) naming the invalid parameter.
    #[inline]
    fn validate(&self) -> Result<(), crate::ShapeError> {
        check_nonneg(self.radius(), "radius").map(|_| ())
    }

    /// An upper bound of `|x|∞` over the shape's points `x` (its largest coordinate in its
    /// local frame, round part included), computed in `f64` so that it cannot overflow
    /// the scalar. Fixed-point queries compare it with their range before any support
    /// point is computed (fixed-point overflow wraps silently; docs/tolerances.md,
    /// "Ranges"); floating-point queries never call it. Default: the largest coordinate
    /// of the supports along `±eₖ`.
    fn extent(&self) -> f64 {
        let mut m = 0.0f64;
        for k in 0..D {
            let mut e = SVector::<T, D>::zeros();
            e[k] = T::one();
            for d in [e, -e] {
                m = m.max(extent_of(&self.support(&d).coords));
            }
        }
        m
    }
}

/// A shape with closed-form queries, as returned by [`SupportMap::primitive`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Primitive<T: Real, const D: usize> {
    /// The ball of this radius centred at the origin ([`Ball`]).
    Ball {
        /// The radius.
        radius: T,
    },
    /// The box `[-h, h]` per axis ([`Cuboid`]).
    Cuboid {
        /// The half-extents `h`.
        half_extents: SVector<T, D>,
    },
    /// The points within `radius` of the segment `[a, b]` ([`Capsule`]).
    Capsule {
        /// One end of the core segment.
        a: Point<T, D>,
        /// The other end.
        b: Point<T, D>,
        /// The radius.
        radius: T,
    },
}

/// `|v|∞` in `f64` (∞ for a value `f64` cannot hold).
#[inline]
pub(crate) fn extent_of<T: Real, const D: usize>(v: &SVector<T, D>) -> f64 {
    v.iter().fold(0.0f64, |m, x| {
        let x: f64 = x.to_subset().unwrap_or(f64::INFINITY);
        m.max(x.abs())
    })
}

/// A scalar parameter's magnitude in `f64`.
#[inline]
pub(crate) fn f64_of<T: Real>(x: T) -> f64 {
    x.to_subset().map_or(f64::INFINITY, f64::abs)
}

/// `p + r · d/‖d‖`, or `p` when `d = 0` or `r = 0` (the support of a ball of radius `r`
/// centred at `p`).
#[inline]
pub(crate) fn push<T: Real, const D: usize>(
    p: Point<T, D>,
    r: T,
    d: &SVector<T, D>,
) -> Point<T, D> {
    if r == T::zero() {
        return p;
    }
    match crate::real::normalize(d) {
        Some(n) => p + n.into_inner() * r,
        None => p,
    }
}

/// Checks a parameter: finite and non-negative.
pub(crate) fn check_nonneg<T: Real>(x: T, what: &'static str) -> Result<T, crate::ShapeError> {
    if x >= T::zero() && crate::real::finite(x) {
        Ok(x)
    } else {
        Err(crate::ShapeError::Negative { what })
    }
}

/// Checks a point or vector: every coordinate finite.
pub(crate) fn check_finite<T: Real, const D: usize>(
    v: &SVector<T, D>,
    index: usize,
) -> Result<(), crate::ShapeError> {
    if crate::real::all_finite(v) {
        Ok(())
    } else {
        Err(crate::ShapeError::NonFinite { index })
    }
}
