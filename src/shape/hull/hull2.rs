//! The 2D hull: Andrew's monotone chain (see the parent module's doc).

use super::{
    Csr, Degenerate, HullFace, HullMesh, Link, Tol, V3, csr, dot, len, segment_distance2, sub,
    unique,
};
use crate::tolerance::hull::LOST;
use alloc::vec::Vec;
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// The hull of a planar cloud (`z` ignored): Andrew's monotone chain, dropping vertices
/// within `tol.plane` of the line through their neighbours. Algorithm:
/// 1. The distinct points ([`unique`]), sorted by x, then y; fewer than 3, within
///    `tol.plane` of each other: `Point`.
/// 2. The two chains (the sorted points forward, then backward): a point stays only more
///    than `tol.plane` right of the line from its predecessor to the next point; within
///    that but past the next point, the next point is dropped (not a chain's end).
/// 3. Fewer than 3 vertices: `Point` or `Collinear`, by the cloud's spread.
/// 4. One face per edge, with its outward normal (a zero-length edge: `Failed`).
/// 5. Each other point: the edge crossed by the ray from an interior point through it
///    ([`Fan`]); in front of it by more than `LOST · tol.plane`: `Failed`.
/// 6. A descent to the nearest edge; no more than `tol.margin` behind its line or the
///    crossed edge's, the point joins the support graph, linked to the nearest edge's ends.
/// 7. The graph in CSR form ([`csr`]); the vertices sorted.
pub(crate) fn hull2(p: &[V3], tol: &Tol) -> Result<HullMesh, Degenerate> {
    let t = tol.plane;
    let uniq = unique(p); // sorted by x, then y
    let (first, last) = (p[uniq[0] as usize], p[uniq[uniq.len() - 1] as usize]);
    if uniq.len() < 3 && len(sub(last, first)) <= t {
        return Err(Degenerate::Point);
    }
    // Keep `a` between `o` and `b` if it lies more than `t` to the right of o→b; within
    // `t` of the line but beyond `b` along it, `b` is the point between (equal x sort by
    // y, so a nearly vertical chain can arrive out of order along its line): drop `b`.
    enum Turn {
        Keep,
        DropA,
        DropB,
    }
    let turn = |o: V3, a: V3, b: V3| {
        let (oa, ob) = (sub(a, o), sub(b, o));
        let (cross, lb) = (oa[0] * ob[1] - oa[1] * ob[0], len(ob));
        if cross > t * lb {
            Turn::Keep
        } else if cross >= -t * lb && dot(oa, ob) > lb * lb {
            Turn::DropB
        } else {
            Turn::DropA
        }
    };
    let mut h: Vec<u32> = Vec::with_capacity(uniq.len() + 1);
    for pass in 0..2 {
        let start = h.len();
        // The chain's last point (the other chain's first) is never dropped.
        let push = |q: u32, end: bool, h: &mut Vec<u32>| {
            while h.len() >= start + 2 {
                let (o, a) = (p[h[h.len() - 2] as usize], p[h[h.len() - 1] as usize]);
                match turn(o, a, p[q as usize]) {
                    Turn::Keep => break,
                    Turn::DropB if !end => return,
                    _ => {
                        h.pop();
                    }
                }
            }
            h.push(q);
        };
        let m = uniq.len();
        if pass == 0 {
            (0..m).for_each(|i| push(uniq[i], i + 1 == m, &mut h));
        } else {
            (0..m).rev().for_each(|i| push(uniq[i], i == 0, &mut h));
        }
        h.pop(); // the last point of each chain starts the other one
    }
    if h.len() < 3 {
        let spread = uniq
            .iter()
            .map(|&q| len(sub(p[q as usize], first)))
            .fold(0.0, f64::max);
        return Err(if spread <= t {
            Degenerate::Point
        } else {
            Degenerate::Collinear
        });
    }
    let n = h.len();
    let mut faces = Vec::with_capacity(n);
    let mut links: Vec<Link> = Vec::with_capacity(2 * n);
    for i in 0..n {
        let (a, b) = (h[i], h[(i + 1) % n]);
        let e = sub(p[b as usize], p[a as usize]);
        let l = len(e);
        if !(l > 0.0) {
            return Err(Degenerate::Failed);
        }
        faces.push(HullFace {
            ring: vec![a as usize, b as usize],
            normal: [e[1] / l, -e[0] / l, 0.0],
        });
        links.push(Link { a, b });
    }
    // Points near the boundary join the graph, linked to their nearest edge's endpoints.
    // The edge crossed by the ray from an interior point through `x` (a binary search by
    // angle), then a descent to nearer edges: no scan of every edge for every point.
    let mut is_vertex = vec![false; p.len()];
    h.iter().for_each(|&v| is_vertex[v as usize] = true);
    let fan = Fan::new(p, &h);
    let mut nodes = h.clone();
    for &q in &uniq {
        if is_vertex[q as usize] {
            continue;
        }
        let x = p[q as usize];
        let plane = |k: usize| dot(faces[k].normal, sub(x, p[faces[k].ring[0]]));
        let crossed = fan.edge(x);
        // Outside the polygon exactly when in front of the edge the ray crosses.
        if plane(crossed) > LOST * t {
            return Err(Degenerate::Failed);
        }
        let seg = |k: usize| segment_distance2(p[faces[k].ring[0]], p[faces[k].ring[1]], x);
        let (mut k, mut best) = (crossed, seg(crossed));
        loop {
            let (prev, next) = ((k + n - 1) % n, (k + 1) % n);
            let (dp, dn) = (seg(prev), seg(next));
            if dp < best && dp <= dn {
                (k, best) = (prev, dp);
            } else if dn < best {
                (k, best) = (next, dn);
            } else {
                break;
            }
        }
        if plane(k).max(plane(crossed)) >= -tol.margin {
            nodes.push(q);
            links.push(Link {
                a: q,
                b: faces[k].ring[0] as u32,
            });
            links.push(Link {
                a: q,
                b: faces[k].ring[1] as u32,
            });
        }
    }
    nodes.sort_unstable();
    let corner: Vec<bool> = nodes.iter().map(|&v| is_vertex[v as usize]).collect();
    let Csr { offsets, nbrs } = csr(&nodes, p.len(), &links);
    let mut vertices: Vec<usize> = h.iter().map(|&v| v as usize).collect();
    vertices.sort_unstable();
    Ok(HullMesh {
        vertices,
        faces,
        facets: n,
        nodes,
        corner,
        offsets,
        nbrs,
    })
}

/// The polygon's vertices by angle about an interior point (the centroid of three of
/// them), for finding the edge a ray from that point crosses.
struct Fan {
    c: V3,
    /// Ascending by angle.
    by_angle: Vec<Spoke>,
}

/// A polygon vertex seen from the fan's interior point: its angle, and the edge it starts
/// (edge `i` runs from vertex `i` to `i + 1`).
#[derive(Clone, Copy)]
struct Spoke {
    angle: f64,
    edge: usize,
}

impl Fan {
    fn new(p: &[V3], h: &[u32]) -> Self {
        let n = h.len();
        let (a, b, c) = (
            p[h[0] as usize],
            p[h[n / 3] as usize],
            p[h[2 * n / 3] as usize],
        );
        let c = [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0, 0.0];
        let mut by_angle: Vec<Spoke> = h
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let d = sub(p[v as usize], c);
                Spoke {
                    angle: d[1].atan2(d[0]),
                    edge: i,
                }
            })
            .collect();
        by_angle.sort_unstable_by(|x, y| x.angle.total_cmp(&y.angle));
        Self { c, by_angle }
    }

    /// The edge whose angular sector about the interior point holds `x`.
    fn edge(&self, x: V3) -> usize {
        let d = sub(x, self.c);
        let a = d[1].atan2(d[0]);
        // The last vertex at or below the angle starts the edge (wrapping to the last).
        let k = self.by_angle.partition_point(|e| e.angle <= a);
        let k = if k == 0 {
            self.by_angle.len() - 1
        } else {
            k - 1
        };
        self.by_angle[k].edge
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::hull::TEST_TOL as TOL;

    #[test]
    fn degenerate_clouds_are_reported() {
        assert_eq!(
            hull2(&[[0.0; 3], [1.0, 1.0, 0.0], [3.0, 3.0, 0.0]], &TOL).unwrap_err(),
            Degenerate::Collinear
        );
        assert_eq!(
            hull2(&[[1.0, 1.0, 0.0]; 3], &TOL).unwrap_err(),
            Degenerate::Point
        );
    }

    #[test]
    fn square_has_four_ccw_edges() {
        let p = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.5, 0.0, 0.0],
            [0.5, 0.5, 0.0],
        ];
        let h = hull2(&p, &TOL).unwrap();
        assert_eq!(h.faces.len(), 4);
        assert_eq!(h.faces[0].ring, vec![0, 1]);
        assert_eq!(h.faces[0].normal, [0.0, -1.0, 0.0]);
        assert!(h.nodes.contains(&4) && !h.nodes.contains(&5));
    }
}
