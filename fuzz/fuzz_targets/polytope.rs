//! `Polytope::try_new`: 2D or 3D, f64 / f32 / FixedI40F24 (first byte).
#![no_main]
use convex_proximity_fuzz::{Fx, harness::run_polytope};
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let verdict = match which % 6 {
        0 => run_polytope::<f64, 2>(rest),
        1 => run_polytope::<f32, 2>(rest),
        2 => run_polytope::<Fx, 2>(rest),
        3 => run_polytope::<f64, 3>(rest),
        4 => run_polytope::<f32, 3>(rest),
        _ => run_polytope::<Fx, 3>(rest),
    };
    if let Err(msg) = verdict {
        panic!("{msg}");
    }
});
