//! Per-iteration traces of GJK and EPA (docs/gjk.md §8–9, docs/epa.md §7).
//!
//! The loops call an [`Observer`] at fixed points: GJK after each support point, after each
//! simplex solve and when it stops; EPA on its first polytope, after each support point
//! and when it stops. The untraced queries pass `()`, whose hooks are empty and whose
//! [`Observer::ACTIVE`] is `false`: every call compiles to nothing (docs/gjk.md §8 has
//! the instruction counts). [`Trace`] records everything; the traced queries
//! ([`crate::query::distance_traced`], [`crate::query::intersection_traced`],
//! [`crate::query::contact_traced`]) take any observer.
//!
//! Frame: the one the algorithms run in — A's local frame for the [`crate::query`]
//! functions (B placed by `pose_a⁻¹ · pose_b`). Shapes: their cores (radii not added, as
//! GJK and EPA see them; [`crate::shape::SupportMap::radius`]).
//!
//! ```
//! use convex_proximity::{Termination, Tolerances, query, shape::Polytope, trace::Trace};
//! use nalgebra::{Isometry2, Point2};
//! let tri = Polytope::try_new(vec![Point2::new(0.0f64, 0.0), Point2::new(1.0, 0.0), Point2::new(0.0, 1.0)]).unwrap();
//! let (pa, pb) = (Isometry2::identity(), Isometry2::translation(2.0, 0.5));
//! let mut trace = Trace::new();
//! let d = query::distance_traced(&pa, &tri, &pb, &tri, &Tolerances::default(), &mut trace).unwrap();
//! let end = trace.gjk_end.unwrap();
//! assert_eq!((end.iterations, end.termination), (d.iterations, d.termination));
//! assert_eq!(trace.gjk.len() as u32, d.iterations);
//! // The lower bound never decreases; the upper bound never increases once the simplex
//! // has a vertex (the first support point can lie farther than the start point).
//! assert!(trace.gjk[1..].windows(2).all(|s| s[1].support.upper <= s[0].support.upper));
//! assert!(trace.gjk.windows(2).all(|s| s[1].support.lower >= s[0].support.lower));
//! ```

use crate::{
    Real, Termination,
    dim::Dim,
    epa::Contact,
    gjk::{Simplex, SupportPoint},
};
use alloc::vec::Vec;
use nalgebra::{Const, Point, SVector, Unit};

/// What GJK and EPA report while they run. Every hook has an empty default: implement the
/// ones you need. `()` implements it with nothing at all (the untraced queries).
pub trait Observer<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    /// Whether the hooks record anything. The loops build a hook's argument only when
    /// `true`, so an observer with `false` costs nothing (`()`).
    const ACTIVE: bool = true;

    /// A GJK run begins (before its start point; for coincident centres the start is the
    /// vertex `s(−e₀)`, the first solve's simplex holds it, and no support record has it).
    #[inline]
    fn gjk_start(&mut self) {}

    /// GJK evaluated a support point and updated its lower bound (docs/gjk.md §3, steps
    /// 1–2), before its stop tests.
    #[inline]
    fn gjk_support(&mut self, _support: &GjkSupport<T, D>) {}

    /// GJK added the support point to its simplex and solved it (step 5).
    #[inline]
    fn gjk_solve(&mut self, _solve: &GjkSolve<T, D>) {}

    /// GJK stopped (every exit but an error).
    #[inline]
    fn gjk_end(&mut self, _end: &GjkEnd<T, D>) {}

    /// EPA's first polytope, expanded next (not called when the seed already answers:
    /// a flat `A − B`).
    #[inline]
    fn epa_start(&mut self, _start: &EpaStart<'_, T, D>) {}

    /// EPA evaluated the support point beyond its closest feature (docs/epa.md §2, §3.2),
    /// before its stop tests and the expansion.
    #[inline]
    fn epa_step(&mut self, _step: &EpaStep<'_, T, D>) {}

    /// EPA stopped with this answer (on the cores, in the run's frame).
    #[inline]
    fn epa_end(&mut self, _end: &Contact<T, D>) {}
}

/// No trace: every hook is empty and the loops skip building their arguments.
impl<T: Real, const D: usize> Observer<T, D> for ()
where
    Const<D>: Dim,
{
    const ACTIVE: bool = false;
}

/// One support evaluation of GJK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkSupport<T: Real, const D: usize> {
    /// The iteration, from 1 (the [`crate::Distance::iterations`] count).
    pub iteration: u32,
    /// The search direction `v`: `point` is the support point of `A − B` along `−v`
    /// (`a = s_A(−v)`, `b = s_B(v)`).
    pub dir: SVector<T, D>,
    /// The support point.
    pub point: SupportPoint<T, D>,
    /// The run's lower bound after this point: the largest separating-plane bound
    /// `v·w/‖v‖` so far (van den Bergen 1999 §4.1), clamped at 0.
    pub lower: T,
    /// The run's upper bound: `‖v‖` of the estimate the stop tests compare `lower` with.
    pub upper: T,
}

/// One simplex solve of GJK: what the subalgorithm kept.
#[derive(Clone, Copy, Debug)]
pub struct GjkSolve<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    /// The simplex after the solve: the sub-simplex that holds its closest point.
    pub simplex: Simplex<T, D>,
    /// That closest point: the new estimate `v` (the run keeps the previous one instead if
    /// `‖v‖` did not decrease: [`Termination::NoProgress`]).
    pub v: SVector<T, D>,
    /// A vector along `v`, the next search direction (the solver's face or line normal in
    /// fixed-point; `v` itself for floats).
    pub dir: SVector<T, D>,
    /// `‖v‖`.
    pub norm: T,
    /// Which part of the subalgorithm decided.
    pub solver: Solver,
}

/// Which part of GJK's subalgorithm decided a solve (docs/gjk.md §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Solver {
    /// One vertex: its own closest point, no solve.
    Vertex,
    /// Signed volumes (`D ≤ 3`, §2.1), certified by the optimality condition (§2.3).
    SignedVolumes,
    /// Johnson's subalgorithm (§2.2), certified by the optimality condition.
    Johnson,
    /// The full simplex, decided by the backward-stable pivoted solve: the origin is
    /// inside (§2.5).
    InsideSolve,
    /// The fallback: the exhaustive search over every sub-simplex's projection, when the
    /// fast answer failed its certificate (§2.3).
    Projection,
}

/// How a GJK run ended (on the cores, in the run's frame): the [`crate::Distance`] before
/// the radii, the poses and the rounding band are applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GjkEnd<T: Real, const D: usize> {
    /// The final estimate: the point of the cores' `A − B` nearest the origin found.
    pub v: SVector<T, D>,
    /// Its witness on A (an intersection test leaves the origin here once the simplex has
    /// two vertices: it does not compute witnesses).
    pub a: Point<T, D>,
    /// Its witness on B.
    pub b: Point<T, D>,
    /// The proven lower bound of the cores' distance (before the band).
    pub lower: T,
    /// `‖v‖`, the upper bound.
    pub upper: T,
    /// The rounding band of the run's arithmetic ([`crate::Distance`]'s bounds are
    /// widened by it).
    pub band: T,
    /// Support evaluations.
    pub iterations: u32,
    /// Why GJK stopped.
    pub termination: Termination,
}

/// EPA's first polytope.
#[derive(Clone, Copy, Debug)]
pub struct EpaStart<'s, T: Real, const D: usize> {
    /// Its vertices (2D: the polygon, counter-clockwise; 3D: the tetrahedron).
    pub vertices: &'s [SupportPoint<T, D>],
    /// The support evaluations the seed spent (docs/epa.md §3.1).
    pub iterations: u32,
}

/// One expansion step of EPA, its polytope's vertices held as `V`: borrowed in the hook
/// ([`EpaStep`]), copied in the record ([`EpaIteration`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpaExpansion<V, T: Real, const D: usize> {
    /// EPA's support evaluations so far, this one included.
    pub iteration: u32,
    /// The polytope's vertices before this step's expansion (2D: the polygon,
    /// counter-clockwise; 3D: every vertex added so far, some of them no longer on a live
    /// face).
    pub vertices: V,
    /// The polytope's faces (2D: edges) before the expansion.
    pub faces: usize,
    /// The closest feature, the face (2D: edge) expanded: its vertices' indices into
    /// `vertices`, in its order (2D: `p → q`, counter-clockwise; 3D: the triangle,
    /// counter-clockwise seen from outside).
    pub feature: [usize; D],
    /// Its outward unit normal.
    pub normal: Unit<SVector<T, D>>,
    /// The signed distance of its plane from the origin.
    pub distance: T,
    /// The support point along `normal`.
    pub support: SupportPoint<T, D>,
    /// The lower bound on the depth the stop test used: `distance`, clamped at 0.
    pub lower: T,
    /// The upper bound: the smallest support value `n·s(n)` seen so far.
    pub upper: T,
}

/// One expansion step of EPA, as the [`Observer::epa_step`] hook sees it.
pub type EpaStep<'s, T, const D: usize> = EpaExpansion<&'s [SupportPoint<T, D>], T, D>;

/// One EPA step, recorded: [`EpaStep`] with the vertices copied.
pub type EpaIteration<T, const D: usize> = EpaExpansion<Vec<SupportPoint<T, D>>, T, D>;

impl<T: Real, const D: usize> EpaStep<'_, T, D> {
    /// The step with its vertices copied.
    #[must_use]
    pub fn to_record(&self) -> EpaIteration<T, D> {
        EpaExpansion {
            iteration: self.iteration,
            vertices: self.vertices.to_vec(),
            faces: self.faces,
            feature: self.feature,
            normal: self.normal,
            distance: self.distance,
            support: self.support,
            lower: self.lower,
            upper: self.upper,
        }
    }
}

/// A recorder of every hook: the GJK and EPA iterations of one query.
///
/// [`Observer::gjk_start`] clears it (a query's trace begins with GJK), so one `Trace`
/// passed to query after query holds the last one's run, and keeps its memory.
/// [`Observer::epa_start`] clears the EPA part only.
#[derive(Clone, Debug)]
pub struct Trace<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    /// GJK's iterations, in order (one per support evaluation).
    pub gjk: Vec<GjkStep<T, D>>,
    /// How GJK ended (`None` until it has, or after an error).
    pub gjk_end: Option<GjkEnd<T, D>>,
    /// EPA's first polytope (`None` if EPA did not expand: not run, or a flat `A − B`).
    pub epa_start: Option<EpaPolytope<T, D>>,
    /// EPA's expansion steps, in order.
    pub epa: Vec<EpaIteration<T, D>>,
    /// EPA's answer on the cores (`None` if EPA did not run).
    pub epa_end: Option<Contact<T, D>>,
}

/// One GJK iteration: the support point, then the solve (`None` when a stop test ended
/// the run before it: converged, repeated support, separating axis).
#[derive(Clone, Copy, Debug)]
pub struct GjkStep<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    /// The support evaluation and the bounds the stop tests saw.
    pub support: GjkSupport<T, D>,
    /// The simplex solve that followed.
    pub solve: Option<GjkSolve<T, D>>,
}

/// EPA's first polytope, recorded ([`EpaStart`]).
#[derive(Clone, Debug, PartialEq)]
pub struct EpaPolytope<T: Real, const D: usize> {
    /// Its vertices.
    pub vertices: Vec<SupportPoint<T, D>>,
    /// The support evaluations the seed spent.
    pub iterations: u32,
}

impl<T: Real, const D: usize> Default for Trace<T, D>
where
    Const<D>: Dim,
{
    fn default() -> Self {
        Self {
            gjk: Vec::new(),
            gjk_end: None,
            epa_start: None,
            epa: Vec::new(),
            epa_end: None,
        }
    }
}

impl<T: Real, const D: usize> Trace<T, D>
where
    Const<D>: Dim,
{
    /// An empty trace.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every record, keeping the memory.
    pub fn clear(&mut self) {
        self.gjk.clear();
        self.gjk_end = None;
        self.clear_epa();
    }

    fn clear_epa(&mut self) {
        self.epa_start = None;
        self.epa.clear();
        self.epa_end = None;
    }
}

impl<T: Real, const D: usize> Observer<T, D> for Trace<T, D>
where
    Const<D>: Dim,
{
    fn gjk_start(&mut self) {
        self.clear();
    }

    fn gjk_support(&mut self, support: &GjkSupport<T, D>) {
        self.gjk.push(GjkStep {
            support: *support,
            solve: None,
        });
    }

    fn gjk_solve(&mut self, solve: &GjkSolve<T, D>) {
        if let Some(step) = self.gjk.last_mut() {
            step.solve = Some(*solve);
        }
    }

    fn gjk_end(&mut self, end: &GjkEnd<T, D>) {
        self.gjk_end = Some(*end);
    }

    fn epa_start(&mut self, start: &EpaStart<'_, T, D>) {
        self.clear_epa();
        self.epa_start = Some(EpaPolytope {
            vertices: start.vertices.to_vec(),
            iterations: start.iterations,
        });
    }

    fn epa_step(&mut self, step: &EpaStep<'_, T, D>) {
        self.epa.push(step.to_record());
    }

    fn epa_end(&mut self, end: &Contact<T, D>) {
        self.epa_end = Some(*end);
    }
}
