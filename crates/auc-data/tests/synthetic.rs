//! Seeded synthetic data: class sizes, reproducibility, storage, and parameter checks.

use auc_core::Storage;
use auc_data::{DataError, Synthetic};

fn base() -> Synthetic {
    Synthetic {
        n: 500,
        p: 8,
        ir: 4.0,
        label_noise: 0.0,
        separation: 3.0,
        sparsity: 0.0,
        seed: 11,
    }
}

/// Generates `s` and compares (positives, negatives) and whether storage is sparse.
fn check(s: &Synthetic, counts: (usize, usize), sparse: bool) {
    let d = s.generate().unwrap();
    assert_eq!(d.class_counts(), counts, "{s:?}");
    assert_eq!(d.is_sparse(), sparse, "{s:?}");
    assert_eq!((d.n(), d.dim()), (s.n, s.p));
}

#[test]
fn class_sizes_follow_the_imbalance_ratio() {
    // round(500 / 5) = 100 positives.
    check(&base(), (100, 400), false);
    // round(3 / 10) = 0 -> at least one positive.
    check(
        &Synthetic {
            n: 3,
            ir: 9.0,
            ..base()
        },
        (1, 2),
        false,
    );
    check(
        &Synthetic {
            n: 2,
            ir: 1.0,
            ..base()
        },
        (1, 1),
        false,
    );
}

#[test]
fn label_noise_flips_a_fraction_of_each_class() {
    // 10% of 100 positives and of 400 negatives flip: 100 - 10 + 40 = 130 positives.
    check(
        &Synthetic {
            label_noise: 0.1,
            ..base()
        },
        (130, 370),
        false,
    );
}

#[test]
fn same_seed_same_bits_other_seed_other_data() {
    let a = base().generate().unwrap();
    assert_eq!(a, base().generate().unwrap());
    assert_ne!(a, Synthetic { seed: 12, ..base() }.generate().unwrap());
    let s = Synthetic {
        sparsity: 0.5,
        label_noise: 0.2,
        ..base()
    };
    assert_eq!(s.generate().unwrap(), s.generate().unwrap());
}

#[test]
fn classes_are_shuffled_and_separated() {
    let d = Synthetic {
        n: 2000,
        p: 4,
        separation: 2.0,
        ..base()
    }
    .generate()
    .unwrap();
    let first_pos = d.labels().iter().position(|l| l.is_pos()).unwrap();
    assert!(first_pos < 50, "positives are not all at the end");
    // Mean of feature sums: positives 4 * 2/sqrt(4) = 4, negatives 0; standard error of each mean
    // below sqrt(4 / 400) = 0.1, so the gap is far from noise.
    let (mut sp, mut sn) = (0.0, 0.0);
    for (x, y) in d.iter() {
        let sum: f64 = (0..4).map(|j| x.get(j)).sum();
        if y.is_pos() { sp += sum } else { sn += sum }
    }
    let (np, nn) = d.class_counts();
    let gap = sp / np as f64 - sn / nn as f64;
    assert!((gap - 4.0).abs() < 0.6, "gap {gap}");
}

#[test]
fn sparsity_gives_sparse_storage_with_about_that_density() {
    let d = Synthetic {
        n: 1000,
        p: 20,
        sparsity: 0.9,
        ..base()
    }
    .generate()
    .unwrap();
    assert!(matches!(d.storage(), Storage::Sparse { .. }));
    // Expected density 0.1 over 20000 cells; standard error ~0.002.
    assert!((d.density() - 0.1).abs() < 0.01, "density {}", d.density());
}

#[test]
fn bad_parameters_are_errors() {
    let bad = [
        Synthetic { n: 1, ..base() },
        Synthetic { p: 0, ..base() },
        Synthetic { ir: 0.5, ..base() },
        Synthetic {
            ir: f64::INFINITY,
            ..base()
        },
        Synthetic {
            ir: f64::NAN,
            ..base()
        },
        Synthetic {
            label_noise: 0.5,
            ..base()
        },
        Synthetic {
            label_noise: -0.1,
            ..base()
        },
        Synthetic {
            sparsity: 1.0,
            ..base()
        },
        Synthetic {
            separation: f64::NAN,
            ..base()
        },
    ];
    for s in bad {
        assert!(matches!(s.generate(), Err(DataError::Param(_))), "{s:?}");
    }
}
