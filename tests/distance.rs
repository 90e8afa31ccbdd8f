//! `query::distance` against exact oracles: closed forms and brute force over features.
//! Every case for f32, f64 and FixedI40F24, in each dimension it applies to.

mod common;
use common::*;
use convex_proximity::{
    Dim, Real, lit, query,
    shape::{Ball, Capsule, Cuboid, Polytope},
};
use nalgebra::{Const, Point, SVector};

/// Scales to run floats at (fixed-point: unit scale only, its documented range).
fn scales<T: Real>() -> &'static [f64] {
    if is_fixed::<T>() {
        &[1.0]
    } else {
        &[1e-2, 1.0, 1e3]
    }
}

fn ball_ball<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(1);
    for &s in scales::<T>() {
        for i in 0..200 {
            let (ra, rb) = (
                round::<T>(rng.uniform(0.05, 1.0) * s),
                round::<T>(rng.uniform(0.05, 1.0) * s),
            );
            let (pa, fa) = random_pose::<T, D>(&mut rng, 2.0 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 2.0 * s);
            let (a, b) = (Ball::new(lit::<T>(ra)), Ball::new(lit::<T>(rb)));
            let exact = ((fb.translation.vector - fa.translation.vector).norm() - ra - rb).max(0.0);
            let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
            check_distance(
                &format!("ball-ball #{i} scale {s}"),
                &pa,
                &a,
                &pb,
                &b,
                &d,
                exact,
                accuracy::<T>(s),
            );
        }
    }
}
cases!(ball_ball, [2 => d2, 3 => d3, 4 => d4, 6 => d6]);

fn capsule_capsule<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(2);
    for &s in scales::<T>() {
        for i in 0..200 {
            let mk = |rng: &mut Rng| {
                let (a, b) = (
                    rng.vector::<D>(-0.5 * s, 0.5 * s),
                    rng.vector::<D>(-0.5 * s, 0.5 * s),
                );
                let r = rng.uniform(0.01, 0.3) * s;
                (v::<T, D>(&a), v::<T, D>(&b), lit::<T>(r))
            };
            let (a0, a1, ar) = mk(&mut rng);
            let (b0, b1, br) = mk(&mut rng);
            let (pa, fa) = random_pose::<T, D>(&mut rng, 1.5 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 1.5 * s);
            let ca = Capsule::new(Point::from(a0), Point::from(a1), ar);
            let cb = Capsule::new(Point::from(b0), Point::from(b1), br);
            let w = |pose: &Pose<f64, D>, x: &SVector<T, D>| {
                pose.transform_point(&Point::from(back(x))).coords
            };
            let core = segment_segment(&w(&fa, &a0), &w(&fa, &a1), &w(&fb, &b0), &w(&fb, &b1));
            let exact = (core - f(ar) - f(br)).max(0.0);
            let d = query::distance(&pa, &ca, &pb, &cb, &tol()).unwrap();
            check_distance(
                &format!("capsule-capsule #{i} scale {s}"),
                &pa,
                &ca,
                &pb,
                &cb,
                &d,
                exact,
                accuracy::<T>(s),
            );
        }
    }
}
cases!(capsule_capsule, [2 => d2, 3 => d3, 4 => d4, 6 => d6]);

fn box_box_axis_aligned<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(3);
    for &s in scales::<T>() {
        for i in 0..200 {
            let ha = v::<T, D>(&rng.vector(0.05 * s, 1.0 * s));
            let hb = v::<T, D>(&rng.vector(0.05 * s, 1.0 * s));
            let (pa, fa) = translation::<T, D>(&rng.vector(-2.0 * s, 2.0 * s));
            let (pb, fb) = translation::<T, D>(&rng.vector(-2.0 * s, 2.0 * s));
            let c = fb.translation.vector - fa.translation.vector;
            let gap =
                SVector::<f64, D>::from_fn(|k, _| (c[k].abs() - f(ha[k]) - f(hb[k])).max(0.0));
            let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
            let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
            check_distance(
                &format!("box-box #{i} scale {s}"),
                &pa,
                &a,
                &pb,
                &b,
                &d,
                gap.norm(),
                accuracy::<T>(s),
            );
        }
    }
}
cases!(box_box_axis_aligned, [2 => d2, 3 => d3, 4 => d4, 6 => d6]);

/// Unit boxes 20–40 apart: every vertex of `A − B` lies beyond the fixed-point vertex
/// limit (4D 17, 6D 6.7), once `OutOfRange`, though Johnson's tables (relative to a base
/// vertex, each product tested before it is formed) hold them.
fn far_small_boxes_johnson<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(31);
    for i in 0..100 {
        let ha = v::<T, D>(&rng.vector(0.2, 1.0));
        let hb = v::<T, D>(&rng.vector(0.2, 1.0));
        let c = rng.unit::<D>() * rng.uniform(20.0, 40.0);
        let (pa, _) = translation::<T, D>(&SVector::zeros());
        let (pb, fb) = translation::<T, D>(&c);
        let c = fb.translation.vector;
        let gap = SVector::<f64, D>::from_fn(|k, _| (c[k].abs() - f(ha[k]) - f(hb[k])).max(0.0));
        let (a, b) = (Cuboid::new(ha), Cuboid::new(hb));
        let d = query::distance(&pa, &a, &pb, &b, &tol())
            .unwrap_or_else(|e| panic!("#{i}: {e:?} at {c}"));
        check_distance(
            &format!("far boxes #{i}"),
            &pa,
            &a,
            &pb,
            &b,
            &d,
            gap.norm(),
            accuracy::<T>(1.0) * 40.0,
        );
    }
}
cases!(far_small_boxes_johnson, [4 => d4, 6 => d6]);

fn box_ball_rotated<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(4);
    for &s in scales::<T>() {
        for i in 0..200 {
            let h = v::<T, D>(&rng.vector(0.05 * s, 1.0 * s));
            let r = lit::<T>(rng.uniform(0.01, 0.5) * s);
            let (pa, fa) = random_pose::<T, D>(&mut rng, 2.0 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 2.0 * s);
            // The ball's centre in the box frame, clamped to the box (f64, read-back pose).
            let c = fa
                .inverse_transform_point(&Point::from(fb.translation.vector))
                .coords;
            let outside = SVector::<f64, D>::from_fn(|k, _| (c[k].abs() - f(h[k])).max(0.0));
            let exact = (outside.norm() - f(r)).max(0.0);
            let (a, b) = (Cuboid::new(h), Ball::new(r));
            let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
            // The read-back rotation is orthonormal only to the scalar's precision.
            let acc = accuracy::<T>(s).max(8.0 * f(T::default_epsilon()) * 4.0 * s);
            check_distance(
                &format!("box-ball #{i} scale {s}"),
                &pa,
                &a,
                &pb,
                &b,
                &d,
                exact,
                acc,
            );
        }
    }
}
cases!(box_ball_rotated, [2 => d2, 3 => d3, 4 => d4, 6 => d6]);

fn polytope_brute_force<T: Real, const D: usize>()
where
    Const<D>: Dim,
{
    let mut rng = Rng(5);
    for &s in scales::<T>() {
        for i in 0..40 {
            let n = 4 + (i % 4);
            let (ra, rb) = (s * rng.uniform(0.3, 1.0), s * rng.uniform(0.3, 1.0));
            let local_a = rng.sphere_points::<D>(n, SVector::zeros(), ra);
            let local_b = rng.sphere_points::<D>(n, SVector::zeros(), rb);
            let (pa, fa) = random_pose::<T, D>(&mut rng, 1.2 * s);
            let (pb, fb) = random_pose::<T, D>(&mut rng, 1.2 * s);
            let ta: Vec<Point<T, D>> = local_a.iter().map(p::<T, D>).collect();
            let tb: Vec<Point<T, D>> = local_b.iter().map(p::<T, D>).collect();
            let wa: Vec<_> = ta.iter().map(|x| fa.transform_point(&pback(x))).collect();
            let wb: Vec<_> = tb.iter().map(|x| fb.transform_point(&pback(x))).collect();
            let exact = polytope_distance(&wa, &wb);
            let (a, b) = (
                Polytope::try_new(ta).unwrap(),
                Polytope::try_new(tb).unwrap(),
            );
            let d = query::distance(&pa, &a, &pb, &b, &tol()).unwrap();
            let acc = accuracy::<T>(s).max(8.0 * f(T::default_epsilon()) * 4.0 * s);
            check_distance(
                &format!("polytope #{i} scale {s}"),
                &pa,
                &a,
                &pb,
                &b,
                &d,
                exact,
                acc,
            );
        }
    }
}
cases!(polytope_brute_force, [2 => d2, 3 => d3]);
