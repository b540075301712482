//! The developer tools shared by the command line and the protocol loop, so both print the same lines.

use crate::command::BenchArgs;
use crate::evaluator::EngineEval;
use engine::bench::{BenchConfig, BenchReport};
use engine::clock::Instant;
use engine::Position;

/// `perft`: one `move: count` line per root move (when `divide`), then `Nodes searched: N` and
/// `Nodes/second: R`, as `bench` ends.
pub fn perft_lines(pos: &Position, depth: u32, threads: usize, divide: bool) -> Vec<String> {
    let start = Instant::now();
    let counts = engine::perft::divide(pos, depth.max(1), threads.max(1));
    let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|c| c.1).sum() };
    let mut lines = Vec::new();
    if divide && depth > 0 {
        lines.extend(counts.iter().map(|(m, n)| format!("{m}: {n}")));
    }
    let secs = start.elapsed().as_secs_f64();
    lines.push(format!("Nodes searched: {total}"));
    lines.push(format!("Nodes/second: {:.0}", total as f64 / secs.max(1e-9)));
    lines
}

/// The bench's configuration: the command line's defaults, overridden by `args`.
pub fn bench_config(args: &BenchArgs) -> BenchConfig {
    let d = BenchConfig::default();
    BenchConfig {
        depth: args.depth.unwrap_or(d.depth),
        threads: args.threads.unwrap_or(d.threads),
        hash_mb: args.hash_mb.unwrap_or(d.hash_mb),
        params: d.params,
    }
}

/// Runs the bench on `fens` (one FEN a line) with `evaluator`; progress goes to stderr, the result lines
/// are returned.
pub fn bench_lines(fens: &str, config: &BenchConfig, evaluator: EngineEval) -> Result<Vec<String>, String> {
    let positions = engine::bench::parse_fens(fens)?;
    let report: BenchReport = engine::bench::run(evaluator, &positions, config, |i, pos, n| {
        eprintln!("Position {}/{}: {} nodes  {}", i + 1, positions.len(), n, pos.to_fen());
    });
    eprintln!("Total time (ms): {}", report.elapsed.as_millis());
    Ok(vec![format!("Nodes searched: {}", report.nodes), format!("Nodes/second: {}", report.nps())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::new_evaluator;

    #[test]
    fn perft_lines_divide_and_total() {
        // The speed line is last and varies; everything before it is exact.
        let counts = |depth, threads, divide| {
            let mut lines = perft_lines(&Position::startpos(), depth, threads, divide);
            let speed = lines.pop().unwrap_or_default();
            assert!(speed.starts_with("Nodes/second: "), "{speed}");
            lines
        };
        let lines = counts(2, 1, true);
        assert_eq!(lines.len(), 45);
        assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
        assert!(lines.contains(&"h2e2: 45".to_string()));
        assert_eq!(counts(0, 1, true), vec!["Nodes searched: 1"]);
        assert_eq!(counts(3, 2, false), vec!["Nodes searched: 79666"]);
    }

    #[test]
    fn bench_reports_nodes() {
        let config = BenchConfig { depth: 2, threads: 1, hash_mb: 1, ..BenchConfig::default() };
        let lines = bench_lines(engine::position::START_FEN, &config, new_evaluator()).unwrap();
        assert!(lines[0].starts_with("Nodes searched: ") && lines[1].starts_with("Nodes/second: "));
        assert!(bench_lines("not a fen", &config, new_evaluator()).is_err());
    }
}
