//! The speed runner: convex-proximity against parry 0.31 on the development corpus, the
//! method of its README (docs/corpus.md): per case, both libraries' shapes built once and not
//! timed (parry's polytopes by `from_convex_hull` on the points relative to their centre,
//! which is the pose's translation; cases parry cannot build are not timed); per query one
//! warm-up call, then batches of 50 calls, time per call = median batch / 50; which library
//! goes first alternates per case. Prints per backend, query and category the median over
//! cases of the ratio ours/parry and the median ns per call of each, and both libraries'
//! clear wrong answers on the corpus (not timed); `--per-case FILE` writes every timed case.
//!
//! ```text
//! cargo run --release -p convex-proximity-peers --example corpus_speed -- [--corpus DIR]
//!     [--backend 3d-f64|2d-f64|3d-f32|2d-f32|all]
//!     [--query distance|intersects|contact|contact_within|all]
//!     [--category C] [--kinds A-B] [--batches N] [--per-case FILE]
//! # instruction counts: one library's calls only, no timing
//! valgrind --tool=callgrind --toggle-collect='*corpus_calls*' target/release/examples/corpus_speed \
//!     --callgrind ours|parry --backend 3d-f64 --query distance [--category C] [--kinds A-B] \
//!     [--reps N]
//! # --kinds: only pairs of these shape kinds, e.g. ball-cuboid (polytope, ball, capsule, cuboid)
//! ```

// `!(x <= tol)` is deliberate: a NaN must count as wrong.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod backend;
#[path = "../../benches/common/mod.rs"]
mod common;
#[path = "../../../tests/common/corpus.rs"]
mod corpus;
#[path = "../../../tests/common/runner.rs"]
mod runner;

use backend::{Lib, Plan, Query, Report};
use common::{Pose2F, Pose3F};
use corpus::{Case, FromMatrix, Placed};
use nalgebra::UnitQuaternion;
use runner::{Args, median};
use std::{io::Write, time::Instant};

/// Calls per timed batch.
const BATCH: usize = 50;

/// Calls `f` `reps` times; under callgrind, `--toggle-collect='*corpus_calls*'` counts these
/// calls only.
#[inline(never)]
pub fn corpus_calls<F: FnMut()>(reps: usize, mut f: F) {
    for _ in 0..reps {
        f();
    }
}

/// One warm-up call, then `batches` batches of [`BATCH`] calls: the median batch time per
/// call, in ns.
pub fn per_call<F: FnMut()>(batches: usize, mut f: F) -> f64 {
    f();
    let mut times: Vec<f64> = (0..batches)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..BATCH {
                f();
            }
            start.elapsed().as_nanos() as f64
        })
        .collect();
    median(&mut times) / BATCH as f64
}

/// `reps > 0`: calls `f` that often ([`corpus_calls`]) and returns 0; else [`per_call`].
pub fn measure<F: FnMut()>(batches: usize, reps: usize, f: F) -> f64 {
    if reps > 0 {
        corpus_calls(reps, f);
        0.0
    } else {
        per_call(batches, f)
    }
}

/// The benches' f64 pose of a placed corpus shape.
pub trait PoseOf<const D: usize> {
    fn pose_of(p: &Placed<D>) -> Self;
}

impl PoseOf<3> for Pose3F {
    fn pose_of(p: &Placed<3>) -> Self {
        let q = <UnitQuaternion<f64> as FromMatrix<f64, 3>>::from_matrix(&p.rotation);
        Self {
            t: p.translation.into(),
            q: [q.w, q.i, q.j, q.k],
        }
    }
}

impl PoseOf<2> for Pose2F {
    fn pose_of(p: &Placed<2>) -> Self {
        Self {
            t: p.translation.into(),
            angle: p.rotation[(1, 0)].atan2(p.rotation[(0, 0)]),
        }
    }
}

backend::backend!(
    d3_f64,
    parry3d_f64,
    f64,
    crate::corpus::Scalar::F64,
    3,
    ConvexPolyhedron,
    "3d-f64"
);
backend::backend!(
    d2_f64,
    parry2d_f64,
    f64,
    crate::corpus::Scalar::F64,
    2,
    ConvexPolygon,
    "2d-f64"
);
backend::backend!(
    d3_f32,
    parry3d,
    f32,
    crate::corpus::Scalar::F32,
    3,
    ConvexPolyhedron,
    "3d-f32"
);
backend::backend!(
    d2_f32,
    parry2d,
    f32,
    crate::corpus::Scalar::F32,
    2,
    ConvexPolygon,
    "2d-f32"
);

/// The backends: label, dimension, runner.
type Runner = fn(&[Case], &Plan) -> Report;
const BACKENDS: [(&str, usize, Runner); 4] = [
    (d3_f64::LABEL, 3, d3_f64::run),
    (d2_f64::LABEL, 2, d2_f64::run),
    (d3_f32::LABEL, 3, d3_f32::run),
    (d2_f32::LABEL, 2, d2_f32::run),
];

const OPTIONS: [(&str, bool); 10] = [
    ("corpus", true),
    ("backend", true),
    ("query", true),
    ("category", true),
    ("kinds", true),
    ("batches", true),
    ("callgrind", true),
    ("reps", true),
    ("per-case", true),
    ("help", false),
];

const USAGE: &str = "usage: corpus_speed [--corpus DIR] [--backend 3d-f64|2d-f64|3d-f32|2d-f32|all] \
[--query distance|intersects|contact|contact_within|all] [--category C] [--kinds A-B] [--batches N] \
[--per-case FILE] [--callgrind ours|parry --reps N]";

/// The timing table of one backend: per query and category, the cases timed, the median
/// ratio ours/parry and the median ns per call of each.
fn print_times(r: &Report, queries: &[Query]) {
    println!(
        "{:<11} {:<18} {:>6} {:>8} {:>9} {:>9}",
        "query", "category", "cases", "ratio", "ours ns", "parry ns"
    );
    for &q in queries {
        let k = Query::ALL.iter().position(|x| *x == q).unwrap_or(0);
        let mut cats: Vec<&str> = corpus::CATEGORIES.to_vec();
        cats.push("all");
        for cat in cats {
            let rows: Vec<(f64, f64)> = r
                .timings
                .iter()
                .filter(|t| cat == "all" || t.category == cat)
                .filter_map(|t| Some((t.ours[k]?, t.parry[k]?)))
                .collect();
            if rows.is_empty() {
                continue;
            }
            let mut ratio: Vec<f64> = rows.iter().map(|(o, p)| o / p).collect();
            let mut ours: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let mut parry: Vec<f64> = rows.iter().map(|r| r.1).collect();
            println!(
                "{:<11} {cat:<18} {:>6} {:>8.3} {:>9.0} {:>9.0}",
                q.name(),
                rows.len(),
                median(&mut ratio),
                median(&mut ours),
                median(&mut parry)
            );
        }
    }
}

/// Appends one line per timed case and query to `out`: backend, query, case id, category,
/// shape kinds, ours ns, parry ns, ratio (tab-separated).
fn write_cases(out: &mut impl Write, r: &Report, queries: &[Query]) -> std::io::Result<()> {
    for &q in queries {
        let k = Query::ALL.iter().position(|x| *x == q).unwrap_or(0);
        for t in &r.timings {
            if let (Some(o), Some(p)) = (t.ours[k], t.parry[k]) {
                let (id, cat, kinds) = (&t.id, &t.category, &t.kinds);
                let name = q.name();
                writeln!(
                    out,
                    "{}\t{name}\t{id}\t{cat}\t{kinds}\t{o:.1}\t{p:.1}\t{:.3}",
                    r.label,
                    o / p
                )?;
            }
        }
    }
    Ok(())
}

/// Both libraries' clear wrong answers on the backend.
fn print_tallies(r: &Report) {
    println!(
        "answers (not timed; {} thresholds): {:>6} {:>9} {:>8} {:>10} {:>12} {:>9} {:>9}",
        r.scalar.name(),
        "cases",
        "not built",
        "failures",
        "intersects",
        "contact sign",
        "distance",
        "depth"
    );
    for (name, t) in [("ours", &r.ours), ("parry", &r.parry)] {
        println!(
            "  {name:<33} {:>6} {:>9} {:>8} {:>10} {:>12} {:>9} {:>9}",
            t.cases, t.not_built, t.failures, t.verdict, t.sign, t.distance, t.depth
        );
    }
    for (name, t) in [("ours", &r.ours), ("parry", &r.parry)] {
        for e in &t.examples {
            println!("  {name} failure: {e}");
        }
    }
}

/// The options, the queries and the callgrind mode (library and calls per case).
type Parsed = (Args, Vec<Query>, Option<(Lib, usize)>);

fn parse() -> Result<Parsed, String> {
    let args = Args::parse(&OPTIONS)?;
    let queries = match args.value("query").unwrap_or("all") {
        "all" => Query::ALL.to_vec(),
        q => vec![
            Query::ALL
                .into_iter()
                .find(|x| x.name() == q)
                .ok_or_else(|| format!("--query {q}: unknown"))?,
        ],
    };
    let callgrind = match args.value("callgrind") {
        None => None,
        Some(lib) => {
            let lib = match lib {
                "ours" => Lib::Ours,
                "parry" => Lib::Parry,
                l => return Err(format!("--callgrind {l}: expected ours or parry")),
            };
            if queries.len() != 1 || args.value("backend").is_none_or(|b| b == "all") {
                return Err("--callgrind needs one --backend and one --query".to_string());
            }
            Some((lib, args.number("reps", 100usize)?.max(1)))
        }
    };
    Ok((args, queries, callgrind))
}

fn main() {
    let (args, queries, callgrind) = parse().unwrap_or_else(|e| {
        eprintln!("{e}\n{USAGE}");
        std::process::exit(2)
    });
    if args.flag("help") {
        println!("{USAGE}");
        return;
    }
    let batches = args.number("batches", 7usize).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let dir = corpus::corpus_dir(args.value("corpus")).unwrap_or_else(|e| {
        eprintln!("{e}\n{USAGE}");
        std::process::exit(2)
    });
    let wanted = args.value("backend").unwrap_or("all");
    let backends: Vec<_> = BACKENDS
        .iter()
        .filter(|b| wanted == "all" || b.0 == wanted)
        .collect();
    if backends.is_empty() {
        eprintln!("--backend {wanted}: unknown\n{USAGE}");
        std::process::exit(2);
    }
    let mut corpora: Vec<(usize, Vec<Case>)> = Vec::new();
    for &&(_, dim, _) in &backends {
        if corpora.iter().all(|(d, _)| *d != dim) {
            let mut cases = corpus::load(&dir, dim).unwrap_or_else(|e| {
                eprintln!("{e}");
                std::process::exit(2)
            });
            if let Some(cat) = args.value("category") {
                cases.retain(|c| c.category == cat);
            }
            if let Some(kinds) = args.value("kinds") {
                cases.retain(|c| format!("{}-{}", c.a.kind(), c.b.kind()) == kinds);
            }
            corpora.push((dim, cases));
        }
    }
    let plan = Plan {
        queries: &queries,
        batches: batches.max(1),
        callgrind,
    };
    let mut per_case = args.value("per-case").map(|f| {
        let f = std::fs::File::create(f).unwrap_or_else(|e| {
            eprintln!("--per-case {f}: {e}");
            std::process::exit(2)
        });
        std::io::BufWriter::new(f)
    });
    for &&(label, dim, run) in &backends {
        let cases = &corpora.iter().find(|(d, _)| *d == dim).expect("loaded").1;
        let start = Instant::now();
        let r = run(cases, &plan);
        let secs = start.elapsed().as_secs_f64();
        if let Some((lib, _)) = callgrind {
            println!(
                "callgrind: {} calls of {} {} on {label} ({} cases, category {})",
                r.calls,
                if lib == Lib::Ours { "ours" } else { "parry" },
                queries[0].name(),
                r.timings.len(),
                args.value("category").unwrap_or("all")
            );
            continue;
        }
        println!(
            "\n== {label}: {} cases, {} timed (built by both), {} batches of {BATCH}, {secs:.1} s ==",
            cases.len(),
            r.timings.len(),
            plan.batches
        );
        print_times(&r, &queries);
        print_tallies(&r);
        if let Some(out) = &mut per_case
            && let Err(e) = write_cases(out, &r, &queries)
        {
            eprintln!("--per-case: {e}");
            std::process::exit(2)
        }
    }
}
