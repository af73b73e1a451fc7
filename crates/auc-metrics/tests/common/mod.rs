//! Shared by the scikit-learn fixture tests: reading a fixture file of `test_data/` and the
//! fixtures' label strings.

#![allow(dead_code)] // Each test binary uses its own part.

use auc_core::Label;

/// The JSON fixture `test_data/NAME`, decoded.
pub(crate) fn load_fixture<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let path = format!("{}/test_data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {path}: {e}"))
}

/// Labels written as a string of `1` (positive) and `0` (negative).
pub(crate) fn parse_labels(s: &str) -> Vec<Label> {
    s.chars()
        .map(|c| match c {
            '1' => Label::Pos,
            '0' => Label::Neg,
            other => panic!("label character {other:?} is neither '0' nor '1'"),
        })
        .collect()
}
