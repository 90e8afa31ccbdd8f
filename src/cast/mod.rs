//! Continuous collision: ray casts, linear shape casts, time of impact under rigid motions,
//! and motion checks for planners (docs/casts.md).
//!
//! - [`cast_ray`]: GJK ray cast against any support map (van den Bergen 2004), any `D`;
//!   balls, boxes and capsules take a closed form behind the same call
//!   ([`SupportMap::primitive`]).
//! - [`cast_shapes`]: two shapes with constant linear velocities: the ray cast on their
//!   configuration-space obstacle `A − B`, any `D`; two boxes (floats, target 0, 2D and
//!   3D) by the separating-axis test over time.
//! - [`time_of_impact`]: rigid motions with rotation ([`RigidMotion`]), by conservative
//!   advancement with a proven bound of the motion of every point (Mirtich 1996), 2D and 3D.
//! - [`motion_is_free`]: a planner's question, "is this motion free with a margin?", with
//!   the first contact when it is not.
//!
//! Like the other queries they take poses (or motions) and shapes, work in A's frame and
//! return world-frame results. No hit is `hit: None`; a run that gives up says so in its
//! [`CastTermination`] and reports the last time it proved safe.

mod arc;
mod boxes;
mod closed;
mod linear;
mod motion;
mod ray;
mod sweep;
mod toi;

pub use linear::cast_shapes;
pub(crate) use motion::core_reach;
pub use motion::{RigidMotion, RotationDim};
pub use ray::cast_ray;
pub use toi::{motion_is_free, time_of_impact};

use crate::{QueryError, Real, query::Contact, shape::SupportMap};
use nalgebra::{Isometry, Point, SVector, Unit};

/// A ray `origin + t · dir`, `t ≥ 0`, in the world frame. `dir` need not be unit: times
/// are in units of `dir` (with `|dir| = 1`, distances).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<T: Real, const D: usize> {
    /// Where the ray starts.
    pub origin: Point<T, D>,
    /// Its direction (the displacement per unit of time).
    pub dir: SVector<T, D>,
}

impl<T: Real, const D: usize> Ray<T, D> {
    /// The ray from `origin` along `dir`.
    #[must_use]
    pub fn new(origin: Point<T, D>, dir: SVector<T, D>) -> Self {
        Self { origin, dir }
    }

    /// The point `origin + t · dir`.
    #[must_use]
    pub fn point_at(&self, t: T) -> Point<T, D> {
        self.origin + self.dir * t
    }
}

/// A shape's pose at time 0 and its constant linear velocity, both in the world frame.
#[derive(Clone, Copy, Debug)]
pub struct LinearMotion<T: Real, R, const D: usize> {
    /// The pose at time 0.
    pub pose: Isometry<T, R, D>,
    /// The velocity of every point of the shape (world frame, length per unit of time).
    pub velocity: SVector<T, D>,
}

impl<T: Real, R, const D: usize> LinearMotion<T, R, D> {
    /// A shape at `pose` moving with `velocity`.
    #[must_use]
    pub fn new(pose: Isometry<T, R, D>, velocity: SVector<T, D>) -> Self {
        Self { pose, velocity }
    }
}

/// What a shape cast looks for and how long it may search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions<T> {
    /// The time horizon: impacts after it are not reported (≥ 0). Default 1.
    pub max_toi: T,
    /// The hit is the first time the distance reaches this (≥ 0): a safety margin for a
    /// planner, a speculative distance for a physics engine. Default 0.
    pub target_distance: T,
    /// Shapes that already overlap at time 0: `true` (default) reports a hit at time 0 with
    /// the penetration depth whatever the motion; `false` reports it only when the motion
    /// deepens the overlap (a pair moving apart gets no hit).
    pub stop_at_penetration: bool,
    /// Linear casts of shapes already within `target_distance` at time 0 that are reported
    /// as a hit: report instead the negative time at which they would have reached it
    /// along their motion (with the geometry then). Default `false`. Ignored under rotation.
    pub negative_toi: bool,
    /// Cap on conservative-advancement steps (each a GJK distance query) of
    /// [`time_of_impact`] and [`motion_is_free`]. Default 256; at the cap the cast gives
    /// up ([`CastTermination::MaxIterations`]). One that stalls before it (rounding) probes
    /// ahead, at most 128 distance queries more ([`CastTermination::Bracketed`]). The linear
    /// casts' support evaluations are capped by [`crate::Tolerances::gjk_max_iterations`].
    pub max_steps: u32,
}

impl<T: Real> Default for CastOptions<T> {
    fn default() -> Self {
        Self {
            max_toi: T::one(),
            target_distance: T::zero(),
            stop_at_penetration: true,
            negative_toi: false,
            max_steps: 256,
        }
    }
}

impl<T: Real> CastOptions<T> {
    /// Checks the fields: `max_toi` and `target_distance` finite (or infinite for floats'
    /// `max_toi`) and non-negative, `max_steps ≥ 1`.
    ///
    /// # Errors
    /// [`QueryError::InvalidCast`] naming the field.
    pub fn validate(&self) -> Result<(), QueryError> {
        if !(self.max_toi >= T::zero()) {
            return Err(QueryError::InvalidCast { what: "max_toi" });
        }
        if !(self.target_distance >= T::zero()) || !self.target_distance.is_finite() {
            return Err(QueryError::InvalidCast {
                what: "target_distance",
            });
        }
        if self.max_steps == 0 {
            return Err(QueryError::InvalidCast { what: "max_steps" });
        }
        Ok(())
    }
}

/// Why a cast stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CastTermination {
    /// Hit: the distance came within the target (up to GJK's touching band) after a proven
    /// safe approach.
    Converged,
    /// Hit at time 0 (or, when asked, a negative time): the shapes were within the target
    /// distance without overlapping, and the motion brings them closer.
    StartedWithin,
    /// Hit at time 0 (or, when asked, a negative time): the shapes overlapped at time 0
    /// (the ray started inside the solid shape).
    StartedPenetrating,
    /// No hit, proven: a separating plane that the motion never crosses (the shapes move
    /// apart, or slide along the contact they start in).
    Separating,
    /// No hit, proven: the shapes stay farther than the target until `max_toi`.
    Horizon,
    /// Gave up at the iteration or step cap: no contact before `safe_toi`, nothing known
    /// after.
    MaxIterations,
    /// Gave up: rounding stopped the progress (the distance stayed within the touching band
    /// of the target without a proof either way). No contact before `safe_toi`.
    NoProgress,
    /// Gave up: the simplex degenerated (rounding). No contact before `safe_toi`.
    Degenerate,
    /// Gave up: the motions carried the shapes beyond what the scalar holds (a rotating
    /// cast advanced towards an infinite horizon). No contact before `safe_toi`.
    BeyondRange,
    /// Hit, bracketed: the advancement stalled (rounding, a tangential approach, a step
    /// that proved nothing), and a distance probed ahead proved the shapes within the
    /// target by the hit's `toi`; none is before its `lower_bound` (`safe_toi`). The first
    /// contact is in between.
    Bracketed,
}

impl CastTermination {
    /// Whether the answer is proven (a hit or a miss), not given up on.
    #[must_use]
    pub fn is_proven(self) -> bool {
        !matches!(
            self,
            Self::MaxIterations | Self::NoProgress | Self::Degenerate | Self::BeyondRange
        )
    }
}

/// The answer of a cast: the hit, if any, and what was proven.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cast<H, T> {
    /// The first hit, or `None`: no hit before `max_toi` (proven when
    /// [`termination`](Self::termination) is proven), or the cast gave up.
    pub hit: Option<H>,
    /// Proven: no contact (distance below the target) in `[0, safe_toi)`. A hit's lower
    /// bound; `max_toi` after a proven miss; the last safe time when the cast gave up.
    /// Negative or 0 for hits at the start.
    pub safe_toi: T,
    /// Support-point evaluations, all GJK and EPA runs together.
    pub iterations: u32,
    /// Advances of the cast (for [`time_of_impact`] and [`motion_is_free`]: distance
    /// queries).
    pub steps: u32,
    /// Why it stopped.
    pub termination: CastTermination,
}

/// The hit of a ray, in the world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit<T: Real, const D: usize> {
    /// The time of impact: the hit point is `origin + toi · dir`.
    pub toi: T,
    /// Proven lower bound of the true time (no point of the ray before it is in the shape).
    pub lower_bound: T,
    /// A time by which the ray is proven to be in the shape, when one is proven (rounded
    /// shapes; closed forms); `None` when only "within the touching band" is (a polytope
    /// can be grazed that closely).
    pub upper_bound: Option<T>,
    /// The outward unit normal of the surface at the hit (facing the ray for a hit from
    /// outside; along the ray at the exit of a non-solid cast). `None` when the ray starts
    /// inside a solid shape.
    pub normal: Option<Unit<SVector<T, D>>>,
    /// `origin + toi · dir`.
    pub point: Point<T, D>,
    /// Why it stopped: [`CastTermination::Converged`] or
    /// [`CastTermination::StartedPenetrating`].
    pub termination: CastTermination,
}

/// The hit of a shape cast, in the world frame at the time of impact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit<T: Real, const D: usize> {
    /// The time of impact.
    pub toi: T,
    /// Proven lower bound of the time at which the distance first reaches the target.
    pub lower_bound: T,
    /// A time by which the distance is proven to be at most the target, when one is proven;
    /// `None` when only "within the touching band of it" is.
    pub upper_bound: Option<T>,
    /// The signed distance at `toi`: the target distance for a hit on the way, less at the
    /// start (negative: minus the penetration depth, computed by EPA in 2D and 3D; 0 in
    /// other dimensions, where no depth is computed).
    pub distance: T,
    /// The unit normal from A to B at `toi`. `None` only for shapes overlapping at the
    /// start outside 2D and 3D.
    pub normal: Option<Unit<SVector<T, D>>>,
    /// The point of A closest to B (deepest along `normal` when overlapping) at `toi`.
    pub point_a: Point<T, D>,
    /// The point of B closest to A at `toi`; `point_b − point_a = distance · normal`.
    pub point_b: Point<T, D>,
    /// Why the hit was reported: [`CastTermination::Converged`],
    /// [`CastTermination::StartedWithin`], [`CastTermination::StartedPenetrating`] or
    /// [`CastTermination::Bracketed`].
    pub termination: CastTermination,
}

/// The answer of [`cast_ray`].
pub type RayCast<T, const D: usize> = Cast<RayHit<T, D>, T>;
/// The answer of [`cast_shapes`], [`time_of_impact`] and [`motion_is_free`].
pub type ShapeCast<T, const D: usize> = Cast<ShapeHit<T, D>, T>;

impl<T: Real, const D: usize> ShapeCast<T, D> {
    /// Whether the motion is proven free: no hit, and proven.
    #[must_use]
    pub fn is_free(&self) -> bool {
        self.hit.is_none() && self.termination.is_proven()
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for nalgebra::Const<1> {}
    impl Sealed for nalgebra::Const<2> {}
    impl Sealed for nalgebra::Const<3> {}
    impl Sealed for nalgebra::Const<4> {}
    impl Sealed for nalgebra::Const<5> {}
    impl Sealed for nalgebra::Const<6> {}
}

/// The dimensions linear casts run in, `Const<1>` to `Const<6>` (sealed): 2D and 3D also
/// compute the penetration depth of shapes overlapping at the start (EPA).
pub trait CastDim<T: Real, const D: usize>: crate::Dim + sealed::Sealed {
    /// The signed distance of `a` and `b` (one frame): `Some` in 2D and 3D (GJK, then EPA
    /// when the cores overlap), `None` elsewhere.
    #[doc(hidden)]
    fn signed<A, B>(
        a: &A,
        b: &B,
        tol: &crate::Tolerances<T>,
    ) -> Result<Option<Contact<T, D>>, QueryError>
    where
        A: SupportMap<T, D> + ?Sized,
        B: SupportMap<T, D> + ?Sized;
}

macro_rules! no_depth {
    ($($d:literal),*) => {$(
        impl<T: Real> CastDim<T, $d> for nalgebra::Const<$d> {
            fn signed<A, B>(_: &A, _: &B, _: &crate::Tolerances<T>) -> Result<Option<Contact<T, $d>>, QueryError>
            where
                A: SupportMap<T, $d> + ?Sized,
                B: SupportMap<T, $d> + ?Sized,
            {
                Ok(None)
            }
        }
    )*};
}
no_depth!(1, 4, 5, 6);

macro_rules! with_depth {
    ($($d:literal),*) => {$(
        impl<T: Real> CastDim<T, $d> for nalgebra::Const<$d> {
            fn signed<A, B>(a: &A, b: &B, tol: &crate::Tolerances<T>) -> Result<Option<Contact<T, $d>>, QueryError>
            where
                A: SupportMap<T, $d> + ?Sized,
                B: SupportMap<T, $d> + ?Sized,
            {
                let id = Isometry::<T, nalgebra::Rotation<T, $d>, $d>::identity();
                crate::query::contact(&id, a, &id, b, tol).map(Some)
            }
        }
    )*};
}
with_depth!(2, 3);

/// Checks that every coordinate of `v` is finite.
fn check_vector<T: Real, const D: usize>(
    v: &SVector<T, D>,
    what: &'static str,
) -> Result<(), QueryError> {
    if crate::real::all_finite(v) {
        Ok(())
    } else {
        Err(QueryError::InvalidCast { what })
    }
}
