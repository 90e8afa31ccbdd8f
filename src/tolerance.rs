//! [`Tolerances`]: the one home of every threshold the algorithms use.

use crate::{QueryError, Real, real::lit};

/// Every threshold of every query, with defaults derived from the scalar's own epsilon
/// (`T::default_epsilon()`: one ulp of 1 for floats, one ulp for fixed-point), so `f32`,
/// `f64` and fixed-point each get sensible values. Each threshold is read by the method
/// named after it and set by its `with_` method, which checks the documented range: a
/// `Tolerances` value is valid by construction (and by deserialisation), so queries do not
/// check it again (docs/tolerances.md).
///
/// ```
/// use convex_proximity::{QueryError, Tolerances};
/// let t = Tolerances::<f64>::default();
/// assert!(t.gjk_rel() > 0.0 && t.gjk_rel() < 1e-12);
/// let loose = t.with_gjk_rel(1e-6)?.with_epa_rel(1e-6)?;
/// assert_eq!(loose.gjk_rel(), 1e-6);
/// assert_eq!(
///     t.with_gjk_rel(f64::NAN),
///     Err(QueryError::InvalidTolerance { field: "gjk_rel" })
/// );
/// # Ok::<(), QueryError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances<T> {
    pub(crate) gjk_rel: T,
    pub(crate) gjk_touching: T,
    pub(crate) gjk_resolution: T,
    pub(crate) gjk_subalgorithm: Subalgorithm,
    pub(crate) gjk_criterion: Criterion,
    pub(crate) gjk_abs: T,
    pub(crate) gjk_acceleration: Acceleration,
    pub(crate) gjk_momentum_accuracy: T,
    pub(crate) gjk_max_iterations: u32,
    pub(crate) epa_rel: T,
    pub(crate) epa_max_iterations: u32,
    pub(crate) manifold_reference_bias: T,
    pub(crate) manifold_min_alignment: T,
}

impl<T: Real> Default for Tolerances<T> {
    fn default() -> Self {
        // 128 ulps: room for the rounding of a few dot products and one division, the
        // arithmetic between a support point and the simplex solution (docs/tolerances.md).
        let eps = T::default_epsilon();
        let eps128 = eps * lit(128.0);
        Self {
            gjk_rel: eps128,
            gjk_touching: eps * lit(8.0),
            gjk_resolution: if crate::real::is_fixed::<T>() {
                eps * lit(16.0)
            } else {
                T::zero()
            },
            gjk_subalgorithm: Subalgorithm::Auto,
            gjk_criterion: Criterion::RelativeGap,
            gjk_abs: eps * lit(8.0),
            gjk_acceleration: Acceleration::None,
            gjk_momentum_accuracy: lit(0.25),
            gjk_max_iterations: 128,
            epa_rel: eps128,
            epa_max_iterations: 1024,
            manifold_reference_bias: lit(1.0 / 256.0),
            manifold_min_alignment: lit(0.5),
        }
    }
}

/// The ranges of [`Tolerances`]' fields, one test each (NaN fails every test of a scalar).
mod valid {
    use crate::Real;

    /// `[0, 1)`.
    pub(super) fn unit<T: Real>(x: T) -> bool {
        x >= T::zero() && x < T::one()
    }

    /// `[0, 1]`.
    pub(super) fn closed_unit<T: Real>(x: T) -> bool {
        x >= T::zero() && x <= T::one()
    }

    /// `(0, 1]`.
    pub(super) fn alignment<T: Real>(x: T) -> bool {
        x > T::zero() && x <= T::one()
    }

    /// A length: `[0, ∞)`, finite (NaN fails the first comparison, +∞ the second).
    pub(super) fn length<T: Real>(x: T) -> bool {
        x >= T::zero() && T::max_value().is_none_or(|m| x <= m)
    }

    /// An iteration cap: at least 1.
    pub(super) fn at_least_one(n: u32) -> bool {
        n != 0
    }

    /// A choice among an enum's variants: every one is valid.
    pub(super) fn any<E>(_: E) -> bool {
        true
    }
}

/// For each field of [`Tolerances`]: its getter, carrying the field's documentation, and
/// its `with_` setter, which checks the field's range ([`valid`]); and the check of every
/// field, for values that did not come through the setters (deserialised ones).
macro_rules! settings {
    ($($(#[doc = $doc:literal])* $name:ident / $with:ident: $ty:ty, $range:ident;)*) => {
        impl<T: Real> Tolerances<T> {
            $(
                $(#[doc = $doc])*
                #[must_use]
                #[inline]
                pub fn $name(&self) -> $ty {
                    self.$name
                }

                #[doc = concat!("These tolerances with [`Tolerances::", stringify!($name), "`] set to `value`.")]
                ///
                /// # Errors
                /// [`QueryError::InvalidTolerance`] naming the field when `value` is out of
                /// its range (NaN included); the tolerances are then unchanged.
                pub fn $with(mut self, value: $ty) -> Result<Self, QueryError> {
                    if !valid::$range(value) {
                        return Err(QueryError::InvalidTolerance { field: stringify!($name) });
                    }
                    self.$name = value;
                    Ok(self)
                }
            )*

            /// The first field out of its range, as its setter would name it: the check of
            /// a deserialised value (`serial`).
            #[cfg(any(feature = "serde", test))]
            pub(crate) fn check(&self) -> Result<(), QueryError> {
                $(
                    if !valid::$range(self.$name) {
                        return Err(QueryError::InvalidTolerance { field: stringify!($name) });
                    }
                )*
                Ok(())
            }
        }
    };
}

settings! {
    /// GJK's relative gap ε_rel (unitless). Distance stops when
    /// `‖v‖ − μ ≤ ε_rel · ‖v‖`, where `‖v‖` is the upper and `μ` the lower bound of the
    /// distance: the reported distance is then within `ε_rel · distance` of the true one.
    /// Default `128 · ε` (f64: 2.8e-14, f32: 1.5e-5, FixedI40F24: 7.6e-6).
    /// Smaller costs iterations on curved shapes; polytopes usually stop earlier, on a
    /// repeated support point. Range `[0, 1)`.
    gjk_rel / with_gjk_rel: T, unit;
    /// The rounding of the arithmetic, per unit of the coordinates involved (unitless): a
    /// distance or a gap below `gjk_touching · M + gjk_resolution`, `M` being the largest
    /// coordinate of any support point of the run (in A's frame), is rounding. GJK then
    /// stops `Touching` (distance 0, the `upper_bound` still saying how far apart the
    /// witnesses are), and a lower bound proves separation only beyond it. `M` includes
    /// the shapes' centres, so it covers the translation that placed B. Default `8 ε`
    /// (f64: 1.8e-15, f32: 9.5e-7, FixedI40F24: 4.8e-7): the rounding of composing two
    /// poses, placing a support point by the result and a few dot products
    /// (docs/tolerances.md). Larger values make pairs closer than the band "touching".
    /// Range `[0, 1)`.
    gjk_touching / with_gjk_touching: T, unit;
    /// The absolute resolution added to the band (a length). Default 0 for floats; 16 ulps
    /// for fixed-point (FixedI40F24: 9.5e-7), whose products round to an absolute ulp.
    /// Range `[0, ∞)`.
    gjk_resolution / with_gjk_resolution: T, length;
    /// Which closest-point subalgorithm GJK uses (docs/gjk.md §2). Default
    /// [`Subalgorithm::Auto`].
    gjk_subalgorithm / with_gjk_subalgorithm: Subalgorithm, any;
    /// When GJK stops (docs/gjk.md §6: each criterion with the bound it proves). Default
    /// [`Criterion::RelativeGap`], the stop `gjk_rel` describes.
    gjk_criterion / with_gjk_criterion: Criterion, any;
    /// GJK's absolute threshold ε_abs (a length), read by [`Criterion::AbsoluteGap`]
    /// (`‖v‖ − μ ≤ ε_abs`: the distance within ε_abs) and [`Criterion::AbsoluteDualityGap`]
    /// (`g ≤ ε_abs²`: the closest point within ε_abs). Default `8 ε` (f64: 1.8e-15, f32:
    /// 9.5e-7, FixedI40F24: 4.8e-7), the touching band per unit coordinate: at unit scale
    /// the criterion then stops at the rounding. A threshold below the rounding band is
    /// the band: no criterion claims more than the arithmetic. Range `[0, ∞)`.
    gjk_abs / with_gjk_abs: T, length;
    /// GJK's search direction (docs/gjk.md §7). Default [`Acceleration::None`]: the
    /// current closest point `v`, van den Bergen's GJK.
    gjk_acceleration / with_gjk_acceleration: Acceleration, any;
    /// The accuracy `κ` a momentum step of [`Tolerances::gjk_acceleration`] must keep
    /// (unitless; docs/gjk.md §7): its descent along `v`, `q = ‖v‖ − v̂·w`, at least `κ`
    /// times the gap its own plane certifies, `g_d = ‖v‖ − d̂·w`, or the momentum is
    /// switched off for the rest of the run. Every kept step then has
    /// `v·(v − w) ≥ κ (½‖v‖² − ½dist²)`, the decrease Frank–Wolfe's convergence proof
    /// needs, weakened by `κ`; a direction lagging behind `v` fails it (without the test
    /// far ellipsoids converged sublinearly, capped at 128 iterations where plain GJK
    /// takes 16: docs/experiments.md §3.1). Larger costs momentum steps near contact,
    /// smaller leaves far pairs slower. Read only when `gjk_acceleration` is not
    /// [`Acceleration::None`]. Default 1/4. Range `[0, 1]`.
    gjk_momentum_accuracy / with_gjk_momentum_accuracy: T, closed_unit;
    /// GJK's iteration cap. A run that reaches it returns its best estimate and bounds with
    /// [`crate::Termination::MaxIterations`]. Default 128; must be at least 1.
    gjk_max_iterations / with_gjk_max_iterations: u32, at_least_one;
    /// EPA's relative gap (unitless). Penetration stops when the depth's bounds meet:
    /// `upper − lower ≤ epa_rel · upper + gjk_touching · scale`, where `lower` is the
    /// expanding polytope's distance to the origin and `upper` the smallest support value
    /// seen. Default `128 · ε` (f64: 2.8e-14, f32: 1.5e-5, FixedI40F24: 7.6e-6); polytopes
    /// usually stop earlier on a repeated support point. Range `[0, 1)`.
    epa_rel / with_epa_rel: T, unit;
    /// EPA's cap on support evaluations. A run that reaches it returns the best face with
    /// its bounds and [`crate::Termination::MaxIterations`]. Default 1024: deep contacts of
    /// large, nearly round hulls (2000-vertex spheres) need several hundred to converge;
    /// boxes need about 10. At least 1.
    epa_max_iterations / with_epa_max_iterations: u32, at_least_one;
    /// Manifolds: B's face takes the reference role from A's only when its normal is better
    /// aligned with the contact normal by more than this (a difference of cosines), so
    /// nearly parallel faces keep their roles from frame to frame (Box2D's relative
    /// tolerance; docs/clipping.md §2). It changes which points are made, not how
    /// exact they are. Default 1/256. Range `[0, 1)`.
    manifold_reference_bias / with_manifold_reference_bias: T, unit;
    /// Manifolds: a face is a reference only if the cosine between its normal and the
    /// contact normal is at least this (the projection along the contact normal divides by
    /// it); otherwise the manifold is the single contact point. Default 1/2 (60°). Range
    /// `(0, 1]`.
    manifold_min_alignment / with_manifold_min_alignment: T, alignment;
}

/// The closest-point subalgorithm of GJK's simplex (docs/gjk.md §2).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "SubalgorithmDef"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Subalgorithm {
    /// Signed volumes for `D ≤ 3`, Johnson's subalgorithm for `D ≥ 4`.
    #[default]
    Auto,
    /// Johnson's subalgorithm with cached determinants (van den Bergen 1999), any `D`.
    Johnson,
    /// Signed volumes (Montanari, Petrinic, Barbieri 2017) for `D ≤ 3`; in higher
    /// dimensions Johnson's.
    SignedVolumes,
}

/// GJK's stopping criterion (docs/gjk.md §6). `v` is the current closest point (upper
/// bound `‖v‖`), `μ` the best separating-plane bound so far (lower bound), and
/// `g = v·(v − w)` the Frank–Wolfe duality gap, `w = s(−v)` the support point along `v`
/// itself. Under every criterion a gap within the rounding band also stops the run
/// ([`Tolerances::gjk_touching`]), and every reported bound is widened by that band.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Criterion {
    /// `‖v‖ − μ ≤ gjk_rel · ‖v‖`: the distance within `gjk_rel · ‖v‖` of the truth.
    /// Distance only: the intersection test runs to a proof (a relative resolution of the
    /// cores' distance says nothing about its sign against the radii).
    #[default]
    RelativeGap,
    /// `‖v‖ − μ ≤ gjk_abs`: the distance within `gjk_abs`. The intersection test stops too,
    /// answering `intersects` (distance at most `gjk_abs` beyond touching) unless it proved
    /// the shapes apart.
    AbsoluteGap,
    /// `g ≤ gjk_rel · ‖v‖²` (Montaut et al. 2024, relative form): the plane of the current
    /// support alone proves the distance within `gjk_rel · ‖v‖`, and the closest point `v`
    /// is within `√gjk_rel · ‖v‖` of the true one. Distance only, as
    /// [`Criterion::RelativeGap`].
    DualityGap,
    /// `g ≤ gjk_abs²` (Montaut et al. 2024, absolute form): the closest point `v` within
    /// `gjk_abs` of the true one, and so the distance. The intersection test stops as with
    /// [`Criterion::AbsoluteGap`].
    AbsoluteDualityGap,
}

/// GJK's search direction (docs/gjk.md §7; Montaut, Le Lidec, Petrik, Sivic, Carpentier,
/// RSS 2022 and IEEE T-RO 2024). Momentum only changes where GJK looks: the lower bound
/// still comes from a support point along the direction actually queried, and the
/// momentum is switched off for the rest of the run as soon as its support point fails to
/// promise progress, so convergence is certified by plain GJK steps.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Acceleration {
    /// The current closest point `v` (van den Bergen 1999).
    #[default]
    None,
    /// Nesterov momentum, `d_k = δ_k d_{k−1} + (1 − δ_k) y_k`,
    /// `y_k = δ_k v_k + (1 − δ_k) w_{k−1}`, `δ_k = (k + 1)/(k + 3)`: the update of the
    /// paper for strictly convex shapes (ellipsoids, rounded cores).
    Nesterov,
    /// Nesterov momentum with the normalised update for polytopes:
    /// `d_k = δ_k d̂_{k−1} + (1 − δ_k) ŷ_k`, `δ_k = (k + 2)/(k + 3)`.
    NesterovNormalized,
    /// Polyak's heavy ball as in coal: `d_k = δ_k d_{k−1} + (1 − δ_k) v_k`,
    /// `δ_k = 1/(k + 1)`.
    Polyak,
}

/// The rounding thresholds of one run, derived from [`Tolerances::gjk_touching`] and
/// [`Tolerances::gjk_resolution`] as named multiples (docs/tolerances.md §"Rounding").
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rounding<T> {
    /// Rounding per unit coordinate.
    rel: T,
    /// Absolute resolution.
    abs: T,
}

/// Whether a pair of bounds met by GJK's default stop ([`Criterion::RelativeGap`]): their
/// `gap` within the rounding `band`, or within `gjk_rel` of the `upper` bound.
#[inline]
pub(crate) fn bounds_met<T: Real>(tol: &Tolerances<T>, gap: T, upper: T, band: T) -> bool {
    gap <= band || gap <= tol.gjk_rel * upper
}

impl<T: Real> Rounding<T> {
    pub(crate) fn of(tol: &Tolerances<T>) -> Self {
        Self {
            rel: tol.gjk_touching,
            abs: tol.gjk_resolution,
        }
    }

    /// The touching band at coordinates of magnitude `m`.
    #[inline]
    pub(crate) fn band(&self, m: T) -> T {
        self.rel * m + self.abs
    }

    /// How far below 0 a barycentric coordinate may round: `D + 1` terms.
    #[inline]
    pub(crate) fn barycentric(&self, d: usize) -> T {
        self.rel * lit::<T>((d + 1) as f64)
    }

    /// The rounding of `v·y − v·v` over `D + 1` products, `v` of largest component `v_max`,
    /// vertices of size `m`.
    #[inline]
    pub(crate) fn optimality(&self, v_max: T, m: T, d: usize) -> T {
        (self.rel * v_max * lit::<T>((d + 1) as f64) + self.abs) * m
    }

    /// Fixed point: the rounding of `u·v·(y − v)`, `u` the power of two that brought `v`
    /// to unit size (`|u·v|∞ < 2`), vertices of size `m`: `v`'s error (`abs` per
    /// component) magnified by `u`, times `m`, and the products' own rounding, an absolute
    /// ulp each whatever `m` and `u` (`abs` covers the `D` of them).
    #[inline]
    pub(crate) fn optimality_scaled(&self, u: T, m: T, d: usize) -> T {
        (self.rel * lit::<T>(2.0 * (d + 1) as f64) + self.abs * u) * m + self.abs
    }

    /// How thin a simplex of vertices of size `m` may be and still count as flat: 4 times
    /// the rounding of a residual. Calling a sliver flat costs at most its thickness in
    /// depth (a touching answer); calling a flat set a volume gives EPA a simplex of noise
    /// (the faces of two coplanar flat boxes placed by f64 poses were 7 ulps apart).
    #[inline]
    pub(crate) fn flat(&self, m: T, d: usize) -> T {
        self.residual(m, d) * lit::<T>(4.0)
    }

    /// The rounding of a residual `Σ λᵢ yᵢ` over `D + 1` vertices of size `m`.
    #[inline]
    pub(crate) fn residual(&self, m: T, d: usize) -> T {
        self.rel * m * lit::<T>((d + 1) as f64) + self.abs
    }
}

/// `k` ulps of the scalar: `k · ε` with `ε = T::default_epsilon()` (one ulp of 1 for
/// floats, one absolute ulp for fixed-point).
#[inline]
pub(crate) fn ulps<T: Real>(k: f64) -> T {
    T::default_epsilon() * lit::<T>(k)
}

/// The rounding allowances that are not [`Tolerances`] fields, in ulps ([`ulps`]): each
/// bounds the rounding of one piece of arithmetic, named after it (docs/tolerances.md
/// §"Allowances"). They are not settings: smaller, rounding would pass for a result;
/// larger, a result would pass for rounding. What a user may choose is in [`Tolerances`]
/// (the touching band and the relative gaps that [`Rounding`] multiplies).
pub(crate) mod allowance {
    /// A manifold point against the contact it refines, per unit of the coordinates: a
    /// clipped pair is a few dot products and one division away from the support points
    /// (`query::manifold`, docs/clipping.md §2).
    pub(crate) const CLIPPED_PAIR: f64 = 256.0;
    /// The same, absolute, in fixed-point, whose products round to an absolute ulp.
    pub(crate) const CLIPPED_PAIR_FIXED: f64 = 64.0;
    /// `MᵀM` against `s²·I` for a similarity: the rounding of a product of rotation
    /// matrix entries, relative to `s²` (`shape::Transformed`).
    pub(crate) const GRAM_ENTRY: f64 = 64.0;
    /// `|RᵀR − I|` per entry of a rigid pose: `max(√ε / RIGID_SQRT_DIVISOR, RIGID · ε)`
    /// (`pose`: f64 1.2e-10, f32 3.1e-5, FixedI40F24 1.5e-5).
    pub(crate) const RIGID: f64 = 256.0;
    /// See [`RIGID`].
    pub(crate) const RIGID_SQRT_DIVISOR: f64 = 128.0;
    /// A unit vector's component that is rounding, not direction (Gram–Schmidt on unit
    /// directions, `pair::orthogonal`).
    pub(crate) const UNIT_COMPONENT: f64 = 16.0;
    /// A bounding box's pad per unit of its scale, per coordinate term: `D + 1` terms of
    /// a few products each (`bound`).
    pub(crate) const BOX_PAD_PER_TERM: f64 = 8.0;
    /// A swept box's pad per unit of its scale: the sampled poses' products and the chord
    /// bound (`bound::swept`).
    pub(crate) const SWEPT_PAD: f64 = 64.0;
    /// A polygon's points off the line of its two extreme points by at most this, per unit
    /// of their distance, are on it: the feature is that segment (`clip::feature`).
    pub(crate) const FLAT_POLYGON: f64 = 64.0;
    /// `|e_i × R_j|` of a box pair's edge cross at most this is parallel edges to rounding:
    /// the axis is skipped (`clip::boxes`, compared squared).
    pub(crate) const PARALLEL_EDGES_CLIP: f64 = 8.0;
    /// The same test in the closed-form box pair (`pair::boxes`): one ulp.
    pub(crate) const PARALLEL_EDGES_PAIR: f64 = 1.0;
    /// A point against a 2D box's slab `|ν·(x − t)| ≤ b·det R` in the closed-form box
    /// pair (`pair::boxes`, the first box's vertex in the second), per unit of the
    /// coordinates: four products and three sums, and the half-width `b·det R`, within 5
    /// ulps; a point that passes with this much to spare is inside the box exactly.
    pub(crate) const SLAB_TEST: f64 = 8.0;
    /// A face normal `e₁ × e₂` turned by its edges' rounding, per unit of the vertices'
    /// size times the perimeter over the doubled area (`epa::polytope3`, a needle face).
    pub(crate) const FACE_NORMAL: f64 = 4.0;
    /// An edge of a simplex, less its components along the edges before it, at most this
    /// per unit of its vertices' size is dependent on them: Gram–Schmidt on the edges
    /// skips it (`cast::sweep`, the facet normal).
    pub(crate) const INDEPENDENT_EDGE: f64 = 1024.0;
    /// The reach of a rotation about a shape's centre, relative and absolute: the
    /// rounding of the support values and the division by the net's cosine
    /// (`cast::motion::core_reach`).
    pub(crate) const CORE_REACH: f64 = 64.0;
}

/// The fixed-point range budgets and the float square floors: how far below the type's
/// largest value (or above its smallest normal) the algorithms keep their coordinates, so
/// that the sums of products they form cannot wrap (fixed-point) or square to zero
/// (floats). Each divides or multiplies a range, not an ulp (docs/tolerances.md
/// §"Allowances").
pub(crate) mod range {
    /// Products of two coordinates, summed up to this many times (dot products, the
    /// support of a placed shape): a fixed-point coordinate is at most `√max / PRODUCT_SUMS`
    /// (`input::fixed_extent_limit`, FixedI40F24: 46341).
    pub(crate) const PRODUCT_SUMS: f64 = 16.0;
    /// Johnson's determinants (degree `2D`, sums of a few products) stay below
    /// `max / DETERMINANT_SUMS` (`gjk::run::coordinate_limit`).
    pub(crate) const DETERMINANT_SUMS: f64 = 64.0;
    /// `MᵀM` of a fixed-point linear map: `D · max|Mᵢⱼ|²` below `max / GRAM_SUMS`
    /// (`shape::Transformed`).
    pub(crate) const GRAM_SUMS: f64 = 4.0;
    /// A fixed-point margin is capped at this many coordinate ranges
    /// ([`PRODUCT_SUMS`]'s limit): no two shapes in range are that far apart, and adding
    /// the radii cannot wrap (`query::distance_within`).
    pub(crate) const MARGIN_EXTENTS: f64 = 16.0;
    /// The closed forms' floor on a float coordinate's magnitude: `√(smallest normal) / ε`,
    /// so that `(ε·m)²` stays a normal number (`pair::in_range`). f32.
    pub(crate) const SQUARE_FLOOR_F32: f64 = 1e-12;
    /// The same for f64.
    pub(crate) const SQUARE_FLOOR_F64: f64 = 1e-138;
    /// `‖v‖²` below this takes the scaled path in `real::normalize`: the smallest normal
    /// over `ε`, so that every square term above `ε·‖v‖²` is a normal number. f32
    /// (`1.18e-38 / 1.19e-7`).
    pub(crate) const NORM_SQUARE_FLOOR_F32: f64 = 1e-31;
    /// The same for f64 (`2.2e-308 / 2.2e-16`).
    pub(crate) const NORM_SQUARE_FLOOR_F64: f64 = 1e-291;
    /// An epsilon above this is f32's (or coarser): [`SQUARE_FLOOR_F32`] applies.
    pub(crate) const COARSE_EPSILON: f64 = 1e-10;
    /// Floats: the signed volumes (degree 3) are formed as they are for a simplex whose
    /// largest coordinate is within `[1 / SIGNED_VOLUME_RANGE, SIGNED_VOLUME_RANGE]`
    /// (2³⁰); outside it, scaled by a power of two to unit size
    /// (`linalg::pow2_scale`).
    pub(crate) const SIGNED_VOLUME_RANGE: f64 = 1_073_741_824.0;
}

/// The unitless factors and counts that are neither rounding nor range: a feature's tilt,
/// a count of bands, a cap on rounds (docs/tolerances.md §"Allowances").
pub(crate) mod factor {
    /// A direction whose component along a feature is at most `1 / FEATURE_TILT` of the
    /// feature's length (≈0.9°) is taken as perpendicular to it: both ends of a segment
    /// touch, a cylinder's side or cap faces it ([`super::within_tilt`], `clip::feature`).
    pub(crate) const FEATURE_TILT: f64 = 64.0;
    /// A witness pair lies along a box axis at its separation when `q − p − L·n` is within
    /// this many touching bands: the tilt of a feature taken as flat and the rounding of
    /// the clip (`pair::boxes`).
    pub(crate) const WITNESS_BANDS: f64 = 4.0;
    /// EPA's `grow` (a simplex grown to contain the origin) tries at most this many rounds
    /// per vertex of the `D`-simplex, `GROW_ROUNDS_PER_VERTEX · (D + 1)` (`epa::grow`).
    pub(crate) const GROW_ROUNDS_PER_VERTEX: usize = 16;
    /// EPA 3D's start replaces a vertex of its simplex at most this many times to get the
    /// origin inside; then the contact is touching across the nearest face
    /// (`epa::polytope3`).
    pub(crate) const CONTAIN_ROUNDS: usize = 16;
    /// The closed forms of the box and round pairs stand in for GJK and EPA only when
    /// both caps are at least this (boxes take about 10 support points): a lower cap is a
    /// request the general path honours as documented (`pair::honours`).
    pub(crate) const CLOSED_FORM_MIN_ITERATIONS: u32 = 32;
    /// A linear cast's probe moves B this many touching bands along the motion to tell a
    /// grazing contact from an approach (`cast::linear`).
    pub(crate) const PROBE_BANDS: f64 = 64.0;
    /// Float sweeps take the plane test on the facet normal (not on `v`) within this many
    /// touching bands of the margin, where `v`'s rounding (ε·size) could tilt the plane by
    /// more than the band (`cast::sweep`; 2¹⁶).
    pub(crate) const FACET_NORMAL_BANDS: f64 = 65536.0;
    /// A fixed-point sweep that stalls, after its restart, within this many touching bands
    /// of the margin has reached it: its resolution there (docs/casts.md §1,
    /// `cast::sweep`).
    pub(crate) const FIXED_STALL_BANDS: f64 = 16.0;
    /// Conservative advancement converges linearly: it stops within this many touching
    /// bands of the margin, where a step would gain less (`cast::toi`).
    pub(crate) const TOI_ACCURACY_BANDS: f64 = 16.0;
    /// A time of impact whose gap to the margin moved by less than a touching band over
    /// this many steps has stalled (a tangential approach) and probes ahead (`cast::toi`).
    pub(crate) const TOI_STALL_STEPS: u32 = 16;
    /// Distances a stalled time of impact probes ahead (doubling its look-ahead from 16
    /// ulps of the time: f64 reaches a unit horizon in 48), and at most as many again
    /// bisecting the bracket it found (`cast::toi`, `Pair::bracket`).
    pub(crate) const BRACKET_PROBES: u32 = 64;
    /// Doublings of a `μ` step (or halvings of a quarter turn) tried with the chord bound
    /// (`cast::arc`, `Plane::longest_step`).
    pub(crate) const CHORD_TRIES: u32 = 16;
    /// Bisections of the step between the longest the chord bound proves and the shortest
    /// it does not (`cast::arc`): within 1/16 of the longest, from the doubling's factor 2.
    pub(crate) const CHORD_REFINE: u32 = 4;
}

/// The thresholds of the hull construction and of polytope support queries
/// (`shape::hull`, `shape::polytope`), which work in `f64` on the input scaled to unit size
/// (docs/hull.md; docs/tolerances.md §"Allowances").
pub(crate) mod hull {
    /// The tolerance factors of the construction attempts: a hull whose checks fail is built
    /// again with every tolerance 16 times coarser (more points within a facet's tolerance,
    /// fewer near-degenerate facets), then 256 times; a third failure is an error.
    pub(crate) const RETRIES: [f64; 3] = [1.0, 16.0, 256.0];

    /// The rounding of a plane's distance from a point in the `f64` arithmetic here, per
    /// unit of `|c − a| |x − a| / h + |x − a|` for the plane through `a, b, c` (`h` = the
    /// height of `c` over the line `ab`): the cross product's few ulps of `|b − a| |c − a|`
    /// turn its direction by `ε |c − a| / h`.
    pub(crate) const PLANE_ROUNDING: f64 = 8.0 * f64::EPSILON;

    /// Triangles with `|(u − o) × (w − o)| < SLIVER |u − o| |w − o|` (an angle below about
    /// 1e-3 at `o`) get their normal in double-double arithmetic.
    pub(crate) const SLIVER: f64 = 1.0 / 1024.0;

    /// Sanity net: a point found more than `LOST` tolerances in front of a facet plane of
    /// the finished hull, or a reflex edge that deep, means the construction broke (3D:
    /// `LOST · tol.round`; 2D: `LOST · tol.plane`). Points are left out only when within the
    /// tolerance of a facet, but a small facet's plane,
    /// extrapolated across a large coplanar face, carries the input's rounding times the
    /// ratio of the face's size to the facet's height (measured: 4·tol.plane at 1.5 units
    /// from a 0.2 × 0.005 facet of a rotated prism's cap, f64), hence the wide margin.
    pub(crate) const LOST: f64 = 1024.0;

    /// Facet tolerance in units of the input's resolution (`ε · scale`): 16 ulps covers the
    /// rounding of the input coordinates and of the f64 orientation tests with room to spare.
    pub(crate) const PLANE_ULPS: f64 = 16.0;

    /// Seeded climbs (points on the unit sphere) skip the seeds when the warm start is within
    /// this cosine of the direction (26°): a slowly turning direction then pays nothing for
    /// them, while an unrelated one starts from the best seed.
    pub(crate) const SEED_COS: f64 = 0.9;

    /// Fixed-point: directions with `|d|∞` below this fall back to brute force (the absolute
    /// rounding of each product, one ulp, is then no longer small against the gaps between
    /// interior and hull points that the graph relies on).
    pub(crate) const FIXED_MIN_DIR: f64 = 1.0 / 1024.0;
}

/// Whether `|small| · FEATURE_TILT ≤ |large|`: within [`factor::FEATURE_TILT`]'s tilt of
/// perpendicular (a product, not a quotient: exact for the power of two).
#[inline]
pub(crate) fn within_tilt<T: Real>(small: T, large: T) -> bool {
    small.abs() * lit::<T>(factor::FEATURE_TILT) <= large.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every setter against its range, at the range's ends and beyond, in one scalar; and
    /// `check` (the deserialised path) naming the same field as the setter.
    fn setters_keep_the_ranges<T: Real>() {
        let t = Tolerances::<T>::default();
        assert_eq!(t.check(), Ok(()));
        let float = !crate::real::is_fixed::<T>();
        // NaN and ∞ only where the scalar has them (a fixed-point division by 0 panics).
        let (nan, inf) = if float {
            (T::zero() / T::zero(), T::one() / T::zero())
        } else {
            (T::zero(), T::zero())
        };
        let bad = |r: Result<Tolerances<T>, QueryError>, field: &'static str| {
            assert_eq!(r, Err(QueryError::InvalidTolerance { field }));
        };
        let (zero, one, tiny) = (T::zero(), T::one(), T::default_epsilon());
        for (field, set) in [
            ("gjk_rel", Tolerances::<T>::with_gjk_rel as fn(_, _) -> _),
            ("gjk_touching", Tolerances::with_gjk_touching),
            ("epa_rel", Tolerances::with_epa_rel),
            (
                "manifold_reference_bias",
                Tolerances::with_manifold_reference_bias,
            ),
        ] {
            assert!(
                set(t, zero).is_ok() && set(t, one - tiny).is_ok(),
                "{field}"
            );
            bad(set(t, one), field);
            bad(set(t, -tiny), field);
            if float {
                bad(set(t, nan), field);
            }
        }
        for (field, set) in [
            (
                "gjk_resolution",
                Tolerances::<T>::with_gjk_resolution as fn(_, _) -> _,
            ),
            ("gjk_abs", Tolerances::with_gjk_abs),
        ] {
            assert!(set(t, zero).is_ok() && set(t, lit(1e3)).is_ok(), "{field}");
            bad(set(t, -tiny), field);
            if float {
                bad(set(t, nan), field);
                bad(set(t, inf), field);
            }
        }
        assert!(t.with_gjk_momentum_accuracy(one).is_ok());
        bad(
            t.with_gjk_momentum_accuracy(one + tiny),
            "gjk_momentum_accuracy",
        );
        assert!(t.with_manifold_min_alignment(one).is_ok());
        bad(
            t.with_manifold_min_alignment(zero),
            "manifold_min_alignment",
        );
        bad(t.with_gjk_max_iterations(0), "gjk_max_iterations");
        bad(t.with_epa_max_iterations(0), "epa_max_iterations");
        assert_eq!(
            t.with_epa_max_iterations(1).map(|t| t.epa_max_iterations()),
            Ok(1)
        );
        let set = t
            .with_gjk_acceleration(Acceleration::Polyak)
            .map(|t| t.gjk_acceleration());
        assert_eq!(set, Ok(Acceleration::Polyak));
        // A value built around the setters (as deserialisation does) fails `check` with
        // the setter's field name.
        let raw = Tolerances {
            manifold_min_alignment: zero,
            ..t
        };
        assert_eq!(
            raw.check(),
            Err(QueryError::InvalidTolerance {
                field: "manifold_min_alignment"
            })
        );
    }

    crate::real::scalar_cases!(setters_keep_the_ranges);
}
