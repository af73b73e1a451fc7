//! Parquet and Arrow IPC input (SPEC 11): typed columns read by name as a table, a batch at a
//! time, to the rows the same cells give in a CSV file; every compression codec built in; the
//! columns a table cannot read refused by name and type, unless a scoring file's extra column;
//! errors that name the file, the row group and row, and the column.
//!
//! The pyarrow-written fixtures are those of crates/auc-cli/tests/data (make_columnar.py); the
//! other files are written here with the parquet and arrow-ipc writers.

#![allow(clippy::float_cmp)] // Rows read from two formats of the same cells are equal bit for bit.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{
    ArrayRef, BooleanArray, Float64Array, Int32Array, LargeStringArray, RecordBatch, StringArray,
};
use arrow_schema::{DataType, Field, Schema};
use auc_core::Row;
use auc_data::table::Encoding;
use auc_data::{Format, RawData, ReadOptions, Reading, RowStream, read_path};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, GzipLevel, ZstdLevel};
use parquet::file::properties::WriterProperties;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../auc-cli/tests/data")
        .join(name)
}

fn dense(d: &RawData) -> Vec<Vec<f64>> {
    (0..d.n())
        .map(|i| {
            let mut x = vec![0.0; d.dim()];
            d.row(i).for_each(|j, v| x[j] = v);
            x
        })
        .collect()
}

fn same_rows(a: &RawData, b: &RawData) {
    assert_eq!(a.raw_labels(), b.raw_labels());
    assert_eq!(a.dim(), b.dim());
    assert_eq!(dense(a), dense(b));
}

fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
    RecordBatch::try_from_iter(columns).unwrap()
}

fn write_parquet(path: &Path, batches: &[RecordBatch], compression: Compression, group: usize) {
    let props = WriterProperties::builder()
        .set_compression(compression)
        .set_max_row_group_row_count(Some(group))
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut w = ArrowWriter::try_new(file, batches[0].schema(), Some(props)).unwrap();
    for b in batches {
        w.write(b).unwrap();
    }
    w.close().unwrap();
}

/// A small table of numbers, text and flags with a yes/no label, in two batches.
fn sample() -> Vec<RecordBatch> {
    let make = |from: usize, to: usize| {
        let r = from..to;
        let x: Float64Array = r
            .clone()
            .map(|i| (i != 4).then_some(i as f64 * 0.5))
            .collect();
        let c: StringArray = r.clone().map(|i| Some(["a", "b", "c"][i % 3])).collect();
        let f: BooleanArray = r.clone().map(|i| Some(i % 4 == 0)).collect();
        let y: StringArray = r
            .map(|i| Some(if i % 3 == 1 { "yes" } else { "no" }))
            .collect();
        batch(vec![
            ("x", Arc::new(x) as ArrayRef),
            ("c", Arc::new(c) as ArrayRef),
            ("f", Arc::new(f) as ArrayRef),
            ("label", Arc::new(y) as ArrayRef),
        ])
    };
    vec![make(0, 12), make(12, 30)]
}

/// The sample's cells as CSV text.
fn sample_csv() -> String {
    let mut text = String::from("x,c,f,label\n");
    for i in 0..30 {
        let x = if i == 4 {
            String::new()
        } else {
            format!("{}", i as f64 * 0.5)
        };
        let f = u8::from(i % 4 == 0);
        let y = if i % 3 == 1 { "yes" } else { "no" };
        text.push_str(&format!("{x},{},{f},{y}\n", ["a", "b", "c"][i % 3]));
    }
    text
}

fn min_count_1() -> ReadOptions {
    let mut o = ReadOptions::default();
    o.csv.table.min_count = 1;
    o
}

#[test]
fn formats_are_resolved_from_the_name() {
    assert_eq!(Format::Auto.resolve("a.parquet"), Format::Parquet);
    assert_eq!(Format::Auto.resolve("A.PQ"), Format::Parquet);
    for name in ["a.arrow", "a.feather", "a.ipc", "a.arrows"] {
        assert_eq!(Format::Auto.resolve(name), Format::Arrow, "{name}");
    }
    assert!(Format::Parquet.is_columnar() && !Format::Csv.is_columnar());
    // A table's schema reads a Parquet name as Parquet although its training file was CSV.
    let table = ReadOptions {
        format: Format::Csv,
        ..ReadOptions::default()
    };
    assert_eq!(Format::for_file(&table, "b.parquet"), Format::Csv);
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("s.csv");
    std::fs::write(&csv, sample_csv()).unwrap();
    let mut schema = min_count_1().surveyed(&[&csv]).unwrap();
    schema.format = Format::Csv;
    assert_eq!(Format::for_file(&schema, "b.parquet"), Format::Parquet);
    assert_eq!(Format::for_file(&schema, "b.txt"), Format::Csv);
}

#[test]
fn the_pyarrow_fixture_reads_every_kind_of_cell() {
    let raw = read_path(&fixture("cells.parquet"), &ReadOptions::default()).unwrap();
    let Reading::Table(t) = raw.reading() else {
        panic!("a Parquet file is a table: {:?}", raw.reading());
    };
    let s = &t.schema;
    assert_eq!(s.label.name, "label");
    assert_eq!(s.label.positive, ["yes"]);
    let names: Vec<&str> = s.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["x", "count", "color", "size", "flag"]);
    // x: a null (row 3) and a NaN (row 5) are missing; the mean of the other 22 fills them.
    let xs: Vec<f64> = (0..24)
        .filter(|&i| i != 3 && i != 5)
        .map(|i| i as f64 / 4.0 - 2.0)
        .collect();
    let mean = xs.iter().sum::<f64>() / 22.0;
    assert_eq!(
        s.columns[0].encoding,
        Encoding::Numeric {
            mean,
            indicator: true
        }
    );
    assert!(matches!(
        s.columns[1].encoding,
        Encoding::Numeric {
            indicator: true,
            ..
        }
    ));
    // color: a null and an empty string are missing; size: a dictionary of strings.
    assert!(
        matches!(&s.columns[2].encoding, Encoding::OneHot { kept, missing: true } if kept.len() == 3)
    );
    assert!(
        matches!(&s.columns[3].encoding, Encoding::OneHot { kept, missing: true } if kept.len() == 3)
    );
    // flag: booleans are the numbers 0 and 1; the null is row 4, an even (true) row.
    let Encoding::Numeric {
        mean: flags,
        indicator: true,
    } = s.columns[4].encoding
    else {
        panic!("{:?}", s.columns[4].encoding);
    };
    assert_eq!(flags, 11.0 / 23.0);
    assert_eq!(raw.n(), 24);
    let rows = dense(&raw);
    // Row 3: x missing, filled with the mean and flagged.
    assert_eq!((rows[3][0], rows[3][1]), (mean, 1.0));
    assert_eq!((rows[0][0], rows[0][1]), (-2.0, 0.0));
    // Row 1 is "yes" (1 % 7 == 1), row 2 "no".
    assert_eq!(&raw.raw_labels()[..3], [1.0, 1.0, -1.0]);
}

#[test]
fn the_feather_file_and_the_parquet_file_give_the_same_rows() {
    let p = read_path(&fixture("cells.parquet"), &ReadOptions::default()).unwrap();
    let f = read_path(&fixture("cells.feather"), &ReadOptions::default()).unwrap();
    assert_eq!(p.reading(), f.reading());
    same_rows(&p, &f);
}

#[test]
fn parquet_gives_the_rows_and_schema_of_the_same_cells_in_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("s.csv");
    std::fs::write(&csv, sample_csv()).unwrap();
    let pq = dir.path().join("s.parquet");
    write_parquet(&pq, &sample(), Compression::SNAPPY, 7);
    let from_csv = min_count_1().surveyed(&[&csv]).unwrap();
    let from_pq = min_count_1().surveyed(&[&pq]).unwrap();
    assert_eq!(from_csv.schema, from_pq.schema);
    let a = read_path(&csv, &from_csv).unwrap();
    let b = read_path(&pq, &from_pq).unwrap();
    assert_eq!(a.reading(), b.reading());
    same_rows(&a, &b);
    // Each file scored by the other's schema: the same rows again.
    same_rows(&read_path(&pq, &from_csv).unwrap(), &a);
    same_rows(&read_path(&csv, &from_pq).unwrap(), &b);
    // A CSV file and a Parquet file of the same columns train together.
    let both = min_count_1().surveyed(&[&csv, &pq]).unwrap();
    let labels = both.schema.as_ref().unwrap().label.class_counts();
    assert_eq!(labels.0 + labels.1, 60);
}

#[test]
fn every_codec_built_in_reads_and_chunks_equal_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let want = {
        let p = dir.path().join("plain.parquet");
        write_parquet(&p, &sample(), Compression::UNCOMPRESSED, 30);
        read_path(&p, &min_count_1()).unwrap()
    };
    let codecs = [
        ("snappy", Compression::SNAPPY),
        ("gzip", Compression::GZIP(GzipLevel::default())),
        ("zstd", Compression::ZSTD(ZstdLevel::default())),
        ("lz4", Compression::LZ4),
        ("lz4raw", Compression::LZ4_RAW),
    ];
    for (name, codec) in codecs {
        let p = dir.path().join(format!("{name}.parquet"));
        write_parquet(&p, &sample(), codec, 5);
        let got = read_path(&p, &min_count_1()).unwrap();
        same_rows(&got, &want);
        // Chunk by chunk, across row groups and batches, the same rows.
        let mut s = RowStream::open(&p, &min_count_1()).unwrap();
        let mut parts = Vec::new();
        while let Some(c) = s.next_chunk(4).unwrap() {
            parts.push(c);
        }
        assert_eq!(parts.len(), 8, "{name}");
        same_rows(&RawData::concat(parts), &want);
        assert_eq!(s.bytes_read(), s.total_bytes().unwrap());
    }
}

#[test]
fn arrow_ipc_files_and_streams_read_as_parquet_does() {
    use arrow_ipc::CompressionType;
    use arrow_ipc::writer::{FileWriter, IpcWriteOptions, StreamWriter};
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("s.parquet");
    write_parquet(&pq, &sample(), Compression::SNAPPY, 30);
    let want = read_path(&pq, &min_count_1()).unwrap();
    let schema = sample()[0].schema();
    for (name, codec) in [
        ("plain", None),
        ("lz4", Some(CompressionType::LZ4_FRAME)),
        ("zstd", Some(CompressionType::ZSTD)),
    ] {
        let opts = IpcWriteOptions::default()
            .try_with_compression(codec)
            .unwrap();
        let file = dir.path().join(format!("{name}.arrow"));
        let mut w = FileWriter::try_new_with_options(
            std::fs::File::create(&file).unwrap(),
            &schema,
            opts.clone(),
        )
        .unwrap();
        let stream = dir.path().join(format!("{name}.arrows"));
        let mut ws = StreamWriter::try_new_with_options(
            std::fs::File::create(&stream).unwrap(),
            &schema,
            opts,
        )
        .unwrap();
        for b in sample() {
            w.write(&b).unwrap();
            ws.write(&b).unwrap();
        }
        w.finish().unwrap();
        ws.finish().unwrap();
        same_rows(&read_path(&file, &min_count_1()).unwrap(), &want);
        same_rows(&read_path(&stream, &min_count_1()).unwrap(), &want);
    }
    // A Parquet file through a reader (standard input) is read from memory: the same rows.
    let bytes = std::fs::read(&pq).unwrap();
    let mut o = min_count_1();
    o.format = Format::Parquet;
    let s = RowStream::new(&bytes[..], "-", &o).unwrap();
    same_rows(&s.read_all().unwrap(), &want);
}

#[test]
fn a_scoring_file_needs_only_the_used_columns_in_any_order() {
    let train = ReadOptions::default().surveyed(&[&fixture("applicants.parquet")]);
    // applicants.parquet has no column named like a label.
    let e = train.unwrap_err().to_string();
    assert!(e.contains("no label column"), "{e}");
    let mut o = ReadOptions::default();
    o.csv.label = auc_data::LabelColumn::Name("status".into());
    let o = o.surveyed(&[&fixture("applicants.parquet")]).unwrap();
    let all = read_path(&fixture("applicants.parquet"), &o).unwrap();
    let s = RowStream::open(&fixture("applicants_new.parquet"), &o).unwrap();
    assert!(!s.labelled());
    // The extra column is a list, which a table cannot read: it is ignored, never decoded.
    assert_eq!(s.ignored_columns(), ["note"]);
    let new = s.read_all().unwrap();
    assert_eq!(new.n(), 12);
    assert!(new.raw_labels().iter().all(|&l| l == -1.0));
    assert_eq!(dense(&new), dense(&all)[..12]);
}

#[test]
fn nested_and_binary_columns_are_refused_by_name_and_type() {
    let e = read_path(&fixture("nested.parquet"), &ReadOptions::default()).unwrap_err();
    let e = e.to_string();
    assert!(
        e.contains("nested.parquet: column \"tags\" is of type List("),
        "{e}"
    );
    assert!(e.contains("which a table does not read"), "{e}");
    let e = read_path(&fixture("binary.parquet"), &ReadOptions::default()).unwrap_err();
    assert!(
        e.to_string().contains("column \"blob\" is of type Binary"),
        "{e}"
    );
    // A schema that does not use the column reads the file.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "x,label\n0.5,1\n-1,0\n2,1\n0,0\n").unwrap();
    let o = ReadOptions::default().surveyed(&[&csv]).unwrap();
    let raw = read_path(&fixture("nested.parquet"), &o).unwrap();
    same_rows(&raw, &read_path(&csv, &o).unwrap());
}

#[test]
fn errors_name_the_file_row_group_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.parquet");
    let x: Float64Array = (0..20)
        .map(|i| Some(if i == 13 { f64::INFINITY } else { i as f64 }))
        .collect();
    let y: Int32Array = (0..20).map(|i| (i != 17).then_some(i % 2)).collect();
    let b = batch(vec![
        ("x", Arc::new(x) as ArrayRef),
        ("y", Arc::new(y) as ArrayRef),
    ]);
    write_parquet(&p, &[b], Compression::SNAPPY, 5);
    let e = read_path(&p, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("bad.parquet: row 13 (row group 2, row 3): column \"x\": feature value is not finite: expected a finite number"),
        "{e}"
    );
    // A missing label is an error at its row, once the schema is fitted elsewhere.
    let csv = dir.path().join("t.csv");
    std::fs::write(&csv, "x,y\n1,0\n2,1\n").unwrap();
    let o = ReadOptions::default().surveyed(&[&csv]).unwrap();
    let mut s = RowStream::open(&p, &o).unwrap();
    let e = loop {
        match s.next_chunk(3) {
            Ok(Some(_)) => {}
            Ok(None) => panic!("no error"),
            Err(e) => break e.to_string(),
        }
    };
    // Row 13's infinity comes first; rows 0-12 were handed on.
    assert!(e.contains("row 13 (row group 2, row 3)"), "{e}");
    assert_eq!(s.rows_read(), 12);
    let no_inf = dir.path().join("label.parquet");
    let x: Float64Array = (0..20).map(|i| Some(i as f64)).collect();
    let y: Int32Array = (0..20).map(|i| (i != 17).then_some(i % 2)).collect();
    let b = batch(vec![
        ("x", Arc::new(x) as ArrayRef),
        ("y", Arc::new(y) as ArrayRef),
    ]);
    write_parquet(&no_inf, &[b], Compression::SNAPPY, 5);
    let e = read_path(&no_inf, &o).unwrap_err().to_string();
    assert!(
        e.contains(
            "label.parquet: row 17 (row group 3, row 2): column \"y\": the label is missing"
        ),
        "{e}"
    );
    // Not a Parquet file at all.
    let fake = dir.path().join("fake.parquet");
    std::fs::write(&fake, "x,y\n1,0\n").unwrap();
    let e = read_path(&fake, &ReadOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(&format!(
            "{}: cannot read: not a readable Parquet file",
            fake.display()
        )),
        "{e}"
    );
}

#[test]
fn boolean_labels_are_true_and_false_and_large_strings_are_text() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("b.parquet");
    let label: BooleanArray = (0..10).map(|i| Some(i % 3 == 0)).collect();
    let kind: LargeStringArray = (0..10).map(|i| Some(["u", "v"][i % 2])).collect();
    let schema = Arc::new(Schema::new(vec![
        Field::new("target", DataType::Boolean, true),
        Field::new("kind", DataType::LargeUtf8, true),
    ]));
    let b = RecordBatch::try_new(schema, vec![Arc::new(label), Arc::new(kind)]).unwrap();
    write_parquet(&p, &[b], Compression::SNAPPY, 10);
    let raw = read_path(&p, &min_count_1()).unwrap();
    let s = raw.reading().schema().unwrap();
    assert_eq!(s.label.positive, ["true"]);
    assert_eq!(
        s.label.counts,
        [("false".to_owned(), 6), ("true".to_owned(), 4)]
    );
    assert!(matches!(&s.columns[0].encoding, Encoding::OneHot { kept, .. } if kept.len() == 2));
    assert_eq!(&raw.raw_labels()[..3], [1.0, -1.0, -1.0]);
    // Only the label is read by a model trained on it: the features are one-hot.
    assert!(matches!(raw.row(0), Row::Dense(_)));
}
