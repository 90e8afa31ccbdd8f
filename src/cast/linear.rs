//! Linear shape casts: two shapes with constant linear velocities, the ray cast of B's
//! relative motion against A on their configuration-space obstacle (docs/casts.md §3).
//!
//! The signed distance `s(t)` between A and B moved by `t·u` is convex in `t` (the signed
//! distance to a convex set is a supremum of affine functions), so a pair within the target
//! at `t = 0` either gets closer right away (a hit at 0) or never does (no hit): touching
//! pairs that slide or separate get no hit.

use super::{
    Cast, CastDim, CastOptions, CastTermination, LinearMotion, ShapeCast, ShapeHit,
    ray::{miss, stalled},
    sweep::{End, Reached, Sweep, sweep},
};
use crate::{
    QueryError, Real, Tolerances, gjk,
    gjk::Simplex,
    real::{norm, normalize},
    shape::{Primitive, SupportMap},
};
use nalgebra::{Const, SMatrix, SVector};

/// The first time at which shape `b`, moving with `motion_b`, comes within
/// `options.target_distance` of shape `a`, moving with `motion_a`, in
/// `[0, options.max_toi]`: the time, the normal from A to B and the closest points then,
/// in the world frame (GJK ray cast, van den Bergen 2004; any `D`; two boxes in floating
/// point, target 0, 2D and 3D: the separating-axis test over time, docs/casts.md §3).
///
/// Shapes already within the target at time 0: a hit at 0 when the motion brings them
/// closer (or they overlap and `stop_at_penetration`), with the penetration depth (EPA) in
/// 2D and 3D; no hit when it separates them or slides them along their contact; with
/// `negative_toi`, the hit is moved back to when they would have reached the target.
///
/// # Errors
/// As [`cast_ray`](super::cast_ray); [`QueryError::InvalidCast`] for a non-finite
/// velocity or invalid options.
///
/// ```
/// use convex_proximity::{Tolerances, query::{self, CastOptions, LinearMotion}, shape::{Ball, Cuboid}};
/// use nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
/// let tol = Tolerances::default();
/// // 3D, f64: a unit ball thrown at a box 5 units away, stopping 0.1 short of it.
/// let cube = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
/// let ball = Ball::new(1.0);
/// let opts = CastOptions { max_toi: 10.0, target_distance: 0.1, ..CastOptions::default() };
/// let cast = query::cast_shapes(
///     &LinearMotion::new(Isometry3::identity(), Vector3::zeros()), &cube,
///     &LinearMotion::new(Isometry3::translation(5.0, 0.0, 0.0), Vector3::new(-1.0, 0.0, 0.0)), &ball,
///     &opts, &tol).unwrap();
/// let hit = cast.hit.unwrap();
/// assert!((hit.toi - 2.9f64).abs() < 1e-9);
/// // 2D, f32: two boxes sliding along their common face: no hit.
/// let sq = Cuboid::new(Vector2::new(1.0f32, 1.0));
/// let cast = query::cast_shapes(
///     &LinearMotion::new(Isometry2::identity(), Vector2::zeros()), &sq,
///     &LinearMotion::new(Isometry2::translation(2.0, 0.0), Vector2::new(0.0, 1.0)), &sq,
///     &CastOptions::default(), &Tolerances::default()).unwrap();
/// assert!(cast.hit.is_none());
/// ```
pub fn cast_shapes<T, R, const D: usize, A, B>(
    motion_a: &LinearMotion<T, R, D>,
    a: &A,
    motion_b: &LinearMotion<T, R, D>,
    b: &B,
    options: &CastOptions<T>,
    tol: &Tolerances<T>,
) -> Result<ShapeCast<T, D>, QueryError>
where
    T: Real,
    R: crate::PoseRotation<T, D>,
    Const<D>: CastDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    options.validate()?;
    let rel = crate::input::check_posed_pair(&motion_a.pose, a, &motion_b.pose, b)?;
    let (frame_a, rel) = (rel.frame_a, rel.b_in_a);
    super::check_vector(&motion_a.velocity, "velocity")?;
    super::check_vector(&motion_b.velocity, "velocity")?;
    let placed = place(b, &rel.rot, &rel.t)?;
    let u = frame_a.inverse_transform_vector(&(motion_b.velocity - motion_a.velocity));
    let boxes = match (a.primitive(), b.primitive()) {
        (
            Some(Primitive::Cuboid { half_extents: ha }),
            Some(Primitive::Cuboid { half_extents: hb }),
        ) if options.target_distance == T::zero() => {
            let boxes = super::boxes::BoxMotion {
                a: &ha,
                b: &hb,
                rot: &rel.rot,
                t: &rel.t,
                u: &u,
            };
            super::boxes::box_box(boxes, options.max_toi, tol)
        }
        _ => None,
    };
    let mut cast = match boxes {
        Some(cast) => cast,
        None => cast_local(a, &placed, &u, options, tol)?,
    };
    if let Some(h) = cast.hit.as_mut() {
        to_world(h, &frame_a, &motion_a.velocity);
    }
    Ok(cast)
}

/// `b` under the rigid map `x ↦ m·x + t` (B in A's frame).
pub(super) fn place<'b, T: Real, const D: usize, B: SupportMap<T, D> + ?Sized>(
    b: &'b B,
    m: &SMatrix<T, D, D>,
    t: &SVector<T, D>,
) -> Result<Rigid<'b, B, T, D>, QueryError> {
    if !crate::real::all_finite_in(m.as_slice()) || !crate::real::all_finite(t) {
        return Err(QueryError::NonFinitePose);
    }
    Ok(Rigid {
        shape: b,
        rot: *m,
        t: *t,
    })
}

/// A shape under a rigid map `x ↦ R·x + t` whose rotation was checked (poses, motions):
/// unlike [`crate::shape::Transformed`], which keeps a round part only for a similarity
/// proven to 64 ulps, it always forwards the core and radius, so fixed-point rotations a
/// few ulps off orthogonal keep running on the cores.
pub(super) struct Rigid<'b, B: ?Sized, T: Real, const D: usize> {
    shape: &'b B,
    rot: SMatrix<T, D, D>,
    t: SVector<T, D>,
}

impl<B: SupportMap<T, D> + ?Sized, T: Real, const D: usize> SupportMap<T, D>
    for Rigid<'_, B, T, D>
{
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> nalgebra::Point<T, D> {
        let p = self.shape.support(&self.rot.tr_mul(dir));
        nalgebra::Point::from(self.rot * p.coords + self.t)
    }
    #[inline]
    fn radius(&self) -> T {
        self.shape.radius()
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> nalgebra::Point<T, D> {
        let p = self.shape.core_support(&self.rot.tr_mul(dir));
        nalgebra::Point::from(self.rot * p.coords + self.t)
    }
    #[inline]
    fn center(&self) -> nalgebra::Point<T, D> {
        nalgebra::Point::from(self.rot * self.shape.center().coords + self.t)
    }
}

/// A hit in A's frame at `toi` mapped to the world: A then sits at `pose_a` moved by
/// `toi · velocity_a`.
pub(super) fn to_world<T: Real, const D: usize>(
    h: &mut ShapeHit<T, D>,
    frame_a: &crate::pose::Frame<T, D>,
    velocity_a: &SVector<T, D>,
) {
    let shift = velocity_a * h.toi;
    h.point_a = frame_a.transform_point(&h.point_a) + shift;
    h.point_b = frame_a.transform_point(&h.point_b) + shift;
    h.normal = h.normal.map(|n| frame_a.transform_unit(&n));
}

/// The linear cast in A's frame: `b` placed at time 0 moves by `t·u`.
pub(super) fn cast_local<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    u: &SVector<T, D>,
    options: &CastOptions<T>,
    tol: &Tolerances<T>,
) -> Result<ShapeCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: CastDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let margin = a.radius() + b.radius() + options.target_distance;
    let s = Sweep {
        u: *u,
        margin,
        start: T::zero(),
        end: options.max_toi,
        witnesses: true,
    };
    let swept = sweep(a, b, &s, tol, &mut Simplex::new())?;
    let (iterations, steps) = (swept.iterations, swept.steps);
    match swept.end {
        End::Miss { separating } => Ok(miss(options.max_toi, separating, iterations, steps)),
        End::Stalled {
            lambda,
            termination,
        } => Ok(stalled(lambda, termination, iterations, steps)),
        End::Reached(r) if r.advanced => {
            let hit = reached_hit(a, b, &r, u, margin, CastTermination::Converged);
            Ok(Cast {
                hit: Some(hit),
                safe_toi: r.lambda,
                iterations,
                steps,
                termination: CastTermination::Converged,
            })
        }
        End::Reached(r) => {
            let mut cast = start(a, b, u, &r, margin, options, tol)?;
            cast.iterations += iterations;
            Ok(cast)
        }
    }
}

/// The hit where the sweep reached the margin: the cores' witnesses pushed out by the radii.
fn reached_hit<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    r: &Reached<T, D>,
    u: &SVector<T, D>,
    margin: T,
    termination: CastTermination,
) -> ShapeHit<T, D>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let normal = r.normal();
    let n = normal.map_or_else(SVector::zeros, |n| n.into_inner());
    ShapeHit {
        toi: r.lambda,
        lower_bound: r.lambda,
        upper_bound: r.proven_by(u, margin),
        distance: r.upper - ra - rb,
        normal,
        point_a: r.a + n * ra,
        point_b: r.b - n * rb,
        termination,
    }
}

/// The shapes are within the target at time 0 (`r` did not advance): a hit at 0 when the
/// motion brings them closer or they overlap and `stop_at_penetration`; else no hit.
/// `margin`: the sweep's, the radii plus the target distance.
fn start<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    u: &SVector<T, D>,
    r: &Reached<T, D>,
    margin: T,
    options: &CastOptions<T>,
    tol: &Tolerances<T>,
) -> Result<ShapeCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: CastDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let mut touching = r.upper <= r.band;
    let mut hit = reached_hit(a, b, r, u, margin, CastTermination::StartedWithin);
    hit.upper_bound = (r.upper <= margin).then_some(T::zero());
    let mut iterations = 0;
    if !touching {
        // The sweep stops once its estimate is within the margin: at the start, the
        // centres' difference, or an unconverged `v`. The distance's derivative is `n·u`
        // along the closest points' normal only, so the approach test reads a converged
        // GJK distance (`start_within_reads_the_closest_points`).
        let d = gjk::distance(a, b, tol, &mut Simplex::new())?;
        iterations += d.iterations;
        match d.normal {
            Some(n) => {
                hit.distance = d.distance;
                hit.normal = Some(n);
                (hit.point_a, hit.point_b) = (d.point_a, d.point_b);
            }
            None => touching = true,
        }
    }
    if touching {
        // Cores touching or overlapping: EPA's normal and depth where there is one.
        match <Const<D> as CastDim<T, D>>::signed(a, b, tol)? {
            Some(c) => {
                hit.distance = c.separation;
                hit.normal = Some(c.normal);
                (hit.point_a, hit.point_b) = (c.point_a, c.point_b);
                iterations += c.iterations;
            }
            None => {
                hit.distance = T::zero();
                hit.normal = None;
                hit.point_b = hit.point_a;
            }
        }
    }
    let (approaching, penetrating) = if touching && hit.normal.is_none() {
        // No EPA in this dimension: moving a little both ways tells approaching from
        // separating; touching either way is an overlap or a slide, not told apart.
        if separated_after(a, b, u, r.band, T::one(), tol)? {
            (false, false)
        } else if separated_after(a, b, u, r.band, -T::one(), tol)? {
            (true, false)
        } else {
            (false, true)
        }
    } else {
        let penetrating = hit.distance < -r.band;
        let approaching = match hit.normal {
            // Along the normal, slower than the touching tolerance: sliding.
            Some(n) => n.dot(u) < -tol.gjk_touching * norm(u),
            None => true,
        };
        // Touching cores whose contact normal says "approaching" may touch at a corner of
        // `A − B`, where another normal of its cone says "separating" (boxes corner to
        // corner): the distance after a small move decides.
        let corner = touching && !penetrating && approaching;
        let approaching =
            approaching && !(corner && separated_after(a, b, u, r.band, T::one(), tol)?);
        (approaching, penetrating)
    };
    if penetrating {
        hit.termination = CastTermination::StartedPenetrating;
    }
    if !(approaching || (penetrating && options.stop_at_penetration)) {
        // Convexity of s(t): it never drops below s(0).
        return Ok(Cast {
            hit: None,
            safe_toi: options.max_toi,
            iterations,
            steps: 0,
            termination: CastTermination::Separating,
        });
    }
    let termination = hit.termination;
    let mut steps = 0;
    if options.negative_toi
        && let Some(back) = backwards(a, b, u, margin, tol)?
    {
        hit = reached_hit(a, b, &back.reached, u, margin, termination);
        hit.upper_bound = Some(back.reached.lambda);
        (iterations, steps) = (iterations + back.iterations, back.steps);
    }
    Ok(Cast {
        safe_toi: hit.toi.min(T::zero()),
        hit: Some(hit),
        iterations,
        steps,
        termination,
    })
}

/// Whether B moved by `sign · PROBE_BANDS × band` (`tolerance::factor`) along `u` is apart from A beyond the band.
fn separated_after<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    u: &SVector<T, D>,
    band: T,
    sign: T,
    tol: &Tolerances<T>,
) -> Result<bool, QueryError>
where
    T: Real,
    Const<D>: CastDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let Some(dir) = normalize(u) else {
        return Ok(false);
    };
    let bands = crate::real::lit::<T>(crate::tolerance::factor::PROBE_BANDS);
    let probe = dir.into_inner() * (band * bands * sign);
    let moved = place(b, &SMatrix::identity(), &probe)?;
    let d = gjk::distance(a, &moved, tol, &mut Simplex::new())?;
    Ok(d.distance > band)
}

/// [`backwards`]' answer: where the sweep reached the margin, with its support evaluations
/// and advances.
struct Backwards<T: Real, const D: usize> {
    reached: Reached<T, D>,
    iterations: u32,
    steps: u32,
}

/// When they would have reached the margin coming along the motion: the sweep from a
/// time `−L` at which they are apart (the support plane of `A − B` along `−u` bounds it:
/// `L = (h(−u) + m‖u‖)/‖u‖²`) forward to 0.
fn backwards<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    u: &SVector<T, D>,
    margin: T,
    tol: &Tolerances<T>,
) -> Result<Option<Backwards<T, D>>, QueryError>
where
    T: Real,
    Const<D>: CastDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let nu = norm(u);
    if !(nu > T::zero()) {
        return Ok(None);
    }
    let h = (-u).dot(&a.core_support(&-u).coords) - (-u).dot(&b.core_support(u).coords);
    let reach = (h.max(T::zero()) + margin * nu) / nu;
    // Fixed-point: the start must stay within the sweep's range (it checks each vertex).
    if let Some(limit) = super::sweep::sweep_limit::<T, D>(tol)
        && reach > limit
    {
        return Ok(None);
    }
    let far = reach / nu;
    if !far.is_finite() {
        return Ok(None);
    }
    let s = Sweep {
        u: *u,
        margin,
        start: -far,
        end: T::zero(),
        witnesses: true,
    };
    let swept = sweep(a, b, &s, tol, &mut Simplex::new())?;
    Ok(match swept.end {
        End::Reached(reached) => Some(Backwards {
            reached,
            iterations: swept.iterations,
            steps: swept.steps,
        }),
        _ => None,
    })
}
