//! The registered algorithms built from this crate's parts: GAM-CVM, its six sub-kernel
//! ablations \[CVM Table 6\], a rho-AUCCVM-style single Gaussian kernel and AUCSVM, each a typed
//! parameter set ([`auc_core::Params`]) over one shared [`GamCvmSettings`].
//!
//! Every variant is a transparent newtype of [`GamCvmSettings`] (so its JSON form is the
//! settings' own) that fixes the sub-kernels and the optimizer and lists only the settings that
//! matter to it in its specs: a single kernel needs no fusion settings, AUCSVM neither
//! $\epsilon$ nor $C_2$.
//!
//! # Defaults
//!
//! The paper fixes none of $C_1$, $C_2$, $\epsilon$, $n_{loc}$, $\rho$, $T$; its grids are in
//! conventions section 8. Ours: $C_1 = 1$, $C_2 = 1$ ($C_2$ only scales the scores, [`crate::solver`]),
//! $\epsilon = 10^{-3}$ (fig. 5 of `docs/results/cvm.md`: AUC drops already at $10^{-2}$),
//! $n_{loc} = 16$, $\rho = 0.1$, $T = 20$, transductive scoring in cross-validation as the
//! paper measures (an `auc train` model is always inductive).

use std::sync::{Arc, OnceLock};

use auc_core::{
    BatchParams, DataShape, Dataset, DynFit, Family, FitError, ParamError, ParamSpec, Params, Range,
};
use serde::{Deserialize, Serialize};

use crate::approx::FusionApprox;
use crate::fusion::{FusionParams, Normalization};
use crate::kernels::SubKernelKind::{self, Density, Gaussian, Pearson};
use crate::model::MAX_CORE;
use crate::{CachedFit, GamCvmParams, InductiveModel, KernelCache, KernelSpec, SolverKind};

/// Pairs above which AUCSVM refuses to run: where the paper's sets end (PageBlocks-I, 1.76 million
/// pairs). The primal solver ([`crate::primal`]) holds nothing per pair; the limit keeps a fit to
/// minutes (its kernel products grow as the square of the training points).
pub const AUCSVM_MAX_PAIRS: usize = 2_000_000;

/// The smallest $C_1$ and $\epsilon$ accepted. Below $10^{-12}$ the stopping test of the core
/// vector machine compares distances that differ by less than $10^4$ roundings: for
/// $\epsilon$ because $(1+\epsilon)^2 - 1$ is that small, for $C_1$ because $1/C_1$ (added to
/// every pair's squared norm) swamps the kernel's entries, which are at most 4.
pub const MIN_C1_EPSILON: f64 = 1e-12;

/// The core vector machine's $\epsilon$ on landmarks when none is given: with $10^4$ to $10^5$
/// points, $\epsilon = 10^{-3}$ stops at a few hundred core pairs whatever $n$ is, and the
/// scores follow too few of the training points. Chosen by the defaults page's rule on the
/// shared sets above 10,000 rows (`docs/results/cvm-epsilon.md`, `benches/cvm_epsilon.py`).
pub const LANDMARK_EPSILON: f64 = 3e-5;

/// Kernel matrices a process keeps for reuse across the candidates of a grid (2 GiB).
const KERNEL_CACHE_BYTES: usize = 2 << 30;

/// The process's kernel cache: every candidate of a grid fitted on the same rows shares one
/// fusion (the kernel depends on `n_loc`, `rho`, `t`, the normalization and `sigma_scale` only).
pub fn shared_cache() -> Arc<KernelCache> {
    static CACHE: OnceLock<Arc<KernelCache>> = OnceLock::new();
    Arc::clone(CACHE.get_or_init(|| Arc::new(KernelCache::new(KERNEL_CACHE_BYTES))))
}

/// Every setting of the GAM-CVM family; each variant reads the ones its specs list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GamCvmSettings {
    /// $C_1 > 0$: slack weight \[CVM eq. 11\].
    pub c1: f64,
    /// $C_2 > 0$: margin weight \[CVM eq. 11\]; it only scales the scores.
    pub c2: f64,
    /// $\epsilon \in (0, 1)$: the core vector machine's $(1+\epsilon)$-approximation.
    pub epsilon: f64,
    /// Neighbours $n_{loc}$ of the density kernel and the local kernels \[CVM eqs. 16, 19\].
    pub n_loc: usize,
    /// $\rho > 0$ of the cross-diffusion \[CVM eq. 21\].
    pub rho: f64,
    /// At most this many diffusion rounds $T$ \[CVM eq. 21\].
    pub t: usize,
    /// How eqs. 18 and 20 normalize the sub-kernels.
    pub normalization: Normalization,
    /// 0: the dense fusion; $m > n_{loc}$: fuse on $m$ landmarks and extend to every point
    /// ([`crate::approx`]), memory $O(m^2 + n\,n_{loc})$ for $n$ well past 20,000.
    pub landmarks: usize,
    /// Multiplier of the Gaussian bandwidth $\sigma_1$ (1 = the paper's median rule).
    pub sigma_scale: f64,
    /// In cross-validation, build the kernel on the training and the scored rows together (the
    /// paper's transductive mode); `false` measures the inductive model `auc train` saves.
    pub transductive: bool,
}

impl GamCvmSettings {
    /// The settings after the default that depends on another setting: on landmarks, an
    /// `epsilon` not given is [`LANDMARK_EPSILON`] ([`Params::with_dependent_defaults`]).
    pub fn with_dependent_defaults(self, given: &dyn Fn(&str) -> bool) -> Self {
        if self.landmarks > 0 && !given("epsilon") {
            Self {
                epsilon: LANDMARK_EPSILON,
                ..self
            }
        } else {
            self
        }
    }
}

impl Default for GamCvmSettings {
    /// See the module docs.
    fn default() -> Self {
        Self {
            c1: 1.0,
            c2: 1.0,
            epsilon: 1e-3,
            n_loc: 16,
            rho: 0.1,
            t: 20,
            normalization: Normalization::default(),
            landmarks: 0,
            sigma_scale: 1.0,
            transductive: true,
        }
    }
}

const C1: ParamSpec = ParamSpec::real(
    "c1",
    Range::Positive,
    "C1 >= 1e-12, slack weight of [CVM eq. 11] (below, 1/C1 swamps the kernel in rounding)",
);
const C2: ParamSpec = ParamSpec::real(
    "c2",
    Range::Positive,
    "C2 > 0, margin weight of [CVM eq. 11] (only scales the scores)",
);
const EPSILON: ParamSpec = ParamSpec::real(
    "epsilon",
    Range::OpenUnit,
    "epsilon in [1e-12, 1), (1+epsilon)-approximation of the core vector machine [CVM alg. 1] (below, (1+epsilon)^2 - 1 is rounding)",
);
const N_LOC: ParamSpec = ParamSpec::integer(
    "n_loc",
    1,
    "neighbours of the density kernel and the local kernels [CVM eqs. 16, 19], below the number of points",
);
const RHO: ParamSpec = ParamSpec::real(
    "rho",
    Range::Positive,
    "rho > 0 of the cross-diffusion [CVM eq. 21] (our default)",
);
const T: ParamSpec = ParamSpec::integer(
    "t",
    1,
    "at most this many diffusion rounds [CVM eq. 21] (our default)",
);
const NORMALIZATION: ParamSpec = ParamSpec::choice(
    "normalization",
    &["printed", "rows"],
    "printed (the default: the better three-kernel model on 12 of 13 shared sets): across sub-kernels as [CVM eqs. 18, 20] print; rows: each sub-kernel by its own rows [Wang12]",
);
const LANDMARKS: ParamSpec = ParamSpec::integer(
    "landmarks",
    0,
    "0 = dense fusion (n x n matrices); m > n_loc = fuse on m landmarks and extend to every point, memory O(m^2 + n n_loc), for n well past 20,000; on landmarks, epsilon defaults to 3e-5 unless given (docs/results/cvm-epsilon.md)",
);
const SIGMA_SCALE: ParamSpec = ParamSpec::real(
    "sigma_scale",
    Range::Positive,
    "multiplier of the Gaussian bandwidth sigma_1 = median per-sample std [CVM eq. 14]",
);
const TRANSDUCTIVE: ParamSpec = ParamSpec::boolean(
    "transductive",
    "cross-validation builds the kernel on training and scored rows (the paper); false: the inductive model auc train saves",
);

/// Specs of the fused variants.
const FUSED: &[ParamSpec] = &[
    C1,
    C2,
    EPSILON,
    N_LOC,
    RHO,
    T,
    NORMALIZATION,
    LANDMARKS,
    SIGMA_SCALE,
    TRANSDUCTIVE,
];
/// Specs of the single-kernel variants (no fusion).
const SINGLE: &[ParamSpec] = &[C1, C2, EPSILON, N_LOC, SIGMA_SCALE, TRANSDUCTIVE];
/// Specs of AUCSVM (an exact QP with $\tau = 1$: no $\epsilon$, no $C_2$).
const EXACT: &[ParamSpec] = &[C1, N_LOC, SIGMA_SCALE, TRANSDUCTIVE];

/// The coarse grid of `docs/results/cvm.md`.
const GRID: &[&str] = &["c1=0.1,1,10", "n_loc=8,32"];
/// conventions section 8's grid.
const PAPER_GRID: &[&str] = &[
    "c1=0.001,0.01,0.1,0.5,1,5,10,100",
    "epsilon=1e-8,1e-7,1e-6,1e-5,1e-4,1e-3,1e-2,1e-1",
    "n_loc=4,8,16,32,64,128",
];
/// rho-AUCCVM tunes the Gaussian bandwidth instead of the neighbourhood.
const RHO_GRID: &[&str] = &["c1=0.1,1,10", "sigma_scale=0.5,1,2"];
/// conventions section 8's grid for rho-AUCCVM, with the bandwidth.
const RHO_PAPER_GRID: &[&str] = &[
    "c1=0.001,0.01,0.1,0.5,1,5,10,100",
    "epsilon=1e-8,1e-7,1e-6,1e-5,1e-4,1e-3,1e-2,1e-1",
    "sigma_scale=0.25,0.5,1,2,4",
];
/// AUCSVM: an exact solver, no epsilon.
const EXACT_GRID: &[&str] = &["c1=0.1,1,10"];
/// conventions section 8's C1 grid for AUCSVM.
const EXACT_PAPER_GRID: &[&str] = &["c1=0.001,0.01,0.1,0.5,1,5,10,100"];

impl GamCvmSettings {
    /// Range checks of every setting.
    pub fn check(&self) -> Result<(), ParamError> {
        for (spec, v) in [
            (C1, self.c1),
            (C2, self.c2),
            (EPSILON, self.epsilon),
            (RHO, self.rho),
            (SIGMA_SCALE, self.sigma_scale),
        ] {
            spec.check_real(v)?;
        }
        // Floors inside the specs' ranges where a documented value made the solver run without
        // end (hostile input, item 8): at epsilon = 1e-300, (1+epsilon)^2 rounds to 1 and no
        // ball ever encloses every pair; at C1 = 1e-308, 1/C1 overflows the ball's distances.
        for (name, v) in [("c1", self.c1), ("epsilon", self.epsilon)] {
            if v < MIN_C1_EPSILON {
                return Err(ParamError::OutOfRange {
                    name,
                    value: v,
                    allowed: "at least 1e-12 (below, the core vector machine's ball is decided by rounding)",
                });
            }
        }
        if self.landmarks != 0 && self.landmarks <= self.n_loc {
            return Err(ParamError::OutOfRange {
                name: "landmarks",
                value: self.landmarks as f64,
                allowed: "0 or an integer above n_loc",
            });
        }
        for (name, v) in [("n_loc", self.n_loc), ("t", self.t)] {
            if v == 0 {
                return Err(ParamError::OutOfRange {
                    name,
                    value: 0.0,
                    allowed: "an integer >= 1",
                });
            }
        }
        Ok(())
    }

    /// The full parameters for these sub-kernels and this optimizer.
    pub fn resolve(&self, kernels: &[SubKernelKind], solver: SolverKind) -> GamCvmParams {
        GamCvmParams {
            kernel: KernelSpec {
                kernels: kernels.to_vec(),
                sigma_scale: self.sigma_scale,
                n_loc: self.n_loc,
                fusion: FusionParams {
                    rho: self.rho,
                    max_iter: self.t,
                    tol: 1e-3,
                    normalization: self.normalization,
                },
                approx: if self.landmarks == 0 {
                    FusionApprox::Dense
                } else {
                    FusionApprox::Landmarks {
                        count: self.landmarks,
                    }
                },
            },
            c1: self.c1,
            c2: self.c2,
            eps: self.epsilon,
            max_core: MAX_CORE,
            solver,
            transductive: self.transductive,
        }
    }
}

/// Declares one registered variant: a newtype of [`GamCvmSettings`] with its name, specs,
/// sub-kernels and optimizer.
macro_rules! variant {
    (
        $(#[$doc:meta])*
        $ty:ident, $specs:expr, $grid:expr, $paper_grid:expr, [$($kernel:expr),+], $solver:expr,
        { $($names:tt)* }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $ty(pub GamCvmSettings);

        impl $ty {
            /// The sub-kernels it fuses (one: no fusion).
            pub const KERNELS: &'static [SubKernelKind] = &[$($kernel),+];
            /// Its optimizer.
            pub const SOLVER: SolverKind = $solver;

            /// The full parameters of a fit.
            pub fn resolve(&self) -> GamCvmParams {
                self.0.resolve(Self::KERNELS, Self::SOLVER)
            }
        }

        impl Params for $ty {
            $($names)*
            const FAMILY: Family = Family::Batch;
            const SPECS: &'static [ParamSpec] = $specs;
            const GRID: &'static [&'static str] = $grid;
            const PAPER_GRID: &'static [&'static str] = $paper_grid;

            fn check(&self) -> Result<(), ParamError> {
                self.0.check()?;
                self.resolve().check()
            }

            fn with_dependent_defaults(self, given: &dyn Fn(&str) -> bool) -> Self {
                Self(self.0.with_dependent_defaults(given))
            }

            fn is_transductive(&self) -> bool {
                self.0.transductive
            }

            fn inductive(&self) -> Self {
                Self(GamCvmSettings {
                    transductive: false,
                    ..self.0.clone()
                })
            }
        }

        impl BatchParams for $ty {
            type Model = InductiveModel;

            fn fit_model(
                &self,
                train: &Dataset,
                seed: u64,
            ) -> Result<(InductiveModel, String), FitError> {
                self.check()?;
                let mut params = self.resolve();
                params.transductive = false;
                let (model, info) = params.fit_inductive(train, seed)?;
                let summary = format!(
                    "tau {:.4}, core set {}{}; fusion {:.2} s, optimization {:.3} s",
                    info.tau,
                    info.core_size,
                    match (info.converged, &params.solver) {
                        (true, _) => "",
                        (false, SolverKind::AucSvm { .. }) => {
                            " (stopped at the Newton step cap before its gradient tolerance was met)"
                        }
                        (false, SolverKind::Cvm) if info.core_size >= params.max_core => {
                            " (stopped at the core-set limit before the (1+epsilon) approximation was met)"
                        }
                        (false, SolverKind::Cvm) => {
                            " (stopped at the solver's step budget, MAX_SMO_WORK, before the (1+epsilon) approximation was met: a larger epsilon or c1 converges sooner)"
                        }
                    },
                    info.fusion_seconds,
                    info.solve_seconds
                );
                Ok((model, summary))
            }

            fn procedure(&self) -> Result<Box<dyn DynFit>, ParamError> {
                self.check()?;
                Ok(Box::new(CachedFit {
                    params: self.resolve(),
                    cache: shared_cache(),
                }))
            }

            fn fit_bytes(&self, shape: &DataShape) -> u64 {
                self.resolve()
                    .estimate_bytes(shape.n, shape.dim, shape.positives, shape.negatives)
            }
        }
    };
}

variant!(
    /// GAM-CVM \[CVM alg. 1\]: the three sub-kernels fused.
    GamCvm, FUSED, GRID, PAPER_GRID, [Gaussian, Pearson, Density], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm";
        const TITLE: &'static str = "GAM-CVM";
        const ABOUT: &'static str = "GAM-CVM [CVM alg. 1]: Gaussian, Pearson and density kernels fused by cross-diffusion, generalized AUC dual by a core vector machine; transductive by default in `auc cv`, inductive in `auc train`";
    }
);
variant!(
    /// GAM-CVM with the Gaussian sub-kernel only.
    GamCvmK1, SINGLE, GRID, PAPER_GRID, [Gaussian], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k1";
        const TITLE: &'static str = "K1";
        const ABOUT: &'static str = "GAM-CVM with the Gaussian sub-kernel K1 only (ablation of [CVM Table 6])";
    }
);
variant!(
    /// GAM-CVM with the Pearson sub-kernel only.
    GamCvmK2, SINGLE, GRID, PAPER_GRID, [Pearson], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k2";
        const TITLE: &'static str = "K2";
        const ABOUT: &'static str = "GAM-CVM with the Pearson sub-kernel K2 only (ablation of [CVM Table 6])";
    }
);
variant!(
    /// GAM-CVM with the density sub-kernel only.
    GamCvmK3, SINGLE, GRID, PAPER_GRID, [Density], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k3";
        const TITLE: &'static str = "K3";
        const ABOUT: &'static str = "GAM-CVM with the density sub-kernel K3 only (ablation of [CVM Table 6])";
    }
);
variant!(
    /// GAM-CVM fusing K1 and K2.
    GamCvmK12, FUSED, GRID, PAPER_GRID, [Gaussian, Pearson], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k12";
        const TITLE: &'static str = "K1+K2";
        const ABOUT: &'static str = "GAM-CVM fusing K1 and K2 (ablation of [CVM Table 6])";
    }
);
variant!(
    /// GAM-CVM fusing K1 and K3.
    GamCvmK13, FUSED, GRID, PAPER_GRID, [Gaussian, Density], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k13";
        const TITLE: &'static str = "K1+K3";
        const ABOUT: &'static str = "GAM-CVM fusing K1 and K3 (ablation of [CVM Table 6])";
    }
);
variant!(
    /// GAM-CVM fusing K2 and K3.
    GamCvmK23, FUSED, GRID, PAPER_GRID, [Pearson, Density], SolverKind::Cvm, {
        const NAME: &'static str = "gam-cvm-k23";
        const TITLE: &'static str = "K2+K3";
        const ABOUT: &'static str = "GAM-CVM fusing K2 and K3 (ablation of [CVM Table 6])";
    }
);
variant!(
    /// A rho-AUCCVM-style baseline: one Gaussian kernel and the same core vector machine.
    RhoAucCvm, SINGLE, RHO_GRID, RHO_PAPER_GRID, [Gaussian], SolverKind::Cvm, {
        const NAME: &'static str = "rho-auccvm";
        const TITLE: &'static str = "rho-AUCCVM";
        const ABOUT: &'static str = "rho-AUCCVM-style baseline [CVM sec. 5]: one Gaussian kernel (tune sigma_scale), the same core vector machine";
    }
);
variant!(
    /// AUCSVM: the exact pairwise QP with $\tau = 1$ on one Gaussian kernel.
    AucSvm, EXACT, EXACT_GRID, EXACT_PAPER_GRID, [Gaussian], SolverKind::AucSvm { max_pairs: AUCSVM_MAX_PAIRS }, {
        const NAME: &'static str = "aucsvm";
        const TITLE: &'static str = "AUCSVM";
        const ABOUT: &'static str = "AUCSVM [BS05; CVM eqs. 8-10]: exact pairwise QP with tau = 1 on one Gaussian kernel; refuses more than 2,000,000 pairs";
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_from_json_with_defaults_and_words() {
        let s: GamCvmSettings = serde_json::from_str(
            r#"{"c1": 10, "normalization": "printed", "transductive": false}"#,
        )
        .unwrap();
        assert_eq!(s.normalization, Normalization::AcrossKernels);
        assert_eq!(
            GamCvmSettings::default().normalization,
            Normalization::AcrossKernels
        );
        assert!(!s.transductive);
        assert_eq!(s.n_loc, 16);
        assert!(serde_json::from_str::<GamCvmSettings>(r#"{"cc": 1}"#).is_err());
        let v: GamCvm = serde_json::from_str(r#"{"n_loc": 8}"#).unwrap();
        assert_eq!(v.0.n_loc, 8);
        assert!(
            GamCvmSettings {
                epsilon: 1.0,
                ..Default::default()
            }
            .check()
            .is_err()
        );
        assert!(
            GamCvmSettings {
                t: 0,
                ..Default::default()
            }
            .check()
            .is_err()
        );
    }

    #[test]
    fn variants_fix_their_kernels_and_solver() {
        assert_eq!(GamCvmK13::KERNELS, &[Gaussian, Density]);
        assert_eq!(AucSvm::default().resolve().solver, AucSvm::SOLVER);
        assert_eq!(GamCvm::default().resolve().kernel.kernels.len(), 3);
        let shape = DataShape {
            n: 20_000,
            dim: 16,
            positives: 734,
            negatives: 19_266,
        };
        // The printed default keeps four packed f32 triangles of 20,000 points: about 3.2 GB.
        let bytes = GamCvm::default().fit_bytes(&shape);
        assert!((3_200_000_000..4_000_000_000).contains(&bytes), "{bytes}");
    }
}
