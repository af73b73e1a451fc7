//! What [`crate::train`] returns: the model and what a front end reports of the run
//! ([`TrainOutcome`]), with the [`Route`] it took.

use auc_eval::cv::Tuned;
use auc_learners::Model;

/// The route a training run takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    /// One moment pass, the merged class moments solved.
    Moments,
    /// A one-pass learner on its input read incrementally.
    Streamed,
    /// The rows in memory.
    InMemory,
    /// A saved one-pass model continued on more rows.
    Resumed,
    /// Rows the caller holds as arrays, read in place.
    Arrays,
}

/// Seconds of the two parts of a fit from moments.
#[derive(Clone, Copy, Debug)]
pub struct MomentSeconds {
    /// The moment pass over the inputs.
    pub pass: f64,
    /// The solve from the merged moments.
    pub solve: f64,
}

/// A model trained by [`crate::train`], with what a front end reports of the run.
pub struct TrainOutcome {
    /// The model, ready to be saved (`Model::to_checked_bytes`).
    pub model: Model,
    /// The route it took.
    pub route: Route,
    /// Seconds of the training itself.
    pub seconds: f64,
    /// The parts of a fit from moments.
    pub moment_seconds: Option<MomentSeconds>,
    /// A batch fit's one-line summary.
    pub summary: Option<String>,
    /// What `--tune` chose.
    pub tuned: Option<Tuned>,
}
