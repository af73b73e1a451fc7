//! GAM-CVM as a batch learner: parameters, the fitted model, transductive and inductive
//! scoring, and the [`DynFit`] implementation the evaluation layer runs.
//!
//! # Transductive and inductive scoring (conventions section 7)
//!
//! The fused kernel exists only on the points it was built from. [`DynFit::fit_transductive`]
//! builds it on the training rows and the rows to be scored (never their labels), so each of
//! those rows gets the score $f = \tilde K w$ of \[CVM eq. 44\]; the model finds a row by its exact
//! feature values. Any other row is scored inductively: its local kernels over its $n_{loc}$
//! nearest fitted points, $\bar L^{(m)}(x, \cdot)$ (eqs. 19-20, rows normalized), average to
//! $\lambda(x, \cdot)$, and one diffusion step through the fitted kernel gives
//! $\tilde K(x, \cdot) \approx \sum_k \lambda(x, k) \tilde K(k, \cdot)$, hence
//! $$f(x) = \sum_{k \in \mathrm{kNN}(x)} \lambda(x, k)\, f(x_k),$$
//! $O(n p)$ per new point (the neighbour search). A single sub-kernel needs no diffusion: its
//! value on the new point is exact, $f(x) = \sum_k w_k k(x, x_k)$.
//!
//! `fit_dyn` (no unlabeled rows) fits on the training rows alone and scores every new row
//! inductively.
//!
//! # Saved models
//!
//! Inductive scoring reads the fitted points, their local sparsities, the sub-kernels with their
//! fitted bandwidths, the normalization, $n_{loc}$, the fitted scores $f$ and the point weights
//! $w$, never the $n \times n$ fused kernel. [`InductiveModel`] holds exactly these, $O(n p)$
//! values for $n$ points of $p$ features, and serializes them (serde, postcard bytes with a
//! [`FORMAT_VERSION`]); it scores every row bit for bit as the [`GamCvmModel`] it came from
//! ([`GamCvmModel::to_inductive`]). [`GamCvmParams::fit_inductive`] fits on training rows alone
//! and returns it: `auc train` stores that model, since the rows it will score are not known
//! when it fits. The paper's transductive mode, which builds the kernel on the scored rows too,
//! is what `auc cv` measures by default (`transductive = 1`); `--param transductive=0` makes
//! `auc cv` measure the inductive model `auc train` saves.

use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, PoisonError};

use auc_core::{
    BoxedModel, Dataset, DynFit, FitError, OnlineLearner, ParamError, Row, Scorer, Transductive,
    check,
};

use crate::approx::FusionApprox;
use crate::fusion::{FusionInfo, FusionParams, Gram, Normalization, fuse};
use crate::kernels::{Gaussian, Knn, Points, SubKernel, SubKernelKind};
use crate::scoring::{PointIndex, Scoring};
use crate::solver::{self, CvmParams, Problem, Solution, SolveError};

pub use crate::inductive::{FORMAT_VERSION, InductiveModel, RestoreError};

/// Largest core set of the registered variants ([`crate::variants`]): the reduced QP's matrix takes $8 s^2$ bytes
/// (0.5 GB at 8,000 pairs). A run that reaches it stops with `converged = false` in
/// [`FitInfo`].
pub const MAX_CORE: usize = 8_000;

/// AUCSVM's stopping rule: the primal gradient below this fraction of its norm at the start
/// ([`solver::aucsvm`]).
///
/// That norm grows with $C_1 n_+ n_-$ (about $4 \cdot 10^5$ on Pima's training parts at
/// $C_1 = 10$), so the fraction must be small: at $10^{-9}$ the solver stopped one Newton step
/// short on Pima at $C_1 = 10$, the returned weights' duality gap up to $3 \cdot 10^{-3}$ of the
/// objective; at $10^{-12}$ it is below $10^{-9}$ on every fit of Haberman and Pima, for about one
/// more step per fit (`docs/results/cvm.md`, below Table 2). Rounding stays well below it: the gradient's
/// kernel products are summed in `f64`.
pub const AUCSVM_TOL: f64 = 1e-12;

/// Most Newton steps of an AUCSVM fit (a few tens suffice; see docs/results/performance.md).
pub const AUCSVM_MAX_NEWTON: usize = 200;

/// Which optimizer runs on the kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolverKind {
    /// The core vector machine on the generalized AUC dual \[CVM eqs. 40-43\].
    Cvm,
    /// AUCSVM \[BS05\]: the exact pairwise QP with $\tau = 1$, refused above `max_pairs` pairs.
    AucSvm {
        /// The most pairs $n_+ n_-$ it accepts.
        max_pairs: usize,
    },
}

/// The kernel half of the parameters: which sub-kernels, and the fusion settings.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelSpec {
    /// Sub-kernels K1-K3 to fuse (one means no fusion).
    pub kernels: Vec<SubKernelKind>,
    /// Multiplier of the Gaussian bandwidth $\sigma_1$ (1 = the paper's median rule).
    pub sigma_scale: f64,
    /// Neighbours $n_{loc}$ of eqs. 16 and 19.
    pub n_loc: usize,
    /// Fusion settings ($\rho$, $T$, tolerance).
    pub fusion: FusionParams,
    /// Dense fusion or the landmark approximation ([`crate::approx`]).
    pub approx: FusionApprox,
}

/// Parameters of GAM-CVM and of the baselines built from the same machinery.
#[derive(Clone, Debug, PartialEq)]
pub struct GamCvmParams {
    /// The kernel.
    pub kernel: KernelSpec,
    /// $C_1 > 0$: slack weight (eq. 11).
    pub c1: f64,
    /// $C_2 > 0$: margin weight (eq. 11); it only scales the scores (see [`crate::solver`]).
    pub c2: f64,
    /// $\epsilon \in (0, 1)$: the core vector machine's approximation.
    pub eps: f64,
    /// Largest core set.
    pub max_core: usize,
    /// The optimizer.
    pub solver: SolverKind,
    /// Whether `fit_transductive` builds the kernel on the scored rows too (the paper's mode).
    pub transductive: bool,
}

impl GamCvmParams {
    /// Range checks: $C_1, C_2 > 0$, $\epsilon \in (0,1)$, $\rho > 0$, a positive bandwidth
    /// scale, at least one sub-kernel. ($n_{loc} < n$ is checked at fit time, when $n$ is known.)
    pub fn check(&self) -> Result<(), ParamError> {
        check::positive("c1", self.c1)?;
        check::positive("c2", self.c2)?;
        check::open_unit("epsilon", self.eps)?;
        check::positive("rho", self.kernel.fusion.rho)?;
        check::positive("sigma_scale", self.kernel.sigma_scale)?;
        if self.kernel.kernels.is_empty() {
            return Err(ParamError::OutOfRange {
                name: "kernels",
                value: 0.0,
                allowed: "at least one sub-kernel",
            });
        }
        if self.kernel.n_loc == 0 {
            return Err(ParamError::OutOfRange {
                name: "n_loc",
                value: 0.0,
                allowed: "an integer >= 1",
            });
        }
        if let FusionApprox::Landmarks { count } = self.kernel.approx {
            if count <= self.kernel.n_loc {
                return Err(ParamError::OutOfRange {
                    name: "landmarks",
                    value: count as f64,
                    allowed: "0 or an integer above n_loc",
                });
            }
            if self.kernel.kernels.len() < 2 {
                return Err(ParamError::OutOfRange {
                    name: "landmarks",
                    value: count as f64,
                    allowed: "0 with a single sub-kernel (the approximation is of the fusion)",
                });
            }
        }
        Ok(())
    }
}

impl GamCvmParams {
    /// An upper estimate of the bytes a fit holds at its peak, for a kernel built on
    /// `n_points` points of `dim` features with `positives` and `negatives` training rows, so
    /// that a caller can refuse a fit before it allocates (the fit itself also fails with an
    /// error value, never an abort, when the system refuses its large buffers).
    ///
    /// Counted: the dense points and their statistics, the neighbour lists and local weights;
    /// then the larger of the fusion's peak ([`crate::fusion::peak_bytes`], or
    /// [`crate::approx::landmark_bytes`], with the copies of the points the kernels are evaluated
    /// from) and the kernel it keeps plus the solver: the core
    /// vector machine's reduced matrix at its largest core set ($8 s^2$ bytes,
    /// $s = \min$(`max_core`, pairs)) or AUCSVM's training kernel and vectors
    /// ([`solver::aucsvm_bytes`]); and the model's score vectors and row index. Allocator
    /// overhead and the input data set are not counted.
    pub fn estimate_bytes(
        &self,
        n_points: usize,
        dim: usize,
        positives: usize,
        negatives: usize,
    ) -> u64 {
        let n = n_points as u64;
        let p = dim.max(1) as u64;
        let k = self.kernel.n_loc as u64;
        let m = self.kernel.kernels.len();
        let norm = self.kernel.fusion.normalization;
        let points = n * (p + 4) * 8 + n * k * 12;
        let local = if m >= 2 {
            m as u64 * n * k * (4 + 8)
        } else {
            0
        };
        let (fusion_peak, kept) = match self.kernel.approx {
            FusionApprox::Landmarks { count } if count < n_points && m >= 2 => {
                let c = count as u64;
                (
                    crate::approx::landmark_bytes(n_points, dim, count, m, self.kernel.n_loc, norm),
                    4 * c * c + n * k * 12,
                )
            }
            _ => (crate::fusion::peak_bytes(n_points, m, norm), 4 * n * n),
        };
        // The kernels are evaluated from feature-major copies of the points (the points and
        // their centred values), and the fusion first puts the points in neighbour order: two
        // copies of the points for one sub-kernel, three for the fusion.
        let copies = if m >= 2 { 3 } else { 2 };
        let fusion_peak = fusion_peak.saturating_add(copies * 8 * n * p);
        let pairs = positives as u64 * negatives as u64;
        let solver = match self.solver {
            SolverKind::Cvm => {
                let s = pairs.min(self.max_core as u64);
                8 * s * s + 48 * s + 24 * n
            }
            SolverKind::AucSvm { .. } => solver::aucsvm_bytes(positives, negatives) + 16 * n,
        };
        let model = n * (p * 8 + 80);
        points + local + fusion_peak.max(kept + solver) + model
    }
}

/// A kernel built on a set of points: the points, their neighbours, the sub-kernels with fitted
/// bandwidths and the fused matrix.
#[derive(Debug)]
pub struct FusedSet {
    /// The points (training rows first, then any unlabeled rows).
    pub pts: Points,
    /// The sub-kernels, bandwidths fitted on `pts`.
    pub kernels: Vec<Box<dyn SubKernel>>,
    /// The fused kernel \[CVM eq. 22\] (or the single sub-kernel).
    pub gram: Gram,
    /// What the fusion did.
    pub info: FusionInfo,
    /// How its natural and local kernels were normalized.
    pub normalization: Normalization,
    /// The landmarks (sparsity set against themselves) when the kernel is the landmark
    /// approximation: new points are scored through them.
    pub landmarks: Option<Points>,
}

impl FusedSet {
    /// Builds the kernel of `spec` on `pts`.
    ///
    /// # Errors
    /// A parameter error if $n_{loc} \ge n$; [`FitError::TooLarge`] (bytes) if the system
    /// refuses the fusion's dense matrices ([`crate::fusion::peak_bytes`]).
    pub fn build(mut pts: Points, spec: &KernelSpec) -> Result<Self, FitError> {
        let n = pts.n();
        if spec.n_loc >= n {
            return Err(ParamError::OutOfRange {
                name: "n_loc",
                value: spec.n_loc as f64,
                allowed: "below the number of points the kernel is built on",
            }
            .into());
        }
        let make = |pts: &Points| -> Vec<Box<dyn SubKernel>> {
            spec.kernels
                .iter()
                .map(|k| match k {
                    SubKernelKind::Gaussian => Box::new(Gaussian {
                        sigma1: Gaussian::median_std(pts).sigma1 * spec.sigma_scale,
                    }) as Box<dyn SubKernel>,
                    other => other.build(pts),
                })
                .collect()
        };
        if let FusionApprox::Landmarks { count } = spec.approx
            && count < n
            && spec.kernels.len() >= 2
        {
            let (built, kernels) = crate::approx::build(
                &mut pts,
                count.max(spec.n_loc + 1),
                spec.n_loc,
                &spec.fusion,
                make,
            )
            .map_err(memory_error)?;
            return Ok(Self {
                pts,
                kernels,
                gram: built.gram,
                info: built.info,
                normalization: spec.fusion.normalization,
                landmarks: Some(built.landmarks),
            });
        }
        let knn = Knn::search_fast(&pts, &pts, spec.n_loc, true);
        pts.set_sparsity(&knn);
        let kernels = make(&pts);
        let (gram, info) = fuse(&pts, &knn, &kernels, &spec.fusion).map_err(memory_error)?;
        Ok(Self {
            pts,
            kernels,
            gram,
            info,
            normalization: spec.fusion.normalization,
            landmarks: None,
        })
    }
}

/// A refused allocation as the fit error that says how many bytes were needed and held.
pub(crate) fn memory_error(e: crate::fusion::MemoryError) -> FitError {
    FitError::TooLarge {
        what: "bytes of dense kernel matrices, which the system refused to allocate (the limit \
               given is what was held)",
        size: usize::try_from(e.needed).unwrap_or(usize::MAX),
        limit: usize::try_from(e.held).unwrap_or(usize::MAX),
    }
}

/// Fused kernels shared between fits on the same points with the same kernel settings, as a
/// grid search over $C_1$, $C_2$ or $\epsilon$ makes them: the kernel depends on neither. Holds
/// at most `max_bytes` of kernel matrices, dropping the oldest first; two threads that miss
/// at once both build (no lock is held while fusing).
#[derive(Debug)]
pub struct KernelCache {
    max_bytes: usize,
    entries: Mutex<Vec<(u64, KernelSpec, Arc<FusedSet>)>>,
}

impl KernelCache {
    /// An empty cache holding at most `max_bytes` of kernel matrices.
    pub fn new(max_bytes: usize) -> Self {
        Self {
            max_bytes,
            entries: Mutex::new(Vec::new()),
        }
    }

    fn key(pts: &Points) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (pts.n(), pts.dim()).hash(&mut h);
        for i in 0..pts.n() {
            for v in pts.row(i) {
                v.to_bits().hash(&mut h);
            }
        }
        h.finish()
    }

    /// The kernel of `spec` on `pts`, from the cache (`true`) or freshly built and then cached
    /// (`false`).
    pub fn get_or_build(
        &self,
        pts: Points,
        spec: &KernelSpec,
    ) -> Result<(Arc<FusedSet>, bool), FitError> {
        let key = Self::key(&pts);
        let lock = || self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        let found = lock()
            .iter()
            .find(|(k, s, f)| {
                *k == key && s == spec && f.pts.n() == pts.n() && same_rows(&f.pts, &pts)
            })
            .map(|e| Arc::clone(&e.2));
        if let Some(f) = found {
            return Ok((f, true));
        }
        let built = Arc::new(FusedSet::build(pts, spec)?);
        let bytes = built.gram.bytes();
        let mut entries = lock();
        entries.push((key, spec.clone(), Arc::clone(&built)));
        while entries.len() > 1
            && entries.iter().map(|e| e.2.gram.bytes()).sum::<usize>() > self.max_bytes.max(bytes)
        {
            entries.remove(0);
        }
        Ok((built, false))
    }

    /// Kernels held now.
    pub fn len(&self) -> usize {
        self.entries
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether no kernel is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn same_rows(a: &Points, b: &Points) -> bool {
    a.dim() == b.dim()
        && (0..a.n()).all(|i| {
            a.row(i)
                .iter()
                .zip(b.row(i))
                .all(|(x, y)| x.to_bits() == y.to_bits())
        })
}

/// GAM-CVM parameters with a shared [`KernelCache`]: what `auc cv` runs, so that the candidates
/// of a grid fitted on the same rows share one fusion.
#[derive(Clone, Debug)]
pub struct CachedFit {
    /// The parameters.
    pub params: GamCvmParams,
    /// The shared cache.
    pub cache: Arc<KernelCache>,
}

impl DynFit for CachedFit {
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        Ok(Box::new(self.params.fit_cached(
            train,
            None,
            seed,
            Some(&self.cache),
        )?))
    }

    fn fit_transductive(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        seed: u64,
    ) -> Result<Transductive, FitError> {
        self.params
            .transduce(train, unlabeled, seed, Some(&self.cache))
    }

    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        None
    }
}

/// What one fit did, for the reproduction tables.
#[derive(Clone, Debug, PartialEq)]
pub struct FitInfo {
    /// Seconds of sub-kernels, neighbours and fusion.
    pub fusion_seconds: f64,
    /// Seconds of the optimization stage (the solver only), as \[CVM Table 3\] times it.
    pub solve_seconds: f64,
    /// The ranking margin $\tau$ (1 for AUCSVM).
    pub tau: f64,
    /// Core set size (AUCSVM: pairs with $\alpha > 0$).
    pub core_size: usize,
    /// Whether the solver met its stopping rule.
    pub converged: bool,
    /// Diffusion rounds.
    pub fusion_iterations: usize,
    /// Peak bytes of the fusion's dense matrices.
    pub fusion_peak_bytes: usize,
}

/// Scores $f = K w$ on every point of a set, the solver's solution, and the point weights $w$.
pub type Solved = (Vec<f64>, Solution, Vec<(usize, f64)>);

/// Solves the dual on the points `pos` and `neg` of a built kernel and returns the scores
/// $f = K w$ of every point of the set, the solution and its point weights.
pub fn solve_on(
    set: &FusedSet,
    pos: &[usize],
    neg: &[usize],
    params: &GamCvmParams,
    seed: u64,
) -> Result<Solved, FitError> {
    let pb = Problem {
        gram: &set.gram,
        pos,
        neg,
    };
    let sol = match params.solver {
        SolverKind::Cvm => solver::cvm(
            &pb,
            &CvmParams {
                c1: params.c1,
                eps: params.eps,
                seed,
                max_core: params.max_core,
            },
        ),
        SolverKind::AucSvm { max_pairs } => {
            solver::aucsvm(&pb, params.c1, AUCSVM_TOL, max_pairs, AUCSVM_MAX_NEWTON)
        }
    }
    .map_err(|e| match e {
        SolveError::TooManyPairs { pairs, limit } => too_many_pairs(pairs, limit),
        SolveError::OutOfMemory { bytes } if matches!(params.solver, SolverKind::AucSvm { .. }) => {
            FitError::TooLarge {
                what: "bytes for the AUCSVM training kernel, which the system refused to \
                       allocate (the limit given is 0)",
                size: usize::try_from(bytes).unwrap_or(usize::MAX),
                limit: 0,
            }
        }
        SolveError::OutOfMemory { bytes } => FitError::TooLarge {
            what: "bytes of the core vector machine's reduced matrix, which the system refused \
                   to allocate (the limit given is the core set size)",
            size: usize::try_from(bytes).unwrap_or(usize::MAX),
            limit: params.max_core,
        },
        _ => FitError::SingleClass,
    })?;
    let scale = match params.solver {
        SolverKind::Cvm => params.c2,
        SolverKind::AucSvm { .. } => 1.0,
    };
    let w = sol.point_weights(&pb, scale);
    let f = pb.scores(&w);
    Ok((f, sol, w))
}

/// AUCSVM's refusal of `pairs` positive-negative pairs above its `limit`.
fn too_many_pairs(pairs: usize, limit: usize) -> FitError {
    FitError::TooLarge {
        what: "positive-negative pairs (AUCSVM's limit: its kernel products grow as the square of the training points)",
        size: pairs,
        limit,
    }
}

/// A fitted GAM-CVM model; see the module docs for how it scores.
#[derive(Debug)]
pub struct GamCvmModel {
    set: Arc<FusedSet>,
    /// Scores of every point of the set.
    f: Vec<f64>,
    /// Point weights $w$ (kernel index, weight).
    w: Vec<(usize, f64)>,
    /// Exact feature bits of each point, for transductive lookup.
    index: PointIndex,
    n_loc: usize,
    info: FitInfo,
    /// Landmark approximation only: the landmarks' scores $u = \tilde K_m \Lambda^\top w$,
    /// through which a new point is scored ([`crate::approx`]).
    landmark_f: Option<Vec<f64>>,
}

impl GamCvmModel {
    /// What the fit did.
    pub fn info(&self) -> &FitInfo {
        &self.info
    }

    /// Scores of the points the kernel was built on (training rows first).
    pub fn fitted_scores(&self) -> &[f64] {
        &self.f
    }

    /// The inductive score of a new point given densely (see the module docs).
    pub fn score_new(&self, x: &[f64]) -> f64 {
        self.scoring().score_new(x)
    }

    /// The model without its $n \times n$ kernel matrix: the points, fitted sub-kernels, scores
    /// and weights that inductive scoring reads, $O(n p)$ values. It scores every row as this
    /// model does, bit for bit (see [`InductiveModel`]).
    ///
    /// With the landmark approximation the model keeps the landmarks and their scores $u$
    /// instead ([`crate::approx`]): it scores a new row exactly as this model does, and a
    /// training row that is not a landmark as a new row, i.e. its fitted score less
    /// $\rho w_x$.
    pub fn to_inductive(&self) -> InductiveModel {
        let fitted = self.set.kernels.iter().map(|k| k.fitted()).collect();
        match (&self.set.landmarks, &self.landmark_f) {
            (Some(lm), Some(u)) => InductiveModel::from_parts(
                lm.clone(),
                fitted,
                self.set.normalization,
                u.clone(),
                Vec::new(),
                self.n_loc,
            ),
            _ => InductiveModel::from_parts(
                self.set.pts.clone(),
                fitted,
                self.set.normalization,
                self.f.clone(),
                self.w.clone(),
                self.n_loc,
            ),
        }
    }

    fn scoring(&self) -> Scoring<'_> {
        let (new_pts, new_f) = match (&self.set.landmarks, &self.landmark_f) {
            (Some(lm), Some(u)) => (lm, u.as_slice()),
            _ => (&self.set.pts, self.f.as_slice()),
        };
        Scoring {
            pts: &self.set.pts,
            kernels: &self.set.kernels,
            normalization: self.set.normalization,
            f: &self.f,
            w: &self.w,
            n_loc: self.n_loc,
            index: &self.index,
            new_pts,
            new_f,
        }
    }
}

impl Scorer for GamCvmModel {
    fn score(&self, x: Row<'_>) -> f64 {
        self.scoring().score(x)
    }

    /// As [`Scorer::score`] on every row, rows in parallel (each score is computed alone, so
    /// the result does not depend on the thread count).
    fn score_all(&self, data: &Dataset) -> Vec<f64> {
        self.scoring().score_all(data)
    }
}

impl GamCvmParams {
    /// Fits on `train`, building the kernel on `train` and (if given) `unlabeled` rows, whose
    /// labels are never read.
    pub fn fit_with(
        &self,
        train: &Dataset,
        unlabeled: Option<&Dataset>,
        seed: u64,
    ) -> Result<GamCvmModel, FitError> {
        self.fit_cached(train, unlabeled, seed, None)
    }

    /// Fits on the rows of `train` alone, as `fit_dyn` does whatever
    /// [`GamCvmParams::transductive`] says, and keeps the saveable [`InductiveModel`] and what
    /// the fit did; the $n \times n$ kernel is dropped on return. This is what a model trained
    /// now and used on rows not yet seen must be: the paper's transductive mode needs the rows
    /// to be scored when it fits.
    pub fn fit_inductive(
        &self,
        train: &Dataset,
        seed: u64,
    ) -> Result<(InductiveModel, FitInfo), FitError> {
        let m = self.fit_with(train, None, seed)?;
        Ok((m.to_inductive(), m.info))
    }

    /// The protocol's transductive fit: with [`GamCvmParams::transductive`] the kernel is built
    /// on `train` and `unlabeled` together and the unlabeled rows get their fitted scores
    /// \[CVM eq. 44\] (read by position, never looked up); otherwise the model is fitted on
    /// `train` alone and scores them inductively.
    pub fn transduce(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        seed: u64,
        cache: Option<&KernelCache>,
    ) -> Result<Transductive, FitError> {
        if !self.transductive {
            let model = self.fit_cached(train, None, seed, cache)?;
            let scores = model.score_all(unlabeled);
            return Ok(Transductive {
                model: Box::new(model),
                scores,
            });
        }
        let model = self.fit_cached(train, Some(unlabeled), seed, cache)?;
        let scores = model.f[train.n()..train.n() + unlabeled.n()].to_vec();
        Ok(Transductive {
            model: Box::new(model),
            scores,
        })
    }

    /// As [`GamCvmParams::fit_with`], taking the kernel from `cache` when the same points and
    /// kernel settings were fused before (a grid over $C_1$, $C_2$, $\epsilon$ needs one fusion).
    pub fn fit_cached(
        &self,
        train: &Dataset,
        unlabeled: Option<&Dataset>,
        seed: u64,
        cache: Option<&KernelCache>,
    ) -> Result<GamCvmModel, FitError> {
        self.check()?;
        if train.is_empty() {
            return Err(FitError::Empty);
        }
        let (np, nn) = train.class_counts();
        if np == 0 || nn == 0 {
            return Err(FitError::SingleClass);
        }
        // AUCSVM's pair limit is known from the label counts: refuse before the dense points
        // and the kernel, which on a9a (194 million pairs) took minutes and 4 GB only to be
        // refused by the solver.
        if let SolverKind::AucSvm { max_pairs } = self.solver {
            let pairs = np.saturating_mul(nn);
            if pairs > max_pairs {
                return Err(too_many_pairs(pairs, max_pairs));
            }
        }
        let p = train.dim().max(unlabeled.map_or(0, Dataset::dim)).max(1);
        let extra = unlabeled.map_or(0, Dataset::n);
        let mut x = vec![0.0; (train.n() + extra) * p];
        let rows = train
            .iter()
            .map(|(r, _)| r)
            .chain(unlabeled.into_iter().flat_map(|u| u.iter().map(|(r, _)| r)));
        for (i, r) in rows.enumerate() {
            r.write_dense(&mut x[i * p..i * p + r_dim(&r, p)]);
        }
        let pts = Points::from_dense(p, x);
        let (set, hit) = match cache {
            Some(c) => c.get_or_build(pts, &self.kernel)?,
            None => (Arc::new(FusedSet::build(pts, &self.kernel)?), false),
        };
        let pos: Vec<usize> = (0..train.n())
            .filter(|&i| train.label(i).is_pos())
            .collect();
        let neg: Vec<usize> = (0..train.n())
            .filter(|&i| !train.label(i).is_pos())
            .collect();
        let (f, sol, w) = solve_on(&set, &pos, &neg, self, seed)?;
        let fusion_seconds = if hit { 0.0 } else { set.info.seconds };
        let index = PointIndex::new(&set.pts);
        let info = FitInfo {
            fusion_seconds,
            solve_seconds: sol.seconds,
            tau: match self.solver {
                SolverKind::Cvm => sol.tau(self.c2),
                SolverKind::AucSvm { .. } => 1.0,
            },
            core_size: sol.core_size,
            converged: sol.converged,
            fusion_iterations: set.info.iterations,
            fusion_peak_bytes: set.info.peak_bytes,
        };
        let landmark_f = set.gram.landmarks().map(|lk| lk.landmark_scores(&w));
        Ok(GamCvmModel {
            set,
            f,
            w,
            index,
            n_loc: self.kernel.n_loc,
            info,
            landmark_f,
        })
    }
}

/// How many leading values of a dense buffer of width `p` the row fills (all of them).
fn r_dim(r: &Row<'_>, p: usize) -> usize {
    match r {
        Row::Dense(v) => v.len().min(p),
        Row::Sparse(_) => p,
    }
}

impl DynFit for GamCvmParams {
    fn fit_dyn(&self, train: &Dataset, seed: u64) -> Result<BoxedModel, FitError> {
        Ok(Box::new(self.fit_with(train, None, seed)?))
    }

    fn fit_transductive(
        &self,
        train: &Dataset,
        unlabeled: &Dataset,
        seed: u64,
    ) -> Result<Transductive, FitError> {
        self.transduce(train, unlabeled, seed, None)
    }

    fn online(
        &self,
        _dim: usize,
        _seed: u64,
    ) -> Option<Result<Box<dyn OnlineLearner + Send>, ParamError>> {
        None
    }
}
