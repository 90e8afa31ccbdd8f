//! `serde` support (cargo feature `serde`): `Serialize` and `Deserialize` for the shapes
//! (every shape of [`crate::shape`] and the [`Shape`](crate::shape::Shape) enum), the
//! motions ([`Ray`](crate::cast::Ray), [`LinearMotion`](crate::cast::LinearMotion),
//! [`RigidMotion`](crate::cast::RigidMotion)), the options ([`Tolerances`](crate::Tolerances),
//! [`CastOptions`](crate::cast::CastOptions)), the bounding volumes and every result type.
//! Poses are nalgebra's own types, serialized by nalgebra (`serde-serialize-no-std`, on
//! with this feature); fixed-point scalars are written as their bits (simba's and the
//! `fixed` crate's serde support), so a value reads back bit for bit.
//!
//! Reading checks like the constructors: a shape goes through its `try_new`, a motion
//! through the rigidity check the casts make, options through their `validate`, an
//! [`Aabb`](crate::bound::Aabb) through `min ≤ max`. Invalid input is a serde error, never
//! an invalid value. Results are read as written (they are records of an answer).
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use convex_proximity::shape::{Ball, Cuboid, Shape};
//! use nalgebra::Vector3;
//! let scene: Vec<Shape<f64, 3>> = vec![Ball::new(0.5).into(), Cuboid::new(Vector3::new(1.0, 2.0, 3.0)).into()];
//! let json = serde_json::to_string(&scene).unwrap();
//! assert!(json.starts_with(r#"[{"Ball":{"radius":0.5}}"#));
//! let back: Vec<Shape<f64, 3>> = serde_json::from_str(&json).unwrap();
//! assert_eq!(back, scene);
//! // A negative radius is rejected as `Ball::try_new` rejects it.
//! assert!(serde_json::from_str::<Shape<f64, 3>>(r#"{"Ball":{"radius":-1.0}}"#).is_err());
//! # }
//! ```

mod results;
mod shapes;
pub(crate) use shapes::arc;

use core::fmt::Display;

/// A constructor's or validator's error as a serde error.
fn check<X, E: Display, Er: serde::de::Error>(r: Result<X, E>) -> Result<X, Er> {
    r.map_err(Er::custom)
}
