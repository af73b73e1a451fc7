//! Scoring a file with a saved model in bounded memory ([`score_file`]): the file is read as the
//! model's training data was read, prepared with the model's stages chunk by chunk, and each
//! chunk's scores are handed on before the next is read.

use std::path::{Path, PathBuf};

use auc_core::{Dataset, Label};
use auc_learners::Model;
use auc_stream::{Classes, Done, Reader, Report, Shaper};

use crate::Error;

/// How [`score_file`] reads beyond what the model fixes.
#[derive(Clone, Debug)]
pub struct ScoreOptions {
    /// The positive class of the labels handed on with the scores (for metrics), as typed: label
    /// numbers, which must occur in the file, or for a model of a table, values its label
    /// column took in training; the model's when `None`.
    pub positive: Option<Vec<String>>,
    /// Refuse a row with a feature index past the model's dimension; by default such a feature
    /// (never seen in training: no weight, no fitted scale) is dropped and the row counted in
    /// [`auc_stream::Seen::unseen_rows`].
    pub strict_dim: bool,
    /// Parse on other threads than the scoring one (a parser thread or parallel blocks).
    pub threaded: bool,
    /// The longest line a data file may hold.
    pub max_line_bytes: usize,
    /// Whether LIBSVM indices are 0-based; the model's reading when `None` (a model trained
    /// on a 0-based file reads 0-based). Given, it wins: a model fitted on arrays records
    /// 1-based LIBSVM, and can score a file scikit-learn wrote with [`ZeroBased::Yes`].
    ///
    /// [`ZeroBased::Yes`]: auc_data::ZeroBased::Yes
    pub zero_based: Option<auc_data::ZeroBased>,
}

impl Default for ScoreOptions {
    /// The model's positive class, unseen features dropped, parsing on other threads, the data
    /// layer's line cap, the model's index base.
    fn default() -> Self {
        ScoreOptions {
            positive: None,
            strict_dim: false,
            threaded: true,
            max_line_bytes: auc_data::DEFAULT_MAX_LINE_BYTES,
            zero_based: None,
        }
    }
}

/// One chunk's scores, handed on by [`score_file`].
pub struct Scored<'a> {
    /// The scores of the chunk's rows, in file order, each finite.
    pub scores: &'a [f64],
    /// Their labels, binarized by the positive class of [`ScoreOptions::positive`].
    pub labels: &'a [Label],
    /// Rows of the file before the chunk.
    pub before: u64,
    /// Bytes of input read so far.
    pub bytes: u64,
}

/// What a finished [`score_file`] read.
pub struct ScoredFile {
    /// Rows, dimension, reading and the labels met (`seen.unseen_rows`: rows whose features past
    /// the model's were dropped).
    pub done: Done,
    /// The labels the handed-on labels call positive.
    pub positive: Vec<f64>,
}

/// Scores `path` (`-`: standard input) with `model`, handing each chunk's scores to `each` as
/// they come, in file order; nothing but a few chunks is held. A score that is not finite is an
/// error naming its row of the file. With [`ScoreOptions::positive`] on a file that can be read
/// twice, a first pass over its labels checks the class occurs before anything is scored (its
/// progress through `report`); on standard input, at the end.
pub fn score_file(
    model: &Model,
    path: &Path,
    options: &ScoreOptions,
    report: &dyn Report,
    each: impl FnMut(Scored<'_>) -> Result<(), Error>,
) -> Result<ScoredFile, Error> {
    Scoring::open(model, path, options, report)?.run(each)
}

/// A scoring pass of [`score_file`] opened but not started: the input is open and checked, so
/// a caller can prepare its output between the two (the CLI creates its output file only then).
pub struct Scoring<'a> {
    model: &'a Model,
    path: PathBuf,
    reader: Reader,
    shaper: Shaper,
    classes: Classes,
    threaded: bool,
    report: &'a dyn Report,
}

impl<'a> Scoring<'a> {
    /// Opens `path` to be read as `model`'s training data was read, and checks
    /// [`ScoreOptions::positive`] by a first pass when the file can be read twice.
    pub fn open(
        model: &'a Model,
        path: &Path,
        options: &ScoreOptions,
        report: &'a dyn Report,
    ) -> Result<Self, Error> {
        let prep = &model.preparation;
        let mut opts = prep.read_options();
        opts.max_line_bytes = options.max_line_bytes;
        // A table's labels are mapped by its label map: another positive class is another map.
        let table = opts.schema.is_some();
        if let (Some(given), Some(schema)) = (&options.positive, opts.schema.as_mut()) {
            let l = &schema.label;
            schema.label =
                auc_data::table::LabelMap::choose(l.name.clone(), l.counts.clone(), given)?;
        }
        let given_numbers = match &options.positive {
            Some(given) if !table => Some(auc_data::named_numbers(given)?),
            _ => None,
        };
        if let Some(z) = options.zero_based {
            opts.zero_based = z;
        }
        if !options.strict_dim && prep.cross_bits.is_none() {
            // Read every index; the shaper drops those past the model's dimension. (Crosses are
            // placed after the model's columns, which fix the dimension: a model crossed
            // without hashing, one trained in Python, reads its columns strictly, since a
            // feature past them would already have been crossed with the others when the
            // shaper dropped it.)
            opts.dim = None;
        }
        let name = path.display().to_string();
        // A model without column names reads LIBSVM or CSV whatever the name says; a file
        // named as Parquet or Arrow would be parsed as text.
        if !table && auc_data::Format::Auto.resolve(&name).is_columnar() {
            return Err(Error::input(format!(
                "{name}: a Parquet or Arrow IPC file is read as a table, by column name, and this model was trained on data without column names ({}): train it on a file with named columns",
                prep.describe_reading()
            )));
        }
        let paths = vec![path.to_path_buf()];
        let mut reader = Reader::open(&paths, &opts)?;
        reader.on_wider(format!("the model was trained on {} features", prep.dim));
        if let (Some(want), Some(found)) = (prep.reading.csv(), reader.reading().csv()) {
            want.check(found, &path.display().to_string())?;
        }
        // The class of the labels handed on: the model's, or the one `positive` names, which
        // must occur in the file: a file that can be read twice is checked by a first pass
        // over its labels before anything is scored; standard input at the end.
        if let Some(given) = &given_numbers
            && auc_stream::rereadable(&paths)
        {
            let survey = auc_stream::survey(
                &paths,
                &opts,
                auc_stream::Collect::default(),
                Some(given),
                auc_stream::memory::limit(None),
                report.pass().as_ref(),
            )?;
            auc_data::PositiveChoice::from_counts(
                &survey.label_counts(),
                &auc_data::Positive::Labels(given.clone()),
            )?;
        }
        let classes = match &given_numbers {
            None => Classes::Known {
                labels: prep.positive_labels.clone(),
                given: false,
            },
            Some(given) => auc_stream::given_classes(given),
        };
        let mut shaper = Shaper::new(classes.clone(), prep.dim, prep.transform.clone());
        if !options.strict_dim {
            shaper = shaper.with_max_dim(prep.dim);
        }
        Ok(Scoring {
            model,
            path: path.to_path_buf(),
            reader,
            shaper,
            classes,
            threaded: options.threaded,
            report,
        })
    }

    /// Whether the file's rows carry labels (a file read by a table's schema may lack its label
    /// column: rows to score, whose labels read as negative and mean nothing).
    pub fn labelled(&self) -> bool {
        self.reader.labelled()
    }

    /// The file's columns the model does not use (a table's extra columns).
    pub fn ignored_columns(&self) -> &[String] {
        self.reader.ignored_columns()
    }

    /// Reads every row of the file into memory as read, before the model's stages (a table's
    /// columns encoded, features past the model's dropped), dense, with its labels: the rows
    /// permutation importance shuffles (`crate::importance`). Refused when the dense rows would
    /// take more than `limit` bytes.
    pub fn read_raw(self, limit: crate::Bytes) -> Result<Dataset, Error> {
        let Scoring {
            model,
            reader,
            mut shaper,
            classes,
            report,
            ..
        } = self;
        let dim = model.preparation.dim;
        shaper.transform = auc_prep::Transform::default();
        let mut values: Vec<f64> = Vec::new();
        let mut labels: Vec<Label> = Vec::new();
        let progress = report.pass();
        progress.start("reading", reader.total_bytes());
        let done = auc_stream::run(reader, shaper, false, |chunk| {
            let rows = labels.len() + chunk.data.n();
            crate::memory::check(
                (rows as u64).saturating_mul(dim as u64).saturating_mul(8),
                limit,
                "the rows held dense for permutation importance",
                "score a sample of the rows",
            )?;
            for (x, y) in chunk.data.iter() {
                let start = values.len();
                values.resize(start + dim, 0.0);
                x.for_each(|j, v| {
                    if j < dim {
                        values[start + j] = v;
                    }
                });
                labels.push(y);
            }
            progress.update(chunk.bytes, rows as u64);
            Ok::<(), Error>(())
        })?;
        progress.finish();
        auc_stream::final_choice(&classes, &done.seen)?;
        Dataset::dense(dim, values, labels).map_err(|e| Error::input(e.to_string()))
    }

    /// Scores the file, handing each chunk's scores to `each`; checks at the end that a given
    /// positive class occurred.
    pub fn run(
        self,
        mut each: impl FnMut(Scored<'_>) -> Result<(), Error>,
    ) -> Result<ScoredFile, Error> {
        let Scoring {
            model,
            path,
            reader,
            shaper,
            classes,
            threaded,
            report,
        } = self;
        let positive = match &classes {
            Classes::Known { labels, .. } => labels.clone(),
            Classes::Binary => vec![1.0],
        };
        let progress = report.pass();
        progress.start("scoring", reader.total_bytes());
        let done = auc_stream::run(reader, shaper, threaded, |chunk| {
            let s = model.scores(&chunk.data).map_err(|e| match e {
                auc_learners::Error::NonFiniteScore { row, value } => {
                    auc_learners::Error::NonFiniteScore {
                        row: row + chunk.before as usize,
                        value,
                    }
                }
                other => other,
            });
            let s = s.map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
            each(Scored {
                scores: &s,
                labels: chunk.data.labels(),
                before: chunk.before,
                bytes: chunk.bytes,
            })?;
            progress.update(chunk.bytes, chunk.before + s.len() as u64);
            Ok::<(), Error>(())
        })?;
        progress.finish();
        auc_stream::final_choice(&classes, &done.seen)?;
        Ok(ScoredFile { done, positive })
    }
}
