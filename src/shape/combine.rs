//! Shapes made of two shapes: the Minkowski sum and the convex hull.

use super::{SupportMap, push};
use crate::Real;
use nalgebra::{Point, SVector};

/// `A ⊕ B = {a + b}`: `s(d) = s_A(d) + s_B(d)`. The round parts add up, so a sum of two
/// rounded shapes is itself rounded.
///
/// ```
/// use convex_proximity::shape::{Ball, Cuboid, MinkowskiSum, SupportMap};
/// use nalgebra::Vector2;
/// let rounded_box = MinkowskiSum::new(Cuboid::new(Vector2::new(1.0, 1.0)), Ball::new(0.5));
/// assert_eq!(rounded_box.support(&Vector2::new(0.0, 1.0)).y, 1.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MinkowskiSum<A, B> {
    /// The first summand.
    pub a: A,
    /// The second summand.
    pub b: B,
}

impl<A, B> MinkowskiSum<A, B> {
    /// `a ⊕ b`.
    #[must_use]
    pub fn new(a: A, b: B) -> Self {
        Self { a, b }
    }
}

impl<T: Real, const D: usize, A: SupportMap<T, D>, B: SupportMap<T, D>> SupportMap<T, D>
    for MinkowskiSum<A, B>
{
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.a.support(dir) + self.b.support(dir).coords
    }
    #[inline]
    fn radius(&self) -> T {
        self.a.radius() + self.b.radius()
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        self.a.core_support(dir) + self.b.core_support(dir).coords
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        self.a.center() + self.b.center().coords
    }
    #[inline]
    fn validate(&self) -> Result<(), crate::ShapeError> {
        self.a.validate()?;
        self.b.validate()
    }
    fn extent(&self) -> f64 {
        self.a.extent() + self.b.extent()
    }
}

/// `conv(A ∪ B)`: `s(d)` is whichever of `s_A(d)`, `s_B(d)` lies farther along `d`.
///
/// Its radius is the smaller of the two: `conv((A'⊕r₁) ∪ (B'⊕r₂)) =
/// conv((A'⊕(r₁−r₂)) ∪ B') ⊕ r₂` for `r₁ ≥ r₂`, so the hull of two balls is a capsule and
/// GJK still runs on a core.
///
/// ```
/// use convex_proximity::shape::{Ball, Hull, SupportMap, Transformed};
/// use nalgebra::{Matrix2, Vector2};
/// let a = Transformed::new(Ball::new(1.0), Matrix2::identity(), Vector2::new(-2.0, 0.0));
/// let b = Transformed::new(Ball::new(1.0), Matrix2::identity(), Vector2::new(2.0, 0.0));
/// let stadium = Hull::new(a, b);
/// assert_eq!(stadium.support(&Vector2::new(1.0, 0.0)).x, 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hull<A, B> {
    /// The first shape.
    pub a: A,
    /// The second shape.
    pub b: B,
}

impl<A, B> Hull<A, B> {
    /// `conv(a ∪ b)`.
    #[must_use]
    pub fn new(a: A, b: B) -> Self {
        Self { a, b }
    }
}

/// The point of `p`, `q` farther along `d` (`p` on a tie).
#[inline]
fn farther<T: Real, const D: usize>(
    p: Point<T, D>,
    q: Point<T, D>,
    d: &SVector<T, D>,
) -> Point<T, D> {
    if d.dot(&q.coords) > d.dot(&p.coords) {
        q
    } else {
        p
    }
}

impl<T: Real, const D: usize, A: SupportMap<T, D>, B: SupportMap<T, D>> SupportMap<T, D>
    for Hull<A, B>
{
    #[inline]
    fn support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        farther(self.a.support(dir), self.b.support(dir), dir)
    }
    #[inline]
    fn radius(&self) -> T {
        let (ra, rb) = (self.a.radius(), self.b.radius());
        if ra < rb { ra } else { rb }
    }
    #[inline]
    fn core_support(&self, dir: &SVector<T, D>) -> Point<T, D> {
        let r = SupportMap::<T, D>::radius(self);
        let pa = push(self.a.core_support(dir), self.a.radius() - r, dir);
        let pb = push(self.b.core_support(dir), self.b.radius() - r, dir);
        farther(pa, pb, dir)
    }
    #[inline]
    fn center(&self) -> Point<T, D> {
        nalgebra::center(&self.a.center(), &self.b.center())
    }
    #[inline]
    fn validate(&self) -> Result<(), crate::ShapeError> {
        self.a.validate()?;
        self.b.validate()
    }
    fn extent(&self) -> f64 {
        self.a.extent().max(self.b.extent())
    }
}
