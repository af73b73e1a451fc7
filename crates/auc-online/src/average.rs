//! Averaged iterates (Polyak-Ruppert) for any linear online learner (conventions section 5).
//!
//! With a constant step near the edge of stability a pass can end on a poor last iterate; the
//! running mean $\bar w_t = \frac1t \sum_{s \le t} w_s$ of the iterates is far steadier. The
//! papers' algorithms score with the last iterate, so averaging is an option, off by default.
//!
//! # Lazy averaging
//!
//! The mean after step $t$ obeys $\bar w_t = \bar w_{t-1} + (w_t - \bar w_{t-1}) / t$, which read
//! literally costs $O(p)$ per step however sparse the row. For a learner whose step on $x_t$ moves
//! only the weights of the features $x_t$ stores ([`Linear::SPARSE_STEPS`]: the Perceptron, PA-I),
//! a coordinate $j$ untouched since step $\tau_j$ has held the same $w_j$ at every step
//! $\tau_j + 1, \dots, t$, so its mean is, in closed form,
//! $$\bar w_{t,j} = \frac{\tau_j \bar w_{\tau_j, j} + (t - \tau_j) w_j}{t}
//! = \bar w_{\tau_j, j} + (w_j - \bar w_{\tau_j, j}) \frac{t - \tau_j}{t}.$$
//! We keep, per coordinate, the mean as of its last step $\tau_j$ (`last[j]`). A step on $x_t$
//! brings the stored coordinates up to step $t - 1$ with this formula (the weights have not moved
//! yet), lets the learner step, and then takes in $w_t$ with the one-step recurrence, setting
//! $\tau_j = t$: $O(\mathrm{nnz}(x_t))$. Scoring evaluates the closed form on the row's stored
//! coordinates, also $O(\mathrm{nnz})$, and [`Linear::weights`] materializes all $p$ once per
//! update that asks. For one step ($t - \tau_j = 1$) the closed form is the recurrence itself, so
//! a coordinate touched at every step (dense rows) follows the same arithmetic as the plain
//! $O(p)$ loop; otherwise the two agree to rounding (one multiplication instead of $t - \tau_j$
//! chained updates; the test module compares them against a direct $\frac1t \sum_s w_s$).
//!
//! Learners whose weights move off the row's support (SOLAM's averaged output, the moment and
//! buffer learners) keep the plain loop and no step counters; a sketched moment learner runs it
//! over the features some row has touched ([`Linear::for_each_live`]), where its weights live.
//! (The dense learners' $p$ is small; the loop over all of it is theirs.)

use auc_core::{Divergence, Label, OnlineLearner, Row, SavedState, Scorer, StateError, check};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::WeightsCache;

/// A linear scorer $f(x) = w^\top x$ whose weights can be read.
pub trait Linear {
    /// Whether an update on a row $x$ changes only $w_j$ for the features $x$ stores (all of them
    /// for a dense row), so that [`Averaged`] can average lazily in $O(\mathrm{nnz}(x))$.
    ///
    /// A learner that sets it also changes the layout of its averaged state (the step counters
    /// are saved with it), which needs a new [`SavedState::STATE_VERSION`].
    const SPARSE_STEPS: bool = false;

    /// The weight vector $w$ the learner scores with.
    fn weights(&self) -> &[f64];

    /// $w_j$ alone: what [`Averaged`]'s lazy steps read for a row's features, so that a learner
    /// whose weights live interleaved with its other state ([`crate::BalFtrl`]) need not
    /// materialize all $p$ of them per step.
    #[inline]
    fn weight(&self, j: usize) -> f64 {
        self.weights()[j]
    }

    /// Calls `f` on every feature where $w$ may be non-zero, when the learner keeps that set
    /// (a sketched moment learner's touched features, `crate::support`), and returns `true`;
    /// returns `false` without calling `f` otherwise. [`Averaged`] then takes in each iterate on
    /// those features alone: the mean is zero wherever every iterate was, so skipping the rest
    /// changes no bit.
    #[inline]
    fn for_each_live(&self, f: impl FnMut(usize)) -> bool
    where
        Self: Sized,
    {
        let _ = f;
        false
    }

    /// $p$, the length of [`Linear::weights`]. A learner whose weights are materialized from a
    /// lazy form (SOLAM, [`Averaged`]) answers without materializing them: callers ask per row.
    fn dim(&self) -> usize {
        self.weights().len()
    }
}

/// A learner that updates like `L` and scores with the mean of `L`'s iterates after each update,
/// $\bar w_t = \frac1t \sum_{s \le t} w_s$.
///
/// Costs $O(\mathrm{nnz}(x))$ per update on top of `L`'s step when `L::SPARSE_STEPS` (lazy
/// averaging, see the module docs), $O(p)$ otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Averaged<L> {
    inner: L,
    /// $\bar w_{\tau_j, j}$: the mean as of step `last[j]` (as of step `t` without step counters).
    mean: Vec<f64>,
    t: u64,
    /// $\tau_j$, the last step that took in $w_j$; empty unless `L::SPARSE_STEPS`.
    last: Vec<u64>,
    /// $\bar w_t$ materialized (`L::SPARSE_STEPS` only).
    cache: WeightsCache,
}

/// $\bar w$ of one coordinate brought from step `from` to step `to >= from`, its weight `w` held
/// constant in between (module docs).
#[inline]
fn caught_up(mean: f64, w: f64, from: u64, to: u64) -> f64 {
    if from == to {
        mean
    } else {
        mean + (w - mean) * ((to - from) as f64 / to as f64)
    }
}

impl<L: Linear> Averaged<L> {
    /// Wraps a fresh learner; before any update the average is the learner's own weights.
    pub fn new(inner: L) -> Self {
        let mean = inner.weights().to_vec();
        let last = if L::SPARSE_STEPS {
            vec![0; mean.len()]
        } else {
            Vec::new()
        };
        Self {
            inner,
            mean,
            t: 0,
            last,
            cache: WeightsCache::default(),
        }
    }

    /// The wrapped learner (its last iterate).
    pub fn inner(&self) -> &L {
        &self.inner
    }

    /// $\bar w_{t,j}$.
    #[inline]
    fn mean_at(&self, j: usize) -> f64 {
        if L::SPARSE_STEPS {
            caught_up(self.mean[j], self.inner.weight(j), self.last[j], self.t)
        } else {
            self.mean[j]
        }
    }
}

impl<L: Linear> Linear for Averaged<L> {
    fn dim(&self) -> usize {
        self.mean.len()
    }

    fn weights(&self) -> &[f64] {
        if !L::SPARSE_STEPS {
            return &self.mean;
        }
        self.cache
            .0
            .get_or_init(|| (0..self.mean.len()).map(|j| self.mean_at(j)).collect())
    }
}

impl<L: Linear + Scorer> Scorer for Averaged<L> {
    /// $\bar w_t^\top x$ in $O(\mathrm{nnz}(x))$.
    fn score(&self, x: Row<'_>) -> f64 {
        if !L::SPARSE_STEPS {
            return x.dot(&self.mean);
        }
        crate::check_dense_len(x, self.mean.len());
        let mut s = 0.0;
        x.for_each(|j, xj| s += xj * self.mean_at(j));
        s
    }

    /// The wrapped learner's: a diverged last iterate makes the average meaningless too.
    fn divergence(&self) -> Option<Divergence> {
        self.inner.divergence()
    }
}

impl<L: Linear + OnlineLearner> OnlineLearner for Averaged<L> {
    /// The wrapped learner's, and with sparse steps the row's entries of the mean and its step
    /// counters.
    fn prefetch(&self, x: Row<'_>) {
        self.inner.prefetch(x);
        if L::SPARSE_STEPS {
            crate::prefetch_rows_features(x, &self.mean);
            crate::prefetch_rows_features(x, &self.last);
        }
    }

    fn update(&mut self, x: Row<'_>, y: Label) {
        self.t += 1;
        let t = self.t;
        if !L::SPARSE_STEPS {
            self.inner.update(x, y);
            let inv = 1.0 / t as f64;
            let (mean, w) = (&mut self.mean, self.inner.weights());
            // Where the learner keeps the features its weights live on, those alone (a sketched
            // moment learner over 2^19 hashed crosses touches a few thousand).
            if !self
                .inner
                .for_each_live(|j| mean[j] += (w[j] - mean[j]) * inv)
            {
                for (m, w) in mean.iter_mut().zip(w) {
                    *m += (w - *m) * inv;
                }
            }
            return;
        }
        self.cache = WeightsCache::default();
        // Up to step t - 1 while w_j still holds its value of steps last[j] + 1 ..= t - 1.
        let inner = &self.inner;
        let (mean, last) = (&mut self.mean, &mut self.last);
        x.for_each(|j, _| {
            mean[j] = caught_up(mean[j], inner.weight(j), last[j], t - 1);
            last[j] = t - 1;
        });
        self.inner.update(x, y);
        // The step's own iterate w_t: the one-step recurrence.
        let inner = &self.inner;
        x.for_each(|j, _| {
            mean[j] = caught_up(mean[j], inner.weight(j), t - 1, t);
            last[j] = t;
        });
    }

    /// Grows the wrapped learner, then pads the mean with zeros: every iterate had 0 there (and
    /// such a coordinate's step counter, 0, needs no catching up).
    fn grow(&mut self, dim: usize) -> Result<(), StateError> {
        self.inner.grow(dim)?;
        crate::grow_zeros(&mut self.mean, dim);
        if L::SPARSE_STEPS && self.last.len() < dim {
            self.last.resize(dim, 0);
            self.cache = WeightsCache::default();
        }
        Ok(())
    }
}

impl<L: Linear + SavedState> SavedState for Averaged<L> {
    const STATE_VERSION: u32 = L::STATE_VERSION;
    const OLDEST_STATE_VERSION: u32 = L::OLDEST_STATE_VERSION;

    /// The wrapped learner's state comes first in every averaged layout, so its upgrade is
    /// this one's (the mean, $t$ and the step counters keep their layout).
    fn upgrade_layout(
        bytes: &[u8],
        version: u32,
    ) -> Result<std::borrow::Cow<'_, [u8]>, StateError> {
        L::upgrade_layout(bytes, version)
    }

    fn validate(&self) -> Result<(), StateError> {
        self.inner.validate()?;
        check::len("mean", self.mean.len(), self.inner.dim())?;
        check::finite("mean", &self.mean)?;
        if L::SPARSE_STEPS {
            check::len("last", self.last.len(), self.mean.len())?;
            check::state(self.last.iter().all(|&s| s <= self.t), || {
                format!("a step counter is past the {} steps taken", self.t)
            })?;
        }
        Ok(())
    }
}

/// The averaged state with every mean current, `(inner, mean, t)`: the layout of learners
/// without [`Linear::SPARSE_STEPS`], and of every learner's averaged state before lazy averaging
/// (state version 1 of the Perceptron and PA-I), which reads into an [`Averaged`] whose step
/// counters all equal `t`.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct Materialized<L>(Plain<L, Vec<f64>>);

/// The fields of [`Materialized`], by reference when written.
#[derive(Debug, Serialize, Deserialize)]
struct Plain<I, M> {
    inner: I,
    mean: M,
    t: u64,
}

impl<L: Linear> From<Materialized<L>> for Averaged<L> {
    fn from(Materialized(m): Materialized<L>) -> Self {
        let last = if L::SPARSE_STEPS {
            vec![m.t; m.mean.len()]
        } else {
            Vec::new()
        };
        Self {
            inner: m.inner,
            mean: m.mean,
            t: m.t,
            last,
            cache: WeightsCache::default(),
        }
    }
}

/// The saved layout with step counters, `(inner, mean, t, last)`: the lazy state as it is, so a
/// resumed run continues bit for bit.
#[derive(Serialize, Deserialize)]
struct Lazy<I, M, S> {
    inner: I,
    mean: M,
    t: u64,
    last: S,
}

impl<L: Linear + Serialize> Serialize for Averaged<L> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if L::SPARSE_STEPS {
            Lazy {
                inner: &self.inner,
                mean: &self.mean,
                t: self.t,
                last: &self.last,
            }
            .serialize(s)
        } else {
            Plain {
                inner: &self.inner,
                mean: &self.mean,
                t: self.t,
            }
            .serialize(s)
        }
    }
}

impl<'de, L: Linear + Deserialize<'de>> Deserialize<'de> for Averaged<L> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if L::SPARSE_STEPS {
            let w = Lazy::<L, Vec<f64>, Vec<u64>>::deserialize(d)?;
            Ok(Self {
                inner: w.inner,
                mean: w.mean,
                t: w.t,
                last: w.last,
                cache: WeightsCache::default(),
            })
        } else {
            Materialized::<L>::deserialize(d).map(Self::from)
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Small dyadic values: the means below are exact.
mod tests {
    use super::*;
    use crate::{PaIParams, PerceptronParams};
    use auc_core::Label::{Neg, Pos};
    use auc_core::testing::{sparse_row, tol};
    use auc_core::{OnlineParams, SparseVec};
    use proptest::prelude::*;

    /// The dense reference: the plain learner, and $\frac1t \sum_{s \le t} w_s$ summed
    /// directly over all $p$ coordinates after every step.
    fn dense_means<L: Linear + OnlineLearner>(mut l: L, rows: &[(SparseVec, Label)]) -> Vec<f64> {
        let mut sum = vec![0.0; l.weights().len()];
        for (x, y) in rows {
            l.update(Row::Sparse(x.view()), *y);
            for (s, w) in sum.iter_mut().zip(l.weights()) {
                *s += w;
            }
        }
        let t = rows.len().max(1) as f64;
        sum.iter().map(|s| s / t).collect()
    }

    /// Lazy and dense means agree to `tol` relative to the largest mean (a coordinate near 0
    /// carries the rounding of the others' scale); scores of every row likewise.
    fn check<L>(fresh: impl Fn() -> L, rows: &[(SparseVec, Label)]) -> Result<(), TestCaseError>
    where
        L: Linear + OnlineLearner + SavedState + PartialEq + std::fmt::Debug,
    {
        let want = dense_means(fresh(), rows);
        let mut lazy = Averaged::new(fresh());
        // Saved and read back halfway, the run continues bit for bit.
        let half = rows.len() / 2;
        for (x, y) in &rows[..half] {
            lazy.update(Row::Sparse(x.view()), *y);
        }
        let bytes = postcard::to_allocvec(&lazy).unwrap();
        let mut resumed: Averaged<L> = postcard::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&resumed, &lazy);
        for (x, y) in &rows[half..] {
            lazy.update(Row::Sparse(x.view()), *y);
            resumed.update(Row::Sparse(x.view()), *y);
        }
        prop_assert_eq!(
            postcard::to_allocvec(&lazy).unwrap(),
            postcard::to_allocvec(&resumed).unwrap()
        );
        let scale = want.iter().fold(1e-300f64, |m, v| m.max(v.abs()));
        for (j, (a, b)) in lazy.weights().iter().zip(&want).enumerate() {
            prop_assert!(
                tol::close_with(*a, *b, tol::REL * scale, tol::REL),
                "coordinate {j}: lazy {a}, dense {b}"
            );
        }
        let w = lazy.weights().to_vec();
        for (x, _) in rows {
            let (s, d) = (
                lazy.score(Row::Sparse(x.view())),
                Row::Sparse(x.view()).dot(&w),
            );
            let size = Row::Sparse(x.view()).norm_sq().sqrt() * scale;
            prop_assert!(tol::close_with(s, d, tol::REL * size, tol::REL), "{s} {d}");
        }
        Ok(())
    }

    /// A stream of sparse rows in 40 features, both labels.
    fn stream() -> impl Strategy<Value = Vec<(SparseVec, Label)>> {
        prop::collection::vec(
            (sparse_row(40, 6), prop_oneof![Just(Pos), Just(Neg)]),
            1..120,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Lazy averaging equals $\frac1t \sum_s w_s$ (module docs) for the learners with
        /// sparse steps, and survives a saved state exactly.
        #[test]
        fn lazy_means_equal_the_dense_reference(rows in stream(), c in 0.01f64..4.0) {
            check(|| PaIParams { c }.build(40, 0).unwrap(), &rows)?;
            check(|| PerceptronParams {}.build(40, 0).unwrap(), &rows)?;
        }
    }

    #[test]
    fn the_average_is_the_mean_of_the_iterates() {
        // Perceptron iterates: (1, 0) after (1, 0)+; (1, -1) after (0, 1)-; unchanged after (2, -1)+.
        // Mean of (1, 0), (1, -1), (1, -1) = (1, -2/3).
        let mut a = Averaged::new(PerceptronParams {}.build(2, 0).unwrap());
        for (x, y) in [([1.0, 0.0], Pos), ([0.0, 1.0], Neg), ([2.0, -1.0], Pos)] {
            a.update(Row::Dense(&x), y);
        }
        assert_eq!(a.inner().weights(), &[1.0, -1.0]);
        assert_eq!(a.weights()[0], 1.0);
        assert!((a.weights()[1] + 2.0 / 3.0).abs() < 1e-15);
        assert!((a.score(Row::Dense(&[0.0, 3.0])) + 2.0).abs() < 1e-15);
    }

    #[test]
    fn version_1_states_read_with_current_means() {
        // A version 1 file stores (inner, mean, t) with every mean current.
        let inner = PaIParams { c: 1.0 }.build(3, 0).unwrap();
        let old = Plain {
            inner,
            mean: vec![0.5, -0.25, 0.0],
            t: 4,
        };
        let bytes = postcard::to_allocvec(&old).unwrap();
        let read: Averaged<crate::PaI> = postcard::from_bytes::<Materialized<_>>(&bytes)
            .unwrap()
            .into();
        assert!(read.validate().is_ok());
        assert_eq!(read.weights(), &[0.5, -0.25, 0.0]);
        assert_eq!(read.score(Row::Dense(&[2.0, 4.0, 1.0])), 0.0);
    }
}
