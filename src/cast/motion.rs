//! Rigid motions with constant linear and angular velocity, in 2D and 3D, and the proven
//! bound of how fast the points of a shape move under them (docs/casts.md §4).

use super::CastDim;
use crate::{
    Real,
    real::{lit, norm, sqrt0},
    shape::{Primitive, SupportMap},
};
use nalgebra::{AbstractRotation, Const, Isometry, Point, SMatrix, SVector, Vector3};
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

/// The dimensions with rotations: `Const<2>` (angular velocity a scalar, radians per unit
/// of time, counter-clockwise) and `Const<3>` (a vector: axis × radians per unit of time),
/// sealed.
pub trait RotationDim<T: Real, const D: usize>: CastDim<T, D> {
    /// The angular velocity: `T` in 2D, `Vector3<T>` in 3D.
    type Angular: Copy + core::fmt::Debug + PartialEq + Send + Sync;
    /// The cosine of the covering radius of the unit directions `{−1, 0, 1}^D \ 0`,
    /// normalised, rounded down: every unit vector is within that angle of one of them
    /// (2D: cos 22.5° = 0.92388; 3D: 0.88645, the hole equidistant from `e₁`,
    /// `(1,1,0)/√2` and `(1,1,1)/√3`).
    #[doc(hidden)]
    const NET_COSINE: f64;
    /// No rotation.
    #[doc(hidden)]
    fn zero() -> Self::Angular;
    /// Every component finite.
    #[doc(hidden)]
    fn is_finite(w: &Self::Angular) -> bool;
    /// The rotation by `t·w` (2D: the angle; 3D: Rodrigues' formula).
    #[doc(hidden)]
    fn exp(w: &Self::Angular, t: T) -> SMatrix<T, D, D>;
    /// The angular velocity that turns the identity into `m` in one unit of time, with an
    /// angle in `[0, π]` (the shorter way; slerp's).
    #[doc(hidden)]
    fn log(m: &SMatrix<T, D, D>) -> Self::Angular;
    /// `w × r`: the velocity of the point at offset `r` from the centre.
    #[doc(hidden)]
    fn cross(w: &Self::Angular, r: &SVector<T, D>) -> SVector<T, D>;
    /// A bound of `|n·(w × r)| / ‖r‖` for a unit `n`: `‖n × w‖` (3D), `|w|` (2D).
    #[doc(hidden)]
    fn rate(w: &Self::Angular, n: &SVector<T, D>) -> T;
    /// The angular speed `‖w‖` (radians per unit of time).
    #[doc(hidden)]
    fn speed(w: &Self::Angular) -> T;
    /// A bound of `|d·eₖ| / ‖d‖` for any `d ⊥ w` (the plane a point turns in): 1 in 2D,
    /// `√(1 − ŵₖ²)` in 3D (0 along the axis), 1 for `w = 0`.
    #[doc(hidden)]
    fn plane_share(w: &Self::Angular, k: usize) -> T;
    /// The component of `d` along the axis of `w`, which a rotation by `w` keeps: 0 in
    /// 2D (and for `w = 0`), `(d·ŵ) ŵ` in 3D.
    #[doc(hidden)]
    fn along_axis(w: &Self::Angular, d: &SVector<T, D>) -> SVector<T, D>;
}

impl<T: Real> RotationDim<T, 2> for Const<2> {
    type Angular = T;
    const NET_COSINE: f64 = 0.923_879;
    fn zero() -> T {
        T::zero()
    }
    fn is_finite(w: &T) -> bool {
        w.is_finite()
    }
    fn exp(w: &T, t: T) -> SMatrix<T, 2, 2> {
        let (s, c) = (*w * t).sin_cos();
        SMatrix::<T, 2, 2>::new(c, -s, s, c)
    }
    fn log(m: &SMatrix<T, 2, 2>) -> T {
        m[(1, 0)].atan2(m[(0, 0)])
    }
    fn cross(w: &T, r: &SVector<T, 2>) -> SVector<T, 2> {
        SVector::<T, 2>::new(-r.y, r.x) * *w
    }
    fn rate(w: &T, _n: &SVector<T, 2>) -> T {
        w.abs()
    }
    fn speed(w: &T) -> T {
        w.abs()
    }
    fn plane_share(_w: &T, _k: usize) -> T {
        T::one()
    }
    fn along_axis(_w: &T, _d: &SVector<T, 2>) -> SVector<T, 2> {
        SVector::zeros()
    }
}

impl<T: Real> RotationDim<T, 3> for Const<3> {
    type Angular = Vector3<T>;
    const NET_COSINE: f64 = 0.886_45;
    fn zero() -> Vector3<T> {
        Vector3::zeros()
    }
    fn is_finite(w: &Vector3<T>) -> bool {
        crate::real::all_finite(w)
    }
    fn exp(w: &Vector3<T>, t: T) -> SMatrix<T, 3, 3> {
        let wt = w * t;
        let theta = norm(&wt);
        if !(theta > T::zero()) {
            return SMatrix::identity();
        }
        let k = wt / theta;
        let kx = k.cross_matrix();
        let (s, c) = theta.sin_cos();
        SMatrix::identity() + kx * s + kx * kx * (T::one() - c)
    }
    fn log(m: &SMatrix<T, 3, 3>) -> Vector3<T> {
        // m − mᵀ = 2 sin θ [k]×, tr m = 1 + 2 cos θ.
        let vee = Vector3::new(
            m[(2, 1)] - m[(1, 2)],
            m[(0, 2)] - m[(2, 0)],
            m[(1, 0)] - m[(0, 1)],
        ) * lit::<T>(0.5);
        let s = norm(&vee);
        let c = (m.trace() - T::one()) * lit::<T>(0.5);
        let theta = s.atan2(c);
        let half = lit::<T>(0.5);
        if s >= half || (c > T::zero() && s > T::zero()) {
            return vee * (theta / s);
        }
        if c > T::zero() {
            return Vector3::zeros();
        }
        // Near π the antisymmetric part vanishes: k from (m + mᵀ)/2 − c·I = (1 − c)·k kᵀ.
        let sym = (m + m.transpose()) * half - SMatrix::<T, 3, 3>::identity() * c;
        let j = (0..3)
            .max_by(|&p, &q| {
                sym[(p, p)]
                    .partial_cmp(&sym[(q, q)])
                    .unwrap_or(core::cmp::Ordering::Equal)
            })
            .unwrap_or(0);
        let kj = sqrt0(sym[(j, j)] / (T::one() - c));
        if !(kj > T::zero()) {
            return Vector3::zeros();
        }
        let mut k = sym.column(j) / ((T::one() - c) * kj);
        if k.dot(&vee) < T::zero() {
            k = -k;
        }
        k * theta
    }
    fn cross(w: &Vector3<T>, r: &SVector<T, 3>) -> SVector<T, 3> {
        w.cross(r)
    }
    fn rate(w: &Vector3<T>, n: &SVector<T, 3>) -> T {
        norm(&n.cross(w))
    }
    fn speed(w: &Vector3<T>) -> T {
        norm(w)
    }
    fn plane_share(w: &Vector3<T>, k: usize) -> T {
        let n = norm(w);
        if !(n > T::zero()) {
            return T::one();
        }
        // ‖w without its k-th component‖ / ‖w‖ ≤ 1 (no overflow in fixed-point).
        let mut rest = *w;
        rest[k] = T::zero();
        (norm(&rest) / n).min(T::one())
    }
    fn along_axis(w: &Vector3<T>, d: &SVector<T, 3>) -> SVector<T, 3> {
        match crate::real::normalize(w) {
            Some(k) => k.into_inner() * k.dot(d),
            None => SVector::zeros(),
        }
    }
}

/// A rigid motion over time `t`: a centre point of the shape moves with constant velocity
/// `linear` and the shape turns about it with constant angular velocity `angular` (world
/// frame). The planner's straight segment between two poses is one
/// ([`between`](Self::between)): the frame's origin moves on the segment while the
/// rotation is slerped.
///
/// ```
/// use convex_proximity::query::RigidMotion;
/// use nalgebra::{Isometry2, Isometry3, Point2, Point3, Vector2, Vector3};
/// // 2D: a quarter turn per unit of time about the local point (1, 0).
/// let m = RigidMotion::new(&Isometry2::identity(), Point2::new(1.0, 0.0), Vector2::zeros(),
///                          std::f64::consts::FRAC_PI_2);
/// let p = m.transform_point(1.0, &Point2::new(2.0, 0.0));
/// assert!((p - Point2::new(1.0, 1.0)).norm() < 1e-12);
/// // 3D: from one pose to another over t ∈ [0, 1].
/// let (p0, p1) = (Isometry3::identity(), Isometry3::new(Vector3::new(2.0, 0.0, 0.0), Vector3::z() * 0.5));
/// let m = RigidMotion::between(&p0, &p1);
/// let q = m.transform_point(1.0, &Point3::new(1.0, 0.0, 0.0));
/// assert!((q - p1 * Point3::new(1.0, 0.0, 0.0)).norm() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidMotion<T: Real, const D: usize>
where
    Const<D>: RotationDim<T, D>,
{
    rotation: SMatrix<T, D, D>,
    center: Point<T, D>,
    local_center: Point<T, D>,
    linear: SVector<T, D>,
    angular: <Const<D> as RotationDim<T, D>>::Angular,
    /// Whether the poses it was built from are rigid beyond the start's rotation, which
    /// [`Self::is_valid`] tests itself: [`Self::between`]'s end enters only through
    /// `log(R₁R₀ᵀ)`, which would hide a shear or a mirror there.
    rigid_end: bool,
}

impl<T: Real, const D: usize> RigidMotion<T, D>
where
    Const<D>: RotationDim<T, D>,
{
    /// Starting at `pose`, the shape's point `local_center` moves with velocity `linear`
    /// and the shape turns about it with angular velocity `angular` (world frame).
    #[must_use]
    pub fn new<R: AbstractRotation<T, D>>(
        pose: &Isometry<T, R, D>,
        local_center: Point<T, D>,
        linear: SVector<T, D>,
        angular: <Const<D> as RotationDim<T, D>>::Angular,
    ) -> Self {
        Self {
            rotation: crate::pose::axes_matrix(pose),
            center: pose.transform_point(&local_center),
            local_center,
            linear,
            angular,
            rigid_end: true,
        }
    }

    /// The straight segment from `start` (t = 0) to `end` (t = 1): the frame's origin moves
    /// linearly, the rotation turns at constant speed the shorter way (slerp). Either pose
    /// not rigid (a shear, a scale, a mirror: as [`crate::QueryError::NonRigidPose`]), the
    /// motion is one every query rejects ([`crate::QueryError::InvalidCast`] "motion").
    #[must_use]
    pub fn between<R: AbstractRotation<T, D>>(
        start: &Isometry<T, R, D>,
        end: &Isometry<T, R, D>,
    ) -> Self {
        let (r0, r1) = (
            crate::pose::axes_matrix(start),
            crate::pose::axes_matrix(end),
        );
        let angular = <Const<D> as RotationDim<T, D>>::log(&(r1 * r0.transpose()));
        Self {
            rotation: r0,
            center: Point::from(start.translation.vector),
            local_center: Point::origin(),
            linear: end.translation.vector - start.translation.vector,
            angular,
            rigid_end: crate::pose::check_matrix(&r1, crate::pose::rigid_tolerance()).is_ok(),
        }
    }

    /// A translation with constant `velocity`, without rotation.
    #[must_use]
    pub fn linear<R: AbstractRotation<T, D>>(
        pose: &Isometry<T, R, D>,
        velocity: SVector<T, D>,
    ) -> Self {
        Self::new(
            pose,
            Point::origin(),
            velocity,
            <Const<D> as RotationDim<T, D>>::zero(),
        )
    }

    /// A shape at rest at `pose`.
    #[must_use]
    pub fn fixed<R: AbstractRotation<T, D>>(pose: &Isometry<T, R, D>) -> Self {
        Self::linear(pose, SVector::zeros())
    }

    /// The rotation matrix at time `t`: `exp(t·ω)·R₀`.
    #[must_use]
    pub fn rotation_at(&self, t: T) -> SMatrix<T, D, D> {
        <Const<D> as RotationDim<T, D>>::exp(&self.angular, t) * self.rotation
    }

    /// The position of the centre at time `t` (world frame).
    #[must_use]
    pub fn center_at(&self, t: T) -> Point<T, D> {
        self.center + self.linear * t
    }

    /// Where the shape's local point `p` is at time `t` (world frame).
    #[must_use]
    pub fn transform_point(&self, t: T, p: &Point<T, D>) -> Point<T, D> {
        self.center_at(t) + self.rotation_at(t) * (p - self.local_center)
    }

    /// The velocity of the shape's material point that is at world position `p` at time
    /// `t`: `v + ω × (p − c(t))`.
    #[must_use]
    pub fn velocity_at(&self, t: T, p: &Point<T, D>) -> SVector<T, D> {
        self.linear
            + <Const<D> as RotationDim<T, D>>::cross(&self.angular, &(p - self.center_at(t)))
    }

    /// The velocity of the centre.
    #[must_use]
    pub fn linear_velocity(&self) -> SVector<T, D> {
        self.linear
    }

    /// The angular velocity.
    #[must_use]
    pub fn angular_velocity(&self) -> <Const<D> as RotationDim<T, D>>::Angular {
        self.angular
    }

    /// The rotation centre in the shape's local frame.
    #[must_use]
    pub fn local_center(&self) -> Point<T, D> {
        self.local_center
    }

    /// The motion from its stored parts (serde; the caller checks [`Self::is_valid`]).
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(
        rotation: SMatrix<T, D, D>,
        center: Point<T, D>,
        local_center: Point<T, D>,
        linear: SVector<T, D>,
        angular: <Const<D> as RotationDim<T, D>>::Angular,
    ) -> Self {
        Self {
            rotation,
            center,
            local_center,
            linear,
            angular,
            rigid_end: true,
        }
    }

    /// The rotation at time 0 (serde).
    #[cfg(feature = "serde")]
    pub(crate) fn start_rotation(&self) -> &SMatrix<T, D, D> {
        &self.rotation
    }

    /// The centre's position at time 0 (serde).
    #[cfg(feature = "serde")]
    pub(crate) fn start_center(&self) -> &Point<T, D> {
        &self.center
    }

    /// Whether the motion does not rotate.
    pub(crate) fn is_translation(&self) -> bool {
        self.angular == <Const<D> as RotationDim<T, D>>::zero()
    }

    /// The pose at time `t` ([`Frame`]).
    pub(crate) fn frame_at(&self, t: T) -> Frame<T, D> {
        let rot = self.rotation_at(t);
        Frame {
            translation: self.center_at(t).coords - rot * self.local_center.coords,
            rot,
        }
    }

    /// Finite everywhere, its rotation a rotation (tested as a pose's: orthonormal to the
    /// rounding, no mirror) and built from rigid poses.
    pub(crate) fn is_valid(&self) -> bool {
        self.rigid_end
            && crate::pose::check_matrix(&self.rotation, crate::pose::rigid_tolerance()).is_ok()
            && crate::real::all_finite(&self.center.coords)
            && crate::real::all_finite(&self.local_center.coords)
            && crate::real::all_finite(&self.linear)
            && <Const<D> as RotationDim<T, D>>::is_finite(&self.angular)
    }
}

/// A pose as a rotation matrix and a translation ([`RigidMotion::frame_at`]): a point `x` of
/// the shape's frame is at `rot · x + translation`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame<T: Real, const D: usize> {
    /// The rotation matrix.
    pub(crate) rot: SMatrix<T, D, D>,
    /// The image of the shape's local origin.
    pub(crate) translation: SVector<T, D>,
}

/// A proven bound of `max ‖x − c‖` over the core of `shape` (local frame), the reach of a
/// rotation about `c` (docs/casts.md §4). Balls and boxes: exact. Other shapes: from the
/// support values along the `3^D − 1` directions `{−1, 0, 1}^D` normalised — every unit
/// `e` is within the net's covering angle of one of them, `n·e ≥ κ`, so
/// `‖x − c‖ ≤ max_n (h(n) − n·c) / κ` — and the box of the axis support values; the smaller
/// of the two, with `CORE_REACH` ulps of slack for the rounding
/// (`tolerance::allowance`).
pub(crate) fn core_reach<T, const D: usize, S>(shape: &S, c: &Point<T, D>) -> T
where
    T: Real,
    Const<D>: RotationDim<T, D>,
    S: SupportMap<T, D> + ?Sized,
{
    let eps64 = crate::tolerance::ulps::<T>(crate::tolerance::allowance::CORE_REACH);
    let slack = |r: T| r * (T::one() + eps64) + eps64 * (T::one() + c.coords.amax());
    match shape.primitive() {
        // A ball turning about its own centre: its core, that point, does not move (no
        // rounding to cover), so a wheel rolling on a face slides along it, proven.
        Some(Primitive::Ball { .. }) if c.coords.iter().all(|x| *x == T::zero()) => {
            return T::zero();
        }
        Some(Primitive::Ball { .. }) => return slack(norm(&c.coords)),
        Some(Primitive::Cuboid { half_extents }) => {
            return slack(norm(&(c.coords.abs() + half_extents)));
        }
        _ => {}
    }
    let mut net = T::zero();
    let mut aabb = SVector::<T, D>::zeros();
    let count = 3usize.pow(D as u32);
    for code in 0..count {
        let mut d = SVector::<T, D>::zeros();
        let (mut k, mut nonzero) = (code, 0);
        for i in 0..D {
            d[i] = lit::<T>((k % 3) as f64 - 1.0);
            nonzero += usize::from(k % 3 != 1);
            k /= 3;
        }
        if nonzero == 0 {
            continue;
        }
        let n = d * lit::<T>(1.0 / (nonzero as f64).sqrt());
        let h = n.dot(&(shape.core_support(&n) - c));
        net = net.max(h);
        if nonzero == 1 {
            let i = (0..D).find(|&i| d[i] != T::zero()).unwrap_or(0);
            aabb[i] = aabb[i].max(h);
        }
    }
    let by_net = net / lit::<T>(<Const<D> as RotationDim<T, D>>::NET_COSINE);
    slack(by_net.min(norm(&aabb)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Polytope};
    use nalgebra::{Point2, Point3};

    /// The reach bounds every vertex's distance from the centre and is within the net's
    /// factor `1/κ` of the truth. Regression: the base-3 enumeration of the net started at
    /// code 1 and lost the direction (−1, …, −1) (code 0); without it the net no longer
    /// covers the sphere within κ and the "bound" fell below the truth (2.009 < 2.066).
    #[test]
    fn core_reach_is_a_bound() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        for _ in 0..50 {
            let pts: Vec<Point3<f64>> = (0..12)
                .map(|_| Point3::new(next(), next(), next()))
                .collect();
            let c = Point3::new(next(), next(), next()) * 0.5;
            let hull = Polytope::try_new(pts.clone()).unwrap();
            let truth = pts.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
            let r = core_reach(&hull, &c);
            assert!(
                r >= truth && r <= truth / 0.88645 * (1.0 + 1e-9),
                "{r} vs {truth}"
            );
            let pts2: Vec<Point2<f64>> = (0..8).map(|_| Point2::new(next(), next())).collect();
            let c2 = Point2::new(next(), next());
            let truth2 = pts2.iter().map(|p| (p - c2).norm()).fold(0.0, f64::max);
            let r2 = core_reach(&Polytope::try_new(pts2).unwrap(), &c2);
            assert!(
                r2 >= truth2 && r2 <= truth2 / 0.923879 * (1.0 + 1e-9),
                "{r2} vs {truth2}"
            );
        }
        // A capsule's core is its segment: the radius does not count.
        let cap = Capsule::new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), 0.5);
        let r = core_reach(&cap, &Point3::origin());
        assert!((1.0..=1.0 / 0.88645 + 1e-9).contains(&r), "{r}");
    }
}
