//! CECP (the xboard protocol) input: one line in, one [`Cecp`] command or one [`CecpError`] out. Pure, like
//! the UCI/UCCI parser: moves and FENs stay text here and the session checks them against the board.

use crate::parse::echo;
use std::fmt;

/// XBoard's `level MPS BASE INC`: moves per period (0 = the whole game), base time and increment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per period; 0 means one period for the whole game.
    pub mps: u32,
    /// Time per period, milliseconds.
    pub base_ms: u64,
    /// Increment per move, milliseconds.
    pub inc_ms: u64,
}

impl Default for Level {
    /// XBoard's own default control: 40 moves in 5 minutes.
    fn default() -> Self {
        Level { mps: 40, base_ms: 300_000, inc_ms: 0 }
    }
}

/// One CECP command, as XBoard sends it.
#[derive(Clone, Debug, PartialEq)]
pub enum Cecp {
    /// `xboard`: the GUI names the protocol (already acted on when the dialect was chosen).
    Xboard,
    /// `protover N`: answer with the feature lines.
    Protover(u32),
    /// `accepted FEATURE` / `rejected FEATURE`: the GUI's answer to a feature (nothing to do).
    FeatureReply,
    /// `new`: start position, Red to move, the engine plays Black, no depth or time-per-move limit.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`: play neither side; moves only record.
    Force,
    /// `go`: play the side to move, starting now.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `setboard FEN` (XBoard's letters, with or without castling and en-passant fields).
    SetBoard(String),
    /// `usermove MOVE`, or a bare move when the GUI did not take `usermove=1`.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`.
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result,
    /// `level MPS BASE INC`.
    Level(Level),
    /// `st SECONDS`: exactly this long per move (milliseconds).
    St(u64),
    /// `sd DEPTH`.
    Sd(u32),
    /// `nps N`: count nodes instead of time, N nodes to the second (0 turns it off).
    Nps(u64),
    /// `time CS`: the engine's clock in centiseconds.
    Time(i64),
    /// `otim CS`: the opponent's clock in centiseconds.
    Otim(i64),
    /// `undo`: take back one ply.
    Undo,
    /// `remove`: take back two plies.
    Remove,
    /// `hard` (true): ponder; `easy` (false): do not.
    Ponder(bool),
    /// `post` (true) / `nopost` (false): thinking output.
    Post(bool),
    /// `analyze`.
    Analyze,
    /// `exit`: leave analyze mode.
    Exit,
    /// `.`: a status line in analyze mode.
    Status,
    /// `memory MB`.
    Memory(u64),
    /// `cores N`.
    Cores(u64),
    /// `egtpath TYPE PATH`: where XBoard keeps tablebases of a type (chuhan reads `xiangqi`).
    EgtPath {
        /// The tablebase type.
        kind: String,
        /// The directory (or directories).
        path: String,
    },
    /// `option NAME[=VALUE]`.
    Option {
        /// The option name as the feature line gave it.
        name: String,
        /// Its value; none for a button.
        value: Option<String>,
    },
    /// Commands read and deliberately ignored: `computer`, `name`, `rating`, `ics`, `hint`, `bk`,
    /// `white`, `black` (protocol 1), `pause`, `exclude` and others not offered, and `random`: XBoard sends
    /// it before every game to toggle GNU Chess's random mode, and chuhan's variety is the `randomness`
    /// option's to decide. Holds the word for the log.
    Ignored(String),
    /// `quit`.
    Quit,
}

/// Why a CECP line was not understood. Printed as `Error (<reason>): <command>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CecpError {
    /// The reason, in XBoard's parentheses.
    pub reason: String,
    /// The line as received (shortened).
    pub command: String,
}

impl fmt::Display for CecpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason, self.command)
    }
}

/// Parses one line; `None` for a blank line.
pub fn parse(line: &str) -> Option<Result<Cecp, CecpError>> {
    let line = line.trim_start_matches('\u{feff}').trim();
    let mut words = line.split_whitespace();
    let word = words.next()?;
    let rest: Vec<&str> = words.collect();
    Some(parse_words(line, word, &rest))
}

fn parse_words(line: &str, word: &str, rest: &[&str]) -> Result<Cecp, CecpError> {
    let err = |reason: &str| CecpError { reason: reason.to_string(), command: echo(line) };
    let arg = |what: &str| rest.first().copied().ok_or_else(|| err(&format!("missing {what}")));
    let number = |what: &str| -> Result<i64, CecpError> {
        let t = arg(what)?;
        t.parse::<i64>().map_err(|_| err(&format!("{what} is not an integer")))
    };
    let natural = |what: &str| -> Result<u64, CecpError> {
        u64::try_from(number(what)?).map_err(|_| err(&format!("{what} is negative")))
    };
    let command = match word {
        "xboard" => Cecp::Xboard,
        "protover" => Cecp::Protover(natural("version")?.min(u32::MAX as u64) as u32),
        "accepted" | "rejected" => Cecp::FeatureReply,
        "new" => Cecp::New,
        "variant" => Cecp::Variant(arg("variant name")?.to_string()),
        "force" => Cecp::Force,
        "go" => Cecp::Go,
        "playother" => Cecp::PlayOther,
        "setboard" => {
            if rest.is_empty() {
                return Err(err("missing FEN"));
            }
            Cecp::SetBoard(rest.join(" "))
        }
        "usermove" => Cecp::UserMove(arg("move")?.to_string()),
        "?" => Cecp::MoveNow,
        "ping" => Cecp::Ping(rest.join(" ")),
        "draw" => Cecp::Draw,
        "result" => Cecp::Result,
        "level" => Cecp::Level(parse_level(rest).map_err(|r| err(&r.to_string()))?),
        "st" => Cecp::St(seconds_to_ms(arg("seconds")?).ok_or_else(|| err("seconds is not a number"))?),
        "sd" => Cecp::Sd(natural("depth")?.clamp(1, 1000) as u32),
        "nps" => Cecp::Nps(natural("nodes per second")?),
        "time" => Cecp::Time(number("centiseconds")?),
        "otim" => Cecp::Otim(number("centiseconds")?),
        "undo" => Cecp::Undo,
        "remove" => Cecp::Remove,
        "hard" => Cecp::Ponder(true),
        "easy" => Cecp::Ponder(false),
        "post" => Cecp::Post(true),
        "nopost" => Cecp::Post(false),
        "analyze" => Cecp::Analyze,
        "exit" => Cecp::Exit,
        "." => Cecp::Status,
        "memory" => Cecp::Memory(natural("megabytes")?),
        "cores" => Cecp::Cores(natural("cores")?),
        "egtpath" => match rest.split_first() {
            Some((kind, path)) if !path.is_empty() => {
                Cecp::EgtPath { kind: kind.to_string(), path: path.join(" ") }
            }
            _ => return Err(err("expected egtpath TYPE PATH")),
        },
        "option" => {
            let text = rest.join(" ");
            if text.is_empty() {
                return Err(err("missing option name"));
            }
            match text.split_once('=') {
                Some((name, value)) => {
                    Cecp::Option { name: name.trim().to_string(), value: Some(value.trim().to_string()) }
                }
                None => Cecp::Option { name: text, value: None },
            }
        }
        "quit" => Cecp::Quit,
        "computer" | "random" | "name" | "rating" | "ics" | "hint" | "bk" | "white" | "black" | "pause"
        | "resume" | "exclude" | "include" | "setscore" | "lift" | "put" | "hover" => {
            Cecp::Ignored(word.to_string())
        }
        // A bare move: what XBoard sends to an engine that did not take `usermove=1`.
        w if looks_like_move(w) => Cecp::UserMove(w.to_string()),
        _ => return Err(err("unknown command")),
    };
    Ok(command)
}

/// Four characters, file letter and rank digit twice: XBoard's coordinate move for xiangqi.
fn looks_like_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 4
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
}

/// Seconds as XBoard writes them (an integer, or with a fraction) to milliseconds.
fn seconds_to_ms(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round().min(u64::MAX as f64) as u64)
}

/// Why a `level` command was refused (each word as sent, shortened for the message).
#[derive(Clone, Debug, PartialEq, Eq)]
enum LevelError {
    /// Not three words.
    Arity,
    /// The moves per session.
    Moves(String),
    /// A base written `min:sec` that is not.
    BaseMinSec(String),
    /// A base in minutes that is not a number.
    BaseMinutes(String),
    /// The increment.
    Increment(String),
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelError::Arity => write!(f, "level needs MPS BASE INC"),
            LevelError::Moves(w) => write!(f, "moves per session '{w}' is not a number"),
            LevelError::BaseMinSec(w) => write!(f, "base '{w}' is not min:sec"),
            LevelError::BaseMinutes(w) => write!(f, "base '{w}' is not a number of minutes"),
            LevelError::Increment(w) => write!(f, "increment '{w}' is not a number"),
        }
    }
}

/// `MPS BASE INC`, BASE in minutes (`5`, `0.5`) or minutes and seconds (`0:15`), INC in seconds.
fn parse_level(rest: &[&str]) -> Result<Level, LevelError> {
    let [mps, base, inc] = rest else { return Err(LevelError::Arity) };
    let mps: u32 = mps.parse().map_err(|_| LevelError::Moves(echo(mps)))?;
    let base_ms = match base.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().map_err(|_| LevelError::BaseMinSec(echo(base)))?;
            let s = seconds_to_ms(s).ok_or_else(|| LevelError::BaseMinSec(echo(base)))?;
            m.saturating_mul(60_000).saturating_add(s)
        }
        None => seconds_to_ms(base)
            .map(|ms| ms.saturating_mul(60))
            .ok_or_else(|| LevelError::BaseMinutes(echo(base)))?,
    };
    let inc_ms = seconds_to_ms(inc).ok_or_else(|| LevelError::Increment(echo(inc)))?;
    Ok(Level { mps, base_ms, inc_ms })
}

/// A FEN as XBoard's `setboard` sends it for xiangqi (no castling or en-passant fields: `... b 0 1`)
/// made into the six-field FEN the board reads. XBoard's piece letters (H, E) the board reads already.
pub fn board_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let is_counter = |i: usize| fields.get(i).is_some_and(|f| f.parse::<u32>().is_ok());
    if fields.len() >= 3 && is_counter(2) {
        let mut out = vec![fields[0], fields[1], "-", "-"];
        out.extend(&fields[2..]);
        out.join(" ")
    } else {
        fields.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Cecp {
        match parse(line) {
            Some(Ok(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    fn bad(line: &str) -> String {
        match parse(line) {
            Some(Err(e)) => e.to_string(),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn levels_read_minutes_or_minutes_and_seconds() {
        assert_eq!(ok("level 40 5 0"), Cecp::Level(Level { mps: 40, base_ms: 300_000, inc_ms: 0 }));
        assert_eq!(ok("level 0 0:15 0.1"), Cecp::Level(Level { mps: 0, base_ms: 15_000, inc_ms: 100 }));
        assert_eq!(ok("level 0 2 12"), Cecp::Level(Level { mps: 0, base_ms: 120_000, inc_ms: 12_000 }));
        assert_eq!(ok("level 0 0.5 0"), Cecp::Level(Level { mps: 0, base_ms: 30_000, inc_ms: 0 }));
        assert!(bad("level 0 x 0").starts_with("base 'x'"));
        assert!(bad("level 40 5").starts_with("level needs"));
    }

    #[test]
    fn commands_and_their_arguments() {
        assert_eq!(ok("usermove h2e2"), Cecp::UserMove("h2e2".into()));
        assert_eq!(ok("h2e2"), Cecp::UserMove("h2e2".into()));
        assert_eq!(ok("time 1234"), Cecp::Time(1234));
        assert_eq!(ok("otim -50"), Cecp::Otim(-50));
        assert_eq!(ok("st 2.5"), Cecp::St(2500));
        assert_eq!(ok("ping 7"), Cecp::Ping("7".into()));
        assert_eq!(
            ok("option Skill Level=5"),
            Cecp::Option { name: "Skill Level".into(), value: Some("5".into()) }
        );
        assert_eq!(ok("option Clear Hash"), Cecp::Option { name: "Clear Hash".into(), value: None });
        assert_eq!(ok("computer"), Cecp::Ignored("computer".into()));
        assert_eq!(parse("   "), None);
        assert_eq!(bad("time soon"), "centiseconds is not an integer: time soon");
        assert_eq!(bad("frobnicate 3"), "unknown command: frobnicate 3");
        assert_eq!(bad("memory -4"), "megabytes is negative: memory -4");
    }

    #[test]
    fn xboard_fens_get_the_missing_fields() {
        assert_eq!(
            board_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CH4C1/9/R1EAKAEHR b 0 1"),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1CH4C1/9/R1EAKAEHR b - - 0 1"
        );
        assert_eq!(board_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 3 9"), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 3 9");
        assert_eq!(board_fen("4k4/9/9/9/9/9/9/9/9/4K4 w"), "4k4/9/9/9/9/9/9/9/9/4K4 w");
    }
}
