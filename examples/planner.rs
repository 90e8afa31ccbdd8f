//! A motion planner's inner loop: a 6-link arm (capsules, a box, a 200-point hull, a
//! cylinder) against 50 obstacles, in f64.
//!
//! 1. A mixed collection: every shape is a `Shape<f64, 3>`.
//! 2. Broad phase: boxes of the links at each configuration against the obstacles' boxes,
//!    both loosened by half the safety margin.
//! 3. Warm-started signed distances along a path: one `gjk::Cache` per (link, obstacle)
//!    pair, kept from one configuration to the next (`query::contact_with_cache`).
//! 4. Margin queries (`query::distance_within`): "is the pair farther than the margin?".
//! 5. Motion checks between consecutive configurations (`query::motion_is_free` on each
//!    link's straight segment in pose space), pairs chosen by swept boxes (`Aabb::swept`).
//! 6. With `--features rayon`: the same signed distances for all configurations at once on
//!    all cores (`batch::Scene::contacts`), against the sequential loop.
//!
//! Run: `cargo run --release --example planner [configurations]` (default 2000), with
//! `--features rayon` for step 6. Prints the time per query of each step.

use convex_proximity::{
    Tolerances,
    bound::Aabb,
    gjk::Cache,
    query::{self, RigidMotion},
    shape::{Ball, Capsule, Cuboid, Cylinder, Polytope, Shape},
};
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::time::Instant;

/// splitmix64 in [0, 1): a seeded scene, the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// Link lengths along each link's local x axis; joints alternate about z and y.
const LENGTHS: [f64; 6] = [0.6, 0.5, 0.5, 0.4, 0.3, 0.2];

fn arm() -> Vec<Shape<f64, 3>> {
    let capsule = |l: f64, r: f64| Capsule::new(Point3::origin(), Point3::new(l, 0.0, 0.0), r);
    // A 200-point hull: an ellipsoid along the link.
    let mut rng = Rng(3);
    let hull: Vec<Point3<f64>> = (0..200)
        .map(|_| {
            let (u, w) = (rng.range(-1.0, 1.0), rng.range(0.0, std::f64::consts::TAU));
            let s = (1.0 - u * u).sqrt();
            Point3::new(0.2 + 0.2 * u, 0.08 * s * w.cos(), 0.08 * s * w.sin())
        })
        .collect();
    vec![
        capsule(LENGTHS[0], 0.08).into(),
        // The box and cylinder are centred, so they sit on a transformed frame.
        Shape::transformed(
            Cuboid::new(Vector3::new(0.25, 0.07, 0.07)),
            nalgebra::Matrix3::identity(),
            Vector3::new(0.25, 0.0, 0.0),
        )
        .unwrap(),
        capsule(LENGTHS[2], 0.06).into(),
        Polytope::try_new(hull).unwrap().into(),
        capsule(LENGTHS[4], 0.05).into(),
        Shape::transformed(
            Cylinder::new(0.1, 0.04),
            *nalgebra::Rotation3::from_axis_angle(&Vector3::z_axis(), -std::f64::consts::FRAC_PI_2)
                .matrix(),
            Vector3::new(0.1, 0.0, 0.0),
        )
        .unwrap(),
    ]
}

fn obstacles(rng: &mut Rng) -> (Vec<Shape<f64, 3>>, Vec<Isometry3<f64>>) {
    let mut shapes = Vec::new();
    let mut poses = Vec::new();
    for i in 0..50 {
        let s: Shape<f64, 3> = match i % 5 {
            0 => Cuboid::new(Vector3::new(
                rng.range(0.05, 0.2),
                rng.range(0.05, 0.2),
                0.1,
            ))
            .into(),
            1 => Ball::new(rng.range(0.05, 0.15)).into(),
            2 => Capsule::new(Point3::origin(), Point3::new(0.0, 0.0, 0.3), 0.05).into(),
            3 => Cylinder::new(0.15, rng.range(0.05, 0.1)).into(),
            _ => {
                let pts: Vec<Point3<f64>> = (0..20)
                    .map(|_| {
                        Point3::new(
                            rng.range(-0.1, 0.1),
                            rng.range(-0.1, 0.1),
                            rng.range(-0.1, 0.1),
                        )
                    })
                    .collect();
                Polytope::try_new(pts).unwrap().into()
            }
        };
        // A shell around the arm's base: some near the path, most far.
        let (r, a, z) = (
            rng.range(0.6, 2.5),
            rng.range(0.0, std::f64::consts::TAU),
            rng.range(-0.8, 0.8),
        );
        shapes.push(s);
        poses.push(Isometry3::from_parts(
            Translation3::new(r * a.cos(), r * a.sin(), z),
            UnitQuaternion::from_scaled_axis(Vector3::new(rng.next(), rng.next(), rng.next())),
        ));
    }
    (shapes, poses)
}

/// The links' poses at joint angles `q` (joint k turns about z for even k, y for odd k).
fn forward(q: &[f64; 6]) -> [Isometry3<f64>; 6] {
    let mut pose = Isometry3::identity();
    let mut out = [Isometry3::identity(); 6];
    for k in 0..6 {
        let axis = if k % 2 == 0 {
            Vector3::z()
        } else {
            Vector3::y()
        };
        pose *= UnitQuaternion::from_scaled_axis(axis * q[k]);
        out[k] = pose;
        pose *= Translation3::new(LENGTHS[k], 0.0, 0.0);
    }
    out
}

/// `n` configurations on the straight joint-space path from `a` to `b`.
fn path(a: [f64; 6], b: [f64; 6], n: usize) -> Vec<[f64; 6]> {
    (0..n)
        .map(|i| {
            let t = i as f64 / (n - 1).max(1) as f64;
            std::array::from_fn(|k| a[k] + (b[k] - a[k]) * t)
        })
        .collect()
}

fn per_query(start: Instant, queries: usize) -> String {
    let ns = start.elapsed().as_secs_f64() * 1e9 / queries.max(1) as f64;
    format!("{ns:8.0} ns/query over {queries} queries")
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let tol = Tolerances::default();
    let margin = 0.05;
    let links = arm();
    let mut rng = Rng(2024);
    let (obs, obs_poses) = obstacles(&mut rng);
    let configs = path(
        [0.0, 0.3, -0.4, 0.5, 0.0, 0.2],
        [2.5, -0.3, 0.6, -0.5, 1.0, -0.4],
        n,
    );
    let poses: Vec<[Isometry3<f64>; 6]> = configs.iter().map(forward).collect();
    println!(
        "planner: {} links × {} obstacles, {n} configurations, margin {margin}",
        links.len(),
        obs.len()
    );

    // 2. Broad phase.
    let obs_boxes: Vec<Aabb<f64, 3>> = obs
        .iter()
        .zip(&obs_poses)
        .map(|(s, p)| Aabb::of(p, s).unwrap().loosened(margin / 2.0))
        .collect();
    let start = Instant::now();
    let mut candidates: Vec<Vec<(usize, usize)>> = Vec::with_capacity(n);
    for pose in &poses {
        let mut near = Vec::new();
        for (l, (link, p)) in links.iter().zip(pose).enumerate() {
            let b = Aabb::of(p, link).unwrap().loosened(margin / 2.0);
            near.extend(
                (0..obs.len())
                    .filter(|&o| b.intersects(&obs_boxes[o]))
                    .map(|o| (l, o)),
            );
        }
        candidates.push(near);
    }
    let pairs: usize = candidates.iter().map(Vec::len).sum();
    println!(
        "broad phase:     {} (a link's box and its {} box tests; {} of {} pairs kept)",
        per_query(start, n * links.len()),
        obs.len(),
        pairs,
        n * links.len() * obs.len()
    );

    // 3. Warm signed distances along the path, one cache per (link, obstacle).
    let mut caches = vec![Cache::new(); links.len() * obs.len()];
    let (mut closest, mut colliding) = (f64::INFINITY, 0usize);
    let start = Instant::now();
    for (pose, near) in poses.iter().zip(&candidates) {
        for &(l, o) in near {
            let cache = &mut caches[l * obs.len() + o];
            let c =
                query::contact_with_cache(&pose[l], &links[l], &obs_poses[o], &obs[o], &tol, cache)
                    .unwrap();
            closest = closest.min(c.separation);
            colliding += usize::from(c.separation < 0.0);
        }
    }
    println!(
        "signed distance: {} (warm; closest {closest:.4}, {colliding} penetrating)",
        per_query(start, pairs)
    );

    // 4. Margin queries on the same pairs (early exit beyond the margin).
    let start = Instant::now();
    let mut within = 0usize;
    for (pose, near) in poses.iter().zip(&candidates) {
        for &(l, o) in near {
            let p =
                query::distance_within(&pose[l], &links[l], &obs_poses[o], &obs[o], margin, &tol)
                    .unwrap();
            within += usize::from(!p.is_disjoint());
        }
    }
    println!(
        "margin query:    {} ({within} within {margin})",
        per_query(start, pairs)
    );

    // 5. Motion checks between consecutive configurations, pairs from swept boxes.
    let start = Instant::now();
    let (mut checks, mut blocked) = (0usize, 0usize);
    for w in poses.windows(2) {
        for l in 0..links.len() {
            let motion = RigidMotion::between(&w[0][l], &w[1][l]);
            let swept = Aabb::swept(&motion, &links[l], 1.0)
                .unwrap()
                .loosened(margin / 2.0);
            for o in (0..obs.len()).filter(|&o| swept.intersects(&obs_boxes[o])) {
                let at = RigidMotion::fixed(&obs_poses[o]);
                let free = query::motion_is_free(&motion, &links[l], &at, &obs[o], margin, &tol)
                    .unwrap()
                    .is_free();
                checks += 1;
                blocked += usize::from(!free);
            }
        }
    }
    println!(
        "motion check:    {} ({blocked} (link, obstacle, segment) not free; swept boxes kept {checks} of {})",
        per_query(start, checks),
        (n - 1) * links.len() * obs.len()
    );

    #[cfg(feature = "rayon")]
    batch(&links, &obs, &obs_poses, &poses, &tol);
    #[cfg(not(feature = "rayon"))]
    println!("batch:           run with --features rayon");
}

/// Step 6: all configurations' (link, obstacle) pairs in one scene, the links once per
/// configuration and the obstacles once; the sequential loop, then `batch::Scene::contacts` on 1
/// thread and on all of rayon's.
#[cfg(feature = "rayon")]
fn batch(
    links: &[Shape<f64, 3>],
    obs: &[Shape<f64, 3>],
    obs_poses: &[Isometry3<f64>],
    poses: &[[Isometry3<f64>; 6]],
    tol: &Tolerances<f64>,
) {
    use convex_proximity::batch;
    let mut shapes: Vec<&Shape<f64, 3>> = Vec::new();
    let mut scene_poses = Vec::new();
    for pose in poses {
        shapes.extend(links.iter());
        scene_poses.extend(pose.iter().copied());
    }
    let first_obstacle = shapes.len();
    shapes.extend(obs.iter());
    scene_poses.extend(obs_poses.iter().copied());
    let pairs: Vec<batch::Pair> = (0..poses.len() * links.len())
        .flat_map(|l| (0..obs.len()).map(move |o| batch::Pair::new(l, first_obstacle + o)))
        .collect();
    let m = pairs.len();
    let mut out = vec![None; m];
    // (wall seconds, process CPU seconds) of the fastest of 3 warm runs.
    let time = |threads: Option<usize>, out: &mut Vec<_>| {
        let mut caches = vec![Cache::new(); m];
        let pool = threads.map(|t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        });
        let run = |caches: &mut Vec<Cache<f64, 3>>, out: &mut Vec<_>| match &pool {
            None => {
                for (k, &batch::Pair { a: i, b: j }) in pairs.iter().enumerate() {
                    out[k] = Some(query::contact_with_cache(
                        &scene_poses[i],
                        shapes[i],
                        &scene_poses[j],
                        shapes[j],
                        tol,
                        &mut caches[k],
                    ));
                }
            }
            Some(pool) => {
                let scene = batch::Scene::new(&scene_poses, &shapes);
                pool.install(|| scene.contacts(&pairs, tol, caches, out))
            }
        };
        run(&mut caches, out); // warm-up: caches filled, the workers' pools grown
        let mut best = (f64::INFINITY, 0.0);
        for _ in 0..3 {
            let (start, cpu) = (Instant::now(), cpu_seconds());
            run(&mut caches, out);
            let wall = start.elapsed().as_secs_f64();
            if wall < best.0 {
                best = (wall, cpu_seconds() - cpu);
            }
        }
        best
    };
    let seq = time(None, &mut out);
    let reference = format!("{out:?}");
    let one = time(Some(1), &mut out);
    let all_threads = rayon::current_num_threads();
    let all = time(Some(all_threads), &mut out);
    assert_eq!(
        format!("{out:?}"),
        reference,
        "the batch answers what the loop answers"
    );
    let ns = |s: f64| s * 1e9 / m as f64;
    // CPU time per wall time: the cores the run actually got (less on a loaded machine).
    println!(
        "batch:           {m} pairs (all, warm): loop {:.0} ns/query, 1 thread {:.0}, {all_threads} threads {:.0} (speed-up {:.2}× over the loop; cores used {:.2}, {:.2}, {:.2}; CPU ns/query {:.0}, {:.0}, {:.0})",
        ns(seq.0),
        ns(one.0),
        ns(all.0),
        seq.0 / all.0,
        seq.1 / seq.0,
        one.1 / one.0,
        all.1 / all.0,
        ns(seq.1),
        ns(one.1),
        ns(all.1),
    );
}

/// This process's CPU time (user + system, all threads) in seconds, from `/proc/self/stat`
/// (Linux; 100 clock ticks per second, the kernel's `USER_HZ`); 0 elsewhere.
#[cfg(feature = "rayon")]
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name (in parentheses): the state (field 3), then the numeric
    // fields; utime and stime are fields 14 and 15.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let field = |n: usize| f.get(n - 3).and_then(|x| x.parse::<f64>().ok());
    field(14)
        .zip(field(15))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}
