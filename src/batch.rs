//! Batches of queries on all cores (cargo feature `rayon`): many pairs of one scene, each
//! with its own warm-start [`Cache`] that the caller keeps between batches, the pairs split
//! over rayon's worker threads.
//!
//! A [`Scene`] is a slice of shapes and a slice of their poses (one per shape, same index);
//! a [`Pair`] is two indices into it; an index past the scene is that pair's
//! [`QueryError::NoSuchShape`], the other pairs still answered. Each query is exactly the sequential one
//! ([`query::distance_with_cache`], [`query::contact_with_cache`],
//! [`query::distance_within_with_cache`]) on the pair's own cache, so a batch answers bit
//! for bit what a loop over the pairs answers, in any thread count. Memory: the caches
//! are the caller's, EPA's workspace is the worker thread's own (the per-thread pool of
//! [`query::contact`]: rayon's workers persist, so after the first batch no query
//! allocates), and the results go into the caller's slice.
//!
//! ```
//! use convex_proximity::{Tolerances, batch, gjk::Cache, shape::{Ball, Cuboid, Shape}};
//! use nalgebra::{Isometry3, Vector3};
//! let shapes: Vec<Shape<f64, 3>> = vec![Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).into(),
//!                                       Ball::new(0.5).into(), Ball::new(0.25).into()];
//! let poses = [Isometry3::identity(), Isometry3::translation(3.0, 0.0, 0.0),
//!              Isometry3::translation(0.0, 1.1, 0.0)];
//! let pairs = [batch::Pair::new(0, 1), batch::Pair::new(0, 2), batch::Pair::new(1, 2)];
//! let mut caches = vec![Cache::new(); pairs.len()];
//! let mut out = vec![None; pairs.len()];
//! let scene = batch::Scene::new(&poses, &shapes);
//! scene.contacts(&pairs, &Tolerances::default(), &mut caches, &mut out);
//! let c = out[0].unwrap().unwrap();
//! assert!((c.separation - 1.5).abs() < 1e-12);
//! assert!(out[1].unwrap().unwrap().separation < 0.0); // the small ball dips into the box
//! ```

use crate::{
    QueryError, Real, Tolerances,
    dim::Dim,
    epa::ContactDim,
    gjk::{Cache, Distance},
    pose::PoseRotation,
    query::{self, Contact, Proximity},
    shape::SupportMap,
};
use nalgebra::{Const, Isometry};
use rayon::prelude::*;

/// Pairs per rayon task: a query takes about a microsecond, so smaller tasks would spend
/// more on scheduling than on queries.
const MIN_PAIRS_PER_TASK: usize = 32;

/// The answer slot of one pair: `None` until the batch fills it.
pub type Slot<X> = Option<Result<X, QueryError>>;

/// Two shapes of a [`Scene`], by their indices: the query is `a`'s against `b`'s (A and B
/// of the sequential query).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pair {
    /// Index of shape A (and its pose).
    pub a: usize,
    /// Index of shape B (and its pose).
    pub b: usize,
}

impl Pair {
    /// Shape `a` against shape `b`.
    pub const fn new(a: usize, b: usize) -> Self {
        Self { a, b }
    }
}

impl From<(usize, usize)> for Pair {
    fn from((a, b): (usize, usize)) -> Self {
        Self { a, b }
    }
}

/// Shapes and their poses, one pose per shape (same index): what a batch's pairs index.
#[derive(Debug)]
pub struct Scene<'s, T: Real, R, S, const D: usize> {
    poses: &'s [Isometry<T, R, D>],
    shapes: &'s [S],
}

impl<T: Real, R, S, const D: usize> Clone for Scene<'_, T, R, S, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Real, R, S, const D: usize> Copy for Scene<'_, T, R, S, D> {}

impl<'s, T, R, S, const D: usize> Scene<'s, T, R, S, D>
where
    T: Real,
    R: PoseRotation<T, D> + Sync,
    S: SupportMap<T, D> + Sync,
    Const<D>: Dim,
{
    /// The scene of `shapes[i]` at `poses[i]`.
    ///
    /// # Panics
    /// If `poses` and `shapes` differ in length.
    pub fn new(poses: &'s [Isometry<T, R, D>], shapes: &'s [S]) -> Self {
        assert_eq!(poses.len(), shapes.len(), "one pose per shape");
        Self { poses, shapes }
    }

    /// Runs `query(pose_a, a, pose_b, b, cache)` for every pair in parallel, into `out`.
    fn run<X: Send>(
        &self,
        pairs: &[Pair],
        caches: &mut [Cache<T, D>],
        out: &mut [Slot<X>],
        query: impl Fn(
            &Isometry<T, R, D>,
            &S,
            &Isometry<T, R, D>,
            &S,
            &mut Cache<T, D>,
        ) -> Result<X, QueryError>
        + Sync,
    ) {
        assert_eq!(caches.len(), pairs.len(), "one cache per pair");
        assert_eq!(out.len(), pairs.len(), "one output slot per pair");
        let (poses, shapes) = (self.poses, self.shapes);
        pairs
            .par_iter()
            .zip(caches.par_iter_mut())
            .zip(out.par_iter_mut())
            .with_min_len(MIN_PAIRS_PER_TASK)
            .for_each(|((pair, cache), slot)| {
                // `poses` and `shapes` have one length (`Scene::new`).
                let (i, j) = (pair.a, pair.b);
                *slot = Some(match [i, j].into_iter().find(|&k| k >= shapes.len()) {
                    Some(index) => Err(QueryError::NoSuchShape { index }),
                    None => query(&poses[i], &shapes[i], &poses[j], &shapes[j], cache),
                });
            });
    }

    /// The distance of every pair (as [`query::distance_with_cache`] on `caches[k]`), on
    /// all cores, into `out[k]`.
    ///
    /// # Panics
    /// If `pairs`, `caches` and `out` differ in length (a pair indexing past the shapes is
    /// that pair's [`QueryError::NoSuchShape`]).
    pub fn distances(
        &self,
        pairs: &[Pair],
        tol: &Tolerances<T>,
        caches: &mut [Cache<T, D>],
        out: &mut [Slot<Distance<T, D>>],
    ) {
        self.run(pairs, caches, out, |pa, a, pb, b, c| {
            query::distance_with_cache(pa, a, pb, b, tol, c)
        });
    }

    /// The signed distance of every pair (as [`query::contact_with_cache`] on `caches[k]`:
    /// warm GJK, then EPA on overlapping cores), on all cores, into `out[k]`. 2D and 3D.
    ///
    /// # Panics
    /// As [`Scene::distances`].
    pub fn contacts(
        &self,
        pairs: &[Pair],
        tol: &Tolerances<T>,
        caches: &mut [Cache<T, D>],
        out: &mut [Slot<Contact<T, D>>],
    ) where
        Const<D>: ContactDim<T, D>,
    {
        self.run(pairs, caches, out, |pa, a, pb, b, c| {
            query::contact_with_cache(pa, a, pb, b, tol, c)
        });
    }

    /// Every pair against a margin (as [`query::distance_within_with_cache`] on
    /// `caches[k]`: the early exit at a separating plane beyond `margin`), on all cores,
    /// into `out[k]`.
    ///
    /// # Panics
    /// As [`Scene::distances`].
    pub fn distances_within(
        &self,
        pairs: &[Pair],
        margin: T,
        tol: &Tolerances<T>,
        caches: &mut [Cache<T, D>],
        out: &mut [Slot<Proximity<T, D>>],
    ) {
        self.run(pairs, caches, out, |pa, a, pb, b, c| {
            query::distance_within_with_cache(pa, a, pb, b, margin, tol, c)
        });
    }
}
