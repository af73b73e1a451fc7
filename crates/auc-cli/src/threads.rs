//! The worker threads of a command (`--threads`): one rayon pool built from the flag.

use crate::output::Error;

/// A thread pool of `threads` workers (all cores when `None`).
pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err("--threads must be at least 1".into());
        }
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}
