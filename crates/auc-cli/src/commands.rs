//! The subcommand table: the flags of `auc` (clap) and the dispatch of each subcommand to its
//! own file (`info.rs`, `metrics.rs`, `compare.rs`, `cv.rs`, `curve.rs`, `friedman.rs`,
//! `train.rs`, `moments.rs`, `predict.rs`, `importance.rs`, `stream.rs`, `algos.rs`) and the
//! shell completions.

use clap::{CommandFactory, Parser, Subcommand};

use crate::output::Error;

/// Online and batch AUC maximization on imbalanced data.
#[derive(Parser, Debug)]
#[command(name = "auc", version, about, long_about = None)]
pub(crate) struct Cli {
    /// Print no notes and no progress bars on stderr: results, warnings and errors only.
    #[arg(short = 'q', long, global = true)]
    pub(crate) quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Describe a data file: rows, features, classes, imbalance.
    ///
    /// Instances, features, classes, the positive class and why, imbalance, density, and the
    /// scaling `--scale auto` picks.
    Info(crate::info::InfoArgs),
    /// AUC and AP of scores against the labels of a data file.
    ///
    /// Scores one per line; the ROC curve's points (CSV) and plot (SVG); partial and multiclass
    /// AUC.
    Metrics(crate::metrics::MetricsArgs),
    /// Paired DeLong test of two score files on the same rows.
    ///
    /// Both AUCs, their difference with its interval, z and the two-sided p-value (DeLong et
    /// al. 1988, by Sun and Xu's O(n log n) algorithm).
    Compare(crate::compare::CompareArgs),
    /// Nested cross-validation: repeated stratified k-fold, inner grid search.
    ///
    /// The protocol of [OAUC sec. 6.3]. Loads the data in memory.
    Cv(crate::cv::CvArgs),
    /// Convergence curve of a one-pass learner: test AUC after every N updates.
    ///
    /// Loads the data in memory.
    Curve(crate::curve::CurveArgs),
    /// Friedman test and Nemenyi critical difference across methods.
    ///
    /// Iman and Davenport's F form of the Friedman test and the Nemenyi critical difference of
    /// the mean ranks (Demsar 2006).
    Friedman(crate::friedman::FriedmanArgs),
    /// Train a learner on data files and save the model.
    ///
    /// `--resume` continues an online model. One-pass learners take one pass over the data in file order (--shuffle to permute it),
    /// reading it incrementally in memory that does not grow with it: a file is read twice (a
    /// first pass for the scaling's ranges, the positive class and the dimension), standard input
    /// once (it takes --scale-from FILE or --scale none). Batch learners (gam-cvm and its
    /// baselines), --tune and --shuffle-full load the data in memory; batch learners are fitted
    /// on all of it and saved as their inductive model. Every parameter has a default; --tune
    /// picks them by cross-validation.
    Train(crate::train::TrainArgs),
    /// Class moments of data files, for the learners fitted from moments.
    ///
    /// Class moments and feature ranges: `auc train --algo NAME A.mom B.mom C.svm` merges them
    /// exactly.
    Moments(crate::moments::MomentsArgs),
    /// Score a data file with a saved model.
    ///
    /// The file is read as the model's training data was read, incrementally: scores are
    /// written as rows are read.
    Predict(crate::predict::PredictArgs),
    /// Prequential (test-then-train) AUC of a one-pass learner along a stream.
    ///
    /// Printed as the input is read, incrementally, as `auc train` reads it.
    Stream(crate::stream::StreamArgs),
    /// Describe a saved model: algorithm, parameters, classes, reading, scaling.
    ///
    /// Also its columns (tables), calibration and state, and what it says per input feature:
    /// a linear model's weights in the input's units, the split counts of trees.
    Model(crate::predict::ModelArgs),
    /// Permutation importance of a saved model's input columns on labelled data.
    ///
    /// The drop in AUC when one column is shuffled, seeded, over repeats (as scikit-learn
    /// computes it). Loads the data in memory.
    Importance(crate::importance::ImportanceArgs),
    /// List the algorithms with their parameters, defaults and grids.
    Algos(crate::algos::AlgosArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    ///
    /// Bash: `auc completions bash > ~/.local/share/bash-completion/completions/auc`; zsh: write
    /// `_auc` into a folder of `$fpath`; fish: `auc completions fish >
    /// ~/.config/fish/completions/auc.fish`; PowerShell: add `auc completions powershell |
    /// Out-String | Invoke-Expression` to `$PROFILE`.
    Completions(CompletionsArgs),
}

/// Flags of `auc completions`.
#[derive(clap::Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Writes the completion script of `shell` to stdout.
fn completions(a: &CompletionsArgs) -> Result<(), Error> {
    let mut cmd = crate::help::shape(Cli::command());
    let mut script = Vec::new();
    clap_complete::generate(a.shell, &mut cmd, "auc", &mut script);
    crate::output::line(String::from_utf8_lossy(&script).trim_end())
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
        Command::Importance(a) => crate::importance::importance(a),
        Command::Algos(a) => crate::algos::list_algos(a.json),
        Command::Completions(a) => completions(&a),
    }
}
