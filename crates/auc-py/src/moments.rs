//! Class moments from Python: the bindings behind `auclearn.moments` and `auclearn.dask`.
//!
//! A partition of the training data (a numpy or scipy.sparse block, borrowed as `input` borrows
//! it) becomes an [`auc_learners::MomentSummary`] in its moment-file bytes (`AUCMOMNT`, as
//! `auc moments` writes them), small and cheap to pickle between processes; any number of such
//! byte strings merge exactly ([`MomentSummary::merge`], Chan's formula per label), and the
//! merged bytes fit any registry row that [`auc_learners::Algorithm::fits_from_moments`] into
//! the same [`PyModel`] that `auclearn`'s estimators hold, so the result scores, saves and
//! pickles like an in-memory fit (`docs/math/batch-moments.md`).
//!
//! Nothing here names a learner: `fit_moments` takes the registry name Python passes and
//! [`auc_learners::fit_from_moments`] refuses (listing the moment learners) a row that is not
//! fitted from moments. Every computation runs with the GIL released; errors are `ValueError`s
//! carrying the Rust message with its causes.
//!
//! Moments of mapped rows: given fitted stages with a feature map (`_native.Transform`, or its
//! bytes), `moments` takes the moments of the rows through them, a block of rows at a time
//! ([`MomentSummary::observe_dataset`]); the summary records the stages, merges only with
//! summaries of the same stages, and `fit_moments` fits on it with those stages as they are (its
//! `scale` is then not applied, as `auc train` takes a moment file's stages as they are).

use std::borrow::Cow;

use auc_core::Label;
use auc_data::{Positive, Reading};
use auc_learners::{MomentError, MomentSummary};
use auc_prep::Transform;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;

use crate::input::{Borrowed, Idx, Rows, Scratch, Vals};
use crate::model::{PyModel, chain_text, library_error, param_map, stages};
use crate::transform::PyTransform;

/// Values per block when dense rows must be converted (float32, Fortran order, strided views)
/// before the blocked moment update: about 8 MB of float64, whatever the width.
const BLOCK_VALUES: usize = 1 << 20;

/// Rows mapped at once for the moments of mapped rows (their mapped values are held densely).
const MAP_BLOCK_ROWS: usize = 2048;

/// An error with its chain of causes, `outer: inner: ...`, as a Python `ValueError`.
fn chained(e: &dyn std::error::Error) -> PyErr {
    PyValueError::new_err(chain_text(e))
}

/// The summary of `rows` with labels `y`: C-ordered float64 rows and CSR arrays with float64
/// values and int32 indices are read in place; other dense layouts are converted a block of
/// rows at a time and the blocks merged (exact); other CSR arrays are converted once.
fn summarize(rows: &Rows<'_>, y: &[f64]) -> Result<MomentSummary, MomentError> {
    let (n, p) = (rows.n(), rows.dim());
    if y.len() != n {
        return Err(MomentError::Input(format!(
            "X has {n} rows but y has {} labels",
            y.len()
        )));
    }
    match *rows {
        Rows::DenseF64(a) if a.as_slice().is_some() => {
            MomentSummary::from_dense(a.as_slice().expect("checked"), n, p, y)
        }
        Rows::Csr {
            data,
            indices,
            indptr,
            dim,
        } => {
            let ptr: Vec<usize> = (0..indptr.len()).map(|k| indptr.get(k) as usize).collect();
            let idx: Cow<'_, [u32]> = match indices {
                // Non-negative (checked when borrowed), so the bits are the same number.
                Idx::I32(a) => Cow::Borrowed(bytemuck::cast_slice(a)),
                Idx::I64(a) => Cow::Owned(a.iter().map(|&j| j as u32).collect()),
            };
            let vals: Cow<'_, [f64]> = match data {
                Vals::F64(v) => Cow::Borrowed(v),
                Vals::F32(v) => Cow::Owned(v.iter().map(|&x| f64::from(x)).collect()),
            };
            MomentSummary::from_csr(&ptr, &idx, &vals, n, dim, y)
        }
        _ => {
            let block = (BLOCK_VALUES / p.max(1)).max(1);
            let mut total = MomentSummary::new(p, Reading::Libsvm, None);
            let mut scratch = Scratch::default();
            let mut buf = Vec::with_capacity(block.min(n) * p);
            let mut start = 0;
            while start < n {
                let end = (start + block).min(n);
                buf.clear();
                for i in start..end {
                    match rows.row(i, &mut scratch) {
                        auc_core::Row::Dense(v) => buf.extend_from_slice(v),
                        auc_core::Row::Sparse(_) => unreachable!("dense matrices lend dense rows"),
                    }
                }
                let part = MomentSummary::from_dense(&buf, end - start, p, &y[start..end])?;
                total.merge(&part)?;
                start = end;
            }
            Ok(total)
        }
    }
}

/// The summary of `rows` with labels `y` through `stages` (with a feature map, for rows of
/// `input_dim` features), mapped [`MAP_BLOCK_ROWS`] rows at a time.
fn summarize_mapped(
    rows: &Rows<'_>,
    y: &[f64],
    stages: Transform,
    input_dim: usize,
) -> Result<MomentSummary, MomentError> {
    let n = rows.n();
    if y.len() != n {
        return Err(MomentError::Input(format!(
            "X has {n} rows but y has {} labels",
            y.len()
        )));
    }
    if rows.dim() != input_dim {
        return Err(MomentError::Input(format!(
            "X has {} features, but the feature map was fitted with {input_dim} features",
            rows.dim()
        )));
    }
    let mut s = MomentSummary::for_stages(stages, Reading::Libsvm, None);
    let mut start = 0;
    while start < n {
        let end = (start + MAP_BLOCK_ROWS).min(n);
        let block = rows
            .collect_range(start..end, vec![Label::Neg; end - start])
            .map_err(MomentError::Input)?;
        s.observe_dataset(&block, &y[start..end])?;
        start = end;
    }
    Ok(s)
}

/// The fitted stages `obj` names (a `_native.Transform` or its bytes), refusing stages without
/// a feature map: moments of rows as read are scaled at fit time.
fn mapped_stages(obj: &Bound<'_, PyAny>) -> PyResult<(Transform, usize)> {
    let (t, dim) = match obj.cast::<PyTransform>() {
        Ok(t) => {
            let t = t.borrow();
            let (t, dim) = t.parts();
            (t.clone(), dim)
        }
        Err(_) => {
            let bytes: PyBackedBytes = obj.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "stages must be a fitted _native.Transform or its bytes, not {}",
                    obj.get_type()
                ))
            })?;
            let t = PyTransform::from_bytes(&bytes)?;
            let (t, dim) = t.parts();
            (t.clone(), dim)
        }
    };
    if !t.reshapes() {
        return Err(PyValueError::new_err(format!(
            "the stages {} hold no feature map: moments of rows as read are scaled when they are fitted (pass scale= to the fit instead)",
            t.describe()
        )));
    }
    Ok((t, dim))
}

/// The moment-file bytes of the rows of `x` (a 2-D float array or a CSR tuple, as `fit` takes)
/// with the numeric labels `y`, recorded as coming from `source` (e.g. `partition 3`); with
/// `stages` (fitted stages with a feature map: a `_native.Transform` or its bytes), the moments
/// of the rows through them.
#[pyfunction]
#[pyo3(signature = (x, y, source = None, stages = None))]
pub(crate) fn moments<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    y: PyReadonlyArray1<'py, f64>,
    source: Option<String>,
    stages: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let stages = stages.map(mapped_stages).transpose()?;
    let borrowed = Borrowed::extract(x)?;
    let rows = borrowed.rows()?;
    if stages.as_ref().is_none_or(|(t, _)| t.reads_raw_values()) {
        rows.check_bounded("the moments sum raw squares")?;
    }
    let y = y
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("y: {e}")))?;
    let bytes = py
        .detach(|| {
            let summary = match stages {
                Some((t, dim)) => summarize_mapped(&rows, y, t, dim),
                None => summarize(&rows, y),
            };
            summary.map(|mut s| {
                if let Some(source) = &source {
                    s.add_source(source);
                }
                s.to_bytes()
            })
        })
        .map_err(|e| chained(&e))?;
    Ok(PyBytes::new(py, &bytes))
}

/// How a summary's parts are named in messages: its sources, shortened when many.
fn parts_name(s: &MomentSummary) -> String {
    match s.sources() {
        [] => "a part".to_owned(),
        [one] => one.clone(),
        [first, .., last] => format!("the merge of {first} .. {last}"),
    }
}

/// Reads moment-file bytes.
fn read(bytes: &[u8]) -> PyResult<MomentSummary> {
    MomentSummary::from_bytes(bytes).map_err(|e| chained(&e))
}

/// The exact merge of moment-file byte strings, as one moment file's bytes. `same_dim`: refuse
/// parts of different feature counts (partitions of one matrix), naming them; otherwise the
/// merged summary covers the largest (as `auc train` merges LIBSVM files).
#[pyfunction]
#[pyo3(signature = (parts, same_dim = true))]
pub(crate) fn merge_moments<'py>(
    py: Python<'py>,
    parts: Vec<PyBackedBytes>,
    same_dim: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let merged = py.detach(|| -> PyResult<Vec<u8>> {
        let mut iter = parts.iter();
        let Some(first) = iter.next() else {
            return Err(PyValueError::new_err("no moments to merge"));
        };
        let mut total = read(first)?;
        let first_name = parts_name(&total);
        for bytes in iter {
            let part = read(bytes)?;
            // Parts of other stages are refused by the merge, naming the stages (their widths
            // differ for that reason).
            if same_dim && part.dim() != total.dim() && part.stages() == total.stages() {
                return Err(PyValueError::new_err(format!(
                    "{} has {} features but {} has {}: every partition must have the same columns",
                    parts_name(&part),
                    part.dim(),
                    first_name,
                    total.dim()
                )));
            }
            total.merge(&part).map_err(|e| chained(&e))?;
        }
        Ok(total.to_bytes())
    })?;
    Ok(PyBytes::new(py, &merged))
}

/// `(features, rows, [(label, rows), ...], sources, stages)`.
type Info = (
    usize,
    u64,
    Vec<(f64, u64)>,
    Vec<String>,
    Option<PyTransform>,
);

/// What moment-file bytes hold: `(features, rows, [(label, rows), ...], sources, stages)`,
/// labels sorted; `stages`: the fitted stages (a `_native.Transform`) the rows went through,
/// `None` for rows as read.
#[pyfunction]
pub(crate) fn moments_info(py: Python<'_>, bytes: PyBackedBytes) -> PyResult<Info> {
    let s = py.detach(|| read(&bytes))?;
    let stages = s.stages().map(|t| {
        let input = t.input_dim().unwrap_or(s.dim());
        PyTransform::new(t.clone(), input)
    });
    Ok((
        s.dim(),
        s.rows(),
        s.label_counts(),
        s.sources().to_vec(),
        stages,
    ))
}

/// Fits the registry algorithm `name` (one fitted from moments) with the JSON `params` on
/// merged moment-file bytes: rows labelled with one of `positive_labels` are positive (each
/// must occur), the scaling `scale` (as the CLI's `--scale`) is fitted on the merged feature
/// ranges and applied to the moments. The model records `positive_rule` and `seed`. Moments of
/// mapped rows are fitted with the stages they record, as they are: `scale` is not applied
/// (as `auc train` fits a moment file of mapped rows whatever its `--scale`).
#[pyfunction]
#[pyo3(signature = (name, params, moments, positive_labels, positive_rule, scale, seed))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fit_moments(
    py: Python<'_>,
    name: &str,
    params: &str,
    moments: PyBackedBytes,
    positive_labels: Vec<f64>,
    positive_rule: String,
    scale: &str,
    seed: u64,
) -> PyResult<PyModel> {
    let algo = auc_learners::lookup(name).map_err(|e| chained(&e))?;
    let given = param_map(params)?;
    let stages = stages(scale, None, None, seed, None)?;
    let summary = read(&moments)?;
    let prep = auc_train::PrepSpec::new(
        auc_data::ReadOptions::default(),
        Positive::Labels(positive_labels),
        stages,
        None,
    )
    .map_err(|e| chained(&e))?;
    let source = parts_name(&summary);
    let request = auc_train::TrainRequest {
        params: given,
        options: auc_train::Options {
            seed,
            written_by: format!("auclearn {}", env!("CARGO_PKG_VERSION")),
            ..auc_train::Options::default()
        },
        command: "auclearn".to_owned(),
        ..auc_train::TrainRequest::new(
            auc_train::Learner::Named(algo),
            prep,
            auc_train::Input::Moments {
                summary: Box::new(summary),
                source,
            },
        )
    };
    let mut model = py
        .detach(|| auc_train::train(request, &auc_train::Silent))
        .map_err(|e| library_error(&e))?
        .model;
    model.preparation = model.preparation.with_positive_rule(positive_rule);
    Ok(PyModel::new(model))
}
