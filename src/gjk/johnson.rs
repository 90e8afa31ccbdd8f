//! Johnson's distance subalgorithm with cached determinants (van den Bergen 1999 §3–4,
//! [vdB99]; docs/gjk.md §2.3), the solver for `D ≥ 4` and on request
//! ([`crate::Subalgorithm::Johnson`]).
//!
//! Vertices live in the simplex's `D + 1` slots; a subset of them is a bitmask. For every
//! subset `X` that is ever a candidate we keep Johnson's cofactors `Δᵢ(X)`:
//!
//! ```text
//! Δᵢ({yᵢ}) = 1
//! Δⱼ(X ∪ {yⱼ}) = Σ_{i∈X} Δᵢ(X) · yᵢ·(y_k − yⱼ),   k = min X
//! ```
//!
//! Adding a vertex computes only the rows of subsets that contain it; the others are
//! still valid from earlier iterations (Gino's caching). Unlike Gino we cache dot products
//! *relative to a base vertex* `p` (the first of the run): with `eᵢ = yᵢ − p`,
//! `yᵢ·(y_k − yⱼ) = (p·e_k − p·eⱼ) + (eᵢ·e_k − eᵢ·eⱼ)`. The rounding error of a term is
//! then `ε·‖p‖·‖e‖` instead of `ε·‖y‖²`, so shapes far apart compared with their size
//! keep accurate barycentric coordinates. A cofactor is then a determinant of products
//! `eᵢ·eⱼ` with one column of `yᵢ·eⱼ`: a small simplex far from the origin (a ray cast's,
//! moved by the ray's point) has small tables. Fixed point tests each product before it
//! is formed (it would wrap) and reports the overflow instead ([`Johnson::overflow`]).

use super::{simplex::SupportPoint, vertex_set::VertexSet};
use crate::{Real, dim::Dim};
use nalgebra::{Const, SVector};

/// Johnson's tables for one GJK run. Lives beside the [`super::Simplex`] (which holds only
/// the vertices), so runs that do not use Johnson never build it.
#[derive(Clone, Copy)]
pub(crate) struct Johnson<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    /// `eᵢ = yᵢ − p`.
    pub(super) e: <Const<D> as Dim>::Slots<SVector<T, D>>,
    /// `p·eᵢ`.
    pe: <Const<D> as Dim>::Slots<T>,
    /// `eᵢ·eⱼ`, row-major over slots.
    ee: <Const<D> as Dim>::Pairs<T>,
    /// `Δᵢ(X)` at `det[X · (D + 1) + i]`.
    det: <Const<D> as Dim>::Subsets<T>,
    /// The base vertex `p`.
    pub(super) base: SVector<T, D>,
    /// `1 / |p|∞²` (floats; 1 for fixed-point): the cached products are stored divided by
    /// it, so determinants of degree `2D` stay in range (docs/gjk.md §2.3).
    inv_scale2: T,
    /// A determinant overflowed (floats: ∞), or would have (fixed point: beyond
    /// `max / (D + 1)`, tested before it wraps).
    pub(crate) overflow: bool,
}

impl<T: Real, const D: usize> Johnson<T, D>
where
    Const<D>: Dim,
{
    /// Empty tables.
    pub(crate) fn new() -> Self {
        let z = T::zero();
        Self {
            e: <Const<D> as Dim>::slots(SVector::zeros()),
            pe: <Const<D> as Dim>::slots(z),
            ee: <Const<D> as Dim>::pairs(z),
            det: <Const<D> as Dim>::subsets(z),
            base: SVector::zeros(),
            inv_scale2: T::one(),
            overflow: false,
        }
    }

    /// Adds the vertex in `slot` (the slots in `others` are the others in use) and computes
    /// the determinants of the subsets that contain it. The first vertex of a run
    /// (`others` empty) becomes the base `p`.
    pub(crate) fn add(&mut self, pts: &[SupportPoint<T, D>], others: VertexSet, slot: usize) {
        let n = D + 1;
        let w = pts[slot].w;
        if others.is_empty() {
            self.base = w;
            self.inv_scale2 = T::one();
            // Every subset's determinants share the factor s^(-2(|X|-1)): Johnson's sign
            // tests and ratios are unchanged. Fixed-point would lose its digits: no scaling.
            let m = w.amax();
            if !crate::real::is_fixed::<T>() && m * m > T::default_epsilon() * T::default_epsilon()
            {
                self.inv_scale2 = T::one() / (m * m);
            }
        }
        let e = w - self.base;
        self.e.as_mut()[slot] = e;
        self.pe.as_mut()[slot] = self.base.dot(&e) * self.inv_scale2;
        for i in 0..n {
            if others.contains(i) || i == slot {
                let d = self.e.as_ref()[i].dot(&e) * self.inv_scale2;
                self.ee.as_mut()[i * n + slot] = d;
                self.ee.as_mut()[slot * n + i] = d;
            }
        }
        self.compute(others, slot);
    }

    /// `yᵢ·(y_k − yⱼ)` from the cached products (module doc).
    #[inline]
    fn term(&self, i: usize, k: usize, j: usize) -> T {
        let n = D + 1;
        let (pe, ee) = (self.pe.as_ref(), self.ee.as_ref());
        (pe[k] - pe[j]) + (ee[i * n + k] - ee[i * n + j])
    }

    /// Johnson's recursion for every subset `s ∪ {new}`, `s ⊆ others`, in increasing order
    /// so that `S \ {j}` is always ready (module doc).
    fn compute(&mut self, others: VertexSet, new: usize) {
        let n = D + 1;
        self.det.as_mut()[VertexSet::single(new).index() * n + new] = T::one();
        // Fixed point wraps (debug: panics) where floats reach ∞: every cofactor is kept
        // within `cap = max / (D + 1)`, so that a row's sum fits too.
        let fixed = crate::real::is_fixed::<T>();
        if fixed && self.overflow {
            return;
        }
        let cap = if fixed {
            T::max_value().map_or(T::zero(), |m| m / crate::real::lit::<T>((D + 1) as f64))
        } else {
            T::zero()
        };
        let mut s = VertexSet::EMPTY;
        loop {
            // Next non-empty subset of `others`, in increasing order.
            s = s.next_subset_of(others);
            if s.is_empty() {
                break;
            }
            let set = s.with(new);
            for j in 0..n {
                if !set.contains(j) {
                    continue;
                }
                let rest = set.without(j);
                let k = rest.lowest();
                let mut sum = T::zero();
                for i in 0..n {
                    if rest.contains(i) {
                        let (x, t) = (self.det.as_ref()[rest.index() * n + i], self.term(i, k, j));
                        if !fixed {
                            sum += x * t;
                        } else if let Some(next) = add_product(sum, x, t, cap) {
                            sum = next;
                        } else {
                            self.overflow = true;
                            return;
                        }
                    }
                }
                self.overflow |= !sum.is_finite();
                self.det.as_mut()[set.index() * n + j] = sum;
            }
        }
    }

    /// The cofactors `Δᵢ(set)` by slot.
    pub(crate) fn row(&self, set: VertexSet) -> &[T] {
        let n = D + 1;
        &self.det.as_ref()[set.index() * n..set.index() * n + n]
    }

    /// Whether every `Δᵢ(set)` is positive.
    pub(super) fn proper(&self, set: VertexSet) -> bool {
        let row = self.row(set);
        set.slots(D + 1).all(|i| row[i] > T::zero())
    }

    /// Whether no vertex of `all` outside `set` would improve it: `Δⱼ(set ∪ {j}) ≤ 0`.
    pub(super) fn maximal(&self, all: VertexSet, set: VertexSet) -> bool {
        let n = D + 1;
        all.minus(set)
            .slots(n)
            .all(|j| self.det.as_ref()[set.with(j).index() * n + j] <= T::zero())
    }
}

/// `s + a·b` when it and the product lie within `[−cap, cap]`, else `None`; `|s| ≤ cap ≤
/// max / 2`, so nothing here wraps (fixed point: the product is tested by a quotient).
#[inline]
fn add_product<T: Real>(s: T, a: T, b: T, cap: T) -> Option<T> {
    let (aa, bb) = (a.abs(), b.abs());
    if aa > T::one() && bb > cap / aa {
        return None;
    }
    let sum = s + a * b;
    (sum.abs() <= cap).then_some(sum)
}

#[cfg(all(test, feature = "fixed"))]
mod tests {
    use super::*;
    use nalgebra::Point;
    use simba::scalar::FixedI40F24 as Fx;

    fn f<T: Real>(x: T) -> f64 {
        x.to_subset().unwrap()
    }

    fn tables<T: Real>(pts: &[[f64; 4]]) -> Johnson<T, 4> {
        let sp: Vec<SupportPoint<T, 4>> = pts
            .iter()
            .map(|p| {
                let w = SVector::<f64, 4>::from(*p).map(crate::real::lit::<T>);
                SupportPoint::new(Point::from(w), Point::origin())
            })
            .collect();
        let mut j = Johnson::new();
        for slot in 0..sp.len() {
            j.add(&sp, VertexSet::first(slot), slot);
        }
        j
    }

    fn coords<T: Real>(j: &Johnson<T, 4>) -> Vec<f64> {
        let row = j.row(VertexSet::first(5));
        let sum = row.iter().fold(T::zero(), |s, &x| s + x);
        row.iter().map(|&x| f(x / sum)).collect()
    }

    /// A ray cast's simplex: a unit-size simplex 40 from the origin, beyond the 4D vertex
    /// limit 17 (the ray's point far from a unit shape). A cofactor is a determinant of
    /// edge products `eᵢ·eⱼ` with one column of `yᵢ·eⱼ` (Cramer's rule), so it grows as
    /// `|y|·|e|⁷`, not `|y|⁸`: in range, with f64's barycentric coordinates.
    #[test]
    fn far_small_simplex_tables_in_range_fixed_4d() {
        let far = [
            [40.0, 0.3, -0.2, 0.1],
            [40.7, 0.5, -0.1, 0.2],
            [40.1, 1.2, 0.1, -0.3],
            [39.8, 0.4, 0.9, 0.0],
            [40.2, 0.2, -0.1, 1.1],
        ];
        assert!(f(super::super::coordinate_limit::<Fx, 4>().unwrap()) < 40.0);
        let (jx, jf) = (tables::<Fx>(&far), tables::<f64>(&far));
        assert!(!jx.overflow && !jf.overflow);
        for (x, y) in coords(&jx).iter().zip(coords(&jf)) {
            assert!((x - y).abs() <= 1e-3 * (1.0 + y.abs()), "{x} vs {y}");
        }
    }

    /// A simplex spanning the old per-vertex limit 17 (`|y|∞ ≤ L` alone) has cofactors near
    /// `(2L)⁸`, beyond the type: it wrapped (a debug build panicked). Each product is now
    /// tested before it is formed and the tables report the overflow.
    #[test]
    fn johnson_overflow_is_flagged_not_wrapped_fixed_4d() {
        let l = 0.99 * f(super::super::coordinate_limit::<Fx, 4>().unwrap());
        let spanning = [
            [l, l, l, l],
            [-l, l, l, l],
            [l, -l, l, l],
            [l, l, -l, l],
            [l, l, l, -l],
        ];
        assert!(tables::<Fx>(&spanning).overflow);
        // The same simplex at unit scale: in range.
        let unit = spanning.map(|p| p.map(|x| x / l));
        assert!(!tables::<Fx>(&unit).overflow);
        for (x, y) in coords(&tables::<Fx>(&unit))
            .iter()
            .zip(coords(&tables::<f64>(&unit)))
        {
            assert!((x - y).abs() <= 1e-4, "{x} vs {y}");
        }
    }
}
