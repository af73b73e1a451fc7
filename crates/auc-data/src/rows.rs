//! A table row, encoded into its features by a schema, appended to a chunk's storage: the step
//! the CSV reader and the Parquet and Arrow IPC reader share once a row's cells are encoded.

use crate::ParseErrorKind;
use crate::cross::Crosses;
use crate::hashing::{Hashed, fold_hashed};
use crate::raw::Parts;

/// Appends `row` (a table row's features, dense) to `parts`: dense rows padded with zeros to
/// `dim`, or CSR of its non-zeros, folded by `hash_mask` (summing colliding values) and followed
/// by the row's `crosses`. `scratch` is a reused buffer. On error nothing is appended.
///
/// # Errors
/// A hashed sum or a cross that is not finite, a row with too many non-zeros to cross.
pub(crate) fn append_row(
    row: &[f64],
    dim: usize,
    parts: &mut Parts<'_>,
    scratch: &mut Vec<Hashed>,
    hash_mask: Option<u32>,
    crosses: Option<&mut Crosses>,
) -> Result<(), ParseErrorKind> {
    let (indptr, indices, values) = match parts {
        Parts::Dense { values } => {
            let start = values.len();
            values.extend_from_slice(row);
            values.resize(start + dim, 0.0);
            return Ok(());
        }
        Parts::Sparse {
            indptr,
            indices,
            values,
        } => (indptr, indices, values),
    };
    let start = indices.len();
    scratch.clear();
    for (j, &x) in row.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        match hash_mask {
            Some(mask) => scratch.push(Hashed {
                index: (j as u32) & mask,
                seq: j,
                value: x,
                at: 0,
            }),
            None => {
                indices.push(j as u32);
                values.push(x);
            }
        }
    }
    let mut done = Ok(());
    if hash_mask.is_some() {
        done = fold_hashed(scratch, indices, values).map_err(|(_, kind)| kind);
    }
    if done.is_ok()
        && let Some(c) = crosses
    {
        done = c.append(indices, values, start);
    }
    match done {
        Ok(()) => indptr.push(indices.len()),
        Err(_) => {
            indices.truncate(start);
            values.truncate(start);
        }
    }
    done
}
