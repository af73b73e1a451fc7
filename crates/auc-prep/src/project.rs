//! Nystroem's projection of a block of rows, $Z = K P$ ($b \times M$ kernel values times the
//! $M \times D$ projection), register-blocked, with every output summed exactly as the row at a
//! time map sums it: $z_j = (\dots((0 + k_0 P_{0j}) + k_1 P_{1j}) + \dots) + k_{M-1} P_{M-1,j}$,
//! each product rounded, then each sum (no fused multiply-add). So a dataset's mapped rows are
//! the bits of its rows mapped one by one, which the preparation promises, at several times the
//! speed of the row loop: a tile of [`TILE_ROWS`] rows by [`TILE_COLS`] outputs stays in
//! registers for the whole sum over the landmarks, and $P$ is read as column panels of
//! [`TILE_COLS`] (packed contiguous once a block), each panel reused by every tile of rows.

/// Rows of a register tile: eight independent sums a column, enough to hide the latency of
/// the additions.
const TILE_ROWS: usize = 8;
/// Outputs of a register tile (one AVX-512 vector, two AVX2 ones).
const TILE_COLS: usize = 8;

/// $P$ repacked by column panels: panel $q$ holds columns $8q, \dots, 8q + 7$ of every row $i$
/// as 8 consecutive values, panels one after the other (the last `d % 8` columns stay in $P$).
pub(crate) fn pack_panels(p: &[f64], m: usize, d: usize) -> Vec<f64> {
    let panels = d / TILE_COLS;
    let mut out = Vec::with_capacity(panels * m * TILE_COLS);
    for q in 0..panels {
        for row in p.chunks_exact(d).take(m) {
            out.extend_from_slice(&row[q * TILE_COLS..(q + 1) * TILE_COLS]);
        }
    }
    out
}

/// $Z = K P$ for the $b$ rows of `k` ($b \times M$, row-major) into `z` ($b \times D$,
/// row-major, overwritten), with `panels` from [`pack_panels`]`(p, m, d)`; `scratch` holds a
/// tile of rows of $K$ interleaved by landmark (rows past the last are zeros, and their sums
/// are not stored).
#[multiversion::multiversion(targets("x86_64+avx512f+avx512vl+avx512dq+avx2+fma", "x86_64+avx2"))]
pub(crate) fn project(
    k: &[f64],
    m: usize,
    p: &[f64],
    panels: &[f64],
    d: usize,
    z: &mut [f64],
    scratch: &mut Vec<f64>,
) {
    if d == 0 || m == 0 {
        z.fill(0.0);
        return;
    }
    let rows = z.len() / d;
    let full = d / TILE_COLS;
    scratch.clear();
    scratch.resize(m * TILE_ROWS, 0.0);
    for r in (0..rows).step_by(TILE_ROWS) {
        let t = (rows - r).min(TILE_ROWS);
        let kt = &k[r * m..(r + t) * m];
        for (i, lane) in scratch.chunks_exact_mut(TILE_ROWS).enumerate() {
            for (row, v) in lane.iter_mut().enumerate() {
                *v = if row < t { kt[row * m + i] } else { 0.0 };
            }
        }
        for (q, panel) in panels.chunks_exact(m * TILE_COLS).enumerate().take(full) {
            let acc = tile(scratch, panel);
            for (row, a) in acc.iter().enumerate().take(t) {
                let at = (r + row) * d + q * TILE_COLS;
                z[at..at + TILE_COLS].copy_from_slice(a);
            }
        }
        // The last d % 8 outputs, a value at a time, in the same order.
        for row in 0..t {
            let kr = &kt[row * m..(row + 1) * m];
            for j in full * TILE_COLS..d {
                let mut s = 0.0;
                for (ki, prow) in kr.iter().zip(p.chunks_exact(d)) {
                    s += ki * prow[j];
                }
                z[(r + row) * d + j] = s;
            }
        }
    }
}

/// One register tile: the interleaved rows `k` (landmark by landmark, [`TILE_ROWS`] values
/// each) times one panel of 8 columns.
#[inline(always)]
fn tile(k: &[f64], panel: &[f64]) -> [[f64; TILE_COLS]; TILE_ROWS] {
    let mut acc = [[0.0f64; TILE_COLS]; TILE_ROWS];
    for (kv, pv) in k.chunks_exact(TILE_ROWS).zip(panel.chunks_exact(TILE_COLS)) {
        for (a, &kr) in acc.iter_mut().zip(kv) {
            for (s, pc) in a.iter_mut().zip(pv) {
                *s += kr * pc;
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row loop the map uses for one row: z_j += k_i P_ij, i increasing.
    fn row_loop(k: &[f64], p: &[f64], d: usize) -> Vec<f64> {
        let mut z = vec![0.0; d];
        for (ki, prow) in k.iter().zip(p.chunks_exact(d)) {
            for (zj, pij) in z.iter_mut().zip(prow) {
                *zj += ki * pij;
            }
        }
        z
    }

    #[test]
    fn tiles_sum_as_the_row_loop_bit_for_bit() {
        let mut x = 0.123_f64;
        let mut next = || {
            x = (x * 3.7 + 0.31).fract();
            x - 0.4
        };
        for (b, m, d) in [(1, 1, 1), (3, 5, 7), (4, 9, 8), (9, 13, 21), (13, 40, 17)] {
            let k: Vec<f64> = (0..b * m).map(|_| next()).collect();
            let p: Vec<f64> = (0..m * d).map(|_| next() * 1e3).collect();
            let panels = pack_panels(&p, m, d);
            let mut z = vec![f64::NAN; b * d];
            project(&k, m, &p, &panels, d, &mut z, &mut Vec::new());
            for row in 0..b {
                let want = row_loop(&k[row * m..(row + 1) * m], &p, d);
                let got = &z[row * d..(row + 1) * d];
                let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(got), bits(&want), "b {b} m {m} d {d} row {row}");
            }
        }
        // No outputs: nothing to write, and no panic.
        project(
            &[1.0, 2.0],
            2,
            &[],
            &pack_panels(&[], 2, 0),
            0,
            &mut [],
            &mut Vec::new(),
        );
    }
}
