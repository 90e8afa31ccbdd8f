//! A tiny SVG writer for the tour's pictures: points in world coordinates (y up), drawn at
//! a fixed number of pixels per unit; the view fits what was drawn, captions go below it.
//! Widths, radii and font sizes are in pixels.

use nalgebra::{Point2, Vector2};
use std::{fmt::Write as _, fs, io, path::Path};

/// A point of a picture, world frame.
pub type P = Point2<f64>;

/// Margin around the drawing, pixels.
const MARGIN: f64 = 16.0;
/// Caption line height and its font size, pixels.
const LINE: f64 = 18.0;
const FONT: f64 = 13.0;
/// A caption character's width, pixels (a guess for the font size, to size the view).
const CHAR: f64 = 7.0;

/// A picture being drawn.
pub struct Svg {
    scale: f64,
    body: String,
    lo: P,
    hi: P,
    caption: Vec<String>,
}

impl Svg {
    /// An empty picture, `scale` pixels per world unit.
    pub fn new(scale: f64) -> Self {
        Self {
            scale,
            body: String::new(),
            lo: P::new(f64::INFINITY, f64::INFINITY),
            hi: P::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
            caption: Vec::new(),
        }
    }

    /// `px` pixels in world units (to offset labels and arrow heads).
    pub fn world(&self, px: f64) -> f64 {
        px / self.scale
    }

    /// `p` in pixels (y down), the view widened to hold it.
    fn xy(&mut self, p: &P) -> (f64, f64) {
        self.lo = self.lo.inf(p);
        self.hi = self.hi.sup(p);
        (p.x * self.scale, -p.y * self.scale)
    }

    fn coords(&mut self, pts: &[P]) -> String {
        let xy: Vec<String> = pts
            .iter()
            .map(|p| {
                let (x, y) = self.xy(p);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        xy.join(" ")
    }

    /// A closed polygon; `style` holds its SVG attributes (`fill='…' stroke='…'`).
    pub fn polygon(&mut self, pts: &[P], style: &str) {
        let pts = self.coords(pts);
        let _ = writeln!(self.body, "<polygon points='{pts}' {style}/>");
    }

    /// An open polyline.
    pub fn polyline(&mut self, pts: &[P], style: &str) {
        let pts = self.coords(pts);
        let _ = writeln!(self.body, "<polyline points='{pts}' fill='none' {style}/>");
    }

    /// A circle of radius `r` pixels; `style` as for [`Svg::polygon`].
    pub fn circle(&mut self, p: &P, r: f64, style: &str) {
        let (x, y) = self.xy(p);
        let _ = writeln!(
            self.body,
            "<circle cx='{x:.1}' cy='{y:.1}' r='{r}' {style}/>"
        );
    }

    /// A disc of radius `r` pixels.
    pub fn dot(&mut self, p: &P, r: f64, fill: &str) {
        self.circle(p, r, &format!("fill='{fill}'"));
    }

    /// An arrow from `from` to `to`, `width` pixels wide (no head if shorter than one).
    pub fn arrow(&mut self, from: &P, to: &P, color: &str, width: f64) {
        let style = format!("stroke='{color}' stroke-width='{width}'");
        self.polyline(&[*from, *to], &style);
        let (d, head) = (to - from, self.world(9.0));
        if d.norm() > head {
            let u = d.normalize() * head;
            let n = Vector2::new(-u.y, u.x) * 0.4;
            self.polygon(&[*to, to - u + n, to - u - n], &format!("fill='{color}'"));
        }
    }

    /// Text centred at `p`.
    pub fn label(&mut self, p: &P, text: &str, fill: &str) {
        let (x, y) = self.xy(p);
        let _ = writeln!(
            self.body,
            "<text x='{x:.1}' y='{y:.1}' font-size='12' fill='{fill}' text-anchor='middle' dominant-baseline='middle'>{}</text>",
            escape(text)
        );
    }

    /// A caption line, below the drawing.
    pub fn caption(&mut self, line: impl Into<String>) {
        self.caption.push(line.into());
    }

    /// The SVG document: the view fitted to the drawing, a white background, the captions.
    pub fn finish(self) -> String {
        let s = self.scale;
        let chars = self.caption.iter().map(|c| c.chars().count()).max();
        let width = ((self.hi.x - self.lo.x) * s).max(chars.unwrap_or(0) as f64 * CHAR);
        let (w, top) = (width + 2.0 * MARGIN, (self.hi.y - self.lo.y) * s + MARGIN);
        let h = top + MARGIN + LINE * self.caption.len() as f64;
        let (x0, y0) = (self.lo.x * s - MARGIN, -self.hi.y * s - MARGIN);
        let mut out = format!(
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='{x0:.1} {y0:.1} {w:.1} {h:.1}' width='{w:.0}' height='{h:.0}' font-family='sans-serif'>\n<rect x='{x0:.1}' y='{y0:.1}' width='{w:.1}' height='{h:.1}' fill='white'/>\n"
        );
        out += &self.body;
        for (i, line) in self.caption.iter().enumerate() {
            let y = y0 + top + MARGIN + LINE * (i as f64 + 0.5);
            let _ = writeln!(
                out,
                "<text x='{:.1}' y='{y:.1}' font-size='{FONT}' dominant-baseline='middle'>{}</text>",
                x0 + MARGIN,
                escape(line)
            );
        }
        out + "</svg>\n"
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Draws a picture with `draw` (the picture and its legend) and writes it to `dir/name`,
/// printing its path and legend, or why it could not.
pub fn save(dir: &Path, name: &str, draw: impl FnOnce() -> io::Result<(Svg, String)>) {
    let written = draw().and_then(|(svg, legend)| {
        fs::create_dir_all(dir)?;
        let path = dir.join(name);
        fs::write(&path, svg.finish())?;
        Ok((path, legend))
    });
    match written {
        Ok((path, legend)) => println!("\nwrote {} ({legend})", path.display()),
        Err(e) => println!("\n(could not write {}/{name}: {e})", dir.display()),
    }
}
