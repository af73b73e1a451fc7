//! The flags of the preparation stages (`--scale`, `--no-scale`, `--one-hot`, `--features`,
//! `--feature-sigma`, `--feature-seed`, `--unit-norm`), shared by every
//! command that fits a preparation; [`StageArgs::spec`] turns them into the one
//! [`TransformSpec`] the work sees.

use auc_data::Scaling;
use auc_prep::{FeatureMapSpec, MapShape, OneHotSpec, SigmaRule, TransformSpec};
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// `--scale`'s words, as [`Scaling`] reads and writes them.
fn scaling_parser() -> impl TypedValueParser<Value = Scaling> {
    PossibleValuesParser::new(Scaling::ALL.map(Scaling::name)).try_map(|s| s.parse::<Scaling>())
}

/// Scaling, one-hot indicators, a feature map and row normalization, fitted on training data
/// only.
#[derive(clap::Args, Debug, Clone)]
#[command(group = clap::ArgGroup::new("sampled").multiple(true).args(["features", "one_hot"]))]
pub(crate) struct StageArgs {
    /// Feature scaling, fitted on the training data: `auto` is min-max to [-1, 1] on data with
    /// at least 10 % non-zeros and max-abs (x / max|x|, zeros stay zero) below, so sparse data
    /// stays sparse; `minmax`, `maxabs`, `none`.
    #[arg(long, value_parser = scaling_parser(), default_value = "auto", help_heading = "Preparation")]
    scale: Scaling,
    /// The same as `--scale none`.
    #[arg(long, help_heading = "Preparation")]
    no_scale: bool,
    /// Indicators of categorical features, appended after the features: a feature whose
    /// values in a seeded sample of the (scaled) training rows number from 3 to K (16 when
    /// `--one-hot` gives none) gets one 0/1 column per value. For categories coded as numbers
    /// (suits, nucleotides, answers); before `--features`, whose `poly2` map then learns
    /// pairs of categories.
    #[arg(long, value_name = "K", num_args = 0..=1, default_missing_value = "16", value_parser = clap::value_parser!(u16).range(3..=i64::from(auc_prep::one_hot::MAX_LEVELS)), help_heading = "Preparation")]
    one_hot: Option<u16>,
    /// A nonlinear feature map after scaling, fitted on a seeded sample of the training rows:
    /// `nystroem[:M]` (M landmarks by k-means, the Gaussian kernel's Nystroem map; M = 1000 by
    /// default), `rff[:D]` (D random Fourier features of the Gaussian kernel; 1000), `elm[:D]`
    /// (a random sigmoid layer; 1000) or `poly2` (the features and their pairwise products,
    /// p + p(p+1)/2 of them, exact). Every linear learner then learns on the map.
    #[arg(long, value_name = "MAP", value_parser = |s: &str| s.parse::<MapShape>(), help_heading = "Preparation")]
    features: Option<MapShape>,
    /// The Gaussian kernel width sigma of --features, k(x, z) = exp(-|x - z|^2 / sigma^2):
    /// a number, `scale` (sigma^2 = p Var(x) on the scaled sample, scikit-learn's
    /// gamma="scale") or `median` (the median distance between sample rows).
    #[arg(long, value_name = "SIGMA", default_value = "scale", value_parser = |s: &str| s.parse::<SigmaRule>(), requires = "features", help_heading = "Preparation")]
    feature_sigma: SigmaRule,
    /// The seed of the map's random draws and of the sample the map and the one-hot levels are
    /// fitted on.
    #[arg(
        long,
        value_name = "SEED",
        default_value_t = 0,
        requires = "sampled",
        help_heading = "Preparation"
    )]
    feature_seed: u64,
    /// Divide every example by its Euclidean norm (after scaling).
    #[arg(long, help_heading = "Preparation")]
    unit_norm: bool,
}

impl StageArgs {
    /// The stages asked for.
    pub(crate) fn spec(&self) -> TransformSpec {
        TransformSpec {
            scaling: if self.no_scale {
                Scaling::None
            } else {
                self.scale
            },
            one_hot: self
                .one_hot
                .map(|k| OneHotSpec::new(k, self.feature_seed).expect("clap checked K's range")),
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
