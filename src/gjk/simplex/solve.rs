//! The simplex's closest-point solve (docs/gjk.md §2): the dispatch to signed volumes for
//! `D ≤ 3` ([`super::volumes`], in the plane [`super::planar`]) and Johnson's subalgorithm
//! for `D ≥ 4` or on request ([`super::johnson`]), each answer certified by the
//! optimality condition, with the exhaustive projection search as the fallback
//! ([`super::project`]).

use super::{Closest, Simplex};
use crate::gjk::{VertexSet, johnson::Johnson, planar, project, volumes};
use crate::{Real, dim::Dim, linalg::pow2_scale, tolerance::Rounding, trace::Solver};
use nalgebra::{Const, Point, SMatrix, SVector};

impl<T: Real, const D: usize> Simplex<T, D>
where
    Const<D>: Dim,
{
    /// Reduces the simplex to the smallest sub-simplex holding its closest point to the
    /// origin and returns that point (docs/gjk.md §2):
    /// - `D ≤ 3` without `johnson`: signed volumes ([`volumes`]); a claim that the origin is
    ///   inside must leave a residual `Σ λᵢ yᵢ` within the rounding;
    /// - with `johnson`: Johnson's first subset with the newest vertex passing the sign
    ///   tests, a full simplex being decided by a pivoted solve ([`Self::origin_inside`]);
    ///
    /// and either answer must pass the optimality condition ([`Self::optimal`]), else the
    /// exhaustive projection search decides ([`Self::search`]). `None` if even that finds
    /// no valid sub-simplex; then the newest vertex is dropped again.
    pub(crate) fn solve(
        &mut self,
        johnson: Option<&Johnson<T, D>>,
        r: &Rounding<T>,
    ) -> Option<Closest<T, D>> {
        self.solve_for(johnson, r, true)
    }

    /// [`Self::solve`]; without `witnesses`, the signed-volumes path leaves
    /// [`Closest::a`] and [`Closest::b`] at the origin (an intersection test never reads
    /// them: two products per vertex and iteration saved).
    pub(crate) fn solve_for(
        &mut self,
        johnson: Option<&Johnson<T, D>>,
        r: &Rounding<T>,
        witnesses: bool,
    ) -> Option<Closest<T, D>> {
        debug_assert!(!self.set.is_empty());
        match johnson {
            None if D <= 3 => self.solve_volumes(r, witnesses),
            Some(j) => self.solve_johnson(j, r),
            None => self.search(self.len() == D + 1, r, None),
        }
    }

    /// Signed volumes on the vertices scaled by a power of two into `[1/2, 2)` when their
    /// size would over- or underflow the degree-3 volumes (floats) or lose their digits
    /// (fixed-point below 1/2): exact, and the barycentric coordinates do not change.
    /// Algorithm:
    /// 1. One vertex: itself, exactly (no volumes, no certificate).
    /// 2. The power of two `k` for the vertices' largest coordinate; 2D floats with `k = 1`:
    ///    the signed areas in the plane ([`Self::solve_planar`]).
    /// 3. Signed volumes ([`volumes::closest`]) on the vertices, scaled by `k` when `k ≠ 1`
    ///    (`v` divided back); floats take `v` as the direction.
    /// 4. The origin inside by the sign tests: kept if the residual `Σ λᵢ yᵢ` is within the
    ///    rounding (docs/gjk.md §2.5), else the pivoted solve ([`Self::origin_inside`]),
    ///    else the search ([`Self::search`]).
    /// 5. Otherwise a segment, or an answer passing the optimality condition
    ///    ([`Self::optimal`]), is kept; else the exhaustive search.
    fn solve_volumes(&mut self, r: &Rounding<T>, witnesses: bool) -> Option<Closest<T, D>> {
        let pts = self.pts.as_ref();
        if self.set.is_single() {
            // One vertex is its own closest point, exactly: no volumes, no certificate
            // (`v·(y − v) = 0`). Every GJK run's first solve (half of all solves on the
            // 2D corpus).
            let p = &pts[self.set.lowest()];
            return Some(Closest {
                v: p.w,
                dir: p.w,
                a: p.a,
                b: p.b,
                scale: crate::real::amax(&p.w),
                full: false,
                via: Solver::Vertex,
            });
        }
        let scale = self
            .points()
            .fold(T::zero(), |m, p| crate::real::amax_from(m, &p.w));
        let k = pow2_scale(scale);
        if D == 2 && k == T::one() && !crate::real::is_fixed::<T>() {
            return self.solve_planar(scale, r, witnesses);
        }
        // Each assigned where it stays (no tuple of the two moved out of the branches).
        let cand;
        let mut c;
        if k == T::one() {
            // The common case: the vertices as they are, read in place.
            cand = volumes::closest(&volumes::Ws(pts), self.set);
            c = volumes::to_closest(&cand, pts, scale, witnesses);
        } else {
            // Only the slots in use: a free one may hold anything (a dropped warm start's
            // vertex, a support point staged and refused by its range check), which the
            // scale could overflow in fixed point.
            let mut y = <Const<D> as Dim>::slots(SVector::<T, D>::zeros());
            for (i, p) in pts.iter().enumerate() {
                if self.set.contains(i) {
                    y.as_mut()[i] = p.w * k;
                }
            }
            cand = volumes::closest(y.as_ref(), self.set);
            c = volumes::to_closest(&cand, pts, scale, witnesses);
            c.v /= k;
        }
        // Floats: `v` is as accurate in direction as the normal (and `‖v‖` then serves as
        // `‖dir‖`); fixed-point rounds `v`'s components to an ulp each and keeps the normal.
        if !crate::real::is_fixed::<T>() {
            c.dir = c.v;
        }
        let full = self.len() == D + 1;
        if cand.full() {
            // The sign tests say inside; the residual must agree (a flat simplex passes the
            // sign tests on noise: docs/gjk.md §2.5).
            let mut res = SVector::<T, D>::zeros();
            for (i, p) in pts.iter().enumerate() {
                if cand.set.contains(i) {
                    res += p.w * cand.lambda[i];
                }
            }
            if crate::real::norm(&res) <= r.residual(scale, D) {
                (c.v, c.dir) = (res, res);
                self.set = cand.set;
                return Some(c);
            }
            // The volumes' coordinates of a thin simplex carry `ε·M³/volume` of error: the
            // backward-stable solve decides (a tetrahedron 1e-4 of its edges' volume left
            // a residual of 2.6e-13 around an origin 1.2e-4 inside).
            if let Some(c) = self.origin_inside(r) {
                return Some(c);
            }
            return self.search(true, r, None);
        }
        // Two vertices: the segment's region tests are the certificate's own conditions
        // (`v·(yⱼ − v) ≥ 0` at each end is `−yᵢ·t ≥ 0` or `≤ t·t`), so it cannot fail.
        if self.set.len() == 2 || self.optimal(&c.v, scale, r) {
            self.set = cand.set;
            return Some(c);
        }
        self.search(full, r, None)
    }

    /// [`Self::solve_volumes`] in the plane (floats, vertices needing no scaling): the same
    /// signed areas in [`planar`], certified the same way.
    fn solve_planar(
        &mut self,
        scale: T,
        r: &Rounding<T>,
        witnesses: bool,
    ) -> Option<Closest<T, D>> {
        let pts = self.pts.as_ref();
        // Matched by reference: the part stays where the solve wrote it.
        match &planar::closest(pts, self.set) {
            planar::Planar::Inside(part) => {
                // The residual must agree with the sign tests (docs/gjk.md §2.5).
                if crate::real::norm(&part.v) <= r.residual(scale, D) {
                    self.set = part.set;
                    return Some(planar::to_closest(part, pts, scale, witnesses));
                }
                if let Some(c) = self.origin_inside(r) {
                    return Some(c);
                }
                self.search(true, r, None)
            }
            planar::Planar::Boundary(part) => {
                // A segment's regions are its certificate; a triangle's edge or vertex must
                // pass the optimality condition.
                if self.set.len() == 2 || self.optimal(&part.v, scale, r) {
                    self.set = part.set;
                    return Some(planar::to_closest(part, pts, scale, witnesses));
                }
                self.search(true, r, None)
            }
        }
    }

    /// Johnson's choice: the first subset with the newest vertex passing the sign tests
    /// ([`super::johnson`]), with its own coordinates when the optimality condition
    /// certifies them, else the projection.
    fn solve_johnson(&mut self, j: &Johnson<T, D>, r: &Rounding<T>) -> Option<Closest<T, D>> {
        let others = self.set.without(self.last);
        let full = self.len() == D + 1;
        if full && let Some(c) = self.origin_inside(r) {
            return Some(c);
        }
        let slack = r.barycentric(D);
        // Fixed point: Johnson's coordinates certify `v` to the absolute rounding the
        // optimality condition allows, not its direction (an ulp per component of a
        // 1e-4 `v` is 1e-3 rad: the plane bound of a vertex 0.6 away fell to 0 at a gap of
        // 8e-5). The projection's reorthogonalised direction goes first; Johnson's
        // coordinates remain its fallback (docs/gjk.md §2.2).
        let passes: &[bool] = if crate::real::is_fixed::<T>() {
            &[false]
        } else {
            &[true, false]
        };
        let mut s = VertexSet::EMPTY;
        loop {
            let set = s.with(self.last);
            if !(full && set == self.set) && j.proper(set) && j.maximal(self.set, set) {
                for &fast in passes {
                    if let Some(c) =
                        project::closest_of(self.pts.as_ref(), set, self.last, slack, Some(j), fast)
                        && self.optimal(&c.v, c.scale, r)
                    {
                        self.set = set;
                        // Johnson's own coordinates, else the projection's (§2.3).
                        let via = if fast { Solver::Johnson } else { c.via };
                        return Some(Closest { via, ..c });
                    }
                }
                break; // rounding fooled the sign tests
            }
            s = s.next_subset_of(others);
            if s.is_empty() {
                break;
            }
        }
        self.search(full, r, Some(j))
    }

    /// Whether `v` is the closest point of the whole simplex: `v·(yⱼ − v) ≥ 0` for every
    /// vertex (the optimality condition), up to the rounding of those products.
    fn optimal(&self, v: &SVector<T, D>, scale: T, r: &Rounding<T>) -> bool {
        if crate::real::is_fixed::<T>() {
            // `v·(yⱼ − v)` of a short `v` is below an ulp (‖v‖ = 2.5e-4 against vertices
            // 0.01 away: a wrong edge passed, GJK stopped `NoProgress` 1.3e-4 above the
            // distance), and an ulp of the products is most of a 0.05-wide simplex's
            // slack (the exact point failed). The condition is homogeneous in `v`: test
            // it on `u·v` at unit size (a power of two: exact), with the slack of that.
            let u = pow2_scale(crate::real::amax(v));
            let a = v * u;
            let slack = r.optimality_scaled(u, scale, D);
            return self.points().all(|p| a.dot(&(p.w - v)) >= -slack);
        }
        let vv = v.norm_squared();
        let slack = r.optimality(crate::real::amax(v), scale, D);
        self.in_use(|p| !(v.dot(&p.w) - vv >= -slack)).is_empty()
    }

    /// The robust fallback when the fast choice disagrees with the geometry (elongated or
    /// near-degenerate simplices): the nearest valid projection over every subset (a full
    /// simplex excepted when `full`: it was decided already). In exact arithmetic this is
    /// the closest point of the simplex; it costs `2^n` projections, so it only runs when
    /// the fast path's answer fails its check (docs/gjk.md §2.4).
    pub(super) fn search(
        &mut self,
        full: bool,
        r: &Rounding<T>,
        johnson: Option<&Johnson<T, D>>,
    ) -> Option<Closest<T, D>> {
        let all = self.set;
        let slack = r.barycentric(D);
        // Fixed point: a candidate with the newest vertex within the resolution of one
        // without it wins. The same point to rounding, but its direction is new: a triangle
        // (`λ = 3e-7` at its new vertex) tied with its old edge at `‖v‖ = 1e-4`, the edge
        // was kept, and the stalled run's plane bound along the edge's direction stayed 0.
        let (tie, nb) = if crate::real::is_fixed::<T>() {
            (r.band(T::zero()), VertexSet::single(self.last))
        } else {
            (T::zero(), VertexSet::EMPTY)
        };
        let mut best: Option<(VertexSet, Closest<T, D>, T)> = None;
        let mut s = VertexSet::EMPTY;
        loop {
            s = s.next_subset_of(all);
            if s.is_empty() {
                break;
            }
            if full && s == all {
                continue;
            }
            if let Some(c) =
                project::closest_of(self.pts.as_ref(), s, self.last, slack, johnson, false)
            {
                let vv = rank(&c.v);
                let better = |(bs, _, bv): &(VertexSet, Closest<T, D>, T)| {
                    vv < *bv || (!s.and(nb).is_empty() && bs.and(nb).is_empty() && vv <= *bv + tie)
                };
                if best.as_ref().is_none_or(better) {
                    best = Some((s, c, vv));
                }
            }
        }
        match best {
            Some((set, c, _)) => {
                self.set = set;
                Some(c)
            }
            None => {
                self.set = all.without(self.last);
                None
            }
        }
    }

    /// The closest point of the simplex to the origin, with its witnesses (the exhaustive
    /// search over sub-simplices; the simplex is left unchanged).
    pub(crate) fn closest(&self, r: &Rounding<T>) -> Option<Closest<T, D>> {
        let slack = r.barycentric(D);
        let mut best: Option<(Closest<T, D>, T)> = None;
        let mut s = VertexSet::EMPTY;
        loop {
            s = s.next_subset_of(self.set);
            if s.is_empty() {
                break;
            }
            if let Some(c) =
                project::closest_of(self.pts.as_ref(), s, self.last, slack, None, false)
            {
                let vv = rank(&c.v);
                if best.as_ref().is_none_or(|(_, bv)| vv < *bv) {
                    best = Some((c, vv));
                }
            }
        }
        best.map(|(c, _)| c)
    }

    /// Whether the origin lies inside the full simplex, decided by a backward-stable solve
    /// of `Σ μᵢ (yᵢ − y_n) = −y_n` ([`crate::linalg::solve_pivoted`]): its residual stays
    /// near `ε · scale` however thin the simplex, so the origin is inside iff every
    /// barycentric coordinate is non-negative and the residual `v` is within the rounding.
    fn origin_inside(&self, r: &Rounding<T>) -> Option<Closest<T, D>> {
        let n = D + 1;
        let last = self.last;
        let pts = self.pts.as_ref();
        let y_n = pts[last].w;
        let others = || (0..n).filter(move |&i| i != last);
        let mut m = SMatrix::<T, D, D>::zeros();
        for (col, i) in others().enumerate() {
            m.set_column(col, &(pts[i].w - y_n));
        }
        let mu = crate::linalg::solve_pivoted(m, -y_n)?.x;
        let mut sum = T::zero();
        let (mut dv, mut a, mut b) = (
            SVector::<T, D>::zeros(),
            pts[last].a.coords,
            pts[last].b.coords,
        );
        let mut scale = y_n.amax();
        for (col, i) in others().enumerate() {
            let l = mu[col];
            if l < T::zero() {
                return None;
            }
            sum += l;
            dv += (pts[i].w - y_n) * l;
            a += (pts[i].a.coords - pts[last].a.coords) * l;
            b += (pts[i].b.coords - pts[last].b.coords) * l;
            scale = scale.max(pts[i].w.amax());
        }
        let v = y_n + dv;
        if sum > T::one() || crate::real::norm(&v) > r.residual(scale, D) {
            return None;
        }
        Some(Closest {
            v,
            dir: v,
            a: Point::from(a),
            b: Point::from(b),
            scale,
            full: true,
            via: Solver::InsideSolve,
        })
    }
}

/// A size of `v` to rank candidate points by (smaller is closer to the origin): `‖v‖²` for
/// floats; fixed point takes the scaled norm ([`crate::real::norm`]), since `‖v‖²` of a
/// short `v` is a few ulps (at `‖v‖ = 1.2e-3`, 25 ulps: a triangle's point 1e-5 closer
/// than its edge's tied with it, the search kept the edge and GJK stopped `NoProgress`).
#[inline]
fn rank<T: Real, const D: usize>(v: &SVector<T, D>) -> T {
    if crate::real::is_fixed::<T>() {
        crate::real::norm(v)
    } else {
        v.norm_squared()
    }
}
