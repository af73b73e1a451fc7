//! `auc metrics --multiclass ovr|ovo`: the multiclass AUC of a file of K score columns against a
//! file of class labels (`auc_eval::multiclass`). The classes are the distinct labels in
//! increasing order, and column c of the scores file is the score of the c-th of them.

use std::path::Path;

use auc_eval::multiclass::{self, Average, Scheme};
use serde_json::json;

use crate::input::ReadArgs;
use crate::output::{Error, line};

/// `--multiclass`: how the classes are reduced to binary AUCs.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum SchemeArg {
    /// One class against the rest, ranked by its own column.
    Ovr,
    /// Hand and Till: every pair of classes, both directions, on the pair's rows.
    Ovo,
}

/// `--average`: how the per-class or per-pair AUCs are averaged.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum AverageArg {
    /// The plain mean.
    Macro,
    /// Weighted by prevalence (a class's rows; a pair's rows).
    Weighted,
}

impl SchemeArg {
    fn scheme(self) -> Scheme {
        match self {
            SchemeArg::Ovr => Scheme::OneVsRest,
            SchemeArg::Ovo => Scheme::OneVsOne,
        }
    }
}

impl AverageArg {
    fn average(self) -> Average {
        match self {
            AverageArg::Macro => Average::Macro,
            AverageArg::Weighted => Average::Weighted,
        }
    }
}

/// What the multiclass route of `auc metrics` needs.
pub(crate) struct MulticlassRequest<'a> {
    pub(crate) scores: &'a Path,
    pub(crate) labels: &'a Path,
    pub(crate) read: &'a ReadArgs,
    pub(crate) scheme: SchemeArg,
    pub(crate) average: AverageArg,
    pub(crate) json: bool,
}

/// Reads the labels and the score matrix, and prints the multiclass AUC.
pub(crate) fn run(r: &MulticlassRequest<'_>) -> Result<(), Error> {
    let raw = r.read.read(&[r.labels.to_path_buf()], None)?;
    let mut classes: Vec<f64> = raw.raw_labels().to_vec();
    classes.sort_by(f64::total_cmp);
    classes.dedup();
    let k = classes.len();
    if k < 2 {
        return Err(format!(
            "{} holds {k} distinct label(s); a multiclass AUC needs at least 2",
            r.labels.display()
        )
        .into());
    }
    let labels: Vec<usize> = raw
        .raw_labels()
        .iter()
        .map(|v| classes.partition_point(|c| c.total_cmp(v).is_lt()))
        .collect();
    let (scores, rows) = read_matrix(r.scores, r.read.max_line_bytes(), k, &classes)?;
    if rows != labels.len() {
        return Err(format!(
            "{} holds {rows} rows of scores but {} holds {} labels",
            r.scores.display(),
            r.labels.display(),
            labels.len()
        )
        .into());
    }
    let (scheme, average) = (r.scheme.scheme(), r.average.average());
    let value = multiclass::multiclass_auc(&scores, k, &labels, scheme, average)?;
    if r.json {
        line(json!({
            "auc": value,
            "multiclass": scheme.name(),
            "average": average.name(),
            "classes": classes,
            "n": labels.len(),
        }))
    } else {
        line(format!("AUC ({scheme}, {average}, {k} classes) {value:.6}"))
    }
}

/// Reads `k` finite scores per non-blank line, separated by commas (a line with a comma) or by
/// whitespace. Returns the scores row by row and the number of rows; errors name the file, the
/// line and the (1-based, in characters) column. No line may be longer than `max_line_bytes`.
fn read_matrix(
    path: &Path,
    max_line_bytes: usize,
    k: usize,
    classes: &[f64],
) -> Result<(Vec<f64>, usize), Error> {
    let mut scores = Vec::new();
    let mut rows = 0;
    crate::input::for_each_line(path, max_line_bytes, |no, l| {
        if l.trim().is_empty() {
            return Ok(());
        }
        let at = |byte: usize| format!("{}:{no}:{}", path.display(), l[..byte].chars().count() + 1);
        let fields = split_fields(l);
        if fields.len() != k {
            let (byte, _) = fields.get(k).copied().unwrap_or((l.len(), ""));
            return Err(format!(
                "{}: expected {k} scores (one per class, in increasing label order: {}), found {}",
                at(byte),
                class_list(classes),
                fields.len()
            )
            .into());
        }
        for (byte, field) in fields {
            let v: f64 = field
                .parse()
                .map_err(|_| format!("{}: expected a number, found `{field}`", at(byte)))?;
            if !v.is_finite() {
                return Err(format!("{}: score `{field}` is not finite", at(byte)).into());
            }
            scores.push(v);
        }
        rows += 1;
        Ok(())
    })?;
    Ok((scores, rows))
}

/// The fields of a line with their byte offsets: split at commas when the line has one (each
/// field trimmed), else at runs of whitespace.
fn split_fields(l: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    if l.contains(',') {
        let mut start = 0;
        for piece in l.split(',') {
            let lead = piece.len() - piece.trim_start().len();
            out.push((start + lead, piece.trim()));
            start += piece.len() + 1;
        }
    } else {
        let mut rest = l;
        let mut offset = 0;
        while let Some(s) = rest.find(|c: char| !c.is_whitespace()) {
            let tail = &rest[s..];
            let len = tail.find(char::is_whitespace).unwrap_or(tail.len());
            out.push((offset + s, &tail[..len]));
            offset += s + len;
            rest = &tail[len..];
        }
    }
    out
}

/// The classes as the user wrote them (integers without a fraction), comma separated.
fn class_list(classes: &[f64]) -> String {
    classes
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_their_offsets() {
        assert_eq!(
            split_fields("  0.1 0.2\t0.7 "),
            vec![(2, "0.1"), (6, "0.2"), (10, "0.7")]
        );
        assert_eq!(
            split_fields("0.1, 0.2,,0.7"),
            vec![(0, "0.1"), (5, "0.2"), (9, ""), (10, "0.7")]
        );
    }
}
