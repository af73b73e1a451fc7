//! Project automation for the `auc` workspace, run as `cargo xtask <command>`.
//!
//! Dependency-free on purpose: it shells out to `$CARGO` from the project root and reads files as
//! plain text. `cargo xtask` with no arguments prints the commands.

#![allow(clippy::print_stdout)]

mod doc_examples;
mod prose;
mod python;
mod reproduce;
mod structure;
mod tidy;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask <command>

  ci                      what .ci/run runs: fmt --check, clippy -D warnings, tests, docs, tidy,
                          a release build of the `auc` binary, the documentation's command
                          examples (`doc-examples`), the Python package and its
                          pytest suite (`python`), and (with ../shared beside the
                          repository) the `--quick` runs of `reproduce linear`, `kernel`,
                          `batch`, `cvm` and `defaults` as smoke runs
  python                  release build of the `auc` binary and the Python extension (one
                          cargo invocation), installed into a virtual environment under target/
                          (python3 -m venv; pinned packages from PyPI), then auclearn's pytest
                          suite (also a step of `ci`)
  test [--cases N] [ARGS] workspace tests (PROPTEST_CASES=N when given; extra ARGS go to cargo test)
  props [--cases N] [-p CRATE]
                          the property tests (`lemma_*` and the parser fuzz) in release,
                          PROPTEST_CASES=N (default 10000)
  bench [FILTER] [--save NAME | --baseline NAME]
                          criterion benches of the auc-benches package (a FILTER naming a
                          file of benches/benches/ runs that bench alone)
  doc                     workspace rustdoc (no dependencies)
  doc-examples [--bin PATH]
                          the `sh` command examples of README.md and docs/guide/*.md, run with
                          the release `auc` binary (built first unless --bin names one) in
                          fresh directories under target/doc-examples/ holding a copy of data/
                          (also a step of `ci`; `sh no-run` blocks are shown, not run)
  reproduce WHAT [ARGS]   the reproductions under docs/results: runs the auc-repro binary
                          (crates/auc-repro) in release with ARGS, after the release `auc`
                          binary for the tables that drive it. WHAT is linear, kernel, batch
                          (the papers' tables), cvm (GAM-CVM, [CVM Tables 2, 3, 6]), defaults
                          (the measured defaults) or regret ([OAUC Thm 6]); `--quick` is the
                          smoke run of each. `reproduce --help` and `reproduce WHAT --help`
                          list them and their flags
  tidy                    repository checks (also a #[test] of this crate)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((cmd, rest)) = args.split_first() else {
        print!("{HELP}");
        return ExitCode::SUCCESS;
    };
    let result = match cmd.as_str() {
        "ci" => ci(),
        "test" => test(rest),
        "python" => python(),
        "props" => props(rest),
        "bench" => bench(rest),
        "doc" => cargo(&["doc", "--workspace", "--no-deps"], &[]),
        "doc-examples" => doc_examples(rest),
        "reproduce" => reproduce::run(rest),
        "tidy" => tidy::check(&project_root()).map_err(|problems| problems.join("\n")),
        "help" | "--help" | "-h" => {
            print!("{HELP}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{HELP}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's manifest directory.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// Runs `$CARGO args...` from the project root with extra environment variables.
fn cargo(args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    eprintln!("$ cargo {}", args.join(" "));
    let status = Command::new(&cargo)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(project_root())
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`cargo {}` failed: {status}", args.join(" ")))
    }
}

/// Splits a leading `--cases N` off the arguments.
fn take_cases(args: &[String]) -> Result<(Option<String>, Vec<String>), String> {
    let mut cases = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--cases" {
            let n = it.next().ok_or("--cases needs a number")?;
            n.parse::<u64>()
                .map_err(|_| format!("--cases: `{n}` is not a number"))?;
            cases = Some(n.clone());
        } else {
            rest.push(a.clone());
        }
    }
    Ok((cases, rest))
}

fn test(args: &[String]) -> Result<(), String> {
    let (cases, rest) = take_cases(args)?;
    let mut cmd = vec!["test", "--workspace"];
    cmd.extend(rest.iter().map(String::as_str));
    let env: Vec<(&str, &str)> = cases
        .as_deref()
        .map(|c| ("PROPTEST_CASES", c))
        .into_iter()
        .collect();
    cargo(&cmd, &env)
}

fn props(args: &[String]) -> Result<(), String> {
    let (cases, rest) = take_cases(args)?;
    let cases = cases.unwrap_or_else(|| "10000".to_owned());
    let mut cmd = vec!["test", "--release"];
    if rest.is_empty() {
        cmd.push("--workspace");
    }
    cmd.extend(rest.iter().map(String::as_str));
    cmd.extend(["--", "lemma_", "never_panics", "prop"]);
    cargo(&cmd, &[("PROPTEST_CASES", &cases)])
}

/// `cargo bench` of auc-benches. A FILTER that names a bench file (`benches/benches/NAME.rs`)
/// runs that bench target alone; any other FILTER goes to criterion as an ID filter.
fn bench(args: &[String]) -> Result<(), String> {
    let mut cmd = vec!["bench", "-p", "auc-benches"];
    let mut rest = vec!["--"];
    let mut it = args.iter();
    let targets = project_root().join("benches/benches");
    while let Some(a) = it.next() {
        match a.as_str() {
            "--save" => rest.extend(["--save-baseline", it.next().ok_or("--save needs a name")?]),
            "--baseline" => {
                rest.extend(["--baseline", it.next().ok_or("--baseline needs a name")?]);
            }
            target if targets.join(format!("{target}.rs")).is_file() => {
                cmd.extend(["--bench", target]);
            }
            filter => rest.push(filter),
        }
    }
    cmd.extend(rest);
    cargo(&cmd, &[])
}

/// `cargo xtask python`: the release build of the extension (with the `auc` binary its tests
/// call) and the pytest suite, as in `ci`.
fn python() -> Result<(), String> {
    release_build()?;
    python::run_suite(&project_root())
}

/// `cargo xtask doc-examples [--bin PATH]`: the documentation's commands, with the binary at
/// PATH, or after the release build `ci` makes.
fn doc_examples(args: &[String]) -> Result<(), String> {
    let bin = match args {
        [] => {
            release_build()?;
            release_auc()
        }
        [flag, path] if flag == "--bin" => PathBuf::from(path),
        _ => return Err("usage: cargo xtask doc-examples [--bin PATH]".to_owned()),
    };
    doc_examples::run(&project_root(), &bin)
}

/// The release `auc` binary `release_build` writes.
fn release_auc() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| project_root().join("target"), PathBuf::from);
    target
        .join("release")
        .join(format!("auc{}", std::env::consts::EXE_SUFFIX))
}

/// Warnings are errors in every build `ci` makes.
pub(crate) const DENY: [(&str, &str); 2] = [
    ("RUSTFLAGS", "-D warnings"),
    ("RUSTDOCFLAGS", "-D warnings"),
];

/// The one release build: the `auc` binary and the Python extension in one invocation, so that
/// the crates under both are compiled once, with one feature set. `ci`, `python` and the
/// reproductions all call this, with the same flags: a build with other `RUSTFLAGS` or another
/// package set would compile the whole dependency tree a second time (it did, in CI).
pub(crate) fn release_build() -> Result<(), String> {
    cargo(
        &["build", "--release", "-p", "auc-cli", "-p", "auc-py"],
        &DENY,
    )
}

fn ci() -> Result<(), String> {
    cargo(&["fmt", "--all", "--", "--check"], &[])?;
    cargo(
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
        &DENY,
    )?;
    cargo(&["test", "--workspace"], &DENY)?;
    cargo(&["doc", "--workspace", "--no-deps"], &DENY)?;
    tidy::check(&project_root()).map_err(|problems| problems.join("\n"))?;
    // The release build the Python suite and the smoke runs below share.
    release_build()?;
    // The README's and the guide's command examples, with the binary just built.
    doc_examples::run(&project_root(), &release_auc())?;
    python::run_suite(&project_root())?;
    if reproduce::shared_datasets().is_some() {
        // Smoke runs of the reproductions on small data sets (about a minute together).
        reproduce::run(&["linear".to_owned(), "--quick".to_owned()])?;
        reproduce::run(&["kernel".to_owned(), "--quick".to_owned()])?;
        reproduce::run(&["batch".to_owned(), "--quick".to_owned()])?;
        // GAM-CVM on three small data sets (about half a minute).
        reproduce::run(&["cvm".to_owned(), "--quick".to_owned()])?;
        // The defaults' measurements and rule on the tables' quick sets.
        reproduce::run(&["defaults".to_owned(), "--quick".to_owned()])?;
    }
    eprintln!("xtask ci: all checks passed");
    Ok(())
}
