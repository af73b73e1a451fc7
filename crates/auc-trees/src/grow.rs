//! Growing one tree on binned rows, leaf by leaf (`docs/math/boosted-trees.md`, section 2).
//!
//! Every leaf keeps its rows (a range of one index array, partitioned in place as leaves
//! split), the sums $G, H$ of their gradients and Hessian diagonals, and a histogram: per
//! feature and bin, the sums of $g$, $h$ and the count of its rows. The split of a leaf that
//! lowers the second-order model of the loss most,
//! $$ \text{gain} = \frac{G_L^2}{H_L + \lambda} + \frac{G_R^2}{H_R + \lambda} -
//!    \frac{G^2}{H + \lambda}, $$
//! is found by one scan of each feature's bins; among the leaves the one of largest gain
//! splits next, until the tree has its number of leaves or no split gains (each side must keep
//! `min_leaf` rows and a Hessian sum of `min_hessian`). A leaf's value is the Newton step
//! $-G / (H + \lambda)$ times the learning rate.
//!
//! Only the smaller child's histogram is built from its rows; the larger one's is the parent's
//! less it, and children that cannot split get none. Each feature's histogram sums its rows
//! in order, whichever task does it (a leaf's features two to a task, the root's in as many
//! groups as threads), so a tree does not depend on the number of threads; the partitions,
//! the gathers of a leaf's gradients and the leaf values' additions run over fixed chunks of
//! rows in parallel with the results of a serial pass (tested against one).

use rayon::prelude::*;

use crate::bins::{Binned, Bins, MAX_BINS};
use crate::tree::{Child, Node, Tree};

/// How a tree grows.
#[derive(Clone, Copy, Debug)]
pub struct Growth {
    /// The most leaves.
    pub leaves: usize,
    /// The fewest rows a leaf may hold.
    pub min_leaf: usize,
    /// The smallest Hessian sum a leaf may hold.
    pub min_hessian: f64,
    /// $\lambda$, the L2 penalty on leaf values.
    pub lambda: f64,
    /// The learning rate that multiplies leaf values.
    pub eta: f64,
}

impl Growth {
    /// Whether a leaf of `count` rows can split: each side keeps `min_leaf` rows (at least 1).
    fn splittable(&self, count: usize) -> bool {
        count >= 2 * self.min_leaf.max(1)
    }
}

/// One feature's histogram: per bin the sums of $g$ and $h$ and the row count, side by side
/// in four lanes (the fourth stays 0), so that a row adds to all three with one four-lane
/// vector addition, each lane the same sum as alone (a count below $2^{53}$ is exact). The
/// cells are [`MAX_BINS`] whatever the feature's bins, so a byte indexes them without a
/// bounds check.
#[derive(Clone, Debug)]
struct Hist {
    cells: Box<[[f64; 4]; MAX_BINS]>,
    /// The feature's bins: the cells in use.
    bins: usize,
}

impl Hist {
    fn zeroed(bins: usize) -> Hist {
        Hist {
            cells: Box::new([[0.0; 4]; MAX_BINS]),
            bins,
        }
    }

    /// `self -= other`, bin by bin.
    fn subtract(&mut self, other: &Hist) {
        for (a, b) in self.cells[..self.bins]
            .iter_mut()
            .zip(&other.cells[..self.bins])
        {
            *a = [a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3]];
        }
    }

    /// Bin `b`'s sums of $g$ and $h$ and its count.
    fn bin(&self, b: usize) -> (f64, f64, usize) {
        let [g, h, c, _] = self.cells[b];
        (g, h, c as usize)
    }
}

/// Adds a row of bin `b` with gradient and Hessian `gh` to `cells`.
#[inline(always)]
fn add(cells: &mut [[f64; 4]; MAX_BINS], b: u8, [g, h]: [f64; 2]) {
    let s = &mut cells[usize::from(b)];
    *s = [s[0] + g, s[1] + h, s[2] + 1.0, s[3] + 0.0];
}

/// Adds a row's gradient and Hessian to bin `b`'s sums, not to its count.
#[inline(always)]
fn add_sums(cells: &mut [[f64; 4]; MAX_BINS], b: u8, [g, h]: [f64; 2]) {
    let s = &mut cells[usize::from(b)];
    *s = [s[0] + g, s[1] + h, s[2], s[3]];
}

/// Two features' histograms over a leaf's rows `rows`, their gradients in `lgh` (compiled
/// for AVX2 and the baseline, chosen at run time: only additions, so the same bits).
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn fill_pair(
    a: &mut [[f64; 4]; MAX_BINS],
    b: &mut [[f64; 4]; MAX_BINS],
    ca: &[u8],
    cb: &[u8],
    rows: &[u32],
    lgh: &[[f64; 2]],
) {
    for (&i, &gh) in rows.iter().zip(lgh) {
        add(a, ca[i as usize], gh);
        add(b, cb[i as usize], gh);
    }
}

/// One feature's histogram over a leaf's rows (as [`fill_pair`]).
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn fill_one(a: &mut [[f64; 4]; MAX_BINS], ca: &[u8], rows: &[u32], lgh: &[[f64; 2]]) {
    for (&i, &gh) in rows.iter().zip(lgh) {
        add(a, ca[i as usize], gh);
    }
}

/// Two features' sums over every row in order (the root; counts are set apart).
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn fill_pair_all(
    a: &mut [[f64; 4]; MAX_BINS],
    b: &mut [[f64; 4]; MAX_BINS],
    ca: &[u8],
    cb: &[u8],
    gh: &[[f64; 2]],
) {
    for ((&ba, &bb), &r) in ca.iter().zip(cb).zip(gh) {
        add_sums(a, ba, r);
        add_sums(b, bb, r);
    }
}

/// One feature's sums over every row in order (as [`fill_pair_all`]).
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn fill_one_all(a: &mut [[f64; 4]; MAX_BINS], ca: &[u8], gh: &[[f64; 2]]) {
    for (&ba, &r) in ca.iter().zip(gh) {
        add_sums(a, ba, r);
    }
}

/// Sets the counts of `a` to a feature's counts over every row.
fn set_counts(a: &mut Hist, counts: &[u32; MAX_BINS]) {
    for (cell, &c) in a.cells.iter_mut().zip(counts) {
        cell[2] = f64::from(c);
    }
}

/// The best split of a leaf: after bin `bin` of `feature`, with the left side's sums.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Split {
    gain: f64,
    feature: usize,
    bin: usize,
    left_g: f64,
    left_h: f64,
    left_c: usize,
}

/// A leaf while the tree grows.
struct Leaf {
    /// Its rows: `order[start..end]`.
    start: usize,
    end: usize,
    g: f64,
    h: f64,
    hist: Vec<Hist>,
    best: Option<Split>,
    /// The node and side that point at it (`None` for the root).
    parent: Option<(usize, bool)>,
}

/// Scratch reused across trees: the row order, the partition buffers (two halves) and the gathered
/// gradients and Hessians of a leaf, side by side.
#[derive(Default)]
pub struct GrowScratch {
    order: Vec<u32>,
    spare: Vec<u32>,
    lgh: Vec<[f64; 2]>,
}

/// Grows a tree on `binned` rows with gradients and Hessians `gh` (side by side a row), and
/// adds each row's leaf value to its score in `f`.
pub fn grow(
    binned: &Binned,
    bins: &Bins,
    gh: &[[f64; 2]],
    growth: &Growth,
    f: &mut [f64],
    s: &mut GrowScratch,
) -> Tree {
    let n = gh.len();
    s.order.clear();
    s.order.extend(0..n as u32);
    let root_hist = root_histogram(binned, bins, gh);
    // The root's sums: its first feature's bins added up (every row is in one of them), or
    // the rows' own without features.
    let (gs, hs) = match root_hist.first() {
        Some(hist) => (0..hist.bins).fold((0.0, 0.0), |(g, h), b| {
            let (bg, bh, _) = hist.bin(b);
            (g + bg, h + bh)
        }),
        None => gh.iter().fold((0.0, 0.0), |(g, h), r| (g + r[0], h + r[1])),
    };
    let mut leaves = vec![Leaf {
        start: 0,
        end: n,
        g: gs,
        h: hs,
        best: None,
        hist: root_hist,
        parent: None,
    }];
    leaves[0].best = best_split(&leaves[0], growth);
    let mut nodes: Vec<Node> = Vec::new();
    while leaves.len() < growth.leaves {
        // The leaf of largest gain (the first among equals).
        let Some((k, split)) = leaves
            .iter()
            .enumerate()
            .filter_map(|(k, l)| l.best.map(|b| (k, b)))
            .fold(None, |acc: Option<(usize, Split)>, (k, b)| match acc {
                Some((_, a)) if a.gain >= b.gain => acc,
                _ => Some((k, b)),
            })
        else {
            break;
        };
        let (start, end) = (leaves[k].start, leaves[k].end);
        let mid = partition(
            binned.column(split.feature),
            split.bin,
            &mut s.order[start..end],
            &mut s.spare,
        ) + start;
        debug_assert_eq!(mid - start, split.left_c);
        // The node that replaces leaf k: its left child keeps leaf k's index, the right one
        // is a new leaf.
        let node = nodes.len();
        let right_leaf = leaves.len();
        nodes.push(Node {
            feature: split.feature as u32,
            cut: bins.cut(split.feature, split.bin),
            left: Child::Leaf(k as u32),
            right: Child::Leaf(right_leaf as u32),
        });
        if let Some((p, left_side)) = leaves[k].parent {
            let child = Child::Node(node as u32);
            if left_side {
                nodes[p].left = child;
            } else {
                nodes[p].right = child;
            }
        }
        let parent_hist = std::mem::take(&mut leaves[k].hist);
        let (pg, ph) = (leaves[k].g, leaves[k].h);
        let (lg, lh) = (split.left_g, split.left_h);
        // Histograms only for children that may split: none after the tree's last split,
        // none for two children too small to split.
        let final_split = leaves.len() + 1 >= growth.leaves;
        let may_split = |c: usize| !final_split && growth.splittable(c);
        let (left_hist, right_hist) = if may_split(mid - start) || may_split(end - mid) {
            let left_small = mid - start <= end - mid;
            let small_range = if left_small { (start, mid) } else { (mid, end) };
            let small = leaf_histogram(
                binned,
                bins,
                gh,
                &s.order[small_range.0..small_range.1],
                &mut s.lgh,
            );
            let mut large = parent_hist;
            for (a, b) in large.iter_mut().zip(&small) {
                a.subtract(b);
            }
            if left_small {
                (small, large)
            } else {
                (large, small)
            }
        } else {
            (Vec::new(), Vec::new())
        };
        leaves[k] = Leaf {
            start,
            end: mid,
            g: lg,
            h: lh,
            hist: left_hist,
            best: None,
            parent: Some((node, true)),
        };
        leaves.push(Leaf {
            start: mid,
            end,
            g: pg - lg,
            h: ph - lh,
            hist: right_hist,
            best: None,
            parent: Some((node, false)),
        });
        let kb = best_split(&leaves[k], growth);
        leaves[k].best = kb;
        let rb = best_split(&leaves[right_leaf], growth);
        leaves[right_leaf].best = rb;
    }
    let values: Vec<f64> = leaves
        .iter()
        .map(|l| leaf_value(l.g, l.h, growth))
        .collect();
    add_leaf_values(&leaves, &values, &s.order, f);
    Tree {
        nodes,
        leaves: values,
    }
}

/// Adds each leaf's value to the scores of its rows: in parallel over blocks of rows, each
/// block finding its part of every leaf's rows (ascending within the leaf, by the stable
/// partitions) by binary search. Every score gets one addition, as in a serial pass.
fn add_leaf_values(leaves: &[Leaf], values: &[f64], order: &[u32], f: &mut [f64]) {
    f.par_chunks_mut(CHUNK).enumerate().for_each(|(c, block)| {
        let (lo, hi) = ((c * CHUNK) as u32, (c * CHUNK + block.len()) as u32);
        for (l, &v) in leaves.iter().zip(values) {
            let rows = &order[l.start..l.end];
            let from = rows.partition_point(|&i| i < lo);
            let to = rows.partition_point(|&i| i < hi);
            for &i in &rows[from..to] {
                block[(i - lo) as usize] += v;
            }
        }
    });
}

/// $-\eta G / (H + \lambda)$, or 0 when $H + \lambda$ is not positive (no pair in the margin).
fn leaf_value(g: f64, h: f64, growth: &Growth) -> f64 {
    let d = h + growth.lambda;
    if d > 1e-12 { -growth.eta * g / d } else { 0.0 }
}

/// The histograms of a leaf's rows `rows`.
///
/// The rows' gradients are gathered first, so that each feature's pass reads them in order.
/// Features are taken two at a time, so that a row's index and gradients are read once for
/// both; each histogram still sums its rows in order.
fn leaf_histogram(
    binned: &Binned,
    bins: &Bins,
    gh: &[[f64; 2]],
    rows: &[u32],
    lgh: &mut Vec<[f64; 2]>,
) -> Vec<Hist> {
    rows.par_iter()
        .with_min_len(CHUNK)
        .map(|&i| gh[i as usize])
        .collect_into_vec(lgh);
    let lgh = &*lgh;
    let p = bins.dim();
    let pair = |k: usize| {
        let (f0, f1) = (2 * k, 2 * k + 1);
        let mut a = Hist::zeroed(bins.bins(f0));
        let ca = binned.column(f0);
        if f1 < p {
            let mut b = Hist::zeroed(bins.bins(f1));
            let cb = binned.column(f1);
            fill_pair(&mut a.cells, &mut b.cells, ca, cb, rows, lgh);
            [Some(a), Some(b)]
        } else {
            fill_one(&mut a.cells, ca, rows, lgh);
            [Some(a), None]
        }
    };
    // A small leaf's pairs on this thread: waking the others would cost more than the sums.
    let pairs: Vec<[Option<Hist>; 2]> = if rows.len() < SERIAL_ROWS {
        (0..p.div_ceil(2)).map(pair).collect()
    } else {
        (0..p.div_ceil(2)).into_par_iter().map(pair).collect()
    };
    pairs.into_iter().flatten().flatten().collect()
}

/// The root's histograms: every row in order, its gradients read where they are. As many groups of features as threads (the
/// threads finish together); each group walks the rows in blocks, all its features over one
/// block before the next, so that a block's gradients are read from memory once for the
/// group. The counts are the binned rows' own.
fn root_histogram(binned: &Binned, bins: &Bins, gh: &[[f64; 2]]) -> Vec<Hist> {
    let p = bins.dim();
    let threads = rayon::current_num_threads().clamp(1, p.max(1));
    let size = p.div_ceil(threads).max(1);
    let starts: Vec<usize> = (0..p).step_by(size).collect();
    let groups: Vec<Vec<Hist>> = starts
        .into_par_iter()
        .map(|f0| {
            let fs = f0..(f0 + size).min(p);
            let mut hists: Vec<Hist> = fs.clone().map(|f| Hist::zeroed(bins.bins(f))).collect();
            let cols: Vec<&[u8]> = fs.clone().map(|f| binned.column(f)).collect();
            for lo in (0..gh.len()).step_by(BLOCK) {
                let hi = (lo + BLOCK).min(gh.len());
                let gh = &gh[lo..hi];
                for (hs, cs) in hists.chunks_mut(2).zip(cols.chunks(2)) {
                    match hs {
                        [a, b] => fill_pair_all(
                            &mut a.cells,
                            &mut b.cells,
                            &cs[0][lo..hi],
                            &cs[1][lo..hi],
                            gh,
                        ),
                        [a] => fill_one_all(&mut a.cells, &cs[0][lo..hi], gh),
                        _ => unreachable!("chunks of one or two"),
                    }
                }
            }
            for (hist, f) in hists.iter_mut().zip(fs) {
                set_counts(hist, binned.counts(f));
            }
            hists
        })
        .collect();
    groups.into_iter().flatten().collect()
}

/// Leaves of fewer rows have their histograms summed on one thread.
const SERIAL_ROWS: usize = 2048;

/// Rows of one block of a histogram pass.
const BLOCK: usize = 4096;

/// The leaf's split of largest positive gain that leaves both sides `min_leaf` rows and
/// `min_hessian`, each feature's bins left to right (the first among equals).
///
/// A feature is scanned in three passes: its left sums after each bin (one four-lane running
/// sum, two features' sums interleaved), every bin's gain with the bins that cannot split set
/// to $-\infty$ (no branch, so the divisions run four to a vector instruction), and the
/// largest gain (its first bin). Each gain is the same expression of the same sums as a scan
/// that tests each bin in turn, so the same split, bit for bit (tested against one).
fn best_split(leaf: &Leaf, growth: &Growth) -> Option<Split> {
    let count = leaf.end - leaf.start;
    if !growth.splittable(count) {
        return None;
    }
    let parent = score(leaf.g, leaf.h, growth.lambda);
    let floor = 1e-12 * parent.abs().max(1e-300);
    let side = Side {
        g: leaf.g,
        h: leaf.h,
        count: count as f64,
        min_leaf: growth.min_leaf as f64,
        min_hessian: growth.min_hessian,
        lambda: growth.lambda,
        parent,
    };
    let mut left = [[[0.0; 4]; MAX_BINS]; 2];
    let mut gains = [0.0; MAX_BINS];
    let mut best: Option<Split> = None;
    // Features two at a time, so that their running sums interleave.
    for (pair, hists) in leaf.hist.chunks(2).enumerate() {
        // A split after the last bin leaves nothing on the right.
        let lasts = hists.iter().map(|h| h.bins.saturating_sub(1));
        let len = lasts.clone().max().unwrap_or(0);
        let [la, lb] = &mut left;
        match hists {
            [a, b] => left_sums_pair(&a.cells[..len], &b.cells[..len], la, lb),
            [a] => left_sums_pair(&a.cells[..len], &a.cells[..len], la, lb),
            _ => unreachable!("chunks of one or two"),
        }
        for ((k, hist), last) in hists.iter().enumerate().zip(lasts) {
            let (left, gains) = (&left[k][..last], &mut gains[..last]);
            split_gains(&side, &hist.cells[..last], left, gains);
            let top = largest(gains);
            if top > floor && best.is_none_or(|s| top > s.gain) {
                // The first bin of the largest gain.
                let b = gains
                    .iter()
                    .position(|&g| g.to_bits() == top.to_bits())
                    .expect("the largest is a gain");
                best = Some(Split {
                    gain: top,
                    feature: 2 * pair + k,
                    bin: b,
                    left_g: left[b][0],
                    left_h: left[b][1],
                    left_c: left[b][2] as usize,
                });
            }
        }
    }
    best
}

/// $G^2 / (H + \lambda)$, the loss's decrease by a leaf of sums $G, H$ (0 where $H + \lambda$ is
/// not positive).
#[inline(always)]
fn score(g: f64, h: f64, lambda: f64) -> f64 {
    if h + lambda > 0.0 {
        g * g / (h + lambda)
    } else {
        0.0
    }
}

/// What a split's gain needs of its leaf: the leaf's sums and count, the limits and
/// $\lambda$, and the leaf's own score.
struct Side {
    g: f64,
    h: f64,
    count: f64,
    min_leaf: f64,
    min_hessian: f64,
    lambda: f64,
    parent: f64,
}

/// `la[b]`: the sums of cells `a[0..=b]`, lane by lane and in order; `lb` those of `b`.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn left_sums_pair(a: &[[f64; 4]], b: &[[f64; 4]], la: &mut [[f64; 4]], lb: &mut [[f64; 4]]) {
    let (mut sa, mut sb) = ([0.0; 4], [0.0; 4]);
    for (((ca, cb), oa), ob) in a.iter().zip(b).zip(la).zip(lb) {
        sa = [sa[0] + ca[0], sa[1] + ca[1], sa[2] + ca[2], sa[3] + ca[3]];
        sb = [sb[0] + cb[0], sb[1] + cb[1], sb[2] + cb[2], sb[3] + cb[3]];
        *oa = sa;
        *ob = sb;
    }
}

/// The largest of `gains` that is a number ($-\infty$ if none), four running maxima at once
/// (each a comparison and a select, which is one vector maximum instruction; `f64::max`'s
/// treatment of NaN kept the loop scalar).
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn largest(gains: &[f64]) -> f64 {
    let above = |m: f64, g: f64| if g > m { g } else { m };
    let mut m = [f64::NEG_INFINITY; 4];
    let mut quads = gains.chunks_exact(4);
    for q in &mut quads {
        for (m, &g) in m.iter_mut().zip(q) {
            *m = above(*m, g);
        }
    }
    quads
        .remainder()
        .iter()
        .chain(&m)
        .fold(f64::NEG_INFINITY, |a, &g| above(a, g))
}

/// Each bin's gain of the split after it, or $-\infty$ where the split is not allowed: an
/// empty bin (the same split as after the bin before), fewer than `min_leaf` rows or less than
/// `min_hessian` on a side. Counts are exact in `f64`.
#[multiversion::multiversion(targets("x86_64+avx2"))]
fn split_gains(side: &Side, cells: &[[f64; 4]], left: &[[f64; 4]], gains: &mut [f64]) {
    let lam = side.lambda;
    for ((c, l), out) in cells.iter().zip(left).zip(gains) {
        let [gl, hl, cl, _] = *l;
        let (gr, hr, cr) = (side.g - gl, side.h - hl, side.count - cl);
        let allowed = (c[2] != 0.0)
            & (cl >= side.min_leaf)
            & (cr >= side.min_leaf)
            // Not below the limit: a NaN sum passes, as in a test `h < min_hessian` that skips.
            & ((hl >= side.min_hessian) | hl.is_nan())
            & ((hr >= side.min_hessian) | hr.is_nan());
        let gain = score(gl, hl, lam) + score(gr, hr, lam) - side.parent;
        *out = if allowed { gain } else { f64::NEG_INFINITY };
    }
}

/// Rows a parallel task of the gather and the partition takes at a time.
const CHUNK: usize = 1 << 14;

/// Moves the rows of `rows` whose bin is at most `bin` to the front, each side in its order;
/// returns how many there are. Chunks of rows are split in parallel into the two halves of
/// `spare`, then every chunk's two sides are copied back to their places in parallel (the
/// places are disjoint, the copies independent): a stable partition is unique, so the result
/// does not depend on the chunks or the threads.
fn partition(col: &[u8], bin: usize, rows: &mut [u32], spare: &mut Vec<u32>) -> usize {
    let n = rows.len();
    // Grown once to the root's size; what it holds is overwritten before it is read.
    if spare.len() < 2 * n {
        spare.resize(2 * n, 0);
    }
    let (lspare, rspare) = spare[..2 * n].split_at_mut(n);
    let lefts: Vec<usize> = rows
        .par_chunks(CHUNK)
        .zip(lspare.par_chunks_mut(CHUNK))
        .zip(rspare.par_chunks_mut(CHUNK))
        .map(|((rows, l), r)| split_chunk(col, bin, rows, l, r))
        .collect();
    let left: usize = lefts.iter().sum();
    // Each chunk's left rows follow the previous chunks' left rows, its right rows the previous
    // chunks' right rows after all the left ones.
    let parallel = n >= PARALLEL_COPY_ROWS;
    let (mut to_left, mut to_right) = rows.split_at_mut(left);
    let mut copies: Vec<(&mut [u32], &[u32])> = Vec::new();
    for (c, &l) in lefts.iter().enumerate() {
        let from = c * CHUNK;
        let r = (n - from).min(CHUNK) - l;
        let (a, rest) = std::mem::take(&mut to_left).split_at_mut(l);
        to_left = rest;
        let (b, rest) = std::mem::take(&mut to_right).split_at_mut(r);
        to_right = rest;
        let sides = [(a, &lspare[from..from + l]), (b, &rspare[from..from + r])];
        if parallel {
            copies.extend(sides);
        } else {
            for (to, from) in sides {
                to.copy_from_slice(from);
            }
        }
    }
    if parallel {
        copies
            .into_par_iter()
            .for_each(|(to, from)| to.copy_from_slice(from));
    }
    left
}

/// Leaves of fewer rows have their partition's copies made on one thread: waking the other
/// would cost more than the copies (with every leaf's copies in parallel, magic04's fit, 19,020
/// rows, took 1.08 times as long).
const PARALLEL_COPY_ROWS: usize = 4 * CHUNK;

/// One chunk's stable partition: its left rows to the front of `left`, its right rows to the
/// front of `right`; returns the left count.
fn split_chunk(col: &[u8], bin: usize, rows: &[u32], left: &mut [u32], right: &mut [u32]) -> usize {
    // Without a branch on the row's side (a coin flip the processor cannot predict): each row
    // is written to both places, and only its own side's count moves on.
    let (mut l, mut r) = (0, 0);
    for &i in rows {
        let goes_left = usize::from(col[i as usize] as usize <= bin);
        left[l] = i;
        right[r] = i;
        l += goes_left;
        r += 1 - goes_left;
    }
    l
}

#[cfg(test)]
mod tests {
    //! The parallel pieces against serial loops: each must give the same bits whatever the
    //! chunks, blocks and threads.

    #![allow(
        clippy::float_cmp,
        reason = "the parallel and serial computations add the same numbers in the same order"
    )]

    use super::*;
    use auc_core::{Dataset, Label};

    /// A tiny deterministic generator (the tests need no statistics, only variety).
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 33
    }

    /// `n` rows of `p` features, a few distinct values each so that bins repeat.
    fn data(n: usize, p: usize, seed: u64) -> Dataset {
        let mut s = seed;
        let values: Vec<f64> = (0..n * p).map(|_| (lcg(&mut s) % 300) as f64).collect();
        let labels = (0..n)
            .map(|i| if i % 7 == 0 { Label::Pos } else { Label::Neg })
            .collect();
        Dataset::dense(p, values, labels).unwrap()
    }

    fn serial_hist(
        binned: &Binned,
        bins: &Bins,
        f: usize,
        rows: &[u32],
        g: &[f64],
        h: &[f64],
    ) -> Vec<(f64, f64, usize)> {
        let mut out = vec![(0.0, 0.0, 0); bins.bins(f)];
        for &i in rows {
            let c = &mut out[binned.column(f)[i as usize] as usize];
            c.0 += g[i as usize];
            c.1 += h[i as usize];
            c.2 += 1;
        }
        out
    }

    #[test]
    fn histograms_equal_serial_sums_whatever_the_threads() {
        let (n, p) = (3 * CHUNK + 123, 5);
        let d = data(n, p, 3);
        let bins = Bins::fit(&d, 255);
        let binned = Binned::new(&d, &bins);
        let mut s = 9;
        let g: Vec<f64> = (0..n).map(|_| lcg(&mut s) as f64 / 7e9 - 0.5).collect();
        let h: Vec<f64> = (0..n).map(|_| lcg(&mut s) as f64 / 3e9).collect();
        let gh: Vec<[f64; 2]> = g.iter().zip(&h).map(|(&g, &h)| [g, h]).collect();
        let all: Vec<u32> = (0..n as u32).collect();
        let some: Vec<u32> = (0..n as u32).filter(|i| i % 3 != 1).collect();
        for threads in [1, 2, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut lgh = Vec::new();
            let (root, leaf) = pool.install(|| {
                (
                    root_histogram(&binned, &bins, &gh),
                    leaf_histogram(&binned, &bins, &gh, &some, &mut lgh),
                )
            });
            for (rows, hists) in [(&all, &root), (&some, &leaf)] {
                assert_eq!(hists.len(), p);
                for (f, hist) in hists.iter().enumerate() {
                    let want = serial_hist(&binned, &bins, f, rows, &g, &h);
                    let got: Vec<_> = (0..bins.bins(f)).map(|b| hist.bin(b)).collect();
                    assert_eq!(got, want, "feature {f}, {threads} threads");
                }
            }
        }
    }

    /// The split search as one loop testing each bin in turn (the form [`best_split`] had
    /// before its gains were computed four to an instruction): the reference it must equal.
    fn best_split_in_turn(leaf: &Leaf, growth: &Growth) -> Option<Split> {
        let count = leaf.end - leaf.start;
        if !growth.splittable(count) {
            return None;
        }
        let lam = growth.lambda;
        let score = |g: f64, h: f64| {
            if h + lam > 0.0 {
                g * g / (h + lam)
            } else {
                0.0
            }
        };
        let parent = score(leaf.g, leaf.h);
        let mut best: Option<Split> = None;
        for (f, hist) in leaf.hist.iter().enumerate() {
            let (mut gl, mut hl, mut cl) = (0.0, 0.0, 0usize);
            let last = hist.bins.saturating_sub(1);
            for b in 0..last {
                let (bg, bh, bc) = hist.bin(b);
                gl += bg;
                hl += bh;
                cl += bc;
                if bc == 0 {
                    continue;
                }
                let cr = count - cl;
                if cl < growth.min_leaf || cr < growth.min_leaf {
                    if cr < growth.min_leaf {
                        break;
                    }
                    continue;
                }
                let (gr, hr) = (leaf.g - gl, leaf.h - hl);
                if hl < growth.min_hessian || hr < growth.min_hessian {
                    continue;
                }
                let gain = score(gl, hl) + score(gr, hr) - parent;
                if gain > 1e-12 * parent.abs().max(1e-300) && best.is_none_or(|s| gain > s.gain) {
                    best = Some(Split {
                        gain,
                        feature: f,
                        bin: b,
                        left_g: gl,
                        left_h: hl,
                        left_c: cl,
                    });
                }
            }
        }
        best
    }

    #[test]
    fn the_split_search_equals_a_scan_testing_each_bin_in_turn() {
        let mut s = 11;
        let mut splits = 0;
        for trial in 0..200 {
            let p = 1 + trial % 4;
            // One leaf's rows, the same for every feature: gradients of both signs.
            let count = 40 + (lcg(&mut s) % 600) as usize;
            let gh: Vec<[f64; 2]> = (0..count)
                .map(|_| [lcg(&mut s) as f64 / 2e9 - 1.0, lcg(&mut s) as f64 / 4e9])
                .collect();
            let (g, h) = gh.iter().fold((0.0, 0.0), |(g, h), r| (g + r[0], h + r[1]));
            let mut hist = Vec::new();
            for _ in 0..p {
                let bins = 2 + (lcg(&mut s) % 255) as usize;
                // Rows fall in every third bin or so: the others stay empty.
                let used: Vec<usize> = (0..bins).filter(|_| lcg(&mut s) % 3 != 0).collect();
                let mut one = Hist::zeroed(bins);
                for &r in &gh {
                    let b = used
                        .get((lcg(&mut s) as usize) % used.len().max(1))
                        .copied();
                    add(&mut one.cells, b.unwrap_or(0) as u8, r);
                }
                hist.push(one);
            }
            let leaf = Leaf {
                start: 0,
                end: count,
                g,
                h,
                hist,
                best: None,
                parent: None,
            };
            let growth = Growth {
                leaves: 31,
                min_leaf: [1, 5, 20][trial % 3],
                min_hessian: [1e-3, 0.5][trial % 2],
                lambda: [0.0, 1.0][(trial / 2) % 2],
                eta: 0.1,
            };
            let found = best_split(&leaf, &growth);
            assert_eq!(found, best_split_in_turn(&leaf, &growth), "trial {trial}");
            splits += usize::from(found.is_some());
        }
        // Most leaves have a split: the comparison is not of two `None`s.
        assert!(splits > 150, "{splits} of 200 leaves split");
    }

    #[test]
    fn partitions_are_stable_and_leaf_values_land_once() {
        // Copies made on one thread and in parallel; the spare buffer reused from a larger
        // partition (what it holds must not matter).
        let big = PARALLEL_COPY_ROWS + 777;
        let mut s = 5;
        let col: Vec<u8> = (0..big).map(|_| (lcg(&mut s) % 256) as u8).collect();
        let mut spare = Vec::new();
        for n in [big, 2 * CHUNK + 777, 100] {
            let rows: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 2).collect();
            for bin in [0, 17, 128, 255] {
                let mut got = rows.clone();
                let left = partition(&col, bin, &mut got, &mut spare);
                let goes = |i: &&u32| col[**i as usize] as usize <= bin;
                let want: Vec<u32> = rows
                    .iter()
                    .filter(goes)
                    .chain(rows.iter().filter(|i| !goes(i)))
                    .copied()
                    .collect();
                assert_eq!(left, rows.iter().filter(goes).count());
                assert_eq!(got, want, "{n} rows, bin {bin}");
            }
        }
        let n = 2 * CHUNK + 777;
        // Two leaves over the rows split at bin 100, each ascending: every score gets its
        // leaf's value once.
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut spare = Vec::new();
        let mid = partition(&col, 100, &mut order, &mut spare);
        let leaf = |start, end| Leaf {
            start,
            end,
            g: 0.0,
            h: 0.0,
            hist: Vec::new(),
            best: None,
            parent: None,
        };
        let leaves = [leaf(0, mid), leaf(mid, n)];
        let values = [0.25, -1.5];
        let mut f: Vec<f64> = (0..n).map(|i| i as f64).collect();
        add_leaf_values(&leaves, &values, &order, &mut f);
        for (i, &v) in f.iter().enumerate() {
            let want = i as f64 + if col[i] <= 100 { 0.25 } else { -1.5 };
            assert_eq!(v, want, "row {i}");
        }
    }
}
