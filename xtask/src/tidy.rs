//! Repository checks that read files as plain text.
//!
//! - every `crates/*/src/**.rs` starts with a `//!` doc paragraph;
//! - every member manifest has `[lints] workspace = true`;
//! - `auc-*` dependencies follow the layer table of `docs/architecture.md`, and no learner crate
//!   depends on `auc-eval`, the crate of the evaluation protocol (a second guard beside the table);
//! - every citation key (`[OAUC eq. 14]`, `[PA06]`, or `\[PA06\]` where rustdoc would read a bare
//!   key as a link) and every `lemma_<key>_` test name in the
//!   crates is listed in `docs/references.md`;
//! - no test is marked ignored or should-panic;
//! - no source file under `crates/*/src` exceeds 1,000 lines and no two files of one crate import
//!   each other ([`crate::structure`]);
//! - a learner's name string (its `const NAME` or `ALIASES` in its parameter type) appears in
//!   its own file only: the registry (`auc-learners`) builds its row from the type, and every
//!   front end enumerates the registry, so no other list of learner names exists outside docs and
//!   tests;
//! - the README's word and paragraph limits, the guide's paragraph limit and the links of both
//!   and of the code map ([`crate::prose`]).

use std::fs;
use std::path::{Path, PathBuf};

/// Allowed `auc-*` dependencies of each crate (normal dependencies; dev-dependencies may also use
/// `auc-core`'s testing feature). Keep in sync with docs/architecture.md.
const LAYERS: &[(&str, &[&str])] = &[
    ("auc-core", &[]),
    ("auc-data", &["auc-core"]),
    ("auc-stats", &["auc-core"]),
    ("auc-surrogate", &["auc-core"]),
    ("auc-online", &["auc-core", "auc-stats", "auc-surrogate"]),
    ("auc-kernel", &["auc-core", "auc-stats", "auc-surrogate"]),
    (
        "auc-cvm",
        &["auc-core", "auc-stats", "auc-surrogate", "auc-kernel"],
    ),
    ("auc-trees", &["auc-core"]),
    ("auc-metrics", &["auc-core"]),
    ("auc-prep", &["auc-core", "auc-data"]),
    (
        "auc-eval",
        &["auc-core", "auc-data", "auc-prep", "auc-metrics"],
    ),
    (
        "auc-blend",
        &[
            "auc-core",
            "auc-prep",
            "auc-online",
            "auc-stats",
            "auc-trees",
            "auc-metrics",
        ],
    ),
    (
        "auc-learners",
        &[
            "auc-core",
            "auc-data",
            "auc-prep",
            "auc-stats",
            "auc-online",
            "auc-kernel",
            "auc-cvm",
            "auc-trees",
            "auc-blend",
            "auc-metrics",
        ],
    ),
    ("auc-stream", &["auc-core", "auc-data", "auc-prep"]),
    (
        "auc-train",
        &[
            "auc-core",
            "auc-data",
            "auc-prep",
            "auc-stream",
            "auc-eval",
            "auc-learners",
        ],
    ),
    (
        "auc-cli",
        &[
            "auc-core",
            "auc-data",
            "auc-prep",
            "auc-stream",
            "auc-eval",
            "auc-learners",
            "auc-train",
        ],
    ),
    (
        "auc-py",
        &[
            "auc-core",
            "auc-data",
            "auc-prep",
            "auc-eval",
            "auc-learners",
            "auc-train",
        ],
    ),
    (
        "auc-repro",
        &[
            "auc-core",
            "auc-data",
            "auc-stats",
            "auc-surrogate",
            "auc-cvm",
            "auc-eval",
        ],
    ),
];

/// The crates of the learners, from the moments and surrogates they are built on to the registry
/// of them all. None may depend on [`PROTOCOL_CRATE`]: the protocol evaluates learners, so a
/// learner that used it would sit in the same row as the protocol or above it, and every user of
/// a learner would pull in grids, curves and the Friedman tests. What learners measure with
/// (AUC, folds, calibrations) is `auc-metrics`, below them.
const LEARNER_CRATES: &[&str] = &[
    "auc-stats",
    "auc-surrogate",
    "auc-online",
    "auc-kernel",
    "auc-cvm",
    "auc-trees",
    "auc-blend",
    "auc-learners",
];

/// The crate of the evaluation protocol (nested CV, grids, curves, Friedman / Nemenyi).
const PROTOCOL_CRATE: &str = "auc-eval";

/// Runs every check; `Err` lists each problem on its own line.
pub(crate) fn check(root: &Path) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    let keys = reference_keys(root, &mut problems);
    for krate in crate_dirs(root) {
        let name = krate
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        check_manifest(&krate.join("Cargo.toml"), &name, &mut problems);
        let sources = rust_files(&krate.join("src"));
        problems.extend(crate::structure::check_crate(root, &krate, &sources));
        for file in sources {
            let text = read(&file, &mut problems);
            if !text.trim_start().starts_with("//!") {
                problems.push(format!(
                    "{}: must start with a `//!` doc paragraph",
                    rel(root, &file)
                ));
            }
        }
    }
    for dir in ["crates", "benches", "xtask"] {
        for file in rust_files(&root.join(dir)) {
            let text = read(&file, &mut problems);
            check_source(root, &file, &text, &keys, &mut problems);
        }
    }
    check_learner_names(root, &mut problems);
    problems.extend(crate::prose::check(root));
    for extra in ["benches/Cargo.toml", "xtask/Cargo.toml"] {
        let text = read(&root.join(extra), &mut problems);
        if !has_workspace_lints(&text) {
            problems.push(format!("{extra}: missing `[lints] workspace = true`"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn read(path: &Path, problems: &mut Vec<String>) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| {
        problems.push(format!("{}: cannot read: {e}", path.display()));
        String::new()
    })
}

fn rel(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn crate_dirs(root: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.join("Cargo.toml").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        for entry in rd.flatten() {
            let p = entry.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n != "target") {
                    stack.push(p);
                }
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn has_workspace_lints(manifest: &str) -> bool {
    let mut in_lints = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_lints = line == "[lints]";
        } else if in_lints && line.replace(' ', "") == "workspace=true" {
            return true;
        }
    }
    false
}

/// Checks `[lints]` and that `[dependencies]` names only the allowed `auc-*` crates.
fn check_manifest(path: &Path, name: &str, problems: &mut Vec<String>) {
    let text = read(path, problems);
    if !has_workspace_lints(&text) {
        problems.push(format!(
            "crates/{name}/Cargo.toml: missing `[lints] workspace = true`"
        ));
    }
    let Some((_, allowed)) = LAYERS.iter().find(|(n, _)| *n == name) else {
        problems.push(format!(
            "crates/{name}: not in xtask's layer table (add it there and to docs/architecture.md)"
        ));
        return;
    };
    for dep in auc_dependencies(&text) {
        if !allowed.contains(&dep) {
            problems.push(format!(
                "crates/{name}/Cargo.toml: {name} must not depend on {dep} (layering)"
            ));
        }
    }
    problems.extend(protocol_dependency(name, &text));
}

/// The `auc-*` crates a manifest's `[dependencies]` table names (not its dev-dependencies).
fn auc_dependencies(manifest: &str) -> Vec<&str> {
    let mut section = "";
    let mut deps = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section != "[dependencies]" {
            continue;
        }
        let dep = line.split(['=', '.', ' ']).next().unwrap_or("");
        if dep.starts_with("auc-") {
            deps.push(dep);
        }
    }
    deps
}

/// The problem, if the crate `name` is one of [`LEARNER_CRATES`] and its `manifest` depends on
/// [`PROTOCOL_CRATE`]. Tests may use the protocol (a dev-dependency).
fn protocol_dependency(name: &str, manifest: &str) -> Option<String> {
    (LEARNER_CRATES.contains(&name) && auc_dependencies(manifest).contains(&PROTOCOL_CRATE)).then(
        || {
            format!(
                "crates/{name}/Cargo.toml: the learner crate {name} must not depend on \
                 {PROTOCOL_CRATE}, the crate of the evaluation protocol (metrics, folds and \
                 calibrations are in auc-metrics)"
            )
        },
    )
}

/// The quoted strings of `const NAME: &'static str = "...";` and `const ALIASES: ... = &[...]`
/// lines of `text`.
fn declared_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("const NAME: &'static str = ")
            || line.starts_with("const ALIASES: &'static [&'static str] = ")
        {
            out.extend(line.split('"').skip(1).step_by(2).map(str::to_owned));
        }
    }
    out
}

/// The part of a source file outside its unit tests (everything before `#[cfg(test)]`).
fn outside_tests(text: &str) -> &str {
    let marker = concat!("#[cfg", "(test)]");
    match text.find(marker) {
        Some(i) => &text[..i],
        None => text,
    }
}

/// A learner's name string may appear in its own file only (not in other library code, the
/// command line, the reproductions or the benches): every front end enumerates the registry.
fn check_learner_names(root: &Path, problems: &mut Vec<String>) {
    let mut sources: Vec<PathBuf> = Vec::new();
    for krate in crate_dirs(root) {
        sources.extend(rust_files(&krate.join("src")));
    }
    sources.extend(rust_files(&root.join("xtask/src")));
    sources.extend(rust_files(&root.join("benches")));
    let texts: Vec<(PathBuf, String)> = sources
        .into_iter()
        .map(|p| {
            let t = read(&p, problems);
            (p, t)
        })
        .collect();
    let mut names: Vec<(String, PathBuf)> = Vec::new();
    for (path, text) in &texts {
        for n in declared_names(text) {
            names.push((n, path.clone()));
        }
    }
    for (path, text) in &texts {
        let code = outside_tests(text);
        for (name, home) in &names {
            if path == home {
                continue;
            }
            let quoted = format!("\"{name}\"");
            // Comments (docs and doctests) may name learners.
            let found = code
                .lines()
                .position(|l| !l.trim_start().starts_with("//") && l.contains(&quoted));
            if let Some(line) = found {
                problems.push(format!(
                    "{}:{}: the learner name {quoted} belongs in {} and the registry only (enumerate `auc_learners::ALL` instead)",
                    rel(root, path),
                    line + 1,
                    rel(root, home)
                ));
            }
        }
    }
}

/// Keys are the bold words at the start of list items: `- **OAUC**: ...`.
fn reference_keys(root: &Path, problems: &mut Vec<String>) -> Vec<String> {
    let text = read(&root.join("docs/references.md"), problems);
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **"))
        .filter_map(|l| l.split("**").next())
        .map(str::to_owned)
        .collect()
}

/// A citation key: two or more capitals then optional digits (`OAUC`, `PA06`), or a capitalized
/// name followed by a two-digit year (`Rosenblatt58`).
fn looks_like_key(token: &str) -> bool {
    let letters: String = token
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    let digits = &token[letters.len()..];
    if !digits.chars().all(|c| c.is_ascii_digit()) || letters.is_empty() {
        return false;
    }
    let all_caps = letters.len() >= 2 && letters.chars().all(|c| c.is_ascii_uppercase());
    let name_year = letters
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_uppercase())
        && letters.chars().skip(1).all(|c| c.is_ascii_lowercase())
        && digits.len() == 2;
    all_caps || name_year
}

fn check_source(root: &Path, file: &Path, text: &str, keys: &[String], problems: &mut Vec<String>) {
    let ignore_attr = concat!("#[", "ignore");
    let panic_attr = concat!("#[", "should_panic");
    for (n, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", rel(root, file), n + 1);
        let code = line.trim_start();
        if code.starts_with(ignore_attr) || code.starts_with(panic_attr) {
            problems.push(format!(
                "{}: no ignored or should-panic tests (STYLE section 6)",
                at()
            ));
        }
        let lemma_fn = concat!("fn ", "lemma_");
        if let Some(pos) = code.find(lemma_fn) {
            let key = code[pos + lemma_fn.len()..].split('_').next().unwrap_or("");
            if !keys.iter().any(|k| k.eq_ignore_ascii_case(key)) {
                problems.push(format!(
                    "{}: lemma test key `{key}` is not in docs/references.md",
                    at()
                ));
            }
        }
        let Some(comment) = line.find("//").map(|i| &line[i..]) else {
            continue;
        };
        // Inline code (`auc cv [OPTIONS]`) is not a citation: scan only the text outside backticks.
        let prose: String = comment.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for piece in prose.split('[').skip(1) {
            let token: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let follows = piece[token.len()..].chars().next();
            if looks_like_key(&token)
                && matches!(follows, Some(' ' | ']' | ',' | '\\'))
                && !keys.contains(&token)
            {
                problems.push(format!(
                    "{}: citation key `{token}` is not in docs/references.md",
                    at()
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_recognized() {
        assert!(looks_like_key("OAUC"));
        assert!(looks_like_key("PA06"));
        assert!(looks_like_key("Rosenblatt58"));
        assert!(!looks_like_key("Pos"));
        assert!(!looks_like_key("A"));
        assert!(!looks_like_key("x1"));
    }

    #[test]
    fn learner_names_are_read_from_their_declarations() {
        let text = "impl Params for P {\n    const NAME: &'static str = \"pa-i\";\n    const ALIASES: &'static [&'static str] = &[\"pa1\", \"pa\"];\n}\n#[cfg(test)]\nmod tests { \"x\" }";
        assert_eq!(declared_names(text), ["pa-i", "pa1", "pa"]);
        assert!(!outside_tests(text).contains("mod tests"));
    }

    #[test]
    fn learner_crates_never_depend_on_the_protocol() {
        let uses = "[package]\nname = \"auc-blend\"\n\n[dependencies]\nauc-core.workspace = true\nauc-eval = { workspace = true }\n";
        let problem = protocol_dependency("auc-blend", uses).expect("a learner on auc-eval");
        assert!(
            problem.contains("auc-blend") && problem.contains("auc-eval"),
            "{problem}"
        );
        for learner in LEARNER_CRATES {
            assert!(protocol_dependency(learner, uses).is_some(), "{learner}");
        }
        // Front ends and the reproductions may use the protocol.
        assert_eq!(protocol_dependency("auc-cli", uses), None);
        // Metrics are allowed; so is the protocol in a learner's tests only.
        let tests_only = "[dependencies]\nauc-metrics.workspace = true\n\n[dev-dependencies]\nauc-eval.workspace = true\n";
        assert_eq!(protocol_dependency("auc-learners", tests_only), None);
        assert_eq!(auc_dependencies(tests_only), ["auc-metrics"]);
    }

    #[test]
    fn manifests_need_workspace_lints() {
        assert!(has_workspace_lints(
            "[package]\nname = \"a\"\n[lints]\nworkspace = true\n"
        ));
        assert!(!has_workspace_lints("[package]\nworkspace = true\n"));
    }

    /// The tidy checks pass on this repository (so `cargo test` enforces them).
    #[test]
    fn repository_is_tidy() {
        if let Err(problems) = check(&project_root_for_test()) {
            panic!("tidy found problems:\n{}", problems.join("\n"));
        }
    }

    fn project_root_for_test() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("workspace root")
            .to_path_buf()
    }
}
