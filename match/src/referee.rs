//! The runner's one door to the rules: the referee that ends games and the Chinese notation for PGN.
//!
//! Everything else in the match runner goes through `Arbiter`, `verdict`, `to_chinese` and `from_chinese`,
//! so the API of `engine::rules` and `engine::notation` shows up in this file only.

use super::game::Termination;
use engine::notation;
use engine::rules::{GameResult, GameRules, Judgement, Reason, Referee};
use engine::{Move, Position};

/// A game under the referee's eye.
pub struct Arbiter {
    referee: Referee,
}

/// How a game ended according to the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub outcome: GameResult,
    /// Why.
    pub termination: Termination,
    /// The referee's words (e.g. which side checked perpetually).
    pub detail: String,
}

impl Arbiter {
    /// A referee for a game starting at `pos`, under the Chinese rules.
    pub fn new(pos: Position) -> Arbiter {
        Arbiter::with_rules(pos, GameRules::default())
    }

    /// A referee for a game starting at `pos` under `rules` (`--rules`, `--move-limit`).
    pub fn with_rules(pos: Position, rules: GameRules) -> Arbiter {
        Arbiter { referee: Referee::with_rules(pos, rules) }
    }

    /// The verdict on the starting position itself (a position that is already mate, or dead).
    pub fn initial_verdict(&self) -> Option<Verdict> {
        verdict(&self.referee.judgement())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.referee.position()
    }

    /// The legal moves that would lose at once by a repetition rule (perpetual check, perpetual chase, or
    /// another forbidden repetition), as a GUI bans them with UCCI `banmoves`. Empty when every legal move
    /// would: then the mover has no lawful choice and the ban would only leave it without a move.
    pub fn forbidden_moves(&self) -> Vec<Move> {
        let loss = GameResult::loss_for(self.referee.position().side_to_move());
        let legal = self.referee.position().legal_moves();
        let forbidden: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| {
                let mut trial = self.referee.clone();
                let j = trial.play(m);
                j.result == loss
                    && matches!(
                        j.reason,
                        Reason::PerpetualCheck | Reason::PerpetualChase | Reason::ForbiddenRepetition
                    )
            })
            .collect();
        if forbidden.len() == legal.len() {
            Vec::new()
        } else {
            forbidden
        }
    }

    /// Plays a legal move and returns the verdict if the game is over.
    pub fn play(&mut self, m: Move) -> Option<Verdict> {
        verdict(&self.referee.play(m))
    }
}

/// The referee's judgement as the runner records it (`None` while the game goes on).
fn verdict(j: &Judgement) -> Option<Verdict> {
    j.is_over().then(|| Verdict {
        outcome: j.result,
        termination: Termination::Rules(j.reason),
        detail: j.detail.clone(),
    })
}

/// A legal move in Chinese notation (`炮二平五`).
pub fn to_chinese(pos: &Position, m: Move) -> String {
    notation::to_chinese(pos, m)
}

/// The legal move that Chinese notation names, if any.
pub fn from_chinese(pos: &Position, text: &str) -> Option<Move> {
    notation::from_chinese(pos, text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_notation_of_opening_moves() {
        let mut pos = Position::startpos();
        for (iccs, chinese) in
            [("h2e2", "炮二平五"), ("h9g7", "马8进7"), ("h0g2", "马二进三"), ("i9h9", "车9平8")]
        {
            let m = pos.parse_move(iccs).expect("legal");
            assert_eq!(to_chinese(&pos, m), chinese);
            assert_eq!(from_chinese(&pos, chinese), Some(m));
            pos.make_move(m);
        }
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        let pos = Position::from_fen("9/3k5/9/p8/9/9/9/9/9/4K3R w - - 0 1").expect("valid");
        let mut a = Arbiter::new(pos);
        let mut last = None;
        for m in ["i0i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8", "i9i8"] {
            let mv = a.position().parse_move(m).expect("legal");
            last = a.play(mv);
            if last.is_some() {
                break;
            }
        }
        let v = last.expect("the cycle is judged");
        assert_eq!(
            (v.outcome, v.termination),
            (GameResult::BlackWins, Termination::Rules(Reason::PerpetualCheck))
        );
    }

    #[test]
    fn the_move_that_completes_a_perpetual_check_is_forbidden_beforehand() {
        let pos = Position::from_fen("9/3k5/9/p8/9/9/9/9/9/4K3R w - - 0 1").expect("valid");
        let mut a = Arbiter::new(pos);
        let cycle = ["i0i8", "d8d9", "i8i9", "d9d8", "i9i8", "d8d9", "i8i9", "d9d8"];
        for m in cycle {
            assert!(a.forbidden_moves().is_empty(), "nothing repeats yet before {m}");
            let mv = a.position().parse_move(m).expect("legal");
            assert_eq!(a.play(mv), None);
        }
        // Checking again from i8 would bring the position about for the third time: perpetual check.
        let forbidden: Vec<String> = a.forbidden_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(forbidden, ["i9i8"]);
        // Black, escaping, is forbidden nothing; a legal alternative for Red is still there.
        assert!(a.position().legal_moves().len() > 1);
        let v = a.play(a.position().parse_move("i9i8").expect("legal")).expect("judged");
        assert_eq!(
            (v.outcome, v.termination),
            (GameResult::BlackWins, Termination::Rules(Reason::PerpetualCheck))
        );
    }

    #[test]
    fn the_start_position_forbids_nothing() {
        let a = Arbiter::new(Position::startpos());
        assert!(a.forbidden_moves().is_empty());
    }
}
