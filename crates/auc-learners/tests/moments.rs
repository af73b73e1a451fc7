//! Moment summaries: exact merging, the moment file format, and fits from moments equal to the
//! in-memory fits of the same learners on the same prepared data.

#![allow(
    clippy::float_cmp,
    clippy::needless_range_loop,
    reason = "brute-force reference computations index by position and compare exact zeros"
)]

use auc_core::ParamMap;
use auc_data::{Positive, RawData, ReadOptions, RowStream, Scaler, Scaling};
use auc_learners::{
    ALL, MOMENTS_FORMAT_VERSION, MomentError, MomentSummary, Trainer, Update, fit_from_moments,
    lookup,
};
use auc_prep::TransformSpec;

fn parse(text: &str) -> RawData {
    RowStream::new(text.as_bytes(), "t.svm", &ReadOptions::default())
        .and_then(RowStream::read_all)
        .unwrap()
}

/// A multi-class LIBSVM text: labels 1, 2, 3 (3 the minority), an offset feature, a sparse one.
fn text(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let label = [1, 2, 2, 1, 3][i % 5];
        let a = 100.0 + (i as f64 * 0.37).sin() * (label as f64);
        let b = (i as f64 * 1.3).cos() - 0.2 * label as f64;
        if i % 4 == 0 {
            s.push_str(&format!("{label} 1:{a} 2:{b} 5:{}\n", i % 7));
        } else {
            s.push_str(&format!("{label} 1:{a} 2:{b}\n"));
        }
    }
    s
}

fn scores_close(a: &[f64], b: &[f64], rel: f64) {
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= rel * scale, "{x} vs {y}");
    }
}

#[test]
fn three_parts_merged_equal_the_whole() {
    let t = text(900);
    let lines: Vec<&str> = t.lines().collect();
    let whole = {
        let mut s = MomentSummary::new(0, auc_data::Reading::Libsvm, None);
        s.observe(&parse(&t), "all");
        s
    };
    let mut merged = MomentSummary::new(0, auc_data::Reading::Libsvm, None);
    for part in [&lines[..100], &lines[100..701], &lines[701..]] {
        let mut s = MomentSummary::new(0, auc_data::Reading::Libsvm, None);
        s.observe(&parse(&(part.join("\n") + "\n")), "all");
        merged.merge(&s).unwrap();
    }
    assert_eq!(merged.label_counts(), whole.label_counts());
    assert_eq!(merged.ranges(), whole.ranges());
    assert_eq!(merged.dim(), whole.dim());
    for (l, _) in whole.label_counts() {
        let (a, b) = (
            merged.label_moments(l).unwrap(),
            whole.label_moments(l).unwrap(),
        );
        for (x, y) in a.mean().iter().zip(b.mean()) {
            assert!((x - y).abs() <= 1e-12 * y.abs().max(1.0));
        }
        for (x, y) in a.cov_dense().iter().zip(b.cov_dense()) {
            assert!((x - y).abs() <= 1e-10 * y.abs().max(1.0), "{x} vs {y}");
        }
    }
    // Rank-one updates give the same moments up to rounding.
    let mut r1 = MomentSummary::new(0, auc_data::Reading::Libsvm, None);
    r1.observe_with(&parse(&t), "all", Update::RankOne);
    for (l, _) in whole.label_counts() {
        let (a, b) = (
            r1.label_moments(l).unwrap(),
            whole.label_moments(l).unwrap(),
        );
        for (x, y) in a.cov_dense().iter().zip(b.cov_dense()) {
            assert!((x - y).abs() <= 1e-10 * y.abs().max(1.0), "{x} vs {y}");
        }
    }
}

#[test]
fn fits_from_moments_equal_in_memory_fits_for_every_scaling_and_positive_rule() {
    let t = text(600);
    let raw = parse(&t);
    let mut summary = MomentSummary::new(0, raw.reading().clone(), None);
    summary.observe(&raw, "t.svm");
    let summary = MomentSummary::from_bytes(&summary.to_bytes()).unwrap();
    let moment_algos: Vec<_> = ALL.iter().filter(|a| a.fits_from_moments()).collect();
    assert_eq!(moment_algos.len(), 2);
    for algo in moment_algos {
        for scaling in [
            Scaling::MinMax,
            Scaling::MaxAbs,
            Scaling::None,
            Scaling::Auto,
        ] {
            for positive in [Positive::Auto, Positive::Labels(vec![1.0, 3.0])] {
                let mut params = ParamMap::new();
                params.set("lambda", 0.01);
                let (model, _) =
                    fit_from_moments(algo, &params, &summary, &positive, &only(scaling), 0)
                        .unwrap();
                // In memory: binarize, fit the scaler, scale, fit.
                let choice = raw.choose_positive(&positive).unwrap();
                assert_eq!(model.preparation.positive_labels, choice.labels);
                let data = raw.binarize(&choice.known()).unwrap();
                let scaler = Scaler::fit(scaling, &data);
                assert_eq!(model.preparation.scaler(), &scaler);
                let prepared = model.preparation.apply(&data);
                let config = algo.configure(&params).unwrap();
                let Trainer::Batch(batch) = config.trainer() else {
                    panic!("{} fits from moments, so it is a batch learner", algo.name)
                };
                let (state, _) = batch.fit(&prepared, 0).unwrap();
                let want = state.score_all(&prepared);
                let got = model.scores(&prepared).unwrap();
                let rel = if scaling == Scaling::None {
                    1e-7
                } else {
                    1e-10
                };
                scores_close(&got, &want, rel);
                let (p, n) = prepared.class_counts();
                assert_eq!(
                    (model.training.positives, model.training.negatives),
                    (p as u64, n as u64)
                );
                // The model file round-trips.
                auc_learners::Model::from_bytes(&model.to_checked_bytes().unwrap()).unwrap();
            }
        }
    }
}

#[test]
fn dense_and_csr_arrays_give_the_same_summary() {
    let x = [1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.5, 0.0];
    let y = [1.0, -1.0, 1.0];
    let d = MomentSummary::from_dense(&x, 3, 3, &y).unwrap();
    let c = MomentSummary::from_csr(
        &[0, 2, 3, 5],
        &[0, 2, 2, 0, 1],
        &[1.0, 2.0, 3.0, 4.0, 0.5],
        3,
        3,
        &y,
    )
    .unwrap();
    assert_eq!(d.label_counts(), c.label_counts());
    assert_eq!(d.ranges(), c.ranges());
    for l in [1.0, -1.0] {
        assert_eq!(
            d.label_moments(l).unwrap().mean(),
            c.label_moments(l).unwrap().mean()
        );
    }
    // Bad arrays are errors that say what is wrong.
    let e = MomentSummary::from_dense(&x, 3, 2, &y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("need 6 values"), "{e}");
    let e = MomentSummary::from_dense(&[f64::NAN; 9], 3, 3, &y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not finite"), "{e}");
    let e = MomentSummary::from_csr(&[0, 2, 3, 5], &[2, 0, 2, 0, 1], &[1.0; 5], 3, 3, &y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("row 0") && e.contains("increase"), "{e}");
    let e = MomentSummary::from_csr(&[0, 2, 3, 5], &[0, 2, 2, 0, 3], &[1.0; 5], 3, 3, &y)
        .unwrap_err()
        .to_string();
    assert!(e.contains("row 2") && e.contains("not below 3"), "{e}");
}

#[test]
fn moment_files_are_checked_before_use() {
    let x = [1.0, 0.0, 2.0, 0.0, 0.0, 3.0];
    let s = MomentSummary::from_dense(&x, 3, 2, &[1.0, -1.0, 1.0]).unwrap();
    let bytes = s.to_bytes();
    assert_eq!(MomentSummary::from_bytes(&bytes).unwrap(), s);
    assert!(matches!(
        MomentSummary::from_bytes(b"AUCMODEL...."),
        Err(MomentError::NotMoments)
    ));
    let mut v2 = bytes.clone();
    v2[8..12].copy_from_slice(&(MOMENTS_FORMAT_VERSION + 1).to_le_bytes());
    let e = MomentSummary::from_bytes(&v2).unwrap_err().to_string();
    let newer = format!("version {}", MOMENTS_FORMAT_VERSION + 1);
    assert!(e.contains(&newer) && e.contains("auc moments"), "{e}");
    let e = MomentSummary::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(matches!(e, MomentError::Length { .. }), "{e}");
    for k in [20, bytes.len() / 2, bytes.len() - 5] {
        let mut bad = bytes.clone();
        bad[k] ^= 0x40;
        assert!(matches!(
            MomentSummary::from_bytes(&bad),
            Err(MomentError::Checksum)
        ));
    }
    // Every prefix is refused without a panic.
    for k in 0..bytes.len() {
        assert!(MomentSummary::from_bytes(&bytes[..k]).is_err());
    }
}

#[test]
fn merging_refuses_parts_read_differently_and_fitting_refuses_other_learners() {
    let a = MomentSummary::new(4, auc_data::Reading::Libsvm, Some(2));
    let mut b = MomentSummary::new(4, auc_data::Reading::Libsvm, None);
    let e = b.merge(&a).unwrap_err().to_string();
    assert!(e.contains("hashing"), "{e}");
    let s = MomentSummary::from_dense(&[1.0, 2.0], 2, 1, &[1.0, -1.0]).unwrap();
    let not = ALL.iter().find(|a| !a.fits_from_moments()).unwrap();
    let e = fit_from_moments(
        not,
        &ParamMap::new(),
        &s,
        &Positive::Auto,
        &only(Scaling::None),
        0,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not fitted from class moments"), "{e}");
    let one_class = MomentSummary::from_dense(&[1.0, 2.0], 2, 1, &[1.0, 1.0]).unwrap();
    let algo = ALL.iter().find(|a| a.fits_from_moments()).unwrap();
    assert!(
        fit_from_moments(
            algo,
            &ParamMap::new(),
            &one_class,
            &Positive::Auto,
            &only(Scaling::None),
            0
        )
        .is_err()
    );
    let stages = |unit_norm| TransformSpec {
        scaling: Scaling::None,
        one_hot: None,
        features: None,
        unit_norm,
    };
    assert!(s.prepare(&Positive::Auto, &stages(false)).is_ok());
    assert!(s.prepare(&Positive::Auto, &stages(true)).is_err());
    assert!(lookup(algo.name).unwrap().fits_from_moments());
}

/// The stages of `scaling` alone.
fn only(scaling: Scaling) -> TransformSpec {
    TransformSpec {
        scaling,
        one_hot: None,
        features: None,
        unit_norm: false,
    }
}

/// Hostile input, item 9: a moment file claiming CSV label column 99 of 3 fields was accepted
/// (and `auc train` then saved a model that could read no data). Reading the file now validates
/// its reading and names the impossible layout.
#[test]
fn hostile_9_moment_file_with_an_impossible_csv_layout() {
    let bad = auc_data::Reading::Csv(auc_data::CsvReading {
        delimiter: b',',
        label_index: 99,
        fields: 3,
        header: None,
    });
    let mut s = MomentSummary::new(2, bad, None);
    s.observe(&parse("1 1:1 2:2\n-1 1:0 2:1\n"), "t.svm");
    let e = MomentSummary::from_bytes(&s.to_bytes()).unwrap_err();
    assert!(matches!(e, MomentError::Invalid(_)), "{e:?}");
    assert!(e.to_string().contains("label column 100"), "{e}");
    // The same summary with a layout a file can have reads back.
    let good = auc_data::Reading::Csv(auc_data::CsvReading {
        delimiter: b',',
        label_index: 2,
        fields: 3,
        header: None,
    });
    let mut s = MomentSummary::new(2, good, None);
    s.observe(&parse("1 1:1 2:2\n-1 1:0 2:1\n"), "t.svm");
    assert!(MomentSummary::from_bytes(&s.to_bytes()).is_ok());
}

/// Hostile input, item 9: `--resume` of a model claiming 2^64 - 1 examples saved "269
/// examples" (the counter wrapped). `TrainingRecord::after_run` adds a run with checked sums
/// and refuses a record that cannot be right.
#[test]
fn hostile_9_training_record_counters_do_not_wrap() {
    let record = auc_learners::TrainingRecord {
        seed: 3,
        examples: 270,
        positives: 120,
        negatives: 150,
        diverged: Some("earlier".to_owned()),
        written_by: "auc test".to_owned(),
    };
    let next = record.after_run(10, 20).unwrap();
    assert_eq!(
        (next.examples, next.positives, next.negatives),
        (300, 130, 170)
    );
    assert_eq!((next.seed, next.diverged.as_deref()), (3, Some("earlier")));
    let crafted = auc_learners::TrainingRecord {
        examples: u64::MAX,
        ..record.clone()
    };
    let e = crafted.after_run(120, 150).unwrap_err();
    assert!(e.contains("18446744073709551615 examples"), "{e}");
    assert!(e.contains("cannot be right"), "{e}");
    let crafted = auc_learners::TrainingRecord {
        negatives: u64::MAX - 1,
        ..record.clone()
    };
    assert!(crafted.after_run(0, 2).is_err());
    assert!(
        crafted.after_run(5, 1).is_ok(),
        "reaching u64::MAX exactly is allowed"
    );
    assert!(record.after_run(u64::MAX, 1).is_err());
}

/// Moment files are a promise too: `golden/moments/heart-v1.mom` was written by `auc moments`
/// of format version 1 (before feature maps); it still reads, as a summary of rows as read, and
/// `opauc-batch` fitted from it (default parameters, `--scale auto`) scores heart as the model
/// that build fitted from it did (`heart-v1.scores`, printed by that build's `auc predict`).
#[test]
fn format_version_1_moment_files_read_and_fit_as_they_did() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/moments");
    let bytes = std::fs::read(dir.join("heart-v1.mom")).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
    let s = MomentSummary::from_bytes(&bytes).unwrap();
    assert!(s.stages().is_none());
    assert_eq!(s.rows(), 270);
    let algo = auc_learners::lookup("opauc-batch").unwrap();
    let stages = TransformSpec::scale_then_norm(Scaling::Auto, false);
    let (model, _) =
        fit_from_moments(algo, &ParamMap::new(), &s, &Positive::Auto, &stages, 0).unwrap();
    let raw = RowStream::open(
        &dir.join("../../../../../data/heart.libsvm"),
        &ReadOptions::default(),
    )
    .and_then(RowStream::read_all)
    .unwrap();
    let data = raw
        .binarize(&Positive::Known(model.preparation.positive_labels.clone()))
        .unwrap();
    let scores = model.scores(&model.preparation.apply(&data)).unwrap();
    let want: Vec<f64> = std::fs::read_to_string(dir.join("heart-v1.scores"))
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(scores, want);
    // Written again it is a version 3 file of the same summary.
    let again = MomentSummary::from_bytes(&s.to_bytes()).unwrap();
    assert_eq!(again, s);
}

#[test]
fn rows_handed_over_through_a_map_summarize_as_parsed_chunks_do() {
    use auc_prep::{FeatureMapSpec, ScaleEvidence, SigmaRule};
    let raw = parse(&text(300));
    let all: Vec<f64> = raw.label_counts().into_iter().map(|(l, _)| l).collect();
    let rows = raw
        .binarize_as(&Positive::Known(all), auc_data::Layout::AsRead)
        .unwrap();
    let spec = TransformSpec {
        scaling: Scaling::MinMax,
        one_hot: None,
        features: Some(FeatureMapSpec {
            shape: "rff:16".parse().unwrap(),
            sigma: SigmaRule::Scale,
            seed: 4,
        }),
        unit_norm: false,
    };
    let t = spec.fit(ScaleEvidence::Data(&rows)).unwrap();
    let start = || MomentSummary::for_stages(t.clone(), auc_data::Reading::Libsvm, None);
    let mut want = start();
    want.observe_mapped(&raw, "t.svm").unwrap();
    let labels = raw.raw_labels();
    let mut got = start();
    for r in [0..120, 120..300] {
        let idx: Vec<usize> = r.clone().collect();
        let mut part = start();
        part.observe_dataset(&rows.select(&idx), &labels[r])
            .unwrap();
        got.merge(&part).unwrap();
    }
    assert_eq!(got.stages(), Some(&t));
    assert_eq!(
        (got.dim(), got.label_counts()),
        (want.dim(), want.label_counts())
    );
    for (l, _) in want.label_counts() {
        let (a, b) = (
            got.label_moments(l).unwrap(),
            want.label_moments(l).unwrap(),
        );
        scores_close(a.mean(), b.mean(), 1e-12);
        scores_close(a.comoment(), b.comoment(), 1e-12);
    }
    let back = MomentSummary::from_bytes(&got.to_bytes()).unwrap();
    assert_eq!(back.stages(), Some(&t));
    // Labels that do not match the rows, non-finite labels, rows of another width.
    let err = |d: &auc_core::Dataset, y: &[f64]| start().observe_dataset(d, y).unwrap_err();
    assert!(matches!(err(&rows, &labels[1..]), MomentError::Input(_)));
    let mut nan = labels.to_vec();
    nan[7] = f64::NAN;
    assert!(err(&rows, &nan).to_string().contains("label NaN of row 7"));
    let wide = rows.clone().with_dim(rows.dim() + 1);
    assert!(err(&wide, labels).to_string().contains("features"));
}

/// Rewrites a moment file's payload with `f`, then its version, length and checksum.
fn repacked(bytes: &[u8], version: u32, f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut payload = bytes[20..bytes.len() - 4].to_vec();
    f(&mut payload);
    let mut out = bytes[..8].to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// A moment file of format version 2 (before feature crosses) reads as a summary of rows read
/// without crosses: its payload is version 3's without the crosses' byte (`None` is one 0 byte
/// after the dimension and the hashing). Summaries of other crosses do not merge.
#[test]
fn format_version_2_moment_files_read_as_rows_without_crosses() {
    let s = MomentSummary::from_dense(&[0.0, 1.0, 1.0, 0.5, 2.0, 2.0], 3, 2, &[1.0, -1.0, 1.0])
        .unwrap();
    assert_eq!(s.cross_bits(), None);
    // Version 4 has version 3's layout (its readings may also be tables and 0-based files).
    let v3 = repacked(&s.to_bytes(), 3, |_| {});
    assert_eq!(MomentSummary::from_bytes(&v3).unwrap(), s);
    // The payload starts with the dimension (2: one byte), no hashing (0), no crosses (0).
    assert_eq!(&v3[20..23], &[2, 0, 0]);
    let v2 = repacked(&v3, 2, |p| {
        p.remove(2);
    });
    assert_eq!(MomentSummary::from_bytes(&v2).unwrap(), s);
    // A version 3 file with crosses that its dimension cannot hold is refused; a damaged
    // payload names its format version.
    let crossed = repacked(&v3, 3, |p| {
        p[2] = 1;
        p.insert(3, 2);
    });
    let e = MomentSummary::from_bytes(&crossed).unwrap_err().to_string();
    assert!(e.contains("crosses do not fit dimension 2"), "{e}");
    let damaged = repacked(&v3, 2, |p| p.truncate(3));
    let e = MomentSummary::from_bytes(&damaged).unwrap_err().to_string();
    assert!(e.contains("format version 2"), "{e}");
    let mut other = MomentSummary::from_dense(&[0.0, 1.0], 1, 2, &[1.0])
        .unwrap()
        .with_cross_bits(Some(1));
    let e = other.merge(&s).unwrap_err().to_string();
    assert!(
        e.contains("feature crosses 1 bits, the other with none"),
        "{e}"
    );
}
