//! The `chuhan` binary: the protocol loop and the command-line tools. A thin front end: each subcommand
//! is one line dispatching to a function in the library.

use clap::{Parser, Subcommand};
use protocol::cli;
use std::path::PathBuf;
use std::process::ExitCode;

const EXAMPLES: &str = "\
Examples:
  chuhan                              start the engine; then type `uci` or `ucci`
  chuhan --log chuhan.log             the same, logging the conversation with the GUI to a file
  chuhan perft 5                      Nodes searched: 133312995, then Nodes/second
  chuhan perft 3 --fen \"<FEN>\" --divide
  chuhan bench                        the bench signature: Nodes searched: N
  chuhan egtb generate KRKAA --dir tb endgame tablebases (and `egtb probe --dir tb --fen \"<FEN>\"`)
  printf 'position startpos moves h2e2\\nd\\nperft 2\\n' | chuhan";

#[derive(Parser)]
#[command(name = "chuhan", version, about = "chuhan (楚汉), a xiangqi engine speaking UCCI and UCI", after_help = EXAMPLES)]
struct Cli {
    /// Write logs to FILE (the level comes from RUST_LOG; default debug, which records every line).
    #[arg(long, global = true, value_name = "FILE")]
    log: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree.
    Perft(cli::PerftArgs),
    /// Search the bench positions to a fixed depth; prints the node count (the build's signature).
    Bench(cli::BenchArgs),
    /// Judge a game (by the Chinese rules unless `--rules` says otherwise): prints `<result> <reason>`.
    Judge(arena::judge::JudgeArgs),
    /// Endgame tablebases: generate, probe, list (see `chuhan egtb --help`).
    Egtb(protocol::egtb_cli::EgtbArgs),
    /// Play engine-vs-engine matches (see `chuhan match --help`).
    #[command(disable_help_flag = true)]
    Match {
        /// Match arguments, parsed by the match runner.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let args = Cli::parse();
    if let Err(e) = protocol::logging::init(args.log.as_deref()) {
        eprintln!("chuhan: {e}");
        return ExitCode::FAILURE;
    }
    match args.command {
        None => protocol::session::run_stdio(),
        Some(Command::Perft(a)) => cli::perft(a),
        Some(Command::Bench(a)) => cli::bench(a),
        Some(Command::Judge(a)) => arena::judge::command(a),
        Some(Command::Egtb(a)) => protocol::egtb_cli::command(a),
        Some(Command::Match { args }) => arena::run(args),
    }
}
