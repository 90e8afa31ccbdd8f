//! Benches of our queries alone (the side-by-side comparison with parry lives in the
//! `peers` workspace member, which cannot build the `fixed` feature).
//!
//! Cases, each a batch of [`BATCH`] seeded pose pairs per configuration (`separated`: gap
//! 0.5, `close`: gap 1e-3, `overlapping`), shapes of unit size:
//! - `3d_f64`: box–box, ball–capsule, hull32, hull1000; distance and intersection test;
//! - `3d_fixed` (`simba::scalar::FixedI40F24`): box–box, ball–capsule, hull32;
//! - `4d_f64`, `6d_f64`: box–box and ball–box, distance.
//!
//! One measured iteration runs the whole batch: divide by [`BATCH`] for the time per
//! query. Mean GJK iteration counts are printed to stderr before timing (lines `iters`).
//! Run: `cargo bench --bench gjk` (about two minutes).

mod common;
use common::{Iso, SplitMix64, hulls, to_t};
use convex_proximity::{
    Real, Tolerances, lit, query,
    shape::{Ball, Capsule, Cuboid, SupportMap},
};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Const, Point, SVector};
use simba::scalar::FixedI40F24;
use std::hint::black_box;
use std::time::Duration;

const BATCH: usize = 64;
const CONFIGS: [(&str, f64); 3] = [("separated", 0.5), ("close", 1e-3), ("overlapping", 0.0)];
/// The `overlapping` placement: this fraction of the `close` offset.
const OVERLAP_FRACTION: f64 = 0.8;

/// The smallest `t` in `[0, 10]` with `dist(t) >= gap` (bisection).
fn bisect(gap: f64, dist: impl Fn(f64) -> f64) -> f64 {
    common::bisect(0.0, 10.0, |mid| dist(mid) < gap).1
}

/// The batches of the three configurations, placed by bisection on our f64 distance
/// between `a` and `b` along random directions.
fn configs<A, B, const D: usize>(
    rng: &mut SplitMix64,
    a: &A,
    b: &B,
) -> [Vec<(Iso<f64, D>, Iso<f64, D>)>; 3]
where
    Const<D>: convex_proximity::Dim,
    A: SupportMap<f64, D>,
    B: SupportMap<f64, D>,
{
    let tol = Tolerances::default();
    let mut out: [Vec<_>; 3] = Default::default();
    for _ in 0..BATCH {
        let (pa, at) = common::line::<D>(rng);
        let dist = |s: f64| query::distance(&pa, a, &at(s), b, &tol).unwrap().distance;
        let t_sep = bisect(CONFIGS[0].1, dist);
        let t_close = bisect(CONFIGS[1].1, dist);
        out[0].push((pa, at(t_sep)));
        out[1].push((pa, at(t_close)));
        out[2].push((pa, at(OVERLAP_FRACTION * t_close)));
    }
    out
}

// The shapes, written once over the scalar.
fn boxes<T: Real, const D: usize>() -> (Cuboid<T, D>, Cuboid<T, D>) {
    let ha = [1.0, 0.7, 0.5, 0.8, 0.6, 0.9];
    let hb = [0.6, 0.9, 0.4, 0.5, 0.7, 0.8];
    (
        Cuboid::new(SVector::from_fn(|i, _| lit(ha[i]))),
        Cuboid::new(SVector::from_fn(|i, _| lit(hb[i]))),
    )
}
fn ball_capsule<T: Real, const D: usize>() -> (Ball<T>, Capsule<T, D>) {
    let mut e = SVector::<T, D>::zeros();
    e[1] = lit(0.8);
    (
        Ball::new(T::one()),
        Capsule::new(Point::from(-e), Point::from(e), lit(0.4)),
    )
}
fn ball_box<T: Real, const D: usize>() -> (Ball<T>, Cuboid<T, D>) {
    (Ball::new(T::one()), boxes().1)
}

/// Times `distance` (and `intersects` when `with_intersects`) on every configuration.
fn bench_pair<T, A, B, const D: usize>(
    c: &mut Criterion,
    label: &str,
    (a, b): (&A, &B),
    poses: &[Vec<(Iso<f64, D>, Iso<f64, D>)>; 3],
    with_intersects: bool,
) where
    T: Real,
    Const<D>: convex_proximity::Dim,
    A: SupportMap<T, D>,
    B: SupportMap<T, D>,
{
    let tol = Tolerances::<T>::default();
    for ((config, _), batch) in CONFIGS.iter().zip(poses) {
        let batch: Vec<(Iso<T, D>, Iso<T, D>)> =
            batch.iter().map(|(p, q)| (to_t(p), to_t(q))).collect();
        let iters: u64 = batch
            .iter()
            .map(|(p, q)| u64::from(query::distance(p, a, q, b, &tol).unwrap().iterations))
            .sum();
        eprintln!(
            "iters\t{label}/{config}\tdistance={:.2}",
            iters as f64 / batch.len() as f64
        );
        let mut g = c.benchmark_group(format!("{label}/{config}"));
        if label.contains("hull1000") {
            g.sample_size(20);
        } else {
            g.sample_size(30);
        }
        g.bench_function("distance", |bch| {
            bch.iter(|| {
                let mut acc = T::zero();
                for (p, q) in &batch {
                    acc += query::distance(black_box(p), a, black_box(q), b, &tol)
                        .unwrap()
                        .distance;
                }
                acc
            })
        });
        if with_intersects {
            g.bench_function("intersects", |bch| {
                bch.iter(|| {
                    let mut acc = 0u32;
                    for (p, q) in &batch {
                        acc += u32::from(
                            query::intersects(black_box(p), a, black_box(q), b, &tol).unwrap(),
                        );
                    }
                    acc
                })
            });
        }
        g.finish();
    }
}

fn bench_3d(c: &mut Criterion) {
    type F = FixedI40F24;
    let mut rng = SplitMix64(0x5EED_1003);
    let p = configs(&mut rng, &boxes::<f64, 3>().0, &boxes::<f64, 3>().1);
    let (a, b) = boxes::<f64, 3>();
    bench_pair(c, "3d_f64/box_box", (&a, &b), &p, true);
    let (a, b) = boxes::<F, 3>();
    bench_pair(c, "3d_fixed/box_box", (&a, &b), &p, true);

    let (a, b) = ball_capsule::<f64, 3>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/ball_capsule", (&a, &b), &p, true);
    let (a, b) = ball_capsule::<F, 3>();
    bench_pair(c, "3d_fixed/ball_capsule", (&a, &b), &p, true);

    let (a, b) = hulls::<f64, 3>(32, 32);
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/hull32", (&a, &b), &p, true);
    let (a, b) = hulls::<F, 3>(32, 32);
    bench_pair(c, "3d_fixed/hull32", (&a, &b), &p, true);

    let (a, b) = hulls::<f64, 3>(1000, 1000);
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/hull1000", (&a, &b), &p, true);
}

fn bench_nd<const D: usize>(c: &mut Criterion, seed: u64)
where
    Const<D>: convex_proximity::Dim,
{
    let mut rng = SplitMix64(seed);
    let (a, b) = boxes::<f64, D>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, &format!("{D}d_f64/box_box"), (&a, &b), &p, false);
    let (a, b) = ball_box::<f64, D>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, &format!("{D}d_f64/ball_box"), (&a, &b), &p, false);
}

fn bench_4d(c: &mut Criterion) {
    bench_nd::<4>(c, 0x5EED_1004);
}

fn bench_6d(c: &mut Criterion) {
    bench_nd::<6>(c, 0x5EED_1006);
}

criterion_group! {
    name = gjk;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = bench_3d, bench_4d, bench_6d
}
criterion_main!(gjk);
