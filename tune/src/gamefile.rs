//! The self-play game file: whole games, not position dumps, so millions of training positions fit in tens
//! of megabytes and every position can be rebuilt exactly by replaying its game.
//!
//! Layout (all integers little-endian), version 1:
//!
//! ```text
//! header   8 bytes  b"CHUHANGM"
//!          2 bytes  format version (1)
//!          2 bytes  reserved (0)
//! game     1 byte   FEN length L, then L bytes: the start position's FEN (ASCII)
//!          1 byte   result: 0 Black won, 1 draw, 2 Red won
//!          1 byte   ending: 0 ply cap, 1 adjudicated, 2 + the referee's reason (see `REASONS`)
//!          2 bytes  number of moves N
//!          N × 4    per move: the move (`Move::to_u16`), then the search's score (i16, internal units,
//!                   from the mover's side; mate scores keep their distance, clamped to i16)
//! ```
//!
//! A game is 4 bytes a move plus about 60 bytes. Games follow each other to the end of the file; a file
//! cut short in the middle of a game (an interrupted run) reads as the complete games before the cut,
//! and [`complete_length`] says where to cut it before appending.

use crate::selfplay::{Ending, Game, PlayedMove};
use engine::rules::{GameResult, Reason};
use engine::{Move, Position};
use std::fmt;
use std::io::{self, Read, Write};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"CHUHANGM";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header.
pub const HEADER_LEN: usize = 12;

/// The referee's reasons in the order of their ending codes (code = 2 + index). Append only.
pub const REASONS: [Reason; 9] = [
    Reason::Checkmate,
    Reason::Stalemate,
    Reason::PerpetualCheck,
    Reason::PerpetualChase,
    Reason::ForbiddenRepetition,
    Reason::RepetitionDraw,
    Reason::MoveLimit,
    Reason::DeadPosition,
    Reason::IllegalMove,
];

/// A game as stored: what the trainer needs, without the referee's prose.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The start position.
    pub start: Position,
    /// Moves with the mover's search score.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Ending code (0 ply cap, 1 adjudicated, 2 + index in [`REASONS`]).
    pub ending: u8,
}

impl GameRecord {
    /// The stored form of a played game.
    pub fn from_game(game: &Game) -> GameRecord {
        let ending = match &game.ending {
            Ending::PlyCap => 0,
            Ending::Adjudicated => 1,
            Ending::Rules(j) => 2 + REASONS.iter().position(|&r| r == j.reason).unwrap_or(0) as u8,
        };
        GameRecord { start: game.start.clone(), moves: game.moves.clone(), result: game.result, ending }
    }

    /// Red's points: 1, ½ or 0.
    pub fn red_points(&self) -> f32 {
        match self.result {
            GameResult::RedWins => 1.0,
            GameResult::BlackWins => 0.0,
            _ => 0.5,
        }
    }
}

/// What is wrong with a game file.
#[derive(Debug)]
pub enum GameFileError {
    /// Reading failed.
    Io(io::Error),
    /// Not a game file, or another version.
    Header(String),
    /// A game that does not replay (bad FEN, illegal move, bad code), with its number.
    Corrupt(usize, String),
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameFileError::Io(e) => write!(f, "{e}"),
            GameFileError::Header(why) => write!(f, "not a chuhan game file: {why}"),
            GameFileError::Corrupt(game, why) => write!(f, "game {game} is corrupt: {why}"),
        }
    }
}

impl std::error::Error for GameFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameFileError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for GameFileError {
    fn from(e: io::Error) -> Self {
        GameFileError::Io(e)
    }
}

/// Writes the header of a new file.
pub fn write_header(out: &mut impl Write) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&0u16.to_le_bytes())
}

/// Appends one game.
pub fn write_game(out: &mut impl Write, game: &GameRecord) -> io::Result<()> {
    out.write_all(&encode(game))
}

/// The bytes of one game.
pub fn encode(game: &GameRecord) -> Vec<u8> {
    let fen = game.start.to_fen();
    let mut b = Vec::with_capacity(fen.len() + 5 + 4 * game.moves.len());
    b.push(fen.len().min(255) as u8);
    b.extend_from_slice(&fen.as_bytes()[..fen.len().min(255)]);
    b.push(match game.result {
        GameResult::BlackWins => 0,
        GameResult::RedWins => 2,
        _ => 1,
    });
    b.push(game.ending);
    let n = game.moves.len().min(u16::MAX as usize);
    b.extend_from_slice(&(n as u16).to_le_bytes());
    for m in &game.moves[..n] {
        b.extend_from_slice(&m.mv.to_u16().to_le_bytes());
        b.extend_from_slice(&(m.score.clamp(i16::MIN as i32, i16::MAX as i32) as i16).to_le_bytes());
    }
    b
}

/// Checks the header at the start of `bytes`.
fn check_header(bytes: &[u8]) -> Result<(), GameFileError> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
        return Err(GameFileError::Header("no CHUHANGM header".into()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(GameFileError::Header(format!("format version {version}, this build reads {VERSION}")));
    }
    Ok(())
}

/// One game decoded from `bytes` at `at`: the game and the offset after it, or `None` if the bytes end
/// inside it. The moves are checked legal by replaying them.
fn decode(bytes: &[u8], at: usize, index: usize) -> Result<Option<(GameRecord, usize)>, GameFileError> {
    let corrupt = |why: String| GameFileError::Corrupt(index, why);
    let Some(&len) = bytes.get(at) else { return Ok(None) };
    let mut p = at + 1;
    let Some(fen) = bytes.get(p..p + len as usize) else { return Ok(None) };
    p += len as usize;
    let Some(head) = bytes.get(p..p + 4) else { return Ok(None) };
    p += 4;
    let n = u16::from_le_bytes([head[2], head[3]]) as usize;
    let Some(body) = bytes.get(p..p + 4 * n) else { return Ok(None) };
    p += 4 * n;
    let fen = std::str::from_utf8(fen).map_err(|_| corrupt("FEN is not text".into()))?;
    let start = Position::from_fen(fen).map_err(|e| corrupt(format!("FEN '{fen}': {e}")))?;
    let result = match head[0] {
        0 => GameResult::BlackWins,
        1 => GameResult::Draw,
        2 => GameResult::RedWins,
        r => return Err(corrupt(format!("result code {r}"))),
    };
    if head[1] as usize >= 2 + REASONS.len() {
        return Err(corrupt(format!("ending code {}", head[1])));
    }
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(n);
    for (i, chunk) in body.chunks_exact(4).enumerate() {
        let mv = Move::from_u16(u16::from_le_bytes([chunk[0], chunk[1]]))
            .filter(|&m| pos.is_legal(m))
            .ok_or_else(|| corrupt(format!("move {} is not legal", i + 1)))?;
        pos.make_move(mv);
        moves.push(PlayedMove { mv, score: i16::from_le_bytes([chunk[2], chunk[3]]) as i32 });
    }
    Ok(Some((GameRecord { start, moves, result, ending: head[1] }, p)))
}

/// Every complete game in `bytes` (a whole file, header included).
pub fn decode_all(bytes: &[u8]) -> Result<Vec<GameRecord>, GameFileError> {
    check_header(bytes)?;
    let mut games = Vec::new();
    let mut at = HEADER_LEN;
    while let Some((game, next)) = decode(bytes, at, games.len())? {
        games.push(game);
        at = next;
    }
    Ok(games)
}

/// Reads every complete game of a file.
pub fn read_games(path: &std::path::Path) -> Result<Vec<GameRecord>, GameFileError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.read_to_end(&mut bytes)?;
    decode_all(&bytes)
}

/// The number of complete games in `bytes` and the length they take (header included): where to cut an
/// interrupted file before appending.
pub fn complete_length(bytes: &[u8]) -> Result<(usize, usize), GameFileError> {
    check_header(bytes)?;
    let (mut count, mut at) = (0, HEADER_LEN);
    while let Some((_, next)) = decode(bytes, at, count)? {
        count += 1;
        at = next;
    }
    Ok((count, at))
}

/// A position for training: the position before a move, the mover's search score and the game's result.
#[derive(Clone, Debug)]
pub struct TrainingPosition {
    /// The position (with the game's history up to it).
    pub pos: Position,
    /// The search score, internal units, from the side to move.
    pub score: i32,
    /// The game's result from the side to move's point of view: 1, ½ or 0.
    pub result: f32,
}

/// Scores beyond this (internal units, about 15 horses) count as decided: such positions teach nothing.
pub const DECIDED: i32 = 6_000;

/// The positions of a game worth learning from: not in check, the chosen move not a capture, the score
/// not decided (nor a mate score).
pub fn training_positions(game: &GameRecord) -> Vec<TrainingPosition> {
    let mut pos = game.start.clone();
    let mut out = Vec::new();
    let red = game.red_points();
    for m in &game.moves {
        if !pos.in_check() && !pos.is_capture(m.mv) && m.score.abs() < DECIDED {
            let result = if pos.side_to_move() == engine::Color::Red { red } else { 1.0 - red };
            out.push(TrainingPosition { pos: pos.clone(), score: m.score, result });
        }
        pos.make_move(m.mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        for (text, score) in [("h2e2", 30), ("h9g7", -25), ("h0g2", 40), ("i9h9", -31000)] {
            let mv = pos.parse_move(text).expect("legal");
            moves.push(PlayedMove { mv, score });
            pos.make_move(mv);
        }
        GameRecord { start: Position::startpos(), moves, result: GameResult::RedWins, ending: 2 }
    }

    #[test]
    fn games_round_trip_and_a_cut_file_keeps_its_whole_games() {
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("vec");
        write_game(&mut bytes, &sample()).expect("vec");
        let one = bytes.len();
        write_game(&mut bytes, &sample()).expect("vec");
        let games = decode_all(&bytes).expect("reads");
        assert_eq!(games, vec![sample(), sample()]);
        assert_eq!(games[0].moves[3].score, -31000);
        let cut = &bytes[..bytes.len() - 3];
        assert_eq!(complete_length(cut).expect("header"), (1, one));
        assert_eq!(decode_all(cut).expect("reads").len(), 1);
    }

    #[test]
    fn a_wrong_header_or_version_is_refused() {
        assert!(matches!(decode_all(b"garbage garbage"), Err(GameFileError::Header(_))));
        let mut bytes = Vec::new();
        write_header(&mut bytes).expect("vec");
        bytes[8] = 9;
        assert!(matches!(decode_all(&bytes), Err(GameFileError::Header(_))));
    }

    #[test]
    fn training_positions_skip_decided_scores_and_take_the_mover_result() {
        let positions = training_positions(&sample());
        assert_eq!(positions.len(), 3);
        assert_eq!(positions[0].result, 1.0);
        assert_eq!(positions[1].result, 0.0);
        assert_eq!(positions[1].score, -25);
    }
}
