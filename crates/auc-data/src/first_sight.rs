//! [`FirstSight`]: max-abs scaling fitted while the rows are read once, on the hope that each
//! feature's first non-zero value has the largest magnitude the feature takes.
//!
//! Max-abs scaling divides feature $j$ by $m_j = \max_i |x_{ij}|$ over the training rows, so a
//! file is normally read twice: once for the $m_j$, once to learn. On one-hot and binary data
//! (the wide sparse files of click logs and hashed text indicators) every non-zero of a feature
//! has the same magnitude, so $m_j$ is known the first time feature $j$ shows up. [`FirstSight`]
//! takes $\hat m_j = |x_{ij}|$ at the first non-zero of feature $j$ and scales every later row by
//! it, with the same arithmetic as [`Scaler`] ([`crate::scale::max_abs_value`]).
//!
//! What makes it exact: while no later value exceeds its feature's first magnitude,
//! $\hat m_j = m_j$ for every feature seen so far, so every scaled value is the one the fitted
//! scaler gives, bit for bit, and at the end [`FirstSight::finish`] is the scaler
//! [`crate::FeatureRanges::finish`] fits on the same rows. The first value that does exceed it
//! ends the hope ([`Unsighted::Larger`]), and the caller reads the file twice as before. A
//! `-0.0` of a feature not seen yet ends it too ([`Unsighted::SignedZero`]): scaled by $m_j > 0$
//! it stays $-0.0$, by a feature that never shows up it becomes $0.0$, which is not known yet.
//!
//! With [`Scaling::Auto`] the scaling is max-abs only when the rows are sparse (density below
//! [`crate::AUTO_MIN_MAX_DENSITY`]): that is checked on the finished rows ([`FirstSight::finish`]
//! returns `None` for min-max), and the hope is given up early ([`Unsighted::Dense`]) when the
//! rows are that dense after every [`DENSITY_CHECK_ROWS`] rows, since min-max would then be
//! the likely end (a guess about when to stop hoping: the result never depends on it).

use auc_core::{Row, SparseRow};

use crate::scale::{Scaler, Scaling, max_abs_value, stored_density};

/// Why the rows could not be scaled at first sight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Unsighted {
    /// A value of `feature` (0-based) larger in magnitude than its first non-zero.
    Larger {
        /// The feature.
        feature: usize,
        /// The magnitude of its first non-zero.
        first: f64,
        /// The larger value.
        value: f64,
    },
    /// A `-0.0` of a feature that had no non-zero yet.
    SignedZero {
        /// The feature.
        feature: usize,
    },
    /// Rows so far as dense as [`Scaling::Auto`]'s threshold for min-max.
    Dense {
        /// The rows so far.
        rows: u64,
    },
}

impl std::fmt::Display for Unsighted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unsighted::Larger {
                feature,
                first,
                value,
            } => write!(
                f,
                "feature {} takes {value} after a first non-zero of magnitude {first}",
                feature + 1
            ),
            Unsighted::SignedZero { feature } => {
                write!(f, "feature {} is -0 before any non-zero", feature + 1)
            }
            Unsighted::Dense { rows } => write!(
                f,
                "the first {rows} rows are dense enough for min-max scaling"
            ),
        }
    }
}

impl std::error::Error for Unsighted {}

/// How often (in rows) [`Scaling::Auto`]'s first sight checks that the rows are still sparse.
pub const DENSITY_CHECK_ROWS: u64 = 1024;

/// A feature without a non-zero yet (two bits a feature in [`FirstSight`]'s kinds).
const UNSEEN: u64 = 0;
/// A feature whose first non-zero had magnitude 1 (indicators: most features of wide files).
const UNIT: u64 = 1;
/// A feature whose first non-zero had another magnitude, kept in `FirstSight::first`.
const OTHER: u64 = 2;

/// The scaling asked for (max-abs or auto), each feature's kind (two bits: no non-zero yet, a
/// first magnitude of 1, another one), the other first magnitudes, the non-zeros and rows seen,
/// and the scaled values of the last row (see the module docs).
///
/// The kinds of $2^{20}$ features take 256 KiB, which stays in a core's cache; the magnitudes
/// ($8 p$ bytes) are allocated at the first magnitude other than 1 and read only for such
/// features, so indicator rows are scaled without a miss on a $p$-long array of their own.
#[derive(Clone, Debug)]
pub struct FirstSight {
    scaling: Scaling,
    dim: usize,
    kinds: Vec<u64>,
    first: Vec<f64>,
    nonzeros: u64,
    rows: u64,
    scaled: Vec<f64>,
}

impl FirstSight {
    /// Nothing seen yet, for `scaling` ([`Scaling::MaxAbs`] or [`Scaling::Auto`]; any other
    /// choice ends at [`FirstSight::finish`]).
    pub fn new(scaling: Scaling) -> Self {
        FirstSight {
            scaling,
            dim: 0,
            kinds: Vec::new(),
            first: Vec::new(),
            nonzeros: 0,
            rows: 0,
            scaled: Vec::new(),
        }
    }

    /// Bytes the kinds and magnitudes of `dim` features take at most (a little over 8 per
    /// feature).
    pub fn bytes_for(dim: usize) -> u64 {
        (dim as u64)
            .saturating_mul(8)
            .saturating_add((dim as u64).div_ceil(4))
    }

    /// Covers at least `dim` features.
    pub fn grow(&mut self, dim: usize) {
        if dim > self.dim {
            self.dim = dim;
            self.kinds.resize(dim.div_ceil(32), 0);
            if !self.first.is_empty() {
                self.first.resize(dim, 0.0);
            }
        }
    }

    /// Rows scaled so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// `x` scaled by the magnitudes of first sight (the row's own first non-zeros included),
    /// in the form it came; an error when a value shows that the hope was wrong, or (auto
    /// scaling) the rows so far are dense.
    pub fn scale<'a>(&'a mut self, x: Row<'a>) -> Result<Row<'a>, Unsighted> {
        if self.rows > 0 && self.rows % DENSITY_CHECK_ROWS == 0 && self.dense_so_far() {
            return Err(Unsighted::Dense { rows: self.rows });
        }
        let mut scaled = std::mem::take(&mut self.scaled);
        scaled.clear();
        let sighted = match x {
            Row::Sparse(s) => self.scale_sparse(s, &mut scaled),
            Row::Dense(v) => self.scale_dense(v, &mut scaled).map(|()| true),
        };
        self.scaled = scaled;
        let copied = sighted?;
        self.rows += 1;
        Ok(match x {
            Row::Sparse(_) if !copied => x,
            Row::Sparse(s) => Row::Sparse(SparseRow::new(s.indices(), &self.scaled)),
            Row::Dense(_) => Row::Dense(&self.scaled),
        })
    }

    /// A sparse row's values scaled at first sight, copied onto `out` only from the first value
    /// that scaling changes: whether any did (then `out` holds them all). A row of features whose
    /// first magnitude was 1 and values within it is a tight loop that copies nothing, so the
    /// row's cold values are read with their misses overlapped (a call and a push a value kept
    /// them one at a time: 1.26 times the wall of `--scale none` for bal-ftrl on the 10^6-row
    /// stream).
    fn scale_sparse(&mut self, x: SparseRow<'_>, out: &mut Vec<f64>) -> Result<bool, Unsighted> {
        self.grow(x.indices().last().map_or(0, |&j| j as usize + 1));
        let values = x.values();
        let mut copied = false;
        for (i, (&j, &v)) in x.indices().iter().zip(values).enumerate() {
            let scaled = self.sighted(j as usize, v)?;
            if copied {
                out.push(scaled);
            } else if scaled.to_bits() != v.to_bits() {
                out.extend_from_slice(&values[..i]);
                out.push(scaled);
                copied = true;
            }
        }
        Ok(copied)
    }

    /// A dense row's values scaled at first sight, pushed onto `out` in the row's order.
    fn scale_dense(&mut self, values: &[f64], out: &mut Vec<f64>) -> Result<(), Unsighted> {
        self.grow(values.len());
        for (j, &v) in values.iter().enumerate() {
            out.push(self.sighted(j, v)?);
        }
        Ok(())
    }

    /// Feature `j`'s kind.
    #[inline]
    fn kind(&self, j: usize) -> u64 {
        (self.kinds[j / 32] >> (2 * (j % 32))) & 3
    }

    /// Sets feature `j`'s kind (from [`UNSEEN`]).
    #[inline]
    fn set_kind(&mut self, j: usize, kind: u64) {
        self.kinds[j / 32] |= kind << (2 * (j % 32));
    }

    /// Feature `j`'s value `v` scaled at first sight: its magnitude is the feature's scale when
    /// it is the first non-zero, and must not exceed it otherwise. The common case of wide files,
    /// a feature of first magnitude 1 and a value within it, is inline and without the division
    /// (`max_abs_value(1, v)` is `v` itself: `v / 1` is exact and `|v| <= 1` is inside the
    /// saturation); the rest is a call, so that a row's loop stays tight.
    #[inline(always)]
    fn sighted(&mut self, j: usize, v: f64) -> Result<f64, Unsighted> {
        if self.kind(j) == UNIT && v.abs() <= 1.0 {
            self.nonzeros += u64::from(v != 0.0);
            return Ok(v);
        }
        self.sighted_otherwise(j, v)
    }

    /// [`FirstSight::sighted`] for every case but a unit feature's value within its magnitude.
    #[inline(never)]
    fn sighted_otherwise(&mut self, j: usize, v: f64) -> Result<f64, Unsighted> {
        let kind = self.kind(j);
        if kind == UNIT {
            return Err(Unsighted::Larger {
                feature: j,
                first: 1.0,
                value: v,
            });
        }
        let m = match kind {
            UNSEEN => 0.0,
            _ => self.first[j],
        };
        if v == 0.0 {
            if kind == UNSEEN && v.is_sign_negative() {
                return Err(Unsighted::SignedZero { feature: j });
            }
            return Ok(max_abs_value(m, v));
        }
        self.nonzeros += 1;
        let a = v.abs();
        if kind == UNSEEN {
            if a.to_bits() == 1.0f64.to_bits() {
                self.set_kind(j, UNIT);
            } else {
                if self.first.is_empty() {
                    self.first.resize(self.dim, 0.0);
                }
                self.first[j] = a;
                self.set_kind(j, OTHER);
            }
            return Ok(max_abs_value(a, v));
        }
        if a > m {
            return Err(Unsighted::Larger {
                feature: j,
                first: m,
                value: v,
            });
        }
        Ok(max_abs_value(m, v))
    }

    /// Whether the scaling is auto and the rows so far, in the features seen, are as dense as
    /// its threshold for min-max.
    fn dense_so_far(&self) -> bool {
        let at = stored_density(self.nonzeros as f64, self.rows, self.dim);
        self.scaling == Scaling::Auto && self.scaling.resolve_at(at) == Scaling::MinMax
    }

    /// The scaler for the rows seen, in `dim` features (at least every feature seen): what
    /// [`FeatureRanges::finish`](crate::FeatureRanges::finish) fits on the same rows; `None`
    /// when the scaling resolves to min-max there (or is neither max-abs nor auto), which first
    /// sight cannot give.
    pub fn finish(mut self, dim: usize) -> Option<Scaler> {
        self.grow(dim);
        let at = stored_density(self.nonzeros as f64, self.rows, self.dim);
        match self.scaling.resolve_at(at) {
            Scaling::MaxAbs => Some(Scaler::MaxAbs {
                max_abs: (0..self.dim)
                    .map(|j| match self.kind(j) {
                        UNSEEN => 0.0,
                        UNIT => 1.0,
                        _ => self.first[j],
                    })
                    .collect(),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FeatureRanges;
    use auc_core::{Dataset, Label};
    use proptest::prelude::*;

    /// Sparse rows over `dim` features where feature j takes only the magnitude `mag[j]`
    /// (signs free), so first sight holds.
    fn constant_magnitudes() -> impl Strategy<Value = (usize, Vec<Vec<(u32, f64)>>)> {
        (1usize..40).prop_flat_map(|dim| {
            let mags = prop::collection::vec(prop_oneof![Just(1.0), 0.25f64..8.0], dim);
            let rows = prop::collection::vec(
                prop::collection::btree_map(0..dim as u32, any::<bool>(), 0..dim.min(6)),
                1..60,
            );
            (Just(dim), mags, rows).prop_map(|(dim, mags, rows)| {
                let rows = rows
                    .into_iter()
                    .map(|r| {
                        r.into_iter()
                            .map(|(j, neg)| {
                                let m = mags[j as usize];
                                (j, if neg { -m } else { m })
                            })
                            .collect()
                    })
                    .collect();
                (dim, rows)
            })
        })
    }

    fn dataset(dim: usize, rows: &[Vec<(u32, f64)>]) -> Dataset {
        let mut indptr = vec![0];
        let (mut indices, mut values) = (Vec::new(), Vec::new());
        for r in rows {
            for &(j, v) in r {
                indices.push(j);
                values.push(v);
            }
            indptr.push(indices.len());
        }
        let labels = (0..rows.len())
            .map(|i| if i % 2 == 0 { Label::Pos } else { Label::Neg })
            .collect();
        Dataset::sparse(dim, indptr, indices, values, labels).unwrap()
    }

    fn bits(x: Row<'_>) -> Vec<(usize, u64)> {
        let mut out = Vec::new();
        x.for_each(|j, v| out.push((j, v.to_bits())));
        out
    }

    proptest! {
        /// On rows whose features keep one magnitude, every row scaled at first sight equals the
        /// row scaled by the scaler fitted on all rows, bit for bit, and the finished scaler is
        /// that scaler (max-abs, and auto on rows sparse enough).
        #[test]
        fn first_sight_equals_the_fitted_max_abs_scaler((dim, rows) in constant_magnitudes()) {
            let data = dataset(dim, &rows);
            let ranges = FeatureRanges::of(&data);
            for scaling in [Scaling::MaxAbs, Scaling::Auto] {
                let fitted = ranges.finish(scaling);
                let mut sight = FirstSight::new(scaling);
                let scaled = fitted.transform(&data);
                for i in 0..data.n() {
                    let got = bits(sight.scale(data.row(i)).unwrap());
                    if matches!(fitted, Scaler::MaxAbs { .. }) {
                        prop_assert_eq!(got, bits(scaled.row(i)));
                    }
                }
                match sight.finish(dim) {
                    Some(s) => prop_assert_eq!(s, fitted),
                    None => {
                        let min_max = matches!(fitted, Scaler::MinMax { .. });
                        prop_assert!(min_max, "{:?}", fitted);
                    }
                }
            }
        }

        /// A value larger than its feature's first magnitude is met exactly when the fitted
        /// maximum exceeds some feature's first magnitude.
        #[test]
        fn a_larger_value_ends_first_sight((dim, rows) in constant_magnitudes(), k in 0usize..60, grow in 1.5f64..4.0) {
            let mut rows = rows;
            let k = k % rows.len();
            let Some(&(j, v)) = rows[k].first() else { return Ok(()); };
            rows[k][0] = (j, v * grow);
            let data = dataset(dim, &rows);
            let first = rows.iter().flatten().find(|(f, _)| *f == j).map(|(_, v)| v.abs()).unwrap();
            let mut sight = FirstSight::new(Scaling::MaxAbs);
            let ended = (0..data.n()).find_map(|i| sight.scale(data.row(i)).err());
            let exceeded = (v * grow).abs() > first;
            prop_assert_eq!(ended.is_some(), exceeded);
            if let Some(e) = ended {
                let on_j = matches!(e, Unsighted::Larger { feature, .. } if feature == j as usize);
                prop_assert!(on_j, "{:?}", e);
            }
        }
    }

    /// A dense row's zeros scale to 0 like the fitted scaler's, a `-0.0` before the feature's
    /// first non-zero ends first sight, and auto scaling gives up on dense rows.
    #[test]
    fn zeros_and_dense_rows() {
        let mut sight = FirstSight::new(Scaling::MaxAbs);
        let row = [0.0, 2.0, -4.0];
        let got: Vec<f64> = match sight.scale(Row::Dense(&row)).unwrap() {
            Row::Dense(v) => v.to_vec(),
            Row::Sparse(_) => unreachable!(),
        };
        assert_eq!(got, [0.0, 1.0, -1.0]);
        let row = [0.0, -0.0, 8.0];
        assert!(matches!(
            sight.scale(Row::Dense(&row)),
            Err(Unsighted::Larger { feature: 2, .. })
        ));
        let mut sight = FirstSight::new(Scaling::MaxAbs);
        assert_eq!(
            sight.scale(Row::Dense(&[-0.0, 1.0])).unwrap_err(),
            Unsighted::SignedZero { feature: 0 }
        );
        let (mut auto, mut max_abs) = (
            FirstSight::new(Scaling::Auto),
            FirstSight::new(Scaling::MaxAbs),
        );
        for _ in 0..DENSITY_CHECK_ROWS {
            auto.scale(Row::Dense(&[1.0, 0.0, 1.0])).unwrap();
            max_abs.scale(Row::Dense(&[1.0, 0.0, 1.0])).unwrap();
        }
        assert_eq!(auto.clone().finish(3), None);
        assert_eq!(
            auto.scale(Row::Dense(&[1.0, 0.0, 1.0])).unwrap_err(),
            Unsighted::Dense {
                rows: DENSITY_CHECK_ROWS
            }
        );
        max_abs.scale(Row::Dense(&[1.0, 0.0, 1.0])).unwrap();
        assert_eq!(
            max_abs.finish(4),
            Some(Scaler::MaxAbs {
                max_abs: vec![1.0, 0.0, 1.0, 0.0]
            })
        );
    }
}
