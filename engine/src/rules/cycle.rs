//! The search's verdict on a repeated position: cheap, and exact for perpetual check.
//!
//! The search calls [`cycle_outcome`] when the current position repeats the one `cycle_len` plies back.
//! Perpetual check is read straight from the history (each `Undo` keeps the checkers before its move, so
//! the checkers after a move are in the next entry): exact, and no board work. Only when neither side
//! checked on every move is the cycle replayed on a history-free copy to look for a perpetual chase.
//!
//! **Approximations of the chase (search only; the referee's `classify` is the full rule):**
//! * a target is "chased" when a rook, horse, cannon, advisor or elephant attacks it and it has no
//!   defender, or is worth more than the cheapest such attacker (static counting: no exchange search, no
//!   pins or false protection, no capture after a check, no "mated at once" test);
//! * a chase counts only if it is new (the target was not so attacked before the move);
//! * a side is forbidden only if every move is a check or a chase and one same piece (followed as it
//!   moves) is chased on all its chasing moves — alternating targets count as a draw here;
//! * mate threats are not detected (treated as idle), and pawns' and kings' attacks are always idle.
//!
//! Verdict (the search's convention, docs/rules.md, "How chuhan applies the 棋例"; art. 26.1 and 26.4):
//! a side that checked on every move while the other did not loses; otherwise a side that is forbidden
//! (as above) against an opponent who is not loses; else draw.

use crate::attacks::KING_ATTACKS;
use crate::bitboard::Bitboard;
use crate::position::{Position, Undo};
use crate::rules::chase::rule_value;
use crate::rules::outcome::GameResult;
use crate::rules::set::RuleSet;
use crate::types::{Color, Move, Piece, PieceKind};

/// The search's verdict on a cycle, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CycleOutcome {
    /// Score the repetition as a draw.
    Draw,
    /// The opponent broke a prohibition: the side to move wins.
    SideToMoveWins,
    /// The side to move broke a prohibition: it loses.
    SideToMoveLoses,
}

/// The verdict of the cycle that ends at `pos`, which repeats the position `cycle_len` plies ago
/// (taken from `pos.history()`). Odd, too short or too long cycles, cycles that do not return to the same
/// key, and cycles through a null move or a capture (not real repetitions), are draws.
///
/// Cost (release build, measured on the development machine): about 6 ns when one side checked on every
/// move; 0.2-1.1 µs when the chase replay runs (4- to 8-ply cycles, sparse endgames to a full board).
pub fn cycle_outcome(pos: &Position, cycle_len: usize) -> CycleOutcome {
    cycle_outcome_under(pos, cycle_len, RuleSet::Chinese)
}

/// [`cycle_outcome`] under the rule set `set`: the computer rules stop at perpetual check; the Asian
/// rules count a check as breaking a chase (docs/rules.md, "The Asian rules", A5).
pub fn cycle_outcome_under(pos: &Position, cycle_len: usize, set: RuleSet) -> CycleOutcome {
    if let Some(decided) = check_verdict(pos, cycle_len) {
        return decided;
    }
    if set == RuleSet::Computer {
        return CycleOutcome::Draw;
    }
    let n = cycle_len;
    let hist = pos.history();
    let tail = &hist[hist.len() - n..];
    let stm = pos.side_to_move();
    let forbidden = chases(pos, tail, stm, set == RuleSet::Asian);
    let (us, them) = (stm.index(), (!stm).index());
    match (forbidden[us], forbidden[them]) {
        (true, false) => CycleOutcome::SideToMoveLoses,
        (false, true) => CycleOutcome::SideToMoveWins,
        _ => CycleOutcome::Draw,
    }
}

/// The referee's own verdict on the same cycle as [`cycle_outcome`]: every move classified by
/// [`crate::rules::classify`] (exchange counting, pins and false protection, chases through checks, mate
/// threats, defensive posts) and the sides' records read as [`crate::rules::repetition`] reads them at
/// the third occurrence. `pos` is stepped back to the start of the cycle and forward again, and is left
/// as it was.
///
/// Cost: the classification runs mate-threat searches (up to `mate::NODE_BUDGET` nodes per move), from
/// microseconds to a few milliseconds a cycle, so the search asks for it only near the root and caches it
/// (`search::repetition`).
pub fn referee_cycle_outcome(pos: &mut Position, cycle_len: usize) -> CycleOutcome {
    referee_cycle_outcome_under(pos, cycle_len, RuleSet::Chinese)
}

/// [`referee_cycle_outcome`] under the rule set `set` ([`crate::rules::repetition::judge_cycle_under`]).
pub fn referee_cycle_outcome_under(pos: &mut Position, cycle_len: usize, set: RuleSet) -> CycleOutcome {
    if let Some(decided) = check_verdict(pos, cycle_len) {
        return decided;
    }
    let n = cycle_len;
    let hist = pos.history();
    let moves: Vec<Move> = hist[hist.len() - n..].iter().filter_map(|u| u.mv).collect();
    let stm = pos.side_to_move();
    for _ in 0..n {
        pos.unmake_move();
    }
    let judgement = crate::rules::repetition::judge_cycle_under(pos, &moves, set);
    for &m in &moves {
        pos.make_move(m);
    }
    match judgement.result {
        GameResult::RedWins | GameResult::BlackWins if judgement.result == GameResult::win_for(stm) => {
            CycleOutcome::SideToMoveWins
        }
        GameResult::RedWins | GameResult::BlackWins => CycleOutcome::SideToMoveLoses,
        GameResult::Draw | GameResult::Ongoing => CycleOutcome::Draw,
    }
}

/// The verdict on the cycle of `cycle_len` plies ending at `pos` when the history alone decides it, at no
/// board work: not a real cycle (odd, too short or too long, not back to the same key, through a null
/// move or a capture: a draw), or one side checked with every move (art. 26.1; both: a draw). `None`:
/// the chases decide. The cheap and the referee's verdicts agree on these, so both start here.
pub fn check_verdict(pos: &Position, cycle_len: usize) -> Option<CycleOutcome> {
    let hist = pos.history();
    let n = cycle_len;
    if n < 4 || !n.is_multiple_of(2) || n > hist.len() {
        return Some(CycleOutcome::Draw);
    }
    let tail = &hist[hist.len() - n..];
    if tail[0].key != pos.key() || tail.iter().any(|u| u.mv.is_none() || u.captured.is_some()) {
        return Some(CycleOutcome::Draw);
    }
    let stm = pos.side_to_move();
    let mut all_checks = [true; 2];
    for i in 0..n {
        if !gave_check(pos, tail, i) {
            all_checks[mover(stm, n, i).index()] = false;
        }
    }
    match (all_checks[stm.index()], all_checks[(!stm).index()]) {
        (true, true) => Some(CycleOutcome::Draw),
        (true, false) => Some(CycleOutcome::SideToMoveLoses),
        (false, true) => Some(CycleOutcome::SideToMoveWins),
        (false, false) => None,
    }
}

/// Who played move `i` of an `n`-ply cycle ending with `stm` to move: the side to move when n-1-i is odd
/// (the last move was the opponent's).
fn mover(stm: Color, n: usize, i: usize) -> Color {
    if (n - 1 - i).is_multiple_of(2) {
        !stm
    } else {
        stm
    }
}

/// Whether move `i` of the cycle `tail` (ending at `pos`) gave check: each `Undo` keeps the checkers before
/// its move, so the checkers after a move are in the next entry.
fn gave_check(pos: &Position, tail: &[Undo], i: usize) -> bool {
    if i + 1 < tail.len() {
        tail[i + 1].checkers.nonempty()
    } else {
        pos.in_check()
    }
}

/// For each side: every move a check or a chase, with one target chased on all the chasing moves; with
/// `checks_break` (the Asian rules) every move a chase, none a check.
fn chases(pos: &Position, tail: &[Undo], stm: Color, checks_break: bool) -> [bool; 2] {
    let n = tail.len();
    let moves: Vec<Move> = tail.iter().filter_map(|u| u.mv).collect();
    // The board at the start of the cycle: undo the moves (no captures) on a copy of the piece array.
    let mut board: [Option<Piece>; 90] = [None; 90];
    for sq in pos.occupied() {
        board[sq.index()] = pos.piece_at(sq);
    }
    for m in moves.iter().rev() {
        board[m.from().index()] = board[m.to().index()].take();
    }
    let mut p = Position::empty();
    // origin[sq]: bit of the point the piece on sq stood on at the start (identity through the cycle).
    let mut origin = [0u128; 90];
    for (i, pc) in board.iter().enumerate() {
        if let Some(pc) = *pc {
            let sq = crate::types::Square::from_index(i as u8);
            p.put(pc, sq);
            origin[i] = 1u128 << i;
        }
    }
    p.set_state(stm, 0, 1);
    let mut forbidden = [true; 2];
    let mut common = [u128::MAX; 2];
    for (i, &m) in moves.iter().enumerate() {
        let side = mover(stm, n, i);
        let s = side.index();
        let check = gave_check(pos, tail, i);
        if check && checks_break {
            forbidden[s] = false;
        }
        let chase_needed = forbidden[s] && !check;
        let before = if chase_needed { cheap_threats(&p, side) } else { Bitboard::EMPTY };
        p.make_move(m);
        origin[m.to().index()] = origin[m.from().index()];
        origin[m.from().index()] = 0;
        if chase_needed {
            let new = cheap_threats(&p, side) & !before;
            common[s] &= new.into_iter().fold(0u128, |acc, sq| acc | origin[sq.index()]);
            if common[s] == 0 {
                forbidden[s] = false;
                if !forbidden[0] && !forbidden[1] {
                    break;
                }
            }
        }
    }
    forbidden
}

/// Enemy pieces with material value that `side`'s rook, horse, cannon, advisor or elephant attacks,
/// undefended or worth more than the cheapest such attacker (static; see the module's approximations).
fn cheap_threats(p: &Position, side: Color) -> Bitboard {
    let them = !side;
    let no_capturer = p.pieces(side, PieceKind::King) | p.pieces(side, PieceKind::Pawn);
    let their_king = p.pieces(them, PieceKind::King);
    let mut out = Bitboard::EMPTY;
    for sq in p.color_pieces(them) & !their_king {
        let Some(target) = p.piece_at(sq) else { continue };
        let value = rule_value(target, sq);
        if value == 0 {
            continue;
        }
        let attackers = p.attackers_to(sq, side) & !no_capturer;
        if attackers.is_empty() {
            continue;
        }
        // A king protects only by a step, not along the file.
        let defenders = (p.attackers_to(sq, them) & !their_king) | (KING_ATTACKS[sq.index()] & their_king);
        let cheaper =
            || attackers.into_iter().any(|a| p.piece_at(a).is_some_and(|pc| rule_value(pc, a) < value));
        if defenders.is_empty() || cheaper() {
            out = out.with(sq);
        }
    }
    out
}
