//! The settings of a read and its record: [`ReadOptions`] (format, CSV layout, dimension, limit,
//! feature hashing and crosses, LIBSVM's index base) and [`Reading`], how a file was read (for
//! CSV its resolved layout, [`CsvReading`]; for LIBSVM whether 0-based), which model files store
//! so that later files are read the same way.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::cross::{Crosses, MAX_CROSS_BITS};
use crate::error::{DataError, Mismatch, ReadingProblem};
use crate::table::{Schema, TableOptions};
use crate::zero_based::ZeroBased;

/// How to read a data file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadOptions {
    /// The dimension to give the data (so that a test file lines up with its training file). An
    /// index above it is an error. `None`: the file's largest index (LIBSVM) or column count (CSV),
    /// or $2^B$ with feature hashing. With crosses, the dimension of the row's own features,
    /// which the crosses follow.
    pub dim: Option<usize>,
    /// Stop after this many examples.
    pub limit: Option<usize>,
    /// The file format.
    pub format: Format,
    /// CSV settings, used when the format is CSV.
    pub csv: CsvOptions,
    /// Feature hashing with $B$ bits (1 to 31), Vowpal Wabbit's `-b` convention: the 0-based feature
    /// index $j$ becomes $j \mathbin{\\&} (2^B - 1)$, values that land on the same index within a
    /// row are summed (an entry that sums to exactly 0 is dropped), and the dimension is $2^B$.
    /// For files with huge or unbounded index spaces. Indices are still checked as written
    /// (increasing, in the range of `u32`), and `dim`, if given, must be $2^B$. CSV data read with
    /// hashing is stored as CSR.
    pub hash_bits: Option<u8>,
    /// Feature crosses into $2^C$ buckets (1 to [`crate::MAX_CROSS_BITS`]), after the row's own
    /// features: every pair of a row's non-zeros (after hashing) adds its product at index
    /// $d + (\mathrm{fmix64}(i \cdot 2^{32} + j) \bmod 2^C)$, where $d$ is the fixed
    /// dimension ($2^B$ with hashing, else `dim`, which crosses need), and the dimension becomes
    /// $d + 2^C$ ([`crate::Crosses`]). Rows are stored as CSR; a row of more than
    /// [`crate::MAX_CROSS_NNZ`] non-zeros is an error.
    #[serde(default)]
    pub cross_bits: Option<u8>,
    /// The most bytes one line may hold (a LIBSVM line, comment included, or a CSV record, quoted
    /// line breaks included), its line end not counted; a longer line is a
    /// [`crate::ParseErrorKind::LineTooLong`] error raised as soon as the cap is passed, so that no
    /// input (one without line ends, an unterminated quote) is buffered beyond it. Default
    /// [`crate::DEFAULT_MAX_LINE_BYTES`]. A limit of the reader, not of the data: not part of a
    /// [`Reading`].
    #[serde(default = "default_max_line_bytes")]
    pub max_line_bytes: usize,
    /// Refuse a feature value above [`crate::MAX_BOUNDED_VALUE`] in magnitude
    /// ([`crate::ParseErrorKind::ValueTooLarge`]). Set by the commands that learn from the values
    /// as read (no scaling) or from their raw moments, where a larger value's square overflows;
    /// scoring and scaled learning read any finite value. Not part of a [`Reading`].
    #[serde(default)]
    pub bounded_values: bool,
    /// The schema a CSV file with named columns is read by (SPEC 11): fitted by a survey of the
    /// training file ([`ReadOptions::surveyed`]) or taken from a model. `None`: numbers only,
    /// the label column by [`CsvOptions::label`].
    #[serde(default)]
    pub schema: Option<Box<Schema>>,
    /// Whether LIBSVM feature indices count from 0 ([`ZeroBased::Yes`], as scikit-learn's
    /// `dump_svmlight_file` writes them), from 1 ([`ZeroBased::No`], LIBSVM's convention), or,
    /// the default, from 0 exactly when the file holds an index 0 ([`ZeroBased::Auto`], decided
    /// before the first row: see [`crate::ZeroBased`]). Not used for CSV.
    #[serde(default)]
    pub zero_based: ZeroBased,
    /// Where a pass adds a checksum of the bytes it reads from each file (`None`: nowhere), so
    /// that a second pass can tell it read the same bytes. Records a pass, not how a file is
    /// read: never saved, and any two tallies compare equal.
    #[serde(skip)]
    pub tallies: Option<crate::Tallies>,
}

/// The largest feature magnitude read with [`ReadOptions::bounded_values`]: its square is
/// 1e280, so sums of up to 1e28 squares (rows times features, the moments' co-moment, a row's
/// squared norm, a Gaussian kernel's distance) stay below `f64::MAX` (1.8e308). Past
/// $\sqrt{f64::MAX} \approx 1.3 \times 10^{154}$ one square alone overflows, and a learner
/// fed such values unscaled sees infinite norms and learns nothing (or a model that cannot
/// score its own rows).
pub const MAX_BOUNDED_VALUE: f64 = 1e140;

fn default_max_line_bytes() -> usize {
    crate::DEFAULT_MAX_LINE_BYTES
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            dim: None,
            limit: None,
            format: Format::Auto,
            csv: CsvOptions::default(),
            hash_bits: None,
            cross_bits: None,
            max_line_bytes: crate::DEFAULT_MAX_LINE_BYTES,
            bounded_values: false,
            schema: None,
            zero_based: ZeroBased::Auto,
            tallies: None,
        }
    }
}

impl ReadOptions {
    /// The dimension every row is read into: the fixed dimension of the row's own features
    /// ([`ReadOptions::base_dim`]) plus $2^C$ with crosses.
    ///
    /// # Errors
    /// Those of [`ReadOptions::crosses`].
    pub fn fixed_dim(&self) -> Result<Option<usize>, DataError> {
        Ok(match self.crosses()? {
            Some(c) => Some(c.dim()),
            None => self.base_dim()?,
        })
    }

    /// The crossing of rows these options ask for, if any.
    ///
    /// # Errors
    /// Those of [`ReadOptions::base_dim`]; `cross_bits` outside `1..=MAX_CROSS_BITS` or a
    /// crossed dimension past $2^{32}$ ([`DataError::CrossBits`]), or crosses without a fixed
    /// dimension ([`DataError::CrossNeedsDim`]).
    pub fn crosses(&self) -> Result<Option<Crosses>, DataError> {
        let base = self.base_dim()?;
        let Some(bits) = self.cross_bits else {
            return Ok(None);
        };
        if !(1..=MAX_CROSS_BITS).contains(&bits) {
            return Err(DataError::CrossBits { bits });
        }
        let Some(base) = base else {
            return Err(DataError::CrossNeedsDim);
        };
        if (base as u64).saturating_add(1u64 << bits) > 1u64 << 32 {
            return Err(DataError::CrossBits { bits });
        }
        Ok(Some(Crosses::new(base, bits)))
    }

    /// The dimension of the row's own features (before crosses): $2^B$ with hashing, else
    /// [`ReadOptions::dim`].
    ///
    /// # Errors
    /// When `hash_bits` is outside `1..=31` or disagrees with `dim`.
    pub fn base_dim(&self) -> Result<Option<usize>, DataError> {
        let Some(bits) = self.hash_bits else {
            return Ok(self.dim);
        };
        if !(1..=31).contains(&bits) {
            return Err(DataError::HashBits { bits });
        }
        let hashed = 1usize << bits;
        match self.dim {
            Some(dim) if dim != hashed => Err(DataError::HashDim { bits, dim }),
            _ => Ok(Some(hashed)),
        }
    }
}

/// A data file format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// By the name: `.csv` and `.tsv` (any case, also under a `.gz` suffix: `x.csv.gz`) are CSV,
    /// `.parquet` and `.pq` Parquet, `.arrow`, `.arrows`, `.feather` and `.ipc` Arrow IPC,
    /// anything else (standard input too) LIBSVM.
    #[default]
    Auto,
    /// LIBSVM / svmlight text.
    Libsvm,
    /// Delimited numeric text.
    Csv,
    /// Apache Parquet: columns by name, read a row group at a time (SPEC 11).
    Parquet,
    /// Arrow IPC, the file format (Feather v2) or the stream format: columns by name, read a
    /// record batch at a time.
    Arrow,
}

impl Format {
    /// The format of a file named `name`: `self` unless it is [`Format::Auto`], which looks at the
    /// extension (under a trailing `.gz`). Never [`Format::Auto`].
    pub fn resolve(self, name: &str) -> Format {
        match self {
            Format::Auto => match name_ext(name).as_deref() {
                Some("csv" | "tsv") => Format::Csv,
                Some("parquet" | "pq") => Format::Parquet,
                Some("arrow" | "arrows" | "feather" | "ipc") => Format::Arrow,
                _ => Format::Libsvm,
            },
            other => other,
        }
    }

    /// Whether files of this format hold typed columns with names (Parquet, Arrow IPC), which
    /// are always read as a table and need the whole file (not a stream of lines).
    pub fn is_columnar(self) -> bool {
        matches!(self, Format::Parquet | Format::Arrow)
    }

    /// The format a file named `name` is read in by `opts`: [`Format::resolve`], except that
    /// a table's schema (a model's) reads a file named as Parquet or Arrow IPC in that format,
    /// whatever the format of its training file: a model trained on CSV scores Parquet and
    /// back, the columns matched by name.
    pub fn for_file(opts: &ReadOptions, name: &str) -> Format {
        let format = opts.format.resolve(name);
        match Format::Auto.resolve(name) {
            by_name if opts.schema.is_some() && format == Format::Csv && by_name.is_columnar() => {
                by_name
            }
            _ => format,
        }
    }
}

/// The extension of `name` in lower case, looking under a trailing `.gz` (`x.CSV.gz` gives `csv`).
pub(crate) fn name_ext(name: &str) -> Option<String> {
    let path = Path::new(name);
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    if ext != "gz" {
        return Some(ext);
    }
    let inner = Path::new(path.file_stem()?);
    Some(inner.extension()?.to_str()?.to_ascii_lowercase())
}

/// Settings of the CSV reader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CsvOptions {
    /// Which column holds the label.
    pub label: LabelColumn,
    /// Field separator, `b','` by default. [`Format::Auto`] switches the default comma to a tab
    /// for `.tsv` (and `.tsv.gz`) files.
    pub delimiter: u8,
    /// Whether the first record is a header. `None` detects it: the first record is a header when
    /// one of its fields is non-empty and not a number.
    pub header: Option<bool>,
    /// How a file with named columns becomes features: missing-value tokens, categorical
    /// columns, category limits, the positive label values (SPEC 11).
    #[serde(default)]
    pub table: TableOptions,
}

impl CsvOptions {
    /// The delimiter a word names, as the CLI's `--delimiter` and Python's `delimiter=` take it:
    /// `tab` (or `\t` typed as a backslash and a `t`) or one single-byte character; `None` for anything
    /// else.
    pub fn delimiter_from_word(word: &str) -> Option<u8> {
        match word {
            "tab" | "\\t" => Some(b'\t'),
            w if w.len() == 1 => Some(w.as_bytes()[0]),
            _ => None,
        }
    }
}

impl Default for CsvOptions {
    /// Label column by its header name or else column 0 ([`LabelColumn::Auto`]),
    /// comma-separated, header detected.
    fn default() -> Self {
        Self {
            label: LabelColumn::default(),
            delimiter: b',',
            header: None,
            table: TableOptions::default(),
        }
    }
}

/// Which CSV column holds the label.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LabelColumn {
    /// A 0-based column index.
    Index(usize),
    /// The column with this header name (the file must have a header).
    Name(String),
    /// The last column.
    Last,
    /// The default: with a header, the one column named `label`, `class`, `target`, `y`,
    /// `outcome` or `response` (in that order of preference, ignoring case and surrounding
    /// spaces); a header without such a name is refused with the list of its columns
    /// ([`crate::ParseErrorKind::NoLabelColumn`]), never read with its first column as the
    /// label. Without a header, column 0 (LIBSVM's habit).
    Auto,
}

/// The header names [`LabelColumn::Auto`] takes as the label's, most preferred first.
pub const LABEL_NAMES: [&str; 6] = ["label", "class", "target", "y", "outcome", "response"];

/// The column [`LabelColumn::Auto`] chooses among header `names`: the only column with the
/// first of [`LABEL_NAMES`] that exactly one column has (ignoring case and surrounding
/// spaces); `None` when there is none.
pub fn label_by_name(names: &[String]) -> Option<usize> {
    LABEL_NAMES.iter().find_map(|want| {
        let mut hits = names
            .iter()
            .enumerate()
            .filter(|(_, n)| n.trim().eq_ignore_ascii_case(want));
        match (hits.next(), hits.next()) {
            (Some((k, _)), None) => Some(k),
            _ => None,
        }
    })
}

impl LabelColumn {
    /// The column a word names, as the CLI's `--label-column` and Python's `label_column=` take
    /// it: `last`, `auto` ([`LabelColumn::Auto`]), a 0-based index, or else a header name.
    pub fn from_word(word: &str) -> LabelColumn {
        match word {
            "last" => LabelColumn::Last,
            "auto" => LabelColumn::Auto,
            w => w
                .parse::<usize>()
                .map_or_else(|_| LabelColumn::Name(w.to_owned()), LabelColumn::Index),
        }
    }
}

impl Default for LabelColumn {
    /// [`LabelColumn::Auto`].
    fn default() -> Self {
        LabelColumn::Auto
    }
}

/// How a file was read, resolved from its [`ReadOptions`] and its first lines: what a model file
/// stores so that later files are read exactly the same way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reading {
    /// LIBSVM text, indices counted from 1.
    Libsvm,
    /// Delimited text with this layout.
    Csv(CsvReading),
    /// Delimited text with named columns, read by their schema (SPEC 11).
    Table(TableReading),
    /// LIBSVM text, indices counted from 0 (index $j$ is feature $j$). Last, so that the
    /// variant numbers model files store for the others stay as they were.
    LibsvmZeroBased,
}

/// How a file with named columns was read: its delimiter and its schema, which later files are
/// read by (columns matched by name, in any order; the label column may be absent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableReading {
    /// The field delimiter.
    pub delimiter: u8,
    /// The schema fitted on the training rows.
    pub schema: Schema,
}

impl Reading {
    /// The reading of LIBSVM text counted from 0 (`zero_based`) or from 1.
    pub fn libsvm(zero_based: bool) -> Reading {
        match zero_based {
            true => Reading::LibsvmZeroBased,
            false => Reading::Libsvm,
        }
    }

    /// The CSV layout, if the file was CSV.
    pub fn csv(&self) -> Option<&CsvReading> {
        match self {
            Reading::Csv(c) => Some(c),
            Reading::Libsvm | Reading::LibsvmZeroBased | Reading::Table(_) => None,
        }
    }

    /// The schema, when the file was read as a table.
    pub fn schema(&self) -> Option<&Schema> {
        match self {
            Reading::Table(t) => Some(&t.schema),
            Reading::Libsvm | Reading::LibsvmZeroBased | Reading::Csv(_) => None,
        }
    }

    /// The feature names, when the file named its columns.
    pub fn feature_names(&self) -> Option<Vec<String>> {
        match self {
            Reading::Table(t) => Some(t.schema.feature_names()),
            Reading::Csv(c) => c
                .feature_names()
                .map(|n| n.into_iter().map(str::to_owned).collect()),
            Reading::Libsvm | Reading::LibsvmZeroBased => None,
        }
    }

    /// Whether the file was LIBSVM with indices counted from 0.
    pub fn is_zero_based(&self) -> bool {
        matches!(self, Reading::LibsvmZeroBased)
    }

    /// Checks that `found` (the reading of `file`, read after data read as `self`) counts
    /// LIBSVM indices from the same base: input decided on its first lines
    /// ([`ZeroBased::Auto`] on standard input) can differ from the files before it. Other
    /// differences are not looked at ([`CsvReading::check`] compares CSV layouts).
    ///
    /// # Errors
    /// [`DataError::Mismatch`] with [`Mismatch::IndexBase`].
    pub fn check_index_base(&self, found: &Reading, file: &str) -> Result<(), DataError> {
        let libsvm = |r: &Reading| matches!(r, Reading::Libsvm | Reading::LibsvmZeroBased);
        if libsvm(self) && libsvm(found) && self.is_zero_based() != found.is_zero_based() {
            return Err(DataError::Mismatch {
                file: file.to_string(),
                kind: Mismatch::IndexBase {
                    expected_zero_based: self.is_zero_based(),
                },
            });
        }
        Ok(())
    }

    /// Checks a decoded reading (from a model or a moment file) for a layout no file can have:
    /// a CSV label column outside the record, or a header that does not name every field. A
    /// reading of a file without records (`fields == 0`) has no header and may name any label
    /// column, since it was never checked against one. Readings made by the parser always pass.
    ///
    /// # Errors
    /// The first [`ReadingProblem`] found.
    pub fn validate(&self) -> Result<(), ReadingProblem> {
        let c = match self {
            Reading::Csv(c) => c,
            Reading::Libsvm | Reading::LibsvmZeroBased => return Ok(()),
            Reading::Table(t) => return t.schema.validate().map_err(ReadingProblem::Schema),
        };
        let names = c.header.as_ref().map(Vec::len);
        if c.fields == 0 {
            return match names {
                None => Ok(()),
                Some(names) => Err(ReadingProblem::HeaderLength { names, fields: 0 }),
            };
        }
        if c.label_index >= c.fields {
            return Err(ReadingProblem::LabelColumn {
                label_index: c.label_index,
                fields: c.fields,
            });
        }
        match names {
            Some(names) if names != c.fields => Err(ReadingProblem::HeaderLength {
                names,
                fields: c.fields,
            }),
            _ => Ok(()),
        }
    }

    /// The format and CSV settings that read a file this way (label column by index, the same
    /// delimiter, a header only if this reading had one; LIBSVM indices from the same base,
    /// [`ZeroBased::Yes`] or [`ZeroBased::No`]). Dimension, limit and hashing are left to the
    /// caller.
    pub fn options(&self) -> ReadOptions {
        match self {
            Reading::Libsvm => ReadOptions {
                format: Format::Libsvm,
                zero_based: ZeroBased::No,
                ..ReadOptions::default()
            },
            Reading::LibsvmZeroBased => ReadOptions {
                format: Format::Libsvm,
                zero_based: ZeroBased::Yes,
                ..ReadOptions::default()
            },
            Reading::Csv(c) => ReadOptions {
                format: Format::Csv,
                csv: c.options(),
                ..ReadOptions::default()
            },
            Reading::Table(t) => ReadOptions {
                format: Format::Csv,
                csv: CsvOptions {
                    label: LabelColumn::Name(t.schema.label.name.clone()),
                    delimiter: t.delimiter,
                    header: Some(true),
                    table: t.schema.options.clone(),
                },
                schema: Some(Box::new(t.schema.clone())),
                ..ReadOptions::default()
            },
        }
    }
}

/// How a CSV file was read, resolved from the options and the file's first record: what a model
/// file stores so that `predict` reads a file exactly as `train` did ([`CsvReading::options`],
/// [`CsvReading::check`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CsvReading {
    /// The field delimiter.
    pub delimiter: u8,
    /// The 0-based column that holds the label.
    pub label_index: usize,
    /// Columns per record, label included (0 for a file without records).
    pub fields: usize,
    /// Every column name of the header line, label included, or `None` when the file has no
    /// header.
    pub header: Option<Vec<String>>,
}

impl CsvReading {
    /// Whether the file has a header line.
    pub fn has_header(&self) -> bool {
        self.header.is_some()
    }

    /// The label column's name, when there is a header.
    pub fn label_name(&self) -> Option<&str> {
        self.header
            .as_ref()
            .and_then(|h| h.get(self.label_index))
            .map(String::as_str)
    }

    /// The feature columns' names in feature order (the header without the label column), when
    /// there is a header.
    pub fn feature_names(&self) -> Option<Vec<&str>> {
        let header = self.header.as_ref()?;
        Some(
            header
                .iter()
                .enumerate()
                .filter(|&(k, _)| k != self.label_index)
                .map(|(_, name)| name.as_str())
                .collect(),
        )
    }

    /// The CSV options that read a file this way: the label column by index, the delimiter, and a
    /// header exactly when this reading had one.
    pub fn options(&self) -> CsvOptions {
        CsvOptions {
            label: LabelColumn::Index(self.label_index),
            delimiter: self.delimiter,
            header: Some(self.has_header()),
            table: TableOptions::default(),
        }
    }

    /// Checks that `found` (the reading of `file`, typically read with [`CsvReading::options`])
    /// has this layout: the same delimiter, header presence, column count, label column and
    /// column names. The error names the first difference, for names the first differing column.
    /// A file without records (`found.fields == 0`) matches any layout.
    pub fn check(&self, found: &CsvReading, file: &str) -> Result<(), DataError> {
        if found.fields == 0 {
            return Ok(());
        }
        let kind = if self.delimiter != found.delimiter {
            Mismatch::Delimiter {
                expected: self.delimiter,
                found: found.delimiter,
            }
        } else if self.has_header() != found.has_header() {
            Mismatch::Header {
                expected: self.has_header(),
            }
        } else if self.fields != found.fields {
            Mismatch::Columns {
                expected: self.fields,
                found: found.fields,
            }
        } else if self.label_index != found.label_index {
            Mismatch::LabelColumn {
                expected: self.label_index,
                found: found.label_index,
            }
        } else {
            let (Some(want), Some(have)) = (&self.header, &found.header) else {
                return Ok(());
            };
            match want.iter().zip(have).position(|(a, b)| a != b) {
                None => return Ok(()),
                Some(k) => Mismatch::ColumnName {
                    column: k + 1,
                    expected: want[k].clone(),
                    found: have[k].clone(),
                },
            }
        };
        Err(DataError::Mismatch {
            file: file.to_string(),
            kind,
        })
    }
}
