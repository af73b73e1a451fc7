//! `auc train`: a model file trained (new, tuned or resumed) on data files.
//!
//! The flags become one `auc_train::TrainRequest` ([`TrainArgs::request`]); `auc_train::train`
//! chooses the route (a moment pass, the input streamed, the rows in memory, a resumed model)
//! and runs it: it picks the positive class, fits or takes the scaling, checks the memory,
//! trains, reports a run that diverged, refuses one-class input and checks the final state.
//! This module writes the model file atomically after reading it back and reports it.

use std::path::PathBuf;

use auc_train::{Calibrate, CalibrateOn, Input, Learner, TrainOutcome, TrainRequest, Tune};
use serde_json::json;

use crate::calibration_args::CalibrateOn as CalibrateOnFlag;
use crate::output::{Error, line, write_atomic};
use crate::progress::Stderr;
use crate::training::{LearnArgs, certificate, features_text};

/// Flags of `auc train`.
#[derive(clap::Args, Debug)]
pub(crate) struct TrainArgs {
    /// Data file(s), read in order and concatenated (`-` for standard input; gzip is detected).
    /// Learners fitted from class moments also take moment files (`auc moments`), merged with
    /// the data's moments.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The model file to write (atomically; `-` writes it to stdout).
    ///
    /// Default: the first input's name with the extension `.auc`, in the current folder
    /// (`data/heart.csv` -> `heart.auc`); standard input needs `-o`.
    #[arg(short = 'o', long)]
    output: Option<PathBuf>,
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

pub(crate) fn train(a: TrainArgs) -> Result<(), Error> {
    // Resolved first: a run that cannot name its model file stops before it trains.
    let output = match &a.output {
        Some(path) => path.clone(),
        None => crate::output::default_output(&a.data, "auc")?,
    };
    let request = a.request()?;
    let outcome = auc_train::train(request, &Stderr)?;
    save(&a, &output, &outcome)
}

impl TrainArgs {
    /// The flags as the library's one request: the learner (named, the default rule, or the
    /// model `--resume` continues), its parameters, the preparation, the input and the options.
    fn request(&self) -> Result<TrainRequest<'static>, Error> {
        let learner = match &self.algo {
            Some(name) => Learner::Named(auc_learners::lookup(name)?),
            None if self.resume.is_some() => Learner::Resumed,
            None => Learner::Default,
        };
        let resume = match &self.resume {
            Some(path) => Some(Box::new(self.model_to_resume(path)?)),
            None => None,
        };
        Ok(TrainRequest {
            learner,
            params: self.learn.hyper.to_map()?,
            prep: self.learn.prep_spec()?,
            input: Input::Files(self.data.clone()),
            options: self.learn.train_options(self.threads),
            tune: self.tune.then(|| Tune {
                grid: self.grid.clone(),
                folds: self.folds,
            }),
            calibrate: self.calibration.spec().map(|spec| Calibrate {
                spec,
                on: match self.calibration.calibrate_on {
                    CalibrateOnFlag::Cv => CalibrateOn::Cv,
                    CalibrateOnFlag::Prequential => CalibrateOn::Prequential,
                },
            }),
            resume,
            observer: None,
            command: "auc train".to_owned(),
        })
    }

    /// The model `--resume` continues, read from `path`; the flags that the model fixes are
    /// refused, and the reading flags must agree with its reading.
    fn model_to_resume(&self, path: &std::path::Path) -> Result<auc_learners::Model, Error> {
        let model = crate::predict::load(path)?;
        let l = &self.learn;
        let fixed = [
            (!l.hyper.is_empty(), "parameters"),
            (self.tune, "--tune"),
            (self.calibration.spec().is_some(), "--calibrate"),
            (l.average, "--average"),
            (
                l.stages.is_given() || l.scale_from.is_some(),
                "--scale, --no-scale, --scale-from and --unit-norm",
            ),
            (l.read.positive.is_some(), "--positive"),
            (l.seed != 0, "--seed"),
            (l.dim.is_some(), "--dim"),
            (l.shuffle_full, "--shuffle-full (use --shuffle)"),
        ];
        if let Some((_, what)) = fixed.iter().find(|(given, _)| *given) {
            return Err(format!(
                "{what} cannot be given with --resume: the model {} fixes them",
                path.display()
            )
            .into());
        }
        l.read.check_against(&model.preparation, path)?;
        l.read.check_zero_based_against(&model.preparation, path)?;
        Ok(model)
    }
}

/// Writes the model (read back first) and reports the run.
fn save(a: &TrainArgs, output: &std::path::Path, out: &TrainOutcome) -> Result<(), Error> {
    let model = &out.model;
    let bytes = model.to_checked_bytes()?;
    write_atomic(output, &bytes)?;
    if let Some(note) = a.learn.read.label_note(&model.preparation.reading) {
        crate::notes::note(note);
    }
    let t = &model.training;
    let cert = certificate(model.state.as_ref(), model.algorithm.name);
    let parts = out
        .moment_seconds
        .map(|m| format!(" (moment pass {:.2} s, solve {:.3} s)", m.pass, m.solve))
        .unwrap_or_default();
    crate::notes::note(format_args!(
        "trained {} ({}) on {} examples ({} positive, {} negative; {} in all), {} in {:.2} s{parts}{} -> {} ({} bytes)",
        model.algorithm.name,
        model.params(),
        t.examples,
        t.positives,
        t.negatives,
        t.examples,
        features_text(&model.preparation),
        out.seconds,
        out.summary
            .as_deref()
            .map(|s| format!(": {s}"))
            .unwrap_or_default(),
        output.display(),
        bytes.len()
    ));
    if a.json {
        let mut record = json!({
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
            "tuned": out.tuned,
            "converged": cert.map(|c| c.converged),
            "certificate": cert.map(|c| c.to_json()),
            "calibration": model.calibration.as_ref().map(|c| c.describe()),
            "seconds": out.seconds,
            "output": output.display().to_string(),
            "bytes": bytes.len(),
        });
        if let Some(m) = out.moment_seconds {
            record["moment_pass_seconds"] = json!(m.pass);
            record["solve_seconds"] = json!(m.solve);
            record["summary"] = json!(out.summary);
        }
        line(record)?;
    }
    Ok(())
}
