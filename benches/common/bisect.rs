// The benches' bisection, shared with the peers' benches (`peers/benches/common`, through `include!`).

/// 64 halvings of `[lo, hi]`, keeping the half where `below(mid)` holds on the low side:
/// the final `(lo, hi)`.
pub fn bisect(mut lo: f64, mut hi: f64, below: impl Fn(f64) -> bool) -> (f64, f64) {
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo, hi)
}
