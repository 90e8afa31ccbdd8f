//! Signed-distance queries, 2D and 3D: [`Contact`], [`contact`] (GJK, then EPA for
//! overlapping cores) with its workspace and warm-started forms, and the pair's methods.

use crate::{
    QueryError, Real, Termination, Tolerances,
    epa::{self, ContactDim, Workspace},
    gjk::{Cache, Cores, Difference, Mode, Run, Simplex},
    pose::PoseRotation,
    real::normalize,
    shape::SupportMap,
    trace::Observer,
};
use nalgebra::Const;

use super::{
    Placed, PosedPair, pose_band,
    touching::{epa_contact, touching_contact},
};

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

    /// [`contact_within`] of this pair.
    ///
    /// # Errors
    /// As [`contact_within`].
    #[inline]
    pub fn contact_within(&self, prediction: T) -> Result<Predicted<T, D>, QueryError> {
        if !(prediction >= T::zero()) || !prediction.is_finite() {
            return Err(QueryError::InvalidTolerance {
                field: "prediction",
            });
        }
        let prediction = super::cap_margin(prediction);
        if let Some(c) = self.closed_contact() {
            return Ok(Predicted::of(c, prediction));
        }
        let c = self.contact_gjk(None, None, &mut (), Some(prediction))?;
        Ok(Predicted::of(c, prediction))
    }

    /// [`super::contact_traced`] of this pair.
    ///
    /// # Errors
    /// As [`super::distance`].
    pub fn contact_traced<O: Observer<T, D>>(
        &self,
        trace: &mut O,
    ) -> Result<Contact<T, D>, QueryError> {
        self.contact_gjk(None, None, trace, None)
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
        if cache.is_none()
            && let Some(c) = self.closed_contact()
        {
            return Ok(c);
        }
        self.contact_gjk(workspace, cache, &mut (), None)
    }

    /// [`Self::contact_in`] without the pair fast paths: GJK, then EPA if the cores
    /// overlap, reporting to `obs`; GJK stopped at a separating plane once the shapes are
    /// proven farther apart than `prediction` when given (widened by the poses' rounding
    /// band, which the world-frame bounds then take off: [`contact_local`]).
    #[inline]
    fn contact_gjk<O: Observer<T, D>>(
        &self,
        workspace: Option<&mut Workspace<T, D>>,
        cache: Option<&mut Cache<T, D>>,
        obs: &mut O,
        prediction: Option<T>,
    ) -> Result<Contact<T, D>, QueryError> {
        let Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        let rel = crate::input::check_posed_pair(pose_a, a, pose_b, b)?;
        let cores = Cores {
            a,
            b: &Placed::new(b, &rel.b_in_a),
        };
        let band = pose_band(pose_a, pose_b, tol);
        let beyond = prediction.map(|p| p + band);
        let c = contact_local(&cores, tol, workspace, cache, obs, beyond)?;
        let frame_a = &rel.frame_a;
        Ok(Contact {
            lower_bound: c.lower_bound - band,
            upper_bound: c.upper_bound + band,
            point_a: frame_a.transform_point(&c.point_a),
            point_b: frame_a.transform_point(&c.point_b),
            normal: frame_a.transform_unit(&c.normal),
            ..c
        })
    }
}

pub use crate::epa::Contact;

posed_query! {
    /// The signed distance between shape `a` at `pose_a` and shape `b` at `pose_b`: GJK first;
    /// apart → the distance; cores overlapping → EPA's penetration depth, negated. Rounded
    /// shapes run on their cores, so shallow contacts of balls and capsules never need EPA.
    ///
    /// Works in 2D and 3D (`Const<D>: ContactDim`), for f32, f64 and fixed-point.
    ///
    /// # Errors
    /// As [`distance`](super::distance).
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
    pub fn contact(&tol) -> Contact<T, D>
        where Const<D>: ContactDim<T, D>, shapes: SupportMap;
}

posed_query! {
    /// [`contact`] with EPA's memory supplied: no heap allocation once the workspace has grown
    /// to the largest polytope seen.
    ///
    /// # Errors
    /// As [`distance`](super::distance).
    pub fn contact_with_workspace(&tol, workspace: &mut Workspace<T, D>) -> Contact<T, D>
        where Const<D>: ContactDim<T, D>, shapes: SupportMap;
}

posed_query! {
    /// [`contact`] with a prediction distance, as a physics engine asks it: the shapes'
    /// signed distance when it is at most `prediction` (touching and overlapping pairs
    /// included), else a proof that they are farther apart. GJK stops at the first
    /// separating plane beyond the prediction (plus the rounding), so a far pair costs only
    /// the iterations that prove it ([`Predicted::Apart`]); every other pair gets
    /// [`contact`]'s run and answer, bit for bit. Pairs with a closed form compute their
    /// contact and compare it.
    ///
    /// # Errors
    /// As [`contact`]; [`QueryError::InvalidTolerance`] (field `"prediction"`) for a
    /// negative, NaN or infinite `prediction`.
    ///
    /// ```
    /// use convex_proximity::{Tolerances, query::{self, Predicted}, shape::Cuboid};
    /// use nalgebra::Isometry3;
    /// let (cube, tol) = (Cuboid::new(nalgebra::Vector3::new(1.0f64, 1.0, 1.0)), Tolerances::default());
    /// let near = Isometry3::translation(2.05, 0.0, 0.0); // 0.05 apart
    /// let far = Isometry3::translation(5.0, 0.0, 0.0); // 3 apart
    /// let id = Isometry3::identity();
    /// match query::contact_within(&id, &cube, &near, &cube, 0.1, &tol).unwrap() {
    ///     Predicted::Contact(c) => assert!((c.separation - 0.05).abs() < 1e-12),
    ///     Predicted::Apart { .. } => unreachable!(),
    /// }
    /// let r = query::contact_within(&id, &cube, &far, &cube, 0.1, &tol).unwrap();
    /// assert!(r.is_apart() && r.contact().is_none());
    /// ```
    pub fn contact_within(prediction: T, &tol) -> Predicted<T, D>
        where Const<D>: ContactDim<T, D>, shapes: SupportMap;
}

/// The answer of [`contact_within`]: the contact, or the shapes proven farther apart than
/// the prediction distance.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Predicted<T: Real, const D: usize> {
    /// The distance is proven larger than the prediction: a separating plane, found as soon
    /// as GJK's lower bound passed the prediction and the rounding band (or a closed form's
    /// lower bound above it).
    Apart {
        /// A proven lower bound of the distance, at least the prediction (equal to it when
        /// the strict test that proved the pair beyond it rounds to the prediction itself).
        lower_bound: T,
        /// GJK's iterations (1 for a pair with a closed form).
        iterations: u32,
    },
    /// Within the prediction up to the bounds (apart, touching or overlapping): the signed
    /// distance as [`contact`] computes it.
    Contact(Contact<T, D>),
}

impl<T: Real, const D: usize> Predicted<T, D> {
    /// Whether the shapes are proven farther apart than the prediction.
    #[must_use]
    pub fn is_apart(&self) -> bool {
        matches!(self, Self::Apart { .. })
    }

    /// The contact when the pair is within the prediction.
    #[must_use]
    pub fn contact(&self) -> Option<&Contact<T, D>> {
        match self {
            Self::Apart { .. } => None,
            Self::Contact(c) => Some(c),
        }
    }

    /// A contact classified against the prediction: GJK stopped at a separating plane
    /// beyond it, or a lower bound above it.
    fn of(c: Contact<T, D>, prediction: T) -> Self {
        match super::proven_beyond(c.termination, c.lower_bound, prediction) {
            Some(lower_bound) => Self::Apart {
                lower_bound,
                iterations: c.iterations,
            },
            None => Self::Contact(c),
        }
    }
}

/// [`contact`] in A's frame (the cores' `pair`, B already placed there); GJK seeded from
/// `cache` (its vertices re-derived from the current shapes) and its final simplex stored
/// back on success. Algorithm:
/// 1. GJK on the cores.
/// 2. Cores proven apart (a separating plane beyond the rounding): GJK's answer, minus the
///    radii (negative when the round parts overlap).
/// 3. Cores touching to the rounding, proven without EPA ([`touching_contact`]).
/// 4. Otherwise EPA's depth of the cores, plus the radii.
/// 5. A capped answer's bounds are made to cover its witnesses.
///
/// With `beyond` (a distance between the shapes), GJK stops at the first separating plane
/// that proves them farther apart (`Mode::Within`, as [`distance_within`]): step 2 then
/// answers with termination [`Termination::SeparatingAxis`], its separation an estimate
/// within the bounds. Otherwise the run is [`contact`]'s, step for step.
///
/// [`distance_within`]: super::distance_within
pub(super) fn contact_local<T, const D: usize, P, O>(
    pair: &P,
    tol: &Tolerances<T>,
    workspace: Option<&mut Workspace<T, D>>,
    cache: Option<&mut Cache<T, D>>,
    obs: &mut O,
    beyond: Option<T>,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    P: Difference<T, D>,
    O: Observer<T, D>,
{
    let (ra, rb) = (pair.radius_a(), pair.radius_b());
    let margin = ra + rb;
    let mut simplex = cache.as_ref().map_or_else(Simplex::new, |c| c.seed());
    let mode = beyond.map_or(Mode::Distance, |m| Mode::Within { margin: margin + m });
    let core = Run::on(*pair, tol, &mut simplex, mode).observed(obs)?;
    let mut c = if core.proves_apart(T::zero())
        && let Some(n) = normalize(&-core.dir)
    {
        let mut c = Contact {
            separation: core.upper - margin,
            normal: n,
            point_a: core.a + n.into_inner() * ra,
            point_b: core.b - n.into_inner() * rb,
            lower_bound: core.lower.min(core.upper) - margin - core.band,
            upper_bound: core.upper - margin + core.band,
            iterations: core.iterations,
            termination: core.termination,
        };
        if super::capped::pushed_past_the_width(margin, &core) {
            super::capped::cover_witnesses(pair, tol, &mut c)?;
        }
        c
    } else if let Some(c) = touching_contact(pair, &core, &simplex, tol, ra, rb)? {
        c
    } else {
        // Unless GJK proved the origin inside A − B, EPA's polytope holds it only up to
        // rounding and GJK's ‖v‖ (a point of A − B) bounds the separation above as well;
        // both widened by the rounding band.
        let mut epa =
            |ws: &mut Workspace<T, D>| epa::penetration_observed(pair, &simplex, tol, ws, obs);
        let p = match workspace {
            Some(ws) => epa(ws),
            None => crate::scratch::with(epa),
        }?;
        // EPA found no overlap (`Touching`: the origin on or outside the boundary of the
        // cores' A − B). Its pair `a − b` (a point of A − B) is 0 only if the origin is on a
        // facet it found; GJK, stopped before proving the cores apart (its iteration cap),
        // holds another point `v`. A depth of 0 with a pair `‖a − b‖` apart broke
        // `b − a = separation · n` (docs/epa.md §4): the pair nearer the origin is the
        // answer, apart by its length.
        epa_contact(&core, &p, ra, rb)
    };
    if let Some(cache) = cache {
        cache.store(&simplex);
    }
    if c.termination == Termination::MaxIterations {
        super::capped::cover_witnesses(pair, tol, &mut c)?;
    }
    Ok(c)
}

// ---------------------------------------------------------------- warm signed distances

posed_query! {
    /// [`contact`], warm-started from `cache` and leaving GJK's final simplex in it for the
    /// next query on the same pair: GJK starts from the previous simplex (its vertices
    /// re-derived from the shapes as they are now, so a cache from another pair only costs
    /// speed, see [`Cache`]), then EPA runs from GJK's simplex as in [`contact`]. No pair fast
    /// path (as [`distance_with_cache`](super::distance_with_cache)); EPA's memory comes from this thread's pool.
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
    pub fn contact_with_cache(&tol, cache: &mut Cache<T, D>) -> Contact<T, D>
        where Const<D>: ContactDim<T, D>, shapes: SupportMap;
}
