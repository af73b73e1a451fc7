//! `cargo xtask reproduce linear [--quick] [--full-grid]`: the protocol of conventions section 8 for every
//! linear learner on every data set of [OAUC Table 1] and [ADM Table 1] that `../shared/datasets`
//! holds, written to `docs/results/linear.md` (with `linear-curves.svg`) beside the papers'
//! figures of [OAUC Table 2] and [ADM Table 2].
//!
//! The table is rewritten after every data set, so a long run that is stopped still leaves the
//! finished rows. `--quick` (1 x 3-fold, inner 2-fold, 3 values per axis, the small data sets)
//! writes to `target/linear-quick.md` instead and takes about a minute.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::project_root;
use crate::reproduce::field;

/// One data set: files (concatenated), positive label, optional row limit and fixed test file.
pub(crate) struct Set {
    pub(crate) name: &'static str,
    pub(crate) files: &'static [&'static str],
    pub(crate) positive: &'static str,
    pub(crate) limit: Option<usize>,
    pub(crate) test: Option<&'static str>,
    pub(crate) note: &'static str,
}

/// One table of a paper to reproduce: its data sets, algorithms, published figures and protocol.
pub(crate) struct Experiment {
    /// File stem under `docs/results/` and prefix of progress lines.
    pub(crate) key: &'static str,
    /// The page's heading.
    pub(crate) title: &'static str,
    /// The data sets, by name, in table order: each is described once, in `SETS`.
    pub(crate) sets: &'static [&'static str],
    /// The registry family whose algorithms the table compares.
    pub(crate) family: &'static str,
    /// The papers' mean AUC and standard deviation in %, per (data set, algorithm title, source).
    pub(crate) paper: &'static [(&'static str, &'static str, f64, f64, &'static str)],
    /// Arguments every `auc cv` call gets (e.g. a cap on training parts).
    pub(crate) extra_args: &'static [&'static str],
    /// The protocol of the default (coarse-grid) run, in words.
    pub(crate) protocol: &'static str,
    /// The data sets of `--quick`.
    pub(crate) quick_sets: &'static [&'static str],
    /// Whether the main run draws convergence curves.
    pub(crate) curves: bool,
}

/// [OAUC Table 2] and [ADM Table 2].
pub(crate) const LINEAR: Experiment = Experiment {
    key: "linear",
    title: "Linear online AUC learners: [OAUC Table 2] and [ADM Table 2]",
    sets: &[
        "fourclass",
        "glass",
        "heart",
        "ionosphere",
        "australian",
        "diabetes",
        "vehicle",
        "vehicle-adm",
        "german",
        "splice",
        "segment",
        "dna",
        "satimage",
        "svmguide1",
        "letter",
        "magic04",
        "poker",
        "a9a",
        "shuttle",
    ],
    family: "linear",
    paper: PAPER,
    extra_args: &[],
    protocol: "4 x stratified 5-fold (20 runs), inner 5-fold; grids: every second power of 2 of SPEC section 8's ranges (eta, lambda, c in 2^-10, 2^-8, .., 2^10; ADM's eta, lambda in 2^-10, .., 2^2; AdmOAM's beta1 in {0.5, 0.9}, beta2 in {0.9, 0.999}; OAUC-M's lambda on the full 21 powers; SOLAM's R in {1, 10, 100}; AdaOAM and AdmOAM with epsilon = 1e-8, the ADM paper giving none); `--full-grid` runs SPEC's grids",
    quick_sets: &["heart", "australian", "german"],
    curves: true,
};

/// The 15 data sets \[OAUC\] reports on (its Tables 2 and 3) that `../shared/datasets` holds, in
/// the paper's order: the kernel table and the batch-against-online table (`kernel.rs`,
/// `batch.rs`) both run on exactly these.
pub(crate) const OAUC_SETS: &[&str] = &[
    "fourclass",
    "heart",
    "ionosphere",
    "australian",
    "diabetes",
    "vehicle",
    "german",
    "splice",
    "segment",
    "satimage",
    "svmguide1",
    "letter",
    "magic04",
    "poker",
    "shuttle",
];

/// Every data set a table of this harness uses, with its files and positive class (the last
/// eleven are [CVM Table 1]'s, for `reproduce defaults --family batch`).
const SETS: &[Set] = &[
    Set {
        name: "fourclass",
        files: &["fourclass"],
        positive: "1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "glass",
        files: &["glass"],
        positive: "1",
        limit: None,
        test: None,
        note: "ADM",
    },
    Set {
        name: "heart",
        files: &["heart"],
        positive: "1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "ionosphere",
        files: &["ionosphere"],
        positive: "-1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "australian",
        files: &["australian"],
        positive: "1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "diabetes",
        files: &["diabetes"],
        positive: "1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "vehicle",
        files: &["vehicle"],
        positive: "2",
        limit: None,
        test: None,
        note: "OAUC: saab",
    },
    Set {
        name: "vehicle-adm",
        files: &["vehicle"],
        positive: "1",
        limit: None,
        test: None,
        note: "ADM: opel",
    },
    Set {
        name: "german",
        files: &["german"],
        positive: "-1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "splice",
        files: &["splice"],
        positive: "-1",
        limit: None,
        test: None,
        note: "training split",
    },
    Set {
        name: "segment",
        files: &["segment"],
        positive: "1",
        limit: None,
        test: None,
        note: "class 1",
    },
    Set {
        name: "dna",
        files: &["dna", "dna.t"],
        positive: "1,2",
        limit: None,
        test: None,
        note: "ADM: 1, 2 vs 3",
    },
    Set {
        name: "satimage",
        files: &["satimage", "satimage.t"],
        positive: "4",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "svmguide1",
        files: &["svmguide1", "svmguide1.t"],
        positive: "0",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "letter",
        files: &["letter"],
        positive: "26",
        limit: Some(15000),
        test: None,
        note: "first 15000, Z",
    },
    Set {
        name: "magic04",
        files: &["magic04"],
        positive: "-1",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "poker",
        files: &["poker"],
        positive: "3",
        limit: None,
        test: None,
        note: "",
    },
    Set {
        name: "a9a",
        files: &["a9a"],
        positive: "1",
        limit: None,
        test: Some("a9a.t"),
        note: "ADM: test a9a.t",
    },
    Set {
        name: "shuttle",
        files: &["shuttle"],
        positive: "5",
        limit: None,
        test: None,
        note: "class 5 (IR 16.7)",
    },
    Set {
        name: "glass6",
        files: &["glass6"],
        positive: "1",
        limit: None,
        test: None,
        note: "Glass-6",
    },
    Set {
        name: "sonar",
        files: &["sonar"],
        positive: "1",
        limit: None,
        test: None,
        note: "Sonar",
    },
    Set {
        name: "haberman",
        files: &["haberman"],
        positive: "1",
        limit: None,
        test: None,
        note: "Haberman",
    },
    Set {
        name: "wdbc",
        files: &["wdbc"],
        positive: "0",
        limit: None,
        test: None,
        note: "WDBC, malignant",
    },
    Set {
        name: "breast-cancer",
        files: &["breast-cancer"],
        positive: "-1",
        limit: None,
        test: None,
        note: "Breast-w, malignant",
    },
    Set {
        name: "pima",
        files: &["diabetes"],
        positive: "1",
        limit: None,
        test: None,
        note: "Pima",
    },
    Set {
        name: "vehicle2",
        files: &["vehicle2"],
        positive: "1",
        limit: None,
        test: None,
        note: "Vehicle-2",
    },
    Set {
        name: "yeast1",
        files: &["yeast1"],
        positive: "1",
        limit: None,
        test: None,
        note: "Yeast-1",
    },
    Set {
        name: "abalone19",
        files: &["abalone19"],
        positive: "1",
        limit: None,
        test: None,
        note: "Abalone-19",
    },
    Set {
        name: "page-blocks0",
        files: &["page-blocks0"],
        positive: "1",
        limit: None,
        test: None,
        note: "PageBlocks-I",
    },
    Set {
        name: "letter-z",
        files: &["letter"],
        positive: "26",
        limit: None,
        test: None,
        note: "Letter-z: all 20000 rows, Z",
    },
];

/// One algorithm of the registry (`auc algos --json`): name, column label (its title), and its
/// grids (the papers' full grid, per conventions section 8, and the default grid the committed tables
/// use).
pub(crate) struct Algo {
    pub(crate) name: String,
    pub(crate) label: String,
    pub(crate) full: Vec<String>,
    pub(crate) coarse: Vec<String>,
}

/// The algorithms of `family` (`linear`, `kernel`, `batch`) that the built `auc` registers, in
/// its order: the reproductions keep no list of their own.
pub(crate) fn registry(bin: &Path, family: &str) -> Result<Vec<Algo>, String> {
    let out = Command::new(bin)
        .args(["algos", "--json"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let all: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| format!("`auc algos --json` is not JSON: {e}"))?;
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
        .filter(|a| {
            a["family"] == family
                || (family == "moments"
                    && (a["from_moments"] == true
                        || crate::batch::ONLINE_PEERS.contains(&a["title"].as_str().unwrap_or(""))))
        })
        .map(|a| Algo {
            name: a["name"].as_str().unwrap_or_default().to_owned(),
            label: a["title"].as_str().unwrap_or_default().to_owned(),
            full: strings(&a["paper_grid"]),
            coarse: strings(&a["grid"]),
        })
        .collect())
}

/// The papers' mean AUC and standard deviation in %, per (data set, algorithm title, source).
pub(crate) const PAPER: &[(&str, &str, f64, f64, &str)] = &[
    // [OAUC Table 2]: Perceptron, PA-I, OAM, OAUC-S, OAUC-M_c, OAUC-M.
    ("fourclass", "Perceptron", 79.81, 2.05, "OAUC"),
    ("fourclass", "PA-I", 82.81, 1.24, "OAUC"),
    ("fourclass", "OAM-seq", 83.10, 1.16, "OAUC"),
    ("fourclass", "OPAUC (OAUC-S)", 83.17, 1.12, "OAUC"),
    ("fourclass", "OAUC-M_c", 83.14, 1.14, "OAUC"),
    ("fourclass", "OAUC-M", 83.3, 1.14, "OAUC"),
    ("diabetes", "Perceptron", 81.13, 1.48, "OAUC"),
    ("diabetes", "PA-I", 83.15, 0.88, "OAUC"),
    ("diabetes", "OAM-seq", 82.55, 0.95, "OAUC"),
    ("diabetes", "OPAUC (OAUC-S)", 83.16, 1.00, "OAUC"),
    ("diabetes", "OAUC-M_c", 83.36, 0.96, "OAUC"),
    ("diabetes", "OAUC-M", 83.25, 0.92, "OAUC"),
    ("german", "Perceptron", 73.68, 2.47, "OAUC"),
    ("german", "PA-I", 79.11, 1.39, "OAUC"),
    ("german", "OAM-seq", 76.74, 1.68, "OAUC"),
    ("german", "OPAUC (OAUC-S)", 80.18, 1.33, "OAUC"),
    ("german", "OAUC-M_c", 80.18, 1.32, "OAUC"),
    ("german", "OAUC-M", 80.19, 1.24, "OAUC"),
    ("splice", "Perceptron", 83.76, 1.08, "OAUC"),
    ("splice", "PA-I", 89.00, 0.91, "OAUC"),
    ("splice", "OAM-seq", 87.03, 1.02, "OAUC"),
    ("splice", "OPAUC (OAUC-S)", 89.81, 0.59, "OAUC"),
    ("splice", "OAUC-M_c", 90.24, 0.59, "OAUC"),
    ("splice", "OAUC-M", 90.37, 0.58, "OAUC"),
    ("svmguide1", "Perceptron", 91.29, 0.71, "OAUC"),
    ("svmguide1", "PA-I", 92.60, 0.44, "OAUC"),
    ("svmguide1", "OAM-seq", 98.92, 0.12, "OAUC"),
    ("svmguide1", "OPAUC (OAUC-S)", 97.34, 0.19, "OAUC"),
    ("svmguide1", "OAUC-M_c", 98.54, 0.10, "OAUC"),
    ("svmguide1", "OAUC-M", 98.54, 0.10, "OAUC"),
    ("magic04", "Perceptron", 71.19, 0.54, "OAUC"),
    ("magic04", "PA-I", 74.29, 0.46, "OAUC"),
    ("magic04", "OAM-seq", 72.26, 0.89, "OAUC"),
    ("magic04", "OPAUC (OAUC-S)", 75.34, 0.29, "OAUC"),
    ("magic04", "OAUC-M_c", 75.70, 0.27, "OAUC"),
    ("magic04", "OAUC-M", 75.61, 0.23, "OAUC"),
    ("australian", "Perceptron", 89.96, 1.99, "OAUC"),
    ("australian", "PA-I", 92.25, 1.14, "OAUC"),
    ("australian", "OAM-seq", 92.28, 1.15, "OAUC"),
    ("australian", "OPAUC (OAUC-S)", 92.65, 1.03, "OAUC"),
    ("australian", "OAUC-M_c", 92.66, 1.00, "OAUC"),
    ("australian", "OAUC-M", 92.62, 0.93, "OAUC"),
    ("heart", "Perceptron", 87.19, 2.46, "OAUC"),
    ("heart", "PA-I", 90.76, 1.32, "OAUC"),
    ("heart", "OAM-seq", 91.12, 1.47, "OAUC"),
    ("heart", "OPAUC (OAUC-S)", 91.21, 1.26, "OAUC"),
    ("heart", "OAUC-M_c", 91.29, 1.26, "OAUC"),
    ("heart", "OAUC-M", 91.18, 1.33, "OAUC"),
    ("ionosphere", "Perceptron", 88.72, 2.79, "OAUC"),
    ("ionosphere", "PA-I", 91.96, 1.32, "OAUC"),
    ("ionosphere", "OAM-seq", 94.05, 1.52, "OAUC"),
    ("ionosphere", "OPAUC (OAUC-S)", 93.28, 1.26, "OAUC"),
    ("ionosphere", "OAUC-M_c", 93.88, 1.08, "OAUC"),
    ("ionosphere", "OAUC-M", 93.47, 1.05, "OAUC"),
    ("vehicle", "Perceptron", 74.11, 2.34, "OAUC"),
    ("vehicle", "PA-I", 73.48, 2.77, "OAUC"),
    ("vehicle", "OAM-seq", 81.30, 2.65, "OAUC"),
    ("vehicle", "OPAUC (OAUC-S)", 82.81, 1.92, "OAUC"),
    ("vehicle", "OAUC-M_c", 83.21, 1.88, "OAUC"),
    ("vehicle", "OAUC-M", 82.21, 1.95, "OAUC"),
    ("segment", "Perceptron", 85.47, 1.42, "OAUC"),
    ("segment", "PA-I", 70.35, 4.94, "OAUC"),
    ("segment", "OAM-seq", 89.94, 0.95, "OAUC"),
    ("segment", "OPAUC (OAUC-S)", 87.22, 0.70, "OAUC"),
    ("segment", "OAUC-M_c", 88.76, 0.60, "OAUC"),
    ("segment", "OAUC-M", 88.52, 0.73, "OAUC"),
    ("satimage", "Perceptron", 70.81, 1.62, "OAUC"),
    ("satimage", "PA-I", 73.72, 1.39, "OAUC"),
    ("satimage", "OAM-seq", 75.08, 0.78, "OAUC"),
    ("satimage", "OPAUC (OAUC-S)", 75.35, 0.76, "OAUC"),
    ("satimage", "OAUC-M_c", 76.14, 0.76, "OAUC"),
    ("satimage", "OAUC-M", 75.69, 0.74, "OAUC"),
    ("poker", "Perceptron", 52.28, 0.58, "OAUC"),
    ("poker", "PA-I", 52.14, 0.42, "OAUC"),
    ("poker", "OAM-seq", 50.47, 0.33, "OAUC"),
    ("poker", "OPAUC (OAUC-S)", 51.84, 0.49, "OAUC"),
    ("poker", "OAUC-M_c", 52.53, 0.47, "OAUC"),
    ("poker", "OAUC-M", 53.57, 0.39, "OAUC"),
    ("letter", "Perceptron", 75.28, 1.74, "OAUC"),
    ("letter", "PA-I", 70.93, 3.73, "OAUC"),
    ("letter", "OAM-seq", 80.53, 0.64, "OAUC"),
    ("letter", "OPAUC (OAUC-S)", 82.98, 0.44, "OAUC"),
    ("letter", "OAUC-M_c", 83.33, 0.48, "OAUC"),
    ("letter", "OAUC-M", 83.29, 0.44, "OAUC"),
    ("shuttle", "Perceptron", 92.08, 0.50, "OAUC"),
    ("shuttle", "PA-I", 75.92, 0.47, "OAUC"),
    ("shuttle", "OAM-seq", 96.53, 0.32, "OAUC"),
    ("shuttle", "OPAUC (OAUC-S)", 95.66, 0.20, "OAUC"),
    ("shuttle", "OAUC-M_c", 94.99, 0.38, "OAUC"),
    ("shuttle", "OAUC-M", 95.19, 0.46, "OAUC"),
    // [ADM Table 2]: AdmOAM, AdaOAM, OPAUC, OAM-seq, OAM-gra.
    ("glass", "AdmOAM", 82.53, 5.54, "ADM"),
    ("glass", "AdaOAM", 81.44, 5.00, "ADM"),
    ("glass", "OPAUC (OAUC-S)", 79.66, 7.22, "ADM"),
    ("glass", "OAM-seq", 80.62, 7.31, "ADM"),
    ("glass", "OAM-gra", 74.07, 7.55, "ADM"),
    ("heart", "AdmOAM", 91.11, 2.99, "ADM"),
    ("heart", "AdaOAM", 90.83, 3.15, "ADM"),
    ("heart", "OAM-gra", 86.78, 5.86, "ADM"),
    ("australian", "AdmOAM", 93.04, 2.18, "ADM"),
    ("australian", "AdaOAM", 92.85, 2.06, "ADM"),
    ("australian", "OAM-gra", 82.52, 6.43, "ADM"),
    ("vehicle-adm", "AdmOAM", 83.16, 2.40, "ADM"),
    ("vehicle-adm", "AdaOAM", 79.27, 1.84, "ADM"),
    ("vehicle-adm", "OPAUC (OAUC-S)", 78.54, 2.85, "ADM"),
    ("vehicle-adm", "OAM-seq", 71.70, 5.72, "ADM"),
    ("vehicle-adm", "OAM-gra", 74.69, 6.34, "ADM"),
    ("german", "AdmOAM", 80.03, 2.16, "ADM"),
    ("german", "AdaOAM", 79.90, 2.27, "ADM"),
    ("german", "OAM-gra", 76.75, 3.20, "ADM"),
    ("dna", "AdmOAM", 98.40, 0.33, "ADM"),
    ("dna", "AdaOAM", 98.26, 0.31, "ADM"),
    ("dna", "OPAUC (OAUC-S)", 98.32, 0.32, "ADM"),
    ("dna", "OAM-seq", 96.22, 0.50, "ADM"),
    ("dna", "OAM-gra", 96.20, 0.52, "ADM"),
    ("a9a", "AdmOAM", 90.03, 0.39, "ADM"),
    ("a9a", "AdaOAM", 90.02, 0.39, "ADM"),
    ("a9a", "OPAUC (OAUC-S)", 89.98, 0.39, "ADM"),
    ("a9a", "OAM-seq", 84.59, 1.38, "ADM"),
    ("a9a", "OAM-gra", 84.69, 1.50, "ADM"),
];

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

/// How a reproduction run differs from the default one.
#[derive(Clone, Debug, Default)]
pub(crate) struct Options {
    /// `--quick`: the CI smoke run.
    pub(crate) quick: bool,
    /// `--full-grid`: conventions section 8's grids.
    pub(crate) full_grid: bool,
    /// `--average`: every learner scores with its averaged iterates.
    pub(crate) average: bool,
    /// `--algos a,b`: only these algorithms.
    pub(crate) only: Option<String>,
    /// `--sets a,b`: only these data sets.
    pub(crate) sets: Option<String>,
    /// `--budget N`: every learner's buffer budget (a kernel-table variant).
    pub(crate) budget: Option<String>,
}

impl Experiment {
    /// The experiment's data sets, in its order.
    pub(crate) fn data_sets(&self) -> Result<Vec<&'static Set>, String> {
        self.sets
            .iter()
            .map(|n| {
                SETS.iter()
                    .find(|s| s.name == *n)
                    .ok_or_else(|| format!("{}: no data set `{n}` in SETS", self.key))
            })
            .collect()
    }
}

impl Options {
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

/// Runs the reproduction; see [`Options`].
pub(crate) fn run(exp: &Experiment, opts: &Options) -> Result<(), String> {
    let quick = opts.quick;
    let only = opts.only.as_deref();
    let root = project_root();
    let (datasets, bin) = crate::reproduce::release_auc()?;
    let all = registry(&bin, exp.family)?;
    let wanted: Option<Vec<&str>> = only.map(|o| o.split(',').map(str::trim).collect());
    if let Some(w) = &wanted
        && let Some(bad) = w.iter().find(|n| !all.iter().any(|a| a.name == **n))
    {
        return Err(format!("--algos: unknown algorithm `{bad}`"));
    }
    let algos: Vec<&Algo> = all
        .iter()
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
            let text = run_cv_lines(&bin, &args)?;
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
            curves_section(&root, &bin, &datasets, &done, &algos, &cells)?
        };
        write_table(
            exp,
            &root,
            &bin,
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

/// The `--data`, `--positive` and `--limit` arguments of a data set.
pub(crate) fn data_args(datasets: &Path, set: &Set) -> Vec<String> {
    let mut args = Vec::new();
    for f in set.files {
        args.extend([
            "--data".to_owned(),
            datasets.join(format!("{f}.libsvm")).display().to_string(),
        ]);
    }
    args.extend(["--positive".to_owned(), set.positive.to_owned()]);
    if let Some(l) = set.limit {
        args.extend(["--limit".to_owned(), l.to_string()]);
    }
    args
}

fn cv_args(datasets: &Path, set: &Set, algo: &Algo, opts: &Options) -> Vec<String> {
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
    args.extend(data_args(datasets, set));
    if let Some(t) = set.test {
        args.extend([
            "--test".to_owned(),
            datasets.join(format!("{t}.libsvm")).display().to_string(),
        ]);
    }
    if quick {
        args.extend(["--repeats", "1", "--folds", "3", "--inner-folds", "2"].map(String::from));
    }
    let grid = if full_grid { &algo.full } else { &algo.coarse };
    for g in grid {
        let g = if quick { thin(g) } else { g.clone() };
        args.extend(["--grid".to_owned(), g]);
    }
    args
}

/// A 3-value version of a grid axis for `--quick`: powers every 10th step, or a list's ends and middle.
fn thin(axis: &str) -> String {
    let (name, spec) = axis.split_once('=').unwrap_or((axis, ""));
    if let Some((range, _)) = spec
        .split_once(':')
        .or(Some((spec, "")))
        .filter(|(r, _)| r.contains(".."))
    {
        return format!("{name}={range}:10");
    }
    let vals: Vec<&str> = spec.split(',').collect();
    let pick: Vec<&str> = [0, vals.len() / 2, vals.len() - 1]
        .iter()
        .map(|&i| vals[i])
        .collect();
    let mut pick = pick;
    pick.dedup();
    format!("{name}={}", pick.join(","))
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
    algos: &[&Algo],
    cells: &BTreeMap<(&str, &str), Cell>,
    opts: &Options,
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
        header.push_str(&format!(" {} |", a.label));
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
                .filter(|p| p.0 == s.name && p.1 == a.label)
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
    let tmp = out.with_extension("md.tmp");
    std::fs::write(&tmp, md).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, out).map_err(|e| format!("{}: {e}", out.display()))
}

/// Average ranks and the Friedman test over the finished data sets, through `auc friedman`.
fn friedman_section(
    root: &Path,
    bin: &Path,
    key: &str,
    sets: &[&Set],
    algos: &[&Algo],
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
    algos: &[&Algo],
    cells: &BTreeMap<(&str, &str), Cell>,
) -> Result<String, String> {
    let mut panels: Vec<crate::svg::Panel> = Vec::new();
    for s in done.iter().filter(|s| CURVE_SETS.contains(&s.name)) {
        let mut lines = Vec::new();
        for algo in algos
            .iter()
            .filter(|a| CURVE_ALGOS.contains(&a.label.as_str()))
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
            args.extend(data_args(datasets, s));
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
    let svg = crate::svg::panels(
        "Test AUC against examples seen (one held-out stratified fold of 5; most chosen parameters)",
        &panels,
    );
    let path = root.join("docs/results/linear-curves.svg");
    std::fs::write(&path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(
        "\n## Convergence curves ([ADM fig. 1])\n\n![convergence curves](linear-curves.svg)\n"
            .to_owned(),
    )
}
