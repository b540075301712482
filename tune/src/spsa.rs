//! SPSA tuning of the search's parameters through `chuhan match`.
//!
//! Simultaneous perturbation stochastic approximation: each round perturbs every parameter at once by
//! ±c_k (a random sign per parameter), plays game pairs (colours swapped) between the engine with θ + c_kΔ
//! and the engine with θ − c_kΔ, and moves θ by a_k/c_k × (the plus side's net wins) × Δ. The gains
//! follow the usual schedules c_k = c / k^γ and a_k = a / (A + k)^α with α = 0.602, γ = 0.101 and
//! A = 10% of the planned rounds; c and a are derived, as tuning frameworks commonly do, from the
//! perturbation wanted at the end (`c_end`, a twentieth of the parameter's range) and the learning rate at
//! the end (`r_end` = a_end / c_end²).
//!
//! Games are played by the `chuhan` binary given (`chuhan match`, so the same clocks and referee as any
//! match), each side told its values with `option.tune.<name>=<value>`. After every round the state is
//! written to a checkpoint (rerun the same command to resume) and one row is appended to a CSV
//! trajectory of every parameter.

use arena::results::ResultRow;
use engine::random::Rng;
use engine::search::{SearchParams, Tunable};
use std::fmt::{self, Write as _};
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The SPSA exponent of the learning rate's decay.
const ALPHA: f64 = 0.602;
/// The SPSA exponent of the perturbation's decay.
const GAMMA: f64 = 0.101;

/// How a run is played.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The `chuhan` binary whose parameters are tuned (it also runs the matches).
    pub engine: PathBuf,
    /// Parameters to tune (names from [`SearchParams::TUNABLES`]); empty: all.
    pub params: Vec<String>,
    /// Planned rounds (sets the gain schedules; a run can be stopped and resumed at any round).
    pub rounds: u64,
    /// Game pairs per round.
    pub pairs_per_round: u64,
    /// `chuhan match` limits, e.g. `["--tc", "2+0.02"]` or `["--nodes", "20000"]`.
    pub limits: Vec<String>,
    /// Games at once.
    pub concurrency: usize,
    /// Opening lines.
    pub openings: PathBuf,
    /// Learning rate at the end of the run (a_end / c_end²).
    pub r_end: f64,
    /// Where the checkpoint, the trajectory and the per-round match files go.
    pub dir: PathBuf,
    /// Seed of the perturbation signs and opening choice.
    pub seed: u64,
}

/// Why a run, or reading its checkpoint, failed.
#[derive(Debug)]
pub enum SpsaError {
    /// A parameter asked for that the search does not have.
    UnknownParameter(String),
    /// A checkpoint line that is not `name value`.
    CheckpointLine(String),
    /// A checkpoint line whose value is not a number.
    CheckpointNumber(String),
    /// A checkpoint naming a parameter the search does not have.
    CheckpointParameter(String),
    /// The engine could not be started: (its path, why).
    Run(PathBuf, io::Error),
    /// `chuhan match` failed; what it wrote on stderr.
    MatchFailed(String),
    /// The match left no results file.
    NoResults(io::Error),
    /// A directory could not be created.
    Create(PathBuf, io::Error),
    /// A file could not be read.
    Read(PathBuf, io::Error),
    /// A file could not be written.
    Write(PathBuf, io::Error),
    /// A file could not be renamed over the old one.
    Replace(PathBuf, io::Error),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::UnknownParameter(n) => write!(f, "no search parameter called '{n}'"),
            SpsaError::CheckpointLine(line) => write!(f, "checkpoint line '{line}' is not 'name value'"),
            SpsaError::CheckpointNumber(line) => write!(f, "checkpoint line '{line}': bad number"),
            SpsaError::CheckpointParameter(n) => write!(f, "checkpoint names an unknown parameter '{n}'"),
            SpsaError::Run(engine, e) => write!(f, "cannot run {}: {e}", engine.display()),
            SpsaError::MatchFailed(stderr) => write!(f, "chuhan match failed: {stderr}"),
            SpsaError::NoResults(e) => write!(f, "no results from the match: {e}"),
            SpsaError::Create(path, e) => write!(f, "cannot create {}: {e}", path.display()),
            SpsaError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            SpsaError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            SpsaError::Replace(path, e) => write!(f, "cannot replace {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for SpsaError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SpsaError::Run(_, e)
            | SpsaError::NoResults(e)
            | SpsaError::Create(_, e)
            | SpsaError::Read(_, e)
            | SpsaError::Write(_, e)
            | SpsaError::Replace(_, e) => Some(e),
            _ => None,
        }
    }
}

/// One tuned parameter: its range and its current real-valued estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Theta {
    /// The parameter.
    pub tunable: Tunable,
    /// Current value (real; rounded when played).
    pub value: f64,
}

impl Theta {
    /// Perturbation at the end of the run: a twentieth of the range, at least 1.
    fn c_end(&self) -> f64 {
        ((self.tunable.max - self.tunable.min) as f64 / 20.0).max(1.0)
    }

    /// The integer value played for `value`, inside the range.
    fn played(&self, value: f64) -> i32 {
        (value.round() as i32).clamp(self.tunable.min, self.tunable.max)
    }
}

/// The state saved after every round.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaState {
    /// Rounds finished.
    pub round: u64,
    /// Games played.
    pub games: u64,
    /// The estimates.
    pub thetas: Vec<Theta>,
}

impl SpsaState {
    /// The start: every chosen parameter at its default.
    pub fn start(names: &[String]) -> Result<SpsaState, SpsaError> {
        let chosen: Vec<Tunable> = if names.is_empty() {
            SearchParams::TUNABLES.to_vec()
        } else {
            names
                .iter()
                .map(|n| {
                    SearchParams::TUNABLES
                        .iter()
                        .copied()
                        .find(|t| t.name == n)
                        .ok_or_else(|| SpsaError::UnknownParameter(n.clone()))
                })
                .collect::<Result<_, _>>()?
        };
        let thetas = chosen.into_iter().map(|t| Theta { tunable: t, value: t.default as f64 }).collect();
        Ok(SpsaState { round: 0, games: 0, thetas })
    }

    /// The checkpoint text: `round N`, `games N`, then `name value` lines.
    pub fn to_text(&self) -> String {
        let mut s = format!("round {}\ngames {}\n", self.round, self.games);
        for t in &self.thetas {
            let _ = writeln!(s, "{} {}", t.tunable.name, t.value);
        }
        s
    }

    /// Reads a checkpoint written by [`SpsaState::to_text`].
    pub fn from_text(text: &str) -> Result<SpsaState, SpsaError> {
        let mut state = SpsaState { round: 0, games: 0, thetas: Vec::new() };
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut words = line.split_whitespace();
            let (Some(key), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(SpsaError::CheckpointLine(line.to_string()));
            };
            let bad = || SpsaError::CheckpointNumber(line.to_string());
            match key {
                "round" => state.round = value.parse().map_err(|_| bad())?,
                "games" => state.games = value.parse().map_err(|_| bad())?,
                name => {
                    let tunable = SearchParams::TUNABLES
                        .iter()
                        .copied()
                        .find(|t| t.name == name)
                        .ok_or_else(|| SpsaError::CheckpointParameter(name.to_string()))?;
                    state.thetas.push(Theta { tunable, value: value.parse().map_err(|_| bad())? });
                }
            }
        }
        Ok(state)
    }
}

/// The gains of round `k` (1-based) for parameter `t`: (c_k, a_k).
fn gains(t: &Theta, k: u64, rounds: u64, r_end: f64) -> (f64, f64) {
    let n = rounds.max(1) as f64;
    let big_a = 0.1 * n;
    let c_end = t.c_end();
    let c = c_end * n.powf(GAMMA);
    let a_end = r_end * c_end * c_end;
    let a = a_end * (big_a + n).powf(ALPHA);
    let k = k as f64;
    (c / k.powf(GAMMA), a / (big_a + k).powf(ALPHA))
}

/// The `--engine` words of one side.
fn engine_words(config: &SpsaConfig, name: &str, values: &[(&str, i32)]) -> Vec<String> {
    let mut words = vec![format!("name={name}"), format!("cmd={}", config.engine.display())];
    words.extend(values.iter().map(|(n, v)| format!("option.tune.{n}={v}")));
    words.push("option.Threads=1".into());
    words.push("option.Hash=16".into());
    words
}

/// Plays one round's games and returns the plus side's wins minus its losses.
fn play_round(
    config: &SpsaConfig,
    plus: &[(&str, i32)],
    minus: &[(&str, i32)],
    seed: u64,
) -> Result<i64, SpsaError> {
    // Named by this process, so that the match of a killed run, which may still be finishing its games,
    // never writes into the file of the run that resumed it.
    let results = config.dir.join(format!("round-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&results);
    let mut cmd = Command::new(&config.engine);
    cmd.arg("match").arg("--engine").args(engine_words(config, "plus", plus));
    cmd.arg("--engine").args(engine_words(config, "minus", minus));
    cmd.args(&config.limits);
    cmd.args(["--games", &(2 * config.pairs_per_round).to_string()]);
    cmd.args(["--concurrency", &config.concurrency.max(1).to_string()]);
    cmd.arg("--openings").arg(&config.openings);
    cmd.args(["--order", "random", "--seed", &seed.to_string()]);
    cmd.arg("--results").arg(&results);
    let out = cmd.output().map_err(|e| SpsaError::Run(config.engine.clone(), e))?;
    if !out.status.success() {
        return Err(SpsaError::MatchFailed(String::from_utf8_lossy(&out.stderr).into_owned()));
    }
    let text = std::fs::read_to_string(&results).map_err(SpsaError::NoResults)?;
    let _ = std::fs::remove_file(&results);
    let mut net = 0i64;
    for row in text.lines().filter_map(ResultRow::parse) {
        let plus_color = if row.red == "plus" { engine::Color::Red } else { engine::Color::Black };
        net += match row.outcome.points(plus_color) {
            p if p > 0.75 => 1,
            p if p < 0.25 => -1,
            _ => 0,
        };
    }
    Ok(net)
}

/// Runs rounds until the planned number, resuming from the checkpoint in `config.dir` if there is one.
/// `progress` is told each finished round.
pub fn run(config: &SpsaConfig, mut progress: impl FnMut(&SpsaState, i64)) -> Result<SpsaState, SpsaError> {
    std::fs::create_dir_all(&config.dir).map_err(|e| SpsaError::Create(config.dir.clone(), e))?;
    let checkpoint = config.dir.join("state.txt");
    let trajectory = config.dir.join("trajectory.csv");
    let mut state = match std::fs::read_to_string(&checkpoint) {
        Ok(text) => SpsaState::from_text(&text)?,
        Err(_) => SpsaState::start(&config.params)?,
    };
    match std::fs::read_to_string(&trajectory) {
        // A run stopped between appending a round's row and writing the checkpoint plays that round again:
        // drop the rows the checkpoint does not hold, so that each round has one row.
        Ok(text) => {
            let kept = trajectory_up_to(&text, state.round);
            if kept.len() != text.len() {
                write_atomically(&trajectory, kept)?;
            }
        }
        Err(_) => {
            let header: Vec<&str> = state.thetas.iter().map(|t| t.tunable.name).collect();
            write(&trajectory, &format!("round,games,result,{}\n", header.join(",")), false)?;
        }
    }
    while state.round < config.rounds {
        let k = state.round + 1;
        // The round's signs depend only on the seed and the round, so a resumed run continues the same way.
        let mut rng = Rng::new(config.seed ^ k.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let steps: Vec<(f64, f64, f64)> = state
            .thetas
            .iter()
            .map(|t| {
                let (c, a) = gains(t, k, config.rounds, config.r_end);
                let delta = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
                (c, a, delta)
            })
            .collect();
        let side = |sign: f64| -> Vec<(&str, i32)> {
            state
                .thetas
                .iter()
                .zip(&steps)
                .map(|(t, (c, _, d))| (t.tunable.name, t.played(t.value + sign * c * d)))
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        let net = play_round(config, &plus, &minus, rng.next_u64())?;
        for (t, (c, a, d)) in state.thetas.iter_mut().zip(&steps) {
            let moved = t.value + a / c * net as f64 * d;
            t.value = moved.clamp(t.tunable.min as f64, t.tunable.max as f64);
        }
        state.round = k;
        state.games += 2 * config.pairs_per_round;
        let values: Vec<String> = state.thetas.iter().map(|t| format!("{:.3}", t.value)).collect();
        write(&trajectory, &format!("{},{},{},{}\n", state.round, state.games, net, values.join(",")), true)?;
        write_atomically(&checkpoint, &state.to_text())?;
        progress(&state, net);
    }
    Ok(state)
}

/// The end-of-run summary: every parameter's default and tuned value.
pub fn summary(state: &SpsaState) -> String {
    let mut s = format!("SPSA after {} rounds, {} games\n", state.round, state.games);
    for t in &state.thetas {
        let _ = writeln!(
            s,
            "{:<28} default {:>6}  tuned {:>9.2}  (plays as {})  range {}..={}",
            t.tunable.name,
            t.tunable.default,
            t.value,
            t.played(t.value),
            t.tunable.min,
            t.tunable.max
        );
    }
    s
}

/// The `option.tune.<name>=<value>` words (for `chuhan match --engine`) that make an engine play the
/// state's values: one per parameter whose played value differs from its default.
pub fn tuned_options(state: &SpsaState) -> Vec<String> {
    state
        .thetas
        .iter()
        .filter(|t| t.played(t.value) != t.tunable.default)
        .map(|t| format!("option.tune.{}={}", t.tunable.name, t.played(t.value)))
        .collect()
}

/// Reads the checkpoint of the run in `dir`.
pub fn load(dir: &Path) -> Result<SpsaState, SpsaError> {
    let path = dir.join("state.txt");
    let text = std::fs::read_to_string(&path).map_err(|e| SpsaError::Read(path.clone(), e))?;
    SpsaState::from_text(&text)
}

/// The header and the rows of rounds 1..=`round` of a trajectory's text (rows are in round order).
fn trajectory_up_to(text: &str, round: u64) -> &str {
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let row_round = line.split(',').next().and_then(|r| r.trim().parse::<u64>().ok());
        if row_round.is_some_and(|r| r > round) {
            break;
        }
        end += line.len();
    }
    &text[..end]
}

/// Replaces `path` with `text` by writing a sibling file and renaming it over `path`, so that a run killed
/// while writing leaves the old file whole rather than a truncated one.
fn write_atomically(path: &Path, text: &str) -> Result<(), SpsaError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    write(&tmp, text, false)?;
    std::fs::rename(&tmp, path).map_err(|e| SpsaError::Replace(path.to_path_buf(), e))
}

/// Writes (or appends) `text` to `path`.
fn write(path: &Path, text: &str, append: bool) -> Result<(), SpsaError> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(append)
        .write(true)
        .truncate(!append)
        .open(path)
        .map_err(|e| SpsaError::Write(path.to_path_buf(), e))?;
    f.write_all(text.as_bytes()).map_err(|e| SpsaError::Write(path.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_name_unknown_parameters() {
        let mut state = SpsaState::start(&["rfp_margin".into(), "lmr_base".into()]).expect("known");
        state.round = 7;
        state.games = 28;
        state.thetas[0].value = 71.25;
        assert_eq!(SpsaState::from_text(&state.to_text()).expect("reads"), state);
        // 71.25 plays as 71 (the default is 70); lmr_base still plays its default, so it is not named.
        assert_eq!(tuned_options(&state), ["option.tune.rfp_margin=71"]);
        state.thetas[1].value = 1e9;
        let top = state.thetas[1].tunable.max;
        assert_eq!(tuned_options(&state)[1], format!("option.tune.lmr_base={top}"), "clamped to the range");
        assert!(SpsaState::start(&["no_such".into()]).is_err());
        assert!(SpsaState::from_text("no_such 3").is_err());
        assert_eq!(SpsaState::start(&[]).expect("all").thetas.len(), SearchParams::TUNABLES.len());
    }

    #[test]
    fn a_resumed_trajectory_keeps_only_the_checkpoints_rounds() {
        let text = "round,games,result,a\n1,4,0,70.1\n2,8,-1,70.0\n3,12,2,70.4\n";
        assert_eq!(trajectory_up_to(text, 3), text);
        assert_eq!(trajectory_up_to(text, 2), "round,games,result,a\n1,4,0,70.1\n2,8,-1,70.0\n");
        assert_eq!(trajectory_up_to(text, 0), "round,games,result,a\n");
        // A row cut off by a kill has no newline; it goes with the rounds past the checkpoint.
        assert_eq!(trajectory_up_to("round,a\n1,4,0,7\n2,8", 1), "round,a\n1,4,0,7\n");
    }

    #[test]
    fn checkpoints_are_replaced_whole() {
        let dir = std::env::temp_dir().join(format!("chuhan-spsa-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("state.txt");
        write_atomically(&path, "round 1\n").expect("written");
        write_atomically(&path, "round 2\n").expect("replaced");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "round 2\n");
        let names: Vec<_> =
            std::fs::read_dir(&dir).expect("list").map(|e| e.expect("entry").file_name()).collect();
        assert_eq!(names, ["state.txt"], "no temporary file is left behind");
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }

    #[test]
    fn gains_shrink_over_the_run() {
        let state = SpsaState::start(&["rfp_margin".into()]).expect("known");
        let t = &state.thetas[0];
        let (c1, a1) = gains(t, 1, 1000, 0.002);
        let (cn, an) = gains(t, 1000, 1000, 0.002);
        assert!(c1 > cn && a1 > an);
        // At the end the perturbation is a twentieth of the range.
        assert!((cn - t.c_end()).abs() < 1e-9);
        assert!((an - 0.002 * t.c_end() * t.c_end()).abs() < 1e-9);
    }
}
