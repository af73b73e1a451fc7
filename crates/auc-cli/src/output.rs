//! Writing results to stdout, where a closed pipe ends the program quietly.

use std::fmt;
use std::io::{self, Write};

/// Raised when stdout is closed by its reader; `main` turns it into exit code 0.
#[derive(Debug)]
pub(crate) struct Quit;

impl fmt::Display for Quit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stdout was closed")
    }
}

impl std::error::Error for Quit {}

/// The error type of every command.
pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

/// Writes one line to stdout.
pub(crate) fn line(text: impl fmt::Display) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Box::new(Quit)),
        Err(e) => Err(Box::new(e)),
    }
}
