//! Bench-only crate.
