//! The simplex: GJK's state, warm start and result (docs/gjk.md §2). Its closest-point
//! solve, the dispatch to signed volumes, Johnson's subalgorithm and the projection
//! search, is in `solve.rs`.
use super::{johnson::Johnson, vertex_set::VertexSet};
use crate::{Real, dim::Dim, tolerance::Rounding, trace::Solver};
use nalgebra::{Const, Point, SVector};

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
    set: VertexSet,
    /// The slot of the newest vertex (meaningful while `set` is not empty).
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
    #[inline]
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
            set: VertexSet::EMPTY,
            last: 0,
        }
    }

    /// Removes every vertex.
    pub fn clear(&mut self) {
        self.set = VertexSet::EMPTY;
    }

    /// The number of vertices.
    #[must_use]
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether the simplex has no vertex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The vertices, in slot order.
    pub fn points(&self) -> impl Iterator<Item = &SupportPoint<T, D>> + '_ {
        let set = self.set;
        self.pts
            .as_ref()
            .iter()
            .enumerate()
            .filter(move |&(i, _)| set.contains(i))
            .map(|(_, p)| p)
    }

    /// Whether `w` is exactly one of the vertices.
    #[must_use]
    pub(crate) fn contains(&self, w: &SVector<T, D>) -> bool {
        !self
            .in_use(|p| (0..D).fold(true, |e, k| e & (p.w[k] == w[k])))
            .is_empty()
    }

    /// The slots in use whose vertex passes `test`, as a bit set. Every slot is tested
    /// and the result masked afterwards: which slots are in use changes at every step, and
    /// a branch on it was mispredicted about one time in three (docs/PERFORMANCE.md
    /// §2.12 as of `e989df6`). An unused slot holds an old vertex, possibly non-finite (a
    /// dropped warm start's), or 0: `test` may only compare, or compute in floats, where
    /// nothing traps.
    #[inline]
    pub(crate) fn in_use(&self, test: impl Fn(&SupportPoint<T, D>) -> bool) -> VertexSet {
        let mut hits = 0u8;
        for (i, p) in self.pts.as_ref().iter().enumerate() {
            hits |= u8::from(test(p)) << i;
        }
        VertexSet::from_bits(hits).and(self.set)
    }

    /// Adds a vertex in a free slot and returns the slot; `None` (nothing changed) when the
    /// simplex is full. With `johnson`, its tables are extended. No direction is recorded
    /// (see [`Self::push_along`]).
    #[inline]
    pub(crate) fn push(
        &mut self,
        p: SupportPoint<T, D>,
        johnson: Option<&mut Johnson<T, D>>,
    ) -> Option<usize> {
        self.push_along(p, SVector::zeros(), johnson)
    }

    /// [`Self::push`], recording that `p` is the support point along `dir`
    /// (`a = s_A(−dir)`, `b = s_B(dir)`), from which a warm start re-derives it.
    pub(crate) fn push_along(
        &mut self,
        p: SupportPoint<T, D>,
        dir: SVector<T, D>,
        johnson: Option<&mut Johnson<T, D>>,
    ) -> Option<usize> {
        let slot = self.stage(p)?;
        self.push_staged(slot, dir, johnson);
        Some(slot)
    }

    /// Writes `p` into the lowest free slot without adding it to the simplex (which is
    /// unchanged: a free slot's content is never read as a vertex) and returns the slot;
    /// `None`, nothing written, when the simplex is full. GJK's loop stages each support
    /// point there and reads it in place ([`Self::staged`]) until it adds it
    /// ([`Self::push_staged`]) or stops: built in a local first, the point was copied into
    /// its slot on every step, its three vectors reloaded across the stores that wrote them.
    #[inline]
    pub(crate) fn stage(&mut self, p: SupportPoint<T, D>) -> Option<usize> {
        let slot = (0..D + 1).find(|&i| !self.set.contains(i))?;
        self.pts.as_mut()[slot] = p;
        Some(slot)
    }

    /// The point [`Self::stage`] wrote into `slot`.
    #[inline]
    pub(crate) fn staged(&self, slot: usize) -> &SupportPoint<T, D> {
        &self.pts.as_ref()[slot]
    }

    /// Adds the point staged in `slot` ([`Self::stage`]), the support point along `dir`, as
    /// [`Self::push_along`] adds one.
    #[inline]
    pub(crate) fn push_staged(
        &mut self,
        slot: usize,
        dir: SVector<T, D>,
        johnson: Option<&mut Johnson<T, D>>,
    ) {
        debug_assert!(slot <= D && !self.set.contains(slot));
        self.dirs.as_mut()[slot] = dir;
        if let Some(j) = johnson {
            j.add(self.pts.as_ref(), self.set, slot);
        }
        self.last = slot;
        self.set = self.set.with(slot);
    }

    /// Stores a vertex without solving, with the direction it is the support point of (a
    /// warm start: GJK re-derives the vertices from their directions and re-solves them,
    /// after checking their range, before it uses them).
    pub(crate) fn push_raw(&mut self, p: SupportPoint<T, D>, dir: SVector<T, D>) -> bool {
        let Some(slot) = (0..D + 1).find(|&i| !self.set.contains(i)) else {
            return false;
        };
        self.pts.as_mut()[slot] = p;
        self.dirs.as_mut()[slot] = dir;
        self.last = slot;
        self.set = self.set.with(slot);
        true
    }

    /// Moves every vertex's B witness by `du` in place (`w = a − b` recomputed): B moved.
    /// Johnson's tables, which depend on the vertices, are the caller's to rebuild.
    #[inline]
    pub(crate) fn shift_b(&mut self, du: &SVector<T, D>) {
        let set = self.set;
        for (i, p) in self.pts.as_mut().iter_mut().enumerate() {
            if set.contains(i) {
                *p = SupportPoint::new(p.a, p.b + du);
            }
        }
    }

    /// The vertices with their directions, in slot order.
    pub(crate) fn points_with_dirs(
        &self,
    ) -> impl Iterator<Item = (&SupportPoint<T, D>, &SVector<T, D>)> + '_ {
        let set = self.set;
        self.pts
            .as_ref()
            .iter()
            .zip(self.dirs.as_ref())
            .enumerate()
            .filter(move |&(i, _)| set.contains(i))
            .map(|(_, p)| p)
    }

    /// Replaces every vertex by the support point of the cores of `a` and `b` along its
    /// direction: a warm start (a cache filled on another pair, or before the pair moved)
    /// then holds points of the current `A − B` only, so `‖v‖` stays a proven upper bound.
    /// Costs one support evaluation of each shape per vertex.
    pub(crate) fn rederive<P: super::Difference<T, D>>(&mut self, pair: &P) {
        for i in 0..D + 1 {
            if self.set.contains(i) {
                let d = self.dirs.as_ref()[i];
                self.pts.as_mut()[i] = pair.support(&-d);
            }
        }
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
            if !self.contains(&p.w) {
                self.push_along(*p, d, johnson.as_deref_mut());
            }
        }
        if self.is_empty() {
            return None;
        }
        self.solve(johnson.as_deref(), r)
    }
}

// Slots are addressed by one-byte sets (`VertexSet`).
const _: () = assert!(crate::dim::MAX_DIM < 8);

mod solve;

#[cfg(test)]
mod tests;
