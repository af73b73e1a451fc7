//! The landmark approximation of GAM-CVM against the dense fusion (`auc_cvm::approx`):
//! [`approx_study`] on the shared sets (`cvm --approx-study`, `docs/results/cvm-approx.md`) and
//! [`approx_synthetic`] on generated rows (`cvm --approx-synthetic`,
//! `docs/results/cvm-approx-synthetic.md`). Both take their flags as the raw text given
//! (`flag("--landmarks")`), since each reads them its own way.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use auc_cvm::approx::FusionApprox;
use auc_cvm::fusion::Normalization;
use auc_cvm::kernels::SubKernelKind;
use auc_cvm::model::{FusedSet, KernelSpec};
use auc_cvm::{GamCvmParams, SolverKind};
use auc_eval::folds::repeated_stratified_kfold;
use auc_eval::metrics::auc;

use super::paper::{MAX_CORE, SETS};
use super::protocol::{SplitData, load, paper_fusion};

/// A flag's raw value, by its name (`--landmarks`), if given.
pub(crate) type Flag<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The landmark approximation against the dense fusion (`--approx-study`, written to `out`): on one
/// stratified 5-fold split of every data set (one fold of Letter-z), GAM-CVM with fixed
/// parameters (C1 = 1, n_loc = 8, epsilon = 1e-3, the default fusion), transductive, dense and
/// with `--landmarks M` landmarks (2,000 unless given; half the points on sets of fewer than
/// 4,000) or, with `--fractions a,b,..`, with each of those fractions of the points; then `--synthetic N` rows of [`auc_data::Synthetic`] (10 features, imbalance 9,
/// separation 2) with 20 % held out, landmarks only.
pub(crate) fn approx_study(arg: Flag<'_>, data_dir: &Path, out: &Path) -> Result<(), String> {
    let m_arg: usize = arg("--landmarks").map_or(Ok(2000), |v| {
        v.parse()
            .map_err(|_| format!("--landmarks: `{v}` is not a number"))
    })?;
    let only: Option<Vec<String>> =
        arg("--sets").map(|s| s.split(',').map(str::to_owned).collect());
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
    let fractions: Option<Vec<f64>> = match arg("--fractions") {
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
                if let Some(v) = arg(flag) {
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
    if let Some(nsyn) = arg("--synthetic") {
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

/// The landmark approximation on generated rows (`--approx-synthetic`, written to `out`): `--synthetic N`
/// rows of [`auc_data::Synthetic`] (10 features, imbalance 9, class means 2 apart along the
/// diagonal, unit variance, `--seed S`, 1 unless given), the first fold of a stratified 5-fold
/// split held out, one transductive kernel on all N points for each landmark count of
/// `--landmarks` (a comma list; 0 is the dense fusion; `auto` is the largest multiple of 1,000
/// whose `estimate_bytes` fits in `--memory-gb G`, 4 unless given), the same fixed parameters as
/// the study above unless `--c1` or `--eps` says otherwise. Beside each fit: the test AUC of the Bayes-optimal score (the sum of the
/// features, since both classes share the identity covariance), the ceiling any model can reach
/// on these rows.
pub(crate) fn approx_synthetic(arg: Flag<'_>, out: &Path) -> Result<(), String> {
    let num = |name: &str, default: f64| -> Result<f64, String> {
        arg(name).map_or(Ok(default), |v| {
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
    let list = arg("--landmarks").unwrap_or_else(|| "auto".to_owned());
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
        "Produced by `cargo xtask reproduce cvm --approx-synthetic --synthetic {nsyn} --landmarks {list} --memory-gb {budget} --seed {seed} --c1 {c1} --eps {eps}` (`crates/auc-repro/src/cvm/approx.rs`). `auc_data::Synthetic` (n = {nsyn}, 10 features, imbalance 9, class means 2 apart along the diagonal, unit variance, seed {seed}); the first fold of a stratified 5-fold split: {} training rows ({np} positives, {nn} negatives, {} pairs) and {} test rows; features min-max scaled on the training part; one transductive kernel on all {nsyn} points; C1 = {c1}, n_loc = {n_loc}, epsilon = {eps}, the printed normalization, no parameter search. Bayes-optimal test AUC (the sum of the raw features, the best any score can do on these rows): {bayes_auc:.4}.\n\n| landmarks | points per landmark | test AUC | test AP | kernel s | fusion s | rounds | CVM s | core pairs | kernel kept MB | `estimate_bytes` GB |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
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
