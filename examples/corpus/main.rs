//! The correctness runner: every case of the development corpus (its format and metrics:
//! docs/corpus.md) through `query::intersects`, `query::distance` and `query::contact` with
//! default tolerances, in f64, f32 (inputs cast) and FixedI40F24 (the unit-scale subset),
//! in 2D and 3D. Prints per scalar and dimension the cases failing each metric per
//! category, the terminations, and the worst cases per metric.
//!
//! ```text
//! cargo run --release --example corpus -- [--corpus DIR] [--scalar f64|f32|fixed|all]
//!     [--dim 2|3|all] [--category C] [--dump FILE] [--verbose]
//! ```
//! Exit code 0 whatever the metrics say (a measuring tool); 2 for unreadable input or a bad
//! option; 3 when a query gives no answer within 10 s (the watchdog names the case).

// `!(x <= tol)` is deliberate: a NaN must count as wrong.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

#[path = "../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../tests/common/corpus_metrics.rs"]
mod metrics;
mod report;
#[path = "../../tests/common/runner.rs"]
mod runner;
#[path = "../../tests/common/watchdog.rs"]
mod watchdog;

use convex_proximity::{Real, epa::ContactDim};
use corpus::{Case, FromMatrix, Scalar};
use nalgebra::{Const, UnitComplex, UnitQuaternion};
use runner::Args;
use std::time::{Duration, Instant};
use watchdog::Watchdog;

/// A query that has not answered after this long is a hang.
const HANG_LIMIT: Duration = Duration::from_secs(10);

const OPTIONS: [(&str, bool); 7] = [
    ("corpus", true),
    ("scalar", true),
    ("dim", true),
    ("category", true),
    ("dump", true),
    ("verbose", false),
    ("help", false),
];

const USAGE: &str = "usage: corpus [--corpus DIR] [--scalar f64|f32|fixed|all] [--dim 2|3|all] \
[--category C] [--dump FILE] [--verbose]";

/// Every case of `cases` that `scalar` covers, in dimension `D` with rotations `R`.
fn run_dim<'a, T, R, const D: usize>(
    cases: &'a [Case],
    scalar: Scalar,
    dog: &Watchdog,
    verbose: bool,
) -> report::Run<'a>
where
    T: Real,
    R: FromMatrix<T, D>,
    Const<D>: ContactDim<T, D>,
{
    let start = Instant::now();
    let results = cases
        .iter()
        .filter(|c| scalar.covers(c))
        .map(|c| {
            let r = metrics::evaluate::<T, R, D>(c, scalar, dog);
            if verbose {
                for f in &r.findings {
                    eprintln!(
                        "{} {} {}: {}",
                        scalar.name(),
                        c.id,
                        f.metric.name(),
                        f.detail
                    );
                }
            }
            (c, r)
        })
        .collect();
    report::Run {
        scalar,
        dim: D,
        seconds: start.elapsed().as_secs_f64(),
        results,
    }
}

/// Both dimensions of one scalar type.
fn run_scalar<'a, T: Real>(
    corpora: &'a [(usize, Vec<Case>)],
    scalar: Scalar,
    dog: &Watchdog,
    verbose: bool,
) -> Vec<report::Run<'a>> {
    corpora
        .iter()
        .map(|(dim, cases)| match dim {
            2 => run_dim::<T, UnitComplex<T>, 2>(cases, scalar, dog, verbose),
            _ => run_dim::<T, UnitQuaternion<T>, 3>(cases, scalar, dog, verbose),
        })
        .collect()
}

/// The worst `|R(rotation) − matrix|` over the cuboids of a corpus.
fn rotation_check(cases: &[Case], dim: usize) -> f64 {
    let mut worst = 0.0f64;
    for c in cases {
        let placed = |c: &Case| -> Vec<f64> {
            match dim {
                2 => c.placed::<2>().map_or(vec![], |(a, b)| {
                    [a, b]
                        .iter()
                        .map(|p| corpus::rotation_error::<2, UnitComplex<f64>>(&p.rotation))
                        .collect()
                }),
                _ => c.placed::<3>().map_or(vec![], |(a, b)| {
                    [a, b]
                        .iter()
                        .map(|p| corpus::rotation_error::<3, UnitQuaternion<f64>>(&p.rotation))
                        .collect()
                }),
            }
        };
        worst = placed(c).into_iter().fold(worst, f64::max);
    }
    worst
}

fn parse() -> Result<(Args, Vec<Scalar>, Vec<usize>), String> {
    let args = Args::parse(&OPTIONS)?;
    let scalars = Scalar::list(args.value("scalar").unwrap_or("all"))?;
    let dims = match args.value("dim").unwrap_or("all") {
        "2" => vec![2],
        "3" => vec![3],
        "all" => vec![3, 2],
        d => return Err(format!("--dim {d}: expected 2, 3 or all")),
    };
    Ok((args, scalars, dims))
}

fn main() {
    let (args, scalars, dims) = parse().unwrap_or_else(|e| {
        eprintln!("{e}\n{USAGE}");
        std::process::exit(2)
    });
    if args.flag("help") {
        println!("{USAGE}");
        return;
    }
    let dir = corpus::corpus_dir(args.value("corpus")).unwrap_or_else(|e| {
        eprintln!("{e}\n{USAGE}");
        std::process::exit(2)
    });
    let start = Instant::now();
    let corpora: Vec<(usize, Vec<Case>)> = dims
        .iter()
        .map(|&d| {
            let mut cases = corpus::load(&dir, d).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            if let Some(cat) = args.value("category") {
                cases.retain(|c| c.category == cat);
            }
            (d, cases)
        })
        .collect();
    println!(
        "corpus {} read in {:.2} s",
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    for (d, cases) in &corpora {
        println!(
            "{d}D: {} cases ({} in the fixed-point subset); rotations exact to {:.1e}",
            cases.len(),
            cases.iter().filter(|c| c.unit_scale()).count(),
            rotation_check(cases, *d)
        );
    }
    let dog = Watchdog::start(HANG_LIMIT);
    let verbose = args.flag("verbose");
    let mut dump = Vec::new();
    for scalar in scalars {
        let runs = match scalar {
            Scalar::F64 => run_scalar::<f64>(&corpora, scalar, &dog, verbose),
            Scalar::F32 => run_scalar::<f32>(&corpora, scalar, &dog, verbose),
            #[cfg(feature = "fixed")]
            Scalar::Fixed => {
                run_scalar::<simba::scalar::FixedI40F24>(&corpora, scalar, &dog, verbose)
            }
            #[cfg(not(feature = "fixed"))]
            Scalar::Fixed => {
                println!("fixed: not built (the `fixed` feature is off)");
                continue;
            }
        };
        for run in &runs {
            println!("\n{}", run.summary());
            dump.extend(run.dump());
        }
    }
    println!("total {:.2} s", start.elapsed().as_secs_f64());
    if let Some(path) = args.value("dump") {
        let text: String = dump.iter().map(|l| format!("{l}\n")).collect();
        match std::fs::write(path, text) {
            Ok(()) => println!(
                "{} offending (case, scalar) lines written to {path}",
                dump.len()
            ),
            Err(e) => {
                eprintln!("cannot write {path}: {e}");
                std::process::exit(2)
            }
        }
    }
}
