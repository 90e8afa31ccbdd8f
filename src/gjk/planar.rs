//! The simplex solve in the plane (`D = 2`, floating point; docs/gjk.md §2.2): the signed
//! areas of [`super::volumes`] with the same sign tests, the same segment projection and
//! the same arithmetic in the same order, written for the at most three slots of a 2D
//! simplex: no slot lists, no four-slot candidates, no normal carried for the direction
//! (floats take `v` itself), the witnesses formed once for the sub-simplex kept.
//!
//! The caller certifies the answer exactly as for the general solve: a full triangle by its
//! residual (else the pivoted solve), a triangle's edge or vertex by the optimality
//! condition (else the projection search). Fixed-point keeps [`super::volumes`], whose
//! direction (the line's normal) it needs.

use super::simplex::{Closest, SupportPoint};
use super::vertex_set::VertexSet;
use super::volumes::same_sign;
use crate::Real;
use nalgebra::SVector;

/// A sub-simplex's answer: its slots, their barycentric coordinates, the point and its
/// squared norm.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part<T: Real, const D: usize> {
    pub set: VertexSet,
    pub lambda: [T; 3],
    pub v: SVector<T, D>,
    pub vv: T,
}

/// What the planar solve found, before the caller's certificate.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Planar<T: Real, const D: usize> {
    /// The origin inside the triangle by the sign tests: the residual `Σ λᵢ yᵢ` (the
    /// point) and the coordinates, to be checked against the rounding.
    Inside(Part<T, D>),
    /// A vertex or an edge: for a segment its own Voronoi regions, so certified already;
    /// for a triangle's edge or vertex the optimality condition must hold.
    Boundary(Part<T, D>),
}

/// `yᵢ` alone.
#[inline]
fn vertex<T: Real, const D: usize>(pts: &[SupportPoint<T, D>], i: usize) -> Part<T, D> {
    let mut lambda = [T::zero(); 3];
    lambda[i] = T::one();
    let v = pts[i].w;
    Part {
        set: VertexSet::single(i),
        lambda,
        v,
        vv: v.norm_squared(),
    }
}

/// S1D on the segment `yᵢ yⱼ` ([`super::volumes`]' segment, 2D floats): `λⱼ = −yᵢ·t / t·t`
/// clamped to `[0, 1]` with `t = yⱼ − yᵢ`; inside, `v = n (n·yᵢ)/(t·t)` along the line's
/// normal `n ⟂ t` (no cancellation in its direction). Always inlined, as
/// [`super::volumes::mix`]: LLVM moved it out of line in one build (2D corpus distance
/// +1.7 % instructions).
#[inline(always)]
fn segment<T: Real, const D: usize>(pts: &[SupportPoint<T, D>], i: usize, j: usize) -> Part<T, D> {
    let (yi, yj) = (&pts[i].w, &pts[j].w);
    let t = yj - yi;
    let tt = t.norm_squared();
    let num = -yi.dot(&t);
    if !(tt > T::zero()) || !(num > T::zero()) {
        // The nearer end (the first on ties), as the general solve.
        let (a, b) = (vertex(pts, i), vertex(pts, j));
        return if b.vv < a.vv { b } else { a };
    }
    if num >= tt {
        return vertex(pts, j);
    }
    let lj = num / tt;
    let mut lambda = [T::zero(); 3];
    lambda[i] = T::one() - lj;
    lambda[j] = lj;
    let mut n = SVector::<T, D>::zeros();
    (n[0], n[1]) = (-t[1], t[0]);
    let v = n * (n.dot(yi) / tt);
    Part {
        set: VertexSet::single(i).with(j),
        lambda,
        v,
        vv: v.norm_squared(),
    }
}

/// `u × w` (the 2D cross product).
#[inline]
fn cross<T: Real, const D: usize>(u: &SVector<T, D>, w: &SVector<T, D>) -> T {
    u[0] * w[1] - u[1] * w[0]
}

/// S2D in the plane on the triangle of slots 0, 1, 2: the origin's areas `C_m` against
/// the whole `μ` ([MPB17] §3.3); inside when all agree, else the nearest of the edges the
/// origin lies beyond (the later one on ties, as the general solve).
#[inline]
fn triangle<T: Real, const D: usize>(pts: &[SupportPoint<T, D>]) -> Planar<T, D> {
    let c = [
        cross(&pts[1].w, &pts[2].w),
        cross(&pts[2].w, &pts[0].w),
        cross(&pts[0].w, &pts[1].w),
    ];
    let mu = c[0] + c[1] + c[2];
    let agree = [
        same_sign(mu, c[0]),
        same_sign(mu, c[1]),
        same_sign(mu, c[2]),
    ];
    if agree[0] && agree[1] && agree[2] {
        let lambda = [c[0] / mu, c[1] / mu, c[2] / mu];
        let v = SVector::<T, D>::zeros()
            + pts[0].w * lambda[0]
            + pts[1].w * lambda[1]
            + pts[2].w * lambda[2];
        return Planar::Inside(Part {
            set: VertexSet::first(3),
            lambda,
            v,
            vv: v.norm_squared(),
        });
    }
    let mut best: Option<Part<T, D>> = None;
    for m in 0..3 {
        if !agree[m] {
            // Kept in place (the later edge on ties): no part moved through an `Option`.
            let e = segment(pts, (m + 1) % 3, (m + 2) % 3);
            if best.as_ref().is_none_or(|o| !(o.vv < e.vv)) {
                best = Some(e);
            }
        }
    }
    // Some edge disagrees whenever not all agree: `best` is set.
    Planar::Boundary(best.unwrap_or_else(|| segment(pts, 0, 1)))
}

/// The closest point of the 2D simplex `pts[set]` (two or three vertices) to the origin,
/// before its certificate.
#[inline]
pub(crate) fn closest<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    set: VertexSet,
) -> Planar<T, D> {
    debug_assert!(D == 2 && set.len() >= 2);
    match set.bits() {
        0b011 => Planar::Boundary(segment(pts, 0, 1)),
        0b101 => Planar::Boundary(segment(pts, 0, 2)),
        0b110 => Planar::Boundary(segment(pts, 1, 2)),
        _ => triangle(pts),
    }
}

/// The [`Closest`] of a part: its point (also its direction: floats), its witnesses
/// `Σ λᵢ aᵢ`, `Σ λᵢ bᵢ` (the origin without `witnesses`), `scale` the simplex's largest
/// coordinate.
#[inline]
pub(crate) fn to_closest<T: Real, const D: usize>(
    part: &Part<T, D>,
    pts: &[SupportPoint<T, D>],
    scale: T,
    witnesses: bool,
) -> Closest<T, D> {
    let w = super::volumes::mix(part.set, &part.lambda, pts, witnesses);
    Closest {
        v: part.v,
        dir: part.v,
        a: w.a,
        b: w.b,
        scale,
        full: part.set == VertexSet::first(3),
        via: crate::trace::Solver::SignedVolumes,
    }
}

#[cfg(test)]
mod tests {
    use super::super::volumes;
    use super::*;
    use nalgebra::Point2;
    use quickcheck::{QuickCheck, TestResult};

    fn sp<T: Real>(w: [f64; 2], a: [f64; 2]) -> SupportPoint<T, 2> {
        let l = crate::real::lit::<T>;
        let pa = Point2::new(l(a[0]), l(a[1]));
        let pb = Point2::new(l(a[0] - w[0]), l(a[1] - w[1]));
        SupportPoint::new(pa, pb)
    }

    /// The planar solve and the general signed volumes give the same sub-simplex, point and
    /// coordinates (bit for bit: the same arithmetic in the same order).
    fn agrees<T: Real>(pts: &[SupportPoint<T, 2>], set: VertexSet) -> Result<(), String> {
        let cand = volumes::closest(&volumes::Ws(pts), set);
        let (part, inside) = match closest(pts, set) {
            Planar::Inside(p) => (p, true),
            Planar::Boundary(p) => (p, false),
        };
        if cand.set != part.set || inside != cand.full() {
            return Err(format!(
                "sets {:b} vs {:b}",
                cand.set.bits(),
                part.set.bits()
            ));
        }
        for s in 0..3 {
            if cand.set.contains(s) && cand.lambda[s] != part.lambda[s] {
                return Err(format!(
                    "λ[{s}] {:?} vs {:?}",
                    cand.lambda[s], part.lambda[s]
                ));
            }
        }
        if !inside && cand.v != part.v {
            return Err(format!("v {:?} vs {:?}", cand.v, part.v));
        }
        let (old, new) = (
            volumes::to_closest(&cand, pts, T::one(), true),
            to_closest(&part, pts, T::one(), true),
        );
        if old.a != new.a || old.b != new.b {
            return Err(format!(
                "witnesses {:?} {:?} vs {:?} {:?}",
                old.a, old.b, new.a, new.b
            ));
        }
        Ok(())
    }

    /// Random triangles and segments, from a seed: coordinates at several scales, some
    /// vertices repeated or collinear (the degenerate cases of the sign tests).
    fn random_simplex(seed: u64) -> (Vec<[f64; 2]>, u8) {
        let mut s = seed;
        let mut u = || crate::real::test_uniform(&mut s, -1.0, 1.0);
        let scale = 10f64.powi((u() * 6.0).round() as i32);
        let mut y: Vec<[f64; 2]> = (0..3).map(|_| [u() * scale, u() * scale]).collect();
        let shape = (u() * 4.0 + 4.0) as u32 % 4;
        match shape {
            1 => y[2] = y[0],
            2 => {
                let f = u();
                y[2] = [
                    y[0][0] + f * (y[1][0] - y[0][0]),
                    y[0][1] + f * (y[1][1] - y[0][1]),
                ];
            }
            _ => {}
        }
        let bits = [0b011, 0b101, 0b110, 0b111, 0b111, 0b111][((u() + 1.0) * 3.0) as usize % 6];
        (y, bits)
    }

    fn property<T: Real>(seed: u64) -> TestResult {
        let (y, bits) = random_simplex(seed);
        let pts: Vec<SupportPoint<T, 2>> = y.iter().map(|w| sp::<T>(*w, [0.25, -0.5])).collect();
        match agrees(&pts, VertexSet::from_bits(bits)) {
            Ok(()) => TestResult::passed(),
            Err(e) => TestResult::error(format!("{y:?} bits {bits:b}: {e}")),
        }
    }

    #[test]
    fn agrees_with_signed_volumes_f64() {
        QuickCheck::new()
            .tests(20_000)
            .quickcheck(property::<f64> as fn(u64) -> TestResult);
    }

    #[test]
    fn agrees_with_signed_volumes_f32() {
        QuickCheck::new()
            .tests(20_000)
            .quickcheck(property::<f32> as fn(u64) -> TestResult);
    }

    /// Against brute force: the point found is no farther than the nearest of the
    /// vertices and of the edges' clamped projections, and (inside) the origin lies in
    /// the triangle.
    #[test]
    fn matches_brute_force() {
        for seed in 0..20_000u64 {
            let (y, bits) = random_simplex(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let pts: Vec<SupportPoint<f64, 2>> =
                y.iter().map(|w| sp::<f64>(*w, [0.0, 0.0])).collect();
            let used: Vec<usize> = (0..3).filter(|i| bits & (1 << i) != 0).collect();
            let mut brute = f64::INFINITY;
            for (x, &i) in used.iter().enumerate() {
                brute = brute.min(pts[i].w.norm());
                for &j in &used[x + 1..] {
                    let (p, q) = (pts[i].w, pts[j].w);
                    let t = q - p;
                    let l = if t.norm_squared() > 0.0 {
                        (-p.dot(&t) / t.norm_squared()).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                    brute = brute.min((p + t * l).norm());
                }
            }
            let m = used.iter().map(|&i| pts[i].w.amax()).fold(0.0, f64::max);
            let (got, inside) = match closest(&pts, VertexSet::from_bits(bits)) {
                Planar::Inside(p) => (p.v.norm(), true),
                Planar::Boundary(p) => (p.v.norm(), false),
            };
            // The origin strictly inside a triangle that is not flat (exact enough in f64
            // for these sizes): all three areas of one sign, each beyond its rounding.
            let inside_exact = bits == 0b111 && {
                let cr = |p: &SVector<f64, 2>, q: &SVector<f64, 2>| p[0] * q[1] - p[1] * q[0];
                let c = [
                    cr(&pts[1].w, &pts[2].w),
                    cr(&pts[2].w, &pts[0].w),
                    cr(&pts[0].w, &pts[1].w),
                ];
                let tiny = 1e-9 * m * m;
                c.iter().all(|&x| x > tiny) || c.iter().all(|&x| x < -tiny)
            };
            if inside {
                assert!(got <= 1e-12 * m, "{y:?}: residual {got}");
            } else {
                assert!(!inside_exact, "{y:?}: the origin is inside, answered {got}");
                assert!(
                    (got - brute).abs() <= 1e-12 * m,
                    "{y:?} bits {bits:b}: {got} against {brute}"
                );
            }
        }
    }
}
