//! Reading data files as the command line describes them.

use std::path::{Path, PathBuf};

use auc_core::Dataset;
use auc_data::{CsvOptions, Format, LabelColumn, Positive, RawData, ReadOptions};
use clap::Args;

use crate::output::Error;

/// How to read data files: the flags shared by every command that reads them.
#[derive(Args, Debug, Clone)]
pub(crate) struct ReadArgs {
    /// File format; `auto` reads `.csv`/`.tsv` files as CSV and everything else as LIBSVM.
    #[arg(long, value_enum, default_value = "auto")]
    format: FormatArg,
    /// CSV label column: a 0-based position, a header name, or `last`.
    #[arg(long, default_value = "0", value_name = "COLUMN")]
    label_column: String,
    /// CSV field delimiter (one character; `tab` for tabs).
    #[arg(long, default_value = ",")]
    delimiter: String,
    /// Label value(s) of the positive class, comma separated; default: the minority class
    /// (fewest examples, ties to the smaller label).
    #[arg(
        long,
        value_name = "LABEL[,LABEL..]",
        value_delimiter = ',',
        allow_negative_numbers = true
    )]
    pub(crate) positive: Option<Vec<f64>>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum FormatArg {
    Auto,
    Libsvm,
    Csv,
}

impl ReadArgs {
    /// Reader options for one file, with an optional forced dimension and row limit.
    fn options(&self, dim: Option<usize>, limit: Option<usize>) -> Result<ReadOptions, Error> {
        let delimiter = match self.delimiter.as_str() {
            "tab" | "\\t" => b'\t',
            d if d.len() == 1 => d.as_bytes()[0],
            d => {
                return Err(
                    format!("--delimiter must be one character or `tab`, got `{d}`").into(),
                );
            }
        };
        let label = match self.label_column.as_str() {
            "last" => LabelColumn::Last,
            c => match c.parse::<usize>() {
                Ok(i) => LabelColumn::Index(i),
                Err(_) => LabelColumn::Name(c.to_owned()),
            },
        };
        let format = match self.format {
            FormatArg::Auto => Format::Auto,
            FormatArg::Libsvm => Format::Libsvm,
            FormatArg::Csv => Format::Csv,
        };
        Ok(ReadOptions {
            dim,
            limit,
            format,
            csv: CsvOptions {
                label,
                delimiter,
                ..CsvOptions::default()
            },
            ..ReadOptions::default()
        })
    }

    /// Reads and concatenates `paths` (in order), keeping at most `limit` examples.
    pub(crate) fn read_all(
        &self,
        paths: &[PathBuf],
        limit: Option<usize>,
    ) -> Result<RawData, Error> {
        let mut parts = Vec::with_capacity(paths.len());
        let mut left = limit;
        for path in paths {
            if left == Some(0) {
                break;
            }
            let part = auc_data::read_path(path, &self.options(None, left)?)?;
            left = left.map(|l| l - part.n());
            parts.push(part);
        }
        Ok(RawData::concat(parts))
    }

    /// Reads one file.
    pub(crate) fn read_one(&self, path: &Path) -> Result<RawData, Error> {
        Ok(auc_data::read_path(path, &self.options(None, None)?)?)
    }

    /// The positive-class rule resolved to labels on `reference` (explicit labels, else its
    /// minority class), so that a second file (a test set) uses the same class.
    pub(crate) fn positive_for(&self, reference: &RawData) -> Result<Positive, Error> {
        let rule = match &self.positive {
            Some(labels) => Positive::Labels(labels.clone()),
            None => Positive::Minority,
        };
        Ok(Positive::Labels(reference.positive_labels(&rule)?))
    }
}

/// Training data and an optional test set with the same dimension and positive class.
pub(crate) fn train_and_test(
    read: &ReadArgs,
    data: &[PathBuf],
    test: Option<&Path>,
    limit: Option<usize>,
) -> Result<(Dataset, Option<Dataset>), Error> {
    let mut train = read.read_all(data, limit)?;
    let positive = read.positive_for(&train)?;
    let Some(test_path) = test else {
        return Ok((train.binarize(&positive)?, None));
    };
    let mut test = read.read_one(test_path)?;
    let dim = train.dim().max(test.dim());
    train = train.with_dim(dim)?;
    test = test.with_dim(dim)?;
    Ok((train.binarize(&positive)?, Some(test.binarize(&positive)?)))
}

/// A short name for a file list, for reports: the first file's name, `+N` for more.
pub(crate) fn dataset_name(paths: &[PathBuf]) -> String {
    let first = paths
        .first()
        .map(|p| {
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .unwrap_or_default();
    match paths.len() {
        0 | 1 => first,
        n => format!("{first}+{}", n - 1),
    }
}
