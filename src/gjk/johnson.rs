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
//! keep accurate barycentric coordinates.

use super::simplex::SupportPoint;
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
    /// A determinant overflowed (coordinates beyond the scalar's range).
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

    /// Adds the vertex in `slot` (the slots in `bits` are the others in use) and computes
    /// the determinants of the subsets that contain it. The first vertex of a run
    /// (`bits == 0`) becomes the base `p`.
    pub(crate) fn add(&mut self, pts: &[SupportPoint<T, D>], bits: u8, slot: usize) {
        let n = D + 1;
        let w = pts[slot].w;
        if bits == 0 {
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
            if bits & (1 << i) != 0 || i == slot {
                let d = self.e.as_ref()[i].dot(&e) * self.inv_scale2;
                self.ee.as_mut()[i * n + slot] = d;
                self.ee.as_mut()[slot * n + i] = d;
            }
        }
        self.compute(bits, slot);
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
    fn compute(&mut self, bits: u8, new: usize) {
        let n = D + 1;
        let nb = 1u8 << new;
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

    /// The cofactors `Δᵢ(set)` by slot.
    pub(crate) fn row(&self, set: u8) -> &[T] {
        let n = D + 1;
        &self.det.as_ref()[set as usize * n..set as usize * n + n]
    }

    /// Whether every `Δᵢ(set)` is positive.
    pub(super) fn proper(&self, set: u8) -> bool {
        let row = self.row(set);
        (0..D + 1)
            .filter(|i| set & (1 << i) != 0)
            .all(|i| row[i] > T::zero())
    }

    /// Whether no vertex of `bits` outside `set` would improve it: `Δⱼ(set ∪ {j}) ≤ 0`.
    pub(super) fn maximal(&self, bits: u8, set: u8) -> bool {
        let n = D + 1;
        (0..n)
            .filter(|j| bits & !set & (1 << j) != 0)
            .all(|j| self.det.as_ref()[(set | (1 << j)) as usize * n + j] <= T::zero())
    }
}
