//! Which fitted stages the rows of a moment pass go through before their moments are taken:
//! none (rows as read, scaled at solve time), or a feature map (conventions section 9), which
//! does not commute with moments and so is applied to every row first.
//!
//! The map comes from, in this order: `--map-from FILE` (a moment file of mapped rows, a
//! `--fit-map-only` file, or a model trained with a map); the moment files among the inputs
//! (they carry their map, and all must carry the same one); or `--features`, fitted here on a
//! first pass over the data files (the scaling's ranges and the map's seeded sample).
//! (`--map-from` is `auc moments`' flag; `auc train` and the library routes pass none.)

use std::io::Read;
use std::path::{Path, PathBuf};

use auc_data::ReadOptions;
use auc_learners::{Model, MomentSummary};
use auc_prep::{ScaleEvidence, Transform, TransformSpec};
use auc_stream::Report;
use auc_stream::memory::Bytes;

use crate::Error;

/// The stages of a moment pass over `inputs` (see the module docs), whose data files are read
/// with `read`; `None`: rows as read. A first pass shows its progress through `report`.
pub fn stages_for(
    inputs: &[PathBuf],
    read: &ReadOptions,
    stages: &TransformSpec,
    map_from: Option<&Path>,
    limit: Bytes,
    report: &dyn Report,
) -> Result<Option<Transform>, Error> {
    if let Some(path) = map_from {
        if stages.reshapes() {
            return Err(Error::usage(format!(
                "--map-from {} brings a fitted map; leave --features and --one-hot out",
                path.display()
            )));
        }
        return Ok(Some(map_of_file(path)?));
    }
    let mut carried: Option<(Transform, &Path)> = None;
    for p in inputs.iter().filter(|p| is_moment_file(p)) {
        let bytes = std::fs::read(p).map_err(|e| Error::io(p.display(), e))?;
        let s = MomentSummary::from_bytes(&bytes)
            .map_err(|e| Error::input(format!("{}: {e}", p.display())))?;
        if let Some(t) = s.stages() {
            match &carried {
                None => carried = Some((t.clone(), p)),
                Some((first, q)) if first != t => {
                    return Err(Error::usage(format!(
                        "{} and {} hold moments of different feature maps ({} and {}): fit the map once (`auc moments --features ... --fit-map-only`) and pass it to every part with --map-from",
                        q.display(),
                        p.display(),
                        first.describe(),
                        t.describe()
                    )));
                }
                Some(_) => {}
            }
        }
    }
    if let Some((t, p)) = carried {
        if stages.reshapes() {
            return Err(Error::usage(format!(
                "{} holds moments of a fitted map ({}); the other inputs are mapped with it: leave --features and --one-hot out",
                p.display(),
                t.describe()
            )));
        }
        return Ok(Some(t));
    }
    let Some(sample) = auc_stream::SampleSpec::for_stages(stages) else {
        return Ok(None);
    };
    let data: Vec<PathBuf> = inputs
        .iter()
        .filter(|p| !is_moment_file(p))
        .cloned()
        .collect();
    if !auc_stream::rereadable(&data) {
        return Err(Error::usage(format!(
            "{}; for moments, fit the map on a file with `auc moments --features ... --fit-map-only -o map.mom` and pass --map-from map.mom",
            auc_prep::PrepError::MapNeedsSample
        )));
    }
    let survey = auc_stream::survey(
        &data,
        read,
        auc_stream::Collect {
            ranges: stages.needs_ranges(),
            sample: Some(sample),
        },
        None,
        limit,
        report.pass().as_ref(),
    )?;
    auc_stream::check_stages_fit(stages, survey.dim, limit)?;
    let evidence = match &survey.ranges {
        Some(r) => ScaleEvidence::Ranges(r),
        None => ScaleEvidence::Nothing,
    };
    let sample = survey
        .sample
        .clone()
        .map(auc_prep::RowSample::into_dataset)
        .ok_or_else(|| Error::input("the first pass drew no sample"))?;
    Ok(Some(stages.fit_sampled(evidence, &sample)?))
}

/// The fitted map a `--map-from` file holds: a moment file's stages or a model's.
fn map_of_file(path: &Path) -> Result<Transform, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path.display(), e))?;
    let t = if MomentSummary::is_moment_file(&bytes) {
        MomentSummary::from_bytes(&bytes)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))?
            .stages()
            .cloned()
    } else {
        let m = Model::from_bytes(&bytes)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        Some(m.preparation.transform)
    };
    match t {
        Some(t) if t.reshapes() && !t.unit_norm() => Ok(t),
        Some(t) if t.unit_norm() => Err(Error::usage(format!(
            "--map-from {}: its stages end in unit norm, which does not commute with moments",
            path.display()
        ))),
        _ => Err(Error::usage(format!(
            "--map-from {}: it holds no feature map",
            path.display()
        ))),
    }
}

/// Whether `path` is a moment file (by its first bytes; `-`, unreadable paths and anything but
/// a regular file are not).
///
/// Only a regular file is opened: a named pipe or a process substitution (`/dev/fd/63`) can be
/// read once, and peeking at its first bytes here consumed them, so the learning pass then
/// started in the middle of the first line (the first pass of issue 21 found it).
pub fn is_moment_file(path: &Path) -> bool {
    if path.as_os_str() == "-" || !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| MomentSummary::is_moment_file(&head))
}
