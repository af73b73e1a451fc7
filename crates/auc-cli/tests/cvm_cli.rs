//! `auc cv` runs GAM-CVM and its baselines; bad parameters fail before training; `auc train`
//! saves a batch learner's inductive model and `auc predict` scores with it.

use std::path::Path;
use std::process::{Command, Output};

fn auc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_auc"))
        .args(args)
        .output()
        .expect("the auc binary runs")
}

fn heart() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/heart.libsvm")
        .display()
        .to_string()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A command that must succeed; returns its output.
fn ok(args: &[&str]) -> Output {
    let o = auc(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    o
}

/// A failing command exits 2 with `expected` on stderr, no panic, no stdout, and never calls a
/// known algorithm unknown.
fn check_fails(args: &[&str], expected: &str) {
    let o = auc(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(expected),
        "{args:?}: stderr lacks `{expected}`:\n{err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
    assert!(!err.contains("unknown algorithm"), "{err}");
    assert!(o.stdout.is_empty());
}

/// The AUC that `auc predict` printed on stderr.
fn printed_auc(o: &Output) -> f64 {
    let err = stderr(o);
    let at = err.find("; AUC ").expect("predict prints the AUC") + 6;
    err[at..].split(',').next().unwrap().parse().unwrap()
}

#[test]
fn cv_runs_gam_cvm_and_reports_a_good_auc() {
    let h = heart();
    for algo in ["gam-cvm", "gam-cvm-k13", "rho-auccvm"] {
        let o = auc(&[
            "cv",
            "--algo",
            algo,
            "--data",
            &h,
            "--positive",
            "1",
            "--repeats",
            "1",
            "--folds",
            "3",
            "--json",
            "--param",
            "n_loc=8",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        let summary = out.lines().last().unwrap();
        let at = summary.find("\"auc_mean\":").unwrap() + 11;
        let mean: f64 = summary[at..]
            .split([',', '}'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(mean > 0.8, "{algo}: {summary}");
    }
}

#[test]
fn bad_gam_cvm_parameters_fail_with_their_names() {
    let h = heart();
    for (param, name) in [
        ("c1=0", "c1"),
        ("epsilon=1", "epsilon"),
        ("n_loc=1000", "n_loc"),
    ] {
        let o = auc(&[
            "cv",
            "--algo",
            "gam-cvm",
            "--data",
            &h,
            "--positive",
            "1",
            "--repeats",
            "1",
            "--folds",
            "3",
            "--param",
            param,
        ]);
        assert_eq!(o.status.code(), Some(2), "{param}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(&format!("parameter {name} = ")),
            "{param}: {err}"
        );
    }
    let o = auc(&["curve", "--algo", "gam-cvm", "--data", &h]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("batch learner"));
}

/// The first 150 rows of the bundled data and the other 120, as two files in `dir`.
fn heart_halves(dir: &Path) -> (String, String) {
    let text = std::fs::read_to_string(heart()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let write = |name: &str, rows: &[&str]| {
        let p = dir.join(name);
        std::fs::write(&p, rows.join("\n") + "\n").unwrap();
        p.display().to_string()
    };
    (
        write("a.libsvm", &lines[..150]),
        write("b.libsvm", &lines[150..]),
    )
}

#[test]
fn train_saves_batch_models_that_predict_scores_with() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let (a, b) = heart_halves(dir.path());
    let h = heart();
    for algo in ["gam-cvm", "gam-cvm-k1"] {
        let m = p(algo);
        let o = ok(&[
            "train",
            "--algo",
            algo,
            &h,
            "--positive",
            "1",
            "--param",
            "n_loc=8",
            "-o",
            &m,
        ]);
        assert!(
            stderr(&o).contains(&format!("trained {algo} (")),
            "{}",
            stderr(&o)
        );
        assert!(stderr(&o).contains("on 270 examples"), "{}", stderr(&o));
        assert!(stderr(&o).contains(": tau "), "{}", stderr(&o));
        // O(n p): 270 rows of 13 features, their sparsities and scores, in 8-byte floats, plus
        // the weights; an n x n kernel alone would be 270^2 * 4 = 291,600 bytes.
        let size = std::fs::metadata(&m).unwrap().len();
        assert!(
            (270 * 15 * 8..60_000).contains(&size),
            "{algo}: {size} bytes"
        );
        let scores = p("scores.txt");
        let o = ok(&["predict", "-m", &m, &h, "-o", &scores]);
        assert!(o.stdout.is_empty());
        assert_eq!(
            std::fs::read_to_string(&scores).unwrap().lines().count(),
            270
        );
        assert!(printed_auc(&o) > 0.9, "{algo}: {}", stderr(&o));
        let o = ok(&["predict", "-m", &m, &h]);
        assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 270);
        // Held out: trained on 150 rows, scored on the other 120 (none of them fitted).
        let half = p("half");
        ok(&[
            "train",
            "--algo",
            algo,
            &a,
            "--positive",
            "1",
            "--param",
            "n_loc=8",
            "-o",
            &half,
        ]);
        let o = ok(&["predict", "-m", &half, &b]);
        assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 120);
        assert!(printed_auc(&o) > 0.8, "{algo} held out: {}", stderr(&o));
    }
    // Scaling flags are stored like an online model's: unit norm without min-max scaling.
    let m = p("unit");
    ok(&[
        "train",
        "--algo",
        "gam-cvm-k13",
        &h,
        "--no-scale",
        "--unit-norm",
        "--param",
        "n_loc=8",
        "-o",
        &m,
    ]);
    ok(&["predict", "-m", &m, &b]);
}

#[test]
fn batch_models_refuse_resume_average_streams_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let h = heart();
    let m = p("m");
    ok(&[
        "train", "--algo", "gam-cvm", &h, "--param", "n_loc=8", "-o", &m,
    ]);
    let x = p("x");
    check_fails(
        &["train", "--algo", "gam-cvm", &h, "--average", "-o", &x],
        "--average averages the iterates of a linear one-pass learner; gam-cvm is a batch learner",
    );
    check_fails(
        &["train", "--resume", &m, &h, "-o", &x],
        "is gam-cvm, a batch learner fitted on all its data at once",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "gam-cvm-k2",
            "--resume",
            &m,
            &h,
            "-o",
            &x,
        ],
        "is gam-cvm, a batch learner fitted on all its data at once",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "gam-cvm",
            &h,
            "--param",
            "transductive=true",
            "-o",
            &x,
        ],
        "transductive=true needs the rows to be scored",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "aucsvm",
            &h,
            "--param",
            "n_loc=1000",
            "-o",
            &x,
        ],
        "parameter n_loc = 1000",
    );
    check_fails(
        &["stream", "--algo", "rho-auccvm", &h],
        "`auc stream` needs a one-pass learner",
    );
    check_fails(
        &["curve", "--algo", "gam-cvm-k3", "--data", &h],
        "batch learner",
    );
    assert!(!Path::new(&x).exists(), "no model file on error");
    // A truncated model file, and a data file wider than the model.
    let bytes = std::fs::read(&m).unwrap();
    let cut = p("cut");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    check_fails(&["predict", "-m", &cut, &h], "truncated");
    let wide = p("wide.libsvm");
    std::fs::write(&wide, "1 14:1\n-1 1:1\n").unwrap();
    check_fails(
        &["predict", "-m", &m, &wide, "--strict-dim"],
        "(the model was trained on 13 features)",
    );
}
