//! The `auc` command: inspect data files, compute AUC/AP of scores, list algorithms, train,
//! score and describe models, and run the papers' nested cross-validation protocol on any
//! learner.
//!
//! This is the only crate that reads paths and talks to users. It knows no learner by name: the
//! registry (`auc_learners::ALL`) says which algorithms exist and what they take. Every error
//! goes to stderr with its cause chain and exit code 2; a closed stdout pipe (`auc cv ... |
//! head`) is a success.

mod algos;
mod calibration_args;
mod commands;
mod compare;
mod curve;
mod cv;
mod explain;
mod friedman;
mod help;
mod hyper;
mod importance;
mod info;
mod input;
mod learning;
mod metrics;
mod moments;
mod multiclass;
mod notes;
mod output;
mod plot;
mod predict;
mod progress;
mod stage_args;
mod stream;
mod train;
mod training;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::output::Quit;

fn main() -> ExitCode {
    // No backtraces for users: an internal error still prints one line and exits non-zero.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("auc: internal error: {info}");
    }));
    output::install_signal_cleanup();
    let parsed = help::shape(commands::Cli::command())
        .try_get_matches()
        .and_then(|m| commands::Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // Printing help or a usage error; a failure to print is not worth reporting.
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    notes::set_quiet(cli.quiet);
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Quit>() || output::stdout_closed() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_chain(e.as_ref()));
            ExitCode::from(2)
        }
    }
}

/// `auc: error: MESSAGE`, then each cause whose text the message does not already contain (so
/// no cause is printed twice).
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut msg = format!("auc: error: {e}");
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !msg.contains(&text) {
            msg.push_str(&format!("\n  caused by: {text}"));
        }
        source = s.source();
    }
    msg
}
