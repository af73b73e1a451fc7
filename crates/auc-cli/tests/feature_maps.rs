//! `--features` through the commands (conventions section 9): the map is fitted on training
//! rows only, stored in the model and applied by predict; a streamed pass (its sample drawn by
//! the first pass, in parallel blocks or by one parser) trains the model an in-memory pass
//! would; input that cannot give a sample before learning is refused with the way out.

mod common;

use std::path::Path;

use common::{auc, auc_with_stdin, heart, stderr, stdout};

fn ok(o: &std::process::Output, what: &str) {
    assert!(o.status.success(), "{what}: {}", stderr(o));
}

/// A two-ring problem no linear scorer ranks (positives inside radius 1, negatives outside),
/// 600 rows in 2 features.
fn rings(dir: &Path) -> std::path::PathBuf {
    let mut text = String::new();
    for i in 0..600 {
        let t = i as f64 * 0.731;
        let r = if i % 3 == 0 {
            0.5 + (i % 7) as f64 * 0.05
        } else {
            1.4 + (i % 11) as f64 * 0.05
        };
        let label = if i % 3 == 0 { "+1" } else { "-1" };
        text.push_str(&format!("{label} 1:{} 2:{}\n", r * t.cos(), r * t.sin()));
    }
    common::write(dir, "rings.libsvm", &text)
}

#[test]
fn every_map_makes_the_rings_rankable_and_predict_applies_the_stored_map() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let d = data.to_str().unwrap();
    let linear = dir.path().join("linear.auc");
    let o = auc(&[
        "train",
        "--algo",
        "opauc-batch",
        d,
        "-o",
        linear.to_str().unwrap(),
    ]);
    ok(&o, "linear");
    let o = auc(&["predict", "--model", linear.to_str().unwrap(), d]);
    let linear_auc: f64 = auc_of(&stderr(&o));
    assert!(
        linear_auc < 0.75,
        "the rings are not linearly rankable: {linear_auc}"
    );
    for map in ["nystroem:60", "rff:300", "elm:300"] {
        for algo in ["opauc-batch", "oauc-m", "pa-i"] {
            let what = format!("{algo} {map}");
            let model = dir.path().join("m.auc");
            let o = auc(&[
                "train",
                "--algo",
                algo,
                "--features",
                map,
                "--feature-sigma",
                "1",
                d,
                "-o",
                model.to_str().unwrap(),
            ]);
            ok(&o, &what);
            let o = auc(&["predict", "--model", model.to_str().unwrap(), d]);
            ok(&o, &what);
            let mapped = auc_of(&stderr(&o));
            if map != "elm:300" {
                assert!(mapped > 0.95, "{what}: training AUC {mapped}");
            }
            assert!(
                mapped > linear_auc,
                "{what}: {mapped} vs linear {linear_auc}"
            );
            let info = stdout(&auc(&["model", model.to_str().unwrap()]));
            assert!(
                info.contains(map.split(':').next().unwrap()),
                "{what}: {info}"
            );
        }
    }
}

fn auc_of(stderr: &str) -> f64 {
    let at = stderr.find("AUC ").expect("an AUC line") + 4;
    stderr[at..]
        .split(|c: char| c == ',' || c.is_whitespace())
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

/// The first pass draws the map's sample by content, so a file read in parallel blocks of any
/// size, by one parser, or gzip-compressed trains the same model, byte for byte; and a one-pass
/// learner's streamed model scores a file as its in-memory `--shuffle-full` twin's map does
/// (the same map: the scores of `opauc-batch`, fitted in memory, come from the same sample).
#[test]
fn a_streamed_map_is_the_in_memory_map() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let d = data.to_str().unwrap();
    for map in ["nystroem:40", "rff:64"] {
        let model = |env: Option<&str>, name: &str| {
            let out = dir.path().join(name);
            let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_auc"));
            c.args(["train", "--algo", "pa-i", "--features", map, d, "-o"]);
            c.arg(&out);
            match env {
                Some(b) => {
                    c.env("AUC_BLOCK_BYTES", b);
                }
                None => {
                    c.arg("--one-thread");
                }
            }
            let o = c.output().unwrap();
            ok(&o, map);
            std::fs::read(out).unwrap()
        };
        let one = model(None, "one.auc");
        for b in ["500", "3333", "1048576"] {
            assert!(
                model(Some(b), "par.auc") == one,
                "{map}: blocks of {b} bytes"
            );
        }
    }
    // In memory (a batch learner) and streamed (a one-pass learner) fit the same map: the map's
    // description (kind, size, sigma to 6 decimals) is the same in both models.
    let describe = |algo: &str| {
        let out = dir.path().join(format!("{algo}.auc"));
        ok(
            &auc(&[
                "train",
                "--algo",
                algo,
                "--features",
                "nystroem:40",
                d,
                "-o",
                out.to_str().unwrap(),
            ]),
            algo,
        );
        let info = stdout(&auc(&["model", out.to_str().unwrap()]));
        info.lines()
            .find(|l| l.starts_with("stages"))
            .unwrap()
            .to_owned()
    };
    assert_eq!(describe("pa-i"), describe("opauc-batch"));
}

#[test]
fn a_map_on_standard_input_is_refused_with_the_way_out() {
    let o = auc_with_stdin(
        &[
            "train",
            "--algo",
            "pa-i",
            "--features",
            "rff",
            "--scale",
            "none",
            "-",
            "-o",
            "/tmp/never.auc",
        ],
        heart().as_bytes(),
    );
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("sample of the training rows") && e.contains("from a file"),
        "{e}"
    );
    assert!(!Path::new("/tmp/never.auc").exists());
}

#[test]
fn bad_map_words_are_refused_by_the_flag_parser() {
    for (args, want) in [
        (&["--features", "poly"][..], "unknown feature map"),
        (&["--features", "rff:0"][..], "whole number from 1"),
        (
            &["--features", "rff", "--feature-sigma=-1"][..],
            "positive number",
        ),
        (&["--feature-sigma", "2"][..], "--features"),
    ] {
        let mut a = vec!["train", "--algo", "pa-i"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["data.libsvm", "-o", "x.auc"]);
        let o = auc(&a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

/// cv fits the map on each training part; the scores of `auc cv` with a map are finite and
/// the rings get an AUC a linear scorer cannot reach.
#[test]
fn cv_fits_the_map_per_training_part() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let splits = dir.path().join("splits.json");
    let o = auc(&[
        "cv",
        "--algo",
        "opauc-batch",
        "--features",
        "nystroem:50",
        "--repeats",
        "1",
        "--data",
        data.to_str().unwrap(),
        "--save-splits",
        splits.to_str().unwrap(),
        "--json",
    ]);
    ok(&o, "cv");
    let out = stdout(&o);
    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert!(summary["auc_mean"].as_f64().unwrap() > 0.95, "{summary}");
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&splits).unwrap()).unwrap();
    assert_eq!(s["format"], "auc-splits-1");
    assert_eq!(s["rows"], 600);
    let tests: Vec<usize> = s["splits"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|x| {
            x["test"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
        })
        .collect();
    // One repeat of 5 folds: every row is tested exactly once.
    let mut sorted = tests.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..600).collect::<Vec<_>>());
}

fn scores_of(model: &Path, data: &str) -> Vec<f64> {
    let o = auc(&["predict", "--model", model.to_str().unwrap(), data]);
    ok(&o, "predict");
    stdout(&o)
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// A batch moment learner with a map takes the moments of mapped rows: the moment pass over
/// the file (a first pass for the scaling and the map's sample, then the mapped moments in
/// parallel blocks) fits the model the rows in memory give (`--limit` keeps them in memory);
/// parts mapped by one fitted map (`--fit-map-only`, `--map-from`) merge to the same model to
/// 1e-10; parts of different maps, or of rows as read, are refused by name.
#[test]
fn mapped_moments_merge_to_the_in_memory_fit() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let d = data.to_str().unwrap();
    let p = |name: &str| dir.path().join(name);
    let s = |name: &str| p(name).to_str().unwrap().to_owned();
    let train = |extra: &[&str], out: &str| {
        let mut a = vec![
            "train",
            "--algo",
            "opauc-batch",
            "--features",
            "nystroem:40",
        ];
        a.extend_from_slice(extra);
        a.extend_from_slice(&[d, "-o", out]);
        ok(&auc(&a), out);
    };
    train(&[], &s("pass.auc"));
    train(&["--limit", "600"], &s("memory.auc"));
    let pass = scores_of(&p("pass.auc"), d);
    let memory = scores_of(&p("memory.auc"), d);
    assert!(
        max_diff(&pass, &memory) <= 1e-10,
        "{}",
        max_diff(&pass, &memory)
    );
    // Two parts, one map.
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let half = |r: std::ops::Range<usize>| {
        lines[r]
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    std::fs::write(p("a.svm"), half(0..250)).unwrap();
    std::fs::write(p("b.svm"), half(250..600)).unwrap();
    ok(
        &auc(&[
            "moments",
            "--features",
            "nystroem:40",
            "--fit-map-only",
            d,
            "-o",
            &s("map.mom"),
        ]),
        "fit map",
    );
    for part in ["a", "b"] {
        ok(
            &auc(&[
                "moments",
                "--map-from",
                &s("map.mom"),
                &s(&format!("{part}.svm")),
                "-o",
                &s(&format!("{part}.mom")),
            ]),
            part,
        );
    }
    ok(
        &auc(&[
            "train",
            "--algo",
            "opauc-batch",
            &s("a.mom"),
            &s("b.mom"),
            "-o",
            &s("merged.auc"),
        ]),
        "merged",
    );
    let merged = scores_of(&p("merged.auc"), d);
    assert!(
        max_diff(&pass, &merged) <= 1e-10,
        "{}",
        max_diff(&pass, &merged)
    );
    // A part of another map, or of rows as read, does not merge.
    ok(
        &auc(&[
            "moments",
            "--features",
            "rff:40",
            &s("b.svm"),
            "-o",
            &s("other.mom"),
        ]),
        "other map",
    );
    ok(&auc(&["moments", &s("b.svm"), "-o", &s("raw.mom")]), "raw");
    for other in ["other.mom", "raw.mom"] {
        let o = auc(&[
            "train",
            "--algo",
            "opauc-batch",
            &s("a.mom"),
            &s(other),
            "-o",
            &s("x.auc"),
        ]);
        assert_eq!(o.status.code(), Some(2), "{other}");
        assert!(
            stderr(&o).contains("prepared differently")
                || stderr(&o).contains("different feature maps"),
            "{other}: {}",
            stderr(&o)
        );
        assert!(!p("x.auc").exists());
    }
    // --scale without a map means nothing to a moment file of rows as read.
    let o = auc(&["moments", "--scale", "maxabs", d, "-o", &s("y.mom")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!p("y.mom").exists());
}

/// `--param weight_folds=3`: the blend chooses its weight from held-out folds, says which and
/// what it saw, and the model records the parameter.
#[test]
fn a_blend_chooses_its_weight_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let d = data.to_str().unwrap();
    let m = dir.path().join("m.auc");
    let o = auc(&[
        "train",
        "--algo",
        "blend",
        "--param",
        "weight_folds=3",
        "--param",
        "landmarks=50",
        d,
        "-o",
        m.to_str().unwrap(),
    ]);
    ok(&o, "weight_folds=3");
    assert!(
        stderr(&o).contains("chosen by 3-fold held-out AUC on"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["model", "--json", m.to_str().unwrap()]))).unwrap();
    assert_eq!(v["params"]["weight_folds"], 3.0, "{v}");
    let o = auc(&[
        "train",
        "--algo",
        "blend",
        "--param",
        "weight_folds=1",
        d,
        "-o",
        m.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("weight_folds"), "{}", stderr(&o));
}

/// Without `--algo`, `auc train` and `auc cv` fit the measured default (the blend) and say so;
/// with `--features` and no `--algo`, opauc-batch on that map at lambda 2^-10, a given lambda
/// kept.
#[test]
fn no_algo_trains_the_measured_default_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let data = rings(dir.path());
    let d = data.to_str().unwrap();
    let m = dir.path().join("m.auc");
    let o = auc(&["train", d, "-o", m.to_str().unwrap()]);
    ok(&o, "no algo");
    assert!(
        stderr(&o).contains("no --algo") && stderr(&o).contains("uses blend"),
        "{}",
        stderr(&o)
    );
    // The default blend chooses its weight and says which.
    assert!(
        stderr(&o).contains("chosen by 3-fold held-out AUC"),
        "{}",
        stderr(&o)
    );
    let info = stdout(&auc(&["model", "--json", m.to_str().unwrap()]));
    let v: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!(v["algo"], "blend", "{v}");
    let o = auc(&[
        "train",
        "--features",
        "nystroem:50",
        d,
        "-o",
        m.to_str().unwrap(),
    ]);
    ok(&o, "no algo, a map");
    assert!(
        stderr(&o).contains("opauc-batch") && stderr(&o).contains("lambda=2^-10"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["model", "--json", m.to_str().unwrap()]))).unwrap();
    assert_eq!(v["algo"], "opauc-batch");
    assert_eq!(v["params"]["lambda"], 2f64.powi(-10), "{v}");
    assert!(v["stages"].as_str().unwrap().contains("nystroem:"), "{v}");
    let o = auc(&[
        "train",
        "--features",
        "rff:50",
        "--lambda",
        "0.5",
        d,
        "-o",
        m.to_str().unwrap(),
    ]);
    ok(&o, "no algo, given map");
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["model", "--json", m.to_str().unwrap()]))).unwrap();
    assert!(v["stages"].as_str().unwrap().contains("rff:50"), "{v}");
    assert_eq!(v["params"]["lambda"], 0.5, "{v}");
    let o = auc(&["cv", "--data", d, "--repeats", "1", "--json"]);
    ok(&o, "cv no algo");
    assert!(stderr(&o).contains("no --algo"));
    // Wide data (more features than the blend takes): the map learner instead, said so.
    let mut wide = String::new();
    for i in 0..60 {
        let label = if i % 3 == 0 { "+1" } else { "-1" };
        let first = if i % 3 == 0 { 1 } else { 2 };
        wide.push_str(&format!("{label} {first}:1 {}:1 5000:1\n", 100 + i * 70));
    }
    let w = common::write(dir.path(), "wide.libsvm", &wide);
    let o = auc(&["train", w.to_str().unwrap(), "-o", m.to_str().unwrap()]);
    ok(&o, "no algo, wide");
    assert!(
        stderr(&o).contains("more than the default blend takes"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&auc(&["model", "--json", m.to_str().unwrap()]))).unwrap();
    assert_eq!(v["algo"], "opauc-batch");
    let o = auc(&[
        "cv",
        "--data",
        w.to_str().unwrap(),
        "--repeats",
        "1",
        "--folds",
        "3",
    ]);
    ok(&o, "cv no algo, wide");
    assert!(
        stderr(&o).contains("more than the default blend takes")
            && stdout(&o).contains("opauc-batch on wide.libsvm"),
        "{}",
        stdout(&o)
    );
    // auc curve needs a one-pass learner: it still asks for one.
    let o = auc(&["curve", "--data", d]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--algo"), "{}", stderr(&o));
}

/// One-hot indicators and the polynomial map from the command line: rows of category codes
/// where a hand is positive when two cards share a rank are ranked through them and not
/// without them, `auc predict` applies both stored stages, and `auc cv` sizes the learner by
/// the stages' output before fitting (a dimension past `--max-memory` is refused, not
/// allocated).
#[test]
fn one_hot_and_poly2_learn_pairs_of_codes_and_cv_sizes_the_mapped_learner() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    let mut state = 7u64;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % 5 + 1
    };
    for _ in 0..900 {
        let (a, b, c) = (next(), next(), next());
        let pair = a == b || a == c || b == c;
        text.push_str(&format!(
            "{} 1:{a} 2:{b} 3:{c}\n",
            if pair { "+1" } else { "-1" }
        ));
    }
    let data = common::write(dir.path(), "hands.libsvm", &text);
    let d = data.to_str().unwrap();
    let m = dir.path().join("m.auc");
    let ms = m.to_str().unwrap();
    let train_auc = |extra: &[&str]| {
        let mut args = vec!["train", "--algo", "opauc-batch"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[d, "-o", ms]);
        ok(&auc(&args), "train");
        let o = auc(&["predict", "-m", ms, d, "--json", "-o", "-"]);
        ok(&o, "predict");
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        v["auc"].as_f64().unwrap()
    };
    let linear = train_auc(&[]);
    let both = train_auc(&["--one-hot", "--features", "poly2"]);
    assert!(
        linear < 0.7 && both > 0.99,
        "linear {linear}, one-hot + poly2 {both}"
    );
    let info = stdout(&auc(&["model", ms]));
    assert!(info.contains("one-hot") && info.contains("poly2"), "{info}");
    // Sixty four-valued codes: one-hot gives 300 features, poly2 45,450, whose dense moments
    // need gigabytes. auc cv refuses before fitting.
    let mut wide = String::new();
    for i in 0..40 {
        let row: Vec<String> = (1..=60)
            .map(|j| format!("{j}:{}", (i * j) % 4 + 1))
            .collect();
        wide.push_str(&format!(
            "{} {}\n",
            if i % 2 == 0 { "+1" } else { "-1" },
            row.join(" ")
        ));
    }
    let w = common::write(dir.path(), "codes.libsvm", &wide);
    let o = auc(&[
        "cv",
        "--algo",
        "opauc-batch",
        "--param",
        "solver=cholesky",
        "--one-hot",
        "--features",
        "poly2",
        "--max-memory",
        "1G",
        "--repeats",
        "1",
        "--data",
        w.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("needs about"), "{}", stderr(&o));
}
