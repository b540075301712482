//! Drives the real `chuhan` binary over pipes the way a GUI does, for the protocol tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long to wait for an answer that must come: generous, because the test machine is shared.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine with its stdout read line by line on a thread.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    /// Starts `chuhan` with no arguments.
    pub fn spawn(binary: &std::path::Path) -> Engine {
        let mut child = Command::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chuhan");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        arena::engine_proc::read_lines(stdout, move |_, line| tx.send(line).is_ok());
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    fn report(&self) -> String {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).collect();
        tail.into_iter().rev().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let shown: String = line.chars().take(200).collect();
        self.transcript.push(format!("> {shown}"));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// Sends bytes as they are (no line end added).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to chuhan");
        stdin.flush().expect("flush to chuhan");
    }

    /// Closes stdin (end of input).
    pub fn close_input(&mut self) {
        self.transcript.push("> <EOF>".into());
        self.stdin = None;
    }

    /// The next line, if one comes within `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => {
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `done`; returns them all (the matching one last). Panics with the
    /// transcript if none comes within [`PATIENCE`].
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!("no {what} within {PATIENCE:?}; transcript:\n{}", self.report()),
            }
        }
    }

    /// Reads until a line starting with `prefix`; returns that line.
    pub fn expect(&mut self, prefix: &str) -> String {
        self.until(prefix, |l| l.starts_with(prefix)).pop().unwrap_or_default()
    }

    /// Sends the protocol's `hello` (`uci`, `ucci`), reads up to its `ok` line and asserts that the engine
    /// gave its name and this build's version on the way; returns the lines read, `ok` included.
    pub fn handshake(&mut self, hello: &str, ok: &str) -> Vec<String> {
        self.send(hello);
        let intro = self.until(ok, |l| l == ok);
        let id = format!("id name chuhan {}", env!("CARGO_PKG_VERSION"));
        assert!(intro.contains(&id), "{intro:?}");
        intro
    }

    /// Sends `isready` and returns the lines that came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until("readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Asserts nothing arrives for `quiet`.
    pub fn assert_silent(&mut self, quiet: Duration) {
        if let Some(l) = self.recv(quiet) {
            panic!("unexpected line '{l}'; transcript:\n{}", self.report());
        }
    }

    /// Waits for the process to exit; panics if it does not within [`PATIENCE`].
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for chuhan") {
                return status;
            }
            if Instant::now() > deadline {
                panic!("chuhan did not exit; transcript:\n{}", self.report());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Sends `quit` and asserts a clean exit.
    pub fn quit(&mut self) {
        self.send("quit");
        assert!(self.wait_exit().success());
    }

    /// Sends `quit`, expects the line starting with `reply` (UCCI's `bye`) and asserts a clean exit.
    pub fn quit_with(&mut self, reply: &str) {
        self.send("quit");
        self.expect(reply);
        assert!(self.wait_exit().success());
    }

    /// Sends a `go` command and returns the `bestmove` line that answers it.
    pub fn go_line(&mut self, go: &str) -> String {
        self.send(go);
        self.expect("bestmove")
    }

    /// Sends a `go` command and returns the move of the `bestmove` line that answers it.
    pub fn go(&mut self, go: &str) -> Option<String> {
        bestmove_parts(&self.go_line(go)).0
    }

    /// The process's resident memory in KiB (`VmRSS` of /proc/PID/status), where Linux tells it.
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        status.lines().find_map(|l| l.strip_prefix("VmRSS:")?.trim().strip_suffix("kB")?.trim().parse().ok())
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Panics with the transcript.
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}; transcript:\n{}", self.report())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The move after `bestmove` (`None` for `bestmove (none)`), and the ponder move if any.
pub fn bestmove_parts(line: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let best = words.get(1).filter(|w| **w != "(none)").map(|w| w.to_string());
    let ponder =
        words.iter().position(|w| *w == "ponder").and_then(|i| words.get(i + 1)).map(|w| w.to_string());
    (best, ponder)
}
