//! The watchdog: a thread that ends the process, naming the case, when one query has not
//! answered within the time limit (a hang cannot be caught like a panic).
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The query running now, if any, and when it started.
type Current = Arc<Mutex<Option<(String, Instant)>>>;

/// Exit code of the process when a query hangs.
pub const HANG_EXIT: i32 = 3;

pub struct Watchdog {
    current: Current,
}

impl Watchdog {
    /// Starts the watching thread: a query running longer than `limit` ends the process
    /// with [`HANG_EXIT`] after printing its label.
    pub fn start(limit: Duration) -> Self {
        let current: Current = Arc::default();
        let seen = Arc::clone(&current);
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let now = seen
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Some((label, since)) = now.as_ref()
                    && since.elapsed() > limit
                {
                    eprintln!("HANG: {label} gave no answer within {limit:?}");
                    std::process::exit(HANG_EXIT);
                }
            }
        });
        Self { current }
    }

    /// Runs `f` under watch; `label` names it if it hangs.
    pub fn watch<R>(&self, label: impl FnOnce() -> String, f: impl FnOnce() -> R) -> R {
        self.set(Some((label(), Instant::now())));
        let r = f();
        self.set(None);
        r
    }

    fn set(&self, v: Option<(String, Instant)>) {
        *self
            .current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = v;
    }
}
