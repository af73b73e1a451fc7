//! Model files: everything `auc predict` and `auc train --resume` need, versioned and checksummed,
//! written atomically.
//!
//! Layout: the 8 bytes `AUCMODEL`, the format version (u32, little endian), the payload length
//! (u64, little endian), the payload (postcard encoding of [`ModelFile`]) and its CRC-32 (u32,
//! little endian). A file that is truncated, altered, of another version or not a model at all
//! is an error that says which, never a panic.

use std::io::Write;
use std::path::Path;

use auc_core::ParamMap;
use auc_data::MinMaxScaler;
use serde::{Deserialize, Serialize};

use crate::learners::Learner;
use crate::output::Error;

const MAGIC: &[u8; 8] = b"AUCMODEL";
/// The layout version this build writes and reads.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// A trained model with the preprocessing it was trained under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelFile {
    /// Algorithm name, as `auc algos` lists it.
    pub(crate) algo: String,
    /// The parameters it was built with.
    pub(crate) params: ParamMap,
    /// Feature count.
    pub(crate) dim: usize,
    /// File labels mapped to the positive class.
    pub(crate) positive_labels: Vec<f64>,
    /// Min-max scaling fitted on the first training input, if scaling was on.
    pub(crate) scaler: Option<MinMaxScaler>,
    /// Whether rows were divided by their norm after scaling.
    pub(crate) unit_norm: bool,
    /// Seed the learner was built with.
    pub(crate) seed: u64,
    /// Examples seen over every training run.
    pub(crate) examples: u64,
    /// The learner's whole state.
    pub(crate) learner: Learner,
}

impl ModelFile {
    /// The file's bytes.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let payload = postcard::to_allocvec(self)?;
        let mut out = Vec::with_capacity(payload.len() + 24);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        Ok(out)
    }

    /// Reads what [`ModelFile::to_bytes`] wrote; `name` labels errors.
    pub(crate) fn from_bytes(bytes: &[u8], name: &str) -> Result<Self, Error> {
        let bad = |what: String| -> Error {
            format!("{name}: not a valid auc model file: {what}").into()
        };
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(bad("it does not start with the AUCMODEL header".into()));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads version {FORMAT_VERSION}"
            )));
        }
        let len = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let body = &bytes[20..];
        if body.len() as u64 != len.saturating_add(4) {
            return Err(bad(format!(
                "the header announces {len} payload bytes but the file holds {} (truncated or extended)",
                body.len().saturating_sub(4)
            )));
        }
        let (payload, crc) = body.split_at(body.len() - 4);
        let stored = u32::from_le_bytes(crc.try_into().expect("4 bytes"));
        if crc32fast::hash(payload) != stored {
            return Err(bad(
                "checksum mismatch (the file was altered or damaged)".into()
            ));
        }
        postcard::from_bytes(payload).map_err(|e| bad(format!("cannot decode the payload: {e}")))
    }

    /// Reads a model file.
    pub(crate) fn load(path: &Path) -> Result<Self, Error> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::from_bytes(&bytes, &path.display().to_string())
    }

    /// Writes the model to `path` through a temporary file in the same folder and a rename, so a
    /// failure never leaves a partial model behind.
    pub(crate) fn save(&self, path: &Path) -> Result<(), Error> {
        write_atomic(path, &self.to_bytes()?)
    }
}

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let named = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(named)?;
    tmp.write_all(bytes).map_err(named)?;
    tmp.as_file().sync_all().map_err(named)?;
    tmp.persist(path).map_err(|e| named(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learners::{AnyLearner, Learner};
    use auc_core::OnlineParams;
    use auc_online::PaIParams;

    fn model() -> ModelFile {
        ModelFile {
            algo: "pa-i".into(),
            params: [("c", 0.5)].into_iter().collect(),
            dim: 3,
            positive_labels: vec![1.0],
            scaler: None,
            unit_norm: false,
            seed: 7,
            examples: 0,
            learner: Learner::new(
                AnyLearner::PaI(PaIParams { c: 0.5 }.build(3).unwrap()),
                true,
            ),
        }
    }

    #[test]
    fn round_trip_and_every_kind_of_damage() {
        let m = model();
        let bytes = m.to_bytes().unwrap();
        assert_eq!(ModelFile::from_bytes(&bytes, "m").unwrap(), m);
        let err = |b: &[u8]| ModelFile::from_bytes(b, "m").unwrap_err().to_string();
        assert!(err(b"hello").contains("AUCMODEL header"));
        assert!(err(&bytes[..bytes.len() - 1]).contains("truncated"));
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(err(&v2).contains("format version 2"));
        let mut longer = bytes;
        longer.push(0);
        assert!(err(&longer).contains("truncated or extended"));
    }
}
