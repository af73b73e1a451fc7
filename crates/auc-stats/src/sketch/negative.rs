//! The negative part of a sketch minus a rank-one term: the most negative eigenpair of
//! $L = B^\top B + R^\top R - c\, u u^\top$ (`docs/math/sketched-moments.md` section 6).
//!
//! $L = Z^\top J Z$ with $Z = [B; R; u^\top]$ ($r \le 2\ell + 1$ rows) and
//! $J = \operatorname{diag}(1, \dots, 1, -c)$. A positive semi-definite part minus a rank-one
//! term has at most one negative eigenvalue (interlacing). Its eigenvector lies in the row space
//! of $Z$, so with the Gram matrix $K = Z Z^\top = Q \Lambda Q^\top$ (kept where
//! $\lambda > 10^{-12}\lambda_{\max}$) and the eigenpairs $(\theta, a)$ of the small symmetric
//! $A = \Lambda^{1/2} Q^\top J Q \Lambda^{1/2}$, $v = Z^\top Q \Lambda^{-1/2} a$ satisfies
//! $L v = \theta v$ and $\lVert v\rVert = \lVert a\rVert = 1$. Since the kept columns of $Q$
//! are orthonormal, $A = \Lambda - (1 + c)\, s s^\top$ with $s = \Lambda^{1/2} Q^\top e_r$: a
//! diagonal less a rank-one term, whose negative eigenpair is the root of a secular equation.
//! Cost: $O(\ell^2 t)$ flops for $B B^\top$, $O(\ell^3)$ for the one small eigendecomposition
//! (of $K$), $O(\ell)$ a bisection step and $O(\ell t)$ for $v$; the $p \times p$ matrix is
//! never formed, and in slot coordinates ([`FrequentDirections::negative_direction_touched`])
//! nothing costs $O(p)$.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, MatRef, Par, Side};

use super::FrequentDirections;
use crate::StatsError;
use crate::kernels::{axpy, dot};

/// Eigenvalues of $K$ below this fraction of the largest are its null space.
const GRAM_FLOOR: f64 = 1e-12;

/// A symmetric matrix's eigenpairs, in increasing order of eigenvalue; `None` if faer fails
/// (only on non-finite input).
fn eigen(m: &Mat<f64>) -> Option<(Vec<f64>, Mat<f64>)> {
    let evd = m.self_adjoint_eigen(Side::Lower).ok()?;
    let s = evd.S().column_vector();
    let n = m.nrows();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| s[a].total_cmp(&s[b]).then(a.cmp(&b)));
    let values = order.iter().map(|&j| s[j]).collect();
    let vectors = Mat::from_fn(n, n, |i, k| evd.U()[(i, order[k])]);
    Some((values, vectors))
}

/// The eigenvector of the negative eigenvalue of $D - \rho\, s s^\top$ ($D$ = diag(`d`),
/// every $d_x > 0$, $\rho > 0$), or `None` when it has none; not normalized.
///
/// An eigenvalue $\theta$ below every $d_x$ is a root of the secular equation
/// $f(\theta) = 1 - \rho \sum_x s_x^2 / (d_x - \theta)$, decreasing on $(-\infty, \min d)$
/// from 1, so there is a negative one exactly when $f(0) < 0$; it is then found by bisection on
/// $[-\rho \lVert s\rVert^2, 0]$ (where $f > 0$ at the left end) to the last bit, and the
/// eigenvector is $(D - \theta I)^{-1} s$, whose divisors are all positive (no cancellation).
fn diagonal_less_rank_one(d: &[f64], s: &[f64], rho: f64) -> Option<Vec<f64>> {
    let f = |theta: f64| {
        1.0 - rho
            * d.iter()
                .zip(s)
                .map(|(&dx, &sx)| sx * sx / (dx - theta))
                .sum::<f64>()
    };
    // Not negative (or not a number: no part rather than a wrong one).
    if f(0.0).partial_cmp(&0.0) != Some(std::cmp::Ordering::Less) {
        return None;
    }
    let (mut lo, mut hi) = (-rho * s.iter().map(|x| x * x).sum::<f64>(), 0.0f64);
    loop {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 { lo = mid } else { hi = mid }
    }
    let theta = 0.5 * (lo + hi);
    Some(
        d.iter()
            .zip(s)
            .map(|(&dx, &sx)| sx / (dx - theta))
            .collect(),
    )
}

/// The negative eigenpair of $L$ found in the touched features' coordinates: $v$ in slot order
/// (unit together with the part outside), and the coefficient of $u$'s part outside the touched
/// features, which $v$ holds there.
struct SlotDirection {
    theta: f64,
    v: Vec<f64>,
    outside: f64,
}

impl FrequentDirections {
    /// The most negative eigenpair $(\theta, v)$, $\lVert v\rVert = 1$, of
    /// $B^\top B + R^\top R - c\, u u^\top$ (the sketch's estimate of $A^\top A$ minus
    /// $c\, u u^\top$), or `None` when that matrix has no negative eigenvalue. $\theta$ is returned
    /// as the Rayleigh quotient $v^\top L v$ of the computed $v$.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `u` is not of length $p$; [`StatsError::NonFinite`] for a
    /// non-finite entry of `u` or a non-finite `c`.
    pub fn negative_direction(
        &self,
        u: &[f64],
        c: f64,
    ) -> Result<Option<(f64, Vec<f64>)>, StatsError> {
        self.check(u, self.dim)?;
        check_c(c)?;
        if c <= 0.0 {
            return Ok(None);
        }
        // u splits into its touched part (slot order) and the rest, which only Z's last row and
        // v's last term meet.
        let slots = self.gather(u);
        let mut rest = u.to_vec();
        for &f in &self.features {
            rest[f as usize] = 0.0;
        }
        let Some(d) = self.negative_in_slots(&slots, dot(&rest, &rest), c) else {
            return Ok(None);
        };
        rest.iter_mut().for_each(|x| *x *= d.outside);
        for (&f, &vs) in self.features.iter().zip(&d.v) {
            rest[f as usize] = vs;
        }
        Ok(Some((d.theta, rest)))
    }

    /// [`negative_direction`](Self::negative_direction) for a `u` that is zero at every untouched
    /// feature, given in slot order ([`touched_features`](Self::touched_features)); $v$ is
    /// returned in slot order too (it is zero elsewhere). No $O(p)$ term: $O(\ell^2 t + \ell^3)$
    /// flops, the cost a one-pass learner's step pays when the class it reads has changed.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `u` does not have one value per touched feature;
    /// [`StatsError::NonFinite`] for a non-finite entry of `u` or a non-finite `c`.
    pub fn negative_direction_touched(
        &self,
        u: &[f64],
        c: f64,
    ) -> Result<Option<(f64, Vec<f64>)>, StatsError> {
        if u.len() != self.features.len() {
            return Err(StatsError::Length {
                what: "u",
                expected: self.features.len(),
                found: u.len(),
            });
        }
        if let Some(index) = u.iter().position(|v| !v.is_finite()) {
            return Err(StatsError::NonFinite {
                what: "u",
                index,
                value: u[index].to_string(),
            });
        }
        check_c(c)?;
        if c <= 0.0 {
            return Ok(None);
        }
        Ok(self.negative_in_slots(u, 0.0, c).map(|d| (d.theta, d.v)))
    }

    /// The module's computation for $u$ = `u` (slot order) on the touched features plus a part
    /// of squared norm `outside` on the others ($c > 0$).
    fn negative_in_slots(&self, u: &[f64], outside: f64, c: f64) -> Option<SlotDirection> {
        let (ell, stride) = (self.ell, 2 * self.ell);
        let q = self.buf_ptr.len() - 1;
        let r = ell + q + 1;
        // K = Z Z^T. B B^T afresh from the slots (the kept Gram block is the shrink's
        // C^T G C, equal only up to rounding); B R^T and R R^T as `insert` filled them.
        let t = self.features.len();
        let slots = MatRef::from_column_major_slice(&self.sketch, ell, t);
        let mut bb = Mat::<f64>::zeros(ell, ell);
        matmul(
            bb.as_mut(),
            Accum::Replace,
            slots,
            slots.transpose(),
            1.0,
            Par::Seq,
        );
        let bu = self.project_slots(u);
        let ru: Vec<f64> = (0..q).map(|k| self.row_dot_slots(k, u)).collect();
        let mut k = Mat::<f64>::zeros(r, r);
        for i in 0..r {
            for j in 0..=i {
                // j <= i: the buffered rows' entries (i < ell + q) are the kept Gram's.
                let v = if i < ell {
                    bb[(i, j)]
                } else if i < ell + q {
                    self.gram[i * stride + j]
                } else if j < ell {
                    bu[j]
                } else if j < ell + q {
                    ru[j - ell]
                } else {
                    dot(u, u) + outside
                };
                k[(i, j)] = v;
                k[(j, i)] = v;
            }
        }
        let (lambda, qm) = eigen(&k)?;
        let top = lambda.last().copied().unwrap_or(0.0);
        let kept: Vec<usize> = (0..r).filter(|&i| lambda[i] > GRAM_FLOOR * top).collect();
        if kept.is_empty() {
            return None;
        }
        // A = Lambda^(1/2) Q^T J Q Lambda^(1/2) on the kept columns. J is the identity but for
        // -c on Z's last row, and the kept columns of Q are orthonormal, so
        // Q^T J Q = I - (1 + c) z z^T with z the last row of Q: A = Lambda - (1 + c) s s^T,
        // s = Lambda^(1/2) z, a diagonal less a rank-one term, whose negative eigenpair is the
        // root of its secular equation (`diagonal_less_rank_one`): no second eigendecomposition.
        let m = kept.len();
        let d: Vec<f64> = kept.iter().map(|&cx| lambda[cx]).collect();
        let s: Vec<f64> = kept
            .iter()
            .map(|&cx| lambda[cx].sqrt() * qm[(r - 1, cx)])
            .collect();
        let av = diagonal_less_rank_one(&d, &s, 1.0 + c)?;
        // gamma = Q Lambda^(-1/2) a, then v = Z^T gamma: its touched part in slot order, and
        // gamma's last entry times u's part outside them.
        let gamma: Vec<f64> = (0..r)
            .map(|i| {
                (0..m)
                    .map(|x| qm[(i, kept[x])] * av[x] / lambda[kept[x]].sqrt())
                    .sum()
            })
            .collect();
        let mut v: Vec<f64> = self
            .sketch
            .chunks_exact(ell)
            .map(|col| dot(col, &gamma[..ell]))
            .collect();
        for (kq, &g) in gamma[ell..ell + q].iter().enumerate() {
            for s in self.buf_ptr[kq]..self.buf_ptr[kq + 1] {
                v[self.buf_slot[s] as usize] += g * self.buf_val[s];
            }
        }
        let last = gamma[r - 1];
        axpy(last, u, &mut v);
        let norm = (dot(&v, &v) + last * last * outside).sqrt();
        if !(norm > 0.0 && norm.is_finite()) {
            return None;
        }
        v.iter_mut().for_each(|x| *x /= norm);
        let outside_coef = last / norm;
        let uv = dot(u, &v) + outside_coef * outside;
        let rayleigh = self.quad_slots(&v) - c * uv * uv;
        (rayleigh < 0.0).then_some(SlotDirection {
            theta: rayleigh,
            v,
            outside: outside_coef,
        })
    }
}

/// `c` finite, or the error naming it.
fn check_c(c: f64) -> Result<(), StatsError> {
    if c.is_finite() {
        Ok(())
    } else {
        Err(StatsError::NonFinite {
            what: "c",
            index: 0,
            value: c.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use auc_core::SparseVec;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// The dense $L$ of a small sketch, column by column through `apply`.
    fn dense_l(fd: &FrequentDirections, u: &[f64], c: f64) -> Mat<f64> {
        let p = fd.dim();
        let mut l = Mat::<f64>::zeros(p, p);
        let mut e = vec![0.0; p];
        let mut col = vec![0.0; p];
        for j in 0..p {
            e[j] = 1.0;
            fd.apply(&e, &mut col).unwrap();
            for i in 0..p {
                l[(i, j)] = col[i] - c * u[i] * u[j];
            }
            e[j] = 0.0;
        }
        l
    }

    /// Random sparse rows with a large mean (so the mean term outweighs what the sketch drops),
    /// sketched at a rank far below $p$: the eigenpair matches the dense matrix's smallest, and
    /// adding $-\theta v v^\top$ leaves no negative eigenvalue.
    #[test]
    fn the_secular_root_is_the_dense_eigenpair() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut negative = 0;
        for case in 0..200 {
            let m = 1 + case % 12;
            let d: Vec<f64> = (0..m).map(|_| rng.random_range(1e-3..4.0)).collect();
            let s: Vec<f64> = (0..m).map(|_| rng.random_range(-1.5..1.5)).collect();
            let rho = rng.random_range(0.1..3.0);
            let a = Mat::from_fn(m, m, |x, y| {
                (if x == y { d[x] } else { 0.0 }) - rho * s[x] * s[y]
            });
            let (values, vectors) = eigen(&a).unwrap();
            match diagonal_less_rank_one(&d, &s, rho) {
                None => assert!(values[0] > -1e-12, "case {case}: missed {}", values[0]),
                Some(v) => {
                    negative += 1;
                    assert!(
                        values[0] < 1e-12,
                        "case {case}: found none of {}",
                        values[0]
                    );
                    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                    // The same direction as the dense eigenvector, up to sign.
                    let cos: f64 = (0..m).map(|x| v[x] / norm * vectors[(x, 0)]).sum();
                    assert!((cos.abs() - 1.0).abs() < 1e-10, "case {case}: cos {cos}");
                }
            }
        }
        assert!(negative > 20 && negative < 200, "{negative}");
    }

    #[test]
    fn the_negative_eigenpair_matches_the_dense_matrix() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut negative = 0;
        for (p, ell, rows) in [(12, 2, 40), (20, 4, 200), (30, 3, 97)] {
            let mut fd = FrequentDirections::new(ell, p).unwrap();
            let mut sum = vec![0.0; p];
            for _ in 0..rows {
                let mut pairs: Vec<(u32, f64)> = Vec::new();
                for j in 0..p as u32 {
                    if rng.random::<f64>() < 0.4 {
                        pairs.push((j, 1.0 + rng.random::<f64>()));
                    }
                }
                let x = SparseVec::from_pairs(pairs).unwrap();
                x.view()
                    .indices()
                    .iter()
                    .zip(x.view().values())
                    .for_each(|(&j, &v)| sum[j as usize] += v);
                fd.insert(auc_core::Row::Sparse(x.view())).unwrap();
            }
            let n = rows as f64;
            let mean: Vec<f64> = sum.iter().map(|s| s / n).collect();
            let l = dense_l(&fd, &mean, n);
            let (values, _) = eigen(&l).unwrap();
            let scale = values.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            match fd.negative_direction(&mean, n).unwrap() {
                Some((theta, v)) => {
                    negative += 1;
                    assert!(
                        (theta - values[0]).abs() <= 1e-9 * scale,
                        "p {p}: theta {theta}, dense {}",
                        values[0]
                    );
                    let clipped = Mat::from_fn(p, p, |i, j| l[(i, j)] - theta * v[i] * v[j]);
                    let (after, _) = eigen(&clipped).unwrap();
                    assert!(after[0] >= -1e-9 * scale, "p {p}: {}", after[0]);
                    // At most one negative eigenvalue (interlacing).
                    assert!(values[1] >= -1e-9 * scale, "p {p}: {}", values[1]);
                }
                None => assert!(values[0] >= -1e-9 * scale, "p {p}: {}", values[0]),
            }
        }
        // The case the method exists for occurs on such data.
        assert!(
            negative >= 2,
            "{negative} of 3 sketches had a negative part"
        );
    }

    /// A $u$ with mass off the touched features (the general call splits it) against the dense
    /// $L$; and for a $u$ on the touched features only, the slot call gives the same pair as
    /// the general one, in slot order.
    #[test]
    fn the_touched_and_the_general_directions_agree() {
        let mut rng = StdRng::seed_from_u64(23);
        let (p, ell) = (14, 3);
        let mut fd = FrequentDirections::new(ell, p).unwrap();
        // Rows on features 9, 2, 5, 0, 7, 11 only, in that order of first sight.
        let on = [9u32, 2, 5, 0, 7, 11];
        for _ in 0..60 {
            let mut pairs: Vec<(u32, f64)> = Vec::new();
            for &j in &on {
                if rng.random::<f64>() < 0.6 {
                    pairs.push((j, 1.0 + rng.random::<f64>()));
                }
            }
            pairs.sort_by_key(|&(j, _)| j);
            let x = SparseVec::from_pairs(pairs).unwrap();
            fd.insert(auc_core::Row::Sparse(x.view())).unwrap();
        }
        let mut found = 0;
        for case in 0..20 {
            let outside = if case % 2 == 0 { 0.0 } else { 0.7 };
            let u: Vec<f64> = (0..p)
                .map(|j| {
                    if on.contains(&(j as u32)) {
                        0.5 + rng.random::<f64>()
                    } else {
                        outside * rng.random::<f64>()
                    }
                })
                .collect();
            let c = rng.random_range(5.0..60.0);
            let l = dense_l(&fd, &u, c);
            let (values, _) = eigen(&l).unwrap();
            let scale = values.iter().fold(1.0f64, |m, v| m.max(v.abs()));
            let general = fd.negative_direction(&u, c).unwrap();
            match &general {
                Some((theta, v)) => {
                    found += 1;
                    assert!((theta - values[0]).abs() <= 1e-9 * scale, "case {case}");
                    let lv: Vec<f64> = (0..p)
                        .map(|i| (0..p).map(|j| l[(i, j)] * v[j]).sum::<f64>())
                        .collect();
                    for i in 0..p {
                        assert!((lv[i] - theta * v[i]).abs() <= 1e-8 * scale, "case {case}");
                    }
                }
                None => assert!(values[0] >= -1e-9 * scale, "case {case}: {}", values[0]),
            }
            if outside == 0.0 {
                let slots: Vec<f64> = fd
                    .touched_features()
                    .iter()
                    .map(|&f| u[f as usize])
                    .collect();
                let touched = fd.negative_direction_touched(&slots, c).unwrap();
                match (general, touched) {
                    (Some((ta, va)), Some((tb, vb))) => {
                        assert!((ta - tb).abs() <= 1e-12 * scale, "case {case}");
                        for (s, &f) in fd.touched_features().iter().enumerate() {
                            assert!((va[f as usize] - vb[s]).abs() <= 1e-12, "case {case}");
                        }
                    }
                    (None, None) => {}
                    other => panic!("case {case}: {other:?}"),
                }
            }
        }
        assert!(found >= 5, "{found} of 20 had a negative part");
        assert!(fd.negative_direction_touched(&[1.0; 3], 2.0).is_err());
    }

    /// With $c = 0$ or an exact sketch of the rows (rank at least their number) minus their mean,
    /// there is nothing negative: the centered co-moment is positive semi-definite.
    #[test]
    fn an_exact_sketch_minus_its_mean_has_no_negative_part() {
        let p = 6;
        let mut fd = FrequentDirections::new(8, p).unwrap();
        let rows = [
            [1.0, 0.0, 2.0, 0.0, 0.5, 0.0],
            [0.0, 1.0, 1.0, 0.0, 0.0, 3.0],
        ];
        let mut mean = vec![0.0; p];
        for r in &rows {
            fd.insert(auc_core::Row::Dense(r)).unwrap();
            for (m, v) in mean.iter_mut().zip(r) {
                *m += v / 2.0;
            }
        }
        assert!(fd.negative_direction(&mean, 0.0).unwrap().is_none());
        // Exact in exact arithmetic; rounding may leave a negative value of order 1e-16.
        if let Some((theta, _)) = fd.negative_direction(&mean, 2.0).unwrap() {
            assert!(theta > -1e-12, "{theta}");
        }
        assert!(fd.negative_direction(&mean[..3], 2.0).is_err());
    }
}
