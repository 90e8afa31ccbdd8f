//! Clipping's per-dimension hooks: the reference face's side planes and the point
//! reduction, for `Const<2>` and `Const<3>`. [`crate::epa::ContactDim`] requires this
//! trait, so that bound alone lets a caller clip.

use super::{Vertex, planes, planes::Plane, reduce, reduce::Candidate};
use crate::Real;
use alloc::vec::Vec;
use nalgebra::{Const, SVector};

/// The dimensions with contact manifolds (not nameable outside the crate).
pub trait ClipDim<T: Real, const D: usize> {
    /// The side planes (inside: `normal·x ≤ offset`) of a reference face with outward
    /// normal `normal`: 2D an edge's two ends, 3D a polygon's edges (docs/clipping.md §2).
    fn side_planes(face: &[Vertex<T, D>], normal: &SVector<T, D>, out: &mut Vec<Plane<T, D>>);

    /// Keeps at most 2 (2D) or 4 (3D) of the clipped points (docs/clipping.md §3).
    fn reduce(points: &mut Vec<Candidate<T, D>>, normal: &SVector<T, D>, slack: T);
}

/// `ClipDim` for `Const<$d>`: side planes by `$planes`, reduction by `$reduce`.
macro_rules! clip_dim {
    ($($d:literal => $planes:path, $reduce:path;)*) => {$(
        impl<T: Real> ClipDim<T, $d> for Const<$d> {
            #[inline]
            fn side_planes(
                face: &[Vertex<T, $d>],
                normal: &SVector<T, $d>,
                out: &mut Vec<Plane<T, $d>>,
            ) {
                $planes(face, normal, out);
            }

            #[inline]
            fn reduce(points: &mut Vec<Candidate<T, $d>>, normal: &SVector<T, $d>, slack: T) {
                $reduce(points, normal, slack);
            }
        }
    )*};
}

clip_dim! {
    2 => planes::edge2, reduce::two;
    3 => planes::polygon3, reduce::four;
}
