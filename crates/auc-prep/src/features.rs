//! What the user asks of a feature map (`--features nystroem[:M]|rff[:D]|elm[:D]|poly2`,
//! `--feature-sigma`, `--feature-seed`; Python's `features=`, `n_features_map=`,
//! `feature_sigma=`): [`FeatureMapSpec`], parsed and checked here, fitted by
//! [`FeatureMapSpec::fit`] (in `map_fit.rs`) into the stage [`crate::FeatureMap`].
//!
//! The maps approximate the Gaussian kernel of the papers, $k(x, z) = \exp(-\lVert x - z
//! \rVert^2 / \sigma^2)$ (conventions section 9), except the extreme learning machine's layer,
//! which is a random sigmoid layer of the same width scale, and the degree-2 polynomial map,
//! which is exact and has no width (conventions section 12).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The kinds of feature map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MapKind {
    /// Nystroem: $z(x) = K_{LL}^{-1/2} k(L, x)$ on $M$ landmarks $L$ chosen by k-means.
    Nystroem,
    /// Random Fourier features of the Gaussian kernel, $D$ of them.
    Rff,
    /// A random hidden layer of $D$ sigmoid units (the extreme learning machine of AUC-ELM).
    Elm,
    /// The features and their pairwise products, $D = p + p(p+1)/2$ (`stages/poly2.rs`).
    Poly2,
}

impl MapKind {
    /// The word that names the kind on the command line and in Python.
    pub fn word(self) -> &'static str {
        match self {
            MapKind::Nystroem => "nystroem",
            MapKind::Rff => "rff",
            MapKind::Elm => "elm",
            MapKind::Poly2 => "poly2",
        }
    }

    /// Landmarks (Nystroem) or features (the random maps) when the size is not given; 0 for
    /// the polynomial map, whose size is its input's.
    pub fn default_size(self) -> usize {
        match self {
            MapKind::Nystroem => DEFAULT_LANDMARKS,
            MapKind::Rff | MapKind::Elm => DEFAULT_RANDOM_FEATURES,
            MapKind::Poly2 => 0,
        }
    }

    /// Whether the map is a kernel approximation with a width $\sigma$ and a size.
    pub fn has_width(self) -> bool {
        self != MapKind::Poly2
    }

    /// Every kind, in the order the help lists them.
    pub const ALL: [MapKind; 4] = [
        MapKind::Nystroem,
        MapKind::Rff,
        MapKind::Elm,
        MapKind::Poly2,
    ];
}

impl fmt::Display for MapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Nystroem landmarks when `--features nystroem` gives no count.
pub const DEFAULT_LANDMARKS: usize = 1000;
/// Random features when `--features rff` or `elm` gives no count.
pub const DEFAULT_RANDOM_FEATURES: usize = 1000;
/// The largest map: $D^2$ moments per class of this many features take 2 GB.
pub const MAX_MAP_SIZE: usize = 16_384;
/// Rows of the seeded sample a map is fitted on (the landmarks' k-means, the sigma rule).
pub const MAP_SAMPLE_ROWS: usize = 10_000;

/// How the kernel width $\sigma$ is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum SigmaRule {
    /// This $\sigma$.
    Given(f64),
    /// $\sigma^2 = p \operatorname{Var}(X)$ over all entries of the sample: scikit-learn's
    /// `gamma="scale"` ($\gamma = 1 / \sigma^2$).
    Scale,
    /// The median distance between pairs of sample rows.
    Median,
}

impl fmt::Display for SigmaRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SigmaRule::Given(s) => write!(f, "{s}"),
            SigmaRule::Scale => f.write_str("scale"),
            SigmaRule::Median => f.write_str("median"),
        }
    }
}

impl FromStr for SigmaRule {
    type Err = String;

    /// `scale`, `median` or a positive finite number.
    fn from_str(s: &str) -> Result<SigmaRule, String> {
        match s.trim() {
            "scale" => Ok(SigmaRule::Scale),
            "median" => Ok(SigmaRule::Median),
            t => match t.parse::<f64>() {
                Ok(v) if v.is_finite() && v > 0.0 => Ok(SigmaRule::Given(v)),
                _ => Err(format!(
                    "the kernel width {s:?} is neither `scale`, `median` nor a positive number"
                )),
            },
        }
    }
}

/// The map's kind and size as written: `nystroem`, `nystroem:500`, `rff:2000`, `elm`, `poly2`
/// (size 0: its size is its input's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MapShape {
    /// The kind.
    pub kind: MapKind,
    /// Landmarks or features.
    pub size: usize,
}

impl FromStr for MapShape {
    type Err = String;

    fn from_str(s: &str) -> Result<MapShape, String> {
        let (word, size) = match s.split_once(':') {
            Some((w, n)) => (w, Some(n)),
            None => (s, None),
        };
        let kind = MapKind::ALL
            .into_iter()
            .find(|k| k.word() == word.trim())
            .ok_or_else(|| {
                format!(
                    "unknown feature map {word:?}: expected nystroem[:M], rff[:D], elm[:D] or poly2"
                )
            })?;
        if !kind.has_width() {
            return match size {
                None => Ok(MapShape { kind, size: 0 }),
                Some(n) => Err(format!(
                    "{kind}:{n}: the polynomial map takes no size (it gives the features and their pairwise products)"
                )),
            };
        }
        let size = match size {
            None => kind.default_size(),
            Some(n) => match n.trim().parse::<usize>() {
                Ok(v) if (1..=MAX_MAP_SIZE).contains(&v) => v,
                _ => {
                    return Err(format!(
                        "{kind}:{n}: the size must be a whole number from 1 to {MAX_MAP_SIZE}"
                    ));
                }
            },
        };
        Ok(MapShape { kind, size })
    }
}

impl fmt::Display for MapShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.has_width() {
            write!(f, "{}:{}", self.kind, self.size)
        } else {
            write!(f, "{}", self.kind)
        }
    }
}

/// The largest output of the polynomial map, $2^{24}$ features (an input of 5,791 features):
/// indices stay far inside `u32`, and a learner's own memory check decides what it can hold.
pub const MAX_POLY2_DIM: usize = 1 << 24;

/// A feature map as asked: its shape, kernel width rule and seed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeatureMapSpec {
    /// Kind and size.
    pub shape: MapShape,
    /// The kernel width.
    pub sigma: SigmaRule,
    /// The seed of the random draws and of the sample.
    pub seed: u64,
}

/// The kernel width when none is asked for.
pub const DEFAULT_SIGMA: SigmaRule = SigmaRule::Scale;

impl FeatureMapSpec {
    /// The spec of `shape` with the default width and seed 0.
    pub fn new(shape: MapShape) -> FeatureMapSpec {
        FeatureMapSpec {
            shape,
            sigma: DEFAULT_SIGMA,
            seed: 0,
        }
    }

    /// An empty seeded sample of [`MAP_SAMPLE_ROWS`] rows, the one every reading path draws the
    /// map's rows into.
    pub fn empty_sample(&self) -> crate::RowSample {
        crate::RowSample::new(MAP_SAMPLE_ROWS, self.seed)
    }

    /// The most features the fitted map can give on `input_dim` input features (Nystroem may
    /// give fewer: landmarks whose kernel matrix is nearly singular are dropped).
    pub fn max_output_dim(&self, input_dim: usize) -> usize {
        match self.shape.kind {
            MapKind::Poly2 => crate::stages::poly2_dim(input_dim).unwrap_or(usize::MAX),
            _ => self.shape.size,
        }
    }

    /// Bytes the fitted map on `input_dim` features holds (weights or landmarks and
    /// projection), for a memory check before it is fitted.
    pub fn map_bytes(&self, input_dim: usize) -> u64 {
        let d = self.shape.size as u64;
        let p = input_dim as u64;
        let per = match self.shape.kind {
            MapKind::Nystroem => p + d + 1,
            MapKind::Rff | MapKind::Elm => p + 1,
            MapKind::Poly2 => 0,
        };
        8u64.saturating_mul(d).saturating_mul(per)
    }

    /// Bytes fitting the map on `input_dim` features takes beyond the map (the sample made
    /// dense, the kernel matrix and its eigendecomposition).
    pub fn fit_bytes(&self, input_dim: usize) -> u64 {
        let rows = MAP_SAMPLE_ROWS as u64;
        let d = self.shape.size as u64;
        let sample = 8u64.saturating_mul(rows).saturating_mul(input_dim as u64);
        let kernel = match self.shape.kind {
            MapKind::Nystroem => 8u64.saturating_mul(d).saturating_mul(d).saturating_mul(3),
            MapKind::Rff | MapKind::Elm | MapKind::Poly2 => 0,
        };
        sample
            .saturating_add(kernel)
            .saturating_add(self.map_bytes(input_dim))
    }
}

impl fmt::Display for FeatureMapSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.shape.kind.has_width() {
            return write!(f, "{}", self.shape);
        }
        write!(
            f,
            "{} (sigma {}, seed {})",
            self.shape, self.sigma, self.seed
        )
    }
}
