//! `auc metrics`: AUC, AP and the ROC curve of a file of scores against a file's labels; with
//! `--max-fpr` the partial AUC, with `--multiclass` the multiclass AUC of K score columns
//! (`multiclass.rs`).

use std::path::PathBuf;

use auc_core::Label;
use auc_eval::{metrics, partial};
use serde_json::json;

use crate::input::{self, ReadArgs};
use crate::multiclass::{AverageArg, MulticlassRequest, SchemeArg};
use crate::output::{Error, line, write_text};
use crate::plot;

#[derive(clap::Args, Debug)]
pub(crate) struct MetricsArgs {
    /// File with one score per line (`-` for standard input). With `--multiclass`: K scores
    /// per line, separated by whitespace or commas, column c the score of the c-th class in
    /// increasing label order.
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
    /// Also report the partial AUC over false-positive rates in [0, B], B in (0, 1]: `pauc`,
    /// McClish's standardized value (scikit-learn's `roc_auc_score(max_fpr=B)`; 0.5 for random
    /// scores, 1 for a perfect ranking), and `pauc_area`, the raw area (at most B).
    #[arg(long, value_name = "B", conflicts_with = "multiclass")]
    pub(crate) max_fpr: Option<f64>,
    /// The labels file holds K >= 2 classes (its distinct labels) and the scores file K columns,
    /// in increasing label order: print the multiclass AUC, one-vs-rest (each column against
    /// its class) or one-vs-one (Hand and Till's M). Rows need not sum to 1.
    #[arg(long, value_enum, conflicts_with_all = ["roc", "svg"])]
    pub(crate) multiclass: Option<SchemeArg>,
    /// How `--multiclass` averages the classes' (ovr) or pairs' (ovo) AUCs: `macro` (plain
    /// mean, the default) or `weighted` (by prevalence).
    #[arg(long, value_enum, requires = "multiclass")]
    pub(crate) average: Option<AverageArg>,
    /// Print `{"auc": .., "ap": .., "positive": [..]}` (with `--max-fpr` also `max_fpr`, `pauc`
    /// and `pauc_area`; with `--multiclass` `{"auc", "multiclass", "average", "classes", "n"}`).
    #[arg(long)]
    pub(crate) json: bool,
}

/// Reads one finite score per line (blank lines skipped), no line longer than `max_line_bytes`;
/// errors name file, line and column.
pub(crate) fn read_scores(
    path: &std::path::Path,
    max_line_bytes: usize,
) -> Result<Vec<f64>, Error> {
    let mut scores = Vec::new();
    input::for_each_line(path, max_line_bytes, |no, l| {
        let t = l.trim();
        if t.is_empty() {
            return Ok(());
        }
        let v: f64 = t.parse().map_err(|_| {
            format!(
                "{}:{no}:1: expected a number (one score per line), found `{t}`",
                path.display()
            )
        })?;
        if !v.is_finite() {
            return Err(format!("{}:{no}:1: score `{t}` is not finite", path.display()).into());
        }
        scores.push(v);
        Ok(())
    })?;
    Ok(scores)
}

pub(crate) fn metrics_cmd(a: MetricsArgs) -> Result<(), Error> {
    if crate::output::is_stdout(&a.scores) && crate::output::is_stdout(&a.labels) {
        return Err("--scores and --labels cannot both be standard input".into());
    }
    if let Some(scheme) = a.multiclass {
        return crate::multiclass::run(&MulticlassRequest {
            scores: &a.scores,
            labels: &a.labels,
            read: &a.read,
            scheme,
            average: a.average.unwrap_or(AverageArg::Macro),
            json: a.json,
        });
    }
    // Checked before any file is read.
    if let Some(b) = a.max_fpr
        && let Err(e) = partial::check_max_fpr(b)
    {
        return Err(format!("--max-fpr {b}: {e}").into());
    }
    let scores = read_scores(&a.scores, a.read.max_line_bytes())?;
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
    let pauc = a
        .max_fpr
        .map(|b| partial::partial_auc(&scores, labels, b))
        .transpose()?;
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
        let mut v = json!({"auc": auc, "ap": ap, "positive": choice.labels});
        if let (Some(p), Some(obj)) = (pauc, v.as_object_mut()) {
            obj.insert("max_fpr".into(), json!(p.max_fpr));
            obj.insert("pauc".into(), json!(p.standardized));
            obj.insert("pauc_area".into(), json!(p.area));
        }
        line(v)
    } else {
        let mut text = format!("AUC {auc:.6}\nAP  {ap:.6}");
        if let Some(p) = pauc {
            text.push_str(&format!(
                "\npAUC {:.6} (FPR <= {}, McClish-standardized)\npAUC area {:.6}",
                p.standardized, p.max_fpr, p.area
            ));
        }
        line(text)
    }
}
