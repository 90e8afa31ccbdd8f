//! Shapes behind pointers and trait objects: `&S`, `Box<S>`, `Arc<S>` and `Rc<S>` as support
//! maps and as feature maps, and the aliases for thread-safe trait objects.
//!
//! Every impl forwards *every* method of the trait, so that a wrapped shape keeps its
//! rounded-core split (`radius`, `core_support`, `center`), its closed forms (`primitive`,
//! `half_extents`), its checks (`validate`, `extent`): a default method left in place would
//! silently answer for a different shape (tests/shape_enum.rs compares every query bit for
//! bit with the bare shape).

use super::{Primitive, SupportMap};
use crate::{
    Real, ShapeError,
    clip::{Feature, FeatureMap},
};
use alloc::{boxed::Box, rc::Rc, sync::Arc};
use nalgebra::{Point, SVector};

/// A thread-safe trait object of a support map: `Box<DynSupportMap<T, D>>` is
/// `Box<dyn SupportMap<T, D> + Send + Sync>`, for mixed collections that every GJK, EPA and
/// cast query takes (and that can be shared across threads) without naming `Send + Sync`
/// at each use.
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Ball, Cuboid, DynSupportMap}};
/// use nalgebra::{Isometry3, Vector3};
/// let shapes: Vec<Box<DynSupportMap<f64, 3>>> =
///     vec![Box::new(Ball::new(0.5)), Box::new(Cuboid::new(Vector3::new(1.0, 1.0, 1.0)))];
/// let d = query::distance(&Isometry3::identity(), &shapes[0],
///                         &Isometry3::translation(3.0, 0.0, 0.0), &shapes[1],
///                         &Tolerances::default()).unwrap();
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// std::thread::spawn(move || shapes.len()).join().unwrap(); // Send
/// ```
pub type DynSupportMap<T, const D: usize> = dyn SupportMap<T, D> + Send + Sync;

/// A thread-safe trait object of a feature map: `Box<DynFeatureMap<T, D>>` is
/// `Box<dyn FeatureMap<T, D> + Send + Sync>`; it takes every query, [`manifold`] included.
///
/// [`manifold`]: crate::query::manifold
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::{Cuboid, DynFeatureMap}};
/// use nalgebra::{Isometry3, Vector3};
/// let slab: Box<DynFeatureMap<f64, 3>> = Box::new(Cuboid::new(Vector3::new(5.0, 0.5, 5.0)));
/// let cube: Box<DynFeatureMap<f64, 3>> = Box::new(Cuboid::new(Vector3::new(0.5, 0.5, 0.5)));
/// let m = query::manifold(&Isometry3::identity(), &slab, &Isometry3::translation(0.0, 0.99, 0.0),
///                         &cube, 0.0, &Tolerances::default()).unwrap();
/// assert_eq!(m.len(), 4);
/// ```
pub type DynFeatureMap<T, const D: usize> = dyn FeatureMap<T, D> + Send + Sync;

/// `SupportMap` and `FeatureMap` for a pointer type `$p` dereferencing to `S`.
macro_rules! forward {
    (support $p:ty) => {
        impl<T: Real, const D: usize, S: SupportMap<T, D> + ?Sized> SupportMap<T, D> for $p {
            #[inline]
            fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
                (**self).support(dir)
            }
            #[inline]
            fn radius(&self) -> T {
                (**self).radius()
            }
            #[inline]
            fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
                (**self).core_support(dir)
            }
            #[inline]
            fn center(&self) -> Point<T, D> {
                (**self).center()
            }
            #[inline]
            fn primitive(&self) -> Option<Primitive<T, D>> {
                (**self).primitive()
            }
            fn validate(&self) -> Result<(), ShapeError> {
                (**self).validate()
            }
            fn extent(&self) -> f64 {
                (**self).extent()
            }
        }
    };
    (feature $p:ty) => {
        impl<T: Real, const D: usize, S: FeatureMap<T, D> + ?Sized> FeatureMap<T, D> for $p {
            #[inline]
            fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
                (**self).feature(dir, out);
            }
            #[inline]
            fn half_extents(&self) -> Option<SVector<T, D>> {
                (**self).half_extents()
            }
        }
    };
}

forward!(support & S);
forward!(support Box<S>);
forward!(support Arc<S>);
forward!(support Rc<S>);
forward!(feature & S);
forward!(feature Box<S>);
forward!(feature Arc<S>);
forward!(feature Rc<S>);
