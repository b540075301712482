//! The engine behind every front door. UCI/UCCI ([`crate::session`]) and CECP ([`crate::cecp`]) only
//! parse lines and format reports; the [`Engine`] owns the rest: the position, the settings, the
//! evaluator, the searcher (with its hash table and persistent threads) and the one search lifecycle —
//! start ([`Engine::go`], which returns at once), [`Engine::stop`], [`Engine::ponderhit`], the choice of
//! the move (weakened play, the expected reply, draw offers and resignation), and collecting the finished
//! search ([`Engine::poll`], [`Engine::wait`], [`Engine::abandon`]).
//!
//! The move is chosen on the search's own thread as soon as the search ends, and handed to the front
//! door's [`Listener`] there, so the answer reaches the GUI without waiting for the front door's loop.

use crate::capacity;
use crate::draw::{self, DrawPolicy, Verdict};
use crate::evaluator::{sync_searcher, EngineSearcher, EvalChoice, EvalFileError, Loaded, LoadedNet};
use crate::options::{Applied, OptionError, OptionId, Settings};
use crate::strength::{line_moves, Strength};
use engine::egtb::Tablebases;
use engine::random::Rng;
use engine::search::{
    tt_size::TableSize, Limits, ProbeResult, Reporter, SearchControl, SearchInfo, SearchOptions,
    SearchResult, Searcher,
};
use engine::{Move, Position};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// What a front door does with a search's progress (as any [`Reporter`]) and with its answer.
pub trait Listener: Reporter + 'static {
    /// The search is over and the engine has decided: called once, on the search thread, unless the search
    /// was abandoned before it decided.
    fn decided(&mut self, decision: &Decision);
}

/// The engine's answer to one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move to play (`None` only when no move is legal).
    pub best: Option<Move>,
    /// The reply expected, legal after `best`.
    pub ponder: Option<Move>,
    /// Whether to offer or accept a draw, or resign, with the move.
    pub verdict: Verdict,
    /// What the search found.
    pub result: SearchResult,
}

/// A search collected from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The engine's answer.
    pub decision: Decision,
    /// Whether the listener was given it (false when the search was abandoned first).
    pub delivered: bool,
    /// What the user should know about settings applied once the search was collected (a `Hash`
    /// changed during the search that had to be cut).
    pub notes: Vec<Note>,
}

/// One `go`.
#[derive(Clone, Debug, Default)]
pub struct GoRequest {
    /// What the search may spend, with the root moves it may play.
    pub limits: Limits,
    /// Thinking on the opponent's time: the clock starts at [`Engine::ponderhit`].
    pub ponder: bool,
    /// The opponent offers a draw with this move.
    pub draw_offered: bool,
}

/// Why the engine did not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// An option name or value it does not accept.
    Option(OptionError),
    /// A network file that cannot be used; the network in use stays.
    EvalFile(EvalFileError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Option(e) => e.fmt(f),
            EngineError::EvalFile(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

/// Something the user should know after a setting changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// Fewer threads search than asked for.
    Threads(String),
    /// The hash table is smaller than asked for.
    Hash(String),
    /// A network file was loaded.
    EvalFile(String),
    /// What the tablebase directories hold, or a table file refused.
    Egtb(String),
}

impl Note {
    /// The text to show.
    pub fn text(&self) -> &str {
        match self {
            Note::Threads(t) | Note::Hash(t) | Note::EvalFile(t) | Note::Egtb(t) => t,
        }
    }
}

/// What the running search shares with the thread that decides its move.
#[derive(Default)]
struct Answer {
    /// Set by [`Engine::abandon`]: nothing not yet given to the listener will be. Held while the listener
    /// is given the decision, so either the decision is out before the abandonment or never.
    abandoned: Mutex<bool>,
    /// Set just before the listener gets the decision: from then on the engine waits for the search
    /// (which only hands its threads' statistics back) instead of treating it as running, so that a
    /// command sent right after the answer sees the finished search.
    answered: AtomicBool,
    /// The opponent offered a draw (with `go`, or with `ponderhit draw`).
    draw_offered: AtomicBool,
    decision: Mutex<Option<Finished>>,
}

struct Running {
    control: Arc<SearchControl>,
    answer: Arc<Answer>,
    infinite: bool,
}

/// Everything the decision needs, taken at `go`.
struct Chooser {
    pos: Position,
    limits: Limits,
    strength: Strength,
    policy: DrawPolicy,
}

impl Chooser {
    /// The move to play and the expected reply: the search's best, or a weaker line's when play is
    /// weakened; the reply only if it is legal after the move; and what to say with it.
    fn decide(&self, result: &SearchResult, lines: &[SearchInfo], draw_offered: bool) -> Decision {
        let playable = |m: Move| self.pos.is_legal(m) && self.limits.allows(m);
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
        let (best, ponder) = match choice {
            (Some(best), ponder) => {
                let ponder = ponder.or_else(|| {
                    lines.first().filter(|l| l.pv.first() == Some(&best)).and_then(|l| l.pv.get(1).copied())
                });
                let ponder = ponder.filter(|&p| {
                    let mut after = self.pos.clone();
                    after.make_move(best);
                    after.is_legal(p)
                });
                (Some(best), ponder)
            }
            (None, _) => (None, None),
        };
        let verdict = match best {
            Some(_) if result.depth >= 1 => draw::verdict(self.policy, &self.pos, result.score, draw_offered),
            _ => Verdict::Play,
        };
        Decision { best, ponder, verdict, result: result.clone() }
    }
}

/// Passes reports to the listener and keeps each line's latest for the decision.
struct EngineReporter {
    listener: Arc<Mutex<Box<dyn Listener>>>,
    lines: Arc<Mutex<Vec<Option<SearchInfo>>>>,
}

impl Reporter for EngineReporter {
    fn info(&mut self, info: &SearchInfo) {
        {
            let mut lines = self.lines.lock().unwrap_or_else(PoisonError::into_inner);
            let index = info.multipv.max(1) - 1;
            if lines.len() <= index {
                lines.resize(index + 1, None);
            }
            lines[index] = Some(info.clone());
        }
        self.listener.lock().unwrap_or_else(PoisonError::into_inner).info(info);
    }

    fn currmove(&mut self, m: Move, number: usize, depth: u32) {
        self.listener.lock().unwrap_or_else(PoisonError::into_inner).currmove(m, number, depth);
    }
}

/// The engine: position, settings, evaluator, searcher, and the search in progress.
pub struct Engine {
    settings: Settings,
    pos: Position,
    /// Moves the GUI forbids in this position (UCCI `banmoves`).
    banmoves: Vec<Move>,
    searcher: EngineSearcher,
    /// What the searcher's evaluator was made for.
    eval_applied: EvalChoice,
    /// The network `EvalFile` loaded (the built-in one until another loads), with its name.
    net: LoadedNet,
    /// A new game or `Clear Hash` waits for the searcher to be idle.
    clear_pending: bool,
    /// The GUI's last position was refused: `pos` is not the position it shows, so no search may answer
    /// for it until a valid one comes.
    refused: bool,
    running: Option<Running>,
    /// The tablebases `EGTBPath` names (none until it is set).
    tablebases: Option<Arc<Tablebases>>,
    /// The searcher has not been given `tablebases` yet.
    tablebases_pending: bool,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with the default settings, at the start position.
    pub fn new() -> Engine {
        let eval_applied = EvalChoice::default();
        Engine {
            settings: Settings::default(),
            pos: Position::startpos(),
            banmoves: Vec::new(),
            searcher: Searcher::new(eval_applied.evaluator()),
            eval_applied,
            net: LoadedNet::default(),
            clear_pending: false,
            refused: false,
            running: None,
            tablebases: None,
            tablebases_pending: false,
        }
    }

    // ----- the game -----

    /// The position searched next.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Replaces the position (and forgets its banned moves and any refusal).
    pub fn set_position(&mut self, pos: Position) {
        self.pos = pos;
        self.banmoves.clear();
        self.refused = false;
    }

    /// Records that the GUI sent a position the engine refused: the last valid one is kept, but until
    /// the next [`Engine::set_position`] [`Engine::position_refused`] says a search would answer for a
    /// position the GUI does not show.
    pub fn refuse_position(&mut self) {
        self.refused = true;
    }

    /// Whether the last position sent was refused (see [`Engine::refuse_position`]).
    pub fn position_refused(&self) -> bool {
        self.refused
    }

    /// The position, to play or take back moves in it (a game kept by the engine, as in CECP).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// Forbids these moves in the current position (UCCI `banmoves`).
    pub fn set_banmoves(&mut self, moves: Vec<Move>) {
        self.banmoves = moves;
    }

    /// The moves forbidden in the current position.
    pub fn banmoves(&self) -> &[Move] {
        &self.banmoves
    }

    /// A new game: the hash table and statistics are cleared before the next search.
    pub fn new_game(&mut self) {
        self.clear_pending = true;
        self.apply_when_idle();
    }

    // ----- settings -----

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets an option (a button when `value` is `None`). Returns what the user should know; an option
    /// the engine refuses changes nothing. Changes reach the searcher when it is idle.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Vec<Note>, EngineError> {
        let previous_file = self.settings.eval_file.clone();
        let mut notes = Vec::new();
        match self.settings.set(name, value).map_err(EngineError::Option)? {
            Applied::Pressed(OptionId::ClearHash | OptionId::NewGame) => self.clear_pending = true,
            Applied::Set(OptionId::EvalFile) => match self.net.load(&self.settings.eval_file) {
                Ok(Loaded::BuiltIn) => {}
                Ok(Loaded::File(text)) => notes.push(Note::EvalFile(text)),
                Err(e) => {
                    self.settings.eval_file = previous_file;
                    return Err(EngineError::EvalFile(e));
                }
            },
            Applied::Set(OptionId::EgtbPath) => {
                let path = self.settings.egtb_path.clone();
                let tb = (path != crate::options::NO_EGTB).then(|| Tablebases::open_path_list(&path));
                if let Some(tb) = &tb {
                    notes.extend(tb.take_messages().into_iter().map(Note::Egtb));
                    notes.push(Note::Egtb(format!(
                        "EGTBPath: {} tables, up to {} pieces",
                        tb.list().len(),
                        tb.max_pieces()
                    )));
                }
                self.tablebases = tb.map(Arc::new);
                self.tablebases_pending = true;
            }
            Applied::Set(OptionId::Threads) => {
                let used = self.search_options().threads;
                if used < self.settings.threads {
                    notes.push(Note::Threads(crate::format::threads_note(self.settings.threads, used)));
                }
            }
            _ => {}
        }
        notes.extend(self.apply_when_idle());
        Ok(notes)
    }

    /// The evaluator the settings ask for.
    pub fn eval_choice(&self) -> EvalChoice {
        EvalChoice::from_settings(&self.settings, &self.net.net)
    }

    /// The network in use and its name.
    pub fn net(&self) -> &LoadedNet {
        &self.net
    }

    /// The search options the settings ask for, threads limited to what the machine runs at once.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            hash_mb: self.settings.hash_mb,
            threads: capacity::search_threads(self.settings.threads, capacity::hardware_threads()),
            multipv: self.settings.multipv.max(Strength::from_settings(&self.settings).lines()),
            move_overhead_ms: self.settings.move_overhead_ms,
        }
    }

    /// What the hash table holds for `pos`.
    pub fn probe(&self, pos: &Position) -> Option<ProbeResult> {
        self.searcher.probe(pos)
    }

    /// What the tablebases say about `pos`: the verdict line (`win 5`, `draw`, `loss 4`), if one covers it.
    pub fn tablebase_verdict(&self, pos: &Position) -> Option<String> {
        let v = self.tablebases.as_ref()?.probe(pos)?;
        Some(crate::egtb_cli::verdict_text(v))
    }

    /// Messages about table files refused since the last call (a damaged file is found on first use).
    pub fn tablebase_messages(&self) -> Vec<Note> {
        self.tablebases
            .as_ref()
            .map(|t| t.take_messages().into_iter().map(Note::Egtb).collect())
            .unwrap_or_default()
    }

    /// The hash table's size.
    pub fn hash_size(&self) -> TableSize {
        self.searcher.hash_size()
    }

    /// Brings the searcher up to the settings if no search is running; returns the notes of a resize.
    fn apply_when_idle(&mut self) -> Vec<Note> {
        if self.running.is_some() {
            return Vec::new();
        }
        self.sync()
    }

    /// Brings the idle searcher up to date: options, evaluator, a pending clear.
    fn sync(&mut self) -> Vec<Note> {
        let mut notes = self.tablebase_messages();
        if self.tablebases_pending {
            self.searcher.set_tablebases(self.tablebases.clone());
            self.tablebases_pending = false;
        }
        let wanted = self.search_options();
        if self.searcher.options() != &wanted {
            let resize = self.searcher.options().hash_mb != wanted.hash_mb;
            self.searcher.set_options(wanted);
            if let Some(note) = crate::format::hash_size_note(&self.searcher.hash_size()).filter(|_| resize) {
                notes.push(Note::Hash(note));
            }
        }
        let wanted = self.eval_choice();
        sync_searcher(
            &mut self.searcher,
            &self.settings,
            wanted,
            &mut self.eval_applied,
            &mut self.clear_pending,
        );
        notes
    }

    // ----- searching -----

    /// Whether some legal move is allowed by `searchmoves` and the banned moves.
    pub fn has_playable_move(&self, searchmoves: &[Move]) -> bool {
        let limits = self.limits_with(Limits { searchmoves: searchmoves.to_vec(), ..Limits::default() });
        self.pos.legal_moves().iter().any(|&m| limits.allows(m))
    }

    fn limits_with(&self, mut limits: Limits) -> Limits {
        limits.banmoves = self.banmoves.clone();
        // The rules in force when the search starts: a `setoption` during a search counts from the next.
        limits.rules = self.settings.rules;
        limits
    }

    /// Starts searching the current position and returns at once; a running search is stopped first (and
    /// still answers). Returns the notes of settings applied now.
    pub fn go(&mut self, request: GoRequest, listener: Box<dyn Listener>) -> Vec<Note> {
        self.stop();
        let mut notes = self.wait().map(|f| f.notes).unwrap_or_default();
        notes.extend(self.sync());
        let limits = self.limits_with(request.limits);
        let control = Arc::new(SearchControl::new());
        control.reset(request.ponder);
        let answer = Arc::new(Answer::default());
        answer.draw_offered.store(request.draw_offered, Ordering::SeqCst);
        let lines = Arc::new(Mutex::new(Vec::new()));
        let listener = Arc::new(Mutex::new(listener));
        let reporter = EngineReporter { listener: Arc::clone(&listener), lines: Arc::clone(&lines) };
        let chooser = Chooser {
            pos: self.pos.clone(),
            limits: limits.clone(),
            strength: Strength::from_settings(&self.settings),
            policy: DrawPolicy {
                accept: self.settings.accept_draw,
                offer: self.settings.offer_draw,
                resign: self.settings.resign,
            },
        };
        let shared = Arc::clone(&answer);
        let done = move |result: &SearchResult| {
            let lines: Vec<SearchInfo> =
                lines.lock().unwrap_or_else(PoisonError::into_inner).iter().flatten().cloned().collect();
            let decision = chooser.decide(result, &lines, shared.draw_offered.load(Ordering::SeqCst));
            let abandoned = shared.abandoned.lock().unwrap_or_else(PoisonError::into_inner);
            let delivered = !*abandoned;
            if delivered {
                shared.answered.store(true, Ordering::SeqCst);
                listener.lock().unwrap_or_else(PoisonError::into_inner).decided(&decision);
            }
            drop(abandoned);
            *shared.decision.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(Finished { decision, delivered, notes: Vec::new() });
        };
        let infinite = limits.infinite;
        self.searcher.start(&self.pos, &limits, Box::new(reporter), Arc::clone(&control), done);
        self.running = Some(Running { control, answer, infinite });
        notes
    }

    /// Asks the running search to stop and answer.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }

    /// The opponent played the expected move: the clock starts; `draw` when it also offers a draw.
    pub fn ponderhit(&self, draw: bool) {
        if let Some(r) = &self.running {
            if draw {
                r.answer.draw_offered.store(true, Ordering::SeqCst);
            }
            r.control.ponderhit();
        }
    }

    /// Whether a search runs that has not answered yet.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.answer.answered.load(Ordering::SeqCst))
    }

    /// Whether a search runs that only a stop or a ponderhit will end.
    pub fn waiting_for_stop(&self) -> bool {
        self.running.as_ref().is_some_and(|r| {
            !r.answer.answered.load(Ordering::SeqCst) && (r.infinite || r.control.pondering())
        })
    }

    /// Collects the search if it has finished (or has answered and is about to); never waits for one that
    /// is still thinking.
    #[must_use = "a finished search carries notes for the user"]
    pub fn poll(&mut self) -> Option<Finished> {
        let running = self.running.as_ref()?;
        if running.answer.answered.load(Ordering::SeqCst) || self.searcher.poll() {
            return self.wait();
        }
        None
    }

    /// Waits for the running search to end by itself (it must be stopped first unless it will) and
    /// collects it; then applies settings changed meanwhile, with their notes.
    #[must_use = "a finished search carries notes for the user"]
    pub fn wait(&mut self) -> Option<Finished> {
        let running = self.running.take()?;
        self.searcher.wait();
        let finished = running.answer.decision.lock().unwrap_or_else(PoisonError::into_inner).take();
        let notes = self.sync();
        finished.map(|f| Finished { notes, ..f })
    }

    /// Stops the running search without letting it answer if it has not yet, and collects it.
    #[must_use = "a finished search carries notes for the user"]
    pub fn abandon(&mut self) -> Option<Finished> {
        let running = self.running.as_ref()?;
        *running.answer.abandoned.lock().unwrap_or_else(PoisonError::into_inner) = true;
        running.control.stop();
        self.wait()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Sends every decision to the test.
    struct Collect(mpsc::Sender<Decision>);
    impl Reporter for Collect {
        fn info(&mut self, _info: &SearchInfo) {}
    }
    impl Listener for Collect {
        fn decided(&mut self, decision: &Decision) {
            let _ = self.0.send(decision.clone());
        }
    }

    fn depth(d: u32) -> GoRequest {
        GoRequest { limits: Limits { depth: Some(d), ..Limits::default() }, ..GoRequest::default() }
    }

    #[test]
    fn go_answers_through_the_listener_and_wait_collects() {
        let mut engine = Engine::new();
        let (tx, rx) = mpsc::channel();
        engine.go(depth(3), Box::new(Collect(tx)));
        let finished = engine.wait().expect("a search ran");
        assert!(finished.delivered);
        let told = rx.recv().expect("the listener heard");
        assert_eq!(told, finished.decision);
        let best = told.best.expect("a move");
        assert!(engine.position().is_legal(best));
        assert!(engine.wait().is_none(), "nothing left to collect");
    }

    #[test]
    fn an_abandoned_infinite_search_never_answers() {
        let mut engine = Engine::new();
        let (tx, rx) = mpsc::channel();
        let infinite =
            GoRequest { limits: Limits { infinite: true, ..Limits::default() }, ..GoRequest::default() };
        engine.go(infinite, Box::new(Collect(tx)));
        assert!(engine.waiting_for_stop());
        let finished = engine.abandon().expect("a search ran");
        assert!(!finished.delivered);
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn banned_moves_are_never_chosen() {
        let mut engine = Engine::new();
        let legal: Vec<Move> = engine.position().legal_moves().iter().copied().collect();
        let (keep, ban) = legal.split_at(1);
        engine.set_banmoves(ban.to_vec());
        assert!(engine.has_playable_move(&[]));
        assert!(!engine.has_playable_move(&ban[..1]));
        let (tx, _rx) = mpsc::channel();
        engine.go(depth(2), Box::new(Collect(tx)));
        assert_eq!(engine.wait().expect("ran").decision.best, Some(keep[0]));
    }

    #[test]
    fn a_refused_option_changes_nothing() {
        let mut engine = Engine::new();
        let before = engine.settings().hash_mb;
        assert!(matches!(engine.set_option("Hash", Some("lots")), Err(EngineError::Option(_))));
        assert!(matches!(
            engine.set_option("EvalFile", Some("/no/such.nnue")),
            Err(EngineError::EvalFile(_))
        ));
        assert_eq!(engine.settings().hash_mb, before);
        assert_eq!(engine.net().name, eval::nnue::EMBEDDED_NAME);
    }
}
