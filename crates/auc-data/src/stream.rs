//! Reading a data file chunk by chunk: [`RowStream`], the one parser behind every reader.
//!
//! A stream reads rows from any [`BufRead`] (a file, standard input, a byte slice; gzip is
//! decompressed on the way) in the formats, with the options and with the error messages of the
//! whole-file readers, which are a stream read to its end. Memory is bounded by one chunk: the rows
//! asked for, the reader's buffers (64 KiB each), and one line or CSV record.
//!
//! A stream does not announce its dimension: [`RowStream::dim`] is the largest index seen so far
//! (LIBSVM) unless [`crate::ReadOptions::dim`] or [`crate::ReadOptions::hash_bits`] fixes it. Each
//! chunk has the dimension reached at its end, so later chunks may be wider.

use std::io::{BufRead, Read};
use std::path::Path;

use crate::columnar::{ColumnarParser, Source};
use crate::csv::CsvParser;
use crate::input::{BoxedReader, Decoded, io_error, open_tallied};
use crate::libsvm::{Csr, LibsvmParser};
use crate::options::name_ext;
use crate::raw::Parts;
use crate::table::{Schema, Survey};
use crate::{DataError, Format, RawData, ReadOptions, Reading};

enum Parser<R> {
    Libsvm(Box<LibsvmParser<R>>),
    Csv(Box<CsvParser<R>>),
    /// Parquet or Arrow IPC: the parser owns its file (or the bytes read from the reader).
    Columnar(Box<ColumnarParser>),
}

/// An incremental reader of LIBSVM or CSV rows: yields chunks of rows as [`RawData`] (labels as
/// written, CSR or dense rows), in memory bounded by the chunk.
///
/// ```
/// use auc_data::{Positive, ReadOptions, RowStream};
/// let text = "1 1:0.5\n-1 3:2\n1 2:1\n";
/// let mut stream = RowStream::new(text.as_bytes(), "inline", &ReadOptions::default()).unwrap();
/// let first = stream.next_chunk(2).unwrap().unwrap();
/// assert_eq!((first.n(), first.dim(), stream.dim()), (2, 3, 3));
/// // A chunk is binarized with a positive class fixed beforehand.
/// let data = first.binarize(&Positive::Known(vec![1.0])).unwrap();
/// assert_eq!(data.class_counts(), (1, 1));
/// let last = stream.next_chunk(2).unwrap().unwrap();
/// assert_eq!(last.n(), 1);
/// assert!(stream.next_chunk(2).unwrap().is_none());
/// assert_eq!((stream.rows_read(), stream.bytes_read()), (3, text.len() as u64));
/// ```
pub struct RowStream<R> {
    source: String,
    parser: Parser<R>,
    reading: Reading,
    /// Whether chunks are stored as CSR (LIBSVM, or CSV with hashing).
    sparse: bool,
    /// Rows still allowed by the limit.
    left: usize,
    rows: usize,
    len: Option<u64>,
}

impl<R: BufRead> RowStream<R> {
    /// A stream of the rows of `reader`, named `source` in errors, in the format `opts.format`
    /// resolves to for that name ([`Format::for_file`]: `x.csv`, `x.tsv.gz` are CSV, `x.parquet`
    /// Parquet, `x.arrow` Arrow IPC, anything else LIBSVM; a `.tsv` name switches the default
    /// comma to a tab). A Parquet or Arrow IPC reader is read into memory first (a Parquet
    /// file's index is at its end): [`RowStream::open`] reads such files from disk instead.
    ///
    /// gzip input is recognized by its magic bytes and decompressed. A CSV stream reads its first
    /// record here, so [`RowStream::reading`] is resolved (label column, header) before the first
    /// chunk; a LIBSVM stream with [`crate::ZeroBased::Auto`] reads its first lines here to
    /// decide whether its indices are 0-based (a reader cannot be scanned whole first:
    /// [`RowStream::open`] does that for files). Errors: invalid `opts` (hash bits, a `dim` that
    /// contradicts them), an unreadable or corrupt start of input, a bad CSV header.
    pub fn new(reader: R, source: &str, opts: &ReadOptions) -> Result<Self, DataError> {
        let format = Format::for_file(opts, source);
        let mut opts = opts.clone();
        if opts.format == Format::Auto
            && name_ext(source).as_deref() == Some("tsv")
            && opts.csv.delimiter == b','
        {
            opts.csv.delimiter = b'\t';
        }
        Self::with_format(reader, source, format, &opts)
    }

    /// A stream in `format` (LIBSVM unless another one) whatever the name says.
    pub(crate) fn with_format(
        reader: R,
        source: &str,
        format: Format,
        opts: &ReadOptions,
    ) -> Result<Self, DataError> {
        let fixed_dim = opts.fixed_dim()?;
        let crosses = opts.crosses()?;
        let mut input = Decoded::new(reader, source)?;
        if format.is_columnar() {
            let mut bytes = Vec::new();
            input
                .read_to_end(&mut bytes)
                .map_err(|e| io_error(source, input.is_gzip(), e))?;
            return Self::columnar(&Source::Memory(bytes.into()), source, format, opts);
        }
        let (parser, reading, sparse) = if format == Format::Csv {
            let p = CsvParser::new(input, source, opts, fixed_dim, crosses)?;
            let reading = p.reading();
            let sparse = p.prefers_sparse();
            (Parser::Csv(Box::new(p)), reading, sparse)
        } else {
            let p = LibsvmParser::new(input, source, opts, fixed_dim, crosses);
            let reading = Reading::libsvm(p.zero_based());
            (Parser::Libsvm(Box::new(p)), reading, true)
        };
        Ok(Self {
            source: source.to_string(),
            parser,
            reading,
            sparse,
            left: opts.limit.unwrap_or(usize::MAX),
            rows: 0,
            len: None,
        })
    }

    /// A stream of the Parquet or Arrow IPC file at `src`, read by `opts.schema`, or without
    /// one by the schema a survey of the file alone fits (so such a file is always a table;
    /// several training files are surveyed together by [`ReadOptions::surveyed`] first).
    fn columnar(
        src: &Source,
        source: &str,
        format: Format,
        opts: &ReadOptions,
    ) -> Result<Self, DataError> {
        let fixed_dim = opts.fixed_dim()?;
        let crosses = opts.crosses()?;
        let mut opts = opts.clone();
        if opts.schema.is_none() {
            let mut p = ColumnarParser::new(src, source, format, &opts, None, None)?;
            let mut survey = Survey::new(p.names().to_vec(), p.label_index());
            p.survey(source, &mut survey)?;
            let schema = Schema::from_survey(&survey, &opts.csv.table)
                .map_err(|e| DataError::Table(format!("{source}: {e}")))?;
            opts.schema = Some(Box::new(schema));
        }
        let p = ColumnarParser::new(src, source, format, &opts, fixed_dim, crosses)?;
        Ok(Self {
            source: source.to_string(),
            reading: p.reading(),
            sparse: p.prefers_sparse(),
            parser: Parser::Columnar(Box::new(p)),
            left: opts.limit.unwrap_or(usize::MAX),
            rows: 0,
            len: None,
        })
    }

    /// Replaces `chunk`'s rows by the next at most `max_rows` rows, reusing its buffers, and returns
    /// how many: 0 (an empty chunk) only at the end of the input or of the limit, or when
    /// `max_rows` is 0. The chunk's dimension is [`RowStream::dim`] after those rows.
    ///
    /// An error (malformed row, I/O, corrupt gzip) names the file, line and column as the
    /// whole-file readers do; the stream should not be read further after one.
    pub fn read_chunk(&mut self, chunk: &mut RawData, max_rows: usize) -> Result<usize, DataError> {
        chunk.reset(self.sparse, &self.reading);
        let max_rows = max_rows.min(self.left);
        let (labels, parts) = chunk.parts_mut();
        let rows = match (&mut self.parser, parts) {
            (
                Parser::Libsvm(p),
                Parts::Sparse {
                    indptr,
                    indices,
                    values,
                },
            ) => {
                let mut out = Csr {
                    labels,
                    indptr,
                    indices,
                    values,
                };
                p.read_rows(&self.source, &mut out, max_rows)?
            }
            (Parser::Csv(p), parts) => p.read_rows(&self.source, labels, parts, max_rows)?,
            (Parser::Columnar(p), parts) => p.read_rows(&self.source, labels, parts, max_rows)?,
            // `reset` gave LIBSVM chunks sparse storage.
            (Parser::Libsvm(_), Parts::Dense { .. }) => 0,
        };
        self.left -= rows;
        self.rows += rows;
        let dim = self.dim();
        chunk.set_dim(dim);
        Ok(rows)
    }

    /// The next at most `max_rows` rows (at least one) as a new [`RawData`], or `None` at the end.
    pub fn next_chunk(&mut self, max_rows: usize) -> Result<Option<RawData>, DataError> {
        let mut chunk = RawData::from_csr(Vec::new(), 0, vec![0], Vec::new(), Vec::new());
        Ok((self.read_chunk(&mut chunk, max_rows)? > 0).then_some(chunk))
    }

    /// Every remaining row (up to the limit) as one [`RawData`] of the final dimension.
    pub fn read_all(mut self) -> Result<RawData, DataError> {
        let mut all = RawData::from_csr(Vec::new(), 0, vec![0], Vec::new(), Vec::new());
        self.read_chunk(&mut all, usize::MAX)?;
        Ok(all)
    }

    /// The dimension so far: the one given or fixed by hashing, else the largest index seen
    /// (LIBSVM, explicit zeros included) or the number of feature columns (CSV).
    pub fn dim(&self) -> usize {
        match &self.parser {
            Parser::Libsvm(p) => p.dim(),
            Parser::Csv(p) => p.dim(),
            Parser::Columnar(p) => p.dim(),
        }
    }

    /// Rows read so far.
    pub fn rows_read(&self) -> usize {
        self.rows
    }

    /// Bytes taken from the underlying reader so far: compressed bytes for gzip input, comparable
    /// with [`RowStream::total_bytes`]. Readers buffer, so this runs up to a buffer ahead of the
    /// rows returned.
    pub fn bytes_read(&self) -> u64 {
        match &self.parser {
            Parser::Libsvm(p) => p.consumed(),
            Parser::Csv(p) => p.consumed(),
            Parser::Columnar(p) => p.consumed(),
        }
    }

    /// The size of the file being read, when it is a regular file opened by [`RowStream::open`].
    pub fn total_bytes(&self) -> Option<u64> {
        self.len
    }

    /// How the input is read: LIBSVM (0-based or not), or CSV with its resolved layout.
    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// The name of the input used in errors.
    pub fn source(&self) -> &str {
        &self.source
    }
}

impl<R: BufRead> RowStream<R> {
    /// Whether the rows carry labels: always, except a file read by a table's schema that lacks
    /// the label column (rows to score, whose labels read as -1).
    pub fn labelled(&self) -> bool {
        match &self.parser {
            Parser::Csv(p) => p.labelled(),
            Parser::Columnar(p) => p.labelled(),
            Parser::Libsvm(_) => true,
        }
    }

    /// The file's columns that a table's schema does not use (empty otherwise).
    pub fn ignored_columns(&self) -> &[String] {
        match &self.parser {
            Parser::Csv(p) => p.ignored_columns(),
            Parser::Columnar(p) => p.ignored_columns(),
            Parser::Libsvm(_) => &[],
        }
    }
}

impl ReadOptions {
    /// These options with the schema of the CSV files at `paths` (the training files, in order)
    /// fitted by a survey of their rows (one pass; SPEC 11), when they are CSV files with a header
    /// and no schema is set yet; else these options unchanged (LIBSVM, standard input, which is
    /// read once, files without a header, whose columns have no names and whose cells must be
    /// numbers). Every file must have the first one's columns.
    ///
    /// # Errors
    /// Those of reading the files; columns that differ between files; those of
    /// [`crate::table::Schema::from_survey`].
    pub fn surveyed(&self, paths: &[&Path]) -> Result<ReadOptions, DataError> {
        Ok(self
            .survey_tables(paths)?
            .map_or_else(|| self.clone(), |(o, _)| o))
    }

    /// [`ReadOptions::surveyed`], with the ranges of the encoded rows the survey gives
    /// ([`crate::table::Schema::ranges`]), so that scaling needs no pass of its own; `None`
    /// when the files are not tables (and the options stay as they are).
    ///
    /// # Errors
    /// Those of [`ReadOptions::surveyed`].
    pub fn survey_tables(
        &self,
        paths: &[&Path],
    ) -> Result<Option<(ReadOptions, Option<crate::FeatureRanges>)>, DataError> {
        let Some(first) = paths.first() else {
            return Ok(None);
        };
        let table_file = |p: &Path| {
            let name = p.display().to_string();
            name != crate::STDIN
                && matches!(
                    Format::for_file(self, &name),
                    Format::Csv | Format::Parquet | Format::Arrow
                )
        };
        if self.schema.is_some() || !paths.iter().all(|p| table_file(p)) {
            return Ok(None);
        }
        let mut survey: Option<Survey> = None;
        let mut delimiter = self.csv.delimiter;
        let differ = |name: &str| {
            DataError::Table(format!(
                "{name}: its columns differ from those of {}: the files of one training run share their columns",
                first.display()
            ))
        };
        for path in paths {
            let name = path.display().to_string();
            let format = Format::for_file(self, &name);
            if format.is_columnar() {
                let src = Source::Path(path.to_path_buf());
                let mut p = ColumnarParser::new(&src, &name, format, self, None, None)?;
                let names = p.names().to_vec();
                let s = survey.get_or_insert_with(|| Survey::new(names.clone(), p.label_index()));
                if s.names() != names {
                    return Err(differ(&name));
                }
                p.survey(&name, s)?;
                continue;
            }
            let mut stream = RowStream::open(path, self)?;
            let Parser::Csv(p) = &mut stream.parser else {
                return Ok(None);
            };
            let (label, names) = p.label_and_names();
            let Some(names) = names else {
                return Ok(None);
            };
            let s = survey.get_or_insert_with(|| Survey::new(names.to_vec(), label));
            if s.names() != names {
                return Err(differ(&name));
            }
            p.survey(&name, s, &self.csv.table.na)?;
            delimiter = p.layout().delimiter;
        }
        let survey = survey.expect("one file at least");
        let schema = Schema::from_survey(&survey, &self.csv.table)
            .map_err(|e| DataError::Table(format!("{}: {e}", first.display())))?;
        let ranges = schema.ranges(&survey);
        let mut out = self.clone();
        out.schema = Some(Box::new(schema));
        // A `.tsv` name's tab, resolved by the stream, is the delimiter of every later pass.
        out.csv.delimiter = delimiter;
        Ok(Some((out, ranges)))
    }
}

impl RowStream<Box<dyn BufRead + Send>> {
    /// A stream of the file at `path`, or of standard input when `path` is `-`; the format comes
    /// from `opts.format` and the name ([`RowStream::new`]), gzip from the content. With
    /// [`crate::ZeroBased::Auto`] a regular LIBSVM file is scanned for an index 0 first
    /// ([`ReadOptions::zero_based_for`]).
    pub fn open(path: &Path, opts: &ReadOptions) -> Result<Self, DataError> {
        let name = path.display().to_string();
        opts.fixed_dim()?;
        let format = Format::for_file(opts, &name);
        if format.is_columnar() && name != crate::STDIN {
            let src = Source::Path(path.to_path_buf());
            let mut stream = Self::columnar(&src, &name, format, opts)?;
            stream.len = std::fs::metadata(path)
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len());
            return Ok(stream);
        }
        let opts = opts.zero_based_for(&[path]);
        let (reader, len): (BoxedReader, Option<u64>) = open_tallied(path, opts.tallies.as_ref())?;
        let mut stream = RowStream::new(reader, &name, &opts)?;
        stream.len = len;
        Ok(stream)
    }
}

/// Reads LIBSVM text from `reader` (plain or gzip), line by line into one reused buffer.
///
/// `source` names the input in errors. Honours `opts.dim` (every index must be at most `dim`, and
/// the result has exactly that dimension), `opts.limit` (stop after that many examples),
/// `opts.hash_bits`, `opts.cross_bits` and `opts.zero_based` (`Auto`: decided on the first
/// lines, as for standard input); `opts.format` and `opts.csv` are ignored. Lines are read as bytes, so invalid
/// UTF-8 is reported as a parse error at its column (or ignored inside a comment), never as a
/// panic. The same parser reads chunk by chunk through [`RowStream`].
pub fn read_libsvm<R: BufRead>(
    reader: R,
    source: &str,
    opts: &ReadOptions,
) -> Result<RawData, DataError> {
    RowStream::with_format(reader, source, Format::Libsvm, opts)?.read_all()
}

/// Reads delimited numeric text from `reader` (plain or gzip); see the module docs for the format.
///
/// `opts.csv` picks the delimiter, the header rule and the label column; `opts.dim` widens the rows
/// (an error if the file has more features); `opts.limit` stops after that many examples;
/// `opts.hash_bits` folds the feature columns and `opts.cross_bits` adds their crosses (the rows
/// are then stored as CSR). The label column
/// is taken out and the remaining columns, in order, are the features. Storage is dense without
/// hashing. [`RawData::reading`] gives the resolved layout and the header names.
pub fn read_csv<R: BufRead>(
    reader: R,
    source: &str,
    opts: &ReadOptions,
) -> Result<RawData, DataError> {
    RowStream::with_format(reader, source, Format::Csv, opts)?.read_all()
}

/// Reads the file at `path`, or standard input when `path` is `-`, in the format `opts.format`
/// says (see [`Format::Auto`]); gzip input is decompressed whatever its name.
///
/// Errors name the file as `path` displays (`-` for standard input).
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<RawData, DataError> {
    RowStream::open(path, opts)?.read_all()
}
