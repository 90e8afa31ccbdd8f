//! The 3D hull: quickhull over `f64` triangles with twin links and conflict lists (each
//! point outside the current hull belongs to the one facet it lies farthest in front of;
//! a removed facet's points are re-partitioned among the facets that replace it, never
//! against the whole hull). The consistency checks, the support graph and the merging
//! of coplanar triangles are in `mesh3.rs` (see the parent module's doc).

use super::mesh3::{Tri, edge_index, finish};
use super::{
    Degenerate, HullMesh, NONE, PLANE_ROUNDING, Tol, V3, cross, dot, len, line_distance, scaled,
    sub, unique,
};

/// Visibility marks of one insertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    Unseen,
    Visible,
    Hidden,
}

struct Builder<'a> {
    p: &'a [V3],
    /// A point more than `t` in front of a facet's plane is outside it.
    t: f64,
    /// An apex removes the facets it is more than `vis` in front of (`Tol::round`).
    vis: f64,
    /// Points within `margin` behind the hull stay (as `near` points) for the graph.
    margin: f64,
    tris: Vec<Tri>,
    /// Visibility marks of the current insertion: (epoch, mark).
    mark: Vec<(u32, Mark)>,
    epoch: u32,
    /// Facets whose outside set is not empty (may hold removed facets: skipped).
    work: Vec<u32>,
}

impl Builder<'_> {
    fn tri(&self, v: [u32; 3], adj: [u32; 3]) -> Tri {
        Tri::new(self.p, v, adj)
    }

    #[inline]
    fn dist(&self, f: u32, q: u32) -> f64 {
        let tr = &self.tris[f as usize];
        dot(tr.n, self.p[q as usize]) - tr.off
    }

    /// The facet index `f` if it is a valid link (the guard against a `NONE` left in the
    /// adjacency by a construction that rounding broke).
    #[inline]
    fn link(&self, f: u32) -> Result<u32, Degenerate> {
        if (f as usize) < self.tris.len() {
            Ok(f)
        } else {
            Err(Degenerate::Failed)
        }
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
            let tr = self.tri(*f, [NONE; 3]);
            if dot(tr.n, self.p[opposite as usize]) - tr.off > 0.0 {
                f.swap(1, 2);
            }
        }
        for f in faces {
            let tr = self.tri(f, [NONE; 3]);
            if tr.n == [0.0; 3] {
                return Err(Degenerate::Failed);
            }
            self.tris.push(tr);
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

    /// Whether the apex `q` removes the facet `nb` met across the edge `a → b` of a
    /// visible facet: `q` is more than the plane tests' rounding `vis` in front of it, or
    /// within `vis` of its plane and over its side of the edge, where the new facet
    /// `(a, b, q)` would fold over `nb` with its normal reversed.
    ///
    /// Not the outside tolerance `t`: for input coarser than `f64` it is much larger than
    /// the rounding (f32: 5.7e-6 at unit scale), and facets `q` sees by less than `t` then
    /// stayed; the horizon was no longer `q`'s silhouette, and the fan over it folded over
    /// its neighbours with reversed normals (f32 spheres of 50 000 points, f32 cylinders
    /// of 10 000), so that interior points read as outside them and the build failed.
    fn sees(&self, nb: u32, a: u32, b: u32, q: u32) -> bool {
        let d = self.dist(nb, q);
        if d > self.vis {
            return true;
        }
        if !(d > -self.vis) {
            return false;
        }
        let (pa, pb) = (self.p[a as usize], self.p[b as usize]);
        // `n × (b − a)` points away from `nb` in its plane (`nb` holds the edge `b → a`).
        let w = cross(self.tris[nb as usize].n, sub(pb, pa));
        dot(w, sub(self.p[q as usize], pa)) < 0.0
    }

    /// The facets `q` removes: a flood fill from `f0` through [`sees`](Self::sees).
    fn visible(&mut self, f0: u32, q: u32) -> Result<Vec<u32>, Degenerate> {
        self.epoch += 1;
        let e = self.epoch;
        self.mark.resize(self.tris.len(), (0, Mark::Unseen));
        self.mark[f0 as usize] = (e, Mark::Visible);
        let mut stack = vec![f0];
        let mut visible = vec![f0];
        while let Some(f) = stack.pop() {
            for k in 0..3 {
                let tr = &self.tris[f as usize];
                let (a, b) = (tr.v[k], tr.v[(k + 1) % 3]);
                let nb = self.link(tr.adj[k])?;
                // A facet hidden across one edge may still fold across another.
                if self.mark[nb as usize] == (e, Mark::Visible) {
                    continue;
                }
                if self.sees(nb, a, b, q) {
                    self.mark[nb as usize] = (e, Mark::Visible);
                    stack.push(nb);
                    visible.push(nb);
                } else {
                    self.mark[nb as usize] = (e, Mark::Hidden);
                }
            }
        }
        Ok(visible)
    }

    /// The horizon of the visible facets as one loop of `(a, b, hidden neighbour)`.
    fn horizon(&self, visible: &[u32]) -> Result<Vec<(u32, u32, u32)>, Degenerate> {
        let e = self.epoch;
        let mut edges = Vec::new();
        for &f in visible {
            let tr = &self.tris[f as usize];
            for k in 0..3 {
                if self.mark[tr.adj[k] as usize] != (e, Mark::Visible) {
                    edges.push((tr.v[k], tr.v[(k + 1) % 3], tr.adj[k]));
                }
            }
        }
        // Chain into one loop (each vertex starts exactly one edge).
        let n = edges.len();
        edges.sort_unstable_by_key(|h| h.0);
        if n < 3 || edges.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(Degenerate::Failed);
        }
        let mut ring = Vec::with_capacity(n);
        let mut cur = edges[0];
        for _ in 0..n {
            if !ring.is_empty() && cur == ring[0] {
                return Err(Degenerate::Failed); // several loops: the visible region has a hole
            }
            ring.push(cur);
            let k = edges
                .binary_search_by_key(&cur.1, |h| h.0)
                .map_err(|_| Degenerate::Failed)?;
            cur = edges[k];
        }
        if cur != ring[0] {
            return Err(Degenerate::Failed);
        }
        Ok(ring)
    }

    /// Adds the apex `q`, farthest outside facet `f0`: the visible facets are removed,
    /// a fan of new facets joins the horizon to `q`, and the removed facets' points are
    /// re-partitioned among the new facets (and the facets across the horizon).
    fn add(&mut self, f0: u32, q: u32) -> Result<(), Degenerate> {
        let visible = self.visible(f0, q)?;
        let ring = self.horizon(&visible)?;
        let mut orphans = Vec::new();
        for &f in &visible {
            let tr = &mut self.tris[f as usize];
            tr.alive = false;
            orphans.extend(tr.outside.drain(..).filter(|&x| x != q));
            orphans.append(&mut tr.near);
            tr.outside = Vec::new();
            tr.near = Vec::new();
        }
        // Fan from the horizon: facet i = (a, b, q), adj = [outside, next, previous].
        let n = ring.len();
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
        let kept: Vec<u32> = ring.iter().map(|h| h.2).collect();
        self.partition(&orphans, base..self.tris.len() as u32, &kept);
        Ok(())
    }

    /// Gives each point of `pts` to the facet of `new` it lies farthest in front of:
    /// its outside set if more than `t` in front, else its `near` set if at most `margin`
    /// behind. A point deeper than `margin` behind every new facet is tested against the
    /// facets of `kept` too (the hull's depth at a point is its smallest depth below any
    /// facet plane, and a point near the horizon can be shallow under a kept facet);
    /// deeper than `margin` there too, it is inside for good (the hull only grows).
    fn partition(&mut self, pts: &[u32], new: std::ops::Range<u32>, kept: &[u32]) {
        for &x in pts {
            let (mut best, mut arg) = (f64::NEG_INFINITY, NONE);
            for f in new.clone() {
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
                if tr.outside.is_empty() {
                    self.work.push(arg);
                    tr.far = (best, x);
                } else if best > tr.far.0 {
                    tr.far = (best, x);
                }
                tr.outside.push(x);
            } else if best >= -self.margin {
                self.tris[arg as usize].near.push(x);
            }
        }
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
    let uniq = unique(p);
    let s = initial_simplex(p, &uniq, tol.plane)?;
    let mut b = Builder {
        p,
        t: tol.plane,
        vis: tol.round,
        margin: tol.margin,
        tris: Vec::new(),
        mark: Vec::new(),
        epoch: 0,
        work: Vec::new(),
    };
    b.tetrahedron(s)?;
    let rest: Vec<u32> = uniq.iter().copied().filter(|q| !s.contains(q)).collect();
    b.partition(&rest, 0..4, &[]);
    while let Some(f) = b.work.pop() {
        let tr = &b.tris[f as usize];
        if tr.alive && !tr.outside.is_empty() {
            let apex = tr.far.1;
            b.add(f, apex)?;
        }
    }
    // A point strictly inside the first tetrahedron, hence behind every facet.
    let inner = s.iter().fold([0.0; 3], |m, &i| {
        let x = p[i as usize];
        [m[0] + x[0] / 4.0, m[1] + x[1] / 4.0, m[2] + x[2] / 4.0]
    });
    finish(p, &uniq, tol, b.tris, inner)
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
