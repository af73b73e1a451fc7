//! The everyday command line (issue 51, item 6): short `-h` lines with examples that run,
//! shell completions, `-q`, `--json` on stdout, and `-o` named from the input when not given.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{auc, stderr, stdout};

/// The repository's root (the bundled `data/` is there).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The commands in the order their examples run (a later one uses what an earlier one wrote).
const ORDER: &[&str] = &[
    "info",
    "train",
    "predict",
    "metrics",
    "compare",
    "model",
    "importance",
    "cv",
    "curve",
    "moments",
    "stream",
    "friedman",
    "algos",
    "completions",
];

/// The subcommands `auc -h` lists.
fn listed_commands() -> Vec<String> {
    let text = stdout(&auc(&["-h"]));
    let commands = text
        .split("Commands:")
        .nth(1)
        .expect("a Commands: section")
        .split("\n\n")
        .next()
        .unwrap();
    commands
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(str::to_owned)
        .collect()
}

/// The `Examples:` lines of `auc CMD -h`.
fn examples(cmd: &str) -> Vec<String> {
    let text = stdout(&auc(&[cmd, "-h"]));
    let block = text
        .split("Examples:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("auc {cmd} -h has no examples:\n{text}"));
    block
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn short_help_lines_fit_and_end_with_examples() {
    let mut listed = listed_commands();
    listed.sort();
    let mut ordered: Vec<String> = ORDER.iter().map(|s| s.to_string()).collect();
    ordered.sort();
    assert_eq!(listed, ordered, "a new command needs its place in ORDER");
    for cmd in ORDER {
        let o = auc(&[cmd, "-h"]);
        assert!(o.status.success());
        let text = stdout(&o);
        for l in text.lines() {
            assert!(l.chars().count() <= 100, "auc {cmd} -h: {l}");
        }
        assert!((2..=3).contains(&examples(cmd).len()) || *cmd == "curve" || *cmd == "stream");
        // The long help keeps what the short one cut.
        let long = stdout(&auc(&[cmd, "--help"]));
        assert!(long.len() >= text.len(), "auc {cmd}");
    }
    let train = stdout(&auc(&["train", "--help"]));
    assert!(train.contains("Polyak-Ruppert") && train.contains("--lambda"));
    let short = stdout(&auc(&["train", "-h"]));
    assert!(
        !short.contains("--lambda"),
        "parameter flags are on --help only"
    );
}

#[test]
fn help_examples_run_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    for f in ["heart.csv", "heart.libsvm", "tabular-auc.csv"] {
        std::fs::copy(root().join("data").join(f), data.join(f)).unwrap();
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_auc")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for cmd in ORDER {
        for example in examples(cmd) {
            let o = Command::new("sh")
                .arg("-c")
                .arg(&example)
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            assert!(o.status.success(), "{example}: {}", stderr(&o));
        }
    }
    assert!(dir.path().join("heart.auc").exists());
    assert!(dir.path().join("heart.mom").exists());
}

#[test]
fn completions_are_scripts_of_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = auc(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.contains("train") && text.contains("max-memory"),
            "{shell}"
        );
    }
    // The bash script parses.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("auc.bash");
    std::fs::write(&script, auc(&["completions", "bash"]).stdout).unwrap();
    let o = Command::new("bash")
        .arg("-n")
        .arg(&script)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = auc(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn quiet_leaves_results_and_warnings_only() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc");
    let m = m.to_str().unwrap();
    let heart = root().join("data/heart.csv");
    let heart = heart.to_str().unwrap();
    let loud = auc(&["train", heart, "-o", m]);
    assert!(loud.status.success());
    assert!(stderr(&loud).contains("no --algo"), "{}", stderr(&loud));
    // Before or after the command, -q silences every note.
    for args in [
        vec!["-q", "train", heart, "-o", m],
        vec!["train", heart, "-o", m, "--quiet"],
        vec!["-q", "predict", "-m", m, heart],
        vec![
            "-q",
            "cv",
            heart,
            "--algo",
            "opauc",
            "--folds",
            "3",
            "--repeats",
            "1",
        ],
    ] {
        let o = auc(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
    // An error is still said.
    let o = auc(&["-q", "predict", "-m", m, "no-such-file.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-file.csv"));
}

#[test]
fn predict_json_goes_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc");
    let m = m.to_str().unwrap();
    let heart = root().join("data/heart.libsvm");
    let heart = heart.to_str().unwrap();
    assert!(
        auc(&["train", "--algo", "opauc", heart, "-o", m])
            .status
            .success()
    );
    let plain = stdout(&auc(&["predict", "-m", m, heart]));
    let lines: Vec<&str> = plain.lines().collect();
    // Scores on stdout: one object, the scores first, then the summary.
    let o = auc(&["predict", "-m", m, heart, "--json"]);
    assert!(o.status.success());
    assert_eq!(stderr(&o), "");
    let text = stdout(&o);
    let j: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    // The same shortest round-trip numbers as the lines, compared as text (exact).
    let array = text["{\"scores\":[".len()..].split(']').next().unwrap();
    assert_eq!(array.split(',').collect::<Vec<_>>(), lines);
    assert_eq!(j["examples"], 270);
    assert!(j["auc"].as_f64().unwrap() > 0.8);
    // Scores in a file: the summary alone on stdout.
    let out = dir.path().join("s.txt");
    let o = auc(&[
        "predict",
        "-m",
        m,
        heart,
        "--json",
        "-o",
        out.to_str().unwrap(),
    ]);
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert!(j.get("scores").is_none() && j["auc"].is_number(), "{j}");
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 270);
    // Without labels (no metrics) the object still closes.
    let o = auc(&["predict", "-m", m, heart, "--json", "--no-metrics"]);
    let j: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(j["scores"].as_array().unwrap().len(), 270);
}

#[test]
fn output_is_named_from_the_input_when_not_given() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("heart.libsvm.gz");
    {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::fast(),
        );
        enc.write_all(&std::fs::read(root().join("data/heart.libsvm")).unwrap())
            .unwrap();
        enc.finish().unwrap();
    }
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_auc"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let o = run(&["train", "--algo", "opauc", "heart.libsvm.gz"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("heart.auc").exists());
    assert!(stderr(&o).contains("-> heart.auc"), "{}", stderr(&o));
    let o = run(&["moments", "heart.libsvm.gz"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("heart.mom").exists());
    // A moment file's own name would be overwritten: -o is asked for, nothing written.
    let o = run(&["moments", "heart.mom"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("-o FILE"), "{}", stderr(&o));
    // Standard input has no name: refused before anything is read.
    let o = common::auc_with_stdin(&["train", "--algo", "opauc", "-"], b"1 1:1\n-1 1:2\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("standard input"), "{}", stderr(&o));
}
