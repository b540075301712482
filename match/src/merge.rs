//! `chuhan match merge FILE...`: the results files of `--shard` runs (or of any runs of one match) made into
//! one match: the same table, Elo and SPRT as a single run would print. Game pairs are matched by their
//! place in the schedule, so a pair whose two games were played in different files still counts as a pair.
//! A game found twice is counted once and reported; games the schedule has but no file holds are reported.
//!
//! Files are of one match when their schedules and opening orders agree and, with `--order random` (or in
//! files too old to name their order), their seeds: the seed only shuffles the openings, so slices of a
//! sequential match given different seeds (or none) still merge.

use super::config::{self, ConfigError, Order, SprtConfig};
use super::results::{GameId, Previous, ResultRow, ResultsError, ResultsFile};
use super::stats;
use super::tally::Tally;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// At most this many missing or duplicate games are named one by one.
const LIST: usize = 10;

/// What `merge` was asked to do.
struct MergeArgs {
    files: Vec<PathBuf>,
    sprt: Option<SprtConfig>,
    results: Option<PathBuf>,
}

/// Why `chuhan match merge` stopped.
#[derive(Debug)]
pub enum MergeError {
    /// A bad `--sprt`.
    Sprt(ConfigError),
    /// `--results` without a file after it.
    ResultsNeedsFile,
    /// An option `merge` does not know.
    UnknownOption(String),
    /// No results file named.
    NoFiles,
    /// A results file that cannot be read, or the merged file that cannot be written.
    Results(ResultsError),
    /// A file whose schedule or opening order differs from the first file's (its name).
    OtherSchedule(String),
    /// A file whose seed, which orders the openings, differs from the first file's (its name).
    OtherSeed(String),
    /// A game played by other engines than in an earlier file: (the file's name, the game).
    OtherEngines(String, GameId),
    /// Writing the summary failed.
    Output(io::Error),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::Sprt(e) => write!(f, "{e}"),
            MergeError::ResultsNeedsFile => f.write_str("--results needs a file"),
            MergeError::UnknownOption(w) => write!(f, "merge: unknown option '{w}'"),
            MergeError::NoFiles => f.write_str("merge needs at least one results file"),
            MergeError::Results(e) => write!(f, "{e}"),
            MergeError::OtherSchedule(name) => write!(
                f,
                "{name} is from another match (its schedule or opening order differs from the first file's)"
            ),
            MergeError::OtherSeed(name) => write!(
                f,
                "{name} is from another match (its seed, which orders the openings, differs from the first file's)"
            ),
            MergeError::OtherEngines(name, id) => {
                write!(f, "{name}: game {id:?} has other engines than in an earlier file")
            }
            MergeError::Output(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MergeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MergeError::Sprt(e) => Some(e),
            MergeError::Results(e) => Some(e),
            MergeError::Output(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ResultsError> for MergeError {
    fn from(e: ResultsError) -> Self {
        MergeError::Results(e)
    }
}

impl From<io::Error> for MergeError {
    fn from(e: io::Error) -> Self {
        MergeError::Output(e)
    }
}

fn parse_args(args: &[String]) -> Result<MergeArgs, MergeError> {
    let mut m = MergeArgs { files: Vec::new(), sprt: None, results: None };
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--sprt" => {
                let mut words = vec!["--sprt".to_string()];
                while let Some(w) = args.get(i + 1).filter(|w| !w.starts_with("--")) {
                    if !w.contains('=') {
                        break;
                    }
                    words.push(w.clone());
                    i += 1;
                }
                m.sprt = Some(config::parse_sprt_words(&words).map_err(MergeError::Sprt)?);
            }
            "--results" => {
                m.results = Some(PathBuf::from(args.get(i + 1).ok_or(MergeError::ResultsNeedsFile)?));
                i += 1;
            }
            w if w.starts_with("--") => return Err(MergeError::UnknownOption(w.to_string())),
            file => m.files.push(PathBuf::from(file)),
        }
        i += 1;
    }
    if m.files.is_empty() {
        return Err(MergeError::NoFiles);
    }
    Ok(m)
}

/// Runs `chuhan match merge`; prints the summary on stdout and the problems found on stderr.
pub fn run(args: &[String]) -> ExitCode {
    match parse_args(args).and_then(|a| merge(&a)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhan match merge: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The games of all files, one per schedule place, and the problems met on the way.
pub struct Merged {
    /// Rows by schedule place.
    pub rows: BTreeMap<GameId, ResultRow>,
    /// The match seed (the first file's).
    pub seed: u64,
    /// Games per pairing and pairings, when the files' headers say.
    pub schedule: Option<(u32, usize)>,
    /// The opening order, when the files' headers say.
    pub order: Option<Order>,
    /// Games found more than once: (place, file of the copy left out).
    pub duplicates: Vec<(GameId, String)>,
}

/// Reads and combines the files; files of different matches (schedules, opening orders, seeds of a random
/// order, engines) are refused.
pub fn combine(files: &[PathBuf]) -> Result<Merged, MergeError> {
    let mut read = Vec::with_capacity(files.len());
    for path in files {
        read.push((path.display().to_string(), ResultsFile::read(path)?));
    }
    combine_read(read)
}

/// [`combine`] for files already read: (name, contents).
pub fn combine_read(files: Vec<(String, Previous)>) -> Result<Merged, MergeError> {
    let mut merged =
        Merged { rows: BTreeMap::new(), seed: 0, schedule: None, order: None, duplicates: Vec::new() };
    for (i, (name, file)) in files.into_iter().enumerate() {
        if i == 0 {
            (merged.seed, merged.schedule, merged.order) = (file.seed, file.schedule, file.order);
        } else if file.schedule != merged.schedule || file.order != merged.order {
            return Err(MergeError::OtherSchedule(name));
        } else if file.seed != merged.seed && file.order != Some(Order::Sequential) {
            return Err(MergeError::OtherSeed(name));
        }
        for row in file.rows {
            if let Some(first) = merged.rows.get(&row.id) {
                if (&first.red, &first.black) != (&row.red, &row.black) {
                    return Err(MergeError::OtherEngines(name, row.id));
                }
                merged.duplicates.push((row.id, name.clone()));
            } else {
                merged.rows.insert(row.id, row);
            }
        }
    }
    Ok(merged)
}

impl Merged {
    /// The schedule's places that no file holds, in schedule order (none when the headers do not give the
    /// schedule). An iterator: a damaged header may claim billions of games, which must not become a list.
    pub fn missing(&self) -> impl Iterator<Item = GameId> + '_ {
        let (games, pairings) = self.schedule.unwrap_or((0, 0));
        (0..pairings)
            .flat_map(move |pairing| {
                (0..games).map(move |g| GameId { pairing, pair: g / 2, slot: (g % 2) as u8 })
            })
            .filter(|id| !self.rows.contains_key(id))
    }

    /// How many of the schedule's places no file holds, counted without listing them (at most `u64::MAX`).
    pub fn missing_count(&self) -> u64 {
        let Some((games, pairings)) = self.schedule else { return 0 };
        // Saturating: the header's numbers are whatever the file says.
        let scheduled = (games as u64).saturating_mul(pairings as u64);
        let held = self
            .rows
            .keys()
            .filter(|id| id.pairing < pairings && 2 * id.pair as u64 + (id.slot as u64) < games as u64);
        scheduled.saturating_sub(held.count() as u64)
    }
}

fn place(id: &GameId) -> String {
    format!("pairing {} pair {} slot {}", id.pairing, id.pair, id.slot)
}

fn merge(args: &MergeArgs) -> Result<(), MergeError> {
    let merged = combine(&args.files)?;
    for (id, file) in merged.duplicates.iter().take(LIST) {
        eprintln!("duplicate: {} again in {file}; counted once", place(id));
    }
    for id in merged.missing().take(LIST) {
        eprintln!("missing: {}", place(&id));
    }
    let missing = merged.missing_count();
    let more =
        |n: u64| if n > LIST as u64 { format!(" ({} not listed)", n - LIST as u64) } else { String::new() };
    if merged.duplicates.len() as u64 + missing > 0 {
        eprintln!(
            "{} duplicate{}, {} missing{}",
            merged.duplicates.len(),
            more(merged.duplicates.len() as u64),
            missing,
            more(missing)
        );
    }
    if let Some(path) = &args.results {
        if path.exists() {
            return Err(ResultsError::Exists(path.display().to_string()).into());
        }
        let mut about: Vec<String> = merged
            .schedule
            .map(|(g, p)| vec![format!("games={g}"), format!("pairings={p}")])
            .unwrap_or_default();
        about.extend(merged.order.map(|o| format!("order={}", o.word())));
        let about = about.join(" ");
        let mut out = ResultsFile::open(path, merged.seed, false, &about)?;
        for row in merged.rows.values() {
            out.append(row)?;
        }
    }

    // One tally per pairing, named from the games as the runner names them (slot 0: A has Red).
    let mut tallies: BTreeMap<usize, Tally> = BTreeMap::new();
    for row in merged.rows.values() {
        let tally = tallies.entry(row.id.pairing).or_insert_with(|| {
            let (a, b) = if row.id.slot == 0 { (&row.red, &row.black) } else { (&row.black, &row.red) };
            Tally::new(a, b)
        });
        tally.add(row);
    }
    let sprt = args.sprt.map(|s| stats::Sprt { elo0: s.elo0, elo1: s.elo1, alpha: s.alpha, beta: s.beta });
    let total = merged.schedule.map_or(merged.rows.len() as u64, |(g, p)| g as u64 * p as u64);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "Match: {} games of {total} played; merged from {} files",
        merged.rows.len(),
        args.files.len()
    )?;
    for t in tallies.values() {
        write!(out, "{}", t.table(sprt.as_ref()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes results files with these header words (after the seed) and no games; returns their paths.
    fn files(test: &str, headers: &[(u64, &str)]) -> Vec<PathBuf> {
        let dir = std::env::temp_dir().join(format!("chuhan-merge-{}", std::process::id())).join(test);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<PathBuf> = (0..headers.len()).map(|i| dir.join(format!("{i}.txt"))).collect();
        for (path, &(seed, about)) in paths.iter().zip(headers) {
            drop(ResultsFile::open(path, seed, false, about).unwrap());
        }
        paths
    }

    fn refusal(paths: &[PathBuf]) -> String {
        combine(paths).err().map(|e| e.to_string()).unwrap_or_default()
    }

    #[test]
    fn the_seed_identifies_a_match_only_when_it_orders_the_openings() {
        let seq = "games=4 pairings=1 order=sequential";
        let merged = combine(&files("seq", &[(1, seq), (2, seq), (0, seq)])).unwrap();
        assert_eq!((merged.seed, merged.schedule, merged.order), (1, Some((4, 1)), Some(Order::Sequential)));

        let random = "games=4 pairings=1 order=random";
        assert!(combine(&files("random-same", &[(7, random), (7, random)])).is_ok());
        assert!(refusal(&files("random", &[(7, random), (8, random)])).contains("its seed"));
        // Files from before the header named the order: the seed still decides, as it did.
        let old = "games=4 pairings=1";
        assert!(refusal(&files("old", &[(7, old), (8, old)])).contains("its seed"));
        assert!(refusal(&files("orders", &[(7, seq), (7, random)])).contains("opening order"));
        assert!(refusal(&files("games", &[(0, seq), (0, "games=6 pairings=1 order=sequential")]))
            .contains("schedule"));
        let _ = std::fs::remove_dir_all(
            std::env::temp_dir().join(format!("chuhan-merge-{}", std::process::id())),
        );
    }

    /// Found by the `results_merge` fuzz target: a header claiming billions of games made `merge` list every
    /// missing place and run out of memory (and then, counted, overflow). The places are counted, saturating,
    /// and only the first few listed.
    #[test]
    fn a_header_claiming_billions_of_games_is_counted_not_listed() {
        let huge = "games=4000000000 pairings=9 order=sequential";
        let merged = combine(&files("huge", &[(3, huge)])).unwrap();
        assert_eq!(merged.missing_count(), 36_000_000_000);
        let first: Vec<GameId> = merged.missing().take(3).collect();
        assert_eq!(first[2], GameId { pairing: 0, pair: 1, slot: 0 });
        let most = "games=4000000000 pairings=18446744073709551615 order=sequential";
        assert_eq!(combine(&files("most", &[(3, most)])).unwrap().missing_count(), u64::MAX);
        for test in ["huge", "most"] {
            let _ = std::fs::remove_dir_all(
                std::env::temp_dir().join(format!("chuhan-merge-{}", std::process::id())).join(test),
            );
        }
    }
}
