//! The casts' adversarial harness (`fuzz/fuzz_targets/cast_{2d,3d}.rs`, and on stable
//! `tests/fuzz_sweep.rs`): a ray, a linear cast, a time of impact and a motion check on
//! shapes, poses, motions, options and tolerances from raw bytes, some of them invalid on
//! purpose. The promises asserted (docs/casts.md, docs/testing.md):
//! - no panic; invalid input is an `Err`, valid input never is (fixed-point: but range);
//!   an invalid tolerance is refused by its setter (`harness::tolerances`);
//! - no NaN in an `Ok`; `0 ≤ toi ≤ max_toi`, `lower_bound ≤ toi ≤ upper_bound`;
//! - "no contact before `safe_toi`" holds at sampled times: the distance query there
//!   does not prove the shapes closer than the target (or than their start, for a start
//!   within it); a ray's points before its lower bound are outside a solid shape;
//! - a hit is at the target: a ray's point on the surface, a cast's distance at `toi`
//!   within the touching band of the target.
#![allow(clippy::too_many_arguments)]

use crate::common::{accuracy, back, f, is_fixed, pback};
use crate::harness::{Bytes, PoseSpec, Shape, Spec, Verdict, err_ok, signed_distance, tolerances};
use convex_proximity::{
    QueryError, Real, Tolerances,
    cast::{CastOptions, CastTermination, LinearMotion, Ray, RotationDim, ShapeCast},
    epa::ContactDim,
    lit, query,
};
use nalgebra::{Const, Isometry, Point, Rotation, SVector, Translation};

/// Times sampled in `[0, safe_toi]` against "no contact before `safe_toi`".
const SAMPLES: usize = 12;

/// A horizon from the bytes: mostly in `[0, 3]`, sometimes 0, ∞ (floats only: valid),
/// NaN or negative (invalid: `valid` cleared).
fn horizon<T: Real>(b: &mut Bytes<'_>, valid: &mut bool) -> f64 {
    match b.u8() {
        0..=229 => b.range(0.0, 3.0),
        230..=239 => 0.0,
        240..=247 if !is_fixed::<T>() => f64::INFINITY,
        240..=251 => 1e3,
        252..=253 => {
            *valid = false;
            f64::NAN
        }
        _ => {
            *valid = false;
            -1.0
        }
    }
}

/// A velocity-like vector: mostly in `[-s, s]^D`, sometimes zero, tiny, huge (`nice`
/// cleared) or NaN (`valid` cleared).
fn motion_vector<const D: usize>(
    b: &mut Bytes<'_>,
    s: f64,
    nice: &mut bool,
    valid: &mut bool,
) -> SVector<f64, D> {
    let mut v = b.vector::<D>(s);
    match b.u8() {
        0..=219 => {}
        220..=234 => v = SVector::zeros(),
        235..=244 => v *= 1e-9,
        245..=251 => {
            *nice = false;
            v *= 1e8;
        }
        _ => {
            *valid = false;
            v[0] = f64::NAN;
        }
    }
    v
}

/// Cast options from the bytes; `valid` cleared by an invalid field.
fn options<T: Real>(b: &mut Bytes<'_>, valid: &mut bool) -> CastOptions<T> {
    let max_toi = horizon::<T>(b, valid);
    let target = match b.u8() {
        0..=149 => 0.0,
        150..=249 => b.range(0.0, 0.3),
        250..=252 => {
            *valid = false;
            -0.1
        }
        _ => {
            *valid = false;
            f64::NAN
        }
    };
    let flags = b.u8();
    let max_steps = match b.u8() {
        0..=199 => 256,
        200..=253 => 1 + u32::from(b.u8() % 16),
        _ => {
            *valid = false;
            0
        }
    };
    CastOptions {
        max_toi: lit_or::<T>(max_toi),
        target_distance: lit_or::<T>(target),
        stop_at_penetration: flags & 1 == 0,
        negative_toi: flags & 2 != 0,
        max_steps,
    }
}

/// `x` in `T`; NaN and ∞ kept as such for floats, NaN as −1 (also invalid) in fixed point.
fn lit_or<T: Real>(x: f64) -> T {
    if is_fixed::<T>() && !x.is_finite() {
        lit(-1.0)
    } else {
        lit(x)
    }
}

/// One case: the scalar and dimension are the caller's, the rest the bytes'.
pub fn run_cast<T: Real, const D: usize>(data: &[u8]) -> Verdict
where
    Const<D>: RotationDim<T, D> + ContactDim<T, D> + ContactDim<f64, D>,
{
    let mut b = Bytes::new(data);
    let mut nice = true;
    let sa = Spec::<D>::read(&mut b, 1, &mut nice);
    let sb = Spec::<D>::read(&mut b, 1, &mut nice);
    let pa = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let pb = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let pa1 = PoseSpec::<D>::read(&mut b, 2.0, &mut nice);
    let tol = tolerances::<T>(&mut b)?;
    let (a, bs) = match (sa.build::<T>(), sb.build::<T>()) {
        (Ok(a), Ok(bs)) => (a, bs),
        _ => return Ok(()), // a constructor refused: fine
    };
    // Fixed point cannot hold NaN, ∞ or huge values: such vectors are left to the floats.
    let fits =
        |v: &SVector<f64, D>| !is_fixed::<T>() || v.iter().all(|x| x.is_finite() && x.abs() < 1e4);
    if !pa
        .t
        .iter()
        .chain(pb.t.iter())
        .chain(pa1.t.iter())
        .all(|x| crate::harness::fits::<T>(*x))
    {
        return Ok(());
    }
    let case = Case {
        sa: &sa,
        sb: &sb,
        a: &a,
        b: &bs,
        pa: &pa,
        pb: &pb,
        tol: &tol,
    };
    // The ray.
    let (mut rv, mut rn) = (true, nice);
    let origin = motion_vector::<D>(&mut b, 3.0, &mut rn, &mut rv);
    let dir = motion_vector::<D>(&mut b, 3.0, &mut rn, &mut rv);
    let max_toi = horizon::<T>(&mut b, &mut rv);
    let solid = b.u8().is_multiple_of(2);
    if fits(&origin) && fits(&dir) {
        case.ray(origin, dir, max_toi, solid, rv, rn)?;
    }
    // The linear cast.
    let (mut lv, mut ln) = (true, nice);
    let va = motion_vector::<D>(&mut b, 2.0, &mut ln, &mut lv);
    let vb = motion_vector::<D>(&mut b, 2.0, &mut ln, &mut lv);
    let opts = options::<T>(&mut b, &mut lv);
    if fits(&va) && fits(&vb) {
        case.linear(&va, &vb, &opts, lv, ln)?;
    }
    // Time of impact: A along the segment from `pa` to `pa1`, B at rest or moving.
    let (mut tv, mut tn) = (true, nice);
    let vb = motion_vector::<D>(&mut b, 1.0, &mut tn, &mut tv);
    let mut ov = tv;
    let opts = options::<T>(&mut b, &mut ov);
    let margin = b.range(0.0, 0.2);
    if fits(&vb) {
        let motions = tv && !pa1.broken;
        case.rigid(&pa1, &vb, &opts, margin, [motions && ov, motions], tn)?;
    }
    Ok(())
}

/// The shapes and poses of one case.
struct Case<'c, T: Real, const D: usize> {
    sa: &'c Spec<D>,
    sb: &'c Spec<D>,
    a: &'c Shape<T, D>,
    b: &'c Shape<T, D>,
    pa: &'c PoseSpec<D>,
    pb: &'c PoseSpec<D>,
    tol: &'c Tolerances<T>,
}

type Pose<T, const D: usize> = Isometry<T, Rotation<T, D>, D>;

impl<T: Real, const D: usize> Case<'_, T, D>
where
    Const<D>: RotationDim<T, D> + ContactDim<T, D> + ContactDim<f64, D>,
{
    fn ctx(&self) -> String {
        format!(
            "A {:?} at {:?}\nB {:?} at {:?}\ntol {:?}",
            self.sa, self.pa, self.sb, self.pb, self.tol
        )
    }

    /// The accuracy the checks allow at the pair's size `extra` beyond the shapes'.
    fn slack(&self, extra: f64) -> f64 {
        let scale = self.sa.scale().max(self.sb.scale()) + (self.pa.t - self.pb.t).amax() + extra;
        accuracy::<T>(scale.max(1e-3)) * 4.0
    }

    /// An `Err`: acceptable for invalid or extreme input only.
    fn refused(&self, what: &str, e: &QueryError, valid: bool, nice: bool) -> Verdict {
        err_ok(e, valid && nice, is_fixed::<T>())
            .map_err(|m| format!("{what}: {m}\n{}", self.ctx()))
    }

    fn ray(
        &self,
        origin: SVector<f64, D>,
        dir: SVector<f64, D>,
        max_toi: f64,
        solid: bool,
        valid: bool,
        nice: bool,
    ) -> Verdict {
        let ray = Ray::new(Point::from(origin.map(lit_or::<T>)), dir.map(lit_or::<T>));
        let pose = self.pa.pose::<T>();
        let max_t = lit_or::<T>(max_toi);
        let c = match query::cast_ray(&pose, self.a, &ray, max_t, solid, self.tol) {
            Ok(c) => c,
            Err(e) => return self.refused("cast_ray", &e, valid && !self.pa.broken, nice),
        };
        let ctx = || {
            format!(
                "ray {ray:?} max_toi {max_toi} solid {solid}: {c:?}\n{}",
                self.ctx()
            )
        };
        if !valid || self.pa.broken {
            return Err(format!("cast_ray accepted invalid input, {}", ctx()));
        }
        if f(c.safe_toi).is_nan()
            || c.hit
                .is_some_and(|h| !hit_finite(&h.point.coords, h.toi, h.lower_bound))
        {
            return Err(format!("cast_ray: NaN in the answer, {}", ctx()));
        }
        let (o64, d64) = (pback(&ray.origin), back(&ray.dir));
        let slack = self.slack(o64.coords.amax() + d64.amax() * max_toi.min(4.0));
        let pose64 = self.pa.pose64::<T>();
        let Ok(shape64) = self.sa.rounded::<T>().build::<f64>() else {
            return Ok(());
        };
        if let Some(h) = c.hit {
            let (toi, lo) = (f(h.toi), f(h.lower_bound));
            let t_slack = slack / d64.norm().max(1e-300);
            if !(toi >= -t_slack && toi <= max_toi + t_slack && lo <= toi + t_slack) {
                return Err(format!(
                    "cast_ray: toi outside [0, max_toi] or below its bound, {}",
                    ctx()
                ));
            }
            if h.upper_bound.is_some_and(|u| f(u) < toi - t_slack) {
                return Err(format!("cast_ray: upper bound below toi, {}", ctx()));
            }
            if !nice {
                return Ok(());
            }
            if h.termination == CastTermination::Converged
                && let Some(s) = signed_distance(&pose64, &shape64, &pback(&h.point))
                && s.misses_zero(slack)
            {
                return Err(format!(
                    "cast_ray: hit point off the surface ({s:?}), {}",
                    ctx()
                ));
            }
        }
        if !nice || !c.termination.is_proven() && c.hit.is_none() {
            return Ok(());
        }
        // Before the proven time, a solid ray's points are outside: from an outside origin,
        // or any solid ray before its hit.
        let before = c
            .hit
            .map_or(f(c.safe_toi).min(max_toi), |h| f(h.lower_bound));
        let outside = signed_distance(&pose64, &shape64, &o64).is_some_and(|s| s.lower > slack);
        if !(solid || outside) || !before.is_finite() || before <= 0.0 {
            return Ok(());
        }
        for k in 0..SAMPLES {
            let t = before * k as f64 / SAMPLES as f64;
            if let Some(s) = signed_distance(&pose64, &shape64, &(o64 + d64 * t))
                && s.upper < -slack
            {
                return Err(format!(
                    "cast_ray: the ray is inside at t = {t} < {before} ({s:?}), {}",
                    ctx()
                ));
            }
        }
        Ok(())
    }

    fn linear(
        &self,
        va: &SVector<f64, D>,
        vb: &SVector<f64, D>,
        opts: &CastOptions<T>,
        valid: bool,
        nice: bool,
    ) -> Verdict {
        let (pose_a, pose_b) = (self.pa.pose::<T>(), self.pb.pose::<T>());
        let (va_t, vb_t) = (va.map(lit_or::<T>), vb.map(lit_or::<T>));
        let ma = LinearMotion::new(pose_a, va_t);
        let mb = LinearMotion::new(pose_b, vb_t);
        let valid = valid && !self.pa.broken && !self.pb.broken;
        let c = match query::cast_shapes(&ma, self.a, &mb, self.b, opts, self.tol) {
            Ok(c) => c,
            Err(e) => return self.refused("cast_shapes", &e, valid, nice),
        };
        if !valid {
            return Err(format!(
                "cast_shapes accepted invalid input: {c:?}\n{}",
                self.ctx()
            ));
        }
        let at = |t: T| (shifted(&pose_a, &(va_t * t)), shifted(&pose_b, &(vb_t * t)));
        let speed = (va - vb).amax() * f(opts.max_toi).min(4.0);
        self.check_cast("cast_shapes", &c, opts, nice, speed, at)
            .map_err(|m| format!("{m}\nvelocities {va:?} {vb:?}"))
    }

    fn rigid(
        &self,
        pa1: &PoseSpec<D>,
        vb: &SVector<f64, D>,
        opts: &CastOptions<T>,
        margin: f64,
        [valid, motions_valid]: [bool; 2],
        nice: bool,
    ) -> Verdict {
        let (pose_a, pose_a1, pose_b) = (self.pa.pose::<T>(), pa1.pose::<T>(), self.pb.pose::<T>());
        let ma = convex_proximity::cast::RigidMotion::between(&pose_a, &pose_a1);
        let mb = convex_proximity::cast::RigidMotion::linear(&pose_b, vb.map(lit_or::<T>));
        let poses_valid = !self.pa.broken && !self.pb.broken;
        let valid = valid && poses_valid;
        let posed = |m: &convex_proximity::cast::RigidMotion<T, D>, t: T| {
            Isometry::from_parts(
                Translation::from(m.transform_point(t, &Point::origin()).coords),
                Rotation::from_matrix_unchecked(m.rotation_at(t)),
            )
        };
        let at = |t: T| (posed(&ma, t), posed(&mb, t));
        let reach = self.sa.scale() * 4.0 + (pa1.t - self.pa.t).amax() + vb.amax();
        match query::time_of_impact(&ma, self.a, &mb, self.b, opts, self.tol) {
            Ok(c) if !valid => {
                return Err(format!(
                    "time_of_impact accepted invalid input: {c:?}\nA's end {pa1:?}, B's velocity {vb:?}, {opts:?}\n{}",
                    self.ctx()
                ));
            }
            Ok(c) => self
                .check_cast("time_of_impact", &c, opts, nice, reach, at)
                .map_err(|m| format!("{m}\nA's end {pa1:?}, B's velocity {vb:?}"))?,
            Err(e) => self
                .refused("time_of_impact", &e, valid, nice)
                .map_err(|m| format!("{m}\nmotions {ma:?} {mb:?} {opts:?}"))?,
        }
        let m = lit::<T>(margin);
        let free = CastOptions {
            max_toi: T::one(),
            target_distance: m,
            stop_at_penetration: true,
            negative_toi: false,
            max_steps: 256,
        };
        // `motion_is_free` takes no options: only the motions, the margin and `tol`.
        let valid = motions_valid && poses_valid;
        match query::motion_is_free(&ma, self.a, &mb, self.b, m, self.tol) {
            Ok(c) if !valid => Err(format!(
                "motion_is_free accepted invalid input: {c:?}\n{}",
                self.ctx()
            )),
            Ok(c) => self.check_cast("motion_is_free", &c, &free, nice, reach, at),
            Err(e) => self.refused("motion_is_free", &e, valid, nice),
        }
    }

    /// The promises of a shape cast's answer `c`; `at(t)` is the poses at time `t`,
    /// `reach` how far a point may move over the horizon (for the slack).
    fn check_cast(
        &self,
        what: &str,
        c: &ShapeCast<T, D>,
        opts: &CastOptions<T>,
        nice: bool,
        reach: f64,
        at: impl Fn(T) -> (Pose<T, D>, Pose<T, D>),
    ) -> Verdict {
        let ctx = || format!("{what} {opts:?}: {c:?}\n{}", self.ctx());
        if f(c.safe_toi).is_nan() {
            return Err(format!("NaN safe time, {}", ctx()));
        }
        let max_toi = f(opts.max_toi);
        let target = f(opts.target_distance);
        if let Some(h) = c.hit {
            let ok = hit_finite(&h.point_a.coords, h.toi, h.lower_bound)
                && finite(&h.point_b.coords)
                && h.distance.is_finite()
                && h.normal.is_none_or(|n| finite(&n.into_inner()));
            if !ok {
                return Err(format!("NaN in the hit, {}", ctx()));
            }
            let toi = f(h.toi);
            let started = matches!(
                h.termination,
                CastTermination::StartedWithin | CastTermination::StartedPenetrating
            );
            let eps = 1e-9 * max_toi.max(1.0);
            if toi > max_toi + eps || (!started || !opts.negative_toi) && toi < -eps {
                return Err(format!("toi outside [0, max_toi], {}", ctx()));
            }
            if f(h.lower_bound) > toi + eps || h.upper_bound.is_some_and(|u| f(u) < toi - eps) {
                return Err(format!("toi outside its bounds, {}", ctx()));
            }
        }
        if !nice || !max_toi.is_finite() {
            return Ok(());
        }
        // A user's looser `gjk_rel` loosens every distance it stops at (the steps' and the
        // hit's) by that much of the distances.
        let slack = self.slack(reach) + f(self.tol.gjk_rel()) * (1.0 + target);
        let distance = |t: T| {
            let (pa, pb) = at(t);
            query::distance(&pa, self.a, &pb, self.b, self.tol).ok()
        };
        let Some(d0) = distance(T::zero()) else {
            return Ok(());
        };
        // A converged hit on the way is at the target, to the touching band (16 bands of
        // the advancement, docs/casts.md §4; within the slack).
        // From a start within the target, the hit is the return to the start distance
        // (docs/casts.md §4): that is the target then.
        let reached = target.min(f(d0.upper_bound));
        if let Some(h) = c.hit
            && h.termination == CastTermination::Converged
            && let Some(d) = distance(h.toi)
            && (f(d.lower_bound) > reached + slack || f(d.upper_bound) < reached - slack)
        {
            return Err(format!(
                "hit at toi not at the target distance ({d:?}), {}",
                ctx()
            ));
        }
        // A bracketed hit (docs/casts.md §4.2) is within the target by its toi.
        if let Some(h) = c.hit
            && h.termination == CastTermination::Bracketed
            && let Some(d) = distance(h.toi)
            && f(d.lower_bound) > reached + slack
        {
            return Err(format!(
                "bracketed hit not within the target at toi ({d:?}), {}",
                ctx()
            ));
        }
        // No contact before the safe time: nowhere closer than the target, or than the
        // start for a start within it (the cast then looks for the return within it).
        let floor = target.min(f(d0.lower_bound)) - slack;
        let safe = f(c.safe_toi).min(max_toi);
        if safe.is_nan() || safe <= 0.0 {
            return Ok(());
        }
        for k in 0..SAMPLES {
            let t = safe * k as f64 / SAMPLES as f64;
            if let Some(d) = distance(lit(t))
                && f(d.upper_bound) < floor
            {
                return Err(format!(
                    "distance {} at t = {t} below the target before safe_toi {safe}, {}",
                    f(d.upper_bound),
                    ctx()
                ));
            }
        }
        Ok(())
    }
}

/// `pose` moved by `shift`.
fn shifted<T: Real, const D: usize>(pose: &Pose<T, D>, shift: &SVector<T, D>) -> Pose<T, D> {
    Isometry::from_parts(
        Translation::from(pose.translation.vector + shift),
        pose.rotation,
    )
}

fn finite<T: Real, const D: usize>(v: &SVector<T, D>) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn hit_finite<T: Real, const D: usize>(p: &SVector<T, D>, toi: T, lower: T) -> bool {
    finite(p) && toi.is_finite() && !f(lower).is_nan()
}
