//! [`Tolerances`]: the one home of every threshold the algorithms use.

use crate::{
    QueryError, Real,
    real::{lit, sqrt0},
};

/// Every threshold of every query, with defaults derived from the scalar's own epsilon
/// (`T::default_epsilon()`: one ulp of 1 for floats, one ulp for fixed-point), so `f32`,
/// `f64` and fixed-point each get sensible values. Override any field per call.
///
/// ```
/// use convex_proximity::Tolerances;
/// let t = Tolerances::<f64>::default();
/// assert!(t.gjk_rel > 0.0 && t.gjk_rel < 1e-12);
/// let loose = Tolerances { gjk_rel: 1e-6, ..Tolerances::<f64>::default() };
/// assert!(loose.validate().is_ok());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances<T> {
    /// GJK's relative gap ε_rel (unitless). Distance stops when
    /// `‖v‖ − μ ≤ ε_rel · ‖v‖`, where `‖v‖` is the upper and `μ` the lower bound of the
    /// distance: the reported distance is then within `ε_rel · distance` of the true one.
    /// Default `128 · ε` (f64: 2.8e-14, f32: 1.5e-5, FixedI40F24: 7.6e-6).
    /// Smaller costs iterations on curved shapes; polytopes usually stop earlier, on a
    /// repeated support point. Range `[0, 1)`.
    pub gjk_rel: T,
    /// GJK's touching tolerance (unitless, relative to the size of the simplex). The shapes
    /// count as touching (distance 0) once `‖v‖ ≤ gjk_touching · max|yᵢ|`, the `yᵢ` being the
    /// simplex vertices; a full simplex counts as containing the origin only if its point is
    /// that close (a flat one passes the sign test on rounding noise). Default `√ε / 16`
    /// (f64: 9.3e-10, f32: 2.2e-5, FixedI40F24: 1.5e-5): above the rounding of `v` in thin
    /// simplices, below the accuracy the library promises. Distances below that fraction of
    /// the shapes' size read as 0 (the result's `upper_bound` still says how far apart the
    /// witnesses are). Range `[0, 1)`.
    pub gjk_touching: T,
    /// GJK's iteration cap. A run that reaches it returns its best estimate and bounds with
    /// [`crate::Termination::MaxIterations`]. Default 128; must be at least 1.
    pub gjk_max_iterations: u32,
    /// EPA's relative gap (unitless). Penetration stops when the depth's bounds meet:
    /// `upper − lower ≤ epa_rel · upper + gjk_touching · scale`, where `lower` is the
    /// expanding polytope's distance to the origin and `upper` the smallest support value
    /// seen. Default `128 · ε` (f64: 2.8e-14, f32: 1.5e-5, FixedI40F24: 7.6e-6); polytopes
    /// usually stop earlier on a repeated support point. Range `[0, 1)`.
    pub epa_rel: T,
    /// EPA's cap on support evaluations. A run that reaches it returns the best face with
    /// its bounds and [`crate::Termination::MaxIterations`]. Default 1024: deep contacts of
    /// large, nearly round hulls (2000-vertex spheres) need several hundred to converge;
    /// boxes need about 10. At least 1.
    pub epa_max_iterations: u32,
    /// Manifolds: B's face takes the reference role from A's only when its normal is better
    /// aligned with the contact normal by more than this (a difference of cosines), so
    /// nearly parallel faces keep their roles from frame to frame (Box2D's relative
    /// tolerance, seed 004; docs/clipping.md §2). It changes which points are made, not how
    /// exact they are. Default 1/256. Range `[0, 1)`.
    pub manifold_reference_bias: T,
    /// Manifolds: a face is a reference only if the cosine between its normal and the
    /// contact normal is at least this (the projection along the contact normal divides by
    /// it); otherwise the manifold is the single contact point. Default 1/2 (60°). Range
    /// `(0, 1]`.
    pub manifold_min_alignment: T,
}

impl<T: Real> Default for Tolerances<T> {
    fn default() -> Self {
        // 128 ulps: room for the rounding of a few dot products and one division, the
        // arithmetic between a support point and the simplex solution (docs/tolerances.md).
        let eps = T::default_epsilon();
        let eps128 = eps * lit(128.0);
        Self {
            gjk_rel: eps128,
            gjk_touching: sqrt0(eps) / lit(16.0),
            gjk_max_iterations: 128,
            epa_rel: eps128,
            epa_max_iterations: 1024,
            manifold_reference_bias: lit(1.0 / 256.0),
            manifold_min_alignment: lit(0.5),
        }
    }
}

impl<T: Real> Tolerances<T> {
    /// Checks every field against its documented range.
    ///
    /// # Errors
    /// [`QueryError::InvalidTolerance`] naming the first field that is NaN, negative or
    /// out of range.
    pub fn validate(&self) -> Result<(), QueryError> {
        let unit = |x: T| x >= T::zero() && x < T::one();
        if !unit(self.gjk_rel) {
            return Err(QueryError::InvalidTolerance { field: "gjk_rel" });
        }
        if !unit(self.gjk_touching) {
            return Err(QueryError::InvalidTolerance {
                field: "gjk_touching",
            });
        }
        if self.gjk_max_iterations == 0 {
            return Err(QueryError::InvalidTolerance {
                field: "gjk_max_iterations",
            });
        }
        if !unit(self.epa_rel) {
            return Err(QueryError::InvalidTolerance { field: "epa_rel" });
        }
        if self.epa_max_iterations == 0 {
            return Err(QueryError::InvalidTolerance {
                field: "epa_max_iterations",
            });
        }
        if !unit(self.manifold_reference_bias) {
            return Err(QueryError::InvalidTolerance {
                field: "manifold_reference_bias",
            });
        }
        let a = self.manifold_min_alignment;
        if !(a > T::zero() && a <= T::one()) {
            return Err(QueryError::InvalidTolerance {
                field: "manifold_min_alignment",
            });
        }
        Ok(())
    }
}
