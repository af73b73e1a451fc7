//! Work on a dataset's rows a block at a time, blocks in parallel and results in block order,
//! in memory bounded by a window of blocks: how the kernel member maps rows, takes their
//! moments and scores them without holding every mapped row.

use auc_core::Dataset;
use rayon::prelude::*;

/// Rows a block.
pub(crate) const BLOCK_ROWS: usize = 1024;

/// Blocks worked on at once.
pub(crate) const WINDOW: usize = 8;

/// `work` on each block of [`BLOCK_ROWS`] consecutive rows of `data`, [`WINDOW`] blocks in
/// parallel at a time; the results in block order, whatever the number of threads.
pub(crate) fn map_blocks<T: Send>(data: &Dataset, work: impl Fn(&Dataset) -> T + Sync) -> Vec<T> {
    let n = data.n();
    let starts: Vec<usize> = (0..n).step_by(BLOCK_ROWS).collect();
    let mut out = Vec::with_capacity(starts.len());
    for window in starts.chunks(WINDOW) {
        let results: Vec<T> = window
            .par_iter()
            .map(|&start| {
                let idx: Vec<usize> = (start..(start + BLOCK_ROWS).min(n)).collect();
                work(&data.select(&idx))
            })
            .collect();
        out.extend(results);
    }
    out
}
