//! Queries on posed shapes: poses in, world-frame results out.
//!
//! Each query works in A's local frame (B placed by `pose_a⁻¹ · pose_b`), which keeps the
//! digits of pairs far from the world origin, then maps its results to the world frame.

use crate::{
    QueryError, Real, Termination, Tolerances,
    clip::{self, Built, FeatureMap, LocalContact, Manifold, ManifoldWorkspace},
    dim::Dim,
    epa::{self, ContactDim, Workspace},
    gjk::{self, Cache, Distance, Intersection, Mode, Run, Simplex},
    linalg::Witnesses,
    pose::{Frame, PoseRotation, relative},
    real::normalize,
    shape::SupportMap,
    tolerance::{allowance, range, ulps},
    trace::Observer,
};
use nalgebra::{Const, Isometry, Point, SMatrix, SVector, Unit};

mod capped;
mod touching;
mod traced;
use touching::{penetrating_cores, touching_contact, touching_cores};
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

/// The queries on shapes with support maps, any dimension.
impl<T, R, const D: usize, A, B> PosedPair<'_, T, R, D, A, B>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    /// [`distance`] of this pair.
    ///
    /// # Errors
    /// As [`distance`].
    #[inline]
    pub fn distance(&self) -> Result<Distance<T, D>, QueryError> {
        self.distance_in(None)
    }

    /// [`distance_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`distance_with_cache`].
    #[inline]
    pub fn distance_with_cache(
        &self,
        cache: &mut Cache<T, D>,
    ) -> Result<Distance<T, D>, QueryError> {
        self.distance_in(Some(cache))
    }

    /// [`intersects`] of this pair.
    ///
    /// # Errors
    /// As [`intersects`].
    #[inline]
    pub fn intersects(&self) -> Result<bool, QueryError> {
        if let Some(hit) =
            crate::pair::intersects(self.pose_a, self.a, self.pose_b, self.b, self.tol)
        {
            return Ok(hit);
        }
        Ok(self.intersection_in(None)?.1.intersects)
    }

    /// [`intersects_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`intersects_with_cache`].
    #[inline]
    pub fn intersects_with_cache(&self, cache: &mut Cache<T, D>) -> Result<bool, QueryError> {
        Ok(self.intersection_in(Some(cache))?.1.intersects)
    }

    /// [`intersection`] of this pair.
    ///
    /// # Errors
    /// As [`intersection`].
    #[inline]
    pub fn intersection(&self) -> Result<Intersection<T, D>, QueryError> {
        self.intersection_world(None)
    }

    /// [`intersection_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`intersection_with_cache`].
    #[inline]
    pub fn intersection_with_cache(
        &self,
        cache: &mut Cache<T, D>,
    ) -> Result<Intersection<T, D>, QueryError> {
        self.intersection_world(Some(cache))
    }

    /// [`distance_within`] of this pair.
    ///
    /// # Errors
    /// As [`distance_within`].
    #[inline]
    pub fn distance_within(&self, margin: T) -> Result<Proximity<T, D>, QueryError> {
        self.within(margin, None)
    }

    /// [`distance_within_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`distance_within_with_cache`].
    #[inline]
    pub fn distance_within_with_cache(
        &self,
        margin: T,
        cache: &mut Cache<T, D>,
    ) -> Result<Proximity<T, D>, QueryError> {
        self.within(margin, Some(cache))
    }

    /// [`distance`] with an optional warm start (then without the pair fast paths).
    #[inline]
    fn distance_in(&self, cache: Option<&mut Cache<T, D>>) -> Result<Distance<T, D>, QueryError> {
        let (pose_a, pose_b, tol) = (self.pose_a, self.pose_b, self.tol);
        if cache.is_none()
            && let Some(d) = crate::pair::distance(pose_a, self.a, pose_b, self.b, tol)
        {
            return Ok(d);
        }
        let (frame_a, d) = self.posed(cache, |a, b, s| gjk::distance_unchecked(a, b, tol, s))?;
        Ok(to_world(&frame_a, d, pose_band(pose_a, pose_b, tol)))
    }

    /// GJK's intersection test in A's frame, with an optional warm start.
    #[inline]
    fn intersection_in(
        &self,
        cache: Option<&mut Cache<T, D>>,
    ) -> Result<(Frame<T, D>, Intersection<T, D>), QueryError> {
        let tol = self.tol;
        self.posed(cache, |a, b, s| gjk::intersects_unchecked(a, b, tol, s))
    }

    /// [`Self::intersection_in`] with the axis in the world frame.
    #[inline]
    fn intersection_world(
        &self,
        cache: Option<&mut Cache<T, D>>,
    ) -> Result<Intersection<T, D>, QueryError> {
        let (frame_a, hit) = self.intersection_in(cache)?;
        Ok(Intersection {
            axis: hit
                .axis
                .map(|n| Unit::new_unchecked(frame_a.transform_vector(&n))),
            ..hit
        })
    }

    /// Runs a GJK query `run` in A's frame (B placed by the relative pose), warm-started
    /// from `cache` and storing the final simplex back into it when one is given; returns
    /// A's frame with the answer.
    #[inline]
    fn posed<O>(
        &self,
        cache: Option<&mut Cache<T, D>>,
        run: impl FnOnce(&A, &Placed<'_, B, T, D>, &mut Simplex<T, D>) -> Result<O, QueryError>,
    ) -> Result<(Frame<T, D>, O), QueryError> {
        let (a, b) = (self.a, self.b);
        crate::input::check_pair(a, b)?;
        let (frame_a, rel) = relative(self.pose_a, self.pose_b)?;
        let placed = Placed::new(b, &rel);
        let mut simplex = cache.as_ref().map_or_else(Simplex::new, |c| c.seed());
        let out = run(a, &placed, &mut simplex)?;
        if let Some(c) = cache {
            c.store(&simplex);
        }
        Ok((frame_a, out))
    }

    /// [`distance_within`] with an optional warm start. The pair fast paths answer first
    /// (as in [`distance`]); GJK's margin is widened by the poses' rounding band, which
    /// [`to_world`] then takes off the lower bound, so an early exit's bound stays above the
    /// margin. Fixed-point caps the margin at [`range::MARGIN_EXTENTS`] times the range of
    /// a coordinate (no two shapes in range are that far apart), so that adding the radii
    /// cannot wrap.
    #[inline]
    fn within(
        &self,
        margin: T,
        cache: Option<&mut Cache<T, D>>,
    ) -> Result<Proximity<T, D>, QueryError> {
        let (pose_a, pose_b, tol) = (self.pose_a, self.pose_b, self.tol);
        if !(margin >= T::zero()) || !margin.is_finite() {
            return Err(QueryError::InvalidTolerance { field: "margin" });
        }
        let mut margin = margin;
        if crate::real::is_fixed::<T>() {
            let extents = range::MARGIN_EXTENTS;
            let cap = crate::real::lit::<T>(extents * crate::input::fixed_extent_limit::<T>());
            margin = margin.min(cap);
        }
        if cache.is_none()
            && let Some(d) = crate::pair::distance(pose_a, self.a, pose_b, self.b, tol)
        {
            return Ok(Proximity::of(d, margin));
        }
        let band = pose_band(pose_a, pose_b, tol);
        let (frame_a, d) = self.posed(cache, |a, b, s| {
            gjk::distance_within_unchecked(a, b, margin + band, tol, s)
        })?;
        Ok(Proximity::of(to_world(&frame_a, d, band), margin))
    }
}

/// The signed-distance queries: 2D and 3D.
impl<T, R, const D: usize, A, B> PosedPair<'_, T, R, D, A, B>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    /// [`contact`] of this pair.
    ///
    /// # Errors
    /// As [`contact`].
    #[inline]
    pub fn contact(&self) -> Result<Contact<T, D>, QueryError> {
        self.contact_in(None, None)
    }

    /// [`contact_with_workspace`] of this pair.
    ///
    /// # Errors
    /// As [`contact_with_workspace`].
    #[inline]
    pub fn contact_with_workspace(
        &self,
        workspace: &mut Workspace<T, D>,
    ) -> Result<Contact<T, D>, QueryError> {
        self.contact_in(Some(workspace), None)
    }

    /// [`contact_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`contact_with_cache`].
    #[inline]
    pub fn contact_with_cache(&self, cache: &mut Cache<T, D>) -> Result<Contact<T, D>, QueryError> {
        self.contact_in(None, Some(cache))
    }

    /// [`contact`] with EPA's memory from `workspace`, or from this thread's pool when
    /// `None` (only if EPA runs: a separated pair needs none); warm-started from `cache`
    /// (then without the pair fast paths, as [`distance_with_cache`]) when one is given.
    #[inline]
    fn contact_in(
        &self,
        workspace: Option<&mut Workspace<T, D>>,
        cache: Option<&mut Cache<T, D>>,
    ) -> Result<Contact<T, D>, QueryError> {
        let Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        if cache.is_none()
            && let Some(c) = crate::pair::contact(pose_a, a, pose_b, b, tol)
        {
            return Ok(c);
        }
        self.contact_gjk(workspace, cache, &mut ())
    }

    /// [`Self::contact_in`] without the pair fast paths: GJK, then EPA if the cores
    /// overlap, reporting to `obs`.
    #[inline]
    fn contact_gjk<O: Observer<T, D>>(
        &self,
        workspace: Option<&mut Workspace<T, D>>,
        cache: Option<&mut Cache<T, D>>,
        obs: &mut O,
    ) -> Result<Contact<T, D>, QueryError> {
        let Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        tol.validate()?;
        crate::input::check_pair(a, b)?;
        let (frame_a, rel) = relative(pose_a, pose_b)?;
        let c = contact_local(a, &Placed::new(b, &rel), tol, workspace, cache, obs)?;
        let band = pose_band(pose_a, pose_b, tol);
        Ok(Contact {
            lower_bound: c.lower_bound - band,
            upper_bound: c.upper_bound + band,
            point_a: frame_a.transform_point(&c.point_a),
            point_b: frame_a.transform_point(&c.point_b),
            normal: Unit::new_unchecked(frame_a.transform_vector(&c.normal)),
            ..c
        })
    }
}

/// The manifold queries: 2D and 3D, shapes with features.
impl<T, R, const D: usize, A, B> PosedPair<'_, T, R, D, A, B>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    /// [`manifold`] of this pair.
    ///
    /// # Errors
    /// As [`manifold`].
    #[inline]
    pub fn manifold(&self, prediction: T) -> Result<Manifold<T, D>, QueryError> {
        crate::scratch::with(|ws: &mut ManifoldWorkspace<T, D>| {
            self.manifold_with_workspace(prediction, ws)
        })
    }

    /// [`manifold_with_workspace`] of this pair.
    ///
    /// # Errors
    /// As [`manifold`].
    #[inline]
    pub fn manifold_with_workspace(
        &self,
        prediction: T,
        workspace: &mut ManifoldWorkspace<T, D>,
    ) -> Result<Manifold<T, D>, QueryError> {
        let Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        tol.validate()?;
        if !(prediction >= T::zero()) || !prediction.is_finite() {
            return Err(QueryError::InvalidTolerance {
                field: "prediction",
            });
        }
        crate::input::check_pair(a, b)?;
        let (frame_a, rel) = relative(pose_a, pose_b)?;
        let mut m = Manifold::empty(crate::linalg::any_axis());
        let boxes = match (a.half_extents(), b.half_extents()) {
            (Some(ha), Some(hb)) => {
                match box_axis(&ha, &hb, &rel, prediction, tol, &mut m) {
                    // Separated boxes: s(n) is the distance only if a pair along n is that
                    // close. `build` certifies it: a deepest pair shallower than s(n) +
                    // slack needs the witnesses, which a face axis does not have, and it
                    // falls back.
                    BoxAxis::Clip(local) => {
                        clip::build(a, b, &rel, &local, prediction, workspace, &mut m)
                    }
                    BoxAxis::Decided(built) => built,
                }
            }
            _ => Built::FallBack,
        };
        if boxes == Built::FallBack {
            let c = contact_local(
                a,
                &Placed::new(b, &rel),
                tol,
                Some(&mut workspace.epa),
                None,
                &mut (),
            )?;
            let extent = c.point_a.coords.amax().max(c.point_b.coords.amax());
            let local = LocalContact {
                separation: c.separation,
                normal: c.normal,
                witness: Some(Witnesses {
                    a: c.point_a,
                    b: c.point_b,
                }),
                slack: slack(c.upper_bound - c.lower_bound)(extent),
                rounding: slack(T::zero())(extent),
                reference_bias: tol.manifold_reference_bias,
                min_alignment: tol.manifold_min_alignment,
            };
            m.reset(c.normal);
            if c.separation <= prediction + local.slack
                && clip::build(a, b, &rel, &local, prediction, workspace, &mut m) == Built::FallBack
            {
                m.reset(c.normal);
            }
        }
        m.map(
            |p| frame_a.transform_point(p),
            |n| frame_a.transform_vector(n),
        );
        Ok(m)
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
        normal: d
            .normal
            .map(|n| nalgebra::Unit::new_unchecked(frame_a.transform_vector(&n))),
        ..d
    }
}

/// The distance between shape `a` at `pose_a` and shape `b` at `pose_b`, with closest
/// points, the normal from A to B, the proven bounds and GJK's iteration count and
/// termination, all in the world frame.
///
/// The same call works in 2D and 3D, in `f32`, `f64` and fixed-point.
///
/// # Errors
/// [`QueryError::NonFinitePose`] for a NaN/∞ pose, [`QueryError::NonFiniteSupport`] if a
/// shape's support map returns one, [`QueryError::InvalidTolerance`] for a bad tolerance.
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Ball, Capsule, Cuboid}};
/// use nalgebra::{Isometry2, Isometry3, Point2, Vector2, Vector3};
/// // 3D, f64: a unit cube and a ball 3 units away along x.
/// let d = query::distance(
///     &Isometry3::identity(), &Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0)),
///     &Isometry3::translation(3.0, 0.0, 0.0), &Ball::new(0.5),
///     &Tolerances::default(),
/// ).unwrap();
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// assert!((d.normal.unwrap().x - 1.0).abs() < 1e-12);
/// // 2D, f32: two capsules.
/// let c = Capsule::new(Point2::new(-1.0f32, 0.0), Point2::new(1.0, 0.0), 0.25);
/// let d = query::distance(
///     &Isometry2::identity(), &c, &Isometry2::new(Vector2::new(0.0, 2.0), 0.3), &c,
///     &Tolerances::default(),
/// ).unwrap();
/// assert!(d.distance > 0.0 && d.distance < 2.0);
/// ```
pub fn distance<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
) -> Result<Distance<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).distance()
}

/// [`distance`], warm-started from `cache` and leaving the final simplex in it for the
/// next query on the same pair (see [`Cache`]).
///
/// # Errors
/// As [`distance`]. The cache is left unchanged on error.
pub fn distance_with_cache<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
    cache: &mut Cache<T, D>,
) -> Result<Distance<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).distance_with_cache(cache)
}

/// Whether shape `a` at `pose_a` and shape `b` at `pose_b` touch or overlap. Stops at the
/// first separating axis; shapes closer than the touching tolerance count as touching.
/// `false` is always proven (a separating plane beyond the rounding band). `true` is
/// proven touching or overlap, except when GJK stopped without a proof either way (a
/// stall at the arithmetic's resolution, the iteration cap): then it is the conservative
/// answer "not proven apart". [`intersection`] tells them apart by its termination
/// (docs/gjk.md §3).
///
/// # Errors
/// As [`distance`].
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry2, Vector2};
/// let (a, b) = (Cuboid::new(Vector2::new(1.0, 1.0)), Ball::new(0.5));
/// let tol = Tolerances::default();
/// assert!(query::intersects(&Isometry2::identity(), &a, &Isometry2::translation(1.4, 0.0), &b, &tol).unwrap());
/// assert!(!query::intersects(&Isometry2::identity(), &a, &Isometry2::translation(1.6, 0.0), &b, &tol).unwrap());
/// ```
pub fn intersects<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
) -> Result<bool, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).intersects()
}

/// [`intersects`], warm-started from `cache` (the last simplex, whose closest point is
/// usually still a separating axis) and leaving the final simplex in it.
///
/// # Errors
/// As [`distance`]. The cache is left unchanged on error.
pub fn intersects_with_cache<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
    cache: &mut Cache<T, D>,
) -> Result<bool, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).intersects_with_cache(cache)
}

/// Whether shape `a` at `pose_a` and shape `b` at `pose_b` touch or overlap, with the
/// evidence: GJK's [`Intersection`] (the verdict; when apart, the separating axis from A
/// to B in the world frame; the iterations and why GJK stopped). The verdict is
/// [`intersects`]'s except within the rounding band, since this runs GJK without the
/// closed forms of [`intersects`]' pair fast paths (which have no axis to give).
///
/// # Errors
/// As [`distance`].
///
/// ```
/// use convex_proximity::{Termination, Tolerances, query, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry2, Vector2};
/// let (a, b) = (Cuboid::new(Vector2::new(1.0, 1.0)), Ball::new(0.5));
/// let tol = Tolerances::default();
/// let hit = query::intersection(&Isometry2::identity(), &a, &Isometry2::translation(1.6, 0.0), &b, &tol).unwrap();
/// assert!(!hit.intersects && hit.termination == Termination::SeparatingAxis);
/// assert!(hit.axis.unwrap().x > 0.5);
/// ```
pub fn intersection<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
) -> Result<Intersection<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).intersection()
}

/// [`intersection`], warm-started from `cache` and leaving the final simplex in it.
///
/// # Errors
/// As [`distance`]. The cache is left unchanged on error.
pub fn intersection_with_cache<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
    cache: &mut Cache<T, D>,
) -> Result<Intersection<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).intersection_with_cache(cache)
}

/// The signed distance between two shapes: positive apart, negative overlapping (minus the
/// penetration depth), with the contact normal and the points on each shape, in the world
/// frame.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "ContactDef"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<T: Real, const D: usize> {
    /// The signed distance: `> 0` apart, `< 0` penetrating (`−depth`), `0` touching.
    pub separation: T,
    /// The unit direction from A to B: moving B by `−separation` along it makes the shapes
    /// touch. Continuous across `separation = 0`.
    pub normal: Unit<SVector<T, D>>,
    /// The point of A farthest along `normal` (on A's boundary). After a cap
    /// ([`Termination::MaxIterations`]): a point of A within the bounds' width of it.
    pub point_a: Point<T, D>,
    /// The point of B farthest along `−normal`; `point_b − point_a = separation · normal`.
    pub point_b: Point<T, D>,
    /// A proven lower bound of `separation`.
    pub lower_bound: T,
    /// A proven upper bound of `separation`.
    pub upper_bound: T,
    /// Support evaluations of GJK and EPA together.
    pub iterations: u32,
    /// Why the last algorithm run (GJK if apart, EPA if the cores overlap) stopped.
    pub termination: Termination,
}

/// The signed distance between shape `a` at `pose_a` and shape `b` at `pose_b`: GJK first;
/// apart → the distance; cores overlapping → EPA's penetration depth, negated. Rounded
/// shapes run on their cores, so shallow contacts of balls and capsules never need EPA.
///
/// Works in 2D and 3D (`Const<D>: ContactDim`), for f32, f64 and fixed-point.
///
/// # Errors
/// As [`distance`].
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
/// let tol = Tolerances::default();
/// let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
/// let c = query::contact(&Isometry3::identity(), &cube, &Isometry3::translation(1.5, 0.0, 0.0), &cube, &tol).unwrap();
/// assert!((c.separation + 0.5f64).abs() < 1e-12 && (c.normal.x - 1.0).abs() < 1e-12);
/// let c = query::contact(&Isometry2::identity(), &Cuboid::new(Vector2::new(1.0f32, 1.0)),
///                        &Isometry2::translation(0.0, 1.2), &Ball::new(0.5f32), &Default::default()).unwrap();
/// assert!((c.separation + 0.3).abs() < 1e-5);
/// ```
pub fn contact<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).contact()
}

/// [`contact`] with EPA's memory supplied: no heap allocation once the workspace has grown
/// to the largest polytope seen.
///
/// # Errors
/// As [`distance`].
pub fn contact_with_workspace<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
    workspace: &mut Workspace<T, D>,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).contact_with_workspace(workspace)
}

/// [`contact`] in A's frame (`b` already placed there); GJK seeded from `cache` (its
/// vertices re-derived from the current shapes) and its final simplex stored back on
/// success.
fn contact_local<T, const D: usize, A, B, O>(
    a: &A,
    placed: &B,
    tol: &Tolerances<T>,
    workspace: Option<&mut Workspace<T, D>>,
    cache: Option<&mut Cache<T, D>>,
    obs: &mut O,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
    O: Observer<T, D>,
{
    let mut c = contact_uncapped(a, placed, tol, workspace, cache, obs)?;
    if c.termination == Termination::MaxIterations {
        capped::cover_witnesses(a, placed, tol, &mut c)?;
    }
    Ok(c)
}

/// [`contact_local`] before a capped answer's bounds are made to cover its witnesses.
fn contact_uncapped<T, const D: usize, A, B, O>(
    a: &A,
    placed: &B,
    tol: &Tolerances<T>,
    workspace: Option<&mut Workspace<T, D>>,
    cache: Option<&mut Cache<T, D>>,
    obs: &mut O,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
    O: Observer<T, D>,
{
    let (ra, rb) = (a.radius(), placed.radius());
    let margin = ra + rb;
    let mut simplex = cache.as_ref().map_or_else(Simplex::new, |c| c.seed());
    let core = Run::new(a, placed, tol, &mut simplex, Mode::Distance).observed(obs)?;
    let store = |simplex: &Simplex<T, D>| {
        if let Some(c) = cache {
            c.store(simplex);
        }
    };
    // Cores proven apart (a separating plane beyond the rounding): GJK's answer, minus the
    // radii (negative when the round parts overlap). Otherwise (the cores touch, overlap,
    // or GJK could not prove either) EPA decides.
    if core.proves_apart(T::zero())
        && let Some(n) = normalize(&-core.dir)
    {
        store(&simplex);
        return Ok(Contact {
            separation: core.upper - margin,
            normal: n,
            point_a: core.a + n.into_inner() * ra,
            point_b: core.b - n.into_inner() * rb,
            lower_bound: core.lower.min(core.upper) - margin - core.band,
            upper_bound: core.upper - margin + core.band,
            iterations: core.iterations,
            termination: core.termination,
        });
    }
    if let Some(c) = touching_contact(a, placed, &core, &simplex, tol, ra, rb)? {
        store(&simplex);
        return Ok(c);
    }
    // Cores meet: EPA's depth, plus the radii. Unless GJK proved the origin inside A − B,
    // EPA's polytope holds it only up to rounding and GJK's ‖v‖ (a point of A − B) bounds
    // the separation above as well; both widened by the rounding band.
    let mut epa =
        |ws: &mut Workspace<T, D>| epa::penetration_observed(a, placed, &simplex, tol, ws, obs);
    let p = match workspace {
        Some(ws) => epa(ws),
        None => crate::scratch::with(epa),
    }?;
    store(&simplex);
    // EPA found no overlap (`Touching`: the origin on or outside the boundary of the cores'
    // A − B). Its pair `a − b` (a point of A − B) is 0 only if the origin is on a facet it
    // found; GJK, stopped before proving the cores apart (its iteration cap), holds another
    // point `v`. A depth of 0 with a pair `‖a − b‖` apart broke `b − a = separation · n`
    // (docs/epa.md §4): the pair nearer the origin is the answer, apart by its length.
    if p.termination == Termination::Touching {
        return Ok(touching_cores(&core, &p, ra, rb));
    }
    Ok(penetrating_cores(&core, &p, ra, rb))
}

/// The contact manifold of shape `a` at `pose_a` and shape `b` at `pose_b`: up to 4 points
/// (2 in 2D) within `prediction` of touching (speculative contacts) or penetrating, with
/// one normal from A to B and feature ids for warm-starting a solver; world frame.
///
/// The normal comes from [`contact`]; the features of both shapes along it are clipped
/// against each other ([`crate::clip`], docs/clipping.md).
///
/// # Errors
/// As [`distance`]; [`QueryError::InvalidTolerance`] (`"prediction"`) for a negative or
/// non-finite `prediction`.
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::Cuboid};
/// use nalgebra::{Isometry3, Vector3};
/// // A unit cube resting on a wide slab, sunk 0.01 into it: four corners touch.
/// let slab = Cuboid::new(Vector3::new(5.0, 0.5, 5.0));
/// let cube = Cuboid::new(Vector3::new(0.5, 0.5, 0.5));
/// let m = query::manifold(&Isometry3::identity(), &slab, &Isometry3::translation(0.0, 0.99, 0.0), &cube,
///                         0.0, &Tolerances::default()).unwrap();
/// assert_eq!(m.len(), 4);
/// assert!(m.points().iter().all(|p| (p.separation + 0.01f64).abs() < 1e-12));
/// assert!((m.normal.y - 1.0).abs() < 1e-12);
/// ```
pub fn manifold<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    prediction: T,
    tol: &Tolerances<T>,
) -> Result<Manifold<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).manifold(prediction)
}

/// [`manifold`] with its scratch memory supplied: no heap allocation once warm.
///
/// # Errors
/// As [`manifold`].
pub fn manifold_with_workspace<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    prediction: T,
    tol: &Tolerances<T>,
    workspace: &mut ManifoldWorkspace<T, D>,
) -> Result<Manifold<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).manifold_with_workspace(prediction, workspace)
}

/// What the separating-axis test of two cuboids leaves to do.
enum BoxAxis<T: Real, const D: usize> {
    /// Clip the features along this contact (docs/clipping.md §5).
    Clip(LocalContact<T, D>),
    /// Decided without clipping: [`Built::Manifold`] (farther than the prediction: `m` is
    /// the empty manifold along the axis) or [`Built::FallBack`] (the general path decides).
    Decided(Built),
}

/// Two cuboids: the separating-axis test gives the contact, which the same clipping then
/// uses. [`Built::FallBack`] when the test's axis cannot be certified: no axis, or an
/// edge–edge axis without closest points inside both edges (`clip::build` falls back too
/// for clipped points that do not reach its separation: separated boxes, or an overlap
/// whose deepest point overhangs the reference face).
fn box_axis<T: Real, const D: usize>(
    ha: &SVector<T, D>,
    hb: &SVector<T, D>,
    rel: &Frame<T, D>,
    prediction: T,
    tol: &Tolerances<T>,
    m: &mut Manifold<T, D>,
) -> BoxAxis<T, D> {
    let (rot, t) = (rel.rot, rel.t);
    let extent = t.amax() + ha.amax() + hb.amax();
    let slack = slack(T::zero())(extent);
    let Some(axis) = clip::boxes::sat(ha, hb, &rot, &t, slack) else {
        return BoxAxis::Decided(Built::FallBack);
    };
    if axis.separation > prediction + slack {
        // Every s(n) is at most the distance: farther than the prediction.
        m.reset(axis.normal);
        return BoxAxis::Decided(Built::Manifold);
    }
    if axis.edge && axis.witness.is_none() {
        return BoxAxis::Decided(Built::FallBack);
    }
    BoxAxis::Clip(LocalContact {
        separation: axis.separation,
        normal: axis.normal,
        witness: axis.witness,
        slack,
        rounding: slack,
        reference_bias: tol.manifold_reference_bias,
        min_alignment: tol.manifold_min_alignment,
    })
}

/// How far a manifold point may be from the contact's answer and still count as the same:
/// the contact's bounds' width plus the rounding of a clipped pair
/// ([`allowance::CLIPPED_PAIR`] of the coordinates' size, and in fixed-point
/// [`allowance::CLIPPED_PAIR_FIXED`] absolute; docs/clipping.md §2).
fn slack<T: Real>(width: T) -> impl Fn(T) -> T {
    let floor = if crate::real::is_fixed::<T>() {
        ulps::<T>(allowance::CLIPPED_PAIR_FIXED)
    } else {
        T::zero()
    };
    let per_unit = ulps::<T>(allowance::CLIPPED_PAIR);
    move |extent| width.abs() + per_unit * extent + floor
}

// ---------------------------------------------------------------- margin queries

/// The answer of [`distance_within`]: how the distance compares with a margin.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "ProximityDef"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Proximity<T: Real, const D: usize> {
    /// The distance is proven larger than the margin: a separating plane, found as soon as
    /// GJK's lower bound passed the margin and the rounding band.
    Disjoint {
        /// A proven lower bound of the distance, at least the margin (equal to it when the
        /// strict test that proved the pair beyond it rounds to the margin itself).
        lower_bound: T,
        /// GJK's iterations (1 for a pair with a closed form).
        iterations: u32,
    },
    /// Apart, and not proven farther than the margin: the distance, closest points, normal
    /// and bounds exactly as [`distance`] computes them (the same run). `distance` is at
    /// most the margin up to its bounds' width.
    WithinMargin(Distance<T, D>),
    /// Touching or overlapping (distance 0 within the touching tolerance), as [`distance`]
    /// answers it: a common point, no normal.
    Intersecting(Distance<T, D>),
}

impl<T: Real, const D: usize> Proximity<T, D> {
    /// Whether the shapes are proven farther apart than the margin.
    #[must_use]
    pub fn is_disjoint(&self) -> bool {
        matches!(self, Self::Disjoint { .. })
    }

    /// The distance when the pair is within the margin (apart or intersecting).
    #[must_use]
    pub fn distance(&self) -> Option<&Distance<T, D>> {
        match self {
            Self::Disjoint { .. } => None,
            Self::WithinMargin(d) | Self::Intersecting(d) => Some(d),
        }
    }

    /// A distance classified against the margin: GJK stopped at a separating axis beyond
    /// it (its early exit), or a converged lower bound above it.
    fn of(d: Distance<T, D>, margin: T) -> Self {
        if d.termination == Termination::SeparatingAxis || d.lower_bound > margin {
            // The exit's test `μ > margin + bands` is strict; subtracting the bands again
            // can round an ulp below the margin.
            Self::Disjoint {
                lower_bound: d.lower_bound.max(margin),
                iterations: d.iterations,
            }
        } else if d.normal.is_none() {
            Self::Intersecting(d)
        } else {
            Self::WithinMargin(d)
        }
    }
}

/// Whether shape `a` at `pose_a` and shape `b` at `pose_b` are farther apart than
/// `margin`, and their distance when they are not: a planner's clearance check, which
/// needs the distance only near the obstacles. GJK stops as soon as its separating-plane
/// lower bound exceeds the margin (plus the rounding), so a far pair costs the few
/// iterations that prove it; a pair within the margin gets the same run, and the same
/// answer, as [`distance`].
///
/// # Errors
/// As [`distance`]; [`QueryError::InvalidTolerance`] (`"margin"`) for a negative or
/// non-finite margin.
///
/// ```
/// use convex_proximity::{Tolerances, query::{self, Proximity}, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry3, Vector3};
/// let (a, b) = (Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0)), Ball::new(0.5));
/// let tol = Tolerances::default();
/// let far = Isometry3::translation(10.0, 0.0, 0.0);
/// let r = query::distance_within(&Isometry3::identity(), &a, &far, &b, 0.5, &tol).unwrap();
/// assert!(matches!(r, Proximity::Disjoint { lower_bound, .. } if lower_bound > 0.5));
/// let near = Isometry3::translation(1.8, 0.0, 0.0);
/// let r = query::distance_within(&Isometry3::identity(), &a, &near, &b, 0.5, &tol).unwrap();
/// assert!(matches!(r, Proximity::WithinMargin(d) if (d.distance - 0.3).abs() < 1e-12));
/// ```
pub fn distance_within<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    margin: T,
    tol: &Tolerances<T>,
) -> Result<Proximity<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).distance_within(margin)
}

/// [`distance_within`], warm-started from `cache` and leaving the final simplex in it (see
/// [`Cache`]; an early exit leaves the simplex that proved the pair apart).
///
/// # Errors
/// As [`distance_within`]. The cache is left unchanged on error.
pub fn distance_within_with_cache<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    margin: T,
    tol: &Tolerances<T>,
    cache: &mut Cache<T, D>,
) -> Result<Proximity<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).distance_within_with_cache(margin, cache)
}

// ---------------------------------------------------------------- warm signed distances

/// [`contact`], warm-started from `cache` and leaving GJK's final simplex in it for the
/// next query on the same pair: GJK starts from the previous simplex (its vertices
/// re-derived from the shapes as they are now, so a cache from another pair only costs
/// speed, see [`Cache`]), then EPA runs from GJK's simplex as in [`contact`]. No pair fast
/// path (as [`distance_with_cache`]); EPA's memory comes from this thread's pool.
///
/// # Errors
/// As [`contact`]. The cache is left unchanged on error.
///
/// ```
/// use convex_proximity::{Tolerances, query, gjk::Cache, shape::Cuboid};
/// use nalgebra::{Isometry3, Vector3};
/// let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
/// let (tol, mut cache) = (Tolerances::default(), Cache::new());
/// for step in 0..5 {
///     let pose_b = Isometry3::translation(2.2 - 0.1 * step as f64, 0.0, 0.0);
///     let c = query::contact_with_cache(&Isometry3::identity(), &cube, &pose_b, &cube, &tol, &mut cache).unwrap();
///     assert!((c.separation - (0.2 - 0.1 * step as f64)).abs() < 1e-12);
/// }
/// ```
pub fn contact_with_cache<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    tol: &Tolerances<T>,
    cache: &mut Cache<T, D>,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    PosedPair::new(pose_a, a, pose_b, b, tol).contact_with_cache(cache)
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
