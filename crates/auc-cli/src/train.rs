//! `auc train` and `auc stream`: training a model file (new, tuned or resumed) and prequential
//! (test-then-train) evaluation.
//!
//! A one-pass learner reads its input incrementally ([`crate::feed`]): chunks parsed and prepared
//! on a parser thread (a plain LIBSVM file: blocks parsed in parallel on the rayon pool, in file
//! order) feed the learner through a bounded channel, in memory of the learner's state plus a
//! few chunks or a window of blocks, whatever the number of rows. A file is read twice, a first pass
//! finding what must be known before the first update (the feature ranges of the scaling, the
//! label counts of the default positive class, the dimension); an input that can be read only
//! once (standard input, a pipe) takes its scaling from `--scale-from` or goes unscaled, takes
//! the binary rule for its positive class (or `--positive`), and grows the learner when a larger
//! feature index appears. `--shuffle` uses a bounded shuffle buffer.
//!
//! Batch learners, `--tune` and `--shuffle-full` load the input in memory (a batch fit and a
//! cross-validation need every row; a full permutation too). On the same rows, order and scaling
//! both paths train the same model, byte for byte.
//!
//! Either way training picks the positive class, fits or takes the scaling, checks the memory
//! the learner will take (again before it grows), trains, reports a run that diverged, refuses
//! one-class input, checks the final state and writes the model file atomically after reading it
//! back.

use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::{DataShape, Dataset, Label, OnlineLearner, ParamMap, Row, RowBuf};
use auc_data::{Layout, PositiveChoice, ReadOptions, Scaler, Scaling};
use auc_eval::curve::CurvePoint;
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig};
use auc_eval::metrics::{MetricError, RunningAuc};
use auc_learners::{Algorithm, Configured, Model, Preparation, Trained, TrainingRecord, lookup};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

use crate::commands::{PrepArgs, grid_points, pool};
use crate::feed::{self, Classes, Prep, Reader};
use crate::hyper::HyperArgs;
use crate::input::{self, ReadArgs, ScaleFrom};
use crate::memory::{self, Bytes};
use crate::output::{Error, line, write_atomic, write_text};
use crate::plot;
use crate::progress::Bar;

/// Flags of `auc train`.
#[derive(clap::Args, Debug)]
pub(crate) struct TrainArgs {
    /// Data file(s), read in order and concatenated (`-` for standard input; gzip is detected).
    /// Learners fitted from class moments also take moment files (`auc moments`), merged with
    /// the data's moments.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The model file to write (atomically; `-` writes it to stdout).
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// Algorithm name (see `auc algos`); taken from the model with --resume. Every parameter
    /// has a default (`auc algos` lists them).
    #[arg(long, required_unless_present = "resume")]
    algo: Option<String>,
    /// Continue training a saved one-pass model on DATA, with its parameters, positive class,
    /// reading and scaling. Without --shuffle the result equals one uninterrupted run over both
    /// inputs in order. Batch models cannot be continued.
    #[arg(long, value_name = "MODEL0")]
    resume: Option<PathBuf>,
    /// Choose the parameters first by stratified cross-validation on DATA over the
    /// algorithm's default grid (or the --grid axes), print them, and save the model fitted
    /// with them. Loads DATA in memory.
    #[arg(long)]
    tune: bool,
    /// A grid axis for --tune, NAME=SPEC as in `auc cv` (repeatable).
    #[arg(long = "grid", value_name = "NAME=SPEC", requires = "tune")]
    grid: Vec<String>,
    /// Folds of the --tune cross-validation.
    #[arg(long, default_value_t = 5)]
    folds: usize,
    /// Worker threads of --tune and of the moment pass of learners fitted from moments
    /// (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print a JSON object describing the run on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    learn: LearnArgs,
}

/// What training needs besides the algorithm: parameters, preparation, order, seed, reading.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    #[command(flatten)]
    hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one (linear
    /// one-pass learners only).
    #[arg(long)]
    average: bool,
    #[command(flatten)]
    prep: PrepArgs,
    /// Take the scaling from FILE instead of a first pass over the data: a model file (its
    /// fitted scaling, as it is) or the output of `auc info --json` (its feature ranges, fitted
    /// as --scale says). What standard input and pipes, which are read once, need to be scaled.
    #[arg(long, value_name = "FILE", help_heading = "Preparation")]
    scale_from: Option<PathBuf>,
    /// Feed the examples in a random order drawn from SEED; by default the file order is kept
    /// (files sorted by class make one-pass learners fail: shuffle them). A one-pass learner
    /// draws each example from a buffer of --shuffle-buffer rows (an approximation of a random
    /// permutation that keeps memory bounded; the full permutation when the input fits in the
    /// buffer); --shuffle-full permutes the whole input in memory.
    #[arg(long, value_name = "SEED", help_heading = "Order")]
    shuffle: Option<u64>,
    /// Rows of the shuffle buffer (memory: this many rows).
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Order")]
    shuffle_buffer: u64,
    /// With --shuffle, load the input in memory and feed it in a full random permutation.
    #[arg(long, requires = "shuffle", help_heading = "Order")]
    shuffle_full: bool,
    /// The number of features, fixed up front (an index past it is an error). By default a
    /// first pass over a file finds it, and a learner reading standard input grows its state
    /// when a larger index appears.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u64).range(1..), help_heading = "Reading")]
    dim: Option<u64>,
    /// Parse and learn on one thread, one after the other, instead of overlapping them on two
    /// (for measurements, or a machine with one core).
    #[arg(long)]
    one_thread: bool,
    /// Seed of the learner's own random choices (reservoir buffers, the core vector machine's
    /// sampling).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Keep only the first N examples.
    #[arg(long)]
    limit: Option<usize>,
    /// Refuse to start (or to grow the learner) when it and the data in memory would need more
    /// than this (8G, 512M). Default: three quarters of physical memory.
    #[arg(long, value_name = "SIZE")]
    max_memory: Option<Bytes>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Flags of `auc stream`.
#[derive(clap::Args, Debug)]
pub(crate) struct StreamArgs {
    /// Algorithm name (see `auc algos`), a one-pass learner.
    #[arg(long)]
    algo: String,
    /// Data file(s), read in order and concatenated (`-` for standard input).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Print the AUC of all scores so far after every N examples (and at the end), as the
    /// stream is read.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Draw the prequential curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    learn: LearnArgs,
    /// One JSON object per point, then a summary.
    #[arg(long)]
    json: bool,
}

impl LearnArgs {
    /// The reader options: the reading flags, `--limit` and `--dim`.
    fn options(&self) -> Result<ReadOptions, Error> {
        let mut opts = self.read.options(self.limit)?;
        opts.dim = self.dim.map(|d| d as usize);
        Ok(opts)
    }

    /// The dimension fixed up front: `--dim`, or 2^B with `--hash-bits B`.
    fn fixed_dim(&self) -> Option<usize> {
        self.dim
            .map(|d| d as usize)
            .or(self.read.hash_bits.map(|b| 1usize << b))
    }

    /// The `--scale-from` ranges, checked against the scaling flags.
    fn scale_from(&self) -> Result<Option<ScaleFrom>, Error> {
        let Some(path) = &self.scale_from else {
            return Ok(None);
        };
        if self.prep.scaling() == Scaling::None {
            return Err(
                "--scale-from takes the scaling from a file, --scale none (or --no-scale) asks for none: give one of them".into(),
            );
        }
        Ok(Some(ScaleFrom::load(path, self.read.hash_bits)?))
    }
}

/// Training data read in memory, binarized and prepared, with the preparation a model stores.
struct Prepared {
    data: Dataset,
    preparation: Preparation,
}

/// `data` in a random order drawn from `seed`, or unchanged.
fn shuffled(data: Dataset, seed: Option<u64>) -> Dataset {
    match seed {
        None => data,
        Some(s) => {
            let mut idx: Vec<usize> = (0..data.n()).collect();
            idx.shuffle(&mut StdRng::seed_from_u64(s));
            data.select(&idx)
        }
    }
}

/// Reads the training input in memory, reports the positive class, refuses one-class data, fits
/// the scaling on it (or takes `--scale-from`'s), checking the memory of a scaling that would
/// densify sparse data. `layout` is the rows' storage: one-pass learners see them as read (as a
/// stream does), batch learners by density.
///
/// Each stage drops the copy it no longer needs, so at most two copies of the rows are alive at
/// once (the file's rows as read, then binarized, scaled and ordered).
fn prepare(
    learn: &LearnArgs,
    paths: &[PathBuf],
    what: &str,
    layout: Layout,
) -> Result<Prepared, Error> {
    let limit = memory::limit(learn.max_memory);
    let scale_from = learn.scale_from()?;
    let raw = input::read_with(&learn.options()?, paths, learn.limit)?;
    memory::check(
        raw.stored_bytes(),
        limit,
        "the data",
        "use --limit or --hash-bits",
    )?;
    let (mut data, choice) = input::binarize(&raw, &learn.read.positive_rule(), layout)?;
    let reading = raw.reading().clone();
    drop(raw);
    input::need_both_classes(&data, what)?;
    let scaling = learn.prep.scaling();
    let scaler = match &scale_from {
        Some(s) => {
            if s.dim > data.dim() {
                data = data.with_dim(s.dim);
            }
            s.scaler(scaling)?
        }
        None => {
            memory::check(
                Scaler::bytes_for(data.dim()),
                limit,
                "fitting the scaling",
                "use --hash-bits B to fold the features into 2^B",
            )?;
            Scaler::fit(scaling, &data)
        }
    };
    if matches!(scaler, Scaler::MinMax { .. }) && data.is_sparse() {
        memory::check(
            auc_data::dense_bytes(data.n(), data.dim()),
            limit,
            "min-max scaling (which makes sparse data dense)",
            "use --scale maxabs, which keeps zeros zero",
        )?;
    }
    let preparation = Preparation {
        reading,
        positive_labels: choice.labels.clone(),
        positive_rule: choice.rule.to_string(),
        dim: data.dim(),
        hash_bits: learn.read.hash_bits,
        scaler,
        unit_norm: learn.prep.unit_norm,
    };
    let prepared = preparation.apply(&data);
    drop(data);
    Ok(Prepared {
        data: shuffled(prepared, learn.shuffle),
        preparation,
    })
}

/// The shape of a training set, for memory estimates.
fn shape(data: &Dataset) -> DataShape {
    let (positives, negatives) = data.class_counts();
    DataShape {
        n: data.n(),
        dim: data.dim(),
        positives,
        negatives,
    }
}

/// The shape that sizes a one-pass learner's state: only the dimension matters.
fn dim_shape(dim: usize) -> DataShape {
    DataShape {
        dim,
        ..DataShape::default()
    }
}

/// Streams `data` through a one-pass learner, with a progress bar on a terminal.
fn stream_into(learner: &mut dyn OnlineLearner, data: &Dataset, what: &str) {
    let bar = Bar::rows(what, data.n() as u64);
    for (i, (x, y)) in data.iter().enumerate() {
        learner.update(x, y);
        if i % 4096 == 4095 {
            bar.set(i as u64 + 1);
        }
    }
    bar.finish();
}

/// Prints a divergence warning and returns its text for the model file.
fn warn_divergence(state: &dyn Trained, algo: &str) -> Option<String> {
    let d = state.divergence()?;
    eprintln!("auc: warning: {algo} diverged: {d}");
    Some(d.to_string())
}

/// The optimality certificate of a model fitted by an iterative solver that certifies its result
/// (a `converged` entry in its description, e.g. the moment learners' Newton method), as JSON
/// for `--json`: `converged`, `solver_steps`, `distance_bound` and `tolerance`. A fit that
/// stopped short of its tolerance (step cap, rounding floor) is never silent: a warning on
/// stderr names the algorithm, the steps and the certified distance.
pub(crate) fn certificate(state: &dyn Trained, algo: &str) -> Option<serde_json::Value> {
    let d = state.describe();
    let converged = d.get("converged")?.as_bool()?;
    let cert = json!({
        "converged": converged,
        "solver_steps": d["solver_steps"],
        "distance_bound": d["distance_bound"],
        "tolerance": d["tolerance"],
    });
    if !converged {
        eprintln!(
            "auc: warning: {algo} stopped after {} solver steps without meeting its tolerance: the certificate only guarantees ||w - w*|| <= {:.3e} (tolerance {:.1e}); the model is saved, but it is not the exact minimizer (see max_steps)",
            d["solver_steps"],
            d["distance_bound"].as_f64().unwrap_or(f64::NAN),
            d["tolerance"].as_f64().unwrap_or(f64::NAN),
        );
    }
    Some(cert)
}

/// Checks the trained state before it is saved: a state that is not finite (features too large
/// without scaling) is an error, never a model that scores NaN.
fn check_state(state: &dyn Trained, algo: &str) -> Result<(), Error> {
    state.validate().map_err(|e| {
        format!(
            "training {algo} left an unusable state ({e}); the features are probably too large for it unscaled: use --scale"
        )
        .into()
    })
}

/// The parameters given, checked against the algorithm, and whether they ask for the
/// transductive mode.
fn given_params(algo: &Algorithm, hyper: &HyperArgs) -> Result<(ParamMap, bool), Error> {
    let given = hyper.to_map()?;
    algo.check_names(&given)?;
    let transductive = match given.get("transductive") {
        Some(auc_core::ParamValue::Bool(b)) => *b,
        Some(auc_core::ParamValue::Num(v)) => v.to_bits() == 1f64.to_bits(),
        _ => false,
    };
    Ok((given, transductive))
}

pub(crate) fn train(a: TrainArgs) -> Result<(), Error> {
    if let Some(path) = a.resume.clone() {
        return resume(a, &path);
    }
    let algo = lookup(a.algo.as_deref().unwrap_or_default())?;
    let (given, transductive) = given_params(algo, &a.learn.hyper)?;
    check_average(algo, a.learn.average)?;
    if !algo.is_online() && transductive {
        return Err(format!(
            "transductive=true needs the rows to be scored while {} fits; `auc train` fits on the training rows alone and saves the inductive model (leave the parameter out; `auc cv` measures the transductive mode)",
            algo.name
        )
        .into());
    }
    if let Some(why) =
        crate::moments::in_memory_reason(algo, a.tune, a.learn.limit, a.learn.prep.unit_norm)
    {
        crate::moments::refuse_moment_files(&a.data, why)?;
    } else {
        return crate::moments::train(crate::moments::TrainFromMoments {
            algo,
            given: &given,
            inputs: &a.data,
            output: &a.output,
            read: &a.learn.read,
            prep: &a.learn.prep,
            threads: a.threads,
            seed: a.learn.seed,
            max_memory: a.learn.max_memory,
            json: a.json,
        });
    }
    let config = algo.configure(&given)?;
    config.procedure(a.learn.average)?;
    if algo.is_online() && !a.tune && !a.learn.shuffle_full {
        return train_streaming(&a, algo, config);
    }
    train_in_memory(&a, algo, &given, config)
}

/// Trains with the whole input in memory: a batch learner, `--tune`, `--shuffle-full`.
fn train_in_memory(
    a: &TrainArgs,
    algo: &'static Algorithm,
    given: &ParamMap,
    mut config: Box<dyn Configured>,
) -> Result<(), Error> {
    let what = format!("training {}", algo.name);
    let layout = if algo.is_online() {
        Layout::AsRead
    } else {
        Layout::ByDensity
    };
    let prepared = prepare(&a.learn, &a.data, &what, layout)?;
    let data = &prepared.data;
    let limit = memory::limit(a.learn.max_memory);
    memory::check(
        config.memory_bytes(&shape(data), a.learn.average),
        limit,
        &format!(
            "{} on {} rows of {} features",
            algo.name,
            data.n(),
            data.dim()
        ),
        "use --hash-bits B to fold the features into 2^B, or a learner with O(p) state (pa-i, solam, perceptron)",
    )?;
    let mut tuned = None;
    if a.tune {
        let t = tune(a, algo, given, data)?;
        config = algo.configure(&t.params)?;
        tuned = Some(t);
    }
    let start = Instant::now();
    let (state, summary) = fit(config.as_ref(), algo, data, &a.learn)?;
    let seconds = start.elapsed().as_secs_f64();
    let diverged = warn_divergence(state.as_ref(), algo.name);
    check_state(state.as_ref(), algo.name)?;
    let (positives, negatives) = data.class_counts();
    let model = Model {
        algorithm: algo,
        config,
        preparation: prepared.preparation,
        training: TrainingRecord {
            seed: a.learn.seed,
            examples: data.n() as u64,
            positives: positives as u64,
            negatives: negatives as u64,
            diverged,
            written_by: written_by(),
        },
        state,
    };
    save(a, &model, seconds, summary.as_deref(), tuned.as_ref())
}

fn written_by() -> String {
    format!("auc {}", env!("CARGO_PKG_VERSION"))
}

/// How a streamed pass reads and prepares its input, decided before it starts (after the first
/// pass over a file).
struct Plan {
    /// A file read once on the hope that its labels are binary (see [`plan`]).
    hopeful: bool,
    opts: ReadOptions,
    classes: Classes,
    /// The positive class chosen by a first pass, with its reason (`None`: decided by the pass).
    choice: Option<PositiveChoice>,
    scaler: Scaler,
    /// Where `--scale-from` took the scaling from, and the dimension it covers.
    scaled_from: Option<(PathBuf, usize)>,
    /// The learner's dimension at the start.
    dim: usize,
}

/// Decides how to stream `paths` for `learn`: runs the first pass over files that can be read
/// twice when something must be known before learning (the scaling's ranges, the label counts of
/// the default positive class, the dimension), refuses one-class files before the second pass,
/// and refuses input read once that would need a first pass for its scaling.
///
/// With `hopeful`, a file whose scaling needs no ranges and whose positive class is not given is
/// read once, as standard input is (binary labels checked row by row, the dimension grown on the
/// way); `Plan::hopeful` says so, and a [`feed::NotBinary`] error of that pass means: plan
/// again without `hopeful` (a first pass counts the labels) and start over.
fn plan(
    learn: &LearnArgs,
    paths: &[PathBuf],
    what: &str,
    limit: Bytes,
    hopeful: bool,
) -> Result<Plan, Error> {
    let mut opts = learn.options()?;
    let scale_from = learn.scale_from()?;
    let scaling = learn.prep.scaling();
    let need_ranges = scaling != Scaling::None && scale_from.is_none();
    let reread = feed::rereadable(paths);
    if need_ranges && !reread {
        let once: Vec<String> = paths
            .iter()
            .filter(|p| !feed::rereadable(std::slice::from_ref(p)))
            .map(|p| p.display().to_string())
            .collect();
        return Err(format!(
            "{what}: {} can be read only once, so the scaling (--scale {scaling}) cannot be fitted on it before learning starts: pass --scale-from FILE (a model trained on such data, or the output of `auc info --json` on a sample of it) or --scale none",
            if once.iter().all(|o| o == "-") {
                "standard input".to_owned()
            } else {
                once.join(", ")
            }
        )
        .into());
    }
    let given = learn.read.positive.clone();
    let fixed = learn.fixed_dim();
    let hopeful = hopeful && reread && !need_ranges;
    let survey = if reread && !hopeful && (need_ranges || given.is_none() || fixed.is_none()) {
        Some(feed::survey(
            paths,
            &opts,
            need_ranges,
            given.as_deref(),
            limit,
        )?)
    } else {
        None
    };
    let (classes, choice) = match &survey {
        Some(s) => {
            let (choice, pos, neg) = s.choose(&learn.read.positive_rule())?;
            input::report_positive_counts(&choice, pos, neg);
            input::need_both(pos, neg, what)?;
            let classes = Classes::Known {
                labels: choice.labels.clone(),
                given: false,
            };
            (classes, Some(choice))
        }
        None => match &given {
            Some(g) => {
                let mut labels: Vec<f64> = g.iter().map(|l| l + 0.0).collect();
                labels.sort_by(f64::total_cmp);
                labels.dedup_by(|a, b| a.to_bits() == b.to_bits());
                (
                    Classes::Known {
                        labels,
                        given: true,
                    },
                    None,
                )
            }
            None => (Classes::Binary, None),
        },
    };
    let scaler = match (&scale_from, survey.as_ref().and_then(|s| s.ranges.as_ref())) {
        (Some(s), _) => s.scaler(scaling)?,
        (None, Some(r)) => r.finish(scaling),
        (None, None) => Scaler::None,
    };
    let mut dim = fixed.unwrap_or(0);
    if let Some(s) = &survey {
        dim = dim.max(s.dim);
        // The second pass reads the same rows: an index past the first pass's dimension means
        // the file changed in between.
        if opts.hash_bits.is_none() {
            opts.dim = Some(s.dim.max(opts.dim.unwrap_or(0)));
        }
    }
    if let Some(s) = &scale_from {
        dim = dim.max(s.dim);
    }
    if matches!(scaler, Scaler::MinMax { .. }) {
        // Min-max scaling makes every row dense: the scaler and a few dense rows in flight.
        let d = dim.max(scaler.dim());
        memory::check(
            Scaler::bytes_for(d).saturating_add(feed::dense_rows_bytes(d)),
            limit,
            &format!(
                "{what}: min-max scaling of {d} features (the scaler and the dense rows in flight)"
            ),
            "use --scale maxabs, which keeps sparse rows sparse, or fewer --hash-bits",
        )?;
    }
    Ok(Plan {
        hopeful: hopeful && matches!(classes, Classes::Binary),
        opts,
        classes,
        choice,
        scaler,
        scaled_from: scale_from.map(|s| (s.path, s.dim)),
        dim,
    })
}

/// A bounded shuffle buffer: rows enter until it holds `cap`, then each new row replaces a
/// uniformly drawn buffered one, which is emitted; at the end the rows left are emitted in a
/// random permutation. When the input has at most `cap` rows no draw happens before the end,
/// and the order is the full permutation `--shuffle-full` gives with the same seed.
struct Shuffle {
    rows: Vec<(RowBuf, Label)>,
    cap: usize,
    rng: StdRng,
}

impl Shuffle {
    fn new(seed: u64, cap: u64) -> Self {
        Shuffle {
            rows: Vec::new(),
            cap: usize::try_from(cap).unwrap_or(usize::MAX),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// Takes `(x, y)`, emitting a buffered row once the buffer is full.
    fn push(
        &mut self,
        x: Row<'_>,
        y: Label,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.rows.len() < self.cap {
            self.rows.push((RowBuf::from_row(x), y));
            return Ok(());
        }
        let k = self.rng.random_range(0..self.cap);
        let (buf, label) = &mut self.rows[k];
        emit(buf.as_row(), *label)?;
        buf.assign(x);
        *label = y;
        Ok(())
    }

    /// Emits the rows left, in a random permutation.
    fn finish(
        &mut self,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut idx: Vec<usize> = (0..self.rows.len()).collect();
        idx.shuffle(&mut self.rng);
        for i in idx {
            let (buf, label) = &self.rows[i];
            emit(buf.as_row(), *label)?;
        }
        self.rows.clear();
        Ok(())
    }
}

/// Prequential evaluation on the way: the AUC of every score so far, printed every `every` rows.
struct Prequential {
    every: u64,
    json: bool,
    auc: RunningAuc,
    points: Vec<CurvePoint>,
    skipped: usize,
    /// Scores that were not finite (features too large unscaled), left out of the AUC.
    non_finite: u64,
}

impl Prequential {
    fn new(every: u64, json: bool) -> Self {
        Prequential {
            every,
            json,
            auc: RunningAuc::new(),
            points: Vec::new(),
            skipped: 0,
            non_finite: 0,
        }
    }

    /// Records the score of the `seen`-th row (scored before the learner updates on it) and
    /// prints a point when a checkpoint is reached (`last`: the end of the stream).
    fn record(&mut self, score: f64, y: Label, seen: u64, last: bool) -> Result<(), Error> {
        if score.is_finite() {
            self.auc.push(score, y)?;
        } else {
            self.non_finite += 1;
        }
        if seen % self.every == 0 || last {
            self.point(seen)?;
        }
        Ok(())
    }

    /// Prints the point after `seen` rows, or counts it skipped while one class is missing.
    fn point(&mut self, seen: u64) -> Result<(), Error> {
        if self.points.last().is_some_and(|p| p.updates as u64 == seen) {
            return Ok(());
        }
        match self.auc.auc() {
            Ok(a) => {
                let p = CurvePoint {
                    updates: seen as usize,
                    auc: a,
                };
                if self.json {
                    line(json!({"examples": p.updates, "auc": p.auc}))?;
                } else {
                    line(format!("{:>10} {:>8.4}", p.updates, p.auc))?;
                }
                self.points.push(p);
            }
            Err(MetricError::SingleClass { .. }) => self.skipped += 1,
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}

/// The learner's side of a streamed pass: grows the state when a chunk is wider (memory
/// checked first), feeds each row (through the shuffle buffer, padding dense rows from before a
/// growth), counts the classes, scores first for prequential evaluation, shows progress.
struct Learning<'a> {
    state: &'a mut dyn Trained,
    config: &'a dyn Configured,
    average: bool,
    limit: Bytes,
    algo: &'static str,
    scratch: Vec<f64>,
    positives: u64,
    negatives: u64,
    seen: u64,
    prequential: Option<Prequential>,
}

impl Learning<'_> {
    /// Grows the state to `dim` features after checking the memory of both states (the old
    /// one is alive while the new one is filled).
    fn grow(&mut self, dim: usize) -> Result<(), Error> {
        let old = self.state.dim();
        if dim <= old {
            return Ok(());
        }
        let needed = self
            .config
            .memory_bytes(&dim_shape(dim), self.average)
            .saturating_add(self.config.memory_bytes(&dim_shape(old), self.average));
        memory::check(
            needed,
            self.limit,
            &format!(
                "growing {} from {old} to {dim} features (a larger feature index appeared)",
                self.algo
            ),
            "use --hash-bits B to fold the features into 2^B, or fix --dim",
        )?;
        let learner = self.state.learner().ok_or("a batch model cannot learn")?;
        learner
            .grow(dim)
            .map_err(|e| format!("{}: {e}", self.algo).into())
    }

    /// One training step on `(x, y)`, in the learner's dimension.
    fn step(&mut self, x: Row<'_>, y: Label) -> Result<(), Error> {
        let dim = self.state.dim();
        let x = match x {
            Row::Dense(v) if v.len() < dim => {
                self.scratch.clear();
                self.scratch.extend_from_slice(v);
                self.scratch.resize(dim, 0.0);
                Row::Dense(&self.scratch)
            }
            x => x,
        };
        if y.is_pos() {
            self.positives += 1;
        } else {
            self.negatives += 1;
        }
        self.seen += 1;
        let score = self.prequential.as_ref().map(|_| self.state.score(x));
        let learner = self.state.learner().ok_or("a batch model cannot learn")?;
        learner.update(x, y);
        if let (Some(p), Some(s)) = (self.prequential.as_mut(), score) {
            p.record(s, y, self.seen, false)?;
        }
        Ok(())
    }
}

/// Runs a streamed pass of `reader` prepared by `prep` into `learning`, in order or through a
/// shuffle buffer.
fn learn_pass(
    reader: Reader,
    prep: Prep,
    learning: &mut Learning<'_>,
    learn: &LearnArgs,
    what: &str,
) -> Result<feed::Done, Error> {
    let mut shuffle = learn.shuffle.map(|s| Shuffle::new(s, learn.shuffle_buffer));
    let bar = Bar::bytes(what, reader.total_bytes());
    let mut checked_buffer = false;
    let done = feed::run(reader, prep, !learn.one_thread, |chunk| {
        let data = &chunk.data;
        // The dimension the learner must have before each row (see `feed::Chunk::widths`).
        let mut widths = chunk.widths.iter().peekable();
        while let Some((_, dim)) = widths.next_if(|(at, _)| *at == 0) {
            learning.grow(*dim)?;
        }
        if let (Some(s), false) = (&shuffle, checked_buffer) {
            checked_buffer = true;
            // Sized on the first rows of the first chunk, which do not depend on how the
            // input is cut.
            let first = data.n().clamp(1, feed::FIRST_ROWS) as u64;
            let per_row = if data.is_sparse() {
                let nnz: usize = (0..data.n().min(feed::FIRST_ROWS))
                    .map(|i| data.row(i).nnz())
                    .sum();
                12 * nnz as u64 / first + 48
            } else {
                8 * data.dim() as u64 + 32
            };
            memory::check(
                per_row.saturating_mul(s.cap as u64),
                learning.limit,
                &format!("a shuffle buffer of {} rows", s.cap),
                "use a smaller --shuffle-buffer",
            )?;
        }
        for (i, (x, y)) in data.iter().enumerate() {
            while let Some((_, dim)) = widths.next_if(|(at, _)| *at == i) {
                learning.grow(*dim)?;
            }
            match &mut shuffle {
                None => learning.step(x, y)?,
                Some(s) => s.push(x, y, &mut |x, y| learning.step(x, y))?,
            }
        }
        bar.set_stream(what, chunk.bytes, chunk.before + data.n() as u64);
        Ok(())
    })?;
    if let Some(s) = &mut shuffle {
        s.finish(&mut |x, y| learning.step(x, y))?;
    }
    bar.finish();
    Ok(done)
}

/// `auc train` of a one-pass learner on its input read incrementally.
fn train_streaming(
    a: &TrainArgs,
    algo: &'static Algorithm,
    config: Box<dyn Configured>,
) -> Result<(), Error> {
    let what = format!("training {}", algo.name);
    let limit = memory::limit(a.learn.max_memory);
    // A file whose labels turn out not to be binary is read again after a first pass.
    let mut plan = plan(&a.learn, &a.data, &what, limit, true)?;
    let start_time = Instant::now();
    let (state, done, positives, negatives) = loop {
        let mut state = start(config.as_ref(), algo, &plan, &a.learn, limit)?;
        let mut learning = learning(state.as_mut(), config.as_ref(), algo, &a.learn, limit);
        let reader = Reader::open(&a.data, &plan.opts)?;
        let pass = learn_pass(
            reader,
            prep_for(&plan, &a.learn),
            &mut learning,
            &a.learn,
            &what,
        );
        let counts = (learning.positives, learning.negatives);
        drop(learning);
        match pass {
            Ok(done) => break (state, done, counts.0, counts.1),
            Err(e) if plan.hopeful && e.is::<feed::NotBinary>() => {
                plan = self::plan(&a.learn, &a.data, &what, limit, false)?;
            }
            Err(e) => return Err(e),
        }
    };
    let seconds = start_time.elapsed().as_secs_f64();
    let choice = match &plan.choice {
        Some(c) => c.clone(),
        None => {
            let c = feed::final_choice(&plan.classes, &done.seen)?;
            input::report_positive_counts(&c, positives, negatives);
            c
        }
    };
    input::need_both(positives, negatives, &what)?;
    warn_unscaled(&plan, done.dim);
    let diverged = warn_divergence(state.as_ref(), algo.name);
    check_state(state.as_ref(), algo.name)?;
    let model = Model {
        algorithm: algo,
        config,
        preparation: Preparation {
            reading: done.reading,
            positive_labels: choice.labels.clone(),
            positive_rule: choice.rule.to_string(),
            dim: state.dim(),
            hash_bits: a.learn.read.hash_bits,
            scaler: plan.scaler,
            unit_norm: a.learn.prep.unit_norm,
        },
        training: TrainingRecord {
            seed: a.learn.seed,
            examples: positives + negatives,
            positives,
            negatives,
            diverged,
            written_by: written_by(),
        },
        state,
    };
    save(a, &model, seconds, None, None)
}

/// Warns when a stream scaled from `--scale-from` met features the ranges do not cover (they
/// pass unscaled).
fn warn_unscaled(plan: &Plan, dim: usize) {
    if let Some((path, covered)) = &plan.scaled_from
        && dim > *covered
        && !matches!(plan.scaler, Scaler::None)
    {
        eprintln!(
            "auc: warning: features {} to {dim} are not in the ranges of {} ({covered} features): they were not scaled",
            covered + 1,
            path.display()
        );
    }
}

/// A fresh one-pass learner for the plan's dimension, its memory checked first.
fn start(
    config: &dyn Configured,
    algo: &Algorithm,
    plan: &Plan,
    learn: &LearnArgs,
    limit: Bytes,
) -> Result<Box<dyn Trained>, Error> {
    memory::check(
        config.memory_bytes(&dim_shape(plan.dim), learn.average),
        limit,
        &format!("{} on {} features", algo.name, plan.dim),
        "use --hash-bits B to fold the features into 2^B, or a learner with O(p) state (pa-i, solam, perceptron)",
    )?;
    Ok(config
        .start(plan.dim, learn.seed, learn.average)
        .ok_or("a batch learner cannot stream")??)
}

/// The learner's side of a pass over `state`.
fn learning<'a>(
    state: &'a mut dyn Trained,
    config: &'a dyn Configured,
    algo: &'static Algorithm,
    learn: &LearnArgs,
    limit: Bytes,
) -> Learning<'a> {
    Learning {
        state,
        config,
        average: learn.average,
        limit,
        algo: algo.name,
        scratch: Vec::new(),
        positives: 0,
        negatives: 0,
        seen: 0,
        prequential: None,
    }
}

/// The parser's preparation of a plan's chunks.
fn prep_for(plan: &Plan, learn: &LearnArgs) -> Prep {
    Prep::new(
        plan.classes.clone(),
        plan.dim,
        Preparation {
            reading: auc_data::Reading::Libsvm,
            positive_labels: Vec::new(),
            positive_rule: String::new(),
            dim: plan.dim,
            hash_bits: learn.read.hash_bits,
            scaler: plan.scaler.clone(),
            unit_norm: learn.prep.unit_norm,
        },
    )
}

/// Refuses `--average` for learners without a weight vector.
pub(crate) fn check_average(algo: &Algorithm, average: bool) -> Result<(), Error> {
    if average && algo.family != auc_core::Family::Linear {
        return Err(format!(
            "--average averages the iterates of a linear one-pass learner; {} is a {} learner",
            algo.name,
            algo.family.name()
        )
        .into());
    }
    Ok(())
}

/// Trains `config` on `data`: one pass for a one-pass learner, a fit for a batch learner.
fn fit(
    config: &dyn Configured,
    algo: &Algorithm,
    data: &Dataset,
    learn: &LearnArgs,
) -> Result<(Box<dyn Trained>, Option<String>), Error> {
    if let Some(state) = config.start(data.dim(), learn.seed, learn.average) {
        let mut state = state?;
        let learner = state.learner().expect("a one-pass learner's state learns");
        stream_into(learner, data, algo.name);
        return Ok((state, None));
    }
    let fitted = config
        .fit(data, learn.seed)
        .expect("an algorithm is one-pass or batch")?;
    Ok((fitted.0, Some(fitted.1)))
}

/// Runs the inner cross-validation of `--tune` and prints what it chose.
fn tune(
    a: &TrainArgs,
    algo: &'static Algorithm,
    given: &ParamMap,
    data: &Dataset,
) -> Result<cv::Tuned, Error> {
    let grid_args: Vec<String> = if a.grid.is_empty() {
        vec!["default".to_owned()]
    } else {
        a.grid.clone()
    };
    let points = grid_points(algo, &grid_args)?;
    for p in &points {
        algo.configure(&given.merged(p))?;
    }
    let average = a.learn.average;
    let make = move |p: &ParamMap| -> Result<Box<dyn auc_core::DynFit>, auc_core::ParamError> {
        algo.configure(p)?.procedure(average)
    };
    let cv_algo = CvAlgo {
        base: given.clone(),
        grid: points,
        make: &make,
    };
    // The data is already scaled and in its training order: the folds see it as is.
    let cfg = CvConfig {
        inner_folds: a.folds,
        seed: a.learn.seed,
        scaling: auc_data::Scaling::None,
        unit_norm: false,
        ..CvConfig::default()
    };
    let bar = Bar::fits(algo.name);
    let t = pool(a.threads)?.install(|| cv::tune(data, &cv_algo, &cfg, &|p| bar.event(p)));
    bar.finish();
    let mut t = t?;
    let chosen = algo.configure(&t.params)?.params();
    t.params = chosen.clone();
    eprintln!(
        "auc: --tune chose {chosen} ({}-fold CV AUC {} over {} grid points, {:.1} s)",
        a.folds,
        t.mean_auc
            .map_or_else(|| "-".to_owned(), |v| format!("{v:.4}")),
        t.grid_points,
        t.seconds
    );
    Ok(t)
}

/// Writes the model (read back first) and reports the run.
fn save(
    a: &TrainArgs,
    model: &Model,
    seconds: f64,
    summary: Option<&str>,
    tuned: Option<&cv::Tuned>,
) -> Result<(), Error> {
    let bytes = model.to_checked_bytes()?;
    write_atomic(&a.output, &bytes)?;
    let t = &model.training;
    let cert = certificate(model.state.as_ref(), model.algorithm.name);
    eprintln!(
        "auc: trained {} ({}) on {} examples ({} positive, {} negative; {} in all), {} features in {seconds:.2} s{} -> {} ({} bytes)",
        model.algorithm.name,
        model.params(),
        t.examples,
        t.positives,
        t.negatives,
        t.examples,
        model.preparation.dim,
        summary.map(|s| format!(": {s}")).unwrap_or_default(),
        a.output.display(),
        bytes.len()
    );
    if a.json {
        line(json!({
            "algo": model.algorithm.name,
            "params": model.params(),
            "examples": t.examples,
            "positives": t.positives,
            "negatives": t.negatives,
            "positive": model.preparation.positive_labels,
            "features": model.preparation.dim,
            "scaling": model.preparation.scaler.kind().to_string(),
            "diverged": t.diverged.is_some(),
            "divergence": t.diverged,
            "tuned": tuned,
            "converged": cert.as_ref().map(|c| c["converged"].clone()),
            "certificate": cert,
            "seconds": seconds,
            "output": a.output.display().to_string(),
            "bytes": bytes.len(),
        }))?;
    }
    Ok(())
}

/// `auc train --resume`: continues a saved one-pass model on new data read the model's way,
/// incrementally (the model fixes the reading, positive class and scaling: no first pass).
fn resume(a: TrainArgs, path: &Path) -> Result<(), Error> {
    let mut model = crate::predict::load(path)?;
    let name = model.algorithm.name;
    if !model.algorithm.is_online() {
        return Err(format!(
            "--resume continues a one-pass learner; the model {} is {name}, a batch learner fitted on all its data at once: train it again on all the data instead",
            path.display()
        )
        .into());
    }
    if let Some(given) = &a.algo
        && lookup(given)?.name != name
    {
        return Err(format!("--algo {given} differs from the model's algorithm {name}").into());
    }
    let fixed = [
        (!a.learn.hyper.is_empty(), "parameters"),
        (a.tune, "--tune"),
        (a.learn.average, "--average"),
        (
            a.learn.prep.is_given() || a.learn.scale_from.is_some(),
            "--scale, --no-scale, --scale-from and --unit-norm",
        ),
        (a.learn.read.positive.is_some(), "--positive"),
        (a.learn.seed != 0, "--seed"),
        (a.learn.dim.is_some(), "--dim"),
        (a.learn.shuffle_full, "--shuffle-full (use --shuffle)"),
    ];
    if let Some((_, what)) = fixed.iter().find(|(given, _)| *given) {
        return Err(format!(
            "{what} cannot be given with --resume: the model {} fixes them",
            path.display()
        )
        .into());
    }
    a.learn.read.check_against(&model.preparation, path)?;
    let prep = &model.preparation;
    let mut opts = input::options_like(prep);
    opts.limit = a.learn.limit;
    let mut reader = Reader::open(&a.data, &opts)?;
    reader.on_wider(format!("the model was trained on {} features", prep.dim));
    if let (Some(want), Some(found)) = (prep.reading.csv(), reader.reading().csv()) {
        want.check(found, &a.data[0].display().to_string())?;
    }
    let what = format!("training {name}");
    let limit = memory::limit(a.learn.max_memory);
    let chunk_prep = Prep::new(
        Classes::Known {
            labels: prep.positive_labels.clone(),
            given: false,
        },
        prep.dim,
        prep.clone(),
    );
    let start_time = Instant::now();
    let config = model.algorithm.configure(&model.params())?;
    let averaged = model.state.averaged();
    let (positives, negatives) = {
        let mut learning = Learning {
            state: model.state.as_mut(),
            config: config.as_ref(),
            average: averaged,
            limit,
            algo: name,
            scratch: Vec::new(),
            positives: 0,
            negatives: 0,
            seen: 0,
            prequential: None,
        };
        learn_pass(reader, chunk_prep, &mut learning, &a.learn, &what)?;
        (learning.positives, learning.negatives)
    };
    let seconds = start_time.elapsed().as_secs_f64();
    let mut t = (model.training.after_run(positives, negatives))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if t.positives == 0 || t.negatives == 0 {
        return Err(format!(
            "training {name} needs both classes; the model and the new data together hold {} positive and {} negative examples",
            t.positives, t.negatives
        )
        .into());
    }
    let diverged = warn_divergence(model.state.as_ref(), name);
    check_state(model.state.as_ref(), name)?;
    t.diverged = diverged;
    t.written_by = written_by();
    model.training = t;
    save(&a, &model, seconds, None, None)
}

pub(crate) fn stream(a: StreamArgs) -> Result<(), Error> {
    let algo = lookup(&a.algo)?;
    if !algo.is_online() {
        return Err(format!(
            "`{}` is a batch learner, fitted on all its data at once: `auc stream` needs a one-pass learner that updates after each example (`auc cv` and `auc train` run batch learners)",
            algo.name
        )
        .into());
    }
    let (given, _) = given_params(algo, &a.learn.hyper)?;
    check_average(algo, a.learn.average)?;
    let config = algo.configure(&given)?;
    let what = format!("streaming {}", algo.name);
    let limit = memory::limit(a.learn.max_memory);
    let prequential = Prequential::new(a.every, a.json);
    let (run, state, examples) = if a.learn.shuffle_full {
        stream_in_memory(&a, algo, config.as_ref(), prequential, &what, limit)?
    } else {
        let plan = plan(&a.learn, &a.data, &what, limit, false)?;
        let mut state = start(config.as_ref(), algo, &plan, &a.learn, limit)?;
        if !a.json {
            line(format!("{:>10} {:>8}", "examples", "AUC"))?;
        }
        let mut learning = learning(state.as_mut(), config.as_ref(), algo, &a.learn, limit);
        learning.prequential = Some(prequential);
        let reader = Reader::open(&a.data, &plan.opts)?;
        let done = learn_pass(
            reader,
            prep_for(&plan, &a.learn),
            &mut learning,
            &a.learn,
            &what,
        )?;
        let seen = learning.seen;
        let mut run = learning.prequential.take().expect("set above");
        run.point(seen)?;
        let (pos, neg) = (learning.positives, learning.negatives);
        if plan.choice.is_none() {
            let c = feed::final_choice(&plan.classes, &done.seen)?;
            input::report_positive_counts(&c, pos, neg);
        }
        warn_unscaled(&plan, done.dim);
        (run, state, seen)
    };
    if run.non_finite > 0 {
        eprintln!(
            "auc: warning: {} scores were not finite (features too large unscaled?) and are left out of the AUC",
            run.non_finite
        );
    }
    if run.skipped > 0 {
        eprintln!(
            "auc: {} checkpoints came before both classes had appeared, so no AUC is defined there (the learner still trained on those examples)",
            run.skipped
        );
    }
    let diverged = warn_divergence(state.as_ref(), algo.name);
    if let Some(path) = &a.svg {
        let xy: Vec<(f64, f64)> = run
            .points
            .iter()
            .map(|p| (p.updates as f64, p.auc))
            .collect();
        let title = format!(
            "prequential AUC of {} on {}",
            algo.name,
            input::dataset_name(&a.data)
        );
        write_text(
            path,
            &plot::curve_svg(&xy, &title, "examples", "AUC so far")?,
        )?;
    }
    if a.json {
        line(json!({
            "summary": true,
            "algo": algo.name,
            "params": config.params(),
            "examples": examples,
            "skipped": run.skipped,
            "diverged": diverged.is_some(),
            "divergence": diverged,
        }))?;
    }
    Ok(())
}

/// `auc stream --shuffle-full`: the whole input in memory, fed in a full permutation.
fn stream_in_memory(
    a: &StreamArgs,
    algo: &'static Algorithm,
    config: &dyn Configured,
    mut run: Prequential,
    what: &str,
    limit: Bytes,
) -> Result<(Prequential, Box<dyn Trained>, u64), Error> {
    let prepared = prepare(&a.learn, &a.data, what, Layout::AsRead)?;
    let data = &prepared.data;
    memory::check(
        config.memory_bytes(&shape(data), a.learn.average),
        limit,
        &format!("{} on {} features", algo.name, data.dim()),
        "use --hash-bits B to fold the features into 2^B",
    )?;
    let mut state = config
        .start(data.dim(), a.learn.seed, a.learn.average)
        .ok_or("a batch learner cannot stream")??;
    if !a.json {
        line(format!("{:>10} {:>8}", "examples", "AUC"))?;
    }
    let n = data.n() as u64;
    for (i, (x, y)) in data.iter().enumerate() {
        let score = state.score(x);
        state
            .learner()
            .ok_or("a batch model cannot learn")?
            .update(x, y);
        run.record(score, y, i as u64 + 1, i as u64 + 1 == n)?;
    }
    Ok((run, state, n))
}
