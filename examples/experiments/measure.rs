//! One pair under every variant in one scalar: the untimed answer (iterations,
//! termination, error against the truth, verdict) under the panic guard, then the timing
//! (median of batches).

use crate::corpus::Scalar;
use crate::runner::{guarded, median};
use convex_proximity::{
    Acceleration, Criterion, Dim, PoseRotation, Real, Subalgorithm, Termination, Tolerances, lit,
    query, shape::SupportMap,
};
use nalgebra::{Const, Isometry};
use std::hint::black_box;
use std::time::Instant;

/// One GJK variant: a subalgorithm, a criterion, an acceleration, and optionally an
/// absolute threshold (`gjk_abs`) other than the default.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub name: &'static str,
    pub sub: Subalgorithm,
    pub crit: Criterion,
    pub acc: Acceleration,
    pub abs: Option<f64>,
}

impl Variant {
    /// The variant's tolerances in `T` (every other field the default).
    pub fn tolerances<T: Real>(&self) -> Tolerances<T> {
        let base = Tolerances::<T>::default();
        let abs = self
            .abs
            .map_or(base.gjk_abs(), |a| lit::<T>(a).max(base.gjk_abs()));
        base.with_gjk_subalgorithm(self.sub)
            .and_then(|t| t.with_gjk_criterion(self.crit))
            .and_then(|t| t.with_gjk_acceleration(self.acc))
            .and_then(|t| t.with_gjk_abs(abs))
            .unwrap_or_else(|e| panic!("variant {}: {e}", self.name))
    }

    /// The resolution of the variant's verdicts (docs/gjk.md §6): the absolute criteria
    /// answer `intersects` within `gjk_abs` beyond touching; the relative ones run to a
    /// proof.
    pub fn resolution<T: Real>(&self) -> f64 {
        match self.crit {
            Criterion::AbsoluteGap | Criterion::AbsoluteDualityGap => {
                f(self.tolerances::<T>().gjk_abs())
            }
            _ => 0.0,
        }
    }
}

/// What the study knows about a pair: where it belongs, its truth and its size.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The corpus case's id, or the generated pair's family and number.
    pub id: String,
    /// The table row: a corpus category (with its dimension) or a generated family.
    pub group: String,
    /// The generated family's gap label and value (the plots' x), and its vertex count.
    pub gap: Option<(usize, f64)>,
    pub vertices: usize,
    pub intersecting: bool,
    /// The true distance (0 when intersecting).
    pub distance: f64,
    /// The signed distance (generated overlaps: the imposed overlap, approximately).
    pub signed: f64,
    /// The diagonal of the joint bounding box, and that plus the largest coordinate.
    pub scale: f64,
    pub size: f64,
    /// Touching up to rounding (never a clear verdict).
    pub boundary: bool,
}

impl Meta {
    /// The band inside which a verdict is not clear (docs/corpus.md, "scoring").
    pub fn clear_band(&self, s: Scalar) -> f64 {
        match s {
            Scalar::F64 => 1e-12 * self.size,
            Scalar::F32 | Scalar::Fixed => 1e-6 * self.size,
        }
    }

    /// Whether the verdict is clear: outside the band, widened by a variant's resolution.
    pub fn is_clear(&self, s: Scalar, resolution: f64) -> bool {
        !self.boundary && self.signed.abs() > self.clear_band(s) + resolution
    }

    /// The accepted distance error (docs/corpus.md, "scoring").
    pub fn threshold(&self, s: Scalar) -> f64 {
        match s {
            Scalar::F64 => 1e-9 * self.scale,
            Scalar::F32 => 1e-4 * self.size,
            Scalar::Fixed => 1e-4,
        }
    }
}

/// One pair under one variant in one scalar.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    pub variant: usize,
    pub pair: usize,
    /// An `Err` or a panic in either query (the rest is then meaningless).
    pub failed: bool,
    pub dist_iterations: u32,
    pub dist_ns: f64,
    pub capped: bool,
    /// `|distance − truth|`, and whether it exceeds the accepted error.
    pub error: f64,
    pub over: bool,
    /// The distance's sign (0 or not) against a clear truth (clear beyond the variant's
    /// resolution, [`Variant::resolution`]).
    pub dist_wrong: bool,
    pub int_iterations: u32,
    pub int_ns: f64,
    pub int_wrong: bool,
    /// Why each query stopped (`None` for a failure).
    pub terminations: Option<(Termination, Termination)>,
    /// The distance's proven bounds.
    pub bounds: (f64, f64),
}

/// How long a timed batch should last at least, and the cap on calls per batch.
const BATCH_NS: f64 = 2000.0;
const MAX_INNER: usize = 256;

/// The median over `reps` batches of the time per call of `f`, in ns; batches repeat `f`
/// often enough to last [`BATCH_NS`] (the clock's overhead then is a few percent).
fn time<X>(reps: usize, mut f: impl FnMut() -> X) -> f64 {
    let t = Instant::now();
    black_box(f());
    let one = t.elapsed().as_nanos() as f64;
    let inner = ((BATCH_NS / one.max(1.0)) as usize).clamp(1, MAX_INNER);
    let mut per: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..inner {
                black_box(f());
            }
            t.elapsed().as_nanos() as f64 / inner as f64
        })
        .collect();
    median(&mut per)
}

fn f<T: Real>(x: T) -> f64 {
    nalgebra::try_convert(x).unwrap_or(f64::NAN)
}

/// Every variant on one posed pair. `reps` timed batches per query (0: no timing).
#[allow(clippy::too_many_arguments)]
pub fn measure<T, R, const D: usize, A, B>(
    pose_a: &Isometry<T, R, D>,
    a: &A,
    pose_b: &Isometry<T, R, D>,
    b: &B,
    variants: &[Variant],
    meta: &Meta,
    pair: usize,
    scalar: Scalar,
    reps: usize,
) -> Vec<Sample>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: Dim,
    A: SupportMap<T, D>,
    B: SupportMap<T, D>,
{
    variants
        .iter()
        .enumerate()
        .map(|(variant, v)| {
            let tol = v.tolerances::<T>();
            let clear = meta.is_clear(scalar, v.resolution::<T>());
            let mut s = Sample {
                variant,
                pair,
                ..Sample::default()
            };
            let answers = guarded(|| {
                (
                    query::distance(pose_a, a, pose_b, b, &tol),
                    query::intersection(pose_a, a, pose_b, b, &tol),
                )
            });
            let Ok((Ok(d), Ok(i))) = answers else {
                s.failed = true;
                return s;
            };
            let got = f(d.distance);
            s.dist_iterations = d.iterations;
            s.capped = d.termination == Termination::MaxIterations;
            s.error = (got - meta.distance).abs();
            // A NaN error counts as over.
            s.over = s.error.is_nan() || s.error > meta.threshold(scalar);
            // An overlap's distance is 0: within a variant's resolution a positive
            // distance is its promise kept, not a wrong verdict.
            s.dist_wrong = if meta.intersecting {
                clear && got > v.resolution::<T>() + meta.clear_band(scalar)
            } else {
                clear && got <= 0.0
            };
            s.int_iterations = i.iterations;
            s.int_wrong = clear && i.intersects != meta.intersecting;
            s.terminations = Some((d.termination, i.termination));
            s.bounds = (f(d.lower_bound), f(d.upper_bound));
            if reps > 0 {
                s.dist_ns = time(reps, || query::distance(pose_a, a, pose_b, b, &tol));
                s.int_ns = time(reps, || query::intersection(pose_a, a, pose_b, b, &tol));
            }
            s
        })
        .collect()
}
