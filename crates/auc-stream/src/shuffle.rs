//! The order a learning pass feeds rows in ([`Shuffle`], a bounded shuffle buffer) and the last
//! scores a pass keeps ([`Window`]). Both hold rows or scores, never a learner.

use auc_core::{Label, Row, RowBuf};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::Error;

/// A bounded shuffle buffer: rows enter until it holds `cap`, then each new row replaces a
/// uniformly drawn buffered one, which is emitted; at the end the rows left are emitted in a
/// random permutation. When the input has at most `cap` rows no draw happens before the end,
/// and the order is the full permutation [`permutation`] gives with the same seed (the order of
/// `--shuffle-full`).
pub struct Shuffle {
    rows: Vec<(RowBuf, Label)>,
    cap: usize,
    rng: StdRng,
}

impl Shuffle {
    /// An empty buffer of `cap` rows (at least one) drawing from `seed`.
    pub fn new(seed: u64, cap: u64) -> Self {
        Shuffle {
            rows: Vec::new(),
            cap: usize::try_from(cap).unwrap_or(usize::MAX).max(1),
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// The rows it holds when full.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// Takes `(x, y)`, emitting a buffered row once the buffer is full.
    pub fn push(
        &mut self,
        x: Row<'_>,
        y: Label,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        if self.rows.len() < self.cap {
            self.rows.push((RowBuf::from_row(x), y));
            return Ok(());
        }
        let k = self.rng.random_range(0..self.cap);
        let (buf, label) = &mut self.rows[k];
        emit(buf.as_row(), *label)?;
        buf.assign(x);
        *label = y;
        Ok(())
    }

    /// Emits the rows left, in a random permutation.
    pub fn finish(
        &mut self,
        emit: &mut impl FnMut(Row<'_>, Label) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut idx: Vec<usize> = (0..self.rows.len()).collect();
        idx.shuffle(&mut self.rng);
        for i in idx {
            let (buf, label) = &self.rows[i];
            emit(buf.as_row(), *label)?;
        }
        self.rows.clear();
        Ok(())
    }
}

/// The positions `0..n` in the random order drawn from `seed`: the order of a whole input
/// shuffled in memory, which a [`Shuffle`] of at least `n` rows reproduces on a stream.
pub fn permutation(n: usize, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.shuffle(&mut StdRng::seed_from_u64(seed));
    idx
}

/// The last `cap` finite scores and their labels, oldest overwritten first: the window of
/// `auc stream --window` and the scores a prequential calibration fits on (the latest come
/// from the most trained learner).
pub struct Window {
    cap: usize,
    /// The scores kept, in ring order.
    pub scores: Vec<f64>,
    /// Their labels.
    pub labels: Vec<Label>,
    next: usize,
    /// Scores that were not finite, left out.
    pub non_finite: u64,
}

impl Window {
    /// An empty window of `cap` scores.
    pub fn new(cap: usize) -> Self {
        Window {
            cap,
            scores: Vec::new(),
            labels: Vec::new(),
            next: 0,
            non_finite: 0,
        }
    }

    /// Keeps `(s, y)`, overwriting the oldest score once full; a score that is not finite is
    /// only counted.
    pub fn push(&mut self, s: f64, y: Label) {
        if !s.is_finite() {
            self.non_finite += 1;
        } else if self.scores.len() < self.cap {
            self.scores.push(s);
            self.labels.push(y);
        } else {
            self.scores[self.next] = s;
            self.labels[self.next] = y;
            self.next = (self.next + 1) % self.cap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows `0..n` as one-feature rows holding their index, through a buffer of `cap`: the
    /// indices in the emitted order.
    fn order(n: usize, cap: u64, seed: u64) -> Vec<usize> {
        let mut s = Shuffle::new(seed, cap);
        let mut out = Vec::new();
        let mut emit = |x: Row<'_>, _y: Label| -> Result<(), Error> {
            let Row::Dense(v) = x else {
                panic!("dense in, dense out")
            };
            out.push(v[0] as usize);
            Ok(())
        };
        for i in 0..n {
            s.push(Row::Dense(&[i as f64]), Label::Pos, &mut emit)
                .unwrap();
        }
        s.finish(&mut emit).unwrap();
        out
    }

    #[test]
    fn a_buffer_holding_the_input_gives_the_full_permutation() {
        assert_eq!(order(50, 50, 3), permutation(50, 3));
        assert_eq!(order(50, 1000, 3), permutation(50, 3));
    }

    #[test]
    fn a_smaller_buffer_emits_every_row_once_in_another_order() {
        let o = order(200, 20, 3);
        assert_ne!(o, permutation(200, 3));
        let mut sorted = o.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..200).collect::<Vec<_>>());
        assert_eq!(o, order(200, 20, 3), "seeded");
    }

    #[test]
    fn the_window_keeps_the_last_finite_scores() {
        let mut w = Window::new(3);
        for (i, s) in [1.0, f64::NAN, 2.0, 3.0, 4.0].into_iter().enumerate() {
            w.push(s, if i % 2 == 0 { Label::Pos } else { Label::Neg });
        }
        let mut kept = w.scores.clone();
        kept.sort_by(f64::total_cmp);
        assert_eq!(kept, vec![2.0, 3.0, 4.0]);
        assert_eq!(w.non_finite, 1);
    }
}
