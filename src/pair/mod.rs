//! Pair-specific fast paths: separating-axis tests and closed forms for pairs of
//! primitives ([`SupportMap::primitive`]: balls, cuboids, capsules), used by
//! [`crate::query::distance`], [`crate::query::intersects`] and [`crate::query::contact`]
//! before the general GJK/EPA path (docs/pairs.md).
//!
//! - two cuboids, and a cuboid with a capsule (its core segment is a box with one
//!   non-zero half-extent): the separating-axis test (4 axes in 2D, 15 in 3D), a witness
//!   pair along its best axis, the penetration depth as its smallest overlap ([`boxes`]);
//! - a ball with a cuboid: the clamp of the centre; two balls, a ball with a capsule, two
//!   capsules: the closest points of their cores (points, segments) ([`round`]).
//!
//! Every answer is certified the way GJK certifies its own: a pair of points on the two
//! cores gives the upper bound, a separating plane (or, for overlaps, the complete set of
//! separating axes) the lower bound, and the verdicts follow from those bounds beyond the
//! rounding band exactly as in [`crate::gjk`]. Where a closed form cannot certify its
//! answer (features it does not settle, cores that overlap where only EPA knows the
//! depth), where its numerics are not the proven ones (fixed-point, `D ∉ {2, 3}`), or for
//! [`Tolerances`] it does not honour, it answers `None` and the general path runs.
//!
//! Iterations: a fast answer reports 1 (one evaluation of the closed form) and
//! [`Termination::Converged`].

mod boxes;
pub(crate) use boxes::{EdgeAxis, cofactors, edge_cross};
mod round;

use crate::{
    Distance, Real, Subalgorithm, Termination, Tolerances,
    gjk::rounded_distance,
    pose::{Frame, PoseRotation},
    query::{self, Contact, PosedPair},
    shape::{Primitive, SupportMap},
    tolerance::range,
    trace::GjkEnd,
};
use nalgebra::{Isometry, Point, SVector, Unit};

/// What the caller needs from a solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Want {
    /// Only whether the cores are farther apart than `margin` (the radii).
    Verdict,
    /// The distance: a closest pair when apart, a common point when the cores overlap.
    Distance,
    /// The signed distance: a closest pair when apart, the penetration witnesses on the
    /// cores' boundaries when they overlap.
    Contact,
}

/// A solver's answer on the cores (shapes shrunk by their radii), in one frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Answer<T: Real, const D: usize> {
    /// The signed core separation: the distance when apart (`> 0`), `−depth` when the cores
    /// overlap. [`Want::Verdict`] answers may leave it at the lower bound.
    pub sep: T,
    /// A proven lower bound of the signed core separation (before the rounding band).
    pub lower: T,
    /// A proven upper bound of the signed core separation (before the rounding band).
    pub upper: T,
    /// The unit normal from the first core to the second.
    pub normal: SVector<T, D>,
    /// On the first core: the closest point (apart), the penetration witness
    /// ([`Want::Contact`]) or a common point ([`Want::Distance`]).
    pub a: Point<T, D>,
    /// The same on the second core.
    pub b: Point<T, D>,
    /// The rounding band of the solver's arithmetic ([`Rounding::band`] of `coords`).
    pub band: T,
    /// The magnitude of the coordinates computed with.
    pub coords: T,
}

impl<T: Real, const D: usize> Answer<T, D> {
    /// An answer on an unused pair of points (verdicts only).
    pub(crate) fn verdict(lower: T, band: T, coords: T) -> Self {
        Self {
            sep: lower,
            lower,
            upper: T::max_value().unwrap_or(T::one()),
            normal: SVector::zeros(),
            a: Point::origin(),
            b: Point::origin(),
            band,
            coords,
        }
    }

    /// Cores apart: `a` and `b` at distance `dist` (the upper bound), the unit `normal`
    /// from `a` to `b`, its separating plane's bound `lower`; to be [`Self::accepted`].
    pub(crate) fn apart(
        a: Point<T, D>,
        b: Point<T, D>,
        dist: T,
        normal: SVector<T, D>,
        lower: T,
        band: T,
        coords: T,
    ) -> Self {
        Self {
            sep: dist,
            lower,
            upper: dist,
            normal,
            a,
            b,
            band,
            coords,
        }
    }

    /// This answer when its bounds meet within the band or the relative gap `rel` (GJK's
    /// stopping test, docs/gjk.md §6), else `None` (a NaN gap included).
    pub(crate) fn accepted(self, rel: T) -> Option<Self> {
        let gap = self.upper - self.lower;
        (gap <= self.band || gap <= rel * self.upper).then_some(self)
    }

    /// The answer computed in `pose`'s frame, in the world frame; when `swap`, its two
    /// shapes exchanged (the normal reversed). A verdict has no points or normal to map
    /// (its bounds are the same in every frame): unchanged. Always inlined (3D boxes: out
    /// of line, 135 instructions a call, the answer taken by value).
    #[inline(always)]
    fn posed<R: PoseRotation<T, D>>(
        mut self,
        pose: &Isometry<T, R, D>,
        swap: bool,
        want: Want,
    ) -> Self {
        if want == Want::Verdict {
            return self;
        }
        self.a = pose.transform_point(&self.a);
        self.b = pose.transform_point(&self.b);
        self.normal = pose.rotation.transform_vector(&self.normal);
        self.swapped(swap)
    }

    /// A ball–box answer ([`round::point_box`], in the box's `frame`) in the world frame, the
    /// ball's centre `centre` as given: the normal mapped by the frame, the ball's point its
    /// centre, the box's point `centre − n·s` (`s` the separation, or 0 for a
    /// [`Want::Distance`] overlap whose common point is the centre). The box's point is
    /// `c − n·s` in the box's frame, so this is its image up to rounding; one product by the
    /// matrix instead of three. Always inlined, as [`Answer::posed`].
    #[inline(always)]
    fn centred(
        mut self,
        frame: &Frame<T, D>,
        centre: &Point<T, D>,
        swap: bool,
        want: Want,
    ) -> Self {
        if want == Want::Verdict {
            return self;
        }
        let n = frame.transform_vector(&self.normal);
        let s = if want == Want::Distance && !(self.sep > T::zero()) {
            T::zero()
        } else {
            self.sep
        };
        self.a = centre - n * s;
        self.b = *centre;
        self.normal = n;
        self.swapped(swap)
    }

    /// When `swap`, the two shapes exchanged (the normal reversed).
    fn swapped(mut self, swap: bool) -> Self {
        if swap {
            core::mem::swap(&mut self.a, &mut self.b);
            self.normal = -self.normal;
        }
        self
    }

    /// The answer computed about the origin `o` (world axes), in the world frame (a verdict
    /// unchanged, as in [`Answer::posed`]).
    fn shifted(mut self, o: &SVector<T, D>, want: Want) -> Self {
        if want == Want::Verdict {
            return self;
        }
        self.a += o;
        self.b += o;
        self
    }
}

/// `d` with its components along `dirs` removed (Gram–Schmidt; directions dependent on
/// the earlier ones to 16 ulps are skipped), unit; `None` when nothing is left. The
/// closest direction of two convex sets is orthogonal to the faces or edges the closest
/// points lie inside; `q − p` itself is off by its rounding over the distance, which at
/// short distances moves the support of such a face or edge by more than the band.
pub(crate) fn orthogonal<T: Real, const D: usize>(
    d: &SVector<T, D>,
    dirs: &[SVector<T, D>],
) -> Option<SVector<T, D>> {
    let mut basis = [SVector::<T, D>::zeros(); 3];
    let mut nb = 0;
    let tiny = crate::tolerance::ulps::<T>(crate::tolerance::allowance::UNIT_COMPONENT);
    for f in dirs {
        let mut r = *f;
        for u in &basis[..nb] {
            r -= u * u.dot(f);
        }
        let len = crate::norm(&r);
        if len > tiny * crate::norm(f) && nb < D.min(3) {
            basis[nb] = r / len;
            nb += 1;
        }
    }
    let mut n = *d;
    for u in &basis[..nb] {
        n -= u * u.dot(&n);
    }
    let len = crate::norm(&n);
    (len > T::zero() && len.is_finite() && n.dot(d) > T::zero()).then(|| n / len)
}

/// A primitive's radius (0 for a box).
fn radius<T: Real, const D: usize>(p: &Primitive<T, D>) -> T {
    match *p {
        Primitive::Ball { radius } | Primitive::Capsule { radius, .. } => radius,
        Primitive::Cuboid { .. } => T::zero(),
    }
}

/// A primitive's parameters as [`PosedPair::admit`] reads them: what its shape's `validate` checks,
/// without a branch per number. An invalid one takes the general path, which reports the
/// error.
struct Parameters<T> {
    /// The sum of `x − x` over them: 0 when all are finite, NaN otherwise
    /// ([`crate::real::all_finite`]'s test), summed with the other inputs' before one
    /// comparison.
    finiteness: T,
    /// Whether its radius and half-extents are not negative (plain comparisons: a NaN
    /// passes here and fails [`Self::finiteness`]).
    non_negative: bool,
}

/// [`Parameters`] of a primitive.
#[allow(clippy::eq_op, reason = "x − x is the finiteness test")]
#[inline(always)]
fn parameters<T: Real, const D: usize>(p: &Primitive<T, D>) -> Parameters<T> {
    let f = |x: T| x - x;
    let sum = |v: &SVector<T, D>| v.iter().fold(T::zero(), |s, &x| s + f(x));
    let (finiteness, non_negative) = match p {
        Primitive::Ball { radius } => (f(*radius), !(*radius < T::zero())),
        Primitive::Cuboid { half_extents: h } => {
            (sum(h), h.iter().fold(true, |ok, &x| ok & !(x < T::zero())))
        }
        Primitive::Capsule { a, b, radius } => (
            f(*radius) + sum(&a.coords) + sum(&b.coords),
            !(*radius < T::zero()),
        ),
    };
    Parameters {
        finiteness,
        non_negative,
    }
}

/// Whether a primitive's parameters are finite, and its radius and half-extents
/// non-negative, one by one (what its shape's `validate` checks): [`PosedPair::admit`]'s debug check of
/// [`parameters`].
fn valid<T: Real, const D: usize>(p: &Primitive<T, D>) -> bool {
    let ok = |x: T| x >= T::zero() && crate::real::finite(x);
    match p {
        Primitive::Ball { radius } => ok(*radius),
        Primitive::Cuboid { half_extents } => half_extents.iter().all(|h| ok(*h)),
        Primitive::Capsule { a, b, radius } => {
            ok(*radius) && crate::real::all_finite(&a.coords) && crate::real::all_finite(&b.coords)
        }
    }
}

/// Whether coordinates of magnitude `m` keep the closed forms' squares in range: `m²`
/// finite (else the general path reports [`crate::QueryError::OutOfRange`]) and, unless
/// every coordinate is 0, `(ε·m)²` a normal number, so that a gap beyond the rounding
/// band does not square to zero (floats only: fixed-point never gets here).
fn in_range<T: Real>(m: T) -> bool {
    // √(smallest normal) / ε: f32 9.2e-13, f64 6.7e-139.
    let eps = T::default_epsilon();
    let lo = if eps > crate::real::lit(range::COARSE_EPSILON) {
        range::SQUARE_FLOOR_F32
    } else {
        range::SQUARE_FLOOR_F64
    };
    (m * m).is_finite() && (m == T::zero() || m >= crate::real::lit(lo))
}

/// Whether the closed forms stand in for the general path under `tol`: the default
/// subalgorithm, criterion and search direction (another one is a request to
/// study GJK itself), and caps that
/// let GJK and EPA converge on these pairs (boxes take about 10 support points; below
/// `tolerance::factor::CLOSED_FORM_MIN_ITERATIONS` the general path runs, so that a cap
/// binds as documented).
#[inline]
fn honours<T: Real>(tol: &Tolerances<T>) -> bool {
    tol.gjk_subalgorithm == Subalgorithm::Auto
        && crate::gjk::is_plain(tol)
        && tol.gjk_max_iterations >= crate::tolerance::factor::CLOSED_FORM_MIN_ITERATIONS
        && tol.epa_max_iterations >= crate::tolerance::factor::CLOSED_FORM_MIN_ITERATIONS
}

/// An admitted pair: both primitives and their radii (read once: every step after
/// admission needs them).
struct Admitted<T: Real, const D: usize> {
    pa: Primitive<T, D>,
    pb: Primitive<T, D>,
    ra: T,
    rb: T,
}

/// An admitted pose's matrix and translation ([`PosedPair::admit`] has checked it): a box's frame
/// for a ball's centre in and the answer out, one matrix instead of a quaternion rotation
/// per vector.
#[inline(always)]
fn frame<T: Real, R: PoseRotation<T, D>, const D: usize>(pose: &Isometry<T, R, D>) -> Frame<T, D> {
    Frame {
        rot: pose.rotation.to_matrix(),
        t: pose.translation.vector,
    }
}

/// The solver for the pair, its answer in the world frame. Boxes work in a box's frame
/// (the other shape placed by `pose⁻¹·pose'`), round shapes in world axes about A's
/// centre (no rotation at all: their cores are points and segments).
#[inline(always)]
fn solve<T, R, const D: usize>(
    pair: &Admitted<T, D>,
    pose_a: &Isometry<T, R, D>,
    pose_b: &Isometry<T, R, D>,
    tol: &Tolerances<T>,
    want: Want,
) -> Option<Answer<T, D>>
where
    T: Real,
    R: PoseRotation<T, D>,
{
    let (pa, pb) = (&pair.pa, &pair.pb);
    let margin = pair.ra + pair.rb;
    let o = pose_a.translation.vector;
    // Round cores about A's centre: B's points moved by t_b − t_a.
    let ob = pose_b.translation.vector - o;
    let in_a = |p: &Point<T, D>| Point::from(pose_a.rotation.transform_vector(&p.coords));
    let in_b = |p: &Point<T, D>| Point::from(pose_b.rotation.transform_vector(&p.coords) + ob);
    let ans = match (pa, pb) {
        (Primitive::Cuboid { half_extents: ha }, Primitive::Cuboid { half_extents: hb }) => {
            let rel = pose_a.inv_mul(pose_b);
            let (rot, t) = (rel.rotation.to_matrix(), rel.translation.vector);
            boxes::Boxes::new(*ha, *hb, rot, t, tol)
                .solve(want, margin)?
                .posed(pose_a, false, want)
        }
        (Primitive::Cuboid { half_extents: h }, Primitive::Capsule { a, b, .. }) => {
            let rel = pose_a.inv_mul(pose_b);
            let sb = boxes::segment_box(&rel.transform_point(a), &rel.transform_point(b));
            boxes::Boxes::new(*h, sb.half_extents, sb.rot, sb.centre, tol)
                .solve(want, margin)?
                .posed(pose_a, false, want)
        }
        (Primitive::Capsule { a, b, .. }, Primitive::Cuboid { half_extents: h }) => {
            let rel = pose_b.inv_mul(pose_a);
            let sb = boxes::segment_box(&rel.transform_point(a), &rel.transform_point(b));
            boxes::Boxes::new(*h, sb.half_extents, sb.rot, sb.centre, tol)
                .solve(want, margin)?
                .posed(pose_b, true, want)
        }
        (Primitive::Cuboid { half_extents: h }, Primitive::Ball { .. }) => {
            let f = frame(pose_a);
            let c = Point::from(f.inverse_transform_vector(&ob));
            let centre = Point::from(pose_b.translation.vector);
            round::point_box(h, &c, tol, want)?.centred(&f, &centre, false, want)
        }
        (Primitive::Ball { .. }, Primitive::Cuboid { half_extents: h }) => {
            let f = frame(pose_b);
            let c = Point::from(f.inverse_transform_vector(&-ob));
            let centre = Point::from(pose_a.translation.vector);
            round::point_box(h, &c, tol, want)?.centred(&f, &centre, true, want)
        }
        (Primitive::Ball { .. }, Primitive::Ball { .. }) => {
            round::point_point(&Point::from(ob), tol)?.shifted(&o, want)
        }
        (Primitive::Ball { .. }, Primitive::Capsule { a, b, .. }) => {
            round::point_segment(&Point::origin(), &in_b(a), &in_b(b), tol, false)?
                .shifted(&o, want)
        }
        (Primitive::Capsule { a, b, .. }, Primitive::Ball { .. }) => {
            round::point_segment(&Point::from(ob), &in_a(a), &in_a(b), tol, true)?.shifted(&o, want)
        }
        (Primitive::Capsule { a, b, .. }, Primitive::Capsule { a: c, b: d, .. }) => {
            round::segment_segment(&in_a(a), &in_a(b), &in_b(c), &in_b(d), tol)?.shifted(&o, want)
        }
    };
    in_range(ans.coords).then_some(ans)
}

/// The boxes `[−a, a]` and `t + rot·[−b, b]` in the first one's frame: the distance
/// fast path's answer there (a closest pair, or a common point when they overlap), `None`
/// where it defers to GJK.
pub(crate) fn box_pair<T: Real, const D: usize>(
    a: SVector<T, D>,
    b: SVector<T, D>,
    rot: nalgebra::SMatrix<T, D, D>,
    t: SVector<T, D>,
    tol: &Tolerances<T>,
) -> Option<Answer<T, D>> {
    let ans = boxes::Boxes::new(a, b, rot, t, tol).solve(Want::Distance, T::zero())?;
    in_range(ans.coords).then_some(ans)
}

/// The fast paths of a posed pair ([`PosedPair`]): each answers, or `None` where the
/// general path must run.
impl<T, R, const D: usize, A, B> PosedPair<'_, T, R, D, A, B>
where
    T: Real,
    R: PoseRotation<T, D>,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    /// The pair's primitives when a fast path may answer: floats, `D` 2 or 3, both shapes
    /// primitives with valid parameters and a finite sum of radii, tolerances honoured, both
    /// poses finite and rigid. `None` otherwise, also on invalid input, so that the general
    /// path reports the error in its own order.
    #[allow(clippy::eq_op, reason = "x − x is the finiteness test")]
    #[inline(always)]
    fn admit(&self) -> Option<Admitted<T, D>> {
        let PosedPair {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        if crate::real::is_fixed::<T>() || !(D == 2 || D == 3) {
            return None;
        }
        let (pa, pb) = (a.primitive()?, b.primitive()?);
        let (ra, rb) = (radius(&pa), radius(&pb));
        // Every number read finite in one comparison (`x − x` summed: the primitives', both
        // translations' and the radii's sum, which may overflow), signs by plain comparisons;
        // then the rotations (their check rejects a NaN or ∞ itself): `pose::is_rigid` and the
        // shapes' `validate`, without a branch per number (docs/PERFORMANCE.md §2.3).
        let (qa, qb) = (parameters(&pa), parameters(&pb));
        let f = |x: T| x - x;
        let t = |p: &Isometry<T, R, D>| {
            let v = &p.translation.vector;
            v.iter().fold(T::zero(), |s, &x| s + f(x))
        };
        let finite = (qa.finiteness + qb.finiteness) + (t(pose_a) + t(pose_b)) + f(ra + rb);
        let ok = finite == T::zero()
            && qa.non_negative & qb.non_negative
            && honours(tol)
            && crate::pose::check_finite(pose_a).is_ok()
            && crate::pose::check_finite(pose_b).is_ok();
        // The checks one by one, as the shapes' `validate` and `pose::is_rigid` make them.
        debug_assert_eq!(
            ok,
            honours(tol)
                && valid(&pa)
                && valid(&pb)
                && crate::real::finite(ra + rb)
                && crate::pose::is_rigid(pose_a)
                && crate::pose::is_rigid(pose_b),
            "pair::admit: the finiteness sum disagrees with the checks one by one"
        );
        ok.then_some(Admitted { pa, pb, ra, rb })
    }

    /// [`crate::query::distance`] by a fast path, `None` where the general path must run.
    pub(crate) fn closed_distance(&self) -> Option<Distance<T, D>> {
        let (pose_a, pose_b, tol) = (self.pose_a, self.pose_b, self.tol);
        let pair = self.admit()?;
        let ans = solve(&pair, pose_a, pose_b, tol, Want::Distance)?;
        let (ra, rb) = (pair.ra, pair.rb);
        let margin = ra + rb;
        // As GJK's `Outcome::rounded` and `query::to_world`: the distance between the rounded
        // shapes is the cores' minus the radii; within the radii and the band, they touch.
        // Computed in the world frame: the bounds are widened by the poses' band here.
        let upper = if ans.sep > T::zero() {
            ans.upper
        } else if ans.a == ans.b {
            // A common point exactly on both (a box's centre inside the other): no root.
            T::zero()
        } else {
            crate::norm(&(ans.a - ans.b))
        };
        let normal = (upper > margin + ans.band).then(|| Unit::new_unchecked(ans.normal));
        let core = GjkEnd {
            v: ans.a - ans.b,
            a: ans.a,
            b: ans.b,
            lower: ans.lower,
            upper,
            band: ans.band,
            iterations: 1,
            termination: Termination::Converged,
        };
        let widen = query::pose_band(pose_a, pose_b, tol);
        Some(rounded_distance(&core, normal, ra, rb, widen))
    }

    /// [`crate::query::intersects`] by a fast path, `None` where the general path must run.
    pub(crate) fn closed_intersects(&self) -> Option<bool> {
        let pair = self.admit()?;
        let ans = solve(&pair, self.pose_a, self.pose_b, self.tol, Want::Verdict)?;
        // Apart only when proven: a separation bound beyond the radii and the rounding.
        Some(!(ans.lower > pair.ra + pair.rb + ans.band))
    }

    /// [`crate::query::contact`] by a fast path, `None` where the general path must run.
    pub(crate) fn closed_contact(&self) -> Option<Contact<T, D>> {
        let (pose_a, pose_b, tol) = (self.pose_a, self.pose_b, self.tol);
        let pair = self.admit()?;
        let ans = solve(&pair, pose_a, pose_b, tol, Want::Contact)?;
        let (ra, rb) = (pair.ra, pair.rb);
        let margin = ra + rb;
        let n = ans.normal;
        let band = ans.band + query::pose_band(pose_a, pose_b, tol);
        Some(Contact {
            separation: ans.sep - margin,
            normal: Unit::new_unchecked(n),
            point_a: ans.a + n * ra,
            point_b: ans.b - n * rb,
            lower_bound: ans.lower.min(ans.sep) - margin - band,
            upper_bound: ans.upper.max(ans.sep) - margin + band,
            iterations: 1,
            termination: Termination::Converged,
        })
    }
}
