//! Serialize/Deserialize for the shapes. Each shape is written as its constructor's
//! arguments (a polytope as its points, a transformed shape as its matrix and translation)
//! and read back through the same checks as its `try_new`: a negative or non-finite radius,
//! an empty or non-finite point cloud or a non-finite map is a serde error, never a shape.

use super::check;
use crate::{
    Real,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, Hull, MinkowskiSum, NoShape, PointShape, Polytope,
        Revolution, Rounded, Segment, Transformed,
    },
};
use alloc::vec::Vec;
use nalgebra::{Point, SMatrix, SVector};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `Serialize` through the remote definition `$def`; `Deserialize` through it and then
/// `$check` (the constructor's validation), errors mapped to `serde::de::Error::custom`.
/// `[$($g)*]` are the impl's generics, `[$($p),*]` the type parameters that must be
/// (de)serializable.
macro_rules! checked {
    ($def:ident, [$($g:tt)*], $ty:ty, [$($p:ident),*], |$v:ident| $check:expr) => {
        impl<$($g)*> Serialize for $ty
        where
            $($p: Serialize,)*
        {
            fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
                $def::serialize(self, s)
            }
        }
        impl<'de, $($g)*> Deserialize<'de> for $ty
        where
            $($p: Deserialize<'de>,)*
        {
            fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
                let $v: $ty = $def::deserialize(d)?;
                check($check)
            }
        }
    };
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Ball")]
struct BallDef<T> {
    radius: T,
}
checked!(BallDef, [T: Real], Ball<T>, [T], |b| Ball::try_new(b.radius));

#[derive(Serialize, Deserialize)]
#[serde(remote = "Cuboid")]
struct CuboidDef<T: Real, const D: usize> {
    half_extents: SVector<T, D>,
}
checked!(CuboidDef, [T: Real, const D: usize], Cuboid<T, D>, [T], |c| Cuboid::try_new(
    c.half_extents
));

#[derive(Serialize, Deserialize)]
#[serde(remote = "Segment")]
struct SegmentDef<T: Real, const D: usize> {
    a: Point<T, D>,
    b: Point<T, D>,
}
checked!(SegmentDef, [T: Real, const D: usize], Segment<T, D>, [T], |s| Segment::try_new(
    s.a, s.b
));

/// A capsule as its end points and radius (flat, as `Capsule::try_new` takes them).
#[derive(Serialize, Deserialize)]
#[serde(rename = "Capsule")]
struct CapsuleRepr<T: Real, const D: usize> {
    a: Point<T, D>,
    b: Point<T, D>,
    radius: T,
}
impl<T: Real + Serialize, const D: usize> Serialize for Capsule<T, D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (a, b, radius) = (self.segment.a, self.segment.b, self.radius);
        CapsuleRepr { a, b, radius }.serialize(s)
    }
}
impl<'de, T: Real + Deserialize<'de>, const D: usize> Deserialize<'de> for Capsule<T, D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let c = CapsuleRepr::deserialize(d)?;
        check(Capsule::try_new(c.a, c.b, c.radius))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "PointShape")]
struct PointShapeDef<T: Real, const D: usize> {
    point: Point<T, D>,
}
checked!(PointShapeDef, [T: Real, const D: usize], PointShape<T, D>, [T], |p| {
    PointShape::try_new(p.point)
});

#[derive(Serialize, Deserialize)]
#[serde(remote = "Cone")]
struct ConeDef<T> {
    half_height: T,
    radius: T,
}
checked!(ConeDef, [T: Real], Cone<T>, [T], |c| Cone::try_new(c.half_height, c.radius));

#[derive(Serialize, Deserialize)]
#[serde(remote = "Cylinder")]
struct CylinderDef<T> {
    half_height: T,
    radius: T,
}
checked!(CylinderDef, [T: Real], Cylinder<T>, [T], |c| Cylinder::try_new(
    c.half_height,
    c.radius
));

#[derive(Serialize, Deserialize)]
#[serde(remote = "Rounded")]
struct RoundedDef<S, T> {
    inner: S,
    radius: T,
}
checked!(RoundedDef, [S, T: Real], Rounded<S, T>, [S, T], |r| Rounded::try_new(
    r.inner, r.radius
));

#[derive(Serialize, Deserialize)]
#[serde(remote = "MinkowskiSum")]
struct MinkowskiSumDef<A, B> {
    a: A,
    b: B,
}
checked!(MinkowskiSumDef, [A, B], MinkowskiSum<A, B>, [A, B], |s| Ok::<_, crate::ShapeError>(s));

#[derive(Serialize, Deserialize)]
#[serde(remote = "Hull")]
struct HullDef<A, B> {
    a: A,
    b: B,
}
checked!(HullDef, [A, B], Hull<A, B>, [A, B], |h| Ok::<_, crate::ShapeError>(h));

/// A polytope as its points (the hull is recomputed on reading: the same points give the
/// same faces, vertices and ids).
#[derive(Serialize)]
#[serde(rename = "Polytope")]
struct PolytopeRef<'a, T: Real, const D: usize> {
    points: &'a [Point<T, D>],
}
#[derive(Deserialize)]
#[serde(rename = "Polytope")]
struct PolytopeRepr<T: Real, const D: usize> {
    points: Vec<Point<T, D>>,
}
impl<T: Real + Serialize, const D: usize> Serialize for Polytope<T, D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PolytopeRef {
            points: self.points(),
        }
        .serialize(s)
    }
}
impl<'de, T: Real + Deserialize<'de>, const D: usize> Deserialize<'de> for Polytope<T, D> {
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        check(Polytope::try_new(PolytopeRepr::deserialize(d)?.points))
    }
}

/// A transformed shape as its inner shape, linear map and translation (the similarity
/// scale is recomputed by `try_new`).
#[derive(Serialize)]
#[serde(rename = "Transformed")]
struct TransformedRef<'a, S, T: Real, const D: usize> {
    inner: &'a S,
    linear: &'a SMatrix<T, D, D>,
    translation: &'a SVector<T, D>,
}
#[derive(Deserialize)]
#[serde(rename = "Transformed")]
struct TransformedRepr<S, T: Real, const D: usize> {
    inner: S,
    linear: SMatrix<T, D, D>,
    translation: SVector<T, D>,
}
impl<S: Serialize, T: Real + Serialize, const D: usize> Serialize for Transformed<S, T, D> {
    fn serialize<Se: Serializer>(&self, s: Se) -> Result<Se::Ok, Se::Error> {
        TransformedRef {
            inner: &self.inner,
            linear: self.linear(),
            translation: self.translation(),
        }
        .serialize(s)
    }
}
impl<'de, S, T, const D: usize> Deserialize<'de> for Transformed<S, T, D>
where
    S: Deserialize<'de>,
    T: Real + Deserialize<'de>,
{
    fn deserialize<De: Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let t = TransformedRepr::deserialize(d)?;
        check(Transformed::try_new(t.inner, t.linear, t.translation))
    }
}

#[derive(Serialize, Deserialize)]
#[serde(remote = "Revolution")]
enum RevolutionDef<T: Real> {
    Cone(Cone<T>),
    Cylinder(Cylinder<T>),
}
checked!(RevolutionDef, [T: Real], Revolution<T>, [T], |r| Ok::<_, crate::ShapeError>(r));

/// Uninhabited: nothing to write, and reading one is an error.
impl Serialize for NoShape {
    fn serialize<S: Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}
impl<'de> Deserialize<'de> for NoShape {
    fn deserialize<De: Deserializer<'de>>(_: De) -> Result<Self, De::Error> {
        Err(serde::de::Error::custom(
            "no shape of this kind exists in this dimension (cones and cylinders are 3D)",
        ))
    }
}

/// `Arc<X>` as `X` (no `rc` feature of serde: sharing is not recorded, each `Arc` is
/// written in full and read back as its own).
pub(crate) mod arc {
    use alloc::sync::Arc;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    pub(crate) fn serialize<S: Serializer, X: Serialize>(
        v: &Arc<X>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        X::serialize(v, s)
    }
    pub(crate) fn deserialize<'de, D, X>(d: D) -> Result<Arc<X>, D::Error>
    where
        D: Deserializer<'de>,
        X: Deserialize<'de>,
    {
        X::deserialize(d).map(Arc::new)
    }
}
