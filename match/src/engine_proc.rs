//! An engine process and the conversation with it in its dialect (UCI, UCCI, or CECP in [`cecp`]), with a
//! timeout on every wait.
//!
//! A reader thread turns the engine's stdout into timestamped lines on a channel, so the runner can wait with
//! a deadline and measure the time of a reply from when it arrived, not from when it was looked at. The
//! process is killed when the value is dropped (after a polite `quit`), so a game that ends for any reason,
//! a panic included, takes its engines with it.

mod cecp;

use super::config::{Dialect, EngineSpec};
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Centipawn value given to a mate score (`score mate n` becomes ±(MATE_CP - |n|)).
pub const MATE_CP: i32 = 32_000;

/// A shared file that records every line sent to and received from the engines.
#[derive(Clone)]
pub struct TrafficLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl TrafficLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &std::path::Path) -> io::Result<TrafficLog> {
        Ok(TrafficLog { file: Arc::new(Mutex::new(File::create(path)?)), start: Instant::now() })
    }

    fn record(&self, engine: &str, arrow: &str, line: &str) {
        let ms = self.start.elapsed().as_millis();
        if let Ok(mut f) = self.file.lock() {
            // Losing a log line is better than stopping a match over it.
            let _ = writeln!(f, "{ms:>9} {engine} {arrow} {line}");
        }
    }
}

/// Something went wrong talking to an engine.
#[derive(Debug)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(PathBuf, io::Error),
    /// The process closed its output (exited or crashed) while we waited for `what`.
    Exited(&'static str),
    /// No `what` within the time allowed (the engine's `ready=MS`).
    Timeout(&'static str, Duration),
    /// Writing to the engine failed (it has gone away).
    Write(io::Error),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(p, e) => write!(f, "cannot start {}: {e}", p.display()),
            EngineError::Exited(what) => write!(f, "the engine exited while the runner waited for {what}"),
            EngineError::Timeout(what, d) => write!(f, "no {what} within {:.1} s", d.as_secs_f64()),
            EngineError::Write(e) => write!(f, "cannot write to the engine: {e}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A clock as told to an engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockView {
    /// Milliseconds left.
    pub remaining_ms: u64,
    /// Milliseconds added per move.
    pub increment_ms: u64,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
}

/// Everything one `go` needs.
#[derive(Clone, Debug)]
pub struct GoRequest<'a> {
    /// Start FEN of the position sent (the game's start or the position after the last capture).
    pub fen: &'a str,
    /// Moves from `fen` to the current position.
    pub moves: &'a [String],
    /// Whether Red is to move (for UCI's wtime/btime).
    pub red_to_move: bool,
    /// The mover's clock.
    pub own: Option<ClockView>,
    /// The opponent's clock.
    pub opp: Option<ClockView>,
    /// Fixed time per move.
    pub movetime_ms: Option<u64>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed nodes.
    pub nodes: Option<u64>,
    /// Moves the mover may not play (forbidden repetitions): UCCI gets `banmoves`, UCI `go ... searchmoves`
    /// with `allowed`.
    pub banned: &'a [String],
    /// The legal moves not in `banned` (used only when `banned` is not empty).
    pub allowed: &'a [String],
    /// The game's start FEN, for engines that keep the game themselves (CECP).
    pub start_fen: &'a str,
    /// Every move from `start_fen` to the current position (CECP).
    pub history: &'a [String],
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The move text, or `None` for `nobestmove` / `bestmove (none)`.
    pub bestmove: Option<String>,
    /// UCCI `bestmove m resign`.
    pub resign: bool,
    /// Milliseconds from sending `go` to receiving the reply.
    pub elapsed_ms: u64,
    /// Last depth reported in an `info` line.
    pub depth: Option<u32>,
    /// Last score reported, centipawns from the mover's view.
    pub score: Option<i32>,
    /// What a CECP engine said instead of a move (a result claim, `Illegal move ...`).
    pub said: Option<String>,
}

/// How a `go` ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoOutcome {
    /// A `bestmove` (possibly late: the caller charges the clock).
    Reply(Reply),
    /// Nothing, even after `stop` and the grace period.
    NoReply,
    /// The engine's output closed: it exited or crashed.
    Exited,
}

/// A running engine that has answered the handshake.
pub struct EngineProcess {
    name: String,
    dialect: Dialect,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    log: Option<TrafficLog>,
    id_name: Option<String>,
    /// Copies the engine's stderr into the traffic log (only when there is one).
    stderr_reader: Option<thread::JoinHandle<()>>,
    /// What a CECP engine has been told (unused in UCI and UCCI).
    cecp: cecp::CecpState,
    /// How long the handshake and each `isready` may take.
    ready: Duration,
}

impl EngineProcess {
    /// Starts the engine, does the handshake, sends the options and waits until it is ready.
    pub fn start(spec: &EngineSpec, log: Option<TrafficLog>) -> Result<EngineProcess, EngineError> {
        let mut cmd = Command::new(program_path(spec));
        // An engine's stderr (a panic message, a crash report) goes to the traffic log when there is one.
        let stderr = if log.is_some() { Stdio::piped() } else { Stdio::null() };
        cmd.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| EngineError::Spawn(spec.cmd.clone(), e))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let mut stderr_reader = None;
        if let (Some(stderr), Some(log)) = (child.stderr.take(), log.clone()) {
            let name = spec.name.clone();
            stderr_reader = Some(thread::spawn(move || {
                for line in BufReader::new(stderr).split(b'\n') {
                    let Ok(line) = line else { break };
                    log.record(&name, "!", String::from_utf8_lossy(&line).trim_end_matches('\r'));
                }
            }));
        }
        let (tx, rx) = mpsc::channel();
        if let Some(stdout) = stdout {
            let log = log.clone();
            let name = spec.name.clone();
            read_lines(stdout, move |at, line| {
                if let Some(log) = &log {
                    log.record(&name, "<", &line);
                }
                tx.send((at, line)).is_ok()
            });
        }
        let mut engine = EngineProcess {
            name: spec.name.clone(),
            dialect: spec.dialect,
            child,
            stdin,
            lines: rx,
            log,
            id_name: None,
            stderr_reader,
            cecp: cecp::CecpState::default(),
            ready: Duration::from_millis(spec.ready_ms),
        };
        engine.handshake(spec)?;
        Ok(engine)
    }

    /// The name the engine gave in `id name`, if any.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    fn handshake(&mut self, spec: &EngineSpec) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.ready;
        match self.dialect {
            Dialect::Uci => {
                self.send("uci")?;
                self.wait_for("uciok", deadline)?;
                for (name, value) in &spec.options {
                    self.send(&format!("setoption name {name} value {value}"))?;
                }
            }
            Dialect::Ucci => {
                self.send("ucci")?;
                self.wait_for("ucciok", deadline)?;
                // Times go out in milliseconds; an engine that ignores this gets seconds it reads as ms and
                // plays fast, which shows in the table rather than failing silently.
                self.send("setoption usemillisec true")?;
                for (name, value) in &spec.options {
                    self.send(&format!("setoption {name} {value}"))?;
                }
            }
            Dialect::Cecp => return self.cecp_handshake(spec, deadline),
        }
        self.sync()
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        match self.dialect {
            Dialect::Uci => self.send("ucinewgame")?,
            Dialect::Ucci => self.send("setoption newgame")?,
            Dialect::Cecp => return self.cecp_new_game(),
        }
        self.sync()
    }

    /// `isready` / `readyok`.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.wait_for("readyok", Instant::now() + self.ready)
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.record(&self.name, ">", line);
        }
        let stdin =
            self.stdin.as_mut().ok_or_else(|| EngineError::Write(io::ErrorKind::BrokenPipe.into()))?;
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).map_err(EngineError::Write)
    }

    /// Reads lines until one starts with `token`.
    fn wait_for(&mut self, token: &'static str, deadline: Instant) -> Result<(), EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) => {
                    let mut words = line.split_whitespace();
                    match words.next() {
                        Some(w) if w == token => return Ok(()),
                        Some("id") if words.next() == Some("name") => {
                            self.id_name = Some(words.collect::<Vec<_>>().join(" "));
                        }
                        _ => {}
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout(token, self.ready)),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited(token)),
            }
        }
    }

    /// Sends the position and `go`, then waits for `bestmove` until `allowance_ms` has passed; then sends
    /// `stop` and waits `grace_ms` more before giving up on the engine.
    pub fn go(
        &mut self,
        req: &GoRequest,
        allowance_ms: u64,
        grace_ms: u64,
    ) -> Result<GoOutcome, EngineError> {
        if self.dialect == Dialect::Cecp {
            return self.cecp_go(req, allowance_ms, grace_ms);
        }
        let mut position = format!("position fen {}", req.fen);
        if !req.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&req.moves.join(" "));
        }
        // Anything left over from an earlier search (a late bestmove after a stop) must not be taken as
        // this move's answer.
        while self.lines.try_recv().is_ok() {}
        let mut sent = self.send(&position);
        if let Some(ban) = ban_command(self.dialect, req) {
            sent = sent.and_then(|_| self.send(&ban));
        }
        match sent.and_then(|_| self.send(&go_command(self.dialect, req))) {
            Ok(()) => {}
            Err(EngineError::Write(_)) => return Ok(GoOutcome::Exited),
            Err(e) => return Err(e),
        }
        let dialect = self.dialect;
        Ok(self.await_reply(allowance_ms, grace_ms, "stop", |line, reply| {
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => {
                    read_info(dialect, words, reply);
                    false
                }
                Some("bestmove") => {
                    let rest: Vec<&str> = words.collect();
                    reply.bestmove = rest.first().filter(|m| **m != "(none)").map(|m| m.to_string());
                    reply.resign = rest.contains(&"resign");
                    true
                }
                Some("nobestmove") => {
                    reply.bestmove = None;
                    true
                }
                _ => false,
            }
        }))
    }

    /// Waits for the engine's answer to a search, in every dialect: each line goes to `read`, which fills
    /// the reply and says whether the engine has answered; after `allowance_ms` the engine is hurried with
    /// `hurry` (`stop`, or CECP's `?`) and given `grace_ms` more before the runner gives up on it.
    fn await_reply(
        &mut self,
        allowance_ms: u64,
        grace_ms: u64,
        hurry: &str,
        mut read: impl FnMut(&str, &mut Reply) -> bool,
    ) -> GoOutcome {
        let start = Instant::now();
        let mut reply = Reply::default();
        let mut deadline = start + Duration::from_millis(allowance_ms);
        let mut hurried = false;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    if read(&line, &mut reply) {
                        reply.elapsed_ms = at.saturating_duration_since(start).as_millis() as u64;
                        return GoOutcome::Reply(reply);
                    }
                }
                Err(RecvTimeoutError::Timeout) if !hurried => {
                    hurried = true;
                    // A dead pipe here shows up as Disconnected on the next read.
                    let _ = self.send(hurry);
                    deadline = Instant::now() + Duration::from_millis(grace_ms);
                }
                Err(RecvTimeoutError::Timeout) => return GoOutcome::NoReply,
                Err(RecvTimeoutError::Disconnected) => return GoOutcome::Exited,
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.shut_down();
        // Let the last stderr lines (a crash report) reach the log before the runner moves on or exits; a
        // process the engine left behind may hold the pipe open, so do not wait long.
        if let Some(reader) = self.stderr_reader.take() {
            let until = Instant::now() + Duration::from_millis(300);
            while !reader.is_finished() && Instant::now() < until {
                thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

impl EngineProcess {
    /// Asks the engine to quit, and kills it if it does not within 300 ms.
    fn shut_down(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = self.send("quit");
        // Closing stdin tells a well-behaved engine to exit even if it missed `quit`.
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A relative program path with a directory part is taken relative to the runner's directory, not the
/// engine's `dir` (what a user typing it expects).
fn program_path(spec: &EngineSpec) -> PathBuf {
    let cmd = &spec.cmd;
    if cmd.is_relative() && cmd.components().count() > 1 {
        if let Ok(cwd) = std::env::current_dir() {
            return cwd.join(cmd);
        }
    }
    cmd.clone()
}

/// The `go` line in the engine's dialect.
pub fn go_command(dialect: Dialect, req: &GoRequest) -> String {
    let mut go = String::from("go");
    match dialect {
        // CECP's clocks travel in `time`/`otim` (engine_proc/cecp.rs); this UCI form is never sent.
        Dialect::Uci | Dialect::Cecp => {
            let (red, black) = if req.red_to_move { (req.own, req.opp) } else { (req.opp, req.own) };
            if let Some(c) = red {
                go.push_str(&format!(" wtime {}", c.remaining_ms));
            }
            if let Some(c) = black {
                go.push_str(&format!(" btime {}", c.remaining_ms));
            }
            if let Some(c) = red {
                go.push_str(&format!(" winc {}", c.increment_ms));
            }
            if let Some(c) = black {
                go.push_str(&format!(" binc {}", c.increment_ms));
            }
            if let Some(n) = req.own.and_then(|c| c.movestogo) {
                go.push_str(&format!(" movestogo {n}"));
            }
            if let Some(t) = req.movetime_ms {
                go.push_str(&format!(" movetime {t}"));
            }
        }
        Dialect::Ucci => {
            if let Some(c) = req.own {
                go.push_str(&format!(" time {}", c.remaining_ms));
                match c.movestogo {
                    Some(n) => go.push_str(&format!(" movestogo {n}")),
                    None => go.push_str(&format!(" increment {}", c.increment_ms)),
                }
                if let Some(o) = req.opp {
                    go.push_str(&format!(" opptime {}", o.remaining_ms));
                    match o.movestogo {
                        Some(n) => go.push_str(&format!(" oppmovestogo {n}")),
                        None => go.push_str(&format!(" oppincrement {}", o.increment_ms)),
                    }
                }
            } else if let Some(t) = req.movetime_ms {
                // UCCI has no movetime: "this much time for one move" says the same thing.
                go.push_str(&format!(" time {t} movestogo 1"));
            }
        }
    }
    if let Some(d) = req.depth {
        go.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = req.nodes {
        go.push_str(&format!(" nodes {n}"));
    }
    // UCI has no banmoves; searchmoves says the same from the other side, and must end the line.
    if dialect == Dialect::Uci && !req.banned.is_empty() && !req.allowed.is_empty() {
        go.push_str(" searchmoves ");
        go.push_str(&req.allowed.join(" "));
    }
    go
}

/// UCCI's `banmoves` line, sent between `position` (which clears it) and `go`.
pub fn ban_command(dialect: Dialect, req: &GoRequest) -> Option<String> {
    (dialect == Dialect::Ucci && !req.banned.is_empty()).then(|| format!("banmoves {}", req.banned.join(" ")))
}

/// Takes the depth and score from an `info` line, ignoring anything it does not understand.
fn read_info<'a>(dialect: Dialect, words: impl Iterator<Item = &'a str>, reply: &mut Reply) {
    let words: Vec<&str> = words.collect();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    reply.depth = Some(d);
                }
            }
            "score" => {
                let next = words.get(i + 1).copied();
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                match (dialect, next, value) {
                    (_, Some("cp"), Some(v)) => reply.score = Some(v),
                    (_, Some("mate"), Some(n)) => {
                        reply.score = Some(if n > 0 { MATE_CP - n } else { -MATE_CP - n });
                    }
                    (Dialect::Ucci, Some(w), _) => {
                        if let Ok(v) = w.parse() {
                            reply.score = Some(v);
                        }
                    }
                    _ => {}
                }
            }
            // The rest of the line is the principal variation or free text.
            "pv" | "string" | "message" => break,
            _ => {}
        }
        i += 1;
    }
}

/// Reads an engine's output line by line on a thread of its own, handing each line (its `\r\n` cut, bytes
/// that are not UTF-8 replaced) with the moment it was read to `each`, until the end of the output, a read
/// error, or `each` returning false.
pub fn read_lines(
    output: impl io::Read + Send + 'static,
    mut each: impl FnMut(Instant, String) -> bool + Send + 'static,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut reader = BufReader::new(output);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match read_line_capped(&mut reader, &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let at = Instant::now();
                    let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                    if !each(at, line) {
                        break;
                    }
                }
            }
        }
    })
}

/// Longest engine line kept whole; the rest of a longer one is read and dropped. No protocol line comes
/// near it, and an engine that prints without end (no line break) must not fill the runner's memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads up to and including the next `\n` (or to the end of the output), keeping at most [`MAX_LINE`]
/// bytes of it in `buf`; returns the bytes read, 0 at the end of the output.
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(read);
        }
        let (take, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&available[..take.min(room)]);
        reader.consume(take);
        read += take;
        if ends {
            return Ok(read);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(own: Option<ClockView>, opp: Option<ClockView>, red: bool) -> GoRequest<'static> {
        GoRequest {
            fen: "",
            moves: &[],
            red_to_move: red,
            own,
            opp,
            movetime_ms: None,
            depth: None,
            nodes: None,
            banned: &[],
            allowed: &[],
            start_fen: "",
            history: &[],
        }
    }

    #[test]
    fn go_lines_follow_each_dialect() {
        let own = Some(ClockView { remaining_ms: 5000, increment_ms: 50, movestogo: None });
        let opp = Some(ClockView { remaining_ms: 4000, increment_ms: 50, movestogo: None });
        assert_eq!(
            go_command(Dialect::Uci, &req(own, opp, true)),
            "go wtime 5000 btime 4000 winc 50 binc 50"
        );
        assert_eq!(
            go_command(Dialect::Uci, &req(own, opp, false)),
            "go wtime 4000 btime 5000 winc 50 binc 50"
        );
        assert_eq!(
            go_command(Dialect::Ucci, &req(own, opp, false)),
            "go time 5000 increment 50 opptime 4000 oppincrement 50"
        );
        let own = Some(ClockView { remaining_ms: 60000, increment_ms: 0, movestogo: Some(12) });
        assert_eq!(go_command(Dialect::Ucci, &req(own, None, true)), "go time 60000 movestogo 12");
        assert_eq!(go_command(Dialect::Uci, &req(own, None, true)), "go wtime 60000 winc 0 movestogo 12");
        let mut r = req(None, None, true);
        r.movetime_ms = Some(100);
        r.depth = Some(3);
        assert_eq!(go_command(Dialect::Uci, &r), "go movetime 100 depth 3");
        assert_eq!(go_command(Dialect::Ucci, &r), "go time 100 movestogo 1 depth 3");
        assert_eq!(ban_command(Dialect::Ucci, &r), None);
    }

    #[test]
    fn forbidden_moves_are_banned_in_ucci_and_left_out_of_searchmoves_in_uci() {
        let banned = ["h2e2".to_string(), "b0c2".to_string()];
        let allowed = ["a0a1".to_string(), "i3i4".to_string()];
        let mut r = req(None, None, true);
        r.movetime_ms = Some(100);
        r.banned = &banned;
        r.allowed = &allowed;
        assert_eq!(ban_command(Dialect::Ucci, &r).as_deref(), Some("banmoves h2e2 b0c2"));
        assert_eq!(go_command(Dialect::Ucci, &r), "go time 100 movestogo 1");
        assert_eq!(ban_command(Dialect::Uci, &r), None);
        assert_eq!(go_command(Dialect::Uci, &r), "go movetime 100 searchmoves a0a1 i3i4");
    }

    #[test]
    fn an_endless_line_is_cut_to_the_cap_and_the_next_line_still_reads() {
        let mut text = vec![b'x'; 3 * MAX_LINE];
        text.extend_from_slice(b"\r\nbestmove h2e2\n");
        let mut reader = BufReader::with_capacity(1000, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), 3 * MAX_LINE + 2);
        assert_eq!(buf.len(), MAX_LINE);
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), 14);
        assert_eq!(buf, b"bestmove h2e2\n");
        buf.clear();
        assert_eq!(read_line_capped(&mut reader, &mut buf).unwrap(), 0);
    }

    #[test]
    fn info_lines_give_depth_and_score_and_odd_ones_are_ignored() {
        let mut r = Reply::default();
        read_info(Dialect::Uci, "depth 7 seldepth 9 score cp -35 nodes 10 pv h2e2".split(' '), &mut r);
        assert_eq!((r.depth, r.score), (Some(7), Some(-35)));
        read_info(Dialect::Uci, "depth 8 score mate 3".split(' '), &mut r);
        assert_eq!(r.score, Some(MATE_CP - 3));
        read_info(Dialect::Uci, "score mate -2 lowerbound".split(' '), &mut r);
        assert_eq!(r.score, Some(-MATE_CP + 2));
        read_info(Dialect::Ucci, "depth 5 score 42 pv h2e2 h9g7".split(' '), &mut r);
        assert_eq!((r.depth, r.score), (Some(5), Some(42)));
        read_info(Dialect::Uci, "string depth 99 score cp 1".split(' '), &mut r);
        read_info(Dialect::Uci, "depth x score cp y currmove".split(' '), &mut r);
        assert_eq!((r.depth, r.score), (Some(5), Some(42)));
    }
}
