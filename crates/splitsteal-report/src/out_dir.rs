//! Output folders checked before the work starts, and file errors that name the path.

use std::fmt;
use std::path::{Path, PathBuf};

/// A file-system error with the path it concerns.
#[derive(Debug)]
pub struct PathError {
    /// The file or folder.
    pub path: PathBuf,
    /// What was being done: "create", "write", "read", ...
    pub action: &'static str,
    /// The underlying error.
    pub source: std::io::Error,
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} {}: {}",
            self.action,
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for PathError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn at<'a>(path: &'a Path, action: &'static str) -> impl FnOnce(std::io::Error) -> PathError + 'a {
    move |source| PathError {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// Creates `dir` (and its parents) and proves it writable by creating and removing a probe
/// file, so that a long run cannot end in "cannot write" after its work is done.
pub fn prepare(dir: &Path) -> Result<(), PathError> {
    std::fs::create_dir_all(dir).map_err(at(dir, "create the output folder"))?;
    let probe = dir.join(".splitsteal-write-probe");
    std::fs::write(&probe, b"").map_err(at(dir, "write into the output folder"))?;
    std::fs::remove_file(&probe).map_err(at(&probe, "remove"))?;
    Ok(())
}

/// `std::fs::write` whose error names the file.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), PathError> {
    std::fs::write(path, contents).map_err(at(path, "write"))
}

/// Writes `value` as pretty-printed JSON to `path`; an error names the file.
pub fn write_json(path: &Path, value: &impl serde::Serialize) -> Result<(), PathError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| at(path, "serialize")(std::io::Error::from(e)))?;
    write(path, text)
}

/// `std::fs::read_to_string` whose error names the file.
pub fn read_to_string(path: &Path) -> Result<String, PathError> {
    std::fs::read_to_string(path).map_err(at(path, "read"))
}

/// Removes the files directly in `dir` whose name `is_stale` picks: what an earlier run
/// left in a reused output folder and this run does not write, so that the folder holds one
/// run's report. The caller names only its own files; folders are never touched.
pub fn remove_stale(dir: &Path, is_stale: impl Fn(&str) -> bool) -> Result<(), PathError> {
    for entry in std::fs::read_dir(dir).map_err(at(dir, "list"))?.flatten() {
        let path = entry.path();
        if is_stale(&entry.file_name().to_string_lossy()) && path.is_file() {
            std::fs::remove_file(&path).map_err(at(&path, "remove the stale file"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("splitsteal-report-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn prepare_creates_nested_folders_and_leaves_no_probe() {
        let d = scratch("nested").join("a/b");
        prepare(&d).unwrap();
        assert!(d.is_dir());
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        std::fs::remove_dir_all(d.parent().unwrap().parent().unwrap()).unwrap();
    }

    #[test]
    fn remove_stale_removes_only_the_picked_files() {
        let d = scratch("stale");
        std::fs::create_dir_all(d.join("old.svg")).unwrap(); // a folder: never touched
        for f in ["old-1.svg", "keep.svg", "notes.txt"] {
            std::fs::write(d.join(f), b"x").unwrap();
        }
        remove_stale(&d, |n| n.starts_with("old") && n != "keep.svg").unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["keep.svg", "notes.txt", "old.svg"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_file_in_the_way_is_an_error_naming_the_path() {
        let d = scratch("file");
        std::fs::create_dir_all(&d).unwrap();
        let blocker = d.join("report");
        std::fs::write(&blocker, b"x").unwrap();
        let e = prepare(&blocker).unwrap_err().to_string();
        assert!(e.contains(&blocker.display().to_string()), "{e}");
        let e = write(&blocker.join("index.html"), "x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("index.html") && e.starts_with("cannot write"),
            "{e}"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
