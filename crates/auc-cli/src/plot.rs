//! ROC points as CSV, and ROC and AUC curves as SVG drawn with `plotters` (no fonts needed: the
//! SVG backend writes text elements).

use auc_eval::metrics::RocPoint;
use plotters::prelude::*;

use crate::output::Error;

/// The ROC points as CSV: `fpr,tpr,threshold`, one row per point from (0, 0) to (1, 1).
pub(crate) fn roc_csv(roc: &[RocPoint]) -> String {
    let mut out = String::from("fpr,tpr,threshold\n");
    for p in roc {
        out.push_str(&format!(
            "{},{},{}\n",
            auc_core::shortest(p.fpr),
            auc_core::shortest(p.tpr),
            if p.threshold.is_finite() {
                auc_core::shortest(p.threshold)
            } else {
                "inf".to_owned()
            }
        ));
    }
    out
}

/// A plotting error as the command line reports it.
fn drawing<E: std::fmt::Debug>(e: E) -> Error {
    format!("cannot draw the plot: {e:?}").into()
}

/// The ROC curve with the chance diagonal, as an SVG document.
pub(crate) fn roc_svg(roc: &[RocPoint], title: &str) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (560, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(48)
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("false positive rate")
            .y_desc("true positive rate")
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], &BLACK.mix(0.3)))
            .map_err(drawing)?;
        chart
            .draw_series(LineSeries::new(
                roc.iter().map(|p| (p.fpr, p.tpr)),
                BLUE.stroke_width(2),
            ))
            .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// A curve `(x, y)` with AUC-like values in `[0, 1]` on the y axis, as an SVG document.
pub(crate) fn curve_svg(
    points: &[(f64, f64)],
    title: &str,
    x_desc: &str,
    y_desc: &str,
) -> Result<String, Error> {
    let x_max = points.iter().map(|p| p.0).fold(1.0f64, f64::max);
    let y_min = points
        .iter()
        .map(|p| p.1)
        .fold(0.5f64, f64::min)
        .clamp(0.0, 0.5);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 440)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(0f64..x_max, y_min..1f64)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                BLUE.stroke_width(2),
            ))
            .map_err(drawing)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roc() -> Vec<RocPoint> {
        vec![
            RocPoint {
                fpr: 0.0,
                tpr: 0.0,
                threshold: f64::INFINITY,
            },
            RocPoint {
                fpr: 0.0,
                tpr: 0.5,
                threshold: 0.9,
            },
            RocPoint {
                fpr: 1.0,
                tpr: 1.0,
                threshold: 0.1,
            },
        ]
    }

    #[test]
    fn roc_points_print_as_csv_and_draw_as_svg() {
        assert_eq!(
            roc_csv(&roc()),
            "fpr,tpr,threshold\n0,0,inf\n0,0.5,0.9\n1,1,0.1\n"
        );
        let svg = roc_svg(&roc(), "ROC").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.contains("false positive rate"));
        let c = curve_svg(&[(10.0, 0.6), (20.0, 0.8)], "t", "updates", "AUC").unwrap();
        assert!(
            c.contains("<polyline") || c.contains("<path"),
            "a line is drawn"
        );
    }
}
