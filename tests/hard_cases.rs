//! Hard cases of the development corpus, vendored in `tests/data/hard_cases.jsonl`: the
//! pairs on which an earlier version answered wrong in some scalar (near-parallel faces,
//! f32 pairs inside the old √ε touching band, fixed-point gaps of 1e-4, boxes, rounded
//! shapes, far and scaled pairs; issue "No wrong answer in any scalar"). Every case is
//! scored by the corpus runner's metrics (docs/corpus.md) in f64, f32 and — on the
//! unit-scale subset — FixedI40F24, and must have no finding at all.

#[path = "common/corpus.rs"]
mod corpus;
#[path = "common/corpus_metrics.rs"]
mod metrics;
#[path = "common/runner.rs"]
mod runner;
#[path = "common/watchdog.rs"]
mod watchdog;

use convex_proximity::{Real, epa::ContactDim};
use corpus::{Case, FromMatrix, Scalar};
use nalgebra::Const;
use std::time::Duration;
use watchdog::Watchdog;

const DATA: &str = include_str!("data/hard_cases.jsonl");

fn cases(dim: usize) -> Vec<Case> {
    DATA.lines()
        .map(|l| Case::parse(l).expect("vendored case parses"))
        .filter(|c| c.dim == dim)
        .collect()
}

fn score<T: Real, R: FromMatrix<T, D>, const D: usize>(scalar: Scalar)
where
    Const<D>: ContactDim<T, D>,
{
    let dog = Watchdog::start(Duration::from_secs(10));
    let cases = cases(D);
    assert!(!cases.is_empty());
    let mut bad = Vec::new();
    for c in cases.iter().filter(|c| scalar.covers(c)) {
        let r = metrics::evaluate::<T, R, D>(c, scalar, &dog);
        for f in r.findings {
            bad.push(format!("{} {:?}: {}", c.id, f.metric, f.detail));
        }
    }
    assert!(
        bad.is_empty(),
        "{} findings ({}):\n{}",
        bad.len(),
        scalar.name(),
        bad.join("\n")
    );
}

corpus::vendored_cases!(score);
