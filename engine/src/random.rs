//! Reproducible randomness: one small generator for everything that needs variety (weak play, opening
//! plies for self-play, test positions), a seed-mixing one for shuffles, and a random walker that turns a
//! seed into positions.
//!
//! Xorshift64 (shifts 13, 7, 17) is enough: nothing here needs statistical quality beyond "varied", and
//! a seed must give the same stream on every machine so that tests and self-play data are reproducible.

use crate::movegen::MoveList;
use crate::position::Position;
use crate::types::Move;

/// A xorshift64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value): the seed is spread over the bits first, so nearby seeds give
    /// unrelated streams.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A generator whose state is exactly `state` (nonzero): for streams that must not change when the
    /// code around them does, such as the ones tests were written against.
    pub const fn from_state(state: u64) -> Rng {
        Rng(if state == 0 { 1 } else { state })
    }

    /// A generator seeded from the clock and `extra` (for play that should differ from game to game).
    pub fn from_time(extra: u64) -> Rng {
        let nanos = crate::clock::seed_nanos();
        Rng::from_state((nanos ^ extra.rotate_left(17)) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One element of a non-empty slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// SplitMix64: every output is a strong mix of a counter, so consecutive small seeds (0, 1, 2, ... as
/// people type them) still give unrelated streams. `chuhan match` shuffles its openings with it.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// `plies` random legal moves played on `pos` (fewer if a side runs out of moves). Returns how many were
/// played.
pub fn random_plies(pos: &mut Position, rng: &mut Rng, plies: usize) -> usize {
    for played in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return played;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    plies
}

/// Walks `games` games of at most `plies` plies from the start position: `visit` is shown every position
/// that has legal moves, with those moves, and returns the one to play (a game ends early when a side has
/// none). For tests that check something of every move along varied games.
pub fn walk_games(games: usize, plies: usize, mut visit: impl FnMut(&Position, &MoveList) -> Move) {
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = visit(&pos, &moves);
            pos.make_move(m);
        }
    }
}

/// How [`random_positions`] walks.
#[cfg(any(test, feature = "test-support"))]
#[derive(Copy, Clone, Debug)]
pub struct RandomWalk {
    /// Games walked from the start position.
    pub games: usize,
    /// Plies at most in each game.
    pub plies: usize,
    /// About one position in this many is kept.
    pub keep_one_in: u64,
}

/// Positions from random games from the start position, with captures preferred half the time so that
/// endings with few pieces show up too. Each kept position is rebuilt from its FEN (no history). The same
/// generator state gives the same positions. Test support (feature `test-support`).
#[cfg(any(test, feature = "test-support"))]
pub fn random_positions(rng: &mut Rng, walk: RandomWalk) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..walk.games {
        let mut pos = Position::startpos();
        for _ in 0..walk.plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
            let m = if !captures.is_empty() && rng.next_u64().is_multiple_of(2) {
                captures[rng.next_u64() as usize % captures.len()]
            } else {
                moves[rng.next_u64() as usize % moves.len()]
            };
            pos.make_move(m);
            if rng.next_u64().is_multiple_of(walk.keep_one_in) {
                out.push(Position::from_fen(&pos.to_fen()).expect("a position's own FEN parses"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_the_classic_xorshift64() {
        let mut rng = Rng::from_state(1);
        // x ^= x << 13; x ^= x >> 7; x ^= x << 17, from 1.
        assert_eq!(rng.next_u64(), 0x40822041);
        let mut again = Rng::from_state(1);
        again.next_u64();
        assert_eq!(rng.next_u64(), again.next_u64());
    }

    #[test]
    fn same_seed_same_positions() {
        let walk = RandomWalk { games: 3, plies: 40, keep_one_in: 4 };
        let a: Vec<String> = random_positions(&mut Rng::new(5), walk).iter().map(|p| p.to_fen()).collect();
        let b: Vec<String> = random_positions(&mut Rng::new(5), walk).iter().map(|p| p.to_fen()).collect();
        assert_eq!(a, b);
        assert!(!a.is_empty());
    }

    #[test]
    fn random_plies_are_legal_and_counted() {
        let mut pos = Position::startpos();
        assert_eq!(random_plies(&mut pos, &mut Rng::new(9), 6), 6);
        assert_eq!(pos.history().len(), 6);
    }
}
