//! The algorithms the built `auc` registers, read from `auc algos --json` in its order: the
//! reproductions keep no list of their own, so a new learner joins its family's table and the
//! defaults by its registry row alone.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// What the reproductions need of one algorithm of `auc algos --json`.
pub(crate) struct Entry {
    /// Its name (`--algo NAME`).
    pub(crate) name: String,
    /// Its title, the tables' column label.
    pub(crate) title: String,
    /// The registry's family: `linear`, `kernel` or `batch`.
    pub(crate) family: String,
    /// Whether it is fitted from merged class moments (`auc_online::MomentParams`).
    pub(crate) from_moments: bool,
    /// The default grid's axes (`--grid default`), the committed tables' grid.
    pub(crate) grid: Vec<String>,
    /// The papers' full grid (conventions section 8), `--full-grid`.
    pub(crate) paper_grid: Vec<String>,
    /// Default value and allowed set (in words) per parameter name.
    pub(crate) params: BTreeMap<String, (serde_json::Value, String)>,
}

impl Entry {
    /// The family `defaults` measures it in: `moments` for the learners fitted from merged class
    /// moments, which are measured on [OAUC Table 2]'s sets beside their online forms, else the
    /// registry's family.
    pub(crate) fn measured_family(&self) -> &str {
        if self.from_moments {
            "moments"
        } else {
            &self.family
        }
    }
}

/// Every algorithm `bin` registers, in its order.
pub(crate) fn read(bin: &Path) -> Result<Vec<Entry>, String> {
    let out = Command::new(bin)
        .args(["algos", "--json"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let all: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("`auc algos --json` is not JSON: {e}"))?;
    let text = |v: &serde_json::Value| v.as_str().unwrap_or_default().to_owned();
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(all
        .as_array()
        .ok_or("`auc algos --json` is not a list")?
        .iter()
        .map(|a| Entry {
            name: text(&a["name"]),
            title: text(&a["title"]),
            family: text(&a["family"]),
            from_moments: a["from_moments"] == true,
            grid: strings(&a["grid"]),
            paper_grid: strings(&a["paper_grid"]),
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
