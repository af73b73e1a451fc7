//! Unit tests of the passes: parallel blocks against one parser, survey and learning pass.

use std::path::PathBuf;

use auc_data::{FeatureRanges, ReadOptions, Scaler};
use auc_prep::Transform;

use crate::Silent;
use crate::memory::Bytes;
use crate::pass::*;
use crate::reader::*;
use crate::shaper::*;
use crate::survey::*;

/// A LIBSVM file of `rows` rows in a fresh directory: sparse rows with growing indices,
/// negative and positive values, labels from `labels` in turn.
fn file(name: &str, rows: usize, labels: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("auc-feed-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("data.libsvm");
    let mut text = String::new();
    for i in 0..rows {
        text.push_str(labels[i % labels.len()]);
        let mut row = std::collections::BTreeMap::new();
        for j in 0..(i % 7) {
            let idx = 1 + (i * 31 + j * 17) % (5 + i / 40);
            row.insert(idx, ((i * 13 + j) % 23) as f64 / 4.0 - 2.5);
        }
        for (idx, v) in row {
            text.push_str(&format!(" {idx}:{v}"));
        }
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}

fn key(s: &Survey) -> (u64, usize, Option<FeatureRanges>, Vec<(f64, usize)>) {
    (s.rows, s.dim, s.ranges.clone(), s.label_counts())
}

#[test]
fn parallel_blocks_survey_like_one_parser() {
    let path = file("same", 3_000, &["+1", "-1", "-1", "3", "-1"]);
    let paths = vec![path.clone(), path.clone()];
    let opts = ReadOptions::default();
    let limit = Bytes(1 << 30);
    let sample = Some(crate::SampleSpec { rows: 50, seed: 7 });
    for ranges in [false, true] {
        let one = survey_stream(
            &paths,
            &opts,
            crate::Collect { ranges, sample },
            None,
            limit,
            &crate::no_check,
            &Silent,
        )
        .unwrap();
        let one_sample = one.sample.clone().unwrap().into_dataset();
        assert_eq!(one_sample.n(), 50);
        // Blocks of about 1 kB: dozens of blocks per file, several windows.
        for block in [1_000, 7_777, 1 << 22] {
            let par = survey_blocks(
                &paths,
                &opts,
                crate::Collect { ranges, sample },
                None,
                limit,
                block,
                &crate::no_check,
                &Silent,
            )
            .unwrap()
            .expect("fits");
            assert_eq!(key(&par), key(&one), "ranges {ranges}, block {block}");
            // The map's sample is the same rows, whatever the blocks.
            assert_eq!(
                par.sample.unwrap().into_dataset(),
                one_sample,
                "block {block}"
            );
        }
        assert_eq!(one.rows, 6_000);
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn parallel_blocks_name_the_file_line_of_an_error() {
    let path = file("error", 2_000, &["+1", "-1"]);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let at = text.match_indices('\n').nth(1_499).unwrap().0;
    text.insert_str(at, " 999:abc");
    std::fs::write(&path, text).unwrap();
    let opts = ReadOptions::default();
    let paths = vec![path.clone()];
    let one = survey_stream(
        &paths,
        &opts,
        crate::Collect {
            ranges: true,
            sample: None,
        },
        None,
        Bytes(1 << 30),
        &crate::no_check,
        &Silent,
    )
    .err()
    .unwrap()
    .to_string();
    let par = survey_blocks(
        &paths,
        &opts,
        crate::Collect {
            ranges: true,
            sample: None,
        },
        None,
        Bytes(1 << 30),
        1_000,
        &crate::no_check,
        &Silent,
    )
    .err()
    .unwrap()
    .to_string();
    assert!(one.contains(":1500:"), "{one}");
    assert_eq!(par, one);
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

#[test]
fn a_survey_too_wide_for_parallel_blocks_falls_back() {
    let path = file("wide", 500, &["+1", "-1"]);
    let opts = ReadOptions::default();
    let paths = vec![path.clone()];
    let need = FeatureRanges::bytes_for(20);
    let collect = crate::Collect {
        ranges: true,
        sample: None,
    };
    // Room for the total's ranges but not for a window of dense ones: the blocks keep only
    // the features they store, so the parallel survey runs and agrees with one parser.
    let par = survey_blocks(
        &paths,
        &opts,
        collect,
        None,
        Bytes(need * 2),
        1_000,
        &crate::no_check,
        &Silent,
    )
    .unwrap()
    .expect("block ranges are O(nnz): no fallback");
    let s = survey(&paths, &opts, collect, None, Bytes(need * 2), &Silent).unwrap();
    assert_eq!(s.rows, 500);
    assert_eq!(par.rows, s.rows);
    assert_eq!(par.ranges, s.ranges);
    // Without room for the total's ranges the blocks do not survey (they give way to one
    // parser, or the scaling's memory check refuses).
    let r = survey_blocks(
        &paths,
        &opts,
        collect,
        None,
        Bytes(need / 2),
        1_000,
        &crate::no_check,
        &Silent,
    );
    assert!(!matches!(r, Ok(Some(_))));
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}

/// What a learning pass hands on: each row's stored entries (bits), its label and the
/// dimension the learner has before it learns from the row; then the rows and dimension of
/// [`Done`].
type Pass = (Vec<RowSeen>, u64, usize);

/// A row as a pass handed it on: entries (bits), positive, the learner's dimension.
type RowSeen = (Vec<(usize, u64)>, bool, usize);

fn collect(rows: &mut Vec<RowSeen>, width: &mut usize, c: &Chunk) {
    let mut widths = c.widths.iter().peekable();
    for (i, (x, y)) in c.data.iter().enumerate() {
        while let Some((_, d)) = widths.next_if(|(at, _)| *at == i) {
            *width = (*width).max(*d);
        }
        let mut entries = Vec::new();
        x.for_each(|j, v| entries.push((j, v.to_bits())));
        rows.push((entries, y.is_pos(), *width));
    }
}

/// A learning pass over `paths` with one parser (`block: None`) or in parallel blocks of
/// `block` bytes.
fn pass(paths: &[PathBuf], opts: &ReadOptions, prep: &Shaper, block: Option<usize>) -> Pass {
    let reader = Reader::open(paths, opts).unwrap();
    let (mut rows, mut width) = (Vec::new(), 0);
    let done = match block {
        None => run(reader, prep.clone(), false, |c| {
            collect(&mut rows, &mut width, &c);
            Ok::<(), crate::Error>(())
        }),
        Some(b) => {
            let mut plan = reader.block_plan(prep).unwrap().expect("plain files");
            plan.block_bytes = b;
            run_blocks(reader, prep.clone(), plan, |c| {
                collect(&mut rows, &mut width, &c);
                Ok(())
            })
        }
    }
    .unwrap();
    (rows, done.rows, done.dim)
}

/// The learning pass in parallel blocks (of about 1 kB and 7.7 kB: dozens of blocks a file,
/// many windows) hands on the rows of one parser, in order, and the learner's dimension
/// before each row is the one one parser's chunks give it: fixed (`--dim`), and growing
/// (a file read once), where indices written with a zero value count too.
#[test]
fn parallel_blocks_learn_like_one_parser() {
    let path = file("pass", 3_000, &["+1", "-1", "-1", "-1", "-1"]);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut zeros = String::new();
    for (i, line) in text.lines().enumerate() {
        zeros.push_str(line);
        if i % 97 == 5 {
            zeros.push_str(&format!(" {}:0", 6 + i / 20));
        }
        zeros.push('\n');
    }
    std::fs::write(&path, zeros).unwrap();
    let paths = vec![path.clone(), path.clone()];
    let preparation = |unit_norm| Transform::scale_then_norm(Scaler::None, unit_norm);
    let growing = ReadOptions::default();
    let fixed = ReadOptions {
        dim: Some(200),
        ..ReadOptions::default()
    };
    for (opts, min_dim) in [(&growing, 0), (&growing, 30), (&fixed, 200)] {
        for unit_norm in [false, true] {
            let prep = Shaper::new(Classes::Binary, min_dim, preparation(unit_norm));
            let one = pass(&paths, opts, &prep, None);
            assert_eq!(one.1, 6_000);
            // The dimension grows part way (which the blocks must replay).
            let first = one.0[0].2;
            assert!(one.0.last().unwrap().2 > first || opts.dim.is_some());
            for block in [1_000, 7_777, 1 << 20] {
                let par = pass(&paths, opts, &prep, Some(block));
                assert!(
                    par == one,
                    "dim {:?}, min_dim {min_dim}, block {block}",
                    opts.dim
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
