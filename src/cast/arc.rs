//! A fixed plane's gap while the shapes turn, bounded over a whole step (docs/casts.md
//! §4.1): each shape's extent along the plane's normal is its support function along the
//! arc that the normal traces in the shape's frame, and a support function is bounded on
//! an arc by its values at the two ends (the chord bound, from sublinearity).
//!
//! For a direction turning by `θ ∈ [0, Δ]`, `0 < Δ < π`, about a fixed axis,
//! `u(θ) = c + cos θ a + sin θ b` (`c` the axial part), so
//! `u(θ) = α u₀ + β u_Δ − (α + β − 1) c` with `α = sin(Δ − θ)/sin Δ`, `β = sin θ/sin Δ`,
//! both `≥ 0` and `α + β ≥ 1`, and sublinearity gives
//!
//! ```text
//! h(u(θ)) ≤ α h₀ + β h_Δ + (α + β − 1) h(−c) = H₀ cos θ + B sin θ − h(−c),
//! H₀ = h₀ + h(−c),  B = (h_Δ + h(−c) − H₀ cos Δ) / sin Δ.
//! ```
//!
//! With `1 − θ²/2 ≤ cos θ ≤ 1 − θ²/2 + θ⁴/24` and `θ − θ³/6 ≤ sin θ ≤ θ`, the gap over the
//! step is at least `g₀ + s·q(s)` with `q` a cubic whose `s²` and `s³` coefficients are
//! `≤ 0`: concave on `s ≥ 0`, so its minimum over `[0, τ]` is at an end.

use super::{RigidMotion, RotationDim};
use crate::{
    Real,
    real::lit,
    shape::SupportMap,
    tolerance::{
        allowance,
        factor::{CHORD_REFINE, CHORD_TRIES},
        ulps,
    },
};
use nalgebra::{Const, SVector};

/// One shape's extent beyond its rotation centre along a fixed world direction `d`, from
/// time `t0`: `e(s) = max_x d·(x(t0 + s) − c(t0 + s))` over the core.
struct Extent<'s, T: Real, const D: usize, S: ?Sized>
where
    Const<D>: RotationDim<T, D>,
{
    motion: &'s RigidMotion<T, D>,
    shape: &'s S,
    d: SVector<T, D>,
    t0: T,
    /// The angular speed `ω` (0: the extent is constant).
    w: T,
    /// `e(0) = h(u₀)`.
    h0: T,
    /// `h(−c)`, `c` the axial part of `u₀` (0 in 2D).
    hc: T,
}

impl<'s, T: Real, const D: usize, S: SupportMap<T, D> + ?Sized> Extent<'s, T, D, S>
where
    Const<D>: RotationDim<T, D>,
{
    fn new(
        motion: &'s RigidMotion<T, D>,
        shape: &'s S,
        d: SVector<T, D>,
        t0: T,
        evals: &mut u32,
    ) -> Self {
        let w = <Const<D> as RotationDim<T, D>>::speed(&motion.angular_velocity());
        let rot = motion.rotation_at(t0);
        let mut e = Self {
            motion,
            shape,
            d,
            t0,
            w,
            h0: T::zero(),
            hc: T::zero(),
        };
        e.h0 = e.support(&rot.tr_mul(&d), evals);
        let axial = <Const<D> as RotationDim<T, D>>::along_axis(&motion.angular_velocity(), &d);
        if w > T::zero() && axial != SVector::<T, D>::zeros() {
            e.hc = e.support(&-rot.tr_mul(&axial), evals);
        }
        e
    }

    /// `h(u) = max_x u·(x − c)` over the core (local frame).
    fn support(&self, u: &SVector<T, D>, evals: &mut u32) -> T {
        *evals += 1;
        u.dot(&(self.shape.core_support(u) - self.motion.local_center()))
    }

    /// For a step `τ`: this shape's [`Share`] of the gap's change, `−(e(s) − e(0)) ≥
    /// s·q(s)` (module doc); `None` when the turn `Δ = ωτ` rounds to 0.
    fn share(&self, tau: T, evals: &mut u32) -> Option<Share<T>> {
        if self.w == T::zero() {
            return Some(Share {
                start: T::zero(),
                end: T::zero(),
                scale: self.h0.abs(),
            });
        }
        let delta = self.w * tau;
        let (sin, cos) = delta.sin_cos();
        if !(sin > T::zero()) {
            return None;
        }
        let u1 = self.motion.rotation_at(self.t0 + tau).tr_mul(&self.d);
        let h1 = self.support(&u1, evals);
        let big_h0 = self.h0 + self.hc;
        // `B·Δ = (H_Δ − H₀ cos Δ)·Δ/sin Δ`, with `Δ/sin Δ ∈ [1, π/2]`: no division by a
        // small sine (fixed point would leave its range).
        let b_delta = (h1 + self.hc - big_h0 * cos) * (delta / sin);
        let (d2, two, six, tf) = (delta * delta, lit::<T>(2.0), lit::<T>(6.0), lit::<T>(24.0));
        // −B sin θ ≥ −Bθ + min(B, 0)·θ³/6; H₀(1 − cos θ) ≥ H₀θ²/2 − max(H₀, 0)·θ⁴/24.
        let first = -b_delta;
        let rest = big_h0 * d2 / two + b_delta.min(T::zero()) * d2 / six
            - big_h0.max(T::zero()) * d2 * d2 / tf;
        let scale = self.h0.abs() + self.hc.abs() + h1.abs() + first.abs() + (big_h0 * d2).abs();
        Some(Share {
            start: first,
            end: first + rest,
            scale,
        })
    }
}

/// One turning shape's share of a plane's gap change over a step `τ` (`Extent::share`).
#[derive(Clone, Copy, Debug)]
struct Share<T> {
    /// `τ·q(0)`.
    start: T,
    /// `τ·q(τ)`.
    end: T,
    /// The size of its terms (for the rounding).
    scale: T,
}

/// [`Plane::lowest`]'s answer.
#[derive(Clone, Copy, Debug)]
struct Lowest<T> {
    /// A proven lower bound of the gap over the step, less the rounding.
    gap: T,
    /// That rounding allowance.
    slack: T,
}

/// A plane of fixed world normal `n` (from A to B) between two turning shapes, from time
/// `t0`: its gap beyond the margin and the bound of its change over a step.
pub(super) struct Plane<'s, T: Real, const D: usize, A: ?Sized, B: ?Sized>
where
    Const<D>: RotationDim<T, D>,
{
    a: Extent<'s, T, D, A>,
    b: Extent<'s, T, D, B>,
    /// The gap at `t0`: `n·(c_B − c_A) − e_A(0) − e_B(0) − m`.
    gap: T,
    /// `n·(v_B − v_A)`: the centres' share of the gap's rate.
    rate: T,
    /// The size of the terms of `gap` (its rounding's scale).
    scale: T,
    /// Support evaluations spent.
    pub(super) evals: u32,
}

impl<'s, T: Real, const D: usize, A, B> Plane<'s, T, D, A, B>
where
    Const<D>: RotationDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    /// The plane of normal `n` (world, unit) at `t0` between A and B with the margin `m`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        motion_a: &'s RigidMotion<T, D>,
        a: &'s A,
        motion_b: &'s RigidMotion<T, D>,
        b: &'s B,
        n: &SVector<T, D>,
        t0: T,
        margin: T,
    ) -> Self {
        let mut evals = 0;
        let ea = Extent::new(motion_a, a, *n, t0, &mut evals);
        let eb = Extent::new(motion_b, b, -n, t0, &mut evals);
        let (ca, cb) = (
            n.dot(&motion_a.center_at(t0).coords),
            n.dot(&motion_b.center_at(t0).coords),
        );
        Self {
            gap: cb - ca - ea.h0 - eb.h0 - margin,
            rate: n.dot(&(motion_b.linear_velocity() - motion_a.linear_velocity())),
            scale: ca.abs() + cb.abs() + margin.abs(),
            a: ea,
            b: eb,
            evals,
        }
    }

    /// A proven lower bound of the plane's gap over `[t0, t0 + τ]`, less its rounding:
    /// `gap + min(0, τq(0), τq(τ)) − slack` (module doc), and the slack.
    fn lowest(&mut self, tau: T) -> Option<Lowest<T>> {
        let qa = self.a.share(tau, &mut self.evals)?;
        let qb = self.b.share(tau, &mut self.evals)?;
        let lin = self.rate * tau;
        let drop = T::zero()
            .min(lin + qa.start + qb.start)
            .min(lin + qa.end + qb.end);
        // The rounding of the support values and of the sums: `CORE_REACH` ulps of their
        // size, as the reach's (motion::core_reach).
        let slack = ulps::<T>(allowance::CORE_REACH)
            * (T::one() + self.scale + qa.scale + qb.scale + lin.abs());
        Some(Lowest {
            gap: self.gap + drop - slack,
            slack,
        })
    }

    /// A long step in `(tau_mu, horizon]` over which the plane's gap is proven to stay
    /// beyond the margin (`within: None`), or, from a start within the margin, never below
    /// `within: Some(f)` (the start's gap or 0, fixed for the whole run: no drift from step to
    /// step) by more than twice its rounding; `None` if no proven try is longer than
    /// `tau_mu`. Tries: the longest, a quarter turn of the faster shape or the rest of the
    /// horizon; then from a `μ` step, doubling it while the bound holds, or without one (a
    /// start within the margin) halving the longest until it does (at most [`CHORD_TRIES`]
    /// times); then [`CHORD_REFINE`] bisections between the longest proven and the shortest not.
    pub(super) fn longest_step(&mut self, horizon: T, tau_mu: T, within: Option<T>) -> Option<T> {
        let w = self.a.w.max(self.b.w);
        if !(w > T::zero()) {
            return None;
        }
        let quarter = T::frac_pi_2() / w;
        let top = if quarter < horizon { quarter } else { horizon };
        if !(top > tau_mu) {
            return None;
        }
        if self.holds(top, within) {
            return Some(top);
        }
        let two = lit::<T>(2.0);
        // `lo`: proven (or the μ step), `hi`: not proven.
        let (mut lo, mut hi) = (tau_mu, top);
        if tau_mu > T::zero() {
            for _ in 0..CHORD_TRIES {
                let tau = lo * two;
                if !(tau < hi) {
                    break;
                }
                if !self.holds(tau, within) {
                    hi = tau;
                    break;
                }
                lo = tau;
            }
        } else {
            for _ in 0..CHORD_TRIES {
                let tau = hi / two;
                if self.holds(tau, within) {
                    lo = tau;
                    break;
                }
                hi = tau;
            }
            if !(lo > T::zero()) {
                return None;
            }
        }
        for _ in 0..CHORD_REFINE {
            let mid = (lo + hi) / two;
            if self.holds(mid, within) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo > tau_mu).then_some(lo)
    }

    /// Whether the gap over `[t0, t0 + τ]` is proven to stay beyond the margin
    /// (`within: None`), or not below `within: Some(f)` by more than twice its rounding.
    fn holds(&mut self, tau: T, within: Option<T>) -> bool {
        let Some(Lowest { gap: low, slack }) = self.lowest(tau) else {
            return false;
        };
        let floor = match within {
            None => T::zero(),
            Some(f) => f - slack - slack,
        };
        low >= floor
    }

    /// The plane's gap beyond the margin at `t0`.
    pub(super) fn gap(&self) -> T {
        self.gap
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Polytope;
    use nalgebra::{Isometry2, Isometry3, Point, Point2, Point3, Vector2, Vector3};

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        }
    }

    /// The plane's gap at `t` from the vertices (brute force).
    fn sampled<const D: usize>(
        m: &RigidMotion<f64, D>,
        pts: &[Point<f64, D>],
        n: &SVector<f64, D>,
        t: f64,
    ) -> f64
    where
        Const<D>: RotationDim<f64, D>,
    {
        pts.iter()
            .map(|p| n.dot(&m.transform_point(t, p).coords))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The chord bound is a lower bound of the plane's gap over the step: random hulls
    /// turning about random centres (3D: random axes) and moving, random normals and
    /// steps up to a quarter turn, against the gap from the vertices at 400 times.
    fn bound_holds<const D: usize>(rng: &mut Lcg, motion: impl Fn(&mut Lcg) -> RigidMotion<f64, D>)
    where
        Const<D>: RotationDim<f64, D>,
    {
        let mut tight = 0;
        for _ in 0..100 {
            let pa: Vec<Point<f64, D>> = (0..8)
                .map(|_| Point::from(SVector::from_fn(|_, _| rng.next())))
                .collect();
            let pb: Vec<Point<f64, D>> = (0..8)
                .map(|_| Point::from(SVector::from_fn(|_, _| rng.next())))
                .collect();
            let (a, b) = (
                Polytope::try_new(pa.clone()).unwrap(),
                Polytope::try_new(pb.clone()).unwrap(),
            );
            let (ma, mb) = (motion(rng), motion(rng));
            let n = SVector::<f64, D>::from_fn(|_, _| rng.next()).normalize();
            let t0 = rng.next().abs();
            let mut plane = Plane::new(&ma, &a, &mb, &b, &n, t0, 0.0);
            let w = <Const<D> as RotationDim<f64, D>>::speed(&ma.angular_velocity()).max(
                <Const<D> as RotationDim<f64, D>>::speed(&mb.angular_velocity()),
            );
            let tau = core::f64::consts::FRAC_PI_2 / w * rng.next().abs();
            let low = plane.lowest(tau).unwrap().gap;
            let truth = (0..=400)
                .map(|k| {
                    let t = t0 + tau * k as f64 / 400.0;
                    -sampled(&mb, &pb, &-n, t) - sampled(&ma, &pa, &n, t)
                })
                .fold(f64::INFINITY, f64::min);
            assert!(low <= truth, "{low} > {truth}");
            tight += usize::from(truth - low < 0.1);
        }
        // Not vacuous: often within 0.1 of the truth.
        assert!(tight > 25, "{tight}");
    }

    #[test]
    fn chord_bound_is_a_lower_bound() {
        let mut rng = Lcg(11);
        bound_holds::<2>(&mut rng, |r| {
            RigidMotion::new(
                &Isometry2::new(Vector2::new(r.next(), r.next()) * 2.0, r.next() * 3.0),
                Point2::new(r.next(), r.next()) * 0.5,
                Vector2::new(r.next(), r.next()),
                r.next() * 6.0,
            )
        });
        bound_holds::<3>(&mut rng, |r| {
            RigidMotion::new(
                &Isometry3::new(
                    Vector3::new(r.next(), r.next(), r.next()) * 2.0,
                    Vector3::new(r.next(), r.next(), r.next()) * 2.0,
                ),
                Point3::new(r.next(), r.next(), r.next()) * 0.5,
                Vector3::new(r.next(), r.next(), r.next()),
                Vector3::new(r.next(), r.next(), r.next()) * 4.0,
            )
        });
    }
}

#[cfg(all(test, feature = "fixed"))]
mod fixed_tests {
    use super::*;
    use crate::shape::Cuboid;
    use nalgebra::{ComplexField, Isometry2, Point2, Vector2};
    use simba::scalar::FixedI40F24 as F;

    /// Regression (FixedI40F24, commit `dd0683a`): the chord bound formed
    /// `B = (H_Δ + h(−c) − H₀ cos Δ) / sin Δ` and then `B·Δ`. A shape turning slowly about a
    /// far pivot (1e11 or 2e11 away, at 2 ulps or 1e-6 rad per unit time) has support
    /// values about the pivot of ~1e11, and their difference over a step carries the
    /// fixed-point rotation's rounding (~1e-7 of them: 3e4–5e4 here), while `Δ` is 1–3 ulps
    /// and CORDIC's `sin Δ` 2 ulps: `B` left the type's ±5.5e11 (debug: the division
    /// panics; release: `B` wraps by 2⁴⁰ and `B·Δ` comes out 89319 instead of −107288 at
    /// pivot 2e11, t0 0.625, τ 0.2). Formed as `(…)·(Δ/sin Δ)` it stays within `π/2` of the
    /// support values' difference. Through `time_of_impact`/`motion_is_free` such a pivot
    /// is not reached: a fixed-point rotation centre beyond the shapes' range (46341) is
    /// `Err(OutOfRange)` (the reach bound, `core_reach`, squares its distance), and within
    /// it `B` stays below about 4e6.
    #[test]
    fn chord_bound_without_sine_division_stays_in_range() {
        let lit = |x: f64| lit::<F>(x);
        let back = |x: F| -> f64 { nalgebra::try_convert(x).unwrap() };
        let boxed = Cuboid::new(Vector2::new(lit(1.0), lit(1.0)));
        let mut checked = 0;
        for (pivot, w) in [(1e11, 2.0 / 16_777_216.0), (2e11, 1e-6)] {
            let w = lit(w);
            let m = RigidMotion::new(
                &Isometry2::identity(),
                Point2::new(lit(pivot), lit(0.0)),
                Vector2::zeros(),
                w,
            );
            for k in 0..16 {
                let t0 = lit(f64::from(k) / 16.0);
                for a in 0..8 {
                    let angle = f64::from(a) * 0.785 + 0.1;
                    let d = Vector2::new(lit(angle.cos()), lit(angle.sin()));
                    for j in 1..8 {
                        let tau = lit(f64::from(j) / 10.0);
                        let mut evals = 0;
                        let e = Extent::new(&m, &boxed, d, t0, &mut evals);
                        let Some(Share { start: first, .. }) = e.share(tau, &mut evals) else {
                            continue;
                        };
                        // The same support values, read again: `B·Δ` is
                        // `(H_Δ + h(−c) − H₀ cos Δ)·Δ/sin Δ` of them, to its rounding.
                        let delta = e.w * tau;
                        let (sin, cos) = delta.sin_cos();
                        let u1 = m.rotation_at(t0 + tau).tr_mul(&d);
                        let h1 = e.support(&u1, &mut evals);
                        let num = back(h1 + e.hc - (e.h0 + e.hc) * cos);
                        let b_delta = num * back(delta) / back(sin);
                        assert!(
                            (back(-first) - b_delta).abs() <= 1e-6 * b_delta.abs() + 1e-3,
                            "pivot {pivot}, t0 {}, d {d:?}, τ {}: B·Δ = {}, not {b_delta} \
                             (Δ {}, sin Δ {})",
                            back(t0),
                            back(tau),
                            -back(first),
                            back(delta),
                            back(sin)
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}
