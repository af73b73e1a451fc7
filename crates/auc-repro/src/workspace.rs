//! Where the reproductions read and write: the workspace root (tables go to `docs/results/`,
//! quick runs to `target/`), the shared data sets beside it, the release `auc` binary, and files
//! replaced through a temporary file and a rename.

use std::path::{Path, PathBuf};

/// The workspace root: two levels above this crate's manifest directory.
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("auc-repro lives in crates/ of the workspace")
        .to_path_buf()
}

/// The shared data sets' folder, `../shared/datasets` beside the repository; an error if absent.
pub(crate) fn shared_datasets() -> Result<PathBuf, String> {
    let datasets = root().join("../shared/datasets");
    if datasets.is_dir() {
        Ok(datasets)
    } else {
        Err(format!(
            "{} not found: the reproduction needs ../shared beside the repository",
            datasets.display()
        ))
    }
}

/// The `auc` binary to run: `given`, else the workspace's release build; an error if it is not
/// a file (`cargo xtask reproduce` builds it before running this program).
pub(crate) fn auc_binary(given: Option<PathBuf>) -> Result<PathBuf, String> {
    let bin = given.unwrap_or_else(|| root().join("target/release/auc"));
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "{} not found: run the reproduction through `cargo xtask reproduce`, which builds it, \
             or pass --auc PATH",
            bin.display()
        ))
    }
}

/// Writes `text` to `path` through `path.tmp` and a rename, so a reader never sees half a file.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The number after `"key":` in a flat JSON object.
pub(crate) fn field(json: &str, key: &str) -> Option<f64> {
    let at = json.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &json[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_from_flat_json() {
        let s = r#"{"auc_mean":0.91,"runs":20,"x":{"a":1},"auc_std":1e-3}"#;
        assert_eq!(field(s, "auc_mean"), Some(0.91));
        assert_eq!(field(s, "runs"), Some(20.0));
        assert_eq!(field(s, "auc_std"), Some(0.001));
        assert_eq!(field(s, "missing"), None);
    }

    #[test]
    fn the_root_holds_the_workspace_manifest() {
        assert!(root().join("Cargo.toml").is_file());
        assert!(root().join("crates/auc-repro/Cargo.toml").is_file());
    }
}
