//! Evaluation of scoring functions the way the papers do it: exact AUC and AP, partial and
//! multiclass AUC, ROC curves, repeated stratified cross-validation with an inner grid search,
//! convergence curves, and the Friedman / Nemenyi tests across methods.
//!
//! This crate sees learners only through `auc_core`'s traits ([`auc_core::DynFit`]), never a
//! concrete algorithm, so the protocol cannot treat one method differently from another. It never
//! reads files and never knows an algorithm's name.

pub mod calibration;
pub mod calibration_cv;
pub mod curve;
pub mod cv;
mod error;
pub mod folds;
pub mod grid;
pub mod metrics;
pub mod multiclass;
pub mod partial;
pub mod running;
pub mod scoring_rules;
pub mod stats;

pub use error::EvalError;
