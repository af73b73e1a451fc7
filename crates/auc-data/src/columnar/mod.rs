//! Parquet and Arrow IPC files (SPEC 11): typed columns with names, always read as a table.
//!
//! A file is read by column name a record batch at a time (Parquet: batches of a row group;
//! Arrow IPC: the file's own batches), so memory is bounded by a batch, not the file: only the
//! columns a table's schema uses are decoded (a scoring file's extra columns are never read,
//! whatever their type). Each row's cells ([`cells`]) are encoded by the schema as a CSV
//! record's are, and appended to the chunk the same way ([`crate::rows::append_row`]).
//!
//! Without a schema the parser reads every column for a survey ([`ColumnarParser::survey`]),
//! the label column found by [`crate::CsvOptions::label`] as in a CSV header.
//!
//! A Parquet file needs its footer first, so it is read from a file (seeking), or from memory
//! when it comes through a reader ([`Source::Memory`], standard input). Arrow IPC is read in its
//! file format (Feather v2, `ARROW1` magic) or its stream format.

mod cells;

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::PathBuf;

use arrow_array::RecordBatch;
use arrow_ipc::reader::{FileReader, StreamReader};
use arrow_schema::{ArrowError, DataType};
use bytes::Bytes;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use self::cells::{Column, kind};
use crate::cross::Crosses;
use crate::hashing::Hashed;
use crate::names::column_by_name;
use crate::options::label_by_name;
use crate::raw::Parts;
use crate::rows::append_row;
use crate::table::{Binding, Cell, Encoding, Schema, Survey};
use crate::{
    ColumnarError, DataError, Format, LabelColumn, ParseErrorKind, ReadOptions, Reading,
    TableReading,
};

/// Rows per record batch asked of the Parquet reader: large enough that the per-batch costs
/// vanish, small enough that a batch of a wide file stays a few megabytes.
const BATCH_ROWS: usize = 16_384;

/// Where a Parquet or Arrow IPC file's bytes are: a file (read as needed, seeking), or memory.
#[derive(Clone, Debug)]
pub(crate) enum Source {
    /// A file, opened anew for each pass.
    Path(PathBuf),
    /// The whole file's bytes (read from standard input or another reader).
    Memory(Bytes),
}

type Batches = Box<dyn Iterator<Item = Result<RecordBatch, ArrowError>> + Send>;

/// What opening a file told about it.
struct Opened {
    batches: Batches,
    names: Vec<String>,
    /// Parquet: the rows of each row group.
    groups: Vec<u64>,
    /// Arrow IPC file format: its number of record batches.
    total_batches: Option<usize>,
    len: u64,
}

/// A table's schema bound to this file's columns, and the row it encodes into.
struct Table {
    schema: Box<Schema>,
    binding: Binding,
    row: Vec<f64>,
}

/// Reads the rows of a Parquet or Arrow IPC file, a record batch at a time.
pub(crate) struct ColumnarParser {
    format: Format,
    batches: Batches,
    names: Vec<String>,
    /// The file columns read, in the order of the batches' columns, and each one's cells.
    read: Vec<usize>,
    columns: Vec<Column>,
    /// Rows of the current batch, the next one to take, and the file row of its first.
    batch_rows: usize,
    at: usize,
    batch_start: u64,
    batches_read: usize,
    finished: bool,
    groups: Vec<u64>,
    total_batches: Option<usize>,
    len: u64,
    /// The label's column without a schema (a survey); `usize::MAX` with one.
    label: usize,
    table: Option<Table>,
    dim: usize,
    delimiter: u8,
    hash_mask: Option<u32>,
    crosses: Option<Crosses>,
    bounded: bool,
    scratch: Vec<Hashed>,
}

impl ColumnarParser {
    /// A parser of `source` (named `file` in errors) in `format` (Parquet or Arrow IPC). With
    /// `opts.schema` the file's columns are bound to it by name and only the columns it uses
    /// are read; without, every column is read (for a survey) and the label column is found
    /// as in a CSV header.
    ///
    /// # Errors
    /// A file that is not of its format (or damaged); a used column of a type a table does not
    /// read, named with its type; a column the schema needs and the file lacks; no label column.
    pub(crate) fn new(
        source: &Source,
        file: &str,
        format: Format,
        opts: &ReadOptions,
        fixed_dim: Option<usize>,
        crosses: Option<Crosses>,
    ) -> Result<ColumnarParser, DataError> {
        let mut plan = None;
        let opened = open(source, file, format, &mut |names, types| {
            let p = Plan::new(names, types, file, opts)?;
            let read = p.read.clone();
            plan = Some(p);
            Ok(read)
        })?;
        let Plan {
            read,
            label,
            binding,
            words,
        } = plan.expect("the plan is made while opening");
        let columns = words.into_iter().map(Column::new).collect();
        let mut dim = 0;
        let table = match (&opts.schema, binding) {
            (Some(schema), Some(binding)) => {
                let found = schema.dim();
                if let (Some(d), None) = (opts.base_dim()?, opts.hash_bits)
                    && d < found
                {
                    return Err(DataError::Table(format!(
                        "{file}: {}",
                        ParseErrorKind::TooManyFeatures { found, dim: d }
                    )));
                }
                dim = fixed_dim.unwrap_or(found);
                Some(Table {
                    schema: schema.clone(),
                    binding,
                    row: vec![0.0; found],
                })
            }
            _ => None,
        };
        Ok(ColumnarParser {
            format,
            batches: opened.batches,
            names: opened.names,
            read,
            columns,
            batch_rows: 0,
            at: 0,
            batch_start: 0,
            batches_read: 0,
            finished: false,
            groups: opened.groups,
            total_batches: opened.total_batches,
            len: opened.len,
            label,
            table,
            dim,
            delimiter: opts.csv.delimiter,
            hash_mask: opts.hash_bits.map(|b| (1u32 << b) - 1),
            crosses,
            bounded: opts.bounded_values,
            scratch: Vec::new(),
        })
    }

    /// The file's column names.
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// The label's column, as found without a schema.
    pub(crate) fn label_index(&self) -> usize {
        self.label
    }

    /// How the file is read: as a table by its schema (the CSV delimiter of the options kept,
    /// so a model trained on Parquet equals one trained on the same rows in CSV).
    pub(crate) fn reading(&self) -> Reading {
        match &self.table {
            Some(t) => Reading::Table(TableReading {
                delimiter: self.delimiter,
                schema: (*t.schema).clone(),
            }),
            None => Reading::Libsvm,
        }
    }

    /// Whether rows are better stored as CSR (as [`crate::csv`] decides for a table).
    pub(crate) fn prefers_sparse(&self) -> bool {
        let found = self.table.as_ref().map_or(0, |t| t.schema.dim());
        self.hash_mask.is_some() || self.crosses.is_some() || self.dim > found.saturating_mul(4)
    }

    /// The dimension of every row.
    pub(crate) fn dim(&self) -> usize {
        self.dim
    }

    /// Whether rows carry labels: not when the file lacks the schema's label column.
    pub(crate) fn labelled(&self) -> bool {
        self.table.as_ref().is_none_or(|t| t.binding.labelled())
    }

    /// The file's columns the schema does not use.
    pub(crate) fn ignored_columns(&self) -> &[String] {
        self.table.as_ref().map_or(&[], |t| t.binding.ignored())
    }

    /// The bytes of the file read so far, estimated from the rows or batches taken (a columnar
    /// file is not read front to back): for a progress display.
    pub(crate) fn consumed(&self) -> u64 {
        if self.finished {
            return self.len;
        }
        let share = match (self.groups.iter().sum::<u64>(), self.total_batches) {
            (rows, _) if rows > 0 => (self.batch_start + self.at as u64) as f64 / rows as f64,
            (_, Some(b)) if b > 0 => self.batches_read as f64 / b as f64,
            _ => 0.0,
        };
        (self.len as f64 * share.min(1.0)) as u64
    }

    /// Appends up to `max_rows` rows to `labels` and `parts`; returns how many (0 at the end).
    pub(crate) fn read_rows(
        &mut self,
        source: &str,
        labels: &mut Vec<f64>,
        mut parts: Parts<'_>,
        max_rows: usize,
    ) -> Result<usize, DataError> {
        if self.table.is_none() {
            return Ok(0);
        }
        let mut rows = 0;
        while rows < max_rows {
            if self.at == self.batch_rows && !self.next_batch(source)? {
                break;
            }
            let label = self.row(source)?;
            let t = self.table.as_ref().expect("checked above");
            if let Err(kind) = append_row(
                &t.row,
                self.dim,
                &mut parts,
                &mut self.scratch,
                self.hash_mask,
                self.crosses.as_mut(),
            ) {
                return Err(self.error(source, None, kind));
            }
            labels.push(label);
            self.at += 1;
            rows += 1;
        }
        Ok(rows)
    }

    /// Encodes row `self.at` of the batch into the table's row; returns its label.
    fn row(&mut self, source: &str) -> Result<f64, DataError> {
        let i = self.at;
        let t = self.table.as_mut().expect("a row needs the table");
        t.row.fill(0.0);
        let mut label = -1.0;
        for (c, &k) in self.read.iter().enumerate() {
            let cell = self.columns[c].cell(i);
            let problem = match cell {
                Ok(Cell::Number(x)) if self.bounded && x.abs() > crate::MAX_BOUNDED_VALUE => {
                    Some(ParseErrorKind::ValueTooLarge)
                }
                Ok(cell) => t
                    .binding
                    .encode(&t.schema, k, cell, &mut label, &mut t.row)
                    .err()
                    .map(ParseErrorKind::Cell),
                Err(_) if t.binding.is_label(k) => Some(ParseErrorKind::NonFiniteLabel),
                Err(kind) => Some(kind),
            };
            if let Some(kind) = problem {
                return Err(self.error(source, Some(k), kind));
            }
        }
        Ok(label)
    }

    /// Counts every remaining row into `survey` (a survey of [`ColumnarParser::names`] with
    /// the label at [`ColumnarParser::label_index`]).
    pub(crate) fn survey(&mut self, source: &str, survey: &mut Survey) -> Result<(), DataError> {
        loop {
            if self.at == self.batch_rows && !self.next_batch(source)? {
                return Ok(());
            }
            for (c, &k) in self.read.iter().enumerate() {
                let cell = match self.columns[c].cell(self.at) {
                    Ok(cell) => cell,
                    Err(_) if k == self.label => {
                        return Err(self.error(source, Some(k), ParseErrorKind::NonFiniteLabel));
                    }
                    Err(kind) => return Err(self.error(source, Some(k), kind)),
                };
                if k != self.label {
                    survey.cell(k, cell);
                } else if !survey.label(cell) {
                    let column = self.names[k].clone();
                    let kind =
                        ParseErrorKind::Cell(crate::table::CellProblem::MissingLabel { column });
                    return Err(self.error(source, Some(k), kind));
                }
            }
            survey.end_row();
            self.at += 1;
        }
    }

    /// Takes the next batch that has rows; `false` at the end of the file.
    fn next_batch(&mut self, source: &str) -> Result<bool, DataError> {
        loop {
            self.batch_start += self.batch_rows as u64;
            self.batch_rows = 0;
            self.at = 0;
            let Some(batch) = self.batches.next() else {
                self.finished = true;
                return Ok(false);
            };
            let batch = batch.map_err(|e| {
                let place = match self.format {
                    Format::Parquet => format!("row group {}", self.group_of(self.batch_start).0),
                    _ => format!("record batch {}", self.batches_read),
                };
                damaged(source, self.format, &format!("{place}: {e}"))
            })?;
            self.batches_read += 1;
            for (c, column) in self.columns.iter_mut().enumerate() {
                column.load(batch.column(c).as_ref());
            }
            self.batch_rows = batch.num_rows();
            if self.batch_rows > 0 {
                return Ok(true);
            }
        }
    }

    /// The row group of file row `row`, and the row within it.
    fn group_of(&self, row: u64) -> (usize, u64) {
        let mut first = 0;
        for (g, &n) in self.groups.iter().enumerate() {
            if row < first + n {
                return (g, row - first);
            }
            first += n;
        }
        (self.groups.len(), row - first)
    }

    /// The error at the current row, in column `k` (else the row's first column read).
    fn error(&self, source: &str, k: Option<usize>, kind: ParseErrorKind) -> DataError {
        let row = self.batch_start + self.at as u64;
        let place = match self.format {
            Format::Parquet => {
                let (g, r) = self.group_of(row);
                format!("row group {g}, row {r}")
            }
            _ => format!(
                "record batch {}, row {}",
                self.batches_read.saturating_sub(1),
                self.at
            ),
        };
        let k = k.or_else(|| self.read.first().copied());
        DataError::Columnar(Box::new(ColumnarError {
            file: source.to_owned(),
            row,
            place,
            column: k.map_or_else(String::new, |k| self.names[k].clone()),
            kind,
        }))
    }
}

/// Which columns of a file are read, and how.
struct Plan {
    read: Vec<usize>,
    label: usize,
    binding: Option<Binding>,
    /// Per column read: the words its booleans read as, if any.
    words: Vec<Option<[String; 2]>>,
}

impl Plan {
    fn new(
        names: &[String],
        types: &[DataType],
        file: &str,
        opts: &ReadOptions,
    ) -> Result<Plan, DataError> {
        let (read, label, binding) = match &opts.schema {
            Some(schema) => {
                let binding = Binding::new(schema, names, file)?;
                let read: Vec<usize> = (0..names.len()).filter(|&k| binding.used(k)).collect();
                (read, usize::MAX, Some(binding))
            }
            None => {
                let label = label_column(&opts.csv.label, names)
                    .map_err(|kind| DataError::Table(format!("{file}: {kind}")))?;
                ((0..names.len()).collect(), label, None)
            }
        };
        let mut words = Vec::with_capacity(read.len());
        for &k in &read {
            let Some(what) = kind(&types[k]) else {
                return Err(DataError::Table(format!(
                    "{file}: column \"{}\" is of type {}, which a table does not read (it reads integer, float, boolean, string and dictionary-of-string columns): cast it to one of those, or drop the column",
                    names[k], types[k]
                )));
            };
            let is_label = match &binding {
                Some(b) => b.is_label(k),
                None => k == label,
            };
            words.push(match (what, &opts.schema, &binding) {
                (cells::Kind::Flag, Some(s), Some(b)) => bool_words(s, b, k),
                (cells::Kind::Flag, _, _) if is_label => Some(spelled(std::iter::empty())),
                _ => None,
            });
        }
        Ok(Plan {
            read,
            label,
            binding,
            words,
        })
    }
}

/// The words a boolean column reads as where a schema wants text: the label, or a category
/// list that holds the words true or false (a model trained on a CSV file that spelled them
/// out), spelled as training spelled them (`True` from pandas).
fn bool_words(schema: &Schema, binding: &Binding, k: usize) -> Option<[String; 2]> {
    if binding.is_label(k) {
        return Some(spelled(schema.label.counts.iter().map(|(v, _)| v)));
    }
    let j = binding.column_of(k)?;
    match &schema.columns[j].encoding {
        Encoding::OneHot { kept, .. }
            if kept
                .iter()
                .any(|v| v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("false")) =>
        {
            Some(spelled(kept.iter()))
        }
        _ => None,
    }
}

/// `false` and `true`, or the spelling of them among `values` (compared ignoring case).
fn spelled<'a>(values: impl Iterator<Item = &'a String>) -> [String; 2] {
    let mut words = ["false".to_owned(), "true".to_owned()];
    for v in values {
        for w in &mut words {
            if v.eq_ignore_ascii_case(w) {
                w.clone_from(v);
            }
        }
    }
    words
}

/// The label column `label` names among `names` (as for a CSV header).
fn label_column(label: &LabelColumn, names: &[String]) -> Result<usize, ParseErrorKind> {
    let fields = names.len();
    match label {
        LabelColumn::Index(i) if *i < fields => Ok(*i),
        LabelColumn::Index(i) => Err(ParseErrorKind::LabelColumnOutOfRange { index: *i, fields }),
        LabelColumn::Last if fields > 0 => Ok(fields - 1),
        LabelColumn::Last | LabelColumn::Auto => {
            label_by_name(names).ok_or_else(|| ParseErrorKind::NoLabelColumn {
                columns: names.to_vec(),
            })
        }
        LabelColumn::Name(name) => {
            column_by_name(name, names).ok_or_else(|| ParseErrorKind::NoSuchColumn {
                name: name.clone(),
                columns: names.to_vec(),
            })
        }
    }
}

/// The error of a file that cannot be read in its format.
fn damaged(file: &str, format: Format, why: &str) -> DataError {
    let what = match format {
        Format::Parquet => "Parquet",
        _ => "Arrow IPC",
    };
    DataError::Io {
        file: file.to_owned(),
        source: io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not a readable {what} file: {why}"),
        ),
    }
}

/// Picks the columns to read from a file's names and types.
type Choose<'a> = dyn FnMut(&[String], &[DataType]) -> Result<Vec<usize>, DataError> + 'a;

/// Opens `source` in `format`; `choose` picks the columns to read from the names and types.
fn open(
    source: &Source,
    file: &str,
    format: Format,
    choose: &mut Choose<'_>,
) -> Result<Opened, DataError> {
    let io_error = |e: io::Error| DataError::Io {
        file: file.to_owned(),
        source: e,
    };
    let bad = |e: &dyn std::fmt::Display| damaged(file, format, &e.to_string());
    if format == Format::Parquet {
        let (builder, len) = match source {
            Source::Path(p) => {
                let f = File::open(p).map_err(io_error)?;
                let len = f.metadata().map_err(io_error)?.len();
                let b = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| bad(&e))?;
                (Either::File(b), len)
            }
            Source::Memory(bytes) => {
                let b =
                    ParquetRecordBatchReaderBuilder::try_new(bytes.clone()).map_err(|e| bad(&e))?;
                (Either::Memory(b), bytes.len() as u64)
            }
        };
        macro_rules! finish {
            ($b:expr) => {{
                let b = $b;
                let (names, types) = fields(b.schema().fields());
                let read = choose(&names, &types)?;
                let groups = b
                    .metadata()
                    .row_groups()
                    .iter()
                    .map(|g| u64::try_from(g.num_rows()).unwrap_or(0))
                    .collect();
                let mask = ProjectionMask::roots(b.parquet_schema(), read.iter().copied());
                let reader = b
                    .with_projection(mask)
                    .with_batch_size(BATCH_ROWS)
                    .build()
                    .map_err(|e| bad(&e))?;
                Opened {
                    batches: Box::new(reader),
                    names,
                    groups,
                    total_batches: None,
                    len,
                }
            }};
        }
        return Ok(match builder {
            Either::File(b) => finish!(b),
            Either::Memory(b) => finish!(b),
        });
    }
    // Arrow IPC: the schema first, then the reader of the chosen columns.
    let (names, types, len) = {
        let (batches, len) = arrow_reader(source, None).map_err(|e| e.into_data(file, format))?;
        let (names, types) = fields(batches.0.fields());
        (names, types, len)
    };
    let read = choose(&names, &types)?;
    let (ipc, _) = arrow_reader(source, Some(read)).map_err(|e| e.into_data(file, format))?;
    Ok(Opened {
        total_batches: ipc.1,
        batches: ipc.2,
        names,
        groups: Vec::new(),
        len,
    })
}

/// A Parquet reader builder over a file or memory.
enum Either {
    File(ParquetRecordBatchReaderBuilder<File>),
    Memory(ParquetRecordBatchReaderBuilder<Bytes>),
}

/// The names and types of a schema's top-level fields.
fn fields(fields: &arrow_schema::Fields) -> (Vec<String>, Vec<DataType>) {
    fields
        .iter()
        .map(|f| (f.name().clone(), f.data_type().clone()))
        .unzip()
}

/// Why an Arrow IPC file could not be opened.
enum OpenError {
    Io(io::Error),
    Arrow(ArrowError),
}

impl OpenError {
    fn into_data(self, file: &str, format: Format) -> DataError {
        match self {
            OpenError::Io(e) => DataError::Io {
                file: file.to_owned(),
                source: e,
            },
            OpenError::Arrow(e) => damaged(file, format, &e.to_string()),
        }
    }
}

/// An Arrow IPC reader's schema, its number of batches (file format) and its batches.
type Ipc = (arrow_schema::SchemaRef, Option<usize>, Batches);

/// The Arrow IPC reader of `source`, in its file format when it starts with the `ARROW1` magic,
/// else in the stream format; and the source's length.
fn arrow_reader(source: &Source, projection: Option<Vec<usize>>) -> Result<(Ipc, u64), OpenError> {
    const MAGIC: &[u8] = b"ARROW1";
    let arrow = OpenError::Arrow;
    match source {
        Source::Path(p) => {
            let mut f = File::open(p).map_err(OpenError::Io)?;
            let len = f.metadata().map_err(OpenError::Io)?.len();
            let mut head = [0u8; 6];
            let n = read_up_to(&mut f, &mut head).map_err(OpenError::Io)?;
            f.seek(SeekFrom::Start(0)).map_err(OpenError::Io)?;
            let f = BufReader::with_capacity(crate::input::BUFFER, f);
            let ipc: Ipc = if head[..n] == *MAGIC {
                let r = FileReader::try_new(f, projection).map_err(arrow)?;
                (r.schema(), Some(r.num_batches()), Box::new(r))
            } else {
                let r = StreamReader::try_new(f, projection).map_err(arrow)?;
                (r.schema(), None, Box::new(r))
            };
            Ok((ipc, len))
        }
        Source::Memory(bytes) => {
            let c = Cursor::new(bytes.clone());
            let ipc: Ipc = if bytes.starts_with(MAGIC) {
                let r = FileReader::try_new(c, projection).map_err(arrow)?;
                (r.schema(), Some(r.num_batches()), Box::new(r))
            } else {
                let r = StreamReader::try_new(c, projection).map_err(arrow)?;
                (r.schema(), None, Box::new(r))
            };
            Ok((ipc, bytes.len() as u64))
        }
    }
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
