//! The defaults' page, `docs/results/defaults.md`, rendered from every family's stored
//! measurements: the rule ([`RULE`]), a summary row per algorithm and a section per algorithm
//! with its axes, its choice and the per-set table beside the committed nested-CV figures.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::families::FAMILIES;
use super::rule::{Choice, Table, choose, loso, median, ranks};
use super::store::{Cell, Store};
use crate::grid::{Axis, Token, key_of_params, product};
use crate::registry::Entry;

/// The nested-CV mean AUC (%) per (data set, column title) of a committed reproduction table:
/// its first Markdown table, whose cells start with `mean ± std`.
fn tuned_figures(path: &Path) -> BTreeMap<(String, String), f64> {
    let mut out = BTreeMap::new();
    let Ok(text) = std::fs::read_to_string(path) else {
        return out;
    };
    let mut header: Option<Vec<String>> = None;
    for line in text.lines() {
        let cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect();
        match &header {
            None if line.starts_with("| data set |") => header = Some(cells),
            None => {}
            Some(_) if !line.starts_with('|') => break,
            Some(h) => {
                for (title, cell) in h.iter().zip(&cells).skip(1) {
                    if let Some(v) = cell
                        .split_whitespace()
                        .next()
                        .and_then(|n| n.parse::<f64>().ok())
                    {
                        out.insert((cells[0].clone(), title.clone()), v);
                    }
                }
            }
        }
    }
    out
}

/// `c=2^-10 lambda=0.5` as shown on the page: unchanged, with code marks.
fn show(point: &str) -> String {
    format!("`{point}`")
}

/// The registry default of `algo` as a point key on `axes`, if every axis has its value.
pub(crate) fn default_key(algo: &Entry, axes: &[Axis]) -> Option<String> {
    key_of_params(
        axes,
        &serde_json::Value::Object(
            algo.params
                .iter()
                .map(|(k, (v, _))| (k.clone(), v.clone()))
                .collect(),
        ),
    )
}

/// The axes an algorithm's stored rows span: each axis's tokens as they appear in the keys,
/// sorted by value.
fn stored_axes(store: &Store, algo: &str) -> Vec<Axis> {
    let mut axes: Vec<Axis> = Vec::new();
    for (a, point) in store.rows.keys() {
        if a != algo {
            continue;
        }
        for kv in point.split(' ') {
            let Some((name, tok)) = kv.split_once('=') else {
                continue;
            };
            let token = match tok.strip_prefix("2^").and_then(|e| e.parse().ok()) {
                Some(k) => Token::power(k),
                None => Token::plain(tok),
            };
            match axes.iter_mut().find(|x| x.name == name) {
                Some(x) if !x.values.contains(&token) => x.values.push(token),
                Some(_) => {}
                None => axes.push(Axis {
                    name: name.to_owned(),
                    step: token.exp.map(|_| 1),
                    values: vec![token],
                }),
            }
        }
    }
    for a in &mut axes {
        // By value, so that a list of 0 and powers (bal-adagrad's lambda) sorts as numbers.
        a.values.sort_by(|x, y| {
            x.value()
                .unwrap_or(f64::NAN)
                .total_cmp(&y.value().unwrap_or(f64::NAN))
        });
    }
    axes
}

fn pct(v: f64) -> String {
    if v.is_finite() {
        format!("{:.2}", 100.0 * v)
    } else {
        "-".to_owned()
    }
}

/// Everything the page says about one algorithm.
struct Outcome {
    points: Vec<String>,
    axes: Vec<Axis>,
    table: Table,
    usable: Vec<bool>,
    choice: Choice,
    /// `(held-out set, its choice, regret)`.
    loso: Vec<(usize, usize, f64)>,
    /// The registry default's point, if measured.
    prev: Option<usize>,
    seconds: f64,
    /// Nested-CV mean AUC (%) per set, from the committed reproduction table.
    tuned: Vec<Option<f64>>,
}

impl Outcome {
    fn of(
        store: &Store,
        algo: &Entry,
        tuned: &BTreeMap<(String, String), f64>,
    ) -> Result<Self, String> {
        let axes = stored_axes(store, &algo.name);
        let points: Vec<String> = product(&axes)
            .into_iter()
            .filter(|p| store.rows.contains_key(&(algo.name.clone(), p.clone())))
            .collect();
        let table = Table::of(store, &algo.name, &points, &store.sets);
        let usable = table.usable_sets();
        let choice = choose(&table, &usable).ok_or_else(|| {
            format!(
                "no point measured cleanly on every set ({} points)",
                points.len()
            )
        })?;
        let seconds = points
            .iter()
            .filter_map(|p| store.rows.get(&(algo.name.clone(), p.clone())))
            .map(|r| r.seconds)
            .sum();
        let prev_key = store
            .defaults
            .get(&algo.name)
            .cloned()
            .or_else(|| default_key(algo, &axes));
        let prev = prev_key.and_then(|k| points.iter().position(|p| *p == k));
        let tuned = table
            .sets
            .iter()
            .map(|s| tuned.get(&(s.clone(), algo.title.clone())).copied())
            .collect();
        Ok(Outcome {
            loso: loso(&table),
            points,
            axes,
            usable,
            choice,
            prev,
            seconds,
            tuned,
            table,
        })
    }

    /// The usable sets' indices.
    fn sets(&self) -> Vec<usize> {
        (0..self.table.sets.len())
            .filter(|&s| self.usable[s])
            .collect()
    }

    /// Point `i`'s gap to the best point on each usable set (AUC units).
    fn regrets(&self, i: usize) -> Vec<(usize, f64)> {
        let all: Vec<usize> = (0..self.points.len()).collect();
        self.sets()
            .into_iter()
            .map(|s| {
                let best = self.table.best(s, &all).map_or(f64::NAN, |b| b.1);
                (s, best - self.table.auc(i, s).unwrap_or(f64::NAN))
            })
            .collect()
    }

    /// Point `i`'s mean AUC over the usable sets, whether or not it diverged.
    fn mean_auc(&self, i: usize) -> f64 {
        let sets = self.sets();
        sets.iter()
            .map(|&s| self.table.auc(i, s).unwrap_or(f64::NAN))
            .sum::<f64>()
            / sets.len() as f64
    }

    /// Point `i`'s mean rank among the eligible points, if it is one of them.
    fn mean_rank(&self, i: usize) -> Option<f64> {
        let eligible = &self.choice.eligible;
        let k = eligible.iter().position(|&e| e == i)?;
        let sets = self.sets();
        let sum: f64 = sets
            .iter()
            .map(|&s| {
                let vals: Vec<f64> = eligible
                    .iter()
                    .map(|&e| self.table.clean(e, s).unwrap_or(f64::NAN))
                    .collect();
                ranks(&vals)[k]
            })
            .sum();
        Some(sum / sets.len() as f64)
    }

    /// Sets on which point `i` diverged.
    fn diverged(&self, i: usize) -> usize {
        self.sets()
            .into_iter()
            .filter(|&s| {
                matches!(
                    self.table.cells[i][s],
                    Some(Cell::Auc { diverged: true, .. })
                )
            })
            .count()
    }

    /// `median / worst (set)` of `(set, regret)` pairs, in AUC points.
    fn regret_text(&self, regrets: &[(usize, f64)]) -> String {
        let vals: Vec<f64> = regrets.iter().map(|r| r.1).collect();
        let worst = regrets
            .iter()
            .filter(|r| r.1.is_finite())
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match worst {
            Some((s, w)) => format!(
                "{:.2} / {:.2} ({})",
                100.0 * median(&vals),
                100.0 * w,
                self.table.sets[*s]
            ),
            None => "-".to_owned(),
        }
    }

    /// One row of the summary table.
    fn summary_row(&self, family: &str, algo: &Entry) -> String {
        let c = &self.choice;
        let beaten = match c.most_beaten {
            (k, Some(j)) => format!("{k} of {} ({})", c.sets, show(&self.points[j])),
            (_, None) => "-".to_owned(),
        };
        let loso: Vec<(usize, f64)> = self.loso.iter().map(|r| (r.0, r.2)).collect();
        let (prev, prev_fig, prev_regret) = match self.prev {
            Some(i) => {
                let diverged = self.diverged(i);
                (
                    if diverged > 0 {
                        format!("{} (diverged on {diverged} sets)", show(&self.points[i]))
                    } else {
                        show(&self.points[i])
                    },
                    format!(
                        "{}, {}",
                        pct(self.mean_auc(i)),
                        self.mean_rank(i)
                            .map_or_else(|| "not eligible".to_owned(), |r| format!("{r:.1}"))
                    ),
                    self.regret_text(&self.regrets(i)),
                )
            }
            None => (
                default_key(algo, &self.axes).unwrap_or_else(|| "off the grid".to_owned()),
                "-".to_owned(),
                "-".to_owned(),
            ),
        };
        let sets = self.sets();
        let tuned: Vec<f64> = sets.iter().filter_map(|&s| self.tuned[s]).collect();
        let tuned = if tuned.len() == sets.len() {
            format!("{:.2}", tuned.iter().sum::<f64>() / tuned.len() as f64)
        } else {
            "-".to_owned()
        };
        // Whether the registry holds the choice now (after the `Default` impls were set).
        let chosen = &self.points[c.index];
        let now = match default_key(algo, &self.axes) {
            Some(k) if k == *chosen => format!("{} (in the registry)", show(chosen)),
            // A choice from part of the family's sets is no default's evidence: say so, so that
            // a registry value that differs from it is not read as a default the table beats.
            Some(k) if sets.len() < self.table.sets.len() => format!(
                "{} (only {} of {} sets measured: not adopted; registry now: {})",
                show(chosen),
                sets.len(),
                self.table.sets.len(),
                show(&k)
            ),
            Some(k) => format!("{} (registry now: {})", show(chosen), show(&k)),
            None => format!("{} (registry now: off the grid)", show(chosen)),
        };
        format!(
            "| {family} | {} | {} x {} | {now} | {} | {:.1} of {} | {beaten} | {} | {prev} | {prev_fig} | {prev_regret} | {tuned} | {:.0} |",
            algo.title,
            self.points.len(),
            sets.len(),
            pct(c.mean_auc),
            c.mean_rank,
            c.eligible.len(),
            self.regret_text(&loso),
            self.seconds
        )
    }

    /// The section of one algorithm: axes, choice and the per-set table.
    fn details(&self, store: &Store, algo: &Entry) -> String {
        let t = &self.table;
        let c = &self.choice;
        let mut md = String::new();
        let axes: Vec<String> = self
            .axes
            .iter()
            .map(|a| {
                let v: Vec<&str> = a.values.iter().map(|t| t.text.as_str()).collect();
                format!("{} in {{{}}}", a.name, v.join(", "))
            })
            .collect();
        let left_out: Vec<String> = (0..t.sets.len())
            .filter(|&s| !self.usable[s])
            .map(|s| {
                let measured = t.cells.iter().any(|r| r[s].is_some());
                let why = store
                    .failures
                    .get(&(algo.name.clone(), t.sets[s].clone()))
                    .map_or(
                        if measured {
                            "no clean point"
                        } else {
                            "not measured"
                        },
                        String::as_str,
                    );
                format!("{} left out ({why})", t.sets[s])
            })
            .collect();
        let _ = writeln!(
            md,
            "### {} (`{}`)\n\nAxes measured: {}. {} points, {} of them clean (no failure, no diverged run) on every set{}.\nChosen: {}, mean rank {:.1}, mean AUC {}.{}\n",
            algo.title,
            algo.name,
            axes.join("; "),
            self.points.len(),
            c.eligible.len(),
            if left_out.is_empty() {
                String::new()
            } else {
                format!(
                    "; ranked over {} sets: {}",
                    self.sets().len(),
                    left_out.join(", ")
                )
            },
            show(&self.points[c.index]),
            c.mean_rank,
            pct(c.mean_auc),
            if c.cycle {
                " Every point is beaten on two thirds of the sets by another, so rule 2 was dropped."
            } else {
                ""
            }
        );
        let _ = writeln!(
            md,
            "| set | best point | its AUC | chosen | LOSO choice | its AUC | regret | registry default | nested CV |\n|---|---|---|---|---|---|---|---|---|"
        );
        let all: Vec<usize> = (0..self.points.len()).collect();
        let dash = || "-".to_owned();
        for s in 0..t.sets.len() {
            let best = t.best(s, &all);
            let lo = self.loso.iter().find(|r| r.0 == s);
            let cell = |i: usize| match t.cells[i][s] {
                Some(Cell::Auc { mean, diverged }) => {
                    format!("{}{}", pct(mean), if diverged { " (diverged)" } else { "" })
                }
                Some(Cell::Fail) => "failed".to_owned(),
                None => dash(),
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                t.sets[s],
                best.map_or_else(dash, |b| show(&self.points[b.0])),
                best.map_or_else(dash, |b| pct(b.1)),
                cell(c.index),
                lo.map_or_else(dash, |r| show(&self.points[r.1])),
                lo.map_or_else(dash, |r| cell(r.1)),
                lo.map_or_else(dash, |r| format!("{:.2}", 100.0 * r.2)),
                self.prev.map_or_else(dash, cell),
                self.tuned[s].map_or_else(dash, |v| format!("{v:.2}")),
            );
        }
        md.push('\n');
        md
    }
}

/// Renders the page from every family's stored measurements.
pub(crate) fn render(
    root: &Path,
    dir: &Path,
    registry: &[Entry],
    quick: bool,
) -> Result<String, String> {
    let mut md = String::new();
    let _ = writeln!(md, "# Defaults chosen by measurement\n");
    let _ = writeln!(
        md,
        "Produced by `cargo xtask reproduce defaults{}` from the measurements in `{}` (one file per family, committed; a rerun reuses them, `--fresh` measures again, `--family F`, `--algos A,B` and `--sets S,T` measure part of them). Issue 12: every parameter has a default, chosen by measurement across all shared data sets of its family's paper table, never tuned to one set.\n",
        if quick { " --quick" } else { "" },
        dir.strip_prefix(root).unwrap_or(dir).display()
    );
    md.push_str(RULE);
    let mut summary = String::from(
        "## Summary\n\nAUCs in %, means over the sets; regrets in AUC points, `median / worst (set)`. \"Beaten\": the most sets on which one other point has a higher mean AUC than the chosen one. \"Registry default when measured\": the value `auc algos` gave when these measurements were made, with its mean AUC, mean rank and (in-sample) regret. \"Nested CV\": the mean over the same sets of the committed reproduction table, where every run chooses its parameters by an inner 5-fold CV over the default grid (4 x 5-fold; its first 10 runs have this page's splits and training orders). \"Seconds\": wall time of the measurements.\n\n| family | algorithm | points x sets | chosen default | mean AUC | mean rank | beaten | LOSO regret | registry default when measured | its mean AUC, rank | its regret | nested CV | seconds |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut details = String::new();
    for fam in FAMILIES {
        let path = dir.join(format!("{}.tsv", fam.name));
        let Some(store) = Store::read(&path)? else {
            continue;
        };
        let tuned = fam
            .tuned
            .map(|f| tuned_figures(&root.join("docs/results").join(f)))
            .unwrap_or_default();
        let _ = writeln!(
            details,
            "## The {} family\n\nProtocol: `{}`, on {} data sets: {}.\n",
            fam.name,
            store.protocol,
            store.sets.len(),
            store.sets.join(", ")
        );
        for algo in registry.iter().filter(|a| a.measured_family() == fam.name) {
            if algo.grid.is_empty() {
                let _ = writeln!(
                    summary,
                    "| {} | {} | no parameters | | | | | | | | | | |",
                    fam.name, algo.title
                );
                continue;
            }
            if !store.rows.keys().any(|(a, _)| *a == algo.name) {
                continue;
            }
            match Outcome::of(&store, algo, &tuned) {
                Ok(o) => {
                    let _ = writeln!(summary, "{}", o.summary_row(fam.name, algo));
                    details.push_str(&o.details(&store, algo));
                }
                Err(why) => {
                    let _ = writeln!(
                        summary,
                        "| {} | {} | {why} | | | | | | | | | | |",
                        fam.name, algo.title
                    );
                }
            }
        }
    }
    md.push_str(&summary);
    md.push('\n');
    md.push_str(&details);
    Ok(md)
}

/// The rule and protocol, as the page states them (the same as [`choose`] and [`loso`]).
pub(crate) const RULE: &str = "## The rule (fixed before the measurements)

Measurements: `auc cv --each --scale minmax` cross-validates every grid point on its own with the same splits for every point (seed 0), on every data set of the family's paper table; each point's mean test AUC per set is recorded, and whether any of its runs diverged (the `diverged` field of the JSON records).
The grid is the registry's default grid (`auc algos`), plus the registry's default value on each axis where it is missing. A power-of-2 axis is extended by two of its steps past an end where the registry default sits (the previous choices sat on grid edges, e.g. OAM's C = 2^-10), then by two more steps, up to three times, while the chosen point sits on an end; extensions stay inside the parameter's allowed range. List axes (AdmOAM's beta1, beta2; SOLAM's R; GAM-CVM's C1, n_loc) are not extended.

The default of an algorithm is the point that
1. has a clean measurement (no failure, no diverged run) on every set; a set on which every point failed (e.g. AUCSVM refusing more than 2,000,000 pairs) is left out and named;
2. is not beaten, that is has a lower mean AUC than one other point, on two thirds of the sets or more (a clear majority), unless every point is (then this condition is dropped, and the page says so);
3. has the best mean rank across the sets among those points, where on each set the eligible points are ranked by mean AUC (1 = best, ties share their mean rank); ties go to the higher mean AUC, then to the earlier grid point.

Leave-one-set-out (LOSO) validation: for each set, the rule is applied to the other sets, and the regret is the held-out set's best mean AUC over all points minus the AUC of that choice there (in AUC points). Its median and worst case say how far from the best fixed point a default chosen without a set can fall on it; the registry default's regret is the same gap for the value the registry held when the measurements were made (in-sample). The nested-CV figure is the committed reproduction table's, which chooses parameters per run with the test fold hidden.

";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuned_figures_are_read_from_the_first_table() {
        let dir = std::env::temp_dir().join(format!("auc-repro-tuned-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.md");
        std::fs::write(
            &path,
            "# T\n\n| data set | PA-I | OAM-seq |\n|---|---|---|\n| heart | 89.53 ± 3.82<br>OAUC: 90.76 | 90.74 ± 3.26<br>- |\n\n| data set | PA-I |\n|---|---|\n| heart | 0.1 (0) |\n",
        )
        .unwrap();
        let t = tuned_figures(&path);
        assert_eq!(t.get(&("heart".into(), "PA-I".into())), Some(&89.53));
        assert_eq!(t.get(&("heart".into(), "OAM-seq".into())), Some(&90.74));
        assert_eq!(t.len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
