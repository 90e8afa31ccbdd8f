//! splitmix64 (Steele, Lea, Flood 2014): the seeded generator behind every test and bench
//! input (`tests/common`, `benches/common`, `peers/benches/common` and
//! `examples/experiments` include this file).

/// Advances `state` and returns the next 64 random bits.
pub fn next_u64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in `[lo, hi)`, from 53 random bits.
pub fn uniform(state: &mut u64, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * ((next_u64(state) >> 11) as f64 / (1u64 << 53) as f64)
}
