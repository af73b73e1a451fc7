//! Batch learners (GAM-CVM and the baselines built from its machinery): names for `auc cv` and
//! `auc train`, beside the online learners of `algos.rs`, and [`lookup`], which finds a name of
//! either kind.

use auc_core::{DynFit, ParamError, ParamMap, ParamSpec};
use auc_cvm::kernels::SubKernelKind::{self, Density, Gaussian, Pearson};
use std::sync::{Arc, OnceLock};

use auc_cvm::{CachedFit, GamCvmParams, KernelCache, SolverKind};

use crate::algos::Algo;

/// One batch algorithm: GAM-CVM with a choice of sub-kernels and optimizer.
pub(crate) struct BatchAlgo {
    /// Lower-case, hyphenated name, as typed after `--algo`.
    pub(crate) name: &'static str,
    /// One line for `auc algos`.
    pub(crate) about: &'static str,
    /// Sub-kernels fused (one: no fusion).
    pub(crate) kernels: &'static [SubKernelKind],
    /// The optimizer.
    pub(crate) solver: SolverKind,
}

/// Pairs above which `aucsvm` refuses to run: its exact dual keeps 12 bytes per pair and every
/// sweep visits each pair (`auc_cvm::solver::aucsvm_bytes` gives the memory), so the paper's
/// data sets up to PageBlocks-I (1.76 million training pairs) fit and larger ones are refused
/// with an error rather than run for hours.
pub(crate) const AUCSVM_MAX_PAIRS: usize = 2_000_000;

/// Every batch algorithm, in the order `auc algos` lists them.
pub(crate) static BATCH: &[BatchAlgo] = &[
    BatchAlgo {
        name: "gam-cvm",
        about: "GAM-CVM [CVM alg. 1]: Gaussian, Pearson and density kernels fused by cross-diffusion, generalized AUC dual by a core vector machine; transductive by default in `auc cv`, inductive in `auc train`",
        kernels: &SubKernelKind::ALL,
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k1",
        about: "GAM-CVM with the Gaussian sub-kernel K1 only (ablation of [CVM Table 6])",
        kernels: &[Gaussian],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k2",
        about: "GAM-CVM with the Pearson sub-kernel K2 only (ablation of [CVM Table 6])",
        kernels: &[Pearson],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k3",
        about: "GAM-CVM with the density sub-kernel K3 only (ablation of [CVM Table 6])",
        kernels: &[Density],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k12",
        about: "GAM-CVM fusing K1 and K2 (ablation of [CVM Table 6])",
        kernels: &[Gaussian, Pearson],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k13",
        about: "GAM-CVM fusing K1 and K3 (ablation of [CVM Table 6])",
        kernels: &[Gaussian, Density],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "gam-cvm-k23",
        about: "GAM-CVM fusing K2 and K3 (ablation of [CVM Table 6])",
        kernels: &[Pearson, Density],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "rho-auccvm",
        about: "rho-AUCCVM-style baseline [CVM sec. 5]: one Gaussian kernel (tune sigma_scale), the same core vector machine",
        kernels: &[Gaussian],
        solver: SolverKind::Cvm,
    },
    BatchAlgo {
        name: "aucsvm",
        about: "AUCSVM [BS05; CVM eqs. 8-10]: exact pairwise dual with tau = 1 on one Gaussian kernel, 12 bytes per pair; refuses more than 2000000 pairs",
        kernels: &[Gaussian],
        solver: SolverKind::AucSvm {
            max_pairs: AUCSVM_MAX_PAIRS,
        },
    },
];

impl BatchAlgo {
    /// The parameters it takes.
    pub(crate) fn params(&self) -> &'static [ParamSpec] {
        GamCvmParams::PARAMS
    }

    /// The checked parameters.
    pub(crate) fn parse(&self, m: &ParamMap) -> Result<GamCvmParams, ParamError> {
        GamCvmParams::from_map(m, self.kernels, self.solver)
    }
}

/// Finds a batch algorithm by name.
pub(crate) fn find(name: &str) -> Option<&'static BatchAlgo> {
    BATCH.iter().find(|a| a.name == name)
}

/// Finds an algorithm of either kind by name or alias: the one place that reports an unknown
/// name, listing every known one.
pub(crate) fn lookup(name: &str) -> Result<Entry, String> {
    if let Some(b) = find(name) {
        return Ok(Entry::Batch(b));
    }
    crate::algos::find(name).map(Entry::Online).ok_or_else(|| {
        format!(
            "unknown algorithm `{name}` (known: {})",
            crate::algos::names()
        )
    })
}

/// Kernel matrices this process may keep for reuse across the candidates of a grid (2 GiB).
const KERNEL_CACHE_BYTES: usize = 2 << 30;

/// The process's kernel cache: every candidate of `auc cv` fitted on the same rows shares one
/// fusion (the kernel depends on n_loc, rho, t and sigma_scale only).
fn kernel_cache() -> &'static Arc<KernelCache> {
    static CACHE: OnceLock<Arc<KernelCache>> = OnceLock::new();
    CACHE.get_or_init(|| Arc::new(KernelCache::new(KERNEL_CACHE_BYTES)))
}

/// An algorithm of either kind, as `auc cv` runs it.
#[derive(Clone, Copy)]
pub(crate) enum Entry {
    /// A one-pass learner of `algos.rs`.
    Online(&'static Algo),
    /// A batch learner of this file.
    Batch(&'static BatchAlgo),
}

impl Entry {
    /// The algorithm's name.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Entry::Online(a) => a.name,
            Entry::Batch(b) => b.name,
        }
    }

    /// Checks `params` completely.
    pub(crate) fn validate(&self, params: &ParamMap) -> Result<(), ParamError> {
        match self {
            Entry::Online(a) => a.validate(params),
            Entry::Batch(b) => b.parse(params).map(|_| ()),
        }
    }

    /// Refuses `--average` where there is no weight vector to average (kernel and batch learners).
    pub(crate) fn check_average(&self, average: bool) -> Result<(), String> {
        match self {
            Entry::Online(a) => a.check_average(average),
            Entry::Batch(b) if average => Err(format!(
                "--average averages the iterates of a linear online learner; {} is a batch kernel learner",
                b.name
            )),
            Entry::Batch(_) => Ok(()),
        }
    }

    /// The training procedure for `params`; `average` applies to online learners only.
    pub(crate) fn fit(
        &self,
        params: &ParamMap,
        average: bool,
    ) -> Result<Box<dyn DynFit>, ParamError> {
        match self {
            Entry::Online(a) => a.fit(params, average),
            Entry::Batch(b) => Ok(Box::new(CachedFit {
                params: b.parse(params)?,
                cache: Arc::clone(kernel_cache()),
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_finds_both_kinds_and_names_the_unknown() {
        assert!(matches!(lookup("gam-cvm"), Ok(Entry::Batch(b)) if b.name == "gam-cvm"));
        assert!(matches!(lookup("pa1"), Ok(Entry::Online(a)) if a.name == "pa-i"));
        let e = lookup("nope").err().unwrap();
        assert!(e.starts_with("unknown algorithm `nope` (known: "), "{e}");
        assert!(e.contains("gam-cvm-k23") && e.contains("koil"), "{e}");
    }

    #[test]
    fn batch_names_are_unique_and_distinct_from_online_ones() {
        for (i, b) in BATCH.iter().enumerate() {
            assert!(crate::algos::find(b.name).is_none(), "{}", b.name);
            assert!(BATCH[..i].iter().all(|c| c.name != b.name));
            assert!(b.parse(&ParamMap::new()).is_ok(), "{}", b.name);
            assert!(b.parse(&[("epsilon", 2.0)].into_iter().collect()).is_err());
        }
    }
}
