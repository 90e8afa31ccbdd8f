//! Box–box contacts by the separating-axis test (Gottschalk's OBB overlap test; Ericson,
//! *Real-Time Collision Detection* §4.4.1): `query::manifold`'s fast path when both shapes
//! are cuboids. docs/clipping.md §5.
//!
//! For a unit axis `n` (A's frame, B's centre at `t`, B's axes the columns `R_k`) the
//! signed separation is `s(n) = |n·t| − Σ a_k |n_k| − Σ b_k |n·R_k|`. Every `s(n)` is at
//! most the signed distance; for overlapping boxes the largest over A's and B's face
//! normals and (3D) the edge crosses `e_i × R_j` is the signed distance, and its axis the
//! contact normal. For separated boxes it is only a lower bound: the clipping then has to
//! find a pair at that separation, or the general path decides.

use super::{
    Built, ContactPoint, FeatureId, LocalContact, Manifold, PackedFeatureId, Vertex,
    feature::{BoxEdge, box_edge},
    planes::{Incident, segment_planes},
};
use crate::{Real, linalg::Witnesses, pose::Frame};
use nalgebra::{Point, SMatrix, SVector, Unit};

/// The largest-separation axis of two boxes, oriented from A towards B.
pub(crate) struct BoxAxis<T: Real, const D: usize> {
    /// `s(n)`: the signed distance if the boxes overlap, else a lower bound of it.
    pub separation: T,
    pub normal: Unit<SVector<T, D>>,
    /// For an edge–edge axis, the closest points of the two edges (on A, on B) when both
    /// lie inside their edges: a pair on the two surfaces at `separation`.
    pub witness: Option<Witnesses<T, D>>,
    /// Whether the axis is an edge cross (else a face normal).
    pub edge: bool,
}

/// An axis of [`sat`] and the boxes' separation `s(n)` along it.
#[derive(Clone, Copy, Debug)]
struct Candidate<T: Real, const D: usize> {
    separation: T,
    n: SVector<T, D>,
}

/// The separating-axis test of the boxes `[−a, a]` and `t + R·[−b, b]`. Face axes win
/// ties with edge axes within `slack` (they give the face contacts exactly). Algorithm:
/// 1. A's face normals `e_i`: `s = |t_i| − a_i − Σ b_k |R_ik|`; the largest is kept, an
///    equal one later does not replace it.
/// 2. B's face normals `R_j`: the same with `Rᵀt`; the faces' best is noted.
/// 3. 3D: the edge crosses `e_i × R_j`, normalised, skipped when the edges are parallel to
///    rounding (`PARALLEL_EDGES_CLIP`); one replaces the best only by more than `slack`.
/// 4. The best axis oriented from A towards B (`n·t ≥ 0`); an edge axis unless its
///    separation is the faces' best. An edge axis gets the edges' closest points as its
///    witness when they lie inside both edges ([`edge_witness`]).
pub(crate) fn sat<T: Real, const D: usize>(
    a: &SVector<T, D>,
    b: &SVector<T, D>,
    rot: &SMatrix<T, D, D>,
    t: &SVector<T, D>,
    slack: T,
) -> Option<BoxAxis<T, D>> {
    let abs = rot.abs();
    let tb = rot.tr_mul(t);
    let mut best: Option<Candidate<T, D>> = None;
    /// `n` at separation `s` replaces `best` if it separates more by over `margin`.
    fn better<T: Real, const D: usize>(
        best: &mut Option<Candidate<T, D>>,
        s: T,
        n: SVector<T, D>,
        margin: T,
    ) {
        if best.is_none_or(|b| s > b.separation + margin) {
            *best = Some(Candidate { separation: s, n });
        }
    }
    // A's faces: n = ±e_i.
    for i in 0..D {
        let reach = (0..D).fold(a[i], |r, k| r + b[k] * abs[(i, k)]);
        let mut n = SVector::zeros();
        n[i] = T::one();
        better(&mut best, t[i].abs() - reach, n, T::zero());
    }
    // B's faces: n = ±R_j.
    for j in 0..D {
        let reach = (0..D).fold(b[j], |r, k| r + a[k] * abs[(k, j)]);
        better(
            &mut best,
            tb[j].abs() - reach,
            rot.column(j).into_owned(),
            T::zero(),
        );
    }
    let faces = best;
    if D == 3 {
        // Edge crosses n = e_i × R_j, skipped when the edges are parallel to rounding.
        let parallel =
            crate::tolerance::ulps::<T>(crate::tolerance::allowance::PARALLEL_EDGES_CLIP);
        for i in 0..3 {
            for j in 0..3 {
                let r = rot.column(j);
                let mut n = SVector::<T, D>::zeros();
                n[(i + 1) % 3] = -r[(i + 2) % 3];
                n[(i + 2) % 3] = r[(i + 1) % 3];
                let len2 = n.norm_squared();
                if len2 <= parallel * parallel {
                    continue;
                }
                let n = n / crate::real::sqrt0(len2);
                let reach = (0..3).fold(T::zero(), |s, k| {
                    s + a[k] * n[k].abs() + b[k] * n.dot(&rot.column(k)).abs()
                });
                better(&mut best, n.dot(t).abs() - reach, n, slack);
            }
        }
    }
    let Candidate { separation, mut n } = best?;
    if n.dot(t) < T::zero() {
        n = -n;
    }
    let edge = faces.is_none_or(|f| separation != f.separation);
    let normal = Unit::new_unchecked(n);
    let witness = if edge {
        edge_witness(a, b, rot, t, &n)
    } else {
        None
    };
    Some(BoxAxis {
        separation,
        normal,
        witness,
        edge,
    })
}

/// The closest points of A's edge supporting `n` and B's edge supporting `−n` (3D), if they
/// lie inside both edges.
fn edge_witness<T: Real, const D: usize>(
    a: &SVector<T, D>,
    b: &SVector<T, D>,
    rot: &SMatrix<T, D, D>,
    t: &SVector<T, D>,
    n: &SVector<T, D>,
) -> Option<Witnesses<T, D>> {
    let sign = |x: T| if x >= T::zero() { T::one() } else { -T::one() };
    // The free axis of each edge: the one its direction runs along (|n·axis| smallest).
    let i = n.iamin();
    let nb = rot.tr_mul(n);
    let j = nb.iamin();
    let pa = SVector::<T, D>::from_fn(|k, _| if k == i { T::zero() } else { sign(n[k]) * a[k] });
    let mut qb = *t;
    for k in 0..D {
        if k != j {
            qb -= rot.column(k) * (sign(nb[k]) * b[k]);
        }
    }
    let mut ea = SVector::<T, D>::zeros();
    ea[i] = T::one();
    let eb = rot.column(j).into_owned();
    // Closest points of the lines pa + s·ea and qb + u·eb (both unit directions).
    let w = pa - qb;
    let c = ea.dot(&eb);
    let den = T::one() - c * c;
    if !(den > T::default_epsilon()) {
        return None;
    }
    let (d, e) = (ea.dot(&w), eb.dot(&w));
    let s = (c * e - d) / den;
    let u = (e - c * d) / den;
    if s.abs() > a[i] || u.abs() > b[j] {
        return None;
    }
    Some(Witnesses {
        a: Point::from(pa + ea * s),
        b: Point::from(qb + eb * u),
    })
}

/// The 2D box–box manifold of [`super::build`] on the stack (docs/clipping.md §5): the same
/// steps and arithmetic for two edges, without the feature and clip buffers. Whatever the
/// general clipper does beyond them is left to it ([`Built::FallBack`]): no face to
/// clip against, a clipped point on a vertex (three points on the segment), a deepest pair
/// shallower than the contact allows (the support point and the witnesses).
/// `tests::two_d_boxes_match_the_general_clipper` checks that both agree bit for bit.
/// Written for any `D`, called only for `D = 2`. Algorithm (the numbered comments below):
/// 1. The edges most aligned with `n` (A) and `−n` (B, mapped into A's frame); the
///    reference as [`super::reference`] chooses it; neither a face: `FallBack`.
/// 2. The incident edge clipped against the reference's side planes (`segment_planes`);
///    three points on it (a clipped point on a vertex): `FallBack`.
/// 3. Each point paired along `u` with the reference edge's line; pairs within the
///    prediction (plus the rounding) kept, points within the rounding of a kept one once.
/// 4. None kept, or the deepest shallower than the contact allows: `FallBack`; else the
///    pairs pushed in A/B order, with their feature ids.
pub(crate) fn manifold2<T: Real, const D: usize>(
    ha: &SVector<T, D>,
    hb: &SVector<T, D>,
    rel: &Frame<T, D>,
    c: &LocalContact<T, D>,
    prediction: T,
    m: &mut Manifold<T, D>,
) -> Built {
    debug_assert!(D == 2);
    let n = c.normal.into_inner();
    // 1. The edges most aligned with n (A) and −n (B, mapped into A's frame); the
    // reference as `super::reference` chooses it (no radii: the edges are the surfaces).
    let ea = box_edge(ha, &n);
    let eb = box_edge(hb, &rel.inverse_transform_vector(&-n));
    let eb = BoxEdge {
        normal: Unit::new_unchecked(rel.transform_vector(&eb.normal)),
        ends: eb
            .ends
            .map(|v| Vertex::new(rel.transform_point(&v.point), v.id)),
        ..eb
    };
    let face = |e: &BoxEdge<T, D>, align: T| {
        align >= c.min_alignment && (e.ends[1].point - e.ends[0].point).amax() > T::zero()
    };
    let (align_a, align_b) = (ea.normal.dot(&n), -eb.normal.dot(&n));
    let (face_a, face_b) = (face(&ea, align_a), face(&eb, align_b));
    let a_ref = if face_a && !(face_b && align_b > align_a + c.reference_bias) {
        true
    } else if face_b {
        false
    } else {
        return Built::FallBack;
    };
    let (r, inc, u) = if a_ref { (&ea, &eb, n) } else { (&eb, &ea, -n) };
    // 2. The incident edge, an open segment, clipped against the reference's side planes.
    let mut pts = inc.ends.map(|v| Incident {
        point: v.point,
        id: PackedFeatureId::feature(v.id),
    });
    let mut len = 2;
    for plane in segment_planes(&r.ends[0].point, &r.ends[1].point, &u) {
        let (p, q) = (pts[0], pts[1]);
        if len == 1 {
            if plane.beyond(&p.point) > T::zero() {
                len = 0;
            }
            continue;
        }
        let (dp, dq) = (plane.beyond(&p.point), plane.beyond(&q.point));
        let mut out = [p; 2];
        let mut k = 0;
        let mut put = |x: Incident<T, D>| {
            if k < 2 {
                out[k] = x;
            }
            k += 1;
        };
        if dp <= T::zero() {
            put(p);
        }
        if (dp < T::zero()) != (dq < T::zero()) && dp != dq {
            let t = dp / (dp - dq);
            put(Incident {
                point: p.point + (q.point - p.point) * t,
                id: PackedFeatureId::crossing(p.id, q.id, plane.side),
            });
        }
        if dq <= T::zero() {
            put(q);
        }
        if k > 2 {
            return Built::FallBack;
        }
        (pts, len) = (out, k);
        if len == 0 {
            break;
        }
    }
    // 3. Each point's pair along u onto the reference edge's line; within the prediction,
    // coincident points once.
    let nr = r.normal.into_inner();
    let pair = |x: &Point<T, D>| nr.dot(&(x - r.ends[0].point)) / nr.dot(&u);
    let limit = prediction + c.rounding;
    let mut kept = [(T::zero(), pts[0]); 2];
    let mut n_kept = 0;
    for x in &pts[..len] {
        let s = pair(&x.point);
        let near = |k: &(T, Incident<T, D>)| (k.1.point - x.point).amax() <= c.rounding;
        if s <= limit && !(n_kept > 0 && (near(&kept[n_kept - 1]) || near(&kept[0]))) {
            kept[n_kept] = (s, *x);
            n_kept += 1;
        }
    }
    // 4. The deepest pair must be as deep as the contact allows; if not, the general
    // clipper looks for it.
    let deepest = kept[..n_kept].iter().map(|k| k.0).reduce(|a, b| a.min(b));
    if deepest.is_none_or(|d| d > c.separation + c.slack) {
        return Built::FallBack;
    }
    m.reset(c.normal);
    let on_ref = PackedFeatureId::feature(r.id);
    for &(s, x) in &kept[..n_kept] {
        let t = pair(&x.point);
        let (on_r, on_i) = (x.point - u * t, x.point);
        let (point_a, point_b, id) = if a_ref {
            (on_r, on_i, FeatureId { a: on_ref, b: x.id })
        } else {
            (on_i, on_r, FeatureId { a: x.id, b: on_ref })
        };
        m.push(ContactPoint {
            separation: s,
            point_a,
            point_b,
            id,
        });
    }
    Built::Manifold
}
