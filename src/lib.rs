//! # convex-proximity
//!
//! Proximity queries between convex shapes, written once over a generic scalar
//! ([`Real`]: `f32`, `f64`, fixed-point) and a const-generic dimension `D` (1 to 6 for
//! GJK, see [`Dim`]).
//!
//! - [`query::distance`]: distance, closest points, the normal from A to B, proven lower
//!   and upper bounds, iteration count and why GJK stopped.
//! - [`query::intersects`]: the separating-axis GJK (ISA-GJK) with early exit.
//! - [`query::distance_within`]: is the distance above a margin? Stops at the first
//!   separating plane beyond it, else the distance ([`query::Proximity`]).
//! - [`query::contact`]: the signed distance: GJK's answer when apart, EPA's penetration
//!   depth, normal and witnesses when the shapes overlap ([`epa`], docs/epa.md).
//! - [`query::contact_within`]: the signed distance within a prediction distance, else a
//!   proof that the shapes are farther apart ([`query::Predicted`]), as a physics engine
//!   asks it: far pairs stop at the first separating plane.
//! - [`query::manifold`]: contact manifolds of up to 4 points with feature ids, by
//!   reference/incident clipping ([`clip`], docs/clipping.md).
//! - Pairs of balls, boxes and capsules take closed forms and separating-axis tests behind
//!   the same calls (floats, 2D and 3D; docs/pairs.md).
//! - `*_with_cache`: warm starts from the previous simplex of the same pair (distance,
//!   intersection, margin, signed distance: [`query::contact_with_cache`]).
//! - [`shape::Shape`], [`shape::DynFeatureMap`]: mixed collections; [`bound`]: boxes and
//!   balls of posed shapes for a broad phase (docs/collections.md).
//! - [`gjk`]: the same on two support maps already in one frame.
//! - [`query::cast_ray`], [`query::cast_shapes`], [`query::time_of_impact`],
//!   [`query::motion_is_free`]: continuous collision ([`cast`], docs/casts.md).
//!
//! Frames: shapes live in their local frames; queries take `nalgebra::Isometry` poses and
//! return world-frame results, computed internally in A's frame. Units are the user's.
//!
//! Cargo features: `std` (default; off: `no_std` with `alloc`, nalgebra through `libm`,
//! built for `thumbv7em-none-eabihf` in CI; `query::contact`/`query::manifold` then
//! allocate a workspace per call, the `*_with_workspace` variants do not), `fixed`
//! (default; simba's fixed-point scalars, with or without `std`), `serde` (every shape,
//! motion, option and result; reading validates like the constructors), `rayon`
//! (`batch`: many pairs on all cores, each with its own warm cache), `bvh` (posed shapes
//! in the `bvh` crate's tree: `bound::BvhEntry`, `bound::overlaps`; f32/f64).
//!
//! Algorithms: GJK (van den Bergen 1999) with the signed-volumes subalgorithm for `D ≤ 3`
//! (Montanari, Petrinic, Barbieri 2017) and Johnson's with cached determinants above, the
//! separating-axis early exit, warm starts; EPA (van den Bergen 2001); clipping as in
//! Box2D; rounded shapes (balls, capsules, [`shape::Rounded`]) run on their cores. The
//! layers and a query's data flow: `docs/architecture.md`; the sources:
//! `docs/references.md`; the tolerances: `docs/tolerances.md`.
//!
//! ```
//! use convex_proximity::{Tolerances, query, shape::{Ball, Cuboid}};
//! use nalgebra::{Isometry2, Isometry3, Vector2, Vector3};
//!
//! let tol = Tolerances::default();
//! // 3D, f64
//! let d = query::distance(&Isometry3::identity(), &Cuboid::new(Vector3::new(1.0f64, 1.0, 1.0)),
//!                         &Isometry3::translation(0.0, 4.0, 0.0), &Ball::new(1.0), &tol).unwrap();
//! assert!((d.distance - 2.0).abs() < 1e-12 && d.termination.is_converged());
//! // 2D, f32: the same call
//! let d = query::distance(&Isometry2::identity(), &Cuboid::new(Vector2::new(1.0f32, 1.0)),
//!                         &Isometry2::translation(0.0, 4.0), &Ball::new(1.0f32),
//!                         &Tolerances::default()).unwrap();
//! assert!((d.distance - 2.0).abs() < 1e-5);
//! ```
// `no_std` without the `std` feature; unit tests always link `std` (the harness needs it).
#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![deny(missing_docs)]
// `!(x > 0)` is deliberate throughout: NaN must fail the test.
#![allow(clippy::neg_cmp_op_on_partial_ord)]
// Simplex loops walk bitmasks over slots that index several parallel arrays.
#![allow(clippy::needless_range_loop)]

#[cfg_attr(not(feature = "std"), macro_use)]
extern crate alloc;

#[cfg(feature = "rayon")]
pub mod batch;
pub mod bound;
pub mod cast;
pub mod clip;
mod dim;
pub mod epa;
mod error;
pub mod gjk;
mod input;
mod linalg;
mod pair;
mod pose;
pub mod query;
mod real;
mod scratch;
#[cfg(feature = "serde")]
mod serial;
pub mod shape;
mod tolerance;
pub mod trace;

pub use dim::{Dim, MAX_DIM};
pub use error::{QueryError, ShapeError};
pub use gjk::{Distance, Intersection, Termination};
pub use pose::PoseRotation;
pub use query::{
    Contact2, Contact3, Distance2, Distance3, Intersection2, Intersection3, Manifold2, Manifold3,
    PosedPair, Proximity2, Proximity3,
};
pub use real::{Real, lit, norm, normalize};
pub use tolerance::{Acceleration, Criterion, Subalgorithm, Tolerances};

/// The README's quick start, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
