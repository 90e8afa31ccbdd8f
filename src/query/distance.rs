//! Distance, intersection and margin queries: [`distance`], [`intersects`],
//! [`intersection`], [`distance_within`] (with their warm-started forms), and the pair's
//! methods for shapes with support maps, any dimension.

use crate::{
    QueryError, Real,
    dim::Dim,
    gjk::{self, Cache, Cores, Distance, Intersection, Simplex},
    pose::PoseRotation,
    shape::SupportMap,
    trace::Observer,
};
use nalgebra::Const;

use super::{InFrameA, Placed, PosedPair, intersection_to_world, pose_band, to_world};

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
        if let Some(hit) = self.closed_intersects() {
            return Ok(hit);
        }
        Ok(self.intersection_local(None, &mut ())?.local.intersects)
    }

    /// [`intersects_with_cache`] of this pair.
    ///
    /// # Errors
    /// As [`intersects_with_cache`].
    #[inline]
    pub fn intersects_with_cache(&self, cache: &mut Cache<T, D>) -> Result<bool, QueryError> {
        Ok(self
            .intersection_local(Some(cache), &mut ())?
            .local
            .intersects)
    }

    /// [`intersection`] of this pair.
    ///
    /// # Errors
    /// As [`intersection`].
    #[inline]
    pub fn intersection(&self) -> Result<Intersection<T, D>, QueryError> {
        self.intersection_world(None, &mut ())
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
        self.intersection_world(Some(cache), &mut ())
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

    /// [`super::distance_traced`] of this pair.
    ///
    /// # Errors
    /// As [`super::distance`].
    pub fn distance_traced<O: Observer<T, D>>(
        &self,
        trace: &mut O,
    ) -> Result<Distance<T, D>, QueryError> {
        self.distance_gjk(None, trace)
    }

    /// [`super::intersection_traced`] of this pair.
    ///
    /// # Errors
    /// As [`super::distance`].
    pub fn intersection_traced<O: Observer<T, D>>(
        &self,
        trace: &mut O,
    ) -> Result<Intersection<T, D>, QueryError> {
        self.intersection_world(None, trace)
    }

    /// [`distance`] with an optional warm start (then without the pair fast paths).
    #[inline]
    fn distance_in(&self, cache: Option<&mut Cache<T, D>>) -> Result<Distance<T, D>, QueryError> {
        if cache.is_none()
            && let Some(d) = self.closed_distance()
        {
            return Ok(d);
        }
        self.distance_gjk(cache, &mut ())
    }

    /// GJK's distance without the pair fast paths, reporting to `obs`, in the world frame.
    #[inline]
    fn distance_gjk<O: Observer<T, D>>(
        &self,
        cache: Option<&mut Cache<T, D>>,
        obs: &mut O,
    ) -> Result<Distance<T, D>, QueryError> {
        let tol = self.tol;
        let d = self.posed(cache, |pair, s| gjk::distance_observed(pair, tol, s, obs))?;
        Ok(to_world(
            &d.frame_a,
            d.local,
            pose_band(self.pose_a, self.pose_b, tol),
        ))
    }

    /// GJK's intersection test in A's frame, with an optional warm start, reporting to
    /// `obs`.
    #[inline]
    fn intersection_local<O: Observer<T, D>>(
        &self,
        cache: Option<&mut Cache<T, D>>,
        obs: &mut O,
    ) -> Result<InFrameA<T, D, Intersection<T, D>>, QueryError> {
        let tol = self.tol;
        self.posed(cache, |pair, s| gjk::intersects_observed(pair, tol, s, obs))
    }

    /// [`Self::intersection_local`] with the axis in the world frame.
    #[inline]
    fn intersection_world<O: Observer<T, D>>(
        &self,
        cache: Option<&mut Cache<T, D>>,
        obs: &mut O,
    ) -> Result<Intersection<T, D>, QueryError> {
        let hit = self.intersection_local(cache, obs)?;
        Ok(intersection_to_world(&hit.frame_a, hit.local))
    }

    /// Runs a GJK query `run` in A's frame (B placed by the relative pose), warm-started
    /// from `cache` and storing the final simplex back into it when one is given; returns
    /// the answer with A's frame.
    #[inline]
    fn posed<O>(
        &self,
        cache: Option<&mut Cache<T, D>>,
        run: impl FnOnce(Cores<'_, A, Placed<'_, B, T, D>>, &mut Simplex<T, D>) -> Result<O, QueryError>,
    ) -> Result<InFrameA<T, D, O>, QueryError> {
        let (a, b) = (self.a, self.b);
        let rel = crate::input::check_posed_pair(self.pose_a, a, self.pose_b, b)?;
        let placed = Placed::new(b, &rel.b_in_a);
        let mut simplex = cache.as_ref().map_or_else(Simplex::new, |c| c.seed());
        let local = run(Cores { a, b: &placed }, &mut simplex)?;
        if let Some(c) = cache {
            c.store(&simplex);
        }
        Ok(InFrameA {
            frame_a: rel.frame_a,
            local,
        })
    }

    /// [`distance_within`] with an optional warm start. The pair fast paths answer first
    /// (as in [`distance`]); GJK's margin is widened by the poses' rounding band, which
    /// [`to_world`] then takes off the lower bound, so an early exit's bound stays above the
    /// margin. Fixed-point caps the margin ([`super::cap_margin`]).
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
        let margin = super::cap_margin(margin);
        if cache.is_none()
            && let Some(d) = self.closed_distance()
        {
            return Ok(Proximity::of(d, margin));
        }
        let band = pose_band(pose_a, pose_b, tol);
        let d = self.posed(cache, |pair, s| {
            gjk::distance_within_unchecked(pair, margin + band, tol, s)
        })?;
        Ok(Proximity::of(to_world(&d.frame_a, d.local, band), margin))
    }
}

posed_query! {
    /// The distance between shape `a` at `pose_a` and shape `b` at `pose_b`, with closest
    /// points, the normal from A to B, the proven bounds and GJK's iteration count and
    /// termination, all in the world frame.
    ///
    /// The same call works in 2D and 3D, in `f32`, `f64` and fixed-point.
    ///
    /// # Errors
    /// [`QueryError::NonFinitePose`] for a NaN/∞ pose, [`QueryError::NonFiniteSupport`] if a
    /// shape's support map returns one.
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
    pub fn distance(&tol) -> Distance<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`distance`], warm-started from `cache` and leaving the final simplex in it for the
    /// next query on the same pair (see [`Cache`]).
    ///
    /// # Errors
    /// As [`distance`]. The cache is left unchanged on error.
    pub fn distance_with_cache(&tol, cache: &mut Cache<T, D>) -> Distance<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
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
    pub fn intersects(&tol) -> bool
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`intersects`], warm-started from `cache` (the last simplex, whose closest point is
    /// usually still a separating axis) and leaving the final simplex in it.
    ///
    /// # Errors
    /// As [`distance`]. The cache is left unchanged on error.
    pub fn intersects_with_cache(&tol, cache: &mut Cache<T, D>) -> bool
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
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
    pub fn intersection(&tol) -> Intersection<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`intersection`], warm-started from `cache` and leaving the final simplex in it.
    ///
    /// # Errors
    /// As [`distance`]. The cache is left unchanged on error.
    pub fn intersection_with_cache(&tol, cache: &mut Cache<T, D>) -> Intersection<T, D>
        where Const<D>: Dim, shapes: SupportMap;
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
        if let Some(lower_bound) = super::proven_beyond(d.termination, d.lower_bound, margin) {
            Self::Disjoint {
                lower_bound,
                iterations: d.iterations,
            }
        } else if d.normal.is_none() {
            Self::Intersecting(d)
        } else {
            Self::WithinMargin(d)
        }
    }
}

posed_query! {
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
    pub fn distance_within(margin: T, &tol) -> Proximity<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`distance_within`], warm-started from `cache` and leaving the final simplex in it (see
    /// [`Cache`]; an early exit leaves the simplex that proved the pair apart).
    ///
    /// # Errors
    /// As [`distance_within`]. The cache is left unchanged on error.
    pub fn distance_within_with_cache(margin: T, &tol, cache: &mut Cache<T, D>) -> Proximity<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}
