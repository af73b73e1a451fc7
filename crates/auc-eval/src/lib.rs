//! Evaluation of scoring functions the way the papers do it: repeated stratified
//! cross-validation with an inner grid search, parameter grids, convergence curves, the
//! Friedman / Nemenyi tests across methods, and the records of each run.
//!
//! This crate sees learners only through `auc_core`'s traits ([`auc_core::DynFit`]), never a
//! concrete algorithm, so the protocol cannot treat one method differently from another. It never
//! reads files and never knows an algorithm's name. No learner depends on it: what the learners
//! measure with (AUC, AP, ROC, partial and multiclass AUC, the running AUC, calibration maps,
//! stratified folds) is the `auc-metrics` crate below them, re-exported here at its old paths.

pub mod curve;
pub mod cv;
mod error;
pub mod grid;
mod record;
pub mod stats;

pub use auc_metrics::{
    bootstrap, calibration, calibration_cv, delong, folds, metrics, multiclass, normal, operating,
    partial, running, scoring_rules,
};

pub use error::EvalError;
