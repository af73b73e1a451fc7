//! The harness of the table reproductions (`linear`, `kernel`, `batch`): the protocol of
//! conventions section 8 for every algorithm of an [`Experiment`]'s registry family on every data
//! set of its table that `../shared/datasets` holds, through `auc cv`, written to
//! `docs/results/KEY.md` beside the papers' figures, with the training times, the parameters
//! chosen most often, the average ranks and the Friedman test (`auc friedman`, which runs
//! `auc_eval::stats`) and, for the linear table, convergence curves ([ADM fig. 1]).
//!
//! The table is rewritten after every data set, so a long run that is stopped still leaves the
//! finished rows. `--quick` (1 x 3-fold, inner 2-fold, 3 values per axis, the table's small data
//! sets) writes to `target/KEY-quick.md` instead and takes about a minute; any other variant
//! (`--full-grid`, `--average`, `--budget`, `--algos`) writes a table of its own beside the main
//! one.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::experiments::{Experiment, ONLINE_PEERS};
use crate::registry::Entry;
use crate::sets::Set;
use crate::workspace::{field, root, shared_datasets, write_atomic};

/// Data sets and algorithms of the convergence curves ([ADM fig. 1]: four data sets, the
/// one-pass moment learners).
const CURVE_SETS: &[&str] = &["german", "australian", "dna", "magic04"];
/// The algorithms of [ADM fig. 1], by title.
const CURVE_ALGOS: &[&str] = &["OPAUC (OAUC-S)", "AdaOAM", "AdmOAM", "OAUC-M"];

/// Our result for one (data set, algorithm).
struct Cell {
    mean: f64,
    std: f64,
    train_seconds: f64,
    wall: f64,
    /// The parameters chosen most often over the runs, as `NAME=VALUE`.
    params: Vec<String>,
}

/// How a table run differs from the default one.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableArgs {
    /// The CI smoke run: 1 x 3-fold, inner 2-fold, 3 values per grid axis, the table's small
    /// data sets; writes target/KEY-quick.md.
    #[arg(long)]
    pub quick: bool,
    /// Conventions section 8's full grids (the registry's paper grids).
    #[arg(long)]
    pub full_grid: bool,
    /// Every learner scores with its averaged iterates.
    #[arg(long)]
    pub average: bool,
    /// Only these algorithms (comma-separated registry names).
    #[arg(long = "algos", value_name = "A,B")]
    pub only: Option<String>,
    /// Only these data sets (comma-separated).
    #[arg(long, value_name = "S,T")]
    pub sets: Option<String>,
    /// Every learner's buffer budget (a kernel-table variant).
    #[arg(long, value_name = "N")]
    pub budget: Option<String>,
}

impl TableArgs {
    /// The table's path: the main table, or a separate one for any variant, so that a variant
    /// never replaces the main table.
    fn out(&self, root: &Path, key: &str) -> PathBuf {
        if self.quick {
            return root.join(format!("target/{key}-quick.md"));
        }
        let mut name = key.to_owned();
        if self.full_grid {
            name.push_str("-full-grid");
        }
        if self.average {
            name.push_str("-average");
        }
        if let Some(b) = &self.budget {
            name.push_str("-budget-");
            name.push_str(b);
        }
        if let Some(o) = &self.only
            && !self.full_grid
            && !self.average
            && self.budget.is_none()
        {
            name.push('-');
            name.push_str(&o.replace(',', "-"));
        }
        root.join(format!("docs/results/{name}.md"))
    }

    /// Whether this is the main table (the only one that draws the convergence curves).
    fn is_main(&self) -> bool {
        !self.quick
            && !self.full_grid
            && !self.average
            && self.only.is_none()
            && self.sets.is_none()
            && self.budget.is_none()
    }
}

/// The algorithms of the experiment's family in the registry's order: those of the registry
/// family, or for `moments` those fitted from merged class moments and their [`ONLINE_PEERS`].
fn family<'a>(entries: &'a [Entry], family: &str) -> Vec<&'a Entry> {
    entries
        .iter()
        .filter(|a| {
            a.family == family
                || (family == "moments"
                    && (a.from_moments || ONLINE_PEERS.contains(&a.title.as_str())))
        })
        .collect()
}

/// Runs the reproduction of `exp` with the `auc` binary `bin`; see [`TableArgs`].
pub(crate) fn run(exp: &Experiment, opts: &TableArgs, bin: &Path) -> Result<(), String> {
    let quick = opts.quick;
    let only = opts.only.as_deref();
    let root = root();
    let datasets = shared_datasets()?;
    let entries = crate::registry::read(bin)?;
    let all = family(&entries, exp.family);
    let wanted: Option<Vec<&str>> = only.map(|o| o.split(',').map(str::trim).collect());
    if let Some(w) = &wanted
        && let Some(bad) = w.iter().find(|n| !all.iter().any(|a| a.name == **n))
    {
        return Err(format!("--algos: unknown algorithm `{bad}`"));
    }
    let algos: Vec<&Entry> = all
        .into_iter()
        .filter(|a| wanted.as_ref().is_none_or(|w| w.contains(&a.name.as_str())))
        .collect();
    let out = opts.out(&root, exp.key);

    let started = Instant::now();
    let mut cells: BTreeMap<(&str, &str), Cell> = BTreeMap::new();
    let mut done: Vec<&Set> = Vec::new();
    for set in exp.data_sets()? {
        if quick && !exp.quick_sets.contains(&set.name) {
            continue;
        }
        if let Some(only) = &opts.sets
            && !only.split(',').any(|s| s.trim() == set.name)
        {
            continue;
        }
        for algo in &algos {
            let mut args = cv_args(&datasets, set, algo, opts);
            args.extend(exp.extra_args.iter().map(|a| (*a).to_owned()));
            if let Some(b) = &opts.budget {
                args.extend(["--budget".to_owned(), b.clone()]);
            }
            let t0 = Instant::now();
            let text = run_cv_lines(bin, &args)?;
            let summary = text.last().cloned().unwrap_or_default();
            let cell = Cell {
                mean: 100.0 * field(&summary, "auc_mean").unwrap_or(f64::NAN),
                std: 100.0 * field(&summary, "auc_std").unwrap_or(f64::NAN),
                train_seconds: field(&summary, "train_seconds_mean").unwrap_or(f64::NAN),
                wall: t0.elapsed().as_secs_f64(),
                params: most_chosen(&text[..text.len().saturating_sub(1)]),
            };
            eprintln!(
                "{}: {} {} {:.2} ± {:.2} ({:.0} s)",
                exp.key, set.name, algo.name, cell.mean, cell.std, cell.wall
            );
            cells.insert((set.name, algo.name.as_str()), cell);
        }
        done.push(set);
        let curves = if !opts.is_main() || !exp.curves {
            String::new()
        } else {
            curves_section(&root, bin, &datasets, &done, &algos, &cells)?
        };
        write_table(
            exp,
            &root,
            bin,
            &out,
            &done,
            &algos,
            &cells,
            opts,
            started.elapsed().as_secs_f64(),
            &curves,
        )?;
    }
    eprintln!("{}: wrote {}", exp.key, out.display());
    Ok(())
}

fn cv_args(datasets: &Path, set: &Set, algo: &Entry, opts: &TableArgs) -> Vec<String> {
    let (quick, full_grid) = (opts.quick, opts.full_grid);
    // The papers scale min-max to [-1, 1] (conventions section 1).
    let mut args: Vec<String> = [
        "cv", "--algo", &algo.name, "--json", "--seed", "0", "--scale", "minmax",
    ]
    .map(String::from)
    .to_vec();
    if opts.average {
        args.push("--average".to_owned());
    }
    args.extend(set.data_args(datasets));
    if let Some(t) = set.test {
        args.extend([
            "--test".to_owned(),
            datasets.join(format!("{t}.libsvm")).display().to_string(),
        ]);
    }
    if quick {
        args.extend(["--repeats", "1", "--folds", "3", "--inner-folds", "2"].map(String::from));
    }
    let grid = if full_grid {
        &algo.paper_grid
    } else {
        &algo.grid
    };
    for g in grid {
        let g = if quick {
            crate::grid::quick_axis(g)
        } else {
            g.clone()
        };
        args.extend(["--grid".to_owned(), g]);
    }
    args
}

/// Runs `auc` and returns its stdout lines (one per run, then the summary).
fn run_cv_lines(bin: &Path, args: &[String]) -> Result<Vec<String>, String> {
    let out = Command::new(bin)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "auc {} failed:\n{}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// The `params` object chosen most often over the run lines, as `NAME=VALUE` strings (ties:
/// the first in sorted order).
fn most_chosen(lines: &[String]) -> Vec<String> {
    let mut counts: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    for l in lines {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else {
            continue;
        };
        let Some(params) = v["params"].as_object() else {
            continue;
        };
        let kv: Vec<String> = params
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect();
        *counts.entry(kv).or_default() += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    counts
        .into_iter()
        .find(|(_, c)| *c == most)
        .map(|(kv, _)| kv)
        .unwrap_or_default()
}

#[allow(clippy::too_many_arguments)]
fn write_table(
    exp: &Experiment,
    root: &Path,
    bin: &Path,
    out: &Path,
    sets: &[&Set],
    algos: &[&Entry],
    cells: &BTreeMap<(&str, &str), Cell>,
    opts: &TableArgs,
    seconds: f64,
    curves: &str,
) -> Result<(), String> {
    let (quick, full_grid) = (opts.quick, opts.full_grid);
    let mut md = String::new();
    let opt = |flag: &str, v: &Option<String>| {
        v.as_ref()
            .map_or_else(String::new, |v| format!(" {flag} {v}"))
    };
    let flags = format!(
        "{}{}{}{}{}{}",
        if quick { " --quick" } else { "" },
        if full_grid { " --full-grid" } else { "" },
        if opts.average { " --average" } else { "" },
        opt("--algos", &opts.only),
        opt("--sets", &opts.sets),
        opt("--budget", &opts.budget),
    );
    let _ = writeln!(md, "# {}\n", exp.title);
    let _ = writeln!(
        md,
        "Produced by `cargo xtask reproduce {}{flags}` (rewritten after each data set; {} of {} data sets done, {:.0} s so far).",
        exp.key,
        sets.len(),
        exp.sets.len(),
        seconds
    );
    let protocol = if quick {
        "1 x stratified 3-fold, inner 2-fold, 3 values per grid axis".to_owned()
    } else if full_grid {
        "4 x stratified 5-fold (20 runs), inner 5-fold over the full grids of SPEC section 8"
            .to_owned()
    } else {
        exp.protocol.to_owned()
    };
    let protocol = match &opts.budget {
        Some(b) => format!(
            "{protocol}; **variant: every buffer's budget is {b} per class (`--budget {b}`), overriding the budget above**"
        ),
        None => protocol,
    };
    let _ = writeln!(
        md,
        "Protocol: {protocol}; features min-max scaled to [-1, 1] on each training part; every training part in a seeded random order; seed 0.{}{}",
        sets.iter()
            .filter_map(|s| s.test.map(|t| format!(
                " {} is trained on {} and tested on {t}, 4 runs.",
                s.name,
                s.files.join(" + ")
            )))
            .collect::<String>(),
        if opts.average {
            " Every learner scores with the average of its iterates (`--average`, SPEC section 5)."
        } else {
            ""
        }
    );
    let _ = writeln!(
        md,
        "Cells: our mean test AUC ± standard deviation (%), then the paper's figure and our difference in the paper's standard deviations (`Δ/σ`); `-` where the paper has no figure.\n"
    );
    let mut header = "| data set |".to_owned();
    let mut rule = "|---|".to_owned();
    for a in algos {
        header.push_str(&format!(" {} |", a.title));
        rule.push_str("---|");
    }
    let _ = writeln!(md, "{header}\n{rule}");
    for s in sets {
        let mut row = format!("| {} |", s.name);
        for a in algos {
            let Some(c) = cells.get(&(s.name, a.name.as_str())) else {
                row.push_str(" |");
                continue;
            };
            let papers: Vec<String> = exp
                .paper
                .iter()
                .filter(|p| p.0 == s.name && p.1 == a.title)
                .map(|p| {
                    format!(
                        "{}: {:.2} ± {:.2}, Δ/σ {:+.1}",
                        p.4,
                        p.2,
                        p.3,
                        (c.mean - p.2) / p.3
                    )
                })
                .collect();
            let paper = if papers.is_empty() {
                "-".to_owned()
            } else {
                papers.join("; ")
            };
            row.push_str(&format!(" {:.2} ± {:.2}<br>{paper} |", c.mean, c.std));
        }
        let _ = writeln!(md, "{row}");
    }
    let notes: Vec<String> = sets
        .iter()
        .filter(|s| !s.note.is_empty())
        .map(|s| format!("{}: {}", s.name, s.note))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(md, "\nNotes per data set: {}.", notes.join("; "));
    }
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "## Training time per run (seconds, mean over runs; whole CV wall time in brackets)\n"
    );
    let _ = writeln!(md, "{header}\n{rule}");
    for s in sets {
        let mut row = format!("| {} |", s.name);
        for a in algos {
            match cells.get(&(s.name, a.name.as_str())) {
                Some(c) => row.push_str(&format!(" {:.4} ({:.0}) |", c.train_seconds, c.wall)),
                None => row.push_str(" |"),
            }
        }
        let _ = writeln!(md, "{row}");
    }
    let _ = writeln!(md, "\n## Parameters chosen most often\n");
    let _ = writeln!(md, "{header}\n{rule}");
    for s in sets {
        let mut row = format!("| {} |", s.name);
        for a in algos {
            match cells.get(&(s.name, a.name.as_str())) {
                Some(c) => row.push_str(&format!(" {} |", c.params.join(" "))),
                None => row.push_str(" |"),
            }
        }
        let _ = writeln!(md, "{row}");
    }
    md.push_str(&friedman_section(root, bin, exp.key, sets, algos, cells)?);
    md.push_str(curves);
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_atomic(out, &md)
}

/// Average ranks and the Friedman test over the finished data sets, through `auc friedman`.
fn friedman_section(
    root: &Path,
    bin: &Path,
    key: &str,
    sets: &[&Set],
    algos: &[&Entry],
    cells: &BTreeMap<(&str, &str), Cell>,
) -> Result<String, String> {
    let mut csv = format!(
        "name,{}\n",
        algos
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut rows = 0;
    for s in sets {
        let vals: Option<Vec<f64>> = algos
            .iter()
            .map(|a| {
                cells
                    .get(&(s.name, a.name.as_str()))
                    .map(|c| c.mean)
                    .filter(|m| m.is_finite())
            })
            .collect();
        if let Some(v) = vals {
            let _ = writeln!(
                csv,
                "{},{}",
                s.name,
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            );
            rows += 1;
        }
    }
    if rows < 2 || algos.len() < 2 {
        return Ok(String::new());
    }
    let path: PathBuf = root.join(format!("target/{key}-ranks.csv"));
    std::fs::write(&path, csv).map_err(|e| format!("{}: {e}", path.display()))?;
    let out = Command::new(bin)
        .args(["friedman", path.to_str().unwrap_or_default()])
        .output()
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(format!(
        "\n## Average ranks and the Friedman test ({rows} data sets, by mean AUC; `auc friedman`)\n\n```\n{text}```\n"
    ))
}

/// Convergence curves (test AUC against examples seen) for [`CURVE_ALGOS`] on the finished
/// [`CURVE_SETS`], with each algorithm's most chosen parameters; writes `linear-curves.svg`.
fn curves_section(
    root: &Path,
    bin: &Path,
    datasets: &Path,
    done: &[&Set],
    algos: &[&Entry],
    cells: &BTreeMap<(&str, &str), Cell>,
) -> Result<String, String> {
    let mut panels: Vec<crate::plot::Panel> = Vec::new();
    for s in done.iter().filter(|s| CURVE_SETS.contains(&s.name)) {
        let mut lines = Vec::new();
        for algo in algos
            .iter()
            .filter(|a| CURVE_ALGOS.contains(&a.title.as_str()))
        {
            let a = algo.name.as_str();
            let Some(c) = cells.get(&(s.name, a)) else {
                continue;
            };
            let mut args: Vec<String> = [
                "curve", "--algo", a, "--json", "--every", "20", "--scale", "minmax",
            ]
            .map(String::from)
            .to_vec();
            args.extend(s.data_args(datasets));
            for p in &c.params {
                args.extend(["--param".to_owned(), p.clone()]);
            }
            let out = Command::new(bin)
                .args(&args)
                .output()
                .map_err(|e| e.to_string())?;
            let pts: Vec<(f64, f64)> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| Some((field(l, "updates")?, field(l, "auc")?)))
                .collect();
            lines.push((a.to_owned(), pts));
        }
        panels.push((s.name.to_owned(), lines));
    }
    if panels.is_empty() {
        return Ok(String::new());
    }
    let svg = crate::plot::panels(
        "Test AUC against examples seen (one held-out stratified fold of 5; most chosen parameters)",
        &panels,
        "examples seen",
    )?;
    let path = root.join("docs/results/linear-curves.svg");
    std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(
        "\n## Convergence curves ([ADM fig. 1])\n\n![convergence curves](linear-curves.svg)\n"
            .to_owned(),
    )
}
