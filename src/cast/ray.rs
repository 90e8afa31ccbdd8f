//! Ray casts against posed shapes: closed forms for balls, boxes and capsules, the GJK ray cast
//! (`sweep.rs`) for every support map (docs/casts.md §1–2).

use super::{
    Cast, CastTermination, Ray, RayCast, RayHit,
    closed::{self, Closed},
    sweep::{End, Sweep, Swept, sweep},
};
use crate::{
    QueryError, Real, Tolerances,
    dim::Dim,
    gjk::Simplex,
    real::normalize,
    shape::{Capsule, PointShape, Primitive, Segment, SupportMap},
};
use nalgebra::{Const, Isometry, Point, SVector, Unit};

/// The first point where `ray` meets shape `shape` at `pose`, within `t ∈ [0, max_toi]`
/// (times in units of `ray.dir`), with the outward normal there, in the world frame.
///
/// A ray starting inside the shape hits at 0 when `solid`; otherwise it reports where it
/// leaves the shape. Rounded shapes (balls, capsules, [`crate::shape::Rounded`]) run on
/// their cores. Balls, boxes and capsules take a closed form ([`SupportMap::primitive`], floating
/// point), every other support map the GJK ray cast (van den Bergen 2004), in any `D`;
/// the two agree (tests/cast.rs). A ray passing within GJK's touching band
/// ([`Tolerances::gjk_touching`] × the shape's size) of a shape counts as a hit.
///
/// # Errors
/// [`QueryError::NonFinitePose`], [`QueryError::NonRigidPose`] for a bad pose (checked
/// whole, even where a closed form reads only its translation);
/// [`QueryError::InvalidCast`] for a non-finite ray or a negative or NaN `max_toi`;
/// [`QueryError::InvalidShape`] for invalid shape parameters; the support map errors of
/// [`crate::query::distance`] when the GJK ray cast runs.
///
/// ```
/// use convex_proximity::{Tolerances, query::{self, Ray}, shape::{Capsule, Cuboid}};
/// use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
/// // 3D, f64: a box 5 units ahead.
/// let ray = Ray::new(Point3::origin(), Vector3::x());
/// let cast = query::cast_ray(&Isometry3::translation(5.0, 0.0, 0.0), &Cuboid::new(Vector3::new(1.0, 1.0, 1.0)),
///                            &ray, 100.0, true, &Tolerances::default()).unwrap();
/// let hit = cast.hit.unwrap();
/// assert!((hit.toi - 4.0f64).abs() < 1e-12 && (hit.normal.unwrap().x + 1.0).abs() < 1e-12);
/// // 2D, f32: a capsule (GJK ray cast on its core segment).
/// let c = Capsule::new(Point2::new(0.0f32, -1.0), Point2::new(0.0, 1.0), 0.5);
/// let cast = query::cast_ray(&Isometry2::translation(3.0, 0.0), &c, &Ray::new(Point2::origin(), Vector2::x()),
///                            10.0, true, &Tolerances::default()).unwrap();
/// assert!((cast.hit.unwrap().toi - 2.5).abs() < 1e-5);
/// ```
pub fn cast_ray<T, R, const D: usize, S>(
    pose: &Isometry<T, R, D>,
    shape: &S,
    ray: &Ray<T, D>,
    max_toi: T,
    solid: bool,
    tol: &Tolerances<T>,
) -> Result<RayCast<T, D>, QueryError>
where
    T: Real,
    R: crate::PoseRotation<T, D>,
    Const<D>: Dim,
    S: SupportMap<T, D> + ?Sized,
{
    // One finiteness test over the ray and the pose's translation (their sum is finite
    // only when every term is; fixed point is always finite, and its sum could wrap): the
    // vectors one by one, with their errors in the same order, only when it fails.
    let t = &pose.translation.vector;
    let finite =
        crate::real::is_fixed::<T>() || crate::real::all_finite(&(ray.origin.coords + ray.dir + t));
    if !finite {
        super::check_vector(&ray.origin.coords, "ray origin")?;
        super::check_vector(&ray.dir, "ray direction")?;
    }
    if !(max_toi >= T::zero()) {
        return Err(QueryError::InvalidCast { what: "max_toi" });
    }
    crate::input::check_shape(shape)?;
    if !finite && !crate::real::all_finite(t) {
        return Err(QueryError::NonFinitePose);
    }
    let primitive = shape
        .primitive()
        .filter(|p| !crate::real::is_fixed::<T>() && closed_applies(p));
    // A ball needs only its centre, a capsule its core segment: the ray stays in the
    // world frame.
    match primitive {
        Some(Primitive::Ball { radius }) => {
            crate::pose::check_finite(pose)?;
            let o = Point::from(ray.origin - t);
            let answer = closed::ray_ball(radius, &o, &ray.dir, max_toi, solid);
            return Ok(closed_cast(answer, ray, max_toi, solid, |n| n));
        }
        Some(Primitive::Capsule { a, b, radius }) => {
            crate::pose::check_finite(pose)?;
            // A segment centred on the shape's origin (the usual capsule) is the posed
            // origin ± one rotated end: one rotation instead of two.
            let segment = if a.coords == -b.coords {
                let half = pose.rotation.transform_vector(&b.coords);
                Segment {
                    a: Point::from(t - half),
                    b: Point::from(t + half),
                }
            } else {
                Segment {
                    a: pose.transform_point(&a),
                    b: pose.transform_point(&b),
                }
            };
            let capsule = Capsule { segment, radius };
            if let Some(answer) = closed::ray_capsule(&capsule, &ray.origin, &ray.dir, max_toi) {
                return Ok(closed_cast(answer, ray, max_toi, solid, |n| n));
            }
        }
        Some(Primitive::Cuboid { half_extents }) => {
            // The pose read once as a matrix (three quaternion rotations cost more): the
            // ray into the box's frame, the normal out.
            let frame = crate::pose::Frame::of_finite(pose)?;
            let o = Point::from(frame.inverse_transform_vector(&(ray.origin.coords - t)));
            let d = frame.inverse_transform_vector(&ray.dir);
            let answer = closed::ray_cuboid(&half_extents, &o, &d, max_toi, solid);
            let to_world = |n: Unit<SVector<T, D>>| frame.transform_unit(&n);
            return Ok(closed_cast(answer, ray, max_toi, solid, to_world));
        }
        _ => {}
    }
    ray_posed(pose, shape, ray, max_toi, solid, tol)
}

/// The GJK ray cast of [`cast_ray`] (its input checked but the pose's rotation): the ray
/// into the shape's frame, the hit back out. Out of line, so the closed forms' path keeps
/// a small stack frame.
#[inline(never)]
fn ray_posed<T, R, const D: usize, S>(
    pose: &Isometry<T, R, D>,
    shape: &S,
    ray: &Ray<T, D>,
    max_toi: T,
    solid: bool,
    tol: &Tolerances<T>,
) -> Result<RayCast<T, D>, QueryError>
where
    T: Real,
    R: crate::PoseRotation<T, D>,
    Const<D>: Dim,
    S: SupportMap<T, D> + ?Sized,
{
    // The pose checked and read once as a matrix: the ray in, the normal out.
    let frame = crate::pose::Frame::of(pose)?;
    let o = Point::from(frame.inverse_transform_vector(&(ray.origin.coords - frame.t)));
    let d = frame.inverse_transform_vector(&ray.dir);
    let to_world = |n: Unit<SVector<T, D>>| frame.transform_unit(&n);
    let mut cast = ray_local(shape, &o, &d, max_toi, solid, tol)?;
    if let Some(h) = cast.hit.as_mut() {
        h.normal = h.normal.map(to_world);
        h.point = ray.point_at(h.toi);
    }
    Ok(cast)
}

/// Whether a primitive has a closed form here (radius 0: a point or segment, GJK).
fn closed_applies<T: Real, const D: usize>(p: &Primitive<T, D>) -> bool {
    match p {
        Primitive::Ball { radius } | Primitive::Capsule { radius, .. } => *radius > T::zero(),
        Primitive::Cuboid { .. } => true,
    }
}

/// A closed form's answer as the cast, in the world frame (`to_world` maps the normal).
#[inline]
fn closed_cast<T: Real, const D: usize>(
    answer: Closed<T, D>,
    ray: &Ray<T, D>,
    max_toi: T,
    solid: bool,
    to_world: impl Fn(Unit<SVector<T, D>>) -> Unit<SVector<T, D>>,
) -> RayCast<T, D> {
    match answer {
        Closed::Hit {
            toi,
            normal,
            inside,
        } => {
            let termination = if inside && (solid || normal.is_none()) {
                CastTermination::StartedPenetrating
            } else {
                CastTermination::Converged
            };
            Cast {
                hit: Some(RayHit {
                    toi,
                    lower_bound: toi,
                    upper_bound: Some(toi),
                    normal: normal.map(to_world),
                    point: ray.point_at(toi),
                    termination,
                }),
                safe_toi: toi,
                iterations: 0,
                steps: 0,
                termination,
            }
        }
        Closed::Miss => Cast {
            hit: None,
            safe_toi: max_toi,
            iterations: 0,
            steps: 0,
            termination: CastTermination::Horizon,
        },
    }
}

fn hit_cast<T: Real, const D: usize>(
    toi: T,
    upper: Option<T>,
    normal: Option<Unit<SVector<T, D>>>,
    termination: CastTermination,
    iterations: u32,
    steps: u32,
) -> RayCast<T, D> {
    Cast {
        hit: Some(RayHit {
            toi,
            lower_bound: toi,
            upper_bound: upper,
            normal,
            point: Point::origin(),
            termination,
        }),
        safe_toi: toi,
        iterations,
        steps,
        termination,
    }
}

/// The GJK ray cast in the shape's frame: the point `{o}` swept along `d` against the
/// shape (its core, with its radius as the margin).
fn ray_local<T, const D: usize, S>(
    shape: &S,
    o: &Point<T, D>,
    d: &SVector<T, D>,
    max_toi: T,
    solid: bool,
    tol: &Tolerances<T>,
) -> Result<RayCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    S: SupportMap<T, D> + ?Sized,
{
    let margin = shape.radius();
    let mut simplex = Simplex::new();
    let s = Sweep {
        u: *d,
        margin,
        start: T::zero(),
        end: max_toi,
        witnesses: false,
    };
    let swept = sweep(shape, &PointShape { point: *o }, &s, tol, &mut simplex)?;
    let (iterations, steps) = (swept.iterations, swept.steps);
    let r = match swept.end {
        End::Miss { separating } => {
            return Ok(miss(max_toi, separating, iterations, steps));
        }
        End::Stalled {
            lambda,
            termination,
        } => return Ok(stalled(lambda, termination, iterations, steps)),
        End::Reached(r) => r,
    };
    if r.advanced {
        let mut cast = hit_cast(
            r.lambda,
            r.proven_by(d, margin),
            r.normal(),
            CastTermination::Converged,
            iterations,
            steps,
        );
        if let Some(h) = cast.hit.as_mut() {
            h.lower_bound = r.lambda;
        }
        return Ok(cast);
    }
    // The origin is in the shape (within the touching band).
    let dd = d.norm_squared();
    let inside = (r.upper <= margin).then_some(T::zero());
    if solid || !(dd > T::zero()) {
        let t = CastTermination::StartedPenetrating;
        return Ok(hit_cast(T::zero(), inside, None, t, iterations, steps));
    }
    exit(shape, o, d, max_toi, tol, &swept)
}

/// Where the ray `o + t d`, starting inside `shape`, leaves it: a ray cast back from the
/// support plane along `d`, `t_max = (h(d) − d·o)/d·d` (every point of the shape has
/// `d·x ≤ h(d)`), towards `o`. The counts of `inward`, the sweep that found `o` inside, are
/// added to its own.
fn exit<T, const D: usize, S>(
    shape: &S,
    o: &Point<T, D>,
    d: &SVector<T, D>,
    max_toi: T,
    tol: &Tolerances<T>,
    inward: &Swept<T, D>,
) -> Result<RayCast<T, D>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    S: SupportMap<T, D> + ?Sized,
{
    let dd = d.norm_squared();
    let along = d.dot(&(shape.support(d) - o)).max(T::zero());
    let far = along / dd;
    let mut simplex = Simplex::new();
    let s = Sweep {
        u: -d,
        margin: shape.radius(),
        start: T::zero(),
        end: far,
        witnesses: false,
    };
    let back = sweep(
        shape,
        &PointShape { point: o + d * far },
        &s,
        tol,
        &mut simplex,
    )?;
    let iterations = inward.iterations + back.iterations;
    let steps = inward.steps + back.steps;
    let End::Reached(r) = back.end else {
        // Rounding lost the shape on the way back: nothing proven beyond the start.
        return Ok(stalled(
            T::zero(),
            CastTermination::NoProgress,
            iterations,
            steps,
        ));
    };
    let toi = far - r.lambda;
    if toi > max_toi {
        return Ok(miss(max_toi, false, iterations, steps));
    }
    // Not advanced: the support plane itself touches the exit, its normal is `d`.
    let normal = if r.advanced { r.normal() } else { normalize(d) };
    Ok(hit_cast(
        toi,
        None,
        normal,
        CastTermination::Converged,
        iterations,
        steps,
    ))
}

pub(super) fn miss<H, T: Real>(
    max_toi: T,
    separating: bool,
    iterations: u32,
    steps: u32,
) -> Cast<H, T> {
    Cast {
        hit: None,
        safe_toi: max_toi,
        iterations,
        steps,
        termination: if separating {
            CastTermination::Separating
        } else {
            CastTermination::Horizon
        },
    }
}

pub(super) fn stalled<H, T: Real>(
    safe_toi: T,
    termination: CastTermination,
    iterations: u32,
    steps: u32,
) -> Cast<H, T> {
    Cast {
        hit: None,
        safe_toi,
        iterations,
        steps,
        termination,
    }
}
