//! Per-class support buffers of a fixed budget with a cached kernel block and cached f-values
//! [OAUC sec. 5.3, alg. 4] (conventions section 6): the state every budgeted kernel learner shares.
//!
//! # Layout
//!
//! The buffers have $2B$ slots, positives in `0..B` and negatives in `B..2B`, plus one *staging*
//! slot $2B$ where the incoming example waits while the buffer decides what to evict. For every
//! slot the state holds the stored row, its squared norm, its weight $\alpha_s$, the cached value
//! $f(x_s) = \sum_r \alpha_r k(x_r, x_s)$ and the kernel block $K_{rs} = k(x_r, x_s)$ of all slots
//! ($(2B+1)^2$ values, zero for empty slots). Class $c$ holds `len[c]` rows in its first
//! positions, filled in arrival order; `oldest[c]` is the FIFO pointer.
//!
//! # One step, as the learners drive it
//!
//! 1. [`Support::kernel_row`] computes $k(x_t, x_s)$ for every occupied slot ($O(Bp)$, one dot
//!    product per slot thanks to cached norms) and returns $f_t(x_t)$.
//! 2. The learner reads the cached $f_t(x_i)$ of the comparison buffer and writes its weight
//!    changes $\delta_i$ into [`Support::deltas_mut`].
//! 3. [`Support::apply`] sets $\alpha \leftarrow s\,\alpha + \delta$ and the new point's weight
//!    $a$, and updates every cached f-value: $f(x_s) \leftarrow s f(x_s) + a\,k(x_t, x_s) +
//!    \sum_i \delta_i K_{is}$, which is $O(B^2)$ through the cached block, never a kernel
//!    evaluation. A step whose result is not finite, or whose weights pass
//!    [`MAX_WEIGHT`], is rejected whole (weights and f-values restored).
//! 4. [`Support::insert`] puts $x_t$ into its class's buffer: into a free slot, or, when the
//!    buffer is full, in place of the oldest row (FIFO) or of a reservoir-chosen row, moving the
//!    evicted weight onto one remaining row (see [`Compensation`]). The new row's kernel values
//!    are the ones step 1 computed, so an insertion costs $O(B)$ beyond step 1.
//!
//! Every scratch vector is allocated once, so a step allocates nothing (the rows themselves
//! reuse their storage when a slot is overwritten).

use auc_core::{Label, Row, RowBuf, StateError, check};
use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;
use serde::{Deserialize, Serialize};

use crate::{AnyKernel, Kernel};

/// The largest absolute weight or f-value a step may produce ($2^{200}$); a step beyond it is
/// rejected, so scores stay finite whatever the step size.
pub const MAX_WEIGHT: f64 = 1.606_938_044_258_990_3e60;

/// The largest budget per class: the kernel block holds $(2B+1)^2$ values (80 GB at this size,
/// so the memory check refuses long before).
pub const MAX_BUDGET: usize = 100_000;

/// Which buffered row leaves a full buffer (`fifo` or `reservoir` on the command line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Removal {
    /// The oldest row [OAUC alg. 4; KOIL18 FIFO++].
    #[default]
    Fifo,
    /// Reservoir sampling: the $n$-th example of a class enters a full buffer of budget $B$ with
    /// probability $B/n$, in place of a uniformly chosen row; otherwise it is not stored
    /// (and its weight is compensated like an evicted row's) \[KOIL18 RS++\].
    Reservoir,
}

/// How the weight $\alpha_j$ of an evicted row $x_j$ moves onto a remaining row $x_r$ of its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Compensation {
    /// [OAUC eq. 28]: the projection of $\alpha_j k(\cdot, x_j)$ onto one remaining
    /// $k(\cdot, x_r)$, chosen to minimize $\lVert \alpha_j k(\cdot,x_j) - \Delta k(\cdot,x_r)
    /// \rVert^2$: $\Delta = \alpha_j K_{rj}/K_{rr}$ and $r^\star$ **maximizes** $K_{rj}^2/K_{rr}$
    /// (the paper prints argmin $|k(x_r, x_j)|$, a typo: conventions section 6).
    Projection,
    /// \[KOIL18\] FIFO++ / RS++: the whole weight goes to the most similar remaining row,
    /// $r^\star = \arg\max_r K_{rj}$, $\Delta = \alpha_j$.
    Nearest,
}

/// Scratch space: never serialized, resized on first use after a load.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// $k(x_t, x_s)$ for every slot (0 for empty slots).
    krow: Vec<f64>,
    /// Weight changes $\delta_s$ of the comparison slots.
    delta: Vec<f64>,
    /// Copies of $\alpha$ and $f$ taken before a step, to restore a rejected one.
    alpha: Vec<f64>,
    f: Vec<f64>,
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true // scratch carries no state between steps
    }
}

/// Two per-class buffers of budget $B$ each, their weights, kernel block and f-values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Support {
    kernel: AnyKernel,
    /// The dimension of the rows.
    dim: usize,
    budget: usize,
    removal: Removal,
    compensation: Compensation,
    rows: Vec<RowBuf>,
    norm_sq: Vec<f64>,
    alpha: Vec<f64>,
    f: Vec<f64>,
    /// $(2B+1)^2$, row-major.
    gram: Vec<f64>,
    len: [usize; 2],
    oldest: [usize; 2],
    seen: [u64; 2],
    /// Steps rejected as non-finite or beyond [`MAX_WEIGHT`].
    rejected: u64,
    rng: SplitMix64,
    #[serde(skip)]
    scratch: Scratch,
}

impl Support {
    /// Empty buffers of `budget` rows per class (`budget >= 1`) of `dim` features.
    pub fn new(
        kernel: AnyKernel,
        dim: usize,
        budget: usize,
        removal: Removal,
        compensation: Compensation,
        seed: u64,
    ) -> Self {
        let n = 2 * budget + 1;
        Self {
            kernel,
            dim,
            budget,
            removal,
            compensation,
            rows: vec![RowBuf::default(); n],
            norm_sq: vec![0.0; n],
            alpha: vec![0.0; n],
            f: vec![0.0; n],
            gram: vec![0.0; n * n],
            len: [0; 2],
            oldest: [0; 2],
            seen: [0; 2],
            rejected: 0,
            rng: SplitMix64::seed_from_u64(seed),
            scratch: Scratch::default(),
        }
    }

    /// Bytes of buffers of `budget` rows per class of `dim` dense features: the rows, the
    /// $(2B+1)^2$ kernel block and the per-slot vectors (with scratch).
    pub fn bytes(budget: usize, dim: usize) -> u64 {
        let n = 2 * budget as u64 + 1;
        8 * (n * dim as u64 + n * n + 8 * n)
    }

    /// Steps rejected as non-finite or beyond [`MAX_WEIGHT`] so far.
    pub fn rejected(&self) -> u64 {
        self.rejected
    }

    /// Checks a decoded state: array sizes agree with the budget, counters are in range, every
    /// stored row has `dim` features, every value is finite and within [`MAX_WEIGHT`].
    pub fn validate(&self) -> Result<(), StateError> {
        self.kernel.validate()?;
        check::state((1..=MAX_BUDGET).contains(&self.budget), || {
            format!("budget {} is outside 1..={MAX_BUDGET}", self.budget)
        })?;
        let n = 2 * self.budget + 1;
        check::len("rows", self.rows.len(), n)?;
        check::len("norm_sq", self.norm_sq.len(), n)?;
        check::len("alpha", self.alpha.len(), n)?;
        check::len("f", self.f.len(), n)?;
        check::len("gram", self.gram.len(), n * n)?;
        for c in 0..2 {
            check::state(self.len[c] <= self.budget, || {
                format!(
                    "buffer {c} holds {} rows, the budget is {}",
                    self.len[c], self.budget
                )
            })?;
            check::state(self.oldest[c] < self.budget, || {
                format!(
                    "buffer {c}'s oldest slot {} is past the budget",
                    self.oldest[c]
                )
            })?;
            check::state(self.len[c] as u64 <= self.seen[c], || {
                format!(
                    "buffer {c} holds {} rows of {} seen",
                    self.len[c], self.seen[c]
                )
            })?;
        }
        for (name, v) in [
            ("norm_sq", &self.norm_sq),
            ("alpha", &self.alpha),
            ("f", &self.f),
            ("gram", &self.gram),
        ] {
            check::finite(name, v)?;
        }
        check::state(
            self.alpha
                .iter()
                .chain(&self.f)
                .all(|v| v.abs() <= MAX_WEIGHT),
            || "a weight or f-value is beyond the cap 2^200".to_owned(),
        )?;
        for row in &self.rows {
            if !matches!(row, RowBuf::Dense(v) if v.is_empty()) {
                row.check(self.dim)
                    .map_err(|e| StateError::new(format!("a buffered row: {e}")))?;
            }
        }
        Ok(())
    }

    /// Grows the dimension of the rows to `dim` (a smaller or equal `dim` changes nothing),
    /// padding the stored dense rows with zeros: for a stream that meets a new feature
    /// (`auc_core::OnlineLearner::grow`). Norms, kernel values, weights and f-values do not
    /// change, since every stored row was 0 at the new features.
    pub fn grow(&mut self, dim: usize) {
        if dim <= self.dim {
            return;
        }
        self.dim = dim;
        for row in &mut self.rows {
            // Empty slots hold an empty dense row (see `validate`); they stay empty.
            if !matches!(row, RowBuf::Dense(v) if v.is_empty()) {
                row.pad(dim);
            }
        }
    }

    /// The kernel.
    pub fn kernel(&self) -> &AnyKernel {
        &self.kernel
    }

    /// The dimension of the rows.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The budget $B$ per class.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Number of slots including staging, $2B + 1$.
    fn slots(&self) -> usize {
        2 * self.budget + 1
    }

    fn staging(&self) -> usize {
        2 * self.budget
    }

    /// The occupied slots of class `c`.
    pub fn class_slots(&self, c: Label) -> std::ops::Range<usize> {
        let base = c.index() * self.budget;
        base..base + self.len[c.index()]
    }

    /// Rows stored for class `c`.
    pub fn len(&self, c: Label) -> usize {
        self.len[c.index()]
    }

    /// Whether both buffers are empty.
    pub fn is_empty(&self) -> bool {
        self.len == [0, 0]
    }

    /// The weight $\alpha_s$ of slot `s`.
    pub fn alpha(&self, s: usize) -> f64 {
        self.alpha[s]
    }

    /// The cached $f(x_s)$ of slot `s`.
    pub fn f(&self, s: usize) -> f64 {
        self.f[s]
    }

    /// The cached $k(x_r, x_s)$.
    pub fn gram(&self, r: usize, s: usize) -> f64 {
        self.gram[r * self.slots() + s]
    }

    /// The row stored in slot `s`.
    pub fn row(&self, s: usize) -> Row<'_> {
        self.rows[s].as_row()
    }

    /// Occupied slots, positives first.
    pub fn occupied(&self) -> impl Iterator<Item = usize> + '_ {
        self.class_slots(Label::Pos)
            .chain(self.class_slots(Label::Neg))
    }

    /// $\lVert f \rVert_{\mathcal H}^2 = \alpha^\top K \alpha$ over the occupied slots.
    pub fn norm_sq_h(&self) -> f64 {
        let n = self.slots();
        self.occupied()
            .map(|r| {
                let row = &self.gram[r * n..r * n + n];
                self.alpha[r] * self.occupied().map(|s| row[s] * self.alpha[s]).sum::<f64>()
            })
            .sum()
    }

    /// $f(x) = \sum_s \alpha_s k(x_s, x)$: $O(Bp)$.
    ///
    /// Never NaN: with an unbounded kernel (linear, polynomial) and rows so large that kernel
    /// values overflow, infinite terms of both signs would sum to NaN; such a score is 0.
    pub fn score(&self, x: Row<'_>) -> f64 {
        let nx = x.norm_sq();
        let f: f64 = self
            .occupied()
            .filter(|&s| self.alpha[s] != 0.0)
            .map(|s| {
                self.alpha[s]
                    * self
                        .kernel
                        .eval_dot(x.dot_row(&self.rows[s].as_row()), nx, self.norm_sq[s])
            })
            .sum();
        if f.is_nan() { 0.0 } else { f }
    }

    fn ensure_scratch(&mut self) {
        let n = self.slots();
        if self.scratch.krow.len() != n {
            self.scratch = Scratch {
                krow: vec![0.0; n],
                delta: vec![0.0; n],
                alpha: vec![0.0; n],
                f: vec![0.0; n],
            };
        }
    }

    /// Step 1: computes $k(x_t, x_s)$ for every occupied slot into the scratch row and returns
    /// `(f_t(x_t), k(x_t, x_t), ||x_t||^2)`. Clears the weight changes.
    ///
    /// Returns `None` when a kernel value or $f_t(x_t)$ is not finite (an unbounded kernel on
    /// huge rows): the learners then skip the example, which is neither a step nor a buffer row.
    pub fn kernel_row(&mut self, x: Row<'_>) -> Option<(f64, f64, f64)> {
        self.ensure_scratch();
        let nx = x.norm_sq();
        self.scratch.krow.fill(0.0);
        self.scratch.delta.fill(0.0);
        let mut fx = 0.0;
        for c in [Label::Pos, Label::Neg] {
            for s in self.class_slots(c) {
                let k =
                    self.kernel
                        .eval_dot(x.dot_row(&self.rows[s].as_row()), nx, self.norm_sq[s]);
                self.scratch.krow[s] = k;
                fx += self.alpha[s] * k;
            }
        }
        let kxx = self.kernel.self_value(nx);
        (fx.is_finite() && kxx.is_finite() && nx.is_finite()).then_some((fx, kxx, nx))
    }

    /// $k(x_t, x_s)$ from the last [`Support::kernel_row`].
    pub fn krow(&self, s: usize) -> f64 {
        self.scratch.krow[s]
    }

    /// The weight changes $\delta_s$ the next [`Support::apply`] adds (zeroed by
    /// [`Support::kernel_row`]); a learner writes its comparison slots.
    pub fn deltas_mut(&mut self) -> &mut [f64] {
        &mut self.scratch.delta
    }

    /// Step 3: $\alpha \leftarrow$ `shrink` $\alpha + \delta$, the incoming point gets weight `a`,
    /// and every cached f-value follows. `fx` and `kxx` are $f_t(x_t)$ and $k(x_t,x_t)$ from
    /// [`Support::kernel_row`]; `touched` lists the slots whose $\delta$ may be non-zero, all of
    /// them occupied.
    ///
    /// Returns $f_{t+1}(x_t)$, or `None` when the step was rejected (a non-finite value or one
    /// beyond [`MAX_WEIGHT`]): then nothing changed.
    pub fn apply(
        &mut self,
        shrink: f64,
        a: f64,
        fx: f64,
        kxx: f64,
        touched: std::ops::Range<usize>,
    ) -> Option<f64> {
        let n = self.slots();
        // Empty slots have zero weights, f-values and kernel values: only the occupied ranges
        // of the two buffers need work, so a step costs what the buffers hold, not their budget.
        let ranges = [self.class_slots(Label::Pos), self.class_slots(Label::Neg)];
        let Scratch {
            krow,
            delta,
            alpha: alpha_backup,
            f: f_backup,
        } = &mut self.scratch;
        // Only the occupied ranges change below, so only they are backed up and restored.
        for r in ranges.clone() {
            alpha_backup[r.clone()].copy_from_slice(&self.alpha[r.clone()]);
            f_backup[r.clone()].copy_from_slice(&self.f[r]);
        }
        // alpha and f under the shrink and the new point.
        let mut f_new_x = shrink * fx + a * kxx;
        for r in ranges.clone() {
            for ((al, f), k) in self.alpha[r.clone()]
                .iter_mut()
                .zip(&mut self.f[r.clone()])
                .zip(&krow[r])
            {
                *al *= shrink;
                *f = shrink * *f + a * k;
            }
        }
        for i in touched {
            let d = delta[i];
            if d == 0.0 {
                continue;
            }
            self.alpha[i] += d;
            f_new_x += d * krow[i];
            let row = &self.gram[i * n..i * n + n];
            for r in ranges.clone() {
                for (f, k) in self.f[r.clone()].iter_mut().zip(&row[r]) {
                    *f += d * k;
                }
            }
        }
        let ok = f_new_x.is_finite()
            && f_new_x.abs() <= MAX_WEIGHT
            && a.is_finite()
            && a.abs() <= MAX_WEIGHT
            && ranges
                .iter()
                .flat_map(|r| self.f[r.clone()].iter().chain(&self.alpha[r.clone()]))
                .all(|v| v.abs() <= MAX_WEIGHT); // false for NaN
        if ok {
            Some(f_new_x)
        } else {
            for r in ranges {
                self.alpha[r.clone()].copy_from_slice(&alpha_backup[r.clone()]);
                self.f[r.clone()].copy_from_slice(&f_backup[r]);
            }
            self.rejected += 1;
            None
        }
    }

    /// Step 4: stores $x_t$ of class `c` with weight `a` and cached value `fx` ($f_{t+1}(x_t)$),
    /// evicting a row of a full buffer by the removal policy and compensating its weight.
    /// `kxx` and `nx` are $k(x_t,x_t)$ and $\lVert x_t\rVert^2$; the kernel row is the one of the
    /// last [`Support::kernel_row`].
    pub fn insert(&mut self, x: Row<'_>, c: Label, a: f64, fx: f64, kxx: f64, nx: f64) {
        let n = self.slots();
        let st = self.staging();
        // Stage the point: its kernel row and column, weight and f-value.
        self.rows[st].assign(x);
        self.norm_sq[st] = nx;
        self.alpha[st] = a;
        self.f[st] = fx;
        for s in 0..st {
            let k = self.scratch.krow[s];
            self.gram[st * n + s] = k;
            self.gram[s * n + st] = k;
        }
        self.gram[st * n + st] = kxx;

        let ci = c.index();
        self.seen[ci] += 1;
        let base = ci * self.budget;
        if self.len[ci] < self.budget {
            let s = base + self.len[ci];
            self.len[ci] += 1;
            self.move_staged(s);
            return;
        }
        let victim = match self.removal {
            Removal::Fifo => {
                let q = self.oldest[ci];
                self.oldest[ci] = (q + 1) % self.budget;
                Some(base + q)
            }
            Removal::Reservoir => {
                let k = self.rng.random_range(0..self.seen[ci]);
                (k < self.budget as u64).then(|| base + k as usize)
            }
        };
        match victim {
            Some(j) => {
                self.evict(j, base..base + self.budget, true);
                self.move_staged(j);
            }
            None => self.evict(st, base..base + self.budget, false),
        }
    }

    /// Removes the row in slot `j`, moving its weight onto one of `candidates` (excluding `j`)
    /// or the staged row (if `with_staged`), then clears slot `j`'s weight and kernel values.
    fn evict(&mut self, j: usize, candidates: std::ops::Range<usize>, with_staged: bool) {
        let n = self.slots();
        let st = self.staging();
        let aj = self.alpha[j];
        if aj != 0.0 {
            let gj = j * n;
            let mut best: Option<(usize, f64)> = None;
            let staged = with_staged.then_some(st);
            for r in candidates.filter(|&r| r != j).chain(staged) {
                let krj = self.gram[gj + r];
                let krr = self.gram[r * n + r];
                let merit = match self.compensation {
                    Compensation::Projection if krr > 0.0 => krj * krj / krr,
                    Compensation::Projection => continue,
                    Compensation::Nearest => krj,
                };
                if best.is_none_or(|(_, m)| merit > m) {
                    best = Some((r, merit));
                }
            }
            let (r, delta) = match (best, self.compensation) {
                (Some((r, m)), Compensation::Projection) if m > 0.0 => {
                    (Some(r), aj * self.gram[gj + r] / self.gram[r * n + r])
                }
                (Some((r, _)), Compensation::Nearest) => (Some(r), aj),
                _ => (None, 0.0),
            };
            for s in 0..n {
                self.f[s] -= aj * self.gram[gj + s];
            }
            if let Some(r) = r {
                self.alpha[r] += delta;
                let gr = r * n;
                for s in 0..n {
                    self.f[s] += delta * self.gram[gr + s];
                }
            }
        }
        self.alpha[j] = 0.0;
        self.f[j] = 0.0;
        for s in 0..n {
            self.gram[j * n + s] = 0.0;
            self.gram[s * n + j] = 0.0;
        }
    }

    /// Moves the staged row into the (empty) slot `s` and clears staging.
    fn move_staged(&mut self, s: usize) {
        let n = self.slots();
        let st = self.staging();
        self.rows.swap(s, st);
        self.norm_sq[s] = self.norm_sq[st];
        self.alpha[s] = self.alpha[st];
        self.f[s] = self.f[st];
        for r in 0..st {
            if r != s {
                let k = self.gram[st * n + r];
                self.gram[s * n + r] = k;
                self.gram[r * n + s] = k;
            }
        }
        self.gram[s * n + s] = self.gram[st * n + st];
        self.alpha[st] = 0.0;
        self.f[st] = 0.0;
        for r in 0..n {
            self.gram[st * n + r] = 0.0;
            self.gram[r * n + st] = 0.0;
        }
    }
}
