//! The moment file format of [`MomentSummary`] (see the parent module's docs): the payload
//! layouts of every version this build reads, writing and reading with every check. Version 3
//! added the feature crosses the rows were read with; version 2 (without them) and version 1
//! (without stages either) are read as summaries of rows read without crosses.

use serde::{Deserialize, Serialize};

use super::{
    HEADER, LabelMoments, MOMENTS_FORMAT_VERSION, MOMENTS_MAGIC, MOMENTS_OLDEST_READ_VERSION,
    MomentError, MomentSummary,
};
use auc_data::{FeatureRanges, Reading};
use auc_prep::Transform;

/// Version 1 of the payload.
#[derive(Serialize, Deserialize)]
struct WireV1 {
    dim: u64,
    hash_bits: Option<u8>,
    reading: Reading,
    labels: Vec<LabelMoments>,
    ranges: FeatureRanges,
    sources: Vec<String>,
}

/// Version 2 of the payload: version 1 and the stages of mapped rows.
#[derive(Serialize, Deserialize)]
struct WireV2 {
    dim: u64,
    hash_bits: Option<u8>,
    reading: Reading,
    labels: Vec<LabelMoments>,
    ranges: FeatureRanges,
    sources: Vec<String>,
    stages: Option<Transform>,
}

/// Version 3 of the payload: version 2 and the crosses the rows were read with.
#[derive(Serialize, Deserialize)]
struct Wire {
    dim: u64,
    hash_bits: Option<u8>,
    cross_bits: Option<u8>,
    reading: Reading,
    labels: Vec<LabelMoments>,
    ranges: FeatureRanges,
    sources: Vec<String>,
    stages: Option<Transform>,
}

impl From<WireV1> for WireV2 {
    fn from(w: WireV1) -> WireV2 {
        WireV2 {
            dim: w.dim,
            hash_bits: w.hash_bits,
            reading: w.reading,
            labels: w.labels,
            ranges: w.ranges,
            sources: w.sources,
            stages: None,
        }
    }
}

impl From<WireV2> for Wire {
    fn from(w: WireV2) -> Wire {
        Wire {
            dim: w.dim,
            hash_bits: w.hash_bits,
            cross_bits: None,
            reading: w.reading,
            labels: w.labels,
            ranges: w.ranges,
            sources: w.sources,
            stages: w.stages,
        }
    }
}

impl MomentSummary {
    /// The moment file: see the module docs.
    pub fn to_bytes(&self) -> Vec<u8> {
        let wire = Wire {
            dim: self.dim as u64,
            hash_bits: self.hash_bits,
            cross_bits: self.cross_bits,
            reading: self.reading.clone(),
            labels: self.labels.clone(),
            ranges: self.ranges.clone(),
            sources: self.sources.clone(),
            stages: self.stages.clone(),
        };
        let payload = postcard::to_allocvec(&wire).expect("summaries serialize to postcard");
        let mut out = Vec::with_capacity(HEADER + payload.len() + 4);
        out.extend_from_slice(MOMENTS_MAGIC);
        out.extend_from_slice(&MOMENTS_FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// Whether `bytes` start like a moment file (the magic only).
    pub fn is_moment_file(bytes: &[u8]) -> bool {
        bytes.starts_with(MOMENTS_MAGIC)
    }

    /// Reads a moment file, checking magic, version, length, checksum and every value.
    ///
    /// # Errors
    /// A [`MomentError`] naming what is wrong; never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, MomentError> {
        if !Self::is_moment_file(bytes) {
            return Err(MomentError::NotMoments);
        }
        if bytes.len() < HEADER + 4 {
            return Err(MomentError::Length {
                announced: 0,
                found: bytes.len().saturating_sub(HEADER + 4) as u64,
            });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if !(MOMENTS_OLDEST_READ_VERSION..=MOMENTS_FORMAT_VERSION).contains(&version) {
            return Err(MomentError::Version { found: version });
        }
        let announced = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let found = (bytes.len() - HEADER - 4) as u64;
        if announced != found {
            return Err(MomentError::Length { announced, found });
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(MomentError::Checksum);
        }
        let payload = &body[HEADER..];
        let invalid =
            |e: postcard::Error| MomentError::Invalid(format!("format version {version}: {e}"));
        let (wire, rest) = match version {
            1 => {
                let (w, rest) = postcard::take_from_bytes::<WireV1>(payload).map_err(invalid)?;
                (Wire::from(WireV2::from(w)), rest)
            }
            2 => {
                let (w, rest) = postcard::take_from_bytes::<WireV2>(payload).map_err(invalid)?;
                (Wire::from(w), rest)
            }
            _ => postcard::take_from_bytes::<Wire>(payload).map_err(invalid)?,
        };
        if !rest.is_empty() {
            return Err(MomentError::Invalid(format!(
                "{} unexpected bytes after the payload of format version {version}",
                rest.len()
            )));
        }
        Self::from_wire(wire)
    }

    fn from_wire(w: Wire) -> Result<Self, MomentError> {
        let bad = |m: String| Err(MomentError::Invalid(m));
        let Ok(dim) = usize::try_from(w.dim) else {
            return bad(format!("dimension {} is too large", w.dim));
        };
        let crosses = match w.cross_bits {
            None => 0,
            Some(c) if (1..=auc_data::MAX_CROSS_BITS).contains(&c) => 1usize << c,
            Some(c) => return bad(format!("cross bits {c} are out of range")),
        };
        if crosses > 0 && w.hash_bits.is_none() && dim <= crosses {
            return bad(format!("{crosses} crosses do not fit dimension {dim}"));
        }
        if let Some(b) = w.hash_bits
            && (!(1..=31).contains(&b) || dim != (1usize << b) + crosses)
        {
            return bad(format!(
                "hash bits {b} and {crosses} crosses do not match dimension {dim}"
            ));
        }
        w.reading
            .validate()
            .map_err(|e| MomentError::Invalid(e.to_string()))?;
        for (k, l) in w.labels.iter().enumerate() {
            if !l.label.is_finite() {
                return bad(format!("label {} is not finite", l.label));
            }
            if l.moments.dim() != dim {
                return bad(format!(
                    "label {}: moments of dimension {}, summary of {dim}",
                    l.label,
                    l.moments.dim()
                ));
            }
            if l.moments.count() == 0 {
                return bad(format!("label {} has no rows", l.label));
            }
            if k > 0 && w.labels[k - 1].label.total_cmp(&l.label) != std::cmp::Ordering::Less {
                return bad("labels are not sorted and distinct".to_owned());
            }
        }
        let r = &w.ranges;
        if r.dim() != dim || r.max().len() != dim || r.nnz().len() != dim {
            return bad(format!(
                "feature ranges cover {} features, summary {dim}",
                r.dim()
            ));
        }
        let rows: u64 = w.labels.iter().map(|l| l.moments.count()).sum();
        if r.rows() != rows {
            return bad(format!(
                "feature ranges count {} rows, the moments {rows}",
                r.rows()
            ));
        }
        for j in 0..dim {
            let (lo, hi, c) = (r.min()[j], r.max()[j], r.nnz()[j]);
            if !lo.is_finite() || !hi.is_finite() || lo > hi || c > rows {
                return bad(format!("feature {j}: range [{lo}, {hi}] over {c} rows"));
            }
        }
        if let Some(t) = &w.stages {
            let Some(input) = t.input_dim() else {
                return bad("stages without a feature map are applied at solve time".to_owned());
            };
            t.validate(input)
                .map_err(|e| MomentError::Invalid(format!("the stages: {e}")))?;
            if t.output_dim(input) != dim {
                return bad(format!(
                    "the map gives {} features, the moments have {dim}",
                    t.output_dim(input)
                ));
            }
        }
        Ok(Self {
            dim,
            hash_bits: w.hash_bits,
            cross_bits: w.cross_bits,
            reading: w.reading,
            labels: w.labels,
            ranges: w.ranges,
            sources: w.sources,
            stages: w.stages,
        })
    }
}
