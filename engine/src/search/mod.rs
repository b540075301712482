//! The search: the public API the protocols use, and (for now) a plain iterative-deepening alpha-beta.
//!
//! The API is blocking: [`Searcher::search`] runs on whatever thread calls it and returns the result; the
//! caller keeps a [`SearchControl`] to stop it or turn a ponder search into a normal one from another
//! thread. The search never prints: progress goes through a [`Reporter`].

use crate::evaluate::{Evaluate, UNITS_PER_HORSE};
use crate::position::Position;
use crate::types::{Move, PieceKind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Score of a mate now (mated at ply 0 is `-MATE`); mate in n plies is `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;

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

/// The searcher: owns the evaluator, the options and (later) the hash table and thread state.
pub struct Searcher<E: Evaluate> {
    eval: E,
    options: SearchOptions,
}

impl<E: Evaluate> Searcher<E> {
    /// A searcher with default options.
    pub fn new(eval: E) -> Searcher<E> {
        Searcher { eval, options: SearchOptions::default() }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Current options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Changes options (resizes the hash table if its size changed).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.options = options;
    }

    /// Forgets everything learned (new game): clears the hash table and histories.
    pub fn clear(&mut self) {}

    /// Transposition table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches `pos` within `limits`, reporting through `reporter`, until done or `control` stops it.
    /// Always returns a move when one is legal.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        reporter: &mut dyn Reporter,
        control: &SearchControl,
    ) -> SearchResult {
        let start = Instant::now();
        let mut root_moves: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .filter(|m| !limits.banmoves.contains(m))
            .collect();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: -MATE,
            depth: 0,
            nodes: 0,
        };
        if root_moves.is_empty() {
            return result;
        }
        let deadline = limits.movetime.map(Duration::from_millis).or_else(|| {
            limits.clock.map(|c| {
                let per_move = c.remaining_ms / c.movestogo.unwrap_or(30).max(1) as u64 + c.increment_ms / 2;
                Duration::from_millis(
                    per_move.min(c.remaining_ms / 2).saturating_sub(self.options.move_overhead_ms),
                )
            })
        });
        let mut worker = Worker { eval: &self.eval, nodes: 0, stop: false, control, deadline, start, limits };
        let mut p = pos.clone();
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        for depth in 1..=max_depth {
            let mut best_score = -INFINITY;
            let mut best_idx = 0;
            for (i, &m) in root_moves.iter().enumerate() {
                p.make_move(m);
                let score = -worker.negamax(&mut p, depth - 1, 1, -INFINITY, -best_score);
                p.unmake_move();
                if worker.stop {
                    break;
                }
                if score > best_score {
                    best_score = score;
                    best_idx = i;
                }
            }
            if worker.stop && depth > 1 {
                break;
            }
            root_moves[..=best_idx].rotate_right(1);
            result.best = Some(root_moves[0]);
            result.score = best_score;
            result.depth = depth;
            let ms = start.elapsed().as_millis() as u64;
            reporter.info(&SearchInfo {
                depth,
                seldepth: depth,
                multipv: 1,
                score: best_score,
                bound: Bound::Exact,
                nodes: worker.nodes,
                nps: worker.nodes * 1000 / ms.max(1),
                hashfull: 0,
                time_ms: ms,
                pv: vec![root_moves[0]],
            });
            if worker.stop || best_score.abs() >= MATE_BOUND {
                break;
            }
        }
        // While pondering or in infinite mode the answer waits for stop/ponderhit.
        while (limits.infinite || control.pondering()) && !control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        result.nodes = worker.nodes;
        result
    }
}

struct Worker<'a, E: Evaluate> {
    eval: &'a E,
    nodes: u64,
    stop: bool,
    control: &'a SearchControl,
    deadline: Option<Duration>,
    start: Instant,
    limits: &'a Limits,
}

impl<E: Evaluate> Worker<'_, E> {
    fn check_stop(&mut self) {
        if self.nodes.is_multiple_of(1024) {
            let out_of_time =
                !self.control.pondering() && self.deadline.is_some_and(|d| self.start.elapsed() >= d);
            let out_of_nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
            if self.control.stopped() || out_of_time || out_of_nodes {
                self.stop = true;
            }
        }
    }

    fn negamax(&mut self, pos: &mut Position, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stop {
            return 0;
        }
        if depth == 0 {
            return self.quiesce(pos, ply, alpha, beta);
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply;
        }
        moves.as_mut_slice().sort_by_key(|m| -victim_value(pos, *m));
        for &m in moves.iter() {
            pos.make_move(m);
            let score = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha);
            pos.unmake_move();
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    fn quiesce(&mut self, pos: &mut Position, _ply: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stop {
            return 0;
        }
        let stand = self.eval.evaluate(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = crate::movegen::MoveList::new();
        pos.generate(crate::movegen::GenType::Captures, &mut moves);
        moves.as_mut_slice().sort_by_key(|m| -victim_value(pos, *m));
        for &m in moves.iter() {
            pos.make_move(m);
            let score = -self.quiesce(pos, _ply + 1, -beta, -alpha);
            pos.unmake_move();
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}

fn victim_value(pos: &Position, m: Move) -> i32 {
    pos.piece_at(m.to()).map_or(0, |p| if p.kind() == PieceKind::King { 10_000 } else { 1 + p.kind() as i32 })
}
