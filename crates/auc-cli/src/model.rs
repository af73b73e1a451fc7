//! Model files: everything `auc predict` and `auc train --resume` need, versioned and checksummed,
//! written atomically.
//!
//! Layout: the 8 bytes `AUCMODEL`, the format version (u32, little endian), the payload length
//! (u64, little endian), the payload (postcard encoding of [`ModelFile`]) and its CRC-32 (u32,
//! little endian). A file that is truncated, altered, of another version or not a model at all
//! is an error that says which, never a panic.
//!
//! The learner in the payload is a one-pass learner's state or a batch learner's
//! [`InductiveModel`]. The latter is stored as its own versioned postcard bytes and read with
//! [`InductiveModel::from_bytes`], which names what is wrong with a model that decodes but does
//! not hold together (postcard drops the messages of errors raised inside serde).
//!
//! Versions: 1 stored a one-pass learner only; 2 (this build) stores either kind. Both are read
//! (a version-1 file as the one-pass learner it holds); only version 2 is written.

use std::io::Write;
use std::path::Path;

use auc_core::ParamMap;
use auc_cvm::InductiveModel;
use auc_data::Scaler;
use serde::{Deserialize, Serialize};

use crate::learners::{Learner, Trained};
use crate::output::Error;

const MAGIC: &[u8; 8] = b"AUCMODEL";
/// The layout version this build writes and reads: 2 since the learner may be a batch model.
pub(crate) const FORMAT_VERSION: u32 = 2;

/// A trained model with the preprocessing it was trained under. `L` is the learner as the
/// program uses it ([`Trained`]) or as the file stores it (`Stored`, `StoredRef`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModelFile<L = Trained> {
    /// Algorithm name, as `auc algos` lists it.
    pub(crate) algo: String,
    /// The parameters it was built with.
    pub(crate) params: ParamMap,
    /// Feature count.
    pub(crate) dim: usize,
    /// File labels mapped to the positive class.
    pub(crate) positive_labels: Vec<f64>,
    /// Min-max scaling fitted on the first training input, or [`Scaler::None`] when scaling was
    /// off. Its encoding is that of the `Option<MinMaxScaler>` stored here before, so files of
    /// this format version read unchanged.
    pub(crate) scaler: Scaler,
    /// Whether rows were divided by their norm after scaling.
    pub(crate) unit_norm: bool,
    /// Seed the learner was built with.
    pub(crate) seed: u64,
    /// Examples seen over every training run.
    pub(crate) examples: u64,
    /// The learner's whole state.
    pub(crate) learner: L,
}

/// The learner as a file holds it (read side): a batch model as its own bytes.
#[derive(Deserialize)]
#[allow(
    clippy::large_enum_variant,
    reason = "one short-lived value per file read; boxing would only add an allocation"
)]
enum Stored {
    Online(Learner),
    Batch(Vec<u8>),
}

/// The learner as a file holds it (write side); the same encoding as `Stored`.
#[derive(Serialize)]
enum StoredRef<'a> {
    Online(&'a Learner),
    Batch(Vec<u8>),
}

impl<L> ModelFile<L> {
    /// The same header with another learner.
    fn with_learner<M>(&self, learner: M) -> ModelFile<M> {
        ModelFile {
            algo: self.algo.clone(),
            params: self.params.clone(),
            dim: self.dim,
            positive_labels: self.positive_labels.clone(),
            scaler: self.scaler.clone(),
            unit_norm: self.unit_norm,
            seed: self.seed,
            examples: self.examples,
            learner,
        }
    }

    /// The same header with `learner`, and the learner it had.
    fn swap_learner<M>(self, learner: M) -> (ModelFile<M>, L) {
        let old = self.learner;
        let file = ModelFile {
            algo: self.algo,
            params: self.params,
            dim: self.dim,
            positive_labels: self.positive_labels,
            scaler: self.scaler,
            unit_norm: self.unit_norm,
            seed: self.seed,
            examples: self.examples,
            learner,
        };
        (file, old)
    }
}

impl ModelFile {
    /// The file's bytes.
    pub(crate) fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let stored = match &self.learner {
            Trained::Online(l) => StoredRef::Online(l),
            Trained::Batch(m) => StoredRef::Batch(m.to_bytes()),
        };
        Ok(frame(&postcard::to_allocvec(&self.with_learner(stored))?))
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
        if version != 1 && version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads versions 1 to {FORMAT_VERSION} (a \
                 newer auc wrote it?)"
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
        if version == 1 {
            let v1: ModelFile<Learner> = postcard::from_bytes(payload)
                .map_err(|e| bad(format!("cannot decode the version-1 payload: {e}")))?;
            let (file, learner) = v1.swap_learner(());
            return Ok(file.swap_learner(Trained::Online(learner)).0);
        }
        let stored: ModelFile<Stored> = postcard::from_bytes(payload)
            .map_err(|e| bad(format!("cannot decode the payload: {e}")))?;
        let (file, learner) = stored.swap_learner(());
        let learner = match learner {
            Stored::Online(l) => Trained::Online(l),
            Stored::Batch(b) => Trained::Batch(
                InductiveModel::from_bytes(&b)
                    .map_err(|e| bad(format!("the {} model: {e}", file.algo)))?,
            ),
        };
        Ok(file.swap_learner(learner).0)
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

/// Header, `payload` and checksum: the file's bytes.
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(payload.len() + 24);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out
}

/// Writes `bytes` to `path` atomically (temporary file in the same folder, then rename).
///
/// Two cases are not regular files. A device or a pipe that exists (`-o /dev/null`,
/// `-o /dev/stdout`) is written into: a rename would replace it by a regular file, which for
/// `/dev/null` breaks every program on the machine that reads it. A symbolic link is kept and
/// the file it points to replaced.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let named = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Ok(meta) = std::fs::metadata(path)
        && !meta.is_file()
    {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(named)?;
        f.write_all(bytes).map_err(named)?;
        return Ok(());
    }
    let resolved = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let path = resolved.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
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
    use auc_core::Label::{Neg, Pos};
    use auc_core::{Dataset, OnlineParams};
    use auc_cvm::kernels::SubKernelKind;
    use auc_cvm::{GamCvmParams, SolverKind};
    use auc_online::PaIParams;

    fn model() -> ModelFile {
        ModelFile {
            algo: "pa-i".into(),
            params: [("c", 0.5)].into_iter().collect(),
            dim: 3,
            positive_labels: vec![1.0],
            scaler: Scaler::None,
            unit_norm: false,
            seed: 7,
            examples: 0,
            learner: Trained::Online(Learner::new(
                AnyLearner::PaI(PaIParams { c: 0.5 }.build(3).unwrap()),
                true,
            )),
        }
    }

    /// A gam-cvm-k13 model fitted on 8 points in 2-d.
    fn batch_model() -> ModelFile {
        let x = vec![
            0.0, 0.1, 0.9, 1.0, 0.2, 0.0, 1.0, 0.8, 0.1, 0.3, 0.7, 0.9, 0.3, 0.2, 0.8, 0.7,
        ];
        let y = vec![Neg, Pos, Neg, Pos, Neg, Pos, Neg, Pos];
        let train = Dataset::dense(2, x, y).unwrap();
        let params: ParamMap = [("n_loc", 3.0)].into_iter().collect();
        let p = GamCvmParams::from_map(
            &params,
            &[SubKernelKind::Gaussian, SubKernelKind::Density],
            SolverKind::Cvm,
        )
        .unwrap();
        let (m, _) = p.fit_inductive(&train, 0).unwrap();
        ModelFile {
            algo: "gam-cvm-k13".into(),
            params,
            dim: 2,
            positive_labels: vec![1.0],
            scaler: Scaler::None,
            unit_norm: false,
            seed: 0,
            examples: 8,
            learner: Trained::Batch(m),
        }
    }

    /// Writing to /dev/null leaves it a device; writing through a symbolic link keeps the link.
    #[cfg(unix)]
    #[test]
    fn atomic_writes_keep_devices_and_links() {
        use std::os::unix::fs::FileTypeExt;
        write_atomic(Path::new("/dev/null"), b"scores\n").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(meta.file_type().is_char_device(), "/dev/null was replaced");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&file, b"old").unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        let err = write_atomic(dir.path(), b"x").unwrap_err().to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
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
        // A version-1 file: the payload held the one-pass learner itself.
        let Trained::Online(learner) = &m.learner else {
            unreachable!()
        };
        let mut v1 = frame(&postcard::to_allocvec(&m.with_learner(learner.clone())).unwrap());
        v1[8] = 1;
        assert_eq!(ModelFile::from_bytes(&v1, "m").unwrap(), m);
        // Version 2 bytes announced as version 1 do not decode as version 1.
        let mut mislabelled = bytes.clone();
        mislabelled[8] = 1;
        assert!(
            err(&mislabelled).contains("version-1 payload"),
            "{}",
            err(&mislabelled)
        );
        let mut v3 = bytes.clone();
        v3[8] = 3;
        assert!(err(&v3).contains("format version 3, this build reads versions 1 to 2"));
        let mut longer = bytes;
        longer.push(0);
        assert!(err(&longer).contains("truncated or extended"));
    }

    #[test]
    fn batch_models_round_trip_and_their_damage_is_named() {
        let m = batch_model();
        let bytes = m.to_bytes().unwrap();
        assert_eq!(ModelFile::from_bytes(&bytes, "m").unwrap(), m);
        let Trained::Batch(inner) = &m.learner else {
            unreachable!()
        };
        // A payload whose checksum is right but whose batch model is not.
        let framed = |inner: Vec<u8>| {
            frame(&postcard::to_allocvec(&m.with_learner(StoredRef::Batch(inner))).unwrap())
        };
        let err = |b: &[u8]| ModelFile::from_bytes(b, "m").unwrap_err().to_string();
        let mut future = inner.to_bytes();
        future[0] = 9;
        let e = err(&framed(future));
        assert!(
            e.contains("the gam-cvm-k13 model: saved GAM-CVM model has format version 9"),
            "{e}"
        );
        let mut cut = inner.to_bytes();
        cut.truncate(cut.len() / 2);
        assert!(err(&framed(cut)).contains("cannot decode a saved GAM-CVM model"));
    }
}
