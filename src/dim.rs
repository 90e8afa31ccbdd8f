//! The dimensions GJK supports, as a sealed trait on `nalgebra::Const<D>`.
//!
//! Stable Rust cannot write `[T; D + 1]` or `[T; 1 << (D + 1)]`, so each supported `D`
//! names its simplex storage here: `D + 1` vertex slots and Johnson's determinant table of
//! `2^(D+1)` subsets × `(D + 1)` entries. Using a dimension outside 1..=6 is a compile
//! error (`Const<7>: Dim` is not satisfied), not a panic.

use nalgebra::Const;

mod sealed {
    pub trait Sealed {}
}

/// A dimension GJK runs in: `Const<1>` to `Const<6>` (sealed).
///
/// The bound `Const<D>: Dim` appears on every generic query; pick `D` from 1 to 6.
///
/// The storage types are bounded `Send + Sync` (they are arrays of the scalar and its
/// vectors): rustdoc cannot see through `<Const<D> as Dim>::Slots<X>` and showed the types
/// holding them (`gjk::Cache`, `gjk::Simplex`) as `!Send`/`!Sync` without these bounds.
pub trait Dim: sealed::Sealed {
    /// Number of simplex vertices: `D + 1`.
    const SLOTS: usize;
    /// `D + 1` slots of `X`.
    #[doc(hidden)]
    type Slots<X: Copy + Send + Sync>: Copy + AsRef<[X]> + AsMut<[X]> + Send + Sync;
    /// `(D + 1)²` entries of `X` (one per pair of slots).
    #[doc(hidden)]
    type Pairs<X: Copy + Send + Sync>: Copy + AsRef<[X]> + AsMut<[X]> + Send + Sync;
    /// `2^(D+1) · (D + 1)` entries of `X` (one row per subset of the slots).
    #[doc(hidden)]
    type Subsets<X: Copy + Send + Sync>: Copy + AsRef<[X]> + AsMut<[X]> + Send + Sync;
    /// Slots filled with `x`.
    #[doc(hidden)]
    fn slots<X: Copy + Send + Sync>(x: X) -> Self::Slots<X>;
    /// A pair table filled with `x`.
    #[doc(hidden)]
    fn pairs<X: Copy + Send + Sync>(x: X) -> Self::Pairs<X>;
    /// A subset table filled with `x`.
    #[doc(hidden)]
    fn subsets<X: Copy + Send + Sync>(x: X) -> Self::Subsets<X>;
}

macro_rules! dims {
    ($($d:literal => $slots:literal, $pairs:literal, $subsets:literal;)*) => {$(
        impl sealed::Sealed for Const<$d> {}
        impl Dim for Const<$d> {
            const SLOTS: usize = $slots;
            type Slots<X: Copy + Send + Sync> = [X; $slots];
            type Pairs<X: Copy + Send + Sync> = [X; $pairs];
            type Subsets<X: Copy + Send + Sync> = [X; $subsets];
            #[inline]
            fn slots<X: Copy + Send + Sync>(x: X) -> [X; $slots] { [x; $slots] }
            #[inline]
            fn pairs<X: Copy + Send + Sync>(x: X) -> [X; $pairs] { [x; $pairs] }
            #[inline]
            fn subsets<X: Copy + Send + Sync>(x: X) -> [X; $subsets] { [x; $subsets] }
        }
    )*};
}

// D => D + 1, (D+1)², 2^(D+1)·(D+1)
dims! {
    1 => 2, 4, 8;
    2 => 3, 9, 24;
    3 => 4, 16, 64;
    4 => 5, 25, 160;
    5 => 6, 36, 384;
    6 => 7, 49, 896;
}

/// The largest dimension GJK supports.
pub const MAX_DIM: usize = 6;
