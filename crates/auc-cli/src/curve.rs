//! `auc curve`: the convergence curve of a one-pass learner under the protocol's splits.

use std::path::PathBuf;

use crate::input::{self};
use crate::output::{Error, line, write_text};
use crate::plot;

use crate::cv::*;

#[derive(clap::Args, Debug)]
pub(crate) struct CurveArgs {
    #[command(flatten)]
    pub(crate) run: RunArgs,
    /// Hold out 1 of this many stratified folds when no --test is given.
    #[arg(long, default_value_t = 5)]
    pub(crate) folds: usize,
    /// Record the test AUC after every N updates (and after the last).
    #[arg(long, default_value_t = 100)]
    pub(crate) every: usize,
    /// Draw the curve as an SVG file.
    #[arg(long, value_name = "OUT.svg")]
    pub(crate) svg: Option<PathBuf>,
    /// One JSON object per point.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(crate) fn curve_cmd(a: CurveArgs) -> Result<(), Error> {
    let (algo, params) = a.run.algo()?;
    if !algo.is_online() {
        return Err(format!(
            "`{}` is a batch learner, fitted on all its data at once: `auc curve` needs a one-pass learner",
            algo.name
        )
        .into());
    }
    let config = algo.configure(&params)?;
    let fit = config.procedure(a.run.average)?;
    let (data, test, _) = a.run.load()?;
    input::need_both_classes(&data, "a convergence curve")?;
    a.run
        .check_fit_memory(config.as_ref(), algo, &data, test.as_ref(), 1)?;
    let cfg = a.run.config(a.folds, 1, 5);
    let points =
        auc_eval::curve::convergence_protocol(&data, test.as_ref(), fit.as_ref(), &cfg, a.every)?;
    if let Some(path) = &a.svg {
        let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.updates as f64, p.auc)).collect();
        let title = format!("{} on {}", algo.name, input::dataset_name(a.run.data()));
        write_text(path, &plot::curve_svg(&xy, &title, "updates", "test AUC")?)?;
    }
    if !a.json {
        line(format!("{:>10} {:>8}", "updates", "AUC"))?;
    }
    for p in points {
        if a.json {
            line(serde_json::to_string(&p)?)?;
        } else {
            line(format!("{:>10} {:>8.4}", p.updates, p.auc))?;
        }
    }
    Ok(())
}
