//! The traced queries ([`crate::trace`]): GJK's (and EPA's) iterations reported to an
//! observer. They run GJK on every pair, without the pair fast paths (closed forms for
//! balls, boxes and capsules), like the `*_with_cache` variants: their answers are those
//! of [`distance_with_cache`](super::distance_with_cache) with a fresh cache, bit for bit
//! (and of [`distance`](super::distance) on pairs without a closed form).

use super::Contact;
use crate::{
    dim::Dim,
    epa::ContactDim,
    gjk::{Distance, Intersection},
    shape::SupportMap,
    trace::Observer,
};

posed_query! {
    /// [`distance`](super::distance), reporting GJK's iterations to `trace` (a
    /// [`crate::trace::Trace`], or any [`Observer`]): each support point, simplex and bound,
    /// in A's local frame.
    ///
    /// Runs GJK also on the pairs [`distance`](super::distance) answers in closed form: the
    /// result is [`distance_with_cache`](super::distance_with_cache)'s with a fresh cache, bit
    /// for bit.
    ///
    /// # Errors
    /// As [`distance`](super::distance).
    ///
    /// ```
    /// use convex_proximity::{Tolerances, query, shape::Cuboid, trace::Trace};
    /// use nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
    /// let tol = Tolerances::default();
    /// let (cube, mut trace) = (Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0)), Trace::new());
    /// let d = query::distance_traced(&Isometry3::identity(), &cube,
    ///                                &Isometry3::new(Vector3::new(3.0, 0.5, 0.0), Vector3::new(0.0, 0.0, 0.3)), &cube,
    ///                                &tol, &mut trace).unwrap();
    /// assert_eq!(trace.gjk.len() as u32, d.iterations);
    /// // 2D, f32: the same call.
    /// let square = Cuboid::new(Vector2::new(1.0f32, 1.0));
    /// let mut trace = Trace::new();
    /// let d = query::distance_traced(&Isometry2::identity(), &square,
    ///                                &Isometry2::new(Vector2::new(3.0, 0.5), 0.3), &square,
    ///                                &Tolerances::default(), &mut trace).unwrap();
    /// assert_eq!(trace.gjk_end.unwrap().termination, d.termination);
    /// ```
    pub fn distance_traced<O: Observer<T, D>>(&tol, trace: &mut O) -> Distance<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`intersection`](super::intersection), reporting GJK's iterations to `trace` (A's
    /// local frame). Its result is [`intersection`](super::intersection)'s, bit for bit.
    ///
    /// # Errors
    /// As [`distance`](super::distance).
    ///
    /// ```
    /// use convex_proximity::{Termination, Tolerances, query, shape::{Ball, Cuboid}, trace::Trace};
    /// use nalgebra::{Isometry2, Vector2};
    /// let (a, b, mut trace) = (Cuboid::new(Vector2::new(1.0, 1.0)), Ball::new(0.5), Trace::new());
    /// let hit = query::intersection_traced(&Isometry2::identity(), &a, &Isometry2::translation(1.6, 0.0), &b,
    ///                                      &Tolerances::default(), &mut trace).unwrap();
    /// assert!(!hit.intersects && hit.termination == Termination::SeparatingAxis);
    /// // The last support point's plane bound proved the shapes apart.
    /// assert!(trace.gjk.last().unwrap().support.lower > 0.5f64);
    /// ```
    pub fn intersection_traced<O: Observer<T, D>>(&tol, trace: &mut O) -> Intersection<T, D>
        where Const<D>: Dim, shapes: SupportMap;
}

posed_query! {
    /// [`contact`](super::contact), reporting GJK's and (for overlapping cores) EPA's
    /// iterations to `trace` (A's local frame, the cores).
    ///
    /// Runs GJK and EPA also on the pairs [`contact`](super::contact) answers in closed form:
    /// the result is [`contact_with_cache`](super::contact_with_cache)'s with a fresh cache,
    /// bit for bit.
    ///
    /// # Errors
    /// As [`distance`](super::distance).
    ///
    /// ```
    /// use convex_proximity::{Tolerances, query, shape::Cuboid, trace::Trace};
    /// use nalgebra::{Isometry2, Vector2};
    /// let (square, mut trace) = (Cuboid::new(Vector2::new(1.0f64, 1.0)), Trace::new());
    /// let c = query::contact_traced(&Isometry2::identity(), &square,
    ///                               &Isometry2::new(Vector2::new(1.5, 0.2), 0.3), &square,
    ///                               &Tolerances::default(), &mut trace).unwrap();
    /// let (gjk, epa) = (trace.gjk_end.unwrap(), trace.epa_end.unwrap());
    /// assert_eq!(c.iterations, gjk.iterations + epa.iterations);
    /// assert_eq!(c.separation, epa.separation);
    /// ```
    pub fn contact_traced<O: Observer<T, D>>(&tol, trace: &mut O) -> Contact<T, D>
        where Const<D>: ContactDim<T, D>, shapes: SupportMap;
}
