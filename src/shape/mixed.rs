//! [`Shape`]: one type for every shape of the crate, for mixed collections.
//!
//! The design is explained in the docs of [`Shape`] (this module is private).

use super::{
    Ball, Capsule, Cone, Cuboid, Cylinder, Hull, MinkowskiSum, PointShape, Polytope, Primitive,
    Rounded, Segment, SupportMap, Transformed,
};
use crate::{
    Dim, Real, ShapeError,
    clip::{Feature, FeatureMap, Vertex},
};
use alloc::{boxed::Box, sync::Arc};
use nalgebra::{Const, Point, SMatrix, SVector};

mod sealed {
    pub trait Sealed {}
}

/// The dimensions a [`Shape`] exists in (`Const<1>` to `Const<6>`, sealed), and the shapes
/// only that dimension has.
pub trait ShapeDim<T: Real, const D: usize>: Dim + sealed::Sealed {
    /// The shapes of this dimension only: [`Revolution`] in 3D, [`NoShape`] elsewhere.
    type Extra: SupportMap<T, D> + Clone + core::fmt::Debug + PartialEq + Send + Sync;
}

/// No shape: the uninhabited [`Shape::Extra`] of the dimensions other than 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoShape {}

/// The 3D-only shapes of a [`Shape`]: shapes of revolution about the local y axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Revolution<T> {
    /// A [`Cone`].
    Cone(Cone<T>),
    /// A [`Cylinder`].
    Cylinder(Cylinder<T>),
}

impl sealed::Sealed for Const<3> {}
impl<T: Real> ShapeDim<T, 3> for Const<3> {
    type Extra = Revolution<T>;
}

macro_rules! no_extra {
    ($($d:literal),*) => {$(
        impl sealed::Sealed for Const<$d> {}
        impl<T: Real> ShapeDim<T, $d> for Const<$d> {
            type Extra = NoShape;
        }
    )*};
}
no_extra!(1, 2, 4, 5, 6);

/// Any shape of the crate, in dimension `D`: a closed set of shapes for mixed collections
/// that keeps `Clone`, `PartialEq` and static dispatch (a `Box<dyn FeatureMap>`
/// collection works too: [`DynFeatureMap`](super::DynFeatureMap)). It implements
/// [`SupportMap`] (every query) and, in 2D and 3D, [`FeatureMap`] (manifolds).
///
/// Build any shape with `From`/`into()` or the constructors of the composites.
///
/// Design. The crate's shapes are generic over the dimension `D` except [`Cone`] and
/// [`Cylinder`], which exist only in 3D (`SupportMap<T, 3>`). An enum over `D` cannot hold
/// them as variants of their own (`Shape<T, 2>::Cone` would be a value without a support
/// map), so the enum has one variant, [`Shape::Extra`], whose type depends on the
/// dimension through the sealed trait [`ShapeDim`]: [`Revolution`] (cone, cylinder) in 3D
/// and the empty [`NoShape`] elsewhere (that variant cannot be built in 2D). The
/// alternatives were a second enum for 3D, which would duplicate every composite variant
/// (a rounded cylinder must live in the 3D enum, a rounded box in both), or a trait object
/// per shape, which gives up `Clone`, `PartialEq` and the static dispatch. Composites
/// ([`Rounded`], [`Transformed`], [`MinkowskiSum`], [`Hull`]) hold boxed `Shape`s, so any
/// nesting is one type; polytopes are behind an `Arc` (a hull is large and a scene shares
/// it between bodies).
///
/// Every method of [`SupportMap`] and [`FeatureMap`] is forwarded to the shape inside
/// (the rounded-core split, `primitive`, `half_extents`, `validate`, `extent`), so a query
/// on a `Shape` takes the same path and gives the same answer, bit for bit, as on the bare
/// shape. [`MinkowskiSum`] and [`Hull`] have no faces: their manifold feature is the core's
/// support point (one contact point).
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Ball, Cuboid, Cylinder, Shape}};
/// use nalgebra::{Isometry3, Vector3};
/// let scene: Vec<Shape<f64, 3>> = vec![
///     Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).into(),
///     Cylinder::new(1.0, 0.5).into(),
///     Shape::rounded(Cuboid::new(Vector3::new(0.5, 0.5, 0.5)), 0.1).unwrap(),
///     Ball::new(0.5).into(),
/// ];
/// let tol = Tolerances::default();
/// let d = query::distance(&Isometry3::identity(), &scene[0],
///                         &Isometry3::translation(3.0, 0.0, 0.0), &scene[3], &tol).unwrap();
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// let m = query::manifold(&Isometry3::identity(), &scene[0],
///                         &Isometry3::translation(0.0, 1.99, 0.0), &scene[1], 0.0, &tol).unwrap();
/// assert!(m.len() >= 3); // the cylinder's cap on the box's top face
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
// Externally tagged (`{"Ball": {"radius": 0.5}}`); every variant's shape is checked by its
// own `Deserialize`. The name the serialised form has had since it went through a remote
// mirror.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename = "ShapeDef"))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "T: serde::Serialize, <Const<D> as ShapeDim<T, D>>::Extra: serde::Serialize",
        deserialize = "T: serde::Deserialize<'de>, <Const<D> as ShapeDim<T, D>>::Extra: serde::Deserialize<'de>"
    ))
)]
pub enum Shape<T: Real, const D: usize>
where
    Const<D>: ShapeDim<T, D>,
{
    /// A [`Ball`].
    Ball(Ball<T>),
    /// A [`Cuboid`].
    Cuboid(Cuboid<T, D>),
    /// A [`Capsule`].
    Capsule(Capsule<T, D>),
    /// A [`Segment`].
    Segment(Segment<T, D>),
    /// A [`PointShape`].
    Point(PointShape<T, D>),
    /// A [`Polytope`], shared.
    #[cfg_attr(feature = "serde", serde(with = "crate::serial::arc"))]
    Polytope(Arc<Polytope<T, D>>),
    /// A [`Rounded`] shape.
    Rounded(Rounded<Box<Shape<T, D>>, T>),
    /// A [`Transformed`] shape.
    Transformed(Transformed<Box<Shape<T, D>>, T, D>),
    /// A [`MinkowskiSum`].
    Sum(MinkowskiSum<Box<Shape<T, D>>, Box<Shape<T, D>>>),
    /// A [`Hull`] of two shapes.
    Hull(Hull<Box<Shape<T, D>>, Box<Shape<T, D>>>),
    /// The shapes of this dimension only ([`ShapeDim::Extra`]): [`Revolution`] in 3D.
    Extra(<Const<D> as ShapeDim<T, D>>::Extra),
}

impl<T: Real, const D: usize> Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
{
    /// `inner ⊕ ball(radius)`.
    ///
    /// # Errors
    /// [`ShapeError::Negative`] if `radius` is negative or not finite.
    pub fn rounded(inner: impl Into<Self>, radius: T) -> Result<Self, ShapeError> {
        Ok(Self::Rounded(Rounded::try_new(
            Box::new(inner.into()),
            radius,
        )?))
    }

    /// `inner` mapped by `x ↦ linear·x + translation` (see [`Transformed`]).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] (index 0: the matrix, 1: the translation).
    pub fn transformed(
        inner: impl Into<Self>,
        linear: SMatrix<T, D, D>,
        translation: SVector<T, D>,
    ) -> Result<Self, ShapeError> {
        Ok(Self::Transformed(Transformed::try_new(
            Box::new(inner.into()),
            linear,
            translation,
        )?))
    }

    /// `a ⊕ b` (see [`MinkowskiSum`]).
    #[must_use]
    pub fn sum(a: impl Into<Self>, b: impl Into<Self>) -> Self {
        Self::Sum(MinkowskiSum::new(Box::new(a.into()), Box::new(b.into())))
    }

    /// `conv(a ∪ b)` (see [`Hull`]).
    #[must_use]
    pub fn hull(a: impl Into<Self>, b: impl Into<Self>) -> Self {
        Self::Hull(Hull::new(Box::new(a.into()), Box::new(b.into())))
    }
}

macro_rules! from {
    ($($ty:ty => $variant:ident),* $(,)?) => {$(
        impl<T: Real, const D: usize> From<$ty> for Shape<T, D>
        where
            Const<D>: ShapeDim<T, D>,
        {
            fn from(s: $ty) -> Self {
                Self::$variant(s)
            }
        }
    )*};
}
from! {
    Ball<T> => Ball,
    Cuboid<T, D> => Cuboid,
    Capsule<T, D> => Capsule,
    Segment<T, D> => Segment,
    PointShape<T, D> => Point,
    Arc<Polytope<T, D>> => Polytope,
}

impl<T: Real, const D: usize> From<Polytope<T, D>> for Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
{
    fn from(p: Polytope<T, D>) -> Self {
        Self::Polytope(Arc::new(p))
    }
}

impl<T: Real> From<Revolution<T>> for Shape<T, 3> {
    fn from(r: Revolution<T>) -> Self {
        Self::Extra(r)
    }
}

impl<T: Real> From<Cone<T>> for Shape<T, 3> {
    fn from(c: Cone<T>) -> Self {
        Self::Extra(Revolution::Cone(c))
    }
}

impl<T: Real> From<Cylinder<T>> for Shape<T, 3> {
    fn from(c: Cylinder<T>) -> Self {
        Self::Extra(Revolution::Cylinder(c))
    }
}

impl<T: Real, const D: usize, S: Into<Shape<T, D>>> From<Rounded<S, T>> for Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
{
    fn from(r: Rounded<S, T>) -> Self {
        Self::Rounded(Rounded {
            inner: Box::new(r.inner.into()),
            radius: r.radius,
        })
    }
}

/// `From` a combination of two shapes (`$combo { a, b }`), built by `Shape::$build`.
macro_rules! from_two {
    ($($combo:ident => $build:ident),*) => {$(
        impl<T: Real, const D: usize, A, B> From<$combo<A, B>> for Shape<T, D>
        where
            Const<D>: ShapeDim<T, D>,
            A: Into<Shape<T, D>>,
            B: Into<Shape<T, D>>,
        {
            fn from(s: $combo<A, B>) -> Self {
                Self::$build(s.a, s.b)
            }
        }
    )*};
}
from_two!(MinkowskiSum => sum, Hull => hull);

impl<T: Real, const D: usize, S: Into<Shape<T, D>>> From<Transformed<S, T, D>> for Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
{
    /// The same map around the converted shape (its entries were checked finite when `t`
    /// was built, so the rebuild cannot fail, and it computes the same similarity).
    fn from(t: Transformed<S, T, D>) -> Self {
        let (linear, translation) = (*t.linear(), *t.translation());
        Self::Transformed(Transformed::new(
            Box::new(t.inner.into()),
            linear,
            translation,
        ))
    }
}

/// Calls `$f` on the shape inside each variant of a [`Shape`].
macro_rules! each {
    ($v:expr, $s:ident => $f:expr) => {
        match $v {
            Shape::Ball($s) => $f,
            Shape::Cuboid($s) => $f,
            Shape::Capsule($s) => $f,
            Shape::Segment($s) => $f,
            Shape::Point($s) => $f,
            Shape::Polytope($s) => $f,
            Shape::Rounded($s) => $f,
            Shape::Transformed($s) => $f,
            Shape::Sum($s) => $f,
            Shape::Hull($s) => $f,
            Shape::Extra($s) => $f,
        }
    };
}

impl<T: Real, const D: usize> SupportMap<T, D> for Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
{
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        each!(self, s => SupportMap::<T, D>::support(s, dir))
    }
    #[inline]
    fn radius(&self) -> T {
        each!(self, s => SupportMap::<T, D>::radius(s))
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        each!(self, s => SupportMap::<T, D>::core_support(s, dir))
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        each!(self, s => SupportMap::<T, D>::center(s))
    }
    #[inline]
    fn primitive(&self) -> Option<Primitive<T, D>> {
        each!(self, s => SupportMap::<T, D>::primitive(s))
    }
    fn validate(&self) -> Result<(), ShapeError> {
        each!(self, s => SupportMap::<T, D>::validate(s))
    }
    fn extent(&self) -> f64 {
        each!(self, s => SupportMap::<T, D>::extent(s))
    }
}

/// The feature of a shape without faces: its core's support point along `dir` (id
/// `u32::MAX`, as [`Transformed`]'s fallback), with the normal `dir`.
fn core_point<T: Real, const D: usize, S: SupportMap<T, D>>(
    s: &S,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    out.normal = crate::real::normalize(dir).unwrap_or_else(crate::linalg::any_axis);
    out.id = u32::MAX;
    out.vertices.clear();
    out.vertices
        .push(Vertex::new(s.core_support(dir), u32::MAX));
}

impl<T: Real, const D: usize> FeatureMap<T, D> for Shape<T, D>
where
    Const<D>: ShapeDim<T, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
    <Const<D> as ShapeDim<T, D>>::Extra: FeatureMap<T, D>,
{
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        match self {
            Shape::Ball(s) => FeatureMap::<T, D>::feature(s, dir, out),
            Shape::Cuboid(s) => s.feature(dir, out),
            Shape::Capsule(s) => s.feature(dir, out),
            Shape::Segment(s) => s.feature(dir, out),
            Shape::Point(s) => s.feature(dir, out),
            Shape::Polytope(s) => s.feature(dir, out),
            Shape::Rounded(s) => s.feature(dir, out),
            Shape::Transformed(s) => s.feature(dir, out),
            Shape::Sum(s) => core_point(s, dir, out),
            Shape::Hull(s) => core_point(s, dir, out),
            Shape::Extra(s) => s.feature(dir, out),
        }
    }
    fn half_extents(&self) -> Option<SVector<T, D>> {
        match self {
            Shape::Ball(s) => FeatureMap::<T, D>::half_extents(s),
            Shape::Cuboid(s) => s.half_extents(),
            Shape::Capsule(s) => s.half_extents(),
            Shape::Segment(s) => s.half_extents(),
            Shape::Point(s) => s.half_extents(),
            Shape::Polytope(s) => s.half_extents(),
            Shape::Rounded(s) => s.half_extents(),
            Shape::Transformed(s) => s.half_extents(),
            Shape::Sum(_) | Shape::Hull(_) => None,
            Shape::Extra(s) => s.half_extents(),
        }
    }
}

/// Calls `$f` on the shape inside each variant of a [`Revolution`].
macro_rules! each3 {
    ($v:expr, $s:ident => $f:expr) => {
        match $v {
            Revolution::Cone($s) => $f,
            Revolution::Cylinder($s) => $f,
        }
    };
}

impl<T: Real> SupportMap<T, 3> for Revolution<T> {
    #[inline]
    fn support(&self, dir: &SVector<T, 3>) -> Point<T, 3> {
        each3!(self, s => s.support(dir))
    }
    #[inline]
    fn radius(&self) -> T {
        each3!(self, s => SupportMap::<T, 3>::radius(s))
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, 3>) -> Point<T, 3> {
        each3!(self, s => s.core_support(dir))
    }
    #[inline]
    fn center(&self) -> Point<T, 3> {
        each3!(self, s => s.center())
    }
    #[inline]
    fn primitive(&self) -> Option<Primitive<T, 3>> {
        each3!(self, s => s.primitive())
    }
    fn validate(&self) -> Result<(), ShapeError> {
        each3!(self, s => s.validate())
    }
    fn extent(&self) -> f64 {
        each3!(self, s => s.extent())
    }
}

impl<T: Real> FeatureMap<T, 3> for Revolution<T> {
    fn feature(&self, dir: &SVector<T, 3>, out: &mut Feature<T, 3>) {
        each3!(self, s => s.feature(dir, out));
    }
    fn half_extents(&self) -> Option<SVector<T, 3>> {
        each3!(self, s => s.half_extents())
    }
}

impl<T: Real, const D: usize> SupportMap<T, D> for NoShape {
    fn support(&self, _dir: &SVector<T, D>) -> Point<T, D> {
        match *self {}
    }
}

impl<T: Real, const D: usize> FeatureMap<T, D> for NoShape {
    fn feature(&self, _dir: &SVector<T, D>, _out: &mut Feature<T, D>) {
        match *self {}
    }
}
