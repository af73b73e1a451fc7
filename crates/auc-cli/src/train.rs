//! `auc train` and `auc stream`: training a model file (new, tuned or resumed) and prequential
//! (test-then-train) evaluation.
//!
//! Training reads its input, picks the positive class, fits the scaling on the training rows,
//! checks the memory the learner will take, trains (one pass, or a batch fit), reports a run
//! that diverged, checks the final state and writes the model file atomically after reading it
//! back. A batch learner is fitted on the training rows alone and saved as its inductive model:
//! the rows it will score are unknown when it fits.

use std::path::PathBuf;
use std::time::Instant;

use auc_core::{DataShape, Dataset, OnlineLearner, ParamMap};
use auc_data::{Positive, Scaler};
use auc_eval::cv::{self, Algo as CvAlgo, CvConfig};
use auc_learners::{Algorithm, Configured, Model, Preparation, Trained, TrainingRecord, lookup};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::json;

use crate::commands::{PrepArgs, grid_points, pool};
use crate::hyper::HyperArgs;
use crate::input::{self, ReadArgs};
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
    /// with them.
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
    /// Feed the examples in a random order drawn from SEED; by default the file order is kept
    /// (files sorted by class make one-pass learners fail: shuffle them).
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// Seed of the learner's own random choices (reservoir buffers, the core vector machine's
    /// sampling).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Keep only the first N examples.
    #[arg(long)]
    limit: Option<usize>,
    /// Refuse to start when the data and the learner would need more memory than this (8G,
    /// 512M). Default: three quarters of physical memory.
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
    /// Data file(s), read in order and concatenated.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Print the AUC of all scores so far after every N examples (and at the end).
    #[arg(long, default_value_t = 1000)]
    every: usize,
    /// Draw the prequential curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    learn: LearnArgs,
    /// One JSON object per point, then a summary.
    #[arg(long)]
    json: bool,
}

/// Training data read, binarized and prepared, with the preparation a model stores.
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

/// Reads the training input, reports the positive class, refuses one-class data, fits the
/// scaling on it (checking the memory of a scaling that would densify sparse data).
///
/// Each stage drops the copy it no longer needs, so at most two copies of the rows are alive at
/// once (the file's rows as read, then binarized, scaled and ordered).
fn prepare(learn: &LearnArgs, paths: &[PathBuf], what: &str) -> Result<Prepared, Error> {
    let limit = memory::limit(learn.max_memory);
    let raw = learn.read.read(paths, learn.limit)?;
    memory::check(
        raw.stored_bytes(),
        limit,
        "the data",
        "use --limit or --hash-bits",
    )?;
    let (data, choice) = input::binarize(&raw, &learn.read.positive_rule())?;
    let reading = raw.reading().clone();
    drop(raw);
    input::need_both_classes(&data, what)?;
    let scaling = learn.prep.scaling();
    memory::check(
        Scaler::bytes_for(data.dim()),
        limit,
        "fitting the scaling",
        "use --hash-bits B to fold the features into 2^B",
    )?;
    let scaler = Scaler::fit(scaling, &data);
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

pub(crate) fn train(a: TrainArgs) -> Result<(), Error> {
    if let Some(path) = a.resume.clone() {
        return resume(a, &path);
    }
    let algo = lookup(a.algo.as_deref().unwrap_or_default())?;
    let given = a.learn.hyper.to_map()?;
    algo.check_names(&given)?;
    check_average(algo, a.learn.average)?;
    let transductive = match given.get("transductive") {
        Some(auc_core::ParamValue::Bool(b)) => *b,
        Some(auc_core::ParamValue::Num(v)) => v.to_bits() == 1f64.to_bits(),
        _ => false,
    };
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
    let mut config = algo.configure(&given)?;
    config.procedure(a.learn.average)?;
    let what = format!("training {}", algo.name);
    let prepared = prepare(&a.learn, &a.data, &what)?;
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
        let t = tune(&a, algo, &given, data)?;
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
            written_by: format!("auc {}", env!("CARGO_PKG_VERSION")),
        },
        state,
    };
    save(&a, &model, seconds, summary.as_deref(), tuned.as_ref())
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
            "seconds": seconds,
            "output": a.output.display().to_string(),
            "bytes": bytes.len(),
        }))?;
    }
    Ok(())
}

/// `auc train --resume`: continues a saved one-pass model on new data read the model's way.
fn resume(a: TrainArgs, path: &std::path::Path) -> Result<(), Error> {
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
            a.learn.prep.is_given(),
            "--scale, --no-scale and --unit-norm",
        ),
        (a.learn.read.positive.is_some(), "--positive"),
        (a.learn.seed != 0, "--seed"),
    ];
    if let Some((_, what)) = fixed.iter().find(|(given, _)| *given) {
        return Err(format!(
            "{what} cannot be given with --resume: the model {} fixes them",
            path.display()
        )
        .into());
    }
    a.learn.read.check_against(&model.preparation, path)?;
    let mut parts = Vec::with_capacity(a.data.len());
    for p in &a.data {
        parts.push(input::read_like(&model.preparation, p)?);
    }
    let raw = auc_data::RawData::concat(parts);
    let data = raw.binarize(&Positive::Known(model.preparation.positive_labels.clone()))?;
    let mut data = shuffled(model.preparation.apply(&data), a.learn.shuffle);
    if let Some(n) = a.learn.limit.filter(|&n| n < data.n()) {
        data = data.select(&(0..n).collect::<Vec<_>>());
    }
    let (pos, neg) = data.class_counts();
    let t = &mut model.training;
    if t.positives + pos as u64 == 0 || t.negatives + neg as u64 == 0 {
        return Err(format!(
            "training {name} needs both classes; the model and the new data together hold {} positive and {} negative examples",
            t.positives + pos as u64,
            t.negatives + neg as u64
        )
        .into());
    }
    let start = Instant::now();
    let learner = model
        .state
        .learner()
        .expect("a one-pass model's state learns");
    stream_into(learner, &data, name);
    let seconds = start.elapsed().as_secs_f64();
    let diverged = warn_divergence(model.state.as_ref(), name);
    check_state(model.state.as_ref(), name)?;
    let t = &mut model.training;
    t.examples += data.n() as u64;
    t.positives += pos as u64;
    t.negatives += neg as u64;
    t.diverged = diverged;
    t.written_by = format!("auc {}", env!("CARGO_PKG_VERSION"));
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
    let given = a.learn.hyper.to_map()?;
    algo.check_names(&given)?;
    check_average(algo, a.learn.average)?;
    let config = algo.configure(&given)?;
    let prepared = prepare(&a.learn, &a.data, &format!("streaming {}", algo.name))?;
    let data = &prepared.data;
    memory::check(
        config.memory_bytes(&shape(data), a.learn.average),
        memory::limit(a.learn.max_memory),
        &format!("{} on {} features", algo.name, data.dim()),
        "use --hash-bits B to fold the features into 2^B",
    )?;
    let mut state = config
        .start(data.dim(), a.learn.seed, a.learn.average)
        .expect("a one-pass learner starts")?;
    let learner = state.learner().expect("a one-pass learner's state learns");
    let run = auc_eval::curve::prequential(learner, data, a.every)?;
    if run.skipped > 0 {
        eprintln!(
            "auc: the first {} examples were scored before both classes had appeared, so no AUC is defined there; they still trained the learner",
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
    if !a.json {
        line(format!("{:>10} {:>8}", "examples", "AUC"))?;
    }
    for p in &run.points {
        if a.json {
            line(json!({"examples": p.updates, "auc": p.auc}))?;
        } else {
            line(format!("{:>10} {:>8.4}", p.updates, p.auc))?;
        }
    }
    if a.json {
        line(json!({
            "summary": true,
            "algo": algo.name,
            "params": config.params(),
            "examples": data.n(),
            "skipped": run.skipped,
            "diverged": diverged.is_some(),
            "divergence": diverged,
        }))?;
    }
    Ok(())
}
