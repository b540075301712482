//! The protocol loop: commands in order from the reader thread, one search at a time on its own thread.
//!
//! The main loop never waits for a search unless it must (a new `go`, `quit`, end of input): `isready`,
//! `position`, `setoption` and the developer commands are answered while the engine thinks. Options that
//! the searcher needs (hash size, threads, lines) are applied when it is idle, or at the next `go`.
//! Every bad line gets one message and changes nothing.

use crate::capacity;
use crate::command::{Base, BenchArgs, Command, Dialect, Go, GoClock, PositionSpec};
use crate::draw::{self, DrawPolicy, Verdict};
use crate::evaluator::{eval_text, new_evaluator, sync_searcher, EngineSearcher, EvalChoice, LoadedNet};
use crate::format;
use crate::options::{Applied, OptionError, OptionId, Settings};
use crate::output::Output;
use crate::parse::{echo, parse, ParseError};
use crate::reader::{self, Input, Signals, MAX_LINE};
use crate::strength::{line_moves, Strength};
use engine::evaluate::Evaluate;
use engine::random::Rng;
use engine::search::{
    Clock, Limits, Reporter, SearchControl, SearchInfo, SearchOptions, SearchResult, Searcher,
};
use engine::{Move, Position};
use std::io::{IsTerminal, Read};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the loop was started.
#[derive(Copy, Clone, Debug, Default)]
pub struct Config {
    /// stdout is a terminal: `d` may draw a coloured picture.
    pub tty: bool,
}

/// Stack for the search thread: deep searches recurse, and the default 2 MiB is not much.
const SEARCH_STACK: usize = 64 << 20;
/// `currmove` lines start after the search has run this long (short searches would only flood the GUI).
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Runs the loop on the process's stdin and stdout; prints a banner on stderr when a person is typing.
pub fn run_stdio() -> ExitCode {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "{} — a xiangqi engine. Type 'uci' or 'ucci' to start, 'd' to see the board, 'quit' to leave.",
            format::ENGINE_NAME
        );
    }
    run(std::io::stdin(), Output::stdout(), Config { tty: std::io::stdout().is_terminal() });
    ExitCode::SUCCESS
}

/// Runs the loop on `input` until `quit` or the end of input, writing to `out`.
pub fn run(input: impl Read + Send + 'static, out: Output, config: Config) {
    let (tx, rx) = mpsc::channel();
    let control = Arc::new(SearchControl::new());
    let signals = Arc::new(Signals::default());
    if let Err(e) = reader::spawn(input, tx, signals.clone(), control.clone()) {
        out.line(&format::message(None, &format!("cannot start the input thread: {e}")));
        return;
    }
    let mut session = Session::new(out, config, control, signals);
    loop {
        let input = rx.recv().unwrap_or(Input::Eof);
        session.reap();
        match input {
            Input::Line { text, go_number } => {
                // `xboard` hands the rest of the session to CECP, which keeps its own game (cecp/).
                if crate::cecp::opens(&text) {
                    session.finish();
                    return crate::cecp::session::run(rx, session.out.clone(), session.control.clone());
                }
                if session.handle(&text, go_number) == Flow::Quit {
                    session.finish();
                    if session.dialect == Some(Dialect::Ucci) {
                        session.out.line(format::BYE);
                    }
                    return;
                }
            }
            Input::TooLong { len, command } => session.error(&format::too_long(len, MAX_LINE, &command)),
            Input::Eof => {
                session.finish();
                return;
            }
        }
    }
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// What runs in the background: a search (which gives the searcher back) or a developer tool.
enum Busy {
    Search(JoinHandle<EngineSearcher>),
    Tool(JoinHandle<()>),
}

struct Session {
    out: Output,
    config: Config,
    dialect: Option<Dialect>,
    settings: Settings,
    pos: Position,
    banmoves: Vec<Move>,
    /// `None` while a search thread holds it.
    searcher: Option<EngineSearcher>,
    busy: Option<Busy>,
    /// A `ucinewgame`/`Clear Hash` arrived while the searcher was busy.
    clear_pending: bool,
    /// What the searcher's evaluator was made for.
    eval_applied: EvalChoice,
    /// The network `EvalFile` loaded (the built-in one until another loads), with its name as the `eval`
    /// command and messages show it.
    net: LoadedNet,
    /// The running search is infinite: only `stop` ends it.
    search_infinite: bool,
    /// Set by the search thread just before it prints `bestmove`: from then on the session waits for the
    /// thread (which only hands the searcher back) instead of treating the engine as busy, so a command
    /// sent right after `bestmove` (e.g. `probe`) sees the finished search.
    answered: Arc<AtomicBool>,
    control: Arc<SearchControl>,
    signals: Arc<Signals>,
}

impl Session {
    fn new(out: Output, config: Config, control: Arc<SearchControl>, signals: Arc<Signals>) -> Session {
        Session {
            out,
            config,
            dialect: None,
            settings: Settings::default(),
            pos: Position::startpos(),
            banmoves: Vec::new(),
            searcher: Some(Searcher::new(new_evaluator())),
            busy: None,
            clear_pending: false,
            eval_applied: EvalChoice::default(),
            net: LoadedNet::default(),
            search_infinite: false,
            answered: Arc::new(AtomicBool::new(false)),
            control,
            signals,
        }
    }

    /// One message line about something that went wrong.
    fn error(&self, text: &str) {
        tracing::info!("{text}");
        self.out.line(&format::message(self.dialect, text));
    }

    /// One message line telling the user the engine did less than asked, and why.
    fn note(&self, text: &str) {
        tracing::warn!("{text}");
        self.out.line(&format::message(self.dialect, text));
    }

    fn handle(&mut self, text: &str, go_number: u64) -> Flow {
        let command = match parse(text, self.dialect.unwrap_or(Dialect::Uci)) {
            Ok(c) => c,
            Err(ParseError::Empty) => return Flow::Continue,
            Err(e) => {
                self.error(&e.to_string());
                return Flow::Continue;
            }
        };
        match command {
            Command::Uci | Command::Ucci => {
                let d = if command == Command::Uci { Dialect::Uci } else { Dialect::Ucci };
                self.dialect = Some(d);
                self.out.lines(format::introduction(d));
            }
            Command::IsReady => self.out.line(format::READYOK),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::NewGame => self.clear_hash(),
            Command::Position(spec) => match resolve(&spec) {
                Ok(pos) => {
                    self.pos = pos;
                    self.banmoves.clear();
                }
                Err(e) => self.error(&format!("position rejected: {e}; the position is unchanged")),
            },
            Command::BanMoves(list) => match self.resolve_moves(&list) {
                Ok(moves) => self.banmoves = moves,
                Err(e) => self.error(&format!("banmoves rejected: {e}; the banned moves are unchanged")),
            },
            Command::Go(go) => self.go(go, go_number),
            // The reader thread has already flipped the search's flags; a stop for a search that has
            // finished needs nothing more.
            Command::PonderHit { .. } => {}
            Command::Stop => {
                if self.searching() {
                    self.control.stop();
                }
            }
            Command::Probe(spec) => match resolve(&spec) {
                Ok(pos) => {
                    self.out.line(&format::pophash(self.searcher.as_ref().and_then(|s| s.probe(&pos))))
                }
                Err(e) => self.error(&format!("probe rejected: {e}")),
            },
            Command::Quit => return Flow::Quit,
            Command::Display(style) => {
                self.out.lines(crate::board_view::render(&self.pos, style, self.config.tty))
            }
            Command::Eval => self.out.lines(eval_text(&self.pos, &self.net.net, &self.net.name).lines()),
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(args) => self.bench(args),
            Command::Flip => {
                self.pos = self.pos.flipped();
                self.banmoves.clear();
            }
        }
        Flow::Continue
    }

    // ----- background work -----

    fn searching(&self) -> bool {
        matches!(&self.busy, Some(Busy::Search(h)) if !h.is_finished())
    }

    /// Collects a finished background job.
    fn reap(&mut self) {
        let finished = match &self.busy {
            Some(Busy::Search(h)) => h.is_finished() || self.answered.load(Ordering::SeqCst),
            Some(Busy::Tool(h)) => h.is_finished(),
            None => false,
        };
        if finished {
            self.wait_idle();
        }
    }

    /// Waits for the background job (a search must have been told to stop, or be about to finish).
    fn wait_idle(&mut self) {
        match self.busy.take() {
            Some(Busy::Search(h)) => match h.join() {
                Ok(searcher) => {
                    self.searcher = Some(searcher);
                    self.apply_pending();
                }
                Err(_) => tracing::error!("the search thread panicked; starting a fresh searcher"),
            },
            Some(Busy::Tool(h)) => {
                let _ = h.join().map_err(|_| tracing::error!("a tool thread panicked"));
            }
            None => {}
        }
    }

    /// Stops a running search and waits for it (and for a tool, which cannot be stopped).
    fn stop_and_wait(&mut self) {
        if matches!(self.busy, Some(Busy::Search(_))) {
            self.control.stop();
        }
        self.wait_idle();
    }

    /// At `quit` or end of input: stop the search and let it answer; let a tool finish (`perft 5` piped
    /// in with `quit` after it should print its count).
    fn finish(&mut self) {
        self.stop_and_wait();
    }

    fn spawn_tool(&mut self, job: impl FnOnce() + Send + 'static) {
        match std::thread::Builder::new().name("tool".into()).spawn(job) {
            Ok(h) => self.busy = Some(Busy::Tool(h)),
            Err(e) => self.error(&format!("cannot start a thread: {e}")),
        }
    }

    /// Whether a search is running that only `stop` or `ponderhit` will end.
    fn waiting_for_stop(&self) -> bool {
        self.searching() && (self.search_infinite || self.control.pondering())
    }

    fn perft(&mut self, depth: u32) {
        if self.waiting_for_stop() {
            return self.error("perft: a search is running; send stop first");
        }
        self.wait_idle();
        let (pos, threads, out) = (self.pos.clone(), self.settings.threads, self.out.clone());
        self.spawn_tool(move || out.lines(crate::tools::perft_lines(&pos, depth, threads, true)));
    }

    fn bench(&mut self, args: BenchArgs) {
        if self.waiting_for_stop() {
            return self.error("bench: a search is running; send stop first");
        }
        self.wait_idle();
        let (out, dialect) = (self.out.clone(), self.dialect);
        let config = crate::tools::bench_config(&args);
        let evaluator = self.eval_choice().evaluator();
        self.spawn_tool(move || {
            match crate::tools::bench_lines(engine::bench::DEFAULT_FENS, &config, evaluator) {
                Ok(lines) => out.lines(lines),
                Err(e) => out.line(&format::message(dialect, &format!("bench: {e}"))),
            }
        });
    }

    // ----- options -----

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let previous_file = self.settings.eval_file.clone();
        match self.settings.set(name, value) {
            Ok(Applied::Pressed(OptionId::ClearHash | OptionId::NewGame)) => self.clear_hash(),
            Ok(Applied::Set(OptionId::EvalFile)) => {
                self.load_eval_file(previous_file);
                self.apply_pending();
            }
            Ok(Applied::Set(OptionId::Threads)) => {
                let used = self.search_options().threads;
                if used < self.settings.threads {
                    self.note(&format::threads_note(self.settings.threads, used));
                }
                self.apply_pending();
            }
            Ok(_) => self.apply_pending(),
            // UCCI GUIs send their whole settings list without reading ours.
            Err(OptionError::Unknown(n)) if self.dialect == Some(Dialect::Ucci) => {
                tracing::debug!("ignoring unknown option '{n}'");
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    /// Loads the network `EvalFile` names (its built-in name or an empty name: the built-in network). A
    /// file that cannot be used gets one message, and the network and option value stay as they were.
    fn load_eval_file(&mut self, previous_file: String) {
        match self.net.load(&self.settings.eval_file) {
            Ok(None) => {}
            Ok(Some(text)) => self.out.line(&format::message(self.dialect, &text)),
            Err(text) => {
                self.out.line(&format::message(self.dialect, &text));
                self.settings.eval_file = previous_file;
            }
        }
    }

    /// The evaluator the options ask for now.
    fn eval_choice(&self) -> EvalChoice {
        EvalChoice {
            knowledge: self.settings.knowledge.clone(),
            nnue: self.settings.eval.eq_ignore_ascii_case("nnue"),
            net: Arc::clone(&self.net.net),
        }
    }

    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            hash_mb: self.settings.hash_mb,
            threads: capacity::search_threads(self.settings.threads, capacity::hardware_threads()),
            multipv: self.settings.multipv.max(Strength::from_settings(&self.settings).lines()),
            move_overhead_ms: self.settings.move_overhead_ms,
        }
    }

    fn clear_hash(&mut self) {
        self.clear_pending = true;
        self.apply_pending();
    }

    /// Applies option changes and a pending clear to the searcher, if it is idle.
    fn apply_pending(&mut self) {
        if let Some(mut searcher) = self.searcher.take() {
            self.sync(&mut searcher);
            self.searcher = Some(searcher);
        }
    }

    /// Brings an idle searcher up to date: options, the evaluator chosen by `Eval`, `EvalFile` and
    /// `knowledge`, a pending clear.
    fn sync(&mut self, searcher: &mut EngineSearcher) {
        let wanted = self.search_options();
        if searcher.options() != &wanted {
            let resize = searcher.options().hash_mb != wanted.hash_mb;
            searcher.set_options(wanted);
            if let Some(note) = format::hash_size_note(&searcher.hash_size()).filter(|_| resize) {
                self.note(&note);
            }
        }
        let wanted = self.eval_choice();
        sync_searcher(searcher, &self.settings, wanted, &mut self.eval_applied, &mut self.clear_pending);
    }

    // ----- go -----

    fn resolve_moves(&self, list: &[String]) -> Result<Vec<Move>, String> {
        list.iter().map(|m| self.pos.parse_move(m).map_err(|e| e.to_string())).collect()
    }

    fn go(&mut self, go: Go, go_number: u64) {
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
        let searchmoves = match self.resolve_moves(&go.searchmoves) {
            Ok(m) => m,
            Err(e) => return self.error(&format!("go rejected: searchmoves: {e}")),
        };
        // One search at a time: a go during a search ends the old one (which still answers).
        self.stop_and_wait();

        let playable = self
            .pos
            .legal_moves()
            .iter()
            .any(|m| !self.banmoves.contains(m) && (searchmoves.is_empty() || searchmoves.contains(m)));
        if !playable && !go.ponder {
            if dialect == Dialect::Uci && !self.pos.has_legal_move() {
                self.out.line(format::MATED_NOW);
            }
            return self.out.line(&format::bestmove(dialect, None, None, Verdict::Play));
        }
        if dialect == Dialect::Ucci && go.depth == Some(0) {
            let eval = self.eval_choice().evaluator().evaluate(&self.pos);
            return self.out.lines([format::static_eval(dialect, eval), format::NOBESTMOVE.to_string()]);
        }

        let strength = Strength::from_settings(&self.settings);
        let limits = limits_for(&go, &self.pos, &self.settings, searchmoves, self.banmoves.clone());
        self.search_infinite = limits.infinite;
        let mut searcher = self.searcher.take().unwrap_or_else(|| Searcher::new(new_evaluator()));
        self.sync(&mut searcher);
        self.control.reset(go.ponder);
        if self.signals.ponderhit(go_number) {
            self.control.ponderhit();
        }
        if self.signals.stopped(go_number) {
            self.control.stop();
        }
        self.answered.store(false, Ordering::SeqCst);
        let job = SearchJob {
            answered: Arc::clone(&self.answered),
            pos: self.pos.clone(),
            infinite: limits.infinite,
            limits,
            dialect,
            show_wdl: self.settings.show_wdl,
            strength,
            policy: DrawPolicy {
                accept: self.settings.accept_draw,
                offer: self.settings.offer_draw,
                resign: self.settings.resign,
            },
            draw_by_go: go.draw,
            go_number,
            signals: self.signals.clone(),
            control: self.control.clone(),
            out: self.out.clone(),
        };
        let fallback = job.pos.legal_moves().iter().copied().find(|m| !job.limits.banmoves.contains(m));
        match std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || job.run(searcher))
        {
            Ok(h) => self.busy = Some(Busy::Search(h)),
            Err(e) => {
                // Without a thread there is no search, but the GUI still needs a move.
                self.error(&format!("cannot start the search thread: {e}"));
                self.out.line(&format::bestmove(dialect, fallback, None, Verdict::Play));
            }
        }
    }
}

/// The search limits for `go` in `pos`: times in milliseconds whatever the dialect's units (UCCI's are
/// seconds unless `usemillisec` is on), the mover's clock picked from UCI's two, the depth capped for
/// weakened play, and "think until stopped" when nothing limits the search.
pub fn limits_for(
    go: &Go,
    pos: &Position,
    settings: &Settings,
    searchmoves: Vec<Move>,
    banmoves: Vec<Move>,
) -> Limits {
    let to_ms = |v: f64| {
        let ms = if settings.use_millisec { v } else { v * 1000.0 };
        ms.round().clamp(0.0, u64::MAX as f64) as u64
    };
    let clock = match go.clock {
        GoClock::None => None,
        GoClock::Uci { wtime, btime, winc, binc, movestogo } => {
            let red = pos.side_to_move() == engine::Color::Red;
            let (time, inc) = if red { (wtime, winc) } else { (btime, binc) };
            Some(Clock {
                remaining_ms: time.unwrap_or(0).max(0) as u64,
                increment_ms: inc.unwrap_or(0).max(0) as u64,
                movestogo: movestogo.filter(|&n| n > 0),
            })
        }
        GoClock::Ucci { time, movestogo, increment, .. } => Some(Clock {
            remaining_ms: to_ms(time),
            increment_ms: to_ms(increment.unwrap_or(0.0)),
            movestogo: movestogo.filter(|&n| n > 0),
        }),
    };
    let depth = go.depth.map(|d| d.max(1));
    let depth = match (depth, Strength::from_settings(settings).depth_cap()) {
        (Some(d), Some(cap)) => Some(d.min(cap)),
        (d, cap) => d.or(cap),
    };
    Limits {
        depth,
        nodes: go.nodes,
        movetime: go.movetime,
        mate: go.mate,
        clock,
        infinite: go.infinite || go.has_no_limit(),
        searchmoves,
        banmoves,
    }
}

/// A position from the wire: the FEN (or start) and every move must be valid, or nothing changes. Only
/// the history the search reads is kept, so a game of any length searches as fast as a short one.
fn resolve(spec: &PositionSpec) -> Result<Position, String> {
    let mut pos = match &spec.base {
        Base::Startpos => Position::startpos(),
        Base::Fen(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN: {e}"))?,
    };
    for (i, m) in spec.moves.iter().enumerate() {
        pos.try_play(m).map_err(|e| format!("move {} ('{}'): {e}", i + 1, echo(m)))?;
    }
    pos.keep_recent_history(engine::search::repetition::HISTORY_PLIES);
    Ok(pos)
}

/// Everything a search thread needs.
struct SearchJob {
    answered: Arc<AtomicBool>,
    pos: Position,
    limits: Limits,
    infinite: bool,
    dialect: Dialect,
    show_wdl: bool,
    strength: Strength,
    policy: DrawPolicy,
    draw_by_go: bool,
    go_number: u64,
    signals: Arc<Signals>,
    control: Arc<SearchControl>,
    out: Output,
}

impl SearchJob {
    fn run(self, mut searcher: EngineSearcher) -> EngineSearcher {
        let mut reporter = ProtocolReporter {
            out: self.out.clone(),
            dialect: self.dialect,
            show_wdl: self.show_wdl,
            lines: vec![],
            start: Instant::now(),
        };
        let result = searcher.search(&self.pos, &self.limits, &mut reporter, &self.control);
        // While pondering or analysing, the answer waits for ponderhit or stop.
        while (self.infinite || self.control.pondering()) && !self.control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        let lines: Vec<SearchInfo> = reporter.lines.into_iter().flatten().collect();
        let (best, ponder) = self.choose(&result, &lines);
        let offered = self.draw_by_go || self.signals.draw_offered(self.go_number);
        let verdict = match best {
            Some(_) if result.depth >= 1 => draw::verdict(self.policy, &self.pos, result.score, offered),
            _ => Verdict::Play,
        };
        self.answered.store(true, Ordering::SeqCst);
        self.out.line(&format::bestmove(self.dialect, best, ponder, verdict));
        searcher
    }

    /// The move to play and the expected reply: the search's best, or a weaker line's when play is
    /// weakened. The reply is only given if it is legal after the move.
    fn choose(&self, result: &SearchResult, lines: &[SearchInfo]) -> (Option<Move>, Option<Move>) {
        let playable = |m: Move| {
            self.pos.is_legal(m)
                && !self.limits.banmoves.contains(&m)
                && (self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(&m))
        };
        let mut choice = (result.best, result.ponder);
        if self.strength.is_weakened() {
            let mut rng = Rng::from_time(self.pos.key());
            if let Some(i) = self.strength.choose(lines, &mut rng) {
                if let (Some(m), reply) = line_moves(&lines[i]) {
                    if playable(m) {
                        choice = (Some(m), reply);
                    }
                }
            }
        }
        let (best, mut ponder) = choice;
        let Some(best) = best else { return (None, None) };
        if ponder.is_none() {
            ponder = lines.first().filter(|l| l.pv.first() == Some(&best)).and_then(|l| l.pv.get(1).copied());
        }
        let ponder = ponder.filter(|&p| {
            let mut after = self.pos.clone();
            after.make_move(best);
            after.is_legal(p)
        });
        (Some(best), ponder)
    }
}

/// Turns search reports into protocol lines as they come, and remembers each line's latest report.
struct ProtocolReporter {
    out: Output,
    dialect: Dialect,
    show_wdl: bool,
    lines: Vec<Option<SearchInfo>>,
    start: Instant,
}

impl Reporter for ProtocolReporter {
    fn info(&mut self, info: &SearchInfo) {
        let index = info.multipv.max(1) - 1;
        if self.lines.len() <= index {
            self.lines.resize(index + 1, None);
        }
        self.lines[index] = Some(info.clone());
        self.out.lines(format::info(self.dialect, info, self.show_wdl));
    }

    fn currmove(&mut self, m: Move, number: usize, depth: u32) {
        if self.start.elapsed() >= CURRMOVE_AFTER {
            self.out.line(&format::currmove(self.dialect, m, number, depth));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str, dialect: Dialect) -> Go {
        match parse(line, dialect) {
            Ok(Command::Go(g)) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ucci_times_are_seconds_unless_usemillisec() {
        let pos = Position::startpos();
        let mut settings = Settings::default();
        let g = go("go time 300 increment 2.5 opptime 10", Dialect::Ucci);
        let l = limits_for(&g, &pos, &settings, vec![], vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 300_000, increment_ms: 2_500, movestogo: None }));
        assert!(!l.infinite);
        settings.use_millisec = true;
        let g = go("go time 60000 movestogo 30", Dialect::Ucci);
        let l = limits_for(&g, &pos, &settings, vec![], vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 60_000, increment_ms: 0, movestogo: Some(30) }));
    }

    #[test]
    fn uci_clock_is_the_movers() {
        let settings = Settings::default();
        let g = go("go wtime 1000 btime -20 winc 10 binc 20 movestogo 0", Dialect::Uci);
        let red = Position::startpos();
        let l = limits_for(&g, &red, &settings, vec![], vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 1000, increment_ms: 10, movestogo: None }));
        let black = Position::from_fen(&engine::position::START_FEN.replace(" w ", " b ")).unwrap();
        let l = limits_for(&g, &black, &settings, vec![], vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 0, increment_ms: 20, movestogo: None }));
    }

    #[test]
    fn no_limit_means_infinite_and_weak_play_caps_depth() {
        let pos = Position::startpos();
        let mut settings = Settings::default();
        assert!(limits_for(&go("go", Dialect::Uci), &pos, &settings, vec![], vec![]).infinite);
        assert!(limits_for(&go("go ponder", Dialect::Uci), &pos, &settings, vec![], vec![]).infinite);
        assert!(
            !limits_for(&go("go ponder movetime 5", Dialect::Uci), &pos, &settings, vec![], vec![]).infinite
        );
        assert_eq!(
            limits_for(&go("go depth 0", Dialect::Uci), &pos, &settings, vec![], vec![]).depth,
            Some(1)
        );
        settings.skill_level = 0;
        let l = limits_for(&go("go depth 30", Dialect::Uci), &pos, &settings, vec![], vec![]);
        assert_eq!(l.depth, Some(2));
        let l = limits_for(&go("go movetime 100", Dialect::Uci), &pos, &settings, vec![], vec![]);
        assert_eq!((l.depth, l.movetime), (Some(2), Some(100)));
    }

    #[test]
    fn positions_resolve_whole_or_not_at_all() {
        let spec = |moves: &[&str]| PositionSpec {
            base: Base::Startpos,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        assert!(resolve(&spec(&["h2e2", "h9g7"])).is_ok());
        let e = resolve(&spec(&["h2e2", "h2e2"])).unwrap_err();
        assert!(e.contains("move 2"), "{e}");
        assert!(resolve(&spec(&["h2e2", "zz"])).unwrap_err().contains("not a move"));
        let bad = PositionSpec { base: Base::Fen("rnbakabnr/9 w".into()), moves: vec![] };
        assert!(resolve(&bad).unwrap_err().starts_with("bad FEN"));
    }
}
