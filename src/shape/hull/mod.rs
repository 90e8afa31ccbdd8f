//! Convex hulls of point clouds in 2D (monotone chain) and 3D (quickhull with conflict
//! lists and coplanar-triangle merging), computed once when a
//! [`Polytope`](super::Polytope) is built; docs/hull.md has the details and measurements.
//!
//! The computation is combinatorial and runs in `f64` ([`Cloud`]: coordinates about the
//! bounding-box centre, scaled by a power of two to unit size): `f32` values and
//! fixed-point values of unit scale are exact in `f64`, and degree-3 orientation tests
//! would overflow or lose all their digits in fixed-point (docs/tolerances.md). The
//! tolerances come from the caller ([`Tol`]): the 3D construction works at the `f64`
//! rounding ([`Tol::round`]), flatness, merging and the 2D chain at the input's
//! resolution ([`Tol::plane`]).
//!
//! Output: the merged faces (convex, CCW seen from outside, outward unit normals), the
//! corner vertices, and a vertex graph (CSR) for hill-climbing support queries. The graph
//! holds every point that may win a support query: the hull's triangulation vertices
//! ("corners"), plus points within [`Tol::margin`] of the surface (coplanar or collinear
//! points, points the tolerance left out), each linked to the corners of its nearest
//! triangle.
//!
//! Anything unexpected (a horizon that is not one loop, a broken link, a point left far
//! outside, a folded triangle, a wrong Euler characteristic) returns
//! [`Degenerate::Failed`]; [`Cloud::hull`] then builds again at coarser tolerances, and a
//! hull that fails every time is an error of `Polytope::try_new` (never a silent
//! fallback to brute force). No missing link is ever used as an index.
//!
//! Cost: `O(n log n)` expected. Each point outside the hull belongs to one triangle; the
//! points of removed triangles are re-partitioned among the triangles that replace them,
//! and the final checks are local. CPU time of `Polytope::try_new` in ms (hull, graph and
//! the face normals' hull; docs/hull.md §6 for how it was measured), before (801d779) and
//! now (b32c787); "–" = no faces (the silent fallback that was):
//!
//! | cloud (f64 / f32 / I40F24) | 1 000 | 10 000 | 100 000 |
//! |---|---|---|---|
//! | sphere, before | 13 / 13 / 12 | 164 / 112 / 164 | 3 140 / – / 2 580 |
//! | sphere, now | 8.7 / 13 / 13 | 167 / 148 / 111 | 1 480 / 1 880 / 1 600 |
//! | cylinder, before | 13 / – / 14 | 383 / – / – | 43 000 / – / – |
//! | cylinder, now | 7.1 / 6.2 / 7.3 | 78 / 70 / 75 | 887 / 692 / 683 |
//! | cube surface, before | 1.8 / 3.2 / 1.8 | 20 / 22 / 29 | 402 / 316 / 335 |
//! | cube surface, now | 3.1 / 3.0 / 3.4 | 29 / 29 / 29 | 293 / 249 / 255 |
//!
//! Layout: this file holds the shared types (tolerances, the mesh, the failure reasons,
//! the cloud and its retries), the `f64` vector helpers and the graph's CSR assembly;
//! `hull2.rs` the monotone chain; `hull3.rs` the quickhull; `mesh3.rs` the triangle type,
//! the checks, the graph's near points and the coplanar merging.

mod hull2;
mod hull3;
mod mesh3;

use crate::tolerance::hull::{RETRIES, SLIVER};
use alloc::vec::Vec;
use hull2::hull2;
use hull3::hull3;
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// "No face" / "no vertex" in the index arrays.
const NONE: u32 = u32::MAX;

/// Tolerances of the hull computation, in the cloud's length unit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tol {
    /// A point more than `plane` in front of a facet's plane is outside it; facets whose
    /// vertices all lie within `plane` of a seed facet's plane merge with it; a polygon
    /// vertex within `plane` of the line through its neighbours is dropped.
    pub plane: f64,
    /// Points deeper than `margin` inside the hull cannot win a support query (the support
    /// rounding and the hull's tolerance are both below it); shallower ones join the graph.
    pub margin: f64,
    /// The support-value band per unit `|d|∞` within which the climb explores a plateau
    /// (not used here; carried to the polytope with the other tolerances).
    pub band: f64,
    /// The rounding of the `f64` plane tests (below `plane` when the input is coarser
    /// than `f64`): an apex removes every facet it is more than `round` in front of, so
    /// that the facets it replaces are those it sees, not only those it sees by more than
    /// the input's resolution (3D).
    pub round: f64,
}

impl Tol {
    /// Every tolerance times `f`.
    fn scaled(&self, f: f64) -> Self {
        Self {
            plane: self.plane * f,
            margin: self.margin * f,
            band: self.band * f,
            round: self.round * f,
        }
    }
}

/// Why no hull was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Degenerate {
    /// All points within the tolerance of one point.
    Point,
    /// All points within the tolerance of one line.
    Collinear,
    /// (3D) all points within the tolerance of one plane.
    Coplanar,
    /// A consistency check failed (rounding defeated the tolerances).
    Failed,
}

/// A hull built by [`Cloud::hull`] and the tolerances that built it (input units).
#[derive(Clone, Debug)]
pub(crate) struct Hull {
    /// Faces, corners and the support graph.
    pub mesh: HullMesh,
    /// The tolerances of the retry that succeeded, in the input's units.
    pub tol: Tol,
}

/// A hull face in the input's index space.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct HullFace {
    /// The vertex indices CCW seen from outside (2D: the edge `[from, to]` of the CCW
    /// polygon).
    pub ring: Vec<usize>,
    /// The outward unit normal (2D: `z = 0`).
    pub normal: [f64; 3],
}

/// A hull: faces, corners and the support graph, in the input's index space.
#[derive(Clone, Debug, Default)]
pub(crate) struct HullMesh {
    /// Corner vertices (indices into the input), ascending.
    pub vertices: Vec<usize>,
    /// Faces, in the order the builders made them.
    pub faces: Vec<HullFace>,
    /// Number of hull triangles before merging (3D), of edges (2D).
    #[cfg_attr(not(test), allow(dead_code))]
    pub facets: usize,
    /// Graph nodes: input indices, ascending.
    pub nodes: Vec<u32>,
    /// Per node: a vertex of the hull's triangulation (else a point near the surface,
    /// linked to the vertices of its nearest triangle).
    pub corner: Vec<bool>,
    /// CSR: the neighbours of node `i` are `nbrs[offsets[i]..offsets[i + 1]]` (node ids).
    pub offsets: Vec<u32>,
    /// CSR neighbour lists (node ids).
    pub nbrs: Vec<u32>,
}

/// A point cloud in `f64` (`z = 0` in 2D), moved to its bounding-box centre and scaled
/// by a power of two to unit size (both exact up to one rounding of the shift), so that
/// the hull's degree-2 and degree-3 products neither overflow nor underflow for any
/// finite input.
#[derive(Clone, Debug)]
pub(crate) struct Cloud {
    /// The moved and scaled points.
    pub pts: Vec<V3>,
    /// Input units per cloud unit (a power of two).
    pub unit: f64,
    /// The bounding box's largest side (cloud units).
    pub size: f64,
    /// The largest absolute input coordinate (cloud units).
    pub abs: f64,
}

impl Cloud {
    /// The cloud of `pts` (finite, not empty) in dimension `d` (2 or 3).
    pub(crate) fn new(mut pts: Vec<V3>, d: usize) -> Self {
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        for q in &pts {
            for k in 0..d {
                lo[k] = lo[k].min(q[k]);
                hi[k] = hi[k].max(q[k]);
            }
        }
        // Halves first: `lo + hi` overflows near f64::MAX.
        let mid: V3 = core::array::from_fn(|k| {
            if k < d {
                lo[k] / 2.0 + hi[k] / 2.0
            } else {
                0.0
            }
        });
        let abs = (0..d)
            .map(|k| lo[k].abs().max(hi[k].abs()))
            .fold(0.0, f64::max);
        for q in &mut pts {
            for k in 0..d {
                q[k] -= mid[k];
            }
        }
        let half = pts
            .iter()
            .flat_map(|q| q.iter())
            .fold(0.0f64, |m, x| m.max(x.abs()));
        let unit = pow2_above(half.max(abs * f64::EPSILON));
        let s = 1.0 / unit;
        for q in &mut pts {
            *q = scaled(*q, s);
        }
        let size = (0..d).map(|k| hi[k] * s - lo[k] * s).fold(0.0, f64::max);
        Self {
            pts,
            unit,
            size,
            abs: abs * s,
        }
    }

    /// The hull in dimension `d` with the tolerances `tol` (cloud units), retried with
    /// coarser ones while its checks fail ([`RETRIES`]); the tolerances that built it are
    /// returned in input units. A cloud that reads as flat at a retry's tolerance is flat
    /// (a plate a few tolerances thick whose rim facets, as high as the plate is thick,
    /// are below what `f64` plane tests resolve across its width: 1 in 6000 of the nearly
    /// flat clouds of `tests/polytope/flat.rs`); its support stays exact.
    pub(crate) fn hull(&self, d: usize, tol: &Tol) -> Result<Hull, Degenerate> {
        for &f in &RETRIES {
            let t = tol.scaled(f);
            let got = if d == 2 {
                hull2(&self.pts, &t)
            } else {
                hull3(&self.pts, &t)
            };
            match got {
                Ok(mesh) => {
                    return Ok(Hull {
                        mesh,
                        tol: t.scaled(self.unit),
                    });
                }
                Err(Degenerate::Failed) => {}
                Err(flat) => return Err(flat),
            }
        }
        Err(Degenerate::Failed)
    }
}

/// The smallest power of two `≥ x` (1 for `x = 0`), exact, within `[2^-1020, 2^1022]`
/// (beyond, the bound: doubling past `f64::MAX` gave ∞, and halving ∞ never ended).
fn pow2_above(x: f64) -> f64 {
    if !(x > 0.0) {
        return 1.0;
    }
    let mut u = 1.0f64;
    while u < x && u <= f64::MAX / 4.0 {
        u *= 2.0;
    }
    while u / 2.0 >= x && u >= 4.0 * f64::MIN_POSITIVE {
        u /= 2.0;
    }
    u
}

type V3 = [f64; 3];

#[inline]
fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
#[inline]
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
#[inline]
fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
#[inline]
fn len(a: V3) -> f64 {
    dot(a, a).sqrt()
}
#[inline]
fn scaled(a: V3, s: f64) -> V3 {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// `(b − a) × (c − a)`, twice the triangle's area vector, computed from the corner
/// opposite the longest edge (a cyclic rotation: same vector in exact arithmetic), whose
/// two edges are the shortest: the rounding is a few ulps of their product. For a sliver
/// (the vector shorter than `SLIVER` times that product) those ulps still turn the
/// normal by `ε |e| / h` (9e-8 rad for a triple 1e-11 off a unit segment, whose corners
/// then lay 4.5e-8 off their own face's plane), so it is computed again in double-double
/// arithmetic from the exact edge vectors ([`cross_exact`]).
fn area_vector(a: V3, b: V3, c: V3) -> V3 {
    let (ab, bc, ca) = (sub(b, a), sub(c, b), sub(a, c));
    let (lab, lbc, lca) = (dot(ab, ab), dot(bc, bc), dot(ca, ca));
    let (o, u, w, l1, l2) = if lab >= lbc && lab >= lca {
        (c, a, b, lca, lbc) // longest edge ab: from c
    } else if lbc >= lca {
        (a, b, c, lab, lca) // longest bc: from a
    } else {
        (b, c, a, lbc, lab) // longest ca: from b
    };
    let n = cross(sub(u, o), sub(w, o));
    if dot(n, n) < SLIVER * SLIVER * l1 * l2 {
        cross_exact(o, u, w)
    } else {
        n
    }
}

/// `(u − o) × (w − o)` rounded once: the differences as exact pairs (Knuth's two-sum),
/// the products and differences of the components in double-double (with fused
/// multiply-adds), accurate to an ulp of each component however much cancels.
fn cross_exact(o: V3, u: V3, w: V3) -> V3 {
    type Dd = (f64, f64);
    fn two_sum(a: f64, b: f64) -> Dd {
        let s = a + b;
        let bb = s - a;
        (s, (a - (s - bb)) + (b - bb))
    }
    fn add(x: Dd, y: Dd) -> Dd {
        let (s, e) = two_sum(x.0, y.0);
        let (s, e2) = two_sum(s, e + x.1 + y.1);
        (s, e2)
    }
    fn mul(x: Dd, y: Dd) -> Dd {
        let p = x.0 * y.0;
        let e = x.0.mul_add(y.0, -p) + (x.0 * y.1 + x.1 * y.0);
        two_sum(p, e)
    }
    let d1: [Dd; 3] = core::array::from_fn(|k| two_sum(u[k], -o[k]));
    let d2: [Dd; 3] = core::array::from_fn(|k| two_sum(w[k], -o[k]));
    let comp = |i: usize, j: usize| {
        let (p, q) = (mul(d1[i], d2[j]), mul(d1[j], d2[i]));
        let r = add(p, (-q.0, -q.1));
        r.0 + r.1
    };
    [comp(1, 2), comp(2, 0), comp(0, 1)]
}

/// Distance from `b` to the line through `a` and `c` (`|ab|` if `a = c`).
fn line_distance(a: V3, b: V3, c: V3) -> f64 {
    let (ab, ac) = (sub(b, a), sub(c, a));
    let l = len(ac);
    if l > 0.0 {
        len(cross(ab, ac)) / l
    } else {
        len(ab)
    }
}

/// Squared distance from `x` to the segment `[a, b]`.
fn segment_distance2(a: V3, b: V3, x: V3) -> f64 {
    let (ab, ax) = (sub(b, a), sub(x, a));
    let l = dot(ab, ab);
    let s = if l > 0.0 {
        (dot(ax, ab) / l).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let r = sub(ax, scaled(ab, s));
    dot(r, r)
}

/// Squared distance from `x` to the triangle `abc` (Ericson, Real-Time Collision
/// Detection §5.1.5): the face when the projection's barycentric coordinates are
/// positive, else the nearest edge.
fn triangle_distance2(a: V3, b: V3, c: V3, x: V3) -> f64 {
    let (ab, ac, ax) = (sub(b, a), sub(c, a), sub(x, a));
    let (d1, d2) = (dot(ab, ax), dot(ac, ax));
    let (bx, cx) = (sub(x, b), sub(x, c));
    let (d3, d4, d5, d6) = (dot(ab, bx), dot(ac, bx), dot(ab, cx), dot(ac, cx));
    let (va, vb, vc) = (d3 * d6 - d5 * d4, d5 * d2 - d1 * d6, d1 * d4 - d3 * d2);
    let inside = va > 0.0 && vb > 0.0 && vc > 0.0; // barycentric coordinates · sum
    if inside {
        let sum = va + vb + vc;
        let h = sub(
            ax,
            [
                (ab[0] * vb + ac[0] * vc) / sum,
                (ab[1] * vb + ac[1] * vc) / sum,
                (ab[2] * vb + ac[2] * vc) / sum,
            ],
        );
        return dot(h, h);
    }
    // Outside the face region: the nearest of the three edges.
    segment_distance2(a, b, x)
        .min(segment_distance2(b, c, x))
        .min(segment_distance2(c, a, x))
}

/// Input indices without exact duplicates (the first of equal points is kept), sorted
/// lexicographically by coordinates.
fn unique(p: &[V3]) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..p.len() as u32).collect();
    idx.sort_by(|&i, &j| {
        let (a, b) = (p[i as usize], p[j as usize]);
        a[0].total_cmp(&b[0])
            .then(a[1].total_cmp(&b[1]))
            .then(a[2].total_cmp(&b[2]))
            .then(i.cmp(&j))
    });
    idx.dedup_by(|j, i| p[*i as usize] == p[*j as usize]);
    idx
}

/// An undirected link of the support graph between two input indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    pub a: u32,
    pub b: u32,
}

/// A point near the hull's surface (an index into the cloud) and the triangle it was last
/// found in front of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NearPoint {
    pub point: u32,
    pub home: u32,
}

/// CSR arrays from undirected links between input indices (`nodes` ascending; a link
/// to a point that is no node is skipped), each node's neighbours ascending and
/// distinct. A counting sort by node, then a sort of each short list.
fn csr(nodes: &[u32], n_points: usize, links: &[Link]) -> Csr {
    let mut id = vec![NONE; n_points];
    for (k, &v) in nodes.iter().enumerate() {
        id[v as usize] = k as u32;
    }
    let ends = |l: &Link| {
        let (x, y) = (id[l.a as usize], id[l.b as usize]);
        (x != NONE && y != NONE && x != y).then_some((x as usize, y as usize))
    };
    let mut start = vec![0u32; nodes.len() + 1];
    for (x, y) in links.iter().filter_map(ends) {
        start[x + 1] += 1;
        start[y + 1] += 1;
    }
    for k in 0..nodes.len() {
        start[k + 1] += start[k];
    }
    let mut fill = start.clone();
    let mut all = vec![0u32; start[nodes.len()] as usize];
    for (x, y) in links.iter().filter_map(ends) {
        all[fill[x] as usize] = y as u32;
        fill[x] += 1;
        all[fill[y] as usize] = x as u32;
        fill[y] += 1;
    }
    let mut offsets = Vec::with_capacity(nodes.len() + 1);
    let mut nbrs = Vec::with_capacity(all.len());
    offsets.push(0);
    for k in 0..nodes.len() {
        let list = &mut all[start[k] as usize..start[k + 1] as usize];
        list.sort_unstable();
        let from = nbrs.len();
        for &w in list.iter() {
            if nbrs.len() == from || nbrs[nbrs.len() - 1] != w {
                nbrs.push(w);
            }
        }
        offsets.push(nbrs.len() as u32);
    }
    Csr { offsets, nbrs }
}

/// A graph in compressed sparse rows ([`csr`]), nodes numbered by their position in
/// `nodes`.
struct Csr {
    /// The neighbours of node `k` are `nbrs[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<u32>,
    /// The neighbour lists, one after the other (node numbers).
    nbrs: Vec<u32>,
}

/// The tolerances of the unit tests (unit-scale clouds in f64).
#[cfg(test)]
const TEST_TOL: Tol = Tol {
    plane: 1e-12,
    margin: 1e-11,
    band: 1e-11,
    round: 1e-12,
};
