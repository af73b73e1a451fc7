//! `auc train`, `auc predict` and `auc stream`: one-pass training to a model file, scoring with a
//! saved model, and prequential (test-then-train) evaluation.

use std::path::{Path, PathBuf};

use auc_core::{Dataset, OnlineLearner, Scorer};
use auc_data::{MinMaxScaler, Positive, RawData, unit_norm};
use auc_eval::metrics;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::json;

use crate::algos;
use crate::hyper::HyperArgs;
use crate::learners::Learner;
use crate::load::ReadArgs;
use crate::model::{ModelFile, write_atomic};
use crate::output::{Error, line};

/// Flags of `auc train`.
#[derive(clap::Args, Debug)]
pub(crate) struct TrainArgs {
    /// Data file(s), read in order and concatenated.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The model file to write (atomically).
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// Algorithm name (see `auc algos`); taken from the model with --resume.
    #[arg(long, required_unless_present = "resume")]
    algo: Option<String>,
    /// Continue training a saved model on DATA, with its parameters, positive class and scaling.
    /// Without --shuffle the result equals one uninterrupted run over both inputs in order (with
    /// the scaling fitted on the first input).
    #[arg(long, value_name = "MODEL0")]
    resume: Option<PathBuf>,
    #[command(flatten)]
    learn: LearnArgs,
}

/// What training needs besides the algorithm: parameters, preprocessing, order, seed, reading.
#[derive(clap::Args, Debug)]
pub(crate) struct LearnArgs {
    #[command(flatten)]
    hyper: HyperArgs,
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one.
    #[arg(long)]
    average: bool,
    /// Do not min-max scale features to [-1, 1]. `train` fits the scaling on its input and stores
    /// it in the model; `stream` fits it on the whole stream, as the papers' data preparation does
    /// (a peek at the range of future examples, not at their labels).
    #[arg(long)]
    no_scale: bool,
    /// Divide every example by its Euclidean norm (after scaling).
    #[arg(long)]
    unit_norm: bool,
    /// Feed the examples in a random order drawn from SEED; by default the file order is kept
    /// (files sorted by class make one-pass learners fail: shuffle them).
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// Seed of the learner's own random choices (reservoir buffers).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Keep only the first N examples.
    #[arg(long)]
    limit: Option<usize>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Flags of `auc predict`.
#[derive(clap::Args, Debug)]
pub(crate) struct PredictArgs {
    /// The model file.
    #[arg(short = 'm', long)]
    model: PathBuf,
    /// The data to score (its labels, when both classes occur, give an AUC on stderr).
    data: PathBuf,
    /// Write the scores, one per line, to this file (atomically) instead of stdout.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Flags of `auc stream`.
#[derive(clap::Args, Debug)]
pub(crate) struct StreamArgs {
    /// Algorithm name (see `auc algos`).
    #[arg(long)]
    algo: String,
    /// Data file(s), read in order and concatenated.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Print the AUC of all scores so far after every N examples (and at the end).
    #[arg(long, default_value_t = 1000)]
    every: usize,
    #[command(flatten)]
    learn: LearnArgs,
    /// One JSON object per point.
    #[arg(long)]
    json: bool,
}

/// Scaling and unit norm as a model or a command says, applied to `data`.
fn prepare(data: Dataset, scaler: Option<&MinMaxScaler>, unit: bool) -> Dataset {
    let data = match scaler {
        Some(s) => s.transform(&data),
        None => data,
    };
    if unit { unit_norm(&data) } else { data }
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

/// Reads `paths` with the model's dimension (an error if they have more features) and its
/// positive class.
fn read_for_model(
    read: &ReadArgs,
    paths: &[PathBuf],
    limit: Option<usize>,
    m: &ModelFile,
) -> Result<Dataset, Error> {
    let raw: RawData = read.read_all(paths, limit)?;
    if raw.dim() > m.dim {
        return Err(format!(
            "{} has {} features but the model was trained on {}",
            paths
                .first()
                .map_or_else(String::new, |p| p.display().to_string()),
            raw.dim(),
            m.dim
        )
        .into());
    }
    let raw = raw.with_dim(m.dim)?;
    Ok(raw.binarize(&Positive::Known(m.positive_labels.clone()))?)
}

pub(crate) fn train(a: TrainArgs) -> Result<(), Error> {
    // A new model is fitted on the data it reads; a resumed one reads the data its own way.
    let (mut model, data) = match &a.resume {
        Some(path) => {
            let model = resume_model(&a, path)?;
            let data = read_for_model(&a.learn.read, &a.data, a.learn.limit, &model)?;
            (model, data)
        }
        None => new_model(&a)?,
    };
    let data = shuffled(
        prepare(data, model.scaler.as_ref(), model.unit_norm),
        a.learn.shuffle,
    );
    model.learner.stream(&data);
    model.examples += data.n() as u64;
    model.save(&a.output)?;
    let (pos, neg) = data.class_counts();
    eprintln!(
        "auc: trained {} on {} examples ({pos} positive, {neg} negative; {} in all), {} features -> {}",
        model.algo,
        data.n(),
        model.examples,
        model.dim,
        a.output.display()
    );
    Ok(())
}

/// A fresh model (parameters checked, positive class and scaling fitted on the training input)
/// and that input, binarized, so the files are read once.
fn new_model(a: &TrainArgs) -> Result<(ModelFile, Dataset), Error> {
    let name = a.algo.as_deref().unwrap_or_default();
    let algo = algos::find(name)
        .ok_or_else(|| format!("unknown algorithm `{name}` (known: {})", algos::names()))?;
    let params = a.learn.hyper.to_map()?;
    algo.validate(&params)?;
    algo.check_average(a.learn.average)?;
    let raw = a.learn.read.read_all(&a.data, a.learn.limit)?;
    let positive_labels = raw.positive_labels(&match &a.learn.read.positive {
        Some(l) => Positive::Labels(l.clone()),
        None => Positive::Minority,
    })?;
    let dim = raw.dim();
    let data = raw.binarize(&Positive::Known(positive_labels.clone()))?;
    let scaler = (!a.learn.no_scale).then(|| MinMaxScaler::fit(&data));
    let model = ModelFile {
        algo: algo.name.to_owned(),
        learner: Learner::new((algo.build)(&params, dim, a.learn.seed)?, a.learn.average),
        params,
        dim,
        positive_labels,
        scaler,
        unit_norm: a.learn.unit_norm,
        seed: a.learn.seed,
        examples: 0,
    };
    Ok((model, data))
}

/// A saved model to continue; flags that would change it are errors.
fn resume_model(a: &TrainArgs, path: &Path) -> Result<ModelFile, Error> {
    let m = ModelFile::load(path)?;
    if let Some(name) = &a.algo
        && algos::find(name).map(|x| x.name) != Some(m.algo.as_str())
    {
        return Err(format!(
            "--algo {name} differs from the model's algorithm {}",
            m.algo
        )
        .into());
    }
    let fixed = [
        (!a.learn.hyper.to_map()?.is_empty(), "parameters"),
        (a.learn.average, "--average"),
        (a.learn.no_scale, "--no-scale"),
        (a.learn.unit_norm, "--unit-norm"),
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
    Ok(m)
}

pub(crate) fn predict(a: PredictArgs) -> Result<(), Error> {
    let m = ModelFile::load(&a.model)?;
    let data = read_for_model(&a.read, std::slice::from_ref(&a.data), None, &m)?;
    let data = prepare(data, m.scaler.as_ref(), m.unit_norm);
    let scores = m.learner.score_all(&data);
    if let Some(path) = &a.output {
        let mut text = String::with_capacity(scores.len() * 20);
        for s in &scores {
            text.push_str(&format!("{s}\n"));
        }
        write_atomic(path, text.as_bytes())?;
    } else {
        for s in &scores {
            line(s)?;
        }
    }
    if let (Ok(auc), Ok(ap)) = (
        metrics::auc(&scores, data.labels()),
        metrics::average_precision(&scores, data.labels()),
    ) {
        eprintln!(
            "auc: {} examples scored; AUC {auc:.6}, AP {ap:.6} against the file's labels",
            data.n()
        );
    }
    Ok(())
}

pub(crate) fn stream(a: StreamArgs) -> Result<(), Error> {
    let algo = algos::find(&a.algo)
        .ok_or_else(|| format!("unknown algorithm `{}` (known: {})", a.algo, algos::names()))?;
    let params = a.learn.hyper.to_map()?;
    algo.validate(&params)?;
    algo.check_average(a.learn.average)?;
    let raw = a.learn.read.read_all(&a.data, a.learn.limit)?;
    let rule = match &a.learn.read.positive {
        Some(l) => Positive::Labels(l.clone()),
        None => Positive::Minority,
    };
    let data = raw.binarize(&rule)?;
    let scaler = (!a.learn.no_scale).then(|| MinMaxScaler::fit(&data));
    let data = shuffled(
        prepare(data, scaler.as_ref(), a.learn.unit_norm),
        a.learn.shuffle,
    );
    let mut learner = Learner::new(
        (algo.build)(&params, data.dim(), a.learn.seed)?,
        a.learn.average,
    );
    let points =
        auc_eval::curve::prequential(&mut learner as &mut dyn OnlineLearner, &data, a.every)?;
    if !a.json {
        line(format!("{:>10} {:>8}", "examples", "AUC"))?;
    }
    for p in points {
        if a.json {
            line(json!({"examples": p.updates, "auc": p.auc}))?;
        } else {
            line(format!("{:>10} {:>8.4}", p.updates, p.auc))?;
        }
    }
    Ok(())
}
