//! The GAM-CVM reproduction of \[CVM Tables 2, 3, 6\] and figs. 4-5, run by
//! `cargo xtask reproduce cvm`.
//!
//! Usage: `cvm --data DIR --out FILE.md --figs DIR [--quick] [--repeats R] [--folds K]
//! [--sets a,b] [--nloc a,b] [--rows-norm]`. Writes the table to `FILE.md` (rewritten after each data set, through a
//! temporary file and a rename) and the figure data to `DIR/cvm-fig4.tsv` and `DIR/cvm-fig5.tsv`,
//! which `cargo xtask reproduce cvm` draws as SVG. `cvm --data DIR --approx-study FILE.md` and
//! `cvm --approx-synthetic FILE.md` measure the landmark approximation instead (their docs below).
//!
//! # Protocol
//!
//! Repeated stratified K-fold CV (conventions section 8). On each outer split the scaler is fitted on
//! the training part (conventions section 1) and the kernel of each variant is built once, on the
//! training and test points together (the transductive mode of the paper: no test label is
//! read). The inner 3-fold CV that picks the parameters reuses that kernel, training on the
//! inner training points and scoring the inner validation points, so that one fusion serves
//! every candidate: the kernel depends only on $n_{loc}$ (and the sub-kernels), the candidates
//! differ in $C_1$ (and the bandwidth scale of the rho-AUCCVM baseline). $C_2$ is fixed at 1: it
//! only scales the scores (see `auc_cvm::solver`), which fig. 4's data show.
#![allow(
    clippy::print_stdout,
    reason = "progress and the table are this program's output"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::Params;
use auc_core::{Dataset, Label};
use auc_cvm::approx::FusionApprox;
use auc_cvm::fusion::{FusionParams, Normalization};
use auc_cvm::kernels::{Points, SubKernelKind};
use auc_cvm::model::{FusedSet, KernelSpec, solve_on};
use auc_cvm::solver::Solution;
use auc_cvm::{AucSvm, GamCvm, GamCvmParams, RhoAucCvm, SolverKind};
use auc_data::{Positive, ReadOptions, Scaler, Scaling};
use auc_eval::folds::{derive_seed, repeated_stratified_kfold, stratified_kfold};
use auc_eval::metrics::{auc, average_precision};
use auc_eval::stats;

use SubKernelKind::{Density as K3, Gaussian as K1, Pearson as K2};

/// The registry's names of the three methods of [CVM Table 2] (the ablations are keyed `k1` ..
/// `k23` in this binary's tables).
const GAM: &str = GamCvm::NAME;
const RHO: &str = RhoAucCvm::NAME;
const SVM: &str = AucSvm::NAME;

/// A data set of \[CVM Table 1\] as `../shared/datasets/README.md` maps it.
struct Set {
    name: &'static str,
    paper: &'static str,
    file: &'static str,
    positive: f64,
}

const SETS: &[Set] = &[
    Set {
        name: "glass6",
        paper: "Glass-6",
        file: "glass6",
        positive: 1.0,
    },
    Set {
        name: "sonar",
        paper: "Sonar",
        file: "sonar",
        positive: 1.0,
    },
    Set {
        name: "heart",
        paper: "Heart",
        file: "heart",
        positive: 1.0,
    },
    Set {
        name: "haberman",
        paper: "Haberman",
        file: "haberman",
        positive: 1.0,
    },
    Set {
        name: "ionosphere",
        paper: "Ionosphere",
        file: "ionosphere",
        positive: -1.0,
    },
    Set {
        name: "wdbc",
        paper: "WDBC",
        file: "wdbc",
        positive: 0.0,
    },
    Set {
        name: "breast-cancer",
        paper: "Breast-w",
        file: "breast-cancer",
        positive: -1.0,
    },
    Set {
        name: "pima",
        paper: "Pima",
        file: "diabetes",
        positive: 1.0,
    },
    Set {
        name: "vehicle2",
        paper: "Vehicle-2",
        file: "vehicle2",
        positive: 1.0,
    },
    Set {
        name: "german",
        paper: "German",
        file: "german",
        positive: -1.0,
    },
    Set {
        name: "yeast1",
        paper: "Yeast-1",
        file: "yeast1",
        positive: 1.0,
    },
    Set {
        name: "abalone19",
        paper: "Abalone-19",
        file: "abalone19",
        positive: 1.0,
    },
    Set {
        name: "page-blocks0",
        paper: "PageBlocks-I",
        file: "page-blocks0",
        positive: 1.0,
    },
    Set {
        name: "letter-z",
        paper: "Letter-z",
        file: "letter",
        positive: 26.0,
    },
];

/// One column of the table.
#[derive(Clone, Copy)]
struct Algo {
    name: &'static str,
    kernels: &'static [SubKernelKind],
    solver: SolverKind,
    /// Whether $n_{loc}$ matters (fusion or the density kernel) and is tuned.
    tune_nloc: bool,
    /// Whether the Gaussian bandwidth scale is tuned (rho-AUCCVM).
    tune_sigma: bool,
}

/// The most training pairs AUCSVM is run on: the paper's sets up to PageBlocks-I (1.76 M).
const AUCSVM_MAX_PAIRS: usize = 2_000_000;

/// Data sets up to this many points get the epsilon study of fig. 5 (below 1e-4 the core set
/// approaches every support pair and the reduced QP's cost dominates).
const FIG5_MAX_N: usize = 400;

/// Largest core set: its reduced Gram matrix takes 8 s^2 bytes (0.5 GB here).
const MAX_CORE: usize = 8_000;

const ALGOS: &[Algo] = &[
    Algo {
        name: GAM,
        kernels: &SubKernelKind::ALL,
        solver: SolverKind::Cvm,
        tune_nloc: true,
        tune_sigma: false,
    },
    Algo {
        name: "k1",
        kernels: &[K1],
        solver: SolverKind::Cvm,
        tune_nloc: false,
        tune_sigma: false,
    },
    Algo {
        name: "k2",
        kernels: &[K2],
        solver: SolverKind::Cvm,
        tune_nloc: false,
        tune_sigma: false,
    },
    Algo {
        name: "k3",
        kernels: &[K3],
        solver: SolverKind::Cvm,
        tune_nloc: true,
        tune_sigma: false,
    },
    Algo {
        name: "k12",
        kernels: &[K1, K2],
        solver: SolverKind::Cvm,
        tune_nloc: true,
        tune_sigma: false,
    },
    Algo {
        name: "k13",
        kernels: &[K1, K3],
        solver: SolverKind::Cvm,
        tune_nloc: true,
        tune_sigma: false,
    },
    Algo {
        name: "k23",
        kernels: &[K2, K3],
        solver: SolverKind::Cvm,
        tune_nloc: true,
        tune_sigma: false,
    },
    Algo {
        name: RHO,
        kernels: &[K1],
        solver: SolverKind::Cvm,
        tune_nloc: false,
        tune_sigma: true,
    },
    Algo {
        name: SVM,
        kernels: &[K1],
        solver: SolverKind::AucSvm {
            max_pairs: AUCSVM_MAX_PAIRS,
        },
        tune_nloc: false,
        tune_sigma: false,
    },
];

/// \[CVM Table 2\]: (data set, AUCSVM, rho-AUCCVM, GAM-CVM) as (AUC, AP) means.
const PAPER_T2: &[(&str, [(f64, f64); 3])] = &[
    (
        "Abalone-19",
        [(0.7712, 0.4730), (0.8187, 0.5314), (0.8216, 0.5365)],
    ),
    (
        "Breast-w",
        [(0.9885, 0.9646), (0.9901, 0.9673), (0.9921, 0.9747)],
    ),
    (
        "German",
        [(0.7056, 0.7350), (0.7364, 0.7510), (0.7540, 0.7638)],
    ),
    (
        "Glass-6",
        [(0.8389, 0.7359), (0.8586, 0.7482), (0.8965, 0.7948)],
    ),
    (
        "Haberman",
        [(0.6156, 0.6551), (0.6497, 0.6701), (0.6639, 0.6945)],
    ),
    (
        "Heart",
        [(0.8512, 0.8949), (0.8342, 0.8991), (0.8876, 0.9180)],
    ),
    (
        "Ionosphere",
        [(0.8998, 0.9066), (0.9065, 0.9215), (0.9402, 0.9347)],
    ),
    (
        "Letter-z",
        [(0.9105, 0.7494), (0.9296, 0.7646), (0.9567, 0.7891)],
    ),
    (
        "PageBlocks-I",
        [(0.8873, 0.7772), (0.9165, 0.8071), (0.9201, 0.8192)],
    ),
    (
        "Pima",
        [(0.7432, 0.7912), (0.7701, 0.8113), (0.7839, 0.8212)],
    ),
    (
        "Sonar",
        [(0.8567, 0.9015), (0.8854, 0.9175), (0.8818, 0.9206)],
    ),
    (
        "Vehicle-2",
        [(0.8562, 0.8395), (0.8865, 0.8648), (0.8948, 0.8613)],
    ),
    (
        "WDBC",
        [(0.9839, 0.9647), (0.9905, 0.9735), (0.9941, 0.9774)],
    ),
    (
        "Yeast-1",
        [(0.7345, 0.7545), (0.7539, 0.7620), (0.7748, 0.7890)],
    ),
];

/// \[CVM Table 3\]: optimization-stage seconds of (AUCSVM, rho-AUCCVM, GAM-CVM).
const PAPER_T3: &[(&str, [f64; 3])] = &[
    ("Abalone-19", [52.48, 8.94, 7.28]),
    ("Breast-w", [9.61, 2.05, 1.79]),
    ("German", [16.83, 3.24, 2.72]),
    ("Glass-6", [4.55, 1.01, 0.92]),
    ("Haberman", [5.84, 1.36, 1.15]),
    ("Heart", [5.32, 1.24, 1.08]),
    ("Ionosphere", [7.11, 1.65, 1.42]),
    ("Letter-z", [142.60, 18.51, 16.35]),
    ("PageBlocks-I", [46.87, 7.22, 6.35]),
    ("Pima", [12.42, 2.48, 2.09]),
    ("Sonar", [4.95, 1.15, 0.97]),
    ("Vehicle-2", [11.53, 2.32, 1.91]),
    ("WDBC", [8.21, 1.81, 1.51]),
    ("Yeast-1", [15.68, 3.03, 2.63]),
];

/// \[CVM Table 6\]: AUC of K1, K2, K3, K1+K2, K1+K3, K2+K3 (the full model is in Table 2).
const PAPER_T6: &[(&str, [f64; 6])] = &[
    (
        "Abalone-19",
        [0.7712, 0.7785, 0.7858, 0.7987, 0.7952, 0.8021],
    ),
    ("Breast-w", [0.9885, 0.9872, 0.9890, 0.9915, 0.9908, 0.9912]),
    ("German", [0.7056, 0.7123, 0.7098, 0.7345, 0.7289, 0.7401]),
    ("Glass-6", [0.8389, 0.8456, 0.8742, 0.8885, 0.8912, 0.8850]),
    ("Haberman", [0.6156, 0.6205, 0.6112, 0.6402, 0.6358, 0.6425]),
    ("Heart", [0.8512, 0.8489, 0.8473, 0.8724, 0.8680, 0.8751]),
    (
        "Ionosphere",
        [0.8998, 0.8925, 0.8945, 0.9285, 0.9242, 0.9301],
    ),
    ("Letter-z", [0.9105, 0.9202, 0.9267, 0.9455, 0.9418, 0.9480]),
    (
        "PageBlocks-I",
        [0.8873, 0.8940, 0.8830, 0.9102, 0.9075, 0.9128],
    ),
    ("Pima", [0.7432, 0.7510, 0.7575, 0.7705, 0.7662, 0.7738]),
    ("Sonar", [0.8567, 0.8620, 0.8523, 0.8735, 0.8702, 0.8770]),
    (
        "Vehicle-2",
        [0.8562, 0.8630, 0.8521, 0.8825, 0.8785, 0.8850],
    ),
    ("WDBC", [0.9839, 0.9855, 0.9818, 0.9912, 0.9900, 0.9920]),
    ("Yeast-1", [0.7345, 0.7420, 0.7301, 0.7585, 0.7542, 0.7605]),
];

/// The search grid (coarse: see the table's header) and run settings.
struct Config {
    repeats: usize,
    folds: usize,
    inner: usize,
    c1: Vec<f64>,
    nloc: Vec<usize>,
    sigma: Vec<f64>,
    eps: f64,
    fusion: FusionParams,
    quick: bool,
    /// At most this many outer splits on data sets of more than 3,000 points.
    max_runs_large: usize,
    /// The protocol flags given, as the table's header repeats them.
    flags: String,
}

/// Per (data set, algorithm): metrics and times over the runs.
#[derive(Default, Clone)]
struct Cell {
    auc: Vec<f64>,
    ap: Vec<f64>,
    opt: Vec<f64>,
    fusion: Vec<f64>,
    core: Vec<f64>,
    tau: Vec<f64>,
    chosen: BTreeMap<String, usize>,
    skipped: Option<String>,
    /// GAM-CVM only: test AUC and AP of the inductive model (kernel on the training part only,
    /// test rows scored by the out-of-sample extension) with the transductive run's parameters.
    ind_auc: Vec<f64>,
    ind_ap: Vec<f64>,
}

/// A finished data set: cells by algorithm, runs, and (positives, negatives).
type Done<'a> = (&'a Set, BTreeMap<&'static str, Cell>, usize, (usize, usize));

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

fn std(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

fn load(dir: &Path, set: &Set) -> Result<Dataset, String> {
    let path = dir.join(format!("{}.libsvm", set.file));
    let raw = auc_data::read_path(&path, &ReadOptions::default())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    raw.binarize(&Positive::Labels(vec![set.positive]))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Points of `rows` of `data` (already scaled), dense.
fn points(parts: &[&Dataset]) -> Points {
    let p = parts[0].dim().max(1);
    let mut x = Vec::new();
    for d in parts {
        for (r, _) in d.iter() {
            let mut row = vec![0.0; p];
            r.write_dense(&mut row);
            x.extend(row);
        }
    }
    Points::from_dense(p, x)
}

fn params(algo: &Algo, c1: f64, eps: f64, cfg_fusion: FusionParams) -> GamCvmParams {
    GamCvmParams {
        kernel: KernelSpec {
            kernels: algo.kernels.to_vec(),
            sigma_scale: 1.0,
            n_loc: 8,
            fusion: cfg_fusion,
            approx: FusionApprox::Dense,
        },
        c1,
        c2: 1.0,
        eps,
        max_core: MAX_CORE,
        solver: algo.solver,
        transductive: true,
    }
}

/// One outer split made ready: both parts min-max scaled on the training part, the points of
/// the training rows then the test rows, and the positions of the training positives, training
/// negatives and test rows among those points.
struct SplitData {
    train: Dataset,
    test: Dataset,
    pts: Points,
    pos: Vec<usize>,
    neg: Vec<usize>,
    test_idx: Vec<usize>,
}

impl SplitData {
    fn new(data: &Dataset, split: &auc_eval::folds::Split) -> Self {
        let train = data.select(&split.train);
        let test = data.select(&split.test);
        let scaler = Scaler::fit(Scaling::MinMax, &train);
        let (train, test) = (scaler.transform(&train), scaler.transform(&test));
        let pts = points(&[&train, &test]);
        let n_train = train.n();
        let (pos, neg): (Vec<usize>, Vec<usize>) =
            (0..n_train).partition(|&i| train.label(i).is_pos());
        let test_idx = (n_train..n_train + test.n()).collect();
        Self {
            train,
            test,
            pts,
            pos,
            neg,
            test_idx,
        }
    }

    /// Solves `p` on the kernel `fs` of this split's points with its training positives and
    /// negatives; returns the test rows' AUC and AP and the solution.
    fn evaluate(
        &self,
        fs: &FusedSet,
        p: &GamCvmParams,
        seed: u64,
    ) -> Result<(f64, f64, Solution), String> {
        let (f, sol, _) = solve_on(fs, &self.pos, &self.neg, p, seed).map_err(|e| e.to_string())?;
        let s: Vec<f64> = self.test_idx.iter().map(|&i| f[i]).collect();
        let labels = self.test.labels();
        let a = auc(&s, labels).map_err(|e| e.to_string())?;
        let ap = average_precision(&s, labels).map_err(|e| e.to_string())?;
        Ok((a, ap, sol))
    }
}

/// The kernel of `algo` with `n_loc` and bandwidth scale on the split's points.
fn kernel(
    pts: &Points,
    algo: &Algo,
    n_loc: usize,
    sigma: f64,
    cfg: &Config,
) -> Result<FusedSet, String> {
    let spec = KernelSpec {
        kernels: algo.kernels.to_vec(),
        sigma_scale: sigma,
        n_loc,
        fusion: cfg.fusion,
        approx: FusionApprox::Dense,
    };
    FusedSet::build(pts.clone(), &spec).map_err(|e| e.to_string())
}

/// One inner fold of an outer training part: its training positives and negatives, its
/// validation rows with their labels, and the solver seed.
struct InnerFold<'a> {
    pos: Vec<usize>,
    neg: Vec<usize>,
    val: &'a [usize],
    labels: Vec<Label>,
    seed: u64,
}

/// Runs one data set for every algorithm; returns cells by algorithm name.
fn run_set(
    data: &Dataset,
    cfg: &Config,
    set: &Set,
) -> Result<BTreeMap<&'static str, Cell>, String> {
    let splits = repeated_stratified_kfold(data.labels(), cfg.folds, cfg.repeats, 7)
        .map_err(|e| e.to_string())?;
    let mut cells: BTreeMap<&'static str, Cell> = BTreeMap::new();
    let runs = if data.n() > 3_000 {
        cfg.max_runs_large
    } else {
        splits.len()
    };
    for split in splits.iter().take(runs) {
        let sd = SplitData::new(data, split);
        let SplitData {
            train,
            test,
            pts,
            pos,
            neg,
            ..
        } = &sd;
        let n_train = train.n();
        let labels = train.labels();
        let inner = stratified_kfold(
            labels,
            cfg.inner,
            derive_seed(7, &[split.repeat as u64, split.fold as u64]),
        )
        .map_err(|e| e.to_string())?;
        // Per inner fold: training positives, training negatives, validation rows and labels,
        // and the solver seed, shared by every algorithm and candidate of this split.
        let inner: Vec<InnerFold<'_>> = inner
            .iter()
            .enumerate()
            .map(|(j, val)| {
                let in_val: std::collections::HashSet<usize> = val.iter().copied().collect();
                let outside = |v: &[usize]| -> Vec<usize> {
                    v.iter().copied().filter(|i| !in_val.contains(i)).collect()
                };
                let seed = derive_seed(11, &[split.repeat as u64, split.fold as u64, j as u64]);
                let l = val.iter().map(|&i| labels[i]).collect();
                InnerFold {
                    pos: outside(pos),
                    neg: outside(neg),
                    val,
                    labels: l,
                    seed,
                }
            })
            .collect();
        let test_labels = test.labels();
        for algo in ALGOS {
            let cell = cells.entry(algo.name).or_default();
            if let SolverKind::AucSvm { max_pairs } = algo.solver
                && pos.len() * neg.len() > max_pairs
            {
                cell.skipped = Some(format!(
                    "{} training pairs > {max_pairs}, refused (its kernel block {:.2} GB)",
                    pos.len() * neg.len(),
                    auc_cvm::solver::aucsvm_bytes(pos.len(), neg.len()) as f64 / 1e9
                ));
                continue;
            }
            let nlocs: Vec<usize> = if algo.tune_nloc {
                cfg.nloc.clone()
            } else {
                vec![cfg.nloc[0]]
            };
            let sigmas: Vec<f64> = if algo.tune_sigma {
                cfg.sigma.clone()
            } else {
                vec![1.0]
            };
            // (mean inner AUC, n_loc, sigma, c1) of the best candidate; ties keep the first.
            let mut best: Option<(f64, usize, f64, f64)> = None;
            let mut kernels: Vec<(usize, f64, FusedSet)> = Vec::new();
            for &nl in &nlocs {
                for &sg in &sigmas {
                    let fs = kernel(pts, algo, nl.min(pts.n() - 1), sg, cfg)?;
                    cell.fusion.push(fs.info.seconds);
                    for &c1 in &cfg.c1 {
                        let p = params(algo, c1, cfg.eps, cfg.fusion);
                        let mut sum = 0.0;
                        for fold in &inner {
                            let (f, _, _) = solve_on(&fs, &fold.pos, &fold.neg, &p, fold.seed)
                                .map_err(|e| e.to_string())?;
                            let s: Vec<f64> = fold.val.iter().map(|&i| f[i]).collect();
                            sum += auc(&s, &fold.labels).map_err(|e| e.to_string())?;
                        }
                        let m = sum / inner.len() as f64;
                        if best.is_none_or(|b| m > b.0) {
                            best = Some((m, nl, sg, c1));
                        }
                    }
                    kernels.push((nl, sg, fs));
                }
            }
            let Some((_, nl, sg, c1)) = best else {
                continue;
            };
            let fs = &kernels
                .iter()
                .find(|k| k.0 == nl && k.1.to_bits() == sg.to_bits())
                .ok_or("kernel")?
                .2;
            let p = params(algo, c1, cfg.eps, cfg.fusion);
            let seed = derive_seed(13, &[split.repeat as u64, split.fold as u64]);
            let (a, ap, sol) = sd.evaluate(fs, &p, seed)?;
            cell.auc.push(a);
            cell.ap.push(ap);
            cell.opt.push(sol.seconds);
            cell.core.push(sol.core_size as f64);
            cell.tau.push(match algo.solver {
                SolverKind::Cvm => sol.tau(1.0),
                SolverKind::AucSvm { .. } => 1.0,
            });
            let mut key = format!("c1={c1}");
            if algo.tune_nloc {
                key.push_str(&format!(" n_loc={nl}"));
            }
            if algo.tune_sigma {
                key.push_str(&format!(" sigma_scale={sg}"));
            }
            *cell.chosen.entry(key).or_default() += 1;
            if algo.name == GAM {
                // conventions section 7: inductive against transductive on the same split and parameters.
                let mut ip = params(algo, c1, cfg.eps, cfg.fusion);
                ip.kernel.n_loc = nl.min(n_train - 1);
                ip.transductive = false;
                let model = ip.fit_with(train, None, seed).map_err(|e| e.to_string())?;
                let s: Vec<f64> = (0..test.n())
                    .map(|i| auc_core::Scorer::score(&model, test.row(i)))
                    .collect();
                cell.ind_auc
                    .push(auc(&s, test_labels).map_err(|e| e.to_string())?);
                cell.ind_ap
                    .push(average_precision(&s, test_labels).map_err(|e| e.to_string())?);
            }
        }
        eprintln!(
            "cvm: {} repeat {} fold {} done",
            set.name, split.repeat, split.fold
        );
    }
    Ok(cells)
}

/// Fig. 4 data: test AUC and AP of GAM-CVM over the 8 x 8 (C1, C2) grid of conventions section 8, mean
/// over one stratified K-fold split, with `n_loc` and `epsilon` fixed.
fn fig4(data: &Dataset, set: &Set, cfg: &Config, out: &mut String) -> Result<(), String> {
    let grid = [0.001, 0.01, 0.1, 0.5, 1.0, 5.0, 10.0, 100.0];
    let folds = if cfg.quick { 3 } else { 5 };
    let splits =
        repeated_stratified_kfold(data.labels(), folds, 1, 17).map_err(|e| e.to_string())?;
    let mut acc = vec![(0.0, 0.0); 64];
    let n = splits.len() as f64;
    for split in &splits {
        let sd = SplitData::new(data, split);
        let fs = kernel(&sd.pts, &ALGOS[0], cfg.nloc[0], 1.0, cfg)?;
        for (a, &c1) in grid.iter().enumerate() {
            for (b, &c2) in grid.iter().enumerate() {
                let mut p = params(&ALGOS[0], c1, cfg.eps, cfg.fusion);
                p.c2 = c2;
                let (auc, ap, _) = sd.evaluate(&fs, &p, 3)?;
                let e = &mut acc[a * 8 + b];
                e.0 += auc / n;
                e.1 += ap / n;
            }
        }
    }
    for (a, &c1) in grid.iter().enumerate() {
        for (b, &c2) in grid.iter().enumerate() {
            let (x, y) = acc[a * 8 + b];
            let _ = writeln!(out, "{}\t{c1}\t{c2}\t{x:.6}\t{y:.6}", set.paper);
        }
    }
    Ok(())
}

/// Fig. 5 data: test AUC, AP and optimization seconds of GAM-CVM against epsilon, per data set,
/// one stratified K-fold split, C1 = 1, `n_loc` fixed.
fn fig5(data: &Dataset, set: &Set, cfg: &Config, out: &mut String) -> Result<(), String> {
    let epss: &[f64] = if cfg.quick {
        &[1e-1, 1e-2, 1e-3]
    } else {
        &[1e-1, 1e-2, 1e-3, 1e-4]
    };
    let folds = 3;
    let splits =
        repeated_stratified_kfold(data.labels(), folds, 1, 19).map_err(|e| e.to_string())?;
    let mut acc = vec![(0.0, 0.0, 0.0, 0.0); epss.len()];
    let n = splits.len() as f64;
    for split in &splits {
        let sd = SplitData::new(data, split);
        let fs = kernel(&sd.pts, &ALGOS[0], cfg.nloc[0], 1.0, cfg)?;
        for (k, &eps) in epss.iter().enumerate() {
            let p = params(&ALGOS[0], 1.0, eps, cfg.fusion);
            let (auc, ap, sol) = sd.evaluate(&fs, &p, 3)?;
            let e = &mut acc[k];
            e.0 += auc / n;
            e.1 += ap / n;
            e.2 += sol.seconds / n;
            e.3 += sol.core_size as f64 / n;
        }
    }
    for (k, &eps) in epss.iter().enumerate() {
        let (a, b, c, d) = acc[k];
        let _ = writeln!(
            out,
            "{}\t{eps:e}\t{a:.6}\t{b:.6}\t{c:.6}\t{d:.1}",
            set.paper
        );
    }
    Ok(())
}

/// One Friedman section over `names`: AUC and AP of every data set where all of them ran, as
/// observations (as [CVM Table 4]), with GAM-CVM's rank beside the paper's.
fn friedman_section(md: &mut String, done: &[Done<'_>], names: &[&str], title: &str) {
    let mut rows = Vec::new();
    for (_, cells, _, _) in done {
        for metric in 0..2 {
            let r: Vec<f64> = names
                .iter()
                .map(|n| {
                    let c = &cells[n];
                    mean(if metric == 0 { &c.auc } else { &c.ap })
                })
                .collect();
            if r.iter().all(|v| v.is_finite()) {
                rows.push(r);
            }
        }
    }
    if rows.len() < 2 {
        return;
    }
    let _ = writeln!(
        md,
        "\n## Friedman test: {title} ({} observations, AUC and AP per data set, as [CVM Table 4])\n",
        rows.len()
    );
    match (stats::average_ranks(&rows), stats::friedman(&rows, 0.05)) {
        (Ok(ranks), Ok(fr)) => {
            let mut order: Vec<(f64, &str)> =
                ranks.iter().copied().zip(names.iter().copied()).collect();
            order.sort_by(|a, b| a.0.total_cmp(&b.0));
            let _ = writeln!(md, "| algorithm | average rank |\n|---|---|");
            for (r, n) in &order {
                let _ = writeln!(md, "| {n} | {r:.3} |");
            }
            let cd = stats::nemenyi_cd(names.len(), rows.len(), 0.05).unwrap_or(f64::NAN);
            let _ = writeln!(
                md,
                "\nIman-Davenport F_F = {:.3} (df {} and {}), critical value {:.3} at alpha = 0.05, p = {:.3e}; Nemenyi critical difference {:.3}.",
                fr.ff, fr.df1, fr.df2, fr.critical_value, fr.p_value, cd
            );
            if let Some(pos) = order.iter().position(|o| o.1 == GAM) {
                let _ = writeln!(
                    md,
                    "\nGAM-CVM ranks {} of {} here (average rank {:.3}); the paper's GAM-CVM ranks first of its nine methods, average rank 1.2500 over AUC and AP of 18 sets ([CVM Table 4]; its other eight methods are not ours).",
                    pos + 1,
                    names.len(),
                    order[pos].0
                );
            }
        }
        (Err(e), _) | (_, Err(e)) => {
            let _ = writeln!(md, "not computable: {e}");
        }
    }
}

fn paper2(paper: &str) -> Option<[(f64, f64); 3]> {
    PAPER_T2.iter().find(|p| p.0 == paper).map(|p| p.1)
}

fn write_table(out: &Path, cfg: &Config, done: &[Done<'_>], secs: f64) -> Result<(), String> {
    let mut md = String::new();
    let _ = writeln!(md, "# GAM-CVM: [CVM Tables 2, 3, 6]\n");
    let _ = writeln!(
        md,
        "Produced by `cargo xtask reproduce cvm{}` ({} data sets; the table is rewritten after each; this rendering took {:.0} s, the runs' own times are in `docs/results/README.md`).\n",
        cfg.flags,
        done.len(),
        secs
    );
    let _ = writeln!(
        md,
        "Protocol: {} x stratified {}-fold CV ({} runs per data set unless noted), inner stratified {}-fold CV on each training part picking C1 in {:?}{} by mean AUC; epsilon = {}; C2 = 1 (it only rescales scores: fig. 4 below); rho = {}, at most {} diffusion rounds, relative tolerance {}; natural and local kernels normalized {}. \
         Transductive: each outer split's kernel is built once on its training and test points (no test labels read) and reused by the inner CV. Features min-max scaled on the training part. Seeds fixed.\n",
        cfg.repeats,
        cfg.folds,
        cfg.repeats * cfg.folds,
        cfg.inner,
        cfg.c1,
        format_args!(
            ", n_loc in {:?} (fused and density kernels), sigma_scale in {:?} (rho-AUCCVM)",
            cfg.nloc, cfg.sigma
        ),
        cfg.eps,
        cfg.fusion.rho,
        cfg.fusion.max_iter,
        cfg.fusion.tol,
        match cfg.fusion.normalization {
            Normalization::Rows =>
                "by each kernel's own rows ([Wang12]; `--rows-norm`, `auc_cvm::fusion`)",
            Normalization::AcrossKernels =>
                "across sub-kernels as [CVM eqs. 18, 20] print (the default), local rows then summing to 1",
        }
    );
    let _ = writeln!(md, "## Table 2: AUC and AP (ours mean ± std, paper mean)\n");
    let _ = writeln!(
        md,
        "| data set | n+ / n- | AUCSVM AUC | AUCSVM AP | rho-AUCCVM AUC | rho-AUCCVM AP | GAM-CVM AUC | GAM-CVM AP |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for (set, cells, _, (np, nn)) in done {
        let pap = paper2(set.paper);
        let runs = done
            .iter()
            .find(|d| d.0.name == set.name)
            .map_or(0, |d| d.2);
        let mut row = format!("| {} ({runs} runs) | {np} / {nn} |", set.paper);
        for (k, name) in [SVM, RHO, GAM].iter().enumerate() {
            let c = &cells[name];
            let (pa, pp) = pap.map_or((f64::NAN, f64::NAN), |p| p[k]);
            if c.auc.is_empty() {
                let why = c.skipped.clone().unwrap_or_default();
                let _ = write!(row, " - ({why}; paper {pa:.4}) | - (paper {pp:.4}) |");
            } else {
                let _ = write!(
                    row,
                    " {:.4} ± {:.4} ({pa:.4}) | {:.4} ± {:.4} ({pp:.4}) |",
                    mean(&c.auc),
                    std(&c.auc),
                    mean(&c.ap),
                    std(&c.ap)
                );
            }
        }
        let _ = writeln!(md, "{row}");
    }
    let _ = writeln!(
        md,
        "\n## Table 3: optimization-stage seconds per fit (ours, paper) and fusion seconds\n"
    );
    let _ = writeln!(
        md,
        "Ours: mean seconds of the final fit's solver on one training part (the kernel given), 2 cores shared; the paper: MATLAB on an i7-14700KF. Fusion: mean seconds to build one kernel (sub-kernels, neighbours, cross-diffusion) on a split's points, reported separately as the paper does.\n"
    );
    let _ = writeln!(
        md,
        "| data set | pairs (train) | AUCSVM | rho-AUCCVM | GAM-CVM | GAM-CVM core set | GAM-CVM tau | GAM-CVM fusion s |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for (set, cells, _, (np, nn)) in done {
        let pt = PAPER_T3
            .iter()
            .find(|p| p.0 == set.paper)
            .map_or([f64::NAN; 3], |p| p.1);
        let train_pairs = (np * nn) as f64 * ((cfg.folds - 1) as f64 / cfg.folds as f64).powi(2);
        let mut row = format!("| {} | {:.0} |", set.paper, train_pairs);
        for (k, name) in [SVM, RHO, GAM].iter().enumerate() {
            let c = &cells[name];
            if c.opt.is_empty() {
                let _ = write!(row, " - ({}) |", pt[k]);
            } else {
                let _ = write!(row, " {:.4} ({}) |", mean(&c.opt), pt[k]);
            }
        }
        let g = &cells[GAM];
        let _ = writeln!(
            md,
            "{row} {:.0} | {:.4} | {:.2} |",
            mean(&g.core),
            mean(&g.tau),
            mean(&g.fusion)
        );
    }
    let _ = writeln!(
        md,
        "\n## Table 6: sub-kernel ablation, AUC and AP (ours; paper AUC in brackets)\n"
    );
    let _ = writeln!(
        md,
        "| data set | K1 | K2 | K3 | K1+K2 | K1+K3 | K2+K3 | K1+K2+K3 |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for (set, cells, _, _) in done {
        let p6 = PAPER_T6.iter().find(|p| p.0 == set.paper).map(|p| p.1);
        let full = paper2(set.paper).map_or(f64::NAN, |p| p[2].0);
        let mut row = format!("| {} |", set.paper);
        for (k, name) in ["k1", "k2", "k3", "k12", "k13", "k23", GAM]
            .iter()
            .enumerate()
        {
            let c = &cells[name];
            let pa = if k < 6 {
                p6.map_or(f64::NAN, |p| p[k])
            } else {
                full
            };
            if c.auc.is_empty() {
                let _ = write!(row, " - ({pa:.4}) |");
            } else {
                let _ = write!(row, " {:.4} / {:.4} ({pa:.4}) |", mean(&c.auc), mean(&c.ap));
            }
        }
        let _ = writeln!(md, "{row}");
    }
    let _ = writeln!(
        md,
        "\n## Inductive against transductive GAM-CVM (SPEC section 7)\n"
    );
    let _ = writeln!(
        md,
        "Same splits and parameters (those the transductive inner CV chose); the inductive kernel is fused on the training part only and each test row is scored by its local kernels over its n_loc nearest training points, one diffusion step through the fitted scores (`auc_cvm::model`).\n"
    );
    let _ = writeln!(
        md,
        "| data set | transductive AUC | inductive AUC | transductive AP | inductive AP |\n|---|---|---|---|---|"
    );
    for (set, cells, _, _) in done {
        let c = &cells[GAM];
        let _ = writeln!(
            md,
            "| {} | {:.4} | {:.4} | {:.4} | {:.4} |",
            set.paper,
            mean(&c.auc),
            mean(&c.ind_auc),
            mean(&c.ap),
            mean(&c.ind_ap)
        );
    }
    // Friedman ranks over our algorithms, AUC and AP rows for each data set (as [CVM Table 4]):
    // the eight variants on every set, then all nine on the sets where AUCSVM ran.
    let eight: Vec<&str> = ALGOS.iter().map(|a| a.name).filter(|n| *n != SVM).collect();
    let nine: Vec<&str> = ALGOS.iter().map(|a| a.name).collect();
    for (names, title) in [
        (&eight, "the eight variants without AUCSVM, every data set"),
        (&nine, "all nine, on the data sets where AUCSVM ran"),
    ] {
        friedman_section(&mut md, done, names, title);
    }
    let _ = writeln!(
        md,
        "\n## Parameters chosen most often (GAM-CVM; rho-AUCCVM)\n"
    );
    for (set, cells, runs, _) in done {
        let top = |c: &Cell| {
            c.chosen
                .iter()
                .max_by_key(|e| e.1)
                .map(|(k, v)| format!("{k} ({v} of {runs})"))
                .unwrap_or_default()
        };
        let _ = writeln!(
            md,
            "- {}: {}; {}",
            set.paper,
            top(&cells[GAM]),
            top(&cells[RHO])
        );
    }
    let tmp = out.with_extension("md.tmp");
    std::fs::write(&tmp, md).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: {e}", out.display()))
}

/// One finished data set as text (so that `--reuse` can skip it, and several processes can
/// share the work): `algo<TAB>field<TAB>values...` lines, then the figure rows prefixed `fig4`
/// and `fig5`.
fn save_cells(cells: &BTreeMap<&'static str, Cell>, f4: &str, f5: &str) -> String {
    let mut out = String::new();
    let join = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:e}"))
            .collect::<Vec<_>>()
            .join("\t")
    };
    for (name, c) in cells {
        for (field, v) in [
            ("auc", &c.auc),
            ("ap", &c.ap),
            ("opt", &c.opt),
            ("fusion", &c.fusion),
            ("core", &c.core),
            ("tau", &c.tau),
            ("ind_auc", &c.ind_auc),
            ("ind_ap", &c.ind_ap),
        ] {
            let _ = writeln!(out, "{name}\t{field}\t{}", join(v));
        }
        for (k, n) in &c.chosen {
            let _ = writeln!(out, "{name}\tchosen\t{k}\t{n}");
        }
        if let Some(why) = &c.skipped {
            let _ = writeln!(out, "{name}\tskipped\t{why}");
        }
    }
    for l in f4.lines() {
        let _ = writeln!(out, "fig4\t{l}");
    }
    for l in f5.lines() {
        let _ = writeln!(out, "fig5\t{l}");
    }
    out
}

/// The inverse of [`save_cells`].
fn load_cells(text: &str) -> (BTreeMap<&'static str, Cell>, String, String) {
    let mut cells: BTreeMap<&'static str, Cell> = BTreeMap::new();
    let (mut f4, mut f5) = (String::new(), String::new());
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts.first().copied() {
            Some("fig4") => {
                let _ = writeln!(f4, "{}", parts[1..].join("\t"));
                continue;
            }
            Some("fig5") => {
                let _ = writeln!(f5, "{}", parts[1..].join("\t"));
                continue;
            }
            _ => {}
        }
        let Some(algo) = ALGOS.iter().find(|a| Some(&a.name) == parts.first()) else {
            continue;
        };
        let c = cells.entry(algo.name).or_default();
        let nums = || -> Vec<f64> { parts[2..].iter().filter_map(|x| x.parse().ok()).collect() };
        match parts.get(1).copied() {
            Some("auc") => c.auc = nums(),
            Some("ap") => c.ap = nums(),
            Some("opt") => c.opt = nums(),
            Some("fusion") => c.fusion = nums(),
            Some("core") => c.core = nums(),
            Some("tau") => c.tau = nums(),
            Some("ind_auc") => c.ind_auc = nums(),
            Some("ind_ap") => c.ind_ap = nums(),
            Some("chosen") if parts.len() == 4 => {
                c.chosen
                    .insert(parts[2].to_owned(), parts[3].parse().unwrap_or(0));
            }
            Some("skipped") if parts.len() >= 3 => c.skipped = Some(parts[2].to_owned()),
            _ => {}
        }
    }
    (cells, f4, f5)
}

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cvm: {e}");
            std::process::ExitCode::from(2)
        }
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// The landmark approximation against the dense fusion (`--approx-study FILE.md`): on one
/// stratified 5-fold split of every data set (one fold of Letter-z), GAM-CVM with fixed
/// parameters (C1 = 1, n_loc = 8, epsilon = 1e-3, the default fusion), transductive, dense and
/// with `--landmarks M` landmarks (2,000 unless given; half the points on sets of fewer than
/// 4,000) or, with `--fractions a,b,..`, with each of those fractions of the points; then `--synthetic N` rows of [`auc_data::Synthetic`] (10 features, imbalance 9,
/// separation 2) with 20 % held out, landmarks only.
fn approx_study(args: &[String], data_dir: &Path, out: &Path) -> Result<(), String> {
    let m_arg: usize = arg(args, "--landmarks").map_or(Ok(2000), |v| {
        v.parse()
            .map_err(|_| format!("--landmarks: `{v}` is not a number"))
    })?;
    let only: Option<Vec<String>> =
        arg(args, "--sets").map(|s| s.split(',').map(str::to_owned).collect());
    let fusion = paper_fusion(Normalization::AcrossKernels);
    let spec = |approx| KernelSpec {
        kernels: SubKernelKind::ALL.to_vec(),
        sigma_scale: 1.0,
        n_loc: 8,
        fusion,
        approx,
    };
    let p = |approx| GamCvmParams {
        kernel: spec(approx),
        c1: 1.0,
        c2: 1.0,
        eps: 1e-3,
        max_core: MAX_CORE,
        solver: SolverKind::Cvm,
        transductive: true,
    };
    let fractions: Option<Vec<f64>> = match arg(args, "--fractions") {
        Some(list) => Some(
            list.split(',')
                .map(|v| match v.parse::<f64>() {
                    Ok(f) if f > 0.0 && f < 1.0 => Ok(f),
                    _ => Err(format!("--fractions: `{v}` is not a number in (0, 1)")),
                })
                .collect::<Result<_, _>>()?,
        ),
        None => None,
    };
    let mut md = String::from("# GAM-CVM: the landmark approximation against the dense fusion\n\n");
    let _ = writeln!(
        md,
        "Produced by `cargo xtask reproduce cvm --approx-study{}` (`auc_cvm::approx`). One stratified 5-fold split per data set (Letter-z: the first fold only), features min-max scaled on the training part, the kernel built on the training and test points (transductive), C1 = 1, n_loc = 8, epsilon = 1e-3, the printed normalization, no parameter search: the same parameters for both kernels, so the difference is the approximation's alone. Landmarks: {}. Mean test AUC over the folds; seconds are the kernel's build (sub-kernels, neighbours, fusion) per fold; bytes are the kernel kept for the solver.\n",
        {
            let mut f = String::new();
            for flag in ["--landmarks", "--fractions", "--synthetic", "--sets"] {
                if let Some(v) = arg(args, flag) {
                    f.push_str(&format!(" {flag} {v}"));
                }
            }
            f
        },
        match &fractions {
            Some(fr) => format!(
                "the given fractions of the n points ({}), each cell the landmark AUC, its difference from the dense fusion, the landmark count M and the kernel's seconds",
                fr.iter()
                    .map(|f| f.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => format!("{m_arg}, or half the points on sets of fewer than 4,000"),
        }
    );
    match &fractions {
        Some(fr) => {
            let _ = writeln!(
                md,
                "| data set | n | dense AUC | dense s | dense MB |{}\n|---|---|---|---|---|{}",
                fr.iter()
                    .map(|f| format!(" M = {f} n |"))
                    .collect::<String>(),
                "---|".repeat(fr.len())
            );
        }
        None => {
            let _ = writeln!(
                md,
                "| data set | n | landmarks | dense AUC | landmark AUC | difference | dense s | landmark s | dense MB | landmark MB |\n|---|---|---|---|---|---|---|---|---|---|"
            );
        }
    }
    let mut worst: f64 = 0.0;
    // Per landmark column: sets within 1 AUC point of the dense fusion, sets, largest loss.
    let mut within = vec![(0usize, 0usize, 0.0f64); fractions.as_ref().map_or(1, Vec::len)];
    for set in SETS.iter().filter(|s| match &only {
        Some(o) => o.iter().any(|n| n == s.name),
        None => true,
    }) {
        let data = load(data_dir, set)?;
        let n = data.n();
        let ms: Vec<usize> = match &fractions {
            Some(fr) => fr
                .iter()
                .map(|f| ((f * n as f64).round() as usize).clamp(9, n - 1))
                .collect(),
            None => vec![if n < 4000 { n / 2 } else { m_arg }],
        };
        let splits =
            repeated_stratified_kfold(data.labels(), 5, 1, 7).map_err(|e| e.to_string())?;
        let take = if n > 10_000 { 1 } else { splits.len() };
        // Per kernel (dense first, then each landmark count): AUC, seconds, MB.
        let mut acc = vec![[0.0f64; 3]; 1 + ms.len()];
        for split in splits.iter().take(take) {
            let sd = SplitData::new(&data, split);
            let approxes = std::iter::once(FusionApprox::Dense)
                .chain(ms.iter().map(|&count| FusionApprox::Landmarks { count }));
            for (k, approx) in approxes.enumerate() {
                let fs =
                    FusedSet::build(sd.pts.clone(), &spec(approx)).map_err(|e| e.to_string())?;
                let (a, _, _) = sd.evaluate(&fs, &p(approx), 3)?;
                acc[k][0] += a / take as f64;
                acc[k][1] += fs.info.seconds / take as f64;
                acc[k][2] += fs.gram.bytes() as f64 / 1e6 / take as f64;
            }
            eprintln!("cvm: approx {} fold {} done", set.name, split.fold);
        }
        for (k, w) in within.iter_mut().enumerate() {
            let d = acc[1 + k][0] - acc[0][0];
            worst = worst.max(d.abs());
            w.1 += 1;
            if d >= -0.01 {
                w.0 += 1;
            }
            w.2 = w.2.min(d);
        }
        if fractions.is_some() {
            let _ = write!(
                md,
                "| {} | {n} | {:.4} | {:.2} | {:.1} |",
                set.paper, acc[0][0], acc[0][1], acc[0][2]
            );
            for (k, m) in ms.iter().enumerate() {
                let _ = write!(
                    md,
                    " {:.4} ({:+.4}), M = {m}, {:.2} s |",
                    acc[1 + k][0],
                    acc[1 + k][0] - acc[0][0],
                    acc[1 + k][1]
                );
            }
            md.push('\n');
        } else {
            let _ = writeln!(
                md,
                "| {} | {n} | {} | {:.4} | {:.4} | {:+.4} | {:.2} | {:.2} | {:.1} | {:.1} |",
                set.paper,
                ms[0],
                acc[0][0],
                acc[1][0],
                acc[1][0] - acc[0][0],
                acc[0][1],
                acc[1][1],
                acc[0][2],
                acc[1][2]
            );
        }
        std::fs::write(out, &md).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for (k, (ok, sets, loss)) in within.iter().enumerate() {
        let what = match &fractions {
            Some(fr) => format!("M = {} n", fr[k]),
            None => "the landmark kernel".to_owned(),
        };
        let _ = writeln!(
            md,
            "\n{what}: no worse than the dense fusion by more than 1 AUC point on {ok} of {sets} sets; largest loss {:.4}.",
            -loss.min(0.0)
        );
    }
    let _ = writeln!(md, "\nLargest |difference|: {worst:.4} AUC.");
    if let Some(nsyn) = arg(args, "--synthetic") {
        let nsyn: usize = nsyn
            .parse()
            .map_err(|_| format!("--synthetic: `{nsyn}` is not a number"))?;
        let data = auc_data::Synthetic {
            n: nsyn,
            p: 10,
            ir: 9.0,
            label_noise: 0.0,
            separation: 2.0,
            sparsity: 0.0,
            seed: 1,
        }
        .generate()
        .map_err(|e| e.to_string())?;
        let splits =
            repeated_stratified_kfold(data.labels(), 5, 1, 7).map_err(|e| e.to_string())?;
        let t0 = Instant::now();
        let sd = SplitData::new(&data, &splits[0]);
        let approx = FusionApprox::Landmarks { count: m_arg };
        let fs = FusedSet::build(sd.pts.clone(), &spec(approx)).map_err(|e| e.to_string())?;
        let build = t0.elapsed().as_secs_f64();
        let (a, _, sol) = sd.evaluate(&fs, &p(approx), 3)?;
        let est = p(approx).estimate_bytes(nsyn, 10, sd.pos.len(), sd.neg.len());
        let _ = writeln!(
            md,
            "\n## {nsyn} synthetic rows\n\n`auc_data::Synthetic` (10 features, imbalance 9, class means 2 apart, seed 1), the first fold of a stratified 5-fold split: {} training and {} test rows, one kernel on all {nsyn} points through {m_arg} landmarks. Test AUC {a:.4}; kernel built in {build:.1} s ({:.1} s of it the fusion on the landmarks, {} rounds), the core vector machine {:.2} s with {} core pairs; kernel kept {:.1} MB; `estimate_bytes` {:.2} GB. The dense fusion would need {:.1} GB (`auc_cvm::fusion::peak_bytes`). Peak resident memory of the whole run: see docs/results/performance.md (`/usr/bin/time -v`).",
            sd.train.n(),
            sd.test.n(),
            fs.info.seconds,
            fs.info.iterations,
            sol.seconds,
            sol.core_size,
            fs.gram.bytes() as f64 / 1e6,
            est as f64 / 1e9,
            auc_cvm::fusion::peak_bytes(nsyn, 3, Normalization::AcrossKernels) as f64 / 1e9,
        );
    }
    std::fs::write(out, md).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("cvm: wrote {}", out.display());
    Ok(())
}

/// The landmark approximation on generated rows (`--approx-synthetic FILE.md`): `--synthetic N`
/// rows of [`auc_data::Synthetic`] (10 features, imbalance 9, class means 2 apart along the
/// diagonal, unit variance, `--seed S`, 1 unless given), the first fold of a stratified 5-fold
/// split held out, one transductive kernel on all N points for each landmark count of
/// `--landmarks` (a comma list; 0 is the dense fusion; `auto` is the largest multiple of 1,000
/// whose `estimate_bytes` fits in `--memory-gb G`, 4 unless given), the same fixed parameters as
/// the study above unless `--c1` or `--eps` says otherwise. Beside each fit: the test AUC of the Bayes-optimal score (the sum of the
/// features, since both classes share the identity covariance), the ceiling any model can reach
/// on these rows.
fn approx_synthetic(args: &[String], out: &Path) -> Result<(), String> {
    let num = |name: &str, default: f64| -> Result<f64, String> {
        arg(args, name).map_or(Ok(default), |v| {
            v.parse()
                .map_err(|_| format!("{name}: `{v}` is not a number"))
        })
    };
    let nsyn = num("--synthetic", 100_000.0)? as usize;
    let seed = num("--seed", 1.0)? as u64;
    let budget = num("--memory-gb", 4.0)?;
    let eps = num("--eps", 1e-3)?;
    let c1 = num("--c1", 1.0)?;
    let (dim, n_loc) = (10usize, 8usize);
    let data = auc_data::Synthetic {
        n: nsyn,
        p: dim,
        ir: 9.0,
        label_noise: 0.0,
        separation: 2.0,
        sparsity: 0.0,
        seed,
    }
    .generate()
    .map_err(|e| e.to_string())?;
    let splits = repeated_stratified_kfold(data.labels(), 5, 1, 7).map_err(|e| e.to_string())?;
    let sd = SplitData::new(&data, &splits[0]);
    // The Bayes-optimal ranking: the positives' mean is shifted along the diagonal of an
    // identity covariance, so the log-likelihood ratio grows with the sum of the raw features.
    let raw_test = data.select(&splits[0].test);
    let bayes: Vec<f64> = (0..raw_test.n())
        .map(|i| {
            let mut s = 0.0;
            raw_test.row(i).for_each(|_, v| s += v);
            s
        })
        .collect();
    let bayes_auc = auc(&bayes, raw_test.labels()).map_err(|e| e.to_string())?;
    let fusion = paper_fusion(Normalization::AcrossKernels);
    let params = |approx| GamCvmParams {
        kernel: KernelSpec {
            kernels: SubKernelKind::ALL.to_vec(),
            sigma_scale: 1.0,
            n_loc,
            fusion,
            approx,
        },
        c1,
        c2: 1.0,
        eps,
        max_core: MAX_CORE,
        solver: SolverKind::Cvm,
        transductive: true,
    };
    let (np, nn) = (sd.pos.len(), sd.neg.len());
    let estimate = |m: usize| {
        let approx = if m == 0 || m >= nsyn {
            FusionApprox::Dense
        } else {
            FusionApprox::Landmarks { count: m }
        };
        params(approx).estimate_bytes(nsyn, dim, np, nn)
    };
    let list = arg(args, "--landmarks").unwrap_or_else(|| "auto".to_owned());
    let mut counts = Vec::new();
    for v in list.split(',') {
        if v == "auto" {
            let fits = |m: usize| estimate(m) as f64 <= budget * 1e9;
            let mut m = 1000;
            while m + 1000 < nsyn && fits(m + 1000) {
                m += 1000;
            }
            if !fits(m) {
                return Err(format!(
                    "--memory-gb {budget}: even 1,000 landmarks need {:.2} GB",
                    estimate(m) as f64 / 1e9
                ));
            }
            counts.push(m);
        } else {
            counts.push(
                v.parse()
                    .map_err(|_| format!("--landmarks: `{v}` is not a number or `auto`"))?,
            );
        }
    }
    let mut md = format!(
        "Produced by `cvm --approx-synthetic FILE --synthetic {nsyn} --landmarks {list} --memory-gb {budget} --seed {seed} --c1 {c1} --eps {eps}` (`benches/src/bin/cvm.rs`, `cargo xtask reproduce cvm --approx-synthetic`). `auc_data::Synthetic` (n = {nsyn}, 10 features, imbalance 9, class means 2 apart along the diagonal, unit variance, seed {seed}); the first fold of a stratified 5-fold split: {} training rows ({np} positives, {nn} negatives, {} pairs) and {} test rows; features min-max scaled on the training part; one transductive kernel on all {nsyn} points; C1 = {c1}, n_loc = {n_loc}, epsilon = {eps}, the printed normalization, no parameter search. Bayes-optimal test AUC (the sum of the raw features, the best any score can do on these rows): {bayes_auc:.4}.\n\n| landmarks | points per landmark | test AUC | test AP | kernel s | fusion s | rounds | CVM s | core pairs | kernel kept MB | `estimate_bytes` GB |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
        sd.train.n(),
        np as u64 * nn as u64,
        sd.test.n(),
    );
    for m in counts {
        let approx = if m == 0 || m >= nsyn {
            FusionApprox::Dense
        } else {
            FusionApprox::Landmarks { count: m }
        };
        let t0 = Instant::now();
        let fs =
            FusedSet::build(sd.pts.clone(), &params(approx).kernel).map_err(|e| e.to_string())?;
        let build = t0.elapsed().as_secs_f64();
        let (a, ap, sol) = sd.evaluate(&fs, &params(approx), 3)?;
        let _ = writeln!(
            md,
            "| {} | {} | {a:.4} | {ap:.4} | {build:.1} | {:.1} | {} | {:.2} | {} | {:.1} | {:.2} |",
            if m == 0 {
                "dense".to_owned()
            } else {
                m.to_string()
            },
            if m == 0 {
                "1".to_owned()
            } else {
                format!("{:.0}", nsyn as f64 / m as f64)
            },
            fs.info.seconds,
            fs.info.iterations,
            sol.seconds,
            sol.core_size,
            fs.gram.bytes() as f64 / 1e6,
            estimate(m) as f64 / 1e9,
        );
        eprintln!("cvm: synthetic n = {nsyn}, landmarks {m}: AUC {a:.4}");
        std::fs::write(out, &md).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    println!("cvm: wrote {}", out.display());
    Ok(())
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let data_dir = PathBuf::from(arg(&args, "--data").ok_or("--data DIR is required")?);
    if let Some(study) = arg(&args, "--approx-study") {
        return approx_study(&args, &data_dir, Path::new(&study));
    }
    if let Some(study) = arg(&args, "--approx-synthetic") {
        return approx_synthetic(&args, Path::new(&study));
    }
    let out = PathBuf::from(arg(&args, "--out").ok_or("--out FILE is required")?);
    let figs = PathBuf::from(arg(&args, "--figs").ok_or("--figs DIR is required")?);
    let num = |name: &str, default: usize| -> Result<usize, String> {
        arg(&args, name).map_or(Ok(default), |v| {
            v.parse()
                .map_err(|_| format!("{name}: `{v}` is not a number"))
        })
    };
    let cfg = Config {
        repeats: num("--repeats", if quick { 1 } else { 2 })?,
        folds: num("--folds", if quick { 3 } else { 10 })?,
        inner: num("--inner", if quick { 2 } else { 3 })?,
        c1: match arg(&args, "--c1") {
            Some(list) => list
                .split(',')
                .map(|v| {
                    v.parse()
                        .map_err(|_| format!("--c1: `{v}` is not a number"))
                })
                .collect::<Result<_, _>>()?,
            None if quick => vec![0.1, 10.0],
            None => vec![0.01, 0.1, 1.0, 10.0, 100.0],
        },
        nloc: match arg(&args, "--nloc") {
            Some(list) => list
                .split(',')
                .map(|v| {
                    v.parse()
                        .map_err(|_| format!("--nloc: `{v}` is not a number"))
                })
                .collect::<Result<_, _>>()?,
            None if quick => vec![8],
            None => vec![8, 32],
        },
        sigma: if quick {
            vec![1.0]
        } else {
            vec![0.5, 1.0, 2.0]
        },
        eps: 1e-3,
        fusion: paper_fusion(if args.iter().any(|a| a == "--rows-norm") {
            Normalization::Rows
        } else {
            Normalization::AcrossKernels
        }),
        quick,
        max_runs_large: num("--max-runs-large", if quick { 1 } else { 3 })?,
        flags: {
            let mut f = String::new();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--data" | "--out" | "--figs" => {
                        it.next();
                    }
                    "--reuse" => {}
                    other => {
                        f.push(' ');
                        f.push_str(other);
                    }
                }
            }
            f
        },
    };
    let only: Option<Vec<String>> =
        arg(&args, "--sets").map(|s| s.split(',').map(str::to_owned).collect());
    let default_quick = ["glass6", "heart", "sonar"];
    let sets: Vec<&Set> = SETS
        .iter()
        .filter(|s| match &only {
            Some(o) => o.iter().any(|n| n == s.name),
            None => !quick || default_quick.contains(&s.name),
        })
        .collect();
    std::fs::create_dir_all(&figs).map_err(|e| format!("{}: {e}", figs.display()))?;
    let started = Instant::now();
    let mut done = Vec::new();
    let (mut f4, mut f5) = (String::new(), String::new());
    let reuse = args.iter().any(|a| a == "--reuse");
    for set in sets {
        let data = load(&data_dir, set)?;
        let counts = data.class_counts();
        let saved = figs.join(format!("cells-{}.tsv", set.name));
        let (cells, mut s4, mut s5) = match std::fs::read_to_string(&saved) {
            Ok(text) if reuse => {
                println!("cvm: {} reused from {}", set.name, saved.display());
                load_cells(&text)
            }
            _ => {
                let t0 = Instant::now();
                let cells = run_set(&data, &cfg, set)?;
                println!(
                    "cvm: {} done in {:.0} s",
                    set.name,
                    t0.elapsed().as_secs_f64()
                );
                let (mut s4, mut s5) = (String::new(), String::new());
                if ["Abalone-19", "Breast-w", "German"].contains(&set.paper)
                    || (quick && set.name == "heart")
                {
                    fig4(&data, set, &cfg, &mut s4)?;
                }
                if data.n() <= FIG5_MAX_N {
                    fig5(&data, set, &cfg, &mut s5)?;
                }
                let text = save_cells(&cells, &s4, &s5);
                std::fs::write(&saved, text).map_err(|e| format!("{}: {e}", saved.display()))?;
                (cells, s4, s5)
            }
        };
        f4.push_str(&std::mem::take(&mut s4));
        f5.push_str(&std::mem::take(&mut s5));
        let runs = cells.get(GAM).map_or(0, |c| c.auc.len());
        done.push((set, cells, runs, counts));
        write_table(&out, &cfg, &done, started.elapsed().as_secs_f64())?;
        for (name, text) in [("cvm-fig4.tsv", &f4), ("cvm-fig5.tsv", &f5)] {
            let p = figs.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    println!("cvm: wrote {}", out.display());
    Ok(())
}

/// The cross-diffusion settings of every run here (rho = 0.1, at most 20 rounds, relative
/// tolerance 1e-3), with the given normalization.
fn paper_fusion(normalization: Normalization) -> FusionParams {
    FusionParams {
        rho: 0.1,
        max_iter: 20,
        tol: 1e-3,
        normalization,
    }
}
