//! Tables held column by column, as data frames hold them (Python's pandas, polars and Arrow
//! tables, or a numpy array with NaN): the survey that fits a [`Schema`] on their cells and the
//! encoding of their rows by a schema into a dense row-major matrix. Both go through the same
//! [`Survey`] and [`Binding`] as a CSV file's rows, so a model fitted on a frame encodes a CSV
//! file with the same column names exactly as it encodes the frame.
//!
//! A column is numbers (NaN is a missing cell) or text (`None`, or text that is empty after
//! trimming, is a missing cell). Text is never read as a number here: a frame says which of its
//! columns are numeric. An infinite number is refused, naming the column and row.

use super::cell::Cell;
use super::encode::Binding;
use super::label::value_key;
use super::schema::{Schema, TableOptions};
use super::survey::Survey;
use crate::DataError;

/// The values of one column.
#[derive(Clone, Copy, Debug)]
pub enum ColumnValues<'a> {
    /// Numbers; NaN is a missing cell.
    Numbers(&'a [f64]),
    /// Text; `None` is a missing cell.
    Texts(&'a [Option<String>]),
}

impl ColumnValues<'_> {
    /// The number of rows.
    pub fn len(&self) -> usize {
        match self {
            ColumnValues::Numbers(v) => v.len(),
            ColumnValues::Texts(v) => v.len(),
        }
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell of row `i`; `Err(x)` for an infinite number.
    fn cell(&self, i: usize) -> Result<Cell<'_>, f64> {
        match self {
            ColumnValues::Numbers(v) => match v[i] {
                x if x.is_nan() => Ok(Cell::Missing),
                x if x.is_finite() => Ok(Cell::Number(x)),
                x => Err(x),
            },
            ColumnValues::Texts(v) => {
                Ok(match v[i].as_deref().map(|s| s.trim_matches([' ', '\t'])) {
                    None | Some("") => Cell::Missing,
                    Some(s) => Cell::Text(s),
                })
            }
        }
    }
}

/// Checks that `names` and `columns` pair up, that every column has the first one's rows and
/// that no name repeats; returns the number of rows.
fn check_shape(
    names: &[String],
    columns: &[ColumnValues<'_>],
    what: &str,
) -> Result<usize, DataError> {
    if names.len() != columns.len() {
        return Err(DataError::Table(format!(
            "{what}: {} column names for {} columns",
            names.len(),
            columns.len()
        )));
    }
    let rows = columns.first().map_or(0, ColumnValues::len);
    for (name, c) in names.iter().zip(columns) {
        if c.len() != rows {
            return Err(DataError::Table(format!(
                "{what}: column \"{name}\" has {} rows, the first column {rows}",
                c.len()
            )));
        }
    }
    for (k, name) in names.iter().enumerate() {
        if names[..k].iter().any(|n| n.trim() == name.trim()) {
            return Err(DataError::Table(format!(
                "{what}: two columns are named \"{name}\""
            )));
        }
    }
    Ok(rows)
}

fn infinite(name: &str, row: usize, x: f64) -> DataError {
    DataError::Table(format!(
        "column \"{name}\", row {row}: {x} is not a value a feature or label can take (a missing value is NaN or None)"
    ))
}

/// The schema of the columns `names` holding `columns`, the label in column `label`, fitted by
/// a survey of every row (SPEC 11) with `options`. `classes` are label values that count as
/// taken even when no row has them (with no rows): the classes a first batch of an
/// incremental fit names, which may hold only one of them.
///
/// # Errors
/// [`DataError::Table`]: names and columns that do not pair up, columns of unequal length, a
/// repeated name, a label column out of range, a missing label (naming its row, counted from
/// 0), an infinite number, and those of [`Schema::from_survey`].
pub fn schema_of_columns(
    names: &[String],
    columns: &[ColumnValues<'_>],
    label: usize,
    classes: &[Cell<'_>],
    options: &TableOptions,
) -> Result<Schema, DataError> {
    let rows = check_shape(names, columns, "the table")?;
    if label >= names.len() {
        return Err(DataError::Table(format!(
            "the label column {label} is not one of the table's {} columns",
            names.len()
        )));
    }
    let mut survey = Survey::new(names.to_vec(), label);
    for (k, column) in columns.iter().enumerate() {
        for i in 0..rows {
            let cell = column.cell(i).map_err(|x| infinite(&names[k], i, x))?;
            if k != label {
                survey.cell(k, cell);
            } else if !survey.label(cell) {
                return Err(DataError::Table(format!(
                    "row {i}: the label (\"{}\") is missing: a row without a label cannot train",
                    names[label]
                )));
            }
        }
    }
    for _ in 0..rows {
        survey.end_row();
    }
    let mut key = String::new();
    for &class in classes {
        value_key(class, &mut key);
        if class != Cell::Missing && !survey.label_counts.contains_key(&key) {
            survey.label_counts.insert(key.clone(), 0);
        }
    }
    Schema::from_survey(&survey, options)
}

/// Rows encoded by a schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// The features, row after row: `rows` rows of the schema's [`Schema::dim`] values.
    pub values: Vec<f64>,
    /// The number of rows.
    pub rows: usize,
    /// Each row's label, +1 (positive by the schema's label map) or -1, when the columns hold
    /// the label column.
    pub labels: Option<Vec<f64>>,
    /// The columns the schema does not use.
    pub ignored: Vec<String>,
}

/// The rows of the columns `names` holding `columns` encoded by `schema`: columns matched by
/// name in any order (a missing feature column is an error naming it; the label column may be
/// absent; other columns are ignored). `what` names the table in errors (`X`).
///
/// # Errors
/// [`DataError::Table`]: a column the schema needs and `names` lacks; names and columns that
/// do not pair up; columns of unequal length; text in a column the schema reads as numbers, a
/// missing label or an infinite number (naming the column and the row, counted from 0); more
/// values than memory can index.
pub fn encode_columns(
    schema: &Schema,
    names: &[String],
    columns: &[ColumnValues<'_>],
    what: &str,
) -> Result<Encoded, DataError> {
    let rows = check_shape(names, columns, what)?;
    let mut binding = Binding::new(schema, names, what)?;
    let dim = schema.dim();
    let size = rows.checked_mul(dim).ok_or_else(|| {
        DataError::Table(format!(
            "{what}: {rows} rows of {dim} features are too many values"
        ))
    })?;
    let mut values = vec![0.0; size];
    let mut labels = vec![-1.0; if binding.labelled() { rows } else { 0 }];
    let mut unused = 0.0;
    for (k, column) in columns.iter().enumerate() {
        for i in 0..rows {
            let cell = column.cell(i).map_err(|x| infinite(&names[k], i, x))?;
            let label = labels.get_mut(i).unwrap_or(&mut unused);
            binding
                .encode(schema, k, cell, label, &mut values[i * dim..(i + 1) * dim])
                .map_err(|problem| DataError::Table(format!("{what}, row {i}: {problem}")))?;
        }
    }
    Ok(Encoded {
        values,
        rows,
        labels: binding.labelled().then_some(labels),
        ignored: binding.ignored().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: &[Option<&str>]) -> Vec<Option<String>> {
        v.iter().map(|s| s.map(str::to_owned)).collect()
    }

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_frame_encodes_as_its_schema_says() {
        let income = [1.0, f64::NAN, 3.0, 5.0];
        let color = texts(&[Some("red"), Some(" red "), None, Some("blue")]);
        let y = texts(&[Some("bad"), Some("good"), Some("good"), Some("good")]);
        let n = names(&["income", "color", "y"]);
        let cols = [
            ColumnValues::Numbers(&income),
            ColumnValues::Texts(&color),
            ColumnValues::Texts(&y),
        ];
        let options = TableOptions {
            min_count: 1,
            ..TableOptions::default()
        };
        let schema = schema_of_columns(&n, &cols, 2, &[], &options).unwrap();
        // income, income (missing), color=red, color=blue, color (other), color (missing).
        assert_eq!(schema.dim(), 6);
        assert_eq!(schema.label.positive, ["bad"]);
        // Scoring columns in another order, without the label.
        let rev = names(&["color", "income"]);
        let got = encode_columns(&schema, &rev, &[cols[1], cols[0]], "X").unwrap();
        assert_eq!(got.labels, None);
        let mean = 3.0;
        #[rustfmt::skip]
        let want = [
            1.0, 0.0, 1.0, 0.0, 0.0, 0.0,
            mean, 1.0, 1.0, 0.0, 0.0, 0.0,
            3.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            5.0, 0.0, 0.0, 1.0, 0.0, 0.0,
        ];
        assert_eq!(got.values, want);
        let labelled = encode_columns(&schema, &n, &cols, "X").unwrap();
        assert_eq!(labelled.labels, Some(vec![1.0, -1.0, -1.0, -1.0]));
    }

    #[test]
    fn problems_name_their_column_and_row() {
        let x = [1.0, f64::INFINITY];
        let y = [0.0, 1.0];
        let n = names(&["a", "y"]);
        let cols = [ColumnValues::Numbers(&x), ColumnValues::Numbers(&y)];
        let e = schema_of_columns(&n, &cols, 1, &[], &TableOptions::default()).unwrap_err();
        assert!(e.to_string().contains("column \"a\", row 1"), "{e}");
        let y = [0.0, f64::NAN];
        let cols = [ColumnValues::Numbers(&y[..1]), ColumnValues::Numbers(&y)];
        let e = schema_of_columns(&n, &cols, 1, &[], &TableOptions::default()).unwrap_err();
        assert!(e.to_string().contains("has 2 rows"), "{e}");
        let x = [1.0, 2.0];
        let cols = [ColumnValues::Numbers(&x), ColumnValues::Numbers(&y)];
        let e = schema_of_columns(&n, &cols, 1, &[], &TableOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("row 1: the label (\"y\") is missing"),
            "{e}"
        );
        let y = [0.0, 1.0];
        let cols = [ColumnValues::Numbers(&x), ColumnValues::Numbers(&y)];
        let schema = schema_of_columns(&n, &cols, 1, &[], &TableOptions::default()).unwrap();
        let words = texts(&[Some("1"), Some("two")]);
        let e = encode_columns(&schema, &names(&["a"]), &[ColumnValues::Texts(&words)], "X")
            .unwrap_err();
        assert!(e.to_string().contains("X, row 0: column \"a\""), "{e}");
        let e =
            encode_columns(&schema, &names(&["b"]), &[ColumnValues::Numbers(&x)], "X").unwrap_err();
        assert!(e.to_string().contains("needs the column {\"a\"}"), "{e}");
    }

    #[test]
    fn classes_of_a_first_batch_count_without_rows() {
        let x = [1.0, 2.0];
        let y = texts(&[Some("no"), Some("no")]);
        let n = names(&["a", "y"]);
        let cols = [ColumnValues::Numbers(&x), ColumnValues::Texts(&y)];
        let classes = [Cell::Text("no"), Cell::Text("yes")];
        let schema = schema_of_columns(&n, &cols, 1, &classes, &TableOptions::default()).unwrap();
        assert_eq!(schema.label.positive, ["yes"]);
        assert_eq!(schema.label.class_counts(), (0, 2));
    }
}
