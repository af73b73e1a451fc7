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
