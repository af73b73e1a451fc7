//! Model files: a trained model with everything needed to read new data as its training data
//! was read, tagged by the algorithm's name, versioned and checksummed as a whole.
//!
//! # Layout (format version 7)
//!
//! | bytes | content |
//! |---|---|
//! | 8 | `AUCMODEL` |
//! | 4 | format version, `u32` little endian (7; 3 to 6 are still read) |
//! | 8 | payload length $L$, `u64` little endian |
//! | $L$ | payload: postcard encoding of the wire struct below |
//! | 4 | CRC-32 of every byte before it (header and payload), `u32` little endian |
//!
//! The payload holds the algorithm's **name** (never a position in a list), the version of its
//! state layout, its parameters as a JSON object (every parameter, defaults included), whether
//! the iterates are averaged, the [`Preparation`] (how the data was read, the positive class,
//! the dimension, hashing and crosses, the fitted stages), a [`TrainingRecord`] and the learner's
//! own state bytes, and the calibration of its scores to probabilities when one was fitted.
//! Version 5 had no feature crosses in the preparation ([`auc_prep::PreparationV5`], read as a
//! preparation without them); version 4 had no calibration either (it is read as a model without
//! one); version 3 also differs in the preparation, which held a scaler and a unit-norm flag
//! where later versions hold the list of stages ([`auc_prep::Transform`]); it is read into the
//! same preparation, so version 3 to 5 files load and score as before. A payload that does not
//! decode is an error that names its format version.
//!
//! Reading checks, in order: the magic, the format version (1 and 2 were written before models
//! were tagged by name and are refused with a message that says so; 3 to 7 are read), the length, the checksum,
//! the payload's decoding, the algorithm's name, its state version, the parameters (as the
//! command line checks them), the preparation, the state (`SavedState::validate`) and the
//! calibration. So a
//! damaged or crafted file is an error that says what is wrong, never a panic and never a model
//! that scores NaN. Writing decodes what was written and compares it before the caller renames
//! the file into place ([`Model::to_checked_bytes`]), so a model that `auc train` saved always
//! loads.

use std::fmt;

use auc_core::{Dataset, ParamError, ParamMap, StateError};
use auc_metrics::calibration::Calibration;
use auc_prep::{Preparation, PreparationV3, PreparationV5};
use serde::{Deserialize, Serialize};

use crate::params::from_json;
use crate::registry::Algorithm;
use crate::trained::{Configured, Trained};

const MAGIC: &[u8; 8] = b"AUCMODEL";
/// The format version this build writes.
pub const FORMAT_VERSION: u32 = 7;
/// The oldest format version this build reads: version 3 stored the preparation as a scaler and
/// a unit-norm flag ([`PreparationV3`]), version 4 as a list of stages, version 5 added the
/// calibration, version 6 the feature crosses of the preparation, version 7 the tables read by a
/// schema (`auc_data::Reading::Table`, a variant version 6 files never hold, so they decode with
/// the same layout) ([`PreparationV5`] is the
/// layout before them).
pub const OLDEST_READ_VERSION: u32 = 3;
/// Bytes before the payload: magic, version, length.
const HEADER: usize = 20;

/// What the training runs saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainingRecord {
    /// The seed of the learner's own random choices.
    pub seed: u64,
    /// Examples seen over every run (a resumed model adds its runs).
    pub examples: u64,
    /// Positive examples among them.
    pub positives: u64,
    /// Negative examples among them.
    pub negatives: u64,
    /// The divergence report of the last run, when it diverged.
    pub diverged: Option<String>,
    /// The program that wrote the file, e.g. `auc 0.1.0`.
    pub written_by: String,
}

impl TrainingRecord {
    /// The record of a model's first training run, the one place a record is made (a resumed
    /// model's record grows by [`TrainingRecord::after_run`]): `seed` of the learner's own
    /// choices, the class counts it trained on, the divergence report when it diverged, and the
    /// program that wrote the file.
    pub fn first_run(
        seed: u64,
        positives: u64,
        negatives: u64,
        diverged: Option<String>,
        written_by: String,
    ) -> TrainingRecord {
        TrainingRecord {
            seed,
            examples: positives.saturating_add(negatives),
            positives,
            negatives,
            diverged,
            written_by,
        }
    }
}

/// A trained model and everything needed to use it on new data.
pub struct Model {
    /// The algorithm.
    pub algorithm: &'static Algorithm,
    /// Its parameters.
    pub config: Box<dyn Configured>,
    /// How data is read and prepared for it.
    pub preparation: Preparation,
    /// What training saw.
    pub training: TrainingRecord,
    /// The learner's state.
    pub state: Box<dyn Trained>,
    /// The map from its scores to probabilities, when it was fitted (`auc train --calibrate`).
    pub calibration: Option<Calibration>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("algorithm", &self.algorithm.name)
            .field("params", &self.config.params().to_string())
            .field("preparation", &self.preparation)
            .field("training", &self.training)
            .finish_non_exhaustive()
    }
}

/// The one error type of the registry: an unknown algorithm, bytes that are not a usable model
/// file (each check of the module docs has its variant), or a score that is not finite.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// No algorithm of [`crate::ALL`] has this name.
    UnknownAlgorithmName {
        /// The name as given.
        name: String,
        /// The closest known name, when one is close.
        suggestion: Option<&'static str>,
    },
    /// A model's score is not finite: its sums overflow on these features.
    NonFiniteScore {
        /// The row (0-based).
        row: usize,
        /// The score.
        value: f64,
    },
    /// Not a model file: it does not start with `AUCMODEL`.
    NotAModel,
    /// Written by an older `auc` in a format this build no longer reads.
    OlderFormat {
        /// The file's format version.
        version: u32,
    },
    /// Written by a newer `auc`.
    NewerFormat {
        /// The file's format version.
        version: u32,
    },
    /// The length in the header does not match the file.
    Length {
        /// Payload bytes the header announces.
        announced: u64,
        /// Payload bytes the file holds.
        found: u64,
    },
    /// The checksum does not match: the file was altered or damaged.
    Checksum,
    /// The payload does not decode.
    Decode(String),
    /// The model's algorithm is not one this build knows.
    UnknownAlgorithm(String),
    /// The state was written in another layout version.
    StateVersion {
        /// The algorithm.
        algorithm: &'static str,
        /// The file's state version.
        found: u32,
        /// The oldest version this build reads.
        oldest: u32,
        /// The version this build writes (and the newest it reads).
        supported: u32,
    },
    /// The stored parameters are not valid.
    Params(ParamError),
    /// The stored preparation is not valid.
    Preparation(String),
    /// The stored state is not valid.
    State(StateError),
    /// The stored calibration is not valid.
    Calibration(String),
    /// Probabilities were asked of a model that has no calibration.
    NotCalibrated,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownAlgorithmName { name, suggestion } => {
                write!(f, "unknown algorithm `{name}`")?;
                if let Some(s) = suggestion {
                    write!(f, ": did you mean `{s}`?")?;
                }
                write!(
                    f,
                    " (`auc algos` lists them: {})",
                    crate::names().join(", ")
                )
            }
            Error::NonFiniteScore { row, value } => write!(
                f,
                "row {} scores {value}: its features are too large for this model (train and predict with scaling)",
                row + 1
            ),
            Error::NotAModel => {
                f.write_str("not an auc model file (it does not start with AUCMODEL)")
            }
            Error::OlderFormat { version } => write!(
                f,
                "written by an older auc in model format version {version}, before models were tagged by algorithm name; this build reads format versions {OLDEST_READ_VERSION} to {FORMAT_VERSION}: train the model again"
            ),
            Error::NewerFormat { version } => write!(
                f,
                "model format version {version} is newer than this build's {FORMAT_VERSION}: a newer auc wrote it"
            ),
            Error::Length { announced, found } => write!(
                f,
                "the header announces {announced} payload bytes but the file holds {found} (truncated or extended)"
            ),
            Error::Checksum => f.write_str("checksum mismatch (the file was altered or damaged)"),
            Error::Decode(e) => write!(f, "cannot decode the model: {e}"),
            Error::UnknownAlgorithm(name) => write!(
                f,
                "the model is of algorithm `{name}`, which this build does not know (a newer auc wrote it?)"
            ),
            Error::StateVersion {
                algorithm,
                found,
                oldest,
                supported,
            } => write!(
                f,
                "the {algorithm} state has layout version {found}; this build reads {} ({})",
                if oldest == supported {
                    format!("version {supported}")
                } else {
                    format!("versions {oldest} to {supported}")
                },
                if found > supported {
                    "a newer auc wrote it"
                } else {
                    "an older auc wrote it: train the model again"
                }
            ),
            Error::Params(e) => write!(f, "the stored parameters are invalid: {e}"),
            Error::Preparation(e) => write!(f, "the stored data preparation is invalid: {e}"),
            Error::State(e) => write!(f, "the stored learner state is invalid: {e}"),
            Error::Calibration(e) => write!(f, "the stored calibration is invalid: {e}"),
            Error::NotCalibrated => f.write_str(
                "the model has no calibration, so its scores are not probabilities: train it with --calibrate sigmoid|isotonic (Python: calibration=\"sigmoid\")",
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Params(e) => Some(e),
            Error::State(e) => Some(e),
            _ => None,
        }
    }
}

/// The payload from version 5 on: version 4's fields and the calibration. `P` is the
/// preparation's layout: [`Preparation`] from version 6 on (what is written), [`PreparationV5`]
/// in version 5.
#[derive(Serialize, Deserialize)]
struct Wire<P = Preparation> {
    algorithm: String,
    state_version: u32,
    params: String,
    averaged: bool,
    preparation: P,
    training: TrainingRecord,
    state: StateBytes,
    calibration: Option<Calibration>,
}

impl From<Wire<PreparationV5>> for Wire {
    fn from(w: Wire<PreparationV5>) -> Self {
        Wire {
            algorithm: w.algorithm,
            state_version: w.state_version,
            params: w.params,
            averaged: w.averaged,
            preparation: w.preparation.into(),
            training: w.training,
            state: w.state,
            calibration: w.calibration,
        }
    }
}

/// A learner's postcard state inside the payload. Postcard writes a byte sequence and a byte
/// string alike (the length as a varint, then the bytes), so this is the layout of the
/// `Vec<u8>` every format version has stored; it is written and read as one byte string (a
/// copy of tens of MB) instead of one sequence element at a time.
struct StateBytes(Vec<u8>);

impl Serialize for StateBytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for StateBytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = StateBytes;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a learner's state as bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<StateBytes, E> {
                Ok(StateBytes(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<StateBytes, E> {
                Ok(StateBytes(v))
            }
        }
        d.deserialize_byte_buf(Visit)
    }
}

/// The payload of versions 3 and 4; `P` is the preparation's layout ([`PreparationV5`] in
/// version 4, [`PreparationV3`] in version 3). Neither had a calibration.
#[derive(Serialize, Deserialize)]
struct WireV4<P> {
    algorithm: String,
    state_version: u32,
    params: String,
    averaged: bool,
    preparation: P,
    training: TrainingRecord,
    state: StateBytes,
}

impl<P: Into<Preparation>> From<WireV4<P>> for Wire {
    fn from(w: WireV4<P>) -> Self {
        Wire {
            algorithm: w.algorithm,
            state_version: w.state_version,
            params: w.params,
            averaged: w.averaged,
            preparation: w.preparation.into(),
            training: w.training,
            state: w.state,
            calibration: None,
        }
    }
}

/// Decodes a payload of layout `W` (that of format `version`, which the error names), refusing
/// trailing bytes.
fn decode<W: serde::de::DeserializeOwned>(payload: &[u8], version: u32) -> Result<W, Error> {
    match postcard::take_from_bytes::<W>(payload) {
        Ok((w, [])) => Ok(w),
        Ok((_, rest)) => Err(Error::Decode(format!(
            "{} bytes after the payload of model format version {version}",
            rest.len()
        ))),
        Err(e) => Err(Error::Decode(format!(
            "a payload of model format version {version}: {e}"
        ))),
    }
}

impl Model {
    /// The parameters as untyped values (every one, defaults included).
    pub fn params(&self) -> ParamMap {
        self.config.params()
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode(self.state.state_bytes()).0
    }

    /// The file's bytes around `state` (the state's postcard bytes), and `state` back. The
    /// payload is written once, into its place after the header (its length filled in after).
    fn encode(&self, state: Vec<u8>) -> (Vec<u8>, Vec<u8>) {
        let wire = Wire {
            algorithm: self.algorithm.name.to_owned(),
            state_version: self.algorithm.state_version,
            params: self.config.params_json(),
            averaged: self.state.averaged(),
            preparation: self.preparation.clone(),
            training: self.training.clone(),
            state: StateBytes(state),
            calibration: self.calibration.clone(),
        };
        // Room for the state and 64 KiB of the rest, so that the payload of a learner's
        // state is written in place (a feature map's landmarks may take more: then the buffer
        // grows as any vector does).
        let mut out = Vec::with_capacity(HEADER + wire.state.0.len() + 64 * 1024);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&[0; 8]);
        let mut out =
            postcard::to_extend(&wire, out).expect("model payloads serialize to postcard");
        let payload = (out.len() - HEADER) as u64;
        out[HEADER - 8..HEADER].copy_from_slice(&payload.to_le_bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        (out, wire.state.0)
    }

    /// The file's bytes after reading them back: they decode, validate and hold the same
    /// state and parameters. What `auc train` writes, so a saved model always loads.
    pub fn to_checked_bytes(&self) -> Result<Vec<u8>, Error> {
        let (bytes, state) = self.encode(self.state.state_bytes());
        let back = Model::from_bytes(&bytes)?;
        if back.state.state_bytes() != state
            || back.config.params_json() != self.config.params_json()
            || back.calibration != self.calibration
        {
            return Err(Error::Decode(
                "the model read back differs from the one written".to_owned(),
            ));
        }
        Ok(bytes)
    }

    /// Reads and checks a model file's bytes (see the module docs for the order of the checks).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, Error> {
        if bytes.len() < 8 || &bytes[..8] != MAGIC {
            return Err(Error::NotAModel);
        }
        if bytes.len() < HEADER + 4 {
            return Err(Error::Length {
                announced: 0,
                found: bytes.len().saturating_sub(HEADER + 4) as u64,
            });
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version < OLDEST_READ_VERSION {
            return Err(Error::OlderFormat { version });
        }
        if version > FORMAT_VERSION {
            return Err(Error::NewerFormat { version });
        }
        let announced = u64::from_le_bytes(bytes[12..20].try_into().expect("8 bytes"));
        let found = (bytes.len() - HEADER - 4) as u64;
        if announced != found {
            return Err(Error::Length { announced, found });
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().expect("4 bytes")) {
            return Err(Error::Checksum);
        }
        let payload = &body[HEADER..];
        let wire: Wire = match version {
            3 => decode::<WireV4<PreparationV3>>(payload, version)?.into(),
            4 => decode::<WireV4<PreparationV5>>(payload, version)?.into(),
            5 => decode::<Wire<PreparationV5>>(payload, version)?.into(),
            _ => decode(payload, version)?,
        };
        let algorithm = crate::find(&wire.algorithm)
            .ok_or_else(|| Error::UnknownAlgorithm(wire.algorithm.clone()))?;
        if !(algorithm.oldest_state_version..=algorithm.state_version).contains(&wire.state_version)
        {
            return Err(Error::StateVersion {
                algorithm: algorithm.name,
                found: wire.state_version,
                oldest: algorithm.oldest_state_version,
                supported: algorithm.state_version,
            });
        }
        let mut params = params_from_json(&wire.params)?;
        // A parameter the file predates reads with the value of the fit it had.
        for &(name, value) in algorithm.values_of_older_files {
            if params.get(name).is_none() {
                params.set(name, value);
            }
        }
        let config = algorithm.configure(&params).map_err(Error::Params)?;
        wire.preparation.validate().map_err(Error::Preparation)?;
        if wire.averaged && algorithm.family != auc_core::Family::Linear {
            return Err(Error::State(StateError::new(format!(
                "{} cannot average its iterates",
                algorithm.name
            ))));
        }
        let state = algorithm
            .decode(&wire.state.0, wire.averaged, wire.state_version)
            .map_err(Error::State)?;
        // The learner sees the stages' output: the map's features when there is a map.
        let learner_dim = wire.preparation.transform.output_dim(wire.preparation.dim);
        if state.dim() < learner_dim {
            return Err(Error::State(StateError::new(format!(
                "the state has {} features, the prepared data {learner_dim}",
                state.dim(),
            ))));
        }
        if let Some(c) = &wire.calibration {
            c.validate()
                .map_err(|e| Error::Calibration(e.to_string()))?;
        }
        let t = &wire.training;
        if t.positives.checked_add(t.negatives) != Some(t.examples) {
            return Err(Error::Decode(format!(
                "{} positives and {} negatives do not make {} examples",
                t.positives, t.negatives, t.examples
            )));
        }
        Ok(Model {
            algorithm,
            config,
            preparation: wire.preparation,
            training: wire.training,
            state,
            calibration: wire.calibration,
        })
    }

    /// Scores of every row of `data` (already prepared), checked finite: a non-finite score
    /// is [`Error::NonFiniteScore`] naming the row, never a printed NaN.
    pub fn scores(&self, data: &Dataset) -> Result<Vec<f64>, Error> {
        let scores = self.state.score_all(data);
        match scores.iter().position(|s| !s.is_finite()) {
            Some(row) => Err(Error::NonFiniteScore {
                row,
                value: scores[row],
            }),
            None => Ok(scores),
        }
    }

    /// $P(y = +1)$ of each of `scores` (the model's, checked finite) by its calibration.
    ///
    /// # Errors
    /// [`Error::NotCalibrated`] when the model has none.
    pub fn probabilities(&self, scores: &[f64]) -> Result<Vec<f64>, Error> {
        let c = self.calibration.as_ref().ok_or(Error::NotCalibrated)?;
        Ok(c.probabilities(scores))
    }
}

/// The stored JSON object of parameters as untyped values.
fn params_from_json(text: &str) -> Result<ParamMap, Error> {
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Error::Decode(format!("the parameters are not JSON: {e}")))?;
    let serde_json::Value::Object(fields) = value else {
        return Err(Error::Decode(
            "the parameters are not a JSON object".to_owned(),
        ));
    };
    Ok(fields
        .iter()
        .map(|(k, v)| (k.as_str(), from_json(v)))
        .collect())
}

impl TrainingRecord {
    /// This record with a further run of `positives` and `negatives` examples added to its
    /// counters (`auc train --resume`); seed, divergence report and writer are kept for the
    /// caller to update.
    ///
    /// # Errors
    /// A counter that would pass `u64::MAX`: a record claiming $2^{64} - 1$ examples (only a
    /// crafted file does) once wrapped around to a small count and was saved as if true.
    pub fn after_run(&self, positives: u64, negatives: u64) -> Result<Self, String> {
        let overflow = |what: &str, had: u64, more: u64| {
            format!(
                "the model's record claims {had} {what}; {more} more would pass the largest count ({}), so the record cannot be right",
                u64::MAX
            )
        };
        let run = positives
            .checked_add(negatives)
            .ok_or_else(|| overflow("examples in this run", positives, negatives))?;
        let add = |what: &str, had: u64, more: u64| {
            had.checked_add(more)
                .ok_or_else(|| overflow(what, had, more))
        };
        Ok(Self {
            examples: add("examples", self.examples, run)?,
            positives: add("positive examples", self.positives, positives)?,
            negatives: add("negative examples", self.negatives, negatives)?,
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::StateBytes;

    /// The state written as one byte string has the layout of the `Vec<u8>` sequence earlier
    /// builds wrote, and such a sequence reads back as the same bytes (lengths around the
    /// varint's one- and two-byte boundaries and beyond).
    #[test]
    fn state_bytes_are_laid_out_as_a_byte_sequence() {
        for n in [0usize, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
            let v: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
            let seq = postcard::to_allocvec(&v).unwrap();
            assert_eq!(postcard::to_allocvec(&StateBytes(v.clone())).unwrap(), seq);
            let back: StateBytes = postcard::from_bytes(&seq).unwrap();
            assert_eq!(back.0, v);
        }
    }
}
