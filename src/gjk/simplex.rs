//! The simplex and Johnson's distance subalgorithm with cached determinants
//! (van den Bergen 1999 §3–4, seed 001; docs/gjk.md §2).
//!
//! Vertices live in `D + 1` slots; a subset of them is a bitmask. For every subset `X`
//! that is ever a candidate we keep Johnson's cofactors `Δᵢ(X)`:
//!
//! ```text
//! Δᵢ({yᵢ}) = 1
//! Δⱼ(X ∪ {yⱼ}) = Σ_{i∈X} Δᵢ(X) · yᵢ·(y_k − yⱼ),   k = min X
//! ```
//!
//! Adding a vertex computes only the rows of subsets that contain it; the others are
//! still valid from earlier iterations (Gino's caching). Unlike Gino we cache dot products
//! *relative to a base vertex* `p` (the first of the query): with `eᵢ = yᵢ − p`,
//! `yᵢ·(y_k − yⱼ) = (p·e_k − p·eⱼ) + (eᵢ·e_k − eᵢ·eⱼ)`. The rounding error of a term is
//! then `ε·‖p‖·‖e‖` instead of `ε·‖y‖²`, so shapes far apart compared with their size
//! keep accurate barycentric coordinates (docs/gjk.md §2.2).

use crate::{Real, dim::Dim};
use nalgebra::{Const, Point, SMatrix, SVector};

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
    /// Its witness on A, `Σ λᵢ aᵢ`.
    pub a: Point<T, D>,
    /// Its witness on B, `Σ λᵢ bᵢ`.
    pub b: Point<T, D>,
    /// The largest coordinate magnitude over the vertices used (the simplex's scale).
    pub scale: T,
    /// Whether the solution used all `D + 1` vertices (the origin is inside).
    pub full: bool,
}

/// A simplex of at most `D + 1` vertices of `A − B`, with Johnson's cached determinants.
///
/// It is GJK's state, its warm start and its result: pass one in that is empty to start
/// from the shapes' centres, or one that holds points of `A − B` to start from them. No
/// heap allocation.
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
    /// `eᵢ = yᵢ − p`.
    e: <Const<D> as Dim>::Slots<SVector<T, D>>,
    /// `p·eᵢ`.
    pe: <Const<D> as Dim>::Slots<T>,
    /// `eᵢ·eⱼ`, row-major over slots.
    ee: <Const<D> as Dim>::Pairs<T>,
    /// `Δᵢ(X)` at `det[X · (D + 1) + i]`.
    det: <Const<D> as Dim>::Subsets<T>,
    /// The base vertex `p`.
    base: SVector<T, D>,
    /// `1 / |p|∞²` (floats; 1 for fixed-point): the cached products are stored divided by
    /// it, so determinants of degree `2D` stay in range (docs/gjk.md §2.2).
    inv_scale2: T,
    /// The vertices in use.
    bits: u8,
    /// The slot of the newest vertex (meaningful while `bits != 0`).
    last: usize,
    /// A determinant overflowed (coordinates beyond the scalar's range).
    overflow: bool,
}

impl<T: Real, const D: usize> core::fmt::Debug for Simplex<T, D>
where
    Const<D>: Dim,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.points()).finish()
    }
}

const N_MAX: usize = crate::dim::MAX_DIM + 1;

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
        let z = T::zero();
        let sp = SupportPoint {
            w: SVector::zeros(),
            a: Point::origin(),
            b: Point::origin(),
        };
        Self {
            pts: <Const<D> as Dim>::slots(sp),
            dirs: <Const<D> as Dim>::slots(SVector::zeros()),
            e: <Const<D> as Dim>::slots(SVector::zeros()),
            pe: <Const<D> as Dim>::slots(z),
            ee: <Const<D> as Dim>::pairs(z),
            det: <Const<D> as Dim>::subsets(z),
            base: SVector::zeros(),
            inv_scale2: T::one(),
            bits: 0,
            last: 0,
            overflow: false,
        }
    }

    /// Removes every vertex.
    pub fn clear(&mut self) {
        self.bits = 0;
        self.overflow = false;
    }

    /// Whether a determinant overflowed since the last [`clear`](Self::clear): the
    /// vertices are too large for the scalar (Johnson's determinants have degree `2D`).
    #[must_use]
    pub(crate) fn overflowed(&self) -> bool {
        self.overflow
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

    /// Adds a vertex and computes the determinants of the subsets that contain it.
    /// Returns `false` (and changes nothing) when the simplex is full.
    pub(crate) fn push(&mut self, p: SupportPoint<T, D>) -> bool {
        let n = D + 1;
        let Some(slot) = (0..n).find(|i| self.bits & (1 << i) == 0) else {
            return false;
        };
        if self.bits == 0 {
            self.base = p.w;
            self.inv_scale2 = T::one();
            // Every subset's determinants share the factor s^(-2(|X|-1)): Johnson's sign
            // tests and ratios are unchanged. Fixed-point would lose its digits: no scaling.
            let m = p.w.amax();
            if !crate::real::is_fixed::<T>() && m * m > T::default_epsilon() * T::default_epsilon()
            {
                self.inv_scale2 = T::one() / (m * m);
            }
        }
        let e = p.w - self.base;
        self.pts.as_mut()[slot] = p;
        self.dirs.as_mut()[slot] = SVector::zeros();
        self.e.as_mut()[slot] = e;
        self.pe.as_mut()[slot] = self.base.dot(&e) * self.inv_scale2;
        for i in 0..n {
            if self.bits & (1 << i) != 0 || i == slot {
                let d = self.e.as_ref()[i].dot(&e) * self.inv_scale2;
                self.ee.as_mut()[i * n + slot] = d;
                self.ee.as_mut()[slot * n + i] = d;
            }
        }
        self.last = slot;
        self.compute_dets(slot);
        self.bits |= 1 << slot;
        true
    }

    /// Stores a vertex without computing determinants, with the direction it is the
    /// support point of (a warm start: GJK re-derives the vertices from their directions
    /// and re-solves them, after checking their range, before it uses them).
    pub(crate) fn push_raw(&mut self, p: SupportPoint<T, D>, dir: SVector<T, D>) -> bool {
        let Some(slot) = (0..D + 1).find(|i| self.bits & (1 << i) == 0) else {
            return false;
        };
        self.pts.as_mut()[slot] = p;
        self.dirs.as_mut()[slot] = dir;
        self.bits |= 1 << slot;
        true
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
    /// direction: a warm start (a cache filled on another pair, or before the pair
    /// moved) then holds points of the current `A − B` only, so `‖v‖` stays a proven
    /// upper bound. Costs one support evaluation of each shape per vertex.
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

    /// `yᵢ·(y_k − yⱼ)` from the cached products (module doc).
    #[inline]
    fn term(&self, i: usize, k: usize, j: usize) -> T {
        let n = D + 1;
        let (pe, ee) = (self.pe.as_ref(), self.ee.as_ref());
        (pe[k] - pe[j]) + (ee[i * n + k] - ee[i * n + j])
    }

    /// Johnson's recursion for every subset `s ∪ {new}`, `s ⊆ bits`, in increasing order so
    /// that `S \ {j}` is always ready (module doc).
    fn compute_dets(&mut self, new: usize) {
        let n = D + 1;
        let nb = 1u8 << new;
        let bits = self.bits;
        self.det.as_mut()[nb as usize * n + new] = T::one();
        let mut s: u8 = 0;
        loop {
            // Next non-empty submask of `bits`, in increasing order.
            s = s.wrapping_sub(bits) & bits;
            if s == 0 {
                break;
            }
            let set = s | nb;
            for j in 0..n {
                if set & (1 << j) == 0 {
                    continue;
                }
                let rest = set & !(1 << j);
                let k = rest.trailing_zeros() as usize;
                let mut sum = T::zero();
                for i in 0..n {
                    if rest & (1 << i) != 0 {
                        sum += self.det.as_ref()[rest as usize * n + i] * self.term(i, k, j);
                    }
                }
                self.overflow |= !sum.is_finite();
                self.det.as_mut()[set as usize * n + j] = sum;
            }
        }
    }

    /// Whether every `Δᵢ(set)` is positive.
    fn proper(&self, set: u8) -> bool {
        let n = D + 1;
        (0..n)
            .filter(|i| set & (1 << i) != 0)
            .all(|i| self.det.as_ref()[set as usize * n + i] > T::zero())
    }

    /// Whether no vertex outside `set` would improve it: `Δⱼ(set ∪ {j}) ≤ 0` for the others.
    fn maximal(&self, set: u8) -> bool {
        let n = D + 1;
        (0..n)
            .filter(|j| self.bits & !set & (1 << j) != 0)
            .all(|j| self.det.as_ref()[(set | (1 << j)) as usize * n + j] <= T::zero())
    }

    /// The closest point of `aff(set)` to the origin and its witnesses, for a subset that
    /// passed Johnson's sign test (`Σ Δᵢ > 0`).
    ///
    /// Johnson's `λᵢ = Δᵢ / Σ Δ` lose digits on elongated simplices (their cached products
    /// cancel: a 8000 × 0.4 triangle lost 7), so the point is recomputed as the orthogonal
    /// projection of the origin, by Gram–Schmidt on the edges from the newest vertex
    /// ([`project`]); Johnson's coordinates remain the fallback (docs/gjk.md §2.4).
    ///
    /// `None` when the projection falls outside the subset (a barycentric coordinate below
    /// `−touching`): then it is no point of `A − B` and `‖v‖` no upper bound. Coordinates in
    /// `[−touching, 0)` are rounding and are clamped to 0 for the witnesses.
    ///
    /// `fast`: Johnson's coordinates only, no projection; [`Self::solve`] accepts them when
    /// [`Self::optimal`] certifies the point (well-conditioned simplices, most of them).
    fn closest_of(&self, set: u8, touching: T, fast: bool) -> Option<Closest<T, D>> {
        let n = D + 1;
        let det = &self.det.as_ref()[set as usize * n..set as usize * n + n];
        let mut sum = T::zero();
        for i in 0..n {
            if set & (1 << i) != 0 {
                sum += det[i];
            }
        }
        let pts = self.pts.as_ref();
        let k = if set & (1 << self.last) != 0 {
            self.last
        } else {
            set.trailing_zeros() as usize
        };
        let mut slots = <Const<D> as Dim>::slots(T::zero());
        let mut scale = T::zero();
        for i in 0..n {
            if set & (1 << i) != 0 {
                scale = scale.max(pts[i].w.amax());
            }
        }
        let projected = if fast {
            None
        } else {
            project(pts, set, k, &mut slots)
        };
        let lambda = slots.as_mut();
        let v = match projected {
            Some(v) => v,
            None if !(sum > T::zero()) => return None,
            None => {
                // Johnson's coordinates: `Δᵢ / Σ` rather than `Δᵢ · (1/Σ)`, one rounding
                // fewer (DESIGN.md, fixed-point).
                let mut dv = SVector::<T, D>::zeros();
                for i in 0..n {
                    if set & (1 << i) != 0 {
                        lambda[i] = det[i] / sum;
                        dv += self.e.as_ref()[i] * lambda[i];
                    }
                }
                self.base + dv
            }
        };
        let mut total = T::zero();
        for i in 0..n {
            if set & (1 << i) != 0 {
                if lambda[i] < -touching {
                    return None;
                }
                lambda[i] = lambda[i].max(T::zero());
                total += lambda[i];
            }
        }
        if !(total > T::zero()) {
            return None;
        }
        let (mut a, mut b) = (SVector::<T, D>::zeros(), SVector::<T, D>::zeros());
        for i in 0..n {
            if set & (1 << i) != 0 {
                a += pts[i].a.coords * (lambda[i] / total);
                b += pts[i].b.coords * (lambda[i] / total);
            }
        }
        Some(Closest {
            v,
            a: Point::from(a),
            b: Point::from(b),
            scale,
            full: set.count_ones() as usize == n,
        })
    }

    /// Reduces the simplex to the smallest subset, containing the newest vertex, whose
    /// affine hull's closest point to the origin lies inside it (Johnson's test), and
    /// returns that point. When rounding leaves no subset passing the test, falls back to
    /// the proper subset with the smallest `‖v‖` (the original GJK's backup procedure).
    /// `None` if even that fails; then the newest vertex is dropped again.
    ///
    /// A full simplex (`D + 1` vertices) is decided apart, by [`Self::origin_inside`]:
    /// Johnson's cofactors of a thin or flat simplex are noise, and a flat one can pass
    /// their sign test with its point on its plane, off the origin (docs/gjk.md §2.3).
    pub(crate) fn solve(&mut self, touching: T) -> Option<Closest<T, D>> {
        debug_assert!(self.bits != 0);
        let nb = 1u8 << self.last;
        let others = self.bits & !nb;
        let full = self.bits.count_ones() as usize == D + 1;
        if full && let Some(c) = self.origin_inside(touching) {
            return Some(c);
        }
        // Johnson's choice: the first subset with the newest vertex passing the sign tests.
        let mut s: u8 = 0;
        loop {
            let set = s | nb;
            if !(full && set == self.bits) && self.proper(set) && self.maximal(set) {
                // Johnson's coordinates when the optimality condition certifies them, else
                // the projection (elongated simplices fail the check by far: docs/gjk.md §2.4).
                for fast in [true, false] {
                    if let Some(c) = self.closest_of(set, touching, fast)
                        && self.optimal(&c.v, c.scale, touching)
                    {
                        self.bits = set;
                        return Some(c);
                    }
                }
                break; // rounding fooled the sign tests
            }
            s = s.wrapping_sub(others) & others;
            if s == 0 {
                break;
            }
        }
        self.search(full, touching)
    }

    /// Whether `v` is the closest point of the whole simplex: `v·(yⱼ − v) ≥ 0` for every
    /// vertex (the optimality condition), with `touching · |v| · scale` of slack.
    fn optimal(&self, v: &SVector<T, D>, scale: T, touching: T) -> bool {
        let vv = v.norm_squared();
        let slack = touching * v.amax() * scale;
        self.points().all(|p| v.dot(&p.w) - vv >= -slack)
    }

    /// The robust fallback when Johnson's sign tests disagree with the geometry (elongated
    /// or near-degenerate simplices): the nearest valid projection over every subset (a
    /// full simplex excepted: [`Self::origin_inside`] decided it). In exact arithmetic this
    /// is the closest point of the simplex; it costs `2^n` projections, so it only runs
    /// when the fast path's answer fails [`Self::optimal`] (docs/gjk.md §2.4).
    fn search(&mut self, full: bool, touching: T) -> Option<Closest<T, D>> {
        let all = self.bits;
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
            if let Some(c) = self.closest_of(s, touching, false) {
                let vv = c.v.norm_squared();
                if best.as_ref().is_none_or(|(_, _, bv)| vv < *bv) {
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
    pub(crate) fn closest(&self, touching: T) -> Option<Closest<T, D>> {
        let mut best: Option<(Closest<T, D>, T)> = None;
        let mut s: u8 = 0;
        loop {
            s = s.wrapping_sub(self.bits) & self.bits;
            if s == 0 {
                break;
            }
            if let Some(c) = self.closest_of(s, touching, false) {
                let vv = c.v.norm_squared();
                if best.as_ref().is_none_or(|(_, bv)| vv < *bv) {
                    best = Some((c, vv));
                }
            }
        }
        best.map(|(c, _)| c)
    }

    /// Whether the origin lies inside the full simplex, decided by a backward-stable solve
    /// of `Σ μᵢ (yᵢ − y_n) = −y_n` (Gaussian elimination with partial pivoting): its
    /// residual stays near `ε · scale` however thin the simplex, so the origin is inside
    /// iff every barycentric coordinate is non-negative and the residual `v` is within
    /// `touching · scale`. A coordinate outside `[-1, 2]` means no containment; the check
    /// happens before the division, which keeps fixed-point from overflowing.
    fn origin_inside(&self, touching: T) -> Option<Closest<T, D>> {
        let n = D + 1;
        let last = self.last;
        let pts = self.pts.as_ref();
        let y_n = pts[last].w;
        let others = || (0..n).filter(move |&i| i != last);
        let mut m = SMatrix::<T, D, D>::zeros();
        for (col, i) in others().enumerate() {
            m.set_column(col, &(pts[i].w - y_n));
        }
        let (mu, _) = solve_pivoted(m, -y_n)?;
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
        if sum > T::one() || crate::real::norm(&v) > touching * scale {
            return None;
        }
        Some(Closest {
            v,
            a: Point::from(a),
            b: Point::from(b),
            scale,
            full: true,
        })
    }

    /// Rebuilds the simplex from `points` (a warm start), keeping the subset that holds
    /// the closest point; returns that point, or `None` if nothing usable was given.
    pub(crate) fn reseed(
        &mut self,
        points: &[SupportPoint<T, D>],
        touching: T,
    ) -> Option<Closest<T, D>> {
        // `points` are this simplex's own vertices in slot order (GJK's warm start): keep
        // their directions.
        let mut dirs = [SVector::<T, D>::zeros(); N_MAX];
        for (d, (_, x)) in dirs.iter_mut().zip(self.points_with_dirs()) {
            *d = *x;
        }
        self.clear();
        let mut closest = None;
        for (p, d) in points.iter().zip(dirs).take(D + 1) {
            if self.contains(&p.w) {
                continue;
            }
            if self.push(*p) {
                self.set_dir(d);
                closest = self.solve(touching).or(closest);
            }
        }
        closest
    }
}

/// The orthogonal projection `v` of the origin onto the affine hull of the vertices in
/// `set`, and its barycentric coordinates (into `lambda`), by classical Gram–Schmidt on
/// the edges `eⱼ = yⱼ − y_k` without normalisation:
///
/// ```text
/// q̃ⱼ = eⱼ − Σ_{i<j} rᵢⱼ q̃ᵢ,  rᵢⱼ = q̃ᵢ·eⱼ / q̃ᵢ·q̃ᵢ      (edges = Q̃ R, R unit upper)
/// v = y_k − Σ cᵢ q̃ᵢ,          cᵢ = q̃ᵢ·r / q̃ᵢ·q̃ᵢ      (r: y_k minus the earlier terms)
/// R μ = −c,  λⱼ = μⱼ,  λ_k = 1 − Σ μⱼ
/// ```
///
/// `v` is then accurate to `ε·‖y‖` however elongated the simplex. `None` (use Johnson's
/// coordinates) when an edge is dependent on the earlier ones at the scalar's precision,
/// or a quotient would exceed `1/ε` (it could overflow a fixed-point type).
fn project<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    set: u8,
    k: usize,
    lambda: &mut <Const<D> as Dim>::Slots<T>,
) -> Option<SVector<T, D>>
where
    Const<D>: Dim,
{
    let n = D + 1;
    let eps = T::default_epsilon();
    // `|num| ≤ den / ε`, written `|num|·ε ≤ den`: `den / ε` itself overflowed a
    // fixed-point type for edges of a few hundred (a 293-long box in 2D, found by fuzzing).
    let div = |num: T, den: T| -> Option<T> {
        if den > T::zero() && num.abs() * eps <= den {
            Some(num / den)
        } else {
            None
        }
    };
    let y_k = pts[k].w;
    // Scratch sized for this D (not the largest one): these are filled on every call.
    let mut idx = <Const<D> as Dim>::slots(0usize);
    let mut q = <Const<D> as Dim>::slots(SVector::<T, D>::zeros());
    let mut qq = <Const<D> as Dim>::slots(T::zero());
    let mut r = <Const<D> as Dim>::pairs(T::zero());
    let (idx, q, qq, r) = (idx.as_mut(), q.as_mut(), qq.as_mut(), r.as_mut());
    let mut m = 0;
    for (j, p) in pts.iter().enumerate() {
        if set & (1 << j) == 0 || j == k {
            continue;
        }
        let e = p.w - y_k;
        let mut qj = e;
        for i in 0..m {
            r[i * n + m] = div(q[i].dot(&e), qq[i])?;
            qj -= q[i] * r[i * n + m];
        }
        qq[m] = qj.norm_squared();
        // Dependent edge: what is left of it is rounding.
        if !(qq[m] > eps * e.norm_squared()) {
            return None;
        }
        q[m] = qj;
        idx[m] = j;
        m += 1;
    }
    let mut v = y_k;
    let mut c = <Const<D> as Dim>::slots(T::zero());
    let c = c.as_mut();
    for i in 0..m {
        c[i] = div(q[i].dot(&v), qq[i])?;
        v -= q[i] * c[i];
    }
    // Back substitution of R μ = −c (R unit upper triangular).
    let mut mu = <Const<D> as Dim>::slots(T::zero());
    let mu = mu.as_mut();
    let mut total = T::zero();
    for i in (0..m).rev() {
        let mut x = -c[i];
        for j in i + 1..m {
            x -= r[i * n + j] * mu[j];
        }
        mu[i] = x;
        total += x;
    }
    let lambda = lambda.as_mut();
    lambda[k] = T::one() - total;
    for i in 0..m {
        lambda[idx[i]] = mu[i];
    }
    Some(v)
}

/// Solves `m·x = rhs` by Gaussian elimination with partial pivoting, returning `x` and
/// `|det m|` (the product of the pivots); `None` if a pivot is zero or a coordinate would
/// leave `[-2, 2]` (then it is no barycentric coordinate of an inside point, and dividing
/// could overflow a fixed-point type).
pub(crate) fn solve_pivoted<T: Real, const D: usize>(
    mut m: SMatrix<T, D, D>,
    mut rhs: SVector<T, D>,
) -> Option<(SVector<T, D>, T)> {
    let mut det = T::one();
    for col in 0..D {
        let mut piv = col;
        for r in col + 1..D {
            if m[(r, col)].abs() > m[(piv, col)].abs() {
                piv = r;
            }
        }
        if m[(piv, col)] == T::zero() {
            return None;
        }
        det *= m[(piv, col)].abs();
        m.swap_rows(col, piv);
        rhs.swap_rows(col, piv);
        for r in col + 1..D {
            // |f| ≤ 1 by the choice of pivot.
            let f = m[(r, col)] / m[(col, col)];
            for c in col..D {
                let x = m[(col, c)];
                m[(r, c)] -= f * x;
            }
            let x = rhs[col];
            rhs[r] -= f * x;
        }
    }
    let two = T::one() + T::one();
    let mut x = SVector::<T, D>::zeros();
    for r in (0..D).rev() {
        let mut num = rhs[r];
        for c in r + 1..D {
            num -= m[(r, c)] * x[c];
        }
        let den = m[(r, r)];
        if den == T::zero() || num.abs() > two * den.abs() {
            return None;
        }
        x[r] = num / den;
    }
    Some((x, det))
}

// Slots are addressed by `u8` masks.
const _: () = assert!(N_MAX <= 8);

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point3, Vector2, Vector3};

    fn sp3(x: f64, y: f64, z: f64) -> SupportPoint<f64, 3> {
        SupportPoint::new(Point3::new(x, y, z), Point3::origin())
    }

    /// (vertices, expected closest point, expected number of vertices kept)
    #[test]
    fn closest_point_cases_3d() {
        type Case<'a> = (&'a [(f64, f64, f64)], [f64; 3], usize);
        let cases: &[Case] = &[
            (&[(1.0, 2.0, 3.0)], [1.0, 2.0, 3.0], 1),
            // edge region: origin projects inside the segment
            (&[(1.0, -1.0, 1.0), (1.0, 1.0, 1.0)], [1.0, 0.0, 1.0], 2),
            // vertex region of a segment (GJK adds vertices that belong to the answer last)
            (&[(3.0, 1.0, 0.0), (1.0, 1.0, 0.0)], [1.0, 1.0, 0.0], 1),
            // face region of a triangle
            (
                &[(-1.0, -1.0, 2.0), (2.0, -1.0, 2.0), (-1.0, 2.0, 2.0)],
                [0.0, 0.0, 2.0],
                3,
            ),
            // edge region of a triangle
            (
                &[(3.0, 0.0, 0.0), (1.0, -1.0, 0.0), (1.0, 1.0, 0.0)],
                [1.0, 0.0, 0.0],
                2,
            ),
            // origin inside a tetrahedron
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
            // tetrahedron with the origin outside its face x = 1
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
        for (pts, want, kept) in cases {
            let mut s = Simplex::<f64, 3>::new();
            let mut c = None;
            for &(x, y, z) in pts.iter() {
                assert!(s.push(sp3(x, y, z)));
                c = s.solve(0.0);
            }
            let c = c.expect("solvable");
            let err = (c.v - Vector3::from(*want)).norm();
            assert!(err < 1e-12, "{pts:?}: v = {:?}, want {want:?}", c.v);
            assert_eq!(s.len(), *kept, "{pts:?}");
        }
    }

    #[test]
    fn far_apart_small_simplex_keeps_its_witnesses_in_f32() {
        // A unit segment 1e4 away: plain `yᵢ·yⱼ` products would lose the barycentric
        // coordinates entirely in f32 (ε·‖y‖² ≈ 12 against terms of size 1).
        let mut s = Simplex::<f32, 2>::new();
        s.push(SupportPoint::new(
            nalgebra::Point2::new(1e4, -0.25),
            nalgebra::Point2::origin(),
        ));
        s.push(SupportPoint::new(
            nalgebra::Point2::new(1e4, 0.75),
            nalgebra::Point2::origin(),
        ));
        let c = s.solve(0.0).unwrap();
        assert!((c.v - Vector2::new(1e4, 0.0)).norm() < 2e-3, "{:?}", c.v);
    }
}
