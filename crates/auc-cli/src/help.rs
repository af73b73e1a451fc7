//! The help `auc` prints: `-h` gives each option's first sentence on lines of at most 100
//! columns, `--help` its whole text; every command ends with a few examples on the bundled
//! data (`data/`), which a test runs in order so that none goes stale.
//!
//! The texts themselves are the flags' doc comments (clap derive); this file only shapes them
//! ([`shape`]) and holds the examples ([`EXAMPLES`]).

use clap::{Arg, Command};

/// The widest help line (clap wraps at the terminal's width, and at this one past it).
pub(crate) const WIDTH: usize = 100;

/// Examples of each command, run in this order from the repository's root by the CLI tests
/// (`help_examples_run`): a command may use what an earlier one wrote.
pub(crate) const EXAMPLES: &[(&str, &[&str])] = &[
    (
        "info",
        &[
            "auc info data/heart.csv",
            "auc info --json data/heart.libsvm",
        ],
    ),
    (
        "train",
        &[
            "auc train data/heart.csv",
            "auc train data/heart.libsvm --algo opauc -o opauc.auc",
            "auc train data/heart.csv --calibrate sigmoid -o calibrated.auc",
        ],
    ),
    (
        "predict",
        &[
            "auc predict -m heart.auc data/heart.csv -o scores.txt",
            "auc predict -m opauc.auc data/heart.libsvm -o opauc.txt",
            "auc predict -m calibrated.auc data/heart.csv --proba --json",
        ],
    ),
    (
        "metrics",
        &[
            "auc metrics --scores scores.txt --labels data/heart.csv",
            "auc metrics --scores scores.txt --labels data/heart.csv --max-fpr 0.1 --json",
            "auc metrics --scores scores.txt --labels data/heart.csv --ci --at recall=0.9",
        ],
    ),
    (
        "compare",
        &[
            "auc compare --labels data/heart.csv scores.txt opauc.txt",
            "auc compare --labels data/heart.csv scores.txt opauc.txt --level 0.9 --json",
        ],
    ),
    (
        "model",
        &["auc model heart.auc", "auc model --json opauc.auc"],
    ),
    (
        "importance",
        &[
            "auc importance -m opauc.auc data/heart.libsvm",
            "auc importance -m heart.auc data/heart.csv --repeats 3 --seed 1 --json",
        ],
    ),
    (
        "cv",
        &[
            "auc cv data/heart.libsvm --algo opauc --folds 5 --repeats 2",
            "auc cv data/heart.csv --algo gbt-auc --json",
        ],
    ),
    (
        "curve",
        &["auc curve data/heart.libsvm --algo opauc --every 50"],
    ),
    (
        "moments",
        &[
            "auc moments data/heart.libsvm",
            "auc train --algo opauc-batch heart.mom -o from-moments.auc",
        ],
    ),
    (
        "stream",
        &["auc stream data/heart.libsvm --algo opauc --every 100"],
    ),
    (
        "friedman",
        &[
            "auc friedman data/tabular-auc.csv",
            "auc friedman data/tabular-auc.csv --alpha 0.1 --json",
        ],
    ),
    ("algos", &["auc algos", "auc algos --json"]),
    (
        "completions",
        &[
            "auc completions bash > auc.bash",
            "auc completions zsh > _auc",
        ],
    ),
];

/// The `auc` command as parsed and printed: `cmd` (the derived flags of `commands::Cli`) with
/// each option's short help cut to its first sentence (the whole text moves to `--help`) and
/// the examples appended.
pub(crate) fn shape(cmd: Command) -> Command {
    let cmd = cmd.max_term_width(WIDTH).mut_args(shorten);
    cmd.mut_subcommands(|sub| {
        let name = sub.get_name().to_owned();
        let sub = sub.mut_args(shorten);
        match EXAMPLES.iter().find(|(n, _)| *n == name) {
            Some((_, lines)) => sub.after_help(examples_text(lines)),
            None => sub,
        }
    })
}

/// The `Examples:` block of a command's help.
fn examples_text(lines: &[&str]) -> String {
    let mut text = String::from("Examples:\n");
    for l in lines {
        text.push_str("  ");
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// An option whose short help is longer than a line keeps its first sentence there; the whole
/// text becomes its long help unless it has one.
fn shorten(arg: Arg) -> Arg {
    let Some(help) = arg.get_help().map(|h| h.to_string()) else {
        return arg;
    };
    let short = first_clause(first_sentence(&help)).to_owned();
    if short == help.trim_end().trim_end_matches('.') {
        return arg;
    }
    let arg = if arg.get_long_help().is_none() {
        arg.long_help(help)
    } else {
        arg
    };
    arg.help(short)
}

/// A sentence longer than this is cut at its first clause on `-h`.
const SHORT: usize = 80;

/// `sentence` up to its first `; ` or `: ` outside brackets and backticks when it is longer than
/// [`SHORT`] and that clause is not a fragment of a few words; else `sentence`.
pub(crate) fn first_clause(sentence: &str) -> &str {
    if sentence.len() <= SHORT {
        return sentence;
    }
    let bytes = sentence.as_bytes();
    cut_outside_brackets(sentence, |i| {
        matches!(bytes[i], b';' | b':') && bytes.get(i + 1) == Some(&b' ') && i >= 20
    })
    .unwrap_or(sentence)
}

/// Abbreviations whose period does not end a sentence.
const ABBREVIATIONS: &[&str] = &["e.g", "i.e", "sec", "eq", "alg", "vs", "cf", "Fig", "et al"];

/// The text up to its first sentence end (`. ` outside brackets, quotes and backticks, not
/// after an abbreviation), without the period; the whole text when it has one sentence.
pub(crate) fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    cut_outside_brackets(text, |i| {
        bytes[i] == b'.'
            && matches!(bytes.get(i + 1), Some(b' ' | b'\n'))
            && !ABBREVIATIONS.iter().any(|a| text[..i].ends_with(a))
    })
    .unwrap_or_else(|| text.strip_suffix('.').unwrap_or(text))
}

/// `text` before the first byte position `at` accepts outside brackets and backticks.
fn cut_outside_brackets(text: &str, at: impl Fn(usize) -> bool) -> Option<&str> {
    let (mut depth, mut code) = (0i32, false);
    for (i, &b) in text.as_bytes().iter().enumerate() {
        match b {
            b'`' => code = !code,
            b'(' | b'[' | b'{' if !code => depth += 1,
            b')' | b']' | b'}' if !code => depth -= 1,
            _ if !code && depth <= 0 && at(i) => return Some(&text[..i]),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sentence_skips_brackets_code_and_abbreviations() {
        assert_eq!(first_sentence("One. Two."), "One");
        assert_eq!(first_sentence("Only one."), "Only one");
        assert_eq!(first_sentence("No period"), "No period");
        assert_eq!(
            first_sentence("Cut (as in [OAUC sec. 6.3]. really) here. Not here."),
            "Cut (as in [OAUC sec. 6.3]. really) here"
        );
        assert_eq!(first_sentence("Use `a. b` then. Next."), "Use `a. b` then");
        assert_eq!(
            first_sentence("Scale, e.g. min-max. Then."),
            "Scale, e.g. min-max"
        );
        assert_eq!(
            first_sentence("Version 2.5 is out. Yes."),
            "Version 2.5 is out"
        );
    }

    #[test]
    fn long_sentences_keep_their_first_clause() {
        let long = format!("Which scores the fit takes: `cv: x`, or {}", "y".repeat(80));
        assert_eq!(first_clause(&long), "Which scores the fit takes");
        assert_eq!(first_clause("Short: kept whole"), "Short: kept whole");
        let fragment = format!("Mode: {}", "z".repeat(90));
        assert_eq!(first_clause(&fragment), fragment);
    }
}
