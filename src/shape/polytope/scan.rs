//! Support by scanning every point: over the points as stored (any `D`), or over a copy
//! laid out four points to a block, coordinate by coordinate ([`Lanes`], `D ≤ 3`), where
//! a block's four dot products are one multiply-add chain per coordinate on contiguous
//! values (packed arithmetic for floats).

use crate::Real;
use alloc::vec::Vec;
use nalgebra::{Point, SVector};

/// Points per block, and lanes of the scans.
const LANES: usize = 4;

/// Four points, `c[k][l]` the coordinate `k` of the block's point `l`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Block<T, const D: usize> {
    c: [[T; LANES]; D],
}

/// A point cloud's first `4⌊n/4⌋` points in blocks of four ([`Block`]); the rest are
/// read from the points themselves. Empty for `D > 3`, whose dot products nalgebra sums
/// in another order: a scan must give the values of `dir.dot(p)` bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Lanes<T, const D: usize> {
    blocks: Vec<Block<T, D>>,
}

impl<T, const D: usize> Default for Lanes<T, D> {
    fn default() -> Self {
        Self { blocks: Vec::new() }
    }
}

impl<T: Real, const D: usize> Lanes<T, D> {
    /// The blocks of `points` (none for `D > 3`).
    pub(super) fn new(points: &[Point<T, D>]) -> Self {
        if D > 3 {
            return Self { blocks: Vec::new() };
        }
        let blocks = points
            .chunks_exact(LANES)
            .map(|q| Block {
                c: core::array::from_fn(|k| core::array::from_fn(|l| q[l][k])),
            })
            .collect();
        Self { blocks }
    }

    /// [`brute_force`] over `points`, the points these lanes were built from: the same
    /// index (values bit for bit as `dir.dot(p)`, which sums `x·d₀ + y·d₁ + z·d₂` from the
    /// left for `D ≤ 3`; the first of equal values).
    #[inline]
    pub(super) fn support(&self, points: &[Point<T, D>], dir: &SVector<T, D>) -> usize {
        let Some((first, rest)) = self.blocks.split_first() else {
            return brute_force(points, dir);
        };
        let dots = |b: &Block<T, D>| -> [T; LANES] {
            core::array::from_fn(|l| {
                let mut s = b.c[0][l] * dir[0];
                for k in 1..D {
                    s += b.c[k][l] * dir[k];
                }
                s
            })
        };
        let mut top = dots(first);
        let mut arg = [0, 1, 2, 3];
        let mut base = LANES;
        for b in rest {
            let d = dots(b);
            for l in 0..LANES {
                let up = d[l] > top[l];
                top[l] = if up { d[l] } else { top[l] };
                arg[l] = if up { base + l } else { arg[l] };
            }
            base += LANES;
        }
        merge(top, arg, &points[base..], base, dir)
    }
}

/// The lanes' best merged (the smaller index on equal values), then the points from
/// `base` on scanned one by one.
#[inline]
fn merge<T: Real, const D: usize>(
    top: [T; LANES],
    arg: [usize; LANES],
    tail: &[Point<T, D>],
    base: usize,
    dir: &SVector<T, D>,
) -> usize {
    let (mut best, mut at) = (top[0], arg[0]);
    for l in 1..LANES {
        let up = top[l] > best || (top[l] == best && arg[l] < at);
        (best, at) = if up { (top[l], arg[l]) } else { (best, at) };
    }
    for (k, p) in tail.iter().enumerate() {
        let d = dir.dot(&p.coords);
        if d > best {
            (best, at) = (d, base + k);
        }
    }
    at
}

/// Brute force: the index of the point with the largest `dir·p`, the first of equal ones.
///
/// One pass over four lanes, each keeping its largest value and that value's index as
/// selects (`max` and a conditional move: no branch per point), then the lanes merged (the
/// smaller index on equal values). A scan that branches on `d > best` at every point was
/// mispredicted about one time in eleven on the corpus's 3D hulls (docs/PERFORMANCE.md
/// §2.12 as of `e989df6`); the earlier second pass, which looked for the first point
/// attaining the largest value, read half the points again (docs/PERFORMANCE.md §2.8 as of
/// `e989df6`). Within a lane the strict `>` keeps the first of equal values, so the answer
/// is the one-pass scan's.
#[inline]
pub(super) fn brute_force<T: Real, const D: usize>(
    points: &[Point<T, D>],
    dir: &SVector<T, D>,
) -> usize {
    let dot = |p: &Point<T, D>| dir.dot(&p.coords);
    let mut chunks = points.chunks_exact(LANES);
    let Some(first) = chunks.next() else {
        return first_largest(points, dir);
    };
    let mut top = [
        dot(&first[0]),
        dot(&first[1]),
        dot(&first[2]),
        dot(&first[3]),
    ];
    let mut arg = [0, 1, 2, 3];
    let mut base = LANES;
    for chunk in &mut chunks {
        for l in 0..LANES {
            let d = dot(&chunk[l]);
            // Selects: a NaN direction makes every value NaN, no `>` holds and the answer
            // is 0, as the one-pass scan's.
            let up = d > top[l];
            top[l] = if up { d } else { top[l] };
            arg[l] = if up { base + l } else { arg[l] };
        }
        base += LANES;
    }
    merge(top, arg, chunks.remainder(), base, dir)
}

/// The index of the first point of `points` with the largest `dir·p`, in one pass.
#[inline]
fn first_largest<T: Real, const D: usize>(points: &[Point<T, D>], dir: &SVector<T, D>) -> usize {
    let mut best = 0;
    let mut best_dot = dir.dot(&points[0].coords);
    for (i, p) in points.iter().enumerate().skip(1) {
        let d = dir.dot(&p.coords);
        if d > best_dot {
            best_dot = d;
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::lit;
    use nalgebra::{Point2, Point3, Point4, Vector2, Vector3, Vector4};

    /// Every scan keeps the one-pass answer: the largest value, the first of equal ones,
    /// for every length around the lane count and its multiples, in every scalar; small
    /// integer coordinates make many ties, random ones check that the blocks' values are
    /// `dir.dot(p)`'s bit for bit (`D` = 2, 3; `D` = 4 has no blocks).
    fn check<T: Real, const D: usize>(pts: &[Point<f64, D>], dir: &SVector<f64, D>) {
        let p: Vec<Point<T, D>> = pts.iter().map(|p| p.map(lit)).collect();
        let d = dir.map(lit::<T>);
        let want = first_largest(&p, &d);
        assert_eq!(brute_force(&p, &d), want, "{pts:?} along {dir:?}");
        let lanes = Lanes::new(&p);
        assert_eq!(lanes.blocks.len(), if D > 3 { 0 } else { p.len() / LANES });
        assert_eq!(lanes.support(&p, &d), want, "{pts:?} along {dir:?} (lanes)");
    }

    fn every_scalar<const D: usize>(pts: &[Point<f64, D>], dir: &SVector<f64, D>) {
        check::<f64, D>(pts, dir);
        check::<f32, D>(pts, dir);
        #[cfg(feature = "fixed")]
        check::<simba::scalar::FixedI40F24, D>(pts, dir);
    }

    #[test]
    fn scans_keep_the_first_largest() {
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move |ties: bool| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            if ties {
                f64::from(seed % 5) - 2.0
            } else {
                f64::from(seed) / f64::from(u32::MAX) * 4.0 - 2.0
            }
        };
        for n in 1..40 {
            for k in 0..100 {
                let t = k % 2 == 0;
                let p3: Vec<Point3<f64>> = (0..n)
                    .map(|_| Point3::new(next(t), next(t), next(t)))
                    .collect();
                every_scalar(&p3, &Vector3::new(next(t), next(t), next(t)));
                let p2: Vec<Point2<f64>> = (0..n).map(|_| Point2::new(next(t), next(t))).collect();
                every_scalar(&p2, &Vector2::new(next(t), next(t)));
                let p4: Vec<Point4<f64>> = (0..n)
                    .map(|_| Point4::new(next(t), next(t), next(t), next(t)))
                    .collect();
                every_scalar(&p4, &Vector4::new(next(t), next(t), next(t), next(t)));
            }
        }
    }

    /// A NaN direction makes every value NaN: no `>` holds and every scan answers 0, as
    /// the one-pass scan does.
    #[test]
    fn nan_direction_answers_the_first_point() {
        let p: Vec<Point3<f64>> = (0..11)
            .map(|i| Point3::new(f64::from(i), 1.0, -1.0))
            .collect();
        let d = Vector3::new(f64::NAN, 1.0, 0.0);
        assert_eq!(first_largest(&p, &d), 0);
        assert_eq!(brute_force(&p, &d), 0);
        assert_eq!(Lanes::new(&p).support(&p, &d), 0);
    }
}
