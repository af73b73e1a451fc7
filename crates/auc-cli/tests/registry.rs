//! The command line grows from the registry: every algorithm `auc algos --json` lists trains
//! with no parameter, is described by `auc model`, tunes with `--tune`, and takes its
//! parameters as flags; and the everyday habits (`-` for stdin and stdout, gzip input, ROC
//! output, "did you mean") work.

mod common;

use std::io::Write;

use common::{auc, auc_with_stdin, check_fails, heart, stderr, stdout, write};

fn algorithms() -> Vec<serde_json::Value> {
    let o = auc(&["algos", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v.as_array().unwrap().clone()
}

#[test]
fn every_algorithm_trains_with_no_parameter_and_is_described() {
    let dir = tempfile::tempdir().unwrap();
    for a in algorithms() {
        let name = a["name"].as_str().unwrap();
        let model = dir.path().join(format!("{name}.auc"));
        let m = model.to_str().unwrap();
        let o = auc(&["train", "--algo", name, &heart(), "-o", m]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("positive class: +1"),
            "{name}: {}",
            stderr(&o)
        );
        let o = auc(&["model", m, "--json"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(j["algo"], name);
        assert_eq!(j["features"], 13);
        assert_eq!(j["training"]["examples"], 270);
        for p in a["params"].as_array().unwrap() {
            let p = p["name"].as_str().unwrap();
            assert!(
                !j["params"][p].is_null(),
                "{name}: parameter {p} missing from auc model"
            );
        }
        let o = auc(&["predict", "-m", m, &heart()]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 270, "{name}");
        let text = stdout(&auc(&["model", m]));
        assert!(text.contains(&format!("algorithm   {name}")), "{text}");
    }
}

#[test]
fn every_algorithm_tunes_over_its_default_grid() {
    let dir = tempfile::tempdir().unwrap();
    for a in algorithms() {
        let name = a["name"].as_str().unwrap();
        let model = dir.path().join(format!("{name}.auc"));
        let o = auc(&[
            "train",
            "--algo",
            name,
            &heart(),
            "-o",
            model.to_str().unwrap(),
            "--tune",
            "--folds",
            "2",
            "--json",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        if a["grid"].as_array().unwrap().is_empty() {
            assert!(j["tuned"]["mean_auc"].is_null(), "{name}: {j}");
        } else {
            assert!(
                stderr(&o).contains("--tune chose"),
                "{name}: {}",
                stderr(&o)
            );
            assert!(
                j["tuned"]["mean_auc"].as_f64().unwrap() > 0.5,
                "{name}: {j}"
            );
            assert_eq!(
                j["tuned"]["params"], j["params"],
                "{name}: the saved model uses the chosen parameters"
            );
        }
    }
}

#[test]
fn parameters_are_flags_with_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc");
    let m = m.to_str().unwrap();
    let o = auc(&[
        "train",
        "--algo",
        "koil",
        "--removal",
        "reservoir",
        "--budget",
        "20",
        &heart(),
        "-o",
        m,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["model", m, "--json"]))).unwrap();
    assert_eq!(j["params"]["removal"], "reservoir");
    assert_eq!(j["params"]["budget"], 20.0);
    check_fails(
        &["train", "--algo", "opuac", &heart(), "-o", m],
        "did you mean `opauc`?",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "opauc",
            "--param",
            "lamda=1",
            &heart(),
            "-o",
            m,
        ],
        "did you mean lambda?",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "koil",
            "--removal",
            "lifo",
            &heart(),
            "-o",
            m,
        ],
        "one of fifo, reservoir",
    );
    check_fails(
        &["train", "--algo", "pa-i", "--c", "-1", &heart(), "-o", m],
        "parameter c = -1 is out of range",
    );
    check_fails(
        &["train", "--algo", "pa-i", "--eta", "1", &heart(), "-o", m],
        "unknown parameter eta",
    );
    // Grids take words.
    let o = auc(&[
        "cv",
        "--algo",
        "okauc-s",
        "--data",
        &heart(),
        "--repeats",
        "1",
        "--folds",
        "2",
        "--inner-folds",
        "2",
        "--grid",
        "removal=fifo,reservoir",
        "--budget",
        "10",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\"removal\":\"fifo\"")
            || stdout(&o).contains("\"removal\":\"reservoir\"")
    );
}

#[test]
fn dash_means_stdin_and_stdout_and_gzip_is_detected() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(heart()).unwrap();
    // cat f | auc info -
    let o = auc_with_stdin(&["info", "-"], &text);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("instances   270"), "{}", stdout(&o));
    // auc info f.libsvm.gz
    let gz = dir.path().join("heart.libsvm.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&text).unwrap();
    enc.finish().unwrap();
    let o = auc(&["info", gz.to_str().unwrap()]);
    assert!(stdout(&o).contains("instances   270"), "{}", stderr(&o));
    // auc train ... -o - | auc predict -m - data -o -
    let o = auc(&["train", "--algo", "pa-i", gz.to_str().unwrap(), "-o", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.starts_with(b"AUCMODEL"));
    let p = auc_with_stdin(&["predict", "-m", "-", &heart(), "-o", "-"], &o.stdout);
    assert!(p.status.success(), "{}", stderr(&p));
    assert_eq!(stdout(&p).lines().count(), 270);
    // Scores print in the shortest form that reads back to the same number.
    for l in stdout(&p).lines() {
        let v: f64 = l.parse().unwrap();
        assert_eq!(auc_core_shortest(v), l);
    }
    // The model can also come from a file and the data from stdin.
    let model = write(dir.path(), "m.auc", "");
    std::fs::write(&model, &o.stdout).unwrap();
    let p2 = auc_with_stdin(&["predict", "-m", model.to_str().unwrap(), "-"], &text);
    assert_eq!(stdout(&p2), stdout(&p));
}

/// The shortest round-trip form (as `auc_core::shortest`): Rust's `{:?}` without a trailing `.0`.
fn auc_core_shortest(v: f64) -> String {
    let s = format!("{v:?}");
    s.strip_suffix(".0").map_or(s.clone(), str::to_owned)
}

#[test]
fn metrics_writes_roc_points_and_an_svg() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "s", "0.9\n0.8\n0.7\n0.1\n0.2\n");
    let l = write(dir.path(), "l", "1\n-1\n1\n-1\n-1\n");
    let roc = dir.path().join("roc.csv");
    let svg = dir.path().join("roc.svg");
    let o = auc(&[
        "metrics",
        "--scores",
        s.to_str().unwrap(),
        "--labels",
        l.to_str().unwrap(),
        "--roc",
        roc.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(&roc).unwrap();
    assert!(csv.starts_with("fpr,tpr,threshold\n0,0,inf\n"), "{csv}");
    assert!(csv.trim_end().ends_with("1,1,0.1"), "{csv}");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // curve and stream draw too.
    let c = dir.path().join("c.svg");
    let o = auc(&[
        "stream",
        "--algo",
        "pa-i",
        &heart(),
        "--every",
        "50",
        "--svg",
        c.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&c).unwrap().starts_with("<svg"));
}
