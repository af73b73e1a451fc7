//! `cvm [--quick] [ARGS]`: the GAM-CVM reproduction of \[CVM Tables 2, 3, 6\] and figs. 4-5.
//!
//! The full run writes `docs/results/cvm.md` (rewritten after each data set, through a temporary
//! file and a rename) and keeps each finished data set's cells and the figure data in
//! `target/cvm-figs/` (`cells-SET.tsv`, which `--reuse` reads instead of running the set again;
//! `cvm-fig4.tsv`, `cvm-fig5.tsv`); at the end the figures are drawn from that data
//! (`cvm/figures.rs`) and their section appended to the page. `--quick` (1 x 3-fold, two C1
//! values, three small data sets, about half a minute) writes everything to `target/cvm-quick/`
//! so it never replaces the committed table. `--rows-norm` (the fusion normalized by each
//! kernel's rows, \[Wang12\]) writes `docs/results/cvm-rows-norm.md` and its figures beside the
//! main table instead. `--approx-study` (with `--landmarks M` or `--fractions a,b`,
//! `--synthetic N`, `--sets`) writes `docs/results/cvm-approx.md` instead, the landmark
//! approximation against the dense fusion; `--approx-synthetic` (with `--synthetic N`,
//! `--landmarks M,..|auto`, `--memory-gb G`, `--seed S`, `--c1 C`, `--eps E`) writes
//! `docs/results/cvm-approx-synthetic.md`, the approximation on generated rows (`cvm/approx.rs`).
//!
//! # Protocol
//!
//! Repeated stratified K-fold CV (conventions section 8). On each outer split the scaler is
//! fitted on the training part (conventions section 1) and the kernel of each variant is built
//! once, on the training and test points together (the transductive mode of the paper: no test
//! label is read). The inner 3-fold CV that picks the parameters reuses that kernel, training on
//! the inner training points and scoring the inner validation points, so that one fusion serves
//! every candidate: the kernel depends only on $n_{loc}$ (and the sub-kernels), the candidates
//! differ in $C_1$ (and the bandwidth scale of the rho-AUCCVM baseline). $C_2$ is fixed at 1: it
//! only scales the scores (see `auc_cvm::solver`), which fig. 4's data show.
//!
//! The files: `cvm/paper.rs` (the data sets, columns and the paper's figures),
//! `cvm/protocol.rs` (one data set's runs, the figures' data), `cvm/table.rs` (the page),
//! `cvm/approx.rs` and `cvm/figures.rs`; this one reads the flags and runs the sets in order.

mod approx;
mod figures;
mod paper;
mod protocol;
mod table;

use std::path::Path;
use std::time::Instant;

use auc_cvm::fusion::Normalization;

use paper::{FIG5_MAX_N, GAM, SETS, Set};
use protocol::{Config, fig4, fig5, load, paper_fusion, run_set};
use table::{load_cells, save_cells, write_table};

use crate::workspace::{root, shared_datasets};

/// The flags of `cvm`. The lists and the approximation studies' flags are kept as written: the
/// page's header repeats them, and each study reads them its own way.
#[derive(clap::Args, Debug, Default)]
pub struct CvmArgs {
    /// The CI smoke run: 1 x 3-fold, inner 2-fold, C1 in {0.1, 10}, n_loc 8, glass6, heart and
    /// sonar; writes target/cvm-quick/.
    #[arg(long)]
    pub quick: bool,
    /// Normalize the fusion by each kernel's own rows (the cross-diffusion of Wang et al.,
    /// 2012) instead of across the sub-kernels as [CVM eqs. 18, 20] print it: writes
    /// cvm-rows-norm.md.
    #[arg(long)]
    pub rows_norm: bool,
    /// Outer repeats (default 2; 1 with --quick).
    #[arg(long, value_name = "R")]
    pub repeats: Option<usize>,
    /// Outer folds (default 10; 3 with --quick).
    #[arg(long, value_name = "K")]
    pub folds: Option<usize>,
    /// Inner folds (default 3; 2 with --quick).
    #[arg(long, value_name = "K")]
    pub inner: Option<usize>,
    /// C1 candidates, comma-separated (default 0.01,0.1,1,10,100; 0.1,10 with --quick); with
    /// --approx-synthetic one C1 (default 1).
    #[arg(long, value_name = "A,B")]
    pub c1: Option<String>,
    /// n_loc candidates of the fused and density kernels, comma-separated (default 8,32; 8
    /// with --quick).
    #[arg(long, value_name = "A,B")]
    pub nloc: Option<String>,
    /// At most this many outer splits on data sets of more than 3,000 points (default 3; 1 with
    /// --quick).
    #[arg(long, value_name = "N")]
    pub max_runs_large: Option<usize>,
    /// Only these data sets (comma-separated, this reproduction's names: glass6, sonar, ..,
    /// letter-z).
    #[arg(long, value_name = "A,B")]
    pub sets: Option<String>,
    /// Reuse the cells of the data sets a previous run finished (target/cvm-figs/cells-SET.tsv,
    /// target/cvm-rows-norm-figs/ with --rows-norm).
    #[arg(long)]
    pub reuse: bool,
    /// Measure the landmark approximation against the dense fusion: cvm-approx.md.
    #[arg(long, conflicts_with = "approx_synthetic")]
    pub approx_study: bool,
    /// Measure the landmark approximation on generated rows: cvm-approx-synthetic.md.
    #[arg(long)]
    pub approx_synthetic: bool,
    /// Landmarks: a count for --approx-study (default 2000); a comma list of counts (0 is the
    /// dense fusion) or `auto` for --approx-synthetic.
    #[arg(long, value_name = "M")]
    pub landmarks: Option<String>,
    /// --approx-study: landmark counts as fractions of the points, comma-separated.
    #[arg(long, value_name = "A,B")]
    pub fractions: Option<String>,
    /// Generated rows of the approximation studies.
    #[arg(long, value_name = "N")]
    pub synthetic: Option<String>,
    /// --approx-synthetic: the memory `auto` may use, in GB (default 4).
    #[arg(long, value_name = "G")]
    pub memory_gb: Option<String>,
    /// --approx-synthetic: the generator's seed (default 1).
    #[arg(long, value_name = "S")]
    pub seed: Option<String>,
    /// --approx-synthetic: the solver's epsilon (default 1e-3).
    #[arg(long, value_name = "E")]
    pub eps: Option<String>,
}

impl CvmArgs {
    /// The raw value of an approximation study's flag, by name.
    fn flag(&self, name: &str) -> Option<String> {
        match name {
            "--landmarks" => self.landmarks.clone(),
            "--fractions" => self.fractions.clone(),
            "--synthetic" => self.synthetic.clone(),
            "--sets" => self.sets.clone(),
            "--memory-gb" => self.memory_gb.clone(),
            "--seed" => self.seed.clone(),
            "--eps" => self.eps.clone(),
            "--c1" => self.c1.clone(),
            _ => None,
        }
    }

    /// The protocol flags as the page's header repeats them (`--reuse`, which changes no
    /// figure, left out), in the order of the committed commands.
    fn header_flags(&self) -> String {
        let mut f = String::new();
        let mut push = |flag: &str, v: Option<String>| {
            if let Some(v) = v {
                f.push(' ');
                f.push_str(flag);
                if !v.is_empty() {
                    f.push(' ');
                    f.push_str(&v);
                }
            }
        };
        push("--quick", self.quick.then(String::new));
        push("--rows-norm", self.rows_norm.then(String::new));
        push("--repeats", self.repeats.map(|v| v.to_string()));
        push("--folds", self.folds.map(|v| v.to_string()));
        push("--inner", self.inner.map(|v| v.to_string()));
        push("--c1", self.c1.clone());
        push("--nloc", self.nloc.clone());
        push(
            "--max-runs-large",
            self.max_runs_large.map(|v| v.to_string()),
        );
        push("--sets", self.sets.clone());
        f
    }

    /// The run's settings.
    fn config(&self) -> Result<Config, String> {
        let quick = self.quick;
        let c1: Vec<f64> = match &self.c1 {
            Some(list) => list
                .split(',')
                .map(|v| {
                    v.parse()
                        .map_err(|_| format!("--c1: `{v}` is not a number"))
                })
                .collect::<Result<_, _>>()?,
            None if quick => vec![0.1, 10.0],
            None => vec![0.01, 0.1, 1.0, 10.0, 100.0],
        };
        let nloc: Vec<usize> = match &self.nloc {
            Some(list) => list
                .split(',')
                .map(|v| {
                    v.parse()
                        .map_err(|_| format!("--nloc: `{v}` is not a number"))
                })
                .collect::<Result<_, _>>()?,
            None if quick => vec![8],
            None => vec![8, 32],
        };
        Ok(Config {
            repeats: self.repeats.unwrap_or(if quick { 1 } else { 2 }),
            folds: self.folds.unwrap_or(if quick { 3 } else { 10 }),
            inner: self.inner.unwrap_or(if quick { 2 } else { 3 }),
            c1,
            nloc,
            sigma: if quick {
                vec![1.0]
            } else {
                vec![0.5, 1.0, 2.0]
            },
            eps: 1e-3,
            fusion: paper_fusion(if self.rows_norm {
                Normalization::Rows
            } else {
                Normalization::AcrossKernels
            }),
            quick,
            max_runs_large: self.max_runs_large.unwrap_or(if quick { 1 } else { 3 }),
            flags: self.header_flags(),
        })
    }
}

/// Runs the reproduction `args` asks for.
pub(crate) fn run(args: &CvmArgs) -> Result<(), String> {
    let quick = args.quick;
    let root = root();
    let datasets = shared_datasets()?;
    let stem = if args.rows_norm {
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
    if args.approx_study || args.approx_synthetic {
        let file = if args.approx_synthetic {
            "cvm-approx-synthetic"
        } else {
            "cvm-approx"
        };
        let out = out_dir.join(if quick {
            format!("{file}-quick.md")
        } else {
            format!("{file}.md")
        });
        let flag = |name: &str| args.flag(name);
        if args.approx_synthetic {
            approx::approx_synthetic(&flag, &out)?;
        } else {
            approx::approx_study(&flag, &datasets, &out)?;
        }
        eprintln!("reproduce: wrote {}", out.display());
        return Ok(());
    }
    let md = out_dir.join(if quick {
        format!("{stem}-quick.md")
    } else {
        format!("{stem}.md")
    });
    let figs = if quick {
        root.join("target/cvm-quick")
    } else {
        root.join(format!("target/{stem}-figs"))
    };
    run_sets(args, &datasets, &md, &figs)?;
    let mut text = std::fs::read_to_string(&md).map_err(|e| format!("{}: {e}", md.display()))?;
    text.push_str(&figures::figures(&figs, &out_dir, stem)?);
    std::fs::write(&md, text).map_err(|e| format!("{}: {e}", md.display()))?;
    eprintln!(
        "reproduce: wrote {} and the figures beside it",
        md.display()
    );
    Ok(())
}

/// Runs every data set asked for, in order, rewriting the page `out` after each and keeping the
/// cells and figure data in `figs`.
fn run_sets(args: &CvmArgs, data_dir: &Path, out: &Path, figs: &Path) -> Result<(), String> {
    let quick = args.quick;
    let cfg = args.config()?;
    let only: Option<Vec<String>> = args
        .sets
        .as_ref()
        .map(|s| s.split(',').map(str::to_owned).collect());
    let default_quick = ["glass6", "heart", "sonar"];
    let sets: Vec<&Set> = SETS
        .iter()
        .filter(|s| match &only {
            Some(o) => o.iter().any(|n| n == s.name),
            None => !quick || default_quick.contains(&s.name),
        })
        .collect();
    std::fs::create_dir_all(figs).map_err(|e| format!("{}: {e}", figs.display()))?;
    let started = Instant::now();
    let mut done = Vec::new();
    let (mut f4, mut f5) = (String::new(), String::new());
    for set in sets {
        let data = load(data_dir, set)?;
        let counts = data.class_counts();
        let saved = figs.join(format!("cells-{}.tsv", set.name));
        let (cells, mut s4, mut s5) = match std::fs::read_to_string(&saved) {
            Ok(text) if args.reuse => {
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
        write_table(out, &cfg, &done, started.elapsed().as_secs_f64())?;
        for (name, text) in [("cvm-fig4.tsv", &f4), ("cvm-fig5.tsv", &f5)] {
            let p = figs.join(name);
            std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
        }
    }
    println!("cvm: wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        cvm: CvmArgs,
    }

    fn parse(args: &[&str]) -> CvmArgs {
        Line::try_parse_from(std::iter::once("cvm").chain(args.iter().copied()))
            .unwrap()
            .cvm
    }

    #[test]
    fn the_header_repeats_the_committed_commands() {
        // docs/results/cvm.md and the CI smoke run.
        let a = parse(&[
            "--repeats",
            "2",
            "--folds",
            "5",
            "--inner",
            "2",
            "--c1",
            "0.1,1,10",
            "--max-runs-large",
            "2",
            "--reuse",
        ]);
        assert_eq!(
            a.header_flags(),
            " --repeats 2 --folds 5 --inner 2 --c1 0.1,1,10 --max-runs-large 2"
        );
        assert_eq!(parse(&["--quick"]).header_flags(), " --quick");
        let c = parse(&["--quick", "--c1", "1,2", "--sets", "heart"])
            .config()
            .unwrap();
        assert_eq!((c.repeats, c.folds, c.inner), (1, 3, 2));
        assert_eq!(c.c1, [1.0, 2.0]);
        assert_eq!(c.nloc, [8]);
        assert!(parse(&["--nloc", "8,x"]).config().is_err());
    }

    #[test]
    fn the_studies_read_their_flags_as_written() {
        let a = parse(&["--approx-synthetic", "--landmarks", "auto", "--c1", "1"]);
        assert_eq!(a.flag("--landmarks").as_deref(), Some("auto"));
        assert_eq!(a.flag("--c1").as_deref(), Some("1"));
        assert_eq!(a.flag("--memory-gb"), None);
    }
}
