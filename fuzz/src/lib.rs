//! What the fuzz targets share: turning fuzz bytes into positions and games, so that every target that
//! needs a position reaches the middle game and the ending, not only the start.

use engine::Position;

/// Plays from `pos` one legal move per byte of `choices` (the byte picks among the legal moves), stopping
/// early when the side to move has none; returns the moves played, in coordinates.
pub fn play_choices(pos: &mut Position, choices: &[u8]) -> Vec<engine::Move> {
    let mut played = Vec::with_capacity(choices.len());
    for &b in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[b as usize % moves.len()];
        pos.make_move(m);
        played.push(m);
    }
    played
}

/// The position after the moves that `choices` picks from the start position.
pub fn position_from_choices(choices: &[u8]) -> Position {
    let mut pos = Position::startpos();
    play_choices(&mut pos, choices);
    pos
}

/// Splits fuzz input at its first zero byte: (before, after). Targets that need two inputs (a game and a
/// text) read them this way, so the fuzzer can grow either.
pub fn split_at_zero(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// Asserts that an error message is one line of reasonable length, as the protocol promises for every
/// refusal (a 1 MB bad token must not come back as a 1 MB message).
pub fn assert_one_short_line(message: &str, limit: usize) {
    // Not only line ends: a raw escape or backspace from the input would let it rewrite the user's terminal.
    assert!(!message.chars().any(char::is_control), "control characters in a message: {message:?}");
    assert!(message.len() <= limit, "a message of {} bytes: {:.200}", message.len(), message);
}
