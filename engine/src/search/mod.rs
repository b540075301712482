//! The search: the public API the protocols use, over a lazy-SMP principal variation search.
//!
//! [`Searcher::start`] starts a search on the searcher's persistent threads and returns at once; the
//! caller keeps a [`SearchControl`] to stop it or turn a ponder search into a normal one, and
//! [`Searcher::wait`] collects it. [`Searcher::search`] does both, for callers that wait anyway. The search
//! never prints: progress goes through a [`Reporter`].
//!
//! Layout: `root` (iterative deepening, aspiration, root moves, time decisions, reports), `worker` (the
//! inner search and quiescence), `movepick` (staged move ordering), `history` (ordering statistics),
//! [`see`] (static exchange evaluation), [`tt`] (the shared hash table) and [`tt_size`] (how big it may
//! be on this machine), [`time`] (budgets), [`repetition`] (draws and cycles in the tree), `threads`
//! (lazy SMP and the final vote), [`pool`] (the persistent threads), `params` (margins and tables).
//!
//! Nodes are counted at every `make_move` of the root, the main search and quiescence (null moves are not
//! counted). With one thread and no time limit the search is deterministic: the same node count and move
//! for the same position, limits and (cleared) state.
//!
//! Strength notes: singular extensions ([`SearchFeatures::singular`]), doubled outside the principal
//! variation when every other move falls far below the window, won an SPRT on net 3 at 5+0.05 (about +20
//! Elo; docs/benchmarks.md, "Search experiments"), where a first test in self-play at 20k nodes a move with a
//! small positional evaluator had measured +0. Check extensions measured +20 there and are on. The full
//! search beats plain alpha-beta ([`SearchFeatures::plain`]) by about 85% at equal nodes and 80% at equal
//! time. Correction history (`correction`, `SearchParams::correction_percent`) won an SPRT at 3+0.03 on
//! net 3: about +19 Elo.

mod correction;
mod history;
pub mod interrupt;
mod movepick;
pub mod params;
pub mod pool;
pub mod repetition;
mod root;
pub mod see;
mod threads;
pub mod time;
pub mod tt;
mod tt_memory;
pub mod tt_size;
mod worker;

use crate::egtb::Tablebases;
use crate::evaluate::{Evaluate, UNITS_PER_HORSE};
use crate::position::Position;
use crate::types::Move;
use history::Histories;
pub use params::{SearchParams, Tunable};
use pool::ThreadPool;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::Duration;
use threads::Finished;
use tt::{score_from_tt, TranspositionTable};

/// Score of a mate now (mated at ply 0 is `-MATE`); mate in n plies is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;
/// Score of a position a tablebase says is won (less the ply it is found at): above any evaluation, below
/// the mate scores, since the table gives no mate the search could follow move by move.
pub const TB_WIN: i32 = MATE_BOUND - 1 - params::MAX_PLY as i32;

/// A side's clock as the GUI sends it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock, milliseconds.
    pub remaining_ms: u64,
    /// Increment per move, milliseconds.
    pub increment_ms: u64,
    /// Moves until the next time control, if the control has periods.
    pub movestogo: Option<u32>,
}

/// What the search may spend. Empty limits mean "think until stopped".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long, milliseconds.
    pub movetime: Option<u64>,
    /// Look for a mate in this many moves (stop when found).
    pub mate: Option<u32>,
    /// The mover's clock.
    pub clock: Option<Clock>,
    /// Search until stopped (also while pondering).
    pub infinite: bool,
    /// Only these root moves (UCI `searchmoves`); empty = all.
    pub searchmoves: Vec<Move>,
    /// Never these root moves (UCCI `banmoves`).
    pub banmoves: Vec<Move>,
    /// The rules the game is played under: how repetitions and the move limit score.
    pub rules: crate::rules::GameRules,
}

impl Limits {
    /// Whether the root move `m` may be played: in `searchmoves` (when given) and not in `banmoves`. The
    /// one filter for both lists, for the search's root and for whoever checks its answer.
    pub fn allows(&self, m: Move) -> bool {
        (self.searchmoves.is_empty() || self.searchmoves.contains(&m)) && !self.banmoves.contains(&m)
    }
}

/// Settings that persist between searches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Worker threads.
    pub threads: usize,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Milliseconds kept in reserve per move for GUI and pipe latency.
    pub move_overhead_ms: u64,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { hash_mb: 16, threads: 1, multipv: 1, move_overhead_ms: 30 }
    }
}

/// Switches for the search's selective parts, all on by default. Turning them off gives a plain alpha-beta
/// (with quiescence, hash table and move ordering), for measuring what each part is worth; the UCCI
/// `pruning` option can map onto it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    /// Null-move pruning.
    pub null_move: bool,
    /// Razoring, reverse futility and futility pruning.
    pub futility: bool,
    /// Late-move (move-count) pruning and history pruning of quiet moves.
    pub move_count_pruning: bool,
    /// SEE pruning of losing captures and quiet moves at shallow depth.
    pub see_pruning: bool,
    /// Late-move reductions.
    pub reductions: bool,
    /// Singular extensions (with multi-cut).
    pub singular: bool,
    /// Internal iterative reduction.
    pub iir: bool,
    /// Extending checking moves.
    pub check_extension: bool,
    /// Aspiration windows.
    pub aspiration: bool,
}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures {
            null_move: true,
            futility: true,
            move_count_pruning: true,
            see_pruning: true,
            reductions: true,
            singular: params::SINGULAR_EXTENSION,
            iir: true,
            check_extension: true,
            aspiration: true,
        }
    }
}

impl SearchFeatures {
    /// Everything off: full-width alpha-beta with quiescence.
    pub fn plain() -> SearchFeatures {
        SearchFeatures {
            null_move: false,
            futility: false,
            move_count_pruning: false,
            see_pruning: false,
            reductions: false,
            singular: false,
            iir: false,
            check_extension: false,
            aspiration: false,
        }
    }
}

/// Which side of the window a reported score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// At least this (fail high).
    Lower,
    /// At most this (fail low).
    Upper,
}

/// A search score as the protocols print it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units, 100 = one horse.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v * 100 / UNITS_PER_HORSE)
        }
    }
}

/// One progress report: an iteration finished (or a bound was found).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of this line when several are reported.
    pub multipv: usize,
    /// Internal score (see [`Score::from_internal`]).
    pub score: i32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Nodes searched so far, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Positions the endgame tablebases decided so far, all threads.
    pub tbhits: u64,
    /// Principal variation, legal from the root.
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Internal score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}

/// Receives the search's progress. Implemented by the protocol layer.
pub trait Reporter: Send {
    /// An iteration (or a line of a multi-PV iteration) finished.
    fn info(&mut self, info: &SearchInfo);
    /// The root move being searched now (optional).
    fn currmove(&mut self, _m: Move, _number: usize, _depth: u32) {}
}

/// A reporter that drops everything (bench, tests).
pub struct SilentReporter;
impl Reporter for SilentReporter {
    fn info(&mut self, _info: &SearchInfo) {}
}

/// Flags another thread uses to steer a running search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    /// A control for a search that is not pondering.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Resets the flags before a new search; `ponder` marks it as thinking on the opponent's time.
    pub fn reset(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
    }

    /// Asks the search to stop as soon as possible and return its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: from now on the clock limits apply.
    pub fn ponderhit(&self) {
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering (time limits do not apply yet).
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// What the hash table knows about a position (UCCI `probe`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ProbeResult {
    /// The stored best move, if it is legal in the position.
    pub best: Option<Move>,
    /// Internal score (see [`Score::from_internal`]).
    pub score: i32,
    /// Depth the score was searched to.
    pub depth: u32,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
}

/// A report passed from a search thread to a caller that waits in [`Searcher::search`].
enum Report {
    Info(SearchInfo),
    CurrMove(Move, usize, u32),
}

/// Sends every report to the thread that waits for the search.
struct ForwardingReporter(mpsc::Sender<Report>);

impl Reporter for ForwardingReporter {
    fn info(&mut self, info: &SearchInfo) {
        let _ = self.0.send(Report::Info(info.clone()));
    }

    fn currmove(&mut self, m: Move, number: usize, depth: u32) {
        let _ = self.0.send(Report::CurrMove(m, number, depth));
    }
}

/// How often a caller waiting in [`Searcher::search`] passes its control's flags on to the search.
const CONTROL_POLL: Duration = Duration::from_millis(1);

/// The searcher: owns the evaluator, the options, the hash table, the search threads and each thread's
/// statistics.
pub struct Searcher<E: Evaluate> {
    eval: Arc<E>,
    options: SearchOptions,
    tt: Arc<TranspositionTable>,
    histories: Vec<Histories>,
    features: SearchFeatures,
    params: SearchParams,
    pool: ThreadPool,
    /// The running search's hand-back channel and control; `None` when idle.
    running: Option<(Receiver<Finished>, Arc<SearchControl>)>,
    /// Endgame tablebases probed at the root and in the search.
    tablebases: Option<Arc<Tablebases>>,
}

impl<E: Evaluate> Searcher<E> {
    /// A searcher with default options. Its threads start with its first search.
    pub fn new(eval: E) -> Searcher<E> {
        let options = SearchOptions::default();
        let tt = Arc::new(TranspositionTable::new(options.hash_mb));
        Searcher {
            eval: Arc::new(eval),
            histories: vec![Histories::new()],
            options,
            tt,
            features: SearchFeatures::default(),
            params: SearchParams::default(),
            pool: ThreadPool::default(),
            running: None,
            tablebases: None,
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Replaces the evaluator (e.g. a weaker one for handicap or A/B tests), after waiting for a running
    /// search. The hash table keeps scores of the old one, so callers normally [`Searcher::clear`] as well.
    pub fn set_evaluator(&mut self, eval: E) {
        self.wait();
        self.eval = Arc::new(eval);
    }

    /// Current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes options (resizes the hash table if its size changed), after waiting for a running search.
    /// The thread count takes effect at the next search.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.wait();
        let resize = (options.hash_mb != self.options.hash_mb).then_some(options.hash_mb);
        self.histories.resize_with(options.threads.max(1), Histories::new);
        self.options = options;
        if let Some(mb) = resize {
            self.table().resize(mb);
        }
    }

    /// Uses these endgame tablebases from the next search on (`None`: none).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases.filter(|t| !t.is_empty());
    }

    /// The endgame tablebases in use.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// The tunable numbers in use.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Replaces the tunable numbers (for tuners; the defaults are the tested ones); the next search uses
    /// them.
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// The selective parts in use.
    pub fn features(&self) -> SearchFeatures {
        self.features
    }

    /// Turns selective parts of the search on or off (see [`SearchFeatures`]) for the next search.
    pub fn set_features(&mut self, features: SearchFeatures) {
        self.features = features;
    }

    /// Forgets everything learned (new game): clears the hash table and histories, after waiting for a
    /// running search.
    pub fn clear(&mut self) {
        self.wait();
        self.table().clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// The table for a change that needs it alone. Only an idle searcher changes its table, and every
    /// search drops its handles before it reports back, so the table is normally not shared; if it were,
    /// a fresh table of the same size replaces it rather than changing one a search still reads.
    fn table(&mut self) -> &mut TranspositionTable {
        if Arc::get_mut(&mut self.tt).is_none() {
            self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
        }
        Arc::get_mut(&mut self.tt).expect("a table just made has one owner")
    }

    /// The hash table's size against the size asked for (smaller when the machine cannot hold it).
    pub fn hash_size(&self) -> tt_size::TableSize {
        self.tt.size()
    }

    /// Transposition table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// What the hash table holds for `pos` (the move only if it is legal there).
    pub fn probe(&self, pos: &Position) -> Option<ProbeResult> {
        let d = self.tt.probe(pos.key())?;
        Some(ProbeResult {
            best: d.mv.filter(|&m| pos.is_legal(m)),
            score: score_from_tt(d.score, 0),
            depth: d.depth as u32,
            bound: d.bound,
        })
    }

    /// Whether a search started by [`Searcher::start`] has not been collected by [`Searcher::wait`] yet.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts searching `pos` within `limits` on the searcher's threads and returns at once (a running
    /// search is waited for first). Progress goes to `reporter`; `control` stops the search or ends its
    /// pondering. When the search is over, its main thread calls `done` with the result (always a move
    /// when one is legal); [`Searcher::wait`] then collects it. While `limits.infinite` or pondering, the
    /// search does not end before `control` is stopped or (pondering) gets a ponderhit.
    pub fn start(
        &mut self,
        pos: &Position,
        limits: &Limits,
        reporter: Box<dyn Reporter>,
        control: Arc<SearchControl>,
        done: impl FnOnce(&SearchResult) + Send + 'static,
    ) {
        self.wait();
        // When the system refuses threads, fewer search (with none, the caller's thread does).
        let _ = self.pool.resize(self.options.threads);
        if self.histories.is_empty() {
            self.histories.push(Histories::new());
        }
        self.table().new_search();
        let job = threads::SearchJob {
            eval: Arc::clone(&self.eval),
            tt: Arc::clone(&self.tt),
            histories: std::mem::take(&mut self.histories),
            options: self.options.clone(),
            features: self.features,
            params: Arc::new(self.params.clone()),
            reporter,
            control,
            tablebases: self.tablebases.clone(),
        };
        let (finished, running) = mpsc::channel();
        self.running = Some((running, Arc::clone(&job.control)));
        threads::start(&self.pool, job, pos, limits, Box::new(done), finished);
    }

    /// Whether the running search has finished, collecting it if so (never blocks).
    pub fn poll(&mut self) -> bool {
        match self.running.as_ref().map(|(r, _)| r.try_recv()) {
            Some(Ok(finished)) => {
                self.collect(finished);
                true
            }
            Some(Err(mpsc::TryRecvError::Empty)) => false,
            Some(Err(mpsc::TryRecvError::Disconnected)) => {
                self.lost();
                true
            }
            None => true,
        }
    }

    /// Waits for the running search to finish and returns its result (`None` when no search was running,
    /// or it was lost). Does not stop it: stop it through its control first unless it ends by itself.
    pub fn wait(&mut self) -> Option<SearchResult> {
        let (running, _) = self.running.as_ref()?;
        match running.recv() {
            Ok(finished) => {
                let result = finished.result.clone();
                self.collect(finished);
                Some(result)
            }
            Err(_) => {
                self.lost();
                None
            }
        }
    }

    fn collect(&mut self, finished: Finished) {
        self.running = None;
        self.histories = finished.histories;
        self.histories.resize_with(self.options.threads.max(1), Histories::new);
    }

    /// A search thread died without handing its statistics back: start them afresh.
    fn lost(&mut self) {
        self.running = None;
        self.histories.resize_with(self.options.threads.max(1), Histories::new);
    }

    /// Searches `pos` within `limits`, reporting through `reporter`, until done or `control` stops it, and
    /// returns the result. Always returns a move when one is legal. While `limits.infinite` or pondering,
    /// it does not return before `control` is stopped or (pondering) gets a ponderhit.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
        control: &SearchControl,
    ) -> SearchResult {
        // The search threads need a control they can share; the caller's flags are passed on to it.
        let shared_control = Arc::new(SearchControl::new());
        shared_control.reset(control.pondering());
        if control.stopped() {
            shared_control.stop();
        }
        let (reports, inbox) = mpsc::channel();
        self.start(pos, limits, Box::new(ForwardingReporter(reports)), Arc::clone(&shared_control), |_| {});
        loop {
            // The channel closes when the search drops its reporter, just before it finishes.
            // The clock is read only when there is nothing to take: where the search ran on this thread (a
            // wasm build has no other) every report is already in and std's clock would panic.
            let report = match inbox.try_recv() {
                Ok(report) => Ok(report),
                Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) => inbox.recv_timeout(CONTROL_POLL),
            };
            match report {
                Ok(Report::Info(info)) => reporter.info(&info),
                Ok(Report::CurrMove(m, number, depth)) => reporter.currmove(m, number, depth),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            if control.stopped() && !shared_control.stopped() {
                shared_control.stop();
            }
            if !control.pondering() && shared_control.pondering() {
                shared_control.ponderhit();
            }
        }
        match self.wait() {
            Some(result) => result,
            // Only a panicking search thread gets here (tests; release builds abort on a panic).
            None => panic!("the search thread died"),
        }
    }
}

impl<E: Evaluate> Drop for Searcher<E> {
    /// A searcher going away stops its search first: its threads end with it.
    fn drop(&mut self) {
        if let Some((_, control)) = &self.running {
            control.stop();
        }
        self.wait();
    }
}
