//! Swept boxes (`Aabb::swept`, `Aabb::swept_linear`): every point a support query gives
//! for the shape, placed by the motion at densely sampled times of `[0, t_max]`, lies in
//! the box (no tolerance: the box claims to hold the computed points), and the box is
//! tight where the proof says it is (translations: the end boxes' merge; small turns: within
//! the sagitta of the swept extent). Turns up to 3π (t_max = 3 on a slerped segment), so
//! the ball bound alone answers too. f32, f64, FixedI40F24; 2D, 3D.

mod common;
use common::*;
use convex_proximity::{
    Real,
    bound::Aabb,
    cast::{LinearMotion, RigidMotion, RotationDim},
    lit,
    shape::{Ball, Capsule, Cuboid, Polytope, Rounded, Shape, ShapeDim, SupportMap},
};
use nalgebra::{Const, Isometry, Point, Rotation, SVector, Translation};

fn samples() -> usize {
    if cfg!(debug_assertions) { 48 } else { 2000 }
}

fn shapes<T: Real, const D: usize>(rng: &mut Rng) -> Vec<Shape<T, D>>
where
    Const<D>: ShapeDim<T, D>,
{
    let pts: Vec<Point<T, D>> = (0..12)
        .map(|_| {
            p::<T, D>(&Point::from(
                rng.vector::<D>(-1.0, 1.0) + SVector::repeat(0.5),
            ))
        })
        .collect();
    let hull = Polytope::try_new(pts).unwrap();
    vec![
        Ball::new(lit::<T>(0.5)).into(),
        Cuboid::new(v::<T, D>(&rng.vector::<D>(0.2, 1.5))).into(),
        Capsule::new(
            p(&Point::from(rng.vector::<D>(-1.0, 1.0))),
            Point::origin(),
            lit(0.3),
        )
        .into(),
        hull.clone().into(),
        Rounded::new(hull, lit::<T>(0.2)).into(),
    ]
}

/// The largest amount by which a sampled support point along `±eₖ` leaves the box (0 if
/// none does), and the sampled extent's box.
fn sweep<T, const D: usize, S>(
    b: &Aabb<T, D>,
    shape: &S,
    at: impl Fn(T) -> (nalgebra::SMatrix<T, D, D>, SVector<T, D>),
    t_max: f64,
) -> (f64, Aabb<f64, D>)
where
    T: Real,
    S: SupportMap<T, D>,
{
    let n = samples();
    let mut worst = 0.0f64;
    let mut seen = Aabb::new(
        Point::from(SVector::repeat(f64::MAX)),
        Point::from(SVector::repeat(-f64::MAX)),
    );
    for i in 0..=n {
        let t = lit::<T>(t_max * i as f64 / n as f64);
        let (rot, trans) = at(t);
        for k in 0..D {
            for sign in [1.0, -1.0] {
                let dir: SVector<T, D> = rot.row(k).transpose() * lit::<T>(sign);
                let x = rot * shape.support(&dir).coords + trans;
                for j in 0..D {
                    worst = worst.max(f(b.min[j] - x[j])).max(f(x[j] - b.max[j]));
                }
                let xf = Point::from(back(&x));
                seen = seen.merge(&Aabb::new(xf, xf));
            }
        }
    }
    (worst, seen)
}

fn rigid_sweeps_hold<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D> + RotationDim<T, D>,
{
    let mut rng = Rng(41 + D as u64);
    for round in 0..3 {
        for s in shapes::<T, D>(&mut rng) {
            let (p0, _) = random_pose::<T, D>(&mut rng, 3.0);
            let (p1, _) = random_pose::<T, D>(&mut rng, 3.0);
            let m = RigidMotion::between(&p0, &p1);
            let t_max = [1.0, 0.4, 3.0][round];
            let b = Aabb::swept(&m, &s, lit::<T>(t_max)).unwrap();
            let at = |t: T| {
                let rot = m.rotation_at(t);
                (rot, m.center_at(t).coords - rot * m.local_center().coords)
            };
            let (worst, _) = sweep(&b, &s, at, t_max);
            assert_eq!(
                worst, 0.0,
                "{s:?} left {b:?} by {worst} (t_max {t_max}, {m:?})"
            );
        }
    }
}
cases!(rigid_sweeps_hold, [2 => d2, 3 => d3]);

/// A small turn in place: the box is within the sagitta `2r·sin²(θ/4)` (plus rounding) of
/// the sampled extent on every side.
fn small_turns_are_tight<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D> + RotationDim<T, D>,
{
    let mut rng = Rng(7 + D as u64);
    let cube = Cuboid::new(v::<T, D>(&SVector::repeat(1.0)));
    let (p0, _) = random_pose::<T, D>(&mut rng, 2.0);
    // The end pose: p0 turned by a small rotation (a random pose's, scaled down).
    let (q, _) = random_pose::<T, D>(&mut rng, 0.0);
    let m0 = RigidMotion::between(&Isometry::<T, Rotation<T, D>, D>::identity(), &q);
    let small = m0.rotation_at(lit::<T>(0.05));
    let p1 = Isometry::from_parts(
        p0.translation,
        Rotation::from_matrix_unchecked(small * p0.rotation.matrix()),
    );
    let m = RigidMotion::between(&p0, &p1);
    let b = Aabb::swept(&m, &cube, T::one()).unwrap();
    let at = |t: T| {
        let rot = m.rotation_at(t);
        (rot, m.center_at(t).coords - rot * m.local_center().coords)
    };
    let (worst, seen) = sweep(&b, &cube, at, 1.0);
    assert_eq!(worst, 0.0);
    let r = (D as f64).sqrt();
    let theta = f(<Const<D> as RotationDim<T, D>>::speed(
        &m.angular_velocity(),
    ));
    let sagitta = 2.0 * r * (theta / 4.0).sin().powi(2);
    let slack = sagitta + accuracy::<T>(10.0) + 1e-3 * theta * theta; // sampling
    for k in 0..D {
        assert!(
            seen.min[k] - f(b.min[k]) <= slack,
            "axis {k}: {b:?} vs {seen:?} (θ {theta})"
        );
        assert!(
            f(b.max[k]) - seen.max[k] <= slack,
            "axis {k}: {b:?} vs {seen:?} (θ {theta})"
        );
    }
}
cases!(small_turns_are_tight, [2 => d2, 3 => d3]);

/// Linear motions: every sampled point inside, and the box is the end boxes' merge (within
/// the pads).
fn linear_sweeps_are_exact<T: Real, const D: usize>()
where
    Const<D>: ShapeDim<T, D>,
{
    let mut rng = Rng(3 + D as u64);
    for s in shapes::<T, D>(&mut rng) {
        let (p0, _) = random_pose::<T, D>(&mut rng, 3.0);
        let vel = v::<T, D>(&rng.vector::<D>(-5.0, 5.0));
        let m = LinearMotion::new(p0, vel);
        let b = Aabb::swept_linear(&m, &s, lit::<T>(0.5)).unwrap();
        let rot = *p0.rotation.matrix();
        let at = |t: T| (rot, p0.translation.vector + vel * t);
        let (worst, _) = sweep(&b, &s, at, 0.5);
        assert_eq!(worst, 0.0, "{s:?} left {b:?} by {worst}");
        let end = Isometry::from_parts(
            Translation::from(p0.translation.vector + vel * lit::<T>(0.5)),
            p0.rotation,
        );
        let merged = Aabb::of(&p0, &s)
            .unwrap()
            .merge(&Aabb::of(&end, &s).unwrap());
        let tol = accuracy::<T>(10.0);
        for k in 0..D {
            assert!(
                f(merged.min[k] - b.min[k]).abs() <= tol,
                "{b:?} vs {merged:?}"
            );
            assert!(
                f(merged.max[k] - b.max[k]).abs() <= tol,
                "{b:?} vs {merged:?}"
            );
        }
    }
}
cases!(linear_sweeps_are_exact, [2 => d2, 3 => d3]);

/// Bad horizons and motions are errors.
#[test]
fn invalid_sweeps_are_errors() {
    let m = RigidMotion::fixed(&nalgebra::Isometry3::<f64>::identity());
    let ball = Ball::new(1.0);
    assert!(Aabb::swept(&m, &ball, -1.0).is_err());
    assert!(Aabb::swept(&m, &ball, f64::NAN).is_err());
    let lm = LinearMotion::new(
        nalgebra::Isometry2::<f64>::identity(),
        SVector::repeat(f64::NAN),
    );
    assert!(Aabb::swept_linear(&lm, &ball, 1.0).is_err());
}
