//! The match's command line: engine specifications, time controls and every other setting, parsed by hand
//! because `--engine` takes a run of `key=value` words that clap cannot express without losing their order.

use engine::rules::GameRules;
pub use engine::Dialect;
use std::fmt;
use std::path::PathBuf;

/// A clock: `base` for `moves` moves (or the whole game), plus `increment` after every move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per period in milliseconds.
    pub base_ms: u64,
    /// Time added after each move in milliseconds.
    pub increment_ms: u64,
    /// Moves per period (`40/60+0`); `None` for sudden death.
    pub moves: Option<u32>,
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}+{}", self.base_ms as f64 / 1000.0, self.increment_ms as f64 / 1000.0)
    }
}

/// How long an engine may think: any combination; at least one must be set for every engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// A game clock kept by the runner.
    pub tc: Option<TimeControl>,
    /// Fixed time per move in milliseconds.
    pub movetime_ms: Option<u64>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed node count.
    pub nodes: Option<u64>,
}

impl SearchLimits {
    /// Each limit of `over` that is set replaces the one here.
    fn overlay(&self, over: &SearchLimits) -> SearchLimits {
        SearchLimits {
            tc: over.tc.or(self.tc),
            movetime_ms: over.movetime_ms.or(self.movetime_ms),
            depth: over.depth.or(self.depth),
            nodes: over.nodes.or(self.nodes),
        }
    }

    fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime_ms.is_none() && self.depth.is_none() && self.nodes.is_none()
    }
}

impl fmt::Display for SearchLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(t) = self.movetime_ms {
            parts.push(format!("movetime {t} ms"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes {n}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name used in tables, PGN and the results file (unique within the match).
    pub name: String,
    /// The program to run.
    pub cmd: PathBuf,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// Working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub dialect: Dialect,
    /// Options sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Thinking limits (the match-wide ones with this engine's own on top).
    pub limits: SearchLimits,
    /// How long it may take to start, answer the handshake or answer `isready` (`ready=MS`).
    pub ready_ms: u64,
}

/// The default of `ready=MS`: generous, since an engine may load a large network or table at start.
pub const READY_MS: u64 = 10_000;

/// Order in which opening lines are used.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Shuffled with the match seed.
    Random,
    /// As in the file.
    Sequential,
}

impl Order {
    /// The word `--order` takes, and the results file's header records.
    pub fn word(self) -> &'static str {
        match self {
            Order::Random => "random",
            Order::Sequential => "sequential",
        }
    }

    /// The order `word` names.
    pub fn from_word(word: &str) -> Option<Order> {
        [Order::Random, Order::Sequential].into_iter().find(|o| o.word() == word)
    }
}

/// Draw adjudication: both engines' scores within ±`score` cp for `movecount` consecutive moves each, from
/// move number `movenumber` on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move at which the rule may apply.
    pub movenumber: u32,
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Score bound in centipawns.
    pub score: i32,
}

/// Resign adjudication: one engine at or below -`score` and its opponent at or above +`score` for
/// `movecount` consecutive moves each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Score bound in centipawns.
    pub score: i32,
}

/// SPRT bounds (logistic Elo) and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
}

/// Notation of the PGN move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Coordinates (`h2e2`), with the Chinese notation in a comment.
    Iccs,
    /// Chinese (`炮二平五`), with the coordinates in a comment.
    Chinese,
}

/// Everything a match needs to know.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// Two or more engines; the first plays each of the others unless `round_robin`.
    pub engines: Vec<EngineSpec>,
    /// Every engine against every other.
    pub round_robin: bool,
    /// Games per pairing (for a two-engine match, the total).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Allowed overrun of the clock or movetime before a forfeit, in milliseconds.
    pub margin_ms: u64,
    /// How long to wait for a reply to a depth- or node-limited `go` (no clock to go by), in milliseconds.
    pub timeout_ms: u64,
    /// Opening file (FEN lines, FEN + moves, or PGN); `None` = the start position.
    pub openings: Option<PathBuf>,
    /// Order of the opening lines.
    pub order: Order,
    /// Keep at most this many plies of each opening line.
    pub plies: Option<usize>,
    /// Seed for the random opening order (default: from the clock with `--order random`, 0 with
    /// `--order sequential`, which it does not change; recorded in the results file).
    pub seed: Option<u64>,
    /// Results file, one line per finished game.
    pub results: Option<PathBuf>,
    /// Continue the match recorded in `results`.
    pub resume: bool,
    /// PGN output file (appended).
    pub pgn: Option<PathBuf>,
    /// PGN move text notation.
    pub notation: Notation,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Stop a game as a draw after this many plies.
    pub max_plies: Option<u32>,
    /// Sequential probability ratio test (two engines only).
    pub sprt: Option<SprtConfig>,
    /// Engine traffic log.
    pub log: Option<PathBuf>,
    /// Tell each engine which moves would lose by a repetition rule (UCCI `banmoves`, UCI `searchmoves`).
    pub ban_forbidden: bool,
    /// PGN `Event` tag.
    pub event: String,
    /// Play only this slice of the game list (`--shard I/N`).
    pub shard: Option<Shard>,
    /// The rules the referee judges by (`--rules`, `--move-limit`), written in each PGN's header.
    pub game_rules: GameRules,
}

/// One of N disjoint slices of a match's game list: game pair `p` of every pairing belongs to slice
/// `p mod N`, so pairs (one opening, both colours) stay together and the slices together are the match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based slice index (`--shard 1/N` is index 0).
    pub index: u32,
    /// Number of slices.
    pub count: u32,
}

impl Shard {
    /// Whether game pair `pair` is in this slice.
    pub fn holds(&self, pair: u32) -> bool {
        pair % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// Reads `I/N` with 1 <= I <= N.
pub fn parse_shard(text: &str) -> Option<Shard> {
    let (i, n) = text.split_once('/')?;
    let (i, n): (u32, u32) = (i.trim().parse().ok()?, n.trim().parse().ok()?);
    (1..=n).contains(&i).then(|| Shard { index: i - 1, count: n })
}

/// What was wrong with the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// `--help` was asked for (not an error; the caller prints the usage).
    Help,
    /// An option that does not exist.
    UnknownOption(String),
    /// An option without its value.
    MissingValue(String),
    /// A value that does not parse; (option, value, what was expected).
    BadValue(String, String, &'static str),
    /// A key of `--engine`, `--draw`, `--resign` or `--sprt` that does not exist.
    UnknownKey(String, String),
    /// An engine without `cmd=`.
    MissingCommand(String),
    /// Fewer than two engines.
    TooFewEngines,
    /// Two engines with one name.
    DuplicateName(String),
    /// An engine with no time control, movetime, depth or nodes.
    NoLimits(String),
    /// A node limit for a CECP engine, which CECP cannot express.
    CecpNodes(String),
    /// `--sprt` with more than two engines.
    SprtNeedsTwo,
    /// `--resume` without `--results`.
    ResumeNeedsResults,
    /// `--shard` without what every slice needs.
    ShardNeeds(&'static str),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Help => f.write_str("help requested"),
            ConfigError::UnknownOption(o) if o == "--log" => f.write_str(
                "--log is chuhan's own log (give it before 'match'); the engine traffic is --engine-log",
            ),
            ConfigError::UnknownOption(o) => write!(f, "unknown option '{o}' (see chuhan match --help)"),
            ConfigError::MissingValue(o) => write!(f, "{o} needs a value"),
            ConfigError::BadValue(o, v, want) => write!(f, "{o}: '{v}' is not {want}"),
            ConfigError::UnknownKey(o, k) => write!(f, "{o}: unknown key '{k}'"),
            ConfigError::MissingCommand(n) => write!(f, "engine '{n}' has no cmd=PATH"),
            ConfigError::TooFewEngines => f.write_str("a match needs at least two --engine"),
            ConfigError::DuplicateName(n) => write!(f, "two engines are named '{n}' (give them name=...)"),
            ConfigError::NoLimits(n) => {
                write!(f, "engine '{n}' has no limit: give --tc, --movetime, --depth or --nodes")
            }
            ConfigError::CecpNodes(n) => {
                write!(
                    f,
                    "engine '{n}' speaks CECP, which has no node limit: give it tc=, movetime= or depth="
                )
            }
            ConfigError::SprtNeedsTwo => f.write_str("--sprt needs exactly two engines"),
            ConfigError::ResumeNeedsResults => f.write_str("--resume needs --results FILE"),
            ConfigError::ShardNeeds(what) => write!(f, "--shard needs {what}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// The usage text of `chuhan match`.
pub const USAGE: &str = "\
chuhan match: engine-vs-engine matches (gauntlet, round robin, SPRT)

Usage: chuhan match --engine KEY=VALUE... --engine KEY=VALUE... [OPTIONS]
       chuhan match merge [--sprt KEY=VALUE...] [--results OUT] FILE...   (results of --shard runs)

Engine keys (after --engine; --each sets defaults for every engine):
  name=NAME            name in tables and PGN (default: the file name of cmd)
  cmd=PATH             program to run (required)
  arg=WORD             one command-line argument (repeat for more)
  dir=DIR              working directory
  proto=uci|ucci|cecp  protocol (default uci; cecp, or xboard, is XBoard's: no nodes= limit)
  option.NAME=VALUE    option sent after the handshake (repeatable)
  tc=.. movetime=.. depth=.. nodes=..   this engine's own limits (handicap)
  ready=MS             wait for its handshake and readyok (default 10000)

Options:
  --tc 10+0.1 | 40/60+0   clock: seconds [+ increment], optionally MOVES/ per period
  --movetime MS            fixed time per move
  --depth N  --nodes N     fixed depth / nodes per move
  --margin-ms MS           overrun allowed before a time forfeit (default 100)
  --timeout-ms MS          wait for a depth/nodes move before 'no reply' (default 60000)
  --games N                games per pairing (default 2; pairs with colours swapped)
  --concurrency K          games at once (default 1)
  --round-robin            every engine against every other (default: the first against the rest)
  --openings FILE          FEN lines, FEN + 'moves ...' lines, or PGN
  --order random|sequential   opening order (default sequential)
  --plies N                cut opening lines to N plies
  --seed N                 seed of the random opening order (nothing else depends on it)
  --shard I/N              play only slice I of N of the game list (game pairs kept together); needs
                           --results, and --seed with --order random; combine with `chuhan match merge`
  --results FILE           append one line per finished game
  --resume                 continue the match recorded in --results
  --pgn FILE               append the games as PGN
  --pgn-notation iccs|chinese   PGN move text (default iccs; the other notation goes in comments)
  --draw movenumber=K movecount=M score=N   adjudicate a draw
  --resign movecount=M score=N              adjudicate a loss
  --max-plies N            adjudicate a draw after N plies
  --rules chinese|asian|computer   the repetition rules the referee judges by (default chinese; in the
                           PGN header; tell the engines with their own option, e.g. --each option.Rule=asian)
  --move-limit N           moves without a capture that draw the game (default 60; 0: none)
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   stop when the test decides (logistic Elo)
  --no-banmoves            do not tell engines which moves a repetition rule forbids (by default UCCI engines
                           get `banmoves`, UCI engines `go ... searchmoves` without them, as GUIs do)
  --engine-log FILE        record every line to and from the engines, and their stderr ('!')
  --event TEXT             PGN Event tag
";

/// Parses the words after `chuhan match`.
pub fn parse(args: &[String]) -> Result<MatchConfig, ConfigError> {
    let mut engine_words: Vec<Vec<String>> = Vec::new();
    let mut each_words: Vec<String> = Vec::new();
    let mut global = SearchLimits::default();
    let mut config = MatchConfig {
        engines: Vec::new(),
        round_robin: false,
        games: 2,
        concurrency: 1,
        margin_ms: 100,
        timeout_ms: 60_000,
        openings: None,
        order: Order::Sequential,
        plies: None,
        seed: None,
        results: None,
        resume: false,
        pgn: None,
        notation: Notation::Iccs,
        draw: None,
        resign: None,
        max_plies: None,
        sprt: None,
        log: None,
        ban_forbidden: true,
        event: "chuhan match".to_string(),
        shard: None,
        game_rules: GameRules::default(),
    };

    let mut words = Words::new(args);
    while let Some((opt, inline)) = words.next_option()? {
        let value = |words: &mut Words| words.value(&opt, inline.clone());
        match opt.as_str() {
            "--help" | "-h" => return Err(ConfigError::Help),
            "--engine" => engine_words.push(words.key_values(&opt, inline.clone())?),
            "--each" => each_words.extend(words.key_values(&opt, inline.clone())?),
            "--round-robin" => config.round_robin = true,
            "--resume" => config.resume = true,
            "--no-banmoves" => config.ban_forbidden = false,
            "--tc" => global.tc = Some(parse_tc(&opt, &value(&mut words)?)?),
            "--movetime" => global.movetime_ms = Some(number(&opt, &value(&mut words)?)?),
            "--depth" => global.depth = Some(number(&opt, &value(&mut words)?)?),
            "--nodes" => global.nodes = Some(number(&opt, &value(&mut words)?)?),
            "--margin-ms" => config.margin_ms = number(&opt, &value(&mut words)?)?,
            "--timeout-ms" => config.timeout_ms = number(&opt, &value(&mut words)?)?,
            "--games" => config.games = number(&opt, &value(&mut words)?)?,
            "--concurrency" => config.concurrency = number::<usize>(&opt, &value(&mut words)?)?.max(1),
            "--openings" => config.openings = Some(PathBuf::from(value(&mut words)?)),
            "--order" => {
                let v = value(&mut words)?;
                config.order = match Order::from_word(&v) {
                    Some(order) => order,
                    None => return Err(ConfigError::BadValue(opt, v, "random or sequential")),
                }
            }
            "--plies" => config.plies = Some(number(&opt, &value(&mut words)?)?),
            "--seed" => config.seed = Some(number(&opt, &value(&mut words)?)?),
            "--results" => config.results = Some(PathBuf::from(value(&mut words)?)),
            "--pgn" => config.pgn = Some(PathBuf::from(value(&mut words)?)),
            "--pgn-notation" => {
                let v = value(&mut words)?;
                config.notation = match v.as_str() {
                    "iccs" => Notation::Iccs,
                    "chinese" => Notation::Chinese,
                    _ => return Err(ConfigError::BadValue(opt, v, "iccs or chinese")),
                }
            }
            "--draw" => config.draw = Some(parse_draw(&opt, &words.key_values(&opt, inline.clone())?)?),
            "--resign" => config.resign = Some(parse_resign(&opt, &words.key_values(&opt, inline.clone())?)?),
            "--max-plies" => config.max_plies = Some(number(&opt, &value(&mut words)?)?),
            "--sprt" => config.sprt = Some(parse_sprt(&opt, &words.key_values(&opt, inline.clone())?)?),
            "--engine-log" => config.log = Some(PathBuf::from(value(&mut words)?)),
            "--event" => config.event = value(&mut words)?,
            "--rules" => {
                let v = value(&mut words)?;
                config.game_rules.set =
                    v.parse().map_err(|_| ConfigError::BadValue(opt, v, "chinese, asian or computer"))?
            }
            "--move-limit" => {
                config.game_rules.move_limit_plies =
                    2 * number::<u32>(&opt, &value(&mut words)?)?.min(100_000)
            }
            "--shard" => {
                let v = value(&mut words)?;
                config.shard =
                    Some(parse_shard(&v).ok_or(ConfigError::BadValue(opt, v, "I/N with 1 <= I <= N"))?);
            }
            _ => return Err(ConfigError::UnknownOption(opt)),
        }
    }

    for words in &engine_words {
        let all: Vec<String> = each_words.iter().chain(words.iter()).cloned().collect();
        config.engines.push(parse_engine(&all, &global)?);
    }
    if config.engines.len() < 2 {
        return Err(ConfigError::TooFewEngines);
    }
    for (i, e) in config.engines.iter().enumerate() {
        if config.engines[..i].iter().any(|o| o.name == e.name) {
            return Err(ConfigError::DuplicateName(e.name.clone()));
        }
        if e.limits.is_empty() {
            return Err(ConfigError::NoLimits(e.name.clone()));
        }
        if e.dialect == Dialect::Cecp && e.limits.nodes.is_some() {
            return Err(ConfigError::CecpNodes(e.name.clone()));
        }
    }
    if config.sprt.is_some() && config.engines.len() != 2 {
        return Err(ConfigError::SprtNeedsTwo);
    }
    if config.resume && config.results.is_none() {
        return Err(ConfigError::ResumeNeedsResults);
    }
    if config.shard.is_some() {
        // Every slice must draw the same game list: the same opening order, and a file to merge.
        if config.results.is_none() {
            return Err(ConfigError::ShardNeeds("--results FILE"));
        }
        if config.order == Order::Random && config.seed.is_none() {
            return Err(ConfigError::ShardNeeds("--seed N with --order random"));
        }
    }
    Ok(config)
}

/// A cursor over the argument words.
struct Words<'a> {
    args: &'a [String],
    at: usize,
}

impl<'a> Words<'a> {
    fn new(args: &'a [String]) -> Words<'a> {
        Words { args, at: 0 }
    }

    /// The next option name and, for `--opt=value`, its inline value.
    fn next_option(&mut self) -> Result<Option<(String, Option<String>)>, ConfigError> {
        let Some(word) = self.args.get(self.at) else { return Ok(None) };
        self.at += 1;
        if !word.starts_with('-') {
            return Err(ConfigError::UnknownOption(word.clone()));
        }
        Ok(Some(match word.split_once('=') {
            Some((o, v)) if o.starts_with("--") && !matches!(o, "--engine" | "--each") => {
                (o.to_string(), Some(v.to_string()))
            }
            _ => (word.clone(), None),
        }))
    }

    fn value(&mut self, opt: &str, inline: Option<String>) -> Result<String, ConfigError> {
        if let Some(v) = inline {
            return Ok(v);
        }
        match self.args.get(self.at) {
            Some(v) if !v.starts_with("--") => {
                self.at += 1;
                Ok(v.clone())
            }
            _ => Err(ConfigError::MissingValue(opt.to_string())),
        }
    }

    /// The `key=value` words that follow an option, up to the next `--option`.
    fn key_values(&mut self, opt: &str, inline: Option<String>) -> Result<Vec<String>, ConfigError> {
        let mut out: Vec<String> = inline.into_iter().collect();
        while let Some(w) = self.args.get(self.at) {
            if w.starts_with("--") {
                break;
            }
            if !w.contains('=') {
                return Err(ConfigError::BadValue(opt.to_string(), w.clone(), "a key=value word"));
            }
            out.push(w.clone());
            self.at += 1;
        }
        if out.is_empty() {
            return Err(ConfigError::MissingValue(opt.to_string()));
        }
        Ok(out)
    }
}

fn number<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T, ConfigError> {
    v.trim().parse().map_err(|_| ConfigError::BadValue(opt.to_string(), v.to_string(), "a number"))
}

fn seconds_to_ms(opt: &str, v: &str) -> Result<u64, ConfigError> {
    let bad =
        || ConfigError::BadValue(opt.to_string(), v.to_string(), "a time control like 10+0.1 or 40/60+0");
    let s: f64 = v.trim().parse().map_err(|_| bad())?;
    if !s.is_finite() || !(0.0..=1e9).contains(&s) {
        return Err(bad());
    }
    Ok((s * 1000.0).round() as u64)
}

/// Parses `10+0.1`, `60`, `40/60+0` (seconds; moves per period before the slash).
pub fn parse_tc(opt: &str, v: &str) -> Result<TimeControl, ConfigError> {
    let bad =
        || ConfigError::BadValue(opt.to_string(), v.to_string(), "a time control like 10+0.1 or 40/60+0");
    let (moves, rest) = match v.split_once('/') {
        Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?.max(1)), r),
        None => (None, v),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, i),
        None => (rest, "0"),
    };
    let tc =
        TimeControl { base_ms: seconds_to_ms(opt, base)?, increment_ms: seconds_to_ms(opt, inc)?, moves };
    if tc.base_ms == 0 && tc.increment_ms == 0 {
        return Err(bad());
    }
    Ok(tc)
}

fn parse_engine(words: &[String], global: &SearchLimits) -> Result<EngineSpec, ConfigError> {
    const OPT: &str = "--engine";
    let mut name = None;
    let mut cmd = None;
    let mut args = Vec::new();
    let mut dir = None;
    let mut dialect = Dialect::Uci;
    let mut options: Vec<(String, String)> = Vec::new();
    let mut own = SearchLimits::default();
    let mut ready_ms = READY_MS;
    for w in words {
        let (k, v) = w.split_once('=').unwrap_or((w.as_str(), ""));
        match k {
            "name" => name = Some(v.to_string()),
            "cmd" => cmd = Some(PathBuf::from(v)),
            "arg" => args.push(v.to_string()),
            "dir" => dir = Some(PathBuf::from(v)),
            "proto" => {
                dialect = match v.to_ascii_lowercase().as_str() {
                    "uci" => Dialect::Uci,
                    "ucci" => Dialect::Ucci,
                    "cecp" | "xboard" => Dialect::Cecp,
                    _ => return Err(ConfigError::BadValue(OPT.into(), w.clone(), "proto=uci, ucci or cecp")),
                }
            }
            "tc" => own.tc = Some(parse_tc(OPT, v)?),
            "movetime" => own.movetime_ms = Some(number(OPT, v)?),
            "depth" => own.depth = Some(number(OPT, v)?),
            "nodes" => own.nodes = Some(number(OPT, v)?),
            "ready" => ready_ms = number(OPT, v)?,
            _ => match k.strip_prefix("option.") {
                Some(opt_name) if !opt_name.is_empty() => {
                    // A later word (the engine's own after --each) replaces an earlier one of the same name.
                    options.retain(|(n, _)| !n.eq_ignore_ascii_case(opt_name));
                    options.push((opt_name.to_string(), v.to_string()));
                }
                _ => return Err(ConfigError::UnknownKey(OPT.into(), k.to_string())),
            },
        }
    }
    let cmd = cmd.ok_or_else(|| ConfigError::MissingCommand(name.clone().unwrap_or_default()))?;
    let name = name.unwrap_or_else(|| {
        cmd.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "engine".into())
    });
    Ok(EngineSpec { name, cmd, args, dir, dialect, options, limits: global.overlay(&own), ready_ms })
}

fn key_map<'a>(
    opt: &str,
    words: &'a [String],
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, ConfigError> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').unwrap_or((w.as_str(), ""));
            if keys.contains(&k) {
                Ok((k, v))
            } else {
                Err(ConfigError::UnknownKey(opt.to_string(), k.to_string()))
            }
        })
        .collect()
}

fn parse_draw(opt: &str, words: &[String]) -> Result<DrawRule, ConfigError> {
    let mut rule = DrawRule { movenumber: 0, movecount: 8, score: 10 };
    for (k, v) in key_map(opt, words, &["movenumber", "movecount", "score"])? {
        match k {
            "movenumber" => rule.movenumber = number(opt, v)?,
            "movecount" => rule.movecount = number::<u32>(opt, v)?.max(1),
            _ => rule.score = number(opt, v)?,
        }
    }
    Ok(rule)
}

fn parse_resign(opt: &str, words: &[String]) -> Result<ResignRule, ConfigError> {
    let mut rule = ResignRule { movecount: 3, score: 1000 };
    for (k, v) in key_map(opt, words, &["movecount", "score"])? {
        match k {
            "movecount" => rule.movecount = number::<u32>(opt, v)?.max(1),
            _ => rule.score = number(opt, v)?,
        }
    }
    Ok(rule)
}

/// `--sprt KEY=VALUE...` on its own (for `chuhan match merge`): `words[0]` is the option.
pub fn parse_sprt_words(words: &[String]) -> Result<SprtConfig, ConfigError> {
    let (opt, rest) = words.split_first().ok_or(ConfigError::MissingValue("--sprt".into()))?;
    parse_sprt(opt, rest)
}

fn parse_sprt(opt: &str, words: &[String]) -> Result<SprtConfig, ConfigError> {
    let mut s = SprtConfig { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
    for (k, v) in key_map(opt, words, &["elo0", "elo1", "alpha", "beta"])? {
        let x: f64 = number(opt, v)?;
        match k {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            _ => s.beta = x,
        }
    }
    let rate_ok = |p: f64| p > 0.0 && p < 0.5;
    if s.elo0 >= s.elo1
        || !rate_ok(s.alpha)
        || !rate_ok(s.beta)
        || s.elo0.abs() > 1000.0
        || s.elo1.abs() > 1000.0
    {
        return Err(ConfigError::BadValue(
            opt.to_string(),
            words.join(" "),
            "elo0 < elo1 (within ±1000) and alpha, beta in (0, 0.5)",
        ));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            parse_tc("--tc", "10+0.1"),
            Ok(TimeControl { base_ms: 10_000, increment_ms: 100, moves: None })
        );
        assert_eq!(
            parse_tc("--tc", "40/60+0"),
            Ok(TimeControl { base_ms: 60_000, increment_ms: 0, moves: Some(40) })
        );
        assert_eq!(parse_tc("--tc", "5"), Ok(TimeControl { base_ms: 5_000, increment_ms: 0, moves: None }));
        assert!(parse_tc("--tc", "fast").is_err());
        assert!(parse_tc("--tc", "0+0").is_err());
        assert!(parse_tc("--tc", "-1+2").is_err());
        assert!(parse_tc("--tc", "x/60").is_err());
    }

    #[test]
    fn engines_and_options_parse() {
        let c = parse(&words(
            "--engine name=a cmd=/bin/a arg=--x arg=y proto=ucci option.Hash=64 tc=20+0.2 \
             --engine cmd=/usr/bin/b option.Threads=2 --each option.Hash=16 \
             --tc=10+0.1 --games 4 --concurrency 2 --draw movenumber=30 movecount=8 score=5 \
             --resign movecount=3 score=900 --sprt elo0=0 elo1=5 --pgn-notation chinese",
        ))
        .expect("valid");
        assert_eq!(c.engines.len(), 2);
        let a = &c.engines[0];
        assert_eq!(a.name, "a");
        assert_eq!(a.args, vec!["--x", "y"]);
        assert_eq!(a.dialect, Dialect::Ucci);
        assert_eq!(a.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(a.limits.tc, Some(TimeControl { base_ms: 20_000, increment_ms: 200, moves: None }));
        let b = &c.engines[1];
        assert_eq!(b.name, "b");
        assert_eq!(b.dialect, Dialect::Uci);
        assert_eq!(b.options, vec![("Hash".into(), "16".into()), ("Threads".into(), "2".into())]);
        assert_eq!(b.limits.tc, Some(TimeControl { base_ms: 10_000, increment_ms: 100, moves: None }));
        assert_eq!((c.games, c.concurrency), (4, 2));
        assert_eq!(c.draw, Some(DrawRule { movenumber: 30, movecount: 8, score: 5 }));
        assert_eq!(c.resign, Some(ResignRule { movecount: 3, score: 900 }));
        assert_eq!(c.sprt.map(|s| (s.elo0, s.elo1, s.alpha)), Some((0.0, 5.0, 0.05)));
        assert_eq!(c.notation, Notation::Chinese);
    }

    #[test]
    fn bad_command_lines_are_errors_not_panics() {
        let cases = [
            ("--engine cmd=a --depth 2", ConfigError::TooFewEngines),
            ("--engine cmd=a --engine cmd=a --depth 2", ConfigError::DuplicateName("a".into())),
            ("--engine cmd=a --engine cmd=b", ConfigError::NoLimits("a".into())),
            ("--engine name=x --engine cmd=b --depth 1", ConfigError::MissingCommand("x".into())),
            (
                "--engine cmd=a colour=red --engine cmd=b",
                ConfigError::UnknownKey("--engine".into(), "colour".into()),
            ),
            ("--engine cmd=a --engine cmd=b --depth", ConfigError::MissingValue("--depth".into())),
            (
                "--engine cmd=a --engine cmd=b --depth two",
                ConfigError::BadValue("--depth".into(), "two".into(), "a number"),
            ),
            ("--frobnicate", ConfigError::UnknownOption("--frobnicate".into())),
            (
                "--engine cmd=a --engine cmd=b --engine cmd=c --depth 1 --sprt elo1=5",
                ConfigError::SprtNeedsTwo,
            ),
            ("--engine cmd=a --engine cmd=b --depth 1 --resume", ConfigError::ResumeNeedsResults),
        ];
        for (line, want) in cases {
            assert_eq!(parse(&words(line)), Err(want), "{line}");
        }
        assert!(matches!(
            parse(&words("--engine cmd=a --engine cmd=b --depth 1 --sprt elo0=5 elo1=0")),
            Err(ConfigError::BadValue(..))
        ));
        assert!(matches!(
            parse(&words("--engine cmd=a proto=usi --engine cmd=b")),
            Err(ConfigError::BadValue(..))
        ));
        assert_eq!(parse(&words("--help")), Err(ConfigError::Help));
    }

    #[test]
    fn shards_are_checked_and_slice_by_game_pair() {
        assert_eq!(parse_shard("2/3"), Some(Shard { index: 1, count: 3 }));
        assert_eq!(parse_shard("0/3"), None);
        assert_eq!(parse_shard("4/3"), None);
        let s = Shard { index: 1, count: 3 };
        assert_eq!((0..7).filter(|&p| s.holds(p)).collect::<Vec<_>>(), vec![1, 4]);
        let base = "--engine cmd=a --engine cmd=b --depth 1 --shard 1/2";
        assert_eq!(parse(&words(base)), Err(ConfigError::ShardNeeds("--results FILE")));
        assert_eq!(
            parse(&words(&format!("{base} --results r --order random"))),
            Err(ConfigError::ShardNeeds("--seed N with --order random"))
        );
        assert!(parse(&words(&format!("{base} --results r"))).is_ok());
        assert!(matches!(
            parse(&words("--engine cmd=a proto=cecp nodes=5 --engine cmd=b --depth 1")),
            Err(ConfigError::CecpNodes(_))
        ));
    }

    #[test]
    fn rules_and_move_limit_parse() {
        use engine::rules::RuleSet;
        let c = parse(&words("--engine cmd=a --engine cmd=b --depth 1")).expect("valid");
        assert_eq!(c.game_rules, GameRules::default());
        let c = parse(&words("--engine cmd=a --engine cmd=b --depth 1 --rules asian --move-limit 50"))
            .expect("valid");
        assert_eq!(c.game_rules, GameRules { set: RuleSet::Asian, move_limit_plies: 100 });
        let c = parse(&words("--engine cmd=a --engine cmd=b --depth 1 --rules=computer --move-limit 0"))
            .expect("valid");
        assert_eq!(c.game_rules, GameRules { set: RuleSet::Computer, move_limit_plies: 0 });
        assert!(matches!(
            parse(&words("--engine cmd=a --engine cmd=b --depth 1 --rules sky")),
            Err(ConfigError::BadValue(..))
        ));
    }
}
