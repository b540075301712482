//! The search threads are started when `Threads` changes, never per `go`: two hundred searches through the
//! UCI front door in-process, counting the threads the process starts. (Its own test binary, so no other
//! test starts searchers meanwhile.)

use engine::search::pool::threads_started;
use protocol::capacity::{hardware_threads, search_threads};
use protocol::output::Output;
use protocol::session::{run, Config};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A sink that keeps everything written.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs the session on `script` and returns how many `bestmove` lines it printed.
fn bestmoves(script: String) -> usize {
    let sink = Sink::default();
    run(std::io::Cursor::new(script.into_bytes()), Output::new(sink.clone()), Config::default());
    let out = String::from_utf8_lossy(&sink.0.lock().expect("not poisoned")).into_owned();
    out.lines().filter(|l| l.starts_with("bestmove ")).count()
}

fn searches(threads: usize, count: usize) -> String {
    let mut script = format!("uci\nsetoption name Threads value {threads}\nisready\n");
    for i in 0..count {
        let moves = if i % 2 == 0 { "h2e2" } else { "h2e2 h9g7" };
        let go = if i % 3 == 0 { "go movetime 5" } else { "go depth 1" };
        script.push_str(&format!("position startpos moves {moves}\n{go}\n"));
    }
    script.push_str("quit\n");
    script
}

#[test]
fn threads_start_when_their_number_changes_not_per_go() {
    let before = threads_started();
    assert_eq!(bestmoves(searches(1, 200)), 200);
    assert_eq!(threads_started() - before, 1, "one thread for two hundred searches with Threads=1");

    // A new session (a new engine) with two threads, where the machine runs two at once.
    let two = search_threads(2, hardware_threads()) as u64;
    let before = threads_started();
    assert_eq!(bestmoves(searches(2, 200)), 200);
    assert_eq!(threads_started() - before, two, "{two} threads for two hundred searches with Threads=2");
}
