//! Helpers shared by the `auc` binary's end-to-end tests.

#![allow(dead_code)] // Each test binary uses its own part.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `auc` with `args`.
pub(crate) fn auc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_auc"))
        .args(args)
        .output()
        .expect("the auc binary runs")
}

/// Runs `auc` with `args`, `input` on its standard input.
pub(crate) fn auc_with_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_auc"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the auc binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may stop reading early (an error); a broken pipe is then expected.
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("the auc binary finishes");
    writer.join().expect("the writer thread ends");
    out
}

pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The bundled data set.
pub(crate) fn heart() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/heart.libsvm")
        .display()
        .to_string()
}

pub(crate) fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("temp file is writable");
    p
}

/// A failing command exits 2 with `auc: error:` and the expected text on stderr, nothing on
/// stdout, and no panic.
pub(crate) fn check_fails(args: &[&str], expected: &str) {
    let o = auc(args);
    assert_eq!(
        o.status.code(),
        Some(2),
        "args {args:?}\nstderr: {}",
        stderr(&o)
    );
    let err = stderr(&o);
    assert!(
        err.contains(expected),
        "args {args:?}: stderr lacks `{expected}`:\n{err}"
    );
    assert!(
        !err.contains("panicked") && !err.contains("internal error"),
        "{err}"
    );
    assert!(
        o.stdout.is_empty(),
        "stdout should be empty on error: {}",
        stdout(&o)
    );
}

/// The prequential (test-then-train) scores and labels of a fresh PA-I (registry defaults)
/// stepped through the LIBSVM file `path` of `dim` features in file order, unscaled: what
/// `auc train`/`auc stream --scale none` see, computed here without the binary.
pub(crate) fn prequential_pa_i(path: &str, dim: usize) -> (Vec<f64>, Vec<auc_core::Label>) {
    use auc_core::{Label, Row, SparseRow};
    let algo = auc_learners::lookup("pa-i").unwrap();
    let config = algo.configure(&auc_core::ParamMap::new()).unwrap();
    let auc_learners::Trainer::Online(trainer) = config.trainer() else {
        panic!("pa-i is one-pass")
    };
    let mut state = trainer.start(dim, 0, false).unwrap();
    let (mut scores, mut labels) = (Vec::new(), Vec::new());
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let mut parts = line.split_whitespace();
        let y = if parts.next().unwrap().parse::<f64>().unwrap() > 0.0 {
            Label::Pos
        } else {
            Label::Neg
        };
        let (mut idx, mut val) = (Vec::new(), Vec::new());
        for p in parts {
            let (i, x) = p.split_once(':').unwrap();
            idx.push(i.parse::<u32>().unwrap() - 1);
            val.push(x.parse::<f64>().unwrap());
        }
        let x = Row::Sparse(SparseRow::new(&idx, &val));
        scores.push(state.score(x));
        labels.push(y);
        state.learner().unwrap().update(x, y);
    }
    (scores, labels)
}
