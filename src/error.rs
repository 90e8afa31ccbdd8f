//! Errors: only for invalid input. Non-convergence is a [`crate::Termination`], never an error.

use core::fmt;

/// Why a shape could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A polytope was given no points.
    Empty,
    /// A coordinate or parameter is NaN or infinite; `index` is the offending point's
    /// position in the input (0 for scalar parameters).
    NonFinite {
        /// Which point (or parameter) was not finite.
        index: usize,
    },
    /// A radius, half-extent or half-height is negative.
    Negative {
        /// The parameter's name.
        what: &'static str,
    },
    /// A polytope's 3D hull failed its consistency checks (rounding defeated every
    /// tolerance tried): rather than a polytope without faces whose support would silently
    /// be brute force, construction fails.
    HullFailed,
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "a polytope needs at least one point"),
            Self::NonFinite { index } => {
                write!(f, "input {index} has a NaN or infinite coordinate")
            }
            Self::Negative { what } => write!(f, "the {what} must be finite and non-negative"),
            Self::HullFailed => write!(
                f,
                "the polytope's convex hull failed its consistency checks at every tolerance"
            ),
        }
    }
}

// `core::error::Error` (Rust 1.81): the same trait as `std::error::Error`, also without `std`.
impl core::error::Error for ShapeError {}

/// Why a query could not be answered: its input was invalid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum QueryError {
    /// A pose has a NaN or infinite translation or rotation.
    NonFinitePose,
    /// A pose's rotation is not a rotation: its matrix `R` is not orthonormal (`RᵀR`
    /// differs from `I` by more than `max(√ε / 128, 256 ε)` in an entry, f64 1.2e-10:
    /// a shear, a scale, a non-unit quaternion), or it is a reflection (`det R < 0`).
    NonRigidPose,
    /// A support map returned a point with a NaN or infinite coordinate.
    NonFiniteSupport,
    /// Values too large for the scalar: support points whose squared norms overflow
    /// (f64: beyond ~1e153, f32: beyond ~1e18) or that overflow to ∞, radii whose sum
    /// overflows, or, in fixed-point, shapes, pose translations or `A − B` coordinates
    /// beyond the ranges of docs/tolerances.md.
    OutOfRange,
    /// A tolerance is NaN, negative, or out of its documented range: a
    /// [`crate::Tolerances`] setter's value (`with_gjk_rel`, …; queries then never see
    /// it), or a query's own parameter (`margin`, `prediction`).
    InvalidTolerance {
        /// The field of [`crate::Tolerances`] or the parameter at fault.
        field: &'static str,
    },
    /// A cast's input is NaN, infinite or out of range: a ray, a velocity, a motion or a
    /// field of [`crate::cast::CastOptions`].
    InvalidCast {
        /// The input at fault.
        what: &'static str,
    },
    /// A shape's parameter is invalid (a NaN or negative radius or half-extent set through
    /// a public field, or returned by a user's [`crate::shape::SupportMap::radius`]); every
    /// query checks its shapes with [`crate::shape::SupportMap::validate`].
    InvalidShape(ShapeError),
    /// A batch's pair names a shape the scene does not have (`batch::Pair`, cargo feature
    /// `rayon`).
    NoSuchShape {
        /// The index past the scene's shapes.
        index: usize,
    },
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFinitePose => write!(f, "a pose has a NaN or infinite component"),
            Self::NonRigidPose => {
                write!(
                    f,
                    "a pose's rotation is not a rotation (not orthonormal, or a reflection)"
                )
            }
            Self::NonFiniteSupport => {
                write!(
                    f,
                    "a shape's support point has a NaN or infinite coordinate"
                )
            }
            Self::OutOfRange => {
                write!(
                    f,
                    "support points too large for the scalar type (squared norm overflows)"
                )
            }
            Self::InvalidTolerance { field } => {
                write!(f, "tolerance `{field}` is NaN, negative or out of range")
            }
            Self::InvalidCast { what } => {
                write!(f, "cast input `{what}` is NaN, infinite or out of range")
            }
            Self::InvalidShape(e) => write!(f, "invalid shape: {e}"),
            Self::NoSuchShape { index } => write!(f, "no shape {index} in the scene"),
        }
    }
}

// `core::error::Error` (Rust 1.81): the same trait as `std::error::Error`, also without `std`.
impl core::error::Error for QueryError {}
