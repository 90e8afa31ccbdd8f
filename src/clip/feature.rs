//! Feature maps: the face (3D) or edge (2D) of a shape most aligned with a direction, with
//! stable ids (docs/clipping.md §1).

use crate::{
    Real,
    real::normalize,
    shape::{Ball, Capsule, Cuboid, PointShape, Polytope, Segment, SupportMap},
};
use nalgebra::{Point, SVector, Unit};

/// A feature of a shape in its local frame: a convex polygon (3D, counter-clockwise seen
/// from outside), a segment (an edge), or a single point (a vertex or a round part),
/// with its outward normal and ids.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature<T: Real, const D: usize> {
    /// The outward unit normal of the face (for a vertex or a round part: the query
    /// direction, normalised).
    pub normal: Unit<SVector<T, D>>,
    /// The feature's id, stable while the same feature is chosen.
    pub id: u32,
    /// The vertices (on the core, for rounded shapes), counter-clockwise seen from outside
    /// in 3D, with their ids.
    pub vertices: Vec<(Point<T, D>, u32)>,
}

impl<T: Real, const D: usize> Default for Feature<T, D> {
    fn default() -> Self {
        Self {
            normal: crate::epa::any_axis(),
            id: 0,
            vertices: Vec::new(),
        }
    }
}

/// A shape that can name its faces: the feature most aligned with a direction.
///
/// Implemented for [`Cuboid`] (2D, 3D: faces in closed form), [`Polytope`] (its hull's
/// faces, computed at construction), [`Ball`] (its centre), [`Capsule`] and [`Segment`]
/// (the segment when it is nearly perpendicular to the direction, else an end),
/// [`PointShape`].
pub trait FeatureMap<T: Real, const D: usize>: SupportMap<T, D> {
    /// Writes into `out` the feature whose outward normal is most aligned with `dir`
    /// (local frame). Reuses `out.vertices`' memory.
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>);
}

impl<T: Real, const D: usize, S: FeatureMap<T, D> + ?Sized> FeatureMap<T, D> for &S {
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        (**self).feature(dir, out);
    }
}

/// A single-point feature at `p` with normal `dir`.
fn point<T: Real, const D: usize>(
    p: Point<T, D>,
    id: u32,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    out.normal = normalize(dir).unwrap_or_else(crate::epa::any_axis);
    out.id = id;
    out.vertices.clear();
    out.vertices.push((p, id));
}

impl<T: Real, const D: usize> FeatureMap<T, D> for Ball<T> {
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        point(Point::origin(), 0, dir, out);
    }
}

impl<T: Real, const D: usize> FeatureMap<T, D> for PointShape<T, D> {
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        point(self.point, 0, dir, out);
    }
}

/// The segment `[a, b]` as a feature along `dir`: the whole segment when it is
/// perpendicular to `dir` within `sin θ ≤ 1/64` (a side of a capsule resting flat), else
/// the end farther along `dir`. Ids: 0 = a, 1 = b, 2 = the segment.
fn segment<T: Real, const D: usize>(
    a: Point<T, D>,
    b: Point<T, D>,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    let Some(n) = normalize(dir) else {
        return point(a, 0, dir, out);
    };
    let e = b - a;
    let along = n.dot(&e);
    // |n·e| ≤ |e|/64: nearly perpendicular, both ends touch together.
    if along.abs() * crate::real::lit::<T>(64.0) <= crate::real::norm(&e) {
        out.normal = n;
        out.id = 2;
        out.vertices.clear();
        out.vertices.push((a, 0));
        out.vertices.push((b, 1));
    } else if along > T::zero() {
        point(b, 1, dir, out);
    } else {
        point(a, 0, dir, out);
    }
}

impl<T: Real, const D: usize> FeatureMap<T, D> for Segment<T, D> {
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        segment(self.a, self.b, dir, out);
    }
}

impl<T: Real, const D: usize> FeatureMap<T, D> for Capsule<T, D> {
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        segment(self.segment.a, self.segment.b, dir, out);
    }
}

/// The cuboid corner with sign bits `bits` (bit k set: +h along axis k); its id is `bits`.
fn corner<T: Real, const D: usize>(h: &SVector<T, D>, bits: u32) -> (Point<T, D>, u32) {
    let p = SVector::<T, D>::from_fn(|k, _| if bits & (1 << k) != 0 { h[k] } else { -h[k] });
    (Point::from(p), bits)
}

impl<T: Real> FeatureMap<T, 2> for Cuboid<T, 2> {
    /// The edge whose normal (±x, ±y) is most aligned with `dir`; id `2·axis + (sign > 0)`;
    /// vertices counter-clockwise (the edge's direction keeps the box on its left).
    fn feature(&self, dir: &SVector<T, 2>, out: &mut Feature<T, 2>) {
        let axis = if dir.x.abs() >= dir.y.abs() { 0 } else { 1 };
        let pos = dir[axis] >= T::zero();
        let mut n = SVector::<T, 2>::zeros();
        n[axis] = if pos { T::one() } else { -T::one() };
        out.normal = Unit::new_unchecked(n);
        out.id = 2 * axis as u32 + u32::from(pos);
        // Corners by bits (x = bit 0, y = bit 1), ordered so the outward normal is on the right.
        let (p, q) = match (axis, pos) {
            (0, true) => (0b01, 0b11),
            (0, false) => (0b10, 0b00),
            (_, true) => (0b11, 0b10),
            (_, false) => (0b00, 0b01),
        };
        out.vertices.clear();
        out.vertices.push(corner(&self.half_extents, p));
        out.vertices.push(corner(&self.half_extents, q));
    }
}

impl<T: Real> FeatureMap<T, 3> for Cuboid<T, 3> {
    /// The face whose normal (±x, ±y, ±z) is most aligned with `dir`; id
    /// `2·axis + (sign > 0)`; its 4 corners counter-clockwise seen from outside.
    fn feature(&self, dir: &SVector<T, 3>, out: &mut Feature<T, 3>) {
        let axis = dir.iamax();
        let pos = dir[axis] >= T::zero();
        let mut n = SVector::<T, 3>::zeros();
        n[axis] = if pos { T::one() } else { -T::one() };
        out.normal = Unit::new_unchecked(n);
        out.id = 2 * axis as u32 + u32::from(pos);
        // The two other axes (u, v) with u × v = +axis; walk (−,−) (+,−) (+,+) (−,+) in
        // (u, v), reversed for the negative face.
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        let side = if pos { 1u32 << axis } else { 0 };
        let mut quad = [(false, false), (true, false), (true, true), (false, true)];
        if !pos {
            quad.reverse();
        }
        out.vertices.clear();
        for (su, sv) in quad {
            let bits = side | (u32::from(su) << u) | (u32::from(sv) << v);
            out.vertices.push(corner(&self.half_extents, bits));
        }
    }
}

/// A polytope's hull face (3D polygon, 2D edge) most aligned with `dir`: face id = its index,
/// vertex ids = point indices. A polytope without a hull (flat or degenerate cloud) gives
/// its support vertex.
fn polytope_feature<T: Real, const D: usize>(
    p: &Polytope<T, D>,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    match p.face_towards(dir) {
        Some(i) => {
            let face = &p.faces()[i];
            out.normal = face.normal();
            out.id = face.id() as u32;
            out.vertices.clear();
            out.vertices.extend(
                face.vertex_indices()
                    .iter()
                    .map(|&k| (p.points()[k], k as u32)),
            );
        }
        None => {
            let s = p.support(dir);
            let k = p.points().iter().position(|q| *q == s).unwrap_or(0);
            point(s, k as u32, dir, out);
        }
    }
}

impl<T: Real> FeatureMap<T, 2> for Polytope<T, 2> {
    fn feature(&self, dir: &SVector<T, 2>, out: &mut Feature<T, 2>) {
        polytope_feature(self, dir, out);
    }
}

impl<T: Real> FeatureMap<T, 3> for Polytope<T, 3> {
    fn feature(&self, dir: &SVector<T, 3>, out: &mut Feature<T, 3>) {
        polytope_feature(self, dir, out);
    }
}
