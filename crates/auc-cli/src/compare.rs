//! `auc compare`: the paired DeLong test of two score files on the same rows (DeLong et al. 1988,
//! by Sun and Xu's O(n log n) algorithm; `auc_metrics::delong`), the labels read as `auc
//! metrics` reads them.

use std::path::PathBuf;

use auc_eval::delong;
use serde_json::json;

use crate::input::ReadArgs;
use crate::metrics::read_scored;
use crate::output::{Error, line};

#[derive(clap::Args, Debug)]
pub(crate) struct CompareArgs {
    /// Score file of model A (one score per line; `-` for standard input).
    #[arg(value_name = "A.txt")]
    pub(crate) a: PathBuf,
    /// Score file of model B, for the same rows in the same order.
    #[arg(value_name = "B.txt")]
    pub(crate) b: PathBuf,
    /// Any data file the reader accepts (a file of bare labels, one per line, works).
    #[arg(long)]
    pub(crate) labels: PathBuf,
    #[command(flatten)]
    pub(crate) read: ReadArgs,
    /// Confidence level of the interval of the difference, in (0, 1).
    #[arg(long, value_name = "L", default_value_t = 0.95)]
    pub(crate) level: f64,
    /// Print `{"auc_a", "auc_b", "delta", "delta_ci", "se", "z", "p_value", "correlation",
    /// "level", "n", "positives", "negatives", "positive", "method"}`.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn compare_cmd(a: CompareArgs) -> Result<(), Error> {
    let stdin = [&a.a, &a.b, &a.labels]
        .iter()
        .filter(|p| crate::output::is_stdout(p))
        .count();
    if stdin > 1 {
        return Err("only one of A, B and --labels can be standard input".into());
    }
    if let Err(e) = delong::check_level(a.level) {
        return Err(format!("--level {}: {e}", a.level).into());
    }
    let (scores, labels, positive) = read_scored(&[&a.a, &a.b], &a.labels, &a.read)?;
    let t = delong::delong_test(&scores[0], &scores[1], &labels, a.level)?;
    let pos = labels.iter().filter(|l| l.is_pos()).count();
    let neg = labels.len() - pos;
    if a.json {
        line(json!({
            "auc_a": t.auc_a,
            "auc_b": t.auc_b,
            "delta": t.delta,
            "delta_ci": [t.delta_ci.0, t.delta_ci.1],
            "se": t.se,
            "z": t.z,
            "p_value": t.p_value,
            "correlation": t.correlation,
            "level": t.level,
            "n": labels.len(),
            "positives": pos,
            "negatives": neg,
            "positive": positive,
            "method": "delong paired",
        }))
    } else {
        let level = format!("{}%", (a.level * 1000.0).round() / 10.0);
        line(format!(
            "AUC A {:.6}  ({})\nAUC B {:.6}  ({})\ndelta {:+.6}  {level} CI [{:+.6}, {:+.6}]\n\
             z {:.4}  p {:.4e}  (paired DeLong test, two-sided; {} rows, {pos} positive; \
             correlation of the AUCs {:.4})",
            t.auc_a,
            a.a.display(),
            t.auc_b,
            a.b.display(),
            t.delta,
            t.delta_ci.0,
            t.delta_ci.1,
            t.z,
            t.p_value,
            labels.len(),
            t.correlation
        ))
    }
}
