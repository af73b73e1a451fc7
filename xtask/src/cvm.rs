//! `cargo xtask reproduce cvm [--quick] [ARGS]`: the GAM-CVM reproduction of [CVM Tables 2, 3, 6]
//! by the `cvm` binary of `auc-benches` (see its docs for the protocol), then the figures: the
//! C1 x C2 heatmaps of [CVM fig. 4] (`cvm-fig4.svg`) and the epsilon sensitivity of [CVM fig. 5]
//! (`cvm-fig5.svg`), drawn here from the binary's TSV output.
//!
//! The full run writes `docs/results/cvm.md`; `--quick` (1 x 3-fold, two C1 values, three small
//! data sets, about half a minute) writes `target/cvm-quick/` so it never replaces the
//! committed table. `--rows-norm` (the fusion normalized by each kernel's rows, \[Wang12\])
//! writes `docs/results/cvm-rows-norm.md` and its figures beside the main table instead.
//! Other arguments (`--sets a,b`, `--repeats R`, `--folds K`, `--inner K`, `--c1 a,b`,
//! `--nloc a,b`, `--max-runs-large N`, `--reuse`) pass through to the binary; `--approx-study`
//! (with `--landmarks M` or `--fractions a,b`, `--synthetic N`) writes `docs/results/cvm-approx.md`
//! instead, the landmark approximation against the dense fusion; `--approx-synthetic` (with
//! `--synthetic N`, `--landmarks M,..|auto`, `--memory-gb G`) writes
//! `docs/results/cvm-approx-synthetic.md`, the approximation on generated rows.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::{cargo, project_root};

/// The data sets of [CVM Table 1] that `../shared/datasets` holds, as `linear.rs`'s `SETS`
/// describes them: the batch family of `cargo xtask reproduce defaults` (the `cvm` binary of
/// `auc-benches` keeps its own copy with the paper's names).
pub(crate) const BATCH: crate::linear::Experiment = crate::linear::Experiment {
    key: "cvm",
    title: "GAM-CVM and its baselines: [CVM Table 2]",
    sets: &[
        "glass6",
        "sonar",
        "heart",
        "haberman",
        "ionosphere",
        "wdbc",
        "breast-cancer",
        "pima",
        "vehicle2",
        "german",
        "yeast1",
        "abalone19",
        "page-blocks0",
        "letter-z",
    ],
    family: "batch",
    paper: &[],
    extra_args: &[],
    protocol: "see docs/results/cvm.md",
    quick_sets: &["glass6", "heart", "sonar"],
    curves: false,
};

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let root = project_root();
    let datasets = crate::reproduce::shared_datasets()?;
    let stem = if args.iter().any(|a| a == "--rows-norm") {
        "cvm-rows-norm"
    } else {
        "cvm"
    };
    let out_dir = if quick {
        root.join("target/cvm-quick")
    } else {
        root.join("docs/results")
    };
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let synthetic = args.iter().any(|a| a == "--approx-synthetic");
    if synthetic || args.iter().any(|a| a == "--approx-study") {
        let (mode, file) = if synthetic {
            ("--approx-synthetic", "cvm-approx-synthetic")
        } else {
            ("--approx-study", "cvm-approx")
        };
        let out = out_dir.join(if quick {
            format!("{file}-quick.md")
        } else {
            format!("{file}.md")
        });
        let (out_s, data_s) = (out.display().to_string(), datasets.display().to_string());
        let mut cmd = vec![
            "run",
            "--release",
            "--quiet",
            "-p",
            "auc-benches",
            "--bin",
            "cvm",
            "--",
            "--data",
            &data_s,
        ];
        for a in args.iter().filter(|a| *a != mode && *a != "--quick") {
            cmd.push(a);
        }
        cmd.extend([mode, &out_s]);
        cargo(&cmd, &crate::DENY)?;
        eprintln!("reproduce: wrote {out_s}");
        return Ok(());
    }
    let md = if quick {
        out_dir.join(format!("{stem}-quick.md"))
    } else {
        out_dir.join(format!("{stem}.md"))
    };
    let figs = if quick {
        root.join("target/cvm-quick")
    } else {
        root.join(format!("target/{stem}-figs"))
    };
    let (md_s, figs_s, data_s) = (
        md.display().to_string(),
        figs.display().to_string(),
        datasets.display().to_string(),
    );
    let mut cmd = vec![
        "run",
        "--release",
        "--quiet",
        "-p",
        "auc-benches",
        "--bin",
        "cvm",
        "--",
        "--data",
        &data_s,
        "--out",
        &md_s,
        "--figs",
        &figs_s,
    ];
    cmd.extend(args.iter().map(String::as_str));
    cargo(&cmd, &crate::DENY)?;
    let mut text = std::fs::read_to_string(&md).map_err(|e| format!("{}: {e}", md.display()))?;
    text.push_str(&figures(&figs, &out_dir, stem)?);
    std::fs::write(&md, text).map_err(|e| format!("{}: {e}", md.display()))?;
    eprintln!("reproduce: wrote {md_s} and the figures beside it");
    Ok(())
}

fn read_tsv(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect())
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// Draws both figures into `out_dir` as `STEM-fig4.svg` and `STEM-fig5.svg` and returns the
/// Markdown section that shows them.
fn figures(figs: &Path, out_dir: &Path, stem: &str) -> Result<String, String> {
    let mut md = String::from("\n## Figures\n");
    // Fig. 4: rows C1, columns C2; one AUC and one AP heatmap per data set.
    let rows = read_tsv(&figs.join("cvm-fig4.tsv"))?;
    let mut by_set: BTreeMap<String, Vec<&Vec<String>>> = BTreeMap::new();
    for r in &rows {
        if r.len() == 5 {
            by_set.entry(r[0].clone()).or_default().push(r);
        }
    }
    let mut maps = Vec::new();
    for metric in [3, 4] {
        for (set, rs) in &by_set {
            let mut c1: Vec<String> = Vec::new();
            let mut c2: Vec<String> = Vec::new();
            for r in rs {
                if !c1.contains(&r[1]) {
                    c1.push(r[1].clone());
                }
                if !c2.contains(&r[2]) {
                    c2.push(r[2].clone());
                }
            }
            let mut v = vec![vec![f64::NAN; c2.len()]; c1.len()];
            for r in rs {
                let (i, j) = (
                    c1.iter().position(|x| *x == r[1]).unwrap_or(0),
                    c2.iter().position(|x| *x == r[2]).unwrap_or(0),
                );
                v[i][j] = num(&r[metric]);
            }
            let what = if metric == 3 { "AUC" } else { "AP" };
            maps.push((format!("{set} {what}"), c1, c2, v));
        }
    }
    if !maps.is_empty() {
        let svg = crate::svg::heatmaps(
            "GAM-CVM: drop from the best test score over C1 (rows) x C2 (columns) [CVM fig. 4]",
            &maps,
            "C1",
            "C2",
        );
        let p = out_dir.join(format!("{stem}-fig4.svg"));
        std::fs::write(&p, svg).map_err(|e| format!("{}: {e}", p.display()))?;
        let _ = write!(
            md,
            "\n### C1 x C2 ([CVM fig. 4])\n\nMean test AUC and AP over one stratified 5-fold split (3-fold with `--quick`), n_loc = 8, epsilon = 1e-3, each cell the drop from the best cell. Columns are identical within rounding: C2 only rescales the scores (`auc_cvm::solver`), so the variation along C2 in the paper's fig. 4 cannot come from eqs. 40-41.\n\n![C1 x C2 heatmaps]({stem}-fig4.svg)\n",
        );
    }
    // Fig. 5: AUC, AP, seconds and core set size against log10(epsilon), one line per data set.
    let rows = read_tsv(&figs.join("cvm-fig5.tsv"))?;
    let mut lines: [BTreeMap<String, Vec<(f64, f64)>>; 4] = Default::default();
    for r in rows.iter().filter(|r| r.len() == 6) {
        let x = num(&r[1]).log10();
        for (k, l) in lines.iter_mut().enumerate() {
            l.entry(r[0].clone()).or_default().push((x, num(&r[2 + k])));
        }
    }
    if !lines[0].is_empty() {
        let titles = [
            "test AUC",
            "test AP",
            "optimization seconds",
            "core set size",
        ];
        let panels: Vec<crate::svg::Panel> = titles
            .iter()
            .zip(&lines)
            .map(|(t, l)| {
                (
                    (*t).to_owned(),
                    l.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
                )
            })
            .collect();
        let svg = crate::svg::panels_x(
            "GAM-CVM against epsilon [CVM fig. 5] (C1 = 1, n_loc = 8)",
            &panels,
            "log10 epsilon",
        );
        let p = out_dir.join(format!("{stem}-fig5.svg"));
        std::fs::write(&p, svg).map_err(|e| format!("{}: {e}", p.display()))?;
        let _ = write!(
            md,
            "\n### Epsilon ([CVM fig. 5])\n\nMean over one stratified 3-fold split, for the data sets with at most 400 points (Glass-6, Sonar, Heart, Haberman, Ionosphere) and epsilon from 1e-1 to 1e-4: below that the core set approaches every support pair (its reduced QP then dominates the cost); the paper's 1e-5 to 1e-8 were left out for time.\n\n![epsilon sensitivity]({stem}-fig5.svg)\n"
        );
    }
    Ok(md)
}
