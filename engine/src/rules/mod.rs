//! The referee: how a game ends under the Chinese rules (docs/rules.md, art. 3, 4 and 23-29).
//!
//! * Checkmate (将死) and stalemate (困毙) lose for the side that cannot move. Facing kings and moves into
//!   check are illegal and never generated; an illegal move loses for its mover.
//! * A position that comes for the third time is judged by the 棋例 ([`repetition`]): perpetual check,
//!   forbidden against allowed, or draw.
//! * Dead positions (no rook, horse, cannon or pawn left on either side, [`dead`]) are drawn.
//! * 120 plies without a capture are drawn, with the claimant's checks past its tenth not counted
//!   ([`limit`]).
//!
//! Order after each move: no legal reply (the mover wins), repetition, dead position, move limit.
//! [`Referee`] judges a game move by move, [`judge`] a whole game at once, and [`cycle_outcome`] gives the
//! search a cheap verdict on a repeated position.

pub mod chase;
pub mod classify;
pub mod cycle;
pub mod dead;
pub mod limit;
pub mod mate;
pub mod outcome;
pub mod post;
pub mod repetition;
pub mod set;

pub use classify::{classify, MoveClass, MoveKind};
pub use cycle::{cycle_outcome, CycleOutcome};
pub use dead::{dead_position, DeadPattern};
pub use limit::{MoveLimit, NATURAL_LIMIT_PLIES};
pub use outcome::{GameResult, Judgement, Reason};
pub use set::{GameRules, RuleSet, RuleSetError};

use crate::position::Position;
use crate::types::Move;
use outcome::side_name;

/// An incremental judge for a game in progress.
#[derive(Clone, Debug)]
pub struct Referee {
    pos: Position,
    moves: Vec<Move>,
    /// Key of the position after each ply (index 0: the start).
    keys: Vec<u64>,
    /// Index in `keys` of the first position after the last capture (earlier ones cannot come back).
    since_capture: usize,
    limit: MoveLimit,
    rules: GameRules,
    judgement: Judgement,
}

impl Referee {
    /// A referee for a game starting at `start` (its history is not part of the game), under the Chinese
    /// rules.
    pub fn new(start: Position) -> Referee {
        Referee::with_rules(start, GameRules::default())
    }

    /// A referee for a game starting at `start` under `rules`.
    pub fn with_rules(start: Position, rules: GameRules) -> Referee {
        let mut pos = start;
        pos.clear_history();
        let limit = MoveLimit::starting_at(pos.halfmove_clock()).with_limit(rules.move_limit_plies);
        let mut r = Referee {
            keys: vec![pos.key()],
            pos,
            moves: Vec::new(),
            since_capture: 0,
            limit,
            rules,
            judgement: Judgement::ongoing(),
        };
        r.judgement = r.judge_now(false);
        r
    }

    /// The rules the game is judged by.
    pub fn rules(&self) -> GameRules {
        self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current state of the game.
    pub fn judgement(&self) -> Judgement {
        self.judgement.clone()
    }

    /// Plays `m`; an illegal move ends the game against the mover. Returns the judgement after the move
    /// (`Ongoing` while the game goes on). Once the game is over, further moves are not played and the
    /// final judgement is returned.
    pub fn play(&mut self, m: Move) -> Judgement {
        if self.judgement.is_over() {
            return self.judgement.clone();
        }
        let mover = self.pos.side_to_move();
        if !self.pos.is_legal(m) {
            let why = format!("{} played the illegal move {m}", side_name(mover));
            self.judgement = Judgement::loss(mover, Reason::IllegalMove, why);
            return self.judgement.clone();
        }
        let capture = self.pos.is_capture(m);
        self.pos.make_move(m);
        self.moves.push(m);
        self.keys.push(self.pos.key());
        if capture {
            self.since_capture = self.keys.len() - 1;
        }
        self.limit.record(mover, capture, self.pos.in_check());
        self.judgement = self.judge_now(capture);
        self.judgement.clone()
    }

    /// Plays a move given as text: ICCS coordinates (`h2e2`) or Chinese notation (`炮二平五`). Text that is
    /// not a legal move ends the game against the mover.
    pub fn play_str(&mut self, text: &str) -> Judgement {
        if self.judgement.is_over() {
            return self.judgement.clone();
        }
        let text = text.trim();
        let parsed = self.pos.parse_move(text).map_err(|e| e.to_string()).or_else(|iccs_err| {
            if text.is_ascii() {
                Err(iccs_err)
            } else {
                crate::notation::from_chinese(&self.pos, text).map_err(|e| e.to_string())
            }
        });
        match parsed {
            Ok(m) => self.play(m),
            Err(why) => {
                let mover = self.pos.side_to_move();
                let detail =
                    format!("{} played '{}', which is not a legal move: {why}", side_name(mover), text);
                self.judgement = Judgement::loss(mover, Reason::IllegalMove, detail);
                self.judgement.clone()
            }
        }
    }

    /// The judgement of the current position, given whether the last move captured.
    fn judge_now(&mut self, captured: bool) -> Judgement {
        let to_move = self.pos.side_to_move();
        if !self.pos.has_legal_move() {
            let (reason, how) = if self.pos.in_check() {
                (Reason::Checkmate, "is checkmated")
            } else {
                (Reason::Stalemate, "has no legal move (stalemate loses)")
            };
            return Judgement::loss(to_move, reason, format!("{} {how}", side_name(to_move)));
        }
        if let Some(j) = self.repetition() {
            return j;
        }
        if captured || self.moves.is_empty() {
            if let Some(pattern) = dead_position(&self.pos) {
                return Judgement::draw(Reason::DeadPosition, format!("dead position: {pattern}"));
            }
        }
        if self.limit.reached() {
            let detail = format!(
                "{} plies without a capture (checks: Red {}, Black {}; counted {})",
                self.limit.plies(),
                self.limit.checks(crate::types::Color::Red),
                self.limit.checks(crate::types::Color::Black),
                self.limit.counted()
            );
            return Judgement::draw(Reason::MoveLimit, detail);
        }
        Judgement::ongoing()
    }

    /// The 棋例 verdict if the current position has now come three times.
    fn repetition(&self) -> Option<Judgement> {
        let now = self.keys.len() - 1;
        let key = self.keys[now];
        let window = &self.keys[self.since_capture..];
        if window.iter().filter(|&&k| k == key).count() < 3 {
            return None;
        }
        let first = self.since_capture + window.iter().position(|&k| k == key)?;
        let span = now - first;
        let mut start = self.pos.clone();
        for _ in 0..span {
            start.unmake_move();
        }
        Some(repetition::judge_cycle_under(&mut start, &self.moves[first..], self.rules.set))
    }
}

/// Judges a whole game: `start` and the moves (ICCS or Chinese notation). Play stops at the first move
/// that ends the game; moves after it are ignored and counted in the detail.
pub fn judge(start: &Position, moves: &[&str]) -> Judgement {
    judge_under(start, moves, GameRules::default())
}

/// [`judge`] under other rules.
pub fn judge_under(start: &Position, moves: &[&str], rules: GameRules) -> Judgement {
    let mut referee = Referee::with_rules(start.clone(), rules);
    let mut played = 0;
    for m in moves {
        if referee.judgement().is_over() {
            break;
        }
        referee.play_str(m);
        played += 1;
    }
    let mut j = referee.judgement();
    let ignored = moves.len() - played;
    if ignored > 0 {
        j.detail.push_str(&format!(" ({ignored} later moves ignored)"));
    }
    j
}
