//! The application layer: training the registry's learners and scoring files with saved models,
//! the one library behind `auc train`, `auc predict`, `auc moments`, `auclearn`'s fits and
//! `auclearn.stream_fit` / `scores_file`.
//!
//! A front end builds a [`TrainRequest`] (a [`Learner`]: named, the default rule or the model
//! being resumed; its parameters; a [`PrepSpec`]; the [`Input`]; [`Options`]: seed, averaging,
//! order, threads, the memory budget; `--tune`, `--calibrate`, `--resume`) and calls [`train`],
//! which chooses the route in one function ([`choose_route`]) and runs it:
//!
//! - a learner fitted from class moments: one moment pass over the files (parallel blocks of a
//!   plain LIBSVM file), the merged moments solved ([`moments`]);
//! - a one-pass learner: the input read incrementally ([`streamed`]), a file read twice (a first
//!   pass fits the scaling and the reshaping stages, the second learns in memory of the
//!   learner's state plus a few chunks), in file order or through a bounded shuffle buffer;
//! - anything else (a batch learner, `--tune`, a cross-validated calibration, a full
//!   permutation): the rows in memory ([`in_memory`], [`tune`], [`calibrate`]);
//! - a saved one-pass model continued on more rows ([`resume`]).
//!
//! [`score_file`] scores a file with a [`auc_learners::Model`], handing the scores on chunk by
//! chunk. [`default_learner`] is the learner trained when none is named.
//!
//! On the same rows, order and preparation the streamed and in-memory routes train the same
//! model, byte for byte (`tests/streamed.rs`).
//!
//! The crate sits above the registry (auc-learners), the protocol (auc-eval, for `--tune`) and
//! the streaming engine (auc-stream), which knows no learner: this is where they meet. It prints
//! nothing: what a front end says on the way (the positive class, notes, warnings, progress)
//! goes through [`Report`]. Every refusal is a variant of [`Error`], which each front end maps
//! once. Messages name the `auc` command's flags (`--scale`, `--hash-bits`), which the Python
//! keywords mirror.
//!
//! ```no_run
//! use auc_train::{Input, Learner, PrepSpec, Silent, TrainRequest, score_file, train};
//! let spec = PrepSpec::new(
//!     Default::default(),                 // LIBSVM or CSV by the name, no hashing
//!     auc_data::Positive::Auto,           // +1 of a {-1, +1} file, else the minority class
//!     auc_prep::TransformSpec::default(), // --scale auto
//!     None,
//! )?;
//! let input = Input::Files(vec!["train.libsvm".into()]);
//! let learner = Learner::Named(auc_learners::lookup("pa-i")?);
//! let trained = train(TrainRequest::new(learner, spec, input), &Silent)?;
//! let mut scores = Vec::new();
//! score_file(&trained.model, "test.libsvm".as_ref(), &Default::default(), &Silent, |c| {
//!     scores.extend_from_slice(c.scores);
//!     Ok(())
//! })?;
//! # Ok::<(), auc_train::Error>(())
//! ```

pub mod arrays;
pub mod calibrate;
pub mod checks;
pub mod default_learner;
mod error;
pub mod importance;
pub mod in_memory;
mod map_pass;
pub mod moments;
mod outcome;
mod request;
pub mod resume;
mod route;
mod rows;
mod score;
pub mod streamed;
pub mod tune;

pub use auc_prep::PrepSpec;
pub use auc_stream::memory::{self, Bytes};
pub use auc_stream::{PassOptions, Progress, Report, ShuffleSpec, Silent, fmt_label};

pub use score::{ScoreOptions, Scored, ScoredFile, Scoring, score_file};

pub use error::{Error, Refusal};
pub use outcome::{MomentSeconds, Route, TrainOutcome};
pub use request::{Arrays, Calibrate, CalibrateOn, Input, Learner, TrainRequest, Tune};
pub use route::{PREQUENTIAL_CALIBRATION_ROWS, choose_route, train};
pub use rows::{RowPass, RowSource};

/// The order a one-pass learner sees the rows in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// File order (files sorted by class make one-pass learners fail: shuffle them).
    #[default]
    File,
    /// Each row drawn from a bounded shuffle buffer (the full permutation of [`Order::Full`]
    /// with the same seed when the input fits in the buffer); in memory, the full permutation.
    Buffer(ShuffleSpec),
    /// A full random permutation drawn from `seed`, which needs the input in memory.
    Full {
        /// The seed of the permutation.
        seed: u64,
    },
}

impl Order {
    /// The order of the CLI's flags: `--shuffle SEED`, `--shuffle-buffer N`, `--shuffle-full`.
    pub fn from_flags(shuffle: Option<u64>, buffer: u64, full: bool) -> Order {
        match (shuffle, full) {
            (None, _) => Order::File,
            (Some(seed), true) => Order::Full { seed },
            (Some(seed), false) => Order::Buffer(ShuffleSpec { seed, rows: buffer }),
        }
    }

    /// The seed of the permutation of rows in memory, if any.
    pub fn seed(&self) -> Option<u64> {
        match self {
            Order::File => None,
            Order::Buffer(s) => Some(s.seed),
            Order::Full { seed } => Some(*seed),
        }
    }
}

/// What training needs besides the algorithm, its parameters and the preparation.
#[derive(Clone, Debug)]
pub struct Options {
    /// The seed of the learner's own random choices (reservoirs, landmarks).
    pub seed: u64,
    /// Score with the average of the iterates (linear one-pass learners).
    pub average: bool,
    /// The order of the rows.
    pub order: Order,
    /// Parse on other threads than the learner's (a parser thread or parallel blocks).
    pub threaded: bool,
    /// Worker threads of a moment pass (all cores when `None`).
    pub threads: Option<usize>,
    /// The memory a run may take: refused before anything larger is allocated.
    pub max_memory: Bytes,
    /// What the model's training record says wrote it (`auc 0.1.0`).
    pub written_by: String,
}

impl Default for Options {
    /// Seed 0, the last iterate, file order, parsing on other threads, the default memory
    /// limit (three quarters of the least of physical memory, the cgroup's limit and the
    /// rlimits: `auc_stream::memory::limit`), written by `auc-train`.
    fn default() -> Self {
        Options {
            seed: 0,
            average: false,
            order: Order::File,
            threaded: true,
            threads: None,
            max_memory: auc_stream::memory::limit(None),
            written_by: format!("auc-train {}", env!("CARGO_PKG_VERSION")),
        }
    }
}

impl Options {
    /// The engine's options of a streamed pass: the shuffle buffer (a full permutation asked of
    /// a stream is a buffer as large as any input, refused by its memory check: [`train`]
    /// routes it to memory), the parser threads, the memory limit.
    pub fn pass(&self) -> PassOptions {
        PassOptions {
            shuffle: match self.order {
                Order::File => None,
                Order::Buffer(s) => Some(s),
                Order::Full { seed } => Some(ShuffleSpec {
                    seed,
                    rows: u64::MAX,
                }),
            },
            threaded: self.threaded,
            limit: self.max_memory,
        }
    }
}

/// A thread pool of `threads` workers (all cores when `None`).
pub fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err(Error::usage("--threads must be at least 1"));
        }
        // More threads than cores only adds switching; 100,000 of them kept both cores busy
        // creating threads for minutes (hostile input, item 8).
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = cores.saturating_mul(4);
        if t > most {
            return Err(Error::usage(format!(
                "--threads {t} is more than 4 per core ({cores} cores here): use at most {most}"
            )));
        }
        b = b.num_threads(t);
    }
    b.build()
        .map_err(|e| Error::Engine(auc_stream::Error::Thread(e.to_string())))
}
