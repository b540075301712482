//! The runner's side of a CECP (xboard protocol) conversation. A CECP engine keeps the game itself, so the
//! runner remembers what the engine has been told: when the engine has just moved and the opponent has
//! answered with one move, the runner sends only the clocks and that move (the engine then thinks at once,
//! as under XBoard); otherwise it resets the engine's game (`force`, `setboard`, every move since the start
//! as `usermove`) and says `go`. CECP has no banned moves: the referee judges what is played.

use super::{EngineError, EngineProcess, GoOutcome, GoRequest, Reply, MATE_CP};
use crate::config::{EngineSpec, SearchLimits};
use engine::fen::to_xboard_fen;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

/// What the runner knows of a CECP engine's state.
#[derive(Clone, Debug, Default)]
pub struct CecpState {
    /// The engine wants moves as `usermove MOVE` (feature `usermove=1`), not bare.
    usermove: bool,
    /// The engine answers `ping N` (feature `ping=1`).
    ping: bool,
    /// The next `ping` number.
    pings: u32,
    /// The engine's game: the start FEN and the moves since, when the engine is playing (not in force
    /// mode) and has just moved.
    playing: Option<(String, Vec<String>)>,
    /// The limits sent with `level`/`st`/`sd` before each game.
    limits: SearchLimits,
}

impl EngineProcess {
    /// `xboard`, `protover 2`, the features up to `done=1` (each answered), then the options.
    pub(super) fn cecp_handshake(&mut self, spec: &EngineSpec, deadline: Instant) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        let mut state = CecpState { limits: spec.limits.clone(), ..CecpState::default() };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok((_, line)) => line,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineError::Timeout("feature done=1", self.ready))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited("feature done=1")),
            };
            let Some(rest) = line.strip_prefix("feature ") else { continue };
            let mut done = false;
            for (key, value) in features(rest) {
                match key.as_str() {
                    "usermove" => state.usermove = value == "1",
                    "ping" => state.ping = value == "1",
                    "myname" => self.id_name = Some(value.clone()),
                    "done" => done = value == "1",
                    _ => {}
                }
                if key != "done" {
                    // Moves go out in coordinates; everything else the runner either uses or ignores harmlessly.
                    let answer = if key == "san" && value == "1" { "rejected" } else { "accepted" };
                    self.send(&format!("{answer} {key}"))?;
                }
            }
            if done {
                break;
            }
        }
        self.cecp = state;
        for (name, value) in &spec.options {
            self.send(&format!("option {name}={value}"))?;
        }
        self.cecp_sync()
    }

    /// Before each game: `new`, the variant, force mode, the limits, thinking output on, no pondering.
    pub(super) fn cecp_new_game(&mut self) -> Result<(), EngineError> {
        self.send("new")?;
        self.send("variant xiangqi")?;
        self.send("force")?;
        let limits = self.cecp.limits.clone();
        if let Some(tc) = limits.tc {
            let secs = tc.base_ms / 1000;
            let base = format!("{}:{:02}", secs / 60, secs % 60);
            self.send(&format!(
                "level {} {base} {}",
                tc.moves.unwrap_or(0),
                tc.increment_ms as f64 / 1000.0
            ))?;
        }
        if let Some(ms) = limits.movetime_ms {
            self.send(&format!("st {}", ms as f64 / 1000.0))?;
        }
        if let Some(d) = limits.depth {
            self.send(&format!("sd {d}"))?;
        }
        self.send("post")?;
        self.send("easy")?;
        self.cecp.playing = None;
        self.cecp_sync()
    }

    /// `ping N` / `pong N`, when the engine has `ping=1` (otherwise nothing can be waited for).
    fn cecp_sync(&mut self) -> Result<(), EngineError> {
        if !self.cecp.ping {
            return Ok(());
        }
        self.cecp.pings += 1;
        let n = self.cecp.pings;
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let deadline = Instant::now() + self.ready;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) if line.trim() == want => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout("pong", self.ready)),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited("pong")),
            }
        }
    }

    fn cecp_move_line(&self, m: &str) -> String {
        if self.cecp.usermove {
            format!("usermove {m}")
        } else {
            m.to_string()
        }
    }

    /// Tells the engine the game and its clocks, and waits for `move` as [`EngineProcess::go`] does for
    /// `bestmove`; on time it sends `?` (move now) where UCI sends `stop`.
    pub(super) fn cecp_go(
        &mut self,
        req: &GoRequest,
        allowance_ms: u64,
        grace_ms: u64,
    ) -> Result<GoOutcome, EngineError> {
        while self.lines.try_recv().is_ok() {}
        let history = req.history;
        let follows = match &self.cecp.playing {
            Some((fen, moves)) => {
                fen == req.start_fen && history.len() == moves.len() + 1 && history.starts_with(moves)
            }
            None => false,
        };
        let mut lines = Vec::new();
        if !follows {
            lines.push("force".to_string());
            lines.push(format!("setboard {}", to_xboard_fen(req.start_fen)));
            lines.extend(history.iter().map(|m| self.cecp_move_line(m)));
        }
        if let (Some(own), Some(opp)) = (req.own, req.opp) {
            lines.push(format!("time {}", own.remaining_ms / 10));
            lines.push(format!("otim {}", opp.remaining_ms / 10));
        }
        match (follows, history.last()) {
            (true, Some(last)) => lines.push(self.cecp_move_line(last)),
            _ => lines.push("go".to_string()),
        }
        self.cecp.playing = None;
        for l in &lines {
            match self.send(l) {
                Ok(()) => {}
                Err(EngineError::Write(_)) => return Ok(GoOutcome::Exited),
                Err(e) => return Err(e),
            }
        }
        let outcome =
            self.await_reply(allowance_ms, grace_ms, "?", |line, reply| match read_line(line, reply) {
                Answer::Nothing => false,
                Answer::Move(m) => {
                    reply.bestmove = Some(m);
                    true
                }
                Answer::Resign => {
                    reply.resign = true;
                    true
                }
                Answer::NoMove(said) => {
                    reply.said = Some(said);
                    true
                }
            });
        if let GoOutcome::Reply(Reply { bestmove: Some(m), .. }) = &outcome {
            let mut moves = history.to_vec();
            moves.push(m.clone());
            self.cecp.playing = Some((req.start_fen.to_string(), moves));
        }
        Ok(outcome)
    }
}

/// What one line from a thinking CECP engine means to the runner.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    /// Thinking output (read into the reply), a comment, a draw offer: keep waiting.
    Nothing,
    /// `move MOVE`.
    Move(String),
    /// `resign`.
    Resign,
    /// A result claim or a complaint (`Illegal move`, `Error`) instead of a move: the engine will not move.
    NoMove(String),
}

fn read_line(line: &str, reply: &mut Reply) -> Answer {
    let line = line.trim();
    let mut words = line.split_whitespace();
    match words.next() {
        Some("move") => words.next().map_or(Answer::Nothing, |m| Answer::Move(m.to_string())),
        Some("resign") => Answer::Resign,
        Some("1-0" | "0-1" | "1/2-1/2") => Answer::NoMove(line.to_string()),
        Some("Illegal") | Some("Error") => Answer::NoMove(line.to_string()),
        Some(first) => {
            // Thinking output: `ply score time nodes pv`.
            let nums: Vec<Option<i64>> = line.split_whitespace().take(4).map(|w| w.parse().ok()).collect();
            if let [Some(ply), Some(score), Some(_), Some(_)] = nums[..] {
                reply.depth = u32::try_from(ply).ok();
                reply.score = Some(cp_from_cecp(score));
            }
            let _ = first;
            Answer::Nothing
        }
        None => Answer::Nothing,
    }
}

/// A CECP score (centipawns, ±(100000 + N) for a mate in N moves) in the runner's terms.
fn cp_from_cecp(score: i64) -> i32 {
    if score >= 100_000 {
        MATE_CP - (score - 100_000).min(1000) as i32
    } else if score <= -100_000 {
        -MATE_CP + (-score - 100_000).min(1000) as i32
    } else {
        score.clamp(-(MATE_CP as i64) + 1000, MATE_CP as i64 - 1000) as i32
    }
}

/// The `key=value` pairs of a `feature` line; values may be quoted and hold spaces.
fn features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = match after.strip_prefix('"') {
            Some(quoted) => match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            },
            None => match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            },
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_lines_split_into_pairs() {
        let f = features("myname=\"Sjaak II 1.4\" usermove=1 option=\"Hash -spin 16 1 1024\" done=1");
        assert_eq!(
            f,
            vec![
                ("myname".into(), "Sjaak II 1.4".into()),
                ("usermove".into(), "1".into()),
                ("option".into(), "Hash -spin 16 1 1024".into()),
                ("done".into(), "1".into()),
            ]
        );
    }

    #[test]
    fn engine_lines_are_moves_thinking_or_refusals() {
        let mut r = Reply::default();
        assert_eq!(read_line("7 -35 120 50000 h2e2 h9g7", &mut r), Answer::Nothing);
        assert_eq!((r.depth, r.score), (Some(7), Some(-35)));
        assert_eq!(read_line("9 100003 10 10 a1d1", &mut r), Answer::Nothing);
        assert_eq!(r.score, Some(MATE_CP - 3));
        assert_eq!(read_line("move c0e2", &mut r), Answer::Move("c0e2".into()));
        assert_eq!(read_line("resign", &mut r), Answer::Resign);
        assert!(matches!(read_line("1/2-1/2 {Draw by repetition}", &mut r), Answer::NoMove(_)));
        assert!(matches!(read_line("Illegal move: h2e2", &mut r), Answer::NoMove(_)));
        assert_eq!(read_line("# debug words 1 2 3", &mut r), Answer::Nothing);
        assert_eq!(read_line("offer draw", &mut r), Answer::Nothing);
    }
}
