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
        None => ExitCode::SUCCESS,
    }
}
