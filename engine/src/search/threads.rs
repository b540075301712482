//! Lazy SMP: every thread searches the same root with its own position, histories and stack, sharing only
//! the transposition table, a stop flag and the node counters. Helpers skip some depths so they spread out;
//! the main thread alone watches the clock and reports. At the end the threads vote for the best move,
//! each weighted by its completed depth and score.
//!
//! Threads are scoped to one search (`std::thread::scope`), so they borrow the table, the evaluator and the
//! histories without reference counting; starting them costs tens of microseconds per search.

use super::history::Histories;
use super::params::SearchParams;
use super::root::{checked_pv, MainThread, RootMove};
use super::see::victim_value;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{
    Limits, Reporter, SearchControl, SearchFeatures, SearchInfo, SearchOptions, SearchResult, MATE,
    MATE_BOUND,
};
use crate::evaluate::Evaluate;
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Stack size of a search thread: the recursion is up to `MAX_PLY` frames deep, each holding move lists.
const STACK_BYTES: usize = 32 << 20;

/// A node counter on its own cache line, so threads do not slow each other down by writing counters.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// What the threads of one search share besides the table.
pub struct Shared {
    /// Set by the main thread to stop everyone.
    pub stop: AtomicBool,
    nodes: Vec<Counter>,
}

impl Shared {
    fn new(threads: usize) -> Shared {
        Shared { stop: AtomicBool::new(false), nodes: (0..threads).map(|_| Counter::default()).collect() }
    }

    /// Publishes thread `id`'s node count.
    #[inline]
    pub fn publish(&self, id: usize, nodes: u64) {
        if let Some(c) = self.nodes.get(id) {
            c.0.store(nodes, Ordering::Relaxed);
        }
    }

    /// Nodes of all threads as last published.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
    }
}

/// What one thread found.
struct Outcome {
    root_moves: Vec<RootMove>,
    completed_depth: i32,
    nodes: u64,
    /// The selective parts this thread searched with (every thread must use the job's).
    features: SearchFeatures,
}

#[cfg(test)]
thread_local! {
    /// The features each thread of the last search on this thread used, for the tests.
    static LAST_FEATURES: std::cell::RefCell<Vec<SearchFeatures>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Everything a search needs that outlives it.
pub struct SearchJob<'s, E: Evaluate> {
    /// The evaluator.
    pub eval: &'s E,
    /// The shared table (already advanced to the new search's generation).
    pub tt: &'s TranspositionTable,
    /// One set of statistics per thread.
    pub histories: &'s mut [Histories],
    /// Options in force.
    pub options: &'s SearchOptions,
    /// Selective parts in use.
    pub features: SearchFeatures,
    /// The tunable numbers.
    pub params: &'s SearchParams,
}

/// The root moves the limits allow, captures of bigger pieces first. Falls back to every legal move if
/// `searchmoves`/`banmoves` leave none, so a move is always played when one is legal.
fn root_moves(pos: &Position, limits: &Limits, params: &SearchParams) -> Vec<RootMove> {
    let legal = pos.legal_moves();
    let allowed = |m: &Move| {
        (limits.searchmoves.is_empty() || limits.searchmoves.contains(m)) && !limits.banmoves.contains(m)
    };
    let mut moves: Vec<Move> = legal.iter().copied().filter(allowed).collect();
    if moves.is_empty() {
        moves = legal.iter().copied().collect();
    }
    moves.sort_by_key(|&m| -victim_value(pos, m, params.see_values()));
    moves.into_iter().map(RootMove::new).collect()
}

/// Runs a search to its end and returns the chosen move.
pub fn run<E: Evaluate>(
    job: SearchJob<'_, E>,
    pos: &Position,
    limits: &Limits,
    reporter: &mut dyn Reporter,
    control: &SearchControl,
) -> SearchResult {
    let start = Instant::now();
    let roots = root_moves(pos, limits, job.params);
    if roots.is_empty() {
        // Mated or stalemated: nothing to search.
        return SearchResult { best: None, ponder: None, score: -MATE, depth: 0, nodes: 0 };
    }
    let threads = job.histories.len().max(1);
    let shared = Shared::new(threads);
    let time = TimeManager::new(limits, pos.fullmove_number(), job.options.move_overhead_ms, job.params);
    let multipv = job.options.multipv.max(1);
    let exact_node_limit = if threads == 1 { limits.nodes.unwrap_or(u64::MAX) } else { u64::MAX };
    let (eval, tt, features, params) = (job.eval, job.tt, job.features, job.params);

    let mut histories = job.histories.iter_mut();
    let Some(main_hist) = histories.next() else {
        return SearchResult { best: Some(roots[0].mv), ponder: None, score: 0, depth: 0, nodes: 0 };
    };
    let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
        let mut helpers = Vec::new();
        for (i, hist) in histories.enumerate() {
            let id = i + 1;
            let (shared, roots) = (&shared, roots.clone());
            let body = move || {
                let mut w = Worker::new(
                    id,
                    eval,
                    tt,
                    shared,
                    hist,
                    pos.clone(),
                    limits,
                    multipv,
                    roots,
                    u64::MAX,
                    features,
                    params,
                    None,
                );
                w.iterate();
                w.shared.publish(id, w.nodes);
                Outcome {
                    root_moves: w.root_moves,
                    completed_depth: w.completed_depth,
                    nodes: w.nodes,
                    features: w.features,
                }
            };
            // A helper that cannot be started is simply left out.
            if let Ok(h) = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, body)
            {
                helpers.push(h);
            }
        }
        let main = MainThread::new(reporter, control, limits, time, start);
        let shared_ref = &shared;
        let main_roots = roots.clone();
        let main_body = move || {
            let mut w = Worker::new(
                0,
                eval,
                tt,
                shared_ref,
                main_hist,
                pos.clone(),
                limits,
                multipv,
                main_roots,
                exact_node_limit,
                features,
                params,
                Some(main),
            );
            w.iterate();
            w.wait_while_required();
            w.stop_all();
            w.shared.publish(0, w.nodes);
            Outcome {
                root_moves: w.root_moves,
                completed_depth: w.completed_depth,
                nodes: w.nodes,
                features: w.features,
            }
        };
        let main_outcome = match std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, main_body)
        {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(_) => {
                shared.stop.store(true, Ordering::Relaxed);
                Outcome { root_moves: Vec::new(), completed_depth: 0, nodes: 0, features }
            }
        };
        let mut all = vec![main_outcome];
        for h in helpers {
            all.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        all
    });

    debug_assert!(outcomes.iter().all(|o| o.features == features), "a thread searched with other features");
    #[cfg(test)]
    LAST_FEATURES.with(|f| *f.borrow_mut() = outcomes.iter().map(|o| o.features).collect());
    let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
    let chosen = if multipv == 1 { vote(&outcomes) } else { 0 };
    let fallback = RootMove::new(roots[0].mv);
    let (best_rm, depth) =
        match outcomes.get(chosen).and_then(|o| o.root_moves.first().map(|r| (r, o.completed_depth))) {
            Some((rm, d)) => (rm, d),
            None => (&fallback, 0),
        };
    if chosen != 0 && depth > 0 {
        // A helper's line won the vote: show it, so the reported line matches the move played.
        let time_ms = start.elapsed().as_millis() as u64;
        reporter.info(&SearchInfo {
            depth: depth as u32,
            seldepth: best_rm.seldepth as u32,
            multipv: 1,
            score: best_rm.score,
            bound: best_rm.bound,
            nodes,
            nps: nodes.saturating_mul(1000) / time_ms.max(1),
            hashfull: tt.hashfull(),
            time_ms,
            pv: checked_pv(pos, &best_rm.pv, tt, depth as usize),
        });
    }
    let pv = checked_pv(pos, &best_rm.pv, tt, 2);
    let score = if depth > 0 { best_rm.score } else { eval.evaluate(pos) };
    SearchResult { best: Some(best_rm.mv), ponder: pv.get(1).copied(), score, depth: depth as u32, nodes }
}

/// Index of the thread whose best move wins: votes weighted by (score above the worst + a constant) times
/// completed depth; a proven win goes to the fastest mate.
fn vote(outcomes: &[Outcome]) -> usize {
    let valid = |o: &Outcome| o.completed_depth > 0 && o.root_moves.first().is_some_and(|r| r.score > -MATE);
    let best_of = |o: &Outcome| o.root_moves.first().map_or(-MATE, |r| r.score);
    let Some(min_score) = outcomes.iter().filter(|o| valid(o)).map(best_of).min() else { return 0 };
    let mut votes: Vec<(Move, i64)> = Vec::new();
    for o in outcomes.iter().filter(|o| valid(o)) {
        let Some(rm) = o.root_moves.first() else { continue };
        let weight = (rm.score - min_score + 20) as i64 * o.completed_depth as i64;
        match votes.iter_mut().find(|(m, _)| *m == rm.mv) {
            Some(v) => v.1 += weight,
            None => votes.push((rm.mv, weight)),
        }
    }
    let votes_for = |m: Move| votes.iter().find(|(v, _)| *v == m).map_or(0, |v| v.1);
    let mut best = 0;
    if !valid(&outcomes[0]) {
        match outcomes.iter().position(valid) {
            Some(i) => best = i,
            None => return 0,
        }
    }
    for (i, o) in outcomes.iter().enumerate() {
        if !valid(o) || i == best {
            continue;
        }
        let (b, c) = (best_of(&outcomes[best]), best_of(o));
        let (bm, cm) = (outcomes[best].root_moves[0].mv, o.root_moves[0].mv);
        let better = if b >= MATE_BOUND {
            c > b
        } else if c >= MATE_BOUND {
            true
        } else {
            votes_for(cm) > votes_for(bm) || (cm == bm && o.completed_depth > outcomes[best].completed_depth)
        };
        if better {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate::MaterialEval;
    use crate::search::{Searcher, SilentReporter};

    #[test]
    fn every_thread_searches_with_the_chosen_features() {
        let mut searcher = Searcher::new(MaterialEval);
        searcher.set_options(SearchOptions { threads: 3, hash_mb: 1, ..SearchOptions::default() });
        searcher.set_features(SearchFeatures::plain());
        let limits = Limits { depth: Some(4), ..Default::default() };
        searcher.search(&Position::startpos(), &limits, &mut SilentReporter, &SearchControl::new());
        let used = LAST_FEATURES.with(|f| f.borrow().clone());
        assert_eq!(used.len(), 3);
        assert!(used.iter().all(|&f| f == SearchFeatures::plain()), "{used:?}");
    }
}
