//! The printed summary of one scalar and dimension: counts per category and metric, the
//! terminations, the worst cases per metric; and the dump of every offending case.

use crate::corpus::{CATEGORIES, Case, Scalar};
use crate::metrics::{CaseResult, Finding, Metric};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How many worst cases each metric lists.
const WORST: usize = 5;

/// The results of one scalar in one dimension.
pub struct Run<'a> {
    pub scalar: Scalar,
    pub dim: usize,
    pub seconds: f64,
    pub results: Vec<(&'a Case, CaseResult)>,
}

impl Run<'_> {
    /// Whether a case failed `m`.
    fn has(r: &CaseResult, m: Metric) -> bool {
        r.findings.iter().any(|f| f.metric == m)
    }

    /// The table: one row per category, one column per metric (cases failing it).
    fn table(&self, out: &mut String) {
        let _ = write!(out, "{:<18} {:>6}", "category", "cases");
        for m in Metric::ALL {
            let _ = write!(out, " {:>8}", m.name());
        }
        out.push('\n');
        let mut row = |name: &str, rows: Vec<&CaseResult>| {
            let _ = write!(out, "{name:<18} {:>6}", rows.len());
            for m in Metric::ALL {
                let _ = write!(
                    out,
                    " {:>8}",
                    rows.iter().filter(|r| Self::has(r, m)).count()
                );
            }
            out.push('\n');
        };
        for cat in CATEGORIES {
            let rows: Vec<_> = self
                .results
                .iter()
                .filter(|(c, _)| c.category == cat)
                .map(|(_, r)| r)
                .collect();
            if !rows.is_empty() {
                row(cat, rows);
            }
        }
        let other: Vec<_> = self
            .results
            .iter()
            .filter(|(c, _)| !CATEGORIES.contains(&c.category.as_str()))
            .map(|(_, r)| r)
            .collect();
        if !other.is_empty() {
            row("(other)", other);
        }
        row("all", self.results.iter().map(|(_, r)| r).collect());
    }

    /// How often each query ended with each termination.
    fn terminations(&self, out: &mut String) {
        for q in ["distance", "contact"] {
            let mut hist: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, r) in &self.results {
                if let Some(t) = r.terminations.get(q) {
                    *hist.entry(t.as_str()).or_default() += 1;
                }
            }
            let mut hist: Vec<_> = hist.into_iter().collect();
            hist.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            let list: Vec<String> = hist.iter().map(|(t, n)| format!("{t} {n}")).collect();
            let _ = writeln!(out, "terminations of {q}: {}", list.join(", "));
        }
    }

    /// Up to [`WORST`] cases per metric, worst first (failures in corpus order).
    fn worst(&self, out: &mut String) {
        for m in Metric::ALL {
            let mut hits: Vec<(&Case, &Finding)> = self
                .results
                .iter()
                .filter_map(|(c, r)| {
                    r.findings
                        .iter()
                        .filter(|f| f.metric == m)
                        .max_by(|a, b| a.value.total_cmp(&b.value))
                        .map(|f| (*c, f))
                })
                .collect();
            if hits.is_empty() {
                continue;
            }
            if m != Metric::Failure {
                hits.sort_by(|a, b| b.1.value.total_cmp(&a.1.value));
            }
            let _ = writeln!(
                out,
                "worst {} ({} cases{}{}):",
                m.name(),
                hits.len(),
                if m.unit().is_empty() { "" } else { ", by " },
                m.unit()
            );
            for (c, f) in hits.iter().take(WORST) {
                let _ = writeln!(out, "  {:<28} {}", c.id, f.detail);
            }
        }
    }

    /// The whole summary.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "== {} {}D: {} cases in {:.2} s ==",
            self.scalar.name(),
            self.dim,
            self.results.len(),
            self.seconds
        );
        self.table(&mut out);
        self.terminations(&mut out);
        self.worst(&mut out);
        out
    }

    /// One JSON line per offending case: the scalar, the metrics it failed with their
    /// values and details, and the original case.
    pub fn dump(&self) -> Vec<String> {
        self.results
            .iter()
            .filter(|(_, r)| !r.findings.is_empty())
            .map(|(c, r)| {
                let findings: Vec<_> = r
                    .findings
                    .iter()
                    .map(|f| {
                        serde_json::json!({
                            "metric": f.metric.name(),
                            "value": if f.value.is_finite() { serde_json::json!(f.value) } else { serde_json::json!(null) },
                            "detail": f.detail,
                        })
                    })
                    .collect();
                format!(
                    "{{\"scalar\":\"{}\",\"dim\":{},\"id\":{},\"findings\":{},\"case\":{}}}",
                    self.scalar.name(),
                    self.dim,
                    serde_json::json!(c.id),
                    serde_json::Value::Array(findings),
                    c.line
                )
            })
            .collect()
    }
}
