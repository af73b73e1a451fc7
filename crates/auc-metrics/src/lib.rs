//! What a score is measured by, below the learners: exact AUC and AP (scikit-learn's figures to
//! 1e-12), ROC curves, partial and multiclass AUC, DeLong's interval and paired test of the AUC,
//! bootstrap intervals, operating points and the precision-recall curve, the running AUC of a
//! stream, proper scoring rules, the calibration maps from scores to probabilities (fitted, applied, stored in model
//! files) with the held-out scores they are fitted on, and seeded stratified folds.
//!
//! The learners (the blend's weight), the registry (a model's calibration) and the evaluation
//! protocol of `auc-eval` all use it, so it must never know a learner, a file path or the
//! protocol: it depends on `auc_core` alone, sees a procedure only through
//! [`auc_core::DynFit`], and never reads or writes a file. `Calibration`'s serde derives are part
//! of the model-file format: changing them changes the bytes of saved models.

pub mod bootstrap;
pub mod calibration;
pub mod calibration_cv;
pub mod delong;
pub mod folds;
pub mod metrics;
pub mod multiclass;
pub mod normal;
pub mod operating;
pub mod partial;
pub mod running;
pub mod scoring_rules;
