//! Small hand-written SVG line charts for the reproduction reports (no plotting dependency).

use std::fmt::Write as _;

/// Colours of the lines, in order.
const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
];

/// One line of a panel: its label and its `(x, y)` points.
pub(crate) type Line = (String, Vec<(f64, f64)>);
/// One panel: its title and its lines.
pub(crate) type Panel = (String, Vec<Line>);

/// A grid of panels (two per row), each `(title, lines)` with `lines = [(label, [(x, y)])]`,
/// linear axes fitted to each panel's data.
pub(crate) fn panels(title: &str, panels: &[Panel]) -> String {
    panels_x(title, panels, "examples seen")
}

/// As [`panels`], with `x_label` under each panel's x axis.
pub(crate) fn panels_x(title: &str, panels: &[Panel], x_label: &str) -> String {
    let (pw, ph) = (420.0, 280.0);
    let cols = 2usize;
    let rows = panels.len().div_ceil(cols).max(1);
    let (w, h) = (pw * cols as f64, 40.0 + ph * rows as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="13">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    for (k, (name, lines)) in panels.iter().enumerate() {
        let (ox, oy) = (pw * (k % cols) as f64, 40.0 + ph * (k / cols) as f64);
        let (left, right, top, bottom) = (ox + 50.0, ox + pw - 110.0, oy + 20.0, oy + ph - 35.0);
        let pts = lines.iter().flat_map(|(_, p)| p.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !x0.is_finite() {
            continue;
        }
        let (y0, y1) = (
            (y0 * 20.0).floor() / 20.0,
            ((y1 * 20.0).ceil() / 20.0).max(y0 + 0.05),
        );
        let sx = |x: f64| left + (x - x0) / (x1 - x0).max(1e-12) * (right - left);
        let sy = |y: f64| bottom - (y - y0) / (y1 - y0).max(1e-12) * (bottom - top);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{}</text>"#,
            (left + right) / 2.0,
            oy + 12.0,
            escape(name)
        );
        let _ = writeln!(
            s,
            r##"<rect x="{left}" y="{top}" width="{}" height="{}" fill="none" stroke="#999"/>"##,
            right - left,
            bottom - top
        );
        for i in 0..=4 {
            let yv = y0 + (y1 - y0) * i as f64 / 4.0;
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{:.1}" text-anchor="end">{yv:.2}</text><line x1="{left}" x2="{right}" y1="{:.1}" y2="{:.1}" stroke="#eee"/>"##,
                left - 4.0,
                sy(yv) + 4.0,
                sy(yv),
                sy(yv)
            );
            let xv = x0 + (x1 - x0) * i as f64 / 4.0;
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{xv:.0}</text>"#,
                sx(xv),
                bottom + 14.0
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (left + right) / 2.0,
            bottom + 28.0,
            escape(x_label)
        );
        for (j, (label, p)) in lines.iter().enumerate() {
            let c = COLOURS[j % COLOURS.len()];
            let points = p
                .iter()
                .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
                .collect::<Vec<_>>()
                .join(" ");
            let _ = writeln!(
                s,
                r#"<polyline fill="none" stroke="{c}" stroke-width="1.5" points="{points}"/>"#
            );
            let ly = top + 12.0 + 16.0 * j as f64;
            let _ = writeln!(
                s,
                r#"<line x1="{}" x2="{}" y1="{ly}" y2="{ly}" stroke="{c}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
                right + 8.0,
                right + 28.0,
                right + 32.0,
                ly + 4.0,
                escape(label)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

/// One heatmap: its title, row labels, column labels and `values[row][col]`.
pub(crate) type Heat = (String, Vec<String>, Vec<String>, Vec<Vec<f64>>);

/// A grid of heatmaps (three per row). Each cell is shaded by its drop below the panel's best
/// value (white = best, dark = the panel's worst) and printed with that drop, as [CVM fig. 4]
/// shows the performance drop from the best result; `row_name` and `col_name` label the axes.
pub(crate) fn heatmaps(title: &str, maps: &[Heat], row_name: &str, col_name: &str) -> String {
    let (cw, ch) = (44.0, 22.0);
    let cols = 3usize;
    let (mr, mc) = maps
        .iter()
        .fold((1, 1), |(r, c), m| (r.max(m.1.len()), c.max(m.2.len())));
    let (pw, ph) = (70.0 + cw * mc as f64 + 20.0, 50.0 + ch * mr as f64 + 40.0);
    let rows = maps.len().div_ceil(cols).max(1);
    let (w, h) = (
        pw * cols.min(maps.len().max(1)) as f64,
        40.0 + ph * rows as f64,
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="10">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="13">{}</text>"#,
        w / 2.0,
        escape(title)
    );
    for (k, (name, rl, cl, v)) in maps.iter().enumerate() {
        let (ox, oy) = (pw * (k % cols) as f64, 40.0 + ph * (k / cols) as f64);
        let (left, top) = (ox + 60.0, oy + 30.0);
        let flat = v.iter().flatten().copied().filter(|x| x.is_finite());
        let best = flat.clone().fold(f64::NEG_INFINITY, f64::max);
        let worst = flat.fold(f64::INFINITY, f64::min);
        let span = (best - worst).max(1e-12);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{} (best {best:.4})</text>"#,
            left + cw * cl.len() as f64 / 2.0,
            oy + 16.0,
            escape(name)
        );
        for (i, row) in v.iter().enumerate() {
            let y = top + ch * i as f64;
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                left - 4.0,
                y + ch / 2.0 + 3.0,
                escape(rl.get(i).map_or("", String::as_str))
            );
            for (j, &x) in row.iter().enumerate() {
                let t = if x.is_finite() {
                    (best - x) / span
                } else {
                    1.0
                };
                let shade = (255.0 - 200.0 * t).round() as u8;
                let fill = format!("rgb({shade},{shade},255)");
                let text = if t > 0.6 { "white" } else { "black" };
                let xx = left + cw * j as f64;
                let _ = writeln!(
                    s,
                    r#"<rect x="{xx}" y="{y}" width="{cw}" height="{ch}" fill="{fill}" stroke="white"/><text x="{}" y="{}" text-anchor="middle" fill="{text}">{:.3}</text>"#,
                    xx + cw / 2.0,
                    y + ch / 2.0 + 3.0,
                    best - x
                );
            }
        }
        let bottom = top + ch * v.len() as f64;
        for (j, c) in cl.iter().enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
                left + cw * j as f64 + cw / 2.0,
                bottom + 12.0,
                escape(c)
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text><text x="{}" y="{}" text-anchor="middle" transform="rotate(-90 {} {})">{}</text>"#,
            left + cw * cl.len() as f64 / 2.0,
            bottom + 26.0,
            escape(col_name),
            ox + 14.0,
            top + ch * v.len() as f64 / 2.0,
            ox + 14.0,
            top + ch * v.len() as f64 / 2.0,
            escape(row_name)
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_draw_one_polyline_per_line_and_skip_empty_panels() {
        let p = vec![
            (
                "a".to_owned(),
                vec![
                    ("x".to_owned(), vec![(0.0, 0.5), (10.0, 0.9)]),
                    ("y".to_owned(), vec![(0.0, 0.6), (10.0, 0.7)]),
                ],
            ),
            ("b".to_owned(), vec![]),
        ];
        let svg = panels("t <1>", &p);
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("t &lt;1&gt;"));
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn heatmaps_draw_one_cell_per_value_with_its_drop_from_the_best() {
        let m = vec![(
            "auc".to_owned(),
            vec!["r1".to_owned(), "r2".to_owned()],
            vec!["c1".to_owned()],
            vec![vec![0.9], vec![0.7]],
        )];
        let svg = heatmaps("t", &m, "C1", "C2");
        assert_eq!(svg.matches("<rect x=").count(), 2);
        assert!(svg.contains(">0.000<") && svg.contains(">0.200<"));
        assert!(svg.ends_with("</svg>\n"));
    }
}
