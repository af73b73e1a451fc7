//! The AUC of a growing sequence of scores (prequential evaluation of a stream): exact while
//! the scores fit a budget, then in bounded memory with a stated error (docs/math/running-auc.md).

use std::cmp::Ordering;

use auc_core::Label;

use crate::metrics::MetricError;

/// Scores kept exactly by [`RunningAuc::bounded`]'s default ([`RunningAuc::DEFAULT_EXACT`]):
/// 2^20, 8 MB of stored scores.
const DEFAULT_EXACT: usize = 1 << 20;
/// Intervals of folded scores by default ([`RunningAuc::DEFAULT_BINS`]).
const DEFAULT_BINS: usize = 1 << 16;

/// The AUC of a growing sequence of scores, as [`crate::metrics::auc`] computes it on all of
/// them, in $O(\log^2 n)$ amortized time per score: for prequential evaluation of a stream that
/// cannot be kept and re-sorted at every checkpoint.
///
/// It keeps twice the count of correctly ordered positive-negative pairs (ties counting one) as
/// an integer, and each class's scores in sorted runs whose lengths at least halve from one run
/// to the next (a merge when a run reaches the length of the one before it, so there are at most
/// $\log_2 n + 1$). A new batch of scores (those pushed since the last query) is sorted, its pairs
/// among themselves counted by one walk, its pairs with every stored score by binary searches in
/// each run, and it then becomes a run.
///
/// [`RunningAuc::new`] keeps every score (8 bytes each) and its [`RunningAuc::auc`] divides the
/// same integer count by $2 n_+ n_-$ as [`crate::metrics::auc`] does, so the two agree bit for
/// bit. [`RunningAuc::bounded`] keeps at most a budget of scores exactly: when the runs exceed
/// it they are folded into at most `bins` disjoint score intervals with their class counts. A
/// later score is then compared exactly with every interval that does not contain it, and as a
/// tie with the one that does; each such pair is off by at most one half, which
/// [`RunningAuc::error_bound`] adds up, so the exact AUC lies within that bound of the figure.
#[derive(Clone, Debug)]
pub struct RunningAuc {
    /// Sorted runs of positive scores (those since the last fold).
    pos: Vec<Vec<f64>>,
    /// Sorted runs of negative scores (those since the last fold).
    neg: Vec<Vec<f64>>,
    /// Scores pushed since the last count, with their labels.
    pending: Vec<(f64, Label)>,
    /// Twice the number of correctly ordered pairs among the counted scores (a pair with a
    /// folded interval that holds the other score counts one, as a tie).
    wins2: u128,
    /// Twice the largest error of `wins2 / 2`: the pairs counted as ties with an interval.
    slack2: u128,
    n_pos: u64,
    n_neg: u64,
    /// Scores stored in runs before they are folded (`usize::MAX`: never).
    max_exact: usize,
    /// The folded scores.
    folded: Folded,
}

impl Default for RunningAuc {
    fn default() -> Self {
        Self::new()
    }
}

impl RunningAuc {
    /// Scores [`RunningAuc::bounded`] keeps exactly by default: 2^20.
    pub const DEFAULT_EXACT: usize = DEFAULT_EXACT;
    /// Intervals [`RunningAuc::bounded`] folds into by default: 2^16 (an error bound near
    /// 1/2^16 of the AUC on a stream whose scores keep their distribution).
    pub const DEFAULT_BINS: usize = DEFAULT_BINS;

    /// No scores yet; every score is kept, so the AUC is exact and memory grows by 8 bytes a
    /// score.
    pub fn new() -> Self {
        Self::bounded(usize::MAX, DEFAULT_BINS)
    }

    /// No scores yet; at most `max_exact` scores are stored exactly, then folded into at most
    /// `bins` intervals (both at least 1; smaller values are taken as 1). Memory stays within
    /// [`RunningAuc::bounded_bytes`].
    pub fn bounded(max_exact: usize, bins: usize) -> Self {
        RunningAuc {
            pos: Vec::new(),
            neg: Vec::new(),
            pending: Vec::new(),
            wins2: 0,
            slack2: 0,
            n_pos: 0,
            n_neg: 0,
            max_exact: max_exact.max(1),
            folded: Folded {
                bins: Vec::new(),
                cum_pos: vec![0],
                cum_neg: vec![0],
                max_bins: bins.max(1),
            },
        }
    }

    /// The most bytes a [`RunningAuc::bounded`] of these sizes holds: per score of the budget,
    /// the stored runs and their merge copy (16 bytes), the pending scores (16 bytes: pushes
    /// past the budget count them), the fold's labelled copy and its new intervals (16 + 48
    /// bytes, counting both the runs and a full batch); per interval, 48 bytes twice while
    /// folding.
    pub fn bounded_bytes(max_exact: usize, bins: usize) -> u64 {
        let exact = max_exact.max(1) as u64;
        let bins = bins.max(1) as u64;
        exact
            .saturating_mul(16 + 16 + 2 * (16 + 48))
            .saturating_add(bins.saturating_mul(2 * 48))
    }

    /// Adds one score with its label. A score that is not finite is an error (the AUC of such a
    /// sequence is undefined), naming its 0-based position in the sequence.
    pub fn push(&mut self, score: f64, label: Label) -> Result<(), MetricError> {
        if !score.is_finite() {
            return Err(MetricError::NonFinite {
                index: self.len() as usize,
            });
        }
        self.pending.push((score, label));
        // Between two queries the pending scores count against the budget too.
        if self.pending.len() >= self.max_exact {
            self.count_pending();
        }
        Ok(())
    }

    /// Scores pushed so far.
    pub fn len(&self) -> u64 {
        self.n_pos + self.n_neg + self.pending.len() as u64
    }

    /// Whether no score was pushed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Positives and negatives pushed so far.
    pub fn class_counts(&self) -> (u64, u64) {
        let p = self.pending.iter().filter(|(_, l)| l.is_pos()).count() as u64;
        (self.n_pos + p, self.n_neg + self.pending.len() as u64 - p)
    }

    /// The AUC of every score pushed so far ([`crate::metrics::auc`] on all of them, within
    /// [`RunningAuc::error_bound`]), or [`MetricError::SingleClass`] while a class is missing.
    pub fn auc(&mut self) -> Result<f64, MetricError> {
        self.count_pending();
        let (pos, neg) = (self.n_pos, self.n_neg);
        if pos == 0 || neg == 0 {
            return Err(MetricError::SingleClass {
                pos: pos as usize,
                neg: neg as usize,
            });
        }
        Ok(self.wins2 as f64 / (2.0 * pos as f64 * neg as f64))
    }

    /// The largest distance between [`RunningAuc::auc`] and the exact AUC of every score pushed
    /// so far: 0 until scores were folded, then half the fraction of pairs whose order was taken
    /// as a tie (0 while a class is missing).
    pub fn error_bound(&mut self) -> f64 {
        self.count_pending();
        if self.n_pos == 0 || self.n_neg == 0 {
            return 0.0;
        }
        self.slack2 as f64 / (2.0 * self.n_pos as f64 * self.n_neg as f64)
    }

    /// Whether scores were folded into intervals, so that the AUC is within
    /// [`RunningAuc::error_bound`] rather than exact.
    pub fn is_folded(&self) -> bool {
        !self.folded.bins.is_empty()
    }

    /// Counts the pending scores' pairs (among themselves, with the stored runs and with the
    /// folded intervals), stores them as runs, and folds the runs when they exceed the budget.
    #[allow(clippy::float_cmp)] // Ties are exactly equal scores, as in `auc`.
    fn count_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let mut batch = std::mem::take(&mut self.pending);
        // Finite scores: partial_cmp never fails. Increasing order.
        batch.sort_unstable_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal));
        // Pairs within the batch: walking tie groups upwards, a positive beats every negative
        // of a lower group and ties with those of its own.
        let (mut neg_below, mut k) = (0u128, 0);
        while k < batch.len() {
            let s = batch[k].0;
            let (mut gp, mut gn) = (0u128, 0u128);
            while k < batch.len() && batch[k].0 == s {
                if batch[k].1.is_pos() {
                    gp += 1;
                } else {
                    gn += 1;
                }
                k += 1;
            }
            self.wins2 += 2 * gp * neg_below + gp * gn;
            neg_below += gn;
        }
        // Pairs with the stored scores: a positive beats every stored negative below it and ties
        // with the equal ones; a negative loses to every stored positive above it.
        let below_and_ties = |runs: &[Vec<f64>], s: f64| -> (u128, u128) {
            let (mut below, mut ties) = (0u128, 0u128);
            for run in runs {
                let lo = run.partition_point(|&v| v < s);
                let hi = lo + run[lo..].partition_point(|&v| v <= s);
                below += lo as u128;
                ties += (hi - lo) as u128;
            }
            (below, ties)
        };
        let run_pos: u128 = self.pos.iter().map(|r| r.len() as u128).sum();
        let (mut new_pos, mut new_neg) = (Vec::new(), Vec::new());
        for &(s, l) in &batch {
            let (wins, slack) = self.folded.against(s, l);
            self.wins2 += wins;
            self.slack2 += slack;
            if l.is_pos() {
                let (below, ties) = below_and_ties(&self.neg, s);
                self.wins2 += 2 * below + ties;
                new_pos.push(s);
            } else {
                let (below, ties) = below_and_ties(&self.pos, s);
                self.wins2 += 2 * (run_pos - below - ties) + ties;
                new_neg.push(s);
            }
        }
        self.n_pos += new_pos.len() as u64;
        self.n_neg += new_neg.len() as u64;
        push_run(&mut self.pos, new_pos);
        push_run(&mut self.neg, new_neg);
        let stored: usize = self.pos.iter().chain(&self.neg).map(Vec::len).sum();
        if stored > self.max_exact {
            let mut scores: Vec<(f64, bool)> = Vec::with_capacity(stored);
            for (runs, is_pos) in [(&mut self.pos, true), (&mut self.neg, false)] {
                for run in runs.drain(..) {
                    scores.extend(run.into_iter().map(|s| (s, is_pos)));
                }
            }
            scores.sort_unstable_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(Ordering::Equal));
            self.folded.fold(&scores);
        }
        // Keep the pending buffer's capacity for the next batch.
        batch.clear();
        self.pending = batch;
    }
}

/// One interval of folded scores: every score folded into it lies in `[lo, hi]`.
#[derive(Clone, Copy, Debug)]
struct Bin {
    lo: f64,
    hi: f64,
    pos: u64,
    neg: u64,
}

impl Bin {
    fn count(&self) -> u64 {
        self.pos + self.neg
    }
}

/// Scores folded into disjoint increasing intervals, with the classes' prefix counts.
#[derive(Clone, Debug)]
struct Folded {
    bins: Vec<Bin>,
    /// `cum_pos[i]`: positives in `bins[..i]` (one more entry than `bins`).
    cum_pos: Vec<u64>,
    /// `cum_neg[i]`: negatives in `bins[..i]`.
    cum_neg: Vec<u64>,
    max_bins: usize,
}

impl Folded {
    /// Twice the pairs a score `s` of class `label` wins against the folded scores of the
    /// other class (an interval holding `s` counts as ties), and twice the error of that count:
    /// the other class's count in an interval holding `s`, unless the interval is the single
    /// value `s` (then they are exact ties).
    #[allow(clippy::float_cmp)] // A one-value interval equal to `s` is an exact tie.
    fn against(&self, s: f64, label: Label) -> (u128, u128) {
        let bins = &self.bins;
        if bins.is_empty() {
            return (0, 0);
        }
        // bins[..i] lie wholly below s; bins[i] holds s when its lower end is at most s.
        let i = bins.partition_point(|b| b.hi < s);
        let holds = i < bins.len() && bins[i].lo <= s;
        let (below, inside) = if label.is_pos() {
            (self.cum_neg[i], holds.then(|| bins[i].neg))
        } else {
            let above_from = if holds { i + 1 } else { i };
            let total = self.cum_pos[bins.len()];
            (total - self.cum_pos[above_from], holds.then(|| bins[i].pos))
        };
        let m = u128::from(inside.unwrap_or(0));
        let exact_tie = holds && bins[i].lo == bins[i].hi;
        (2 * u128::from(below) + m, if exact_tie { 0 } else { m })
    }

    /// Folds scores sorted in increasing order (with whether each is positive): a score inside
    /// an interval joins it, scores in a gap form intervals of their own value, and adjacent
    /// intervals are then merged until at most `max_bins` remain.
    #[allow(clippy::float_cmp)] // Tie groups are exactly equal scores.
    fn fold(&mut self, scores: &[(f64, bool)]) {
        let old = std::mem::take(&mut self.bins);
        let mut out: Vec<Bin> = Vec::with_capacity(old.len() + scores.len());
        let (mut b, mut k) = (0, 0);
        while b < old.len() || k < scores.len() {
            if b < old.len() && (k == scores.len() || old[b].lo <= scores[k].0) {
                // The scores from here up to the interval's upper end lie inside it.
                let mut bin = old[b];
                while k < scores.len() && scores[k].0 <= bin.hi {
                    add(&mut bin, scores[k].1);
                    k += 1;
                }
                out.push(bin);
                b += 1;
            } else {
                // A tie group in a gap (below the next interval): an interval of one value.
                let s = scores[k].0;
                let mut bin = Bin {
                    lo: s,
                    hi: s,
                    pos: 0,
                    neg: 0,
                };
                while k < scores.len() && scores[k].0 == s {
                    add(&mut bin, scores[k].1);
                    k += 1;
                }
                out.push(bin);
            }
        }
        if out.len() > self.max_bins {
            out = coarsen(&out, self.max_bins);
        }
        self.cum_pos.clear();
        self.cum_neg.clear();
        let (mut p, mut n) = (0u64, 0u64);
        self.cum_pos.push(0);
        self.cum_neg.push(0);
        for bin in &out {
            p += bin.pos;
            n += bin.neg;
            self.cum_pos.push(p);
            self.cum_neg.push(n);
        }
        self.bins = out;
    }
}

fn add(bin: &mut Bin, is_pos: bool) {
    if is_pos {
        bin.pos += 1;
    } else {
        bin.neg += 1;
    }
}

/// Merges adjacent intervals, left to right, while the merged count stays at most
/// `ceil(2 total / max_bins)`: any two neighbours of the result then hold more than that, so
/// there are at most `max_bins` of them.
fn coarsen(bins: &[Bin], max_bins: usize) -> Vec<Bin> {
    let total: u64 = bins.iter().map(Bin::count).sum();
    let cap = (2 * total).div_ceil(max_bins as u64).max(1);
    let mut out: Vec<Bin> = Vec::with_capacity(max_bins);
    for &bin in bins {
        match out.last_mut() {
            Some(last) if last.count() + bin.count() <= cap => {
                last.hi = bin.hi;
                last.pos += bin.pos;
                last.neg += bin.neg;
            }
            _ => out.push(bin),
        }
    }
    out
}

/// Appends a sorted run and merges while the last run is at least half as long as the one
/// before it, so that run lengths decrease geometrically.
fn push_run(runs: &mut Vec<Vec<f64>>, run: Vec<f64>) {
    if run.is_empty() {
        return;
    }
    runs.push(run);
    while runs.len() >= 2 && 2 * runs[runs.len() - 1].len() >= runs[runs.len() - 2].len() {
        let b = runs.pop().unwrap_or_default();
        let a = runs.pop().unwrap_or_default();
        let mut merged = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            if a[i] <= b[j] {
                merged.push(a[i]);
                i += 1;
            } else {
                merged.push(b[j]);
                j += 1;
            }
        }
        merged.extend_from_slice(&a[i..]);
        merged.extend_from_slice(&b[j..]);
        runs.push(merged);
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // A bound of exactly 0 is the claim.
mod tests {
    use super::*;
    use crate::metrics::auc;
    use Label::{Neg, Pos};

    /// The running AUC equals `auc` on every prefix, bit for bit, whatever the batch sizes
    /// between queries, with ties across batches (scores on a coarse grid) and -0 against 0.
    #[test]
    fn running_auc_equals_the_batch_auc_on_every_prefix() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let n = 3000;
        let scores: Vec<f64> = (0..n)
            .map(|i| match i % 7 {
                0 => 0.0,
                1 => -0.0,
                _ => (next() % 50) as f64 / 8.0 - 3.0,
            })
            .collect();
        let labels: Vec<Label> = (0..n)
            .map(|i| if next() % 4 == 0 || i == 5 { Pos } else { Neg })
            .collect();
        let mut run = RunningAuc::new();
        let mut checked = 0;
        for (i, (&s, &y)) in scores.iter().zip(&labels).enumerate() {
            run.push(s, y).unwrap();
            // Queries after batches of varying sizes (1, 2, 3, ... and 1 again).
            if (i * 7) % 13 < 3 || i + 1 == n {
                let expected = auc(&scores[..=i], &labels[..=i]);
                assert_eq!(run.auc(), expected, "prefix of {}", i + 1);
                if let Ok(a) = expected {
                    assert_eq!(run.auc().unwrap().to_bits(), a.to_bits());
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
        assert_eq!(run.len(), n as u64);
        let p = labels.iter().filter(|l| l.is_pos()).count() as u64;
        assert_eq!(run.class_counts(), (p, n as u64 - p));
        assert!(
            run.pos.len() + run.neg.len() <= 2 * (64 - (n as u64).leading_zeros() as usize + 1)
        );
        assert_eq!(
            RunningAuc::new().auc(),
            Err(MetricError::SingleClass { pos: 0, neg: 0 })
        );
        let mut bad = RunningAuc::new();
        bad.push(1.0, Pos).unwrap();
        assert_eq!(
            bad.push(f64::NAN, Neg),
            Err(MetricError::NonFinite { index: 1 })
        );
    }

    /// A seeded xorshift stream of scores on a coarse grid (many ties) whose mean drifts
    /// upwards, so later scores fall outside the folded intervals as well as inside them.
    fn drifting_stream(n: usize, seed: u64) -> (Vec<f64>, Vec<Label>) {
        let mut state = seed | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut scores = Vec::with_capacity(n);
        let mut labels = Vec::with_capacity(n);
        for i in 0..n {
            let pos = next() % 5 == 0;
            let noise = (next() % 4000) as f64 / 1000.0;
            let coarse = if i % 3 == 0 { noise.round() } else { noise };
            scores.push(coarse + if pos { 1.0 } else { 0.0 } + i as f64 / n as f64 * 3.0);
            labels.push(if pos { Pos } else { Neg });
        }
        (scores, labels)
    }

    /// Folded into few intervals, the running figure stays within its stated bound of the exact
    /// AUC of every prefix, the bound is 0 before the first fold, and the intervals stay within
    /// their budget.
    #[test]
    fn bounded_auc_is_within_its_bound_of_the_exact_one() {
        for (seed, max_exact, bins) in [(7, 50, 8), (11, 200, 32), (13, 1, 1), (17, 500, 3)] {
            let (scores, labels) = drifting_stream(3000, seed);
            let mut run = RunningAuc::bounded(max_exact, bins);
            let mut folded_seen = false;
            for i in 0..scores.len() {
                run.push(scores[i], labels[i]).unwrap();
                assert!(
                    run.pending.len() < max_exact,
                    "pending scores stay within the budget"
                );
                if i % 37 == 0 || i + 1 == scores.len() {
                    let Ok(exact) = auc(&scores[..=i], &labels[..=i]) else {
                        continue;
                    };
                    let got = run.auc().unwrap();
                    let bound = run.error_bound();
                    assert!(
                        (got - exact).abs() <= bound + 1e-12,
                        "seed {seed} prefix {}: {got} vs {exact}, bound {bound}",
                        i + 1
                    );
                    if !run.is_folded() {
                        assert_eq!(bound, 0.0);
                        assert_eq!(got.to_bits(), exact.to_bits());
                    }
                    folded_seen |= run.is_folded();
                    assert!(run.folded.bins.len() <= bins, "{}", run.folded.bins.len());
                    let stored: usize = run.pos.iter().chain(&run.neg).map(Vec::len).sum();
                    assert!(stored <= max_exact, "{stored} > {max_exact}");
                }
            }
            assert!(folded_seen, "seed {seed}: the budget was never reached");
            let p = labels.iter().filter(|l| l.is_pos()).count() as u64;
            assert_eq!(run.class_counts(), (p, 3000 - p));
        }
    }

    /// With a budget no stream of this length reaches, bounded equals exact bit for bit; with
    /// a realistic budget on a stationary stream the bound is small.
    #[test]
    fn the_bound_is_zero_unfolded_and_small_with_enough_intervals() {
        let (scores, labels) = drifting_stream(5000, 23);
        let mut exact = RunningAuc::new();
        let mut roomy = RunningAuc::bounded(10_000, 4);
        for (&s, &y) in scores.iter().zip(&labels) {
            exact.push(s, y).unwrap();
            roomy.push(s, y).unwrap();
        }
        assert_eq!(
            exact.auc().unwrap().to_bits(),
            roomy.auc().unwrap().to_bits()
        );
        assert_eq!(roomy.error_bound(), 0.0);
        assert!(!roomy.is_folded());
        // Continuous scores from a fixed distribution, 1,000 intervals after 2,000 scores.
        let mut state = 99u64;
        let mut unit = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut all_s, mut all_y) = (Vec::new(), Vec::new());
        let mut run = RunningAuc::bounded(2000, 1000);
        for _ in 0..50_000 {
            let y = if unit() < 0.1 { Pos } else { Neg };
            let s = unit() + if y.is_pos() { 0.3 } else { 0.0 };
            run.push(s, y).unwrap();
            all_s.push(s);
            all_y.push(y);
        }
        let exact = auc(&all_s, &all_y).unwrap();
        let (got, bound) = (run.auc().unwrap(), run.error_bound());
        assert!(run.is_folded());
        assert!((got - exact).abs() <= bound);
        assert!(bound < 2e-3, "bound {bound}");
    }
}
