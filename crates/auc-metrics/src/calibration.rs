//! Probabilities from scores: Platt's sigmoid and isotonic regression, fitted on held-out scores
//! (docs/math/calibration.md).
//!
//! A scorer ranks; a user who sets a threshold from costs or combines models needs
//! $P(y = +1 \mid s)$. Both calibrations here are fitted on pairs (score, label) that the model
//! did not train on (the caller's job: [`CalibrationSpec`](crate::calibration_cv::CalibrationSpec)
//! gives them by cross-validation) and map any score to a probability in $[0, 1]$:
//!
//! - **sigmoid** \[Platt99\]: $p(s) = 1 / (1 + e^{A s + B})$, with $(A, B)$ minimizing the log loss
//!   against Platt's smoothed targets $t_+ = (N_+ + 1)/(N_+ + 2)$ and $t_- = 1/(N_- + 2)$, which
//!   keep $A$ finite on separable scores. Solved by Newton's method with a backtracking line
//!   search \[LinLinWeng07\] to a gradient of about machine precision (scikit-learn's
//!   `CalibratedClassifierCV(method="sigmoid")` minimizes the same objective with L-BFGS).
//! - **isotonic**: the non-decreasing step fit of the labels by pool-adjacent-violators on the
//!   distinct scores (labels of equal scores averaged, weighted by their count), read between
//!   the fitted points by linear interpolation and clipped to the end values outside them, as
//!   scikit-learn's `IsotonicRegression(out_of_bounds="clip")` predicts.

use std::fmt;
use std::str::FromStr;

use auc_core::Label;
use serde::{Deserialize, Serialize};

/// Which calibration to fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CalibrationKind {
    /// Platt's sigmoid of the score.
    Sigmoid,
    /// Isotonic regression of the label on the score.
    Isotonic,
}

impl CalibrationKind {
    /// The word that names it (`sigmoid`, `isotonic`: scikit-learn's `method` words).
    pub fn word(self) -> &'static str {
        match self {
            CalibrationKind::Sigmoid => "sigmoid",
            CalibrationKind::Isotonic => "isotonic",
        }
    }
}

impl fmt::Display for CalibrationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for CalibrationKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "sigmoid" => Ok(CalibrationKind::Sigmoid),
            "isotonic" => Ok(CalibrationKind::Isotonic),
            other => Err(format!(
                "unknown calibration `{other}`: expected `sigmoid` or `isotonic`"
            )),
        }
    }
}

/// A fitted map from scores to probabilities of the positive class.
///
/// Serialized by variant position (postcard, in model files) or as `{"sigmoid": {"a", "b"}}` /
/// `{"isotonic": {"x", "y"}}` (JSON, `auc model --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Calibration {
    /// $p(s) = 1 / (1 + e^{a s + b})$.
    Sigmoid {
        /// The slope $A$ (negative when higher scores mean more positives).
        a: f64,
        /// The offset $B$.
        b: f64,
    },
    /// Linear interpolation through `(x[i], y[i])`, constant beyond the ends.
    Isotonic {
        /// The scores of the fitted points, strictly increasing.
        x: Vec<f64>,
        /// The probabilities there, non-decreasing, in $[0, 1]$.
        y: Vec<f64>,
    },
}

/// Why a calibration could not be fitted or is not valid.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CalibrationError {
    /// Scores and labels differ in length.
    LengthMismatch {
        /// Number of scores.
        scores: usize,
        /// Number of labels.
        labels: usize,
    },
    /// A score is NaN or infinite.
    NonFinite {
        /// Its position (0-based).
        index: usize,
    },
    /// One class is absent: no probability can be learned.
    SingleClass {
        /// Number of positives.
        pos: usize,
        /// Number of negatives.
        neg: usize,
    },
    /// Too few rows of a class, or folds, for held-out scores of both classes.
    TooFewRows {
        /// Folds asked for.
        folds: usize,
        /// Positive rows.
        pos: usize,
        /// Negative rows.
        neg: usize,
    },
    /// A stored calibration breaks an invariant (a damaged or crafted model file).
    Invalid(String),
}

impl fmt::Display for CalibrationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CalibrationError::LengthMismatch { scores, labels } => {
                write!(f, "{scores} scores but {labels} labels")
            }
            CalibrationError::NonFinite { index } => {
                write!(f, "score {} is not finite", index + 1)
            }
            CalibrationError::SingleClass { pos, neg } => write!(
                f,
                "a calibration needs held-out scores of both classes, got {pos} positive(s) and {neg} negative(s)"
            ),
            CalibrationError::TooFewRows { folds, pos, neg } => write!(
                f,
                "a calibration needs held-out scores of both classes from at least 2 folds: {folds} fold(s) asked for, and the data hold {pos} positive and {neg} negative rows"
            ),
            CalibrationError::Invalid(why) => write!(f, "invalid calibration: {why}"),
        }
    }
}

impl std::error::Error for CalibrationError {}

/// Checks the inputs of a fit and counts the classes.
fn check_inputs(scores: &[f64], labels: &[Label]) -> Result<(usize, usize), CalibrationError> {
    if scores.len() != labels.len() {
        return Err(CalibrationError::LengthMismatch {
            scores: scores.len(),
            labels: labels.len(),
        });
    }
    if let Some(index) = scores.iter().position(|s| !s.is_finite()) {
        return Err(CalibrationError::NonFinite { index });
    }
    let pos = labels.iter().filter(|l| l.is_pos()).count();
    let neg = labels.len() - pos;
    if pos == 0 || neg == 0 {
        return Err(CalibrationError::SingleClass { pos, neg });
    }
    Ok((pos, neg))
}

impl Calibration {
    /// Fits a calibration of `kind` to held-out `scores` and their `labels`.
    ///
    /// # Errors
    /// Lengths that differ, a score that is not finite, or one class only.
    pub fn fit(
        kind: CalibrationKind,
        scores: &[f64],
        labels: &[Label],
    ) -> Result<Calibration, CalibrationError> {
        let (pos, neg) = check_inputs(scores, labels)?;
        Ok(match kind {
            CalibrationKind::Sigmoid => {
                let (a, b) = fit_platt(scores, labels, pos, neg);
                Calibration::Sigmoid { a, b }
            }
            CalibrationKind::Isotonic => {
                let (x, y) = fit_isotonic(scores, labels);
                Calibration::Isotonic { x, y }
            }
        })
    }

    /// Which kind it is.
    pub fn kind(&self) -> CalibrationKind {
        match self {
            Calibration::Sigmoid { .. } => CalibrationKind::Sigmoid,
            Calibration::Isotonic { .. } => CalibrationKind::Isotonic,
        }
    }

    /// $P(y = +1 \mid s)$ for a finite score (a NaN score gives NaN; callers check scores).
    pub fn probability(&self, s: f64) -> f64 {
        match self {
            Calibration::Sigmoid { a, b } => sigmoid_of_minus(a * s + b),
            Calibration::Isotonic { x, y } => interpolate(x, y, s),
        }
    }

    /// The calibrated log-odds $\log(p / (1 - p))$ of a score: exactly $-(A s + B)$ for the
    /// sigmoid (no saturation, so it ranks as the score does when $A < 0$); for the isotonic
    /// fit, of $p$ clipped to $[\epsilon, 1 - \epsilon]$ (machine epsilon), so it is finite.
    /// Positive exactly where the probability is above 1/2.
    pub fn log_odds(&self, s: f64) -> f64 {
        match self {
            Calibration::Sigmoid { a, b } => -(a * s + b),
            Calibration::Isotonic { .. } => {
                let p = self.probability(s).clamp(f64::EPSILON, 1.0 - f64::EPSILON);
                (p / (1.0 - p)).ln()
            }
        }
    }

    /// The probabilities of `scores`.
    pub fn probabilities(&self, scores: &[f64]) -> Vec<f64> {
        scores.iter().map(|&s| self.probability(s)).collect()
    }

    /// Checks the invariants a fit guarantees (what a model file's reader calls).
    ///
    /// # Errors
    /// [`CalibrationError::Invalid`] naming the broken invariant.
    pub fn validate(&self) -> Result<(), CalibrationError> {
        let bad = |why: String| Err(CalibrationError::Invalid(why));
        match self {
            Calibration::Sigmoid { a, b } => {
                if !a.is_finite() || !b.is_finite() {
                    return bad(format!("sigmoid parameters {a}, {b} are not finite"));
                }
            }
            Calibration::Isotonic { x, y } => {
                if x.is_empty() || x.len() != y.len() {
                    return bad(format!(
                        "isotonic fit has {} scores and {} probabilities",
                        x.len(),
                        y.len()
                    ));
                }
                if x.iter().any(|v| !v.is_finite()) || x.windows(2).any(|w| w[0] >= w[1]) {
                    return bad("isotonic scores are not finite and increasing".to_owned());
                }
                if y.iter().any(|v| !(0.0..=1.0).contains(v)) || y.windows(2).any(|w| w[0] > w[1]) {
                    return bad(
                        "isotonic probabilities are not in [0, 1] and non-decreasing".to_owned(),
                    );
                }
            }
        }
        Ok(())
    }

    /// One line for people: `sigmoid (A = .., B = ..)` or `isotonic (K points)`.
    pub fn describe(&self) -> String {
        match self {
            Calibration::Sigmoid { a, b } => format!("sigmoid (A = {a:.6}, B = {b:.6})"),
            Calibration::Isotonic { x, .. } => format!("isotonic ({} points)", x.len()),
        }
    }
}

/// $1 / (1 + e^{z})$ without overflow for any finite $z$.
fn sigmoid_of_minus(z: f64) -> f64 {
    if z >= 0.0 {
        let e = (-z).exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + z.exp())
    }
}

/// $\log(1 + e^{z})$ without overflow.
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// Platt's objective at $(A, B)$: $\sum_i \mathrm{softplus}(z_i) - (1 - t_i) z_i$ with
/// $z_i = A s_i + B$, the log loss of $p_i = 1/(1 + e^{z_i})$ against the targets $t_i$.
fn platt_loss(scores: &[f64], targets: &[f64], a: f64, b: f64) -> f64 {
    scores
        .iter()
        .zip(targets)
        .map(|(&s, &t)| {
            let z = a * s + b;
            softplus(z) - (1.0 - t) * z
        })
        .sum()
}

/// The gradient $(g_A, g_B)$ and Hessian entries $(h_{AA}, h_{AB}, h_{BB})$ of Platt's loss.
fn platt_derivatives(scores: &[f64], targets: &[f64], a: f64, b: f64) -> [f64; 5] {
    let mut d = [0.0; 5];
    for (&s, &t) in scores.iter().zip(targets) {
        let p = sigmoid_of_minus(a * s + b);
        let r = t - p;
        let w = p * (1.0 - p);
        d[0] += s * r;
        d[1] += r;
        d[2] += s * s * w;
        d[3] += s * w;
        d[4] += w;
    }
    d
}

/// Platt's sigmoid fit [Platt99] by Newton's method with backtracking [LinLinWeng07, alg. 1].
///
/// With $p_i = 1/(1 + e^{z_i})$ the gradient is $g = \sum_i (t_i - p_i) (s_i, 1)$ and the Hessian
/// $H = \sum_i p_i (1 - p_i) (s_i, 1)(s_i, 1)^\top$ (plus $10^{-12} I$, which keeps it invertible
/// when every score is equal). The start is $A = 0$, $B = \log((N_- + 1)/(N_+ + 1))$; the loop
/// stops when the gradient is below $10^{-13}$ of the data's scale or a step no longer lowers
/// the loss, at most 200 iterations (the objective is strictly convex: Newton converges
/// quadratically; 10-20 steps are typical).
fn fit_platt(scores: &[f64], labels: &[Label], pos: usize, neg: usize) -> (f64, f64) {
    let t_pos = (pos as f64 + 1.0) / (pos as f64 + 2.0);
    let t_neg = 1.0 / (neg as f64 + 2.0);
    let targets: Vec<f64> = labels
        .iter()
        .map(|l| if l.is_pos() { t_pos } else { t_neg })
        .collect();
    let scale = scores.iter().fold(1.0_f64, |m, s| m.max(s.abs()));
    let n = scores.len() as f64;
    let (mut a, mut b) = (0.0, ((neg as f64 + 1.0) / (pos as f64 + 1.0)).ln());
    let mut loss = platt_loss(scores, &targets, a, b);
    for _ in 0..200 {
        let d = platt_derivatives(scores, &targets, a, b);
        let (g1, g2) = (d[0], d[1]);
        if g1.abs() <= 1e-13 * n * scale && g2.abs() <= 1e-13 * n {
            break;
        }
        let (h11, h12, h22) = (d[2] + 1e-12, d[3], d[4] + 1e-12);
        let det = h11 * h22 - h12 * h12;
        let da = -(h22 * g1 - h12 * g2) / det;
        let db = -(-h12 * g1 + h11 * g2) / det;
        let gradient = g1.hypot(g2);
        let mut step = 1.0;
        let mut moved = false;
        while step >= 1e-10 {
            let (na, nb) = (a + step * da, b + step * db);
            let nl = platt_loss(scores, &targets, na, nb);
            // Armijo's condition with the directional derivative g . d; near the minimum the
            // loss no longer resolves a step, which is then taken if it shrinks the gradient.
            let armijo = nl <= loss + 1e-4 * step * (g1 * da + g2 * db);
            let flat = nl <= loss + 8.0 * f64::EPSILON * loss.abs() && {
                let nd = platt_derivatives(scores, &targets, na, nb);
                nd[0].hypot(nd[1]) < gradient
            };
            if armijo || flat {
                (a, b, loss, moved) = (na, nb, nl, true);
                break;
            }
            step /= 2.0;
        }
        if !moved {
            break;
        }
    }
    (a, b)
}

/// Isotonic regression of the labels (1 positive, 0 negative) on the scores: the distinct
/// scores in increasing order with their mean labels and counts, pooled by
/// pool-adjacent-violators into non-decreasing block means, then every point inside a flat run
/// dropped (it changes no interpolated value). Returns the kept `(x, y)`.
#[allow(clippy::float_cmp)] // Equal scores are one point and equal fitted values one run: exact.
fn fit_isotonic(scores: &[f64], labels: &[Label]) -> (Vec<f64>, Vec<f64>) {
    let mut pairs: Vec<(f64, f64)> = scores
        .iter()
        .zip(labels)
        .map(|(&s, l)| (s, if l.is_pos() { 1.0 } else { 0.0 }))
        .collect();
    pairs.sort_by(|p, q| p.0.total_cmp(&q.0));
    // Distinct scores (-0.0 and 0.0 are one), with label sums and counts.
    let mut xs: Vec<f64> = Vec::new();
    let mut sums: Vec<f64> = Vec::new();
    let mut counts: Vec<f64> = Vec::new();
    for (s, y) in pairs {
        match xs.last() {
            Some(&last) if last == s => {
                *sums.last_mut().expect("one per x") += y;
                *counts.last_mut().expect("one per x") += 1.0;
            }
            _ => {
                xs.push(s);
                sums.push(y);
                counts.push(1.0);
            }
        }
    }
    // Pool adjacent violators over blocks (sum, weight, number of distinct scores).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(xs.len());
    for (&s, &w) in sums.iter().zip(&counts) {
        blocks.push((s, w, 1));
        while blocks.len() >= 2 {
            let (s2, w2, k2) = blocks[blocks.len() - 1];
            let (s1, w1, k1) = blocks[blocks.len() - 2];
            if s1 / w1 <= s2 / w2 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (s1 + s2, w1 + w2, k1 + k2);
        }
    }
    let mut ys = Vec::with_capacity(xs.len());
    for (s, w, k) in blocks {
        ys.extend(std::iter::repeat_n(s / w, k));
    }
    // Keep the ends and every point where the value changes on either side.
    let m = xs.len();
    let keep: Vec<bool> = (0..m)
        .map(|i| i == 0 || i + 1 == m || ys[i - 1] != ys[i] || ys[i] != ys[i + 1])
        .collect();
    let x = xs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    let y = ys
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(v, _)| *v)
        .collect();
    (x, y)
}

/// Linear interpolation through the increasing `x` and values `y`, clipped beyond the ends.
fn interpolate(x: &[f64], y: &[f64], s: f64) -> f64 {
    let last = x.len() - 1;
    if s <= x[0] {
        return y[0];
    }
    if s >= x[last] {
        return y[last];
    }
    // The first knot above s: x[hi - 1] <= s < x[hi].
    let hi = x.partition_point(|&v| v <= s);
    let (x0, x1, y0, y1) = (x[hi - 1], x[hi], y[hi - 1], y[hi]);
    let v = y0 + (s - x0) * (y1 - y0) / (x1 - x0);
    v.clamp(y0, y1)
}

#[cfg(test)]
#[path = "calibration_tests.rs"]
mod tests;
