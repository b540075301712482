//! The engine's options: one table names each option in both dialects (UCI `Hash` is UCCI `hashsize`),
//! gives its type and range, and [`Settings`] holds the current values. Names are matched without regard
//! to case, spaces or underscores, so `clear hash`, `Clear Hash` and `clearhash` are one option.

use engine::rules::GameRules;
use engine::search::{SearchFeatures, SearchParams, Tunable};
use std::fmt;

/// The `EGTBPath` value that means "no tablebases" (as UCI GUIs write an empty string).
pub const NO_EGTB: &str = "<empty>";

/// Every option chuhan knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionId {
    /// Search threads.
    Threads,
    /// Hash table size, MiB.
    Hash,
    /// Empty the hash table (button).
    ClearHash,
    /// The GUI may send `go ponder`.
    Ponder,
    /// Principal variations to report.
    MultiPv,
    /// Milliseconds kept back per move for GUI and pipe lag.
    MoveOverhead,
    /// Print `wdl` in UCI info lines.
    ShowWdl,
    /// 0 (weakest) to 20 (full strength).
    SkillLevel,
    /// Play at about `UCI_Elo`.
    LimitStrength,
    /// Target strength when `UCI_LimitStrength` is on (relative scale checked by self-play; see strength.rs).
    Elo,
    /// UCCI: times in `go` are milliseconds, not seconds.
    UseMillisec,
    /// UCCI `batch` (accepted; no effect).
    Batch,
    /// UCCI `debug` (accepted; no effect beyond the log).
    Debug,
    /// UCCI `newgame` (button): forget the previous game.
    NewGame,
    /// UCCI `randomness`: noise added when choosing among the best moves.
    Randomness,
    /// UCCI `style` (accepted; no effect).
    Style,
    /// UCCI `pruning` (accepted; no effect).
    Pruning,
    /// Evaluation knowledge (UCCI `knowledge`, UCI `Knowledge`): `none` = material and piece-square tables.
    Knowledge,
    /// Which evaluation plays: `classical` (handcrafted) or `nnue` (the learned network).
    Eval,
    /// The network file `nnue` uses (the built-in one by default).
    EvalFile,
    /// UCCI: accept a draw offer when the position is a dead draw or we are worse.
    AcceptDraw,
    /// UCCI: offer a draw when the position is dead even.
    OfferDraw,
    /// UCCI: resign when mated for certain.
    Resign,
    /// The rules repetitions are judged by: `chinese`, `asian` or `computer` (docs/rules.md, "Rule sets").
    Rule,
    /// Moves (rounds) without a capture that draw the game; 0: no limit (docs/rules.md, art. 4.2.4).
    MoveLimit,
    /// UCI `UCI_Variant`: the game, for GUIs that host several (only `xiangqi`).
    Variant,
    /// Directories of endgame tablebases (UCI `EGTBPath`, UCCI `egtbpaths`), separated as the platform
    /// separates `PATH`.
    EgtbPath,
}

/// An option's type, default and range, as announced to the GUI.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// On/off.
    Check(bool),
    /// An integer in a range.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// Default word.
        default: &'static str,
        /// The words.
        vars: &'static [&'static str],
    },
    /// An action without a value.
    Button,
    /// Free text (a file name).
    Text {
        /// Default text.
        default: &'static str,
    },
}

/// One row of the option table.
#[derive(Copy, Clone, Debug)]
pub struct OptionSpec {
    /// Which option.
    pub id: OptionId,
    /// Its UCI name (`None`: not announced in UCI).
    pub uci: Option<&'static str>,
    /// Its UCCI name (`None`: not announced in UCCI).
    pub ucci: Option<&'static str>,
    /// Type, default and range.
    pub kind: OptionKind,
}

/// Largest hash table, MiB.
pub const MAX_HASH_MB: i64 = 65_536;
/// Most search threads.
pub const MAX_THREADS: i64 = 256;
/// Weakest and strongest `UCI_Elo`. Differences on this scale match self-play between skill levels (see
/// `strength.rs`); the absolute anchor is not measured against other engines.
pub const ELO_RANGE: (i64, i64) = (1000, 2800);
/// The `Rule` option's words: [`engine::rules::RuleSet::ALL`]'s names, the default first.
pub const RULE_CHOICES: &[&str] = &["chinese", "asian", "computer"];
/// The `Move Limit` default: the Chinese rules' 60 moves (art. 4.2.4).
pub const DEFAULT_MOVE_LIMIT: i64 = engine::rules::NATURAL_LIMIT_PLIES as i64 / 2;
/// The longest `Move Limit`, in moves.
pub const MAX_MOVE_LIMIT: i64 = 1000;
/// The UCCI `randomness` levels, weakest noise first.
pub const RANDOMNESS_LEVELS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];

const LEVELS: &[&str] = &["none", "small", "medium", "large"];

/// A four-step level, for the UCCI `pruning` and `knowledge` options (words [`LEVELS`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// `none`.
    None,
    /// `small`.
    Small,
    /// `medium`.
    Medium,
    /// `large`.
    Large,
}

impl Level {
    /// The level an option word names (already checked against [`LEVELS`]; anything else is `large`).
    fn from_word(word: &str) -> Level {
        match word {
            "none" => Level::None,
            "small" => Level::Small,
            "medium" => Level::Medium,
            _ => Level::Large,
        }
    }
}

/// Which evaluation plays (the `Eval` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The handcrafted evaluation (`classical`).
    Classical,
    /// The learned network (`nnue`).
    Nnue,
}

/// The `Eval` word of the learned network.
pub const EVAL_NNUE: &str = "nnue";
/// The `Eval` word of the handcrafted evaluation.
pub const EVAL_CLASSICAL: &str = "classical";
/// The words of the `Eval` option.
pub const EVAL_CHOICES: &[&str] = &[EVAL_CLASSICAL, EVAL_NNUE];

/// The evaluation that plays unless the `Eval` option says otherwise: the learned network, since it beat
/// the handcrafted evaluation in games (docs/benchmarks.md, "The learned evaluation").
pub const DEFAULT_EVAL: &str = EVAL_NNUE;

/// The table. UCCI lists `usemillisec` first because some UCCI GUIs read options only until it appears.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: OptionId::UseMillisec,
        uci: None,
        ucci: Some("usemillisec"),
        kind: OptionKind::Check(false),
    },
    OptionSpec {
        id: OptionId::Threads,
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: OptionKind::Spin { default: 1, min: 1, max: MAX_THREADS },
    },
    OptionSpec {
        id: OptionId::Hash,
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: OptionKind::Spin { default: 16, min: 1, max: MAX_HASH_MB },
    },
    OptionSpec {
        id: OptionId::ClearHash,
        uci: Some("Clear Hash"),
        ucci: Some("clearhash"),
        kind: OptionKind::Button,
    },
    OptionSpec {
        id: OptionId::Ponder,
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        kind: OptionKind::Check(false),
    },
    OptionSpec {
        id: OptionId::MultiPv,
        uci: Some("MultiPV"),
        ucci: Some("multipv"),
        kind: OptionKind::Spin { default: 1, min: 1, max: 128 },
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        kind: OptionKind::Spin { default: 30, min: 0, max: 5000 },
    },
    OptionSpec {
        id: OptionId::ShowWdl,
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: OptionKind::Check(false),
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        uci: Some("Skill Level"),
        ucci: Some("skilllevel"),
        kind: OptionKind::Spin { default: 20, min: 0, max: 20 },
    },
    OptionSpec {
        id: OptionId::LimitStrength,
        uci: Some("UCI_LimitStrength"),
        ucci: Some("limitstrength"),
        kind: OptionKind::Check(false),
    },
    OptionSpec {
        id: OptionId::Elo,
        uci: Some("UCI_Elo"),
        ucci: Some("elo"),
        kind: OptionKind::Spin { default: ELO_RANGE.1, min: ELO_RANGE.0, max: ELO_RANGE.1 },
    },
    OptionSpec { id: OptionId::Batch, uci: None, ucci: Some("batch"), kind: OptionKind::Check(false) },
    OptionSpec { id: OptionId::Debug, uci: None, ucci: Some("debug"), kind: OptionKind::Check(false) },
    OptionSpec { id: OptionId::NewGame, uci: None, ucci: Some("newgame"), kind: OptionKind::Button },
    OptionSpec {
        id: OptionId::Randomness,
        uci: None,
        ucci: Some("randomness"),
        kind: OptionKind::Combo { default: "none", vars: RANDOMNESS_LEVELS },
    },
    OptionSpec {
        id: OptionId::Style,
        uci: None,
        ucci: Some("style"),
        kind: OptionKind::Combo { default: "normal", vars: &["solid", "normal", "risky"] },
    },
    OptionSpec {
        id: OptionId::Pruning,
        uci: None,
        ucci: Some("pruning"),
        kind: OptionKind::Combo { default: "large", vars: LEVELS },
    },
    OptionSpec {
        id: OptionId::Knowledge,
        uci: Some("Knowledge"),
        ucci: Some("knowledge"),
        kind: OptionKind::Combo { default: "large", vars: LEVELS },
    },
    OptionSpec {
        id: OptionId::Eval,
        uci: Some("Eval"),
        ucci: Some("eval"),
        kind: OptionKind::Combo { default: DEFAULT_EVAL, vars: EVAL_CHOICES },
    },
    OptionSpec {
        id: OptionId::EvalFile,
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: OptionKind::Text { default: eval::nnue::EMBEDDED_NAME },
    },
    OptionSpec {
        id: OptionId::EgtbPath,
        uci: Some("EGTBPath"),
        ucci: Some("egtbpaths"),
        kind: OptionKind::Text { default: NO_EGTB },
    },
    OptionSpec {
        id: OptionId::AcceptDraw,
        uci: None,
        ucci: Some("acceptdraw"),
        kind: OptionKind::Check(true),
    },
    OptionSpec { id: OptionId::OfferDraw, uci: None, ucci: Some("offerdraw"), kind: OptionKind::Check(true) },
    OptionSpec { id: OptionId::Resign, uci: None, ucci: Some("resign"), kind: OptionKind::Check(true) },
    OptionSpec {
        id: OptionId::Rule,
        uci: Some("Rule"),
        ucci: Some("rule"),
        kind: OptionKind::Combo { default: "chinese", vars: RULE_CHOICES },
    },
    OptionSpec {
        id: OptionId::MoveLimit,
        uci: Some("Move Limit"),
        ucci: Some("movelimit"),
        kind: OptionKind::Spin { default: DEFAULT_MOVE_LIMIT, min: 0, max: MAX_MOVE_LIMIT },
    },
    OptionSpec {
        id: OptionId::Variant,
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: OptionKind::Combo { default: "xiangqi", vars: &["xiangqi"] },
    },
];

/// Lower case without spaces and underscores: the key names are compared by.
fn normalise(name: &str) -> String {
    name.chars().filter(|c| *c != ' ' && *c != '_').flat_map(char::to_lowercase).collect()
}

/// The option called `name` in either dialect, if any.
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    let key = normalise(name);
    OPTIONS.iter().find(|o| o.uci.into_iter().chain(o.ucci).any(|n| normalise(n) == key))
}

/// Why a `setoption` was refused. The previous value stays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The option needs a value and got none.
    MissingValue(String),
    /// Not a value of the option's type.
    BadValue {
        /// Option name as given.
        name: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
    /// A number outside the option's range.
    OutOfRange {
        /// Option name as given.
        name: String,
        /// The value given.
        value: String,
        /// Smallest accepted.
        min: i64,
        /// Largest accepted.
        max: i64,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::parse::echo;
        match self {
            OptionError::Unknown(n) => write!(f, "no such option '{}'", echo(n)),
            OptionError::MissingValue(n) => write!(f, "option '{}' needs a value", echo(n)),
            OptionError::BadValue { name, value, expected } => {
                write!(f, "option '{}': '{}' is not {expected}", echo(name), echo(value))
            }
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "option '{}': {} is out of range ({min}..{max})", echo(name), echo(value))
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// The current value of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Search threads.
    pub threads: usize,
    /// Hash size, MiB.
    pub hash_mb: usize,
    /// Lines to report.
    pub multipv: usize,
    /// Milliseconds kept back per move.
    pub move_overhead_ms: u64,
    /// Print `wdl` in UCI info lines.
    pub show_wdl: bool,
    /// 0..=20.
    pub skill_level: u32,
    /// Use `elo` to weaken play.
    pub limit_strength: bool,
    /// Target Elo.
    pub elo: u32,
    /// UCCI times in milliseconds.
    pub use_millisec: bool,
    /// Index into [`RANDOMNESS_LEVELS`].
    pub randomness: usize,
    /// UCCI `pruning`: how much of the search's selective pruning is on ([`Settings::search_features`]).
    pub pruning: Level,
    /// UCCI `knowledge`: `none` is material and piece-square tables only.
    pub knowledge: Level,
    /// Which evaluation plays.
    pub eval: EvalKind,
    /// The network file asked for (the built-in network's name means the built-in one).
    pub eval_file: String,
    /// Accept draw offers when it is right to.
    pub accept_draw: bool,
    /// Offer draws in dead-even positions.
    pub offer_draw: bool,
    /// Resign when mated for certain.
    pub resign: bool,
    /// The search's tunable numbers (`tune.<name>` options).
    pub params: SearchParams,
    /// The rules the game is played under (`Rule` and `Move Limit`).
    pub rules: GameRules,
    /// Tablebase directories ([`NO_EGTB`]: none).
    pub egtb_path: String,
}

impl Default for Settings {
    fn default() -> Self {
        let mut s = Settings {
            threads: 0,
            hash_mb: 0,
            multipv: 0,
            move_overhead_ms: 0,
            show_wdl: false,
            skill_level: 0,
            limit_strength: false,
            elo: 0,
            use_millisec: false,
            randomness: 0,
            pruning: Level::Large,
            knowledge: Level::Large,
            eval: EvalKind::Nnue,
            eval_file: String::new(),
            accept_draw: false,
            offer_draw: false,
            resign: false,
            params: SearchParams::default(),
            rules: GameRules::default(),
            egtb_path: String::new(),
        };
        // The table is the one source of defaults.
        for spec in OPTIONS {
            match spec.kind {
                OptionKind::Check(b) => s.store(spec.id, Value::Bool(b)),
                OptionKind::Spin { default, .. } => s.store(spec.id, Value::Int(default)),
                OptionKind::Combo { default, .. } | OptionKind::Text { default } => {
                    s.store(spec.id, Value::Word(default))
                }
                OptionKind::Button => {}
            }
        }
        s
    }
}

/// What a successful `setoption` did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// A value changed (or was set to what it was).
    Set(OptionId),
    /// A button was pressed.
    Pressed(OptionId),
    /// A search parameter (`tune.<name>`) changed.
    Tuned(&'static str),
}

/// Prefix of the hidden options that set the search's tunable numbers (`setoption name tune.rfp_margin
/// value 80`), for tuners such as SPSA driving `chuhan match`. They are accepted in every build and listed
/// only in builds with the `tune` feature, so GUIs do not show them.
pub const TUNE_PREFIX: &str = "tune.";

/// The search parameter a `tune.<name>` option names (case, spaces and underscores ignored, as for every
/// option).
pub fn find_tunable(name: &str) -> Option<&'static Tunable> {
    let key = normalise(name);
    let rest = key.strip_prefix(TUNE_PREFIX)?;
    SearchParams::TUNABLES.iter().find(|t| normalise(t.name) == rest)
}

enum Value<'a> {
    Bool(bool),
    Int(i64),
    Word(&'a str),
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

impl Settings {
    /// Sets option `name` to `value` (checked against the table); on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Applied, OptionError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        if let Some(t) = find_tunable(name) {
            return self.set_tunable(name, t, value);
        }
        let spec = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let need = || OptionError::MissingValue(name.to_string());
        let bad = |v: &str, expected: String| OptionError::BadValue {
            name: name.to_string(),
            value: v.to_string(),
            expected,
        };
        match spec.kind {
            OptionKind::Button => return Ok(Applied::Pressed(spec.id)),
            OptionKind::Check(_) => {
                let v = value.ok_or_else(need)?;
                let b = parse_bool(v).ok_or_else(|| bad(v, "true or false".into()))?;
                self.store(spec.id, Value::Bool(b));
            }
            OptionKind::Spin { min, max, .. } => {
                let v = value.ok_or_else(need)?;
                let n: i64 = v.parse().map_err(|_| bad(v, "an integer".into()))?;
                if n < min || n > max {
                    return Err(OptionError::OutOfRange {
                        name: name.to_string(),
                        value: v.to_string(),
                        min,
                        max,
                    });
                }
                self.store(spec.id, Value::Int(n));
            }
            OptionKind::Combo { vars, .. } => {
                let v = value.ok_or_else(need)?;
                let word = vars
                    .iter()
                    .find(|w| w.eq_ignore_ascii_case(v))
                    .ok_or_else(|| bad(v, format!("one of {}", vars.join(", "))))?;
                self.store(spec.id, Value::Word(word));
            }
            OptionKind::Text { .. } => {
                let v = value.ok_or_else(need)?;
                self.store(spec.id, Value::Word(v));
            }
        }
        Ok(Applied::Set(spec.id))
    }

    /// Whether the learned network plays (`Eval` = `nnue`), not the handcrafted evaluation.
    pub fn uses_network(&self) -> bool {
        self.eval == EvalKind::Nnue
    }
    /// The search's selective parts for the UCCI `pruning` level: `large` (the default) is everything,
    /// `medium` keeps reductions, null move, futility and SEE pruning but not move-count pruning, `small`
    /// only null move and reductions, `none` no pruning or reduction at all (extensions and aspiration
    /// windows stay: they prune nothing).
    pub fn search_features(&self) -> SearchFeatures {
        let all = SearchFeatures::default();
        let none = SearchFeatures {
            null_move: false,
            futility: false,
            move_count_pruning: false,
            see_pruning: false,
            reductions: false,
            ..all
        };
        match self.pruning {
            Level::None => none,
            Level::Small => SearchFeatures { null_move: true, reductions: true, ..none },
            Level::Medium => SearchFeatures { move_count_pruning: false, ..all },
            Level::Large => all,
        }
    }

    /// Sets a search parameter, checked against its range like a spin option.
    fn set_tunable(
        &mut self,
        name: &str,
        t: &'static Tunable,
        value: Option<&str>,
    ) -> Result<Applied, OptionError> {
        let v = value.ok_or_else(|| OptionError::MissingValue(name.to_string()))?;
        let bad = || OptionError::BadValue {
            name: name.to_string(),
            value: v.to_string(),
            expected: "an integer".into(),
        };
        let n: i32 = v.parse().map_err(|_| bad())?;
        if n < t.min || n > t.max {
            return Err(OptionError::OutOfRange {
                name: name.to_string(),
                value: v.to_string(),
                min: t.min as i64,
                max: t.max as i64,
            });
        }
        self.params.set(t.name, n);
        Ok(Applied::Tuned(t.name))
    }

    /// Stores a value already checked against the table.
    fn store(&mut self, id: OptionId, v: Value<'_>) {
        let int = |v: &Value<'_>| if let Value::Int(n) = v { *n } else { 0 };
        let flag = |v: &Value<'_>| matches!(v, Value::Bool(true));
        let word = |v: &Value<'_>| if let Value::Word(w) = v { w.to_string() } else { String::new() };
        match id {
            OptionId::Threads => self.threads = int(&v) as usize,
            OptionId::Hash => self.hash_mb = int(&v) as usize,
            OptionId::MultiPv => self.multipv = int(&v) as usize,
            OptionId::MoveOverhead => self.move_overhead_ms = int(&v) as u64,
            OptionId::ShowWdl => self.show_wdl = flag(&v),
            OptionId::SkillLevel => self.skill_level = int(&v) as u32,
            OptionId::LimitStrength => self.limit_strength = flag(&v),
            OptionId::Elo => self.elo = int(&v) as u32,
            OptionId::UseMillisec => self.use_millisec = flag(&v),
            OptionId::Randomness => {
                let w = word(&v);
                self.randomness = RANDOMNESS_LEVELS.iter().position(|l| *l == w).unwrap_or(0);
            }
            OptionId::Pruning => self.pruning = Level::from_word(&word(&v)),
            OptionId::Knowledge => self.knowledge = Level::from_word(&word(&v)),
            OptionId::Eval => {
                self.eval = if word(&v) == EVAL_NNUE { EvalKind::Nnue } else { EvalKind::Classical }
            }
            OptionId::EvalFile => self.eval_file = word(&v),
            OptionId::AcceptDraw => self.accept_draw = flag(&v),
            OptionId::OfferDraw => self.offer_draw = flag(&v),
            OptionId::Resign => self.resign = flag(&v),
            OptionId::Rule => self.rules.set = word(&v).parse().unwrap_or_default(),
            OptionId::MoveLimit => self.rules.move_limit_plies = 2 * int(&v) as u32,
            OptionId::Variant => {}
            OptionId::EgtbPath => self.egtb_path = word(&v),
            // Checked like every option, because GUIs send them, but nothing depends on them: `go ponder`
            // works whatever `ponder` says, and batch, debug and style have no meaning here.
            OptionId::Ponder | OptionId::Batch | OptionId::Debug | OptionId::Style => {}
            OptionId::ClearHash | OptionId::NewGame => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tune_options_set_search_parameters_within_their_ranges() {
        let mut s = Settings::default();
        assert!(matches!(s.set("tune.rfp_margin", Some("80")), Ok(Applied::Tuned("rfp_margin"))));
        assert_eq!(s.params.rfp_margin, 80);
        assert!(matches!(s.set("Tune.RFP Margin", Some("90")), Ok(Applied::Tuned(_))));
        assert_eq!(s.params.rfp_margin, 90);
        assert!(matches!(s.set("tune.rfp_margin", Some("100000")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(s.set("tune.rfp_margin", Some("x")), Err(OptionError::BadValue { .. })));
        assert!(matches!(s.set("tune.rfp_margin", None), Err(OptionError::MissingValue(_))));
        assert!(matches!(s.set("tune.no_such", Some("1")), Err(OptionError::Unknown(_))));
        assert_eq!(s.params.rfp_margin, 90, "a refused value changes nothing");
    }

    #[test]
    fn pruning_levels_switch_the_search_features() {
        let mut s = Settings::default();
        assert_eq!(s.search_features(), SearchFeatures::default());
        s.set("pruning", Some("none")).expect("valid");
        let f = s.search_features();
        assert!(!f.null_move && !f.futility && !f.reductions && !f.move_count_pruning && !f.see_pruning);
        assert!(f.check_extension);
        s.set("pruning", Some("small")).expect("valid");
        assert!(s.search_features().null_move && !s.search_features().futility);
        s.set("pruning", Some("medium")).expect("valid");
        assert!(s.search_features().futility && !s.search_features().move_count_pruning);
    }
    use engine::search::SearchOptions;

    #[test]
    fn defaults_agree_with_the_search() {
        let s = Settings::default();
        let o = SearchOptions::default();
        assert_eq!(
            (s.hash_mb, s.threads, s.multipv, s.move_overhead_ms),
            (o.hash_mb, o.threads, o.multipv, o.move_overhead_ms)
        );
        assert_eq!(s.skill_level, 20);
        assert_eq!(s.elo, ELO_RANGE.1 as u32);
        assert!(s.accept_draw && s.offer_draw && s.resign && !s.use_millisec);
    }

    #[test]
    fn names_in_both_dialects_any_case() {
        for (a, b) in [("Hash", "hashsize"), ("Clear Hash", "CLEARHASH"), ("skill_level", "Skill Level")] {
            assert_eq!(find(a).map(|o| o.id), find(b).map(|o| o.id), "{a} {b}");
        }
        assert_eq!(find("uci_elo").map(|o| o.id), Some(OptionId::Elo));
        assert!(find("Contempt").is_none());
    }

    #[test]
    fn values_are_checked_and_errors_keep_the_old_value() {
        let mut s = Settings::default();
        assert_eq!(s.set("hash", Some("64")), Ok(Applied::Set(OptionId::Hash)));
        assert_eq!(s.hash_mb, 64);
        assert!(matches!(s.set("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(s.set("Hash", Some("lots")), Err(OptionError::BadValue { .. })));
        assert!(matches!(s.set("Hash", None), Err(OptionError::MissingValue(_))));
        assert_eq!(s.hash_mb, 64);
        assert_eq!(s.set("usemillisec", Some("TRUE")), Ok(Applied::Set(OptionId::UseMillisec)));
        assert!(s.use_millisec);
        assert!(matches!(s.set("ponder", Some("maybe")), Err(OptionError::BadValue { .. })));
        assert_eq!(s.set("randomness", Some("Large")), Ok(Applied::Set(OptionId::Randomness)));
        assert_eq!(RANDOMNESS_LEVELS[s.randomness], "large");
        assert!(matches!(s.set("style", Some("wild")), Err(OptionError::BadValue { .. })));
        assert_eq!(s.set("newgame", None), Ok(Applied::Pressed(OptionId::NewGame)));
        assert_eq!(s.set("Clear Hash", Some("x")), Ok(Applied::Pressed(OptionId::ClearHash)));
        assert!(matches!(s.set("bookfiles", Some("a.obk")), Err(OptionError::Unknown(_))));
        assert_eq!(s.eval, EvalKind::Nnue);
        assert_eq!(s.set("Eval", Some("Classical")), Ok(Applied::Set(OptionId::Eval)));
        assert_eq!(s.eval, EvalKind::Classical);
        assert!(matches!(s.set("eval", Some("magic")), Err(OptionError::BadValue { .. })));
        assert_eq!(s.eval_file, eval::nnue::EMBEDDED_NAME);
        assert_eq!(s.set("evalfile", Some("nets/my net.nnue")), Ok(Applied::Set(OptionId::EvalFile)));
        assert_eq!(s.eval_file, "nets/my net.nnue");
    }

    #[test]
    fn rule_and_move_limit_set_the_game_rules() {
        use engine::rules::RuleSet;
        let mut s = Settings::default();
        assert_eq!(s.rules, GameRules::default());
        assert_eq!(s.set("Rule", Some("Asian")), Ok(Applied::Set(OptionId::Rule)));
        assert_eq!(s.rules.set, RuleSet::Asian);
        assert!(matches!(s.set("rule", Some("sky")), Err(OptionError::BadValue { .. })));
        assert_eq!(s.rules.set, RuleSet::Asian, "a refused value changes nothing");
        assert_eq!(s.set("Move Limit", Some("50")), Ok(Applied::Set(OptionId::MoveLimit)));
        assert_eq!(s.rules.move_limit_plies, 100);
        assert_eq!(s.set("movelimit", Some("0")), Ok(Applied::Set(OptionId::MoveLimit)));
        assert_eq!(s.rules.move_limit_plies, 0);
        assert!(matches!(s.set("Move Limit", Some("-1")), Err(OptionError::OutOfRange { .. })));
        assert_eq!(s.set("UCI_Variant", Some("xiangqi")), Ok(Applied::Set(OptionId::Variant)));
        assert!(matches!(s.set("UCI_Variant", Some("chess")), Err(OptionError::BadValue { .. })));
        for (word, set) in RULE_CHOICES.iter().zip(RuleSet::ALL) {
            assert_eq!(set.name(), *word);
        }
    }
}
