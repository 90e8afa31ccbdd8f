//! GJK on two support maps given in one common frame: distance and closest points, and
//! the intersection test with its separating-axis early exit (van den Bergen 1999,
//! docs/gjk.md).
//!
//! The shapes' cores are used and their radii added ([`SupportMap::radius`]), so rounded
//! shapes converge as fast as their cores. For poses and world-frame results use
//! [`crate::query`].

mod accel;
mod cache;
mod criterion;
mod difference;
mod johnson;
mod observe;
mod planar;
mod project;
mod run;
mod simplex;
mod vertex_set;
mod volumes;

pub use cache::Cache;
pub use simplex::{Simplex, SupportPoint};

use crate::{QueryError, Real, Tolerances, dim::Dim, shape::SupportMap, trace::Observer};
pub(crate) use accel::is_plain;
pub(crate) use difference::{Cores, Difference};
pub(crate) use johnson::Johnson;
use nalgebra::{Const, Point, SVector, Unit};
pub(crate) use project::project;
pub(crate) use run::{
    Mode, Outcome, PlaneBound, Run, check_range, coordinate_limit, plane_min, rounded_distance,
    support_limit, uses_johnson,
};
pub(crate) use vertex_set::VertexSet;
pub(crate) use volumes::closest as closest_of_simplex;

/// Why an iterative algorithm stopped.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "TerminationDef"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Termination {
    /// The bounds met: `upper − lower ≤ gjk_rel · upper` ([`Tolerances::gjk_rel`]), or
    /// the criterion selected by [`Tolerances::gjk_criterion`], or the gap within the
    /// rounding band.
    Converged,
    /// The new support point was already a vertex of the simplex: the estimate cannot
    /// improve (polytopes end here, exactly up to rounding).
    RepeatedSupport,
    /// The origin lies inside a full simplex of `D + 1` vertices: the cores overlap.
    Contained,
    /// The estimate came within [`Tolerances::gjk_touching`] of the origin: the cores touch
    /// or overlap at that resolution.
    Touching,
    /// The estimate stopped decreasing (rounding): the previous, better one is returned.
    NoProgress,
    /// No sub-simplex passed Johnson's test, even the backup: the previous estimate is
    /// returned.
    Degenerate,
    /// [`Tolerances::gjk_max_iterations`] was reached: the best estimate so far is returned
    /// with its proven bounds.
    MaxIterations,
    /// (Intersection test) a direction proved the shapes apart: the lower bound exceeded
    /// the sum of the radii.
    SeparatingAxis,
}

impl Termination {
    /// Whether the stop was a convergence criterion, not a cap or a numerical safeguard.
    #[must_use]
    pub fn is_converged(self) -> bool {
        matches!(
            self,
            Self::Converged
                | Self::RepeatedSupport
                | Self::Contained
                | Self::Touching
                | Self::SeparatingAxis
        )
    }
}

/// The distance between two shapes, with witness points and the bounds GJK proved.
///
/// Frame: whatever frame the query's inputs are in — the common frame for
/// [`gjk::distance`](distance), the world frame for [`crate::query::distance`].
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "DistanceDef"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<T: Real, const D: usize> {
    /// The distance (0 when the shapes touch or overlap); within
    /// `[lower_bound, upper_bound]`.
    pub distance: T,
    /// The closest point on A (on overlap: a point of A ∩ B, approximately). After GJK's
    /// cap ([`Termination::MaxIterations`]): a point of A at `upper_bound` from
    /// `point_b`, not necessarily on A's boundary.
    pub point_a: Point<T, D>,
    /// The closest point on B; `‖point_b − point_a‖ = distance` up to rounding.
    pub point_b: Point<T, D>,
    /// The unit direction from A to B, `None` at distance 0.
    pub normal: Option<Unit<SVector<T, D>>>,
    /// A proven lower bound of the distance (separating-plane bound, `max vᵀw/‖v‖`).
    pub lower_bound: T,
    /// A proven upper bound of the distance (the witness points' separation).
    pub upper_bound: T,
    /// Support-point evaluations of the pair (GJK iterations).
    pub iterations: u32,
    /// Why GJK stopped.
    pub termination: Termination,
}

/// The answer of the intersection test, with its evidence.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "IntersectionDef"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intersection<T: Real, const D: usize> {
    /// Whether the shapes touch or overlap (distance within the touching tolerance). `false`
    /// is proven by a separating plane. `true` is proven when [`Self::termination`] is
    /// [`Termination::Contained`] or [`Termination::Touching`], or `Converged` (the bounds
    /// met within the rounding band, or under the absolute criteria within `gjk_abs`);
    /// after any other stop it means "not proven apart", the conservative answer
    /// (docs/gjk.md §3).
    pub intersects: bool,
    /// When separated by [`Termination::SeparatingAxis`]: a unit direction from A to B
    /// along which they are apart (cache it for the next query).
    pub axis: Option<Unit<SVector<T, D>>>,
    /// Support-point evaluations.
    pub iterations: u32,
    /// Why GJK stopped.
    pub termination: Termination,
}

/// The distance between `a` and `b`, both in one common frame.
///
/// `simplex` is the warm start and the result: empty, GJK starts from the shapes'
/// centres; holding vertices of `A − B` (the cores', for rounded shapes), it starts from
/// them. On return it holds the final simplex.
///
/// # Errors
/// [`QueryError::InvalidShape`] for a shape whose [`SupportMap::validate`] fails;
/// [`QueryError::NonFiniteSupport`] if a support map returns a NaN point;
/// [`QueryError::OutOfRange`] for values the scalar cannot hold.
///
/// ```
/// use convex_proximity::{Tolerances, gjk, shape::{Ball, Cuboid, Transformed}};
/// use nalgebra::{Matrix3, Vector3};
/// let a = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
/// let b = Transformed::new(Ball::new(0.5), Matrix3::identity(), Vector3::new(3.0, 0.0, 0.0));
/// let mut simplex = gjk::Simplex::new();
/// let d = gjk::distance(&a, &b, &Tolerances::default(), &mut simplex).unwrap();
/// assert!((d.distance - 1.5f64).abs() < 1e-12);
/// ```
pub fn distance<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
) -> Result<Distance<T, D>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    crate::input::check_pair(a, b)?;
    distance_observed(Cores { a, b }, tol, simplex, &mut ())
}

/// [`distance`] on shapes the caller has checked ([`crate::input::check_pair`]),
/// reporting to `obs` ([`crate::trace`]); the untraced queries pass `&mut ()`, which is not
/// [`Observer::ACTIVE`]: no hook is compiled in.
#[inline]
pub(crate) fn distance_observed<T: Real, const D: usize, P: Difference<T, D>>(
    pair: P,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
    obs: &mut impl Observer<T, D>,
) -> Result<Distance<T, D>, QueryError>
where
    Const<D>: Dim,
{
    let out = Run::on(pair, tol, simplex, Mode::Distance).observed(obs)?;
    Ok(out.rounded(pair.radius_a(), pair.radius_b()))
}

/// [`distance_observed`] (untraced), stopped early (termination [`Termination::SeparatingAxis`],
/// the distance then only an upper bound) once a separating plane proves the distance
/// beyond `margin`; otherwise the same run, so the same answer, as [`distance_observed`].
pub(crate) fn distance_within_unchecked<T: Real, const D: usize, P: Difference<T, D>>(
    pair: P,
    margin: T,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
) -> Result<Distance<T, D>, QueryError>
where
    Const<D>: Dim,
{
    let (ra, rb) = (pair.radius_a(), pair.radius_b());
    let mode = Mode::Within {
        margin: ra + rb + margin,
    };
    let out = Run::on(pair, tol, simplex, mode).closest_point()?;
    Ok(out.rounded(ra, rb))
}

/// Whether `a` and `b` (in one common frame) touch or overlap, stopping at the first
/// separating axis (ISA-GJK, van den Bergen 1999 §5).
///
/// `simplex` is the warm start and the result, as in [`distance`].
///
/// # Errors
/// As [`distance`].
///
/// ```
/// use convex_proximity::{Tolerances, gjk, shape::{Ball, Cuboid, Transformed}};
/// use nalgebra::{Matrix2, Vector2};
/// let a = Cuboid::new(Vector2::new(1.0f32, 1.0));
/// let b = Transformed::new(Ball::new(0.5f32), Matrix2::identity(), Vector2::new(1.4, 0.0));
/// let hit = gjk::intersects(&a, &b, &Tolerances::default(), &mut gjk::Simplex::new()).unwrap();
/// assert!(hit.intersects);
/// ```
pub fn intersects<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
) -> Result<Intersection<T, D>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    crate::input::check_pair(a, b)?;
    intersects_observed(Cores { a, b }, tol, simplex, &mut ())
}

/// [`intersects`] on shapes the caller has checked, reporting to `obs`, as
/// [`distance_observed`].
#[inline]
pub(crate) fn intersects_observed<T: Real, const D: usize, P: Difference<T, D>>(
    pair: P,
    tol: &Tolerances<T>,
    simplex: &mut Simplex<T, D>,
    obs: &mut impl Observer<T, D>,
) -> Result<Intersection<T, D>, QueryError>
where
    Const<D>: Dim,
{
    let margin = pair.radius_a() + pair.radius_b();
    let out = Run::on(pair, tol, simplex, Mode::Intersect { margin }).observed(obs)?;
    Ok(out.intersection(margin))
}
