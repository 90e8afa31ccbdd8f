//! The robust fallback of both subalgorithms: the closest point of a sub-simplex's affine
//! hull as an orthogonal projection (Gram–Schmidt on its edges), accurate however
//! elongated the simplex (docs/gjk.md §2.4).

use super::{johnson::Johnson, simplex::Closest, simplex::SupportPoint, vertex_set::VertexSet};
use crate::{Real, dim::Dim, trace::Solver};
use nalgebra::{Const, Point, SVector};

/// [`project`]'s answer: the projected point and the search direction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projected<T: Real, const D: usize> {
    /// The origin's projection onto the affine hull, accurate to `ε·‖y‖`.
    pub v: SVector<T, D>,
    /// `v` projected once more: its direction accurate to `ε` along the hull.
    pub dir: SVector<T, D>,
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
/// `v` is then accurate to `ε·‖y‖` however elongated the simplex, and the returned
/// direction (`v` projected once more) to `ε` in angle along the hull. `None` when an edge is
/// dependent on the earlier ones at the scalar's precision, or a quotient would exceed
/// `1/ε` (it could overflow a fixed-point type). Algorithm (docs/gjk.md §2.4):
/// 1. Fixed-point: the vertices scaled by a power of two into `[1/2, 2)` (exact).
/// 2. Gram–Schmidt on the edges from `y_k`: `q̃ⱼ` and `rᵢⱼ`; an edge with
///    `q̃ⱼ·q̃ⱼ ≤ ε ‖eⱼ‖²` (what is left is rounding): `None`.
/// 3. `v = y_k − Σ cᵢ q̃ᵢ`.
/// 4. Reorthogonalisation (Björck 1967): `v` at unit size projected once more; floats
///    take that as `v`, fixed-point as the direction, `v` scaled back (failed: `v` both).
/// 5. Back substitution of `R μ = −c`: `λⱼ = μⱼ`, `λ_k = 1 − Σ μⱼ`.
pub(crate) fn project<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    set: VertexSet,
    k: usize,
    lambda: &mut <Const<D> as Dim>::Slots<T>,
) -> Option<Projected<T, D>>
where
    Const<D>: Dim,
{
    let n = D + 1;
    let eps = T::default_epsilon();
    // `|num|·ε ≤ den`, not `|num| ≤ den/ε`: the quotient den/ε overflows a fixed-point
    // type for den beyond its range times ε.
    let div = |num: T, den: T| -> Option<T> {
        if den > T::zero() && num.abs() * eps <= den {
            Some(num / den)
        } else {
            None
        }
    };
    // Fixed point: the vertices scaled by a power of two into `[1/2, 2)` (exact), as signed
    // volumes do: products of small edges round to an absolute ulp (a triangle 0.05 across
    // had `q̃·q̃` of 16 ulps). `λ` does not change; `v` is scaled back at the end.
    let s = if crate::real::is_fixed::<T>() {
        let mut m = T::zero();
        for (j, p) in pts.iter().enumerate() {
            if set.contains(j) {
                m = m.max(p.w.amax());
            }
        }
        crate::linalg::pow2_scale(m)
    } else {
        T::one()
    };
    let y = |j: usize| {
        if crate::real::is_fixed::<T>() {
            pts[j].w * s
        } else {
            pts[j].w
        }
    };
    let y_k = y(k);
    let mut idx = <Const<D> as Dim>::slots(0usize);
    let mut q = <Const<D> as Dim>::slots(SVector::<T, D>::zeros());
    let mut qq = <Const<D> as Dim>::slots(T::zero());
    let mut r = <Const<D> as Dim>::pairs(T::zero());
    let (idx, q, qq, r) = (idx.as_mut(), q.as_mut(), qq.as_mut(), r.as_mut());
    let mut m = 0;
    for j in 0..pts.len() {
        if !set.contains(j) || j == k {
            continue;
        }
        let e = y(j) - y_k;
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
    // Reorthogonalisation (Björck 1967, "twice is enough"): `v` is accurate to `ε·‖y‖`
    // in position, so its direction is off by `ε·‖y‖/‖v‖`: a 1e-12 gap between unit
    // edges tilted the plane bound by 1e-5 along the edge. Projected again at unit size
    // (a power of two: exact), what is left along the edges is `ε` of `v`.
    // Floats keep the corrected point itself (the power of two divides out exactly);
    // fixed-point keeps `v` (its components are an ulp each) and the direction.
    let u = crate::linalg::pow2_scale(v.amax());
    let mut dir = v * u;
    let mut again = true;
    for i in 0..m {
        match div(q[i].dot(&dir), qq[i]) {
            Some(x) => dir -= q[i] * x,
            None => {
                again = false;
                break;
            }
        }
    }
    let projected = match (again, crate::real::is_fixed::<T>()) {
        (false, false) => Projected { v, dir: v },
        (false, true) => Projected { v: v / s, dir: v },
        (true, true) => Projected { v: v / s, dir },
        (true, false) => Projected { v: dir / u, dir },
    };
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
    Some(projected)
}

/// The closest point of `aff(set)` to the origin and its witnesses, if it lies in the
/// sub-simplex: every barycentric coordinate at least `-slack` (coordinates in
/// `[−slack, 0)` are rounding and are clamped to 0 for the witnesses).
///
/// `johnson`: with `fast`, Johnson's own coordinates `Δᵢ / ΣΔ` (no projection); without,
/// they are the fallback when the projection fails. Without tables the projection is all.
///
/// Algorithm:
/// 1. The base vertex: `last` if in `set`, else the lowest; `scale`, the largest
///    coordinate of the set's vertices.
/// 2. Unless `fast`, the projection ([`project`]).
/// 3. Skipped or failed: Johnson's `λᵢ = Δᵢ / ΣΔ` from its table and `v = p + Σ λᵢ eᵢ`;
///    no tables, or `ΣΔ ≤ 0`: `None`.
/// 4. A coordinate below `−slack`: `None`; the others clamped at 0 (a zero sum: `None`).
/// 5. The witnesses `a`, `b` mixed with the normalised coordinates; `full` when `set` has
///    all `D + 1` vertices.
pub(super) fn closest_of<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    set: VertexSet,
    last: usize,
    slack: T,
    johnson: Option<&Johnson<T, D>>,
    fast: bool,
) -> Option<Closest<T, D>>
where
    Const<D>: Dim,
{
    let n = D + 1;
    let k = if set.contains(last) {
        last
    } else {
        set.lowest()
    };
    let mut slots = <Const<D> as Dim>::slots(T::zero());
    let mut scale = T::zero();
    for i in 0..n {
        if set.contains(i) {
            scale = scale.max(pts[i].w.amax());
        }
    }
    let projected = if fast {
        None
    } else {
        project(pts, set, k, &mut slots)
    };
    let lambda = slots.as_mut();
    let Projected { v, dir } = match (projected, johnson) {
        (Some(p), _) => p,
        (None, None) => return None,
        (None, Some(j)) => {
            let det = j.row(set);
            let mut sum = T::zero();
            for i in 0..n {
                if set.contains(i) {
                    sum += det[i];
                }
            }
            if !(sum > T::zero()) {
                return None;
            }
            // `Δᵢ / Σ` rather than `Δᵢ · (1/Σ)`: one rounding fewer.
            let mut dv = SVector::<T, D>::zeros();
            for i in 0..n {
                if set.contains(i) {
                    lambda[i] = det[i] / sum;
                    dv += j.e.as_ref()[i] * lambda[i];
                }
            }
            let v = j.base + dv;
            Projected { v, dir: v }
        }
    };
    let mut total = T::zero();
    for i in 0..n {
        if set.contains(i) {
            if lambda[i] < -slack {
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
        if set.contains(i) {
            a += pts[i].a.coords * (lambda[i] / total);
            b += pts[i].b.coords * (lambda[i] / total);
        }
    }
    Some(Closest {
        v,
        dir,
        a: Point::from(a),
        b: Point::from(b),
        scale,
        full: set.len() == n,
        via: Solver::Projection,
    })
}
