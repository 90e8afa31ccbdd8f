//! The 3D hull: quickhull over `f64` triangles with twin links and conflict lists (each
//! point outside the current hull belongs to the one facet it lies farthest in front of;
//! a removed facet's points are re-partitioned among the facets that replace it, never
//! against the whole hull). The consistency checks, the support graph and the merging
//! of coplanar triangles are in `mesh3.rs` (see the parent module's doc).

use super::mesh3::{Tri, edge_index, finish};
use super::{
    Degenerate, HullMesh, NONE, NearPoint, Tol, V3, cross, dot, len, line_distance, scaled, sub,
};
use crate::tolerance::hull::PLANE_ROUNDING;
use alloc::vec::Vec;

/// A triangle's visibility mark, valid in the insertion numbered `epoch` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    epoch: u32,
    mark: Mark,
}

impl Seen {
    /// Not marked in any insertion (epochs start at 1).
    const NEVER: Self = Self {
        epoch: 0,
        mark: Mark::Unseen,
    };

    /// Visible from the apex of insertion `epoch`.
    fn visible(epoch: u32) -> Self {
        Self {
            epoch,
            mark: Mark::Visible,
        }
    }
}

/// An edge `a → b` of the horizon, with the hidden triangle `across` it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HorizonEdge {
    a: u32,
    b: u32,
    across: u32,
}

/// Visibility marks of one insertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Unseen,
    Visible,
    Hidden,
}

struct Builder<'a> {
    p: &'a [V3],
    /// A point more than `t` in front of a triangle's plane is outside it, and an apex
    /// removes the triangles it is more than `t` in front of: the rounding of the `f64`
    /// plane tests ([`Tol::round`]), not the input's resolution.
    t: f64,
    /// Points within `margin` behind the hull stay (as `near` points) for the graph.
    margin: f64,
    /// The triangles; removed ones are recycled through `free`.
    tris: Vec<Tri>,
    free: Vec<u32>,
    /// The point lists of the triangles' `outside` and `near` sets, linked through
    /// `next` (each point is in at most one list).
    next: Vec<u32>,
    /// Visibility marks of the current insertion.
    mark: Vec<Seen>,
    epoch: u32,
    /// Triangles whose outside set is not empty (may hold removed ones: skipped).
    work: Vec<u32>,
    /// Buffers of one insertion: visible triangles, flood stack, horizon, orphans, new
    /// triangles, the kept triangles across the horizon.
    visible: Vec<u32>,
    stack: Vec<u32>,
    ring: Vec<HorizonEdge>,
    orphans: Vec<u32>,
    fresh: Vec<u32>,
    kept: Vec<u32>,
}

impl Builder<'_> {
    #[inline]
    fn dist(&self, f: u32, q: u32) -> f64 {
        let tr = &self.tris[f as usize];
        dot(tr.n, self.p[q as usize]) - tr.off
    }

    /// The triangle index `f` if it is a valid link to a live triangle (the guard against
    /// a `NONE` left in the adjacency by a construction that rounding broke).
    #[inline]
    fn link(&self, f: u32) -> Result<u32, Degenerate> {
        match self.tris.get(f as usize) {
            Some(tr) if tr.alive => Ok(f),
            _ => Err(Degenerate::Failed),
        }
    }

    /// A new triangle (a recycled slot if any), not yet linked.
    fn push(&mut self, v: [u32; 3], adj: [u32; 3]) -> Result<u32, Degenerate> {
        let tr = Tri::new(self.p, v, adj);
        if tr.n == [0.0; 3] {
            return Err(Degenerate::Failed);
        }
        Ok(match self.free.pop() {
            Some(f) => {
                self.tris[f as usize] = tr;
                f
            }
            None => {
                self.tris.push(tr);
                self.tris.len() as u32 - 1
            }
        })
    }

    /// The tetrahedron `s`, oriented outward, with adjacency.
    fn tetrahedron(&mut self, s: [u32; 4]) -> Result<(), Degenerate> {
        let mut faces = [
            [s[0], s[1], s[2]],
            [s[0], s[3], s[1]],
            [s[1], s[3], s[2]],
            [s[2], s[3], s[0]],
        ];
        // Orient every face away from the vertex it does not contain.
        for (i, f) in faces.iter_mut().enumerate() {
            let opposite = s[[3, 2, 0, 1][i]];
            let tr = Tri::new(self.p, *f, [NONE; 3]);
            if dot(tr.n, self.p[opposite as usize]) - tr.off > 0.0 {
                f.swap(1, 2);
            }
        }
        for f in faces {
            self.push(f, [NONE; 3])?;
        }
        for i in 0..4 {
            for k in 0..3 {
                let (a, b) = (self.tris[i].v[k], self.tris[i].v[(k + 1) % 3]);
                let j = (0..4)
                    .find(|&j| edge_index(&self.tris[j].v, b, a).is_some())
                    .ok_or(Degenerate::Failed)?;
                self.tris[i].adj[k] = j as u32;
            }
        }
        Ok(())
    }

    /// Whether the apex `q` removes the triangle `nb` met across the edge `a → b` of a
    /// visible one: `q` is more than `t` in front of it, or within `t` of its plane and
    /// over its side of the edge, where the new triangle `(a, b, q)` would fold over `nb`
    /// with its normal reversed.
    ///
    /// `t` is the rounding of the plane tests, not the input's tolerance: for input coarser
    /// than `f64` that is much larger (f32: 5.7e-6 at unit scale), and with it triangles
    /// `q` saw by less than it stayed, the horizon was no longer `q`'s silhouette, and the
    /// fan over it folded over its neighbours with reversed normals (f32 spheres of 50 000
    /// points, f32 cylinders of 10 000): interior points then read as outside them and the
    /// build failed. Points within that tolerance but outside the rounding were not added
    /// either, and a later fan could pass far below them (22 units below a point of an
    /// f32 plate 10 thick and 1e4 wide, whose tolerance was 2).
    fn sees(&self, nb: u32, a: u32, b: u32, q: u32) -> bool {
        let d = self.dist(nb, q);
        if d > self.t {
            return true;
        }
        if !(d > -self.t) {
            return false;
        }
        let (pa, pb) = (self.p[a as usize], self.p[b as usize]);
        // `n × (b − a)` points away from `nb` in its plane (`nb` holds the edge `b → a`).
        let w = cross(self.tris[nb as usize].n, sub(pb, pa));
        dot(w, sub(self.p[q as usize], pa)) < 0.0
    }

    /// The triangles `q` removes (into `visible`): a flood fill from `f0` through
    /// [`sees`](Self::sees).
    fn flood(&mut self, f0: u32, q: u32) -> Result<(), Degenerate> {
        self.epoch += 1;
        let e = self.epoch;
        self.mark.resize(self.tris.len(), Seen::NEVER);
        self.mark[f0 as usize] = Seen::visible(e);
        self.visible.clear();
        self.visible.push(f0);
        self.stack.clear();
        self.stack.push(f0);
        while let Some(f) = self.stack.pop() {
            for k in 0..3 {
                let tr = &self.tris[f as usize];
                let (a, b) = (tr.v[k], tr.v[(k + 1) % 3]);
                let nb = self.link(tr.adj[k])?;
                // A triangle hidden across one edge may still fold across another.
                if self.mark[nb as usize] == Seen::visible(e) {
                    continue;
                }
                if self.sees(nb, a, b, q) {
                    self.mark[nb as usize] = Seen::visible(e);
                    self.stack.push(nb);
                    self.visible.push(nb);
                } else {
                    self.mark[nb as usize] = Seen {
                        epoch: e,
                        mark: Mark::Hidden,
                    };
                }
            }
        }
        Ok(())
    }

    /// The horizon of the visible triangles as one loop of [`HorizonEdge`]s (into `ring`).
    fn horizon(&mut self) -> Result<(), Degenerate> {
        let e = self.epoch;
        let mut h: Vec<HorizonEdge> = core::mem::take(&mut self.ring);
        h.clear();
        for &f in &self.visible {
            let tr = &self.tris[f as usize];
            for k in 0..3 {
                if self.mark[tr.adj[k] as usize] != Seen::visible(e) {
                    h.push(HorizonEdge {
                        a: tr.v[k],
                        b: tr.v[(k + 1) % 3],
                        across: tr.adj[k],
                    });
                }
            }
        }
        // Chain into one loop (each vertex starts exactly one edge).
        let n = h.len();
        h.sort_unstable_by_key(|x| x.a);
        if n < 3 || h.windows(2).any(|w| w[0].a == w[1].a) {
            return Err(Degenerate::Failed);
        }
        let mut ring = Vec::with_capacity(n);
        let mut cur = h[0];
        for _ in 0..n {
            if !ring.is_empty() && cur == ring[0] {
                return Err(Degenerate::Failed); // several loops: the visible region has a hole
            }
            ring.push(cur);
            let k = h
                .binary_search_by_key(&cur.b, |x| x.a)
                .map_err(|_| Degenerate::Failed)?;
            cur = h[k];
        }
        if cur != ring[0] {
            return Err(Degenerate::Failed);
        }
        self.ring = ring;
        Ok(())
    }

    /// Adds the apex `q`, farthest outside triangle `f0`: the visible triangles are
    /// removed, a fan of new triangles joins the horizon to `q`, and the removed
    /// triangles' points are re-partitioned among the new triangles (and those across
    /// the horizon).
    fn add(&mut self, f0: u32, q: u32) -> Result<(), Degenerate> {
        self.flood(f0, q)?;
        self.horizon()?;
        self.orphans.clear();
        for i in 0..self.visible.len() {
            let f = self.visible[i];
            let tr = &mut self.tris[f as usize];
            tr.alive = false;
            let lists = [tr.out, tr.near];
            (tr.out, tr.near) = (NONE, NONE);
            for head in lists {
                let mut x = head;
                while x != NONE {
                    if x != q {
                        self.orphans.push(x);
                    }
                    x = self.next[x as usize];
                }
            }
            self.free.push(f);
        }
        // Fan from the horizon: triangle i = (a, b, q), adj = [outside, next, previous].
        let n = self.ring.len();
        self.fresh.clear();
        for i in 0..n {
            let HorizonEdge { a, b, across } = self.ring[i];
            let f = self.push([a, b, q], [across, NONE, NONE])?;
            self.fresh.push(f);
        }
        self.kept.clear();
        for i in 0..n {
            let HorizonEdge { a, b, across: nb } = self.ring[i];
            let f = self.fresh[i];
            self.tris[f as usize].adj[1] = self.fresh[(i + 1) % n];
            self.tris[f as usize].adj[2] = self.fresh[(i + n - 1) % n];
            let k = edge_index(&self.tris[nb as usize].v, b, a).ok_or(Degenerate::Failed)?;
            self.tris[nb as usize].adj[k] = f;
            self.kept.push(nb);
        }
        if self.mark.len() < self.tris.len() {
            self.mark.resize(self.tris.len(), Seen::NEVER);
        }
        let (orphans, fresh, kept) = (
            core::mem::take(&mut self.orphans),
            core::mem::take(&mut self.fresh),
            core::mem::take(&mut self.kept),
        );
        self.partition(&orphans, &fresh, &kept);
        (self.orphans, self.fresh, self.kept) = (orphans, fresh, kept);
        Ok(())
    }

    /// Gives each point of `pts` to the triangle of `new` it lies farthest in front of:
    /// its outside set if more than `t` in front, else its `near` set if at most `margin`
    /// behind. A point deeper than `margin` behind every new triangle is tested against
    /// the triangles of `kept` too (the hull's depth at a point is its smallest depth
    /// below any facet plane, and a point near the horizon can be shallow under a kept
    /// triangle); deeper than `margin` there too, it is inside for good (the hull only
    /// grows).
    fn partition(&mut self, pts: &[u32], new: &[u32], kept: &[u32]) {
        for &x in pts {
            let (mut best, mut arg) = (f64::NEG_INFINITY, NONE);
            for &f in new {
                let d = self.dist(f, x);
                if d > best {
                    (best, arg) = (d, f);
                }
            }
            if !(best >= -self.margin) {
                for &f in kept {
                    let d = self.dist(f, x);
                    if d > best {
                        (best, arg) = (d, f);
                    }
                }
            }
            if best > self.t {
                let tr = &mut self.tris[arg as usize];
                if tr.out == NONE {
                    self.work.push(arg);
                    tr.far = (best, x);
                } else if best > tr.far.0 {
                    tr.far = (best, x);
                }
                self.next[x as usize] = tr.out;
                tr.out = x;
            } else if best >= -self.margin {
                let tr = &mut self.tris[arg as usize];
                self.next[x as usize] = tr.near;
                tr.near = x;
            }
        }
    }

    /// The near points of the live triangles, each with its triangle.
    fn near_points(&self) -> Vec<NearPoint> {
        let mut out = Vec::new();
        for (f, tr) in self.tris.iter().enumerate() {
            if !tr.alive {
                continue;
            }
            let mut x = tr.near;
            while x != NONE {
                out.push(NearPoint {
                    point: x,
                    home: f as u32,
                });
                x = self.next[x as usize];
            }
        }
        out
    }
}

/// A starting tetrahedron of four distinct input points: the extremes `a`, `b` of the
/// widest axis, the point `c` farthest from their line, the point farthest from their
/// plane, or which of [`Degenerate`] the cloud is within the tolerance `t`.
///
/// The plane's normal `(b − a) × (c − a)` has an absolute rounding error of a few ulps of
/// `|b − a| |c − a|`, so its direction is off by about `ε |c − a| / h` (`h` = the distance
/// from `c` to the line), and a point `x` is measured off the plane with an error of
/// `ε |c − a| |x − a| / h`. For a nearly collinear cloud this exceeds the distances being
/// measured: the three points themselves read as off their own plane (8.7e-8 for a
/// triple 4.4e-13 off its line, against a tolerance of 3.9e-15). So the fourth point is
/// sought among the other points only and must clear the tolerance plus that rounding
/// bound; otherwise the cloud is coplanar for the hull (its support stays exact: brute
/// force over the points).
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
    if i0 == i1 || len(sub(b, a)) <= t {
        return Err(Degenerate::Point);
    }
    // The farthest point by `f` among the points not in `skip`.
    let farthest = |f: &dyn Fn(V3) -> f64, skip: &[u32]| {
        uniq.iter()
            .filter(|q| !skip.contains(q))
            .map(|&q| (f(p[q as usize]), q))
            .fold(
                (f64::NEG_INFINITY, NONE),
                |x, y| if y.0 > x.0 { y } else { x },
            )
    };
    let (d2, i2) = farthest(&|x| line_distance(a, x, b), &[i0, i1]);
    if i2 == NONE || !(d2 > t) {
        return Err(Degenerate::Collinear);
    }
    let c = p[i2 as usize];
    let n = cross(sub(b, a), sub(c, a));
    let n = scaled(n, 1.0 / len(n));
    let (d3, i3) = farthest(&|x| dot(n, sub(x, a)).abs(), &[i0, i1, i2]);
    if i3 == NONE {
        return Err(Degenerate::Coplanar);
    }
    let x = p[i3 as usize];
    let rounding = PLANE_ROUNDING * (len(sub(c, a)) * len(sub(x, a)) / d2 + len(sub(x, a)));
    if !(d3 > t + rounding) {
        return Err(Degenerate::Coplanar);
    }
    Ok([i0, i1, i2, i3])
}

/// The hull of a 3D cloud (see the module doc).
pub(crate) fn hull3(p: &[V3], tol: &Tol) -> Result<HullMesh, Degenerate> {
    let Reordered {
        points: q,
        original: orig,
    } = spatial_order(p);
    let all: Vec<u32> = (0..q.len() as u32).collect();
    let s = initial_simplex(&q, &all, tol.plane)?;
    let mut b = Builder {
        p: &q,
        t: tol.round,
        margin: tol.margin,
        tris: Vec::with_capacity(2 * q.len() + 4),
        free: Vec::new(),
        next: vec![NONE; q.len()],
        mark: Vec::new(),
        epoch: 0,
        work: Vec::new(),
        visible: Vec::new(),
        stack: Vec::new(),
        ring: Vec::new(),
        orphans: Vec::new(),
        fresh: Vec::new(),
        kept: Vec::new(),
    };
    b.tetrahedron(s)?;
    let rest: Vec<u32> = all.iter().copied().filter(|x| !s.contains(x)).collect();
    b.partition(&rest, &[0, 1, 2, 3], &[]);
    while let Some(f) = b.work.pop() {
        let tr = &b.tris[f as usize];
        if tr.alive && tr.out != NONE {
            let apex = tr.far.1;
            b.add(f, apex)?;
        }
    }
    // A point strictly inside the first tetrahedron, hence behind every facet.
    let inner = s.iter().fold([0.0; 3], |m, &i| {
        let x = q[i as usize];
        [m[0] + x[0] / 4.0, m[1] + x[1] / 4.0, m[2] + x[2] / 4.0]
    });
    let near = b.near_points();
    finish(&q, &orig, p.len(), tol, b.tris, near, inner)
}

/// The distinct points of `p` (the first of equal ones) in Morton (Z-curve) order, and
/// for each its index in `p`: the triangles of one region of the hull and the points
/// re-partitioned among them then lie close in memory (in input order, a 100 000-point
/// sphere spent most of its time waiting for memory).
fn spatial_order(p: &[V3]) -> Reordered {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for x in p {
        for k in 0..3 {
            lo[k] = lo[k].min(x[k]);
            hi[k] = hi[k].max(x[k]);
        }
    }
    // 21 bits per axis, interleaved.
    let cell = |x: f64, k: usize| {
        let w = hi[k] - lo[k];
        let u = if w > 0.0 { (x - lo[k]) / w } else { 0.0 };
        (u * f64::from((1u32 << 21) - 1)) as u64
    };
    let spread = |mut v: u64| {
        v &= 0x1f_ffff;
        v = (v | v << 32) & 0x1f_0000_0000_ffff;
        v = (v | v << 16) & 0x1f_0000_ff00_00ff;
        v = (v | v << 8) & 0x100f_00f0_0f00_f00f;
        v = (v | v << 4) & 0x10c3_0c30_c30c_30c3;
        (v | v << 2) & 0x1249_2492_4924_9249
    };
    let mut keyed: Vec<(u64, u32)> = p
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let key =
                spread(cell(x[0], 0)) | spread(cell(x[1], 1)) << 1 | spread(cell(x[2], 2)) << 2;
            (key, i as u32)
        })
        .collect();
    // Equal points have equal keys: sorted by key, then coordinates, then index, the
    // copies follow the first.
    keyed.sort_unstable_by(|&(ka, i), &(kb, j)| {
        let (a, b) = (p[i as usize], p[j as usize]);
        ka.cmp(&kb)
            .then(a[0].total_cmp(&b[0]))
            .then(a[1].total_cmp(&b[1]))
            .then(a[2].total_cmp(&b[2]))
            .then(i.cmp(&j))
    });
    keyed.dedup_by(|y, x| p[x.1 as usize] == p[y.1 as usize]);
    let original: Vec<u32> = keyed.iter().map(|&(_, i)| i).collect();
    Reordered {
        points: original.iter().map(|&i| p[i as usize]).collect(),
        original,
    }
}

/// A cloud in [`spatial_order`], duplicates removed.
struct Reordered {
    /// The distinct points, in Morton order.
    points: Vec<V3>,
    /// For each of them, its index in the input.
    original: Vec<u32>,
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
        assert!(h.faces.iter().all(|f| f.ring.len() == 4));
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

    /// The fourth point of the first tetrahedron is never one of the first three: for a
    /// triple 4.4e-13 off its line the plane through it is so ill-determined that its own
    /// points read 8.7e-8 off it, which picked one of them again (a tetrahedron with a
    /// repeated vertex, whose missing adjacency was then used as an index).
    #[test]
    fn nearly_collinear_triple_is_coplanar_not_a_repeated_vertex() {
        // The tolerance `Polytope` derives for this cloud in f64.
        let tol = Tol {
            plane: 3.85e-15,
            ..TOL
        };
        let p = [
            [
                0.06635327464668152,
                0.022409793605701153,
                0.009084592357647811,
            ],
            [
                -0.23394936985258055,
                0.13880099584257077,
                0.010073094326279869,
            ],
            [
                0.07395006438003096,
                0.019465432288020376,
                0.009059586112328794,
            ],
        ];
        assert_eq!(hull3(&p, &tol).unwrap_err(), Degenerate::Coplanar);
        // A fourth point as close to the line: coplanar within the rounding too.
        let mut four = p.to_vec();
        let mid: V3 = core::array::from_fn(|k| (p[0][k] + p[1][k]) / 2.0);
        four.push([mid[0], mid[1], mid[2] + 1e-13]);
        assert_eq!(hull3(&four, &tol).unwrap_err(), Degenerate::Coplanar);
        // Two points well off the line on either side: a hull with both as corners.
        four[3] = [0.0, 0.05, 0.5];
        four.push([0.0, -0.05, -0.5]);
        let h = hull3(&four, &tol).unwrap();
        assert!(h.vertices.contains(&3) && h.vertices.contains(&4), "{h:?}");
    }
}
