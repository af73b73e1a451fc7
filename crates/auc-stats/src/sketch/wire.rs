//! The serde encoding of [`FrequentDirections`]: what is stored, and its validation on reading.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{FrequentDirections, MAX_ELL, SKETCH_FORMAT_VERSION};
use crate::StatsError;

/// Version 1, as written: the sketch by slot, the $\ell \times \ell$ block $B B^\top$ of the Gram
/// matrix as the shrinks computed it (so a restored sketch shrinks bit for bit as the original),
/// and the buffered rows; the rest of the Gram matrix, the slot map and the scratch space are
/// rebuilt on reading.
#[derive(Serialize)]
struct WireRef<'a> {
    format_version: u32,
    ell: u64,
    dim: u64,
    rows: u64,
    delta: f64,
    mass: f64,
    features: &'a [u32],
    sketch: &'a [f64],
    gram_top: Vec<f64>,
    buf_ptr: Vec<u64>,
    buf_slot: &'a [u32],
    buf_val: &'a [f64],
}

/// Version 1, as read.
#[derive(Deserialize)]
pub(crate) struct Wire {
    format_version: u32,
    ell: u64,
    dim: u64,
    rows: u64,
    delta: f64,
    mass: f64,
    features: Vec<u32>,
    sketch: Vec<f64>,
    gram_top: Vec<f64>,
    buf_ptr: Vec<u64>,
    buf_slot: Vec<u32>,
    buf_val: Vec<f64>,
}

impl Serialize for FrequentDirections {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WireRef {
            format_version: SKETCH_FORMAT_VERSION,
            ell: self.ell as u64,
            dim: self.dim as u64,
            rows: self.rows,
            delta: self.delta,
            mass: self.mass,
            features: &self.features,
            sketch: &self.sketch,
            gram_top: (0..self.ell)
                .flat_map(|i| self.gram[i * 2 * self.ell..i * 2 * self.ell + self.ell].iter())
                .copied()
                .collect(),
            buf_ptr: self.buf_ptr.iter().map(|&p| p as u64).collect(),
            buf_slot: &self.buf_slot,
            buf_val: &self.buf_val,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for FrequentDirections {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = Wire::deserialize(deserializer)?;
        FrequentDirections::from_wire(wire).map_err(serde::de::Error::custom)
    }
}

fn invalid(what: &'static str, index: usize, value: impl ToString) -> StatsError {
    StatsError::InvalidValue {
        what,
        index,
        value: value.to_string(),
    }
}

fn shape(what: &'static str, expected: usize, found: usize) -> StatsError {
    StatsError::Shape {
        what,
        expected,
        found,
    }
}

impl FrequentDirections {
    /// Checks everything a sequence of inserts and merges guarantees (lengths, finite values,
    /// distinct in-range features, a symmetric $B B^\top$ block with a non-negative diagonal),
    /// then rebuilds each buffered row's column of the Gram matrix.
    pub(crate) fn from_wire(w: Wire) -> Result<Self, StatsError> {
        if w.format_version != SKETCH_FORMAT_VERSION {
            return Err(StatsError::UnsupportedVersion {
                found: w.format_version,
                supported: SKETCH_FORMAT_VERSION,
            });
        }
        let ell = usize::try_from(w.ell).unwrap_or(usize::MAX);
        if ell == 0 || ell > MAX_ELL {
            return Err(StatsError::Rank { ell, max: MAX_ELL });
        }
        let dim = usize::try_from(w.dim).map_err(|_| invalid("dim", 0, w.dim))?;
        let t = w.features.len();
        let expected = t.checked_mul(ell).ok_or(shape("sketch", usize::MAX, t))?;
        if w.sketch.len() != expected {
            return Err(shape("sketch", expected, w.sketch.len()));
        }
        if let Some(k) = w.sketch.iter().position(|v| !v.is_finite()) {
            return Err(invalid("sketch", k, w.sketch[k]));
        }
        for (what, v) in [("delta", w.delta), ("mass", w.mass)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid(what, 0, v));
            }
        }
        let mut sketch = Self::new(ell, dim)?;
        for (s, &f) in w.features.iter().enumerate() {
            if f as usize >= dim {
                return Err(invalid("features", s, f));
            }
            if sketch.slot_of(f) as usize != s {
                return Err(invalid("features (repeated)", s, f));
            }
        }
        sketch.sketch = w.sketch;
        if w.buf_ptr.first() != Some(&0)
            || w.buf_ptr.len() > ell
            || w.buf_ptr.windows(2).any(|p| p[0] > p[1])
            || w.buf_ptr.last().copied() != Some(w.buf_slot.len() as u64)
            || w.buf_slot.len() != w.buf_val.len()
        {
            return Err(shape("buffer", w.buf_slot.len(), w.buf_val.len()));
        }
        if let Some(k) = w.buf_slot.iter().position(|&s| s as usize >= t) {
            return Err(invalid("buffer slot", k, w.buf_slot[k]));
        }
        if let Some(k) = w.buf_val.iter().position(|v| !v.is_finite()) {
            return Err(invalid("buffer value", k, w.buf_val[k]));
        }
        if w.gram_top.len() != ell * ell {
            return Err(shape("gram", ell * ell, w.gram_top.len()));
        }
        for i in 0..ell {
            for j in 0..ell {
                let v = w.gram_top[i * ell + j];
                let bad = !v.is_finite()
                    || v.to_bits() != w.gram_top[j * ell + i].to_bits()
                    || (i == j && v < 0.0);
                if bad {
                    return Err(invalid("gram", i * ell + j, v));
                }
            }
            let stride = 2 * ell;
            sketch.gram[i * stride..i * stride + ell]
                .copy_from_slice(&w.gram_top[i * ell..(i + 1) * ell]);
        }
        sketch.buf_slot = w.buf_slot;
        sketch.buf_val = w.buf_val;
        sketch.buf_ptr = w.buf_ptr.iter().map(|&p| p as usize).collect();
        for q in 0..sketch.buf_ptr.len() - 1 {
            let (a, b) = (sketch.buf_ptr[q], sketch.buf_ptr[q + 1]);
            let mut seen = sketch.buf_slot[a..b].to_vec();
            seen.sort_unstable();
            if seen.windows(2).any(|p| p[0] == p[1]) {
                return Err(invalid("buffer row (repeated slot)", q, q));
            }
            sketch.gram_column(q);
        }
        sketch.rows = w.rows;
        sketch.delta = w.delta;
        sketch.mass = w.mass;
        Ok(sketch)
    }

    /// The postcard encoding, with [`SKETCH_FORMAT_VERSION`] first.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).expect("serializing to a Vec cannot fail")
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote; the sketch behaves as the one written.
    ///
    /// # Errors
    /// [`StatsError::UnsupportedVersion`], [`StatsError::Decode`], [`StatsError::TrailingBytes`],
    /// [`StatsError::Rank`], [`StatsError::Shape`] or [`StatsError::InvalidValue`] for bytes no
    /// sequence of inserts can produce. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, StatsError> {
        Self::from_wire(decode_exact(bytes, "sketch")?)
    }
}

/// Decodes exactly one `T` from `bytes`, saved at [`SKETCH_FORMAT_VERSION`] (the moments'
/// decoder, [`crate::moments::decode_versioned`]).
pub(crate) fn decode_exact<T: for<'de> Deserialize<'de>>(
    bytes: &[u8],
    what: &'static str,
) -> Result<T, StatsError> {
    crate::moments::decode_versioned(bytes, what, SKETCH_FORMAT_VERSION)
}
