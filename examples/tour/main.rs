//! A tour of convex-proximity on built-in shapes: distance and intersection queries in
//! f32, f64 and fixed-point, in 2D, 3D and 6D, with the witness points, the bounds GJK
//! proved, its iteration count and why it stopped; signed distances (contact, with EPA's
//! penetration depth) in 2D and 3D; a warm-started moving pair; then casts: rays, a
//! linear shape cast, a time of impact under rotation and a planner's motion check.
//!
//! Pictures (SVG: the 2D manifolds, a 2D shape cast, a GJK run and an EPA run drawn from
//! their traces) go into `target/tour/`, or into the directory given as the first
//! argument; the tour never writes into the source tree.
//!
//! Run: `cargo run --release --example tour [DIR]`

mod pictures;
mod svg;
mod traces;

use convex_proximity::{
    Dim, Real, Tolerances,
    epa::ContactDim,
    gjk::Cache,
    lit, query,
    shape::{Ball, Capsule, Cone, Cuboid, Cylinder, Polytope, Rounded, SupportMap, Transformed},
};
use nalgebra::{
    Const, Isometry, Isometry2, Isometry3, Point, Point2, Point3, Rotation, SVector, Vector2,
    Vector3,
};

/// Prints one row: the query's name and every field of its answer (world frame).
fn row<T, R, const D: usize>(
    name: &str,
    pose_a: &Isometry<T, R, D>,
    a: &dyn SupportMap<T, D>,
    pose_b: &Isometry<T, R, D>,
    b: &dyn SupportMap<T, D>,
) where
    T: Real + std::fmt::Display,
    R: convex_proximity::PoseRotation<T, D>,
    Const<D>: Dim,
{
    let tol = Tolerances::<T>::default();
    let hit = query::intersects(pose_a, a, pose_b, b, &tol);
    match query::distance(pose_a, a, pose_b, b, &tol) {
        Ok(d) => {
            let pt = |p: &Point<T, D>| {
                p.iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!(
                "{name:<34} {:>12.6} [{:.6}, {:.6}] {:>3} {:<15} {:<5} a=({}) b=({})",
                d.distance,
                d.lower_bound,
                d.upper_bound,
                d.iterations,
                format!("{:?}", d.termination),
                hit.map(|h| h.to_string()).unwrap_or_else(|e| e.to_string()),
                pt(&d.point_a),
                pt(&d.point_b),
            );
        }
        Err(e) => println!("{name:<34} error: {e}"),
    }
}

/// Prints one signed-distance row (GJK, then EPA when the cores overlap).
fn contact_row<T, R, const D: usize>(
    name: &str,
    pose_a: &Isometry<T, R, D>,
    a: &dyn SupportMap<T, D>,
    pose_b: &Isometry<T, R, D>,
    b: &dyn SupportMap<T, D>,
) where
    T: Real + std::fmt::Display,
    R: convex_proximity::PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
{
    match query::contact(pose_a, a, pose_b, b, &Tolerances::<T>::default()) {
        Ok(c) => {
            let v = |p: &[T]| {
                p.iter()
                    .map(|x| format!("{x:.4}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            println!(
                "{name:<34} {:>12.6} [{:.6}, {:.6}] {:>3} {:<15} n=({}) a=({}) b=({})",
                c.separation,
                c.lower_bound,
                c.upper_bound,
                c.iterations,
                format!("{:?}", c.termination),
                v(c.normal.as_slice()),
                v(c.point_a.coords.as_slice()),
                v(c.point_b.coords.as_slice()),
            );
        }
        Err(e) => println!("{name:<34} error: {e}"),
    }
}

fn contact_header(title: &str) {
    println!("\n== {title}");
    println!(
        "{:<34} {:>12} {:<26} {:>3} {:<15} normal (A to B), points (world frame)",
        "contact", "separation", "[lower, upper]", "it", "termination"
    );
}

/// Signed distances in 3D and 2D, any scalar: apart, touching, shallow, deep.
fn contacts<T: Real + std::fmt::Display>() {
    let h = |x: f64| lit::<T>(x);
    let id3 = Isometry3::<T>::identity();
    let cube = Cuboid::new(Vector3::new(h(0.5), h(0.5), h(0.5)));
    let capsule = Capsule::new(
        Point3::new(h(-0.4), h(0.0), h(0.0)),
        Point3::new(h(0.4), h(0.0), h(0.0)),
        h(0.1),
    );
    let cylinder = Cylinder::new(h(0.4), h(0.3));
    let at = |x: f64, y: f64, z: f64, ang: f64| {
        Isometry3::new(
            Vector3::new(h(x), h(y), h(z)),
            Vector3::new(h(0.0), h(ang), h(ang * 0.5)),
        )
    };
    contact_row(
        "3D cube - cube (apart)",
        &id3,
        &cube,
        &at(1.6, 0.2, 0.1, 0.6),
        &cube,
    );
    contact_row(
        "3D cube - cube (face contact)",
        &id3,
        &cube,
        &at(1.0, 0.0, 0.0, 0.0),
        &cube,
    );
    contact_row(
        "3D cube - cube (rotated, deep)",
        &id3,
        &cube,
        &at(0.6, 0.2, 0.1, 0.6),
        &cube,
    );
    contact_row(
        "3D cube - capsule (shallow)",
        &id3,
        &cube,
        &at(0.0, 0.58, 0.0, 0.2),
        &capsule,
    );
    contact_row(
        "3D capsule - capsule (crossed)",
        &id3,
        &capsule,
        &at(0.0, 0.05, 0.0, std::f64::consts::FRAC_PI_2),
        &capsule,
    );
    contact_row(
        "3D cylinder - cube (deep)",
        &id3,
        &cylinder,
        &at(0.2, 0.3, 0.0, 0.4),
        &cube,
    );
    let id2 = Isometry2::<T>::identity();
    let square = Cuboid::new(Vector2::new(h(0.5), h(0.5)));
    let triangle = Polytope::try_new(vec![
        Point2::new(h(0.0), h(0.6)),
        Point2::new(h(-0.5), h(-0.3)),
        Point2::new(h(0.5), h(-0.3)),
    ])
    .expect("finite points");
    let at2 = |x: f64, y: f64, ang: f64| Isometry2::new(Vector2::new(h(x), h(y)), h(ang));
    contact_row(
        "2D square - triangle (deep)",
        &id2,
        &square,
        &at2(0.3, 0.5, 0.4),
        &triangle,
    );
    contact_row(
        "2D square - square (same pose)",
        &id2,
        &square,
        &id2,
        &square,
    );
}

/// Contact manifolds: a box resting on a slab, a tilted box on an edge, a capsule on a box,
/// a ball on a box (3D) and a rectangle on the ground (2D), any scalar.
fn manifolds<T: Real + std::fmt::Display>(name: &str) {
    let h = |x: f64| lit::<T>(x);
    println!("\n== manifolds, {name} (prediction 0.01)");
    let slab = Cuboid::new(Vector3::new(h(3.0), h(0.5), h(3.0)));
    let cube = Cuboid::new(Vector3::new(h(0.5), h(0.5), h(0.5)));
    let capsule = Capsule::new(
        Point3::new(h(-0.5), h(0.0), h(0.0)),
        Point3::new(h(0.5), h(0.0), h(0.0)),
        h(0.2),
    );
    let ball = Ball::new(h(0.3));
    let below = Isometry3::translation(h(0.0), h(-0.5), h(0.0));
    let tilt = Isometry3::new(
        Vector3::new(h(0.0), h(0.69), h(0.0)),
        Vector3::new(h(0.0), h(0.0), h(std::f64::consts::FRAC_PI_4)),
    );
    let show =
        |what: &str,
         m: Result<convex_proximity::clip::Manifold<T, 3>, convex_proximity::QueryError>| {
            match m {
                Ok(m) => {
                    println!(
                        "{what:<30} normal ({:.4}, {:.4}, {:.4}), {} point(s)",
                        m.normal.x,
                        m.normal.y,
                        m.normal.z,
                        m.len()
                    );
                    for p in m.points() {
                        println!(
                            "    separation {:>9.5}  on A ({:.4}, {:.4}, {:.4})  on B ({:.4}, {:.4}, {:.4})  ids ({}, {:#x})",
                            p.separation,
                            p.point_a.x,
                            p.point_a.y,
                            p.point_a.z,
                            p.point_b.x,
                            p.point_b.y,
                            p.point_b.z,
                            p.id.a.get(),
                            p.id.b.get()
                        );
                    }
                }
                Err(e) => println!("{what:<30} error: {e}"),
            }
        };
    let tol = Tolerances::<T>::default();
    show(
        "cube resting on slab",
        query::manifold(
            &below,
            &slab,
            &Isometry3::translation(h(0.2), h(0.49), h(0.1)),
            &cube,
            h(0.01),
            &tol,
        ),
    );
    show(
        "cube on an edge",
        query::manifold(&below, &slab, &tilt, &cube, h(0.01), &tol),
    );
    show(
        "capsule lying on slab",
        query::manifold(
            &below,
            &slab,
            &Isometry3::translation(h(0.0), h(0.19), h(0.0)),
            &capsule,
            h(0.01),
            &tol,
        ),
    );
    show(
        "ball on slab",
        query::manifold(
            &below,
            &slab,
            &Isometry3::translation(h(0.0), h(0.28), h(0.0)),
            &ball,
            h(0.01),
            &tol,
        ),
    );
    let ground = Cuboid::new(Vector2::new(h(3.0), h(0.5)));
    let r = Cuboid::new(Vector2::new(h(0.4), h(0.2)));
    match query::manifold(
        &Isometry2::translation(h(0.0), h(-0.5)),
        &ground,
        &Isometry2::new(Vector2::new(h(0.3), h(0.19)), h(0.02)),
        &r,
        h(0.01),
        &tol,
    ) {
        Ok(m) => {
            println!(
                "{:<30} normal ({:.4}, {:.4}), {} point(s)",
                "2D rectangle on ground",
                m.normal.x,
                m.normal.y,
                m.len()
            );
            for p in m.points() {
                println!(
                    "    separation {:>9.5}  on A ({:.4}, {:.4})  on B ({:.4}, {:.4})",
                    p.separation, p.point_a.x, p.point_a.y, p.point_b.x, p.point_b.y
                );
            }
        }
        Err(e) => println!("2D rectangle on ground: error: {e}"),
    }
}

fn header(title: &str) {
    println!("\n== {title}");
    println!(
        "{:<34} {:>12} {:<26} {:>3} {:<15} {:<5} witnesses (world frame)",
        "query", "distance", "[lower, upper]", "it", "termination", "hits"
    );
}

/// The same 3D scene in any scalar.
fn scene_3d<T: Real + std::fmt::Display>() {
    let h = |x: f64| lit::<T>(x);
    let id = Isometry3::<T>::identity();
    let cube = Cuboid::new(Vector3::new(h(0.5), h(0.5), h(0.5)));
    let ball = Ball::new(h(0.25));
    let capsule = Capsule::new(
        Point3::new(h(-0.4), h(0.0), h(0.0)),
        Point3::new(h(0.4), h(0.0), h(0.0)),
        h(0.1),
    );
    let cone = Cone::new(h(0.4), h(0.3));
    let cylinder = Cylinder::new(h(0.4), h(0.3));
    let hull = Polytope::try_new(
        (0..24)
            .map(|i| {
                let (t, z) = (i as f64 * 2.399963, 1.0 - 2.0 * (i as f64 + 0.5) / 24.0);
                let r = (1.0 - z * z).sqrt() * 0.45;
                Point3::new(h(r * t.cos()), h(z * 0.45), h(r * t.sin()))
            })
            .collect(),
    )
    .expect("finite points");
    let rounded_box = Rounded::new(Cuboid::new(Vector3::new(h(0.3), h(0.2), h(0.1))), h(0.05));
    let ellipsoid = Transformed::scaled(Ball::new(h(1.0)), Vector3::new(h(0.5), h(0.2), h(0.3)));
    let at = |x: f64, y: f64, z: f64, ang: f64| {
        Isometry3::new(
            Vector3::new(h(x), h(y), h(z)),
            Vector3::new(h(0.0), h(ang), h(ang * 0.5)),
        )
    };
    row(
        "cube - ball (separated)",
        &id,
        &cube,
        &at(1.2, 0.3, 0.0, 0.0),
        &ball,
    );
    row(
        "cube - cube (rotated, apart)",
        &id,
        &cube,
        &at(1.6, 0.2, 0.1, 0.6),
        &cube,
    );
    row(
        "cube - cube (overlapping)",
        &id,
        &cube,
        &at(0.6, 0.2, 0.1, 0.6),
        &cube,
    );
    row(
        "cube - cube (touching faces)",
        &id,
        &cube,
        &at(1.0, 0.0, 0.0, 0.0),
        &cube,
    );
    row(
        "capsule - capsule (crossed)",
        &id,
        &capsule,
        &at(0.0, 0.35, 0.0, std::f64::consts::FRAC_PI_2),
        &capsule,
    );
    row(
        "cone - cylinder",
        &id,
        &cone,
        &at(0.9, 0.1, 0.0, 0.3),
        &cylinder,
    );
    row(
        "hull24 - rounded box",
        &id,
        &hull,
        &at(0.2, 0.95, 0.0, 0.4),
        &rounded_box,
    );
    row(
        "ellipsoid - hull24",
        &id,
        &ellipsoid,
        &at(1.1, 0.0, 0.2, 0.9),
        &hull,
    );
}

/// The same 2D scene in any scalar.
fn scene_2d<T: Real + std::fmt::Display>() {
    let h = |x: f64| lit::<T>(x);
    let id = Isometry2::<T>::identity();
    let square = Cuboid::new(Vector2::new(h(0.5), h(0.5)));
    let disc = Ball::new(h(0.3));
    let stadium = Capsule::new(
        Point2::new(h(-0.5), h(0.0)),
        Point2::new(h(0.5), h(0.0)),
        h(0.2),
    );
    let triangle = Polytope::try_new(vec![
        Point2::new(h(0.0), h(0.6)),
        Point2::new(h(-0.5), h(-0.3)),
        Point2::new(h(0.5), h(-0.3)),
    ])
    .expect("finite points");
    let at = |x: f64, y: f64, ang: f64| Isometry2::new(Vector2::new(h(x), h(y)), h(ang));
    row("square - disc", &id, &square, &at(1.0, 0.4, 0.0), &disc);
    row(
        "square - triangle (rotated)",
        &id,
        &square,
        &at(0.2, 1.05, 0.7),
        &triangle,
    );
    row(
        "stadium - stadium (crossed)",
        &id,
        &stadium,
        &at(0.0, 0.1, std::f64::consts::FRAC_PI_2),
        &stadium,
    );
    row(
        "triangle - disc (overlap)",
        &id,
        &triangle,
        &at(0.1, 0.1, 0.0),
        &disc,
    );
}

/// GJK in 6D: a hypercube and a ball.
fn scene_6d() {
    let cube = Cuboid::new(SVector::<f64, 6>::repeat(0.5));
    let ball = Ball::new(0.25);
    let id = Isometry::<f64, Rotation<f64, 6>, 6>::identity();
    let mut t = SVector::<f64, 6>::zeros();
    t[0] = 1.0;
    t[5] = 0.9;
    let pose = Isometry::from_parts(t.into(), Rotation::identity());
    row("6D hypercube - ball", &id, &cube, &pose, &ball);
}

/// A pair of 1000-vertex hulls moving by small steps: cold queries against warm starts.
fn warm_start() {
    let n = 1000;
    let pts = |r: f64| -> Vec<Point3<f64>> {
        (0..n)
            .map(|i| {
                let (t, z) = (i as f64 * 2.399963, 1.0 - 2.0 * (i as f64 + 0.5) / n as f64);
                let s = (1.0 - z * z).sqrt() * r;
                Point3::new(s * t.cos(), z * r, s * t.sin())
            })
            .collect()
    };
    let (a, b) = (
        Polytope::try_new(pts(1.0)).expect("finite"),
        Polytope::try_new(pts(0.8)).expect("finite"),
    );
    let tol = Tolerances::default();
    let mut cache = Cache::new();
    let (mut cold, mut warm, mut worst) = (0u32, 0u32, 0.0f64);
    let steps = 200;
    for k in 0..steps {
        let s = k as f64 / steps as f64;
        let pose_b = Isometry3::new(
            Vector3::new(2.5 - 0.6 * s, 0.3 * s, 0.1),
            Vector3::new(0.0, 0.5 * s, 0.2),
        );
        let c =
            query::distance(&Isometry3::identity(), &a, &pose_b, &b, &tol).expect("valid input");
        let w =
            query::distance_with_cache(&Isometry3::identity(), &a, &pose_b, &b, &tol, &mut cache)
                .expect("valid input");
        cold += c.iterations;
        warm += w.iterations;
        worst = worst.max((c.distance - w.distance).abs());
    }
    println!("\n== warm start: two 1000-vertex hulls, {steps} small steps (f64, 3D)");
    println!(
        "   support evaluations: cold {cold}, warm {warm}; largest |cold - warm| distance {worst:.2e}"
    );
}

fn main() {
    header("3D, f64");
    scene_3d::<f64>();
    header("3D, f32");
    scene_3d::<f32>();
    #[cfg(feature = "fixed")]
    {
        header("3D, fixed-point I40F24");
        scene_3d::<simba::scalar::FixedI40F24>();
    }
    header("2D, f64");
    scene_2d::<f64>();
    header("2D, f32");
    scene_2d::<f32>();
    #[cfg(feature = "fixed")]
    {
        header("2D, fixed-point I40F24");
        scene_2d::<simba::scalar::FixedI40F24>();
    }
    header("6D, f64");
    scene_6d();
    contact_header("contacts, f64");
    contacts::<f64>();
    contact_header("contacts, f32");
    contacts::<f32>();
    #[cfg(feature = "fixed")]
    {
        contact_header("contacts, fixed-point I40F24");
        contacts::<simba::scalar::FixedI40F24>();
    }
    manifolds::<f64>("f64");
    manifolds::<f32>("f32");
    #[cfg(feature = "fixed")]
    manifolds::<simba::scalar::FixedI40F24>("fixed-point I40F24");
    let dir = std::env::args().nth(1).map_or_else(
        || std::path::PathBuf::from("target/tour"),
        std::path::PathBuf::from,
    );
    svg::save(&dir, "manifolds.svg", pictures::manifolds);
    warm_start();
    casts::<f64>("f64");
    casts::<f32>("f32");
    #[cfg(feature = "fixed")]
    casts::<simba::scalar::FixedI40F24>("fixed-point I40F24");
    svg::save(&dir, "cast.svg", pictures::cast);
    println!("\n== traces (2D, f64)");
    svg::save(&dir, "gjk.svg", traces::gjk);
    svg::save(&dir, "epa.svg", traces::epa);
}

/// Prints one cast: the hit (time, normal, points) or why there is none.
fn show_cast<T: Real + std::fmt::Display, const D: usize>(
    what: &str,
    cast: Result<query::ShapeCast<T, D>, convex_proximity::QueryError>,
) {
    let v = |p: &[T]| {
        p.iter()
            .map(|x| format!("{x:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match cast {
        Ok(c) => match c.hit {
            Some(h) => println!(
                "{what:<40} toi {:>8.5} [{:.5}, {}] {:?}, {} steps, {} support evaluations, n=({}) a=({}) b=({}) distance {:.5}",
                h.toi,
                h.lower_bound,
                h.upper_bound.map_or("-".into(), |u| format!("{u:.5}")),
                h.termination,
                c.steps,
                c.iterations,
                h.normal.map_or("none".into(), |n| v(n.as_slice())),
                v(h.point_a.coords.as_slice()),
                v(h.point_b.coords.as_slice()),
                h.distance
            ),
            None => println!(
                "{what:<40} no hit: {:?}, safe until {:.5}, {} steps",
                c.termination, c.safe_toi, c.steps
            ),
        },
        Err(e) => println!("{what:<40} error: {e}"),
    }
}

/// Casts in any scalar: rays at a box, a ball and a capsule; a box thrown at a box; a box
/// sliding along another (no hit); a spinning bar against a ball; a planner's motion check.
fn casts<T: Real + std::fmt::Display>(name: &str) {
    use query::{CastOptions, LinearMotion, Ray, RigidMotion};
    let h = |x: f64| lit::<T>(x);
    let tol = Tolerances::<T>::default();
    println!("\n== casts, {name}");
    let ray = Ray::new(
        Point3::new(h(-3.0), h(0.2), h(0.1)),
        Vector3::new(h(1.0), h(0.0), h(0.0)),
    );
    let cube = Cuboid::new(Vector3::new(h(0.5), h(0.5), h(0.5)));
    let ball = Ball::new(h(0.5));
    let capsule = Capsule::new(
        Point3::new(h(0.0), h(-0.5), h(0.0)),
        Point3::new(h(0.0), h(0.5), h(0.0)),
        h(0.25),
    );
    let shapes: [(&str, &dyn SupportMap<T, 3>); 3] = [
        ("ray at a box", &cube),
        ("ray at a ball", &ball),
        ("ray at a capsule", &capsule),
    ];
    for (what, s) in shapes {
        match query::cast_ray(&Isometry3::identity(), s, &ray, h(10.0), true, &tol) {
            Ok(c) => match c.hit {
                Some(hit) => println!(
                    "{what:<40} toi {:>8.5}, {} support evaluations, point ({:.4}, {:.4}, {:.4}), normal {:?}",
                    hit.toi,
                    c.iterations,
                    hit.point.x,
                    hit.point.y,
                    hit.point.z,
                    hit.normal.map(|n| (n.x, n.y, n.z))
                ),
                None => println!("{what:<40} no hit ({:?})", c.termination),
            },
            Err(e) => println!("{what:<40} error: {e}"),
        }
    }
    let opts = CastOptions {
        max_toi: h(5.0),
        target_distance: h(0.05),
        ..CastOptions::default()
    };
    let still = LinearMotion::new(Isometry3::identity(), Vector3::zeros());
    show_cast(
        "box thrown at a box (margin 0.05)",
        query::cast_shapes(
            &still,
            &cube,
            &LinearMotion::new(
                Isometry3::new(
                    Vector3::new(h(3.0), h(0.3), h(0.0)),
                    Vector3::new(h(0.0), h(0.0), h(0.4)),
                ),
                Vector3::new(h(-1.0), h(0.0), h(0.0)),
            ),
            &cube,
            &opts,
            &tol,
        ),
    );
    show_cast(
        "box sliding along a box it touches",
        query::cast_shapes(
            &still,
            &cube,
            &LinearMotion::new(
                Isometry3::translation(h(1.0), h(0.0), h(0.0)),
                Vector3::new(h(0.0), h(1.0), h(0.0)),
            ),
            &cube,
            &CastOptions::default(),
            &tol,
        ),
    );
    let bar = Cuboid::new(Vector3::new(h(1.0), h(0.02), h(0.02)));
    let spin = RigidMotion::new(
        &Isometry3::identity(),
        Point3::origin(),
        Vector3::zeros(),
        Vector3::new(h(0.0), h(0.0), h(30.0)),
    );
    let rest = RigidMotion::fixed(&Isometry3::translation(h(0.0), h(0.8), h(0.0)));
    show_cast(
        "bar spinning 30 rad/s at a ball",
        query::time_of_impact(
            &spin,
            &bar,
            &rest,
            &Ball::new(h(0.05)),
            &CastOptions::default(),
            &tol,
        ),
    );
    let link = Capsule::new(
        Point3::origin(),
        Point3::new(h(1.0), h(0.0), h(0.0)),
        h(0.1),
    );
    let swing = RigidMotion::between(
        &Isometry3::identity(),
        &Isometry3::rotation(Vector3::new(h(0.0), h(0.0), h(1.5))),
    );
    let obstacle = RigidMotion::fixed(&Isometry3::translation(h(1.0), h(1.0), h(0.0)));
    let small = Cuboid::new(Vector3::new(h(0.2), h(0.2), h(0.2)));
    for margin in [0.01, 0.1] {
        let check = query::motion_is_free(&swing, &link, &obstacle, &small, h(margin), &tol);
        match check {
            Ok(c) => println!(
                "{:<40} free: {}, {} distance queries, safe until {:.4}{}",
                format!("link swing, margin {margin}"),
                c.is_free(),
                c.steps,
                c.safe_toi,
                c.hit.map_or(String::new(), |h| format!(
                    ", first contact at {:.4}",
                    h.toi
                ))
            ),
            Err(e) => println!("link swing: error: {e}"),
        }
    }
}
