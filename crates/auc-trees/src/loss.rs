//! The pairwise surrogates of the AUC a boosted ensemble descends, and their gradients in the
//! scores of the training rows (`docs/math/boosted-trees.md`, section 1).
//!
//! For scores $f$ of $n_+$ positive rows $P$ and $n_-$ negative rows $N$,
//! $$ L(f) = \frac{1}{n_+ n_-} \sum_{i \in P} \sum_{j \in N} \ell(f_i - f_j) $$
//! with the square loss $\ell(m) = \frac12 (1 - m)^2$ of [OAUC eq. 13] (`square`), or the
//! squared hinge $\ell(m) = \frac12 \max(0, 1 - m)^2$ of AUCSVM's primal (`hinge`), which leaves
//! pairs ranked by a margin of 1 alone. Both are convex upper bounds (to a factor) of the
//! pairwise 0-1 loss $1 - \mathrm{AUC}$.
//!
//! Neither needs the $n_+ n_-$ pairs. For the square loss, with class means $\bar f_P,
//! \bar f_N$:
//! $$ \partial_{f_i} L = -\tfrac{1}{n_+}(1 - f_i + \bar f_N)\ (i \in P), \qquad
//!    \partial_{f_j} L = \tfrac{1}{n_-}(1 - \bar f_P + f_j)\ (j \in N), $$
//! and the diagonal of the Hessian is $1/n_+$ and $1/n_-$: $O(n)$ a round. For the squared
//! hinge only the pairs inside the margin count: for $i \in P$ the negatives with
//! $f_j > f_i - 1$, for $j \in N$ the positives with $f_i < f_j + 1$; their counts and score
//! sums come from the other class's sorted scores and prefix sums, $O(n \log n)$ a round.
//!
//! Gradients and Hessians are returned times $n$, so that a row weighs about 1 as in
//! per-row losses: the trees' `min_leaf`, `lambda` and minimum Hessian then read as they do
//! for other boosting libraries. (The Hessian is diagonal only in this approximation: the
//! cross terms $-1/(n_+ n_-)$ are dropped, as Newton boosting does.)

use rayon::prelude::*;

use serde::{Deserialize, Serialize};

/// Which pairwise surrogate is descended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PairLoss {
    /// $\frac12 (1 - m)^2$.
    #[serde(rename = "square")]
    Square,
    /// $\frac12 \max(0, 1 - m)^2$.
    #[serde(rename = "hinge")]
    Hinge,
    /// $e^{-m}$, RankBoost's loss \[Freund03\]; the default (`params.rs`).
    #[default]
    #[serde(rename = "exp")]
    Exp,
}

/// Scratch of [`gradients`] for the squared hinge: the classes' sorted scores and prefix sums.
#[derive(Default)]
pub struct LossScratch {
    pos: Vec<f64>,
    neg: Vec<f64>,
    pos_sums: Vec<f64>,
    neg_sums: Vec<f64>,
    neg_squares: Vec<f64>,
}

/// $L(f)$, and $n \nabla L$ and $n \operatorname{diag} \nabla^2 L$ into `gh` (row $i$'s gradient
/// and Hessian side by side in `gh[i]`) for scores `f` of rows whose class is `pos[i]` (both
/// classes present).
pub fn gradients(
    loss: PairLoss,
    f: &[f64],
    pos: &[bool],
    gh: &mut [[f64; 2]],
    scratch: &mut LossScratch,
) -> f64 {
    let n = f.len();
    let np = pos.iter().filter(|&&b| b).count();
    let nn = n - np;
    debug_assert!(np > 0 && nn > 0, "both classes");
    let (np_f, nn_f, n_f) = (np as f64, nn as f64, n as f64);
    match loss {
        PairLoss::Square => {
            let (mut sp, mut sn) = (0.0, 0.0);
            let (mut qp, mut qn) = (0.0, 0.0);
            for (&fi, &p) in f.iter().zip(pos) {
                if p {
                    sp += fi;
                    qp += fi * fi;
                } else {
                    sn += fi;
                    qn += fi * fi;
                }
            }
            let (mp, mn) = (sp / np_f, sn / nn_f);
            for ((&fi, &p), r) in f.iter().zip(pos).zip(gh.iter_mut()) {
                *r = if p {
                    [-(n_f / np_f) * (1.0 - fi + mn), n_f / np_f]
                } else {
                    [(n_f / nn_f) * (1.0 - mp + fi), n_f / nn_f]
                };
            }
            // Mean of (1 - f_i + f_j)^2 / 2 over pairs: the mean difference and both variances.
            let b = 1.0 - mp + mn;
            let var = (qp / np_f - mp * mp).max(0.0) + (qn / nn_f - mn * mn).max(0.0);
            0.5 * (b * b + var)
        }
        PairLoss::Hinge => hinge(f, pos, gh, scratch, np_f * nn_f, n_f),
        PairLoss::Exp => exponential(f, pos, gh, np_f * nn_f, n_f),
    }
}

/// Rows of one block of the exponential loss's sums.
const SUM_BLOCK: usize = 8192;

/// The exponential loss: $\sum_{i,j} e^{f_j - f_i} = A B$ with $A = \sum_P e^{-f_i}$,
/// $B = \sum_N e^{f_j}$, so $\partial_{f_i} L = -e^{-f_i} B / (n_+ n_-)$ and
/// $\partial_{f_j} L = e^{f_j} A / (n_+ n_-)$, each its own Hessian diagonal up to the sign.
/// The exponents are taken relative to the largest, so that nothing overflows; the common
/// factor $e^{c}$ is applied back once, in logarithms.
fn exponential(f: &[f64], pos: &[bool], gh: &mut [[f64; 2]], pairs: f64, n_f: f64) -> f64 {
    // The largest exponent of each class, in parallel (a maximum does not depend on order).
    let (cp, cn) = f
        .par_iter()
        .zip(pos)
        .with_min_len(4096)
        .fold(
            || (f64::NEG_INFINITY, f64::NEG_INFINITY),
            |(cp, cn), (&v, &p)| if p { (cp.max(-v), cn) } else { (cp, cn.max(v)) },
        )
        .reduce(
            || (f64::NEG_INFINITY, f64::NEG_INFINITY),
            |a, b| (a.0.max(b.0), a.1.max(b.1)),
        );
    // The exponentials in parallel (into `gh`'s Hessian lane, free until the last pass),
    // summed by class in blocks of a fixed number of rows and the blocks' sums added in order:
    // the same bits whatever the threads.
    let block_sums: Vec<(f64, f64)> = f
        .par_chunks(SUM_BLOCK)
        .zip(pos.par_chunks(SUM_BLOCK))
        .zip(gh.par_chunks_mut(SUM_BLOCK))
        .map(|((f, pos), e)| {
            let (mut a, mut b) = (0.0, 0.0);
            for ((&fi, &p), e) in f.iter().zip(pos).zip(e) {
                if p {
                    e[1] = (-fi - cp).exp();
                    a += e[1];
                } else {
                    e[1] = (fi - cn).exp();
                    b += e[1];
                }
            }
            (a, b)
        })
        .collect();
    let (mut a, mut b) = (0.0, 0.0);
    for (ba, bb) in block_sums {
        a += ba;
        b += bb;
    }
    // log of the factors e^{cp} A and e^{cn} B.
    let (la, lb) = (cp + a.ln(), cn + b.ln());
    // Each row's own value, (n / pairs) e^{-f_i + lb} for a positive: its exponential from the
    // pass above times one factor of its class, (n / pairs) e^{cp + lb}; where that product is
    // not a normal number (an exponential that underflowed, a factor that overflowed), the
    // row's own exponential. In parallel: the same bits whatever the threads.
    let scale = n_f.ln() - pairs.ln();
    let (kp, kn) = ((cp + lb + scale).exp(), (cn + la + scale).exp());
    f.par_iter()
        .zip(pos)
        .zip(gh.par_iter_mut())
        .with_min_len(4096)
        .for_each(|((&fi, &p), r)| {
            let mut w = r[1] * if p { kp } else { kn };
            if !w.is_normal() {
                w = (n_f / pairs) * if p { (-fi + lb).exp() } else { (fi + la).exp() };
            }
            *r = [if p { -w } else { w }, w];
        });
    (la + lb - pairs.ln()).exp()
}

/// The squared hinge's value and scaled gradient and Hessian diagonal (module docs).
fn hinge(
    f: &[f64],
    pos: &[bool],
    gh: &mut [[f64; 2]],
    s: &mut LossScratch,
    pairs: f64,
    n_f: f64,
) -> f64 {
    s.pos.clear();
    s.neg.clear();
    for (&fi, &p) in f.iter().zip(pos) {
        if p { s.pos.push(fi) } else { s.neg.push(fi) }
    }
    s.pos.sort_unstable_by(f64::total_cmp);
    s.neg.sort_unstable_by(f64::total_cmp);
    prefix(&s.pos, &mut s.pos_sums, |v| v);
    prefix(&s.neg, &mut s.neg_sums, |v| v);
    prefix(&s.neg, &mut s.neg_squares, |v| v * v);
    let scale = n_f / pairs;
    let mut value = 0.0;
    for ((&fi, &p), r) in f.iter().zip(pos).zip(gh.iter_mut()) {
        if p {
            // Negatives with f_j > f_i - 1: the suffix of the sorted negatives.
            let k = s.neg.partition_point(|&v| v <= fi - 1.0);
            let count = (s.neg.len() - k) as f64;
            let sum = s.neg_sums[s.neg.len()] - s.neg_sums[k];
            // The sum over them of (1 - f_i + f_j), and of its square for the value (each
            // pair counted once, from its positive).
            let c = 1.0 - fi;
            let total = count * c + sum;
            *r = [-scale * total, scale * count];
            let squares = s.neg_squares[s.neg.len()] - s.neg_squares[k];
            value += count * c * c + 2.0 * c * sum + squares;
        } else {
            // Positives with f_i < f_j + 1: the prefix of the sorted positives.
            let k = s.pos.partition_point(|&v| v < fi + 1.0);
            let count = k as f64;
            let sum = s.pos_sums[k];
            let total = count * (1.0 + fi) - sum;
            *r = [scale * total, scale * count];
        }
    }
    0.5 * value / pairs
}

/// `sums[k]` = the sum of `term` over the first `k` values.
fn prefix(values: &[f64], sums: &mut Vec<f64>, term: impl Fn(f64) -> f64) {
    sums.clear();
    sums.push(0.0);
    let mut acc = 0.0;
    for &v in values {
        acc += term(v);
        sums.push(acc);
    }
}
