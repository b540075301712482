//! The referee against docs/rules.md (art. 2-4 and 23-29): one hand-made position per clause.
//!
//! Every position is checked by `Position::from_fen` (which validates it), every move is checked legal as
//! it is played, and every repetition is checked to really return to its start before the verdict is
//! read. Many cases are also run with the colours swapped (the board turned over the river), which must
//! swap the result.
//!
//! Cases marked **approximation** exercise a named approximation of the implementation (see the module
//! docs of `engine::rules::chase`, `mate` and `cycle`).

mod support;

use support::{flip, position, swapped};

use engine::random::Rng;

use engine::rules::limit::{COUNTED_CHECKS, NATURAL_LIMIT_PLIES};
use engine::rules::{
    classify, cycle_outcome, judge, CycleOutcome, GameResult, Judgement, MoveClass, MoveKind, Reason, Referee,
};
use engine::{Color, Move, Position, Square};
use std::collections::HashMap;

/// The search's mate score (a rule loss at ply p scores -MATE_SCORE + p).
const MATE_SCORE: i32 = engine::search::MATE;

fn split(moves: &str) -> Vec<&str> {
    moves.split_whitespace().collect()
}

/// Plays the moves, each of which must be legal, and returns the referee's final judgement; the game must
/// not end before the last move.
fn play(fen: &str, moves: &str) -> Judgement {
    let mut referee = Referee::new(position(fen));
    let moves = split(moves);
    for (i, m) in moves.iter().enumerate() {
        assert!(!referee.judgement().is_over(), "game over before move {i} ({m}): {:?}", referee.judgement());
        assert!(
            referee.position().parse_move(m).is_ok(),
            "move {i} ({m}) is not legal in {}",
            referee.position().to_fen()
        );
        referee.play_str(m);
    }
    referee.judgement()
}

/// Plays `cycle` twice from `fen`: asserts the cycle returns to its start and the game goes on until the
/// last move, which brings the start position for the third time. Returns that judgement.
fn repeat(fen: &str, cycle: &str) -> Judgement {
    let start = position(fen);
    let mut p = start.clone();
    for m in split(cycle) {
        p.try_play(m).unwrap_or_else(|e| panic!("{cycle}: {e}"));
    }
    assert_eq!(p.key(), start.key(), "the cycle {cycle} does not return to {fen}");
    let twice = format!("{cycle} {cycle}");
    let moves = split(&twice);
    let (last, before) = moves.split_last().expect("a cycle has moves");
    let j = play(fen, &before.join(" "));
    assert_eq!(j, Judgement::ongoing(), "{cycle}: ended before the third occurrence");
    let mut referee = Referee::new(start);
    for m in before {
        referee.play_str(m);
    }
    referee.play_str(last)
}

/// Asserts that the judgement `j` ends the game with `result` by `reason`, with `detail` in its text.
fn assert_verdict(j: &Judgement, result: GameResult, reason: Reason, detail: &str) {
    assert_eq!((j.result, j.reason), (result, reason), "{}", j.detail);
    assert!(j.detail.contains(detail), "{}", j.detail);
}

/// Asserts the verdict that `run` (`play` or `repeat`) reaches with `moves` from `fen`, and the swapped
/// verdict with colours swapped.
fn assert_both_ways(
    run: fn(&str, &str) -> Judgement,
    fen: &str,
    moves: &str,
    result: GameResult,
    reason: Reason,
) {
    assert_verdict(&run(fen, moves), result, reason, "");
    let (ffen, fmoves) = flip(fen, moves);
    let j = run(&ffen, &fmoves);
    assert_eq!((j.result, j.reason), (swapped(result), reason), "flipped: {}", j.detail);
}

/// Asserts the repetition verdict, and the swapped verdict with colours swapped.
fn assert_cycle(fen: &str, cycle: &str, result: GameResult, reason: Reason) {
    assert_both_ways(repeat, fen, cycle, result, reason);
}

/// One `#[test]` per repetition case, `name: fen, cycle => result by reason;`, each running
/// `assert_cycle`. With `, first move KIND` after the cycle the case also checks the class of the
/// cycle's first move.
macro_rules! cycle_tests {
    ($($name:ident: $fen:expr, $cycle:expr $(, first move $kind:ident)? => $result:ident by $reason:ident;)*) => {
        $(
            #[test]
            fn $name() {
                let fen: &str = &$fen;
                $(assert_eq!(kind_of(fen, split($cycle)[0]), MoveKind::$kind);)?
                assert_cycle(fen, $cycle, GameResult::$result, Reason::$reason);
            }
        )*
    };
}

/// One `#[test]` per group of single moves, `name { fen, move => KIND; ... }`: each move's class.
macro_rules! move_kind_tests {
    ($($name:ident { $($fen:expr, $mv:literal => $kind:ident;)+ })*) => {
        $(
            #[test]
            fn $name() {
                $(assert_eq!(kind_of($fen, $mv), MoveKind::$kind);)+
            }
        )*
    };
}

fn classify_move(fen: &str, mv: &str) -> MoveClass {
    let mut p = position(fen);
    let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    classify(&mut p, m)
}

fn kind_of(fen: &str, mv: &str) -> MoveKind {
    classify_move(fen, mv).kind
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e:?}"))
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 2.2, 3 and 4.1: checkmate, stalemate, illegal moves

#[test]
fn checkmate_wins_for_the_mating_side() {
    // Rook a1-a9: the pawn on c8 covers d8, the red king covers e9 along the open e-file.
    assert_both_ways(
        play,
        "3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1",
        "a1a9",
        GameResult::RedWins,
        Reason::Checkmate,
    );
}

#[test]
fn stalemate_loses_for_the_side_that_cannot_move() {
    // After a quiet rook move Black's king on d9 has no move: d8 is covered by the pawn, e9 by the
    // red king along the open file. Not in check: stalemate (困毙), which loses.
    let fen = "3k5/2P6/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    assert_both_ways(play, fen, "a0a1", GameResult::RedWins, Reason::Stalemate);
}

#[test]
fn a_start_position_without_a_legal_move_is_already_decided() {
    // Black to move in the stalemate above (and, turned over, Red to move in the same).
    let at_start = |fen: &str, _: &str| judge(&position(fen), &[]);
    assert_both_ways(
        at_start,
        "3k5/2P6/9/9/9/9/9/9/R8/4K4 b - - 0 1",
        "",
        GameResult::RedWins,
        Reason::Stalemate,
    );
}

#[test]
fn kings_facing_is_an_illegal_move_that_loses() {
    // The red cannon on e4 is the only piece between the kings: moving it off the file faces them.
    let j = judge(&position("4k4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1"), &["e4d4"]);
    assert_verdict(&j, GameResult::BlackWins, Reason::IllegalMove, "e4d4");
}

#[test]
fn moving_into_check_is_an_illegal_move_that_loses() {
    // Black's king may not step onto the rook's file.
    let j = judge(&position("4k4/9/9/9/9/9/9/9/9/3R1K3 b - - 0 1"), &["e9d9"]);
    assert_eq!(j.result, GameResult::RedWins, "{}", j.detail);
    assert_eq!(j.reason, Reason::IllegalMove);
}

#[test]
fn text_that_is_not_a_move_loses_for_the_mover() {
    let j = judge(&Position::startpos(), &["h2e2", "nonsense"]);
    assert_verdict(&j, GameResult::RedWins, Reason::IllegalMove, "");
    let j = judge(&Position::startpos(), &["e5e6"]);
    assert_verdict(&j, GameResult::BlackWins, Reason::IllegalMove, "");
}

#[test]
fn moves_after_the_end_are_ignored() {
    let j = judge(&position("3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1"), &["a1a9", "d9d8"]);
    assert_eq!(j.reason, Reason::Checkmate);
    assert!(j.detail.contains("1 later moves ignored"), "{}", j.detail);
}

#[test]
fn chinese_notation_is_accepted_by_the_referee() {
    let j = judge(&Position::startpos(), &["炮二平五", "马8进7", "h0g2"]);
    assert_eq!(j, Judgement::ongoing());
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 4.2.4 and 23.3: natural move limit

/// Red's rook circles a1-e1 (5 moves), Black's a8-g8 (7 moves): no position comes three times in 60
/// rounds, nobody checks (advisors f2 and d7 block the files), nothing is captured.
const WALK_FEN: &str = "3k5/9/3a5/9/9/9/9/5A3/R8/5K3 w - - 0 1";

fn walk(plies: usize) -> String {
    let red = ["a1b1", "b1c1", "c1d1", "d1e1", "e1a1"];
    let black = ["a8b8", "b8c8", "c8d8", "d8e8", "e8f8", "f8g8", "g8a8"];
    (0..plies)
        .map(|i| if i % 2 == 0 { red[(i / 2) % 5] } else { black[(i / 2) % 7] })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn move_limit_draws_after_120_plies_without_a_capture() {
    let fen = WALK_FEN.replace("3k5/9/3a5", "3k5/r8/3a5");
    let j = play(&fen, &walk(119));
    assert_eq!(j, Judgement::ongoing());
    assert_verdict(&play(&fen, &walk(120)), GameResult::Draw, Reason::MoveLimit, "");
}

#[test]
fn move_limit_counts_from_the_fen_counter_and_restarts_at_a_capture() {
    // 118 capture-free plies already; two quiet plies reach the limit.
    let j = play("3k5/r8/3a5/9/9/9/9/5A3/R8/5K3 w - - 118 60", "a1b1 a8b8");
    assert_verdict(&j, GameResult::Draw, Reason::MoveLimit, "");
    // The same with a capture on the way: the count restarts.
    let j = play("3k5/r8/3a5/9/9/9/9/5A3/R8/5K3 w - - 118 60", "a1a8 d9e9 a8a7 e9d9");
    assert_eq!(j, Judgement::ongoing());
}

/// A pseudo-random game from `seed` that checks as often as it can, never repeats a position a third
/// time, never mates and captures only when nothing else is legal. At every ply the referee must agree
/// with the rule written out independently: drawn at the first ply where, for some claimant, the plies
/// since the last capture minus the claimant's checks beyond its tenth reach 120. Returns the length of
/// the final capture-free stretch and the checks in it, or `None` if the walk runs out of moves first.
fn checking_walk(seed: u64) -> Option<(u32, [u32; 2])> {
    let mut pos = position("3akab2/9/1c4n2/9/2r3R2/9/9/4C1N2/9/2BAKA3 w - - 0 1");
    let mut referee = Referee::new(pos.clone());
    let mut seen: HashMap<u64, u32> = HashMap::from([(pos.key(), 1)]);
    let (mut plies, mut checks) = (0u32, [0u32; 2]);
    let mut rng = Rng::from_state(seed | 1);
    for ply in 1..=400u32 {
        let playable = |m: Move| {
            let mut q = pos.clone();
            q.make_move(m);
            q.has_legal_move() && seen.get(&q.key()).copied().unwrap_or(0) < 2
        };
        let legal: Vec<Move> = pos.legal_moves().iter().copied().filter(|&m| playable(m)).collect();
        let quiet: Vec<Move> = legal.iter().copied().filter(|&m| !pos.is_capture(m)).collect();
        let candidates = if quiet.is_empty() { legal } else { quiet };
        if candidates.is_empty() {
            return None;
        }
        let r = rng.next_u64();
        let checking: Vec<Move> = candidates.iter().copied().filter(|&m| pos.gives_check(m)).collect();
        let pool = if !checking.is_empty() && r % 10 < 8 { &checking } else { &candidates };
        let m = pool[(r >> 8) as usize % pool.len()];
        let mover = pos.side_to_move();
        let capture = pos.is_capture(m);
        pos.make_move(m);
        if capture {
            (plies, checks) = (0, [0; 2]);
            seen.clear();
        } else {
            plies += 1;
            if pos.in_check() {
                checks[mover.index()] += 1;
            }
        }
        *seen.entry(pos.key()).or_insert(0) += 1;
        let j = referee.play(m);
        let counted = |c: Color| plies - checks[c.index()].saturating_sub(COUNTED_CHECKS);
        if counted(Color::Red).max(counted(Color::Black)) >= NATURAL_LIMIT_PLIES {
            assert_eq!(
                (j.result, j.reason),
                (GameResult::Draw, Reason::MoveLimit),
                "ply {ply}: {}",
                j.detail
            );
            return Some((plies, checks));
        }
        assert_eq!(j, Judgement::ongoing(), "seed {seed} ply {ply}");
    }
    None
}

#[test]
fn move_limit_counts_at_most_ten_checks_of_the_claimant() {
    // Several walks; at least one must have both sides checking more than ten times in the final
    // stretch, which delays the draw past 120 plies.
    let walks: Vec<(u32, [u32; 2])> =
        (1..=8u64).filter_map(|s| checking_walk(s.wrapping_mul(0x9e37_79b9_7f4a_7c15))).collect();
    let exercised =
        walks.iter().filter(|(plies, c)| c[0].min(c[1]) > COUNTED_CHECKS && *plies > NATURAL_LIMIT_PLIES);
    assert!(exercised.count() > 0, "no walk exercised the cap on checks: {walks:?}");
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 4.2.1: dead positions

#[test]
fn dead_position_bare_kings() {
    // The red king takes the last black pawn: only the kings are left.
    let j = play("5k3/9/9/9/9/9/9/9/3p5/3K5 w - - 0 1", "d0d1");
    assert_verdict(&j, GameResult::Draw, Reason::DeadPosition, "bare kings");
}

#[test]
fn dead_position_advisors_and_elephants_only() {
    // The red advisor takes Black's last horse: kings, advisors and elephants cannot mate.
    let j = play("2b2a3/3k5/9/9/9/9/9/9/4n4/2BA1K3 w - - 0 1", "d0e1");
    assert_verdict(&j, GameResult::Draw, Reason::DeadPosition, "advisors and elephants");
}

#[test]
fn dead_position_at_the_start() {
    let j = judge(&position("3k5/4a4/9/9/9/9/9/4B4/9/4KA3 w - - 0 1"), &[]);
    assert_verdict(&j, GameResult::Draw, Reason::DeadPosition, "");
}

#[test]
fn a_single_pawn_is_not_a_dead_position() {
    // The red king takes the black horse, but Red keeps a pawn: play goes on.
    let j = play("5k3/9/9/9/4P4/9/9/9/3n5/3K5 w - - 0 1", "d0d1");
    assert_eq!(j, Judgement::ongoing());
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 24-26: repetition — checks

/// Red's rook checks from g9 and g8 in turn; Black's king shuttles f9-f8.
const PERPETUAL_CHECK: (&str, &str) = ("5k3/6R2/9/9/9/9/9/9/9/3K5 w - - 0 1", "g8g9 f9f8 g9g8 f8f9");

#[test]
fn repetition_is_judged_only_at_the_third_occurrence() {
    let (fen, cycle) = PERPETUAL_CHECK;
    assert_eq!(play(fen, cycle), Judgement::ongoing());
    assert_eq!(play(fen, &format!("{cycle} g8g9 f9f8 g9g8")), Judgement::ongoing());
}

/// Red's rook swings i2-i0-i2: from i0 it threatens R-f0 mate along the f-file (the red king holds the
/// e-file), from i2 it threatens to take the blocking rook on f2 with mate. Black's rook parries b2-f2-b2.
const PERPETUAL_THREAT: (&str, &str) = ("1P7/9/5k3/9/9/9/9/1r6R/2C6/4K4 w - - 0 1", "i2i0 b2f2 i0i2 f2b2");

#[test]
fn threatening_to_leave_the_opponent_without_a_move_is_a_mate_threat() {
    // Stalemate loses (art. 3.2), so threatening it is 杀 (art. 28.2). The horse b2-c4 attacks Black's
    // only free piece, the pawn on a5: next would come c9-d9+ K-e8 and N×a5, after which the king has
    // no move (e9 and d8 covered by the pawn and the kings' file, f8 by the rook, e7 by the pawn).
    let fen = "2P1k4/9/9/4P4/p8/9/9/1N7/4A4/3K1R3 w - - 0 1";
    assert_eq!(kind_of(fen, "b2c4"), MoveKind::MateThreat);
    // On a4 the horse blocks nothing (the pawn may take it) and threatens nothing: idle.
    assert_eq!(kind_of(fen, "b2a4"), MoveKind::Idle);
}

cycle_tests! {
    perpetual_check_by_one_side_loses: PERPETUAL_CHECK.0, PERPETUAL_CHECK.1 => BlackWins by PerpetualCheck;

    // Each horse move parries a cannon check by changing the screens and gives one: red cannon f0 on the
    // f-file, black cannon i2 on rank 2, the horses crossing at f2.
    mutual_perpetual_check_is_a_draw: "5k3/9/9/9/9/6n2/9/3KN3c/9/5C3 w - - 0 1", "e2f4 g4f2 f4e2 f2g4"
        => Draw by RepetitionDraw;

    // Rook g0-f0 checks, f0-g0 is idle; the king shuttles: both sides allowed, draw.
    check_alternating_with_an_idle_move_is_allowed: "5k3/9/9/9/9/9/9/9/9/3K2R2 w - - 0 1",
        "g0f0 f9e9 f0g0 e9f9" => Draw by RepetitionDraw;

    // Rook g4-g9 checks, g9-g4 attacks the unprotected horse on c4 anew: forbidden against idle king moves.
    one_check_one_chase_is_forbidden: "5k3/9/9/9/9/2n3R2/9/9/9/3K5 w - - 0 1", "g4g9 f9f8 g9g4 f8f9"
        => BlackWins by ForbiddenRepetition;

    perpetual_mate_threat_is_forbidden: PERPETUAL_THREAT.0, PERPETUAL_THREAT.1, first move MateThreat
        => BlackWins by ForbiddenRepetition;

    // Engine reading: Red has a mate by checks in hand all along; shuffling the king instead of giving it
    // keeps the threat but does not make it, so the king moves are idle and the cycle is a draw.
    keeping_a_mate_in_hand_is_not_a_new_threat: "5r2C/5P3/3k5/9/9/7R1/9/9/4K4/9 w - - 0 1",
        "e1e0 f9a9 e0e1 a9f9", first move Idle => Draw by RepetitionDraw;
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 24-29: repetition — chases

/// A red horse chases an unprotected black rook that runs e4-f4; the horse follows c3-d5.
const HORSE_CHASES_ROOK: &str = "5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1";

#[test]
fn a_chased_piece_that_moves_is_still_one_chase() {
    // The rook stands on f4 and e4 in turn; followed through the cycle it is one target, named by the
    // point it stood on when the cycle began.
    let j = repeat(HORSE_CHASES_ROOK, "c3d5 f4e4 d5c3 e4f4");
    assert_eq!(j.reason, Reason::PerpetualChase);
    assert!(j.detail.contains("from f4"), "{}", j.detail);
}

cycle_tests! {
    perpetual_chase_of_an_unprotected_rook_by_a_horse_loses: HORSE_CHASES_ROOK, "c3d5 f4e4 d5c3 e4f4"
        => BlackWins by PerpetualChase;

    // The black rook on i4 protects e4 and f4: the horse still chases, a rook is worth more than a horse.
    // (The red advisors keep the two black rooks from threatening mate.)
    chase_of_a_protected_rook_by_a_horse_is_a_chase: "5k3/9/9/9/9/5r2r/2N6/3A5/4A4/3K5 w - - 0 1",
        "c3d5 f4e4 d5c3 e4f4", first move Chase => BlackWins by PerpetualChase;

    // The brief's "chase of a protected horse by a rook" runs against art. 29.3: capturing the protected
    // horse loses the rook, so attacking it is following (跟), idle. The horse runs c4-e3, protected by
    // the pawn on b4 and the rook on h3; the red rook follows c1-e1: both sides allowed.
    rook_attacking_a_protected_horse_is_not_a_chase: "5k3/9/9/9/9/1pn6/7r1/9/4R4/3K5 w - - 0 1",
        "e1c1 c4e3 c1e1 e3c4", first move Idle => Draw by RepetitionDraw;

    // The red rook attacks the black rooks on d7 and f7 in turn, each protected by the advisor on e8,
    // while itself protected by the advisor on e1: exchange offers (兑), idle.
    offering_an_equal_exchange_is_not_a_chase: "5k3/4a4/3r1r3/9/9/9/9/3R5/4A4/4K4 w - - 0 1",
        "d2f2 f9f8 f2d2 f8f9", first move Idle => Draw by RepetitionDraw;

    // The red king steps e0-e1 to attack the unprotected cannon, which steps f1-f0 and back.
    king_attacking_a_piece_by_itself_is_idle: "5k3/9/9/9/9/9/9/9/5c3/4K4 w - - 0 1",
        "e0e1 f1f0 e1e0 f0f1", first move Idle => Draw by RepetitionDraw;

    // The red pawn steps e6-d6 and back, attacking the unprotected rook each time: idle (art. 27.2).
    pawn_attacking_a_piece_by_itself_is_idle: "3k5/9/3r5/4P4/9/9/9/9/9/5K3 w - - 0 1",
        "e6d6 d7e7 d6e6 e7d7", first move Idle => Draw by RepetitionDraw;

    // As above, but every rook move now chases a red horse (d2, e2) anew: mutual perpetual attack, so
    // the pawn's attacks count as chases and both sides are forbidden: draw, not a loss for Black.
    pawn_attacks_count_when_both_sides_attack_on_every_move: "3k5/9/3r5/4P4/9/9/9/3NN4/9/5K3 w - - 0 1",
        "e6d6 d7e7 d6e6 e7d7" => Draw by RepetitionDraw;

    // The red rook attacks the uncrossed pawns a6 and c6 in turn: no material value, idle.
    chase_of_an_uncrossed_pawn_is_idle: "5k3/9/9/p1p6/9/R8/9/9/9/3K5 w - - 0 1",
        "a4c4 f9f8 c4a4 f8f9", first move Idle => Draw by RepetitionDraw;

    // The same with crossed pawns (a4, c4), which are material: every red move chases, but not the same
    // piece, so the loss is a forbidden repetition rather than a perpetual chase of one piece.
    chasing_different_crossed_pawns_in_turn_is_forbidden: "5k3/9/9/9/9/p1p6/9/9/R8/3K5 w - - 0 1",
        "a1c1 f9f8 c1a1 f8f9", first move Chase => BlackWins by ForbiddenRepetition;

    // Red's rook chases the crossed black pawns a4/c4, Black's rook the crossed red pawns g5/i5.
    both_sides_chasing_is_a_draw: "5k3/6r2/9/9/6P1P/p1p6/9/9/R8/3K5 w - - 0 1", "a1c1 g8i8 c1a1 i8g8"
        => Draw by RepetitionDraw;

    // Art. 26.1/26.3: the red horse e2-f4-e2 uncovers the cannon f0 on every move (check), while the black
    // rook blocks on f6 chasing the horse and unblocks to g6 chasing the pawn on g7 (chase, chase): both
    // forbidden, but a one-sided perpetual check is never allowed.
    perpetual_check_loses_even_against_a_forbidden_opponent: "5k3/9/6P2/6r2/9/9/9/4N4/9/3K1C3 w - - 0 1",
        "e2f4 g6f6 f4e2 f6g6" => BlackWins by PerpetualCheck;
}

move_kind_tests! {
    attacking_an_unprotected_rook_that_attacks_back_is_a_chase {
        // The open question of docs/rules.md ("Facing pieces of one kind"): the red rook a2-c2 attacks the
        // unprotected black rook on c7, which could take the unprotected red rook first. Black cannot trade
        // (nothing recaptures), so this is no 兑 (art. 28.5); it is a chase that is also an offer (细则 D5).
        "4k4/9/2r6/9/9/9/9/R8/4A4/4K4 w - - 0 1", "a2c2" => Chase;
        // The red rook protected (horse b0), the black one not: still a chase.
        "4k4/9/2r6/9/9/9/9/R8/4A4/1N2K4 w - - 0 1", "a2c2" => Chase;
    }

    facing_rooks_that_can_only_trade_are_an_exchange_offer {
        // The other reading's cases. Both rooks protected (horses b0 and b9): whoever takes is retaken, an
        // equal trade, 兑, idle (art. 28.5).
        "1n2k4/9/2r6/9/9/9/9/R8/4A4/1N2K4 w - - 0 1", "a2c2" => Idle;
        // Only the black rook protected: Red offers its rook for nothing it could win, 献, idle (art. 28.6).
        "1n2k4/9/2r6/9/9/9/9/R8/4A4/4K4 w - - 0 1", "a2c2" => Idle;
    }

    king_attacking_together_with_another_piece_is_a_chase {
        // Art. 27.1: the red king alone attacks the horse on f1 (idle); the rook joining from a5 to f5 makes
        // it a chase: the king's attack does not count as one that "already existed".
        "3k5/4a4/9/9/R8/9/9/9/4Kn3/9 w - - 0 1", "a5f5" => Chase;
    }
}

// ---------------------------------------------------------------------------------------------------
// docs/rules.md, art. 28.16 and 29: what a chase is (single moves)

move_kind_tests! {
    false_protection_by_a_pinned_piece_is_no_protection {
        // The elephant on e7 "protects" the horse on c5 but is the only piece between the kings: it may not
        // recapture, so the rook attacking the horse chases (假根).
        "4k4/9/4b4/9/2n6/9/9/R8/9/4K4 w - - 0 1", "a2c2" => Chase;
        // With an advisor on e8 the elephant is free to recapture: rook for horse would lose, idle.
        "4k4/4a4/4b4/9/2n6/9/9/R8/9/4K4 w - - 0 1", "a2c2" => Idle;
    }

    insufficient_protection_counts_as_unprotected {
        // The horse on d6 is protected once (rook d9) and attacked by the rook a6; the red horse joining
        // from c3 to e4 makes two attackers against one defender: the exchange wins material (少根).
        "3r1k3/9/9/R2n5/9/9/2N6/9/9/4K4 w - - 0 1", "c3e4" => Chase;
    }
}

/// Art. 28.16 少根 and 假根 in turn: the black horse on c6 is attacked by the rook on a6 and protected
/// only by the horse on e7. With the red cannon on e2 (behind the pawn on e4) that protector is pinned
/// to its king and the rook wins the horse (假根); with the cannon on c2 (over the pawn on c3) the horse
/// is attacked twice and protected once, and the cannon, taking first, wins it (少根).
const PINNED_AND_OUTNUMBERED: &str = "4k4/9/4n4/R1n6/9/4P4/2P6/4C4/9/5K3 w - - 0 1";

cycle_tests! {
    // Every cannon move gives the horse a new capturer (the rook, then the cannon): a chase each time,
    // while Black only shuffles its king: Red loses by perpetual chase.
    a_cannon_keeping_a_horse_under_false_and_insufficient_protection_chases_perpetually:
        PINNED_AND_OUTNUMBERED, "e2c2 e9e8 c2e2 e8e9" => BlackWins by PerpetualChase;

    // From c2 and c1 the cannon attacks the outnumbered horse the same way: from chase to chase (细则
    // D2), idle on both moves, and the cycle is drawn.
    a_cannon_shuttling_with_the_same_attack_on_the_horse_does_not_chase:
        PINNED_AND_OUTNUMBERED.replace("4C4/9", "2C6/9"), "c2c1 e9e8 c1c2 e8e9", first move Idle
        => Draw by RepetitionDraw;
}

/// The class of `mv` in `fen` and the points of the pieces it chases.
fn chases(fen: &str, mv: &str) -> (MoveKind, Vec<Square>) {
    let class = classify_move(fen, mv);
    (class.kind, class.chased.into_iter().collect())
}

#[test]
fn a_chase_through_a_check_counts_the_piece_given_up() {
    // Rook a2-d2 attacks the horse on d9, which only the black king protects; the elephant on e7 shuts
    // the e-file (and the pawn on i6 keeps Black from being stalemated, which would be a mate threat). To win the horse Red must first drive the king away with a check.
    // With a rook on f8 every check (f8-e8, f8-f9) lets the king take the rook: rook for horse is a
    // loss over the whole line (art. 29.1), so a2-d2 threatens nothing.
    let rook = "3nk4/5R3/4b4/8p/9/9/9/R8/9/4K4 w - - 0 1";
    assert_eq!(classify_move(rook, "a2d2").kind, MoveKind::Idle);
    // With a pawn there, the king takes a pawn and the horse falls: ahead, so a2-d2 chases the horse.
    let pawn = "3nk4/5P3/4b4/8p/9/9/9/R8/9/4K4 w - - 0 1";
    assert_eq!(chases(pawn, "a2d2"), (MoveKind::Chase, vec![sq("d9")]));
}

#[test]
fn a_new_direct_attack_is_a_new_chase_even_if_checks_could_win_the_piece() {
    // Art. 29.2: the horse on d9 could already be won through the pawn check (previous test), but the
    // cannon c0-d0, behind the rook, now attacks it directly: the rook holds the king off d9, so the
    // cannon takes it for nothing. A new form of attack by a new capturer: a chase.
    let fen = "3nk4/5P3/4b4/8p/9/9/9/3R5/9/2C1K4 w - - 0 1";
    assert_eq!(chases(fen, "c0d0"), (MoveKind::Chase, vec![sq("d9")]));
}

#[test]
fn cutting_a_protection_by_blocking_it_is_a_chase() {
    // The red rook on a6 already attacks the horse on c6, which the black rook on c9 protects. The
    // cannon a7-c7 blocks the c-file: the horse is left unprotected against the rook, a chase by Red
    // (a new capturer, art. 29.2) even though neither the cannon nor a line it opens attacks the horse.
    let fen = "2r2k3/9/C8/R1n6/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(chases(fen, "a7c7"), (MoveKind::Chase, vec![sq("c6")]));
    // The cannon to b7 blocks nothing: the horse stays protected, idle.
    assert_eq!(kind_of(fen, "a7b7"), MoveKind::Idle);
}

#[test]
fn taking_away_the_screen_of_a_cannons_protection_is_a_chase() {
    // The black cannon on c9 protects the horse on c6 over the red pawn on c7, its screen. The pawn
    // stepping aside to d7 takes the screen away: the rook on a6 now wins the horse, a chase by Red.
    let fen = "2c2k3/9/2P6/R1n6/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(chases(fen, "c7d7"), (MoveKind::Chase, vec![sq("c6")]));
    // Stepping forward to c8 it is still the screen (and its attack on the cannon is a pawn's, idle).
    let class = classify_move(fen, "c7c8");
    assert_eq!((class.kind, class.chased), (MoveKind::Idle, engine::bitboard::Bitboard::EMPTY));
}

move_kind_tests! {
    a_capture_answered_by_mate_at_once_is_no_chase {
        // Rook g5-c5 attacks the unprotected horse on c7, but taking it unblocks rank 5 and the black rook
        // a5-d5 mates (the black king holds the e-file): idle (art. 29.4).
        "4k4/9/2n6/9/r5R2/9/9/9/9/3K5 w - - 0 1", "g5c5" => Idle;
        // With an advisor on e1 the red king can step to e0: no mate, and the same move chases the horse.
        "4k4/9/2n6/9/r5R2/9/9/9/4A4/3K5 w - - 0 1", "g5c5" => Chase;
    }

    a_chase_through_a_check_is_a_chase {
        // Rook a2-h2 threatens h2-h9 check, and after the king steps to f8 the rook takes the horse on b9.
        "1n3k3/9/9/9/9/9/9/R8/9/3K5 w - - 0 1", "a2h2" => Chase;
    }

    the_same_attack_carried_on_is_idle {
        // 细则 D2: the cannon already wins the horse from d0; stepping to d1 it keeps the same target with
        // the same attack (from chase to chase): idle.
        "3nk4/5P3/4b4/8p/9/9/9/3R5/9/3CK4 w - - 0 1", "d0d1" => Idle;
    }

    a_chase_through_two_checks_is_a_chase {
        // Rook a2-h2 threatens h9+ Kf8, h8+ K moves, and then the horse on b8 falls: a chase "through a
        // series of checks" (art. 28.3, 29.1). Approximation: the series is searched to CHASE_CHECKS (3)
        // checks; `chase::tests::approximation_the_checks_before_a_capture_are_bounded` shows a line one
        // check longer than the bound being missed.
        "5k3/1n7/9/9/9/9/9/R8/9/3K5 w - - 0 1", "a2h2" => Chase;
    }

    a_defensive_post_that_makes_a_simple_draw_excuses_an_attack_on_an_elephant {
        // Art. 27.3: rook against rook. The red rook a3-c3 stays on its own side of the river and attacks
        // the unprotected elephant on c5 only incidentally: idle.
        "4k3r/9/9/9/2b6/9/R8/9/4A4/4KA3 w - - 0 1", "a3c3" => Idle;
    }

    a_defensive_post_excuses_nothing_outside_a_simple_draw {
        // With a horse more Red is not drawing: the same move chases the elephant.
        "4k3r/9/9/9/2b6/9/R8/9/4A4/4KA1N1 w - - 0 1", "a3c3" => Chase;
        // Rook against rook again, but the rook crosses the river to c6: an attacking post, a chase.
        "4k3r/9/9/R8/2b6/9/9/9/4A4/4KA3 w - - 0 1", "a6c6" => Chase;
        // And on a defensive post an attack on a piece other than an advisor or elephant still chases.
        "4k3r/9/9/9/2n6/9/R8/9/4A4/4KA3 w - - 0 1", "a3c3" => Chase;
    }

    an_attack_that_existed_before_the_move_is_not_a_chase {
        // The horse on c3 already attacks the rook on e4; a king move leaves the attack as it was.
        "5k3/9/9/9/9/4r4/2N6/9/9/3K5 w - - 0 1", "d0d1" => Idle;
    }
}

#[test]
fn a_move_is_judged_by_its_heaviest_effect() {
    // Rook a1-a9 checks (mates, in fact) and nothing else matters: check.
    assert_eq!(kind_of("3k5/2P6/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a1a9"), MoveKind::Check);
    // In the 七星聚会 line, 车六进五 (d2-d7) attacks the elephant and threatens mate: mate threat.
    let p = qixing_after(30);
    let m = p.parse_move("d2d7").expect("legal");
    assert_eq!(classify(&mut p.clone(), m).kind, MoveKind::MateThreat);
}

// ---------------------------------------------------------------------------------------------------
// Seed 004: 七星聚会

/// The 七星聚会 diagram (竹香斋 setting, edge pawn on 一·五), reconstructed from the seed's main line:
/// every move of the line is legal here and each check the line implies is a check.
const QIXING: &str = "4rk3/9/3PbP3/9/9/8P/9/1p2p2C1/3p1p3/4K1RR1 w - - 0 1";

const QIXING_LINE: &str = "炮二平四 卒５平６ 兵四进一 将６进１ 车三进八 将６退１ 车二进一 前卒平５ 车二平五 卒４平５ \
     帅五进一 卒６进１ 帅五进一 车５平３ 兵六平七 车３平１ 车三退一 将６进１ 车三进一 将６退１ 车三退二 车１进７ \
     车三平四 将６平５ 车四退五 卒２平３ 车四平六 卒３进１ 车六进一 车１退２ 车六进五 车１平５ 帅五平六 车５进４ \
     车六进二 将５进１ 车六平二 车５平１ 帅六平五 卒３平４ 车二平六 车１平９ 车六平四 车９退２ 车四退七 车９退２ \
     车四进七 车９平５ 帅五平六 车５平４ 帅六平五 车４进１";

fn qixing_after(plies: usize) -> Position {
    let mut p = position(QIXING);
    for t in QIXING_LINE.split_whitespace().take(plies) {
        let m = engine::notation::from_chinese(&p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        p.make_move(m);
    }
    p
}

#[test]
fn qixing_main_line_is_legal_and_goes_on() {
    let moves: Vec<&str> = QIXING_LINE.split_whitespace().collect();
    assert_eq!(moves.len(), 52);
    assert_eq!(judge(&position(QIXING), &moves), Judgement::ongoing());
}

#[test]
fn qixing_one_check_one_mate_threat_must_vary() {
    // Seed 004: after 9. 车三退一 将6进1 10. 车三进一 将6退1, repeating 车三退一 is "one check one mate
    // threat, must vary" (一将一杀，不变作负): Red loses if it keeps repeating.
    let mut moves: Vec<&str> = QIXING_LINE.split_whitespace().take(16).collect();
    for _ in 0..2 {
        moves.extend(["车三退一", "将６进１", "车三进一", "将６退１"]);
    }
    let j = judge(&position(QIXING), &moves);
    assert_verdict(&j, GameResult::BlackWins, Reason::ForbiddenRepetition, "g8g7 mate-threat");
    assert!(j.detail.contains("g7g8 check"), "{}", j.detail);
}

// ---------------------------------------------------------------------------------------------------
// The search's cycle_outcome

/// Plays `cycle` once from `fen` and asks the search's question at the repeated position.
fn search_verdict(fen: &str, cycle: &str) -> CycleOutcome {
    let mut p = position(fen);
    for m in split(cycle) {
        p.try_play(m).unwrap_or_else(|e| panic!("{e}"));
    }
    cycle_outcome(&p, split(cycle).len())
}

#[test]
fn search_sees_perpetual_check_exactly() {
    let (fen, cycle) = PERPETUAL_CHECK;
    // Red to move at the repetition, and Red has been checking: Red loses.
    assert_eq!(search_verdict(fen, cycle), CycleOutcome::SideToMoveLoses);
    // One ply later the repetition is seen with Black to move: Black wins.
    let mut p = position(fen);
    for m in split("g8g9 f9f8 g9g8 f8f9 g8g9") {
        p.try_play(m).expect("legal");
    }
    assert_eq!(cycle_outcome(&p, 4), CycleOutcome::SideToMoveWins);
}

#[test]
fn search_scores_mutual_check_and_check_with_idle_as_draws() {
    assert_eq!(
        search_verdict("5k3/9/9/9/9/6n2/9/3KN3c/9/5C3 w - - 0 1", "e2f4 g4f2 f4e2 f2g4"),
        CycleOutcome::Draw
    );
    assert_eq!(
        search_verdict("5k3/9/9/9/9/9/9/9/9/3K2R2 w - - 0 1", "g0f0 f9e9 f0g0 e9f9"),
        CycleOutcome::Draw
    );
}

#[test]
fn search_sees_a_perpetual_chase_of_one_piece() {
    assert_eq!(search_verdict(HORSE_CHASES_ROOK, "c3d5 f4e4 d5c3 e4f4"), CycleOutcome::SideToMoveLoses);
    // Approximation (search only): chasing different pieces in turn is scored as a draw.
    assert_eq!(
        search_verdict("5k3/9/9/9/9/p1p6/9/9/R8/3K5 w - - 0 1", "a1c1 f9f8 c1a1 f8f9"),
        CycleOutcome::Draw
    );
    // Following a protected horse is idle for the search too.
    assert_eq!(
        search_verdict("5k3/9/9/9/9/1pn6/7r1/9/4R4/3K5 w - - 0 1", "e1c1 c4e3 c1e1 e3c4"),
        CycleOutcome::Draw
    );
}

#[test]
fn search_does_not_see_mate_threats() {
    // Approximation (search only): the perpetual mate threat that the referee calls a loss for Red is a
    // draw for the search, which detects checks and chases only.
    let (fen, cycle) = PERPETUAL_THREAT;
    assert_eq!(search_verdict(fen, cycle), CycleOutcome::Draw);
}

/// Plays `cycle` once from `fen`; returns the search's score of the repetition at `ply` (the referee's
/// verdict near the root, the cheap one deeper).
fn search_score_at(fen: &str, cycle: &str, ply: usize) -> Option<i32> {
    let mut p = position(fen);
    for m in split(cycle) {
        p.try_play(m).unwrap_or_else(|e| panic!("{e}"));
    }
    engine::search::repetition::cycle_score(&mut p, ply, &mut Default::default())
}

#[test]
fn search_near_the_root_asks_the_referee() {
    use engine::search::repetition::REFEREE_PLIES;
    let near = REFEREE_PLIES;
    let deep = REFEREE_PLIES + 1;
    // The perpetual mate threat: Red (to move at the repetition) loses by the referee; the cheap verdict,
    // which sees no mate threats, says draw.
    let (fen, cycle) = PERPETUAL_THREAT;
    let mut p = position(fen);
    for m in split(cycle) {
        p.try_play(m).expect("legal");
    }
    let before = p.clone();
    assert_eq!(engine::rules::cycle::referee_cycle_outcome(&mut p, 4), CycleOutcome::SideToMoveLoses);
    assert_eq!((p.key(), p.history().len()), (before.key(), before.history().len()), "left as it was");
    assert_eq!(search_score_at(fen, cycle, near), Some(-MATE_SCORE + near as i32));
    assert_eq!(search_score_at(fen, cycle, deep), Some(0));
    // A chase under false and insufficient protection (pinned defender, two attackers against one): the
    // static count sees a defended horse and no chase; the referee sees Red chasing on every move.
    let cycle = "e2c2 e9e8 c2e2 e8e9";
    assert_eq!(search_verdict(PINNED_AND_OUTNUMBERED, cycle), CycleOutcome::Draw);
    assert_eq!(search_score_at(PINNED_AND_OUTNUMBERED, cycle, near), Some(-MATE_SCORE + near as i32));
    assert_eq!(search_score_at(PINNED_AND_OUTNUMBERED, cycle, deep), Some(0));
    // Perpetual check and idle cycles get the same verdict both ways.
    let (fen, cycle) = PERPETUAL_CHECK;
    assert_eq!(search_score_at(fen, cycle, near), Some(-MATE_SCORE + near as i32));
    assert_eq!(search_score_at(fen, cycle, deep), Some(-MATE_SCORE + deep as i32));
    let start = engine::position::START_FEN;
    assert_eq!(search_score_at(start, "b0c2 b9c7 c2b0 c7b9", near), Some(0));
}

#[test]
fn search_treats_odd_or_impossible_cycles_as_draws() {
    let (fen, cycle) = PERPETUAL_CHECK;
    let mut p = position(fen);
    for m in split(cycle) {
        p.try_play(m).expect("legal");
    }
    assert_eq!(cycle_outcome(&p, 3), CycleOutcome::Draw);
    assert_eq!(cycle_outcome(&p, 40), CycleOutcome::Draw);
    assert_eq!(cycle_outcome(&p, 0), CycleOutcome::Draw);
}

#[test]
fn square_names_used_here_are_valid() {
    for s in ["a0", "i9", "e4"] {
        assert!(s.parse::<Square>().is_ok());
    }
}
