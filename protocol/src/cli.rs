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
    /// A search parameter other than its default, `NAME=VALUE` (repeatable; the names of `tune.<name>`):
    /// how much it changes the tree to a fixed depth.
    #[arg(long, value_name = "NAME=VALUE")]
    pub tune: Vec<String>,
}

/// The search parameters with each `NAME=VALUE` of `--tune` applied; the error names the first bad one.
pub fn tuned_params(pairs: &[String]) -> Result<engine::search::SearchParams, String> {
    let mut params = engine::search::SearchParams::default();
    for pair in pairs {
        let (name, value) =
            pair.split_once('=').ok_or_else(|| format!("--tune '{pair}' is not NAME=VALUE"))?;
        let tunable = engine::search::SearchParams::TUNABLES
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| format!("--tune: no search parameter '{name}'"))?;
        let value: i32 =
            value.parse().map_err(|_| format!("--tune {name}: '{value}' is not a whole number"))?;
        if !(tunable.min..=tunable.max).contains(&value) {
            return Err(format!("--tune {name}: {value} is out of range ({}..{})", tunable.min, tunable.max));
        }
        params.set(name, value);
    }
    Ok(params)
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
    let params = match tuned_params(&args.tune) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chuhan bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let config =
        engine::bench::BenchConfig { depth: args.depth, threads: args.threads, hash_mb: args.hash, params };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluator::new_evaluator;
    use engine::bench::BenchConfig;

    #[test]
    fn tune_pairs_are_checked_one_by_one() {
        let p = tuned_params(&["lmr_pv=0".into(), "rfp_margin=80".into()]).expect("valid pairs");
        assert_eq!((p.get("lmr_pv"), p.get("rfp_margin")), (Some(0), Some(80)));
        assert_eq!(tuned_params(&[]), Ok(engine::search::SearchParams::default()));
        for (bad, says) in [
            ("lmr_pv", "is not NAME=VALUE"),
            ("bogus=1", "no search parameter 'bogus'"),
            ("lmr_pv=x", "'x' is not a whole number"),
            ("lmr_pv=9", "9 is out of range (0..2)"),
        ] {
            let e = tuned_params(&["rfp_margin=80".into(), bad.into()]).expect_err(bad);
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn a_tuned_bench_searches_another_tree() {
        let nodes = |pairs: &[String]| {
            let params = tuned_params(pairs).expect("valid pairs");
            let config = BenchConfig { depth: 7, threads: 1, hash_mb: 1, params };
            let lines = crate::tools::bench_lines(engine::position::START_FEN, &config, new_evaluator())
                .expect("the start position");
            lines[0].clone()
        };
        let default = nodes(&[]);
        assert_eq!(nodes(&["lmr_pv=1".into()]), default, "lmr_pv=1 is the default");
        assert_ne!(nodes(&["lmr_base=0".into(), "lmr_divisor=350".into()]), default);
    }
}
