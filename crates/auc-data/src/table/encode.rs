//! Encoding rows by a [`Schema`]: a [`Binding`] matches a file's (or frame's) columns to the
//! schema's by name, once per file, and then turns each row's cells into the label and the
//! features. Columns may come in any order; extra columns are ignored (and counted); a missing
//! feature column is an error naming it; the label column may be absent (rows to score).

use std::collections::HashMap;

use super::cell::Cell;
use super::label::value_key;
use super::schema::{Encoding, Schema};
use crate::DataError;
use crate::names::{column_by_name, names_list};

/// What one field of the file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Label,
    /// The schema column of this index.
    Column(usize),
    Ignored,
}

/// Why a cell could not be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellProblem {
    /// Text in a column the schema reads as numbers.
    NotNumeric {
        /// The column's name.
        column: String,
    },
    /// The label cell of a row is missing.
    MissingLabel {
        /// The label column's name.
        column: String,
    },
}

impl std::fmt::Display for CellProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellProblem::NotNumeric { column } => write!(
                f,
                "column \"{column}\": the value is not a number, and the column was numeric in training"
            ),
            CellProblem::MissingLabel { column } => write!(
                f,
                "column \"{column}\": the label is missing (a row without a label cannot train or be evaluated; drop the column to score rows without labels)"
            ),
        }
    }
}

/// A schema bound to one file's columns.
#[derive(Clone, Debug)]
pub struct Binding {
    slots: Vec<Slot>,
    /// Per schema column, its one-hot lookup (kept category → offset).
    lookups: Vec<HashMap<String, u32>>,
    labelled: bool,
    ignored: Vec<String>,
    key: String,
}

impl Binding {
    /// The binding of a file whose header is `names` (`file` names it in errors). Names match
    /// exactly after trimming, or else ignoring case when that finds one column.
    ///
    /// # Errors
    /// [`DataError::Table`] for a schema column the file lacks, or a name the header repeats.
    pub fn new(schema: &Schema, names: &[String], file: &str) -> Result<Binding, DataError> {
        let find = |want: &str| column_by_name(want, names);
        let mut slots = vec![Slot::Ignored; names.len()];
        let label = find(&schema.label.name);
        if let Some(k) = label {
            slots[k] = Slot::Label;
        }
        let mut absent = Vec::new();
        for (j, c) in schema.columns.iter().enumerate() {
            match find(&c.name) {
                Some(k) if slots[k] == Slot::Ignored => slots[k] = Slot::Column(j),
                Some(k) => {
                    return Err(DataError::Table(format!(
                        "{file}: the header names column \"{}\" twice",
                        names[k]
                    )));
                }
                None => absent.push(c.name.clone()),
            }
        }
        if !absent.is_empty() {
            return Err(DataError::Table(format!(
                "{file}: the model needs the column{} {}, which the file does not have; its columns are {}",
                if absent.len() == 1 { "" } else { "s" },
                names_list(&absent),
                names_list(names)
            )));
        }
        let lookups = schema
            .columns
            .iter()
            .map(|c| match &c.encoding {
                Encoding::OneHot { kept, .. } => kept
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (k.clone(), i as u32))
                    .collect(),
                _ => HashMap::new(),
            })
            .collect();
        let ignored = slots
            .iter()
            .zip(names)
            .filter(|(s, _)| **s == Slot::Ignored)
            .map(|(_, n)| n.clone())
            .collect();
        Ok(Binding {
            slots,
            lookups,
            labelled: label.is_some(),
            ignored,
            key: String::new(),
        })
    }

    /// Whether the file has the label column.
    pub fn labelled(&self) -> bool {
        self.labelled
    }

    /// The file's columns the schema does not use (the label excluded).
    pub fn ignored(&self) -> &[String] {
        &self.ignored
    }

    /// Whether field `k` is read: the label or a column of the schema, not an ignored one.
    pub fn used(&self, k: usize) -> bool {
        self.slots.get(k).is_some_and(|s| *s != Slot::Ignored)
    }

    /// Whether field `k` holds the label.
    pub fn is_label(&self, k: usize) -> bool {
        self.slots.get(k) == Some(&Slot::Label)
    }

    /// The schema column field `k` feeds, if any.
    pub fn column_of(&self, k: usize) -> Option<usize> {
        match self.slots.get(k) {
            Some(Slot::Column(j)) => Some(*j),
            _ => None,
        }
    }

    /// The number of fields a row has.
    pub fn fields(&self) -> usize {
        self.slots.len()
    }

    /// Encodes field `k`'s cell: the label into `label` (+1 or -1), a feature into `row` (the
    /// row's features, all 0 before its first field).
    ///
    /// # Errors
    /// Text in a numeric column; a missing label.
    #[inline]
    pub fn encode(
        &mut self,
        schema: &Schema,
        k: usize,
        cell: Cell<'_>,
        label: &mut f64,
        row: &mut [f64],
    ) -> Result<(), CellProblem> {
        let j = match self.slots[k] {
            Slot::Ignored => return Ok(()),
            Slot::Label => {
                if cell == Cell::Missing {
                    return Err(CellProblem::MissingLabel {
                        column: schema.label.name.clone(),
                    });
                }
                value_key(cell, &mut self.key);
                *label = if schema.label.is_positive(&self.key) {
                    1.0
                } else {
                    -1.0
                };
                return Ok(());
            }
            Slot::Column(j) => j,
        };
        let c = &schema.columns[j];
        let at = c.first;
        match (&c.encoding, cell) {
            (Encoding::Numeric { .. }, Cell::Number(x)) => row[at] = x,
            (Encoding::Numeric { mean, indicator }, Cell::Missing) => {
                row[at] = *mean;
                if *indicator {
                    row[at + 1] = 1.0;
                }
            }
            (Encoding::Numeric { .. }, Cell::Text(_)) => {
                return Err(CellProblem::NotNumeric {
                    column: c.name.clone(),
                });
            }
            (Encoding::OneHot { kept, missing }, cell) => {
                let other = kept.len();
                let offset = match cell {
                    Cell::Missing if *missing => other + 1,
                    Cell::Missing => other,
                    cell => {
                        value_key(cell, &mut self.key);
                        self.lookups[j]
                            .get(self.key.as_str())
                            .map_or(other, |&i| i as usize)
                    }
                };
                row[at + offset] = 1.0;
            }
            (Encoding::Hashed { buckets, missing }, cell) => match cell {
                Cell::Missing if *missing => row[at + *buckets as usize] = 1.0,
                Cell::Missing => {}
                cell => {
                    value_key(cell, &mut self.key);
                    row[at + bucket(&self.key, *buckets)] = 1.0;
                }
            },
        }
        Ok(())
    }
}

/// The feature a hashed category lands on: 64-bit FNV-1a of its key, modulo `buckets`.
pub fn bucket(key: &str, buckets: u32) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in key.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h % u64::from(buckets.max(1))) as usize
}
