//! The finished 3D hull: the triangle type, the consistency checks, the support graph
//! (near-surface points linked to their nearest triangle, found by a walk over the mesh)
//! and the merging of coplanar triangles into polygon faces (see the parent module's doc).

use super::{
    Csr, Degenerate, HullMesh, Link, NONE, NearPoint, Tol, V3, area_vector, cross, csr, dot, len,
    line_distance, scaled, sub, triangle_distance2,
};
use crate::tolerance::hull::LOST;
use alloc::vec::Vec;

/// A hull triangle: vertices CCW seen from outside; `adj[k]` is the triangle across the
/// edge `v[k] → v[k+1]`; the plane `n·x = off` with `n` unit and outward.
#[derive(Clone, Debug)]
pub(super) struct Tri {
    pub v: [u32; 3],
    pub adj: [u32; 3],
    pub n: V3,
    pub off: f64,
    pub alive: bool,
    /// The first of the points more than the tolerance in front of the plane, given to
    /// this triangle (a list linked by the builder; `NONE`: empty).
    pub out: u32,
    /// The farthest of the `out` points: (distance, point).
    pub far: (f64, u32),
    /// The first of the points within the tolerance of the surface here (the support
    /// graph's extra nodes; a linked list like `out`).
    pub near: u32,
}

impl Tri {
    /// The triangle `v` of `p` (normal `0` if degenerate).
    pub(super) fn new(p: &[V3], v: [u32; 3], adj: [u32; 3]) -> Self {
        let (a, b, c) = (p[v[0] as usize], p[v[1] as usize], p[v[2] as usize]);
        let n = area_vector(a, b, c);
        let l = len(n);
        let n = if l > 0.0 {
            scaled(n, 1.0 / l)
        } else {
            [0.0; 3]
        };
        let mid = scaled(
            [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]],
            1.0 / 3.0,
        );
        Self {
            v,
            adj,
            n,
            off: dot(n, mid),
            alive: true,
            out: NONE,
            far: (f64::NEG_INFINITY, NONE),
            near: NONE,
        }
    }

    #[inline]
    fn plane(&self, x: V3) -> f64 {
        dot(self.n, x) - self.off
    }
}

/// `k` such that the edge `v[k] → v[k+1]` is `a → b`.
pub(super) fn edge_index(v: &[u32; 3], a: u32, b: u32) -> Option<usize> {
    (0..3).find(|&k| v[k] == a && v[(k + 1) % 3] == b)
}

/// Clouds with at most this many (point, facet) pairs are also checked exhaustively:
/// every point against every facet plane (the local checks suffice for correctness;
/// this catches what they might miss where it costs nothing).
const FULL_CHECK: usize = 1 << 16;

/// Compacts the triangles, checks them, builds the graph and merges coplanar ones.
/// `p` are the points the triangles index, `orig` their indices in the input (of
/// `n_input` points), `near` the near-surface points with their triangles, `inner` a
/// point strictly inside the first tetrahedron. The result is in input indices.
/// Algorithm:
/// 1. The live triangles compacted and their links renumbered (a link to a removed
///    triangle: `Failed`).
/// 2. The checks ([`check`]): twin links, local convexity, `inner` behind every facet,
///    Euler's formula; they give the vertices.
/// 3. The support graph: the triangles' edges, and each near-surface point (not a vertex,
///    its triangle live) with its nearest triangle ([`nearest`], a walk from its own).
/// 4. In front of that triangle's plane by more than `LOST · tol.round`: `Failed`; no
///    more than `tol.margin` behind it: the point linked to its three vertices.
/// 5. Small clouds (at most `FULL_CHECK` point–facet pairs): every point against every
///    facet's plane.
/// 6. Into input indices: the nodes sorted, their corner flags, the links; the graph in
///    CSR form ([`csr`]).
/// 7. Coplanar triangles merged into faces ([`merge`]); the vertices are the points left
///    on the faces' rings.
pub(super) fn finish(
    p: &[V3],
    orig: &[u32],
    n_input: usize,
    tol: &Tol,
    all: Vec<Tri>,
    near: Vec<NearPoint>,
    inner: V3,
) -> Result<HullMesh, Degenerate> {
    // The sanity net of the construction (its tolerance is the f64 rounding).
    let lost = LOST * tol.round;
    let mut new_id = vec![NONE; all.len()];
    let mut tris = Vec::new();
    for (i, tr) in all.into_iter().enumerate() {
        if tr.alive {
            new_id[i] = tris.len() as u32;
            tris.push(tr);
        }
    }
    for tr in &mut tris {
        for a in &mut tr.adj {
            *a = *new_id.get(*a as usize).ok_or(Degenerate::Failed)?;
            if *a == NONE {
                return Err(Degenerate::Failed);
            }
        }
    }
    let used = check(p, &tris, lost, inner)?;
    // Near-surface points join the graph, linked to their nearest triangle; one found
    // far in front of it means the construction lost it.
    let mut nodes: Vec<u32> = (0..p.len() as u32).filter(|&q| used[q as usize]).collect();
    let mut links: Vec<Link> = Vec::with_capacity(3 * tris.len() + 3 * near.len());
    for tr in &tris {
        for k in 0..3 {
            links.push(Link {
                a: tr.v[k],
                b: tr.v[(k + 1) % 3],
            });
        }
    }
    let mut fan = Vec::new();
    for NearPoint { point: x, home } in near {
        let home = new_id[home as usize] as usize;
        if used[x as usize] || home >= tris.len() {
            continue;
        }
        let f = nearest(p, &tris, home, p[x as usize], &mut fan)?;
        let d = tris[f].plane(p[x as usize]);
        if d > lost {
            return Err(Degenerate::Failed);
        }
        if d >= -tol.margin {
            nodes.push(x);
            links.extend(tris[f].v.map(|v| Link { a: x, b: v }));
        }
    }
    // Every point, vertices too: the local test sees only neighbours, and a needle's
    // triangulation (39 points within 1e-12 of a line) was locally convex with a vertex
    // 0.10 in front of a triangle across the needle (`cargo fuzz`, `polytope`).
    if p.len().saturating_mul(tris.len()) <= FULL_CHECK {
        for &x in p {
            if tris.iter().any(|tr| tr.plane(x) > lost) {
                return Err(Degenerate::Failed);
            }
        }
    }
    // To input indices: nodes ascending, faces and corners.
    let mut nodes: Vec<u32> = nodes.into_iter().map(|i| orig[i as usize]).collect();
    nodes.sort_unstable();
    let mut vertex = vec![false; n_input];
    for (i, &u) in used.iter().enumerate() {
        vertex[orig[i] as usize] = u;
    }
    let corner: Vec<bool> = nodes.iter().map(|&v| vertex[v as usize]).collect();
    let links: Vec<Link> = links
        .into_iter()
        .map(|l| Link {
            a: orig[l.a as usize],
            b: orig[l.b as usize],
        })
        .collect();
    let Csr { offsets, nbrs } = csr(&nodes, n_input, &links);
    let mut faces = merge(p, &tris, tol.plane);
    for f in &mut faces {
        f.ring.iter_mut().for_each(|v| *v = orig[*v] as usize);
    }
    let mut on_face = vec![false; n_input];
    faces
        .iter()
        .flat_map(|f| &f.ring)
        .for_each(|&v| on_face[v] = true);
    let vertices: Vec<usize> = (0..n_input).filter(|&v| on_face[v]).collect();
    Ok(HullMesh {
        vertices,
        faces,
        facets: tris.len(),
        nodes,
        corner,
        offsets,
        nbrs,
    })
}

/// The checks of a finished triangulation: twin links, local convexity (an edge reflex
/// by more than `lost` fails), no facet with the interior point `inner` more than `lost`
/// in front (a facet folded over its neighbour points inward and passes the local test),
/// Euler's `V − E + F = 2`. Returns which points are vertices.
fn check(p: &[V3], tris: &[Tri], lost: f64, inner: V3) -> Result<Vec<bool>, Degenerate> {
    let mut used = vec![false; p.len()];
    for (i, tr) in tris.iter().enumerate() {
        if !(tr.plane(inner) <= lost) {
            return Err(Degenerate::Failed);
        }
        for k in 0..3 {
            let (a, b) = (tr.v[k], tr.v[(k + 1) % 3]);
            used[a as usize] = true;
            let nb = &tris[tr.adj[k] as usize];
            let m = edge_index(&nb.v, b, a).ok_or(Degenerate::Failed)?;
            if nb.adj[m] != i as u32 {
                return Err(Degenerate::Failed);
            }
            // The far vertices of the two triangles: at most one may be in front of the
            // other's plane, and only by the tolerance (reflex by at most `t`).
            let (x, y) = (tr.v[(k + 2) % 3], nb.v[(m + 2) % 3]);
            let (dx, dy) = (nb.plane(p[x as usize]), tr.plane(p[y as usize]));
            if dx.min(dy) > lost {
                return Err(Degenerate::Failed);
            }
        }
    }
    let v_count = used.iter().filter(|&&u| u).count();
    if v_count + tris.len() != 2 + 3 * tris.len() / 2 || !tris.len().is_multiple_of(2) {
        return Err(Degenerate::Failed);
    }
    Ok(used)
}

/// The triangle nearest to `x`, by a descent from `start`: to the nearest edge
/// neighbour while one is nearer, else to the nearest triangle around one of the
/// current triangle's vertices (where the nearest point of the current triangle is a
/// corner, the triangle under `x` may share only that corner). The distance decreases
/// strictly, so the walk ends; near a convex surface it ends at the triangle under `x`.
fn nearest(
    p: &[V3],
    tris: &[Tri],
    start: usize,
    x: V3,
    fan: &mut Vec<u32>,
) -> Result<usize, Degenerate> {
    let d2 = |f: usize| {
        let v = tris[f].v.map(|i| p[i as usize]);
        triangle_distance2(v[0], v[1], v[2], x)
    };
    let (mut cur, mut best) = (start, d2(start));
    loop {
        let mut next = cur;
        for &nb in &tris[cur].adj {
            let d = d2(nb as usize);
            if d < best {
                (best, next) = (d, nb as usize);
            }
        }
        if next == cur {
            for &v in &tris[cur].v {
                around(tris, v, cur, fan)?;
                for &f in fan.iter() {
                    let d = d2(f as usize);
                    if d < best {
                        (best, next) = (d, f as usize);
                    }
                }
            }
        }
        if next == cur {
            return Ok(cur);
        }
        cur = next;
    }
}

/// The triangles around vertex `v` other than `start` (which holds `v`), in order.
fn around(tris: &[Tri], v: u32, start: usize, out: &mut Vec<u32>) -> Result<(), Degenerate> {
    out.clear();
    let mut f = start;
    loop {
        let tr = &tris[f];
        let k =
            tr.v.iter()
                .position(|&w| w == v)
                .ok_or(Degenerate::Failed)?;
        // Across the edge `v → v[k+1]`: the next triangle around `v`.
        f = tr.adj[k] as usize;
        if f == start {
            return Ok(());
        }
        if out.len() >= tris.len() {
            return Err(Degenerate::Failed);
        }
        out.push(f as u32);
    }
}

/// A face: its vertex ring and outward unit normal.
type Face = super::HullFace;

/// Triangle `tr` as a face of its own.
fn tri_face(tr: &Tri) -> Face {
    Face {
        ring: tr.v.iter().map(|&x| x as usize).collect(),
        normal: tr.n,
    }
}

/// Merges adjacent coplanar triangles into polygons: seeds in order of decreasing area;
/// a neighbour joins when its normal points the same way and its three vertices lie
/// within `t` of the seed's plane (so a bent chain cannot drift). A group whose boundary
/// is not one simple loop stays split into its triangles. Polygon vertices within `t` of
/// the line through their neighbours are dropped. Faces come in their seeds' order.
///
/// Only triangles that some neighbour would join ("candidates") can seed a group of
/// more than one, so only they are visited in area order (a visit in that random order
/// cost a cache miss per triangle and neighbour: most of a 200 000-triangle merge); a
/// triangle that is no candidate joins a seed only if it comes later in that order (else
/// it would have been its own seed first), which gives the groups of visiting every
/// triangle in area order.
///
/// Algorithm:
/// 1. Each triangle's area vector; the order: decreasing area, then index.
/// 2. The candidates (a neighbour passes their test: normal the same way, its three
///    vertices within `t` of their plane), sorted in that order.
/// 3. From each ungrouped candidate, a breadth-first growth across edges: an ungrouped
///    neighbour, a candidate or later in the order, joins if it passes the seed's test.
/// 4. The group's normal: its summed area vector's direction (zero: the seed's). A group
///    of several whose boundary is one simple loop ([`boundary_loop`]) and convex within
///    `t` ([`convex`]) is one polygon face; else its triangles.
/// 5. The faces in area order (ungrouped triangles as their own, a group at its seed);
///    polygon vertices within `t` of their neighbours' line dropped ([`drop_collinear`]).
fn merge(p: &[V3], tris: &[Tri], t: f64) -> Vec<Face> {
    let area2: Vec<V3> = tris
        .iter()
        .map(|tr| {
            area_vector(
                p[tr.v[0] as usize],
                p[tr.v[1] as usize],
                p[tr.v[2] as usize],
            )
        })
        .collect();
    let size: Vec<f64> = area2.iter().map(|&a| len(a)).collect();
    let first = |i: usize, j: usize| size[j].total_cmp(&size[i]).then(i.cmp(&j));
    // Whether `nb` joins the group of seed `s`.
    let joins = |s: usize, nb: usize| {
        let (sn, soff) = (tris[s].n, tris[s].off);
        dot(tris[nb].n, sn) > 0.0
            && tris[nb]
                .v
                .iter()
                .all(|&v| (dot(sn, p[v as usize]) - soff).abs() <= t)
    };
    let is_seed: Vec<bool> = (0..tris.len())
        .map(|s| tris[s].adj.iter().any(|&nb| joins(s, nb as usize)))
        .collect();
    let mut seeds: Vec<usize> = (0..tris.len()).filter(|&s| is_seed[s]).collect();
    seeds.sort_unstable_by(|&i, &j| first(i, j));
    let mut group = vec![NONE; tris.len()];
    // The faces of each group of several triangles, by seed.
    let mut made: Vec<(usize, Vec<Face>)> = Vec::new();
    let mut members = Vec::new();
    for &seed in &seeds {
        if group[seed] != NONE {
            continue;
        }
        let g = seed as u32;
        members.clear();
        members.push(seed);
        group[seed] = g;
        let mut head = 0;
        while head < members.len() {
            let f = members[head];
            head += 1;
            for &nb in &tris[f].adj {
                let nb = nb as usize;
                if group[nb] == NONE && (is_seed[nb] || first(seed, nb).is_lt()) && joins(seed, nb)
                {
                    group[nb] = g;
                    members.push(nb);
                }
            }
        }
        let sum = members.iter().fold([0.0; 3], |s, &f| {
            let a = area2[f];
            [s[0] + a[0], s[1] + a[1], s[2] + a[2]]
        });
        let l = len(sum);
        let n = if l > 0.0 {
            scaled(sum, 1.0 / l)
        } else {
            tris[seed].n
        };
        let faces = match boundary_loop(tris, &members, &group, g) {
            Some(ring) if members.len() > 1 && convex(p, &ring, n, t) => {
                vec![Face { ring, normal: n }]
            }
            _ => members.iter().map(|&f| tri_face(&tris[f])).collect(),
        };
        made.push((seed, faces));
    }
    let mut slot = vec![NONE; tris.len()];
    for (k, &(seed, _)) in made.iter().enumerate() {
        slot[seed] = k as u32;
    }
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_unstable_by(|&i, &j| first(i, j));
    let mut faces = Vec::with_capacity(tris.len());
    for f in order {
        if group[f] == NONE {
            faces.push(tri_face(&tris[f]));
        } else if slot[f] != NONE {
            faces.append(&mut made[slot[f] as usize].1);
        }
    }
    drop_collinear(p, &mut faces, t);
    faces
}

/// Whether the polygon `ring` turns left (about `n`) at every corner, or is within `t`
/// of straight there. A group of triangles within `t` of one plane can bound a polygon
/// with a reflex corner (a vertex a few tolerances below its neighbours' plane, shared
/// by two such groups: a bent quad of a plate 3 tolerances thick, sin 0.1 reflex); such
/// a group stays split into its triangles.
fn convex(p: &[V3], ring: &[usize], n: V3, t: f64) -> bool {
    let m = ring.len();
    (0..m).all(|i| {
        let (a, b, c) = (p[ring[i]], p[ring[(i + 1) % m]], p[ring[(i + 2) % m]]);
        dot(cross(sub(b, a), sub(c, b)), n) >= -t * len(sub(c, a))
    })
}

/// The boundary of a group of triangles as one CCW loop, or `None` if it is not one.
fn boundary_loop(tris: &[Tri], members: &[usize], group: &[u32], g: u32) -> Option<Vec<usize>> {
    let mut edges: Vec<(u32, u32)> = Vec::new();
    for &f in members {
        for k in 0..3 {
            if group[tris[f].adj[k] as usize] != g {
                edges.push((tris[f].v[k], tris[f].v[(k + 1) % 3]));
            }
        }
    }
    edges.sort_unstable();
    if edges.len() < 3 || edges.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let mut ring = Vec::with_capacity(edges.len());
    let mut cur = edges[0];
    for _ in 0..edges.len() {
        ring.push(cur.0 as usize);
        cur = edges[edges.binary_search_by_key(&cur.1, |e| e.0).ok()?];
    }
    (cur == edges[0]).then_some(ring)
}

/// Drops polygon vertices within `t` of the segment joining their neighbours, from
/// both faces at once: only a vertex shared by exactly two faces (the two polygons on
/// either side of a nearly straight chain of edges), collinear in both and leaving each
/// at least a triangle, so that every edge keeps its twin. Re-checked after each drop
/// (the neighbours change), until none is left.
fn drop_collinear(p: &[V3], faces: &mut [Face], t: f64) {
    // Per vertex: how many faces hold it, and the first two.
    let mut at: Vec<(u32, [usize; 2])> = vec![(0, [0; 2]); p.len()];
    for (f, face) in faces.iter().enumerate() {
        for &v in &face.ring {
            let e = &mut at[v];
            if e.0 < 2 {
                e.1[e.0 as usize] = f;
            }
            e.0 += 1;
        }
    }
    // Vertices on exactly two faces, both polygons.
    let pairs: Vec<(usize, [usize; 2])> = at
        .iter()
        .enumerate()
        .filter(|(_, e)| e.0 == 2 && e.1.iter().all(|&f| faces[f].ring.len() > 3))
        .map(|(v, e)| (v, e.1))
        .collect();
    let straight = |ring: &[usize], v: usize| {
        let n = ring.len();
        let i = ring.iter().position(|&w| w == v)?;
        let (a, b, c) = (p[ring[(i + n - 1) % n]], p[v], p[ring[(i + 1) % n]]);
        (n > 3 && line_distance(a, b, c) <= t && dot(sub(b, a), sub(c, b)) > 0.0).then_some(i)
    };
    let mut gone = vec![false; pairs.len()];
    loop {
        let mut changed = false;
        for (k, &(v, [f, g])) in pairs.iter().enumerate() {
            if gone[k] {
                continue;
            }
            if let (Some(i), Some(j)) = (straight(&faces[f].ring, v), straight(&faces[g].ring, v)) {
                faces[f].ring.remove(i);
                faces[g].ring.remove(j);
                gone[k] = true;
                changed = true;
            }
        }
        if !changed {
            return;
        }
    }
}
