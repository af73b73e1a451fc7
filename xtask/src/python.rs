//! `cargo xtask python`: builds the Python package `auclearn` (crates/auc-py) into a virtual
//! environment it creates and runs its pytest suite; a step of `cargo xtask ci`.
//!
//! Only CPython (3.9 or newer, with `venv` and pip) is needed: the environment is made with
//! `python3 -m venv` under the target directory, the pinned packages of
//! `crates/auc-py/requirements-test.txt` (maturin, numpy, scipy, pandas, scikit-learn, pytest)
//! come from PyPI, and `maturin develop --release` builds the extension in the workspace's own
//! target directory and release profile with the same `RUSTFLAGS` as the CI's release build, so
//! the crates under it are compiled once for both. The tests find the `auc` binary of that
//! build through `AUC_BIN`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `program args...` from `dir` with extra environment variables.
fn run(program: &Path, args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Result<(), String> {
    eprintln!("$ {} {}", program.display(), args.join(" "));
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{} {}` failed: {status}",
            program.display(),
            args.join(" ")
        ))
    }
}

/// The workspace's target directory (`CARGO_TARGET_DIR` when set).
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => root.join(d),
        None => root.join("target"),
    }
}

/// Creates (once) the virtual environment, installs the pinned packages, builds `auclearn` into
/// it and runs pytest. `rustflags` must be those of the CI's release build.
pub(crate) fn run_suite(root: &Path, rustflags: &str) -> Result<(), String> {
    let target = target_dir(root);
    let venv = target.join("python-venv");
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned());
    let bin = venv.join("bin");
    if !bin.join("python").is_file() {
        run(
            Path::new(&python),
            &["-m", "venv", &venv.to_string_lossy()],
            root,
            &[],
        )?;
    }
    let py = bin.join("python");
    run(
        &py,
        &[
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            "crates/auc-py/requirements-test.txt",
        ],
        root,
        &[],
    )?;
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let venv_s = venv.to_string_lossy().into_owned();
    let target_s = target.to_string_lossy().into_owned();
    run(
        &bin.join("maturin"),
        &[
            "develop",
            "--release",
            "--manifest-path",
            "crates/auc-py/Cargo.toml",
        ],
        root,
        &[
            ("VIRTUAL_ENV", &venv_s),
            ("PATH", &path),
            ("CARGO_TARGET_DIR", &target_s),
            ("RUSTFLAGS", rustflags),
        ],
    )?;
    let auc = target.join("release").join("auc");
    let auc_s = auc.to_string_lossy().into_owned();
    run(
        &py,
        &[
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "crates/auc-py/tests",
        ],
        root,
        &[
            ("AUC_BIN", &auc_s),
            ("VIRTUAL_ENV", &venv_s),
            ("PATH", &path),
        ],
    )
}
