//! Logs through `tracing`: to stderr by default, to a file with `--log FILE`. Never to stdout, which
//! belongs to the protocol. `RUST_LOG` chooses the level (default: warnings on stderr; with a log file,
//! the whole protocol conversation at `debug`).

use std::path::Path;
use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. Fails only if the log file cannot be created.
pub fn init(log_file: Option<&Path>) -> Result<(), String> {
    let filter =
        |default: &str| EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let result = match log_file {
        Some(path) => {
            let file =
                std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
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
