//! `--cross-hash-bits C` end to end: a model trained with crosses records them and `auc
//! predict` crosses test rows the same way without the flag (its scores equal the library's on
//! rows crossed by hand-given options); a contradicting flag, crosses without `--hash-bits` and
//! a row past the cap exit 2; stream, cv and `--tune` take the flag; moment files record C and
//! refuse to merge with files of another C.

mod common;

use std::path::Path;

use common::{auc, check_fails, heart, stderr, stdout, write};

fn scores(text: &str) -> Vec<f64> {
    text.lines().map(|l| l.parse().unwrap()).collect()
}

/// heart read with 6 hash bits and 8 cross bits, given here rather than taken from a model.
fn crossed_heart() -> auc_data::RawData {
    let opts = auc_data::ReadOptions {
        hash_bits: Some(6),
        cross_bits: Some(8),
        ..auc_data::ReadOptions::default()
    };
    auc_data::read_path(Path::new(&heart()), &opts).unwrap()
}

#[test]
fn predict_applies_the_models_crosses_without_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    let plain = dir.path().join("plain.auc").display().to_string();
    let flags = ["--hash-bits", "6", "--cross-hash-bits", "8"];
    let o = auc(&[&["train", "--algo", "pa-i", &heart(), "-o", &m], &flags[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        &heart(),
        "--hash-bits",
        "6",
        "-o",
        &plain,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let o = auc(&["model", &m, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["cross_bits"], 8);
    assert_eq!(v["hash_bits"], 6);
    assert_eq!(v["features"], 64 + 256);
    let o = auc(&["model", &m]);
    assert!(
        stdout(&o).contains("320 features, hashed into 2^6, crosses of feature pairs in 2^8 more"),
        "{}",
        stdout(&o)
    );

    // predict without the flag crosses the rows as training did: the same scores as the
    // library's on rows read with the crosses given by hand.
    let o = auc(&["predict", "-m", &m, &heart()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let predicted = scores(&stdout(&o));
    let model = auc_learners::Model::from_bytes(&std::fs::read(&m).unwrap()).unwrap();
    let choice = model.preparation.positive_labels.clone();
    let data = crossed_heart()
        .binarize(&auc_data::Positive::Known(choice))
        .unwrap();
    let want = model.scores(&model.preparation.apply(&data)).unwrap();
    assert_eq!(predicted, want);
    // Giving the model's own flags changes nothing; the model without crosses scores otherwise.
    let o = auc(&[&["predict", "-m", &m, &heart()], &flags[..]].concat());
    assert_eq!(scores(&stdout(&o)), predicted);
    let o = auc(&["predict", "-m", &plain, &heart()]);
    assert_ne!(scores(&stdout(&o)), predicted);
    // A contradicting flag is refused.
    check_fails(
        &["predict", "-m", &m, &heart(), "--cross-hash-bits", "7"],
        "--cross-hash-bits 7, but the model",
    );
    check_fails(
        &["predict", "-m", &plain, &heart(), "--cross-hash-bits", "8"],
        "--cross-hash-bits 8, but the model",
    );
}

#[test]
fn crosses_need_hashing_and_rows_past_the_cap_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc").display().to_string();
    for command in ["train", "stream", "cv"] {
        let mut args = vec![command, "--algo", "pa-i", "--cross-hash-bits", "8"];
        let h = heart();
        if command == "cv" {
            args.push("--data");
        }
        args.push(&h);
        if command == "train" {
            args.extend(["-o", &m]);
        }
        check_fails(&args, "--cross-hash-bits 8 needs --hash-bits B");
    }
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            &heart(),
            "--hash-bits",
            "6",
            "--cross-hash-bits",
            "31",
            "-o",
            &m,
        ],
        "31",
    );
    let mut line = String::from("-1 1:1\n1");
    for j in 1..=1025 {
        line.push_str(&format!(" {j}:1"));
    }
    line.push('\n');
    let big = write(dir.path(), "big.libsvm", &line);
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            big.to_str().unwrap(),
            "--hash-bits",
            "12",
            "--cross-hash-bits",
            "4",
            "-o",
            &m,
        ],
        "big.libsvm:2:1: the row has 1025 non-zero features, more than the 1024",
    );
}

#[test]
fn stream_cv_and_tune_take_the_crosses() {
    let dir = tempfile::tempdir().unwrap();
    let flags = ["--hash-bits", "6", "--cross-hash-bits", "8"];
    let o = auc(&[&["stream", "--algo", "pa-i", &heart()], &flags[..]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = auc(&[
        &[
            "cv",
            "--algo",
            "pa-i",
            "--data",
            &heart(),
            "--repeats",
            "1",
            "--folds",
            "3",
        ],
        &flags[..],
    ]
    .concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let m = dir.path().join("t.auc").display().to_string();
    let o = auc(&[
        &[
            "train",
            "--algo",
            "pa-i",
            &heart(),
            "--tune",
            "--grid",
            "c=0.1,1",
            "--folds",
            "2",
            "-o",
            &m,
        ],
        &flags[..],
    ]
    .concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let model = auc_learners::Model::from_bytes(&std::fs::read(&m).unwrap()).unwrap();
    assert_eq!(model.preparation.cross_bits, Some(8));
}

#[test]
fn moment_files_record_the_crosses_and_refuse_other_crosses() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let moments = |out: &str, extra: &[&str]| {
        let o = auc(&[&["moments", &heart(), "--hash-bits", "4", "-o", out], extra].concat());
        assert!(o.status.success(), "{}", stderr(&o));
    };
    let (c3, c3b, c2, none) = (
        path("c3.mom"),
        path("c3b.mom"),
        path("c2.mom"),
        path("n.mom"),
    );
    moments(&c3, &["--cross-hash-bits", "3"]);
    moments(&c3b, &["--cross-hash-bits", "3"]);
    moments(&c2, &["--cross-hash-bits", "2"]);
    moments(&none, &[]);
    // The same crosses merge, and the model records them.
    let m = path("m.auc");
    let o = auc(&["train", "--algo", "opauc-batch", &c3, &c3b, "-o", &m]);
    assert!(o.status.success(), "{}", stderr(&o));
    let model = auc_learners::Model::from_bytes(&std::fs::read(&m).unwrap()).unwrap();
    assert_eq!(model.preparation.cross_bits, Some(3));
    assert_eq!(model.preparation.dim, 16 + 8);
    let o = auc(&["predict", "-m", &m, &heart()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 270);
    // Other crosses, or none, do not.
    check_fails(
        &["train", "--algo", "opauc-batch", &c3, &c2, "-o", &m],
        "c2.mom: cannot merge moments: one part was read with feature crosses 3 bits, the other with 2 bits",
    );
    check_fails(
        &["train", "--algo", "opauc-batch", &none, &c3, "-o", &m],
        "cannot merge moments: one part was read with feature crosses none, the other with 3 bits",
    );
    // A data file read with other crosses than a moment file does not merge either.
    check_fails(
        &[
            "train",
            "--algo",
            "opauc-batch",
            &c3,
            &heart(),
            "--hash-bits",
            "4",
            "--cross-hash-bits",
            "2",
            "-o",
            &m,
        ],
        "cannot merge moments",
    );
}
