//! The scalar trait and the few numerical helpers every algorithm shares.
//!
//! Fixed-point scalars (simba's `FixedI40F24`, ...) have an absolute resolution of one ulp,
//! never return from `sqrt` of a negative value, and square small values to zero. The
//! helpers here keep those facts in one place (docs/tolerances.md, "Fixed-point pitfalls handled in code").

use nalgebra::{RealField, SVector, Unit};

/// A scalar the library runs on: any [`nalgebra::RealField`] that is `Copy`.
///
/// Implemented for `f32`, `f64` and, with the `fixed` feature, simba's fixed-point types
/// such as `simba::scalar::FixedI40F24`.
pub trait Real: RealField + Copy {}

impl<T: RealField + Copy> Real for T {}

/// Writes the literal `x` in the scalar `T` (exact for the small constants the algorithms
/// use; fixed-point types round to their resolution).
#[inline]
#[must_use]
pub fn lit<T: Real>(x: f64) -> T {
    T::from_subset(&x)
}

/// Whether `T` has an absolute resolution (fixed-point) rather than a relative one: one ulp
/// squared is zero only in fixed-point. Constant-folds for `f32`/`f64`.
#[inline]
#[must_use]
pub(crate) fn is_fixed<T: Real>() -> bool {
    let e = T::default_epsilon();
    e * e == T::zero()
}

/// `sqrt(max(x, 0))`: fixed-point `sqrt` of a negative value never returns.
#[inline]
#[must_use]
pub(crate) fn sqrt0<T: Real>(x: T) -> T {
    if x > T::zero() { x.sqrt() } else { T::zero() }
}

/// The Euclidean norm, accurate for short vectors in fixed-point too: below 1 the squares
/// of fixed-point components lose their digits, so the vector is first divided by its
/// largest component (‖v‖ = m·‖v/m‖). Floats whose squares are subnormal (`‖v‖²` below
/// the smallest normal over `ε`) get a length accurate only to the smallest subnormal, far
/// below any band; [`normalize`] scales them.
#[inline]
#[must_use]
pub fn norm<T: Real, const D: usize>(v: &SVector<T, D>) -> T {
    if !is_fixed::<T>() {
        return sqrt0(v.norm_squared());
    }
    // Fixed point: `‖v‖²` leaves the type's range once a component passes ~√(max/D)
    // (FixedI40F24: 3e5 in 6D; it wrapped, or panicked with overflow checks, on a cast's
    // relative velocity), and loses its digits below 1: both scaled by `|v|∞`.
    let m = v.amax();
    if m <= lit(FIXED_NORM_DIRECT) {
        let vv = v.norm_squared();
        if vv >= T::one() {
            return sqrt0(vv);
        }
    }
    if m == T::zero() {
        return T::zero();
    }
    m * sqrt0((v / m).norm_squared())
}

/// The largest `|v|∞` whose `‖v‖²` [`norm`] forms directly in fixed point: `2¹⁸`, so that
/// `D·m² ≤ 6·2³⁶ < 2³⁹` (FixedI40F24's range) for every supported dimension.
const FIXED_NORM_DIRECT: f64 = 262_144.0;

/// The smallest `‖v‖²` whose float square terms that matter (those above `ε·‖v‖²`) are
/// normal numbers: the smallest normal over `ε` (`tolerance::range`).
#[inline]
pub(crate) fn norm_square_floor<T: Real>() -> T {
    use crate::tolerance::range;
    let coarse = T::default_epsilon() > lit(range::COARSE_EPSILON);
    lit(if coarse {
        range::NORM_SQUARE_FLOOR_F32
    } else {
        range::NORM_SQUARE_FLOOR_F64
    })
}

/// `v / ‖v‖`, or `None` when `v` is zero or not finite.
///
/// Fixed-point normalises `v / |v|∞` instead: the norm of a short vector (3e-4 has ~5000
/// ulps in I40F24) carries 2e-4 of relative error into every component, while the scaled
/// vector's components are ≤ 1 at full precision and its norm lies in `[1, √D]`. Floats
/// take the same path when `‖v‖²` overflows or is subnormal (components beyond ~1e154 or
/// below ~1e-146 in f64, ~1e-16 in f32): a finite non-zero `v` always has a direction (a
/// scaled ball's support along it used to fall back to the centre), and a unit one (an f32
/// cross product of a needle's edges, components 3e-23, squared to 1e-45: its "unit"
/// normal was 0.95 long, and EPA converged along a direction 45° off a flat `A − B`).
#[inline]
#[must_use]
pub fn normalize<T: Real, const D: usize>(v: &SVector<T, D>) -> Option<Unit<SVector<T, D>>> {
    if !is_fixed::<T>() {
        let vv = v.norm_squared();
        if vv >= norm_square_floor::<T>() && vv.is_finite() {
            return Some(Unit::new_unchecked(v / vv.sqrt()));
        }
        if !all_finite(v) {
            return None;
        }
    }
    let m = v.amax();
    if !(m > T::zero()) {
        return None;
    }
    let u = v / m;
    Some(Unit::new_unchecked(u / sqrt0(u.norm_squared())))
}

/// The largest component magnitude `|v|∞` of a vector of finite components, by plain
/// comparisons (nalgebra's `amax` goes through simba's NaN-aware maximum, about twice the
/// instructions in GJK's solver).
#[inline]
#[must_use]
pub(crate) fn amax<T: Real, const D: usize>(v: &SVector<T, D>) -> T {
    amax_from(T::zero(), v)
}

/// `max(m, |v|∞)` for a non-negative `m`, by the same plain comparisons ([`amax`]; `max`
/// is NaN-aware, a few instructions more per call).
#[inline]
#[must_use]
pub(crate) fn amax_from<T: Real, const D: usize>(mut m: T, v: &SVector<T, D>) -> T {
    for x in v.iter() {
        let a = x.abs();
        if a > m {
            m = a;
        }
    }
    m
}

/// Whether `x` is finite: `x − x` is 0 for a finite `x`, NaN for a NaN or ∞ (one
/// subtraction and one comparison; fixed-point is always finite).
#[allow(clippy::eq_op, reason = "x − x is the finiteness test")]
#[inline]
#[must_use]
pub(crate) fn finite<T: Real>(x: T) -> bool {
    x - x == T::zero()
}

/// Whether every number is finite: the sum of `x − x` (as [`finite`]), 0 or NaN, in one
/// pass without branches.
#[allow(clippy::eq_op, reason = "x − x is the finiteness test")]
#[inline]
#[must_use]
pub(crate) fn all_finite_in<T: Real>(xs: &[T]) -> bool {
    xs.iter().fold(T::zero(), |s, &x| s + (x - x)) == T::zero()
}

/// Whether every component is finite ([`all_finite_in`]).
#[allow(clippy::eq_op, reason = "x − x is the finiteness test")]
#[inline]
#[must_use]
pub(crate) fn all_finite<T: Real, const D: usize>(v: &SVector<T, D>) -> bool {
    v.iter().fold(T::zero(), |s, &x| s + (x - x)) == T::zero()
}

/// Unit tests' random numbers: splitmix64 stepping `s`, uniform in `[lo, hi)`.
#[cfg(test)]
pub(crate) fn test_uniform(s: &mut u64, lo: f64, hi: f64) -> f64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    lo + (hi - lo) * ((z >> 11) as f64 / (1u64 << 53) as f64)
}

/// Unit tests of a function generic over the scalar: `$body::<T>()` as one test per
/// scalar (f32, f64 and, with the `fixed` feature, FixedI40F24) in a module named after
/// it, as `tests/common`'s `cases!` does for the integration tests.
#[cfg(test)]
macro_rules! scalar_cases {
    ($body:ident) => {
        mod $body {
            #[test]
            fn f32() {
                super::$body::<f32>();
            }

            #[test]
            fn f64() {
                super::$body::<f64>();
            }

            #[cfg(feature = "fixed")]
            #[test]
            fn fixed() {
                super::$body::<simba::scalar::FixedI40F24>();
            }
        }
    };
}
#[cfg(test)]
pub(crate) use scalar_cases;

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (casts' fuzzing, FixedI40F24): `‖v‖²` of a vector beyond ~√(max/D)
    /// wrapped (a panic with overflow checks) in a cast's approach test; [`norm`] scales by
    /// `|v|∞` there.
    #[cfg(feature = "fixed")]
    #[test]
    fn fixed_norm_of_large_vectors_stays_in_range() {
        type F = simba::scalar::FixedI40F24;
        for (x, y, want) in [(1e6, 1e6, 1_414_213.562), (3e5, 4e5, 5e5), (0.3, 0.4, 0.5)] {
            let n = crate::shape::f64_of(norm(&SVector::<F, 2>::new(lit(x), lit(y))));
            assert!((n - want).abs() <= 1e-5 * want + 1e-4, "{x}, {y}: {n}");
        }
    }
    use nalgebra::Vector3;

    #[test]
    fn is_fixed_tells_floats_from_fixed_point() {
        assert!(!is_fixed::<f32>());
        assert!(!is_fixed::<f64>());
        #[cfg(feature = "fixed")]
        assert!(is_fixed::<simba::scalar::FixedI40F24>());
    }

    #[test]
    fn norm_of_short_vectors_is_exact_enough_in_fixed_point() {
        // 1.5e-4 squared is below one ulp of I40F24 (6e-8): the plain norm would be 0.
        #[cfg(feature = "fixed")]
        {
            type F = simba::scalar::FixedI40F24;
            let v = Vector3::new(lit::<F>(1.5e-4), lit(0.0), lit(-1.0e-4));
            let n: f64 = nalgebra::try_convert(norm(&v)).unwrap();
            let exact = (1.5e-4f64.powi(2) + 1.0e-4f64.powi(2)).sqrt();
            assert!((n - exact).abs() < 1e-6, "norm {n} vs {exact}");
        }
        #[cfg(feature = "fixed")]
        {
            // A short vector's unit direction keeps full precision (its norm, 3e-4, has only
            // ~5000 ulps).
            type F = simba::scalar::FixedI40F24;
            let v = Vector3::new(lit::<F>(4e-5), lit(3e-4), lit(0.0));
            let u = normalize(&v).unwrap();
            let len: f64 = nalgebra::try_convert(u.norm_squared()).unwrap();
            assert!((len - 1.0).abs() < 1e-6, "|u|² = {len}");
        }
        let v = Vector3::new(3.0, 4.0, 0.0);
        assert_eq!(norm(&v), 5.0);
        assert!(normalize(&Vector3::<f64>::zeros()).is_none());
    }

    /// Float vectors whose squares are subnormal (an f32 needle face's cross product):
    /// the unit direction keeps its digits.
    #[test]
    fn normalize_of_a_vector_with_subnormal_squares() {
        let v = Vector3::new(0.0f32, -1.9e-23, 4.0e-24);
        let exact = (1.9e-23f64.powi(2) + 4.0e-24f64.powi(2)).sqrt();
        let u = normalize(&v).unwrap();
        assert!((u.norm() - 1.0).abs() < 1e-6, "|u| = {}", u.norm());
        assert!((f64::from(u.y) + 1.9e-23 / exact).abs() < 1e-6, "{u:?}");
        let w = Vector3::new(3e-160f64, 4e-160, 0.0);
        assert!((normalize(&w).unwrap().x - 0.6).abs() < 1e-15);
    }
}
