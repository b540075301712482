//! Network files for the `EvalFile` tests: the embedded network's bytes, whole or spoilt, in a scratch
//! folder that goes away with the value.

use std::path::PathBuf;

/// A scratch folder of network files.
pub struct NetworkFiles {
    dir: PathBuf,
}

impl NetworkFiles {
    /// An empty folder named after `test` (and this process).
    pub fn new(test: &str) -> NetworkFiles {
        let dir = std::env::temp_dir().join(format!("chuhan-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        NetworkFiles { dir }
    }

    /// Writes `bytes` as the file `name` in the folder and returns its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.dir.join(name);
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        path
    }

    /// A path in the folder where there is no file.
    pub fn missing(&self) -> PathBuf {
        self.dir.join("missing.nnue")
    }

    /// The first half of the embedded network, as `truncated.nnue`.
    pub fn truncated(&self) -> PathBuf {
        let good = eval::nnue::EMBEDDED_BYTES;
        self.write("truncated.nnue", &good[..good.len() / 2])
    }

    /// The embedded network whole, as `copy.nnue`.
    pub fn copy(&self) -> PathBuf {
        self.write("copy.nnue", eval::nnue::EMBEDDED_BYTES)
    }
}

impl Drop for NetworkFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
