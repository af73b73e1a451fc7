//! Public-API tests of the stratified folds: partitions stratified by class, determinism, the
//! repeated splits, and the errors of absurd fold and repeat counts (moved from `auc-eval`'s
//! `tests/cv_protocol.rs` with the folds).

use auc_core::Label;
use auc_core::Label::{Neg, Pos};
use auc_metrics::folds::{FoldError, MAX_SPLITS, repeated_stratified_kfold, stratified_kfold};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Checks that `folds` partition `0..labels.len()` with floor/ceil class counts per fold, sizes
/// within one of each other, and sorted indices.
fn check_folds(labels: &[Label], k: usize, folds: &[Vec<usize>]) {
    assert_eq!(folds.len(), k);
    let mut seen = vec![0usize; labels.len()];
    for f in folds {
        assert!(f.windows(2).all(|w| w[0] < w[1]), "fold indices increase");
        for &i in f {
            seen[i] += 1;
        }
    }
    assert!(
        seen.iter().all(|&c| c == 1),
        "every row in exactly one fold"
    );
    for class in [Pos, Neg] {
        let total = labels.iter().filter(|&&l| l == class).count();
        for f in folds {
            let c = f.iter().filter(|&&i| labels[i] == class).count();
            assert!(
                c == total / k || c == total.div_ceil(k),
                "class {class}: {c} of {total} in a fold"
            );
        }
    }
    let sizes: Vec<usize> = folds.iter().map(Vec::len).collect();
    let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
    assert!(hi - lo <= 1, "fold sizes {sizes:?}");
}

fn labels_of(pattern: &[(Label, usize)]) -> Vec<Label> {
    pattern
        .iter()
        .flat_map(|&(l, n)| std::iter::repeat_n(l, n))
        .collect()
}

#[test]
fn folds_partition_and_stratify() {
    let labels = labels_of(&[(Pos, 7), (Neg, 23), (Pos, 4)]);
    for k in [2, 3, 5, 11] {
        let folds = stratified_kfold(&labels, k, 3).unwrap();
        check_folds(&labels, k, &folds);
    }
}

#[test]
fn folds_are_deterministic_and_depend_on_the_seed() {
    let labels = labels_of(&[(Pos, 10), (Neg, 30)]);
    let a = stratified_kfold(&labels, 5, 42).unwrap();
    assert_eq!(a, stratified_kfold(&labels, 5, 42).unwrap());
    assert_ne!(a, stratified_kfold(&labels, 5, 43).unwrap());
}

#[test]
fn folds_reject_too_few_folds_or_examples() {
    let labels = labels_of(&[(Pos, 3), (Neg, 30)]);
    assert_eq!(
        stratified_kfold(&labels, 1, 0),
        Err(FoldError::FoldCount { k: 1 })
    );
    assert_eq!(
        stratified_kfold(&labels, 0, 0),
        Err(FoldError::FoldCount { k: 0 })
    );
    let e = stratified_kfold(&labels, 4, 0).unwrap_err();
    assert_eq!(
        e,
        FoldError::Folds {
            class: Pos,
            count: 3,
            k: 4,
            part: "the data".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "cannot make 4 stratified folds of the data: class +1 has only 3 example(s), fewer than 4"
    );
    let no_neg = labels_of(&[(Pos, 9)]);
    assert!(matches!(
        stratified_kfold(&no_neg, 2, 0),
        Err(FoldError::Folds {
            class: Neg,
            count: 0,
            ..
        })
    ));
}

#[test]
fn repeated_splits_pair_each_fold_with_its_complement() {
    let labels = labels_of(&[(Neg, 12), (Pos, 8)]);
    let splits = repeated_stratified_kfold(&labels, 4, 3, 5).unwrap();
    assert_eq!(splits.len(), 12);
    for (i, s) in splits.iter().enumerate() {
        assert_eq!((s.repeat, s.fold), (i / 4, i % 4));
        assert!(s.train.windows(2).all(|w| w[0] < w[1]));
        let mut all: Vec<usize> = s.train.iter().chain(&s.test).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
    }
    for r in 0..3 {
        let folds: Vec<Vec<usize>> = splits[r * 4..r * 4 + 4]
            .iter()
            .map(|s| s.test.clone())
            .collect();
        check_folds(&labels, 4, &folds);
    }
    assert_ne!(
        splits[0].test, splits[4].test,
        "repeats use different seeds"
    );
    assert!(matches!(
        repeated_stratified_kfold(&labels, 4, 0, 5),
        Err(FoldError::Config {
            name: "repeats",
            ..
        })
    ));
}

/// Hostile input, item 2: `auc cv --folds 18446744073709551615` panicked with "capacity
/// overflow" (the splits' capacity `repeats * folds` was reserved before the fold count was
/// checked). Absurd fold and repeat counts are now errors that name the cause, found before
/// anything is allocated.
#[test]
fn hostile_2_absurd_fold_counts() {
    let labels = labels_of(&[(Neg, 12), (Pos, 8)]);
    let e = repeated_stratified_kfold(&labels, usize::MAX, 1, 5).unwrap_err();
    assert_eq!(
        e,
        FoldError::Folds {
            class: Pos,
            count: 8,
            k: usize::MAX,
            part: "the data".into()
        }
    );
    // More folds than rows, and more folds than the smaller class.
    assert!(matches!(
        repeated_stratified_kfold(&labels, 21, 1, 5),
        Err(FoldError::Folds {
            count: 8,
            k: 21,
            ..
        })
    ));
    assert!(matches!(
        repeated_stratified_kfold(&labels, 9, 4, 5),
        Err(FoldError::Folds { count: 8, k: 9, .. })
    ));
    // Repeats whose product with the folds overflows, or exceeds the split limit.
    for repeats in [usize::MAX, usize::MAX / 2 + 1, MAX_SPLITS / 4 + 1] {
        let e = repeated_stratified_kfold(&labels, 4, repeats, 5).unwrap_err();
        assert!(
            matches!(e, FoldError::Config { name: "repeats", value, .. } if value == repeats),
            "{e:?}"
        );
        assert!(e.to_string().contains("a million train/test splits"), "{e}");
    }
}

/// Random labels and k (fixed seeds): either a stratified partition, or an error that is justified.
#[test]
fn folds_partition_random_labels() {
    let mut rng = StdRng::seed_from_u64(99);
    for _ in 0..200 {
        let n = rng.random_range(0..80);
        let rate: f64 = rng.random();
        let labels: Vec<Label> = (0..n)
            .map(|_| if rng.random::<f64>() < rate { Pos } else { Neg })
            .collect();
        let k = rng.random_range(2..8);
        let pos = labels.iter().filter(|l| l.is_pos()).count();
        let smallest = pos.min(n - pos);
        match stratified_kfold(&labels, k, rng.random()) {
            Ok(folds) => check_folds(&labels, k, &folds),
            Err(FoldError::Folds { count, k: kk, .. }) => {
                assert!(count < kk && smallest < k, "count {count}, k {kk}")
            }
            Err(e) => panic!("unexpected error {e}"),
        }
    }
}
