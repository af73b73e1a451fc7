//! One regression test per class of silent wrong answer found by the trust review (issue
//! "No silent wrong answer"), each named after its class: the command now gives the right
//! answer with exit code 0, or exit code 2 with a message naming the cause.

mod common;

use std::path::Path;

use common::{auc, check_fails, heart, stderr, stdout, write};

/// Class 1: on a {-1, +1} or {0, 1} file whose positives are the majority, +1 / 1 is the
/// positive class (as scikit-learn's `roc_auc_score`), so a perfect scorer has AUC 1, not 0.
#[test]
fn class_1_positive_class_of_binary_files_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "s", "0.9\n0.8\n0.7\n0.1\n0.2\n");
    for (labels, rule) in [
        ("1\n1\n1\n-1\n-1\n", "+1 of a {-1, +1} file"),
        ("1\n1\n1\n0\n0\n", "1 of a {0, 1} file"),
    ] {
        let l = write(dir.path(), "l", labels);
        let o = auc(&[
            "metrics",
            "--scores",
            s.to_str().unwrap(),
            "--labels",
            l.to_str().unwrap(),
            "--json",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["auc"].as_f64(), Some(1.0), "{labels:?}");
        assert_eq!(j["positive"], serde_json::json!([1.0]));
        assert!(stderr(&o).contains(rule), "{}", stderr(&o));
    }
    // Other label pairs keep the minority rule, and say so.
    let l = write(dir.path(), "l", "2\n2\n2\n4\n4\n");
    let o = auc(&[
        "metrics",
        "--scores",
        s.to_str().unwrap(),
        "--labels",
        l.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("positive class: 4 (minority class)"),
        "{}",
        stderr(&o)
    );
    // `auc info` says which class and why.
    let o = auc(&["info", &heart()]);
    assert!(
        stdout(&o).contains("positive    +1 (+1 of a {-1, +1} file)"),
        "{}",
        stdout(&o)
    );
}

/// heart as CSV with a quoted header and the label in the last column.
fn heart_csv(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(heart()).unwrap();
    let mut out = String::new();
    let names: Vec<String> = (1..=13).map(|j| format!("\"f{j}\"")).collect();
    out.push_str(&format!("{},\"y\"\n", names.join(",")));
    for line in text.lines() {
        let mut parts = line.split_whitespace();
        let label = parts.next().unwrap();
        let mut row = vec!["0".to_owned(); 13];
        for t in parts {
            let (j, v) = t.split_once(':').unwrap();
            row[j.parse::<usize>().unwrap() - 1] = v.to_owned();
        }
        out.push_str(&format!("{},{label}\n", row.join(",")));
    }
    write(dir, "h.csv", &out)
}

/// Class 2: a model trained on CSV reads its prediction data with the same label column,
/// delimiter and header (the label column is never read as a feature), and refuses reading
/// flags that contradict them.
#[test]
fn class_2_csv_models_read_predict_data_as_train_did() {
    let dir = tempfile::tempdir().unwrap();
    let csv = heart_csv(dir.path());
    let model = dir.path().join("h.auc");
    let (c, m) = (csv.to_str().unwrap(), model.to_str().unwrap());
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        "--c",
        "0.1",
        c,
        "--label-column",
        "last",
        "-o",
        m,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The user chose the column: nothing to say about it.
    assert!(!stderr(&o).contains("by its header name"), "{}", stderr(&o));
    let o = auc(&["predict", "-m", m, c, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(j["auc"].as_f64().unwrap() > 0.85, "{j}");
    assert_eq!(j["scores"].as_array().unwrap().len(), 270);
    check_fails(
        &["predict", "-m", m, c, "--label-column", "0"],
        "--label-column 0",
    );
    check_fails(
        &["predict", "-m", m, c, "--categorical", "f1"],
        "--categorical",
    );
    check_fails(
        &["predict", "-m", m, c, "--format", "libsvm"],
        "--format libsvm",
    );
    // A file that lacks a column of the model is refused, naming the columns.
    let other = write(dir.path(), "o.csv", "\"f1\",\"g2\",\"y\"\n1,2,1\n");
    check_fails(&["predict", "-m", m, other.to_str().unwrap()], "\"f2\"");
    // The model says how it reads data.
    let o = auc(&["model", m]);
    assert!(
        stdout(&o).contains("table (label \"y\", 13 columns of which 0 categorical"),
        "{}",
        stdout(&o)
    );
    // Without --label-column the header's `y` column is the label (not column 0), and
    // `--label-column auto` at prediction agrees with that model's reading.
    let auto = dir.path().join("auto.auc");
    let a = auto.to_str().unwrap();
    let o = auc(&["train", "--algo", "pa-i", "--c", "0.1", c, "-o", a]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("auc: label column \"y\"; positive class: 1 (of {-1, 1})"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read(&model).unwrap().len(),
        std::fs::read(&auto).unwrap().len()
    );
    let o = auc(&["model", a]);
    assert!(stdout(&o).contains("table (label \"y\""), "{}", stdout(&o));
    let o = auc(&["predict", "-m", a, c, "--label-column", "auto", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Class 2 (continued): a CSV without a header whose first column is a measurement is read
/// with that column as the label (the documented default), and the rarest of its many values
/// becomes the positive class; `train` (one pass and in memory) and `cv` say so in a warning,
/// which naming the label column silences.
#[test]
fn class_2_a_measurement_read_as_the_label_draws_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (0..120)
        .map(|i| format!("{}.5,{},{}\n", 20 + (i * 7) % 61, (i * 13) % 10, i % 2))
        .collect();
    let csv = write(dir.path(), "no-header.csv", &text);
    let c = csv.to_str().unwrap();
    let m = dir.path().join("m.auc");
    let m = m.to_str().unwrap();
    let warning = "auc: warning: the label column has 61 distinct values";
    let warned = |args: &[&str]| {
        let o = auc(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stderr(&o).contains(warning)
    };
    assert!(warned(&["train", "--algo", "pa-i", c, "-o", m]));
    assert!(warned(&["train", "--algo", "opauc-batch", c, "-o", m]));
    assert!(!warned(&[
        "train",
        "--algo",
        "pa-i",
        "--label-column",
        "2",
        c,
        "-o",
        m
    ]));
    // cv warns before it finds that one row cannot be cut into stratified folds.
    let o = auc(&["cv", "--algo", "pa-i", "--data", c, "--folds", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(warning), "{}", stderr(&o));
}

/// Class 3: `predict --positive L` computes the printed AUC and AP for that class.
#[test]
fn class_3_predict_positive_picks_the_metrics_class() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    assert!(
        auc(&["train", "--algo", "oauc-m", &heart(), "-o", m])
            .status
            .success()
    );
    let h = heart();
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["predict", "-m", m, h.as_str(), "--json"];
        args.extend_from_slice(extra);
        let o = auc(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        serde_json::from_str(stdout(&o).trim()).unwrap()
    };
    let plus = json(&[]);
    let minus = json(&["--positive", "-1"]);
    assert_eq!(minus["positive"], serde_json::json!([-1.0]));
    let (a, b) = (
        plus["auc"].as_f64().unwrap(),
        minus["auc"].as_f64().unwrap(),
    );
    assert!((a + b - 1.0).abs() < 1e-12, "{a} + {b}");
    check_fails(&["predict", "-m", m, &heart(), "--positive", "7"], "7");
}

/// Class 4: a run whose iterate leaves the bound its theory gives warns, names the parameter
/// to lower, and says `"diverged": true` in JSON.
#[test]
fn class_4_divergence_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    let o = auc(&[
        "train",
        "--algo",
        "opauc",
        "--eta",
        "1024",
        "--lambda",
        "0.001",
        &heart(),
        "-o",
        m,
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: opauc diverged"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("lower eta (now 1024)"),
        "{}",
        stderr(&o)
    );
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j["diverged"], true);
    let o = auc(&["model", m]);
    assert!(stdout(&o).contains("diverged"), "{}", stdout(&o));
    // The default parameters do not diverge on the bundled data.
    let o = auc(&["train", "--algo", "opauc", &heart(), "-o", m, "--json"]);
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j["diverged"], false, "{}", stderr(&o));
    // cv and stream say it too.
    let o = auc(&[
        "cv",
        "--algo",
        "opauc",
        "--eta",
        "1024",
        "--data",
        &heart(),
        "--repeats",
        "1",
        "--folds",
        "2",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["diverged"], true);
    let o = auc(&[
        "stream",
        "--algo",
        "opauc",
        "--eta",
        "1024",
        &heart(),
        "--json",
    ]);
    let last: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!(last["diverged"], true);
}

/// Rows with features near 1e300 (a file a user may train on with `--scale none`).
fn huge(dir: &Path) -> std::path::PathBuf {
    let mut text = String::new();
    for i in 0..40 {
        let (y, v) = if i % 2 == 0 { (1, 1e300) } else { (-1, -3e299) };
        text.push_str(&format!("{y} 1:{v} 2:{}\n", v * 0.5 + f64::from(i)));
    }
    write(dir, "huge.libsvm", &text)
}

/// Class 5: features near 1e300 without scaling never give NaN or infinite scores with exit
/// code 0: the scores are finite, or the command fails naming the cause.
#[test]
fn class_5_no_nan_or_infinite_scores_with_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    let data = huge(dir.path());
    let d = data.to_str().unwrap();
    for algo in ["perceptron", "oam-gra", "solam", "pa-i"] {
        let model = dir.path().join(format!("{algo}.auc"));
        let m = model.to_str().unwrap();
        let t = auc(&["train", "--algo", algo, d, "--scale", "none", "-o", m]);
        if !t.status.success() {
            assert_eq!(t.status.code(), Some(2), "{algo}: {}", stderr(&t));
            continue;
        }
        let o = auc(&["predict", "-m", m, d]);
        match o.status.code() {
            Some(0) => {
                for l in stdout(&o).lines() {
                    let v: f64 = l.parse().unwrap();
                    assert!(v.is_finite(), "{algo}: {l}");
                }
            }
            Some(2) => assert!(stderr(&o).contains("too large"), "{algo}: {}", stderr(&o)),
            other => panic!("{algo}: exit {other:?}: {}", stderr(&o)),
        }
    }
}

/// Class 6: a model that `auc train` saved always loads: train decodes and validates what it
/// wrote before renaming it into place, for every algorithm, on extreme inputs too.
#[test]
fn class_6_every_saved_model_loads() {
    let dir = tempfile::tempdir().unwrap();
    let algos: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["algos", "--json"]))).unwrap();
    let extreme = huge(dir.path());
    for a in algos.as_array().unwrap() {
        let name = a["name"].as_str().unwrap();
        for (data, scale) in [
            (extreme.to_str().unwrap(), "auto"),
            (extreme.to_str().unwrap(), "none"),
        ] {
            let model = dir.path().join(format!("{name}.auc"));
            let m = model.to_str().unwrap();
            let t = auc(&[
                "train", "--algo", name, data, "--scale", scale, "--param", "n_loc=4", "-o", m,
            ]);
            let t = if stderr(&t).contains("unknown parameter n_loc") {
                auc(&["train", "--algo", name, data, "--scale", scale, "-o", m])
            } else {
                t
            };
            assert!(
                matches!(t.status.code(), Some(0 | 2)),
                "{name}: {}",
                stderr(&t)
            );
            if t.status.success() {
                let o = auc(&["predict", "-m", m, data]);
                assert!(
                    !stderr(&o).contains("not a valid") && !stderr(&o).contains("cannot decode"),
                    "{name} saved a model predict rejects: {}",
                    stderr(&o)
                );
                assert!(
                    matches!(o.status.code(), Some(0 | 2)),
                    "{name}: {}",
                    stderr(&o)
                );
            }
        }
    }
}

/// Class 7: the checksum covers the header; an older version number is refused by name, and an
/// edited payload with a recomputed checksum is a validation error, never a panic.
#[test]
fn class_7_model_header_is_checksummed_and_models_validated() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    assert!(
        auc(&["train", "--algo", "pa-i", &heart(), "-o", m])
            .status
            .success()
    );
    let bytes = std::fs::read(&model).unwrap();
    // An older version number is refused by name, before anything is decoded.
    let mut v2 = bytes.clone();
    v2[8] = 2;
    let p = dir.path().join("v2.auc");
    std::fs::write(&p, &v2).unwrap();
    check_fails(
        &["predict", "-m", p.to_str().unwrap(), &heart()],
        "model format version 2",
    );
    check_fails(
        &["train", "--resume", p.to_str().unwrap(), &heart(), "-o", m],
        "model format version 2",
    );
    // A changed payload byte fails the checksum; with the checksum recomputed (a crafted
    // file), the decoded model fails its validation instead: never a panic or a NaN.
    let reseal = |b: &mut Vec<u8>| {
        let n = b.len() - 4;
        let crc = crc32fast::hash(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
    };
    let last = bytes.len() - 12;
    let mut edited = bytes.clone();
    edited[last] ^= 0x40;
    std::fs::write(&p, &edited).unwrap();
    check_fails(
        &["predict", "-m", p.to_str().unwrap(), &heart()],
        "checksum mismatch",
    );
    // The state is the payload's last field and PA-I's last weight its last 8 bytes: make it
    // NaN.
    let n = edited.len();
    edited[n - 12..n - 4].copy_from_slice(&f64::NAN.to_le_bytes());
    reseal(&mut edited);
    std::fs::write(&p, &edited).unwrap();
    let o = auc(&["predict", "-m", p.to_str().unwrap(), &heart()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(p.to_str().unwrap()), "{}", stderr(&o));
    // The format-2 fixtures of the previous release are refused the same way.
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../auc-learners/tests/golden/v2/heart-oauc-m.auc");
    check_fails(
        &["predict", "-m", fixture.to_str().unwrap(), &heart()],
        "format version 2",
    );
}

/// Class 8: scaling never panics: subnormal ranges, and test values far outside the training
/// range, give finite scaled values.
#[test]
fn class_8_scaling_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let tiny = write(
        dir.path(),
        "tiny.libsvm",
        "1 1:1e-310\n-1 1:2e-310\n1 1:1.5e-310\n-1 1:1.8e-310\n",
    );
    let model = dir.path().join("t.auc");
    let m = model.to_str().unwrap();
    for scale in ["minmax", "maxabs", "auto"] {
        let o = auc(&[
            "train",
            "--algo",
            "pa-i",
            tiny.to_str().unwrap(),
            "--scale",
            scale,
            "-o",
            m,
        ]);
        assert!(o.status.success(), "{scale}: {}", stderr(&o));
        let far = write(dir.path(), "far.libsvm", "1 1:1e308\n-1 1:-1e308\n");
        let o = auc(&["predict", "-m", m, far.to_str().unwrap()]);
        assert!(o.status.success(), "{scale}: {}", stderr(&o));
        for l in stdout(&o).lines() {
            assert!(l.parse::<f64>().unwrap().is_finite(), "{scale}: {l}");
        }
    }
}

/// Class 9: memory is estimated before it is allocated: a legal but huge index, a moment
/// learner at p = 100,000 and an n^2 batch fit are refused with the figure and what to do.
#[test]
fn class_9_memory_is_checked_before_allocation() {
    let dir = tempfile::tempdir().unwrap();
    let big = write(
        dir.path(),
        "big.libsvm",
        "1 4294967295:1\n-1 1:1\n1 2:1\n-1 3:1\n",
    );
    let model = dir.path().join("b.auc");
    let (b, m) = (big.to_str().unwrap(), model.to_str().unwrap());
    check_fails(
        &["train", "--algo", "pa-i", b, "-o", m, "--max-memory", "8G"],
        "--hash-bits",
    );
    let o = auc(&["train", "--algo", "pa-i", b, "--hash-bits", "18", "-o", m]);
    assert!(o.status.success(), "{}", stderr(&o));
    let wide = write(
        dir.path(),
        "wide.libsvm",
        "1 100000:1\n-1 1:1\n1 2:1\n-1 3:1\n",
    );
    // The exact moments are refused with the figure; without `sketch` given, opauc sketches
    // them instead (crates/auc-cli/tests/moments_cli.rs tests that route).
    check_fails(
        &[
            "train",
            "--algo",
            "opauc",
            "--param",
            "sketch=0",
            wide.to_str().unwrap(),
            "-o",
            m,
            "--max-memory",
            "8G",
        ],
        "opauc on 100000 features beside the first pass's ranges of them needs about 80.01 GB",
    );
    // 200,000 rows for an n x n fused kernel (five 160 GB matrices).
    let mut rows = String::with_capacity(1_400_000);
    for i in 0..200_000u32 {
        rows.push_str(if i % 2 == 0 { "1 1:1\n" } else { "-1 1:2\n" });
    }
    let many = write(dir.path(), "many.libsvm", &rows);
    check_fails(
        &[
            "train",
            "--algo",
            "gam-cvm",
            many.to_str().unwrap(),
            "-o",
            m,
            "--max-memory",
            "8G",
        ],
        "needs about",
    );
    // Min-max scaling makes every row dense: the scaler and the dense rows in flight are
    // counted before the pass (4 Mi hashed features: 168 MB of scaler, 134 MB of rows).
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            b,
            "--hash-bits",
            "22",
            "--scale",
            "minmax",
            "-o",
            m,
            "--max-memory",
            "200M",
        ],
        "min-max scaling of 4194304 features (the scaler and the dense rows in flight) needs about",
    );
    // The default scaling keeps sparse data sparse (max-abs below 10 % density).
    let o = auc(&["info", b, "--hash-bits", "18"]);
    assert!(stdout(&o).contains("scale auto  maxabs"), "{}", stdout(&o));
}

/// Class 10: edge cases. One class or no rows is exit 2; Friedman with agreeing ranks reports
/// the chi-square test; `stream` says what it skipped; failed writes leave no temporary file
/// and an overwritten output keeps its mode.
#[test]
fn class_10_edge_cases() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    let one = write(dir.path(), "one.libsvm", "1 1:1\n1 1:2\n1 1:3\n");
    check_fails(
        &["train", "--algo", "pa-i", one.to_str().unwrap(), "-o", m],
        "needs both classes",
    );
    // Read once (no ranges needed) or after a survey, a one-class file names no rule's reason.
    for scale in ["none", "minmax"] {
        let o = auc(&[
            "train",
            "--algo",
            "pa-i",
            "--scale",
            scale,
            one.to_str().unwrap(),
            "-o",
            m,
        ]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains("one class only: 3 positive, 0 negative"),
            "{err}"
        );
        assert!(!err.contains("of a {-1, +1} file"), "{err}");
    }
    let empty = write(dir.path(), "empty.libsvm", "");
    check_fails(
        &["train", "--algo", "pa-i", empty.to_str().unwrap(), "-o", m],
        "needs both classes",
    );
    assert!(!model.exists(), "no model file is written on failure");

    let table = write(
        dir.path(),
        "t.csv",
        "name,A,B,C\nd1,0.9,0.8,0.7\nd2,0.95,0.85,0.75\n",
    );
    let o = auc(&["friedman", table.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("chi-square"), "{}", stdout(&o));
    assert!(stdout(&o).contains("not rejected"), "{}", stdout(&o));

    // 20 negatives, then 10 positives: the checkpoints at 5, 10, 15 and 20 see one class.
    let sorted = write(
        dir.path(),
        "sorted.libsvm",
        &format!("{}{}", "-1 1:1\n".repeat(20), "1 1:2\n".repeat(10)),
    );
    let o = auc(&[
        "stream",
        "--algo",
        "pa-i",
        sorted.to_str().unwrap(),
        "--every",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("before both classes had appeared"),
        "{}",
        stderr(&o)
    );

    // An overwritten output keeps its mode; a failed run leaves no temporary file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert!(
            auc(&["train", "--algo", "pa-i", &heart(), "-o", m])
                .status
                .success()
        );
        std::fs::set_permissions(&model, std::fs::Permissions::from_mode(0o640)).unwrap();
        assert!(
            auc(&["train", "--algo", "pa-i", &heart(), "-o", m])
                .status
                .success()
        );
        let mode = std::fs::metadata(&model).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }
    let _ = auc(&["train", "--algo", "pa-i", one.to_str().unwrap(), "-o", m]);
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}
