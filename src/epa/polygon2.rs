//! 2D EPA: a convex polygon inside `A − B`, expanded at its edge closest to the origin
//! until that edge lies on the boundary (docs/epa.md §2).

use super::{Contact, Seed, seed, support};
use crate::{
    QueryError, Real, Termination, Tolerances,
    gjk::{Difference, Simplex, SupportPoint, coordinate_limit},
    linalg::any_axis,
    lit,
    real::{is_fixed, normalize},
    tolerance::Rounding,
    trace::{EpaStart, EpaStep, Observer},
};
use alloc::vec::Vec;
use nalgebra::{Point, Unit, Vector2};

/// The polygon's vertices, counter-clockwise, and the line of each edge `i → i + 1`
/// (`None` for a zero-length edge); reused between queries. The lines are computed once
/// per edge ([`edge`]: a root each), not at every step: on a curved `A − B` EPA runs to
/// its cap with a polygon of up to a thousand edges, and rescanning them made a
/// fixed-point contact take 33 ms (fuzz, `manifold_2d`: concentric round shapes).
#[derive(Clone, Debug)]
pub struct Polygon2<T: Real> {
    verts: Vec<SupportPoint<T, 2>>,
    lines: Vec<Option<Line<T>>>,
}

impl<T: Real> Default for Polygon2<T> {
    fn default() -> Self {
        Self {
            verts: Vec::new(),
            lines: Vec::new(),
        }
    }
}

/// An edge's line: its outward unit normal and the origin's distance behind it.
#[derive(Clone, Copy, Debug)]
struct Line<T: Real> {
    normal: Unit<Vector2<T>>,
    dist: T,
}

/// The polygon's edge nearest the origin: the index of its first vertex and its line.
#[derive(Clone, Copy)]
struct Nearest<T: Real> {
    first: usize,
    line: Line<T>,
}

/// The line of edge `p → q` of a counter-clockwise polygon, or `None` for a zero-length
/// edge.
#[inline]
fn edge<T: Real>(p: &Vector2<T>, q: &Vector2<T>) -> Option<Line<T>> {
    let e = q - p;
    let normal = normalize(&Vector2::new(e.y, -e.x))?;
    Some(Line {
        normal,
        dist: normal.dot(p),
    })
}

/// Twice the signed area of the polygon (positive: counter-clockwise).
fn area2<T: Real>(v: &[SupportPoint<T, 2>]) -> T {
    let mut s = T::zero();
    for i in 0..v.len() {
        let (p, q) = (&v[i].w, &v[(i + 1) % v.len()].w);
        s += p.x * q.y - p.y * q.x;
    }
    s
}

impl<T: Real> Polygon2<T> {
    pub(super) fn run<P, O>(
        &mut self,
        pair: &P,
        simplex: &Simplex<T, 2>,
        tol: &Tolerances<T>,
        obs: &mut O,
    ) -> Result<Contact<T, 2>, QueryError>
    where
        P: Difference<T, 2>,
        O: Observer<T, 2>,
    {
        let limit = coordinate_limit::<T, 2>();
        let iterations = match seed(pair, simplex, tol, limit, &mut self.verts)? {
            Seed::Flat(p) => return Ok(p),
            Seed::Simplex { iterations } => iterations,
        };
        if area2(&self.verts) < T::zero() {
            self.verts.reverse();
        }
        let n = self.verts.len();
        self.lines.clear();
        for i in 0..n {
            let line = edge(&self.verts[i].w, &self.verts[(i + 1) % n].w);
            self.lines.push(line);
        }
        if O::ACTIVE {
            obs.epa_start(&EpaStart {
                vertices: &self.verts,
                iterations,
            });
        }
        self.expand(pair, tol, limit, iterations, obs)
    }

    /// The expansion loop (docs/epa.md §2). Algorithm:
    /// 1. The edge nearest the origin ([`Self::closest_edge`]), its lower bound
    ///    `max(dist, 0)`; no edge with a line left: `Degenerate`, on edge 0.
    /// 2. The support `w` along its normal `n`, `h = n·w`; the smallest `h` seen is
    ///    `upper`, and its edge is kept (docs/epa.md §1).
    /// 3. The edge's own gap `h − lower` within `epa_rel · h` plus the rounding band:
    ///    `Converged`.
    /// 4. The iteration cap: `MaxIterations`, on the edge of the narrower own gap, this one
    ///    or the one that set `upper` (docs/epa.md §1).
    /// 5. `w` an end of the edge: `RepeatedSupport`.
    /// 6. `w` inserted, the edges it sees removed ([`Self::insert`]); `w` sees every edge:
    ///    `Degenerate`.
    ///
    /// Steps 3–6 finish on the edge that holds the origin's projection
    /// ([`Self::finish_holding`]), except a `MaxIterations` on the edge that set `upper`.
    fn expand<P, O>(
        &mut self,
        pair: &P,
        tol: &Tolerances<T>,
        limit: Option<T>,
        mut iterations: u32,
        obs: &mut O,
    ) -> Result<Contact<T, 2>, QueryError>
    where
        P: Difference<T, 2>,
        O: Observer<T, 2>,
    {
        let mut upper: Option<T> = None;
        // The edge whose support set `upper`: its witnesses are within `upper − dist` of
        // the surfaces (docs/epa.md §1), so a stop by the cap finishes on it.
        let mut probed: Option<Edge<T>> = None;
        let r = Rounding::of(tol);
        // The vertices' largest coordinate, kept as they are added and recomputed only
        // when an insertion removed some.
        let mut m = super::coords(&self.verts);
        loop {
            let Some(Nearest {
                first: i,
                line: Line { normal: n, dist },
            }) = self.closest_edge()
            else {
                let e = self.edge_at(0, any_axis(), T::zero());
                return Ok(e.finish(upper, iterations, Termination::Degenerate));
            };
            let lower = dist.max(T::zero());
            let here = self.edge_at(i, n, lower);
            // Past the cap only when the seed spent the budget: without a support the
            // depth would have no upper bound.
            let w = support(pair, &n, limit)?;
            iterations += 1;
            let wd = n.dot(&w.w);
            if upper.is_none_or(|u| wd < u) {
                (upper, probed) = (Some(wd), Some(here));
            }
            if O::ACTIVE {
                let n_verts = self.verts.len();
                obs.epa_step(&EpaStep {
                    iteration: iterations,
                    vertices: &self.verts,
                    faces: n_verts,
                    feature: [i, (i + 1) % n_verts],
                    normal: n,
                    distance: dist,
                    support: w,
                    lower,
                    upper: upper.unwrap_or(wd),
                });
            }
            m = m.max(super::coords(&[w]));
            // The edge's own support closes the gap, not only the best seen (`upper ≤
            // wd`): an earlier edge's support closed the bounds while this edge's normal
            // was 114° off, the shapes overlapping by 1.6207 along it, not the depth
            // 1.6054 (FixedI40F24, fuzz seed 7972283 of `manifold_2d_fixed`).
            if wd - lower <= tol.epa_rel * wd + r.band(m) {
                return Ok(self.finish_holding(i, here, upper, iterations, Termination::Converged));
            }
            if iterations >= tol.epa_max_iterations {
                // The edge of the narrower own gap, this one (the best lower bound) or the
                // one whose support set `upper` (docs/epa.md §1, `MaxIterations`).
                let (p, u) = (probed.unwrap_or(here), upper.unwrap_or(wd));
                if u - p.lower < wd - lower {
                    return Ok(p.finish(Some(u), iterations, Termination::MaxIterations));
                }
                let cap = Termination::MaxIterations;
                return Ok(self.finish_holding(i, here, Some(wd), iterations, cap));
            }
            let j = (i + 1) % self.verts.len();
            if w.w == self.verts[i].w || w.w == self.verts[j].w {
                return Ok(self.finish_holding(
                    i,
                    here,
                    upper,
                    iterations,
                    Termination::RepeatedSupport,
                ));
            }
            let before = self.verts.len();
            if !self.insert(i, w) {
                return Ok(self.finish_holding(
                    i,
                    here,
                    upper,
                    iterations,
                    Termination::Degenerate,
                ));
            }
            if self.verts.len() <= before {
                m = super::coords(&self.verts);
            }
        }
    }

    /// Edge `i` with normal `n` at distance `lower`, copied out of the polygon.
    fn edge_at(&self, i: usize, n: Unit<Vector2<T>>, lower: T) -> Edge<T> {
        let m = self.verts.len();
        Edge {
            p: self.verts[i % m],
            q: self.verts[(i + 1) % m],
            n,
            lower,
        }
    }

    /// `here.finish` (edge `i`), or the same on the edge the origin's projection falls on
    /// when it falls past an end of edge `i`: the nearest edge is chosen by distances
    /// rounded to the vertices' magnitude, so among nearly collinear edges it can be a
    /// neighbour of the one holding the projection, whose clamped projection is then a
    /// vertex up to the edges' length away (FixedI40F24, a flat ellipse in `A − B`:
    /// witnesses 0.033 off `separation · normal`, fuzz seed 71152061 of `query_2d_fixed`).
    /// Keeps `here`'s normal and bounds, which its own support proved; walks one way, at
    /// most once round.
    fn finish_holding(
        &self,
        i: usize,
        here: Edge<T>,
        upper: Option<T>,
        iterations: u32,
        termination: Termination,
    ) -> Contact<T, 2> {
        let m = self.verts.len();
        let mut at = here.projection();
        let mut e = here;
        if let Some(way) = at.beyond {
            let mut k = i;
            for _ in 1..m {
                k = match way {
                    Beyond::End => (k + 1) % m,
                    Beyond::Start => (k + m - 1) % m,
                };
                e = self.edge_at(k, here.n, here.lower);
                at = e.projection();
                if at.beyond != Some(way) {
                    // `e` holds the projection or clamps it to the vertex it shares with
                    // the edge before: either way the boundary's nearest point.
                    break;
                }
            }
        }
        e.finish_at(at.t, upper, iterations, termination)
    }

    /// The edge nearest the origin (the first of equals).
    fn closest_edge(&self) -> Option<Nearest<T>> {
        let mut best: Option<Nearest<T>> = None;
        for (i, line) in self.lines.iter().enumerate() {
            if let Some(line) = *line
                && best.as_ref().is_none_or(|b| line.dist < b.line.dist)
            {
                best = Some(Nearest { first: i, line });
            }
        }
        best
    }

    /// Inserts `w` beyond edge `i`, removing the chain of edges that see it so the polygon
    /// stays convex. `false` if `w` sees every edge (the origin is not inside).
    fn insert(&mut self, i: usize, w: SupportPoint<T, 2>) -> bool {
        let n = self.verts.len();
        let sees = |k: usize| {
            let p = &self.verts[k % n].w;
            self.lines[k % n].is_none_or(|l| l.normal.dot(&(w.w - p)) > T::zero())
        };
        // The visible edges form one chain [lo, hi] (mod n) containing i.
        let (mut lo, mut hi) = (i + n, i + n);
        while hi - lo + 1 < n && sees(lo - 1) {
            lo -= 1;
        }
        while hi - lo + 1 < n && sees(hi + 1) {
            hi += 1;
        }
        if hi - lo + 1 >= n {
            return false;
        }
        // Vertices lo+1 ..= hi lie inside the chain; w takes their place, at `at`, with no
        // allocation. Edge lo (now lo → w) is made again, and the new edge w → hi+1 takes
        // the chain's place in the lines.
        let (first, gone) = ((lo + 1) % n, hi - lo);
        let at = if first + gone > n {
            // The chain wraps past the end: its tail and head go, w ends the arrays.
            let head = first + gone - n;
            self.verts.truncate(first);
            self.verts.drain(..head);
            self.lines.truncate(first);
            self.lines.drain(..head);
            self.verts.push(w);
            self.lines.push(None);
            self.verts.len() - 1
        } else if gone == 0 {
            self.verts.insert(first, w);
            self.lines.insert(first, None);
            first
        } else {
            self.verts[first] = w;
            self.verts.drain(first + 1..first + gone);
            self.lines.drain(first + 1..first + gone);
            first
        };
        let k = self.verts.len();
        let line = |p: usize, q: usize| edge(&self.verts[p % k].w, &self.verts[q % k].w);
        let (into_w, out_of_w) = (line(at + k - 1, at), line(at, at + 1));
        self.lines[(at + k - 1) % k] = into_w;
        self.lines[at] = out_of_w;
        true
    }
}

/// Which end of an edge `p → q` the origin's projection fell beyond.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Beyond {
    /// Before `p`.
    Start,
    /// Past `q`.
    End,
}

/// The origin's projection onto an edge `p → q`: `p + t (q − p)`.
#[derive(Clone, Copy)]
struct EdgeProjection<T> {
    /// The parameter, clamped to [0, 1].
    t: T,
    /// The end it was clamped to; `None` on the edge (or a zero-length edge).
    beyond: Option<Beyond>,
}

/// The origin's [`EdgeProjection`] onto edge `p → q`. Fixed-point solves in f64 (its values convert
/// exactly): on a short edge `p · e` and `e · e` are a few ulps, and `t` from them was off
/// by 0.17, the witnesses 1.4e-4 off `separation · normal` (a flat ellipse in `A − B`,
/// tests/fuzz_findings.rs F10).
#[inline]
fn projection<T: Real>(p: &Vector2<T>, q: &Vector2<T>) -> EdgeProjection<T> {
    if is_fixed::<T>()
        && let (Some(p), Some(q)) = (wide(p), wide(q))
    {
        let wide = projection::<f64>(&p, &q);
        return EdgeProjection {
            t: lit(wide.t),
            beyond: wide.beyond,
        };
    }
    let e = q - p;
    let (s, ee) = (-p.dot(&e), e.norm_squared());
    let (t, beyond) = if ee <= T::zero() || (s >= T::zero() && s <= ee) {
        let t = if ee > T::zero() { s / ee } else { T::zero() };
        (t, None)
    } else if s > ee {
        (T::one(), Some(Beyond::End))
    } else {
        (T::zero(), Some(Beyond::Start))
    };
    EdgeProjection { t, beyond }
}

/// `v` in f64, `None` if a coordinate does not convert.
fn wide<T: Real>(v: &Vector2<T>) -> Option<Vector2<f64>> {
    Some(Vector2::new(v.x.to_subset()?, v.y.to_subset()?))
}

/// An edge of the polygon: its ends, outward normal and distance from the origin.
#[derive(Clone, Copy)]
struct Edge<T: Real> {
    p: SupportPoint<T, 2>,
    q: SupportPoint<T, 2>,
    n: Unit<Vector2<T>>,
    lower: T,
}

impl<T: Real> Edge<T> {
    /// The origin's projection onto the edge ([`projection`]).
    fn projection(&self) -> EdgeProjection<T> {
        projection(&self.p.w, &self.q.w)
    }

    /// The result on this edge: the origin's projection onto it and the witnesses there.
    fn finish(&self, upper: Option<T>, iterations: u32, termination: Termination) -> Contact<T, 2> {
        self.finish_at(self.projection().t, upper, iterations, termination)
    }

    /// The result at `p + t (q − p)` on this edge.
    fn finish_at(
        &self,
        t: T,
        upper: Option<T>,
        iterations: u32,
        termination: Termination,
    ) -> Contact<T, 2> {
        let (p, q, lower) = (&self.p, &self.q, self.lower);
        let lerp = |x: &Point<T, 2>, y: &Point<T, 2>| x + (y - x) * t;
        Contact {
            separation: -lower,
            normal: self.n,
            point_a: lerp(&p.a, &q.a),
            point_b: lerp(&p.b, &q.b),
            lower_bound: -(upper.unwrap_or(lower).max(lower)),
            upper_bound: -lower,
            iterations,
            termination,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A regular `n`-gon of radius 1 around the origin, counter-clockwise, turned by `turn`.
    fn regular<T: Real>(n: usize, turn: f64) -> Polygon2<T> {
        let mut p = Polygon2::default();
        for k in 0..n {
            let a = turn + core::f64::consts::TAU * k as f64 / n as f64;
            let w = Point::from(Vector2::new(lit::<T>(a.cos()), lit::<T>(a.sin())));
            p.verts.push(SupportPoint::new(w, Point::origin()));
        }
        for k in 0..n {
            p.lines.push(edge(&p.verts[k].w, &p.verts[(k + 1) % n].w));
        }
        p
    }

    /// `insert` against brute force, for every edge, chain length and position (chains
    /// that wrap past the arrays' end, and those that do not): the vertices left are those
    /// with an edge `w` does not see, in their cyclic order, with `w` between the chain's
    /// ends; every line is its edge's, recomputed.
    fn insert_keeps_order_and_lines<T: Real>() {
        for n in 3..=9 {
            for i in 0..n {
                // Beyond edge i's midpoint, out to where w sees up to n − 2 edges.
                for r in [1.05, 1.5, 3.0, 8.0, 40.0] {
                    let mut p = regular::<T>(n, 0.1);
                    let mid = (p.verts[i].w + p.verts[(i + 1) % n].w) * lit::<T>(0.5);
                    let w = SupportPoint::new(Point::from(mid * lit::<T>(r)), Point::origin());
                    let sees = |k: usize| {
                        let l = p.lines[k].unwrap();
                        l.normal.dot(&(w.w - p.verts[k].w)) > T::zero()
                    };
                    let seen: Vec<bool> = (0..n).map(sees).collect();
                    if seen.iter().all(|&s| s) {
                        continue;
                    }
                    // Vertex k stays unless both its edges (k − 1 and k) are seen.
                    let kept: Vec<Vector2<T>> = (0..n)
                        .filter(|&k| !(seen[(k + n - 1) % n] && seen[k]))
                        .map(|k| p.verts[k].w)
                        .collect();
                    assert!(p.insert(i, w), "n {n} edge {i} r {r}");
                    let m = p.verts.len();
                    assert_eq!(m, kept.len() + 1, "n {n} edge {i} r {r}");
                    let at = p.verts.iter().position(|v| v.w == w.w).unwrap();
                    // After w: the kept vertices in order, from the one after the chain.
                    let after: Vec<Vector2<T>> = (1..m).map(|k| p.verts[(at + k) % m].w).collect();
                    let start = kept.iter().position(|v| *v == after[0]).unwrap();
                    let expect: Vec<Vector2<T>> = (0..kept.len())
                        .map(|k| kept[(start + k) % kept.len()])
                        .collect();
                    assert_eq!(after, expect, "n {n} edge {i} r {r}");
                    assert_eq!(p.lines.len(), m);
                    for k in 0..m {
                        let l = edge(&p.verts[k].w, &p.verts[(k + 1) % m].w);
                        let same = match (l, p.lines[k]) {
                            (Some(a), Some(b)) => a.normal == b.normal && a.dist == b.dist,
                            (None, None) => true,
                            _ => false,
                        };
                        assert!(same, "n {n} edge {i} r {r} line {k}");
                    }
                }
            }
        }
    }

    crate::real::scalar_cases!(insert_keeps_order_and_lines);
}
