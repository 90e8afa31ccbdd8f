//! The pictures of the tour's queries: three 2D contact manifolds and a 2D shape cast.

use crate::svg::{P, Svg};
use convex_proximity::{
    Tolerances, query,
    query::{CastOptions, LinearMotion},
    shape::{Cuboid, Polytope},
};
use nalgebra::{Isometry2, Vector2};
use std::io;

const GROUND: &str = "fill='#dde' stroke='black' stroke-width='1'";
const BODY: &str = "fill='#fdb' stroke='black' stroke-width='1'";
const PASSING: &str = "fill='none' stroke='#999' stroke-width='1'";

/// The corners of a 2D box at a pose, counter-clockwise.
fn corners(c: &Cuboid<f64, 2>, pose: &Isometry2<f64>) -> Vec<P> {
    let h = c.half_extents;
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
        .iter()
        .map(|(sx, sy)| pose * P::new(sx * h.x, sy * h.y))
        .collect()
}

/// The witness points (red on A, blue on B) and the normal from A to B (green).
fn witnesses(svg: &mut Svg, a: &P, b: &P, normal: Option<Vector2<f64>>, length: f64) {
    if let Some(n) = normal {
        svg.polyline(&[*a, a + n * length], "stroke='green' stroke-width='1.5'");
    }
    svg.dot(a, 4.0, "red");
    svg.dot(b, 3.0, "blue");
}

/// `manifolds.svg`: three boxes on the ground (flat, on a corner, slightly tilted) and
/// their 2D manifolds.
pub fn manifolds() -> io::Result<(Svg, String)> {
    let tol = Tolerances::<f64>::default();
    let ground = Cuboid::new(Vector2::new(1.2, 0.3));
    let shapes = [
        (Vector2::new(0.5, 0.25), Vector2::new(-2.6, 0.23), 0.0),
        (Vector2::new(0.5, 0.25), Vector2::new(0.0, 0.45), 0.5),
        (Vector2::new(0.4, 0.4), Vector2::new(2.6, 0.36), 0.05),
    ];
    let mut svg = Svg::new(100.0);
    for (k, (half, at, angle)) in shapes.into_iter().enumerate() {
        let (shape, pose) = (Cuboid::new(half), Isometry2::new(at, angle));
        let base = Isometry2::translation(-2.6 + 2.6 * k as f64, -0.3);
        let m =
            query::manifold(&base, &ground, &pose, &shape, 0.02, &tol).map_err(io::Error::other)?;
        svg.polygon(&corners(&ground, &base), GROUND);
        svg.polygon(&corners(&shape, &pose), BODY);
        for p in m.points() {
            let n = Some(m.normal.into_inner());
            witnesses(&mut svg, &p.point_a, &p.point_b, n, 0.4);
        }
    }
    let legend = "red: points on A, blue: on B, green: normal from A to B";
    Ok((svg, legend.into()))
}

/// `cast.svg`: a rotated box thrown at a hull, its positions along the way (grey), at the
/// hit (orange), the hit points and the normal.
pub fn cast() -> io::Result<(Svg, String)> {
    let tol = Tolerances::<f64>::default();
    let hull = Polytope::try_new(vec![
        P::new(-0.6, -0.8),
        P::new(0.7, -0.6),
        P::new(0.9, 0.4),
        P::new(0.0, 0.9),
        P::new(-0.8, 0.3),
    ])
    .map_err(io::Error::other)?;
    let cube = Cuboid::new(Vector2::new(0.35, 0.2));
    let (start, vel) = (
        Isometry2::new(Vector2::new(-3.5, 1.6), 0.6),
        Vector2::new(1.5, -0.6),
    );
    let opts = CastOptions {
        max_toi: 5.0,
        ..CastOptions::default()
    };
    let still = LinearMotion::new(Isometry2::identity(), Vector2::zeros());
    let cast = query::cast_shapes(
        &still,
        &hull,
        &LinearMotion::new(start, vel),
        &cube,
        &opts,
        &tol,
    )
    .map_err(io::Error::other)?;
    let hit = cast
        .hit
        .ok_or_else(|| io::Error::other("the cast should hit"))?;
    let at =
        |t: f64| Isometry2::from_parts((start.translation.vector + vel * t).into(), start.rotation);
    let mut svg = Svg::new(150.0);
    svg.polygon(hull.points(), GROUND);
    let steps = 6;
    for k in 0..steps {
        svg.polygon(
            &corners(&cube, &at(hit.toi * k as f64 / steps as f64)),
            PASSING,
        );
    }
    svg.polygon(&corners(&cube, &at(hit.toi)), BODY);
    let path = [at(0.0), at(hit.toi)].map(|p| P::from(p.translation.vector));
    svg.polyline(
        &path,
        "stroke='#999' stroke-width='1.5' stroke-dasharray='7'",
    );
    let n = hit.normal.map(|n| n.into_inner());
    witnesses(&mut svg, &hit.point_a, &hit.point_b, n, 0.5);
    let legend = format!(
        "a box thrown at a hull: grey on the way, orange at the hit at t = {:.4}; red: point on A, blue: on B, green: normal from A to B",
        hit.toi
    );
    Ok((svg, legend))
}
