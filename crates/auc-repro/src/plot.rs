//! The reproductions' figures as SVG documents, drawn with `plotters` (its SVG backend writes
//! text elements, so no fonts are needed, as in the `auc` command's ROC and AUC curves):
//!
//! - [`panels`]: a grid of line charts, one panel per data set or measure (the convergence
//!   curves of [ADM fig. 1], the epsilon study of [CVM fig. 5]);
//! - [`heatmaps`]: a grid of heatmaps printed with each cell's drop from the panel's best value
//!   ([CVM fig. 4]);
//! - [`log_log`]: lines on logarithmic axes, solid or dashed (the regret against its bound,
//!   [OAUC Thm 6]).
//!
//! The layouts (sizes, colours, legends right of each panel) are those of the hand-written SVG
//! these functions replaced, so that a figure drawn again shows the same data the same way.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Colours of the lines, in order.
const COLOURS: [RGBColor; 6] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x8c, 0x56, 0x4b),
];

/// The grid lines behind the data.
const GRID: RGBColor = RGBColor(0xee, 0xee, 0xee);

/// Height of the band above the panels that holds the figure's title.
const TITLE_BAND: u32 = 40;

/// One line of a panel: its label and its `(x, y)` points.
pub(crate) type Line = (String, Vec<(f64, f64)>);
/// One panel: its title and its lines.
pub(crate) type Panel = (String, Vec<Line>);
/// One heatmap: its title, row labels, column labels and `values[row][col]`.
pub(crate) type Heat = (String, Vec<String>, Vec<String>, Vec<Vec<f64>>);

/// A drawing error as the reproductions report it.
fn drawing<E: std::fmt::Debug>(e: E) -> String {
    format!("cannot draw the figure: {e:?}")
}

/// A text style of `size` pixels anchored at `h` and the vertical centre.
fn text(size: u32, h: HPos) -> TextStyle<'static> {
    ("sans-serif", size)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(h, VPos::Center))
}

/// The figure's title, centred in the band above the panels.
fn title_band<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: &str,
) -> Result<(), String> {
    let w = root.dim_in_pixel().0;
    root.draw(&Text::new(
        title.to_owned(),
        (w as i32 / 2, 22),
        text(13, HPos::Center),
    ))
    .map_err(drawing)
}

/// Draws the legend of `labels` (colours in order) at `(x, y)` of `area`, one row per label.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    (x, y): (i32, i32),
    labels: &[(&str, RGBColor)],
) -> Result<(), String> {
    for (j, (label, c)) in labels.iter().enumerate() {
        let ly = y + 16 * j as i32;
        area.draw(&PathElement::new(
            vec![(x, ly), (x + 20, ly)],
            c.stroke_width(2),
        ))
        .map_err(drawing)?;
        area.draw(&Text::new(
            (*label).to_owned(),
            (x + 24, ly),
            text(11, HPos::Left),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// An axis label of `v` on an axis spanning `span`: as many decimals as tell its ticks apart
/// (two on an AUC axis, none on a count).
fn tick(v: f64, span: f64) -> String {
    let decimals = (1.0 - span.log10().floor()).clamp(0.0, 4.0) as usize;
    // `+ 0.0` prints -0 as 0.
    format!("{:.*}", decimals, v + 0.0)
}

/// A grid of panels (two per row), each `(title, lines)` with `lines = [(label, [(x, y)])]`,
/// linear axes fitted to each panel's data (y in steps of 0.05), `x_label` under each x axis.
/// A panel without points is left blank.
pub(crate) fn panels(title: &str, panels: &[Panel], x_label: &str) -> Result<String, String> {
    let (pw, ph, cols) = (420u32, 280u32, 2usize);
    let rows = panels.len().div_ceil(cols).max(1);
    let mut svg = String::new();
    {
        let size = (pw * cols as u32, TITLE_BAND + ph * rows as u32);
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        title_band(&root, title)?;
        let (_, body) = root.split_vertically(TITLE_BAND);
        for (area, (name, lines)) in body.split_evenly((rows, cols)).iter().zip(panels) {
            let (mut x0, mut x1, mut y0, mut y1) = (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            );
            for &(x, y) in lines.iter().flat_map(|(_, p)| p.iter()) {
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
            let x1 = x1.max(x0 + 1e-12);
            let mut chart = ChartBuilder::on(area)
                .caption(name, ("sans-serif", 12))
                .margin(6)
                .margin_right(110)
                .x_label_area_size(30)
                .y_label_area_size(44)
                .build_cartesian_2d(x0..x1, y0..y1)
                .map_err(drawing)?;
            chart
                .configure_mesh()
                .x_labels(5)
                .y_labels(5)
                .x_label_formatter(&|x| tick(*x, x1 - x0))
                .y_label_formatter(&|y| tick(*y, y1 - y0))
                .x_desc(x_label)
                .bold_line_style(GRID)
                .light_line_style(TRANSPARENT)
                .draw()
                .map_err(drawing)?;
            let mut labels = Vec::new();
            for (j, (label, p)) in lines.iter().enumerate() {
                let c = COLOURS[j % COLOURS.len()];
                chart
                    .draw_series(LineSeries::new(p.iter().copied(), c.stroke_width(2)))
                    .map_err(drawing)?;
                labels.push((label.as_str(), c));
            }
            legend(area, (pw as i32 - 102, 32), &labels)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// A grid of heatmaps (three per row). Each cell is shaded by its drop below the panel's best
/// value (white = best, dark = the panel's worst) and printed with that drop, as [CVM fig. 4]
/// shows the performance drop from the best result; `row_name` and `col_name` label the axes.
pub(crate) fn heatmaps(
    title: &str,
    maps: &[Heat],
    row_name: &str,
    col_name: &str,
) -> Result<String, String> {
    let (cw, ch) = (44i32, 22i32);
    let cols = 3usize;
    let (mr, mc) = maps
        .iter()
        .fold((1, 1), |(r, c), m| (r.max(m.1.len()), c.max(m.2.len())));
    let (pw, ph) = (70 + cw * mc as i32 + 20, 50 + ch * mr as i32 + 40);
    let rows = maps.len().div_ceil(cols).max(1);
    let size = (
        pw as u32 * cols.min(maps.len().max(1)) as u32,
        TITLE_BAND + ph as u32 * rows as u32,
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        title_band(&root, title)?;
        let small = |h| text(10, h);
        for (k, (name, rl, cl, v)) in maps.iter().enumerate() {
            let (ox, oy) = (
                pw * (k % cols) as i32,
                TITLE_BAND as i32 + ph * (k / cols) as i32,
            );
            let (left, top) = (ox + 60, oy + 30);
            let flat = v.iter().flatten().copied().filter(|x| x.is_finite());
            let best = flat.clone().fold(f64::NEG_INFINITY, f64::max);
            let worst = flat.fold(f64::INFINITY, f64::min);
            let span = (best - worst).max(1e-12);
            let centre = left + cw * cl.len() as i32 / 2;
            root.draw(&Text::new(
                format!("{name} (best {best:.4})"),
                (centre, oy + 12),
                text(12, HPos::Center),
            ))
            .map_err(drawing)?;
            for (i, row) in v.iter().enumerate() {
                let y = top + ch * i as i32;
                let label = rl.get(i).map_or("", String::as_str).to_owned();
                root.draw(&Text::new(
                    label,
                    (left - 4, y + ch / 2),
                    small(HPos::Right),
                ))
                .map_err(drawing)?;
                for (j, &x) in row.iter().enumerate() {
                    let t = if x.is_finite() {
                        (best - x) / span
                    } else {
                        1.0
                    };
                    let shade = (255.0 - 200.0 * t).round() as u8;
                    let xx = left + cw * j as i32;
                    let cell = [(xx, y), (xx + cw, y + ch)];
                    root.draw(&Rectangle::new(cell, RGBColor(shade, shade, 255).filled()))
                        .map_err(drawing)?;
                    root.draw(&Rectangle::new(cell, WHITE.stroke_width(1)))
                        .map_err(drawing)?;
                    let ink = if t > 0.6 { WHITE } else { BLACK };
                    root.draw(&Text::new(
                        format!("{:.3}", best - x),
                        (xx + cw / 2, y + ch / 2),
                        small(HPos::Center).color(&ink),
                    ))
                    .map_err(drawing)?;
                }
            }
            let bottom = top + ch * v.len() as i32;
            for (j, c) in cl.iter().enumerate() {
                root.draw(&Text::new(
                    c.clone(),
                    (left + cw * j as i32 + cw / 2, bottom + 9),
                    small(HPos::Center),
                ))
                .map_err(drawing)?;
            }
            root.draw(&Text::new(
                col_name.to_owned(),
                (centre, bottom + 23),
                small(HPos::Center),
            ))
            .map_err(drawing)?;
            root.draw(&Text::new(
                row_name.to_owned(),
                (ox + 14, top + ch * v.len() as i32 / 2),
                small(HPos::Center).transform(FontTransform::Rotate270),
            ))
            .map_err(drawing)?;
        }
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// One line of a [`log_log`] chart.
pub(crate) struct LogLine {
    /// Its legend entry, if it has one.
    pub(crate) label: Option<String>,
    /// Its colour, an index into the palette.
    pub(crate) colour: usize,
    /// Dashed (a bound) or solid (a measurement).
    pub(crate) dashed: bool,
    /// Its `(x, y)` points, all positive.
    pub(crate) points: Vec<(f64, f64)>,
}

/// Lines on logarithmic axes (680 x 440): x over the data's range, y over whole decades around
/// it, `note` (if any) under the title, the labelled lines' legend on the right.
pub(crate) fn log_log(
    title: &str,
    note: Option<&str>,
    lines: &[LogLine],
    x_label: &str,
) -> Result<String, String> {
    let pts = || lines.iter().flat_map(|l| l.points.iter());
    let fold = |f: fn(f64, f64) -> f64, init: f64, pick: fn(&(f64, f64)) -> f64| {
        pts().map(pick).fold(init, f)
    };
    let (x0, x1) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, f64::NEG_INFINITY, |p| p.0),
    );
    let (y0, y1) = (
        10f64.powf(fold(f64::min, f64::INFINITY, |p| p.1).log10().floor()),
        10f64.powf(fold(f64::max, f64::NEG_INFINITY, |p| p.1).log10().ceil()),
    );
    // A hair wider, so that the decades at the ends are labelled despite rounding in log10.
    let widen = |lo: f64, hi: f64| (lo * (1.0 - 1e-9), hi * (1.0 + 1e-9));
    let ((x0, x1), (y0, y1)) = (widen(x0, x1), widen(y0, y1));
    if !(x0 > 0.0 && x0 < x1 && y0 > 0.0 && y0 < y1) {
        return Err(format!("cannot draw `{title}`: no positive range"));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (680, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        root.draw(&Text::new(
            title.to_owned(),
            (340, 16),
            text(12, HPos::Center),
        ))
        .map_err(drawing)?;
        if let Some(note) = note {
            root.draw(&Text::new(
                note.to_owned(),
                (340, 32),
                text(10, HPos::Center),
            ))
            .map_err(drawing)?;
        }
        let (_, body) = root.split_vertically(TITLE_BAND);
        let mut chart = ChartBuilder::on(&body)
            .margin(6)
            .margin_right(150)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
            .map_err(drawing)?;
        let decades = |lo: f64, hi: f64| ((hi / lo).log10().round() as usize).max(1) + 1;
        chart
            .configure_mesh()
            .x_labels(decades(x0, x1))
            .y_labels(decades(y0, y1))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("1e{}", y.log10().round()))
            .x_desc(x_label)
            .bold_line_style(GRID)
            .light_line_style(TRANSPARENT)
            .draw()
            .map_err(drawing)?;
        let mut labels = Vec::new();
        for l in lines {
            let c = COLOURS[l.colour % COLOURS.len()];
            if l.dashed {
                chart
                    .draw_series(DashedLineSeries::new(
                        l.points.iter().copied(),
                        6,
                        4,
                        c.stroke_width(1),
                    ))
                    .map_err(drawing)?;
            } else {
                chart
                    .draw_series(LineSeries::new(l.points.iter().copied(), c.stroke_width(2)))
                    .map_err(drawing)?;
            }
            if let Some(label) = &l.label {
                labels.push((label.as_str(), c));
            }
        }
        legend(&root, (680 - 140, 60), &labels)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_draw_each_line_and_skip_empty_panels() {
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
        let svg = panels("t <1>", &p, "examples seen").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.contains("t &lt;1&gt;"));
        assert!(svg.contains("examples seen"));
        // Each line in its colour, once in the panel and once in the legend beside its label.
        for colour in ["#1F77B4", "#D62728"] {
            let drawn = format!("stroke=\"{colour}\" stroke-width=\"2\"");
            assert_eq!(svg.matches(&drawn).count(), 2, "{colour}: {svg}");
        }
        assert!(svg.contains("\nx\n") && svg.contains("\ny\n"), "{svg}");
    }

    #[test]
    fn ticks_have_the_decimals_their_axis_needs() {
        assert_eq!(tick(0.9, 0.35), "0.90");
        assert_eq!(tick(400.0, 580.0), "400");
        assert_eq!(tick(-2.5, 2.0), "-2.5");
        assert_eq!(tick(0.02, 0.04), "0.020");
        assert_eq!(tick(-0.0, 1.0), "0.0");
    }

    #[test]
    fn heatmaps_print_each_cell_with_its_drop_from_the_best() {
        let m = vec![(
            "auc".to_owned(),
            vec!["r1".to_owned(), "r2".to_owned()],
            vec!["c1".to_owned()],
            vec![vec![0.9], vec![0.7]],
        )];
        let svg = heatmaps("t", &m, "C1", "C2").unwrap();
        assert!(svg.contains("0.000") && svg.contains("0.200"), "{svg}");
        assert!(svg.contains("best 0.9000"));
        assert!(svg.contains("rotate(270"), "the row axis's name is turned");
    }

    #[test]
    fn log_log_draws_solid_and_dashed_lines_and_refuses_no_range() {
        let lines = [
            LogLine {
                label: Some("lambda = 1".to_owned()),
                colour: 0,
                dashed: false,
                points: vec![(100.0, 0.5), (1000.0, 0.8)],
            },
            LogLine {
                label: None,
                colour: 0,
                dashed: true,
                points: vec![(100.0, 100.0), (1000.0, 140.0)],
            },
        ];
        let svg = log_log("t", Some("n"), &lines, "T").unwrap();
        assert!(svg.contains("lambda = 1") && svg.contains("1e-1") && svg.contains("1e3"));
        assert!(log_log("t", None, &lines[..0], "T").is_err());
    }
}
