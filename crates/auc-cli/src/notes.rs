//! What `auc` tells a person on stderr besides its results: notes (the positive class chosen,
//! the learner filled in, what was trained), which `-q`/`--quiet` silences with the progress
//! bars, and warnings, which it never silences. Errors are `main`'s.

use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once by `-q`/`--quiet` before a command runs.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences notes and progress bars for the rest of the run.
pub(crate) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether notes and progress bars are silenced.
pub(crate) fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// `auc: TEXT` on stderr, unless `--quiet`.
pub(crate) fn note(text: impl Display) {
    if !quiet() {
        eprintln!("auc: {text}");
    }
}

/// `auc: warning: TEXT` on stderr, always: something the user should act on.
pub(crate) fn warning(text: impl Display) {
    eprintln!("auc: warning: {text}");
}
