//! The parser: one input line in, one [`Command`] or one [`ParseError`] out. Pure (no I/O, no board), so
//! every command is unit-tested here. Command words and move tokens are matched case-insensitively; FENs and
//! option values keep their case.

use crate::command::{Base, BenchArgs, BoardStyle, Command, Dialect, Go, GoClock, PositionSpec};
use std::fmt;

/// Deepest `go depth` accepted (the search clamps it further).
pub const MAX_GO_DEPTH: u64 = 1_000;
/// Deepest `perft` accepted: anything deeper would not finish in a lifetime.
pub const MAX_PERFT_DEPTH: u64 = 20;

/// Why a line is not a command. Each variant carries the offending token, cut short for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but white space (the loop ignores these quietly).
    Empty,
    /// The first word is not a command of either protocol.
    UnknownCommand(String),
    /// A command that needs an argument did not get it.
    MissingArgument {
        /// The command.
        command: &'static str,
        /// What is missing.
        what: &'static str,
    },
    /// A token the command does not understand.
    UnexpectedToken {
        /// The command.
        command: &'static str,
        /// The token.
        token: String,
    },
    /// A keyword that needs a value came last.
    MissingValue {
        /// The keyword.
        keyword: String,
    },
    /// A keyword's value is not a number of the right kind.
    BadNumber {
        /// The keyword.
        keyword: String,
        /// The value given.
        token: String,
    },
    /// A keyword's value is a number, but too large.
    OutOfRange {
        /// The keyword.
        keyword: String,
        /// The value given.
        token: String,
        /// The largest value accepted.
        max: u64,
    },
}

/// At most this many characters of a bad token are echoed back (a 1 MB line must not become a 1 MB error).
const ECHO_LIMIT: usize = 40;

/// The token as it is echoed in an error message: cut short, control characters made visible.
pub fn echo(token: &str) -> String {
    let mut s: String =
        token.chars().take(ECHO_LIMIT).map(|c| if c.is_control() { '\u{fffd}' } else { c }).collect();
    if token.chars().nth(ECHO_LIMIT).is_some() {
        s.push_str("...");
    }
    s
}

/// A line as it is logged: whole unless it is very long.
pub fn echo_long(line: &str) -> std::borrow::Cow<'_, str> {
    const LOG_LIMIT: usize = 2000;
    match line.char_indices().nth(LOG_LIMIT) {
        Some((i, _)) => format!("{}... ({} bytes)", &line[..i], line.len()).into(),
        None => line.into(),
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::UnknownCommand(t) => write!(f, "unknown command '{}'", echo(t)),
            ParseError::MissingArgument { command, what } => write!(f, "{command}: missing {what}"),
            ParseError::UnexpectedToken { command, token } => {
                write!(f, "{command}: unexpected '{}'", echo(token))
            }
            ParseError::MissingValue { keyword } => write!(f, "{}: missing value", echo(keyword)),
            ParseError::BadNumber { keyword, token } => {
                write!(f, "{}: '{}' is not a valid number", echo(keyword), echo(token))
            }
            ParseError::OutOfRange { keyword, token, max } => {
                write!(f, "{}: {} is out of range (at most {max})", echo(keyword), echo(token))
            }
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses one line. `dialect` decides the `go` keywords (UCCI's `time`/`increment` in seconds or
/// milliseconds, UCI's `wtime`/`btime`); everything else is shared.
pub fn parse(line: &str, dialect: Dialect) -> Result<Command, ParseError> {
    let line = line.trim_start_matches('\u{feff}');
    let mut tokens = line.split_whitespace();
    let Some(word) = tokens.next() else {
        return Err(ParseError::Empty);
    };
    let rest: Vec<&str> = tokens.collect();
    match word.to_ascii_lowercase().as_str() {
        "uci" => Ok(Command::Uci),
        "ucci" => Ok(Command::Ucci),
        "isready" => Ok(Command::IsReady),
        "setoption" => parse_setoption(&rest),
        "ucinewgame" => Ok(Command::NewGame),
        "position" => parse_position_spec("position", &rest).map(Command::Position),
        "probe" => parse_position_spec("probe", &rest).map(Command::Probe),
        "banmoves" => Ok(Command::BanMoves(rest.iter().map(|m| m.to_ascii_lowercase()).collect())),
        "go" => match dialect {
            Dialect::Uci | Dialect::Cecp => parse_go_uci(&rest),
            Dialect::Ucci => parse_go_ucci(&rest),
        }
        .map(Command::Go),
        "ponderhit" => {
            Ok(Command::PonderHit { draw: rest.first().is_some_and(|t| t.eq_ignore_ascii_case("draw")) })
        }
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "d" => parse_display(&rest),
        "eval" => Ok(Command::Eval),
        "flip" => Ok(Command::Flip),
        "perft" => match rest.first() {
            Some(t) => Ok(Command::Perft(count("perft", t, MAX_PERFT_DEPTH)? as u32)),
            None => Err(ParseError::MissingArgument { command: "perft", what: "a depth" }),
        },
        "bench" => parse_bench(&rest),
        _ => Err(ParseError::UnknownCommand(word.to_string())),
    }
}

/// `setoption name <N...> [value <V...>]` (UCI) or `setoption <N> [<V...>]` (UCCI); either form in either
/// dialect, since GUIs mix them up.
fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    let missing = ParseError::MissingArgument { command: "setoption", what: "an option name" };
    let (first, after) = rest.split_first().ok_or(missing.clone())?;
    if first.eq_ignore_ascii_case("name") {
        let value_at = after.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let (name, value) = match value_at {
            Some(i) => (&after[..i], Some(&after[i + 1..])),
            None => (after, None),
        };
        if name.is_empty() {
            return Err(missing);
        }
        let value = value.filter(|v| !v.is_empty()).map(|v| v.join(" "));
        Ok(Command::SetOption { name: name.join(" "), value })
    } else {
        let value = if after.is_empty() { None } else { Some(after.join(" ")) };
        Ok(Command::SetOption { name: first.to_string(), value })
    }
}

/// `{startpos | fen <FEN fields>} [moves m1 m2 ...]`.
fn parse_position_spec(command: &'static str, rest: &[&str]) -> Result<PositionSpec, ParseError> {
    let (first, after) =
        rest.split_first().ok_or(ParseError::MissingArgument { command, what: "'startpos' or 'fen'" })?;
    let moves_at = after.iter().position(|t| t.eq_ignore_ascii_case("moves"));
    let (head, moves) = match moves_at {
        Some(i) => (&after[..i], &after[i + 1..]),
        None => (after, &after[after.len()..]),
    };
    let base = match first.to_ascii_lowercase().as_str() {
        "startpos" => {
            if let Some(t) = head.first() {
                return Err(ParseError::UnexpectedToken { command, token: t.to_string() });
            }
            Base::Startpos
        }
        "fen" => {
            if head.is_empty() {
                return Err(ParseError::MissingArgument { command, what: "a FEN" });
            }
            Base::Fen(head.join(" "))
        }
        _ => return Err(ParseError::UnexpectedToken { command, token: first.to_string() }),
    };
    Ok(PositionSpec { base, moves: moves.iter().map(|m| m.to_ascii_lowercase()).collect() })
}

fn parse_display(rest: &[&str]) -> Result<Command, ParseError> {
    match rest.first().map(|t| t.to_ascii_lowercase()) {
        None => Ok(Command::Display(BoardStyle::Auto)),
        Some(t) if t == "ascii" => Ok(Command::Display(BoardStyle::Ascii)),
        Some(t) if t == "unicode" || t == "chinese" || t == "cn" => Ok(Command::Display(BoardStyle::Unicode)),
        Some(_) => Err(ParseError::UnexpectedToken { command: "d", token: rest[0].to_string() }),
    }
}

/// `bench [depth <d>] [threads <t>] [hash <mb>]`, or `bench <d>`.
fn parse_bench(rest: &[&str]) -> Result<Command, ParseError> {
    let mut args = BenchArgs::default();
    let mut it = rest.iter();
    while let Some(&t) = it.next() {
        let key = t.to_ascii_lowercase();
        match key.as_str() {
            "depth" | "threads" | "hash" => {
                let v = it.next().ok_or(ParseError::MissingValue { keyword: key.clone() })?;
                match key.as_str() {
                    "depth" => args.depth = Some(count("depth", v, MAX_GO_DEPTH)? as u32),
                    "threads" => args.threads = Some(count("threads", v, 1024)?.max(1) as usize),
                    _ => args.hash_mb = Some(count("hash", v, 1 << 20)?.max(1) as usize),
                }
            }
            _ if t.bytes().all(|b| b.is_ascii_digit()) && args.depth.is_none() => {
                args.depth = Some(count("depth", t, MAX_GO_DEPTH)? as u32)
            }
            _ => return Err(ParseError::UnexpectedToken { command: "bench", token: t.to_string() }),
        }
    }
    Ok(Command::Bench(args))
}

/// Takes the value after `keyword`, or says it is missing.
fn value<'a>(it: &mut std::slice::Iter<'a, &'a str>, keyword: &str) -> Result<&'a str, ParseError> {
    it.next().copied().ok_or(ParseError::MissingValue { keyword: keyword.to_string() })
}

/// A non-negative integer no larger than `max` (a leading `+` is allowed).
fn count(keyword: &str, token: &str, max: u64) -> Result<u64, ParseError> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::BadNumber { keyword: keyword.to_string(), token: token.to_string() });
    }
    let out_of_range =
        || ParseError::OutOfRange { keyword: keyword.to_string(), token: token.to_string(), max };
    let v: u64 = digits.parse().map_err(|_| out_of_range())?;
    if v > max {
        return Err(out_of_range());
    }
    Ok(v)
}

/// A signed integer (UCI clocks may go negative when a GUI subtracts its own lag).
fn signed(keyword: &str, token: &str) -> Result<i64, ParseError> {
    let bad = || ParseError::BadNumber { keyword: keyword.to_string(), token: token.to_string() };
    let (neg, digits) = match token.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let v: i64 = digits.parse().map_err(|_| ParseError::OutOfRange {
        keyword: keyword.to_string(),
        token: token.to_string(),
        max: i64::MAX as u64,
    })?;
    Ok(if neg { -v } else { v })
}

/// A UCCI time: a finite number (seconds may have a fraction); negative values count as 0.
fn amount(keyword: &str, token: &str) -> Result<f64, ParseError> {
    let bad = || ParseError::BadNumber { keyword: keyword.to_string(), token: token.to_string() };
    // Rust's float parser also takes "inf", "NaN" and "1e400"; only plain decimals are times.
    if !token.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+') {
        return Err(bad());
    }
    let v: f64 = token.parse().map_err(|_| bad())?;
    if !v.is_finite() {
        return Err(bad());
    }
    Ok(v.max(0.0))
}

fn is_move_token(t: &str) -> bool {
    let b = t.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0].to_ascii_lowercase())
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2].to_ascii_lowercase())
        && b[3].is_ascii_digit()
}

/// The `go` keywords both dialects share; `Ok(false)` when `key` is none of them.
fn shared_go_keyword<'a>(
    go: &mut Go,
    key: &str,
    it: &mut std::slice::Iter<'a, &'a str>,
) -> Result<bool, ParseError> {
    match key {
        "ponder" => go.ponder = true,
        "infinite" => go.infinite = true,
        "nodes" => go.nodes = Some(count(key, value(it, key)?, u64::MAX)?),
        "perft" => go.perft = Some(count(key, value(it, key)?, MAX_PERFT_DEPTH)? as u32),
        _ => return Ok(false),
    }
    Ok(true)
}

fn parse_go_uci(rest: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut movestogo) = (None, None, None, None, None);
    let mut it = rest.iter();
    while let Some(&t) = it.next() {
        let key = t.to_ascii_lowercase();
        match key.as_str() {
            "wtime" => wtime = Some(signed(&key, value(&mut it, &key)?)?),
            "btime" => btime = Some(signed(&key, value(&mut it, &key)?)?),
            "winc" => winc = Some(signed(&key, value(&mut it, &key)?)?),
            "binc" => binc = Some(signed(&key, value(&mut it, &key)?)?),
            "movestogo" => movestogo = Some(count(&key, value(&mut it, &key)?, u32::MAX as u64)? as u32),
            "depth" => go.depth = Some(count(&key, value(&mut it, &key)?, MAX_GO_DEPTH)? as u32),
            "movetime" => go.movetime = Some(count(&key, value(&mut it, &key)?, u64::MAX)?),
            "mate" => go.mate = Some(count(&key, value(&mut it, &key)?, MAX_GO_DEPTH)? as u32),
            "searchmoves" => {
                let moves = it.as_slice().iter().take_while(|m| is_move_token(m)).count();
                go.searchmoves = it.as_slice()[..moves].iter().map(|m| m.to_ascii_lowercase()).collect();
                it = it.as_slice()[moves..].iter();
                if go.searchmoves.is_empty() {
                    return Err(ParseError::MissingValue { keyword: key });
                }
            }
            _ if shared_go_keyword(&mut go, &key, &mut it)? => {}
            _ => return Err(ParseError::UnexpectedToken { command: "go", token: t.to_string() }),
        }
    }
    if wtime.is_some() || btime.is_some() || winc.is_some() || binc.is_some() || movestogo.is_some() {
        go.clock = GoClock::Uci { wtime, btime, winc, binc, movestogo };
    }
    Ok(go)
}

fn parse_go_ucci(rest: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let (mut time, mut movestogo, mut increment) = (None, None, None);
    let (mut opptime, mut oppmovestogo, mut oppincrement) = (None, None, None);
    let mut it = rest.iter();
    while let Some(&t) = it.next() {
        let key = t.to_ascii_lowercase();
        match key.as_str() {
            "draw" => go.draw = true,
            "depth" => {
                let v = value(&mut it, &key)?;
                if v.eq_ignore_ascii_case("infinite") {
                    go.infinite = true;
                } else {
                    go.depth = Some(count(&key, v, MAX_GO_DEPTH)? as u32);
                }
            }
            "time" => time = Some(amount(&key, value(&mut it, &key)?)?),
            "movestogo" => movestogo = Some(count(&key, value(&mut it, &key)?, u32::MAX as u64)? as u32),
            "increment" => increment = Some(amount(&key, value(&mut it, &key)?)?),
            "opptime" => opptime = Some(amount(&key, value(&mut it, &key)?)?),
            "oppmovestogo" => {
                oppmovestogo = Some(count(&key, value(&mut it, &key)?, u32::MAX as u64)? as u32)
            }
            "oppincrement" => oppincrement = Some(amount(&key, value(&mut it, &key)?)?),
            _ if shared_go_keyword(&mut go, &key, &mut it)? => {}
            _ => return Err(ParseError::UnexpectedToken { command: "go", token: t.to_string() }),
        }
    }
    let clock_given = movestogo.is_some()
        || increment.is_some()
        || opptime.is_some()
        || oppmovestogo.is_some()
        || oppincrement.is_some();
    match time {
        Some(time) => {
            go.clock = GoClock::Ucci { time, movestogo, increment, opptime, oppmovestogo, oppincrement }
        }
        None if clock_given => {
            return Err(ParseError::MissingArgument { command: "go", what: "'time' for the clock" })
        }
        None => {}
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(line: &str) -> Result<Command, ParseError> {
        parse(line, Dialect::Uci)
    }
    fn ucci(line: &str) -> Result<Command, ParseError> {
        parse(line, Dialect::Ucci)
    }
    /// The `SetOption` command expected from a line.
    fn set(name: &str, value: Option<&str>) -> Result<Command, ParseError> {
        Ok(Command::SetOption { name: name.into(), value: value.map(Into::into) })
    }
    fn go_uci(line: &str) -> Go {
        match uci(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }
    fn go_ucci(line: &str) -> Go {
        match ucci(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        for d in [Dialect::Uci, Dialect::Ucci] {
            assert_eq!(parse("uci", d), Ok(Command::Uci));
            assert_eq!(parse("ucci", d), Ok(Command::Ucci));
            assert_eq!(parse("isready", d), Ok(Command::IsReady));
            assert_eq!(parse("ucinewgame", d), Ok(Command::NewGame));
            assert_eq!(parse("stop", d), Ok(Command::Stop));
            assert_eq!(parse("quit", d), Ok(Command::Quit));
            assert_eq!(parse("eval", d), Ok(Command::Eval));
            assert_eq!(parse("flip", d), Ok(Command::Flip));
        }
    }

    #[test]
    fn blank_lines_crlf_and_case() {
        assert_eq!(uci(""), Err(ParseError::Empty));
        assert_eq!(uci("  \t \r"), Err(ParseError::Empty));
        assert_eq!(uci("isready\r"), Ok(Command::IsReady));
        assert_eq!(uci("  ISREADY  "), Ok(Command::IsReady));
        assert_eq!(uci("\u{feff}uci"), Ok(Command::Uci));
    }

    #[test]
    fn unknown_commands_are_named_and_cut_short() {
        assert_eq!(uci("xyzzy 1 2"), Err(ParseError::UnknownCommand("xyzzy".into())));
        let long = "x".repeat(1 << 20);
        let msg = uci(&long).unwrap_err().to_string();
        assert!(msg.len() < 100, "{msg}");
        assert!(msg.contains("unknown command"));
    }

    #[test]
    fn setoption_uci_form() {
        assert_eq!(uci("setoption name Hash value 128"), set("Hash", Some("128")));
        assert_eq!(uci("setoption name Clear Hash"), set("Clear Hash", None));
        assert_eq!(uci("SETOPTION NAME Move Overhead VALUE 50"), set("Move Overhead", Some("50")));
        assert_eq!(uci("setoption name Skill Level value"), set("Skill Level", None));
        assert!(matches!(uci("setoption"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(uci("setoption name value 3"), Err(ParseError::MissingArgument { .. })));
    }

    #[test]
    fn setoption_ucci_form() {
        assert_eq!(ucci("setoption usemillisec true"), set("usemillisec", Some("true")));
        assert_eq!(ucci("setoption newgame"), set("newgame", None));
        assert_eq!(ucci("setoption bookfiles a b.obk"), set("bookfiles", Some("a b.obk")));
    }

    #[test]
    fn position_startpos_and_fen() {
        assert_eq!(
            uci("position startpos"),
            Ok(Command::Position(PositionSpec { base: Base::Startpos, moves: vec![] }))
        );
        assert_eq!(
            uci("position startpos moves H2E2 h9g7"),
            Ok(Command::Position(PositionSpec {
                base: Base::Startpos,
                moves: vec!["h2e2".into(), "h9g7".into()]
            }))
        );
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        assert_eq!(
            ucci(&format!("position fen {fen} moves h2e2")),
            Ok(Command::Position(PositionSpec { base: Base::Fen(fen.into()), moves: vec!["h2e2".into()] }))
        );
        assert_eq!(
            ucci("position startpos moves"),
            Ok(Command::Position(PositionSpec { base: Base::Startpos, moves: vec![] }))
        );
        assert!(matches!(uci("position"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(uci("position fen"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(uci("position fen moves h2e2"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(uci("position startpos h2e2"), Err(ParseError::UnexpectedToken { .. })));
        assert!(matches!(uci("position kiwipete"), Err(ParseError::UnexpectedToken { .. })));
    }

    #[test]
    fn banmoves_and_probe() {
        assert_eq!(ucci("banmoves h2e2 B0E2"), Ok(Command::BanMoves(vec!["h2e2".into(), "b0e2".into()])));
        assert_eq!(ucci("banmoves"), Ok(Command::BanMoves(vec![])));
        assert_eq!(
            ucci("probe startpos moves h2e2"),
            Ok(Command::Probe(PositionSpec { base: Base::Startpos, moves: vec!["h2e2".into()] }))
        );
    }

    #[test]
    fn ponderhit_stop_quit() {
        assert_eq!(ucci("ponderhit"), Ok(Command::PonderHit { draw: false }));
        assert_eq!(ucci("ponderhit draw"), Ok(Command::PonderHit { draw: true }));
        assert_eq!(uci("ponderhit"), Ok(Command::PonderHit { draw: false }));
    }

    #[test]
    fn go_uci_everything() {
        let g = go_uci("go ponder wtime 60000 btime -50 winc 1000 binc 1000 movestogo 20");
        assert!(g.ponder);
        assert_eq!(
            g.clock,
            GoClock::Uci {
                wtime: Some(60000),
                btime: Some(-50),
                winc: Some(1000),
                binc: Some(1000),
                movestogo: Some(20)
            }
        );
        let g = go_uci("go depth 7 nodes 5000 movetime 200 mate 3");
        assert_eq!((g.depth, g.nodes, g.movetime, g.mate), (Some(7), Some(5000), Some(200), Some(3)));
        assert!(go_uci("go infinite").infinite);
        assert!(go_uci("go").has_no_limit());
        let g = go_uci("go searchmoves h2e2 b2e2 depth 3");
        assert_eq!(g.searchmoves, vec!["h2e2", "b2e2"]);
        assert_eq!(g.depth, Some(3));
        assert_eq!(go_uci("go perft 3").perft, Some(3));
    }

    /// Asserts that each line, read by the named dialect's parser, is rejected with the named error.
    macro_rules! assert_rejected {
        ($($parse:ident $line:literal => $variant:ident,)+) => {
            $(assert!(
                matches!($parse($line), Err(ParseError::$variant { .. })),
                "{} {}",
                stringify!($parse),
                $line
            );)+
        };
    }

    #[test]
    fn go_nonsense_is_rejected() {
        assert_rejected! {
            uci "go depth" => MissingValue,
            uci "go depth abc" => BadNumber,
            uci "go depth -3" => BadNumber,
            uci "go depth 99999999999999999999999" => OutOfRange,
            uci "go movetime 1.5" => BadNumber,
            uci "go wtime 99999999999999999999" => OutOfRange,
            uci "go nodes -1" => BadNumber,
            uci "go fly" => UnexpectedToken,
            uci "go searchmoves" => MissingValue,
            uci "go perft 50" => OutOfRange,
            // UCCI's keywords are not UCI's.
            uci "go time 100" => UnexpectedToken,
            ucci "go time abc" => BadNumber,
            ucci "go time inf" => BadNumber,
            ucci "go time NaN" => BadNumber,
            ucci "go increment 3" => MissingArgument,
            ucci "go wtime 100" => UnexpectedToken,
            ucci "go depth" => MissingValue,
        }
    }

    #[test]
    fn go_ucci_everything() {
        let g = go_ucci("go draw time 300 increment 2 opptime 250.5 oppincrement 2");
        assert!(g.draw && !g.ponder);
        assert_eq!(
            g.clock,
            GoClock::Ucci {
                time: 300.0,
                movestogo: None,
                increment: Some(2.0),
                opptime: Some(250.5),
                oppmovestogo: None,
                oppincrement: Some(2.0)
            }
        );
        let g = go_ucci("go ponder time 60000 movestogo 40 opptime 60000 oppmovestogo 40");
        assert!(g.ponder);
        assert!(matches!(g.clock, GoClock::Ucci { movestogo: Some(40), oppmovestogo: Some(40), .. }));
        assert_eq!(go_ucci("go depth 0").depth, Some(0));
        assert!(go_ucci("go depth infinite").infinite);
        assert_eq!(go_ucci("go nodes 100000").nodes, Some(100000));
        assert_eq!(go_ucci("go perft 2").perft, Some(2));
    }

    #[test]
    fn go_ucci_negative_time_is_zero() {
        assert_eq!(
            go_ucci("go time -5").clock,
            GoClock::Ucci {
                time: 0.0,
                movestogo: None,
                increment: None,
                opptime: None,
                oppmovestogo: None,
                oppincrement: None
            }
        );
    }

    #[test]
    fn developer_commands() {
        assert_eq!(uci("d"), Ok(Command::Display(BoardStyle::Auto)));
        assert_eq!(uci("d ascii"), Ok(Command::Display(BoardStyle::Ascii)));
        assert_eq!(uci("d unicode"), Ok(Command::Display(BoardStyle::Unicode)));
        assert_eq!(uci("d chinese"), Ok(Command::Display(BoardStyle::Unicode)));
        assert!(matches!(uci("d sideways"), Err(ParseError::UnexpectedToken { .. })));
        assert_eq!(uci("perft 4"), Ok(Command::Perft(4)));
        assert!(matches!(uci("perft"), Err(ParseError::MissingArgument { .. })));
        assert!(matches!(uci("perft x"), Err(ParseError::BadNumber { .. })));
        assert_eq!(uci("bench"), Ok(Command::Bench(BenchArgs::default())));
        assert_eq!(
            uci("bench 5"),
            Ok(Command::Bench(BenchArgs { depth: Some(5), threads: None, hash_mb: None }))
        );
        assert_eq!(
            uci("bench depth 4 threads 2 hash 32"),
            Ok(Command::Bench(BenchArgs { depth: Some(4), threads: Some(2), hash_mb: Some(32) }))
        );
        assert!(matches!(uci("bench depth"), Err(ParseError::MissingValue { .. })));
        assert!(matches!(uci("bench fast"), Err(ParseError::UnexpectedToken { .. })));
    }

    #[test]
    fn echo_hides_control_characters() {
        assert_eq!(echo("a\u{1}b"), "a\u{fffd}b");
        assert_eq!(echo(&"y".repeat(100)).chars().count(), ECHO_LIMIT + 3);
    }
}
