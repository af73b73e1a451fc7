//! Seeded synthetic imbalanced data: two Gaussian classes.

use auc_core::{Dataset, Label, ParamError, check};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::DataError;

/// Two Gaussian classes with a chosen imbalance, overlap, label noise and sparsity.
///
/// - $n_+ = \max(1, \mathrm{round}(n / (1 + \mathrm{ir})))$ positives and $n - n_+$ negatives, in a
///   seeded random order;
/// - positives $x \sim N(\mu, I)$ with $\mu = (\mathrm{separation} / \sqrt{p}) \mathbf{1}$, so
///   $\lVert \mu \rVert = $ `separation`; negatives $x \sim N(0, I)$;
/// - with `sparsity` $s > 0$ each feature value is kept with probability $1 - s$ and zeroed
///   otherwise, and the result is stored sparse; $s = 0$ gives dense storage;
/// - label noise flips $\mathrm{round}(\mathrm{noise} \cdot n_+)$ positives and
///   $\mathrm{round}(\mathrm{noise} \cdot n_-)$ negatives, chosen at random. Flipping per class (not
///   over all rows) with noise below 1/2 keeps at least one example of each class with its true
///   label, so both classes are always present.
///
/// Normals come from the Box-Muller transform of a seeded [`StdRng`], so the same parameters give
/// bit-identical data on one machine.
#[derive(Clone, Debug, PartialEq)]
pub struct Synthetic {
    /// Number of examples, at least 2.
    pub n: usize,
    /// Number of features, at least 1.
    pub p: usize,
    /// Imbalance ratio $n_- / n_+$, finite and at least 1.
    pub ir: f64,
    /// Fraction of each class whose label is flipped, in $[0, 1/2)$.
    pub label_noise: f64,
    /// Distance $\lVert \mu \rVert$ between the class means, finite.
    pub separation: f64,
    /// Probability that a feature value is zeroed, in $[0, 1)$; 0 gives dense storage.
    pub sparsity: f64,
    /// Seed of the random generator.
    pub seed: u64,
}

impl Default for Synthetic {
    /// 1000 examples, 10 features, imbalance 9, no noise, separation 2, dense, seed 0.
    fn default() -> Self {
        Self {
            n: 1000,
            p: 10,
            ir: 9.0,
            label_noise: 0.0,
            separation: 2.0,
            sparsity: 0.0,
            seed: 0,
        }
    }
}

/// Standard normal draws by Box-Muller, both values of each pair used.
struct Normal {
    rng: StdRng,
    spare: Option<f64>,
}

impl Normal {
    fn next(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        // u1 in (0, 1], so ln(u1) is finite.
        let u1 = 1.0 - self.rng.random::<f64>();
        let u2 = self.rng.random::<f64>();
        let r = (-2.0 * u1.ln()).sqrt();
        let theta = std::f64::consts::TAU * u2;
        self.spare = Some(r * theta.sin());
        r * theta.cos()
    }
}

/// Chooses `k` distinct items of `items` at random (partial Fisher-Yates) and returns them.
fn choose<T: Copy>(rng: &mut StdRng, items: &mut [T], k: usize) -> Vec<T> {
    for i in 0..k {
        let j = rng.random_range(i..items.len());
        items.swap(i, j);
    }
    items[..k].to_vec()
}

impl Synthetic {
    fn validate(&self) -> Result<(), ParamError> {
        let int = |name, value: usize, min| {
            check::integer_at_least(
                name,
                value as f64,
                min,
                if min == 2 { ">= 2" } else { ">= 1" },
            )
        };
        int("n", self.n, 2)?;
        int("p", self.p, 1)?;
        if !(self.ir.is_finite() && self.ir >= 1.0) {
            return Err(ParamError::OutOfRange {
                name: "ir",
                value: self.ir,
                allowed: "finite and >= 1",
            });
        }
        if !(0.0..0.5).contains(&self.label_noise) {
            return Err(ParamError::OutOfRange {
                name: "label_noise",
                value: self.label_noise,
                allowed: "in [0, 0.5)",
            });
        }
        if !self.separation.is_finite() {
            return Err(ParamError::OutOfRange {
                name: "separation",
                value: self.separation,
                allowed: "finite",
            });
        }
        check::unit_half_open("sparsity", self.sparsity)?;
        Ok(())
    }

    /// Number of positives before label noise: $\max(1, \mathrm{round}(n / (1 + \mathrm{ir})))$.
    pub fn n_pos(&self) -> usize {
        ((self.n as f64 / (1.0 + self.ir)).round() as usize).max(1)
    }

    /// Draws the dataset, or [`DataError::Param`] if a parameter is out of range.
    pub fn generate(&self) -> Result<Dataset, DataError> {
        self.validate()?;
        let (n, p) = (self.n, self.p);
        let mut rng = StdRng::seed_from_u64(self.seed);
        let n_pos = self.n_pos();
        // True labels in a random order.
        let mut truth: Vec<Label> = (0..n)
            .map(|i| if i < n_pos { Label::Pos } else { Label::Neg })
            .collect();
        for i in (1..n).rev() {
            truth.swap(i, rng.random_range(0..=i));
        }
        // Observed labels: flip a fraction of each class.
        let mut labels = truth.clone();
        for class in [Label::Pos, Label::Neg] {
            let mut rows: Vec<usize> = (0..n).filter(|&i| truth[i] == class).collect();
            let k = (self.label_noise * rows.len() as f64).round() as usize;
            for i in choose(&mut rng, &mut rows, k) {
                labels[i] = class.opposite();
            }
        }
        let shift = self.separation / (p as f64).sqrt();
        let mut normal = Normal {
            rng: StdRng::seed_from_u64(rng.random()),
            spare: None,
        };
        let mut mask = StdRng::seed_from_u64(rng.random());
        let mut value = |i: usize| {
            let z = normal.next();
            if truth[i] == Label::Pos { z + shift } else { z }
        };
        let data = if self.sparsity == 0.0 {
            let mut values = Vec::with_capacity(n * p);
            for i in 0..n {
                for _ in 0..p {
                    values.push(value(i));
                }
            }
            Dataset::dense(p, values, labels)?
        } else {
            let keep = 1.0 - self.sparsity;
            let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
            for i in 0..n {
                for j in 0..p {
                    if mask.random::<f64>() < keep {
                        let x = value(i);
                        if x != 0.0 {
                            indices.push(j as u32);
                            values.push(x);
                        }
                    }
                }
                indptr.push(indices.len());
            }
            Dataset::sparse(p, indptr, indices, values, labels)?
        };
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_muller_has_unit_moments() {
        let mut g = Normal {
            rng: StdRng::seed_from_u64(7),
            spare: None,
        };
        let m = 100_000;
        let xs: Vec<f64> = (0..m).map(|_| g.next()).collect();
        let mean = xs.iter().sum::<f64>() / m as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / m as f64;
        // Standard errors: mean 1/sqrt(m) ~ 0.003, variance sqrt(2/m) ~ 0.0045; allow 5 of them.
        assert!(mean.abs() < 0.016, "mean {mean}");
        assert!((var - 1.0).abs() < 0.023, "var {var}");
    }
}
