//! The verdict on a repetition by the 棋例 (docs/rules.md, art. 24-26).
//!
//! When a position comes for the third time, every move played since its first occurrence is classified
//! (`classify`) and each side's record is read as:
//!
//! * **perpetual check** (长将): every move a check;
//! * **forbidden** (禁止着法): every move an attack (check, mate threat or chase) — perpetual threat,
//!   perpetual chase, and the alternations "one check one threat", "one check one chase", "one threat
//!   one chase";
//! * **allowed** (允许着法): at least one idle move.
//!
//! Judging the whole span from the first occurrence is the same as requiring the side to be forbidden in
//! each of the two cycles, i.e. it "did not vary". A pawn's attack by itself is idle unless both sides
//! attack on every move counting pawn attacks (相互长打, art. 27.2); then it counts as a chase.
//!
//! Verdict (art. 26): one-sided perpetual check loses, also against a forbidden opponent (26.1; 26.3
//! excludes it from "both forbidden"); mutual perpetual check, both allowed and both forbidden are draws;
//! forbidden against allowed loses for the forbidden side. **Engine convention:** the verdict falls at the
//! third occurrence; the rules' "must vary, and loses if the cycle repeats once more" (24.3) is not waited
//! for.
//!
//! Pieces are followed through the cycle by the point they stood on when it began, so a piece chased while
//! it runs is still one target: a forbidden side whose every move chases and whose chases share a target
//! loses by perpetual chase (长捉); chasing different pieces in turn is still forbidden and reported as a
//! forbidden repetition.

use crate::position::Position;
use crate::rules::classify::{classify, classify_chases, MoveClass, MoveKind};
use crate::rules::outcome::{side_name, Judgement, Reason};
use crate::rules::set::RuleSet;
use crate::types::{Color, Move, Square};
use std::fmt::Write;

/// One move of the cycle as the verdict sees it.
struct Entry {
    mover: Color,
    mv: Move,
    class: MoveClass,
    /// The targets it chases (or a pawn chases), named by their square at the start of the cycle.
    chased_from: u128,
    pawn_chased_from: u128,
}

/// A side's record over the cycle.
struct Record<'a> {
    entries: Vec<&'a Entry>,
    count_pawns: bool,
}

impl Record<'_> {
    fn kind(&self, e: &Entry) -> MoveKind {
        if self.count_pawns {
            e.class.kind_counting_pawns()
        } else {
            e.class.kind
        }
    }

    fn all_checks(&self) -> bool {
        self.entries.iter().all(|e| self.kind(e) == MoveKind::Check)
    }

    fn forbidden(&self) -> bool {
        self.entries.iter().all(|e| self.kind(e) != MoveKind::Idle)
    }

    /// The targets chased on every move (by their starting point), when every move is a chase.
    fn one_chase(&self) -> u128 {
        let mut common = u128::MAX;
        for e in &self.entries {
            if self.kind(e) != MoveKind::Chase {
                return 0;
            }
            let chased = if self.count_pawns { e.chased_from | e.pawn_chased_from } else { e.chased_from };
            common &= chased;
        }
        common
    }

    fn describe(&self, out: &mut String) {
        for (i, e) in self.entries.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(out, "{sep}{} {}", e.mv, self.kind(e));
        }
    }
}

fn squares(mask: u128) -> String {
    (0..90u8)
        .filter(|&i| mask >> i & 1 == 1)
        .filter_map(Square::new)
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Judges the repetition made by `moves`, played from `start` (the position that has now come back), by
/// the Chinese rules. `start` is left as it was.
pub fn judge_cycle(start: &mut Position, moves: &[Move]) -> Judgement {
    judge_cycle_under(start, moves, RuleSet::Chinese)
}

/// [`judge_cycle`] under the rule set `set` (docs/rules.md, "Rule sets").
pub fn judge_cycle_under(start: &mut Position, moves: &[Move], set: RuleSet) -> Judgement {
    // origin[sq]: the point the piece now on `sq` stood on when the cycle began.
    let mut origin: [Option<Square>; 90] = [None; 90];
    for sq in start.occupied() {
        origin[sq.index()] = Some(sq);
    }
    let mut entries = Vec::with_capacity(moves.len());
    let mut played = 0;
    for &m in moves {
        if !start.is_legal(m) {
            break;
        }
        let mover = start.side_to_move();
        let class = match set {
            RuleSet::Chinese => classify(start, m),
            RuleSet::Asian => classify_chases(start, m),
            RuleSet::Computer => {
                start.make_move(m);
                let check = start.in_check();
                start.unmake_move();
                let kind = if check { MoveKind::Check } else { MoveKind::Idle };
                MoveClass {
                    kind,
                    chased: crate::bitboard::Bitboard::EMPTY,
                    pawn_chased: crate::bitboard::Bitboard::EMPTY,
                }
            }
        };
        let name = |bb: crate::bitboard::Bitboard| {
            bb.into_iter().filter_map(|s| origin[s.index()]).fold(0u128, |acc, s| acc | 1u128 << s.index())
        };
        let chased_from = name(class.chased);
        let pawn_chased_from = name(class.pawn_chased);
        entries.push(Entry { mover, mv: m, class, chased_from, pawn_chased_from });
        origin[m.to().index()] = origin[m.from().index()];
        origin[m.from().index()] = None;
        start.make_move(m);
        played += 1;
    }
    for _ in 0..played {
        start.unmake_move();
    }
    match set {
        RuleSet::Chinese => verdict(&entries),
        RuleSet::Asian | RuleSet::Computer => other_verdict(&entries, set),
    }
}

/// The verdict of the Asian and computer rules (docs/rules.md, "Rule sets"). Both: a side that checked
/// on every move while the other did not loses (AXF art. A1); both checking perpetually is a draw. The
/// computer rules stop there: anything else is a draw. The Asian rules add one more loss: a side none of
/// whose moves was a check, that chased on every move, one same piece each time (followed as it moves),
/// while the other side did not, loses by perpetual chase (A2, A4). Mate threats are not attacks (A3),
/// a check among chases breaks the chase (A5), chasing different pieces in turn is allowed (A6), and a
/// pawn's or king's attack is never a chase (A7).
fn other_verdict(entries: &[Entry], set: RuleSet) -> Judgement {
    let side = |c: Color| entries.iter().filter(move |e| e.mover == c);
    let all_checks = |c: Color| side(c).all(|e| e.class.kind == MoveKind::Check);
    let mut detail = format!("repetition ({set} rules): Red ");
    for (name, c) in [("Red", Color::Red), ("Black", Color::Black)] {
        if c == Color::Black {
            let _ = write!(detail, "; {name} ");
        }
        for (i, e) in side(c).enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(detail, "{sep}{} {}", e.mv, e.class.kind);
        }
    }
    match (all_checks(Color::Red), all_checks(Color::Black)) {
        (true, true) => {
            return Judgement::draw(Reason::RepetitionDraw, format!("{detail}; mutual perpetual check"))
        }
        (true, false) | (false, true) => {
            let loser = if all_checks(Color::Red) { Color::Red } else { Color::Black };
            let d = format!("{detail}; {} checks perpetually", side_name(loser));
            return Judgement::loss(loser, Reason::PerpetualCheck, d);
        }
        (false, false) => {}
    }
    if set == RuleSet::Computer {
        return Judgement::draw(Reason::RepetitionDraw, format!("{detail}; no perpetual check"));
    }
    // The piece (by its point at the start of the cycle) chased on every move, if any.
    let one_chase = |c: Color| {
        side(c).fold(
            u128::MAX,
            |common, e| {
                if e.class.kind == MoveKind::Chase {
                    common & e.chased_from
                } else {
                    0
                }
            },
        )
    };
    match (one_chase(Color::Red), one_chase(Color::Black)) {
        (0, 0) => Judgement::draw(Reason::RepetitionDraw, format!("{detail}; no perpetual chase")),
        (r, b) if r != 0 && b != 0 => {
            Judgement::draw(Reason::RepetitionDraw, format!("{detail}; both chase perpetually"))
        }
        (r, b) => {
            let (loser, common) = if r != 0 { (Color::Red, r) } else { (Color::Black, b) };
            let d = format!(
                "{detail}; {} chases the piece from {} on every move",
                side_name(loser),
                squares(common)
            );
            Judgement::loss(loser, Reason::PerpetualChase, d)
        }
    }
}

fn verdict(entries: &[Entry]) -> Judgement {
    let record = |c: Color, count_pawns| Record {
        entries: entries.iter().filter(|e| e.mover == c).collect(),
        count_pawns,
    };
    let (mut red, mut black) = (record(Color::Red, false), record(Color::Black, false));
    let (red_p, black_p) = (record(Color::Red, true), record(Color::Black, true));
    if red_p.forbidden() && black_p.forbidden() {
        red = red_p;
        black = black_p;
    }
    let mut detail = String::new();
    let _ = write!(detail, "repetition: Red ");
    red.describe(&mut detail);
    let _ = write!(detail, "; Black ");
    black.describe(&mut detail);

    let loses = |loser: Color, rec: &Record, detail: String| {
        let common = rec.one_chase();
        if common != 0 {
            let d = format!(
                "{detail}; {} chases the piece from {} on every move",
                side_name(loser),
                squares(common)
            );
            Judgement::loss(loser, Reason::PerpetualChase, d)
        } else {
            let d = format!("{detail}; {} attacks on every move and must vary", side_name(loser));
            Judgement::loss(loser, Reason::ForbiddenRepetition, d)
        }
    };
    match (red.all_checks(), black.all_checks()) {
        (true, true) => Judgement::draw(Reason::RepetitionDraw, format!("{detail}; mutual perpetual check")),
        (true, false) => {
            Judgement::loss(Color::Red, Reason::PerpetualCheck, format!("{detail}; Red checks perpetually"))
        }
        (false, true) => Judgement::loss(
            Color::Black,
            Reason::PerpetualCheck,
            format!("{detail}; Black checks perpetually"),
        ),
        (false, false) => match (red.forbidden(), black.forbidden()) {
            (true, false) => loses(Color::Red, &red, detail),
            (false, true) => loses(Color::Black, &black, detail),
            (true, true) => Judgement::draw(Reason::RepetitionDraw, format!("{detail}; both forbidden")),
            (false, false) => Judgement::draw(Reason::RepetitionDraw, format!("{detail}; both allowed")),
        },
    }
}
