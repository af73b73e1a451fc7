//! [`FittedStage`]: what every fitted preparation stage does, whatever its kind.

use auc_core::{Dataset, DatasetError, Row, RowBuf};

/// What every fitted stage does: the same map on whole datasets and on single rows, checked
/// when decoded.
pub trait FittedStage {
    /// The stage's name in messages and descriptions (`scale`, `unit-norm`).
    fn name(&self) -> &'static str;
    /// `data` through the stage. Must equal [`FittedStage::apply_row`] row by row, bit for bit.
    fn apply_dataset(&self, data: &Dataset) -> Dataset;
    /// [`FittedStage::apply_dataset`] of a dataset taken by value, the same dataset: a stage that
    /// can write its values where they are does so instead of copying the rows (the default
    /// copies). A non-finite result is refused with its place.
    fn apply_owned(&self, data: Dataset) -> Result<Dataset, DatasetError> {
        Ok(self.apply_dataset(&data))
    }
    /// One row through the stage into `out`, reusing its storage (allocation-free once `out`
    /// has the capacity of the result).
    fn apply_row(&self, x: Row<'_>, out: &mut RowBuf);
    /// Checks a decoded stage for input of `dim` features.
    fn validate(&self, dim: usize) -> Result<(), String>;
    /// Whether the stage leaves every row as it is (a `Scale` stage of [`auc_data::Scaler::None`]).
    fn is_identity(&self) -> bool {
        false
    }
}
