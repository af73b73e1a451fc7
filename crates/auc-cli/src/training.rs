//! What `auc train` and `auc stream` share: the learning flags ([`LearnArgs`]), the one
//! [`auc_prep::PrepSpec`] and the `auc_train::Options` they build for their request, and the
//! reports of a trained model (the optimality certificate, its features in words). The work,
//! with every check, is `auc_train`'s.

use std::path::PathBuf;

use auc_data::{ReadOptions, Scaling};
use auc_learners::{Certificate, Trained};
use auc_prep::{PrepError, PrepSpec};
pub(crate) use auc_train::checks::check_average;

use crate::hyper::HyperArgs;
use crate::input::{self, ReadArgs};
use crate::output::Error;
use crate::stage_args::StageArgs;
use auc_stream::memory::{self, Bytes};

/// What training needs besides the algorithm: parameters, preparation, order, seed, reading.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    #[command(flatten)]
    pub(crate) hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one (linear
    /// one-pass learners only).
    #[arg(long)]
    pub(crate) average: bool,
    #[command(flatten)]
    pub(crate) stages: StageArgs,
    /// Take the scaling from FILE instead of a first pass over the data: a model file (its
    /// fitted scaling, as it is) or the output of `auc info --json` (its feature ranges, fitted
    /// as --scale says). What standard input and pipes, which are read once, need to be scaled.
    #[arg(long, value_name = "FILE", help_heading = "Preparation")]
    pub(crate) scale_from: Option<PathBuf>,
    /// Feed the examples in a random order drawn from SEED; by default the file order is kept
    /// (files sorted by class make one-pass learners fail: shuffle them). A one-pass learner
    /// draws each example from a buffer of --shuffle-buffer rows (an approximation of a random
    /// permutation that keeps memory bounded; the full permutation when the input fits in the
    /// buffer); --shuffle-full permutes the whole input in memory.
    #[arg(long, value_name = "SEED", help_heading = "Order")]
    pub(crate) shuffle: Option<u64>,
    /// Rows of the shuffle buffer (memory: this many rows).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Order")]
    pub(crate) shuffle_buffer: u64,
    /// With --shuffle, load the input in memory and feed it in a full random permutation.
    #[arg(long, requires = "shuffle", help_heading = "Order")]
    pub(crate) shuffle_full: bool,
    /// The number of features, fixed up front (an index past it is an error). By default a
    /// first pass over a file finds it, and a learner reading standard input grows its state
    /// when a larger index appears.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Reading")]
    pub(crate) dim: Option<u64>,
    /// Parse and learn on one thread, one after the other, instead of overlapping them on two
    /// (for measurements, or a machine with one core).
    #[arg(long)]
    pub(crate) one_thread: bool,
    /// Seed of the learner's own random choices (reservoir buffers, the core vector machine's
    /// sampling).
    #[arg(long, default_value_t = 0)]
    pub(crate) seed: u64,
    /// Keep only the first N examples.
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Refuse to start (or to grow the learner) when it and the data in memory would need more
    /// than this (8G, 512M). Default: three quarters of the least of physical memory, the cgroup's memory limit and RLIMIT_AS / RLIMIT_DATA.
    #[arg(long, value_name = "SIZE")]
    pub(crate) max_memory: Option<Bytes>,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
}

impl LearnArgs {
    /// The reader options: the reading flags, `--limit` and `--dim`; without scaling the learner
    /// sees the values as read, so those whose squares overflow are refused.
    pub(crate) fn options(&self) -> Result<ReadOptions, Error> {
        let mut opts = self.read.options(self.limit)?;
        opts.dim = self.dim.map(|d| d as usize);
        opts.bounded_values = self.stages.spec().reads_raw_values();
        Ok(opts)
    }

    /// What was asked about reading and preparing the data, built and checked once.
    pub(crate) fn prep_spec(&self) -> Result<PrepSpec, Error> {
        let stages = self.stages.spec();
        let scale_from = match &self.scale_from {
            Some(_) if stages.scaling == Scaling::None => {
                return Err(PrepError::ScaleFromWithoutScaling.into());
            }
            Some(path) => Some(input::load_scale_from(path)?),
            None => None,
        };
        Ok(PrepSpec::new(
            self.options()?,
            self.read.positive_rule(),
            stages,
            scale_from,
        )?)
    }

    /// What the library's routes need besides the algorithm and the preparation: seed,
    /// averaging, order, threads, `--max-memory`; `threads` are the moment pass's workers.
    pub(crate) fn train_options(&self, threads: Option<usize>) -> auc_train::Options {
        auc_train::Options {
            seed: self.seed,
            average: self.average,
            order: auc_train::Order::from_flags(
                self.shuffle,
                self.shuffle_buffer,
                self.shuffle_full,
            ),
            threaded: !self.one_thread,
            threads,
            max_memory: memory::limit(self.max_memory),
            written_by: written_by(),
        }
    }
}

/// The optimality certificate of a model fitted by an iterative solver that certifies its result
/// (a `converged` entry in its description, e.g. the moment learners' Newton method), as JSON
/// for `--json`: `converged`, `solver_steps`, `distance_bound` and `tolerance`. A fit that
/// stopped short of its tolerance (step cap, rounding floor) is never silent: a warning on
/// stderr names the algorithm, the steps and the certified distance.
pub(crate) fn certificate(state: &dyn Trained, algo: &str) -> Option<Certificate> {
    let cert = state.certificate()?;
    if !cert.converged {
        crate::notes::warning(format_args!(
            "{algo} stopped after {} solver steps without meeting its tolerance: the certificate only guarantees ||w - w*|| <= {:.3e} (tolerance {:.1e}); the model is saved, but it is not the exact minimizer (see max_steps)",
            cert.solver_steps, cert.distance_bound, cert.tolerance,
        ));
    }
    Some(cert)
}

/// `13 features`, or with a map `13 features mapped to 500 (nystroem)`, with one-hot
/// indicators `13 features mapped to 40 (one-hot)`: what a model's learner was trained on, for
/// the message after training.
pub(crate) fn features_text(p: &auc_prep::Preparation) -> String {
    let t = &p.transform;
    let how = match (t.one_hot(), t.feature_map()) {
        (None, None) => return format!("{} features", p.dim),
        (Some(_), None) => "one-hot".to_owned(),
        (None, Some(m)) => m.kind().to_string(),
        (Some(_), Some(m)) => format!("one-hot, {}", m.kind()),
    };
    format!(
        "{} features mapped to {} ({how})",
        p.dim,
        t.output_dim(p.dim)
    )
}

pub(crate) fn written_by() -> String {
    format!("auc {}", env!("CARGO_PKG_VERSION"))
}
