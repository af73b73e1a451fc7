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
    fold_blocks(data, Vec::new(), work, |mut out, t| {
        out.push(t);
        out
    })
}

/// `work` on each block as [`map_blocks`] does, each result folded into `acc` by `fold` in
/// block order as its window ends, so that no more than [`WINDOW`] results are alive at once
/// (a block's moments of the map's features are $8 M^2$ bytes: all of them would grow with
/// the rows).
pub(crate) fn fold_blocks<T: Send, A>(
    data: &Dataset,
    mut acc: A,
    work: impl Fn(&Dataset) -> T + Sync,
    mut fold: impl FnMut(A, T) -> A,
) -> A {
    let n = data.n();
    let starts: Vec<usize> = (0..n).step_by(BLOCK_ROWS).collect();
    for window in starts.chunks(WINDOW) {
        let results: Vec<T> = window
            .par_iter()
            .map(|&start| {
                let idx: Vec<usize> = (start..(start + BLOCK_ROWS).min(n)).collect();
                work(&data.select(&idx))
            })
            .collect();
        for t in results {
            acc = fold(acc, t);
        }
    }
    acc
}
