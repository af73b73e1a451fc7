//! [`Support`]: the features a sketched moment learner's step reads and writes.
//!
//! A sketched learner keeps $w$, $d = x - \bar x$, $\hat\Sigma w$, its gradient and its
//! accumulators as vectors of length $p$, but every one of them is zero at a feature that no row
//! has touched: $w_1 = 0$, the opposite class's mean and $\hat\Sigma$ vanish there (the sums
//! and the sketch's slots hold only features some row had non-zero), and a step adds to $w_j$
//! only $-\eta(\lambda w_j + a d_j + b (\hat\Sigma w)_j)$ (or its adaptive form), which is zero
//! when all three are. So a step needs to visit only the union $T$ of the touched features:
//! $O(\ell t + |T|)$ work instead of $O(\ell t + p)$, which on $2^{19}$ hashed crosses of a9a
//! (a few thousand of them touched) is most of a step (`docs/results/performance.md`, The
//! sketched learners' steps on their touched features).
//!
//! The set is the features of every row the learner has seen with a non-zero value; it is not
//! saved but rebuilt when a loaded learner first steps, from both classes' touched features and
//! the non-zero entries of $w$. It is kept as one bit per feature and visited in ascending order,
//! so the order, and with it every sum's rounding, depends on the set only: a resumed learner
//! steps bit for bit as the uninterrupted one (a feature in one set and not the other holds zero
//! in every vector, and adding a zero changes no sum). A visit costs $O(p / 64 + |T|)$: the
//! words of the bit set, then the members.

use auc_core::Row;

/// The union of the features the rows seen so far had non-zero (module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Support {
    /// Membership, one bit per feature: feature $j$ is bit $j \bmod 64$ of word $j / 64$.
    seen: Vec<u64>,
    /// Whether the set has been built for this learner (a fresh or loaded one has not).
    built: bool,
}

impl Support {
    /// Whether [`build`](Self::build) has run.
    pub(crate) fn is_built(&self) -> bool {
        self.built
    }

    /// Starts the set from `features` (any order, repeats allowed).
    pub(crate) fn build(&mut self, features: impl IntoIterator<Item = usize>) {
        self.seen.clear();
        for j in features {
            self.add(j);
        }
        self.built = true;
    }

    /// Adds the features of `x` with a non-zero value.
    pub(crate) fn note(&mut self, x: Row<'_>) {
        x.for_each(|j, v| {
            if v != 0.0 {
                self.add(j);
            }
        });
    }

    /// Calls `f` on every member, in ascending order.
    #[inline]
    pub(crate) fn for_each(&self, mut f: impl FnMut(usize)) {
        for (k, &word) in self.seen.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(64 * k + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }

    /// $\sum_{j \in T} a_j b_j$, in ascending order of $j$.
    #[inline]
    pub(crate) fn dot(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut sum = 0.0;
        self.for_each(|j| sum += a[j] * b[j]);
        sum
    }

    fn add(&mut self, j: usize) {
        let word = j / 64;
        if word >= self.seen.len() {
            self.seen.resize(word + 1, 0);
        }
        self.seen[word] |= 1u64 << (j % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::SparseVec;

    fn members(s: &Support) -> Vec<usize> {
        let mut v = Vec::new();
        s.for_each(|j| v.push(j));
        v
    }

    #[test]
    fn every_non_zero_feature_is_a_member_once_in_ascending_order() {
        let mut s = Support::default();
        assert!(!s.is_built());
        s.build([5, 3, 5, 64]);
        assert!(s.is_built());
        let x = SparseVec::from_pairs(vec![(1, 2.0), (3, 1.0), (70, 0.0), (200, -1.0)]).unwrap();
        s.note(Row::Sparse(x.view()));
        s.note(Row::Dense(&[0.0, 0.0, 4.0]));
        assert_eq!(members(&s), vec![1, 2, 3, 5, 64, 200]);
        let a: Vec<f64> = (0..201).map(|j| j as f64).collect();
        // Integers far below 2^53: every partial sum is exact.
        assert_eq!(
            s.dot(&a, &a).to_bits(),
            ((1 + 4 + 9 + 25 + 64 * 64 + 200 * 200) as f64).to_bits()
        );
    }

    #[test]
    fn the_order_is_the_sets_not_the_arrivals() {
        let (mut a, mut b) = (Support::default(), Support::default());
        a.build([]);
        let features: Vec<u32> = (0..3000u32).map(|k| (k * 7919) % 100_003).collect();
        for &j in &features {
            let x = SparseVec::from_pairs(vec![(j, 1.0)]).unwrap();
            a.note(Row::Sparse(x.view()));
        }
        b.build(features.iter().rev().map(|&j| j as usize));
        let mut want: Vec<usize> = features.iter().map(|&j| j as usize).collect();
        want.sort_unstable();
        assert_eq!(members(&a), want);
        assert_eq!(members(&b), want);
    }
}
