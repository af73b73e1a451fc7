//! `auc train`, `auc predict` and `auc stream`: training to a model file, scoring with a saved
//! model, and prequential (test-then-train) evaluation.
//!
//! `auc train` runs an online learner once over its input, or fits a batch learner (the GAM-CVM
//! family) on it. A batch learner is fitted on the training rows alone and saved as its
//! inductive model (`auc_cvm::InductiveModel`: the training rows, fitted bandwidths, scores and
//! weights, O(n p) for n rows of p features, never the n x n kernel): the rows it will score
//! are unknown when it fits. The paper's transductive mode, which builds the kernel on the
//! scored rows too, is what `auc cv` measures by default; `auc cv --param transductive=0`
//! measures the model `auc train` saves. A batch model cannot be resumed or averaged.

use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::{Dataset, OnlineLearner, ParamMap, Scorer};
use auc_data::{Positive, RawData, Scaler, Scaling, unit_norm};
use auc_eval::metrics;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde_json::json;

use crate::algos::Algo;
use crate::batch::{self, BatchAlgo, Entry};
use crate::hyper::HyperArgs;
use crate::learners::{Learner, Trained};
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
    /// Algorithm name (see `auc algos`), online or batch; taken from the model with --resume.
    /// A batch learner (gam-cvm, its ablations, rho-auccvm, aucsvm) is fitted on DATA alone and
    /// saved as its inductive model: the training rows with their fitted scores and weights, O(n p)
    /// for n rows of p features. `auc cv` measures the papers' transductive mode by default.
    #[arg(long, required_unless_present = "resume")]
    algo: Option<String>,
    /// Continue training a saved online model on DATA, with its parameters, positive class and
    /// scaling. Without --shuffle the result equals one uninterrupted run over both inputs in
    /// order (with the scaling fitted on the first input). Batch models cannot be continued.
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
    /// Score with the average of the iterates (Polyak-Ruppert) instead of the last one (linear
    /// online learners only).
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
    /// Seed of the learner's own random choices (reservoir buffers, the core vector machine's
    /// sampling).
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
    /// The model file (from `auc train`, online or batch).
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
fn prepare(data: Dataset, scaler: &Scaler, unit: bool) -> Dataset {
    let data = match scaler {
        Scaler::None => data,
        s => s.transform(&data),
    };
    if unit { unit_norm(&data) } else { data }
}

/// Min-max scaling fitted on `data`, or none with `--no-scale`.
fn fit_scaler(no_scale: bool, data: &Dataset) -> Scaler {
    if no_scale {
        Scaler::None
    } else {
        Scaler::fit(Scaling::MinMax, data)
    }
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
        None => match batch::lookup(a.algo.as_deref().unwrap_or_default())? {
            Entry::Online(algo) => new_model(&a, algo)?,
            Entry::Batch(b) => return train_batch(&a, b),
        },
    };
    let data = shuffled(
        prepare(data, &model.scaler, model.unit_norm),
        a.learn.shuffle,
    );
    let Trained::Online(learner) = &mut model.learner else {
        unreachable!("resume_model refuses batch models and new_model builds online ones");
    };
    learner.stream(&data);
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

/// What a model file takes from the training input: the positive labels (`--positive` or the
/// minority), the dimension and the scaler fitted on the rows (unless `--no-scale`).
struct Training {
    positive_labels: Vec<f64>,
    dim: usize,
    scaler: Scaler,
}

impl Training {
    /// Reads the training input once: its [`Training`] facts and its binarized, unscaled rows.
    fn read(a: &TrainArgs) -> Result<(Self, Dataset), Error> {
        let raw = a.learn.read.read_all(&a.data, a.learn.limit)?;
        let positive_labels = raw.positive_labels(&match &a.learn.read.positive {
            Some(l) => Positive::Labels(l.clone()),
            None => Positive::Minority,
        })?;
        let dim = raw.dim();
        let data = raw.binarize(&Positive::Known(positive_labels.clone()))?;
        let scaler = fit_scaler(a.learn.no_scale, &data);
        let training = Self {
            positive_labels,
            dim,
            scaler,
        };
        Ok((training, data))
    }

    /// The model file of `learner` trained on this input.
    fn into_model(
        self,
        a: &TrainArgs,
        algo: &str,
        params: ParamMap,
        learner: Trained,
        examples: u64,
    ) -> ModelFile {
        ModelFile {
            algo: algo.to_owned(),
            learner,
            params,
            dim: self.dim,
            positive_labels: self.positive_labels,
            scaler: self.scaler,
            unit_norm: a.learn.unit_norm,
            seed: a.learn.seed,
            examples,
        }
    }
}

/// A fresh model (parameters checked, positive class and scaling fitted on the training input)
/// and that input, binarized, so the files are read once.
fn new_model(a: &TrainArgs, algo: &Algo) -> Result<(ModelFile, Dataset), Error> {
    let params = a.learn.hyper.to_map()?;
    algo.validate(&params)?;
    algo.check_average(a.learn.average)?;
    let (input, data) = Training::read(a)?;
    let learner = Learner::new(
        (algo.build)(&params, input.dim, a.learn.seed)?,
        a.learn.average,
    );
    let model = input.into_model(a, algo.name, params, Trained::Online(learner), 0);
    Ok((model, data))
}

/// Fits a batch learner on the training input (scaled as for online learners) and saves its
/// inductive model.
fn train_batch(a: &TrainArgs, b: &'static BatchAlgo) -> Result<(), Error> {
    Entry::Batch(b).check_average(a.learn.average)?;
    let params = a.learn.hyper.to_map()?;
    let p = b.parse(&params)?;
    if params.get("transductive").is_some() && p.transductive {
        return Err(format!(
            "transductive=1 needs the rows to be scored while {} fits; `auc train` fits on the training rows alone and saves the inductive model (leave the parameter out or give 0; `auc cv` measures the transductive mode)",
            b.name
        )
        .into());
    }
    let (input, data) = Training::read(a)?;
    let dim = input.dim;
    let data = shuffled(
        prepare(data, &input.scaler, a.learn.unit_norm),
        a.learn.shuffle,
    );
    let start = Instant::now();
    let (inductive, info) = p.fit_inductive(&data, a.learn.seed)?;
    let seconds = start.elapsed().as_secs_f64();
    let examples = data.n() as u64;
    let model = input.into_model(a, b.name, params, Trained::Batch(inductive), examples);
    let bytes = model.to_bytes()?;
    write_atomic(&a.output, &bytes)?;
    let (pos, neg) = data.class_counts();
    eprintln!(
        "auc: fitted {} (inductive) on {} examples ({pos} positive, {neg} negative), {} features in {seconds:.2} s: tau {:.4}, core set {}{} -> {} ({} bytes)",
        b.name,
        data.n(),
        dim,
        info.tau,
        info.core_size,
        if info.converged {
            ""
        } else {
            ", stopped at the core-set limit before the (1+epsilon) approximation was met"
        },
        a.output.display(),
        bytes.len()
    );
    Ok(())
}

/// A saved online model to continue; flags that would change it are errors, and so is a batch
/// model or algorithm.
fn resume_model(a: &TrainArgs, path: &Path) -> Result<ModelFile, Error> {
    let cannot = |name: &str| -> Error {
        format!(
            "--resume continues a one-pass learner; {name} is a batch learner, fitted on all its data at once: train it again on all the data instead"
        )
        .into()
    };
    if let Some(name) = &a.algo
        && let Ok(Entry::Batch(b)) = batch::lookup(name)
    {
        return Err(cannot(b.name));
    }
    let m = ModelFile::load(path)?;
    if matches!(m.learner, Trained::Batch(_)) {
        return Err(cannot(&format!(
            "{} (the model {})",
            m.algo,
            path.display()
        )));
    }
    if let Some(name) = &a.algo
        && crate::algos::find(name).map(|x| x.name) != Some(m.algo.as_str())
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
    let data = prepare(data, &m.scaler, m.unit_norm);
    let start = Instant::now();
    let scores = m.learner.score_all(&data);
    let seconds = start.elapsed().as_secs_f64();
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
            "auc: {} examples scored in {seconds:.3} s; AUC {auc:.6}, AP {ap:.6} against the file's labels",
            data.n()
        );
    }
    Ok(())
}

pub(crate) fn stream(a: StreamArgs) -> Result<(), Error> {
    let algo = match batch::lookup(&a.algo)? {
        Entry::Online(algo) => algo,
        Entry::Batch(b) => {
            return Err(format!(
                "`{}` is a batch learner, fitted on all its data at once: `auc stream` needs a one-pass learner that updates after each example (`auc cv` and `auc train` run batch learners)",
                b.name
            )
            .into());
        }
    };
    let params = a.learn.hyper.to_map()?;
    algo.validate(&params)?;
    algo.check_average(a.learn.average)?;
    let raw = a.learn.read.read_all(&a.data, a.learn.limit)?;
    let rule = match &a.learn.read.positive {
        Some(l) => Positive::Labels(l.clone()),
        None => Positive::Minority,
    };
    let data = raw.binarize(&rule)?;
    let scaler = fit_scaler(a.learn.no_scale, &data);
    let data = shuffled(prepare(data, &scaler, a.learn.unit_norm), a.learn.shuffle);
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
