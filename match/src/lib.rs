//! chuhan's match tools: engine-against-engine matches (`chuhan match`: gauntlet, round robin, SPRT)
//! between UCI, UCCI and CECP (xboard protocol) engines, their game records (results files, PGN with
//! Chinese notation), and the referee on the command line (`chuhan judge`, [`judge`]). The `chuhan` binary
//! (chuhan-protocol) only dispatches its `match` and `judge` subcommands here; `chuhan-tune` plays its
//! matches through [`results`], [`openings`] and [`stats`].
//!
//! The runner keeps the clocks, asks the referee (`engine::rules`) whether each move ends the game, and
//! writes a results line (and PGN) as each game ends so an interrupted match can `--resume`.
//!
//! Engine processes belong to their game and are killed when it ends (`Drop`). On Ctrl-C the terminal sends
//! SIGINT to the whole foreground process group, engines included; an engine that ignores it still sees its
//! stdin close when the runner dies, which makes a well-behaved engine exit. Finished games are already in the
//! results file; the game in progress is replayed by `--resume`.

pub mod clock;
pub mod config;
pub mod engine_proc;
pub mod game;
pub mod judge;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod progress;
pub mod record_file;
pub mod referee;
pub mod results;
pub mod scheduler;
pub mod stats;
pub mod tally;

use config::{ConfigError, MatchConfig, Order};
use engine::random::SplitMix;
use engine_proc::{EngineProcess, TrafficLog};
use game::{Adjudication, GameSetup};
use openings::Opening;
use progress::Progress;
use results::{GameId, ResultRow, ResultsFile};
use std::collections::HashSet;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use tally::Tally;

/// Runs `chuhan match` with the words after `match`; prints the summary on stdout.
pub fn run(args: Vec<String>) -> ExitCode {
    if args.first().map(String::as_str) == Some("merge") {
        return merge::run(&args[1..]);
    }
    let config = match config::parse(&args) {
        Ok(c) => c,
        Err(ConfigError::Help) => {
            print!("{}", config::USAGE);
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("chuhan match: {e}");
            return ExitCode::from(2);
        }
    };
    match run_match(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chuhan match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run_match(config: &MatchConfig) -> Result<(), Box<dyn std::error::Error>> {
    let previous = match (&config.results, config.resume) {
        (Some(path), true) if path.exists() => Some(ResultsFile::read(path)?),
        _ => None,
    };
    // The seed only shuffles the openings: a sequential match is the same match whatever the seed, so
    // without one it gets 0, not one from the clock, and slices of it run apart carry the same seed.
    let seed = previous.as_ref().map(|p| p.seed).or(config.seed).unwrap_or_else(|| match config.order {
        Order::Random => clock_seed(),
        Order::Sequential => 0,
    });
    let openings = load_openings(config, seed)?;

    let pairings = scheduler::pairings(config.engines.len(), config.round_robin);
    let mut tallies: Vec<Tally> =
        pairings.iter().map(|&(a, b)| Tally::new(&config.engines[a].name, &config.engines[b].name)).collect();
    let mut done: HashSet<GameId> = HashSet::new();
    for row in previous.iter().flat_map(|p| &p.rows) {
        let (a, b) = pairings.get(row.id.pairing).copied().ok_or("the results file is from another match")?;
        let (red, black) = if row.id.slot == 0 { (a, b) } else { (b, a) };
        if row.red != config.engines[red].name || row.black != config.engines[black].name {
            return Err(format!(
                "the results file is from another match (game {:?}: {} vs {})",
                row.id, row.red, row.black
            )
            .into());
        }
        if done.insert(row.id) {
            tallies[row.id.pairing].add(row);
        }
    }
    let mut results = match &config.results {
        Some(path) => {
            let mut about =
                format!("games={} pairings={} order={}", config.games, pairings.len(), config.order.word());
            if let Some(shard) = config.shard {
                about.push_str(&format!(" shard={shard}"));
            }
            Some(ResultsFile::open(path, seed, config.resume, &about)?)
        }
        None => None,
    };
    let mut pgn_file = match &config.pgn {
        Some(path) => {
            if config.resume && path.exists() {
                let saved = done.iter().map(|&id| scheduler::round(id, config.games)).collect();
                drop_unsaved_pgn_records(path, &saved)?;
            }
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|f| f.metadata().map(|m| (m.len(), f)))
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            Some(record_file::RecordFile::new(file.1, file.0))
        }
        None => None,
    };
    let log = match &config.log {
        Some(path) => {
            Some(TrafficLog::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?)
        }
        None => None,
    };

    // Start every engine once so a wrong path or protocol is reported now, not as a game lost.
    for spec in &config.engines {
        let e = EngineProcess::start(spec, log.clone()).map_err(|e| format!("engine {}: {e}", spec.name))?;
        if let Some(id) = e.id_name() {
            eprintln!("{}: {id} ({}, {})", spec.name, spec.dialect, spec.limits);
        }
    }

    let mut jobs = scheduler::jobs(pairings.len(), config.games, openings.len(), &done);
    let mut total = pairings.len() as u64 * config.games as u64;
    if let Some(shard) = config.shard {
        jobs.retain(|j| shard.holds(j.id.pair));
        total = scheduler::jobs(pairings.len(), config.games, openings.len(), &HashSet::new())
            .iter()
            .filter(|j| shard.holds(j.id.pair))
            .count() as u64;
    }
    let sprt = config.sprt.map(|s| stats::Sprt { elo0: s.elo0, elo1: s.elo1, alpha: s.alpha, beta: s.beta });
    // A slice must play all its games: the SPRT is decided on the merged results, not on one slice's.
    let decided = |t: &Tally| {
        config.shard.is_none() && sprt.is_some_and(|s| s.state(s.llr(&t.penta)) != stats::SprtState::Continue)
    };
    let mut progress = Progress::new(total);
    let mut finished = done.len() as u64;
    if finished > 0 {
        progress.message(&format!("resuming: {finished} of {total} games already played"));
    }
    let rules = Adjudication {
        margin_ms: config.margin_ms,
        timeout_ms: config.timeout_ms,
        draw: config.draw,
        resign: config.resign,
        max_plies: config.max_plies,
        ban_forbidden: config.ban_forbidden,
        game: config.game_rules,
    };
    let stop = AtomicBool::new(false);
    let mut failure: Option<String> = None;

    if !tallies.iter().any(decided) {
        let play = |job: &scheduler::Job| {
            let (a, b) = pairings[job.id.pairing];
            let (red, black) = if job.id.slot == 0 { (a, b) } else { (b, a) };
            game::play(&GameSetup {
                red: &config.engines[red],
                black: &config.engines[black],
                opening: &openings[job.opening],
                rules: &rules,
                log: log.clone(),
                stop: &stop,
            })
        };
        let on_result = |job: &scheduler::Job, rec: game::GameRecord| -> bool {
            let row = ResultRow::from_record(job.id, job.opening, &rec);
            // The PGN record first: a runner killed between the two writes leaves a record whose game is
            // not in the results file, which `--resume` drops and plays again ([`pgn::kept_on_resume`]);
            // the other order would lose the game's record for good.
            if let Some(f) = pgn_file.as_mut() {
                let text =
                    pgn::write_game_under(&rec, &config.event, job.round, config.notation, config.game_rules);
                if let Err(e) = f.append(text.as_bytes()) {
                    failure = Some(format!("PGN file: {e} (the games before this one are intact)"));
                    return false;
                }
            }
            if let Some(f) = results.as_mut() {
                if let Err(e) = f.append(&row) {
                    failure = Some(e.to_string());
                    return false;
                }
            }
            if rec.termination.is_fault() {
                progress.message(&format!(
                    "game {} ({} vs {}): {} {}: {}",
                    job.round, rec.red, rec.black, rec.outcome, rec.termination, rec.detail
                ));
            }
            let tally = &mut tallies[job.id.pairing];
            tally.add(&row);
            finished += 1;
            progress.update(finished, tally, sprt.as_ref());
            !decided(tally)
        };
        scheduler::run(jobs, config.concurrency, &stop, play, on_result);
    }
    progress.finish();
    if let Some(f) = failure {
        return Err(f.into());
    }

    let mut out = std::io::stdout().lock();
    let limits: Vec<String> = config.engines.iter().map(|e| format!("{}: {}", e.name, e.limits)).collect();
    writeln!(out, "Match: {} games of {total} played; {}", finished, limits.join("; "))?;
    for t in &tallies {
        write!(out, "{}", t.table(sprt.as_ref()))?;
    }
    Ok(())
}

/// Cuts off the records at the end of the PGN file whose games the results file does not have.
fn drop_unsaved_pgn_records(path: &std::path::Path, saved: &HashSet<u64>) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // A kill in the middle of a Chinese move leaves an incomplete character at the very end, in the record
    // that goes; bytes that are not UTF-8 anywhere else are not the runner's, and the file is left alone.
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return Ok(()),
    };
    let keep = pgn::kept_on_resume(text, saved);
    if keep < bytes.len() {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .and_then(|f| f.set_len(keep as u64))
            .map_err(|e| format!("cannot cut {}: {e}", path.display()))?;
        eprintln!("{}: dropped the record of a game the results file does not have", path.display());
    }
    Ok(())
}

/// The opening lines in playing order.
fn load_openings(config: &MatchConfig, seed: u64) -> Result<Vec<Opening>, openings::OpeningError> {
    let mut list = match &config.openings {
        Some(path) => openings::load(path)?,
        None => vec![Opening::startpos()],
    };
    if let Some(plies) = config.plies {
        openings::cut(&mut list, plies);
    }
    if config.order == Order::Random {
        SplitMix::new(seed).shuffle(&mut list);
    }
    Ok(list)
}

/// A seed from the clock, for a match given none (recorded in the results file for `--resume`).
fn clock_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    SplitMix::new(t.as_nanos() as u64 ^ u64::from(std::process::id())).next_u64()
}
