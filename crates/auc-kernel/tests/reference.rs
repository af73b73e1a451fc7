//! The budgeted learners against a direct implementation that caches nothing: every f-value is
//! summed from the buffers, every kernel value evaluated, the buffers are plain FIFO queues.
//! Agreement checks the cached kernel block, the incremental f-values, the slot bookkeeping and
//! the eviction rules at once.

use std::collections::VecDeque;

use auc_core::{Label, OnlineLearner, Row};
use auc_kernel::{
    AnyKernel, Gaussian, Kernel, KoilParams, OkaucMParams, OkaucSParams, Polynomial, Removal,
};

/// Deterministic pseudo-random stream: 2-d points, positives around (1, 0).
fn stream(n: usize, seed: u64) -> Vec<(Vec<f64>, Label)> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut u = move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    (0..n)
        .map(|_| {
            let pos = u() > 0.3;
            let x = vec![u() + if pos { 0.8 } else { 0.0 }, u(), u() * 0.5];
            (x, if pos { Label::Pos } else { Label::Neg })
        })
        .collect()
}

#[derive(Clone, Copy)]
enum Rule {
    M,
    S,
    Koil { k: usize },
}

/// The direct implementation.
struct Direct {
    kernel: AnyKernel,
    budget: usize,
    rule: Rule,
    lambda: f64,
    eta: f64,
    c: f64,
    t: u64,
    /// Per class: (row, weight), oldest first.
    bufs: [VecDeque<(Vec<f64>, f64)>; 2],
}

impl Direct {
    fn k(&self, a: &[f64], b: &[f64]) -> f64 {
        self.kernel.eval(
            &auc_kernel::Cached::new(Row::Dense(a)),
            &auc_kernel::Cached::new(Row::Dense(b)),
        )
    }

    fn f(&self, x: &[f64]) -> f64 {
        self.bufs
            .iter()
            .flatten()
            .map(|(z, a)| a * self.k(z, x))
            .sum()
    }

    fn update(&mut self, x: &[f64], y: Label) {
        self.t += 1;
        let ys = y.sign();
        let (o, own) = (y.opposite().index(), y.index());
        let fx = self.f(x);
        let fo: Vec<f64> = self.bufs[o].iter().map(|(z, _)| self.f(z)).collect();
        let n = fo.len() as f64;
        let eta = match self.rule {
            Rule::M => 1.0 / (self.lambda * self.t as f64),
            _ => self.eta,
        };
        let mut deltas = vec![0.0; fo.len()];
        let a;
        let shrink;
        match self.rule {
            Rule::M | Rule::S => {
                shrink = 1.0 - self.lambda * eta;
                if fo.is_empty() {
                    a = 0.0;
                } else {
                    let mu = fo.iter().sum::<f64>() / n;
                    let s2 = fo.iter().map(|f| (f - mu).powi(2)).sum::<f64>() / n;
                    let b = 1.0 - ys * (fx - mu);
                    if let Rule::M = self.rule {
                        let r = (b * b + s2).sqrt();
                        let psi = (b + r) / 2.0;
                        a = eta * ys * psi / r;
                        for (d, fi) in deltas.iter_mut().zip(&fo) {
                            *d = -eta / (n * r) * (ys * psi + (fi - mu) / 2.0);
                        }
                    } else {
                        a = eta * ys * b;
                        for (d, fi) in deltas.iter_mut().zip(&fo) {
                            *d = -eta / n * (ys * b + fi - mu);
                        }
                    }
                }
            }
            Rule::Koil { k } => {
                shrink = 1.0 - eta;
                let mut viol: Vec<(f64, usize)> = fo
                    .iter()
                    .enumerate()
                    .filter(|(_, fi)| 1.0 - ys * (fx - *fi) > 0.0)
                    .map(|(i, _)| (self.k(&self.bufs[o][i].0, x), i))
                    .collect();
                if fo.is_empty() || (self.bufs[own].is_empty() && viol.is_empty()) {
                    a = eta * self.c * ys;
                } else {
                    viol.sort_by(|p, q| q.0.total_cmp(&p.0));
                    viol.truncate(k);
                    for &(_, i) in &viol {
                        deltas[i] = -eta * self.c * ys;
                    }
                    a = eta * self.c * viol.len() as f64 * ys;
                }
            }
        }
        for (_, w) in self.bufs.iter_mut().flatten() {
            *w *= shrink;
        }
        for ((_, w), d) in self.bufs[o].iter_mut().zip(&deltas) {
            *w += d;
        }
        if matches!(self.rule, Rule::Koil { .. }) && a == 0.0 {
            return;
        }
        self.bufs[own].push_back((x.to_vec(), a));
        if self.bufs[own].len() > self.budget {
            let (xj, aj) = self.bufs[own].pop_front().unwrap();
            // Best remaining row (the new one included), by the learner's rule.
            let mut best: Option<(usize, f64)> = None;
            for (r, (xr, _)) in self.bufs[own].iter().enumerate() {
                let (krj, krr) = (self.k(xr, &xj), self.k(xr, xr));
                let merit = match self.rule {
                    Rule::Koil { .. } => krj,
                    _ => krj * krj / krr,
                };
                if best.is_none_or(|(_, m)| merit > m) {
                    best = Some((r, merit));
                }
            }
            let (r, _) = best.unwrap();
            let (krj, krr) = (
                self.k(&self.bufs[own][r].0, &xj),
                self.k(&self.bufs[own][r].0, &self.bufs[own][r].0),
            );
            self.bufs[own][r].1 += match self.rule {
                Rule::Koil { .. } => aj,
                _ => aj * krj / krr,
            };
        }
    }
}

fn direct(kernel: AnyKernel, budget: usize, rule: Rule, lambda: f64, eta: f64, c: f64) -> Direct {
    Direct {
        kernel,
        budget,
        rule,
        lambda,
        eta,
        c,
        t: 0,
        bufs: [VecDeque::new(), VecDeque::new()],
    }
}

fn assert_same(
    learner: &mut dyn OnlineLearner,
    reference: &mut Direct,
    data: &[(Vec<f64>, Label)],
) {
    let probes = stream(20, 99);
    for (t, (x, y)) in data.iter().enumerate() {
        learner.update(Row::Dense(x), *y);
        reference.update(x, *y);
        for (z, _) in &probes {
            let (a, b) = (learner.score(Row::Dense(z)), reference.f(z));
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                "step {t}: {a} vs {b}"
            );
        }
    }
}

fn gauss(sigma: f64) -> AnyKernel {
    Gaussian::new(sigma).unwrap().into()
}

#[test]
fn okauc_m_matches_the_direct_computation_through_fifo_evictions() {
    let data = stream(300, 1);
    for (budget, sigma) in [(5, 0.7), (12, 2.0), (400, 1.0)] {
        let params = OkaucMParams {
            lambda: 0.05,
            sigma: 1.0,
            budget,
            removal: Removal::Fifo,
        };
        let mut l = params.build_with(gauss(sigma), 3, 0).unwrap();
        let mut r = direct(gauss(sigma), budget, Rule::M, 0.05, 0.0, 0.0);
        assert_same(&mut l, &mut r, &data);
    }
}

#[test]
fn okauc_s_matches_the_direct_computation_with_a_polynomial_kernel() {
    let data = stream(250, 2);
    let kernel: AnyKernel = Polynomial::new(2.0, 0.5, 1.0).unwrap().into();
    for (budget, eta, lambda) in [(4, 0.01, 0.1), (9, 0.05, 0.0), (300, 0.002, 1.0)] {
        let params = OkaucSParams {
            eta,
            lambda,
            sigma: 1.0,
            budget,
            removal: Removal::Fifo,
        };
        let mut l = params.build_with(kernel, 3, 0).unwrap();
        let mut r = direct(kernel, budget, Rule::S, lambda, eta, 0.0);
        assert_same(&mut l, &mut r, &data);
    }
}

#[test]
fn koil_matches_the_direct_computation_through_fifo_plus_plus() {
    let data = stream(300, 3);
    for (budget, k, eta, c) in [(6, 3, 0.1, 1.0), (20, 10, 0.02, 4.0), (400, 10, 0.3, 0.5)] {
        let params = KoilParams {
            eta,
            c,
            k,
            sigma: 1.0,
            budget,
            removal: Removal::Fifo,
        };
        let mut l = params.build_with(gauss(0.8), 3, 0).unwrap();
        let mut r = direct(gauss(0.8), budget, Rule::Koil { k }, 0.0, eta, c);
        assert_same(&mut l, &mut r, &data);
    }
}
