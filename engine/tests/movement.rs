//! The rules of movement, piece by piece (docs/rules.md, art. 2.2-2.3), and the consistency of
//! make/unmake.

use engine::{Move, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

/// Legal destinations of the piece on `from`, as sorted text.
fn targets(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> =
        p.legal_moves().iter().filter(|m| m.from() == sq(from)).map(|m| m.to().to_string()).collect();
    v.sort();
    v
}

/// Asserts the legal destinations of the piece on `from` in `fen`, sorted.
fn assert_targets(fen: &str, from: &str, expected: &[&str]) {
    assert_eq!(targets(&pos(fen), from), expected, "{from} in {fen}");
}

fn has(p: &Position, m: &str) -> bool {
    p.parse_move(m).is_ok()
}

#[test]
fn cannon_captures_over_exactly_one_screen_of_either_colour() {
    // Red cannon e2; screens on e5 (own pawn) then black horse e7: capture allowed.
    let p = pos("3k5/9/4n4/9/4P4/9/9/4C4/9/4K4 w");
    assert!(has(&p, "e2e7"));
    // Screen of the enemy's colour works too.
    let p = pos("3k5/9/4n4/9/4p4/9/9/4C4/9/4K4 w");
    assert!(has(&p, "e2e7"));
    // No screen: cannot capture, can only move up to the piece.
    let p = pos("3k5/9/4n4/9/9/9/9/4C4/9/4K4 w");
    assert!(!has(&p, "e2e7"));
    assert!(has(&p, "e2e6"));
    // Two screens: cannot capture.
    let p = pos("3k5/9/4n4/4p4/4P4/9/9/4C4/9/4K4 w");
    assert!(!has(&p, "e2e7"));
    // A cannon never moves past a piece without capturing.
    assert!(!has(&p, "e2e8"));
}

#[test]
fn horse_leg_blocked_by_either_colour() {
    // d0 holds the own king.
    assert_targets("5k3/9/9/9/9/9/9/4N4/9/3K5 w", "e2", &["c1", "c3", "d4", "f0", "f4", "g1", "g3"]);
    // Own piece on the leg e3 blocks d4 and f4.
    assert_targets("5k3/9/9/9/9/9/4P4/4N4/9/3K5 w", "e2", &["c1", "c3", "f0", "g1", "g3"]);
    // Enemy piece on the leg f2 blocks g1 and g3.
    assert_targets("5k3/9/9/9/9/9/9/4Np3/9/3K5 w", "e2", &["c1", "c3", "d4", "f0", "f4"]);
}

#[test]
fn elephant_eye_and_river() {
    assert_targets("5k3/9/9/9/9/9/9/4B4/9/3K5 w", "e2", &["c0", "c4", "g0", "g4"]);
    // A piece on the eye d3 blocks c4.
    assert_targets("5k3/9/9/9/9/9/3p5/4B4/9/3K5 w", "e2", &["c0", "g0", "g4"]);
    // From the river bank the elephant cannot cross.
    assert_targets("5k3/9/9/9/9/2B6/9/9/9/3K5 w", "c4", &["a2", "e2"]);
    assert_targets("3k5/9/9/9/2b6/9/9/9/9/5K3 b", "c5", &["a7", "e7"]);
}

#[test]
fn advisor_and_king_stay_in_the_palace() {
    assert_targets("3k5/9/9/9/9/9/9/3A5/9/4K4 w", "d2", &["e1"]);
    assert_targets("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0", &["d1", "e0"]);
    assert_targets("5k3/9/9/9/9/9/9/3K5/9/9 w", "d2", &["d1", "e2"]);
}

#[test]
fn pawn_moves_sideways_only_after_crossing_and_never_back() {
    assert_targets("3k5/9/9/9/9/4P4/9/9/9/5K3 w", "e4", &["e5"]);
    assert_targets("3k5/9/9/9/4P4/9/9/9/9/5K3 w", "e5", &["d5", "e6", "f5"]);
    // On the last rank: sideways only.
    assert_targets("3k4P/9/9/9/9/9/9/9/9/5K3 w", "i9", &["h9"]);
    assert_targets("3k5/9/9/9/4p4/9/9/9/9/5K3 b", "e5", &["e4"]);
    assert_targets("3k5/9/9/9/9/4p4/9/9/9/5K3 b", "e4", &["d4", "e3", "f4"]);
}

#[test]
fn kings_may_not_face_and_a_king_checks_along_an_open_file() {
    // The only piece between the kings cannot leave the file.
    let p = pos("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
    assert!(targets(&p, "e5").is_empty());
    assert!(!has(&p, "e5d7"));
    // A king may not step onto the open file of the other king.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert!(!has(&p, "d0e0"));
    // A FEN with the kings facing is refused.
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 b").is_err());
}

#[test]
fn moving_a_screen_or_becoming_one_can_expose_the_king() {
    // Black cannon e7 behind two screens e5 (red) and e3 (red): moving one leaves a single screen = check.
    let p = pos("3k5/9/4c4/9/4R4/9/4N4/9/9/4K4 w");
    assert!(!has(&p, "e3c4"), "moving the second screen leaves a cannon check");
    // Black cannon e7, nothing between it and the king: a Red piece stepping onto the file becomes a screen.
    let p = pos("5k3/9/4c4/9/9/9/9/3R5/9/4K4 w");
    assert!(!has(&p, "d2e2"));
    assert!(has(&p, "d2d3"));
    // Discovered check through a cannon screen delivered by the side to move is found by gives_check.
    let p = pos("4k4/9/9/9/4N4/9/9/9/4R4/3K5 w");
    let m = p.parse_move("e5c6").expect("legal");
    assert!(p.gives_check(m), "the horse uncovers the rook");
}

#[test]
fn stalemate_is_no_legal_move() {
    // Black king d9 hemmed in: d8 covered by the rook on a8, e9 by the rook on e1; not in check.
    let p = pos("3k5/R8/9/9/9/9/9/9/4R4/5K3 b");
    assert!(!p.in_check());
    assert_eq!(p.legal_moves().len(), 0);
    assert!(p.is_lost_by_no_move());
}

use engine::random::Rng;

#[test]
fn incremental_key_matches_recompute_over_random_games() {
    let mut rng = Rng::from_state(0x1234_5678_9abc_def1);
    for _ in 0..200 {
        let mut p = Position::startpos();
        let start = p.clone();
        for _ in 0..150 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            assert!(p.is_legal(m));
            p.make_move(m);
            assert_eq!(p.key(), p.compute_key(), "after {m} in {}", p.to_fen());
            // The FEN round trip reproduces the position and key.
            let q = Position::from_fen(&p.to_fen()).expect("generated positions are valid");
            assert_eq!(q.key(), p.key());
            assert_eq!(q.checkers(), p.checkers());
        }
        while !p.history().is_empty() {
            p.unmake_move();
        }
        assert_eq!(p, start);
        assert_eq!(p.key(), start.key());
    }
}

#[test]
fn generated_moves_agree_with_is_legal_and_split_into_captures_and_quiets() {
    use engine::movegen::{GenType, MoveList};
    let mut rng = Rng::from_state(0xdead_beef_cafe_f00d);
    for _ in 0..100 {
        let mut p = Position::startpos();
        for _ in 0..120 {
            let all = p.legal_moves();
            let (mut caps, mut quiets) = (MoveList::new(), MoveList::new());
            p.generate(GenType::Captures, &mut caps);
            p.generate(GenType::Quiets, &mut quiets);
            assert_eq!(caps.len() + quiets.len(), all.len());
            assert!(caps.iter().all(|&m| p.is_capture(m) && all.contains(m)));
            assert!(quiets.iter().all(|&m| !p.is_capture(m) && all.contains(m)));
            assert_eq!(p.count_legal(), all.len() as u64);
            // Every from-to pair: is_legal agrees with the generator.
            for from in Square::all() {
                for to in Square::all() {
                    if from != to {
                        let m = Move::new(from, to);
                        assert_eq!(p.is_legal(m), all.contains(m), "{m} in {}", p.to_fen());
                    }
                }
            }
            // gives_check agrees with making the move, and the checkers make_move keeps (which skips the
            // lookups for moves off the king's lines) agree with a position set up from scratch.
            for &m in all.iter() {
                let gives = p.gives_check(m);
                p.make_move(m);
                assert_eq!(gives, p.in_check(), "{m}");
                let fresh = Position::from_fen(&p.to_fen()).expect("generated positions are valid");
                assert_eq!(p.checkers(), fresh.checkers(), "{m}");
                p.unmake_move();
            }
            if all.is_empty() {
                break;
            }
            p.make_move(all[(rng.next_u64() % all.len() as u64) as usize]);
        }
    }
}

#[test]
fn parse_move_errors_are_clear() {
    let p = Position::startpos();
    assert!(p.parse_move("h2e2").is_ok());
    for bad in ["", "h2", "h2e2x", "z2e2", "h2e", "炮二平五"] {
        assert!(matches!(p.parse_move(bad), Err(engine::MoveError::Syntax(_))), "{bad}");
    }
    for bad in ["a3a4x", "e5e6", "h7e7", "h2h9x"] {
        assert!(p.parse_move(bad).is_err(), "{bad}");
    }
    assert!(matches!(p.parse_move("e5e6"), Err(engine::MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("h7e7"), Err(engine::MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("h2h8"), Err(engine::MoveError::Illegal(..))));
}
