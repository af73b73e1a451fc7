//! One field of a table as the table layer sees it: missing, a number or text (SPEC 11). CSV
//! fields are classified here from their trimmed bytes; Parquet and data-frame readers build
//! cells from typed values directly.

use serde::{Deserialize, Serialize};

use crate::number::{Number, whole_number};

/// A field's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// An empty field, a token of [`NaTokens`], NaN, or a null.
    Missing,
    /// A finite number.
    Number(f64),
    /// Anything else, trimmed of surrounding spaces and tabs.
    Text(&'a str),
}

/// The tokens that mean "missing" in text input (`--na-values`), compared exactly after trimming.
/// The empty field is always missing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NaTokens(pub Vec<String>);

/// The default missing-value tokens of SPEC 11.
pub const DEFAULT_NA_TOKENS: [&str; 7] = ["NA", "N/A", "NaN", "nan", "null", "NULL", "?"];

impl Default for NaTokens {
    fn default() -> Self {
        NaTokens(DEFAULT_NA_TOKENS.iter().map(|s| (*s).to_owned()).collect())
    }
}

impl NaTokens {
    /// Whether `text` (trimmed) is one of the tokens.
    pub fn contains(&self, text: &[u8]) -> bool {
        self.0.iter().any(|t| t.as_bytes() == text)
    }

    /// The tokens a comma-separated word lists (`--na-values 'NA,-,n/a'`); an empty word lists
    /// none (only the empty field is then missing).
    pub fn from_word(word: &str) -> NaTokens {
        NaTokens(
            word.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect(),
        )
    }
}

/// The cell of a trimmed text field. `Err(text)` for a field that is not UTF-8 (its bytes lossily
/// decoded are then the text a caller reports).
pub fn text_cell<'a>(text: &'a [u8], na: &NaTokens) -> Result<Cell<'a>, String> {
    if text.is_empty() || na.contains(text) {
        return Ok(Cell::Missing);
    }
    match whole_number(text) {
        Ok(Number::Finite(x, _)) => Ok(Cell::Number(x)),
        // A spelled-out NaN that is not a listed token is still not a value.
        Ok(Number::NonFinite) if is_nan_word(text) => Ok(Cell::Missing),
        _ => match std::str::from_utf8(text) {
            Ok(s) => Ok(Cell::Text(s)),
            Err(_) => Err(String::from_utf8_lossy(text).into_owned()),
        },
    }
}

fn is_nan_word(text: &[u8]) -> bool {
    let t = text
        .strip_prefix(b"+")
        .or_else(|| text.strip_prefix(b"-"))
        .unwrap_or(text);
    t.eq_ignore_ascii_case(b"nan")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_of_text_fields() {
        let na = NaTokens::default();
        assert_eq!(text_cell(b"", &na), Ok(Cell::Missing));
        assert_eq!(text_cell(b"NA", &na), Ok(Cell::Missing));
        assert_eq!(text_cell(b"?", &na), Ok(Cell::Missing));
        assert_eq!(text_cell(b"NaN", &na), Ok(Cell::Missing));
        assert_eq!(text_cell(b"-nan", &na), Ok(Cell::Missing));
        assert_eq!(text_cell(b"1.5e3", &na), Ok(Cell::Number(1500.0)));
        assert_eq!(text_cell(b"bad", &na), Ok(Cell::Text("bad")));
        // Infinity is text: it is no value a feature can take, and no missing token either.
        assert_eq!(text_cell(b"inf", &na), Ok(Cell::Text("inf")));
        let none = NaTokens::from_word("");
        assert_eq!(text_cell(b"NA", &none), Ok(Cell::Text("NA")));
        assert_eq!(NaTokens::from_word("NA, -").0, ["NA", "-"]);
    }
}
