//! A progress bar on stderr for runs longer than a second, silent when stderr is not a terminal.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use auc_eval::cv::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Counts fits and shows a bar once a run has lasted a second.
pub(crate) struct Bar {
    bar: ProgressBar,
    start: Instant,
    shown: AtomicBool,
    enabled: bool,
}

impl Bar {
    /// A hidden bar; it appears after one second if stderr is a terminal.
    pub(crate) fn new(what: &'static str) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        if let Ok(style) =
            ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} fits, eta {eta}")
        {
            bar.set_style(style);
        }
        bar.set_message(what);
        Self {
            bar,
            start: Instant::now(),
            shown: AtomicBool::new(false),
            enabled: std::io::stderr().is_terminal(),
        }
    }

    /// Takes one event from the protocol.
    pub(crate) fn event(&self, p: Progress) {
        match p {
            Progress::Total(n) => self.bar.set_length(n),
            Progress::Tick => {
                self.bar.inc(1);
                if self.enabled
                    && self.start.elapsed() > Duration::from_secs(1)
                    && !self.shown.swap(true, Ordering::Relaxed)
                {
                    self.bar.set_draw_target(ProgressDrawTarget::stderr());
                }
            }
        }
    }

    /// Removes the bar from the terminal.
    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
