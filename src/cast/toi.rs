//! Time of impact under rigid motions, by conservative advancement (Mirtich 1996; the
//! normal-projected bound of Zhang et al. 2006), and the planners' motion check
//! (docs/casts.md §4–5).
//!
//! At time `t`, GJK gives the normal `n` of a separating plane (from its closest point `v`)
//! and `ℓ`, that plane's gap (not GJK's best bound over its directions). Under the motions
//! every point of A moves along `n` at most at `n·v_A + ‖n × ω_A‖·ρ_A` and every point of B
//! along `−n` at most at `−n·v_B + ‖n × ω_B‖·ρ_B` (`ρ`: a proven bound of the core's reach
//! about its rotation centre, [`super::motion`]), so the plane's gap shrinks at most at
//!
//! ```text
//! μ = n·(v_A − v_B) + ‖n × ω_A‖ ρ_A + ‖n × ω_B‖ ρ_B
//! ```
//!
//! and the cores stay beyond the margin `m` until `t + (ℓ − m)/μ`. `μ ≤ 0`: never. Where
//! that cannot step (a start within the margin) or converges slowly, and at every step of
//! a motion check, the plane's gap is also bounded over a whole step by the chord bound of
//! the turning supports (`arc.rs`, docs/casts.md §4.1).

use super::{
    Cast, CastDim, CastOptions, CastTermination, RigidMotion, RotationDim, ShapeCast, ShapeHit,
    arc::Plane,
    linear::{cast_local, place},
    motion::{Frame, core_reach},
    ray::{miss, stalled},
};
use crate::{
    QueryError, Real, Tolerances,
    gjk::{Cache, Cores, Mode, Run, plane_min, support_limit},
    real::{norm, normalize},
    shape::SupportMap,
};
use nalgebra::{Const, Isometry, Rotation, SMatrix, SVector, Translation, Unit};

/// The first time in `[0, options.max_toi]` at which shapes `a` and `b`, following their
/// rigid motions, come within `options.target_distance` of each other, with the normal
/// from A to B and the closest points then, in the world frame; 2D and 3D.
///
/// Conservative advancement (Mirtich 1996) on GJK distances warm-started from step to
/// step: every step is proven safe by a bound on how fast any point of either shape moves
/// along the separating plane's normal, so a thin shape turning fast cannot tunnel. The
/// answer's `safe_toi` is the last time proven safe. When rounding stalls it (a tangential
/// approach, a contact that deepens to second order only) or a step proves nothing (a GJK
/// stopped short by its tolerances), distances probed ahead look for a time proven within
/// the target: a [`CastTermination::Bracketed`] hit, the first contact between `safe_toi`
/// and its `toi`; without one ([`CastTermination::NoProgress`]), and at the step cap
/// ([`CastOptions::max_steps`], [`CastTermination::MaxIterations`]), it reports the last
/// safe time alone, never a made-up hit. Motions without rotation take the exact linear cast ([`cast_shapes`](super::cast_shapes)).
///
/// Shapes within the target at time 0: a hit at 0 when they overlap and
/// `stop_at_penetration`, or when the relative velocity at the contact approaches; else the
/// cast goes on and reports the first later time the shapes come back within their starting
/// distance (for touching shapes: the next contact). `negative_toi` applies to motions
/// without rotation only.
///
/// # Errors
/// As [`cast_shapes`](super::cast_shapes); [`QueryError::InvalidCast`] for a non-finite or
/// non-rigid motion; in fixed point, [`QueryError::OutOfRange`] for a rotation centre
/// ([`RigidMotion::local_center`]) beyond the shapes' range.
///
/// ```
/// use convex_proximity::{Tolerances, query::{self, CastOptions, RigidMotion}, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry2, Point2, Vector2};
/// // A thin bar (half-length 2) turning a full turn per unit of time about its centre, and a
/// // ball whose centre is 1.5 from the bar's: the tip sweeps over the ball within a quarter turn.
/// let bar = Cuboid::new(Vector2::new(2.0, 0.01));
/// let ball = Ball::new(0.1);
/// let spin = RigidMotion::new(&Isometry2::identity(), Point2::origin(), Vector2::zeros(), std::f64::consts::TAU);
/// let rest = RigidMotion::fixed(&Isometry2::translation(0.0, 1.5));
/// let cast = query::time_of_impact(&spin, &bar, &rest, &ball, &CastOptions::default(), &Tolerances::default()).unwrap();
/// let toi = cast.hit.unwrap().toi;
/// assert!(toi > 0.2 && toi < 0.25, "{toi}");
/// ```
pub fn time_of_impact<T, const D: usize, A, B>(
    motion_a: &RigidMotion<T, D>,
    a: &A,
    motion_b: &RigidMotion<T, D>,
    b: &B,
    options: &CastOptions<T>,
    tol: &Tolerances<T>,
) -> Result<ShapeCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: RotationDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let pair = Pair {
        motion_a,
        a,
        motion_b,
        b,
    };
    pair.cast(options, false, tol)
}

/// Whether shapes `a` and `b`, following their motions over `t ∈ [0, 1]` (for
/// [`RigidMotion::between`], the whole segment), stay at least `margin` apart: the answer's
/// [`is_free`](Cast::is_free), with the first time they come within the margin as its hit
/// (a start within the margin is a hit at 0, whatever the motion) and `steps` the distance
/// queries spent. Conservative advancement as in [`time_of_impact`], warm-started across
/// its steps; a run that gives up (step cap 256) is not free.
///
/// # Errors
/// As [`time_of_impact`]; [`QueryError::InvalidCast`] for a negative or NaN margin.
///
/// ```
/// use convex_proximity::{Tolerances, query::{self, RigidMotion}, shape::{Capsule, Cuboid}};
/// use nalgebra::{Isometry3, Point3, Vector3};
/// // A link of reach 1.1 swinging past a box whose nearest corner is 1.131 from the pivot:
/// // free with a margin of 0.01, not with 0.1.
/// let link = Capsule::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.1);
/// let obstacle = Cuboid::new(Vector3::new(0.2, 0.2, 0.2));
/// let swing = RigidMotion::between(&Isometry3::identity(), &Isometry3::rotation(Vector3::z() * 1.5));
/// let at = RigidMotion::fixed(&Isometry3::translation(1.0, 1.0, 0.0));
/// let tol = Tolerances::default();
/// assert!(query::motion_is_free(&swing, &link, &at, &obstacle, 0.01, &tol).unwrap().is_free());
/// let near = query::motion_is_free(&swing, &link, &at, &obstacle, 0.1, &tol).unwrap();
/// assert!(!near.is_free() && near.hit.is_some());
/// ```
pub fn motion_is_free<T, const D: usize, A, B>(
    motion_a: &RigidMotion<T, D>,
    a: &A,
    motion_b: &RigidMotion<T, D>,
    b: &B,
    margin: T,
    tol: &Tolerances<T>,
) -> Result<ShapeCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: RotationDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let options = CastOptions {
        max_toi: T::one(),
        target_distance: margin,
        ..CastOptions::default()
    };
    let pair = Pair {
        motion_a,
        a,
        motion_b,
        b,
    };
    pair.cast(&options, true, tol)
}

/// The `μ` steps of a time of impact after which each step also tries the chord bound
/// (arc.rs): by then the advancement converges slowly (a grazing approach, the bound `μ`
/// far above the true rate).
const CHORD_AFTER_STEPS: u32 = 128;

/// The two shapes and their motions.
struct Pair<'p, T: Real, const D: usize, A: ?Sized, B: ?Sized>
where
    Const<D>: RotationDim<T, D>,
{
    motion_a: &'p RigidMotion<T, D>,
    a: &'p A,
    motion_b: &'p RigidMotion<T, D>,
    b: &'p B,
}

/// One step's GJK answer, in A's frame at time `t`.
struct Probe<T: Real, const D: usize> {
    rot_a: SMatrix<T, D, D>,
    tr_a: SVector<T, D>,
    out: Core<T, D>,
}

/// GJK's answer on the cores: the closest point `v` of `A − B` and its witnesses, the
/// bounds of the core distance, the touching band, the support evaluations.
struct Core<T: Real, const D: usize> {
    v: SVector<T, D>,
    a: nalgebra::Point<T, D>,
    b: nalgebra::Point<T, D>,
    upper: T,
    lower: T,
    /// The gap of the plane normal to `v` (`≤ lower`): what a step along `v` may use.
    plane: T,
    band: T,
    iterations: u32,
}

impl<T, const D: usize, A, B> Pair<'_, T, D, A, B>
where
    T: Real,
    Const<D>: RotationDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    /// The inputs checked, then the exact linear cast when both motions are translations,
    /// else conservative advancement; `planner`: [`motion_is_free`]'s reading of a start
    /// within the margin (a hit whatever the motion).
    #[inline]
    fn cast(
        &self,
        options: &CastOptions<T>,
        planner: bool,
        tol: &Tolerances<T>,
    ) -> Result<ShapeCast<T, D>, QueryError> {
        options.validate()?;
        crate::input::check_pair(self.a, self.b)?;
        if !self.motion_a.is_valid() || !self.motion_b.is_valid() {
            return Err(QueryError::InvalidCast { what: "motion" });
        }
        // Fixed point: a rotation centre beyond the shapes' range (`input::fixed_extent_limit`)
        // would overflow the reach bound (`core_reach` squares its distance), and so would a
        // centre that leaves it before the horizon (norms of its positions wrap; a square
        // root of the wrapped value did not return).
        if crate::real::is_fixed::<T>() {
            let limit = crate::input::fixed_extent_limit::<T>();
            let horizon = crate::shape::f64_of(options.max_toi);
            let far = |m: &RigidMotion<T, D>| {
                let path = crate::shape::extent_of(&m.center_at(T::zero()).coords)
                    + crate::shape::extent_of(&m.linear_velocity()) * horizon;
                !(crate::shape::extent_of(&m.local_center().coords) <= limit && path <= limit)
            };
            if far(self.motion_a) || far(self.motion_b) {
                return Err(QueryError::OutOfRange);
            }
        }
        if self.motion_a.is_translation() && self.motion_b.is_translation() {
            return self.linear(options, tol, planner);
        }
        self.advance(options, planner, tol)
    }

    /// Both motions are translations: the exact linear cast (a planner's start within the
    /// margin is a hit whatever the motion).
    fn linear(
        &self,
        options: &CastOptions<T>,
        tol: &Tolerances<T>,
        planner: bool,
    ) -> Result<ShapeCast<T, D>, QueryError> {
        let pose = |m: &RigidMotion<T, D>| {
            let f = m.frame_at(T::zero());
            Isometry::from_parts(
                Translation::from(f.translation),
                Rotation::from_matrix_unchecked(f.rot),
            )
        };
        let (pa, pb) = (pose(self.motion_a), pose(self.motion_b));
        let (va, vb) = (
            self.motion_a.linear_velocity(),
            self.motion_b.linear_velocity(),
        );
        let rel = pa.inv_mul(&pb);
        let placed = place(self.b, rel.rotation.matrix(), &rel.translation.vector)?;
        let u = pa.inverse_transform_vector(&(vb - va));
        let mut cast = if planner {
            let probe = self.probe(T::zero(), tol, &mut Cache::new())?;
            if probe.out.upper <= self.margin(options) + probe.out.band {
                let hit = self.start_hit(&probe, T::zero(), tol)?;
                return Ok(self.hit_at_start(hit, options, probe.out.iterations));
            }
            cast_local(self.a, &placed, &u, options, tol)?
        } else {
            cast_local(self.a, &placed, &u, options, tol)?
        };
        if let Some(h) = cast.hit.as_mut() {
            let frame_a = crate::pose::Frame {
                rot: *pa.rotation.matrix(),
                t: pa.translation.vector,
            };
            super::linear::to_world(h, &frame_a, &va);
        }
        Ok(cast)
    }

    fn margin(&self, options: &CastOptions<T>) -> T {
        self.a.radius() + self.b.radius() + options.target_distance
    }

    /// GJK on the cores at time `t`, warm-started from `cache` (left holding the simplex).
    fn probe(
        &self,
        t: T,
        tol: &Tolerances<T>,
        cache: &mut Cache<T, D>,
    ) -> Result<Probe<T, D>, QueryError> {
        let Frame {
            rot: rot_a,
            translation: tr_a,
        } = self.motion_a.frame_at(t);
        let Frame {
            rot: rot_b,
            translation: tr_b,
        } = self.motion_b.frame_at(t);
        let rel_rot = rot_a.tr_mul(&rot_b);
        let rel_t = rot_a.tr_mul(&(tr_b - tr_a));
        let placed = place(self.b, &rel_rot, &rel_t)?;
        let mut simplex = cache.seed();
        // Fixed point: Johnson's subalgorithm, as the sweep (`sweep_uses_johnson`): the
        // steps start as far apart as the motion is long.
        let johnson;
        let tol = if crate::real::is_fixed::<T>() {
            johnson = Tolerances {
                gjk_subalgorithm: crate::Subalgorithm::Johnson,
                ..*tol
            };
            &johnson
        } else {
            tol
        };
        let o = Run::new(self.a, &placed, tol, &mut simplex, Mode::Distance).closest_point()?;
        cache.store(&simplex);
        // GJK's lower bound is the best over its directions; the step needs the gap of the
        // plane it moves, `v`'s (`toi_steps_by_the_gap_along_their_own_normal`).
        let pair = Cores {
            a: self.a,
            b: &placed,
        };
        let plane = plane_min(&pair, &o.v, support_limit::<T, D>(tol))?
            .map_or(T::zero(), |p| p.lower.min(o.lower));
        let out = Core {
            v: o.v,
            a: o.a,
            b: o.b,
            upper: o.upper,
            lower: o.lower,
            plane,
            band: o.band,
            iterations: o.iterations + 1,
        };
        Ok(Probe { rot_a, tr_a, out })
    }

    /// The hit geometry at time `t` from a probe (world frame): the closest points pushed
    /// out by the radii, or EPA's contact when the cores touch.
    fn start_hit(
        &self,
        p: &Probe<T, D>,
        t: T,
        tol: &Tolerances<T>,
    ) -> Result<ShapeHit<T, D>, QueryError> {
        let (ra, rb) = (self.a.radius(), self.b.radius());
        let o = &p.out;
        let mut hit = ShapeHit {
            toi: t,
            lower_bound: t,
            upper_bound: None,
            distance: o.upper - ra - rb,
            normal: normalize(&-o.v),
            point_a: o.a,
            point_b: o.b,
            termination: CastTermination::StartedWithin,
        };
        if o.upper <= o.band {
            let Frame {
                rot: rot_b,
                translation: tr_b,
            } = self.motion_b.frame_at(t);
            let placed = place(
                self.b,
                &p.rot_a.tr_mul(&rot_b),
                &p.rot_a.tr_mul(&(tr_b - p.tr_a)),
            )?;
            if let Some(c) = <Const<D> as CastDim<T, D>>::signed(self.a, &placed, tol)? {
                hit.distance = c.separation;
                hit.normal = Some(c.normal);
                (hit.point_a, hit.point_b) = (c.point_a, c.point_b);
            }
        } else if let Some(n) = hit.normal {
            hit.point_a += n.into_inner() * ra;
            hit.point_b -= n.into_inner() * rb;
        }
        // Rounded shapes overlap as soon as their cores are closer than the radii, apart
        // or not (`rounded_start_overlap_is_penetrating`).
        if hit.distance < -o.band {
            hit.termination = CastTermination::StartedPenetrating;
        }
        hit.normal = hit
            .normal
            .map(|n| Unit::new_unchecked(p.rot_a * n.into_inner()));
        hit.point_a = nalgebra::Point::from(p.rot_a * hit.point_a.coords + p.tr_a);
        hit.point_b = nalgebra::Point::from(p.rot_a * hit.point_b.coords + p.tr_a);
        Ok(hit)
    }

    fn hit_at_start(
        &self,
        mut hit: ShapeHit<T, D>,
        options: &CastOptions<T>,
        iterations: u32,
    ) -> ShapeCast<T, D> {
        if hit.distance <= options.target_distance {
            hit.upper_bound = Some(T::zero());
        }
        Cast {
            termination: hit.termination,
            hit: Some(hit),
            safe_toi: T::zero(),
            iterations,
            steps: 1,
        }
    }

    /// Whether the relative velocity at the contact point of `hit` (world, time 0) brings
    /// the shapes closer along its normal, faster than the touching tolerance.
    fn approaching(&self, hit: &ShapeHit<T, D>, tol: &Tolerances<T>) -> bool {
        let Some(n) = hit.normal else {
            return true;
        };
        let p = nalgebra::center(&hit.point_a, &hit.point_b);
        let rel =
            self.motion_b.velocity_at(T::zero(), &p) - self.motion_a.velocity_at(T::zero(), &p);
        n.dot(&rel) < -tol.gjk_touching * norm(&rel)
    }

    /// Conservative advancement (module doc).
    ///
    /// Algorithm:
    /// 1. GJK at `t` (warm): within the margin → a hit (at 0: the start rules).
    /// 2. The normal's speed bound `μ`; `μ ≤ 0` → a proven miss.
    /// 3. Advance by `(ℓ − m)/μ`, or farther when the chord bound of the plane's gap
    ///    proves it (arc.rs; also out of a start within the margin); past `max_toi` → a
    ///    proven miss; no progress → give up.
    fn advance(
        &self,
        options: &CastOptions<T>,
        planner: bool,
        tol: &Tolerances<T>,
    ) -> Result<ShapeCast<T, D>, QueryError> {
        let (wa, wb) = (
            self.motion_a.angular_velocity(),
            self.motion_b.angular_velocity(),
        );
        let reach = |w, s: &dyn Fn() -> T| {
            if w == <Const<D> as RotationDim<T, D>>::zero() {
                T::zero()
            } else {
                s()
            }
        };
        let ra = reach(wa, &|| core_reach(self.a, &self.motion_a.local_center()));
        let rb = reach(wb, &|| core_reach(self.b, &self.motion_b.local_center()));
        let dv = self.motion_a.linear_velocity() - self.motion_b.linear_velocity();
        let mut margin = self.margin(options);
        let (mut t, mut iterations, mut steps) = (T::zero(), 0u32, 0u32);
        let mut cache = Cache::new();
        let (mut armed, mut last_normal, mut floor) = (true, None, None);
        let mut checkpoint = None;
        // The advancement converges linearly: it stops within 16 touching bands of the
        // margin (f64: ~1.5e-8 × the pair's size), where a step would gain less.
        let accuracy = crate::real::lit::<T>(crate::tolerance::factor::TOI_ACCURACY_BANDS);
        loop {
            if steps == options.max_steps {
                return Ok(stalled(
                    t,
                    CastTermination::MaxIterations,
                    iterations,
                    steps,
                ));
            }
            steps += 1;
            // Past the start, a probe beyond the scalar's range (an infinite horizon, the
            // shapes drifting apart while turning) ends the cast at the last safe time
            // (`drifting_beyond_range_gives_up_safely`).
            let beyond = |e| match e {
                QueryError::NonFinitePose | QueryError::OutOfRange if steps > 1 => Ok(()),
                e => Err(e),
            };
            let mut p = match self.probe(t, tol, &mut cache) {
                Ok(p) => p,
                Err(e) => {
                    beyond(e)?;
                    return Ok(stalled(t, CastTermination::BeyondRange, iterations, steps));
                }
            };
            iterations += p.out.iterations;
            if p.out.lower <= margin && p.out.upper > margin + p.out.band * accuracy {
                // A warm start can leave a loose lower bound: once more, cold.
                cache.clear();
                p = self.probe(t, tol, &mut cache)?;
                iterations += p.out.iterations;
            }
            let (lower, upper, band) = (p.out.lower.min(p.out.upper), p.out.upper, p.out.band);
            if armed && upper <= margin + band * accuracy {
                let mut hit = self.start_hit(&p, t, tol)?;
                if steps > 1 {
                    hit.termination = CastTermination::Converged;
                    hit.upper_bound = (upper <= margin).then_some(t);
                    if upper <= band * accuracy {
                        hit.normal = last_normal.or(hit.normal);
                    }
                    return Ok(Cast {
                        hit: Some(hit),
                        safe_toi: t,
                        iterations,
                        steps,
                        termination: CastTermination::Converged,
                    });
                }
                let penetrating = hit.termination == CastTermination::StartedPenetrating;
                // Only a converged probe (its bounds met, as GJK's stop) has a normal that can
                // tell a separating start from an approaching one; one a user's iteration cap
                // stopped proves the start within the margin and nothing more: that is the hit
                // (`unconverged_start_probe_is_the_start_hit`).
                let converged = crate::tolerance::bounds_met(tol, upper - lower, upper, band);
                if planner
                    || (penetrating && options.stop_at_penetration)
                    || !converged
                    || self.approaching(&hit, tol)
                {
                    let mut cast = self.hit_at_start(hit, options, iterations);
                    cast.steps = steps;
                    return Ok(cast);
                }
                // Separating or sliding at 0: look for the return within the start distance.
                // Touching cores have no `v` to take a plane from: the contact's normal
                // (EPA's) is one.
                (margin, armed) = (margin.min(lower), false);
                last_normal = hit.normal;
            }
            if !armed && lower > margin + band * accuracy {
                armed = true;
            }
            // Progress is the gap `ℓ − m` moving, down towards the margin or up out of a
            // start within it: less than a band in 16 steps is the rounding's pace (a
            // tangential approach), so the distance is probed ahead (§4.2).
            if steps % crate::tolerance::factor::TOI_STALL_STEPS == 0 {
                let gap = lower - margin;
                if checkpoint.is_some_and(|g: T| (gap - g).abs() < band) {
                    let gave_up = stalled(t, CastTermination::NoProgress, iterations, steps);
                    return self.bracket(gave_up, margin, armed, options, tol);
                }
                checkpoint = Some(gap);
            }
            let n = match (normalize(&-p.out.v), last_normal) {
                (Some(n_local), _) => p.rot_a * n_local.into_inner(),
                (None, Some(n)) if steps == 1 => n.into_inner(),
                (None, _) => {
                    return Ok(stalled(t, CastTermination::Degenerate, iterations, steps));
                }
            };
            last_normal = Some(Unit::new_unchecked(n));
            let mu = n.dot(&dv)
                + <Const<D> as RotationDim<T, D>>::rate(&wa, &n) * ra
                + <Const<D> as RotationDim<T, D>>::rate(&wb, &n) * rb;
            let (gap, horizon) = (p.out.plane - margin, options.max_toi - t);
            if !(mu > T::zero()) {
                // The plane never comes closer: a proven miss when it clears the margin (to
                // the rounding, from a start within it). A GJK stopped early (its cap) can
                // leave it short, which proves nothing
                // (`a_miss_needs_its_plane_beyond_the_margin`).
                let clears = if armed { gap > T::zero() } else { gap >= -band };
                if clears {
                    let mut cast = miss(options.max_toi, true, iterations, steps);
                    cast.safe_toi = options.max_toi;
                    return Ok(cast);
                }
                let gave_up = stalled(t, CastTermination::NoProgress, iterations, steps);
                return self.bracket(gave_up, margin, armed, options, tol);
            }
            if gap > mu * horizon {
                return Ok(miss(options.max_toi, false, iterations, steps));
            }
            let tau_mu = if gap > T::zero() { gap / mu } else { T::zero() };
            // The chord bound of the turning supports along the fixed plane (arc.rs): a
            // step out of a start within the margin, or longer than `gap/μ`. Its search
            // costs more than a warm-started distance query, so a time of impact takes it
            // only out of a start within the margin or once the `μ` steps are many
            // (docs/casts.md §4.1); a planner's check, counted in distance queries, always.
            let turning = if planner || !armed || steps > CHORD_AFTER_STEPS {
                let mut plane =
                    Plane::new(self.motion_a, self.a, self.motion_b, self.b, &n, t, margin);
                // From a start within the margin: never below the first plane's gap (or 0).
                let within = (!armed).then(|| *floor.get_or_insert(plane.gap().min(T::zero())));
                let tau = plane.longest_step(horizon, tau_mu, within);
                iterations += plane.evals;
                tau
            } else {
                None
            };
            let step = match turning {
                Some(tau) if tau >= horizon => {
                    return Ok(miss(options.max_toi, false, iterations, steps));
                }
                Some(tau) => tau,
                None => tau_mu,
            };
            let next = t + step;
            if !(next > t) {
                let gave_up = stalled(t, CastTermination::NoProgress, iterations, steps);
                return self.bracket(gave_up, margin, armed, options, tol);
            }
            t = next;
        }
    }

    /// A stalled advancement's last resort (no step beyond the rounding, a gap that moved
    /// less than a band in 16 steps, or `μ ≤ 0` on a plane short of the margin;
    /// docs/casts.md §4.2, `stalled_start_brackets_the_contact_ahead`): distances probed at
    /// `t + h`, `h` doubling from the time's resolution to the horizon, for one proven
    /// within the target; bisection towards `t` then keeps the earliest proven time found.
    /// A hit there is [`CastTermination::Bracketed`]: the first contact lies between the
    /// last safe time `t` and the hit's `toi`. Without one, the cast stays given up.
    ///
    /// Within the target: as the advancement's hit (16 bands) once the shapes were apart;
    /// for a start within the margin not yet left (`!armed`), below the start distance by
    /// more than the band.
    fn bracket(
        &self,
        mut gave_up: ShapeCast<T, D>,
        margin: T,
        armed: bool,
        options: &CastOptions<T>,
        tol: &Tolerances<T>,
    ) -> Result<ShapeCast<T, D>, QueryError> {
        let t = gave_up.safe_toi;
        let horizon = options.max_toi - t;
        let accuracy = crate::real::lit::<T>(crate::tolerance::factor::TOI_ACCURACY_BANDS);
        let within = |o: &Core<T, D>| {
            if armed {
                o.upper <= margin + o.band * accuracy
            } else {
                o.upper + o.band <= margin
            }
        };
        let mut cache = Cache::new();
        let mut probe = |at: T, cast: &mut ShapeCast<T, D>| {
            cast.steps += 1;
            let p = self.probe(at, tol, &mut cache);
            if let Ok(p) = &p {
                cast.iterations += p.out.iterations;
            }
            p
        };
        // The time's resolution: 16 ulps of the larger of `t` and 1.
        let mut h = t.max(T::one()) * T::default_epsilon() * crate::real::lit::<T>(16.0);
        let mut found = None;
        for _ in 0..crate::tolerance::factor::BRACKET_PROBES {
            if !(h < horizon) {
                break;
            }
            match probe(t + h, &mut gave_up) {
                Ok(p) if within(&p.out) => {
                    found = Some((h, p));
                    break;
                }
                Ok(_) => h += h,
                // Poses beyond the scalar's range: nothing further to probe.
                Err(QueryError::NonFinitePose | QueryError::OutOfRange) => break,
                Err(e) => return Err(e),
            }
        }
        let Some((mut hi, mut best)) = found else {
            return Ok(gave_up);
        };
        let mut lo = T::zero();
        for _ in 0..crate::tolerance::factor::BRACKET_PROBES {
            let mid = (lo + hi) * crate::real::lit::<T>(0.5);
            if !(mid > lo && mid < hi) {
                break;
            }
            let p = probe(t + mid, &mut gave_up)?;
            if within(&p.out) {
                (hi, best) = (mid, p);
            } else {
                lo = mid;
            }
        }
        let toi = t + hi;
        let mut hit = self.start_hit(&best, toi, tol)?;
        hit.lower_bound = t;
        hit.upper_bound = (best.out.upper <= margin).then_some(toi);
        hit.termination = CastTermination::Bracketed;
        gave_up.hit = Some(hit);
        gave_up.termination = CastTermination::Bracketed;
        Ok(gave_up)
    }
}
