//! The bootstrap intervals of `auc_metrics::bootstrap`: reproducible from the seed, stratified,
//! and, for the AUC, in agreement with DeLong's standard error (which the bootstrap estimates by
//! another route [Efron93]).

use auc_core::Label;
use auc_metrics::bootstrap::{BootstrapParams, bootstrap};
use auc_metrics::delong::delong;
use auc_metrics::metrics::{MetricError, auc, average_precision};
use auc_metrics::partial::partial_auc;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `n` seeded scores (two decimals, so ties occur) for about 30 % positives shifted up by 0.8.
fn data(n: usize, seed: u64) -> (Vec<f64>, Vec<Label>) {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let pos = i == 0 || (i != 1 && rng.random::<f64>() < 0.3);
            let s: f64 = rng.random::<f64>() + rng.random::<f64>() + if pos { 0.8 } else { 0.0 };
            (
                (s * 100.0).round() / 100.0,
                if pos { Label::Pos } else { Label::Neg },
            )
        })
        .unzip()
}

fn params(replicates: usize, seed: u64) -> BootstrapParams {
    BootstrapParams {
        replicates,
        seed,
        level: 0.95,
        max_fpr: Some(0.2),
    }
}

#[test]
fn same_seed_same_interval_other_seed_other_draws() {
    let (s, y) = data(500, 1);
    let a = bootstrap(&s, &y, &params(200, 9)).unwrap();
    let b = bootstrap(&s, &y, &params(200, 9)).unwrap();
    let c = bootstrap(&s, &y, &params(200, 10)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a.auc, c.auc);
    assert_eq!((a.replicates, a.seed), (200, 9));
}

#[test]
fn intervals_hold_the_estimates_and_the_auc_se_matches_delong() {
    let (s, y) = data(3000, 2);
    let ci = bootstrap(&s, &y, &params(2000, 3)).unwrap();
    let point = [
        (ci.auc, auc(&s, &y).unwrap()),
        (ci.ap, average_precision(&s, &y).unwrap()),
        (
            ci.pauc.unwrap(),
            partial_auc(&s, &y, 0.2).unwrap().standardized,
        ),
    ];
    for (iv, x) in point {
        assert!(iv.lower < x && x < iv.upper, "{iv:?} misses {x}");
        assert!(iv.se > 0.0);
    }
    // DeLong's se and the bootstrap's estimate the same spread; with 2000 replicates the
    // bootstrap se has a relative error of about 1/sqrt(2 * 2000) = 1.6 %; 10 % is a loose bound.
    let d = delong(&s, &y).unwrap();
    let ratio = ci.auc.se / d.se();
    assert!(
        (ratio - 1.0).abs() < 0.1,
        "bootstrap se / DeLong se = {ratio}"
    );
    // No partial AUC unless asked for.
    let plain = bootstrap(
        &s,
        &y,
        &BootstrapParams {
            max_fpr: None,
            ..params(50, 3)
        },
    )
    .unwrap();
    assert!(plain.pauc.is_none());
}

#[test]
fn bad_settings_are_errors() {
    let (s, y) = data(50, 4);
    assert!(matches!(
        bootstrap(&s, &y, &params(1, 0)),
        Err(MetricError::Setting {
            name: "replicates",
            ..
        })
    ));
    let bad_level = BootstrapParams {
        level: 1.0,
        ..params(10, 0)
    };
    assert!(matches!(
        bootstrap(&s, &y, &bad_level),
        Err(MetricError::Setting { name: "level", .. })
    ));
    let bad_fpr = BootstrapParams {
        max_fpr: Some(0.0),
        ..params(10, 0)
    };
    assert!(matches!(
        bootstrap(&s, &y, &bad_fpr),
        Err(MetricError::MaxFpr { .. })
    ));
    let one_class = vec![Label::Pos; 4];
    assert_eq!(
        bootstrap(&[1.0, 2.0, 3.0, 4.0], &one_class, &params(10, 0)),
        Err(MetricError::SingleClass { pos: 4, neg: 0 })
    );
}
