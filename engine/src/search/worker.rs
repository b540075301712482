//! One search thread's state and its inner search: principal variation search with quiescence.
//!
//! Nodes are counted at every `make_move` of the root, the main search and quiescence (null moves are not
//! counted). The root loop and iterative deepening are in `root.rs`.

use super::correction::CorrectionKeys;
use super::history::{piece_to, Histories, NO_ROW};
use super::movepick::{MovePicker, OrderInfo};
use super::params::*;
use super::repetition::{cycle_score_under, CycleCache};
use super::root::{MainThread, RootMove};
use super::see::{see_ge, victim_value};
use super::threads::Shared;
use super::tt::{score_from_tt, score_to_tt, TranspositionTable, TtData};
use super::{Bound, Limits, SearchFeatures, INFINITY, MATE, MATE_BOUND, TB_WIN};
use crate::egtb::{Tablebases, Wdl};
use crate::evaluate::Evaluate;
use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::{Move, Piece, PieceKind};
use crate::zobrist::{piece_key, SIDE_KEY};
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// Nodes between two looks at the stop flag, the clock and the shared node count.
const POLL_INTERVAL: u32 = 1024;

/// Frames kept below ply 0 so that `ply - 4` is always a valid frame.
const FRAME_OFFSET: usize = 4;

/// What the search remembers about each ply of the current line.
#[derive(Copy, Clone)]
pub(super) struct Frame {
    /// The move played from this ply (`None`: a null move, or nothing yet).
    pub mv: Option<Move>,
    /// Continuation-history row of that move.
    pub cont_row: usize,
    /// Whether that move captured (set by the main search, the root and ProbCut, whose moves a child node
    /// reads; quiescence never calls the main search, so its frames leave it).
    pub capture: bool,
    /// Static evaluation here, or `EVAL_NONE` when in check.
    pub static_eval: i32,
    /// Quiet moves that caused cutoffs at this ply.
    pub killers: [Option<Move>; 2],
    /// The move left out by a singular-extension search.
    pub excluded: Option<Move>,
    /// Beta cutoffs at this ply since the node two plies up began (saturating).
    pub cutoffs: u8,
    /// The late-move reduction the move from this ply is being searched with (0: none).
    pub reduction: i32,
    /// The history statistic of the quiet move from this ply (butterfly twice plus two continuation
    /// entries; 0 for captures, null moves and the moves of quiescence, ProbCut and the root).
    pub stat: i32,
}

/// What a ProbCut needs from its node.
struct ProbCut {
    /// The raised bound a capture must beat.
    beta: i32,
    /// The node's depth.
    depth: i32,
    /// The node's corrected static evaluation.
    static_eval: i32,
    /// The node's uncorrected evaluation, which the hash keeps.
    raw_eval: i32,
    tt_move: Option<Move>,
    tt_pv: bool,
}

const EMPTY_FRAME: Frame = Frame {
    mv: None,
    cont_row: NO_ROW,
    capture: false,
    static_eval: EVAL_NONE,
    killers: [None; 2],
    excluded: None,
    cutoffs: 0,
    reduction: 0,
    stat: 0,
};

/// A search thread.
pub(super) struct Worker<'a, E: Evaluate> {
    eval: &'a E,
    /// The tunable numbers.
    pub params: &'a SearchParams,
    /// This thread's evaluation state (e.g. network accumulators following the line).
    eval_state: E::State,
    pub tt: &'a TranspositionTable,
    pub shared: &'a Shared,
    hist: &'a mut Histories,
    /// 0 for the main thread.
    pub id: usize,
    pub pos: Position,
    pub limits: &'a Limits,
    /// Number of principal variations to search.
    pub multipv: usize,
    pub nodes: u64,
    /// Exact node limit (single thread); the main thread checks the all-thread total otherwise.
    node_limit: u64,
    poll_countdown: u32,
    pub stopped: bool,
    pub seldepth: usize,
    stack: Vec<Frame>,
    pv: Vec<Move>,
    pv_len: Vec<usize>,
    pub root_moves: Vec<RootMove>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub completed_depth: i32,
    nmp_min_ply: usize,
    /// Time keeping and reporting; only the main thread has it.
    pub main: Option<MainThread<'a>>,
    /// Selective parts in use.
    pub features: SearchFeatures,
    /// The referee's verdicts on repetitions near the root.
    cycles: CycleCache,
    /// Endgame tablebases, probed for every position they cover below the root.
    pub tb: Option<&'a Tablebases>,
}

#[inline(always)]
fn tt_bound_allows(bound: Bound, score: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score < beta,
    }
}

impl<'a, E: Evaluate> Worker<'a, E> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: usize,
        eval: &'a E,
        tt: &'a TranspositionTable,
        shared: &'a Shared,
        hist: &'a mut Histories,
        pos: Position,
        limits: &'a Limits,
        multipv: usize,
        root_moves: Vec<RootMove>,
        node_limit: u64,
        features: SearchFeatures,
        params: &'a SearchParams,
        main: Option<MainThread<'a>>,
    ) -> Worker<'a, E> {
        let filler = root_moves
            .first()
            .map_or(Move::new(crate::Square::from_index(0), crate::Square::from_index(1)), |r| r.mv);
        Worker {
            eval,
            params,
            eval_state: eval.new_state(),
            tt,
            shared,
            hist,
            id,
            pos,
            limits,
            multipv,
            nodes: 0,
            node_limit,
            poll_countdown: POLL_INTERVAL,
            stopped: false,
            seldepth: 0,
            stack: vec![EMPTY_FRAME; MAX_PLY + FRAME_OFFSET + 4],
            pv: vec![filler; (MAX_PLY + 1) * (MAX_PLY + 1)],
            pv_len: vec![0; MAX_PLY + 2],
            root_moves,
            pv_idx: 0,
            root_depth: 0,
            completed_depth: 0,
            nmp_min_ply: 0,
            main,
            features,
            cycles: CycleCache::default(),
            tb: None,
        }
    }

    #[inline(always)]
    pub fn frame(&self, ply: usize) -> &Frame {
        &self.stack[ply + FRAME_OFFSET]
    }

    #[inline(always)]
    pub fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.stack[ply + FRAME_OFFSET]
    }

    /// The frame `back` plies before `ply` (a sentinel before the root).
    #[inline(always)]
    fn frame_back(&self, ply: usize, back: usize) -> &Frame {
        &self.stack[ply + FRAME_OFFSET - back]
    }

    /// The continuation-history rows a move at `ply` is scored and updated under: the moves 1, 2 and 4
    /// plies before it.
    #[inline(always)]
    fn continuation_rows(&self, ply: usize) -> [usize; 3] {
        [self.frame_back(ply, 1).cont_row, self.frame_back(ply, 2).cont_row, self.frame_back(ply, 4).cont_row]
    }

    /// Whether a checking move is searched a ply deeper at `depth` (`static_eval` is `EVAL_NONE` in check
    /// and at the root, where checks are always extended as far as the evaluation goes).
    #[inline(always)]
    pub fn extends_checks(&self, depth: i32, static_eval: i32) -> bool {
        self.features.check_extension
            && depth > self.params.check_ext_depth
            && static_eval.abs() >= self.params.check_ext_eval
    }

    /// The static evaluation, shrunk towards a draw as the no-capture clock runs (`clock_scale`), so the
    /// side ahead prefers lines that capture before the move limit.
    #[inline(always)]
    pub fn evaluate(&mut self) -> i32 {
        let e = self.eval.evaluate_with(&self.pos, &mut self.eval_state);
        let n = self.params.clock_scale;
        let e = if n > 0 { e * (n - self.pos.halfmove_clock() as i32).max(0) / n } else { e };
        e.clamp(-EVAL_CAP, EVAL_CAP)
    }

    /// The principal variation found below `ply` by the last PV search there.
    pub fn pv_line(&self, ply: usize) -> &[Move] {
        let start = ply * (MAX_PLY + 1);
        let len = self.pv_len[ply].saturating_sub(ply);
        &self.pv[start + ply..start + ply + len]
    }

    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let row = ply * (MAX_PLY + 1);
        let child = (ply + 1) * (MAX_PLY + 1);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[row + ply] = m;
        for i in ply + 1..child_len {
            self.pv[row + i] = self.pv[child + i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Takes move `m`'s score `v` into the node's best score, best move, alpha and (PV nodes) line, the
    /// same way in the main search and quiescence. Returns whether `v` fails high (a beta cutoff).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn take_score<const PV: bool>(
        &mut self,
        v: i32,
        m: Move,
        ply: usize,
        beta: i32,
        best: &mut i32,
        best_move: &mut Option<Move>,
        alpha: &mut i32,
    ) -> bool {
        if v <= *best {
            return false;
        }
        *best = v;
        if v <= *alpha {
            return false;
        }
        *best_move = Some(m);
        if PV {
            self.update_pv(ply, m);
        }
        if v >= beta {
            return true;
        }
        *alpha = v;
        false
    }

    /// Clears the PV of `ply` (before the root searches a move).
    pub fn reset_pv(&mut self, ply: usize) {
        self.pv_len[ply] = ply;
    }

    /// The key of the position after `m` by `piece`, to prefetch its hash bucket before making the move.
    #[inline(always)]
    pub fn key_after(&self, m: Move, piece: Piece) -> u64 {
        let mut k = self.pos.key() ^ SIDE_KEY ^ piece_key(piece, m.from()) ^ piece_key(piece, m.to());
        if let Some(c) = self.pos.piece_at(m.to()) {
            k ^= piece_key(c, m.to());
        }
        k
    }

    /// Stops this thread and all the others.
    pub fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search must stop now. Cheap except every `POLL_INTERVAL` calls, when it publishes the
    /// node count and (main thread) checks the controls, the clock and the total node count.
    #[inline(always)]
    pub fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stop_all();
            return true;
        }
        self.poll_countdown -= 1;
        if self.poll_countdown == 0 {
            self.poll_countdown = POLL_INTERVAL;
            self.shared.publish(self.id, self.nodes);
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
                return true;
            }
            if let Some(main) = &mut self.main {
                if main.must_stop(self.shared) {
                    self.stop_all();
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move has a rook, horse or cannon. Without one, zugzwang is real (pawn and
    /// defender endings), so null-move pruning and move-count pruning are not trusted.
    #[inline(always)]
    fn has_strong_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        (self.pos.pieces(us, PieceKind::Rook)
            | self.pos.pieces(us, PieceKind::Horse)
            | self.pos.pieces(us, PieceKind::Cannon))
        .nonempty()
    }

    /// Searches the position after the move at `ply - 1`, within (alpha, beta), `depth` plies deep.
    pub fn search<const PV: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply);
        }
        let in_check = match self.enter_node::<PV>(ply) {
            ControlFlow::Continue(in_check) => in_check,
            ControlFlow::Break(score) => return score,
        };

        // Mate distance pruning: no line from here can beat a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.frame(ply).excluded;
        let grandchild = self.frame_mut(ply + 2);
        grandchild.killers = [None; 2];
        grandchild.cutoffs = 0;
        let key = self.pos.key();
        let tt_data = if excluded.is_none() { self.tt.probe(key) } else { None };
        let tt_move = tt_data.and_then(|d| d.mv).filter(|&m| self.pos.is_legal(m));
        let tt_score = tt_data.map_or(-INFINITY, |d| score_from_tt(d.score, ply));
        let tt_pv = PV || tt_data.is_some_and(|d| d.pv);

        if !PV {
            if let Some(d) = tt_data {
                // Near the no-capture limit the stored score may be stale (the limit is not in the key).
                if d.depth >= depth
                    && self.pos.halfmove_clock() < TT_CUTOFF_MAX_CLOCK
                    && tt_bound_allows(d.bound, tt_score, beta)
                {
                    if let Some(m) = tt_move.filter(|&m| !self.pos.is_capture(m)) {
                        if tt_score >= beta {
                            self.update_quiet_stats(ply, m, &[], depth);
                        } else if self.params.tt_cut_malus != 0 {
                            let rows = self.continuation_rows(ply);
                            self.update_quiet_history(m, rows, -self.params.history_bonus(depth));
                        }
                    }
                    return tt_score;
                }
            }
        }

        // A tablebase knows the result exactly (the move limit aside): no need to search on.
        if let Some(tb) = self.tb.filter(|_| excluded.is_none()) {
            if let Some(wdl) = tb.probe_wdl_loaded(&self.pos) {
                self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
                return match wdl {
                    Wdl::Win => TB_WIN - ply as i32,
                    Wdl::Draw => 0,
                    Wdl::Loss => -TB_WIN + ply as i32,
                };
            }
        }

        // Static evaluation (the hash keeps it uncorrected), corrected by what searches of similar positions
        // found and sharpened by the hash score when its bound points the right way.
        let correction = self.correction_at(ply, in_check);
        let (raw_eval, static_eval, eval) = if in_check {
            (EVAL_NONE, EVAL_NONE, EVAL_NONE)
        } else {
            self.node_eval(tt_data, tt_score, &correction)
        };
        self.frame_mut(ply).static_eval = static_eval;
        let improving = !in_check && {
            let two = self.frame_back(ply, 2).static_eval;
            let four = self.frame_back(ply, 4).static_eval;
            if two != EVAL_NONE {
                static_eval > two
            } else {
                four == EVAL_NONE || static_eval > four
            }
        };
        let strong = self.has_strong_pieces();
        let features = self.features;
        let prm = self.params;
        let prior = *self.frame_back(ply, 1);
        if prm.eval_diff_history_percent > 0
            && excluded.is_none()
            && !in_check
            && prior.static_eval != EVAL_NONE
            && !prior.capture
        {
            if let Some(m) = prior.mv {
                let diff = (300 - 4 * (prior.static_eval + static_eval)).clamp(-1_600, 1_200);
                let b = diff * prm.eval_diff_history_percent / 100;
                self.hist.update_butterfly_for(!self.pos.side_to_move(), m, b);
            }
        }
        if prm.hindsight != 0 && !in_check && excluded.is_none() && prior.static_eval != EVAL_NONE {
            let sum = prior.static_eval + static_eval;
            if prior.reduction >= 3 && sum <= 0 {
                depth += 1;
            } else if prior.reduction >= 2 && depth >= 2 && sum > prm.hindsight_margin {
                depth -= 1;
            }
        }
        let prune_checks = prm.prune_checks != 0;

        if !PV && !in_check && excluded.is_none() {
            // Razoring: hopeless at low depth unless a capture saves it.
            if features.futility
                && depth <= prm.razor_depth
                && eval < alpha - prm.razor_base - prm.razor_per_depth2 * depth * depth
            {
                let v = self.qsearch::<false>(alpha - 1, alpha, ply);
                if v < alpha {
                    return v;
                }
            }
            // Reverse futility: far above beta at low depth. With `rfp_stat_divisor`, less readily after an
            // opponent's move that its history rates well.
            let prior_stat = self.frame_back(ply, 1).stat;
            if features.futility
                && depth <= prm.rfp_depth
                && eval - prm.rfp_margin * (depth - improving as i32) - prm.rfp_stat(prior_stat) >= beta
                && eval < MATE_BOUND
                && beta > -MATE_BOUND
            {
                return eval;
            }
            // Null move: even passing keeps us above beta. Not after a null move, not without strong pieces
            // (zugzwang), and verified by a normal search at high depth.
            if features.null_move
                && self.frame_back(ply, 1).mv.is_some()
                && eval >= beta
                && static_eval >= beta - prm.nmp_eval_per_depth * depth + prm.nmp_eval_base
                && ply >= self.nmp_min_ply
                && (prm.nmp_stat_max == 0 || prior_stat < prm.nmp_stat_max)
                && beta > -MATE_BOUND
                && strong
            {
                let r = prm.nmp_base
                    + depth / prm.nmp_depth_divisor
                    + ((eval - beta) / prm.nmp_eval_divisor).min(prm.nmp_eval_max);
                let f = self.frame_mut(ply);
                f.mv = None;
                f.cont_row = NO_ROW;
                f.stat = 0;
                self.pos.make_null_move();
                let v = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    if self.nmp_min_ply > 0 || depth < prm.nmp_verify_depth {
                        return v;
                    }
                    self.nmp_min_ply = ply + ((depth - r) * NMP_VERIFY_PERCENT / 100).max(0) as usize;
                    let w = self.search::<false>(beta - 1, beta, depth - r, ply, false);
                    self.nmp_min_ply = 0;
                    if self.stopped {
                        return 0;
                    }
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // ProbCut: a good capture that beats beta by a margin even four plies shallower makes the full
        // search unnecessary. Skipped where the hash already says a search nearly that deep fell short.
        if !PV
            && !in_check
            && excluded.is_none()
            && prm.probcut_margin > 0
            && depth >= prm.probcut_depth
            && beta.abs() < MATE_BOUND
        {
            let pc_beta = beta + prm.probcut_margin - prm.probcut_improving * improving as i32;
            let hash_says_no = tt_data.is_some_and(|d| d.depth >= depth - 3 && tt_score < pc_beta);
            if !hash_says_no {
                let pc = ProbCut { beta: pc_beta, depth, static_eval, raw_eval, tt_move, tt_pv };
                if let Some(v) = self.probcut(&pc, ply, cut_node) {
                    return v;
                }
            }
        }

        // Internal iterative reduction: without a hash move this node was not searched before; search it
        // shallower so the next iteration finds a move to start with.
        if features.iir && (PV || cut_node) && depth >= prm.iir_depth && tt_move.is_none() {
            depth -= if PV { prm.iir_pv } else { 1 };
            if depth <= 0 {
                return self.qsearch::<PV>(alpha, beta, ply);
            }
        }
        // A principal-variation node whose hash move comes from a much shallower search: that search's
        // tree is a poor guide here, so this one goes part of the way less deep.
        if PV && prm.iir_pv_stale != 0 && depth > 1 && tt_move.is_some() {
            if let Some(d) = tt_data {
                depth -= ((depth - d.depth) / 2).clamp(0, IIR_PV_STALE_MAX);
            }
        }

        let rows = self.continuation_rows(ply);
        let counter = if self.frame_back(ply, 1).mv.is_some() { self.hist.counter(rows[0]) } else { None };
        let killers = self.frame(ply).killers;
        let mut picker = MovePicker::new_main(&self.pos, tt_move, killers, counter);
        let tt_capture = tt_move.is_some_and(|m| self.pos.is_capture(m));

        let mut best = -INFINITY;
        let mut best_move = None;
        let mut move_count = 0usize;
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let mut skip_quiets = false;

        loop {
            let ord = self.order_info(rows);
            let Some(m) = picker.next(&self.pos, &ord, skip_quiets) else { break };
            if Some(m) == excluded {
                continue;
            }
            move_count += 1;
            let Some(piece) = self.pos.piece_at(m.from()) else { continue };
            // As soon as the move is known: the pruning tests and extensions below give the load time to
            // arrive (bench +4.7% over prefetching just before the move; pruned moves waste little).
            self.tt.prefetch(self.key_after(m, piece));
            let capture = self.pos.is_capture(m);
            let gives_check = self.pos.gives_check(m);
            let col = piece_to(piece, m);
            let stat = if capture {
                0
            } else {
                2 * self.hist.butterfly(&self.pos, m)
                    + self.hist.continuation(rows[0], col)
                    + self.hist.continuation(rows[1], col)
            };

            // Shallow-depth pruning, once a move has saved us from being mated; not while looking for a faster
            // mate (alpha a mate score), where quiet moves cannot be judged by the static evaluation.
            if best > -MATE_BOUND && alpha < MATE_BOUND && strong {
                let lmr_depth = (depth - 1 - prm.reduction(depth, move_count)).max(0);
                if capture {
                    if prm.capture_futility_base > 0
                        && !PV
                        && !gives_check
                        && !in_check
                        && lmr_depth < prm.capture_futility_depth
                    {
                        let gain = self.pos.piece_at(m.to()).map_or(0, |victim| {
                            prm.see_values()[victim.kind().index()]
                                + self.hist.capture(piece, m, victim.kind())
                                    / CAPTURE_FUTILITY_HISTORY_DIVISOR
                        });
                        if static_eval
                            + prm.capture_futility_base
                            + prm.capture_futility_per_depth * lmr_depth
                            + gain
                            <= alpha
                        {
                            continue;
                        }
                    }
                    if features.see_pruning
                        && (!gives_check || prune_checks)
                        && depth <= prm.see_capture_depth
                        && !see_ge(&self.pos, m, -prm.see_capture_per_depth * depth, prm.see_values())
                    {
                        continue;
                    }
                } else if !gives_check || prune_checks {
                    if features.move_count_pruning && move_count as i32 >= prm.lmp_threshold(depth, improving)
                    {
                        skip_quiets = true;
                        continue;
                    }
                    if features.move_count_pruning
                        && lmr_depth < prm.history_prune_depth
                        && stat < prm.history_prune_per_depth * depth
                    {
                        continue;
                    }
                    if features.futility
                        && !in_check
                        && lmr_depth < prm.futility_depth
                        && static_eval
                            + prm.futility_base
                            + prm.futility_per_depth * lmr_depth
                            + prm.futility_history(stat)
                            <= alpha
                    {
                        continue;
                    }
                    if features.see_pruning
                        && !see_ge(
                            &self.pos,
                            m,
                            -prm.see_quiet_per_depth2 * lmr_depth * lmr_depth,
                            prm.see_values(),
                        )
                    {
                        continue;
                    }
                }
            }

            // Extensions: singular hash move, checks. Only up to `EXTENSION_PLY_FACTOR` times the iteration depth,
            // so lines end.
            let mut ext = 0;
            if ply < EXTENSION_PLY_FACTOR * self.root_depth as usize {
                if let (true, Some(d)) = (
                    features.singular
                        && Some(m) == tt_move
                        && excluded.is_none()
                        && depth >= prm.singular_depth,
                    tt_data,
                ) {
                    if d.bound != Bound::Upper
                        && d.depth >= depth - prm.singular_tt_depth
                        && tt_score.abs() < MATE_BOUND
                    {
                        let s_beta = tt_score - prm.singular_margin_per_depth * depth;
                        let s_depth = (depth - 1) / SINGULAR_DEPTH_DIVISOR;
                        self.frame_mut(ply).excluded = Some(m);
                        let v = self.search::<false>(s_beta - 1, s_beta, s_depth, ply, cut_node);
                        self.frame_mut(ply).excluded = None;
                        if self.stopped {
                            return 0;
                        }
                        if v < s_beta {
                            // Far below every alternative: outside the principal variation, search the
                            // move two plies deeper.
                            ext = if !PV && v < s_beta - prm.singular_double_margin { 2 } else { 1 };
                        } else if s_beta >= beta {
                            // Multi-cut: even without the hash move this node fails high.
                            return s_beta;
                        } else if tt_score >= beta {
                            ext = -prm.singular_high_reduction;
                        } else if tt_score <= alpha && tt_score <= v {
                            ext = -prm.singular_low_reduction;
                        }
                    }
                }
                if ext == 0 && gives_check && self.extends_checks(depth, static_eval) {
                    ext = 1;
                }
            }
            let new_depth = depth - 1 + ext;

            let f = self.frame_mut(ply);
            f.mv = Some(m);
            f.cont_row = col;
            f.capture = capture;
            f.stat = stat;
            self.pos.make_move_with_check(m, gives_check);
            self.nodes += 1;

            let mut v = -INFINITY;
            if features.reductions && depth >= 2 && move_count > 1 + PV as usize {
                // Late move reduction.
                let mut r = prm.reduction(depth, move_count);
                if tt_pv {
                    r -= 1;
                }
                if PV {
                    r -= prm.lmr_pv;
                }
                if cut_node {
                    r += prm.lmr_cut_node;
                }
                if !PV && self.frame(ply + 1).cutoffs > 3 {
                    r += prm.lmr_cutoffs;
                }
                if !improving {
                    r += 1;
                }
                if capture {
                    r -= 1;
                } else {
                    if tt_capture {
                        r += 1;
                    }
                    if Some(m) == killers[0] || Some(m) == killers[1] || Some(m) == counter {
                        r -= 1;
                    }
                    r -= (stat - prm.lmr_history_offset) / prm.lmr_history_divisor;
                }
                if gives_check {
                    r -= prm.lmr_check;
                }
                let d = (new_depth - r).clamp(1, new_depth.max(1) + prm.lmr_extend);
                self.frame_mut(ply).reduction = new_depth - d;
                v = -self.search::<false>(-alpha - 1, -alpha, d, ply + 1, true);
                self.frame_mut(ply).reduction = 0;
                if v > alpha && d < new_depth {
                    v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    if prm.lmr_research_bonus_percent > 0 && !capture && !self.stopped {
                        let b = prm.history_bonus(new_depth) * prm.lmr_research_bonus_percent / 100;
                        for row in rows {
                            self.hist.update_continuation(row, col, if v > alpha { b } else { -b });
                        }
                    }
                }
            } else if !PV || move_count > 1 {
                v = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if PV && (move_count == 1 || v > alpha) {
                v = -self.search::<true>(-beta, -alpha, new_depth, ply + 1, false);
            }
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }

            if self.take_score::<PV>(v, m, ply, beta, &mut best, &mut best_move, &mut alpha) {
                let f = self.frame_mut(ply);
                f.cutoffs = f.cutoffs.saturating_add(1);
                break;
            }
            if Some(m) != best_move {
                if capture {
                    captures_tried.push(m);
                } else {
                    quiets_tried.push(m);
                }
            }
        }

        // No legal move: checkmate or stalemate, a loss either way in xiangqi.
        if move_count == 0 {
            return if excluded.is_some() { alpha } else { -MATE + ply as i32 };
        }

        if let Some(bm) = best_move {
            if self.pos.is_capture(bm) {
                self.update_capture_stat(bm, self.params.history_bonus(depth + 1));
            } else {
                self.update_quiet_stats(ply, bm, &quiets_tried, depth + 1);
            }
            for &c in captures_tried.iter() {
                self.update_capture_stat(c, -self.params.history_bonus(depth + 1));
            }
        }

        // No move raised alpha: the opponent's quiet move that led here was good for them, so it gains
        // history as a cut-move would (the move that caused this fail low, one ply up, fails high there).
        if best_move.is_none() && excluded.is_none() && prm.prior_bonus_percent > 0 {
            self.reward_prior_quiet(ply, self.params.history_bonus(depth) * prm.prior_bonus_percent / 100);
        }

        if excluded.is_none() {
            if let Some((keys, rows)) = &correction {
                // Only where the bound says which way the evaluation erred, and not from captures (the
                // quiescence search already accounts for those).
                let informative =
                    (best < static_eval && best < beta) || (best > static_eval && best_move.is_some());
                if informative
                    && best.abs() < MATE_BOUND
                    && !best_move.is_some_and(|m| self.pos.is_capture(m))
                {
                    self.hist.correction.update(keys, *rows, best - static_eval, depth);
                }
            }
            let bound = if best >= beta {
                Bound::Lower
            } else if PV && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval, depth, bound, tt_pv);
        }
        best
    }

    /// What every node (full or quiescent) does first: stops when told (`Break(0)`), opens the PV at
    /// `ply`, and scores a game already over (`Break(score)`); otherwise says whether the side to move is
    /// in check.
    #[inline(always)]
    fn enter_node<const PV: bool>(&mut self, ply: usize) -> ControlFlow<i32, bool> {
        if self.poll() {
            return ControlFlow::Break(0);
        }
        if PV {
            self.pv_len[ply] = ply;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.in_check();
        match self.game_end_score(ply, in_check) {
            Some(score) => ControlFlow::Break(score),
            None => ControlFlow::Continue(in_check),
        }
    }

    /// The score of a line that ends here whatever is searched: the 120-ply limit (a side with no legal move
    /// still loses), a repetition judged by the 棋例, or the end of the search stack.
    #[inline(always)]
    fn game_end_score(&mut self, ply: usize, in_check: bool) -> Option<i32> {
        let rules = self.limits.rules;
        if rules.limit_reached(self.pos.halfmove_clock()) {
            return Some(if self.pos.has_legal_move() { 0 } else { -MATE + ply as i32 });
        }
        if let Some(score) = cycle_score_under(&mut self.pos, ply, &mut self.cycles, rules.set) {
            return Some(score);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if in_check { 0 } else { self.evaluate() });
        }
        None
    }

    /// Quiescence, entered from the main search: stand pat or improve by captures (all evasions when in
    /// check), so the evaluation is only trusted in quiet positions; with `qsearch_checks` its first ply
    /// also tries the quiet checks.
    fn qsearch<const PV: bool>(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.quiesce::<PV>(alpha, beta, ply, self.params.qsearch_checks != 0)
    }

    /// The quiescence search at any ply, with or without the quiet checks.
    fn quiesce<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        let in_check = match self.enter_node::<PV>(ply) {
            ControlFlow::Continue(in_check) => in_check,
            ControlFlow::Break(score) => return score,
        };

        let key = self.pos.key();
        let tt_data = self.tt.probe(key);
        let tt_move = tt_data.and_then(|d| d.mv);
        let tt_score = tt_data.map_or(-INFINITY, |d| score_from_tt(d.score, ply));
        if !PV {
            if let Some(d) = tt_data {
                if tt_bound_allows(d.bound, tt_score, beta) {
                    return tt_score;
                }
            }
        }

        let (mut best, futility_base, raw_eval);
        if in_check {
            best = -INFINITY;
            futility_base = -INFINITY;
            raw_eval = EVAL_NONE;
        } else {
            let correction = self.correction_at(ply, false);
            let (raw, static_eval, sharpened) = self.node_eval(tt_data, tt_score, &correction);
            (raw_eval, best) = (raw, sharpened);
            if best >= beta {
                if tt_data.is_none() {
                    self.tt.store(key, None, score_to_tt(best, ply), raw_eval, 0, Bound::Lower, false);
                }
                return best;
            }
            alpha = alpha.max(best);
            futility_base = static_eval + self.params.delta_margin;
        }

        let rows = [self.frame_back(ply, 1).cont_row, self.frame_back(ply, 2).cont_row, NO_ROW];
        let mut picker = if checks {
            MovePicker::new_qsearch_with_checks(&self.pos, tt_move)
        } else {
            MovePicker::new_qsearch(&self.pos, tt_move)
        };
        let mut best_move = None;
        let mut move_count = 0;
        loop {
            let ord = self.order_info(rows);
            let Some(m) = picker.next(&self.pos, &ord, false) else { break };
            move_count += 1;
            if best > -MATE_BOUND {
                if !in_check && futility_base > -MATE_BOUND {
                    // Delta pruning: even winning the victim for free cannot reach alpha (checks are kept).
                    let futility = futility_base + victim_value(&self.pos, m, self.params.see_values());
                    if futility <= alpha && !self.pos.gives_check(m) {
                        best = best.max(futility);
                        continue;
                    }
                    if futility_base <= alpha
                        && !see_ge(&self.pos, m, 1, self.params.see_values())
                        && !self.pos.gives_check(m)
                    {
                        best = best.max(futility_base);
                        continue;
                    }
                }
                if !see_ge(&self.pos, m, -self.params.qsearch_see, self.params.see_values()) {
                    continue;
                }
            }
            if !self.play_tactical(m, ply) {
                continue;
            }
            let v = -self.quiesce::<PV>(-beta, -alpha, ply + 1, false);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if self.take_score::<PV>(v, m, ply, beta, &mut best, &mut best_move, &mut alpha) {
                break;
            }
        }
        if in_check && move_count == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(key, best_move, score_to_tt(best, ply), raw_eval, 0, bound, false);
        best
    }

    /// Plays `m` from `ply` where quiescence and ProbCut play their moves straight after picking them:
    /// prefetches the child's hash bucket, records the move and its continuation row in the ply's frame and
    /// counts the node. False (nothing played) if no piece stands on its origin, which a legal move never has.
    #[inline(always)]
    fn play_tactical(&mut self, m: Move, ply: usize) -> bool {
        let Some(piece) = self.pos.piece_at(m.from()) else { return false };
        self.tt.prefetch(self.key_after(m, piece));
        let f = self.frame_mut(ply);
        f.mv = Some(m);
        f.cont_row = piece_to(piece, m);
        f.stat = 0;
        self.pos.make_move(m);
        self.nodes += 1;
        true
    }

    /// Tries the captures of a ProbCut (see `probcut_margin`): each one whose exchange gains at least
    /// `pc.beta - static_eval` is searched against `pc.beta`, by quiescence first and then four plies
    /// shallower than the node; the first that holds is stored as a lower bound and its score returned.
    fn probcut(&mut self, pc: &ProbCut, ply: usize, cut_node: bool) -> Option<i32> {
        let rows = self.continuation_rows(ply);
        let threshold = pc.beta - pc.static_eval;
        let mut picker = MovePicker::new_qsearch(&self.pos, pc.tt_move);
        loop {
            let ord = self.order_info(rows);
            let m = picker.next(&self.pos, &ord, false)?;
            if !see_ge(&self.pos, m, threshold, self.params.see_values()) {
                continue;
            }
            // The child is a main-search node, which reads whether the move that led to it captured.
            self.frame_mut(ply).capture = true;
            if !self.play_tactical(m, ply) {
                continue;
            }
            let mut v = -self.qsearch::<false>(-pc.beta, -pc.beta + 1, ply + 1);
            if v >= pc.beta && !self.stopped {
                v = -self.search::<false>(-pc.beta, -pc.beta + 1, pc.depth - 4, ply + 1, !cut_node);
            }
            self.pos.unmake_move();
            if self.stopped {
                return Some(0);
            }
            if v >= pc.beta {
                let key = self.pos.key();
                let score = score_to_tt(v, ply);
                self.tt.store(key, Some(m), score, pc.raw_eval, pc.depth - 3, Bound::Lower, pc.tt_pv);
                return Some(v);
            }
        }
    }

    /// What the move picker needs to order a node's moves, the previous moves' continuation rows given.
    #[inline(always)]
    fn order_info(&self, rows: [usize; 3]) -> OrderInfo<'_> {
        OrderInfo {
            hist: self.hist,
            rows,
            see: self.params.see_values(),
            threat_weight: self.params.threat_order,
            check_weight: self.params.check_order,
        }
    }

    /// Where this node's correction-history entries lie (keys and the two previous moves' rows), when the
    /// correction is on and there is an evaluation to correct.
    #[inline(always)]
    fn correction_at(&self, ply: usize, in_check: bool) -> Option<(CorrectionKeys, [usize; 2])> {
        (self.params.correction_percent > 0 && !in_check).then(|| {
            (
                CorrectionKeys::of(&self.pos),
                [self.frame_back(ply, 2).cont_row, self.frame_back(ply, 1).cont_row],
            )
        })
    }

    /// A node's evaluations out of check: the raw one (from the hash entry, or the evaluator), the static
    /// one the pruning reads (corrected by the history at `at`), and that one replaced by the hash score
    /// when the entry's bound says the truth lies beyond it.
    #[inline(always)]
    fn node_eval(
        &mut self,
        tt_data: Option<TtData>,
        tt_score: i32,
        at: &Option<(CorrectionKeys, [usize; 2])>,
    ) -> (i32, i32, i32) {
        let raw = match tt_data {
            Some(d) if d.eval != EVAL_NONE => d.eval,
            _ => self.evaluate(),
        };
        let static_eval = self.corrected(raw, at);
        let sharpened = match tt_data {
            Some(d)
                if (tt_score > static_eval && d.bound != Bound::Upper)
                    || (tt_score < static_eval && d.bound != Bound::Lower) =>
            {
                tt_score
            }
            _ => static_eval,
        };
        (raw, static_eval, sharpened)
    }

    /// `raw` moved by the correction history at `at` (unchanged when the correction is off).
    #[inline(always)]
    fn corrected(&self, raw: i32, at: &Option<(CorrectionKeys, [usize; 2])>) -> i32 {
        match at {
            Some((keys, rows)) => (raw
                + self.hist.correction.value(keys, *rows, self.params.correction_percent))
            .clamp(-EVAL_CAP, EVAL_CAP),
            None => raw,
        }
    }

    /// Rewards the quiet move `m` that was best at `ply` (killer, counter-move, histories) and punishes the
    /// quiet moves tried before it.
    fn update_quiet_stats(&mut self, ply: usize, m: Move, others: &[Move], depth: i32) {
        let b = self.params.history_bonus(depth);
        let rows = self.continuation_rows(ply);
        let f = self.frame_mut(ply);
        if f.killers[0] != Some(m) {
            f.killers[1] = f.killers[0];
            f.killers[0] = Some(m);
        }
        if self.frame_back(ply, 1).mv.is_some() {
            self.hist.set_counter(rows[0], m);
        }
        self.update_quiet_history(m, rows, b);
        for &q in others {
            self.update_quiet_history(q, rows, -b);
        }
    }

    fn update_quiet_history(&mut self, m: Move, rows: [usize; 3], b: i32) {
        let Some(piece) = self.pos.piece_at(m.from()) else { return };
        let col = piece_to(piece, m);
        self.hist.update_butterfly(&self.pos, m, b);
        for row in rows {
            self.hist.update_continuation(row, col, b);
        }
    }

    /// Adds `b` to the history of the quiet move played at `ply - 1` (by the side not to move now): its
    /// butterfly entry and its continuation entries under the moves before it (`ply` >= 1).
    fn reward_prior_quiet(&mut self, ply: usize, b: i32) {
        let prior = self.frame_back(ply, 1);
        let (Some(m), false) = (prior.mv, prior.capture) else { return };
        let col = prior.cont_row;
        let rows = self.continuation_rows(ply - 1);
        self.hist.update_butterfly_for(!self.pos.side_to_move(), m, b);
        for row in rows {
            self.hist.update_continuation(row, col, b);
        }
    }

    fn update_capture_stat(&mut self, m: Move, b: i32) {
        if let (Some(piece), Some(victim)) = (self.pos.piece_at(m.from()), self.pos.piece_at(m.to())) {
            self.hist.update_capture(piece, m, victim.kind(), b);
        }
    }
}
