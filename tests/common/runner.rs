//! What the corpus runners share besides the corpus itself: running code that may panic,
//! the command line, medians. Included by `examples/corpus`, `examples/experiments` and
//! `peers/examples/corpus_speed` (and `tests/corpus_format.rs`) with `#[path]`.
#![allow(dead_code)]

/// A thread's panic guard.
struct Guard {
    /// Whether the thread runs inside [`guarded`].
    active: bool,
    /// The last panic message caught there.
    caught: Option<String>,
}

thread_local! {
    static GUARD: std::cell::RefCell<Guard> =
        const { std::cell::RefCell::new(Guard { active: false, caught: None }) };
}

/// Runs `f`, turning a panic into `Err(message at location)`. The first call installs a
/// panic hook that records the message of a panic inside `guarded` instead of printing it
/// (other panics still go to the previous hook).
pub fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARD.with(|g| g.borrow().active) {
                return previous(info);
            }
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_string());
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            GUARD.with(|g| g.borrow_mut().caught = Some(format!("{msg}{at}")));
        }));
    });
    let outer = GUARD.with(|g| std::mem::replace(&mut g.borrow_mut().active, true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    GUARD.with(|g| g.borrow_mut().active = outer);
    r.map_err(|_| {
        GUARD
            .with(|g| g.borrow_mut().caught.take())
            .unwrap_or_else(|| "panic".to_string())
    })
}

/// Command-line options `--name value` and flags `--name`; `spec` lists every accepted
/// name and whether it takes a value.
#[derive(Debug)]
pub struct Args {
    given: Vec<(String, Option<String>)>,
}

impl Args {
    /// Parses the program's arguments (`std::env::args()` after the program name).
    ///
    /// # Errors
    /// An unknown option or a missing value.
    pub fn parse(spec: &[(&str, bool)]) -> Result<Self, String> {
        Self::parse_from(spec, std::env::args().skip(1))
    }

    /// Parses `args`.
    ///
    /// # Errors
    /// An unknown option or a missing value.
    pub fn parse_from(
        spec: &[(&str, bool)],
        args: impl IntoIterator<Item = String>,
    ) -> Result<Self, String> {
        let mut given = Vec::new();
        let mut it = args.into_iter();
        while let Some(arg) = it.next() {
            let name = arg
                .strip_prefix("--")
                .ok_or_else(|| format!("unexpected argument `{arg}`"))?;
            let &(_, takes) = spec
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| format!("unknown option `--{name}`"))?;
            let value = if takes {
                Some(
                    it.next()
                        .ok_or_else(|| format!("`--{name}` needs a value"))?,
                )
            } else {
                None
            };
            given.push((name.to_string(), value));
        }
        Ok(Self { given })
    }

    /// The value of `--name`, if given (the last one).
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether the flag `--name` was given.
    #[must_use]
    pub fn flag(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| n == name)
    }

    /// `--name` parsed as `N`, or `default`.
    ///
    /// # Errors
    /// A value that does not parse.
    pub fn number<N: std::str::FromStr>(&self, name: &str, default: N) -> Result<N, String> {
        self.value(name).map_or(Ok(default), |v| {
            v.parse()
                .map_err(|_| format!("`--{name} {v}`: not a number"))
        })
    }
}

/// The median of `xs` (sorted in place); NaN for none.
pub fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    }
}
