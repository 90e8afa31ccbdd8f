//! The simplex: GJK's state, warm start and result, and the dispatch to its closest-point
//! solvers (docs/gjk.md §2): signed volumes for `D ≤ 3` ([`super::volumes`]), Johnson's
//! subalgorithm for `D ≥ 4` or on request ([`super::johnson`]), each certified by the
//! optimality condition, with the exhaustive projection search as the fallback
//! ([`super::project`]).

use super::{johnson::Johnson, planar, project, volumes};
use crate::{Real, dim::Dim, tolerance::Rounding, trace::Solver};
use nalgebra::{Const, Point, SMatrix, SVector};
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// A vertex of the configuration-space obstacle `A − B`, with its witness points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportPoint<T: Real, const D: usize> {
    /// `a − b`.
    pub w: SVector<T, D>,
    /// The point on A.
    pub a: Point<T, D>,
    /// The point on B.
    pub b: Point<T, D>,
}

impl<T: Real, const D: usize> SupportPoint<T, D> {
    /// The vertex `a − b` of `A − B`.
    #[inline]
    #[must_use]
    pub fn new(a: Point<T, D>, b: Point<T, D>) -> Self {
        Self { w: a - b, a, b }
    }
}

/// The closest point of a simplex to the origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Closest<T: Real, const D: usize> {
    /// The point `v = Σ λᵢ yᵢ`.
    pub v: SVector<T, D>,
    /// A vector along `v`, more accurate in direction where the solver had one (a face or
    /// line normal); else `v`.
    pub dir: SVector<T, D>,
    /// Its witness on A, `Σ λᵢ aᵢ`.
    pub a: Point<T, D>,
    /// Its witness on B, `Σ λᵢ bᵢ`.
    pub b: Point<T, D>,
    /// The largest coordinate magnitude over the vertices used, or over the whole simplex
    /// (the rounding's scale: at least the vertices used).
    pub scale: T,
    /// Whether the solution used all `D + 1` vertices (the origin is inside).
    pub full: bool,
    /// Which part of the subalgorithm decided (traces only, [`crate::trace`]).
    pub via: Solver,
}

/// A simplex of at most `D + 1` vertices of `A − B`.
///
/// It is GJK's state, its warm start and its result: pass one in that is empty to start
/// from the shapes' centres, or one that holds points of `A − B` to start from them. No
/// heap allocation; it holds only the vertices (the solvers keep their own state).
#[derive(Clone, Copy)]
pub struct Simplex<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    pts: <Const<D> as Dim>::Slots<SupportPoint<T, D>>,
    /// The direction `dᵢ` each vertex is the support point of (`aᵢ = s_A(−dᵢ)`,
    /// `bᵢ = s_B(dᵢ)`, on the cores), 0 when not known: a warm start re-derives its
    /// vertices from these ([`Simplex::rederive`]), so it never holds a point that is not
    /// in the current `A − B`.
    dirs: <Const<D> as Dim>::Slots<SVector<T, D>>,
    /// The vertices in use.
    bits: u8,
    /// The slot of the newest vertex (meaningful while `bits != 0`).
    last: usize,
}

impl<T: Real, const D: usize> core::fmt::Debug for Simplex<T, D>
where
    Const<D>: Dim,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.points()).finish()
    }
}

impl<T: Real, const D: usize> Default for Simplex<T, D>
where
    Const<D>: Dim,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> Simplex<T, D>
where
    Const<D>: Dim,
{
    /// An empty simplex.
    #[must_use]
    pub fn new() -> Self {
        let sp = SupportPoint {
            w: SVector::zeros(),
            a: Point::origin(),
            b: Point::origin(),
        };
        Self {
            pts: <Const<D> as Dim>::slots(sp),
            dirs: <Const<D> as Dim>::slots(SVector::zeros()),
            bits: 0,
            last: 0,
        }
    }

    /// Removes every vertex.
    pub fn clear(&mut self) {
        self.bits = 0;
    }

    /// The number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether the simplex has no vertex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    /// The vertices, in slot order.
    pub fn points(&self) -> impl Iterator<Item = &SupportPoint<T, D>> + '_ {
        let bits = self.bits;
        self.pts
            .as_ref()
            .iter()
            .enumerate()
            .filter(move |(i, _)| bits & (1 << i) != 0)
            .map(|(_, p)| p)
    }

    /// Whether `w` is exactly one of the vertices.
    #[must_use]
    pub(crate) fn contains(&self, w: &SVector<T, D>) -> bool {
        self.points().any(|p| p.w == *w)
    }

    /// Adds a vertex in a free slot and returns the slot; `None` (nothing changed) when the
    /// simplex is full. With `johnson`, its tables are extended.
    pub(crate) fn push(
        &mut self,
        p: SupportPoint<T, D>,
        johnson: Option<&mut Johnson<T, D>>,
    ) -> Option<usize> {
        let slot = (0..D + 1).find(|i| self.bits & (1 << i) == 0)?;
        self.pts.as_mut()[slot] = p;
        self.dirs.as_mut()[slot] = SVector::zeros();
        if let Some(j) = johnson {
            j.add(self.pts.as_ref(), self.bits, slot);
        }
        self.last = slot;
        self.bits |= 1 << slot;
        Some(slot)
    }

    /// Stores a vertex without solving, with the direction it is the support point of (a
    /// warm start: GJK re-derives the vertices from their directions and re-solves them,
    /// after checking their range, before it uses them).
    pub(crate) fn push_raw(&mut self, p: SupportPoint<T, D>, dir: SVector<T, D>) -> bool {
        let Some(slot) = (0..D + 1).find(|i| self.bits & (1 << i) == 0) else {
            return false;
        };
        self.pts.as_mut()[slot] = p;
        self.dirs.as_mut()[slot] = dir;
        self.last = slot;
        self.bits |= 1 << slot;
        true
    }

    /// Moves every vertex's B witness by `du` in place (`w = a − b` recomputed): B moved.
    /// Johnson's tables, which depend on the vertices, are the caller's to rebuild.
    pub(crate) fn shift_b(&mut self, du: &SVector<T, D>) {
        let bits = self.bits;
        for (i, p) in self.pts.as_mut().iter_mut().enumerate() {
            if bits & (1 << i) != 0 {
                *p = SupportPoint::new(p.a, p.b + du);
            }
        }
    }

    /// Records that the newest vertex is the support point along `dir` (`a = s_A(−dir)`,
    /// `b = s_B(dir)`).
    #[inline]
    pub(crate) fn set_dir(&mut self, dir: SVector<T, D>) {
        if self.bits != 0 {
            self.dirs.as_mut()[self.last] = dir;
        }
    }

    /// The vertices with their directions, in slot order.
    pub(crate) fn points_with_dirs(
        &self,
    ) -> impl Iterator<Item = (&SupportPoint<T, D>, &SVector<T, D>)> + '_ {
        let bits = self.bits;
        self.pts
            .as_ref()
            .iter()
            .zip(self.dirs.as_ref())
            .enumerate()
            .filter(move |(i, _)| bits & (1 << i) != 0)
            .map(|(_, p)| p)
    }

    /// Replaces every vertex by the support point of the cores of `a` and `b` along its
    /// direction: a warm start (a cache filled on another pair, or before the pair moved)
    /// then holds points of the current `A − B` only, so `‖v‖` stays a proven upper bound.
    /// Costs one support evaluation of each shape per vertex.
    pub(crate) fn rederive<A, B>(&mut self, a: &A, b: &B)
    where
        A: crate::shape::SupportMap<T, D> + ?Sized,
        B: crate::shape::SupportMap<T, D> + ?Sized,
    {
        for i in 0..D + 1 {
            if self.bits & (1 << i) != 0 {
                let d = self.dirs.as_ref()[i];
                self.pts.as_mut()[i] = SupportPoint::new(a.core_support(&-d), b.core_support(&d));
            }
        }
    }

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
        debug_assert!(self.bits != 0);
        match johnson {
            None if D <= 3 => self.solve_volumes(r, witnesses),
            Some(j) => self.solve_johnson(j, r),
            None => self.search(self.len() == D + 1, r, None),
        }
    }

    /// Signed volumes on the vertices scaled by a power of two into `[1/2, 2)` when their
    /// size would over- or underflow the degree-3 volumes (floats) or lose their digits
    /// (fixed-point below 1/2): exact, and the barycentric coordinates do not change.
    fn solve_volumes(&mut self, r: &Rounding<T>, witnesses: bool) -> Option<Closest<T, D>> {
        let pts = self.pts.as_ref();
        if self.bits.is_power_of_two() {
            // One vertex is its own closest point, exactly: no volumes, no certificate
            // (`v·(y − v) = 0`). Every GJK run's first solve (half of all solves on the
            // 2D corpus).
            let p = &pts[self.bits.trailing_zeros() as usize];
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
        let mut scale = T::zero();
        for (i, p) in pts.iter().enumerate() {
            let m = crate::real::amax(&p.w);
            if self.bits & (1 << i) != 0 && m > scale {
                scale = m;
            }
        }
        let k = pow2_scale(scale);
        if D == 2 && k == T::one() && !crate::real::is_fixed::<T>() {
            return self.solve_planar(scale, r, witnesses);
        }
        let (cand, mut c) = if k == T::one() {
            // The common case: the vertices as they are, read in place.
            let cand = volumes::closest(&volumes::Ws(pts), self.bits);
            (cand, volumes::to_closest(&cand, pts, scale, witnesses))
        } else {
            let mut y = <Const<D> as Dim>::slots(SVector::<T, D>::zeros());
            for (i, p) in pts.iter().enumerate() {
                y.as_mut()[i] = p.w * k;
            }
            let cand = volumes::closest(y.as_ref(), self.bits);
            let mut c = volumes::to_closest(&cand, pts, scale, witnesses);
            c.v /= k;
            (cand, c)
        };
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
                if cand.set & (1 << i) != 0 {
                    res += p.w * cand.lambda[i];
                }
            }
            if crate::real::norm(&res) <= r.residual(scale, D) {
                (c.v, c.dir) = (res, res);
                self.bits = cand.set;
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
        if self.bits.count_ones() == 2 || self.optimal(&c.v, scale, r) {
            self.bits = cand.set;
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
        match planar::closest(pts, self.bits) {
            planar::Planar::Inside(part) => {
                // The residual must agree with the sign tests (docs/gjk.md §2.5).
                if crate::real::norm(&part.v) <= r.residual(scale, D) {
                    self.bits = part.set;
                    return Some(planar::to_closest(&part, pts, scale, witnesses));
                }
                if let Some(c) = self.origin_inside(r) {
                    return Some(c);
                }
                self.search(true, r, None)
            }
            planar::Planar::Boundary(part) => {
                // A segment's regions are its certificate; a triangle's edge or vertex must
                // pass the optimality condition.
                if self.bits.count_ones() == 2 || self.optimal(&part.v, scale, r) {
                    self.bits = part.set;
                    return Some(planar::to_closest(&part, pts, scale, witnesses));
                }
                self.search(true, r, None)
            }
        }
    }

    /// Johnson's choice: the first subset with the newest vertex passing the sign tests
    /// ([`super::johnson`]), with its own coordinates when the optimality condition
    /// certifies them, else the projection.
    fn solve_johnson(&mut self, j: &Johnson<T, D>, r: &Rounding<T>) -> Option<Closest<T, D>> {
        let nb = 1u8 << self.last;
        let others = self.bits & !nb;
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
        let mut s: u8 = 0;
        loop {
            let set = s | nb;
            if !(full && set == self.bits) && j.proper(set) && j.maximal(self.bits, set) {
                for &fast in passes {
                    if let Some(c) =
                        project::closest_of(self.pts.as_ref(), set, self.last, slack, Some(j), fast)
                        && self.optimal(&c.v, c.scale, r)
                    {
                        self.bits = set;
                        // Johnson's own coordinates, else the projection's (§2.3).
                        let via = if fast { Solver::Johnson } else { c.via };
                        return Some(Closest { via, ..c });
                    }
                }
                break; // rounding fooled the sign tests
            }
            s = s.wrapping_sub(others) & others;
            if s == 0 {
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
        self.points().all(|p| v.dot(&p.w) - vv >= -slack)
    }

    /// The robust fallback when the fast choice disagrees with the geometry (elongated or
    /// near-degenerate simplices): the nearest valid projection over every subset (a full
    /// simplex excepted when `full`: it was decided already). In exact arithmetic this is
    /// the closest point of the simplex; it costs `2^n` projections, so it only runs when
    /// the fast path's answer fails its check (docs/gjk.md §2.4).
    fn search(
        &mut self,
        full: bool,
        r: &Rounding<T>,
        johnson: Option<&Johnson<T, D>>,
    ) -> Option<Closest<T, D>> {
        let all = self.bits;
        let slack = r.barycentric(D);
        // Fixed point: a candidate with the newest vertex within the resolution of one
        // without it wins. The same point to rounding, but its direction is new: a triangle
        // (`λ = 3e-7` at its new vertex) tied with its old edge at `‖v‖ = 1e-4`, the edge
        // was kept, and the stalled run's plane bound along the edge's direction stayed 0.
        let (tie, nb) = if crate::real::is_fixed::<T>() {
            (r.band(T::zero()), 1u8 << self.last)
        } else {
            (T::zero(), 0)
        };
        let mut best: Option<(u8, Closest<T, D>, T)> = None;
        let mut s: u8 = 0;
        loop {
            s = s.wrapping_sub(all) & all;
            if s == 0 {
                break;
            }
            if full && s == all {
                continue;
            }
            if let Some(c) =
                project::closest_of(self.pts.as_ref(), s, self.last, slack, johnson, false)
            {
                let vv = rank(&c.v);
                let better = |(bs, _, bv): &(u8, Closest<T, D>, T)| {
                    vv < *bv || (s & nb != 0 && *bs & nb == 0 && vv <= *bv + tie)
                };
                if best.as_ref().is_none_or(better) {
                    best = Some((s, c, vv));
                }
            }
        }
        match best {
            Some((set, c, _)) => {
                self.bits = set;
                Some(c)
            }
            None => {
                self.bits = all & !(1 << self.last);
                None
            }
        }
    }

    /// The closest point of the simplex to the origin, with its witnesses (the exhaustive
    /// search over sub-simplices; the simplex is left unchanged).
    pub(crate) fn closest(&self, r: &Rounding<T>) -> Option<Closest<T, D>> {
        let slack = r.barycentric(D);
        let mut best: Option<(Closest<T, D>, T)> = None;
        let mut s: u8 = 0;
        loop {
            s = s.wrapping_sub(self.bits) & self.bits;
            if s == 0 {
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
        let (mu, _) = crate::linalg::solve_pivoted(m, -y_n)?;
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

    /// Rebuilds the simplex from `points` (a warm start), keeping the subset that holds
    /// the closest point; returns that point, or `None` if nothing usable was given.
    pub(crate) fn reseed(
        &mut self,
        points: &[SupportPoint<T, D>],
        mut johnson: Option<&mut Johnson<T, D>>,
        r: &Rounding<T>,
    ) -> Option<Closest<T, D>> {
        // `points` are this simplex's own vertices in slot order (GJK's warm start): keep
        // their directions.
        let mut dirs = [SVector::<T, D>::zeros(); crate::dim::MAX_DIM + 1];
        for (d, (_, x)) in dirs.iter_mut().zip(self.points_with_dirs()) {
            *d = *x;
        }
        self.clear();
        for (p, d) in points.iter().zip(dirs).take(D + 1) {
            if !self.contains(&p.w) && self.push(*p, johnson.as_deref_mut()).is_some() {
                self.set_dir(d);
            }
        }
        if self.is_empty() {
            return None;
        }
        self.solve(johnson.as_deref(), r)
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

/// A power of two `k` that brings `m` (a simplex's largest coordinate) into `[1/2, 2)`
/// where the degree-3 signed volumes would otherwise over- or underflow (floats outside
/// `[2⁻³⁰, 2³⁰]`) or lose digits (fixed-point below 1/2); 1 when `m` is fine as it is
/// (or 0).
pub(super) fn pow2_scale<T: Real>(m: T) -> T {
    let fixed = crate::real::is_fixed::<T>();
    let (lo, hi) = if fixed {
        (crate::real::lit::<T>(0.5), T::max_value().unwrap_or(m))
    } else {
        let range = crate::tolerance::range::SIGNED_VOLUME_RANGE;
        (
            crate::real::lit::<T>(1.0 / range),
            crate::real::lit::<T>(range),
        )
    };
    if !(m > T::zero()) || (m >= lo && m <= hi) {
        return T::one();
    }
    let mf: f64 = m.to_subset().unwrap_or(1.0);
    let k = 2f64.powi(-(mf.log2().round() as i32));
    crate::real::lit(k)
}

// Slots are addressed by `u8` masks.
const _: () = assert!(crate::dim::MAX_DIM < 8);

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Point3, Vector2, Vector3};

    fn sp3(x: f64, y: f64, z: f64) -> SupportPoint<f64, 3> {
        SupportPoint::new(Point3::new(x, y, z), Point3::origin())
    }

    /// Both solvers on the same cases: (vertices, expected closest point, vertices kept).
    #[test]
    fn closest_point_cases_3d_both_solvers() {
        type Case<'a> = (&'a [(f64, f64, f64)], [f64; 3], usize);
        let cases: &[Case] = &[
            (&[(1.0, 2.0, 3.0)], [1.0, 2.0, 3.0], 1),
            (&[(1.0, -1.0, 1.0), (1.0, 1.0, 1.0)], [1.0, 0.0, 1.0], 2),
            (&[(3.0, 1.0, 0.0), (1.0, 1.0, 0.0)], [1.0, 1.0, 0.0], 1),
            (
                &[(-1.0, -1.0, 2.0), (2.0, -1.0, 2.0), (-1.0, 2.0, 2.0)],
                [0.0, 0.0, 2.0],
                3,
            ),
            (
                &[(3.0, 0.0, 0.0), (1.0, -1.0, 0.0), (1.0, 1.0, 0.0)],
                [1.0, 0.0, 0.0],
                2,
            ),
            (
                &[
                    (1.0, 1.0, 1.0),
                    (-1.0, -1.0, 1.0),
                    (-1.0, 1.0, -1.0),
                    (1.0, -1.0, -1.0),
                ],
                [0.0, 0.0, 0.0],
                4,
            ),
            (
                &[
                    (3.0, 0.0, 0.0),
                    (1.0, -1.0, -1.0),
                    (1.0, 2.0, -1.0),
                    (1.0, -1.0, 2.0),
                ],
                [1.0, 0.0, 0.0],
                3,
            ),
        ];
        let r = Rounding::of(&crate::Tolerances::<f64>::default());
        for johnson in [false, true] {
            for (pts, want, kept) in cases {
                let mut s = Simplex::<f64, 3>::new();
                let mut j = Johnson::new();
                let mut c = None;
                for &(x, y, z) in pts.iter() {
                    assert!(s.push(sp3(x, y, z), johnson.then_some(&mut j)).is_some());
                    c = s.solve(johnson.then_some(&j), &r);
                }
                let c = c.expect("solvable");
                let err = (c.v - Vector3::from(*want)).norm();
                assert!(
                    err < 1e-12,
                    "{pts:?} (johnson {johnson}): v = {:?}, want {want:?}",
                    c.v
                );
                assert_eq!(s.len(), *kept, "{pts:?} (johnson {johnson})");
            }
        }
    }

    #[test]
    fn far_apart_small_simplex_keeps_its_witnesses_in_f32() {
        // A unit segment 1e4 away: plain `yᵢ·yⱼ` products would lose the barycentric
        // coordinates entirely in f32 (ε·‖y‖² ≈ 12 against terms of size 1).
        let r = Rounding::of(&crate::Tolerances::<f32>::default());
        for johnson in [false, true] {
            let mut s = Simplex::<f32, 2>::new();
            let mut j = Johnson::new();
            s.push(
                SupportPoint::new(Point2::new(1e4, -0.25), Point2::origin()),
                johnson.then_some(&mut j),
            );
            s.push(
                SupportPoint::new(Point2::new(1e4, 0.75), Point2::origin()),
                johnson.then_some(&mut j),
            );
            let c = s.solve(johnson.then_some(&j), &r).unwrap();
            assert!((c.v - Vector2::new(1e4, 0.0)).norm() < 2e-3, "{:?}", c.v);
        }
    }

    #[test]
    fn pow2_scale_cases() {
        assert_eq!(pow2_scale(1.0f64), 1.0);
        assert_eq!(pow2_scale(0.0f64), 1.0);
        assert_eq!(pow2_scale(1e12f64) * 1e12, 1e12 * 2f64.powi(-40));
        assert!((0.5..2.0).contains(&(pow2_scale(3e-20f32) * 3e-20)));
    }
}

#[cfg(all(test, feature = "fixed"))]
mod fixed_tests {
    use super::*;
    use nalgebra::{Point3, Vector3};
    use simba::scalar::FixedI40F24 as Fx;

    /// GJK's iteration 10 on two ellipsoids 1e-4 apart (fixed point): a segment and a new
    /// vertex, 0.05 across, whose triangle's closest point (1.21578e-3 from the origin, in
    /// its interior) is 1e-5 closer than the segment's (1.22600e-3).
    fn small_triangle() -> [Vector3<f64>; 3] {
        [
            Vector3::new(
                0.020998835563659668,
                -0.0333673357963562,
                0.022930562496185303,
            ),
            Vector3::new(
                -0.03522831201553345,
                0.05451810359954834,
                -0.041455209255218506,
            ),
            Vector3::new(
                -0.016300320625305176,
                0.008378565311431885,
                -0.007094025611877441,
            ),
        ]
    }

    fn f<T: Real>(x: T) -> f64 {
        x.to_subset().unwrap()
    }

    /// The optimality condition of a short `v`: at `‖v‖ = 1.2e-3` against vertices 0.05
    /// across, `v·(yⱼ − v)` is a few ulps and the slack `(rel·|v|∞·4 + abs)·m` was under
    /// one, so the exact interior point failed its certificate by rounding and went to the
    /// search. Tested on `v` at unit size, signed volumes' own answer is kept.
    #[test]
    fn short_v_passes_its_certificate_at_unit_size_fixed() {
        let r = Rounding::of(&crate::Tolerances::<Fx>::default());
        let mut s = Simplex::<Fx, 3>::new();
        for y in small_triangle() {
            let p = Point3::from(y.map(crate::real::lit::<Fx>));
            assert!(
                s.push(SupportPoint::new(p, Point3::origin()), None)
                    .is_some()
            );
        }
        let c = s.solve(None, &r).expect("solvable");
        let n = f(crate::real::norm(&c.v));
        assert_eq!(c.via, Solver::SignedVolumes, "{c:?}");
        assert_eq!(s.len(), 3);
        assert!((n - 1.2157834772361879e-3).abs() < 1e-7, "{n}");
    }

    /// The projection of the origin onto the same triangle's plane: products of its
    /// unscaled edges (`q̃·q̃` about 1e-6, 16 ulps) left `v` off by 1e-6 and more; on the
    /// vertices scaled by a power of two it is within a few ulps of the exact point.
    #[test]
    fn small_simplex_projects_on_scaled_vertices_fixed() {
        let pts = small_triangle().map(|y| {
            SupportPoint::new(
                Point3::from(y.map(crate::real::lit::<Fx>)),
                Point3::origin(),
            )
        });
        let mut slots = [SupportPoint::new(Point3::origin(), Point3::origin()); 4];
        slots[..3].copy_from_slice(&pts);
        let mut lambda = <Const<3> as Dim>::slots(Fx::from_num(0));
        let (v, _) = super::project::project(&slots, 0b111, 2, &mut lambda).expect("projects");
        // The exact projection (rational arithmetic on the vertices as stored).
        let want = Vector3::new(
            -5.087_760_311_293_243e-5_f64,
            -7.388_935_061_503_359e-4,
            -9.641_459_016_097_422e-4,
        );
        let err = (v.map(f) - want).amax();
        assert!(err < 5e-7, "{v:?}: off by {err:e}");
    }
}

#[cfg(all(test, feature = "fixed"))]
mod tie_tests {
    use super::*;
    use nalgebra::{Point3, Vector3};
    use simba::scalar::FixedI40F24 as Fx;

    /// Johnson in fixed point on two 100-point hulls 1e-4 apart (GJK's last iteration): an
    /// edge `y₁y₂` and a new vertex `w` 0.75 away whose triangle holds the closest point at
    /// `λ_w = 3e-7`. The sign tests reject the triangle, the search found its point an ulp
    /// farther than the edge's and kept the edge, whose direction proves nothing
    /// (`NoProgress`, lower bound 0, `intersects` true); the triangle is kept now, and the
    /// stalled run's bound along its direction proves the pair apart.
    #[test]
    fn new_vertex_wins_a_tie_fixed() {
        let r = Rounding::of(&crate::Tolerances::<Fx>::default());
        let ys = [
            Vector3::new(
                0.11565500497817993,
                0.5317477583885193,
                -0.14896917343139648,
            ),
            Vector3::new(
                -0.023600101470947266,
                -0.10907101631164551,
                0.03053569793701172,
            ),
            Vector3::new(0.08591979742050171, 0.5731474757194519, -0.518583357334137),
        ];
        let mut s = Simplex::<Fx, 3>::new();
        let mut j = Johnson::new();
        for y in ys {
            let p = Point3::from(y.map(crate::real::lit::<Fx>));
            assert!(
                s.push(SupportPoint::new(p, Point3::origin()), Some(&mut j))
                    .is_some()
            );
        }
        // The search itself (the run reached it through Johnson's rejected sign tests).
        let c = s.search(false, &r, Some(&j)).expect("solvable");
        assert_eq!(s.len(), 3, "{c:?}");
    }
}
