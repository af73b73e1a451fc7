//! The streaming engine: reading training or scoring input incrementally, in memory bounded by a
//! few chunks whatever the number of rows, with the rows the in-memory path would give, bit for bit.
//!
//! - [`Reader`] reads several inputs one after the other in chunks of about [`CHUNK_BYTES`] of
//!   prepared rows (files, standard input, gzip).
//! - [`survey`] is the first pass over files that can be read twice: the feature ranges a scaling
//!   is fitted on, the label counts the default positive class needs, the dimension.
//! - [`Shaper`] turns a chunk as read into the rows a learner sees (binarized, padded, through the
//!   fitted [`auc_prep::Transform`]).
//! - [`run`] drives a pass: a parser thread and a bounded channel, or plain LIBSVM files parsed in
//!   parallel blocks on the rayon pool ([`blocks`]) and handed on in file order.
//! - [`memory`] estimates bytes before they are allocated and refuses above a limit.
//! - [`plan`] decides a streamed training pass before it starts: the first pass over a file read
//!   twice, the positive class, the fitted stages, the starting dimension ([`Plan`]).
//! - [`learn_pass`] feeds a pass to a one-pass learner ([`Learning`]): in file order or through
//!   a bounded [`Shuffle`] buffer, growing it when a wider row appears, counting the classes and
//!   handing each row's score before the step to an observer (prequential evaluation).
//!
//! It knows no learner: the learner of a pass is a `&mut dyn auc_core::OnlineLearner` that the
//! caller built (the registry is one layer up, in `auc-train`), and a scoring caller consumes the
//! chunks itself.
//!
//! Errors are one typed enum ([`Error`]): a pass meets parse errors, memory refusals
//! ([`memory::Refusal`]) and its own conditions ([`NotBinary`]), each a variant a caller can
//! match on; a front end prints their cause chain. What a
//! front end says on the way (the positive class chosen, warnings, progress) goes through
//! [`Report`].

pub mod blocks;
mod error;
mod learn;
pub mod memory;
mod pass;
mod plan;
mod reader;
mod shaper;
mod shuffle;
mod survey;
#[cfg(test)]
mod tests;

pub use learn::{GrowCheck, Learning, Observer, PassOptions, ShuffleSpec, learn_pass};
pub use memory::Bytes;
pub use pass::{BlockPlan, Chunk, Done, run};
pub use plan::{Plan, ReadOnce, check_stages_fit, given_classes, need_both, plan, plan_beside};
pub use reader::{CHUNK_BYTES, FIRST_ROWS, MAX_LABELS, Reader, dense_rows_bytes, rereadable};
pub use shaper::{Classes, NotBinary, Seen, Shaper, final_choice};
pub use shuffle::{Shuffle, Window, permutation};
pub use survey::{Collect, RangesCheck, SampleSpec, Survey, no_check, survey, survey_beside};

pub use error::Error;

/// How far a pass over the input has come, for a front end that shows it (the CLI's progress
/// bar). Every method does nothing by default.
pub trait Progress: Sync {
    /// A pass named `what` starts over `total` bytes of input (when known).
    fn start(&self, what: &str, total: Option<u64>) {
        let _ = (what, total);
    }
    /// `bytes` of input read and `rows` done so far.
    fn update(&self, bytes: u64, rows: u64) {
        let _ = (bytes, rows);
    }
    /// The pass has ended.
    fn finish(&self) {}
}

/// Progress that nobody watches.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

/// What a front end is told while a plan or a pass runs: the positive class a first pass chose,
/// notes and warnings, the moment between the two passes over a file, and a progress display
/// for each pass. Every method does nothing by default ([`Silent`]); the CLI prints them on
/// stderr, the Python package collects the warnings.
pub trait Report: Sync {
    /// The positive class chosen (by a first pass, or at the end of a stream read once), with
    /// the class counts.
    fn positive_class(&self, choice: &auc_data::PositiveChoice, positives: u64, negatives: u64) {
        let _ = (choice, positives, negatives);
    }
    /// Something the user should know that is not a problem (a learner sketched to fit the
    /// memory, a fit routed to the rows).
    fn note(&self, text: &str) {
        let _ = text;
    }
    /// Something that may be a problem but did not stop the run (a divergence, features left
    /// unscaled).
    fn warning(&self, text: &str) {
        let _ = text;
    }
    /// The first pass over the input has ended and the second has not begun.
    fn between_passes(&self) {}
    /// A fresh progress display for the next pass over the input.
    fn pass(&self) -> Box<dyn Progress + '_> {
        Box::new(Silent)
    }
    /// A fresh progress display of a one-pass learner over rows in memory, counted in rows.
    fn rows(&self) -> Box<dyn Progress + '_> {
        Box::new(Silent)
    }
    /// A fresh progress display of a cross-validation, counted in fits: `start(what, total)`
    /// (again when the total is known), `update(0, fits done)`.
    fn fits(&self) -> Box<dyn Progress + '_> {
        Box::new(Silent)
    }
}

impl Report for Silent {}

/// A label as files write it: `+1` for one, other values as Rust prints them.
pub fn fmt_label(l: f64) -> String {
    if l.to_bits() == 1.0f64.to_bits() {
        "+1".to_owned()
    } else {
        auc_core::shortest(l)
    }
}
