//! Saved models are a promise: a golden model file of every algorithm (trained on the bundled
//! heart data with default parameters) must keep loading and scoring exactly as when it was
//! written, and files of older formats must be refused with a message that names them.
//!
//! `AUC_UPDATE_GOLDEN=1 cargo test -p auc-learners --test golden` writes the golden file of an
//! algorithm that has none (a new learner); an existing file is never rewritten by the test.

mod common;

use std::path::PathBuf;

use auc_learners::{
    ALL, CalibrationKind, CalibrationSpec, Error, FORMAT_VERSION, Model, OLDEST_READ_VERSION,
};

fn golden_dir() -> PathBuf {
    common::root().join("crates/auc-learners/tests/golden")
}

/// Scores one per line in the shortest form that reads back to the same `f64`.
fn scores_text(scores: &[f64]) -> String {
    scores
        .iter()
        .map(|s| format!("{}\n", auc_core::shortest(*s)))
        .collect()
}

/// Loads `dir/FILE.auc`, checks that it scores the bundled heart data as `dir/FILE.scores` says
/// and that writing it again is a fixed point, and returns it for the caller's own checks.
fn load_scoring_as_written(dir: &std::path::Path, file: &str) -> Model {
    let m = Model::from_bytes(&std::fs::read(dir.join(format!("{file}.auc"))).unwrap())
        .unwrap_or_else(|e| panic!("{file}: the golden model no longer loads: {e}"));
    let want = std::fs::read_to_string(dir.join(format!("{file}.scores"))).unwrap();
    assert_eq!(
        scores_text(&m.scores(&common::heart_for(&m)).unwrap()),
        want,
        "{file}: the golden model scores differently"
    );
    let again = Model::from_bytes(&m.to_bytes()).unwrap();
    assert_eq!(again.to_bytes(), m.to_bytes(), "{file}: not a fixed point");
    m
}

/// Checks the golden models under `dir`: each loads and scores as its `.scores` file says, and
/// writing it again is a fixed point. With `write_missing` (and `AUC_UPDATE_GOLDEN` set) a
/// missing file is trained and written. Returns the algorithms that have no file.
fn check_golden(dir: &std::path::Path, write_missing: bool) -> Vec<&'static str> {
    let update = write_missing && std::env::var_os("AUC_UPDATE_GOLDEN").is_some();
    let mut missing = Vec::new();
    for algo in ALL {
        let model_path = dir.join(format!("{}.auc", algo.name));
        let scores_path = dir.join(format!("{}.scores", algo.name));
        if !model_path.is_file() {
            if update {
                let m = common::train_default(algo);
                let bytes = m.to_checked_bytes().unwrap();
                let scores = m.scores(&common::heart_for(&m)).unwrap();
                std::fs::create_dir_all(dir).unwrap();
                std::fs::write(&model_path, bytes).unwrap();
                std::fs::write(&scores_path, scores_text(&scores)).unwrap();
            } else {
                missing.push(algo.name);
                continue;
            }
        }
        let bytes = std::fs::read(&model_path).unwrap();
        let m = Model::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{}: the golden model no longer loads: {e}", algo.name));
        assert_eq!(m.algorithm.name, algo.name);
        let scores = m.scores(&common::heart_for(&m)).unwrap();
        let want = std::fs::read_to_string(&scores_path).unwrap();
        assert_eq!(
            scores_text(&scores),
            want,
            "{}: the golden model scores differently",
            algo.name
        );
        // Written again, the model loads back to the same scores, and writing is then a fixed
        // point. (The bytes need not equal the golden file's: a parameter added since, such as
        // GAM-CVM's `landmarks`, is written out with the value that reproduces the old fit, and
        // a version 3 to 6 file is written as version 7.)
        let again = m.to_bytes();
        let m2 = Model::from_bytes(&again)
            .unwrap_or_else(|e| panic!("{}: a rewritten model no longer loads: {e}", algo.name));
        assert_eq!(
            scores_text(&m2.scores(&common::heart_for(&m2)).unwrap()),
            want,
            "{}: a rewritten model scores differently",
            algo.name
        );
        assert_eq!(
            m2.to_bytes(),
            again,
            "{}: writing is not a fixed point",
            algo.name
        );
    }
    missing
}

/// The golden models of format version 3 (`golden/`, written before the preparation became a
/// list of stages), version 4 (`golden/v4/`, before calibrations), version 5 (`golden/v5/`,
/// before feature crosses) and version 6 (`golden/v6/`) load and score as when they were
/// written; a new learner gets its version 6 file from an `AUC_UPDATE_GOLDEN=1` run.
#[test]
fn every_algorithm_has_a_golden_model_that_loads_and_scores_the_same() {
    let dir = golden_dir();
    // Version 3 to 5 files exist for the algorithms of their time; none is written again.
    check_golden(&dir, false);
    check_golden(&dir.join("v4"), false);
    let v5 = check_golden(&dir.join("v5"), false);
    // Every learner of format 5's time has its version 5 file; learners added since start at
    // version 6.
    let added_since_v5 = ["gbt-auc", "blend", "bal-adagrad", "bal-ftrl"];
    let v5: Vec<&str> = v5
        .into_iter()
        .filter(|n| !added_since_v5.contains(n))
        .collect();
    assert!(v5.is_empty(), "no version 5 golden model for {v5:?}");
    let v6 = check_golden(&dir.join("v6"), true);
    // The blend's file was written before it could choose its weight: it reads as the fixed
    // weight it was fitted with, whatever the blend's default is now.
    let blend = Model::from_bytes(&std::fs::read(dir.join("v6/blend.auc")).unwrap()).unwrap();
    assert_eq!(
        blend.params().get("weight_folds"),
        Some(&auc_core::ParamValue::Num(0.0))
    );
    assert!(
        v6.is_empty(),
        "no golden model for {v6:?}: run `AUC_UPDATE_GOLDEN=1 cargo test -p auc-learners --test golden` and commit the files"
    );
}

/// The golden models with a calibration (`golden/calibrated/`): a sigmoid on a one-pass learner
/// and an isotonic fit on a batch learner, fitted on 5-fold held-out scores of heart. Each must
/// keep its scores and its probabilities (`.proba`) exactly.
#[test]
fn calibrated_golden_models_keep_their_probabilities() {
    let dir = golden_dir().join("calibrated");
    let update = std::env::var_os("AUC_UPDATE_GOLDEN").is_some();
    let cases = [
        ("pa-i-sigmoid", "pa-i", CalibrationKind::Sigmoid),
        (
            "opauc-batch-isotonic",
            "opauc-batch",
            CalibrationKind::Isotonic,
        ),
    ];
    for (file, name, kind) in cases {
        let model_path = dir.join(format!("{file}.auc"));
        let scores_path = dir.join(format!("{file}.scores"));
        let proba_path = dir.join(format!("{file}.proba"));
        if !model_path.is_file() {
            assert!(
                update,
                "no golden model {file}: run `AUC_UPDATE_GOLDEN=1 cargo test -p auc-learners --test golden` and commit the files"
            );
            let mut m = common::train_default(auc_learners::lookup(name).unwrap());
            let data = common::heart_for(&m);
            let spec = CalibrationSpec::new(kind);
            let c =
                auc_learners::fit_calibration(&spec, m.config.as_ref(), false, &data, 0, &|| {})
                    .unwrap()
                    .0;
            m.calibration = Some(c);
            let scores = m.scores(&data).unwrap();
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&model_path, m.to_checked_bytes().unwrap()).unwrap();
            std::fs::write(&scores_path, scores_text(&scores)).unwrap();
            std::fs::write(&proba_path, scores_text(&m.probabilities(&scores).unwrap())).unwrap();
        }
        let m = Model::from_bytes(&std::fs::read(&model_path).unwrap())
            .unwrap_or_else(|e| panic!("{file}: the golden model no longer loads: {e}"));
        assert_eq!(
            m.calibration.as_ref().map(|c| c.kind()),
            Some(kind),
            "{file}"
        );
        let scores = m.scores(&common::heart_for(&m)).unwrap();
        assert_eq!(
            scores_text(&scores),
            std::fs::read_to_string(&scores_path).unwrap(),
            "{file}: the golden model scores differently"
        );
        assert_eq!(
            scores_text(&m.probabilities(&scores).unwrap()),
            std::fs::read_to_string(&proba_path).unwrap(),
            "{file}: the golden model's probabilities changed"
        );
        let again = Model::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(again.to_bytes(), m.to_bytes(), "{file}: not a fixed point");
    }
}

/// A model without a calibration says so when asked for probabilities.
#[test]
fn an_uncalibrated_model_refuses_probabilities() {
    let bytes = std::fs::read(golden_dir().join("v5/pa-i.auc")).unwrap();
    let m = Model::from_bytes(&bytes).unwrap();
    let e = m.probabilities(&[0.5]).unwrap_err();
    assert!(e.to_string().contains("--calibrate"), "{e}");
}

/// The model files of format version 2 (`../shared/fixtures/models-v2`, copied here) were
/// written before models were tagged by name; they are refused with a message naming the
/// version.
#[test]
fn format_version_2_files_are_refused_by_name() {
    for name in ["heart-oauc-m", "heart-okauc-m", "heart-gam-cvm"] {
        let path = golden_dir().join(format!("v2/{name}.auc"));
        let bytes = std::fs::read(&path).unwrap();
        let e = Model::from_bytes(&bytes).unwrap_err();
        assert!(
            matches!(e, Error::OlderFormat { version: 2 }),
            "{name}: {e}"
        );
        let msg = e.to_string();
        assert!(
            msg.contains("model format version 2")
                && msg.contains(&format!(
                    "format versions {OLDEST_READ_VERSION} to {FORMAT_VERSION}"
                )),
            "{msg}"
        );
    }
}

/// Every golden model of format version 3 (written before the preparation became a list of
/// stages) is read into the stages version 3 applied: its scaling, then unit norm if it had it.
#[test]
fn format_version_3_files_load_into_stages() {
    let mut read = 0;
    for algo in ALL {
        let path = golden_dir().join(format!("{}.auc", algo.name));
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        if u32::from_le_bytes(bytes[8..12].try_into().unwrap()) != 3 {
            continue;
        }
        let m = Model::from_bytes(&bytes).unwrap();
        let stages = m.preparation.transform.stages();
        assert!(stages.len() <= 2, "{}: {stages:?}", algo.name);
        assert_eq!(
            m.preparation.transform.describe(),
            format!("scale({})", m.preparation.scaler().kind()),
            "{}",
            algo.name
        );
        // Written again, it is a version 5 file holding the same stages.
        let again = Model::from_bytes(&m.to_bytes()).unwrap();
        assert_eq!(again.preparation, m.preparation);
        read += 1;
    }
    assert!(read > 0, "no golden file of format version 3");
}

/// The golden models with a feature map (`golden/maps/`): one per map kind, each on a learner
/// of another kind (a batch moment learner, a one-pass learner on a fixed step, one on the
/// moments), so a change to a map's arithmetic, its draws or its layout in the file shows.
#[test]
fn feature_map_golden_models_load_and_score_the_same() {
    let dir = golden_dir().join("maps");
    let update = std::env::var_os("AUC_UPDATE_GOLDEN").is_some();
    let cases = [
        (
            "opauc-batch-nystroem",
            "opauc-batch",
            "nystroem:40",
            "scale",
        ),
        ("pa-i-rff", "pa-i", "rff:64", "0.8"),
        ("oauc-m-elm", "oauc-m", "elm:32", "median"),
    ];
    for (file, name, map, sigma) in cases {
        let algo = auc_learners::lookup(name).unwrap();
        let model_path = dir.join(format!("{file}.auc"));
        let scores_path = dir.join(format!("{file}.scores"));
        if !model_path.is_file() {
            assert!(
                update,
                "no golden model {file}: run `AUC_UPDATE_GOLDEN=1 cargo test -p auc-learners --test golden` and commit the files"
            );
            let stages = auc_prep::TransformSpec {
                scaling: auc_data::Scaling::Auto,
                one_hot: None,
                features: Some(auc_prep::FeatureMapSpec {
                    shape: map.parse().unwrap(),
                    sigma: sigma.parse().unwrap(),
                    seed: 3,
                }),
                unit_norm: false,
            };
            let m = common::train_with(algo, &stages);
            let scores = m.scores(&common::heart_for(&m)).unwrap();
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&model_path, m.to_checked_bytes().unwrap()).unwrap();
            std::fs::write(&scores_path, scores_text(&scores)).unwrap();
        }
        let m = load_scoring_as_written(&dir, file);
        let fm = m.preparation.transform.feature_map().expect("a map");
        assert_eq!(fm.kind().word(), map.split(':').next().unwrap(), "{file}");
    }
}

/// The moment learners' golden models beyond the defaults (`golden/sketched/`): averaged states
/// of state version 1 (written by `auc train --average` before the `sketch` parameter, so
/// their upgrade passes through the averaged layout), and sketched states (`--param sketch=4`,
/// the layout that parameter added). `*.scores` are what `auc predict` printed when each was
/// written; the README of the folder gives the commands.
#[test]
fn averaged_and_sketched_moment_models_load_and_score_the_same() {
    let dir = golden_dir().join("sketched");
    let cases = [
        ("opauc-averaged-v1", "opauc", 0),
        ("admoam-averaged-v1", "admoam", 0),
        ("opauc-sketch4", "opauc", 4),
        ("adaoam-sketch4", "adaoam", 4),
        ("oauc-m-sketch4", "oauc-m", 4),
    ];
    for (file, name, sketch) in cases {
        let m = load_scoring_as_written(&dir, file);
        assert_eq!(m.algorithm.name, name);
        let sketch_param = m.params().get("sketch").cloned();
        assert_eq!(
            sketch_param,
            Some(auc_core::ParamValue::Num(sketch as f64)),
            "{file}"
        );
    }
}

/// SOLAM's state layouts (version 1 before its `reach`, version 2), plain and averaged: each
/// loads, scores as written and writes a fixed point; the folder's README gives the commands.
#[test]
fn solam_state_layouts_load_and_score_the_same() {
    let dir = golden_dir().join("states");
    for file in ["solam-averaged-v1", "solam-v2", "solam-averaged-v2"] {
        let m = load_scoring_as_written(&dir, file);
        assert_eq!(m.algorithm.name, "solam");
    }
}

/// A model file holding a calibration that breaks its invariants (a crafted file) is refused
/// with a message naming the calibration, never loaded to print probabilities outside [0, 1].
#[test]
fn a_crafted_calibration_is_refused() {
    let bytes = std::fs::read(golden_dir().join("v5/pa-i.auc")).unwrap();
    let mut m = Model::from_bytes(&bytes).unwrap();
    m.calibration = Some(auc_learners::Calibration::Isotonic {
        x: vec![0.0, 1.0],
        y: vec![0.2, 1.7],
    });
    let e = Model::from_bytes(&m.to_bytes()).unwrap_err();
    assert!(matches!(e, Error::Calibration(_)), "{e}");
    assert!(e.to_string().contains("calibration"), "{e}");
}

/// A model file whose payload does not decode says which format version it has (version 5
/// decodes with the layout before crosses, version 6 with the current one).
#[test]
fn an_undecodable_payload_names_its_format_version() {
    for (dir, version) in [("v5", 5u32), ("v6", 6)] {
        let bytes = std::fs::read(golden_dir().join(dir).join("pa-i.auc")).unwrap();
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            version
        );
        // The payload cut after its first bytes, the length and checksum made to match.
        let payload = &bytes[20..30];
        let mut out = bytes[..12].to_vec();
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(payload);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        let e = Model::from_bytes(&out).unwrap_err().to_string();
        assert!(
            e.contains(&format!("model format version {version}")),
            "{e}"
        );
    }
}

/// The golden models on crossed rows (`golden/crossed/`): a one-pass and a batch learner
/// trained on heart read with `--hash-bits 4 --cross-hash-bits 6` (`--scale auto`). Each must
/// load and score heart, read with the reading it stores (the crosses included), exactly as
/// when it was written, so a change to the crosses' hash, order or sums shows.
#[test]
fn crossed_golden_models_load_and_score_the_same() {
    let dir = golden_dir().join("crossed");
    let update = std::env::var_os("AUC_UPDATE_GOLDEN").is_some();
    let opts = auc_data::ReadOptions {
        hash_bits: Some(4),
        cross_bits: Some(6),
        ..auc_data::ReadOptions::default()
    };
    let stages = auc_prep::TransformSpec::scale_then_norm(auc_data::Scaling::Auto, false);
    for name in ["pa-i", "opauc-batch"] {
        let model_path = dir.join(format!("{name}.auc"));
        let scores_path = dir.join(format!("{name}.scores"));
        if !model_path.is_file() {
            assert!(
                update,
                "no golden model crossed/{name}: run `AUC_UPDATE_GOLDEN=1 cargo test -p auc-learners --test golden` and commit the files"
            );
            let m = common::train_read(auc_learners::lookup(name).unwrap(), &stages, &opts);
            let scores = m.scores(&common::heart_for(&m)).unwrap();
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&model_path, m.to_checked_bytes().unwrap()).unwrap();
            std::fs::write(&scores_path, scores_text(&scores)).unwrap();
        }
        let m = Model::from_bytes(&std::fs::read(&model_path).unwrap())
            .unwrap_or_else(|e| panic!("crossed/{name}: the golden model no longer loads: {e}"));
        let p = &m.preparation;
        assert_eq!(
            (p.hash_bits, p.cross_bits, p.dim),
            (Some(4), Some(6), 16 + 64)
        );
        assert_eq!(
            scores_text(&m.scores(&common::heart_for(&m)).unwrap()),
            std::fs::read_to_string(&scores_path).unwrap(),
            "crossed/{name}: the golden model scores differently"
        );
    }
}
