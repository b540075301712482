//! Chinese move notation both ways (docs/notation.md; docs/rules.md, art. 1.1 and 7.5), for both colours.

use engine::notation::{from_chinese, to_chinese, NotationError};
use engine::random::{walk_games, Rng};
use engine::Position;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("test position {fen}: {e}"))
}

fn iccs(pos: &Position, text: &str) -> String {
    from_chinese(pos, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen())).to_string()
}

fn chinese(pos: &Position, m: &str) -> String {
    to_chinese(pos, pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}")))
}

/// Asserts `text` <-> `m` both ways in `pos`.
fn both_ways(pos: &Position, text: &str, m: &str) {
    assert_eq!(chinese(pos, m), text, "{m} in {}", pos.to_fen());
    assert_eq!(iccs(pos, text), m, "{text} in {}", pos.to_fen());
}

/// [`both_ways`] for each `(text, m)` pair.
fn both_ways_each(pos: &Position, pairs: &[(&str, &str)]) {
    for &(text, m) in pairs {
        both_ways(pos, text, m);
    }
}

#[test]
fn rules_examples() {
    let mut p = Position::startpos();
    both_ways(&p, "炮二平五", "h2e2");
    p.try_play("h2e2").expect("legal");
    both_ways(&p, "马8进7", "h9g7");
    p.try_play("h9g7").expect("legal");
    p.try_play("i3i4").expect("legal");
    p.try_play("i6i5").expect("legal");
    both_ways(&p, "车一进三", "i0i3");
}

#[test]
fn opening_moves_for_both_colours() {
    let p = Position::startpos();
    both_ways_each(
        &p,
        &[
            ("马二进三", "h0g2"),
            ("相三进五", "g0e2"),
            ("仕四进五", "f0e1"),
            ("兵七进一", "c3c4"),
            ("帅五进一", "e0e1"),
            ("车九进一", "a0a1"),
            ("炮八进四", "b2b6"),
        ],
    );
    let mut p = Position::startpos();
    p.try_play("h2e2").expect("legal");
    both_ways_each(
        &p,
        &[
            ("炮8平5", "h7e7"),
            ("马2进3", "b9c7"),
            ("象3进5", "c9e7"),
            ("士4进5", "d9e8"),
            ("卒7进1", "g6g5"),
            ("车9进1", "i9i8"),
            ("将5进1", "e9e8"),
            ("炮2进7", "b7b0"),
        ],
    );
}

#[test]
fn backward_and_sideways_moves() {
    let mut p = Position::startpos();
    for m in ["h0g2", "h9g7", "b2b4", "h7h3"] {
        p.try_play(m).expect("legal");
    }
    both_ways_each(&p, &[("马三退二", "g2h0"), ("炮八退二", "b4b2"), ("炮八平五", "b4e4")]);
    p.try_play("b4b5").expect("legal");
    both_ways_each(&p, &[("马7退8", "g7h9"), ("炮8退1", "h3h4")]);
}

#[test]
fn two_identical_pieces_on_a_file_are_front_and_back() {
    let p = position("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1");
    both_ways_each(
        &p,
        &[("前车进一", "e4e5"), ("前车退一", "e4e3"), ("后车平四", "e2f2"), ("后车退二", "e2e0")],
    );
    assert_eq!(from_chinese(&p, "车五进一"), Err(NotationError::Ambiguous("车五进一".into())));
    // Black's front is the lower rank.
    let p = position("5k3/9/3r5/9/3r5/9/9/9/9/4K4 b - - 0 1");
    both_ways_each(&p, &[("前车进1", "d5d4"), ("后车平5", "d7e7"), ("后车退1", "d7d8")]);
}

#[test]
fn three_four_and_five_pawns_on_a_file() {
    let p = position("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
    both_ways_each(&p, &[("前兵进一", "e7e8"), ("中兵平四", "e6f6"), ("后兵平六", "e5d5")]);
    let p = position("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1");
    both_ways_each(
        &p,
        &[("前兵平四", "e8f8"), ("中前兵平六", "e7d7"), ("中后兵平四", "e6f6"), ("后兵平六", "e5d5")],
    );
    let p = position("3k5/9/9/9/9/2p6/2p6/2p6/2p1K4/2p6 b - - 0 1");
    both_ways_each(
        &p,
        &[
            ("前卒平2", "c0b0"),
            ("中前卒平4", "c1d1"),
            ("中卒平4", "c2d2"),
            ("中后卒平2", "c3b3"),
            ("后卒平4", "c4d4"),
        ],
    );
}

#[test]
fn pawns_stacked_on_two_files_name_the_file() {
    let p = position("3k5/9/9/4P1P2/4P1P2/9/9/9/9/4K4 w - - 0 1");
    both_ways_each(&p, &[("前五进一", "e6e7"), ("后三平四", "g5f5")]);
    // With the piece written too, and the bare order word is ambiguous.
    assert_eq!(iccs(&p, "前兵五进一"), "e6e7");
    assert_eq!(iccs(&p, "后兵三平四"), "g5f5");
    assert!(matches!(from_chinese(&p, "前兵进一"), Err(NotationError::Ambiguous(_))));
}

#[test]
fn advisors_and_elephants_on_one_file_need_no_order_word() {
    let p = position("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    both_ways_each(&p, &[("仕六进五", "d0e1"), ("仕六退五", "d2e1")]);
    assert_eq!(iccs(&p, "前仕退五"), "d2e1");
    let p = position("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
    both_ways_each(&p, &[("相七进五", "c0e2"), ("相七退五", "c4e2")]);
}

#[test]
fn variant_characters_and_digits_are_accepted() {
    let mut p = Position::startpos();
    for text in ["砲二平五", "炮２平５", "炮2平5", "包二平五", "炮 二 平 五"] {
        assert_eq!(iccs(&p, text), "h2e2", "{text}");
    }
    for (text, m) in [("車一進一", "i0i1"), ("傌二進三", "h0g2"), ("馬二進三", "h0g2"), ("俥九進一", "a0a1")]
    {
        assert_eq!(iccs(&p, text), m, "{text}");
    }
    for (text, m) in [("帥五進一", "e0e1"), ("士四进五", "f0e1"), ("象三进五", "g0e2"), ("卒七进一", "c3c4")]
    {
        assert_eq!(iccs(&p, text), m, "{text}");
    }
    p.try_play("h2e2").expect("legal");
    for (text, m) in [
        ("將5進1", "e9e8"),
        ("仕4進5", "d9e8"),
        ("相３進５", "c9e7"),
        ("兵7進1", "g6g5"),
        ("马八进七", "h9g7"),
    ] {
        assert_eq!(iccs(&p, text), m, "{text}");
    }
    let p = position("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1");
    assert_eq!(iccs(&p, "後車進一"), "e2e3");
}

#[test]
fn abbreviated_records_without_a_direction() {
    let p = Position::startpos();
    assert_eq!(iccs(&p, "炮25"), "h2e2");
    assert_eq!(iccs(&p, "马23"), "h0g2");
}

#[test]
fn bad_text_gives_typed_errors() {
    let p = Position::startpos();
    assert_eq!(from_chinese(&p, ""), Err(NotationError::Empty));
    assert_eq!(from_chinese(&p, "炮二平Z"), Err(NotationError::UnknownChar('Z')));
    assert!(matches!(from_chinese(&p, "二平五"), Err(NotationError::Malformed(_))));
    assert!(matches!(from_chinese(&p, "炮二平十"), Err(NotationError::UnknownChar('十'))));
    assert!(matches!(from_chinese(&p, "炮二进九"), Err(NotationError::NoSuchMove(_))));
    assert_eq!(from_chinese(&p, "  "), Err(NotationError::Empty));
    assert_eq!(from_chinese(&p, "炮二平X"), Err(NotationError::UnknownChar('X')));
    assert!(matches!(from_chinese(&p, "炮二平"), Err(NotationError::Malformed(_))));
    assert!(matches!(from_chinese(&p, "车一平二"), Err(NotationError::NoSuchMove(_))));
    for e in
        [NotationError::Empty, NotationError::UnknownChar('x'), NotationError::Ambiguous("车五进一".into())]
    {
        assert!(!e.to_string().is_empty());
    }
}

/// Every legal move of every position along a few pseudo-random games reads back to itself.
#[test]
fn every_legal_move_round_trips_along_random_games() {
    let mut rng = Rng::from_state(0x1234_5678_9abc_def1);
    let mut checked = 0;
    walk_games(6, 120, |p, moves| {
        for &m in moves.iter() {
            let text = to_chinese(p, m);
            assert_eq!(from_chinese(p, &text), Ok(m), "{text} in {}", p.to_fen());
            checked += 1;
        }
        moves[(rng.next_u64() >> 5) as usize % moves.len()]
    });
    assert!(checked > 10_000, "{checked}");
}

/// The 七星聚会 diagram (竹香斋 setting, reconstructed from the line) and its main line as printed with
/// 朱鹤洲's commentary (docs/notation.md, sources).
const QIXING: &str = "4rk3/9/3PbP3/9/9/8P/9/1p2p2C1/3p1p3/4K1RR1 w - - 0 1";
const QIXING_LINE: &str = "1. 炮二平四 卒５平６ 2. 兵四进一 将６进１ 3. 车三进八 将６退１ 4. 车二进一 前卒平５ \
     5. 车二平五 卒４平５ 6. 帅五进一 卒６进１ 7. 帅五进一 车５平３ 8. 兵六平七 车３平１ 9. 车三退一 将６进１ \
     10. 车三进一 将６退１ 11. 车三退二 车１进７ 12. 车三平四 将６平５ 13. 车四退五 卒２平３ 14. 车四平六 卒３进１ \
     15. 车六进一 车１退２ 16. 车六进五 车１平５ 17. 帅五平六 车５进４ 18. 车六进二 将５进１ 19. 车六平二 车５平１ \
     20. 帅六平五 卒３平４ 21. 车二平六 车１平９ 22. 车六平四 车９退２ 23. 车四退七 车９退２ 24. 车四进七 车９平５ \
     25. 帅五平六 车５平４ 26. 帅六平五 车４进１";
const QIXING_ICCS: &str = "h2f2 e2f2 f7f8 f9f8 g0g8 f8f9 h0h1 f1e1 h1e1 d1e1 e0e1 f2f1 e1e2 e9c9 d7c7 c9a9 \
     g8g7 f9f8 g7g8 f8f9 g8g6 a9a2 g6f6 f9e9 f6f1 b2c2 f1d1 c2c1 d1d2 a2a4 d2d7 a4e4 e2d2 e4e0 d7d9 e9e8 \
     d9h9 e0a0 d2e2 c1d1 h9d9 a0i0 d9f9 i0i2 f9f2 i2i4 f2f9 i4e4 e2d2 e4d4 d2e2 d4d3";

#[test]
fn qixing_juhui_line_parses_and_replays() {
    let mut p = position(QIXING);
    let texts: Vec<&str> = QIXING_LINE.split_whitespace().filter(|t| !t.ends_with('.')).collect();
    let expected: Vec<&str> = QIXING_ICCS.split_whitespace().collect();
    assert_eq!(texts.len(), expected.len());
    for (text, want) in texts.iter().zip(&expected) {
        let m = from_chinese(&p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(m.to_string(), *want, "{text}");
        // Written back, the move is the seed's text with ASCII digits for Black.
        let normalised: String = text
            .chars()
            .map(|c| {
                if ('１'..='９').contains(&c) {
                    char::from(b'1' + (c as u32 - '１' as u32) as u8)
                } else {
                    c
                }
            })
            .collect();
        assert_eq!(to_chinese(&p, m), normalised);
        p.make_move(m);
    }
    assert_eq!(p.to_fen(), "5R3/4k4/2P1b4/9/9/9/3r5/4K4/3p5/9 w - - 6 27");
}
