//! One case in one scalar: the three queries under a panic guard and the watchdog, and
//! every metric of the corpus README that their answers fail. Shared by the correctness
//! runner (`examples/corpus`) and the vendored hard cases (`tests/hard_cases.rs`).
// NaN must count as a failure, hence the negated comparisons.
#![allow(dead_code, clippy::neg_cmp_op_on_partial_ord)]

use crate::corpus::{Case, FromMatrix, Scalar};
use crate::runner::guarded;
use crate::watchdog::Watchdog;
use convex_proximity::{
    Distance, QueryError, Real, Tolerances, epa::ContactDim, query, query::Contact,
};
use nalgebra::{Const, SVector};
use std::collections::BTreeMap;

/// The metrics, in the order the table prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// Constructor rejection, `Err`, NaN/∞ output, panic.
    Failure,
    /// `intersects` disagrees with the truth on a clear case.
    Verdict,
    /// `contact` has the wrong sign on a clear case.
    Sign,
    /// `|distance − true distance|` beyond the threshold.
    Distance,
    /// `|contact.separation − true signed distance|` beyond the threshold.
    Depth,
    /// A normal off by more than 1e-6 rad (f64, where unique) or 90°.
    Normal,
    /// The truth outside `[lower_bound, upper_bound]` by more than threshold / 1000.
    Bounds,
}

impl Metric {
    pub const ALL: [Self; 7] = [
        Self::Failure,
        Self::Verdict,
        Self::Sign,
        Self::Distance,
        Self::Depth,
        Self::Normal,
        Self::Bounds,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Failure => "failure",
            Self::Verdict => "verdict",
            Self::Sign => "sign",
            Self::Distance => "distance",
            Self::Depth => "depth",
            Self::Normal => "normal",
            Self::Bounds => "bounds",
        }
    }

    /// What `Finding::value` is measured in.
    pub fn unit(self) -> &'static str {
        match self {
            Self::Failure => "",
            Self::Verdict | Self::Sign => "× the clear band",
            Self::Distance | Self::Depth => "× tol",
            Self::Normal => "× the angle limit",
            Self::Bounds => "× slack",
        }
    }
}

/// One metric a case failed.
#[derive(Clone, Debug)]
pub struct Finding {
    pub metric: Metric,
    /// How badly, in the metric's unit (for ranking the worst).
    pub value: f64,
    pub detail: String,
}

/// Everything measured on one case in one scalar.
#[derive(Clone, Debug, Default)]
pub struct CaseResult {
    pub findings: Vec<Finding>,
    /// `Debug` names of the terminations of `distance` and `contact`, when they answered.
    pub terminations: BTreeMap<&'static str, String>,
}

impl CaseResult {
    fn fail(&mut self, detail: String) {
        self.push(Metric::Failure, 0.0, detail);
    }
    fn push(&mut self, metric: Metric, value: f64, detail: String) {
        self.findings.push(Finding {
            metric,
            value,
            detail,
        });
    }
}

fn f<T: Real>(x: T) -> f64 {
    nalgebra::try_convert(x).unwrap_or(f64::NAN)
}

fn fv<T: Real, const D: usize>(v: &SVector<T, D>) -> SVector<f64, D> {
    v.map(f)
}

/// The angle between two nonzero vectors, accurate near 0 and π: `2·atan2(|â − b̂|, |â + b̂|)`.
fn angle<const D: usize>(a: &SVector<f64, D>, b: &SVector<f64, D>) -> f64 {
    let (a, b) = (a.normalize(), b.normalize());
    2.0 * (a - b).norm().atan2((a + b).norm())
}

/// Runs one query under the watchdog and the panic guard; a panic or `Err` becomes a
/// failure and `None`.
fn answer<X>(
    out: &mut CaseResult,
    dog: &Watchdog,
    label: impl FnOnce() -> String,
    name: &str,
    q: impl FnOnce() -> Result<X, QueryError>,
) -> Option<X> {
    match dog.watch(label, || guarded(q)) {
        Ok(Ok(x)) => Some(x),
        Ok(Err(e)) => {
            out.fail(format!("{name}: Err({e})"));
            None
        }
        Err(panic) => {
            out.fail(format!("{name} panicked: {panic}"));
            None
        }
    }
}

/// The context the checks of one case share.
struct Check<'a, const D: usize> {
    case: &'a Case,
    scalar: Scalar,
    truth_normal: Option<SVector<f64, D>>,
    tol: f64,
}

impl<const D: usize> Check<'_, D> {
    /// An error `|ours − truth|` beyond the threshold.
    fn error(&self, out: &mut CaseResult, metric: Metric, what: &str, ours: f64, truth: f64) {
        let err = (ours - truth).abs();
        if !(err <= self.tol) {
            let x = err / self.tol;
            out.push(
                metric,
                if x.is_nan() { f64::INFINITY } else { x },
                format!(
                    "{what} {ours:e}, truth {truth:e}, error {err:.2e} ({x:.3}× tol {:.1e})",
                    self.tol
                ),
            );
        }
    }

    /// The truth outside `[lo, hi]` by more than threshold / 1000.
    fn bounds(&self, out: &mut CaseResult, what: &str, (lo, hi): (f64, f64), truth: f64) {
        let slack = self.tol * 1e-3;
        let excess = (lo - truth).max(truth - hi);
        if !(excess <= slack) {
            out.push(
                Metric::Bounds,
                excess / slack,
                format!("{what} bounds [{lo:e}, {hi:e}], truth {truth:e}: off by {excess:.2e} ({:.1}× slack)", excess / slack),
            );
        }
    }

    /// The normal `n` against the truth: 1e-6 rad in f64 where it is unique (and, for a
    /// penetrating pair, its margin exceeds 1e-6), 90° in every scalar where it is unique
    /// (f32 and fixed-point: on clear cases only, as casting the inputs can turn a
    /// touching pair's normal).
    fn normal(&self, out: &mut CaseResult, what: &str, n: &SVector<f64, D>) {
        let (Some(t), true) = (self.truth_normal, self.case.meta.normal_unique) else {
            return;
        };
        let a = angle(n, &t);
        let right = std::f64::consts::FRAC_PI_2;
        let fine = self.scalar == Scalar::F64
            && (!self.case.expect.intersecting
                || self.case.meta.normal_margin.is_some_and(|m| m > 1e-6));
        let limit = if fine {
            1e-6
        } else if self.scalar == Scalar::F64 || self.scalar.is_clear(self.case) {
            right
        } else {
            return;
        };
        if !(a <= limit) {
            out.push(
                Metric::Normal,
                if a.is_nan() { f64::INFINITY } else { a / limit },
                format!("{what} off by {a:.3e} rad (limit {limit:.1e})"),
            );
        }
    }

    fn distance<T: Real>(&self, out: &mut CaseResult, d: &Distance<T, D>) {
        let nums = [f(d.distance), f(d.lower_bound), f(d.upper_bound)];
        let n = d.normal.map(|n| fv(&n.into_inner()));
        let finite = nums.iter().all(|x| x.is_finite())
            && fv(&d.point_a.coords)
                .iter()
                .chain(fv(&d.point_b.coords).iter())
                .all(|x| x.is_finite())
            && n.is_none_or(|n| n.iter().all(|x| x.is_finite()));
        if !finite {
            out.fail(format!("distance: non-finite output {d:?}"));
            return;
        }
        let truth = self.case.expect.distance;
        self.error(out, Metric::Distance, "distance", nums[0], truth);
        self.bounds(out, "distance", (nums[1], nums[2]), truth);
        if let (false, Some(n)) = (self.case.expect.intersecting, n) {
            self.normal(out, "distance.normal", &n);
        }
    }

    fn contact<T: Real>(&self, out: &mut CaseResult, c: &Contact<T, D>) {
        let nums = [f(c.separation), f(c.lower_bound), f(c.upper_bound)];
        let n = fv(&c.normal.into_inner());
        let finite = nums.iter().all(|x| x.is_finite())
            && fv(&c.point_a.coords)
                .iter()
                .chain(fv(&c.point_b.coords).iter())
                .all(|x| x.is_finite())
            && n.iter().all(|x| x.is_finite());
        if !finite {
            out.fail(format!("contact: non-finite output {c:?}"));
            return;
        }
        let (sep, sd) = (nums[0], self.case.signed_distance());
        let wrong = if self.case.expect.intersecting {
            !(sep < 0.0)
        } else {
            !(sep > 0.0)
        };
        if wrong && self.scalar.is_clear(self.case) {
            let band = self.scalar.clear_band(self.case);
            out.push(
                Metric::Sign,
                sd.abs() / band,
                format!(
                    "contact separation {sep:e}, truth {sd:e} ({:.1}× the band {band:.1e})",
                    sd.abs() / band
                ),
            );
        }
        self.error(out, Metric::Depth, "separation", sep, sd);
        self.bounds(out, "contact", (nums[1], nums[2]), sd);
        self.normal(out, "contact.normal", &n);
    }
}

/// Every metric of `case` in scalar `T` (`scalar` names it), with rotations of type `R`.
pub fn evaluate<T, R, const D: usize>(case: &Case, scalar: Scalar, dog: &Watchdog) -> CaseResult
where
    T: Real,
    R: FromMatrix<T, D>,
    Const<D>: ContactDim<T, D>,
{
    evaluate_with::<T, R, D>(case, scalar, dog, &Tolerances::default())
}

/// [`evaluate`] under the tolerances `tol` (a GJK variant: tests/variants.rs).
pub fn evaluate_with<T, R, const D: usize>(
    case: &Case,
    scalar: Scalar,
    dog: &Watchdog,
    tol: &Tolerances<T>,
) -> CaseResult
where
    T: Real,
    R: FromMatrix<T, D>,
    Const<D>: ContactDim<T, D>,
{
    let mut out = CaseResult::default();
    let (pa, pb) = match case.placed::<D>() {
        Ok(p) => p,
        Err(e) => {
            out.fail(format!("input: {e}"));
            return out;
        }
    };
    let shapes = pa
        .shape::<T>()
        .map_err(|e| format!("constructor of A: {e}"))
        .and_then(|a| {
            let b = pb
                .shape::<T>()
                .map_err(|e| format!("constructor of B: {e}"))?;
            Ok((a, b))
        });
    let (a, b) = match shapes {
        Ok(s) => s,
        Err(e) => {
            out.fail(e);
            return out;
        }
    };
    let (ia, ib) = (pa.pose::<T, R>(), pb.pose::<T, R>());
    let (a, b) = (a.as_dyn(), b.as_dyn());
    let tol = *tol;
    let label = |q: &'static str| {
        let id = &case.id;
        move || format!("{id} ({}, {q})", scalar.name())
    };
    let normal = &case.expect.normal;
    let check = Check::<D> {
        case,
        scalar,
        truth_normal: (normal.len() == D && normal.iter().any(|x| *x != 0.0))
            .then(|| SVector::from_column_slice(normal)),
        tol: scalar.error_threshold(case),
    };

    let hit = answer(&mut out, dog, label("intersects"), "intersects", || {
        query::intersects(&ia, a, &ib, b, &tol)
    });
    if let Some(hit) = hit
        && hit != case.expect.intersecting
        && scalar.is_clear(case)
    {
        let (sd, band) = (case.signed_distance(), scalar.clear_band(case));
        out.push(
            Metric::Verdict,
            sd.abs() / band,
            format!(
                "intersects {hit}, truth signed distance {sd:e} ({:.1}× the band {band:.1e})",
                sd.abs() / band
            ),
        );
    }
    if let Some(d) = answer(&mut out, dog, label("distance"), "distance", || {
        query::distance(&ia, a, &ib, b, &tol)
    }) {
        out.terminations
            .insert("distance", format!("{:?}", d.termination));
        check.distance(&mut out, &d);
    }
    if let Some(c) = answer(&mut out, dog, label("contact"), "contact", || {
        query::contact(&ia, a, &ib, b, &tol)
    }) {
        out.terminations
            .insert("contact", format!("{:?}", c.termination));
        check.contact(&mut out, &c);
    }
    out
}
