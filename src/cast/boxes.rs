//! The linear cast of two boxes by the separating-axis test over time (docs/casts.md §3),
//! 2D and 3D, floats, target distance 0.
//!
//! In A's frame A is `[−a, a]` and B is `t + τ·u + R·[−b, b]`. Along an axis `n` of the
//! complete set (the faces' normals, in 3D the edges' crosses `e_i × R_j`; Gottschalk et
//! al. 1996) the projections overlap while `|n·t + τ n·u| ≤ r(n)`, `r(n) = Σ a_k |n_k| +
//! Σ b_k |n·R_k|`: an interval of `τ` (all or none of them when `n·u = 0`). The boxes
//! overlap exactly when every axis does, so the first contact is the latest entry, if it
//! comes before the earliest exit; its axis is the normal. The witnesses at that time are
//! the box–box distance fast path's (`crate::pair`). Pairs touching or overlapping at
//! `τ = 0`, grazing within the rounding, or parallel edges the skipped crosses would
//! decide, are left to the GJK ray cast (`None`).

use super::{Cast, CastTermination, ShapeCast, ShapeHit};
use crate::{
    Real, Tolerances,
    pair::{EdgeAxis, cofactors, edge_cross},
    real::lit,
    tolerance::Rounding,
};
use nalgebra::{SMatrix, SVector, Unit};

/// Two boxes and B's motion, in A's frame: A is `[−a, a]`, B is `t + τ·u + rot·[−b, b]`.
#[derive(Clone, Copy, Debug)]
pub(super) struct BoxMotion<'a, T: Real, const D: usize> {
    /// A's half extents.
    pub a: &'a SVector<T, D>,
    /// B's half extents.
    pub b: &'a SVector<T, D>,
    /// B's rotation in A's frame.
    pub rot: &'a SMatrix<T, D, D>,
    /// B's centre at `τ = 0`.
    pub t: &'a SVector<T, D>,
    /// B's velocity relative to A.
    pub u: &'a SVector<T, D>,
}

/// The cast of box `b` (placed by `rot`, `t` in A's frame, moving by `τ·u`) against box
/// `a` over `[0, max_toi]`, in A's frame; `None` where the GJK ray cast must decide.
pub(super) fn box_box<T: Real, const D: usize>(
    boxes: BoxMotion<'_, T, D>,
    max_toi: T,
    tol: &Tolerances<T>,
) -> Option<ShapeCast<T, D>> {
    let BoxMotion { a, b, rot, t, u } = boxes;
    if !(D == 2 || D == 3) || crate::real::is_fixed::<T>() {
        return None;
    }
    let r = Rounding::of(tol);
    let big = T::max_value()?;
    let band = r.band(t.amax() + a.sum() + b.sum());
    let mut iv = Intervals::<T, D> {
        enter: -big,
        exit: big,
        entry: Entry {
            kind: Kind::First(0),
            sign: T::one(),
        },
        enter_slack: T::zero(),
        exit_slack: T::zero(),
        apart: false,
        separating: false,
        band,
        band_u: r.band(u.amax()),
        two_band_sq: band * band * lit(4.0),
    };
    let cof = cofactors(rot);
    let det = cof.column(0).dot(&rot.column(0)).abs();
    // A's face normals e_i: B's support value Σ b_k |R_ik|.
    for i in 0..D {
        let mut h = a[i];
        for k in 0..D {
            h += b[k] * rot[(i, k)].abs();
        }
        iv.axis(Kind::First(i), t[i], u[i], h, T::one());
    }
    // B's face normals ν_j (the cofactor columns of R: its columns for a rotation, the
    // placed box's exact normals when R is a few ulps off one; ν_j·R_k = δ_jk det R).
    for j in 0..D {
        let c = cof.column(j);
        let mut h = b[j] * det;
        for k in 0..D {
            h += a[k] * c[k].abs();
        }
        iv.axis(Kind::Second(j), c.dot(t), c.dot(u), h, c.norm_squared());
    }
    if D == 3 {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                // As `crate::pair`'s boxes: edges parallel to rounding are skipped.
                let Some(EdgeAxis {
                    l1,
                    l2,
                    len2: ll,
                    reach: h,
                }) = edge_cross(rot, a, b, i, j)
                else {
                    continue;
                };
                let (c0, cu) = (l1 * t[i1] + l2 * t[i2], l1 * u[i1] + l2 * u[i2]);
                iv.axis(Kind::Edge(i, j), c0, cu, h, ll);
            }
        }
    }
    iv.answer(boxes, &cof, max_toi, tol)
}

/// Which axis: a face normal of A (`e_i`), of B (`ν_j`), or the cross `e_i × R_j`.
#[derive(Clone, Copy, Debug)]
enum Kind {
    First(usize),
    Second(usize),
    Edge(usize, usize),
}

/// An entering axis and its sign (towards B).
#[derive(Clone, Copy, Debug)]
struct Entry<T> {
    kind: Kind,
    sign: T,
}

/// The intersection of the axes' overlap intervals so far.
struct Intervals<T: Real, const D: usize> {
    /// The latest entry, its axis and sign (towards B), and its rounding in time.
    enter: T,
    entry: Entry<T>,
    enter_slack: T,
    /// The earliest exit and its rounding in time.
    exit: T,
    exit_slack: T,
    /// An axis separates the boxes by more than two bands at `τ = 0`.
    apart: bool,
    /// An axis separates for every `τ ≥ 0`.
    separating: bool,
    /// The rounding of a projection of the boxes at `τ = 0`, and of `u`'s per unit time.
    band: T,
    band_u: T,
    two_band_sq: T,
}

impl<T: Real, const D: usize> Intervals<T, D> {
    /// The axis `kind` of squared length `len2`: B's centre at `c0 + τ·cu` along it, the
    /// boxes' reach `h` (all scaled by its length).
    #[inline]
    fn axis(&mut self, kind: Kind, c0: T, cu: T, h: T, len2: T) {
        let sep = c0.abs() - h;
        self.apart |= sep > T::zero() && sep * sep > self.two_band_sq * len2;
        if cu == T::zero() {
            // The projections keep their distance: apart for ever, or overlapping.
            self.separating |= sep > T::zero();
            return;
        }
        let (t1, t2) = ((-h - c0) / cu, (h - c0) / cu);
        let (lo, hi) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
        let (enters, exits) = (lo > self.enter, hi < self.exit);
        if !(enters || exits) {
            return;
        }
        // The times' rounding: the projections' over |n·u|, growing with |τ|.
        let dt = len2.sqrt() * (self.band + self.band_u * lo.abs().max(hi.abs())) / cu.abs();
        if enters {
            let s = if c0 < T::zero() { -T::one() } else { T::one() };
            (self.enter, self.enter_slack) = (lo, dt);
            self.entry = Entry { kind, sign: s };
        }
        if exits {
            (self.exit, self.exit_slack) = (hi, dt);
        }
    }

    /// The entering axis, unit, from A to B.
    fn normal(&self, rot: &SMatrix<T, D, D>, cof: &SMatrix<T, D, D>) -> SVector<T, D> {
        let Entry { kind, sign: s } = self.entry;
        let mut n = SVector::<T, D>::zeros();
        match kind {
            Kind::First(i) => n[i] = s,
            Kind::Second(j) => {
                let c = cof.column(j);
                n = c * (s / c.norm());
            }
            Kind::Edge(i, j) => {
                let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
                let (l1, l2) = (-rot[(i2, j)], rot[(i1, j)]);
                let f = s / (l1 * l1 + l2 * l2).sqrt();
                (n[i1], n[i2]) = (l1 * f, l2 * f);
            }
        }
        n
    }

    /// The cast the intervals decide: a miss, the hit at the latest entry, or `None`
    /// (touching at the start, grazing, out of `(0, max_toi]`) for the GJK ray cast.
    /// `cof`: the cofactors of `boxes.rot`.
    fn answer(
        &self,
        boxes: BoxMotion<'_, T, D>,
        cof: &SMatrix<T, D, D>,
        max_toi: T,
        tol: &Tolerances<T>,
    ) -> Option<ShapeCast<T, D>> {
        let BoxMotion { a, b, rot, t, u } = boxes;
        let two = T::one() + T::one();
        if !self.apart {
            // Touching or overlapping at the start.
            return None;
        }
        let miss = |termination| Cast {
            hit: None,
            safe_toi: max_toi,
            iterations: 0,
            steps: 0,
            termination,
        };
        if self.separating {
            return Some(miss(CastTermination::Separating));
        }
        let (slack, room) = (self.enter_slack + self.exit_slack, self.exit - self.enter);
        if room.abs() <= slack * two {
            // Grazing within the rounding.
            return None;
        }
        if room < T::zero() {
            return Some(miss(CastTermination::Separating));
        }
        if self.enter > max_toi + self.enter_slack * two {
            return Some(miss(CastTermination::Horizon));
        }
        if !(self.enter <= max_toi) || !(self.enter > T::zero()) {
            return None;
        }
        let toi = self.enter;
        let ans = crate::pair::box_pair(*a, *b, *rot, t + u * toi, tol)?;
        let lower = (toi - self.enter_slack).max(T::zero());
        let upper = toi + self.enter_slack;
        let hit = ShapeHit {
            toi,
            lower_bound: lower,
            upper_bound: (upper <= self.exit - self.exit_slack).then_some(upper),
            distance: T::zero(),
            normal: Some(Unit::new_unchecked(self.normal(rot, cof))),
            point_a: ans.a,
            point_b: ans.b,
            termination: CastTermination::Converged,
        };
        Some(Cast {
            hit: Some(hit),
            safe_toi: lower,
            iterations: 0,
            steps: 0,
            termination: CastTermination::Converged,
        })
    }
}
