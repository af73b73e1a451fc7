//! [`survey`]: the first pass over files that can be read twice: the feature ranges a scaling is
//! fitted on, the label counts the default positive class needs, the dimension, and the seeded
//! sample a feature map is fitted on.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::Error;
use crate::Progress;
use crate::blocks;
use crate::memory::{self, Bytes};
use crate::reader::{MAX_LABELS, Reader, empty_raw};
use auc_data::{
    BlockRanges, FeatureRanges, Positive, PositiveChoice, RawData, ReadOptions, Scaler,
};
use auc_prep::RowSample;

/// What a first pass over the inputs found.
pub struct Survey {
    /// Rows (after `--limit`).
    pub rows: u64,
    /// The dimension.
    pub dim: usize,
    /// Per-feature ranges, when a scaling is to be fitted.
    pub ranges: Option<FeatureRanges>,
    /// The seeded sample of the rows as read, when a feature map is to be fitted: the same
    /// rows [`auc_prep::RowSample::of_dataset`] draws from the same rows in memory.
    pub sample: Option<RowSample>,
    /// Each distinct label (bits) with its count; beyond [`MAX_LABELS`] distinct labels, only the
    /// `--positive` ones are counted by value (the others are negatives).
    labels: HashMap<u64, usize>,
}

impl Survey {
    /// The label counts, sorted by label (as `RawData::label_counts` gives them).
    pub fn label_counts(&self) -> Vec<(f64, usize)> {
        let mut out: Vec<(f64, usize)> = self
            .labels
            .iter()
            .map(|(&b, &c)| (f64::from_bits(b), c))
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    /// The positive class `rule` picks on the surveyed labels, with the positive and negative
    /// counts.
    pub fn choose(&self, rule: &Positive) -> Result<(PositiveChoice, u64, u64), Error> {
        let counts = self.label_counts();
        let choice = PositiveChoice::from_counts(&counts, rule)?;
        let pos: usize = counts
            .iter()
            .filter(|(l, _)| choice.labels.iter().any(|p| p.to_bits() == l.to_bits()))
            .map(|(_, c)| c)
            .sum();
        Ok((choice, pos as u64, self.rows - pos as u64))
    }
}

/// The first pass over files that can be read twice: their dimension, label counts and, when
/// `ranges` is set, the per-feature ranges a scaling is fitted on (their memory checked against
/// `limit` before it grows). `given` are the `--positive` labels, which are always counted.
///
/// Plain LIBSVM files (without `--limit`) are surveyed in parallel blocks on the rayon pool
/// ([`crate::blocks`]; everything a survey keeps merges exactly, so the result is the same), unless
/// a block's ranges times the blocks in flight would not fit in `limit`; other inputs by one
/// parser.
pub fn survey(
    paths: &[PathBuf],
    opts: &ReadOptions,
    collect: Collect,
    given: Option<&[f64]>,
    limit: Bytes,
    progress: &dyn Progress,
) -> Result<Survey, Error> {
    survey_beside(paths, opts, collect, given, limit, &no_check, progress)
}

/// A check a first pass runs before its per-feature ranges grow to `dim` features of `bytes`:
/// what the run will hold beside them (a learner's state) refuses there, before the pass
/// allocates for a dimension the run cannot take. Its error stops the pass.
pub type RangesCheck<'a> = &'a dyn Fn(usize, u64) -> Result<(), Error>;

/// The check that lets every growth through.
pub fn no_check(_dim: usize, _bytes: u64) -> Result<(), Error> {
    Ok(())
}

/// Before a first pass's ranges grow to `dim` features: their memory (the scaler they fit)
/// against `limit`, then what the run holds beside them (`beside`).
fn check_ranges_growth(dim: usize, limit: Bytes, beside: RangesCheck<'_>) -> Result<(), Error> {
    let bytes = Scaler::bytes_for(dim);
    memory::check(
        bytes,
        limit,
        "fitting the scaling",
        "use --hash-bits B to fold the features into 2^B",
    )?;
    beside(dim, bytes)
}

/// [`survey`] with `beside` run before the ranges grow (after their own memory check).
pub fn survey_beside(
    paths: &[PathBuf],
    opts: &ReadOptions,
    collect: Collect,
    given: Option<&[f64]>,
    limit: Bytes,
    beside: RangesCheck<'_>,
    progress: &dyn Progress,
) -> Result<Survey, Error> {
    let opts = &opts.zero_based_for(paths);
    let mut plain = opts.limit.is_none();
    for p in paths {
        plain = plain && blocks::plain_libsvm(p, opts)?;
    }
    if plain
        && let Some(s) = survey_blocks(
            paths,
            opts,
            collect,
            given,
            limit,
            blocks::BLOCK_BYTES,
            beside,
            progress,
        )?
    {
        return Ok(s);
    }
    if let Some(t) = &opts.tallies {
        // The blocks gave up (too wide) part way: the parser reads everything again.
        t.clear();
    }
    survey_stream(paths, opts, collect, given, limit, beside, progress)
}

/// What a first pass gathers besides the rows, the dimension and the labels.
#[derive(Clone, Copy, Debug, Default)]
pub struct Collect {
    /// The per-feature ranges (a scaling is to be fitted).
    pub ranges: bool,
    /// A seeded sample of the rows (a feature map is to be fitted).
    pub sample: Option<SampleSpec>,
}

/// The sample a survey draws: at most `rows` rows, keyed with `seed` (see [`RowSample`]).
#[derive(Clone, Copy, Debug)]
pub struct SampleSpec {
    /// The most rows kept.
    pub rows: usize,
    /// The seed of the rows' keys.
    pub seed: u64,
}

impl SampleSpec {
    /// The sample the reshaping stages of `stages` (a feature map, one-hot indicators) are
    /// fitted on, when they ask for one.
    pub fn for_stages(stages: &auc_prep::TransformSpec) -> Option<SampleSpec> {
        stages.sample_seed().map(|seed| SampleSpec {
            rows: auc_prep::features::MAP_SAMPLE_ROWS,
            seed,
        })
    }

    fn empty(self) -> RowSample {
        RowSample::new(self.rows, self.seed)
    }

    fn of_rows(self, raw: &RawData) -> RowSample {
        let mut s = self.empty();
        for i in 0..raw.n() {
            s.offer(raw.row(i));
        }
        s
    }
}

/// What a block of a parallel survey found (`R` = [`BlockRanges`]), or all blocks so far
/// (`R` = [`FeatureRanges`]).
struct Part<R> {
    rows: u64,
    dim: usize,
    ranges: Option<R>,
    sample: Option<RowSample>,
    labels: HashMap<u64, usize>,
}

/// Adds one label's count to `labels` under the [`MAX_LABELS`] rule of a survey.
fn count_label(
    labels: &mut HashMap<u64, usize>,
    bits: u64,
    count: usize,
    given: Option<&[f64]>,
    source: &str,
) -> Result<(), Error> {
    let full = labels.len() >= MAX_LABELS;
    match labels.get_mut(&bits) {
        Some(c) => *c += count,
        None if !full || given.is_some_and(|g| g.contains(&f64::from_bits(bits))) => {
            labels.insert(bits, count);
        }
        None if given.is_some() => {}
        None => {
            return Err(Error::input(format!(
                "{source}: more than {MAX_LABELS} distinct labels (a regression target?): the default positive class needs every label's count; pass --positive LABEL[,LABEL..]"
            )));
        }
    }
    Ok(())
}

/// [`survey`] of plain LIBSVM files in parallel blocks of about `block_bytes`; `None` when a
/// block's ranges, times the blocks in flight, would exceed `limit` (the caller then surveys with
/// one parser, which checks the memory of one set of ranges).
#[allow(clippy::too_many_arguments)]
pub(crate) fn survey_blocks(
    paths: &[PathBuf],
    opts: &ReadOptions,
    collect: Collect,
    given: Option<&[f64]>,
    limit: Bytes,
    block_bytes: usize,
    beside: RangesCheck<'_>,
    progress: &dyn Progress,
) -> Result<Option<Survey>, Error> {
    let Collect { ranges, sample } = collect;
    let what = "first pass (ranges and labels)";
    let total_bytes: u64 = paths
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    progress.start(what, Some(total_bytes));
    let mut total = Part {
        rows: 0,
        dim: 0,
        ranges: ranges.then(|| FeatureRanges::new(0)),
        sample: sample.map(SampleSpec::empty),
        labels: HashMap::new(),
    };
    let mut too_wide = false;
    let mut done_bytes = 0u64;
    for path in paths {
        let source = path.display().to_string();
        let result = blocks::for_each(
            path,
            opts,
            block_bytes,
            |raw| {
                // The total's ranges of the block's dimension (the blocks' own are O(nnz)).
                if ranges && FeatureRanges::bytes_for(raw.dim()) > limit.0 {
                    return Ok(None);
                }
                let mut labels: HashMap<u64, usize> = HashMap::new();
                for &l in raw.raw_labels() {
                    *labels.entry(l.to_bits()).or_default() += 1;
                }
                let r = ranges.then(|| BlockRanges::of_rows(&raw));
                Ok(Some(Part {
                    rows: raw.n() as u64,
                    dim: raw.dim(),
                    ranges: r,
                    sample: sample.map(|s| s.of_rows(&raw)),
                    labels,
                }))
            },
            |part, bytes| {
                let Some(part) = part else {
                    too_wide = true;
                    return Err(Error::input("too wide for parallel blocks"));
                };
                if let (Some(t), Some(r)) = (&mut total.ranges, &part.ranges) {
                    if r.dim() > t.dim() {
                        check_ranges_growth(r.dim(), limit, beside)?;
                    }
                    t.merge_block(r);
                }
                if let (Some(t), Some(s)) = (&mut total.sample, part.sample) {
                    t.merge(s);
                }
                total.rows += part.rows;
                total.dim = total.dim.max(part.dim);
                // In label order, so that which labels are kept past MAX_LABELS does not
                // depend on a hash map's order.
                let mut labels: Vec<(u64, usize)> = part.labels.into_iter().collect();
                labels.sort_unstable();
                for (bits, count) in labels {
                    count_label(&mut total.labels, bits, count, given, &source)?;
                }
                progress.update(done_bytes + bytes, total.rows);
                Ok(())
            },
        );
        match result {
            Err(_) if too_wide => {
                progress.finish();
                return Ok(None);
            }
            r => r?,
        }
        done_bytes += std::fs::metadata(path).map_or(0, |m| m.len());
    }
    progress.finish();
    if let Some(r) = &mut total.ranges {
        r.grow(total.dim);
    }
    if let Some(s) = &mut total.sample {
        s.cover(total.dim);
    }
    Ok(Some(Survey {
        rows: total.rows,
        dim: total.dim,
        ranges: total.ranges,
        sample: total.sample,
        labels: total.labels,
    }))
}

/// [`survey`] with one parser (any input).
pub(crate) fn survey_stream(
    paths: &[PathBuf],
    opts: &ReadOptions,
    collect: Collect,
    given: Option<&[f64]>,
    limit: Bytes,
    beside: RangesCheck<'_>,
    progress: &dyn Progress,
) -> Result<Survey, Error> {
    let Collect { ranges, sample } = collect;
    let mut reader = Reader::open(paths, opts)?;
    let what = "first pass (ranges and labels)";
    progress.start(what, reader.total_bytes());
    let mut raw = empty_raw();
    let mut fr = ranges.then(|| FeatureRanges::new(0));
    let mut labels: HashMap<u64, usize> = HashMap::new();
    let mut kept = sample.map(SampleSpec::empty);
    while reader.read(&mut raw)? > 0 {
        if let Some(k) = &mut kept {
            for i in 0..raw.n() {
                k.offer(raw.row(i));
            }
        }
        if let Some(r) = &mut fr {
            let dim = raw.dim().max(r.dim());
            if dim > r.dim() {
                check_ranges_growth(dim, limit, beside)?;
            }
            r.observe_rows(&raw);
        }
        let source = reader.source();
        for &l in raw.raw_labels() {
            count_label(&mut labels, l.to_bits(), 1, given, &source)?;
        }
        progress.update(reader.bytes(), reader.rows());
    }
    progress.finish();
    if let Some(r) = &mut fr {
        r.grow(reader.dim());
    }
    if let Some(k) = &mut kept {
        k.cover(reader.dim());
    }
    Ok(Survey {
        rows: reader.rows(),
        dim: reader.dim(),
        ranges: fr,
        sample: kept,
        labels,
    })
}
