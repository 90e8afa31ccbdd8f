//! The study's tables (markdown) and plots (SVG): statistics per variant and group.

use crate::corpus::{CATEGORIES, Scalar};
use crate::measure::{Meta, Sample};
use crate::papers::{GAPS, HULL_SIZES};
use crate::runner::median;
use crate::svg::{self, Series};
use crate::{Run, Study, VARIANTS};
use std::fmt::Write as _;
use std::path::Path;

/// The statistics of one variant over one set of pairs.
struct Stats {
    n: usize,
    mean_it: f64,
    med_it: f64,
    max_it: u32,
    /// The median over pairs of each pair's median time, µs.
    med_us: f64,
    /// The largest `error / accepted error`.
    max_err: f64,
    over: usize,
    wrong_d: usize,
    wrong_i: usize,
    failed: usize,
    capped: usize,
    int_mean_it: f64,
    int_med_us: f64,
}

type Filter<'a> = Box<dyn Fn(&Meta) -> bool + 'a>;

fn stats(study: &Study, run: &Run, variant: usize, keep: &dyn Fn(&Meta) -> bool) -> Option<Stats> {
    let rows: Vec<(&Sample, &Meta)> = run
        .samples
        .iter()
        .filter(|s| s.variant == variant)
        .map(|s| (s, &study.metas[s.pair]))
        .filter(|(_, m)| keep(m))
        .collect();
    if rows.is_empty() {
        return None;
    }
    let ok: Vec<&(&Sample, &Meta)> = rows.iter().filter(|(s, _)| !s.failed).collect();
    let n = ok.len().max(1) as f64;
    let mut its: Vec<f64> = ok
        .iter()
        .map(|(s, _)| f64::from(s.dist_iterations))
        .collect();
    let mut ns: Vec<f64> = ok.iter().map(|(s, _)| s.dist_ns).collect();
    let mut ins: Vec<f64> = ok.iter().map(|(s, _)| s.int_ns).collect();
    Some(Stats {
        n: rows.len(),
        mean_it: its.iter().sum::<f64>() / n,
        med_it: median(&mut its),
        max_it: ok.iter().map(|(s, _)| s.dist_iterations).max().unwrap_or(0),
        med_us: median(&mut ns) / 1e3,
        max_err: ok
            .iter()
            .map(|(s, m)| s.error / m.threshold(run.scalar))
            .fold(0.0, f64::max),
        over: ok.iter().filter(|(s, _)| s.over).count(),
        wrong_d: ok.iter().filter(|(s, _)| s.dist_wrong).count(),
        wrong_i: ok.iter().filter(|(s, _)| s.int_wrong).count(),
        failed: rows.len() - ok.len(),
        capped: ok.iter().filter(|(s, _)| s.capped).count(),
        int_mean_it: ok
            .iter()
            .map(|(s, _)| f64::from(s.int_iterations))
            .sum::<f64>()
            / n,
        int_med_us: median(&mut ins) / 1e3,
    })
}

/// One table: a row per variant, a column per filter, `cell` formatting the statistics.
fn table(
    out: &mut String,
    title: &str,
    study: &Study,
    run: &Run,
    cols: &[(String, Filter)],
    cell: &dyn Fn(&Stats) -> String,
) {
    let present: Vec<&(String, Filter)> = cols
        .iter()
        .filter(|(_, f)| stats(study, run, 0, f.as_ref()).is_some())
        .collect();
    if present.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n**{} — {}**\n", run.scalar.name(), title);
    let _ = write!(out, "| variant |");
    for (name, _) in &present {
        let _ = write!(out, " {name} |");
    }
    let _ = write!(out, "\n|---|");
    for _ in &present {
        out.push_str("---:|");
    }
    out.push('\n');
    for (v, var) in VARIANTS.iter().enumerate() {
        let _ = write!(out, "| {} |", var.name);
        for (_, f) in &present {
            let s = stats(study, run, v, f.as_ref());
            let _ = write!(out, " {} |", s.map_or("–".into(), |s| cell(&s)));
        }
        out.push('\n');
    }
}

/// The corpus's categories of dimension `dim`, as columns.
fn corpus_cols<'a>(dim: usize) -> Vec<(String, Filter<'a>)> {
    CATEGORIES
        .iter()
        .map(|c| {
            let g = format!("{dim}D {c}");
            let f: Filter = Box::new(move |m: &Meta| m.group == g);
            (c.to_string(), f)
        })
        .collect()
}

/// The generated families as columns.
fn family_cols<'a>() -> Vec<(String, Filter<'a>)> {
    let mut cols: Vec<(String, Filter)> = vec![(
        "ellipsoids".into(),
        Box::new(|m: &Meta| m.group == "ellipsoids"),
    )];
    for n in HULL_SIZES {
        let g = format!("hull{n}");
        cols.push((format!("hull {n}"), Box::new(move |m: &Meta| m.group == g)));
    }
    cols
}

/// One column per imposed gap of the family `group` (a prefix: "hull" pools every size).
fn gap_cols<'a>(group: &'a str) -> Vec<(String, Filter<'a>)> {
    GAPS.iter()
        .enumerate()
        .map(|(i, g)| {
            let f: Filter = Box::new(move |m: &Meta| {
                m.group.starts_with(group) && m.gap.is_some_and(|(k, _)| k == i)
            });
            (format!("{g:e}"), f)
        })
        .collect()
}

/// Near contact (gaps 1e-4…1e-2) per hull size.
fn near_cols<'a>() -> Vec<(String, Filter<'a>)> {
    HULL_SIZES
        .iter()
        .map(|&n| {
            let g = format!("hull{n}");
            let f: Filter = Box::new(move |m: &Meta| {
                m.group == g && m.gap.is_some_and(|(_, x)| x > 0.0 && x <= 1e-2)
            });
            (format!("hull {n}"), f)
        })
        .collect()
}

fn its(s: &Stats) -> String {
    format!("{:.2} / {} / {}", s.mean_it, s.med_it, s.max_it)
}
fn mean_it(s: &Stats) -> String {
    format!("{:.2}", s.mean_it)
}
fn int_it(s: &Stats) -> String {
    format!("{:.2}", s.int_mean_it)
}
fn us(s: &Stats) -> String {
    format!("{:.3}", s.med_us)
}
fn int_us(s: &Stats) -> String {
    format!("{:.3}", s.int_med_us)
}
fn accuracy(s: &Stats) -> String {
    format!(
        "{} · {:.2} · {} · {}/{} · {} · {}",
        s.n, s.max_err, s.over, s.wrong_d, s.wrong_i, s.capped, s.failed
    )
}

/// The git commit of the working tree, if git answers.
fn commit() -> String {
    std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "?".into(), |s| s.trim().to_string())
}

/// Every table of every scalar.
pub fn markdown(study: &Study, quick: bool, reps: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# GJK variants: results\n\ncommit {}, {} run, {reps} timed batches per query \
         (times: median over pairs of each pair's median, µs). Iteration cells: mean / \
         median / max. Accuracy cells: pairs · max error / accepted error · pairs over it · wrong \
         verdicts distance/intersection · capped runs · failures.",
        commit(),
        if quick { "quick" } else { "full" }
    );
    let all: Vec<(String, Filter)> = vec![
        ("corpus".into(), Box::new(|m: &Meta| m.gap.is_none())),
        (
            "ellipsoids".into(),
            Box::new(|m: &Meta| m.group == "ellipsoids"),
        ),
        (
            "hulls".into(),
            Box::new(|m: &Meta| m.group.starts_with("hull")),
        ),
    ];
    for run in &study.runs {
        let _ = writeln!(out, "\n## {} ({:.1} s)", run.scalar.name(), run.seconds);
        table(
            &mut out,
            "accuracy and verdicts",
            study,
            run,
            &all,
            &accuracy,
        );
        table(
            &mut out,
            "distance: mean iterations",
            study,
            run,
            &all,
            &mean_it,
        );
        table(&mut out, "distance: median µs", study, run, &all, &us);
        for dim in [3, 2] {
            let cols = corpus_cols(dim);
            let t = format!("corpus {dim}D, distance iterations");
            table(&mut out, &t, study, run, &cols, &its);
            let t = format!("corpus {dim}D, distance median µs");
            table(&mut out, &t, study, run, &cols, &us);
            let t = format!("corpus {dim}D, intersection mean iterations");
            table(&mut out, &t, study, run, &cols, &int_it);
            let t = format!("corpus {dim}D, intersection median µs");
            table(&mut out, &t, study, run, &cols, &int_us);
        }
        let fam = family_cols();
        table(
            &mut out,
            "papers' shapes, distance iterations",
            study,
            run,
            &fam,
            &its,
        );
        table(
            &mut out,
            "papers' shapes, distance median µs",
            study,
            run,
            &fam,
            &us,
        );
        table(
            &mut out,
            "papers' shapes, accuracy",
            study,
            run,
            &fam,
            &accuracy,
        );
        for (name, g) in [("ellipsoids", "ellipsoids"), ("hulls (all sizes)", "hull")] {
            let cols = gap_cols(g);
            let t = format!("{name} by signed distance, distance mean iterations");
            table(&mut out, &t, study, run, &cols, &mean_it);
            let t = format!("{name} by signed distance, intersection mean iterations");
            table(&mut out, &t, study, run, &cols, &int_it);
            let t = format!("{name} by signed distance, distance median µs");
            table(&mut out, &t, study, run, &cols, &us);
        }
        let near = near_cols();
        table(
            &mut out,
            "hulls near contact (gap 1e-4…1e-2), distance median µs",
            study,
            run,
            &near,
            &us,
        );
        table(
            &mut out,
            "hulls near contact (gap 1e-4…1e-2), distance mean iterations",
            study,
            run,
            &near,
            &mean_it,
        );
    }
    out
}

/// One series per variant of `cell` over `cols`.
fn series(
    study: &Study,
    run: &Run,
    cols: &[(String, Filter)],
    cell: &dyn Fn(&Stats) -> f64,
) -> Vec<Series> {
    VARIANTS
        .iter()
        .enumerate()
        .map(|(v, var)| Series {
            name: var.name.to_string(),
            values: cols
                .iter()
                .map(|(_, f)| stats(study, run, v, f.as_ref()).map_or(f64::NAN, |s| cell(&s)))
                .collect(),
        })
        .collect()
}

fn labels(cols: &[(String, Filter)]) -> Vec<String> {
    cols.iter().map(|(n, _)| n.clone()).collect()
}

/// `results.md` and the plots (of the f64 run, or the first) into `dir`.
pub fn write(study: &Study, dir: &Path, text: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("results.md"), text)?;
    let Some(run) = study
        .runs
        .iter()
        .find(|r| r.scalar == Scalar::F64)
        .or(study.runs.first())
    else {
        return Ok(());
    };
    let s = run.scalar.name();
    let mean = |x: &Stats| x.mean_it;
    let time = |x: &Stats| x.med_us;
    let mut plots: Vec<(String, String)> = Vec::new();
    for dim in [3, 2] {
        let cols = corpus_cols(dim);
        let cols: Vec<_> = cols
            .into_iter()
            .filter(|(_, f)| stats(study, run, 0, f.as_ref()).is_some())
            .collect();
        if cols.is_empty() {
            continue;
        }
        plots.push((
            format!("corpus{dim}d_iterations.svg"),
            svg::bars(
                &format!("corpus {dim}D: mean GJK iterations of distance ({s})"),
                "mean iterations",
                &labels(&cols),
                &series(study, run, &cols, &mean),
            ),
        ));
        plots.push((
            format!("corpus{dim}d_time.svg"),
            svg::bars(
                &format!("corpus {dim}D: median time of distance ({s})"),
                "µs per query",
                &labels(&cols),
                &series(study, run, &cols, &time),
            ),
        ));
    }
    for (file, name, g) in [
        ("ellipsoids", "ellipsoids", "ellipsoids"),
        ("hulls", "hulls, 33…2500 points", "hull"),
    ] {
        let cols = gap_cols(g);
        plots.push((
            format!("{file}_iterations.svg"),
            svg::lines(
                &format!("{name}: distance iterations vs signed distance ({s})"),
                "mean iterations",
                &labels(&cols),
                &series(study, run, &cols, &mean),
                false,
            ),
        ));
        plots.push((
            format!("{file}_intersection.svg"),
            svg::lines(
                &format!("{name}: intersection iterations vs signed distance ({s})"),
                "mean iterations",
                &labels(&cols),
                &series(study, run, &cols, &|x: &Stats| x.int_mean_it),
                false,
            ),
        ));
    }
    let near = near_cols();
    plots.push((
        "hulls_time.svg".into(),
        svg::lines(
            &format!("hulls near contact (gap 1e-4…1e-2): distance time vs points ({s})"),
            "median µs per query",
            &labels(&near),
            &series(study, run, &near, &time),
            true,
        ),
    ));
    for (file, text) in plots {
        std::fs::write(dir.join(file), text)?;
    }
    Ok(())
}
