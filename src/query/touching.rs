//! Contacts of cores that meet, from EPA's [`Contact`] of the cores or without it: cores that
//! touch to the rounding (docs/epa.md §1 and §4), proven without EPA from GJK's answer
//! ([`touching_contact`]) or EPA's `Touching` answer reconciled with GJK's pair; and EPA's
//! depth as the [`Contact`] of overlapping cores (both [`epa_contact`]).

use super::Contact;
use crate::{
    QueryError, Real, Termination, Tolerances,
    dim::Dim,
    gjk::{self, Difference, Simplex, SupportPoint},
    real::normalize,
};
use nalgebra::{Const, SVector, Unit};

/// The contact of cores that touch to the rounding, proven without EPA: a point of
/// `A − B` within the band of the origin bounds the core separation above (GJK's `v`, or
/// the origin itself when GJK's simplex contains it), and a plane through the origin's
/// neighbourhood bounds it below within the band (one support call along `v`, or along the
/// inward normal of the simplex facet the origin lies on), so the separation lies in the
/// band and that plane's normal separates the shapes up to it. EPA would start from a
/// polytope with the origin on its boundary (4.4× parry's time on touching pairs). `None`
/// when either bound is missing (`v = 0`, no facet through the origin, or a plane below the
/// band): EPA decides.
pub(super) fn touching_contact<T, const D: usize, P>(
    pair: &P,
    core: &gjk::Outcome<T, D>,
    simplex: &Simplex<T, D>,
    tol: &Tolerances<T>,
    ra: T,
    rb: T,
) -> Result<Option<Contact<T, D>>, QueryError>
where
    T: Real,
    Const<D>: Dim,
    P: Difference<T, D>,
{
    if !(core.upper <= core.band) {
        return Ok(None);
    }
    let mut dirs = [SVector::<T, D>::zeros(); 3];
    let n_dirs = touching_directions(core, simplex, &mut dirs);
    for dir in &dirs[..n_dirs] {
        let Some(n) = normalize(&-*dir) else {
            continue;
        };
        let Some(gjk::PlaneBound { lower: low, coords }) =
            gjk::plane_min(pair, dir, gjk::coordinate_limit::<T, D>())?
        else {
            continue;
        };
        let band = core
            .band
            .max(crate::tolerance::Rounding::of(tol).band(coords.max(core.coords)));
        if !(low >= -band) {
            continue;
        }
        let margin = ra + rb;
        return Ok(Some(Contact {
            separation: core.upper - margin,
            normal: n,
            point_a: core.a + n.into_inner() * ra,
            point_b: core.b - n.into_inner() * rb,
            lower_bound: low.min(core.upper) - margin - band,
            upper_bound: core.upper - margin + band,
            iterations: core.iterations + 1,
            termination: Termination::Touching,
        }));
    }
    Ok(None)
}

/// Directions into `A − B` along which a plane may bound a touching pair's separation
/// below ([`touching_contact`]); their number. GJK's `v` when it has one; then (the origin
/// on GJK's simplex, or a `v` of a few ulps whose direction is noise) the normals of the
/// simplex's hyperplanes through the origin:
/// a full simplex's facet nearest the origin, inward, if its plane passes within the band;
/// a simplex of `D` vertices, its own hyperplane, both ways (D = 2: an edge's
/// perpendicular; D = 3: a face's cross product; the vertices are `A − B`'s own, so the
/// normals are accurate to `ε` in direction).
fn touching_directions<T: Real, const D: usize>(
    core: &gjk::Outcome<T, D>,
    simplex: &Simplex<T, D>,
    dirs: &mut [SVector<T, D>; 3],
) -> usize
where
    Const<D>: Dim,
{
    let mut k = 0;
    if core.termination != Termination::Contained && normalize(&core.dir).is_some() {
        dirs[0] = core.dir;
        k = 1;
    }
    let n = simplex.len();
    if !(D == 2 || D == 3) || n < D {
        return k;
    }
    let mut y = [SVector::<T, D>::zeros(); 4];
    for (k, p) in simplex.points().enumerate() {
        y[k] = p.w;
    }
    if n == D {
        let m = hyperplane_cross(&y, [0, 1, 2]);
        if clearly_beyond(&m, &y[0], core.band) {
            return k;
        }
        let Some(u) = normalize(&m).map(Unit::into_inner) else {
            return k;
        };
        if !(u.dot(&y[0]).abs() <= core.band) {
            return k;
        }
        (dirs[k], dirs[k + 1]) = (u, -u);
        return k + 2;
    }
    let mut best: Option<(T, SVector<T, D>)> = None;
    for i in 0..=D {
        // The facet without vertex i.
        let f = [(i + 1) % (D + 1), (i + 2) % (D + 1), (i + 3) % (D + 1)];
        let m = hyperplane_cross(&y, f);
        if clearly_beyond(&m, &y[f[0]], core.band) {
            continue;
        }
        let Some(mut u) = normalize(&m).map(Unit::into_inner) else {
            continue;
        };
        if u.dot(&(y[i] - y[f[0]])) < T::zero() {
            u = -u;
        }
        let offset = u.dot(&y[f[0]]).abs();
        if offset <= core.band && best.as_ref().is_none_or(|(o, _)| offset < *o) {
            best = Some((offset, u));
        }
    }
    match best {
        Some((_, u)) => {
            dirs[k] = u;
            k + 1
        }
        None => k,
    }
}

/// A normal of the hyperplane through `y[f[0]], …, y[f[D − 1]]` (D = 2 or 3), not unit:
/// the edges' cross product (2D: the edge's perpendicular).
#[inline]
fn hyperplane_cross<T: Real, const D: usize>(
    y: &[SVector<T, D>; 4],
    f: [usize; 3],
) -> SVector<T, D> {
    let e1 = y[f[1]] - y[f[0]];
    let mut m = SVector::<T, D>::zeros();
    if D == 2 {
        (m[0], m[1]) = (-e1[1], e1[0]);
    } else {
        let e2 = y[f[2]] - y[f[0]];
        (m[0], m[1], m[2]) = (
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        );
    }
    m
}

/// Floats: whether the hyperplane through `y` with normal `m` (not unit) is farther from
/// the origin than `band` by more than either side's rounding, decided on squares (no
/// root, no division), so that the unit normal [`touching_directions`] would test need not
/// be formed: `(m·y)² > ‖m‖² (band + 8ε‖y‖)² (1 + 16ε)`, with `(a + b)² ≤ 2a² + 2b²`. The
/// dot products' rounding is absolute (`3ε‖m‖‖y‖` for `m·y`, `3ε‖y‖` for the unit normal's
/// offset, a root and a division more), inside the `8ε‖y‖`: every plane it skips, the
/// unit normal's test rejects as well. Subnormal or infinite squares, and fixed-point:
/// `false` (undecided).
#[inline]
fn clearly_beyond<T: Real, const D: usize>(m: &SVector<T, D>, y: &SVector<T, D>, band: T) -> bool {
    if crate::real::is_fixed::<T>() {
        return false;
    }
    let eps = T::default_epsilon();
    let two = crate::real::lit::<T>(2.0);
    let spare = crate::real::lit::<T>(8.0) * eps;
    let floor = crate::real::norm_square_floor::<T>();
    let (off, mm) = (m.dot(y), m.norm_squared());
    let reach = two * band * band + two * spare * spare * y.norm_squared();
    let rhs = mm * reach * (T::one() + crate::real::lit::<T>(16.0) * eps);
    let lhs = off * off;
    mm >= floor && rhs >= floor && lhs.is_finite() && lhs > rhs
}

/// EPA's answer on the cores (`p`), with GJK's (`core`), as the [`Contact`] of the shapes
/// (radii `ra`, `rb`):
/// - Overlapping cores: separation `−(depth + ra + rb)`, each witness moved out by its
///   radius along the normal, the depth's bounds less the radii. Unless GJK proved the
///   origin inside the cores' `A − B`, EPA's polytope holds it only up to rounding: while
///   EPA's bound of the depth from below is within GJK's band, GJK's `‖v‖` (a point of
///   `A − B`) bounds the separation above instead; beyond it the polytope holds a ball of
///   that radius less the band around the origin. Both bounds are widened by GJK's band.
/// - Cores EPA found touching (`Touching`, no overlap): GJK's pair `(core.a, core.b)` or
///   EPA's, whichever is nearer; apart by its length along it when GJK stopped at its cap
///   and the pair is beyond the rounding, else touching along EPA's normal. Bounds: EPA's
///   (the depth is at most its upper bound) and GJK's (‖v‖ above, its plane bound below).
pub(super) fn epa_contact<T: Real, const D: usize>(
    core: &gjk::Outcome<T, D>,
    p: &Contact<T, D>,
    ra: T,
    rb: T,
) -> Contact<T, D> {
    let margin = ra + rb;
    if p.termination != Termination::Touching {
        let n = p.normal.into_inner();
        let mut upper_bound = p.upper_bound - margin;
        if core.termination != Termination::Contained && !(-p.upper_bound > core.band) {
            upper_bound = upper_bound.max(core.upper - margin);
        }
        upper_bound += core.band;
        return Contact {
            separation: p.separation - margin,
            normal: p.normal,
            point_a: p.point_a + n * ra,
            point_b: p.point_b - n * rb,
            lower_bound: p.lower_bound - margin - core.band,
            upper_bound,
            iterations: core.iterations + p.iterations,
            termination: p.termination,
        };
    }
    let gjk = &SupportPoint {
        w: core.v,
        a: core.a,
        b: core.b,
    };
    let (lower, upper, band) = (core.lower.min(core.upper), core.upper, core.band);
    let (termination, iterations) = (core.termination, core.iterations);
    let epa = SupportPoint {
        w: p.point_a - p.point_b,
        a: p.point_a,
        b: p.point_b,
    };
    let pair = if upper <= crate::real::norm(&epa.w) {
        gjk
    } else {
        &epa
    };
    // Apart by the pair's length only when GJK was stopped by its cap: a GJK that stopped
    // by its own criteria on a curved core leaves ‖v‖ far above the distance (6e-7 where
    // the truth was 1e-14, fuzz sweep), and EPA's verdict, touching, is the better one.
    let len = crate::real::norm(&pair.w);
    let (gap, n) = match normalize(&-pair.w) {
        Some(n) if len > band && termination == Termination::MaxIterations => (len, n),
        _ => (T::zero(), p.normal),
    };
    let above = if termination == Termination::Contained {
        gap
    } else {
        upper.max(gap)
    };
    Contact {
        separation: gap - margin,
        normal: n,
        point_a: pair.a + n.into_inner() * ra,
        point_b: pair.b - n.into_inner() * rb,
        lower_bound: lower.max(p.lower_bound).min(gap) - margin - band,
        upper_bound: above - margin + band,
        iterations: iterations + p.iterations,
        termination: if gap > T::zero() && !termination.is_converged() {
            termination
        } else if -p.lower_bound > band {
            // EPA's seed did not prove the cores touch (`epa::seed`'s rounds ran out).
            Termination::Degenerate
        } else {
            p.termination
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::real::lit;

    /// Uniform in `[-1, 1)`.
    fn uniform(s: &mut u64) -> f64 {
        crate::real::test_uniform(s, -1.0, 1.0)
    }

    /// `clearly_beyond` skips only planes the unit normal's test rejects: over random facets
    /// of sizes 1e-6…1e6, bands 1e-12…1 of the facet's size, offsets from 0 to a few bands
    /// (the plane through `y` tilted so that `m·y` cancels: `y` nearly along the plane),
    /// whenever it says beyond, `|normalize(m)·y| > band`; and it skips 9 in 10 of the
    /// planes beyond 4 times the band and the rounding `8ε‖y‖` (else the test would pass on
    /// a `false` everywhere).
    /// Fixed-point is always undecided.
    fn skips_only_planes_the_unit_normal_rejects<T: Real>() {
        fn check<T: Real, const D: usize>() {
            let mut seed = 7 + D as u64;
            let (mut skipped, mut far, mut far_skipped) = (0, 0, 0);
            for _ in 0..20_000 {
                let size = 10f64.powf(6.0 * uniform(&mut seed));
                let band = size * 10f64.powf(-6.0 + 6.0 * uniform(&mut seed));
                let m = SVector::<T, D>::from_fn(|_, _| lit(size * uniform(&mut seed)));
                let Some(u) = normalize(&m) else { continue };
                // y = t·u + a point of the plane through the origin, offset t in ±5 bands.
                let mut y = SVector::<T, D>::from_fn(|_, _| lit(size * uniform(&mut seed)));
                y -= u.into_inner() * u.dot(&y);
                let t = lit::<T>(5.0 * band * uniform(&mut seed));
                y += u.into_inner() * t;
                let band = lit::<T>(band);
                let beyond = clearly_beyond(&m, &y, band);
                let offset = u.dot(&y).abs();
                if beyond {
                    skipped += 1;
                    assert!(
                        offset > band,
                        "skipped a plane at {offset:?} within the band {band:?}"
                    );
                }
                // Beyond the band and the rounding by a factor of 4: decidable.
                let rounding = lit::<T>(8.0) * T::default_epsilon() * crate::real::norm(&y);
                if offset > (band + rounding) * lit(4.0) {
                    far += 1;
                    far_skipped += usize::from(beyond);
                }
            }
            if crate::real::is_fixed::<T>() {
                assert_eq!(skipped, 0);
            } else {
                assert!(
                    far > 1000 && far_skipped * 10 > far * 9,
                    "{far_skipped} of {far} far planes skipped"
                );
            }
        }
        check::<T, 2>();
        check::<T, 3>();
    }

    crate::real::scalar_cases!(skips_only_planes_the_unit_normal_rejects);
}
