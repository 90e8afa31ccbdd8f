//! The signed-volumes subalgorithm for `D ≤ 3` (Montanari, Petrinic, Barbieri, ACM TOG
//! 2017, [MPB17]; docs/gjk.md §2.2): the closest point of a simplex to the origin from the
//! signs of its sub-simplices' volumes, each computed in the coordinate projection where
//! it is largest. No tables, no cached products, no backup procedure.
//!
//! Differences from the paper:
//! - areas in `S2D` are taken relative to the projected origin `p₀` (translation-invariant
//!   cross products of vertex differences), not from the determinant expansion in the raw
//!   coordinates: a triangle far from the origin keeps the digits of its own size;
//! - the plane normal is scaled by its largest component before the projection, so
//!   `n·n` neither vanishes nor overflows in fixed-point.

use super::simplex::{Closest, SupportPoint};
use super::vertex_set::VertexSet;
use crate::{Real, linalg::Witnesses};
use core::ops::Index;
use nalgebra::SVector;

/// The vertices `yᵢ` a solver reads: a simplex's own points (their `w`, no copy) or
/// scaled copies.
pub(crate) trait Verts<T: Real, const D: usize>:
    Index<usize, Output = SVector<T, D>>
{
}

impl<T: Real, const D: usize, Y: Index<usize, Output = SVector<T, D>> + ?Sized> Verts<T, D> for Y {}

/// A simplex's vertices read in place: `ws[i]` is `pts[i].w`.
pub(crate) struct Ws<'a, T: Real, const D: usize>(pub &'a [SupportPoint<T, D>]);

impl<T: Real, const D: usize> Index<usize> for Ws<'_, T, D> {
    type Output = SVector<T, D>;
    #[inline]
    fn index(&self, i: usize) -> &SVector<T, D> {
        &self.0[i].w
    }
}

/// A candidate answer on a sub-simplex: its slots, barycentric coordinates by slot, the
/// point and its squared norm.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<T: Real, const D: usize> {
    pub set: VertexSet,
    pub lambda: [T; 4],
    pub v: SVector<T, D>,
    pub vv: T,
    /// A vector along `v` computed without `v`'s rounding where the case gives one (a face
    /// or line normal): fixed-point rounds a short `v` to a few ulps per component.
    pub dir: SVector<T, D>,
}

impl<T: Real, const D: usize> Candidate<T, D> {
    fn vertex<Y: Verts<T, D> + ?Sized>(y: &Y, i: usize) -> Self {
        let mut lambda = [T::zero(); 4];
        lambda[i] = T::one();
        Self {
            set: VertexSet::single(i),
            lambda,
            v: y[i],
            vv: y[i].norm_squared(),
            dir: y[i],
        }
    }

    /// The nearer of two candidates (the first on ties).
    fn nearer(self, other: Option<Self>) -> Self {
        match other {
            Some(o) if o.vv < self.vv => o,
            _ => self,
        }
    }

    /// `self` into `best` unless `best` is nearer (the new one wins ties, as
    /// `self.nearer(best)`), in place: no candidate moved through an `Option` by value.
    #[inline]
    fn keep_in(self, best: &mut Option<Self>) {
        if best.as_ref().is_none_or(|b| !(b.vv < self.vv)) {
            *best = Some(self);
        }
    }

    /// Whether all `D + 1` vertices are used: the origin is inside.
    pub(crate) fn full(&self) -> bool {
        self.set.len() == D + 1
    }
}

/// `a` and `b` are both strictly positive or both strictly negative ([MPB17] compareSigns).
/// The four comparisons are combined without short-circuit: the signs of a simplex's
/// cofactors are what the solver is there to find, so a branch on each was mispredicted
/// about one time in six (docs/PERFORMANCE.md §2.12 as of `e989df6`).
#[inline]
pub(super) fn same_sign<T: Real>(a: T, b: T) -> bool {
    let z = T::zero();
    ((a > z) & (b > z)) | ((a < z) & (b < z))
}

/// The slots of a set of at most 4 vertices ([`slots`]).
#[derive(Clone, Copy, Debug)]
struct Slots {
    /// The slots, in increasing order; `index[len..]` unused.
    index: [usize; 4],
    /// How many there are.
    len: usize,
}

/// The slots of `set`, in increasing order.
#[inline]
fn slots(set: VertexSet) -> Slots {
    let mut index = [0; 4];
    let mut len = 0;
    // Written at every step, counted only when in `set` (`len ≤ i`: always in bounds).
    for i in 0..4 {
        index[len] = i;
        len += usize::from(set.contains(i));
    }
    Slots { index, len }
}

/// The closest point of the simplex `y[set]` (at most `D + 1 ≤ 4` vertices) to the origin.
/// A candidate with all `D + 1` vertices means the sign tests put the origin inside; the
/// caller checks that claim against the residual (a flat simplex can pass on noise).
pub(crate) fn closest<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    set: VertexSet,
) -> Candidate<T, D> {
    debug_assert!(D <= 3 && !set.is_empty());
    let Slots { index: s, len } = slots(set);
    match len {
        1 => Candidate::vertex(y, s[0]),
        2 => segment(y, s[0], s[1]),
        3 if D == 2 => triangle_2d(y, s[0], s[1], s[2]),
        3 => triangle(y, s[0], s[1], s[2]),
        _ => tetrahedron(y, s[0], s[1], s[2], s[3]),
    }
}

/// S1D: the segment `y_i y_j`. Its Voronoi regions along `t = y_j − y_i`: `λ_j = −y_i·t / t·t`
/// clamped to `[0, 1]` ([MPB17] §3.2; the projection on the largest axis gives the same
/// ratio).
fn segment<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    i: usize,
    j: usize,
) -> Candidate<T, D> {
    let t = y[j] - y[i];
    let tt = t.norm_squared();
    let num = -y[i].dot(&t);
    if !(tt > T::zero()) || !(num > T::zero()) {
        return Candidate::vertex(y, i).nearer(Some(Candidate::vertex(y, j)));
    }
    if num >= tt {
        return Candidate::vertex(y, j);
    }
    let lj = num / tt;
    let mut lambda = [T::zero(); 4];
    lambda[i] = T::one() - lj;
    lambda[j] = lj;
    let (v, dir) = if D == 2 {
        // The line's normal `n ⟂ t` carries no cancellation: `v = n (n·yᵢ)/(n·n)` keeps
        // its direction to ε where `yᵢ + λⱼ t` is off by `ε‖yᵢ‖` (a lower bound of 0 for
        // a 1e-8 gap between 1.25-long edges).
        let mut n = SVector::<T, D>::zeros();
        (n[0], n[1]) = (-t[1], t[0]);
        let ny = n.dot(&y[i]);
        (n * (ny / tt), if ny < T::zero() { -n } else { n })
    } else {
        // One step of the projection again, on `v` scaled to unit size: the rounding of
        // `yᵢ + λⱼ t` leaves a component along `t`, a direction error of `ε‖yᵢ‖/‖v‖` that
        // tilts the plane bound by the segment's length (a fixed-point gap of 2.6e-4 along a
        // 0.7-long edge bounded by 0). Floats keep the corrected point itself.
        let v = y[i] + t * lj;
        let s = crate::linalg::pow2_scale(v.amax());
        let vs = v * s;
        let dir = vs - t * (vs.dot(&t) / tt);
        if crate::real::is_fixed::<T>() {
            (v, dir)
        } else {
            // At the scale of `v`: a `v` below 2⁻³⁰ was scaled up to unit size.
            (dir / s, dir)
        }
    };
    Candidate {
        set: VertexSet::single(i).with(j),
        lambda,
        v,
        vv: v.norm_squared(),
        dir,
    }
}

/// `x.a·x.b − x.b·x.a` in the coordinate plane `(p, q)`.
#[inline]
fn cross2<T: Real, const D: usize>(u: &SVector<T, D>, w: &SVector<T, D>, p: usize, q: usize) -> T {
    u[p] * w[q] - u[q] * w[p]
}

/// The best candidate over the edges `(s[k], s[k+1])` of a triangle whose opposite vertex's
/// area `c[m]` does not share the sign of the whole (the origin is beyond that edge).
fn edges<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    s: [usize; 3],
    c: [T; 3],
    mu: T,
) -> Candidate<T, D> {
    let mut best: Option<Candidate<T, D>> = None;
    for m in 0..3 {
        if !same_sign(mu, c[m]) {
            let e = segment(y, s[(m + 1) % 3], s[(m + 2) % 3]);
            e.keep_in(&mut best);
        }
    }
    // Every area agreeing is handled by the caller; this is unreachable then, but stays
    // total: the nearest edge.
    best.unwrap_or_else(|| {
        segment(y, s[0], s[1])
            .nearer(Some(segment(y, s[1], s[2])))
            .nearer(Some(segment(y, s[0], s[2])))
    })
}

/// S2D in 2D: the triangle is full-dimensional; the origin's areas `C_m` (the origin
/// replacing vertex `m`) against the whole area `μ` ([MPB17] §3.3 without projection).
fn triangle_2d<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    i: usize,
    j: usize,
    k: usize,
) -> Candidate<T, D> {
    let c = [
        cross2(&y[j], &y[k], 0, 1),
        cross2(&y[k], &y[i], 0, 1),
        cross2(&y[i], &y[j], 0, 1),
    ];
    let mu = c[0] + c[1] + c[2];
    if c.iter().all(|&x| same_sign(mu, x)) {
        let mut lambda = [T::zero(); 4];
        for (m, &slot) in [i, j, k].iter().enumerate() {
            lambda[slot] = c[m] / mu;
        }
        return Candidate {
            set: VertexSet::single(i).with(j).with(k),
            lambda,
            v: SVector::zeros(),
            vv: T::zero(),
            dir: SVector::zeros(),
        };
    }
    edges(y, [i, j, k], c, mu)
}

/// S2D in 3D: the origin projected on the triangle's plane, `p₀ = n (y_i·n)/(n·n)`, then its
/// areas in the coordinate plane where the triangle's projection is largest (`|n_J|`
/// largest; [MPB17] §3.3), relative to `p₀`.
fn triangle<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    i: usize,
    j: usize,
    k: usize,
) -> Candidate<T, D> {
    let (e1, e2) = (y[j] - y[i], y[k] - y[i]);
    let n = SVector::<T, D>::from_fn(|r, _| {
        let (p, q) = ((r + 1) % 3, (r + 2) % 3);
        e1[p] * e2[q] - e1[q] * e2[p]
    });
    let (mut big, mut axis) = (T::zero(), 0);
    for r in 0..3 {
        if n[r].abs() > big {
            (big, axis) = (n[r].abs(), r);
        }
    }
    let s = [i, j, k];
    if !(big > T::zero()) {
        return edges(y, s, [T::zero(); 3], T::zero());
    }
    // n / |n|∞: components in [−1, 1], so n·n ∈ [1, 3] in every scalar.
    let u = n / big;
    let yu = y[i].dot(&u);
    let p0 = u * (yu / u.norm_squared());
    let (p, q) = ((axis + 1) % 3, (axis + 2) % 3);
    let (a, b, c) = (y[i] - p0, y[j] - p0, y[k] - p0);
    let areas = [
        cross2(&b, &c, p, q),
        cross2(&c, &a, p, q),
        cross2(&a, &b, p, q),
    ];
    let mu = n[axis];
    if areas.iter().all(|&x| same_sign(mu, x)) {
        let sum = areas[0] + areas[1] + areas[2];
        let mut lambda = [T::zero(); 4];
        for (m, &slot) in s.iter().enumerate() {
            lambda[slot] = areas[m] / sum;
        }
        return Candidate {
            set: VertexSet::single(i).with(j).with(k),
            lambda,
            v: p0,
            vv: p0.norm_squared(),
            dir: if yu < T::zero() { -u } else { u },
        };
    }
    edges(y, s, areas, mu)
}

/// `det[a, b, c]` of three 3-vectors.
#[inline]
fn det3<T: Real, const D: usize>(a: &SVector<T, D>, b: &SVector<T, D>, c: &SVector<T, D>) -> T {
    a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
}

/// S3D: the tetrahedron's signed volumes with the origin replacing each vertex, against
/// their sum, the whole volume ([MPB17] §3.4). Facets whose volume disagrees in sign face
/// the origin and are searched by S2D.
fn tetrahedron<T: Real, const D: usize, Y: Verts<T, D> + ?Sized>(
    y: &Y,
    i: usize,
    j: usize,
    k: usize,
    l: usize,
) -> Candidate<T, D> {
    let c = [
        det3(&y[j], &y[k], &y[l]),
        -det3(&y[i], &y[k], &y[l]),
        det3(&y[i], &y[j], &y[l]),
        -det3(&y[i], &y[j], &y[k]),
    ];
    let det = c[0] + c[1] + c[2] + c[3];
    let s = [i, j, k, l];
    if c.iter().all(|&x| same_sign(det, x)) {
        let mut lambda = [T::zero(); 4];
        for (m, &slot) in s.iter().enumerate() {
            lambda[slot] = c[m] / det;
        }
        return Candidate {
            set: VertexSet::single(i).with(j).with(k).with(l),
            lambda,
            v: SVector::zeros(),
            vv: T::zero(),
            dir: SVector::zeros(),
        };
    }
    let mut best: Option<Candidate<T, D>> = None;
    for m in 0..4 {
        if !same_sign(det, c[m]) {
            let f = [s[(m + 1) % 4], s[(m + 2) % 4], s[(m + 3) % 4]];
            triangle(y, f[0], f[1], f[2]).keep_in(&mut best);
        }
    }
    best.unwrap_or_else(|| Candidate::vertex(y, i))
}

/// The witnesses `Σ λᵢ aᵢ`, `Σ λᵢ bᵢ` over the slots in `set` (both at the origin unless
/// `witnesses`). Always inlined: out of line (as LLVM chose for one build) it cost the 3D
/// corpus distance 1.2 % more instructions.
#[inline(always)]
pub(crate) fn mix<T: Real, const D: usize>(
    set: VertexSet,
    lambda: &[T],
    pts: &[SupportPoint<T, D>],
    witnesses: bool,
) -> Witnesses<T, D> {
    let (mut a, mut b) = (SVector::<T, D>::zeros(), SVector::<T, D>::zeros());
    if witnesses {
        for (s, (p, l)) in pts.iter().zip(lambda).enumerate() {
            if set.contains(s) {
                a += p.a.coords * *l;
                b += p.b.coords * *l;
            }
        }
    }
    Witnesses {
        a: a.into(),
        b: b.into(),
    }
}

/// Fills in a [`Closest`] from a candidate: the point, its witnesses `Σ λᵢ aᵢ`, `Σ λᵢ bᵢ`
/// (left at the origin without `witnesses`); `scale` is the simplex's largest coordinate
/// (at least the candidate's).
#[inline]
pub(crate) fn to_closest<T: Real, const D: usize>(
    cand: &Candidate<T, D>,
    pts: &[SupportPoint<T, D>],
    scale: T,
    witnesses: bool,
) -> Closest<T, D> {
    let w = mix(cand.set, &cand.lambda, pts, witnesses);
    Closest {
        v: cand.v,
        dir: cand.dir,
        a: w.a,
        b: w.b,
        scale,
        full: cand.full(),
        via: crate::trace::Solver::SignedVolumes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector2, Vector3};

    /// (vertices, closest point, slots kept)
    #[test]
    fn closest_point_cases_3d() {
        type Case<'a> = (&'a [[f64; 3]], [f64; 3], u8);
        let cases: &[Case] = &[
            (&[[1.0, 2.0, 3.0]], [1.0, 2.0, 3.0], 0b1),
            (&[[1.0, -1.0, 1.0], [1.0, 1.0, 1.0]], [1.0, 0.0, 1.0], 0b11),
            (&[[3.0, 1.0, 0.0], [1.0, 1.0, 0.0]], [1.0, 1.0, 0.0], 0b10),
            (
                &[[-1.0, -1.0, 2.0], [2.0, -1.0, 2.0], [-1.0, 2.0, 2.0]],
                [0.0, 0.0, 2.0],
                0b111,
            ),
            (
                &[[3.0, 0.0, 0.0], [1.0, -1.0, 0.0], [1.0, 1.0, 0.0]],
                [1.0, 0.0, 0.0],
                0b110,
            ),
            (
                &[
                    [1.0, 1.0, 1.0],
                    [-1.0, -1.0, 1.0],
                    [-1.0, 1.0, -1.0],
                    [1.0, -1.0, -1.0],
                ],
                [0.0, 0.0, 0.0],
                0b1111,
            ),
            (
                &[
                    [3.0, 0.0, 0.0],
                    [1.0, -1.0, -1.0],
                    [1.0, 2.0, -1.0],
                    [1.0, -1.0, 2.0],
                ],
                [1.0, 0.0, 0.0],
                0b1110,
            ),
            // Origin beyond a vertex of a tetrahedron.
            (
                &[
                    [1.0, 1.0, 1.0],
                    [2.0, 1.0, 1.0],
                    [1.0, 2.0, 1.0],
                    [1.0, 1.0, 2.0],
                ],
                [1.0, 1.0, 1.0],
                0b1,
            ),
        ];
        for (pts, want, kept) in cases {
            let y: Vec<Vector3<f64>> = pts.iter().map(|p| Vector3::from(*p)).collect();
            let set = VertexSet::first(y.len());
            let c = closest(&y, set);
            assert!(
                (c.v - Vector3::from(*want)).norm() < 1e-12,
                "{pts:?}: {:?}",
                c.v
            );
            assert_eq!(c.set.bits(), *kept, "{pts:?}");
            let sum: f64 = c.lambda.iter().sum();
            assert!((sum - 1.0).abs() < 1e-12);
            let re = (0..y.len()).fold(Vector3::zeros(), |s, i| s + y[i] * c.lambda[i]);
            assert!((re - c.v).norm() < 1e-12, "{pts:?}: Σλy = {re:?}");
        }
    }

    #[test]
    fn closest_point_cases_2d() {
        let y = [
            Vector2::new(-1.0, -1.0),
            Vector2::new(2.0, -1.0),
            Vector2::new(-1.0, 2.0),
        ];
        let c = closest(&y, VertexSet::first(3));
        assert_eq!(c.set, VertexSet::first(3));
        assert_eq!(c.v, Vector2::zeros());
        let y = [
            Vector2::new(1.0, -1.0),
            Vector2::new(2.0, 1.0),
            Vector2::new(1.0, 1.0),
        ];
        let c = closest(&y, VertexSet::first(3));
        assert_eq!(c.set.bits(), 0b101);
        assert!((c.v - Vector2::new(1.0, 0.0)).norm() < 1e-15);
    }

    #[test]
    fn far_triangle_keeps_its_digits() {
        // A unit triangle 1e8 away (f64): the areas relative to p₀ keep ~8 digits where the
        // raw determinant expansion would keep none.
        let y = [
            Vector3::new(1e8, -0.25, -0.5),
            Vector3::new(1e8, 0.75, -0.5),
            Vector3::new(1e8, 0.0, 0.5),
        ];
        let c = closest(&y, VertexSet::first(3));
        assert_eq!(c.set, VertexSet::first(3));
        assert!(
            (c.v - Vector3::new(1e8, 0.0, 0.0)).norm() < 1e-7,
            "{:?}",
            c.v
        );
    }
}
