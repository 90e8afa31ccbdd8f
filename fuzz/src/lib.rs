//! The fuzz targets' shared code: the harness (also run by `tests/fuzz_sweep.rs` on
//! stable) and the test suite's f64 oracles.

pub mod cast;
#[path = "../../tests/common/mod.rs"]
pub mod common;
pub mod harness;

/// FixedI40F24, the fixed-point scalar the library documents.
pub type Fx = simba::scalar::FixedI40F24;

/// Runs `harness::run_case` for the scalar chosen by the first byte (f64, f32, fixed) and
/// panics on a broken promise (libFuzzer records the input).
pub fn scalar_case<const D: usize>(data: &[u8], manifold: bool)
where
    nalgebra::Const<D>: convex_proximity::Dim
        + convex_proximity::epa::ContactDim<f64, D>
        + convex_proximity::epa::ContactDim<f32, D>
        + convex_proximity::epa::ContactDim<Fx, D>,
    convex_proximity::shape::Cuboid<f64, D>: convex_proximity::clip::FeatureMap<f64, D>,
    convex_proximity::shape::Cuboid<f32, D>: convex_proximity::clip::FeatureMap<f32, D>,
    convex_proximity::shape::Cuboid<Fx, D>: convex_proximity::clip::FeatureMap<Fx, D>,
    convex_proximity::shape::Polytope<f64, D>: convex_proximity::clip::FeatureMap<f64, D>,
    convex_proximity::shape::Polytope<f32, D>: convex_proximity::clip::FeatureMap<f32, D>,
    convex_proximity::shape::Polytope<Fx, D>: convex_proximity::clip::FeatureMap<Fx, D>,
{
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let verdict = match which % 3 {
        0 => harness::run_case::<f64, D>(rest, manifold),
        1 => harness::run_case::<f32, D>(rest, manifold),
        _ => harness::run_case::<Fx, D>(rest, manifold),
    };
    if let Err(msg) = verdict {
        panic!(
            "scalar {}: {msg}",
            ["f64", "f32", "FixedI40F24"][usize::from(which % 3)]
        );
    }
}

/// Runs `cast::run_cast` for the scalar chosen by the first byte (f64, f32, fixed) and
/// panics on a broken promise.
pub fn cast_case<const D: usize>(data: &[u8])
where
    nalgebra::Const<D>: convex_proximity::cast::RotationDim<f64, D>
        + convex_proximity::cast::RotationDim<f32, D>
        + convex_proximity::cast::RotationDim<Fx, D>
        + convex_proximity::epa::ContactDim<f64, D>
        + convex_proximity::epa::ContactDim<f32, D>
        + convex_proximity::epa::ContactDim<Fx, D>,
{
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let verdict = match which % 3 {
        0 => cast::run_cast::<f64, D>(rest),
        1 => cast::run_cast::<f32, D>(rest),
        _ => cast::run_cast::<Fx, D>(rest),
    };
    if let Err(msg) = verdict {
        panic!(
            "scalar {}: {msg}",
            ["f64", "f32", "FixedI40F24"][usize::from(which % 3)]
        );
    }
}
