//! [`RowSample`]: a seeded uniform sample of at most $k$ rows, drawn by content, so that it
//! depends only on the multiset of rows and not on how they were read.
//!
//! Every row gets a key, a 64-bit hash of the seed and its non-zero entries (index and value
//! bits, so the dense and sparse forms of a row agree); the sample is the $k$ rows of smallest
//! key (bottom-$k$ sampling). Keys of distinct rows behave as independent uniform draws, so the
//! sample is uniform without replacement; two samples of disjoint parts merge into the sample of
//! their union ([`RowSample::merge`]), which is what lets a parallel first pass over a file, a
//! stream read once and the same rows in memory choose the same rows, bit for bit.

use std::collections::BinaryHeap;

use auc_core::{Dataset, Row};

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
#[derive(Clone, Debug)]
pub struct RowSample {
    capacity: usize,
    seed: u64,
    dim: usize,
    /// A max-heap: its top is the kept row of largest key, the first to go.
    kept: BinaryHeap<Kept>,
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
