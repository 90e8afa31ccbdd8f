//! EPA: penetration depth, normal and witness points of overlapping shapes, from GJK's
//! final simplex (van den Bergen 2001, SOLID 3's `penDepth`, seeds 000 and 002;
//! docs/epa.md).
//!
//! One entry point, specialised by dimension through the sealed trait [`ContactDim`]:
//! 2D expands a polygon ([`polygon2`]), 3D a polytope of triangles in a binary heap with
//! adjacency links ([`polytope3`]). Calling it in another dimension does not compile.
//!
//! Like GJK it works on the shapes' cores; [`crate::query::contact`] adds the radii.

mod polygon2;
mod polytope3;

use crate::{
    QueryError, Real, Termination, Tolerances,
    dim::Dim,
    gjk::{Simplex, SupportPoint},
    shape::SupportMap,
};
use nalgebra::{Const, Point, SVector, Unit};

/// The penetration of two overlapping (cores of) shapes in a common frame.
///
/// Moving B by `depth` along `normal` makes the shapes touch; `point_a` and `point_b` are
/// the touching points then (before the move, `point_a − point_b = depth · normal`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<T: Real, const D: usize> {
    /// The penetration depth (≥ 0), within `[lower_bound, upper_bound]`.
    pub depth: T,
    /// The unit direction from A to B along which B moves out.
    pub normal: Unit<SVector<T, D>>,
    /// The deepest point of A (on A's boundary along `normal`).
    pub point_a: Point<T, D>,
    /// The deepest point of B (on B's boundary along `-normal`).
    pub point_b: Point<T, D>,
    /// A proven lower bound of the depth: the expanding polytope's distance to the origin.
    pub lower_bound: T,
    /// A proven upper bound of the depth: the smallest support value `n·s(n)` seen.
    pub upper_bound: T,
    /// Support evaluations.
    pub iterations: u32,
    /// Why EPA stopped.
    pub termination: Termination,
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for nalgebra::Const<2> {}
    impl Sealed for nalgebra::Const<3> {}
}

/// The dimensions with penetration depth and contacts: `Const<2>` and `Const<3>` (sealed).
pub trait ContactDim<T: Real, const D: usize>: Dim + sealed::Sealed {
    /// The reusable storage of one dimension's EPA.
    #[doc(hidden)]
    type Storage: Default + Clone + core::fmt::Debug;

    /// EPA in this dimension; see [`penetration`].
    #[doc(hidden)]
    fn penetration<A, B>(
        a: &A,
        b: &B,
        simplex: &Simplex<T, D>,
        tol: &Tolerances<T>,
        storage: &mut Self::Storage,
    ) -> Result<Penetration<T, D>, QueryError>
    where
        Const<D>: Dim,
        A: SupportMap<T, D> + ?Sized,
        B: SupportMap<T, D> + ?Sized;

    /// The side planes `(s, d, k)` (inside: `s·x ≤ d`) of a reference face with outward
    /// normal `normal`: 2D an edge's two ends, 3D a polygon's edges (docs/clipping.md §2).
    #[doc(hidden)]
    fn side_planes(
        face: &[(Point<T, D>, u32)],
        normal: &SVector<T, D>,
        out: &mut Vec<(SVector<T, D>, T, u32)>,
    );

    /// Keeps at most 2 (2D) or 4 (3D) of the clipped points `(separation, point, id)`:
    /// the deepest first, then the ones spanning the largest area.
    #[doc(hidden)]
    fn reduce(points: &mut Vec<(T, Point<T, D>, u32)>, normal: &SVector<T, D>);
}

/// The index of the deepest point (smallest separation).
pub(crate) fn deepest<T: Real, const D: usize>(points: &[(T, Point<T, D>, u32)]) -> usize {
    let mut best = 0;
    for (i, p) in points.iter().enumerate() {
        if p.0 < points[best].0 {
            best = i;
        }
    }
    best
}

/// The index of the point farthest from `from`.
pub(crate) fn farthest<T: Real, const D: usize>(
    points: &[(T, Point<T, D>, u32)],
    from: &Point<T, D>,
) -> usize {
    let mut best = 0;
    let mut bd = T::zero();
    for (i, p) in points.iter().enumerate() {
        let d = (p.1 - from).norm_squared();
        if d > bd {
            best = i;
            bd = d;
        }
    }
    best
}

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

impl<T: Real, const D: usize> Workspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    /// An empty workspace.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl<T: Real, const D: usize> core::fmt::Debug for Workspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Workspace").finish_non_exhaustive()
    }
}

/// The penetration depth of the cores of `a` and `b` (one common frame), expanding GJK's
/// final `simplex` (any simplex GJK returns for overlapping shapes: 1 to `D + 1` vertices;
/// an empty one makes EPA run GJK first).
///
/// # Errors
/// [`QueryError::NonFiniteSupport`] / [`QueryError::OutOfRange`] for support points that
/// are not finite or too large for the scalar, [`QueryError::InvalidTolerance`].
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
/// assert!((p.depth - 0.5f64).abs() < 1e-12 && (p.normal.x - 1.0).abs() < 1e-12);
/// ```
pub fn penetration<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    workspace: &mut Workspace<T, D>,
) -> Result<Penetration<T, D>, QueryError>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    tol.validate()?;
    if simplex.is_empty() {
        // No simplex given: GJK builds one. Two coincident points leave none: touching.
        let mut own = Simplex::new();
        crate::gjk::Run::new(a, b, tol, &mut own, crate::gjk::Mode::Distance).go()?;
        if own.is_empty() {
            let p = SupportPoint::new(a.center(), b.center());
            return Ok(touching(&p, any_axis(), 0));
        }
        return <Const<D> as ContactDim<T, D>>::penetration(
            a,
            b,
            &own,
            tol,
            &mut workspace.storage,
        );
    }
    <Const<D> as ContactDim<T, D>>::penetration(a, b, simplex, tol, &mut workspace.storage)
}

/// The support point of the cores' `A − B` in direction `n`, checked.
#[inline]
pub(crate) fn support<T: Real, const D: usize, A, B>(
    a: &A,
    b: &B,
    n: &SVector<T, D>,
    limit: Option<T>,
) -> Result<SupportPoint<T, D>, QueryError>
where
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    let p = SupportPoint::new(a.core_support(n), b.core_support(&-n));
    crate::gjk::check_range(&p, limit)?;
    Ok(p)
}

/// The answer when the origin sits on the boundary of `A − B` (a touching contact): depth
/// 0 along `n`, at the support point `p`.
pub(crate) fn touching<T: Real, const D: usize>(
    p: &SupportPoint<T, D>,
    n: Unit<SVector<T, D>>,
    iterations: u32,
) -> Penetration<T, D> {
    Penetration {
        depth: T::zero(),
        normal: n,
        point_a: p.a,
        point_b: p.b,
        lower_bound: T::zero(),
        upper_bound: n.dot(&p.w).max(T::zero()),
        iterations,
        termination: Termination::Touching,
    }
}

/// A unit direction to fall back on when the geometry gives none: the first axis.
pub(crate) fn any_axis<T: Real, const D: usize>() -> Unit<SVector<T, D>> {
    let mut e = SVector::<T, D>::zeros();
    e[0] = T::one();
    Unit::new_unchecked(e)
}
