//! Reading and preparing data for the `auc` workspace: LIBSVM and CSV parsing, binarizing labels,
//! min-max scaling fitted on one part and applied to another, unit-norm rows, and seeded synthetic
//! imbalanced data (SPEC section 1).
//!
//! This is the only layer that checks raw input: every value it hands on is finite and every sparse
//! row is sorted, so learners need not check again. It never trains or scores anything.

mod scale;

pub use scale::{MinMaxScaler, unit_norm};
