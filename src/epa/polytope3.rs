//! 3D EPA: a polytope of triangles inside `A − B`, faces in a binary heap by distance,
//! adjacency links, expansion by the silhouette (horizon) seen from each new support point
//! (van den Bergen 2001; SOLID 3's `penDepth`; docs/epa.md §3).

use super::{Contact, Seed, seed, support, touching};
use crate::{
    QueryError, Real, Termination, Tolerances,
    gjk::{self, Difference, Simplex, SupportPoint, coordinate_limit},
    linalg::any_axis,
    real::normalize,
    tolerance::{Rounding, allowance, ulps},
    trace::{EpaStart, EpaStep, Observer},
};
use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Ordering;
use nalgebra::{Point3, Unit, Vector3};

/// An edge of a face: edge `edge` of face `face` runs `v[edge] → v[edge + 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct EdgeRef {
    face: u32,
    edge: u8,
}

impl EdgeRef {
    /// No face across: a hole in the adjacency.
    const NONE: Self = Self {
        face: u32::MAX,
        edge: 0,
    };

    fn new(face: u32, edge: usize) -> Self {
        Self {
            face,
            edge: edge as u8,
        }
    }

    /// The edge `k` places further round the same face.
    fn turned(self, k: usize) -> usize {
        (self.edge as usize + k) % 3
    }
}

/// A triangle `v[0] v[1] v[2]`, counter-clockwise seen from outside. `adj[k]` is the edge
/// of the face across edge `v[k] → v[k+1]` that is the same edge.
#[derive(Clone, Debug)]
struct Face<T: Real> {
    v: [u32; 3],
    adj: [EdgeRef; 3],
    /// Outward unit normal (zero for a degenerate triangle).
    n: Vector3<T>,
    /// Distance of the face's plane from the origin.
    dist: T,
    live: bool,
}

/// A heap entry: faces ordered by distance, nearest first.
#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    dist: T,
    face: u32,
}

impl<T: PartialOrd> PartialEq for Entry<T> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl<T: PartialOrd> Eq for Entry<T> {}
impl<T: PartialOrd> PartialOrd for Entry<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T: PartialOrd> Ord for Entry<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap. Ties by index, for determinism.
        o.dist
            .partial_cmp(&self.dist)
            .unwrap_or(Ordering::Equal)
            .then(o.face.cmp(&self.face))
    }
}

/// The expanding polytope; reused between queries.
#[derive(Clone, Debug)]
pub struct Polytope3<T: Real> {
    verts: Vec<SupportPoint<T, 3>>,
    faces: Vec<Face<T>>,
    heap: BinaryHeap<Entry<T>>,
    horizon: Vec<EdgeRef>,
    stack: Vec<EdgeRef>,
    fresh: Vec<u32>,
}

impl<T: Real> Default for Polytope3<T> {
    fn default() -> Self {
        Self {
            verts: Vec::new(),
            faces: Vec::new(),
            heap: BinaryHeap::new(),
            horizon: Vec::new(),
            stack: Vec::new(),
            fresh: Vec::new(),
        }
    }
}

/// How `init` ended: an expandable polytope, or already an answer.
enum Start<T: Real> {
    Polytope(u32),
    Done(Contact<T, 3>),
}

impl<T: Real> Polytope3<T> {
    pub(super) fn run<P, O>(
        &mut self,
        pair: &P,
        simplex: &Simplex<T, 3>,
        tol: &Tolerances<T>,
        obs: &mut O,
    ) -> Result<Contact<T, 3>, QueryError>
    where
        P: Difference<T, 3>,
        O: Observer<T, 3>,
    {
        let limit = coordinate_limit::<T, 3>();
        match self.init(pair, simplex, tol, limit)? {
            Start::Done(p) => Ok(p),
            Start::Polytope(iterations) => {
                if O::ACTIVE {
                    obs.epa_start(&EpaStart {
                        vertices: &self.verts,
                        iterations,
                    });
                }
                self.expand(pair, tol, limit, iterations, obs)
            }
        }
    }

    /// The initial polytope: the tetrahedron [`super::seed`] chooses around the origin
    /// from GJK's simplex (docs/epa.md §3.1), faces oriented outward and linked; a flat
    /// `A − B` is already the (touching) answer.
    fn init<P>(
        &mut self,
        pair: &P,
        simplex: &Simplex<T, 3>,
        tol: &Tolerances<T>,
        limit: Option<T>,
    ) -> Result<Start<T>, QueryError>
    where
        P: Difference<T, 3>,
    {
        self.faces.clear();
        self.heap.clear();
        let mut iterations = match seed(pair, simplex, tol, limit, &mut self.verts)? {
            Seed::Flat(p) => return Ok(Start::Done(p)),
            Seed::Simplex { iterations } => iterations,
        };
        // The origin must be inside (within the touching band). If it is outside a face
        // that `A − B` extends beyond (the barycentric test passed on rounding: the face is
        // inside `A − B`), the vertex opposite is replaced by the support beyond the face;
        // if `A − B` does not extend beyond it, the contact is touching across it.
        let r = Rounding::of(tol);
        for round in 0.. {
            let flat = r.residual(super::coords(&self.verts), 3);
            self.faces.clear();
            for f in [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]] {
                self.add_face(f);
            }
            self.orient_and_link();
            let Some(f) = self
                .faces
                .iter()
                .filter(|f| f.dist < -flat)
                .min_by(|x, y| x.dist.partial_cmp(&y.dist).unwrap_or(Ordering::Equal))
            else {
                break;
            };
            let (n, fv) = (f.n, f.v);
            let w = support(pair, &n, limit)?;
            iterations += 1;
            if round >= crate::tolerance::factor::CONTAIN_ROUNDS
                || n.dot(&w.w) <= flat
                || self.verts.iter().any(|p| p.w == w.w)
            {
                let p = super::nearest(&self.verts, fv.iter().map(|&i| i as usize), tol);
                return Ok(Start::Done(touching(
                    &p,
                    Unit::new_unchecked(n),
                    iterations,
                )));
            }
            let opposite = (0..4).find(|i| !fv.contains(&(*i as u32))).unwrap_or(3);
            self.verts[opposite] = w;
        }
        for (i, f) in self.faces.iter().enumerate() {
            if f.n != Vector3::zeros() {
                self.heap.push(Entry {
                    dist: f.dist,
                    face: i as u32,
                });
            }
        }
        Ok(Start::Polytope(iterations))
    }

    /// Adds face `v` (any orientation), with its plane; `adj` is filled by `orient_and_link`.
    fn add_face(&mut self, v: [u32; 3]) -> u32 {
        let Plane { n, dist } = self.plane(v);
        self.faces.push(Face {
            v,
            adj: [EdgeRef::NONE; 3],
            n,
            dist,
            live: true,
        });
        (self.faces.len() - 1) as u32
    }

    /// The outward unit normal (for counter-clockwise `v`) and the plane's distance from the
    /// origin; a zero normal and an infinite distance for a degenerate triangle.
    fn plane(&self, v: [u32; 3]) -> Plane<T> {
        let [p, q, r] = v.map(|i| self.verts[i as usize].w);
        match normalize(&(q - p).cross(&(r - p))) {
            Some(n) => {
                // The plane offset from the vertex nearest the origin: fewest digits lost.
                let d = [p, q, r]
                    .iter()
                    .map(|x| n.dot(x))
                    .fold(None, |m: Option<T>, x| {
                        Some(m.map_or(x, |m| if x.abs() < m.abs() { x } else { m }))
                    });
                Plane {
                    n: n.into_inner(),
                    dist: d.unwrap_or(T::zero()),
                }
            }
            None => Plane {
                n: Vector3::zeros(),
                dist: T::max_value().unwrap_or(T::one()),
            },
        }
    }

    /// Orients the initial faces outward (seen from the centroid, an interior point) and
    /// links them across shared edges.
    fn orient_and_link(&mut self) {
        let nv = T::from_subset(&(self.verts.len() as f64));
        let c = self.verts.iter().fold(Vector3::zeros(), |s, p| s + p.w) / nv;
        for i in 0..self.faces.len() {
            let f = &self.faces[i];
            if f.n.dot(&(self.verts[f.v[0] as usize].w - c)) < T::zero() {
                let v = [f.v[0], f.v[2], f.v[1]];
                let Plane { n, dist } = self.plane(v);
                self.faces[i].v = v;
                self.faces[i].n = n;
                self.faces[i].dist = dist;
            }
        }
        let m = self.faces.len();
        for i in 0..m {
            for k in 0..3 {
                let (s, t) = (self.faces[i].v[k], self.faces[i].v[(k + 1) % 3]);
                for j in 0..m {
                    if let Some(l) = (0..3)
                        .find(|&l| self.faces[j].v[l] == t && self.faces[j].v[(l + 1) % 3] == s)
                    {
                        self.faces[i].adj[k] = EdgeRef::new(j as u32, l);
                    }
                }
            }
        }
    }

    /// The expansion loop (docs/epa.md §3.2). Algorithm:
    /// 1. The nearest live face off the heap, its lower bound `max(dist, 0)`; the heap
    ///    empty: `Degenerate`, on the last face popped.
    /// 2. A distance below the best popped by more than the larger of the rounding band
    ///    and the bounds' gap (a horizon on noisy normals left the polytope non-convex):
    ///    `NoProgress`, on the face that set `upper`.
    /// 3. The support `w` along the face's normal `n`, `h = n·w`; the smallest `h` seen is
    ///    `upper`, and its face is kept (docs/epa.md §1).
    /// 4. The face's own gap `h − lower` within `epa_rel · h` plus the rounding band:
    ///    `Converged`.
    /// 5. The iteration cap: `MaxIterations`, on the face of the narrower own gap, this one
    ///    or the one that set `upper` (docs/epa.md §1).
    /// 6. `w` a vertex of the face: `RepeatedSupport`.
    /// 7. The silhouette ([`Self::grow`]): the faces `w` sees removed, a fan from `w` to the
    ///    horizon added and pushed on the heap; no valid horizon: `Degenerate`.
    ///
    /// Every stop answers through [`Self::finish`].
    fn expand<P, O>(
        &mut self,
        pair: &P,
        tol: &Tolerances<T>,
        limit: Option<T>,
        mut iterations: u32,
        obs: &mut O,
    ) -> Result<Contact<T, 3>, QueryError>
    where
        P: Difference<T, 3>,
        O: Observer<T, 3>,
    {
        let mut upper: Option<T> = None;
        let mut last: Option<u32> = None;
        // The highest distance popped (the best proven lower bound), and the face whose
        // support set `upper`: its witnesses are within `upper − dist` of the surfaces.
        let (mut best, mut probed): (Option<T>, Option<u32>) = (None, None);
        let r = Rounding::of(tol);
        loop {
            let Some(Entry { face, .. }) = self.heap.pop() else {
                let f = last.unwrap_or(0);
                return Ok(self.finish(f, upper, iterations, Termination::Degenerate, &r));
            };
            if !self.faces[face as usize].live {
                continue;
            }
            last = Some(face);
            let (n, dist) = (self.faces[face as usize].n, self.faces[face as usize].dist);
            let lower = dist.max(T::zero());
            // Popped distances never decrease in exact arithmetic. A drop beyond the
            // rounding and the bounds' gap means a horizon found on noisy sliver normals
            // left the polytope non-convex (docs/epa.md §3.2): stop on the probed face.
            let m = super::coords(&self.faces[face as usize].v.map(|i| self.verts[i as usize]));
            if let (Some(bd), Some(u)) = (best, upper)
                && dist < bd - r.band(m).max(u - bd)
            {
                let f = probed.unwrap_or(face);
                return Ok(self.finish(f, upper, iterations, Termination::NoProgress, &r));
            }
            best = Some(best.map_or(dist, |bd| bd.max(dist)));
            // Past the cap only when the seed spent the budget: without a support the
            // depth would have no upper bound (docs/epa.md §1).
            let w = support(pair, &n, limit)?;
            iterations += 1;
            let wd = n.dot(&w.w);
            if upper.is_none_or(|u| wd < u) {
                (upper, probed) = (Some(wd), Some(face));
            }
            let up = upper.unwrap_or(wd);
            if O::ACTIVE {
                obs.epa_step(&EpaStep {
                    iteration: iterations,
                    vertices: &self.verts,
                    faces: self.faces.iter().filter(|f| f.live).count(),
                    feature: self.faces[face as usize].v.map(|i| i as usize),
                    normal: Unit::new_unchecked(n),
                    distance: dist,
                    support: w,
                    lower,
                    upper: up,
                });
            }
            let f = &self.faces[face as usize];
            let m = f.v.iter().fold(super::coords(&[w]), |m, &i| {
                m.max(super::coords(&[self.verts[i as usize]]))
            });
            // The face's own support closes the gap, not only the best seen (`up ≤ wd`):
            // the normal is then one along which the shapes overlap by the depth.
            if wd - lower <= tol.epa_rel * wd + r.band(m) {
                return Ok(self.finish(face, upper, iterations, Termination::Converged, &r));
            }
            if iterations >= tol.epa_max_iterations {
                // The face of the narrower own gap, this one (the best lower bound) or the
                // one whose support set `upper` (docs/epa.md §1, `MaxIterations`).
                let (p, u) = (probed.unwrap_or(face), upper.unwrap_or(wd));
                let theirs = self.faces[p as usize].dist.max(T::zero());
                let (f, u) = if u - theirs < wd - lower {
                    (p, u)
                } else {
                    (face, wd)
                };
                return Ok(self.finish(f, Some(u), iterations, Termination::MaxIterations, &r));
            }
            if self.faces[face as usize]
                .v
                .iter()
                .any(|&i| self.verts[i as usize].w == w.w)
            {
                return Ok(self.finish(face, upper, iterations, Termination::RepeatedSupport, &r));
            }
            if !self.grow(face, w) {
                return Ok(self.finish(face, upper, iterations, Termination::Degenerate, &r));
            }
        }
    }

    /// Whether `w` lies strictly in front of face `f`'s plane (degenerate faces: always).
    fn sees(&self, f: u32, w: &Vector3<T>) -> bool {
        let f = &self.faces[f as usize];
        f.n == Vector3::zeros() || f.n.dot(&(w - self.verts[f.v[0] as usize].w)) > T::zero()
    }

    /// Removes the faces `w` sees (flood fill from `face` across adjacency) and stitches a
    /// fan of new faces from `w` to the horizon. `false` if no valid horizon came out.
    fn grow(&mut self, face: u32, w: SupportPoint<T, 3>) -> bool {
        self.faces[face as usize].live = false;
        self.horizon.clear();
        self.stack.clear();
        self.stack.extend(self.faces[face as usize].adj);
        while let Some(e) = self.stack.pop() {
            if e == EdgeRef::NONE {
                return false; // a hole in the adjacency: give up on this polytope
            }
            let g = e.face;
            if !self.faces[g as usize].live {
                continue;
            }
            if self.sees(g, &w.w) {
                self.faces[g as usize].live = false;
                let adj = self.faces[g as usize].adj;
                self.stack.push(adj[e.turned(1)]);
                self.stack.push(adj[e.turned(2)]);
            } else {
                self.horizon.push(e);
            }
        }
        if self.horizon.len() < 3 {
            return false;
        }
        let wi = self.verts.len() as u32;
        self.verts.push(w);
        self.fresh.clear();
        for k in 0..self.horizon.len() {
            let e = self.horizon[k];
            let gv = self.faces[e.face as usize].v;
            // The horizon edge reversed, then to w: consistent counter-clockwise order.
            let v = [gv[e.turned(1)], gv[e.turned(0)], wi];
            let nf = self.add_face(v);
            self.faces[nf as usize].adj[0] = e;
            self.faces[e.face as usize].adj[e.turned(0)] = EdgeRef::new(nf, 0);
            self.fresh.push(nf);
        }
        // Edge 1 (v1 → w) of one new face meets edge 2 (w → v0) of the one whose v0 is v1.
        for &f in &self.fresh {
            let v1 = self.faces[f as usize].v[1];
            let Some(&g) = self
                .fresh
                .iter()
                .find(|&&g| self.faces[g as usize].v[0] == v1)
            else {
                return false;
            };
            self.faces[f as usize].adj[1] = EdgeRef::new(g, 2);
            self.faces[g as usize].adj[2] = EdgeRef::new(f, 1);
        }
        for &f in &self.fresh {
            let face = &self.faces[f as usize];
            if face.n != Vector3::zeros() {
                self.heap.push(Entry {
                    dist: face.dist,
                    face: f,
                });
            }
        }
        true
    }

    /// The result on face `f`: the origin's projection `x` onto it and the witnesses at
    /// `x` ([`Self::locate`]: on the face that holds `x`). Algorithm:
    /// 1. `x = max(dist, 0)·n` (no normal: any axis); the face that holds `x`
    ///    ([`Self::locate`]) and its vertices `y`.
    /// 2. The own weights: `x` projected onto that face ([`stable_weights`]) when all are
    ///    non-negative, else `locate`'s areas; the normal is face `f`'s.
    /// 3. Fixed-point candidates, in `f64`: the closest point's weights ([`wide_closest`])
    ///    with its direction (deeper than the band only), and with `f`'s normal in `f64`.
    /// 4. Float candidates: within the band, the closest point's weights with `f`'s normal;
    ///    an area negative and no projection, its weights and direction if [`needle_tilt_ok`].
    /// 5. Of the own pair and the candidates, the one whose witnesses are nearest
    ///    `depth · n` apart ([`mismatch`]; a candidate wins ties).
    /// 6. The weights normalised and the vertices' points on A and on B mixed with them
    ///    (a zero sum: the first vertex's); bounds `[−max(upper, lower), −lower]`.
    fn finish(
        &self,
        f: u32,
        upper: Option<T>,
        iterations: u32,
        termination: Termination,
        r: &Rounding<T>,
    ) -> Contact<T, 3> {
        let face = &self.faces[f as usize];
        let lower = face.dist.max(T::zero());
        let normal = Unit::try_new(face.n, T::zero()).unwrap_or_else(any_axis);
        let x = normal.into_inner() * lower;
        let at = self.locate(f, &x, r);
        let [p, q, s] = self.faces[at.face as usize]
            .v
            .map(|i| self.verts[i as usize]);
        let y = [p, q, s];
        let stable = stable_weights(&y, &x);
        let own = Weights {
            lambda: stable.unwrap_or(at.lambda),
            normal,
        };
        // Of the scalar's own weights and normal and the wide ones, those whose witnesses
        // are nearer `depth · n` apart: always in fixed-point; in floats only where the
        // projection lies outside every face the walk reached (its weights extrapolate)
        // and the closest point's normal is the face's to rounding ([`needle_tilt_ok`]).
        let outside = stable.is_none() && at.lambda.iter().any(|x| *x < T::zero());
        // The closest point's direction only where the depth is beyond the rounding
        // ([`wide_face_normal`]): at depth 0 it is the direction of a point a few ulps
        // from the origin (f32: a flat `A − B`, EPA's last face a needle, a normal 45°
        // off and witnesses 1.3 apart where the depth was 0).
        let m = y.iter().fold(T::zero(), |m, p| m.max(p.w.amax()));
        let deep = lower > r.band(m);
        let candidates = if crate::real::is_fixed::<T>() {
            let wide = wide_closest(&y);
            // With the same weights always the normal of face `f` (whose support closed
            // the gap; the walk's face holds only its foot) computed in `f64`: also where
            // the closest point is the origin itself (cores touching on an edge), whose
            // weights are then the exact ones and its direction none.
            let own_face = face.v.map(|i| self.verts[i as usize].w);
            let on_f = wide.and_then(|w| {
                Some(Weights {
                    lambda: w.lambda,
                    normal: wide_face_normal(&own_face)?,
                })
            });
            [wide.and_then(WideClosest::weights).filter(|_| deep), on_f]
        } else if !deep {
            // Touching cores: the closest point's weights (the origin's own, on the face)
            // with the face's normal; f32's projection on a sliver put the witnesses 1.5e-4
            // off (docs/testing.md F14).
            [
                wide_closest(&y).map(|w| Weights {
                    lambda: w.lambda,
                    normal,
                }),
                None,
            ]
        } else if outside {
            [
                wide_closest(&y)
                    .and_then(WideClosest::weights)
                    .filter(|w| needle_tilt_ok(&y, &normal, &w.normal)),
                None,
            ]
        } else {
            [None, None]
        };
        let Weights { lambda: l, normal } =
            candidates.into_iter().flatten().fold(own, |best, w| {
                if mismatch(&y, &w, lower) <= mismatch(&y, &best, lower) {
                    w
                } else {
                    best
                }
            });
        let sum = l[0] + l[1] + l[2];
        let (point_a, point_b) = if sum > T::zero() {
            // Weights normalised before they multiply: fixed-point rounds each product to
            // an absolute ulp, which unnormalised weights (areas of 1e-5) turned into
            // witnesses 2e-3 off after the division (fuzz sweep, 3D FixedI40F24).
            let l = l.map(|x| x / sum);
            let mix = |u: &Point3<T>, v: &Point3<T>, w: &Point3<T>| {
                Point3::from(u.coords * l[0] + v.coords * l[1] + w.coords * l[2])
            };
            (mix(&p.a, &q.a, &s.a), mix(&p.b, &q.b, &s.b))
        } else {
            (p.a, p.b)
        };
        Contact {
            separation: -lower,
            normal,
            point_a,
            point_b,
            lower_bound: -(upper.unwrap_or(lower).max(lower)),
            upper_bound: -lower,
            iterations,
            termination,
        }
    }

    /// The barycentric coordinates of `x` on face `f` (unnormalised: sub-triangle areas
    /// along the face's normal).
    fn barycentric(&self, f: u32, x: &Vector3<T>) -> [T; 3] {
        let face = &self.faces[f as usize];
        let n = if face.n == Vector3::zeros() {
            any_axis::<T, 3>().into_inner()
        } else {
            face.n
        };
        let [p, q, s] = face.v.map(|i| self.verts[i as usize].w - x);
        [
            n.dot(&q.cross(&s)),
            n.dot(&s.cross(&p)),
            n.dot(&p.cross(&q)),
        ]
    }

    /// The face whose triangle holds `x` (a point on face `f`'s plane), with its
    /// barycentric coordinates: a walk from `f` across the edge `x` lies beyond, to
    /// neighbours whose plane holds `x` within the rounding band. The nearest face's plane
    /// is a facet of `A − B`, but when several faces lie in it (a flat facet of two boxes'
    /// difference) they tie in distance and the heap pops any of them: `x` can lie in
    /// another, and its coordinates on `f` are negative. Mixing the witnesses with them
    /// extrapolates past the face's vertices, off the shapes (fuzz sweep, 3D f64: a
    /// contact witness 1.9e-4 outside a box-swept segment). The face of the largest
    /// smallest coordinate seen is kept if the walk does not reach one that holds `x`.
    fn locate(&self, f: u32, x: &Vector3<T>, r: &Rounding<T>) -> Located<T> {
        let score = |l: &[T; 3]| {
            let sum = l[0] + l[1] + l[2];
            let min = l[0].min(l[1]).min(l[2]);
            if sum > T::zero() {
                min / sum
            } else {
                -T::one()
            }
        };
        let (mut g, mut l) = (f, self.barycentric(f, x));
        let mut best = (g, l, score(&l));
        for _ in 0..self.faces.len() {
            if best.2 >= T::zero() {
                break;
            }
            // The vertex of the most negative coordinate; the edge opposite it,
            // `v[k+1] → v[k+2]`, is edge `k + 1`.
            let k = (0..3).fold(0, |m, i| if l[i] < l[m] { i } else { m });
            let h = self.faces[g as usize].adj[(k + 1) % 3].face;
            let Some(next) = self.faces.get(h as usize) else {
                break;
            };
            let m = super::coords(&next.v.map(|i| self.verts[i as usize]));
            if !next.live || (next.n.dot(x) - next.dist).abs() > r.band(m) {
                break;
            }
            (g, l) = (h, self.barycentric(h, x));
            let sc = score(&l);
            if sc > best.2 {
                best = (g, l, sc);
            }
        }
        if best.2 < T::zero()
            && crate::real::is_fixed::<T>()
            && let Some(h) = self.pierced(&self.faces[f as usize].n, x)
        {
            return Located {
                face: h,
                lambda: self.barycentric(h, x),
            };
        }
        Located {
            face: best.0,
            lambda: best.1,
        }
    }

    /// The live face that the line `x + t·n` crosses from the front: its triangle holds
    /// `x`'s projection along `n` (coordinates in `f64`, `None` when no face does). The
    /// front faces of a convex polytope project along `n` without overlap, so this is
    /// the face of `f`'s facet that holds `x`, reached where [`Self::locate`]'s walk
    /// stopped: fixed-point planes of the facet's faces miss `x` by 4e-6 to 1.4e-5,
    /// beyond the band (fuzz sweep with the F1 skip off, 3D FixedI40F24: witnesses 0.16 off
    /// `depth · n`). Of several (an edge), the one whose plane is nearest `x`. Fixed-point
    /// only: in floats the walk's planes hold `x` wherever a facet does, and the same
    /// fallback there made 845 of a million `query_3d_f64` sweep cases' witnesses worse.
    fn pierced(&self, n: &Vector3<T>, x: &Vector3<T>) -> Option<u32> {
        let c = |v: T| v.to_subset().unwrap_or(f64::NAN);
        let wide = |v: &Vector3<T>| Vector3::new(c(v.x), c(v.y), c(v.z));
        let (n64, x64) = (wide(n), wide(x));
        let mut best: Option<(u32, f64)> = None;
        for (k, face) in self.faces.iter().enumerate() {
            if !face.live || face.n.dot(n) <= T::zero() {
                continue;
            }
            let [p, q, s] = face.v.map(|i| wide(&self.verts[i as usize].w) - x64);
            let holds = [q.cross(&s), s.cross(&p), p.cross(&q)]
                .iter()
                .all(|e| n64.dot(e) >= 0.0);
            let off = (wide(&face.n).dot(&x64) - c(face.dist)).abs();
            if holds && best.is_none_or(|b| off < b.1) {
                best = Some((k as u32, off));
            }
        }
        best.map(|b| b.0)
    }
}

/// A face's plane ([`Polytope3::plane`]).
#[derive(Clone, Copy, Debug)]
struct Plane<T> {
    /// The outward unit normal (for counter-clockwise vertices); zero if degenerate.
    n: Vector3<T>,
    /// The plane's distance from the origin along `n`; the largest value if degenerate.
    dist: T,
}

/// Where a point of a face's plane lies on the polytope ([`Polytope3::locate`]).
#[derive(Clone, Copy, Debug)]
struct Located<T> {
    /// The face whose triangle holds the point (or comes nearest to).
    face: u32,
    /// The point's barycentric coordinates on that face.
    lambda: [T; 3],
}

/// Witness weights with the normal they go with ([`wide_closest`] or the scalar's own).
#[derive(Clone, Copy, Debug)]
struct Weights<T: Real> {
    /// The barycentric weights of the face's vertices (not normalised).
    lambda: [T; 3],
    /// The contact normal.
    normal: Unit<Vector3<T>>,
}

/// The face's closest point to the origin computed in `f64` ([`wide_closest`]).
#[derive(Clone, Copy, Debug)]
struct WideClosest<T: Real> {
    /// Its barycentric weights on the face's vertices.
    lambda: [T; 3],
    /// Its direction `ŷ`; `None` for a closest point at the origin.
    direction: Option<Unit<Vector3<T>>>,
}

impl<T: Real> WideClosest<T> {
    /// The weights with the closest point's direction as the normal (`None` without one).
    fn weights(self) -> Option<Weights<T>> {
        Some(Weights {
            lambda: self.lambda,
            normal: self.direction?,
        })
    }
}

/// The witnesses' weights as the closest point `y = Σ λᵢ yᵢ` of the
/// face's triangle to the origin, computed in `f64` (signed volumes, docs/gjk.md §2), with
/// the face's unit normal `ŷ` taken from it. On a face a few thousandths across (the end
/// of EPA on curved cores) the normal computed in fixed-point, the cross product of two
/// short edges with each product rounded to an absolute ulp, is a few tenths of a per cent
/// off in direction; the witnesses' difference lies along the true normal, so it was off
/// `depth · n` by up to 1e-2 (fuzz sweep, 3D FixedI40F24, docs/testing.md F1). The
/// vertices convert to `f64` to 2⁻⁵³ relative: exactly rounded arithmetic, as
/// deterministic as fixed-point. A `y` at the origin keeps its weights without a
/// direction: cores touching on an edge of a sliver face, whose fixed-point projection put
/// the witnesses 4e-3 apart at depth 0 (fuzz, `query_3d` FixedI40F24; docs/testing.md
/// F14). Where the origin projects far outside the triangle (a face whose plane the heap
/// popped but whose triangle lies aside) `y` is an edge's point and `ŷ` not the normal:
/// the caller keeps whichever pair [`mismatch`] finds nearer. Floats take it only on a
/// needle ([`needle_tilt_ok`]): everywhere, f32's witness gaps fell from 5e-4 to 4e-6, but
/// a manifold built on a normal 83° from the face's put a point 5e-2 inside a shape (fuzz
/// seed 9157405 of `manifold_3d_f32`).
fn wide_closest<T: Real>(y: &[SupportPoint<T, 3>; 3]) -> Option<WideClosest<T>> {
    let wide = |p: &SupportPoint<T, 3>| -> Option<Vector3<f64>> {
        let c = |x: T| x.to_subset();
        Some(Vector3::new(c(p.w.x)?, c(p.w.y)?, c(p.w.z)?))
    };
    let ws = [wide(&y[0])?, wide(&y[1])?, wide(&y[2])?];
    let c = gjk::closest_of_simplex::<f64, 3, _>(&ws, gjk::VertexSet::first(3));
    let back = |x: f64| T::from_subset(&x);
    let direction = Unit::try_new(c.v, 0.0).and_then(|n| Unit::try_new(n.map(back), T::zero()));
    Some(WideClosest {
        lambda: [back(c.lambda[0]), back(c.lambda[1]), back(c.lambda[2])],
        direction,
    })
}

/// The face's unit normal `(y₁ − y₀) × (y₂ − y₀)` computed in `f64`, for fixed-point
/// vertices (exact in `f64`, so is every difference; the cross product is then rounded
/// to 2⁻⁵³ relative). The closest point's direction [`wide_closest`] gives is the face's
/// normal only where the origin projects inside the triangle and beyond the rounding:
/// on cores that touch (depth 0 to the rounding) it is the direction of a point a few
/// ulps from the origin, noise, while the witnesses it goes with are as near `depth · n`
/// apart as any ([`mismatch`] cannot tell): a contact `Converged` at the right depth had
/// a normal along which the shapes overlapped by 2.40 where the depth was 0.05 (fuzz
/// sweep, `manifold_3d_fixed` seed 61378140; docs/testing.md). `None` for a triangle
/// degenerate in `f64` too.
fn wide_face_normal<T: Real>(y: &[Vector3<T>; 3]) -> Option<Unit<Vector3<T>>> {
    let wide = |v: &Vector3<T>| -> Option<Vector3<f64>> {
        let c = |x: T| x.to_subset();
        Some(Vector3::new(c(v.x)?, c(v.y)?, c(v.z)?))
    };
    let [p, q, r] = [wide(&y[0])?, wide(&y[1])?, wide(&y[2])?];
    let n = Unit::try_new((q - p).cross(&(r - p)), 0.0)?;
    Unit::try_new(n.map(|x| T::from_subset(&x)), T::zero())
}

/// Whether the closest point's direction `c` is the face normal `n` to the normal's own
/// rounding: `|n × c| · |e₁ × e₂| ≤ FACE_NORMAL · ε · m · (|e₁| + |e₂| + |e₃|)`, the
/// rounding of the edges (`ε·m` each, `m` the vertices' size) turned by the cross
/// product over the face's doubled area. On a needle (two corners 6e-11 apart, the end of
/// EPA on a cone's ruled side) that rounding turns `n` by 1e-5: the origin's foot lands
/// outside the triangle, the walk finds no face holding it and its weights (±2·10⁴ after
/// normalising) put the witnesses 4e-7 off `depth · n` within bounds 5e-12 wide (fuzz
/// seed 9238708 of `query_3d_f64`). Within that tilt `c` is as much the face's normal as
/// `n`, and its weights lie on the triangle.
fn needle_tilt_ok<T: Real>(
    y: &[SupportPoint<T, 3>; 3],
    n: &Unit<Vector3<T>>,
    c: &Unit<Vector3<T>>,
) -> bool {
    let e = [y[1].w - y[0].w, y[2].w - y[1].w, y[0].w - y[2].w];
    let area = e[0].cross(&e[1]).norm();
    let perimeter = e[0].norm() + e[1].norm() + e[2].norm();
    let m = y.iter().fold(T::zero(), |m, p| m.max(p.w.amax()));
    n.cross(c).norm() * area <= ulps::<T>(allowance::FACE_NORMAL) * m * perimeter
}

/// `‖Σ λᵢ yᵢ / Σ λᵢ − depth · n‖∞` in `f64`: how far witnesses mixed with the weights `λ`
/// of `w` are from `depth · n` apart (`n` the normal of `w`; their difference is
/// `−Σ λᵢ yᵢ / Σ λᵢ`). Infinite when the
/// weights sum to zero or a value has no `f64` form.
fn mismatch<T: Real>(y: &[SupportPoint<T, 3>; 3], w: &Weights<T>, depth: T) -> f64 {
    let (l, n) = (&w.lambda, &w.normal);
    let c = |x: T| x.to_subset().unwrap_or(f64::NAN);
    let wide = |v: &Vector3<T>| Vector3::new(c(v.x), c(v.y), c(v.z));
    let sum = c(l[0]) + c(l[1]) + c(l[2]);
    let mix = (wide(&y[0].w) * c(l[0]) + wide(&y[1].w) * c(l[1]) + wide(&y[2].w) * c(l[2])) / sum;
    let off = (mix - wide(n.as_ref()) * c(depth)).amax();
    if off.is_finite() { off } else { f64::INFINITY }
}

/// The witnesses' weights on the face `y` that holds the foot `x` (the origin's projection
/// on the nearest face's plane), when every one is non-negative: the orthogonal projection
/// of `x` onto the face's plane by Gram–Schmidt on its edges ([`gjk::project`] on
/// `yᵢ − x`, docs/gjk.md §2.4). It is backward stable: `Σ λᵢ yᵢ` lies within `ε·‖y‖` of
/// `x`'s nearest point on the plane however thin the face, so the witnesses' difference
/// `Σ λᵢ (aᵢ − bᵢ)` is the depth along the normal. The origin itself projected onto the
/// plane of a face the walk reached ([`Polytope::locate`]) is not `x`: on a needle, whose
/// plane holds `x` to the rounding but turns about its axis, that point was 7e-8 off
/// `depth · n` within bounds 6e-14 wide (fuzz sweep, `query_3d_f64` seed 61148788:
/// EPA's last faces on a cylinder's side, two needles). The areas
/// [`Polytope::barycentric`] takes are not: on a sliver face their rounding (an absolute
/// ulp per product in fixed-point) is a large fraction of the face's area, and the
/// witnesses drifted 1e-2 off `depth · n` (docs/testing.md, F1). `None` (keep the areas)
/// when the projection fails or puts the point outside the face.
fn stable_weights<T: Real>(y: &[SupportPoint<T, 3>; 3], x: &Vector3<T>) -> Option<[T; 3]> {
    let mut lambda = [T::zero(); 4];
    let shifted = y.map(|p| SupportPoint { w: p.w - x, ..p });
    gjk::project(&shifted, gjk::VertexSet::first(3), 0, &mut lambda)?;
    let l = [lambda[0], lambda[1], lambda[2]];
    l.iter().all(|x| *x >= T::zero()).then_some(l)
}
