//! `auclearn._native.Model`: a trained model of any registry algorithm, held as the CLI's
//! [`auc_learners::Model`], so that its bytes are a model file `auc predict` reads.
//!
//! What an array fit records in the model's [`Preparation`]: the reading is LIBSVM (the format
//! whose rows are numbers by feature index, as a Python array's are), the positive labels are
//! the numeric `pos_label` when it is a number (otherwise `1`, with the Python label named in
//! the rule), the dimension is the array's column count, no hashing, the crosses of
//! `cross_hash_bits` after the columns when asked ([`crate::crossed`]), the scaling fitted on
//! the (crossed) training rows as the estimator's `scale` parameter asks (`none` by default) and
//! no unit norm. `auc predict` then reads a LIBSVM file, crosses and scales it as Python does.
//! A fit on a frame's rows encoded by a table's schema ([`crate::table`]) records the schema as
//! its reading instead, and the label map's positive class: `auc predict` then reads a CSV file
//! with the frame's column names.
//!
//! Fitting and scoring run with the GIL released.

use auc_core::{Label, ParamMap};
use auc_data::{Reading, Scaling, TableReading};
use auc_learners::{Calibration, CalibrationSpec, Model};
use auc_prep::{FeatureMapSpec, MapShape, Preparation, SigmaRule, Transform, TransformSpec};
use auc_train::{
    Arrays, Calibrate, CalibrateOn, Input, Learner, Options, PrepSpec, RowSource, TrainRequest,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::crossed::cross;
use crate::input::{Borrowed, Rows, labels};
use crate::table::PyTableSchema;

/// An error with its chain of causes, `outer: inner: ...` (a cause whose text is already there
/// is not repeated).
pub(crate) fn chain_text(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        let s = c.to_string();
        if !text.contains(&s) {
            text.push_str(": ");
            text.push_str(&s);
        }
        cause = c.source();
    }
    text
}

/// An error of the library layers as Python raises it, mapped here once for every binding: a
/// memory refusal ([`auc_train::Error::Memory`]) as `MemoryError`, anything else as
/// `ValueError`, each with its chain of causes.
pub(crate) fn library_error(e: &auc_train::Error) -> PyErr {
    let text = chain_text(e);
    if e.is_memory() {
        pyo3::exceptions::PyMemoryError::new_err(text)
    } else {
        PyValueError::new_err(text)
    }
}

/// Any error as a Python `ValueError` with its message.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The scaling named by a word of the CLI's `--scale` (read by [`Scaling`]'s own parser).
pub(crate) fn scaling(word: &str) -> PyResult<Scaling> {
    word.parse::<Scaling>().map_err(|_| {
        let words: Vec<&str> = Scaling::ALL.iter().map(|s| s.name()).collect();
        PyValueError::new_err(format!(
            "scale must be one of {} (as the CLI's --scale), not {word:?}",
            words.join(", ")
        ))
    })
}

/// The stages an array fit asks for: the scaling of `scale`, the feature map `features`
/// (`nystroem[:M]`, `rff[:D]`, `elm[:D]`, as the CLI's `--features`) of width rule
/// `feature_sigma` (`scale`, `median` or a number; `scale` when `None`) drawn with `seed`, no
/// unit norm; one-hot indicators of the features of at most `one_hot` levels first, when given
/// (the CLI's `--one-hot K`).
pub(crate) fn stages(
    scale: &str,
    features: Option<&str>,
    feature_sigma: Option<&str>,
    seed: u64,
    one_hot: Option<u16>,
) -> PyResult<TransformSpec> {
    let features = match features {
        None => None,
        Some(words) => Some(FeatureMapSpec {
            shape: words.parse::<MapShape>().map_err(value_error)?,
            sigma: match feature_sigma {
                None => auc_prep::features::DEFAULT_SIGMA,
                Some(s) => s.parse::<SigmaRule>().map_err(value_error)?,
            },
            seed,
        }),
    };
    let one_hot = match one_hot {
        None => None,
        Some(k) => Some(auc_prep::OneHotSpec::new(k, seed).map_err(value_error)?),
    };
    Ok(TransformSpec {
        scaling: scaling(scale)?,
        one_hot,
        features,
        unit_norm: false,
    })
}

/// Parameters from a JSON object of the registry's names.
pub(crate) fn param_map(json: &str) -> PyResult<ParamMap> {
    serde_json::from_str(json).map_err(|e| value_error(format!("parameters: {e}")))
}

/// The stages fitted on `rows`: one pass over them for the ranges of a scaling and the seeded
/// sample of a feature map (the rows the CLI's first pass would keep), then the fit of
/// [`crate::sample::fit`], which the surveys of partitions merged go through too.
pub(crate) fn fit_transform(rows: &Rows<'_>, stages: &TransformSpec) -> Result<Transform, String> {
    crate::sample::fit(stages, crate::sample::survey(rows, stages))
}

/// A trained model: scores rows, continues a one-pass learner, and is a CLI model file.
#[pyclass(module = "auclearn._native", name = "Model")]
pub(crate) struct PyModel {
    model: Model,
}

/// Trains algorithm `name` with the JSON `params` on `x` (2-D float array or a CSR tuple) and
/// the boolean labels `y` (true = positive): one pass in row order for a one-pass learner, a fit
/// for a batch learner. `partial`: the first batch of `partial_fit`, which may hold one class;
/// `average`: score with the mean of the iterates (linear learners).
#[pyfunction]
/// `max_memory`: refuse (`MemoryError`) a learner whose state or fit would take more bytes, as
/// the CLI's `--max-memory` does.
/// `features` and `feature_sigma`: a feature map as [`stages`] reads them, drawn with `seed`.
/// `calibration` (`sigmoid`, `isotonic`): fit the model's calibration on the held-out scores of
/// a stratified `calibration_folds`-fold cross-validation, or with `partial` on the prequential
/// scores of the batch.
/// `cross_hash_bits`: the crosses of every row's pairs of non-zeros into `2^C` features after
/// the columns ([`crate::crossed`]), recorded in the model.
/// `table`: the schema of the frame `x` was encoded from ([`crate::table`]), stored as the
/// model's reading, whose label map then names the positive class (`positive_labels` and
/// `positive_rule` are not used).
#[pyo3(signature = (name, params, x, y, seed, scale, positive_labels, positive_rule, partial = false, average = false, max_memory = None, features = None, feature_sigma = None, calibration = None, calibration_folds = auc_learners::DEFAULT_CALIBRATION_FOLDS, cross_hash_bits = None, one_hot = None, table = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn fit(
    py: Python<'_>,
    name: &str,
    params: &str,
    x: &Bound<'_, PyAny>,
    y: PyReadonlyArray1<'_, bool>,
    seed: u64,
    scale: &str,
    positive_labels: Vec<f64>,
    positive_rule: String,
    partial: bool,
    average: bool,
    max_memory: Option<u64>,
    features: Option<&str>,
    feature_sigma: Option<&str>,
    calibration: Option<&str>,
    calibration_folds: usize,
    cross_hash_bits: Option<u8>,
    one_hot: Option<u16>,
    table: Option<PyRef<'_, PyTableSchema>>,
) -> PyResult<PyModel> {
    let algo = auc_learners::lookup(name).map_err(value_error)?;
    let calibrate = crate::calibration::kind(calibration)?.map(|kind| Calibrate {
        spec: CalibrationSpec {
            kind,
            folds: calibration_folds,
        },
        on: if partial {
            CalibrateOn::Prequential
        } else {
            CalibrateOn::Cv
        },
    });
    let given = param_map(params)?;
    let stages = stages(scale, features, feature_sigma, seed, one_hot)?;
    let borrowed = Borrowed::extract(x)?;
    let columns = borrowed.rows()?;
    let crossed = cross(&columns, cross_hash_bits)?;
    let rows = crossed.as_ref().map_or(columns, |c| c.rows());
    if stages.reads_raw_values() {
        rows.check_bounded("learning without scaling, scale=\"none\"")?;
    }
    let labels = labels(&y, rows.n())?;
    let base_dim = columns.dim();
    let schema = table.map(|t| t.schema.clone());
    if let Some(s) = &schema
        && s.dim() != base_dim
    {
        return Err(value_error(format!(
            "X has {base_dim} features, but its table's schema encodes {}",
            s.dim()
        )));
    }
    let (positive_labels, positive_rule) = match &schema {
        Some(s) => (vec![1.0], s.label.to_string()),
        None => (positive_labels, positive_rule),
    };
    let spec = PrepSpec::new(
        auc_data::ReadOptions::default(),
        auc_data::Positive::Auto,
        stages.clone(),
        None,
    )
    .map_err(value_error)?;
    let result = py.detach(|| -> Result<Model, auc_train::Error> {
        let mut preparation = Preparation::for_arrays(
            base_dim,
            cross_hash_bits,
            positive_labels,
            positive_rule,
            fit_transform(&rows, &stages).map_err(auc_train::Error::input)?,
        );
        if let Some(schema) = schema {
            preparation.reading = Reading::Table(TableReading {
                delimiter: b',',
                schema,
            });
        }
        let request = TrainRequest {
            learner: Learner::Named(algo),
            params: given,
            prep: spec,
            input: Input::Arrays(Arrays {
                rows: &rows,
                labels,
                preparation,
                partial,
            }),
            options: Options {
                seed,
                average,
                max_memory: max_memory
                    .map_or_else(|| auc_train::memory::limit(None), auc_train::Bytes),
                written_by: written_by(),
                ..Options::default()
            },
            tune: None,
            calibrate,
            resume: None,
            observer: None,
            command: "auclearn".to_owned(),
        };
        Ok(auc_train::train(request, &auc_train::Silent)?.model)
    });
    Ok(PyModel {
        model: result.map_err(|e| library_error(&e))?,
    })
}

/// What a model's training record says wrote it.
fn written_by() -> String {
    format!("auclearn {}", env!("CARGO_PKG_VERSION"))
}

impl PyModel {
    /// `f` of the model's calibration at the score of every row of `x` (a `ValueError` naming
    /// the way to fit a calibration when the model has none).
    fn calibrated_map<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
        f: fn(&Calibration, f64) -> f64,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let c = self
            .model
            .calibration
            .as_ref()
            .ok_or_else(|| value_error(auc_learners::Error::NotCalibrated))?;
        let scores = self.raw_scores(py, x)?;
        let out: Vec<f64> = scores.iter().map(|&s| f(c, s)).collect();
        Ok(out.into_pyarray(py))
    }

    /// The model's scores of every row of `x` (prepared as the training rows were), checked
    /// finite, computed with the GIL released.
    fn raw_scores(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Vec<f64>> {
        let borrowed = Borrowed::extract(x)?;
        let columns = borrowed.rows()?;
        self.check_dim(&columns)?;
        let crossed = cross(&columns, self.model.preparation.cross_bits)?;
        let rows = crossed.as_ref().map_or(columns, |c| c.rows());
        if self.model.preparation.transform.reads_raw_values() {
            rows.check_bounded("continuing a model trained without scaling")?;
        }
        let model = &self.model;
        let scores = py.detach(|| {
            if model.algorithm.is_online() {
                auc_train::arrays::score_rows(model.state.as_ref(), &rows, &model.preparation)
            } else {
                // Batch models score a whole dataset at once (their kernels share work).
                let n = rows.n();
                let data = rows.dataset(vec![Label::Neg; n])?;
                Ok(model.scores(&model.preparation.apply(&data))?)
            }
        });
        scores.map_err(|e| library_error(&e))
    }

    /// Wraps a trained model.
    pub(crate) fn new(model: Model) -> Self {
        Self { model }
    }

    /// The model it wraps.
    pub(crate) fn model(&self) -> &Model {
        &self.model
    }

    /// Checks that `rows` (before crosses) have the columns the model was trained on.
    fn check_dim(&self, rows: &Rows<'_>) -> PyResult<()> {
        let dim = self.model.preparation.base_dim();
        if rows.dim() != dim {
            return Err(PyValueError::new_err(format!(
                "X has {} features, but the model was trained with {dim} features",
                rows.dim()
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl PyModel {
    /// Reads a model file's bytes (as written by `auc train` or [`PyModel::to_bytes`]).
    #[staticmethod]
    fn from_bytes(bytes: &[u8]) -> PyResult<PyModel> {
        Model::from_bytes(bytes)
            .map(|model| PyModel { model })
            .map_err(value_error)
    }

    /// The model file's bytes, read back and checked before they are returned.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.model.to_checked_bytes().map_err(value_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Pickles as its model file's bytes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let py = slf.py();
        let bytes = slf.borrow().to_bytes(py)?;
        Ok((slf.getattr("from_bytes")?, (bytes,)))
    }

    /// Scores of every row of `x`, prepared as the training rows were.
    fn decision_function<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.raw_scores(py, x)?.into_pyarray(py))
    }

    /// Continues a one-pass learner on `x`, `y` in row order, exactly as `auc train --resume`
    /// continues a saved model on new data (same preparation, same updates). With
    /// `calibration`, the calibration is refitted on the batch's prequential scores (each row
    /// scored before the step on it) when they hold both classes.
    #[pyo3(signature = (x, y, calibration = None))]
    fn partial_fit(
        &mut self,
        py: Python<'_>,
        x: &Bound<'_, PyAny>,
        y: PyReadonlyArray1<'_, bool>,
        calibration: Option<&str>,
    ) -> PyResult<()> {
        let calibrate = crate::calibration::kind(calibration)?;
        let borrowed = Borrowed::extract(x)?;
        let columns = borrowed.rows()?;
        self.check_dim(&columns)?;
        let crossed = cross(&columns, self.model.preparation.cross_bits)?;
        let rows = crossed.as_ref().map_or(columns, |c| c.rows());
        let labels = labels(&y, rows.n())?;
        let model = &mut self.model;
        py.detach(|| {
            auc_train::arrays::continue_on_rows(model, &rows, &labels, calibrate, &written_by())
        })
        .map_err(|e| library_error(&e))
    }

    /// $P(\text{positive})$ of every row of `x` by the model's calibration (a `ValueError`
    /// when it has none).
    fn predict_proba<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.calibrated_map(py, x, Calibration::probability)
    }

    /// The calibrated log-odds of the positive class of every row of `x` (positive exactly
    /// where the probability is above 1/2).
    fn log_odds<'py>(
        &self,
        py: Python<'py>,
        x: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        self.calibrated_map(py, x, Calibration::log_odds)
    }

    /// The calibration in words (`sigmoid (A = .., B = ..)`), or `None`.
    #[getter]
    fn calibration(&self) -> Option<String> {
        self.model.calibration.as_ref().map(|c| c.describe())
    }

    /// A copy.
    fn copy(&self) -> PyResult<PyModel> {
        Self::from_bytes(&self.model.to_bytes())
    }

    /// The algorithm's registry name.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.model.algorithm.name
    }

    /// Whether it is a one-pass learner (it has `partial_fit`).
    #[getter]
    fn is_online(&self) -> bool {
        self.model.algorithm.is_online()
    }

    /// Every parameter (defaults included) as a JSON object of the registry's names.
    #[getter]
    fn params(&self) -> String {
        self.model.config.params_json()
    }

    /// The number of features of the rows given (columns; without the crosses).
    #[getter]
    fn dim(&self) -> usize {
        self.model.preparation.base_dim()
    }

    /// The feature crosses' bits `C` (`2^C` crosses after the columns), or `None`.
    #[getter]
    fn cross_bits(&self) -> Option<u8> {
        self.model.preparation.cross_bits
    }

    /// The file labels of the positive class.
    #[getter]
    fn positive_labels(&self) -> Vec<f64> {
        self.model.preparation.positive_labels.clone()
    }

    /// Why they are positive.
    #[getter]
    fn positive_rule(&self) -> String {
        self.model.preparation.positive_rule.clone()
    }

    /// The fitted scaling's name (`none`, `minmax`, `maxabs`).
    #[getter]
    fn scaling(&self) -> String {
        self.model.preparation.scaler().kind().name().to_owned()
    }

    /// The most levels of a categorical feature of its one-hot stage (`one_hot=K`), or `None`
    /// without one.
    #[getter]
    fn one_hot(&self) -> Option<u16> {
        self.model
            .preparation
            .transform
            .one_hot()
            .map(|o| o.max_levels())
    }

    /// The fitted feature map as `(kind, size, sigma)` (`("nystroem", 500, 0.83)`), or `None`.
    #[getter]
    fn feature_map(&self) -> Option<(&'static str, usize, f64)> {
        self.model
            .preparation
            .transform
            .feature_map()
            .map(|m| (m.kind().word(), m.size(), m.sigma()))
    }

    /// Whether it scores with the average of its iterates.
    #[getter]
    fn averaged(&self) -> bool {
        self.model.state.averaged()
    }

    /// The learner's seed.
    #[getter]
    fn seed(&self) -> u64 {
        self.model.training.seed
    }

    /// Examples, positives and negatives seen over every run.
    #[getter]
    fn counts(&self) -> (u64, u64, u64) {
        let t = &self.model.training;
        (t.examples, t.positives, t.negatives)
    }

    /// What the model says per feature, as a JSON object in feature order (`coef_`,
    /// `intercept_` and `feature_importances_` read it): `kind` (`linear`, `not_per_input`,
    /// `splits`, `none`); `names`, `weights` and `intercept` of a linear model in the units of
    /// the input; `names` and `splits` of trees; `reason` otherwise; and `columns`, the input
    /// columns (`name`, `first`, `width` of their features), when defined.
    #[getter]
    fn explanation(&self) -> String {
        use auc_learners::Explanation;
        let mut v = match self.model.explain() {
            Explanation::Linear(iw) => serde_json::json!({
                "kind": "linear",
                "names": iw.names,
                "weights": iw.weights,
                "intercept": iw.intercept,
            }),
            Explanation::Splits { names, splits, .. } => serde_json::json!({
                "kind": "splits",
                "names": names,
                "splits": splits,
            }),
            other => other.to_json(),
        };
        if let Ok(cols) = auc_train::importance::input_columns(&self.model.preparation) {
            let cols: Vec<_> = cols
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "name": c.name,
                        "first": c.features.start,
                        "width": c.features.len(),
                    })
                })
                .collect();
            v["columns"] = serde_json::json!(cols);
        }
        v.to_string()
    }

    /// The schema of the table it was fitted on (a data frame's, or a CSV file's with named
    /// columns), or `None` for a model of arrays of numbers.
    #[getter]
    fn table(&self) -> Option<PyTableSchema> {
        self.model
            .preparation
            .reading
            .schema()
            .map(|s| PyTableSchema { schema: s.clone() })
    }

    /// The divergence report of the last run, when it diverged.
    #[getter]
    fn diverged(&self) -> Option<String> {
        self.model.training.diverged.clone()
    }

    /// How the training data was read, as `auc model` prints it: `LIBSVM, 13 features` or
    /// `CSV (label column 13 "y", header, delimiter ','), 13 features` (for a CSV, which column
    /// was the label, and by which header name when the default took it from the header).
    #[getter]
    fn reading(&self) -> String {
        self.model.preparation.describe_reading()
    }

    /// What `auc model` prints about the state (sizes, norms), as JSON.
    #[getter]
    fn describe(&self) -> String {
        self.model.state.describe().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Model({}, {}, {} features)",
            self.model.algorithm.name,
            self.model.config.params(),
            self.model.preparation.dim
        )
    }
}
