//! The CECP game loop. Unlike UCI and UCCI, where the GUI sends the whole position with every `go`, a CECP
//! engine keeps the game itself: it plays the moves it is sent, answers with its own `move`, and must know
//! which side it plays (`new` = Black, `go` = the side to move, `playother` = the other, `force` = neither).
//!
//! One search runs at a time on its own thread, for one of three purposes: the engine's move, pondering
//! (`hard`: thinking on the opponent's time, which fills the hash table for the reply; no move is guessed)
//! or analysis. The search thread prints the move itself so it reaches XBoard at once; the loop then
//! applies it to the game before it reads the next command. A command that changes the game (`force`,
//! `new`, `setboard`, `undo`, a move, `result`...) first abandons the running search: a gate shared with
//! the thread decides, atomically, whether its move was already printed (then it is kept) or never will be.

use super::command::{self, Cecp, Level};
use super::format;
use crate::draw::{self, DrawPolicy, Verdict};
use crate::evaluator::{new_evaluator, sync_searcher, EngineSearcher, EvalChoice, LoadedNet};
use crate::options::{Applied, OptionId, Settings, MAX_HASH_MB, MAX_THREADS};
use crate::output::Output;
use crate::reader::{Input, MAX_LINE};
use crate::strength::{line_moves, Strength};
use engine::random::Rng;
use engine::search::{Clock, Limits, Reporter, SearchControl, SearchInfo, SearchOptions, Searcher};
use engine::{Color, Move, Position};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Stack for the search thread, as for UCI and UCCI: deep searches recurse.
const SEARCH_STACK: usize = 64 << 20;
/// While a search runs the loop also wakes this often, to collect a finished move and start pondering
/// without waiting for the GUI's next line.
const POLL: Duration = Duration::from_millis(5);
/// Moves per period assumed when counting nodes as time (`nps`) in a sudden-death control.
const NPS_MOVES: u64 = 30;

/// Runs CECP on the lines from the reader until `quit` or the end of input.
pub fn run(rx: Receiver<Input>, out: Output, control: Arc<SearchControl>) {
    let mut game = Game::new(out, control);
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

/// What the search thread hands back.
struct Finished {
    searcher: EngineSearcher,
    /// The move it printed (it is then part of the game).
    played: Option<Move>,
    /// It printed `resign`.
    resigned: bool,
}

/// The running search.
struct Job {
    purpose: Purpose,
    handle: JoinHandle<Finished>,
    /// Set to `true` by the loop to abandon the search; the thread prints only while holding it `false`.
    gate: Arc<Mutex<bool>>,
}

struct Game {
    out: Output,
    control: Arc<SearchControl>,
    settings: Settings,
    /// The game; its history is what `undo` takes back.
    pos: Position,
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
    searcher: Option<EngineSearcher>,
    job: Option<Job>,
    /// The latest report of the running (or last) search, for `.`.
    latest: Arc<Mutex<Option<SearchInfo>>>,
    clear_pending: bool,
    /// The evaluation the searcher was last given.
    eval_applied: EvalChoice,
    /// The network `EvalFile` loaded (the built-in one until another loads).
    net: LoadedNet,
}

impl Game {
    fn new(out: Output, control: Arc<SearchControl>) -> Game {
        let settings = Settings::default();
        Game {
            out,
            control,
            eval_applied: EvalChoice::default(),
            settings,
            pos: Position::startpos(),
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
            searcher: Some(Searcher::new(new_evaluator())),
            job: None,
            latest: Arc::new(Mutex::new(None)),
            clear_pending: false,
            net: LoadedNet::default(),
        }
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
                self.pos = Position::startpos();
                self.force = false;
                self.engine_side = Color::Black;
                self.depth = None;
                self.nps = None;
                self.move_time = None;
                self.draw_offered = false;
                self.clear_pending = true;
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
                self.engine_side = self.pos.side_to_move();
                self.think();
            }
            Cecp::PlayOther => {
                self.abandon();
                self.force = false;
                self.engine_side = !self.pos.side_to_move();
                self.start_pondering();
            }
            Cecp::SetBoard(fen) => match Position::from_fen(&command::board_fen(&fen)) {
                Ok(p) => {
                    self.abandon();
                    self.pos = p;
                    self.draw_offered = false;
                    self.resume_analysis();
                }
                Err(e) => self.error(&format!("bad FEN: {e}; the position is unchanged"), line),
            },
            Cecp::UserMove(text) => self.user_move(&text),
            Cecp::MoveNow => {
                if self.job.as_ref().is_some_and(|j| j.purpose == Purpose::Move) {
                    self.control.stop();
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
                if !on && self.job.as_ref().is_some_and(|j| j.purpose == Purpose::Ponder) {
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
                    self.out.line(&format::stat01(latest.as_ref(), self.pos.legal_moves().len()));
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
            Cecp::Ignored(word) => tracing::debug!("ignoring CECP command '{word}'"),
            Cecp::Quit => return false,
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        let previous_file = self.settings.eval_file.clone();
        match self.settings.set(name, value) {
            Ok(Applied::Pressed(OptionId::ClearHash | OptionId::NewGame)) => self.clear_pending = true,
            Ok(Applied::Set(OptionId::EvalFile)) => match self.net.load(&self.settings.eval_file) {
                Ok(None) => {}
                Ok(Some(text)) => self.out.line(&format::debug(&text)),
                Err(text) => {
                    self.settings.eval_file = previous_file;
                    return self.error(&text, line);
                }
            },
            Ok(_) => {}
            Err(e) => return self.error(&e.to_string(), line),
        }
        if let Some(mut s) = self.searcher.take() {
            self.sync(&mut s);
            self.searcher = Some(s);
        }
    }

    fn user_move(&mut self, text: &str) {
        let pondering = self.job.as_ref().is_some_and(|j| j.purpose != Purpose::Analyze);
        if pondering {
            self.abandon();
        }
        match self.pos.parse_move(&text.to_ascii_lowercase()) {
            Ok(m) => {
                if self.analyzing {
                    self.abandon();
                }
                self.pos.make_move(m);
                if self.analyzing {
                    self.start(Purpose::Analyze);
                } else if !self.force && self.pos.side_to_move() == self.engine_side {
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
        if self.pos.history().len() < plies {
            return self.error("not that many moves to take back", line);
        }
        self.abandon();
        for _ in 0..plies {
            self.pos.unmake_move();
        }
        self.resume_analysis();
    }

    // ----- searches -----

    /// The engine's turn: search, or claim the result when there is nothing to play.
    fn think(&mut self) {
        if !self.pos.has_legal_move() {
            self.force = true;
            return self.out.line(&format::no_move_result(self.pos.side_to_move()));
        }
        self.start(Purpose::Move);
    }

    fn start_pondering(&mut self) {
        if self.ponder && !self.force && !self.analyzing && self.pos.side_to_move() != self.engine_side {
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
            let played = (self.pos.fullmove_number().saturating_sub(1)) % self.level.mps;
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
        let cap = Strength::from_settings(&self.settings).depth_cap();
        limits.depth = match (self.depth, cap) {
            (Some(d), Some(c)) => Some(d.min(c)),
            (d, c) => d.or(c),
        };
        limits
    }

    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            hash_mb: self.settings.hash_mb,
            threads: crate::capacity::search_threads(
                self.settings.threads,
                crate::capacity::hardware_threads(),
            ),
            multipv: Strength::from_settings(&self.settings).lines().max(1),
            move_overhead_ms: self.settings.move_overhead_ms,
        }
    }

    /// Brings an idle searcher up to date with the options and a pending clear.
    fn sync(&mut self, searcher: &mut EngineSearcher) {
        let wanted = self.search_options();
        if searcher.options() != &wanted {
            searcher.set_options(wanted);
        }
        let wanted = EvalChoice {
            knowledge: self.settings.knowledge.clone(),
            nnue: self.settings.eval.eq_ignore_ascii_case("nnue"),
            net: Arc::clone(&self.net.net),
        };
        sync_searcher(searcher, &self.settings, wanted, &mut self.eval_applied, &mut self.clear_pending);
    }

    fn start(&mut self, purpose: Purpose) {
        self.abandon();
        let limits = match purpose {
            Purpose::Move => self.move_limits(),
            Purpose::Ponder | Purpose::Analyze => Limits { infinite: true, ..Limits::default() },
        };
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(new_evaluator()));
        self.sync(&mut searcher);
        self.control.reset(false);
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = None;
        let gate = Arc::new(Mutex::new(false));
        let search = Search {
            purpose,
            pos: self.pos.clone(),
            limits,
            strength: Strength::from_settings(&self.settings),
            policy: DrawPolicy {
                accept: self.settings.accept_draw,
                offer: self.settings.offer_draw,
                resign: self.settings.resign,
            },
            offered: self.draw_offered,
            // Pondering output would be the opponent's line and score; XBoard shows the engine's.
            post: self.post && purpose != Purpose::Ponder,
            gate: gate.clone(),
            latest: self.latest.clone(),
            control: self.control.clone(),
            out: self.out.clone(),
        };
        if purpose == Purpose::Move {
            self.draw_offered = false;
        }
        let fallback = self.pos.legal_moves().iter().copied().next();
        match std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || search.run(searcher))
        {
            Ok(handle) => self.job = Some(Job { purpose, handle, gate }),
            Err(e) => {
                // Without a thread there is no search, but XBoard still needs a move.
                self.out.line(&format::debug(&format!("cannot start the search thread: {e}")));
                if let (Purpose::Move, Some(m)) = (purpose, fallback) {
                    self.out.line(&format::play(m));
                    self.pos.make_move(m);
                }
            }
        }
    }

    /// Collects a search that has finished on its own (the engine's move, printed).
    fn reap(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
            self.collect();
            self.start_pondering();
        }
    }

    /// Waits for the running search and takes in what it printed.
    fn collect(&mut self) {
        let Some(job) = self.job.take() else { return };
        match job.handle.join() {
            Ok(done) => {
                self.searcher = Some(done.searcher);
                if let Some(m) = done.played {
                    self.pos.make_move(m);
                }
                if done.resigned {
                    self.force = true;
                }
            }
            Err(_) => tracing::error!("the search thread panicked; starting a fresh searcher"),
        }
    }

    /// Stops the running search without letting it print anything it has not printed yet.
    fn abandon(&mut self) {
        let Some(job) = &self.job else { return };
        *job.gate.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.control.stop();
        self.collect();
    }

    fn abandon_unless_analyzing(&mut self) {
        if self.job.as_ref().is_some_and(|j| j.purpose != Purpose::Analyze) {
            self.abandon();
        }
    }
}

/// Everything a search thread needs.
struct Search {
    purpose: Purpose,
    pos: Position,
    limits: Limits,
    strength: Strength,
    policy: DrawPolicy,
    offered: bool,
    post: bool,
    gate: Arc<Mutex<bool>>,
    latest: Arc<Mutex<Option<SearchInfo>>>,
    control: Arc<SearchControl>,
    out: Output,
}

impl Search {
    fn run(self, mut searcher: EngineSearcher) -> Finished {
        let mut reporter =
            Thinking { out: self.out.clone(), post: self.post, lines: vec![], latest: self.latest };
        let result = searcher.search(&self.pos, &self.limits, &mut reporter, &self.control);
        let mut done = Finished { searcher, played: None, resigned: false };
        if self.purpose != Purpose::Move {
            return done;
        }
        let best = choose(&self.pos, &self.strength, result.best, &reporter.lines);
        let verdict = match best {
            Some(_) if result.depth >= 1 => draw::verdict(self.policy, &self.pos, result.score, self.offered),
            _ => Verdict::Play,
        };
        // Holding the gate while printing: the loop either abandoned the search first (nothing is printed)
        // or waits until the move is out and then applies it.
        let abandoned = self.gate.lock().unwrap_or_else(PoisonError::into_inner);
        if *abandoned {
            return done;
        }
        let Some(m) = best else { return done };
        match verdict {
            Verdict::Resign => {
                self.out.line(format::RESIGN);
                done.resigned = true;
                return done;
            }
            Verdict::Draw => self.out.lines([format::OFFER_DRAW.to_string(), format::play(m)]),
            Verdict::Play => self.out.line(&format::play(m)),
        }
        done.played = Some(m);
        let mut after = self.pos.clone();
        after.make_move(m);
        if !after.has_legal_move() {
            self.out.line(&format::no_move_result(after.side_to_move()));
        }
        drop(abandoned);
        done
    }
}

/// The move to play: the search's best, or a weaker line's when play is weakened.
fn choose(
    pos: &Position,
    strength: &Strength,
    best: Option<Move>,
    lines: &[Option<SearchInfo>],
) -> Option<Move> {
    if !strength.is_weakened() {
        return best;
    }
    let lines: Vec<SearchInfo> = lines.iter().flatten().cloned().collect();
    let mut rng = Rng::from_time(pos.key());
    strength
        .choose(&lines, &mut rng)
        .and_then(|i| line_moves(&lines[i]).0)
        .filter(|&m| pos.is_legal(m))
        .or(best)
}

/// Prints thinking output for the first line and keeps every line's latest report.
struct Thinking {
    out: Output,
    post: bool,
    lines: Vec<Option<SearchInfo>>,
    latest: Arc<Mutex<Option<SearchInfo>>>,
}

impl Reporter for Thinking {
    fn info(&mut self, info: &SearchInfo) {
        let index = info.multipv.max(1) - 1;
        if self.lines.len() <= index {
            self.lines.resize(index + 1, None);
        }
        self.lines[index] = Some(info.clone());
        if index == 0 {
            *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(info.clone());
            if self.post {
                self.out.line(&format::thinking(info));
            }
        }
    }
}
