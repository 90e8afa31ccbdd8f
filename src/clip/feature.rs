//! Feature maps: the face (3D) or edge (2D) of a shape most aligned with a direction, with
//! stable ids (docs/clipping.md §1).

use crate::{
    Real,
    real::normalize,
    shape::{
        Ball, Capsule, Cone, Cuboid, Cylinder, PointShape, Polytope, Rounded, Segment, SupportMap,
        Transformed,
    },
    tolerance::{allowance, ulps, within_tilt},
};
use alloc::vec::Vec;
use nalgebra::{Point, SVector, Unit};
use nalgebra::{Point3, Vector2, Vector3};
// f64 math without `std`: libm, through num-traits.
#[cfg(not(any(feature = "std", test)))]
use num_traits::Float as _;

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
    pub vertices: Vec<Vertex<T, D>>,
    /// Whether the polygon is inscribed in a curved face (a cylinder's or cone's cap): the
    /// face's deepest point can lie between the vertices. The manifold sets it to `false`
    /// before asking for a feature; a feature map sets it when it approximates.
    pub inscribed: bool,
}

/// A vertex of a [`Feature`] with the id its shape gives it (stable while the same vertex
/// is chosen; clipped points keep its low 16 bits).
///
/// ```
/// use convex_proximity::{clip::{Feature, FeatureMap}, shape::Cuboid};
/// use nalgebra::{Point2, Vector2};
/// let mut f = Feature::default();
/// Cuboid::new(Vector2::new(1.0, 0.5)).feature(&Vector2::y(), &mut f);
/// // The top edge (+y: id 2·1 + 1), counter-clockwise; corner ids are sign bits.
/// assert_eq!(f.id, 3);
/// assert_eq!(f.vertices.iter().map(|v| v.id).collect::<Vec<_>>(), [0b11, 0b10]);
/// assert_eq!(f.vertices[0].point, Point2::new(1.0, 0.5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex<T: Real, const D: usize> {
    /// The vertex, in the shape's frame.
    pub point: Point<T, D>,
    /// Its id.
    pub id: u32,
}

impl<T: Real, const D: usize> Vertex<T, D> {
    /// The vertex `point` with id `id`.
    #[must_use]
    pub fn new(point: Point<T, D>, id: u32) -> Self {
        Self { point, id }
    }
}

impl<T: Real, const D: usize> Default for Feature<T, D> {
    fn default() -> Self {
        Self {
            normal: crate::linalg::any_axis(),
            id: 0,
            vertices: Vec::new(),
            inscribed: false,
        }
    }
}

/// A shape that can name its faces: the feature most aligned with a direction.
///
/// Implemented for [`Cuboid`] (2D, 3D: faces in closed form), [`Polytope`] (its hull's
/// faces, computed at construction), [`Cylinder`] and [`Cone`] (a cap disc as
/// [`CAP_POINTS`] points, or a side segment), [`Ball`] (its centre), [`Capsule`] and
/// [`Segment`] (the segment when it is nearly perpendicular to the direction, else an end),
/// [`PointShape`], [`Rounded`] (its inner shape's features: the core), and [`Transformed`]
/// (the inner shape's features mapped; the support point when the map is not a similarity
/// of a rounded shape, whose core does not map onto the image's).
pub trait FeatureMap<T: Real, const D: usize>: SupportMap<T, D> {
    /// Writes into `out` the feature whose outward normal is most aligned with `dir`
    /// (local frame). Reuses `out.vertices`' memory.
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>);

    /// The half-extents if the shape is a [`Cuboid`] (centred, axis-aligned in its frame):
    /// two cuboids take the separating-axis fast path of [`crate::query::manifold`].
    #[doc(hidden)]
    fn half_extents(&self) -> Option<SVector<T, D>> {
        None
    }
}

/// A single-point feature at `p` with normal `dir`.
fn point<T: Real, const D: usize>(
    p: Point<T, D>,
    id: u32,
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    out.normal = normalize(dir).unwrap_or_else(crate::linalg::any_axis);
    out.id = id;
    out.vertices.clear();
    out.vertices.push(Vertex::new(p, id));
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
    // |n·e| ≤ |e| / FEATURE_TILT: nearly perpendicular, both ends touch together.
    if within_tilt(along, crate::real::norm(&e)) {
        out.normal = n;
        out.id = 2;
        out.vertices.clear();
        out.vertices.push(Vertex::new(a, 0));
        out.vertices.push(Vertex::new(b, 1));
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
fn corner<T: Real, const D: usize>(h: &SVector<T, D>, bits: u32) -> Vertex<T, D> {
    let p = SVector::<T, D>::from_fn(|k, _| if bits & (1 << k) != 0 { h[k] } else { -h[k] });
    Vertex::new(Point::from(p), bits)
}

impl<T: Real> FeatureMap<T, 2> for Cuboid<T, 2> {
    fn half_extents(&self) -> Option<SVector<T, 2>> {
        Some(self.half_extents)
    }

    /// The edge whose normal (±x, ±y) is most aligned with `dir`; id `2·axis + (sign > 0)`;
    /// vertices counter-clockwise (the edge's direction keeps the box on its left).
    fn feature(&self, dir: &SVector<T, 2>, out: &mut Feature<T, 2>) {
        let e = box_edge(&self.half_extents, dir);
        out.normal = e.normal;
        out.id = e.id;
        out.vertices.clear();
        out.vertices.extend(e.ends);
    }
}

/// A 2D box's edge ([`box_edge`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxEdge<T: Real, const D: usize> {
    /// Its outward normal, ±x or ±y.
    pub normal: Unit<SVector<T, D>>,
    /// `2·axis + (sign > 0)`.
    pub id: u32,
    /// Its ends, counter-clockwise (the edge's direction keeps the box on its left), with
    /// their corner bits as ids.
    pub ends: [Vertex<T, D>; 2],
}

/// The edge of the 2D box `[−h, h]` whose normal (±x, ±y) is most aligned with `dir`
/// (written for any `D`, read only for `D = 2`).
#[inline]
pub(crate) fn box_edge<T: Real, const D: usize>(
    h: &SVector<T, D>,
    dir: &SVector<T, D>,
) -> BoxEdge<T, D> {
    debug_assert!(D == 2);
    let axis = if dir[0].abs() >= dir[1].abs() { 0 } else { 1 };
    let pos = dir[axis] >= T::zero();
    let mut n = SVector::<T, D>::zeros();
    n[axis] = if pos { T::one() } else { -T::one() };
    // Corners by bits (x = bit 0, y = bit 1), ordered so the outward normal is on the right.
    let (p, q) = match (axis, pos) {
        (0, true) => (0b01, 0b11),
        (0, false) => (0b10, 0b00),
        (_, true) => (0b11, 0b10),
        (_, false) => (0b00, 0b01),
    };
    BoxEdge {
        normal: Unit::new_unchecked(n),
        id: 2 * axis as u32 + u32::from(pos),
        ends: [corner(h, p), corner(h, q)],
    }
}

impl<T: Real> FeatureMap<T, 3> for Cuboid<T, 3> {
    fn half_extents(&self) -> Option<SVector<T, 3>> {
        Some(self.half_extents)
    }

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
                    .map(|&k| Vertex::new(p.points()[k], k as u32)),
            );
        }
        None => flat_feature(p.points(), dir, out),
    }
}

/// The feature of a point cloud without a hull (docs/clipping.md §1): all its points on a
/// line (2D, 3D) or in a plane (3D). The support vertex alone would stand for a whole
/// edge or face (the manifold then missed the deepest point: issue 9, class 5). A line is
/// the segment between its extreme points ([`segment`]'s rule); a plane is its convex
/// polygon when `dir` is within ~0.9° of the plane's normal, else the polygon's edge at
/// the support vertex when nearly perpendicular to `dir`, else that vertex. Ids are point
/// indices; the polygon's face id is 0 (1 seen from below), an edge's `2 | s << 16 | i`
/// (its two ends). Algorithm:
/// 1. `dir` of zero length: point 0. The support vertex `s` along `dir`.
/// 2. The line: from point 0 to the point farthest from it, then its two extremes `lo`,
///    `hi` along it, and the direction `lo → hi` (coincident points: a single point).
/// 3. The point `wide` farthest off that line; in 2D, or no farther off than
///    `FLAT_POLYGON` ulps of the segment's size: the segment `lo`–`hi` ([`segment`]).
/// 4. Else the plane through `lo`, `hi`, `wide`, its normal `m` turned towards `dir`, and
///    its polygon by a gift wrap from `s`, counter-clockwise seen from `m`.
/// 5. `dir` within the tilt of `m` ([`within_tilt`]) and 3 vertices or more: the polygon.
/// 6. Else the edge from `s` to its previous or next vertex, the one more perpendicular
///    to `dir`, when within the tilt of perpendicular; else the vertex `s`.
fn flat_feature<T: Real, const D: usize>(
    pts: &[Point<T, D>],
    dir: &SVector<T, D>,
    out: &mut Feature<T, D>,
) {
    let Some(n) = normalize(dir) else {
        return point(pts[0], 0, dir, out);
    };
    let n = n.into_inner();
    let arg = |f: &dyn Fn(&Point<T, D>) -> T| {
        (0..pts.len()).fold(0, |b, i| if f(&pts[i]) > f(&pts[b]) { i } else { b })
    };
    // The support vertex along `dir`: the feature when nothing larger is.
    let s = arg(&|q| n.dot(&q.coords));
    // The line: from point 0 to the point farthest from it, then its two extremes along
    // it, and the line through those (the first line's direction measured the offsets
    // from the second line's end: a third point that projected beyond the farthest one
    // was its own "widest" point, the plane through three collinear points failed, and a
    // triangle's feature was its point 0, 0.23 shallower than the contact).
    let far = arg(&|q| (q - pts[0]).amax());
    let Some(e) = normalize(&(pts[far] - pts[0])) else {
        return point(pts[0], 0, dir, out);
    };
    let e = e.into_inner();
    let (lo, hi) = (arg(&|q| -e.dot(&q.coords)), arg(&|q| e.dot(&q.coords)));
    let Some(e) = normalize(&(pts[hi] - pts[lo])) else {
        return point(pts[s], s as u32, dir, out);
    };
    let e = e.into_inner();
    let off = |q: &Point<T, D>| {
        let w = q - pts[lo];
        (w - e * w.dot(&e)).amax()
    };
    let wide = arg(&off);
    let tiny = ulps::<T>(allowance::FLAT_POLYGON) * (pts[hi] - pts[lo]).amax();
    if D != 3 || !(off(&pts[wide]) > tiny) {
        segment(pts[lo], pts[hi], dir, out);
        for v in out.vertices.iter_mut() {
            v.id = if v.id == 0 { lo as u32 } else { hi as u32 };
        }
        if out.vertices.len() == 1 {
            out.id = out.vertices[0].id;
        }
        return;
    }
    // The plane through pts[lo], pts[hi], pts[wide]; its polygon by a gift wrap in the
    // plane (a flat cloud is small: a few points).
    let (a, b) = (pts[hi] - pts[lo], pts[wide] - pts[lo]);
    let mut m = SVector::<T, D>::zeros();
    m[0] = a[1] * b[2] - a[2] * b[1];
    m[1] = a[2] * b[0] - a[0] * b[2];
    m[2] = a[0] * b[1] - a[1] * b[0];
    let Some(m) = normalize(&m) else {
        return point(pts[s], s as u32, dir, out);
    };
    let mut m = m.into_inner();
    let up = m.dot(&n) >= T::zero();
    if !up {
        m = -m;
    }
    out.vertices.clear();
    // Counter-clockwise seen from `m`: from each vertex, the next is the point with every
    // other point on its left ((q − p) × (r − p) · m ≥ 0), the farthest on ties.
    let left = |p: &Point<T, D>, q: &Point<T, D>, r: &Point<T, D>| {
        let (x, y) = (q - p, r - p);
        m[0] * (x[1] * y[2] - x[2] * y[1])
            + m[1] * (x[2] * y[0] - x[0] * y[2])
            + m[2] * (x[0] * y[1] - x[1] * y[0])
    };
    let mut cur = s;
    for _ in 0..pts.len() {
        out.vertices.push(Vertex::new(pts[cur], cur as u32));
        let mut next = if cur == 0 { 1 } else { 0 };
        for r in 0..pts.len() {
            if r == cur || pts[r] == pts[cur] {
                continue;
            }
            let turn = left(&pts[cur], &pts[next], &pts[r]);
            let longer = (pts[r] - pts[cur]).norm_squared() > (pts[next] - pts[cur]).norm_squared();
            if pts[next] == pts[cur] || turn < T::zero() || (turn == T::zero() && longer) {
                next = r;
            }
        }
        if next == s || pts[next] == pts[s] {
            break;
        }
        cur = next;
    }
    let side = crate::real::norm(&(n - m * m.dot(&n)));
    if within_tilt(side, m.dot(&n)) && out.vertices.len() >= 3 {
        out.normal = Unit::new_unchecked(m);
        out.id = u32::from(!up);
        return;
    }
    // Not facing `dir`: the polygon's edge at the support vertex most perpendicular to
    // `dir`, if within ~0.9°, else the vertex.
    // Of the two, the one more perpendicular to `dir`: the other can be within the tilt
    // too and then leans over the face (`dir`'s component in the plane points inside it),
    // so the rounded offset along its perpendicular went below the face's offset plane
    // (fuzz seed 51922751 of `manifold_3d_f64`: a point 1.2e-3 inside a rounded mapped
    // triangle; the edge picked was 0.29° off perpendicular, its neighbour 0°). The more
    // perpendicular edge always has `dir`'s in-plane part in its outward half-plane.
    let k = out.vertices.len();
    let (prev, next) = (out.vertices[k - 1], out.vertices[1 % k]);
    // |cos| of the angle between `dir` and the edge to `q`, when within the tilt.
    let flat = |q: &Point<T, D>| {
        let e = q - pts[s];
        let (along, len) = (n.dot(&e).abs(), crate::real::norm(&e));
        (len > T::zero() && within_tilt(along, len)).then(|| along / len)
    };
    let edge = match (flat(&next.point), flat(&prev.point)) {
        (Some(a), Some(b)) => Some(if b < a { prev } else { next }),
        (Some(_), None) => Some(next),
        (None, Some(_)) => Some(prev),
        (None, None) => None,
    };
    match edge {
        Some(q) => {
            out.normal = Unit::new_unchecked(n);
            // Face ids 0 and 1 are the polygon seen from either side; 2 marks an edge.
            out.id = 2 | super::id::fields(s as u32, q.id);
            out.vertices.clear();
            out.vertices.push(Vertex::new(pts[s], s as u32));
            out.vertices.push(q);
        }
        None => point(pts[s], s as u32, dir, out),
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

/// Points approximating a cylinder's or cone's cap disc: an inscribed regular polygon (its
/// points lie on the rim, so on the shape).
pub const CAP_POINTS: usize = 8;

/// The cap disc at height `y` with outward normal `±y`, counter-clockwise seen from
/// outside; vertex ids `base + k`.
fn cap<T: Real>(r: T, y: T, up: bool, id: u32, base: u32, out: &mut Feature<T, 3>) {
    let sign = if up { T::one() } else { -T::one() };
    out.normal = Unit::new_unchecked(Vector3::new(T::zero(), sign, T::zero()));
    out.id = id;
    out.inscribed = true;
    out.vertices.clear();
    let step = core::f64::consts::TAU / CAP_POINTS as f64;
    for k in 0..CAP_POINTS {
        // Decreasing angle is counter-clockwise seen from +y.
        let a = if up {
            -(k as f64) * step
        } else {
            k as f64 * step
        };
        let (c, s) = (
            crate::real::lit::<T>(a.cos()),
            crate::real::lit::<T>(a.sin()),
        );
        out.vertices
            .push(Vertex::new(Point3::new(r * c, y, r * s), base + k as u32));
    }
}

impl<T: Real> FeatureMap<T, 3> for Cylinder<T> {
    /// A cap (`CAP_POINTS` points; ids: face 0 top, 1 bottom) when `dir` is within ~0.9° of
    /// the axis, the side segment under the rim point (face 2) when within ~0.9° of
    /// perpendicular to it, else the support point.
    fn feature(&self, dir: &Vector3<T>, out: &mut Feature<T, 3>) {
        let (h, r) = (self.half_height, self.radius);
        let side = crate::real::norm(&Vector2::new(dir.x, dir.z));
        if within_tilt(side, dir.y) {
            let up = dir.y > T::zero();
            return cap(
                r,
                if up { h } else { -h },
                up,
                u32::from(!up),
                if up { 0 } else { CAP_POINTS as u32 },
                out,
            );
        }
        if within_tilt(dir.y, side)
            && let Some(u) = crate::shape::radial(dir)
        {
            let (x, z) = (r * u.x, r * u.y);
            out.normal = Unit::new_unchecked(Vector3::new(u.x, T::zero(), u.y));
            out.id = 2;
            out.vertices.clear();
            out.vertices
                .push(Vertex::new(Point3::new(x, -h, z), 2 * CAP_POINTS as u32));
            out.vertices
                .push(Vertex::new(Point3::new(x, h, z), 2 * CAP_POINTS as u32 + 1));
            return;
        }
        point(self.support(dir), 2 * CAP_POINTS as u32 + 2, dir, out);
    }
}

impl<T: Real> FeatureMap<T, 3> for Cone<T> {
    /// The base (`CAP_POINTS` points, face 1) when `dir` is within ~0.9° of −y; the side
    /// generator from the apex to the rim (face 2) when `dir` is within ~0.9° of the slant
    /// normal `(cos φ, r/2h, sin φ)`; else the support point.
    fn feature(&self, dir: &Vector3<T>, out: &mut Feature<T, 3>) {
        let (h, r) = (self.half_height, self.radius);
        let side = crate::real::norm(&Vector2::new(dir.x, dir.z));
        if dir.y < T::zero() && within_tilt(side, dir.y) {
            return cap(r, -h, false, 1, CAP_POINTS as u32, out);
        }
        // On the slant: d_y / σ = r / 2h, i.e. d_y·2h − σ·r ≈ 0 relative to |d|·max(2h, r).
        let two_h = h + h;
        let off = dir.y * two_h - side * r;
        if side > T::zero()
            && within_tilt(off, crate::real::norm(dir) * two_h.max(r))
            && let Some(u) = crate::shape::radial(dir)
        {
            let (c, s) = (u.x, u.y);
            let n = Vector3::new(c * two_h, r, s * two_h);
            out.normal = normalize(&n).unwrap_or_else(crate::linalg::any_axis);
            out.id = 2;
            out.vertices.clear();
            out.vertices.push(Vertex::new(
                Point3::new(r * c, -h, r * s),
                2 * CAP_POINTS as u32,
            ));
            out.vertices.push(Vertex::new(
                Point3::new(T::zero(), h, T::zero()),
                2 * CAP_POINTS as u32 + 1,
            ));
            return;
        }
        point(self.support(dir), 2 * CAP_POINTS as u32 + 2, dir, out);
    }
}

impl<T: Real, const D: usize, S: FeatureMap<T, D>> FeatureMap<T, D> for Rounded<S, T> {
    /// The inner shape's feature: on the core, which the rounding pushes out by `radius`.
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        self.inner.feature(dir, out);
    }
}

impl<T: Real, const D: usize, S: FeatureMap<T, D>> FeatureMap<T, D> for Transformed<S, T, D> {
    /// The inner feature along `Mᵀ·dir`, mapped by `x ↦ M·x + t`; its normal by `M⁻ᵀ`
    /// (`M` itself for a similarity), and its polygon reversed when `M` reflects, so it stays
    /// counter-clockwise seen from outside. A rounded inner shape under a map that is not a
    /// similarity has no core in the image: its feature is the support point.
    fn feature(&self, dir: &SVector<T, D>, out: &mut Feature<T, D>) {
        let m = *self.linear();
        let normal_map = match self.similarity() {
            Some(_) => Some(m),
            None if self.inner.radius() > T::zero() => None,
            None => m.try_inverse().map(|inv| inv.transpose()),
        };
        let Some(nm) = normal_map else {
            return point(self.support(dir), u32::MAX, dir, out);
        };
        self.inner.feature(&m.tr_mul(dir), out);
        let t = *self.translation();
        for v in out.vertices.iter_mut() {
            v.point = Point::from(m * v.point.coords + t);
        }
        out.normal = normalize(&(nm * out.normal.into_inner()))
            .unwrap_or_else(|| normalize(dir).unwrap_or_else(crate::linalg::any_axis));
        // A map that is not a similarity does not keep angles: the inner face best aligned
        // with `Mᵀ·dir` can map to a face that turns away from `dir` (a 10:1 scale made a
        // cosine of −0.68), which the manifold would push inward by a rounding radius. The
        // support point is then the feature.
        if self.similarity().is_none() && out.normal.dot(dir) <= T::zero() {
            return point(self.support(dir), u32::MAX, dir, out);
        }
        if D == 3 && out.vertices.len() >= 3 && det3(&m) < T::zero() {
            out.vertices.reverse();
        }
    }
}

/// The determinant of a 3 × 3 matrix (`m` of dimension 3; only called when `D == 3`).
fn det3<T: Real, const D: usize>(m: &nalgebra::SMatrix<T, D, D>) -> T {
    let e = |r: usize, c: usize| m[(r, c)];
    e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1))
        - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0))
}
