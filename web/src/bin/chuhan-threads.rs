//! The engine loop alone, for the browser's threaded build (`wasm32-wasip1-threads`): the native
//! conversation over stdin and stdout, with the native search threads, run by `web/chuhan-threads.js`,
//! which gives each thread a Web Worker over one shared memory and serves stdin, stdout and the clock
//! from the page. Without the command-line tools (match, egtb, perft options) of the `chuhan` binary and
//! without a log subscriber (its filter's regular expressions would add half a megabyte), so the module
//! stays small. On a native host it is the same loop as a bare `chuhan`.

use std::process::ExitCode;

fn main() -> ExitCode {
    protocol::session::run_stdio()
}
