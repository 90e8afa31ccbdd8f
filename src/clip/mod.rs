//! Contact manifolds by clipping (Box2D's reference/incident clipping;
//! docs/clipping.md).
//!
//! The contact normal comes from GJK/EPA ([`crate::query::contact`]). The face of each
//! shape most aligned with it ([`FeatureMap`]) is found; the better aligned one is the
//! *reference* face (A's unless B's is better by a margin, so the choice does not flicker),
//! the other the *incident* feature. The incident feature is clipped against the side
//! planes of the reference face (2D: its two ends; 3D: its edges, Sutherland–Hodgman);
//! points within the prediction distance of the reference face are kept, then reduced to
//! at most 4 (3D: deepest first, then largest area) or 2 (2D).

pub(crate) mod boxes;
mod feature;

use alloc::vec::Vec;
pub use feature::{CAP_POINTS, Feature, FeatureMap};

use crate::{Real, epa::ContactDim, real::normalize};
use nalgebra::{Const, Point, SVector, Unit};

/// Which features made a contact point: ids on A and on B, stable while the same
/// features touch (a solver can carry impulses over between frames).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureId {
    /// The feature of A: a face id if A holds the reference face, else a vertex id or a
    /// clipped-edge code (`CLIPPED | side << 16 | vertex`).
    pub a: u32,
    /// The feature of B, likewise.
    pub b: u32,
}

/// Marks an id made by clipping an incident edge against a side plane.
pub const CLIPPED: u32 = 1 << 31;

/// Marks a clipped point at a corner of the reference face (on two side planes `j < k`):
/// `CLIPPED | CORNER | j << 16 | k`. It depends only on the reference face, so it stays the
/// same while the reference corner lies inside the incident face, whatever incident edges
/// surround it.
pub const CORNER: u32 = 1 << 29;

/// The side planes a clip point lies on (`u32::MAX`: none).
fn planes_of(id: u32) -> [u32; 2] {
    if id & CLIPPED == 0 {
        [u32::MAX; 2]
    } else if id & CORNER != 0 {
        [(id >> 16) & 0x1FFF, id & 0xFFFF]
    } else {
        [(id >> 16) & 0x1FFF, u32::MAX]
    }
}

/// The id of the point where edge `p → q` crosses side plane `k`: a corner if the edge runs
/// along another side plane, else the incident edge's code (its start vertex's low bits).
fn crossing_id(p: u32, q: u32, k: u32) -> u32 {
    let (pp, pq) = (planes_of(p), planes_of(q));
    if let Some(&j) = pp
        .iter()
        .find(|&&j| j != u32::MAX && j != k && pq.contains(&j))
    {
        let (lo, hi) = (j.min(k), j.max(k));
        return CLIPPED | CORNER | (lo << 16) | hi;
    }
    CLIPPED | (k << 16) | (p & 0xFFFF)
}

/// One point of a manifold, world frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactPoint<T: Real, const D: usize> {
    /// The signed distance along the manifold normal (< 0: penetration).
    pub separation: T,
    /// The point on A's surface.
    pub point_a: Point<T, D>,
    /// The point on B's surface; `point_b − point_a ≈ separation · normal`.
    pub point_b: Point<T, D>,
    /// The features that made it.
    pub id: FeatureId,
}

/// Up to 4 contact points sharing one normal from A to B (world frame). No heap memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<T: Real, const D: usize> {
    /// The unit normal from A to B: the reference face's normal when a face pair is in
    /// contact, else the contact normal.
    pub normal: Unit<SVector<T, D>>,
    points: [ContactPoint<T, D>; 4],
    len: usize,
}

impl<T: Real, const D: usize> Manifold<T, D> {
    /// A manifold with no points along `normal`.
    #[must_use]
    pub fn empty(normal: Unit<SVector<T, D>>) -> Self {
        let p = ContactPoint {
            separation: T::zero(),
            point_a: Point::origin(),
            point_b: Point::origin(),
            id: FeatureId::default(),
        };
        Self {
            normal,
            points: [p; 4],
            len: 0,
        }
    }

    /// The contact points (at most 4 in 3D, 2 in 2D).
    #[must_use]
    pub fn points(&self) -> &[ContactPoint<T, D>] {
        &self.points[..self.len]
    }

    /// The number of points.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the shapes are farther apart than the prediction distance.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Maps the points and the normal (to the world frame), in place.
    pub(crate) fn map(
        &mut self,
        point: impl Fn(&Point<T, D>) -> Point<T, D>,
        vector: impl Fn(&SVector<T, D>) -> SVector<T, D>,
    ) {
        self.normal = Unit::new_unchecked(vector(&self.normal));
        for p in self.points[..self.len].iter_mut() {
            p.point_a = point(&p.point_a);
            p.point_b = point(&p.point_b);
        }
    }

    /// Empties the manifold and sets its normal.
    pub(crate) fn reset(&mut self, normal: Unit<SVector<T, D>>) {
        self.normal = normal;
        self.len = 0;
    }

    pub(crate) fn push(&mut self, p: ContactPoint<T, D>) {
        if self.len < 4 {
            self.points[self.len] = p;
            self.len += 1;
        }
    }
}

/// Scratch memory for manifolds: features, clip buffers, EPA. Reuse one per thread.
pub struct ManifoldWorkspace<T: Real, const D: usize>
where
    Const<D>: ContactDim<T, D>,
{
    pub(crate) epa: crate::epa::Workspace<T, D>,
    pub(crate) fa: Feature<T, D>,
    pub(crate) fb: Feature<T, D>,
    pub(crate) planes: Vec<(SVector<T, D>, T, u32)>,
    pub(crate) poly: Vec<(Point<T, D>, u32)>,
    pub(crate) next: Vec<(Point<T, D>, u32)>,
    pub(crate) kept: Vec<(T, Point<T, D>, u32)>,
}

impl<T: Real, const D: usize> Default for ManifoldWorkspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    fn default() -> Self {
        Self {
            epa: Default::default(),
            fa: Feature::default(),
            fb: Feature::default(),
            planes: Vec::new(),
            poly: Vec::new(),
            next: Vec::new(),
            kept: Vec::new(),
        }
    }
}

impl<T: Real, const D: usize> ManifoldWorkspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    /// An empty workspace.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl<T: Real, const D: usize> core::fmt::Debug for ManifoldWorkspace<T, D>
where
    Const<D>: ContactDim<T, D>,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ManifoldWorkspace").finish_non_exhaustive()
    }
}

/// Sutherland–Hodgman: clips `poly` (closed when it has ≥ 3 vertices, else an open
/// segment or a point) against the half-spaces `s·x ≤ d` in `planes`, into `poly`.
/// A vertex made on side plane `k` from the edge starting at vertex id `v` gets the id
/// `CLIPPED | k << 16 | (v & 0xFFFF)`, or a [`CORNER`] id where the edge runs along another
/// side plane.
pub(crate) fn clip<T: Real, const D: usize>(
    poly: &mut Vec<(Point<T, D>, u32)>,
    next: &mut Vec<(Point<T, D>, u32)>,
    planes: &[(SVector<T, D>, T, u32)],
) {
    for &(s, d, k) in planes {
        if poly.is_empty() {
            return;
        }
        next.clear();
        let n = poly.len();
        let closed = n >= 3;
        let edges = if closed { n } else { n - 1 };
        if n == 1 && s.dot(&poly[0].0.coords) <= d {
            next.push(poly[0]);
        }
        for i in 0..edges {
            let (p, q) = (poly[i], poly[if i + 1 == n { 0 } else { i + 1 }]);
            let (dp, dq) = (s.dot(&p.0.coords) - d, s.dot(&q.0.coords) - d);
            if dp <= T::zero() && (closed || i == 0) {
                next.push(p);
            }
            if (dp < T::zero()) != (dq < T::zero()) && dp != dq {
                // The crossing point p + t (q − p), t = dp / (dp − dq) ∈ [0, 1].
                let t = dp / (dp - dq);
                let x = p.0 + (q.0 - p.0) * t;
                next.push((x, crossing_id(p.1, q.1, k)));
            }
            if !closed && i + 1 == edges && dq <= T::zero() {
                next.push(q);
            }
        }
        core::mem::swap(poly, next);
    }
}

/// A contact in A's frame, as `query::contact` computes it before mapping to the world.
pub(crate) struct LocalContact<T: Real, const D: usize> {
    pub separation: T,
    pub normal: Unit<SVector<T, D>>,
    /// The witnesses on A and on B, a pair at `separation` along the normal; `None` when
    /// not known (the box–box test of a face axis): a manifold that would need them is not
    /// made.
    pub witness: Option<(Point<T, D>, Point<T, D>)>,
    /// How far the true separation may lie from `separation` (its bounds' width plus the
    /// rounding of the pair's coordinates).
    pub slack: T,
    /// The rounding of a pair's coordinates alone: how far two pairs may differ and still
    /// count as the same (duplicates, ties, the support point against the clipped points).
    pub rounding: T,
    /// [`crate::Tolerances::manifold_reference_bias`].
    pub reference_bias: T,
    /// [`crate::Tolerances::manifold_min_alignment`].
    pub min_alignment: T,
}

/// Marks the id of a contact point taken from `query::contact`'s witnesses (added when the
/// clipped points miss the deepest one, docs/clipping.md §2).
pub const WITNESS: u32 = 1 << 30;

/// Marks the id of the incident shape's support point along the normal, added when the
/// clipped points miss the deepest one and that point lies over the reference face.
pub const SUPPORT: u32 = 1 << 28;

/// The role-ordered features, on the surfaces (docs/clipping.md §2.4): the reference
/// (a face, or a segment facing a segment) and the incident feature, each moved out from
/// its core by its radius, and the incident shape's radius.
struct Roles<'w, T: Real, const D: usize> {
    reference: &'w Feature<T, D>,
    incident: &'w Feature<T, D>,
    r_inc: T,
    /// How far the incident feature moved from its core ([`to_surface`]).
    inc_offset: SVector<T, D>,
    a_ref: bool,
}

/// Whether A's feature is the reference (docs/clipping.md §2.3): a face within
/// `min_alignment` of `n`, A's unless B's is better aligned by `reference_bias`; in 3D two
/// segments, A's. `None` when neither is a face (the single contact point).
fn reference_is_a<T: Real, const D: usize>(
    fa: &Feature<T, D>,
    fb: &Feature<T, D>,
    n: &SVector<T, D>,
    c: &LocalContact<T, D>,
) -> Option<bool> {
    let face = |f: &Feature<T, D>, align: T| {
        f.vertices.len() >= D && align >= c.min_alignment && has_extent(f)
    };
    let (align_a, align_b) = (fa.normal.dot(n), -fb.normal.dot(n));
    let (face_a, face_b) = (face(fa, align_a), face(fb, align_b));
    if face_a || face_b {
        Some(face_a && !(face_b && align_b > align_a + c.reference_bias))
    } else if D == 3 && fa.vertices.len() == 2 && fb.vertices.len() == 2 {
        // Two segments (capsules, cylinder sides): A's is the reference "face".
        Some(true)
    } else {
        None
    }
}

/// Whether a face has an extent: a 2D edge a length, a 3D polygon an area. A degenerate
/// face (a cuboid with a zero half-extent has faces that are points or segments) has side
/// planes `0·x ≤ 0` that keep every point, which were then projected onto its plane far
/// from the face (found by the fuzz sweep: a flat 2D box's end "edge" paired a point 2.39
/// deep where the contact was 0.436). Such a face is no reference.
fn has_extent<T: Real, const D: usize>(f: &Feature<T, D>) -> bool {
    let v = &f.vertices;
    if v.len() == 2 {
        return (v[1].0 - v[0].0).amax() > T::zero();
    }
    // 3D: two edge vectors from the first vertex that span an area (fixed-point: unit
    // vectors, so that a small face's cross product does not underflow to 0).
    let n = f.normal.into_inner();
    let dir = |e: SVector<T, D>| {
        if crate::real::is_fixed::<T>() {
            normalize(&e).map(Unit::into_inner)
        } else {
            Some(e)
        }
    };
    (1..v.len().saturating_sub(1)).any(|i| match (dir(v[i].0 - v[0].0), dir(v[i + 1].0 - v[0].0)) {
        (Some(a), Some(b)) => {
            let cross = n[0] * (a[1] * b[2] - a[2] * b[1])
                + n[1] * (a[2] * b[0] - a[0] * b[2])
                + n[2] * (a[0] * b[1] - a[1] * b[0]);
            cross != T::zero()
        }
        _ => false,
    })
}

/// Moves a core feature onto its shape's surface: by `r` along the outward normal of the
/// surface it stands for, the one facing `toward` (a unit vector). A polygon (3D) moves
/// along its face normal; a segment (a 2D edge, a capsule's axis) along its perpendicular
/// nearest `toward`, which becomes its normal; a point along `toward`. A zero-length
/// segment is a point (a degenerate capsule is a ball). Every point of the moved feature
/// is then at distance `r` from the core along a normal of the core: on the surface.
fn to_surface<T: Real, const D: usize>(
    f: &mut Feature<T, D>,
    toward: &SVector<T, D>,
    r: T,
) -> SVector<T, D> {
    let mut offset = *toward;
    if f.vertices.len() == 2 {
        let e = f.vertices[1].0 - f.vertices[0].0;
        if let Some(m) =
            normalize(&e).and_then(|ê| normalize(&(toward - ê.into_inner() * toward.dot(&ê))))
        {
            f.normal = m;
            offset = m.into_inner();
        }
    } else if f.vertices.len() > 2 {
        offset = f.normal.into_inner();
    }
    if r == T::zero() {
        return SVector::zeros();
    }
    let offset = offset * r;
    for v in f.vertices.iter_mut() {
        v.0 += offset;
    }
    offset
}

impl<'w, T: Real, const D: usize> Roles<'w, T, D> {
    /// Pushes the pair (`on_ref`, `on_inc`) at `separation` into `m`, in A/B order, with
    /// the reference face's id and `inc` on the incident side.
    fn push(
        &self,
        m: &mut Manifold<T, D>,
        separation: T,
        on_ref: Point<T, D>,
        on_inc: Point<T, D>,
        inc: u32,
    ) {
        let (point_a, point_b, id) = if self.a_ref {
            (
                on_ref,
                on_inc,
                FeatureId {
                    a: self.reference.id,
                    b: inc,
                },
            )
        } else {
            (
                on_inc,
                on_ref,
                FeatureId {
                    a: inc,
                    b: self.reference.id,
                },
            )
        };
        m.push(ContactPoint {
            separation,
            point_a,
            point_b,
            id,
        });
    }
}

/// The manifold of `a` and `b` (B placed by `rel` in A's frame), in A's frame, from their
/// contact `c` (docs/clipping.md §2).
///
/// Every point is a pair on the two surfaces along the contact normal `n`: both features
/// are moved from the cores onto the surfaces ([`to_surface`]), the incident one is
/// clipped against the prism swept by the reference one along `n`, and each clipped point
/// is projected along `n` onto the reference surface. Such a pair can never be deeper
/// than the penetration depth, and the manifold normal is `n` itself. Written into `m`;
/// `None` when the witnesses are needed but unknown.
pub(crate) fn build<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    rel: &crate::pose::Frame<T, D>,
    c: &LocalContact<T, D>,
    prediction: T,
    ws: &mut ManifoldWorkspace<T, D>,
    m: &mut Manifold<T, D>,
) -> Option<()>
where
    T: Real,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    let n = c.normal.into_inner();
    ws.fa.inscribed = false;
    ws.fb.inscribed = false;
    a.feature(&n, &mut ws.fa);
    b.feature(&rel.inverse_transform_vector(&-n), &mut ws.fb);
    for v in ws.fb.vertices.iter_mut() {
        v.0 = rel.transform_point(&v.0);
    }
    ws.fb.normal = Unit::new_unchecked(rel.transform_vector(&ws.fb.normal));
    let Some(a_ref) = reference_is_a(&ws.fa, &ws.fb, &n, c) else {
        return single(c, ws.fa.id, ws.fb.id, m);
    };
    // `u`: from the reference shape towards the incident one.
    let u = if a_ref { n } else { -n };
    let (ra, rb) = (a.radius(), b.radius());
    let (reference, incident, r_ref, r_inc) = if a_ref {
        (&mut ws.fa, &mut ws.fb, ra, rb)
    } else {
        (&mut ws.fb, &mut ws.fa, rb, ra)
    };
    to_surface(reference, &u, r_ref);
    let inc_offset = to_surface(incident, &-u, r_inc);
    let roles = Roles {
        reference,
        incident,
        r_inc,
        inc_offset,
        a_ref,
    };
    let segments = D == 3 && roles.reference.vertices.len() == 2;
    if segments {
        segment_planes(&roles.reference.vertices, &u, &mut ws.planes);
    } else {
        <Const<D> as ContactDim<T, D>>::side_planes(&roles.reference.vertices, &u, &mut ws.planes);
    }
    ws.poly.clear();
    ws.poly.extend_from_slice(&roles.incident.vertices);
    clip(&mut ws.poly, &mut ws.next, &ws.planes);
    m.reset(c.normal);
    // Within the prediction up to rounding: exactly touching shapes keep their points.
    let limit = prediction + c.rounding;
    let kept = &mut ws.kept;
    kept.clear();
    for &(x, id) in ws.poly.iter() {
        let Some((sep, _, _)) = pair(&roles, &u, &x, segments, c.rounding) else {
            // Segments that are not parallel: their pairs along `n` meet in one point.
            return single(c, ws.fa.id, ws.fb.id, m);
        };
        // Clipping makes coincident points only next to each other around the polygon
        // (a clip point on a vertex): compare with the last kept point and the first.
        let near = |k: &(T, Point<T, D>, u32)| (k.1 - x).amax() <= c.rounding;
        if sep <= limit && !kept.last().is_some_and(near) && !kept.first().is_some_and(near) {
            kept.push((sep, x, id));
        }
    }
    // The deepest pair must be there: clipping can miss it (edges crossing at a corner of
    // the reference face, a face that is not the one touching, an incident point over
    // the reference's rounded edge rather than its face); add the witnesses. A pair is
    // never deeper than the contact, so a deepest pair shallower than the contact's
    // bounds allow proves the miss. A single incident point (a vertex, a curved shape's
    // support point) is the incident's unique support along −u (feature maps give a
    // point only then: a faceless polytope gives its segment or polygon), so its pair is
    // the deepest one, as exact as `n` and often more than the contact's separation
    // (FixedI40F24: 2.4e-5 deeper than the exact pair on a tilted cylinder); the
    // witnesses only stand in when it is clipped away.
    let deepest = kept
        .iter()
        .map(|k| k.0)
        .fold(None, |m: Option<T>, s| Some(m.map_or(s, |m| m.min(s))));
    let single_point = roles.incident.vertices.len() == 1;
    let mut witness = deepest.is_none_or(|d| !single_point && d > c.separation + c.slack);
    if (witness || roles.incident.inscribed) && !single_point {
        // The incident shape's support point along −u is its deepest point along `u`; if
        // it lies in the reference prism its pair is the deepest pair over this face,
        // exact given `n` (a tilted cylinder's lowest rim point, between the cap's 8
        // points).
        let core = if a_ref {
            rel.transform_point(&b.core_support(&rel.inverse_transform_vector(&-u)))
        } else {
            a.core_support(&-u)
        };
        let x = core - u * roles.r_inc;
        if inside(&ws.planes, &x, c.rounding)
            && let Some((sep, _, _)) = pair(&roles, &u, &x, segments, c.rounding)
        {
            if sep <= limit && deepest.is_none_or(|d| sep < d - c.rounding) {
                // A rounded incident: the moved feature holds the point of the same core
                // vertex on the side surface, shallower by r(1 − cos θ); the support
                // point replaces it.
                let from = roles
                    .incident
                    .vertices
                    .iter()
                    .find(|v| (v.0 - roles.inc_offset - core).amax() <= c.rounding)
                    .map(|v| v.1);
                match from.and_then(|id| kept.iter().position(|k| k.2 == id)) {
                    Some(i) if roles.r_inc > T::zero() => {
                        kept[i] = (sep, x, SUPPORT | roles.incident.id)
                    }
                    _ => kept.push((sep, x, SUPPORT | roles.incident.id)),
                }
            }
            witness = witness && sep > c.separation + c.slack;
        }
    }
    <Const<D> as ContactDim<T, D>>::reduce(kept, &u, c.rounding);
    if witness {
        if kept.len() >= if D == 2 { 2 } else { 4 } {
            drop_shallowest(kept);
        }
        let (point_a, point_b) = c.witness?;
        let (on_ref, on_inc) = if a_ref {
            (point_a, point_b)
        } else {
            (point_b, point_a)
        };
        roles.push(m, c.separation, on_ref, on_inc, WITNESS | roles.incident.id);
    }
    for &(sep, x, id) in kept.iter() {
        if let Some((_, on_ref, on_inc)) = pair(&roles, &u, &x, segments, c.rounding) {
            roles.push(m, sep, on_ref, on_inc, id);
        }
    }
    Some(())
}

/// The side planes of a reference segment: through its ends, across `u` (normal: the
/// segment's direction with its `u` component removed).
fn segment_planes<T: Real, const D: usize>(
    segment: &[(Point<T, D>, u32)],
    u: &SVector<T, D>,
    planes: &mut Vec<(SVector<T, D>, T, u32)>,
) {
    let (p, q) = (segment[0].0, segment[1].0);
    let e = q - p;
    let s = e - u * e.dot(u);
    planes.clear();
    planes.push((-s, -s.dot(&p.coords), 0));
    planes.push((s, s.dot(&q.coords), 1));
}

/// Removes the shallowest point (largest separation).
fn drop_shallowest<T: Real, const D: usize>(kept: &mut Vec<(T, Point<T, D>, u32)>) {
    let i = (0..kept.len())
        .max_by(|&i, &j| {
            kept[i]
                .0
                .partial_cmp(&kept[j].0)
                .unwrap_or(core::cmp::Ordering::Equal)
        })
        .unwrap_or(0);
    kept.remove(i);
}

/// Whether `x` is inside every side plane `s·x ≤ d`, up to `rounding` (a length).
fn inside<T: Real, const D: usize>(
    planes: &[(SVector<T, D>, T, u32)],
    x: &Point<T, D>,
    rounding: T,
) -> bool {
    planes
        .iter()
        .all(|(s, d, _)| s.dot(&x.coords) - *d <= rounding * crate::real::norm(s))
}

/// The manifold of the single contact point `c`.
fn single<T: Real, const D: usize>(
    c: &LocalContact<T, D>,
    a: u32,
    b: u32,
    m: &mut Manifold<T, D>,
) -> Option<()> {
    let (point_a, point_b) = c.witness?;
    m.reset(c.normal);
    m.push(ContactPoint {
        separation: c.separation,
        point_a,
        point_b,
        id: FeatureId { a, b },
    });
    Some(())
}

/// The pair along `u` through the incident surface point `x`: its separation, the point
/// on the reference surface and `x` itself. A face: `x − t·u` on the reference surface's
/// plane, `t = n_ref·(x − r₀) / (n_ref·u)` (`n_ref·u ≥ min_alignment > 0`). A segment:
/// the closest point `q` of the reference surface's line, which is along `u` only when the
/// segments are parallel (`None` when `x − q` leaves `u` by more than `slack`, or when the
/// reference segment has no length).
#[inline]
fn pair<T: Real, const D: usize>(
    roles: &Roles<'_, T, D>,
    u: &SVector<T, D>,
    x: &Point<T, D>,
    segments: bool,
    slack: T,
) -> Option<(T, Point<T, D>, Point<T, D>)> {
    let r0 = roles.reference.vertices[0].0;
    if segments {
        let e = normalize(&(roles.reference.vertices[1].0 - r0))?.into_inner();
        let q = r0 + e * (x - r0).dot(&e);
        let t = (x - q).dot(u);
        if (x - q - u * t).amax() > slack {
            return None;
        }
        return Some((t, q, *x));
    }
    let nr = roles.reference.normal.into_inner();
    let t = nr.dot(&(x - r0)) / nr.dot(u);
    Some((t, x - u * t, *x))
}
