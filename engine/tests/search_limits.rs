//! The search API's contract: limits, stop and ponderhit, infinite mode, root move filters, MultiPV,
//! reports, the hash probe, determinism and threads. No timings are asserted.

use engine::evaluate::MaterialEval;
use engine::search::{
    Bound, Clock, Limits, Reporter, Score, SearchControl, SearchInfo, SearchOptions, SearchResult, Searcher,
    SilentReporter,
};
use engine::{Move, Position};
use std::sync::mpsc;
use std::time::Duration;

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn middlegame() -> Position {
    Position::from_fen(MIDDLEGAME).expect("valid FEN")
}

#[derive(Default)]
struct Collect(Vec<SearchInfo>);
impl Reporter for Collect {
    fn info(&mut self, info: &SearchInfo) {
        self.0.push(info.clone());
    }
}

fn searcher(threads: usize) -> Searcher<MaterialEval> {
    let mut s = Searcher::new(MaterialEval);
    s.set_options(SearchOptions { threads, ..Default::default() });
    s
}

fn assert_legal_line(pos: &Position, line: &[Move]) {
    let mut p = pos.clone();
    for &m in line {
        assert!(p.is_legal(m), "{m} is not legal in {p:?} (line {line:?})");
        p.make_move(m);
    }
}

#[test]
fn node_limited_search_is_deterministic_after_clear() {
    let pos = middlegame();
    let limits = Limits { nodes: Some(30_000), ..Default::default() };
    let mut s = searcher(1);
    let mut runs = Vec::new();
    for _ in 0..2 {
        s.clear();
        let r = quiet_search(&mut s, &pos, &limits);
        runs.push(r);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].nodes <= 30_000 && runs[0].nodes > 20_000, "{:?}", runs[0]);
}

#[test]
fn depth_limited_search_is_deterministic_and_reaches_the_depth() {
    let pos = Position::startpos();
    let limits = Limits { depth: Some(9), ..Default::default() };
    let mut s = searcher(1);
    let a = quiet_search(&mut s, &pos, &limits);
    s.clear();
    let b = quiet_search(&mut s, &pos, &limits);
    assert_eq!(a, b);
    assert_eq!(a.depth, 9);
}

#[test]
fn stopped_before_starting_still_returns_a_legal_move() {
    for fen in [engine::position::START_FEN, MIDDLEGAME] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        for threads in [1, 2] {
            let control = SearchControl::new();
            control.stop();
            let r = searcher(threads).search(&pos, &Limits::default(), &mut SilentReporter, &control);
            let best = r.best.expect("a move");
            assert!(pos.is_legal(best));
        }
    }
}

/// Searches `pos` with `limits`, reporting nothing and never stopped from outside.
fn quiet_search(s: &mut Searcher<MaterialEval>, pos: &Position, limits: &Limits) -> SearchResult {
    s.search(pos, limits, &mut SilentReporter, &SearchControl::new())
}

/// Limits of a clock alone.
fn on_the_clock(remaining_ms: u64, increment_ms: u64, movestogo: Option<u32>) -> Limits {
    Limits { clock: Some(Clock { remaining_ms, increment_ms, movestogo }), ..Default::default() }
}

/// Waits for the result of a [`spawn_search`] (`what`: why it should come) and asserts its move is legal.
fn assert_legal_answer(pos: &Position, rx: &mpsc::Receiver<SearchResult>, what: &str) {
    let r = rx.recv().expect(what);
    assert!(pos.is_legal(r.best.expect("a move")));
}

/// Runs an infinite (or pondering) search on another thread and returns what it sends when done.
fn spawn_search(
    pos: Position,
    limits: Limits,
    ponder: bool,
) -> (std::sync::Arc<SearchControl>, mpsc::Receiver<SearchResult>) {
    let control = std::sync::Arc::new(SearchControl::new());
    control.reset(ponder);
    let (tx, rx) = mpsc::channel();
    let c = control.clone();
    std::thread::spawn(move || {
        let r = searcher(1).search(&pos, &limits, &mut SilentReporter, &c);
        let _ = tx.send(r);
    });
    (control, rx)
}

/// Runs a [`spawn_search`] that must not return within 100 ms, then `release`s it (`what`: the call) and
/// asserts it answers with a legal move.
fn assert_waits_for(what: &str, release: fn(&SearchControl), pos: Position, limits: Limits, ponder: bool) {
    let (control, rx) = spawn_search(pos.clone(), limits, ponder);
    assert!(rx.recv_timeout(Duration::from_millis(100)).is_err(), "returned before {what}");
    release(&control);
    assert_legal_answer(&pos, &rx, &format!("search ends after {what}"));
}

#[test]
fn infinite_search_waits_for_stop() {
    // Even a depth that finishes at once must not end an infinite search.
    let limits = Limits { infinite: true, depth: Some(2), ..Default::default() };
    assert_waits_for("stop", SearchControl::stop, Position::startpos(), limits, false);
}

#[test]
fn pondering_waits_for_ponderhit_then_obeys_the_clock() {
    let limits = Limits { depth: Some(3), ..on_the_clock(2_000, 0, None) };
    assert_waits_for("ponderhit", SearchControl::ponderhit, middlegame(), limits, true);
}

#[test]
fn ponderhit_during_a_long_search_applies_the_clock() {
    // Without a depth limit the search runs until the clock (started at ponderhit) runs out.
    let pos = middlegame();
    let (control, rx) = spawn_search(pos.clone(), on_the_clock(3_000, 0, None), true);
    std::thread::sleep(Duration::from_millis(20));
    control.ponderhit();
    assert_legal_answer(&pos, &rx, "search ends on its own after ponderhit");
}

#[test]
fn time_limits_end_the_search() {
    let pos = middlegame();
    for limits in [
        Limits { movetime: Some(50), ..Default::default() },
        on_the_clock(1_000, 0, None),
        on_the_clock(500, 100, Some(1)),
        on_the_clock(10, 0, None),
    ] {
        for threads in [1, 2] {
            let r = quiet_search(&mut searcher(threads), &pos, &limits);
            assert!(pos.is_legal(r.best.expect("a move")), "{limits:?}");
        }
    }
}

#[test]
fn mate_limit_stops_at_the_mate() {
    let pos = Position::from_fen("4k4/R8/9/2p3p2/9/9/9/9/1R7/3K5 w - - 0 1").expect("valid FEN");
    let r = quiet_search(&mut searcher(1), &pos, &Limits { mate: Some(1), ..Default::default() });
    assert_eq!(Score::from_internal(r.score), Score::Mate(1));
    assert_eq!(r.best, pos.parse_move("b1b9").ok());
}

#[test]
fn banmoves_and_searchmoves_restrict_the_root() {
    let pos = Position::startpos();
    let all: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let only = pos.parse_move("i0i1").expect("legal");
    let banned: Vec<Move> = all.iter().copied().filter(|&m| m != only).collect();
    let mut s = searcher(1);
    let r = quiet_search(&mut s, &pos, &Limits { depth: Some(4), banmoves: banned, ..Default::default() });
    assert_eq!(r.best, Some(only));
    let pick = [pos.parse_move("b0c2").expect("legal"), pos.parse_move("g3g4").expect("legal")];
    let mut seen = Collect::default();
    let r = s.search(
        &pos,
        &Limits { depth: Some(5), searchmoves: pick.to_vec(), ..Default::default() },
        &mut seen,
        &SearchControl::new(),
    );
    assert!(pick.contains(&r.best.expect("a move")));
    assert!(seen.0.iter().all(|i| pick.contains(&i.pv[0])));
    // A ban on every legal move is ignored rather than leaving no move.
    let r =
        quiet_search(&mut s, &pos, &Limits { depth: Some(2), banmoves: all.clone(), ..Default::default() });
    assert!(all.contains(&r.best.expect("a move")));
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    let pos = middlegame();
    let mut s = Searcher::new(MaterialEval);
    s.set_options(SearchOptions { multipv: 3, ..Default::default() });
    let mut seen = Collect::default();
    s.search(&pos, &Limits { depth: Some(6), ..Default::default() }, &mut seen, &SearchControl::new());
    for depth in 1..=6 {
        let lines: Vec<&SearchInfo> =
            seen.0.iter().filter(|i| i.depth == depth && i.bound == Bound::Exact).collect();
        assert_eq!(lines.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3], "depth {depth}");
        assert!(lines.windows(2).all(|w| w[0].score >= w[1].score), "depth {depth}");
        assert!(
            lines[0].pv[0] != lines[1].pv[0]
                && lines[1].pv[0] != lines[2].pv[0]
                && lines[0].pv[0] != lines[2].pv[0]
        );
    }
}

#[test]
fn reports_are_consistent_and_lines_legal() {
    for fen in
        [engine::position::START_FEN, MIDDLEGAME, "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1"]
    {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mut seen = Collect::default();
        let r = searcher(1).search(
            &pos,
            &Limits { depth: Some(10), ..Default::default() },
            &mut seen,
            &SearchControl::new(),
        );
        assert!(!seen.0.is_empty());
        let mut last_nodes = 0;
        for info in &seen.0 {
            assert!(!info.pv.is_empty());
            assert_legal_line(&pos, &info.pv);
            assert!(info.seldepth >= 1 && info.hashfull <= 1000 && info.multipv == 1);
            assert!(info.nodes >= last_nodes);
            last_nodes = info.nodes;
        }
        let last = seen.0.last().expect("a report");
        assert_eq!(Some(last.pv[0]), r.best);
        assert_eq!(last.depth, r.depth);
        if let (Some(best), Some(ponder)) = (r.best, r.ponder) {
            assert_legal_line(&pos, &[best, ponder]);
        }
    }
}

#[test]
fn probe_reads_the_root_entry() {
    let pos = middlegame();
    // A small table, so that the search's entries show in the fill estimate (it samples the first buckets).
    let mut s = searcher(1);
    s.set_options(SearchOptions { hash_mb: 1, ..Default::default() });
    assert_eq!(s.probe(&pos), None);
    let r = quiet_search(&mut s, &pos, &Limits { depth: Some(8), ..Default::default() });
    let probe = s.probe(&pos).expect("the root is stored");
    assert!(probe.depth >= 1);
    assert!(pos.is_legal(probe.best.expect("a move")));
    assert!(s.hashfull() > 0);
    let _ = r;
    s.clear();
    assert_eq!(s.probe(&pos), None);
    assert_eq!(s.hashfull(), 0);
}

#[test]
fn two_threads_return_a_legal_move_and_count_all_nodes() {
    let pos = middlegame();
    let mut s = searcher(2);
    let mut seen = Collect::default();
    let r =
        s.search(&pos, &Limits { depth: Some(10), ..Default::default() }, &mut seen, &SearchControl::new());
    assert!(pos.is_legal(r.best.expect("a move")));
    assert!(r.depth >= 1);
    for info in &seen.0 {
        assert_legal_line(&pos, &info.pv);
    }
    let r = quiet_search(&mut s, &pos, &Limits { nodes: Some(50_000), ..Default::default() });
    assert!(pos.is_legal(r.best.expect("a move")));
    assert!(r.nodes >= 50_000 / 2, "{r:?}");
}

#[test]
fn changing_options_resizes_and_keeps_working() {
    let pos = Position::startpos();
    let mut s = searcher(1);
    for (hash_mb, threads) in [(1, 1), (4, 3), (2, 1)] {
        s.set_options(SearchOptions { hash_mb, threads, ..Default::default() });
        let r = quiet_search(&mut s, &pos, &Limits { depth: Some(5), ..Default::default() });
        assert!(pos.is_legal(r.best.expect("a move")));
    }
}
