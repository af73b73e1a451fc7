//! `auc metrics`: AUC, AP and the ROC curve of a file of scores against a file's labels; with
//! `--max-fpr` the partial AUC, with `--ci` DeLong's interval of the AUC, with `--bootstrap N`
//! bootstrap intervals, with `--multiclass` the multiclass AUC of K score columns
//! (`multiclass.rs`). `auc compare` (`compare.rs`) reads its files the same way
//! ([`read_scored`]).

use std::path::PathBuf;

use auc_core::Label;
use auc_eval::bootstrap::{self, BootstrapCi, BootstrapParams};
use auc_eval::operating::{self, OperatingPoint, Target};
use auc_eval::{delong, metrics, partial};
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
    /// Write the precision-recall curve as CSV (`precision,recall,threshold`; `-`: stdout), as
    /// scikit-learn's `precision_recall_curve`: thresholds increasing, then the end point
    /// precision 1, recall 0 with threshold `inf`.
    #[arg(long, value_name = "OUT.csv", conflicts_with = "multiclass")]
    pub(crate) pr: Option<PathBuf>,
    /// Report the operating point meeting a target (repeatable): `recall=R` (the largest
    /// threshold whose recall reaches R), `precision=P` (the largest recall with precision >= P),
    /// `fpr=F` (the largest recall with FPR <= F), `cost=CFN:CFP` (the least CFN*FN + CFP*FP).
    /// Thresholds are `roc_curve`'s: distinct scores, a row positive when score >= threshold.
    #[arg(long = "at", value_name = "TARGET", conflicts_with = "multiclass")]
    pub(crate) at: Vec<String>,
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
    /// Add DeLong's confidence interval of the AUC (DeLong et al. 1988, by Sun and Xu's
    /// O(n log n) algorithm): AUC -/+ z se on the AUC scale, clipped to [0, 1].
    #[arg(long, conflicts_with = "multiclass")]
    pub(crate) ci: bool,
    /// Confidence level of `--ci` and `--bootstrap`, in (0, 1).
    #[arg(long, value_name = "L", default_value_t = 0.95)]
    pub(crate) level: f64,
    /// Add stratified bootstrap percentile intervals of the AUC, AP and (with `--max-fpr`) the
    /// partial AUC from N replicates (each class resampled apart; seeded by `--seed`).
    #[arg(long, value_name = "N", conflicts_with = "multiclass")]
    pub(crate) bootstrap: Option<usize>,
    /// Seed of `--bootstrap`'s draws (the same seed gives the same intervals).
    #[arg(long, default_value_t = 0, requires = "bootstrap")]
    pub(crate) seed: u64,
    /// Print `{"auc": .., "ap": .., "positive": [..]}` (with `--max-fpr` also `max_fpr`, `pauc`
    /// and `pauc_area`; with `--ci` `auc_ci`, `auc_se`, `level`, `ci_method`; with `--bootstrap`
    /// `bootstrap` {`replicates`, `seed`, `auc_ci`, `auc_se`, `ap_ci`, `ap_se`, `pauc_ci`,
    /// `pauc_se`}; with `--at` `operating_points` [{`target`, `threshold` (null for +inf),
    /// `tpr`, `fpr`, `precision`, `recall`, `f1`, `tp`, `fp`, `tn`, `fn`}]; with `--multiclass` `{"auc", "multiclass", "average", "classes", "n"}`).
    #[arg(long)]
    pub(crate) json: bool,
}

/// Score vectors (one per score file), the binarized labels, and the positive class as the
/// reader chose it.
pub(crate) type ScoredFiles = (Vec<Vec<f64>>, Vec<Label>, Vec<f64>);

/// Reads the labels of `labels` (any data file, as `auc metrics` reads it) and the scores of each
/// file of `scores`; every score file must hold one score per label.
pub(crate) fn read_scored(
    scores: &[&std::path::Path],
    labels: &std::path::Path,
    read: &ReadArgs,
) -> Result<ScoredFiles, Error> {
    let raw = read.read(&[labels.to_path_buf()], None)?;
    let (data, choice) = input::binarize(&raw, &read.positive_rule(), auc_data::Layout::ByDensity)?;
    let y: Vec<Label> = data.labels().to_vec();
    let mut all = Vec::with_capacity(scores.len());
    for path in scores {
        let s = read_scores(path, read.max_line_bytes())?;
        if s.len() != y.len() {
            return Err(format!(
                "{} holds {} scores but {} holds {} labels",
                path.display(),
                s.len(),
                labels.display(),
                y.len()
            )
            .into());
        }
        all.push(s);
    }
    Ok((all, y, choice.labels))
}

/// `[lower, upper]` as a JSON pair.
fn pair(lower: f64, upper: f64) -> serde_json::Value {
    json!([lower, upper])
}

/// The `bootstrap` object of `--json`.
fn bootstrap_json(b: &BootstrapCi) -> serde_json::Value {
    let mut v = json!({
        "replicates": b.replicates,
        "seed": b.seed,
        "method": "stratified percentile",
        "auc_ci": pair(b.auc.lower, b.auc.upper),
        "auc_se": b.auc.se,
        "ap_ci": pair(b.ap.lower, b.ap.upper),
        "ap_se": b.ap.se,
    });
    if let (Some(p), Some(obj)) = (b.pauc, v.as_object_mut()) {
        obj.insert("pauc_ci".into(), pair(p.lower, p.upper));
        obj.insert("pauc_se".into(), json!(p.se));
    }
    v
}

/// A level as a percentage for text output (`95%`, `99.9%`).
fn percent(level: f64) -> String {
    format!("{}%", (level * 1000.0).round() / 10.0)
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
    if let Err(e) = delong::check_level(a.level) {
        return Err(format!("--level {}: {e}", a.level).into());
    }
    let targets: Vec<Target> =
        a.at.iter()
            .map(|t| t.parse::<Target>().map_err(|e| format!("--at {t}: {e}")))
            .collect::<Result<_, _>>()?;
    if let Some(n) = a.bootstrap
        && n < 2
    {
        return Err(format!("--bootstrap {n}: at least 2 replicates are needed").into());
    }
    let (mut all, labels, positive) = read_scored(&[&a.scores], &a.labels, &a.read)?;
    let scores = all.pop().unwrap_or_default();
    let labels: &[Label] = &labels;
    let auc = metrics::auc(&scores, labels)?;
    let ci = if a.ci {
        Some(delong::auc_ci(&scores, labels, a.level)?)
    } else {
        None
    };
    let boot = a
        .bootstrap
        .map(|replicates| {
            bootstrap::bootstrap(
                &scores,
                labels,
                &BootstrapParams {
                    replicates,
                    seed: a.seed,
                    level: a.level,
                    max_fpr: a.max_fpr,
                },
            )
        })
        .transpose()?;
    let ap = metrics::average_precision(&scores, labels)?;
    let pauc = a
        .max_fpr
        .map(|b| partial::partial_auc(&scores, labels, b))
        .transpose()?;
    let points = if targets.is_empty() {
        Vec::new()
    } else {
        operating::operating_points(&scores, labels, &targets).map_err(|e| match e {
            metrics::MetricError::Setting { value, .. } => {
                format!("--at precision={value}: no threshold reaches this precision").into()
            }
            other => Error::from(other),
        })?
    };
    if let Some(path) = &a.pr {
        write_text(path, &pr_csv(&operating::pr_curve(&scores, labels)?))?;
    }
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
        let mut v = json!({"auc": auc, "ap": ap, "positive": positive});
        if let Some(obj) = v.as_object_mut() {
            if let Some(p) = pauc {
                obj.insert("max_fpr".into(), json!(p.max_fpr));
                obj.insert("pauc".into(), json!(p.standardized));
                obj.insert("pauc_area".into(), json!(p.area));
            }
            if let Some(c) = ci {
                obj.insert("auc_ci".into(), pair(c.lower, c.upper));
                obj.insert("auc_se".into(), json!(c.se));
                obj.insert("ci_method".into(), json!("delong"));
            }
            if ci.is_some() || boot.is_some() {
                obj.insert("level".into(), json!(a.level));
            }
            if let Some(b) = &boot {
                obj.insert("bootstrap".into(), bootstrap_json(b));
            }
            if !points.is_empty() {
                let list: Vec<serde_json::Value> = targets
                    .iter()
                    .zip(&points)
                    .map(|(t, p)| point_json(t, p))
                    .collect();
                obj.insert("operating_points".into(), json!(list));
            }
        }
        line(v)
    } else {
        let level = percent(a.level);
        let mut text = format!("AUC {auc:.6}");
        if let Some(c) = ci {
            text.push_str(&format!(
                "  {level} CI [{:.6}, {:.6}] (DeLong, se {:.6})",
                c.lower, c.upper, c.se
            ));
        }
        text.push_str(&format!("\nAP  {ap:.6}"));
        if let Some(b) = &boot {
            text.push_str(&format!(
                "  {level} CI [{:.6}, {:.6}] (bootstrap)",
                b.ap.lower, b.ap.upper
            ));
        }
        if let Some(p) = pauc {
            text.push_str(&format!(
                "\npAUC {:.6} (FPR <= {}, McClish-standardized)",
                p.standardized, p.max_fpr
            ));
            if let Some(iv) = boot.as_ref().and_then(|b| b.pauc) {
                text.push_str(&format!(
                    "  {level} CI [{:.6}, {:.6}] (bootstrap)",
                    iv.lower, iv.upper
                ));
            }
            text.push_str(&format!("\npAUC area {:.6}", p.area));
        }
        if let Some(b) = &boot {
            text.push_str(&format!(
                "\nbootstrap: {} stratified replicates, seed {}, percentile intervals; AUC {level} CI [{:.6}, {:.6}]",
                b.replicates, b.seed, b.auc.lower, b.auc.upper
            ));
        }
        for (t, p) in targets.iter().zip(&points) {
            text.push_str(&format!(
                "\nat {t}: threshold {}  TPR {:.6}  FPR {:.6}  precision {:.6}  F1 {:.6}  \
                 TP {} FP {} TN {} FN {}",
                fmt_threshold(p.threshold),
                p.tpr,
                p.fpr,
                p.precision,
                p.f1,
                p.tp,
                p.fp,
                p.tn,
                p.fn_
            ));
        }
        line(text)
    }
}

/// A threshold for text: its shortest decimal form, `+inf` when nothing is predicted positive.
fn fmt_threshold(t: f64) -> String {
    if t.is_finite() {
        auc_core::shortest(t)
    } else {
        "+inf".to_owned()
    }
}

/// One operating point as `--json` prints it (threshold null for +inf).
fn point_json(t: &Target, p: &OperatingPoint) -> serde_json::Value {
    json!({
        "target": t.to_string(),
        "threshold": if p.threshold.is_finite() { json!(p.threshold) } else { json!(null) },
        "tpr": p.tpr,
        "fpr": p.fpr,
        "precision": p.precision,
        "recall": p.recall,
        "f1": p.f1,
        "tp": p.tp,
        "fp": p.fp,
        "tn": p.tn,
        "fn": p.fn_,
    })
}

/// The precision-recall curve as CSV, `inf` for the end point's threshold.
fn pr_csv(curve: &[operating::PrPoint]) -> String {
    let mut out = String::from("precision,recall,threshold\n");
    for p in curve {
        out.push_str(&format!(
            "{},{},{}\n",
            auc_core::shortest(p.precision),
            auc_core::shortest(p.recall),
            if p.threshold.is_finite() {
                auc_core::shortest(p.threshold)
            } else {
                "inf".to_owned()
            }
        ));
    }
    out
}
