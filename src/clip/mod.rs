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
//!
//! Files: `feature.rs` the feature maps; this file the assembly (`build`'s steps);
//! `planes.rs` the side planes and Sutherland–Hodgman; `reduce.rs` the reduction;
//! `dim.rs` the per-dimension hooks; `id.rs` the contact point ids; `boxes.rs` the
//! box–box separating-axis test.

pub(crate) mod boxes;
pub(crate) mod dim;
mod feature;
mod id;
mod planes;
mod reduce;

use alloc::vec::Vec;
pub use feature::{CAP_POINTS, Feature, FeatureMap, Vertex};
pub use id::{FeatureId, PackedFeatureId};

use crate::{Real, epa::ContactDim, linalg::Witnesses, real::normalize, tolerance::ulps};
use dim::ClipDim;
use nalgebra::{Const, Point, SVector, Unit};
use planes::{Incident, Plane, clip, inside};
use reduce::{Candidate, drop_shallowest};

/// One point of a manifold, world frame.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "ContactPointDef"))]
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
    pub(crate) planes: Vec<Plane<T, D>>,
    pub(crate) poly: Vec<Incident<T, D>>,
    pub(crate) next: Vec<Incident<T, D>>,
    pub(crate) kept: Vec<Candidate<T, D>>,
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

crate::scratch::workspace_new_and_debug!(ManifoldWorkspace);

/// A contact in A's frame, as `query::contact` computes it before mapping to the world.
pub(crate) struct LocalContact<T: Real, const D: usize> {
    pub separation: T,
    pub normal: Unit<SVector<T, D>>,
    /// The witnesses on A and on B, a pair at `separation` along the normal; `None` when
    /// not known (the box–box test of a face axis): a manifold that would need them is not
    /// made.
    pub witness: Option<Witnesses<T, D>>,
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

/// Which shape holds the reference face.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reference {
    A,
    B,
}

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
    /// The reference is a segment (3D: two segments facing each other).
    segments: bool,
}

/// A pair along `u` through an incident surface point: its separation, the point on the
/// reference surface and the incident point itself.
struct Pair<T: Real, const D: usize> {
    separation: T,
    on_ref: Point<T, D>,
    on_inc: Point<T, D>,
}

/// What [`build`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[must_use]
pub(crate) enum Built {
    /// The manifold is written (possibly empty: nothing within the prediction).
    Manifold,
    /// Nothing certain was written: the manifold needed the contact's witness points, which
    /// it does not have (the box–box test's face axis); the caller takes the general path.
    FallBack,
}

/// Which feature is the reference (docs/clipping.md §2.3): a face within `min_alignment`
/// of `n`, A's unless B's is better aligned by `reference_bias`; in 3D two segments, A's.
/// `None` when neither is a face (the single contact point).
fn reference<T: Real, const D: usize>(
    fa: &Feature<T, D>,
    fb: &Feature<T, D>,
    n: &SVector<T, D>,
    c: &LocalContact<T, D>,
) -> Option<Reference> {
    let face = |f: &Feature<T, D>, align: T| {
        f.vertices.len() >= D && align >= c.min_alignment && has_extent(f)
    };
    let (align_a, align_b) = (fa.normal.dot(n), -fb.normal.dot(n));
    let (face_a, face_b) = (face(fa, align_a), face(fb, align_b));
    if face_a || face_b {
        if face_a && !(face_b && align_b > align_a + c.reference_bias) {
            Some(Reference::A)
        } else {
            Some(Reference::B)
        }
    } else if D == 3 && fa.vertices.len() == 2 && fb.vertices.len() == 2 {
        // Two segments (capsules, cylinder sides): A's is the reference "face".
        Some(Reference::A)
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
        return (v[1].point - v[0].point).amax() > T::zero();
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
    (1..v.len().saturating_sub(1)).any(|i| {
        match (
            dir(v[i].point - v[0].point),
            dir(v[i + 1].point - v[0].point),
        ) {
            (Some(a), Some(b)) => {
                let cross = n[0] * (a[1] * b[2] - a[2] * b[1])
                    + n[1] * (a[2] * b[0] - a[0] * b[2])
                    + n[2] * (a[0] * b[1] - a[1] * b[0]);
                cross != T::zero()
            }
            _ => false,
        }
    })
}

/// Moves a core feature onto its shape's surface: by `r` along the outward normal of the
/// surface it stands for, the one facing `toward` (a unit vector). A polygon (3D) moves
/// along its face normal; a segment along its own normal when that is perpendicular to it
/// (a 2D edge, a line on a cone's or cylinder's side: the surface's only normal there),
/// else (a capsule's axis, a box edge: every perpendicular within the feature's normal
/// cone is a normal) along its perpendicular nearest `toward`, which becomes its normal;
/// a point along `toward`. A zero-length segment is a point (a degenerate capsule is a
/// ball). Every point of the moved feature is then at distance `r` from the core along a
/// normal of the core: on the surface.
fn to_surface<T: Real, const D: usize>(
    f: &mut Feature<T, D>,
    toward: &SVector<T, D>,
    r: T,
) -> SVector<T, D> {
    let mut offset = *toward;
    if f.vertices.len() == 2 {
        let e = f.vertices[1].point - f.vertices[0].point;
        if let Some(ê) = normalize(&e).map(Unit::into_inner) {
            // Perpendicular within √ε: a normal tilted by c from perpendicular moves the
            // points r·c²/2 ≤ r·ε/2 inside, within the rounding. The perpendicular nearest
            // `toward` on a cone's side (a non-uniform map had turned it by 0.0125 rad from
            // the side's normal) put points r·(1 − cos 0.0125) inside the rounding.
            let c = f.normal.dot(&ê);
            if c * c <= ulps::<T>(1.0) {
                offset = f.normal.into_inner();
            } else if let Some(m) = normalize(&(toward - ê * toward.dot(&ê))) {
                f.normal = m;
                offset = m.into_inner();
            }
        }
    } else if f.vertices.len() > 2 {
        offset = f.normal.into_inner();
    }
    if r == T::zero() {
        return SVector::zeros();
    }
    let offset = offset * r;
    for v in f.vertices.iter_mut() {
        v.point += offset;
    }
    offset
}

impl<'w, T: Real, const D: usize> Roles<'w, T, D> {
    /// Pushes `pair` into `m`, in A/B order, with the reference face's id and `inc` on the
    /// incident side.
    fn push(&self, m: &mut Manifold<T, D>, pair: &Pair<T, D>, inc: PackedFeatureId) {
        let on_ref = PackedFeatureId::feature(self.reference.id);
        let (point_a, point_b, id) = if self.a_ref {
            (pair.on_ref, pair.on_inc, FeatureId { a: on_ref, b: inc })
        } else {
            (pair.on_inc, pair.on_ref, FeatureId { a: inc, b: on_ref })
        };
        m.push(ContactPoint {
            separation: pair.separation,
            point_a,
            point_b,
            id,
        });
    }

    /// The pair along `u` through the incident surface point `x`. A face: `x − t·u` on the
    /// reference surface's plane, `t = n_ref·(x − r₀) / (n_ref·u)` (`n_ref·u ≥
    /// min_alignment > 0`). A segment: the closest point `q` of the reference surface's
    /// line, which is along `u` only when the segments are parallel (`None` when `x − q`
    /// leaves `u` by more than `slack`, or when the reference segment has no length).
    #[inline(always)]
    fn pair(&self, u: &SVector<T, D>, x: &Point<T, D>, slack: T) -> Option<Pair<T, D>> {
        let r0 = self.reference.vertices[0].point;
        if self.segments {
            let e = normalize(&(self.reference.vertices[1].point - r0))?.into_inner();
            let q = r0 + e * (x - r0).dot(&e);
            let t = (x - q).dot(u);
            if (x - q - u * t).amax() > slack {
                return None;
            }
            return Some(Pair {
                separation: t,
                on_ref: q,
                on_inc: *x,
            });
        }
        let nr = self.reference.normal.into_inner();
        let t = nr.dot(&(x - r0)) / nr.dot(u);
        Some(Pair {
            separation: t,
            on_ref: x - u * t,
            on_inc: *x,
        })
    }
}

/// The manifold of `a` and `b` (B placed by `rel` in A's frame), in A's frame, from their
/// contact `c` (docs/clipping.md §2), written into `m`.
///
/// Every point is a pair on the two surfaces along the contact normal `n`, so no pair is
/// deeper than the penetration depth and the manifold normal is `n` itself. Algorithm:
/// 1. Each shape's feature most aligned with `n` (B's mapped into A's frame); the
///    reference is the better aligned face ([`reference`]), none: the single contact point.
/// 2. Both features move from the cores onto the surfaces ([`to_surface`]).
/// 3. The reference face's side planes bound the prism it sweeps along `u` (from the
///    reference towards the incident shape); the incident feature is clipped against them
///    (Sutherland–Hodgman, `planes.rs`).
/// 4. Each clipped point pairs with its projection along `u` onto the reference surface;
///    pairs within the prediction are kept, coincident ones once.
/// 5. The deepest pair must be there: if the kept ones are shallower than the contact
///    allows, the incident support point along `−u` (when over the face) or else the
///    contact's witnesses join them.
/// 6. At most 2 (2D) or 4 (3D) are kept (`reduce.rs`) and pushed in A/B order.
pub(crate) fn build<T, const D: usize, A, B>(
    a: &A,
    b: &B,
    rel: &crate::pose::Frame<T, D>,
    c: &LocalContact<T, D>,
    prediction: T,
    ws: &mut ManifoldWorkspace<T, D>,
    m: &mut Manifold<T, D>,
) -> Built
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
        v.point = rel.transform_point(&v.point);
    }
    ws.fb.normal = Unit::new_unchecked(rel.transform_vector(&ws.fb.normal));
    let Some(holder) = reference(&ws.fa, &ws.fb, &n, c) else {
        return single(c, ws.fa.id, ws.fb.id, m);
    };
    let a_ref = holder == Reference::A;
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
        segments: D == 3 && reference.vertices.len() == 2,
        reference,
        incident,
        r_inc,
        inc_offset,
        a_ref,
    };
    if roles.segments {
        let r = &roles.reference.vertices;
        planes::segment(&r[0].point, &r[1].point, &u, &mut ws.planes);
    } else {
        <Const<D> as ClipDim<T, D>>::side_planes(&roles.reference.vertices, &u, &mut ws.planes);
    }
    ws.poly.clear();
    ws.poly
        .extend(roles.incident.vertices.iter().map(|v| Incident {
            point: v.point,
            id: PackedFeatureId::feature(v.id),
        }));
    clip(&mut ws.poly, &mut ws.next, &ws.planes);
    m.reset(c.normal);
    // Within the prediction up to rounding: exactly touching shapes keep their points.
    let limit = prediction + c.rounding;
    let kept = &mut ws.kept;
    kept.clear();
    for x in ws.poly.iter() {
        let Some(p) = roles.pair(&u, &x.point, c.rounding) else {
            // Segments that are not parallel: their pairs along `n` meet in one point.
            return single(c, ws.fa.id, ws.fb.id, m);
        };
        // Clipping makes coincident points only next to each other around the polygon
        // (a clip point on a vertex): compare with the last kept point and the first.
        let near = |k: &Candidate<T, D>| (k.point - x.point).amax() <= c.rounding;
        if p.separation <= limit
            && !kept.last().is_some_and(near)
            && !kept.first().is_some_and(near)
        {
            kept.push(Candidate {
                separation: p.separation,
                point: x.point,
                id: x.id,
            });
        }
    }
    // The deepest pair must be there: clipping can miss it (edges crossing at a corner of
    // the reference face, a face that is not the one touching, an incident point over
    // the reference's rounded edge rather than its face); add the witnesses. A pair is
    // never deeper than the contact, so a deepest pair shallower than the contact's
    // bounds allow proves the miss. This holds for a single incident point too: a
    // vertex's pair is as deep as the contact when the vertex is the unique support along
    // −u, but a feature map may give a point that only stands for a larger support set
    // (a hull's or sum's support point: 0.55 shallower than the contact where the hull's
    // capsule side faced the normal; a point deeper than the contact, as FixedI40F24's
    // pair on a tilted cylinder, 2.4e-5 deeper than the exact one, needs no witness).
    let deepest = kept
        .iter()
        .map(|k| k.separation)
        .fold(None, |m: Option<T>, s| Some(m.map_or(s, |m| m.min(s))));
    let single_point = roles.incident.vertices.len() == 1;
    let mut witness = deepest.is_none_or(|d| d > c.separation + c.slack);
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
            && let Some(p) = roles.pair(&u, &x, c.rounding)
        {
            if p.separation <= limit && deepest.is_none_or(|d| p.separation < d - c.rounding) {
                add_support(&roles, kept, core, p.separation, x, c.rounding);
            }
            witness = witness && p.separation > c.separation + c.slack;
        }
    }
    <Const<D> as ClipDim<T, D>>::reduce(kept, &u, c.rounding);
    if witness {
        if kept.len() >= if D == 2 { 2 } else { 4 } {
            drop_shallowest(kept);
        }
        let Some(w) = c.witness else {
            return Built::FallBack;
        };
        let (on_ref, on_inc) = if a_ref { (w.a, w.b) } else { (w.b, w.a) };
        let p = Pair {
            separation: c.separation,
            on_ref,
            on_inc,
        };
        roles.push(m, &p, PackedFeatureId::witness(roles.incident.id));
    }
    for k in kept.iter() {
        if let Some(p) = roles.pair(&u, &k.point, c.rounding) {
            let p = Pair {
                separation: k.separation,
                ..p
            };
            roles.push(m, &p, k.id);
        }
    }
    Built::Manifold
}

/// Adds the incident support point `x` (from the core point `core`) at `separation`. A
/// rounded incident: the moved feature holds the point of the same core vertex on the
/// side surface, shallower by r(1 − cos θ); the support point replaces it.
fn add_support<T: Real, const D: usize>(
    roles: &Roles<'_, T, D>,
    kept: &mut Vec<Candidate<T, D>>,
    core: Point<T, D>,
    separation: T,
    x: Point<T, D>,
    rounding: T,
) {
    let from = roles
        .incident
        .vertices
        .iter()
        .find(|v| (v.point - roles.inc_offset - core).amax() <= rounding)
        .map(|v| PackedFeatureId::feature(v.id));
    let support = Candidate {
        separation,
        point: x,
        id: PackedFeatureId::support(roles.incident.id),
    };
    match from.and_then(|id| kept.iter().position(|k| k.id == id)) {
        Some(i) if roles.r_inc > T::zero() => kept[i] = support,
        _ => kept.push(support),
    }
}

/// The manifold of the single contact point `c` (`a`, `b`: the features' ids).
fn single<T: Real, const D: usize>(
    c: &LocalContact<T, D>,
    a: u32,
    b: u32,
    m: &mut Manifold<T, D>,
) -> Built {
    let Some(Witnesses {
        a: point_a,
        b: point_b,
    }) = c.witness
    else {
        return Built::FallBack;
    };
    m.reset(c.normal);
    m.push(ContactPoint {
        separation: c.separation,
        point_a,
        point_b,
        id: FeatureId {
            a: PackedFeatureId::feature(a),
            b: PackedFeatureId::feature(b),
        },
    });
    Built::Manifold
}
