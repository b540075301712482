//! Mates the search must find with the exact mate score: classic xiangqi kill patterns in one, two and
//! three moves, each proven exact by a brute-force solver here (a mate in n exists, none in n-1), for Red
//! to move and, turned round with `Position::flipped`, for Black to move. Also a stalemate (no legal move
//! without check), which is a win in xiangqi.

use engine::evaluate::MaterialEval;
use engine::search::{Limits, Score, SearchControl, SearchParams, SearchResult, Searcher, SilentReporter};
use engine::{Move, Position};

/// Whether the side to move can leave the opponent without a legal move within `n` of its own moves.
fn mates_within(pos: &mut Position, n: u32) -> bool {
    n > 0
        && pos.legal_moves().iter().any(|&m| {
            pos.make_move(m);
            let won = defender_lost(pos, n);
            pos.unmake_move();
            won
        })
}

/// Whether every defence here (the defender to move) loses within `n` more attacker moves.
fn defender_lost(pos: &mut Position, n: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    n > 1
        && moves.iter().all(|&m| {
            pos.make_move(m);
            let lost = mates_within(pos, n - 1);
            pos.unmake_move();
            lost
        })
}

/// The first moves that mate within `n`.
fn mating_moves(pos: &mut Position, n: u32) -> Vec<Move> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .copied()
        .filter(|&m| {
            pos.make_move(m);
            let won = defender_lost(pos, n);
            pos.unmake_move();
            won
        })
        .collect()
}

/// (pattern, FEN with Red to move, moves to mate).
const MATES: [(&str, &str, u32); 24] = [
    ("马后炮 horse-behind-cannon", "4k4/9/4N4/2p3p2/9/1C7/9/9/9/3K5 w - - 0 1", 1),
    ("重炮 double cannon", "3aka3/9/9/p7p/4C4/9/9/7C1/9/3K5 w - - 0 1", 1),
    ("双车错 two rooks", "4k4/R8/9/2p3p2/9/9/9/9/1R7/3K5 w - - 0 1", 1),
    ("铁门栓 iron bolt", "4ka3/4a4/9/p7p/4P4/3R5/4C4/9/9/3K5 w - - 0 1", 1),
    ("闷宫 smothered palace", "3aka3/4N4/6N2/p7p/9/9/9/9/C8/3K5 w - - 0 1", 1),
    ("卧槽马 horse in the trough", "4ka3/4a4/9/p6Np/9/9/9/9/9/3K5 w - - 0 1", 1),
    ("对面笑 facing kings", "4k4/4a4/9/2p3p2/9/9/9/9/R8/4K4 w - - 0 1", 1),
    ("天地炮 heaven-and-earth cannons", "2P1k4/4a4/9/6p2/4P4/9/9/4C4/C8/3K5 w - - 0 1", 1),
    ("马后炮 after a horse check", "4ka3/9/4N4/2p3p2/9/1C7/9/9/9/3K5 w - - 0 1", 2),
    ("重炮 after a discovered check", "3aka3/9/9/p7p/4C4/9/9/4R2C1/9/3K5 w - - 0 1", 2),
    ("双车错 rook lift", "4k4/9/9/2p3p2/9/9/9/9/1RR6/3K5 w - - 0 1", 2),
    ("双车错 alternating checks", "4k4/9/9/2p1P1p2/9/9/9/1R7/R8/3K5 w - - 0 1", 2),
    ("双车错 from the corner", "4k4/9/9/2p3p2/9/9/9/1R7/R8/3K5 w - - 0 1", 2),
    ("铁门栓 cannon to the centre first", "4ka3/4a4/9/p7p/4P4/3R5/9/9/9/3K1C3 w - - 0 1", 2),
    ("闷宫 horse makes way", "3aka3/4N4/6N2/p7p/9/9/9/9/9/C2K5 w - - 0 1", 2),
    ("卧槽马 rook guards the flight", "4ka3/4aR3/9/p6Np/9/9/9/9/9/3K5 w - - 0 1", 2),
    ("对面笑 through a blocker", "4k4/4a4/3n5/2p3p2/9/9/9/9/R8/4K4 w - - 0 1", 2),
    ("天地炮 pawn check first", "2P1k4/4a4/9/6p2/4P4/9/9/4C4/9/3K1C3 w - - 0 1", 2),
    ("双车错 both rooks from afar", "4k4/9/9/2p3p2/9/9/9/9/2R6/2RK5 w - - 0 1", 3),
    ("铁门栓 rook and cannon from home", "4ka3/4a4/9/p7p/4P4/9/9/9/9/R2K1C3 w - - 0 1", 3),
    ("闷宫 horses regroup", "3aka3/4N4/9/p6Np/9/9/9/9/9/C2K5 w - - 0 1", 3),
    ("闷宫 horse from the flank", "3aka3/9/6N2/p7p/9/8N/9/9/9/C2K5 w - - 0 1", 3),
    ("天地炮 pawn walks in", "4k4/4a4/9/6p2/4P1P2/9/9/4C4/9/3K1C3 w - - 0 1", 3),
    ("天地炮 pawn from the left", "4k4/4a4/3P5/6p2/4P4/9/9/4C4/9/3K1C3 w - - 0 1", 3),
];

/// Iteration depth allowed for finding the mates. Pruning and reductions hide quiet mating moves at
/// shallow depth (the slowest here, a mate in 3 with two quiet moves, needs depth 19), so this is generous;
/// the search stops by itself once a mate is confirmed.
const MATE_DEPTH: u32 = 24;

/// A fresh material-only search of `pos` to `depth`.
fn search_to_depth(pos: &Position, depth: u32) -> SearchResult {
    search_with(SearchParams::default(), pos, depth)
}

/// A fresh material-only search of `pos` to `depth` with `params`.
fn search_with(params: SearchParams, pos: &Position, depth: u32) -> SearchResult {
    let mut searcher = Searcher::new(MaterialEval);
    searcher.set_params(params);
    searcher.search(
        pos,
        &Limits { depth: Some(depth), ..Default::default() },
        &mut SilentReporter,
        &SearchControl::new(),
    )
}

/// The search parameters with every idea that is off by default (waiting for its SPRT) switched on, so
/// their code is held to the same exact mates.
fn every_experiment_on() -> SearchParams {
    let mut p = SearchParams::default();
    for (name, value) in [
        ("prior_bonus_percent", 100),
        ("lmr_cutoffs", 1),
        ("threat_order", 16_000),
        ("check_order", 8_000),
        ("eval_diff_history_percent", 100),
        ("hindsight", 1),
        ("iir_pv", 3),
        ("lmr_research_bonus_percent", 100),
        ("lmr_extend", 1),
        ("qsearch_checks", 1),
        ("probcut_margin", 100),
        ("singular_high_reduction", 2),
        ("singular_low_reduction", 1),
        ("futility_history_divisor", 64),
        ("capture_futility_base", 140),
        ("tt_cut_malus", 1),
        ("lmr_pv", 1),
        ("iir_pv_stale", 1),
        ("rfp_stat_divisor", 160),
        ("nmp_stat_max", 9_800),
    ] {
        assert!(p.set(name, value), "{name}");
    }
    p
}

/// Proves the mate exact, then checks that the search finds a mating move and reports mate in `n`.
fn check_mate(name: &str, pos: &Position, n: u32) {
    check_mate_with(SearchParams::default(), name, pos, n);
}

/// [`check_mate`] with `params`.
fn check_mate_with(params: SearchParams, name: &str, pos: &Position, n: u32) {
    let mut p = pos.clone();
    assert!(!mates_within(&mut p, n - 1), "{name}: a shorter mate exists in {pos:?}");
    let mating = mating_moves(&mut p, n);
    assert!(!mating.is_empty(), "{name}: no mate in {n} in {pos:?}");

    let result = search_with(params, pos, MATE_DEPTH);
    assert_eq!(Score::from_internal(result.score), Score::Mate(n as i32), "{name}: {pos:?} {result:?}");
    let best = result.best.expect("a move");
    assert!(mating.contains(&best), "{name}: {best} does not mate in {n} (mating: {mating:?}) in {pos:?}");
}

#[test]
fn classic_mates_for_red() {
    assert!(MATES.len() >= 20);
    for (name, fen, n) in MATES {
        let pos = Position::from_fen(fen).expect("valid FEN");
        check_mate(name, &pos, n);
    }
}

#[test]
fn classic_mates_for_black() {
    for (name, fen, n) in MATES {
        let pos = Position::from_fen(fen).expect("valid FEN").flipped();
        check_mate(name, &pos, n);
    }
}

#[test]
fn classic_mates_with_every_experiment_on() {
    for (name, fen, n) in MATES {
        let pos = Position::from_fen(fen).expect("valid FEN");
        check_mate_with(every_experiment_on(), name, &pos, n);
        check_mate_with(every_experiment_on(), name, &pos.flipped(), n);
    }
}

#[test]
fn final_positions_are_checkmates() {
    // The mate-in-1 patterns mate by check (not by stalemate), as their names promise.
    for (name, fen, n) in MATES.iter().filter(|m| m.2 == 1) {
        let mut pos = Position::from_fen(fen).expect("valid FEN");
        for m in mating_moves(&mut pos, *n) {
            pos.make_move(m);
            assert!(pos.in_check() && !pos.has_legal_move(), "{name}: {m}");
            pos.unmake_move();
        }
    }
}

#[test]
fn stalemating_the_opponent_wins() {
    // The black king on d9 keeps e9 (the red king faces it on the e file) and d8; a quiet pawn move takes
    // d8 away without check, and Black, with no legal move, loses.
    let pos = Position::from_fen("3k5/9/2P6/9/9/9/9/9/9/4K4 w - - 0 1").expect("valid FEN");
    let mut p = pos.clone();
    let winning = mating_moves(&mut p, 1);
    assert!(!winning.is_empty());
    for &m in &winning {
        p.make_move(m);
        assert!(!p.in_check() && !p.has_legal_move(), "{m} stalemates");
        p.unmake_move();
    }
    let result = search_to_depth(&pos, 6);
    assert_eq!(Score::from_internal(result.score), Score::Mate(1), "{result:?}");
    assert!(winning.contains(&result.best.expect("a move")));
}

#[test]
fn a_stalemated_side_is_lost() {
    // Black to move with no legal move and not in check: the search has nothing to play and scores a loss.
    let pos = Position::from_fen("3k5/2P6/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("valid FEN");
    assert!(!pos.in_check() && !pos.has_legal_move());
    let result = search_to_depth(&pos, 3);
    assert_eq!(result.best, None);
    assert_eq!(Score::from_internal(result.score), Score::Mate(0));
}
