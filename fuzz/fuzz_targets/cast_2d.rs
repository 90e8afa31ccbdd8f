//! cast_ray, cast_shapes, time_of_impact, motion_is_free, 2D, f64 / f32 / FixedI40F24
//! (first byte).
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    convex_proximity_fuzz::cast_case::<2>(data);
});
