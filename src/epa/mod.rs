//! EPA: penetration depth, normal and witness points of overlapping shapes, from GJK's
//! final simplex (van den Bergen 2001, SOLID 3's `penDepth`, docs/references.md;
//! docs/epa.md).
//!
//! One entry point, specialised by dimension through the sealed trait [`ContactDim`]:
//! 2D expands a polygon (`polygon2.rs`), 3D a polytope of triangles in a binary heap with
//! adjacency links (`polytope3.rs`). Calling it in another dimension does not compile.
//!
//! Like GJK it works on the shapes' cores; [`crate::query::contact`] adds the radii.

mod polygon2;
mod polytope3;

use crate::{
    QueryError, Real, Termination, Tolerances,
    dim::Dim,
    gjk::{Cores, Difference, Simplex, SupportPoint},
    linalg::any_axis,
    real::normalize,
    shape::SupportMap,
    tolerance::Rounding,
    trace::Observer,
};
use alloc::vec::Vec;
use nalgebra::{Const, Point, SVector, Unit};

/// The signed distance between two shapes: positive apart, negative overlapping (minus the
/// penetration depth), with the contact normal and the points on each shape.
///
/// [`penetration`] answers it for overlapping cores in their common frame: separation
/// `−depth`, its bounds the expanding polytope's distance to the origin (above) and the
/// smallest support value `n·s(n)` seen (below), both negated.
/// [`query::contact`](crate::query::contact) answers it for posed shapes in the world frame:
/// EPA's on the cores, less the radii, the witnesses moved out by them
/// (`src/query/touching.rs`), or GJK's distance when the cores are apart.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "ContactDef"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact<T: Real, const D: usize> {
    /// The signed distance: `> 0` apart, `< 0` penetrating (`−depth`), `0` touching.
    pub separation: T,
    /// The unit direction from A to B: moving B by `−separation` along it makes the shapes
    /// touch. Continuous across `separation = 0`.
    pub normal: Unit<SVector<T, D>>,
    /// The point of A farthest along `normal` (on A's boundary). After a cap
    /// ([`Termination::MaxIterations`]): a point of A within the bounds' width of it.
    pub point_a: Point<T, D>,
    /// The point of B farthest along `−normal`; `point_b − point_a = separation · normal`.
    pub point_b: Point<T, D>,
    /// A proven lower bound of `separation`.
    pub lower_bound: T,
    /// A proven upper bound of `separation`.
    pub upper_bound: T,
    /// Support evaluations (of GJK and EPA together, for a query that ran both).
    pub iterations: u32,
    /// Why the last algorithm run (GJK if apart, EPA if the cores overlap) stopped.
    pub termination: Termination,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for nalgebra::Const<2> {}
    impl Sealed for nalgebra::Const<3> {}
}

/// The dimensions with penetration depth and contacts: `Const<2>` and `Const<3>` (sealed).
///
/// The one bound the contact queries need: it implies [`Dim`] and clipping's own hooks
/// (`src/clip/dim.rs`), so a manifold query asks for nothing else.
pub trait ContactDim<T: Real, const D: usize>:
    Dim + sealed::Sealed + crate::clip::dim::ClipDim<T, D>
{
    /// The reusable storage of one dimension's EPA (`Send + Sync`: rustdoc cannot see
    /// through the projection and showed [`Workspace`] as `!Send`/`!Sync` without it).
    #[doc(hidden)]
    type Storage: Default + Clone + core::fmt::Debug + Send + Sync;

    /// EPA in this dimension, reporting to `obs`; see [`penetration`].
    #[doc(hidden)]
    fn penetration<P, O>(
        pair: &P,
        simplex: &Simplex<T, D>,
        tol: &Tolerances<T>,
        storage: &mut Self::Storage,
        obs: &mut O,
    ) -> Result<Contact<T, D>, QueryError>
    where
        Const<D>: Dim,
        P: Difference<T, D>,
        O: Observer<T, D>;
}

/// The [`ContactDim`] of `Const<$d>`: EPA is `$storage::run`.
macro_rules! contact_dim {
    ($d:literal, $storage:ty) => {
        impl<T: Real> ContactDim<T, $d> for Const<$d> {
            type Storage = $storage;

            fn penetration<P, O>(
                pair: &P,
                simplex: &Simplex<T, $d>,
                tol: &Tolerances<T>,
                storage: &mut $storage,
                obs: &mut O,
            ) -> Result<Contact<T, $d>, QueryError>
            where
                P: Difference<T, $d>,
                O: Observer<T, $d>,
            {
                let p = storage.run(pair, simplex, tol, obs);
                if O::ACTIVE
                    && let Ok(p) = &p
                {
                    obs.epa_end(p);
                }
                p
            }
        }
    };
}
contact_dim!(2, polygon2::Polygon2<T>);
contact_dim!(3, polytope3::Polytope3<T>);

/// EPA's reusable memory: keep one per thread (or per pair) and no query allocates once it
/// has grown to the largest polytope seen.
pub struct Workspace<T: Real, const D: usize>
where
    Const<D>: ContactDim<T, D>,
{
    storage: <Const<D> as ContactDim<T, D>>::Storage,
}

impl<T: Real, const D: usize> Default for Workspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    fn default() -> Self {
        Self {
            storage: Default::default(),
        }
    }
}

crate::scratch::workspace_new_and_debug!(Workspace);

/// The penetration depth of the cores of `a` and `b` (one common frame), expanding GJK's
/// final `simplex` (any simplex GJK returns for overlapping shapes: 1 to `D + 1` vertices;
/// an empty one makes EPA run GJK first).
///
/// # Errors
/// [`QueryError::NonFiniteSupport`] / [`QueryError::OutOfRange`] for support points that
/// are not finite or too large for the scalar.
///
/// ```
/// use convex_proximity::{Tolerances, epa, gjk, shape::{Cuboid, Transformed}};
/// use nalgebra::{Matrix3, Vector3};
/// let a = Cuboid::new(Vector3::new(1.0, 1.0, 1.0));
/// let b = Transformed::new(Cuboid::new(Vector3::new(1.0, 1.0, 1.0)), Matrix3::identity(), Vector3::new(1.5, 0.2, 0.0));
/// let tol = Tolerances::default();
/// let mut simplex = gjk::Simplex::new();
/// let d = gjk::distance(&a, &b, &tol, &mut simplex).unwrap();
/// assert_eq!(d.distance, 0.0);
/// let p = epa::penetration(&a, &b, &simplex, &tol, &mut epa::Workspace::new()).unwrap();
/// assert!((p.separation + 0.5f64).abs() < 1e-12 && (p.normal.x - 1.0).abs() < 1e-12);
/// ```
pub fn penetration<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    workspace: &mut Workspace<T, D>,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    crate::input::check_pair(a, b)?;
    penetration_observed(&Cores { a, b }, simplex, tol, workspace, &mut ())
}

/// [`penetration`] on shapes the caller has checked ([`crate::input::check_pair`]),
/// reporting to `obs` ([`crate::trace`]; nothing for `()`).
pub(crate) fn penetration_observed<T, const D: usize, P, O>(
    pair: &P,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    workspace: &mut Workspace<T, D>,
    obs: &mut O,
) -> Result<Contact<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    P: Difference<T, D>,
    O: Observer<T, D>,
{
    let storage = &mut workspace.storage;
    if simplex.is_empty() {
        // No simplex given: GJK builds one. Two coincident points leave none: touching.
        let mut own = Simplex::new();
        crate::gjk::Run::on(*pair, tol, &mut own, crate::gjk::Mode::Distance).observed(obs)?;
        if own.is_empty() {
            let p = pair.centres();
            let p = touching(&p, any_axis(), 0);
            if O::ACTIVE {
                obs.epa_end(&p);
            }
            return Ok(p);
        }
        return <Const<D> as ContactDim<T, D>>::penetration(pair, &own, tol, storage, obs);
    }
    <Const<D> as ContactDim<T, D>>::penetration(pair, simplex, tol, storage, obs)
}

/// The support point of the cores' `A − B` in direction `n`, checked.
#[inline]
pub(crate) fn support<T: Real, const D: usize, P>(
    pair: &P,
    n: &SVector<T, D>,
    limit: Option<T>,
) -> Result<SupportPoint<T, D>, QueryError>
where
    P: Difference<T, D>,
{
    let p = pair.support(n);
    crate::gjk::check_range(&p, limit)?;
    Ok(p)
}

/// The answer when the origin sits on the boundary of `A − B` (a touching contact): depth
/// 0 along `n`, at the support point `p`.
pub(crate) fn touching<T: Real, const D: usize>(
    p: &SupportPoint<T, D>,
    n: Unit<SVector<T, D>>,
    iterations: u32,
) -> Contact<T, D> {
    Contact {
        separation: T::zero(),
        normal: n,
        point_a: p.a,
        point_b: p.b,
        lower_bound: -(n.dot(&p.w).max(T::zero())),
        upper_bound: T::zero(),
        iterations,
        termination: Termination::Touching,
    }
}

/// The largest coordinate of the points on A and on B: the magnitude the support points
/// were computed at, so their rounding is [`Rounding`]'s of it.
pub(crate) fn coords<T: Real, const D: usize>(pts: &[SupportPoint<T, D>]) -> T {
    // Plain comparisons (`real::amax`): every point passed `gjk::check_range`.
    use crate::real::amax_from;
    pts.iter().fold(T::zero(), |m, p| {
        amax_from(amax_from(m, &p.a.coords), &p.b.coords)
    })
}

/// The power of two that brings the largest coordinate of the points of `A − B` near 1
/// ([`crate::linalg::pow2_scale`]: fixed-point below 1/2, floats outside `[2⁻³⁰, 2³⁰]`), so
/// that [`around_origin`]'s products keep their digits; exact.
fn w_scale<T: Real, const D: usize>(pts: &[SupportPoint<T, D>]) -> T {
    crate::linalg::pow2_scale(
        pts.iter()
            .fold(T::zero(), |m, p| crate::real::amax_from(m, &p.w)),
    )
}

/// [`around_origin`]'s measures of a simplex around the origin.
#[derive(Clone, Copy, Debug)]
struct Enclosure<T> {
    /// The origin's smallest barycentric coordinate (below 0: outside).
    min_barycentric: T,
    /// The volume measure `|det(yᵢ − y₀)|`.
    volume: T,
}

/// The barycentric coordinates' minimum and the volume measure `|det(yᵢ − y₀)|` of the
/// simplex `pts[idx]` (`D + 1` points) around the origin ([`Enclosure`]); `None` when it is flat — no
/// thicker than `thick`, the rounding of its vertices (its volume below
/// `thick ·` [`largest_facet`], its height over its largest facet; fixed-point made
/// identical capsules' segment difference a sliver) — or the origin is far outside.
/// The height over the largest facet, not over the one opposite the shortest edge: an
/// edge of rounding noise (two support points 3e-23 apart, f32, on a flat disc) points
/// anywhere, and the triangle it spans with a real edge looked thick.
///
/// The vertices are multiplied by the power of two `k` ([`w_scale`]; `thick` too, the
/// volume is that of the scaled simplex): the test compares products of degree `D + 1`,
/// which for a small `A − B` fall below one fixed-point ulp (a simplex 0.0036 across, 2D:
/// `2.3e-8` against `3.8e-11`, both 0 in FixedI40F24, so every simplex was flat and a
/// core overlapping by 0.0018 was answered touching).
fn around_origin<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    idx: &[usize],
    thick: T,
    k: T,
) -> Option<Enclosure<T>> {
    let thick = thick * k;
    let y0 = pts[idx[0]].w * k;
    let mut m = nalgebra::SMatrix::<T, D, D>::zeros();
    for (c, &i) in idx[1..].iter().enumerate() {
        m.set_column(c, &(pts[i].w * k - y0));
    }
    let solved = crate::linalg::solve_pivoted(m, -y0)?;
    let (mu, det) = (solved.x, solved.abs_det);
    let facet = largest_facet(&m);
    if !(facet > T::zero()) || det <= thick * facet {
        return None;
    }
    let rest = T::one() - mu.sum();
    Some(Enclosure {
        min_barycentric: mu.min().min(rest),
        volume: det,
    })
}

/// The measure of the largest facet of the simplex with edges `m`'s columns from one
/// vertex, in the units of `|det m|` per height (`(D − 1)!` times its area): `D = 2` the
/// longest of the three edges, `D = 3` the largest cross product of two edges of a face
/// (four faces). Other `D`: the longest edge from the first vertex to the power `D − 1`,
/// which overestimates it. The power bound was used for `D = 3` as well, and a needle
/// simplex around the origin (a point inside the hull of a ball of radius 0.0018 and a
/// point 1.7 away: faces 0.004 wide, 1.7 long, 0.002 thick) measured `3` where the faces
/// measured `0.004`, so FixedI40F24's rounding band made it flat and a core overlapping
/// by 0.0018 was answered touching (fuzz artifact of `manifold_3d`, docs/testing.md §3).
fn largest_facet<T: Real, const D: usize>(m: &nalgebra::SMatrix<T, D, D>) -> T {
    let col = |c: usize| -> SVector<T, D> { m.column(c).into_owned() };
    let cross = |u: &SVector<T, D>, v: &SVector<T, D>| {
        let c = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        crate::real::norm(&nalgebra::Vector3::from(c))
    };
    match D {
        2 => {
            let (e1, e2) = (col(0), col(1));
            crate::real::norm(&e1)
                .max(crate::real::norm(&e2))
                .max(crate::real::norm(&(e2 - e1)))
        }
        3 => {
            let (e1, e2, e3) = (col(0), col(1), col(2));
            cross(&e1, &e2)
                .max(cross(&e1, &e3))
                .max(cross(&e2, &e3))
                .max(cross(&(e2 - e1), &(e3 - e1)))
        }
        _ => {
            let longest = (0..D).fold(T::zero(), |l, c| l.max(crate::real::norm(&col(c))));
            (1..D).fold(T::one(), |f, _| f * longest)
        }
    }
}

/// What EPA starts from: `D + 1` support points around the origin (first in `pts`), or
/// already the answer when `A − B` is flat.
pub(crate) enum Seed<T: Real, const D: usize> {
    /// `pts[..D + 1]` is a simplex containing the origin; `iterations` supports were spent.
    Simplex { iterations: u32 },
    /// `A − B` has no volume: a touching contact.
    Flat(Contact<T, D>),
}

/// Prepares EPA's first simplex from GJK's (docs/epa.md §3.1). A full simplex containing
/// the origin is used as is. Otherwise (GJK stopped touching, on a segment, a triangle or a
/// vertex at the origin) the supports along ± every axis join the candidates and the
/// largest `D`-simplex among them that contains the origin (barycentric coordinates
/// `≥` minus their rounding, by the pivoted solve) is chosen. None with volume: `A − B` is flat,
/// the contact is touching along its normal. Algorithm:
/// 1. GJK's simplex full, with volume beyond the rounding and the origin inside
///    ([`around_origin`]): used as is, no support spent.
/// 2. The supports along ± every axis join the candidates (each new point once); the
///    lowest support value `n·w` probed is kept, an upper bound of the depth.
/// 3. The largest `D`-simplex around the origin among the candidates ([`largest_simplex`]):
///    the seed. Only one with volume but not around the origin: grown towards the origin
///    ([`grow`]), which ends around it or touching.
/// 4. None with volume: the supports along ± the normal of the candidates' span
///    ([`span_normal`]); no extent beyond the band either way: flat, touching ([`flat`]);
///    else they join the candidates and step 3 repeats, at most `D + 1` rounds.
/// 5. Every round found extent but no simplex with volume: touching ([`flat`]), with the
///    lowest support value `h` probed as its lower bound `−h` and normal, when lower.
pub(crate) fn seed<T: Real, const D: usize, P>(
    pair: &P,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    limit: Option<T>,
    pts: &mut Vec<SupportPoint<T, D>>,
) -> Result<Seed<T, D>, QueryError>
where
    Const<D>: Dim,
    P: Difference<T, D>,
{
    pts.clear();
    pts.extend(simplex.points().copied());
    let r = Rounding::of(tol);
    let inside = |m: T| m >= -r.barycentric(D);
    if pts.len() == D + 1 {
        let all: [usize; crate::MAX_DIM + 1] = core::array::from_fn(|i| i);
        if let Some(e) = around_origin(pts, &all[..D + 1], r.flat(coords(pts), D), w_scale(pts))
            && inside(e.min_barycentric)
            && e.volume > T::zero()
        {
            return Ok(Seed::Simplex { iterations: 0 });
        }
    }
    let mut iterations = 0;
    // The smallest support value `n·s(n)` probed: it bounds the depth above.
    let mut lowest: Option<(T, Unit<SVector<T, D>>)> = None;
    let mut probe = |n: Unit<SVector<T, D>>, w: &SupportPoint<T, D>| {
        let h = n.dot(&w.w);
        if lowest.is_none_or(|(l, _)| h < l) {
            lowest = Some((h, n));
        }
    };
    for k in 0..D {
        for sign in [T::one(), -T::one()] {
            let mut e = SVector::<T, D>::zeros();
            e[k] = sign;
            let w = support(pair, &e, limit)?;
            probe(Unit::new_unchecked(e), &w);
            iterations += 1;
            if !pts.iter().any(|p| p.w == w.w) {
                pts.push(w);
            }
        }
    }
    // The largest simplex around the origin among the candidates. None: the candidates
    // span less than D dimensions; probe along the normal of their span (GS) before calling
    // A − B flat: only if it has no extent either way is it (the axis supports can all fall
    // on one flat set, e.g. shapes sharing a centre). Each round adds a dimension.
    for _ in 0..=D {
        let (chosen, around) = match largest_simplex(pts, tol, true) {
            Some(c) => (Some(c), true),
            None => (largest_simplex(pts, tol, false), false),
        };
        if let Some(chosen) = chosen {
            let k = D + 1;
            // The chosen indices increase, so swapping each into place keeps the rest.
            for (slot, &i) in chosen[..k].iter().enumerate() {
                pts.swap(slot, i);
            }
            pts.truncate(k);
            if around {
                return Ok(Seed::Simplex { iterations });
            }
            // A simplex with volume, but the origin outside it: grow it towards the origin.
            return Ok(match grow(pair, pts, tol, limit, &mut iterations)? {
                Grown::Around => Seed::Simplex { iterations },
                Grown::Touching(n, p) => Seed::Flat(touching(&p, n, iterations)),
            });
        }
        let n = span_normal(pts, r.flat(coords(pts), D));
        let band = r.residual(coords(pts), D);
        let (up, down) = (
            support(pair, &n, limit)?,
            support(pair, &-n.into_inner(), limit)?,
        );
        iterations += 2;
        probe(n, &up);
        probe(-n, &down);
        let base = n.dot(&pts[0].w);
        if n.dot(&up.w) - base <= band && base - n.dot(&down.w) <= band {
            return Ok(Seed::Flat(flat(pair, simplex, tol, pts, iterations)));
        }
        for w in [up, down] {
            if !pts.iter().any(|p| p.w == w.w) {
                pts.push(w);
            }
        }
    }
    // Every round found extent, but no simplex with volume beyond the rounding: `A − B` is
    // thinner than the scalar resolves (FixedI40F24: the hull of a ball of radius 1e-4
    // and a point 1.7 away, whose simplices' determinants are 3e-8, below one ulp). Not
    // proven flat: the depth lies between 0 and the smallest support value probed. Still
    // `Touching` (the origin on or outside what EPA found; `query::contact` reconciles it
    // with GJK's pair), its upper bound beyond the band saying it was not proven.
    let mut p = flat(pair, simplex, tol, pts, iterations);
    if let Some((h, n)) = lowest
        && -h < p.lower_bound
    {
        (p.normal, p.lower_bound) = (n, -h);
    }
    Ok(Seed::Flat(p))
}

/// How [`grow`] ended.
enum Grown<T: Real, const D: usize> {
    /// `pts[..D + 1]` contains the origin.
    Around,
    /// `A − B` has no extent beyond a facet the origin is on: touching along its outward
    /// normal, at that support point.
    Touching(Unit<SVector<T, D>>, SupportPoint<T, D>),
}

/// Grows the simplex `pts[..D + 1]` (with volume) until it contains the origin. While a
/// barycentric coordinate `λⱼ` is below minus its rounding, the origin lies beyond the facet
/// opposite vertex `j`; vertex `j` is replaced by the support point along that facet's
/// outward normal (GJK's step; van den Bergen 1999). A support that does not pass the
/// origin by more than the touching band means the origin is on the boundary of `A − B`.
/// Needed when GJK stopped touching on an inner simplex whose candidates miss the origin.
fn grow<T: Real, const D: usize, P>(
    pair: &P,
    pts: &mut [SupportPoint<T, D>],
    tol: &Tolerances<T>,
    limit: Option<T>,
    iterations: &mut u32,
) -> Result<Grown<T, D>, QueryError>
where
    Const<D>: Dim,
    P: Difference<T, D>,
{
    let k = D + 1;
    let r = Rounding::of(tol);
    for _ in 0..crate::tolerance::factor::GROW_ROUNDS_PER_VERTEX * k {
        let band = r.residual(coords(&pts[..k]), D);
        let y0 = pts[0].w;
        let m = nalgebra::SMatrix::<T, D, D>::from_fn(|r, c| pts[c + 1].w[r] - y0[r]);
        let Some(crate::linalg::Solution { x: mu, .. }) = crate::linalg::solve_pivoted(m, -y0)
        else {
            break;
        };
        let (mut j, mut lj) = (0, T::one() - mu.sum());
        for (i, &l) in mu.iter().enumerate() {
            if l < lj {
                (j, lj) = (i + 1, l);
            }
        }
        if lj >= -r.barycentric(D) {
            return Ok(Grown::Around);
        }
        // The facet's normal away from vertex j: Gram–Schmidt of (y_j − base) against the
        // facet's edges, negated.
        let base = pts[(j + 1) % k].w;
        let mut edges: [SVector<T, D>; crate::MAX_DIM] = [SVector::zeros(); crate::MAX_DIM];
        let mut m_edges = 0;
        for (i, p) in pts[..k].iter().enumerate() {
            if i == j || i == (j + 1) % k {
                continue;
            }
            let mut e = p.w - base;
            for q in &edges[..m_edges] {
                e -= q * q.dot(&e);
            }
            if let Some(u) = normalize(&e) {
                edges[m_edges] = u.into_inner();
                m_edges += 1;
            }
        }
        let mut off = base - pts[j].w;
        for q in &edges[..m_edges] {
            off -= q * q.dot(&off);
        }
        let Some(n) = normalize(&off) else {
            break;
        };
        let w = support(pair, &n, limit)?;
        *iterations += 1;
        if n.dot(&w.w) <= band || pts[..k].iter().any(|p| p.w == w.w) {
            let facet = (0..k).filter(|&i| i != j);
            return Ok(Grown::Touching(n, nearest(pts, facet, tol)));
        }
        pts[j] = w;
    }
    // No progress within the budget (rounding): let the polytope's own check decide.
    Ok(Grown::Around)
}

/// The indices of the largest `D`-simplex among `pts`, around the origin if `around` (every
/// (D + 1)-subset: at most C(3D + 5, D + 1) with the probes; this path is rare).
fn largest_simplex<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    tol: &Tolerances<T>,
    around: bool,
) -> Option<[usize; crate::MAX_DIM + 1]> {
    let n = pts.len();
    let k = D + 1;
    if n < k {
        return None;
    }
    let mut idx = [0usize; crate::MAX_DIM + 1];
    for (i, slot) in idx.iter_mut().enumerate().take(k) {
        *slot = i;
    }
    let mut best: Option<([usize; crate::MAX_DIM + 1], T)> = None;
    let r = Rounding::of(tol);
    let (thick, scale) = (r.flat(coords(pts), D), w_scale(pts));
    loop {
        if let Some(e) = around_origin(pts, &idx[..k], thick, scale)
            && (!around || e.min_barycentric >= -r.barycentric(D))
            && e.volume > best.as_ref().map_or(T::zero(), |b| b.1)
        {
            best = Some((idx, e.volume));
        }
        // Next combination in lexicographic order.
        let Some(i) = (0..k).rev().find(|&i| idx[i] < n - k + i) else {
            break;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
    best.map(|b| b.0)
}

/// A unit normal of the affine span of `pts` (which spans less than `D` dimensions): the
/// axis with the largest component off the span (Gram–Schmidt on the edges from `pts[0]`).
/// An edge's part off the span so far counts only beyond `thick`, the vertices' rounding:
/// below it its direction is noise (f32: two support points 3e-23 apart on a flat disc
/// made the disc's own normal a direction of its span).
fn span_normal<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    thick: T,
) -> Unit<SVector<T, D>> {
    let eps = T::default_epsilon();
    let mut basis: [SVector<T, D>; crate::MAX_DIM] = [SVector::zeros(); crate::MAX_DIM];
    let mut m = 0;
    for p in pts.iter().skip(1) {
        let mut e = p.w - pts[0].w;
        let size = e.norm_squared();
        for q in &basis[..m] {
            e -= q * q.dot(&e);
        }
        if m < D
            && e.norm_squared() > eps * size
            && crate::real::norm(&e) > thick
            && let Some(u) = normalize(&e)
        {
            basis[m] = u.into_inner();
            m += 1;
        }
    }
    let mut normal = any_axis::<T, D>();
    let mut off = T::zero();
    for k in 0..D {
        let mut e = SVector::<T, D>::zeros();
        e[k] = T::one();
        for q in &basis[..m] {
            e -= q * q.dot(&e);
        }
        let len = crate::real::norm(&e);
        if len > off
            && let Some(u) = normalize(&e)
        {
            off = len;
            normal = u;
        }
    }
    normal
}

/// The touching contact of a flat `A − B` (the candidates span less than `D` dimensions
/// and the probes along their span's normal found no extent): the normal is that span
/// normal, oriented from A's centre towards B's; the witnesses are GJK's closest point.
fn flat<T: Real, const D: usize, P>(
    pair: &P,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    pts: &[SupportPoint<T, D>],
    iterations: u32,
) -> Contact<T, D>
where
    Const<D>: Dim,
    P: Difference<T, D>,
{
    let mut normal = span_normal(pts, Rounding::of(tol).flat(coords(pts), D));
    let c = pair.centres();
    if normal.dot(&(c.b - c.a)) < T::zero() {
        normal = -normal;
    }
    let p = match simplex.closest(&Rounding::of(tol)) {
        Some(c) => SupportPoint {
            w: c.v,
            a: c.a,
            b: c.b,
        },
        None => pts[0],
    };
    touching(&p, normal, iterations)
}

/// The point of the facet `pts[idx]` nearest the origin, with its witnesses (a touching
/// contact's points: `a − b` is that point, within the rounding of 0), or the facet's
/// first vertex if none is valid.
pub(crate) fn nearest<T: Real, const D: usize>(
    pts: &[SupportPoint<T, D>],
    idx: impl Iterator<Item = usize>,
    tol: &Tolerances<T>,
) -> SupportPoint<T, D>
where
    Const<D>: Dim,
{
    let mut facet = Simplex::new();
    let mut first = None;
    for i in idx {
        first = first.or(Some(pts[i]));
        facet.push(pts[i], None);
    }
    match facet.closest(&Rounding::of(tol)) {
        Some(c) => SupportPoint {
            w: c.v,
            a: c.a,
            b: c.b,
        },
        None => first.unwrap_or(pts[0]),
    }
}
