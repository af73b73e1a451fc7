//! The worker threads of a command (`--threads`): one rayon pool built from the flag.

use crate::output::Error;

/// A thread pool of `threads` workers (all cores when `None`).
pub(crate) fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        if t == 0 {
            return Err("--threads must be at least 1".into());
        }
        // More threads than cores only adds switching; 100,000 of them kept both cores busy
        // creating threads for minutes (hostile input, item 8).
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        let most = cores.saturating_mul(4);
        if t > most {
            return Err(format!(
                "--threads {t} is more than 4 per core ({cores} cores here): use at most {most}"
            )
            .into());
        }
        b = b.num_threads(t);
    }
    Ok(b.build()?)
}
