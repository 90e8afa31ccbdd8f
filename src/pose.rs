//! Poses: the rotations a query accepts ([`PoseRotation`]), the check that a pose is rigid, and
//! the frame a query works in (B's pose in A's frame, as a matrix and a translation).
//!
//! A query checks both poses, composes them once into B's pose in A's frame and maps its
//! results back with A's matrix: each pose's rotation is read once (one closed form for a
//! quaternion or a unit complex number) and every later rotation is a matrix product.

use crate::{QueryError, Real, real::is_fixed};
use nalgebra::{
    AbstractRotation, Isometry, Point, SMatrix, SVector, Unit, UnitComplex, UnitQuaternion,
};

mod sealed {
    pub trait Sealed {}
    impl<T: nalgebra::RealField> Sealed for nalgebra::UnitQuaternion<T> {}
    impl<T: nalgebra::RealField> Sealed for nalgebra::UnitComplex<T> {}
    impl<T: nalgebra::RealField, const D: usize> Sealed for nalgebra::Rotation<T, D> {}
}

/// The rotation types a pose may use: nalgebra's [`UnitQuaternion`] (3D, `Isometry3`),
/// [`UnitComplex`] (2D, `Isometry2`) and [`nalgebra::Rotation`] (any dimension,
/// `IsometryMatrix2/3`). Sealed: each type knows the cheapest test of its own rigidity.
pub trait PoseRotation<T: Real, const D: usize>: AbstractRotation<T, D> + sealed::Sealed {
    /// `Ok` when the rotation is finite, orthonormal to `tau` per entry of `RᵀR − I` and
    /// proper (`det R > 0`).
    ///
    /// # Errors
    /// [`QueryError::NonFinitePose`] for a NaN or ∞, [`QueryError::NonRigidPose`] otherwise.
    fn check(&self, tau: T) -> Result<(), QueryError>;

    /// The matrix: its columns are the rotated axes. Call after [`PoseRotation::check`] (a
    /// fixed-point rotation is only bounded once checked).
    fn to_matrix(&self) -> SMatrix<T, D, D>;
}

/// The tolerance `τ = max(√ε / 128, 256 ε)` of `|RᵀR − I|` per entry: f64 1.2e-10 (above
/// the 1e-12 one Gram–Schmidt pass leaves on random f64 rotations, below the 1e-9 relative
/// accuracy promised); f32 3.1e-5 and FixedI40F24 1.5e-5 (a rotation rounded to the
/// scalar is a few ulps off, one built from an axis-angle in FixedI40F24 up to 3.4e-6,
/// with room for the drift of composed rotations, below the 1e-4 accuracy promised).
pub(crate) fn rigid_tolerance<T: Real>() -> T {
    use crate::tolerance::{allowance, ulps};
    let eps = T::default_epsilon();
    (crate::real::sqrt0(eps) / crate::real::lit::<T>(allowance::RIGID_SQRT_DIVISOR))
        .max(ulps(allowance::RIGID))
}

/// The error for a rotation that failed: non-finite if any of its numbers is.
fn failed<T: Real>(mut numbers: impl Iterator<Item = T>) -> QueryError {
    if numbers.all(|x| x.is_finite()) {
        QueryError::NonRigidPose
    } else {
        QueryError::NonFinitePose
    }
}

/// Fixed-point: numbers of a rigid rotation are at most 1 in magnitude; bounding them by
/// 2 before any product keeps the products from wrapping. Floats overflow to ∞, which the
/// rigidity test rejects.
fn bounded<T: Real>(numbers: impl Iterator<Item = T>) -> bool {
    let two = T::one() + T::one();
    !is_fixed::<T>() || numbers.into_iter().all(|x| x.abs() <= two)
}

/// A unit norm `n² = 1` to `tau / 2`: the matrix of a quaternion or complex number of
/// squared norm `n²` is `n²` times a rotation (its formula is homogeneous of degree 2), so
/// `RᵀR − I = (n⁴ − 1)·I ≈ 2(n² − 1)·I`, and its determinant is positive.
fn unit_norm<T: Real>(numbers: &[T], tau: T) -> Result<(), QueryError> {
    let n2 = numbers.iter().fold(T::zero(), |s, &x| s + x * x);
    let two = T::one() + T::one();
    if bounded(numbers.iter().copied()) && ((n2 - T::one()) * two).abs() <= tau {
        Ok(())
    } else {
        Err(failed(numbers.iter().copied()))
    }
}

impl<T: Real> PoseRotation<T, 3> for UnitQuaternion<T> {
    #[inline]
    fn check(&self, tau: T) -> Result<(), QueryError> {
        unit_norm(self.as_ref().coords.as_slice(), tau)
    }
    #[inline]
    fn to_matrix(&self) -> SMatrix<T, 3, 3> {
        self.to_rotation_matrix().into_inner()
    }
}

impl<T: Real> PoseRotation<T, 2> for UnitComplex<T> {
    #[inline]
    fn check(&self, tau: T) -> Result<(), QueryError> {
        unit_norm(&[self.re, self.im], tau)
    }
    #[inline]
    fn to_matrix(&self) -> SMatrix<T, 2, 2> {
        self.to_rotation_matrix().into_inner()
    }
}

impl<T: Real, const D: usize> PoseRotation<T, D> for nalgebra::Rotation<T, D> {
    #[inline]
    fn check(&self, tau: T) -> Result<(), QueryError> {
        check_matrix(self.matrix(), tau)
    }
    #[inline]
    fn to_matrix(&self) -> SMatrix<T, D, D> {
        *self.matrix()
    }
}

/// `|RᵀR − I| ≤ tau` per entry and `det R > 0`, in one pass without early exits (a NaN
/// fails every comparison). A shear or a scale fails the first test, a mirror the second
/// (it would turn the shapes inside out for the feature maps).
///
/// # Errors
/// As [`PoseRotation::check`].
pub(crate) fn check_matrix<T: Real, const D: usize>(
    m: &SMatrix<T, D, D>,
    tau: T,
) -> Result<(), QueryError> {
    if !bounded(m.iter().copied()) {
        return Err(QueryError::NonRigidPose);
    }
    let mut rigid = determinant(m) > T::zero();
    for i in 0..D {
        for j in i..D {
            let g = m.column(i).dot(&m.column(j));
            let want = if i == j { T::one() } else { T::zero() };
            rigid &= (g - want).abs() <= tau;
        }
    }
    if rigid {
        Ok(())
    } else {
        Err(failed(m.iter().copied()))
    }
}

/// The determinant of a square matrix (closed forms for D ≤ 3, partial pivoting beyond:
/// only its sign matters here, on a matrix already bounded).
fn determinant<T: Real, const D: usize>(m: &SMatrix<T, D, D>) -> T {
    let e = |r: usize, c: usize| m[(r, c)];
    match D {
        1 => e(0, 0),
        2 => e(0, 0) * e(1, 1) - e(0, 1) * e(1, 0),
        3 => {
            e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1))
                - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
                + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
        }
        _ => {
            let mut a = *m;
            let mut det = T::one();
            for k in 0..D {
                let p = (k..D)
                    .max_by(|&i, &j| {
                        a[(i, k)]
                            .abs()
                            .partial_cmp(&a[(j, k)].abs())
                            .unwrap_or(core::cmp::Ordering::Equal)
                    })
                    .unwrap_or(k);
                if a[(p, k)] == T::zero() {
                    return T::zero();
                }
                if p != k {
                    a.swap_rows(p, k);
                    det = -det;
                }
                det *= a[(k, k)];
                for i in k + 1..D {
                    let f = a[(i, k)] / a[(k, k)];
                    for j in k..D {
                        let x = a[(k, j)];
                        a[(i, j)] -= f * x;
                    }
                }
            }
            det
        }
    }
}

/// The matrix of any rotation: its columns are the rotated axes (for rotations that are
/// not a [`PoseRotation`], e.g. in the motions of the casts).
pub(crate) fn axes_matrix<T: Real, R: AbstractRotation<T, D>, const D: usize>(
    pose: &Isometry<T, R, D>,
) -> SMatrix<T, D, D> {
    let mut m = SMatrix::<T, D, D>::zeros();
    for j in 0..D {
        let mut e = SVector::<T, D>::zeros();
        e[j] = T::one();
        m.set_column(j, &pose.rotation.transform_vector(&e));
    }
    m
}

/// A checked rigid frame `x ↦ R·x + t`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<T: Real, const D: usize> {
    /// The rotation's matrix.
    pub rot: SMatrix<T, D, D>,
    /// The translation.
    pub t: SVector<T, D>,
}

impl<T: Real, const D: usize> Frame<T, D> {
    /// The frame of `pose`, after checking that it is finite and rigid (to
    /// [`rigid_tolerance`]) and, in fixed point, that its translation is within
    /// [`crate::input::fixed_extent_limit`] (so that composing two poses cannot wrap).
    ///
    /// # Errors
    /// [`QueryError::NonFinitePose`], [`QueryError::NonRigidPose`],
    /// [`QueryError::OutOfRange`].
    pub fn of<R: PoseRotation<T, D>>(pose: &Isometry<T, R, D>) -> Result<Self, QueryError> {
        check(pose)?;
        Ok(Self {
            rot: pose.rotation.to_matrix(),
            t: pose.translation.vector,
        })
    }

    /// [`Frame::of`] for a pose whose translation the caller has proven finite
    /// ([`check_finite`]).
    ///
    /// # Errors
    /// As [`Frame::of`], for a finite translation.
    #[inline]
    pub fn of_finite<R: PoseRotation<T, D>>(pose: &Isometry<T, R, D>) -> Result<Self, QueryError> {
        check_finite(pose)?;
        Ok(Self {
            rot: pose.rotation.to_matrix(),
            t: pose.translation.vector,
        })
    }

    /// `other` seen in this frame: `Rᵀ·R_o` and `Rᵀ·(t_o − t)`.
    #[must_use]
    pub fn relative(&self, other: &Self) -> Self {
        Self {
            rot: self.rot.tr_mul(&other.rot),
            t: self.rot.tr_mul(&(other.t - self.t)),
        }
    }

    /// `R·p + t`.
    #[inline]
    #[must_use]
    pub fn transform_point(&self, p: &Point<T, D>) -> Point<T, D> {
        Point::from(self.rot * p.coords + self.t)
    }

    /// `R·v`.
    #[inline]
    #[must_use]
    pub fn transform_vector(&self, v: &SVector<T, D>) -> SVector<T, D> {
        self.rot * v
    }

    /// `R·n` of a unit `n` (a rotation keeps it unit).
    #[inline]
    #[must_use]
    pub fn transform_unit(&self, n: &Unit<SVector<T, D>>) -> Unit<SVector<T, D>> {
        Unit::new_unchecked(self.rot * n.as_ref())
    }

    /// `Rᵀ·v`.
    #[inline]
    #[must_use]
    pub fn inverse_transform_vector(&self, v: &SVector<T, D>) -> SVector<T, D> {
        self.rot.tr_mul(v)
    }

    /// `Rᵀ·(p − t)`.
    #[inline]
    #[must_use]
    pub fn inverse_transform_point(&self, p: &Point<T, D>) -> Point<T, D> {
        Point::from(self.rot.tr_mul(&(p.coords - self.t)))
    }
}

/// [`Frame::of`]'s checks without building the matrix (a query that reads only the
/// translation, e.g. a ray against a ball).
///
/// # Errors
/// As [`Frame::of`].
#[inline]
pub(crate) fn check<T: Real, R: PoseRotation<T, D>, const D: usize>(
    pose: &Isometry<T, R, D>,
) -> Result<(), QueryError> {
    if !crate::real::all_finite(&pose.translation.vector) {
        return Err(QueryError::NonFinitePose);
    }
    check_finite(pose)
}

/// [`check`] for a pose whose translation the caller has proven finite (one test over
/// several vectors, `cast::cast_ray`): the rotation and, in fixed point, the range.
///
/// Always inlined: the pair fast paths' admission calls it per pose, and out of line its
/// call and its `Result` in memory, with the caller's registers saved around it, cost
/// about 20 instructions a pose and a third of a 3D ball–ball distance's time
/// (docs/PERFORMANCE.md §2.1).
///
/// # Errors
/// As [`Frame::of`], for a finite translation.
#[inline(always)]
pub(crate) fn check_finite<T: Real, R: PoseRotation<T, D>, const D: usize>(
    pose: &Isometry<T, R, D>,
) -> Result<(), QueryError> {
    debug_assert!(crate::real::all_finite(&pose.translation.vector));
    pose.rotation.check(rigid_tolerance())?;
    let t = &pose.translation.vector;
    if is_fixed::<T>() && !(crate::shape::extent_of(t) <= crate::input::fixed_extent_limit::<T>()) {
        return Err(QueryError::OutOfRange);
    }
    Ok(())
}

/// Whether `pose` passes [`Frame::of`]'s checks (finite, rigid; in fixed point, within
/// range), without building its matrix: the pair fast paths' check (`crate::pair`).
pub(crate) fn is_rigid<T: Real, R: PoseRotation<T, D>, const D: usize>(
    pose: &Isometry<T, R, D>,
) -> bool {
    let t = &pose.translation.vector;
    crate::real::all_finite(t)
        && pose.rotation.check(rigid_tolerance()).is_ok()
        && (!is_fixed::<T>()
            || crate::shape::extent_of(t) <= crate::input::fixed_extent_limit::<T>())
}

/// Two poses as a two-shape query works with them: A's frame (local to world, to map the
/// answer back) and B's frame in A's (where B is placed).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Relative<T: Real, const D: usize> {
    /// A's frame: local to world.
    pub frame_a: Frame<T, D>,
    /// B's frame in A's: `pose_a⁻¹ · pose_b`.
    pub b_in_a: Frame<T, D>,
}

/// Both poses checked, and B's frame in A's: what every two-shape query starts from.
///
/// # Errors
/// As [`Frame::of`].
pub(crate) fn relative<T: Real, R: PoseRotation<T, D>, const D: usize>(
    pose_a: &Isometry<T, R, D>,
    pose_b: &Isometry<T, R, D>,
) -> Result<Relative<T, D>, QueryError> {
    // Both checks before any matrix (same error order as two `Frame::of`), then the frames
    // built in place: no `Result<Frame>` copied out per pose.
    check(pose_a)?;
    check(pose_b)?;
    let frame_a = Frame {
        rot: pose_a.rotation.to_matrix(),
        t: pose_a.translation.vector,
    };
    let b_in_a = frame_a.relative(&Frame {
        rot: pose_b.rotation.to_matrix(),
        t: pose_b.translation.vector,
    });
    Ok(Relative { frame_a, b_in_a })
}
