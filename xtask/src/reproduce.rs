//! `cargo xtask reproduce baselines [--quick]`: the papers' protocol on `../shared/datasets`,
//! written as a table under `docs/results/` beside the papers' figures.
//!
//! It builds the `auc` binary in release, runs `auc cv --json` per data set and algorithm, and reads
//! each run's summary line. `--quick` uses 1 x 3-fold outer CV, a 3-point grid and 2 inner folds on
//! the smaller data sets, for CI-sized smoke runs; its table goes to a separate file.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::{cargo, project_root};

/// One data set of [OAUC Table 1] as `../shared/datasets/README.md` maps it.
struct Data {
    name: &'static str,
    files: &'static [&'static str],
    positive: &'static str,
    limit: Option<usize>,
    /// [OAUC Table 2] mean AUC (%) of Perceptron and PA-I.
    paper: [f64; 2],
    note: &'static str,
}

const OAUC_DATA: &[Data] = &[
    Data {
        name: "fourclass",
        files: &["fourclass"],
        positive: "1",
        limit: None,
        paper: [79.81, 82.81],
        note: "",
    },
    Data {
        name: "diabetes",
        files: &["diabetes"],
        positive: "1",
        limit: None,
        paper: [81.13, 83.15],
        note: "",
    },
    Data {
        name: "german",
        files: &["german"],
        positive: "-1",
        limit: None,
        paper: [73.68, 79.11],
        note: "",
    },
    Data {
        name: "splice",
        files: &["splice"],
        positive: "-1",
        limit: None,
        paper: [83.76, 89.00],
        note: "training split (1000)",
    },
    Data {
        name: "svmguide1",
        files: &["svmguide1", "svmguide1.t"],
        positive: "0",
        limit: None,
        paper: [91.29, 92.60],
        note: "train + test = 7089",
    },
    Data {
        name: "magic04",
        files: &["magic04"],
        positive: "-1",
        limit: None,
        paper: [71.19, 74.29],
        note: "",
    },
    Data {
        name: "australian",
        files: &["australian"],
        positive: "1",
        limit: None,
        paper: [89.96, 92.25],
        note: "",
    },
    Data {
        name: "heart",
        files: &["heart"],
        positive: "1",
        limit: None,
        paper: [87.19, 90.76],
        note: "",
    },
    Data {
        name: "ionosphere",
        files: &["ionosphere"],
        positive: "-1",
        limit: None,
        paper: [88.72, 91.96],
        note: "",
    },
    Data {
        name: "vehicle",
        files: &["vehicle"],
        positive: "2",
        limit: None,
        paper: [74.11, 73.48],
        note: "saab",
    },
    Data {
        name: "segment",
        files: &["segment"],
        positive: "1",
        limit: None,
        paper: [85.47, 70.35],
        note: "class 1 of 7",
    },
    Data {
        name: "satimage",
        files: &["satimage", "satimage.t"],
        positive: "4",
        limit: None,
        paper: [70.81, 73.72],
        note: "train + test = 6435",
    },
    Data {
        name: "poker",
        files: &["poker"],
        positive: "3",
        limit: None,
        paper: [52.28, 52.14],
        note: "",
    },
    Data {
        name: "letter",
        files: &["letter"],
        positive: "26",
        limit: Some(15000),
        paper: [75.28, 70.93],
        note: "first 15000 rows, Z",
    },
    Data {
        name: "shuttle",
        files: &["shuttle"],
        positive: "5",
        limit: None,
        paper: [92.08, 75.92],
        note: "class 5 (IR 16.7): no class gives the paper's IR 44.89",
    },
];

/// Algorithm name and its grid, per [OAUC sec. 6.3] (step and C from 2^[-10..10]).
const BASELINES: &[(&str, &str, Option<&str>)] = &[
    ("Perceptron", "perceptron", None),
    ("PA-I", "pa-i", Some("c=2^-10..2^10")),
];

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let Some(what) = args.first().map(String::as_str) else {
        return Err(
            "usage: cargo xtask reproduce baselines|linear|regret [--quick] [--full-grid]".into(),
        );
    };
    let quick = args.iter().any(|a| a == "--quick");
    match what {
        "baselines" => {}
        "regret" => return regret(quick),
        "linear" => return crate::linear::run(quick, args.iter().any(|a| a == "--full-grid")),
        _ => {
            return Err(format!(
                "unknown reproduction `{what}` (known: baselines, linear, regret)"
            ));
        }
    }
    let root = project_root();
    let datasets = root.join("../shared/datasets");
    if !datasets.is_dir() {
        return Err(format!(
            "{} not found: the reproduction needs ../shared beside the repository",
            datasets.display()
        ));
    }
    cargo(&["build", "--release", "--quiet", "-p", "auc-cli"], &[])?;
    let bin = root.join("target/release/auc");
    let started = Instant::now();
    let mut table = String::new();
    let protocol = if quick {
        "`--quick`: 1 x stratified 3-fold outer CV, 2-fold inner CV over c in {2^-4, 2^0, 2^4}, data sets under 2,000 rows only"
    } else {
        "4 x stratified 5-fold outer CV (20 runs); 5-fold inner CV over c in 2^[-10..10] for PA-I (the Perceptron has no parameter)"
    };
    let _ = writeln!(
        table,
        "# Baselines of [OAUC Table 2]: Perceptron and PA-I\n"
    );
    let _ = writeln!(
        table,
        "Produced by `cargo xtask reproduce baselines{}`.",
        if quick { " --quick" } else { "" }
    );
    let _ = writeln!(
        table,
        "Protocol: {protocol}; features min-max scaled to [-1, 1] on each training part; every training part fed in a seeded random order; seed 0."
    );
    let _ = writeln!(
        table,
        "Mean test AUC (%) ± standard deviation over the runs; the paper's figure beside ours.\n"
    );
    let _ = writeln!(
        table,
        "| data set | n | paper Perceptron | ours Perceptron | paper PA-I | ours PA-I | PA-I seconds | note |"
    );
    let _ = writeln!(table, "|---|---|---|---|---|---|---|---|");
    for d in OAUC_DATA {
        let paths: Vec<String> = d
            .files
            .iter()
            .map(|f| datasets.join(format!("{f}.libsvm")).display().to_string())
            .collect();
        let mut cells = Vec::new();
        let mut n = 0usize;
        let mut seconds = 0.0;
        for (_, algo, grid) in BASELINES {
            let mut args: Vec<String> = vec![
                "cv".into(),
                "--algo".into(),
                (*algo).into(),
                "--json".into(),
            ];
            for p in &paths {
                args.extend(["--data".into(), p.clone()]);
            }
            args.extend([
                "--positive".into(),
                d.positive.into(),
                "--seed".into(),
                "0".into(),
            ]);
            if let Some(l) = d.limit {
                args.extend(["--limit".into(), l.to_string()]);
            }
            if quick {
                args.extend(
                    ["--repeats", "1", "--folds", "3", "--inner-folds", "2"].map(String::from),
                );
                if grid.is_some() {
                    args.extend(["--grid".into(), "c=2^-4..2^4:4".into()]);
                }
            } else if let Some(g) = grid {
                args.extend(["--grid".into(), (*g).into()]);
            }
            let summary = run_cv(&bin, &args)?;
            n = field(&summary, "n_examples").map_or(n, |v| v as usize);
            if quick && n > 2000 {
                break;
            }
            seconds = field(&summary, "wall_seconds").unwrap_or(0.0);
            let (m, s) = (field(&summary, "auc_mean"), field(&summary, "auc_std"));
            cells.push(match (m, s) {
                (Some(m), Some(s)) => format!("{:.2} ± {:.2}", 100.0 * m, 100.0 * s),
                _ => "?".into(),
            });
        }
        if cells.len() < BASELINES.len() {
            continue;
        }
        eprintln!("reproduce: {} done", d.name);
        let _ = writeln!(
            table,
            "| {} | {n} | {:.2} | {} | {:.2} | {} | {seconds:.1} | {} |",
            d.name, d.paper[0], cells[0], d.paper[1], cells[1], d.note
        );
    }
    let _ = writeln!(
        table,
        "\nTotal wall time: {:.0} s on this machine ({} threads).",
        started.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let out_dir = root.join("docs/results");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let name = if quick {
        "baselines-quick.md"
    } else {
        "baselines.md"
    };
    let out = out_dir.join(name);
    let tmp = out_dir.join(format!(".{name}.tmp"));
    std::fs::write(&tmp, table).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!("reproduce: wrote {}", out.display());
    Ok(())
}

/// [OAUC Thm 6]'s regret experiment: `docs/results/regret.md` and `regret.svg` (the quick run
/// writes to `target/regret-quick/` so it never overwrites the committed table).
fn regret(quick: bool) -> Result<(), String> {
    let root = project_root();
    let out = if quick {
        root.join("target/regret-quick")
    } else {
        root.join("docs/results")
    };
    let out_s = out.display().to_string();
    let mut args = vec![
        "run",
        "--release",
        "--quiet",
        "-p",
        "auc-benches",
        "--bin",
        "regret",
        "--",
        "--out",
        &out_s,
    ];
    if quick {
        args.push("--quick");
    }
    cargo(&args, &[])?;
    eprintln!("reproduce: wrote {out_s}/regret.md and regret.svg");
    Ok(())
}

/// Runs `auc` and returns its last stdout line (the JSON summary).
pub(crate) fn run_cv(bin: &Path, args: &[String]) -> Result<String, String> {
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
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .last()
        .map(str::to_owned)
        .ok_or_else(|| format!("auc {} printed nothing", args.join(" ")))
}

/// The number after `"key":` in a flat JSON object.
pub(crate) fn field(json: &str, key: &str) -> Option<f64> {
    let at = json.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &json[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn fields_are_read_from_flat_json() {
        let s = r#"{"auc_mean":0.91,"runs":20,"x":{"a":1},"auc_std":1e-3}"#;
        assert_eq!(field(s, "auc_mean"), Some(0.91));
        assert_eq!(field(s, "runs"), Some(20.0));
        assert_eq!(field(s, "auc_std"), Some(0.001));
        assert_eq!(field(s, "missing"), None);
    }
}
