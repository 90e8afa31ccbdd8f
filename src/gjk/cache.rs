//! Warm starts between queries on a moving pair (frame coherence, van den Bergen 1999 §5).

use super::{Simplex, SupportPoint};
use crate::{Real, dim::Dim};
use nalgebra::{Const, Point, SVector};

/// What one query leaves for the next on the same pair: the directions (in A's local
/// frame) along which the final simplex's vertices were support points. The next query
/// re-evaluates the supports of the shapes *as they are now* along these directions, so
/// its first simplex is made of points of the current `A − B` near the answer, however far
/// the pair moved, and GJK needs fewer support evaluations. A cache reused for another
/// pair only costs speed: every vertex is re-derived from the current shapes, so the
/// bounds are proven for the current pair (docs/gjk.md §4).
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
    dirs: <Const<D> as Dim>::Slots<SVector<T, D>>,
    len: usize,
}

impl<T: Real, const D: usize> core::fmt::Debug for Cache<T, D>
where
    Const<D>: Dim,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list()
            .entries(&self.dirs.as_ref()[..self.len])
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
            dirs: <Const<D> as Dim>::slots(SVector::zeros()),
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

    /// A simplex holding the stored directions; GJK derives its vertices from the current
    /// shapes before using it ([`Simplex::rederive`]).
    pub(crate) fn seed(&self) -> Simplex<T, D> {
        let mut s = Simplex::new();
        let zero = SupportPoint::new(Point::origin(), Point::origin());
        for d in &self.dirs.as_ref()[..self.len] {
            s.push_raw(zero, *d);
        }
        s
    }

    /// Stores the directions of `simplex`'s vertices (in A's frame).
    pub(crate) fn store(&mut self, simplex: &Simplex<T, D>) {
        self.len = 0;
        for (_, d) in simplex.points_with_dirs() {
            self.dirs.as_mut()[self.len] = *d;
            self.len += 1;
        }
    }
}
