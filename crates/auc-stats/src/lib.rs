//! Per-class moments for the second-order surrogate losses [OAUC sec. 4.2, eqs. 15-18].
//!
//! This crate owns, for each class, the count $N$, the mean $\bar{x}$ and the **population**
//! covariance $\Sigma$ (divided by $N$), updated one example at a time in the numerically stable
//! Welford form, merged exactly across disjoint streams, and the $w^\top \Sigma w$ and
//! $\Sigma w$ kernels that every moment-based learner (OPAUC / OAUC-S, OAUC-M, AdaOAM, AdmOAM)
//! calls on its hot path (conventions section 3). [`ClassMoments`] is one class, [`Moments`] the pair.
//!
//! For wide sparse data, where the $p(p+1)/2$ triangle does not fit, [`SketchedMoments`] keeps
//! the count, mean and co-moment diagonal exactly and the rest as a mergeable Frequent
//! Directions sketch ([`FrequentDirections`], $O(\ell p)$ memory for rank $\ell$), with the
//! spectral error bound derived in `docs/math/sketched-moments.md`.
//!
//! It must never depend on the parser (auc-data) or on any learner: rows arrive as
//! [`auc_core::Row`] views. It must never allocate in [`ClassMoments::update`],
//! [`ClassMoments::cov_mul`], [`ClassMoments::quad_form`], [`ClassMoments::merge`] or
//! [`Moments::update_and_mul_opposite`]: their scratch space lives in the struct.
//!
//! # Notation
//!
//! | paper symbol | Rust name | meaning |
//! |---|---|---|
//! | $p$ | [`ClassMoments::dim`] | number of features |
//! | $N_t^+$, $N_t^-$ | [`ClassMoments::count`] on [`Moments::pos`], [`Moments::neg`] | examples of the class seen up to step $t$ |
//! | $\bar{x}_t^+$, $\bar{x}_t^-$ | [`ClassMoments::mean`] | class mean [OAUC eq. 15] |
//! | $\Sigma_t^+$, $\Sigma_t^-$ | [`ClassMoments::cov`], [`ClassMoments::cov_dense`] | population covariance [OAUC eq. 16] |
//! | $\bar{x}_t$, $\Sigma_t$ | [`Moments::opposite`] | the opposite class's moments an example is scored against [OAUC alg. 1] |
//! | $C_t = N_t \Sigma_t$ | `comoment` (private) | sum of outer products of deviations, Welford's $M_2$; what is stored |
//! | $d = x_t - \bar{x}_{t-1}$, $d' = x_t - \bar{x}_t$ | `d_old`, `d_new` (scratch) | deviations from the old and new mean |
//! | $\delta = \bar{x}_B - \bar{x}_A$ | `delta` (scratch) | difference of means in a merge |
//! | $w$ | `w` | the learner's weight vector |
//! | $w^\top \Sigma w$ | [`ClassMoments::quad_form`] | variance of the score $w^\top x$ over the class |
//! | $\Sigma w$ | [`ClassMoments::cov_mul`] | covariance term of the gradient [OAUC eqs. 13-14] |
//!
//! # Storage layout
//!
//! The symmetric matrix $C = N\Sigma$ is stored as its upper triangle, packed row by row: row $i$
//! holds $C_{i,i}, \dots, C_{i,p-1}$ and starts at offset $i(2p - i + 1)/2$; the array has
//! $p(p+1)/2$ values ($8 \cdot p(p+1)/2$ bytes: 66 kB at $p = 128$, 16.8 MB at $p = 2048$). Every
//! kernel walks the rows in order, so the triangle is read as one contiguous stream, and row $i$
//! meets $w$, $d'$ or `out` on the contiguous range $i..p$:
//! - the rank-one update adds $d_i \, d'_{i..p}$ to row $i$ (one axpy);
//! - $\Sigma w$ takes per row one dot product ($\to \text{out}_i$) and one axpy
//!   ($w_i C_{i,i+1..p} \to \text{out}_{i+1..p}$) over the same values, read once;
//! - $w^\top \Sigma w = \frac{1}{N}\sum_i w_i (C_{ii} w_i + 2 \sum_{j>i} C_{ij} w_j)$ takes one dot
//!   product per row.
//!
//! The loops use eight independent accumulators on fixed-size chunks, which the compiler
//! vectorizes; no `unsafe`, no target-specific code. The division by $N$ is applied to the $p$
//! outputs, never to the matrix.
//!
//! # Cost of each call
//!
//! Flops count a multiply and an add as two; bytes are the triangle's traffic ($B = 4p(p+1)$
//! bytes), the $O(p)$ vectors stay in cache.
//!
//! | call | flops | triangle traffic |
//! |---|---|---|
//! | [`ClassMoments::update`] (dense or sparse row) | $p(p+1) + O(p)$ | read $B$ + write $B$ |
//! | [`ClassMoments::cov_mul`] | $\approx 2p^2$ (4 per off-diagonal entry) | read $B$ |
//! | [`ClassMoments::quad_form`] | $\approx p^2$ | read $B$ |
//! | [`ClassMoments::cov_mul_and_quad`] | $\approx 2p^2 + 2p$ | read $B$ |
//! | [`Moments::update_and_mul_opposite`] | update + `cov_mul_and_quad` | read $2B$ + write $B$ (two triangles) |
//! | [`ClassMoments::merge`] | $\approx 1.5 p^2$ | read $2B$ + write $B$ |
//! | [`ClassMoments::mean_dot`] | $2p$ | none |
//!
//! **Sparse rows cost $O(p^2)$, not $O(\mathrm{nnz}^2 + p)$.** The stable update adds
//! $d\,d'^\top$ with $d = x - \bar{x}_{t-1}$, which is dense even when $x$ is sparse. An
//! $O(\mathrm{nnz}^2)$ update would have to accumulate raw products $\sum_k x_k x_k^\top$ and
//! subtract $N \bar{x}\bar{x}^\top$ on reading: exactly the cancelling form of eq. 16 that the
//! Deviation below rules out. The update skips row $i$ when $d_i = 0$ (a feature that no
//! example of the class has used yet, or one equal to its mean), so on sparse data whose classes
//! have touched only $p'$ features the cost is $O(p'^2 + p)$. A learner pays $O(p^2)$ per step
//! anyway for $\Sigma^{-y} w$.
//!
//! # Deviation from [OAUC eqs. 16 and 18]
//!
//! The paper updates the covariance as printed:
//! $$\Sigma_t = \Sigma_{t-1} + \bar{x}_{t-1}\bar{x}_{t-1}^\top - \bar{x}_t\bar{x}_t^\top +
//! (x_t x_t^\top - \Sigma_{t-1} - \bar{x}_{t-1}\bar{x}_{t-1}^\top)/N_t.$$
//! Its terms are of size $\lVert\bar{x}\rVert^2$ while their sum is of size $\Sigma$: for
//! features with an offset of $10^6$ and unit spread, each step cancels twelve of the sixteen
//! digits, and the result drifts far from the two-pass covariance. We keep instead the co-moment
//! $C_t = N_t\Sigma_t$ and add Welford's rank-one term \[Welford62\]:
//! $$\bar{x}_t = \bar{x}_{t-1} + d/N_t,\quad C_t = C_{t-1} + d\,(x_t - \bar{x}_t)^\top,\quad
//! \Sigma_t = C_t / N_t,$$
//! which is algebraically equal to eq. 16 (conventions section 3 writes it as
//! $\Sigma \mathrel{+}= (d\,d'^\top - \Sigma)/N$) and only ever works with deviations from the
//! mean. Storing $C$ rather than $\Sigma$ saves the rescaling of the whole matrix at every step
//! (two flops per entry instead of three) and makes $N = 0$ exact (all zeros). The tests
//! `large_offset_matches_two_pass` and `eq16_as_printed_loses_precision_at_large_offset`
//! (`tests/moments.rs`) pin both halves: ours agrees with a two-pass computation to $10^{-9}$ at
//! an offset of $10^6$; the printed form does not.

mod error;
mod kernels;
mod moments;
mod sketch;
mod sketched;

pub use error::StatsError;
pub use moments::{ClassMoments, FORMAT_VERSION, Moments};
pub use sketch::{ApplyScratch, FrequentDirections, MAX_ELL, SKETCH_FORMAT_VERSION};
pub use sketched::SketchedMoments;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_types_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<ClassMoments>();
        check::<Moments>();
        check::<StatsError>();
        check::<FrequentDirections>();
        check::<SketchedMoments>();
    }
}
