//! Contacts stopped by an iteration cap (docs/testing.md, F8), or by GJK's relative gap
//! on rounded shapes pushed out along a normal that gap leaves uncertain: bounds that
//! cover their witnesses.
//!
//! At GJK's or EPA's cap the witnesses are mixes of support points taken along earlier
//! directions (pushed out by the radii along the final normal `n`): points of the shapes,
//! not of their surfaces. How deep they lie is known exactly from one support call per
//! shape along `n`: with `s(n) = min_B n·y − max_A n·x` the gap between the supporting
//! planes normal to `n`, the two depths below those planes sum to `separation − s(n)`
//! (because `point_b − point_a = separation · n`). `s(n)` is itself a lower bound of the
//! signed distance (for any unit `n`), so bringing the lower bound down to it keeps the
//! bounds proven and makes their width cover how far each witness lies inside its shape.

use super::Contact;
use crate::{
    QueryError, Real, Tolerances,
    dim::Dim,
    gjk::{self, Difference},
    tolerance::Rounding,
};
use nalgebra::Const;

/// Whether the witnesses of rounded cores proven apart by GJK (`core`, radii `margin`)
/// can lie inside the shapes by more than the bounds' width: GJK's `v` is within angle
/// `θ` of the true normal with `1 − cos θ ≤ (upper − lower) / upper` (A − B lies beyond
/// the true normal's plane, and holds `v`), and pushing the core points out by the radii
/// along `v` leaves them `margin · (1 − cos θ)` inside, past the width `upper − lower`
/// once `margin > upper` (the round parts overlap). Checked against the rounding band so
/// that exact stops skip the extra supports (FixedI40F24 at a user's `gjk_rel` of 6e-3: a
/// manifold point 5e-3 deeper than the contact's lower bound, fuzz seed 75004199 of
/// `manifold_2d_fixed`).
pub(super) fn pushed_past_the_width<T: Real, const D: usize>(
    margin: T,
    core: &gjk::Outcome<T, D>,
) -> bool {
    let width = core.upper - core.lower.min(core.upper);
    (margin - core.upper) * width > core.upper * core.band
}

/// Lowers `c.lower_bound` (A's frame) to at most `s(n)` minus its rounding.
pub(super) fn cover_witnesses<T: Real, const D: usize, P: Difference<T, D>>(
    pair: &P,
    tol: &Tolerances<T>,
    c: &mut Contact<T, D>,
) -> Result<(), QueryError>
where
    Const<D>: Dim,
{
    // `plane_min` along `−n`: A's core support along `n`, B's along `−n`, their gap.
    if let Some(core) = gjk::plane_min(
        pair,
        &-c.normal.into_inner(),
        gjk::coordinate_limit::<T, D>(),
    )? {
        let gap = core.lower - pair.radius_a() - pair.radius_b();
        let band = Rounding::of(tol).band(core.coords);
        c.lower_bound = c.lower_bound.min(gap - band);
    }
    Ok(())
}
