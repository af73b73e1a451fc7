//! The stored measurements of the defaults: per family, every point's mean AUC on every set
//! (`docs/results/defaults/FAMILY.tsv`), with the failures, the registry defaults they were
//! measured against and the protocol, rewritten after every `auc cv` call.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::sets::Set;
use crate::workspace::write_atomic;

/// One point's result on one set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Cell {
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
pub(crate) struct Store {
    pub(crate) protocol: String,
    pub(crate) sets: Vec<String>,
    pub(crate) rows: BTreeMap<(String, String), Row>,
    /// Why `auc cv` failed, per `(algorithm, set)`.
    pub(crate) failures: BTreeMap<(String, String), String>,
    /// The registry default of each algorithm (a point key) when its points were measured, so
    /// that the page still shows the default the measurements replaced after the `Default`
    /// impls take the chosen values.
    pub(crate) defaults: BTreeMap<String, String>,
}

/// One point of one algorithm: its cells by set.
#[derive(Clone, Debug, Default)]
pub(crate) struct Row {
    /// Wall seconds of the measurements, summed over the sets.
    pub(crate) seconds: f64,
    pub(crate) cells: BTreeMap<String, Cell>,
}

impl Store {
    pub(crate) fn new(protocol: String, sets: &[&Set]) -> Self {
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
    pub(crate) fn read(path: &Path) -> Result<Option<Self>, String> {
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
    pub(crate) fn write(&self, path: &Path) -> Result<(), String> {
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
        write_atomic(path, &t)
    }

    pub(crate) fn cell(&self, algo: &str, point: &str, set: &str) -> Option<Cell> {
        self.rows
            .get(&(algo.to_owned(), point.to_owned()))
            .and_then(|r| r.cells.get(set).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_read_back_what_they_wrote() {
        let dir = std::env::temp_dir().join(format!("auc-repro-defaults-{}", std::process::id()));
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
}
