//! Whether a LIBSVM file counts its feature indices from 0 or from 1 ([`ZeroBased`]).
//!
//! LIBSVM's own tools write 1-based indices; scikit-learn's `dump_svmlight_file` writes 0-based
//! ones by default. [`ZeroBased::Auto`] decides as scikit-learn's loader does: a file in which
//! some feature index is 0 is 0-based, any other file 1-based. The decision is made before the
//! first row is handed on, so every row (and every later pass over the file) is read the same
//! way:
//!
//! - a regular file is scanned for an index 0 first ([`file_has_zero_index`]: lines split as the
//!   parser splits them, tokens looked for with `memchr`'s substring search, gzip decoded on the
//!   way), then read;
//! - input that cannot be read twice (standard input, a pipe) is judged on its first
//!   [`crate::DENSITY_CHECK_ROWS`] lines (at most [`WINDOW_BYTES`] of them), the window in
//!   which first-sight scaling looks at the rows too; those lines are kept and parsed once the
//!   decision is made. An index 0 after a window read 1-based is an error
//!   ([`crate::ParseErrorKind::LateIndexZero`]) that says to pass `--zero-based yes`.
//!
//! Several files read as one input are decided together ([`ReadOptions::zero_based_for`]): one
//! file with an index 0 makes them all 0-based, as scikit-learn's `load_svmlight_files` does, so
//! a test file whose first feature happens to be always 0 is not read shifted by one.

use std::path::Path;

use memchr::memmem::Finder;
use serde::{Deserialize, Serialize};

use crate::input::{Decoded, STDIN, open};
use crate::lines::Lines;
use crate::{Format, ReadOptions};

/// The most bytes of the window on which input that cannot be read twice is judged (its lines
/// are kept until the decision): a window of long lines ends here, after at least one line.
pub const WINDOW_BYTES: usize = 16 << 20;

/// How LIBSVM feature indices are counted ([`ReadOptions::zero_based`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ZeroBased {
    /// 0-based when the file holds a feature index 0, else 1-based (see the module docs).
    #[default]
    Auto,
    /// 0-based: index $j$ is feature $j$, the first one is 0, and the dimension is the largest
    /// index plus one.
    Yes,
    /// 1-based, LIBSVM's own convention: an index 0 is an error.
    No,
}

impl ZeroBased {
    /// The choice a word names, as the CLI's `--zero-based` and Python's `zero_based=` take it:
    /// `auto`, `yes` or `no`.
    pub fn from_word(word: &str) -> Option<ZeroBased> {
        match word {
            "auto" => Some(ZeroBased::Auto),
            "yes" => Some(ZeroBased::Yes),
            "no" => Some(ZeroBased::No),
            _ => None,
        }
    }
}

/// Finds a feature index 0 in LIBSVM lines, without parsing them.
pub(crate) struct ZeroScan {
    finder: Finder<'static>,
}

impl ZeroScan {
    pub(crate) fn new() -> Self {
        ZeroScan {
            finder: Finder::new(b"0:"),
        }
    }

    /// The byte offset of the first token of `line` (a line without its end) that the parser
    /// reads as feature index 0: after the label, before any `#`, digits that are all `0`
    /// followed by `:`, preceded by a space or a tab. `None` when there is none.
    pub(crate) fn zero_index(&self, line: &[u8]) -> Option<usize> {
        for hit in self.finder.find_iter(line) {
            let mut start = hit;
            while start > 0 && line[start - 1] == b'0' {
                start -= 1;
            }
            let Some(&before) = start.checked_sub(1).and_then(|k| line.get(k)) else {
                continue;
            };
            if before != b' ' && before != b'\t' {
                continue;
            }
            let head = &line[..start];
            if memchr::memchr(b'#', head).is_some() {
                // Everything after the first `#` is a comment.
                return None;
            }
            if head.iter().any(|&b| b != b' ' && b != b'\t') {
                return Some(start);
            }
        }
        None
    }
}

/// Whether `path` names input that can be read twice: a regular file, not standard input.
pub(crate) fn rereadable(path: &Path) -> bool {
    path.as_os_str() != STDIN && std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

/// Whether the LIBSVM file `path` (plain or gzip) holds a feature index 0 on a line the parser
/// reads, lines capped at `max_line_bytes`. The scan stops at the first index 0. A file that
/// cannot be opened or decoded, or a line over the cap, ends the scan with what was seen before
/// it: reading the file then fails at that place, before any index 0 the scan did not see.
pub(crate) fn file_has_zero_index(path: &Path, max_line_bytes: usize) -> bool {
    let name = path.display().to_string();
    let Ok((reader, _)) = open(path) else {
        return false;
    };
    let Ok(decoded) = Decoded::new(reader, &name) else {
        return false;
    };
    let scan = ZeroScan::new();
    let mut lines = Lines::new(decoded, max_line_bytes);
    while let Ok(Some((_, line))) = lines.next_line() {
        if scan.zero_index(line).is_some() {
            return true;
        }
    }
    false
}

impl ReadOptions {
    /// These options with [`ZeroBased::Auto`] decided for the inputs `paths` read as one (in
    /// order, by every pass of a run): [`ZeroBased::Yes`] when some LIBSVM file among them holds
    /// a feature index 0, else [`ZeroBased::No`] when every LIBSVM input is a regular file
    /// (scanned), else `Auto` left to the input that cannot be read twice (its first lines
    /// decide). CSV inputs (by [`Format::resolve`]) are not looked at, and a choice other than
    /// `Auto` is kept. Files are scanned whole, once here, so that later passes need not.
    pub fn zero_based_for<P: AsRef<Path>>(&self, paths: &[P]) -> ReadOptions {
        let mut out = self.clone();
        if self.zero_based != ZeroBased::Auto {
            return out;
        }
        let mut all_scanned = true;
        for p in paths {
            let p = p.as_ref();
            if self.format.resolve(&p.display().to_string()) == Format::Csv {
                continue;
            }
            if !rereadable(p) {
                all_scanned = false;
            } else if file_has_zero_index(p, self.max_line_bytes) {
                out.zero_based = ZeroBased::Yes;
                return out;
            }
        }
        if all_scanned {
            out.zero_based = ZeroBased::No;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_index_is_a_token_after_the_label_before_any_comment() {
        let scan = ZeroScan::new();
        let at = |line: &str| scan.zero_index(line.as_bytes());
        assert_eq!(at("1 0:1"), Some(2));
        assert_eq!(at("-1\t00:2.5 3:1"), Some(3));
        assert_eq!(at("  1  qid:3 0:1"), Some(11));
        for none in [
            "1 10:1 20:0",
            "0:1 2:1",
            "   0:1",
            "1 qid:0 3:1",
            "1 qid:0:1",
            "1 1:0 2:0.0",
            "1 3:1 # 0:1",
            "1 # x 0:1",
            "1 a0:1",
            "",
        ] {
            assert_eq!(at(none), None, "{none:?}");
        }
    }

    #[test]
    fn words_name_the_choices() {
        assert_eq!(ZeroBased::from_word("yes"), Some(ZeroBased::Yes));
        assert_eq!(ZeroBased::from_word("no"), Some(ZeroBased::No));
        assert_eq!(ZeroBased::from_word("auto"), Some(ZeroBased::Auto));
        assert_eq!(ZeroBased::from_word("true"), None);
        assert_eq!(ZeroBased::default(), ZeroBased::Auto);
    }
}
