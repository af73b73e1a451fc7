//! Checks of the documentation a newcomer reads first (part of `cargo xtask tidy`):
//!
//! - `README.md` has at most [`README_WORDS`] words (counted as `wc -w` counts them) and no
//!   paragraph over [`PARAGRAPH_WORDS`];
//! - no paragraph of the user guide (`docs/guide/*.md`) is over [`GUIDE_PARAGRAPH_WORDS`];
//! - every relative link of the README, the guide and `docs/codemap.md` names a file or
//!   directory that exists, and its `#anchor`, if any, a heading of that markdown file;
//! - the code map has a section for every crate, every path it names (`src/..`, `python/..`,
//!   `tests/..`, relative to the section's crate) exists, and the item named just before `in` a
//!   path (`` `Model::from_bytes` in `src/model.rs` ``: `from_bytes`) appears in that file, so
//!   its entry points cannot drift silently.
//!
//! A paragraph is a run of non-blank lines outside code blocks; a list item is a paragraph of its
//! own, and tables and headings are not paragraphs.

use std::fs;
use std::path::Path;

/// The README's word budget (issue 49).
pub(crate) const README_WORDS: usize = 1500;
/// The longest paragraph the README may hold.
pub(crate) const PARAGRAPH_WORDS: usize = 120;
/// The longest paragraph of the user guide: longer than the README's, never a wall.
pub(crate) const GUIDE_PARAGRAPH_WORDS: usize = 150;

/// Every problem found, one line each.
pub(crate) fn check(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let readme = read(root, "README.md", &mut problems);
    let words = readme.split_whitespace().count();
    if words > README_WORDS {
        problems.push(format!(
            "README.md: {words} words, more than {README_WORDS}: move material to docs/guide/"
        ));
    }
    long_paragraphs("README.md", &readme, PARAGRAPH_WORDS, &mut problems);
    links(root, "README.md", &readme, &mut problems);
    let mut guide: Vec<String> = fs::read_dir(root.join("docs/guide"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".md"))
                .map(|n| format!("docs/guide/{n}"))
                .collect()
        })
        .unwrap_or_default();
    guide.sort();
    for name in &guide {
        let text = read(root, name, &mut problems);
        long_paragraphs(name, &text, GUIDE_PARAGRAPH_WORDS, &mut problems);
        links(root, name, &text, &mut problems);
    }
    let codemap = read(root, "docs/codemap.md", &mut problems);
    links(root, "docs/codemap.md", &codemap, &mut problems);
    entry_points(root, &codemap, &mut problems);
    problems
}

/// The directory a code-map section (`## NAME ...`) describes, relative to the root.
fn section_dir(heading: &str) -> String {
    let name = heading.split_whitespace().next().unwrap_or_default();
    match name {
        "auc-benches" => "benches".to_owned(),
        "xtask" => "xtask".to_owned(),
        other => format!("crates/{other}"),
    }
}

/// The backticked spans of a line.
fn code_spans(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut rest = line;
    let mut offset = 0;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        out.push((offset + open, &after[..close]));
        let used = open + 1 + close + 1;
        offset += used;
        rest = &rest[used..];
    }
    out
}

/// The last identifier of a code span: `Model::from_bytes` -> `from_bytes`,
/// `impl OnlineLearner for BalFtrl` -> `BalFtrl`, `#[pymodule]` -> `pymodule`.
fn last_ident(span: &str) -> &str {
    span.rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|w| !w.is_empty())
        .unwrap_or_default()
}

fn entry_points(root: &Path, codemap: &str, problems: &mut Vec<String>) {
    let mut dir: Option<String> = None;
    let mut sections = Vec::new();
    for (i, line) in codemap.lines().enumerate() {
        let number = i + 1;
        if let Some(heading) = line.strip_prefix("## ") {
            let d = section_dir(heading);
            sections.push(d.clone());
            dir = Some(d);
            continue;
        }
        let Some(dir) = dir.as_deref() else { continue };
        let spans = code_spans(line);
        for (k, &(at, span)) in spans.iter().enumerate() {
            let is_path = ["src/", "python/", "tests/"]
                .iter()
                .any(|p| span.starts_with(p))
                && !span.contains(' ');
            if !is_path {
                continue;
            }
            let rel = format!("{dir}/{}", span.trim_end_matches('/'));
            let path = root.join(&rel);
            if !path.exists() {
                problems.push(format!("docs/codemap.md:{number}: `{rel}` does not exist"));
                continue;
            }
            // `ITEM` in `PATH`: the item must appear in the file.
            let Some(&(prev_at, item)) = k.checked_sub(1).and_then(|j| spans.get(j)) else {
                continue;
            };
            let between = &line[prev_at + item.len() + 2..at];
            if between.trim() != "in" || !path.is_file() {
                continue;
            }
            let ident = last_ident(item);
            let text = fs::read_to_string(&path).unwrap_or_default();
            let found = text.match_indices(ident).any(|(p, _)| {
                let before = text[..p].chars().next_back();
                let after = text[p + ident.len()..].chars().next();
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !word(before) && !word(after)
            });
            if ident.is_empty() || !found {
                problems.push(format!(
                    "docs/codemap.md:{number}: `{item}` is not in `{rel}` (moved or renamed?)"
                ));
            }
        }
    }
    let crates = fs::read_dir(root.join("crates"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().join("Cargo.toml").is_file())
                .map(|e| format!("crates/{}", e.file_name().to_string_lossy()))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    for krate in crates {
        if !sections.contains(&krate) {
            problems.push(format!("docs/codemap.md: no `## {}` section", &krate[7..]));
        }
    }
}

fn read(root: &Path, name: &str, problems: &mut Vec<String>) -> String {
    fs::read_to_string(root.join(name)).unwrap_or_else(|e| {
        problems.push(format!("{name}: {e}"));
        String::new()
    })
}

/// The paragraphs of a markdown text as (first line, word count).
pub(crate) fn paragraphs(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, usize)> = None;
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("```") {
            in_code = !in_code;
            out.extend(current.take());
            continue;
        }
        let item = t.starts_with("- ")
            || t.starts_with("* ")
            || t.split_once(". ").is_some_and(|(n, _)| {
                !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
            });
        if in_code || t.is_empty() || t.starts_with('|') || t.starts_with('#') || item {
            out.extend(current.take());
        }
        if in_code || t.is_empty() || t.starts_with('|') || t.starts_with('#') {
            continue;
        }
        let words = t.split_whitespace().count();
        match current.as_mut() {
            Some((_, n)) => *n += words,
            None => current = Some((i + 1, words)),
        }
    }
    out.extend(current);
    out
}

fn long_paragraphs(name: &str, text: &str, limit: usize, problems: &mut Vec<String>) {
    for (line, words) in paragraphs(text) {
        if words > limit {
            problems.push(format!(
                "{name}:{line}: a paragraph of {words} words, more than {limit}: split it"
            ));
        }
    }
}

/// The targets of the inline links `[text](target)` of `text`, outside code blocks.
pub(crate) fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((i + 1, after[..end].to_owned()));
            rest = &after[end..];
        }
    }
    out
}

fn links(root: &Path, name: &str, text: &str, problems: &mut Vec<String>) {
    let dir = Path::new(name).parent().unwrap_or(Path::new(""));
    for (line, target) in link_targets(text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
        let path = if file.is_empty() {
            root.join(name)
        } else {
            root.join(dir).join(file)
        };
        if path.exists() && !anchor.is_empty() && file.ends_with(".md") || file.is_empty() {
            let text = fs::read_to_string(&path).unwrap_or_default();
            if !anchors(&text).iter().any(|a| a == anchor) {
                problems.push(format!(
                    "{name}:{line}: link to `{target}`: no heading has the anchor `#{anchor}`"
                ));
            }
            continue;
        }
        if !path.exists() {
            problems.push(format!(
                "{name}:{line}: link to `{target}`, which does not exist"
            ));
        }
    }
}

/// The anchors GitHub gives a markdown text's headings: lower case, punctuation other than `-`
/// and `_` dropped, spaces as `-` (a repeated heading's `-1` suffix is not produced).
pub(crate) fn anchors(text: &str) -> Vec<String> {
    let mut in_code = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
                _ => None,
            })
            .collect();
        out.push(slug);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_split_at_blank_lines_items_and_blocks() {
        let text = "\
# Heading words here

one two three
four five

- item one two
- item three
  continued here

| a | b c d e f |
```sh
auc not counted at all
```
1. numbered item
";
        assert_eq!(
            paragraphs(text),
            [(3, 5), (6, 4), (7, 5), (14, 3)],
            "{:?}",
            paragraphs(text)
        );
    }

    #[test]
    fn code_map_items_and_paths_are_read_from_spans() {
        let line = "- `Model::from_bytes` in `src/model.rs`: what `auc train` writes.";
        let spans: Vec<&str> = code_spans(line).into_iter().map(|(_, s)| s).collect();
        assert_eq!(spans, ["Model::from_bytes", "src/model.rs", "auc train"]);
        assert_eq!(last_ident("impl OnlineLearner for BalFtrl"), "BalFtrl");
        assert_eq!(last_ident("#[pymodule]"), "pymodule");
        assert_eq!(section_dir("auc-benches (`benches/`)"), "benches");
        assert_eq!(section_dir("auc-core"), "crates/auc-core");
    }

    #[test]
    fn anchors_follow_github() {
        let text = "# Title\n## The running AUC of `auc stream`\n### Parameters, grids and tuning\n```sh\n# not a heading\n```\n";
        assert_eq!(
            anchors(text),
            [
                "title",
                "the-running-auc-of-auc-stream",
                "parameters-grids-and-tuning"
            ]
        );
    }

    #[test]
    fn links_are_read_outside_code() {
        let text = "see [a](docs/a.md#x) and [b](https://x.y)\n```\n[c](nope.md)\n```\n";
        assert_eq!(
            link_targets(text),
            [(1, "docs/a.md#x".to_owned()), (1, "https://x.y".to_owned())]
        );
    }
}
