//! `chuhan judge`: the referee on the command line.
//!
//! `chuhan judge [--fen "<FEN>" | --fen startpos] [--moves m1 m2 ...]` plays the moves (ICCS such as
//! `h2e2`, or Chinese notation such as `炮二平五`) from the position and prints exactly one line on stdout,
//! `<result> <reason>` (for example `0-1 perpetual-check`, `* ongoing`). The referee's account of the
//! verdict goes to stderr. An illegal move ends the game against its mover (`illegal-move`) and is named on
//! stderr. A FEN that cannot be read is reported on stderr with a nonzero exit code and nothing on stdout.

use engine::rules::{Reason, Referee};
use engine::Position;
use std::io::Write;
use std::process::ExitCode;

/// `chuhan judge`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// Start position (FEN or `startpos`; default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves, in ICCS (`h2e2`) or Chinese notation (`炮二平五`).
    #[arg(long, num_args = 0.., allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Runs `chuhan judge` on the process's stdout and stderr.
pub fn command(args: JudgeArgs) -> ExitCode {
    ExitCode::from(run(
        args.fen.as_deref(),
        &args.moves,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    ))
}

/// Exit code for input that could not be judged (a bad FEN).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Runs `chuhan judge`: judges `moves` from `fen` (`None` or `startpos`: the start position), writing the
/// verdict line to `out` and diagnostics to `err`. Returns the process exit code.
pub fn run(fen: Option<&str>, moves: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let start = match fen.map(str::trim) {
        None | Some("startpos") => Position::startpos(),
        Some(text) => match Position::from_composed_fen(text) {
            Ok(c) => {
                if let Some(w) = c.warning() {
                    let _ = writeln!(err, "chuhan judge: {w}");
                }
                c.position
            }
            Err(e) => {
                let _ = writeln!(err, "chuhan judge: {e}");
                return EXIT_BAD_INPUT;
            }
        },
    };
    // Moves may come as separate arguments or several to one quoted argument.
    let moves: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
    let mut referee = Referee::new(start);
    let mut played = 0;
    for m in &moves {
        if referee.judgement().is_over() {
            break;
        }
        referee.play_str(m);
        played += 1;
    }
    let judgement = referee.judgement();
    if judgement.reason == Reason::IllegalMove {
        let _ = writeln!(err, "chuhan judge: illegal move: {}", judgement.detail);
    } else if !judgement.detail.is_empty() {
        let _ = writeln!(err, "chuhan judge: {}", judgement.detail);
    }
    if played < moves.len() {
        let _ = writeln!(err, "chuhan judge: the game ended before the last {} moves", moves.len() - played);
    }
    let _ = writeln!(out, "{judgement}");
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(fen: Option<&str>, moves: &[&str]) -> (u8, String, String) {
        let moves: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(fen, &moves, &mut out, &mut err);
        (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
    }

    #[test]
    fn start_position_without_moves_is_ongoing() {
        assert_eq!(judge(None, &[]), (0, "* ongoing\n".to_string(), String::new()));
        assert_eq!(judge(Some("startpos"), &["h2e2 h9g7"]).1, "* ongoing\n");
    }

    #[test]
    fn an_illegal_move_loses_for_its_mover_and_is_named() {
        let (code, out, err) = judge(None, &["h2e2", "h9h5"]);
        assert_eq!((code, out.as_str()), (0, "1-0 illegal-move\n"));
        assert!(err.contains("h9h5"), "{err}");
    }

    #[test]
    fn a_bad_fen_prints_nothing_on_stdout() {
        let (code, out, err) = judge(Some("rnbakabnr/9/9 w"), &[]);
        assert_eq!((code, out.as_str()), (EXIT_BAD_INPUT, ""));
        assert!(err.contains("FEN"), "{err}");
    }
}
