//! `auc friedman`: average ranks, the Friedman test and the Nemenyi critical difference over a
//! table of scores (Demsar 2006). When the Iman-Davenport F statistic is not defined (every data
//! set ranks the methods alike, so the chi-square statistic reaches its maximum) or there are too
//! few data sets for its approximation, the chi-square test is reported instead and the output
//! says why; a test is never "rejected" from an infinite statistic. A level whose critical value
//! `f64` cannot resolve is an error (`StatsError::NoCriticalValue`), never `inf` or NaN.

use std::path::{Path, PathBuf};

use auc_eval::stats;
use serde_json::json;

use crate::output::{Error, line};

/// Reads a `name,method..` score table, split by the `csv` crate (RFC 4180: a quoted field may
/// hold commas, `name,"a,b",c` has the methods `a,b` and `c`); blank lines are skipped and
/// fields trimmed. Errors name file, line and byte column.
fn read_score_table(path: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), Error> {
    // Line by line under the data readers' line cap, so that an input without line ends is
    // refused instead of read whole.
    let mut text = String::new();
    crate::input::for_each_line(path, auc_data::DEFAULT_MAX_LINE_BYTES, |_, l| {
        text.push_str(l);
        text.push('\n');
        Ok(())
    })?;
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records().filter(|r| {
        r.as_ref()
            .map_or(true, |r| r.iter().any(|f| !f.trim().is_empty()))
    });
    let bad_csv = |e: csv::Error| -> Error {
        let line = e.position().map_or(0, csv::Position::line);
        format!("{}:{line}: {e}", path.display()).into()
    };
    let header = records
        .next()
        .ok_or_else(|| format!("{}: the table is empty", path.display()))?
        .map_err(bad_csv)?;
    let methods: Vec<String> = header.iter().skip(1).map(|m| m.trim().to_owned()).collect();
    if methods.len() < 2 {
        return Err(format!(
            "{}:1:1: expected a header `name,METHOD1,METHOD2,..` with at least two methods",
            path.display()
        )
        .into());
    }
    let mut rows = Vec::new();
    for record in records {
        let record = record.map_err(bad_csv)?;
        let (line, start) = record.position().map_or((0, 0), |p| {
            (p.line(), usize::try_from(p.byte()).unwrap_or(0))
        });
        let mut row = Vec::with_capacity(methods.len());
        for (k, field) in record.iter().enumerate().skip(1) {
            let t = field.trim();
            let col = field_column(&text, start, k);
            let v: f64 = t.parse().map_err(|_| {
                format!(
                    "{}:{line}:{col}: expected a number, found `{t}`",
                    path.display()
                )
            })?;
            if !v.is_finite() {
                return Err(
                    format!("{}:{line}:{col}: score `{t}` is not finite", path.display()).into(),
                );
            }
            row.push(v);
        }
        if row.len() != methods.len() {
            return Err(format!(
                "{}:{line}:1: expected {} scores (one per method in the header), found {}",
                path.display(),
                methods.len(),
                row.len()
            )
            .into());
        }
        rows.push(row);
    }
    Ok((methods, rows))
}

/// The 1-based byte column of field `k` (0-based) of the record starting at byte `start` of
/// `text`, counting commas outside quotes as the `csv` crate does; a field on a later line of
/// a record (after a quoted line break) is counted from that line.
fn field_column(text: &str, start: usize, k: usize) -> usize {
    let bytes = text.as_bytes().get(start..).unwrap_or_default();
    let (mut field, mut quoted, mut line_start) = (0, false, 0);
    for (i, &b) in bytes.iter().enumerate() {
        if field == k {
            return i - line_start + 1;
        }
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => field += 1,
            b'\n' => line_start = i + 1,
            _ => {}
        }
    }
    bytes.len() - line_start + 1
}

/// Runs the command.
pub(crate) fn run(table: &Path, alpha: f64, as_json: bool) -> Result<(), Error> {
    let (methods, rows) = read_score_table(table)?;
    let avg = stats::average_ranks(&rows)?;
    let f = stats::friedman(&rows, alpha)?;
    let cd = stats::nemenyi_cd(f.k, f.n, alpha)?;
    let mut order: Vec<usize> = (0..avg.len()).collect();
    order.sort_by(|&x, &y| avg[x].total_cmp(&avg[y]));
    let best = order[0];
    let test = f.decision();
    if as_json {
        let ranks: Vec<_> = order
            .iter()
            .map(|&j| json!({"method": methods[j], "rank": avg[j], "differs_from_best": avg[j] - avg[best] > cd}))
            .collect();
        return line(json!({
            "methods": f.k, "observations": f.n, "chi2": f.chi2,
            "ff": if f.ff.is_finite() { json!(f.ff) } else { json!(null) },
            "df1": f.df1, "df2": f.df2,
            "test": test.name, "statistic": test.statistic, "p_value": test.p_value,
            "critical_value": test.critical_value, "alpha": f.alpha, "rejected": test.rejected,
            "note": test.note, "cd": cd, "ranks": ranks,
        }));
    }
    line(format!(
        "{:<20} {:>8} {:>10}  vs {} (CD {cd:.4})",
        "method", "rank", "diff", methods[best]
    ))?;
    for &j in &order {
        let d = avg[j] - avg[best];
        let verdict = if j == best {
            ""
        } else if d > cd {
            "differs"
        } else {
            "not significant"
        };
        line(format!(
            "{:<20} {:>8.4} {:>10.4}  {verdict}",
            methods[j], avg[j], d
        ))?;
    }
    line(format!(
        "Friedman ({}): statistic {:.4}, critical value {:.4} at alpha {}, p = {:.3e}: null hypothesis {}{}",
        test.name,
        test.statistic,
        test.critical_value,
        auc_core::shortest(f.alpha),
        test.p_value,
        if test.rejected {
            "rejected"
        } else {
            "not rejected"
        },
        test.note.map(|n| format!(" ({n})")).unwrap_or_default()
    ))
}

/// Flags of `auc friedman`.
#[derive(clap::Args, Debug)]
pub(crate) struct FriedmanArgs {
    /// CSV table: a header `name,METHOD1,METHOD2,..`, then one row per observation (data set or
    /// metric) with its name and each method's score (higher is better).
    pub(crate) table: PathBuf,
    /// Significance level.
    #[arg(long, default_value_t = 0.05)]
    pub(crate) alpha: f64,
    /// Print one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
}
