//! Delimited numeric text (CSV, TSV), split by the `csv` crate: one example per record, one column
//! holding the label.
//!
//! Records follow RFC 4180 as the `csv` crate reads it: fields may be quoted (`"y"`, `"1.5"`, a
//! doubled `""` inside quotes is one quote), and `\n`, `\r\n` and `\r` end a record. Every field of
//! a data record is a number; spaces and tabs around a field (inside the quotes, if any) are
//! ignored. Blank lines are skipped, and a UTF-8 byte-order mark at the start is dropped. The first
//! record is a header when [`crate::CsvOptions::header`] says so or, by default, when one of its
//! fields is non-empty and not a number; its names are kept ([`CsvReading::header`]).
//!
//! Columns of [`crate::DataError::Parse`] are byte columns of the line, computed from the record's
//! raw bytes (which the reader keeps until the record is parsed): the first byte of the bad number
//! or of the empty field's content, counting an opening quote; for a short row, just past its end;
//! for a long row, the first extra field. Line breaks inside quoted fields are counted, so the
//! line and column are those of the field's first byte even after a header name that spans lines;
//! only an offset inside such a field is counted from the line the field starts on.

use std::io::{self, BufRead, Read};

use crate::cross::Crosses;
use crate::hashing::{Hashed, fold_hashed};
use crate::input::{BUFFER, Decoded, io_error};
use crate::names::column_by_name;
use crate::number::{Number, whole_number};
use crate::options::label_by_name;
use crate::raw::{Parts, canonical};
use crate::rows::append_row;
use crate::table::{Binding, NaTokens, Schema, Survey, text_cell};
use crate::{
    CsvReading, DataError, LabelColumn, ParseErrorKind, ReadOptions, Reading, TableReading,
};

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// A reader that keeps a copy of the raw bytes it hands to the `csv` crate, from the start of the
/// record being parsed on, so that errors can point at a line and column; and that refuses to
/// hand on more than the line cap (plus the `csv` crate's read-ahead) past the start of the
/// record, so that neither its copy nor the `csv` crate's record grows without bound (an
/// unterminated quote, a file without line ends).
struct Recorder<R> {
    inner: R,
    /// Raw bytes from stream offset `base` on.
    raw: Vec<u8>,
    base: u64,
    /// Stream offset where the record being read starts.
    record_start: u64,
    /// The line cap ([`ReadOptions::max_line_bytes`]).
    max: usize,
    /// Whether a read was refused because the record outgrew the cap.
    too_long: bool,
}

impl<R> Recorder<R> {
    fn new(inner: R, max: usize) -> Self {
        Recorder {
            inner,
            raw: Vec::new(),
            base: 0,
            record_start: 0,
            max,
            too_long: false,
        }
    }
}

impl<R: Read> Read for Recorder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let handed = (self.base + self.raw.len() as u64).saturating_sub(self.record_start);
        // The `csv` crate reads up to one buffer ahead of the record it parses.
        let allowed = (self.max as u64).saturating_add(2 * BUFFER as u64);
        if handed > allowed {
            self.too_long = true;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "record longer than the line limit",
            ));
        }
        let room = usize::try_from(allowed + 1 - handed).unwrap_or(usize::MAX);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want])?;
        self.raw.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl<R> Recorder<R> {
    /// Forgets the bytes before stream offset `to` (the start of the next record), in large steps
    /// so that the cost is amortized.
    fn release(&mut self, to: u64) {
        self.record_start = self.record_start.max(to);
        let k = usize::try_from(to.saturating_sub(self.base)).unwrap_or(usize::MAX);
        let k = k.min(self.raw.len());
        if k >= BUFFER && k * 2 >= self.raw.len() {
            self.raw.drain(..k);
            self.base += k as u64;
        }
    }

    /// The length of the record between stream offsets `start` and `end`, without the blank
    /// lines before it and its line end: what the line cap limits.
    fn record_len(&self, start: u64, end: u64) -> usize {
        let at = |o: u64| {
            usize::try_from(o.saturating_sub(self.base))
                .unwrap_or(usize::MAX)
                .min(self.raw.len())
        };
        let bytes = &self.raw[at(start)..at(end).max(at(start))];
        let lead = bytes
            .iter()
            .take_while(|&&b| b == b'\n' || b == b'\r')
            .count();
        let mut rec = &bytes[lead..];
        if let Some(r) = rec.strip_suffix(b"\n") {
            rec = r;
        }
        if let Some(r) = rec.strip_suffix(b"\r") {
            rec = r;
        }
        rec.len()
    }

    /// The 1-based line and column of byte `offset` of field `field` of the record that starts at
    /// stream offset `start`, on line `line`. `offset` counts within the field's content (after an
    /// opening quote).
    fn locate(
        &self,
        (start, mut line): (u64, usize),
        delimiter: u8,
        field: usize,
        offset: usize,
    ) -> (usize, usize) {
        let from = usize::try_from(start.saturating_sub(self.base))
            .unwrap_or(usize::MAX)
            .min(self.raw.len());
        let raw = &self.raw[from..];
        let mut line_start = 0;
        let mut pos = 0;
        // Empty lines (and the `\n` of a `\r\n` ending) before the record.
        while let Some(&b) = raw.get(pos) {
            if b != b'\n' && b != b'\r' {
                break;
            }
            pos += 1;
            if b == b'\n' {
                line += 1;
                line_start = pos;
            }
        }
        if start == 0 && raw[pos..].starts_with(BOM) {
            pos += BOM.len();
        }
        let at_end = |pos: usize| raw.get(pos).is_none_or(|&b| b == b'\n' || b == b'\r');
        let mut k = 0;
        loop {
            let quoted = raw.get(pos) == Some(&b'"');
            if k == field {
                let col = pos + usize::from(quoted) + offset - line_start;
                return (line, col + 1);
            }
            if quoted {
                pos += 1;
                while let Some(&b) = raw.get(pos) {
                    pos += 1;
                    match b {
                        b'"' if raw.get(pos) == Some(&b'"') => pos += 1,
                        b'"' => break,
                        b'\n' => {
                            line += 1;
                            line_start = pos;
                        }
                        _ => {}
                    }
                }
            }
            while !at_end(pos) && raw[pos] != delimiter {
                pos += 1;
            }
            if at_end(pos) {
                // Past the last field: the column just after the record.
                return (line, pos - line_start + 1);
            }
            pos += 1;
            k += 1;
        }
    }
}

/// A field's content without surrounding spaces and tabs, and the number of bytes cut in front.
fn trim(field: &[u8]) -> (&[u8], usize) {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let lead = field.iter().take_while(|b| blank(b)).count();
    let rest = &field[lead..];
    let tail = rest.iter().rev().take_while(|b| blank(b)).count();
    (&rest[..rest.len() - tail], lead)
}

/// A field's trimmed content and the bytes cut in front of it; `first` says whether the field
/// opens the input, where a byte-order mark is dropped.
#[inline]
fn content(raw: &[u8], first: bool) -> (&[u8], usize) {
    let (raw, bom) = match raw.strip_prefix(BOM) {
        Some(rest) if first => (rest, BOM.len()),
        _ => (raw, 0),
    };
    let (text, lead) = trim(raw);
    (text, lead + bom)
}

/// The layout fixed by the first record.
#[derive(Clone, Copy, Debug)]
struct Shape {
    fields: usize,
    label: usize,
    dim: usize,
}

/// Reads CSV records from a decoded input, a chunk at a time.
pub(crate) struct CsvParser<R> {
    reader: csv::Reader<Recorder<Decoded<R>>>,
    record: csv::ByteRecord,
    /// Stream offset where `record`'s bytes start (before any blank lines it skips).
    start: u64,
    /// 1-based line number at `start`.
    line: usize,
    /// Whether `record` holds the first data record, read while looking for a header.
    pending: bool,
    gzip: bool,
    shape: Option<Shape>,
    reading: CsvReading,
    /// The dimension every row is read into (given, or $2^B$ with hashing).
    fixed_dim: Option<usize>,
    hash_mask: Option<u32>,
    scratch: Vec<Hashed>,
    /// The crossing of each row, with its reused buffer of pairs.
    crosses: Option<Crosses>,
    /// [`ReadOptions::bounded_values`].
    bounded: bool,
    /// The schema rows are encoded by, for a file with named columns read as a table.
    table: Option<Table>,
}

/// A table's schema bound to this file's columns, and the row it encodes into.
struct Table {
    schema: Box<Schema>,
    binding: Binding,
    row: Vec<f64>,
    na: NaTokens,
}

impl<R: BufRead> CsvParser<R> {
    /// A parser of `input`; reads records up to the first non-blank one to resolve the label
    /// column and the header.
    pub(crate) fn new(
        input: Decoded<R>,
        source: &str,
        opts: &ReadOptions,
        fixed_dim: Option<usize>,
        crosses: Option<Crosses>,
    ) -> Result<Self, DataError> {
        let csv = &opts.csv;
        // The dimension of the rows' own features, which crosses follow.
        let base_dim = opts.base_dim()?;
        let gzip = input.is_gzip();
        let recorder = Recorder::new(input, opts.max_line_bytes);
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(csv.delimiter)
            .buffer_capacity(BUFFER)
            .from_reader(recorder);
        let mut p = Self {
            reader,
            record: csv::ByteRecord::new(),
            start: 0,
            line: 1,
            pending: false,
            gzip,
            shape: None,
            reading: CsvReading {
                delimiter: csv.delimiter,
                label_index: 0,
                fields: 0,
                header: None,
            },
            fixed_dim,
            hash_mask: opts.hash_bits.map(|b| (1u32 << b) - 1),
            scratch: Vec::new(),
            crosses,
            bounded: opts.bounded_values,
            table: None,
        };
        if !p.next_record(source)? {
            if let LabelColumn::Index(i) = csv.label {
                p.reading.label_index = i;
            }
            return Ok(p);
        }
        let fields = p.record.len();
        let header = csv.header.unwrap_or_else(|| {
            (0..fields).any(|k| {
                let (text, _) = p.field(k);
                !text.is_empty() && !matches!(whole_number(text), Ok(Number::Finite(..)))
            })
        });
        let names: Option<Vec<String>> = header.then(|| {
            (0..fields)
                .map(|k| String::from_utf8_lossy(p.field(k).0).into_owned())
                .collect()
        });
        let at_start = |p: &Self, kind| p.error(source, 0, 0, kind);
        if let Some(schema) = &opts.schema {
            let Some(names) = names else {
                return Err(DataError::Table(format!(
                    "{source}: the model reads columns by name, and this file has no header line"
                )));
            };
            let binding = Binding::new(schema, &names, source)?;
            let found = schema.dim();
            if let (Some(dim), None) = (base_dim, p.hash_mask)
                && dim < found
            {
                let kind = ParseErrorKind::TooManyFeatures { found, dim };
                return Err(at_start(&p, kind));
            }
            p.shape = Some(Shape {
                fields,
                label: usize::MAX,
                dim: fixed_dim.unwrap_or(found),
            });
            p.reading.fields = fields;
            p.reading.header = Some(names);
            p.table = Some(Table {
                schema: schema.clone(),
                binding,
                row: vec![0.0; found],
                na: schema.options.na.clone(),
            });
            p.release();
            return Ok(p);
        }
        let label = match &csv.label {
            LabelColumn::Index(i) if *i < fields => *i,
            LabelColumn::Index(i) => {
                let kind = ParseErrorKind::LabelColumnOutOfRange { index: *i, fields };
                return Err(at_start(&p, kind));
            }
            LabelColumn::Last => fields - 1,
            LabelColumn::Auto => match &names {
                None => 0,
                Some(names) => match label_by_name(names) {
                    Some(k) => k,
                    None => {
                        let kind = ParseErrorKind::NoLabelColumn {
                            columns: names.clone(),
                        };
                        return Err(at_start(&p, kind));
                    }
                },
            },
            LabelColumn::Name(name) => match &names {
                None => return Err(at_start(&p, ParseErrorKind::NoHeader)),
                Some(names) => match column_by_name(name, names) {
                    Some(k) => k,
                    None => {
                        let kind = ParseErrorKind::NoSuchColumn {
                            name: name.clone(),
                            columns: names.clone(),
                        };
                        return Err(at_start(&p, kind));
                    }
                },
            },
        };
        let found = fields - 1;
        if let (Some(dim), None) = (base_dim, p.hash_mask)
            && dim < found
        {
            let kind = ParseErrorKind::TooManyFeatures { found, dim };
            return Err(at_start(&p, kind));
        }
        let dim = fixed_dim.unwrap_or(found);
        p.shape = Some(Shape { fields, label, dim });
        p.reading = CsvReading {
            delimiter: csv.delimiter,
            label_index: label,
            fields,
            header: names,
        };
        if header {
            p.release();
        } else {
            p.pending = true;
        }
        Ok(p)
    }

    /// Whether rows are better stored as CSR: with hashing or crosses, or when the given
    /// dimension is more than four times the file's feature count (dense rows would be mostly
    /// padding).
    pub(crate) fn prefers_sparse(&self) -> bool {
        let found = match &self.table {
            Some(t) => t.schema.dim(),
            None => self.reading.fields.saturating_sub(1),
        };
        self.hash_mask.is_some() || self.crosses.is_some() || self.dim() > found.saturating_mul(4)
    }

    /// How the file is read: its layout, or its schema as a table.
    pub(crate) fn reading(&self) -> Reading {
        match &self.table {
            Some(t) => Reading::Table(TableReading {
                delimiter: self.reading.delimiter,
                schema: (*t.schema).clone(),
            }),
            None => Reading::Csv(self.reading.clone()),
        }
    }

    /// The resolved layout (for a table, the header and column count of this file).
    pub(crate) fn layout(&self) -> &CsvReading {
        &self.reading
    }

    /// Whether rows carry labels: always, except a table file without the label column (rows
    /// to score; their labels read as -1).
    pub(crate) fn labelled(&self) -> bool {
        self.table.as_ref().is_none_or(|t| t.binding.labelled())
    }

    /// The file's columns a table's schema does not use.
    pub(crate) fn ignored_columns(&self) -> &[String] {
        self.table.as_ref().map_or(&[], |t| t.binding.ignored())
    }

    /// Counts every remaining record into `survey` (a survey of the columns this parser resolved;
    /// see [`crate::ReadOptions::surveyed`]).
    pub(crate) fn survey(
        &mut self,
        source: &str,
        survey: &mut Survey,
        na: &NaTokens,
    ) -> Result<(), DataError> {
        let Some(shape) = self.shape else {
            return Ok(());
        };
        loop {
            if self.pending {
                self.pending = false;
            } else if !self.next_record(source)? {
                return Ok(());
            }
            self.check_field_count(source, shape)?;
            let first_record = self.start == 0;
            let mut failure = None;
            for (k, raw) in self.record.iter().enumerate() {
                let (text, lead) = content(raw, first_record && k == 0);
                let cell = match text_cell(text, na) {
                    Ok(c) => c,
                    Err(_) => {
                        failure = Some((k, lead, ParseErrorKind::BadValue));
                        break;
                    }
                };
                if k == shape.label {
                    if !survey.label(cell) {
                        let column = survey.names()[k].clone();
                        let kind = ParseErrorKind::Cell(crate::table::CellProblem::MissingLabel {
                            column,
                        });
                        failure = Some((k, lead, kind));
                        break;
                    }
                } else {
                    survey.cell(k, cell);
                }
            }
            if let Some((k, offset, kind)) = failure {
                return Err(self.error(source, k, offset, kind));
            }
            survey.end_row();
            self.release();
        }
    }

    /// The label column resolved from the header, and the header's names (`None` without one).
    pub(crate) fn label_and_names(&self) -> (usize, Option<&[String]>) {
        (
            self.shape.map_or(0, |s| s.label),
            self.reading.header.as_deref(),
        )
    }

    /// The dimension of every row.
    pub(crate) fn dim(&self) -> usize {
        match self.shape {
            Some(s) => s.dim,
            None => self.fixed_dim.unwrap_or(0),
        }
    }

    /// Bytes taken from the underlying reader.
    pub(crate) fn consumed(&self) -> u64 {
        self.reader.get_ref().inner.consumed()
    }

    /// Field `k` of the current record, trimmed, and the bytes cut in front (a byte-order mark at
    /// the start of the input included).
    fn field(&self, k: usize) -> (&[u8], usize) {
        content(
            self.record.get(k).unwrap_or_default(),
            self.start == 0 && k == 0,
        )
    }

    /// A parse error at byte `offset` of field `field` of the current record.
    fn error(&self, source: &str, field: usize, offset: usize, kind: ParseErrorKind) -> DataError {
        let (line, col) = self.reader.get_ref().locate(
            (self.start, self.line),
            self.reading.delimiter,
            field,
            offset,
        );
        DataError::Parse {
            file: source.to_string(),
            line,
            col,
            kind,
        }
    }

    /// Reads the next non-blank record into `self.record`; `false` at the end of the input.
    fn next_record(&mut self, source: &str) -> Result<bool, DataError> {
        loop {
            let at = self.reader.position();
            self.start = at.byte();
            // The line where the record's bytes start: csv counts the `\n` it consumed.
            self.line = usize::try_from(at.line()).unwrap_or(usize::MAX);
            let more = match self.reader.read_byte_record(&mut self.record) {
                Ok(more) => more,
                Err(_) if self.reader.get_ref().too_long => return Err(self.too_long(source)),
                Err(e) => return Err(csv_error(source, self.gzip, e)),
            };
            if !more {
                return Ok(false);
            }
            let end = self.reader.position().byte();
            if self.reader.get_ref().record_len(self.start, end) > self.reader.get_ref().max {
                return Err(self.too_long(source));
            }
            if !self.is_blank() {
                return Ok(true);
            }
            self.release();
        }
    }

    /// The error for a record longer than the line cap, at the line where it starts.
    fn too_long(&self, source: &str) -> DataError {
        let limit = self.reader.get_ref().max;
        let mut e = self.error(source, 0, 0, ParseErrorKind::LineTooLong { limit });
        // At the record's first byte (before an opening quote).
        if let DataError::Parse { col, .. } = &mut e {
            *col = 1;
        }
        e
    }

    /// Whether the current record is a blank line: one field of spaces and tabs, or (with a space
    /// or tab delimiter) nothing but empty fields.
    fn is_blank(&self) -> bool {
        let d = self.reading.delimiter;
        let whitespace_delimiter = d == b' ' || d == b'\t';
        (self.record.len() == 1 || whitespace_delimiter)
            && (0..self.record.len()).all(|k| self.field(k).0.is_empty())
    }

    /// Lets the recorder drop the bytes of the records parsed so far.
    fn release(&mut self) {
        let to = self.reader.position().byte();
        self.reader.get_mut().release(to);
    }

    /// Appends up to `max_rows` rows to `labels` and `parts`; returns how many (0 at the end).
    pub(crate) fn read_rows(
        &mut self,
        source: &str,
        labels: &mut Vec<f64>,
        mut parts: Parts<'_>,
        max_rows: usize,
    ) -> Result<usize, DataError> {
        let Some(shape) = self.shape else {
            return Ok(0);
        };
        let mut rows = 0;
        while rows < max_rows {
            if self.pending {
                self.pending = false;
            } else if !self.next_record(source)? {
                break;
            }
            self.row(source, shape, labels, &mut parts)?;
            self.release();
            rows += 1;
        }
        Ok(rows)
    }

    /// Refuses a record whose field count differs from the first record's (or the header's):
    /// a long row points at its first extra field, a short one just past its end.
    fn check_field_count(&self, source: &str, shape: Shape) -> Result<(), DataError> {
        let found = self.record.len();
        if found == shape.fields {
            return Ok(());
        }
        let kind = ParseErrorKind::FieldCount {
            expected: shape.fields,
            found,
        };
        Err(self.error(source, shape.fields.min(found), 0, kind))
    }

    /// Parses the current record into one row.
    fn row(
        &mut self,
        source: &str,
        shape: Shape,
        labels: &mut Vec<f64>,
        parts: &mut Parts<'_>,
    ) -> Result<(), DataError> {
        self.check_field_count(source, shape)?;
        if self.table.is_some() {
            return self.table_row(source, shape, labels, parts);
        }
        let mut label = 0.0;
        self.scratch.clear();
        let start = match parts {
            Parts::Dense { values } => values.len(),
            Parts::Sparse { indices, .. } => indices.len(),
        };
        // The first failure: field, offset in the field, kind.
        let mut failure = None;
        let first_record = self.start == 0;
        let bounded = self.bounded;
        let scratch = &mut self.scratch;
        let mut column = 0usize;
        for (k, raw) in self.record.iter().enumerate() {
            let (text, lead) = content(raw, first_record && k == 0);
            let is_label = k == shape.label;
            let x = match whole_number(text) {
                _ if text.is_empty() => Err((0, ParseErrorKind::EmptyField)),
                Ok(Number::Finite(x, _))
                    if bounded && !is_label && x.abs() > crate::MAX_BOUNDED_VALUE =>
                {
                    Err((0, ParseErrorKind::ValueTooLarge))
                }
                Ok(Number::Finite(x, _)) => Ok(x),
                Ok(Number::NonFinite) if is_label => Err((0, ParseErrorKind::NonFiniteLabel)),
                Ok(Number::NonFinite) => Err((0, ParseErrorKind::NonFiniteValue)),
                _ if is_label => Err((0, ParseErrorKind::BadLabel)),
                Ok(Number::Invalid) => Err((0, ParseErrorKind::BadValue)),
                Err(off) => Err((off, ParseErrorKind::TrailingGarbage)),
            };
            let x = match x {
                Ok(x) => x,
                Err((off, kind)) => {
                    failure = Some((k, lead + off, kind));
                    break;
                }
            };
            if is_label {
                label = canonical(x);
                continue;
            }
            match (&mut *parts, self.hash_mask) {
                (Parts::Dense { values }, _) => values.push(x),
                (Parts::Sparse { .. }, Some(mask)) if x != 0.0 => scratch.push(Hashed {
                    // Feature columns fit in u32 whenever hashing is asked for: the mask
                    // keeps the low bits of the 0-based column.
                    index: (column as u32) & mask,
                    seq: column,
                    value: x,
                    at: k,
                }),
                (
                    Parts::Sparse {
                        indices, values, ..
                    },
                    None,
                ) if x != 0.0 => {
                    indices.push(column as u32);
                    values.push(x);
                }
                (Parts::Sparse { .. }, _) => {}
            }
            column += 1;
        }
        if let Some((k, offset, kind)) = failure {
            let e = Err(self.error(source, k, offset, kind));
            return self.undo(parts, start, e);
        }
        match parts {
            Parts::Dense { values } => values.resize(start + shape.dim, 0.0),
            Parts::Sparse {
                indptr,
                indices,
                values,
            } => {
                if self.hash_mask.is_some()
                    && let Err((k, kind)) = fold_hashed(&mut self.scratch, indices, values)
                {
                    let e = Err(self.error(source, k, self.field(k).1, kind));
                    return self.undo(parts, start, e);
                }
                if let Some(c) = &mut self.crosses
                    && let Err(kind) = c.append(indices, values, start)
                {
                    // At the record's first field.
                    let e = Err(self.error(source, 0, 0, kind));
                    return self.undo(parts, start, e);
                }
                indptr.push(indices.len());
            }
        }
        labels.push(label);
        Ok(())
    }

    /// Encodes the current record by the table's schema into one row.
    fn table_row(
        &mut self,
        source: &str,
        shape: Shape,
        labels: &mut Vec<f64>,
        parts: &mut Parts<'_>,
    ) -> Result<(), DataError> {
        let table = self.table.as_mut().expect("a table row needs the table");
        table.row.fill(0.0);
        let mut label = -1.0;
        let first_record = self.start == 0;
        let mut failure = None;
        for (k, raw) in self.record.iter().enumerate() {
            let (text, lead) = content(raw, first_record && k == 0);
            let cell = match text_cell(text, &table.na) {
                Ok(c) => c,
                Err(_) => {
                    failure = Some((k, lead, ParseErrorKind::BadValue));
                    break;
                }
            };
            if let crate::table::Cell::Number(x) = cell
                && self.bounded
                && x.abs() > crate::MAX_BOUNDED_VALUE
            {
                failure = Some((k, lead, ParseErrorKind::ValueTooLarge));
                break;
            }
            if let Err(problem) =
                table
                    .binding
                    .encode(&table.schema, k, cell, &mut label, &mut table.row)
            {
                failure = Some((k, lead, ParseErrorKind::Cell(problem)));
                break;
            }
        }
        if let Some((k, offset, kind)) = failure {
            return Err(self.error(source, k, offset, kind));
        }
        let table = self.table.as_ref().expect("checked above");
        if let Err(kind) = append_row(
            &table.row,
            shape.dim,
            parts,
            &mut self.scratch,
            self.hash_mask,
            self.crosses.as_mut(),
        ) {
            // At the record's first field.
            return Err(self.error(source, 0, 0, kind));
        }
        labels.push(label);
        Ok(())
    }

    /// Drops what a failed row appended and returns `result`.
    fn undo(
        &self,
        parts: &mut Parts<'_>,
        start: usize,
        result: Result<(), DataError>,
    ) -> Result<(), DataError> {
        match parts {
            Parts::Dense { values } => values.truncate(start),
            Parts::Sparse {
                indices, values, ..
            } => {
                indices.truncate(start);
                values.truncate(start);
            }
        }
        result
    }
}

/// The [`DataError`] of an error of the `csv` crate, which only fails on I/O when records may
/// have any length.
fn csv_error(source: &str, gzip: bool, e: csv::Error) -> DataError {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => io_error(source, gzip, e),
        other => DataError::Io {
            file: source.to_string(),
            source: io::Error::new(io::ErrorKind::InvalidData, format!("{other:?}")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(raw: &[u8]) -> Recorder<()> {
        let mut r = Recorder::new((), usize::MAX);
        r.raw = raw.to_vec();
        r
    }

    #[test]
    fn fields_are_trimmed_of_spaces_and_tabs() {
        assert_eq!(trim(b" 1 \t"), (&b"1"[..], 1));
        assert_eq!(trim(b"  "), (&b""[..], 2));
        assert_eq!(trim(b""), (&b""[..], 0));
    }

    #[test]
    fn locate_counts_quotes_blank_lines_and_quoted_newlines() {
        let r = recorder(b"\n\"a\",b , c\n");
        // Field 1 starts at column 5 of line 2; field 2 content at column 9 after one blank.
        assert_eq!(r.locate((0, 1), b',', 1, 0), (2, 5));
        assert_eq!(r.locate((0, 1), b',', 2, 1), (2, 9));
        assert_eq!(r.locate((0, 1), b',', 0, 0), (2, 2));
        // Past the end: just after the record.
        assert_eq!(r.locate((0, 1), b',', 3, 0), (2, 10));
        let multi = recorder(b"\"x\ny\",\"\"\"\",1\r\n");
        assert_eq!(multi.locate((0, 1), b',', 2, 0), (2, 9));
    }
}
