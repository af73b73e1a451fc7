//! `auclearn._native`: the Rust side of the Python package `auclearn` (PyO3, stable ABI).
//!
//! It knows no learner by name: `registry` hands Python the rows of
//! [`auc_learners::ALL`] (names, parameters with their kinds, defaults and docs, citations),
//! from which `auclearn` creates one scikit-learn estimator class per algorithm at import. The
//! rest is a thin layer over the same library calls as the `auc` command: `model` trains,
//! continues, scores and (de)serializes the CLI's model files; `eval` holds the metrics, the
//! Friedman/Nemenyi test and the nested cross-validation protocol; `input` borrows numpy and
//! scipy.sparse arrays without copying them; `crossed` adds the feature crosses of the
//! estimators' `cross_hash_bits` to array rows, as `--cross-hash-bits` does to a file's.
//!
//! `transform` fits and applies the preparation stages alone (scaling, a feature map), behind
//! the transformer `auclearn.FeatureMap`; `sample` keeps what they are fitted on (ranges, the
//! map's seeded sample) apart from the fit, so that partitions surveyed apart fit the same
//! stages (`auclearn.dask` with a map).
//!
//! `table` fits the schema of a data frame's columns (SPEC 11) and encodes frames by it, so
//! the estimators train on frames with text, categories and missing cells.
//!
//! `files` trains on data files and scores them in bounded memory through `auc_train` (what
//! `auc train` and `auc predict` run), behind `auclearn.stream_fit` and `scores_file`.
//!
//! `moments` computes, merges and fits from class moments (the moment-file bytes of `auc
//! moments`), behind `auclearn.moments` and `auclearn.dask`. New families of bindings go in a
//! module of their own here, registered in `_native`, with their Python side in a submodule of
//! the package.

mod calibration;
mod crossed;
mod eval;
mod files;
mod input;
mod model;
mod moments;
mod sample;
mod table;
mod transform;

use pyo3::prelude::*;
use serde_json::Value;

/// Every algorithm of the registry, in `auc algos` order, as the JSON list `auc algos --json`
/// prints (`default` marks the default learner), each row with `online` (it has `partial_fit`)
/// added.
#[pyfunction]
fn registry() -> String {
    let default = auc_learners::default_algorithm().name;
    let rows: Vec<Value> = auc_learners::ALL
        .iter()
        .map(|a| {
            let mut v = a.to_json();
            v["default"] = Value::Bool(a.name == default);
            v["online"] = Value::Bool(a.is_online());
            v
        })
        .collect();
    Value::Array(rows).to_string()
}

/// The default memory budget in bytes, as `auc`'s default `--max-memory`: three quarters of
/// the least of physical memory, the process's cgroup limit and its address-space and data
/// rlimits.
#[pyfunction]
fn default_memory_limit() -> u64 {
    auc_train::Options::default().max_memory.0
}

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(registry, m)?)?;
    m.add_function(wrap_pyfunction!(default_memory_limit, m)?)?;
    m.add_class::<model::PyModel>()?;
    m.add_function(wrap_pyfunction!(model::fit, m)?)?;
    m.add_function(wrap_pyfunction!(files::stream_fit, m)?)?;
    m.add_function(wrap_pyfunction!(files::score_file, m)?)?;
    m.add_class::<table::PyTableSchema>()?;
    m.add_function(wrap_pyfunction!(table::table_schema, m)?)?;
    m.add_class::<transform::PyTransform>()?;
    m.add_function(wrap_pyfunction!(transform::map_sample, m)?)?;
    m.add_function(wrap_pyfunction!(transform::merge_map_samples, m)?)?;
    m.add_function(wrap_pyfunction!(eval::roc_auc, m)?)?;
    m.add_function(wrap_pyfunction!(eval::average_precision, m)?)?;
    m.add_function(wrap_pyfunction!(eval::partial_auc, m)?)?;
    m.add_function(wrap_pyfunction!(eval::multiclass_auc, m)?)?;
    m.add_function(wrap_pyfunction!(eval::roc_curve, m)?)?;
    m.add_function(wrap_pyfunction!(eval::auc_ci, m)?)?;
    m.add_function(wrap_pyfunction!(eval::delong_test, m)?)?;
    m.add_function(wrap_pyfunction!(eval::bootstrap_ci, m)?)?;
    m.add_function(wrap_pyfunction!(eval::operating_point, m)?)?;
    m.add_function(wrap_pyfunction!(eval::pr_curve, m)?)?;
    m.add_function(wrap_pyfunction!(eval::friedman, m)?)?;
    m.add_function(wrap_pyfunction!(eval::nested_cv, m)?)?;
    m.add_function(wrap_pyfunction!(moments::moments, m)?)?;
    m.add_function(wrap_pyfunction!(moments::merge_moments, m)?)?;
    m.add_function(wrap_pyfunction!(moments::moments_info, m)?)?;
    m.add_function(wrap_pyfunction!(moments::fit_moments, m)?)?;
    Ok(())
}
