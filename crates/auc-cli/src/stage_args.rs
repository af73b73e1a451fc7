//! The flags of the preparation stages (`--scale`, `--no-scale`, `--features`,
//! `--feature-sigma`, `--feature-seed`, `--unit-norm`), shared by every
//! command that fits a preparation; [`StageArgs::spec`] turns them into the one
//! [`TransformSpec`] the work sees.

use auc_data::Scaling;
use auc_prep::{FeatureMapSpec, MapShape, SigmaRule, TransformSpec};
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// `--scale`'s words, as [`Scaling`] reads and writes them.
fn scaling_parser() -> impl TypedValueParser<Value = Scaling> {
    PossibleValuesParser::new(Scaling::ALL.map(Scaling::name)).try_map(|s| s.parse::<Scaling>())
}

/// Scaling, a feature map and row normalization, fitted on training data only.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct StageArgs {
    /// Feature scaling, fitted on the training data: `auto` is min-max to [-1, 1] on data with
    /// at least 10 % non-zeros and max-abs (x / max|x|, zeros stay zero) below, so sparse data
    /// stays sparse; `minmax`, `maxabs`, `none`.
    #[arg(long, value_parser = scaling_parser(), default_value = "auto", help_heading = "Preparation")]
    scale: Scaling,
    /// The same as `--scale none`.
    #[arg(long, help_heading = "Preparation")]
    no_scale: bool,
    /// A nonlinear feature map after scaling, fitted on a seeded sample of the training rows:
    /// `nystroem[:M]` (M landmarks by k-means, the Gaussian kernel's Nystroem map; M = 1000 by
    /// default), `rff[:D]` (D random Fourier features of the Gaussian kernel; 1000) or
    /// `elm[:D]` (a random sigmoid layer; 1000). Every linear learner then learns on the map.
    #[arg(long, value_name = "MAP", value_parser = |s: &str| s.parse::<MapShape>(), help_heading = "Preparation")]
    features: Option<MapShape>,
    /// The Gaussian kernel width sigma of --features, k(x, z) = exp(-|x - z|^2 / sigma^2):
    /// a number, `scale` (sigma^2 = p Var(x) on the scaled sample, scikit-learn's
    /// gamma="scale") or `median` (the median distance between sample rows).
    #[arg(long, value_name = "SIGMA", default_value = "scale", value_parser = |s: &str| s.parse::<SigmaRule>(), requires = "features", help_heading = "Preparation")]
    feature_sigma: SigmaRule,
    /// The seed of the map's random draws and of its sample.
    #[arg(
        long,
        value_name = "SEED",
        default_value_t = 0,
        requires = "features",
        help_heading = "Preparation"
    )]
    feature_seed: u64,
    /// Divide every example by its Euclidean norm (after scaling).
    #[arg(long, help_heading = "Preparation")]
    unit_norm: bool,
}

impl StageArgs {
    /// Asks for the map `shape` unless `--features` named one; returns the map asked for.
    pub(crate) fn default_map(&mut self, shape: MapShape) -> MapShape {
        *self.features.get_or_insert(shape)
    }

    /// The stages asked for.
    pub(crate) fn spec(&self) -> TransformSpec {
        TransformSpec {
            scaling: if self.no_scale {
                Scaling::None
            } else {
                self.scale
            },
            features: self.features.map(|shape| FeatureMapSpec {
                shape,
                sigma: self.feature_sigma,
                seed: self.feature_seed,
            }),
            unit_norm: self.unit_norm,
        }
    }

    /// Whether any stage flag differs from its default.
    pub(crate) fn is_given(&self) -> bool {
        self.spec() != TransformSpec::default()
    }
}
