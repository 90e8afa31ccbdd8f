//! Warm starts between queries on a moving pair (frame coherence, van den Bergen 1999 §5).

use super::{Simplex, SupportPoint};
use crate::{Real, dim::Dim};
use nalgebra::{AbstractRotation, Const, Isometry, Point};

/// What one query leaves for the next on the same pair: the final simplex, stored as
/// pairs of witness points in each shape's *local* frame. Points of the shapes stay points
/// of the shapes under any motion, so the next query restarts from a valid simplex near
/// the answer, however far the pair moved; GJK then needs fewer support evaluations.
///
/// ```
/// use convex_proximity::{Tolerances, query, gjk::Cache, shape::Cuboid};
/// use nalgebra::{Isometry3, Vector3};
/// let (a, b) = (Cuboid::new(Vector3::new(1.0, 1.0, 1.0)), Cuboid::new(Vector3::new(0.5, 0.5, 0.5)));
/// let mut cache = Cache::new();
/// let tol = Tolerances::default();
/// for step in 0..10 {
///     let pose_b = Isometry3::new(Vector3::new(3.0, 0.01 * step as f64, 0.0), Vector3::y() * 0.01);
///     let d = query::distance_with_cache(&Isometry3::identity(), &a, &pose_b, &b, &tol, &mut cache).unwrap();
///     assert!(d.distance > 1.0);
/// }
/// ```
#[derive(Clone, Copy)]
pub struct Cache<T: Real, const D: usize>
where
    Const<D>: Dim,
{
    pairs: <Const<D> as Dim>::Slots<(Point<T, D>, Point<T, D>)>,
    len: usize,
}

impl<T: Real, const D: usize> core::fmt::Debug for Cache<T, D>
where
    Const<D>: Dim,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(&self.pairs.as_ref()[..self.len])
            .finish()
    }
}

impl<T: Real, const D: usize> Default for Cache<T, D>
where
    Const<D>: Dim,
{
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Real, const D: usize> Cache<T, D>
where
    Const<D>: Dim,
{
    /// An empty cache: the first query starts cold.
    #[must_use]
    pub fn new() -> Self {
        Self {
            pairs: <Const<D> as Dim>::slots((Point::origin(), Point::origin())),
            len: 0,
        }
    }

    /// Forgets the stored simplex.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether a simplex is stored.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The stored simplex rebuilt in A's frame, B placed by `rel` (B's pose in A's frame).
    pub(crate) fn seed<R: AbstractRotation<T, D>>(&self, rel: &Isometry<T, R, D>) -> Simplex<T, D> {
        let mut pts =
            [SupportPoint::new(Point::origin(), Point::origin()); crate::dim::MAX_DIM + 1];
        for (p, (a, b)) in pts.iter_mut().zip(&self.pairs.as_ref()[..self.len]) {
            *p = SupportPoint::new(*a, rel.transform_point(b));
        }
        let mut s = Simplex::new();
        for p in &pts[..self.len] {
            s.push(*p, None);
        }
        s
    }

    /// Stores `simplex` (in A's frame, B placed by `rel`).
    pub(crate) fn store<R: AbstractRotation<T, D>>(
        &mut self,
        simplex: &Simplex<T, D>,
        rel: &Isometry<T, R, D>,
    ) {
        self.len = 0;
        for p in simplex.points() {
            self.pairs.as_mut()[self.len] = (p.a, rel.inverse_transform_point(&p.b));
            self.len += 1;
        }
    }
}
