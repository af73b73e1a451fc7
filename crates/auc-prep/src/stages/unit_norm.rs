//! The unit-norm stage: every row divided by its Euclidean norm (a zero row stays zero), so that
//! $\lVert x \rVert \le 1$ as the regret bounds of [OAUC Thm 6] assume. It has nothing to fit.
//!
//! Rows and datasets divide by the same overflow-safe norm ([`auc_data::row_norm`]), so a row
//! prepared alone equals the same row prepared in a dataset, bit for bit.

use auc_core::{Dataset, Row, RowBuf};
use serde::{Deserialize, Serialize};

use crate::fitted::FittedStage;

/// Division of each row by its norm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitNorm;

impl FittedStage for UnitNorm {
    fn name(&self) -> &'static str {
        "unit-norm"
    }

    fn apply_dataset(&self, data: &Dataset) -> Dataset {
        auc_data::unit_norm(data)
    }

    fn apply_row(&self, x: Row<'_>, out: &mut RowBuf) {
        out.assign(x);
        let norm = auc_data::row_norm(x);
        let values = match out {
            RowBuf::Dense(v) => v,
            RowBuf::Sparse { values, .. } => values,
        };
        for v in values.iter_mut() {
            *v = if norm > 0.0 { *v / norm } else { 0.0 };
        }
    }

    fn validate(&self, _dim: usize) -> Result<(), String> {
        Ok(())
    }
}
