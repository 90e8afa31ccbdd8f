//! Two boxes by the separating-axis test (Gottschalk et al. 1996; Ericson, *Real-Time
//! Collision Detection* §4.4.1), 2D and 3D, any half-extents (zero ones too: a capsule's
//! core segment is a box, [`segment_box`]). docs/pairs.md §2.
//!
//! The first box is `[−a, a]`, the second `t + R·[−b, b]` (`R`'s columns `R_k`). For a unit
//! axis `n` the separation `s(n) = n·t − h₁(n) − h₂(−n)`, with the support values
//! `h₁(n) = Σ a_k |n_k|` and `h₂(−n) = −n·t + Σ b_k |n·R_k|` (exact for any `R`), is a lower
//! bound of the distance. Over the complete set of axes (the faces' normals and, in 3D,
//! the edges' crosses `e_i × R_j`) its largest value `L` is the signed distance of
//! overlapping boxes (the penetration depth `−L`, what EPA converges to) and a lower bound
//! of the distance of separated ones. A witness pair on the two boxes along the best axis,
//! or else the closest pair found by alternating projections, certified by its own
//! separating plane, settles the distance; otherwise the general path decides.

use super::{Answer, Want};
use crate::{
    Real, Tolerances,
    linalg::Witnesses,
    real::norm,
    tolerance::{Rounding, allowance, factor, ulps},
};
use nalgebra::{Point, SMatrix, SVector};

/// Two boxes in the first one's frame.
pub(crate) struct Boxes<T: Real, const D: usize> {
    a: SVector<T, D>,
    b: SVector<T, D>,
    rot: SMatrix<T, D, D>,
    /// `|R_ik|`.
    abs: SMatrix<T, D, D>,
    /// The cofactors of `R`: column `j` is normal to the second box's faces `±b_j`
    /// (`R_{j+1} × R_{j+2}` in 3D), of length `‖·‖`, with `ν_j·R_j = det R` and
    /// `ν_j·R_k = 0` for `k ≠ j` (exactly in 2D, to rounding in 3D). For a rotation they are
    /// its columns; for a matrix a few ulps off one (a pose's rounding) they keep the
    /// placed box's faces exact.
    cof: SMatrix<T, D, D>,
    /// `‖ν_j‖`.
    len: SVector<T, D>,
    det: T,
    t: SVector<T, D>,
    band: T,
    coords: T,
    rel: T,
}
/// Which axis: a face normal of the first box (`e_i`), of the second (`R_j`), or the cross
/// `e_i × R_j` of two edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    First(usize),
    Second(usize),
    Edge(usize, usize),
}

/// An axis with its separation `s(n)`, `n` pointing from the first box to the second.
#[derive(Clone, Copy, Debug)]
struct Axis<T: Real, const D: usize> {
    sep: T,
    kind: Kind,
    n: SVector<T, D>,
}

/// `+1` for `x ≥ 0`, else `−1` (a support point's coordinate sign).
#[inline]
fn sign<T: Real>(x: T) -> T {
    if x < T::zero() { -T::one() } else { T::one() }
}

/// The cofactor matrix of `R` (column `j` normal to B's faces `±b_j`).
pub(crate) fn cofactors<T: Real, const D: usize>(rot: &SMatrix<T, D, D>) -> SMatrix<T, D, D> {
    let mut cof = SMatrix::<T, D, D>::zeros();
    if D == 2 {
        cof[(0, 0)] = rot[(1, 1)];
        cof[(1, 0)] = -rot[(0, 1)];
        cof[(0, 1)] = -rot[(1, 0)];
        cof[(1, 1)] = rot[(0, 0)];
    } else if D == 3 {
        for j in 0..3 {
            let (p, q) = (rot.column((j + 1) % 3), rot.column((j + 2) % 3));
            for k in 0..3 {
                let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
                cof[(k, j)] = p[k1] * q[k2] - p[k2] * q[k1];
            }
        }
    }
    cof
}

/// An edge–edge axis `e_i × R_j` ([`edge_cross`]): its non-zero components `l1`, `l2` (at
/// `i+1`, `i+2`), its squared length and both boxes' reach along it (unscaled).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeAxis<T> {
    pub l1: T,
    pub l2: T,
    pub len2: T,
    pub reach: T,
}

/// The edge cross `e_i × R_j` of two boxes (3D; `R`'s columns `R_j`, half-extents `a`
/// and `b`): its two non-zero components `(l₁, l₂)` at `(i+1, i+2)` (exact: `(−R_{i+2 j},
/// R_{i+1 j})`, 0 at `i`), its squared length, and both boxes' reach along it (unscaled);
/// `None` for edges parallel to rounding (`|e_i × R_j|` within
/// [`allowance::PARALLEL_EDGES_PAIR`] ulps): the faces' normals then bound the skipped
/// axis' separation within `ε·(Σa + Σb)`, inside the band.
#[inline]
pub(crate) fn edge_cross<T: Real, const D: usize>(
    rot: &SMatrix<T, D, D>,
    a: &SVector<T, D>,
    b: &SVector<T, D>,
    i: usize,
    j: usize,
) -> Option<EdgeAxis<T>> {
    let parallel = ulps::<T>(allowance::PARALLEL_EDGES_PAIR);
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let (l1, l2) = (-rot[(i2, j)], rot[(i1, j)]);
    let ll = l1 * l1 + l2 * l2;
    if !(ll > parallel * parallel) {
        return None;
    }
    let mut reach = a[i1] * l1.abs() + a[i2] * l2.abs();
    for k in 0..3 {
        // (e_i × R_j)·R_j = 0 exactly (the same two products cancel).
        if k != j {
            reach += b[k] * (l1 * rot[(i1, k)] + l2 * rot[(i2, k)]).abs();
        }
    }
    Some(EdgeAxis {
        l1,
        l2,
        len2: ll,
        reach,
    })
}

impl<T: Real, const D: usize> Boxes<T, D> {
    pub(crate) fn new(
        a: SVector<T, D>,
        b: SVector<T, D>,
        rot: SMatrix<T, D, D>,
        t: SVector<T, D>,
        tol: &Tolerances<T>,
    ) -> Self {
        let cof = cofactors(&rot);
        let det = cof.column(0).dot(&rot.column(0));
        let len = SVector::<T, D>::from_fn(|j, _| norm(&cof.column(j).into_owned()));
        // Every sum of the tests is within |t|∞ + Σa + Σb (the half-extents are ≥ 0).
        let coords = t.amax() + a.sum() + b.sum();
        Self {
            a,
            b,
            abs: rot.abs(),
            cof,
            len,
            det,
            rot,
            t,
            band: Rounding::of(tol).band(coords),
            coords,
            rel: tol.gjk_rel,
        }
    }

    /// `R⁻¹ = cofᵀ / det R`.
    fn inverse(&self) -> SMatrix<T, D, D> {
        self.cof.transpose() / self.det
    }

    /// The separating-axis test (the axes' normals left to [`Boxes::normal`]); returns at once
    /// an axis whose separation exceeds `stop`,
    /// else the largest. Face axes win ties with edge axes within the band (their witnesses
    /// are whole faces). Edge crosses shorter than ε (edges parallel to rounding) are
    /// skipped: the faces' normals then bound the skipped axis' separation within
    /// `ε·(Σa + Σb)`, inside the band.
    fn sat(&self, stop: T) -> Axis<T, D> {
        let (a, b, t) = (&self.a, &self.b, &self.t);
        let (mut best, mut kind) = (-T::max_value().unwrap_or(T::one()), Kind::First(0));
        for i in 0..D {
            let mut reach = a[i];
            for k in 0..D {
                reach += b[k] * self.abs[(i, k)];
            }
            let s = t[i].abs() - reach;
            if s > best {
                (best, kind) = (s, Kind::First(i));
                if s > stop {
                    return self.axis(kind, s);
                }
            }
        }
        let db = self.det.abs();
        for j in 0..D {
            // ν_j·R_k = 0 for k ≠ j: the reach of the second box is b_j |det R|.
            let c = self.cof.column(j);
            let mut reach = b[j] * db;
            for k in 0..D {
                reach += a[k] * c[k].abs();
            }
            let s = (c.dot(t).abs() - reach) / self.len[j];
            if s > best {
                (best, kind) = (s, Kind::Second(j));
                if s > stop {
                    return self.axis(kind, s);
                }
            }
        }
        if D != 3 {
            return self.axis(kind, best);
        }
        let faces = best;
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let Some(EdgeAxis {
                    l1,
                    l2,
                    len2: ll,
                    reach,
                }) = edge_cross(&self.rot, a, b, i, j)
                else {
                    continue;
                };
                let s = ((l1 * t[i1] + l2 * t[i2]).abs() - reach) / ll.sqrt();
                // Edges beat faces by more than the band only (faces give whole faces).
                if s > best && s > faces + self.band {
                    (best, kind) = (s, Kind::Edge(i, j));
                    if s > stop {
                        return self.axis(kind, s);
                    }
                }
            }
        }
        self.axis(kind, best)
    }

    /// The axis of `kind` with its separation; its normal is left for [`Boxes::normal`] (a
    /// verdict needs none).
    fn axis(&self, kind: Kind, sep: T) -> Axis<T, D> {
        Axis {
            sep,
            kind,
            n: SVector::zeros(),
        }
    }

    /// The unit normal of an axis of `kind`, oriented from the first box to the second.
    fn normal(&self, kind: Kind) -> SVector<T, D> {
        let t = &self.t;
        let mut n = SVector::<T, D>::zeros();
        match kind {
            Kind::First(i) => n[i] = sign(t[i]),
            Kind::Second(j) => {
                let c = self.cof.column(j);
                n = c * (sign(c.dot(t)) / self.len[j]);
            }
            Kind::Edge(i, j) => {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let (l1, l2) = (-self.rot[(i2, j)], self.rot[(i1, j)]);
                let f = sign(l1 * t[i1] + l2 * t[i2]) / (l1 * l1 + l2 * l2).sqrt();
                n[i1] = l1 * f;
                n[i2] = l2 * f;
            }
        }
        n
    }

    /// The answer the caller wants, on the two boxes (`margin`: the radii around them).
    pub(crate) fn solve(&self, want: Want, margin: T) -> Option<Answer<T, D>> {
        let band = self.band;
        let stop = if want == Want::Verdict {
            margin + band
        } else {
            T::max_value()?
        };
        let mut ax = self.sat(stop);
        if !ax.sep.is_finite() {
            return None;
        }
        if want == Want::Verdict && (ax.sep > stop || ax.sep <= T::zero()) {
            // Proven apart by the axis, or overlapping by the complete set of axes.
            return Some(Answer::verdict(ax.sep, band, self.coords));
        }
        ax.n = self.normal(ax.kind);
        if want == Want::Distance && ax.sep < -band {
            // Overlapping by the complete set of axes: a distance needs only a common
            // point, and the second box's centre is one whenever it lies in the first
            // (nested and concentric boxes), or (2D) a vertex of either box inside the
            // other: no witness clip.
            if let Some(common) = self.centre_common().or_else(|| self.vertex_common()) {
                let w = Pair {
                    p: common.a,
                    q: common.b,
                    free_a: FreeAxes::NONE,
                    free_b: FreeAxes::NONE,
                };
                return Some(self.answer(&w, ax.sep, ax.sep, &ax.n));
            }
        }
        let witness = self.witness(&ax);
        let along = witness.filter(|w| self.along(w, &ax));
        if ax.sep > band || (along.is_none() && ax.sep > -band) {
            // Apart (or touching without a witness along the axis: vertex–vertex pairs
            // may be apart along another direction). A witness along the axis proves `L`
            // the distance, with the axis as the normal (a pair's own direction is off by
            // its rounding over the gap); else the witness, or the closest pair by
            // projections from it, certified by its separating plane.
            if let Some(w) = along {
                return Some(self.answer(&w, ax.sep, norm(&(w.q - w.p)).max(ax.sep), &ax.n));
            }
            if let Some(ans) = witness.and_then(|w| self.certify(&w, ax.sep)) {
                return Some(ans);
            }
            let start = witness.map_or_else(|| self.support_b(&-ax.n), |w| w.q);
            return self.certify(&self.project(&start), ax.sep);
        }
        // Overlapping (or touching) along the axis: the depth is −L, with a witness pair
        // `q − p = L·n` on the two boundaries.
        let w = along?;
        let mut ans = self.answer(&w, ax.sep, ax.sep, &ax.n);
        if want == Want::Distance && ax.sep < -band {
            // A common point: a witness inside the other box.
            let common = self.common(&w.p, &w.q)?;
            (ans.a, ans.b) = (common.a, common.b);
        }
        Some(ans)
    }

    fn answer(&self, w: &Pair<T, D>, sep: T, upper: T, n: &SVector<T, D>) -> Answer<T, D> {
        Answer {
            sep,
            lower: sep,
            upper,
            normal: *n,
            a: w.p,
            b: w.q,
            band: self.band,
            coords: self.coords,
        }
    }

    /// Whether a witness pair lies along the axis at its separation: `q − p = L·n` within
    /// a few bands (the tilt of a feature taken as flat, the rounding of the clip).
    fn along(&self, w: &Pair<T, D>, ax: &Axis<T, D>) -> bool {
        let off = (w.q - w.p) - ax.n * ax.sep;
        let lim = self.band * crate::real::lit(factor::WITNESS_BANDS);
        off.norm_squared() <= lim * lim
    }

    /// The pair certified by its own separating plane: `‖q − p‖` is an upper bound of the
    /// distance, `s(n)` (and `lower`) a lower bound; accepted when they meet within the
    /// band or GJK's relative gap. `n` is `q − p` made orthogonal to the pair's features
    /// (the free axes of both points): the closest direction is, and `q − p` itself is off
    /// by its rounding over the distance, which moves the support of a face or an edge.
    fn certify(&self, w: &Pair<T, D>, lower: T) -> Option<Answer<T, D>> {
        let d = w.q - w.p;
        let dist = norm(&d);
        if !(dist > T::zero()) || !dist.is_finite() {
            return None;
        }
        let n = self.refine(&d, w)?;
        let lower = lower.max(self.separation(&n));
        Answer::apart(w.p, w.q, dist, n, lower, self.band, self.coords).accepted(self.rel)
    }

    /// `d` made orthogonal to the pair's free axes, unit ([`super::orthogonal`]).
    fn refine(&self, d: &SVector<T, D>, w: &Pair<T, D>) -> Option<SVector<T, D>> {
        let mut dirs = [SVector::<T, D>::zeros(); 6];
        let mut nd = 0;
        for k in 0..D {
            if w.free_a.has(k) {
                dirs[nd][k] = T::one();
                nd += 1;
            }
            if w.free_b.has(k) {
                dirs[nd] = self.rot.column(k).into_owned();
                nd += 1;
            }
        }
        super::orthogonal(d, &dirs[..nd])
    }

    /// `s(n) = n·t − Σ a_k |n_k| − Σ b_k |n·R_k|` for a unit `n`.
    fn separation(&self, n: &SVector<T, D>) -> T {
        let mut s = n.dot(&self.t);
        for k in 0..D {
            s -= self.a[k] * n[k].abs() + self.b[k] * n.dot(&self.rot.column(k)).abs();
        }
        s
    }

    /// The second box's support point along `dir` (first box's frame).
    fn support_b(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let mut x = self.t;
        for k in 0..D {
            let c = self.rot.column(k);
            x += c * (sign(c.dot(dir)) * self.b[k]);
        }
        Point::from(x)
    }

    /// The point of the first box nearest `x`, and its free axes (those not clamped).
    fn clamp_a(&self, x: &Point<T, D>) -> Clamped<T, D> {
        let mut free = FreeAxes::NONE;
        let mut point = *x;
        for k in 0..D {
            let h = self.a[k];
            if x[k].abs() < h {
                free = free.with(k);
            } else {
                point[k] = x[k].max(-h).min(h);
            }
        }
        Clamped { point, free }
    }

    /// A point of the second box near `x` (its nearest one for an exact rotation), and
    /// its free axes; `ri` is [`Boxes::inverse`] (computed once by the caller: four
    /// divisions).
    fn clamp_b(&self, ri: &SMatrix<T, D, D>, x: &Point<T, D>) -> Clamped<T, D> {
        let mut y = ri * (x.coords - self.t);
        let mut free = FreeAxes::NONE;
        for k in 0..D {
            let h = self.b[k];
            if y[k].abs() < h {
                free = free.with(k);
            } else {
                y[k] = y[k].max(-h).min(h);
            }
        }
        Clamped {
            point: Point::from(self.rot * y + self.t),
            free,
        }
    }

    /// Alternating projections from a point `q` of the second box (Cheney & Goldstein
    /// 1959): a pair that converges to a closest pair; vertex–vertex, vertex–edge and
    /// vertex–face pairs settle in one or two rounds.
    fn project(&self, q: &Point<T, D>) -> Pair<T, D> {
        let (mut q, mut free_b) = (*q, FreeAxes::NONE);
        let mut a = self.clamp_a(&q);
        let ri = self.inverse();
        for _ in 0..4 {
            let b = self.clamp_b(&ri, &a.point);
            free_b = b.free;
            if b.point == q {
                break;
            }
            q = b.point;
            a = self.clamp_a(&q);
        }
        Pair {
            p: a.point,
            q,
            free_a: a.free,
            free_b,
        }
    }

    /// A pair on the two boxes along the axis: a point `p` of the first box's supporting
    /// feature and `q` of the second's with `q − p` along `n` (first box's frame).
    fn witness(&self, ax: &Axis<T, D>) -> Option<Pair<T, D>> {
        match ax.kind {
            Kind::First(i) => {
                clip_face(&self.a, &self.b, &self.rot, &self.t, i, ax.n[i], self.band)
            }
            Kind::Second(j) => {
                // In the second box's frame, the first placed by (R⁻¹, −R⁻¹t); the normal
                // from the second to the first there is along −e_j·sign(ν_j·n).
                let ri = self.inverse();
                let ti = -(ri * self.t);
                let s = -sign(self.cof.column(j).dot(&ax.n));
                let w = clip_face(&self.b, &self.a, &ri, &ti, j, s, self.band)?;
                let back = |x: Point<T, D>| Point::from(self.rot * x.coords + self.t);
                Some(Pair {
                    p: back(w.q),
                    q: back(w.p),
                    free_a: w.free_b,
                    free_b: w.free_a,
                })
            }
            Kind::Edge(i, j) => Some(self.edge_pair(i, j, &ax.n)),
        }
    }

    /// The closest points of the first box's edge along `e_i` supporting `n` and the second
    /// box's edge along `R_j` supporting `−n` (3D).
    fn edge_pair(&self, i: usize, j: usize, n: &SVector<T, D>) -> Pair<T, D> {
        let mut pa = SVector::<T, D>::zeros();
        for k in 0..D {
            if k != i {
                pa[k] = sign(n[k]) * self.a[k];
            }
        }
        let mut ea = SVector::<T, D>::zeros();
        ea[i] = self.a[i];
        let mut qb = self.t;
        for k in 0..D {
            if k != j {
                let c = self.rot.column(k);
                qb -= c * (sign(c.dot(n)) * self.b[k]);
            }
        }
        let eb = self.rot.column(j) * self.b[j];
        let (p0, p1) = (Point::from(pa - ea), Point::from(pa + ea));
        let (q0, q1) = (Point::from(qb - eb), Point::from(qb + eb));
        let super::round::SegmentParameters { s, t: u } =
            super::round::segment_parameters(&p0, &p1, &q0, &q1);
        let inner = |x: T| x > T::zero() && x < T::one();
        Pair {
            p: p0 + (p1 - p0) * s,
            q: q0 + (q1 - q0) * u,
            free_a: FreeAxes::if_inner(inner(s), i),
            free_b: FreeAxes::if_inner(inner(u), j),
        }
    }

    /// For overlapping boxes: a pair `(x on the first, y on the second)` within the band
    /// of each other, from the witness pair: `q` inside the first box, or `p` inside the
    /// second.
    fn common(&self, p: &Point<T, D>, q: &Point<T, D>) -> Option<Witnesses<T, D>> {
        self.common_of(&[*q, *p, nalgebra::center(p, q)])
    }

    /// Whether two points are within the band of each other (`‖x − y‖² ≤ band²`: no
    /// square root).
    fn near(&self, x: &Point<T, D>, y: &Point<T, D>) -> bool {
        (x - y).norm_squared() <= self.band * self.band
    }

    /// The second box's centre `t` as a common point when it is within the band of the first
    /// box: [`Boxes::common_of`] of `[t]` without the second box's clamp (its own centre,
    /// exactly) nor its inverse.
    fn centre_common(&self) -> Option<Witnesses<T, D>> {
        let x = Point::from(self.t);
        let xa = self.clamp_a(&x).point;
        self.near(&xa, &x).then_some(Witnesses { a: xa, b: x })
    }

    /// 2D: a vertex of one box inside the other, as a common point `a = b` (no root in
    /// `distance`); `None` when no vertex of either lies in the other (a cross-shaped
    /// overlap) and in 3D. The second box's vertices `t ± R_0 b_0 ± R_1 b_1` against the
    /// first box's rectangle, exactly (a vertex is as far from the second box as its own
    /// rounding, as every computed point of it); then the first box's vertices
    /// `x = (±a_0, ±a_1)` against the second box's slabs `|ν_j·(x − t)| ≤ b_j·det R`
    /// (the cofactor columns), with [`allowance::SLAB_TEST`] ulps of the coordinates to spare,
    /// more than the test's rounding: such an `x` is inside the second box exactly.
    fn vertex_common(&self) -> Option<Witnesses<T, D>> {
        if D != 2 {
            return None;
        }
        let (a, b, t) = (&self.a, &self.b, &self.t);
        let (u, v) = (self.rot.column(0) * b[0], self.rot.column(1) * b[1]);
        let (tp, tm) = (t + u, t - u);
        for x in [tp + v, tp - v, tm + v, tm - v] {
            if x[0].abs() <= a[0] && x[1].abs() <= a[1] {
                let x = Point::from(x);
                return Some(Witnesses { a: x, b: x });
            }
        }
        // ν_j·x = ±ν_0j a_0 ± ν_1j a_1; the slab's half-width b_j·det, less the rounding.
        let spare = ulps::<T>(allowance::SLAB_TEST) * self.coords;
        let (c0, c1) = (self.cof.column(0), self.cof.column(1));
        let (p0, q0, w0) = (c0[0] * a[0], c0[1] * a[1], c0.dot(t));
        let (p1, q1, w1) = (c1[0] * a[0], c1[1] * a[1], c1.dot(t));
        let (h0, h1) = (b[0] * self.det - spare, b[1] * self.det - spare);
        for (s0, s1) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
            let (s0, s1) = (crate::real::lit::<T>(s0), crate::real::lit::<T>(s1));
            if (s0 * p0 + s1 * q0 - w0).abs() <= h0 && (s0 * p1 + s1 * q1 - w1).abs() <= h1 {
                let mut x = Point::<T, D>::origin();
                (x[0], x[1]) = (s0 * a[0], s1 * a[1]);
                return Some(Witnesses { a: x, b: x });
            }
        }
        None
    }

    /// The first of `xs` within the band of both boxes, as that pair of nearest points (the
    /// second box's only for a point near the first, with its inverse computed once).
    fn common_of(&self, xs: &[Point<T, D>]) -> Option<Witnesses<T, D>> {
        let mut ri = None;
        for &x in xs {
            let xa = self.clamp_a(&x).point;
            if !self.near(&xa, &x) {
                continue;
            }
            let ri = ri.get_or_insert_with(|| self.inverse());
            let xb = self.clamp_b(ri, &x).point;
            if self.near(&xb, &x) {
                return Some(Witnesses { a: xa, b: xb });
            }
        }
        None
    }
}

/// A set of a box's axes (`e_k` of the first box, `R_k` of the second) along which a point
/// is free to move within the box's face or edge: bit `k` for axis `k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FreeAxes(u8);

impl FreeAxes {
    /// No free axis: a vertex.
    const NONE: Self = Self(0);

    /// This set and axis `k`.
    #[inline]
    fn with(self, k: usize) -> Self {
        Self(self.0 | 1 << k)
    }

    /// Axis `k` alone when `inner` (a parameter strictly inside its edge), else none.
    #[inline]
    fn if_inner(inner: bool, k: usize) -> Self {
        Self(u8::from(inner) << k)
    }

    /// Whether axis `k` is free.
    #[inline]
    fn has(self, k: usize) -> bool {
        self.0 & (1 << k) != 0
    }
}

/// A box's point nearest a given one, with the axes it was not clamped along.
#[derive(Clone, Copy, Debug)]
struct Clamped<T: Real, const D: usize> {
    point: Point<T, D>,
    free: FreeAxes,
}

/// A pair of points, on the first box and on the second, with the axes along which each
/// is free to move within its box's face or edge.
#[derive(Clone, Copy, Debug)]
struct Pair<T: Real, const D: usize> {
    p: Point<T, D>,
    q: Point<T, D>,
    free_a: FreeAxes,
    free_b: FreeAxes,
}

/// The witness of a face axis: the reference box `[−ha, ha]`'s face `x_i = σ·ha_i` and the
/// incident box `t + R·[−hb, hb]`'s supporting feature along `−σ e_i` (a vertex, or an
/// edge or face when some `|R_ik|·hb_k` is within `thr`, parallel to rounding), clipped
/// to the face's rectangle (Sutherland–Hodgman; a face of a convex polygon adds at most
/// one vertex per plane). Returns `(p on the face, q on the feature)` with `q` the
/// centroid of the clipped feature and `p` its projection onto the face (with the free
/// axes of each), or `None` when the feature misses the face. Algorithm:
/// 1. The incident feature: B's axis `k` is free when `|R_ik|·hb_k ≤ thr` (`hb_k > 0`, at
///    most `D − 1` of them), else fixed at the sign of `m = Rᵀ(−σ e_i)`.
/// 2. No free axis (a vertex, the usual case): `p` its projection onto the face, clamped
///    when within `thr` outside the rectangle; farther out: `None`.
/// 3. 2D, an edge: its interval clipped to the face's side `|x_k| ≤ ha_k + thr`
///    ([`clip_segment`]; missed: `None`), `q` the midpoint; `p` as in step 5.
/// 4. 3D, an edge or a face: its polygon (each free axis doubles it, in cyclic order)
///    clipped to `|x_k| ≤ ha_k + thr` for both axes `k ≠ i`; emptied: `None`.
/// 5. `q` the clipped polygon's vertex average, `p` its projection onto the face
///    ([`onto_face`]).
fn clip_face<T: Real, const D: usize>(
    ha: &SVector<T, D>,
    hb: &SVector<T, D>,
    rot: &SMatrix<T, D, D>,
    t: &SVector<T, D>,
    i: usize,
    sigma: T,
    thr: T,
) -> Option<Pair<T, D>> {
    // The feature: fixed coordinates take the sign of m = Rᵀ(−σ e_i), free ones span.
    let mut base = *t;
    let mut free = [0usize; 3];
    let mut nfree = 0;
    for k in 0..D {
        let m = -sigma * rot[(i, k)];
        if hb[k] > T::zero() && m.abs() * hb[k] <= thr && nfree + 1 < D {
            free[nfree] = k;
            nfree += 1;
        } else {
            base += rot.column(k) * (sign(m) * hb[k]);
        }
    }
    if nfree == 0 {
        // A vertex (the usual case): inside the face's rectangle, or no witness.
        let q = Point::from(base);
        let mut p = q;
        let mut free_a = FreeAxes::NONE;
        for k in 0..D {
            if k == i {
                p[k] = sigma * ha[k];
            } else if q[k].abs() < ha[k] {
                free_a = free_a.with(k);
            } else if q[k].abs() <= ha[k] + thr {
                p[k] = q[k].max(-ha[k]).min(ha[k]);
            } else {
                return None;
            }
        }
        return Some(Pair {
            p,
            q,
            free_a,
            free_b: FreeAxes::NONE,
        });
    }
    if D == 2 {
        // An edge `base ± u` (the only other feature in 2D): its parameter interval
        // clipped to the face's side directly, `q` its midpoint (no polygon buffers, no
        // division for a side it does not cross, none for the midpoint).
        let u = rot.column(free[0]) * hb[free[0]];
        let q = clip_segment(
            Point::from(base - u),
            Point::from(base + u),
            1 - i,
            ha[1 - i] + thr,
        )?;
        return Some(onto_face(ha, q, i, sigma, FreeAxes::NONE.with(free[0])));
    }
    let mut poly = [Point::<T, D>::origin(); 8];
    let mut len = 1usize;
    poly[0] = Point::from(base);
    for &k in &free[..nfree] {
        // Each free coordinate doubles the polygon in cyclic order: x − u then x + u,
        // reversed on the way back.
        let u = rot.column(k) * hb[k];
        for v in 0..len {
            poly[len + v] = poly[len - 1 - v] + u;
        }
        for v in 0..len {
            poly[v] -= u;
        }
        len *= 2;
    }
    let mut buf = [Point::<T, D>::origin(); 8];
    for k in (0..D).filter(|&k| k != i) {
        let lim = ha[k] + thr;
        for s in [T::one(), -T::one()] {
            // Keep s·x_k ≤ lim.
            // Each edge (prev, cur), prev the last vertex first (no `%`: a division).
            let mut out = 0usize;
            let mut prev = poly[len - 1];
            for v in 0..len {
                let cur = poly[v];
                let (dc, dp) = (s * cur[k] - lim, s * prev[k] - lim);
                if (dc <= T::zero()) != (dp <= T::zero()) && out < 8 {
                    buf[out] = prev + (cur - prev) * (dp / (dp - dc));
                    out += 1;
                }
                if dc <= T::zero() && out < 8 {
                    buf[out] = cur;
                    out += 1;
                }
                prev = cur;
            }
            if out == 0 {
                return None;
            }
            poly[..out].copy_from_slice(&buf[..out]);
            len = out;
        }
    }
    let sum = poly[..len]
        .iter()
        .fold(SVector::<T, D>::zeros(), |s, x| s + x.coords);
    let q = Point::from(sum / crate::real::lit::<T>(len as f64));
    let free_inc = free[..nfree].iter().fold(FreeAxes::NONE, |m, &k| m.with(k));
    Some(onto_face(ha, q, i, sigma, free_inc))
}

/// The pair `(p, q)` of a point `q` of the incident feature (free along `free_inc`) and its
/// projection `p` onto the reference face `x_i = σ·ha_i`, clamped to the face's rectangle.
#[inline(always)]
fn onto_face<T: Real, const D: usize>(
    ha: &SVector<T, D>,
    q: Point<T, D>,
    i: usize,
    sigma: T,
    free_inc: FreeAxes,
) -> Pair<T, D> {
    let mut p = q;
    let mut free_ref = FreeAxes::NONE;
    for k in 0..D {
        p[k] = if k == i {
            sigma * ha[k]
        } else {
            if q[k].abs() < ha[k] {
                free_ref = free_ref.with(k);
            }
            q[k].max(-ha[k]).min(ha[k])
        };
    }
    Pair {
        p,
        q,
        free_a: free_ref,
        free_b: free_inc,
    }
}

/// The midpoint of the part of the segment `[e0, e1]` with `|x_k| ≤ lim`, `None` when it
/// misses that slab (2D [`clip_face`]: the slab is the face's side).
#[inline(always)]
fn clip_segment<T: Real, const D: usize>(
    mut e0: Point<T, D>,
    mut e1: Point<T, D>,
    k: usize,
    lim: T,
) -> Option<Point<T, D>> {
    for s in [T::one(), -T::one()] {
        // Keep s·x_k ≤ lim: an end beyond it moves to the crossing.
        let (g0, g1) = (s * e0[k] - lim, s * e1[k] - lim);
        match (g0 > T::zero(), g1 > T::zero()) {
            (true, true) => return None,
            (true, false) => e0 += (e1 - e0) * (g0 / (g0 - g1)),
            (false, true) => e1 += (e0 - e1) * (g1 / (g1 - g0)),
            (false, false) => {}
        }
    }
    Some(nalgebra::center(&e0, &e1))
}

/// A segment as a box ([`segment_box`]): `centre + rot·[−half_extents, half_extents]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SegmentBox<T: Real, const D: usize> {
    pub half_extents: SVector<T, D>,
    pub rot: SMatrix<T, D, D>,
    pub centre: SVector<T, D>,
}

/// A segment `[p, q]` as a box: its half-extents `(‖q − p‖/2, 0, …)`, a rotation whose
/// first column is along `q − p`, and its midpoint. 2D: the rotation by the segment's
/// angle; 3D: the basis of Duff et al. 2017 (*Building an orthonormal basis, revisited*).
pub(crate) fn segment_box<T: Real, const D: usize>(
    p: &Point<T, D>,
    q: &Point<T, D>,
) -> SegmentBox<T, D> {
    let mid = nalgebra::center(p, q).coords;
    let d = q - p;
    let len = norm(&d);
    let mut h = SVector::<T, D>::zeros();
    let mut m = SMatrix::<T, D, D>::identity();
    if !(len > T::zero()) || !len.is_finite() {
        return SegmentBox {
            half_extents: h,
            rot: m,
            centre: mid,
        };
    }
    let u = d / len;
    h[0] = len / crate::real::lit(2.0);
    if D == 2 {
        m[(0, 0)] = u[0];
        m[(1, 0)] = u[1];
        m[(0, 1)] = -u[1];
        m[(1, 1)] = u[0];
    } else if D == 3 {
        let (x, y, z) = (u[0], u[1], u[2]);
        let s = sign(z);
        let a = -T::one() / (s + z);
        let b = x * y * a;
        // Columns u, b1, b2 with (b1, b2, u) right-handed, so det = +1.
        let b1 = [T::one() + s * x * x * a, s * b, -s * x];
        let b2 = [b, s + y * y * a, -y];
        for r in 0..3 {
            m[(r, 0)] = u[r];
            m[(r, 1)] = b1[r];
            m[(r, 2)] = b2[r];
        }
    }
    SegmentBox {
        half_extents: h,
        rot: m,
        centre: mid,
    }
}
