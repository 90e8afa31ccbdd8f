//! Benches of our signed-distance `contact` query (GJK + EPA) alone, on overlapping pairs
//! (the side-by-side comparison with parry lives in `peers/benches/peers_epa.rs`, which
//! cannot build the `fixed` feature).
//!
//! Cases, each a batch of [`BATCH`] seeded pose pairs per configuration (`shallow`: B at
//! 0.95 of the centre offset where the shapes first touch, `deep`: at 0.5 of it), shapes
//! of unit size, one EPA workspace reused over the batch:
//! - `3d_f64` and `3d_fixed` (`simba::scalar::FixedI40F24`): box–box, capsule–capsule,
//!   hull32 (32 points on the unit sphere);
//! - `2d_f64` and `2d_fixed`: box–box.
//!
//! One measured iteration runs the whole batch: divide by [`BATCH`] for the time per
//! query. Mean iterations (GJK + EPA support evaluations) are printed to stderr before
//! timing (lines `epa`). Run: `cargo bench --bench epa` (about a minute).

// `!(x < 0)` is deliberate: a NaN separation must count as "not penetrating".
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod common;
use common::{Iso, SplitMix64, hulls, to_t};
use convex_proximity::{
    Real, Tolerances, epa,
    epa::ContactDim,
    lit, query,
    shape::{Capsule, Cuboid, SupportMap},
};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Const, Point, SVector};
use simba::scalar::FixedI40F24;
use std::hint::black_box;
use std::time::Duration;

const BATCH: usize = 64;
const CONFIGS: [(&str, f64); 2] = [("shallow", 0.95), ("deep", 0.5)];

/// The configurations' batches: B along a random direction from A's centre, at a fraction
/// of the offset where the shapes first touch (bisection on our f64 distance).
fn configs<A, B, const D: usize>(
    rng: &mut SplitMix64,
    a: &A,
    b: &B,
) -> Vec<Vec<(Iso<f64, D>, Iso<f64, D>)>>
where
    Const<D>: convex_proximity::Dim,
    A: SupportMap<f64, D>,
    B: SupportMap<f64, D>,
{
    let tol = Tolerances::default();
    let mut out = vec![Vec::new(); CONFIGS.len()];
    for _ in 0..BATCH {
        let (pa, at) = common::line::<D>(rng);
        let (lo, _) = common::bisect(0.0, 10.0, |mid| {
            query::distance(&pa, a, &at(mid), b, &tol).unwrap().distance <= 0.0
        });
        for (k, (_, f)) in CONFIGS.iter().enumerate() {
            out[k].push((pa, at(f * lo)));
        }
    }
    out
}

fn boxes<T: Real, const D: usize>() -> (Cuboid<T, D>, Cuboid<T, D>) {
    let ha = [1.0, 0.7, 0.5];
    let hb = [0.6, 0.9, 0.4];
    (
        Cuboid::new(SVector::from_fn(|i, _| lit(ha[i]))),
        Cuboid::new(SVector::from_fn(|i, _| lit(hb[i]))),
    )
}
fn capsules<T: Real>() -> (Capsule<T, 3>, Capsule<T, 3>) {
    let cap = |hh: f64, r: f64| {
        let e = SVector::<T, 3>::new(T::zero(), lit(hh), T::zero());
        Capsule::new(Point::from(-e), Point::from(e), lit(r))
    };
    (cap(0.8, 0.4), cap(0.6, 0.3))
}

/// Times `contact_with_workspace` on every configuration.
fn bench_pair<T, A, B, const D: usize>(
    c: &mut Criterion,
    label: &str,
    (a, b): (&A, &B),
    poses: &[Vec<(Iso<f64, D>, Iso<f64, D>)>],
) where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: SupportMap<T, D>,
    B: SupportMap<T, D>,
{
    let tol = Tolerances::<T>::default();
    let mut ws = epa::Workspace::new();
    for ((config, _), batch) in CONFIGS.iter().zip(poses) {
        let batch: Vec<(Iso<T, D>, Iso<T, D>)> =
            batch.iter().map(|(p, q)| (to_t(p), to_t(q))).collect();
        let (mut iters, mut not_neg) = (0u64, 0usize);
        for (p, q) in &batch {
            let co = query::contact_with_workspace(p, a, q, b, &tol, &mut ws).unwrap();
            iters += u64::from(co.iterations);
            not_neg += usize::from(!(co.separation < T::zero()));
        }
        eprintln!(
            "epa\t{label}/{config}\titerations={:.2}\tnot_negative={not_neg}",
            iters as f64 / batch.len() as f64
        );
        let mut g = c.benchmark_group(format!("epa/{label}/{config}"));
        g.sample_size(30);
        g.bench_function("contact", |bch| {
            bch.iter(|| {
                let mut acc = T::zero();
                for (p, q) in &batch {
                    acc += query::contact_with_workspace(
                        black_box(p),
                        a,
                        black_box(q),
                        b,
                        &tol,
                        &mut ws,
                    )
                    .unwrap()
                    .separation;
                }
                acc
            })
        });
        g.finish();
    }
}

fn bench_3d(c: &mut Criterion) {
    type F = FixedI40F24;
    let mut rng = SplitMix64(0x5EED_2003);
    let (a, b) = boxes::<f64, 3>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/box_box", (&a, &b), &p);
    let (a, b) = boxes::<F, 3>();
    bench_pair(c, "3d_fixed/box_box", (&a, &b), &p);

    let (a, b) = capsules::<f64>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/capsule_capsule", (&a, &b), &p);
    let (a, b) = capsules::<F>();
    bench_pair(c, "3d_fixed/capsule_capsule", (&a, &b), &p);

    let (a, b) = hulls::<f64, 3>(32, 0x5EED_2032);
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "3d_f64/hull32", (&a, &b), &p);
    let (a, b) = hulls::<F, 3>(32, 0x5EED_2032);
    bench_pair(c, "3d_fixed/hull32", (&a, &b), &p);
}

fn bench_2d(c: &mut Criterion) {
    let mut rng = SplitMix64(0x5EED_2002);
    let (a, b) = boxes::<f64, 2>();
    let p = configs(&mut rng, &a, &b);
    bench_pair(c, "2d_f64/box_box", (&a, &b), &p);
    let (a, b) = boxes::<FixedI40F24, 2>();
    bench_pair(c, "2d_fixed/box_box", (&a, &b), &p);
}

criterion_group! {
    name = epa_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = bench_3d, bench_2d
}
criterion_main!(epa_benches);
