//! The UCI/UCCI front door: commands in order from the reader thread, each parsed and handed to the
//! [`Engine`], whose reports are formatted here.
//!
//! The loop never waits for a search unless it must (a new `go`, `quit`, end of input): `isready`,
//! `position`, `setoption`, `stop` and the developer commands are answered while the engine thinks.
//! Options the searcher needs are applied when it is idle, or at the next `go`. Every bad line gets one
//! message and changes nothing.

use crate::command::{Base, BenchArgs, Command, Dialect, Go, GoClock, PositionSpec};
use crate::draw::Verdict;
use crate::evaluator::eval_text;
use crate::facade::{Decision, Engine, EngineError, GoRequest, Listener, Note};
use crate::format;
use crate::options::{OptionError, Settings};
use crate::output::Output;
use crate::parse::{echo, parse, ParseError};
use crate::reader::{self, Input, MAX_LINE};
use crate::strength::Strength;
use engine::clock::Instant;
use engine::evaluate::Evaluate;
use engine::search::{Clock, Limits, Reporter, SearchInfo};
use engine::{Move, Position};
use std::io::{IsTerminal, Read};
use std::process::ExitCode;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How the loop was started.
#[derive(Copy, Clone, Debug, Default)]
pub struct Config {
    /// stdout is a terminal: `d` may draw a coloured picture.
    pub tty: bool,
    /// A front door that cannot hear `stop` while a search runs (the browser worker, whose one thread
    /// is the search's) searches a `go infinite`, a `go ponder` or a `go` with no limit for at most this
    /// many milliseconds and then answers, instead of thinking until a stop that could never arrive.
    pub unstoppable_search_ms: Option<u64>,
}

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
    run(
        std::io::stdin(),
        Output::stdout(),
        Config { tty: std::io::stdout().is_terminal(), ..Config::default() },
    );
    ExitCode::SUCCESS
}

/// Runs the loop on `input` until `quit` or the end of input, writing to `out`.
pub fn run(input: impl Read + Send + 'static, out: Output, config: Config) {
    let (tx, rx) = mpsc::channel();
    if let Err(e) = reader::spawn(input, tx) {
        out.line(&format::message(None, &format!("cannot start the input thread: {e}")));
        return;
    }
    let mut session = Session::new(out, config);
    loop {
        match session.receive(rx.recv().unwrap_or(Input::Eof)) {
            Next::Continue => {}
            Next::End => return,
            Next::Xboard => return crate::cecp::session::run(rx, session.out.clone(), session.engine),
        }
    }
}

/// What the loop does after one input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Read the next line.
    Continue,
    /// The session is over (`quit` or the end of input); any search has answered.
    End,
    /// `xboard` came: the rest of the input is CECP's (the search, if any, has answered).
    Xboard,
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// One UCI/UCCI conversation: fed one input at a time by [`run`]'s loop, or by any other front end that
/// has its own way of getting lines (the browser worker).
pub struct Session {
    out: Output,
    config: Config,
    dialect: Option<Dialect>,
    engine: Engine,
    /// A developer tool (perft, bench) running in the background.
    tool: Option<JoinHandle<()>>,
}

impl Session {
    /// A new conversation writing to `out`, with the engine at its defaults.
    pub fn new(out: Output, config: Config) -> Session {
        Session { out, config, dialect: None, engine: Engine::new(), tool: None }
    }

    /// Handles one input: collects finished work first, then answers the line.
    pub fn receive(&mut self, input: Input) -> Next {
        self.reap();
        match input {
            Input::Line { text } => {
                // `xboard` hands the rest of the session to CECP, which keeps its own game (cecp/).
                if crate::cecp::opens(&text) {
                    self.finish();
                    return Next::Xboard;
                }
                if self.handle(&text) == Flow::Quit {
                    self.finish();
                    if self.dialect == Some(Dialect::Ucci) {
                        self.out.line(format::BYE);
                    }
                    return Next::End;
                }
            }
            Input::TooLong { len, command } => {
                if command.eq_ignore_ascii_case("position") {
                    self.engine.refuse_position();
                }
                self.error(&format::too_long(len, MAX_LINE, &command))
            }
            Input::Eof => {
                self.finish();
                return Next::End;
            }
        }
        Next::Continue
    }

    /// Says on the output that `text` went wrong, in the dialect's message form; changes nothing.
    pub fn refuse(&self, text: &str) {
        self.error(text);
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

    fn handle(&mut self, text: &str) -> Flow {
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
            Command::NewGame => self.engine.new_game(),
            Command::Position(spec) => match resolve(&spec) {
                Ok((pos, warning)) => {
                    self.engine.set_position(pos);
                    if let Some(w) = warning {
                        self.note(&w);
                    }
                }
                Err(e) => {
                    self.engine.refuse_position();
                    self.error(&format!(
                        "position rejected: {e}; go answers no move until a valid position comes; the \
                         position is unchanged"
                    ))
                }
            },
            Command::BanMoves(list) => match self.resolve_moves(&list) {
                Ok(moves) => self.engine.set_banmoves(moves),
                Err(e) => self.error(&format!("banmoves rejected: {e}; the banned moves are unchanged")),
            },
            Command::Go(go) => self.go(go),
            // A stop or ponderhit for a search that has finished needs nothing more.
            Command::PonderHit { draw } => self.engine.ponderhit(draw),
            Command::Stop => self.engine.stop(),
            Command::Probe(spec) => match resolve(&spec) {
                Ok((pos, _)) => self.out.line(&format::pophash(self.engine.probe(&pos))),
                Err(e) => self.error(&format!("probe rejected: {e}")),
            },
            Command::Quit => return Flow::Quit,
            Command::Display(style) => {
                self.out.lines(crate::board_view::render(self.engine.position(), style, self.config.tty));
                if let Some(v) = self.engine.tablebase_verdict(self.engine.position()) {
                    self.out.line(&format!("Tablebase: {v}"));
                }
                self.notes(self.engine.tablebase_messages());
            }
            Command::Eval => {
                let net = self.engine.net();
                self.out.lines(eval_text(self.engine.position(), &net.net, &net.name).lines())
            }
            Command::Perft(depth) => self.perft(depth),
            Command::Bench(args) => self.bench(args),
            Command::Flip => {
                let flipped = self.engine.position().flipped();
                self.engine.set_position(flipped);
            }
        }
        Flow::Continue
    }

    // ----- background work -----

    /// Collects a finished search or tool.
    fn reap(&mut self) {
        if let Some(finished) = self.engine.poll() {
            self.notes(finished.notes);
        }
        if self.tool.as_ref().is_some_and(|h| h.is_finished()) {
            self.wait_for_tool();
        }
    }

    fn wait_for_tool(&mut self) {
        if let Some(h) = self.tool.take() {
            let _ = h.join().map_err(|_| tracing::error!("a tool thread panicked"));
        }
    }

    /// Stops a running search and waits for it (it still answers), and for a tool, which cannot be
    /// stopped.
    fn stop_and_wait(&mut self) {
        self.engine.stop();
        if let Some(finished) = self.engine.wait() {
            self.notes(finished.notes);
        }
        self.wait_for_tool();
    }

    /// At `quit` or end of input: stop the search and let it answer; let a tool finish (`perft 5` piped
    /// in with `quit` after it should print its count).
    fn finish(&mut self) {
        self.stop_and_wait();
    }

    fn spawn_tool(&mut self, job: impl FnOnce() + Send + 'static) {
        if !crate::capacity::threads_can_start() {
            // The loop's own thread does the work and the lines after it wait, as the search does there.
            return job();
        }
        match std::thread::Builder::new().name("tool".into()).spawn(job) {
            Ok(h) => self.tool = Some(h),
            Err(e) => self.error(&format!("cannot start a thread: {e}")),
        }
    }

    fn perft(&mut self, depth: u32) {
        if self.engine.waiting_for_stop() {
            return self.error("perft: a search is running; send stop first");
        }
        self.stop_and_wait();
        let (pos, threads, out) =
            (self.engine.position().clone(), self.engine.settings().threads, self.out.clone());
        self.spawn_tool(move || out.lines(crate::tools::perft_lines(&pos, depth, threads, true)));
    }

    fn bench(&mut self, args: BenchArgs) {
        if self.engine.waiting_for_stop() {
            return self.error("bench: a search is running; send stop first");
        }
        self.stop_and_wait();
        let (out, dialect) = (self.out.clone(), self.dialect);
        let config = crate::tools::bench_config(&args);
        let evaluator = self.engine.eval_choice().evaluator();
        self.spawn_tool(move || {
            match crate::tools::bench_lines(engine::bench::DEFAULT_FENS, &config, evaluator) {
                Ok(lines) => out.lines(lines),
                Err(e) => out.line(&format::message(dialect, &format!("bench: {e}"))),
            }
        });
    }

    // ----- options -----

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.engine.set_option(name, value) {
            Ok(notes) => self.notes(notes),
            // UCCI GUIs send their whole settings list without reading ours.
            Err(EngineError::Option(OptionError::Unknown(n))) if self.dialect == Some(Dialect::Ucci) => {
                tracing::debug!("ignoring unknown option '{n}'");
            }
            Err(e @ EngineError::EvalFile(_)) => {
                self.out.line(&format::message(self.dialect, &e.to_string()))
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn notes(&self, notes: Vec<Note>) {
        for note in notes {
            match note {
                Note::EvalFile(text) | Note::Egtb(text) => {
                    self.out.line(&format::message(self.dialect, &text))
                }
                other => self.note(other.text()),
            }
        }
    }

    // ----- go -----

    fn resolve_moves(&self, list: &[String]) -> Result<Vec<Move>, engine::position::MoveError> {
        list.iter().map(|m| self.engine.position().parse_move(m)).collect()
    }

    fn go(&mut self, go: Go) {
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let dialect = self.dialect.unwrap_or(Dialect::Uci);
        if self.engine.position_refused() {
            // The GUI shows a position the engine refused: a move of the last valid one would be illegal there.
            self.stop_and_wait();
            self.note("go: the last position sent was refused; there is no position to search");
            return self.out.line(&format::bestmove(dialect, None, None, Verdict::Play));
        }
        let searchmoves = match self.resolve_moves(&go.searchmoves) {
            Ok(m) => m,
            Err(e) => return self.error(&format!("go rejected: searchmoves: {e}")),
        };
        // One search at a time: a go during a search ends the old one (which still answers).
        self.stop_and_wait();

        let pos = self.engine.position();
        if !self.engine.has_playable_move(&searchmoves) && !go.ponder {
            if dialect == Dialect::Uci && !pos.has_legal_move() {
                self.out.line(format::MATED_NOW);
            }
            return self.out.line(&format::bestmove(dialect, None, None, Verdict::Play));
        }
        if dialect == Dialect::Ucci && go.depth == Some(0) {
            let eval = self.engine.eval_choice().evaluator().evaluate(pos);
            return self.out.lines([format::static_eval(dialect, eval), format::NOBESTMOVE.to_string()]);
        }
        let mut limits = limits_for(&go, pos, self.engine.settings(), searchmoves);
        let mut ponder = go.ponder;
        if let Some(cap) = self.config.unstoppable_search_ms {
            if limits.infinite || ponder {
                limits.infinite = false;
                limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
                ponder = false;
            }
        }
        let request = GoRequest { limits, ponder, draw_offered: go.draw };
        let listener = ProtocolListener {
            out: self.out.clone(),
            dialect,
            show_wdl: self.engine.settings().show_wdl,
            start: Instant::now(),
        };
        let notes = self.engine.go(request, Box::new(listener));
        self.notes(notes);
    }
}

/// The search limits for `go` in `pos`: times in milliseconds whatever the dialect's units (UCCI's are
/// seconds unless `usemillisec` is on), the mover's clock picked from UCI's two, the depth capped for
/// weakened play, and "think until stopped" when nothing limits the search.
pub fn limits_for(go: &Go, pos: &Position, settings: &Settings, searchmoves: Vec<Move>) -> Limits {
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
        // The facade sets them again at `go` (they count from the next search).
        rules: settings.rules,
        depth,
        nodes: go.nodes,
        movetime: go.movetime,
        mate: go.mate,
        clock,
        infinite: go.infinite || go.has_no_limit(),
        searchmoves,
        // The engine keeps the banned moves (UCCI `banmoves`) and adds them at `go`.
        banmoves: Vec::new(),
    }
}

/// Why a position (or a list of moves) from the wire was refused.
#[derive(Debug)]
pub enum PositionError {
    /// The FEN does not describe a position.
    Fen(engine::fen::FenError),
    /// Move `number` (from 1), written `text`, cannot be played.
    Move {
        /// Its place in the list, from 1.
        number: usize,
        /// The move as sent (shortened for the message).
        text: String,
        /// Why.
        error: engine::position::MoveError,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::Move { number, text, error } => write!(f, "move {number} ('{text}'): {error}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// A position from the wire: the FEN (or start) and every move must be valid, or nothing changes. Only
/// the history the search reads is kept, so a game of any length searches as fast as a short one. A
/// composed position (docs/rules.md, "Composed positions") comes with the warning to show the user.
fn resolve(spec: &PositionSpec) -> Result<(Position, Option<String>), PositionError> {
    let (mut pos, warning) = match &spec.base {
        Base::Startpos => (Position::startpos(), None),
        Base::Fen(fen) => {
            let composed = Position::from_composed_fen(fen).map_err(PositionError::Fen)?;
            let warning = composed.warning();
            (composed.position, warning)
        }
    };
    for (i, m) in spec.moves.iter().enumerate() {
        pos.try_play(m).map_err(|error| PositionError::Move { number: i + 1, text: echo(m), error })?;
    }
    pos.keep_recent_history(engine::search::repetition::HISTORY_PLIES);
    Ok((pos, warning))
}

/// Turns the engine's reports into protocol lines as they come, and its decision into `bestmove`.
struct ProtocolListener {
    out: Output,
    dialect: Dialect,
    show_wdl: bool,
    start: Instant,
}

impl Reporter for ProtocolListener {
    fn info(&mut self, info: &SearchInfo) {
        self.out.lines(format::info(self.dialect, info, self.show_wdl));
    }

    fn currmove(&mut self, m: Move, number: usize, depth: u32) {
        if self.start.elapsed() >= CURRMOVE_AFTER {
            self.out.line(&format::currmove(self.dialect, m, number, depth));
        }
    }
}

impl Listener for ProtocolListener {
    fn decided(&mut self, d: &Decision) {
        self.out.line(&format::bestmove(self.dialect, d.best, d.ponder, d.verdict));
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
        let l = limits_for(&g, &pos, &settings, vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 300_000, increment_ms: 2_500, movestogo: None }));
        assert!(!l.infinite);
        settings.use_millisec = true;
        let g = go("go time 60000 movestogo 30", Dialect::Ucci);
        let l = limits_for(&g, &pos, &settings, vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 60_000, increment_ms: 0, movestogo: Some(30) }));
    }

    #[test]
    fn uci_clock_is_the_movers() {
        let settings = Settings::default();
        let g = go("go wtime 1000 btime -20 winc 10 binc 20 movestogo 0", Dialect::Uci);
        let red = Position::startpos();
        let l = limits_for(&g, &red, &settings, vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 1000, increment_ms: 10, movestogo: None }));
        let black = Position::from_fen(&engine::position::START_FEN.replace(" w ", " b ")).unwrap();
        let l = limits_for(&g, &black, &settings, vec![]);
        assert_eq!(l.clock, Some(Clock { remaining_ms: 0, increment_ms: 20, movestogo: None }));
    }

    #[test]
    fn no_limit_means_infinite_and_weak_play_caps_depth() {
        let pos = Position::startpos();
        let mut settings = Settings::default();
        assert!(limits_for(&go("go", Dialect::Uci), &pos, &settings, vec![]).infinite);
        assert!(limits_for(&go("go ponder", Dialect::Uci), &pos, &settings, vec![]).infinite);
        assert!(!limits_for(&go("go ponder movetime 5", Dialect::Uci), &pos, &settings, vec![]).infinite);
        assert_eq!(limits_for(&go("go depth 0", Dialect::Uci), &pos, &settings, vec![]).depth, Some(1));
        settings.skill_level = 0;
        let l = limits_for(&go("go depth 30", Dialect::Uci), &pos, &settings, vec![]);
        assert_eq!(l.depth, Some(2));
        let l = limits_for(&go("go movetime 100", Dialect::Uci), &pos, &settings, vec![]);
        assert_eq!((l.depth, l.movetime), (Some(2), Some(100)));
    }

    #[test]
    fn positions_resolve_whole_or_not_at_all() {
        let spec = |moves: &[&str]| PositionSpec {
            base: Base::Startpos,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        };
        assert!(resolve(&spec(&["h2e2", "h9g7"])).is_ok());
        let e = resolve(&spec(&["h2e2", "h2e2"])).unwrap_err().to_string();
        assert!(e.contains("move 2"), "{e}");
        assert!(resolve(&spec(&["h2e2", "zz"])).unwrap_err().to_string().contains("not a move"));
        let bad = PositionSpec { base: Base::Fen("rnbakabnr/9 w".into()), moves: vec![] };
        assert!(resolve(&bad).unwrap_err().to_string().starts_with("bad FEN"));
    }
}
