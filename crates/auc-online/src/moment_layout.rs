//! The one-pass moment learners' saved layout before sketched moments (state version 1),
//! read into version 2's.
//!
//! Version 2 added two things, both with an implied old value: the parameter `sketch` (the
//! last field of every moment learner's parameters; version 1 meant 0, exact moments) and the
//! tag of [`crate::moment_store::MomentStore`] before the core's moments (version 1 held
//! `Dense`, variant 0). Postcard writes a real as 8 little-endian bytes, an integer and an
//! enum's variant as a varint (0 is the byte `0x00`) and a vector as its varint length, then
//! its items, with no framing around structs. So a version 1 state becomes a version 2 state
//! by inserting `0x00` after the parameters' reals and `0x00` where the core starts.

use std::borrow::Cow;

use auc_core::StateError;

/// The state version that added `sketch`.
pub(crate) const SKETCH_STATE_VERSION: u32 = 2;

/// A field a learner saves between its parameters and its core.
#[derive(Clone, Copy)]
pub(crate) enum Field {
    /// One `f64`.
    Real,
    /// A `Vec<f64>`.
    Reals,
}

/// The bytes of a moment learner's state saved at `version`, in the current layout: unchanged
/// from [`SKETCH_STATE_VERSION`] on; for version 1, `reals` real parameters, then the inserted
/// `sketch = 0`, then the fields `before_core`, then the inserted tag `Dense`, then the rest.
///
/// # Errors
/// When the bytes end before the core.
pub(crate) fn upgrade_v1<'a>(
    bytes: &'a [u8],
    version: u32,
    reals: usize,
    before_core: &[Field],
) -> Result<Cow<'a, [u8]>, StateError> {
    if version >= SKETCH_STATE_VERSION {
        return Ok(Cow::Borrowed(bytes));
    }
    let short = || StateError::new("the learner's state (layout version 1) ends early");
    let params = 8 * reals;
    let mut at = params;
    for field in before_core {
        at = match field {
            Field::Real => at + 8,
            Field::Reals => {
                let (n, len) = varint(bytes.get(at..).ok_or_else(short)?).ok_or_else(short)?;
                n.checked_mul(8)
                    .and_then(|b| b.checked_add(at + len))
                    .ok_or_else(short)?
            }
        };
    }
    if at > bytes.len() {
        return Err(short());
    }
    let mut out = Vec::with_capacity(bytes.len() + 2);
    out.extend_from_slice(&bytes[..params]);
    out.push(0);
    out.extend_from_slice(&bytes[params..at]);
    out.push(0);
    out.extend_from_slice(&bytes[at..]);
    Ok(Cow::Owned(out))
}

/// A postcard varint (LEB128) at the start of `bytes`: its value and its length in bytes.
pub(crate) fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut value: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7f).checked_shl(7 * i as u32)?;
        if b & 0x80 == 0 {
            return Some((usize::try_from(value).ok()?, i + 1));
        }
    }
    None
}

/// Appends `n` as a postcard varint (LEB128: seven bits a byte, low bits first, the high bit
/// set on every byte but the last).
pub(crate) fn push_varint(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_read_and_write_as_postcard_does() {
        for n in [0usize, 1, 127, 128, 300, 1 << 20, usize::MAX >> 1] {
            let bytes = postcard::to_allocvec(&n).unwrap();
            assert_eq!(varint(&bytes), Some((n, bytes.len())), "{n}");
            let mut pushed = Vec::new();
            push_varint(&mut pushed, n);
            assert_eq!(pushed, bytes, "{n}");
        }
        assert_eq!(varint(&[0x80, 0x80]), None);
    }

    #[test]
    fn version_1_gains_the_sketch_and_the_tag() {
        // (a, b) reals, then radius and a vector of two reals, then a core starting with 7.
        #[derive(serde::Serialize)]
        struct V1 {
            a: f64,
            b: f64,
            radius: f64,
            v: Vec<f64>,
            core: u8,
        }
        #[derive(serde::Serialize)]
        struct V2 {
            a: f64,
            b: f64,
            sketch: usize,
            radius: f64,
            v: Vec<f64>,
            tag: u32,
            core: u8,
        }
        let v1 = postcard::to_allocvec(&V1 {
            a: 1.5,
            b: -2.0,
            radius: 3.0,
            v: vec![4.0, 5.0],
            core: 7,
        })
        .unwrap();
        let v2 = postcard::to_allocvec(&V2 {
            a: 1.5,
            b: -2.0,
            sketch: 0,
            radius: 3.0,
            v: vec![4.0, 5.0],
            tag: 0,
            core: 7,
        })
        .unwrap();
        let up = upgrade_v1(&v1, 1, 2, &[Field::Real, Field::Reals]).unwrap();
        assert_eq!(&*up, &v2[..]);
        assert!(matches!(
            upgrade_v1(&v2, 2, 2, &[Field::Real, Field::Reals]).unwrap(),
            Cow::Borrowed(_)
        ));
        assert!(upgrade_v1(&v1[..20], 1, 2, &[Field::Real, Field::Reals]).is_err());
    }
}
