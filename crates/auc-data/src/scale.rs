//! Per-feature min-max scaling to $[-1, 1]$ and unit-norm rows (SPEC section 1).

use auc_core::{Dataset, Storage};
use serde::{Deserialize, Serialize};

/// Min-max scaling fitted on one dataset (the training part) and applied to others.
///
/// Feature $j$ maps by $x \mapsto -1 + 2 (x - \min_j) / (\max_j - \min_j)$; a constant feature maps
/// to 0. Values of another dataset may fall outside $[-1, 1]$: they are not clipped. For sparse
/// input the implicit zeros count as values, so the fitted range always contains 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MinMaxScaler {
    min: Vec<f64>,
    max: Vec<f64>,
}

impl MinMaxScaler {
    /// Fits the per-feature ranges on `data`. An empty dataset fits the range `[0, 0]` everywhere.
    pub fn fit(data: &Dataset) -> Self {
        let p = data.dim();
        let mut min = vec![f64::INFINITY; p];
        let mut max = vec![f64::NEG_INFINITY; p];
        let mut seen = vec![0usize; p];
        for (x, _) in data.iter() {
            x.for_each(|j, v| {
                min[j] = min[j].min(v);
                max[j] = max[j].max(v);
                seen[j] += 1;
            });
        }
        for j in 0..p {
            // Features missing from some sparse row (or from every row) take the value 0 there.
            if seen[j] < data.n() || seen[j] == 0 {
                min[j] = min[j].min(0.0);
                max[j] = max[j].max(0.0);
            }
        }
        Self { min, max }
    }

    /// Number of features the scaler was fitted on.
    pub fn dim(&self) -> usize {
        self.min.len()
    }

    /// Per-feature `(scale, offset)` so that the scaled value is `scale * x + offset`.
    fn affine(&self, j: usize) -> (f64, f64) {
        let range = self.max[j] - self.min[j];
        if range > 0.0 && range.is_finite() {
            let a = 2.0 / range;
            (a, -1.0 - a * self.min[j])
        } else {
            (0.0, 0.0)
        }
    }

    /// Scales one value of feature `j`; features past the fitted dimension pass unchanged.
    pub fn scale_value(&self, j: usize, x: f64) -> f64 {
        if j >= self.dim() {
            return x;
        }
        let (a, b) = self.affine(j);
        a * x + b
    }

    /// `data` with every feature scaled.
    ///
    /// Sparse input stays sparse when every fitted feature maps 0 to 0 (ranges symmetric around 0,
    /// or constant); otherwise the result is dense, since the zeros move.
    ///
    /// # Panics
    /// If `data` has more features than the scaler was fitted on (a programmer error; give both
    /// files the same dimension when reading).
    pub fn transform(&self, data: &Dataset) -> Dataset {
        assert!(
            data.dim() <= self.dim(),
            "dataset has {} features, scaler was fitted on {}",
            data.dim(),
            self.dim()
        );
        let p = data.dim();
        let affine: Vec<(f64, f64)> = (0..p).map(|j| self.affine(j)).collect();
        let keeps_zero = affine.iter().all(|&(_, b)| b == 0.0);
        let labels = data.labels().to_vec();
        match data.storage() {
            Storage::Sparse {
                indptr,
                indices,
                values,
            } if keeps_zero => {
                let values = indices
                    .iter()
                    .zip(values)
                    .map(|(&j, &v)| affine[j as usize].0 * v)
                    .collect();
                Dataset::sparse(p, indptr.clone(), indices.clone(), values, labels)
            }
            _ => {
                let mut out = Vec::with_capacity(data.n() * p);
                for (x, _) in data.iter() {
                    let start = out.len();
                    out.extend(affine.iter().map(|&(_, b)| b));
                    x.for_each(|j, v| out[start + j] += affine[j].0 * v);
                }
                Dataset::dense(p, out, labels)
            }
        }
        .expect("scaling finite values of a valid dataset gives a valid dataset")
    }
}

/// `data` with every row divided by its Euclidean norm (zero rows stay zero), so $\lVert x \rVert \le 1$.
pub fn unit_norm(data: &Dataset) -> Dataset {
    let labels = data.labels().to_vec();
    let norms: Vec<f64> = data.iter().map(|(x, _)| x.norm_sq().sqrt()).collect();
    let div = |v: f64, i: usize| if norms[i] > 0.0 { v / norms[i] } else { 0.0 };
    match data.storage() {
        Storage::Dense { values } => {
            let p = data.dim();
            let out = values
                .iter()
                .enumerate()
                .map(|(k, &v)| div(v, k / p.max(1)))
                .collect();
            Dataset::dense(p, out, labels)
        }
        Storage::Sparse {
            indptr,
            indices,
            values,
        } => {
            let mut out = values.clone();
            for i in 0..data.n() {
                out[indptr[i]..indptr[i + 1]]
                    .iter_mut()
                    .for_each(|v| *v = div(*v, i));
            }
            Dataset::sparse(data.dim(), indptr.clone(), indices.clone(), out, labels)
        }
    }
    .expect("dividing finite values by a positive norm keeps them finite")
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::Row;

    #[test]
    fn min_max_maps_training_range_to_unit_interval() {
        // Feature 0 in [2, 6]: 2 -> -1, 4 -> 0, 6 -> 1. Feature 1 constant 5 -> 0.
        let train =
            Dataset::dense(2, vec![2.0, 5.0, 6.0, 5.0, 4.0, 5.0], vec![Pos, Neg, Neg]).unwrap();
        let s = MinMaxScaler::fit(&train);
        let t = s.transform(&train);
        assert_eq!(t.row(0), Row::Dense(&[-1.0, 0.0]));
        assert_eq!(t.row(1), Row::Dense(&[1.0, 0.0]));
        assert_eq!(t.row(2), Row::Dense(&[0.0, 0.0]));
        // Test values outside the training range are not clipped: 10 -> 1 + 2 * 4/4 = 3.
        let test = Dataset::dense(2, vec![10.0, 7.0], vec![Pos]).unwrap();
        assert_eq!(s.transform(&test).row(0), Row::Dense(&[3.0, 0.0]));
    }

    #[test]
    fn sparse_zeros_count_and_symmetric_ranges_stay_sparse() {
        // Feature 0 stored as -2 and 2 (range symmetric): stays sparse, scaled by 1/2.
        let sym = Dataset::sparse(
            1,
            vec![0, 1, 2, 2],
            vec![0, 0],
            vec![-2.0, 2.0],
            vec![Pos, Neg, Neg],
        )
        .unwrap();
        let t = MinMaxScaler::fit(&sym).transform(&sym);
        assert!(t.is_sparse());
        assert_eq!(t.row(1).get(0).to_bits(), 1.0f64.to_bits());
        // Feature 0 stored as 1 in one row, implicit 0 in the other: range [0, 1], 0 -> -1, dense.
        let one = Dataset::sparse(1, vec![0, 1, 1], vec![0], vec![1.0], vec![Pos, Neg]).unwrap();
        let t = MinMaxScaler::fit(&one).transform(&one);
        assert!(!t.is_sparse());
        assert_eq!(t.row(1), Row::Dense(&[-1.0]));
        assert_eq!(t.row(0), Row::Dense(&[1.0]));
    }

    #[test]
    fn unit_norm_rows_have_norm_one_or_zero() {
        let d = Dataset::dense(2, vec![3.0, 4.0, 0.0, 0.0], vec![Pos, Neg]).unwrap();
        let u = unit_norm(&d);
        assert_eq!(u.row(0), Row::Dense(&[0.6, 0.8]));
        assert_eq!(u.row(1), Row::Dense(&[0.0, 0.0]));
        let s = unit_norm(
            &Dataset::sparse(3, vec![0, 2], vec![0, 2], vec![3.0, 4.0], vec![Pos]).unwrap(),
        );
        assert!((s.row(0).norm_sq() - 1.0).abs() < 1e-15);
    }
}
