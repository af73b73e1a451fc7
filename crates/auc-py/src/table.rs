//! `auclearn._native.TableSchema`: the schema of a table (SPEC 11) fitted on a data frame's
//! columns, and the encoding of frames by it into the float64 matrix the estimators train and
//! score on. A model fitted on a frame stores the schema in its preparation
//! ([`auc_data::Reading::Table`]), so `auc predict` reads a CSV file with the frame's column
//! names as the estimator reads the frame.
//!
//! Python hands the columns over one by one, as the package's `_frames` module converts them:
//! a 1-D float64 array (NaN is missing) for a numeric column, a list of `str` or `None` for any
//! other (text, categories, booleans). The work is [`auc_data::table::schema_of_columns`] and
//! [`auc_data::table::encode_columns`], run with the GIL released.

use auc_data::table::{
    Cell, ColumnValues, Schema, TableOptions, encode_columns, schema_of_columns,
};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// Any error as a Python `ValueError` with its message (as `model::value_error`, which this
/// module, imported by `model`, does not import back).
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// One column as Python passed it.
enum Held<'py> {
    /// float64 values, NaN missing.
    Numbers(PyReadonlyArray1<'py, f64>),
    /// Text, `None` missing.
    Texts(Vec<Option<String>>),
}

impl<'py> Held<'py> {
    fn extract(obj: &Bound<'py, PyAny>, name: &str) -> PyResult<Self> {
        if let Ok(a) = obj.extract::<PyReadonlyArray1<'py, f64>>() {
            return Ok(Held::Numbers(a));
        }
        obj.extract::<Vec<Option<String>>>()
            .map(Held::Texts)
            .map_err(|_| {
                PyTypeError::new_err(format!(
                    "column \"{name}\": a column is passed as a 1-D float64 array or a list of str or None"
                ))
            })
    }

    fn values(&self) -> PyResult<ColumnValues<'_>> {
        Ok(match self {
            Held::Numbers(a) => ColumnValues::Numbers(a.as_slice().map_err(value_error)?),
            Held::Texts(v) => ColumnValues::Texts(v),
        })
    }
}

/// The columns `columns` named `names`, held.
fn held<'py>(names: &[String], columns: &[Bound<'py, PyAny>]) -> PyResult<Vec<Held<'py>>> {
    if names.len() != columns.len() {
        return Err(value_error(format!(
            "{} column names for {} columns",
            names.len(),
            columns.len()
        )));
    }
    names
        .iter()
        .zip(columns)
        .map(|(n, c)| Held::extract(c, n))
        .collect()
}

/// The views of held columns.
fn views<'a>(held: &'a [Held<'_>]) -> PyResult<Vec<ColumnValues<'a>>> {
    held.iter().map(Held::values).collect()
}

/// The schema of a table fitted on its columns: what a model of a frame stores.
#[pyclass(module = "auclearn._native", name = "TableSchema", frozen)]
pub(crate) struct PyTableSchema {
    pub(crate) schema: Schema,
}

/// Fits the schema of the columns `columns` named `names`, the label in column `label`
/// (SPEC 11): the label map with the positive class `positive` (a value as typed; `None`: 1,
/// +1, true or yes when the label holds one of them, else the minority class); `classes`
/// (a column of label values) counts these values as taken even when no row holds them. The
/// categories' limits are the CLI's defaults (`--min-category-count`, `--max-one-hot`).
#[pyfunction]
#[pyo3(signature = (names, columns, label, positive = None, classes = None))]
pub(crate) fn table_schema(
    py: Python<'_>,
    names: Vec<String>,
    columns: Vec<Bound<'_, PyAny>>,
    label: usize,
    positive: Option<String>,
    classes: Option<Bound<'_, PyAny>>,
) -> PyResult<PyTableSchema> {
    let held = held(&names, &columns)?;
    let classes = classes.map(|c| Held::extract(&c, "classes")).transpose()?;
    let views = views(&held)?;
    let class_view = classes.as_ref().map(Held::values).transpose()?;
    let options = TableOptions {
        positive: positive.into_iter().collect(),
        ..TableOptions::default()
    };
    let schema = py.detach(|| {
        let cells: Vec<Cell<'_>> = match &class_view {
            None => Vec::new(),
            Some(ColumnValues::Numbers(v)) => v
                .iter()
                .filter(|x| x.is_finite())
                .map(|&x| Cell::Number(x))
                .collect(),
            Some(ColumnValues::Texts(v)) => v
                .iter()
                .flatten()
                .map(|s| Cell::Text(s.trim_matches([' ', '\t'])))
                .collect(),
        };
        schema_of_columns(&names, &views, label, &cells, &options)
    });
    Ok(PyTableSchema {
        schema: schema.map_err(value_error)?,
    })
}

#[pymethods]
impl PyTableSchema {
    /// The rows of the columns `columns` named `names` (in any order; other columns are
    /// ignored) encoded by the schema: the float64 matrix of `dim` features, and when the
    /// columns hold the label, whether each row is of the positive class. `what` names the
    /// table in errors.
    #[pyo3(signature = (names, columns, what = "X"))]
    #[allow(clippy::type_complexity)]
    fn encode<'py>(
        &self,
        py: Python<'py>,
        names: Vec<String>,
        columns: Vec<Bound<'py, PyAny>>,
        what: &str,
    ) -> PyResult<(
        Bound<'py, PyArray2<f64>>,
        Option<Bound<'py, PyArray1<bool>>>,
    )> {
        let held = held(&names, &columns)?;
        let views = views(&held)?;
        let schema = &self.schema;
        let encoded = py
            .detach(|| encode_columns(schema, &names, &views, what))
            .map_err(value_error)?;
        let labels = encoded.labels.map(|l| {
            l.iter()
                .map(|&v| v > 0.0)
                .collect::<Vec<bool>>()
                .into_pyarray(py)
        });
        let matrix = Array2::from_shape_vec((encoded.rows, schema.dim()), encoded.values)
            .map_err(value_error)?;
        Ok((matrix.into_pyarray(py), labels))
    }

    /// The input columns' names, in the training frame's order.
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.schema.columns.iter().map(|c| c.name.clone()).collect()
    }

    /// The label column's name.
    #[getter]
    fn label(&self) -> String {
        self.schema.label.name.clone()
    }

    /// The label values training saw (as the model stores them: text, numbers in their
    /// shortest form), with their rows.
    #[getter]
    fn label_values(&self) -> Vec<(String, u64)> {
        self.schema.label.counts.clone()
    }

    /// The positive label values.
    #[getter]
    fn positive(&self) -> Vec<String> {
        self.schema.label.positive.clone()
    }

    /// The positive class and why, in words (`bad (the minority class of {bad, good})`).
    #[getter]
    fn positive_rule(&self) -> String {
        self.schema.label.to_string()
    }

    /// The encoded features' names (`income`, `income (missing)`, `color=red`, ...).
    #[getter]
    fn feature_names(&self) -> Vec<String> {
        self.schema.feature_names()
    }

    /// The number of encoded features.
    #[getter]
    fn dim(&self) -> usize {
        self.schema.dim()
    }

    /// What the schema decided, one sentence per categorical column or filled column.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.schema.notes()
    }

    fn __repr__(&self) -> String {
        format!(
            "TableSchema({} columns, label \"{}\", {} features)",
            self.schema.columns.len(),
            self.schema.label.name,
            self.schema.dim()
        )
    }
}
