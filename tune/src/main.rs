//! `chuhan-tune`: self-play data, Texel tuning of the evaluation weights, and small in-process matches.
//!
//! ```text
//! chuhan-tune datagen --games 1000 --nodes 5000 --threads 2 --out target/datagen/games.bin
//! chuhan-tune selfplay --games 200 --depth 3 --out target/tune/data.txt
//! chuhan-tune tune --data target/tune/data.txt --out target/tune/weights.rs
//! chuhan-tune match --games 40 --a target/tune/weights.rs --b full
//! chuhan-tune write --out eval/src/weights.rs
//! chuhan-tune train --data target/datagen/games.bin --out target/nnue/net.nnue
//! ```

use arena::openings::{self, OpeningError};
use arena::stats::{pentanomial, Pentanomial};
use clap::{Parser, Subcommand};
use engine::egtb::{Material, MaterialError};
use engine::random::{random_plies, Rng};
use engine::rules::GameResult;
use engine::search::{Limits, Searcher};
use engine::{Color, Evaluate, Position};
use eval::linear::WeightedEvaluator;
use eval::weights::WEIGHTS;
use eval::{Evaluator, MgEg};
use rayon::prelude::*;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tune::datagen::{self, DatagenConfig, DatagenError};
use tune::endgames::EndgameConfig;
use tune::files::{create_parent, FileError};
use tune::gamefile::{self, GameFileError};
use tune::nnue::{Dataset, TrainConfig};
use tune::selfplay::{play, Adjudication, GameConfig};
use tune::source::{self, SourceError};
use tune::spsa::SpsaError;
use tune::texel::{load, tune, DataError, TexelConfig};

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
            limits: Limits { depth: Some(self.depth), ..Default::default() },
            max_plies: self.max_plies,
            adjudication: Some(Adjudication { score: 2400, plies: 6 }),
        }
    }

    /// The start position of game (or pair) `g`: a few random legal plies from the start position.
    fn opening(&self, salt: u64, g: usize) -> Position {
        let mut rng = Rng::new(self.seed.wrapping_mul(salt).wrapping_add(g as u64));
        let mut pos = Position::startpos();
        random_plies(&mut pos, &mut rng, self.random_plies);
        pos
    }
}

/// The positions a game teaches the Texel tuner: quiet (not in check, the chosen move not a capture),
/// not decided; as FENs with the game's points for Red.
fn quiet_fens(game: &tune::selfplay::Game) -> Vec<String> {
    let record = gamefile::GameRecord::from_game(game);
    gamefile::training_positions(&record).iter().map(|t| t.pos.to_fen()).collect()
}

#[derive(Subcommand)]
enum Command {
    /// Tune the search's parameters by SPSA, playing game pairs through `chuhan match` (resumable).
    Spsa {
        /// The chuhan binary to tune (copy it first: the run uses it throughout).
        #[arg(long, default_value = "target/release/chuhan")]
        engine: PathBuf,
        /// Parameters to tune, comma-separated (default: all of them).
        #[arg(long, value_delimiter = ',')]
        params: Vec<String>,
        /// Planned rounds.
        #[arg(long, default_value_t = 2500)]
        rounds: u64,
        /// Game pairs per round.
        #[arg(long, default_value_t = 2)]
        pairs: u64,
        /// Clock for every game (`chuhan match --tc`).
        #[arg(long, default_value = "2+0.02")]
        tc: String,
        /// Games at once.
        #[arg(long, default_value_t = 2)]
        concurrency: usize,
        /// Opening lines.
        #[arg(long, default_value = "scripts/openings.fen")]
        openings: PathBuf,
        /// Learning rate at the end (a_end / c_end²).
        #[arg(long, default_value_t = 0.002)]
        r_end: f64,
        /// Seed of the perturbations and openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Checkpoint, trajectory and per-round files.
        #[arg(long, default_value = "target/spsa")]
        dir: PathBuf,
    },
    /// Prints an SPSA run's tuned values against the defaults; with `--options`, only the
    /// `option.tune.<name>=<value>` words that differ from the defaults, one a line (for `chuhan match`).
    SpsaValues {
        /// The run's directory (its `state.txt`).
        #[arg(long, default_value = "target/spsa")]
        dir: PathBuf,
        /// Print only the option words.
        #[arg(long)]
        options: bool,
    },
    /// Self-play games at a fixed node budget for training data, appended to a game file (resumable).
    Datagen {
        /// Games the file should hold at the end.
        #[arg(long, default_value_t = DatagenConfig::default().games)]
        games: usize,
        /// Nodes per move.
        #[arg(long, default_value_t = DatagenConfig::default().nodes)]
        nodes: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed: the same seed and settings give the same file.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Opening lines (FEN lines with optional `moves`, or PGN); their order is shuffled by the seed.
        #[arg(long, default_value = "scripts/openings.fen")]
        openings: PathBuf,
        /// Up to this many random legal plies after each opening line.
        #[arg(long, default_value_t = DatagenConfig::default().random_plies)]
        random_plies: usize,
        /// At least this many random plies after each opening line (0 lets a game replay its opening's
        /// game move for move: about a fifth of the games of a long run were such repeats).
        #[arg(long, default_value_t = DatagenConfig::default().min_random_plies)]
        min_random_plies: usize,
        /// The game file.
        #[arg(long, default_value = "target/datagen/games.bin")]
        out: PathBuf,
        /// The evaluation that plays: `classical` (handcrafted) or `nnue` (a network: the next net's data).
        #[arg(long, default_value = "classical", value_parser = ["classical", "nnue"])]
        eval: String,
        /// The network file for `--eval nnue` (default: the built-in network).
        #[arg(long)]
        evalfile: Option<PathBuf>,
        /// Play only slice I of N of the games (`I/N`, 1 <= I <= N; game g is in slice g mod N + 1), into
        /// this slice's own file; `datagen-merge` joins the slices.
        #[arg(long, value_parser = datagen::Shard::parse)]
        shard: Option<datagen::Shard>,
        /// The repetition rules the games are played and judged by: chinese, asian or computer.
        #[arg(long, default_value = "chinese")]
        rules: engine::rules::RuleSet,
    },
    /// Endgame start positions for tablebase tests: random quiet placements of each material that a
    /// short search with the built-in network scores within `--max-score`, as `FEN # material` lines.
    Endgames {
        /// Materials, Red's pieces then Black's (`KRPKRA`): a covered material plus a piece or two.
        #[arg(required = true)]
        materials: Vec<String>,
        /// Positions per material.
        #[arg(long, default_value_t = EndgameConfig::default().per_material)]
        per_material: usize,
        /// Nodes of the filtering search.
        #[arg(long, default_value_t = EndgameConfig::default().nodes)]
        nodes: u64,
        /// The largest score (centipawns, either side) a kept position may have.
        #[arg(long, default_value_t = EndgameConfig::default().max_score)]
        max_score: i32,
        /// Seed of the draw: the same seed and settings give the same file.
        #[arg(long, default_value_t = EndgameConfig::default().seed)]
        seed: u64,
        /// Keep only positions these tables call won for the side to move (the materials must be covered).
        #[arg(long)]
        won_in: Option<PathBuf>,
        /// The file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Merges game files (the slices of a sharded `datagen`, in slice order, give the whole run's file);
    /// identical games are written once.
    DatagenMerge {
        /// The merged file.
        #[arg(long)]
        out: PathBuf,
        /// The game files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
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
    /// Train the learned evaluation on game files and write the quantised network file.
    Train {
        /// Game files from `datagen` (repeat for several).
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// The network file to write (also named `chuhan-<checksum>.nnue` beside it).
        #[arg(long, default_value = "target/nnue/net.nnue")]
        out: PathBuf,
        /// The network's inputs: piecesquare (nets 1 and 2) or kingbuckets (6 buckets of the own king).
        #[arg(long, default_value_t = TrainConfig::default().features)]
        features: eval::nnue::FeatureSet,
        /// Neurons per perspective (a multiple of 16).
        #[arg(long, default_value_t = TrainConfig::default().hidden)]
        hidden: usize,
        /// Passes over the training positions.
        #[arg(long, default_value_t = TrainConfig::default().epochs)]
        epochs: usize,
        /// Positions per Adam step.
        #[arg(long, default_value_t = TrainConfig::default().batch_size)]
        batch: usize,
        /// Adam step size at the start (falls linearly to a tenth).
        #[arg(long, default_value_t = TrainConfig::default().learning_rate)]
        learning_rate: f32,
        /// Weight of the game result in the target: λ·result + (1−λ)·sigmoid(score/K).
        #[arg(long, default_value_t = TrainConfig::default().lambda)]
        lambda: f32,
        /// Sigmoid scale K in internal units (default: fitted to the data).
        #[arg(long)]
        scale: Option<f32>,
        /// Share of games held out for validation.
        #[arg(long, default_value_t = TrainConfig::default().validation)]
        validation: f64,
        /// Seed: the same seed, data and settings give the same network.
        #[arg(long, default_value_t = TrainConfig::default().seed)]
        seed: u64,
        /// Do not mirror positions left to right at random.
        #[arg(long)]
        no_mirror: bool,
        /// Worker threads.
        #[arg(long, default_value_t = 2)]
        threads: usize,
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
    type State = ();

    fn new_state(&self) {}

    fn evaluate_with(&self, pos: &Position, _: &mut ()) -> i32 {
        match self {
            AnyEval::Fixed(e) => e.evaluate(pos),
            AnyEval::Weighted(e) => e.evaluate(pos),
        }
    }
}

/// Why a command failed; printed after `chuhan-tune: `.
#[derive(Debug)]
enum TuneError {
    /// A file could not be read or written, or a folder created.
    File(FileError),
    /// A weights file that is not a weights source of this layout.
    Weights(PathBuf, SourceError),
    /// A weights file with the wrong number of weights for the evaluation.
    WeightCount(String),
    /// The worker threads could not be started.
    Pool(rayon::ThreadPoolBuildError),
    /// The opening file cannot be used.
    Openings(OpeningError),
    /// Data generation failed.
    Datagen(DatagenError),
    /// The network file cannot be used (empty path: the built-in network).
    Network(PathBuf, eval::nnue::file::LoadError),
    /// A Texel data file with a bad line.
    Data(PathBuf, DataError),
    /// A Texel data file without positions.
    NoPositions(PathBuf),
    /// A match that played no games.
    NoGames,
    /// A game file that cannot be read.
    GameFile(GameFileError),
    /// Game files without training positions.
    NoTrainingPositions,
    /// SPSA failed.
    Spsa(SpsaError),
    /// A material name that cannot be read.
    Material(MaterialError),
    /// Endgame positions could not be drawn.
    Endgames(tune::endgames::EndgameError),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::File(e) => write!(f, "{e}"),
            TuneError::Weights(path, e) => write!(f, "{}: {e}", path.display()),
            TuneError::WeightCount(path) => write!(f, "{path}: wrong weight count"),
            TuneError::Pool(e) => write!(f, "{e}"),
            TuneError::Openings(e) => write!(f, "{e}"),
            TuneError::Datagen(e) => write!(f, "{e}"),
            TuneError::Network(path, e) => write!(f, "{}: {e}", path.display()),
            TuneError::Data(path, e) => write!(f, "{}: {e}", path.display()),
            TuneError::NoPositions(path) => write!(f, "{}: no positions", path.display()),
            TuneError::NoGames => f.write_str("no games played"),
            TuneError::GameFile(e) => write!(f, "{e}"),
            TuneError::NoTrainingPositions => f.write_str("no training positions in the data"),
            TuneError::Spsa(e) => write!(f, "{e}"),
            TuneError::Material(e) => write!(f, "{e}"),
            TuneError::Endgames(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TuneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TuneError::File(e) => Some(e),
            TuneError::Weights(_, e) => Some(e),
            TuneError::Pool(e) => Some(e),
            TuneError::Openings(e) => Some(e),
            TuneError::Datagen(e) => Some(e),
            TuneError::Network(_, e) => Some(e),
            TuneError::Data(_, e) => Some(e),
            TuneError::GameFile(e) => Some(e),
            TuneError::Spsa(e) => Some(e),
            TuneError::Endgames(e) => Some(e),
            TuneError::Material(e) => Some(e),
            TuneError::WeightCount(_)
            | TuneError::NoPositions(_)
            | TuneError::NoGames
            | TuneError::NoTrainingPositions => None,
        }
    }
}

/// `From` for the variants that only wrap another error, so that `?` converts it.
macro_rules! wrapped_errors {
    ($($source:ty => $variant:ident),* $(,)?) => {
        $(
            impl From<$source> for TuneError {
                fn from(e: $source) -> Self {
                    TuneError::$variant(e)
                }
            }
        )*
    };
}

wrapped_errors!(OpeningError => Openings, DatagenError => Datagen, FileError => File, SpsaError => Spsa);

fn read_weights(path: &Path) -> Result<Vec<MgEg>, TuneError> {
    let text = std::fs::read_to_string(path).map_err(FileError::on("read", path))?;
    source::parse(&text).map_err(|e| TuneError::Weights(path.to_path_buf(), e))
}

fn parse_eval(spec: &str) -> Result<AnyEval, TuneError> {
    match spec {
        "full" => Ok(AnyEval::Fixed(Evaluator::default())),
        "basic" => Ok(AnyEval::Fixed(Evaluator::material_and_pst())),
        path => {
            let w = read_weights(Path::new(path))?;
            WeightedEvaluator::new(w)
                .map(AnyEval::Weighted)
                .ok_or_else(|| TuneError::WeightCount(path.to_string()))
        }
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), TuneError> {
    create_parent(path)?;
    std::fs::write(path, text).map_err(FileError::on("write", path))?;
    Ok(())
}

fn pool(threads: usize) -> Result<rayon::ThreadPool, TuneError> {
    rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build().map_err(TuneError::Pool)
}

fn selfplay(games: usize, out: &Path, play_args: &Play) -> Result<(), TuneError> {
    let config = play_args.config();
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let results: Vec<_> = pool(play_args.threads)?.install(|| {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let opening = play_args.opening(1_000_003, g);
                let mut red = Searcher::new(Evaluator::default());
                let mut black = Searcher::new(Evaluator::default());
                let game = play(&opening, &mut red, &mut black, &config);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!(
                    "game {n}/{games}: {} ({}, {} plies) {:.0}s",
                    game.result,
                    game.ending_label(),
                    game.moves.len(),
                    start.elapsed().as_secs_f64()
                );
                game
            })
            .collect()
    });
    let mut text = format!(
        "# chuhan-tune selfplay: {games} games, depth {}, {} random plies, seed {}\n",
        play_args.depth, play_args.random_plies, play_args.seed
    );
    let (mut red, mut draws, mut black, mut positions) = (0, 0, 0, 0);
    for (g, game) in results.iter().enumerate() {
        match game.result {
            GameResult::RedWins => red += 1,
            GameResult::BlackWins => black += 1,
            _ => draws += 1,
        }
        for fen in quiet_fens(game) {
            text.push_str(&format!("{fen};{};{g}\n", game.result.points(Color::Red)));
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

/// The evaluation that plays the data-generation games.
enum DatagenEval {
    /// The handcrafted evaluation.
    Classical,
    /// A network: the built-in one, or the file given.
    Nnue(Option<PathBuf>),
}

fn endgames(
    names: &[String],
    config: &EndgameConfig,
    won_in: Option<&Path>,
    out: Option<&Path>,
) -> Result<(), TuneError> {
    let materials: Vec<Material> =
        names.iter().map(|n| n.parse().map_err(TuneError::Material)).collect::<Result<_, _>>()?;
    let net = eval::nnue::network_from(None).map_err(|e| TuneError::Network(PathBuf::new(), e))?;
    let mut searcher = Searcher::new(eval::nnue::Nnue::new(net));
    let mut text = format!(
        "# chuhan endgame openings: chuhan-tune endgames {} --per-material {} --nodes {} --max-score {} --seed {}{}\n",
        names.join(" "),
        config.per_material,
        config.nodes,
        config.max_score,
        config.seed,
        if won_in.is_some() { " --won-in <tables>" } else { "" }
    );
    let tables = won_in.map(|dir| engine::egtb::Tablebases::open(&[dir.to_path_buf()]));
    if let Some(t) = &tables {
        for message in t.take_messages() {
            eprintln!("{message}");
        }
    }
    for m in &materials {
        let positions = match &tables {
            Some(t) => tune::endgames::sample_won(m, config, &mut searcher, t),
            None => tune::endgames::sample(m, config, &mut searcher),
        }
        .map_err(TuneError::Endgames)?;
        if positions.len() < config.per_material {
            eprintln!("{m}: only {} of {} positions found", positions.len(), config.per_material);
        }
        for pos in positions {
            text.push_str(&format!("{} # {m}\n", pos.to_fen()));
        }
    }
    match out {
        Some(path) => {
            create_parent(path)?;
            std::fs::write(path, text).map_err(FileError::on("write", path))?;
        }
        None => print!("{text}"),
    }
    Ok(())
}

fn run_datagen(config: &DatagenConfig, openings_path: &Path, player: &DatagenEval) -> Result<(), TuneError> {
    let mut lines = openings::load(openings_path)?;
    engine::random::SplitMix::new(config.seed).shuffle(&mut lines);
    let starts: Vec<Position> = lines.iter().map(|o| o.position()).collect::<Result<_, _>>()?;
    let summary = match player {
        DatagenEval::Classical => datagen::run(Evaluator::default(), &starts, config)?,
        DatagenEval::Nnue(file) => {
            let net = eval::nnue::network_from(file.as_deref())
                .map_err(|e| TuneError::Network(file.clone().unwrap_or_default(), e))?;
            eprintln!("datagen plays with network {:016x}", net.checksum());
            datagen::run(eval::nnue::Nnue::new(net), &starts, config)?
        }
    };
    println!(
        "{} games played ({} were already in {}), {} training positions in {:.0}s: {:.0} positions/s, \
         {:.0} positions/s per thread",
        summary.played,
        summary.resumed_from,
        config.out.display(),
        summary.positions,
        summary.seconds,
        summary.positions as f64 / summary.seconds.max(1e-9),
        summary.positions as f64 / summary.seconds.max(1e-9) / config.threads.max(1) as f64
    );
    Ok(())
}

fn run_tune(data: &Path, weights: Option<&Path>, out: &Path, config: &TexelConfig) -> Result<(), TuneError> {
    let start_weights = match weights {
        Some(p) => read_weights(p)?,
        None => WEIGHTS.to_vec(),
    };
    let text = std::fs::read_to_string(data).map_err(FileError::on("read", data))?;
    let samples = load(&text, &start_weights).map_err(|e| TuneError::Data(data.to_path_buf(), e))?;
    if samples.is_empty() {
        return Err(TuneError::NoPositions(data.to_path_buf()));
    }
    eprintln!("{} positions loaded; tuning {} steps", samples.len(), config.iterations);
    let fit =
        tune(&samples, &start_weights, config, |step, err| eprintln!("step {step}: training error {err:.6}"));
    println!("{fit}");
    write_file(out, &source::render(&fit.weights))?;
    println!("tuned weights -> {}", out.display());
    Ok(())
}

fn run_match(games: usize, a: &str, b: &str, play_args: &Play) -> Result<(), TuneError> {
    let (ea, eb) = (parse_eval(a)?, parse_eval(b)?);
    let config = play_args.config();
    let pairs = games.div_ceil(2);
    let start = Instant::now();
    let results: Vec<[GameResult; 2]> = pool(play_args.threads)?.install(|| {
        (0..pairs)
            .into_par_iter()
            .map(|g| {
                let opening = play_args.opening(7_919, g);
                let (mut sa, mut sb) = (Searcher::new(ea.clone()), Searcher::new(eb.clone()));
                let first = play(&opening, &mut sa, &mut sb, &config).result;
                let second = play(&opening, &mut sb, &mut sa, &config).result;
                eprintln!("pair {g}: a as Red {first}, a as Black {second}");
                [first, second]
            })
            .collect()
    });
    let mut pairs_tally = Pentanomial::default();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for [first, second] in results {
        let (pa, pb) = (first.points(Color::Red), second.points(Color::Black));
        pairs_tally.add(pa, pb);
        for p in [pa, pb] {
            match p {
                x if x > 0.75 => wins += 1,
                x if x < 0.25 => losses += 1,
                _ => draws += 1,
            }
        }
    }
    let estimate = pentanomial(&pairs_tally).ok_or(TuneError::NoGames)?;
    println!(
        "{a} vs {b}: +{wins} ={draws} -{losses} ({:.1}%), Elo {:+.0} ({:+.0} to {:+.0}), depth {}, {:.0}s",
        100.0 * estimate.score,
        estimate.elo,
        estimate.elo_low,
        estimate.elo_high,
        play_args.depth,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_train(data: &[PathBuf], out: &Path, config: &TrainConfig, threads: usize) -> Result<(), TuneError> {
    pool(threads)?.install(|| {
        let start = Instant::now();
        let (dataset, games) = Dataset::read(data).map_err(TuneError::GameFile)?;
        eprintln!("read {games} games, {} positions in {:.1}s", dataset.len(), start.elapsed().as_secs_f64());
        if dataset.is_empty() {
            return Err(TuneError::NoTrainingPositions);
        }
        let outcome = tune::nnue::train(&dataset, config, |line| eprintln!("{line}"));
        let net = &outcome.network;
        create_parent(out)?;
        let named = out.with_file_name(format!("chuhan-{:08x}.nnue", net.checksum() >> 32));
        for path in [out, named.as_path()] {
            eval::nnue::file::save(net, path).map_err(FileError::on("write", path))?;
        }
        let (train_loss, valid_loss) =
            outcome.losses.get(outcome.best_epoch.saturating_sub(1)).copied().unwrap_or((0.0, 0.0));
        println!(
            "trained {} {}x2 network on {} positions ({} validation) in {:.0}s: K {:.0}, epoch {} kept, train loss {train_loss:.6}, \
             validation loss {valid_loss:.6} (search scores {:.6}), quantisation error {:.2} cp; wrote {} and {}",
            net.features(),
            net.hidden(),
            outcome.sizes.0,
            outcome.sizes.1,
            start.elapsed().as_secs_f64(),
            outcome.scale,
            outcome.best_epoch,
            outcome.score_loss,
            outcome.quantisation_cp,
            out.display(),
            named.display()
        );
        Ok(())
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Datagen {
            games,
            nodes,
            threads,
            seed,
            openings,
            random_plies,
            min_random_plies,
            out,
            eval,
            evalfile,
            shard,
            rules,
        } => {
            let shard = shard.unwrap_or_default();
            let config = DatagenConfig {
                rules: engine::rules::GameRules::with_set(rules),
                games,
                nodes,
                threads,
                seed,
                random_plies,
                min_random_plies,
                out,
                shard,
                ..DatagenConfig::default()
            };
            let player = if eval == "nnue" { DatagenEval::Nnue(evalfile) } else { DatagenEval::Classical };
            run_datagen(&config, &openings, &player)
        }
        Command::DatagenMerge { out, files } => datagen::merge(&files, &out).map_err(TuneError::Datagen).map(|m| {
            println!(
                "{} games read from {} files, {} duplicates dropped, {} games ({} training positions) written to {}",
                m.read,
                files.len(),
                m.duplicates,
                m.written,
                m.positions,
                out.display()
            )
        }),
        Command::Endgames { materials, per_material, nodes, max_score, seed, won_in, out } => {
            let config = EndgameConfig { per_material, nodes, max_score, seed, ..EndgameConfig::default() };
            endgames(&materials, &config, won_in.as_deref(), out.as_deref())
        }
        Command::Selfplay { games, out, play } => selfplay(games, &out, &play),
        Command::Spsa { engine, params, rounds, pairs, tc, concurrency, openings, r_end, seed, dir } => {
            let config = tune::spsa::SpsaConfig {
                engine,
                params,
                rounds,
                pairs_per_round: pairs,
                limits: vec!["--tc".into(), tc],
                concurrency,
                openings,
                r_end,
                dir,
                seed,
            };
            let start = Instant::now();
            tune::spsa::run(&config, |state, net| {
                eprintln!(
                    "round {}/{} ({} games, {:.0}s): plus side net {net:+}",
                    state.round,
                    config.rounds,
                    state.games,
                    start.elapsed().as_secs_f64()
                )
            })
            .map(|state| println!("{}", tune::spsa::summary(&state)))
            .map_err(TuneError::from)
        }
        Command::SpsaValues { dir, options } => tune::spsa::load(&dir)
            .map(|state| {
                if options {
                    tune::spsa::tuned_options(&state).iter().for_each(|w| println!("{w}"));
                } else {
                    print!("{}", tune::spsa::summary(&state));
                }
            })
            .map_err(TuneError::from),
        Command::Tune { data, weights, out, iterations, learning_rate, regularization, validation_every } => {
            let config = TexelConfig { iterations, learning_rate, regularization, validation_every };
            run_tune(&data, weights.as_deref(), &out, &config)
        }
        Command::Match { games, a, b, play } => run_match(games, &a, &b, &play),
        Command::Train {
            data,
            out,
            features,
            hidden,
            epochs,
            batch,
            learning_rate,
            lambda,
            scale,
            validation,
            seed,
            no_mirror,
            threads,
        } => {
            let config = TrainConfig {
                features,
                hidden,
                epochs,
                batch_size: batch,
                learning_rate,
                lambda,
                scale,
                validation,
                seed,
                mirror: !no_mirror,
            };
            run_train(&data, &out, &config, threads)
        }
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
