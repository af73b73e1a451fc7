//! Tables (SPEC 11): a survey of a CSV file with named columns fits its schema, and reading by
//! the schema gives the rows an independent, hand-written encoding of the same cells gives.

#![allow(clippy::float_cmp)] // Encoded values are exact copies or 0/1, compared as such.

use std::path::Path;

use auc_core::Row;
use auc_data::table::{Encoding, bucket};
use auc_data::{Positive, RawData, ReadOptions, Reading, read_path};

const TEXT: &str = "\
size,colour,\"note, free\",label
1.5,red,a,yes
,blue,b,no
NA,red,a,no
4,\"green\",c,no
2,red,?,yes
";

fn file(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn dense(d: &RawData) -> Vec<Vec<f64>> {
    (0..d.n())
        .map(|i| {
            let mut x = vec![0.0; d.dim()];
            if let Row::Dense(v) = d.row(i) {
                x.copy_from_slice(v);
            } else {
                d.row(i).for_each(|j, v| x[j] = v);
            }
            x
        })
        .collect()
}

fn options(min_count: u64) -> ReadOptions {
    let mut o = ReadOptions::default();
    o.csv.table.min_count = min_count;
    o
}

#[test]
fn the_schema_encodes_as_written_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let p = file(dir.path(), "t.csv", TEXT);
    let opts = options(1).surveyed(&[&p]).unwrap();
    let schema = opts.schema.as_deref().unwrap();
    assert_eq!(schema.label.positive, ["yes"]);
    // size: mean of 1.5, 4 and 2; two cells missing, so an indicator follows.
    let mean = (1.5 + 4.0 + 2.0) / 3.0;
    assert_eq!(
        schema.columns[0].encoding,
        Encoding::Numeric {
            mean,
            indicator: true
        }
    );
    // colour: red (3) before blue and green (1 each, by value); never missing.
    assert_eq!(
        schema.columns[1].encoding,
        Encoding::OneHot {
            kept: vec!["red".into(), "blue".into(), "green".into()],
            missing: false
        }
    );
    assert_eq!(
        schema.feature_names(),
        [
            "size",
            "size (missing)",
            "colour=red",
            "colour=blue",
            "colour=green",
            "colour (other)",
            "note, free=a",
            "note, free=b",
            "note, free=c",
            "note, free (other)",
            "note, free (missing)"
        ]
    );
    let raw = read_path(&p, &opts).unwrap();
    assert!(matches!(raw.reading(), Reading::Table(_)));
    assert_eq!(raw.raw_labels(), [1.0, -1.0, -1.0, -1.0, 1.0]);
    let o = 0.0;
    let want = vec![
        vec![1.5, o, 1.0, o, o, o, 1.0, o, o, o, o],
        vec![mean, 1.0, o, 1.0, o, o, o, 1.0, o, o, o],
        vec![mean, 1.0, 1.0, o, o, o, 1.0, o, o, o, o],
        vec![4.0, o, o, o, 1.0, o, o, o, 1.0, o, o],
        vec![2.0, o, 1.0, o, o, o, o, o, o, o, 1.0],
    ];
    assert_eq!(dense(&raw), want);
    // The label map binarizes: +1 positive whatever rule is asked for.
    let data = raw.binarize(&Positive::Auto).unwrap();
    assert_eq!(data.class_counts(), (2, 3));
}

#[test]
fn rare_and_unseen_values_share_other_and_many_values_are_hashed() {
    let dir = tempfile::tempdir().unwrap();
    let p = file(dir.path(), "t.csv", TEXT);
    // With min_count 2 only red keeps a column of its own.
    let opts = options(2).surveyed(&[&p]).unwrap();
    let schema = opts.schema.as_deref().unwrap();
    assert_eq!(
        schema.columns[1].encoding,
        Encoding::OneHot {
            kept: vec!["red".into()],
            missing: false
        }
    );
    // Scoring: columns reordered, no label, a value never seen, an extra column.
    let q = file(
        dir.path(),
        "q.csv",
        "extra,\"note, free\",colour,size\n0,zzz,purple,\n",
    );
    let mut scoring = Reading::Table(auc_data::TableReading {
        delimiter: b',',
        schema: schema.clone(),
    })
    .options();
    scoring.dim = None;
    let mut stream = auc_data::RowStream::open(&q, &scoring).unwrap();
    assert!(!stream.labelled());
    assert_eq!(stream.ignored_columns(), ["extra"]);
    let raw = stream.next_chunk(10).unwrap().unwrap();
    let mean = (1.5 + 4.0 + 2.0) / 3.0;
    // size missing (mean, flagged); purple -> colour (other); zzz -> note (other).
    let row = &dense(&raw)[0];
    assert_eq!(row[..4], [mean, 1.0, 0.0, 1.0]);
    assert_eq!(row[4..], [0.0, 1.0, 0.0]);
    // More kept categories than max_one_hot: hashed, by a fixed hash of the value.
    let mut few = options(1);
    few.csv.table.max_one_hot = 2;
    let opts = few.surveyed(&[&p]).unwrap();
    let schema = opts.schema.as_deref().unwrap();
    assert_eq!(
        schema.columns[1].encoding,
        Encoding::Hashed {
            buckets: 2,
            missing: false
        }
    );
    let raw = read_path(&p, &opts).unwrap();
    let first = schema.columns[1].first;
    assert_eq!(dense(&raw)[3][first + bucket("green", 2)], 1.0);
}

#[test]
fn the_schema_round_trips_and_a_damaged_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = file(dir.path(), "t.csv", TEXT);
    let opts = options(1).surveyed(&[&p]).unwrap();
    let reading = Reading::Table(auc_data::TableReading {
        delimiter: b',',
        schema: opts.schema.as_deref().unwrap().clone(),
    });
    let bytes = postcard::to_allocvec(&reading).unwrap();
    let back: Reading = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, reading);
    assert!(back.validate().is_ok());
    let Reading::Table(mut t) = back else {
        unreachable!()
    };
    t.schema.columns[1].first += 1;
    assert!(
        Reading::Table(t)
            .validate()
            .unwrap_err()
            .to_string()
            .contains("starts at feature")
    );
}

#[test]
fn headerless_and_libsvm_files_are_not_surveyed() {
    let dir = tempfile::tempdir().unwrap();
    let p = file(dir.path(), "n.csv", "1,2\n0,3\n");
    assert!(
        ReadOptions::default()
            .surveyed(&[&p])
            .unwrap()
            .schema
            .is_none()
    );
    let s = file(dir.path(), "n.libsvm", "1 1:2\n");
    assert!(
        ReadOptions::default()
            .surveyed(&[&s])
            .unwrap()
            .schema
            .is_none()
    );
}

#[test]
fn the_surveys_ranges_equal_those_of_the_encoded_rows() {
    let dir = tempfile::tempdir().unwrap();
    let p = file(dir.path(), "t.csv", TEXT);
    for (min_count, max_one_hot) in [(1, 64), (2, 64), (1, 2)] {
        let mut o = options(min_count);
        o.csv.table.max_one_hot = max_one_hot;
        let (opts, ranges) = o.survey_tables(&[&p]).unwrap().unwrap();
        let ranges = ranges.expect("every count kept");
        let raw = read_path(&p, &opts).unwrap();
        let mut pass = auc_data::FeatureRanges::new(0);
        pass.observe_rows(&raw);
        assert_eq!(
            (ranges.min(), ranges.max(), ranges.nnz(), ranges.rows()),
            (pass.min(), pass.max(), pass.nnz(), pass.rows()),
            "min_count {min_count}, max_one_hot {max_one_hot}"
        );
    }
}
