//! Per-thread scratch memory for the queries that do not take a workspace
//! (`query::contact`, `query::manifold`): each thread keeps one workspace per type it has
//! used, so a query allocates only the first time a thread needs that type (and when a
//! polytope grows beyond the largest it has seen).
//!
//! The workspace is taken out of the pool for the call and put back after it, so a nested
//! query (a support map that itself queries) gets a fresh one instead of a borrow panic.
//!
//! Without the `std` feature there are no thread-locals: each call gets a new workspace
//! (the `*_with_workspace` queries avoid that allocation).

/// `new()` (its `Default`: empty) and an opaque `Debug` for a workspace type `$ty<T, D>`
/// whose memory is scratch (`Const<D>: ContactDim<T, D>`).
macro_rules! workspace_new_and_debug {
    ($ty:ident) => {
        impl<T: Real, const D: usize> $ty<T, D>
        where
            Const<D>: ContactDim<T, D>,
        {
            /// An empty workspace.
            #[must_use]
            pub fn new() -> Self {
                Self::default()
            }
        }

        impl<T: Real, const D: usize> core::fmt::Debug for $ty<T, D>
        where
            Const<D>: ContactDim<T, D>,
        {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($ty)).finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use workspace_new_and_debug;

#[cfg(feature = "std")]
mod pool {
    use alloc::{boxed::Box, vec::Vec};
    use core::any::Any;
    use core::cell::RefCell;

    std::thread_local! {
        static POOL: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    }

    /// Runs `f` on this thread's pooled `W` (a new one the first time, or while the thread
    /// is being torn down).
    pub(crate) fn with<W: Default + 'static, R>(f: impl FnOnce(&mut W) -> R) -> R {
        let taken = POOL
            .try_with(|p| {
                let mut pool = p.try_borrow_mut().ok()?;
                let i = pool.iter().position(|w| w.is::<W>())?;
                pool.swap_remove(i).downcast::<W>().ok()
            })
            .ok()
            .flatten();
        let mut w = taken.unwrap_or_default();
        let out = f(&mut w);
        // Back into the pool; dropped if the thread is being torn down.
        let _ = POOL.try_with(|p| {
            if let Ok(mut pool) = p.try_borrow_mut() {
                pool.push(w);
            }
        });
        out
    }
}

#[cfg(feature = "std")]
pub(crate) use pool::with;

/// Runs `f` on a new `W` (no thread-locals without `std`).
#[cfg(not(feature = "std"))]
pub(crate) fn with<W: Default + 'static, R>(f: impl FnOnce(&mut W) -> R) -> R {
    f(&mut W::default())
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::with;

    #[test]
    fn pooled_workspace_is_reused_and_nesting_is_safe() {
        with(|v: &mut Vec<u32>| v.push(7));
        let len = with(|v: &mut Vec<u32>| {
            // Nested: the outer one is out of the pool, so this one is new.
            let inner = with(|w: &mut Vec<u32>| w.len());
            assert_eq!(inner, 0);
            v.len()
        });
        assert_eq!(len, 1);
    }
}
