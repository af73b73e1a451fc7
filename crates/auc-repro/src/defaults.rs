//! `defaults [--quick] [--family F[,G]] [--algos A,B] [--sets S,T] [--fresh] [--render]`: every
//! algorithm's default parameters chosen by measurement across the shared data sets of its
//! family's paper table (issue 12), written to `docs/results/defaults.md`.
//!
//! For every algorithm of the registry (`auc algos --json`) with a default grid, and every data
//! set of its family's table (`defaults/families.rs`; linear: the linear table's 19 sets; kernel:
//! the kernel table's 15, with its `--max-train 10000`; batch: the 14 of [CVM Table 1]; moments,
//! the batch learners fitted from merged class moments: the 15 of [OAUC Table 2]),
//! `auc cv --each --scale minmax` cross-validates
//! each grid point on its own (2 x stratified 5-fold, seed 0; `--quick`: 1 x 3-fold on the
//! tables' quick sets, 3 values per axis). The grid is the registry's default grid plus the
//! registry's current default value on each axis, and a power-of-2 axis is extended by two of
//! its steps past an end where the current default sits, then again (up to three times) while
//! the chosen point sits on an end.
//!
//! Each point's mean AUC per set is kept in `docs/results/defaults/FAMILY.tsv` (rewritten after
//! every `auc cv` call, and reused by the next run unless `--fresh` or the protocol changed), and
//! the page is rendered from every family's file, so one family can be measured again alone.
//! The rule that turns the measurements into a default is [`choose`]; the page states it.
//!
//! The files: this one measures (`run`, `sweep`, `measure`); `defaults/families.rs` lists the
//! families, `defaults/store.rs` keeps the measurements, `defaults/rule.rs` is the rule and
//! `defaults/page.rs` writes the page.

mod families;
mod page;
mod rule;
mod store;

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use families::{FAMILIES, Family};
use page::{default_key, render};
use rule::{Table, choose};
use store::{Cell, Store};

use crate::grid::{Axis, key_of_params, product};
use crate::registry::Entry;
use crate::sets::Set;
use crate::workspace::{root, shared_datasets};

/// Extension rounds after the first, while the chosen point sits on an end of a power axis.
const MAX_EXTENSIONS: usize = 3;

/// What to measure and render.
#[derive(clap::Args, Debug)]
pub struct DefaultsArgs {
    /// The CI smoke run: 1 x 3-fold on the tables' quick sets, 3 values per axis; writes
    /// target/defaults-quick/.
    #[arg(long)]
    pub quick: bool,
    /// Only these families (comma-separated: linear, kernel, batch, moments).
    #[arg(long, value_name = "F,G")]
    pub family: Option<String>,
    /// Only these algorithms (comma-separated registry names).
    #[arg(long, value_name = "A,B")]
    pub algos: Option<String>,
    /// Measure only these data sets now; the others keep their stored cells.
    #[arg(long, value_name = "S,T")]
    pub sets: Option<String>,
    /// Forget the stored cells of the algorithms and sets measured now, and measure them again.
    #[arg(long)]
    pub fresh: bool,
    /// Measure nothing: write the page from the stored measurements (after the `Default` impls
    /// change, so that it says which choices the registry holds).
    #[arg(long)]
    pub render: bool,
}

/// A comma-separated flag's items, trimmed.
fn list(v: &Option<String>) -> Option<Vec<String>> {
    v.as_ref()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect())
}

/// Measures what `args` asks with the `auc` binary `bin`, then renders the page.
pub(crate) fn run(args: &DefaultsArgs, bin: &Path) -> Result<(), String> {
    let (quick, fresh, render_only) = (args.quick, args.fresh, args.render);
    let families: Vec<&Family> = match list(&args.family) {
        None => FAMILIES.iter().collect(),
        Some(names) => names
            .iter()
            .map(|n| {
                FAMILIES.iter().find(|f| f.name == n).ok_or_else(|| {
                    format!(
                        "--family: unknown family `{n}` (known: linear, kernel, batch, moments)"
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let only = list(&args.algos);
    let only_sets = list(&args.sets);
    let root = root();
    let datasets = shared_datasets()?;
    let registry = crate::registry::read(bin)?;
    if let Some(only) = &only
        && let Some(bad) = only
            .iter()
            .find(|n| !registry.iter().any(|a| &a.name == *n))
    {
        return Err(format!("--algos: unknown algorithm `{bad}`"));
    }
    let dir = if quick {
        root.join("target/defaults-quick")
    } else {
        root.join("docs/results/defaults")
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let page = if quick {
        dir.join("defaults.md")
    } else {
        root.join("docs/results/defaults.md")
    };
    for fam in families.iter().filter(|_| !render_only) {
        let sets: Vec<&Set> = fam
            .exp
            .data_sets()?
            .into_iter()
            .filter(|s| !quick || fam.exp.quick_sets.contains(&s.name))
            .collect();
        // `--sets` measures only these sets now; the others keep their stored cells.
        let measured: Vec<&Set> = sets
            .iter()
            .copied()
            .filter(|s| {
                only_sets
                    .as_ref()
                    .is_none_or(|o| o.iter().any(|n| n == s.name))
            })
            .collect();
        let protocol = protocol_line(fam, quick);
        let path = dir.join(format!("{}.tsv", fam.name));
        let mut store = match Store::read(&path)? {
            Some(s) if s.protocol == protocol => s,
            Some(_) => {
                eprintln!(
                    "defaults: {} was measured with another protocol: measuring again",
                    path.display()
                );
                Store::new(protocol.clone(), &sets)
            }
            None => Store::new(protocol.clone(), &sets),
        };
        store.sets = sets.iter().map(|s| s.name.to_owned()).collect();
        for algo in registry.iter().filter(|a| a.measured_family() == fam.name) {
            if only.as_ref().is_some_and(|o| !o.contains(&algo.name)) || algo.grid.is_empty() {
                continue;
            }
            if fresh {
                // Forget this algorithm's cells on the sets measured now.
                for ((a, _), row) in &mut store.rows {
                    if *a == algo.name {
                        row.cells
                            .retain(|set, _| !measured.iter().any(|m| m.name == set));
                    }
                }
                store.rows.retain(|_, row| !row.cells.is_empty());
                store.failures.retain(|(a, set), _| {
                    *a != algo.name || !measured.iter().any(|m| m.name == set)
                });
                store.defaults.remove(&algo.name);
            }
            sweep(
                &Sweep {
                    bin,
                    datasets: &datasets,
                    fam,
                    sets: &measured,
                    quick,
                    path: &path,
                },
                algo,
                &mut store,
            )?;
        }
        store.write(&path)?;
    }
    let md = render(&root, &dir, &registry, quick)?;
    std::fs::write(&page, md).map_err(|e| format!("{}: {e}", page.display()))?;
    eprintln!("defaults: wrote {}", page.display());
    Ok(())
}

/// The protocol of a family's measurements, in words; stored with them, so that a changed
/// protocol is measured again rather than mixed.
fn protocol_line(fam: &Family, quick: bool) -> String {
    let mut p = if quick {
        "auc cv --each --scale minmax --seed 0 --repeats 1 --folds 3".to_owned()
    } else {
        "auc cv --each --scale minmax --seed 0 --repeats 2 --folds 5".to_owned()
    };
    for a in fam.exp.extra_args {
        p.push(' ');
        p.push_str(a);
    }
    p
}

/// What every `auc cv` call of a family shares.
struct Sweep<'a> {
    bin: &'a Path,
    datasets: &'a Path,
    fam: &'a Family,
    sets: &'a [&'a Set],
    quick: bool,
    path: &'a Path,
}

/// The axes an algorithm is measured on before any extension: its default grid (thinned for
/// `--quick`) with its current default on every axis, and the extension past an end where that
/// default sits.
fn first_axes(algo: &Entry, quick: bool) -> Result<Vec<Axis>, String> {
    let mut axes = Vec::new();
    for g in &algo.grid {
        let mut axis = Axis::parse(g)?;
        if quick {
            axis = axis.thin();
        }
        let (default, allowed) = algo
            .params
            .get(&axis.name)
            .ok_or_else(|| format!("{}: grid axis `{}` is no parameter", algo.name, axis.name))?;
        axis.insert(default);
        if let Some(tok) = axis.values.iter().find(|t| t.is(default)).cloned()
            && let Some(low) = axis.end_of(&tok)
        {
            let more = axis.beyond(low, allowed);
            for t in more {
                axis.insert(&serde_json::json!(2f64.powi(t.exp.unwrap_or(0))));
            }
        }
        axes.push(axis);
    }
    Ok(axes)
}

/// Measures one algorithm: the first axes, then extensions while the chosen point sits on an
/// end of a power axis.
fn sweep(sw: &Sweep<'_>, algo: &Entry, store: &mut Store) -> Result<(), String> {
    let mut axes = first_axes(algo, sw.quick)?;
    // The default these measurements are compared with: the registry's now, unless an earlier
    // run of the same protocol recorded the one it measured (`--fresh` forgets it).
    if let Some(key) = default_key(algo, &axes) {
        store.defaults.entry(algo.name.clone()).or_insert(key);
    }
    let mut block = axes.clone();
    for round in 0..=MAX_EXTENSIONS {
        measure(sw, algo, &block, &axes, store)?;
        let table = Table::of(store, &algo.name, &product(&axes), &store.sets.clone());
        let Some(choice) = choose(&table, &table.usable_sets()) else {
            return Ok(());
        };
        if round == MAX_EXTENSIONS {
            break;
        }
        // Extend the first axis whose end the chosen point sits on.
        let chosen = &table.points[choice.index];
        let mut next = None;
        for (i, a) in axes.iter().enumerate() {
            let tok = chosen
                .split(' ')
                .find_map(|kv| kv.strip_prefix(&format!("{}=", a.name)))
                .and_then(|t| a.values.iter().find(|v| v.text == t));
            if let Some(low) = tok.and_then(|t| a.end_of(t)) {
                let allowed = algo.params.get(&a.name).map_or("", |p| p.1.as_str());
                let more = a.beyond(low, allowed);
                if !more.is_empty() {
                    next = Some((i, more));
                    break;
                }
            }
        }
        let Some((i, more)) = next else { break };
        eprintln!(
            "defaults: {} chose {chosen}, on an end of {}: extending it by {}",
            algo.name,
            axes[i].name,
            more.iter()
                .map(|t| t.text.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
        block = axes.clone();
        block[i].values.clone_from(&more);
        for t in more {
            axes[i].insert(&serde_json::json!(2f64.powi(t.exp.unwrap_or(0))));
        }
    }
    Ok(())
}

/// Runs `auc cv --each` over the points of `block` on every set where one of them is missing,
/// recording each point under its key on `axes`.
fn measure(
    sw: &Sweep<'_>,
    algo: &Entry,
    block: &[Axis],
    axes: &[Axis],
    store: &mut Store,
) -> Result<(), String> {
    let points = product(block);
    for set in sw.sets {
        if points
            .iter()
            .all(|p| store.cell(&algo.name, p, set.name).is_some())
        {
            continue;
        }
        let mut args: Vec<String> = [
            "cv", "--each", "--json", "--algo", &algo.name, "--seed", "0", "--scale", "minmax",
        ]
        .map(String::from)
        .to_vec();
        let (repeats, folds) = if sw.quick { ("1", "3") } else { ("2", "5") };
        args.extend(["--repeats", repeats, "--folds", folds].map(String::from));
        args.extend(sw.fam.exp.extra_args.iter().map(|a| (*a).to_owned()));
        args.extend(set.data_args(sw.datasets));
        if let Some(t) = set.test {
            args.extend([
                "--test".to_owned(),
                sw.datasets
                    .join(format!("{t}.libsvm"))
                    .display()
                    .to_string(),
            ]);
        }
        for a in block {
            args.extend(["--grid".to_owned(), a.arg()]);
        }
        let t0 = Instant::now();
        let out = Command::new(sw.bin)
            .args(&args)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", sw.bin.display()))?;
        let wall = t0.elapsed().as_secs_f64();
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let why = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("failed")
                .to_owned();
            eprintln!(
                "defaults: {} on {}: auc cv failed ({why}), {} points marked failed",
                algo.name,
                set.name,
                points.len()
            );
            for p in &points {
                let row = store
                    .rows
                    .entry((algo.name.clone(), p.clone()))
                    .or_default();
                row.cells.insert(set.name.to_owned(), Cell::Fail);
            }
            store
                .failures
                .insert((algo.name.clone(), set.name.to_owned()), why);
        } else {
            let mut got = 0;
            for line in String::from_utf8_lossy(&out.stdout).lines() {
                let v: serde_json::Value = serde_json::from_str(line)
                    .map_err(|e| format!("auc cv --each printed a non-JSON line ({e}): {line}"))?;
                let key = key_of_params(axes, &v["params"]).ok_or_else(|| {
                    format!("{}: a point outside the grid: {}", algo.name, v["params"])
                })?;
                let mean = v["auc_mean"]
                    .as_f64()
                    .ok_or_else(|| format!("no auc_mean in {line}"))?;
                let diverged = v["diverged"].as_bool().unwrap_or(false)
                    || v["diverged_runs"].as_u64().unwrap_or(0) > 0;
                let row = store.rows.entry((algo.name.clone(), key)).or_default();
                row.cells
                    .insert(set.name.to_owned(), Cell::Auc { mean, diverged });
                row.seconds += v["wall_seconds"].as_f64().unwrap_or(0.0);
                got += 1;
            }
            if got != points.len() {
                return Err(format!(
                    "{} on {}: {got} summaries for {} points",
                    algo.name,
                    set.name,
                    points.len()
                ));
            }
            store
                .failures
                .remove(&(algo.name.clone(), set.name.to_owned()));
        }
        eprintln!(
            "defaults: {} on {}: {} points ({wall:.0} s)",
            algo.name,
            set.name,
            points.len()
        );
        store.write(sw.path)?;
    }
    Ok(())
}
