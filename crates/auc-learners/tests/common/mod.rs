//! Shared by the golden-model and fuzz tests: the bundled heart data, and a model of every
//! algorithm trained on it the way `auc train` trains one with no parameter given.

#![allow(dead_code)] // Each test binary uses its own part.

use std::path::{Path, PathBuf};

use auc_core::Dataset;
use auc_data::{Positive, RawData, ReadOptions, RowStream, Scaling};
use auc_learners::{Algorithm, Model, Trainer, TrainingRecord};
use auc_prep::{Preparation, ScaleEvidence, TransformSpec};

/// The repository root.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root")
}

/// `data/heart.libsvm` as read.
pub(crate) fn heart_raw() -> RawData {
    heart_read(&ReadOptions::default())
}

/// `data/heart.libsvm` read with `opts` (hashing, crosses).
pub(crate) fn heart_read(opts: &ReadOptions) -> RawData {
    RowStream::open(&root().join("data/heart.libsvm"), opts)
        .and_then(RowStream::read_all)
        .expect("data/heart.libsvm reads")
}

/// A model of `algo` with default parameters trained on heart as `auc train --algo NAME
/// data/heart.libsvm` does (positive class by the default rule, `--scale auto`, file order,
/// seed 0).
pub(crate) fn train_default(algo: &'static Algorithm) -> Model {
    train_with(
        algo,
        &TransformSpec {
            scaling: Scaling::Auto,
            one_hot: None,
            features: None,
            unit_norm: false,
        },
    )
}

/// A model of `algo` with default parameters trained on heart through `stages` (fitted on the
/// training rows, as `auc train` fits them on rows in memory).
pub(crate) fn train_with(algo: &'static Algorithm, stages: &TransformSpec) -> Model {
    train_read(algo, stages, &ReadOptions::default())
}

/// As [`train_with`], on heart read with `opts` (hashing, crosses), which the model records.
pub(crate) fn train_read(
    algo: &'static Algorithm,
    stages: &TransformSpec,
    opts: &ReadOptions,
) -> Model {
    let raw = heart_read(opts);
    let choice = raw.choose_positive(&Positive::Auto).unwrap();
    let data = raw.binarize(&choice.known()).unwrap();
    let transform = stages.fit(ScaleEvidence::Data(&data)).unwrap();
    let preparation = Preparation::new(
        raw.reading().clone(),
        &choice,
        data.dim(),
        (opts.hash_bits, opts.cross_bits),
        transform,
    );
    let prepared = preparation.apply(&data);
    let config = algo.configure(&auc_core::ParamMap::new()).unwrap();
    let state = match config.trainer() {
        Trainer::Online(t) => {
            let mut s = t.start(prepared.dim(), 0, false).unwrap();
            let l = s.learner().unwrap();
            for (x, y) in prepared.iter() {
                l.update(x, y);
            }
            s
        }
        Trainer::Batch(b) => b.fit(&prepared, 0).unwrap().0,
    };
    let (p, n) = prepared.class_counts();
    Model {
        algorithm: algo,
        config,
        preparation,
        training: TrainingRecord {
            seed: 0,
            examples: prepared.n() as u64,
            positives: p as u64,
            negatives: n as u64,
            diverged: None,
            written_by: "auc golden".to_owned(),
        },
        state,
        calibration: None,
    }
}

/// The heart rows prepared for `model`, as `auc predict` prepares them.
pub(crate) fn heart_for(model: &Model) -> Dataset {
    let raw = heart_read(&model.preparation.read_options());
    let data = raw
        .binarize(&Positive::Known(model.preparation.positive_labels.clone()))
        .unwrap();
    model.preparation.apply(&data)
}
