//! `auc-repro`: the reproductions under `docs/results/` (see the library's docs). Usually run as
//! `cargo xtask reproduce WHAT [ARGS]`, which builds the release `auc` binary first.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match auc_repro::run(auc_repro::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("auc-repro: {e}");
            ExitCode::from(2)
        }
    }
}
