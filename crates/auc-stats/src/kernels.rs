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
//!
//! The public entry points ([`packed_mul`], [`packed_rank1`], [`packed_quad`], [`dot`]) are
//! compiled three times by `multiversion`: for baseline x86-64 (SSE2, two doubles per vector), for
//! AVX2 (four) and for AVX-512, chosen at run time by CPU feature detection (the crate does the
//! `unsafe` call; ours forbid it). The helpers they call are `#[inline(always)]`, so that each copy
//! gets its own vector code: a helper left out of line is compiled for baseline x86-64 only, which
//! measured 1.7 times slower for `S w`. All versions do the same operations in the same order (each
//! lane is its own accumulator, and no multiply-add is fused, since Rust never contracts
//! `a * b + c`), so results are bit-identical on every x86-64 machine; only the speed differs.
//!
//! Measured at $p = 123$ (`cargo xtask bench stats_moments`, one core of the development machine):
//! `S w` 2.4 µs (SSE2, pairs of rows) to about 1.4 µs (AVX-512, blocks of four rows), the rank-one
//! update 1.0 µs to 0.8 µs.

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
#[inline(always)]
fn sum_lanes(acc: [f64; LANES]) -> f64 {
    ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]))
}

/// $a^\top b$ over equal-length slices (dispatched by CPU features; see the module docs).
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    dot_lanes(a, b)
}

/// $a^\top b$ over equal-length slices: the loop that [`dot`] and [`packed_quad`] inline.
#[inline(always)]
fn dot_lanes(a: &[f64], b: &[f64]) -> f64 {
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
#[inline(always)]
pub(crate) fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    debug_assert_eq!(x.len(), y.len());
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// $y \leftarrow y + z + a x$ over equal-length slices (the merge's row update).
#[inline(always)]
pub(crate) fn add_axpy(a: f64, x: &[f64], z: &[f64], y: &mut [f64]) {
    debug_assert_eq!(x.len(), y.len());
    debug_assert_eq!(z.len(), y.len());
    for ((yi, &xi), &zi) in y.iter_mut().zip(x).zip(z) {
        *yi += zi + a * xi;
    }
}

/// $o \leftarrow C w$ for the packed $p \times p$ matrix `c` (`o` is overwritten).
///
/// Row $i$ contributes $C_{ii} w_i + \sum_{j>i} C_{ij} w_j$ to $o_i$ (a dot product) and
/// $C_{ij} w_i$ to $o_j$ for $j > i$ (an axpy), both over the contiguous row. Rows are taken four
/// at a time ([`dot4_axpy4`]), then in a pair ([`dot2_axpy2`]) and singly for the last $p \bmod 4$,
/// so that each $o_j$ is loaded and stored once per four rows: with one row at a time the loads and
/// stores of $o$ cost as much as reading the matrix.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
pub(crate) fn packed_mul(p: usize, c: &[f64], w: &[f64], o: &mut [f64]) {
    debug_assert_eq!(c.len(), packed_len(p));
    o.fill(0.0);
    let mut rows = c;
    if p > PAIRED_ROWS_MAX_P {
        for i in 0..p {
            let (row, rest) = rows.split_at(p - i);
            rows = rest;
            let wi = w[i];
            let (oi, o_rest) = o[i..].split_first_mut().expect("row i < p");
            *oi += row[0] * wi + dot_axpy(&row[1..], &w[i + 1..], wi, o_rest);
        }
        return;
    }
    let mut i = 0;
    while i + 4 <= p {
        let (r0, rest) = rows.split_at(p - i);
        let (r1, rest) = rest.split_at(p - i - 1);
        let (r2, rest) = rest.split_at(p - i - 2);
        let (r3, rest) = rest.split_at(p - i - 3);
        rows = rest;
        let wb = [w[i], w[i + 1], w[i + 2], w[i + 3]];
        let d = dot4_axpy4(
            [&r0[4..], &r1[3..], &r2[2..], &r3[1..]],
            &w[i + 4..],
            wb,
            &mut o[i + 4..],
        );
        // The 4 x 4 diagonal block: row k of the block holds C_{i+k, i+k..i+4} at r_k[0..4-k].
        o[i] += (r0[0] * wb[0] + r0[1] * wb[1]) + (r0[2] * wb[2] + r0[3] * wb[3]) + d[0];
        o[i + 1] += (r0[1] * wb[0] + r1[0] * wb[1]) + (r1[1] * wb[2] + r1[2] * wb[3]) + d[1];
        o[i + 2] += (r0[2] * wb[0] + r1[1] * wb[1]) + (r2[0] * wb[2] + r2[1] * wb[3]) + d[2];
        o[i + 3] += (r0[3] * wb[0] + r1[2] * wb[1]) + (r2[1] * wb[2] + r3[0] * wb[3]) + d[3];
        i += 4;
    }
    if i + 1 < p {
        let (r0, rest) = rows.split_at(p - i);
        let (r1, rest) = rest.split_at(p - i - 1);
        rows = rest;
        let (w0, w1) = (w[i], w[i + 1]);
        // The 2 x 2 diagonal block: C_ii, C_{i,i+1}, C_{i+1,i+1}.
        let (d0, d1) = dot2_axpy2(&r0[2..], &r1[1..], &w[i + 2..], w0, w1, &mut o[i + 2..]);
        o[i] += r0[0] * w0 + r0[1] * w1 + d0;
        o[i + 1] += r0[1] * w0 + r1[0] * w1 + d1;
        i += 2;
    }
    if i < p {
        // The last row holds only its diagonal entry.
        o[i] += rows[0] * w[i];
    }
}

/// Four rows of [`packed_mul`] over their shared columns: returns $(r_k^\top w)_{k<4}$ and sets
/// $o \leftarrow o + \sum_k a_k r_k$, reading each row, `w` and `o` once.
#[inline(always)]
fn dot4_axpy4(r: [&[f64]; 4], w: &[f64], a: [f64; 4], o: &mut [f64]) -> [f64; 4] {
    const L: usize = LANES / 2;
    let len = w.len();
    debug_assert!(r.iter().all(|ri| ri.len() == len) && o.len() == len);
    let n = len - len % L;
    let [r0, r1, r2, r3] = r;
    let mut acc = [[0.0f64; L]; 4];
    for (((((x0, x1), x2), x3), v), z) in r0[..n]
        .chunks_exact(L)
        .zip(r1[..n].chunks_exact(L))
        .zip(r2[..n].chunks_exact(L))
        .zip(r3[..n].chunks_exact(L))
        .zip(w[..n].chunks_exact(L))
        .zip(o[..n].chunks_exact_mut(L))
    {
        for k in 0..L {
            acc[0][k] += x0[k] * v[k];
            acc[1][k] += x1[k] * v[k];
            acc[2][k] += x2[k] * v[k];
            acc[3][k] += x3[k] * v[k];
            z[k] += (a[0] * x0[k] + a[1] * x1[k]) + (a[2] * x2[k] + a[3] * x3[k]);
        }
    }
    let mut out = [0.0f64; 4];
    for (o_k, acc_k) in out.iter_mut().zip(&acc) {
        *o_k = (acc_k[0] + acc_k[1]) + (acc_k[2] + acc_k[3]);
    }
    for j in n..len {
        out[0] += r0[j] * w[j];
        out[1] += r1[j] * w[j];
        out[2] += r2[j] * w[j];
        out[3] += r3[j] * w[j];
        o[j] += (a[0] * r0[j] + a[1] * r1[j]) + (a[2] * r2[j] + a[3] * r3[j]);
    }
    out
}

/// Largest $p$ for which [`packed_mul`] blocks rows. Measured (`cargo xtask bench stats_moments`):
/// pairing was 15-25 % faster for $p \le 512$, while at $p = 2048$, where the triangle streams from
/// the last-level cache, one row at a time was faster (0.71 ms against 0.93 ms).
pub(crate) const PAIRED_ROWS_MAX_P: usize = 1024;

/// Returns $r^\top w$ and sets $o \leftarrow o + a r$, reading `r` once: one row of $C w$.
#[inline(always)]
fn dot_axpy(r: &[f64], w: &[f64], a: f64, o: &mut [f64]) -> f64 {
    debug_assert_eq!(r.len(), w.len());
    debug_assert_eq!(r.len(), o.len());
    let n = r.len() - r.len() % LANES;
    let mut acc = [0.0f64; LANES];
    for ((x, y), z) in r[..n]
        .chunks_exact(LANES)
        .zip(w[..n].chunks_exact(LANES))
        .zip(o[..n].chunks_exact_mut(LANES))
    {
        for k in 0..LANES {
            acc[k] += x[k] * y[k];
            z[k] += a * x[k];
        }
    }
    let mut tail = 0.0;
    for j in n..r.len() {
        tail += r[j] * w[j];
        o[j] += a * r[j];
    }
    sum_lanes(acc) + tail
}

/// Two rows of [`packed_mul`] over their shared columns: returns $(a^\top w, b^\top w)$ and sets
/// $o \leftarrow o + w_a a + w_b b$, reading `a`, `b`, `w` and `o` once.
#[inline(always)]
fn dot2_axpy2(a: &[f64], b: &[f64], w: &[f64], wa: f64, wb: f64, o: &mut [f64]) -> (f64, f64) {
    debug_assert!(a.len() == b.len() && b.len() == w.len() && w.len() == o.len());
    const L: usize = LANES / 2;
    let n = a.len() - a.len() % L;
    let (mut acc_a, mut acc_b) = ([0.0f64; L], [0.0f64; L]);
    for (((x, y), v), z) in a[..n]
        .chunks_exact(L)
        .zip(b[..n].chunks_exact(L))
        .zip(w[..n].chunks_exact(L))
        .zip(o[..n].chunks_exact_mut(L))
    {
        for k in 0..L {
            acc_a[k] += x[k] * v[k];
            acc_b[k] += y[k] * v[k];
            z[k] += wa * x[k] + wb * y[k];
        }
    }
    let (mut ta, mut tb) = (0.0, 0.0);
    for j in n..a.len() {
        ta += a[j] * w[j];
        tb += b[j] * w[j];
        o[j] += wa * a[j] + wb * b[j];
    }
    (
        (acc_a[0] + acc_a[1]) + (acc_a[2] + acc_a[3]) + ta,
        (acc_b[0] + acc_b[1]) + (acc_b[2] + acc_b[3]) + tb,
    )
}

/// $w^\top C w = \sum_i w_i (C_{ii} w_i + 2 \sum_{j>i} C_{ij} w_j)$ for the packed matrix `c`.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
pub(crate) fn packed_quad(p: usize, c: &[f64], w: &[f64]) -> f64 {
    debug_assert_eq!(c.len(), packed_len(p));
    let mut total = 0.0;
    let mut rows = c;
    for i in 0..p {
        let (row, rest) = rows.split_at(p - i);
        rows = rest;
        let wi = w[i];
        total += wi * (row[0] * wi + 2.0 * dot_lanes(&row[1..], &w[i + 1..]));
    }
    total
}

/// $C \leftarrow C + u v^\top$ on the upper triangle (row $i$ gets $u_i v_{i..p}$); rows with
/// $u_i = 0$ are skipped, since adding $0 \cdot v$ leaves every finite entry unchanged.
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
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
    fn dot_and_blocked_row_kernels_handle_every_tail_length() {
        for n in 0..2 * LANES + 3 {
            let a: Vec<f64> = (0..n).map(|i| i as f64 + 1.0).collect();
            let b: Vec<f64> = (0..n).map(|i| 2.0 - i as f64).collect();
            let w: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
            let expect: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot(&a, &b), expect, "n = {n}");
            let mut o = vec![1.0; n];
            let (da, db) = dot2_axpy2(&a, &b, &w, 3.0, -1.0, &mut o);
            assert_eq!(
                da,
                a.iter().zip(&w).map(|(x, y)| x * y).sum::<f64>(),
                "n = {n}"
            );
            assert_eq!(
                db,
                b.iter().zip(&w).map(|(x, y)| x * y).sum::<f64>(),
                "n = {n}"
            );
            for (k, ok) in o.iter().enumerate() {
                assert_eq!(*ok, 1.0 + 3.0 * a[k] - b[k], "n = {n}, k = {k}");
            }
            let c: Vec<f64> = (0..n).map(|i| (i % 5) as f64 - 2.0).collect();
            let d: Vec<f64> = (0..n).map(|i| (i % 2) as f64).collect();
            let mut o = vec![1.0; n];
            let dots = dot4_axpy4([&a, &b, &c, &d], &w, [3.0, -1.0, 2.0, 0.5], &mut o);
            for (r, got) in [&a, &b, &c, &d].iter().zip(dots) {
                let want: f64 = r.iter().zip(&w).map(|(x, y)| x * y).sum();
                assert_eq!(got, want, "n = {n}");
            }
            for (k, ok) in o.iter().enumerate() {
                let want = 1.0 + 3.0 * a[k] - b[k] + 2.0 * c[k] + 0.5 * d[k];
                assert_eq!(*ok, want, "n = {n}, k = {k}");
            }
        }
    }

    #[test]
    fn packed_mul_matches_the_full_matrix_for_odd_and_even_p() {
        for p in (0..12).chain([PAIRED_ROWS_MAX_P + 1, PAIRED_ROWS_MAX_P + 2]) {
            // C_ij = 1 + i + 2 j for i <= j (symmetric), w_j = j - 3: small integers, exact sums.
            let entry = |i: usize, j: usize| (1 + i.min(j) + 2 * i.max(j)) as f64;
            let c: Vec<f64> = (0..p)
                .flat_map(|i| (i..p).map(move |j| entry(i, j)))
                .collect();
            let w: Vec<f64> = (0..p).map(|j| j as f64 - 3.0).collect();
            let mut o = vec![7.0; p];
            packed_mul(p, &c, &w, &mut o);
            for (i, oi) in o.iter().enumerate() {
                let want: f64 = (0..p).map(|j| entry(i, j) * w[j]).sum();
                assert_eq!(*oi, want, "p = {p}, i = {i}");
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
