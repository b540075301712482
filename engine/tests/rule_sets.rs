//! The three rule sets (docs/rules.md, "Rule sets"): each case family where they differ, judged by the
//! referee under each set, with colours swapped too; and the search's repetition scores under each set.

mod support;

use support::{flip, position, swapped};

use engine::position::Position;
use engine::rules::{GameResult, GameRules, Judgement, Reason, Referee, RuleSet};

/// Plays `cycle` twice from `fen` under `set` and returns the judgement at the third occurrence.
fn repeat(fen: &str, cycle: &str, set: RuleSet) -> Judgement {
    let mut referee = Referee::with_rules(position(fen), GameRules::with_set(set));
    let twice = format!("{cycle} {cycle}");
    let moves: Vec<&str> = twice.split_whitespace().collect();
    for (i, m) in moves.iter().enumerate() {
        assert!(
            !referee.judgement().is_over(),
            "{set}: over before move {i} ({m}): {:?}",
            referee.judgement()
        );
        referee.play_str(m);
    }
    referee.judgement()
}

/// Asserts the verdict under each set `[chinese, asian, computer]`, and the same with colours swapped.
fn assert_verdicts(fen: &str, cycle: &str, expected: [(GameResult, Reason); 3]) {
    for (set, (result, reason)) in RuleSet::ALL.into_iter().zip(expected) {
        let j = repeat(fen, cycle, set);
        assert_eq!((j.result, j.reason), (result, reason), "{set}: {}", j.detail);
        let (ffen, fcycle) = flip(fen, cycle);
        let j = repeat(&ffen, &fcycle, set);
        assert_eq!((j.result, j.reason), (swapped(result), reason), "{set} flipped: {}", j.detail);
    }
}

const DRAW: (GameResult, Reason) = (GameResult::Draw, Reason::RepetitionDraw);

// ----- the families (docs/rules.md, "Where the rule sets differ") -----

#[test]
fn perpetual_check_loses_under_every_set() {
    let lost = (GameResult::BlackWins, Reason::PerpetualCheck);
    assert_verdicts("5k3/6R2/9/9/9/9/9/9/9/3K5 w - - 0 1", "g8g9 f9f8 g9g8 f8f9", [lost; 3]);
}

#[test]
fn mutual_perpetual_check_is_a_draw_under_every_set() {
    assert_verdicts("5k3/9/9/9/9/6n2/9/3KN3c/9/5C3 w - - 0 1", "e2f4 g4f2 f4e2 f2g4", [DRAW; 3]);
}

#[test]
fn perpetual_chase_of_one_piece_loses_except_under_computer_rules() {
    let lost = (GameResult::BlackWins, Reason::PerpetualChase);
    assert_verdicts("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", "c3d5 f4e4 d5c3 e4f4", [lost, lost, DRAW]);
}

#[test]
fn one_check_one_chase_loses_only_under_the_chinese_rules() {
    // Rook g4-g9 checks, g9-g4 attacks the unprotected horse on c4 anew (AXF: one check one chase, draw).
    let lost = (GameResult::BlackWins, Reason::ForbiddenRepetition);
    assert_verdicts("5k3/9/9/9/9/2n3R2/9/9/9/3K5 w - - 0 1", "g4g9 f9f8 g9g4 f8f9", [lost, DRAW, DRAW]);
}

#[test]
fn perpetual_mate_threat_loses_only_under_the_chinese_rules() {
    // Red's rook swings i2-i0-i2 threatening mate; Black's rook parries b2-f2-b2 (AXF: a mate threat is
    // not an attack, so Red's i2-i0 is idle).
    let lost = (GameResult::BlackWins, Reason::ForbiddenRepetition);
    assert_verdicts("1P7/9/5k3/9/9/9/9/1r6R/2C6/4K4 w - - 0 1", "i2i0 b2f2 i0i2 f2b2", [lost, DRAW, DRAW]);
}

#[test]
fn chasing_two_pieces_in_turn_loses_only_under_the_chinese_rules() {
    // The red rook swings e4-e6-e4, attacking the unprotected horse on a6, then the one on a4, anew each
    // time; Black's king shuttles (AXF: one piece chasing two in turn is a draw).
    let lost = (GameResult::BlackWins, Reason::ForbiddenRepetition);
    assert_verdicts("3k5/9/9/n8/9/n3R4/9/9/9/4K4 w - - 0 1", "e4e6 d9d8 e6e4 d8d9", [lost, DRAW, DRAW]);
}

// ----- the move limit -----

#[test]
fn an_event_move_limit_draws_at_its_own_count_and_zero_never() {
    let rules = |plies| GameRules { move_limit_plies: plies, ..GameRules::default() };
    let after_two = |counter: u32, plies: u32| {
        let fen = format!("3k5/9/9/9/9/9/9/9/r8/4K3R w - - {counter} 10");
        let mut referee = Referee::with_rules(position(&fen), rules(plies));
        assert!(!referee.play_str("i0h0").is_over());
        referee.play_str("a1b1")
    };
    // 18 quiet plies from the FEN and two more: a 10-move limit draws, the default 60 and "none" play on.
    let j = after_two(18, 20);
    assert_eq!((j.result, j.reason), (GameResult::Draw, Reason::MoveLimit), "{}", j.detail);
    assert_eq!(after_two(18, 120), Judgement::ongoing());
    assert_eq!(after_two(118, 0), Judgement::ongoing());
    assert_eq!(after_two(118, 120).reason, Reason::MoveLimit);
}

// ----- the search -----

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = position(fen);
    for m in moves.split_whitespace() {
        pos.try_play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    pos
}

fn score(pos: &Position, ply: usize, set: RuleSet) -> Option<i32> {
    let mut p = pos.clone();
    engine::search::repetition::cycle_score_under(&mut p, ply, &mut Default::default(), set)
}

#[test]
fn the_search_scores_a_cycle_by_the_rule_set_in_force() {
    let mate = engine::search::MATE;
    // The horse's perpetual chase, Red (the chaser) to move: lost for Red under the Chinese and Asian
    // rules, near the root (the referee) and deeper (the static approximation); a draw for computers.
    let pos = play("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", "c3d5 f4e4 d5c3 e4f4");
    for ply in [2, 9] {
        assert_eq!(score(&pos, ply, RuleSet::Chinese), Some(-mate + ply as i32));
        assert_eq!(score(&pos, ply, RuleSet::Asian), Some(-mate + ply as i32));
        assert_eq!(score(&pos, ply, RuleSet::Computer), Some(0));
    }
    // One check one chase: lost for the checker under the Chinese rules near the root, drawn otherwise.
    let pos = play("5k3/9/9/9/9/2n3R2/9/9/9/3K5 w - - 0 1", "g4g9 f9f8 g9g4 f8f9");
    assert_eq!(score(&pos, 2, RuleSet::Chinese), Some(-mate + 2));
    assert_eq!(score(&pos, 2, RuleSet::Asian), Some(0));
    assert_eq!(score(&pos, 9, RuleSet::Asian), Some(0));
    assert_eq!(score(&pos, 2, RuleSet::Computer), Some(0));
    // Perpetual check loses under every set.
    let pos = play("5k3/6R2/9/9/9/9/9/9/9/3K5 w - - 0 1", "g8g9 f9f8 g9g8 f8f9");
    for set in RuleSet::ALL {
        assert_eq!(score(&pos, 4, set), Some(-mate + 4), "{set}");
    }
}

// ----- against Fairy-Stockfish -----

/// Repetition cases of docs/rules.md (the families above and the Chinese cases of tests/judge.rs), for
/// the comparison with pyffish.
const DIFFERENTIAL: &[(&str, &str)] = &[
    ("5k3/9/9/9/9/6n2/9/3KN3c/9/5C3 w - - 0 1", "e2f4 g4f2 f4e2 f2g4"),
    ("5k3/9/9/9/9/9/9/9/9/3K2R2 w - - 0 1", "g0f0 f9e9 f0g0 e9f9"),
    ("5k3/9/9/9/9/2n3R2/9/9/9/3K5 w - - 0 1", "g4g9 f9f8 g9g4 f8f9"),
    ("3k5/9/3r5/4P4/9/9/9/3NN4/9/5K3 w - - 0 1", "e6d6 d7e7 d6e6 e7d7"),
    ("5k3/6r2/9/9/6P1P/p1p6/9/9/R8/3K5 w - - 0 1", "a1c1 g8i8 c1a1 i8g8"),
    ("5k3/9/6P2/6r2/9/9/9/4N4/9/3K1C3 w - - 0 1", "e2f4 g6f6 f4e2 f6g6"),
    ("5k3/6R2/9/9/9/9/9/9/9/3K5 w - - 0 1", "g8g9 f9f8 g9g8 f8f9"),
    ("1P7/9/5k3/9/9/9/9/1r6R/2C6/4K4 w - - 0 1", "i2i0 b2f2 i0i2 f2b2"),
    ("5r2C/5P3/3k5/9/9/7R1/9/9/4K4/9 w - - 0 1", "e1e0 f9a9 e0e1 a9f9"),
    ("5k3/9/9/9/9/5r2r/2N6/3A5/4A4/3K5 w - - 0 1", "c3d5 f4e4 d5c3 e4f4"),
    ("5k3/9/9/9/9/1pn6/7r1/9/4R4/3K5 w - - 0 1", "e1c1 c4e3 c1e1 e3c4"),
    ("5k3/4a4/3r1r3/9/9/9/9/3R5/4A4/4K4 w - - 0 1", "d2f2 f9f8 f2d2 f8f9"),
    ("5k3/9/9/9/9/9/9/9/5c3/4K4 w - - 0 1", "e0e1 f1f0 e1e0 f0f1"),
    ("3k5/9/3r5/4P4/9/9/9/9/9/5K3 w - - 0 1", "e6d6 d7e7 d6e6 e7d7"),
    ("5k3/9/9/p1p6/9/R8/9/9/9/3K5 w - - 0 1", "a4c4 f9f8 c4a4 f8f9"),
    ("5k3/9/9/9/9/p1p6/9/9/R8/3K5 w - - 0 1", "a1c1 f9f8 c1a1 f8f9"),
    ("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", "c3d5 f4e4 d5c3 e4f4"),
    ("3k5/9/9/n8/9/n3R4/9/9/9/4K4 w - - 0 1", "e4e6 d9d8 e6e4 d8d9"),
];

/// The Asian verdicts of chuhan's referee against Fairy-Stockfish's (pyffish, `scripts/rules_diff.py`), on
/// every case: skipped, with a message, where python3 or pyffish is missing.
#[test]
fn asian_verdicts_agree_with_pyffish() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/rules_diff.py");
    let child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("asian_verdicts_agree_with_pyffish: skipped (no python3)");
        return;
    };
    let input: String = DIFFERENTIAL.iter().map(|(f, c)| format!("{f}|{c}\n")).collect();
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("python3 ran");
    if out.status.code() == Some(3) {
        eprintln!(
            "asian_verdicts_agree_with_pyffish: skipped ({})",
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return;
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let theirs: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(String::from).collect();
    assert_eq!(theirs.len(), DIFFERENTIAL.len());
    let mut differ = Vec::new();
    for ((fen, cycle), fsf) in DIFFERENTIAL.iter().zip(&theirs) {
        let ours = repeat(fen, cycle, RuleSet::Asian).result.to_string();
        if &ours != fsf {
            differ.push(format!("{fen} | {cycle}: chuhan {ours}, pyffish {fsf}"));
        }
    }
    eprintln!(
        "asian rules: {} of {} cases agree with pyffish",
        DIFFERENTIAL.len() - differ.len(),
        DIFFERENTIAL.len()
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
