//! Point reduction: at most 2 (2D) or 4 (3D) of the clipped points, the deepest first,
//! then the ones spanning the largest area (docs/clipping.md §3).

use super::PackedFeatureId;
use crate::Real;
use alloc::vec::Vec;
use nalgebra::{Point, Point3, Vector2, Vector3};

/// A clipped point kept for the manifold: its separation along the normal, the point on
/// the incident surface and the id of what made it.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<T: Real, const D: usize> {
    pub separation: T,
    pub point: Point<T, D>,
    pub id: PackedFeatureId,
}

/// The index of the point with the highest `score`, ties within `slack` going to the
/// smallest id, so the choice does not follow rounding noise between frames; `None` if no
/// score exceeds `floor`. One pass: a later point within `slack` of the best so far wins
/// only with a smaller id.
fn pick<T: Real, const D: usize>(
    points: &[Candidate<T, D>],
    score: impl Fn(&Candidate<T, D>) -> T,
    slack: T,
    floor: Option<T>,
) -> Option<usize> {
    let mut best: Option<(T, usize)> = None;
    for (i, p) in points.iter().enumerate() {
        let s = score(p);
        best = match best {
            None => Some((s, i)),
            Some((b, _)) if s > b + slack => Some((s, i)),
            Some((b, j)) if s >= b - slack && p.id < points[j].id => Some((s.max(b), i)),
            Some((b, j)) => Some((b.max(s), j)),
        };
    }
    let (b, i) = best?;
    if floor.is_some_and(|f| b <= f) {
        return None;
    }
    Some(i)
}

/// The first two points a reduction keeps ([`deepest_and_farthest`]), as indices.
#[derive(Clone, Copy, Debug)]
struct FirstTwo {
    /// The deepest point (smallest separation).
    deepest: usize,
    /// The point farthest from it beyond the slack, if any.
    farthest: Option<usize>,
}

/// The deepest point (smallest separation), then the one farthest from it (ties by id).
fn deepest_and_farthest<T: Real, const D: usize>(points: &[Candidate<T, D>], slack: T) -> FirstTwo {
    let i1 = pick(points, |p| -p.separation, slack, None).unwrap_or(0);
    let p1 = points[i1].point;
    let i2 = pick(
        points,
        |p| crate::real::norm(&(p.point - p1)),
        slack,
        Some(slack),
    );
    FirstTwo {
        deepest: i1,
        farthest: i2,
    }
}

/// 2D: the deepest point and the one farthest from it.
pub(crate) fn two<T: Real>(points: &mut Vec<Candidate<T, 2>>, _normal: &Vector2<T>, slack: T) {
    if points.len() <= 2 {
        return;
    }
    let FirstTwo {
        deepest: i,
        farthest: j,
    } = deepest_and_farthest(points, slack);
    let (p, q) = (points[i], j.map(|j| points[j]));
    points.clear();
    points.push(p);
    points.extend(q);
}

/// 3D: deepest first, then the farthest from it, then the largest triangle, then the
/// point adding the most area outside that triangle; scores within `slack` (a length)
/// count as ties, won by the smallest id.
pub(crate) fn four<T: Real>(points: &mut Vec<Candidate<T, 3>>, normal: &Vector3<T>, slack: T) {
    if points.len() <= 4 {
        return;
    }
    let FirstTwo {
        deepest: i1,
        farthest: i2,
    } = deepest_and_farthest(points, slack);
    let p1 = points[i1].point;
    let mut keep: [Option<Candidate<T, 3>>; 4] = [Some(points[i1]), None, None, None];
    if let Some(i2) = i2 {
        let p2 = points[i2].point;
        keep[1] = Some(points[i2]);
        // The signed area of `(a, b, x)` along the normal, `n·((b − a) × (x − a))`, is
        // `(x − a)·(n × (b − a))`: one product per point with the edge's `n × (b − a)`
        // taken once.
        let edge = |a: &Point3<T>, b: &Point3<T>| (a.coords, normal.cross(&(b - a)));
        let area = |(a, c): &(Vector3<T>, Vector3<T>), x: &Point3<T>| (x.coords - a).dot(c);
        let e12 = edge(&p1, &p2);
        // Areas count as ties within slack times the longest edge.
        let area_slack = slack * crate::real::norm(&(p2 - p1));
        if let Some(i3) = pick(
            points,
            |p| area(&e12, &p.point).abs(),
            area_slack,
            Some(area_slack),
        ) {
            let p3 = points[i3].point;
            keep[2] = Some(points[i3]);
            let s = if area(&e12, &p3) > T::zero() {
                T::one()
            } else {
                -T::one()
            };
            let (e23, e31) = (edge(&p2, &p3), edge(&p3, &p1));
            // The area x adds outside the triangle's edges.
            let added = |p: &Candidate<T, 3>| {
                let x = &p.point;
                (-s * area(&e12, x))
                    .max(-s * area(&e23, x))
                    .max(-s * area(&e31, x))
            };
            keep[3] = pick(points, added, area_slack, Some(area_slack)).map(|i| points[i]);
        }
    }
    points.clear();
    points.extend(keep.into_iter().flatten());
}

/// Removes the shallowest point (largest separation).
pub(crate) fn drop_shallowest<T: Real, const D: usize>(kept: &mut Vec<Candidate<T, D>>) {
    let i = (0..kept.len())
        .max_by(|&i, &j| {
            kept[i]
                .separation
                .partial_cmp(&kept[j].separation)
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    kept.remove(i);
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point2;

    fn at(separation: f64, x: f64, y: f64, id: u32) -> Candidate<f64, 2> {
        Candidate {
            separation,
            point: Point2::new(x, y),
            id: PackedFeatureId::feature(id),
        }
    }

    #[test]
    fn two_keeps_the_deepest_and_the_farthest_ties_by_id() {
        // Equal depths within the slack: the smallest id is the deepest; the farthest
        // from it is the other end.
        let mut pts = vec![
            at(-0.1, 0.0, 0.0, 5),
            at(-0.1 + 1e-12, 1.0, 0.0, 2),
            at(-0.05, 2.0, 0.0, 9),
        ];
        two(&mut pts, &Vector2::y(), 1e-9);
        let ids: Vec<u32> = pts.iter().map(|p| p.id.get()).collect();
        assert_eq!(ids, [2, 5]);
        let mut pts = vec![
            at(0.0, 0.0, 0.0, 1),
            at(0.1, 1.0, 0.0, 0),
            at(0.2, 1.0, 0.0, 3),
        ];
        drop_shallowest(&mut pts);
        assert_eq!(pts.iter().map(|p| p.id.get()).collect::<Vec<_>>(), [1, 0]);
    }
}
