//! A tiny engine for the match runner's tests. It speaks UCI, UCCI or CECP (whichever the first command
//! names: `uci`, `ucci`, `xboard`), plays quickly, and misbehaves on purpose from its `--after`-th move on,
//! according to `--mode`:
//!
//! - `random`    a pseudo-random legal move (mates in one when it can); the default
//! - `first`     the first legal move
//! - `perpetual` a check (never a mate) that repeats an earlier position if it can, else any check
//! - `illegal`   a move from an empty point
//! - `hang`      never answers `go` again (ignores `stop` and `quit`)
//! - `crash`     exits as soon as it is asked to move
//! - `slow`      sleeps `--sleep` ms before answering
//! - `nomove`    answers `nobestmove` / `bestmove (none)` although it has moves (CECP: claims a draw)
//! - `resign`    answers `bestmove <move> resign` (CECP: `resign`)
//! - `killed`    kills itself with SIGKILL as soon as it is asked to move (no last words, no exit code)
//! - `deaf`      answers only the first `--after` `isready`s (none with `--after 0`)
//! - `flood`     answers `go` with output that never ends and never breaks a line
//! - `wrongcoords` answers a legal move written with ranks 1-10 instead of 0-9 (`h3e3` for `h2e2`),
//!   choosing one that is not also legal as written
//!
//! (`killed`, `deaf`, `flood` and `wrongcoords` misbehave in UCI and UCCI only.)
//!
//! `--score CP` sets the score it reports; `--seed N` varies its random moves. It prints odd `info` lines
//! and extra words after `bestmove` to check that the runner tolerates them.

use engine::position::START_FEN;
use engine::{Move, Position, Square};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::Duration;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    Random,
    First,
    Perpetual,
    Illegal,
    Hang,
    Crash,
    Slow,
    NoMove,
    Resign,
    Killed,
    Deaf,
    Flood,
    WrongCoords,
}

struct Settings {
    mode: Mode,
    after: u32,
    score: i32,
    sleep_ms: u64,
    seed: u64,
}

/// A command line this engine does not understand.
#[derive(Debug)]
enum ArgError {
    /// An option as the last word, without its value.
    NeedsValue(String),
    /// A value that should be a number.
    NotANumber(String),
    /// A `--mode` this engine does not have.
    UnknownMode(String),
    /// A word that is not an option.
    UnknownArgument(String),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::NeedsValue(option) => write!(f, "{option} needs a value"),
            ArgError::NotANumber(v) => write!(f, "{v} is not a number"),
            ArgError::UnknownMode(m) => write!(f, "unknown mode {m}"),
            ArgError::UnknownArgument(a) => write!(f, "unknown argument {a}"),
        }
    }
}

impl std::error::Error for ArgError {}

fn settings() -> Result<Settings, ArgError> {
    let mut s = Settings { mode: Mode::Random, after: 0, score: 0, sleep_ms: 500, seed: 1 };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or_else(|| ArgError::NeedsValue(args[i].clone()))?;
        let num = |v: &str| v.parse::<i64>().map_err(|_| ArgError::NotANumber(v.to_string()));
        match args[i].as_str() {
            "--mode" => {
                s.mode = match value.as_str() {
                    "random" => Mode::Random,
                    "first" => Mode::First,
                    "perpetual" => Mode::Perpetual,
                    "illegal" => Mode::Illegal,
                    "hang" => Mode::Hang,
                    "crash" => Mode::Crash,
                    "slow" => Mode::Slow,
                    "nomove" => Mode::NoMove,
                    "resign" => Mode::Resign,
                    "killed" => Mode::Killed,
                    "deaf" => Mode::Deaf,
                    "flood" => Mode::Flood,
                    "wrongcoords" => Mode::WrongCoords,
                    other => return Err(ArgError::UnknownMode(other.to_string())),
                }
            }
            "--after" => s.after = num(value)? as u32,
            "--score" => s.score = num(value)? as i32,
            "--sleep" => s.sleep_ms = num(value)? as u64,
            "--seed" => s.seed = num(value)? as u64,
            other => return Err(ArgError::UnknownArgument(other.to_string())),
        }
        i += 2;
    }
    Ok(s)
}

fn main() {
    let settings = match settings() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("test_engine: {e}");
            std::process::exit(2);
        }
    };
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut ucci = false;
    let mut pos = Position::startpos();
    let mut moved = 0u32;
    let mut readied = 0u32;
    let mut hung = false;
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply: Vec<String> = match words.first().copied() {
            _ if hung => continue,
            Some("xboard") => return cecp(&settings, lines.map_while(Result::ok), &mut out),
            Some("uci") => {
                vec!["id name test_engine".into(), "id author chuhan tests".into(), "uciok".into()]
            }
            Some("ucci") => {
                ucci = true;
                vec![
                    "id name test_engine".into(),
                    "option usemillisec type check default false".into(),
                    "ucciok".into(),
                ]
            }
            Some("isready") if settings.mode == Mode::Deaf && readied >= settings.after => continue,
            Some("isready") => {
                readied += 1;
                vec!["readyok".into()]
            }
            Some("ucinewgame") => {
                moved = 0;
                vec![]
            }
            Some("setoption") => {
                if words.get(1) == Some(&"newgame") {
                    moved = 0;
                }
                vec![]
            }
            Some("position") => {
                if let Some(p) = read_position(&words[1..]) {
                    pos = p;
                }
                vec![]
            }
            Some("go") => {
                moved += 1;
                let misbehave = moved > settings.after;
                match (settings.mode, misbehave) {
                    (Mode::Crash, true) => {
                        eprintln!("test_engine: crashing on purpose at move {moved}");
                        std::process::exit(3)
                    }
                    (Mode::Hang, true) => {
                        hung = true;
                        continue;
                    }
                    (Mode::Slow, true) => std::thread::sleep(Duration::from_millis(settings.sleep_ms)),
                    (Mode::Killed, true) => kill_myself(),
                    (Mode::Flood, true) => flood(&mut out),
                    _ => {}
                }
                answer(&settings, misbehave, ucci, &pos)
            }
            Some("quit") => break,
            _ => vec![],
        };
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
    }
}

/// `fen F... [moves ...]` or `startpos [moves ...]`.
fn read_position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut pos = match words.first() {
        Some(&"startpos") => Position::from_fen(START_FEN).ok()?,
        Some(&"fen") => Position::from_fen(&words[1..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    for m in words.iter().skip(moves_at + 1) {
        pos.try_play(m).ok()?;
    }
    Some(pos)
}

fn answer(s: &Settings, misbehave: bool, ucci: bool, pos: &Position) -> Vec<String> {
    let mut lines = vec![
        if ucci { "info message thinking hard".to_string() } else { "info string thinking hard".to_string() },
        "info currmove a0a1 currmovenumber 1 some words".to_string(),
    ];
    let none = if ucci { "nobestmove" } else { "bestmove (none)" };
    let chosen = match (s.mode, misbehave) {
        (Mode::Illegal, true) => Some(illegal_move(pos)),
        (Mode::WrongCoords, true) => wrong_coordinates(pos),
        (Mode::NoMove, true) => None,
        (Mode::Perpetual, _) => perpetual_move(pos).or_else(|| pick(pos, s.seed)).map(|m| m.to_string()),
        (Mode::First, _) => pos.legal_moves().first().map(|m| m.to_string()),
        _ => pick(pos, s.seed).map(|m| m.to_string()),
    };
    let Some(m) = chosen else {
        lines.push(none.to_string());
        return lines;
    };
    lines.push(if ucci {
        format!("info depth 1 score {} pv {m}", s.score)
    } else {
        format!("info depth 1 seldepth 1 score cp {} nodes 1 nps 1 time 0 pv {m}", s.score)
    });
    lines.push(match (s.mode, misbehave) {
        (Mode::Resign, true) => format!("bestmove {m} resign"),
        _ => format!("bestmove {m} ponder {m} and some extra words"),
    });
    lines
}

/// A mate in one if there is one, else a legal move chosen by the position key and seed.
fn pick(pos: &Position, seed: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    let mut p = pos.clone();
    for &m in moves.iter() {
        p.make_move(m);
        let mate = !p.has_legal_move();
        p.unmake_move();
        if mate {
            return Some(m);
        }
    }
    if moves.is_empty() {
        return None;
    }
    let h = (pos.key() ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    Some(moves[(h >> 32) as usize % moves.len()])
}

/// A checking move that does not mate, preferring one that leads back to a position seen before.
fn perpetual_move(pos: &Position) -> Option<Move> {
    let seen: Vec<u64> = pos.history().iter().map(|u| u.key).collect();
    let mut p = pos.clone();
    let mut any_check = None;
    for &m in pos.legal_moves().iter() {
        if !pos.gives_check(m) {
            continue;
        }
        p.make_move(m);
        let repeats = seen.contains(&p.key());
        let mates = !p.has_legal_move();
        p.unmake_move();
        if mates {
            continue;
        }
        if repeats {
            return Some(m);
        }
        any_check.get_or_insert(m);
    }
    any_check
}

/// Ends the process with SIGKILL, the way the kernel's OOM killer or a careless `kill -9` would.
fn kill_myself() -> ! {
    let _ = std::process::Command::new("kill").args(["-KILL", &std::process::id().to_string()]).status();
    // Only reached if `kill` could not be run.
    std::process::abort()
}

/// Writes without end and without a line break until the reader goes away.
fn flood(out: &mut impl Write) -> ! {
    let chunk = [b'x'; 1 << 16];
    loop {
        if out.write_all(&chunk).is_err() {
            std::process::exit(4);
        }
    }
}

/// A legal move written with ranks 1-10 (a chess engine's habit), chosen so that the text is not also a
/// legal move in the real coordinates.
fn wrong_coordinates(pos: &Position) -> Option<String> {
    let shifted = |m: &Move| {
        let text = m.to_string();
        let b = text.as_bytes();
        format!("{}{}{}{}", b[0] as char, (b[1] - b'0') + 1, b[2] as char, (b[3] - b'0') + 1)
    };
    let moves = pos.legal_moves();
    let not_legal = moves.iter().map(shifted).find(|t| pos.parse_move(t).is_err());
    not_legal.or_else(|| moves.first().map(shifted))
}

/// A move from an empty point to its neighbour: well formed, never legal.
fn illegal_move(pos: &Position) -> String {
    for i in 0..90u8 {
        if let (Some(from), Some(to)) = (Square::new(i), Square::new((i + 1) % 90)) {
            if pos.piece_at(from).is_none() {
                return format!("{from}{to}");
            }
        }
    }
    "a0a0".to_string()
}

/// The CECP loop: keeps the game, plays the side it is given, answers `ping`.
fn cecp(settings: &Settings, mut lines: impl Iterator<Item = String>, out: &mut impl Write) {
    let mut pos = Position::startpos();
    let mut force = false;
    let mut side = engine::Color::Black;
    let mut moved = 0u32;
    loop {
        let Some(line) = lines.next() else { return };
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut think = false;
        let reply: Vec<String> = match words.first().copied() {
            Some("protover") => vec![
                "feature myname=\"test_engine\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1".into(),
                "feature sigint=0 sigterm=0 done=1".into(),
            ],
            Some("new") => {
                (pos, force, side, moved) = (Position::startpos(), false, engine::Color::Black, 0);
                vec![]
            }
            Some("force") => {
                force = true;
                vec![]
            }
            Some("setboard") => {
                let fen = words[1..].join(" ").replace(" 0 1", " - - 0 1");
                match Position::from_fen(&fen) {
                    Ok(p) => pos = p,
                    Err(e) => eprintln!("test_engine: bad setboard: {e}"),
                }
                vec![]
            }
            Some("usermove") => match pos.try_play(words.get(1).copied().unwrap_or("")) {
                Ok(_) => {
                    think = !force && pos.side_to_move() == side;
                    vec![]
                }
                Err(e) => vec![format!("Illegal move ({e}): {}", words.get(1).copied().unwrap_or(""))],
            },
            Some("go") => {
                force = false;
                side = pos.side_to_move();
                think = true;
                vec![]
            }
            Some("ping") => vec![format!("pong {}", words.get(1).copied().unwrap_or(""))],
            Some("quit") => return,
            _ => vec![],
        };
        let mut reply = reply;
        if think {
            moved += 1;
            let misbehave = moved > settings.after;
            match (settings.mode, misbehave) {
                (Mode::Crash, true) => std::process::exit(3),
                (Mode::Hang, true) => {
                    // Never moves again; reads on, so the runner's `?` and `quit` go unanswered.
                    lines.by_ref().for_each(drop);
                    return;
                }
                (Mode::Slow, true) => std::thread::sleep(Duration::from_millis(settings.sleep_ms)),
                _ => {}
            }
            reply.extend(cecp_answer(settings, misbehave, &mut pos));
        }
        for r in reply {
            let _ = writeln!(out, "{r}");
        }
        let _ = out.flush();
    }
}

/// Thinking output and `move`, or the misbehaviour; a played move is made on `pos`.
fn cecp_answer(s: &Settings, misbehave: bool, pos: &mut Position) -> Vec<String> {
    let mut lines = vec!["# thinking hard".to_string()];
    let chosen = match (s.mode, misbehave) {
        (Mode::Illegal, true) => {
            lines.push(format!("move {}", illegal_move(pos)));
            return lines;
        }
        (Mode::NoMove, true) => {
            lines.push("1/2-1/2 {Draw by the test engine's say-so}".into());
            return lines;
        }
        (Mode::Resign, true) => {
            lines.push("resign".into());
            return lines;
        }
        (Mode::Perpetual, _) => perpetual_move(pos).or_else(|| pick(pos, s.seed)),
        (Mode::First, _) => pos.legal_moves().first().copied(),
        _ => pick(pos, s.seed),
    };
    let Some(m) = chosen else { return lines };
    lines.push(format!("1 {} 0 1 {m}", s.score));
    lines.push(format!("move {m}"));
    pos.make_move(m);
    lines
}
