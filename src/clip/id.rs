//! Contact point ids: which features of A and of B made a point (docs/clipping.md §4).
//!
//! A shape names its faces and vertices with plain ids ([`super::Feature`]); clipping packs
//! what it made into one `u32` per shape. Bits 31, 30, 29, 28 flag a clipped point, a
//! witness point, a corner of the reference face and the incident shape's support point;
//! a clipped point keeps the side plane in bits 16–28 and the incident vertex's low 16 bits.

/// Which features made a contact point: ids on A and on B, stable while the same
/// features touch (a solver can carry impulses over between frames).
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// The name the serialised form has had since it went through a remote mirror.
#[cfg_attr(feature = "serde", serde(rename = "FeatureIdDef"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FeatureId {
    /// The feature of A: a face id if A holds the reference face, else a vertex id or a
    /// code made by clipping.
    pub a: PackedFeatureId,
    /// The feature of B, likewise.
    pub b: PackedFeatureId,
}

/// One shape's part of a [`FeatureId`]: a plain feature id the shape gave, or a code made
/// by clipping (a point on a side plane, at a corner of the reference face, a witness or
/// the incident support point).
///
/// ```
/// use convex_proximity::{Tolerances, query, shape::Cuboid};
/// use nalgebra::{Isometry2, Vector2};
/// // A small box resting on a wide one: A's top face (id 3) is the reference, B's two
/// // bottom corners (ids 0b00, 0b01) lie on it unclipped.
/// let (wide, small) = (Cuboid::new(Vector2::new(5.0, 0.5)), Cuboid::new(Vector2::new(0.5, 0.5)));
/// let m = query::manifold(&Isometry2::identity(), &wide, &Isometry2::translation(0.0, 0.99),
///                         &small, 0.0, &Tolerances::default()).unwrap();
/// assert_eq!(m.len(), 2);
/// for p in m.points() {
///     assert_eq!(p.id.a.get(), 3);
///     assert!(p.id.b.get() < 2 && !p.id.b.is_clipped() && !p.id.b.is_witness());
/// }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PackedFeatureId(u32);

/// Flags a point made by clipping an incident edge against a side plane.
const CLIPPED: u32 = 1 << 31;
/// Flags a point taken from the contact's witnesses.
const WITNESS: u32 = 1 << 30;
/// Flags a clipped point at a corner of the reference face (on two side planes).
const CORNER: u32 = 1 << 29;
/// Flags the incident shape's support point along the normal.
const SUPPORT: u32 = 1 << 28;
/// The low field: a vertex id's low bits, or a corner's second plane.
const LOW: u32 = 0xFFFF;
/// The high field (bits 16–28): a side plane.
const HIGH: u32 = 0x1FFF;

/// `hi` in the high field and the low 16 bits of `lo`: two indices in one id.
pub(crate) const fn fields(hi: u32, lo: u32) -> u32 {
    (hi << 16) | (lo & LOW)
}

impl PackedFeatureId {
    /// The plain id a shape gave its face or vertex.
    #[must_use]
    pub const fn feature(id: u32) -> Self {
        Self(id)
    }

    /// The point where the incident edge starting at `vertex` crosses side plane `side`.
    pub(crate) const fn clipped(side: u32, vertex: Self) -> Self {
        Self(CLIPPED | fields(side, vertex.0))
    }

    /// The corner of the reference face on its side planes `j < k`. It depends only on the
    /// reference face, so it stays the same while that corner lies inside the incident
    /// face, whatever incident edges surround it.
    pub(crate) const fn corner(j: u32, k: u32) -> Self {
        Self(CLIPPED | CORNER | fields(j, k))
    }

    /// The contact's witness point, on the incident feature `incident`.
    pub(crate) const fn witness(incident: u32) -> Self {
        Self(WITNESS | incident)
    }

    /// The incident shape's support point along the normal, on its feature `incident`.
    pub(crate) const fn support(incident: u32) -> Self {
        Self(SUPPORT | incident)
    }

    /// The packed bits (what serialisation writes).
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0
    }

    /// Whether clipping made the point (on a side plane or at a corner).
    #[must_use]
    pub const fn is_clipped(self) -> bool {
        self.0 & CLIPPED != 0
    }

    /// Whether the point is a corner of the reference face.
    #[must_use]
    pub const fn is_corner(self) -> bool {
        self.is_clipped() && self.0 & CORNER != 0
    }

    /// Whether the point is the contact's witness.
    #[must_use]
    pub const fn is_witness(self) -> bool {
        self.0 & WITNESS != 0
    }

    /// Whether the point is the incident shape's support point.
    #[must_use]
    pub const fn is_support(self) -> bool {
        self.0 & SUPPORT != 0
    }

    /// The side planes a clipped point lies on: one, two at a corner, none unclipped.
    pub(crate) const fn planes(self) -> [Option<u32>; 2] {
        if !self.is_clipped() {
            [None; 2]
        } else if self.is_corner() {
            [Some((self.0 >> 16) & HIGH), Some(self.0 & LOW)]
        } else {
            [Some((self.0 >> 16) & HIGH), None]
        }
    }

    /// The id of the point where edge `p → q` crosses side plane `k`: a corner if the edge
    /// runs along another side plane, else the edge's code (its start's low bits).
    pub(crate) fn crossing(p: Self, q: Self, k: u32) -> Self {
        let along = q.planes();
        if let Some(j) = p
            .planes()
            .into_iter()
            .flatten()
            .find(|&j| j != k && along.contains(&Some(j)))
        {
            return Self::corner(j.min(k), j.max(k));
        }
        Self::clipped(k, p)
    }
}

impl From<PackedFeatureId> for u32 {
    fn from(id: PackedFeatureId) -> u32 {
        id.0
    }
}

impl From<u32> for PackedFeatureId {
    /// The packed bits as [`PackedFeatureId::get`] returns them.
    fn from(bits: u32) -> Self {
        Self(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_ids_name_their_parts() {
        let v = PackedFeatureId::feature(7);
        assert!(!v.is_clipped() && !v.is_witness() && v.planes() == [None; 2]);
        let c = PackedFeatureId::clipped(3, v);
        assert_eq!(c.get(), (1 << 31) | (3 << 16) | 7);
        assert!(c.is_clipped() && !c.is_corner());
        assert_eq!(c.planes(), [Some(3), None]);
        let k = PackedFeatureId::corner(2, 5);
        assert!(k.is_corner() && k.planes() == [Some(2), Some(5)]);
        assert!(PackedFeatureId::witness(4).is_witness());
        assert!(PackedFeatureId::support(4).is_support());
        // An edge from a point on plane 2 to one on planes 2 and 5 crosses plane 1 at the
        // corner of planes 1 and 2; an edge along no common plane keeps its start's code.
        let on2 = PackedFeatureId::clipped(2, v);
        assert_eq!(
            PackedFeatureId::crossing(on2, k, 1),
            PackedFeatureId::corner(1, 2)
        );
        assert_eq!(
            PackedFeatureId::crossing(v, on2, 1),
            PackedFeatureId::clipped(1, v)
        );
    }
}
