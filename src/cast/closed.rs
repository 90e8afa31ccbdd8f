//! Closed-form ray casts in the shape's local frame: balls (the quadratic) and boxes (the
//! slab test; Kay & Kajiya 1986). Used for floating point only: fixed-point takes the GJK
//! ray cast, whose divisions are guarded (docs/casts.md §2).

use crate::{Real, real::sqrt0, shape::Capsule};
use nalgebra::{Point, SVector, Unit};

/// A closed-form answer: a hit at `toi` (with the outward normal, `None` when the ray
/// starts inside a solid shape), or a miss within `max_toi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Closed<T: Real, const D: usize> {
    Hit {
        toi: T,
        normal: Option<Unit<SVector<T, D>>>,
        inside: bool,
    },
    Miss,
}

fn hit_or_miss<T: Real, const D: usize>(
    toi: T,
    max_toi: T,
    normal: Option<Unit<SVector<T, D>>>,
    inside: bool,
) -> Closed<T, D> {
    if toi <= max_toi {
        Closed::Hit {
            toi,
            normal,
            inside,
        }
    } else {
        Closed::Miss
    }
}

/// The ray `o + t·d` against the ball of radius `r > 0` at the origin: the roots of
/// `‖o + t d‖² = r²`, with the discriminant from the perpendicular offset
/// `q = o − (o·d/d·d)·d` (`b² − ac = d·d·(r² − ‖q‖²)`, no cancellation; Haines et al. 2019)
/// and each root from the form without cancellation.
#[inline(always)]
pub(crate) fn ray_ball<T: Real, const D: usize>(
    r: T,
    o: &Point<T, D>,
    d: &SVector<T, D>,
    max_toi: T,
    solid: bool,
) -> Closed<T, D> {
    let o = o.coords;
    let (a, b, c) = (d.norm_squared(), o.dot(d), o.norm_squared() - r * r);
    let inside = c <= T::zero();
    if inside && (solid || !(a > T::zero())) {
        return Closed::Hit {
            toi: T::zero(),
            normal: None,
            inside: true,
        };
    }
    if !(a > T::zero()) || (!inside && b >= T::zero()) {
        return Closed::Miss;
    }
    let q = o - d * (b / a);
    let disc = a * (r * r - q.norm_squared());
    if disc < T::zero() {
        return Closed::Miss;
    }
    let root = sqrt0(disc);
    let toi = if inside {
        // The exit, the larger root.
        if b > T::zero() {
            -c / (b + root)
        } else {
            (root - b) / a
        }
    } else {
        // The entry, the smaller root: c / (−b + √disc), both terms positive.
        c / (root - b)
    };
    let normal = Unit::try_new(o + d * toi, T::zero());
    hit_or_miss(toi, max_toi, normal, inside)
}

/// The ray `o + t·d` against the box `[-h, h]`: the intersection of the slabs'
/// parameter intervals; the entry (or, from inside, exit) face gives the normal.
#[inline]
pub(crate) fn ray_cuboid<T: Real, const D: usize>(
    h: &SVector<T, D>,
    o: &Point<T, D>,
    d: &SVector<T, D>,
    max_toi: T,
    solid: bool,
) -> Closed<T, D> {
    let mut enter: Option<(T, usize)> = None;
    let mut exit: Option<(T, usize)> = None;
    for i in 0..D {
        if d[i] == T::zero() {
            if o[i].abs() > h[i] {
                return Closed::Miss;
            }
            continue;
        }
        let (t1, t2) = ((-h[i] - o[i]) / d[i], (h[i] - o[i]) / d[i]);
        let (near, far) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
        if enter.is_none_or(|(t, _)| near > t) {
            enter = Some((near, i));
        }
        if exit.is_none_or(|(t, _)| far < t) {
            exit = Some((far, i));
        }
    }
    let (Some((t_in, i_in)), Some((t_out, i_out))) = (enter, exit) else {
        // A zero direction: the ray is its origin, inside (every slab held it).
        return Closed::Hit {
            toi: T::zero(),
            normal: None,
            inside: true,
        };
    };
    if t_in > t_out || t_out < T::zero() {
        return Closed::Miss;
    }
    let axis = |i: usize, s: T| {
        let mut e = SVector::<T, D>::zeros();
        e[i] = s;
        Some(Unit::new_unchecked(e))
    };
    if t_in >= T::zero() {
        // Entry face: its outward normal opposes the ray.
        let s = if d[i_in] > T::zero() {
            -T::one()
        } else {
            T::one()
        };
        return hit_or_miss(t_in, max_toi, axis(i_in, s), false);
    }
    if solid {
        return Closed::Hit {
            toi: T::zero(),
            normal: None,
            inside: true,
        };
    }
    let s = if d[i_out] > T::zero() {
        T::one()
    } else {
        -T::one()
    };
    hit_or_miss(t_out, max_toi, axis(i_out, s), true)
}

/// The ray `o + t·d` against `capsule` (radius `r > 0` around `[p, q]`), for an origin
/// outside it (`None` otherwise: the GJK ray cast takes it). The capsule lies in the
/// infinite cylinder of radius `r` around the line `pq`, and a line leaves a convex set
/// once: the entry into that cylinder (the smaller root of its quadratic) is the hit when
/// its axial coordinate lies on the segment; otherwise the ray, inside the cylinder from
/// there, can first meet only the end ball on that side. An origin already inside the
/// cylinder (beyond an end) likewise meets only the end ball on its side.
#[inline(always)]
pub(crate) fn ray_capsule<T: Real, const D: usize>(
    capsule: &Capsule<T, D>,
    o: &Point<T, D>,
    d: &SVector<T, D>,
    max_toi: T,
) -> Option<Closed<T, D>> {
    let (p, q, r) = (&capsule.segment.a, &capsule.segment.b, capsule.radius);
    let (ba, oa) = (q - p, o - p);
    let (baba, baoa) = (ba.norm_squared(), ba.dot(&oa));
    // The origin's distance to the segment decides inside/outside.
    let y0 = if baba > T::zero() {
        baoa / baba
    } else {
        T::zero()
    };
    let s = y0.max(T::zero()).min(T::one());
    if (oa - ba * s).norm_squared() <= r * r {
        return None;
    }
    let end_ball = |c: &Point<T, D>| Some(ray_ball(r, &Point::from(o - c), d, max_toi, true));
    if !(baba > T::zero()) {
        return end_ball(p);
    }
    // |x⊥|² = r² for x = oa + t d, x⊥ = x − (x·ba/baba) ba: a t² + 2 b t + c = 0.
    let bad = ba.dot(d);
    let c = oa.norm_squared() - baoa * y0 - r * r;
    if !(c > T::zero()) {
        // Inside the infinite cylinder, beyond an end (rounding may leave it between).
        return if y0 < T::zero() {
            end_ball(p)
        } else if y0 > T::one() {
            end_ball(q)
        } else {
            None
        };
    }
    let (a, b) = (d.norm_squared() - bad * bad / baba, oa.dot(d) - y0 * bad);
    let disc = b * b - a * c;
    if !(b < T::zero()) || disc < T::zero() {
        // Never nearer the axis, or the line misses the cylinder.
        return Some(Closed::Miss);
    }
    let t = c / (sqrt0(disc) - b);
    let y = y0 + t * bad / baba;
    if y < T::zero() {
        return end_ball(p);
    }
    if y > T::one() {
        return end_ball(q);
    }
    let off = oa + d * t - ba * y;
    Some(hit_or_miss(
        t,
        max_toi,
        Unit::try_new(off, T::zero()),
        false,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Vector2, Vector3};

    #[test]
    fn ball_cases() {
        let o = Point2::new(-3.0, 0.0);
        let hit = ray_ball(1.0, &o, &Vector2::new(1.0, 0.0), 10.0, true);
        assert!(matches!(hit, Closed::Hit { toi, .. } if (toi - 2.0f64).abs() < 1e-15));
        // Moving away, grazing outside, too short.
        assert_eq!(
            ray_ball(1.0, &o, &Vector2::new(-1.0, 0.0), 10.0, true),
            Closed::Miss
        );
        assert_eq!(
            ray_ball(
                1.0,
                &Point2::new(-3.0, 1.0 + 1e-9),
                &Vector2::new(1.0, 0.0),
                10.0,
                true
            ),
            Closed::Miss
        );
        assert_eq!(
            ray_ball(1.0, &o, &Vector2::new(1.0, 0.0), 1.5, true),
            Closed::Miss
        );
        // From inside: 0 (solid) or the exit.
        let c = Point2::new(0.5, 0.0);
        assert!(matches!(
            ray_ball(1.0, &c, &Vector2::new(1.0, 0.0), 10.0, true),
            Closed::Hit { toi, normal: None, .. } if toi == 0.0f64
        ));
        assert!(matches!(
            ray_ball(1.0, &c, &Vector2::new(2.0, 0.0), 10.0, false),
            Closed::Hit { toi, .. } if (toi - 0.25f64).abs() < 1e-15
        ));
        assert!(matches!(
            ray_ball(1.0, &c, &Vector2::new(-1.0, 0.0), 10.0, false),
            Closed::Hit { toi, .. } if (toi - 1.5f64).abs() < 1e-15
        ));
    }

    #[test]
    fn cuboid_cases() {
        let h = Vector3::new(1.0, 2.0, 3.0);
        let o = Point::from(Vector3::new(-5.0, 0.5, 0.5));
        let hit = ray_cuboid(&h, &o, &Vector3::new(2.0, 0.0, 0.0), 10.0, true);
        match hit {
            Closed::Hit { toi, normal, .. } => {
                assert_eq!(toi, 2.0f64);
                assert_eq!(normal.unwrap().into_inner(), Vector3::new(-1.0, 0.0, 0.0));
            }
            Closed::Miss => panic!("expected a hit"),
        }
        // Parallel to a slab, outside it.
        let o2 = Point::from(Vector3::new(-5.0, 2.5, 0.0));
        assert_eq!(
            ray_cuboid(&h, &o2, &Vector3::new(1.0, 0.0, 0.0), 10.0, true),
            Closed::Miss
        );
        // From inside, non-solid: the exit through +y.
        let inside = Point::from(Vector3::new(0.0, 0.0, 0.0));
        match ray_cuboid(&h, &inside, &Vector3::new(0.0, 1.0, 0.0), 10.0, false) {
            Closed::Hit {
                toi,
                normal,
                inside,
            } => {
                assert!(inside && toi == 2.0);
                assert_eq!(normal.unwrap().into_inner(), Vector3::new(0.0, 1.0, 0.0));
            }
            Closed::Miss => panic!("expected the exit"),
        }
    }
}
