//! Loops over the packed upper triangle: the layout, and the dot / axpy kernels every public call
//! is built from.
//!
//! A symmetric $p \times p$ matrix $C$ is stored as its upper triangle, row by row: row $i$ holds
//! $C_{i,i}, C_{i,i+1}, \dots, C_{i,p-1}$ ($p - i$ values) and starts at offset
//! $\sum_{k<i} (p - k) = i(2p - i + 1)/2$. Every kernel walks the rows in order, so the matrix is
//! read as one contiguous stream, and each row meets the vectors $w$, $d$ or `out` on the
//! contiguous range $i..p$.
//!
//! The loops use [`LANES`] independent accumulators on fixed-size chunks, a shape the compiler turns
//! into SIMD code without `unsafe` or target-specific intrinsics.

/// Independent accumulators (and chunk length) of the dot products: enough partial sums to hide the
/// latency of the floating-point adder on two-wide (SSE2) or four-wide (AVX) vectors.
pub(crate) const LANES: usize = 8;

/// Number of stored values of a packed $p \times p$ upper triangle: $p(p+1)/2$.
#[inline]
pub(crate) const fn packed_len(p: usize) -> usize {
    p * (p + 1) / 2
}

/// Offset of row `i` of a packed $p \times p$ upper triangle: $i(2p - i + 1)/2$.
#[inline]
pub(crate) const fn row_start(p: usize, i: usize) -> usize {
    i * (2 * p - i + 1) / 2
}

/// Sum of the lanes in a fixed order (pairwise), so results do not depend on the chunk count.
#[inline]
fn sum_lanes(acc: [f64; LANES]) -> f64 {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// $a^\top b$ over equal-length slices.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    debug_assert_eq!(a.len(), b.len());
    let n = a.len() - a.len() % LANES;
    let (ac, at) = a.split_at(n);
    let (bc, bt) = b[..a.len()].split_at(n);
    let mut acc = [0.0f64; LANES];
    for (x, y) in ac.chunks_exact(LANES).zip(bc.chunks_exact(LANES)) {
        let x: &[f64; LANES] = x.try_into().expect("chunks_exact yields LANES values");
        let y: &[f64; LANES] = y.try_into().expect("chunks_exact yields LANES values");
        for k in 0..LANES {
            acc[k] += x[k] * y[k];
        }
    }
    let mut tail = 0.0;
    for (x, y) in at.iter().zip(bt) {
        tail += x * y;
    }
    sum_lanes(acc) + tail
}

/// $y \leftarrow y + a x$ over equal-length slices.
#[inline]
pub(crate) fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    debug_assert_eq!(x.len(), y.len());
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// $y \leftarrow y + z + a x$ over equal-length slices (the merge's row update).
#[inline]
pub(crate) fn add_axpy(a: f64, x: &[f64], z: &[f64], y: &mut [f64]) {
    debug_assert_eq!(x.len(), y.len());
    debug_assert_eq!(z.len(), y.len());
    for ((yi, &xi), &zi) in y.iter_mut().zip(x).zip(z) {
        *yi += zi + a * xi;
    }
}

/// Returns $r^\top w$ and sets $o \leftarrow o + a r$, reading `r` once: one row of $C w$.
#[inline]
pub(crate) fn dot_axpy(r: &[f64], w: &[f64], a: f64, o: &mut [f64]) -> f64 {
    debug_assert_eq!(r.len(), w.len());
    debug_assert_eq!(r.len(), o.len());
    let n = r.len() - r.len() % LANES;
    let (rc, rt) = r.split_at(n);
    let (wc, wt) = w[..r.len()].split_at(n);
    let (oc, ot) = o.split_at_mut(n);
    let mut acc = [0.0f64; LANES];
    for ((x, y), z) in rc
        .chunks_exact(LANES)
        .zip(wc.chunks_exact(LANES))
        .zip(oc.chunks_exact_mut(LANES))
    {
        let x: &[f64; LANES] = x.try_into().expect("chunks_exact yields LANES values");
        let y: &[f64; LANES] = y.try_into().expect("chunks_exact yields LANES values");
        let z: &mut [f64; LANES] = z.try_into().expect("chunks_exact yields LANES values");
        for k in 0..LANES {
            acc[k] += x[k] * y[k];
            z[k] += a * x[k];
        }
    }
    let mut tail = 0.0;
    for ((x, y), z) in rt.iter().zip(wt).zip(ot) {
        tail += x * y;
        *z += a * x;
    }
    sum_lanes(acc) + tail
}

/// $o \leftarrow C w$ for the packed $p \times p$ matrix `c` (`o` is overwritten).
///
/// Row $i$ contributes $C_{ii} w_i + \sum_{j>i} C_{ij} w_j$ to $o_i$ (a dot product) and
/// $C_{ij} w_i$ to $o_j$ for $j > i$ (an axpy), both over the contiguous row.
#[inline]
pub(crate) fn packed_mul(p: usize, c: &[f64], w: &[f64], o: &mut [f64]) {
    debug_assert_eq!(c.len(), packed_len(p));
    o.fill(0.0);
    let mut rows = c;
    for i in 0..p {
        let (row, rest) = rows.split_at(p - i);
        rows = rest;
        packed_mul_row(i, row, w, o);
    }
}

/// Row `i` of [`packed_mul`]: adds the row's contributions to `o`.
#[inline]
pub(crate) fn packed_mul_row(i: usize, row: &[f64], w: &[f64], o: &mut [f64]) {
    let wi = w[i];
    let (oi, o_rest) = o[i..].split_first_mut().expect("row i < p");
    let off = dot_axpy(&row[1..], &w[i + 1..], wi, o_rest);
    *oi += row[0] * wi + off;
}

/// $w^\top C w = \sum_i w_i (C_{ii} w_i + 2 \sum_{j>i} C_{ij} w_j)$ for the packed matrix `c`.
#[inline]
pub(crate) fn packed_quad(p: usize, c: &[f64], w: &[f64]) -> f64 {
    debug_assert_eq!(c.len(), packed_len(p));
    let mut total = 0.0;
    let mut rows = c;
    for i in 0..p {
        let (row, rest) = rows.split_at(p - i);
        rows = rest;
        let wi = w[i];
        total += wi * (row[0] * wi + 2.0 * dot(&row[1..], &w[i + 1..]));
    }
    total
}

/// $C \leftarrow C + u v^\top$ on the upper triangle (row $i$ gets $u_i v_{i..p}$); rows with
/// $u_i = 0$ are skipped, since adding $0 \cdot v$ leaves every finite entry unchanged.
#[inline]
pub(crate) fn packed_rank1(p: usize, c: &mut [f64], u: &[f64], v: &[f64]) {
    debug_assert_eq!(c.len(), packed_len(p));
    let mut rows = c;
    for i in 0..p {
        let (row, rest) = rows.split_at_mut(p - i);
        rows = rest;
        if u[i] != 0.0 {
            axpy(u[i], &v[i..], row);
        }
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Small integers: every sum below is exact in f64.
mod tests {
    use super::*;

    #[test]
    fn row_starts_tile_the_packed_array() {
        for p in 0..20 {
            let mut next = 0;
            for i in 0..p {
                assert_eq!(row_start(p, i), next, "p = {p}, i = {i}");
                next += p - i;
            }
            assert_eq!(next, packed_len(p));
        }
    }

    #[test]
    fn dot_and_dot_axpy_handle_every_tail_length() {
        for n in 0..2 * LANES + 3 {
            let a: Vec<f64> = (0..n).map(|i| i as f64 + 1.0).collect();
            let b: Vec<f64> = (0..n).map(|i| 2.0 - i as f64).collect();
            let expect: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot(&a, &b), expect, "n = {n}");
            let mut o = vec![1.0; n];
            assert_eq!(dot_axpy(&a, &b, 3.0, &mut o), expect, "n = {n}");
            for (k, ok) in o.iter().enumerate() {
                assert_eq!(*ok, 1.0 + 3.0 * a[k], "n = {n}, k = {k}");
            }
        }
    }

    #[test]
    fn packed_products_match_the_full_matrix() {
        // C = [[1, 2, 3], [2, 4, 5], [3, 5, 6]], packed (1, 2, 3, 4, 5, 6); w = (1, -1, 2).
        // C w = (1 - 2 + 6, 2 - 4 + 10, 3 - 5 + 12) = (5, 8, 10); w' C w = 5 - 8 + 20 = 17.
        let c = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let w = [1.0, -1.0, 2.0];
        let mut o = [9.0; 3];
        packed_mul(3, &c, &w, &mut o);
        assert_eq!(o, [5.0, 8.0, 10.0]);
        assert_eq!(packed_quad(3, &c, &w), 17.0);
        // Adding u v' with u = (1, 0, 2), v = (1, 1, 1) changes rows 0 and 2 only.
        let mut c2 = c;
        packed_rank1(3, &mut c2, &[1.0, 0.0, 2.0], &[1.0, 1.0, 1.0]);
        assert_eq!(c2, [2.0, 3.0, 4.0, 4.0, 5.0, 8.0]);
    }
}
