//! PGN. The bytes before a zero byte choose a game (one legal move per byte from the start position or
//! from the FEN of a few more bytes), which is written as PGN in both notations; the rest is read as a PGN
//! openings file. Property: a written game reads back as the same start and moves whichever notation its
//! move text uses; arbitrary PGN text is read or refused without panicking.
#![no_main]

use arena::config::Notation;
use arena::game::{GameRecord, MoveRecord, Termination};
use arena::openings::parse;
use engine::notation::to_chinese;
use engine::rules::GameResult;
use fuzzkit::{play_choices, position_from_choices, split_at_zero};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (game, text) = split_at_zero(data);
    // The first eight bytes pick a starting position, the rest the game from it.
    let (setup, choices) = game.split_at(game.len().min(8));
    let start = position_from_choices(setup);
    let fen = start.to_fen();
    let mut pos = start.clone();
    let moves = play_choices(&mut pos, choices);
    let mut replay = start.clone();
    let records = moves
        .iter()
        .map(|&m| {
            let chinese = to_chinese(&replay, m);
            replay.make_move(m);
            MoveRecord {
                iccs: m.to_string(),
                chinese,
                book: false,
                score: Some(7),
                depth: Some(3),
                time_ms: 5,
            }
        })
        .collect();
    let rec = GameRecord {
        red: "red \"quoted\" \\ name".into(),
        black: "black".into(),
        fen: fen.clone(),
        moves: records,
        outcome: GameResult::Draw,
        termination: Termination::MaxPlies,
        detail: String::new(),
    };
    let iccs: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    for notation in [Notation::Iccs, Notation::Chinese] {
        let pgn = arena::pgn::write_game(&rec, "fuzz", 1, notation);
        let read = parse(&pgn).unwrap_or_else(|e| panic!("our PGN is refused: {e}\n{pgn}"));
        assert_eq!(read.len(), 1, "{pgn}");
        assert_eq!(read[0].fen, fen, "{pgn}");
        assert_eq!(read[0].moves, iccs, "{pgn}");
    }
    let text = String::from_utf8_lossy(text);
    if let Ok(openings) = parse(&format!("[Event \"fuzz\"]\n{text}")) {
        for o in openings {
            assert!(o.position().is_ok());
        }
    }
});
