//! Progress bars on stderr for runs longer than a second, silent when stderr is not a terminal:
//! fits of a cross-validation, rows of a training pass, bytes and rows of a stream; and
//! [`Stderr`], what the library routes report, printed there.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use auc_eval::cv::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar that appears once a run has lasted a second.
pub(crate) struct Bar {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
    enabled: bool,
}

impl Bar {
    fn with_template(what: &str, template: &str, len: Option<u64>) -> Self {
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what.to_owned());
        Self {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
            enabled: std::io::stderr().is_terminal() && !crate::notes::quiet(),
        }
    }

    /// A bar counting the fits of a protocol.
    pub(crate) fn fits(what: &str) -> Self {
        Self::with_template(what, "{msg} {wide_bar} {pos}/{len} fits, eta {eta}", None)
    }

    /// A bar counting the rows of a training pass.
    pub(crate) fn rows(what: &str, total: u64) -> Self {
        Self::with_template(
            what,
            "{msg} {wide_bar} {pos}/{len} rows, {per_sec}, eta {eta}",
            Some(total),
        )
    }

    /// A bar counting the bytes of a stream read so far, against the input's size when it is
    /// known (regular files), with the rows and their rate in the message.
    pub(crate) fn bytes(what: &str, total: Option<u64>) -> Self {
        let template = if total.is_some() {
            "{msg} {wide_bar} {bytes}/{total_bytes}, {bytes_per_sec}, eta {eta}"
        } else {
            "{msg} {bytes} read, {bytes_per_sec}"
        };
        let bar = Self::with_template(what, template, total);
        bar.bar.set_message(format!("{what}: 0 rows"));
        bar
    }

    /// Sets the bytes read and the rows done (a bar made by [`Bar::bytes`]).
    pub(crate) fn set_stream(&self, what: &str, bytes: u64, rows: u64) {
        if !self.enabled {
            return;
        }
        let secs = self.start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { rows as f64 / secs } else { 0.0 };
        self.bar
            .set_message(format!("{what}: {rows} rows, {rate:.0} rows/s"));
        self.set(bytes);
    }

    /// Shows the bar once a second has passed (and only on a terminal).
    fn maybe_show(&self) {
        if self.enabled
            && self.start.elapsed() > Duration::from_secs(1)
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Takes one event from the protocol.
    pub(crate) fn event(&self, p: Progress) {
        match p {
            Progress::Total(n) => self.bar.set_length(n),
            Progress::Tick => {
                self.bar.inc(1);
                self.maybe_show();
            }
        }
    }

    /// Sets the position (rows done).
    pub(crate) fn set(&self, pos: u64) {
        self.bar.set_position(pos);
        self.maybe_show();
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A bytes bar made when a pass of the streaming engine starts: the engine's
/// [`auc_stream::Progress`] drawn on the terminal.
#[derive(Default)]
pub(crate) struct PassBar {
    bar: std::sync::OnceLock<(String, Bar)>,
}

impl auc_stream::Progress for PassBar {
    fn start(&self, what: &str, total: Option<u64>) {
        // A second pass through the same value keeps the first bar.
        let _ = self.bar.set((what.to_owned(), Bar::bytes(what, total)));
    }

    fn update(&self, bytes: u64, rows: u64) {
        if let Some((what, bar)) = self.bar.get() {
            bar.set_stream(what, bytes, rows);
        }
    }

    fn finish(&self) {
        if let Some((_, bar)) = self.bar.get() {
            bar.finish();
        }
    }
}

/// A rows bar made when a pass over rows in memory starts (`auc_train::in_memory::fit`): the
/// engine's [`auc_stream::Progress`] counting rows against the total.
#[derive(Default)]
pub(crate) struct RowsBar {
    bar: std::sync::OnceLock<Bar>,
}

impl auc_stream::Progress for RowsBar {
    fn start(&self, what: &str, total: Option<u64>) {
        let _ = self.bar.set(Bar::rows(what, total.unwrap_or(0)));
    }

    fn update(&self, _bytes: u64, rows: u64) {
        if let Some(bar) = self.bar.get() {
            bar.set(rows);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish();
        }
    }
}

/// What the library's routes say on the way, on stderr as `auc: ...` lines: the positive class
/// chosen, notes, warnings; a bytes bar for each pass.
///
/// Between the two passes over a file it runs the shell command of the test knob
/// `AUC_TEST_BETWEEN_PASSES` (the tests change the file there).
pub(crate) struct Stderr;

/// A bar counted in fits (`--tune`'s cross-validation): `start` sets it up, or its total once
/// known; `update` sets the fits done.
#[derive(Default)]
pub(crate) struct FitsBar {
    bar: std::sync::OnceLock<Bar>,
}

impl auc_stream::Progress for FitsBar {
    fn start(&self, what: &str, total: Option<u64>) {
        let bar = self.bar.get_or_init(|| Bar::fits(what));
        if let Some(n) = total {
            bar.event(Progress::Total(n));
        }
    }

    fn update(&self, _bytes: u64, fits: u64) {
        if let Some(bar) = self.bar.get() {
            bar.set(fits);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish();
        }
    }
}

impl auc_stream::Report for Stderr {
    fn positive_class(&self, choice: &auc_data::PositiveChoice, positives: u64, negatives: u64) {
        crate::input::report_positive_counts(choice, positives, negatives);
    }

    fn note(&self, text: &str) {
        crate::notes::note(text);
    }

    fn warning(&self, text: &str) {
        crate::notes::warning(text);
    }

    fn between_passes(&self) {
        if let Some(cmd) = std::env::var_os("AUC_TEST_BETWEEN_PASSES") {
            let _ = std::process::Command::new("sh").arg("-c").arg(cmd).status();
        }
    }

    fn pass(&self) -> Box<dyn auc_stream::Progress + '_> {
        Box::new(PassBar::default())
    }

    fn rows(&self) -> Box<dyn auc_stream::Progress + '_> {
        Box::new(RowsBar::default())
    }

    fn fits(&self) -> Box<dyn auc_stream::Progress + '_> {
        Box::new(FitsBar::default())
    }
}
