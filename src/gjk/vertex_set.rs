//! A set of simplex slots: which vertices a simplex, a sub-simplex or a candidate uses
//! (bit `i` is slot `i`; at most `D + 1 ≤ 8` slots, `crate::dim::MAX_DIM < 8`).

/// A set of simplex slots, as one byte (so that Johnson's tables can be indexed by it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub(crate) struct VertexSet(u8);

impl VertexSet {
    /// No slot.
    pub const EMPTY: Self = Self(0);

    /// The slots whose bits are set in `bits`.
    #[inline]
    #[must_use]
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }

    /// Slot `i` alone.
    #[inline]
    #[must_use]
    pub const fn single(i: usize) -> Self {
        Self(1 << i)
    }

    /// Slots `0..n`.
    #[inline]
    #[must_use]
    pub const fn first(n: usize) -> Self {
        Self(((1u16 << n) - 1) as u8)
    }

    /// The bits, slot `i` at bit `i`.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set as an index (Johnson's determinant table has one row per set).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether slot `i` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }

    /// The set with slot `i` added.
    #[inline]
    #[must_use]
    pub const fn with(self, i: usize) -> Self {
        Self(self.0 | (1 << i))
    }

    /// The set without slot `i`.
    #[inline]
    #[must_use]
    pub const fn without(self, i: usize) -> Self {
        Self(self.0 & !(1 << i))
    }

    /// The slots in both sets.
    #[inline]
    #[must_use]
    pub const fn and(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// The slots of this set not in `other`.
    #[inline]
    #[must_use]
    pub const fn minus(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }

    /// How many slots.
    #[inline]
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether no slot is in the set.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds exactly one slot.
    #[inline]
    #[must_use]
    pub const fn is_single(self) -> bool {
        self.0.is_power_of_two()
    }

    /// The lowest slot (8 for the empty set).
    #[inline]
    #[must_use]
    pub const fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// The subset of `of` that follows `self` in increasing order of their bits, `EMPTY`
    /// after the last (`s ← (s − of) & of`, which steps through every subset of `of`,
    /// starting from and returning to the empty set).
    #[inline]
    #[must_use]
    pub const fn next_subset_of(self, of: Self) -> Self {
        Self(self.0.wrapping_sub(of.0) & of.0)
    }

    /// The slots `0..n` that are in the set, in increasing order.
    #[inline]
    pub fn slots(self, n: usize) -> impl Iterator<Item = usize> {
        (0..n).filter(move |&i| self.contains(i))
    }
}

#[cfg(test)]
mod tests {
    use super::VertexSet;

    #[test]
    fn next_subset_of_steps_through_every_subset_once() {
        let of = VertexSet::from_bits(0b1011_0101);
        let mut seen = Vec::new();
        let mut s = VertexSet::EMPTY;
        loop {
            s = s.next_subset_of(of);
            if s.is_empty() {
                break;
            }
            assert_eq!(s.minus(of), VertexSet::EMPTY, "{s:?} not a subset");
            seen.push(s.bits());
        }
        let mut sorted = seen.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(seen, sorted, "increasing, without repeats");
        assert_eq!(seen.len(), (1 << of.len()) - 1);
    }

    #[test]
    fn named_operations_agree_with_the_bits() {
        let s = VertexSet::first(3).without(1).with(5);
        assert_eq!(s.bits(), 0b10_0101);
        assert_eq!((s.len(), s.lowest(), s.is_single()), (3, 0, false));
        assert!(s.contains(5) && !s.contains(1));
        assert_eq!(s.slots(8).collect::<Vec<_>>(), [0, 2, 5]);
        assert_eq!(VertexSet::first(8).bits(), 0xff);
        assert_eq!(s.and(VertexSet::single(2).with(7)).bits(), 0b100);
        assert_eq!(s.minus(VertexSet::first(3)).bits(), 0b10_0000);
    }
}
