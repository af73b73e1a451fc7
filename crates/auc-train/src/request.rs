//! [`TrainRequest`]: everything a front end asks of one training run, as typed values. The CLI
//! builds it from flags, Python from keyword arguments; [`crate::train`] alone decides what to do
//! with it (the route, the memory checks, the default learner, tuning, calibration, resuming).

use std::path::PathBuf;

use auc_core::ParamMap;
use auc_learners::{Algorithm, CalibrationSpec, Model};
use auc_prep::PrepSpec;

use auc_core::Label;
use auc_prep::Preparation;

use crate::Options;
use crate::rows::RowSource;

/// Which learner a request trains.
#[derive(Clone, Copy, Debug)]
pub enum Learner {
    /// A learner of the registry, looked up by its name.
    Named(&'static Algorithm),
    /// The default rule ([`crate::default_learner`]): the blend; the map learner on a feature map
    /// asked for; the map learner on the features when they are too many for the blend.
    Default,
    /// The learner of the model being continued (`--resume`).
    Resumed,
}

/// Where the training rows come from.
// One request is built per training run: the size of its largest variant (arrays with their
// preparation, which may hold a table's schema) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum Input<'a> {
    /// Data files read in order and concatenated (`-` is standard input; gzip is detected); a
    /// learner fitted from class moments also merges moment files among them.
    Files(Vec<PathBuf>),
    /// Rows the caller holds in memory, with their labels and the preparation fitted on them
    /// (Python's arrays).
    Arrays(Arrays<'a>),
    /// Class moments already merged (a distributed pass's parts, `auclearn.dask`), for a
    /// learner fitted from moments; `source` names them in messages.
    Moments {
        /// The merged summary.
        summary: Box<auc_learners::MomentSummary>,
        /// What they are the moments of.
        source: String,
    },
}

impl Input<'_> {
    /// The paths of [`Input::Files`] (none for arrays).
    pub fn paths(&self) -> &[PathBuf] {
        match self {
            Input::Files(p) => p,
            Input::Arrays(_) | Input::Moments { .. } => &[],
        }
    }
}

/// `--tune`: the parameters chosen by stratified cross-validation on the training rows first.
#[derive(Clone, Debug)]
pub struct Tune {
    /// Grid axes as `auc cv` takes them (`NAME=SPEC`), or `default` for the learner's own grid;
    /// empty means `default`.
    pub grid: Vec<String>,
    /// Folds of the cross-validation.
    pub folds: usize,
}

/// On which scores a calibration to probabilities is fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalibrateOn {
    /// The held-out scores of a stratified cross-validation of the training rows.
    Cv,
    /// The last prequential scores of a one-pass learner's pass (each row scored before the
    /// step on it): no refit.
    Prequential,
}

/// `--calibrate`: the model's scores mapped to probabilities by a calibration fitted on scores
/// of rows it did not train on.
#[derive(Clone, Copy, Debug)]
pub struct Calibrate {
    /// The kind and the folds.
    pub spec: CalibrationSpec,
    /// On which scores.
    pub on: CalibrateOn,
}

/// One training run, asked.
pub struct TrainRequest<'a> {
    /// The learner.
    pub learner: Learner,
    /// Its parameters as given (the rest take their defaults).
    pub params: ParamMap,
    /// How the input is read and prepared (of arrays, which come prepared, only the stages
    /// asked are read: the default learner's rule).
    pub prep: PrepSpec,
    /// The training rows.
    pub input: Input<'a>,
    /// Seed, averaging, order, threads, the memory budget and what writes the model.
    pub options: Options,
    /// `--tune`.
    pub tune: Option<Tune>,
    /// `--calibrate`.
    pub calibrate: Option<Calibrate>,
    /// `--resume`: the saved one-pass model to continue (its learner, parameters, reading and
    /// preparation are fixed; [`TrainRequest::prep`] is not used).
    pub resume: Option<Box<Model>>,
    /// Prequential evaluation (`auc stream`): each row's score before a one-pass learner's
    /// step on it, with its label and the rows fed so far. The pass is then never begun again
    /// (a file is read after a first pass), and the model comes back as it is: input of one
    /// class or a state that is not finite are for the observer's scores to show.
    pub observer: Option<auc_stream::Observer<'a>>,
    /// The command named in what is reported (`auc train`).
    pub command: String,
}

impl<'a> TrainRequest<'a> {
    /// A request to train `learner` on `input` with its defaults: no tuning, no calibration.
    pub fn new(learner: Learner, prep: PrepSpec, input: Input<'a>) -> TrainRequest<'a> {
        TrainRequest {
            learner,
            params: ParamMap::new(),
            prep,
            input,
            options: Options::default(),
            tune: None,
            calibrate: None,
            resume: None,
            observer: None,
            command: "auc train".to_owned(),
        }
    }
}

/// Rows in memory with their labels and the preparation fitted on them: the input of
/// [`crate::Input::Arrays`].
pub struct Arrays<'a> {
    /// The rows (after any crosses the preparation records).
    pub rows: &'a dyn RowSource,
    /// One label a row.
    pub labels: Vec<Label>,
    /// How the rows were read and the fitted stages.
    pub preparation: Preparation,
    /// The first batch of an incremental fit (`partial_fit`): it may hold one class, and a
    /// calibration asked for is fitted on its prequential scores.
    pub partial: bool,
}
