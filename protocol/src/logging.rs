//! Logs through `tracing`: to stderr by default, to a file with `--log FILE`. Never to stdout, which
//! belongs to the protocol. `RUST_LOG` chooses the level (default: warnings on stderr; with a log file,
//! the whole protocol conversation at `debug`).

use std::fmt;
use std::path::{Path, PathBuf};
use tracing_subscriber::EnvFilter;

/// Logging could not be set up.
#[derive(Debug)]
pub enum LogError {
    /// The log file could not be created: (its path, why).
    Create(PathBuf, std::io::Error),
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogError::Create(path, e) => write!(f, "cannot create {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for LogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LogError::Create(_, e) => Some(e),
        }
    }
}

/// Installs the global subscriber. Fails only if the log file cannot be created.
pub fn init(log_file: Option<&Path>) -> Result<(), LogError> {
    let filter =
        |default: &str| EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let result = match log_file {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| LogError::Create(path.to_path_buf(), e))?;
            tracing_subscriber::fmt()
                .with_env_filter(filter("debug"))
                .with_writer(std::sync::Mutex::new(file))
                .with_ansi(false)
                .with_thread_names(true)
                .try_init()
        }
        None => {
            tracing_subscriber::fmt().with_env_filter(filter("warn")).with_writer(std::io::stderr).try_init()
        }
    };
    // A second init (tests) is harmless.
    let _ = result;
    Ok(())
}
