//! Cone and cylinder: 3D shapes of revolution about the local y axis (support functions:
//! van den Bergen 1999 §2).

use super::{SupportMap, check_nonneg, f64_of};
use crate::{
    Real, ShapeError,
    real::{norm, normalize},
};
use nalgebra::{Point3, Unit, Vector2, Vector3};

/// The unit radial direction `(dx, dz) / σ`, `σ = ‖(dx, dz)‖`, or `None` when the direction
/// is along y. Through [`normalize`], which in fixed-point divides by the larger component
/// first: a direction one ulp off the axis, `(dx, dz) = (−1, −1)` ulps, has `σ` rounded
/// to one ulp, and `dx/σ`, `dz/σ` = −1 put a rim point at `(−r, −r)`, `√2·r` from the
/// axis and outside the shape (a distance below the truth, its upper bound too).
#[inline]
pub(crate) fn radial<T: Real>(d: &Vector3<T>) -> Option<Vector2<T>> {
    normalize(&Vector2::new(d.x, d.z)).map(Unit::into_inner)
}

/// The rim point `(x, z) = (r·dx/σ, r·dz/σ)` ([`radial`]), or `None` when the direction is
/// along y.
#[inline]
fn rim<T: Real>(d: &Vector3<T>, r: T) -> Option<Vector2<T>> {
    radial(d).map(|u| Vector2::new(r * u.x, r * u.y))
}

/// The parameters of a shape of revolution checked: each finite and `≥ 0` (errors name
/// the first that is not).
fn check_revolution<T: Real>(half_height: T, radius: T) -> Result<(), ShapeError> {
    check_nonneg(half_height, "half-height")?;
    check_nonneg(radius, "radius").map(|_| ())
}

/// A shape of revolution's largest coordinate in its frame: the larger parameter.
fn revolution_extent<T: Real>(half_height: T, radius: T) -> f64 {
    f64_of(half_height).max(f64_of(radius))
}

/// The [`SupportMap`] methods a shape of revolution (fields `half_height`, `radius`) shares:
/// its centre at the origin, its parameters checked, its extent.
macro_rules! revolution_methods {
    () => {
        #[inline]
        fn center(&self) -> Point3<T> {
            Point3::origin()
        }
        #[inline]
        fn validate(&self) -> Result<(), ShapeError> {
            check_revolution(self.half_height, self.radius)
        }
        fn extent(&self) -> f64 {
            revolution_extent(self.half_height, self.radius)
        }
    };
}

/// A cone with its apex at `(0, h, 0)` and its base, a disc of radius `r`, at `y = -h`.
///
/// ```
/// use convex_proximity::shape::{Cone, SupportMap};
/// use nalgebra::Vector3;
/// let c = Cone::new(1.0, 0.5);
/// assert_eq!(c.support(&Vector3::new(0.0, 1.0, 0.0)).y, 1.0);
/// assert_eq!(c.support(&Vector3::new(1.0, -1.0, 0.0)).x, 0.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone<T> {
    /// Half the height (≥ 0).
    pub half_height: T,
    /// The base radius (≥ 0).
    pub radius: T,
}

impl<T: Real> Cone<T> {
    /// The cone of half-height `half_height` and base radius `radius`.
    ///
    /// # Panics
    /// If a parameter is negative or not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(half_height: T, radius: T) -> Self {
        Self::try_new(half_height, radius).expect("Cone::new: parameters must be finite and >= 0")
    }

    /// The cone of half-height `half_height` and base radius `radius`.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] naming the negative or non-finite parameter.
    pub fn try_new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_revolution(half_height, radius)?;
        Ok(Self {
            half_height,
            radius,
        })
    }
}

impl<T: Real> SupportMap<T, 3> for Cone<T> {
    #[inline]
    fn support(&self, d: &Vector3<T>) -> Point3<T> {
        let (h, r) = (self.half_height, self.radius);
        // Apex region: the direction is within the apex's normal cone, d_y > ‖d‖·sin α with
        // sin α = r / √(r² + (2h)²). Compared without division: d_y·√(r²+4h²) > ‖d‖·r.
        let two_h = h + h;
        let slant = norm(&Vector2::new(r, two_h));
        if d.y * slant > norm(d) * r {
            return Point3::new(T::zero(), h, T::zero());
        }
        match rim(d, r) {
            Some(xz) => Point3::new(xz.x, -h, xz.y),
            None => Point3::new(T::zero(), -h, T::zero()),
        }
    }
    revolution_methods!();
}

/// A cylinder of radius `r` around the y axis, from `y = -h` to `y = h`.
///
/// ```
/// use convex_proximity::shape::{Cylinder, SupportMap};
/// use nalgebra::Vector3;
/// let c = Cylinder::new(1.0, 0.5);
/// let p = c.support(&Vector3::new(0.0, -1.0, 1.0));
/// assert_eq!((p.y, p.z), (-1.0, 0.5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder<T> {
    /// Half the height (≥ 0).
    pub half_height: T,
    /// The radius (≥ 0).
    pub radius: T,
}

impl<T: Real> Cylinder<T> {
    /// The cylinder of half-height `half_height` and radius `radius`.
    ///
    /// # Panics
    /// If a parameter is negative or not finite; see [`try_new`](Self::try_new).
    #[must_use]
    pub fn new(half_height: T, radius: T) -> Self {
        Self::try_new(half_height, radius)
            .expect("Cylinder::new: parameters must be finite and >= 0")
    }

    /// The cylinder of half-height `half_height` and radius `radius`.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] naming the negative or non-finite parameter.
    pub fn try_new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        check_revolution(half_height, radius)?;
        Ok(Self {
            half_height,
            radius,
        })
    }
}

impl<T: Real> SupportMap<T, 3> for Cylinder<T> {
    #[inline]
    fn support(&self, d: &Vector3<T>) -> Point3<T> {
        let y = if d.y < T::zero() {
            -self.half_height
        } else {
            self.half_height
        };
        match rim(d, self.radius) {
            Some(xz) => Point3::new(xz.x, y, xz.y),
            None => Point3::new(T::zero(), y, T::zero()),
        }
    }
    revolution_methods!();
}
