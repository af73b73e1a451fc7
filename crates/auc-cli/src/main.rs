//! The `auc` command: inspect data files, compute AUC/AP of scores, list algorithms, and run the
//! papers' nested cross-validation protocol on any learner.
//!
//! This is the only crate that knows algorithm names and file paths. Every error goes to stderr
//! with its cause chain and exit code 2; a closed stdout pipe (`auc cv ... | head`) is a success.

mod algos;
mod batch;
mod commands;
mod hyper;
mod learners;
mod load;
mod model;
mod output;
mod progress;
mod train;

use std::process::ExitCode;

use clap::Parser;

use crate::output::Quit;

fn main() -> ExitCode {
    // No backtraces for users: an internal error still prints one line and exits non-zero.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("auc: internal error: {info}");
    }));
    let cli = match commands::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // Printing help or a usage error; a failure to print is not worth reporting.
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Quit>() => ExitCode::SUCCESS,
        Err(e) => {
            let mut msg = format!("auc: error: {e}");
            let mut source = e.source();
            while let Some(s) = source {
                msg.push_str(&format!("\n  caused by: {s}"));
                source = s.source();
            }
            eprintln!("{msg}");
            ExitCode::from(2)
        }
    }
}
