//! The bench: a fixed-depth search of fixed positions from a fresh table. With one thread the total node
//! count is deterministic and serves as the build's signature (`Bench: N` in commit messages).

use crate::clock::Instant;
use crate::evaluate::Evaluate;
use crate::position::Position;
use crate::search::{Limits, SearchControl, SearchOptions, SearchParams, Searcher, SilentReporter};
use std::time::Duration;

/// The 49 bench positions (one FEN a line), shared with other xiangqi engines' benches.
pub const DEFAULT_FENS: &str = include_str!("bench-positions.fen");

/// Default bench depth: one thread takes about 7 s on the development machine with the `eval` crate's
/// evaluator (10 M nodes); with `MaterialEval` the tree is smaller (5 M nodes, about 2.5 s).
pub const DEFAULT_DEPTH: u32 = 16;

/// How to run the bench.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Fixed search depth per position.
    pub depth: u32,
    /// Worker threads.
    pub threads: usize,
    /// Hash size in MiB.
    pub hash_mb: usize,
    /// The search's numbers (the defaults for the signature; others to see how a parameter changes the tree).
    pub params: SearchParams,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig { depth: DEFAULT_DEPTH, threads: 1, hash_mb: 16, params: SearchParams::default() }
    }
}

/// What the bench measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time spent searching (clearing the tables between positions is not counted).
    pub elapsed: Duration,
    /// Number of positions searched.
    pub positions: usize,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// Parses FEN lines (blank lines and `#` comments skipped); the error names the bad line.
pub fn parse_fens(text: &str) -> Result<Vec<Position>, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l).map_err(|e| format!("{e} (in '{l}')")))
        .collect()
}

/// Searches every position from a fresh table, calling `progress(index, position, nodes)` after each.
pub fn run<E: Evaluate>(
    eval: E,
    positions: &[Position],
    config: &BenchConfig,
    mut progress: impl FnMut(usize, &Position, u64),
) -> BenchReport {
    let mut searcher = Searcher::new(eval);
    searcher.set_options(SearchOptions {
        hash_mb: config.hash_mb,
        threads: config.threads,
        ..Default::default()
    });
    searcher.set_params(config.params.clone());
    let limits = Limits { depth: Some(config.depth), ..Default::default() };
    let control = SearchControl::new();
    let mut elapsed = Duration::ZERO;
    let mut nodes = 0;
    for (i, pos) in positions.iter().enumerate() {
        // Every position starts from empty tables (so each count is its own), but the clearing is not
        // search and is left out of the time, as Fairy-Stockfish's bench leaves out its `ucinewgame`.
        searcher.clear();
        control.reset(false);
        let start = Instant::now();
        let result = searcher.search(pos, &limits, &mut SilentReporter, &control);
        elapsed += start.elapsed();
        nodes += result.nodes;
        progress(i, pos, result.nodes);
    }
    BenchReport { nodes, elapsed, positions: positions.len() }
}
