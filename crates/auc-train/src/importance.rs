//! Permutation importance ([`permutation_importance`]): the drop in AUC when one input column's
//! values are shuffled across the rows, for any model (Breiman 2001, sec. 10; the model-agnostic
//! form of Fisher, Rudin and Dominici 2019), computed as scikit-learn's
//! `sklearn.inspection.permutation_importance(model, X, y, scoring="roc_auc", n_repeats,
//! random_state)` computes it, permutation for permutation:
//!
//! 1. a generator seeded with `seed` (numpy's legacy `RandomState`, the Mersenne Twister
//!    MT19937 of Matsumoto and Nishimura 1998, seeded by `init_genrand`) draws one column seed,
//!    an integer below $2^{31}$;
//! 2. for each column, a generator seeded with that column seed shuffles the row indices
//!    $0..n$ in place once per repeat (numpy's Fisher-Yates with masked rejection), and each
//!    repeat replaces the column by its current values taken in the order of the shuffled
//!    indices (so the repeats compose, as scikit-learn's do);
//! 3. the importance of a repeat is the AUC of the rows as read minus the AUC after that
//!    repeat's permutation; the mean and the standard deviation (divided by the number of
//!    repeats, numpy's default) summarize the repeats.
//!
//! A table column encoded as several features (one-hot categories, a "missing" indicator) is
//! shuffled as one: its features move together, as the column of a data frame does.

use std::ops::Range;

use auc_core::{Dataset, Label};
use auc_learners::Model;
use auc_prep::Preparation;
use rayon::prelude::*;

use crate::Error;

/// One input column: its name and the features it is encoded as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputColumn {
    /// The name: a table's or CSV header's column name, `f3` for LIBSVM feature 3.
    pub name: String,
    /// Its features among the rows as read.
    pub features: Range<usize>,
}

/// The importance of one column over the repeats.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnImportance {
    /// The column's name.
    pub name: String,
    /// The AUC drop of each repeat.
    pub drops: Vec<f64>,
    /// Their mean.
    pub mean: f64,
    /// Their standard deviation (population: divided by the count).
    pub std: f64,
}

/// Permutation importance of every column ([`permutation_importance`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Importance {
    /// The AUC of the rows as read.
    pub baseline: f64,
    /// One entry per column, in column order.
    pub columns: Vec<ColumnImportance>,
}

/// The input columns of a model's data: a table's columns (each with all its features), a CSV
/// header's names, else one column per feature (`f1`.. for LIBSVM, `f0`.. 0-based, `hash #k`
/// for hashed features).
///
/// # Errors
/// A model with feature crosses: a cross is computed from two columns as they are read, so
/// shuffling one column would need the crosses computed again.
pub fn input_columns(prep: &Preparation) -> Result<Vec<InputColumn>, Error> {
    if prep.cross_bits.is_some() {
        return Err(Error::input(
            "permutation importance of a model with feature crosses (--cross) is not computed: a shuffled column would leave its crosses unshuffled",
        ));
    }
    if let Some(schema) = prep.reading.schema() {
        return Ok(schema
            .columns
            .iter()
            .map(|c| InputColumn {
                name: c.name.clone(),
                features: c.first..c.first + c.encoding.width(),
            })
            .collect());
    }
    Ok(prep
        .feature_names()
        .into_iter()
        .enumerate()
        .map(|(j, name)| InputColumn {
            name,
            features: j..j + 1,
        })
        .collect())
}

/// The Mersenne Twister MT19937 as numpy's legacy `RandomState(seed)` runs it for an integer
/// seed (Matsumoto and Nishimura 1998, `init_genrand` and `genrand_int32`).
struct Mt19937 {
    state: [u32; 624],
    pos: usize,
}

impl Mt19937 {
    fn new(seed: u32) -> Mt19937 {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        Mt19937 { state, pos: 624 }
    }

    fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX: u32 = 0x9908_b0df;
        if self.pos >= 624 {
            for i in 0..624 {
                let y = (self.state[i] & UPPER) | (self.state[(i + 1) % 624] & LOWER);
                let mut v = self.state[(i + 397) % 624] ^ (y >> 1);
                if y & 1 == 1 {
                    v ^= MATRIX;
                }
                self.state[i] = v;
            }
            self.pos = 0;
        }
        let mut y = self.state[self.pos];
        self.pos += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// An integer in `0..=max` by masked rejection (numpy's `random_interval`, for `max` below
    /// $2^{32}$).
    fn interval(&mut self, max: u32) -> u32 {
        if max == 0 {
            return 0;
        }
        let mut mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        loop {
            let v = self.next_u32() & mask;
            if v <= max {
                return v;
            }
        }
    }

    /// Shuffles `x` in place as numpy's legacy `RandomState.shuffle` does a 1-d array.
    fn shuffle(&mut self, x: &mut [usize]) {
        for i in (1..x.len()).rev() {
            // Row counts are below 2^32: the permuted rows are held dense in memory.
            let j = self.interval(i as u32) as usize;
            x.swap(i, j);
        }
    }
}

/// The row orders of the repeats of one column seeded with `seed` (the cumulative shuffles of
/// the module docs, step 2); `pub` for the test against numpy's.
pub fn shuffles(n: usize, repeats: usize, seed: u32) -> Vec<Vec<usize>> {
    let mut rng = Mt19937::new(seed);
    let mut idx: Vec<usize> = (0..n).collect();
    (0..repeats)
        .map(|_| {
            rng.shuffle(&mut idx);
            idx.clone()
        })
        .collect()
}

/// The column seed drawn from `seed` (the module docs, step 1): numpy's
/// `RandomState(seed).randint(2**31)`.
pub fn column_seed(seed: u32) -> u32 {
    Mt19937::new(seed).next_u32() & 0x7fff_ffff
}

/// The AUC of `model` on `rows` (as read: the model's stages are applied here).
fn auc_of(model: &Model, rows: &Dataset) -> Result<f64, Error> {
    let prepared = model.preparation.apply(rows);
    let scores = model.scores(&prepared)?;
    auc_eval::metrics::auc(&scores, rows.labels()).map_err(|e| Error::input(e.to_string()))
}

/// Permutation importance of `columns` for `model` on `rows` (as read, dense, with the
/// model's dimension: [`crate::Scoring::read_raw`]), `repeats` shuffles each, seeded by `seed`
/// (see the module docs for the exact procedure).
///
/// # Errors
/// Rows of one class (no AUC), no repeats, or a score that is not finite.
pub fn permutation_importance(
    model: &Model,
    rows: &Dataset,
    columns: &[InputColumn],
    repeats: usize,
    seed: u32,
) -> Result<Importance, Error> {
    if repeats == 0 {
        return Err(Error::input("--repeats must be at least 1"));
    }
    let dim = rows.dim();
    let mut values = vec![0.0; rows.n() * dim];
    for (i, (x, _)) in rows.iter().enumerate() {
        x.write_dense(&mut values[i * dim..(i + 1) * dim]);
    }
    let labels: Vec<Label> = rows.labels().to_vec();
    let baseline = auc_of(model, rows)?;
    let col_seed = column_seed(seed);
    let orders = shuffles(rows.n(), repeats, col_seed);
    let result: Result<Vec<ColumnImportance>, Error> = columns
        .par_iter()
        .map(|c| {
            // The column's current values, row by row (its features side by side).
            let f = c.features.clone();
            let width = f.len();
            let mut column: Vec<f64> = (0..rows.n())
                .flat_map(|i| values[i * dim + f.start..i * dim + f.end].iter().copied())
                .collect();
            let mut drops = Vec::with_capacity(repeats);
            for order in &orders {
                column = order
                    .iter()
                    .flat_map(|&from| column[from * width..(from + 1) * width].iter().copied())
                    .collect();
                let mut permuted = values.clone();
                for (i, chunk) in column.chunks_exact(width.max(1)).enumerate() {
                    permuted[i * dim + f.start..i * dim + f.end].copy_from_slice(chunk);
                }
                let data = Dataset::dense(dim, permuted, labels.clone())
                    .map_err(|e| Error::input(e.to_string()))?;
                drops.push(baseline - auc_of(model, &data)?);
            }
            let mean = drops.iter().sum::<f64>() / repeats as f64;
            let var = drops.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / repeats as f64;
            Ok(ColumnImportance {
                name: c.name.clone(),
                drops,
                mean,
                std: var.sqrt(),
            })
        })
        .collect();
    Ok(Importance {
        baseline,
        columns: result?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of MT19937 seeded with 5489 (the reference implementation's default
    /// seed; C++'s `std::mt19937` gives the same), as numpy prints them:
    /// `np.random.RandomState(5489).randint(2**32, size=3, dtype=np.uint64)`.
    #[test]
    fn mersenne_twister_reference_outputs() {
        let mut mt = Mt19937::new(5489);
        let got: Vec<u32> = (0..3).map(|_| mt.next_u32()).collect();
        assert_eq!(got, [3_499_211_612, 581_869_302, 3_890_346_734]);
    }

    /// scikit-learn's column seed for `random_state=7`, as numpy prints it:
    /// `np.random.RandomState(7).randint(np.iinfo(np.int32).max + 1)`.
    #[test]
    fn column_seed_is_numpys_randint() {
        assert_eq!(column_seed(7), 327_741_615);
    }

    /// numpy's `RandomState(3).shuffle(a)` of `a = np.arange(10)`, twice in place.
    const SHUFFLE_3_FIRST: [usize; 10] = [5, 4, 1, 2, 9, 6, 7, 0, 3, 8];
    const SHUFFLE_3_SECOND: [usize; 10] = [2, 3, 1, 4, 8, 9, 5, 7, 0, 6];

    #[test]
    fn shuffles_are_numpys() {
        let got = shuffles(10, 2, 3);
        assert_eq!(got[0], SHUFFLE_3_FIRST);
        assert_eq!(got[1], SHUFFLE_3_SECOND);
    }
}
