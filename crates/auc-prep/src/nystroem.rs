//! Nystroem's map: landmarks by k-means++ and Lloyd rounds on the sample, and the projection
//! $K_{LL}^{-1/2}$ from the symmetric eigendecomposition (conventions section 9).
//!
//! With $M$ landmarks $l_1, \dots, l_M$ and $K_{LL} = U \Lambda U^T$, the map is
//! $z(x) = P^T k(L, x)$ with $P = U_+ \Lambda_+^{-1/2}$ over the kept eigenpairs (eigenvalue
//! above [`REL_FLOOR`] times the largest), so that
//! $z(x) \cdot z(y) = k(L, x)^T K_{LL}^{+} k(L, y)$, the Nystroem estimate of $k(x, y)$; it is
//! exact when $x$ and $y$ are landmarks and every eigenpair is kept.
//!
//! Everything is deterministic: the seeding draws from [`Normals::new`]`(spec.seed)`, ties go to
//! the lowest index, and sums run in index order. The eigensolver (faer, sequential) rounds
//! alike on one machine; the stored map is what is applied, wherever it was fitted.

use std::cmp::Ordering;

use auc_core::Dataset;
use faer::{MatRef, Side};
use rayon::prelude::*;

use crate::draws::{Normals, for_each_entry};
use crate::error::PrepError;
use crate::features::{FeatureMapSpec, MapKind};
use crate::stages::FeatureMap;

/// Lloyd rounds after the k-means++ seeding (fewer when an assignment repeats the previous one).
pub(crate) const LLOYD_ROUNDS: usize = 5;

/// The relative eigenvalue floor: eigenpairs of $K_{LL}$ with $\lambda \le 10^{-10}
/// \lambda_{\max}$ are dropped, so $\lambda^{-1/2}$ amplifies the rounding of $K_{LL}$ (about
/// $M \varepsilon$) by at most $10^5 / \sqrt{\lambda_{\max}}$.
pub(crate) const REL_FLOOR: f64 = 1e-10;

/// The Nystroem map of `spec` with width `sigma` on `sample`, reading its features below
/// `input_dim`.
///
/// $M$ = `spec.shape.size` landmarks: the sample's distinct rows when there are at most $M$ of
/// them (in sample order), else k-means++ seeds followed by at most [`LLOYD_ROUNDS`] Lloyd
/// rounds (an empty cluster keeps its center). An empty sample is an error.
pub(crate) fn fit(
    spec: &FeatureMapSpec,
    sigma: f64,
    sample: &Dataset,
    input_dim: usize,
) -> Result<FeatureMap, PrepError> {
    let m = spec.shape.size;
    let (n, p) = (sample.n(), input_dim);
    if n == 0 {
        return Err(PrepError::FeatureMap(
            "Nystroem needs training rows to choose its landmarks, and the sample is empty"
                .to_owned(),
        ));
    }
    if m == 0 {
        return Err(PrepError::FeatureMap(
            "Nystroem needs at least one landmark".to_owned(),
        ));
    }
    let s2 = sigma * sigma;
    if !(s2.is_finite() && s2 > 0.0) {
        return Err(PrepError::FeatureMap(format!(
            "the kernel width {sigma} has a square that is not a positive finite number"
        )));
    }
    let x = densify(sample, p)?;
    let distinct = distinct_rows(&x, n, p);
    let landmarks = if distinct.len() <= m {
        distinct
            .iter()
            .flat_map(|&i| x[i * p..(i + 1) * p].iter().copied())
            .collect()
    } else {
        let mut g = Normals::new(spec.seed);
        let seeds = seed_centers(&x, n, p, m, &mut g);
        let mut centers: Vec<f64> = seeds
            .iter()
            .flat_map(|&i| x[i * p..(i + 1) * p].iter().copied())
            .collect();
        lloyd(&x, n, p, &mut centers);
        centers
    };
    build(spec, sigma, landmarks, p)
}

/// The sample's rows as an $n \times p$ row-major matrix of their features below `p`; zeros
/// are left as `+0.0` whatever their sign, so equal rows have equal bits.
fn densify(sample: &Dataset, p: usize) -> Result<Vec<f64>, PrepError> {
    let cells = sample.n().checked_mul(p).ok_or_else(|| {
        PrepError::FeatureMap(format!(
            "{} sample rows of {p} features do not fit in memory",
            sample.n()
        ))
    })?;
    let mut x = vec![0.0; cells];
    for (xi, (row, _)) in x.chunks_exact_mut(p.max(1)).zip(sample.iter()) {
        for_each_entry(row, p, |k, v| {
            if v != 0.0 {
                xi[k] = v;
            }
        });
    }
    Ok(x)
}

/// The bits of a row, compared lexicographically: a total order in which equal rows tie.
fn cmp_rows(a: &[f64], b: &[f64]) -> Ordering {
    a.iter()
        .map(|v| v.to_bits())
        .cmp(b.iter().map(|v| v.to_bits()))
}

/// The first index of every distinct row of `x` ($n$ rows of $p$), in increasing order.
fn distinct_rows(x: &[f64], n: usize, p: usize) -> Vec<usize> {
    let row = |i: usize| &x[i * p..(i + 1) * p];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cmp_rows(row(a), row(b)).then(a.cmp(&b)));
    let mut firsts: Vec<usize> = order
        .iter()
        .enumerate()
        .filter(|&(t, &i)| t == 0 || cmp_rows(row(order[t - 1]), row(i)) != Ordering::Equal)
        .map(|(_, &i)| i)
        .collect();
    firsts.sort_unstable();
    firsts
}

/// $\lVert a - b \rVert^2$, summed in four interleaved lanes (so it vectorizes) and then
/// lane by lane.
fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0f64; 4];
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (u, v) in ca.zip(cb) {
        for l in 0..4 {
            let d = u[l] - v[l];
            acc[l] += d * d;
        }
    }
    for (l, (u, v)) in ra.iter().zip(rb).enumerate() {
        let d = u - v;
        acc[l] += d * d;
    }
    (acc[0] + acc[1]) + (acc[2] + acc[3])
}

/// k-means++ seeding: the first center is a uniform row, each next one a row drawn with
/// probability proportional to $D(x)^2$, its squared distance to the nearest center so far
/// (so a row equal to a center is never drawn). When the weights cannot be drawn from (all
/// zero or overflowing), the row of largest $D(x)^2$ is taken. Returns `m` row indices.
///
/// Needs $p \ge 1$: without features every row is the same, and [`fit`] takes that one row as
/// the landmark instead of seeding.
fn seed_centers(x: &[f64], n: usize, p: usize, m: usize, g: &mut Normals) -> Vec<usize> {
    debug_assert!(p >= 1, "seeding needs features");
    let row = |i: usize| &x[i * p..(i + 1) * p];
    let mut d2 = vec![f64::INFINITY; n];
    let mut chosen = Vec::with_capacity(m);
    let mut next = ((g.uniform() * n as f64) as usize).min(n - 1);
    loop {
        chosen.push(next);
        if chosen.len() == m {
            return chosen;
        }
        let c = row(next);
        d2.par_chunks_mut(ASSIGN_CHUNK)
            .zip(x.par_chunks(ASSIGN_CHUNK * p))
            .for_each(|(ds, xs)| {
                for (di, xi) in ds.iter_mut().zip(xs.chunks_exact(p)) {
                    *di = di.min(sq_dist(xi, c));
                }
            });
        // In row order, as the draw below walks them.
        let total = d2.iter().fold(0.0, |t, &di| t + di);
        let target = g.uniform() * total;
        let drawn = if total.is_finite() && total > 0.0 {
            let mut cum = 0.0;
            d2.iter().position(|&di| {
                cum += di;
                cum > target
            })
        } else {
            None
        };
        next = drawn.unwrap_or_else(|| farthest(&d2));
    }
}

/// The first index of the largest value.
fn farthest(d2: &[f64]) -> usize {
    let mut best = 0;
    for (i, &d) in d2.iter().enumerate() {
        if d > d2[best] {
            best = i;
        }
    }
    best
}

/// Rows a task of the seeding's distance update or of Lloyd's assignment step takes.
const ASSIGN_CHUNK: usize = 256;

/// Lloyd rounds on `centers` ($M$ rows of $p$, row-major): each row goes to its nearest center
/// (lowest index on ties), each center with rows becomes their mean, an empty one stays.
///
/// The nearest center minimizes $\lVert c \rVert^2 - 2\, c \cdot x$ (the distance less the
/// row's own norm), with $C^T x$ formed as the map forms $W^T x$: one contiguous `axpy` over
/// the $M$ centers per non-zero feature, from the centers stored by feature. The assignment
/// ($2 n M p$ flops a round) runs on chunks of rows in parallel, each row's as alone; the means
/// are summed in row order, so the centers do not depend on the number of threads.
fn lloyd(x: &[f64], n: usize, p: usize, centers: &mut [f64]) {
    let m = centers.len() / p.max(1);
    if p == 0 || m == 0 {
        return;
    }
    let mut by_feature = vec![0.0; p * m];
    let mut norms = vec![0.0; m];
    let mut sums = vec![0.0; m * p];
    let mut counts = vec![0usize; m];
    let mut assign = vec![usize::MAX; n];
    for _ in 0..LLOYD_ROUNDS {
        for (i, c) in centers.chunks_exact(p).enumerate() {
            for (k, &v) in c.iter().enumerate() {
                by_feature[k * m + i] = v;
            }
            norms[i] = c.iter().map(|a| a * a).sum();
        }
        let (by_feature, norms) = (&by_feature, &norms);
        let changed = x
            .par_chunks(ASSIGN_CHUNK * p)
            .zip(assign.par_chunks_mut(ASSIGN_CHUNK))
            .map(|(xs, ais)| {
                let mut dots = vec![0.0; m];
                let mut changed = false;
                for (xi, ai) in xs.chunks_exact(p).zip(ais.iter_mut()) {
                    let best = nearest(xi, by_feature, norms, &mut dots);
                    if *ai != best {
                        changed = true;
                        *ai = best;
                    }
                }
                changed
            })
            .reduce(|| false, |a, b| a || b);
        if !changed {
            return;
        }
        sums.fill(0.0);
        counts.fill(0);
        for (xi, &c) in x.chunks_exact(p).zip(&assign) {
            counts[c] += 1;
            for (s, v) in sums[c * p..(c + 1) * p].iter_mut().zip(xi) {
                *s += v;
            }
        }
        for ((c, s), &k) in centers
            .chunks_exact_mut(p)
            .zip(sums.chunks_exact(p))
            .zip(&counts)
        {
            if k > 0 {
                for (ci, si) in c.iter_mut().zip(s) {
                    *ci = si / k as f64;
                }
            }
        }
    }
}

/// The index of the center nearest row `xi` (the lowest on ties): the least
/// $\lVert c \rVert^2 - 2\, c \cdot x$ over the centers stored by feature in `by_feature`
/// with squared norms `norms`; `dots` is scratch of one value a center.
fn nearest(xi: &[f64], by_feature: &[f64], norms: &[f64], dots: &mut [f64]) -> usize {
    let m = norms.len();
    dots.fill(0.0);
    for (&v, col) in xi.iter().zip(by_feature.chunks_exact(m)) {
        if v != 0.0 {
            for (d, w) in dots.iter_mut().zip(col) {
                *d += v * w;
            }
        }
    }
    let mut best = (0, f64::INFINITY);
    for (c, (cc, d)) in norms.iter().zip(dots.iter()).enumerate() {
        let e = cc - 2.0 * d;
        if e < best.1 {
            best = (c, e);
        }
    }
    best.0
}

/// The map on `landmarks` ($M$ rows of $p$, row-major).
///
/// $K_{LL}$ is computed with the map's own arithmetic (the product $a = l_i \cdot l_j$ in
/// feature order, $\lVert l_i \rVert^2 + \lVert l_j \rVert^2 - 2a$ clamped at 0), so the
/// kernel values the map gives at a landmark are exactly this matrix's column, and the
/// approximation is exact on the landmarks up to the eigensolver's rounding.
fn build(
    spec: &FeatureMapSpec,
    sigma: f64,
    landmarks: Vec<f64>,
    p: usize,
) -> Result<FeatureMap, PrepError> {
    // No features: the one distinct row is the empty one.
    let m = landmarks.len().checked_div(p).unwrap_or(1);
    let row = |i: usize| &landmarks[i * p..(i + 1) * p];
    // The squared norms as `FeatureMap::squared_norm` sums a dense row: in feature order.
    let offsets: Vec<f64> = (0..m).map(|i| row(i).iter().map(|a| a * a).sum()).collect();
    let mut weights = vec![0.0; p * m];
    for i in 0..m {
        for (k, &v) in row(i).iter().enumerate() {
            weights[k * m + i] = v;
        }
    }
    let s2 = sigma * sigma;
    let mut kll = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let mut a = 0.0;
            for (&xk, &lk) in row(i).iter().zip(row(j)) {
                if xk != 0.0 {
                    a += xk * lk;
                }
            }
            let d = (offsets[i] + offsets[j] - 2.0 * a).max(0.0);
            let k = (-d / s2).exp();
            kll[i * m + j] = k;
            kll[j * m + i] = k;
        }
    }
    let projection = inverse_sqrt(&kll, m)?;
    Ok(FeatureMap {
        kind: MapKind::Nystroem,
        input_dim: p,
        sigma,
        seed: spec.seed,
        weights,
        offsets,
        output_dim: projection.len() / m,
        projection,
    })
}

/// $P = U_+ \Lambda_+^{-1/2}$ of the symmetric $M \times M$ matrix `k` (row-major), over the
/// eigenpairs with $\lambda > $ [`REL_FLOOR`] $\lambda_{\max}$ in decreasing eigenvalue order
/// (lowest index on ties): $M$ rows of $D'$ values, with $P P^T = K^{+}$ on the kept part.
fn inverse_sqrt(k: &[f64], m: usize) -> Result<Vec<f64>, PrepError> {
    let evd = MatRef::from_row_major_slice(k, m, m)
        .self_adjoint_eigen(Side::Lower)
        .map_err(|e| {
            PrepError::FeatureMap(format!(
                "the eigendecomposition of the landmarks' kernel matrix failed ({e:?})"
            ))
        })?;
    let (u, s) = (evd.U(), evd.S().column_vector());
    let top = (0..m).fold(f64::NEG_INFINITY, |t, j| t.max(s[j]));
    if !(top.is_finite() && top > 0.0) {
        return Err(PrepError::FeatureMap(format!(
            "the landmarks' kernel matrix has the largest eigenvalue {top}"
        )));
    }
    let mut kept: Vec<usize> = (0..m).filter(|&j| s[j] > REL_FLOOR * top).collect();
    kept.sort_by(|&a, &b| s[b].total_cmp(&s[a]).then(a.cmp(&b)));
    let d = kept.len();
    let mut proj = vec![0.0; m * d];
    for (t, &j) in kept.iter().enumerate() {
        let scale = 1.0 / s[j].sqrt();
        for i in 0..m {
            proj[i * d + t] = u[(i, j)] * scale;
        }
    }
    Ok(proj)
}
