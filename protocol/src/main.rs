//! The `chuhan` binary: the protocol loop and the command-line tools.

use clap::{Parser, Subcommand};
use engine::Position;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "chuhan", version, about = "chuhan (楚汉), a xiangqi engine speaking UCCI and UCI")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print `move: count` for each root move.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search the bench positions to a fixed depth; prints the node count (the build's signature).
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = engine::bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Hash size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// File of FENs, one a line (default: the built-in 49 positions).
        #[arg(long)]
        fens: Option<std::path::PathBuf>,
    },
    /// Play engine-vs-engine matches (see `chuhan match --help`).
    #[command(disable_help_flag = true)]
    Match {
        /// Match arguments, parsed by the match runner.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Judge a game by the Chinese rules: prints `<result> <reason>`.
    Judge {
        /// Start position (FEN or `startpos`; default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// The moves, in ICCS (`h2e2`) or Chinese notation (`炮二平五`).
        #[arg(long, num_args = 0.., allow_hyphen_values = true)]
        moves: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide, threads }) => {
            let pos = match fen.as_deref().map(Position::from_fen).unwrap_or_else(|| Ok(Position::startpos()))
            {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("chuhan perft: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let start = Instant::now();
            let counts = engine::perft::divide(&pos, depth.max(1), threads);
            let total: u64 = if depth == 0 { 1 } else { counts.iter().map(|c| c.1).sum() };
            if divide {
                for (m, n) in &counts {
                    println!("{m}: {n}");
                }
            }
            println!("Nodes searched: {total}");
            let secs = start.elapsed().as_secs_f64();
            eprintln!("Time: {:.3} s, Nodes/second: {:.0}", secs, total as f64 / secs.max(1e-9));
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth, threads, hash, fens }) => {
            let text = match fens {
                Some(path) => match std::fs::read_to_string(&path) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("chuhan bench: cannot read {}: {e}", path.display());
                        return ExitCode::FAILURE;
                    }
                },
                None => engine::bench::DEFAULT_FENS.to_string(),
            };
            let positions = match engine::bench::parse_fens(&text) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("chuhan bench: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let config = engine::bench::BenchConfig { depth, threads, hash_mb: hash };
            let report =
                engine::bench::run(engine::evaluate::MaterialEval, &positions, &config, |i, pos, n| {
                    eprintln!("Position {}/{}: {} nodes  {}", i + 1, positions.len(), n, pos.to_fen());
                });
            eprintln!("Total time (ms): {}", report.elapsed.as_millis());
            println!("Nodes searched: {}", report.nodes);
            println!("Nodes/second: {}", report.nps());
            ExitCode::SUCCESS
        }
        Some(Command::Match { args }) => protocol::matchrunner::run(args),
        Some(Command::Judge { fen, moves }) => ExitCode::from(protocol::judge::run(
            fen.as_deref(),
            &moves,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        )),
        None => ExitCode::SUCCESS,
    }
}
