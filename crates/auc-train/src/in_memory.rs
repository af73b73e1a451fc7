//! The route with the input in memory: what a batch learner, a full permutation
//! (`--shuffle-full`) or a cross-validation on the rows needs. The rows are read, binarized and
//! prepared exactly as a stream prepares them chunk by chunk ([`load_training`]), so one-pass
//! learners train the same model either way; [`fit`] trains on them.

use std::path::PathBuf;

use auc_core::{Dataset, OnlineLearner};
use auc_data::{Layout, RawData, ReadOptions, RowStream, Scaler};
use auc_learners::{Configured, Trained, Trainer};
use auc_prep::{PrepSpec, ScaleEvidence};
use auc_stream::memory::{self, Bytes};
use auc_stream::{Observer, Progress, Report};

use crate::Error;

/// Reads `paths` with `opts` and concatenates them, keeping at most `limit` rows; a CSV file
/// whose columns differ from the first file's is an error naming the column. Whether LIBSVM
/// indices are 0-based is decided for all the files together
/// ([`ReadOptions::zero_based_for`]).
pub fn read_all(
    opts: &ReadOptions,
    paths: &[PathBuf],
    limit: Option<usize>,
) -> Result<RawData, Error> {
    let opts = &opts.zero_based_for(paths);
    let mut parts: Vec<RawData> = Vec::with_capacity(paths.len());
    let mut left = limit;
    for path in paths {
        if left == Some(0) {
            break;
        }
        let mut o = opts.clone();
        o.limit = left;
        let part = RowStream::open(path, &o)?.read_all()?;
        if let (Some(first), Some(this)) = (
            parts.first().and_then(|p| p.reading().csv()),
            part.reading().csv(),
        ) {
            first.check(this, &path.display().to_string())?;
        }
        if let Some(first) = parts.first() {
            first
                .reading()
                .check_index_base(part.reading(), &path.display().to_string())?;
        }
        left = left.map(|l| l.saturating_sub(part.n()));
        parts.push(part);
    }
    Ok(RawData::concat(parts))
}

/// Training data read in memory, binarized and prepared, with the preparation a model stores.
pub struct TrainingData {
    /// The prepared rows, in training order.
    pub data: Dataset,
    /// How they were read and prepared.
    pub preparation: auc_prep::Preparation,
}

/// `data` in the random order drawn from `seed` (the order a [`auc_stream::Shuffle`] holding
/// every row gives), or unchanged.
pub fn shuffled(data: Dataset, seed: Option<u64>) -> Dataset {
    match seed {
        None => data,
        Some(s) => data.select(&auc_stream::permutation(data.n(), s)),
    }
}

/// Reads the training input in memory as `spec` asks, reports the positive class, refuses
/// one-class data (`what` names the run), fits the stages on it (or takes `--scale-from`'s
/// scaling), checking the memory of the data, of the stages' fit and of a scaling that would
/// densify sparse data against `limit`. `layout` is the rows' storage: one-pass learners see
/// them as read (as a stream does), batch learners by density. With `order`, the rows are
/// permuted by that seed ([`shuffled`]).
///
/// Each stage drops the copy it no longer needs, so at most two copies of the rows are alive at
/// once (the file's rows as read, then binarized, scaled and ordered).
#[allow(clippy::too_many_arguments)]
pub fn load_training(
    spec: &PrepSpec,
    paths: &[PathBuf],
    what: &str,
    layout: Layout,
    limit: Bytes,
    order: Option<u64>,
    report: &dyn Report,
) -> Result<TrainingData, Error> {
    let raw = read_all(&spec.read, paths, spec.read.limit)?;
    memory::check(
        raw.stored_bytes(),
        limit,
        "the data",
        "use --limit or --hash-bits",
    )?;
    let choice = raw.choose_positive(&spec.positive)?;
    let many_labels = choice.many_labels_warning(&raw.label_counts());
    let reading = raw.reading().clone();
    // The rows move into the dataset (a copy of them would double the peak).
    let mut data = raw.into_binarized(&choice.known(), layout)?;
    let (pos, neg) = data.class_counts();
    report.positive_class(&choice, pos as u64, neg as u64);
    if let Some(w) = many_labels {
        report.warning(&w);
    }
    auc_stream::need_both(pos as u64, neg as u64, what)?;
    if let Some(s) = &spec.scale_from
        && s.dim > data.dim()
    {
        data = data.with_dim(s.dim);
    }
    auc_stream::check_stages_fit(&spec.transform, data.dim(), limit)?;
    if spec.needs_sample() {
        memory::check(
            auc_data::dense_bytes(data.n(), spec.transform.max_output_dim(data.dim())),
            limit,
            "the mapped rows of --features or --one-hot",
            "use a smaller --features size, or a one-pass learner, which maps row by row",
        )?;
    }
    let transform = spec.fit_transform(ScaleEvidence::Data(&data), None)?;
    if matches!(transform.scaler(), Scaler::MinMax { .. }) && data.is_sparse() {
        memory::check(
            auc_data::dense_bytes(data.n(), data.dim()),
            limit,
            "min-max scaling (which makes sparse data dense)",
            "use --scale maxabs, which keeps zeros zero",
        )?;
    }
    let preparation = spec.preparation(reading, &choice, data.dim(), transform);
    // Scaled where the rows are (a copy would double the peak).
    let prepared = preparation.apply_owned(data)?;
    Ok(TrainingData {
        data: shuffled(prepared, order),
        preparation,
    })
}

/// Bytes the rows of `data` take (a fold's copy of its training rows costs about as much).
pub fn data_bytes(data: &Dataset) -> u64 {
    let n = data.n() as u64;
    if data.is_sparse() {
        // values and indices of the non-zeros, row offsets and labels
        (data.nnz() as u64)
            .saturating_mul(12)
            .saturating_add(n.saturating_mul(16))
    } else {
        auc_data::dense_bytes(data.n(), data.dim()).saturating_add(n.saturating_mul(8))
    }
}

/// Trains `config` on `data`: one pass in row order for a one-pass learner (its progress shown
/// as `what` on `progress`, in rows), a fit for a batch learner, which also returns the fit's
/// one-line summary.
///
/// With an `observer` (a one-pass learner), each row's score before the step on it goes there,
/// with its label and the rows fed so far (prequential evaluation, `auc stream --shuffle-full`).
pub fn fit(
    config: &dyn Configured,
    data: &Dataset,
    seed: u64,
    average: bool,
    progress: &dyn Progress,
    what: &str,
    observer: Option<&mut Observer<'_>>,
) -> Result<(Box<dyn Trained>, Option<String>), Error> {
    let fitted = match config.trainer() {
        Trainer::Online(t) => {
            let mut state = t.start(data.dim(), seed, average)?;
            match observer {
                None => {
                    let learner = state.learner().expect("a one-pass learner's state learns");
                    stream_into(learner, data, progress, what);
                }
                Some(o) => {
                    for (i, (x, y)) in data.iter().enumerate() {
                        // The model's score (the mean iterate's when averaging), then the step.
                        let score = state.score(x);
                        state
                            .learner()
                            .expect("a one-pass learner's state learns")
                            .update(x, y);
                        o(score, y, i as u64 + 1)?;
                    }
                }
            }
            return Ok((state, None));
        }
        Trainer::Batch(b) => b.fit(data, seed)?,
    };
    Ok((fitted.0, Some(fitted.1)))
}

/// Streams `data` through a one-pass learner in row order.
pub fn stream_into(
    learner: &mut dyn OnlineLearner,
    data: &Dataset,
    progress: &dyn Progress,
    what: &str,
) {
    progress.start(what, Some(data.n() as u64));
    auc_core::update_in_order(learner, data, |i| {
        if i % 4096 == 4095 {
            progress.update(0, i as u64 + 1);
        }
    });
    progress.finish();
}
