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
//! less it. Histograms are built feature by feature in parallel (one task a feature, each
//! summing its rows in order), so a tree does not depend on the number of threads.

use rayon::prelude::*;

use crate::bins::{Binned, Bins};
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

/// One feature's histogram: per bin the sums $(g, h)$ side by side (a row adds both with one
/// two-lane vector addition, each lane the same sum as alone) and the row count.
#[derive(Clone, Debug, Default)]
struct Hist {
    gh: Vec<[f64; 2]>,
    c: Vec<u32>,
}

impl Hist {
    fn zeroed(bins: usize) -> Hist {
        Hist {
            gh: vec![[0.0; 2]; bins],
            c: vec![0; bins],
        }
    }

    /// `self -= other`, bin by bin.
    fn subtract(&mut self, other: &Hist) {
        for (a, b) in self.gh.iter_mut().zip(&other.gh) {
            a[0] -= b[0];
            a[1] -= b[1];
        }
        for (a, b) in self.c.iter_mut().zip(&other.c) {
            *a -= b;
        }
    }
}

/// The best split of a leaf: after bin `bin` of `feature`, with the left side's sums.
#[derive(Clone, Copy, Debug)]
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

/// Scratch reused across trees: the row order, the partition buffer and the gathered
/// gradients and Hessians of a leaf, side by side.
#[derive(Default)]
pub struct GrowScratch {
    order: Vec<u32>,
    spare: Vec<u32>,
    lgh: Vec<[f64; 2]>,
}

/// Grows a tree on `binned` rows with gradients `g` and Hessians `h`, and adds each row's leaf
/// value to its score in `f`.
pub fn grow(
    binned: &Binned,
    bins: &Bins,
    g: &[f64],
    h: &[f64],
    growth: &Growth,
    f: &mut [f64],
    s: &mut GrowScratch,
) -> Tree {
    let n = g.len();
    s.order.clear();
    s.order.extend(0..n as u32);
    let (gs, hs) = (g.iter().sum::<f64>(), h.iter().sum::<f64>());
    let root_hist = histogram(binned, bins, g, h, &s.order, &mut s.lgh);
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
        let left_small = mid - start <= end - mid;
        let (small_range, _) = if left_small {
            ((start, mid), (mid, end))
        } else {
            ((mid, end), (start, mid))
        };
        let small = histogram(
            binned,
            bins,
            g,
            h,
            &s.order[small_range.0..small_range.1],
            &mut s.lgh,
        );
        let mut large = parent_hist;
        for (a, b) in large.iter_mut().zip(&small) {
            a.subtract(b);
        }
        let (left_hist, right_hist) = if left_small {
            (small, large)
        } else {
            (large, small)
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
    for (l, &v) in leaves.iter().zip(&values) {
        for &i in &s.order[l.start..l.end] {
            f[i as usize] += v;
        }
    }
    Tree {
        nodes,
        leaves: values,
    }
}

/// $-\eta G / (H + \lambda)$, or 0 when $H + \lambda$ is not positive (no pair in the margin).
fn leaf_value(g: f64, h: f64, growth: &Growth) -> f64 {
    let d = h + growth.lambda;
    if d > 1e-12 { -growth.eta * g / d } else { 0.0 }
}

/// The histograms of the rows `rows` (gradients gathered first, so that each feature's pass
/// reads them in order).
fn histogram(
    binned: &Binned,
    bins: &Bins,
    g: &[f64],
    h: &[f64],
    rows: &[u32],
    lgh: &mut Vec<[f64; 2]>,
) -> Vec<Hist> {
    lgh.clear();
    lgh.extend(rows.iter().map(|&i| [g[i as usize], h[i as usize]]));
    let lgh = &*lgh;
    (0..bins.dim())
        .into_par_iter()
        .map(|f| {
            let col = binned.column(f);
            let mut hist = Hist::zeroed(bins.bins(f));
            for (&i, &[gi, hi]) in rows.iter().zip(lgh) {
                let b = col[i as usize] as usize;
                let s = &mut hist.gh[b];
                *s = [s[0] + gi, s[1] + hi];
                hist.c[b] += 1;
            }
            hist
        })
        .collect()
}

/// The leaf's split of largest positive gain that leaves both sides `min_leaf` rows and
/// `min_hessian`, scanning each feature's bins left to right (the first among equals).
fn best_split(leaf: &Leaf, growth: &Growth) -> Option<Split> {
    let count = leaf.end - leaf.start;
    if count < 2 * growth.min_leaf.max(1) {
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
        let last = hist.c.len().saturating_sub(1);
        for b in 0..last {
            gl += hist.gh[b][0];
            hl += hist.gh[b][1];
            cl += hist.c[b] as usize;
            if hist.c[b] == 0 {
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

/// Moves the rows of `rows` whose bin is at most `bin` to the front, each side in its order;
/// returns how many there are.
fn partition(col: &[u8], bin: usize, rows: &mut [u32], spare: &mut Vec<u32>) -> usize {
    // Without a branch on the row's side (a coin flip the processor cannot predict): each row
    // is written to both places, and only its own side's count moves on.
    let n = rows.len();
    spare.clear();
    spare.resize(n, 0);
    let (mut left, mut right) = (0, 0);
    for k in 0..n {
        let i = rows[k];
        let goes_left = usize::from(col[i as usize] as usize <= bin);
        rows[left] = i;
        spare[right] = i;
        left += goes_left;
        right += 1 - goes_left;
    }
    rows[left..].copy_from_slice(&spare[..right]);
    left
}
