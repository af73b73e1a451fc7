//! `cargo xtask reproduce linear|kernel|regret|cvm|defaults [--quick]`: the papers' experiments
//! and the measured defaults (`defaults.rs`), written under
//! `docs/results/` beside the papers' figures (see `linear.rs`, whose harness `kernel.rs` reuses, and the `regret` binary of
//! `auc-benches`).

use std::path::PathBuf;

use crate::{cargo, project_root};

pub(crate) fn run(args: &[String]) -> Result<(), String> {
    let Some(what) = args.first().map(String::as_str) else {
        return Err(
            "usage: cargo xtask reproduce linear|kernel|batch|regret|cvm|defaults [--quick] [--full-grid] [--average] [--algos A,B] [--sets S,T] [--budget N] [--family F]"
                .into(),
        );
    };
    let quick = args.iter().any(|a| a == "--quick");
    match what {
        "linear" | "kernel" | "batch" => crate::linear::run(
            match what {
                "linear" => &crate::linear::LINEAR,
                "kernel" => &crate::kernel::KERNEL,
                _ => &crate::batch::BATCH,
            },
            &crate::linear::Options {
                quick,
                full_grid: args.iter().any(|a| a == "--full-grid"),
                average: args.iter().any(|a| a == "--average"),
                only: value_of(args, "--algos"),
                sets: value_of(args, "--sets"),
                budget: value_of(args, "--budget"),
            },
        ),
        "regret" => regret(quick),
        "cvm" => crate::cvm::run(&args[1..]),
        "defaults" => crate::defaults::run(&args[1..]),
        _ => Err(format!(
            "unknown reproduction `{what}` (known: linear, kernel, batch, regret, cvm, defaults)"
        )),
    }
}

/// The value after `flag`, if given.
fn value_of(args: &[String], flag: &str) -> Option<String> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

/// The shared data sets' folder, `../shared/datasets` beside the repository; an error if absent.
pub(crate) fn shared_datasets() -> Result<PathBuf, String> {
    let datasets = project_root().join("../shared/datasets");
    if datasets.is_dir() {
        Ok(datasets)
    } else {
        Err(format!(
            "{} not found: the reproduction needs ../shared beside the repository",
            datasets.display()
        ))
    }
}

/// The shared data sets' folder and a freshly built release `auc` binary.
pub(crate) fn release_auc() -> Result<(PathBuf, PathBuf), String> {
    let datasets = shared_datasets()?;
    crate::release_build()?;
    Ok((datasets, project_root().join("target/release/auc")))
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
    cargo(&args, &crate::DENY)?;
    eprintln!("reproduce: wrote {out_s}/regret.md and regret.svg");
    Ok(())
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
