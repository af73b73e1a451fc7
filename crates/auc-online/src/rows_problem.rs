//! [`RowsProblem`]: the exact whole-data pair problem read from the training rows, with
//! $S v$ computed from them in $O(\mathrm{nnz} + p)$ instead of from a $p \times p$ matrix,
//! for `opauc-batch` with `solver = cg` on wide sparse data.
//!
//! **Product.** For a class with rows $x_i$, mean $m$ and count $N$,
//! $$\Sigma v = \frac1N \sum_i (x_i - m)(x_i - m)^\top v = \frac1N\Big[\sum_i u_i\, x_i -
//! \Big(\sum_i u_i\Big) m\Big], \qquad u_i = x_i^\top v - m^\top v ,$$
//! two sweeps over the class's non-zeros. The $u_i$ are centred before they multiply, so no two
//! large terms cancel (the form $X^\top X v / N - m\, m^\top v$ would lose the digits of
//! $\lvert m\rvert^2$ over the spread); $\sum_i u_i$ is zero up to rounding and is kept
//! for exactness.
//!
//! **Diagonal.** $\Sigma_{jj} = \frac1N\big[\sum_{i: x_{ij} \text{ stored}} (x_{ij} - m_j)^2 +
//! (N - c_j)\, m_j^2\big]$ with $c_j$ the rows storing feature $j$: exact, two-pass.

use auc_core::{Dataset, FitError, Label};

use crate::batch_moments::dot;
use crate::pair_operator::PairOperator;

/// One class's rows (by index into the dataset), mean and diagonal of its covariance.
#[derive(Clone, Debug)]
struct ClassRows {
    rows: Vec<usize>,
    mean: Vec<f64>,
    diag: Vec<f64>,
}

impl ClassRows {
    fn new(data: &Dataset, rows: Vec<usize>) -> Self {
        let p = data.dim();
        let n = rows.len() as f64;
        let mut mean = vec![0.0; p];
        for &i in &rows {
            data.row(i).axpy(1.0, &mut mean);
        }
        mean.iter_mut().for_each(|m| *m /= n);
        let mut diag = vec![0.0; p];
        let mut stored = vec![0u64; p];
        for &i in &rows {
            data.row(i).for_each(|j, v| {
                let d = v - mean[j];
                diag[j] += d * d;
                stored[j] += 1;
            });
        }
        for ((d, &m), &c) in diag.iter_mut().zip(&mean).zip(&stored) {
            *d = (*d + (n - c as f64) * m * m) / n;
        }
        Self { rows, mean, diag }
    }

    /// `out += Σ v` (the module docs' product).
    fn add_cov_apply(&self, data: &Dataset, v: &[f64], out: &mut [f64]) {
        let n = self.rows.len() as f64;
        let mv = dot(&self.mean, v);
        let mut sum_u = 0.0;
        for &i in &self.rows {
            let x = data.row(i);
            let u = x.dot(v) - mv;
            sum_u += u;
            x.axpy(u / n, out);
        }
        let c = sum_u / n;
        for (o, &m) in out.iter_mut().zip(&self.mean) {
            *o -= c * m;
        }
    }
}

/// The exact pair problem of a training set, as a [`PairOperator`] over its rows.
#[derive(Clone, Debug)]
pub struct RowsProblem<'a> {
    data: &'a Dataset,
    pos: ClassRows,
    neg: ClassRows,
    delta: Vec<f64>,
}

impl<'a> RowsProblem<'a> {
    /// The problem of `data`'s rows: $O(\mathrm{nnz} + p)$ time, $O(n + p)$ memory beside them.
    ///
    /// # Errors
    /// [`FitError::Empty`] without rows, [`FitError::SingleClass`] when a class is empty,
    /// [`FitError::NotFinite`] when the means or variances overflow.
    pub fn new(data: &'a Dataset) -> Result<Self, FitError> {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        for (i, &y) in data.labels().iter().enumerate() {
            match y {
                Label::Pos => pos.push(i),
                Label::Neg => neg.push(i),
            }
        }
        if pos.is_empty() && neg.is_empty() {
            return Err(FitError::Empty);
        }
        if pos.is_empty() || neg.is_empty() {
            return Err(FitError::SingleClass);
        }
        let (pos, neg) = (ClassRows::new(data, pos), ClassRows::new(data, neg));
        let delta: Vec<f64> = pos.mean.iter().zip(&neg.mean).map(|(a, b)| a - b).collect();
        if !delta
            .iter()
            .chain(&pos.diag)
            .chain(&neg.diag)
            .all(|v| v.is_finite())
        {
            return Err(FitError::NotFinite {
                what: "class moments",
            });
        }
        Ok(Self {
            data,
            pos,
            neg,
            delta,
        })
    }

    /// Peak bytes of a fit on `n` rows of `p` features beside the rows themselves: the row
    /// indices, the means and diagonals, the feature counts and the solver's six vectors.
    pub fn fit_bytes(n: usize, p: usize) -> u64 {
        8u64.saturating_mul((n as u64).saturating_add((p as u64).saturating_mul(14)))
    }
}

impl PairOperator for RowsProblem<'_> {
    fn dim(&self) -> usize {
        self.delta.len()
    }

    fn delta(&self) -> &[f64] {
        &self.delta
    }

    fn counts(&self) -> (u64, u64) {
        (self.pos.rows.len() as u64, self.neg.rows.len() as u64)
    }

    fn s_apply(&mut self, v: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        self.pos.add_cov_apply(self.data, v, out);
        self.neg.add_cov_apply(self.data, v, out);
    }

    fn s_diag(&self) -> Vec<f64> {
        self.pos
            .diag
            .iter()
            .zip(&self.neg.diag)
            .map(|(a, b)| a + b)
            .collect()
    }
}
