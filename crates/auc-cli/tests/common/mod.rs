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
/// `auc train`/`auc stream --scale none` see, computed here with the library, not the binary.
pub(crate) fn prequential_pa_i(path: &str, dim: usize) -> (Vec<f64>, Vec<auc_core::Label>) {
    let data = auc_data::RowStream::open(Path::new(path), &auc_data::ReadOptions::default())
        .and_then(auc_data::RowStream::read_all)
        .and_then(|raw| raw.binarize_as(&auc_data::Positive::Auto, auc_data::Layout::AsRead))
        .unwrap();
    let algo = auc_learners::lookup("pa-i").unwrap();
    let config = algo.configure(&auc_core::ParamMap::new()).unwrap();
    let auc_learners::Trainer::Online(trainer) = config.trainer() else {
        panic!("pa-i is one-pass")
    };
    let mut state = trainer.start(dim, 0, false).unwrap();
    let mut scores = Vec::with_capacity(data.n());
    for (x, y) in data.iter() {
        scores.push(state.score(x));
        state.learner().unwrap().update(x, y);
    }
    (scores, data.labels().to_vec())
}

/// The path of a fixture under tests/data.
pub(crate) fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
        .display()
        .to_string()
}

/// Runs `auc` with `args`, which must succeed; its stdout and stderr.
pub(crate) fn ok(args: &[&str]) -> (String, String) {
    let o = auc(args);
    assert!(o.status.success(), "auc {args:?} failed: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Runs `auc` with `args`, which must be refused (exit 2, nothing on stdout); its stderr.
pub(crate) fn refused(args: &[&str]) -> String {
    let o = auc(args);
    assert_eq!(o.status.code(), Some(2), "auc {args:?}: {}", stderr(&o));
    assert!(stdout(&o).is_empty());
    stderr(&o)
}
