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
//!
//! Errors are boxed (`Error`): a pass meets parse errors, memory refusals and its own
//! conditions ([`NotBinary`]) and hands them to a front end that prints their cause chain.

pub mod blocks;
pub mod memory;
mod pass;
mod reader;
mod shaper;
mod survey;
#[cfg(test)]
mod tests;

pub use memory::Bytes;
pub use pass::{BlockPlan, Chunk, Done, run};
pub use reader::{CHUNK_BYTES, FIRST_ROWS, MAX_LABELS, Reader, dense_rows_bytes, rereadable};
pub use shaper::{Classes, NotBinary, Seen, Shaper, final_choice};
pub use survey::{Collect, SampleSpec, Survey, survey};

/// The error of a pass: any cause, printed by the front end with its chain.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

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

/// A label as files write it: `+1` for one, other values as Rust prints them.
pub fn fmt_label(l: f64) -> String {
    if l.to_bits() == 1.0f64.to_bits() {
        "+1".to_owned()
    } else {
        auc_core::shortest(l)
    }
}
