//! The command-line tools other than the protocol loop: their arguments and what they print. `main.rs`
//! only parses and dispatches here.

use crate::evaluator::EngineEval;
use engine::clock::Instant;
use engine::Position;
use std::path::PathBuf;
use std::process::ExitCode;

/// `chuhan perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print `move: count` for each root move.
    #[arg(long)]
    pub divide: bool,
    /// Split the root moves over this many threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// `chuhan bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(long, default_value_t = engine::bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// Worker threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash size in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// File of FENs, one a line (default: the built-in 49 positions).
    #[arg(long)]
    pub fens: Option<PathBuf>,
    /// The evaluation: `nnue` (the learned network, what the engine plays with by default) or `classical`
    /// (handcrafted).
    #[arg(long, default_value = crate::options::DEFAULT_EVAL, value_parser = crate::options::EVAL_CHOICES.to_vec())]
    pub eval: String,
    /// The network file for `--eval nnue` (default: the built-in network).
    #[arg(long)]
    pub evalfile: Option<PathBuf>,
}

/// Runs `chuhan perft`: the counts and the speed on stdout, the time on stderr (as `chuhan bench`).
pub fn perft(args: PerftArgs) -> ExitCode {
    let parsed = args.fen.as_deref().map(Position::from_composed_fen);
    let pos = match parsed
        .unwrap_or_else(|| Ok(engine::fen::Composed { position: Position::startpos(), unreachable: vec![] }))
    {
        Ok(c) => {
            if let Some(w) = c.warning() {
                eprintln!("chuhan perft: {w}");
            }
            c.position
        }
        Err(e) => {
            eprintln!("chuhan perft: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let lines = crate::tools::perft_lines(&pos, args.depth, args.threads, args.divide);
    eprintln!("Total time (ms): {}", start.elapsed().as_millis());
    for line in &lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// Runs `chuhan bench`: progress on stderr, `Nodes searched` and `Nodes/second` on stdout.
pub fn bench(args: BenchArgs) -> ExitCode {
    let text = match &args.fens {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("chuhan bench: cannot read {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => engine::bench::DEFAULT_FENS.to_string(),
    };
    let evaluator = if args.eval == crate::options::EVAL_NNUE {
        let net = match eval::nnue::network_from(args.evalfile.as_deref()) {
            Ok(net) => net,
            Err(e) => {
                let path = args.evalfile.as_deref().unwrap_or(std::path::Path::new(""));
                eprintln!("chuhan bench: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        EngineEval::Nnue(eval::nnue::Nnue::new(net))
    } else {
        EngineEval::Classical(eval::Evaluator::default())
    };
    let config = engine::bench::BenchConfig { depth: args.depth, threads: args.threads, hash_mb: args.hash };
    match crate::tools::bench_lines(&text, &config, evaluator) {
        Ok(lines) => {
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("chuhan bench: {e}");
            ExitCode::FAILURE
        }
    }
}
