//! The engine's stdout: whole lines, each flushed at once, from whichever thread has something to say.

use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// A shared line writer. Cloning shares the same sink.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Lines go to `sink`.
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output { sink: Arc::new(Mutex::new(Box::new(sink))) }
    }

    /// Lines go to the process's stdout.
    pub fn stdout() -> Output {
        Output::new(std::io::stdout())
    }

    /// Writes one line and flushes it. A GUI that has gone away is not an error worth dying for: write
    /// failures are logged and the loop ends on the EOF that follows.
    pub fn line(&self, text: &str) {
        tracing::debug!(target: "protocol", "> {text}");
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        let result =
            sink.write_all(text.as_bytes()).and_then(|_| sink.write_all(b"\n")).and_then(|_| sink.flush());
        if let Err(e) = result {
            tracing::warn!("cannot write to the GUI: {e}");
        }
    }

    /// Writes several lines, each flushed, without another thread's lines in between.
    pub fn lines<S: AsRef<str>>(&self, lines: impl IntoIterator<Item = S>) {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        for text in lines {
            let text = text.as_ref();
            tracing::debug!(target: "protocol", "> {text}");
            let result = sink
                .write_all(text.as_bytes())
                .and_then(|_| sink.write_all(b"\n"))
                .and_then(|_| sink.flush());
            if let Err(e) = result {
                tracing::warn!("cannot write to the GUI: {e}");
                return;
            }
        }
    }
}
