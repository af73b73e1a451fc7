//! [`SketchedMoments`]: one class's exact count, mean and co-moment diagonal, with a
//! [`FrequentDirections`] sketch of its raw rows for the off-diagonal part; $O(p + \ell t)$
//! memory and $O(\ell \cdot \mathrm{nnz})$ amortized work per sparse row plus the sketch's
//! shrinks (`docs/math/sketched-moments.md`).

use auc_core::Row;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::StatsError;
use crate::sketch::{ApplyScratch, FrequentDirections, SKETCH_FORMAT_VERSION, Wire, decode_exact};

/// A class's moments for wide sparse data: count $N$, the exact sums $\sum_k x_k$ and
/// $\sum_k x_k^2$ (per feature), and a sketch $B$ of the raw rows $X$.
///
/// **Centering.** The co-moment is $C = X^\top X - N \bar{x}\bar{x}^\top$ and its estimate is
/// $$\hat{C} = B^\top B - N\bar{x}\bar{x}^\top + \operatorname{diag}(E), \qquad
/// \operatorname{diag}(E)_j = \textstyle\sum_k x_{kj}^2 - (B^\top B)_{jj},$$
/// where $E = X^\top X - B^\top B \succeq 0$ is the sketch's residual (the buffered rows count
/// as part of $B$). The rank-one mean term is exact, and the diagonal correction makes
/// $\hat{C}_{jj} = C_{jj}$ exactly. Since $0 \preceq E \preceq \Delta I$ and
/// $0 \le E_{jj} \le \Delta$,
/// $$\lvert w^\top (C - \hat{C})\, w\rvert = \lvert w^\top E w - \textstyle\sum_j E_{jj} w_j^2
/// \rvert \le \Delta \lVert w\rVert^2,$$
/// and with $\Delta$ the sketch's [`delta`](FrequentDirections::delta) of the raw rows,
/// $\Delta \le \min_{0 \le k < \ell} \lVert X_c - (X_c)_k\rVert_F^2 / (\ell - k)$ for the
/// centered rows $X_c = X - \mathbf{1}\bar{x}^\top$ (the mean costs the sketch one direction).
/// Every accessor divides by $N$, as [`crate::ClassMoments`] does: [`cov_apply`](Self::cov_apply)
/// returns $\hat{\Sigma} w = \hat{C} w / N$ within $\Delta/N\,\lVert w\rVert$ of $\Sigma w$.
///
/// **Deviation from [`crate::ClassMoments`]:** the sums are raw, not Welford's deviations,
/// because a sparse update of the mean would be dense; so $\Sigma_{jj}$ loses digits when
/// $\lvert\bar{x}_j\rvert \gg$ its spread (as eq. 16 does). Sparse data is max-abs scaled into
/// $[-1, 1]$, where this costs far less than the sketch's own $\Delta$.
#[derive(Clone, Debug)]
pub struct SketchedMoments {
    n: u64,
    sum: Vec<f64>,
    sumsq: Vec<f64>,
    sketch: FrequentDirections,
}

impl SketchedMoments {
    /// Empty moments of dimension `dim` (which grows with the rows) and sketch rank `ell`.
    ///
    /// # Errors
    /// [`StatsError::Rank`] as [`FrequentDirections::new`].
    pub fn new(ell: usize, dim: usize) -> Result<Self, StatsError> {
        Ok(Self {
            n: 0,
            sum: vec![0.0; dim],
            sumsq: vec![0.0; dim],
            sketch: FrequentDirections::new(ell, dim)?,
        })
    }

    /// An upper bound on the bytes of moments of dimension `dim` with all features touched:
    /// $16p$ for the sums plus [`FrequentDirections::bytes_for`].
    pub fn bytes_for(ell: usize, dim: usize, max_nnz: usize) -> usize {
        dim.saturating_mul(16)
            .saturating_add(FrequentDirections::bytes_for(ell, dim, max_nnz))
    }

    /// An upper bound on the bytes of the serialized moments: the count, two sums of $p$ reals
    /// (with their lengths) and [`FrequentDirections::saved_bytes_for`].
    pub fn saved_bytes_for(ell: usize, dim: usize, max_nnz: usize) -> usize {
        dim.saturating_mul(16)
            .saturating_add(32)
            .saturating_add(FrequentDirections::saved_bytes_for(ell, dim, max_nnz))
    }

    /// The dimension $p$.
    pub fn dim(&self) -> usize {
        self.sum.len()
    }

    /// $N$.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The sketch of the raw rows.
    pub fn sketch(&self) -> &FrequentDirections {
        &self.sketch
    }

    /// $\Delta / N$: the bound on $\lvert w^\top (\Sigma - \hat\Sigma) w \rvert$ for unit $w$
    /// (zero when $N = 0$).
    pub fn error_bound(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sketch.delta() / self.n as f64
        }
    }

    /// The negative part of $\hat{\Sigma}$'s low-rank term: $(\mu, v)$ with $\mu > 0$ and unit
    /// $v$ such that $\hat{\Sigma} + \mu v v^\top \succeq 0$, or `None` when $\hat{\Sigma}$ has
    /// none. $\hat{C} = L + \operatorname{diag}(E)$ with $L = B^\top B - N\bar{x}\bar{x}^\top$, a
    /// positive semi-definite matrix minus a rank-one one, so $L$ has at most one negative
    /// eigenvalue $\theta$ ([`FrequentDirections::negative_direction`]) and
    /// $\operatorname{diag}(E) \succeq 0$; $\mu = -\theta / N$ (`docs/math/sketched-moments.md`
    /// section 6: what the batch solve puts back).
    ///
    /// # Errors
    /// As [`FrequentDirections::negative_direction`] (never for moments built by
    /// [`update`](Self::update) and [`merge`](Self::merge)).
    pub fn negative_part(&self) -> Result<Option<(f64, Vec<f64>)>, StatsError> {
        Ok(self.negative_part_touched()?.map(|(mu, slots)| {
            let mut v = vec![0.0; self.dim()];
            for (&f, &x) in self.sketch.touched_features().iter().zip(&slots) {
                v[f as usize] = x;
            }
            (mu, v)
        }))
    }

    /// [`negative_part`](Self::negative_part) with $v$ in slot order
    /// ([`FrequentDirections::touched_features`]; $v$ is zero at the other features, where the
    /// mean is): $O(\ell^2 t + \ell^3)$ flops, none of them $O(p)$.
    ///
    /// # Errors
    /// As [`FrequentDirections::negative_direction_touched`] (never for moments built by
    /// [`update`](Self::update) and [`merge`](Self::merge)).
    pub fn negative_part_touched(&self) -> Result<Option<(f64, Vec<f64>)>, StatsError> {
        if self.n == 0 {
            return Ok(None);
        }
        let n = self.n as f64;
        // The sums are zero off the touched features (`update` and `merge` add a row's
        // non-zero values where the sketch takes them), so the mean is too.
        let mean: Vec<f64> = self
            .sketch
            .touched_features()
            .iter()
            .map(|&f| self.sum[f as usize] / n)
            .collect();
        Ok(self
            .sketch
            .negative_direction_touched(&mean, n)?
            .map(|(theta, v)| (-theta / n, v)))
    }

    /// Grows the dimension to `dim` (the new features are zero in every row).
    pub fn grow(&mut self, dim: usize) {
        if dim > self.dim() {
            self.sum.resize(dim, 0.0);
            self.sumsq.resize(dim, 0.0);
            self.sketch.grow(dim);
        }
    }

    /// Adds one example: $O(\mathrm{nnz})$ for the sums plus [`FrequentDirections::insert`].
    ///
    /// # Errors
    /// [`StatsError::NonFinite`] for a non-finite entry; nothing changes then.
    pub fn update(&mut self, x: Row<'_>) -> Result<(), StatsError> {
        self.sketch.insert(x)?;
        self.grow(self.sketch.dim());
        self.n += 1;
        x.for_each(|j, v| {
            self.sum[j] += v;
            self.sumsq[j] += v * v;
        });
        Ok(())
    }

    /// `out` $= \bar{x}$ (zero when $N = 0$).
    ///
    /// # Errors
    /// [`StatsError::Length`] if `out` is not of length $p$.
    pub fn mean_into(&self, out: &mut [f64]) -> Result<(), StatsError> {
        self.check_len("out", out.len())?;
        let inv = if self.n == 0 {
            0.0
        } else {
            1.0 / self.n as f64
        };
        for (o, &s) in out.iter_mut().zip(&self.sum) {
            *o = s * inv;
        }
        Ok(())
    }

    /// `out` $= \operatorname{diag}\Sigma$, exact: $\Sigma_{jj} = (\sum_k x_{kj}^2 -
    /// (\sum_k x_{kj})^2/N)/N$, clamped at 0 against rounding.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `out` is not of length $p$.
    pub fn cov_diag_into(&self, out: &mut [f64]) -> Result<(), StatsError> {
        self.check_len("out", out.len())?;
        out.fill(0.0);
        if self.n == 0 {
            return Ok(());
        }
        let n = self.n as f64;
        for ((o, &s), &q) in out.iter_mut().zip(&self.sum).zip(&self.sumsq) {
            *o = ((q - s * s / n) / n).max(0.0);
        }
        Ok(())
    }

    /// `out` $= \hat{\Sigma} w = (B^\top B w - \bar{x}\,(\textstyle\sum_k x_k)^\top w +
    /// \operatorname{diag}(E)\, w)/N$ (the type's docs give $\hat{C}$ and the bound), in
    /// $O(\ell t + p)$ flops; zero when $N = 0$.
    ///
    /// # Errors
    /// As [`FrequentDirections::apply`].
    pub fn cov_apply(&self, w: &[f64], out: &mut [f64]) -> Result<(), StatsError> {
        if let Some(index) = w.iter().position(|v| !v.is_finite()) {
            return Err(StatsError::NonFinite {
                what: "w",
                index,
                value: w[index].to_string(),
            });
        }
        self.cov_apply_into(w, out, &mut ApplyScratch::default())
            .map(|_| ())
    }

    /// [`cov_apply`](Self::cov_apply) and [`cov_quad`](Self::cov_quad) from one pass over the
    /// sketch, without allocating once `scratch` has grown: writes $\hat\Sigma w$ into `out` and
    /// returns $w^\top \hat\Sigma w$ (as $w^\top (\hat\Sigma w)$, equal to `cov_quad` up to
    /// rounding). $O(\ell t + \mathrm{nnz}(R) + p)$ flops: the one-pass learners' step.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `w` or `out` is not of length $p$.
    pub fn cov_apply_into(
        &self,
        w: &[f64],
        out: &mut [f64],
        scratch: &mut ApplyScratch,
    ) -> Result<f64, StatsError> {
        self.check_len("w", w.len())?;
        self.check_len("out", out.len())?;
        out.fill(0.0);
        self.cov_apply_touched(w, out, scratch)
    }

    /// [`cov_apply_into`](Self::cov_apply_into) on the touched features only: assigns
    /// $\hat\Sigma w$ to `out` at every feature the class has touched, leaves its other entries
    /// as they are ($\hat\Sigma w$ is zero there) and returns $w^\top \hat\Sigma w$.
    /// $O(\ell t + \mathrm{nnz}(R))$ flops and no $O(p)$ term: a one-pass learner's step, which
    /// keeps `out` zero elsewhere.
    ///
    /// # Errors
    /// [`StatsError::Length`] if `w` or `out` is not of length $p$.
    pub fn cov_apply_touched(
        &self,
        w: &[f64],
        out: &mut [f64],
        scratch: &mut ApplyScratch,
    ) -> Result<f64, StatsError> {
        self.sketch.apply_touched(w, out, scratch)?;
        let touched = self.sketch.touched_features();
        if self.n == 0 {
            for &j in touched {
                out[j as usize] = 0.0;
            }
            return Ok(0.0);
        }
        let n = self.n as f64;
        // The sums are zero off the touched features (see `negative_part_touched`).
        let sw = touched
            .iter()
            .map(|&j| self.sum[j as usize] * w[j as usize])
            .sum::<f64>()
            / n;
        let mut quad = 0.0;
        for (&j, &d) in touched.iter().zip(scratch.diag()) {
            let j = j as usize;
            let o = (out[j] - sw * self.sum[j] + (self.sumsq[j] - d).max(0.0) * w[j]) / n;
            out[j] = o;
            quad += w[j] * o;
        }
        Ok(quad)
    }

    /// $\bar x_j$ (zero when $N = 0$), as [`mean_into`](Self::mean_into) computes it.
    ///
    /// # Panics
    /// If $j \ge p$.
    pub fn mean_at(&self, j: usize) -> f64 {
        let (sums, inv) = self.mean_parts();
        sums[j] * inv
    }

    /// The per-feature sums $\sum_k x_{kj}$ and $1/N$ (0 when $N = 0$), whose products are the
    /// mean as [`mean_at`](Self::mean_at) gives it; the sums are zero off the touched features.
    pub fn mean_parts(&self) -> (&[f64], f64) {
        let inv = if self.n == 0 {
            0.0
        } else {
            1.0 / self.n as f64
        };
        (&self.sum, inv)
    }

    /// $w^\top \hat{\Sigma} w = (\lVert B w\rVert^2 - (\textstyle\sum_k x_k^\top w)^2 / N +
    /// \sum_j E_{jj} w_j^2)/N$, within [`error_bound`](Self::error_bound)$\,\lVert w\rVert^2$
    /// of $w^\top \Sigma w$; zero when $N = 0$.
    ///
    /// # Errors
    /// As [`FrequentDirections::quad`].
    pub fn cov_quad(&self, w: &[f64]) -> Result<f64, StatsError> {
        let q = self.sketch.quad(w)?;
        if self.n == 0 {
            return Ok(0.0);
        }
        let n = self.n as f64;
        let sw = crate::kernels::dot(&self.sum, w);
        let mut diag = 0.0;
        self.sketch.for_each_diag(|j, d| {
            diag += (self.sumsq[j] - d).max(0.0) * w[j] * w[j];
        });
        Ok((q - sw * sw / n + diag) / n)
    }

    /// Merges the moments of a disjoint stream: counts and sums add (exactly the merged
    /// stream's, up to rounding; with raw sums Chan's mean correction is not needed), sketches
    /// merge ([`FrequentDirections::merge`]), so the bound holds with the summed $\Delta$.
    ///
    /// # Errors
    /// [`StatsError::RankMismatch`] if the sketches' $\ell$ differ (nothing changes).
    pub fn merge(&mut self, other: &SketchedMoments) -> Result<(), StatsError> {
        self.sketch.merge(&other.sketch)?;
        self.grow(self.sketch.dim());
        self.n += other.n;
        for (a, &b) in self.sum.iter_mut().zip(&other.sum) {
            *a += b;
        }
        for (a, &b) in self.sumsq.iter_mut().zip(&other.sumsq) {
            *a += b;
        }
        Ok(())
    }

    /// The postcard encoding, with [`SKETCH_FORMAT_VERSION`] first.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("serializing to a Vec cannot fail")
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote.
    ///
    /// # Errors
    /// As [`FrequentDirections::from_bytes`], plus [`StatsError::Shape`] if the sums' lengths
    /// differ from the sketch's dimension, [`StatsError::InvalidValue`] for non-finite sums,
    /// negative squares or a row count other than $N$. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, StatsError> {
        Self::from_wire(decode_exact(bytes, "sketched moments")?)
    }

    fn from_wire(w: MomentsWire) -> Result<Self, StatsError> {
        if w.format_version != SKETCH_FORMAT_VERSION {
            return Err(StatsError::UnsupportedVersion {
                found: w.format_version,
                supported: SKETCH_FORMAT_VERSION,
            });
        }
        let sketch = FrequentDirections::from_wire(w.sketch)?;
        for (what, v) in [("sum", &w.sum), ("sumsq", &w.sumsq)] {
            if v.len() != sketch.dim() {
                return Err(StatsError::Shape {
                    what,
                    expected: sketch.dim(),
                    found: v.len(),
                });
            }
            if let Some(k) = v.iter().position(|x| !x.is_finite()) {
                return Err(StatsError::InvalidValue {
                    what,
                    index: k,
                    value: v[k].to_string(),
                });
            }
        }
        if let Some(k) = w.sumsq.iter().position(|&x| x < 0.0) {
            return Err(StatsError::InvalidValue {
                what: "sumsq",
                index: k,
                value: w.sumsq[k].to_string(),
            });
        }
        // A feature with a non-zero value has a slot (`update`, `merge`), and the products
        // read the sums on the slots only.
        let mut touched = vec![false; sketch.dim()];
        for &f in sketch.touched_features() {
            touched[f as usize] = true;
        }
        for (what, v) in [("sum", &w.sum), ("sumsq", &w.sumsq)] {
            if let Some(k) = (0..v.len()).find(|&k| v[k] != 0.0 && !touched[k]) {
                return Err(StatsError::InvalidValue {
                    what: if what == "sum" {
                        "sum at a feature the sketch never took"
                    } else {
                        "sumsq at a feature the sketch never took"
                    },
                    index: k,
                    value: v[k].to_string(),
                });
            }
        }
        if sketch.rows() != w.n {
            return Err(StatsError::InvalidValue {
                what: "sketch rows",
                index: 0,
                value: sketch.rows().to_string(),
            });
        }
        Ok(Self {
            n: w.n,
            sum: w.sum,
            sumsq: w.sumsq,
            sketch,
        })
    }

    fn check_len(&self, what: &'static str, found: usize) -> Result<(), StatsError> {
        if found == self.dim() {
            Ok(())
        } else {
            Err(StatsError::Length {
                what,
                expected: self.dim(),
                found,
            })
        }
    }
}

#[derive(Serialize)]
struct MomentsWireRef<'a> {
    format_version: u32,
    n: u64,
    sum: &'a [f64],
    sumsq: &'a [f64],
    sketch: &'a FrequentDirections,
}

#[derive(Deserialize)]
struct MomentsWire {
    format_version: u32,
    n: u64,
    sum: Vec<f64>,
    sumsq: Vec<f64>,
    sketch: Wire,
}

impl Serialize for SketchedMoments {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MomentsWireRef {
            format_version: SKETCH_FORMAT_VERSION,
            n: self.n,
            sum: &self.sum,
            sumsq: &self.sumsq,
            sketch: &self.sketch,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SketchedMoments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = MomentsWire::deserialize(deserializer)?;
        SketchedMoments::from_wire(wire).map_err(serde::de::Error::custom)
    }
}
