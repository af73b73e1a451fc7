//! Reading chunk by chunk (`RowStream`): the same rows, dimension and errors as the whole-file
//! readers for every chunk size, the dimension discovered on the way, the limit, bytes read, gzip
//! and standard input, feature hashing, and a huge index read without per-feature arrays.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use auc_core::{Label, Row};
use auc_data::{
    DataError, Format, ParseErrorKind as K, Positive, RawData, ReadOptions, RowStream, read_csv,
    read_libsvm, read_path,
};

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Reads `input` in chunks of `size` rows, checking each chunk's dimension against the stream's,
/// and returns the chunks concatenated.
fn by_chunks(
    input: &[u8],
    name: &str,
    opts: &ReadOptions,
    size: usize,
) -> Result<RawData, DataError> {
    let mut stream = RowStream::new(input, name, opts)?;
    let mut parts = Vec::new();
    let mut chunk = RawData::concat(vec![]);
    loop {
        let rows = stream.read_chunk(&mut chunk, size)?;
        if rows == 0 {
            break;
        }
        assert!(rows <= size);
        assert_eq!(chunk.n(), rows);
        assert_eq!(chunk.dim(), stream.dim());
        parts.push(chunk.clone());
    }
    if opts.limit.is_none() {
        assert_eq!(stream.bytes_read(), input.len() as u64);
    }
    let n: usize = parts.iter().map(RawData::n).sum();
    assert_eq!(stream.rows_read(), n);
    let dim = stream.dim();
    let all = RawData::concat(parts);
    // An empty stream has no chunk to carry the dimension.
    all.with_dim(dim)
}

/// Chunked reading equals the whole-file reader for every chunk size, rows, labels, dimension.
fn check_chunks(input: &[u8], name: &str, opts: &ReadOptions) {
    let whole = RowStream::new(input, name, opts).and_then(RowStream::read_all);
    for size in [1, 2, 3, 7, 1000] {
        let chunked = by_chunks(input, name, opts, size);
        match (&whole, &chunked) {
            (Ok(w), Ok(c)) => {
                assert_eq!((w.n(), w.dim()), (c.n(), c.dim()), "size {size}");
                assert_eq!(w.raw_labels(), c.raw_labels());
                for i in 0..w.n() {
                    let (a, b) = (w.row(i), c.row(i));
                    let (mut x, mut y) = (vec![], vec![]);
                    a.for_each(|j, v| x.push((j, v.to_bits())));
                    b.for_each(|j, v| y.push((j, v.to_bits())));
                    assert_eq!(x, y, "row {i}, size {size}");
                }
                assert_eq!(w.reading(), c.reading());
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "size {size}"),
            _ => panic!("chunk size {size} disagrees: {whole:?} vs {chunked:?}"),
        }
    }
}

#[test]
fn chunks_equal_the_whole_file_for_every_size() {
    let libsvm = b"1 1:1 3:2\n\n-1 2:0.5 # c\n2 7:1\n-1\n1 2:1 9:0\n";
    check_chunks(libsvm, "x.libsvm", &ReadOptions::default());
    check_chunks(&gzip(libsvm), "x.libsvm.gz", &ReadOptions::default());
    let limited = ReadOptions {
        limit: Some(4),
        hash_bits: Some(2),
        ..Default::default()
    };
    check_chunks(libsvm, "x.libsvm", &limited);
    let csv = b"y,a,b\n1,2,3\n\n0,\"4\",5\n1,0,0\n";
    check_chunks(csv, "x.csv", &ReadOptions::default());
    // Errors are the same, at the same place, whatever the chunk size.
    check_chunks(
        b"1 1:1\n-1 2:1\n1 3:x\n",
        "bad.libsvm",
        &ReadOptions::default(),
    );
    check_chunks(b"1,2\n0,3\n1\n", "bad.csv", &ReadOptions::default());
}

#[test]
fn the_dimension_grows_as_indices_appear() {
    let text = b"1 2:1\n-1 5:1\n1 3:1\n";
    let mut s = RowStream::new(&text[..], "d", &ReadOptions::default()).unwrap();
    assert_eq!(s.dim(), 0);
    let a = s.next_chunk(1).unwrap().unwrap();
    assert_eq!((a.dim(), s.dim()), (2, 2));
    let b = s.next_chunk(1).unwrap().unwrap();
    assert_eq!(b.dim(), 5);
    let c = s.next_chunk(5).unwrap().unwrap();
    assert_eq!((c.n(), c.dim()), (1, 5));
    assert!(s.next_chunk(5).unwrap().is_none());
    // A given dimension fixes it from the start.
    let fixed = ReadOptions {
        dim: Some(9),
        ..Default::default()
    };
    let mut s = RowStream::new(&text[..], "d", &fixed).unwrap();
    assert_eq!(s.dim(), 9);
    assert_eq!(s.next_chunk(1).unwrap().unwrap().dim(), 9);
}

#[test]
fn the_limit_stops_the_stream() {
    let opts = ReadOptions {
        limit: Some(3),
        ..Default::default()
    };
    let text = b"1\n2\n3\n4\n5\n";
    let mut s = RowStream::new(&text[..], "l", &opts).unwrap();
    assert_eq!(s.next_chunk(2).unwrap().unwrap().n(), 2);
    assert_eq!(s.next_chunk(2).unwrap().unwrap().n(), 1);
    assert!(s.next_chunk(2).unwrap().is_none());
    assert_eq!(s.rows_read(), 3);
}

#[test]
fn chunks_binarize_with_a_class_fixed_beforehand() {
    // The second chunk holds only negatives: a known positive class still applies.
    let text = b"1 1:1\n-1 1:2\n-1 1:3\n-1 1:4\n";
    let mut s = RowStream::new(&text[..], "b", &ReadOptions::default()).unwrap();
    let known = Positive::Known(vec![1.0]);
    let first = s.next_chunk(2).unwrap().unwrap().binarize(&known).unwrap();
    let second = s.next_chunk(2).unwrap().unwrap().binarize(&known).unwrap();
    assert_eq!(first.labels(), &[Label::Pos, Label::Neg]);
    assert_eq!(second.labels(), &[Label::Neg, Label::Neg]);
}

#[test]
fn csv_streams_resolve_their_reading_before_the_first_chunk() {
    let text = b"a,\"y\"\n1,0\n2,1\n";
    let opts = ReadOptions {
        csv: auc_data::CsvOptions {
            label: auc_data::LabelColumn::Name("y".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let s = RowStream::new(&text[..], "h.csv", &opts).unwrap();
    let r = s.reading().csv().unwrap();
    assert_eq!((r.label_index, r.feature_names()), (1, Some(vec!["a"])));
    assert_eq!((s.dim(), s.rows_read()), (1, 0));
    // A bad header is an error of the constructor.
    let bad = ReadOptions {
        csv: auc_data::CsvOptions {
            label: auc_data::LabelColumn::Name("z".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    assert!(matches!(
        RowStream::new(&text[..], "h.csv", &bad),
        Err(DataError::Parse {
            kind: K::NoSuchColumn { .. },
            ..
        })
    ));
}

#[test]
fn format_follows_the_name_under_gz() {
    assert_eq!(Format::Auto.resolve("x.csv.gz"), Format::Csv);
    assert_eq!(Format::Auto.resolve("X.TSV.GZ"), Format::Csv);
    assert_eq!(Format::Auto.resolve("x.libsvm.gz"), Format::Libsvm);
    assert_eq!(Format::Auto.resolve("x.gz"), Format::Libsvm);
    assert_eq!(Format::Auto.resolve("-"), Format::Libsvm);
    assert_eq!(Format::Csv.resolve("x.libsvm"), Format::Csv);
}

#[test]
fn gzip_files_are_detected_by_content_and_corruption_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = b"1 1:1\n-1 2:1\n";
    // No `.gz` in the name: the magic bytes decide.
    let path = dir.path().join("data.libsvm");
    std::fs::write(&path, gzip(text)).unwrap();
    let d = read_path(&path, &ReadOptions::default()).unwrap();
    assert_eq!(
        d,
        read_libsvm(&text[..], "t", &ReadOptions::default()).unwrap()
    );
    let stream = RowStream::open(&path, &ReadOptions::default()).unwrap();
    assert_eq!(stream.total_bytes(), Some(gzip(text).len() as u64));
    // Corrupt the deflate data.
    let mut bad = gzip(&text.repeat(50));
    let k = bad.len() / 2;
    bad[k] ^= 0x55;
    bad[k + 1] ^= 0xaa;
    std::fs::write(&path, &bad).unwrap();
    let e = read_path(&path, &ReadOptions::default()).unwrap_err();
    let name = path.display().to_string();
    assert!(
        matches!(&e, DataError::Gzip { file, .. } if *file == name)
            || matches!(&e, DataError::Parse { file, .. } if *file == name),
        "{e}"
    );
    // Truncated: always a gzip error.
    let mut cut = gzip(text);
    cut.truncate(cut.len() - 5);
    std::fs::write(&path, &cut).unwrap();
    let e = read_path(&path, &ReadOptions::default()).unwrap_err();
    assert!(
        matches!(&e, DataError::Gzip { file, .. } if *file == name),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with(&format!("{name}: corrupt or truncated gzip data: "))
    );
}

#[test]
fn hashing_folds_indices_into_two_to_the_b() {
    // B = 2: 1-based indices 1, 5, 9 are 0-based 0, 4, 8, all folded to 0 and summed; 3 -> 2.
    let opts = ReadOptions {
        hash_bits: Some(2),
        ..Default::default()
    };
    let d = read_libsvm(&b"1 1:1 3:2 5:0.5 9:0.25\n-1 2:1 6:-1\n"[..], "h", &opts).unwrap();
    assert_eq!(d.dim(), 4);
    let Row::Sparse(r) = d.row(0) else {
        panic!("CSR")
    };
    assert_eq!(r.indices(), &[0, 2]);
    assert_eq!(r.values(), &[1.75, 2.0]);
    // 2 -> 1 and 6 -> 1 sum to 0: dropped.
    assert_eq!(d.row(1).nnz(), 0);
    // A huge index folds into the small space.
    let big = read_libsvm(&b"1 4294967295:3\n"[..], "h", &opts).unwrap();
    assert_eq!((big.dim(), big.row(0).get(2)), (4, 3.0));
    // Indices are still checked as written.
    assert!(read_libsvm(&b"1 5:1 1:1\n"[..], "h", &opts).is_err());
    // The options are checked.
    let bad = |bits, dim| ReadOptions {
        hash_bits: Some(bits),
        dim,
        ..Default::default()
    };
    for (o, msg) in [
        (
            bad(0, None),
            "hash bits 0 is out of range: expected 1 to 31 (a dimension of 2 to 2^31)",
        ),
        (
            bad(32, None),
            "hash bits 32 is out of range: expected 1 to 31 (a dimension of 2 to 2^31)",
        ),
        (
            bad(3, Some(7)),
            "dimension 7 disagrees with 3 hash bits, which give dimension 8",
        ),
    ] {
        assert_eq!(
            read_libsvm(&b"1\n"[..], "h", &o).unwrap_err().to_string(),
            msg
        );
    }
    assert_eq!(
        read_libsvm(&b"1 9:1\n"[..], "h", &bad(3, Some(8)))
            .unwrap()
            .dim(),
        8
    );
    // 31 bits: dimension 2^31.
    assert_eq!(
        read_libsvm(&b"1 9:1\n"[..], "h", &bad(31, None))
            .unwrap()
            .dim(),
        1 << 31
    );
    // Overflowing sums are a parse error at the token that overflowed.
    let e = read_libsvm(&b"1 1:1e308 5:1e308\n"[..], "h", &opts).unwrap_err();
    assert_eq!(
        e.to_string(),
        "h:1:11: the values hashed to feature 0 (0-based) sum to an infinite number: expected a finite sum"
    );
}

#[test]
fn issue_11_item_9_a_huge_index_reads_as_sparse_data() {
    // Issue 11, item 9: `1 4294967295:1` is legal; reading allocates nothing per feature.
    let d = read_libsvm(&b"1 4294967295:1\n"[..], "big", &ReadOptions::default()).unwrap();
    assert_eq!((d.n(), d.dim(), d.nnz()), (1, 4_294_967_295, 1));
    assert!(d.stored_bytes() < 100);
    let mut s = RowStream::new(&b"1 4294967295:1\n"[..], "big", &ReadOptions::default()).unwrap();
    assert_eq!(s.next_chunk(10).unwrap().unwrap().dim(), 4_294_967_295);
}

/// Reads standard input with `read_path("-")` when run as the child of
/// `standard_input_is_read_for_dash`; otherwise runs itself as that child.
#[test]
fn standard_input_is_read_for_dash() {
    if std::env::var_os("AUC_DATA_STDIN_CHILD").is_some() {
        let d = read_path(Path::new("-"), &ReadOptions::default()).unwrap();
        assert_eq!(d.raw_labels(), &[1.0, -1.0]);
        assert_eq!((d.dim(), d.nnz()), (3, 2));
        return;
    }
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([
            "--exact",
            "standard_input_is_read_for_dash",
            "--test-threads=1",
        ])
        .env("AUC_DATA_STDIN_CHILD", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // gzip on stdin, detected by its magic bytes.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&gzip(b"1 1:1\n-1 3:2\n")).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn csv_from_a_stream_matches_read_csv() {
    let text = b"1,2\n0,3\n";
    let opts = ReadOptions {
        format: Format::Csv,
        ..Default::default()
    };
    let streamed = RowStream::new(&text[..], "-", &opts)
        .unwrap()
        .read_all()
        .unwrap();
    assert_eq!(streamed, read_csv(&text[..], "-", &opts).unwrap());
}

/// A value that survives postcard (model files) and JSON (`--json` output) unchanged.
fn round_trips<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let bytes = postcard::to_allocvec(value).unwrap();
    assert_eq!(&postcard::from_bytes::<T>(&bytes).unwrap(), value);
    let json = serde_json::to_string(value).unwrap();
    assert_eq!(&serde_json::from_str::<T>(&json).unwrap(), value, "{json}");
}

#[test]
fn reading_options_and_readings_serialize() {
    use auc_data::{CsvOptions, LabelColumn, PositiveChoice, Reading};
    for label in [
        LabelColumn::Index(3),
        LabelColumn::Name("y".into()),
        LabelColumn::Last,
    ] {
        round_trips(&ReadOptions {
            dim: Some(7),
            limit: None,
            format: Format::Csv,
            csv: CsvOptions {
                label,
                delimiter: b';',
                header: Some(true),
                ..Default::default()
            },
            hash_bits: Some(18),
            cross_bits: Some(3),
            max_line_bytes: 1 << 20,
            bounded_values: true,
            schema: None,
            zero_based: auc_data::ZeroBased::Yes,
            tallies: None,
        });
    }
    // Options serialized before `zero_based` existed decode with `auto`.
    let old = r#"{"dim":null,"limit":null,"format":"libsvm","csv":{"label":"Last","delimiter":44,"header":null},"hash_bits":null}"#;
    let decoded: ReadOptions = serde_json::from_str(old).unwrap();
    assert_eq!(decoded.zero_based, auc_data::ZeroBased::Auto);
    for f in [Format::Auto, Format::Libsvm, Format::Csv] {
        round_trips(&f);
    }
    assert_eq!(
        serde_json::to_string(&Format::Libsvm).unwrap(),
        "\"libsvm\""
    );
    let d = read_csv(&b"y,\"a,b\"\n1,2\n"[..], "r.csv", &ReadOptions::default()).unwrap();
    round_trips(d.reading());
    round_trips(&Reading::Libsvm);
    round_trips(&Reading::LibsvmZeroBased);
    // Model files hold a reading by its variant number: the first ones keep theirs.
    assert_eq!(postcard::to_allocvec(&Reading::Libsvm).unwrap(), [0]);
    assert_eq!(
        postcard::to_allocvec(&Reading::LibsvmZeroBased).unwrap(),
        [3]
    );
    for p in [
        Positive::Auto,
        Positive::Minority,
        Positive::Labels(vec![1.0, 2.0]),
        Positive::Known(vec![-1.0]),
    ] {
        round_trips(&p);
    }
    let choice: PositiveChoice = d.choose_positive(&Positive::Auto).unwrap();
    round_trips(&choice);
}

#[test]
fn streams_can_move_to_a_parser_thread() {
    fn assert_send<T: Send>() {}
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send::<RowStream<Box<dyn std::io::BufRead + Send>>>();
    assert_send::<RowStream<&'static [u8]>>();
    assert_send_sync::<auc_data::Reading>();
    assert_send_sync::<auc_data::Scaler>();
    assert_send_sync::<auc_data::FeatureRanges>();
    assert_send_sync::<auc_data::PositiveChoice>();
    // And a chunk read on one thread is used on another.
    let handle = std::thread::spawn(|| {
        let mut s = RowStream::open(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/heart.libsvm"),
            &ReadOptions::default(),
        )
        .unwrap();
        s.next_chunk(100).unwrap().unwrap()
    });
    assert_eq!(handle.join().unwrap().n(), 100);
}

#[test]
fn ranges_observed_chunk_by_chunk_fit_the_scaler_of_the_whole_file() {
    use auc_data::{FeatureRanges, Scaler, Scaling};
    // Feature 6 is declared by an explicit zero only; feature 3 appears in the last chunk.
    let text = b"1 1:2 2:-1\n-1 1:0.5 6:0\n1 2:3\n-1 1:-4 3:1\n";
    let whole = read_libsvm(&text[..], "r", &ReadOptions::default())
        .unwrap()
        .binarize(&Positive::Auto)
        .unwrap();
    let mut s = RowStream::new(&text[..], "r", &ReadOptions::default()).unwrap();
    let mut ranges = FeatureRanges::new(0);
    while let Some(chunk) = s.next_chunk(2).unwrap() {
        ranges.observe_rows(&chunk);
    }
    assert_eq!(ranges, FeatureRanges::of(&whole));
    for kind in Scaling::ALL {
        assert_eq!(ranges.finish(kind), Scaler::fit(kind, &whole), "{kind}");
    }
}

#[test]
fn chunks_binarized_with_the_whole_inputs_layout_have_its_rows() {
    use auc_data::{FeatureRanges, Layout};
    // Density 4 / (4 * 4) = 0.25 overall: dense as a whole, though the second chunk alone
    // (1 / 8) would be sparse by density.
    let text = b"1 1:1 2:1 3:1\n-1 4:1\n-1 1:2\n1\n";
    let known = Positive::Known(vec![1.0]);
    let raw = read_libsvm(&text[..], "l", &ReadOptions::default()).unwrap();
    let whole = raw.binarize(&known).unwrap();
    assert!(!whole.is_sparse());
    let mut ranges = FeatureRanges::new(0);
    let mut s = RowStream::new(&text[..], "l", &ReadOptions::default()).unwrap();
    let mut chunks = Vec::new();
    while let Some(c) = s.next_chunk(2).unwrap() {
        ranges.observe_rows(&c);
        chunks.push(c);
    }
    let layout = Layout::for_input(true, ranges.density());
    assert_eq!(layout, Layout::Dense);
    assert!(chunks[1].binarize(&known).unwrap().is_sparse());
    let mut i = 0;
    for c in &chunks {
        let d = c
            .clone()
            .with_dim(s.dim())
            .unwrap()
            .binarize_as(&known, layout)
            .unwrap();
        for (x, _) in d.iter() {
            assert_eq!(x, whole.row(i));
            i += 1;
        }
    }
    // Layouts on their own: CSV (dense) input forced sparse, LIBSVM input forced dense.
    let csv = read_csv(&b"1,0,2\n0,0,0\n"[..], "c", &ReadOptions::default()).unwrap();
    let sparse = csv.binarize_as(&Positive::Auto, Layout::Sparse).unwrap();
    assert!(sparse.is_sparse());
    assert_eq!(
        (sparse.nnz(), sparse.row(0).nnz(), sparse.class_counts()),
        (1, 1, (1, 1))
    );
    let dense = raw.binarize_as(&known, Layout::Dense).unwrap();
    assert_eq!(dense, whole);
    // Taking the rows by value, for every input kind and layout: the storage the layout asks
    // for, each row's values as read (a stored zero reads as 0) and its label by the rule.
    for input in [&raw, &csv] {
        let read_sparse = matches!(input.row(0), Row::Sparse(_));
        for layout in [
            Layout::AsRead,
            Layout::ByDensity,
            Layout::Dense,
            Layout::Sparse,
        ] {
            let d = input.clone().into_binarized(&known, layout).unwrap();
            let sparse = match layout {
                Layout::AsRead => read_sparse,
                Layout::ByDensity => input.is_sparse(),
                Layout::Dense => false,
                Layout::Sparse => true,
            };
            assert_eq!(d.is_sparse(), sparse, "{layout:?}");
            assert_eq!((d.n(), d.dim()), (input.n(), input.dim()));
            for i in 0..input.n() {
                for j in 0..input.dim() {
                    assert_eq!(
                        d.row(i).get(j).to_bits(),
                        (0.0 + input.row(i).get(j)).to_bits(),
                        "{layout:?} row {i} feature {j}"
                    );
                }
                let positive = input.raw_labels()[i].to_bits() == 1.0f64.to_bits();
                assert_eq!(d.label(i).is_pos(), positive);
            }
            let auto = input.choose_positive(&Positive::Auto).unwrap().known();
            assert_eq!(
                input
                    .clone()
                    .into_binarized(&Positive::Auto, layout)
                    .unwrap(),
                input.clone().into_binarized(&auto, layout).unwrap()
            );
        }
    }
    assert_eq!(Layout::for_input(false, 0.01), Layout::Dense);
    assert_eq!(Layout::for_input(true, 0.01), Layout::Sparse);
}
