//! How a game stands: the result, the rule that decided it and a human-readable account.

use crate::types::Color;
use std::fmt;

/// The result of a game, in PGN's notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red has won (`1-0`).
    RedWins,
    /// Black has won (`0-1`).
    BlackWins,
    /// Drawn (`1/2-1/2`).
    Draw,
    /// The game goes on (`*`).
    Ongoing,
}

impl GameResult {
    /// The result in which `winner` wins.
    pub fn win_for(winner: Color) -> GameResult {
        match winner {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result in which `loser` loses.
    pub fn loss_for(loser: Color) -> GameResult {
        GameResult::win_for(!loser)
    }

    /// Whether the game has ended.
    pub fn is_over(self) -> bool {
        self != GameResult::Ongoing
    }

    /// Points scored by the side playing `c`: 1, ½ or 0 (½ also for a game that is not over).
    pub fn points(self, c: Color) -> f64 {
        match (self, c) {
            (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => 1.0,
            (GameResult::RedWins, Color::Black) | (GameResult::BlackWins, Color::Red) => 0.0,
            _ => 0.5,
        }
    }

    /// Reads PGN's notation (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::RedWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "*" => Some(GameResult::Ongoing),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        })
    }
}

/// The rule that ended the game (docs/rules.md, art. 3, 4 and 23-29).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move is in check and has no legal move (将死).
    Checkmate,
    /// The side to move is not in check and has no legal move (困毙): it loses.
    Stalemate,
    /// One side checked on every move of the repetition (长将) and the other did not.
    PerpetualCheck,
    /// One side chased the same piece (or pieces) on every move of the repetition (长捉) against an
    /// opponent whose moves were allowed.
    PerpetualChase,
    /// Any other forbidden repetition against allowed moves: perpetual mate threats (长杀), one check one
    /// chase, one check one threat, one threat one chase, or chases of different pieces in turn.
    ForbiddenRepetition,
    /// The position came three times and the 棋例 say "both unchanged: draw".
    RepetitionDraw,
    /// The natural move limit: 120 plies without a capture (art. 4.2.4, 23.3).
    MoveLimit,
    /// Neither side has material left that can ever give mate.
    DeadPosition,
    /// A move that is not legal (or not a move): the mover loses.
    IllegalMove,
    /// The game is not over.
    Ongoing,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::ForbiddenRepetition => "forbidden-repetition",
            Reason::RepetitionDraw => "repetition-draw",
            Reason::MoveLimit => "move-limit",
            Reason::DeadPosition => "dead-position",
            Reason::IllegalMove => "illegal-move",
            Reason::Ongoing => "ongoing",
        })
    }
}

/// A verdict on a game: result, reason and a one-line account of why (for logs and humans).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// Who won, or draw, or not over.
    pub result: GameResult,
    /// The rule that applied.
    pub reason: Reason,
    /// What happened, in words (empty while the game goes on).
    pub detail: String,
}

impl Judgement {
    /// The game goes on.
    pub fn ongoing() -> Judgement {
        Judgement { result: GameResult::Ongoing, reason: Reason::Ongoing, detail: String::new() }
    }

    /// `loser` has lost by `reason`.
    pub fn loss(loser: Color, reason: Reason, detail: impl Into<String>) -> Judgement {
        Judgement { result: GameResult::loss_for(loser), reason, detail: detail.into() }
    }

    /// A draw by `reason`.
    pub fn draw(reason: Reason, detail: impl Into<String>) -> Judgement {
        Judgement { result: GameResult::Draw, reason, detail: detail.into() }
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.result.is_over()
    }
}

impl fmt::Display for Judgement {
    /// `<result> <reason>`, the line `chuhan judge` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result, self.reason)
    }
}

/// The side's name in a detail line.
pub(crate) fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}
