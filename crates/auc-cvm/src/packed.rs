//! The fusion of the printed normalization (the default) on packed symmetric triangles, in
//! neighbour order: the same recursion as [`crate::fusion`]'s module docs describe, organized
//! so that the $O(n^2 n_{loc})$ products read memory in order and stay in cache.
//!
//! # Neighbour order
//!
//! The points are renumbered by reverse Cuthill-McKee on the symmetrized neighbour graph
//! ([`neighbour_order`]): a point's neighbours then get numbers near its own. Every matrix of the
//! recursion is kept in that numbering, which changes no value (a symmetric permutation of rows
//! and columns commutes with the recursion: $P L P^\top \cdot P Q P^\top \cdot P L^\top
//! P^\top = P (L Q L^\top) P^\top$); only the fused kernel is turned back, once, at the end.
//! What it buys: the rows a block of output rows reads are near each other and are shared by the
//! next block, so they come from cache instead of memory.
//!
//! # One product, $X = s\,\bar L Q \bar L^\top + \rho I$
//!
//! As in [`crate::fusion`], $Q = D + D^\top$ with $D$ the packed rows (half the diagonal), so
//! $X = W + W^\top$ with $U = s \bar L D$ and $W = U \bar L^\top$. A block of [`B`] rows
//! $I$:
//! 1. forms $U_I^\top$ ($w \times B$, $w$ = one past the block's largest neighbour): chunks of
//!    [`CHUNK`] columns of the $B$ rows of $U_I$ are summed in L1 from the neighbours' packed
//!    rows ($n_{loc}$ multiply-adds per entry, contiguous), then transposed;
//! 2. forms $W_I^\top$, one $B$-wide row per point $j$: $\sum_{b \in N(j)} L_{jb} U_I^\top[b]$
//!    (with $B = 16$ a row is one AVX-512 vector, and $U_I^\top$ about 1.3 MB, L2-sized);
//! 3. writes: its own rows' entries left of the block ($W_{IJ}$, transposed by $16 \times 16$
//!    tiles), its diagonal tile ($W_{rc} + W_{cr}$, $2W_{rr} + \rho$), and the entries of every
//!    later row in its columns ($W_{Ij}^\top$, 16 contiguous values). Rows are written under the
//!    lock of their group of [`LOCK_BLOCKS`] blocks.
//!
//! Row $j$ of $W_I$ is $\sum_{b \in N(j)} L_{jb} U_I[\cdot, b]$, and $U_I[\cdot, c] = 0$ for $c \ge w$
//! ($D$ is lower triangular), so it is exactly zero when every neighbour of $j$ is at or beyond
//! $w$. In neighbour order that holds for most later rows: a block forms and writes only the
//! tiles of later rows whose smallest neighbour is below its width (about twice the order's
//! bandwidth past the block) instead of every later row, which removes most of the scattered
//! writes and half of stage 2's multiply-adds. A skipped tile's entries then receive one value,
//! from their own block, which stores it; adding the skipped zeros would not change a bit.
//!
//! An entry off the diagonal tiles receives at most two values, one from each of its two blocks:
//! a flag per tile says whether the first has arrived, so the first is stored and the second
//! added (no zeroing pass over the output). $a + b = b + a$ exactly, so the result does not
//! depend on the order the blocks run in, and every entry is the same sum, in the same order,
//! as in the square formulation: the products are those of the reference (test
//! `f32_fusion_matches_an_f64_dense_reference` in [`crate::fusion`]).
//!
//! # Between rounds
//!
//! One pass per round reads the $M$ new status matrices, adds Theorem 1's distances (partial
//! sums over fixed row groups, added in order, so the stopping round does not depend on the
//! thread count) and writes each kernel's sum of the others in place
//! ([`distance_then_others`]). When the rounds stop, eq. 22 is $\tilde K = \frac{1}{M(M-1)}
//! \sum_m Q^{(m)}$, the state's own sum (each status matrix appears $M - 1$ times in it).

use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::kernels::{Columns, FittedKernel, Knn, Points, RUN};

/// Rows of a block (and columns of a tile).
pub(crate) const B: usize = 16;
/// Columns of $U_I$ summed at once in stage 1 ($B \times$ `CHUNK` values, 32 kB).
const CHUNK: usize = 512;
/// Blocks of rows under one lock.
const LOCK_BLOCKS: usize = 8;

/// Offset of row `i` in a packed lower triangle.
#[inline]
pub(crate) fn tri_off(i: usize) -> usize {
    i * (i + 1) / 2
}

/// Reverse Cuthill-McKee order of the neighbour graph made symmetric: `order[r]` is the point
/// numbered `r`. Each connected part starts from a point far from a least connected one (one
/// breadth-first pass), neighbours are visited by increasing degree (then index), and the whole
/// order is reversed. Deterministic: no choice depends on anything but the lists.
pub(crate) fn neighbour_order(knn: &Knn, n: usize) -> Vec<u32> {
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in 0..n {
        for &j in knn.neighbours(i) {
            let j = j as usize;
            if j != i {
                adj[i].push(j as u32);
                adj[j].push(i as u32);
            }
        }
    }
    for a in &mut adj {
        a.sort_unstable();
        a.dedup();
    }
    let deg: Vec<usize> = adj.iter().map(Vec::len).collect();
    for a in &mut adj {
        a.sort_unstable_by_key(|&j| (deg[j as usize], j));
    }
    let mut starts: Vec<u32> = (0..n as u32).collect();
    starts.sort_unstable_by_key(|&i| (deg[i as usize], i));
    let mut placed = vec![false; n];
    let mut seen = vec![u32::MAX; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    let mut queue: Vec<u32> = Vec::new();
    for &s in &starts {
        if placed[s as usize] {
            continue;
        }
        // One breadth-first pass from `s`: its last point is far from `s`.
        queue.clear();
        queue.push(s);
        seen[s as usize] = s;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head] as usize;
            head += 1;
            for &v in &adj[u] {
                if seen[v as usize] != s {
                    seen[v as usize] = s;
                    queue.push(v);
                }
            }
        }
        let far = *queue.last().unwrap_or(&s);
        let first = order.len();
        order.push(far);
        placed[far as usize] = true;
        let mut head = first;
        while head < order.len() {
            let u = order[head] as usize;
            head += 1;
            for &v in &adj[u] {
                if !placed[v as usize] {
                    placed[v as usize] = true;
                    order.push(v);
                }
            }
        }
    }
    order.reverse();
    order
}

/// The inverse of a permutation.
pub(crate) fn inverse(order: &[u32]) -> Vec<u32> {
    let mut pos = vec![0u32; order.len()];
    for (r, &i) in order.iter().enumerate() {
        pos[i as usize] = r as u32;
    }
    pos
}

/// The row groups of a packed triangle of order `n`, `rows` rows each: `(first row, rows,
/// slice)`.
pub(crate) fn tri_groups(v: &mut [f32], n: usize, rows: usize) -> Vec<(usize, usize, &mut [f32])> {
    let mut out = Vec::with_capacity(n.div_ceil(rows.max(1)));
    let mut rest = v;
    let mut g0 = 0;
    while g0 < n {
        let g1 = (g0 + rows).min(n);
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(tri_off(g1) - tri_off(g0));
        out.push((g0, g1 - g0, head));
        rest = tail;
        g0 = g1;
    }
    out
}

/// The initial state $Q_m = \sum_{s \ne m} \bar K^{(s)} = 1 - \bar K^{(m)}$ of the printed
/// eq. 18, for the points `pts` (in neighbour order) into the packed triangles `q`. The
/// sub-kernels are evaluated by runs of [`RUN`] points ([`Columns`]), bit-identical to
/// [`crate::kernels::SubKernel::value`].
pub(crate) fn natural_others(pts: &Points, kinds: &[FittedKernel], q: &mut [Vec<f32>]) {
    let n = pts.n();
    let m = kinds.len();
    let cols = Columns::new(pts);
    let mut per_group: Vec<Vec<(usize, usize, &mut [f32])>> = Vec::new();
    for buf in q.iter_mut() {
        for (t, g) in tri_groups(buf, n, 32).into_iter().enumerate() {
            if per_group.len() <= t {
                per_group.push(Vec::with_capacity(m));
            }
            per_group[t].push(g);
        }
    }
    let fill = ((m - 1) as f64 / m as f64) as f32;
    per_group.into_par_iter().for_each_init(
        || vec![vec![0f64; RUN]; m],
        |raw, mut groups| {
            let (g0, rows) = (groups[0].0, groups[0].1);
            for r in g0..g0 + rows {
                let at = tri_off(r) - tri_off(g0);
                for j0 in (0..=r).step_by(RUN) {
                    let len = RUN.min(r + 1 - j0);
                    for (s, &kind) in kinds.iter().enumerate() {
                        cols.values(kind, pts, r, pts, j0, &mut raw[s][..len]);
                    }
                    for t in 0..len {
                        let mut total = 0.0;
                        for rs in raw.iter() {
                            total += rs[t];
                        }
                        for (s, g) in groups.iter_mut().enumerate() {
                            g.2[at + j0 + t] = if total > 0.0 {
                                ((total - raw[s][t]) / total) as f32
                            } else {
                                fill
                            };
                        }
                    }
                }
            }
        },
    );
}

/// A group of rows of the output under one lock.
struct Group<'a> {
    /// First row.
    g0: usize,
    /// Its packed rows.
    rows: &'a mut [f32],
}

/// `x = scale * L Q L^T + rho I` for a symmetric `q`, both packed lower triangles of order `n`
/// in neighbour order, `L`'s row `r` the weights `w[r k..]` over the neighbours `nb[r k..]`
/// (module docs).
#[allow(clippy::too_many_arguments)]
pub(crate) fn product(
    q: &[f32],
    x: &mut [f32],
    n: usize,
    k: usize,
    w: &[f32],
    nb: &[u32],
    scale: f32,
    rho: f32,
) {
    let blocks = n.div_ceil(B);
    let groups: Vec<Mutex<Group<'_>>> = tri_groups(x, n, B * LOCK_BLOCKS)
        .into_iter()
        .map(|(g0, _, rows)| Mutex::new(Group { g0, rows }))
        .collect();
    // Per tile of rows: its smallest neighbour. Row j of W_I is zero when every neighbour of j
    // is at or beyond the block's width (module docs), so a tile whose smallest neighbour is
    // that far is skipped.
    let tile_min: Vec<usize> = (0..blocks)
        .map(|t| {
            nb[t * B * k..((t + 1) * B).min(n) * k]
                .iter()
                .map(|&a| a as usize)
                .min()
                .unwrap_or(usize::MAX)
        })
        .collect();
    // Tile (I, J), J <= I, at I (I + 1) / 2 + J: whether its first value has been written.
    let first_done: Vec<AtomicBool> = (0..tri_off(blocks))
        .map(|_| AtomicBool::new(false))
        .collect();
    (0..blocks).into_par_iter().for_each_init(
        || (vec![0f32; n * B], vec![0f32; n * B], vec![0f32; B * CHUNK]),
        |(ut, wt, tmp), bi| {
            let r0 = bi * B;
            let rows = B.min(n - r0);
            let width = (r0..r0 + rows)
                .flat_map(|r| nb[r * k..(r + 1) * k].iter())
                .map(|&a| a as usize + 1)
                .max()
                .unwrap_or(0);
            stage_u(q, &mut ut[..width * B], k, w, nb, r0, rows, scale, tmp);
            let ut = &ut[..width * B];
            // Rows up to the block's own: all of them; later rows: the tiles that reach it.
            stage_w(ut, wt, k, w, nb, 0, r0 + rows);
            for (t, &least) in tile_min.iter().enumerate().skip(bi + 1) {
                if least < width {
                    stage_w(ut, wt, k, w, nb, t * B, ((t + 1) * B).min(n));
                }
            }
            let live = |t: usize| tile_min[t] < width;
            write_block(&groups, &first_done, wt, n, r0, rows, rho, &live);
        },
    );
}

/// Stage 1: `ut[c * B + rr]` $= U[r_0 + rr, c]$ for the `width = ut.len() / B` columns, lanes
/// beyond `rows` zero.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
#[allow(clippy::too_many_arguments)]
fn stage_u(
    q: &[f32],
    ut: &mut [f32],
    k: usize,
    w: &[f32],
    nb: &[u32],
    r0: usize,
    rows: usize,
    scale: f32,
    tmp: &mut [f32],
) {
    let width = ut.len() / B;
    for c0 in (0..width).step_by(CHUNK) {
        let c1 = (c0 + CHUNK).min(width);
        let cw = c1 - c0;
        for rr in 0..B {
            let t = &mut tmp[rr * CHUNK..rr * CHUNK + cw];
            t.fill(0.0);
            if rr >= rows {
                continue;
            }
            let r = r0 + rr;
            for (&a, &l) in nb[r * k..(r + 1) * k].iter().zip(&w[r * k..(r + 1) * k]) {
                let a = a as usize;
                if a < c0 {
                    continue;
                }
                let c = l * scale;
                let off = tri_off(a);
                let end = a.min(c1);
                for (o, &v) in t[..end - c0].iter_mut().zip(&q[off + c0..off + end]) {
                    *o += c * v;
                }
                if a < c1 {
                    t[a - c0] += 0.5 * c * q[off + a];
                }
            }
        }
        for cc in 0..cw {
            let dst = &mut ut[(c0 + cc) * B..(c0 + cc + 1) * B];
            for (rr, d) in dst.iter_mut().enumerate() {
                *d = tmp[rr * CHUNK + cc];
            }
        }
    }
}

/// Stage 2: `wt[j * B..]` $= \sum_{b \in N(j)} L_{jb}\, U_I^\top[b]$ for the points `j` in
/// `from..to` (neighbours at or beyond the width of `ut` add nothing).
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn stage_w(ut: &[f32], wt: &mut [f32], k: usize, w: &[f32], nb: &[u32], from: usize, to: usize) {
    let width = ut.len() / B;
    for j in from..to {
        let mut acc = [0f32; B];
        for (&b, &l) in nb[j * k..(j + 1) * k].iter().zip(&w[j * k..(j + 1) * k]) {
            let b = b as usize;
            if b >= width {
                continue;
            }
            let src: &[f32; B] = ut[b * B..(b + 1) * B].try_into().expect("B values");
            for t in 0..B {
                acc[t] += l * src[t];
            }
        }
        wt[j * B..(j + 1) * B].copy_from_slice(&acc);
    }
}

/// Stores `v` into `*o` if `first`, else adds it.
#[inline(always)]
fn put(o: &mut f32, v: f32, first: bool) {
    if first { *o = v } else { *o += v }
}

/// Stage 3: block `r0..r0 + rows`'s values into the output (module docs); the tiles of later
/// rows for which `live` is false hold zeros and are left to their own block.
#[allow(clippy::too_many_arguments)]
fn write_block(
    groups: &[Mutex<Group<'_>>],
    first_done: &[AtomicBool],
    wt: &[f32],
    n: usize,
    r0: usize,
    rows: usize,
    rho: f32,
    live: &dyn Fn(usize) -> bool,
) {
    let bi = r0 / B;
    let lock_rows = B * LOCK_BLOCKS;
    let own = r0 / lock_rows;
    let claim = |ti: usize| !first_done[ti].swap(true, Ordering::Relaxed);
    for (gi, g) in groups.iter().enumerate().skip(own) {
        let g_start = gi * lock_rows;
        let g_end = (g_start + lock_rows).min(n);
        if gi != own && !(g_start / B..g_end.div_ceil(B)).any(live) {
            continue;
        }
        let mut g = g.lock().unwrap_or_else(PoisonError::into_inner);
        let base = tri_off(g.g0);
        if gi == own {
            // Own rows left of the block: W[r, c] for c < r0, tile by tile.
            let mut tile = [0f32; B * B];
            for bj in 0..bi {
                let c0 = bj * B;
                tile.copy_from_slice(&wt[c0 * B..(c0 + B) * B]);
                let first = claim(tri_off(bi) + bj);
                for rr in 0..rows {
                    let at = tri_off(r0 + rr) - base + c0;
                    for (cc, o) in g.rows[at..at + B].iter_mut().enumerate() {
                        put(o, tile[cc * B + rr], first);
                    }
                }
            }
            // The diagonal tile, written once.
            for rr in 0..rows {
                let r = r0 + rr;
                let at = tri_off(r) - base + r0;
                for cc in 0..rr {
                    let c = r0 + cc;
                    g.rows[at + cc] = wt[c * B + rr] + wt[r * B + cc];
                }
                g.rows[at + rr] = 2.0 * wt[r * B + rr] + rho;
            }
        }
        // Later rows of this group: W[r0.., j] into row j's columns r0.., tile by tile.
        let from = if gi == own { r0 + rows } else { g.g0 };
        for j0 in (from..g_end).step_by(B) {
            if !live(j0 / B) {
                continue;
            }
            let first = claim(tri_off(j0 / B) + bi);
            for j in j0..(j0 + B).min(g_end) {
                let at = tri_off(j) - base + r0;
                for (o, &v) in g.rows[at..at + rows]
                    .iter_mut()
                    .zip(&wt[j * B..j * B + rows])
                {
                    put(o, v, first);
                }
            }
        }
    }
}

/// Theorem 1's distance $\max_{a < b} \lVert P_a - P_b \rVert_F$ between the packed status
/// matrices `p` (off-diagonal entries counted twice), after which each buffer holds the sum of
/// the others, $Q_m = \sum_s P_s - P_m$, in place. Partial sums over fixed groups of rows are
/// added in order, so the value does not depend on the thread count.
pub(crate) fn distance_then_others(p: &mut [Vec<f32>], n: usize) -> f64 {
    let m = p.len();
    let pairs: Vec<(usize, usize)> = (0..m)
        .flat_map(|a| (a + 1..m).map(move |b| (a, b)))
        .collect();
    let mut per_group: Vec<Vec<(usize, usize, &mut [f32])>> = Vec::new();
    for buf in p.iter_mut() {
        for (t, g) in tri_groups(buf, n, 64).into_iter().enumerate() {
            if per_group.len() <= t {
                per_group.push(Vec::with_capacity(m));
            }
            per_group[t].push(g);
        }
    }
    let partial: Vec<Vec<f64>> = per_group
        .into_par_iter()
        .map_init(
            || vec![0f32; n],
            |total, mut parts| {
                let mut sums = vec![0.0f64; pairs.len()];
                let (g0, rows) = (parts[0].0, parts[0].1);
                for r in g0..g0 + rows {
                    let at = tri_off(r) - tri_off(g0);
                    for (acc, &(a, b)) in sums.iter_mut().zip(&pairs) {
                        let (x, y) = (&parts[a].2[at..=at + r], &parts[b].2[at..=at + r]);
                        let d = f64::from(x[r]) - f64::from(y[r]);
                        *acc += 2.0 * sq_diff(&x[..r], &y[..r]) + d * d;
                    }
                    let tot = &mut total[..=r];
                    tot.fill(0.0);
                    for part in parts.iter() {
                        add_into(tot, &part.2[at..=at + r]);
                    }
                    for part in parts.iter_mut() {
                        others_into(&mut part.2[at..=at + r], tot);
                    }
                }
                sums
            },
        )
        .collect();
    let mut totals = vec![0.0f64; pairs.len()];
    for part in &partial {
        for (t, v) in totals.iter_mut().zip(part) {
            *t += v;
        }
    }
    totals.into_iter().map(f64::sqrt).fold(0.0, f64::max)
}

/// $\sum_e (x_e - y_e)^2$ in `f64`, over 8 lanes added in a fixed order.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn sq_diff(x: &[f32], y: &[f32]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (xc, yc) = (x.chunks_exact(8), y.chunks_exact(8));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        for t in 0..8 {
            let d = f64::from(a[t]) - f64::from(b[t]);
            lanes[t] += d * d;
        }
    }
    for (t, (&a, &b)) in xr.iter().zip(yr).enumerate() {
        let d = f64::from(a) - f64::from(b);
        lanes[t] += d * d;
    }
    lanes.iter().sum()
}

/// `tot += x`.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn add_into(tot: &mut [f32], x: &[f32]) {
    for (t, &v) in tot.iter_mut().zip(x) {
        *t += v;
    }
}

/// `x = tot - x`.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
fn others_into(x: &mut [f32], tot: &[f32]) {
    for (v, &t) in x.iter_mut().zip(tot) {
        *v = t - *v;
    }
}

/// The fused kernel of eq. 22 from the state: $\frac{1}{M(M-1)} \sum_m Q_m$ into `q[0]`; the
/// other buffers are freed.
pub(crate) fn fused_from_others(mut q: Vec<Vec<f32>>) -> Vec<f32> {
    let m = q.len();
    let c = 1.0 / (m * (m - 1)) as f32;
    let mut first = q.swap_remove(0);
    first
        .par_chunks_mut(1 << 14)
        .enumerate()
        .for_each(|(t, chunk)| {
            let lo = t << 14;
            for (e, v) in chunk.iter_mut().enumerate() {
                let mut acc = *v;
                for other in &q {
                    acc += other[lo + e];
                }
                *v = acc * c;
            }
        });
    first
}

/// The square kernel in the points' own numbering from a packed triangle in neighbour order
/// (`order[r]` = the point numbered `r`): the triangle expanded by blocks of rows, then the rows
/// moved along the permutation's cycles (one spare row) and each row's columns gathered back.
pub(crate) fn expand_in_order(tri: &[f32], out: &mut [f32], n: usize, order: &[u32]) {
    // Rows r of `out` in neighbour order first: lower part from packed row r, upper part from
    // the later packed rows, whose columns of a block are contiguous.
    out.par_chunks_mut(64 * n.max(1))
        .enumerate()
        .for_each(|(bk, blk)| {
            let b0 = bk * 64;
            let rows = blk.len() / n;
            for r in 0..rows {
                let i = b0 + r;
                blk[r * n..r * n + i + 1].copy_from_slice(&tri[tri_off(i)..tri_off(i) + i + 1]);
            }
            for j in b0 + 1..n {
                let src = &tri[tri_off(j) + b0..tri_off(j) + (b0 + rows).min(j)];
                for (r, &v) in src.iter().enumerate() {
                    blk[r * n + j] = v;
                }
            }
        });
    let pos = inverse(order);
    // Rows: row x of the result is row pos[x] of the above.
    let mut spare = vec![0f32; n];
    let mut done = vec![false; n];
    for start in 0..n {
        if done[start] || pos[start] as usize == start {
            done[start] = true;
            continue;
        }
        spare.copy_from_slice(&out[start * n..(start + 1) * n]);
        let mut x = start;
        loop {
            done[x] = true;
            let src = pos[x] as usize;
            if src == start {
                out[x * n..(x + 1) * n].copy_from_slice(&spare);
                break;
            }
            out.copy_within(src * n..(src + 1) * n, x * n);
            x = src;
        }
    }
    // Columns: entry (x, y) is column pos[y] of row x.
    out.par_chunks_mut(n.max(1)).for_each_init(
        || vec![0f32; n],
        |tmp, row| {
            for (t, &p) in tmp.iter_mut().zip(&pos) {
                *t = row[p as usize];
            }
            row.copy_from_slice(tmp);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed product against a dense `f64` computation of `s L Q L^T + rho I`, on points
    /// along a line (neighbour order of small bandwidth, so most later tiles are skipped) and
    /// on random points in 6-d (few skipped), more points than one lock group.
    #[test]
    fn product_matches_a_dense_reference() {
        for (n, p, k) in [(400, 1, 5), (300, 6, 7)] {
            let mut s = 11u64;
            let mut rnd = || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            };
            let pts = Points::from_dense(p, (0..n * p).map(|_| rnd()).collect());
            let knn = Knn::search(&pts, &pts, k, true);
            let order = neighbour_order(&knn, n);
            let pos = inverse(&order);
            let nb: Vec<u32> = order
                .iter()
                .flat_map(|&i| knn.neighbours(i as usize).iter().map(|&j| pos[j as usize]))
                .collect();
            let w: Vec<f32> = (0..n * k).map(|_| rnd() as f32).collect();
            // A symmetric Q, packed.
            let mut q = vec![0f32; tri_off(n)];
            for v in q.iter_mut() {
                *v = rnd() as f32;
            }
            let qd = |i: usize, j: usize| f64::from(q[tri_off(i.max(j)) + i.min(j)]);
            let (scale, rho) = (0.5f32, 0.1f32);
            // Garbage in the output: every entry must be written.
            let mut x = vec![f32::NAN; tri_off(n)];
            product(&q, &mut x, n, k, &w, &nb, scale, rho);
            // L Q, then (L Q) L^T, in f64.
            let mut lq = vec![0f64; n * n];
            for i in 0..n {
                for t in 0..k {
                    let (a, l) = (nb[i * k + t] as usize, f64::from(w[i * k + t]));
                    for c in 0..n {
                        lq[i * n + c] += l * qd(a, c);
                    }
                }
            }
            let mut worst = 0f64;
            let mut top = 0f64;
            for i in 0..n {
                for j in 0..=i {
                    let mut v: f64 = (0..k)
                        .map(|t| f64::from(w[j * k + t]) * lq[i * n + nb[j * k + t] as usize])
                        .sum();
                    v *= f64::from(scale);
                    if i == j {
                        v += f64::from(rho);
                    }
                    let got = f64::from(x[tri_off(i) + j]);
                    worst = worst.max((got - v).abs());
                    top = top.max(v.abs());
                }
            }
            assert!(worst <= 1e-5 * top, "n {n}: max error {worst} of {top}");
            // Deterministic whatever the order of the blocks.
            let mut again = vec![f32::NAN; tri_off(n)];
            product(&q, &mut again, n, k, &w, &nb, scale, rho);
            assert!(
                x.iter()
                    .zip(&again)
                    .all(|(a, b)| a.to_bits() == b.to_bits())
            );
        }
    }

    #[test]
    fn neighbour_order_is_a_permutation_that_shortens_edges() {
        let n = 500;
        let mut s = 5u64;
        let x: Vec<f64> = (0..n * 2)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 11) as f64 / (1u64 << 53) as f64
            })
            .collect();
        let pts = Points::from_dense(2, x);
        let knn = Knn::search(&pts, &pts, 6, true);
        let order = neighbour_order(&knn, n);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n as u32).collect::<Vec<_>>());
        let pos = inverse(&order);
        let span = |p: &dyn Fn(usize) -> usize| -> usize {
            (0..n)
                .flat_map(|i| knn.neighbours(i).iter().map(move |&j| (i, j as usize)))
                .map(|(i, j)| p(i).abs_diff(p(j)))
                .sum()
        };
        let before = span(&|i| i);
        let after = span(&|i| pos[i] as usize);
        // Random points in the plane: mean |i - j| about n / 3 before, far less after.
        assert!(after * 5 < before, "{after} against {before}");
    }

    #[test]
    fn expansion_undoes_the_order() {
        let n = 150;
        let order: Vec<u32> = (0..n as u32).map(|r| (r * 37 + 11) % n as u32).collect();
        // Entry (r, s) of the triangle in neighbour order: a value of the pair of points.
        let val = |i: usize, j: usize| (i.min(j) * 1000 + i.max(j)) as f32;
        let mut tri = vec![0f32; tri_off(n)];
        for r in 0..n {
            for s in 0..=r {
                tri[tri_off(r) + s] = val(order[r] as usize, order[s] as usize);
            }
        }
        let mut out = vec![0f32; n * n];
        expand_in_order(&tri, &mut out, n, &order);
        for i in 0..n {
            for j in 0..n {
                assert_eq!(out[i * n + j].to_bits(), val(i, j).to_bits(), "({i}, {j})");
            }
        }
    }
}
