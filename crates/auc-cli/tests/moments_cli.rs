//! `auc moments` and moment files in `auc train`: a file split in three, summarized part by
//! part and merged, trains the model of the whole file; the pass does not depend on threads or
//! block size; errors name the file (and the line of a bad row).

#![allow(
    clippy::float_cmp,
    clippy::needless_range_loop,
    reason = "brute-force reference computations index by position and compare exact zeros"
)]

mod common;

use std::path::Path;

use common::{auc, check_fails, heart, stderr, stdout, write};

/// The names of the algorithms fitted from moments, from `auc algos --json`.
fn moment_algos() -> Vec<String> {
    let o = auc(&["algos", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter(|a| a["from_moments"] == true)
        .map(|a| a["name"].as_str().unwrap().to_owned())
        .collect()
}

fn scores(model: &Path, data: &str) -> Vec<f64> {
    let o = auc(&["predict", "-m", model.to_str().unwrap(), data]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(|l| l.parse().unwrap()).collect()
}

fn close(a: &[f64], b: &[f64], rel: f64) {
    assert_eq!(a.len(), b.len());
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= rel * scale, "{x} vs {y}");
    }
}

#[test]
fn a_file_split_in_three_merges_to_the_whole() {
    let algos = moment_algos();
    assert_eq!(algos.len(), 2, "{algos:?}");
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(heart()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let parts = [&lines[..50], &lines[50..190], &lines[190..]];
    let mut moms = Vec::new();
    for (k, part) in parts.iter().enumerate() {
        let f = write(
            dir.path(),
            &format!("part{k}.svm"),
            &(part.join("\n") + "\n"),
        );
        let m = dir.path().join(format!("part{k}.mom"));
        let o = auc(&["moments", f.to_str().unwrap(), "-o", m.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(&format!("moments of {} rows", part.len())));
        moms.push(m.to_str().unwrap().to_owned());
    }
    let part2 = dir.path().join("part2.svm");
    for name in &algos {
        let whole = dir.path().join(format!("{name}-whole.auc"));
        let o = auc(&[
            "train",
            "--algo",
            name,
            &heart(),
            "-o",
            whole.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("certificate"), "{}", stderr(&o));
        let want = scores(&whole, &heart());
        // Three moment files.
        let merged = dir.path().join(format!("{name}-merged.auc"));
        let mut args = vec!["train", "--algo", name.as_str()];
        args.extend(moms.iter().map(String::as_str));
        args.extend(["-o", merged.to_str().unwrap()]);
        let o = auc(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        // Merging in another grouping changes the moments by rounding (~1e-16 relative), which
        // the solve amplifies by the condition number of lambda I + Delta Delta' + S: about
        // 3e-12 of the largest score at lambda = 2^-10 on heart (the defaults are 2^-9, 2^-10).
        close(&scores(&merged, &heart()), &want, 2e-11);
        // Two moment files and a data file together.
        let mixed = dir.path().join(format!("{name}-mixed.auc"));
        let o = auc(&[
            "train",
            "--algo",
            name,
            &moms[0],
            &moms[1],
            part2.to_str().unwrap(),
            "-o",
            mixed.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        close(&scores(&mixed, &heart()), &want, 2e-11);
        // The in-memory path (--unit-norm off, --limit past the end) fits the same model.
        let mem = dir.path().join(format!("{name}-mem.auc"));
        let o = auc(&[
            "train",
            "--algo",
            name,
            &heart(),
            "--limit",
            "1000",
            "-o",
            mem.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        close(&scores(&mem, &heart()), &want, 1e-10);
    }
}

#[test]
fn the_pass_does_not_depend_on_threads_and_barely_on_block_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    // 3000 rows, 6 features, labels 1 and 2 (2 the minority).
    for i in 0..3000u32 {
        let label = if i % 4 == 0 { 2 } else { 1 };
        let f = |k: u32| ((i * 7 + k * 13) % 101) as f64 / 10.0 + label as f64 * 0.1 * k as f64;
        text.push_str(&format!(
            "{label} 1:{} 2:{} 3:{} 4:{} 6:{}\n",
            f(1),
            f(2),
            f(3),
            f(4),
            f(6)
        ));
    }
    let data = write(dir.path(), "d.svm", &text);
    let d = data.to_str().unwrap();
    let run = |threads: &str, block: &str, out: &str| {
        let m = dir.path().join(out);
        let o = auc(&[
            "moments",
            d,
            "-o",
            m.to_str().unwrap(),
            "--threads",
            threads,
            "--block-bytes",
            block,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(m).unwrap()
    };
    let one = run("1", "4096", "a.mom");
    let two = run("2", "4096", "b.mom");
    assert_eq!(one, two, "thread count changed the moment file");
    let _ = run("2", "100000000", "c.mom");
    let algo = &moment_algos()[0];
    let model = |mom: &str| {
        let m = dir.path().join(format!("{mom}.auc"));
        let p = dir.path().join(mom);
        let o = auc(&[
            "train",
            "--algo",
            algo,
            p.to_str().unwrap(),
            "-o",
            m.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        scores(&m, d)
    };
    close(&model("a.mom"), &model("c.mom"), 1e-12);
}

#[test]
fn errors_name_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let algo = &moment_algos()[0];
    let mut text = String::new();
    for i in 0..500 {
        text.push_str(&format!(
            "{} 1:{i} 2:0.5\n",
            if i % 2 == 0 { 1 } else { -1 }
        ));
    }
    text.push_str("1 1:0.5 2:abc\n");
    let bad = write(dir.path(), "bad.svm", &text);
    let out = dir.path().join("x.mom");
    check_fails(
        &[
            "moments",
            bad.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--block-bytes",
            "1000",
        ],
        "bad.svm:501:",
    );
    let damaged = dir.path().join("damaged.mom");
    let good = write(dir.path(), "good.svm", "1 1:1\n-1 1:2\n1 1:0.5\n");
    let o = auc(&[
        "moments",
        good.to_str().unwrap(),
        "-o",
        damaged.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut bytes = std::fs::read(&damaged).unwrap();
    let k = bytes.len() / 2;
    bytes[k] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    check_fails(
        &["train", "--algo", algo, damaged.to_str().unwrap(), "-o", m],
        "damaged.mom: moment file checksum does not match",
    );
    bytes[8] = 9;
    std::fs::write(&damaged, &bytes).unwrap();
    check_fails(
        &["train", "--algo", algo, damaged.to_str().unwrap(), "-o", m],
        "damaged.mom: moment file format version 9",
    );
    // Moment files where the rows themselves are needed.
    let mom = dir.path().join("good.mom");
    let o = auc(&[
        "moments",
        good.to_str().unwrap(),
        "-o",
        mom.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_fails(
        &[
            "train",
            "--algo",
            algo,
            mom.to_str().unwrap(),
            "--tune",
            "-o",
            m,
        ],
        "good.mom is a moment file; --tune",
    );
    check_fails(
        &["train", "--algo", "opauc", mom.to_str().unwrap(), "-o", m],
        "not fitted from class moments",
    );
    // Parts read with different hashing do not merge.
    let hashed = dir.path().join("h.mom");
    let o = auc(&[
        "moments",
        good.to_str().unwrap(),
        "--hash-bits",
        "4",
        "-o",
        hashed.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    check_fails(
        &[
            "train",
            "--algo",
            algo,
            mom.to_str().unwrap(),
            hashed.to_str().unwrap(),
            "-o",
            m,
        ],
        "h.mom: cannot merge moments",
    );
}

/// The moment learners whose solver is iterative (a `max_steps` parameter), from `auc algos
/// --json`.
fn iterative_moment_algos() -> Vec<String> {
    let o = auc(&["algos", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .filter(|a| {
            a["from_moments"] == true
                && a["params"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|p| p["name"] == "max_steps")
        })
        .map(|a| a["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The one JSON line of `auc train --json`.
fn train_json(args: &[&str]) -> (serde_json::Value, String) {
    let o = auc(args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = serde_json::from_str(stdout(&o).trim()).unwrap();
    (v, stderr(&o))
}

#[test]
fn tiny_separable_data_converge_and_a_capped_solver_says_it_did_not() {
    // Six rows, two features, separable with a feature constant within each class: the psi_M
    // minimizer sits on its kink, where the Newton solver used to stop at its 100-step cap with
    // ||w - w*|| <= 1.7 certified and exit 0 without a word.
    let algos = iterative_moment_algos();
    assert_eq!(algos.len(), 1, "{algos:?}");
    let dir = tempfile::tempdir().unwrap();
    let sets = [
        "+1 1:1 2:0.5\n+1 1:1 2:0.7\n+1 1:1 2:0.1\n-1 1:0 2:0.3\n-1 1:0 2:0.9\n-1 1:0 2:0.2\n",
        "+1 1:5 2:1\n+1 1:6 2:2\n+1 1:7 2:3\n-1 1:1 2:1\n-1 1:2 2:2\n-1 1:3 2:3\n",
    ];
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    for (k, text) in sets.iter().enumerate() {
        let f = write(dir.path(), &format!("tiny{k}.svm"), text);
        let f = f.to_str().unwrap();
        for algo in &algos {
            let (v, err) = train_json(&["train", "--algo", algo, f, "-o", m, "--json"]);
            assert_eq!(v["converged"], true, "{v}\n{err}");
            assert_eq!(v["certificate"]["converged"], true, "{v}");
            assert!(
                v["certificate"]["distance_bound"].as_f64().unwrap() <= 1e-6,
                "{v}"
            );
            assert!(!err.contains("warning"), "{err}");
            // The model file keeps the certificate.
            let o = auc(&["model", m, "--json"]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert!(stdout(&o).contains("\"converged\":true"), "{}", stdout(&o));
        }
    }
    // A cap of one step on data whose minimizer is off the kink: a warning naming the
    // algorithm, the steps and the certified distance, and `converged: false` in the JSON.
    for algo in &algos {
        let (v, err) = train_json(&[
            "train",
            "--algo",
            algo,
            &heart(),
            "--max-steps",
            "1",
            "-o",
            m,
            "--json",
        ]);
        assert_eq!(v["converged"], false, "{v}");
        assert_eq!(v["certificate"]["solver_steps"], 1, "{v}");
        assert!(
            err.contains(&format!("warning: {algo} stopped after 1 solver steps"))
                && err.contains("||w - w*|| <="),
            "{err}"
        );
        // Without the cap: converged, no warning.
        let (v, err) = train_json(&["train", "--algo", algo, &heart(), "-o", m, "--json"]);
        assert_eq!(v["converged"], true, "{v}");
        assert!(!err.contains("warning"), "{err}");
    }
}

/// A sparse LIBSVM file of `n` rows over `p` features, `k` non-zeros a row, positives one in
/// four with a few informative features.
fn wide_file(dir: &Path, n: usize, p: usize, k: usize) -> std::path::PathBuf {
    let mut text = String::new();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..n {
        let pos = i % 4 == 0;
        let mut idx: Vec<u64> = (0..k).map(|_| next() % p as u64 + 1).collect();
        if pos {
            idx.push(1 + (next() % 10));
        }
        idx.sort_unstable();
        idx.dedup();
        text.push_str(if pos { "+1" } else { "-1" });
        for j in idx {
            text.push_str(&format!(" {j}:1"));
        }
        text.push('\n');
    }
    write(dir, "wide.svm", &text)
}

#[test]
fn opauc_batch_by_conjugate_gradients_fits_what_the_moment_pass_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let data = wide_file(dir.path(), 400, 3000, 8);
    let d = data.to_str().unwrap();
    let (dense, cg) = (dir.path().join("dense.model"), dir.path().join("cg.model"));
    // The moment pass of 3000 features needs about 2 x 36 MB per summary: refused under
    // 40 MB with solver=cholesky, and the refusal names the way out.
    check_fails(
        &[
            "train",
            "--algo",
            "opauc-batch",
            "--param",
            "solver=cholesky",
            "--max-memory",
            "40M",
            d,
            "-o",
            dense.to_str().unwrap(),
        ],
        "add --param solver=cg",
    );
    assert!(!dense.exists());
    // solver=auto (the default) falls back to conjugate gradients over the rows and says so;
    // solver=cg goes there directly. Both fit the same model.
    let auto = dir.path().join("auto.model");
    let o = auc(&[
        "train",
        "--algo",
        "opauc-batch",
        "--max-memory",
        "40M",
        d,
        "-o",
        auto.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("fitting opauc-batch by conjugate gradients over the rows"),
        "{}",
        stderr(&o)
    );
    let o = auc(&[
        "train",
        "--algo",
        "opauc-batch",
        "--param",
        "solver=cg",
        "--max-memory",
        "40M",
        d,
        "-o",
        cg.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("solver=cg"), "{}", stderr(&o));
    assert_eq!(scores(&auto, d), scores(&cg, d));
    // The dense Cholesky model of the same objective scores the same.
    let o = auc(&[
        "train",
        "--algo",
        "opauc-batch",
        "--param",
        "solver=cholesky",
        d,
        "-o",
        dense.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    close(&scores(&cg, d), &scores(&dense, d), 1e-6);
    // Conjugate gradients run over the rows, so moment files cannot join the fit.
    let m = dir.path().join("part.mom");
    assert!(
        auc(&["moments", d, "-o", m.to_str().unwrap()])
            .status
            .success()
    );
    check_fails(
        &[
            "train",
            "--algo",
            "opauc-batch",
            "--param",
            "solver=cg",
            m.to_str().unwrap(),
            "-o",
            cg.to_str().unwrap(),
        ],
        "is a moment file",
    );
}

/// A one-pass moment learner whose exact state would not fit `--max-memory` takes `sketch=32`
/// by itself (said on stderr) in `auc train` and `auc stream`, scores like any model, and an
/// explicit `sketch=0` is refused with the advice to sketch.
#[test]
fn one_pass_moment_learners_sketch_when_the_exact_state_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    // 6000 features: two packed triangles are about 288 MB; a rank-32 sketch, counted with
    // its worst-case buffers and the copies of saving, under 200 MB.
    let data = wide_file(dir.path(), 400, 6000, 8);
    let d = data.to_str().unwrap();
    let model = dir.path().join("m.auc");
    let m = model.to_str().unwrap();
    for algo in ["opauc", "admoam"] {
        let o = auc(&["train", "--algo", algo, "--max-memory", "200M", d, "-o", m]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("using --param sketch=32"),
            "{}",
            stderr(&o)
        );
        assert!(
            stderr(&o).contains("sketch=32) on 400 examples"),
            "{}",
            stderr(&o)
        );
        let p = auc(&["predict", "-m", m, d]);
        assert!(p.status.success(), "{}", stderr(&p));
        let scores: Vec<f64> = stdout(&p).lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(scores.len(), 400);
        assert!(scores.iter().all(|s| s.is_finite()));
        std::fs::remove_file(&model).unwrap();
    }
    let o = auc(&["stream", "--algo", "oauc-m", "--max-memory", "200M", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("using --param sketch=32"),
        "{}",
        stderr(&o)
    );
    check_fails(
        &[
            "train",
            "--algo",
            "opauc",
            "--param",
            "sketch=0",
            "--max-memory",
            "200M",
            d,
            "-o",
            m,
        ],
        "--param sketch=K",
    );
    assert!(!model.exists());
}
