//! `cargo xtask doc-examples`: the command examples of `README.md` and `docs/guide/*.md` run
//! against the release `auc` binary, so the documentation cannot drift from the tool.
//!
//! What runs, and how a reader tells:
//!
//! - Every fenced block whose info string is exactly `sh` is run, line by line, in order. A line
//!   is blank, a `#` comment, or a command that starts with `auc ` (or is the README's
//!   `cargo run --release -p auc-cli -- ARGS`, run as `auc ARGS`: the same binary). A line ending
//!   in `\` continues on the next. Any other line in a `sh` block is an error, so nothing in a
//!   block that looks run is quietly skipped.
//! - A block fenced ```` ```sh no-run ```` is shown, never run: commands on files that are not in
//!   the repository (`train.libsvm`, `big.libsvm.gz`), `cargo install`, `pip install`, `cargo
//!   xtask ci` itself. The guide says so where it first uses one.
//! - Other fences (`python`, `text`, no language) are not run.
//!
//! Each file runs in a fresh directory `target/doc-examples/<file>/` into which `data/` is
//! copied, so relative paths such as `data/heart.libsvm` work and output files (`model.auc`,
//! `roc.svg`) land there; a later line of a file sees what an earlier one wrote. A line is run
//! by `sh -c` with the binary's directory first on `PATH` (so pipes and redirections work), with
//! standard input empty. The first line that exits non-zero stops the run with its `file:line`,
//! the command and its standard error.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// One command to run, with where it was written.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Example {
    /// The 1-based line of the command's first line.
    pub(crate) line: usize,
    /// The shell command, with `cargo run --release -p auc-cli --` rewritten to `auc`.
    pub(crate) command: String,
}

/// What a markdown file holds: the commands that run and how many lines were shown, not run.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Extracted {
    pub(crate) run: Vec<Example>,
    pub(crate) skipped: usize,
}

/// A code block's kind, from its info string.
#[derive(Clone, Copy)]
enum Fence {
    /// `sh`: every line runs.
    Run,
    /// `sh no-run`: shown, counted as skipped.
    NoRun,
    /// Anything else (`python`, `text`, none).
    Other,
}

const CARGO_RUN: &str = "cargo run --release -p auc-cli -- ";

/// The commands of `text`'s `sh` blocks (see the module docs); `Err` names each line that is
/// neither a command nor a comment, as `name:line: ...`.
pub(crate) fn extract(name: &str, text: &str) -> Result<Extracted, Vec<String>> {
    let mut out = Extracted::default();
    let mut problems = Vec::new();
    // None outside a fence, else the kind of block.
    let mut fence: Option<Fence> = None;
    let mut pending: Option<Example> = None;
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let trimmed = raw.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            if fence.is_some() {
                if let Some(open) = pending.take() {
                    problems.push(format!(
                        "{name}:{}: the block ends inside a `\\` continuation",
                        open.line
                    ));
                }
                fence = None;
            } else {
                fence = Some(match info.trim() {
                    "sh" => Fence::Run,
                    "sh no-run" => Fence::NoRun,
                    _ => Fence::Other,
                });
            }
            continue;
        }
        match fence {
            None | Some(Fence::Other) => {}
            Some(Fence::NoRun) => {
                if !trimmed.is_empty() && !trimmed.starts_with('#') {
                    out.skipped += 1;
                }
            }
            Some(Fence::Run) => {
                if let Some(mut open) = pending.take() {
                    let (part, more) = continued(trimmed);
                    open.command.push(' ');
                    open.command.push_str(part);
                    if more {
                        pending = Some(open);
                    } else {
                        out.run.push(open);
                    }
                    continue;
                }
                if trimmed.is_empty() || trimmed.starts_with('#') {
                    continue;
                }
                let command = if let Some(args) = trimmed.strip_prefix(CARGO_RUN) {
                    format!("auc {args}")
                } else if trimmed.starts_with("auc ") {
                    trimmed.to_owned()
                } else {
                    problems.push(format!(
                        "{name}:{number}: `{trimmed}` is not an `auc` command: fence its block \
                         as ```sh no-run if it must not run"
                    ));
                    continue;
                };
                let (part, more) = continued(&command);
                let example = Example {
                    line: number,
                    command: part.to_owned(),
                };
                if more {
                    pending = Some(example);
                } else {
                    out.run.push(example);
                }
            }
        }
    }
    if fence.is_some() {
        problems.push(format!("{name}: a code block is not closed"));
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// A line without its trailing `\`, and whether it had one.
fn continued(line: &str) -> (&str, bool) {
    match line.strip_suffix('\\') {
        Some(head) => (head.trim_end(), true),
        None => (line, false),
    }
}

/// The documentation files whose examples run: README.md, then docs/guide/*.md by name.
pub(crate) fn files(root: &Path) -> Vec<PathBuf> {
    let mut guide: Vec<PathBuf> = fs::read_dir(root.join("docs/guide"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    guide.sort();
    let mut all = vec![root.join("README.md")];
    all.extend(guide);
    all
}

/// Runs every file's examples with the `auc` binary at `bin`.
pub(crate) fn run(root: &Path, bin: &Path) -> Result<(), String> {
    if !bin.is_file() {
        return Err(format!(
            "{} does not exist: build it first (cargo build --release -p auc-cli)",
            bin.display()
        ));
    }
    let bin = fs::canonicalize(bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let bin_dir = bin.parent().ok_or("the binary has no directory")?;
    let path = match std::env::var_os("PATH") {
        Some(old) => {
            let mut dirs = vec![bin_dir.to_path_buf()];
            dirs.extend(std::env::split_paths(&old));
            std::env::join_paths(dirs).map_err(|e| format!("PATH: {e}"))?
        }
        None => bin_dir.as_os_str().to_owned(),
    };
    let base = root.join("target/doc-examples");
    let started = Instant::now();
    let (mut ran, mut skipped) = (0, 0);
    for file in files(root) {
        let name = file
            .strip_prefix(root)
            .unwrap_or(&file)
            .to_string_lossy()
            .into_owned();
        let text = fs::read_to_string(&file).map_err(|e| format!("{name}: {e}"))?;
        let examples = extract(&name, &text).map_err(|p| p.join("\n"))?;
        skipped += examples.skipped;
        if examples.run.is_empty() {
            continue;
        }
        let dir = base.join(name.replace(['/', '.'], "_"));
        if dir.exists() {
            fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        copy_dir(&root.join("data"), &dir.join("data"))?;
        for ex in &examples.run {
            let t = Instant::now();
            let out = Command::new("sh")
                .arg("-c")
                .arg(&ex.command)
                .env("PATH", &path)
                .current_dir(&dir)
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("cannot run sh: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "{name}:{}: `{}` failed ({}) in {}\n{}",
                    ex.line,
                    ex.command,
                    out.status,
                    dir.display(),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            eprintln!(
                "doc-examples: {name}:{} ok ({:.1} s): {}",
                ex.line,
                t.elapsed().as_secs_f64(),
                ex.command
            );
        }
        ran += examples.run.len();
    }
    eprintln!(
        "doc-examples: {ran} commands ran in {:.1} s; {skipped} lines in `sh no-run` blocks shown only",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Copies the files of `from` (one level of subdirectories and deeper) into `to`.
fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            copy_dir(&src, &dst)?;
        } else {
            fs::copy(&src, &dst).map_err(|e| format!("{}: {e}", src.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands(x: &Extracted) -> Vec<(usize, &str)> {
        x.run.iter().map(|e| (e.line, e.command.as_str())).collect()
    }

    #[test]
    fn sh_blocks_run_and_other_fences_do_not() {
        let text = "\
# Title

```sh
auc info data/heart.libsvm   # a comment stays part of the shell line
# a comment line

cargo run --release -p auc-cli -- cv data/heart.libsvm
```

```sh no-run
auc train big.libsvm -o model.auc
cargo install --path crates/auc-cli
```

```python
auc = 1
```

```
auc not run either
```
";
        let x = extract("README.md", text).unwrap();
        assert_eq!(
            commands(&x),
            [
                (
                    4,
                    "auc info data/heart.libsvm   # a comment stays part of the shell line"
                ),
                (7, "auc cv data/heart.libsvm"),
            ]
        );
        assert_eq!(x.skipped, 2);
    }

    #[test]
    fn continuation_lines_join_and_keep_the_first_line_number() {
        let text = "```sh\nauc cv --algo pa-i \\\n  --data data/heart.libsvm \\\n  --json\nauc algos\n```\n";
        let x = extract("g.md", text).unwrap();
        assert_eq!(
            commands(&x),
            [
                (2, "auc cv --algo pa-i --data data/heart.libsvm --json"),
                (5, "auc algos"),
            ]
        );
    }

    #[test]
    fn a_line_that_is_not_an_auc_command_is_refused_with_its_place() {
        let text =
            "intro\n```sh\nauc algos\nzcat big.gz | auc train - -o m.auc\npip install x\n```\n";
        let problems = extract("docs/guide/x.md", text).unwrap_err();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(
            problems[0].starts_with("docs/guide/x.md:4: "),
            "{problems:?}"
        );
        assert!(
            problems[1].starts_with("docs/guide/x.md:5: "),
            "{problems:?}"
        );
        assert!(problems[0].contains("sh no-run"), "{problems:?}");
    }

    #[test]
    fn unclosed_blocks_and_dangling_continuations_are_refused() {
        assert!(extract("a.md", "```sh\nauc algos\n").is_err());
        assert!(extract("a.md", "```sh\nauc algos \\\n```\n").is_err());
    }

    /// The repository's own README and guide parse: every line of a `sh` block is a command.
    #[test]
    fn the_repository_docs_extract() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("workspace root");
        let mut total = 0;
        for file in files(root) {
            let text = fs::read_to_string(&file).unwrap();
            let name = file.display().to_string();
            let x = extract(&name, &text).unwrap_or_else(|p| panic!("{}", p.join("\n")));
            total += x.run.len();
        }
        assert!(total > 0, "no runnable example found");
    }
}
