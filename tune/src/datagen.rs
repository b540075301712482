//! Training data from self-play: games at a fixed node budget per move from varied openings, written to a
//! game file ([`crate::gamefile`]) in game order.
//!
//! Game `g` of a run depends only on the seed, `g` and the settings: its opening is line
//! `g mod #lines` of the openings file after a seeded shuffle, followed by a few random legal plies from a
//! generator seeded by (seed, g); each search has one thread, a node limit and a table cleared at the
//! start of the game. So a run is deterministic for a seed whatever the number of threads, and an
//! interrupted run resumes where its file stops: complete games are kept, a game cut in half is dropped
//! and played again.
//!
//! Every game is judged by `engine::rules` through [`crate::selfplay::play`] (mate, stalemate, the 棋例,
//! the move limit), with win adjudication when both sides' scores agree for several plies.

use crate::files::{create_parent, FileError};
use crate::gamefile::{self, GameFileError, GameRecord};
use crate::selfplay::{self, Adjudication, GameConfig};
use engine::random::{random_plies, Rng};
use engine::rules::GameRules;
use engine::search::{Limits, SearchOptions, Searcher};
use engine::{Evaluate, Position};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// How data is generated.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Total games the file should hold when the run ends.
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once.
    pub threads: usize,
    /// The run's seed.
    pub seed: u64,
    /// Random legal plies after each opening line (`min_random_plies` to this many, chosen per game).
    pub random_plies: usize,
    /// The fewest random plies after an opening line. With 0, every game that draws no random ply replays
    /// its opening's game exactly (fixed nodes make the search deterministic): about a fifth of a long
    /// run's games were such repeats.
    pub min_random_plies: usize,
    /// Hash table per game, MiB.
    pub hash_mb: usize,
    /// Plies after which a game stops unfinished.
    pub max_plies: usize,
    /// The game file.
    pub out: PathBuf,
    /// Which slice of the run's games this process plays.
    pub shard: Shard,
    /// The rules the games are played and judged by (`--rules`).
    pub rules: GameRules,
}

impl Default for DatagenConfig {
    fn default() -> Self {
        DatagenConfig {
            games: 1000,
            nodes: 5000,
            threads: 1,
            seed: 1,
            random_plies: 6,
            min_random_plies: 0,
            hash_mb: 8,
            max_plies: 400,
            out: PathBuf::from("target/datagen/games.bin"),
            shard: Shard::default(),
            rules: GameRules::default(),
        }
    }
}

/// Slice `index` (from 0) of `count` of a run's games: game `g` belongs to slice `g mod count`. A game
/// depends only on the seed, its number and the settings, so the slices of a run hold exactly the run's
/// games, and [`merge`] of slices 1..N in order gives the unsliced run's file byte for byte.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This slice, from 0.
    pub index: usize,
    /// Slices in all.
    pub count: usize,
}

impl Default for Shard {
    /// The whole run.
    fn default() -> Self {
        Shard { index: 0, count: 1 }
    }
}

impl Shard {
    /// Reads `I/N` (1 <= I <= N), as `chuhan match --shard` does.
    pub fn parse(text: &str) -> Result<Shard, DatagenError> {
        let bad = || DatagenError::Shard(text.to_string());
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (i, n): (usize, usize) =
            (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if i == 0 || n == 0 || i > n {
            return Err(bad());
        }
        Ok(Shard { index: i - 1, count: n })
    }

    /// How many of the run's first `total` games are this slice's.
    pub fn games(self, total: usize) -> usize {
        let count = self.count.max(1);
        if self.index >= total {
            0
        } else {
            (total - self.index).div_ceil(count)
        }
    }

    /// The run's game number of this slice's `k`-th game.
    pub fn game(self, k: usize) -> usize {
        self.index + k * self.count.max(1)
    }
}

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games in the file before the run.
    pub resumed_from: usize,
    /// Games played in this run.
    pub played: usize,
    /// Training positions in those games.
    pub positions: usize,
    /// Seconds the run took.
    pub seconds: f64,
}

/// Why a run could not start or go on.
#[derive(Debug)]
pub enum DatagenError {
    /// No opening lines to start games from.
    NoOpenings,
    /// The game file (or its folder) could not be created, opened or read.
    File(FileError),
    /// The game file holds something other than whole games.
    GameFile(PathBuf, GameFileError),
    /// Writing the game file failed.
    Write(io::Error),
    /// A `--shard` that is not `I/N` with 1 <= I <= N.
    Shard(String),
    /// Nothing to merge.
    NoInputs,
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::NoOpenings => f.write_str("no openings"),
            DatagenError::File(e) => write!(f, "{e}"),
            DatagenError::GameFile(path, e) => write!(f, "{}: {e}", path.display()),
            DatagenError::Write(e) => write!(f, "{e}"),
            DatagenError::Shard(text) => write!(f, "--shard '{text}' is not I/N with 1 <= I <= N"),
            DatagenError::NoInputs => f.write_str("no game files to merge"),
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatagenError::NoOpenings | DatagenError::Shard(_) | DatagenError::NoInputs => None,
            DatagenError::File(e) => Some(e),
            DatagenError::Write(e) => Some(e),
            DatagenError::GameFile(_, e) => Some(e),
        }
    }
}

impl From<FileError> for DatagenError {
    fn from(e: FileError) -> Self {
        DatagenError::File(e)
    }
}

/// The start of game `g`: an opening line, then `min_random_plies..=random_plies` random legal plies.
pub fn game_start(openings: &[Position], config: &DatagenConfig, g: usize) -> Position {
    let mut rng = Rng::new(config.seed ^ (g as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
    let mut pos = openings[g % openings.len()].clone();
    let least = config.min_random_plies.min(config.random_plies);
    let plies = least + rng.below(config.random_plies - least + 1);
    random_plies(&mut pos, &mut rng, plies);
    // A random ply can leave a side without a move; then fall back to the line itself.
    if !pos.has_legal_move() {
        pos = openings[g % openings.len()].clone();
    }
    pos.clear_history();
    pos
}

/// Plays game `g` of the run, `red` and `black` searching for the two sides (both are cleared first).
pub fn play_game<E: Evaluate>(
    red: &mut Searcher<E>,
    black: &mut Searcher<E>,
    openings: &[Position],
    config: &DatagenConfig,
    g: usize,
) -> GameRecord {
    let start = game_start(openings, config, g);
    let game_config = GameConfig {
        limits: Limits { nodes: Some(config.nodes), rules: config.rules, ..Default::default() },
        max_plies: config.max_plies,
        adjudication: Some(Adjudication { score: gamefile::DECIDED, plies: 6 }),
    };
    let game = selfplay::play(&start, red, black, &game_config);
    GameRecord::from_game(&game)
}

/// Opens (or creates) the game file and returns it positioned for appending, with the number of complete
/// games already in it. A game cut short by an interrupted run is removed.
fn open_for_append(config: &DatagenConfig) -> Result<(std::fs::File, usize), DatagenError> {
    let path = &config.out;
    create_parent(path)?;
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(FileError::on("open", path))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(FileError::on("read", path))?;
    if bytes.is_empty() {
        gamefile::write_header(&mut file).map_err(DatagenError::Write)?;
        return Ok((file, 0));
    }
    let (count, len) =
        gamefile::complete_length(&bytes).map_err(|e| DatagenError::GameFile(path.clone(), e))?;
    file.set_len(len as u64).map_err(DatagenError::Write)?;
    file.seek(SeekFrom::Start(len as u64)).map_err(DatagenError::Write)?;
    Ok((file, count))
}

/// Runs data generation with evaluator `eval`, writing a progress line to stderr.
pub fn run<E: Evaluate + Clone>(
    eval: E,
    openings: &[Position],
    config: &DatagenConfig,
) -> Result<DatagenSummary, DatagenError> {
    if openings.is_empty() {
        return Err(DatagenError::NoOpenings);
    }
    let (mut file, done) = open_for_append(config)?;
    let mut summary = DatagenSummary { resumed_from: done, ..Default::default() };
    // Games are counted in this slice's numbering; `shard.game(k)` is the run's number of game k.
    let (shard, games) = (config.shard, config.shard.games(config.games));
    if done >= games {
        return Ok(summary);
    }
    let start = Instant::now();
    let next = AtomicUsize::new(done);
    let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
    let options = SearchOptions { hash_mb: config.hash_mb, threads: 1, ..SearchOptions::default() };
    let write_result = std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            let tx = tx.clone();
            let (next, eval, options) = (&next, eval.clone(), options.clone());
            scope.spawn(move || {
                let mut red = Searcher::new(eval.clone());
                red.set_options(options.clone());
                let mut black = Searcher::new(eval);
                black.set_options(options);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= games {
                        return;
                    }
                    let record = play_game(&mut red, &mut black, openings, config, shard.game(k));
                    if tx.send((k, record)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // Games finish out of order; they are written in game order so a seed gives one file.
        let mut pending = BTreeMap::new();
        let mut expected = done;
        let mut last_line = Instant::now();
        let total = games - done;
        for (k, record) in rx {
            pending.insert(k, record);
            while let Some(record) = pending.remove(&expected) {
                gamefile::write_game(&mut file, &record).map_err(DatagenError::Write)?;
                summary.played += 1;
                summary.positions += gamefile::training_positions(&record).len();
                expected += 1;
                if last_line.elapsed().as_secs_f64() < 1.0 && expected < games {
                    continue;
                }
                last_line = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let per_game = secs / summary.played as f64;
                let eta = per_game * (total - summary.played) as f64;
                eprint!(
                    "\rgames {}/{}  positions {}  {:.0} positions/s  {:.1} s/game  ETA {}   ",
                    expected,
                    games,
                    summary.positions,
                    summary.positions as f64 / secs,
                    per_game,
                    hms(eta)
                );
            }
            if summary.played.is_multiple_of(16) {
                file.flush().map_err(DatagenError::Write)?;
            }
        }
        file.flush().map_err(DatagenError::Write)
    });
    eprintln!();
    write_result?;
    summary.seconds = start.elapsed().as_secs_f64();
    Ok(summary)
}

/// What [`merge`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Games read from all the files.
    pub read: usize,
    /// Games dropped because an identical game was already written.
    pub duplicates: usize,
    /// Games written.
    pub written: usize,
    /// Training positions in the games written.
    pub positions: usize,
}

/// Merges game files into `out`, taking one game from each file in turn (so slices 1..N of a run, given
/// in that order, become the unsliced run's file) and dropping any game identical to one already written
/// (a slice merged twice, or two runs with the same seed). The inputs are only read.
pub fn merge(inputs: &[PathBuf], out: &std::path::Path) -> Result<MergeSummary, DatagenError> {
    if inputs.is_empty() {
        return Err(DatagenError::NoInputs);
    }
    let mut files = Vec::with_capacity(inputs.len());
    for path in inputs {
        files.push(
            gamefile::read_games(path).map_err(|e| DatagenError::GameFile(path.clone(), e))?.into_iter(),
        );
    }
    create_parent(out)?;
    let mut writer = std::io::BufWriter::new(std::fs::File::create(out).map_err(FileError::on("open", out))?);
    gamefile::write_header(&mut writer).map_err(DatagenError::Write)?;
    let mut seen = std::collections::HashSet::new();
    let mut summary = MergeSummary::default();
    loop {
        let mut any = false;
        for games in &mut files {
            let Some(game) = games.next() else { continue };
            any = true;
            summary.read += 1;
            let bytes = gamefile::encode(&game);
            // A 64-bit digest per game: for a million games the chance of a false duplicate is ~3e-8.
            let digest = {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut h);
                h.finish()
            };
            if !seen.insert(digest) {
                summary.duplicates += 1;
                continue;
            }
            writer.write_all(&bytes).map_err(DatagenError::Write)?;
            summary.written += 1;
            summary.positions += gamefile::training_positions(&game).len();
        }
        if !any {
            break;
        }
    }
    writer.flush().map_err(DatagenError::Write)?;
    Ok(summary)
}

/// Seconds as `h:mm:ss`.
fn hms(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::evaluate::MaterialEval;

    fn config(out: PathBuf, games: usize, threads: usize) -> DatagenConfig {
        DatagenConfig { games, nodes: 300, threads, seed: 7, max_plies: 40, out, ..Default::default() }
    }

    #[test]
    fn game_starts_draw_at_least_the_fewest_random_plies() {
        let opening = Position::startpos();
        let openings = [opening.clone()];
        let base = DatagenConfig { seed: 3, ..Default::default() };
        let starts = |c: &DatagenConfig| (0..200).map(|g| game_start(&openings, c, g)).collect::<Vec<_>>();
        // The old draw (0 to 6 plies) is kept for 0, so runs made before the option stay reproducible.
        let old = starts(&base);
        assert!(old.iter().any(|p| p.to_fen() == opening.to_fen()), "some game starts on the line itself");
        let varied = starts(&DatagenConfig { min_random_plies: 2, ..base.clone() });
        // Two plies, one for each side, can never give the line back.
        assert!(varied.iter().all(|p| p.to_fen() != opening.to_fen()));
        let mut fens: Vec<String> = varied.iter().map(Position::to_fen).collect();
        fens.sort();
        fens.dedup();
        assert!(fens.len() > 190, "{} distinct starts of 200", fens.len());
        // A minimum above the maximum is capped at the maximum.
        let fixed = DatagenConfig { min_random_plies: 9, random_plies: 4, ..base };
        assert!(starts(&fixed).iter().all(|p| p.to_fen() != opening.to_fen()));
    }

    /// An empty scratch folder `chuhan-<name>-<pid>` under the system's temporary folder.
    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("chuhan-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    /// Generates `config`'s games from the start position with the material evaluation.
    fn generate(config: &DatagenConfig, what: &str) -> DatagenSummary {
        run(MaterialEval, &[Position::startpos()], config).expect(what)
    }

    #[test]
    fn a_seed_gives_one_file_whatever_the_threads_and_interruptions() {
        let dir = scratch_dir("datagen");
        let one = config(dir.join("one.bin"), 4, 1);
        generate(&one, "runs");
        // Two threads, and stopped after two games then resumed from a file cut in the middle of a game.
        let two = config(dir.join("two.bin"), 2, 2);
        generate(&two, "runs");
        let mut bytes = std::fs::read(&two.out).expect("written");
        bytes.extend_from_slice(&[30, b'r', b'n']);
        std::fs::write(&two.out, &bytes).expect("write");
        let resumed = generate(&config(two.out.clone(), 4, 2), "resumes");
        assert_eq!(resumed.resumed_from, 2);
        assert_eq!(resumed.played, 2);
        let a = std::fs::read(&one.out).expect("written");
        let b = std::fs::read(&two.out).expect("written");
        assert_eq!(a, b);
        assert_eq!(gamefile::decode_all(&a).expect("reads").len(), 4);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn slices_of_a_run_merge_into_the_run() {
        let dir = scratch_dir("datagen-shards");
        let whole = config(dir.join("whole.bin"), 5, 1);
        generate(&whole, "runs");
        let mut slices = Vec::new();
        for i in 1..=2 {
            let out = dir.join(format!("slice{i}.bin"));
            let shard = Shard::parse(&format!("{i}/2")).expect("a shard");
            generate(&DatagenConfig { shard, ..config(out.clone(), 5, 1) }, "runs");
            slices.push(out);
        }
        assert_eq!(gamefile::read_games(&slices[0]).expect("reads").len(), 3);
        assert_eq!(gamefile::read_games(&slices[1]).expect("reads").len(), 2);
        let merged = dir.join("merged.bin");
        let summary = merge(&slices, &merged).expect("merges");
        assert_eq!((summary.read, summary.duplicates, summary.written), (5, 0, 5));
        assert_eq!(std::fs::read(&merged).expect("written"), std::fs::read(&whole.out).expect("written"));
        // A slice given twice is counted once.
        let again = merge(&[slices[0].clone(), slices[1].clone(), slices[0].clone()], &dir.join("again.bin"))
            .expect("merges");
        assert_eq!((again.read, again.duplicates, again.written), (8, 3, 5));
        for bad in ["0/2", "3/2", "1/0", "x/2", "12"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
