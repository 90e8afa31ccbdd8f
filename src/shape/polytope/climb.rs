//! Hill climbing over the vertex graph of a hull (CSR, built by `hull/mod.rs`): the
//! [`Polytope`](super::Polytope)'s support map over its points, and its `face_towards`
//! over the hull of its face normals (a point set on the unit sphere, where the face with
//! the largest `n·d` is the support point along `d`).

use super::scan::brute_force;
use crate::Real;
use crate::real::{is_fixed, lit};
use crate::shape::hull::Tol;
use crate::tolerance::hull::{FIXED_MIN_DIR, SEED_COS};
use alloc::vec::Vec;
use core::sync::atomic::{AtomicU32, Ordering};
use nalgebra::{Point, SVector};

/// How many plateau nodes the final exploration holds on the stack before it hands the
/// query to brute force (a face with many tied points, `d = 0`).
const PLATEAU: usize = 96;

/// The last answer (a graph node), shared by all threads: a hint only, so `Relaxed`
/// suffices and a race costs at most a longer climb.
#[derive(Debug, Default)]
struct WarmStart(AtomicU32);

impl Clone for WarmStart {
    fn clone(&self) -> Self {
        Self(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

impl PartialEq for WarmStart {
    fn eq(&self, _: &Self) -> bool {
        true // a cache, not part of the shape
    }
}

/// The graph of every point that may win a support query (docs in `hull/mod.rs`), in CSR
/// form, with the rounding band of its plateau search.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Climb<T: Real, const D: usize> {
    /// Node positions (copies of the points, contiguous for the climb).
    nodes: Vec<Point<T, D>>,
    /// Node → index in the points (ascending: ties go to the lowest, as in brute force).
    index: Vec<u32>,
    /// Per node: a vertex of the hull's triangulation (the ascent's graph); the other
    /// nodes lie near the surface, linked to their triangle, and are met on plateaus.
    corner: Vec<bool>,
    /// Per node: the end of its corner neighbours, which come first in its list
    /// (`offsets[i]..corners_end[i]`), so that the ascent tests no flag.
    corners_end: Vec<u32>,
    offsets: Vec<u32>,
    nbrs: Vec<u32>,
    /// Plateau band `|d|∞ · band + band_abs`: values within it of the best are explored.
    band: T,
    band_abs: T,
    /// Below this `|d|∞` the climb is not trusted (fixed-point rounding): brute force.
    min_dir: T,
    /// Nodes tried besides the warm start, the best one starting the ascent (empty: the
    /// warm start only).
    seeds: Vec<u32>,
    last: WarmStart,
}

impl<T: Real, const D: usize> Climb<T, D> {
    /// The climb over `points` through the hull graph (`nodes` ascending point indices,
    /// `corner` which are vertices of the hull's triangulation, neighbours of node `i` at
    /// `nbrs[offsets[i]..offsets[i + 1]]`).
    pub(super) fn new(
        points: &[Point<T, D>],
        nodes: Vec<u32>,
        corner: Vec<bool>,
        offsets: Vec<u32>,
        mut nbrs: Vec<u32>,
        tol: &Tol,
    ) -> Self {
        // Corner neighbours first, each part in its order.
        let mut corners_end = Vec::with_capacity(nodes.len());
        for i in 0..nodes.len() {
            let list = &mut nbrs[offsets[i] as usize..offsets[i + 1] as usize];
            list.sort_by_key(|&w| !corner[w as usize]);
            let k = list.iter().take_while(|&&w| corner[w as usize]).count();
            corners_end.push(offsets[i] + k as u32);
        }
        let eps: f64 = nalgebra::try_convert(T::default_epsilon()).unwrap_or(0.0);
        let (band, band_abs, min_dir) = if is_fixed::<T>() {
            // Each product rounds by one ulp: D ulps per dot product, twice for a gap.
            (tol.band, 2.0 * D as f64 * eps, FIXED_MIN_DIR)
        } else {
            (tol.band, 0.0, 0.0)
        };
        Self {
            nodes: nodes.iter().map(|&i| points[i as usize]).collect(),
            index: nodes,
            corner,
            corners_end,
            offsets,
            nbrs,
            band: lit(band),
            band_abs: lit(band_abs),
            min_dir: lit(min_dir),
            seeds: Vec::new(),
            last: WarmStart::default(),
        }
    }

    /// Adds as seeds the nodes farthest along the axes and the diagonals `{±1}^D` (3D:
    /// 14 directions), for points on the unit sphere: a direction more than 26° from the
    /// last answer (`SEED_COS`) starts from the best seed instead of walking across the
    /// graph.
    pub(super) fn with_seeds(mut self) -> Self {
        let mut dirs: Vec<SVector<T, D>> = Vec::new();
        for k in 0..D {
            for s in [T::one(), -T::one()] {
                let mut e = SVector::<T, D>::zeros();
                e[k] = s;
                dirs.push(e);
            }
        }
        if D <= 4 {
            for m in 0..1usize << D {
                dirs.push(SVector::from_fn(|k, _| {
                    if m >> k & 1 == 1 { T::one() } else { -T::one() }
                }));
            }
        }
        self.seeds = dirs
            .iter()
            .map(|d| self.corner_of(brute_force(&self.nodes, d)) as u32)
            .collect();
        self.seeds.sort_unstable();
        self.seeds.dedup();
        self
    }

    /// The node `u` if it is a corner, else its first corner neighbour (a near point is
    /// linked to the three corners of its triangle).
    fn corner_of(&self, u: usize) -> usize {
        if self.corner[u] {
            return u;
        }
        let nb = &self.nbrs[self.offsets[u] as usize..self.offsets[u + 1] as usize];
        nb.iter()
            .map(|&w| w as usize)
            .find(|&w| self.corner[w])
            .unwrap_or(u)
    }

    /// Whether a warm start of value `val` along `dir` (`|dir|∞ = dmax > 0`) lies within
    /// `SEED_COS` of `dir`'s angle, for points on the unit sphere: `(val/dmax)² ≥ cos² ·
    /// |dir/dmax|²`, scaled by `dmax` so that fixed-point squares cannot overflow.
    fn close(&self, val: T, dir: &SVector<T, D>, dmax: T) -> bool {
        let (v, e) = (val / dmax, dir / dmax);
        let cos: T = lit(SEED_COS);
        val > T::zero() && v * v >= cos * cos * e.norm_squared()
    }

    /// The index in `points` (the points the graph was built from) of the point with the
    /// largest `dir·p`, the lowest of equal ones.
    ///
    /// Steepest ascent over the corners from the last answer, then an exploration of
    /// every node within the rounding band of the best value: on a convex polytope the
    /// vertices above any level form a connected subgraph, so a false local maximum made
    /// by rounding (or by the hull's tolerance) is left through nodes inside the band. A
    /// better node restarts the ascent; ties go to the lowest point index, as in brute
    /// force. A plateau larger than `PLATEAU` nodes (a big face with many tied points,
    /// `d = 0`) and, in fixed-point, a direction shorter than `FIXED_MIN_DIR` go to
    /// brute force.
    ///
    /// The ascent never steps onto a near point: one inside the hull (by up to the
    /// graph's margin) is linked only to its triangle's corners, and for a direction into
    /// the hull they all lie below it, a dead end (an f32 plate 20 thick: from its bottom,
    /// the climb along +z stopped 2 above the bottom, 18 below the top).
    pub(super) fn support(&self, points: &[Point<T, D>], dir: &SVector<T, D>) -> usize {
        let dmax = dir.amax();
        if !(dmax >= self.min_dir) {
            return brute_force(points, dir);
        }
        let nb = |u: usize| &self.nbrs[self.offsets[u] as usize..self.offsets[u + 1] as usize];
        let mut u = self.last.0.load(Ordering::Relaxed) as usize;
        if u >= self.nodes.len() {
            u = 0;
        }
        u = self.corner_of(u);
        let mut best = dir.dot(&self.nodes[u].coords);
        if !self.seeds.is_empty() && !self.close(best, dir, dmax) {
            for &w in &self.seeds {
                let val = dir.dot(&self.nodes[w as usize].coords);
                if val > best {
                    (best, u) = (val, w as usize);
                }
            }
        }
        let band = dmax * self.band + self.band_abs;
        let mut seen = Seen::new();
        'climb: loop {
            // Steepest ascent over the corners to a local maximum `u`.
            loop {
                let mut next = u;
                let corners = &self.nbrs[self.offsets[u] as usize..self.corners_end[u] as usize];
                for &w in corners {
                    let val = dir.dot(&self.nodes[w as usize].coords);
                    if val > best {
                        (best, next) = (val, w as usize);
                    }
                }
                if next == u {
                    break;
                }
                u = next;
            }
            // Plateau: every node reachable through nodes within `band` of `best`. A
            // better node restarts the ascent; equal ones go to the lowest index.
            let floor = best - band;
            seen.restart(u as u32);
            let mut head = 0;
            let mut arg = u;
            while head < seen.len {
                let x = seen.get(head) as usize;
                head += 1;
                for &w in nb(x) {
                    let val = dir.dot(&self.nodes[w as usize].coords);
                    if val > best {
                        (best, u) = (val, w as usize);
                        continue 'climb;
                    }
                    if val < floor || seen.contains(w) {
                        continue;
                    }
                    if seen.len == PLATEAU {
                        return brute_force(points, dir);
                    }
                    seen.push(w);
                    if val == best && (w as usize) < arg {
                        arg = w as usize;
                    }
                }
            }
            u = arg;
            break;
        }
        self.last.0.store(u as u32, Ordering::Relaxed);
        self.index[u] as usize
    }
}

/// Plateau nodes held before the exploration needs the whole [`PLATEAU`] buffer: most
/// plateaus hold a few nodes, and zeroing the whole buffer on every support query (a
/// 384-byte `memset` call) cost more than their exploration.
const PLATEAU_SMALL: usize = 16;

/// The plateau exploration's queue of nodes seen (at most [`PLATEAU`]): the first
/// [`PLATEAU_SMALL`] in a small buffer, the whole buffer made (and the small one copied
/// into it) only when a plateau outgrows it.
struct Seen {
    small: [u32; PLATEAU_SMALL],
    big: Option<[u32; PLATEAU]>,
    len: usize,
}

impl Seen {
    fn new() -> Self {
        Self {
            small: [0; PLATEAU_SMALL],
            big: None,
            len: 0,
        }
    }

    /// Empties the queue and holds `u` alone.
    fn restart(&mut self, u: u32) {
        self.len = 0;
        self.push(u);
    }

    /// Appends `w` (the caller keeps `len < PLATEAU`).
    fn push(&mut self, w: u32) {
        if let Some(big) = &mut self.big {
            big[self.len] = w;
        } else if self.len < PLATEAU_SMALL {
            self.small[self.len] = w;
        } else {
            let mut big = [0; PLATEAU];
            big[..PLATEAU_SMALL].copy_from_slice(&self.small);
            big[self.len] = w;
            self.big = Some(big);
        }
        self.len += 1;
    }

    /// The nodes held, in the order they were pushed.
    fn held(&self) -> &[u32] {
        match &self.big {
            Some(big) => &big[..self.len],
            None => &self.small[..self.len],
        }
    }

    fn get(&self, i: usize) -> u32 {
        self.held()[i]
    }

    fn contains(&self, w: u32) -> bool {
        self.held().contains(&w)
    }
}
