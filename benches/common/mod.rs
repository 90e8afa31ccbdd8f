//! Shared by our benches: the seeded input generator, the f64 placements along a random
//! line, the bisection that sets them, and the conversion of the f64 poses to a scalar.
#![allow(dead_code)]

use convex_proximity::{Real, lit, shape::Polytope};
use nalgebra::{Isometry, Point, Rotation, SMatrix, SVector, Translation};

/// A pose as the benches store it: a rotation matrix and a translation.
pub type Iso<T, const D: usize> = Isometry<T, Rotation<T, D>, D>;

/// An f64 pose in scalar `T`.
pub fn to_t<T: Real, const D: usize>(p: &Iso<f64, D>) -> Iso<T, D> {
    Iso::from_parts(
        Translation::from(p.translation.vector.map(lit::<T>)),
        Rotation::from_matrix_unchecked(p.rotation.matrix().map(lit::<T>)),
    )
}

include!("bisect.rs");

/// A random placement of B relative to A: A's pose (translation in `[-3, 3)^D`, random
/// rotation), then B's rotation and a unit direction `u`, drawn in that order; B's pose
/// at offset `s` from A's centre along `u` is `at(s)`.
pub fn line<const D: usize>(rng: &mut SplitMix64) -> (Iso<f64, D>, impl Fn(f64) -> Iso<f64, D>) {
    let pa = Iso::from_parts(
        Translation::from(SVector::from_fn(|_, _| rng.range(-3.0, 3.0))),
        rng.rotation(),
    );
    let rb = rng.rotation();
    let u = rng.unit_vec::<D>();
    let at = move |s: f64| Iso::from_parts(Translation::from(pa.translation.vector + u * s), rb);
    (pa, at)
}

/// Two hulls of `n` points each, uniform on the unit sphere (seeded by `seed`).
pub fn hulls<T: Real, const D: usize>(n: usize, seed: u64) -> (Polytope<T, D>, Polytope<T, D>) {
    let mut rng = SplitMix64(seed);
    let mut cloud = || {
        Polytope::try_new(
            (0..n)
                .map(|_| Point::from(rng.unit_vec::<D>().map(lit::<T>)))
                .collect(),
        )
        .unwrap()
    };
    (cloud(), cloud())
}

#[path = "../../tests/common/splitmix.rs"]
mod splitmix;

/// splitmix64: tiny and deterministic.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        splitmix::next_u64(&mut self.0)
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        splitmix::uniform(&mut self.0, lo, hi)
    }
    pub fn unit_vec<const D: usize>(&mut self) -> SVector<f64, D> {
        loop {
            let v = SVector::<f64, D>::from_fn(|_, _| self.range(-1.0, 1.0));
            let n = v.norm();
            if n > 1e-2 && n <= 1.0 {
                return v / n;
            }
        }
    }
    /// A random rotation: Gram–Schmidt on random unit columns, det forced to +1.
    pub fn rotation<const D: usize>(&mut self) -> Rotation<f64, D> {
        let mut q = SMatrix::<f64, D, D>::zeros();
        let mut k = 0;
        while k < D {
            let mut v = self.unit_vec::<D>();
            for j in 0..k {
                let proj = q.column(j).dot(&v);
                v -= q.column(j) * proj;
            }
            let n = v.norm();
            if n > 1e-3 {
                q.set_column(k, &(v / n));
                k += 1;
            }
        }
        if nalgebra::DMatrix::from_column_slice(D, D, q.as_slice()).determinant() < 0.0 {
            q.column_mut(0).neg_mut();
        }
        Rotation::from_matrix_unchecked(q)
    }
}
