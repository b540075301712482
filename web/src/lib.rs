//! chuhan in the browser. The same engine and the same UCI/UCCI conversation as the native binary
//! ([`protocol::session::Session`]), built for `wasm32-unknown-unknown` and driven by a Web Worker
//! (`web/chuhan-worker.js`): lines in with `postMessage`, the engine's lines out with `onmessage`.
//!
//! * [`driver`]: bytes from the host cut into lines and handed to the session, as the native stdin reader
//!   does; the session's output goes back line by line.
//! * [`referee`]: what a page needs to show a game besides the engine's search — legal moves, the moves
//!   in Chinese notation, and the referee's verdict (checkmate, perpetual check or chase, draws) — answered
//!   synchronously from the engine crate's own rules, as one JSON object.
//! * `exports` (wasm only): the plain `extern "C"` functions the worker calls and the two it provides
//!   (the output line and the clock). No bindgen: the interface is six numbers-only functions.
//!
//! One thread: the worker's thread runs the search, so a line sent while the engine thinks waits until the
//! search has answered (the threaded build, `src/bin/chuhan-threads.rs`, is the native loop instead). `go infinite`, `go ponder` and a `go` with no limit therefore search for at most
//! [`driver::UNSTOPPABLE_SEARCH_MS`] and answer (a GUI analysing in the browser sends bounded searches).

pub mod driver;
pub mod json;
pub mod referee;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod exports;
