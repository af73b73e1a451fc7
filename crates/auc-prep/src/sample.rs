//! [`RowSample`]: a seeded uniform sample of at most $k$ rows, drawn by content, so that it
//! depends only on the multiset of rows and not on how they were read.
//!
//! Every row gets a key, a 64-bit hash of the seed and its non-zero entries (index and value
//! bits, so the dense and sparse forms of a row agree); the sample is the $k$ rows of smallest
//! key (bottom-$k$ sampling). Keys of distinct rows behave as independent uniform draws, so the
//! sample is uniform without replacement; two samples of disjoint parts merge into the sample of
//! their union ([`RowSample::merge`]), which is what lets a parallel first pass over a file, a
//! stream read once and the same rows in memory choose the same rows, bit for bit.
//!
//! A sample serializes (serde) as its capacity, seed, dimension and kept rows in key order; the
//! keys are recomputed when it is read, and a kept row that breaks the rules of a sparse row
//! (indices strictly increasing and below the dimension, no stored zero) or more rows than the
//! capacity refuse the input, so samples of partitions computed in other processes merge as
//! safely as samples computed here.

use std::collections::BinaryHeap;

use auc_core::{Dataset, Row};
use serde::{Deserialize, Serialize};

/// One kept row: its key and its non-zero entries.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Kept {
    key: u64,
    indices: Vec<u32>,
    values: Vec<u64>,
}

impl Ord for Kept {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.key, &self.indices, &self.values).cmp(&(other.key, &other.indices, &other.values))
    }
}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The rows of smallest key seen so far, at most `capacity` of them.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "Wire", try_from = "Wire")]
pub struct RowSample {
    capacity: usize,
    seed: u64,
    dim: usize,
    /// A max-heap: its top is the kept row of largest key, the first to go.
    kept: BinaryHeap<Kept>,
}

/// What a sample serializes as: the kept rows' entries (index, value bits) in key order.
#[derive(Serialize, Deserialize)]
struct Wire {
    capacity: u64,
    seed: u64,
    dim: u64,
    rows: Vec<Entries>,
}

/// A kept row's indices and value bits.
type Entries = (Vec<u32>, Vec<u64>);

impl From<RowSample> for Wire {
    fn from(s: RowSample) -> Wire {
        Wire {
            capacity: s.capacity as u64,
            seed: s.seed,
            dim: s.dim as u64,
            rows: s
                .kept
                .into_sorted_vec()
                .into_iter()
                .map(|k| (k.indices, k.values))
                .collect(),
        }
    }
}

impl TryFrom<Wire> for RowSample {
    type Error = String;

    fn try_from(w: Wire) -> Result<RowSample, String> {
        let too_large = |what: &str, v: u64| format!("the sample's {what} {v} is too large");
        let capacity =
            usize::try_from(w.capacity).map_err(|_| too_large("capacity", w.capacity))?;
        let dim = usize::try_from(w.dim).map_err(|_| too_large("dimension", w.dim))?;
        if w.rows.len() > capacity {
            return Err(format!(
                "the sample keeps {} rows, more than its capacity {capacity}",
                w.rows.len()
            ));
        }
        let mut s = RowSample::new(capacity, w.seed);
        s.cover(dim);
        for (k, (indices, values)) in w.rows.into_iter().enumerate() {
            let sorted = indices.windows(2).all(|p| p[0] < p[1]);
            let inside = indices.last().is_none_or(|&j| (j as usize) < dim);
            let nonzero = values.iter().all(|&b| f64::from_bits(b) != 0.0);
            if indices.len() != values.len() || !sorted || !inside || !nonzero {
                return Err(format!(
                    "kept row {k} is not a sparse row of {dim} features without stored zeros"
                ));
            }
            let key = s.key(
                indices
                    .iter()
                    .zip(&values)
                    .map(|(&j, &b)| (j, f64::from_bits(b))),
            );
            s.kept.push(Kept {
                key,
                indices,
                values,
            });
        }
        Ok(s)
    }
}

/// SplitMix64's finalizer: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RowSample {
    /// An empty sample of at most `capacity` rows keyed with `seed`.
    pub fn new(capacity: usize, seed: u64) -> RowSample {
        RowSample {
            capacity,
            seed,
            dim: 0,
            kept: BinaryHeap::new(),
        }
    }

    /// The sample of `data`'s rows.
    pub fn of_dataset(data: &Dataset, capacity: usize, seed: u64) -> RowSample {
        let mut s = RowSample::new(capacity, seed);
        for (x, _) in data.iter() {
            s.offer(x);
        }
        s.cover(data.dim());
        s
    }

    /// The most rows it keeps.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The seed of its keys.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The dimension covered: at least every kept row's, and any [`RowSample::cover`] asked.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// Rows kept so far.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether no row is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Makes the sample's dimension at least `dim` (the input's, whatever rows were kept).
    pub fn cover(&mut self, dim: usize) {
        self.dim = self.dim.max(dim);
    }

    /// The key of the row with these non-zero entries.
    fn key(&self, entries: impl Iterator<Item = (u32, f64)>) -> u64 {
        let mut h = mix(self.seed);
        for (j, v) in entries {
            // -0.0 and 0.0 are both absent from a sparse row: only non-zeros reach here.
            h = mix(h ^ u64::from(j));
            h = mix(h ^ v.to_bits());
        }
        h
    }

    /// Offers one row: kept when its key is among the `capacity` smallest so far.
    pub fn offer(&mut self, x: Row<'_>) {
        if self.capacity == 0 {
            return;
        }
        let entries = || {
            let (dense, sparse) = match x {
                Row::Dense(v) => (Some(v), None),
                Row::Sparse(s) => (None, Some(s)),
            };
            let d = dense
                .into_iter()
                .flat_map(|v| v.iter().enumerate())
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, v)| (j as u32, *v));
            let s = sparse
                .into_iter()
                .flat_map(|s| s.indices().iter().zip(s.values()))
                .filter(|(_, v)| **v != 0.0)
                .map(|(j, v)| (*j, *v));
            d.chain(s)
        };
        let key = self.key(entries());
        if self.kept.len() == self.capacity && self.kept.peek().is_some_and(|top| top.key <= key) {
            return;
        }
        let (indices, values): (Vec<u32>, Vec<u64>) =
            entries().map(|(j, v)| (j, v.to_bits())).unzip();
        if let Some(&j) = indices.last() {
            self.cover(j as usize + 1);
        }
        self.kept.push(Kept {
            key,
            indices,
            values,
        });
        if self.kept.len() > self.capacity {
            self.kept.pop();
        }
    }

    /// Adds the rows of `other`, a sample of other rows with the same capacity and seed: the
    /// result is the sample of all of them.
    pub fn merge(&mut self, other: RowSample) {
        debug_assert_eq!((self.capacity, self.seed), (other.capacity, other.seed));
        self.cover(other.dim);
        for k in other.kept {
            self.kept.push(k);
            if self.kept.len() > self.capacity {
                self.kept.pop();
            }
        }
    }

    /// Bytes a sample of `capacity` rows of `nnz` stored entries each may hold.
    pub fn bytes_for(capacity: usize, nnz: usize) -> u64 {
        (capacity as u64).saturating_mul(12u64.saturating_mul(nnz as u64).saturating_add(64))
    }

    /// The kept rows in increasing key order, sparse, with label +1 (a map's fit reads only
    /// the features).
    pub fn into_dataset(self) -> Dataset {
        let dim = self.dim;
        let kept = self.kept.into_sorted_vec();
        let mut indptr = Vec::with_capacity(kept.len() + 1);
        indptr.push(0);
        let mut indices = Vec::new();
        let mut values = Vec::new();
        for k in &kept {
            indices.extend_from_slice(&k.indices);
            values.extend(k.values.iter().map(|b| f64::from_bits(*b)));
            indptr.push(indices.len());
        }
        let labels = vec![auc_core::Label::Pos; kept.len()];
        Dataset::sparse(dim, indptr, indices, values, labels)
            .expect("kept rows are valid sparse rows of the covered dimension")
    }
}

#[cfg(test)]
mod tests {
    use auc_core::{Label, SparseRow};

    use super::*;

    /// The kept rows' entries in key order, and the dimension.
    fn rows_of(s: RowSample) -> (usize, Vec<Entries>) {
        let w = Wire::from(s);
        (w.dim as usize, w.rows)
    }

    /// 40 rows of 5 features, some zeros, a few repeated.
    fn data() -> Dataset {
        let mut values = Vec::new();
        for i in 0..40u32 {
            for j in 0..5u32 {
                let v = f64::from((i % 17) * 7 + j * 3) % 11.0 - 4.0;
                values.push(if (i + j) % 3 == 0 { 0.0 } else { v / 3.0 });
            }
        }
        Dataset::dense(5, values, vec![Label::Pos; 40]).unwrap()
    }

    #[test]
    fn serialized_samples_read_back_and_merge_as_the_originals() {
        let d = data();
        let whole = RowSample::of_dataset(&d, 12, 9);
        let bytes = postcard::to_allocvec(&whole).unwrap();
        let back: RowSample = postcard::from_bytes(&bytes).unwrap();
        assert_eq!((back.capacity(), back.seed(), back.dim()), (12, 9, 5));
        assert_eq!(rows_of(back), rows_of(whole.clone()));
        // Halves sampled apart, shipped as bytes and merged: the sample of the whole.
        let mut parts = Vec::new();
        for range in [0..25, 25..40] {
            let mut s = RowSample::new(12, 9);
            for i in range {
                s.offer(d.row(i));
            }
            s.cover(5);
            parts.push(postcard::to_allocvec(&s).unwrap());
        }
        let mut merged: RowSample = postcard::from_bytes(&parts[1]).unwrap();
        merged.merge(postcard::from_bytes(&parts[0]).unwrap());
        assert_eq!(merged.len(), 12);
        assert_eq!(rows_of(merged), rows_of(whole));
    }

    #[test]
    fn bad_serialized_samples_are_refused() {
        let bad = |rows: Vec<Entries>, capacity: u64| {
            let w = Wire {
                capacity,
                seed: 1,
                dim: 4,
                rows,
            };
            // serde_json keeps the message (postcard only says that the input was refused).
            let text = serde_json::to_string(&w).unwrap();
            assert!(
                postcard::from_bytes::<RowSample>(&postcard::to_allocvec(&w).unwrap()).is_err()
            );
            serde_json::from_str::<RowSample>(&text)
                .unwrap_err()
                .to_string()
        };
        let one = 1.0f64.to_bits();
        assert!(bad(vec![(vec![1], vec![one]); 3], 2).contains("capacity"));
        assert!(bad(vec![(vec![2, 1], vec![one, one])], 2).contains("kept row 0"));
        assert!(bad(vec![(vec![4], vec![one])], 2).contains("kept row 0"));
        assert!(bad(vec![(vec![0], vec![0.0f64.to_bits()])], 2).contains("kept row 0"));
        assert!(bad(vec![(vec![0, 1], vec![one])], 2).contains("kept row 0"));
        // A row in dense and in sparse form has one key and one stored form.
        let mut s = RowSample::new(2, 3);
        s.offer(Row::Dense(&[0.0, 2.5, 0.0]));
        s.offer(Row::Sparse(SparseRow::new(&[1], &[2.5])));
        let back: RowSample = postcard::from_bytes(&postcard::to_allocvec(&s).unwrap()).unwrap();
        let (dim, rows) = rows_of(back);
        assert_eq!(dim, 2);
        assert_eq!(rows, vec![(vec![1], vec![2.5f64.to_bits()]); 2]);
    }
}
