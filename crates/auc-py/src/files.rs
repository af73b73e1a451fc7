//! Training on files and scoring files without loading them into numpy: `stream_fit` and
//! `score_file`, the bindings of [`auc_train::train`] and [`auc_train::score_file`]
//! (what `auc train` and `auc predict` run), behind `auclearn.stream_fit` and
//! `AUCEstimator.scores_file`.
//!
//! The files are read by the Rust engine in memory bounded by the learner's state and a few
//! chunks (a first pass over a file fits the scaling and the reshaping stages), with the GIL
//! released. What the library reports on the way (notes, warnings) is collected and handed back
//! to Python, which turns the warnings into `warnings.warn`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use auc_data::{CsvOptions, Format, LabelColumn, Positive, ReadOptions, ZeroBased};
use auc_prep::PrepSpec;
use auc_train::{Input, Learner, Options, Order, ScoreOptions, TrainRequest};
use numpy::IntoPyArray;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::model::{PyModel, library_error, param_map, stages, value_error};

/// What the library says on the way, kept for Python: notes (the positive class chosen, a
/// learner sketched to fit the memory) and warnings (a divergence, features left unscaled).
#[derive(Default)]
struct Collected {
    notes: Mutex<Vec<String>>,
    warnings: Mutex<Vec<String>>,
}

impl Collected {
    fn push(list: &Mutex<Vec<String>>, text: String) {
        if let Ok(mut l) = list.lock() {
            l.push(text);
        }
    }

    fn take(list: Mutex<Vec<String>>) -> Vec<String> {
        list.into_inner().unwrap_or_default()
    }
}

impl auc_train::Report for Collected {
    fn positive_class(&self, choice: &auc_data::PositiveChoice, positives: u64, negatives: u64) {
        let labels: Vec<String> = choice
            .labels
            .iter()
            .map(|l| auc_train::fmt_label(*l))
            .collect();
        Self::push(
            &self.notes,
            format!(
                "positive class: {} ({}); {positives} positive, {negatives} negative",
                labels.join(","),
                choice.rule
            ),
        );
    }

    fn note(&self, text: &str) {
        Self::push(&self.notes, text.to_owned());
    }

    fn warning(&self, text: &str) {
        Self::push(&self.warnings, text.to_owned());
    }
}

/// How the files are read: the CLI's reading flags as keywords.
#[derive(FromPyObject, Default)]
#[pyo3(from_item_all)]
pub(crate) struct Reading {
    format: Option<String>,
    label_column: Option<LabelWord>,
    delimiter: Option<String>,
    header: Option<bool>,
    hash_bits: Option<u8>,
    cross_hash_bits: Option<u8>,
    dim: Option<usize>,
    limit: Option<usize>,
    zero_based: Option<String>,
}

/// A CSV label column: an index, `"last"` or a header name.
#[derive(FromPyObject)]
enum LabelWord {
    Index(usize),
    Word(String),
}

impl Reading {
    /// The reader options (values read bounded when the stages leave them unscaled: set by
    /// the library).
    fn options(&self) -> PyResult<ReadOptions> {
        if let (Some(c), None) = (self.cross_hash_bits, self.hash_bits) {
            return Err(PyValueError::new_err(format!(
                "cross_hash_bits={c} needs hash_bits=B: the crosses of a row's hashed features are placed after its 2^B features"
            )));
        }
        let format = match self.format.as_deref() {
            None | Some("auto") => Format::Auto,
            Some("libsvm") => Format::Libsvm,
            Some("csv") => Format::Csv,
            Some("parquet") => Format::Parquet,
            Some("arrow") => Format::Arrow,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "format must be 'auto', 'libsvm', 'csv', 'parquet' or 'arrow', not {other:?}"
                )));
            }
        };
        let mut csv = CsvOptions::default();
        if let Some(d) = &self.delimiter {
            csv.delimiter = CsvOptions::delimiter_from_word(d).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "delimiter must be one character or 'tab', not {d:?}"
                ))
            })?;
        }
        csv.label = match &self.label_column {
            None => LabelColumn::default(),
            Some(LabelWord::Index(i)) => LabelColumn::Index(*i),
            Some(LabelWord::Word(w)) => LabelColumn::from_word(w),
        };
        csv.header = self.header;
        Ok(ReadOptions {
            dim: self.dim,
            limit: self.limit,
            format,
            csv,
            hash_bits: self.hash_bits,
            cross_bits: self.cross_hash_bits,
            zero_based: zero_based(self.zero_based.as_deref())?.unwrap_or_default(),
            ..ReadOptions::default()
        })
    }
}

/// The index base `zero_based=` names (`"auto"`, `"yes"`, `"no"`; Python turns `True` and
/// `False` into the last two), `None` when not given.
fn zero_based(word: Option<&str>) -> PyResult<Option<ZeroBased>> {
    word.map(|w| {
        ZeroBased::from_word(w).ok_or_else(|| {
            PyValueError::new_err(format!(
                "zero_based must be 'auto', 'yes' or 'no' (or True / False), not {w:?}"
            ))
        })
    })
    .transpose()
}

/// Trains algorithm `name` with the JSON `params` on the data files `paths` (read in order and
/// concatenated, as `auc train` reads them) by the route `auc train` takes: the stages of
/// `scale`, `one_hot`, `features` / `feature_sigma` (drawn with `seed`) and `unit_norm` fitted on
/// a first pass, the rows in file order, through a shuffle buffer of `shuffle_buffer` rows
/// (`shuffle`: its seed) or, with `shuffle_full`, fully permuted in memory; `positive` the
/// positive labels as typed (numbers, or any value of a CSV file's label column with a header,
/// as `--positive` takes them; the default rule when `None`); `reading` the reading keywords.
/// Returns the model, the notes and the warnings of the run.
#[pyfunction]
#[pyo3(signature = (paths, name, params, seed, scale, reading, positive = None, average = false, one_hot = None, features = None, feature_sigma = None, unit_norm = false, shuffle = None, shuffle_buffer = 10_000, shuffle_full = false, threaded = true, threads = None, max_memory = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn stream_fit(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    name: &str,
    params: &str,
    seed: u64,
    scale: &str,
    reading: Reading,
    positive: Option<Vec<String>>,
    average: bool,
    one_hot: Option<u16>,
    features: Option<&str>,
    feature_sigma: Option<&str>,
    unit_norm: bool,
    shuffle: Option<u64>,
    shuffle_buffer: u64,
    shuffle_full: bool,
    threaded: bool,
    threads: Option<usize>,
    max_memory: Option<u64>,
) -> PyResult<(PyModel, Vec<String>, Vec<String>)> {
    let algo = auc_learners::lookup(name).map_err(value_error)?;
    let given = param_map(params)?;
    let mut transform = stages(scale, features, feature_sigma, seed, one_hot)?;
    transform.unit_norm = unit_norm;
    if shuffle_buffer == 0 {
        return Err(PyValueError::new_err("shuffle_buffer must be at least 1"));
    }
    let mut read = reading.options()?;
    let positive = match positive {
        Some(words) => {
            // A table's label map takes the words; a file of numbers, the numbers they name.
            read.csv.table.positive = words.clone();
            Positive::Named(words)
        }
        None => Positive::Auto,
    };
    let spec = PrepSpec::new(read, positive, transform, None).map_err(value_error)?;
    let opts = Options {
        seed,
        average,
        order: Order::from_flags(shuffle, shuffle_buffer, shuffle_full),
        threaded,
        threads,
        max_memory: max_memory.map_or_else(|| auc_train::memory::limit(None), auc_train::Bytes),
        written_by: format!("auclearn {}", env!("CARGO_PKG_VERSION")),
    };
    let report = Collected::default();
    let request = TrainRequest {
        params: given,
        options: opts,
        command: "auclearn.stream_fit".to_owned(),
        ..TrainRequest::new(Learner::Named(algo), spec, Input::Files(paths))
    };
    let trained = py
        .detach(|| auc_train::train(request, &report))
        .map_err(|e| library_error(&e))?;
    Ok((
        PyModel::new(trained.model),
        Collected::take(report.notes),
        Collected::take(report.warnings),
    ))
}

/// Scores every row of the data file `path` with `model`, read as the model's training data
/// was read and prepared with its stages chunk by chunk, in bounded memory (the GIL released):
/// the scores as an array, or, with `output`, written one per line to that file as they come
/// (as `auc predict -o` writes them; the file appears, complete, when every row is scored) and
/// the number of rows returned. `strict_dim` refuses a row with a feature past the model's
/// dimension (by default the feature is dropped). `zero_based` (`"auto"`, `"yes"`, `"no"`)
/// overrides the LIBSVM index base of the model's reading.
#[pyfunction]
#[pyo3(signature = (model, path, output = None, strict_dim = false, threaded = true, zero_based = None))]
pub(crate) fn score_file<'py>(
    py: Python<'py>,
    model: PyRef<'_, PyModel>,
    path: PathBuf,
    output: Option<PathBuf>,
    strict_dim: bool,
    threaded: bool,
    zero_based: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let model = model.model();
    let options = ScoreOptions {
        strict_dim,
        threaded,
        zero_based: self::zero_based(zero_based)?,
        ..ScoreOptions::default()
    };
    let report = Collected::default();
    match output {
        None => {
            let scores = py.detach(|| {
                let mut out = Vec::new();
                auc_train::score_file(model, &path, &options, &report, |c| {
                    out.extend_from_slice(c.scores);
                    Ok(())
                })
                .map(|_| out)
                .map_err(|e| library_error(&e))
            })?;
            Ok(scores.into_pyarray(py).into_any())
        }
        Some(target) => {
            let rows = py.detach(|| write_scores(model, &path, &target, &options, &report))?;
            Ok(rows.into_pyobject(py)?.into_any())
        }
    }
}

/// Writes the scores of `path` to a temporary file beside `target`, renamed into place when
/// every row is scored (removed on an error); returns the rows.
fn write_scores(
    model: &auc_learners::Model,
    path: &Path,
    target: &Path,
    options: &ScoreOptions,
    report: &Collected,
) -> PyResult<u64> {
    let name = target
        .file_name()
        .ok_or_else(|| PyValueError::new_err(format!("{}: not a file name", target.display())))?;
    let tmp = target.with_file_name(format!(
        ".{}.auclearn-{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let io = |e: std::io::Error, p: &Path| PyValueError::new_err(format!("{}: {e}", p.display()));
    let result = (|| -> PyResult<u64> {
        let file = std::fs::File::create(&tmp).map_err(|e| io(e, target))?;
        let mut w = std::io::BufWriter::new(file);
        let mut text = String::new();
        let scored = auc_train::score_file(model, path, options, report, |c| {
            text.clear();
            for v in c.scores {
                text.push_str(&auc_core::shortest(*v));
                text.push('\n');
            }
            w.write_all(text.as_bytes())
                .map_err(|e| auc_train::Error::io(target.display(), e))
        })
        .map_err(|e| library_error(&e))?;
        w.flush().map_err(|e| io(e, target))?;
        std::fs::rename(&tmp, target).map_err(|e| io(e, target))?;
        Ok(scored.done.rows)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
