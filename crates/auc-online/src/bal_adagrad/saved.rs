//! [`BalAdagrad`]'s saved state: version 1's layout (the weights and accumulators as a sequence
//! of [`Coord`]s, then the step counters when $\lambda > 0$), written from and read into the
//! in-memory slots (one [`Slot`] per feature) without an intermediate copy of the state.

use serde::{Deserialize, Serialize};

use super::*;

/// One feature's weight and accumulator as saved (the state's layout keeps the step counters in
/// a sequence of their own, written only when $\lambda > 0$).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Coord {
    /// $\tilde w_j$: $w_j$ after step $\tau_j$ (the current weight when $\lambda = 0$).
    pub(super) w: f64,
    /// $G_j$.
    pub(super) g2: f64,
}

/// [`BalAdagrad`]'s saved layout, the fields in the order of state version 1.
#[derive(Deserialize)]
#[serde(rename = "BalAdagrad")]
pub(super) struct SavedBalAdagrad {
    params: BalAdagradParams,
    counts: ClassCounts,
    coords: SlotsOfCoords,
    /// $\tau_j$ per feature when $\lambda > 0$; empty when $\lambda = 0$.
    last: Vec<u64>,
    rejected: u64,
}

/// The saved weights and accumulators read straight into slots (step counters 0 until the
/// saved ones are put in), so that loading holds the slots and the counters, not a third copy.
struct SlotsOfCoords(Vec<Slot>);

impl<'de> Deserialize<'de> for SlotsOfCoords {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = SlotsOfCoords;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a sequence of weights and accumulators")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Self::Value, A::Error> {
                // The announced length sizes the slots only up to 2^20 (a file may lie); longer
                // sequences grow as they are read.
                let mut slots = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 20));
                while let Some(c) = seq.next_element::<Coord>()? {
                    slots.push(Slot {
                        w: c.w,
                        g2: c.g2,
                        last: 0,
                    });
                }
                Ok(SlotsOfCoords(slots))
            }
        }
        d.deserialize_seq(Visit)
    }
}

impl TryFrom<SavedBalAdagrad> for BalAdagrad {
    type Error = String;

    /// Puts the saved step counters into the slots; a `last` of the wrong length is refused
    /// here, since the slots cannot hold it (the other checks are [`SavedState::validate`]'s).
    fn try_from(s: SavedBalAdagrad) -> Result<Self, String> {
        let mut slots = s.coords.0;
        let want = if s.params.lambda > 0.0 {
            slots.len()
        } else {
            0
        };
        if s.last.len() != want {
            return Err(format!(
                "last has {} values where {want} are expected",
                s.last.len()
            ));
        }
        for (slot, &last) in slots.iter_mut().zip(&s.last) {
            slot.last = last;
        }
        Ok(Self {
            params: s.params,
            counts: s.counts,
            slots,
            rejected: s.rejected,
            cache: WeightsCache::default(),
            row: RowScratch::default(),
        })
    }
}

impl Serialize for BalAdagrad {
    /// The layout of `SavedBalAdagrad`, written from the slots without a copy.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let counted = if self.lazy() { &self.slots[..] } else { &[] };
        let mut st = serializer.serialize_struct("BalAdagrad", 5)?;
        st.serialize_field("params", &self.params)?;
        st.serialize_field("counts", &self.counts)?;
        st.serialize_field("coords", &CoordsOf(&self.slots))?;
        st.serialize_field("last", &StepsOf(counted))?;
        st.serialize_field("rejected", &self.rejected)?;
        st.end()
    }
}

/// The slots' weights and accumulators, serialized as the sequence of [`Coord`]s they were saved
/// as.
struct CoordsOf<'a>(&'a [Slot]);

impl Serialize for CoordsOf<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|s| Coord { w: s.w, g2: s.g2 }))
    }
}

/// The slots' step counters, serialized as a sequence of integers.
struct StepsOf<'a>(&'a [Slot]);

impl Serialize for StepsOf<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|s| s.last))
    }
}
