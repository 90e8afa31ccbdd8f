//! Pictures of a GJK and an EPA run, drawn from their traces (`convex_proximity::trace`):
//! two 2D polygons in f64, A at the identity so that the run's frame (A's) is the world's.
//! The Minkowski difference `A − B` is computed here, independently of the library: the
//! convex hull of every difference of a vertex of A and a vertex of B.

use crate::svg::{P, Svg};
use convex_proximity::{
    Tolerances,
    gjk::SupportPoint,
    query,
    shape::Polytope,
    trace::{EpaIteration, GjkStep, Trace},
};
use nalgebra::{Isometry2, Vector2};
use std::io;

/// Pixels per world unit.
const SCALE: f64 = 120.0;
/// One colour per iteration, cycling.
const COLORS: [&str; 6] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
];

fn color(k: usize) -> &'static str {
    COLORS[k % COLORS.len()]
}

/// `n` vertices on the ellipse of half-axes `rx`, `ry`, counter-clockwise from the angle
/// `phase`.
fn ellipse(n: usize, rx: f64, ry: f64, phase: f64) -> io::Result<Polytope<f64, 2>> {
    let angle = |i: usize| phase + std::f64::consts::TAU * i as f64 / n as f64;
    let pts = (0..n).map(|i| P::new(rx * angle(i).cos(), ry * angle(i).sin()));
    Polytope::try_new(pts.collect()).map_err(io::Error::other)
}

/// `(q − p) × (r − p)`: positive when `r` is left of `p → q`.
fn cross(p: &P, q: &P, r: &P) -> f64 {
    (q - p).perp(&(r - p))
}

/// The convex hull of `pts`, counter-clockwise, by gift wrapping: from the lowest point,
/// the next vertex is the one with no point on its right (the farthest of collinear ones).
fn hull(pts: &[P]) -> Vec<P> {
    let lowest = |p: &&P, q: &&P| p.y.total_cmp(&q.y).then(p.x.total_cmp(&q.x));
    let Some(&start) = pts.iter().min_by(lowest) else {
        return Vec::new();
    };
    let mut out = vec![start];
    for _ in 0..pts.len() {
        let p = out[out.len() - 1];
        let mut q = p;
        for r in pts {
            let c = cross(&p, &q, r);
            if q == p || c < 0.0 || (c == 0.0 && (r - p).norm() > (q - p).norm()) {
                q = *r;
            }
        }
        if q == start {
            break;
        }
        out.push(q);
    }
    out
}

/// `A − B`: the hull of every vertex difference, B's vertices at `pose_b`.
fn difference(a: &Polytope<f64, 2>, b: &Polytope<f64, 2>, pose_b: &Isometry2<f64>) -> Vec<P> {
    let b: Vec<P> = b.points().iter().map(|q| pose_b * q).collect();
    let diffs: Vec<P> = (a.points().iter())
        .flat_map(|p| b.iter().map(move |q| P::from(p - q)))
        .collect();
    hull(&diffs)
}

/// A picture holding `A − B` (grey) and the origin (a cross).
fn backdrop(a: &Polytope<f64, 2>, b: &Polytope<f64, 2>, pose_b: &Isometry2<f64>) -> Svg {
    let mut svg = Svg::new(SCALE);
    let style = "fill='#eee' stroke='#888' stroke-width='1'";
    svg.polygon(&difference(a, b, pose_b), style);
    let (o, r) = (P::origin(), svg.world(6.0));
    for d in [Vector2::new(r, 0.0), Vector2::new(0.0, r)] {
        svg.polyline(&[o - d, o + d], "stroke='black' stroke-width='1.5'");
    }
    let at = o + Vector2::new(-2.0 * r, 2.0 * r);
    svg.label(&at, "O", "black");
    svg
}

fn w(p: &SupportPoint<f64, 2>) -> P {
    P::from(p.w)
}

/// A simplex: a vertex, a segment or a triangle.
fn simplex(svg: &mut Svg, pts: &[P], style: &str) {
    match pts {
        [p] => svg.circle(p, 6.0, &format!("fill='none' {style}")),
        [_, _] => svg.polyline(pts, style),
        _ => svg.polygon(pts, &format!("fill='none' {style}")),
    }
}

/// A label `px` pixels beyond `p`, along `dir` from the origin.
fn beyond(svg: &mut Svg, p: &P, dir: &Vector2<f64>, px: f64, text: &str, fill: &str) {
    let off = dir.try_normalize(0.0).unwrap_or_else(Vector2::y) * svg.world(px);
    svg.label(&(p + off), text, fill);
}

/// One GJK iteration: its support point, and after its solve the simplex and `v` (an
/// arrow from the origin, numbered).
fn gjk_step(svg: &mut Svg, k: usize, step: &GjkStep<f64, 2>) {
    let c = color(k);
    svg.dot(&w(&step.support.point), 3.5, c);
    let Some(solve) = step.solve else { return };
    let pts: Vec<P> = solve.simplex.points().map(w).collect();
    simplex(svg, &pts, &format!("stroke='{c}' stroke-width='2'"));
    let v = P::from(solve.v);
    svg.arrow(&P::origin(), &v, c, 1.5);
    let name = format!("v{}", step.support.iteration);
    beyond(svg, &v, &solve.v, 12.0, &name, c);
}

/// The line `v̂·x = lower` (dashed), which `A − B` lies beyond.
fn lower_plane(svg: &mut Svg, v: &Vector2<f64>, lower: f64) {
    let Some(n) = v.try_normalize(0.0) else {
        return;
    };
    let (foot, along) = (P::from(n * lower), Vector2::new(-n.y, n.x) * 1.2);
    let style = "stroke='#555' stroke-width='1' stroke-dasharray='6 4'";
    svg.polyline(&[foot - along, foot + along], style);
}

/// One EPA step: the closest edge (thick), the support point beyond it (numbered) and
/// the two edges that replace the closest one.
fn epa_step(svg: &mut Svg, k: usize, step: &EpaIteration<f64, 2>) {
    let c = color(k);
    let [p, q] = step.feature.map(|i| w(&step.vertices[i]));
    let s = w(&step.support);
    svg.polyline(&[p, q], &format!("stroke='{c}' stroke-width='3.5'"));
    svg.polyline(&[p, s, q], &format!("stroke='{c}' stroke-width='1.5'"));
    svg.dot(&s, 3.5, c);
    let label = step.iteration.to_string();
    beyond(svg, &s, &step.normal.into_inner(), 10.0, &label, c);
}

/// `gjk.svg`: GJK's distance run between two flat polygons that are apart.
pub fn gjk() -> io::Result<(Svg, String)> {
    let (a, b) = (ellipse(8, 1.8, 0.3, 0.1)?, ellipse(6, 1.0, 0.25, 0.0)?);
    let pose_b = Isometry2::new(Vector2::new(1.5, 2.2), 0.8);
    let mut trace = Trace::new();
    let tol = Tolerances::default();
    let d = query::distance_traced(&Isometry2::identity(), &a, &pose_b, &b, &tol, &mut trace)
        .map_err(io::Error::other)?;
    let end = trace
        .gjk_end
        .ok_or_else(|| io::Error::other("GJK recorded no end"))?;
    let mut svg = backdrop(&a, &b, &pose_b);
    if let Some(first) = trace.gjk.first() {
        let v0 = first.support.dir;
        svg.arrow(&P::origin(), &P::from(v0), "#aaa", 1.0);
        beyond(&mut svg, &P::from(v0), &v0, 12.0, "v0", "#888");
    }
    for (k, step) in trace.gjk.iter().enumerate() {
        gjk_step(&mut svg, k, step);
    }
    lower_plane(&mut svg, &end.v, end.lower);
    svg.dot(&P::from(end.v), 5.0, "red");
    svg.caption("GJK distance of two flat polygons apart (A: 8 vertices, B: 6; f64, A's frame): A − B (grey), the origin O,");
    svg.caption("v0 the start direction (grey); per iteration k (one colour each): the support point (dot), the simplex, v_k (arrow)");
    svg.caption(format!(
        "{} iterations, termination {:?}; distance in [{:.6}, {:.6}] (trace's lower/upper bound, band {:.1e})",
        end.iterations, end.termination, end.lower, end.upper, end.band
    ));
    svg.caption(format!(
        "red: the closest point v = ({:.4}, {:.4}); dashed: the plane v̂·x = lower, A − B lies beyond it",
        end.v.x, end.v.y
    ));
    let legend = format!(
        "GJK on two polygons: {} iterations, {:?}, distance {:.6}",
        d.iterations, d.termination, d.distance
    );
    Ok((svg, legend))
}

/// `epa.svg`: EPA's run between an octagon and a pentagon that overlap.
pub fn epa() -> io::Result<(Svg, String)> {
    let (a, b) = (ellipse(8, 1.0, 1.0, 0.2)?, ellipse(5, 0.8, 0.8, 0.0)?);
    let pose_b = Isometry2::new(Vector2::new(0.9, 0.5), 0.3);
    let mut trace = Trace::new();
    let tol = Tolerances::default();
    let c = query::contact_traced(&Isometry2::identity(), &a, &pose_b, &b, &tol, &mut trace)
        .map_err(io::Error::other)?;
    let (gjk, pen) = match (trace.gjk_end, trace.epa_end) {
        (Some(g), Some(p)) => (g, p),
        _ => return Err(io::Error::other("the shapes should overlap: no EPA run")),
    };
    let mut svg = backdrop(&a, &b, &pose_b);
    for (k, step) in trace.epa.iter().enumerate() {
        epa_step(&mut svg, k, step);
    }
    if let Some(solve) = trace.gjk.iter().rev().find_map(|s| s.solve) {
        let pts: Vec<P> = solve.simplex.points().map(w).collect();
        simplex(
            &mut svg,
            &pts,
            "stroke='black' stroke-width='1.5' stroke-dasharray='5 3'",
        );
    }
    let n = pen.normal.into_inner();
    let depth = -pen.separation;
    let tip = P::from(n * depth);
    svg.arrow(&P::origin(), &tip, "red", 2.0);
    let seeding = trace.epa_start.as_ref().map_or(0, |s| s.iterations);
    svg.caption("EPA, an octagon A and a pentagon B overlapping (f64, A's frame): A − B (grey), the origin O,");
    svg.caption(
        "dashed: GJK's last simplex, holding O; per EPA step (one colour each): the closest",
    );
    svg.caption("edge (thick), the support point beyond it (numbered by support evaluation) and the two edges it adds");
    svg.caption(format!(
        "GJK: {} iterations, {:?}; EPA: {} support evaluations ({} seeding, {} steps), {:?}",
        gjk.iterations,
        gjk.termination,
        pen.iterations,
        seeding,
        trace.epa.len(),
        pen.termination
    ));
    svg.caption(format!(
        "depth {:.6} in [{:.6}, {:.6}]; red: depth · normal, normal ({:.4}, {:.4}) from A to B",
        depth, -pen.upper_bound, -pen.lower_bound, n.x, n.y
    ));
    let legend = format!(
        "EPA on two polygons: {} EPA steps, {:?}, separation {:.6}",
        trace.epa.len(),
        pen.termination,
        c.separation
    );
    Ok((svg, legend))
}
