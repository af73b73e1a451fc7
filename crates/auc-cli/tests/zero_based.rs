//! `--zero-based auto|yes|no`: files scikit-learn's `dump_svmlight_file` writes (indices from 0)
//! read by every command, a model that records how its file was read, `auc predict` reading
//! later files the model's way unless told otherwise, standard input judged on its first lines,
//! and training and test files decided together.

mod common;

use std::path::{Path, PathBuf};

use common::{auc, auc_with_stdin, check_fails, heart, stderr, stdout, write};

fn ok(o: &std::process::Output, what: &str) -> String {
    assert!(o.status.success(), "{what}: {}", stderr(o));
    stdout(o)
}

/// A fixture of auc-data written by scikit-learn (`make_zero_based.py`).
fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../auc-data/tests/data")
        .join(name)
        .display()
        .to_string()
}

/// `text` (LIBSVM lines) with each `INDEX:VALUE` token's index mapped by `map`, the token
/// dropped when `map` gives `None`.
fn reindexed(text: &str, map: impl Fn(u32) -> Option<u32>) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut tokens = line.split_whitespace();
        let Some(label) = tokens.next() else {
            continue;
        };
        out.push_str(label);
        for t in tokens {
            let (index, value) = t.split_once(':').expect("index:value");
            if let Some(j) = map(index.parse().expect("an index")) {
                out.push_str(&format!(" {j}:{value}"));
            }
        }
        out.push('\n');
    }
    out
}

/// The bundled data set written 0-based, as scikit-learn writes it.
fn heart_zero_based(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(heart()).unwrap();
    write(dir, "heart0.libsvm", &reindexed(&text, |i| Some(i - 1)))
}

#[test]
fn info_reads_scikit_learns_file_and_no_refuses_it() {
    let f = fixture("zero_based.libsvm");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&auc(&["info", &f, "--json"]), "info")).unwrap();
    assert_eq!(
        (&j["instances"], &j["features"], &j["reading"]),
        (&6.into(), &5.into(), &"LibsvmZeroBased".into())
    );
    let yes = ok(&auc(&["info", &f, "--json", "--zero-based", "yes"]), "yes");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&yes).unwrap(), j);
    let text = ok(&auc(&["info", &f]), "info");
    assert!(
        text.contains("features    5 (LIBSVM indices read 0-based"),
        "{text}"
    );
    check_fails(
        &["info", &f, "--zero-based", "no"],
        &format!("{f}:5:3: feature index 0: LIBSVM indices start at 1"),
    );
    check_fails(&["info", &f, "--zero-based", "no"], "--zero-based yes");
    // A 1-based file is read as before.
    let one = fixture("one_based.libsvm");
    let j: serde_json::Value =
        serde_json::from_str(&ok(&auc(&["info", &one, "--json"]), "info")).unwrap();
    assert_eq!(
        (&j["features"], &j["reading"]),
        (&5.into(), &"Libsvm".into())
    );
}

#[test]
fn a_model_of_a_0_based_file_scores_it_as_the_1_based_original_does() {
    let dir = tempfile::tempdir().unwrap();
    let (h, h0) = (heart(), heart_zero_based(dir.path()));
    let h0 = h0.to_str().unwrap();
    // The streamed route (a first pass in parallel blocks), the moment route (blocks), the
    // rows in memory.
    let runs: [&[&str]; 3] = [
        &["--algo", "pa-i"],
        &["--algo", "opauc-batch"],
        &["--algo", "pa-i", "--shuffle", "3", "--shuffle-full"],
    ];
    for (k, flags) in runs.iter().enumerate() {
        let m1 = dir.path().join(format!("one{k}.auc"));
        let m0 = dir.path().join(format!("zero{k}.auc"));
        let (m1, m0) = (m1.to_str().unwrap(), m0.to_str().unwrap());
        for (data, model) in [(h.as_str(), m1), (h0, m0)] {
            let mut args = vec!["train", data, "-o", model];
            args.extend_from_slice(flags);
            ok(&auc(&args), "train");
        }
        let want = ok(&auc(&["predict", "-m", m1, &h]), "predict 1-based");
        let got = ok(&auc(&["predict", "-m", m0, h0]), "predict 0-based");
        assert_eq!(got, want, "{flags:?}");
        let text = std::fs::read(h0).unwrap();
        let piped = auc_with_stdin(&["predict", "-m", m0, "-"], &text);
        assert_eq!(ok(&piped, "predict stdin"), want, "{flags:?}");
        let shown = ok(&auc(&["model", m0]), "model");
        assert!(shown.contains("LIBSVM (0-based), 13 features"), "{shown}");
    }
}

#[test]
fn predict_reads_the_models_way_unless_the_flag_says_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let (h, h0) = (heart(), heart_zero_based(dir.path()));
    let h0 = h0.to_str().unwrap();
    let m1 = dir.path().join("one.auc");
    let m1 = m1.to_str().unwrap();
    ok(&auc(&["train", &h, "-o", m1, "--algo", "pa-i"]), "train");
    // A 1-based model refuses index 0, and says how to read the file 0-based...
    check_fails(&["predict", "-m", m1, h0], "--zero-based yes");
    // ... which the flag does: the same rows, the same scores.
    let want = ok(&auc(&["predict", "-m", m1, &h]), "predict");
    let got = ok(
        &auc(&["predict", "-m", m1, h0, "--zero-based", "yes"]),
        "predict yes",
    );
    assert_eq!(got, want);
    // Continuing a model reads new rows its way: a contradicting flag is refused.
    let m0 = dir.path().join("zero.auc");
    let m0 = m0.to_str().unwrap();
    ok(
        &auc(&["train", h0, "-o", m0, "--algo", "pa-i"]),
        "train 0-based",
    );
    let more = dir.path().join("more.auc");
    let more = more.to_str().unwrap();
    check_fails(
        &[
            "train",
            h0,
            "--resume",
            m0,
            "-o",
            more,
            "--zero-based",
            "no",
        ],
        "--zero-based no",
    );
    ok(&auc(&["train", h0, "--resume", m0, "-o", more]), "resume");
}

#[test]
fn standard_input_is_judged_on_its_first_lines() {
    let dir = tempfile::tempdir().unwrap();
    let h0 = heart_zero_based(dir.path());
    let text = std::fs::read(&h0).unwrap();
    let m = dir.path().join("stdin.auc");
    let m = m.to_str().unwrap();
    let o = auc_with_stdin(
        &["train", "-", "-o", m, "--algo", "pa-i", "--scale", "none"],
        &text,
    );
    ok(&o, "train from stdin");
    let shown = ok(&auc(&["model", m]), "model");
    assert!(shown.contains("LIBSVM (0-based)"), "{shown}");
    // An index 0 after the first 1024 lines, which were read 1-based: an error saying what
    // to pass, at its line and column.
    let mut late = "1 1:1 2:0.5\n".repeat(1100);
    late.push_str("-1 0:2 3:1\n");
    let o = auc_with_stdin(&["info", "-"], late.as_bytes());
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("-:1101:4: feature index 0"), "{err}");
    assert!(
        err.contains("first 1024 lines") && err.contains("--zero-based yes"),
        "{err}"
    );
    let o = auc_with_stdin(&["info", "-", "--zero-based", "yes"], late.as_bytes());
    ok(&o, "info --zero-based yes");
}

#[test]
fn training_and_test_files_are_decided_together() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(heart()).unwrap();
    let (train, test) = text.split_at(text.match_indices('\n').nth(199).unwrap().0 + 1);
    // The test file holds no index 0 once its first feature is left out: alone, it would read
    // 1-based, shifted by one against its training file.
    let files = [
        ("train1.libsvm", reindexed(train, Some)),
        ("test1.libsvm", reindexed(test, |i| (i != 1).then_some(i))),
        ("train0.libsvm", reindexed(train, |i| Some(i - 1))),
        ("test0.libsvm", reindexed(test, |i| (i != 1).then(|| i - 1))),
    ];
    for (name, body) in &files {
        write(dir.path(), name, body);
    }
    let aucs = |suffix: &str| {
        let p = |name: &str| dir.path().join(format!("{name}{suffix}.libsvm"));
        let (train, test) = (p("train"), p("test"));
        let o = auc(&[
            "cv",
            "--algo",
            "pa-i",
            "--data",
            train.to_str().unwrap(),
            "--test",
            test.to_str().unwrap(),
            "--repeats",
            "2",
            "--json",
        ]);
        ok(&o, "cv --test")
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["auc"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(aucs("0"), aucs("1"));
}
