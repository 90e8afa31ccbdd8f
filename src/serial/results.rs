//! Serialize/Deserialize for the motions, options, bounding volumes and results. Motions,
//! options and bounding volumes are checked on reading; results are records and are read
//! as written: those outside `cast` derive both on their own types (`cfg_attr(feature =
//! "serde")`), the cast results through the remote mirrors here.

use super::check;
use crate::{
    Acceleration, Criterion, QueryError, Real, Subalgorithm, Tolerances,
    bound::{Aabb, BoundingBall},
    cast::{
        Cast, CastOptions, CastTermination, LinearMotion, Ray, RayHit, RigidMotion, RotationDim,
        ShapeHit,
    },
    clip::{ContactPoint, Manifold, PackedFeatureId},
};
use alloc::vec::Vec;
use nalgebra::{Const, Isometry, Point, SMatrix, SVector, Unit};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `Serialize` and `Deserialize` through the remote definition `$def`, then `$check` on
/// reading (`[$($g)*]`: the impl's generics; `[$($p),*]`: the type parameters that must be
/// (de)serializable; `[$($w)*]`: further where-clauses).
macro_rules! via {
    ($def:ident, [$($g:tt)*], $ty:ty, [$($p:ty),*], [$($w:tt)*], |$v:ident| $check:expr) => {
        impl<$($g)*> Serialize for $ty
        where
            $($p: Serialize,)*
            $($w)*
        {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $def::serialize(self, s)
            }
        }
        impl<'de, $($g)*> Deserialize<'de> for $ty
        where
            $($p: Deserialize<'de>,)*
            $($w)*
        {
            fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
                let $v: $ty = $def::deserialize(d)?;
                check($check)
            }
        }
    };
    ($def:ident, [$($g:tt)*], $ty:ty, [$($p:ty),*]) => {
        via!($def, [$($g)*], $ty, [$($p),*], [], |v| Ok::<_, QueryError>(v));
    };
}

// ------------------------------------------------------------------ enums

#[derive(Serialize, Deserialize)]
#[serde(remote = "CastTermination")]
enum CastTerminationDef {
    Converged,
    StartedWithin,
    StartedPenetrating,
    Separating,
    Horizon,
    MaxIterations,
    NoProgress,
    Degenerate,
    BeyondRange,
    Bracketed,
}
via!(CastTerminationDef, [], CastTermination, []);

// ------------------------------------------------------------------ options

#[derive(Serialize, Deserialize)]
#[serde(remote = "Tolerances")]
struct TolerancesDef<T: Real> {
    gjk_rel: T,
    gjk_touching: T,
    gjk_resolution: T,
    gjk_subalgorithm: Subalgorithm,
    // Fields added after the first serialised forms: absent, they take their defaults.
    #[serde(default)]
    gjk_criterion: Criterion,
    #[serde(default = "default_gjk_abs::<T>")]
    gjk_abs: T,
    #[serde(default)]
    gjk_acceleration: Acceleration,
    #[serde(default = "default_gjk_momentum_accuracy::<T>")]
    gjk_momentum_accuracy: T,
    gjk_max_iterations: u32,
    epa_rel: T,
    epa_max_iterations: u32,
    manifold_reference_bias: T,
    manifold_min_alignment: T,
}
via!(TolerancesDef, [T: Real], Tolerances<T>, [T], [], |t| t.check().map(|()| t));

/// [`Tolerances::gjk_abs`]'s default, for serialised forms written before it existed.
fn default_gjk_abs<T: Real>() -> T {
    Tolerances::<T>::default().gjk_abs
}

/// [`Tolerances::gjk_momentum_accuracy`]'s default, for serialised forms written before
/// it existed.
fn default_gjk_momentum_accuracy<T: Real>() -> T {
    Tolerances::<T>::default().gjk_momentum_accuracy
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "CastOptions")]
struct CastOptionsDef<T> {
    max_toi: T,
    target_distance: T,
    stop_at_penetration: bool,
    negative_toi: bool,
    max_steps: u32,
}
via!(CastOptionsDef, [T: Real], CastOptions<T>, [T], [], |o| o.validate().map(|()| o));

// ------------------------------------------------------------------ motions

#[derive(Serialize, Deserialize)]
#[serde(remote = "Ray")]
struct RayDef<T: Real, const D: usize> {
    origin: Point<T, D>,
    dir: SVector<T, D>,
}
via!(RayDef, [T: Real, const D: usize], Ray<T, D>, [T], [], |r| {
    let finite = crate::real::all_finite(&r.origin.coords) && crate::real::all_finite(&r.dir);
    if finite { Ok(r) } else { Err("a ray's origin and direction must be finite") }
});

#[derive(Serialize, Deserialize)]
#[serde(remote = "LinearMotion")]
#[serde(bound(
    serialize = "T: Serialize, Isometry<T, R, D>: Serialize",
    deserialize = "T: Deserialize<'de>, Isometry<T, R, D>: Deserialize<'de>"
))]
struct LinearMotionDef<T: Real, R, const D: usize> {
    pose: Isometry<T, R, D>,
    velocity: SVector<T, D>,
}
via!(
    LinearMotionDef,
    [T: Real, R, const D: usize],
    LinearMotion<T, R, D>,
    [T, Isometry<T, R, D>],
    [],
    |m| if crate::real::all_finite(&m.velocity) {
        Ok(m)
    } else {
        Err("a linear motion's velocity must be finite")
    }
);

/// A rigid motion as its state at time 0: the rotation matrix, the centre's world position
/// and local position, the linear and the angular velocity.
#[derive(Serialize, Deserialize)]
#[serde(rename = "RigidMotion")]
#[serde(bound(
    serialize = "T: Serialize, A: Serialize",
    deserialize = "T: Deserialize<'de>, A: Deserialize<'de>"
))]
struct RigidMotionRepr<T: Real, A, const D: usize> {
    rotation: SMatrix<T, D, D>,
    center: Point<T, D>,
    local_center: Point<T, D>,
    linear: SVector<T, D>,
    angular: A,
}

impl<T: Real + Serialize, const D: usize> Serialize for RigidMotion<T, D>
where
    Const<D>: RotationDim<T, D>,
    <Const<D> as RotationDim<T, D>>::Angular: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // A motion every query rejects (built from a pose that is not rigid) would not read
        // back as such: the flag is not stored.
        if !self.is_valid() {
            return Err(serde::ser::Error::custom(
                "a rigid motion must be finite and built from rigid poses",
            ));
        }
        RigidMotionRepr {
            rotation: *self.start_rotation(),
            center: *self.start_center(),
            local_center: self.local_center(),
            linear: self.linear_velocity(),
            angular: self.angular_velocity(),
        }
        .serialize(s)
    }
}

impl<'de, T: Real + Deserialize<'de>, const D: usize> Deserialize<'de> for RigidMotion<T, D>
where
    Const<D>: RotationDim<T, D>,
    <Const<D> as RotationDim<T, D>>::Angular: Deserialize<'de>,
{
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let r: RigidMotionRepr<T, <Const<D> as RotationDim<T, D>>::Angular, D> =
            RigidMotionRepr::deserialize(d)?;
        let m = RigidMotion::from_parts(r.rotation, r.center, r.local_center, r.linear, r.angular);
        if m.is_valid() {
            Ok(m)
        } else {
            Err(serde::de::Error::custom(
                "a rigid motion must be finite and its rotation a rotation matrix",
            ))
        }
    }
}

// ------------------------------------------------------------------ bounding volumes

#[derive(Serialize, Deserialize)]
#[serde(remote = "Aabb")]
struct AabbDef<T: Real, const D: usize> {
    min: Point<T, D>,
    max: Point<T, D>,
}
via!(AabbDef, [T: Real, const D: usize], Aabb<T, D>, [T], [], |b| {
    // `!(min ≤ max)` also catches NaN.
    if (0..D).all(|k| b.min[k] <= b.max[k]) { Ok(b) } else { Err("an Aabb needs min ≤ max on every axis") }
});

#[derive(Serialize, Deserialize)]
#[serde(remote = "BoundingBall")]
struct BoundingBallDef<T: Real, const D: usize> {
    center: Point<T, D>,
    radius: T,
}
via!(BoundingBallDef, [T: Real, const D: usize], BoundingBall<T, D>, [T], [], |b| {
    let ok = b.radius >= T::zero() && b.radius.is_finite() && crate::real::all_finite(&b.center.coords);
    if ok { Ok(b) } else { Err("a bounding ball needs a finite centre and a finite radius ≥ 0") }
});

// ------------------------------------------------------------------ results

/// A packed id as its bits (the format of the plain `u32` it replaced).
impl Serialize for PackedFeatureId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(s)
    }
}
impl<'de> Deserialize<'de> for PackedFeatureId {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        u32::deserialize(d).map(Self::from)
    }
}

/// A manifold as its normal and its points (at most 4).
#[derive(Serialize)]
#[serde(rename = "Manifold")]
struct ManifoldRef<'a, T: Real, const D: usize> {
    normal: &'a Unit<SVector<T, D>>,
    points: &'a [ContactPoint<T, D>],
}
#[derive(Deserialize)]
#[serde(rename = "Manifold")]
struct ManifoldRepr<T: Real, const D: usize> {
    normal: Unit<SVector<T, D>>,
    points: Vec<ContactPoint<T, D>>,
}
impl<T: Real + Serialize, const D: usize> Serialize for Manifold<T, D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ManifoldRef {
            normal: &self.normal,
            points: self.points(),
        }
        .serialize(s)
    }
}
impl<'de, T: Real + Deserialize<'de>, const D: usize> Deserialize<'de> for Manifold<T, D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let r = ManifoldRepr::deserialize(d)?;
        if r.points.len() > 4 {
            return Err(serde::de::Error::invalid_length(
                r.points.len(),
                &"at most 4 contact points",
            ));
        }
        let mut m = Manifold::empty(r.normal);
        for p in r.points {
            m.push(p);
        }
        Ok(m)
    }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Cast")]
struct CastDef<H, T> {
    hit: Option<H>,
    safe_toi: T,
    iterations: u32,
    steps: u32,
    termination: CastTermination,
}
via!(CastDef, [H, T], Cast<H, T>, [H, T]);

#[derive(Serialize, Deserialize)]
#[serde(remote = "RayHit")]
struct RayHitDef<T: Real, const D: usize> {
    toi: T,
    lower_bound: T,
    upper_bound: Option<T>,
    normal: Option<Unit<SVector<T, D>>>,
    point: Point<T, D>,
    termination: CastTermination,
}
via!(RayHitDef, [T: Real, const D: usize], RayHit<T, D>, [T]);

#[derive(Serialize, Deserialize)]
#[serde(remote = "ShapeHit")]
struct ShapeHitDef<T: Real, const D: usize> {
    toi: T,
    lower_bound: T,
    upper_bound: Option<T>,
    distance: T,
    normal: Option<Unit<SVector<T, D>>>,
    point_a: Point<T, D>,
    point_b: Point<T, D>,
    termination: CastTermination,
}
via!(ShapeHitDef, [T: Real, const D: usize], ShapeHit<T, D>, [T]);
