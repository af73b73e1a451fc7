//! [`Shaper`] turns a chunk as read into the rows a learner sees, exactly as the in-memory path
//! turns the whole input: labels binarized by a positive class fixed beforehand (or, on a stream
//! read once, the binary rule checked row by row), rows kept in the form they were read
//! ([`Layout::AsRead`]), the dimension padded to what the learner has, the fitted stages of the
//! model. Each step works row by row, so chunked and whole inputs give the same rows bit for bit.

use crate::Error;
use auc_core::{Dataset, Storage};
use auc_data::{BinaryLabels, Layout, Positive, PositiveChoice, PositiveRule, RawData};
use auc_prep::Transform;

/// A label outside {-1, +1} and {0, 1} on a pass whose positive class was not fixed beforehand
/// ([`Classes::Binary`]): standard input is refused with this message; a file, read once on the
/// hope that its labels are binary, is read again after a first pass that counts its labels.
#[derive(Debug)]
pub struct NotBinary(String);

impl std::fmt::Display for NotBinary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotBinary {}

/// The positive class of a pass.
#[derive(Clone, Debug)]
pub enum Classes {
    /// These labels are positive, chosen beforehand (a first pass, a model); with `given`, each
    /// must occur (`--positive` on a stream read once), which is checked at the end.
    Known {
        /// The positive labels.
        labels: Vec<f64>,
        /// Whether they were given (`--positive`), so that each must occur.
        given: bool,
    },
    /// A stream read once without `--positive`: its labels must be -1/+1 or 0/1, checked as
    /// they come, and 1 is positive.
    Binary,
}

/// Labels met by a pass, for the checks that need the whole stream.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    minus_one: bool,
    zero: bool,
    one: bool,
    /// For `Classes::Known { given: true }`: whether each given label occurred.
    given: Vec<bool>,
    /// Rows that held a feature past the shaper's [`Shaper::with_max_dim`], dropped.
    pub unseen_rows: u64,
}

impl Seen {
    /// The binary label set a [`Classes::Binary`] pass met, if it met -1 or 0.
    fn binary_set(&self) -> Option<BinaryLabels> {
        if self.minus_one {
            Some(BinaryLabels::MinusOnePlusOne)
        } else if self.zero {
            Some(BinaryLabels::ZeroOne)
        } else {
            None
        }
    }
}

/// The positive class a finished pass used, and why (what a model stores).
pub fn final_choice(classes: &Classes, seen: &Seen) -> Result<PositiveChoice, Error> {
    match classes {
        Classes::Known { labels, given } => {
            if *given && let Some(k) = seen.given.iter().position(|s| !s) {
                return Err(Error::input(format!(
                    "--positive {}: no row of the input has this label",
                    crate::fmt_label(labels[k])
                )));
            }
            Ok(PositiveChoice {
                labels: labels.clone(),
                rule: PositiveRule::Given,
            })
        }
        Classes::Binary => Ok(PositiveChoice {
            labels: vec![1.0],
            rule: match seen.binary_set() {
                Some(set) => PositiveRule::BinaryPlusOne(set),
                // Only 1s: one class, which the caller refuses.
                None => PositiveRule::BinaryPlusOne(BinaryLabels::MinusOnePlusOne),
            },
        }),
    }
}

/// How a chunk as read becomes the rows a learner sees: binarized by the positive class, padded
/// to the learner's dimension, through the fitted stages.
#[derive(Clone)]
pub struct Shaper {
    /// The positive class.
    pub classes: Classes,
    /// The dimension every chunk is padded to at least (the learner's, the scaler's).
    pub min_dim: usize,
    /// The fitted stages.
    pub transform: Transform,
    /// Features past this index are dropped (a model scoring rows with features it never saw:
    /// they have weight 0 and no fitted scale); `None` keeps every feature.
    pub max_dim: Option<usize>,
    seen: Seen,
}

impl Shaper {
    /// A shaper with these classes, minimum dimension and stages.
    pub fn new(classes: Classes, min_dim: usize, transform: Transform) -> Self {
        let given = match &classes {
            Classes::Known {
                labels,
                given: true,
            } => vec![false; labels.len()],
            _ => Vec::new(),
        };
        Shaper {
            classes,
            min_dim,
            transform,
            max_dim: None,
            seen: Seen {
                given,
                ..Seen::default()
            },
        }
    }

    /// The labels seen so far.
    pub fn seen(&self) -> &Seen {
        &self.seen
    }

    /// Checks the labels `raw_labels` (of rows `first + 1` onwards of `source`) against the
    /// classes, in row order.
    pub(crate) fn check_labels(
        &mut self,
        raw_labels: &[f64],
        first: u64,
        source: &str,
    ) -> Result<(), Error> {
        match &self.classes {
            Classes::Known {
                labels,
                given: true,
            } => {
                for &l in raw_labels {
                    if let Some(k) = labels.iter().position(|p| p.to_bits() == l.to_bits()) {
                        self.seen.given[k] = true;
                    }
                }
            }
            Classes::Known { .. } => {}
            Classes::Binary => {
                for (i, &l) in raw_labels.iter().enumerate() {
                    let s = &mut self.seen;
                    let ok = if l.to_bits() == 1f64.to_bits() {
                        s.one = true;
                        true
                    } else if l.to_bits() == (-1f64).to_bits() {
                        s.minus_one = true;
                        !s.zero
                    } else if l.to_bits() == 0f64.to_bits() {
                        s.zero = true;
                        !s.minus_one
                    } else {
                        false
                    };
                    if !ok {
                        return Err(Error::NotBinary(NotBinary(format!(
                            "{source}: example {}: label {}: an input read once takes +1 (or 1) as the positive class of labels {{-1, +1}} or {{0, 1}} and cannot count the classes of other label sets first; pass --positive LABEL[,LABEL..]",
                            first + i as u64 + 1,
                            crate::fmt_label(l)
                        ))));
                    }
                }
            }
        }
        Ok(())
    }

    /// The rows of `raw` (rows `first + 1` onwards of `source`, an input whose dimension so far
    /// is `dim`) binarized, in the form they were read, with at least `max(dim, min_dim)`
    /// features, scaled and normalized.
    pub fn apply(
        &mut self,
        raw: &RawData,
        dim: usize,
        first: u64,
        source: &str,
    ) -> Result<Dataset, Error> {
        self.check_labels(raw.raw_labels(), first, source)?;
        let (data, unseen) = self.rows(raw, dim)?;
        self.seen.unseen_rows += unseen;
        Ok(data)
    }

    /// The same shaper, dropping every feature from index `dim` on (and counting the rows that
    /// held one) before the stages: what `auc predict` does with features its model never saw.
    pub fn with_max_dim(mut self, dim: usize) -> Self {
        self.max_dim = Some(dim);
        self
    }

    /// Adds `n` rows with dropped features to the count (a block shaped on another thread).
    pub(crate) fn count_unseen(&mut self, n: u64) {
        self.seen.unseen_rows += n;
    }

    /// The rows of `raw` (of an input whose dimension so far is `dim`) binarized, in the form
    /// they were read, with at least `max(dim, min_dim)` features, scaled and normalized; the
    /// labels are not checked ([`Shaper::apply`] does both).
    pub(crate) fn rows(&self, raw: &RawData, dim: usize) -> Result<(Dataset, u64), Error> {
        let data = raw.binarize_as(&self.positive(), Layout::AsRead)?;
        self.shape(data, dim)
    }

    /// [`Shaper::rows`] of rows taken by value (moved, not copied, when they stay CSR).
    pub(crate) fn rows_owned(&self, raw: RawData, dim: usize) -> Result<(Dataset, u64), Error> {
        let data = raw.into_binarized(&self.positive(), Layout::AsRead)?;
        self.shape(data, dim)
    }

    fn positive(&self) -> Positive {
        match &self.classes {
            Classes::Known { labels, .. } => Positive::Known(labels.clone()),
            Classes::Binary => Positive::Known(vec![1.0]),
        }
    }

    /// Binarized rows of an input whose dimension so far is `dim`, cut to `max_dim`, padded,
    /// scaled and normalized.
    fn shape(&self, mut data: Dataset, dim: usize) -> Result<(Dataset, u64), Error> {
        let mut unseen = 0;
        let mut dim = dim.max(self.min_dim);
        if let Some(max) = self.max_dim {
            (data, unseen) = drop_features_from(data, max)?;
            dim = dim.min(max);
        }
        if data.dim() < dim {
            data = data.with_dim(dim);
        }
        if self.transform.is_identity() {
            return Ok((data, unseen));
        }
        Ok((self.transform.apply_dataset(&data), unseen))
    }
}

/// `data` without its features from index `max` on, in `max` features, and how many rows held
/// one (a stored non-zero there).
fn drop_features_from(data: Dataset, max: usize) -> Result<(Dataset, u64), Error> {
    if data.dim() <= max {
        return Ok((data, 0));
    }
    let labels = data.labels().to_vec();
    let mut rows = 0u64;
    let out = match data.storage() {
        Storage::Sparse {
            indptr,
            indices,
            values,
        } => {
            let (mut p, mut ix, mut vs) = (vec![0usize], Vec::new(), Vec::new());
            for i in 0..data.n() {
                let (a, b) = (indptr[i], indptr[i + 1]);
                let keep = indices[a..b].partition_point(|&j| (j as usize) < max);
                if keep < b - a {
                    rows += 1;
                }
                ix.extend_from_slice(&indices[a..a + keep]);
                vs.extend_from_slice(&values[a..a + keep]);
                p.push(ix.len());
            }
            Dataset::sparse(max, p, ix, vs, labels)?
        }
        Storage::Dense { values } => {
            let p = data.dim();
            let mut out = Vec::with_capacity(data.n() * max);
            for row in values.chunks_exact(p.max(1)) {
                if row[max..].iter().any(|&v| v != 0.0) {
                    rows += 1;
                }
                out.extend_from_slice(&row[..max]);
            }
            Dataset::dense(max, out, labels)?
        }
    };
    Ok((out, rows))
}
