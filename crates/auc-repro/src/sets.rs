//! The shared data sets the table reproductions run on: each described once (files, positive
//! class, row limit, fixed test file), and the lists of [OAUC Table 1]'s sets the tables share.

use std::path::Path;

/// One data set: files (concatenated), positive label, optional row limit and fixed test file.
pub(crate) struct Set {
    pub(crate) name: &'static str,
    pub(crate) files: &'static [&'static str],
    pub(crate) positive: &'static str,
    pub(crate) limit: Option<usize>,
    pub(crate) test: Option<&'static str>,
    pub(crate) note: &'static str,
}

impl Set {
    /// The data set called `name`.
    pub(crate) fn named(name: &str) -> Option<&'static Set> {
        SETS.iter().find(|s| s.name == name)
    }

    /// The `--data`, `--positive` and `--limit` arguments of `auc cv` and `auc curve` for this
    /// set, its files found in `datasets`.
    pub(crate) fn data_args(&self, datasets: &Path) -> Vec<String> {
        let mut args = Vec::new();
        for f in self.files {
            args.extend([
                "--data".to_owned(),
                datasets.join(format!("{f}.libsvm")).display().to_string(),
            ]);
        }
        args.extend(["--positive".to_owned(), self.positive.to_owned()]);
        if let Some(l) = self.limit {
            args.extend(["--limit".to_owned(), l.to_string()]);
        }
        args
    }
}

/// The 15 data sets \[OAUC\] reports on (its Tables 2 and 3) that `../shared/datasets` holds, in
/// the paper's order: the kernel table and the batch-against-online table (`KERNEL` and `BATCH`
/// of `experiments.rs`) both run on exactly these.
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

/// Every data set a table of the harness uses, with its files and positive class (the last
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
