//! True streaming (issue 16): `auc train`, `auc stream` and `auc predict` read their input
//! incrementally, from a file (read twice: a first pass for the ranges, labels and dimension)
//! or from standard input (read once: `--scale-from` or `--scale none`), and give the models
//! and scores of the in-memory path on the same rows, order and scaling.

mod common;

use std::io::Write;
use std::path::Path;

use common::{auc, auc_with_stdin, check_fails, heart, stderr, stdout, write};

/// The one-pass algorithms of `auc algos --json`, with their family.
fn one_pass() -> Vec<(String, String)> {
    let o = auc(&["algos", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let out: Vec<(String, String)> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["family"] != "batch")
        .map(|a| {
            (
                a["name"].as_str().unwrap().to_owned(),
                a["family"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(out.len() >= 13, "{out:?}");
    out
}

fn ok(o: &std::process::Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// No temporary file is left in `dir`.
fn no_temp_files(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp"), "left behind: {name}");
    }
}

/// For every one-pass learner (averaged too, for linear ones): the model trained in memory
/// (`--shuffle-full`), streamed from the file (the shuffle buffer holds the whole file, so the
/// order is the same permutation) and streamed from standard input with the file's scaling
/// (`--scale-from` the in-memory model) are the same file, byte for byte.
#[test]
fn streamed_models_equal_in_memory_models_for_every_one_pass_learner() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    let mut checked = 0;
    for (name, family) in one_pass() {
        let averages: &[bool] = if family == "linear" {
            &[false, true]
        } else {
            &[false]
        };
        for &average in averages {
            let what = format!("{name} (average {average})");
            let path = |k: &str| dir.path().join(format!("{name}-{average}-{k}.auc"));
            let (mem, file, pipe, plain) = (path("mem"), path("file"), path("pipe"), path("plain"));
            let base = |out: &Path| {
                let mut v = vec![
                    "train".to_owned(),
                    "--algo".to_owned(),
                    name.clone(),
                    "--shuffle".to_owned(),
                    "7".to_owned(),
                    "-o".to_owned(),
                    out.display().to_string(),
                ];
                if average {
                    v.push("--average".to_owned());
                }
                v
            };
            let run = |mut args: Vec<String>, extra: &[&str], stdin: Option<&[u8]>| {
                args.extend(extra.iter().map(|s| (*s).to_owned()));
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = match stdin {
                    Some(bytes) => auc_with_stdin(&args, bytes),
                    None => auc(&args),
                };
                ok(&o, &format!("{what} {args:?}"));
                o
            };
            run(base(&mem), &["--shuffle-full", &heart()], None);
            run(base(&file), &[&heart()], None);
            let from = mem.display().to_string();
            let o = run(base(&pipe), &["--scale-from", &from, "-"], Some(&data));
            assert!(
                stderr(&o).contains("positive class: +1"),
                "{what}: {}",
                stderr(&o)
            );
            assert_eq!(read(&mem), read(&file), "{what}: file streamed");
            assert_eq!(read(&mem), read(&pipe), "{what}: standard input streamed");
            // In file order, unscaled: the file (a first pass finds the dimension) and the
            // pipe (which starts at dimension 13 from --dim) agree too.
            let mut plain_args = base(&plain);
            plain_args.drain(3..5);
            run(plain_args.clone(), &["--scale", "none", &heart()], None);
            let plain_pipe = path("plain-pipe");
            let mut pipe_args = base(&plain_pipe);
            pipe_args.drain(3..5);
            run(
                pipe_args,
                &["--scale", "none", "--dim", "13", "-"],
                Some(&data),
            );
            assert_eq!(read(&plain), read(&plain_pipe), "{what}: unscaled");
            checked += 1;
        }
    }
    assert!(checked >= 13 + 9, "only {checked} runs");
}

/// A learner reading standard input without `--dim` starts small and grows when a larger index
/// appears: its scores equal those of a run that knew the dimension from the start (bit for
/// bit for learners whose arithmetic on sparse rows touches only stored entries; to rounding
/// for the moment learners, whose lane-wise sums group by the vector length).
#[test]
fn a_growing_dimension_scores_like_a_known_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    for (name, _) in one_pass() {
        let known = dir.path().join(format!("{name}-known.auc"));
        let grown = dir.path().join(format!("{name}-grown.auc"));
        let o = auc(&[
            "train",
            "--algo",
            &name,
            "--scale",
            "none",
            &heart(),
            "-o",
            known.to_str().unwrap(),
        ]);
        ok(&o, &name);
        let o = auc_with_stdin(
            &[
                "train",
                "--algo",
                &name,
                "--scale",
                "none",
                "-",
                "-o",
                grown.to_str().unwrap(),
            ],
            &data,
        );
        ok(&o, &name);
        let scores = |m: &Path| -> Vec<f64> {
            let o = auc(&["predict", "-m", m.to_str().unwrap(), &heart()]);
            ok(&o, &name);
            stdout(&o).lines().map(|l| l.parse().unwrap()).collect()
        };
        let (a, b) = (scores(&known), scores(&grown));
        assert_eq!(a.len(), 270);
        let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
        for (u, v) in a.iter().zip(&b) {
            assert!(
                (u - v).abs() <= 1e-9 * scale,
                "{name}: {u} known, {v} grown"
            );
        }
        let j = |m: &Path| -> serde_json::Value {
            serde_json::from_str(&stdout(&auc(&["model", m.to_str().unwrap(), "--json"]))).unwrap()
        };
        assert_eq!(j(&grown)["features"], 13, "{name}");
        assert_eq!(j(&grown)["training"], j(&known)["training"], "{name}");
    }
}

/// Standard input cannot be read twice: without `--scale-from` or `--scale none` the default
/// scaling is refused with a message naming both, and no model is written.
#[test]
fn standard_input_needs_scale_from_or_scale_none() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.auc");
    let data = std::fs::read(heart()).unwrap();
    let o = auc_with_stdin(
        &["train", "--algo", "pa-i", "-", "-o", out.to_str().unwrap()],
        &data,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("--scale-from") && err.contains("--scale none"),
        "{err}"
    );
    assert!(err.contains("standard input"), "{err}");
    assert!(!out.exists());
    no_temp_files(dir.path());
    // `auc stream` says the same.
    let o = auc_with_stdin(&["stream", "--algo", "pa-i", "-"], &data);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--scale-from"), "{}", stderr(&o));
    // --scale-from and --scale none contradict each other.
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            "--scale",
            "none",
            "--scale-from",
            out.to_str().unwrap(),
            &heart(),
            "-o",
            out.to_str().unwrap(),
        ],
        "--scale-from",
    );
    // A file that is neither a model nor `auc info --json` output.
    let junk = write(dir.path(), "junk.json", "{\"a\": 1}");
    check_fails(
        &[
            "train",
            "--algo",
            "pa-i",
            "--scale-from",
            junk.to_str().unwrap(),
            &heart(),
            "-o",
            out.to_str().unwrap(),
        ],
        "neither an auc model file nor the output of `auc info --json`",
    );
}

/// `auc info --json` prints the feature ranges, and a stream scaled from them trains the model
/// a file read twice trains (the same ranges, the same scaling), byte for byte.
#[test]
fn info_json_ranges_scale_a_stream_as_a_first_pass_would() {
    let dir = tempfile::tempdir().unwrap();
    let o = auc(&["info", &heart(), "--json"]);
    ok(&o, "info");
    let info = write(dir.path(), "info.json", &stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["ranges"]["min"].as_array().unwrap().len(), 13, "{v}");
    let data = std::fs::read(heart()).unwrap();
    for scale in ["auto", "minmax", "maxabs"] {
        let (a, b) = (dir.path().join("a.auc"), dir.path().join("b.auc"));
        let o = auc(&[
            "train",
            "--algo",
            "oauc-m",
            "--scale",
            scale,
            &heart(),
            "-o",
            a.to_str().unwrap(),
        ]);
        ok(&o, scale);
        let o = auc_with_stdin(
            &[
                "train",
                "--algo",
                "oauc-m",
                "--scale",
                scale,
                "--scale-from",
                info.to_str().unwrap(),
                "-",
                "-o",
                b.to_str().unwrap(),
            ],
            &data,
        );
        ok(&o, scale);
        assert_eq!(read(&a), read(&b), "--scale {scale}");
    }
}

/// The positive class of a stream read once: the binary rule (+1 of {-1, +1}, 1 of {0, 1});
/// a third label (or a mix of the two sets) is refused, naming `--positive`, with no model
/// written; `--positive` takes any label set and must occur; one class is refused after the
/// pass.
#[test]
fn the_positive_class_of_a_stream_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m.auc");
    let o_ = out.to_str().unwrap();
    let train = |text: &str, extra: &[&str]| {
        let mut args = vec!["train", "--algo", "pa-i", "--scale", "none", "-", "-o", o_];
        args.extend_from_slice(extra);
        auc_with_stdin(&args, text.as_bytes())
    };
    let o = train("0 1:1\n1 1:2\n0 2:1\n", &[]);
    ok(&o, "0/1");
    assert!(
        stderr(&o).contains("positive class: +1 (1 of a {0, 1} file)"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_file(&out).unwrap();
    for bad in ["1 1:1\n-1 1:2\n2 1:3\n", "1 1:1\n-1 1:2\n0 1:3\n"] {
        let o = train(bad, &[]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = stderr(&o);
        assert!(
            err.contains("example 3") && err.contains("--positive"),
            "{err}"
        );
        assert!(!out.exists());
    }
    let o = train("1 1:1\n-1 1:2\n2 1:3\n", &["--positive", "2"]);
    ok(&o, "--positive 2");
    assert!(stderr(&o).contains("positive class: 2"), "{}", stderr(&o));
    std::fs::remove_file(&out).unwrap();
    let o = train("1 1:1\n-1 1:2\n", &["--positive", "5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--positive 5"), "{}", stderr(&o));
    assert!(!out.exists());
    let o = train("1 1:1\n1 1:2\n", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs both classes"), "{}", stderr(&o));
    assert!(!out.exists());
    no_temp_files(dir.path());
}

/// A file whose scaling needs no first pass is read once when its labels are binary (as a pipe
/// is: the same model bytes), and read again after a first pass that counts its labels when a
/// third label shows up part way (the minority class is then positive, as the first pass of a
/// file always chose it).
#[test]
fn a_file_is_read_once_unless_its_labels_are_not_binary() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = String::new();
    for i in 0..3000 {
        let label = if i % 5 == 0 { "1" } else { "-1" };
        rows.push_str(&format!("{label} 1:{} {}:1\n", i % 7, 2 + i % 11));
    }
    let file = common::write(dir.path(), "bin.libsvm", &rows);
    let (m1, m2) = (dir.path().join("file.auc"), dir.path().join("pipe.auc"));
    let base = ["train", "--algo", "pa-i", "--scale", "none"];
    let o = common::auc(
        &[
            &base[..],
            &[file.to_str().unwrap(), "-o", m1.to_str().unwrap()],
        ]
        .concat(),
    );
    ok(&o, "binary file");
    let o = auc_with_stdin(
        &[&base[..], &["-", "-o", m2.to_str().unwrap()]].concat(),
        rows.as_bytes(),
    );
    ok(&o, "binary pipe");
    assert_eq!(read(&m1), read(&m2));
    // A third label at row 2,500: the file is read again, 7 (the minority) is positive.
    let mut third = String::new();
    for (i, line) in rows.lines().enumerate() {
        let line = match line.split_once(' ') {
            Some(("1", rest)) if i >= 2_500 => format!("7 {rest}"),
            Some(("1", rest)) => format!("5 {rest}"),
            Some((_, rest)) => format!("3 {rest}"),
            None => unreachable!(),
        };
        third.push_str(&line);
        third.push('\n');
    }
    let other = common::write(dir.path(), "three.libsvm", &third);
    let o = common::auc(
        &[
            &base[..],
            &[other.to_str().unwrap(), "-o", m1.to_str().unwrap()],
        ]
        .concat(),
    );
    ok(&o, "three labels");
    assert!(stderr(&o).contains("positive class: 7"), "{}", stderr(&o));
    no_temp_files(dir.path());
}

/// A sparse file whose features keep the magnitude of their first non-zero is read once with
/// the default (max-abs) scaling, fitted in the learning pass: no first pass runs (the hook
/// between passes does not), and the model is that of standard input given the fitted scaling
/// (`--scale-from` the model). One value larger than its feature's first sends the run back to
/// a first pass, with the model of the scaling fitted on all rows all the same.
#[test]
fn max_abs_scaling_is_fitted_in_the_learning_pass_when_first_values_are_largest() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = String::new();
    for i in 0..4000 {
        let label = if i % 5 == 0 { "1" } else { "-1" };
        let (a, b) = (1 + i % 13, 20 + (i * 7) % 300);
        rows.push_str(&format!(
            "{label} {a}:1 {b}:{}\n",
            if i % 2 == 0 { 0.5 } else { -0.5 }
        ));
    }
    let mut larger = rows.clone();
    larger.push_str("-1 3:4\n");
    let marker = dir.path().join("between");
    for (name, text, passes) in [("once.svm", &rows, 1), ("twice.svm", &larger, 2)] {
        let file = write(dir.path(), name, text);
        let (m1, m2) = (dir.path().join("file.auc"), dir.path().join("pipe.auc"));
        let _ = std::fs::remove_file(&marker);
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_auc"));
        c.args(["train", "--algo", "pa-i", file.to_str().unwrap(), "-o"])
            .arg(&m1)
            .env(
                "AUC_TEST_BETWEEN_PASSES",
                format!("touch {}", marker.display()),
            );
        let o = c.output().unwrap();
        ok(&o, name);
        assert_eq!(marker.exists(), passes == 2, "{name}: {}", stderr(&o));
        let info = auc(&["model", m1.to_str().unwrap(), "--json"]);
        ok(&info, "model --json");
        assert!(stdout(&info).contains("maxabs"), "{}", stdout(&info));
        let o = auc_with_stdin(
            &[
                "train",
                "--algo",
                "pa-i",
                "--scale-from",
                m1.to_str().unwrap(),
                "-",
                "-o",
                m2.to_str().unwrap(),
            ],
            text.as_bytes(),
        );
        ok(&o, "pipe");
        assert_eq!(read(&m1), read(&m2), "{name}");
    }
    no_temp_files(dir.path());
}

/// `auc predict` writes scores as it reads: from standard input, gzip included, the scores of
/// the file; a bad row part way into a file output leaves no file (nor temporary file), and
/// on standard output the scores before it with exit code 2.
#[test]
fn predict_streams_scores_and_fails_cleanly_part_way() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.auc");
    let ms = m.to_str().unwrap();
    ok(
        &auc(&["train", "--algo", "oauc-m", &heart(), "-o", ms]),
        "train",
    );
    let from_file = auc(&["predict", "-m", ms, &heart()]);
    ok(&from_file, "predict");
    let data = std::fs::read(heart()).unwrap();
    let from_stdin = auc_with_stdin(&["predict", "-m", ms, "-"], &data);
    ok(&from_stdin, "predict -");
    assert_eq!(from_file.stdout, from_stdin.stdout);
    assert_eq!(stdout(&from_file).lines().count(), 270);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&data).unwrap();
    let gz = gz.finish().unwrap();
    let o = auc_with_stdin(&["predict", "-m", ms, "-", "--one-thread"], &gz);
    ok(&o, "predict gzip");
    assert_eq!(o.stdout, from_file.stdout);
    let o = auc(&["predict", "-m", ms, &heart(), "--no-metrics"]);
    ok(&o, "--no-metrics");
    assert_eq!(o.stdout, from_file.stdout);
    assert!(stderr(&o).contains("270 examples scored"), "{}", stderr(&o));
    // Row 200 is malformed.
    let text = String::from_utf8(data).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[199] = "+1 1:abc";
    let bad = write(dir.path(), "bad.libsvm", &(lines.join("\n") + "\n"));
    let out = dir.path().join("scores.txt");
    let o = auc(&[
        "predict",
        "-m",
        ms,
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(":200:"), "{}", stderr(&o));
    assert!(!out.exists());
    no_temp_files(dir.path());
    let o = auc(&["predict", "-m", ms, bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let printed = stdout(&o);
    let expected = stdout(&from_file);
    let first: Vec<&str> = expected.lines().collect();
    assert!(printed.lines().count() < 200, "{}", printed.lines().count());
    for (k, l) in printed.lines().enumerate() {
        assert_eq!(l, first[k], "line {}", k + 1);
    }
}

/// `auc stream` prints its curve as it reads, the same from a file and from standard input,
/// with one thread or two; `--dim` fixes the dimension (an index past it is an error naming
/// the line).
#[test]
fn stream_prints_the_same_curve_from_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    let args = [
        "stream", "--algo", "solam", "--every", "50", "--scale", "none",
    ];
    let from_file = auc(&[&args[..], &[&heart()]].concat());
    ok(&from_file, "file");
    let text = stdout(&from_file);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 6, "{lines:?}");
    let from_pipe = auc_with_stdin(&[&args[..], &["-", "--one-thread"]].concat(), &data);
    ok(&from_pipe, "pipe");
    assert_eq!(from_file.stdout, from_pipe.stdout);
    let narrow = write(dir.path(), "n.libsvm", "1 1:1\n-1 2:1\n1 5:1\n");
    let o = auc(&[
        "train",
        "--algo",
        "pa-i",
        "--scale",
        "none",
        "--dim",
        "2",
        narrow.to_str().unwrap(),
        "-o",
        dir.path().join("m.auc").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("n.libsvm:3:"), "{}", stderr(&o));
}

/// `--shuffle` on a stream draws from a bounded buffer: a buffer smaller than the input gives
/// another order (so another model), reproducible from the seed; a buffer holding the input
/// gives `--shuffle-full`'s permutation.
#[test]
fn the_shuffle_buffer_is_seeded_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let m = |k: &str| dir.path().join(format!("{k}.auc"));
    let train = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "train",
            "--algo",
            "pa-i",
            "--shuffle",
            "3",
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let h = heart();
        args.push(&h);
        ok(&auc(&args), &format!("{extra:?}"));
        read(out)
    };
    let small = train(&m("small"), &["--shuffle-buffer", "20"]);
    let again = train(&m("again"), &["--shuffle-buffer", "20"]);
    let full = train(&m("full"), &["--shuffle-full"]);
    let big = train(&m("big"), &["--shuffle-buffer", "270"]);
    assert_eq!(small, again);
    assert_ne!(small, full);
    assert_eq!(big, full);
}

/// A LIBSVM file whose dimension grows as it is read (indices up to `5 + i / 40` at row `i`),
/// with an index written with a zero value past a row's last feature every 97 rows (it counts
/// for the dimension, not for the stored rows), labels `pos` one row in five, `neg` otherwise.
fn growing_file(dir: &Path, name: &str, rows: usize, pos: &str, neg: &str) -> std::path::PathBuf {
    let mut text = String::new();
    for i in 0..rows {
        text.push_str(if i % 5 == 0 { pos } else { neg });
        let mut row = std::collections::BTreeMap::new();
        for j in 0..(1 + i % 7) {
            let idx = 1 + (i * 31 + j * 17) % (5 + i / 40);
            row.insert(idx, ((i * 13 + j) % 23) as f64 / 4.0 - 2.5);
        }
        for (idx, v) in row {
            text.push_str(&format!(" {idx}:{v}"));
        }
        if i % 97 == 5 {
            text.push_str(&format!(" {}:0", 6 + i / 20));
        }
        text.push('\n');
    }
    write(dir, name, &text)
}

/// Runs `auc` with `AUC_BLOCK_BYTES` set (blocks of the parallel learning pass), or with
/// `--one-thread` (one parser, no blocks) when `block` is `None`.
fn auc_blocks(args: &[&str], block: Option<usize>) -> std::process::Output {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_auc"));
    c.args(args);
    match block {
        Some(b) => c.env("AUC_BLOCK_BYTES", b.to_string()),
        None => c.arg("--one-thread"),
    };
    c.output().expect("the auc binary runs")
}

/// The learning pass over a plain LIBSVM file parses it in parallel blocks handed on in file
/// order. With blocks of 1 kB and 7.7 kB (dozens of blocks, many windows), and of the default
/// size, the models equal those of one parser (`--one-thread`) byte for byte: for a learner of
/// each family and OAUC-M (whose sums depend on its dimension), in file order and through the
/// shuffle buffer, with min-max scaling (a first pass fixes the dimension) and unscaled (the
/// file read once, the learner growing where one parser's chunks grow it, indices written with
/// zero values included), and a file whose third label makes the pass start over.
#[test]
fn parallel_blocks_train_the_models_of_one_parser() {
    let dir = tempfile::tempdir().unwrap();
    let binary = growing_file(dir.path(), "bin.libsvm", 3_000, "+1", "-1");
    let three = growing_file(dir.path(), "three.libsvm", 2_000, "2", "-1");
    // OAUC-M and the first learner of each family.
    let mut names = vec!["oauc-m".to_owned()];
    let mut families: Vec<String> = Vec::new();
    for (name, family) in one_pass() {
        if !families.contains(&family) {
            families.push(family);
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    assert!(
        names.iter().any(|n| n == "oauc-m") && names.len() >= 3,
        "{names:?}"
    );
    let mut checked = 0;
    for name in &names {
        for file in [&binary, &three] {
            for extra in [
                &[][..],
                &["--scale", "none"][..],
                &["--shuffle", "5", "--shuffle-buffer", "300"][..],
                &[
                    "--scale",
                    "none",
                    "--shuffle",
                    "5",
                    "--shuffle-buffer",
                    "300",
                ][..],
            ] {
                let what = format!("{name} {} {extra:?}", file.display());
                let model = |block: Option<usize>| {
                    let out = dir.path().join(format!("m-{}.auc", block.unwrap_or(0)));
                    let mut args = vec!["train", "--algo", name, file.to_str().unwrap()];
                    args.extend_from_slice(extra);
                    args.extend_from_slice(&["-o", out.to_str().unwrap()]);
                    let o = auc_blocks(&args, block);
                    ok(&o, &what);
                    read(&out)
                };
                let one = model(None);
                for block in [1_000, 7_777, 1 << 20] {
                    assert!(model(Some(block)) == one, "{what}: blocks of {block} bytes");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 3 * 8, "only {checked} runs");
}

/// `auc predict` and `auc stream` read a plain file in parallel blocks too: the same scores
/// and curve as one parser, in input order.
#[test]
fn parallel_blocks_score_and_stream_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = growing_file(dir.path(), "bin.libsvm", 3_000, "+1", "-1");
    let f = file.to_str().unwrap();
    let m = dir.path().join("m.auc");
    let o = auc(&["train", "--algo", "oauc-m", f, "-o", m.to_str().unwrap()]);
    ok(&o, "train");
    for args in [
        vec!["predict", "-m", m.to_str().unwrap(), f],
        vec!["stream", "--algo", "solam", "--every", "100", f],
    ] {
        let one = auc_blocks(&args, None);
        ok(&one, "one parser");
        assert!(stdout(&one).lines().count() > 20, "{args:?}");
        for block in [1_000, 7_777] {
            let par = auc_blocks(&args, Some(block));
            ok(&par, &format!("{args:?} blocks of {block}"));
            assert_eq!(par.stdout, one.stdout, "{args:?} blocks of {block}");
        }
    }
}

/// A malformed row in a late block: the error names its line of the file, as one parser does,
/// and no model (nor temporary file) is written; `auc predict -o` leaves no scores file.
#[test]
fn a_parse_error_in_a_late_block_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = growing_file(dir.path(), "bin.libsvm", 3_000, "+1", "-1");
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[2_600] = format!("{} 3:x", lines[2_600]);
    let bad = write(dir.path(), "bad.libsvm", &(lines.join("\n") + "\n"));
    let out = dir.path().join("m.auc");
    let m = dir.path().join("good.auc");
    ok(
        &auc(&[
            "train",
            "--algo",
            "pa-i",
            file.to_str().unwrap(),
            "-o",
            m.to_str().unwrap(),
        ]),
        "train",
    );
    for extra in [&[][..], &["--scale", "none"][..]] {
        let mut args = vec!["train", "--algo", "pa-i", bad.to_str().unwrap()];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["-o", out.to_str().unwrap()]);
        let one = auc_blocks(&args, None);
        assert_eq!(one.status.code(), Some(2), "{}", stderr(&one));
        assert!(
            stderr(&one).contains("bad.libsvm:2601:"),
            "{}",
            stderr(&one)
        );
        for block in [1_000, 7_777] {
            let par = auc_blocks(&args, Some(block));
            assert_eq!(par.status.code(), Some(2), "{}", stderr(&par));
            assert_eq!(stderr(&par), stderr(&one), "{extra:?} blocks of {block}");
            assert!(!out.exists());
        }
    }
    let scores = dir.path().join("s.txt");
    let args = [
        "predict",
        "-m",
        m.to_str().unwrap(),
        bad.to_str().unwrap(),
        "-o",
        scores.to_str().unwrap(),
    ];
    let par = auc_blocks(&args, Some(1_000));
    assert_eq!(par.status.code(), Some(2));
    assert!(
        stderr(&par).contains("bad.libsvm:2601:"),
        "{}",
        stderr(&par)
    );
    assert!(!scores.exists());
    no_temp_files(dir.path());
}

/// `auc stream --window N`: the AUC of the last N prequential scores. A window as long as the
/// stream gives the AUC of every score; the last point of a shorter one is the AUC of the last N
/// scores of a PA-I stepped through heart by hand; an impossible window is refused up front.
#[test]
fn stream_window_is_the_auc_of_the_last_scores() {
    let last = |args: &[&str]| -> f64 {
        let o = auc(args);
        ok(&o, "stream");
        let out = stdout(&o);
        let line = out
            .lines()
            .rfind(|l| l.contains("\"auc\""))
            .unwrap()
            .to_owned();
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        v["auc"].as_f64().unwrap()
    };
    let h = heart();
    let base = ["stream", "--algo", "pa-i", "--scale", "none", "--json", &h];
    let all = last(&base);
    let long = last(&[&base[..], &["--window", "1000"]].concat());
    assert!((all - long).abs() < 1e-15, "{all} vs {long}");
    let short = last(&[&base[..], &["--window", "100"]].concat());
    // The same pass by hand.
    let (scores, labels) = common::prequential_pa_i(&h, 13);
    let n = scores.len();
    let want = auc_eval::metrics::auc(&scores[n - 100..], &labels[n - 100..]).unwrap();
    assert!((short - want).abs() < 1e-12, "{short} vs {want}");
    assert!((short - all).abs() > 1e-6, "the window changed nothing");
    check_fails(
        &[
            "stream",
            "--algo",
            "pa-i",
            "--window",
            "18446744073709551615",
            "--max-memory",
            "1G",
            &h,
        ],
        "a --window of",
    );
}

/// A named pipe (or a process substitution, `<(zcat f.gz)`) is read once like standard input:
/// the model equals the one trained from standard input. (Before, the check for a moment file
/// peeked at the pipe's first 8 bytes and the learning pass started in the middle of its first
/// line.)
#[cfg(unix)]
#[test]
fn a_named_pipe_trains_the_model_standard_input_trains() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    let fifo = dir.path().join("in.pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (p, bytes) = (fifo.clone(), data.clone());
    let writer = std::thread::spawn(move || {
        let _ = std::fs::write(&p, bytes);
    });
    let (a, b) = (dir.path().join("pipe.auc"), dir.path().join("stdin.auc"));
    let base = ["train", "--algo", "pa-i", "--scale", "none", "-o"];
    let o = auc(&[&base[..], &[a.to_str().unwrap(), fifo.to_str().unwrap()]].concat());
    writer.join().unwrap();
    ok(&o, "named pipe");
    let o = auc_with_stdin(&[&base[..], &[b.to_str().unwrap(), "-"]].concat(), &data);
    ok(&o, "standard input");
    assert_eq!(read(&a), read(&b));
}
