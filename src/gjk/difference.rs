//! The cores' Minkowski difference `A − B` of two shapes in one frame: what GJK and EPA
//! query (van den Bergen 1999 §3; docs/gjk.md §1). One bound, [`Difference`], stands for
//! the pair of shapes in every signature of the two algorithms.

use super::SupportPoint;
use crate::{Real, shape::SupportMap};
use nalgebra::SVector;

/// The support mapping of the cores' `A − B` (public in a private module: a bound of the
/// sealed [`crate::epa::ContactDim`], not nameable outside the crate).
pub trait Difference<T: Real, const D: usize>: Copy {
    /// The support point of `A − B` along `d`: `s_A(d) − s_B(−d)`, with its witnesses.
    fn support(&self, d: &SVector<T, D>) -> SupportPoint<T, D>;
    /// The shapes' centres: their difference is a point of `A − B`.
    fn centres(&self) -> SupportPoint<T, D>;
    /// A's rounding radius ([`SupportMap::radius`]).
    fn radius_a(&self) -> T;
    /// B's rounding radius.
    fn radius_b(&self) -> T;
}

/// The cores of two shapes in one frame.
#[derive(Debug)]
pub(crate) struct Cores<'s, A: ?Sized, B: ?Sized> {
    pub(crate) a: &'s A,
    pub(crate) b: &'s B,
}

impl<A: ?Sized, B: ?Sized> Clone for Cores<'_, A, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<A: ?Sized, B: ?Sized> Copy for Cores<'_, A, B> {}

impl<T, const D: usize, A, B> Difference<T, D> for Cores<'_, A, B>
where
    T: Real,
    A: SupportMap<T, D> + ?Sized,
    B: SupportMap<T, D> + ?Sized,
{
    #[inline(always)]
    fn support(&self, d: &SVector<T, D>) -> SupportPoint<T, D> {
        SupportPoint::new(self.a.core_support(d), self.b.core_support(&-d))
    }
    #[inline(always)]
    fn centres(&self) -> SupportPoint<T, D> {
        SupportPoint::new(self.a.center(), self.b.center())
    }
    #[inline(always)]
    fn radius_a(&self) -> T {
        self.a.radius()
    }
    #[inline(always)]
    fn radius_b(&self) -> T {
        self.b.radius()
    }
}
