//! Every public type is `Send + Sync` (and the shapes `'static`), for f32, f64 and
//! FixedI40F24 in 2D and 3D: a compile-time check, so a field that loses an auto trait (a
//! raw pointer, an `Rc`, a `dyn` without bounds) breaks the build here, not in a user's
//! thread pool. rustdoc's display of these impls depends on the bounds of the dimension
//! traits' storage types (`Dim::Slots`, `ContactDim::Storage`, `RotationDim::Angular`,
//! `ShapeDim::Extra`), which are all `Send + Sync`.

use convex_proximity::{
    QueryError, Real, ShapeError, Subalgorithm, Tolerances,
    cast::{Cast, CastOptions, CastTermination, LinearMotion, Ray, RayHit, RigidMotion, ShapeHit},
    clip::{ContactPoint, Feature, FeatureId, Manifold, ManifoldWorkspace},
    epa::Workspace,
    gjk::{Cache, Distance, Intersection, Simplex, SupportPoint, Termination},
    query::Contact,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, DynFeatureMap, DynSupportMap, Face, Hull,
        MinkowskiSum, NoShape, PointShape, Polytope, Primitive, Revolution, Rounded, Segment,
        Shape, Transformed,
    },
};
use nalgebra::{UnitComplex, UnitQuaternion};

fn assert_send_sync<X: Send + Sync + ?Sized>() {}

macro_rules! send_sync {
    ($($ty:ty),* $(,)?) => {$( assert_send_sync::<$ty>(); )*};
}

/// The types generic over the dimension, in dimension `D`.
macro_rules! per_dim {
    ($T:ty, $D:literal) => {
        send_sync!(
            Cuboid<$T, $D>,
            Capsule<$T, $D>,
            Segment<$T, $D>,
            PointShape<$T, $D>,
            Polytope<$T, $D>,
            Face<$T, $D>,
            Rounded<Cuboid<$T, $D>, $T>,
            Transformed<Ball<$T>, $T, $D>,
            MinkowskiSum<Ball<$T>, Cuboid<$T, $D>>,
            Hull<Ball<$T>, Segment<$T, $D>>,
            Primitive<$T, $D>,
            Shape<$T, $D>,
            DynSupportMap<$T, $D>,
            DynFeatureMap<$T, $D>,
            Box<DynFeatureMap<$T, $D>>,
            Cache<$T, $D>,
            Simplex<$T, $D>,
            SupportPoint<$T, $D>,
            Distance<$T, $D>,
            Intersection<$T, $D>,
            Workspace<$T, $D>,
            Feature<$T, $D>,
            ContactPoint<$T, $D>,
            Manifold<$T, $D>,
            ManifoldWorkspace<$T, $D>,
            Contact<$T, $D>,
            Ray<$T, $D>,
            RayHit<$T, $D>,
            ShapeHit<$T, $D>,
            Cast<RayHit<$T, $D>, $T>,
            RigidMotion<$T, $D>,
        );
    };
}

fn every_public_type<T: Real>() {
    per_dim!(T, 2);
    per_dim!(T, 3);
    send_sync!(
        Ball<T>,
        Cone<T>,
        Cylinder<T>,
        Revolution<T>,
        NoShape,
        Tolerances<T>,
        CastOptions<T>,
        LinearMotion<T, UnitQuaternion<T>, 3>,
        LinearMotion<T, UnitComplex<T>, 2>,
        Termination,
        CastTermination,
        Subalgorithm,
        FeatureId,
        ShapeError,
        QueryError,
    );
}

#[test]
fn public_types_are_send_and_sync() {
    every_public_type::<f32>();
    every_public_type::<f64>();
    #[cfg(feature = "fixed")]
    every_public_type::<simba::scalar::FixedI40F24>();
}
