//! Tables as users hold them (SPEC 11): named columns, a label of any two values, categorical
//! columns and missing cells. A [`Survey`] of the training rows fits a [`Schema`] (the label's
//! map, each column's encoding), stored in the model through [`crate::Reading::Table`]; a
//! [`Binding`] matches each later file's columns to it by name and encodes its rows into the
//! numeric rows every learner takes. CSV text reaches it through [`text_cell`]; typed readers
//! build [`Cell`]s directly, and tables held column by column (data frames) go through
//! [`schema_of_columns`] and [`encode_columns`].

mod cell;
mod columns;
mod encode;
mod label;
mod schema;
mod survey;

pub use cell::{Cell, DEFAULT_NA_TOKENS, NaTokens, text_cell};
pub use columns::{ColumnValues, Encoded, encode_columns, schema_of_columns};
pub use encode::{Binding, CellProblem, bucket};
pub use label::{LabelMap, LabelRule, value_key};
pub use schema::{Column, DEFAULT_MAX_ONE_HOT, DEFAULT_MIN_COUNT, Encoding, Schema, TableOptions};
pub use survey::{NUMBER_KEYS, Survey, TEXT_CAP};
