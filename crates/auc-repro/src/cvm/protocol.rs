//! The protocol of the GAM-CVM reproduction (see the `cvm` module's docs): one data set's
//! repeated stratified CV with the inner CV on a kernel shared by every candidate
//! ([`run_set`]), and the data of [CVM fig. 4] and fig. 5 ([`fig4`], [`fig5`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use auc_core::{Dataset, Label};
use auc_cvm::approx::FusionApprox;
use auc_cvm::fusion::{FusionParams, Normalization};
use auc_cvm::kernels::Points;
use auc_cvm::model::{FusedSet, KernelSpec, solve_on};
use auc_cvm::solver::Solution;
use auc_cvm::{GamCvmParams, SolverKind};
use auc_data::{Positive, ReadOptions, Scaler, Scaling};
use auc_eval::folds::{derive_seed, repeated_stratified_kfold, stratified_kfold};
use auc_eval::metrics::{auc, average_precision};

use super::paper::{ALGOS, Algo, GAM, MAX_CORE, Set};

/// The search grid (coarse: see the table's header) and run settings.
pub(crate) struct Config {
    pub(crate) repeats: usize,
    pub(crate) folds: usize,
    pub(crate) inner: usize,
    pub(crate) c1: Vec<f64>,
    pub(crate) nloc: Vec<usize>,
    pub(crate) sigma: Vec<f64>,
    pub(crate) eps: f64,
    pub(crate) fusion: FusionParams,
    pub(crate) quick: bool,
    /// At most this many outer splits on data sets of more than 3,000 points.
    pub(crate) max_runs_large: usize,
    /// The protocol flags given, as the table's header repeats them.
    pub(crate) flags: String,
}

/// Per (data set, algorithm): metrics and times over the runs.
#[derive(Default, Clone)]
pub(crate) struct Cell {
    pub(crate) auc: Vec<f64>,
    pub(crate) ap: Vec<f64>,
    pub(crate) opt: Vec<f64>,
    pub(crate) fusion: Vec<f64>,
    pub(crate) core: Vec<f64>,
    pub(crate) tau: Vec<f64>,
    pub(crate) chosen: BTreeMap<String, usize>,
    pub(crate) skipped: Option<String>,
    /// GAM-CVM only: test AUC and AP of the inductive model (kernel on the training part only,
    /// test rows scored by the out-of-sample extension) with the transductive run's parameters.
    pub(crate) ind_auc: Vec<f64>,
    pub(crate) ind_ap: Vec<f64>,
}

/// A finished data set: cells by algorithm, runs, and (positives, negatives).
pub(crate) type Done<'a> = (&'a Set, BTreeMap<&'static str, Cell>, usize, (usize, usize));

pub(crate) fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

pub(crate) fn std(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return 0.0;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (v.len() - 1) as f64).sqrt()
}

pub(crate) fn load(dir: &Path, set: &Set) -> Result<Dataset, String> {
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
pub(crate) struct SplitData {
    pub(crate) train: Dataset,
    pub(crate) test: Dataset,
    pub(crate) pts: Points,
    pub(crate) pos: Vec<usize>,
    pub(crate) neg: Vec<usize>,
    pub(crate) test_idx: Vec<usize>,
}

impl SplitData {
    pub(crate) fn new(data: &Dataset, split: &auc_eval::folds::Split) -> Self {
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
    pub(crate) fn evaluate(
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
pub(crate) fn run_set(
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
pub(crate) fn fig4(
    data: &Dataset,
    set: &Set,
    cfg: &Config,
    out: &mut String,
) -> Result<(), String> {
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
pub(crate) fn fig5(
    data: &Dataset,
    set: &Set,
    cfg: &Config,
    out: &mut String,
) -> Result<(), String> {
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

/// The cross-diffusion settings of every run here (rho = 0.1, at most 20 rounds, relative
/// tolerance 1e-3), with the given normalization.
pub(crate) fn paper_fusion(normalization: Normalization) -> FusionParams {
    FusionParams {
        rho: 0.1,
        max_iter: 20,
        tol: 1e-3,
        normalization,
    }
}
