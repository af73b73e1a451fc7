//! What a protocol run reports: one [`RunRecord`] per fit-and-score of a split, and their
//! [`Summary`] (means and sample standard deviations over the runs). Re-exported by `cv`, where
//! the records are made.

use auc_core::ParamMap;
use serde::Serialize;

/// The outcome of one outer split (one "run" of the papers' tables).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    /// Position in the returned list, `0..R*K`.
    pub run: usize,
    /// Repetition (0-based).
    pub repeat: usize,
    /// Outer fold (0-based; always 0 for [`holdout`](crate::cv::holdout)).
    pub fold: usize,
    /// Test AUC of the final model.
    pub auc: f64,
    /// Test average precision of the final model.
    pub ap: f64,
    /// Test partial AUC up to [`CvConfig::max_fpr`](crate::cv::CvConfig::max_fpr) (standardized), when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pauc: Option<f64>,
    /// DeLong's interval `[lower, upper]` of the test AUC at
    /// [`CvConfig::ci_level`](crate::cv::CvConfig::ci_level), when one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auc_ci: Option<[f64; 2]>,
    /// DeLong's standard error of the test AUC, with the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub auc_se: Option<f64>,
    /// Test log loss of the calibrated probabilities, with [`CvConfig::calibration`](crate::cv::CvConfig::calibration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_loss: Option<f64>,
    /// Test Brier score of the calibrated probabilities, with [`CvConfig::calibration`](crate::cv::CvConfig::calibration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brier: Option<f64>,
    /// The parameters chosen (the full set, base included).
    pub params: ParamMap,
    /// Mean inner validation AUC of the chosen parameters; `None` when there was no choice.
    pub inner_auc: Option<f64>,
    /// Wall-clock seconds of the final fit (with the scoring of the test part, which a
    /// transductive fit does in the same step).
    pub train_seconds: f64,
    /// Seconds spent in this split's inner CV, summed over its fit-and-score jobs (0 without
    /// inner CV). With several threads this is compute time, not elapsed time.
    pub search_seconds: f64,
    /// Number of candidate parameter sets.
    pub grid_points: usize,
    /// Training examples of the final fit.
    pub n_train: usize,
    /// Test examples.
    pub n_test: usize,
    /// Whether the final fit left the region its theory allows ([`auc_core::Scorer::divergence`]):
    /// its scores are not to be trusted.
    pub diverged: bool,
    /// What the divergence was and which parameter to change, when it diverged.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divergence: Option<String>,
}

/// Mean and spread of a list of [`RunRecord`]s.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Number of runs.
    pub runs: usize,
    /// Mean test AUC.
    pub auc_mean: f64,
    /// Sample standard deviation (divide by $n - 1$) of the test AUC; 0 for one run.
    pub auc_std: f64,
    /// Mean test AP.
    pub ap_mean: f64,
    /// Sample standard deviation of the test AP; 0 for one run.
    pub ap_std: f64,
    /// Mean test partial AUC, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pauc_mean: Option<f64>,
    /// Sample standard deviation of the test partial AUC, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pauc_std: Option<f64>,
    /// Mean test log loss, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_loss_mean: Option<f64>,
    /// Sample standard deviation of the test log loss, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log_loss_std: Option<f64>,
    /// Mean test Brier score, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brier_mean: Option<f64>,
    /// Sample standard deviation of the test Brier score, when every run has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brier_std: Option<f64>,
    /// Mean seconds of a final fit.
    pub train_seconds_mean: f64,
    /// Candidate parameter sets per run (the largest over the runs).
    pub grid_points: usize,
    /// Total compute seconds: every final fit plus every inner-CV job.
    pub total_seconds: f64,
    /// Runs whose final fit diverged.
    pub diverged_runs: usize,
}

/// Mean and sample standard deviation; `(0, 0)` for no values, std 0 for one value.
fn mean_std(values: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = values.clone().count();
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = values.clone().sum::<f64>() / n as f64;
    if n == 1 {
        return (mean, 0.0);
    }
    let ss: f64 = values.map(|v| (v - mean) * (v - mean)).sum();
    (mean, (ss / (n - 1) as f64).sqrt())
}

/// Summarizes runs: means, sample standard deviations and costs. No runs give all zeros.
pub fn summarize(records: &[RunRecord]) -> Summary {
    let (auc_mean, auc_std) = mean_std(records.iter().map(|r| r.auc));
    let (ap_mean, ap_std) = mean_std(records.iter().map(|r| r.ap));
    let (train_seconds_mean, _) = mean_std(records.iter().map(|r| r.train_seconds));
    let optional = |field: fn(&RunRecord) -> Option<f64>| {
        let values: Option<Vec<f64>> = records.iter().map(field).collect();
        values
            .filter(|v| !v.is_empty())
            .map(|v| mean_std(v.into_iter()))
    };
    let pauc = optional(|r| r.pauc);
    let log_loss = optional(|r| r.log_loss);
    let brier = optional(|r| r.brier);
    Summary {
        runs: records.len(),
        auc_mean,
        auc_std,
        ap_mean,
        ap_std,
        pauc_mean: pauc.map(|p| p.0),
        pauc_std: pauc.map(|p| p.1),
        log_loss_mean: log_loss.map(|p| p.0),
        log_loss_std: log_loss.map(|p| p.1),
        brier_mean: brier.map(|p| p.0),
        brier_std: brier.map(|p| p.1),
        train_seconds_mean,
        grid_points: records.iter().map(|r| r.grid_points).max().unwrap_or(0),
        total_seconds: records
            .iter()
            .map(|r| r.train_seconds + r.search_seconds)
            .sum(),
        diverged_runs: records.iter().filter(|r| r.diverged).count(),
    }
}
