//! `chuhan judge`: the referee on the command line.
//!
//! `chuhan judge [--fen "<FEN>" | --fen startpos] [--moves m1 m2 ...]` plays the moves (ICCS such as
//! `h2e2`, or Chinese notation such as `炮二平五`) from the position and prints exactly one line on stdout,
//! `<result> <reason>` (for example `0-1 perpetual-check`, `* ongoing`). The referee's account of the
//! verdict goes to stderr. An illegal move ends the game against its mover (`illegal-move`) and is named on
//! stderr. A FEN that cannot be read is reported on stderr with a nonzero exit code and nothing on stdout.
//! `--rules chinese|asian|computer` and `--move-limit N` choose the rules (default: the Chinese, 60 moves).

use engine::rules::{GameRules, Reason, Referee, RuleSet};
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
    /// The repetition rules: chinese, asian or computer (docs/rules.md, "Rule sets").
    #[arg(long, default_value = "chinese")]
    pub rules: RuleSet,
    /// Moves without a capture that draw the game (0: no limit).
    #[arg(long, default_value_t = 60)]
    pub move_limit: u32,
}

/// Runs `chuhan judge` on the process's stdout and stderr.
pub fn command(args: JudgeArgs) -> ExitCode {
    let rules = GameRules { set: args.rules, move_limit_plies: 2 * args.move_limit.min(100_000) };
    ExitCode::from(run_under(
        args.fen.as_deref(),
        &args.moves,
        rules,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    ))
}

/// Exit code for input that could not be judged (a bad FEN).
pub const EXIT_BAD_INPUT: u8 = 2;

/// Runs `chuhan judge`: judges `moves` from `fen` (`None` or `startpos`: the start position), writing the
/// verdict line to `out` and diagnostics to `err`. Returns the process exit code.
pub fn run(fen: Option<&str>, moves: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    run_under(fen, moves, GameRules::default(), out, err)
}

/// [`run`] under `rules`.
pub fn run_under(
    fen: Option<&str>,
    moves: &[String],
    rules: GameRules,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
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
    let mut referee = Referee::with_rules(start, rules);
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

    #[test]
    fn the_rules_flag_changes_the_verdict_on_a_perpetual_chase() {
        // The red horse chases the unprotected black rook round e4/f4, twice over.
        let cycle = "c3d5 f4e4 d5c3 e4f4 ".repeat(2);
        let moves: Vec<String> = cycle.split_whitespace().map(String::from).collect();
        let fen = Some("5k3/9/9/9/9/5r3/2N6/9/9/3K5 w - - 0 1");
        let verdict = |set: RuleSet| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let rules = GameRules::with_set(set);
            assert_eq!(run_under(fen, &moves, rules, &mut out, &mut err), 0);
            String::from_utf8_lossy(&out).into_owned()
        };
        assert_eq!(verdict(RuleSet::Chinese), "0-1 perpetual-chase\n");
        assert_eq!(verdict(RuleSet::Asian), "0-1 perpetual-chase\n");
        assert_eq!(verdict(RuleSet::Computer), "1/2-1/2 repetition-draw\n");
    }

    #[test]
    fn a_composed_position_is_judged_with_a_warning() {
        // A red pawn on its own back rank: judged as given, with one warning on stderr.
        let (code, out, err) = judge(Some("3k5/9/9/9/9/9/9/9/9/4KP3 w - - 0 1"), &["f0f1"]);
        assert_eq!((code, out.as_str()), (0, "* ongoing\n"));
        assert!(err.contains("composed position") && err.contains("Pf0"), "{err}");
    }
}
