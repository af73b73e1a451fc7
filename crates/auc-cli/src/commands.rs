//! The subcommand table: the flags of `auc` (clap) and the dispatch of each subcommand to its
//! own file (`info.rs`, `metrics.rs`, `compare.rs`, `cv.rs`, `curve.rs`, `friedman.rs`, `train.rs`,
//! `moments.rs`, `predict.rs`, `stream.rs`, `algos.rs`).

use clap::{Parser, Subcommand};

use crate::output::Error;

/// Online and batch AUC maximization on imbalanced data.
#[derive(Parser, Debug)]
#[command(name = "auc", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Describe a data file: instances, features, classes, positive class, imbalance, density,
    /// the scaling `--scale auto` picks.
    Info(crate::info::InfoArgs),
    /// AUC and AP of scores (one per line) against the labels of a data file; ROC points and plot.
    Metrics(crate::metrics::MetricsArgs),
    /// Paired DeLong test of two score files on the same rows: AUC of each, their difference
    /// with its interval, z and the two-sided p-value.
    Compare(crate::compare::CompareArgs),
    /// Nested cross-validation [OAUC sec. 6.3]: repeated stratified k-fold, inner grid search.
    /// Loads the data in memory.
    Cv(crate::cv::CvArgs),
    /// Convergence curve of a one-pass learner: test AUC after every N updates. Loads the data
    /// in memory.
    Curve(crate::curve::CurveArgs),
    /// Friedman test (Iman-Davenport) and Nemenyi critical difference across methods (Demsar 2006).
    Friedman(crate::friedman::FriedmanArgs),
    /// Train a learner on data files and save the model (continue an online one with --resume).
    ///
    /// One-pass learners take one pass over the data in file order (--shuffle to permute it),
    /// reading it incrementally in memory that does not grow with it: a file is read twice (a
    /// first pass for the scaling's ranges, the positive class and the dimension), standard input
    /// once (it takes --scale-from FILE or --scale none). Batch learners (gam-cvm and its
    /// baselines), --tune and --shuffle-full load the data in memory; batch learners are fitted
    /// on all of it and saved as their inductive model. Every parameter has a default; --tune
    /// picks them by cross-validation.
    Train(crate::train::TrainArgs),
    /// Class moments and feature ranges of data files, for the learners fitted from moments:
    /// `auc train --algo NAME A.mom B.mom C.svm` merges them exactly.
    Moments(crate::moments::MomentsArgs),
    /// Score a data file with a saved model, reading it as the model's training data was read,
    /// incrementally: scores are written as rows are read.
    Predict(crate::predict::PredictArgs),
    /// Prequential (test-then-train) AUC of a one-pass learner along a stream, printed as it is
    /// read (input read incrementally, as `auc train` reads it).
    Stream(crate::stream::StreamArgs),
    /// Describe a saved model: algorithm, parameters, positive class, reading, scaling, state.
    Model(crate::predict::ModelArgs),
    /// List the algorithms with their parameters, defaults and grids.
    Algos(crate::algos::AlgosArgs),
}

/// Runs the parsed command.
pub(crate) fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Info(a) => crate::info::info(a),
        Command::Metrics(a) => crate::metrics::metrics_cmd(a),
        Command::Compare(a) => crate::compare::compare_cmd(a),
        Command::Cv(a) => crate::cv::cv_cmd(a),
        Command::Curve(a) => crate::curve::curve_cmd(a),
        Command::Friedman(a) => crate::friedman::run(&a.table, a.alpha, a.json),
        Command::Train(a) => crate::train::train(a),
        Command::Moments(a) => crate::moments::moments(a),
        Command::Predict(a) => crate::predict::predict(a),
        Command::Stream(a) => crate::stream::stream(a),
        Command::Model(a) => crate::predict::model(a),
        Command::Algos(a) => crate::algos::list_algos(a.json),
    }
}
