//! The regret experiment of [OAUC Thm 6]: online gradient descent with $\eta_t = 1/(\lambda t)$ on
//! $L_t(w) = \frac{\lambda}{2}\lVert w \rVert^2 + \psi_M(y_t w^\top(x_t - \bar x_t), w^\top \Sigma_t w)$
//! over a stream with $\lVert x_t \rVert \le 1$, against the best fixed $w$ in hindsight.
//!
//! Usage: `regret [--out DIR] [--quick]`. Writes `DIR/regret.md` (the table) and `DIR/regret.svg`
//! (regret and bound against $T$, log-log), each through a temporary file and a rename. Run by
//! `cargo xtask reproduce regret`.
//!
//! The hindsight minimizer is found by a damped Newton method on the sum of the $T$ losses with
//! the analytic Hessian of $\psi_M$; since the sum is $\lambda T$-strongly convex,
//! $F(\hat w) - F(w^\star) \le \lVert \nabla F(\hat w) \rVert^2 / (2 \lambda T)$, and the table
//! reports that certificate next to each regret.
#![allow(
    clippy::print_stdout,
    reason = "progress and the table are this program's output"
)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use auc_core::Dataset;
use auc_data::Synthetic;
use auc_stats::Moments;
use auc_surrogate::psi_m;

/// Feature count of the synthetic streams.
const P: usize = 8;
/// Stream lengths $T$ (half-decades from $10^2$ to $10^5$).
const TS: [usize; 7] = [100, 316, 1_000, 3_162, 10_000, 31_623, 100_000];
/// Regularization strengths $\lambda$.
const LAMBDAS: [f64; 3] = [0.01, 0.1, 1.0];
/// Independent streams per $(T, \lambda)$; the table gives the mean and the worst regret.
const SEEDS: u64 = 5;

/// One loss term $L_t$ frozen for the hindsight solver: $d_t = y_t(x_t - \bar x_t)$ and
/// $\Sigma_t$ (row-major, full), or nothing when the opposite class was still empty.
struct Term {
    d: Vec<f64>,
    s: Vec<f64>,
}

/// The regrets of one $(T, \lambda)$ over [`SEEDS`] streams.
struct Run {
    t: usize,
    /// Index into [`LAMBDAS`].
    k: usize,
    lambda: f64,
    regrets: Vec<f64>,
    /// Largest hindsight certificate over the streams.
    certificate: f64,
    /// Largest Newton step count over the streams.
    newton_iters: usize,
    seconds: f64,
}

impl Run {
    fn mean(&self) -> f64 {
        self.regrets.iter().sum::<f64>() / self.regrets.len() as f64
    }

    fn worst(&self) -> f64 {
        self.regrets
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn smallest(&self) -> f64 {
        self.regrets.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let out = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1))
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    let ts: &[usize] = if quick { &TS[..3] } else { &TS };
    let mut runs = Vec::new();
    for &t in ts {
        let streams: Vec<Dataset> = (0..SEEDS).map(|seed| stream(t, seed)).collect();
        for (k, &lambda) in LAMBDAS.iter().enumerate() {
            let start = Instant::now();
            let mut run = Run {
                t,
                k,
                lambda,
                regrets: Vec::new(),
                certificate: 0.0,
                newton_iters: 0,
                seconds: 0.0,
            };
            for data in &streams {
                let (online, terms) = online_pass(data, lambda);
                let (best, certificate, iters) = hindsight(&terms, lambda);
                run.regrets.push(online - best);
                run.certificate = run.certificate.max(certificate);
                run.newton_iters = run.newton_iters.max(iters);
            }
            run.seconds = start.elapsed().as_secs_f64();
            println!(
                "T = {t:>6}, lambda = {lambda:<5}: regret mean {:.4}, worst {:.4} (bound {:.1}), {:.2} s",
                run.mean(),
                run.worst(),
                bound(t, lambda),
                run.seconds
            );
            runs.push(run);
        }
    }
    if let Err(e) = write_outputs(&out, &runs, quick) {
        eprintln!("regret: {e}");
        std::process::exit(2);
    }
}

/// $18 (1 + \ln T) / \lambda$ [OAUC Thm 6].
fn bound(t: usize, lambda: f64) -> f64 {
    18.0 * (1.0 + (t as f64).ln()) / lambda
}

/// A seeded imbalanced Gaussian stream (IR 3, 5 % label noise), every row divided by the largest
/// row norm so that $\lVert x_t \rVert \le 1$ as the theorem assumes.
fn stream(t: usize, seed: u64) -> Dataset {
    let data = Synthetic {
        n: t,
        p: P,
        ir: 3.0,
        label_noise: 0.05,
        separation: 1.5,
        sparsity: 0.0,
        seed: 2024 + seed,
    }
    .generate()
    .expect("valid synthetic parameters");
    let max_norm = data
        .iter()
        .map(|(x, _)| x.norm_sq().sqrt())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    let mut values = Vec::with_capacity(t * P);
    for (x, _) in data.iter() {
        let mut row = vec![0.0; P];
        x.write_dense(&mut row);
        values.extend(row.iter().map(|v| v / max_norm));
    }
    Dataset::dense(P, values, data.labels().to_vec()).expect("finite scaled values")
}

/// OGD with $\eta_t = 1/(\lambda t)$ from $w_1 = 0$ [OAUC alg. 1, eq. 12]; returns
/// $\sum_t L_t(w_t)$ and the frozen terms.
fn online_pass(stream: &Dataset, lambda: f64) -> (f64, Vec<Option<Term>>) {
    let mut moments = Moments::new(P);
    let mut w = vec![0.0; P];
    let mut sw = vec![0.0; P];
    let mut total = 0.0;
    let mut terms = Vec::with_capacity(stream.n());
    for (step, (x, y)) in stream.iter().enumerate() {
        let t = step + 1;
        let eta = 1.0 / (lambda * t as f64);
        let reg = 0.5 * lambda * dot(&w, &w);
        let opp = moments.opposite(y);
        if opp.count() == 0 {
            // conventions section 5: an empty opposite class contributes no loss term.
            total += reg;
            w.iter_mut().for_each(|wi| *wi *= 1.0 - eta * lambda);
            terms.push(None);
        } else {
            let mut d = vec![0.0; P];
            x.write_dense(&mut d);
            let ys = y.sign();
            for (di, mi) in d.iter_mut().zip(opp.mean()) {
                *di = ys * (*di - mi);
            }
            opp.cov_mul(&w, &mut sw);
            let s2 = dot(&w, &sw);
            let psi = psi_m(dot(&d, &w), s2);
            total += reg + psi.value;
            for i in 0..P {
                let g = lambda * w[i] + psi.d_mu * d[i] + 2.0 * psi.d_s2 * sw[i];
                w[i] -= eta * g;
            }
            let s = (0..P * P).map(|k| opp.cov(k / P, k % P)).collect();
            terms.push(Some(Term { d, s }));
        }
        moments.update(x, y);
    }
    (total, terms)
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// $F(w) = \sum_t L_t(w)$ with its gradient and Hessian (row-major).
fn objective(
    terms: &[Option<Term>],
    lambda: f64,
    w: &[f64],
    grad: &mut [f64],
    hess: &mut [f64],
) -> f64 {
    let n = terms.len() as f64;
    let mut f = 0.5 * lambda * n * dot(w, w);
    for i in 0..P {
        grad[i] = lambda * n * w[i];
        for j in 0..P {
            hess[i * P + j] = if i == j { lambda * n } else { 0.0 };
        }
    }
    let mut sw = [0.0; P];
    for term in terms.iter().flatten() {
        for (swi, row) in sw.iter_mut().zip(term.s.chunks_exact(P)) {
            *swi = dot(row, w);
        }
        let mu = dot(&term.d, w);
        let s2 = dot(w, &sw).max(0.0);
        let psi = psi_m(mu, s2);
        f += psi.value;
        // Second derivatives of psi_M(mu, s2) = (b + r)/2, b = 1 - mu, r = sqrt(b^2 + s2):
        // psi_mumu = s2 / (2 r^3), psi_mus2 = b / (4 r^3), psi_s2s2 = -1 / (8 r^3), zero when r = 0.
        let b = 1.0 - mu;
        let r = b.hypot(s2.sqrt());
        let (g_mm, g_ms, g_ss) = if r > 0.0 {
            let r3 = r * r * r;
            (s2 / (2.0 * r3), b / (4.0 * r3), -1.0 / (8.0 * r3))
        } else {
            (0.0, 0.0, 0.0)
        };
        for i in 0..P {
            grad[i] += psi.d_mu * term.d[i] + 2.0 * psi.d_s2 * sw[i];
            for j in 0..P {
                hess[i * P + j] += g_mm * term.d[i] * term.d[j]
                    + 2.0 * g_ms * (term.d[i] * sw[j] + sw[i] * term.d[j])
                    + 4.0 * g_ss * sw[i] * sw[j]
                    + 2.0 * psi.d_s2 * term.s[i * P + j];
            }
        }
    }
    f
}

/// Solves `h x = g` for symmetric positive definite `h` by Cholesky (small P).
fn solve_spd(h: &[f64], g: &[f64]) -> Vec<f64> {
    let mut l = vec![0.0; P * P];
    for i in 0..P {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * P + k] * l[j * P + k]).sum();
            if i == j {
                l[i * P + i] = (h[i * P + i] - s).max(1e-300).sqrt();
            } else {
                l[i * P + j] = (h[i * P + j] - s) / l[j * P + j];
            }
        }
    }
    let mut z = [0.0; P];
    for i in 0..P {
        let s: f64 = (0..i).map(|k| l[i * P + k] * z[k]).sum();
        z[i] = (g[i] - s) / l[i * P + i];
    }
    let mut x = vec![0.0; P];
    for i in (0..P).rev() {
        let s: f64 = (i + 1..P).map(|k| l[k * P + i] * x[k]).sum();
        x[i] = (z[i] - s) / l[i * P + i];
    }
    x
}

/// Damped Newton from $w = 0$; returns $F(\hat w)$, the certificate
/// $\lVert \nabla F(\hat w) \rVert^2 / (2 \lambda T)$ and the number of steps.
fn hindsight(terms: &[Option<Term>], lambda: f64) -> (f64, f64, usize) {
    let mut w = vec![0.0; P];
    let (mut grad, mut hess) = (vec![0.0; P], vec![0.0; P * P]);
    let (mut g2, mut h2) = (vec![0.0; P], vec![0.0; P * P]);
    let mut f = objective(terms, lambda, &w, &mut grad, &mut hess);
    let strong = lambda * terms.len() as f64;
    let mut iters = 0;
    while iters < 100 {
        let gnorm2 = dot(&grad, &grad);
        if gnorm2 / (2.0 * strong) <= 1e-12 * f.abs().max(1.0) {
            break;
        }
        iters += 1;
        let step = solve_spd(&hess, &grad);
        let slope = dot(&grad, &step);
        let mut a = 1.0;
        let mut improved = false;
        for _ in 0..60 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(wi, si)| wi - a * si).collect();
            let ft = objective(terms, lambda, &trial, &mut g2, &mut h2);
            if ft <= f - 1e-4 * a * slope {
                w = trial;
                f = ft;
                std::mem::swap(&mut grad, &mut g2);
                std::mem::swap(&mut hess, &mut h2);
                improved = true;
                break;
            }
            a *= 0.5;
        }
        if !improved {
            break;
        }
    }
    (f, dot(&grad, &grad) / (2.0 * strong), iters)
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write_outputs(dir: &Path, runs: &[Run], quick: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut md = String::new();
    let quick_flag = if quick { " --quick" } else { "" };
    let lines = [
        "# Regret of OAUC-M against [OAUC Thm 6]\n".to_owned(),
        format!("Produced by `cargo xtask reproduce regret{quick_flag}`."),
        format!(
            "Streams: {SEEDS} seeded streams per (T, lambda) of Gaussian classes, p = {P}, imbalance \
             ratio 3, 5 % label noise, every row divided by the largest row norm (so ||x_t|| <= 1)."
        ),
        "Online: OGD with eta_t = 1/(lambda t) from w_1 = 0 on L_t(w) = lambda/2 ||w||^2 + psi_M \
         against the moments of the opposite class seen so far; an empty opposite class leaves \
         only the regularizer (SPEC section 5)."
            .to_owned(),
        "Hindsight: damped Newton on sum_t L_t with the analytic Hessian of psi_M; the certificate \
         ||grad F(w_hat)||^2 / (2 lambda T) bounds F(w_hat) - min F, so each true regret lies \
         within [regret, regret + certificate].\n"
            .to_owned(),
        "| T | lambda | mean regret | smallest | worst | worst certificate | bound 18(1 + ln T)/lambda \
         | worst / bound | Newton steps (max) | seconds |"
            .to_owned(),
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|".to_owned(),
    ];
    for l in lines {
        let _ = writeln!(md, "{l}");
    }
    let mut exceeded = Vec::new();
    for r in runs {
        let b = bound(r.t, r.lambda);
        if r.worst() + r.certificate > b {
            exceeded.push(format!("T = {}, lambda = {}", r.t, r.lambda));
        }
        let _ = writeln!(
            md,
            "| {} | {} | {:.4} | {:.4} | {:.4} | {:.1e} | {:.1} | {:.2e} | {} | {:.2} |",
            r.t,
            r.lambda,
            r.mean(),
            r.smallest(),
            r.worst(),
            r.certificate,
            b,
            r.worst() / b,
            r.newton_iters,
            r.seconds
        );
    }
    let _ = writeln!(md);
    if exceeded.is_empty() {
        let _ = writeln!(
            md,
            "The measured regret stays below the bound in every run."
        );
    } else {
        let _ = writeln!(
            md,
            "**Finding: the measured regret exceeds the bound for {}.**",
            exceeded.join("; ")
        );
    }
    let _ = writeln!(md, "\n![worst regret and bound against T](regret.svg)");
    write_atomic(&dir.join("regret.md"), &md)?;
    write_atomic(&dir.join("regret.svg"), &svg(runs))
}

/// Worst regrets below this (negative ones included) are drawn at this height on the log scale.
const FLOOR: f64 = 1e-2;

/// A log-log plot of the worst regret over the streams (solid) and the bound (dashed) against
/// $T$, one colour per $\lambda$.
fn svg(runs: &[Run]) -> String {
    let (w, h, left, right, top, bottom) = (680.0, 440.0, 70.0, 150.0, 40.0, 50.0);
    let ys: Vec<f64> = runs
        .iter()
        .flat_map(|r| [r.worst().max(FLOOR), bound(r.t, r.lambda)])
        .map(f64::log10)
        .collect();
    let xs: Vec<f64> = runs.iter().map(|r| (r.t as f64).log10()).collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::INFINITY, f64::min),
        xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    let (y0, y1) = (
        ys.iter().copied().fold(f64::INFINITY, f64::min).floor(),
        ys.iter().copied().fold(f64::NEG_INFINITY, f64::max).ceil(),
    );
    let sx = |t: f64| left + (t.log10() - x0) / (x1 - x0).max(1e-9) * (w - left - right);
    let sy = |v: f64| h - bottom - (v.log10() - y0) / (y1 - y0).max(1e-9) * (h - top - bottom);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="16" text-anchor="middle">OAUC-M: worst regret over {SEEDS} streams (solid) and the bound 18(1 + ln T)/lambda (dashed)</text>"#,
        w / 2.0
    );
    let clamped = runs.iter().filter(|r| r.worst() < FLOOR).count();
    if clamped > 0 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="32" text-anchor="middle" font-size="10">{clamped} worst regret(s) below {FLOOR} (possibly negative) drawn at {FLOOR}</text>"#,
            w / 2.0
        );
    }
    for e in (y0 as i32)..=(y1 as i32) {
        let y = sy(10f64.powi(e));
        let _ = writeln!(
            s,
            r##"<line x1="{left}" x2="{}" y1="{y:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{}" y="{:.1}" text-anchor="end">1e{e}</text>"##,
            w - right,
            left - 6.0,
            y + 4.0
        );
    }
    let mut ts: Vec<usize> = runs.iter().map(|r| r.t).collect();
    ts.dedup();
    for t in &ts {
        let x = sx(*t as f64);
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" x2="{x:.1}" y1="{top}" y2="{}" stroke="#ddd"/><text x="{x:.1}" y="{}" text-anchor="middle">{t}</text>"##,
            h - bottom,
            h - bottom + 16.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">T (stream length)</text>"#,
        (left + w - right) / 2.0,
        h - 10.0
    );
    let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];
    for (k, lambda) in LAMBDAS.iter().enumerate() {
        let c = colours[k % colours.len()];
        let mine: Vec<&Run> = runs.iter().filter(|r| r.k == k).collect();
        let points = |f: &dyn Fn(&Run) -> f64| {
            mine.iter()
                .map(|r| format!("{:.1},{:.1}", sx(r.t as f64), sy(f(r))))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{c}" stroke-width="2" points="{}"/>"#,
            points(&|r| r.worst().max(FLOOR))
        );
        let _ = writeln!(
            s,
            r#"<polyline fill="none" stroke="{c}" stroke-width="1.5" stroke-dasharray="6 4" points="{}"/>"#,
            points(&|r| bound(r.t, r.lambda))
        );
        let ly = top + 20.0 + 18.0 * k as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" x2="{}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="2"/><text x="{}" y="{}">lambda = {lambda}</text>"#,
            w - right + 10.0,
            w - right + 40.0,
            w - right + 46.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(t: usize, lambda: f64) -> Vec<Option<Term>> {
        online_pass(&stream(t, 9), lambda).1
    }

    /// The hindsight objective's gradient agrees with central differences, and its Hessian with
    /// differences of the gradient, so Newton minimizes the right function.
    #[test]
    fn objective_derivatives_match_finite_differences() {
        let (lambda, ts) = (0.1, terms(300, 0.1));
        let w: Vec<f64> = (0..P).map(|i| 0.3 - 0.07 * i as f64).collect();
        let (mut g, mut h) = (vec![0.0; P], vec![0.0; P * P]);
        let (mut g2, mut h2) = (vec![0.0; P], vec![0.0; P * P]);
        objective(&ts, lambda, &w, &mut g, &mut h);
        let step = 1e-5;
        for i in 0..P {
            let (mut up, mut down) = (w.clone(), w.clone());
            up[i] += step;
            down[i] -= step;
            let fd = (objective(&ts, lambda, &up, &mut g2, &mut h2)
                - objective(&ts, lambda, &down, &mut g2, &mut h2))
                / (2.0 * step);
            // Central differences of a sum of ~300 smooth terms: error O(step^2) plus rounding.
            assert!(
                (fd - g[i]).abs() <= 1e-5 * (1.0 + g[i].abs()),
                "grad {i}: {fd} vs {}",
                g[i]
            );
            objective(&ts, lambda, &up, &mut g2, &mut h2);
            let gup = g2.clone();
            objective(&ts, lambda, &down, &mut g2, &mut h2);
            for j in 0..P {
                let fdh = (gup[j] - g2[j]) / (2.0 * step);
                assert!(
                    (fdh - h[j * P + i]).abs() <= 1e-4 * (1.0 + h[j * P + i].abs()),
                    "hess {j},{i}"
                );
            }
        }
    }

    /// Newton's value is no larger than F anywhere we look, and its certificate is tiny.
    #[test]
    fn hindsight_minimum_is_a_minimum() {
        let (lambda, ts) = (0.05, terms(2000, 0.05));
        let (best, certificate, _) = hindsight(&ts, lambda);
        assert!(certificate < 1e-8, "{certificate}");
        let (mut g, mut h) = (vec![0.0; P], vec![0.0; P * P]);
        let mut w = vec![0.0; P];
        // F at 50 scattered points of [-0.5, 0.5]^P is at least the reported minimum.
        for k in 0..50 {
            for (i, wi) in w.iter_mut().enumerate() {
                *wi = ((k * 31 + i * 17) % 23) as f64 / 23.0 - 0.5;
            }
            assert!(objective(&ts, lambda, &w, &mut g, &mut h) >= best - 1e-9 * best.abs());
        }
        assert!(objective(&ts, lambda, &[0.0; P], &mut g, &mut h) >= best);
    }
}
