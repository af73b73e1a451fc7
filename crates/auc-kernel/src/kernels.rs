//! Kernel functions on rows whose squared norms are cached.

use auc_core::{ParamError, Row, check};
use serde::{Deserialize, Serialize};

/// A row together with its squared norm $\lVert x \rVert^2$, computed once when the row enters a
/// buffer, so that distance-based kernels need only the dot product $x^\top z$.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cached<'a> {
    /// The row.
    pub row: Row<'a>,
    /// $\lVert x \rVert^2$.
    pub norm_sq: f64,
}

impl<'a> Cached<'a> {
    /// Wraps `row`, computing its squared norm ($O(\mathrm{nnz})$).
    pub fn new(row: Row<'a>) -> Self {
        Self {
            row,
            norm_sq: row.norm_sq(),
        }
    }
}

/// A positive semidefinite kernel $k(x, z)$.
pub trait Kernel: Send + Sync {
    /// $k(x, z)$ from the two rows and the dot product $x^\top z$ (computed once by the caller
    /// for many kernel values, or by [`Kernel::eval`]). Never NaN for finite input.
    fn eval_dot(&self, dot: f64, x_norm_sq: f64, z_norm_sq: f64) -> f64;

    /// $k(x, z)$: one dot product plus $O(1)$.
    fn eval(&self, x: &Cached<'_>, z: &Cached<'_>) -> f64 {
        self.eval_dot(x.row.dot_row(&z.row), x.norm_sq, z.norm_sq)
    }

    /// $k(x, x)$ from $\lVert x \rVert^2$ alone.
    fn self_value(&self, norm_sq: f64) -> f64 {
        self.eval_dot(norm_sq, norm_sq, norm_sq)
    }
}

/// The Gaussian kernel in the OAUC convention [OAUC sec. 6.3],
/// $$k(x, z) = \exp\left(-\frac{\lVert x - z \rVert^2}{\sigma^2}\right),
///   \qquad \lVert x - z \rVert^2 = \lVert x \rVert^2 + \lVert z \rVert^2 - 2 x^\top z,$$
/// with no factor 2 in the denominator (conventions section 6).
///
/// Deviation: the expanded squared distance can come out slightly negative by cancellation when
/// $x \approx z$; it is clamped at 0, so $k \le 1$ always (tested with nearly equal rows).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gaussian {
    sigma: f64,
    inv_sigma_sq: f64,
}

impl Gaussian {
    /// The Gaussian kernel of width $\sigma > 0$.
    pub fn new(sigma: f64) -> Result<Self, ParamError> {
        let sigma = check::positive("sigma", sigma)?;
        let inv_sigma_sq = 1.0 / (sigma * sigma);
        if !inv_sigma_sq.is_finite() || inv_sigma_sq == 0.0 {
            return Err(ParamError::OutOfRange {
                name: "sigma",
                value: sigma,
                allowed: "with 1/sigma^2 finite and > 0",
            });
        }
        Ok(Self {
            sigma,
            inv_sigma_sq,
        })
    }

    /// The width $\sigma$.
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
}

impl Kernel for Gaussian {
    fn eval_dot(&self, dot: f64, x_norm_sq: f64, z_norm_sq: f64) -> f64 {
        let d2 = (x_norm_sq + z_norm_sq - 2.0 * dot).max(0.0);
        (-d2 * self.inv_sigma_sq).exp()
    }
}

/// The linear kernel $k(x, z) = x^\top z$.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LinearKernel;

impl Kernel for LinearKernel {
    fn eval_dot(&self, dot: f64, _x_norm_sq: f64, _z_norm_sq: f64) -> f64 {
        dot
    }
}

/// The polynomial kernel $k(x, z) = (\gamma\, x^\top z + c_0)^d$ with $\gamma > 0$, $c_0 \ge 0$ and
/// an integer degree $d \ge 1$ (positive semidefinite for these ranges).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Polynomial {
    degree: i32,
    gamma: f64,
    coef0: f64,
}

impl Polynomial {
    /// The polynomial kernel of the given degree, scale $\gamma$ and offset $c_0$.
    pub fn new(degree: f64, gamma: f64, coef0: f64) -> Result<Self, ParamError> {
        let degree = check::integer_at_least("degree", degree, 1, "an integer >= 1")?;
        let degree =
            i32::try_from(degree)
                .ok()
                .filter(|&d| d <= 64)
                .ok_or(ParamError::OutOfRange {
                    name: "degree",
                    value: degree as f64,
                    allowed: "an integer in 1..=64",
                })?;
        Ok(Self {
            degree,
            gamma: check::positive("gamma", gamma)?,
            coef0: check::non_negative("coef0", coef0)?,
        })
    }
}

impl Kernel for Polynomial {
    fn eval_dot(&self, dot: f64, _x_norm_sq: f64, _z_norm_sq: f64) -> f64 {
        (self.gamma * dot + self.coef0).powi(self.degree)
    }
}

/// One of the kernels above, chosen at run time (what a learner stores and serializes).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum AnyKernel {
    /// [`Gaussian`].
    Gaussian(Gaussian),
    /// [`LinearKernel`].
    Linear(LinearKernel),
    /// [`Polynomial`].
    Polynomial(Polynomial),
}

impl Kernel for AnyKernel {
    #[inline]
    fn eval_dot(&self, dot: f64, x_norm_sq: f64, z_norm_sq: f64) -> f64 {
        match self {
            AnyKernel::Gaussian(k) => k.eval_dot(dot, x_norm_sq, z_norm_sq),
            AnyKernel::Linear(k) => k.eval_dot(dot, x_norm_sq, z_norm_sq),
            AnyKernel::Polynomial(k) => k.eval_dot(dot, x_norm_sq, z_norm_sq),
        }
    }
}

impl AnyKernel {
    /// Checks a decoded kernel: its parameters in range, derived values consistent.
    pub fn validate(&self) -> Result<(), ParamError> {
        match self {
            AnyKernel::Gaussian(g) => {
                let fresh = Gaussian::new(g.sigma)?;
                if fresh.inv_sigma_sq.to_bits() != g.inv_sigma_sq.to_bits() {
                    return Err(ParamError::OutOfRange {
                        name: "sigma",
                        value: g.sigma,
                        allowed: "consistent with its stored 1/sigma^2",
                    });
                }
                Ok(())
            }
            AnyKernel::Linear(_) => Ok(()),
            AnyKernel::Polynomial(p) => {
                Polynomial::new(f64::from(p.degree), p.gamma, p.coef0).map(|_| ())
            }
        }
    }
}

impl From<Gaussian> for AnyKernel {
    fn from(k: Gaussian) -> Self {
        AnyKernel::Gaussian(k)
    }
}

impl From<LinearKernel> for AnyKernel {
    fn from(k: LinearKernel) -> Self {
        AnyKernel::Linear(k)
    }
}

impl From<Polynomial> for AnyKernel {
    fn from(k: Polynomial) -> Self {
        AnyKernel::Polynomial(k)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Exact values: exp(0) = 1 and small integer powers.
mod tests {
    use super::*;
    use auc_core::SparseVec;

    #[test]
    fn gaussian_has_no_factor_two() {
        // x = (1, 0), z = (0, 1): ||x - z||^2 = 2; sigma = 2 -> exp(-2/4) = exp(-0.5).
        let (x, z) = ([1.0, 0.0], [0.0, 1.0]);
        let k = Gaussian::new(2.0).unwrap();
        let v = k.eval(&Cached::new(Row::Dense(&x)), &Cached::new(Row::Dense(&z)));
        assert!((v - (-0.5f64).exp()).abs() < 1e-16);
        assert_eq!(k.self_value(5.0), 1.0);
    }

    #[test]
    fn nearly_equal_rows_never_exceed_one() {
        // Large offsets: the expanded distance cancels; the clamp keeps k <= 1.
        let x = [1e8, 1e8 + 1e-8];
        let z = [1e8 + 1e-8, 1e8];
        let v = Gaussian::new(1e-3)
            .unwrap()
            .eval(&Cached::new(Row::Dense(&x)), &Cached::new(Row::Dense(&z)));
        assert!((0.0..=1.0).contains(&v), "{v}");
    }

    #[test]
    fn sparse_and_dense_rows_give_the_same_values() {
        let xd = [0.0, 0.5, 0.0, -1.0];
        let zd = [2.0, 0.25, 0.0, 1.0];
        let xs = SparseVec::from_pairs([(1, 0.5), (3, -1.0)]).unwrap();
        let zs = SparseVec::from_pairs([(0, 2.0), (1, 0.25), (3, 1.0)]).unwrap();
        let kernels: [&dyn Kernel; 3] = [
            &Gaussian::new(0.7).unwrap(),
            &LinearKernel,
            &Polynomial::new(3.0, 0.5, 1.0).unwrap(),
        ];
        for k in kernels {
            let dense = k.eval(&Cached::new(Row::Dense(&xd)), &Cached::new(Row::Dense(&zd)));
            let sparse = k.eval(
                &Cached::new(Row::Sparse(xs.view())),
                &Cached::new(Row::Sparse(zs.view())),
            );
            let mixed = k.eval(
                &Cached::new(Row::Sparse(xs.view())),
                &Cached::new(Row::Dense(&zd)),
            );
            assert_eq!(dense, sparse);
            assert_eq!(dense, mixed);
        }
        // Polynomial by hand: x.z = 0.125 - 1 = -0.875; (0.5 * -0.875 + 1)^3 = 0.5625^3.
        let p = Polynomial::new(3.0, 0.5, 1.0).unwrap();
        assert_eq!(p.eval_dot(-0.875, 0.0, 0.0), 0.5625f64.powi(3));
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(Gaussian::new(0.0).is_err());
        assert!(Gaussian::new(f64::NAN).is_err());
        assert!(Gaussian::new(1e-300).is_err());
        assert!(Polynomial::new(2.5, 1.0, 0.0).is_err());
        assert!(Polynomial::new(0.0, 1.0, 0.0).is_err());
        assert!(Polynomial::new(2.0, 0.0, 0.0).is_err());
        assert!(Polynomial::new(2.0, 1.0, -1.0).is_err());
        assert!(Polynomial::new(100.0, 1.0, 0.0).is_err());
    }
}
