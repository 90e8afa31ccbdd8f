//! Queries on posed shapes: poses in, world-frame results out.
//!
//! Each query works in A's local frame (B placed by `pose_a⁻¹ · pose_b`), which keeps the
//! digits of pairs far from the world origin, then maps its results to the world frame.

use crate::{
    Real, Tolerances,
    clip::Manifold,
    gjk::{Distance, Intersection},
    pose::{Frame, PoseRotation},
    shape::SupportMap,
};
use nalgebra::{Isometry, Point, SMatrix, SVector};

/// The free function of a [`PosedPair`] method of the same name: the five inputs spelled
/// out (`&tol` marks where the tolerances go among the method's own arguments), and the
/// bounds every pair query shares written once here:
///
/// ```text
/// posed_query! {
///     /// docs
///     pub fn distance_within_with_cache(margin: T, &tol, cache: &mut Cache<T, D>) -> Proximity<T, D>
///         where Const<D>: Dim, shapes: SupportMap;
/// }
/// ```
macro_rules! posed_query {
    (
        $(#[$attr:meta])*
        pub fn $name:ident $(<$obs:ident: $obs_bound:path>)? (
            $($pre:ident: $pre_ty:ty,)* &tol $(, $post:ident: $post_ty:ty)*
        ) -> $out:ty
        where Const<D>: $dim:path, shapes: $shape:ident;
    ) => {
        $(#[$attr])*
        #[inline]
        pub fn $name<T, R, const D: usize, A, B $(, $obs)?>(
            pose_a: &::nalgebra::Isometry<T, R, D>,
            a: &A,
            pose_b: &::nalgebra::Isometry<T, R, D>,
            b: &B,
            $($pre: $pre_ty,)*
            tol: &$crate::Tolerances<T>,
            $($post: $post_ty,)*
        ) -> Result<$out, $crate::QueryError>
        where
            T: $crate::Real,
            R: $crate::pose::PoseRotation<T, D>,
            ::nalgebra::Const<D>: $dim,
            A: $shape<T, D> + ?Sized,
            B: $shape<T, D> + ?Sized,
            $($obs: $obs_bound,)?
        {
            $crate::query::PosedPair::new(pose_a, a, pose_b, b, tol).$name($($pre,)* $($post),*)
        }
    };
}

mod capped;
mod contact;
mod distance;
mod manifold;
mod touching;
mod traced;
pub use contact::{
    Contact, Predicted, contact, contact_with_cache, contact_with_workspace, contact_within,
};
pub use distance::{
    Proximity, distance, distance_with_cache, distance_within, distance_within_with_cache,
    intersection, intersection_with_cache, intersects, intersects_with_cache,
};
pub use manifold::{manifold, manifold_with_workspace};
pub use traced::{contact_traced, distance_traced, intersection_traced};

pub use crate::cast::{
    Cast, CastOptions, CastTermination, LinearMotion, Ray, RayCast, RayHit, RigidMotion, ShapeCast,
    ShapeHit, cast_ray, cast_shapes, motion_is_free, time_of_impact,
};

/// Shape `S` placed in another frame by a rigid motion `x ↦ R·x + t` (B in A's frame). The
/// rotation is kept as a matrix, built once from the pose's rotation applied to the axes:
/// two matrix products per support beat two quaternion rotations.
struct Placed<'a, S: ?Sized, T: Real, const D: usize> {
    shape: &'a S,
    rot: SMatrix<T, D, D>,
    t: SVector<T, D>,
}

impl<'a, S: ?Sized, T: Real, const D: usize> Placed<'a, S, T, D> {
    fn new(shape: &'a S, frame: &Frame<T, D>) -> Self {
        Self {
            shape,
            rot: frame.rot,
            t: frame.t,
        }
    }
}

impl<S, T, const D: usize> SupportMap<T, D> for Placed<'_, S, T, D>
where
    S: SupportMap<T, D> + ?Sized,
    T: Real,
{
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let p = self.shape.support(&self.rot.tr_mul(dir));
        Point::from(self.rot * p.coords + self.t)
    }
    #[inline]
    fn radius(&self) -> T {
        self.shape.radius()
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let p = self.shape.core_support(&self.rot.tr_mul(dir));
        Point::from(self.rot * p.coords + self.t)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        Point::from(self.rot * self.shape.center().coords + self.t)
    }
}

/// Two posed shapes and the tolerances: the input every pair query shares (Box2D's
/// `b2DistanceInput`). Its methods are the queries of this module, the free functions
/// ([`distance`], [`contact`], …) the same with the five arguments spelled out.
///
/// ```
/// use convex_proximity::{Tolerances, query::PosedPair, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry3, Vector3};
/// let (cube, ball) = (Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0)), Ball::new(0.5));
/// let (pa, pb, tol) = (Isometry3::identity(), Isometry3::translation(3.0, 0.0, 0.0), Tolerances::default());
/// let pair = PosedPair::new(&pa, &cube, &pb, &ball, &tol);
/// assert!((pair.distance().unwrap().distance - 1.5).abs() < 1e-12);
/// assert!(!pair.intersects().unwrap());
/// ```
pub struct PosedPair<'a, T: Real, R, const D: usize, A: ?Sized, B: ?Sized> {
    /// Shape A's pose (local to world).
    pub pose_a: &'a Isometry<T, R, D>,
    /// Shape A.
    pub a: &'a A,
    /// Shape B's pose.
    pub pose_b: &'a Isometry<T, R, D>,
    /// Shape B.
    pub b: &'a B,
    /// The thresholds of the queries.
    pub tol: &'a Tolerances<T>,
}

impl<T: Real, R, const D: usize, A: ?Sized, B: ?Sized> Clone for PosedPair<'_, T, R, D, A, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Real, R, const D: usize, A: ?Sized, B: ?Sized> Copy for PosedPair<'_, T, R, D, A, B> {}

impl<'a, T: Real, R, const D: usize, A: ?Sized, B: ?Sized> PosedPair<'a, T, R, D, A, B> {
    /// The pair `a` at `pose_a`, `b` at `pose_b`, under `tol`.
    pub fn new(
        pose_a: &'a Isometry<T, R, D>,
        a: &'a A,
        pose_b: &'a Isometry<T, R, D>,
        b: &'a B,
        tol: &'a Tolerances<T>,
    ) -> Self {
        Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        }
    }
}

/// The rounding of composing the two poses into B's pose in A's frame: the bounds of a
/// result computed there are widened by it (`gjk_touching` of the translations).
/// By plain comparisons ([`crate::real::amax`], the value of nalgebra's `amax` for the
/// finite translations every caller has checked before using the band).
#[inline]
pub(crate) fn pose_band<T: Real, R: PoseRotation<T, D>, const D: usize>(
    pose_a: &Isometry<T, R, D>,
    pose_b: &Isometry<T, R, D>,
    tol: &Tolerances<T>,
) -> T {
    use crate::real::amax;
    tol.gjk_touching * (amax(&pose_a.translation.vector) + amax(&pose_b.translation.vector))
}

/// A margin (or prediction distance) as the queries use it: fixed-point caps it at
/// [`range::MARGIN_EXTENTS`](crate::tolerance::range::MARGIN_EXTENTS) times the range of a
/// coordinate (no two shapes in range are that far apart), so that adding the radii cannot
/// wrap; floats keep it.
#[inline]
pub(crate) fn cap_margin<T: Real>(margin: T) -> T {
    if crate::real::is_fixed::<T>() {
        let extents = crate::tolerance::range::MARGIN_EXTENTS;
        let cap = crate::real::lit::<T>(extents * crate::input::fixed_extent_limit::<T>());
        margin.min(cap)
    } else {
        margin
    }
}

/// The proven lower bound of an answer classified against a margin: `Some` when GJK stopped
/// at a separating plane beyond the margin (its early exit, `Within`) or the lower bound is
/// above it; clamped to the margin (the exit's test `μ > margin + bands` is strict;
/// subtracting the bands again can round an ulp below it). [`Proximity`] and
/// [`Predicted`] are both classified by it.
#[inline]
fn proven_beyond<T: Real>(termination: crate::Termination, lower_bound: T, margin: T) -> Option<T> {
    (termination == crate::Termination::SeparatingAxis || lower_bound > margin)
        .then(|| lower_bound.max(margin))
}

/// An answer computed in A's local frame, with that frame to map it to the world.
struct InFrameA<T: Real, const D: usize, O> {
    /// A's frame: local to world.
    frame_a: Frame<T, D>,
    /// The answer, in A's frame.
    local: O,
}

/// Maps an intersection test's separating axis from A's frame to the world frame.
fn intersection_to_world<T: Real, const D: usize>(
    frame_a: &Frame<T, D>,
    hit: Intersection<T, D>,
) -> Intersection<T, D> {
    Intersection {
        axis: hit.axis.map(|n| frame_a.transform_unit(&n)),
        ..hit
    }
}

/// Maps a distance computed in A's frame to the world frame, its bounds widened by the
/// poses' rounding `band`.
fn to_world<T: Real, const D: usize>(
    frame_a: &Frame<T, D>,
    d: Distance<T, D>,
    band: T,
) -> Distance<T, D> {
    Distance {
        lower_bound: (d.lower_bound - band).max(T::zero()),
        upper_bound: d.upper_bound + band,
        point_a: frame_a.transform_point(&d.point_a),
        point_b: frame_a.transform_point(&d.point_b),
        normal: d.normal.map(|n| frame_a.transform_unit(&n)),
        ..d
    }
}

// ---------------------------------------------------------------- aliases

/// [`Distance`] in 2D.
pub type Distance2<T> = Distance<T, 2>;
/// [`Distance`] in 3D.
pub type Distance3<T> = Distance<T, 3>;
/// [`Intersection`] in 2D.
pub type Intersection2<T> = Intersection<T, 2>;
/// [`Intersection`] in 3D.
pub type Intersection3<T> = Intersection<T, 3>;
/// [`Contact`] in 2D.
pub type Contact2<T> = Contact<T, 2>;
/// [`Contact`] in 3D.
pub type Contact3<T> = Contact<T, 3>;
/// [`Manifold`] in 2D (up to 2 points).
pub type Manifold2<T> = Manifold<T, 2>;
/// [`Manifold`] in 3D (up to 4 points).
pub type Manifold3<T> = Manifold<T, 3>;
/// [`Proximity`] in 2D.
pub type Proximity2<T> = Proximity<T, 2>;
/// [`Proximity`] in 3D.
pub type Proximity3<T> = Proximity<T, 3>;
