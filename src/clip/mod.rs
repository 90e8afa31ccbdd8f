//! Contact manifolds by clipping (Box2D's reference/incident clipping, seed 004;
//! docs/clipping.md).
//!
//! The contact normal comes from GJK/EPA ([`crate::query::contact`]). The face of each
//! shape most aligned with it ([`FeatureMap`]) is found; the better aligned one is the
//! *reference* face (A's unless B's is better by a margin, so the choice does not flicker),
//! the other the *incident* feature. The incident feature is clipped against the side
//! planes of the reference face (2D: its two ends; 3D: its edges, Sutherland–Hodgman);
//! points within the prediction distance of the reference face are kept, then reduced to
//! at most 4 (3D: deepest first, then largest area) or 2 (2D).

mod feature;

pub use feature::{CAP_POINTS, Feature, FeatureMap};

use crate::{Real, epa::ContactDim};
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

    /// The manifold with its points and normal mapped (to the world frame).
    pub(crate) fn map(
        mut self,
        point: impl Fn(&Point<T, D>) -> Point<T, D>,
        vector: impl Fn(&SVector<T, D>) -> SVector<T, D>,
    ) -> Self {
        self.normal = Unit::new_unchecked(vector(&self.normal));
        for p in self.points[..self.len].iter_mut() {
            p.point_a = point(&p.point_a);
            p.point_b = point(&p.point_b);
        }
        self
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
/// `CLIPPED | k << 16 | (v & 0xFFFF)`.
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
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            let (dp, dq) = (s.dot(&p.0.coords) - d, s.dot(&q.0.coords) - d);
            if dp <= T::zero() && (closed || i == 0) {
                next.push(p);
            }
            if (dp < T::zero()) != (dq < T::zero()) && dp != dq {
                // The crossing point p + t (q − p), t = dp / (dp − dq) ∈ [0, 1].
                let t = dp / (dp - dq);
                let x = p.0 + (q.0 - p.0) * t;
                next.push((x, CLIPPED | (k << 16) | (p.1 & 0xFFFF)));
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
    pub point_a: Point<T, D>,
    pub point_b: Point<T, D>,
}

/// B's feature wins the reference role only when its normal is better aligned with the
/// contact normal by more than this (cosines), so nearly parallel faces keep their roles
/// from one frame to the next (Box2D's relative tolerance, seed 004).
const REFERENCE_BIAS: f64 = 1.0 / 256.0;

/// The manifold of `a` and `b` (B placed by `rel` in A's frame), in A's frame, from their
/// contact `c` (docs/clipping.md §2).
pub(crate) fn build<T, R, const D: usize, A, B>(
    a: &A,
    b: &B,
    rel: &nalgebra::Isometry<T, R, D>,
    c: &LocalContact<T, D>,
    prediction: T,
    ws: &mut ManifoldWorkspace<T, D>,
) -> Manifold<T, D>
where
    T: Real,
    R: nalgebra::AbstractRotation<T, D>,
    Const<D>: ContactDim<T, D>,
    A: FeatureMap<T, D> + ?Sized,
    B: FeatureMap<T, D> + ?Sized,
{
    let n = c.normal.into_inner();
    a.feature(&n, &mut ws.fa);
    b.feature(&rel.inverse_transform_vector(&-n), &mut ws.fb);
    for v in ws.fb.vertices.iter_mut() {
        v.0 = rel.transform_point(&v.0);
    }
    ws.fb.normal = Unit::new_unchecked(rel.transform_vector(&ws.fb.normal));
    let (ra, rb) = (a.radius(), b.radius());
    let face = |f: &Feature<T, D>| f.vertices.len() >= D;
    let (align_a, align_b) = (ws.fa.normal.dot(&n), -ws.fb.normal.dot(&n));
    let single = |c: &LocalContact<T, D>, fa: &Feature<T, D>, fb: &Feature<T, D>| {
        let mut m = Manifold::empty(c.normal);
        m.push(ContactPoint {
            separation: c.separation,
            point_a: c.point_a,
            point_b: c.point_b,
            id: FeatureId { a: fa.id, b: fb.id },
        });
        m
    };
    let a_ref =
        face(&ws.fa) && !(face(&ws.fb) && align_b > align_a + crate::real::lit(REFERENCE_BIAS));
    if !a_ref && !face(&ws.fb) {
        return single(c, &ws.fa, &ws.fb);
    }
    let (reference, incident, r_ref, r_inc) = if a_ref {
        (&ws.fa, &ws.fb, ra, rb)
    } else {
        (&ws.fb, &ws.fa, rb, ra)
    };
    let nr = reference.normal.into_inner();
    let origin = reference.vertices[0].0;
    <Const<D> as ContactDim<T, D>>::side_planes(&reference.vertices, &nr, &mut ws.planes);
    ws.poly.clear();
    ws.poly.extend_from_slice(&incident.vertices);
    clip(&mut ws.poly, &mut ws.next, &ws.planes);
    ws.kept.clear();
    for &(x, id) in ws.poly.iter() {
        let sep = nr.dot(&(x - origin)) - r_ref - r_inc;
        if sep <= prediction {
            ws.kept.push((sep, x, id));
        }
    }
    if ws.kept.is_empty() {
        return if c.separation <= prediction {
            single(c, &ws.fa, &ws.fb)
        } else {
            Manifold::empty(c.normal)
        };
    }
    <Const<D> as ContactDim<T, D>>::reduce(&mut ws.kept, &nr);
    let normal = if a_ref {
        reference.normal
    } else {
        -reference.normal
    };
    let mut m = Manifold::empty(normal);
    for &(sep, x, id) in ws.kept.iter() {
        // On the incident core, pushed out by its radius; projected onto the reference face,
        // pushed out by its radius.
        let on_inc = x - nr * r_inc;
        let on_ref = x - nr * (nr.dot(&(x - origin)) - r_ref);
        let (point_a, point_b, fid) = if a_ref {
            (
                on_ref,
                on_inc,
                FeatureId {
                    a: reference.id,
                    b: id,
                },
            )
        } else {
            (
                on_inc,
                on_ref,
                FeatureId {
                    a: id,
                    b: reference.id,
                },
            )
        };
        m.push(ContactPoint {
            separation: sep,
            point_a,
            point_b,
            id: fid,
        });
    }
    m
}
