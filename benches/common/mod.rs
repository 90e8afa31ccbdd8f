//! Shared by our benches: the seeded input generator.
#![allow(dead_code)]

use nalgebra::{Rotation, SMatrix, SVector};

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
