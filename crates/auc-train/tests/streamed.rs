//! The library's routes against each other, called directly (the `auc` process runs the same
//! checks end to end in `crates/auc-cli/tests/streaming.rs`): on the same rows, order and
//! preparation, a one-pass learner trained in memory, streamed from a file read twice and
//! streamed from input read once (a named pipe, as standard input) writes the same model file,
//! byte for byte; the shuffle buffer is seeded and bounded; parallel blocks train the model of
//! one parser; `score_file` scores as the model scores the rows in memory.

use std::path::{Path, PathBuf};

use auc_core::{Dataset, ParamMap};
use auc_data::{Layout, Positive, ReadOptions, Scaling};
use auc_learners::{ALL, Algorithm, Model};
use auc_prep::{PrepSpec, ScaleFrom, ScaleSource, TransformSpec};
use auc_stream::{Progress, Report};
use auc_train::{
    Input, Learner, Options, Order, Route, ScoreOptions, ShuffleSpec, Silent, TrainOutcome,
    TrainRequest, score_file,
};

/// `algo` trained on `paths` with its defaults as `spec` and `opts` ask, through the one
/// route function.
fn train_file(
    algo: &'static Algorithm,
    given: &ParamMap,
    paths: &[PathBuf],
    spec: &PrepSpec,
    opts: &Options,
    report: &dyn Report,
) -> Result<TrainOutcome, auc_train::Error> {
    auc_train::train(
        TrainRequest {
            params: given.clone(),
            options: opts.clone(),
            ..TrainRequest::new(
                Learner::Named(algo),
                spec.clone(),
                Input::Files(paths.to_vec()),
            )
        },
        report,
    )
}

/// The bundled data set (270 rows, 13 features, labels -1/+1).
fn heart() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/heart.libsvm")
}

/// The one-pass learners of the registry.
fn one_pass() -> Vec<&'static Algorithm> {
    let out: Vec<_> = ALL.iter().filter(|a| a.is_online()).collect();
    assert!(out.len() >= 13, "{}", out.len());
    out
}

/// What was asked of the preparation: `scaling`, the default positive rule, a fixed `dim`,
/// `--scale-from` a model.
fn spec(scaling: Scaling, dim: Option<usize>, scale_from: Option<&Model>) -> PrepSpec {
    let read = ReadOptions {
        dim,
        ..ReadOptions::default()
    };
    let transform = TransformSpec {
        scaling,
        ..TransformSpec::default()
    };
    let scale_from = scale_from.map(|m| ScaleFrom {
        origin: "mem.auc".to_owned(),
        source: ScaleSource::Fitted(m.preparation.scaler().clone()),
        dim: m.preparation.dim,
        hash_bits: None,
        cross_bits: None,
    });
    PrepSpec::new(read, Positive::Auto, transform, scale_from).unwrap()
}

fn options(order: Order, average: bool, threaded: bool) -> Options {
    Options {
        order,
        average,
        threaded,
        written_by: "auc-train tests".to_owned(),
        ..Options::default()
    }
}

fn train(algo: &'static Algorithm, path: &Path, spec: &PrepSpec, opts: &Options) -> TrainOutcome {
    train_file(
        algo,
        &ParamMap::new(),
        &[path.to_path_buf()],
        spec,
        opts,
        &Silent,
    )
    .unwrap_or_else(|e| panic!("{} on {}: {e}", algo.name, path.display()))
}

/// A named pipe in `dir` that a thread fills with `data`: input that can be read only once, as
/// standard input. Returns its path and the thread.
#[cfg(unix)]
fn pipe(dir: &Path, name: &str, data: &[u8]) -> (PathBuf, std::thread::JoinHandle<()>) {
    let path = dir.join(name);
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (p, data) = (path.clone(), data.to_vec());
    let writer = std::thread::spawn(move || {
        // A reader that stops early (an error) closes the pipe: a failed write is expected then.
        let _ = std::fs::write(&p, data);
    });
    (path, writer)
}

/// Ends a [`pipe`]'s writer whether or not its input was read: a reader opened without waiting
/// releases a writer still waiting for one.
#[cfg(unix)]
fn close(path: &Path, writer: std::thread::JoinHandle<()>) {
    use std::os::unix::fs::OpenOptionsExt;
    const O_NONBLOCK: i32 = 0o4000; // Linux's value; the test runs where mkfifo does.
    let unblock = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path);
    writer.join().expect("the writer ends");
    drop(unblock);
}

/// Trains on a named pipe fed with `data`.
#[cfg(unix)]
fn train_piped(
    dir: &Path,
    algo: &'static Algorithm,
    data: &[u8],
    spec: &PrepSpec,
    opts: &Options,
) -> TrainOutcome {
    let (path, writer) = pipe(dir, &format!("{}-{}.pipe", algo.name, rand_name()), data);
    let trained = train(algo, &path, spec, opts);
    close(&path, writer);
    trained
}

/// A name no other pipe of this process has.
fn rand_name() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// For every one-pass learner (averaged too, for linear ones): the model trained in memory
/// (`Order::Full`), streamed from the file (a shuffle buffer holding the whole file gives the
/// same permutation) and streamed from input read once with the file's scaling (`--scale-from`
/// the in-memory model) are the same bytes; so are the unscaled models in file order from the
/// file (a first pass finds the dimension) and from the pipe (which starts at `dim` 13).
#[cfg(unix)]
#[test]
fn streamed_models_equal_in_memory_models_for_every_one_pass_learner() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    let auto = spec(Scaling::Auto, None, None);
    let mut checked = 0;
    for algo in one_pass() {
        let averages: &[bool] = if algo.family == auc_core::Family::Linear {
            &[false, true]
        } else {
            &[false]
        };
        for &average in averages {
            let what = format!("{} (average {average})", algo.name);
            let full = options(Order::Full { seed: 7 }, average, true);
            let buffer = options(
                Order::Buffer(ShuffleSpec {
                    seed: 7,
                    rows: 10_000,
                }),
                average,
                true,
            );
            let mem = train(algo, &heart(), &auto, &full);
            assert_eq!(mem.route, Route::InMemory, "{what}");
            let file = train(algo, &heart(), &auto, &buffer);
            assert_eq!(file.route, Route::Streamed, "{what}");
            assert!(
                mem.model.to_bytes() == file.model.to_bytes(),
                "{what}: file streamed"
            );
            let from = spec(Scaling::Auto, None, Some(&mem.model));
            let piped = train_piped(dir.path(), algo, &data, &from, &buffer);
            assert!(
                mem.model.to_bytes() == piped.model.to_bytes(),
                "{what}: input read once"
            );
            let in_order = options(Order::File, average, true);
            let plain = train(algo, &heart(), &spec(Scaling::None, None, None), &in_order);
            let plain_piped = train_piped(
                dir.path(),
                algo,
                &data,
                &spec(Scaling::None, Some(13), None),
                &in_order,
            );
            assert!(
                plain.model.to_bytes() == plain_piped.model.to_bytes(),
                "{what}: unscaled"
            );
            checked += 1;
        }
    }
    assert!(checked >= 13 + 9, "only {checked} runs");
}

/// The scores of `model` on `path`, by `score_file`.
fn scores_of(model: &Model, path: &Path) -> Vec<f64> {
    let mut out = Vec::new();
    let scored = score_file(model, path, &ScoreOptions::default(), &Silent, |c| {
        out.extend_from_slice(c.scores);
        Ok(())
    })
    .unwrap();
    assert_eq!(scored.done.rows, out.len() as u64);
    out
}

/// Input read once without a fixed dimension starts small and grows when a larger index
/// appears: its scores equal those of a run that knew the dimension (bit for bit for learners
/// touching only stored entries, to rounding for the moment learners, whose lane-wise sums group
/// by the vector length), and its model records the same dimension and counts.
#[cfg(unix)]
#[test]
fn a_growing_dimension_scores_like_a_known_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = std::fs::read(heart()).unwrap();
    let none = spec(Scaling::None, None, None);
    let opts = options(Order::File, false, true);
    for algo in one_pass() {
        let known = train(algo, &heart(), &none, &opts);
        let grown = train_piped(dir.path(), algo, &data, &none, &opts);
        let (a, b) = (
            scores_of(&known.model, &heart()),
            scores_of(&grown.model, &heart()),
        );
        assert_eq!(a.len(), 270);
        let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
        for (u, v) in a.iter().zip(&b) {
            // Rounding of sums grouped by another vector length, relative to the largest score.
            assert!(
                (u - v).abs() <= 1e-9 * scale,
                "{}: {u} known, {v} grown",
                algo.name
            );
        }
        assert_eq!(grown.model.preparation.dim, 13, "{}", algo.name);
        let counts = |m: &Model| {
            let t = &m.training;
            (t.examples, t.positives, t.negatives)
        };
        assert_eq!(counts(&grown.model), counts(&known.model), "{}", algo.name);
    }
}

/// The shuffle buffer draws from its seed: a buffer smaller than the input gives another order
/// (so another model), the same again from the same seed; a buffer holding the input gives the
/// full permutation of the in-memory route.
#[test]
fn the_shuffle_buffer_is_seeded_and_bounded() {
    let pa_i = auc_learners::lookup("pa-i").unwrap();
    let auto = spec(Scaling::Auto, None, None);
    let model = |order: Order| train(pa_i, &heart(), &auto, &options(order, false, true));
    let buffer = |rows| Order::Buffer(ShuffleSpec { seed: 3, rows });
    let small = model(buffer(20));
    assert_eq!(small.route, Route::Streamed);
    let again = model(buffer(20));
    let full = model(Order::Full { seed: 3 });
    let big = model(buffer(270));
    assert!(small.model.to_bytes() == again.model.to_bytes());
    assert!(small.model.to_bytes() != full.model.to_bytes());
    assert!(big.model.to_bytes() == full.model.to_bytes());
}

/// A plain LIBSVM file of `rows` rows whose dimension grows as it is read (indices up to
/// `5 + i / every` at row `i`), an index written with a zero value past a row's last feature
/// every 97 rows (it counts for the dimension, not for the stored rows), labels `pos` one row
/// in five and `neg` otherwise.
fn growing_file(dir: &Path, name: &str, rows: usize, every: usize, labels: [&str; 2]) -> PathBuf {
    let [pos, neg] = labels;
    let mut text = String::new();
    for i in 0..rows {
        text.push_str(if i % 5 == 0 { pos } else { neg });
        let mut row = std::collections::BTreeMap::new();
        for j in 0..(1 + i % 7) {
            let idx = 1 + (i * 31 + j * 17) % (5 + i / every);
            row.insert(idx, ((i * 13 + j) % 23) as f64 / 4.0 - 2.5);
        }
        for (idx, v) in row {
            text.push_str(&format!(" {idx}:{v}"));
        }
        if i % 97 == 5 {
            text.push_str(&format!(" {}:0", 6 + 2 * i / every));
        }
        text.push('\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A file of about 2.7 MB (three blocks of the parallel learning pass, its dimension growing
/// in every block) trains, in parallel
/// blocks, the model one parser trains, byte for byte: OAUC-M (whose sums depend on its
/// dimension) and PA-I, scaled (a first pass fixes the dimension) and unscaled (the file read
/// once, the learner grown where one parser's chunks grow it), in file order and through the
/// shuffle buffer; and a file whose third label makes the pass start over after a first pass.
#[test]
fn parallel_blocks_train_the_models_of_one_parser() {
    let dir = tempfile::tempdir().unwrap();
    let binary = growing_file(dir.path(), "bin.libsvm", 90_000, 1_500, ["+1", "-1"]);
    assert!(std::fs::metadata(&binary).unwrap().len() > 2 << 20);
    let three = growing_file(dir.path(), "three.libsvm", 3_000, 40, ["2", "-1"]);
    let buffer = Order::Buffer(ShuffleSpec { seed: 5, rows: 300 });
    let mut checked = 0;
    for name in ["oauc-m", "pa-i"] {
        let algo = auc_learners::lookup(name).unwrap();
        for file in [&binary, &three] {
            for scaling in [Scaling::Auto, Scaling::None] {
                for order in [Order::File, buffer] {
                    let what = format!("{name} {} {scaling:?} {order:?}", file.display());
                    let s = spec(scaling, None, None);
                    let one = train(algo, file, &s, &options(order, false, false));
                    let par = train(algo, file, &s, &options(order, false, true));
                    assert_eq!(par.route, Route::Streamed, "{what}");
                    assert!(par.model.to_bytes() == one.model.to_bytes(), "{what}");
                    checked += 1;
                }
            }
        }
        // The third label: the minority class (2) is positive, as a first pass chooses it.
        let m = train(
            algo,
            &three,
            &spec(Scaling::None, None, None),
            &options(Order::File, false, true),
        );
        assert_eq!(m.model.preparation.positive_labels, vec![2.0], "{name}");
    }
    assert_eq!(checked, 16);
}

/// Counts the passes a training run makes over its input (each asks for a progress display).
#[derive(Default)]
struct Passes(std::sync::atomic::AtomicUsize);

impl Report for Passes {
    fn pass(&self) -> Box<dyn Progress + '_> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Box::new(Silent)
    }
}

/// A sparse file of `rows` rows whose features keep one magnitude each (two in three are
/// indicators of magnitude 1, the others 0.5 to 2.5, signs mixed) and whose dimension grows as
/// it is read, labels +1 one row in five; with `larger`, one value two thirds of the way down is
/// twice its feature's magnitude.
fn magnitudes_file(dir: &Path, name: &str, rows: usize, larger: bool) -> PathBuf {
    let magnitude = |j: usize| {
        if j % 3 == 0 {
            0.5 * (1 + j % 5) as f64
        } else {
            1.0
        }
    };
    let mut text = String::new();
    for i in 0..rows {
        text.push_str(if i % 5 == 0 { "+1" } else { "-1" });
        let mut row = std::collections::BTreeMap::new();
        for j in 0..(2 + i % 5) {
            let idx = 1 + (i * 31 + j * 17) % (8 + i / 4);
            let sign = if (i + j) % 3 == 0 { -1.0 } else { 1.0 };
            row.insert(idx, sign * magnitude(idx));
        }
        if larger && i == 2 * rows / 3 {
            let (&idx, v) = row.iter_mut().next().unwrap();
            *v = 2.0 * magnitude(idx);
        }
        for (idx, v) in row {
            text.push_str(&format!(" {idx}:{v}"));
        }
        text.push('\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The default (auto, here max-abs) scaling of a sparse file is fitted at first sight by the
/// learning pass itself when every feature's first non-zero has its largest magnitude: the file
/// is read once, and the model is the one of the scaling fitted on all rows, byte for byte
/// (against the in-memory route, which starts at the full dimension; in file order, against
/// input read once with that scaling given). A value larger than its feature's first one
/// sends the run back to a first pass (three passes in all), with the same result; learners
/// that sketch their covariances when too wide, or whose model depends on the dimension they
/// start from, always read twice.
#[cfg(unix)]
#[test]
fn max_abs_scaling_at_first_sight_reads_once_and_trains_the_two_pass_model() {
    use auc_stream::ReadOnce;
    let dir = tempfile::tempdir().unwrap();
    let sighted = magnitudes_file(dir.path(), "sighted.libsvm", 1_200, false);
    let larger = magnitudes_file(dir.path(), "larger.libsvm", 1_200, true);
    let auto = spec(Scaling::Auto, None, None);
    // SOLAM recomputes its norm on a schedule of the rows alone, so it reads once too.
    assert_eq!(
        auc_train::streamed::read_once(auc_learners::lookup("solam").unwrap()),
        ReadOnce::IfBinaryOrFirstSight
    );
    let mut checked = 0;
    for algo in one_pass() {
        let first_sight = auc_train::streamed::read_once(algo) == ReadOnce::IfBinaryOrFirstSight;
        let averages: &[bool] = if algo.family == auc_core::Family::Linear {
            &[false, true]
        } else {
            &[false]
        };
        for &average in averages {
            for (file, sight_holds) in [(&sighted, true), (&larger, false)] {
                let what = format!("{} (average {average}) on {}", algo.name, file.display());
                let full = options(Order::Full { seed: 7 }, average, true);
                let buffer = Order::Buffer(ShuffleSpec {
                    seed: 7,
                    rows: 10_000,
                });
                let mem = train(algo, file, &auto, &full);
                assert!(
                    matches!(
                        mem.model.preparation.scaler(),
                        auc_data::Scaler::MaxAbs { .. }
                    ),
                    "{what}"
                );
                let passes = Passes::default();
                let streamed = train_file(
                    algo,
                    &ParamMap::new(),
                    &[file.to_path_buf()],
                    &auto,
                    &options(buffer, average, true),
                    &passes,
                )
                .unwrap();
                assert_eq!(streamed.route, Route::Streamed, "{what}");
                assert!(mem.model.to_bytes() == streamed.model.to_bytes(), "{what}");
                let expected = match (first_sight, sight_holds) {
                    (true, true) => 1,
                    (true, false) => 3,
                    (false, _) => 2,
                };
                assert_eq!(passes.0.into_inner(), expected, "{what}: passes");
                let in_order = options(Order::File, average, true);
                let once = train(algo, file, &auto, &in_order);
                let given = spec(Scaling::Auto, None, Some(&mem.model));
                let data = std::fs::read(file).unwrap();
                let piped = train_piped(dir.path(), algo, &data, &given, &in_order);
                assert!(
                    once.model.to_bytes() == piped.model.to_bytes(),
                    "{what}: file order"
                );
                checked += first_sight as usize;
            }
        }
    }
    assert!(checked >= 34, "only {checked} runs scaled at first sight");
    // A fixed dimension, and hashed features (the scaler then covers the 2^B hashed indices).
    let hashed = {
        let read = ReadOptions {
            hash_bits: Some(9),
            ..ReadOptions::default()
        };
        PrepSpec::new(read, Positive::Auto, TransformSpec::default(), None).unwrap()
    };
    for fixed in [spec(Scaling::Auto, Some(700), None), hashed] {
        for name in ["pa-i", "bal-ftrl"] {
            let algo = auc_learners::lookup(name).unwrap();
            let full = options(Order::Full { seed: 3 }, false, true);
            let buffer = Order::Buffer(ShuffleSpec {
                seed: 3,
                rows: 10_000,
            });
            let mem = train(algo, &sighted, &fixed, &full);
            let passes = Passes::default();
            let streamed = train_file(
                algo,
                &ParamMap::new(),
                std::slice::from_ref(&sighted),
                &fixed,
                &options(buffer, false, true),
                &passes,
            )
            .unwrap();
            assert!(
                mem.model.to_bytes() == streamed.model.to_bytes(),
                "{name} {fixed:?}"
            );
            assert_eq!(passes.0.into_inner(), 1, "{name} {fixed:?}");
        }
    }
}

/// `score_file` gives the scores of the model on the file's rows prepared in memory, for a
/// one-pass and a batch model, chunk by chunk in file order; with `positive` it binarizes the
/// labels it hands on by that class; a malformed row is an error naming its line, a missing file
/// one naming the file.
#[test]
fn score_file_scores_as_the_model_scores_the_rows_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let file = growing_file(dir.path(), "s.libsvm", 3_000, 40, ["+1", "-1"]);
    let auto = spec(Scaling::Auto, None, None);
    for name in ["oauc-m", "opauc-batch"] {
        let algo = auc_learners::lookup(name).unwrap();
        let trained = train(algo, &file, &auto, &options(Order::File, false, true));
        let model = &trained.model;
        let rows: Dataset = {
            let raw = auc_train::in_memory::read_all(
                &model.preparation.read_options(),
                std::slice::from_ref(&file),
                None,
            )
            .unwrap();
            let data = raw
                .binarize_as(
                    &Positive::Known(model.preparation.positive_labels.clone()),
                    Layout::AsRead,
                )
                .unwrap();
            model
                .preparation
                .apply(&data.with_dim(model.preparation.dim))
        };
        let want = model.scores(&rows).unwrap();
        for threaded in [false, true] {
            let mut got = Vec::new();
            let mut before = 0;
            let options = ScoreOptions {
                threaded,
                ..ScoreOptions::default()
            };
            let scored = score_file(model, &file, &options, &Silent, |c| {
                assert_eq!(c.before, before, "chunks in file order");
                before += c.scores.len() as u64;
                assert_eq!(c.scores.len(), c.labels.len());
                got.extend_from_slice(c.scores);
                Ok(())
            })
            .unwrap();
            assert_eq!(scored.done.rows, 3_000);
            assert_eq!(scored.positive, model.preparation.positive_labels);
            assert!(got == want, "{name}, threaded {threaded}");
        }
        // The labels binarized by another class: -1 is positive.
        let mut positives = 0;
        let options = ScoreOptions {
            positive: Some(vec!["-1".to_owned()]),
            ..ScoreOptions::default()
        };
        let scored = score_file(model, &file, &options, &Silent, |c| {
            positives += c.labels.iter().filter(|l| l.is_pos()).count();
            Ok(())
        })
        .unwrap();
        assert_eq!(scored.positive, vec![-1.0]);
        assert_eq!(positives, 2_400);
    }
    let pa_i = auc_learners::lookup("pa-i").unwrap();
    let model = train(pa_i, &file, &auto, &options(Order::File, false, true)).model;
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1_999] = "+1 1:abc";
    let bad = dir.path().join("bad.libsvm");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let err = score_file(&model, &bad, &ScoreOptions::default(), &Silent, |_| Ok(()))
        .err()
        .expect("a malformed row fails")
        .to_string();
    assert!(err.contains("bad.libsvm:2000:"), "{err}");
    let missing = dir.path().join("missing.libsvm");
    let err = score_file(&model, &missing, &ScoreOptions::default(), &Silent, |_| {
        Ok(())
    })
    .err()
    .expect("a missing file fails")
    .to_string();
    assert!(err.contains("missing.libsvm"), "{err}");
}

/// A learner fitted from class moments takes the moment pass, and its model scores as the
/// same learner fitted on the rows in memory (a row limit routes it there) up to the rounding
/// of the moments' sums.
#[test]
fn a_moment_learner_takes_the_moment_pass() {
    let algo = auc_learners::lookup("opauc-batch").unwrap();
    let opts = options(Order::File, false, true);
    let by_moments = train(algo, &heart(), &spec(Scaling::Auto, None, None), &opts);
    assert_eq!(by_moments.route, Route::Moments);
    let mut limited = spec(Scaling::Auto, None, None);
    limited.read.limit = Some(1_000_000);
    let in_memory = train(algo, &heart(), &limited, &opts);
    assert_eq!(in_memory.route, Route::InMemory);
    let (a, b) = (
        scores_of(&by_moments.model, &heart()),
        scores_of(&in_memory.model, &heart()),
    );
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (u, v) in a.iter().zip(&b) {
        // Moments merged blockwise against sums over the rows: rounding of a few ulps,
        // amplified by the solve; 1e-9 of the largest score leaves room for it.
        assert!((u - v).abs() <= 1e-9 * scale, "{u} against {v}");
    }
    assert_eq!(by_moments.model.training.written_by, "auc-train tests");
}

/// The library's public types cross threads (a front end trains on a worker thread).
#[test]
fn public_types_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Options>();
    send_sync::<Order>();
    send_sync::<ScoreOptions>();
    send_sync::<TrainOutcome>();
    send_sync::<auc_train::streamed::Streamed>();
}
