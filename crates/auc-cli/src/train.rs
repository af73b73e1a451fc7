//! `auc train` and `auc stream`: training a model file (new, tuned or resumed) and prequential
//! (test-then-train) evaluation.
//!
//! A one-pass learner reads its input incrementally ([`auc_stream`]): chunks parsed and prepared
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

use auc_core::{Dataset, ParamMap};
use auc_data::Layout;
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig};
use auc_learners::{
    Algorithm, CalibrationSpec, Configured, Model, Trained, TrainingRecord, lookup,
};
use serde_json::json;

use crate::calibration_args::CalibrateOn;
use crate::hyper::grid_points;
use crate::learning::PREQUENTIAL_CALIBRATION_ROWS;
use crate::output::{Error, line, write_atomic};
use crate::progress::{Bar, RowsBar, Stderr};
use crate::training::*;
use auc_stream::Window;
use auc_stream::memory::{self};
use auc_train::in_memory::data_bytes;
use auc_train::pool;

/// Flags of `auc train`.
#[derive(clap::Args, Debug)]
pub(crate) struct TrainArgs {
    /// Data file(s), read in order and concatenated (`-` for standard input; gzip is detected).
    /// Learners fitted from class moments also take moment files (`auc moments`), merged with
    /// the data's moments.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The learner filled in by default (no `--algo`), not a flag.
    #[arg(skip)]
    defaulted: Option<auc_train::default_learner::DefaultLearner>,
    /// The model file to write (atomically; `-` writes it to stdout).
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// Algorithm name (see `auc algos`); taken from the model with --resume. Every parameter
    /// has a default (`auc algos` lists them). Without it (and without --resume): the blend of
    /// a Nystroem-kernel model and boosted trees, the best default measured
    /// (docs/results/default-learner.md); opauc-batch (lambda 2^-10) on a map asked for with
    /// --features, opauc-batch on the features when there are more than 4,096.
    #[arg(long)]
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
    #[command(flatten)]
    calibration: crate::calibration_args::CalibrationArgs,
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

pub(crate) fn train(mut a: TrainArgs) -> Result<(), Error> {
    if let Some(path) = a.resume.clone() {
        return resume(a, &path);
    }
    a.defaulted = crate::default_learner::fill(
        &mut a.algo,
        &a.learn.stages,
        &mut a.learn.hyper,
        "auc train",
    );
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
    let mut given = given;
    if let Some(why) = crate::moments::in_memory_reason(
        algo,
        &given,
        a.tune,
        a.calibration.spec().is_some(),
        a.learn.limit,
        &a.learn.stages.spec(),
    ) {
        crate::moments::refuse_moment_files(&a.data, why)?;
    } else {
        match crate::moments::train(crate::moments::TrainFromMoments {
            algo,
            given: &given,
            inputs: &a.data,
            output: &a.output,
            read: &a.learn.read,
            stages: a.learn.stages.spec(),
            threads: a.threads,
            seed: a.learn.seed,
            max_memory: a.learn.max_memory,
            json: a.json,
        })? {
            crate::moments::FromMoments::Trained => return Ok(()),
            crate::moments::FromMoments::OverRows {
                given: over_rows,
                message,
            } => {
                eprintln!("auc: {message}");
                given = over_rows;
            }
        }
    }
    let config = algo.configure(&given)?;
    config.procedure(a.learn.average)?;
    let prequential =
        a.calibration.spec().is_some() && a.calibration.calibrate_on == CalibrateOn::Prequential;
    if prequential && (!algo.is_online() || a.tune || a.learn.shuffle_full) {
        return Err(format!(
            "--calibrate-on prequential needs a one-pass learner trained in one pass ({} is {}): leave out --tune and --shuffle-full, or use --calibrate-on cv",
            algo.name,
            if algo.is_online() {
                "one, but --tune or --shuffle-full loads the data in memory"
            } else {
                "a batch learner"
            }
        )
        .into());
    }
    if algo.is_online()
        && !a.tune
        && (a.calibration.spec().is_none() || prequential)
        && !a.learn.shuffle_full
    {
        return train_streaming(&a, algo, &given, config);
    }
    train_in_memory(&a, algo, &given, config)
}

/// Trains with the whole input in memory: a batch learner, `--tune`, `--shuffle-full`.
fn train_in_memory(
    a: &TrainArgs,
    algo: &'static Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
) -> Result<(), Error> {
    let what = format!("training {}", algo.name);
    let layout = if algo.is_online() {
        Layout::AsRead
    } else {
        Layout::ByDensity
    };
    let TrainingData {
        data: rows,
        preparation,
    } = load_training(&a.learn, &a.data, &what, layout)?;
    let data = &rows;
    let limit = memory::limit(a.learn.max_memory);
    let wide_given;
    let (algo, given, mut config) =
        match crate::default_learner::for_wide_data(a.defaulted, data.dim(), "auc train") {
            Some(wide) => {
                wide_given = ParamMap::new();
                (wide, &wide_given, wide.configure(&wide_given)?)
            }
            None => (algo, given, config),
        };
    let (sketched, given) = auc_train::checks::fit_in_memory_limit(
        algo,
        given,
        config,
        data,
        a.learn.average,
        limit,
        &Stderr,
    )?;
    config = sketched;
    let given = &given;
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
    let calibration = match a.calibration.spec() {
        Some(spec) => Some(calibrate(a, algo, config.as_ref(), data, spec)?),
        None => None,
    };
    let (positives, negatives) = data.class_counts();
    let examples = data.n() as u64;
    // Saving needs the rows no more; it holds several copies of the state (GAM-CVM keeps its
    // training points), counted before it starts.
    drop(rows);
    let saved = state.state_bytes().len() as u64;
    check_save_memory(saved, saved, limit, &format!("the {} model", algo.name))?;
    let model = Model {
        algorithm: algo,
        config,
        preparation,
        training: TrainingRecord {
            seed: a.learn.seed,
            examples,
            positives: positives as u64,
            negatives: negatives as u64,
            diverged,
            written_by: written_by(),
        },
        state,
        calibration,
    };
    save(a, &model, seconds, summary.as_deref(), tuned.as_ref())
}

/// `auc train` of a one-pass learner on its input read incrementally
/// (`auc_train::streamed::train_streamed`), with `--calibrate-on prequential`'s calibration
/// fitted on the last prequential scores.
fn train_streaming(
    a: &TrainArgs,
    algo: &'static Algorithm,
    given: &ParamMap,
    config: Box<dyn Configured>,
) -> Result<(), Error> {
    let opts = a.learn.train_options(a.threads);
    let window = if a.calibration.spec().is_some() {
        // The window of prequential scores (a score and a label, padded: 16 bytes each).
        memory::check(
            16 * PREQUENTIAL_CALIBRATION_ROWS as u64,
            opts.max_memory,
            "the prequential scores --calibrate-on prequential keeps",
            "raise --max-memory, or use --calibrate-on cv",
        )?;
        Some(PREQUENTIAL_CALIBRATION_ROWS)
    } else {
        None
    };
    let spec = a.learn.prep_spec()?;
    let streamed = auc_train::streamed::train_streamed(
        algo, given, config, &a.data, &spec, &opts, window, &Stderr,
    )?;
    let mut model = streamed.model;
    if let (Some(spec), Some(w)) = (a.calibration.spec(), &streamed.window) {
        model.calibration = Some(calibrate_prequential(spec.kind, w)?);
    }
    save(a, &model, streamed.seconds, None, None)
}

/// Fits `--calibrate-on prequential`'s calibration on the scores the pass collected (each
/// row's score before the learner stepped on it) and says what it fitted.
fn calibrate_prequential(
    kind: auc_learners::CalibrationKind,
    w: &Window,
) -> Result<auc_learners::Calibration, Error> {
    let c = auc_learners::Calibration::fit(kind, &w.scores, &w.labels)
        .map_err(|e| format!("--calibrate-on prequential: {e}"))?;
    let skipped = if w.non_finite > 0 {
        format!(" ({} scores that were not finite left out)", w.non_finite)
    } else {
        String::new()
    };
    eprintln!(
        "auc: calibration: {} fitted on the prequential scores of the last {} rows (each scored before the learner stepped on it){skipped}",
        c.describe(),
        w.scores.len()
    );
    Ok(c)
}

/// Trains `config` on `data`: one pass for a one-pass learner (a rows bar on a terminal), a fit
/// for a batch learner.
fn fit(
    config: &dyn Configured,
    algo: &Algorithm,
    data: &Dataset,
    learn: &LearnArgs,
) -> Result<(Box<dyn Trained>, Option<String>), Error> {
    auc_train::in_memory::fit(
        config,
        data,
        learn.seed,
        learn.average,
        &RowsBar::default(),
        algo.name,
    )
}

/// Fits `--calibrate`'s calibration of `config` on the held-out scores of a cross-validation of
/// the prepared `data` (memory checked first, the folds on the `--threads` pool), and says what
/// it fitted.
fn calibrate(
    a: &TrainArgs,
    algo: &Algorithm,
    config: &dyn Configured,
    data: &Dataset,
    spec: CalibrationSpec,
) -> Result<auc_learners::Calibration, Error> {
    let pool = pool(a.threads)?;
    memory::check(
        auc_learners::calibration_bytes(
            &spec,
            config,
            &shape(data),
            data_bytes(data),
            a.learn.average,
            pool.current_num_threads(),
        ),
        memory::limit(a.learn.max_memory),
        &format!(
            "calibrating {} by {}-fold cross-validation on {} rows",
            algo.name,
            spec.folds,
            data.n()
        ),
        "use fewer --threads or --calibration-folds",
    )?;
    let start = Instant::now();
    let (c, folds) = pool.install(|| {
        auc_learners::fit_calibration(&spec, config, a.learn.average, data, a.learn.seed)
    })?;
    let fewer = if folds < spec.folds {
        format!(" (not {}: the smaller class has {folds} rows)", spec.folds)
    } else {
        String::new()
    };
    eprintln!(
        "auc: calibration: {} fitted on the held-out scores of {folds}-fold cross-validation{fewer} ({:.2} s)",
        c.describe(),
        start.elapsed().as_secs_f64()
    );
    Ok(c)
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
    if let Some(note) = a.learn.read.label_note(&model.preparation.reading) {
        eprintln!("{note}");
    }
    let t = &model.training;
    let cert = certificate(model.state.as_ref(), model.algorithm.name);
    eprintln!(
        "auc: trained {} ({}) on {} examples ({} positive, {} negative; {} in all), {} in {seconds:.2} s{} -> {} ({} bytes)",
        model.algorithm.name,
        model.params(),
        t.examples,
        t.positives,
        t.negatives,
        t.examples,
        features_text(&model.preparation),
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
            "scaling": model.preparation.scaler().kind().to_string(),
            "diverged": t.diverged.is_some(),
            "divergence": t.diverged,
            "tuned": tuned,
            "converged": cert.map(|c| c.converged),
            "certificate": cert.map(|c| c.to_json()),
            "calibration": model.calibration.as_ref().map(|c| c.describe()),
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
        (a.calibration.spec().is_some(), "--calibrate"),
        (a.learn.average, "--average"),
        (
            a.learn.stages.is_given() || a.learn.scale_from.is_some(),
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
    let start_time = Instant::now();
    let (positives, negatives) = auc_train::streamed::continue_training(
        &mut model,
        &a.data,
        auc_train::streamed::ContinueReading {
            limit: a.learn.limit,
            max_line_bytes: a.learn.read.max_line_bytes(),
        },
        &a.learn.train_options(a.threads),
        &Stderr,
    )?;
    let seconds = start_time.elapsed().as_secs_f64();
    if let Some(c) = model.calibration.take() {
        eprintln!(
            "auc: the model's calibration ({}) was fitted on its earlier training and does not hold after --resume: the saved model has none (train with --calibrate on all the data for probabilities)",
            c.describe()
        );
    }
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
