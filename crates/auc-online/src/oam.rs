//! OAM, online AUC maximization with per-class reservoir buffers [OAM11, alg. 1], in its two
//! classifier updates: sequential ([`OamSeq`], [OAM11, alg. 3]) and gradient ([`OamGra`],
//! [OAM11, alg. 4]). Both are the buffer baselines of [OAUC sec. 6.1] and [ADM, compared algorithms].
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $C$ | `c` | penalty: the weight of the pairwise hinge losses |
//! | $N^+ = N^-$ | `budget` | capacity of each class's buffer |
//! | $B^+_t, B^-_t$ | `buffers[0]`, `buffers[1]` | the reservoir buffers, positives then negatives |
//! | $N^+_t, N^-_t$ | `seen[0]`, `seen[1]` | examples of each class seen before step $t$ |
//! | $C_t$ | `c_t` | $C \max(1, N^{\bar y}_t / N^{\bar y})$, the penalty for the opposite buffer |
//! | $\ell$ | `hinge` | $\max(0, 1 - y_t w^\top (x_t - x_i))$ |
//! | $\tau$ | `tau` | sequential step, $\min(C_t/2, \ell / \lVert x_t - x_i \rVert^2)$ |
//!
//! # One step
//!
//! On $(x_t, y_t)$, with $\bar y = -y_t$ the opposite class [OAM11, alg. 1]:
//! 1. $C_t = C \max(1, N^{\bar y}_t / N^{\bar y})$: each buffered example stands for
//!    $N^{\bar y}_t / N^{\bar y}$ examples of its class once the buffer is full;
//! 2. the classifier is updated against the opposite buffer $B^{\bar y}_t$ (sequential or
//!    gradient, below); nothing happens while that buffer is empty;
//! 3. $N^{y_t}_{t+1} = N^{y_t}_t + 1$ and $x_t$ enters its own class buffer by reservoir sampling
//!    [OAM11, alg. 2]: appended while the buffer holds fewer than $N^{y_t}$ rows, otherwise with
//!    probability $N^{y_t} / N^{y_t}_{t+1}$ it replaces a uniformly chosen slot.
//!
//! Step 2 reads only the opposite buffer and step 3 writes only the own buffer, so the order
//! "update, then insert" used here (as in [OAM11, alg. 1]) and the reverse give the same model.
//! The reservoir draws one number $k$ uniform in $\{0, \dots, N^{y_t}_{t+1} - 1\}$ and replaces
//! slot $k$ when $k < N^{y_t}$: the event has probability $N^{y_t} / N^{y_t}_{t+1}$ and, given it,
//! $k$ is uniform over the slots, which is [OAM11, alg. 2]'s Bernoulli draw followed by a uniform
//! slot, with one random number instead of two (Vitter's algorithm R).
//!
//! # Cost
//!
//! Buffered rows are kept as they arrive, dense or sparse. A comparison of $x_t$ with a buffered
//! $x_i$ walks both rows once in index order, forming the differences $x_{tj} - x_{ij}$ on the
//! union of their supports: $O(\mathrm{nnz}(x_t) + \mathrm{nnz}(x_i))$ for two sparse rows, $O(p)$
//! when either is dense. A step costs $O(|B| (\mathrm{nnz}(x_t) + \overline{\mathrm{nnz}}))$.
//!
//! The squared distance is summed from the differences themselves, not expanded as
//! $\lVert x_t \rVert^2 + \lVert x_i \rVert^2 - 2 x_t^\top x_i$ with cached norms: the expansion
//! costs the same order here and loses every digit when $x_i \approx x_t$ have large entries (rows
//! with values near $10^6$ differing by 1 have a true distance of 1 and an expanded one that is
//! rounding noise of size $10^{-4}$ or more). With the direct sum, identical rows have distance
//! exactly 0 and are skipped.
//!
//! Algorithm numbers follow our reading of the ICML 2011 version of [OAM11, alg. 1-4]:
//! 1 the framework, 2 the reservoir update, 3 sequential and 4 gradient classifier updates.

use auc_core::{
    Divergence, Family, Label, OnlineLearner, OnlineParams, ParamError, ParamSpec, Params, Range,
    Row, RowBuf, SavedState, Scorer, SparseRow, StateError, check,
};
use rand::Rng;
use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::{Linear, linear_divergence};

/// The parameters shared by both variants.
const SPECS: &[ParamSpec] = &[
    ParamSpec::real(
        "c",
        Range::Positive,
        "penalty C > 0 on the pairwise hinge losses [OAM11]; tuned in 2^[-10..10] [ADM, experimental setup]",
    ),
    ParamSpec::integer(
        "budget",
        1,
        "reservoir buffer size per class; 100 as in [OAUC sec. 6.3] and [ADM, experimental setup]",
    ),
];

/// The grids of both variants: every second power of 2 of the papers' range of $C$.
const GRID: &[&str] = &["c=2^-10..2^10:2"];
/// [ADM, experimental setup]: $C \in 2^{[-10..10]}$.
const PAPER_GRID: &[&str] = &["c=2^-10..2^10"];

/// The largest budget accepted: the buffers hold `2 budget` rows.
const MAX_BUDGET: usize = 1_000_000;

/// Checks `(c, budget)`.
fn check_params(c: f64, budget: usize) -> Result<(), ParamError> {
    SPECS[0].check_real(c)?;
    if !(1..=MAX_BUDGET).contains(&budget) {
        return Err(ParamError::OutOfRange {
            name: "budget",
            value: budget as f64,
            allowed: "an integer in 1..=1000000",
        });
    }
    Ok(())
}

/// Parameters of [`OamSeq`], OAM with sequential updating [OAM11, alg. 3].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OamSeqParams {
    /// Penalty $C > 0$ on the pairwise hinge losses [OAM11, alg. 1]; the papers tune it in
    /// $2^{[-10, 10]}$ [ADM, experimental setup].
    pub c: f64,
    /// Buffer size per class; 100 in [OAUC sec. 6.3] and [ADM, experimental setup], both
    /// following \[OAM11\]'s recommendation.
    pub budget: usize,
}

impl Default for OamSeqParams {
    /// $C = 2^{-12}$, the best mean rank (3.3 of 13 points) across the 19 data sets of
    /// `docs/results/linear.md` (`docs/results/defaults.md`: mean AUC 84.98 %, leave-one-set-out
    /// regret 0.25 points median, 7.51 worst on vehicle; the previous $2^{-10}$: rank 4.5,
    /// 85.00 %), and the papers' budget of 100.
    fn default() -> Self {
        Self {
            c: 0.000244140625,
            budget: 100,
        }
    }
}

/// Parameters of [`OamGra`], OAM with gradient updating [OAM11, alg. 4].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OamGraParams {
    /// Penalty $C > 0$, as in [`OamSeqParams::c`].
    pub c: f64,
    /// Buffer size per class, as in [`OamSeqParams::budget`].
    pub budget: usize,
}

impl Default for OamGraParams {
    /// $C = 2^{-12}$, the best mean rank (3.5 of 13 points) across the 19 data sets of
    /// `docs/results/linear.md` (`docs/results/defaults.md`: mean AUC 84.98 %, leave-one-set-out
    /// regret 0.20 points median, 6.52 worst on vehicle; the previous $2^{-10}$: rank 3.5,
    /// 84.95 %), and the papers' budget of 100.
    fn default() -> Self {
        Self {
            c: 0.000244140625,
            budget: 100,
        }
    }
}

impl Params for OamSeqParams {
    const NAME: &'static str = "oam-seq";
    const TITLE: &'static str = "OAM-seq";
    const ABOUT: &'static str = "OAM-seq [OAM11]: per-class reservoir buffers, a PA-style step per buffered opposite example";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = SPECS;
    const GRID: &'static [&'static str] = GRID;
    const PAPER_GRID: &'static [&'static str] = PAPER_GRID;

    fn check(&self) -> Result<(), ParamError> {
        check_params(self.c, self.budget)
    }
}

impl Params for OamGraParams {
    const NAME: &'static str = "oam-gra";
    const TITLE: &'static str = "OAM-gra";
    const ABOUT: &'static str =
        "OAM-gra [OAM11]: per-class reservoir buffers, one gradient step over all violated pairs";
    const FAMILY: Family = Family::Linear;
    const SPECS: &'static [ParamSpec] = SPECS;
    const GRID: &'static [&'static str] = GRID;
    const PAPER_GRID: &'static [&'static str] = PAPER_GRID;

    fn check(&self) -> Result<(), ParamError> {
        check_params(self.c, self.budget)
    }
}

/// Bytes of the state for `dim` features: $w$ and two full buffers of dense rows (an upper
/// bound: sparse rows are stored sparse).
fn state_bytes(budget: usize, dim: usize) -> u64 {
    8 * dim as u64 * (1 + 2 * budget as u64)
}

impl OnlineParams for OamSeqParams {
    type Learner = OamSeq;

    fn build(&self, dim: usize, seed: u64) -> Result<OamSeq, ParamError> {
        self.check()?;
        Ok(OamSeq {
            core: Core::new(self.c, self.budget, dim, seed),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        state_bytes(self.budget, dim)
    }
}

impl OnlineParams for OamGraParams {
    type Learner = OamGra;

    fn build(&self, dim: usize, seed: u64) -> Result<OamGra, ParamError> {
        self.check()?;
        Ok(OamGra {
            core: Core::new(self.c, self.budget, dim, seed),
            violated: Vec::new(),
        })
    }

    fn state_bytes(&self, dim: usize) -> u64 {
        state_bytes(self.budget, dim)
    }
}

/// Calls `f(j, a_j - b_j)` for every `j` stored in `a` or `b`, in increasing `j` (a dense row
/// stores every `j`).
///
/// Entries stored in neither row are skipped; entries stored in both dense rows are all visited,
/// zeros included, and contribute exact zeros to any sum, so dense and sparse forms of the same
/// rows give bit-identical sums of `w_j d_j` and `d_j^2`.
fn for_each_diff(a: Row<'_>, b: Row<'_>, mut f: impl FnMut(usize, f64)) {
    match (a, b) {
        (Row::Dense(a), Row::Dense(b)) => {
            assert_eq!(
                a.len(),
                b.len(),
                "rows have {} and {} features",
                a.len(),
                b.len()
            );
            for (j, (&u, &v)) in a.iter().zip(b).enumerate() {
                f(j, u - v);
            }
        }
        (Row::Dense(a), Row::Sparse(b)) => dense_minus_sparse(a, b, 1.0, &mut f),
        (Row::Sparse(a), Row::Dense(b)) => dense_minus_sparse(b, a, -1.0, &mut f),
        (Row::Sparse(a), Row::Sparse(b)) => {
            let (ai, av, bi, bv) = (a.indices(), a.values(), b.indices(), b.values());
            let (mut k, mut l) = (0, 0);
            while k < ai.len() || l < bi.len() {
                let ja = ai.get(k).copied().unwrap_or(u32::MAX);
                let jb = bi.get(l).copied().unwrap_or(u32::MAX);
                if ja < jb {
                    f(ja as usize, av[k]);
                    k += 1;
                } else if jb < ja {
                    f(jb as usize, -bv[l]);
                    l += 1;
                } else {
                    f(ja as usize, av[k] - bv[l]);
                    k += 1;
                    l += 1;
                }
            }
        }
    }
}

/// `sign * (d - s)` over every index of the dense row `d`.
fn dense_minus_sparse(d: &[f64], s: SparseRow<'_>, sign: f64, f: &mut impl FnMut(usize, f64)) {
    let (si, sv) = (s.indices(), s.values());
    let mut k = 0;
    for (j, &dj) in d.iter().enumerate() {
        let sj = if si.get(k).is_some_and(|&i| i as usize == j) {
            k += 1;
            sv[k - 1]
        } else {
            0.0
        };
        f(j, sign * (dj - sj));
    }
    assert!(
        k == si.len(),
        "sparse index past the dense row's {} features",
        d.len()
    );
}

/// `v` clamped to the finite range (see [`crate::saturating_axpy`]).
#[inline(always)]
fn saturate(v: f64) -> f64 {
    v.clamp(-f64::MAX, f64::MAX)
}

/// $(w^\top (a - b), \lVert a - b \rVert^2)$ in one walk over both rows.
fn diff_dot_and_norm_sq(w: &[f64], a: Row<'_>, b: Row<'_>) -> (f64, f64) {
    let (mut wd, mut dd) = (0.0, 0.0);
    for_each_diff(a, b, |j, d| {
        wd += w[j] * d;
        dd += d * d;
    });
    (wd, dd)
}

/// The state both variants share: weights, buffers, counters and the reservoir's generator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Core {
    c: f64,
    budget: u64,
    w: Vec<f64>,
    /// Positives then negatives, indexed by [`Label::index`].
    buffers: [Vec<RowBuf>; 2],
    /// Examples of each class seen so far (inserted or not).
    seen: [u64; 2],
    rng: SplitMix64,
}

impl Core {
    fn new(c: f64, budget: usize, dim: usize, seed: u64) -> Self {
        Self {
            c,
            budget: budget as u64,
            w: vec![0.0; dim],
            buffers: [Vec::new(), Vec::new()],
            seen: [0, 0],
            rng: SplitMix64::seed_from_u64(seed),
        }
    }

    /// Checks a decoded state: parameters, buffer sizes and row dimensions, finite values.
    fn validate(&self) -> Result<(), StateError> {
        let budget = usize::try_from(self.budget).unwrap_or(usize::MAX);
        check_params(self.c, budget)?;
        check::finite("w", &self.w)?;
        let p = self.w.len();
        for (k, buf) in self.buffers.iter().enumerate() {
            check::state(buf.len() as u64 <= self.budget, || {
                format!(
                    "buffer {k} holds {} rows, the budget is {}",
                    buf.len(),
                    self.budget
                )
            })?;
            check::state(buf.len() as u64 <= self.seen[k], || {
                format!(
                    "buffer {k} holds {} rows but {} were seen",
                    buf.len(),
                    self.seen[k]
                )
            })?;
            for row in buf {
                crate::check_row(row, p)?;
            }
        }
        Ok(())
    }

    /// Pads $w$ and the buffered dense rows with zeros (see [`OnlineLearner::grow`]): a zero
    /// feature never moves its weight, and padded rows have the same differences and norms.
    fn grow(&mut self, dim: usize) {
        if dim > self.w.len() {
            crate::grow_zeros(&mut self.w, dim);
            for row in self.buffers.iter_mut().flatten() {
                row.pad(dim);
            }
        }
    }

    /// $C_t = C \max(1, N^{\bar y}_t / N^{\bar y})$ for an example of class `y` [OAM11, alg. 1].
    fn c_t(&self, y: Label) -> f64 {
        let n_opp = self.seen[y.opposite().index()] as f64;
        self.c * (n_opp / self.budget as f64).max(1.0)
    }

    /// Reservoir sampling into the own class buffer [OAM11, alg. 2], after the classifier step.
    fn insert(&mut self, x: Row<'_>, y: Label) {
        let k = y.index();
        self.seen[k] += 1;
        let buf = &mut self.buffers[k];
        if (buf.len() as u64) < self.budget {
            buf.push(RowBuf::from_row(x));
        } else {
            let slot = self.rng.random_range(0..self.seen[k]);
            if slot < self.budget {
                buf[slot as usize].assign(x);
            }
        }
    }
}

/// Accessors both variants expose.
macro_rules! common_impls {
    ($ty:ident) => {
        impl $ty {
            /// The rows now in the buffer of class `y` (at most `budget` of them), in slot order.
            pub fn buffered(&self, y: Label) -> impl ExactSizeIterator<Item = Row<'_>> + '_ {
                self.core.buffers[y.index()].iter().map(RowBuf::as_row)
            }

            /// How many examples of class `y` the learner has seen: $N^y_t$.
            pub fn seen(&self, y: Label) -> u64 {
                self.core.seen[y.index()]
            }
        }

        impl Linear for $ty {
            fn weights(&self) -> &[f64] {
                &self.core.w
            }
        }

        impl Scorer for $ty {
            fn score(&self, x: Row<'_>) -> f64 {
                x.dot(&self.core.w)
            }

            fn divergence(&self) -> Option<Divergence> {
                linear_divergence(&self.core.w, None, 0)
            }
        }

        impl SavedState for $ty {
            const STATE_VERSION: u32 = 1;

            fn validate(&self) -> Result<(), StateError> {
                self.core.validate()
            }
        }
    };
}

/// OAM with sequential updating [OAM11, alg. 3]: one passive-aggressive (PA-I) step per buffered
/// example of the opposite class, each on the weights left by the previous one.
///
/// For $x_i \in B^{\bar y}_t$ in slot order, with $w$ the current (already partly updated) weights,
/// $$\ell = \max\bigl(0, 1 - y_t w^\top (x_t - x_i)\bigr), \qquad
/// \tau = \min\Bigl(\frac{C_t}{2}, \frac{\ell}{\lVert x_t - x_i \rVert^2}\Bigr), \qquad
/// w \leftarrow w + \tau y_t (x_t - x_i),$$
/// skipping pairs with $\ell = 0$ or $x_i = x_t$ (zero distance), where
/// $C_t = C \max(1, N^{\bar y}_t / N^{\bar y})$ with $N^{\bar y}_t$ the opposite-class examples seen
/// and $N^{\bar y}$ the budget [OAM11, alg. 1]. Then $x_t$ enters its own class buffer by
/// reservoir sampling [OAM11, alg. 2]: appended while the buffer is not full, else it replaces a
/// uniform slot with probability $N^{y_t} / N^{y_t}_{t+1}$. (The update reads only the opposite
/// buffer and the insertion writes only the own one, so their order does not matter.) Distances
/// are summed from the coordinate differences, never expanded through cached norms, so they
/// do not cancel when $x_i \approx x_t$; a comparison costs $O(\mathrm{nnz}(x_t) + \mathrm{nnz}(x_i))$
/// for sparse rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OamSeq {
    core: Core,
}

common_impls!(OamSeq);

impl OnlineLearner for OamSeq {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let core = &mut self.core;
        let c_t = core.c_t(y);
        let yv = y.sign();
        for xi in &core.buffers[y.opposite().index()] {
            let xi = xi.as_row();
            let (wd, dd) = diff_dot_and_norm_sq(&core.w, x, xi);
            let hinge = 1.0 - yv * wd;
            if hinge > 0.0 && dd > 0.0 {
                let tau = (0.5 * c_t).min(hinge / dd); // [OAM11, alg. 3]
                let step = tau * yv;
                let w = &mut core.w;
                for_each_diff(x, xi, |j, d| w[j] = saturate(w[j] + step * d));
            }
        }
        core.insert(x, y);
    }

    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.core.grow(dim);
        Ok(())
    }
}

/// OAM with gradient updating [OAM11, alg. 4]: one subgradient step of size $C_t/2$ on the sum
/// of the pairwise hinge losses against the opposite buffer, every margin taken at the weights
/// $w_t$ from before the step:
/// $$w_{t+1} = w_t + \frac{C_t}{2} \sum_{x_i \in B^{\bar y}_t:\ y_t w_t^\top (x_t - x_i) < 1}
/// y_t (x_t - x_i).$$
/// The sum is not divided by $|B^{\bar y}_t|$; the step is $C_t/2$ per violated pair, the same cap
/// the sequential variant puts on each of its steps, so both reduce to the same first step when
/// the opposite buffer holds one row and $\tau$ is capped. Then $x_t$ enters its own buffer.
///
/// Note: the normalization is written from our reading of [OAM11, alg. 4] (gradient of
/// $\frac{C_t}{2}\sum_i \ell_i$ with unit step). At a margin of exactly 1 the hinge is not
/// differentiable; we take the zero subgradient there (only margins $< 1$ count), a choice
/// \[OAM11\] does not fix and which changes nothing off a set of measure zero.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OamGra {
    core: Core,
    /// Scratch: the violated pairs of a step (never serialized).
    #[serde(skip)]
    violated: Vec<usize>,
}

impl PartialEq for OamGra {
    fn eq(&self, other: &Self) -> bool {
        self.core == other.core
    }
}

common_impls!(OamGra);

impl OnlineLearner for OamGra {
    fn update(&mut self, x: Row<'_>, y: Label) {
        let core = &mut self.core;
        let c_t = core.c_t(y);
        let yv = y.sign();
        let opposite = &core.buffers[y.opposite().index()];
        // All margins at w_t first [OAM11, alg. 4], then one step.
        self.violated.clear();
        self.violated.extend(
            opposite
                .iter()
                .enumerate()
                .filter(|(_, xi)| {
                    let (wd, _) = diff_dot_and_norm_sq(&core.w, x, xi.as_row());
                    1.0 - yv * wd > 0.0
                })
                .map(|(i, _)| i),
        );
        let step = 0.5 * c_t * yv;
        for &i in &self.violated {
            let w = &mut core.w;
            for_each_diff(x, opposite[i].as_row(), |j, d| {
                w[j] = saturate(w[j] + step * d)
            });
        }
        core.insert(x, y);
    }

    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.core.grow(dim);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Expected values are dyadic and exact by construction (see comments).
mod tests {
    use super::*;
    use auc_core::Label::{Neg, Pos};
    use auc_core::SparseVec;

    fn seq(c: f64, budget: usize) -> OamSeq {
        OamSeqParams { c, budget }.build(2, 0).unwrap()
    }

    fn gra(c: f64, budget: usize) -> OamGra {
        OamGraParams { c, budget }.build(2, 0).unwrap()
    }

    #[test]
    fn differences_walk_the_union_of_supports() {
        // a = (0, 2, 0, -1), b = (1, 2, 0, 0): a - b = (-1, 0, 0, -1).
        let ad = [0.0, 2.0, 0.0, -1.0];
        let bd = [1.0, 2.0, 0.0, 0.0];
        let a = SparseVec::from_pairs([(1, 2.0), (3, -1.0)]).unwrap();
        let b = SparseVec::from_pairs([(0, 1.0), (1, 2.0)]).unwrap();
        let forms = [
            (Row::Dense(&ad), Row::Dense(&bd)),
            (Row::Dense(&ad), Row::Sparse(b.view())),
            (Row::Sparse(a.view()), Row::Dense(&bd)),
            (Row::Sparse(a.view()), Row::Sparse(b.view())),
        ];
        for (ra, rb) in forms {
            let mut d = [0.0; 4];
            for_each_diff(ra, rb, |j, v| d[j] += v);
            assert_eq!(d, [-1.0, 0.0, 0.0, -1.0]);
            // w = (1, 1, 1, 3): w.(a - b) = -1 - 3 = -4, ||a - b||^2 = 2.
            assert_eq!(
                diff_dot_and_norm_sq(&[1.0, 1.0, 1.0, 3.0], ra, rb),
                (-4.0, 2.0)
            );
        }
    }

    #[test]
    fn c_t_grows_once_the_opposite_class_overflows_its_buffer() {
        // budget 2, C = 1: after 3 negatives, a positive sees C_t = 1 * max(1, 3/2) = 1.5.
        let mut l = seq(1.0, 2);
        for _ in 0..3 {
            l.update(Row::Dense(&[0.0, 1.0]), Neg);
        }
        assert_eq!(l.core.c_t(Pos), 1.5);
        assert_eq!(l.core.c_t(Neg), 1.0);
        assert_eq!(l.buffered(Neg).len(), 2);
        assert_eq!(l.seen(Neg), 3);
    }

    #[test]
    fn first_steps_by_hand() {
        // (1, 0)+ : opposite buffer empty, no step; B+ = {(1, 0)}.
        // (0, 1)- : d = x_t - x_i = (-1, 1), y = -1, w = 0: hinge 1, ||d||^2 = 2,
        //   tau = min(C/2, 1/2). With C = 2: tau = 1/2, w = 1/2 * (-1) * (-1, 1) = (0.5, -0.5).
        let mut s = seq(2.0, 10);
        let mut g = gra(2.0, 10);
        for (x, y) in [([1.0, 0.0], Pos), ([0.0, 1.0], Neg)] {
            s.update(Row::Dense(&x), y);
            g.update(Row::Dense(&x), y);
        }
        assert_eq!(s.weights(), &[0.5, -0.5]);
        // Gradient: step C/2 = 1 on the violated pair: w = 1 * (-1) * (-1, 1) = (1, -1).
        assert_eq!(g.weights(), &[1.0, -1.0]);
        // With C = 0.5 the sequential tau is capped at C/2 = 0.25 = the gradient step.
        let mut s = seq(0.5, 10);
        let mut g = gra(0.5, 10);
        for (x, y) in [([1.0, 0.0], Pos), ([0.0, 1.0], Neg)] {
            s.update(Row::Dense(&x), y);
            g.update(Row::Dense(&x), y);
        }
        assert_eq!(s.weights(), &[0.25, -0.25]);
        assert_eq!(s.weights(), g.weights());
    }

    #[test]
    fn identical_rows_are_skipped_without_nan() {
        let mut s = seq(1.0, 4);
        let mut g = gra(1.0, 4);
        for y in [Pos, Neg, Pos, Neg] {
            s.update(Row::Dense(&[3.0, -1.0]), y);
            g.update(Row::Dense(&[3.0, -1.0]), y);
        }
        // Every pair has x_t - x_i = 0: the sequential variant skips it, the gradient adds 0.
        assert_eq!(s.weights(), &[0.0, 0.0]);
        assert_eq!(g.weights(), &[0.0, 0.0]);
    }
}
