//! `auc importance`: permutation importance of a saved model's input columns on a labelled data
//! file (`auc_train::importance`).

use std::path::PathBuf;

use serde_json::json;

use crate::input::ReadArgs;
use crate::output::{Error, is_stdout, line};
use crate::predict::load;
use crate::progress::Stderr;

/// Flags of `auc importance`.
#[derive(clap::Args, Debug)]
pub(crate) struct ImportanceArgs {
    /// The model file (from `auc train`; `-` reads it from standard input).
    #[arg(short = 'm', long)]
    model: PathBuf,
    /// The labelled data (`-` for standard input), read as the model's training data was read
    /// and held in memory, dense: held-out rows, not the training rows, say what the model
    /// relies on for new data.
    data: PathBuf,
    /// Shuffles of each column; the mean and standard deviation of the AUC drops are printed.
    #[arg(long, default_value_t = 5)]
    repeats: usize,
    /// The seed of the shuffles (0 to 4294967295): with the same seed the shuffles are those of
    /// scikit-learn's `permutation_importance(..., random_state=SEED)`.
    #[arg(long, default_value_t = 0)]
    seed: u32,
    /// Print one JSON object: `baseline_auc`, `repeats`, `seed` and `columns` (`column`,
    /// `mean`, `std`, `drops`) in column order.
    #[arg(long)]
    json: bool,
    /// `--positive` picks the class the AUC is computed for (default: the model's); the other
    /// reading flags must agree with the model's.
    #[command(flatten)]
    read: ReadArgs,
}

pub(crate) fn importance(a: ImportanceArgs) -> Result<(), Error> {
    if is_stdout(&a.model) && is_stdout(&a.data) {
        return Err("the model and the data cannot both be standard input".into());
    }
    if a.repeats == 0 {
        return Err("--repeats must be at least 1".into());
    }
    let m = load(&a.model)?;
    a.read.check_against(&m.preparation, &a.model)?;
    let columns = auc_train::importance::input_columns(&m.preparation)?;
    let options = auc_train::ScoreOptions {
        positive: a.read.positive.clone(),
        max_line_bytes: a.read.max_line_bytes(),
        zero_based: a.read.zero_based(),
        ..Default::default()
    };
    let scoring = auc_train::Scoring::open(&m, &a.data, &options, &Stderr)?;
    if !scoring.labelled() {
        return Err(format!(
            "{}: no label column: permutation importance measures AUC drops, which need labels",
            a.data.display()
        )
        .into());
    }
    let rows = scoring.read_raw(auc_train::memory::limit(None))?;
    let imp =
        auc_train::importance::permutation_importance(&m, &rows, &columns, a.repeats, a.seed)?;
    if a.json {
        let cols: Vec<_> = imp
            .columns
            .iter()
            .map(|c| json!({"column": c.name, "mean": c.mean, "std": c.std, "drops": c.drops}))
            .collect();
        return line(json!({
            "baseline_auc": imp.baseline,
            "rows": rows.n(),
            "repeats": a.repeats,
            "seed": a.seed,
            "columns": cols,
        }));
    }
    line(format!(
        "permutation importance: the drop in AUC when one column is shuffled, {} repeats, seed {}; AUC {:.6} on {} rows as read",
        a.repeats,
        a.seed,
        imp.baseline,
        rows.n()
    ))?;
    let mut order: Vec<usize> = (0..imp.columns.len()).collect();
    order.sort_by(|&x, &y| {
        imp.columns[y]
            .mean
            .total_cmp(&imp.columns[x].mean)
            .then(x.cmp(&y))
    });
    let width = imp
        .columns
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    line(format!(
        "{:<width$}  {:>10}  {:>9}",
        "column", "mean", "std"
    ))?;
    for k in order {
        let c = &imp.columns[k];
        line(format!(
            "{:<width$}  {:>+10.6}  {:>9.6}",
            c.name, c.mean, c.std
        ))?;
    }
    Ok(())
}
