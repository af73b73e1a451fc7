//! Fitting a [`FeatureMapSpec`] on a sample of (scaled) training rows: the kernel width rule,
//! the random draws of the Fourier and ELM maps, and Nystroem's landmarks and projection.
//!
//! The random maps draw from one seeded generator (xoshiro256++) in storage order: $W$ by input
//! feature, then $b$; the Gaussians are Box-Muller pairs. The same seed, input dimension and
//! width give the same map on every machine.

use auc_core::Dataset;

use crate::draws::{Normals, for_each_entry};
use crate::error::PrepError;
use crate::features::{FeatureMapSpec, MAX_POLY2_DIM, MapKind, SigmaRule};
use crate::fitted::FittedStage;
use crate::stages::FeatureMap;

/// Rows of the sample the median rule looks at (its pairs: about half a million).
const MEDIAN_ROWS: usize = 1000;

impl FeatureMapSpec {
    /// The map fitted on `sample` (training rows after the stages before the map, in the
    /// sample's order) for input of `input_dim` features.
    pub fn fit(&self, sample: &Dataset, input_dim: usize) -> Result<FeatureMap, PrepError> {
        if input_dim == 0 {
            return Err(PrepError::FeatureMap(
                "a feature map needs at least one input feature".to_owned(),
            ));
        }
        let map = match self.shape.kind {
            MapKind::Rff | MapKind::Elm => {
                random_map(self, kernel_width(self.sigma, sample, input_dim), input_dim)
            }
            MapKind::Nystroem => {
                let sigma = kernel_width(self.sigma, sample, input_dim);
                crate::nystroem::fit(self, sigma, sample, input_dim)?
            }
            MapKind::Poly2 => poly2_map(self, input_dim)?,
        };
        // The checks a model file's map passes: a width so small that the weights overflow
        // is refused here rather than stored.
        map.validate(input_dim)
            .map_err(|e| PrepError::FeatureMap(format!("{}: {e}", self.shape)))?;
        Ok(map)
    }
}

/// $\sigma$ by `rule` on `sample`; 1 when the sample cannot say (no rows, or all equal).
pub fn kernel_width(rule: SigmaRule, sample: &Dataset, input_dim: usize) -> f64 {
    let s = match rule {
        SigmaRule::Given(s) => return s,
        SigmaRule::Scale => scale_width(sample, input_dim),
        SigmaRule::Median => median_width(sample),
    };
    if s.is_finite() && s > 0.0 { s } else { 1.0 }
}

/// $\sqrt{p \operatorname{Var}(X)}$, the variance over all $n p$ entries (zeros included).
fn scale_width(sample: &Dataset, input_dim: usize) -> f64 {
    let n = sample.n();
    if n == 0 {
        return 1.0;
    }
    let (mut sum, mut sq) = (0.0, 0.0);
    for (x, _) in sample.iter() {
        for_each_entry(x, input_dim, |_, v| {
            sum += v;
            sq += v * v;
        });
    }
    let cells = n as f64 * input_dim as f64;
    let mean = sum / cells;
    let var = (sq / cells - mean * mean).max(0.0);
    (input_dim as f64 * var).sqrt()
}

/// The median of the distances between the pairs of the sample's first [`MEDIAN_ROWS`] rows.
fn median_width(sample: &Dataset) -> f64 {
    let m = sample.n().min(MEDIAN_ROWS);
    let dim = sample.dim();
    let rows: Vec<Vec<f64>> = (0..m)
        .map(|i| {
            let mut v = vec![0.0; dim];
            for_each_entry(sample.row(i), dim, |k, a| v[k] = a);
            v
        })
        .collect();
    let mut d = Vec::with_capacity(m * m.saturating_sub(1) / 2);
    for i in 0..m {
        for j in 0..i {
            let s: f64 = rows[i]
                .iter()
                .zip(&rows[j])
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            d.push(s.sqrt());
        }
    }
    if d.is_empty() {
        return 1.0;
    }
    let mid = d.len() / 2;
    let (_, median, _) = d.select_nth_unstable_by(mid, f64::total_cmp);
    *median
}

/// The degree-2 polynomial map on `input_dim` features: nothing to draw or fit; its width
/// $\sigma$ is recorded as 1 (it has none).
fn poly2_map(spec: &FeatureMapSpec, input_dim: usize) -> Result<FeatureMap, PrepError> {
    let output_dim = crate::stages::poly2_dim(input_dim)
        .filter(|&d| d <= MAX_POLY2_DIM)
        .ok_or_else(|| {
            PrepError::FeatureMap(format!(
                "poly2 on {input_dim} features gives more than {MAX_POLY2_DIM} products: use a kernel map (nystroem, rff) or fewer features"
            ))
        })?;
    Ok(FeatureMap {
        kind: MapKind::Poly2,
        input_dim,
        sigma: 1.0,
        seed: spec.seed,
        weights: Vec::new(),
        offsets: Vec::new(),
        projection: Vec::new(),
        output_dim,
    })
}

/// Random Fourier features or an ELM layer of `spec.shape.size` units: $W_{kj} \sim N(0, 2 /
/// \sigma^2)$; $b_j \sim U[0, 2\pi)$ for Fourier features (so that $E[z(x) \cdot z(y)] = k(x,
/// y)$), $b_j \sim U[-1, 1)$ for the ELM's sigmoid units.
fn random_map(spec: &FeatureMapSpec, sigma: f64, input_dim: usize) -> FeatureMap {
    let d = spec.shape.size;
    let mut g = Normals::new(spec.seed);
    let sd = std::f64::consts::SQRT_2 / sigma;
    let weights: Vec<f64> = (0..input_dim * d).map(|_| sd * g.normal()).collect();
    let offsets: Vec<f64> = match spec.shape.kind {
        MapKind::Rff => (0..d)
            .map(|_| std::f64::consts::TAU * g.uniform())
            .collect(),
        _ => (0..d).map(|_| 2.0 * g.uniform() - 1.0).collect(),
    };
    FeatureMap {
        kind: spec.shape.kind,
        input_dim,
        sigma,
        seed: spec.seed,
        weights,
        offsets,
        projection: Vec::new(),
        output_dim: d,
    }
}
