//! Arrow arrays as table cells (SPEC 11): which column types a table reads, and each row's
//! [`Cell`] of a column of a record batch.
//!
//! - integer and float columns are numbers; a null or a NaN is missing;
//! - boolean columns are the numbers 0 and 1, or the words true and false where text is
//!   wanted (the label; a category list of a model whose training file spelled them out);
//! - string, large string, string view and dictionary-of-string columns are text, trimmed of
//!   spaces and tabs as a CSV field is; a null or an empty string is missing;
//! - a column of type null holds missing cells only;
//! - anything else (nested, binary, decimal, date and time types) is not read.

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, LargeStringArray, StringArray, StringViewArray};
use arrow_schema::DataType;

use crate::ParseErrorKind;
use crate::table::Cell;

/// What a column of a type reads as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Integers and floats.
    Number,
    /// Booleans.
    Flag,
    /// Strings and dictionaries of strings.
    Text,
    /// The null type: every cell missing.
    Null,
}

/// What a column of type `t` reads as, or `None` for a type a table does not read.
pub(crate) fn kind(t: &DataType) -> Option<Kind> {
    use DataType as T;
    match t {
        T::Int8
        | T::Int16
        | T::Int32
        | T::Int64
        | T::UInt8
        | T::UInt16
        | T::UInt32
        | T::UInt64
        | T::Float16
        | T::Float32
        | T::Float64 => Some(Kind::Number),
        T::Boolean => Some(Kind::Flag),
        T::Utf8 | T::LargeUtf8 | T::Utf8View => Some(Kind::Text),
        T::Dictionary(_, values) if matches!(**values, T::Utf8 | T::LargeUtf8 | T::Utf8View) => {
            Some(Kind::Text)
        }
        T::Null => Some(Kind::Null),
        _ => None,
    }
}

/// The cells of one string array.
enum Text {
    Utf8(StringArray),
    Large(LargeStringArray),
    View(StringViewArray),
}

impl Text {
    /// The array as text, if it holds strings.
    fn of(array: &dyn Array) -> Option<Text> {
        Some(match array.data_type() {
            DataType::Utf8 => Text::Utf8(array.as_string::<i32>().clone()),
            DataType::LargeUtf8 => Text::Large(array.as_string::<i64>().clone()),
            DataType::Utf8View => Text::View(array.as_string_view().clone()),
            _ => return None,
        })
    }

    /// The cell of row `i`.
    #[inline]
    fn cell(&self, i: usize) -> Cell<'_> {
        let s = match self {
            Text::Utf8(a) => (!a.is_null(i)).then(|| a.value(i)),
            Text::Large(a) => (!a.is_null(i)).then(|| a.value(i)),
            Text::View(a) => (!a.is_null(i)).then(|| a.value(i)),
        };
        match s.map(|s| s.trim_matches([' ', '\t'])) {
            None | Some("") => Cell::Missing,
            Some(t) => Cell::Text(t),
        }
    }
}

/// How the current batch's column is held.
enum View {
    /// In the number buffer (NaN for a missing cell).
    Numbers,
    /// Booleans in the number buffer, read as words.
    Words,
    Text(Text),
    /// A dictionary: each row's value index ([`NULL_KEY`] for a null) into the strings.
    Dictionary {
        keys: Vec<usize>,
        values: Text,
    },
    /// Every cell missing.
    Null,
}

/// The key of a null dictionary entry.
const NULL_KEY: usize = usize::MAX;

/// One column of the record batches of a file, reloaded for each batch.
pub(crate) struct Column {
    /// The words a boolean reads as, false then true; `None`: the numbers 0 and 1.
    words: Option<[String; 2]>,
    numbers: Vec<f64>,
    view: View,
}

impl Column {
    /// A column whose booleans read as `words` (false, true), or as 0 and 1.
    pub(crate) fn new(words: Option<[String; 2]>) -> Column {
        Column {
            words,
            numbers: Vec::new(),
            view: View::Null,
        }
    }

    /// Takes the column's array of a new batch (of a type [`kind`] accepts).
    pub(crate) fn load(&mut self, array: &dyn Array) {
        macro_rules! numbers {
            ($t:ty, $to:expr) => {{
                let a = array.as_primitive::<$t>();
                self.numbers.clear();
                self.numbers.extend(a.values().iter().map($to));
                self.view = View::Numbers;
            }};
        }
        match array.data_type() {
            DataType::Int8 => numbers!(Int8Type, |&v| f64::from(v)),
            DataType::Int16 => numbers!(Int16Type, |&v| f64::from(v)),
            DataType::Int32 => numbers!(Int32Type, |&v| f64::from(v)),
            DataType::Int64 => numbers!(Int64Type, |&v| v as f64),
            DataType::UInt8 => numbers!(UInt8Type, |&v| f64::from(v)),
            DataType::UInt16 => numbers!(UInt16Type, |&v| f64::from(v)),
            DataType::UInt32 => numbers!(UInt32Type, |&v| f64::from(v)),
            DataType::UInt64 => numbers!(UInt64Type, |&v| v as f64),
            DataType::Float16 => numbers!(Float16Type, |&v| f64::from(v)),
            DataType::Float32 => numbers!(Float32Type, |&v| f64::from(v)),
            DataType::Float64 => numbers!(Float64Type, |&v| v),
            DataType::Boolean => {
                let a = array.as_boolean();
                self.numbers.clear();
                self.numbers
                    .extend(a.values().iter().map(|b| if b { 1.0 } else { 0.0 }));
                self.view = if self.words.is_some() {
                    View::Words
                } else {
                    View::Numbers
                };
            }
            DataType::Dictionary(..) => {
                let d = array.as_any_dictionary();
                let mut keys = d.normalized_keys();
                if let Some(nulls) = d.keys().logical_nulls() {
                    for (i, k) in keys.iter_mut().enumerate() {
                        if nulls.is_null(i) {
                            *k = NULL_KEY;
                        }
                    }
                }
                self.view = match Text::of(d.values().as_ref()) {
                    Some(values) => View::Dictionary { keys, values },
                    None => View::Null,
                };
            }
            _ => {
                self.view = match Text::of(array) {
                    Some(t) => View::Text(t),
                    None => View::Null,
                };
            }
        }
        if matches!(self.view, View::Numbers | View::Words)
            && let Some(nulls) = array.logical_nulls()
        {
            for i in 0..self.numbers.len() {
                if nulls.is_null(i) {
                    self.numbers[i] = f64::NAN;
                }
            }
        }
    }

    /// The cell of row `i` of the batch.
    ///
    /// # Errors
    /// [`ParseErrorKind::NonFiniteValue`] for an infinite number.
    #[inline]
    pub(crate) fn cell(&self, i: usize) -> Result<Cell<'_>, ParseErrorKind> {
        Ok(match &self.view {
            View::Numbers => {
                let x = self.numbers[i];
                if x.is_nan() {
                    Cell::Missing
                } else if x.is_finite() {
                    Cell::Number(x)
                } else {
                    return Err(ParseErrorKind::NonFiniteValue);
                }
            }
            View::Words => {
                let x = self.numbers[i];
                match &self.words {
                    Some(w) if !x.is_nan() => Cell::Text(&w[usize::from(x != 0.0)]),
                    _ => Cell::Missing,
                }
            }
            View::Text(t) => t.cell(i),
            View::Dictionary { keys, values } => match keys[i] {
                NULL_KEY => Cell::Missing,
                k => values.cell(k),
            },
            View::Null => Cell::Missing,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{
        ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int64Array, ListArray,
        types::Int8Type as Key,
    };

    use super::*;

    fn cells(
        array: ArrayRef,
        words: Option<[String; 2]>,
    ) -> Vec<Result<Cell<'static>, ParseErrorKind>> {
        let mut c = Column::new(words);
        c.load(array.as_ref());
        // Leaked for the test's convenience: the cells borrow the column.
        let c: &'static Column = Box::leak(Box::new(c));
        (0..array.len()).map(|i| c.cell(i)).collect()
    }

    #[test]
    fn numbers_nulls_and_nans() {
        let a: ArrayRef = Arc::new(Float64Array::from(vec![
            Some(1.5),
            None,
            Some(f64::NAN),
            Some(f64::INFINITY),
        ]));
        assert_eq!(
            cells(a, None),
            [
                Ok(Cell::Number(1.5)),
                Ok(Cell::Missing),
                Ok(Cell::Missing),
                Err(ParseErrorKind::NonFiniteValue)
            ]
        );
        let i: ArrayRef = Arc::new(Int64Array::from(vec![Some(-3), None]));
        assert_eq!(cells(i, None), [Ok(Cell::Number(-3.0)), Ok(Cell::Missing)]);
    }

    #[test]
    fn booleans_are_numbers_or_words() {
        let b: ArrayRef = Arc::new(BooleanArray::from(vec![Some(true), Some(false), None]));
        assert_eq!(
            cells(b.clone(), None),
            [
                Ok(Cell::Number(1.0)),
                Ok(Cell::Number(0.0)),
                Ok(Cell::Missing)
            ]
        );
        let words = Some(["False".to_owned(), "True".to_owned()]);
        assert_eq!(
            cells(b, words),
            [
                Ok(Cell::Text("True")),
                Ok(Cell::Text("False")),
                Ok(Cell::Missing)
            ]
        );
    }

    #[test]
    fn strings_and_dictionaries_are_trimmed_text() {
        let s: ArrayRef = Arc::new(StringArray::from(vec![Some(" red "), Some(""), None]));
        assert_eq!(
            cells(s, None),
            [Ok(Cell::Text("red")), Ok(Cell::Missing), Ok(Cell::Missing)]
        );
        let d: DictionaryArray<Key> = vec![Some("a"), None, Some("b"), Some("a")]
            .into_iter()
            .collect();
        let d: ArrayRef = Arc::new(d);
        assert_eq!(
            cells(d, None),
            [
                Ok(Cell::Text("a")),
                Ok(Cell::Missing),
                Ok(Cell::Text("b")),
                Ok(Cell::Text("a"))
            ]
        );
    }

    #[test]
    fn only_flat_numbers_flags_and_text_are_read() {
        assert_eq!(kind(&DataType::UInt16), Some(Kind::Number));
        assert_eq!(kind(&DataType::Boolean), Some(Kind::Flag));
        let dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8));
        assert_eq!(kind(&dict), Some(Kind::Text));
        let int_dict = DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Int64));
        assert_eq!(kind(&int_dict), None);
        assert_eq!(kind(&DataType::Binary), None);
        assert_eq!(kind(&DataType::Date32), None);
        let list = ListArray::from_iter_primitive::<Int64Type, _, _>(vec![Some(vec![Some(1)])]);
        assert_eq!(kind(list.data_type()), None);
    }
}
