//! Closed forms on the cores of round shapes (docs/pairs.md §3): a ball's core is its
//! centre, a capsule's its segment. Point–box is the clamp of the point; point–point,
//! point–segment and segment–segment are closest points (Ericson, *Real-Time Collision
//! Detection* §5.1.2, §5.1.9), certified by the separating plane through the pair.

use super::{Answer, Want};
use crate::{
    Real, Tolerances,
    linalg::any_axis,
    real::{amax, amax_from, norm},
    tolerance::Rounding,
};
use nalgebra::{Point, SVector};

/// A unit vector perpendicular to `d` (any unit vector when `d = 0`): 2D the left normal,
/// 3D the cross with the axis least aligned with `d`.
fn perpendicular<T: Real, const D: usize>(d: &SVector<T, D>) -> SVector<T, D> {
    let mut p = SVector::<T, D>::zeros();
    if D == 2 {
        p[0] = -d[1];
        p[1] = d[0];
    } else if D == 3 {
        let k = d.iamin();
        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
        // d × e_k: components at k1 and k2.
        p[k1] = d[k2];
        p[k2] = -d[k1];
    }
    crate::real::normalize(&p)
        .unwrap_or_else(any_axis)
        .into_inner()
}

/// The box `[−h, h]` (first) and the point `c` (second), in the box's frame: outside, the
/// clamp of `c` is its nearest point; inside (or on the boundary), the depth is the
/// distance to the nearest face, along that face's normal.
#[inline(always)]
pub(crate) fn point_box<T: Real, const D: usize>(
    h: &SVector<T, D>,
    c: &Point<T, D>,
    tol: &Tolerances<T>,
    want: Want,
) -> Option<Answer<T, D>> {
    // Plain comparisons (`real::amax`): an ∞ gives ∞ as nalgebra's `amax` does, and a NaN
    // (an overflowing placement times a zero entry) makes `dist` NaN, which answers `None`
    // before `coords` is read; so in every closed form of this file.
    let coords = amax(&c.coords) + amax(h);
    let band = Rounding::of(tol).band(coords);
    // The clamp by plain comparisons (`max`/`min` are NaN-aware: a select each more); a NaN
    // coordinate stays NaN and answers `None` below, as the clamp of it did.
    let p = Point::from(c.coords.zip_map(h, |v, e| {
        if v < -e {
            -e
        } else if v > e {
            e
        } else {
            v
        }
    }));
    let d = c - p;
    let dist = norm(&d);
    if dist > T::zero() {
        return Some(Answer::apart(p, *c, dist, d / dist, dist, band, coords));
    }
    if !dist.is_finite() || !(dist == T::zero()) {
        return None;
    }
    // Inside: the nearest face k, depth h_k − |c_k|.
    let mut k = 0;
    let mut depth = h[0] - c[0].abs();
    for j in 1..D {
        let dj = h[j] - c[j].abs();
        if dj < depth {
            (k, depth) = (j, dj);
        }
    }
    let mut n = SVector::<T, D>::zeros();
    n[k] = if c[k] < T::zero() {
        -T::one()
    } else {
        T::one()
    };
    let a = if want == Want::Contact {
        c + n * depth
    } else {
        *c
    };
    Some(Answer {
        sep: -depth,
        lower: -depth,
        upper: -depth,
        normal: n,
        a,
        b: *c,
        band,
        coords,
    })
}

/// Two points, the origin (first) and `c`: their distance. Two points never overlap, so
/// the signed core separation is the distance even when it is 0.
#[inline(always)]
pub(crate) fn point_point<T: Real, const D: usize>(
    c: &Point<T, D>,
    tol: &Tolerances<T>,
) -> Option<Answer<T, D>> {
    let coords = amax(&c.coords);
    let dist = norm(&c.coords);
    if !dist.is_finite() {
        return None;
    }
    let normal = if dist > T::zero() {
        c.coords / dist
    } else {
        any_axis::<T, D>().into_inner()
    };
    let band = Rounding::of(tol).band(coords);
    Some(Answer::apart(
        Point::origin(),
        *c,
        dist,
        normal,
        dist,
        band,
        coords,
    ))
}

/// The point `c` and the segment `[s0, s1]` (the point first, or the segment first when
/// `swap`). A point and a segment never overlap (their difference is flat), so the signed
/// core separation is the distance; at distance 0 the normal is perpendicular to the
/// segment.
pub(crate) fn point_segment<T: Real, const D: usize>(
    c: &Point<T, D>,
    s0: &Point<T, D>,
    s1: &Point<T, D>,
    tol: &Tolerances<T>,
    swap: bool,
) -> Option<Answer<T, D>> {
    let coords = amax_from(amax_from(amax(&c.coords), &s0.coords), &s1.coords);
    let band = Rounding::of(tol).band(coords);
    let OnSegment { point: q, inner } = closest_on_segment(s0, s1, c);
    let d = q - c;
    let dist = norm(&d);
    if !dist.is_finite() {
        return None;
    }
    let (normal, lower) = if dist > T::zero() {
        // Inside the segment, the closest direction is orthogonal to it; at an end, it is
        // `d` itself (`orthogonal` of no directions, without its second root).
        let n = if inner {
            orthogonal_to(&d, &(s1 - s0))?
        } else {
            d / dist
        };
        // The plane through the pair: the segment lies beyond min(n·s0, n·s1).
        let lower = n.dot(&s0.coords).min(n.dot(&s1.coords)) - n.dot(&c.coords);
        let gap = dist - lower;
        if !crate::tolerance::bounds_met(tol, gap, dist, band) {
            return None;
        }
        (n, lower)
    } else {
        (perpendicular(&(s1 - s0)), T::zero())
    };
    let mut ans = Answer {
        sep: dist,
        lower,
        upper: dist,
        normal,
        a: *c,
        b: q,
        band,
        coords,
    };
    if swap {
        core::mem::swap(&mut ans.a, &mut ans.b);
        ans.normal = -ans.normal;
    }
    Some(ans)
}

/// `d` with its component along `e ≠ 0` removed, unit: [`super::orthogonal`] of one
/// direction, by `e·d / e·e` instead of normalising `e` first (one root and one division
/// fewer). `None` when nothing is left, or on overflow (the general path answers).
#[inline(always)]
fn orthogonal_to<T: Real, const D: usize>(
    d: &SVector<T, D>,
    e: &SVector<T, D>,
) -> Option<SVector<T, D>> {
    let n = d - e * (e.dot(d) / e.norm_squared());
    let len = norm(&n);
    (len > T::zero() && len.is_finite() && n.dot(d) > T::zero()).then(|| n / len)
}

/// Two segments `[p0, p1]` (first) and `[q0, q1]`: their closest points, certified by the
/// plane through them. Cores within the band of each other fall back to the general path:
/// in 2D crossing segments overlap (EPA's depth), in 3D their normal is not settled.
pub(crate) fn segment_segment<T: Real, const D: usize>(
    p0: &Point<T, D>,
    p1: &Point<T, D>,
    q0: &Point<T, D>,
    q1: &Point<T, D>,
    tol: &Tolerances<T>,
) -> Option<Answer<T, D>> {
    let coords = [p0, p1, q0, q1]
        .iter()
        .fold(T::zero(), |m, x| amax_from(m, &x.coords));
    let band = Rounding::of(tol).band(coords);
    let SegmentParameters { s, t: u } = segment_parameters(p0, p1, q0, q1);
    let (a, b) = (p0 + (p1 - p0) * s, q0 + (q1 - q0) * u);
    let d = b - a;
    let dist = norm(&d);
    if !(dist > band) || !dist.is_finite() {
        return None;
    }
    // Orthogonal to each segment the closest point lies inside.
    let inner = |x: T| x > T::zero() && x < T::one();
    let mut dirs = [SVector::<T, D>::zeros(); 2];
    let mut nd = 0;
    for (x, e) in [(s, p1 - p0), (u, q1 - q0)] {
        if inner(x) {
            dirs[nd] = e;
            nd += 1;
        }
    }
    let n = super::orthogonal(&d, &dirs[..nd])?;
    let lower = n.dot(&q0.coords).min(n.dot(&q1.coords)) - n.dot(&p0.coords).max(n.dot(&p1.coords));
    Answer::apart(a, b, dist, n, lower, band, coords).accepted(tol.gjk_rel)
}

/// A point of a segment ([`closest_on_segment`]).
#[derive(Clone, Copy, Debug)]
struct OnSegment<T: Real, const D: usize> {
    point: Point<T, D>,
    /// Strictly between the ends (not an end point).
    inner: bool,
}

/// The point of `[s0, s1]` nearest `c`, and whether it lies inside the segment.
fn closest_on_segment<T: Real, const D: usize>(
    s0: &Point<T, D>,
    s1: &Point<T, D>,
    c: &Point<T, D>,
) -> OnSegment<T, D> {
    let d = s1 - s0;
    let dd = d.norm_squared();
    let end = |point| OnSegment {
        point,
        inner: false,
    };
    if !(dd > T::zero()) {
        return end(*s0);
    }
    let u = (c - s0).dot(&d) / dd;
    if u > T::zero() && u < T::one() {
        OnSegment {
            point: s0 + d * u,
            inner: true,
        }
    } else {
        end(if u > T::zero() { *s1 } else { *s0 })
    }
}

/// Where the closest points of two segments lie: `p0 + s(p1 − p0)` on the first,
/// `q0 + t(q1 − q0)` on the second, `s, t ∈ [0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SegmentParameters<T> {
    pub s: T,
    pub t: T,
}

/// The parameters of the closest points of two segments (Ericson §5.1.9): the lines'
/// closest parameters, clamped to the first segment, the second's recomputed and clamped,
/// then the first's again; parallel segments take the first's start.
pub(crate) fn segment_parameters<T: Real, const D: usize>(
    p0: &Point<T, D>,
    p1: &Point<T, D>,
    q0: &Point<T, D>,
    q1: &Point<T, D>,
) -> SegmentParameters<T> {
    let (zero, one) = (T::zero(), T::one());
    let clamp = |x: T| x.max(zero).min(one);
    let (d1, d2, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let (s, t);
    if !(a > zero) && !(e > zero) {
        (s, t) = (zero, zero);
    } else if !(a > zero) {
        (s, t) = (zero, clamp(f / e));
    } else {
        let c = d1.dot(&r);
        if !(e > zero) {
            (s, t) = (clamp(-c / a), zero);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s0 = if denom > zero {
                clamp((b * f - c * e) / denom)
            } else {
                zero
            };
            let t0 = (b * s0 + f) / e;
            if t0 < zero {
                (s, t) = (clamp(-c / a), zero);
            } else if t0 > one {
                (s, t) = (clamp((b - c) / a), one);
            } else {
                (s, t) = (s0, t0);
            }
        }
    }
    SegmentParameters { s, t }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    /// [`orthogonal_to`] against [`super::super::orthogonal`] of the same one direction:
    /// the same unit normal to rounding, orthogonal to `e`; `None` when `d` is along `e`.
    #[test]
    fn orthogonal_to_one_direction() {
        let cases = [
            (
                Vector3::<f64>::new(1.0, 2.0, 3.0),
                Vector3::new(0.0, 0.0, 1.0),
            ),
            (Vector3::new(1.0, 1e-9, 0.0), Vector3::new(1.0, 0.0, 0.0)),
            (Vector3::new(-0.3, 0.7, 0.2), Vector3::new(0.5, 0.25, -2.0)),
            (
                Vector3::new(1e-12, 3e-12, -1e-12),
                Vector3::new(1e6, -2e6, 3e5),
            ),
            (Vector3::new(2.0, 0.0, 0.0), Vector3::new(1.0, 0.0, 0.0)),
        ];
        for (d, e) in cases {
            let (n, m) = (orthogonal_to(&d, &e), super::super::orthogonal(&d, &[e]));
            match (n, m) {
                (Some(n), Some(m)) => {
                    let tol = 1e-14;
                    assert!(
                        (n - m).norm() <= tol && n.dot(&e).abs() <= tol * e.norm(),
                        "d {d:?} e {e:?}: {n:?} {m:?} (tolerance {tol})"
                    );
                }
                (None, None) => {}
                _ => panic!("d {d:?} e {e:?}: {n:?} {m:?}"),
            }
        }
    }
}
