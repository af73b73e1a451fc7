//! End-to-end tests of the `auc` binary: exit codes, messages and outputs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{auc, check_fails, heart, stderr, stdout, write};

#[test]
fn info_describes_the_bundled_dataset() {
    let o = auc(&["info", &heart()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("instances   270"), "{out}");
    assert!(out.contains("features    13"), "{out}");
    assert!(out.contains("-1: 150, +1: 120"), "{out}");
    assert!(out.contains("imbalance   1.25"), "{out}");
    let j: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["info", &heart(), "--json"]))).unwrap();
    assert_eq!(j["instances"], 270);
    assert_eq!(j["positives"], 120);
    assert_eq!(j["negatives"], 150);
}

#[test]
fn malformed_files_give_exit_2_and_file_line_col() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("zero.libsvm", "1 1:0.5\n-1 0:1\n", ":2:4:"),
        ("order.libsvm", "1 3:0.5 2:1\n", ":1:9:"),
        ("dup.libsvm", "1 2:0.5 2:1\n", ":1:9:"),
        ("colon.libsvm", "1 2:0.5\n-1 3 0.5\n", ":2:4:"),
        ("nan.libsvm", "1 1:nan\n", ":1:5:"),
        ("label.libsvm", "yes 1:1\n", ":1:1:"),
    ];
    for (name, text, at) in cases {
        let p = write(dir.path(), name, text);
        let path = p.display().to_string();
        check_fails(
            &["info", &path, "--zero-based", "no"],
            &format!("{path}{at}"),
        );
    }
}

#[test]
fn metrics_reads_scores_and_bare_labels() {
    let dir = tempfile::tempdir().unwrap();
    // Positives 0.9, 0.5, 0.3; negatives 0.6, 0.3: AUC 3.5/6 (see auc-eval's hand-checked test).
    let s = write(dir.path(), "s.txt", "0.9\n0.6\n0.5\n0.3\n0.3\n");
    let y = write(dir.path(), "y.txt", "1\n-1\n1\n1\n-1\n");
    let o = auc(&[
        "metrics",
        "--scores",
        s.to_str().unwrap(),
        "--labels",
        y.to_str().unwrap(),
        "--positive",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!((j["auc"].as_f64().unwrap() - 3.5 / 6.0).abs() < 1e-15);
    let one = write(dir.path(), "one.txt", "1\n1\n1\n1\n1\n");
    check_fails(
        &[
            "metrics",
            "--scores",
            s.to_str().unwrap(),
            "--labels",
            one.to_str().unwrap(),
        ],
        "both classes",
    );
    let bad = write(dir.path(), "bad.txt", "0.9\nx\n");
    check_fails(
        &[
            "metrics",
            "--scores",
            bad.to_str().unwrap(),
            "--labels",
            y.to_str().unwrap(),
        ],
        "bad.txt:2:1:",
    );
}

#[test]
fn cv_and_curve_take_their_data_as_train_does_or_with_data() {
    // The same runs from `auc cv FILE` as from `auc cv --data FILE` (the AUCs and parameters of
    // every run; the times differ), and the two forms together refused with exit 2.
    let runs = |o: &Output| -> Vec<(String, String)> {
        assert!(o.status.success(), "{}", stderr(o));
        stdout(o)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|r| r["summary"].is_null())
            .map(|r| (r["auc"].to_string(), r["params"].to_string()))
            .collect()
    };
    let common = [
        "--repeats",
        "1",
        "--folds",
        "3",
        "--grid",
        "c=2^-2..2^2:2",
        "--json",
    ];
    let mut positional = vec!["cv", "--algo", "pa-i"];
    let h = heart();
    positional.push(&h);
    positional.extend(common);
    let mut flagged = vec!["cv", "--algo", "pa-i", "--data", &h];
    flagged.extend(common);
    let (a, b) = (runs(&auc(&positional)), runs(&auc(&flagged)));
    assert_eq!(a.len(), 3);
    assert_eq!(a, b);
    let both = auc(&["cv", "--algo", "pa-i", "--data", &h, &h]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        stderr(&both).contains("cannot be used with"),
        "{}",
        stderr(&both)
    );
    let none = auc(&["cv", "--algo", "pa-i"]);
    assert_eq!(none.status.code(), Some(2));
    let curve = auc(&["curve", "--algo", "pa-i", &h, "--every", "100"]);
    assert!(curve.status.success(), "{}", stderr(&curve));
}

#[test]
fn cv_json_gives_one_line_per_run_and_a_summary() {
    let o = auc(&[
        "cv",
        "--algo",
        "pa-i",
        "--data",
        &heart(),
        "--repeats",
        "2",
        "--folds",
        "3",
        "--inner-folds",
        "2",
        "--grid",
        "c=2^-2..2^2:2",
        "--seed",
        "7",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7);
    for (i, r) in lines[..6].iter().enumerate() {
        assert_eq!(r["run"], i);
        for key in ["repeat", "fold", "auc", "ap", "params", "train_seconds"] {
            assert!(!r[key].is_null(), "run {i} lacks {key}");
        }
        let c = r["params"]["c"].as_f64().unwrap();
        assert!([0.25, 1.0, 4.0].contains(&c), "{c}");
    }
    let s = &lines[6];
    assert_eq!(s["summary"], true);
    assert_eq!(s["algo"], "pa-i");
    assert_eq!(s["dataset"], "heart.libsvm");
    assert_eq!(s["runs"], 6);
    let mean = s["auc_mean"].as_f64().unwrap();
    assert!(
        mean > 0.8 && mean <= 1.0,
        "PA-I on heart should rank well: {mean}"
    );
    // Same seed, different thread count: identical records apart from timings.
    let again = auc(&[
        "cv",
        "--algo",
        "pa-i",
        "--data",
        &heart(),
        "--repeats",
        "2",
        "--folds",
        "3",
        "--inner-folds",
        "2",
        "--grid",
        "c=2^-2..2^2:2",
        "--seed",
        "7",
        "--json",
        "--threads",
        "1",
    ]);
    let strip = |o: &Output| -> Vec<(f64, f64, String)> {
        stdout(o)
            .lines()
            .take(6)
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["auc"].as_f64().unwrap(),
                    v["ap"].as_f64().unwrap(),
                    v["params"].to_string(),
                )
            })
            .collect()
    };
    assert_eq!(strip(&o), strip(&again));
}

/// `cv --each` cross-validates every grid point on its own: one summary per point, in grid
/// order, each the same as a plain `cv` with that point's parameters fixed (how
/// `docs/results/defaults.md` measures every point).
#[test]
fn cv_each_gives_one_summary_per_point_equal_to_a_fixed_run() {
    let common = [
        "cv",
        "--algo",
        "pa-i",
        "--repeats",
        "2",
        "--folds",
        "3",
        "--seed",
        "3",
        "--json",
    ];
    let h = heart();
    let mut args: Vec<&str> = common.to_vec();
    args.extend(["--data", &h, "--each", "--grid", "c=2^-2..2^2:2"]);
    let o = auc(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (line, c) in lines.iter().zip(["0.25", "1", "4"]) {
        assert_eq!(line["summary"], true);
        assert_eq!(line["runs"], 6);
        assert_eq!(line["diverged"], false);
        assert_eq!(line["diverged_runs"], 0);
        assert_eq!(line["params"]["c"].as_f64(), c.parse::<f64>().ok());
        let aucs: Vec<f64> = line["aucs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_f64().unwrap())
            .collect();
        assert_eq!(aucs.len(), 6);
        let mean = line["auc_mean"].as_f64().unwrap();
        assert!((mean - aucs.iter().sum::<f64>() / 6.0).abs() < 1e-12);
        let mut fixed: Vec<&str> = common.to_vec();
        let param = format!("c={c}");
        fixed.extend(["--data", &h, "--param", &param]);
        let f = auc(&fixed);
        assert!(f.status.success(), "{}", stderr(&f));
        let summary: serde_json::Value =
            serde_json::from_str(stdout(&f).lines().last().unwrap()).unwrap();
        assert_eq!(summary["auc_mean"].as_f64(), Some(mean), "c = {c}");
    }
}

#[test]
fn cv_prints_a_table_and_mean() {
    let o = auc(&[
        "cv",
        "--algo",
        "perceptron",
        "--data",
        &heart(),
        "--repeats",
        "1",
        "--folds",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 7, "{out}");
    assert!(
        out.contains("perceptron on heart.libsvm: 5 runs, AUC 0."),
        "{out}"
    );
}

#[test]
fn usage_errors_exit_2() {
    check_fails(
        &["cv", "--algo", "nope", "--data", &heart()],
        "unknown algorithm `nope`",
    );
    check_fails(
        &[
            "cv",
            "--algo",
            "pa-i",
            "--data",
            &heart(),
            "--grid",
            "c=2^3..2^1",
        ],
        "c=2^3..2^1",
    );
    check_fails(
        &[
            "cv",
            "--algo",
            "pa-i",
            "--data",
            &heart(),
            "--grid",
            "c=-1,1",
        ],
        "parameter c = -1",
    );
    check_fails(
        &[
            "cv",
            "--algo",
            "pa-i",
            "--data",
            &heart(),
            "--grid",
            "eta=1",
        ],
        "unknown parameter eta",
    );
    check_fails(
        &["cv", "--algo", "pa-i", "--data", "/nonexistent/file.libsvm"],
        "/nonexistent/file.libsvm",
    );
    check_fails(&["info", &heart(), "--positive", "3"], "3");
    let o = auc(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn algos_lists_every_algorithm_with_parameters() {
    let out = stdout(&auc(&["algos"]));
    assert!(out.contains("perceptron"), "{out}");
    assert!(out.contains("pa-i"), "{out}");
    assert!(out.contains("pa-i (alias: pa1) [linear]"), "{out}");
    assert!(out.contains("    c             0.25"), "{out}");
    // The default learner comes first, marked; the JSON marks it and keeps the registry order.
    assert!(out.starts_with("blend (default) ["), "{out}");
    assert_eq!(out.matches("(default)").count(), 1, "{out}");
    let all: serde_json::Value = serde_json::from_str(&stdout(&auc(&["algos", "--json"]))).unwrap();
    let marked: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["default"] == true)
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(marked, ["blend"]);
}

#[test]
fn curve_prints_test_auc_along_the_stream() {
    // heart: 270 rows, one of 5 folds held out -> 216 training updates, points at 50..200 and 216.
    let o = auc(&[
        "curve",
        "--algo",
        "pa-i",
        "--data",
        &heart(),
        "--every",
        "50",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pts: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let at: Vec<u64> = pts.iter().map(|p| p["updates"].as_u64().unwrap()).collect();
    assert_eq!(at, vec![50, 100, 150, 200, 216]);
    assert!(
        pts.iter()
            .all(|p| (0.0..=1.0).contains(&p["auc"].as_f64().unwrap()))
    );
    check_fails(
        &[
            "curve",
            "--algo",
            "pa-i",
            "--data",
            &heart(),
            "--every",
            "0",
        ],
        "every = 0",
    );
}

#[test]
fn friedman_ranks_methods_from_a_score_table() {
    let dir = tempfile::tempdir().unwrap();
    // Method a wins on every row, b is second, c last: ranks 1, 2, 3; chi2 = 12*4/(3*4) *
    // (1 + 4 + 9 - 12) = 8 = N(k-1), so F_F is infinite and the chi-square test rejects.
    let t = write(
        dir.path(),
        "t.csv",
        "name,a,b,c\nd1,0.9,0.8,0.7\nd2,0.95,0.9,0.5\nd3,0.8,0.7,0.6\nd4,0.7,0.6,0.5\n",
    );
    let o = auc(&["friedman", t.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["methods"], 3);
    assert_eq!(j["observations"], 4);
    assert!((j["chi2"].as_f64().unwrap() - 8.0).abs() < 1e-12);
    // F_F is infinite: the chi-square test decides (8 on 2 df, p = e^-4 = 0.018).
    assert_eq!(j["test"], "chi-square");
    assert_eq!(j["rejected"], true);
    assert_eq!(j["ranks"][0]["method"], "a");
    let bad = write(dir.path(), "bad.csv", "name,a,b\nd1,0.9,x\n");
    check_fails(
        &["friedman", bad.to_str().unwrap()],
        "bad.csv:2:8: expected a number",
    );
}

#[test]
fn cv_with_a_test_file_concatenated_data_and_a_limit() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(heart()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The first 100 rows split over two files (limit 90 keeps 90 of them), the rest is the test
    // set; the test file has fewer columns on some rows, which must still line up.
    let a = write(dir.path(), "a.libsvm", &(lines[..50].join("\n") + "\n"));
    let b = write(dir.path(), "b.libsvm", &(lines[50..100].join("\n") + "\n"));
    let t = write(dir.path(), "t.libsvm", &(lines[100..].join("\n") + "\n"));
    let o = auc(&[
        "cv",
        "--algo",
        "pa-i",
        "--data",
        a.to_str().unwrap(),
        "--data",
        b.to_str().unwrap(),
        "--limit",
        "90",
        "--test",
        t.to_str().unwrap(),
        "--repeats",
        "3",
        "--inner-folds",
        "3",
        "--grid",
        "c=0.1,1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 4);
    for r in &rows[..3] {
        assert_eq!(r["n_train"], 90);
        assert_eq!(r["n_test"], 170);
    }
    assert_eq!(rows[3]["dataset"], "a.libsvm+1");
    assert_eq!(rows[3]["n_examples"], 90);
}

/// Splits the bundled data into two files of 150 and 120 rows.
fn halves(dir: &Path) -> (PathBuf, PathBuf) {
    let text = std::fs::read_to_string(heart()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    (
        write(dir, "a.libsvm", &(lines[..150].join("\n") + "\n")),
        write(dir, "b.libsvm", &(lines[150..].join("\n") + "\n")),
    )
}

#[test]
fn resume_gives_the_uninterrupted_model_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = halves(dir.path());
    let p = |n: &str| dir.path().join(n).display().to_string();
    let (a, b) = (a.display().to_string(), b.display().to_string());
    // Every algorithm, with values for its required parameters.
    let algos: &[(&str, &[&str])] = &[
        ("perceptron", &[]),
        ("pa-i", &[]),
        ("oauc-m", &["--lambda", "0.1"]),
        ("oauc-mc", &["--eta", "0.1", "--lambda", "0.01"]),
        ("opauc", &["--eta", "0.1", "--lambda", "0.01"]),
        (
            "adaoam",
            &["--eta", "0.1", "--lambda", "0.01", "--epsilon", "1e-8"],
        ),
        (
            "admoam",
            &[
                "--eta",
                "0.1",
                "--lambda",
                "0.01",
                "--beta1",
                "0.9",
                "--beta2",
                "0.999",
                "--epsilon",
                "1e-8",
            ],
        ),
        ("oam-seq", &["--c", "1"]),
        ("oam-gra", &["--c", "1", "--budget", "20"]),
        ("solam", &["--eta", "1", "--r", "10"]),
        (
            "okauc-m",
            &["--lambda", "0.1", "--sigma", "2", "--budget", "30"],
        ),
        (
            "okauc-s",
            &[
                "--eta",
                "0.1",
                "--lambda",
                "0.01",
                "--sigma",
                "2",
                "--budget",
                "30",
                "--removal",
                "reservoir",
            ],
        ),
        (
            "koil",
            &[
                "--eta",
                "0.1",
                "--sigma",
                "2",
                "--k",
                "5",
                "--budget",
                "30",
                "--removal",
                "reservoir",
            ],
        ),
    ];
    for &(algo, params) in algos {
        // Kernel learners have no weight vector to average.
        let average: &[&str] = if algo.starts_with("okauc") || algo == "koil" {
            &[]
        } else {
            &["--average"]
        };
        let params = &[average, params].concat();
        let ok = |args: &[&str]| {
            let o = auc(args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        };
        fn with<'a>(args: &[&'a str], params: &[&'a str]) -> Vec<&'a str> {
            [args, params].concat()
        }
        let full = p("full");
        let part = p("part");
        ok(&with(
            &[
                "train",
                "--algo",
                algo,
                &a,
                &b,
                "--no-scale",
                "--seed",
                "5",
                "-o",
                &full,
            ],
            params,
        ));
        ok(&with(
            &[
                "train",
                "--algo",
                algo,
                &a,
                "--no-scale",
                "--seed",
                "5",
                "-o",
                &part,
            ],
            params,
        ));
        ok(&["train", "--resume", &p("part"), &b, "-o", &p("resumed")]);
        let full = std::fs::read(p("full")).unwrap();
        assert_eq!(full, std::fs::read(p("resumed")).unwrap(), "{algo}");
        // With scaling, the resumed run keeps the scaler fitted on the first input.
        ok(&with(
            &["train", "--algo", algo, &a, "-o", &p("scaled")],
            &params[average.len()..],
        ));
        ok(&["train", "--resume", &p("scaled"), &b, "-o", &p("scaled2")]);
        let o = auc(&["predict", "-m", &p("scaled2"), &heart()]);
        assert!(o.status.success(), "{algo}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().count(), 270, "{algo}");
    }
    check_fails(
        &[
            "train",
            "--resume",
            &p("part"),
            &b,
            "--c",
            "2",
            "-o",
            &p("x"),
        ],
        "cannot be given with --resume",
    );
    check_fails(
        &[
            "train",
            "--resume",
            &p("part"),
            &b,
            "--algo",
            "perceptron",
            "-o",
            &p("x"),
        ],
        "differs",
    );
    check_fails(
        &[
            "train",
            "--algo",
            "koil",
            &a,
            "--eta",
            "0.1",
            "--sigma",
            "1",
            "--average",
            "-o",
            &p("x"),
        ],
        "--average averages the iterates of a linear one-pass learner; koil is a kernel learner",
    );
    assert!(!dir.path().join("x").exists(), "no output file on error");
}

#[test]
fn predict_scores_every_row_and_rejects_damaged_models() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m").display().to_string();
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        "--c",
        "0.25",
        "--shuffle",
        "3",
        &heart(),
        "-o",
        &m,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = auc(&["predict", "-m", &m, &heart()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let scores: Vec<f64> = stdout(&o).lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(scores.len(), 270);
    assert!(
        stderr(&o).contains("AUC 0.8") || stderr(&o).contains("AUC 0.9"),
        "{}",
        stderr(&o)
    );
    let out = dir.path().join("s.txt");
    let o = auc(&["predict", "-m", &m, &heart(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success() && o.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 270);
    let mut bytes = std::fs::read(&m).unwrap();
    let last = bytes.len() - 5;
    bytes[last] ^= 0xff;
    let bad = dir.path().join("bad");
    std::fs::write(&bad, bytes).unwrap();
    check_fails(
        &["predict", "-m", bad.to_str().unwrap(), &heart()],
        "checksum",
    );
    let wide = write(dir.path(), "wide.libsvm", "1 14:1\n-1 1:1\n");
    check_fails(
        &["predict", "-m", &m, wide.to_str().unwrap(), "--strict-dim"],
        "feature index 14 exceeds the given dimension 13: expected at most 13 (the model was trained on 13 features)",
    );
}

#[test]
fn stream_prints_the_prequential_curve() {
    let o = auc(&[
        "stream",
        "--algo",
        "pa-i",
        &heart(),
        "--every",
        "100",
        "--shuffle",
        "1",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let at: Vec<u64> = lines
        .iter()
        .filter(|v| v["summary"].is_null())
        .map(|v| v["examples"].as_u64().unwrap())
        .collect();
    assert_eq!(at, vec![100, 200, 270]);
    let summary = lines.last().unwrap();
    assert_eq!(summary["summary"], true);
    assert_eq!(summary["skipped"], 0);
}

#[test]
fn single_class_data_names_the_absent_class() {
    let dir = tempfile::tempdir().unwrap();
    let one = write(
        dir.path(),
        "one.libsvm",
        "1 1:1\n1 1:2\n1 1:3\n1 1:4\n1 1:5\n1 1:6\n",
    );
    check_fails(
        &["cv", "--algo", "pa-i", "--data", one.to_str().unwrap()],
        "cross-validation needs both classes; the data holds 6 positive and 0 negative",
    );
}
