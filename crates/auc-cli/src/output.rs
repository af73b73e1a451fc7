//! Writing results: lines to stdout (a closed pipe ends the program quietly), and files written
//! atomically, with `-` meaning stdout.
//!
//! An output file is written to a temporary file in its folder and renamed into place, so a
//! failure never leaves a partial file. The temporary file is removed on every error path (its
//! guard's drop) and on SIGINT/SIGTERM ([`install_signal_cleanup`]). A file that is replaced
//! keeps its permission bits; a new file gets `0666` minus the umask, like any file a shell
//! redirection creates.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

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
        Err(e) => Err(stdout_error(e)),
    }
}

/// Set once a write to stdout found its reader gone.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether a write to stdout found it closed by its reader. `main` then ends with exit code 0
/// whatever error the command returns: [`Quit`] may reach it wrapped in another error (a
/// callback's error passed through the training layers as their own), and the reader, having
/// closed the pipe, asked for nothing more.
pub(crate) fn stdout_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// A write error on stdout: a closed pipe is [`Quit`].
fn stdout_error(e: io::Error) -> Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
        Box::new(Quit)
    } else {
        Box::new(e)
    }
}

/// Whether `path` means standard output.
pub(crate) fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Temporary files being written, removed by the signal handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every pending temporary file and exits with 130 on SIGINT, SIGTERM or SIGHUP.
pub(crate) fn install_signal_cleanup() {
    // Failing to install the handler (another one exists) only loses the cleanup on signals.
    let _ = ctrlc::set_handler(|| {
        if let Ok(pending) = PENDING.lock() {
            for p in pending.iter() {
                let _ = std::fs::remove_file(p);
            }
        }
        std::process::exit(130);
    });
}

/// A temporary file registered for removal on signals until it is persisted or dropped.
struct Pending {
    file: Option<tempfile::NamedTempFile>,
}

impl Pending {
    fn new(file: tempfile::NamedTempFile) -> Self {
        if let Ok(mut p) = PENDING.lock() {
            p.push(file.path().to_path_buf());
        }
        Self { file: Some(file) }
    }

    fn unregister(path: &Path) {
        if let Ok(mut p) = PENDING.lock() {
            p.retain(|q| q != path);
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(f) = &self.file {
            Self::unregister(f.path());
        }
    }
}

/// Writes `bytes` to `path` atomically (see the module docs); `-` writes them to stdout.
///
/// Two kinds of existing paths are not regular files. A device or a pipe (`-o /dev/null`,
/// `-o /dev/stdout`) is written into: a rename would replace it by a regular file, which for
/// `/dev/null` breaks every program on the machine that reads it. A symbolic link is kept and
/// the file it points to replaced.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let mut sink = Sink::create(path)?;
    sink.write(bytes)?;
    sink.finish()
}

/// An output written piece by piece (scores as rows are read) with the guarantees of
/// [`write_atomic`]: a file appears, complete, only when [`Sink::finish`] renames it into place;
/// dropping the sink unfinished (an error) removes the temporary file. Standard output and
/// devices are written as the pieces come, so a failure part way leaves what was written there.
pub(crate) struct Sink {
    kind: SinkKind,
    /// Names the output in errors.
    name: PathBuf,
}

enum SinkKind {
    Stdout(io::BufWriter<io::Stdout>),
    Device(io::BufWriter<std::fs::File>),
    Temp {
        pending: Pending,
        writer: io::BufWriter<std::fs::File>,
        target: PathBuf,
        old_permissions: Option<std::fs::Permissions>,
    },
}

impl Sink {
    /// Opens `path` (`-`: standard output) for writing: a temporary file beside a regular
    /// target, the path itself for a device or a pipe.
    pub(crate) fn create(path: &Path) -> Result<Sink, Error> {
        let name = path.to_path_buf();
        if is_stdout(path) {
            return Ok(Sink {
                kind: SinkKind::Stdout(io::BufWriter::with_capacity(1 << 16, io::stdout())),
                name,
            });
        }
        let named = |e: io::Error| -> Error { format!("{}: {e}", path.display()).into() };
        if let Ok(meta) = std::fs::metadata(path)
            && !meta.is_file()
        {
            if meta.is_dir() {
                return Err(format!("{}: is a directory", path.display()).into());
            }
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(named)?;
            return Ok(Sink {
                kind: SinkKind::Device(io::BufWriter::with_capacity(1 << 16, f)),
                name,
            });
        }
        let resolved = resolve_links(path).map_err(named)?;
        let dir = match resolved.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let old_permissions = std::fs::metadata(&resolved).ok().map(|m| m.permissions());
        let mut builder = tempfile::Builder::new();
        builder.prefix(".auc-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // 0666 minus the umask, as a new file made by a shell redirection.
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let tmp = builder.tempfile_in(&dir).map_err(named)?;
        let file = tmp.as_file().try_clone().map_err(named)?;
        Ok(Sink {
            kind: SinkKind::Temp {
                pending: Pending::new(tmp),
                writer: io::BufWriter::with_capacity(1 << 16, file),
                target: resolved,
                old_permissions,
            },
            name,
        })
    }

    /// Appends `bytes`. A closed standard output is [`Quit`].
    pub(crate) fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let result = match &mut self.kind {
            SinkKind::Stdout(w) => return w.write_all(bytes).map_err(stdout_error),
            SinkKind::Device(w) => w.write_all(bytes),
            SinkKind::Temp { writer, .. } => writer.write_all(bytes),
        };
        result.map_err(|e| format!("{}: {e}", self.name.display()).into())
    }

    /// Flushes, and for a file renames the complete temporary file into place (keeping the mode
    /// of a file it replaces).
    pub(crate) fn finish(self) -> Result<(), Error> {
        let named = |e: io::Error| -> Error { format!("{}: {e}", self.name.display()).into() };
        match self.kind {
            SinkKind::Stdout(mut w) => w.flush().map_err(stdout_error),
            SinkKind::Device(mut w) => w.flush().map_err(named),
            SinkKind::Temp {
                mut pending,
                writer,
                target,
                old_permissions,
            } => {
                let file = writer.into_inner().map_err(|e| named(e.into_error()))?;
                if let Some(perm) = old_permissions {
                    file.set_permissions(perm).map_err(named)?;
                }
                file.sync_all().map_err(named)?;
                drop(file);
                let tmp = pending.file.take().expect("set in new");
                let tmp_path = tmp.path().to_path_buf();
                let result = tmp.persist(&target).map_err(|e| named(e.error));
                Pending::unregister(&tmp_path);
                result.map(|_| ())
            }
        }
    }
}

/// Symbolic links followed at most by [`resolve_links`], as Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// The file that writing to `path` must replace: `path` itself, or, when it is a symbolic link
/// (also a dangling one, whose target does not exist yet), the file at the end of its chain of
/// links, so that the link is kept. An existing target is canonicalized as before.
///
/// Before, only `canonicalize` was tried; it fails on a dangling link, so `-o link` to a
/// not-yet-existing file replaced the link by a regular file (hostile input, item 9).
fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return std::fs::canonicalize(&p),
            // Nothing there (yet): write a new file at this path.
            Err(_) => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "more than {MAX_LINKS} levels of symbolic links"
    )))
}

/// Text to stdout or atomically to a file: scores, curves, CSV tables.
pub(crate) fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes())
}

/// The file `-o` names when it is not given: the first input's file name without its
/// compression and format extensions, with `extension`, in the current folder
/// (`data/heart.csv.gz` -> `heart.auc`). Standard input has no name to take, and a name equal
/// to an input's would overwrite it: both ask for `-o`.
pub(crate) fn default_output(inputs: &[PathBuf], extension: &str) -> Result<PathBuf, Error> {
    let ask = |why: &str| -> Error { format!("{why}: name the output with -o FILE").into() };
    let first = inputs.first().ok_or_else(|| ask("no input"))?;
    if is_stdout(first) {
        return Err(ask(
            "the input is standard input, which has no name to take",
        ));
    }
    let mut name = Path::new(
        first
            .file_name()
            .ok_or_else(|| ask("the input has no file name"))?,
    )
    .to_path_buf();
    if name.extension().is_some_and(|e| e == "gz") {
        name.set_extension("");
    }
    name.set_extension(extension);
    if inputs
        .iter()
        .any(|i| i.file_name() == Some(name.as_os_str()))
    {
        return Err(ask(&format!(
            "the default output {} would overwrite an input",
            name.display()
        )));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writing to /dev/null leaves it a device; writing through a symbolic link keeps the link.
    #[cfg(unix)]
    #[test]
    fn atomic_writes_keep_devices_links_and_modes() {
        use std::os::unix::fs::{FileTypeExt, PermissionsExt};
        write_atomic(Path::new("/dev/null"), b"scores\n").unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(meta.file_type().is_char_device(), "/dev/null was replaced");
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&file, b"old").unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&file, &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&file).unwrap(), b"new");
        // The replaced file keeps its mode.
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644);
        // A new file gets the mode a plain create gives under this umask (0666 minus it), not
        // the temporary file's 0600.
        let plain = dir.path().join("plain.txt");
        std::fs::write(&plain, b"x").unwrap();
        let expected = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let fresh = dir.path().join("fresh.txt");
        write_atomic(&fresh, b"x").unwrap();
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, expected, "new files follow the umask");
        let err = write_atomic(dir.path(), b"x").unwrap_err().to_string();
        assert!(err.contains(&dir.path().display().to_string()), "{err}");
        // No temporary file is left behind.
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
