//! `auclearn._native.Transform`: the preparation stages alone (scaling, a feature map), fitted
//! on an array and applied to others, behind the scikit-learn transformer
//! `auclearn.FeatureMap`.
//!
//! It is fitted by [`crate::model::fit_transform`], the very code that fits a model's stages, so
//! a `FeatureMap` followed by a linear estimator without stages trains on the rows the estimator
//! with `features=` would have mapped itself, bit for bit. Its bytes are a small file of their
//! own ([`MAGIC`], a format version, then the postcard encoding of the input dimension and the
//! [`Transform`]), validated when read. Fitting and mapping run with the GIL released.
//!
//! The same fit in two halves, for data in partitions (`auclearn.dask`): [`map_sample`] surveys
//! one partition (the ranges of the scaling, the map's seeded sample: [`MapSample`]) into bytes,
//! [`merge_map_samples`] merges such bytes exactly, and `Transform.fit_from_sample` fits the
//! stages on the merged survey, which gives the transform `Transform.fit` gives on the
//! concatenated rows, bit for bit.

use std::ops::Range;

use auc_core::{Label, Row};
use auc_prep::{Transform, TransformSpec};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use serde::{Deserialize, Serialize};

use crate::input::{Borrowed, Rows};
use crate::model::{fit_transform, stages, value_error};
use crate::sample::{self, MapSample};

/// The first bytes of a transform's bytes.
const MAGIC: &[u8; 16] = b"auclearn-transf\0";

/// The layout version after [`MAGIC`] (a little-endian `u32`).
const FORMAT_VERSION: u32 = 1;

/// Rows mapped at once: a whole dataset goes through [`Transform::apply_dataset`], whose
/// Nystroem stage projects blocks of rows together (the same values as row by row, faster).
const BLOCK_ROWS: usize = 1024;

/// What the bytes hold after the header.
#[derive(Serialize, Deserialize)]
struct Wire {
    /// The number of features of the input rows.
    input_dim: usize,
    /// The fitted stages.
    transform: Transform,
}

/// Fitted preparation stages for rows of a fixed number of features.
#[pyclass(module = "auclearn._native", name = "Transform")]
pub(crate) struct PyTransform {
    transform: Transform,
    input_dim: usize,
}

impl PyTransform {
    /// Fitted stages for rows of `input_dim` features.
    pub(crate) fn new(transform: Transform, input_dim: usize) -> Self {
        Self {
            transform,
            input_dim,
        }
    }

    /// The fitted stages and the number of features of their input rows.
    pub(crate) fn parts(&self) -> (&Transform, usize) {
        (&self.transform, self.input_dim)
    }

    /// Refuses a fit of `stages` on rows of `dim` features that would take more than `limit`
    /// bytes.
    fn check_fit_memory(stages: &TransformSpec, dim: usize, limit: Option<u64>) -> PyResult<()> {
        let needed = stages.fit_bytes(dim);
        match limit {
            Some(limit) if needed > limit => Err(PyMemoryError::new_err(format!(
                "fitting these stages on {dim} features needs about {:.3} GB but the limit is {:.3} GB: use a smaller map",
                needed as f64 / 1e9,
                limit as f64 / 1e9
            ))),
            _ => Ok(()),
        }
    }

    /// Refuses rows of another width than the fitted ones.
    fn check_dim(&self, rows: &Rows<'_>) -> PyResult<()> {
        if rows.dim() != self.input_dim {
            return Err(PyValueError::new_err(format!(
                "X has {} features, but the transform was fitted with {} features",
                rows.dim(),
                self.input_dim
            )));
        }
        Ok(())
    }

    /// The features of the transformed rows.
    fn out_dim(&self) -> usize {
        self.transform.output_dim(self.input_dim)
    }

    /// Rows `range` of `rows` through the stages, written densely into `out` (`range.len()`
    /// rows of [`PyTransform::out_dim`] values, zero on entry).
    fn apply_block(
        &self,
        rows: &Rows<'_>,
        range: Range<usize>,
        out: &mut [f64],
    ) -> Result<(), String> {
        let d = self.out_dim();
        let block = rows.collect_range(range.clone(), vec![Label::Neg; range.len()])?;
        let mapped = self.transform.apply_dataset(&block);
        for ((x, _), z) in mapped.iter().zip(out.chunks_exact_mut(d)) {
            match x {
                Row::Dense(v) => z.copy_from_slice(&v[..d]),
                Row::Sparse(s) => {
                    for (&k, &v) in s.indices().iter().zip(s.values()) {
                        z[k as usize] = v;
                    }
                }
            }
        }
        Ok(())
    }
}

#[pymethods]
impl PyTransform {
    /// The stages fitted on `x` (2-D float array or a CSR tuple): the scaling `scale` (a word
    /// of the CLI's `--scale`) and the feature map `features` (`nystroem[:M]`, `rff[:D]`,
    /// `elm[:D]`, or `None`) of kernel width rule `feature_sigma` drawn with `seed`, exactly as
    /// a model's fit with these arguments fits them. `max_memory`: refuse (`MemoryError`) a fit
    /// that would take more bytes.
    #[staticmethod]
    #[pyo3(signature = (x, scale, features = None, feature_sigma = None, seed = 0, max_memory = None, one_hot = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per stage setting.
    fn fit(
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        scale: &str,
        features: Option<&str>,
        feature_sigma: Option<&str>,
        seed: u64,
        max_memory: Option<u64>,
        one_hot: Option<u16>,
    ) -> PyResult<PyTransform> {
        let stages = stages(scale, features, feature_sigma, seed, one_hot)?;
        let borrowed = Borrowed::extract(x)?;
        let rows = borrowed.rows()?;
        if rows.n() == 0 {
            return Err(PyValueError::new_err(
                "fitting a transform needs at least one row",
            ));
        }
        let dim = rows.dim();
        Self::check_fit_memory(&stages, dim, max_memory)?;
        let transform = py
            .detach(|| fit_transform(&rows, &stages))
            .map_err(PyValueError::new_err)?;
        transform.validate(dim).map_err(value_error)?;
        Ok(PyTransform {
            transform,
            input_dim: dim,
        })
    }

    /// The stages fitted on the merged survey `sample` (bytes of [`map_sample`] or
    /// [`merge_map_samples`] over the partitions of some rows), with the arguments of
    /// [`PyTransform::fit`], which the survey must have been taken with: the transform `fit`
    /// gives on all those rows at once, bit for bit.
    #[staticmethod]
    #[pyo3(signature = (sample, scale, features = None, feature_sigma = None, seed = 0, max_memory = None, one_hot = None))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per stage setting.
    fn fit_from_sample(
        py: Python<'_>,
        sample: &[u8],
        scale: &str,
        features: Option<&str>,
        feature_sigma: Option<&str>,
        seed: u64,
        max_memory: Option<u64>,
        one_hot: Option<u16>,
    ) -> PyResult<PyTransform> {
        let stages = stages(scale, features, feature_sigma, seed, one_hot)?;
        let survey = MapSample::from_bytes(sample).map_err(PyValueError::new_err)?;
        if survey.is_empty() {
            return Err(PyValueError::new_err(
                "fitting a transform needs at least one row; the survey holds none",
            ));
        }
        let dim = survey.dim();
        Self::check_fit_memory(&stages, dim, max_memory)?;
        let transform = py
            .detach(|| sample::fit(&stages, survey))
            .map_err(PyValueError::new_err)?;
        transform.validate(dim).map_err(value_error)?;
        Ok(PyTransform::new(transform, dim))
    }

    /// Every row of `x` through the stages, as a dense float64 array of shape `(n,
    /// output_dim)`. `max_memory`: refuse (`MemoryError`) a result of more bytes.
    #[pyo3(signature = (x, max_memory = None))]
    fn transform<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        max_memory: Option<u64>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let borrowed = Borrowed::extract(x)?;
        let rows = borrowed.rows()?;
        self.check_dim(&rows)?;
        let (n, d) = (rows.n(), self.out_dim());
        let bytes = (n as u64).saturating_mul(d as u64).saturating_mul(8);
        if max_memory.is_some_and(|limit| bytes > limit) {
            return Err(PyMemoryError::new_err(format!(
                "{n} rows of {d} mapped features take {:.3} GB, more than the limit: transform fewer rows at a time",
                bytes as f64 / 1e9
            )));
        }
        let values = py.detach(|| -> Result<Vec<f64>, String> {
            let mut out = vec![0.0; n * d];
            if d > 0 {
                for (b, chunk) in out.chunks_mut(BLOCK_ROWS * d).enumerate() {
                    let start = b * BLOCK_ROWS;
                    self.apply_block(&rows, start..start + chunk.len() / d, chunk)?;
                }
            }
            Ok(out)
        });
        let array = Array2::from_shape_vec((n, d), values.map_err(PyValueError::new_err)?)
            .map_err(value_error)?;
        Ok(array.into_pyarray(py))
    }

    /// Reads the bytes of [`PyTransform::to_bytes`], checking the stages against the input
    /// dimension.
    #[staticmethod]
    pub(crate) fn from_bytes(bytes: &[u8]) -> PyResult<PyTransform> {
        let bad = |why: String| PyValueError::new_err(format!("not a transform's bytes: {why}"));
        let head = MAGIC.len() + 4;
        if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("the header is missing".to_owned()));
        }
        let version = u32::from_le_bytes(
            bytes[MAGIC.len()..head]
                .try_into()
                .expect("four bytes after the magic"),
        );
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this auclearn reads version {FORMAT_VERSION}"
            )));
        }
        let wire = match postcard::take_from_bytes::<Wire>(&bytes[head..]) {
            Ok((w, [])) => w,
            Ok((_, rest)) => return Err(bad(format!("{} bytes after the payload", rest.len()))),
            Err(e) => return Err(bad(e.to_string())),
        };
        wire.transform.validate(wire.input_dim).map_err(bad)?;
        Ok(PyTransform {
            transform: wire.transform,
            input_dim: wire.input_dim,
        })
    }

    /// The bytes [`PyTransform::from_bytes`] reads.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let wire = Wire {
            input_dim: self.input_dim,
            transform: self.transform.clone(),
        };
        let payload = postcard::to_allocvec(&wire).expect("transforms serialize to postcard");
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&payload);
        PyBytes::new(py, &out)
    }

    /// Pickles as its bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let bytes = slf.borrow().to_bytes(py);
        Ok((slf.getattr("from_bytes")?, (bytes,)))
    }

    /// The number of features of the input rows.
    #[getter]
    fn input_dim(&self) -> usize {
        self.input_dim
    }

    /// The number of features of the transformed rows (a Nystroem map may keep fewer than its
    /// landmarks).
    #[getter]
    fn output_dim(&self) -> usize {
        self.out_dim()
    }

    /// The fitted scaling's name (`none`, `minmax`, `maxabs`).
    #[getter]
    fn scaling(&self) -> String {
        self.transform.scaler().kind().name().to_owned()
    }

    /// The fitted feature map as `(kind, size, sigma)` (`("nystroem", 500, 0.83)`), or `None`.
    #[getter]
    fn feature_map(&self) -> Option<(&'static str, usize, f64)> {
        self.transform
            .feature_map()
            .map(|m| (m.kind().word(), m.size(), m.sigma()))
    }

    /// The most levels of a categorical feature of its one-hot stage (`one_hot=K`), or `None`
    /// without one.
    #[getter]
    fn one_hot(&self) -> Option<u16> {
        self.transform.one_hot().map(|o| o.max_levels())
    }

    /// The seed the feature map was drawn with, or `None` without a map.
    #[getter]
    fn seed(&self) -> Option<u64> {
        self.transform.feature_map().map(|m| m.seed())
    }

    /// The stages in order, as `auc model` prints them (`scale(minmax) -> map(rff:64 (sigma
    /// 1.2))`).
    #[getter]
    fn describe(&self) -> String {
        self.transform.describe()
    }

    fn __repr__(&self) -> String {
        format!(
            "Transform({}, {} -> {} features)",
            self.transform.describe(),
            self.input_dim,
            self.out_dim()
        )
    }
}

/// The survey (bytes) of the rows of `x` (2-D float array or a CSR tuple) that the stages of
/// [`PyTransform::fit`]'s arguments are fitted on: the feature ranges when `scale` is fitted on
/// them and the map's seeded sample (`features` is required). Surveys of disjoint rows merge
/// exactly ([`merge_map_samples`]); `Transform.fit_from_sample` fits on the result.
#[pyfunction]
#[pyo3(signature = (x, scale, features = None, feature_sigma = None, seed = 0, one_hot = None))]
pub(crate) fn map_sample<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    scale: &str,
    features: Option<&str>,
    feature_sigma: Option<&str>,
    seed: u64,
    one_hot: Option<u16>,
) -> PyResult<Bound<'py, PyBytes>> {
    let stages = stages(scale, features, feature_sigma, seed, one_hot)?;
    let borrowed = Borrowed::extract(x)?;
    let rows = borrowed.rows()?;
    let bytes = py.detach(|| sample::survey(&rows, &stages).to_bytes());
    Ok(PyBytes::new(py, &bytes))
}

/// The exact merge of surveys of disjoint rows ([`map_sample`]'s bytes, taken with the same
/// arguments on rows of the same columns), as a survey's bytes.
#[pyfunction]
pub(crate) fn merge_map_samples<'py>(
    py: Python<'py>,
    parts: Vec<PyBackedBytes>,
) -> PyResult<Bound<'py, PyBytes>> {
    let merged = py.detach(|| -> Result<Vec<u8>, String> {
        let mut iter = parts.iter();
        let first = iter.next().ok_or("no surveys to merge")?;
        let mut total = MapSample::from_bytes(first)?;
        for bytes in iter {
            total.merge(MapSample::from_bytes(bytes)?)?;
        }
        Ok(total.to_bytes())
    });
    Ok(PyBytes::new(py, &merged.map_err(PyValueError::new_err)?))
}
