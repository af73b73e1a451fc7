//! Held-out scores for a calibration: every row scored by a model that did not train on it.
//!
//! The rows are split into `k` stratified folds; for each fold the procedure is fitted on the
//! other folds (fed to a one-pass learner in a seeded order, as every training part of the
//! protocol is) and scores the fold, through [`DynFit::fit_transductive`] as the protocol
//! scores its test parts (the same scores for an inductive procedure; a transductive one sees
//! the fold's features, never its labels). The calibration is then fitted on all `n` held-out scores,
//! and the model that is saved is fitted on every row: scikit-learn's
//! `CalibratedClassifierCV(ensemble=False)` and LIBSVM's probability estimates do the same.

use std::fmt;

use auc_core::{Dataset, DynFit, FitError, ParamError, ParamMap};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rayon::prelude::*;
use serde::Serialize;

use crate::calibration::{Calibration, CalibrationError, CalibrationKind};
use crate::folds::{FoldError, derive_seed, stratified_kfold};

/// Why held-out scores, or the calibration fitted on them, could not be had. Each variant has
/// one of the same name and message in the evaluation protocol's error, which reports it
/// unchanged (a failed fit's source included).
#[derive(Clone, Debug, PartialEq)]
// Not `#[non_exhaustive]`: `auc_eval::EvalError` converts every variant, so a new one must
// be converted there too.
pub enum HeldOutError {
    /// The folds could not be made (too few folds, or a class with fewer rows than folds).
    Folds(FoldError),
    /// The procedure could not be made from its parameters.
    Param(ParamError),
    /// Training on the other folds failed (the source says why).
    Fit {
        /// The full parameter set that was being trained.
        params: ParamMap,
        /// What the learner reported.
        source: FitError,
    },
    /// A calibration could not be fitted on the held-out scores.
    Calibration(CalibrationError),
}

impl fmt::Display for HeldOutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeldOutError::Folds(e) => write!(f, "{e}"),
            HeldOutError::Param(e) => write!(f, "{e}"),
            HeldOutError::Fit { params, .. } => {
                write!(f, "training with parameters {params} failed")
            }
            HeldOutError::Calibration(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for HeldOutError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HeldOutError::Fit { source, .. } => Some(source),
            // The others are transparent: their message is the inner error's own.
            _ => None,
        }
    }
}

impl From<FoldError> for HeldOutError {
    fn from(e: FoldError) -> Self {
        HeldOutError::Folds(e)
    }
}

/// Seed-path tag of the calibration folds.
const TAG_CALIBRATION_FOLDS: u64 = 21;
/// Seed-path tag of the order each calibration training part is fed in.
const TAG_CALIBRATION_ORDER: u64 = 22;
/// Seed-path tag of each calibration fit's own seed.
const TAG_CALIBRATION_FIT: u64 = 23;

/// The score of every row of `data` by `fit` trained on the `folds - 1` folds without it.
/// `params` names the procedure in errors. The folds run in parallel on the rayon pool; the
/// result depends only on `data`, `folds` and `seed`.
///
/// # Errors
/// Fewer than two folds, a class with fewer than `folds` rows ([`FoldError::Folds`]), or a fit
/// that fails.
pub fn held_out_scores(
    data: &Dataset,
    fit: &dyn DynFit,
    params: &ParamMap,
    folds: usize,
    seed: u64,
) -> Result<Vec<f64>, HeldOutError> {
    held_out_scores_reporting(data, fit, params, folds, seed, &|| {})
}

/// [`held_out_scores`], calling `fold_done` as each fold's fit has scored its fold (from the
/// worker that ran it: a progress bar's tick).
///
/// # Errors
/// As [`held_out_scores`].
pub fn held_out_scores_reporting(
    data: &Dataset,
    fit: &dyn DynFit,
    params: &ParamMap,
    folds: usize,
    seed: u64,
    fold_done: &(dyn Fn() + Sync),
) -> Result<Vec<f64>, HeldOutError> {
    let parts = stratified_kfold(
        data.labels(),
        folds,
        derive_seed(seed, &[TAG_CALIBRATION_FOLDS]),
    )?;
    let mut fold_of = vec![0usize; data.n()];
    for (f, rows) in parts.iter().enumerate() {
        for &i in rows {
            fold_of[i] = f;
        }
    }
    let scored = parts
        .par_iter()
        .enumerate()
        .map(|(f, test)| {
            let mut train: Vec<usize> = (0..data.n()).filter(|&i| fold_of[i] != f).collect();
            let order = derive_seed(seed, &[TAG_CALIBRATION_ORDER, f as u64]);
            train.shuffle(&mut StdRng::seed_from_u64(order));
            // Scored as the protocol scores a test part: a transductive procedure (GAM-CVM's
            // `transductive` in `auc cv`) sees the held-out fold's features while it fits, so
            // the calibration is fitted on scores of the kind it is applied to.
            let fitted = fit
                .fit_transductive(
                    &data.select(&train),
                    &data.select(test),
                    derive_seed(seed, &[TAG_CALIBRATION_FIT, f as u64]),
                )
                .map_err(|source| HeldOutError::Fit {
                    params: params.clone(),
                    source,
                })?;
            fold_done();
            Ok(fitted.scores)
        })
        .collect::<Result<Vec<Vec<f64>>, HeldOutError>>()?;
    let mut scores = vec![0.0; data.n()];
    for (rows, s) in parts.iter().zip(scored) {
        for (&i, v) in rows.iter().zip(s) {
            scores[i] = v;
        }
    }
    Ok(scores)
}

/// Folds of the held-out scores a calibration is fitted on unless the user says otherwise
/// (scikit-learn's `CalibratedClassifierCV` default, and LIBSVM's for its probabilities).
pub const DEFAULT_CALIBRATION_FOLDS: usize = 5;

/// What calibration to fit and on how many folds: what `auc train --calibrate`, `auc cv
/// --calibrate` and Python's `calibration=` ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CalibrationSpec {
    /// Sigmoid or isotonic.
    pub kind: CalibrationKind,
    /// Folds of the internal cross-validation (at least 2).
    pub folds: usize,
}

impl CalibrationSpec {
    /// `kind` on [`DEFAULT_CALIBRATION_FOLDS`] folds.
    pub fn new(kind: CalibrationKind) -> Self {
        Self {
            kind,
            folds: DEFAULT_CALIBRATION_FOLDS,
        }
    }

    /// The folds used on `data`: `folds`, or fewer when the smaller class has fewer rows (each
    /// fold needs a row of each class), so small data and very few positives still calibrate.
    ///
    /// # Errors
    /// [`CalibrationError::TooFewRows`] when a class has fewer than 2 rows or fewer than 2 folds
    /// are asked for: no held-out score of each class from two fits can exist.
    pub fn folds_for(&self, data: &Dataset) -> Result<usize, CalibrationError> {
        let (pos, neg) = data.class_counts();
        let smaller = pos.min(neg);
        if smaller < 2 || self.folds < 2 {
            return Err(CalibrationError::TooFewRows {
                folds: self.folds,
                pos,
                neg,
            });
        }
        Ok(self.folds.min(smaller))
    }

    /// The calibration of `fit` on `data`: the held-out scores of [`held_out_scores`] on
    /// [`CalibrationSpec::folds_for`] folds, the calibration fitted on them. Returns it with the
    /// folds used. `params` names the procedure in errors.
    ///
    /// # Errors
    /// As [`CalibrationSpec::folds_for`] and [`held_out_scores`], and a held-out score that is
    /// not finite.
    pub fn fit(
        &self,
        data: &Dataset,
        fit: &dyn DynFit,
        params: &ParamMap,
        seed: u64,
    ) -> Result<(Calibration, usize), HeldOutError> {
        self.fit_reporting(data, fit, params, seed, &|| {})
    }

    /// [`CalibrationSpec::fit`], calling `fold_done` as each fold is scored.
    ///
    /// # Errors
    /// As [`CalibrationSpec::fit`].
    pub fn fit_reporting(
        &self,
        data: &Dataset,
        fit: &dyn DynFit,
        params: &ParamMap,
        seed: u64,
        fold_done: &(dyn Fn() + Sync),
    ) -> Result<(Calibration, usize), HeldOutError> {
        let folds = self.folds_for(data).map_err(HeldOutError::Calibration)?;
        let scores = held_out_scores_reporting(data, fit, params, folds, seed, fold_done)?;
        let c = Calibration::fit(self.kind, &scores, data.labels())
            .map_err(HeldOutError::Calibration)?;
        Ok((c, folds))
    }
}
