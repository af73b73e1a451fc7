//! The algorithm registry: the only place that maps command-line names to learner types.

use auc_core::{DynFit, OnlineParams, ParamError, ParamMap, ParamSpec};
use auc_online::{PaIParams, PerceptronParams};

use crate::learners::{AnyLearner, Build, StreamFit};

/// One algorithm the command line knows.
pub(crate) struct Algo {
    /// Lower-case, hyphenated name, as typed after `--algo`.
    pub(crate) name: &'static str,
    /// Other accepted names.
    pub(crate) aliases: &'static [&'static str],
    /// One line for `auc algos`, with the citation key of its source.
    pub(crate) about: &'static str,
    /// Its parameters, named by the papers' symbols in lower case.
    pub(crate) params: &'static [ParamSpec],
    /// Builds a learner from parameter values (unknown names are errors), dimension and seed.
    pub(crate) build: Build,
}

impl Algo {
    /// Checks `params` completely: names, required values and ranges (by building a learner of
    /// dimension 1), so a bad grid value fails before any training starts.
    pub(crate) fn validate(&self, params: &ParamMap) -> Result<(), ParamError> {
        (self.build)(params, 1, 0).map(|_| ())
    }

    /// The training procedure for `params`, averaging iterates when asked.
    pub(crate) fn fit(
        &self,
        params: &ParamMap,
        average: bool,
    ) -> Result<Box<dyn DynFit>, ParamError> {
        self.validate(params)?;
        Ok(Box::new(StreamFit {
            build: self.build,
            params: params.clone(),
            average,
        }))
    }
}

/// Every algorithm, in the order `auc algos` lists them.
pub(crate) static ALGOS: &[Algo] = &[
    Algo {
        name: "perceptron",
        aliases: &[],
        about: "Perceptron [Rosenblatt58]: w += y x on each mistake; classification baseline of [OAUC sec. 6.1]",
        params: PerceptronParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::Perceptron(
                PerceptronParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
    },
    Algo {
        name: "pa-i",
        aliases: &["pa1"],
        about: "Passive-aggressive PA-I [PA06]: hinge step capped by c; classification baseline of [OAUC sec. 6.1]",
        params: PaIParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::PaI(
                PaIParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
    },
];

/// Finds an algorithm by name or alias.
pub(crate) fn find(name: &str) -> Option<&'static Algo> {
    ALGOS
        .iter()
        .find(|a| a.name == name || a.aliases.contains(&name))
}

/// The names, comma separated, for error messages.
pub(crate) fn names() -> String {
    ALGOS.iter().map(|a| a.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lower_case_hyphenated_and_unique() {
        for (i, a) in ALGOS.iter().enumerate() {
            assert!(
                a.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            );
            assert!(
                ALGOS[..i]
                    .iter()
                    .all(|b| b.name != a.name && !b.aliases.contains(&a.name))
            );
            assert!(std::ptr::eq(find(a.name).unwrap(), a));
        }
    }

    #[test]
    fn every_default_is_valid() {
        for a in ALGOS {
            assert!(a.validate(&ParamMap::new()).is_ok(), "{}", a.name);
        }
    }
}
