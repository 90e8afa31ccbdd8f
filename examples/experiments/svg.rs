//! Small hand-written SVG charts: grouped bars and lines over labelled x positions.

use std::fmt::Write as _;

/// One data series: its name and one value per x position (NaN: no point).
pub struct Series {
    pub name: String,
    pub values: Vec<f64>,
}

/// A qualitative palette (ColorBrewer "Paired" reordered so neighbours differ, then grey,
/// black and cyan).
const COLORS: [&str; 14] = [
    "#1f78b4", "#e31a1c", "#33a02c", "#ff7f00", "#6a3d9a", "#b15928", "#a6cee3", "#fb9a99",
    "#b2df8a", "#fdbf6f", "#cab2d6", "#808080", "#000000", "#17becf",
];

const W: f64 = 960.0;
const H: f64 = 480.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 230.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 90.0;

/// A y axis from 0 (or, logarithmic, from the smallest value's decade) to a round top.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Axis {
    fn new(series: &[Series], log: bool) -> Self {
        let vals = series.iter().flat_map(|s| s.values.iter().copied());
        let vals: Vec<f64> = vals
            .filter(|v| v.is_finite() && (!log || *v > 0.0))
            .collect();
        let max = vals.iter().copied().fold(f64::MIN_POSITIVE, f64::max);
        if log {
            let min = vals.iter().copied().fold(max, f64::min);
            Self {
                lo: 10f64.powf(min.log10().floor()),
                hi: 10f64.powf(max.log10().ceil()),
                log,
            }
        } else {
            let step = 10f64.powf(max.log10().floor());
            Self {
                lo: 0.0,
                hi: (max / step).ceil() * step,
                log,
            }
        }
    }

    /// The y pixel of `v`.
    fn y(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        H - BOTTOM - t * (H - TOP - BOTTOM)
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            // 1, 2 and 5 per decade.
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            (a..=b)
                .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
                .filter(|t| *t <= self.hi * (1.0 + 1e-9))
                .collect()
        } else {
            (0..=5)
                .map(|i| self.lo + (self.hi - self.lo) * f64::from(i) / 5.0)
                .collect()
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The frame: title, y axis with grid and label, x labels (rotated), legend.
fn frame(
    out: &mut String,
    title: &str,
    y_label: &str,
    axis: &Axis,
    x: &[(f64, String)],
    names: &[&str],
) {
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        out,
        r#"<text x="{}" y="22" font-size="15" text-anchor="middle">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        escape(title)
    );
    for t in axis.ticks() {
        let y = axis.y(t);
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            if axis.log {
                format!("{t:e}")
            } else {
                format!("{t}")
            }
        );
    }
    let _ = writeln!(
        out,
        r#"<text transform="translate(18,{}) rotate(-90)" text-anchor="middle">{}</text>"#,
        (TOP + H - BOTTOM) / 2.0,
        escape(y_label)
    );
    let _ = writeln!(
        out,
        r#"<line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{}" stroke="black"/><line x1="{LEFT}" x2="{}" y1="{}" y2="{}" stroke="black"/>"#,
        H - BOTTOM,
        W - RIGHT,
        H - BOTTOM,
        H - BOTTOM
    );
    for (px, label) in x {
        let _ = writeln!(
            out,
            r#"<text transform="translate({px:.1},{}) rotate(-35)" text-anchor="end">{}</text>"#,
            H - BOTTOM + 14.0,
            escape(label)
        );
    }
    for (i, name) in names.iter().enumerate() {
        let y = TOP + 16.0 * i as f64;
        let _ = writeln!(
            out,
            r#"<rect x="{}" y="{}" width="12" height="10" fill="{}"/><text x="{}" y="{}">{}</text>"#,
            W - RIGHT + 12.0,
            y,
            COLORS[i % COLORS.len()],
            W - RIGHT + 30.0,
            y + 9.0,
            escape(name)
        );
    }
}

/// Grouped bars: one group per x label, one bar per series.
pub fn bars(title: &str, y_label: &str, labels: &[String], series: &[Series]) -> String {
    let axis = Axis::new(series, false);
    let slot = (W - LEFT - RIGHT) / labels.len().max(1) as f64;
    let bar = slot * 0.85 / series.len().max(1) as f64;
    let x: Vec<(f64, String)> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (LEFT + slot * (i as f64 + 0.5), l.clone()))
        .collect();
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let mut out = String::new();
    frame(&mut out, title, y_label, &axis, &x, &names);
    for (k, s) in series.iter().enumerate() {
        for (i, v) in s.values.iter().enumerate() {
            if !v.is_finite() {
                continue;
            }
            let x0 = LEFT + slot * (i as f64 + 0.075) + bar * k as f64;
            let y = axis.y(*v);
            let _ = writeln!(
                out,
                r#"<rect x="{x0:.1}" y="{y:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{}: {v:.2}</title></rect>"#,
                (H - BOTTOM - y).max(0.0),
                COLORS[k % COLORS.len()],
                escape(&s.name)
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Lines with markers over evenly spaced x labels; `log` for a logarithmic y axis.
pub fn lines(
    title: &str,
    y_label: &str,
    labels: &[String],
    series: &[Series],
    log: bool,
) -> String {
    let axis = Axis::new(series, log);
    let slot = (W - LEFT - RIGHT) / labels.len().max(1) as f64;
    let px = |i: usize| LEFT + slot * (i as f64 + 0.5);
    let x: Vec<(f64, String)> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| (px(i), l.clone()))
        .collect();
    let names: Vec<&str> = series.iter().map(|s| s.name.as_str()).collect();
    let mut out = String::new();
    frame(&mut out, title, y_label, &axis, &x, &names);
    for (k, s) in series.iter().enumerate() {
        let color = COLORS[k % COLORS.len()];
        let pts: Vec<(f64, f64)> = s
            .values
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_finite() && (!log || **v > 0.0))
            .map(|(i, v)| (px(i), axis.y(*v)))
            .collect();
        let path: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="1.8"/>"#,
            path.join(" ")
        );
        for (x, y) in pts {
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{color}"/>"#
            );
        }
    }
    out.push_str("</svg>\n");
    out
}
