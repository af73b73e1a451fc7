//! The reproductions under `docs/results/`: the papers' tables and figures beside our results,
//! and the defaults chosen by measurement. The binary `auc-repro` runs them; `cargo xtask
//! reproduce WHAT` builds the release `auc` binary and this one and forwards its arguments here.
//!
//! | command | what | files |
//! |---|---|---|
//! | `linear` | every linear learner on the data sets of [OAUC Table 1] and [ADM Table 1] | `harness.rs`, `experiments.rs` |
//! | `kernel` | the kernel learners on those of [OAUC Table 3] | `harness.rs`, `experiments.rs` |
//! | `batch` | the batch moment learners beside OPAUC and OAUC-M on those of [OAUC Table 2] | `harness.rs`, `experiments.rs` |
//! | `cvm` | GAM-CVM and its baselines on those of [CVM Table 1], with figs. 4-5 | `cvm.rs`, `cvm/` |
//! | `defaults` | every grid point cross-validated alone, and the default chosen by a fixed rule | `defaults.rs`, `defaults/` |
//! | `regret` | OGD on psi_M against the best fixed w in hindsight and the bound of [OAUC Thm 6] | `regret.rs` |
//!
//! Shared by them: `sets.rs` (the data sets), `registry.rs` (`auc algos --json`), `grid.rs`
//! (grid axes), `plot.rs` (the figures) and `workspace.rs` (paths and files).
//!
//! The table reproductions (`linear`, `kernel`, `batch`, `defaults`) drive the release `auc`
//! binary as a process (`auc algos --json`, `auc cv`, `auc curve`, `auc friedman`), so they know
//! no learner: the algorithms and their grids come from the registry. `cvm` and `regret` call the
//! library crates directly, for what the command line does not expose (a kernel shared by every
//! candidate of an inner CV, the hindsight minimizer).
//!
//! What this crate reuses rather than owns: grid axes are read by [`auc_eval::grid`], ranks and
//! the Friedman / Nemenyi tests come from [`auc_eval::stats`] (in process, or through `auc
//! friedman`), and the figures are drawn by `plotters` (`plot.rs`). It never changes a library
//! crate's behaviour and writes only under `docs/results/` and `target/`.

#![allow(
    clippy::print_stdout,
    reason = "progress and the tables' paths are this program's output"
)]

mod cvm;
mod defaults;
mod experiments;
mod grid;
mod harness;
mod plot;
mod registry;
mod regret;
mod sets;
mod workspace;

use std::path::PathBuf;

pub use cvm::CvmArgs;
pub use defaults::DefaultsArgs;
pub use harness::TableArgs;
pub use regret::RegretArgs;

/// `auc-repro`'s command line.
#[derive(clap::Parser, Debug)]
#[command(
    name = "auc-repro",
    about = "The reproductions under docs/results (run through `cargo xtask reproduce`)",
    disable_help_subcommand = true
)]
pub struct Cli {
    /// The `auc` binary that `linear`, `kernel`, `batch` and `defaults` run (default: the
    /// workspace's `target/release/auc`, which `cargo xtask reproduce` builds first).
    #[arg(long, global = true, value_name = "PATH")]
    pub auc: Option<PathBuf>,
    /// The reproduction.
    #[command(subcommand)]
    pub what: Reproduction,
}

/// One reproduction and its flags.
#[derive(clap::Subcommand, Debug)]
pub enum Reproduction {
    /// Every linear learner on the data sets of [OAUC Table 1] and [ADM Table 1]:
    /// docs/results/linear.md and linear-curves.svg (--full-grid, --average or --algos write a
    /// separate table).
    Linear(harness::TableArgs),
    /// OKAUC-M, OKAUC-S and KOIL on the data sets of [OAUC Table 3]: docs/results/kernel.md
    /// (variants write a separate table).
    Kernel(harness::TableArgs),
    /// The batch moment learners beside OPAUC and OAUC-M on the data sets of [OAUC Table 2]:
    /// docs/results/batch.md.
    Batch(harness::TableArgs),
    /// GAM-CVM and its baselines on the data sets of [CVM Table 1]: docs/results/cvm.md with
    /// cvm-fig4.svg and cvm-fig5.svg.
    Cvm(Box<cvm::CvmArgs>),
    /// Every algorithm's grid points cross-validated one by one on the data sets of its
    /// family's table (`auc cv --each`), and the default chosen by a fixed rule with
    /// leave-one-set-out regrets: docs/results/defaults.md (measurements in
    /// docs/results/defaults/).
    Defaults(defaults::DefaultsArgs),
    /// OGD on psi_M against the best fixed w in hindsight and the bound of [OAUC Thm 6]:
    /// docs/results/regret.md and regret.svg.
    Regret(regret::RegretArgs),
}

/// Runs the reproduction `cli` names.
pub fn run(cli: Cli) -> Result<(), String> {
    let auc = || workspace::auc_binary(cli.auc.clone());
    match &cli.what {
        Reproduction::Linear(args) => harness::run(&experiments::LINEAR, args, &auc()?),
        Reproduction::Kernel(args) => harness::run(&experiments::KERNEL, args, &auc()?),
        Reproduction::Batch(args) => harness::run(&experiments::BATCH, args, &auc()?),
        Reproduction::Cvm(args) => cvm::run(args),
        Reproduction::Defaults(args) => defaults::run(args, &auc()?),
        Reproduction::Regret(args) => regret::run(args),
    }
}
