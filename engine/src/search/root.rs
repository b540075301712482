//! The root: iterative deepening with aspiration windows, the root move loop (MultiPV, searchmoves and
//! banmoves are applied by only ever searching the root move list), and the main thread's duties: watching
//! the clock and the controls, deciding when an iteration is the last, and reporting.

use super::history::piece_to;
use super::interrupt;
use super::params::{
    EVAL_NONE, MAX_DEPTH, MAX_FALLING_STRETCH, MAX_INSTABILITY, MAX_PLY, MIN_FALLING_STRETCH, STABILITY,
};
use super::threads::Shared;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{Bound, Limits, Reporter, SearchControl, SearchInfo, INFINITY, MATE, MATE_BOUND};
use crate::clock::Instant;
use crate::evaluate::Evaluate;
use crate::position::Position;
use crate::types::Move;
use std::time::Duration;

/// A move at the root with what the last search of it found.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score from the latest search (`-INFINITY` when it failed low against a better move).
    pub score: i32,
    /// Score at the end of the previous iteration (the aspiration window's centre).
    pub prev_score: i32,
    /// Bound of `score`.
    pub bound: Bound,
    /// Selective depth of its last search.
    pub seldepth: usize,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Nodes this thread has spent below the move in this search (all iterations).
    pub effort: u64,
}

impl RootMove {
    /// A root move not searched yet.
    pub fn new(mv: Move) -> RootMove {
        RootMove {
            mv,
            score: -INFINITY,
            prev_score: -INFINITY,
            bound: Bound::Upper,
            seldepth: 0,
            pv: vec![mv],
            effort: 0,
        }
    }
}

/// Reports after this long also cover aspiration failures and the move being searched.
const VERBOSE_AFTER: Duration = Duration::from_millis(2500);

/// The main thread's clock, controls and reporter.
pub struct MainThread<'a> {
    /// Where progress goes.
    pub reporter: &'a mut dyn Reporter,
    /// Stop and ponderhit from the caller.
    pub control: &'a SearchControl,
    /// The budget for this move.
    pub time: TimeManager,
    /// When the search started.
    pub start: Instant,
    /// When the clock started running for us (the start, or the ponderhit).
    clock_start: Instant,
    /// Whether the search was pondering when last looked at.
    pondering: bool,
    /// Node limit over all threads.
    total_node_limit: u64,
    /// Whether a clock (not a fixed time, depth or node count) limits the search.
    clock_mode: bool,
    /// Changes of the best root move, decaying by half each iteration.
    pub best_move_changes: f64,
    prev_best: Option<Move>,
    stable_iterations: usize,
    prev_score: i32,
}

impl<'a> MainThread<'a> {
    /// The main thread's duties for a search with `limits`, started at `start`.
    pub fn new(
        reporter: &'a mut dyn Reporter,
        control: &'a SearchControl,
        limits: &Limits,
        time: TimeManager,
        start: Instant,
    ) -> MainThread<'a> {
        MainThread {
            reporter,
            control,
            time,
            start,
            clock_start: start,
            pondering: control.pondering(),
            total_node_limit: limits.nodes.unwrap_or(u64::MAX),
            clock_mode: limits.clock.is_some() && limits.movetime.is_none() && !limits.infinite,
            best_move_changes: 0.0,
            prev_best: None,
            stable_iterations: 0,
            prev_score: -INFINITY,
        }
    }

    /// Checked every few thousand nodes: stop asked, hard time out, or node budget spent.
    pub fn must_stop(&mut self, shared: &Shared) -> bool {
        interrupt::check(self.control);
        if self.control.stopped() {
            return true;
        }
        let pondering = self.control.pondering();
        if pondering {
            return false;
        }
        let now = Instant::now();
        if self.pondering {
            // Ponderhit: our clock runs from now. If pondering already took longer than the move deserves,
            // play at once.
            self.pondering = false;
            self.clock_start = now;
            if self.time.soft.is_some_and(|soft| now - self.start >= soft) {
                return true;
            }
        }
        if self.time.hard.is_some_and(|hard| now - self.clock_start >= hard) {
            return true;
        }
        shared.total_nodes() >= self.total_node_limit
    }

    /// Whether thinking must go on regardless of the depth and time (infinite, or pondering).
    fn must_wait(&self, limits: &Limits) -> bool {
        limits.infinite || self.control.pondering()
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// Depths a helper thread skips, so that helpers spread over several depths (thread `i` uses row
/// `(i - 1) % 20`; it skips a depth when `((depth + phase) / size)` is odd).
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

fn helper_skips(id: usize, depth: i32) -> bool {
    if id == 0 {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 != 0
}

/// Sorts root moves best first, keeping the earlier order among equals.
fn sort_root_moves(moves: &mut [RootMove]) {
    moves.sort_by_key(|m| std::cmp::Reverse(m.score));
}

/// `pv` checked move by move from `pos` (cut at the first move that is not legal) and extended from the hash
/// table up to `max_len` moves, stopping at a repetition.
pub fn checked_pv(pos: &Position, pv: &[Move], tt: &TranspositionTable, max_len: usize) -> Vec<Move> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    let mut keys = vec![p.key()];
    for &m in pv {
        if !p.is_legal(m) {
            break;
        }
        p.make_move(m);
        out.push(m);
        keys.push(p.key());
    }
    while out.len() < max_len.min(MAX_PLY) {
        let Some(m) = tt.probe(p.key()).and_then(|d| d.mv).filter(|&m| p.is_legal(m)) else { break };
        p.make_move(m);
        if keys.contains(&p.key()) {
            break;
        }
        out.push(m);
        keys.push(p.key());
    }
    out
}

impl<E: Evaluate> Worker<'_, E> {
    /// Iterative deepening until a limit, the stop flag, or (main thread) the time manager ends it.
    pub fn iterate(&mut self) {
        let max_depth = self.limits.depth.map_or(MAX_DEPTH, |d| (d.min(MAX_DEPTH as u32) as i32).max(1));
        let lines = self.multipv.clamp(1, self.root_moves.len().max(1));
        for depth in 1..=max_depth {
            if helper_skips(self.id, depth) {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            if let Some(main) = &mut self.main {
                main.best_move_changes /= 2.0;
            }
            for pv_idx in 0..lines {
                self.pv_idx = pv_idx;
                self.search_line(depth);
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.main.is_some() {
                self.report_lines(depth, lines);
                if self.last_iteration(depth) {
                    break;
                }
            }
        }
    }

    /// One line of one iteration: the aspiration loop around the root search.
    fn search_line(&mut self, depth: i32) {
        let pv_idx = self.pv_idx;
        self.seldepth = 0;
        let prev = self.root_moves[pv_idx].prev_score;
        let prm = self.params;
        let mut delta = prm.aspiration_delta + prev.abs().min(MATE_BOUND) / prm.aspiration_score_divisor;
        let (mut alpha, mut beta) =
            if self.features.aspiration && depth >= prm.aspiration_depth && prev.abs() < MATE_BOUND {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let v = self.root_search(alpha, beta, depth);
            sort_root_moves(&mut self.root_moves[pv_idx..]);
            if self.stopped {
                break;
            }
            let bound = if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITY);
                Bound::Upper
            } else if v >= beta {
                beta = (v + delta).min(INFINITY);
                Bound::Lower
            } else {
                break;
            };
            if self.main.as_ref().is_some_and(|m| m.start.elapsed() >= VERBOSE_AFTER) {
                self.report_line(depth, pv_idx, bound);
            }
            delta += delta * prm.aspiration_grow_percent / 100 + prm.aspiration_grow_base;
        }
        sort_root_moves(&mut self.root_moves[..=pv_idx]);
        if pv_idx == 0 && !self.stopped {
            // The root is not stored by the inner search; keep it for the next search and for `probe`.
            let eval = if self.pos.in_check() { EVAL_NONE } else { self.evaluate() };
            let best = &self.root_moves[0];
            self.tt.store(self.pos.key(), Some(best.mv), best.score, eval, depth, best.bound, true);
        }
    }

    /// Searches the root moves from `pv_idx` on; returns the best score (a bound if outside the window).
    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITY;
        let in_check = self.pos.in_check();
        let first = self.pv_idx;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let move_number = i - first + 1;
            if let Some(main) = &mut self.main {
                if main.start.elapsed() >= VERBOSE_AFTER {
                    main.reporter.currmove(m, i + 1, depth as u32);
                }
            }
            let Some(piece) = self.pos.piece_at(m.from()) else { continue };
            let capture = self.pos.is_capture(m);
            let gives_check = self.pos.gives_check(m);
            let new_depth = depth - 1 + (gives_check && self.extends_checks(depth, EVAL_NONE)) as i32;
            let f = self.frame_mut(0);
            f.mv = Some(m);
            f.cont_row = piece_to(piece, m);
            f.capture = capture;
            f.stat = 0;
            self.reset_pv(1);
            let nodes_before = self.nodes;
            self.pos.make_move_with_check(m, gives_check);
            self.nodes += 1;
            let v = if move_number == 1 {
                -self.search::<true>(-beta, -alpha, new_depth, 1, false)
            } else {
                let r = if self.features.reductions
                    && depth >= self.params.root_lmr_depth
                    && move_number > self.params.root_lmr_moves as usize
                    && !capture
                    && !gives_check
                    && !in_check
                {
                    (self.params.reduction(depth, move_number) - 1).max(0)
                } else {
                    0
                };
                let mut v = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, 1, false);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(-beta, -alpha, new_depth, 1, false);
                }
                v
            };
            self.pos.unmake_move();
            self.root_moves[i].effort += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            if move_number == 1 || v > alpha {
                let mut pv = Vec::with_capacity(16);
                pv.push(m);
                pv.extend_from_slice(self.pv_line(1));
                let seldepth = self.seldepth;
                let rm = &mut self.root_moves[i];
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv = pv;
                rm.bound = if v >= beta {
                    Bound::Lower
                } else if v <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                if move_number > 1 {
                    if let Some(main) = &mut self.main {
                        main.best_move_changes += 1.0;
                    }
                }
            } else {
                self.root_moves[i].score = -INFINITY;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Main thread, after a completed iteration: whether to stop here.
    fn last_iteration(&mut self, depth: i32) -> bool {
        let limits = self.limits;
        let Some(best) = self.root_moves.first().cloned() else { return true };
        let single_move = self.root_moves.len() == 1;
        let Some(main) = &mut self.main else { return false };
        if main.control.stopped() {
            return true;
        }
        if main.must_wait(limits) {
            return false;
        }
        let score = best.score;
        if let Some(n) = limits.mate {
            if score >= MATE_BOUND && MATE - score < 2 * n as i32 {
                return true;
            }
        }
        // A mate found and confirmed by searching well past it: deeper search cannot change it.
        if score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 2 {
            return true;
        }
        if !main.clock_mode {
            // A fixed move time is spent in full (the hard limit ends it); depth and node limits end the loop.
            return false;
        }
        if single_move {
            return true;
        }
        // Stability of the best move and of the score stretches or shrinks the optimum time.
        if main.prev_best == Some(best.mv) {
            main.stable_iterations += 1;
        } else {
            main.stable_iterations = 0;
        }
        let instability = 1.0 + main.best_move_changes.min(MAX_INSTABILITY);
        let falling = if main.prev_score > -INFINITY {
            (1.0 + (main.prev_score - score) as f64 / self.params.time_falling_divisor.max(1) as f64)
                .clamp(MIN_FALLING_STRETCH, MAX_FALLING_STRETCH)
        } else {
            1.0
        };
        let stability = STABILITY[main.stable_iterations.min(STABILITY.len() - 1)];
        // Nearly every node spent below the best move: the others were refuted quickly, so more time would
        // mostly confirm it.
        let effort_percent = best.effort.saturating_mul(100) / self.nodes.max(1);
        let effort = if self.params.time_effort_percent > 0
            && effort_percent >= self.params.time_effort_percent as u64
        {
            self.params.time_effort_scale_percent as f64 / 100.0
        } else {
            1.0
        };
        main.prev_best = Some(best.mv);
        main.prev_score = score;
        match main.time.scaled_soft(instability * falling * stability * effort) {
            Some(limit) => main.start.elapsed() >= limit,
            None => false,
        }
    }

    fn report_lines(&mut self, depth: i32, lines: usize) {
        for i in 0..lines.min(self.root_moves.len()) {
            let bound = self.root_moves[i].bound;
            self.report_line(depth, i, bound);
        }
    }

    fn report_line(&mut self, depth: i32, index: usize, bound: Bound) {
        self.shared.publish(self.id, self.nodes);
        let nodes = self.shared.total_nodes();
        let hashfull = self.tt.hashfull();
        let rm = &self.root_moves[index];
        let pv = checked_pv(&self.pos, &rm.pv, self.tt, depth.max(1) as usize);
        let Some(main) = &mut self.main else { return };
        let time_ms = main.elapsed_ms();
        let info = SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(pv.len()) as u32,
            multipv: index + 1,
            score: rm.score,
            bound,
            nodes,
            nps: nodes.saturating_mul(1000) / time_ms.max(1),
            hashfull,
            time_ms,
            tbhits: self.shared.tbhits.load(std::sync::atomic::Ordering::Relaxed),
            pv,
        };
        main.reporter.info(&info);
    }

    /// Main thread, after iterating: keep thinking until stopped while infinite or pondering.
    pub fn wait_while_required(&mut self) {
        let limits = self.limits;
        if let Some(main) = &self.main {
            while main.must_wait(limits) && !main.control.stopped() {
                interrupt::pause(main.control, Duration::from_millis(1));
            }
        }
    }
}
