//! Swept boxes: an [`Aabb`] holding a shape at every time of a motion, for the broad phase
//! of the casts (docs/collections.md, "Swept boxes").
//!
//! Linear motion: the shape at time `t` is `S₀ + t·v`, whose box is `B₀ + t·v`; over
//! `t ∈ [0, t₁]` every such interval lies in `[lo + min(0, t₁v), hi + max(0, t₁v)]`, the
//! merge of the boxes at both ends (exact).
//!
//! Rigid motion ([`RigidMotion`]): a point `x` of the shape is at
//! `p(t) = c(t) + q(t)`, `c(t) = c₀ + t·v` the centre, `q(t) = R(t)·(x − l)` its offset
//! turning about the centre (`l` the local centre) by the angle `θ = ‖ω‖·t₁` over the
//! interval. With `r = reach + radius ≥ ‖x − l‖` (a proven bound, the one the casts use):
//! - ball bound (any `θ`): `‖q(t)‖ ≤ r`, so `pₖ(t) ∈ [min(c₀ₖ, c₁ₖ) − r, max(c₀ₖ, c₁ₖ) + r]`;
//! - chord bound (`θ ≤ π`): `q(t)` runs on a circle arc of radius `ρ ≤ r` and angle `θ`
//!   about the rotation axis; with the arc at angles `α ∈ [−θ/2, θ/2]` from its bisector,
//!   `ρ·|sin α| ≤ ρ·sin(θ/2)` (so the point projects inside the chord `[q(0), q(1)]`)
//!   and its distance to the chord is `ρ·(cos α − cos θ/2) ≤ ρ·(1 − cos θ/2) =
//!   2ρ·sin²(θ/4)`, the sagitta `s`. So `qₖ(t)` lies within `s` of
//!   `[min(q₀ₖ, q₁ₖ), max(q₀ₖ, q₁ₖ)]`, inside the merge of the shape's boxes at both ends
//!   taken about the centre, `B₀ᶜ ∪ B₁ᶜ`, widened by `s`; adding `cₖ(t)`'s interval gives
//!   `[min(c₀ₖ, c₁ₖ) + B.minₖ − s, max(c₀ₖ, c₁ₖ) + B.maxₖ + s]`. In 3D the offset from
//!   the chord lies in the turning plane (⊥ ω), so along axis `k` it is at most
//!   `s·√(1 − ω̂ₖ²)` (nothing along the rotation axis).
//!
//! The box is the per-axis intersection of the two (both contain every `p(t)`): tight for
//! translations and small turns (the sagitta is `≈ r·θ²/8`), the ball's for large turns.
//! Rounding: the end boxes carry the usual pad; the sums, the sagitta and the rotation
//! matrices' deviation from orthonormality (a few ulps per entry, times `r`) get
//! `64·ε·(r + |c|∞)` more (at least `64·ε` in fixed-point, whose rounding is absolute).

use super::{Aabb, pad};
use crate::{
    QueryError, Real,
    cast::{LinearMotion, RigidMotion, RotationDim, core_reach},
    pose::{Frame, PoseRotation},
    real::{is_fixed, lit},
    shape::SupportMap,
};
use nalgebra::{Const, Point};

/// [`allowance::SWEPT_PAD`](crate::tolerance::allowance::SWEPT_PAD) ulps of `scale`
/// (fixed-point: `scale ≥ 1`).
fn slack<T: Real>(scale: T) -> T {
    let scale = if is_fixed::<T>() {
        scale.max(T::one())
    } else {
        scale
    };
    crate::tolerance::ulps::<T>(crate::tolerance::allowance::SWEPT_PAD) * scale
}

/// Checks the time horizon: finite and `≥ 0`.
fn check_horizon<T: Real>(t_max: T) -> Result<(), QueryError> {
    if t_max >= T::zero() && t_max.is_finite() {
        Ok(())
    } else {
        Err(QueryError::InvalidCast { what: "max_toi" })
    }
}

impl<T: Real, const D: usize> Aabb<T, D> {
    /// A box holding `shape` at every time `t ∈ [0, t_max]` of the linear motion `motion`
    /// (the pose at time `t` is `motion.pose` translated by `t · velocity`, as in
    /// [`crate::query::cast_shapes`]): the boxes at both ends merged, exact up to rounding.
    ///
    /// # Errors
    /// As [`Aabb::of`]; [`QueryError::InvalidCast`] for a negative or non-finite `t_max`
    /// or a non-finite velocity.
    ///
    /// ```
    /// use convex_proximity::{bound::Aabb, cast::LinearMotion, shape::Ball};
    /// use nalgebra::{Isometry2, Vector2};
    /// let m = LinearMotion::new(Isometry2::translation(0.0, 0.0), Vector2::new(4.0f64, 0.0));
    /// let b = Aabb::swept_linear(&m, &Ball::new(1.0), 1.0).unwrap();
    /// assert!((b.min.x + 1.0).abs() < 1e-12 && (b.max.x - 5.0).abs() < 1e-12);
    /// assert!((b.max.y - 1.0).abs() < 1e-12);
    /// ```
    pub fn swept_linear<R, S>(
        motion: &LinearMotion<T, R, D>,
        shape: &S,
        t_max: T,
    ) -> Result<Self, QueryError>
    where
        R: PoseRotation<T, D>,
        S: SupportMap<T, D> + ?Sized,
    {
        check_horizon(t_max)?;
        if !crate::real::all_finite(&motion.velocity) {
            return Err(QueryError::InvalidCast { what: "motion" });
        }
        let start = Self::of(&motion.pose, shape)?;
        let step = motion.velocity * t_max;
        let (mut min, mut max) = (start.min, start.max);
        for k in 0..D {
            let e = slack::<T>(start.min[k].abs().max(start.max[k].abs()) + step[k].abs());
            min[k] = start.min[k] + step[k].min(T::zero()) - e;
            max[k] = start.max[k] + step[k].max(T::zero()) + e;
        }
        Ok(Self { min, max })
    }

    /// A box holding `shape` at every time `t ∈ [0, t_max]` of the rigid motion `motion`
    /// (translation and rotation, as in [`crate::query::time_of_impact`]; a planner's
    /// segment between two poses is [`RigidMotion::between`] with `t_max = 1`). Proven
    /// conservative (module docs of `src/bound/swept.rs`): the per-axis intersection of the
    /// ball bound (the centre's path widened by the shape's reach about it) and, for turns
    /// up to π, the chord bound (the end boxes about the centre widened by the sagitta).
    ///
    /// # Errors
    /// As [`Aabb::of`] for the shape; [`QueryError::InvalidCast`] for an invalid motion (not
    /// finite, not a rotation) or a negative or non-finite `t_max`.
    ///
    /// ```
    /// use convex_proximity::{bound::Aabb, cast::RigidMotion, shape::Cuboid};
    /// use nalgebra::{Isometry3, Point3, Vector3};
    /// let cube = Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0));
    /// // A quarter turn about z while moving 3 along x.
    /// let m = RigidMotion::between(&Isometry3::identity(),
    ///                              &Isometry3::new(Vector3::new(3.0, 0.0, 0.0), Vector3::z() * 1.5707963));
    /// let b = Aabb::swept(&m, &cube, 1.0).unwrap();
    /// // Half-way the cube stands at 45°: its corner reaches √2 from the centre.
    /// let corner = m.transform_point(0.5, &Point3::new(1.0, 1.0, 1.0));
    /// assert!(b.contains_point(&corner) && b.max.y >= 2f64.sqrt());
    /// // Within the sagitta 2·√3·sin²(π/8) = 0.507 of the end boxes (the ball: √3), and
    /// // exact along the rotation axis.
    /// assert!(b.max.y < 1.0 + 0.508 && (b.max.z - 1.0).abs() < 1e-9);
    /// ```
    pub fn swept<S>(motion: &RigidMotion<T, D>, shape: &S, t_max: T) -> Result<Self, QueryError>
    where
        Const<D>: RotationDim<T, D>,
        S: SupportMap<T, D> + ?Sized,
    {
        check_horizon(t_max)?;
        crate::input::check_shape(shape)?;
        if !motion.is_valid() {
            return Err(QueryError::InvalidCast { what: "motion" });
        }
        let l = motion.local_center();
        let (c0, c1) = (motion.center_at(T::zero()), motion.center_at(t_max));
        let r = core_reach(shape, &l) + shape.radius();
        let w = motion.angular_velocity();
        let theta = <Const<D> as RotationDim<T, D>>::speed(&w) * t_max;
        // The end boxes about the centre: the shape posed by (R(t), −R(t)·l).
        let about = |t: T| {
            let rot = motion.rotation_at(t);
            let frame = Frame {
                rot,
                t: -(rot * l.coords),
            };
            match shape.primitive() {
                Some(p) => Self::closed_form(&frame, &p),
                None => Self::supports(&frame, shape),
            }
        };
        let chord = if theta <= lit(core::f64::consts::PI) {
            let (b0, b1) = (about(T::zero()), about(t_max));
            let s = (theta * lit(0.25)).sin();
            Some((b0.merge(&b1), r * (s * s * lit(2.0))))
        } else {
            None
        };
        let (mut min, mut max) = (Point::origin(), Point::origin());
        for k in 0..D {
            let (lo, hi) = (c0[k].min(c1[k]), c0[k].max(c1[k]));
            let e = slack::<T>(r + lo.abs().max(hi.abs())) + pad::<T, D>(r);
            let (mut a, mut b) = (lo - r, hi + r);
            if let Some((bc, sag)) = &chord {
                // The arc's offset from its chord lies in the turning plane (⊥ ω).
                let share = <Const<D> as RotationDim<T, D>>::plane_share(&w, k);
                let sag = *sag * share;
                a = a.max(lo + bc.min[k] - sag);
                b = b.min(hi + bc.max[k] + sag);
            }
            min[k] = a - e;
            max[k] = b + e;
        }
        Ok(Self { min, max })
    }
}

/// The offset of a posed point from the box, per axis (0 inside): for tests.
#[cfg(test)]
fn outside<T: Real, const D: usize>(b: &Aabb<T, D>, p: &Point<T, D>) -> nalgebra::SVector<T, D> {
    nalgebra::SVector::from_fn(|k, _| (b.min[k] - p[k]).max(p[k] - b.max[k]).max(T::zero()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Ball;
    use nalgebra::{Isometry2, Point2, Vector2};

    /// A ball turning a quarter turn across the −x axis about the origin: half-way it
    /// reaches x = −2.5, beyond the end boxes' merge (x ≥ −√2 − 0.5) by the arc's bulge;
    /// the box holds it and is tight there (the ball bound, exact).
    #[test]
    fn quarter_turn_across_an_axis_is_covered() {
        let h = core::f64::consts::SQRT_2;
        let m = RigidMotion::new(
            &Isometry2::translation(-h, h),
            Point2::new(h, -h),
            Vector2::zeros(),
            core::f64::consts::FRAC_PI_2,
        );
        let b = Aabb::swept(&m, &Ball::new(0.5f64), 1.0).unwrap();
        let mid = m.transform_point(0.5, &Point2::origin());
        assert!((mid - Point2::new(-2.0, 0.0)).norm() < 1e-12, "{mid}");
        assert_eq!(
            outside(&b, &Point2::new(-2.5, 0.0)),
            Vector2::zeros(),
            "{b:?}"
        );
        // min.x: the ball bound; max.x: the chord bound, −√2 + 0.5 plus the sagitta
        // 2·2.5·sin²(π/8) = 0.732 (the true extent is −√2 + 0.5).
        let sagitta = 5.0 * (core::f64::consts::PI / 8.0).sin().powi(2);
        assert!(b.min.x > -2.5 - 1e-12, "{b:?}");
        assert!((b.max.x - (-h + 0.5 + sagitta)).abs() < 1e-12, "{b:?}");
    }

    /// Past half a turn the chord bound does not hold: the ball bound alone answers.
    #[test]
    fn large_turns_use_the_ball_bound() {
        let m = RigidMotion::new(
            &Isometry2::translation(-1.0, 0.0),
            Point2::new(1.0, 0.0),
            Vector2::zeros(),
            4.0,
        );
        let b = Aabb::swept(&m, &Ball::new(0.25f64), 1.0).unwrap();
        assert!(
            (b.max.x - 1.25).abs() < 1e-9 && (b.min.y + 1.25).abs() < 1e-9,
            "{b:?}"
        );
        assert!(Aabb::swept(&m, &Ball::new(0.25f64), -1.0).is_err());
    }
}
