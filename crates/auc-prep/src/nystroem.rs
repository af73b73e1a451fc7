//! Nystroem's map: landmarks by k-means++ and Lloyd rounds on the sample, and the projection
//! $K_{LL}^{-1/2}$ from the symmetric eigendecomposition (conventions section 9).

use auc_core::Dataset;

use crate::error::PrepError;
use crate::features::FeatureMapSpec;
use crate::stages::FeatureMap;

/// The Nystroem map of `spec` with width `sigma` on `sample`.
pub(crate) fn fit(
    spec: &FeatureMapSpec,
    sigma: f64,
    sample: &Dataset,
    input_dim: usize,
) -> Result<FeatureMap, PrepError> {
    let _ = (spec, sigma, sample, input_dim);
    Err(PrepError::FeatureMap(
        "Nystroem is being written".to_owned(),
    ))
}
