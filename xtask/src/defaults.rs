//! `cargo xtask reproduce defaults [--quick] [--family F[,G]] [--algos A,B] [--sets S,T] [--fresh] [--render]`: every
//! algorithm's default parameters chosen by measurement across the shared data sets of its
//! family's paper table (issue 12), written to `docs/results/defaults.md`.
//!
//! For every algorithm of the registry (`auc algos --json`) with a default grid, and every data
//! set of its family's table (linear: `linear.rs`'s 19 sets; kernel: `kernel.rs`'s 15, with its
//! `--max-train 10000`; batch: `cvm.rs`'s 14; moments, the batch learners fitted from merged
//! class moments: `batch.rs`'s 15 of [OAUC Table 2]), `auc cv --each --scale minmax` cross-validates
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

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::linear::{Experiment, Set, data_args};
use crate::project_root;

/// A family of the registry, the table whose data sets it is measured on, and the committed page
/// whose nested-CV figures the defaults are compared with.
struct Family {
    name: &'static str,
    exp: &'static Experiment,
    tuned: Option<&'static str>,
}

const FAMILIES: &[Family] = &[
    Family {
        name: "linear",
        exp: &crate::linear::LINEAR,
        tuned: Some("linear.md"),
    },
    Family {
        name: "kernel",
        exp: &crate::kernel::KERNEL,
        tuned: Some("kernel.md"),
    },
    Family {
        name: "batch",
        exp: &crate::cvm::BATCH,
        tuned: None,
    },
    // The batch learners fitted from merged class moments are measured on [OAUC Table 2]'s
    // sets beside their online forms, not on the CVM table's: `auc algos --json` marks them
    // `from_moments`, and `read_registry` files them under this family.
    Family {
        name: "moments",
        exp: &crate::batch::BATCH,
        tuned: Some("batch.md"),
    },
];

/// A point beats another on a set when its mean AUC there is higher; a default must not be
/// beaten by one other point on this share of the sets or more (a "clear majority").
const CLEAR_MAJORITY: f64 = 2.0 / 3.0;
/// Extension rounds after the first, while the chosen point sits on an end of a power axis.
const MAX_EXTENSIONS: usize = 3;
/// Exponents of extended power axes stay within `2^-40 ..= 2^40`.
const MAX_EXPONENT: i32 = 40;

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let fresh = args.iter().any(|a| a == "--fresh");
    // `--render`: measure nothing, write the page from the stored measurements (after the
    // `Default` impls change, so that it says which choices the registry holds).
    let render_only = args.iter().any(|a| a == "--render");
    let value = |flag: &str| -> Option<Vec<String>> {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect())
    };
    let families: Vec<&Family> = match value("--family") {
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
    let only = value("--algos");
    let only_sets = value("--sets");
    let root = project_root();
    let (datasets, bin) = crate::reproduce::release_auc()?;
    let registry = read_registry(&bin)?;
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
        for algo in registry.iter().filter(|a| a.family == fam.name) {
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
                    bin: &bin,
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

// ---------------------------------------------------------------------------------------------
// The registry

/// What the page needs of one algorithm of `auc algos --json`.
struct AlgoInfo {
    name: String,
    title: String,
    family: String,
    grid: Vec<String>,
    /// Default value and allowed set (in words) per parameter name.
    params: BTreeMap<String, (serde_json::Value, String)>,
}

fn read_registry(bin: &Path) -> Result<Vec<AlgoInfo>, String> {
    let out = Command::new(bin)
        .args(["algos", "--json"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let all: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("`auc algos --json` is not JSON: {e}"))?;
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    Ok(all
        .as_array()
        .ok_or("`auc algos --json` is not a list")?
        .iter()
        .map(|a| AlgoInfo {
            name: text(&a["name"]),
            title: text(&a["title"]),
            family: if a["from_moments"] == true {
                "moments".to_owned()
            } else {
                text(&a["family"])
            },
            grid: a["grid"]
                .as_array()
                .map(|g| g.iter().map(text).collect())
                .unwrap_or_default(),
            params: a["params"]
                .as_array()
                .map(|ps| {
                    ps.iter()
                        .map(|p| {
                            (
                                text(&p["name"]),
                                (p["default"].clone(), text(&p["allowed"])),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect())
}

// ---------------------------------------------------------------------------------------------
// Grid axes

/// One value of an axis, as passed to `--grid NAME=v1,v2`: `2^k` for powers of two on a power
/// axis, else the number or word as written.
#[derive(Clone, Debug, PartialEq)]
struct Token {
    text: String,
    /// The exponent, for `2^k`.
    exp: Option<i32>,
}

impl Token {
    fn power(k: i32) -> Self {
        Token {
            text: format!("2^{k}"),
            exp: Some(k),
        }
    }

    fn plain(text: &str) -> Self {
        Token {
            text: text.to_owned(),
            exp: None,
        }
    }

    /// Whether this token stands for the JSON value `v`.
    fn is(&self, v: &serde_json::Value) -> bool {
        match (self.exp, v) {
            (Some(k), serde_json::Value::Number(n)) => n.as_f64() == Some(2f64.powi(k)),
            (None, serde_json::Value::Number(n)) => {
                self.text.parse::<f64>().ok().is_some() && n.as_f64() == self.text.parse().ok()
            }
            (None, serde_json::Value::Bool(b)) => self.text == b.to_string(),
            (None, serde_json::Value::String(s)) => &self.text == s,
            _ => false,
        }
    }

    /// The token for a default value `v` on an axis (`power`: a power-of-2 axis).
    fn of(v: &serde_json::Value, power: bool) -> Option<Self> {
        match v {
            serde_json::Value::Number(n) => {
                let x = n.as_f64()?;
                let k = x.log2().round();
                if power && x > 0.0 && 2f64.powi(k as i32).to_bits() == x.to_bits() {
                    Some(Token::power(k as i32))
                } else {
                    Some(Token::plain(&x.to_string()))
                }
            }
            serde_json::Value::Bool(b) => Some(Token::plain(&b.to_string())),
            serde_json::Value::String(s) => Some(Token::plain(s)),
            _ => None,
        }
    }
}

/// One grid axis: a parameter and its values; `step` for an axis of powers of 2 (`2^a..2^b:s`).
#[derive(Clone, Debug, PartialEq)]
struct Axis {
    name: String,
    values: Vec<Token>,
    step: Option<i32>,
}

impl Axis {
    /// Reads a `--grid` axis of the registry: `NAME=2^a..2^b[:s]` or `NAME=v1,v2,..`.
    fn parse(arg: &str) -> Result<Self, String> {
        let (name, spec) = arg
            .split_once('=')
            .ok_or_else(|| format!("grid axis `{arg}` has no `=`"))?;
        let bad = || format!("grid axis `{arg}` is not `2^a..2^b[:s]` or a list");
        if let Some((range, step)) = spec
            .split_once(':')
            .map(|(r, s)| (r, Some(s)))
            .or(Some((spec, None)))
            .filter(|(r, _)| r.contains(".."))
        {
            let (a, b) = range.split_once("..").ok_or_else(bad)?;
            let exp = |t: &str| -> Result<i32, String> {
                t.strip_prefix("2^")
                    .and_then(|e| e.parse().ok())
                    .ok_or_else(bad)
            };
            let (a, b) = (exp(a)?, exp(b)?);
            let step: i32 = match step {
                Some(s) => s.parse().map_err(|_| bad())?,
                None => 1,
            };
            if step < 1 || a > b {
                return Err(bad());
            }
            let values = (0..)
                .map(|i| a + i * step)
                .take_while(|e| *e <= b)
                .map(Token::power)
                .collect();
            return Ok(Axis {
                name: name.to_owned(),
                values,
                step: Some(step),
            });
        }
        Ok(Axis {
            name: name.to_owned(),
            values: spec.split(',').map(|t| Token::plain(t.trim())).collect(),
            step: None,
        })
    }

    /// The `--grid` argument for these values.
    fn arg(&self) -> String {
        let vals: Vec<&str> = self.values.iter().map(|t| t.text.as_str()).collect();
        format!("{}={}", self.name, vals.join(","))
    }

    /// Three values (the ends and the middle), for `--quick`.
    fn thin(&self) -> Self {
        let n = self.values.len();
        let mut values: Vec<Token> = Vec::new();
        for i in [0, n / 2, n.saturating_sub(1)] {
            if let Some(v) = self.values.get(i)
                && !values.contains(v)
            {
                values.push(v.clone());
            }
        }
        Axis {
            values,
            ..self.clone()
        }
    }

    /// Adds the value `v` (the registry default) unless the axis has it; powers stay sorted.
    fn insert(&mut self, v: &serde_json::Value) {
        if self.values.iter().any(|t| t.is(v)) {
            return;
        }
        let Some(tok) = Token::of(v, self.step.is_some()) else {
            return;
        };
        match tok.exp {
            Some(k) => {
                let at = self
                    .values
                    .iter()
                    .position(|t| t.exp.is_some_and(|e| e > k))
                    .unwrap_or(self.values.len());
                self.values.insert(at, tok);
            }
            None => self.values.push(tok),
        }
    }

    /// The smallest and largest exponent of a power axis.
    fn ends(&self) -> Option<(i32, i32)> {
        let exps = self.values.iter().filter_map(|t| t.exp);
        Some((exps.clone().min()?, exps.max()?))
    }

    /// The tokens two steps past the end at `low` (or the high end), within `allowed` (the
    /// spec's range in words) and `2^±MAX_EXPONENT`; empty for a list axis.
    fn beyond(&self, low: bool, allowed: &str) -> Vec<Token> {
        let (Some(step), Some((lo, hi))) = (self.step, self.ends()) else {
            return Vec::new();
        };
        let upper_one_open = allowed.contains("1)");
        let upper_one_closed = allowed.contains("1]");
        (1..=2)
            .map(|i| if low { lo - i * step } else { hi + i * step })
            .filter(|k| k.abs() <= MAX_EXPONENT)
            .filter(|&k| !(upper_one_open && k >= 0 || upper_one_closed && k > 0))
            .map(Token::power)
            .collect()
    }

    /// Whether `tok` is the lowest (`Some(true)`) or highest (`Some(false)`) power of the axis.
    fn end_of(&self, tok: &Token) -> Option<bool> {
        let (lo, hi) = self.ends()?;
        match tok.exp? {
            k if k == lo => Some(true),
            k if k == hi => Some(false),
            _ => None,
        }
    }
}

/// The key of a point: `name=token` for every axis, in axis order.
fn key_of(axes: &[Axis], point: &[&Token]) -> String {
    axes.iter()
        .zip(point)
        .map(|(a, t)| format!("{}={}", a.name, t.text))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every point of the product of `axes`, as keys, first axis slowest.
fn product(axes: &[Axis]) -> Vec<String> {
    let mut points: Vec<Vec<&Token>> = vec![Vec::new()];
    for a in axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                a.values.iter().map(move |t| {
                    let mut q = p.clone();
                    q.push(t);
                    q
                })
            })
            .collect();
    }
    points.iter().map(|p| key_of(axes, p)).collect()
}

/// The key of the point a JSON `params` object holds, if every axis has a token for it.
fn key_of_params(axes: &[Axis], params: &serde_json::Value) -> Option<String> {
    let toks: Option<Vec<&Token>> = axes
        .iter()
        .map(|a| a.values.iter().find(|t| t.is(&params[&a.name])))
        .collect();
    Some(key_of(axes, &toks?))
}

// ---------------------------------------------------------------------------------------------
// Measurements

/// One point's result on one set.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cell {
    /// Mean test AUC and whether a run diverged (`auc_core::Scorer::divergence`).
    Auc { mean: f64, diverged: bool },
    /// `auc cv` failed for this point on this set (the reason is in [`Store::failures`]).
    Fail,
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Auc { mean, diverged } => {
                format!("{mean:.6}{}", if *diverged { "!" } else { "" })
            }
            Cell::Fail => "fail".to_owned(),
        }
    }

    fn parse(s: &str) -> Option<Self> {
        if s == "fail" {
            return Some(Cell::Fail);
        }
        let (num, diverged) = match s.strip_suffix('!') {
            Some(n) => (n, true),
            None => (s, false),
        };
        num.parse().ok().map(|mean| Cell::Auc { mean, diverged })
    }
}

/// Every measured point of one family: `(algorithm, point key)` rows, one cell per set.
struct Store {
    protocol: String,
    sets: Vec<String>,
    rows: BTreeMap<(String, String), Row>,
    /// Why `auc cv` failed, per `(algorithm, set)`.
    failures: BTreeMap<(String, String), String>,
    /// The registry default of each algorithm (a point key) when its points were measured, so
    /// that the page still shows the default the measurements replaced after the `Default`
    /// impls take the chosen values.
    defaults: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default)]
struct Row {
    /// Wall seconds of the measurements, summed over the sets.
    seconds: f64,
    cells: BTreeMap<String, Cell>,
}

impl Store {
    fn new(protocol: String, sets: &[&Set]) -> Self {
        Store {
            protocol,
            sets: sets.iter().map(|s| s.name.to_owned()).collect(),
            rows: BTreeMap::new(),
            failures: BTreeMap::new(),
            defaults: BTreeMap::new(),
        }
    }

    /// Reads a family's file: `# protocol`, `# fail` and `# default` lines, a header
    /// `algo point seconds SETS..`
    /// and one row per point (tab-separated). `None` if there is no file.
    fn read(path: &Path) -> Result<Option<Self>, String> {
        let Ok(text) = std::fs::read_to_string(path) else {
            return Ok(None);
        };
        let bad = |line: usize| format!("{}:{line}: not a defaults table row", path.display());
        let mut store = Store {
            protocol: String::new(),
            sets: Vec::new(),
            rows: BTreeMap::new(),
            failures: BTreeMap::new(),
            defaults: BTreeMap::new(),
        };
        for (i, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split('\t').collect();
            match f.as_slice() {
                ["# protocol", p] => store.protocol = (*p).to_owned(),
                ["# fail", algo, set, why] => {
                    store
                        .failures
                        .insert(((*algo).to_owned(), (*set).to_owned()), (*why).to_owned());
                }
                ["# default", algo, point] => {
                    store
                        .defaults
                        .insert((*algo).to_owned(), (*point).to_owned());
                }
                ["algo", "point", "seconds", sets @ ..] => {
                    store.sets = sets.iter().map(|s| (*s).to_owned()).collect();
                }
                [algo, point, seconds, cells @ ..] if cells.len() == store.sets.len() => {
                    let row = Row {
                        seconds: seconds.parse().map_err(|_| bad(i + 1))?,
                        cells: store
                            .sets
                            .iter()
                            .zip(cells)
                            .filter(|(_, c)| !c.is_empty())
                            .map(|(s, c)| {
                                Ok((s.clone(), Cell::parse(c).ok_or_else(|| bad(i + 1))?))
                            })
                            .collect::<Result<_, String>>()?,
                    };
                    store
                        .rows
                        .insert(((*algo).to_owned(), (*point).to_owned()), row);
                }
                _ => return Err(bad(i + 1)),
            }
        }
        Ok(Some(store))
    }

    /// Writes the file through a temporary file and a rename.
    fn write(&self, path: &Path) -> Result<(), String> {
        let mut t = format!("# protocol\t{}\n", self.protocol);
        for ((algo, set), why) in &self.failures {
            let _ = writeln!(
                t,
                "# fail\t{algo}\t{set}\t{}",
                why.replace(['\t', '\n'], " ")
            );
        }
        for (algo, point) in &self.defaults {
            let _ = writeln!(t, "# default\t{algo}\t{point}");
        }
        let _ = writeln!(t, "algo\tpoint\tseconds\t{}", self.sets.join("\t"));
        for ((algo, point), row) in &self.rows {
            let cells: Vec<String> = self
                .sets
                .iter()
                .map(|s| row.cells.get(s).map(Cell::text).unwrap_or_default())
                .collect();
            let _ = writeln!(
                t,
                "{algo}\t{point}\t{:.2}\t{}",
                row.seconds,
                cells.join("\t")
            );
        }
        let tmp = path.with_extension("tsv.tmp");
        std::fs::write(&tmp, t).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn cell(&self, algo: &str, point: &str, set: &str) -> Option<Cell> {
        self.rows
            .get(&(algo.to_owned(), point.to_owned()))
            .and_then(|r| r.cells.get(set).copied())
    }
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
fn first_axes(algo: &AlgoInfo, quick: bool) -> Result<Vec<Axis>, String> {
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
fn sweep(sw: &Sweep<'_>, algo: &AlgoInfo, store: &mut Store) -> Result<(), String> {
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
    algo: &AlgoInfo,
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
        args.extend(data_args(sw.datasets, set));
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

// ---------------------------------------------------------------------------------------------
// The rule

/// The measurements of one algorithm: points x sets.
#[derive(Debug)]
struct Table {
    points: Vec<String>,
    sets: Vec<String>,
    /// `cells[point][set]`; `None` where there is no measurement.
    cells: Vec<Vec<Option<Cell>>>,
}

impl Table {
    fn of(store: &Store, algo: &str, points: &[String], sets: &[String]) -> Self {
        Table {
            points: points.to_vec(),
            sets: sets.to_vec(),
            cells: points
                .iter()
                .map(|p| sets.iter().map(|s| store.cell(algo, p, s)).collect())
                .collect(),
        }
    }

    /// The mean AUC of point `i` on set `s`, whether or not a run diverged.
    fn auc(&self, i: usize, s: usize) -> Option<f64> {
        match self.cells[i][s] {
            Some(Cell::Auc { mean, .. }) => Some(mean),
            _ => None,
        }
    }

    /// A measured AUC with no diverged run.
    fn clean(&self, i: usize, s: usize) -> Option<f64> {
        match self.cells[i][s] {
            Some(Cell::Auc {
                mean,
                diverged: false,
            }) => Some(mean),
            _ => None,
        }
    }

    /// The sets on which at least one point has a clean measurement (a set where every point
    /// failed, e.g. AUCSVM refusing too many pairs, cannot rank anything).
    fn usable_sets(&self) -> Vec<bool> {
        (0..self.sets.len())
            .map(|s| (0..self.points.len()).any(|i| self.clean(i, s).is_some()))
            .collect()
    }

    /// The best clean AUC on set `s` among the eligible points.
    fn best(&self, s: usize, eligible: &[usize]) -> Option<(usize, f64)> {
        eligible
            .iter()
            .filter_map(|&i| Some((i, self.clean(i, s)?)))
            .fold(None, |acc: Option<(usize, f64)>, (i, a)| match acc {
                Some((_, b)) if b >= a => acc,
                _ => Some((i, a)),
            })
    }
}

/// The outcome of the rule on a subset of the sets.
#[derive(Clone, Debug, PartialEq)]
struct Choice {
    index: usize,
    mean_rank: f64,
    mean_auc: f64,
    /// Points that could be chosen (clean on every set of the subset).
    eligible: Vec<usize>,
    /// The most sets on which one other point beats the choice, and that point.
    most_beaten: (usize, Option<usize>),
    /// Sets of the subset.
    sets: usize,
    /// Whether every eligible point is beaten on a clear majority by another, so that the filter
    /// was dropped.
    cycle: bool,
}

/// Average ranks (1 = best, ties share the mean of their ranks) of `values`, higher is better.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut r = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]].total_cmp(&values[order[i]]).is_eq() {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// The rule, fixed before any measurement and stated on the page ([`RULE`]), applied to the
/// sets where `mask` is true. The default is the point that
/// 1. has a clean measurement (no failure, no diverged run) on every set;
/// 2. is not beaten (a lower mean AUC than one other point) on two thirds of the sets or more,
///    unless every point is;
/// 3. has the best mean rank among those, where on each set the eligible points are ranked by
///    mean AUC (1 = best, ties share their mean rank); ties go to the higher mean AUC, then to
///    the earlier point of the grid.
///
/// `None` when no point is eligible or no set is selected.
fn choose(t: &Table, mask: &[bool]) -> Option<Choice> {
    let sets: Vec<usize> = (0..t.sets.len()).filter(|&s| mask[s]).collect();
    if sets.is_empty() {
        return None;
    }
    let eligible: Vec<usize> = (0..t.points.len())
        .filter(|&i| sets.iter().all(|&s| t.clean(i, s).is_some()))
        .collect();
    if eligible.is_empty() {
        return None;
    }
    let auc = |i: usize, s: usize| t.clean(i, s).unwrap_or(f64::NAN);
    let mut rank_sum = vec![0.0; eligible.len()];
    for &s in &sets {
        let vals: Vec<f64> = eligible.iter().map(|&i| auc(i, s)).collect();
        for (k, r) in ranks(&vals).into_iter().enumerate() {
            rank_sum[k] += r;
        }
    }
    let n = sets.len() as f64;
    let mean_auc = |i: usize| sets.iter().map(|&s| auc(i, s)).sum::<f64>() / n;
    let beaten = |i: usize| -> (usize, Option<usize>) {
        eligible
            .iter()
            .filter(|&&j| j != i)
            .map(|&j| {
                (
                    sets.iter().filter(|&&s| auc(j, s) > auc(i, s)).count(),
                    Some(j),
                )
            })
            .fold((0, None), |acc, x| if x.0 > acc.0 { x } else { acc })
    };
    let needed = (CLEAR_MAJORITY * n).ceil() as usize;
    let free: Vec<usize> = (0..eligible.len())
        .filter(|&k| beaten(eligible[k]).0 < needed)
        .collect();
    let cycle = free.is_empty();
    let pool: Vec<usize> = if cycle {
        (0..eligible.len()).collect()
    } else {
        free
    };
    let best = pool
        .iter()
        .copied()
        .fold(None, |acc: Option<usize>, k| match acc {
            None => Some(k),
            Some(b) => {
                let (rk, rb) = (rank_sum[k], rank_sum[b]);
                if rk < rb
                    || (rk.total_cmp(&rb).is_eq() && mean_auc(eligible[k]) > mean_auc(eligible[b]))
                {
                    Some(k)
                } else {
                    Some(b)
                }
            }
        })?;
    let index = eligible[best];
    Some(Choice {
        index,
        mean_rank: rank_sum[best] / n,
        mean_auc: mean_auc(index),
        most_beaten: beaten(index),
        eligible,
        sets: sets.len(),
        cycle,
    })
}

/// Leave one set out: for each usable set, the rule on the other usable sets and the AUC gap of
/// its choice on the held-out set to the best point there (`regret`, AUC units), with the choice.
fn loso(t: &Table) -> Vec<(usize, usize, f64)> {
    let usable = t.usable_sets();
    let mut out = Vec::new();
    for s in (0..t.sets.len()).filter(|&s| usable[s]) {
        let mut mask = usable.clone();
        mask[s] = false;
        let Some(c) = choose(t, &mask) else { continue };
        let all: Vec<usize> = (0..t.points.len()).collect();
        let Some((_, best)) = t.best(s, &all) else {
            continue;
        };
        let got = t.auc(c.index, s).unwrap_or(f64::NAN);
        out.push((s, c.index, best - got));
    }
    out
}

/// Median of finite values (mean of the middle two for an even count); NaN when empty.
fn median(v: &[f64]) -> f64 {
    let mut v: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

// ---------------------------------------------------------------------------------------------
// The page

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
fn default_key(algo: &AlgoInfo, axes: &[Axis]) -> Option<String> {
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
/// powers sorted.
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
        a.values.sort_by(|x, y| match (x.exp, y.exp) {
            (Some(p), Some(q)) => p.cmp(&q),
            _ => x
                .text
                .parse::<f64>()
                .unwrap_or(f64::NAN)
                .total_cmp(&y.text.parse::<f64>().unwrap_or(f64::NAN)),
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
        algo: &AlgoInfo,
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
    fn summary_row(&self, family: &str, algo: &AlgoInfo) -> String {
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
    fn details(&self, store: &Store, algo: &AlgoInfo) -> String {
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
fn render(root: &Path, dir: &Path, registry: &[AlgoInfo], quick: bool) -> Result<String, String> {
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
        for algo in registry.iter().filter(|a| a.family == fam.name) {
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
const RULE: &str = "## The rule (fixed before the measurements)

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

    fn table(points: &[&str], rows: &[&[f64]]) -> Table {
        Table {
            points: points.iter().map(|p| (*p).to_owned()).collect(),
            sets: (0..rows[0].len()).map(|s| format!("s{s}")).collect(),
            cells: rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&v| {
                            Some(if v < 0.0 {
                                Cell::Auc {
                                    mean: -v,
                                    diverged: true,
                                }
                            } else {
                                Cell::Auc {
                                    mean: v,
                                    diverged: false,
                                }
                            })
                        })
                        .collect()
                })
                .collect(),
        }
    }

    #[test]
    fn ranks_share_ties_and_put_the_highest_first() {
        assert_eq!(ranks(&[0.5, 0.9, 0.5, 0.7]), vec![3.5, 1.0, 3.5, 2.0]);
        assert_eq!(ranks(&[]), Vec::<f64>::new());
        assert!((median(&[3.0, 1.0, 2.0]) - 2.0).abs() < 1e-15);
        assert!((median(&[4.0, 1.0, 2.0, 3.0]) - 2.5).abs() < 1e-15);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn the_best_mean_rank_wins_and_diverged_points_are_never_chosen() {
        // c is best everywhere but diverged once; b beats a on 2 of 3 sets.
        let t = table(
            &["a", "b", "c"],
            &[
                &[0.80, 0.70, 0.90],
                &[0.81, 0.71, 0.60],
                &[0.99, -0.99, 0.99],
            ],
        );
        let c = choose(&t, &[true, true, true]).unwrap();
        assert_eq!(c.eligible, vec![0, 1]);
        // Ranks: a = (2, 2, 1) -> 5/3, b = (1, 1, 2) -> 4/3; b beats a on 2 of 3 = two thirds.
        assert_eq!(c.index, 1);
        assert!((c.mean_rank - 4.0 / 3.0).abs() < 1e-12);
        assert!((c.mean_auc - (0.81 + 0.71 + 0.60) / 3.0).abs() < 1e-12);
        assert_eq!(c.most_beaten, (1, Some(0)));
        assert!(!c.cycle);
    }

    #[test]
    fn a_point_beaten_on_a_clear_majority_is_not_chosen_despite_its_rank() {
        // a is first on set 0 and second on sets 1 and 2, where b is first: a has the best mean
        // rank (1.67) but b beats it on 2 of 3 sets, so a is out. The fillers f1..f8 sit between
        // a and b on set 0 and below a elsewhere, so a beats each of them everywhere and they are
        // out too; b (mean rank 4) is the default.
        let mut rows: Vec<Vec<f64>> = vec![vec![0.95, 0.80, 0.80], vec![0.50, 0.81, 0.81]];
        for i in 0..8 {
            let f = 0.9 - 0.01 * i as f64;
            rows.push(vec![f, 0.70 - 0.01 * i as f64, 0.70 - 0.01 * i as f64]);
        }
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let row_refs: Vec<&[f64]> = rows.iter().map(Vec::as_slice).collect();
        let t = table(&refs, &row_refs);
        let c = choose(&t, &[true; 3]).unwrap();
        assert_eq!(c.index, 1);
        assert!((c.mean_rank - 4.0).abs() < 1e-12);
        assert_eq!(c.most_beaten.0, 1);
        assert!(!c.cycle);
        // Without the filter the rank would pick a: check that a's mean rank is the lowest.
        let mut sums = [0.0; 10];
        for s in 0..3 {
            let vals: Vec<f64> = rows.iter().map(|r| r[s]).collect();
            for (k, r) in ranks(&vals).into_iter().enumerate() {
                sums[k] += r;
            }
        }
        let lowest = (0..10)
            .min_by(|&x, &y| sums[x].total_cmp(&sums[y]))
            .unwrap();
        assert_eq!(lowest, 0);
    }

    #[test]
    fn equal_mean_ranks_go_to_the_higher_mean_auc() {
        // a first on 3 sets by far, b first on the other 3 by a hair: equal rank sums, neither
        // beaten on two thirds; a has the higher mean AUC.
        let t = table(
            &["b", "a"],
            &[
                &[0.60, 0.60, 0.60, 0.51, 0.51, 0.51],
                &[0.99, 0.99, 0.99, 0.50, 0.50, 0.50],
            ],
        );
        let c = choose(&t, &[true; 6]).unwrap();
        assert_eq!(t.points[c.index], "a");
        assert_eq!(c.most_beaten.0, 3);
        // Only the masked sets count: on sets 3-5 alone b wins.
        let c = choose(&t, &[false, false, false, true, true, true]).unwrap();
        assert_eq!(t.points[c.index], "b");
        assert_eq!(c.sets, 3);
        assert!(choose(&t, &[false; 6]).is_none());
    }

    #[test]
    fn a_cycle_drops_the_filter() {
        // Rock-paper-scissors over 3 sets: each point beaten on 2 of 3 by another.
        let t = table(
            &["r", "p", "s"],
            &[&[0.9, 0.8, 0.7], &[0.7, 0.9, 0.8], &[0.8, 0.7, 0.9]],
        );
        let c = choose(&t, &[true; 3]).unwrap();
        assert!(c.cycle);
        assert_eq!(c.index, 0, "equal ranks and mean AUCs: the first point");
    }

    #[test]
    fn leave_one_set_out_regret_is_the_gap_to_the_held_out_best() {
        // Sets 0-2 favour a, set 3 favours b by 0.2.
        let t = table(&["a", "b"], &[&[0.9, 0.9, 0.9, 0.6], &[0.8, 0.8, 0.8, 0.8]]);
        let l = loso(&t);
        assert_eq!(l.len(), 4);
        for (s, i, r) in &l {
            if *s == 3 {
                assert_eq!(*i, 0);
                assert!((r - 0.2).abs() < 1e-12);
            } else {
                // Without a set 0-2, a still wins 2 of 3 and is best there: regret 0.
                assert_eq!(*i, 0);
                assert!(r.abs() < 1e-15);
            }
        }
        // A held-out set where the choice diverged counts with its AUC.
        let t = table(&["a", "b"], &[&[0.9, 0.9, -0.5], &[0.8, 0.8, 0.8]]);
        let l = loso(&t);
        let held = l.iter().find(|r| r.0 == 2).unwrap();
        assert_eq!(held.1, 0);
        assert!(
            (held.2 - 0.3).abs() < 1e-12,
            "best clean 0.8 minus the diverged 0.5"
        );
    }

    #[test]
    fn axes_parse_extend_and_key_points() {
        let a = Axis::parse("c=2^-10..2^10:2").unwrap();
        assert_eq!(a.values.len(), 11);
        assert_eq!(a.values[0].text, "2^-10");
        assert_eq!(a.ends(), Some((-10, 10)));
        assert_eq!(
            a.beyond(true, "finite and > 0")
                .iter()
                .map(|t| t.text.clone())
                .collect::<Vec<_>>(),
            ["2^-12", "2^-14"]
        );
        // (0, 1]: 2^0 allowed, 2^2 not.
        let e = Axis::parse("eta=2^-4..2^-2:2").unwrap();
        let up: Vec<String> = e
            .beyond(false, "in (0, 1]")
            .iter()
            .map(|t| t.text.clone())
            .collect();
        assert_eq!(up, ["2^0"]);
        assert!(e.beyond(false, "in (0, 1)").is_empty());
        let l = Axis::parse("beta1=0.5,0.9").unwrap();
        assert_eq!(l.step, None);
        assert!(l.beyond(false, "in [0, 1)").is_empty());
        assert_eq!(l.arg(), "beta1=0.5,0.9");
        // The default is inserted in order and found again from JSON.
        let mut o = Axis::parse("lambda=2^-10..2^-2:4").unwrap();
        o.insert(&serde_json::json!(0.125));
        assert_eq!(o.arg(), "lambda=2^-10,2^-6,2^-3,2^-2");
        o.insert(&serde_json::json!(0.0009765625));
        assert_eq!(o.values.len(), 4);
        let mut n = Axis::parse("n_loc=8,32").unwrap();
        n.insert(&serde_json::json!(16));
        assert_eq!(n.arg(), "n_loc=8,32,16");
        let axes = [o, n];
        let points = product(&axes);
        assert_eq!(points.len(), 12);
        assert_eq!(points[0], "lambda=2^-10 n_loc=8");
        assert_eq!(points[2], "lambda=2^-10 n_loc=16");
        let params = serde_json::json!({"lambda": 0.125, "n_loc": 16, "other": 1});
        assert_eq!(
            key_of_params(&axes, &params).as_deref(),
            Some("lambda=2^-3 n_loc=16")
        );
        assert_eq!(
            key_of_params(&axes, &serde_json::json!({"lambda": 0.3})),
            None
        );
        let thin = Axis::parse("c=2^-10..2^10:2").unwrap().thin();
        assert_eq!(thin.arg(), "c=2^-10,2^0,2^10");
    }

    #[test]
    fn power_tokens_match_the_printed_value_exactly() {
        // The shortest form `auc` prints for 2^-24; without `float_roundtrip` serde_json read it
        // back one bit off, and the point was "outside the grid".
        let v: serde_json::Value = serde_json::from_str("5.960464477539063e-8").unwrap();
        assert!(Token::power(-24).is(&v));
        assert!(!Token::power(-23).is(&v));
    }

    #[test]
    fn stores_read_back_what_they_wrote() {
        let dir = std::env::temp_dir().join(format!("xtask-defaults-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.tsv");
        let mut s = Store {
            protocol: "p".into(),
            sets: vec!["x".into(), "y".into()],
            rows: BTreeMap::new(),
            failures: BTreeMap::new(),
            defaults: BTreeMap::new(),
        };
        s.defaults.insert("algo".into(), "c=2^-2".into());
        let mut row = Row {
            seconds: 1.5,
            ..Row::default()
        };
        row.cells.insert(
            "x".into(),
            Cell::Auc {
                mean: 0.912_345,
                diverged: true,
            },
        );
        row.cells.insert("y".into(), Cell::Fail);
        s.rows.insert(("algo".into(), "c=2^-1".into()), row);
        s.failures
            .insert(("algo".into(), "y".into()), "too\tmany pairs".into());
        s.write(&path).unwrap();
        let back = Store::read(&path).unwrap().unwrap();
        assert_eq!(back.protocol, "p");
        assert_eq!(back.sets, s.sets);
        assert_eq!(
            back.cell("algo", "c=2^-1", "x"),
            Some(Cell::Auc {
                mean: 0.912_345,
                diverged: true
            })
        );
        assert_eq!(back.cell("algo", "c=2^-1", "y"), Some(Cell::Fail));
        assert_eq!(back.defaults, s.defaults);
        assert_eq!(
            back.failures
                .get(&("algo".into(), "y".into()))
                .map(String::as_str),
            Some("too many pairs")
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tuned_figures_are_read_from_the_first_table() {
        let dir = std::env::temp_dir().join(format!("xtask-tuned-{}", std::process::id()));
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
