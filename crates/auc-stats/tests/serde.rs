//! Saved moments: the postcard round trip is bit-exact, and no byte string makes decoding panic.

use auc_core::{Label, Row};
use auc_stats::{ClassMoments, FORMAT_VERSION, Moments, StatsError};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

/// Moments of `n` seeded dense rows of `p` features around `offset`, labels alternating.
fn moments(seed: u64, n: usize, p: usize, offset: f64) -> Moments {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut m = Moments::new(p);
    for k in 0..n {
        let x: Vec<f64> = (0..p)
            .map(|_| offset + rng.random_range(-1.0..1.0))
            .collect();
        let y = if k % 3 == 0 { Label::Pos } else { Label::Neg };
        m.update(Row::Dense(&x), y);
    }
    m
}

/// Bit-exact equality: every count, mean and covariance entry has the same bits.
fn assert_bit_exact(a: &ClassMoments, b: &ClassMoments) {
    assert_eq!(a.count(), b.count());
    assert_eq!(a.dim(), b.dim());
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(a.mean()), bits(b.mean()));
    assert_eq!(bits(&a.cov_dense()), bits(&b.cov_dense()));
}

#[test]
fn round_trip_is_bit_exact() {
    for (p, n, offset) in [
        (0, 0, 0.0),
        (3, 0, 0.0),
        (1, 1, 0.5),
        (5, 40, 1e6),
        (9, 200, -2.0),
    ] {
        let m = moments(7, n, p, offset);
        let back = Moments::from_bytes(&m.to_bytes()).expect("own encoding decodes");
        assert_eq!(back, m);
        assert_bit_exact(&back.pos, &m.pos);
        assert_bit_exact(&back.neg, &m.neg);
        let one = ClassMoments::from_bytes(&m.neg.to_bytes()).expect("own encoding decodes");
        assert_bit_exact(&one, &m.neg);
        // The serde impls (for embedding in saved models) agree with to_bytes.
        let via_serde: ClassMoments =
            postcard::from_bytes(&postcard::to_allocvec(&m.neg).expect("serializes"))
                .expect("deserializes");
        assert_eq!(via_serde, m.neg);
        let via_serde: Moments =
            postcard::from_bytes(&postcard::to_allocvec(&m).expect("serializes"))
                .expect("deserializes");
        assert_eq!(via_serde, m);
    }
}

#[test]
fn decoded_moments_keep_updating_like_the_original() {
    let mut m = moments(8, 30, 4, 0.0);
    let mut back = Moments::from_bytes(&m.to_bytes()).expect("own encoding decodes");
    let x = [0.5, -0.25, 1.0, 2.0];
    m.update(Row::Dense(&x), Label::Pos);
    back.update(Row::Dense(&x), Label::Pos);
    assert_eq!(back, m);
}

#[test]
fn other_format_versions_are_rejected_with_a_clear_error() {
    let m = moments(9, 10, 3, 0.0);
    for (bytes, what) in [(m.pos.to_bytes(), "class"), (m.to_bytes(), "pair")] {
        // The version is the first field, a postcard varint: version 1 is the single byte 0x01.
        assert_eq!(bytes[0], 1, "{what}");
        let mut future = bytes.clone();
        future[0] = 2;
        let expected = StatsError::UnsupportedVersion {
            found: 2,
            supported: FORMAT_VERSION,
        };
        let err = if what == "class" {
            ClassMoments::from_bytes(&future).expect_err("version 2 is unknown")
        } else {
            Moments::from_bytes(&future).expect_err("version 2 is unknown")
        };
        assert_eq!(err, expected, "{what}");
        assert_eq!(
            err.to_string(),
            "saved moments have format version 2, this build reads only version 1"
        );
    }
    // A version of a class nested in a pair is checked too.
    let mut nested = m.to_bytes();
    nested[1] = 7;
    assert!(matches!(
        Moments::from_bytes(&nested),
        Err(StatsError::UnsupportedVersion { found: 7, .. })
    ));
}

#[test]
fn truncated_and_extended_bytes_are_errors() {
    let m = moments(10, 25, 4, 3.0);
    let bytes = m.to_bytes();
    for len in 0..bytes.len() {
        assert!(Moments::from_bytes(&bytes[..len]).is_err(), "len {len}");
        assert!(
            ClassMoments::from_bytes(&bytes[..len]).is_err(),
            "len {len}"
        );
    }
    let mut longer = m.pos.to_bytes();
    longer.push(0);
    assert_eq!(
        ClassMoments::from_bytes(&longer),
        Err(StatsError::TrailingBytes {
            what: "class moments",
            count: 1
        })
    );
}

/// The wire layout of version 1, written by hand to forge invalid values.
#[derive(Serialize)]
struct Forged {
    format_version: u32,
    n: u64,
    mean: Vec<f64>,
    comoment: Vec<f64>,
}

fn forge(n: u64, mean: Vec<f64>, comoment: Vec<f64>) -> Result<ClassMoments, StatsError> {
    let bytes = postcard::to_allocvec(&Forged {
        format_version: FORMAT_VERSION,
        n,
        mean,
        comoment,
    })
    .expect("serializes");
    ClassMoments::from_bytes(&bytes)
}

#[test]
fn impossible_values_are_rejected() {
    // p = 2 needs 3 packed values.
    assert!(forge(2, vec![0.0, 1.0], vec![1.0, 0.0, 1.0]).is_ok());
    assert_eq!(
        forge(2, vec![0.0, 1.0], vec![1.0, 0.0]),
        Err(StatsError::Shape {
            what: "covariance",
            expected: 3,
            found: 2
        })
    );
    assert!(matches!(
        forge(2, vec![f64::NAN, 1.0], vec![1.0, 0.0, 1.0]),
        Err(StatsError::InvalidValue {
            what: "mean",
            index: 0,
            ..
        })
    ));
    assert!(matches!(
        forge(2, vec![0.0, 1.0], vec![1.0, f64::INFINITY, 1.0]),
        Err(StatsError::InvalidValue {
            what: "covariance",
            index: 1,
            ..
        })
    ));
    // A negative variance (packed position 2 is the second diagonal entry).
    assert!(matches!(
        forge(2, vec![0.0, 1.0], vec![1.0, 0.0, -1.0]),
        Err(StatsError::InvalidValue {
            what: "covariance",
            index: 2,
            ..
        })
    ));
    assert_eq!(
        forge(0, vec![0.0, 1.0], vec![0.0; 3]),
        Err(StatsError::NonZeroEmpty)
    );
    // Two classes of different dimensions.
    let pair = (FORMAT_VERSION, ClassMoments::new(2), ClassMoments::new(3));
    let bytes = postcard::to_allocvec(&pair).expect("serializes");
    assert_eq!(
        Moments::from_bytes(&bytes),
        Err(StatsError::DimMismatch { pos: 2, neg: 3 })
    );
    // Messages say what is wrong and where.
    let err = forge(2, vec![0.0, 1.0], vec![1.0, 0.0]).expect_err("shape");
    assert_eq!(
        err.to_string(),
        "saved moments: covariance has 2 values, the dimension requires 3"
    );
}

proptest! {
    #![proptest_config(Config {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/serde.txt",
        ))),
        ..Config::default()
    })]

    /// Any byte string decodes to a value or an error, never a panic.
    #[test]
    fn prop_random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = ClassMoments::from_bytes(&bytes);
        let _ = Moments::from_bytes(&bytes);
        // With the right version in front, decoding gets past the version check.
        let mut versioned = vec![1u8];
        versioned.extend_from_slice(&bytes);
        let _ = ClassMoments::from_bytes(&versioned);
        let _ = Moments::from_bytes(&versioned);
    }

    /// A valid encoding with some bytes overwritten or cut decodes to a value or an error, never
    /// a panic; a decoded value re-encodes to the same bytes.
    #[test]
    fn prop_corrupted_encodings_never_panic(
        seed in any::<u64>(),
        p in 0usize..5,
        n in 0usize..8,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let m = moments(seed, n, p, 0.0);
        let mut bytes = m.to_bytes();
        for (at, v) in &edits {
            let k = at.index(bytes.len());
            bytes[k] = *v;
        }
        if let Ok(back) = Moments::from_bytes(&bytes) {
            prop_assert_eq!(back.to_bytes(), bytes.clone());
        }
        let len = cut.index(bytes.len() + 1);
        let _ = Moments::from_bytes(&bytes[..len]);
        let _ = ClassMoments::from_bytes(&bytes[..len]);
    }
}
