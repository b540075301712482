//! Lazy SMP: every thread searches the same root with its own position, histories and stack, sharing only
//! the transposition table, a stop flag and the node counters. Helpers skip some depths so they spread out;
//! the main thread alone watches the clock and reports. At the end the threads vote for the best move,
//! each weighted by its completed depth and score.
//!
//! The threads are the searcher's persistent pool ([`super::pool`]); a search is one task per thread.
//! Everything a task reads is owned by it (shared handles and its thread's statistics), and each task
//! drops its handles before it reports back, so that the searcher owns the table alone again as soon as
//! the search has finished.

use super::history::Histories;
use super::params::SearchParams;
use super::pool::{Task, ThreadPool};
use super::root::{checked_pv, MainThread, RootMove};
use super::see::victim_value;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{
    Limits, Reporter, SearchControl, SearchFeatures, SearchInfo, SearchOptions, SearchResult, MATE,
    MATE_BOUND,
};
use crate::clock::Instant;
use crate::egtb::Tablebases;
use crate::evaluate::Evaluate;
use crate::position::Position;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;

/// Weight every valid vote gets on top of its score margin over the worst thread's score, so that a
/// thread whose best move scored lowest still counts by its depth.
const VOTE_SCORE_FLOOR: i32 = 20;

/// A node counter on its own cache line, so threads do not slow each other down by writing counters.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// What the threads of one search share besides the table.
pub struct Shared {
    /// Set by the main thread to stop everyone.
    pub stop: AtomicBool,
    nodes: Vec<Counter>,
    /// Positions the tablebases decided, all threads (rare enough for one shared counter).
    pub tbhits: AtomicU64,
}

impl Shared {
    fn new(threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: (0..threads).map(|_| Counter::default()).collect(),
            tbhits: AtomicU64::new(0),
        }
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
    id: usize,
    root_moves: Vec<RootMove>,
    completed_depth: i32,
    nodes: u64,
    /// The selective parts this thread searched with (every thread must use the job's).
    features: SearchFeatures,
}

#[cfg(test)]
/// The features each thread of the last search started from a thread used, by that thread, for the tests.
static LAST_FEATURES: std::sync::Mutex<Vec<(std::thread::ThreadId, Vec<SearchFeatures>)>> =
    std::sync::Mutex::new(Vec::new());

/// Everything a search needs, owned, so that it can travel to the pool's threads.
pub struct SearchJob<E: Evaluate> {
    /// The evaluator.
    pub eval: Arc<E>,
    /// The shared table (already advanced to the new search's generation).
    pub tt: Arc<TranspositionTable>,
    /// One set of statistics per thread; the search uses as many threads as there are sets, at most the
    /// pool's size.
    pub histories: Vec<Histories>,
    /// Options in force.
    pub options: SearchOptions,
    /// Selective parts in use.
    pub features: SearchFeatures,
    /// The tunable numbers.
    pub params: Arc<SearchParams>,
    /// Where the main thread reports progress.
    pub reporter: Box<dyn Reporter>,
    /// Stop and ponderhit from the caller.
    pub control: Arc<SearchControl>,
    /// Endgame tablebases, if any.
    pub tablebases: Option<Arc<Tablebases>>,
}

/// What a finished search hands back to its searcher.
pub struct Finished {
    /// The chosen move and its score.
    pub result: SearchResult,
    /// Each thread's statistics, by thread number (a thread that could not run is missing).
    pub histories: Vec<Histories>,
}

/// What every thread of one search reads.
struct Context<E: Evaluate> {
    eval: Arc<E>,
    tt: Arc<TranspositionTable>,
    shared: Arc<Shared>,
    pos: Arc<Position>,
    limits: Arc<Limits>,
    params: Arc<SearchParams>,
    features: SearchFeatures,
    multipv: usize,
    tb: Option<Arc<Tablebases>>,
}

impl<E: Evaluate> Clone for Context<E> {
    fn clone(&self) -> Self {
        Context {
            eval: Arc::clone(&self.eval),
            tt: Arc::clone(&self.tt),
            shared: Arc::clone(&self.shared),
            pos: Arc::clone(&self.pos),
            limits: Arc::clone(&self.limits),
            params: Arc::clone(&self.params),
            features: self.features,
            multipv: self.multipv,
            tb: self.tb.clone(),
        }
    }
}

/// The root moves the limits allow, captures of bigger pieces first. Falls back to every legal move if
/// `searchmoves`/`banmoves` leave none, so a move is always played when one is legal. When tablebases
/// cover the root and only one line is wanted, only the moves that keep their verdict best are searched:
/// the shortest mate when won, a drawing move when drawn, the longest resistance when lost.
fn root_moves(
    pos: &Position,
    limits: &Limits,
    params: &SearchParams,
    tb: Option<&Tablebases>,
    multipv: usize,
) -> Vec<RootMove> {
    let legal = pos.legal_moves();
    let mut moves: Vec<Move> = legal.iter().copied().filter(|&m| limits.allows(m)).collect();
    if moves.is_empty() {
        moves = legal.iter().copied().collect();
    }
    if let Some(root) = tb.filter(|_| multipv <= 1).and_then(|t| t.probe_root_loaded(pos)) {
        let best: Vec<Move> = moves.iter().copied().filter(|m| root.best.contains(m)).collect();
        if !best.is_empty() {
            moves = best;
        }
    }
    moves.sort_by_key(|&m| -victim_value(pos, m, params.see_values()));
    moves.into_iter().map(RootMove::new).collect()
}

/// Searches on this thread as thread `id` and returns what it found.
fn search_here<'a, E: Evaluate>(
    ctx: &'a Context<E>,
    id: usize,
    histories: &'a mut Histories,
    roots: Vec<RootMove>,
    node_limit: u64,
    main: Option<MainThread<'a>>,
) -> Outcome {
    let is_main = main.is_some();
    let mut w = Worker::new(
        id,
        &*ctx.eval,
        &ctx.tt,
        &ctx.shared,
        histories,
        (*ctx.pos).clone(),
        &ctx.limits,
        ctx.multipv,
        roots,
        node_limit,
        ctx.features,
        &ctx.params,
        main,
    );
    w.tb = ctx.tb.as_deref();
    w.iterate();
    if is_main {
        w.wait_while_required();
        w.stop_all();
    }
    w.shared.publish(id, w.nodes);
    let (root_moves, completed_depth, nodes, features) =
        (w.root_moves, w.completed_depth, w.nodes, w.features);
    Outcome { id, root_moves, completed_depth, nodes, features }
}

/// Starts `job` for `pos` within `limits` on `pool` and returns at once. When the search is over, the
/// main search thread calls `done` with the result (the caller answers the GUI there), then sends the
/// result and the statistics on `finished`. With no pool thread to run on, the search runs here.
pub fn start<E: Evaluate>(
    pool: &ThreadPool,
    job: SearchJob<E>,
    pos: &Position,
    limits: &Limits,
    done: Box<dyn FnOnce(&SearchResult) + Send>,
    finished: Sender<Finished>,
) {
    let start = Instant::now();
    let roots = root_moves(pos, limits, &job.params, job.tablebases.as_deref(), job.options.multipv);
    let SearchJob { eval, tt, mut histories, options, features, params, reporter, control, tablebases } = job;
    let threads = if roots.is_empty() { 1 } else { histories.len().clamp(1, pool.len().max(1)) };
    // Statistics of threads not used this time go straight back with the result.
    let idle: Vec<Histories> = histories.split_off(threads.min(histories.len()));
    let ctx = Context {
        eval,
        tt,
        shared: Arc::new(Shared::new(threads)),
        pos: Arc::new(pos.clone()),
        limits: Arc::new(limits.clone()),
        params,
        features,
        multipv: options.multipv.max(1),
        tb: tablebases,
    };
    let mut histories = histories.into_iter();
    let main_histories = histories.next().unwrap_or_default();
    let (to_main, from_helpers) = mpsc::channel::<(Outcome, Histories)>();
    let mut helpers = 0;
    for (i, mut hist) in histories.enumerate() {
        let id = i + 1;
        let (ctx, roots, to_main) = (ctx.clone(), roots.clone(), to_main.clone());
        let task: Task = Box::new(move || {
            let outcome = (search_here(&ctx, id, &mut hist, roots, u64::MAX, None), hist);
            // The handles go before the report, so the searcher is the table's only owner once it hears.
            drop(ctx);
            let _ = to_main.send(outcome);
        });
        // A helper that cannot be started is simply left out (its statistics start afresh next time).
        if pool.execute(id, task).is_ok() {
            helpers += 1;
        }
    }
    drop(to_main);
    let time = TimeManager::new(limits, pos.fullmove_number(), options.move_overhead_ms, &ctx.params);
    let exact_node_limit = if threads == 1 { limits.nodes.unwrap_or(u64::MAX) } else { u64::MAX };
    #[cfg(test)]
    let caller = std::thread::current().id();
    let main_task: Task = Box::new(move || {
        let main = MainSearch {
            ctx,
            reporter,
            control,
            time,
            start,
            exact_node_limit,
            helpers,
            idle,
            #[cfg(test)]
            caller,
        };
        let (result, histories) = main.run(roots, main_histories, from_helpers);
        done(&result);
        let _ = finished.send(Finished { result, histories });
    });
    if let Err(task) = pool.execute(0, main_task) {
        task();
    }
}

/// The main search thread's part of one search.
struct MainSearch<E: Evaluate> {
    ctx: Context<E>,
    reporter: Box<dyn Reporter>,
    control: Arc<SearchControl>,
    time: TimeManager,
    start: Instant,
    exact_node_limit: u64,
    helpers: usize,
    idle: Vec<Histories>,
    /// The thread that started the search.
    #[cfg(test)]
    caller: std::thread::ThreadId,
}

impl<E: Evaluate> MainSearch<E> {
    /// Searches, collects the helpers' outcomes, chooses the move and reports it if a helper's line won.
    /// Every shared handle is dropped before this returns.
    fn run(
        mut self,
        roots: Vec<RootMove>,
        mut main_histories: Histories,
        from_helpers: Receiver<(Outcome, Histories)>,
    ) -> (SearchResult, Vec<Histories>) {
        let ctx = &self.ctx;
        if roots.is_empty() {
            // Mated or stalemated: nothing to search.
            let result = SearchResult { best: None, ponder: None, score: -MATE, depth: 0, nodes: 0 };
            let mut histories = vec![main_histories];
            histories.append(&mut self.idle);
            return (result, histories);
        }
        let fallback = RootMove::new(roots[0].mv);
        let main = MainThread::new(&mut *self.reporter, &self.control, &ctx.limits, self.time, self.start);
        let main_outcome = search_here(ctx, 0, &mut main_histories, roots, self.exact_node_limit, Some(main));
        let mut helper_results: Vec<(Outcome, Histories)> = from_helpers.iter().take(self.helpers).collect();
        // The vote breaks ties by thread order.
        helper_results.sort_by_key(|(o, _)| o.id);
        let mut histories = vec![main_histories];
        let mut outcomes = vec![main_outcome];
        for (o, h) in helper_results {
            outcomes.push(o);
            histories.push(h);
        }

        debug_assert!(
            outcomes.iter().all(|o| o.features == ctx.features),
            "a thread searched with other features"
        );
        #[cfg(test)]
        if let Ok(mut last) = LAST_FEATURES.lock() {
            last.retain(|(id, _)| *id != self.caller);
            last.push((self.caller, outcomes.iter().map(|o| o.features).collect()));
        }
        let nodes: u64 = outcomes.iter().map(|o| o.nodes).sum();
        let chosen = if ctx.multipv == 1 { vote(&outcomes) } else { 0 };
        let (best_rm, depth) =
            match outcomes.get(chosen).and_then(|o| o.root_moves.first().map(|r| (r, o.completed_depth))) {
                Some((rm, d)) => (rm, d),
                None => (&fallback, 0),
            };
        let pos = &*ctx.pos;
        if chosen != 0 && depth > 0 {
            // A helper's line won the vote: show it, so the reported line matches the move played.
            let time_ms = self.start.elapsed().as_millis() as u64;
            self.reporter.info(&SearchInfo {
                depth: depth as u32,
                seldepth: best_rm.seldepth as u32,
                multipv: 1,
                score: best_rm.score,
                bound: best_rm.bound,
                nodes,
                nps: nodes.saturating_mul(1000) / time_ms.max(1),
                hashfull: ctx.tt.hashfull(),
                time_ms,
                tbhits: ctx.shared.tbhits.load(Ordering::Relaxed),
                pv: checked_pv(pos, &best_rm.pv, &ctx.tt, depth as usize),
            });
        }
        let pv = checked_pv(pos, &best_rm.pv, &ctx.tt, 2);
        let score = if depth > 0 { best_rm.score } else { ctx.eval.evaluate(pos) };
        let result = SearchResult {
            best: Some(best_rm.mv),
            ponder: pv.get(1).copied(),
            score,
            depth: depth as u32,
            nodes,
        };
        histories.append(&mut self.idle);
        (result, histories)
    }
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
        let weight = (rm.score - min_score + VOTE_SCORE_FLOOR) as i64 * o.completed_depth as i64;
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
        let me = std::thread::current().id();
        let last = LAST_FEATURES.lock().expect("not poisoned");
        let used = last.iter().find(|(id, _)| *id == me).map(|(_, f)| f.clone()).unwrap_or_default();
        assert_eq!(used.len(), 3);
        assert!(used.iter().all(|&f| f == SearchFeatures::plain()), "{used:?}");
    }
}
