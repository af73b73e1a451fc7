//! `auc friedman`: average ranks, the Friedman test and the Nemenyi critical difference over a
//! table of scores (Demsar 2006). When the Iman-Davenport F statistic is not defined (every data
//! set ranks the methods alike, so the chi-square statistic reaches its maximum) or there are too
//! few data sets for its approximation, the chi-square test is reported instead and the output
//! says why; a test is never "rejected" from an infinite statistic.

use std::path::Path;

use auc_eval::stats;
use serde_json::json;

use crate::output::{Error, line};

/// Reads a `name,method..` score table; errors name file, line and column.
fn read_score_table(path: &Path) -> Result<(Vec<String>, Vec<Vec<f64>>), Error> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, header) = lines
        .next()
        .ok_or_else(|| format!("{}: the table is empty", path.display()))?;
    let methods: Vec<String> = header
        .split(',')
        .skip(1)
        .map(|m| m.trim().to_owned())
        .collect();
    if methods.len() < 2 {
        return Err(format!(
            "{}:1:1: expected a header `name,METHOD1,METHOD2,..` with at least two methods",
            path.display()
        )
        .into());
    }
    let mut rows = Vec::new();
    for (i, l) in lines {
        let mut row = Vec::with_capacity(methods.len());
        let mut col = l.find(',').map_or(l.len(), |k| k + 1) + 1;
        for field in l.split(',').skip(1) {
            let t = field.trim();
            let v: f64 = t.parse().map_err(|_| {
                format!(
                    "{}:{}:{col}: expected a number, found `{t}`",
                    path.display(),
                    i + 1
                )
            })?;
            if !v.is_finite() {
                return Err(format!(
                    "{}:{}:{col}: score `{t}` is not finite",
                    path.display(),
                    i + 1
                )
                .into());
            }
            row.push(v);
            col += field.len() + 1;
        }
        if row.len() != methods.len() {
            return Err(format!(
                "{}:{}:1: expected {} scores (one per method in the header), found {}",
                path.display(),
                i + 1,
                methods.len(),
                row.len()
            )
            .into());
        }
        rows.push(row);
    }
    Ok((methods, rows))
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
        f.alpha,
        test.p_value,
        if test.rejected {
            "rejected"
        } else {
            "not rejected"
        },
        test.note.map(|n| format!(" ({n})")).unwrap_or_default()
    ))
}
