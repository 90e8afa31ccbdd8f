//! Contact manifolds, 2D and 3D: [`manifold`] and its workspace form, and the pair's
//! methods for shapes with features (docs/clipping.md).

use crate::{
    QueryError, Real, Tolerances,
    clip::{self, Built, FeatureMap, LocalContact, Manifold, ManifoldWorkspace},
    epa::ContactDim,
    gjk::Cores,
    linalg::Witnesses,
    pose::{Frame, PoseRotation},
    tolerance::{allowance, ulps},
};
use nalgebra::{Const, SVector, Unit};

use super::{Contact, Placed, PosedPair, contact::contact_local};

/// The manifold queries: 2D and 3D, shapes with features.
impl<T, R, const D: usize, A, B> PosedPair<'_, T, R, D, A, B>
where
    T: Real,
    R: PoseRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    /// [`manifold`] of this pair.
    ///
    /// # Errors
    /// As [`manifold`].
    #[inline]
    pub fn manifold(&self, prediction: T) -> Result<Manifold<T, D>, QueryError> {
        crate::scratch::with(|ws: &mut ManifoldWorkspace<T, D>| {
            self.manifold_with_workspace(prediction, ws)
        })
    }

    /// [`manifold_with_workspace`] of this pair.
    ///
    /// Algorithm:
    /// 1. The tolerances, `prediction` (finite, `≥ 0`) and the pair checked; B placed in
    ///    A's frame.
    /// 2. Two cuboids: the separating-axis test (docs/clipping.md §5); beyond the
    ///    prediction: the empty manifold along its axis; an edge axis without witnesses:
    ///    fall-back; else its contact clipped (2D: first `clip::boxes::manifold2`).
    /// 3. Other shapes, or the boxes' fall-back: the contact from the pair's closed forms
    ///    (docs/pairs.md), else GJK and EPA; its slack is its bounds' width plus the
    ///    rounding of a clipped pair.
    /// 4. Within the prediction plus that slack: the features clipped (`clip::build`); a
    ///    fall-back there leaves the empty manifold along the contact's normal.
    /// 5. The manifold mapped from A's frame to the world frame.
    ///
    /// # Errors
    /// As [`manifold`].
    #[inline]
    pub fn manifold_with_workspace(
        &self,
        prediction: T,
        workspace: &mut ManifoldWorkspace<T, D>,
    ) -> Result<Manifold<T, D>, QueryError> {
        let Self {
            pose_a,
            a,
            pose_b,
            b,
            tol,
        } = *self;
        if !(prediction >= T::zero()) || !prediction.is_finite() {
            return Err(QueryError::InvalidTolerance {
                field: "prediction",
            });
        }
        let rel = crate::input::check_posed_pair(pose_a, a, pose_b, b)?;
        let (frame_a, rel) = (rel.frame_a, rel.b_in_a);
        let mut m = Manifold::empty(crate::linalg::any_axis());
        let boxes = match (a.half_extents(), b.half_extents()) {
            (Some(ha), Some(hb)) => {
                match box_axis(&ha, &hb, &rel, prediction, tol, &mut m) {
                    // Separated boxes: s(n) is the distance only if a pair along n is that
                    // close. `build` certifies it: a deepest pair shallower than s(n) +
                    // slack needs the witnesses, which a face axis does not have, and it
                    // falls back.
                    BoxAxis::Clip(local) => {
                        let fast = if D == 2 {
                            clip::boxes::manifold2(&ha, &hb, &rel, &local, prediction, &mut m)
                        } else {
                            Built::FallBack
                        };
                        if fast == Built::Manifold {
                            Built::Manifold
                        } else {
                            clip::build(a, b, &rel, &local, prediction, workspace, &mut m)
                        }
                    }
                    BoxAxis::Decided(built) => built,
                }
            }
            _ => Built::FallBack,
        };
        if boxes == Built::FallBack {
            // The pair's closed forms where they answer (a capsule or a ball on a box, round
            // pairs: docs/pairs.md), mapped into A's frame; else GJK and EPA.
            let c = match PosedPair::new(pose_a, a, pose_b, b, tol).closed_contact() {
                Some(w) => Contact {
                    point_a: frame_a.inverse_transform_point(&w.point_a),
                    point_b: frame_a.inverse_transform_point(&w.point_b),
                    normal: Unit::new_unchecked(frame_a.inverse_transform_vector(&w.normal)),
                    ..w
                },
                None => {
                    let cores = Cores {
                        a,
                        b: &Placed::new(b, &rel),
                    };
                    contact_local(&cores, tol, Some(&mut workspace.epa), None, &mut (), None)?
                }
            };
            let extent = c.point_a.coords.amax().max(c.point_b.coords.amax());
            let local = LocalContact {
                separation: c.separation,
                normal: c.normal,
                witness: Some(Witnesses {
                    a: c.point_a,
                    b: c.point_b,
                }),
                slack: slack(c.upper_bound - c.lower_bound)(extent),
                rounding: slack(T::zero())(extent),
                reference_bias: tol.manifold_reference_bias,
                min_alignment: tol.manifold_min_alignment,
            };
            m.reset(c.normal);
            if c.separation <= prediction + local.slack
                && clip::build(a, b, &rel, &local, prediction, workspace, &mut m) == Built::FallBack
            {
                m.reset(c.normal);
            }
        }
        m.map(
            |p| frame_a.transform_point(p),
            |n| frame_a.transform_vector(n),
        );
        Ok(m)
    }
}

posed_query! {
    /// The contact manifold of shape `a` at `pose_a` and shape `b` at `pose_b`: up to 4 points
    /// (2 in 2D) within `prediction` of touching (speculative contacts) or penetrating, with
    /// one normal from A to B and feature ids for warm-starting a solver; world frame.
    ///
    /// The normal comes from [`contact`](super::contact); the features of both shapes along it are clipped
    /// against each other ([`crate::clip`], docs/clipping.md).
    ///
    /// # Errors
    /// As [`distance`](super::distance); [`QueryError::InvalidTolerance`] (`"prediction"`) for a negative or
    /// non-finite `prediction`.
    ///
    /// ```
    /// use convex_proximity::{Tolerances, query, shape::Cuboid};
    /// use nalgebra::{Isometry3, Vector3};
    /// // A unit cube resting on a wide slab, sunk 0.01 into it: four corners touch.
    /// let slab = Cuboid::new(Vector3::new(5.0, 0.5, 5.0));
    /// let cube = Cuboid::new(Vector3::new(0.5, 0.5, 0.5));
    /// let m = query::manifold(&Isometry3::identity(), &slab, &Isometry3::translation(0.0, 0.99, 0.0), &cube,
    ///                         0.0, &Tolerances::default()).unwrap();
    /// assert_eq!(m.len(), 4);
    /// assert!(m.points().iter().all(|p| (p.separation + 0.01f64).abs() < 1e-12));
    /// assert!((m.normal.y - 1.0).abs() < 1e-12);
    /// ```
    pub fn manifold(prediction: T, &tol) -> Manifold<T, D>
        where Const<D>: ContactDim<T, D>, shapes: FeatureMap;
}

posed_query! {
    /// [`manifold`] with its scratch memory supplied: no heap allocation once warm.
    ///
    /// # Errors
    /// As [`manifold`].
    pub fn manifold_with_workspace(prediction: T, &tol, workspace: &mut ManifoldWorkspace<T, D>)
        -> Manifold<T, D>
        where Const<D>: ContactDim<T, D>, shapes: FeatureMap;
}

/// What the separating-axis test of two cuboids leaves to do.
enum BoxAxis<T: Real, const D: usize> {
    /// Clip the features along this contact (docs/clipping.md §5).
    Clip(LocalContact<T, D>),
    /// Decided without clipping: [`Built::Manifold`] (farther than the prediction: `m` is
    /// the empty manifold along the axis) or [`Built::FallBack`] (the general path decides).
    Decided(Built),
}

/// Two cuboids: the separating-axis test gives the contact, which the same clipping then
/// uses. [`Built::FallBack`] when the test's axis cannot be certified: no axis, or an
/// edge–edge axis without closest points inside both edges (`clip::build` falls back too
/// for clipped points that do not reach its separation: separated boxes, or an overlap
/// whose deepest point overhangs the reference face).
fn box_axis<T: Real, const D: usize>(
    ha: &SVector<T, D>,
    hb: &SVector<T, D>,
    rel: &Frame<T, D>,
    prediction: T,
    tol: &Tolerances<T>,
    m: &mut Manifold<T, D>,
) -> BoxAxis<T, D> {
    let (rot, t) = (rel.rot, rel.t);
    let extent = t.amax() + ha.amax() + hb.amax();
    let slack = slack(T::zero())(extent);
    let Some(axis) = clip::boxes::sat(ha, hb, &rot, &t, slack) else {
        return BoxAxis::Decided(Built::FallBack);
    };
    if axis.separation > prediction + slack {
        // Every s(n) is at most the distance: farther than the prediction.
        m.reset(axis.normal);
        return BoxAxis::Decided(Built::Manifold);
    }
    if axis.edge && axis.witness.is_none() {
        return BoxAxis::Decided(Built::FallBack);
    }
    BoxAxis::Clip(LocalContact {
        separation: axis.separation,
        normal: axis.normal,
        witness: axis.witness,
        slack,
        rounding: slack,
        reference_bias: tol.manifold_reference_bias,
        min_alignment: tol.manifold_min_alignment,
    })
}

/// How far a manifold point may be from the contact's answer and still count as the same:
/// the contact's bounds' width plus the rounding of a clipped pair
/// ([`allowance::CLIPPED_PAIR`] of the coordinates' size, and in fixed-point
/// [`allowance::CLIPPED_PAIR_FIXED`] absolute; docs/clipping.md §2).
fn slack<T: Real>(width: T) -> impl Fn(T) -> T {
    let floor = if crate::real::is_fixed::<T>() {
        ulps::<T>(allowance::CLIPPED_PAIR_FIXED)
    } else {
        T::zero()
    };
    let per_unit = ulps::<T>(allowance::CLIPPED_PAIR);
    move |extent| width.abs() + per_unit * extent + floor
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{clip::Manifold, lit, shape::Cuboid};
    use nalgebra::{Isometry2, Vector2};

    use crate::real::test_uniform as uniform;

    /// `clip::boxes::manifold2` writes what `clip::build` writes, bit for bit, wherever it
    /// answers: random box pairs around touching (resting, tilted, corner first, deep,
    /// degenerate sizes), so that it may stand in for the general clipper. Returns how
    /// many it answered.
    fn two_d_boxes_match_the_general_clipper<T: Real>(cases: usize) -> usize {
        let tol = Tolerances::<T>::default();
        let mut ws = ManifoldWorkspace::<T, 2>::new();
        let (mut s, mut answered) = (7u64, 0);
        for i in 0..cases {
            let mut h = || {
                let x = uniform(&mut s, 0.0, 2.0);
                // Some flat boxes: a zero half-extent.
                if x < 0.05 { 0.0 } else { x }
            };
            let (ha, hb) = (Vector2::new(h(), h()), Vector2::new(h(), h()));
            let tilt = match i % 4 {
                0 => 0.0,
                1 => uniform(&mut s, -1e-3, 1e-3),
                _ => uniform(&mut s, -3.2, 3.2),
            };
            let angle_a = uniform(&mut s, -3.2, 3.2);
            let pa = Isometry2::new(
                Vector2::new(uniform(&mut s, -3.0, 3.0), uniform(&mut s, -3.0, 3.0)),
                angle_a,
            );
            // B resting on A's top face (tilted), its height around touching.
            let up = ha.y + hb.y * (1.0 - tilt.abs().min(1.0)) + uniform(&mut s, -0.3, 0.05);
            let rel = Isometry2::new(Vector2::new(uniform(&mut s, -1.5, 1.5), up), tilt);
            let pb = pa * rel;
            let cast = |p: &Isometry2<f64>| {
                Isometry2::new(
                    Vector2::new(lit::<T>(p.translation.x), lit(p.translation.y)),
                    lit::<T>(p.rotation.angle()),
                )
            };
            let (a, b) = (Cuboid::new(ha.map(lit::<T>)), Cuboid::new(hb.map(lit::<T>)));
            let (pa, pb) = (cast(&pa), cast(&pb));
            let frame = crate::input::check_posed_pair(&pa, &a, &pb, &b).expect("valid");
            let rel = frame.b_in_a;
            let prediction = lit::<T>(0.01);
            let mut m1 = Manifold::empty(crate::linalg::any_axis());
            let BoxAxis::Clip(local) = box_axis(
                &a.half_extents,
                &b.half_extents,
                &rel,
                prediction,
                &tol,
                &mut m1,
            ) else {
                continue;
            };
            if clip::boxes::manifold2(
                &a.half_extents,
                &b.half_extents,
                &rel,
                &local,
                prediction,
                &mut m1,
            ) == Built::FallBack
            {
                continue;
            }
            let mut m2 = Manifold::empty(crate::linalg::any_axis());
            let built = clip::build(&a, &b, &rel, &local, prediction, &mut ws, &mut m2);
            assert_eq!(built, Built::Manifold, "case {i}: {m1:?}");
            assert_eq!(m1, m2, "case {i}: {ha} {hb} tilt {tilt}");
            answered += 1;
        }
        answered
    }

    #[test]
    fn two_d_boxes_match_the_general_clipper_all() {
        let n = 20_000;
        assert!(two_d_boxes_match_the_general_clipper::<f64>(n) > n / 4);
        assert!(two_d_boxes_match_the_general_clipper::<f32>(n) > n / 4);
        #[cfg(feature = "fixed")]
        assert!(two_d_boxes_match_the_general_clipper::<simba::scalar::FixedI40F24>(n) > n / 4);
    }
}
