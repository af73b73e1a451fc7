//! The GAM-CVM reproduction's page: [CVM Tables 2, 3, 6] beside ours, inductive against
//! transductive scores, the Friedman ranks of `auc_eval::stats` beside [CVM Table 4]'s, and the
//! parameters chosen most often ([`write_table`]); and one finished data set's cells as text
//! for `--reuse` ([`save_cells`], [`load_cells`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use auc_cvm::fusion::Normalization;
use auc_eval::stats;

use super::paper::{ALGOS, GAM, PAPER_T3, PAPER_T6, RHO, SVM, paper2};
use super::protocol::{Cell, Config, Done, mean, std};
use crate::workspace::write_atomic;

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

pub(crate) fn write_table(
    out: &Path,
    cfg: &Config,
    done: &[Done<'_>],
    secs: f64,
) -> Result<(), String> {
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
    write_atomic(out, &md)
}

/// One finished data set as text (so that `--reuse` can skip it, and several processes can
/// share the work): `algo<TAB>field<TAB>values...` lines, then the figure rows prefixed `fig4`
/// and `fig5`.
pub(crate) fn save_cells(cells: &BTreeMap<&'static str, Cell>, f4: &str, f5: &str) -> String {
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
pub(crate) fn load_cells(text: &str) -> (BTreeMap<&'static str, Cell>, String, String) {
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
