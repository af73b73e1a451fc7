//! Multiclass AUC from an $n \times K$ score matrix: one-vs-rest and one-vs-one \[HT01\], averaged
//! over classes (or pairs) plainly or by prevalence, as scikit-learn's
//! `roc_auc_score(y, S, multi_class=..., average=...)` computes them \[SKL\]. Definitions:
//! `docs/math/partial-auc.md`, section "Multiclass AUC".
//!
//! Column $c$ of the matrix is the score of class $c$ (classes are `0..K`, in the order the caller
//! fixed, e.g. increasing label values). Every binary AUC is [`crate::metrics::auc`], ties counted
//! one half.
//!
//! Deviation: scikit-learn refuses score rows that do not sum to 1 (`np.allclose`), for both
//! schemes. Nothing here needs that: one-vs-rest ranks each class's own column, one-vs-one ranks
//! columns $a$ and $b$ on the rows of classes $a$ and $b$, so raw scores (margins, logits) are
//! accepted, and on rows that do sum to one the values are scikit-learn's.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $K$ | `classes` | number of classes (columns) |
//! | $S_{ic}$ | `scores[i * classes + c]` | score of row $i$ for class $c$ (row-major) |
//! | $y_i$ | `labels[i]` | the class of row $i$, in `0..K` |
//! | $n_c$ | `counts[c]` | rows of class $c$ |
//! | $A(a \mid b)$ | `pair_auc` | AUC of column $a$ with class $a$ positive, on the rows of classes $a$ and $b$ |

use std::fmt;
use std::str::FromStr;

use auc_core::Label;

use crate::metrics::{MetricError, auc};

/// How a multiclass problem is reduced to binary AUCs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Scheme {
    /// `ovr`: class $c$ against all others, ranked by column $c$:
    /// $\mathrm{AUC}_c = \mathrm{AUC}(S_{\cdot c}, \mathbb 1[y = c])$ on every row.
    OneVsRest,
    /// `ovo`: Hand and Till's $M$ [HT01, eq. 7]: for each pair $a < b$,
    /// $\hat A(a, b) = \tfrac12\left(A(a \mid b) + A(b \mid a)\right)$, where $A(a \mid b)$ is the
    /// AUC of column $a$, class $a$ positive, on the rows of classes $a$ and $b$ only.
    OneVsOne,
}

/// How the per-class (`ovr`) or per-pair (`ovo`) AUCs are averaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Average {
    /// `macro`: the plain mean, $\frac1K \sum_c \mathrm{AUC}_c$ or
    /// $\frac{2}{K(K-1)} \sum_{a<b} \hat A(a, b)$ (Hand and Till's $M$).
    Macro,
    /// `weighted`: weights by prevalence, $\sum_c n_c \mathrm{AUC}_c / n$ for `ovr`, and for `ovo`
    /// the pair's prevalence $w_{ab} = (n_a + n_b)/n$:
    /// $\sum_{a<b} w_{ab} \hat A(a, b) / \sum_{a<b} w_{ab}$ (scikit-learn's definition).
    Weighted,
}

impl Scheme {
    /// The name the front ends use: `ovr` or `ovo`.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::OneVsRest => "ovr",
            Scheme::OneVsOne => "ovo",
        }
    }
}

impl Average {
    /// The name the front ends use: `macro` or `weighted`.
    pub fn name(self) -> &'static str {
        match self {
            Average::Macro => "macro",
            Average::Weighted => "weighted",
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Average {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = MulticlassError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ovr" => Ok(Scheme::OneVsRest),
            "ovo" => Ok(Scheme::OneVsOne),
            _ => Err(MulticlassError::UnknownName {
                given: s.to_owned(),
                allowed: "ovr or ovo",
            }),
        }
    }
}

impl FromStr for Average {
    type Err = MulticlassError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "macro" => Ok(Average::Macro),
            "weighted" => Ok(Average::Weighted),
            _ => Err(MulticlassError::UnknownName {
                given: s.to_owned(),
                allowed: "macro or weighted",
            }),
        }
    }
}

/// Why a multiclass AUC has no value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MulticlassError {
    /// Fewer than two classes (columns).
    TooFewClasses {
        /// The number of classes given.
        classes: usize,
    },
    /// The score matrix does not hold `classes` scores per label.
    Shape {
        /// Scores given.
        values: usize,
        /// Labels (rows) given.
        rows: usize,
        /// Columns expected per row.
        classes: usize,
    },
    /// A label is not a class index in `0..classes`.
    LabelOutOfRange {
        /// Its row (0-based).
        row: usize,
        /// The label.
        label: usize,
        /// The number of classes.
        classes: usize,
    },
    /// A score is NaN or infinite.
    NonFinite {
        /// Its row (0-based).
        row: usize,
        /// Its column (0-based).
        column: usize,
    },
    /// A class has no row, so its AUCs are undefined (scikit-learn: the number of classes in
    /// `y_true` differs from the number of columns).
    MissingClass {
        /// The class (0-based column).
        class: usize,
        /// The number of classes.
        classes: usize,
    },
    /// A name is not one of the schemes or averages.
    UnknownName {
        /// The name given.
        given: String,
        /// The names allowed, in words.
        allowed: &'static str,
    },
    /// A binary AUC of the reduction failed (the checks above leave no such case; kept so that
    /// a failure is reported, not hidden).
    Binary(MetricError),
}

impl fmt::Display for MulticlassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MulticlassError::TooFewClasses { classes } => write!(
                f,
                "a multiclass AUC needs at least 2 classes (score columns), got {classes}"
            ),
            MulticlassError::Shape {
                values,
                rows,
                classes,
            } => write!(
                f,
                "{values} scores for {rows} labels: expected {classes} per label"
            ),
            MulticlassError::LabelOutOfRange {
                row,
                label,
                classes,
            } => write!(
                f,
                "label {label} of row {} is not a class in 0..{classes}",
                row + 1
            ),
            MulticlassError::NonFinite { row, column } => write!(
                f,
                "score of row {}, column {} is not finite",
                row + 1,
                column + 1
            ),
            MulticlassError::MissingClass { class, classes } => write!(
                f,
                "class {class} (column {} of {classes}) has no example, so its AUC is undefined",
                class + 1
            ),
            MulticlassError::UnknownName { given, allowed } => {
                write!(f, "`{given}` is not a choice here: use {allowed}")
            }
            MulticlassError::Binary(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MulticlassError {}

impl From<MetricError> for MulticlassError {
    fn from(e: MetricError) -> Self {
        MulticlassError::Binary(e)
    }
}

/// The multiclass AUC of the row-major $n \times K$ matrix `scores` (`classes` $= K$ columns) for
/// class indices `labels` ($n$ of them, each in `0..K`), reduced by `scheme` and averaged by
/// `average` ([`Scheme`], [`Average`] give the formulas).
///
/// Errors: fewer than two classes, a matrix of the wrong size, a label out of range, a
/// non-finite score, or a class without rows. $O(K n \log n)$ for both schemes (a pair sorts
/// only its two classes' rows, and each row belongs to $K - 1$ pairs).
pub fn multiclass_auc(
    scores: &[f64],
    classes: usize,
    labels: &[usize],
    scheme: Scheme,
    average: Average,
) -> Result<f64, MulticlassError> {
    let counts = check(scores, classes, labels)?;
    let n = labels.len() as f64;
    // (value, weight) per class or per pair.
    let mut parts: Vec<(f64, f64)> = Vec::new();
    match scheme {
        Scheme::OneVsRest => {
            for (c, &count) in counts.iter().enumerate() {
                let rows = 0..labels.len();
                let value = column_auc(scores, classes, labels, rows, c)?;
                parts.push((value, count as f64));
            }
        }
        Scheme::OneVsOne => {
            for a in 0..classes {
                for b in a + 1..classes {
                    let rows: Vec<usize> = (0..labels.len())
                        .filter(|&i| labels[i] == a || labels[i] == b)
                        .collect();
                    let a_given_b = column_auc(scores, classes, labels, rows.iter().copied(), a)?;
                    let b_given_a = column_auc(scores, classes, labels, rows.iter().copied(), b)?;
                    // [HT01, eq. 7]: the pair's value is the mean of the two directions.
                    let pair_auc = (a_given_b + b_given_a) / 2.0;
                    parts.push((pair_auc, (counts[a] + counts[b]) as f64 / n));
                }
            }
        }
    }
    Ok(match average {
        Average::Macro => parts.iter().map(|p| p.0).sum::<f64>() / parts.len() as f64,
        Average::Weighted => {
            let total: f64 = parts.iter().map(|p| p.1).sum();
            parts.iter().map(|p| p.0 * p.1).sum::<f64>() / total
        }
    })
}

/// The AUC of column `c` on `rows`, class `c` positive.
fn column_auc(
    scores: &[f64],
    classes: usize,
    labels: &[usize],
    rows: impl Iterator<Item = usize>,
    c: usize,
) -> Result<f64, MetricError> {
    let (column, binary): (Vec<f64>, Vec<Label>) = rows
        .map(|i| {
            let label = if labels[i] == c {
                Label::Pos
            } else {
                Label::Neg
            };
            (scores[i * classes + c], label)
        })
        .unzip();
    auc(&column, &binary)
}

/// Checks the inputs and returns the rows of each class.
fn check(scores: &[f64], classes: usize, labels: &[usize]) -> Result<Vec<usize>, MulticlassError> {
    if classes < 2 {
        return Err(MulticlassError::TooFewClasses { classes });
    }
    if labels.len().checked_mul(classes) != Some(scores.len()) {
        return Err(MulticlassError::Shape {
            values: scores.len(),
            rows: labels.len(),
            classes,
        });
    }
    let mut counts = vec![0usize; classes];
    for (row, &label) in labels.iter().enumerate() {
        let Some(count) = counts.get_mut(label) else {
            return Err(MulticlassError::LabelOutOfRange {
                row,
                label,
                classes,
            });
        };
        *count += 1;
    }
    if let Some(i) = scores.iter().position(|s| !s.is_finite()) {
        return Err(MulticlassError::NonFinite {
            row: i / classes,
            column: i % classes,
        });
    }
    if let Some(class) = counts.iter().position(|&c| c == 0) {
        return Err(MulticlassError::MissingClass { class, classes });
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(scores: &[f64], labels: &[usize], scheme: Scheme, average: Average) -> f64 {
        multiclass_auc(scores, 3, labels, scheme, average).unwrap()
    }

    /// Three classes, rows (class: scores of classes 0, 1, 2):
    /// r0 (0: .6 .3 .1), r1 (0: .2 .5 .3), r2 (1: .3 .4 .3), r3 (2: .1 .1 .8), r4 (2: .5 .2 .3).
    /// ovr, class 0: positives .6 .2 vs negatives .3 .1 .5: (.6 beats 3) + (.2 beats .1) = 4/6.
    /// class 1: positive .4 vs .3 .5 .1 .2: it beats .3, .1, .2 and loses to .5: 3/4.
    /// class 2: positives .8 .3 vs .1 .3 .3: .8 beats 3; .3 beats .1, ties .3 twice: 3 + 2 = 5/6.
    /// macro (4/6 + 3/4 + 5/6)/3 = 9/12 = 0.75; weighted (2 4/6 + 3/4 + 2 5/6)/5 = 15/20 = 0.75.
    const S: [f64; 15] = [
        0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.3, 0.4, 0.3, 0.1, 0.1, 0.8, 0.5, 0.2, 0.3,
    ];
    const Y: [usize; 5] = [0, 0, 1, 2, 2];

    #[test]
    fn one_vs_rest_by_hand() {
        let macro_avg = value(&S, &Y, Scheme::OneVsRest, Average::Macro);
        assert!((macro_avg - (4.0 / 6.0 + 0.75 + 5.0 / 6.0) / 3.0).abs() < 1e-15);
        let weighted = value(&S, &Y, Scheme::OneVsRest, Average::Weighted);
        let w = (2.0 * 4.0 / 6.0 + 0.75 + 2.0 * 5.0 / 6.0) / 5.0;
        assert!((weighted - w).abs() < 1e-15);
    }

    /// Pairs of the matrix above:
    /// (0,1): rows r0 r1 r2. A(0|1): col 0, pos .6 .2 vs neg .3: 1/2. A(1|0): col 1, pos .4 vs
    /// .3 .5: 1/2. Pair 1/2.
    /// (0,2): rows r0 r1 r3 r4. A(0|2): pos .6 .2 vs .1 .5: 3/4. A(2|0): pos .8 .3 vs .1 .3:
    /// .8 beats 2; .3 beats .1, ties .3: 3.5/4. Pair (3/4 + 7/8)/2 = 13/16.
    /// (1,2): rows r2 r3 r4. A(1|2): pos .4 vs .1 .2: 1. A(2|1): pos .8 .3 vs .3: 1.5/2. Pair 7/8.
    /// macro (1/2 + 13/16 + 7/8)/3; weighted by (n_a + n_b)/5 = 3/5, 4/5, 3/5.
    #[test]
    fn one_vs_one_by_hand() {
        let pairs = [0.5, 13.0 / 16.0, 7.0 / 8.0];
        let macro_avg = value(&S, &Y, Scheme::OneVsOne, Average::Macro);
        assert!((macro_avg - pairs.iter().sum::<f64>() / 3.0).abs() < 1e-15);
        let weighted = value(&S, &Y, Scheme::OneVsOne, Average::Weighted);
        let w = (3.0 * pairs[0] + 4.0 * pairs[1] + 3.0 * pairs[2]) / 10.0;
        assert!((weighted - w).abs() < 1e-15);
    }

    #[test]
    fn names_round_trip() {
        for s in [Scheme::OneVsRest, Scheme::OneVsOne] {
            assert_eq!(s.name().parse::<Scheme>(), Ok(s));
        }
        for a in [Average::Macro, Average::Weighted] {
            assert_eq!(a.to_string().parse::<Average>(), Ok(a));
        }
        assert!("micro".parse::<Average>().is_err());
        assert!("raise".parse::<Scheme>().is_err());
    }

    #[test]
    fn bad_inputs_are_errors() {
        let run =
            |s: &[f64], k, y: &[usize]| multiclass_auc(s, k, y, Scheme::OneVsOne, Average::Macro);
        assert_eq!(
            run(&[1.0], 1, &[0]),
            Err(MulticlassError::TooFewClasses { classes: 1 })
        );
        assert_eq!(
            run(&S[..14], 3, &Y),
            Err(MulticlassError::Shape {
                values: 14,
                rows: 5,
                classes: 3
            })
        );
        assert_eq!(
            run(&S, 3, &[0, 0, 1, 3, 2]),
            Err(MulticlassError::LabelOutOfRange {
                row: 3,
                label: 3,
                classes: 3
            })
        );
        let mut nan = S;
        nan[7] = f64::NAN;
        assert_eq!(
            run(&nan, 3, &Y),
            Err(MulticlassError::NonFinite { row: 2, column: 1 })
        );
        assert_eq!(
            run(&S, 3, &[0, 0, 2, 2, 2]),
            Err(MulticlassError::MissingClass {
                class: 1,
                classes: 3
            })
        );
    }
}
