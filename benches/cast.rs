//! Benches of our casts alone (the comparison with parry is `peers/benches/peers_cast.rs`):
//!
//! - `rays/<dim>_<scalar>/<shape>`: [`BATCH`] seeded rays from 4 units away aimed near the
//!   shape; `ball` and `cuboid` take the closed forms, `ball_gjk` and `cuboid_gjk` the GJK
//!   ray cast on the same shapes (hidden behind an identity `Transformed`), `hull32` GJK.
//! - `linear/<dim>_<scalar>/box_box`: B thrown at A.
//! - `motion/3d_f64`: a planner's motion check — a link (capsule of length 1) moving from
//!   one pose to another past a box just beyond its tip at mid-motion, with a margin of
//!   0.02 — by `query::motion_is_free`.
//!
//! Before timing, the motion check prints (line `motion`) the distance queries it needed
//! against fixed-step sampling at equal safety: a sampler with `N` uniform samples proves
//! the motion free only if every sample's distance exceeds the margin by `M·h/2` (`M` the
//! same proven bound of the speed of the link's points, `h = 1/N`); `N` is the smallest
//! (to 1%) that proves it. Free motions only: on the others a sampler proves nothing.
//! Run: `cargo bench --bench cast`.

mod common;
use common::SplitMix64;
use convex_proximity::{
    Real, Tolerances, lit, query,
    query::{CastOptions, LinearMotion, Ray, RigidMotion},
    shape::{Ball, Capsule, Cuboid, Polytope, SupportMap, Transformed},
};
use criterion::{Criterion, criterion_group, criterion_main};
use nalgebra::{
    Const, Isometry, Isometry3, Point, Point3, Rotation, SMatrix, SVector, Translation,
    UnitQuaternion, Vector3,
};
use simba::scalar::FixedI40F24;
use std::hint::black_box;
use std::time::Duration;

const BATCH: usize = 64;

type Iso<T, const D: usize> = Isometry<T, Rotation<T, D>, D>;

fn iso<T: Real, const D: usize>(rot: &Rotation<f64, D>, t: &SVector<f64, D>) -> Iso<T, D> {
    Isometry::from_parts(
        Translation::from(t.map(lit::<T>)),
        Rotation::from_matrix_unchecked(rot.matrix().map(lit::<T>)),
    )
}

/// Seeded rays at a shape of unit size at a random pose.
fn rays<T: Real, const D: usize>(seed: u64) -> Vec<(Iso<T, D>, Ray<T, D>)> {
    let mut rng = SplitMix64(seed);
    (0..BATCH)
        .map(|_| {
            let t = SVector::<f64, D>::from_fn(|_, _| rng.range(-2.0, 2.0));
            let rot = rng.rotation::<D>();
            let o = t + rng.unit_vec::<D>() * 4.0;
            let aim = t + SVector::<f64, D>::from_fn(|_, _| rng.range(-1.3, 1.3));
            (
                iso(&rot, &t),
                Ray::new(Point::from(o.map(lit::<T>)), (aim - o).map(lit::<T>)),
            )
        })
        .collect()
}

fn bench_rays<T: Real, const D: usize>(c: &mut Criterion, label: &str)
where
    Const<D>: convex_proximity::cast::CastDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let batch = rays::<T, D>(0x5EED_0001);
    let mut rng = SplitMix64(0x5EED_0002);
    let hull = Polytope::try_new(
        (0..32)
            .map(|_| Point::from(rng.unit_vec::<D>().map(lit::<T>)))
            .collect(),
    )
    .unwrap();
    let id = SMatrix::<T, D, D>::identity();
    let ball = Ball::new(lit::<T>(1.0));
    let cube = Cuboid::new(SVector::<T, D>::repeat(lit(0.7)));
    let shapes: [(&str, &dyn SupportMap<T, D>); 5] = [
        ("ball", &ball),
        ("ball_gjk", &Transformed::new(ball, id, SVector::zeros())),
        ("cuboid", &cube),
        ("cuboid_gjk", &Transformed::new(cube, id, SVector::zeros())),
        ("hull32", &hull),
    ];
    for (name, s) in shapes {
        let (mut its, mut hits) = (0u64, 0);
        for (p, r) in &batch {
            let cast = query::cast_ray(p, s, r, lit(10.0), true, &tol).unwrap();
            its += u64::from(cast.iterations);
            hits += usize::from(cast.hit.is_some());
        }
        eprintln!(
            "iters\trays/{label}/{name}\tsupport_evals={:.2}\thits={hits}/{BATCH}",
            its as f64 / BATCH as f64
        );
        c.bench_function(&format!("rays/{label}/{name}"), |b| {
            b.iter(|| {
                let mut n = 0u32;
                for (p, r) in &batch {
                    let cast =
                        query::cast_ray(black_box(p), s, black_box(r), lit(10.0), true, &tol);
                    n += u32::from(cast.unwrap().hit.is_some());
                }
                n
            })
        });
    }
}

fn bench_linear<T: Real, const D: usize>(c: &mut Criterion, label: &str)
where
    Const<D>: convex_proximity::cast::CastDim<T, D>,
{
    let tol = Tolerances::<T>::default();
    let mut rng = SplitMix64(0x5EED_0003);
    let (a, b) = (
        Cuboid::new(SVector::<T, D>::from_fn(|i, _| {
            lit([1.0, 0.7, 0.5, 0.6][i % 4])
        })),
        Cuboid::new(SVector::<T, D>::from_fn(|i, _| {
            lit([0.6, 0.9, 0.4, 0.5][i % 4])
        })),
    );
    let batch: Vec<_> = (0..BATCH)
        .map(|_| {
            let ta = SVector::<f64, D>::from_fn(|_, _| rng.range(-2.0, 2.0));
            let u = rng.unit_vec::<D>();
            let tb = ta + u * 4.0;
            let vb = -u + SVector::<f64, D>::from_fn(|_, _| rng.range(-0.25, 0.25));
            (
                LinearMotion::new(iso::<T, D>(&rng.rotation(), &ta), SVector::zeros()),
                LinearMotion::new(iso::<T, D>(&rng.rotation(), &tb), vb.map(lit::<T>)),
            )
        })
        .collect();
    let opts = CastOptions {
        max_toi: lit(4.0),
        ..CastOptions::default()
    };
    let (mut its, mut hits) = (0u64, 0);
    for (ma, mb) in &batch {
        let cast = query::cast_shapes(ma, &a, mb, &b, &opts, &tol).unwrap();
        its += u64::from(cast.iterations);
        hits += usize::from(cast.hit.is_some());
    }
    eprintln!(
        "iters\tlinear/{label}/box_box\tsupport_evals={:.2}\thits={hits}/{BATCH}",
        its as f64 / BATCH as f64
    );
    c.bench_function(&format!("linear/{label}/box_box"), |bch| {
        bch.iter(|| {
            let mut n = 0u32;
            for (ma, mb) in &batch {
                let cast = query::cast_shapes(black_box(ma), &a, black_box(mb), &b, &opts, &tol);
                n += u32::from(cast.unwrap().hit.is_some());
            }
            n
        })
    });
}

/// The planner's scene: a link swinging from one pose to another past a box.
struct Motion {
    start: Isometry3<f64>,
    end: Isometry3<f64>,
    obstacle: Isometry3<f64>,
}

fn motions() -> Vec<Motion> {
    let mut rng = SplitMix64(0x5EED_0004);
    (0..BATCH)
        .map(|_| {
            let axis = nalgebra::Unit::new_normalize(Vector3::from(rng.unit_vec::<3>()));
            let start = Isometry3::from_parts(
                Translation::from(Vector3::from_fn(|_, _| rng.range(-0.2, 0.2))),
                UnitQuaternion::from_axis_angle(&axis, rng.range(-0.5, 0.5)),
            );
            let end = Isometry3::from_parts(
                Translation::from(
                    start.translation.vector + Vector3::from_fn(|_, _| rng.range(-0.3, 0.3)),
                ),
                UnitQuaternion::from_axis_angle(&axis, rng.range(0.8, 1.6)) * start.rotation,
            );
            // Just beyond the link's tip at mid-motion: small clearances (some collide), a
            // planner's hard case.
            let tip = RigidMotion::between(&start, &end)
                .transform_point(0.5, &Point3::new(1.0, 0.0, 0.0));
            let obstacle = Isometry3::from_parts(
                Translation::from(tip.coords + tip.coords.normalize() * rng.range(0.3, 0.6)),
                UnitQuaternion::from_axis_angle(&axis, rng.range(-1.0, 1.0)),
            );
            Motion {
                start,
                end,
                obstacle,
            }
        })
        .collect()
}

/// The fewest uniform samples that prove the motion free at the margin (to 1%), using the
/// same speed bound `speed` as the conservative advancement; `None` if 2¹⁶ do not.
fn fixed_step_samples(dist: impl Fn(f64) -> f64, margin: f64, speed: f64) -> Option<usize> {
    let proves = |n: usize| {
        let h = 1.0 / n as f64;
        (0..=n).all(|k| dist(k as f64 * h) - margin >= speed * h / 2.0)
    };
    let mut n = 1usize;
    while !proves(n) {
        n = (n + n / 100).max(n + 1);
        if n > 1 << 16 {
            return None;
        }
    }
    Some(n + 1)
}

fn bench_motion(c: &mut Criterion) {
    let tol = Tolerances::<f64>::default();
    let link = Capsule::new(Point3::origin(), Point3::new(1.0, 0.0, 0.0), 0.05);
    let obstacle = Cuboid::new(Vector3::new(0.2, 0.2, 0.2));
    let margin = 0.02;
    let batch = motions();
    let (mut ca_free, mut fixed_free, mut n_free, mut ca_hit, mut n_hit) = (0u64, 0u64, 0, 0u64, 0);
    let (mut ratios, mut counts) = (Vec::new(), Vec::new());
    for m in &batch {
        let swing = RigidMotion::between(&m.start, &m.end);
        let rest = RigidMotion::fixed(&m.obstacle);
        let check = query::motion_is_free(&swing, &link, &rest, &obstacle, margin, &tol).unwrap();
        if !check.is_free() {
            ca_hit += u64::from(check.steps);
            n_hit += 1;
            continue;
        }
        // The same bound as the advancement: |v| + |ω|·(reach of the link about its origin).
        let w = swing.angular_velocity().norm();
        let speed = swing.linear_velocity().norm() + w * (1.0 + 0.05);
        let dist = |t: f64| {
            let pose = Isometry3::from_parts(
                Translation::from(swing.transform_point(t, &Point3::origin()).coords),
                UnitQuaternion::from_rotation_matrix(&Rotation::from_matrix_unchecked(
                    swing.rotation_at(t),
                )),
            );
            query::distance(&pose, &link, &m.obstacle, &obstacle, &tol)
                .unwrap()
                .distance
        };
        if let Some(n) = fixed_step_samples(dist, margin, speed) {
            ca_free += u64::from(check.steps);
            fixed_free += n as u64;
            n_free += 1;
            ratios.push(n as f64 / f64::from(check.steps));
            counts.push((check.steps, n));
        }
    }
    ratios.sort_by(f64::total_cmp);
    let median = |mut v: Vec<usize>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    let ca_median = median(counts.iter().map(|c| c.0 as usize).collect());
    let fixed_median = median(counts.iter().map(|c| c.1).collect());
    eprintln!(
        "motion\t3d_f64\tca_queries_median={ca_median}\tfixed_step_queries_median={fixed_median}"
    );
    eprintln!(
        "motion\t3d_f64\tfree={n_free}\tca_queries={:.1}\tfixed_step_queries={:.1}\tratio_total={:.1}\tratio_median={:.1}\tratio_min={:.1}\tcolliding={n_hit}\tca_queries_colliding={:.1}",
        ca_free as f64 / n_free as f64,
        fixed_free as f64 / n_free as f64,
        fixed_free as f64 / ca_free as f64,
        ratios.get(ratios.len() / 2).copied().unwrap_or(0.0),
        ratios.first().copied().unwrap_or(0.0),
        ca_hit as f64 / n_hit.max(1) as f64,
    );
    let motions: Vec<_> = batch
        .iter()
        .map(|m| {
            (
                RigidMotion::between(&m.start, &m.end),
                RigidMotion::fixed(&m.obstacle),
            )
        })
        .collect();
    c.bench_function("motion/3d_f64/link_box", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for (ma, mb) in &motions {
                let r = query::motion_is_free(black_box(ma), &link, mb, &obstacle, margin, &tol);
                n += u32::from(r.unwrap().is_free());
            }
            n
        })
    });
}

fn bench_all(c: &mut Criterion) {
    bench_rays::<f64, 3>(c, "3d_f64");
    bench_rays::<FixedI40F24, 3>(c, "3d_fixed");
    bench_rays::<f64, 4>(c, "4d_f64");
    bench_linear::<f64, 3>(c, "3d_f64");
    bench_linear::<FixedI40F24, 3>(c, "3d_fixed");
    bench_linear::<f64, 4>(c, "4d_f64");
    bench_motion(c);
}

criterion_group! {
    name = cast;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    targets = bench_all
}
criterion_main!(cast);
