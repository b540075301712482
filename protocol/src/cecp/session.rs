//! The CECP game loop. Unlike UCI and UCCI, where the GUI sends the whole position with every `go`, a CECP
//! engine keeps the game itself: it plays the moves it is sent, answers with its own `move`, and must know
//! which side it plays (`new` = Black, `go` = the side to move, `playother` = the other, `force` = neither).
//!
//! The [`Engine`] keeps the game's position and runs one search at a time, for one of three purposes: the
//! engine's move, pondering (`hard`: thinking on the opponent's time, which fills the hash table for the
//! reply; no move is guessed) or analysis. The move is printed from the search thread so it reaches XBoard
//! at once; the loop then applies it to the game before it reads the next command. A command that changes
//! the game (`force`, `new`, `setboard`, `undo`, a move, `result`...) first abandons the running search:
//! the engine decides, atomically, whether its move was already printed (then it is kept) or never will be.

use super::command::{self, Cecp, Level};
use super::format;
use crate::draw::Verdict;
use crate::facade::{Decision, Engine, EngineError, GoRequest, Listener, Note};
use crate::options::{MAX_HASH_MB, MAX_THREADS};
use crate::output::Output;
use crate::reader::{Input, MAX_LINE};
use crate::strength::Strength;
use engine::search::{Clock, Limits, Reporter, SearchInfo};
use engine::{Color, Position};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// While a search runs the loop also wakes this often, to collect a finished move and start pondering
/// without waiting for the GUI's next line.
const POLL: Duration = Duration::from_millis(5);
/// Moves per period assumed when counting nodes as time (`nps`) in a sudden-death control.
const NPS_MOVES: u64 = 30;

/// Runs CECP on the lines from the reader until `quit` or the end of input.
pub fn run(rx: Receiver<Input>, out: Output, engine: Engine) {
    let mut game = Game::new(out, engine);
    loop {
        let input = if game.job.is_some() {
            match rx.recv_timeout(POLL) {
                Ok(i) => Some(i),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Input::Eof),
            }
        } else {
            Some(rx.recv().unwrap_or(Input::Eof))
        };
        game.reap();
        match input {
            None => {}
            Some(Input::Line { text, .. }) if !game.handle(&text) => {
                game.abandon();
                return;
            }
            Some(Input::Line { .. }) => {}
            Some(Input::TooLong { len, command }) => game.out.line(&format::error(
                &format!("line of {len} bytes is longer than {MAX_LINE}; ignored whole"),
                &command,
            )),
            Some(Input::Eof) => {
                game.abandon();
                return;
            }
        }
    }
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's move: printed when the search ends.
    Move,
    /// Thinking on the opponent's time; ends unprinted when the opponent moves.
    Ponder,
    /// Analyze mode; ends unprinted at `exit` or when the position changes.
    Analyze,
}

struct Game {
    out: Output,
    engine: Engine,
    /// What the running search is for; `None` when none runs.
    job: Option<Purpose>,
    /// Force mode: play neither side.
    force: bool,
    /// The side chuhan plays when not in force mode.
    engine_side: Color,
    level: Level,
    /// `st`: milliseconds per move.
    move_time: Option<u64>,
    /// `sd`.
    depth: Option<u32>,
    /// `nps`: nodes to the second when nodes count as time.
    nps: Option<u64>,
    /// `time` and `otim`, centiseconds.
    own_cs: Option<i64>,
    post: bool,
    ponder: bool,
    analyzing: bool,
    /// The opponent offered a draw since chuhan's last move.
    draw_offered: bool,
    /// The latest report of the running (or last) search, for `.`.
    latest: Arc<Mutex<Option<SearchInfo>>>,
}

impl Game {
    fn new(out: Output, mut engine: Engine) -> Game {
        engine.set_position(Position::startpos());
        Game {
            out,
            engine,
            job: None,
            force: false,
            engine_side: Color::Black,
            level: Level::default(),
            move_time: None,
            depth: None,
            nps: None,
            own_cs: None,
            post: true,
            ponder: false,
            analyzing: false,
            draw_offered: false,
            latest: Arc::new(Mutex::new(None)),
        }
    }

    fn pos(&self) -> &Position {
        self.engine.position()
    }

    fn error(&self, reason: &str, line: &str) {
        tracing::info!("{reason}: {line}");
        self.out.line(&format::error(reason, line));
    }

    /// Handles one line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let cmd = match command::parse(line) {
            None => return true,
            Some(Ok(c)) => c,
            Some(Err(e)) => {
                self.error(&e.reason, &e.command);
                return true;
            }
        };
        match cmd {
            Cecp::Xboard | Cecp::FeatureReply => {}
            Cecp::Protover(_) => self.out.lines(format::features()),
            Cecp::New => {
                self.abandon();
                self.engine.set_position(Position::startpos());
                self.force = false;
                self.engine_side = Color::Black;
                self.depth = None;
                self.nps = None;
                self.move_time = None;
                self.draw_offered = false;
                self.engine.new_game();
                self.resume_analysis();
            }
            Cecp::Variant(v) if v == "xiangqi" => {}
            Cecp::Variant(_) => self.error("only variant xiangqi is played", line),
            Cecp::Force => {
                self.abandon_unless_analyzing();
                self.force = true;
            }
            Cecp::Go => {
                self.abandon();
                self.force = false;
                self.analyzing = false;
                self.engine_side = self.pos().side_to_move();
                self.think();
            }
            Cecp::PlayOther => {
                self.abandon();
                self.force = false;
                self.engine_side = !self.pos().side_to_move();
                self.start_pondering();
            }
            Cecp::SetBoard(fen) => match Position::from_composed_fen(&command::board_fen(&fen)) {
                Ok(composed) => {
                    self.abandon();
                    if let Some(w) = composed.warning() {
                        self.out.line(&format::debug(&w));
                    }
                    self.engine.set_position(composed.position);
                    self.draw_offered = false;
                    self.resume_analysis();
                }
                Err(e) => {
                    self.abandon();
                    self.engine.refuse_position();
                    self.error(
                        &format!("bad FEN: {e}; the position is unchanged and no move is played"),
                        line,
                    )
                }
            },
            Cecp::UserMove(text) => self.user_move(&text),
            Cecp::MoveNow => {
                if self.job == Some(Purpose::Move) {
                    self.engine.stop();
                }
            }
            Cecp::Ping(n) => self.out.line(&format::pong(&n)),
            Cecp::Draw => self.draw_offered = true,
            Cecp::Result => {
                self.abandon_unless_analyzing();
                self.force = true;
            }
            Cecp::Level(l) => {
                self.level = l;
                self.move_time = None;
            }
            Cecp::St(ms) => self.move_time = Some(ms),
            Cecp::Sd(d) => self.depth = Some(d),
            Cecp::Nps(n) => self.nps = (n > 0).then_some(n),
            Cecp::Time(cs) => self.own_cs = Some(cs),
            // chuhan plans its time from its own clock only.
            Cecp::Otim(_) => {}
            Cecp::Undo => self.take_back(1, line),
            Cecp::Remove => self.take_back(2, line),
            Cecp::Ponder(on) => {
                self.ponder = on;
                if !on && self.job == Some(Purpose::Ponder) {
                    self.abandon();
                }
            }
            Cecp::Post(on) => self.post = on,
            Cecp::Analyze => {
                self.abandon();
                self.analyzing = true;
                self.start(Purpose::Analyze);
            }
            Cecp::Exit => {
                if self.analyzing {
                    self.analyzing = false;
                    self.abandon();
                }
            }
            Cecp::Status => {
                if self.analyzing {
                    let latest = self.latest.lock().unwrap_or_else(PoisonError::into_inner).clone();
                    self.out.line(&format::stat01(latest.as_ref(), self.pos().legal_moves().len()));
                }
            }
            Cecp::Memory(mb) => {
                let mb = mb.clamp(1, MAX_HASH_MB as u64);
                self.set_option("Hash", Some(&mb.to_string()), line);
            }
            Cecp::Cores(n) => {
                let n = n.clamp(1, MAX_THREADS as u64);
                self.set_option("Threads", Some(&n.to_string()), line);
            }
            Cecp::Option { name, value } => self.set_option(&name, value.as_deref(), line),
            Cecp::EgtPath { kind, path } if kind == "xiangqi" => {
                self.set_option("EGTBPath", Some(&path), line)
            }
            Cecp::EgtPath { kind, .. } => tracing::debug!("ignoring egtpath for '{kind}' tables"),
            Cecp::Ignored(word) => tracing::debug!("ignoring CECP command '{word}'"),
            Cecp::Quit => return false,
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match self.engine.set_option(name, value) {
            Ok(notes) => self.notes(notes),
            Err(EngineError::Option(e)) => self.error(&e.to_string(), line),
            Err(e) => self.error(&e.to_string(), line),
        }
    }

    /// Shows the notes CECP shows: a loaded network, as a debug line; the threads and hash notes are
    /// not shown.
    fn notes(&self, notes: Vec<Note>) {
        for note in notes {
            if let Note::EvalFile(text) | Note::Egtb(text) = note {
                self.out.line(&format::debug(&text));
            }
        }
    }

    fn user_move(&mut self, text: &str) {
        if self.engine.position_refused() {
            return self.out.line(&format::illegal_move("the last setboard was refused", text));
        }
        let pondering = self.job.is_some_and(|p| p != Purpose::Analyze);
        if pondering {
            self.abandon();
        }
        match self.pos().parse_move(&text.to_ascii_lowercase()) {
            Ok(m) => {
                if self.analyzing {
                    self.abandon();
                }
                self.engine.position_mut().make_move(m);
                if self.analyzing {
                    self.start(Purpose::Analyze);
                } else if !self.force && self.pos().side_to_move() == self.engine_side {
                    self.think();
                }
            }
            Err(e) => {
                let reason = match e {
                    engine::position::MoveError::Illegal(_, why) => why.to_string(),
                    other => other.to_string(),
                };
                self.out.line(&format::illegal_move(&reason, text));
                // A ponder search stopped for a move that was not played resumes.
                if pondering {
                    self.start_pondering();
                }
            }
        }
    }

    /// `undo` (1) and `remove` (2): all or nothing.
    fn take_back(&mut self, plies: usize, line: &str) {
        if self.pos().history().len() < plies {
            return self.error("not that many moves to take back", line);
        }
        self.abandon();
        for _ in 0..plies {
            self.engine.position_mut().unmake_move();
        }
        self.resume_analysis();
    }

    // ----- searches -----

    /// The engine's turn: search, or claim the result when there is nothing to play.
    fn think(&mut self) {
        if !self.engine.position_refused() && !self.pos().has_legal_move() {
            self.force = true;
            return self.out.line(&format::no_move_result(self.pos().side_to_move()));
        }
        self.start(Purpose::Move);
    }

    fn start_pondering(&mut self) {
        if self.ponder && !self.force && !self.analyzing && self.pos().side_to_move() != self.engine_side {
            self.start(Purpose::Ponder);
        }
    }

    fn resume_analysis(&mut self) {
        if self.analyzing {
            self.start(Purpose::Analyze);
        }
    }

    /// The limits for the engine's move: `st`, or the clock from `time` and `level` (nodes when `nps`
    /// is on), then `sd` and the weakened-play depth cap.
    fn move_limits(&self) -> Limits {
        let mut limits = Limits::default();
        let remaining_ms = self.own_cs.map(|cs| cs.max(0) as u64 * 10).unwrap_or(self.level.base_ms);
        let movestogo = (self.level.mps > 0).then(|| {
            let played = (self.pos().fullmove_number().saturating_sub(1)) % self.level.mps;
            self.level.mps - played
        });
        match (self.move_time, self.nps) {
            (Some(ms), None) => limits.movetime = Some(ms),
            (Some(ms), Some(nps)) => limits.nodes = Some((nps.saturating_mul(ms) / 1000).max(1)),
            (None, Some(nps)) => {
                let per_move = remaining_ms / u64::from(movestogo.unwrap_or(NPS_MOVES as u32)).max(1);
                let ms = per_move + self.level.inc_ms;
                limits.nodes = Some((nps.saturating_mul(ms) / 1000).max(1));
            }
            (None, None) => {
                limits.clock = Some(Clock { remaining_ms, increment_ms: self.level.inc_ms, movestogo })
            }
        }
        let cap = Strength::from_settings(self.engine.settings()).depth_cap();
        limits.depth = match (self.depth, cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        limits
    }

    fn start(&mut self, purpose: Purpose) {
        self.abandon();
        if self.engine.position_refused() {
            // XBoard shows the board it sent: a move of the last valid one would be illegal there.
            return self.error("the last setboard was refused; no position to think about", "go");
        }
        let limits = match purpose {
            Purpose::Move => self.move_limits(),
            Purpose::Ponder | Purpose::Analyze => Limits { infinite: true, ..Limits::default() },
        };
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = None;
        let thinking = Thinking {
            out: self.out.clone(),
            pos: self.pos().clone(),
            purpose,
            // Pondering output would be the opponent's line and score; XBoard shows the engine's.
            post: self.post && purpose != Purpose::Ponder,
            latest: self.latest.clone(),
        };
        let request = GoRequest { limits, ponder: false, draw_offered: self.draw_offered };
        if purpose == Purpose::Move {
            self.draw_offered = false;
        }
        let notes = self.engine.go(request, Box::new(thinking));
        self.notes(notes);
        self.job = Some(purpose);
    }

    /// Collects a search that has finished on its own (the engine's move, printed).
    fn reap(&mut self) {
        if self.job.is_some() {
            if let Some(finished) = self.engine.poll() {
                self.take_in(finished);
                self.start_pondering();
            }
        }
    }

    /// Takes in what a finished search printed: its move is part of the game; a resignation ends it.
    fn take_in(&mut self, finished: crate::facade::Finished) {
        self.notes(finished.notes);
        let purpose = self.job.take();
        if purpose != Some(Purpose::Move) || !finished.delivered {
            return;
        }
        match (finished.decision.verdict, finished.decision.best) {
            (Verdict::Resign, _) => self.force = true,
            (_, Some(m)) => self.engine.position_mut().make_move(m),
            (_, None) => {}
        }
    }

    /// Stops the running search without letting it print anything it has not printed yet.
    fn abandon(&mut self) {
        if self.job.is_none() {
            return;
        }
        match self.engine.abandon() {
            Some(finished) => self.take_in(finished),
            None => self.job = None,
        }
    }

    fn abandon_unless_analyzing(&mut self) {
        if self.job.is_some_and(|p| p != Purpose::Analyze) {
            self.abandon();
        }
    }
}

/// Prints thinking output for the first line and keeps its latest report; prints the engine's move.
struct Thinking {
    out: Output,
    /// The position searched.
    pos: Position,
    purpose: Purpose,
    post: bool,
    latest: Arc<Mutex<Option<SearchInfo>>>,
}

impl Reporter for Thinking {
    fn info(&mut self, info: &SearchInfo) {
        if info.multipv.max(1) == 1 {
            *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(info.clone());
            if self.post {
                self.out.line(&format::thinking(info));
            }
        }
    }
}

impl Listener for Thinking {
    fn decided(&mut self, d: &Decision) {
        if self.purpose != Purpose::Move {
            return;
        }
        let Some(m) = d.best else { return };
        match d.verdict {
            Verdict::Resign => return self.out.line(format::RESIGN),
            Verdict::Draw => self.out.lines([format::OFFER_DRAW.to_string(), format::play(m)]),
            Verdict::Play => self.out.line(&format::play(m)),
        }
        let mut after = self.pos.clone();
        after.make_move(m);
        if !after.has_legal_move() {
            self.out.line(&format::no_move_result(after.side_to_move()));
        }
    }
}
