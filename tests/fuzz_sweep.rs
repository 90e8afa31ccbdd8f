//! The fuzz harness (`fuzz/src/harness.rs`) on seeded random bytes, for machines without
//! nightly: the same shapes, poses, tolerances and assertions as the `cargo fuzz` targets
//! (docs/testing.md). Long: behind `#[ignore]`, run in release:
//!
//! ```sh
//! cargo test --release --test fuzz_sweep -- --ignored
//! ```
//!
//! `FUZZ_SWEEP_CASES` sets the cases per target and scalar (default 20 000),
//! `FUZZ_SWEEP_SEED` the first seed, `FUZZ_SWEEP_TRACE` prints each seed before it runs. Failures are collected and printed with their seed
//! and bytes, then the test fails.
#![allow(clippy::excessive_precision)]

#[path = "../fuzz/src/cast.rs"]
mod cast;
mod common;
#[path = "../fuzz/src/harness.rs"]
mod harness;

use common::splitmix;
use convex_proximity::{
    Real,
    clip::FeatureMap,
    epa::ContactDim,
    shape::{Cuboid, Polytope},
};
use nalgebra::Const;

fn cases() -> u64 {
    std::env::var("FUZZ_SWEEP_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000)
}

fn first_seed() -> u64 {
    std::env::var("FUZZ_SWEEP_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// `8 · words` random bytes per case from splitmix64 (seeded by `seed`): 160 for the
/// pair queries, 320 for the casts (two shapes, three poses and the motions).
fn bytes(seed: u64, words: usize) -> Vec<u8> {
    let mut s = seed;
    (0..words)
        .flat_map(|_| splitmix::next_u64(&mut s).to_le_bytes())
        .collect()
}

/// Runs `run` on the seeds' bytes; a failure is printed with its seed and, when `describe`
/// is given, the case it decodes to (shapes, poses, tolerances).
fn sweep(
    name: &str,
    words: usize,
    run: impl Fn(&[u8]) -> harness::Verdict + std::panic::RefUnwindSafe,
    describe: Option<fn(&[u8]) -> String>,
) {
    let mut failures = Vec::new();
    let n = cases();
    // `FUZZ_SWEEP_TRACE=1`: each seed printed before it runs (the last one names a hang).
    let trace = std::env::var_os("FUZZ_SWEEP_TRACE").is_some();
    let t0 = std::time::Instant::now();
    for seed in first_seed()..first_seed() + n {
        let data = bytes(seed, words);
        if trace {
            eprintln!("{name} seed {seed}");
        }
        let r = std::panic::catch_unwind(|| run(&data));
        match r {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => {
                let case = describe.map_or_else(String::new, |d| format!("\n{}", d(&data)));
                failures.push(format!("{name} seed {seed}: {msg}{case}"));
            }
            Err(_) => failures.push(format!("{name} seed {seed}: panic, bytes {data:?}")),
        }
    }
    eprintln!(
        "{name}: {n} cases in {:.1?}, {} failures",
        t0.elapsed(),
        failures.len()
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}\n");
    }
    assert!(failures.is_empty(), "{name}: {} failures", failures.len());
}

fn queries<T: Real, const D: usize>(name: &str, manifold: bool)
where
    Const<D>: convex_proximity::Dim + ContactDim<T, D> + ContactDim<f64, D>,
    Cuboid<T, D>: FeatureMap<T, D>,
    Polytope<T, D>: FeatureMap<T, D>,
{
    sweep(
        name,
        20,
        |d| harness::run_case::<T, D>(d, manifold),
        Some(harness::describe::<D>),
    );
}

macro_rules! sweeps {
    ($($name:ident: $t:ty, $d:literal, $m:literal;)*) => {$(
        #[test]
        #[ignore]
        fn $name() {
            queries::<$t, $d>(stringify!($name), $m);
        }
    )*};
}

sweeps! {
    query_2d_f64: f64, 2, false;
    query_3d_f64: f64, 3, false;
    query_2d_f32: f32, 2, false;
    query_3d_f32: f32, 3, false;
    manifold_2d_f64: f64, 2, true;
    manifold_3d_f64: f64, 3, true;
    manifold_2d_f32: f32, 2, true;
    manifold_3d_f32: f32, 3, true;
}

#[cfg(feature = "fixed")]
sweeps! {
    query_2d_fixed: common::Fx, 2, false;
    query_3d_fixed: common::Fx, 3, false;
    manifold_2d_fixed: common::Fx, 2, true;
    manifold_3d_fixed: common::Fx, 3, true;
}

fn casts<T: Real, const D: usize>(name: &str)
where
    Const<D>: convex_proximity::cast::RotationDim<T, D> + ContactDim<T, D> + ContactDim<f64, D>,
{
    sweep(name, 40, cast::run_cast::<T, D>, None);
}

macro_rules! cast_sweeps {
    ($($name:ident: $t:ty, $d:literal;)*) => {$(
        #[test]
        #[ignore]
        fn $name() {
            casts::<$t, $d>(stringify!($name));
        }
    )*};
}

cast_sweeps! {
    cast_2d_f64: f64, 2;
    cast_3d_f64: f64, 3;
    cast_2d_f32: f32, 2;
    cast_3d_f32: f32, 3;
}

#[cfg(feature = "fixed")]
cast_sweeps! {
    cast_2d_fixed: common::Fx, 2;
    cast_3d_fixed: common::Fx, 3;
}

#[test]
#[ignore]
fn polytope_try_new() {
    sweep("polytope 2d f64", 20, harness::run_polytope::<f64, 2>, None);
    sweep("polytope 3d f64", 20, harness::run_polytope::<f64, 3>, None);
    sweep("polytope 3d f32", 20, harness::run_polytope::<f32, 3>, None);
}

/// Prints what a fuzz artifact decodes to, and the verdict of the harness on it:
/// `FUZZ_REPLAY=path FUZZ_DIM=2|3 [FUZZ_MANIFOLD=1] cargo test --release --features fixed
/// --test fuzz_sweep replay -- --ignored --nocapture` (the file's first byte picks the
/// scalar: 0 f64, 1 f32, 2 FixedI40F24, modulo 3; `FUZZ_MANIFOLD=1` for the `manifold_*`
/// targets, `FUZZ_CAST=1` for the `cast_*` ones).
#[cfg(feature = "fixed")]
#[test]
#[ignore]
fn replay() {
    let Ok(path) = std::env::var("FUZZ_REPLAY") else {
        return;
    };
    let data = std::fs::read(path).expect("artifact");
    let (which, rest) = data.split_first().expect("non-empty");
    let manifold = std::env::var("FUZZ_MANIFOLD").is_ok_and(|v| v == "1");
    if std::env::var("FUZZ_CAST").is_ok_and(|v| v == "1") {
        let two = std::env::var("FUZZ_DIM").is_ok_and(|d| d == "2");
        let verdict = match (which % 3, two) {
            (0, true) => cast::run_cast::<f64, 2>(rest),
            (1, true) => cast::run_cast::<f32, 2>(rest),
            (_, true) => cast::run_cast::<common::Fx, 2>(rest),
            (0, false) => cast::run_cast::<f64, 3>(rest),
            (1, false) => cast::run_cast::<f32, 3>(rest),
            (_, false) => cast::run_cast::<common::Fx, 3>(rest),
        };
        println!("verdict {verdict:?}");
        return;
    }
    println!(
        "scalar {}",
        ["f64", "f32", "FixedI40F24"][usize::from(which % 3)]
    );
    if std::env::var("FUZZ_DIM").is_ok_and(|d| d == "2") {
        println!("{}", harness::describe::<2>(rest));
        println!("verdict {:?}", replay_case::<2>(*which, rest, manifold));
    } else {
        println!("{}", harness::describe::<3>(rest));
        println!("verdict {:?}", replay_case::<3>(*which, rest, manifold));
    }
}

/// The harness's verdict on one case, in the scalar `which` picks.
#[cfg(feature = "fixed")]
fn replay_case<const D: usize>(which: u8, rest: &[u8], manifold: bool) -> harness::Verdict
where
    Const<D>:
        convex_proximity::Dim + ContactDim<f64, D> + ContactDim<f32, D> + ContactDim<common::Fx, D>,
    Cuboid<f64, D>: FeatureMap<f64, D>,
    Cuboid<f32, D>: FeatureMap<f32, D>,
    Cuboid<common::Fx, D>: FeatureMap<common::Fx, D>,
    Polytope<f64, D>: FeatureMap<f64, D>,
    Polytope<f32, D>: FeatureMap<f32, D>,
    Polytope<common::Fx, D>: FeatureMap<common::Fx, D>,
{
    match which % 3 {
        0 => harness::run_case::<f64, D>(rest, manifold),
        1 => harness::run_case::<f32, D>(rest, manifold),
        _ => harness::run_case::<common::Fx, D>(rest, manifold),
    }
}
