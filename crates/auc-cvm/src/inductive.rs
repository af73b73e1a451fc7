//! The saved form of a fitted GAM-CVM model, [`InductiveModel`]: what inductive scoring reads
//! and nothing else, its postcard bytes ([`FORMAT_VERSION`]) and the checks that read them back
//! ([`RestoreError`]). [`crate::model`] fits it and re-exports these names.

use std::fmt;

use auc_core::{Dataset, Row, SavedState, Scorer, StateError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::fusion::Normalization;
use crate::kernels::{FittedKernel, Points, SubKernel};
use crate::scoring::{PointIndex, Scoring};

/// The `format_version` that [`InductiveModel::to_bytes`] and its serde form write, and the only
/// one they read.
///
/// Version 1 is the postcard encoding of `(format_version: u32, dim: usize, x: [f64],
/// sparsity: [f64], kernels: [FittedKernel], normalization: Normalization, n_loc: usize,
/// f: [f64], w: [(usize, f64)])`, with `x` the $n$ points row-major.
pub const FORMAT_VERSION: u32 = 1;

/// A fitted GAM-CVM model in the form that can be saved: everything inductive scoring reads and
/// nothing else, so $O(n p)$ values for $n$ fitted points of $p$ features, never the
/// $n \times n$ fused kernel.
///
/// It holds the points the kernel was built on (dense) with their local sparsities
/// \[CVM eq. 16\], the sub-kernels with their fitted bandwidths ([`FittedKernel`]), the fusion's
/// [`Normalization`], $n_{loc}$, the fitted scores $f$ of every point and the point weights $w$.
/// From these it scores exactly as the [`GamCvmModel`](crate::GamCvmModel) it came from
/// ([`GamCvmModel::to_inductive`](crate::GamCvmModel::to_inductive)): a fitted point by its stored score, any other row by
/// [`InductiveModel::score_new`], $f(x) = \sum_k w_k k(x, x_k)$ for one sub-kernel
/// \[CVM eq. 44\] and one diffusion step through the fitted scores for several ([`crate::model`] docs).
///
/// It serializes with serde (a `format_version` first) and to postcard bytes
/// ([`InductiveModel::to_bytes`]). Reading checks every length and value, so bytes that are
/// damaged or inconsistent give a [`RestoreError`], never a panic or a model that scores NaN.
/// Through serde the same checks fail as the format's custom error; postcard keeps no message
/// for those, so read postcard with [`InductiveModel::from_bytes`] to learn why.
pub struct InductiveModel {
    pts: Points,
    fitted: Vec<FittedKernel>,
    kernels: Vec<Box<dyn SubKernel>>,
    normalization: Normalization,
    f: Vec<f64>,
    w: Vec<(usize, f64)>,
    n_loc: usize,
    index: PointIndex,
    /// Whether the model was read from bytes, which checked every length and value.
    decoded: bool,
}

impl InductiveModel {
    /// From checked parts.
    pub(crate) fn from_parts(
        pts: Points,
        fitted: Vec<FittedKernel>,
        normalization: Normalization,
        f: Vec<f64>,
        w: Vec<(usize, f64)>,
        n_loc: usize,
    ) -> Self {
        let kernels = fitted.iter().map(|k| k.build()).collect();
        let index = PointIndex::new(&pts);
        Self {
            pts,
            fitted,
            kernels,
            normalization,
            f,
            w,
            n_loc,
            index,
            decoded: false,
        }
    }

    /// Number of fitted points $n$.
    pub fn n(&self) -> usize {
        self.pts.n()
    }

    /// Number of features $p$.
    pub fn dim(&self) -> usize {
        self.pts.dim()
    }

    /// Neighbours $n_{loc}$ of a new point.
    pub fn n_loc(&self) -> usize {
        self.n_loc
    }

    /// The sub-kernels with their fitted bandwidths.
    pub fn kernels(&self) -> &[FittedKernel] {
        &self.fitted
    }

    /// Scores of the fitted points.
    pub fn fitted_scores(&self) -> &[f64] {
        &self.f
    }

    /// Point weights $w$ as (fitted point, weight): $f(x) = \sum_k w_k k(x, x_k)$ for one
    /// sub-kernel \[CVM eq. 44\].
    pub fn weights(&self) -> &[(usize, f64)] {
        &self.w
    }

    /// The inductive score of a new point given densely, as [`GamCvmModel::score_new`](crate::GamCvmModel::score_new).
    pub fn score_new(&self, x: &[f64]) -> f64 {
        self.scoring().score_new(x)
    }

    /// The postcard encoding, [`FORMAT_VERSION`] first.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("serializing to a Vec cannot fail")
    }

    /// Reads what [`InductiveModel::to_bytes`] wrote.
    ///
    /// # Errors
    /// [`RestoreError::UnsupportedVersion`] for another format version (checked before anything
    /// else is decoded), [`RestoreError::Decode`] for bytes that are not an encoding,
    /// [`RestoreError::TrailingBytes`] if bytes remain, [`RestoreError::Inconsistent`] for
    /// values no fit produces (lengths that disagree, NaN, a bandwidth of 0). Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RestoreError> {
        let decode = |e: postcard::Error| RestoreError::Decode {
            message: e.to_string(),
        };
        let (version, _) = postcard::take_from_bytes::<u32>(bytes).map_err(decode)?;
        check_version(version)?;
        let (wire, rest) = postcard::take_from_bytes::<Wire>(bytes).map_err(decode)?;
        if !rest.is_empty() {
            return Err(RestoreError::TrailingBytes { count: rest.len() });
        }
        Self::from_wire(wire)
    }

    fn scoring(&self) -> Scoring<'_> {
        Scoring {
            pts: &self.pts,
            kernels: &self.kernels,
            normalization: self.normalization,
            f: &self.f,
            w: &self.w,
            n_loc: self.n_loc,
            index: &self.index,
            new_pts: &self.pts,
            new_f: &self.f,
        }
    }

    /// Checks what was read: the same invariants a fit establishes.
    fn from_wire(wire: Wire) -> Result<Self, RestoreError> {
        check_version(wire.format_version)?;
        let n = wire.f.len();
        if wire.dim == 0 {
            return inconsistent("dimension 0".into());
        }
        if n < 2 {
            return inconsistent(format!("{n} fitted point(s), a fit has at least 2"));
        }
        if wire.x.len() / wire.dim != n || wire.x.len() % wire.dim != 0 {
            return inconsistent(format!(
                "{} feature values are not {n} points of {} features",
                wire.x.len(),
                wire.dim
            ));
        }
        if wire.sparsity.len() != n {
            return inconsistent(format!(
                "{} local sparsities for {n} points",
                wire.sparsity.len()
            ));
        }
        if wire.n_loc == 0 || wire.n_loc >= n {
            return inconsistent(format!(
                "n_loc = {} with {n} points (a fit needs 1 <= n_loc < n)",
                wire.n_loc
            ));
        }
        if wire.kernels.is_empty() {
            return inconsistent("no sub-kernel".into());
        }
        for (m, k) in wire.kernels.iter().enumerate() {
            if let Some(b) = k.bandwidth()
                && !(b.is_finite() && b > 0.0)
            {
                return inconsistent(format!(
                    "sub-kernel {m} ({k:?}) needs a finite bandwidth > 0"
                ));
            }
        }
        let finite = |what: &str, v: &[f64]| match v.iter().position(|x| !x.is_finite()) {
            Some(i) => inconsistent(format!("{what}[{i}] = {} is not finite", v[i])),
            None => Ok(()),
        };
        finite("x", &wire.x)?;
        finite("sparsity", &wire.sparsity)?;
        finite("f", &wire.f)?;
        if let Some(i) = wire.sparsity.iter().position(|&s| s < 0.0) {
            return inconsistent(format!("sparsity[{i}] = {} is negative", wire.sparsity[i]));
        }
        for (t, &(j, wj)) in wire.w.iter().enumerate() {
            if j >= n || !wj.is_finite() {
                return inconsistent(format!(
                    "weight {t} = ({j}, {wj}) needs a point index below {n} and a finite value"
                ));
            }
        }
        let pts = Points::with_sparsity(wire.dim, wire.x, wire.sparsity);
        let mut model = Self::from_parts(
            pts,
            wire.kernels,
            wire.normalization,
            wire.f,
            wire.w,
            wire.n_loc,
        );
        model.decoded = true;
        Ok(model)
    }
}

/// A [`RestoreError::Inconsistent`] saying `what`.
fn inconsistent<T>(what: String) -> Result<T, RestoreError> {
    Err(RestoreError::Inconsistent { what })
}

fn check_version(found: u32) -> Result<(), RestoreError> {
    if found == FORMAT_VERSION {
        Ok(())
    } else {
        Err(RestoreError::UnsupportedVersion {
            found,
            supported: FORMAT_VERSION,
        })
    }
}

impl Scorer for InductiveModel {
    /// As [`GamCvmModel`](crate::GamCvmModel)'s `score`: a fitted point's stored score, else
    /// [`InductiveModel::score_new`].
    ///
    /// # Panics
    /// If the row has a feature at or beyond [`InductiveModel::dim`] (a programmer error:
    /// check the data's dimension first).
    fn score(&self, x: Row<'_>) -> f64 {
        self.scoring().score(x)
    }

    /// As [`Scorer::score`] on every row, rows in parallel.
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        self.scoring().score_all(data)
    }
}

/// A copy (the sub-kernels are rebuilt from their fitted form).
impl Clone for InductiveModel {
    fn clone(&self) -> Self {
        Self::from_parts(
            self.pts.clone(),
            self.fitted.clone(),
            self.normalization,
            self.f.clone(),
            self.w.clone(),
            self.n_loc,
        )
    }
}

/// Equal values: points, sparsities, sub-kernels, normalization, $n_{loc}$, scores, weights.
impl PartialEq for InductiveModel {
    fn eq(&self, other: &Self) -> bool {
        self.pts == other.pts
            && self.fitted == other.fitted
            && self.normalization == other.normalization
            && self.n_loc == other.n_loc
            && self.f == other.f
            && self.w == other.w
    }
}

impl fmt::Debug for InductiveModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InductiveModel")
            .field("n", &self.n())
            .field("dim", &self.dim())
            .field("kernels", &self.fitted)
            .field("normalization", &self.normalization)
            .field("n_loc", &self.n_loc)
            .field("weights", &self.w.len())
            .finish_non_exhaustive()
    }
}

/// Version 1 of the encoding, as written.
#[derive(Serialize)]
struct WireRef<'a> {
    format_version: u32,
    dim: usize,
    x: &'a [f64],
    sparsity: &'a [f64],
    kernels: &'a [FittedKernel],
    normalization: Normalization,
    n_loc: usize,
    f: &'a [f64],
    w: &'a [(usize, f64)],
}

/// Version 1 of the encoding, as read.
#[derive(Deserialize)]
struct Wire {
    format_version: u32,
    dim: usize,
    x: Vec<f64>,
    sparsity: Vec<f64>,
    kernels: Vec<FittedKernel>,
    normalization: Normalization,
    n_loc: usize,
    f: Vec<f64>,
    w: Vec<(usize, f64)>,
}

impl Serialize for InductiveModel {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WireRef {
            format_version: FORMAT_VERSION,
            dim: self.pts.dim(),
            x: self.pts.values(),
            sparsity: self.pts.sparsity(),
            kernels: &self.fitted,
            normalization: self.normalization,
            n_loc: self.n_loc,
            f: &self.f,
            w: &self.w,
        }
        .serialize(serializer)
    }
}

/// Reads and checks the serde form; an inconsistent model is a deserialization error.
impl<'de> Deserialize<'de> for InductiveModel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = Wire::deserialize(deserializer)?;
        InductiveModel::from_wire(wire).map_err(serde::de::Error::custom)
    }
}

/// A saved model's state in a model file: the postcard form above, version [`FORMAT_VERSION`].
impl SavedState for InductiveModel {
    const STATE_VERSION: u32 = FORMAT_VERSION;

    /// Decoding already checks every length and value (a decoded model is not checked again:
    /// that held another copy of its points, twice); a model built in memory passes the same
    /// checks by going through its own bytes once.
    fn validate(&self) -> Result<(), StateError> {
        if self.decoded {
            return Ok(());
        }
        InductiveModel::from_bytes(&self.to_bytes())
            .map(|_| ())
            .map_err(|e| StateError::new(e.to_string()))
    }
}

/// Why saved bytes did not give an [`InductiveModel`].
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// The bytes carry a `format_version` this build does not read.
    UnsupportedVersion {
        /// What the bytes say.
        found: u32,
        /// The only version this build reads and writes ([`FORMAT_VERSION`]).
        supported: u32,
    },
    /// The bytes are not an encoding (truncated, or a field has the wrong shape).
    Decode {
        /// The decoder's message.
        message: String,
    },
    /// Bytes remain after a complete model.
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// A complete encoding of values no fit produces.
    Inconsistent {
        /// Which values, and why.
        what: String,
    },
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::UnsupportedVersion { found, supported } => write!(
                f,
                "saved GAM-CVM model has format version {found}, this build reads only version {supported}"
            ),
            RestoreError::Decode { message } => {
                write!(f, "cannot decode a saved GAM-CVM model: {message}")
            }
            RestoreError::TrailingBytes { count } => write!(
                f,
                "saved GAM-CVM model: {count} unexpected bytes after the model"
            ),
            RestoreError::Inconsistent { what } => {
                write!(f, "saved GAM-CVM model is inconsistent: {what}")
            }
        }
    }
}

impl std::error::Error for RestoreError {}
