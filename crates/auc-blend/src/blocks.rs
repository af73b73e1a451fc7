//! Work on a dataset's rows a block at a time, blocks in parallel and results in block order,
//! in memory bounded by a window of blocks, or in a few fixed parts of consecutive blocks: how
//! the kernel member takes the moments of its kernel values and scores rows without holding
//! every mapped row.

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

/// At most this many parts in [`parts`]: as many as [`WINDOW`], so that the parts' sums alive
/// at once are as many as a window's results.
pub(crate) const PARTS: usize = WINDOW;

/// Blocks a part holds at least, where there are that many: a part's sums (two $M \times M$
/// matrices, 16 MB at $M = 1000$) are zeroed, filled and added to the others, about a quarter of
/// one block's product, so parts of one block each spent a fifth of their time on their sums.
pub(crate) const PART_BLOCKS: usize = 4;

/// `0..n` cut into at most [`PARTS`] consecutive ranges of whole blocks of [`BLOCK_ROWS`]
/// (the last block may be short), of at least [`PART_BLOCKS`] blocks where there are that many,
/// as even as whole blocks allow. A function of `n` alone, so that work summed part by part
/// and then over the parts in order does not depend on the number of threads.
pub(crate) fn parts(n: usize) -> Vec<std::ops::Range<usize>> {
    let blocks = n.div_ceil(BLOCK_ROWS);
    let count = (blocks / PART_BLOCKS).clamp(1, PARTS);
    (0..count)
        .map(|k| {
            let (a, b) = (k * blocks / count, (k + 1) * blocks / count);
            (a * BLOCK_ROWS).min(n)..(b * BLOCK_ROWS).min(n)
        })
        .collect()
}

/// `work` on each block as [`map_blocks`] does, each result folded into `acc` by `fold` in
/// block order as its window ends, so that no more than [`WINDOW`] results are alive at once.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_rows_in_order_in_whole_blocks() {
        for n in [
            0,
            1,
            1023,
            1024,
            1025,
            5000,
            7 * 1024,
            8 * 1024,
            8 * 1024 + 1,
            20_000,
            1_000_000,
        ] {
            let p = parts(n);
            assert!(!p.is_empty() && p.len() <= PARTS, "{n}: {p:?}");
            assert_eq!(p[0].start, 0);
            assert_eq!(p.last().unwrap().end, n);
            for w in p.windows(2) {
                assert_eq!(w[0].end, w[1].start);
                assert_eq!(w[0].end % BLOCK_ROWS, 0, "{n}: {p:?}");
            }
            if n > 0 {
                assert!(p.iter().all(|r| !r.is_empty()), "{n}: {p:?}");
            }
            if p.len() > 1 {
                assert!(
                    p.iter().all(|r| r.len() > (PART_BLOCKS - 1) * BLOCK_ROWS),
                    "{n}: {p:?}"
                );
            }
        }
    }
}
