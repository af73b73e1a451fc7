//! What preparation stages are fitted on, gathered from rows in one pass and kept apart from the
//! fit, so that partitions surveyed in other processes give the stages of the rows surveyed
//! together: the feature ranges of a scaling and the seeded sample of a feature map
//! ([`MapSample`]).
//!
//! [`survey`] reads rows once (the first pass of every array fit with a map); [`MapSample::merge`]
//! is exact (ranges by min, max and counts; the bottom-$k$ sample of a union is the merge of the
//! parts' samples, `auc_prep::RowSample`), so surveying the partitions of a Dask array apart and
//! merging the surveys gives, bit for bit, the survey of the concatenated rows; [`fit`] turns a
//! survey into the stages exactly as an in-memory fit does (it *is* the in-memory fit's second
//! half). Between processes a survey travels as bytes ([`MapSample::to_bytes`]: [`MAGIC`], a
//! format version, then the postcard encoding of the dimension, the ranges and the sample),
//! checked when read.

use auc_data::FeatureRanges;
use auc_prep::{RowSample, ScaleEvidence, Transform, TransformSpec};
use serde::{Deserialize, Serialize};

use crate::input::{Rows, Scratch};

/// The first bytes of a survey's bytes.
pub(crate) const MAGIC: &[u8; 16] = b"auclearn-survey\0";

/// The layout version after [`MAGIC`] (a little-endian `u32`).
const FORMAT_VERSION: u32 = 1;

/// The ranges and the map's sample of some rows of `dim` features.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct MapSample {
    /// The rows' number of features.
    dim: usize,
    /// The feature ranges, when the scaling asked is fitted on them.
    ranges: Option<FeatureRanges>,
    /// The seeded sample of the rows as read, when a feature map is asked.
    sample: Option<RowSample>,
}

/// The evidence `stages` are fitted on, from one pass over `rows`: the ranges when the scaling
/// needs them, the map's seeded sample (covering the rows' dimension) when there is a map.
pub(crate) fn survey(rows: &Rows<'_>, stages: &TransformSpec) -> MapSample {
    let mut ranges = stages
        .needs_ranges()
        .then(|| FeatureRanges::new(rows.dim()));
    let mut sample = stages.empty_sample();
    if ranges.is_some() || sample.is_some() {
        let mut scratch = Scratch::default();
        rows.for_each(&mut scratch, |_, x| {
            if let Some(r) = &mut ranges {
                r.observe(x);
            }
            if let Some(s) = &mut sample {
                s.offer(x);
            }
        });
    }
    if let Some(s) = &mut sample {
        s.cover(rows.dim());
    }
    MapSample {
        dim: rows.dim(),
        ranges,
        sample,
    }
}

/// The stages `stages` fitted on a survey (of the same stages: see [`MapSample::check`]).
pub(crate) fn fit(stages: &TransformSpec, survey: MapSample) -> Result<Transform, String> {
    survey.check(stages)?;
    let evidence = match &survey.ranges {
        Some(r) if stages.needs_ranges() => ScaleEvidence::Ranges(r),
        _ => ScaleEvidence::Nothing,
    };
    let result = match survey.sample {
        Some(s) if stages.reshapes() => stages.fit_sampled(evidence, &s.into_dataset()),
        _ => stages.fit(evidence),
    };
    result.map_err(|e| e.to_string())
}

impl MapSample {
    /// The number of features of the surveyed rows.
    pub(crate) fn dim(&self) -> usize {
        self.dim
    }

    /// Whether no row was surveyed (the ranges count every row; a sample keeps every row until
    /// it is full).
    pub(crate) fn is_empty(&self) -> bool {
        match (&self.ranges, &self.sample) {
            (Some(r), _) => r.rows() == 0,
            (None, Some(s)) => s.is_empty(),
            (None, None) => true,
        }
    }

    /// Refuses a survey that lacks what `stages` are fitted on, or whose sample was drawn for
    /// another map (another seed or size).
    fn check(&self, stages: &TransformSpec) -> Result<(), String> {
        if stages.needs_ranges() && self.ranges.is_none() {
            return Err(format!(
                "the survey holds no feature ranges, and scaling {} is fitted on them: survey the rows with this scale",
                stages.scaling.name()
            ));
        }
        if let Some(seed) = stages.sample_seed() {
            let Some(s) = &self.sample else {
                return Err("the survey holds no sample for the feature map: survey the rows with these features".to_owned());
            };
            let want = auc_prep::features::MAP_SAMPLE_ROWS;
            if s.seed() != seed || s.capacity() != want {
                return Err(format!(
                    "the survey's sample was drawn with seed {} ({} rows at most), the map asks seed {} ({want} rows): survey the rows with this seed",
                    s.seed(),
                    s.capacity(),
                    seed
                ));
            }
        }
        Ok(())
    }

    /// Adds the survey of other rows with the same columns and the same asks, exactly.
    ///
    /// # Errors
    /// Naming the difference, when the two surveys have other columns, one holds ranges or a
    /// sample the other does not, or the samples were drawn differently.
    pub(crate) fn merge(&mut self, other: MapSample) -> Result<(), String> {
        if other.dim != self.dim {
            return Err(format!(
                "surveys of rows of {} and of {} features: every partition must have the same columns",
                self.dim, other.dim
            ));
        }
        match (&mut self.ranges, other.ranges) {
            (Some(a), Some(b)) => a.merge(&b),
            (None, None) => {}
            _ => return Err("one survey holds feature ranges and the other does not: survey every partition with the same scale".to_owned()),
        }
        match (&mut self.sample, other.sample) {
            (Some(a), Some(b)) if (a.seed(), a.capacity()) == (b.seed(), b.capacity()) => {
                a.merge(b);
            }
            (None, None) => {}
            _ => return Err("the surveys' samples were drawn differently (with and without a map, or with other seeds): survey every partition with the same features and seed".to_owned()),
        }
        Ok(())
    }

    /// The bytes [`MapSample::from_bytes`] reads.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_allocvec(self).expect("surveys serialize to postcard");
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads the bytes of [`MapSample::to_bytes`], checking the ranges and the sample against
    /// the dimension.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<MapSample, String> {
        let bad = |why: String| format!("not a survey's bytes: {why}");
        let head = MAGIC.len() + 4;
        if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
            return Err(bad("the header is missing".to_owned()));
        }
        let version = u32::from_le_bytes(bytes[MAGIC.len()..head].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this auclearn reads version {FORMAT_VERSION}"
            )));
        }
        let s = match postcard::take_from_bytes::<MapSample>(&bytes[head..]) {
            Ok((s, [])) => s,
            Ok((_, rest)) => return Err(bad(format!("{} bytes after the payload", rest.len()))),
            Err(e) => return Err(bad(e.to_string())),
        };
        let dim = s.dim;
        if let Some(r) = &s.ranges {
            if r.dim() != dim
                || r.min().len() != dim
                || r.max().len() != dim
                || r.nnz().len() != dim
            {
                return Err(bad(format!(
                    "ranges of {} features, rows of {dim}",
                    r.dim()
                )));
            }
            for j in 0..dim {
                let (lo, hi, c) = (r.min()[j], r.max()[j], r.nnz()[j]);
                if !lo.is_finite() || !hi.is_finite() || lo > hi || c > r.rows() {
                    return Err(bad(format!(
                        "feature {j}: range [{lo}, {hi}] over {c} of {} rows",
                        r.rows()
                    )));
                }
            }
        }
        if let Some(sample) = &s.sample
            && sample.dim() != dim
        {
            return Err(bad(format!(
                "a sample of rows of {} features, rows of {dim}",
                sample.dim()
            )));
        }
        Ok(s)
    }
}
