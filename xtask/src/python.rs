//! The Python package `auclearn` (crates/auc-py) in CI: installs the extension that the release
//! build made into a virtual environment it creates and runs the pytest suite.
//!
//! Only CPython (3.9 or newer, with `venv` and pip) is needed: the environment is made with
//! `python3 -m venv` under the target directory and the pinned packages of
//! `crates/auc-py/requirements-test.txt` (maturin, numpy, scipy, pandas, polars, pyarrow,
//! scikit-learn, pytest) come from PyPI.
//!
//! Why not `maturin develop` here: maturin runs its own `cargo rustc -p auc-py`, whose feature
//! resolution (auc-py's dependencies alone) differs from the CI's build of the `auc` binary
//! (serde_derive's `syn`, `num-complex`, `libc`, ... get other features), so every crate under
//! both would be compiled twice, with fat LTO (measured: 14.5 minutes more on the shared
//! 2-core machine). Instead the CI builds `-p auc-cli -p auc-py` in one cargo invocation and
//! this step lays the package out as `maturin develop` does for an editable install: the
//! compiled library is copied into `crates/auc-py/python/auclearn/_native.abi3.so` (ignored by
//! git) and a `.pth` file puts that folder on the environment's path. `pip install
//! ./crates/auc-py` (maturin as the build backend) is what users run; it builds the same crate.
//! The tests find the `auc` binary of the same build through `AUC_BIN`.

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

/// The environment's `site-packages` folder (`lib/pythonX.Y/site-packages`).
fn site_packages(venv: &Path) -> Result<PathBuf, String> {
    let lib = venv.join("lib");
    let entries = std::fs::read_dir(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    for e in entries.flatten() {
        let p = e.path().join("site-packages");
        if e.file_name().to_string_lossy().starts_with("python") && p.is_dir() {
            return Ok(p);
        }
    }
    Err(format!("no site-packages under {}", lib.display()))
}

/// Creates (once) the virtual environment, installs the pinned packages and the extension built
/// by `cargo build --release -p auc-py`, and runs pytest.
pub(crate) fn run_suite(root: &Path) -> Result<(), String> {
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
    let built = target.join("release").join("lib_native.so");
    let package = root.join("crates/auc-py/python");
    let module = package.join("auclearn").join("_native.abi3.so");
    eprintln!("$ cp {} {}", built.display(), module.display());
    // Replace, not overwrite in place: a running interpreter may have the old file mapped.
    let _ = std::fs::remove_file(&module);
    std::fs::copy(&built, &module).map_err(|e| {
        format!(
            "copying {} (run the release build first): {e}",
            built.display()
        )
    })?;
    let pth = site_packages(&venv)?.join("auclearn.pth");
    std::fs::write(&pth, format!("{}\n", package.display()))
        .map_err(|e| format!("{}: {e}", pth.display()))?;
    let auc = target.join("release").join("auc");
    let auc_s = auc.to_string_lossy().into_owned();
    let venv_s = venv.to_string_lossy().into_owned();
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
        &[("AUC_BIN", &auc_s), ("VIRTUAL_ENV", &venv_s)],
    )
}
