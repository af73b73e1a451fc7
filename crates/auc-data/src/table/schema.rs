//! The schema of a table: which column is the label and how every other column becomes features
//! (SPEC 11), fitted once by a survey of the training rows and stored in the model, so that every
//! later reader (the passes of training, scoring, Python) encodes rows the same way.
//!
//! Layout of the features, column after column in the file's order:
//! - a numeric column is one feature, its missing cells filled with the training mean of its
//!   numbers; when training saw a missing cell it has a second, 0/1 feature after it that is 1
//!   where the cell was missing (scaling is affine per feature, so the raw mean is the mean after
//!   scaling too). A cell missing at scoring in a column that training never saw missing is
//!   filled with the mean alone, as it has no indicator to set;
//! - a categorical column is one 0/1 feature per kept category (seen at least `min_count` times,
//!   in order of falling count, then by value), one "other" feature for the rest and for values
//!   training never saw, and one "missing" feature when training saw a missing cell (a missing
//!   cell at scoring of a column never missing in training counts as "other"). A column of more
//!   than `max_one_hot` kept categories (or more distinct values than a survey keeps) is hashed
//!   instead into `max_one_hot` features by a fixed hash of its value, with the same missing
//!   feature.

use serde::{Deserialize, Serialize};

use super::cell::NaTokens;
use super::label::LabelMap;
use super::survey::{Survey, Tally};
use crate::DataError;
use crate::names::names_list;

/// The default least number of rows a category needs to get its own feature.
pub const DEFAULT_MIN_COUNT: u64 = 5;
/// The default most one-hot features of one categorical column before it is hashed instead.
pub const DEFAULT_MAX_ONE_HOT: usize = 64;

/// The settings of a schema's fit, from the command line or Python.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableOptions {
    /// The missing-value tokens of text input (`--na-values`).
    pub na: NaTokens,
    /// Columns to treat as categorical even though their values are numbers (`--categorical`),
    /// by name, ignoring case.
    pub categorical: Vec<String>,
    /// The least number of rows a category needs for a feature of its own (`--min-category-count`).
    pub min_count: u64,
    /// The most one-hot features of one column (`--max-one-hot`); a column with more kept
    /// categories is hashed into this many.
    pub max_one_hot: usize,
    /// The positive label values as typed (`--positive`); empty: the default rule.
    pub positive: Vec<String>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            na: NaTokens::default(),
            categorical: Vec::new(),
            min_count: DEFAULT_MIN_COUNT,
            max_one_hot: DEFAULT_MAX_ONE_HOT,
            positive: Vec::new(),
        }
    }
}

/// How one feature column is encoded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Encoding {
    /// Numbers as they are.
    Numeric {
        /// The training mean of the column's numbers, filled in for a missing cell.
        mean: f64,
        /// Whether a 0/1 "was missing" feature follows.
        indicator: bool,
    },
    /// One-hot features of the kept categories, then "other", then "missing" if `missing`.
    OneHot {
        /// The kept categories by key.
        kept: Vec<String>,
        /// Whether a "missing" feature follows.
        missing: bool,
    },
    /// Values hashed into `buckets` features, then "missing" if `missing`.
    Hashed {
        /// The number of features values are hashed into.
        buckets: u32,
        /// Whether a "missing" feature follows.
        missing: bool,
    },
}

impl Encoding {
    /// The number of features.
    pub fn width(&self) -> usize {
        match self {
            Encoding::Numeric { indicator, .. } => 1 + usize::from(*indicator),
            Encoding::OneHot { kept, missing } => kept.len() + 1 + usize::from(*missing),
            Encoding::Hashed { buckets, missing } => *buckets as usize + usize::from(*missing),
        }
    }
}

/// One feature column of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// Its name in the header.
    pub name: String,
    /// Its encoding.
    pub encoding: Encoding,
    /// The index of its first feature.
    pub first: usize,
}

/// The schema of a table: the label's map and the feature columns in file order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// The label column.
    pub label: LabelMap,
    /// The feature columns, in the order of the training file.
    pub columns: Vec<Column>,
    /// The settings it was fitted with (the missing tokens are needed to read later files).
    pub options: TableOptions,
}

impl Schema {
    /// The schema a survey of training rows gives.
    ///
    /// # Errors
    /// [`DataError::Table`]: no rows; a label column with one value; every feature cell missing;
    /// a `--categorical` name no column has; a `--positive` value the label never takes.
    pub fn from_survey(survey: &Survey, options: &TableOptions) -> Result<Schema, DataError> {
        let label_name = survey.names[survey.label].clone();
        if survey.rows == 0 {
            return Err(DataError::Table("the file has no data rows".to_owned()));
        }
        for want in &options.categorical {
            if !survey
                .names
                .iter()
                .any(|n| n.trim().eq_ignore_ascii_case(want.trim()))
            {
                return Err(DataError::Table(format!(
                    "--categorical {want}: no column has that name; the columns are {}",
                    names_list(&survey.names)
                )));
            }
        }
        let mut counts: Vec<(String, u64)> = survey
            .label_counts
            .iter()
            .map(|(k, c)| (k.clone(), *c))
            .collect();
        counts.sort();
        if counts.len() == 1 {
            return Err(DataError::Table(format!(
                "the label column \"{label_name}\" holds one value ({}) in all {} rows: training needs rows of two classes",
                counts[0].0, survey.rows
            )));
        }
        let label = LabelMap::choose(label_name, counts, &options.positive)?;
        let mut columns = Vec::with_capacity(survey.names.len());
        let mut first = 0;
        let mut present = false;
        for (k, (name, tally)) in survey.names.iter().zip(&survey.tallies).enumerate() {
            if k == survey.label {
                continue;
            }
            present |= tally.numbers + tally.texts > 0;
            let asked = options
                .categorical
                .iter()
                .any(|c| c.trim().eq_ignore_ascii_case(name.trim()));
            let encoding = if asked || tally.texts > 0 {
                categories(tally, options)
            } else {
                Encoding::Numeric {
                    mean: tally.mean(),
                    indicator: tally.missing > 0,
                }
            };
            let width = encoding.width();
            columns.push(Column {
                name: name.clone(),
                encoding,
                first,
            });
            first += width;
        }
        if !present && !columns.is_empty() {
            return Err(DataError::Table(format!(
                "every feature cell of the {} rows is missing (the missing-value tokens are {}): check --na-values",
                survey.rows,
                names_list(&options.na.0)
            )));
        }
        Ok(Schema {
            label,
            columns,
            options: options.clone(),
        })
    }

    /// The number of features.
    pub fn dim(&self) -> usize {
        self.columns
            .last()
            .map_or(0, |c| c.first + c.encoding.width())
    }

    /// The feature names, in feature order: `income`, `income (missing)`, `color=red`,
    /// `color (other)`, `color (missing)`, `city #3`.
    pub fn feature_names(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.dim());
        for c in &self.columns {
            let n = &c.name;
            match &c.encoding {
                Encoding::Numeric { indicator, .. } => {
                    out.push(n.clone());
                    if *indicator {
                        out.push(format!("{n} (missing)"));
                    }
                }
                Encoding::OneHot { kept, missing } => {
                    out.extend(kept.iter().map(|v| format!("{n}={v}")));
                    out.push(format!("{n} (other)"));
                    if *missing {
                        out.push(format!("{n} (missing)"));
                    }
                }
                Encoding::Hashed { buckets, missing } => {
                    out.extend((0..*buckets).map(|b| format!("{n} #{b}")));
                    if *missing {
                        out.push(format!("{n} (missing)"));
                    }
                }
            }
        }
        out
    }

    /// What a command says about the schema: one line per categorical column and per column
    /// with missing cells filled, and the label's warning.
    pub fn notes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for c in &self.columns {
            match &c.encoding {
                Encoding::Numeric { indicator: true, mean } => out.push(format!(
                    "column \"{}\": missing cells are filled with the training mean {} and flagged in \"{} (missing)\"",
                    c.name,
                    auc_core::shortest(*mean),
                    c.name
                )),
                Encoding::OneHot { kept, .. } => out.push(format!(
                    "column \"{}\" is categorical: {} categories one-hot, the rest as \"other\"",
                    c.name,
                    kept.len()
                )),
                Encoding::Hashed { buckets, .. } => out.push(format!(
                    "column \"{}\" is categorical with too many values for one-hot columns: hashed into {buckets} columns (--max-one-hot)",
                    c.name
                )),
                Encoding::Numeric { .. } => {}
            }
        }
        out.extend(self.label.warning());
        out
    }

    /// The ranges of the encoded training rows ([`crate::FeatureRanges`]: per feature the non-zero
    /// count and extremes), computed from the survey that fitted this schema instead of a pass
    /// over the encoded rows, which they equal: a filled cell is the mean, a one-hot feature is
    /// 1 on its category's rows, an indicator on the missing ones. `None` when the survey could
    /// not keep every category's count (a hashed column past its caps).
    pub fn ranges(&self, survey: &Survey) -> Option<crate::FeatureRanges> {
        let dim = self.dim();
        let (mut min, mut max, mut nnz) = (vec![0.0; dim], vec![0.0; dim], vec![0u64; dim]);
        let mut ones = |j: usize, count: u64| {
            if count > 0 {
                (min[j], max[j], nnz[j]) = (1.0, 1.0, count);
            }
        };
        let tallies = survey
            .tallies
            .iter()
            .enumerate()
            .filter(|(k, _)| *k != survey.label);
        let mut numeric = Vec::new();
        for (c, (_, t)) in self.columns.iter().zip(tallies) {
            let at = c.first;
            match &c.encoding {
                Encoding::Numeric { mean, indicator } => {
                    numeric.push((at, t, *mean));
                    if *indicator {
                        ones(at + 1, t.missing);
                    }
                }
                Encoding::OneHot { kept, missing } => {
                    let count = |k: &str| {
                        t.text_counts.get(k).copied().unwrap_or(0)
                            + t.number_counts
                                .as_ref()
                                .and_then(|n| n.get(k))
                                .copied()
                                .unwrap_or(0)
                    };
                    let mut in_kept = 0;
                    for (i, k) in kept.iter().enumerate() {
                        let n = count(k);
                        in_kept += n;
                        ones(at + i, n);
                    }
                    ones(at + kept.len(), t.numbers + t.texts - in_kept);
                    if *missing {
                        ones(at + kept.len() + 1, t.missing);
                    }
                }
                Encoding::Hashed { buckets, missing } => {
                    if t.overflow || (t.numbers > 0 && t.number_counts.is_none()) {
                        return None;
                    }
                    let mut per = vec![0u64; *buckets as usize];
                    let numbers = t.number_counts.iter().flatten();
                    for (k, n) in t.text_counts.iter().chain(numbers) {
                        per[super::encode::bucket(k, *buckets)] += n;
                    }
                    for (b, n) in per.into_iter().enumerate() {
                        ones(at + b, n);
                    }
                    if *missing {
                        ones(at + *buckets as usize, t.missing);
                    }
                }
            }
        }
        for (j, t, mean) in numeric {
            (min[j], max[j], nnz[j]) = (t.nonzero_min, t.nonzero_max, t.nonzero);
            if mean != 0.0 && t.missing > 0 {
                if nnz[j] == 0 {
                    (min[j], max[j]) = (mean, mean);
                } else {
                    min[j] = min[j].min(mean);
                    max[j] = max[j].max(mean);
                }
                nnz[j] += t.missing;
            }
        }
        Some(crate::FeatureRanges::from_parts(min, max, nnz, survey.rows))
    }

    /// Checks a decoded schema (from a model file): offsets in order, widths bounded, the label
    /// map's positive values among its values.
    pub fn validate(&self) -> Result<(), String> {
        let mut first = 0usize;
        for c in &self.columns {
            if c.first != first {
                return Err(format!(
                    "column \"{}\" starts at feature {}, not {first}",
                    c.name, c.first
                ));
            }
            if let Encoding::Hashed { buckets: 0, .. } = c.encoding {
                return Err(format!("column \"{}\" is hashed into 0 features", c.name));
            }
            if let Encoding::Numeric { mean, .. } = c.encoding
                && !mean.is_finite()
            {
                return Err(format!(
                    "column \"{}\" has a mean that is not finite",
                    c.name
                ));
            }
            first = first
                .checked_add(c.encoding.width())
                .filter(|&f| f <= 1 << 31)
                .ok_or_else(|| "the table has more than 2^31 features".to_owned())?;
        }
        if self
            .label
            .positive
            .iter()
            .any(|p| !self.label.counts.iter().any(|(k, _)| k == p))
        {
            return Err("a positive label value is not among the label's values".to_owned());
        }
        Ok(())
    }
}

/// The encoding of a categorical column.
fn categories(tally: &Tally, options: &TableOptions) -> Encoding {
    let missing = tally.missing > 0;
    let buckets = options.max_one_hot.clamp(1, u32::MAX as usize) as u32;
    let numbers_lost = tally.numbers > 0 && tally.number_counts.is_none();
    if tally.overflow || numbers_lost {
        return Encoding::Hashed { buckets, missing };
    }
    let mut all: Vec<(&String, u64)> = tally.text_counts.iter().map(|(k, c)| (k, *c)).collect();
    if let Some(n) = &tally.number_counts {
        all.extend(n.iter().map(|(k, c)| (k, *c)));
    }
    all.retain(|(_, c)| *c >= options.min_count.max(1));
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    if all.len() > options.max_one_hot {
        return Encoding::Hashed { buckets, missing };
    }
    Encoding::OneHot {
        kept: all.into_iter().map(|(k, _)| k.clone()).collect(),
        missing,
    }
}
