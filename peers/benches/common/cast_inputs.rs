//! The seeded inputs of the cast benches (`peers_cast.rs`), shared with the cast probe
//! (`examples/cast_probe.rs`), which regenerates them for instruction counts.

use super::{Pose3F, SplitMix64};

/// Casts per case.
pub const BATCH: usize = 64;

/// A ray in f64.
#[derive(Clone, Copy, Debug)]
pub struct RayF {
    pub o: [f64; 3],
    pub d: [f64; 3],
}

/// One moving pair in f64: poses at 0, linear and angular velocities (world frame).
#[derive(Clone, Copy, Debug)]
pub struct MoveF {
    pub pa: Pose3F,
    pub pb: Pose3F,
    pub va: [f64; 3],
    pub vb: [f64; 3],
    pub wa: [f64; 3],
    pub wb: [f64; 3],
}

/// The seeded inputs: shapes (unit scale) and the batches.
pub struct Inputs {
    pub box_a: [f64; 3],
    pub box_b: [f64; 3],
    pub ball: f64,
    /// Capsule along local y: half-height, radius.
    pub capsule: (f64, f64),
    pub hull_a: Vec<[f64; 3]>,
    pub hull_b: Vec<[f64; 3]>,
    /// The shape's pose and the rays, per ray shape.
    pub rays: Vec<(Pose3F, RayF)>,
    pub linear: Vec<MoveF>,
    pub nonlinear: Vec<MoveF>,
}

fn pose(rng: &mut SplitMix64, spread: f64) -> Pose3F {
    Pose3F {
        t: std::array::from_fn(|_| rng.range(-spread, spread)),
        q: rng.unit_vec::<4>(),
    }
}

/// The seeded cases (seed `0x5EED_CA57`), the same in every run.
pub fn inputs() -> Inputs {
    let mut rng = SplitMix64(0x5EED_CA57);
    let hull_a = (0..32).map(|_| rng.unit_vec::<3>()).collect();
    let hull_b = (0..32).map(|_| rng.unit_vec::<3>()).collect();
    let rays = (0..BATCH)
        .map(|_| {
            let p = pose(&mut rng, 3.0);
            let u = rng.unit_vec::<3>();
            let o: [f64; 3] = std::array::from_fn(|i| p.t[i] + 4.0 * u[i]);
            let aim: [f64; 3] = std::array::from_fn(|i| p.t[i] + rng.range(-1.3, 1.3));
            (
                p,
                RayF {
                    o,
                    d: std::array::from_fn(|i| aim[i] - o[i]),
                },
            )
        })
        .collect();
    let mut moving = |turn: f64, speed: f64| -> Vec<MoveF> {
        (0..BATCH)
            .map(|_| {
                let pa = pose(&mut rng, 3.0);
                let u = rng.unit_vec::<3>();
                let mut pb = pose(&mut rng, 0.0);
                pb.t = std::array::from_fn(|i| pa.t[i] + 4.0 * u[i]);
                let (wa, wb) = (rng.unit_vec::<3>(), rng.unit_vec::<3>());
                MoveF {
                    pa,
                    pb,
                    va: std::array::from_fn(|_| rng.range(-0.2, 0.2)),
                    vb: std::array::from_fn(|i| speed * (-u[i] + rng.range(-0.25, 0.25))),
                    wa: wa.map(|x| x * turn),
                    wb: wb.map(|x| x * turn),
                }
            })
            .collect()
    };
    let linear = moving(0.0, 1.0);
    let nonlinear = moving(2.0, 3.0);
    Inputs {
        box_a: [1.0, 0.7, 0.5],
        box_b: [0.6, 0.9, 0.4],
        ball: 1.0,
        capsule: (0.8, 0.4),
        hull_a,
        hull_b,
        rays,
        linear,
        nonlinear,
    }
}
