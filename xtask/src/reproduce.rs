//! `cargo xtask reproduce WHAT [ARGS]`: the reproductions under `docs/results/` live in the
//! `auc-repro` crate (`crates/auc-repro`); this forwards to its binary, built in release with
//! the warnings-as-errors flags of `ci`. The tables that drive the release `auc` binary
//! (`linear`, `kernel`, `batch`, `defaults`) get it built first, by the one release build
//! `ci` and `python` share.

use std::path::PathBuf;

use crate::{DENY, cargo, project_root, release_build};

/// The reproductions that run the release `auc` binary; `cvm` and `regret` call the library
/// crates directly and need only their own build.
const RUN_AUC: [&str; 4] = ["linear", "kernel", "batch", "defaults"];

/// Runs `auc-repro ARGS` (`--help` lists the reproductions and their flags).
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    if args
        .first()
        .is_some_and(|what| RUN_AUC.contains(&what.as_str()))
    {
        release_build()?;
    }
    let mut cmd = vec!["run", "--release", "--quiet", "-p", "auc-repro", "--"];
    cmd.extend(args.iter().map(String::as_str));
    cargo(&cmd, &DENY)
}

/// The shared data sets' folder, `../shared/datasets` beside the repository, if it is there (the
/// reproductions need it; `ci` runs their smoke runs only then).
pub(crate) fn shared_datasets() -> Option<PathBuf> {
    Some(project_root().join("../shared/datasets")).filter(|d| d.is_dir())
}
