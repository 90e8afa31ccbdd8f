//! The `bvh` crate as a broad phase (cargo feature `bvh`): posed shapes go into its
//! bounding volume hierarchy (SAH build, `no_std`, on nalgebra 0.35 like this crate) as
//! [`BvhEntry`]s, and [`overlaps`] returns the entries whose boxes meet a query box.
//! Floating-point scalars only: `bvh` needs `num_traits::Float`, which simba's fixed-point
//! types do not implement.
//!
//! ```
//! use convex_proximity::{bound::{Aabb, BvhEntry, overlaps}, shape::{Ball, Cuboid, Shape}};
//! use nalgebra::{Isometry3, Vector3};
//! let scene: Vec<(Isometry3<f64>, Shape<f64, 3>)> = (0..100)
//!     .map(|i| (Isometry3::translation(i as f64, 0.0, 0.0), Ball::new(0.4).into()))
//!     .collect();
//! let mut entries: Vec<BvhEntry<f64, 3>> = scene.iter().enumerate()
//!     .map(|(i, (pose, s))| BvhEntry::new(Aabb::of(pose, s).unwrap(), i))
//!     .collect();
//! let tree = bvh::bvh::Bvh::build(&mut entries);
//! // A box over x ∈ [9.5, 12.5] meets balls 9 (its edge at 9.4 does not), 10, 11, 12.
//! let probe = Aabb::of(&Isometry3::translation(11.0, 0.0, 0.0),
//!                      &Cuboid::new(Vector3::new(1.5, 0.5, 0.5))).unwrap();
//! let mut hits = overlaps(&tree, &entries, &probe);
//! hits.sort();
//! assert_eq!(hits, vec![10, 11, 12]);
//! ```

use super::Aabb;
use crate::Real;
use alloc::vec::Vec;
use bvh::{aabb::Bounded, bounding_hierarchy::BHShape, bounding_hierarchy::BHValue, bvh::Bvh};

/// One posed shape in a [`bvh::bvh::Bvh`]: its box, its index in the caller's scene, and
/// the tree node `bvh` assigns it (kept by [`BHShape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BvhEntry<T: Real, const D: usize> {
    /// The shape's world box (e.g. [`Aabb::of`], loosened by a margin).
    pub aabb: Aabb<T, D>,
    /// The shape's index in the caller's scene.
    pub index: usize,
    node: usize,
}

impl<T: Real, const D: usize> BvhEntry<T, D> {
    /// The entry of shape `index` with box `aabb` (not yet in a tree).
    #[must_use]
    pub fn new(aabb: Aabb<T, D>, index: usize) -> Self {
        Self {
            aabb,
            index,
            node: 0,
        }
    }
}

impl<T: Real + BHValue, const D: usize> From<Aabb<T, D>> for bvh::aabb::Aabb<T, D> {
    fn from(b: Aabb<T, D>) -> Self {
        bvh::aabb::Aabb::with_bounds(b.min, b.max)
    }
}

impl<T: Real + BHValue, const D: usize> Bounded<T, D> for BvhEntry<T, D> {
    fn aabb(&self) -> bvh::aabb::Aabb<T, D> {
        self.aabb.into()
    }
}

impl<T: Real + BHValue, const D: usize> BHShape<T, D> for BvhEntry<T, D> {
    fn set_bh_node_index(&mut self, node: usize) {
        self.node = node;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

/// The scene indices of the entries of `tree` whose boxes meet `query` (boundaries
/// included, as [`Aabb::intersects`]), in the tree's order.
#[must_use]
pub fn overlaps<T: Real + BHValue, const D: usize>(
    tree: &Bvh<T, D>,
    entries: &[BvhEntry<T, D>],
    query: &Aabb<T, D>,
) -> Vec<usize> {
    let q: bvh::aabb::Aabb<T, D> = (*query).into();
    // bvh's box test is this crate's: `max < min` on an axis separates, touching meets.
    tree.traverse(&q, entries)
        .into_iter()
        .map(|e| e.index)
        .collect()
}
