//! `chuhan-tune`: self-play data, Texel tuning of the evaluation weights, and small in-process matches.
//!
//! ```text
//! chuhan-tune selfplay --games 200 --depth 3 --out target/tune/data.txt
//! chuhan-tune tune --data target/tune/data.txt --out target/tune/weights.rs
//! chuhan-tune match --games 40 --a target/tune/weights.rs --b full
//! chuhan-tune write --out eval/src/weights.rs
//! ```

use clap::{Parser, Subcommand};
use engine::search::Searcher;
use engine::{Evaluate, Position};
use eval::tune::features::WeightedEvaluator;
use eval::tune::games::{play, random_opening, GameConfig, GameResult, MatchScore};
use eval::tune::texel::{load, tune, TexelConfig};
use eval::tune::{source, Rng};
use eval::weights::WEIGHTS;
use eval::{Evaluator, MgEg};
use rayon::prelude::*;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

#[derive(Parser)]
#[command(name = "chuhan-tune", about = "Self-play, Texel tuning and quick matches for chuhan's evaluation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone)]
struct Play {
    /// Search depth per move.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Random legal moves from the start position before the searches play.
    #[arg(long, default_value_t = 6)]
    random_plies: usize,
    /// Seed for the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (games run in parallel).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

impl Play {
    fn config(&self) -> GameConfig {
        GameConfig {
            depth: self.depth,
            random_plies: self.random_plies,
            max_plies: self.max_plies,
            ..Default::default()
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Play self-play games with the compiled-in evaluation and write `fen;result;game` lines.
    Selfplay {
        /// Number of games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Output file.
        #[arg(long, default_value = "target/tune/data.txt")]
        out: PathBuf,
        #[command(flatten)]
        play: Play,
    },
    /// Fit K and the tunable weights to a data file; write the weights as Rust source.
    Tune {
        /// Data file from `selfplay`.
        #[arg(long, default_value = "target/tune/data.txt")]
        data: PathBuf,
        /// Starting weights (a weights.rs); default: the compiled-in ones.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Where to write the tuned weights.rs.
        #[arg(long, default_value = "target/tune/weights.rs")]
        out: PathBuf,
        /// Adam steps.
        #[arg(long, default_value_t = TexelConfig::default().iterations)]
        iterations: usize,
        /// Adam step size (internal units).
        #[arg(long, default_value_t = TexelConfig::default().learning_rate)]
        learning_rate: f64,
        /// Pull toward the starting weights.
        #[arg(long, default_value_t = TexelConfig::default().regularization)]
        regularization: f64,
        /// Every n-th game is held out for validation (0: none).
        #[arg(long, default_value_t = TexelConfig::default().validation_every)]
        validation_every: u32,
    },
    /// Play a match between two evaluations (each opening twice, colours swapped).
    Match {
        /// Number of games (rounded up to even).
        #[arg(long, default_value_t = 40)]
        games: usize,
        /// First evaluation: `full`, `basic` (material + PST) or a weights.rs file.
        #[arg(long, default_value = "full")]
        a: String,
        /// Second evaluation, as for --a.
        #[arg(long, default_value = "basic")]
        b: String,
        #[command(flatten)]
        play: Play,
    },
    /// Write the compiled-in weights in the generated format.
    Write {
        /// Output file.
        #[arg(long, default_value = "eval/src/weights.rs")]
        out: PathBuf,
    },
}

/// An evaluation chosen on the command line.
#[derive(Clone)]
enum AnyEval {
    Fixed(Evaluator),
    Weighted(WeightedEvaluator),
}

impl Evaluate for AnyEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            AnyEval::Fixed(e) => e.evaluate(pos),
            AnyEval::Weighted(e) => e.evaluate(pos),
        }
    }
}

fn read_weights(path: &Path) -> Result<Vec<MgEg>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    source::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_eval(spec: &str) -> Result<AnyEval, String> {
    match spec {
        "full" => Ok(AnyEval::Fixed(Evaluator::default())),
        "basic" => Ok(AnyEval::Fixed(Evaluator::material_and_pst())),
        path => {
            let w = read_weights(Path::new(path))?;
            WeightedEvaluator::new(w)
                .map(AnyEval::Weighted)
                .ok_or_else(|| format!("{path}: wrong weight count"))
        }
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(|e| e.to_string())
}

fn selfplay(games: usize, out: &Path, play_args: &Play) -> Result<(), String> {
    let config = play_args.config();
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let results: Vec<_> = pool(play_args.threads)?.install(|| {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let mut rng = Rng::new(play_args.seed.wrapping_mul(1_000_003).wrapping_add(g as u64));
                let opening = random_opening(&mut rng, config.random_plies);
                let mut red = Searcher::new(Evaluator::default());
                let mut black = Searcher::new(Evaluator::default());
                let game = play(&opening, &mut red, &mut black, &config);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!(
                    "game {n}/{games}: {:?} ({}, {} plies, {} positions) {:.0}s",
                    game.outcome,
                    game.reason,
                    game.plies,
                    game.quiet_positions.len(),
                    start.elapsed().as_secs_f64()
                );
                game
            })
            .collect()
    });
    let mut text = format!(
        "# chuhan-tune selfplay: {games} games, depth {}, {} random plies, seed {}\n",
        config.depth, config.random_plies, play_args.seed
    );
    let (mut red, mut draws, mut black, mut positions) = (0, 0, 0, 0);
    for (g, game) in results.iter().enumerate() {
        match game.outcome {
            GameResult::RedWin => red += 1,
            GameResult::Draw => draws += 1,
            GameResult::BlackWin => black += 1,
        }
        for fen in &game.quiet_positions {
            text.push_str(&format!("{fen};{};{g}\n", game.outcome.red_score()));
            positions += 1;
        }
    }
    write_file(out, &text)?;
    println!(
        "{games} games (Red {red}, draws {draws}, Black {black}), {positions} positions -> {} in {:.0}s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_tune(data: &Path, weights: Option<&Path>, out: &Path, config: &TexelConfig) -> Result<(), String> {
    let start_weights = match weights {
        Some(p) => read_weights(p)?,
        None => WEIGHTS.to_vec(),
    };
    let text = std::fs::read_to_string(data).map_err(|e| format!("cannot read {}: {e}", data.display()))?;
    let samples = load(&text, &start_weights).map_err(|e| format!("{}: {e}", data.display()))?;
    if samples.is_empty() {
        return Err(format!("{}: no positions", data.display()));
    }
    eprintln!("{} positions loaded; tuning {} steps", samples.len(), config.iterations);
    let fit =
        tune(&samples, &start_weights, config, |step, err| eprintln!("step {step}: training error {err:.6}"));
    println!("{fit}");
    write_file(out, &source::render(&fit.weights))?;
    println!("tuned weights -> {}", out.display());
    Ok(())
}

fn run_match(games: usize, a: &str, b: &str, play_args: &Play) -> Result<(), String> {
    let (ea, eb) = (parse_eval(a)?, parse_eval(b)?);
    let config = play_args.config();
    let pairs = games.div_ceil(2);
    let start = Instant::now();
    let results: Vec<[GameResult; 2]> = pool(play_args.threads)?.install(|| {
        (0..pairs)
            .into_par_iter()
            .map(|g| {
                let mut rng = Rng::new(play_args.seed.wrapping_mul(7_919).wrapping_add(g as u64));
                let opening = random_opening(&mut rng, config.random_plies);
                let (mut sa, mut sb) = (Searcher::new(ea.clone()), Searcher::new(eb.clone()));
                let first = play(&opening, &mut sa, &mut sb, &config).outcome;
                let second = play(&opening, &mut sb, &mut sa, &config).outcome;
                eprintln!("pair {g}: a as Red {first:?}, a as Black {second:?}");
                [first, second]
            })
            .collect()
    });
    let mut score = MatchScore::default();
    for [first, second] in results {
        for (outcome, a_is_red) in [(first, true), (second, false)] {
            match (outcome, a_is_red) {
                (GameResult::Draw, _) => score.draws += 1,
                (GameResult::RedWin, true) | (GameResult::BlackWin, false) => score.wins += 1,
                _ => score.losses += 1,
            }
        }
    }
    let (elo, margin) = score.elo();
    println!(
        "{a} vs {b}: +{} ={} -{} ({:.1}%), Elo {elo:+.0} ± {margin:.0}, depth {}, {:.0}s",
        score.wins,
        score.draws,
        score.losses,
        100.0 * score.fraction(),
        config.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Selfplay { games, out, play } => selfplay(games, &out, &play),
        Command::Tune { data, weights, out, iterations, learning_rate, regularization, validation_every } => {
            let config = TexelConfig { iterations, learning_rate, regularization, validation_every };
            run_tune(&data, weights.as_deref(), &out, &config)
        }
        Command::Match { games, a, b, play } => run_match(games, &a, &b, &play),
        Command::Write { out } => write_file(&out, &source::render(&WEIGHTS)),
    };
    let _ = std::io::stdout().flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhan-tune: {e}");
            ExitCode::FAILURE
        }
    }
}
