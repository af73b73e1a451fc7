//! The algorithm registry: the only place that maps command-line names to learner types.

use auc_core::{DynFit, OnlineParams, ParamError, ParamMap, ParamSpec};
use auc_kernel::{KoilParams, OkaucMParams, OkaucSParams};
use auc_online::{
    AdaOamParams, AdmOamParams, OamGraParams, OamSeqParams, OaucMParams, OaucMcParams, OpaucParams,
    PaIParams, PerceptronParams, SolamParams,
};

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
    /// A kernel learner: no weight vector, so no `--average`.
    pub(crate) kernel: bool,
}

impl Algo {
    /// Checks `params` completely: names, required values and ranges (by building a learner of
    /// dimension 1), so a bad grid value fails before any training starts.
    pub(crate) fn validate(&self, params: &ParamMap) -> Result<(), ParamError> {
        (self.build)(params, 1, 0).map(|_| ())
    }

    /// Refuses `--average` for a kernel learner.
    pub(crate) fn check_average(&self, average: bool) -> Result<(), String> {
        if average && self.kernel {
            Err(format!(
                "--average averages weight vectors; {} is a kernel learner and has none",
                self.name
            ))
        } else {
            Ok(())
        }
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
        kernel: false,
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
        kernel: false,
    },
    Algo {
        name: "oauc-m",
        aliases: &[],
        about: "OAUC-M [OAUC alg. 1, eq. 14]: OGD on the second-order hinge surrogate psi_M, eta_t = 1/(lambda t)",
        params: OaucMParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OaucM(
                OaucMParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "oauc-mc",
        aliases: &["oauc-m-c"],
        about: "OAUC-M_c [OAUC alg. 1, eq. 14]: OGD on psi_M with a constant step eta",
        params: OaucMcParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OaucMc(
                OaucMcParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "opauc",
        aliases: &["oauc-s"],
        about: "OPAUC = OAUC-S [OAUC eq. 13; OPAUC16]: OGD on the square surrogate psi_S/2 from class moments",
        params: OpaucParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::Opauc(
                OpaucParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "adaoam",
        aliases: &[],
        about: "AdaOAM [ADM]: diagonal Adagrad steps on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)",
        params: AdaOamParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::AdaOam(
                AdaOamParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "admoam",
        aliases: &[],
        about: "AdmOAM [ADM alg. 1]: Adam steps (bias-corrected) on the OPAUC gradient, projected on ||w|| <= 1/sqrt(lambda)",
        params: AdmOamParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::AdmOam(
                AdmOamParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "oam-seq",
        aliases: &[],
        about: "OAM-seq [OAM11]: per-class reservoir buffers, a PA-style step per buffered opposite example",
        params: OamSeqParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OamSeq(
                OamSeqParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "oam-gra",
        aliases: &[],
        about: "OAM-gra [OAM11]: per-class reservoir buffers, one gradient step over all violated pairs",
        params: OamGraParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OamGra(
                OamGraParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "solam",
        aliases: &[],
        about: "SOLAM [SOLAM16]: stochastic saddle-point square-loss AUC, O(p) per step, averaged output",
        params: SolamParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::Solam(
                SolamParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: false,
    },
    Algo {
        name: "okauc-m",
        aliases: &[],
        about: "OKAUC-M [OAUC algs. 2-4, eq. 26]: kernel OGD on psi_M over budgeted FIFO buffers, eta_t = 1/(lambda t)",
        params: OkaucMParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OkaucM(
                OkaucMParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: true,
    },
    Algo {
        name: "okauc-s",
        aliases: &[],
        about: "OKAUC-S [OAUC algs. 2-4, eq. 27]: kernel OGD on psi_S/2 over budgeted FIFO buffers, constant eta",
        params: OkaucSParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::OkaucS(
                OkaucSParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: true,
    },
    Algo {
        name: "koil",
        aliases: &[],
        about: "KOIL [KOIL18]: localized kernel hinge against the k nearest violating opposite support vectors, FIFO++/RS++ buffers",
        params: KoilParams::PARAMS,
        build: |m, dim, seed| {
            Ok(AnyLearner::Koil(
                KoilParams::from_map(m)?.build_seeded(dim, seed)?,
            ))
        },
        kernel: true,
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
    ALGOS
        .iter()
        .map(|a| a.name)
        .chain(crate::batch::BATCH.iter().map(|b| b.name))
        .collect::<Vec<_>>()
        .join(", ")
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
    fn every_algorithm_builds_with_its_required_parameters() {
        // Required parameters get a value every algorithm accepts; defaults fill the rest.
        for a in ALGOS {
            let m: ParamMap = a
                .params
                .iter()
                .filter(|p| p.default.is_none())
                .map(|p| (p.name, if p.name.starts_with("beta") { 0.9 } else { 0.5 }))
                .collect();
            assert!(a.validate(&m).is_ok(), "{}: {:?}", a.name, a.validate(&m));
            assert!(
                a.validate(&[("nonsense", 1.0)].into_iter().collect())
                    .is_err()
            );
        }
    }
}
