//! The flags of the preparation stages (`--scale`, `--no-scale`, `--unit-norm`), shared by every
//! command that fits a preparation; [`StageArgs::spec`] turns them into the one
//! [`TransformSpec`] the work sees.

use auc_data::Scaling;
use auc_prep::TransformSpec;
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// `--scale`'s words, as [`Scaling`] reads and writes them.
fn scaling_parser() -> impl TypedValueParser<Value = Scaling> {
    PossibleValuesParser::new(Scaling::ALL.map(Scaling::name)).try_map(|s| s.parse::<Scaling>())
}

/// Scaling and row normalization, fitted on training data only.
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
            unit_norm: self.unit_norm,
        }
    }

    /// Whether any stage flag differs from its default.
    pub(crate) fn is_given(&self) -> bool {
        self.spec() != TransformSpec::default()
    }
}
