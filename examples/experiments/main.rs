//! The study of the GJK variants (docs/experiments.md): every variant (subalgorithm ×
//! criterion × acceleration, [`VARIANTS`]) in f64, f32 and FixedI40F24 over (a) the
//! development corpus (its format: docs/corpus.md), per category, and (b) the shapes of
//! the accelerated-GJK papers (ellipsoids, hulls of 33…2500 points near a sphere) at gaps
//! from overlap to far. Per variant and group: GJK iterations of `query::distance` and
//! `query::intersection`, the median time per query, the distance error against the truth
//! and the wrong verdicts. Markdown tables on stdout and in `OUT/results.md`, SVG plots
//! in `OUT/` (default `target/experiments/`).
//!
//! ```text
//! cargo run --release --example experiments -- [--corpus DIR] [--out DIR] [--quick]
//!     [--scalar f64|f32|fixed|all] [--reps N] [--verbose]
//! ```
//! Without `--corpus` only the generated shapes run. `--verbose` lists every wrong verdict,
//! every distance error over the accepted one and every capped run. Exit code 2 for a bad option or an
//! unreadable corpus.

#[path = "../../tests/common/corpus.rs"]
mod corpus;
mod measure;
mod papers;
mod report;
#[path = "../../tests/common/runner.rs"]
mod runner;
#[path = "../../tests/common/splitmix.rs"]
mod splitmix;
mod svg;

use convex_proximity::{Acceleration as A, Criterion as C, Dim, Real, Subalgorithm as S};
use corpus::{Case, FromMatrix, PairQuery, Scalar, dispatch};
use measure::{Meta, Sample, Variant, measure};
use nalgebra::{Const, UnitComplex, UnitQuaternion};
use papers::{Kind, Papers};
use runner::Args;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The variants studied: the default first, then one change at a time, then the papers'
/// regime: loose absolute thresholds (`abs 1e-8`: the distance within 1e-8; `absdual
/// 1e-4`: the duality gap `g ≤ 1e-8`, the closest point within 1e-4), plain and with
/// momentum. In f32 and fixed-point a threshold below the rounding band is the band.
pub const VARIANTS: [Variant; 14] = [
    v(
        "sv/rel/none (default)",
        S::SignedVolumes,
        C::RelativeGap,
        A::None,
        None,
    ),
    v(
        "johnson/rel/none",
        S::Johnson,
        C::RelativeGap,
        A::None,
        None,
    ),
    v(
        "sv/dual/none",
        S::SignedVolumes,
        C::DualityGap,
        A::None,
        None,
    ),
    v(
        "sv/abs/none",
        S::SignedVolumes,
        C::AbsoluteGap,
        A::None,
        None,
    ),
    v(
        "sv/absdual/none",
        S::SignedVolumes,
        C::AbsoluteDualityGap,
        A::None,
        None,
    ),
    v(
        "sv/rel/nesterov",
        S::SignedVolumes,
        C::RelativeGap,
        A::Nesterov,
        None,
    ),
    v(
        "sv/rel/nesterov-n",
        S::SignedVolumes,
        C::RelativeGap,
        A::NesterovNormalized,
        None,
    ),
    v(
        "sv/rel/polyak",
        S::SignedVolumes,
        C::RelativeGap,
        A::Polyak,
        None,
    ),
    v(
        "sv/dual/nesterov",
        S::SignedVolumes,
        C::DualityGap,
        A::Nesterov,
        None,
    ),
    v(
        "sv/abs 1e-8/none",
        S::SignedVolumes,
        C::AbsoluteGap,
        A::None,
        Some(1e-8),
    ),
    v(
        "sv/abs 1e-8/nesterov",
        S::SignedVolumes,
        C::AbsoluteGap,
        A::Nesterov,
        Some(1e-8),
    ),
    v(
        "sv/absdual 1e-4/none",
        S::SignedVolumes,
        C::AbsoluteDualityGap,
        A::None,
        Some(1e-4),
    ),
    v(
        "sv/absdual 1e-4/nesterov",
        S::SignedVolumes,
        C::AbsoluteDualityGap,
        A::Nesterov,
        Some(1e-4),
    ),
    v(
        "sv/absdual 1e-4/nesterov-n",
        S::SignedVolumes,
        C::AbsoluteDualityGap,
        A::NesterovNormalized,
        Some(1e-4),
    ),
];

const fn v(name: &'static str, sub: S, crit: C, acc: A, abs: Option<f64>) -> Variant {
    Variant {
        name,
        sub,
        crit,
        acc,
        abs,
    }
}

const OPTIONS: [(&str, bool); 7] = [
    ("verbose", false),
    ("corpus", true),
    ("out", true),
    ("quick", false),
    ("scalar", true),
    ("reps", true),
    ("help", false),
];

const USAGE: &str = "usage: experiments [--corpus DIR] [--out DIR] [--quick] \
[--scalar f64|f32|fixed|all] [--reps N] [--verbose]";

/// The samples of one scalar.
pub struct Run {
    pub scalar: Scalar,
    pub samples: Vec<Sample>,
    pub seconds: f64,
}

/// Every pair's metadata (corpus first, then the generated pairs) and the runs.
pub struct Study {
    pub metas: Vec<Meta>,
    pub runs: Vec<Run>,
}

/// The corpus pairs of one dimension, as metadata, with their indices in the study.
struct CorpusPairs {
    dim: usize,
    cases: Vec<(usize, Case)>,
}

fn corpus_meta(c: &Case) -> Meta {
    Meta {
        id: c.id.clone(),
        group: format!("{}D {}", c.dim, c.category),
        gap: None,
        vertices: 0,
        intersecting: c.expect.intersecting,
        distance: if c.expect.intersecting {
            0.0
        } else {
            c.expect.distance
        },
        signed: c.signed_distance(),
        scale: c.meta.scale,
        size: c.meta.scale + c.max_coord(),
        boundary: c.meta.boundary,
    }
}

/// The corpus query of one case: every variant on the concrete shape types.
struct OnCase<'a, T: Real, R, const D: usize> {
    poses: (nalgebra::Isometry<T, R, D>, nalgebra::Isometry<T, R, D>),
    meta: &'a Meta,
    pair: usize,
    scalar: Scalar,
    reps: usize,
}

impl<T, R, const D: usize> PairQuery<T, D> for OnCase<'_, T, R, D>
where
    T: Real,
    R: FromMatrix<T, D>,
    Const<D>: Dim,
{
    type Output = Vec<Sample>;
    fn run<
        X: convex_proximity::shape::SupportMap<T, D>,
        Y: convex_proximity::shape::SupportMap<T, D>,
    >(
        &mut self,
        a: &X,
        b: &Y,
    ) -> Vec<Sample> {
        let (pa, pb) = &self.poses;
        measure(
            pa,
            a,
            pb,
            b,
            &VARIANTS,
            self.meta,
            self.pair,
            self.scalar,
            self.reps,
        )
    }
}

/// A failure of every variant (a shape the scalar cannot build).
fn failed(pair: usize) -> Vec<Sample> {
    (0..VARIANTS.len())
        .map(|variant| Sample {
            variant,
            pair,
            failed: true,
            ..Sample::default()
        })
        .collect()
}

fn run_corpus<T, R, const D: usize>(
    cp: &CorpusPairs,
    metas: &[Meta],
    scalar: Scalar,
    reps: usize,
    out: &mut Vec<Sample>,
) where
    T: Real,
    R: FromMatrix<T, D>,
    Const<D>: Dim,
{
    for (pair, case) in &cp.cases {
        if !scalar.covers(case) {
            continue;
        }
        let Ok((pa, pb)) = case.placed::<D>() else {
            out.extend(failed(*pair));
            continue;
        };
        let (Ok(a), Ok(b)) = (pa.shape::<T>(), pb.shape::<T>()) else {
            out.extend(failed(*pair));
            continue;
        };
        let mut q = OnCase {
            poses: (pa.pose::<T, R>(), pb.pose::<T, R>()),
            meta: &metas[*pair],
            pair: *pair,
            scalar,
            reps,
        };
        out.extend(dispatch(&a, &b, &mut q));
    }
}

fn run_papers<T: Real>(
    papers: &Papers,
    first: usize,
    metas: &[Meta],
    scalar: Scalar,
    reps: usize,
    out: &mut Vec<Sample>,
) {
    let hulls: Vec<_> = papers.pool.iter().map(|p| papers::hull::<T>(p)).collect();
    for (k, (a, b, _)) in papers.pairs.iter().enumerate() {
        let pair = first + k;
        let meta = &metas[pair];
        // The fixed-point range: the subset the corpus evaluates there (|coordinate| ≤ 8).
        if scalar == Scalar::Fixed && meta.size - meta.scale > 8.0 {
            continue;
        }
        let (pa, pb) = (papers::pose::<T>(a), papers::pose::<T>(b));
        let samples = match (&a.kind, &b.kind) {
            (Kind::Ellipsoid(xa), Kind::Ellipsoid(xb)) => {
                let (sa, sb) = (papers::ellipsoid::<T>(xa), papers::ellipsoid::<T>(xb));
                measure(&pa, &sa, &pb, &sb, &VARIANTS, meta, pair, scalar, reps)
            }
            (Kind::Hull(ia), Kind::Hull(ib)) => measure(
                &pa,
                &hulls[*ia],
                &pb,
                &hulls[*ib],
                &VARIANTS,
                meta,
                pair,
                scalar,
                reps,
            ),
            _ => unreachable!("pairs are of one kind"),
        };
        out.extend(samples);
    }
}

fn run_scalar<T: Real>(
    corpora: &[CorpusPairs],
    papers: &Papers,
    metas: &[Meta],
    scalar: Scalar,
    reps: usize,
) -> Run {
    let start = Instant::now();
    let mut samples = Vec::new();
    for cp in corpora {
        match cp.dim {
            2 => run_corpus::<T, UnitComplex<T>, 2>(cp, metas, scalar, reps, &mut samples),
            _ => run_corpus::<T, UnitQuaternion<T>, 3>(cp, metas, scalar, reps, &mut samples),
        }
    }
    let first = corpora.iter().map(|c| c.cases.len()).sum();
    run_papers::<T>(papers, first, metas, scalar, reps, &mut samples);
    Run {
        scalar,
        samples,
        seconds: start.elapsed().as_secs_f64(),
    }
}

struct Config {
    corpus: Option<PathBuf>,
    out: PathBuf,
    quick: bool,
    scalars: Vec<Scalar>,
    reps: usize,
    verbose: bool,
}

/// Every wrong verdict, distance error over the accepted one and capped run of `run`, one
/// line each.
fn list(run: &Run, metas: &[Meta]) {
    for s in &run.samples {
        let m = &metas[s.pair];
        let what = [
            (s.failed, "failed"),
            (s.dist_wrong, "wrong distance verdict"),
            (s.int_wrong, "wrong intersection verdict"),
            (s.over, "distance error over the accepted one"),
            (s.capped, "capped"),
        ];
        for (hit, text) in what {
            if hit {
                println!(
                    "{} {} {}: {text} (truth signed distance {:e}, distance error {:e}, {} iterations, \
                     bounds [{:e}, {:e}]; terminations {:?})",
                    run.scalar.name(),
                    VARIANTS[s.variant].name,
                    m.id,
                    m.signed,
                    s.error,
                    s.dist_iterations,
                    s.bounds.0,
                    s.bounds.1,
                    s.terminations
                );
            }
        }
    }
}

fn parse() -> Result<Option<Config>, String> {
    let args = Args::parse(&OPTIONS)?;
    if args.flag("help") {
        return Ok(None);
    }
    let scalars = Scalar::list(args.value("scalar").unwrap_or("all"))?;
    let quick = args.flag("quick");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    Ok(Some(Config {
        corpus: args.value("corpus").map(PathBuf::from),
        out: args
            .value("out")
            .map_or_else(|| root.join("target/experiments"), PathBuf::from),
        quick,
        scalars,
        reps: args.number("reps", if quick { 3 } else { 9 })?,
        verbose: args.flag("verbose"),
    }))
}

fn main() {
    let cfg = match parse() {
        Ok(Some(c)) => c,
        Ok(None) => {
            println!("{USAGE}");
            return;
        }
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            std::process::exit(2)
        }
    };
    let start = Instant::now();
    let mut metas = Vec::new();
    let mut corpora = Vec::new();
    if let Some(dir) = &cfg.corpus {
        for dim in [3, 2] {
            let cases = corpus::load(dir, dim).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            // --quick: every fifth case (each category keeps a fifth).
            let step = if cfg.quick { 5 } else { 1 };
            let cases: Vec<(usize, Case)> = cases
                .into_iter()
                .step_by(step)
                .map(|c| {
                    metas.push(corpus_meta(&c));
                    (metas.len() - 1, c)
                })
                .collect();
            corpora.push(CorpusPairs { dim, cases });
        }
    } else {
        println!("no --corpus DIR: the generated shapes only (docs/corpus.md for the format)");
    }
    let sizes = if cfg.quick {
        papers::Sizes {
            ellipsoids_per_gap: 8,
            hulls_per_gap: 3,
            pool_per_size: 3,
        }
    } else {
        papers::Sizes {
            ellipsoids_per_gap: 100,
            hulls_per_gap: 20,
            pool_per_size: 8,
        }
    };
    let papers = papers::generate(sizes);
    metas.extend(papers.pairs.iter().map(|(_, _, m)| m.clone()));
    println!(
        "{} corpus pairs, {} generated pairs, set up in {:.1} s",
        corpora.iter().map(|c| c.cases.len()).sum::<usize>(),
        papers.pairs.len(),
        start.elapsed().as_secs_f64()
    );
    let mut runs = Vec::new();
    for &scalar in &cfg.scalars {
        let run = match scalar {
            Scalar::F64 => run_scalar::<f64>(&corpora, &papers, &metas, scalar, cfg.reps),
            Scalar::F32 => run_scalar::<f32>(&corpora, &papers, &metas, scalar, cfg.reps),
            #[cfg(feature = "fixed")]
            Scalar::Fixed => run_scalar::<simba::scalar::FixedI40F24>(
                &corpora, &papers, &metas, scalar, cfg.reps,
            ),
            #[cfg(not(feature = "fixed"))]
            Scalar::Fixed => {
                println!("fixed: not built (the `fixed` feature is off)");
                continue;
            }
        };
        println!(
            "{}: {} samples in {:.1} s",
            scalar.name(),
            run.samples.len(),
            run.seconds
        );
        if cfg.verbose {
            list(&run, &metas);
        }
        runs.push(run);
    }
    let study = Study { metas, runs };
    let text = report::markdown(&study, cfg.quick, cfg.reps);
    println!("{text}");
    if let Err(e) = report::write(&study, &cfg.out, &text) {
        eprintln!("cannot write to {}: {e}", cfg.out.display());
        std::process::exit(2)
    }
    println!(
        "results.md and plots in {}; total {:.1} s",
        cfg.out.display(),
        start.elapsed().as_secs_f64()
    );
}
