//! The runner's one door to the rules: the referee that ends games and the Chinese notation for PGN.
//!
//! Everything else in the match runner goes through `Arbiter`, `verdict`, `to_chinese` and `from_chinese`,
//! so the rules crate's API shows up in this file only.

use super::game::{Outcome, Termination};
use engine::{Move, Position};

// INTERIM: `engine::rules` and `engine::notation` (branch `rules`) are not merged yet; `mod interim` below
// has their shape. Switching is this one line,
//     use engine::{notation, rules::{GameResult, Judgement, Reason, Referee}};
// then deleting `mod interim` and the `use interim::...` line.
use interim::{notation, GameResult, Judgement, Reason, Referee};

/// A game under the referee's eye.
pub struct Arbiter {
    referee: Referee,
}

/// How a game ended according to the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub outcome: Outcome,
    /// Why.
    pub termination: Termination,
    /// The referee's words (e.g. which side checked perpetually).
    pub detail: String,
}

impl Arbiter {
    /// A referee for a game starting at `pos`.
    pub fn new(pos: Position) -> Arbiter {
        Arbiter { referee: Referee::new(pos) }
    }

    /// The verdict on the starting position itself (a position that is already mate, or dead).
    pub fn initial_verdict(&self) -> Option<Verdict> {
        verdict(&self.referee.judgement())
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.referee.position()
    }

    /// Plays a legal move and returns the verdict if the game is over.
    pub fn play(&mut self, m: Move) -> Option<Verdict> {
        verdict(&self.referee.play(m))
    }
}

/// The adapter: the referee's judgement in the runner's terms (`None` while the game goes on).
fn verdict(j: &Judgement) -> Option<Verdict> {
    let outcome = match j.result {
        GameResult::Ongoing => return None,
        GameResult::RedWins => Outcome::RedWins,
        GameResult::BlackWins => Outcome::BlackWins,
        GameResult::Draw => Outcome::Draw,
    };
    let termination = match j.reason {
        Reason::Checkmate => Termination::Checkmate,
        Reason::Stalemate => Termination::Stalemate,
        Reason::PerpetualCheck => Termination::PerpetualCheck,
        Reason::PerpetualChase => Termination::PerpetualChase,
        Reason::ForbiddenRepetition => Termination::ForbiddenRepetition,
        Reason::RepetitionDraw => Termination::RepetitionDraw,
        Reason::MoveLimit => Termination::MoveLimit,
        Reason::DeadPosition => Termination::DeadPosition,
        Reason::IllegalMove => Termination::IllegalMove,
        Reason::Ongoing => return None,
    };
    Some(Verdict { outcome, termination, detail: j.detail.clone() })
}

/// A legal move in Chinese notation (`炮二平五`).
pub fn to_chinese(pos: &Position, m: Move) -> String {
    notation::to_chinese(pos, m)
}

/// The legal move that Chinese notation names, if any.
pub fn from_chinese(pos: &Position, text: &str) -> Option<Move> {
    notation::from_chinese(pos, text).ok()
}

/// A stand-in for `engine::rules` and `engine::notation` with the same shape, judging only what the
/// runner's tests need: checkmate, stalemate, the 120-ply limit, bare positions, and threefold repetition
/// where a side that checked with every move of the cycle loses (chases are not judged: draws here).
#[allow(dead_code)]
mod interim {
    use engine::{Color, Move, PieceKind, Position};

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum GameResult {
        RedWins,
        BlackWins,
        Draw,
        Ongoing,
    }

    #[derive(Copy, Clone, Debug, PartialEq, Eq)]
    pub enum Reason {
        Checkmate,
        Stalemate,
        PerpetualCheck,
        PerpetualChase,
        ForbiddenRepetition,
        RepetitionDraw,
        MoveLimit,
        DeadPosition,
        IllegalMove,
        Ongoing,
    }

    pub struct Judgement {
        pub result: GameResult,
        pub reason: Reason,
        pub detail: String,
    }

    pub struct Referee {
        pos: Position,
    }

    fn wins(c: Color) -> GameResult {
        match c {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    impl Referee {
        pub fn new(pos: Position) -> Referee {
            Referee { pos }
        }

        pub fn position(&self) -> &Position {
            &self.pos
        }

        pub fn judgement(&self) -> Judgement {
            Judgement { result: GameResult::Ongoing, reason: Reason::Ongoing, detail: String::new() }
        }

        pub fn play(&mut self, m: Move) -> Judgement {
            let mover = self.pos.side_to_move();
            self.pos.make_move(m);
            let judge =
                |result, reason, detail: &str| Judgement { result, reason, detail: detail.to_string() };
            if !self.pos.has_legal_move() {
                return if self.pos.in_check() {
                    judge(wins(mover), Reason::Checkmate, "")
                } else {
                    judge(wins(mover), Reason::Stalemate, "")
                };
            }
            if let Some(j) = self.repetition() {
                return j;
            }
            if self.pos.halfmove_clock() >= 120 {
                return judge(GameResult::Draw, Reason::MoveLimit, "120 plies without a capture");
            }
            let attackers = [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn];
            if Color::ALL.iter().all(|&c| attackers.iter().all(|&k| self.pos.pieces(c, k).is_empty())) {
                return judge(GameResult::Draw, Reason::DeadPosition, "no attacking pieces left");
            }
            judge(GameResult::Ongoing, Reason::Ongoing, "")
        }

        fn repetition(&self) -> Option<Judgement> {
            let hist = self.pos.history();
            let key = self.pos.key();
            let earlier: Vec<usize> = (0..hist.len()).filter(|&i| hist[i].key == key).collect();
            if earlier.len() < 2 {
                return None;
            }
            let start = earlier[earlier.len() - 1];
            let n = hist.len();
            // Move i gave check if the side to move after it was in check.
            let gave_check =
                |i: usize| if i + 1 < n { hist[i + 1].checkers.nonempty() } else { self.pos.in_check() };
            let last_mover = !self.pos.side_to_move();
            let mut all_checks = [true, true];
            for i in start..n {
                // Moves alternate; the last one (n-1) was by last_mover.
                let side = if (n - 1 - i).is_multiple_of(2) { last_mover } else { !last_mover };
                all_checks[side.index()] &= gave_check(i);
            }
            let result = match all_checks {
                [true, false] => wins(Color::Black),
                [false, true] => wins(Color::Red),
                _ => GameResult::Draw,
            };
            let (reason, detail) = match result {
                GameResult::BlackWins => (Reason::PerpetualCheck, "perpetual check by Red"),
                GameResult::RedWins => (Reason::PerpetualCheck, "perpetual check by Black"),
                _ => (Reason::RepetitionDraw, "threefold repetition"),
            };
            Some(Judgement { result, reason, detail: detail.to_string() })
        }
    }

    pub mod notation {
        pub use super::{from_chinese, to_chinese};
    }

    const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

    /// The file number as the mover writes it (1 = the mover's rightmost file).
    fn file_number(color: Color, file: u8) -> u8 {
        match color {
            Color::Red => 9 - file,
            Color::Black => file + 1,
        }
    }

    fn numeral(color: Color, n: u8) -> char {
        match color {
            Color::Red => RED_NUMERALS[(n as usize).clamp(1, 9) - 1],
            Color::Black => char::from(b'0' + n),
        }
    }

    pub fn to_chinese(pos: &Position, m: Move) -> String {
        let Some(piece) = pos.piece_at(m.from()) else { return m.to_string() };
        let color = piece.color();
        let (from, to) = (m.from(), m.to());
        let forward = |r0: u8, r1: u8| if color == Color::Red { r1 > r0 } else { r1 < r0 };
        // Same pieces on the same file, front (furthest forward) first.
        let mut same: Vec<_> =
            pos.pieces(color, piece.kind()).into_iter().filter(|s| s.file() == from.file()).collect();
        same.sort_by_key(|s| if color == Color::Red { -(s.rank() as i32) } else { s.rank() as i32 });
        let mut text = String::new();
        if same.len() >= 2 {
            let idx = same.iter().position(|s| *s == from).unwrap_or(0);
            let label = match (same.len(), idx) {
                (_, 0) => '前',
                (n, i) if i + 1 == n => '后',
                _ => '中',
            };
            text.push(label);
            text.push(piece.chinese());
        } else {
            text.push(piece.chinese());
            text.push(numeral(color, file_number(color, from.file())));
        }
        let diagonal = matches!(piece.kind(), PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse);
        if from.rank() == to.rank() {
            text.push('平');
            text.push(numeral(color, file_number(color, to.file())));
        } else {
            text.push(if forward(from.rank(), to.rank()) { '进' } else { '退' });
            let n = if diagonal { file_number(color, to.file()) } else { from.rank().abs_diff(to.rank()) };
            text.push(numeral(color, n));
        }
        text
    }

    pub fn from_chinese(pos: &Position, text: &str) -> Result<Move, String> {
        let want: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32).unwrap_or(c),
                '砲' => '炮',
                '馬' => '马',
                '車' => '车',
                '帥' => '帅',
                '將' => '将',
                '進' => '进',
                '後' => '后',
                _ => c,
            })
            .collect();
        pos.legal_moves().iter().copied().find(|&m| to_chinese(pos, m) == want).ok_or(want)
    }
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
        assert_eq!((v.outcome, v.termination), (Outcome::BlackWins, Termination::PerpetualCheck));
    }
}
