//! [`ClassMoments`]: one class's count, mean and covariance; [`Moments`]: the pair a learner keeps.

use std::fmt;

use auc_core::{Label, Row};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::StatsError;
use crate::kernels::{add_axpy, dot, packed_len, packed_mul, packed_quad, packed_rank1, row_start};

/// The `format_version` that [`ClassMoments::to_bytes`] and [`Moments::to_bytes`] write and the
/// only one their `from_bytes` accept.
///
/// Version 1 is the postcard encoding of `(format_version: u32, n: u64, mean: [f64],
/// comoment: [f64])` per class, where `comoment` is $C = N \Sigma$ in the packed row-major upper
/// triangle (see the crate docs); [`Moments`] writes `(format_version, pos, neg)`.
pub const FORMAT_VERSION: u32 = 1;

/// Count $N$, mean $\bar{x}$ and population covariance $\Sigma$ of the examples of one class,
/// maintained one example at a time [OAUC sec. 4.2, eqs. 15-18].
///
/// With $N = 0$ the mean and the covariance are zero, as the paper initializes them
/// [OAUC alg. 1, line 1]. Internally the co-moment $C = N \Sigma$ is stored (the crate docs give
/// the layout and the reason); every accessor returns $\Sigma = C / N$.
///
/// The hot calls ([`update`](Self::update), [`cov_mul`](Self::cov_mul),
/// [`quad_form`](Self::quad_form), [`merge`](Self::merge)) never allocate: their scratch space
/// lives in the struct.
#[derive(Clone)]
pub struct ClassMoments {
    /// $N$.
    n: u64,
    /// $\bar{x}$, length $p$.
    mean: Vec<f64>,
    /// $C = N \Sigma$, packed upper triangle, length $p(p+1)/2$.
    comoment: Vec<f64>,
    /// $2p$ values: $d = x - \bar{x}_{\text{old}}$ then $d' = x - \bar{x}_{\text{new}}$ during an
    /// update; $\delta$ during a merge. Never part of the value (not compared, not serialized).
    scratch: Vec<f64>,
}

impl ClassMoments {
    /// Empty moments of dimension $p$ = `dim`: $N = 0$, $\bar{x} = 0$, $\Sigma = 0$
    /// [OAUC alg. 1, line 1].
    pub fn new(dim: usize) -> Self {
        Self {
            n: 0,
            mean: vec![0.0; dim],
            comoment: vec![0.0; packed_len(dim)],
            scratch: vec![0.0; 2 * dim],
        }
    }

    /// The dimension $p$.
    #[inline]
    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// $N$, the number of examples seen (or merged in).
    #[inline]
    pub fn count(&self) -> u64 {
        self.n
    }

    /// $\bar{x} = \frac{1}{N} \sum_k x_k$ (zero when $N = 0$) [OAUC eq. 15].
    #[inline]
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// $\Sigma_{ij} = \frac{1}{N} \sum_k (x_{k,i} - \bar{x}_i)(x_{k,j} - \bar{x}_j)$, the
    /// population covariance (zero when $N = 0$) [OAUC eq. 16]. Symmetric: `cov(i, j) ==
    /// cov(j, i)`.
    ///
    /// # Panics
    /// If `i` or `j` is not below [`dim`](Self::dim).
    pub fn cov(&self, i: usize, j: usize) -> f64 {
        let p = self.dim();
        assert!(
            i < p && j < p,
            "covariance index ({i}, {j}) out of range for dimension {p}"
        );
        let (i, j) = if i <= j { (i, j) } else { (j, i) };
        self.scale(self.comoment[row_start(p, i) + (j - i)])
    }

    /// The full $p \times p$ matrix $\Sigma$, row-major (allocates $p^2$ values: for tests and
    /// small $p$).
    pub fn cov_dense(&self) -> Vec<f64> {
        let p = self.dim();
        let mut out = vec![0.0; p * p];
        for i in 0..p {
            for j in i..p {
                let v = self.cov(i, j);
                out[i * p + j] = v;
                out[j * p + i] = v;
            }
        }
        out
    }

    /// Adds one example $x$ in Welford's form \[Welford62\], algebraically equal to
    /// [OAUC eqs. 15-16]:
    /// $$N \leftarrow N + 1,\quad d = x - \bar{x},\quad \bar{x} \leftarrow \bar{x} + d / N,\quad
    /// C \leftarrow C + d\,(x - \bar{x})^\top,$$
    /// so that $\Sigma = C/N$ equals eq. 16's
    /// $\Sigma + (d\,(x - \bar{x})^\top - \Sigma)/N$ without its cancelling $\bar{x}\bar{x}^\top$
    /// terms (see the crate's Deviation paragraph).
    ///
    /// Cost: $O(p)$ for the mean plus one fused multiply-add per packed entry, $p(p+1)$ flops,
    /// reading and writing the $4p(p+1)$ bytes of the triangle once. A sparse row costs the same
    /// $O(p^2)$, because $x - \bar{x}$ is dense; only rows $i$ with $x_i = \bar{x}_i$ (such as
    /// features no example of the class has used yet) are skipped. The same values as a dense or
    /// a sparse row give bit-identical moments.
    ///
    /// # Panics
    /// If a dense row's length differs from [`dim`](Self::dim) or a sparse index is out of
    /// range (a programmer error; the message names both sizes).
    pub fn update(&mut self, x: Row<'_>) {
        if self.prepare(x) {
            let p = self.dim();
            let (d_old, d_new) = self.scratch.split_at(p);
            packed_rank1(p, &mut self.comoment, d_old, d_new);
        }
    }

    /// Counts $x$, moves the mean and leaves $d = x - \bar{x}_{\text{old}}$ and
    /// $d' = x - \bar{x}_{\text{new}}$ in the scratch halves [OAUC eq. 15]. Returns whether the
    /// rank-one term $d d'^\top$ still has to be added ($N \ge 2$; at $N = 1$, $d' = 0$ exactly).
    fn prepare(&mut self, x: Row<'_>) -> bool {
        let p = self.dim();
        let (d_old, d_new) = self.scratch.split_at_mut(p);
        // d_new first holds x densely; the loop below turns it into x - mean_new in place.
        match x {
            Row::Dense(v) => {
                assert_eq!(
                    v.len(),
                    p,
                    "row has {} features, moments have dimension {p}",
                    v.len()
                );
                d_new.copy_from_slice(v);
            }
            Row::Sparse(s) => {
                if let Some(&last) = s.indices().last() {
                    assert!(
                        (last as usize) < p,
                        "sparse row index {last} out of range for moments of dimension {p}"
                    );
                }
                d_new.fill(0.0);
                for (&j, &v) in s.indices().iter().zip(s.values()) {
                    d_new[j as usize] = v;
                }
            }
        }
        self.n = self.n.checked_add(1).expect("example count overflows u64");
        let n = self.n as f64;
        for ((m, d), xd) in self
            .mean
            .iter_mut()
            .zip(d_old.iter_mut())
            .zip(d_new.iter_mut())
        {
            let x = *xd;
            *d = x - *m; // d = x - mean_old
            *m += *d / n; // [OAUC eq. 15]
            *xd = x - *m; // d' = x - mean_new
        }
        self.n >= 2
    }

    /// Grows the dimension to `dim` (a smaller or equal `dim` changes nothing): the moments of
    /// the same examples with `dim - p` more features that were all zero. Their mean and every
    /// co-moment entry involving them are exactly 0 (the sum of zeros), so the new entries are
    /// zeros and the old ones keep their values: the result equals the moments a run that
    /// knew `dim` from the start holds, up to the grouping of its lane-wise sums.
    ///
    /// Cost: one copy of the packed triangle into the larger layout (both alive meanwhile,
    /// $8 (p(p+1) + d(d+1))/2$ bytes for `dim` $= d$).
    pub fn grow(&mut self, dim: usize) {
        let p = self.dim();
        if dim <= p {
            return;
        }
        let mut comoment = vec![0.0; packed_len(dim)];
        for i in 0..p {
            let old = &self.comoment[row_start(p, i)..row_start(p, i) + (p - i)];
            let at = row_start(dim, i);
            comoment[at..at + (p - i)].copy_from_slice(old);
        }
        self.comoment = comoment;
        self.mean.resize(dim, 0.0);
        self.scratch.resize(2 * dim, 0.0);
    }

    /// Merges the moments of a disjoint stream into `self`, exactly (Chan, Golub and LeVeque's
    /// pairwise formula \[Chan79\]): with $\delta = \bar{x}_B - \bar{x}_A$,
    /// $$N = N_A + N_B,\quad \bar{x} = \bar{x}_A + \delta\,\frac{N_B}{N},\quad
    /// C = C_A + C_B + \delta\delta^\top \frac{N_A N_B}{N}.$$
    /// The result equals the moments of the concatenated stream up to rounding, in either order,
    /// and merging is associative up to rounding. Merging empty moments changes nothing.
    ///
    /// Cost: $3p(p+1)/2$ flops; reads both triangles and writes `self`'s.
    ///
    /// # Panics
    /// If the dimensions differ (the message names both).
    pub fn merge(&mut self, other: &ClassMoments) {
        assert_eq!(
            self.dim(),
            other.dim(),
            "cannot merge moments of dimension {} with moments of dimension {}",
            self.dim(),
            other.dim()
        );
        if other.n == 0 {
            return;
        }
        if self.n == 0 {
            self.n = other.n;
            self.mean.copy_from_slice(&other.mean);
            self.comoment.copy_from_slice(&other.comoment);
            return;
        }
        let p = self.dim();
        let n_a = self.n as f64;
        let n_b = other.n as f64;
        self.n = self
            .n
            .checked_add(other.n)
            .expect("example count overflows u64");
        let n = self.n as f64;
        let delta = &mut self.scratch[..p];
        for ((d, m), &mb) in delta.iter_mut().zip(self.mean.iter_mut()).zip(&other.mean) {
            *d = mb - *m;
            *m += *d * (n_b / n);
        }
        let coef = n_a * (n_b / n);
        let delta = &self.scratch[..p];
        let mut rows_a = &mut self.comoment[..];
        let mut rows_b = &other.comoment[..];
        for i in 0..p {
            let (ra, rest_a) = std::mem::take(&mut rows_a).split_at_mut(p - i);
            let (rb, rest_b) = rows_b.split_at(p - i);
            rows_a = rest_a;
            rows_b = rest_b;
            add_axpy(delta[i] * coef, &delta[i..], rb, ra);
        }
    }

    /// Moments of $N$ = `n` examples with mean `mean` and co-moment $C = N\Sigma$ given as the
    /// packed upper triangle `comoment` (row $i$ holds $C_{i,i..p}$, see the crate docs): for
    /// moments computed elsewhere, such as a blocked pass over a chunk of rows (the chunk's mean
    /// and the product of its centred rows), to be merged with [`merge`](Self::merge).
    ///
    /// # Errors
    /// As [`from_bytes`](Self::from_bytes) for values no sequence of updates can produce: a
    /// triangle of the wrong length, a non-finite value, a negative diagonal entry, or non-zero
    /// values with $N = 0$.
    pub fn from_parts(n: u64, mean: Vec<f64>, comoment: Vec<f64>) -> Result<Self, StatsError> {
        Self::from_wire(Wire {
            format_version: FORMAT_VERSION,
            n,
            mean,
            comoment,
        })
    }

    /// The co-moment $C = N\Sigma$ as stored: the packed upper triangle, row $i$ holding
    /// $C_{i,i..p}$ (see the crate docs), for exact transformations such as feature scaling
    /// ($C' = \operatorname{diag}(a)\, C \operatorname{diag}(a)$) followed by
    /// [`from_parts`](Self::from_parts).
    pub fn comoment(&self) -> &[f64] {
        &self.comoment
    }

    /// $w^\top \Sigma w$, the variance of the score $w^\top x$ over the class [OAUC eq. 12]
    /// (zero when $N = 0$).
    ///
    /// Cost: one dot product per row, $\approx p^2$ flops, reading the triangle once.
    ///
    /// # Panics
    /// If `w.len()` differs from [`dim`](Self::dim).
    pub fn quad_form(&self, w: &[f64]) -> f64 {
        self.check_len("w", w.len());
        if self.n == 0 {
            return 0.0;
        }
        packed_quad(self.dim(), &self.comoment, w) / self.n as f64
    }

    /// `out` $= \Sigma w$, the covariance term of the gradients [OAUC eqs. 13-14] (zero when
    /// $N = 0$).
    ///
    /// Cost: per row one dot product and one axpy over the same contiguous values, 4 flops per
    /// off-diagonal packed entry ($\approx 2p^2$), reading the triangle once.
    ///
    /// # Panics
    /// If `w.len()` or `out.len()` differs from [`dim`](Self::dim).
    pub fn cov_mul(&self, w: &[f64], out: &mut [f64]) {
        self.check_len("w", w.len());
        self.check_len("out", out.len());
        if self.n == 0 {
            out.fill(0.0);
            return;
        }
        packed_mul(self.dim(), &self.comoment, w, out);
        let inv = 1.0 / self.n as f64;
        out.iter_mut().for_each(|o| *o *= inv);
    }

    /// `out` $= \Sigma w$ and returns $w^\top \Sigma w = w^\top(\Sigma w)$, reading the triangle
    /// once: what a moment-based learner needs per step [OAUC eqs. 12-14]. Equal to
    /// [`cov_mul`](Self::cov_mul) and [`quad_form`](Self::quad_form) up to rounding.
    ///
    /// # Panics
    /// As [`cov_mul`](Self::cov_mul).
    pub fn cov_mul_and_quad(&self, w: &[f64], out: &mut [f64]) -> f64 {
        self.cov_mul(w, out);
        dot(w, out)
    }

    /// $w^\top \bar{x}$ (zero when $N = 0$), for $\mu = y\, w^\top(x - \bar{x})$ [OAUC eq. 12].
    ///
    /// # Panics
    /// If `w.len()` differs from [`dim`](Self::dim).
    pub fn mean_dot(&self, w: &[f64]) -> f64 {
        self.check_len("w", w.len());
        dot(w, &self.mean)
    }

    /// The postcard encoding, with [`FORMAT_VERSION`] first.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("serializing to a Vec cannot fail")
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, bit-exactly.
    ///
    /// # Errors
    /// [`StatsError::UnsupportedVersion`] for another format version (checked before anything
    /// else is decoded); [`StatsError::Decode`] for truncated or malformed bytes;
    /// [`StatsError::TrailingBytes`] if bytes remain; [`StatsError::Shape`],
    /// [`StatsError::InvalidValue`] or [`StatsError::NonZeroEmpty`] for values no sequence of
    /// updates can produce. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, StatsError> {
        Self::from_wire(decode_exact(bytes, "class moments")?)
    }

    /// $C_{ij} / N$, or 0 when $N = 0$.
    #[inline]
    fn scale(&self, c: f64) -> f64 {
        if self.n == 0 { 0.0 } else { c / self.n as f64 }
    }

    fn check_len(&self, what: &str, len: usize) {
        assert_eq!(
            len,
            self.dim(),
            "{what} has length {len}, moments have dimension {}",
            self.dim()
        );
    }

    fn from_wire(wire: Wire) -> Result<Self, StatsError> {
        if wire.format_version != FORMAT_VERSION {
            return Err(StatsError::UnsupportedVersion {
                found: wire.format_version,
                supported: FORMAT_VERSION,
            });
        }
        let p = wire.mean.len();
        let expected = p
            .checked_mul(p + 1)
            .map(|v| v / 2)
            .ok_or(StatsError::Shape {
                what: "covariance",
                expected: usize::MAX,
                found: wire.comoment.len(),
            })?;
        if wire.comoment.len() != expected {
            return Err(StatsError::Shape {
                what: "covariance",
                expected,
                found: wire.comoment.len(),
            });
        }
        let invalid = |what, index, value: f64| StatsError::InvalidValue {
            what,
            index,
            value: value.to_string(),
        };
        if let Some((k, &v)) = wire.mean.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(invalid("mean", k, v));
        }
        if let Some((k, &v)) = wire
            .comoment
            .iter()
            .enumerate()
            .find(|(_, v)| !v.is_finite())
        {
            return Err(invalid("covariance", k, v));
        }
        // Diagonal entries are sums of d_i d'_i >= 0: d_i and d'_i never differ in sign.
        for i in 0..p {
            let v = wire.comoment[row_start(p, i)];
            if v < 0.0 {
                return Err(invalid("covariance", row_start(p, i), v));
            }
        }
        if wire.n == 0
            && (wire.mean.iter().any(|&v| v != 0.0) || wire.comoment.iter().any(|&v| v != 0.0))
        {
            return Err(StatsError::NonZeroEmpty);
        }
        Ok(Self {
            n: wire.n,
            mean: wire.mean,
            comoment: wire.comoment,
            scratch: vec![0.0; 2 * p],
        })
    }
}

/// The value, without the scratch space.
impl PartialEq for ClassMoments {
    fn eq(&self, other: &Self) -> bool {
        self.n == other.n && self.mean == other.mean && self.comoment == other.comoment
    }
}

impl fmt::Debug for ClassMoments {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClassMoments")
            .field("dim", &self.dim())
            .field("n", &self.n)
            .field("mean", &self.mean)
            .field("comoment_packed", &self.comoment)
            .finish_non_exhaustive()
    }
}

/// Version 1 of the encoding, as written.
#[derive(Serialize)]
struct WireRef<'a> {
    format_version: u32,
    n: u64,
    mean: &'a [f64],
    comoment: &'a [f64],
}

/// Version 1 of the encoding, as read.
#[derive(Deserialize)]
struct Wire {
    format_version: u32,
    n: u64,
    mean: Vec<f64>,
    comoment: Vec<f64>,
}

impl Serialize for ClassMoments {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WireRef {
            format_version: FORMAT_VERSION,
            n: self.n,
            mean: &self.mean,
            comoment: &self.comoment,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ClassMoments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = Wire::deserialize(deserializer)?;
        ClassMoments::from_wire(wire).map_err(serde::de::Error::custom)
    }
}

/// Decodes exactly one `T` from `bytes`, saved at [`FORMAT_VERSION`] ([`decode_versioned`]).
fn decode_exact<T: for<'de> Deserialize<'de>>(
    bytes: &[u8],
    what: &'static str,
) -> Result<T, StatsError> {
    decode_versioned(bytes, what, FORMAT_VERSION)
}

/// Decodes exactly one `T` from `bytes`, whose leading `u32` must be `version`: checked first, so
/// bytes from a future version are reported as such rather than as a decoding failure. Saved
/// moments and sketches share it.
pub(crate) fn decode_versioned<T: for<'de> Deserialize<'de>>(
    bytes: &[u8],
    what: &'static str,
    version: u32,
) -> Result<T, StatsError> {
    let decode = |e: postcard::Error| StatsError::Decode {
        what,
        message: e.to_string(),
    };
    let (found, _) = postcard::take_from_bytes::<u32>(bytes).map_err(decode)?;
    if found != version {
        return Err(StatsError::UnsupportedVersion {
            found,
            supported: version,
        });
    }
    let (value, rest) = postcard::take_from_bytes::<T>(bytes).map_err(decode)?;
    if !rest.is_empty() {
        return Err(StatsError::TrailingBytes {
            what,
            count: rest.len(),
        });
    }
    Ok(value)
}

/// The moments of both classes: what OAUC, OPAUC and the other moment-based learners keep
/// [OAUC alg. 1].
///
/// A positive example updates `pos` and is scored against `neg`, and vice versa
/// [OAUC alg. 1, lines 4-13].
#[derive(Clone, Debug, PartialEq)]
pub struct Moments {
    /// $N^+$, $\bar{x}^+$, $\Sigma^+$.
    pub pos: ClassMoments,
    /// $N^-$, $\bar{x}^-$, $\Sigma^-$.
    pub neg: ClassMoments,
}

impl Moments {
    /// Both classes empty, dimension $p$ = `dim` [OAUC alg. 1, line 1].
    pub fn new(dim: usize) -> Self {
        Self {
            pos: ClassMoments::new(dim),
            neg: ClassMoments::new(dim),
        }
    }

    /// The dimension $p$.
    pub fn dim(&self) -> usize {
        self.pos.dim()
    }

    /// Adds $x$ to the moments of its class $y$ [OAUC alg. 1, lines 4-7 and 10-12].
    ///
    /// # Panics
    /// As [`ClassMoments::update`].
    pub fn update(&mut self, x: Row<'_>, y: Label) {
        self.class_mut(y).update(x);
    }

    /// The moments of class $y$.
    pub fn class(&self, y: Label) -> &ClassMoments {
        match y {
            Label::Pos => &self.pos,
            Label::Neg => &self.neg,
        }
    }

    /// The moments of class $y$, mutable.
    pub fn class_mut(&mut self, y: Label) -> &mut ClassMoments {
        match y {
            Label::Pos => &mut self.pos,
            Label::Neg => &mut self.neg,
        }
    }

    /// The moments an example of class $y$ is scored against: those of $-y$
    /// [OAUC alg. 1, lines 8 and 13].
    pub fn opposite(&self, y: Label) -> &ClassMoments {
        self.class(y.opposite())
    }

    /// One learner step's moment work: adds $x$ to class $y$ (as [`update`](Self::update)) and
    /// sets `out` $= \Sigma^{-y} w$, returning $w^\top \Sigma^{-y} w$ (as
    /// [`ClassMoments::cov_mul_and_quad`] on [`opposite`](Self::opposite)). The order does not
    /// matter: a step reads only the opposite class and writes only its own (conventions section 5).
    ///
    /// The two triangles are different matrices, so there is nothing to share between the two
    /// passes: interleaving their rows in one loop was measured no faster than the two calls.
    ///
    /// # Panics
    /// As [`ClassMoments::update`] and [`ClassMoments::cov_mul`].
    pub fn update_and_mul_opposite(
        &mut self,
        x: Row<'_>,
        y: Label,
        w: &[f64],
        out: &mut [f64],
    ) -> f64 {
        let (own, opp) = match y {
            Label::Pos => (&mut self.pos, &self.neg),
            Label::Neg => (&mut self.neg, &self.pos),
        };
        opp.check_len("w", w.len());
        opp.check_len("out", out.len());
        own.update(x);
        opp.cov_mul_and_quad(w, out)
    }

    /// Grows both classes to `dim` features ([`ClassMoments::grow`]).
    pub fn grow(&mut self, dim: usize) {
        self.pos.grow(dim);
        self.neg.grow(dim);
    }

    /// Merges the moments of a disjoint stream, class by class ([`ClassMoments::merge`]).
    ///
    /// # Panics
    /// If the dimensions differ.
    pub fn merge(&mut self, other: &Moments) {
        self.pos.merge(&other.pos);
        self.neg.merge(&other.neg);
    }

    /// The postcard encoding: [`FORMAT_VERSION`], then each class as
    /// [`ClassMoments::to_bytes`] writes it.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("serializing to a Vec cannot fail")
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote, bit-exactly.
    ///
    /// # Errors
    /// As [`ClassMoments::from_bytes`], plus [`StatsError::DimMismatch`] if the two classes have
    /// different dimensions. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, StatsError> {
        Self::from_wire(decode_exact(bytes, "moments")?)
    }

    fn from_wire(wire: MomentsWire) -> Result<Self, StatsError> {
        if wire.format_version != FORMAT_VERSION {
            return Err(StatsError::UnsupportedVersion {
                found: wire.format_version,
                supported: FORMAT_VERSION,
            });
        }
        let pos = ClassMoments::from_wire(wire.pos)?;
        let neg = ClassMoments::from_wire(wire.neg)?;
        if pos.dim() != neg.dim() {
            return Err(StatsError::DimMismatch {
                pos: pos.dim(),
                neg: neg.dim(),
            });
        }
        Ok(Self { pos, neg })
    }
}

#[derive(Serialize)]
struct MomentsWireRef<'a> {
    format_version: u32,
    pos: &'a ClassMoments,
    neg: &'a ClassMoments,
}

#[derive(Deserialize)]
struct MomentsWire {
    format_version: u32,
    pos: Wire,
    neg: Wire,
}

impl Serialize for Moments {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MomentsWireRef {
            format_version: FORMAT_VERSION,
            pos: &self.pos,
            neg: &self.neg,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Moments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = MomentsWire::deserialize(deserializer)?;
        Moments::from_wire(wire).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // Known answers below are exact binary fractions (see each comment).
mod tests {
    use super::*;

    #[test]
    fn known_answer_two_features() {
        // x = (1, 2), (3, 6), (5, 4): mean (3, 4).
        // Deviations (-2, -2), (0, 2), (2, 0): Sigma = [[8, 4], [4, 8]] / 3.
        let mut m = ClassMoments::new(2);
        for x in [[1.0, 2.0], [3.0, 6.0], [5.0, 4.0]] {
            m.update(Row::Dense(&x));
        }
        assert_eq!(m.count(), 3);
        assert_eq!(m.mean(), &[3.0, 4.0]);
        assert_eq!(
            m.cov_dense(),
            vec![8.0 / 3.0, 4.0 / 3.0, 4.0 / 3.0, 8.0 / 3.0]
        );
        // w = (1, -1): w' Sigma w = (8 - 8 + 8) / 3 = 8/3; Sigma w = (4/3, -4/3).
        let w = [1.0, -1.0];
        assert_eq!(m.quad_form(&w), 8.0 / 3.0);
        let mut out = [0.0; 2];
        assert_eq!(m.cov_mul_and_quad(&w, &mut out), 8.0 / 3.0);
        assert_eq!(out, [4.0 / 3.0, -4.0 / 3.0]);
        assert_eq!(m.mean_dot(&w), -1.0);
    }

    #[test]
    fn empty_moments_are_zero_everywhere() {
        let m = ClassMoments::new(3);
        assert_eq!(m.count(), 0);
        assert_eq!(m.mean(), &[0.0; 3]);
        assert_eq!(m.cov_dense(), vec![0.0; 9]);
        let w = [1.0, 2.0, 3.0];
        assert_eq!(m.quad_form(&w), 0.0);
        let mut out = [7.0; 3];
        assert_eq!(m.cov_mul_and_quad(&w, &mut out), 0.0);
        assert_eq!(out, [0.0; 3]);
    }

    #[test]
    fn one_example_has_zero_covariance_and_its_own_mean() {
        let mut m = ClassMoments::new(2);
        m.update(Row::Dense(&[0.1, -3.0]));
        assert_eq!(m.mean(), &[0.1, -3.0]);
        assert_eq!(m.cov_dense(), vec![0.0; 4]);
    }

    #[test]
    fn grown_moments_equal_moments_of_zero_padded_rows() {
        let rows = [[1.0, 2.0], [3.0, 6.0], [5.0, 4.0]];
        let mut narrow = ClassMoments::new(2);
        let mut wide = ClassMoments::new(4);
        for x in rows {
            narrow.update(Row::Dense(&x));
            wide.update(Row::Dense(&[x[0], x[1], 0.0, 0.0]));
        }
        narrow.grow(4);
        assert_eq!(narrow, wide);
        narrow.grow(3);
        assert_eq!(narrow.dim(), 4);
    }

    #[test]
    fn from_parts_checks_what_from_bytes_checks() {
        let m = ClassMoments::from_parts(2, vec![1.0, 2.0], vec![2.0, 1.0, 3.0]).unwrap();
        assert_eq!(m.cov_dense(), vec![1.0, 0.5, 0.5, 1.5]);
        assert!(ClassMoments::from_parts(2, vec![1.0, 2.0], vec![2.0, 1.0]).is_err());
        assert!(ClassMoments::from_parts(2, vec![1.0, 2.0], vec![-2.0, 1.0, 3.0]).is_err());
        assert!(ClassMoments::from_parts(0, vec![1.0, 0.0], vec![0.0; 3]).is_err());
        assert!(ClassMoments::from_parts(1, vec![f64::NAN, 0.0], vec![0.0; 3]).is_err());
    }

    #[test]
    fn scratch_is_not_part_of_the_value() {
        let mut a = ClassMoments::new(2);
        a.update(Row::Dense(&[1.0, 2.0]));
        let mut b = a.clone();
        b.scratch.fill(5.0);
        assert_eq!(a, b);
    }
}
