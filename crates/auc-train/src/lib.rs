//! Training the registry's learners on files and scoring files with saved models: the library
//! behind `auc train`, `auc stream`, `auc predict` and `auclearn.stream_fit`.
//!
//! [`train_file`] trains algorithm `algo` of [`auc_learners::ALL`] on data files as a
//! [`PrepSpec`] says they are read and prepared, by the route `auc train` takes:
//!
//! - a learner fitted from class moments: one moment pass over the files (parallel blocks of a
//!   plain LIBSVM file), the merged moments solved ([`moments`]);
//! - a one-pass learner: the input read incrementally ([`streamed`]), a file read twice (a first
//!   pass fits the scaling and the reshaping stages, the second learns in memory of the
//!   learner's state plus a few chunks), in file order or through a bounded shuffle buffer;
//! - anything else (a batch learner, a full permutation): the rows in memory ([`in_memory`]).
//!
//! [`score_file`] scores a file with a [`Model`], handing the scores on chunk by chunk.
//!
//! [`default_learner`] is the learner a front end trains when none is named (the blend, or the
//! map learner on a feature map or on wide data).
//!
//! On the same rows, order and preparation the streamed and in-memory routes train the same
//! model, byte for byte (`tests/streamed.rs`).
//!
//! The crate sits above the registry (auc-learners) and the streaming engine (auc-stream), which
//! knows no learner: this is where the two meet. It prints nothing: what a front end says on
//! the way (the positive class, notes, warnings, progress) goes through [`Report`]. Messages
//! name the `auc` command's flags (`--scale`, `--hash-bits`), which the Python keywords mirror.
//!
//! ```no_run
//! use auc_train::{Options, PrepSpec, Silent, score_file, train_file};
//! let algo = auc_learners::lookup("pa-i")?;
//! let spec = PrepSpec::new(
//!     Default::default(),                 // LIBSVM or CSV by the name, no hashing
//!     auc_data::Positive::Auto,           // +1 of a {-1, +1} file, else the minority class
//!     auc_prep::TransformSpec::default(), // --scale auto
//!     None,
//! )?;
//! let paths = vec![std::path::PathBuf::from("train.libsvm")];
//! let trained = train_file(algo, &Default::default(), &paths, &spec, &Options::default(), &Silent)?;
//! let mut scores = Vec::new();
//! score_file(&trained.model, "test.libsvm".as_ref(), &Default::default(), &Silent, |c| {
//!     scores.extend_from_slice(c.scores);
//!     Ok(())
//! })?;
//! # Ok::<(), auc_train::Error>(())
//! ```

pub mod checks;
pub mod default_learner;
pub mod in_memory;
mod map_pass;
pub mod moments;
mod score;
pub mod streamed;

use std::path::PathBuf;
use std::time::Instant;

use auc_core::ParamMap;
use auc_data::Layout;
use auc_learners::{Algorithm, Model, TrainingRecord};
pub use auc_prep::PrepSpec;
pub use auc_stream::memory::{self, Bytes};
pub use auc_stream::{PassOptions, Progress, Report, ShuffleSpec, Silent, fmt_label};

pub use score::{ScoreOptions, Scored, ScoredFile, Scoring, score_file};

/// The error of every route: any cause, printed by a front end with its chain.
pub type Error = auc_stream::Error;

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
    /// Seed 0, the last iterate, file order, parsing on other threads, three quarters of
    /// physical memory, written by `auc-train`.
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
    /// a stream is a buffer as large as any input, refused by its memory check: [`train_file`]
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
            return Err("--threads must be at least 1".into());
        }
        // More threads than cores only adds switching; 100,000 of them kept both cores busy
        // creating threads for minutes (hostile input, item 8).
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = cores.saturating_mul(4);
        if t > most {
            return Err(format!(
                "--threads {t} is more than 4 per core ({cores} cores here): use at most {most}"
            )
            .into());
        }
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}

/// The route a training run takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// One moment pass, the merged class moments solved.
    Moments,
    /// A one-pass learner on its input read incrementally.
    Streamed,
    /// The rows in memory.
    InMemory,
}

/// A model trained by [`train_file`].
pub struct TrainedFile {
    /// The model, ready to be saved (`Model::to_checked_bytes`).
    pub model: Model,
    /// The route it took.
    pub route: Route,
    /// Seconds of the training itself.
    pub seconds: f64,
    /// A batch fit's one-line summary.
    pub summary: Option<String>,
}

/// Trains `algo` with the parameters `given` on `paths` (read in order and concatenated; moment
/// files merged too for a moment learner), read and prepared as `spec` asks, by the route
/// `auc train` takes for it (see the crate docs), and returns the model. Values are read
/// bounded (`ReadOptions::bounded_values`) exactly when the stages leave them unscaled.
pub fn train_file(
    algo: &'static Algorithm,
    given: &ParamMap,
    paths: &[PathBuf],
    spec: &PrepSpec,
    opts: &Options,
    report: &dyn Report,
) -> Result<TrainedFile, Error> {
    algo.check_names(given)?;
    let mut given = given.clone();
    // Without scaling the learner sees the values as read: those whose squares overflow are
    // refused (what the CLI's reading flags set).
    let mut spec = spec.clone();
    spec.read.bounded_values = spec.transform.reads_raw_values();
    let spec = &spec;
    match moments::in_memory_reason(algo, &given, false, false, spec.read.limit, &spec.transform) {
        Some(why) => moments::refuse_moment_files(paths, why)?,
        None => {
            let mut read = spec.read.clone();
            read.dim = None;
            read.bounded_values = false;
            let training = moments::MomentTraining {
                algo,
                given: &given,
                inputs: paths,
                read: &read,
                positive: &spec.positive,
                stages: &spec.transform,
                threads: opts.threads,
                seed: opts.seed,
                limit: opts.max_memory,
            };
            match moments::train_from_moments(training, report)? {
                moments::FromMoments::Trained(fit) => {
                    let mut model = fit.model;
                    model.training.written_by = opts.written_by.clone();
                    return Ok(TrainedFile {
                        model,
                        route: Route::Moments,
                        seconds: fit.pass_seconds + fit.solve_seconds,
                        summary: Some(fit.summary),
                    });
                }
                moments::FromMoments::OverRows {
                    given: over_rows,
                    message,
                } => {
                    report.note(&message);
                    given = over_rows;
                }
            }
        }
    }
    let config = algo.configure(&given)?;
    config.procedure(opts.average)?;
    if algo.is_online() && !matches!(opts.order, Order::Full { .. }) {
        let s = streamed::train_streamed(algo, &given, config, paths, spec, opts, None, report)?;
        return Ok(TrainedFile {
            model: s.model,
            route: Route::Streamed,
            seconds: s.seconds,
            summary: None,
        });
    }
    train_in_memory(algo, &given, config, paths, spec, opts, report)
}

/// The in-memory route of [`train_file`]: the rows loaded and prepared, the learner sketched
/// when its exact state would not fit, its memory checked beside the rows, fitted, checked.
fn train_in_memory(
    algo: &'static Algorithm,
    given: &ParamMap,
    config: Box<dyn auc_learners::Configured>,
    paths: &[PathBuf],
    spec: &PrepSpec,
    opts: &Options,
    report: &dyn Report,
) -> Result<TrainedFile, Error> {
    let what = format!("training {}", algo.name);
    let layout = if algo.is_online() {
        Layout::AsRead
    } else {
        Layout::ByDensity
    };
    let limit = opts.max_memory;
    let loaded =
        in_memory::load_training(spec, paths, &what, layout, limit, opts.order.seed(), report)?;
    let data = &loaded.data;
    let (config, _) =
        checks::fit_in_memory_limit(algo, given, config, data, opts.average, limit, report)?;
    let start = Instant::now();
    let (state, summary) = in_memory::fit(
        config.as_ref(),
        data,
        opts.seed,
        opts.average,
        report.pass().as_ref(),
        algo.name,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let diverged = checks::divergence(state.as_ref(), algo.name, report);
    checks::check_state(state.as_ref(), algo.name)?;
    let (positives, negatives) = data.class_counts();
    let examples = data.n() as u64;
    let in_memory::TrainingData { data, preparation } = loaded;
    drop(data);
    let saved = state.state_bytes().len() as u64;
    checks::check_save_memory(saved, saved, limit, &format!("the {} model", algo.name))?;
    Ok(TrainedFile {
        model: Model {
            algorithm: algo,
            config,
            preparation,
            training: TrainingRecord {
                seed: opts.seed,
                examples,
                positives: positives as u64,
                negatives: negatives as u64,
                diverged,
                written_by: opts.written_by.clone(),
            },
            state,
            calibration: None,
        },
        route: Route::InMemory,
        seconds,
        summary,
    })
}
