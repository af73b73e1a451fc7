//! What every solver of the generalized AUC dual shares: the training [`Problem`] (a kernel
//! matrix and its positives and negatives, the pair Gram matrix $\tilde H$ of \[CVM eq. 39\]),
//! the [`Solution`] on the simplex with its point weights, and [`SolveError`]. The core vector
//! machine and the exact solvers ([`crate::solver`]) and the primal AUCSVM ([`crate::primal`])
//! all build on these; `solver` re-exports them.

use std::fmt;

use crate::gram::Gram;

/// Why a solver could not run.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SolveError {
    /// The training points hold no positive or no negative example.
    SingleClass {
        /// Positives given.
        positives: usize,
        /// Negatives given.
        negatives: usize,
    },
    /// The system refused memory a solver needs.
    OutOfMemory {
        /// Bytes of the refused allocation.
        bytes: u64,
    },
    /// An exact solver was asked for more pairs than it materializes.
    TooManyPairs {
        /// $n_+ n_-$.
        pairs: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::SingleClass {
                positives,
                negatives,
            } => write!(
                f,
                "need both classes to form pairs, got {positives} positive(s) and {negatives} \
                 negative(s)"
            ),
            SolveError::OutOfMemory { bytes } => write!(
                f,
                "the system refused {:.2} GB the solver needs",
                *bytes as f64 / 1e9
            ),
            SolveError::TooManyPairs { pairs, limit } => write!(
                f,
                "{pairs} positive-negative pairs exceed the exact solver's limit of {limit}"
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// One training problem: a kernel matrix and which of its points are positive and negative.
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    /// Kernel over (at least) every listed point.
    pub gram: &'a Gram,
    /// Indices of the positives into `gram`.
    pub pos: &'a [usize],
    /// Indices of the negatives into `gram`.
    pub neg: &'a [usize],
}

impl Problem<'_> {
    pub(crate) fn check(&self) -> Result<(), SolveError> {
        if self.pos.is_empty() || self.neg.is_empty() {
            return Err(SolveError::SingleClass {
                positives: self.pos.len(),
                negatives: self.neg.len(),
            });
        }
        Ok(())
    }

    /// $\tilde H_{ab}$ for pairs given as (positive slot, negative slot) \[CVM eq. 39\].
    #[inline]
    pub fn h_tilde(&self, a: (u32, u32), b: (u32, u32), c1: f64) -> f64 {
        let (i, j) = (self.pos[a.0 as usize], self.neg[a.1 as usize]);
        let (u, v) = (self.pos[b.0 as usize], self.neg[b.1 as usize]);
        let k = |x: usize, y: usize| self.gram.get(x, y);
        let d = if a == b { 1.0 / c1 } else { 0.0 };
        k(i, u) - k(i, v) - k(j, u) + k(j, v) + d
    }

    /// $\varsigma = \max_m \tilde H_{mm}$ ([`Gram::max_pair_diag`] plus $1/C_1$).
    pub fn varsigma(&self, c1: f64) -> f64 {
        self.gram.max_pair_diag(self.pos, self.neg) + 1.0 / c1
    }

    /// $f = K w$ on every point of the kernel, for point weights `w` (index, weight).
    pub fn scores(&self, w: &[(usize, f64)]) -> Vec<f64> {
        let mut f = vec![0.0; self.gram.n()];
        self.gram.add_scores(w, &mut f);
        f
    }
}

/// A solution of the dual on the simplex, $\beta$ over a set of pairs.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Pairs with a coefficient, as (positive slot, negative slot) into the problem's lists.
    pub pairs: Vec<(u32, u32)>,
    /// $\beta_m \ge 0$, summing to 1.
    pub beta: Vec<f64>,
    /// $q = \beta^\top \tilde H \beta$.
    pub q: f64,
    /// $\varsigma$ of eq. 42 (0 for solvers that do not use it).
    pub varsigma: f64,
    /// Core set size (for the exact solvers: pairs with $\beta_m > 0$).
    pub core_size: usize,
    /// Outer iterations (core set additions) or solver sweeps.
    pub iterations: usize,
    /// Whether the stopping rule was met.
    pub converged: bool,
    /// Wall-clock seconds of the optimization stage.
    pub seconds: f64,
    /// The point weights $w$ itself, for a solver that gives them without listing pairs
    /// ([`aucsvm`](crate::primal::aucsvm): its support pairs can be most of $n_+ n_-$); empty otherwise, when
    /// [`Solution::point_weights`] sums them from `pairs` and `beta`.
    pub weights: Vec<(usize, f64)>,
}

impl Solution {
    /// The dual objective of eq. 40 at $\alpha = C_2\beta$: $\tfrac12 C_2^2 q$.
    pub fn dual_objective(&self, c2: f64) -> f64 {
        0.5 * c2 * c2 * self.q
    }

    /// The ranking margin $\tau = \alpha^\top \tilde H \alpha / C_2 = C_2 q$ (conventions section 7).
    pub fn tau(&self, c2: f64) -> f64 {
        c2 * self.q
    }

    /// Point weights $A_i = \sum_j \alpha_{ij}$ for positives and $-B_j$ for negatives, as
    /// (kernel index, weight), so that $f = K w$.
    pub fn point_weights(&self, pb: &Problem<'_>, c2: f64) -> Vec<(usize, f64)> {
        if self.weights.is_empty() {
            point_weights(&self.pairs, &self.beta, pb, c2)
        } else {
            self.weights.iter().map(|&(i, w)| (i, c2 * w)).collect()
        }
    }
}

pub(crate) fn point_weights(
    pairs: &[(u32, u32)],
    beta: &[f64],
    pb: &Problem<'_>,
    scale: f64,
) -> Vec<(usize, f64)> {
    let mut w: std::collections::BTreeMap<usize, f64> = std::collections::BTreeMap::new();
    for (&(a, b), &bt) in pairs.iter().zip(beta) {
        if bt == 0.0 {
            continue;
        }
        *w.entry(pb.pos[a as usize]).or_default() += scale * bt;
        *w.entry(pb.neg[b as usize]).or_default() -= scale * bt;
    }
    w.into_iter().collect()
}
