//! The GJK loop's observer calls ([`crate::trace`]): the run's entry points, with and
//! without an observer, and the hooks' arguments built from the loop's state. Each hook
//! runs only for an [`Observer::ACTIVE`] observer, so the untraced run (`()`) is the loop
//! alone.

use super::{
    Difference, Outcome, Run,
    simplex::{Closest, Simplex, SupportPoint},
};
use crate::{
    QueryError, Real,
    dim::Dim,
    trace::{GjkSolve, GjkSupport, Observer},
};
use nalgebra::{Const, SVector};

impl<T: Real, const D: usize, P: Difference<T, D>> Run<'_, T, D, P>
where
    Const<D>: Dim,
{
    /// GJK's loop ([`Run::steered`], docs/gjk.md §3), untraced. Inlined always, so the
    /// untraced loop has no observer call in it.
    #[inline(always)]
    pub(crate) fn closest_point(self) -> Result<Outcome<T, D>, QueryError> {
        self.observed(&mut ())
    }

    /// GJK's loop reporting to `obs`: its start, every iteration ([`support`], [`solved`])
    /// and its end.
    #[inline(always)]
    pub(crate) fn observed<O: Observer<T, D>>(
        self,
        obs: &mut O,
    ) -> Result<Outcome<T, D>, QueryError> {
        if O::ACTIVE {
            obs.gjk_start();
        }
        let out = self.steered(obs);
        if O::ACTIVE
            && let Ok(out) = &out
        {
            obs.gjk_end(&out.end());
        }
        out
    }
}

/// Iteration `it` took the support point `sp` along `−v`; `out` holds the bounds after it.
#[inline(always)]
pub(super) fn support<T: Real, const D: usize, O: Observer<T, D>>(
    obs: &mut O,
    it: u32,
    v: &SVector<T, D>,
    sp: &SupportPoint<T, D>,
    out: &Outcome<T, D>,
) where
    Const<D>: Dim,
{
    if O::ACTIVE {
        obs.gjk_support(&GjkSupport {
            iteration: it,
            dir: *v,
            point: *sp,
            lower: out.lower,
            upper: out.upper,
        });
    }
}

/// The solve left `simplex` with closest point `c` of norm `nc`.
#[inline(always)]
pub(super) fn solved<T: Real, const D: usize, O: Observer<T, D>>(
    obs: &mut O,
    simplex: &Simplex<T, D>,
    c: &Closest<T, D>,
    nc: T,
) where
    Const<D>: Dim,
{
    if O::ACTIVE {
        obs.gjk_solve(&GjkSolve {
            simplex: *simplex,
            v: c.v,
            dir: c.dir,
            norm: nc,
            solver: c.via,
        });
    }
}
