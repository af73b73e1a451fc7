//! Reading data as the command line describes it: the reading flags every command shares, the
//! positive class (and the line that reports it), and reading a file the way a model's training
//! data was read.

use std::path::{Path, PathBuf};

use auc_core::Dataset;
use auc_data::{
    CsvOptions, FeatureRanges, Format, LabelColumn, Positive, PositiveChoice, RawData, ReadOptions,
    ZeroBased,
};
use auc_prep::{Preparation, ScaleFrom, ScaleSource};
use auc_stream::memory::Bytes;
use clap::Args;

use crate::output::Error;

/// How to read data files: the flags shared by every command that reads them. A flag left out
/// takes its default, or, for `auc predict`, the model's own reading.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct ReadArgs {
    /// File format; `auto` reads `.csv`/`.tsv` (also gzipped, `.csv.gz`) as CSV, `.parquet`/`.pq`
    /// as Parquet, `.arrow`/`.feather`/`.ipc`/`.arrows` as Arrow IPC (both read by column name,
    /// a row group or record batch at a time, always as a table) and everything else, standard
    /// input included, as LIBSVM. A model of a table scores a file named as Parquet or Arrow
    /// in that format whatever its training file was, and any other file as CSV.
    #[arg(long, value_enum, help_heading = "Reading")]
    format: Option<FormatArg>,
    /// CSV label column: a header name (any case), a 0-based position, `last`, or `auto`, the
    /// default: the header's column named label, class, target, y, outcome or response (any
    /// case); a header without one is refused with its columns listed. A file without a header
    /// keeps column 0.
    #[arg(long, value_name = "COLUMN", help_heading = "Reading")]
    label_column: Option<String>,
    /// CSV field delimiter: one character, or `tab` [default: `,`; tab for .tsv].
    #[arg(long, help_heading = "Reading")]
    delimiter: Option<String>,
    /// CSV header line: `auto` detects one (a first line with a field that is not a number).
    #[arg(long, value_enum, help_heading = "Reading")]
    header: Option<HeaderArg>,
    /// Label value(s) of the positive class, comma separated: numbers, or text such as `bad`
    /// or `yes` in a CSV file with a header. Default: +1 / 1 of a file labelled {-1, +1} /
    /// {0, 1} (as scikit-learn, LIBSVM and Vowpal Wabbit); in a CSV file with a header, the
    /// value 1, +1, true or yes of a two-valued label; else the minority class.
    #[arg(
        long,
        value_name = "LABEL[,LABEL..]",
        value_delimiter = ',',
        allow_negative_numbers = true,
        allow_hyphen_values = true,
        help_heading = "Reading"
    )]
    pub(crate) positive: Option<Vec<String>>,
    /// Tokens that mean a missing value in a CSV file with a header, comma separated, replacing
    /// the default set; an empty field is always missing [default: NA,N/A,NaN,nan,null,NULL,?].
    #[arg(long, value_name = "TOKEN[,TOKEN..]", help_heading = "Tables")]
    na_values: Option<String>,
    /// Columns to read as categories although their values are numbers (codes), comma
    /// separated names. Columns with a value that is not a number are categorical anyway.
    #[arg(
        long,
        value_name = "NAME[,NAME..]",
        value_delimiter = ',',
        help_heading = "Tables"
    )]
    categorical: Option<Vec<String>>,
    /// The least number of training rows a category needs for a feature of its own; rarer
    /// values share the "other" feature with values never seen in training [default: 5].
    #[arg(long, value_name = "N", help_heading = "Tables")]
    min_category_count: Option<u64>,
    /// The most one-hot features of one categorical column; a column with more categories is
    /// hashed into this many features instead [default: 64].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=65536), help_heading = "Tables")]
    max_one_hot: Option<u64>,
    /// Fold feature indices into 2^B features (Vowpal Wabbit's `-b`), for files with huge or
    /// unbounded index spaces; colliding values in a row are summed.
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u8).range(1..=31), help_heading = "Reading")]
    pub(crate) hash_bits: Option<u8>,
    /// Feature crosses (Vowpal Wabbit's `-q` for fielded data): the product of every pair of a
    /// row's hashed features is added as a feature, folded into 2^C buckets after the 2^B hashed
    /// features (colliding products are summed), so the dimension is 2^B + 2^C. Needs
    /// --hash-bits; a row of more than 1024 non-zeros is refused. Models record it, so predict
    /// crosses rows the same way without the flag.
    #[arg(long, value_name = "C", value_parser = clap::value_parser!(u8).range(1..=30), help_heading = "Reading")]
    pub(crate) cross_hash_bits: Option<u8>,
    /// The longest line a data file may hold (a LIBSVM line with its comment, a CSV record with
    /// its quoted line breaks): 16M, 200K, 1G [default: 8M]. Reading stops with an error naming
    /// the line as soon as one outgrows it, so no input (one without line ends, an unterminated
    /// quote, a decompressed gzip bomb) is buffered beyond it.
    #[arg(long, value_name = "SIZE", help_heading = "Reading")]
    pub(crate) max_line_bytes: Option<Bytes>,
    /// LIBSVM feature indices counted from 0 (`yes`: index 0 is the first feature, as
    /// scikit-learn's dump_svmlight_file writes by default) or from 1 (`no`, LIBSVM's own
    /// convention). `auto`, the default, reads 0-based the files that hold an index 0, as
    /// scikit-learn's loader does: files are scanned first (several files of one run are
    /// decided together), standard input is judged on its first 1024 lines. Models record it;
    /// predict reads as the model's training data unless the flag is given.
    #[arg(long, value_enum, value_name = "WHEN", help_heading = "Reading")]
    zero_based: Option<ZeroBasedArg>,
}

impl ReadArgs {
    /// The line that says which CSV column became the label when `--label-column` was left
    /// to its default: column 0 of a file without a header, or the column the header names
    /// (`None` for the user's own choice, and for tables, whose survey says it).
    pub(crate) fn label_note(&self, reading: &auc_data::Reading) -> Option<String> {
        let c = reading.csv()?;
        if self.label_column.is_some() {
            return None;
        }
        if !c.has_header() {
            return Some(
                "no header line: column 0 is the label, as in LIBSVM files (--label-column chooses another; a header names the columns)".to_owned(),
            );
        }
        if c.label_index == 0 {
            return None;
        }
        Some(format!(
            "label column {} {:?}, by its header name (one of {}; --label-column chooses another)",
            c.label_index,
            c.label_name().unwrap_or_default(),
            auc_data::LABEL_NAMES.join(", ")
        ))
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FormatArg {
    Auto,
    Libsvm,
    Csv,
    Parquet,
    Arrow,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum ZeroBasedArg {
    Auto,
    Yes,
    No,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum HeaderArg {
    Auto,
    Yes,
    No,
}

impl ReadArgs {
    /// Reader options for these flags, with an optional row limit.
    pub(crate) fn options(&self, limit: Option<usize>) -> Result<ReadOptions, Error> {
        if let (Some(c), None) = (self.cross_hash_bits, self.hash_bits) {
            return Err(format!(
                "--cross-hash-bits {c} needs --hash-bits B: the crosses of a row's hashed features are placed after its 2^B features (e.g. --hash-bits 18 --cross-hash-bits {c})"
            )
            .into());
        }
        let mut csv = CsvOptions::default();
        if let Some(d) = &self.delimiter {
            csv.delimiter = delimiter(d)?;
        }
        if let Some(c) = &self.label_column {
            csv.label = LabelColumn::from_word(c);
        }
        csv.header = match self.header {
            None | Some(HeaderArg::Auto) => None,
            Some(HeaderArg::Yes) => Some(true),
            Some(HeaderArg::No) => Some(false),
        };
        if let Some(na) = &self.na_values {
            csv.table.na = auc_data::table::NaTokens::from_word(na);
        }
        if let Some(c) = &self.categorical {
            csv.table.categorical = c.clone();
        }
        if let Some(n) = self.min_category_count {
            csv.table.min_count = n;
        }
        if let Some(n) = self.max_one_hot {
            csv.table.max_one_hot = n as usize;
        }
        if let Some(p) = &self.positive {
            csv.table.positive = p.clone();
        }
        Ok(ReadOptions {
            dim: None,
            limit,
            format: match self.format {
                None | Some(FormatArg::Auto) => Format::Auto,
                Some(FormatArg::Libsvm) => Format::Libsvm,
                Some(FormatArg::Csv) => Format::Csv,
                Some(FormatArg::Parquet) => Format::Parquet,
                Some(FormatArg::Arrow) => Format::Arrow,
            },
            csv,
            hash_bits: self.hash_bits,
            cross_bits: self.cross_hash_bits,
            max_line_bytes: self.max_line_bytes(),
            bounded_values: false,
            schema: None,
            zero_based: self.zero_based().unwrap_or_default(),
            tallies: None,
        })
    }

    /// `--zero-based` when given.
    pub(crate) fn zero_based(&self) -> Option<ZeroBased> {
        self.zero_based.map(|z| match z {
            ZeroBasedArg::Auto => ZeroBased::Auto,
            ZeroBasedArg::Yes => ZeroBased::Yes,
            ZeroBasedArg::No => ZeroBased::No,
        })
    }

    /// Refuses a `--zero-based` that contradicts the LIBSVM index base of a model's training
    /// data (`auc train --resume` continues on data read the model's way); `auto` leaves it to
    /// the model.
    pub(crate) fn check_zero_based_against(
        &self,
        prep: &Preparation,
        model: &Path,
    ) -> Result<(), Error> {
        let model_zero = prep.reading.is_zero_based();
        match self.zero_based() {
            Some(ZeroBased::Yes) if !model_zero => {}
            Some(ZeroBased::No) if model_zero => {}
            _ => return Ok(()),
        }
        Err(format!(
            "--zero-based {}, but the model {} was trained on data read otherwise ({}); leave the flag out: the model's data is read its way",
            if model_zero { "no" } else { "yes" },
            model.display(),
            prep.describe_reading()
        )
        .into())
    }

    /// The line cap: the flag, or the data layer's default.
    pub(crate) fn max_line_bytes(&self) -> usize {
        self.max_line_bytes
            .map_or(auc_data::DEFAULT_MAX_LINE_BYTES, |b| {
                usize::try_from(b.0).unwrap_or(usize::MAX)
            })
    }

    /// The positive-class rule: the given labels, else the default rule.
    pub(crate) fn positive_rule(&self) -> Positive {
        match &self.positive {
            Some(l) => Positive::Named(l.clone()),
            None => Positive::Auto,
        }
    }

    /// Reads and concatenates `paths` in order (`-` is standard input, gzip is detected),
    /// keeping at most `limit` rows. Every file must be read the same way (CSV files: the same
    /// columns).
    pub(crate) fn read(&self, paths: &[PathBuf], limit: Option<usize>) -> Result<RawData, Error> {
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        let opts = self.options(limit)?.surveyed(&refs)?;
        Ok(read_with(&opts, paths, limit)?)
    }

    /// Refuses flags that contradict how a model's training data was read (`auc predict` reads
    /// new data the model's way).
    pub(crate) fn check_against(&self, prep: &Preparation, model: &Path) -> Result<(), Error> {
        let csv = prep.reading.csv();
        let contradiction = |what: String| -> Error {
            format!(
                "{what}, but the model {} was trained on data read otherwise ({}); leave the flag out: predict reads data as the model's training data was read",
                model.display(),
                prep.describe_reading()
            )
            .into()
        };
        if let auc_data::Reading::Table(t) = &prep.reading {
            return self.check_against_table(t, &contradiction);
        }
        match (self.format, csv) {
            (Some(FormatArg::Csv), None) => return Err(contradiction("--format csv".into())),
            (Some(FormatArg::Libsvm), Some(_)) => {
                return Err(contradiction("--format libsvm".into()));
            }
            _ => {}
        }
        if let Some(d) = &self.delimiter {
            let given = delimiter(d)?;
            if csv.is_none_or(|c| c.delimiter != given) {
                return Err(contradiction(format!("--delimiter {d}")));
            }
        }
        if let Some(l) = &self.label_column {
            let same = csv.is_some_and(|c| match LabelColumn::from_word(l) {
                LabelColumn::Index(i) => i == c.label_index,
                LabelColumn::Last => c.fields > 0 && c.label_index + 1 == c.fields,
                LabelColumn::Name(n) => c.label_name() == Some(n.as_str()),
                LabelColumn::Auto => {
                    c.header
                        .as_deref()
                        .and_then(auc_data::label_by_name)
                        .unwrap_or(0)
                        == c.label_index
                }
            });
            if !same {
                return Err(contradiction(format!("--label-column {l}")));
            }
        }
        if let Some(h) = self.header {
            let has = csv.is_some_and(|c| c.has_header());
            let ok = match h {
                HeaderArg::Auto => true,
                HeaderArg::Yes => has,
                HeaderArg::No => !has,
            };
            if !ok {
                return Err(contradiction(format!("--header {h:?}").to_lowercase()));
            }
        }
        if self.hash_bits.is_some() && self.hash_bits != prep.hash_bits {
            return Err(contradiction(format!(
                "--hash-bits {}",
                self.hash_bits.unwrap_or(0)
            )));
        }
        if let Some(c) = self.cross_hash_bits
            && Some(c) != prep.cross_bits
        {
            return Err(contradiction(format!("--cross-hash-bits {c}")));
        }
        Ok(())
    }
}

pub(crate) use auc_train::in_memory::read_all as read_with;

/// Reads `--scale-from FILE`: a model file (its fitted scaling) or the JSON of `auc info --json`
/// (its `ranges`). Whether its hashing matches the data's is checked by [`auc_prep::PrepSpec::new`].
pub(crate) fn load_scale_from(path: &Path) -> Result<ScaleFrom, Error> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("--scale-from {name}: {e}"))?;
    let (source, dim, (hash_bits, cross_bits)) = if bytes.starts_with(b"AUCMODEL") {
        let m = auc_learners::Model::from_bytes(&bytes)
            .map_err(|e| format!("--scale-from {name}: {e}"))?;
        let p = m.preparation;
        let hashing = (p.hash_bits, p.cross_bits);
        (ScaleSource::Fitted(p.scaler().clone()), p.dim, hashing)
    } else {
        let not = || -> Error {
            format!(
                "--scale-from {name}: neither an auc model file nor the output of `auc info --json` (which holds the feature ranges)"
            )
            .into()
        };
        let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|_| not())?;
        let ranges = v.get("ranges").ok_or_else(not)?;
        let r: FeatureRanges = serde_json::from_value(ranges.clone())
            .map_err(|e| format!("--scale-from {name}: the ranges do not read: {e}"))?;
        check_ranges(&r).map_err(|e| format!("--scale-from {name}: {e}"))?;
        let bits = |key: &str| {
            v.get(key)
                .and_then(serde_json::Value::as_u64)
                .and_then(|b| u8::try_from(b).ok())
        };
        let dim = r.dim();
        let hashing = (bits("hash_bits"), bits("cross_bits"));
        (ScaleSource::Ranges(r), dim, hashing)
    };
    Ok(ScaleFrom {
        origin: name.to_string(),
        source,
        dim,
        hash_bits,
        cross_bits,
    })
}

/// Checks ranges read from a file: equal lengths, finite numbers, `min <= max`, counts within
/// the rows.
fn check_ranges(r: &FeatureRanges) -> Result<(), String> {
    if r.min().len() != r.max().len() || r.nnz().len() != r.min().len() {
        return Err("min, max and nnz have different lengths".to_owned());
    }
    for j in 0..r.dim() {
        let (a, b) = (r.min()[j], r.max()[j]);
        if !a.is_finite() || !b.is_finite() || a > b {
            return Err(format!(
                "feature {}: the range [{a}, {b}] is not valid",
                j + 1
            ));
        }
        if r.nnz()[j] > r.rows() {
            return Err(format!(
                "feature {}: {} non-zeros in {} rows",
                j + 1,
                r.nnz()[j],
                r.rows()
            ));
        }
    }
    Ok(())
}

/// `-1, +1` style list of labels.
pub(crate) fn fmt_labels(labels: &[f64]) -> String {
    labels
        .iter()
        .map(|&l| fmt_label(l))
        .collect::<Vec<_>>()
        .join(",")
}

pub(crate) use auc_stream::fmt_label;

impl ReadArgs {
    /// [`ReadArgs::check_against`] for a model of a table: its files are CSV with a header, by
    /// its delimiter, the label column by its name (in any case), the categories and missing
    /// tokens of training.
    fn check_against_table(
        &self,
        t: &auc_data::TableReading,
        contradiction: &dyn Fn(String) -> Error,
    ) -> Result<(), Error> {
        if self.format == Some(FormatArg::Libsvm) {
            return Err(contradiction("--format libsvm".into()));
        }
        if let Some(d) = &self.delimiter
            && delimiter(d)? != t.delimiter
        {
            return Err(contradiction(format!("--delimiter {d}")));
        }
        if let Some(l) = &self.label_column {
            let same = match LabelColumn::from_word(l) {
                LabelColumn::Auto => true,
                LabelColumn::Name(n) => n.trim().eq_ignore_ascii_case(t.schema.label.name.trim()),
                LabelColumn::Index(_) | LabelColumn::Last => false,
            };
            if !same {
                return Err(contradiction(format!("--label-column {l}")));
            }
        }
        if self.header == Some(HeaderArg::No) {
            return Err(contradiction("--header no".into()));
        }
        let table_flags = [
            (self.na_values.is_some(), "--na-values"),
            (self.categorical.is_some(), "--categorical"),
            (self.min_category_count.is_some(), "--min-category-count"),
            (self.max_one_hot.is_some(), "--max-one-hot"),
        ];
        if let Some((_, flag)) = table_flags.iter().find(|(given, _)| *given) {
            return Err(contradiction((*flag).to_owned()));
        }
        if self.hash_bits.is_some() || self.cross_hash_bits.is_some() {
            return Err(contradiction("--hash-bits".into()));
        }
        Ok(())
    }
}

/// What the survey of a table decided, on stderr: its label and positive class, categorical
/// columns and filled cells (nothing for files read without a schema).
pub(crate) fn report_schema(opts: &ReadOptions) {
    let Some(schema) = &opts.schema else {
        return;
    };
    let (pos, neg) = schema.label.class_counts();
    crate::notes::note(format_args!(
        "label column \"{}\"; positive class: {}; {pos} positive, {neg} negative",
        schema.label.name, schema.label
    ));
    for note in schema.notes() {
        crate::notes::note(format_args!("{note}"));
    }
}

/// The stderr line that says which class is positive and why.
pub(crate) fn report_positive(choice: &PositiveChoice, data: &Dataset) {
    let (pos, neg) = data.class_counts();
    report_positive_counts(choice, pos as u64, neg as u64);
}

/// The stderr line that says which class is positive and why, from class counts. Data with one
/// class only gives no ground for a rule's reason (`+1 of a {-1, +1} file` for a file of `1`s),
/// so that line says what was seen instead.
pub(crate) fn report_positive_counts(choice: &PositiveChoice, pos: u64, neg: u64) {
    // A table's positive class is said when its schema is fitted, in its own words.
    if choice.rule == auc_data::PositiveRule::Table {
        return;
    }
    if (pos == 0 || neg == 0) && choice.rule != auc_data::PositiveRule::Given {
        crate::notes::note(format_args!(
            "one class only: {pos} positive, {neg} negative"
        ));
        return;
    }
    crate::notes::note(format_args!(
        "positive class: {} ({}); {pos} positive, {neg} negative",
        fmt_labels(&choice.labels),
        choice.rule
    ));
}

/// The warning of [`PositiveChoice::many_labels_warning`] on stderr, if any.
pub(crate) fn warn_many_labels(choice: &PositiveChoice, raw: &RawData) {
    if let Some(w) = choice.many_labels_warning(&raw.label_counts()) {
        crate::notes::warning(format_args!("{w}"));
    }
}

/// Binarizes `raw` by `rule` into `layout` and reports the choice on stderr.
pub(crate) fn binarize(
    raw: &RawData,
    rule: &Positive,
    layout: auc_data::Layout,
) -> Result<(Dataset, PositiveChoice), Error> {
    let choice = raw.choose_positive(rule)?;
    let data = raw.binarize_as(&choice.known(), layout)?;
    report_positive(&choice, &data);
    warn_many_labels(&choice, raw);
    Ok((data, choice))
}

/// Refuses training data without both classes (a learner would save an all-zero model).
pub(crate) fn need_both_classes(data: &Dataset, what: &str) -> Result<(), Error> {
    let (pos, neg) = data.class_counts();
    Ok(need_both(pos as u64, neg as u64, what)?)
}

pub(crate) use auc_stream::need_both;

fn delimiter(d: &str) -> Result<u8, Error> {
    CsvOptions::delimiter_from_word(d)
        .ok_or_else(|| format!("--delimiter must be one character or `tab`, got `{d}`").into())
}

/// A short name for a file list, for reports: the first file's name, `+N` for more.
pub(crate) fn dataset_name(paths: &[PathBuf]) -> String {
    let first = paths
        .first()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .unwrap_or_default();
    match paths.len() {
        0 | 1 => first,
        n => format!("{first}+{}", n - 1),
    }
}

/// Calls `each` with every line of the text file `path` (`-`: standard input), without its line
/// end, and its 1-based number. No line may hold more than `max_line_bytes` (`--max-line-bytes`),
/// so an input without line ends is refused after that many bytes instead of being read whole;
/// errors name the file and the line.
pub(crate) fn for_each_line(
    path: &Path,
    max_line_bytes: usize,
    mut each: impl FnMut(usize, &str) -> Result<(), Error>,
) -> Result<(), Error> {
    let name = path.display();
    let reader: Box<dyn std::io::BufRead> = if crate::output::is_stdout(path) {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
        Box::new(std::io::BufReader::with_capacity(1 << 16, f))
    };
    let mut lines = auc_data::Lines::new(reader, max_line_bytes);
    loop {
        let (no, bytes) = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => return Ok(()),
            Err(e @ auc_data::LineReadError::TooLong { .. }) => {
                return Err(format!("{name}:{e}").into());
            }
            Err(e) => return Err(format!("{name}: {e}").into()),
        };
        let text = std::str::from_utf8(bytes).map_err(|e| {
            format!(
                "{name}:{no}:{}: not UTF-8 text: expected numbers",
                e.valid_up_to() + 1
            )
        })?;
        each(no, text)?;
    }
}
