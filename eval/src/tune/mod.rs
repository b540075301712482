//! Texel tuning of the weights from the engine's own games.
//!
//! The pipeline: [`games`] plays fixed-depth self-play games from varied openings and records quiet
//! positions with the game's result; [`features`] turns each position into the counts every weight is
//! multiplied by (the evaluation is linear in its weights, up to the phase taper and the draw scale, which
//! are fixed per position); [`texel`] fits the logistic scale K, then the weights by gradient descent on
//! the squared error between result and `sigmoid(K * eval)`; [`source`] writes the weights back as the
//! Rust file `weights.rs`. The `chuhan-tune` binary drives it (see scripts/tune.sh).

pub mod features;
pub mod games;
pub mod source;
pub mod texel;

/// A small deterministic generator (xorshift64), so runs are reproducible without extra crates.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; zero is replaced).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}
