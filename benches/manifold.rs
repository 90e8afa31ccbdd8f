//! Benches of our contact manifolds alone (the side-by-side comparison with parry lives in
//! `peers/benches/peers_manifold.rs`, which cannot build the `fixed` feature).
//!
//! Resting configurations, a batch of [`BATCH`] seeded pose pairs each: B on the top face
//! of a box A of half-extents (1, 0.5, 1), A at a random pose, B with a random yaw, a tilt
//! of at most 2° and a lateral offset of at most 0.1, its height set by bisection on our
//! f64 `contact` so its signed distance is uniform in [−0.01, 0.005]; prediction 0.01.
//! - `3d_f64`, `3d_fixed` (`simba::scalar::FixedI40F24`): `box_stack` (B a box of
//!   half-extents (0.5, 0.4, 0.6)), `capsule_on_box` (B a capsule lying flat);
//! - `2d_f64`, `2d_fixed`: `box_stack`.
//!
//! One measured iteration runs the batch with one `ManifoldWorkspace`: divide by
//! [`BATCH`] for the time per query. Mean point counts are printed to stderr before timing
//! (lines `manifold`). Run: `cargo bench --bench manifold` (under a minute).

mod common;
use common::{Iso, SplitMix64, to_t};
use convex_proximity::{
    Real, Tolerances, clip,
    clip::FeatureMap,
    epa::ContactDim,
    lit, query,
    shape::{Capsule, Cuboid, SupportMap},
};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{Const, Point, Rotation, Rotation2, Rotation3, SVector, Translation, Unit, Vector3};
use simba::scalar::FixedI40F24;
use std::f64::consts::PI;
use std::hint::black_box;
use std::time::Duration;

const BATCH: usize = 64;
const PREDICTION: f64 = 0.01;
const GROUND: [f64; 3] = [1.0, 0.5, 1.0];
const BOX: [f64; 3] = [0.5, 0.4, 0.6];

/// A random rotation of dimension `D` (2 or 3) and a small tilt of B from lying flat.
trait Placement<const D: usize> {
    fn random(rng: &mut SplitMix64) -> Rotation<f64, D>;
    fn tilt(rng: &mut SplitMix64) -> Rotation<f64, D>;
}
impl Placement<3> for Const<3> {
    fn random(rng: &mut SplitMix64) -> Rotation<f64, 3> {
        let axis = Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        );
        Rotation3::from_axis_angle(&Unit::new_normalize(axis), rng.range(-PI, PI))
    }
    fn tilt(rng: &mut SplitMix64) -> Rotation<f64, 3> {
        let yaw = Rotation3::from_axis_angle(&Vector3::y_axis(), rng.range(-PI, PI));
        let phi = rng.range(-PI, PI);
        let axis = Unit::new_normalize(Vector3::new(phi.cos(), 0.0, phi.sin()));
        Rotation3::from_axis_angle(&axis, rng.range(0.0, 2.0f64).to_radians()) * yaw
    }
}
impl Placement<2> for Const<2> {
    fn random(rng: &mut SplitMix64) -> Rotation<f64, 2> {
        Rotation2::new(rng.range(-PI, PI))
    }
    fn tilt(rng: &mut SplitMix64) -> Rotation<f64, 2> {
        Rotation2::new(rng.range(-2.0, 2.0f64).to_radians())
    }
}

/// `BATCH` resting placements of `b` (after the rotation `base`) on the ground box.
fn resting<B, const D: usize>(
    rng: &mut SplitMix64,
    b: &B,
    base: Rotation<f64, D>,
) -> Vec<(Iso<f64, D>, Iso<f64, D>)>
where
    Const<D>: ContactDim<f64, D> + Placement<D>,
    B: SupportMap<f64, D>,
{
    let a = Cuboid::<f64, D>::new(SVector::from_fn(|i, _| GROUND[i]));
    let tol = Tolerances::default();
    (0..BATCH)
        .map(|_| {
            let pa = Iso::from_parts(
                Translation::from(SVector::from_fn(|_, _| rng.range(-3.0, 3.0))),
                <Const<D> as Placement<D>>::random(rng),
            );
            let rot = <Const<D> as Placement<D>>::tilt(rng) * base;
            let lateral =
                SVector::<f64, D>::from_fn(|i, _| if i == 1 { 0.0 } else { rng.range(-0.1, 0.1) });
            let target = rng.range(-0.01, 0.005);
            let rel = |h: f64| {
                let mut t = lateral;
                t[1] = h;
                Iso::from_parts(Translation::from(t), rot)
            };
            let (_, hi) = common::bisect(0.0, 3.0, |mid| {
                let s = query::contact(&pa, &a, &(pa * rel(mid)), b, &tol)
                    .unwrap()
                    .separation;
                s < target
            });
            (pa, pa * rel(hi))
        })
        .collect()
}

fn cuboid<T: Real, const D: usize>(h: &[f64; 3]) -> Cuboid<T, D> {
    Cuboid::new(SVector::from_fn(|i, _| lit(h[i])))
}
fn capsule<T: Real>() -> Capsule<T, 3> {
    let e = SVector::<T, 3>::new(T::zero(), lit(0.6), T::zero());
    Capsule::new(Point::from(-e), Point::from(e), lit(0.3))
}

/// Times `manifold_with_workspace` on one batch.
fn bench_pair<T, A, B, const D: usize>(
    c: &mut Criterion,
    label: &str,
    (a, b): (&A, &B),
    poses: &[(Iso<f64, D>, Iso<f64, D>)],
) where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D>,
    B: FeatureMap<T, D>,
{
    let tol = Tolerances::<T>::default();
    let prediction = lit::<T>(PREDICTION);
    let mut ws = clip::ManifoldWorkspace::new();
    let batch: Vec<(Iso<T, D>, Iso<T, D>)> =
        poses.iter().map(|(p, q)| (to_t(p), to_t(q))).collect();
    let points: usize = batch
        .iter()
        .map(|(p, q)| {
            query::manifold_with_workspace(p, a, q, b, prediction, &tol, &mut ws)
                .unwrap()
                .len()
        })
        .sum();
    eprintln!(
        "manifold\t{label}\tpoints={:.2}",
        points as f64 / batch.len() as f64
    );
    let mut g = c.benchmark_group(format!("manifold/{label}"));
    g.sample_size(30);
    g.bench_function("manifold", |bch| {
        bch.iter(|| {
            let mut acc = 0usize;
            for (p, q) in &batch {
                acc += query::manifold_with_workspace(
                    black_box(p),
                    a,
                    black_box(q),
                    b,
                    prediction,
                    &tol,
                    &mut ws,
                )
                .unwrap()
                .len();
            }
            acc
        })
    });
    g.finish();
}

fn bench_3d(c: &mut Criterion) {
    type F = FixedI40F24;
    let mut rng = SplitMix64(0x5EED_3003);
    let stack = resting::<_, 3>(&mut rng, &cuboid::<f64, 3>(&BOX), Rotation3::identity());
    bench_pair(
        c,
        "3d_f64/box_stack",
        (&cuboid::<f64, 3>(&GROUND), &cuboid::<f64, 3>(&BOX)),
        &stack,
    );
    bench_pair(
        c,
        "3d_fixed/box_stack",
        (&cuboid::<F, 3>(&GROUND), &cuboid::<F, 3>(&BOX)),
        &stack,
    );
    // The capsule's axis (local y) laid along x.
    let flat = Rotation3::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2);
    let caps = resting::<_, 3>(&mut rng, &capsule::<f64>(), flat);
    bench_pair(
        c,
        "3d_f64/capsule_on_box",
        (&cuboid::<f64, 3>(&GROUND), &capsule::<f64>()),
        &caps,
    );
    bench_pair(
        c,
        "3d_fixed/capsule_on_box",
        (&cuboid::<F, 3>(&GROUND), &capsule::<F>()),
        &caps,
    );
}

fn bench_2d(c: &mut Criterion) {
    type F = FixedI40F24;
    let mut rng = SplitMix64(0x5EED_3002);
    let stack = resting::<_, 2>(&mut rng, &cuboid::<f64, 2>(&BOX), Rotation2::identity());
    bench_pair(
        c,
        "2d_f64/box_stack",
        (&cuboid::<f64, 2>(&GROUND), &cuboid::<f64, 2>(&BOX)),
        &stack,
    );
    bench_pair(
        c,
        "2d_fixed/box_stack",
        (&cuboid::<F, 2>(&GROUND), &cuboid::<F, 2>(&BOX)),
        &stack,
    );
}

criterion_group! {
    name = manifold_benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = bench_3d, bench_2d
}
criterion_main!(manifold_benches);
