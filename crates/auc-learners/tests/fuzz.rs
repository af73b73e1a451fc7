//! Model files mutated at random never panic the reader, and whatever loads scores finitely.
//!
//! Each case takes the golden model of an algorithm and mutates it: flipped bits, overwritten
//! or inserted or removed bytes, a truncation, an edited header, or an edited payload with the
//! length and checksum recomputed (so the decoder and the validation see it, not just the
//! checksum). The test passes if no case panics or aborts, and every model that loads scores
//! the heart rows with finite values.
//!
//! `AUC_FUZZ_CASES=N` sets the number of cases (default 3,000, spread over the algorithms);
//! the figure in the trust issue's resolution is a release run:
//! `AUC_FUZZ_CASES=100000 cargo test --release -p auc-learners --test fuzz`.

mod common;

use auc_learners::{ALL, Error, Model};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Rewrites the header's length and the trailing checksum to match `bytes`' payload, as a
/// crafted file would.
fn reseal(bytes: &mut [u8]) {
    if bytes.len() < 24 {
        return;
    }
    let payload = (bytes.len() - 24) as u64;
    bytes[12..20].copy_from_slice(&payload.to_le_bytes());
    let n = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..n]);
    bytes[n..].copy_from_slice(&crc.to_le_bytes());
}

/// One random mutation of `bytes`.
fn mutate(rng: &mut StdRng, bytes: &mut Vec<u8>) {
    if bytes.is_empty() {
        bytes.push(rng.random());
        return;
    }
    let at = rng.random_range(0..bytes.len());
    match rng.random_range(0..7) {
        0 => bytes[at] ^= 1 << rng.random_range(0..8),
        1 => bytes[at] = rng.random(),
        2 => bytes.insert(at, rng.random()),
        3 => {
            bytes.remove(at);
        }
        4 => bytes.truncate(at),
        5 => {
            // A run of bytes set to an extreme value (lengths, counts, exponents).
            let v: u8 = if rng.random() { 0xff } else { 0x00 };
            let end = (at + rng.random_range(1..9)).min(bytes.len());
            bytes[at..end].iter_mut().for_each(|b| *b = v);
        }
        _ => {
            // An f64 somewhere replaced by NaN, infinity or a huge value.
            let v = [f64::NAN, f64::INFINITY, -1e308, 1e-310][rng.random_range(0..4)];
            let end = (at + 8).min(bytes.len());
            let b = v.to_le_bytes();
            bytes[at..end].copy_from_slice(&b[..end - at]);
        }
    }
}

#[test]
fn mutated_model_files_are_errors_or_finite_models() {
    let cases: usize = std::env::var("AUC_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    // Every algorithm's golden model of the current format (v6), and of the oldest format
    // still read (the top directory) where the algorithm existed then, so both decoders are
    // attacked.
    let dir = common::root().join("crates/auc-learners/tests/golden");
    let golden: Vec<(Vec<u8>, auc_core::Dataset)> = ALL
        .iter()
        .flat_map(|a| {
            [
                dir.join(format!("v6/{}.auc", a.name)),
                dir.join(format!("{}.auc", a.name)),
            ]
        })
        .filter(|path| path.starts_with(dir.join("v6")) || path.exists())
        .map(|path| {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e} (see the golden test)", path.display()));
            let m = Model::from_bytes(&bytes).unwrap();
            // A few rows suffice to catch NaN scores; scoring all rows of every case is slow.
            let rows = common::heart_for(&m);
            let rows = rows.select(&(0..rows.n().min(12)).collect::<Vec<_>>());
            (bytes, rows)
        })
        .collect();
    let mut rng = StdRng::seed_from_u64(20_261_130);
    let (mut loaded, mut refused, mut overflowed) = (0usize, 0usize, 0usize);
    for case in 0..cases {
        let (original, rows) = &golden[case % golden.len()];
        let mut bytes = original.clone();
        for _ in 0..rng.random_range(1..4) {
            mutate(&mut rng, &mut bytes);
        }
        // Most cases are resealed, so that they reach the decoder and the validation.
        if rng.random_range(0..10) < 8 {
            reseal(&mut bytes);
        }
        match Model::from_bytes(&bytes) {
            Ok(m) => {
                loaded += 1;
                if rows.dim() <= m.preparation.dim {
                    match m.scores(rows) {
                        Ok(scores) => assert!(
                            scores.iter().all(|s| s.is_finite()),
                            "case {case} ({}): scores {scores:?} passed as finite",
                            m.algorithm.name
                        ),
                        Err(Error::NonFiniteScore { value, .. }) => {
                            assert!(!value.is_finite(), "case {case}: {value}");
                            overflowed += 1;
                        }
                        Err(e) => panic!("case {case}: scoring failed otherwise: {e}"),
                    }
                }
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert_eq!(loaded + refused, cases);
    eprintln!(
        "{cases} mutated model files: {loaded} loaded ({overflowed} of them with a score reported as non-finite), {refused} refused"
    );
}
