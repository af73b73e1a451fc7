//! `auc metrics`: AUC, AP and the ROC curve of a file of scores against a file's labels.

use std::path::PathBuf;

use auc_core::Label;
use auc_eval::metrics;
use serde_json::json;

use crate::input::{self, ReadArgs};
use crate::output::{Error, line, write_text};
use crate::plot;

#[derive(clap::Args, Debug)]
pub(crate) struct MetricsArgs {
    /// File with one score per line (`-` for standard input).
    #[arg(long)]
    pub(crate) scores: PathBuf,
    /// Any data file the reader accepts (a file of bare labels, one per line, works).
    #[arg(long)]
    pub(crate) labels: PathBuf,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
    /// Write the ROC curve's points (false and true positive rates, thresholds) as CSV (`-`:
    /// stdout).
    #[arg(long, value_name = "OUT.csv")]
    pub(crate) roc: Option<PathBuf>,
    /// Draw the ROC curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    pub(crate) svg: Option<PathBuf>,
    /// Print `{"auc": .., "ap": .., "positive": [..]}`.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Reads one finite score per line (blank lines skipped); errors name file, line and column.
pub(crate) fn read_scores(path: &std::path::Path) -> Result<Vec<f64>, Error> {
    let text = if crate::output::is_stdout(path) {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("-: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
    };
    let mut scores = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        let v: f64 = t.parse().map_err(|_| {
            format!(
                "{}:{}:1: expected a number (one score per line), found `{t}`",
                path.display(),
                i + 1
            )
        })?;
        if !v.is_finite() {
            return Err(
                format!("{}:{}:1: score `{t}` is not finite", path.display(), i + 1).into(),
            );
        }
        scores.push(v);
    }
    Ok(scores)
}

pub(crate) fn metrics_cmd(a: MetricsArgs) -> Result<(), Error> {
    if crate::output::is_stdout(&a.scores) && crate::output::is_stdout(&a.labels) {
        return Err("--scores and --labels cannot both be standard input".into());
    }
    let scores = read_scores(&a.scores)?;
    let raw = a.read.read(std::slice::from_ref(&a.labels), None)?;
    let (data, choice) =
        input::binarize(&raw, &a.read.positive_rule(), auc_data::Layout::ByDensity)?;
    let labels: &[Label] = data.labels();
    if labels.len() != scores.len() {
        return Err(format!(
            "{} holds {} scores but {} holds {} labels",
            a.scores.display(),
            scores.len(),
            a.labels.display(),
            labels.len()
        )
        .into());
    }
    let auc = metrics::auc(&scores, labels)?;
    let ap = metrics::average_precision(&scores, labels)?;
    if a.roc.is_some() || a.svg.is_some() {
        let roc = metrics::roc_curve(&scores, labels)?;
        if let Some(path) = &a.roc {
            write_text(path, &plot::roc_csv(&roc))?;
        }
        if let Some(path) = &a.svg {
            let title = format!("ROC of {} (AUC {auc:.4})", a.scores.display());
            write_text(path, &plot::roc_svg(&roc, &title)?)?;
        }
    }
    if a.json {
        line(json!({"auc": auc, "ap": ap, "positive": choice.labels}))
    } else {
        line(format!("AUC {auc:.6}\nAP  {ap:.6}"))
    }
}
