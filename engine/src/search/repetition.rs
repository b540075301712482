//! Draws and repetitions inside the search tree.
//!
//! A position that repeats one seen earlier (in the game or in the current line, with no capture and no
//! null move in between) ends the line, and the cycle between the two occurrences decides the score:
//! - one side checked with every one of its moves in the cycle and the other did not: the checker loses
//!   (perpetual check is forbidden, docs/rules.md, art. 26.1);
//! - both sides checked on every move (mutual perpetual check): a draw;
//! - one side chased one piece on every move (static approximation, see `rules::cycle`) while the other
//!   side's moves were allowed: the chaser loses;
//! - otherwise a draw.
//!
//! Approximations (listed in docs/rules.md, "Approximations named in the code"): the first repetition
//! is judged at once, not the third;
//! perpetual mate threats are not recognised and score as draws; chases are counted statically.

use super::MATE;
use crate::position::Position;
use crate::rules::cycle::{check_verdict, cycle_outcome_under, referee_cycle_outcome_under, CycleOutcome};
use crate::rules::limit::NATURAL_LIMIT_PLIES;
use crate::rules::set::RuleSet;

/// The most plies of game history the search reads: a repetition needs a stretch without captures, and
/// once that stretch is this long the game is drawn by the move limit before any repetition is looked for.
/// Callers may drop older history ([`Position::keep_recent_history`]) without changing any search.
pub const HISTORY_PLIES: usize = NATURAL_LIMIT_PLIES as usize;

/// Repetitions found this close to the root are judged by the referee's full classification
/// ([`referee_cycle_outcome`]); deeper ones by the cheap static one ([`cycle_outcome`]). The moves near
/// the root are the ones the engine is about to play, so there the search must see what the referee will
/// say; deeper cycles are hypothetical, far more numerous, and come within reach as the game goes on.
/// Measured (callgrind, `chuhan bench --depth 11`): +0.9% instructions per node with this bound, +17% with
/// the referee at every ply.
pub const REFEREE_PLIES: usize = 4;

/// If the current position repeats an earlier one, the score of the cycle for the side to move at `ply`
/// (a rule loss scores like being mated here, a rule win like mating next move).
pub fn cycle_score(pos: &mut Position, ply: usize, cache: &mut CycleCache) -> Option<i32> {
    cycle_score_under(pos, ply, cache, RuleSet::Chinese)
}

/// [`cycle_score`] under the rule set `set` (docs/rules.md, "Rule sets").
#[inline]
pub fn cycle_score_under(
    pos: &mut Position,
    ply: usize,
    cache: &mut CycleCache,
    set: RuleSet,
) -> Option<i32> {
    let cycle_len = repeated_cycle_len(pos)?;
    // It runs only when a repetition has been found.
    let outcome = if ply <= REFEREE_PLIES {
        cache.referee_outcome_under(pos, cycle_len, set)
    } else {
        // Exact for perpetual check, a static approximation for perpetual chase (listed in `rules::cycle`).
        cycle_outcome_under(pos, cycle_len, set)
    };
    Some(match outcome {
        CycleOutcome::Draw => 0,
        CycleOutcome::SideToMoveLoses => -MATE + ply as i32,
        CycleOutcome::SideToMoveWins => MATE - ply as i32 - 1,
    })
}

/// The referee's verdicts on the cycles one search thread has met, so each cycle is classified once
/// however often the search comes back to it. A verdict depends only on the positions of the cycle, which
/// the signature below names.
pub struct CycleCache {
    slots: Vec<Option<(u64, CycleOutcome)>>,
}

impl Default for CycleCache {
    fn default() -> Self {
        CycleCache { slots: vec![None; Self::SLOTS] }
    }
}

impl CycleCache {
    const SLOTS: usize = 256;

    /// The referee's verdict on the cycle of `cycle_len` plies that ends at `pos`.
    pub fn referee_outcome(&mut self, pos: &mut Position, cycle_len: usize) -> CycleOutcome {
        self.referee_outcome_under(pos, cycle_len, RuleSet::Chinese)
    }

    /// [`CycleCache::referee_outcome`] under the rule set `set` (each set's verdicts kept apart).
    pub fn referee_outcome_under(
        &mut self,
        pos: &mut Position,
        cycle_len: usize,
        set: RuleSet,
    ) -> CycleOutcome {
        // Perpetual check (and a cycle that is no real repetition) is read exactly and at no cost from the
        // history; only the rest needs the referee.
        if let Some(decided) = check_verdict(pos, cycle_len) {
            return decided;
        }
        let hist = pos.history();
        let signature = hist[hist.len() - cycle_len..]
            .iter()
            .fold(pos.key(), |h, u| (h ^ u.key).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29))
            ^ set as u64;
        let slot = (signature as usize) % Self::SLOTS;
        if let Some((sig, outcome)) = self.slots[slot] {
            if sig == signature {
                return outcome;
            }
        }
        let outcome = referee_cycle_outcome_under(pos, cycle_len, set);
        self.slots[slot] = Some((signature, outcome));
        outcome
    }
}

/// The length of the shortest cycle that brings the game back to the current position, looking no further
/// back than the last capture or null move.
#[inline]
pub fn repeated_cycle_len(pos: &Position) -> Option<usize> {
    let history = pos.history();
    let n = history.len();
    let reach = (pos.halfmove_clock() as usize).min(n);
    if reach < 4 {
        return None;
    }
    let key = pos.key();
    let mut i = 2;
    while i <= reach {
        let u = &history[n - i];
        // A null move breaks the chain of real moves; the move before it is at distance i - 1.
        if u.mv.is_none() || history[n - i + 1].mv.is_none() {
            return None;
        }
        if i >= 4 && u.key == key {
            return Some(i);
        }
        i += 2;
    }
    None
}

/// Whether the no-capture limit has drawn the game (a side with no legal move still loses: see the search).
#[inline(always)]
pub fn natural_limit_reached(pos: &Position) -> bool {
    pos.halfmove_clock() >= NATURAL_LIMIT_PLIES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::cycle::cycle_outcome;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).expect("valid fen");
        for m in moves.split_whitespace() {
            pos.try_play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        pos
    }

    #[test]
    fn idle_shuffle_is_a_draw() {
        let pos = play(crate::position::START_FEN, "b0c2 b9c7 c2b0 c7b9");
        assert_eq!(repeated_cycle_len(&pos), Some(4));
        assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::Draw);
        assert_eq!(cycle_score(&mut pos.clone(), 7, &mut CycleCache::default()), Some(0));
        let pos = play(crate::position::START_FEN, "b0c2 b9c7 c2b0");
        assert_eq!(cycle_score(&mut pos.clone(), 7, &mut CycleCache::default()), None);
    }

    #[test]
    fn one_sided_perpetual_check_loses_for_the_checker() {
        // The red rook checks along the d and e files; the black king steps between d9 and e9 (its moves
        // give no check; f9 would face the red king). After four plies the position repeats with Red to move: Red is the checker.
        let pos = play("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1", "e1d1 d9e9 d1e1 e9d9");
        assert_eq!(repeated_cycle_len(&pos), Some(4));
        assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveLoses);
        assert_eq!(cycle_score(&mut pos.clone(), 6, &mut CycleCache::default()), Some(-MATE + 6));
        // One ply later (Black to move, the cycle seen from black's side): the opponent was the checker.
        let pos = play("3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1", "e1d1 d9e9 d1e1 e9d9 e1d1");
        assert_eq!(repeated_cycle_len(&pos), Some(4));
        assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveWins);
    }

    #[test]
    fn perpetual_chase_loses_for_the_chaser() {
        // The red horse chases the unprotected black rook round e4/f4; at the repetition Red (the chaser) is
        // to move and loses; one ply on, Black is to move and wins.
        let line = "c3d5 f4e4 d5c3 e4f4";
        let pos = play("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", line);
        assert_eq!(repeated_cycle_len(&pos), Some(4));
        assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveLoses);
        let pos = play("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1", &format!("{line} c3d5"));
        assert_eq!(cycle_outcome(&pos, 4), CycleOutcome::SideToMoveWins);
    }

    #[test]
    fn a_capture_or_null_move_breaks_the_cycle() {
        let mut pos = play(crate::position::START_FEN, "b0c2 b9c7 c2b0 c7b9");
        assert!(repeated_cycle_len(&pos).is_some());
        pos.make_null_move();
        pos.make_null_move();
        assert_eq!(repeated_cycle_len(&pos), None);
    }

    #[test]
    fn history_beyond_the_move_limit_is_never_read() {
        // A long shuffle, then a capture-free stretch just short of the limit ending in a repetition.
        let shuffle = "b0c2 b9c7 c2b0 c7b9 ".repeat(500);
        let mut pos = play(crate::position::START_FEN, &shuffle);
        assert!(natural_limit_reached(&pos));
        let mut trimmed = pos.clone();
        trimmed.keep_recent_history(HISTORY_PLIES);
        assert_eq!(trimmed.history().len(), HISTORY_PLIES);
        assert_eq!((trimmed.key(), trimmed.halfmove_clock()), (pos.key(), pos.halfmove_clock()));
        pos = play(
            crate::position::START_FEN,
            &format!("{shuffle} h2h9 {}", "i9i8 b0c2 i8i9 c2b0 ".repeat(29)),
        );
        assert_eq!(pos.halfmove_clock(), 116);
        let mut trimmed = pos.clone();
        trimmed.keep_recent_history(HISTORY_PLIES);
        assert_eq!(repeated_cycle_len(&trimmed), repeated_cycle_len(&pos));
        assert_eq!(
            cycle_score(&mut trimmed.clone(), 3, &mut CycleCache::default()),
            cycle_score(&mut pos.clone(), 3, &mut CycleCache::default())
        );
        assert!(repeated_cycle_len(&pos).is_some());
    }

    #[test]
    fn natural_limit() {
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 119 80").expect("valid");
        assert!(!natural_limit_reached(&pos));
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 120 80").expect("valid");
        assert!(natural_limit_reached(&pos));
    }
}
