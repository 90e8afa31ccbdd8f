//! A shape under an affine map.

use super::{SupportMap, check_finite, extent_of};
use crate::{Real, ShapeError};
use nalgebra::{Point, SMatrix, SVector};

/// The image of `inner` under the affine map `x ↦ M·x + t`: rotations, translations,
/// non-uniform scales and shears (an ellipsoid is a scaled [`Ball`](super::Ball)). The
/// support map is `s(d) = M·s_inner(Mᵀ·d) + t` (van den Bergen 1999 §2).
///
/// When `M` is a similarity (`MᵀM = s²·I`: rotations, reflections, uniform scales) the
/// image of a rounded shape is rounded: its core is the image of the core and its radius
/// `s · r`, so GJK keeps running on the core.
///
/// ```
/// use convex_proximity::shape::{Ball, SupportMap, Transformed};
/// use nalgebra::{Vector3};
/// let ellipsoid = Transformed::scaled(Ball::new(1.0), Vector3::new(3.0, 2.0, 1.0));
/// assert_eq!(ellipsoid.support(&Vector3::new(1.0, 0.0, 0.0)).x, 3.0);
/// assert_eq!(ellipsoid.radius(), 0.0); // not a similarity: no round part
/// let bigger = Transformed::scaled(Ball::new(1.0), Vector3::new(2.0, 2.0, 2.0));
/// assert_eq!(bigger.radius(), 2.0); // a uniform scale keeps the ball a ball
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transformed<S, T: Real, const D: usize> {
    /// The shape being mapped.
    pub inner: S,
    linear: SMatrix<T, D, D>,
    translation: SVector<T, D>,
    /// `s` when `M` is a similarity with `MᵀM = s²·I`.
    similarity: Option<T>,
}

/// `s` if `MᵀM = s²·I` to within a few ulps per entry (relative to `s²`), else `None`
/// (also when `MᵀM` overflows: an infinite `s²` passed every comparison and made the
/// radius infinite).
fn similarity_scale<T: Real, const D: usize>(m: &SMatrix<T, D, D>) -> Option<T> {
    if crate::real::is_fixed::<T>() {
        // Fixed-point: `MᵀM` (entries up to D·max|Mᵢⱼ|²) must not wrap.
        let big = m.iter().fold(0.0f64, |s, x| s.max(super::f64_of(*x)));
        let max = T::max_value().map_or(f64::INFINITY, super::f64_of);
        if !(big * big * (D as f64) < max / crate::tolerance::range::GRAM_SUMS) {
            return None;
        }
    }
    let g = m.tr_mul(m);
    let s2 = g[(0, 0)];
    if !(s2 > T::zero()) || !s2.is_finite() {
        return None;
    }
    // The rounding of a product of rotation matrix entries, relative to s².
    let slack = s2 * crate::tolerance::ulps::<T>(crate::tolerance::allowance::GRAM_ENTRY);
    for i in 0..D {
        for j in 0..D {
            let want = if i == j { s2 } else { T::zero() };
            if (g[(i, j)] - want).abs() > slack {
                return None;
            }
        }
    }
    Some(crate::real::sqrt0(s2))
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
        let similarity = similarity_scale(&linear);
        Ok(Self {
            inner,
            linear,
            translation,
            similarity,
        })
    }

    /// `inner` scaled by `scale` along the axes.
    ///
    /// # Panics
    /// If a factor is not finite; see [`try_scaled`](Self::try_scaled).
    #[must_use]
    pub fn scaled(inner: S, scale: SVector<T, D>) -> Self {
        Self::try_scaled(inner, scale).expect("Transformed::scaled: non-finite scale")
    }

    /// `inner` scaled by `scale` along the axes.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (index 0) if a factor is NaN or infinite.
    pub fn try_scaled(inner: S, scale: SVector<T, D>) -> Result<Self, ShapeError> {
        Self::try_new(inner, SMatrix::from_diagonal(&scale), SVector::zeros())
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

    /// `s` when `M` is a similarity (`MᵀM = s²·I`), else `None`.
    #[must_use]
    pub fn similarity(&self) -> Option<T> {
        self.similarity
    }
}

/// `Mᵀ·d`, the inner shape's direction. Fixed-point scales it to `|·|∞ = 1` (a direction's
/// length does not change its support point): nested maps would otherwise multiply their
/// scales into the direction until the inner shape's squared norms wrap (a cone inside two
/// maps scaled by 300 overflowed `‖d‖²`). Floats skip it (constant-folded).
#[inline]
fn inner_dir<T: Real, const D: usize>(m: &SMatrix<T, D, D>, d: &SVector<T, D>) -> SVector<T, D> {
    let v = m.tr_mul(d);
    if crate::real::is_fixed::<T>() {
        let a = v.amax();
        if a > T::one() {
            return v / a;
        }
    }
    v
}

impl<T: Real, const D: usize, S: SupportMap<T, D>> SupportMap<T, D> for Transformed<S, T, D> {
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let local = self.inner.support(&inner_dir(&self.linear, dir));
        Point::from(self.linear * local.coords + self.translation)
    }
    #[inline]
    fn radius(&self) -> T {
        match self.similarity {
            Some(s) => s * self.inner.radius(),
            None => T::zero(),
        }
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        if self.similarity.is_none() {
            return self.support(dir);
        }
        let local = self.inner.core_support(&inner_dir(&self.linear, dir));
        Point::from(self.linear * local.coords + self.translation)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        // The core's centre: the image of the inner centre (a core point when `M` is a
        // similarity; the whole shape is the core otherwise).
        Point::from(self.linear * self.inner.center().coords + self.translation)
    }
    #[inline]
    fn validate(&self) -> Result<(), ShapeError> {
        self.inner.validate()
    }
    /// `‖M‖∞ · extent(inner) + |t|∞` (every image coordinate), and at least the largest
    /// column sum of `|M|`, which bounds `Mᵀ·d` for `|d|∞ ≤ 1`: a fixed-point query with
    /// directions up to its range then keeps every product inside the type.
    fn extent(&self) -> f64 {
        // Absolute row and column sums (signed ones missed −300·I), and the inner shape's
        // own extent: it computes its support in its own numbers (a 1e6 cone inside two
        // 1e-3 scales overflowed its `‖(r, 2h)‖` in fixed-point).
        let m = self.linear.map(|x| super::f64_of(x).abs());
        let rows = (0..D).fold(0.0f64, |s, i| s.max(m.row(i).sum()));
        let cols = (0..D).fold(0.0f64, |s, j| s.max(m.column(j).sum()));
        let inner = self.inner.extent();
        let image = rows * inner + extent_of(&self.translation);
        image.max(cols).max(inner)
    }
}
