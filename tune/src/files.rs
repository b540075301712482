//! File errors that say what was being done to which file, shared by the tools and the binary.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A file operation that failed: what was being done (`read`, `create`, ...), to which path, and why.
#[derive(Debug)]
pub struct FileError {
    /// The verb: `cannot {action} {path}`.
    pub action: &'static str,
    /// The file or folder.
    pub path: PathBuf,
    /// What the system said.
    pub source: io::Error,
}

impl FileError {
    /// The failure to `action` `path`, for `map_err`: `fs::read(p).map_err(FileError::on("read", p))`.
    pub fn on<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> FileError + 'a {
        move |source| FileError { action, path: path.to_path_buf(), source }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot {} {}: {}", self.action, self.path.display(), self.source)
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Creates the folder that `path` is to be written in, if it names one.
pub fn create_parent(path: &Path) -> Result<(), FileError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(FileError::on("create", dir)),
        None => Ok(()),
    }
}
