//! The survey: one pass over a table's rows that counts, per column, its numbers (and their sum,
//! for the imputation mean), its missing cells and its distinct text values, and the label's
//! values. [`super::Schema::from_survey`] turns it into the schema every later pass reads by.
//!
//! Memory is bounded per column: at most [`TEXT_CAP`] distinct text values are kept (a column
//! with more is hashed, and the schema says so), and the distinct numbers of a column are kept
//! only up to [`NUMBER_KEYS`] (enough to make a column of codes categorical when asked; past it a
//! column that turns out categorical is hashed too).

use std::collections::HashMap;

use super::cell::Cell;
use super::label::value_key;

/// The most distinct text values a column keeps while surveyed.
pub const TEXT_CAP: usize = 100_000;
/// The most distinct numbers a column keeps while surveyed.
pub const NUMBER_KEYS: usize = 1_024;

/// What the survey saw of one column.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    /// Cells that were numbers.
    pub numbers: u64,
    /// Their sum, compensated (Neumaier), and its compensation.
    pub sum: f64,
    pub compensation: f64,
    /// Missing cells.
    pub missing: u64,
    /// Cells that were text.
    pub texts: u64,
    /// Distinct text values and their counts (at most [`TEXT_CAP`]).
    pub text_counts: HashMap<String, u64>,
    /// Distinct numbers by key and their counts, while at most [`NUMBER_KEYS`]; `None` past it.
    pub number_counts: Option<HashMap<String, u64>>,
    /// Whether a text value was not kept for lack of room.
    pub overflow: bool,
    /// Numbers other than 0, and their least and greatest: what the ranges of scaling count.
    pub nonzero: u64,
    pub nonzero_min: f64,
    pub nonzero_max: f64,
}

impl Tally {
    fn add(&mut self, cell: Cell<'_>, key: &mut String) {
        match cell {
            Cell::Missing => self.missing += 1,
            Cell::Number(x) => {
                self.numbers += 1;
                if x != 0.0 {
                    if self.nonzero == 0 {
                        (self.nonzero_min, self.nonzero_max) = (x, x);
                    } else {
                        self.nonzero_min = self.nonzero_min.min(x);
                        self.nonzero_max = self.nonzero_max.max(x);
                    }
                    self.nonzero += 1;
                }
                let t = self.sum + x;
                self.compensation += if self.sum.abs() >= x.abs() {
                    (self.sum - t) + x
                } else {
                    (x - t) + self.sum
                };
                self.sum = t;
                if let Some(map) = &mut self.number_counts {
                    value_key(cell, key);
                    bump(map, key);
                    if map.len() > NUMBER_KEYS {
                        self.number_counts = None;
                    }
                }
            }
            Cell::Text(t) => {
                self.texts += 1;
                if let Some(c) = self.text_counts.get_mut(t) {
                    *c += 1;
                } else if self.text_counts.len() < TEXT_CAP {
                    self.text_counts.insert(t.to_owned(), 1);
                } else {
                    self.overflow = true;
                }
            }
        }
    }

    /// The mean of the numbers (0 when there are none).
    pub(crate) fn mean(&self) -> f64 {
        if self.numbers == 0 {
            0.0
        } else {
            (self.sum + self.compensation) / self.numbers as f64
        }
    }
}

fn bump(map: &mut HashMap<String, u64>, key: &str) {
    if let Some(c) = map.get_mut(key) {
        *c += 1;
    } else {
        map.insert(key.to_owned(), 1);
    }
}

/// The counts of a survey in progress: feed each row's cells ([`Survey::cell`], then
/// [`Survey::label`]) and close it with [`Survey::end_row`].
#[derive(Clone, Debug)]
pub struct Survey {
    pub(crate) names: Vec<String>,
    pub(crate) label: usize,
    pub(crate) tallies: Vec<Tally>,
    pub(crate) label_counts: HashMap<String, u64>,
    pub(crate) rows: u64,
    key: String,
}

impl Survey {
    /// A survey of columns `names` whose column `label` holds the label.
    pub fn new(names: Vec<String>, label: usize) -> Survey {
        let tallies = (0..names.len())
            .map(|_| Tally {
                number_counts: Some(HashMap::new()),
                ..Tally::default()
            })
            .collect();
        Survey {
            names,
            label,
            tallies,
            label_counts: HashMap::new(),
            rows: 0,
            key: String::new(),
        }
    }

    /// Counts cell `cell` of column `k` (a feature column).
    pub fn cell(&mut self, k: usize, cell: Cell<'_>) {
        self.tallies[k].add(cell, &mut self.key);
    }

    /// Counts the row's label; `false` when it is missing (the caller reports the row).
    pub fn label(&mut self, cell: Cell<'_>) -> bool {
        if cell == Cell::Missing {
            return false;
        }
        value_key(cell, &mut self.key);
        bump(&mut self.label_counts, &self.key);
        true
    }

    /// Ends a row.
    pub fn end_row(&mut self) {
        self.rows += 1;
    }

    /// Rows surveyed.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The column names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The label column.
    pub fn label_index(&self) -> usize {
        self.label
    }
}
