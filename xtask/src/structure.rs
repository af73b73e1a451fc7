//! Structure checks of the crates' sources, part of `cargo xtask tidy`:
//!
//! - no source file under `crates/*/src` is longer than [`MAX_LINES`] lines, tests inside the
//!   file counted (move long tests to `tests/` or a child `tests` module file);
//! - no two files of one crate import each other, directly or around a longer cycle: a file's
//!   imports are the modules it names as `crate::NAME` (in `use` lines and paths, outside
//!   comments and outside its `#[cfg(test)]` module); `lib.rs` and `main.rs`, which declare the
//!   modules and re-export their items, are not part of the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The longest a source file may be.
pub(crate) const MAX_LINES: usize = 1000;

/// Problems with the sources of the crate at `krate` (its `src` files are `files`).
pub(crate) fn check_crate(root: &Path, krate: &Path, files: &[std::path::PathBuf]) -> Vec<String> {
    let mut problems = Vec::new();
    let src = krate.join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let rel = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        let lines = text.lines().count();
        if lines > MAX_LINES {
            problems.push(format!(
                "{rel}: {lines} lines, more than {MAX_LINES} (split it along a seam, or move its tests out)"
            ));
        }
        let Some(module) = module_name(&src, file) else {
            continue;
        };
        graph.insert(module.clone(), imports(&without_tests(&text), &module));
    }
    for cycle in cycles(&graph) {
        let name = krate
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        problems.push(format!(
            "{name}: the files {} import each other in a circle (move what they share to a module of its own)",
            cycle.join(" -> ")
        ));
    }
    problems
}

/// The top-level module a file belongs to (`src/a.rs` and `src/a/b.rs` are `a`); `None` for the
/// crate root.
fn module_name(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
    (name != "lib" && name != "main").then_some(name)
}

/// `text` without its `#[cfg(test)]` module (from the attribute, and any attributes after it, to
/// the end of the file, where the workspace keeps such modules).
fn without_tests(text: &str) -> String {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let mut lines = text[at..].lines().skip(1);
        let module = lines.find(|l| !l.trim_start().starts_with("#["));
        if module.is_some_and(|l| l.starts_with("mod tests")) {
            return text[..at].to_owned();
        }
        from = at + "#[cfg(test)]".len();
    }
    text.to_owned()
}

/// The sibling modules `text` names as `crate::NAME`, outside comments, other than `module`.
fn imports(text: &str, module: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let is_module = after[name.len()..].starts_with("::")
                || after[name.len()..].starts_with(';')
                || after[name.len()..].starts_with(',');
            if is_module
                && !name.is_empty()
                && name != module
                && name.chars().all(|c| !c.is_ascii_uppercase())
            {
                out.insert(name);
            }
            rest = after;
        }
        // `use crate::{a::X, b};` names several modules at once.
        if let Some(i) = code.find("use crate::{") {
            for part in code[i + "use crate::{".len()..].split(',') {
                let name: String = part
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty()
                    && name != module
                    && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                    && part.trim()[name.len()..].starts_with("::")
                {
                    out.insert(name);
                }
            }
        }
    }
    out
}

/// One cycle through each strongly connected group of two or more modules, as names in order.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut found: Vec<Vec<String>> = Vec::new();
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for start in graph.keys() {
        if seen.contains(start) {
            continue;
        }
        if let Some(path) = path_back(graph, start) {
            seen.extend(path.iter().cloned());
            let mut cycle = path;
            cycle.push(start.clone());
            found.push(cycle);
        }
    }
    found
}

/// A path `start -> .. -> x` where `x` imports `start`, by breadth-first search.
fn path_back(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut prev: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_owned()]);
    let mut visited = BTreeSet::from([start.to_owned()]);
    while let Some(node) = queue.pop_front() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut path = vec![node.clone()];
                let mut at = node.clone();
                while let Some(p) = prev.get(&at) {
                    path.push(p.clone());
                    at = p.clone();
                }
                path.reverse();
                return Some(path);
            }
            if graph.contains_key(next) && visited.insert(next.clone()) {
                prev.insert(next.clone(), node.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(edges: &[(&str, &[&str])]) -> BTreeMap<String, BTreeSet<String>> {
        edges
            .iter()
            .map(|(a, bs)| {
                (
                    (*a).to_owned(),
                    bs.iter().map(|b| (*b).to_owned()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn imports_are_read_from_uses_and_paths() {
        let text = "use crate::a::X;\nuse crate::{b::Y, Z};\nfn f() { crate::c::g(); } // crate::d::h\nuse crate::Error;\n";
        let got: Vec<String> = imports(text, "self").into_iter().collect();
        assert_eq!(got, ["a", "b", "c"]);
    }

    #[test]
    fn the_test_module_is_left_out() {
        let text = "use crate::a::X;\n#[cfg(test)]\n#[allow(clippy::float_cmp)]\nmod tests {\n    use crate::b::Y;\n}\n";
        let got: Vec<String> = imports(&without_tests(text), "self").into_iter().collect();
        assert_eq!(got, ["a"]);
    }

    #[test]
    fn circles_are_found_and_chains_are_not() {
        let chain = graph(&[("a", &["b"]), ("b", &["c"]), ("c", &[])]);
        assert!(cycles(&chain).is_empty());
        let circle = graph(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"]), ("d", &["a"])]);
        let found = cycles(&circle);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].first(), found[0].last());
        assert_eq!(found[0].len(), 4);
    }
}
