//! Stratified k-fold splits, repeated with seeds derived from one base seed (conventions sections 1, 8).
//!
//! Every class is shuffled by a seeded RNG and dealt round-robin to the folds, so each fold holds
//! $\lfloor n_c / k \rfloor$ or $\lceil n_c / k \rceil$ examples of each class $c$. The deal of
//! the negatives continues where the positives stopped, so the fold sizes also differ by at most
//! one. Seeds for the repeats (and for everything else the protocol draws) come from
//! [`derive_seed`], a splitmix64 mix of the base seed and a path of integers: never from the
//! thread that happens to run the job.
//!
//! | symbol | Rust name | meaning |
//! |---|---|---|
//! | $k$ | `k` | number of folds |
//! | $R$ | `repeats` | number of independent repetitions of the k-fold split |
//! | $n_c$ | [`FoldError::Folds`]`.count` | examples of class $c$ |

use std::fmt;

use auc_core::Label;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::Serialize;

/// Why stratified folds could not be made. The evaluation protocol's error has a variant of the
/// same name and message for each, so it reports them unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
// Not `#[non_exhaustive]`: `auc_eval::EvalError` converts every variant, so a new one must
// be converted there too.
pub enum FoldError {
    /// A class has fewer examples than there are folds, so stratified folds cannot exist.
    Folds {
        /// The class that is too small.
        class: Label,
        /// How many examples it has in `part`.
        count: usize,
        /// The number of folds asked for.
        k: usize,
        /// Which rows were being split, e.g. `"the data"`.
        part: String,
    },
    /// Fewer than two folds were asked for.
    FoldCount {
        /// The number asked for.
        k: usize,
    },
    /// A setting is out of range (`repeats = 0`, or more than [`MAX_SPLITS`] splits).
    Config {
        /// The setting's name.
        name: &'static str,
        /// Its value.
        value: usize,
        /// The allowed values, in words.
        allowed: &'static str,
    },
}

impl fmt::Display for FoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FoldError::Folds {
                class,
                count,
                k,
                part,
            } => write!(
                f,
                "cannot make {k} stratified folds of {part}: class {class} has only {count} \
                 example(s), fewer than {k}"
            ),
            FoldError::FoldCount { k } => write!(f, "{k} fold(s) asked for; at least 2 are needed"),
            FoldError::Config {
                name,
                value,
                allowed,
            } => {
                write!(f, "{name} = {value} is out of range: it must be {allowed}")
            }
        }
    }
}

impl std::error::Error for FoldError {}

/// One train/test split of a repeated k-fold cross-validation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Split {
    /// Which repetition (0-based).
    pub repeat: usize,
    /// Which fold of that repetition is the test part (0-based).
    pub fold: usize,
    /// Row indices of the training part, in increasing order.
    pub train: Vec<usize>,
    /// Row indices of the test part, in increasing order.
    pub test: Vec<usize>,
}

/// The splitmix64 finalizer: a bijection on `u64` that spreads every input bit over the output.
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed for one random choice, derived from the base `seed` and a `path` naming the choice
/// (for example `[purpose, repeat, fold, inner_fold]`).
///
/// Different paths give unrelated seeds, and the result depends on nothing but the arguments, so
/// a computation seeded this way gives the same bits on any number of threads.
///
/// ```
/// use auc_metrics::folds::derive_seed;
/// assert_eq!(derive_seed(7, &[1, 2]), derive_seed(7, &[1, 2]));
/// assert_ne!(derive_seed(7, &[1, 2]), derive_seed(7, &[2, 1]));
/// ```
pub fn derive_seed(seed: u64, path: &[u64]) -> u64 {
    path.iter().fold(splitmix64(seed), |h, &p| {
        splitmix64(h ^ splitmix64(p ^ 0x5851_F42D_4C95_7F2D))
    })
}

/// Seed-path tag for the outer fold assignment of one repetition.
pub(crate) const TAG_OUTER_FOLDS: u64 = 1;

/// The most train/test splits (`repeats * k`) [`repeated_stratified_kfold`] makes. Each split
/// holds every row index once, so a million splits of 1,000 rows are already 8 GB; larger counts
/// are typing mistakes (`--repeats 18446744073709551615`), refused before anything is allocated.
pub const MAX_SPLITS: usize = 1_000_000;

/// The checks of [`stratified_kfold`] on `k`, done before anything is allocated: `k >= 2`, and
/// both classes hold at least `k` examples (so `k` is at most half the rows).
fn check_fold_count(labels: &[Label], k: usize) -> Result<(), FoldError> {
    if k < 2 {
        return Err(FoldError::FoldCount { k });
    }
    // Report the smaller class, so data holding one class only names the absent one (count 0).
    let pos = labels.iter().filter(|l| l.is_pos()).count();
    let (class, count) = if pos <= labels.len() - pos {
        (Label::Pos, pos)
    } else {
        (Label::Neg, labels.len() - pos)
    };
    if count < k {
        return Err(FoldError::Folds {
            class,
            count,
            k,
            part: "the data".to_owned(),
        });
    }
    Ok(())
}

/// Splits rows into `k` disjoint test parts that together cover every row, stratified by class.
///
/// The indices of each class are shuffled with `StdRng::seed_from_u64(seed)` and dealt to the
/// folds round-robin; every fold gets $\lfloor n_c/k \rfloor$ or $\lceil n_c/k \rceil$ rows of
/// class $c$. Each fold's indices are returned in increasing order.
///
/// Errors if `k < 2` ([`FoldError::FoldCount`]) or a class has fewer than `k` examples
/// ([`FoldError::Folds`], naming the class, its count and `k`).
pub fn stratified_kfold(
    labels: &[Label],
    k: usize,
    seed: u64,
) -> Result<Vec<Vec<usize>>, FoldError> {
    check_fold_count(labels, k)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut folds: Vec<Vec<usize>> = vec![Vec::with_capacity(labels.len() / k + 2); k];
    let mut next = 0usize;
    for class in [Label::Pos, Label::Neg] {
        let mut idx: Vec<usize> = (0..labels.len()).filter(|&i| labels[i] == class).collect();
        idx.shuffle(&mut rng);
        for i in idx {
            folds[next].push(i);
            next = (next + 1) % k;
        }
    }
    for fold in &mut folds {
        fold.sort_unstable();
    }
    Ok(folds)
}

/// `repeats` independent stratified `k`-fold splits: `repeats * k` train/test pairs ordered by
/// `(repeat, fold)`.
///
/// Repetition `r` uses [`stratified_kfold`] with the seed `derive_seed(seed, &[1, r])`. The
/// training part of each split is every row outside its test fold, in increasing order.
/// Errors as [`stratified_kfold`] does, and with [`FoldError::Config`] if `repeats == 0` or
/// `repeats * k` exceeds [`MAX_SPLITS`]; every check runs before anything is allocated (a fold
/// count of `u64::MAX` once overflowed the capacity computation and panicked).
pub fn repeated_stratified_kfold(
    labels: &[Label],
    k: usize,
    repeats: usize,
    seed: u64,
) -> Result<Vec<Split>, FoldError> {
    if repeats == 0 {
        return Err(FoldError::Config {
            name: "repeats",
            value: 0,
            allowed: "at least 1",
        });
    }
    check_fold_count(labels, k)?;
    let splits = repeats
        .checked_mul(k)
        .filter(|&s| s <= MAX_SPLITS)
        .ok_or(FoldError::Config {
            name: "repeats",
            value: repeats,
            allowed: "at most 1000000 / folds (at most a million train/test splits)",
        })?;
    let mut out = Vec::with_capacity(splits);
    for repeat in 0..repeats {
        let folds = stratified_kfold(
            labels,
            k,
            derive_seed(seed, &[TAG_OUTER_FOLDS, repeat as u64]),
        )?;
        out.extend(splits_of_folds(repeat, folds, labels.len()));
    }
    Ok(out)
}

/// The train/test splits of `folds` (disjoint test parts covering rows `0..n`, as
/// [`stratified_kfold`] gives them) for repetition `repeat`: each fold in turn is the test part,
/// the rows of every other fold the training part, in increasing order.
pub fn splits_of_folds(repeat: usize, folds: Vec<Vec<usize>>, n: usize) -> Vec<Split> {
    let mut owner = vec![0usize; n];
    for (f, fold) in folds.iter().enumerate() {
        for &i in fold {
            owner[i] = f;
        }
    }
    folds
        .into_iter()
        .enumerate()
        .map(|(fold, test)| Split {
            repeat,
            fold,
            train: (0..n).filter(|&i| owner[i] != fold).collect(),
            test,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_is_not_the_identity_and_paths_matter() {
        assert_ne!(splitmix64(0), 0);
        assert_ne!(derive_seed(0, &[]), derive_seed(0, &[0]));
        assert_ne!(derive_seed(0, &[0]), derive_seed(0, &[0, 0]));
        assert_ne!(derive_seed(1, &[3]), derive_seed(3, &[1]));
    }

    #[test]
    fn max_splits_is_the_number_the_error_names() {
        let labels = [Label::Pos, Label::Neg, Label::Pos, Label::Neg];
        let e = repeated_stratified_kfold(&labels, 2, MAX_SPLITS / 2 + 1, 0).unwrap_err();
        assert!(e.to_string().contains("1000000"), "{e}");
    }

    #[test]
    fn fold_sizes_differ_by_at_most_one_overall() {
        // 7 positives and 7 negatives in 3 folds: per class 3/2/2, and continuing the deal gives
        // totals 5/5/4 rather than 6/4/4.
        let labels: Vec<Label> = (0..14)
            .map(|i| if i < 7 { Label::Pos } else { Label::Neg })
            .collect();
        let folds = stratified_kfold(&labels, 3, 9).unwrap();
        let mut sizes: Vec<usize> = folds.iter().map(Vec::len).collect();
        sizes.sort_unstable();
        assert_eq!(sizes, vec![4, 5, 5]);
    }
}
