//! Parameter flags shared by every command that builds a learner: one flag per parameter name
//! the algorithms use (the papers' symbols in lower case) and a generic `--param NAME=VALUE`.

use auc_core::ParamMap;
use clap::Args;

use crate::output::Error;

/// `--removal fifo|reservoir`, stored in the parameter map as 0 or 1.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RemovalArg {
    /// The oldest row leaves (FIFO [OAUC alg. 4]; KOIL's FIFO++).
    Fifo,
    /// Reservoir sampling (KOIL's RS++).
    Reservoir,
}

/// `--eta 0.5 --lambda 0.01 ...`: each algorithm accepts the names `auc algos` lists for it and
/// rejects the others.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct HyperArgs {
    /// Step size eta.
    #[arg(long, allow_negative_numbers = true)]
    eta: Option<f64>,
    /// Regularization lambda.
    #[arg(long, allow_negative_numbers = true)]
    lambda: Option<f64>,
    /// Aggressiveness / loss weight C.
    #[arg(long = "c", allow_negative_numbers = true)]
    c: Option<f64>,
    /// Adam's first-moment decay beta1.
    #[arg(long, allow_negative_numbers = true)]
    beta1: Option<f64>,
    /// Adam's second-moment decay beta2.
    #[arg(long, allow_negative_numbers = true)]
    beta2: Option<f64>,
    /// Small constant epsilon.
    #[arg(long, allow_negative_numbers = true)]
    epsilon: Option<f64>,
    /// Buffer budget per class.
    #[arg(long, allow_negative_numbers = true)]
    budget: Option<f64>,
    /// Radius R of the feasible ball.
    #[arg(long = "r", allow_negative_numbers = true)]
    r: Option<f64>,
    /// Gaussian kernel width sigma: k(x, z) = exp(-||x - z||^2 / sigma^2).
    #[arg(long, allow_negative_numbers = true)]
    sigma: Option<f64>,
    /// KOIL's number of nearest violating support vectors.
    #[arg(long = "k", allow_negative_numbers = true)]
    k: Option<f64>,
    /// Which buffered row a full kernel buffer evicts.
    #[arg(long, value_enum)]
    removal: Option<RemovalArg>,
    /// A parameter NAME=VALUE (repeatable; any name `auc algos` lists).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
}

impl HyperArgs {
    /// The given parameters by name; a name given twice keeps the `--param` value.
    pub(crate) fn to_map(&self) -> Result<ParamMap, Error> {
        let mut map = ParamMap::new();
        let named = [
            ("eta", self.eta),
            ("lambda", self.lambda),
            ("c", self.c),
            ("beta1", self.beta1),
            ("beta2", self.beta2),
            ("epsilon", self.epsilon),
            ("budget", self.budget),
            ("r", self.r),
            ("sigma", self.sigma),
            ("k", self.k),
            (
                "removal",
                self.removal.map(|r| match r {
                    RemovalArg::Fifo => 0.0,
                    RemovalArg::Reservoir => 1.0,
                }),
            ),
        ];
        for (name, value) in named {
            if let Some(v) = value {
                map.set(name, v);
            }
        }
        for item in &self.params {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| format!("--param `{item}`: expected NAME=VALUE"))?;
            let v: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("--param `{item}`: `{value}` is not a number"))?;
            map.set(name.trim(), v);
        }
        Ok(map)
    }
}
