//! The scaling stage: a fitted [`Scaler`] (min-max to [-1, 1] or max-abs, conventions section 1)
//! applied per feature. The arithmetic lives in `auc-data`, beside the ranges it is fitted from;
//! this file makes it a stage.

use auc_core::{Dataset, DatasetError, Row, RowBuf};
use auc_data::Scaler;

use crate::fitted::FittedStage;

impl FittedStage for Scaler {
    fn name(&self) -> &'static str {
        "scale"
    }

    fn apply_dataset(&self, data: &Dataset) -> Dataset {
        self.transform(data)
    }

    fn apply_owned(&self, data: Dataset) -> Result<Dataset, DatasetError> {
        self.transform_owned(data)
    }

    fn apply_row(&self, x: Row<'_>, out: &mut RowBuf) {
        self.transform_row(x, out);
    }

    /// A valid scaler of at most `dim` features (features past it pass unscaled).
    fn validate(&self, dim: usize) -> Result<(), String> {
        Scaler::validate(self).map_err(|e| e.to_string())?;
        if self.dim() > dim {
            return Err(format!(
                "the scaler has {} features, the data {dim}",
                self.dim()
            ));
        }
        Ok(())
    }

    fn is_identity(&self) -> bool {
        matches!(self, Scaler::None)
    }
}
