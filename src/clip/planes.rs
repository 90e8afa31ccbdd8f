//! The reference face's side planes and Sutherland–Hodgman clipping against them
//! (docs/clipping.md §2, steps 4–5).

use super::{PackedFeatureId, Vertex};
use crate::{Real, linalg::pow2_scale, real::normalize};
use alloc::vec::Vec;
use nalgebra::{Point, SVector, Vector2, Vector3};

/// A side plane: inside is `normal·x ≤ offset`; `side` is its index among the face's
/// planes (the clip ids carry it).
#[derive(Clone, Copy, Debug)]
pub struct Plane<T: Real, const D: usize> {
    pub normal: SVector<T, D>,
    pub offset: T,
    pub side: u32,
}

impl<T: Real, const D: usize> Plane<T, D> {
    /// The plane through `p` with normal `normal`.
    fn through(normal: SVector<T, D>, p: &SVector<T, D>, side: u32) -> Self {
        Self {
            normal,
            offset: normal.dot(p),
            side,
        }
    }

    /// `normal·x − offset`: positive outside.
    #[inline]
    pub(crate) fn beyond(&self, x: &Point<T, D>) -> T {
        self.normal.dot(&x.coords) - self.offset
    }
}

/// A point of the incident polygon while it is clipped, with the id of what made it.
#[derive(Clone, Copy, Debug)]
pub struct Incident<T: Real, const D: usize> {
    pub point: Point<T, D>,
    pub id: PackedFeatureId,
}

/// An edge vector scaled by a power of two into `[1/2, 2)` where its products would lose
/// digits ([`pow2_scale`]; fixed-point below 1/2): a side plane's normal is a product of
/// its edge, and an ulp of fixed-point is absolute. Unscaled (FixedI40F24, edges 64 ulps
/// long), the short edge of a needle face 3.8e-6 wide let a clipped point through 5.0e-4
/// deeper than the contact, and a short 2D reference edge one 3.6e-3 off its shape
/// (`clip_against_a_needle_face_stays_within_its_tip`,
/// `clip_against_a_short_reference_edge_stays_on_it`). Exact; floats in range unchanged.
fn scaled<T: Real, const D: usize>(e: SVector<T, D>) -> SVector<T, D> {
    e * pow2_scale(crate::real::amax(&e))
}

/// The side planes of a segment `p → q` (a 2D reference edge, a 3D reference segment):
/// through its ends across `u`, with normal the segment's direction minus its `u`
/// component; side 0 at `p`, 1 at `q`.
pub(crate) fn segment<T: Real, const D: usize>(
    p: &Point<T, D>,
    q: &Point<T, D>,
    u: &SVector<T, D>,
    out: &mut Vec<Plane<T, D>>,
) {
    out.clear();
    out.extend(segment_planes(p, q, u));
}

/// [`segment`]'s two planes.
#[inline]
pub(crate) fn segment_planes<T: Real, const D: usize>(
    p: &Point<T, D>,
    q: &Point<T, D>,
    u: &SVector<T, D>,
) -> [Plane<T, D>; 2] {
    let e = scaled(q - p);
    let s = e - u * e.dot(u);
    [
        Plane {
            normal: -s,
            offset: -s.dot(&p.coords),
            side: 0,
        },
        Plane::through(s, &q.coords, 1),
    ]
}

/// The 2D reference edge's side planes: its two ends, facing out along the edge.
pub(crate) fn edge2<T: Real>(
    face: &[Vertex<T, 2>],
    normal: &Vector2<T>,
    out: &mut Vec<Plane<T, 2>>,
) {
    segment(&face[0].point, &face[face.len() - 1].point, normal, out);
}

/// One plane per polygon edge `rᵢ → rᵢ₊₁`: normal `(rᵢ₊₁ − rᵢ) × n`, pointing out of a
/// counter-clockwise polygon; then, at each corner sharper than 60°, the supporting
/// plane through it across the corner's bisector (side `m + i` for corner `i` of `m`;
/// `normal` is a unit vector).
/// Two edge planes meeting at an angle θ cut a point beyond the corner by only its
/// distance times `sin θ/2`: at a needle's tip their rounding let points through far
/// beyond it (fuzz sweep, 3D f64: a sliver hull face 1.7e-12 wide, a clipped point
/// 7.1e-7 past its tip, off A). The bisector plane holds every point of the convex
/// polygon (the sum of the two edges' inequalities), so exact clipping is unchanged.
pub(crate) fn polygon3<T: Real>(
    face: &[Vertex<T, 3>],
    normal: &Vector3<T>,
    out: &mut Vec<Plane<T, 3>>,
) {
    out.clear();
    let m = face.len();
    let at = |i: usize| face[i % m].point.coords;
    for i in 0..m {
        let (p, q) = (at(i), at(i + 1));
        out.push(Plane::through(scaled(q - p).cross(normal), &p, i as u32));
    }
    if m < 3 {
        return;
    }
    let half = crate::real::lit::<T>(0.5);
    // The edge planes' unit normals, each normalised once for its two corners.
    let unit = |out: &[Plane<T, 3>], i: usize| normalize(&out[i % m].normal);
    let (mut s_in, first) = (unit(out, m - 1), unit(out, 0));
    let mut s_out = first;
    for i in 0..m {
        // Corner i joins edge i − 1 (coming in) and edge i (going out). The bisector
        // is taken as `d_in − d_out` (unit edge directions, across `normal`), not as
        // the sum of the two planes' unit normals: at a needle's tip those nearly
        // cancel and their sum's direction is rounding (2e-4 off for a tip of 6e-13).
        let (prev, v, next) = (at(i + m - 1), at(i), at(i + 1));
        if let (Some(a), Some(b)) = (s_in, s_out)
            && a.dot(&b) < -half
            && let (Some(d_in), Some(d_out)) = (normalize(&(v - prev)), normalize(&(next - v)))
        {
            let d = d_in.into_inner() - d_out.into_inner();
            if let Some(c) = normalize(&(d - normal * normal.dot(&d))) {
                out.push(Plane::through(c.into_inner(), &v, (m + i) as u32));
            }
        }
        s_in = s_out;
        s_out = if i + 1 < m { unit(out, i + 1) } else { first };
    }
}

/// Sutherland–Hodgman: clips `poly` (closed when it has ≥ 3 vertices, else an open
/// segment or a point) against `planes`, into `poly`. A vertex made on side plane `k`
/// from the edge starting at `p` gets [`PackedFeatureId::crossing`]'s id: clipped on `k`,
/// or a corner where the edge runs along another side plane.
#[inline]
pub(crate) fn clip<T: Real, const D: usize>(
    poly: &mut Vec<Incident<T, D>>,
    next: &mut Vec<Incident<T, D>>,
    planes: &[Plane<T, D>],
) {
    for plane in planes {
        if poly.is_empty() {
            return;
        }
        // Every vertex strictly inside: the pass would copy the polygon unchanged (a
        // vertex exactly on the plane makes a crossing at `t = 0`, so only `< 0` skips).
        if poly.iter().all(|x| plane.beyond(&x.point) < T::zero()) {
            continue;
        }
        pass(poly, next, plane);
        core::mem::swap(poly, next);
    }
}

/// One Sutherland–Hodgman pass: `poly` clipped against `plane`, into `next`.
#[inline]
fn pass<T: Real, const D: usize>(
    poly: &[Incident<T, D>],
    next: &mut Vec<Incident<T, D>>,
    plane: &Plane<T, D>,
) {
    next.clear();
    let n = poly.len();
    let closed = n >= 3;
    let edges = if closed { n } else { n - 1 };
    if n == 1 && plane.normal.dot(&poly[0].point.coords) <= plane.offset {
        next.push(poly[0]);
    }
    for i in 0..edges {
        let (p, q) = (poly[i], poly[if i + 1 == n { 0 } else { i + 1 }]);
        let (dp, dq) = (plane.beyond(&p.point), plane.beyond(&q.point));
        if dp <= T::zero() && (closed || i == 0) {
            next.push(p);
        }
        if (dp < T::zero()) != (dq < T::zero()) && dp != dq {
            // The crossing point p + t (q − p), t = dp / (dp − dq) ∈ [0, 1].
            let t = dp / (dp - dq);
            next.push(Incident {
                point: p.point + (q.point - p.point) * t,
                id: PackedFeatureId::crossing(p.id, q.id, plane.side),
            });
        }
        if !closed && i + 1 == edges && dq <= T::zero() {
            next.push(q);
        }
    }
}

/// Whether `x` is inside every side plane, up to `rounding` (a length).
pub(crate) fn inside<T: Real, const D: usize>(
    planes: &[Plane<T, D>],
    x: &Point<T, D>,
    rounding: T,
) -> bool {
    planes
        .iter()
        .all(|s| s.beyond(x) <= rounding * crate::real::norm(&s.normal))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::lit;

    /// Integer coordinates (exact in every scalar) of a hexagon, counter-clockwise.
    const HEXAGON: [[f64; 2]; 6] = [
        [-2.0, -1.0],
        [0.0, -2.0],
        [2.0, -1.0],
        [2.0, 1.0],
        [0.0, 2.0],
        [-2.0, 1.0],
    ];

    /// `clip`'s skip of a plane every vertex is strictly inside of changes nothing: against
    /// the passes run one by one, the same points with the same ids, for points, segments
    /// and polygons (the hexagon's first 1–6 vertices), 2D and 3D, and sequences of planes
    /// that hold every vertex strictly, touch one or two vertices exactly (there the pass
    /// adds crossings at `t = 0` and `t = 1`, so a skip at `≤ 0` would lose them), cut the
    /// polygon, or hold none of it.
    fn skip_only_where_every_vertex_is_strictly_inside<T: Real>() {
        fn check<T: Real, const D: usize>() {
            let at = |c: &[f64; 2]| {
                let mut x = SVector::<T, D>::zeros();
                (x[0], x[1]) = (lit(c[0]), lit(c[1]));
                if D == 3 {
                    x[2] = lit(1.0);
                }
                Point::from(x)
            };
            let normals: [[f64; 2]; 4] = [[1.0, 0.0], [0.0, -1.0], [1.0, 1.0], [-1.0, 2.0]];
            let mut planes = Vec::new();
            for (k, c) in normals.iter().enumerate() {
                let normal = at(c).coords;
                let reach = HEXAGON.iter().map(|v| normal.dot(&at(v).coords));
                let (lo, hi) = (
                    reach.clone().fold(T::max_value().unwrap(), |m, x| m.min(x)),
                    reach.fold(T::min_value().unwrap(), |m, x| m.max(x)),
                );
                for offset in [hi + T::one(), hi, hi - T::one(), lo - T::one()] {
                    planes.push(Plane {
                        normal,
                        offset,
                        side: k as u32,
                    });
                }
            }
            let (mut skipped, mut kept) = (0, 0);
            for len in 1..=HEXAGON.len() {
                let start: Vec<Incident<T, D>> = (0..len)
                    .map(|i| Incident {
                        point: at(&HEXAGON[i]),
                        id: PackedFeatureId::feature(i as u32),
                    })
                    .collect();
                for (i, first) in planes.iter().enumerate() {
                    for second in &planes[i..] {
                        let sequence = [*first, *second];
                        let (mut poly, mut next) = (start.clone(), Vec::new());
                        clip(&mut poly, &mut next, &sequence);
                        let mut expected = start.clone();
                        for plane in &sequence {
                            if expected.is_empty() {
                                break;
                            }
                            if expected.iter().all(|x| plane.beyond(&x.point) < T::zero()) {
                                skipped += 1;
                            } else {
                                kept += 1;
                            }
                            let mut out = Vec::new();
                            pass(&expected, &mut out, plane);
                            expected = out;
                        }
                        let got: Vec<_> = poly.iter().map(|x| (x.point, x.id)).collect();
                        let want: Vec<_> = expected.iter().map(|x| (x.point, x.id)).collect();
                        assert_eq!(
                            got, want,
                            "{len} vertices, planes {first:?} then {second:?}"
                        );
                    }
                }
            }
            assert!(
                skipped > 100 && kept > 100,
                "{skipped} skipped, {kept} passes"
            );
        }
        check::<T, 2>();
        check::<T, 3>();
    }

    crate::real::scalar_cases!(skip_only_where_every_vertex_is_strictly_inside);
}
