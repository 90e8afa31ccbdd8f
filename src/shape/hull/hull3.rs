//! The 3D hull: incremental quickhull over `f64` triangles with twin links, the
//! consistency checks of the finished mesh, the support graph, and the merging of
//! coplanar triangles into polygon faces (see the parent module's doc).

use super::{
    Degenerate, HullMesh, LOST, NONE, Tol, V3, cross, csr, dot, len, line_distance, scaled, sub,
    triangle_distance2, unique,
};

/// A hull triangle: vertices CCW seen from outside; `adj[k]` is the triangle across the
/// edge `v[k] → v[k+1]`; the plane `n·x = off` with `n` unit and outward.
#[derive(Clone, Debug)]
struct Tri {
    v: [u32; 3],
    adj: [u32; 3],
    n: V3,
    off: f64,
    alive: bool,
    outside: Vec<u32>,
}

struct Builder<'a> {
    p: &'a [V3],
    t: f64,
    tris: Vec<Tri>,
    /// Visibility marks of the current insertion: (epoch, visible).
    mark: Vec<(u32, bool)>,
    epoch: u32,
}

impl Builder<'_> {
    fn tri(&self, v: [u32; 3], adj: [u32; 3]) -> Tri {
        let (a, b, c) = (
            self.p[v[0] as usize],
            self.p[v[1] as usize],
            self.p[v[2] as usize],
        );
        let n = cross(sub(b, a), sub(c, a));
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
        Tri {
            v,
            adj,
            n,
            off: dot(n, mid),
            alive: true,
            outside: Vec::new(),
        }
    }

    #[inline]
    fn dist(&self, f: u32, q: u32) -> f64 {
        let tr = &self.tris[f as usize];
        dot(tr.n, self.p[q as usize]) - tr.off
    }

    /// Gives `q` to the first of `faces` it is more than `t` outside of, if any.
    fn assign(&mut self, q: u32, faces: std::ops::Range<u32>) {
        for f in faces {
            if self.tris[f as usize].alive && self.dist(f, q) > self.t {
                self.tris[f as usize].outside.push(q);
                return;
            }
        }
    }

    /// The tetrahedron `s`, oriented outward, with adjacency.
    fn tetrahedron(&mut self, s: [u32; 4]) {
        let mut faces = [
            [s[0], s[1], s[2]],
            [s[0], s[3], s[1]],
            [s[1], s[3], s[2]],
            [s[2], s[3], s[0]],
        ];
        // Orient every face away from the vertex it does not contain.
        for f in &mut faces {
            let opposite = s.into_iter().find(|x| !f.contains(x)).unwrap_or(s[3]);
            let tr = self.tri(*f, [NONE; 3]);
            if dot(tr.n, self.p[opposite as usize]) - tr.off > 0.0 {
                f.swap(1, 2);
            }
        }
        for f in faces {
            let tr = self.tri(f, [NONE; 3]);
            self.tris.push(tr);
        }
        for i in 0..4 {
            for k in 0..3 {
                let (a, b) = (self.tris[i].v[k], self.tris[i].v[(k + 1) % 3]);
                if let Some(j) = (0..4).find(|&j| edge_index(&self.tris[j].v, b, a).is_some()) {
                    self.tris[i].adj[k] = j as u32;
                }
            }
        }
    }

    /// Adds the apex `q`, farthest outside face `f0`: flood fill of the visible faces,
    /// the horizon as one loop, a fan of new faces from it, the orphans reassigned.
    fn add(&mut self, f0: u32, q: u32) -> Result<(), Degenerate> {
        self.epoch += 1;
        let e = self.epoch;
        self.mark.resize(self.tris.len(), (0, false));
        let mut stack = vec![f0];
        let mut visible = vec![f0];
        let mut horizon: Vec<(u32, u32, u32)> = Vec::new();
        self.mark[f0 as usize] = (e, true);
        while let Some(f) = stack.pop() {
            for k in 0..3 {
                let tr = &self.tris[f as usize];
                let (nb, a, b) = (tr.adj[k], tr.v[k], tr.v[(k + 1) % 3]);
                let (me, vis) = self.mark[nb as usize];
                if me == e {
                    if !vis {
                        horizon.push((a, b, nb));
                    }
                    continue;
                }
                if self.dist(nb, q) > self.t {
                    self.mark[nb as usize] = (e, true);
                    stack.push(nb);
                    visible.push(nb);
                } else {
                    self.mark[nb as usize] = (e, false);
                    horizon.push((a, b, nb));
                }
            }
        }
        // Chain the horizon into one loop (each vertex starts exactly one edge).
        let n = horizon.len();
        let mut by_start = horizon.clone();
        by_start.sort_unstable_by_key(|h| h.0);
        if n < 3 || by_start.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(Degenerate::Failed);
        }
        let mut ring = Vec::with_capacity(n);
        let mut cur = by_start[0];
        for _ in 0..n {
            if !ring.is_empty() && cur == ring[0] {
                return Err(Degenerate::Failed); // several loops: the visible region has a hole
            }
            ring.push(cur);
            let k = by_start
                .binary_search_by_key(&cur.1, |h| h.0)
                .map_err(|_| Degenerate::Failed)?;
            cur = by_start[k];
        }
        if cur != ring[0] {
            return Err(Degenerate::Failed);
        }
        // Remove the visible faces, keep their outside points.
        let mut orphans = Vec::new();
        for &f in &visible {
            let tr = &mut self.tris[f as usize];
            tr.alive = false;
            orphans.extend(tr.outside.drain(..).filter(|&x| x != q));
        }
        // Fan from the horizon: face i = (a, b, q), adj = [outside, next, previous].
        let base = self.tris.len() as u32;
        for (i, &(a, b, nb)) in ring.iter().enumerate() {
            let next = base + ((i + 1) % n) as u32;
            let prev = base + ((i + n - 1) % n) as u32;
            let tr = self.tri([a, b, q], [nb, next, prev]);
            if tr.n == [0.0; 3] {
                return Err(Degenerate::Failed);
            }
            self.tris.push(tr);
            let k = edge_index(&self.tris[nb as usize].v, b, a).ok_or(Degenerate::Failed)?;
            self.tris[nb as usize].adj[k] = base + i as u32;
        }
        let end = self.tris.len() as u32;
        for x in orphans {
            self.assign(x, base..end);
        }
        Ok(())
    }
}

/// `k` such that the edge `v[k] → v[k+1]` is `a → b`.
fn edge_index(v: &[u32; 3], a: u32, b: u32) -> Option<usize> {
    (0..3).find(|&k| v[k] == a && v[(k + 1) % 3] == b)
}

/// A non-degenerate starting tetrahedron: the extremes of the widest axis, the point
/// farthest from their line, the point farthest from their plane.
fn initial_simplex(p: &[V3], uniq: &[u32], t: f64) -> Result<[u32; 4], Degenerate> {
    let (mut lo, mut hi) = ([uniq[0]; 3], [uniq[0]; 3]);
    for &q in uniq {
        for k in 0..3 {
            if p[q as usize][k] < p[lo[k] as usize][k] {
                lo[k] = q;
            }
            if p[q as usize][k] > p[hi[k] as usize][k] {
                hi[k] = q;
            }
        }
    }
    let spread = |k: usize| p[hi[k] as usize][k] - p[lo[k] as usize][k];
    let k = (0..3).fold(0, |b, k| if spread(k) > spread(b) { k } else { b });
    let (i0, i1) = (lo[k], hi[k]);
    let (a, b) = (p[i0 as usize], p[i1 as usize]);
    if len(sub(b, a)) <= t {
        return Err(Degenerate::Point);
    }
    let farthest = |f: &dyn Fn(V3) -> f64| {
        uniq.iter()
            .map(|&q| (f(p[q as usize]), q))
            .fold(
                (f64::NEG_INFINITY, NONE),
                |x, y| if y.0 > x.0 { y } else { x },
            )
    };
    let (d2, i2) = farthest(&|x| line_distance(a, x, b));
    if !(d2 > t) {
        return Err(Degenerate::Collinear);
    }
    let c = p[i2 as usize];
    let n = cross(sub(b, a), sub(c, a));
    let n = scaled(n, 1.0 / len(n));
    let (d3, i3) = farthest(&|x| dot(n, sub(x, a)).abs());
    if !(d3 > t) {
        return Err(Degenerate::Coplanar);
    }
    Ok([i0, i1, i2, i3])
}

/// The hull of a 3D cloud (see the module doc).
pub(crate) fn hull3(p: &[V3], tol: &Tol) -> Result<HullMesh, Degenerate> {
    let t = tol.plane;
    let uniq = unique(p);
    let s = initial_simplex(p, &uniq, t)?;
    let mut b = Builder {
        p,
        t,
        tris: Vec::new(),
        mark: Vec::new(),
        epoch: 0,
    };
    b.tetrahedron(s);
    for &q in &uniq {
        if !s.contains(&q) {
            b.assign(q, 0..4);
        }
    }
    let mut cursor = 0;
    while cursor < b.tris.len() {
        let tr = &b.tris[cursor];
        if !tr.alive || tr.outside.is_empty() {
            cursor += 1;
            continue;
        }
        let apex = tr.outside.iter().copied().fold(tr.outside[0], |x, y| {
            if b.dist(cursor as u32, y) > b.dist(cursor as u32, x) {
                y
            } else {
                x
            }
        });
        b.add(cursor as u32, apex)?;
    }
    finish(p, &uniq, tol, b.tris)
}

/// Compacts the triangles, checks them, merges coplanar ones and builds the graph.
fn finish(p: &[V3], uniq: &[u32], tol: &Tol, all: Vec<Tri>) -> Result<HullMesh, Degenerate> {
    let t = tol.plane;
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
            *a = new_id[*a as usize];
            if *a == NONE {
                return Err(Degenerate::Failed);
            }
        }
    }
    // Checks: twin links, local convexity, Euler's V − E + F = 2.
    let mut used = vec![false; p.len()];
    for (i, tr) in tris.iter().enumerate() {
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
            let dx = dot(nb.n, p[x as usize]) - nb.off;
            let dy = dot(tr.n, p[y as usize]) - tr.off;
            if dx.min(dy) > LOST * t {
                return Err(Degenerate::Failed);
            }
        }
    }
    let v_count = used.iter().filter(|&&u| u).count();
    if v_count + tris.len() != 2 + 3 * tris.len() / 2 || tris.len() % 2 != 0 {
        return Err(Degenerate::Failed);
    }
    // Points near the surface join the graph; points far outside mean failure.
    let mut nodes: Vec<u32> = (0..p.len() as u32).filter(|&q| used[q as usize]).collect();
    let mut links: Vec<(u32, u32)> = Vec::with_capacity(3 * tris.len() + 3 * uniq.len());
    for tr in &tris {
        for k in 0..3 {
            links.push((tr.v[k], tr.v[(k + 1) % 3]));
        }
    }
    for &q in uniq {
        if used[q as usize] {
            continue;
        }
        let x = p[q as usize];
        let plane = |tr: &Tri| dot(tr.n, x) - tr.off;
        let best = tris.iter().map(plane).fold(f64::NEG_INFINITY, f64::max);
        if best > LOST * t {
            return Err(Degenerate::Failed);
        }
        if best >= -tol.margin {
            // Link to the nearest triangle (not merely the nearest plane: a point on an
            // edge of a big face lies in the plane of triangles far from it).
            let (_, arg) = tris
                .iter()
                .enumerate()
                .filter(|(_, tr)| plane(tr) >= -tol.margin)
                .map(|(k, tr)| {
                    let v = tr.v.map(|i| p[i as usize]);
                    (triangle_distance2(v[0], v[1], v[2], x), k)
                })
                .fold((f64::INFINITY, 0), |a, b| if b.0 < a.0 { b } else { a });
            nodes.push(q);
            for &v in &tris[arg].v {
                links.push((q, v));
            }
        }
    }
    nodes.sort_unstable();
    let (offsets, nbrs) = csr(&nodes, p.len(), &links);
    let faces = merge(p, &tris, t);
    let mut vertices: Vec<usize> = faces.iter().flat_map(|f| f.0.iter().copied()).collect();
    vertices.sort_unstable();
    vertices.dedup();
    Ok(HullMesh {
        vertices,
        faces,
        facets: tris.len(),
        nodes,
        offsets,
        nbrs,
    })
}

/// Merges adjacent coplanar triangles into polygons: seeds in order of decreasing area;
/// a neighbour joins when its normal points the same way and its three vertices lie
/// within `t` of the seed's plane (so a bent chain cannot drift). A group whose boundary
/// is not one simple loop stays split into its triangles. Polygon vertices within `t` of
/// the line through their neighbours are dropped.
fn merge(p: &[V3], tris: &[Tri], t: f64) -> Vec<(Vec<usize>, V3)> {
    let area2 = |tr: &Tri| {
        let (a, b, c) = (
            p[tr.v[0] as usize],
            p[tr.v[1] as usize],
            p[tr.v[2] as usize],
        );
        cross(sub(b, a), sub(c, a))
    };
    let mut order: Vec<usize> = (0..tris.len()).collect();
    order.sort_by(|&i, &j| {
        len(area2(&tris[j]))
            .total_cmp(&len(area2(&tris[i])))
            .then(i.cmp(&j))
    });
    let mut group = vec![NONE; tris.len()];
    let mut faces = Vec::new();
    let mut members = Vec::new();
    for &seed in &order {
        if group[seed] != NONE {
            continue;
        }
        let g = seed as u32;
        let (sn, soff) = (tris[seed].n, tris[seed].off);
        members.clear();
        members.push(seed);
        group[seed] = g;
        let mut head = 0;
        while head < members.len() {
            let f = members[head];
            head += 1;
            for &nb in &tris[f].adj {
                let nb = nb as usize;
                let tr = &tris[nb];
                if group[nb] == NONE
                    && dot(tr.n, sn) > 0.0
                    && tr
                        .v
                        .iter()
                        .all(|&v| (dot(sn, p[v as usize]) - soff).abs() <= t)
                {
                    group[nb] = g;
                    members.push(nb);
                }
            }
        }
        match boundary_loop(tris, &members, &group, g) {
            Some(ring) if members.len() > 1 => {
                let sum = members.iter().fold([0.0; 3], |s, &f| {
                    let a = area2(&tris[f]);
                    [s[0] + a[0], s[1] + a[1], s[2] + a[2]]
                });
                let l = len(sum);
                let n = if l > 0.0 { scaled(sum, 1.0 / l) } else { sn };
                faces.push((drop_collinear(p, ring, t), n));
            }
            _ => {
                for &f in &members {
                    let v = tris[f].v.iter().map(|&x| x as usize).collect();
                    faces.push((v, tris[f].n));
                }
            }
        }
    }
    faces
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

/// Drops polygon vertices within `t` of the segment joining their neighbours.
fn drop_collinear(p: &[V3], mut ring: Vec<usize>, t: f64) -> Vec<usize> {
    let mut i = 0;
    let mut since = 0;
    while ring.len() > 3 && since < ring.len() {
        let n = ring.len();
        let (a, b, c) = (
            p[ring[(i + n - 1) % n]],
            p[ring[i % n]],
            p[ring[(i + 1) % n]],
        );
        if line_distance(a, b, c) <= t && dot(sub(b, a), sub(c, b)) > 0.0 {
            ring.remove(i % n);
            since = 0;
            i %= ring.len();
        } else {
            i = (i + 1) % n;
            since += 1;
        }
    }
    ring
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::hull::TEST_TOL as TOL;

    fn cube() -> Vec<V3> {
        (0..8)
            .map(|m| [(m & 1) as f64, (m >> 1 & 1) as f64, (m >> 2 & 1) as f64])
            .collect()
    }

    #[test]
    fn cube_merges_into_six_quads() {
        let mut p = cube();
        p.push([0.5, 0.5, 0.5]); // interior
        p.push([1.0, 1.0, 1.0]); // duplicate
        p.push([0.5, 0.5, 1.0]); // on a face
        let h = hull3(&p, &TOL).unwrap();
        assert_eq!(h.facets, 12);
        assert_eq!(h.faces.len(), 6);
        assert!(h.faces.iter().all(|f| f.0.len() == 4));
        assert_eq!(h.vertices, (0..8).collect::<Vec<_>>());
        // Face point in the graph, interior point and duplicate not.
        assert!(h.nodes.contains(&10) && !h.nodes.contains(&8) && !h.nodes.contains(&9));
    }

    #[test]
    fn degenerate_clouds_are_reported() {
        let cases: [(&[V3], Degenerate); 3] = [
            (&[[1.0, 2.0, 3.0]; 5], Degenerate::Point),
            (
                &[[0.0; 3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [0.5, 0.5, 0.5]],
                Degenerate::Collinear,
            ),
            (
                &[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]],
                Degenerate::Coplanar,
            ),
        ];
        for (p, want) in cases {
            assert_eq!(hull3(p, &TOL).unwrap_err(), want, "{p:?}");
        }
    }
}
