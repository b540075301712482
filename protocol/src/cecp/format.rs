//! What chuhan writes in CECP: the feature lines, thinking output, moves, results and errors. Pure
//! functions from values to lines, like [`crate::format`] for UCI and UCCI.

use crate::format::ENGINE_NAME;
use crate::options::{OptionId, OptionKind, OptionSpec, OPTIONS};
use engine::search::{Bound, Score, SearchInfo};
use engine::{Color, Move};

/// Options XBoard sets through its own commands (`memory`, `cores`, `hard`/`easy`, `new`), or that mean
/// nothing here (UCCI's time units and switches, UCI's WDL and several lines): not offered as `option=`.
const NOT_OFFERED: &[OptionId] = &[
    OptionId::Threads,
    OptionId::Hash,
    OptionId::Ponder,
    OptionId::MultiPv,
    OptionId::ShowWdl,
    OptionId::UseMillisec,
    OptionId::Batch,
    OptionId::Debug,
    OptionId::NewGame,
    OptionId::Style,
    OptionId::Variant,
];

/// The name an option has in CECP: its UCI name where it has one (readable in XBoard's dialog), else UCCI's.
pub fn option_name(spec: &OptionSpec) -> Option<&'static str> {
    spec.uci.or(spec.ucci)
}

/// The options offered to XBoard, with their CECP names.
pub fn offered_options() -> impl Iterator<Item = (&'static OptionSpec, &'static str)> {
    OPTIONS.iter().filter(|s| !NOT_OFFERED.contains(&s.id)).filter_map(|s| Some((s, option_name(s)?)))
}

/// The answer to `protover 2`: a `done=0` (more is coming), the features, one `option=` per option, `done=1`.
pub fn features() -> Vec<String> {
    let mut lines = vec![
        "feature done=0".to_string(),
        format!(
            "feature myname=\"{ENGINE_NAME}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 sigint=0 \
             sigterm=0 colors=0 analyze=1 memory=1 smp=1 debug=1 playother=1 draw=1 reuse=1 san=0 time=1 \
             nps=1 name=0 pause=0 exclude=0 egt=\"xiangqi\""
        ),
    ];
    for (spec, name) in offered_options() {
        let kind = match spec.kind {
            OptionKind::Check(d) => format!("-check {}", u8::from(d)),
            OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
            OptionKind::Combo { default, vars } => {
                // XBoard marks the default choice with a star.
                let vars: Vec<String> = vars
                    .iter()
                    .map(|v| if *v == default { format!("*{v}") } else { v.to_string() })
                    .collect();
                format!("-combo {}", vars.join(" /// "))
            }
            OptionKind::Button => "-button".to_string(),
            OptionKind::Text { default } => format!("-file {default}"),
        };
        lines.push(format!("feature option=\"{name} {kind}\""));
    }
    lines.push("feature done=1".to_string());
    lines
}

/// A CECP score: centipawns, or 100000 + N for a mate in N moves (negative when mated).
pub fn score(internal: i32) -> i64 {
    match Score::from_internal(internal) {
        Score::Cp(cp) => cp as i64,
        // `n` is negative (or 0, mated now) when chuhan is being mated.
        Score::Mate(n) if internal > 0 => 100_000 + n as i64,
        Score::Mate(n) => -100_000 - (n as i64).abs(),
    }
}

/// Thinking output: `ply score time nodes pv`, time in centiseconds; the PV ends in `?` for a fail low
/// (an upper bound) or `!` for a fail high, as the CECP specification asks.
pub fn thinking(info: &SearchInfo) -> String {
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let mark = match info.bound {
        Bound::Upper => "?",
        Bound::Lower => "!",
        Bound::Exact => "",
    };
    format!(
        "{} {} {} {} {}{mark}",
        info.depth,
        score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}

/// The answer to `.` in analyze mode: `stat01: time nodes ply mvleft mvtot` (moves left are not tracked).
pub fn stat01(info: Option<&SearchInfo>, legal: usize) -> String {
    match info {
        Some(i) => format!("stat01: {} {} {} 0 {legal}", i.time_ms / 10, i.nodes, i.depth),
        None => format!("stat01: 0 0 0 0 {legal}"),
    }
}

/// `move MOVE`.
pub fn play(m: Move) -> String {
    format!("move {m}")
}

/// `pong N`.
pub fn pong(n: &str) -> String {
    format!("pong {n}")
}

/// The engine offers (or, after the opponent's `draw`, accepts) a draw.
pub const OFFER_DRAW: &str = "offer draw";

/// The engine resigns.
pub const RESIGN: &str = "resign";

/// The result claim when `loser` is to move and has no move (mated or stalemated: both lose in xiangqi).
pub fn no_move_result(loser: Color) -> String {
    match loser {
        Color::Red => "0-1 {Black mates}".to_string(),
        Color::Black => "1-0 {Red mates}".to_string(),
    }
}

/// `Illegal move (reason): MOVE`.
pub fn illegal_move(reason: &str, text: &str) -> String {
    format!("Illegal move ({}): {}", flat(reason), crate::parse::echo(text))
}

/// `Error (reason): COMMAND`.
pub fn error(reason: &str, command: &str) -> String {
    format!("Error ({}): {}", flat(reason), crate::parse::echo(command))
}

/// A debug line XBoard shows in its log (`debug=1`): `# text`.
pub fn debug(text: &str) -> String {
    format!("# {}", flat(text))
}

fn flat(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::MATE;
    use engine::Position;

    #[test]
    fn features_end_with_done_and_offer_options() {
        let f = features();
        assert_eq!(f.first().map(String::as_str), Some("feature done=0"));
        assert_eq!(f.last().map(String::as_str), Some("feature done=1"));
        assert!(
            f[1].contains("variants=\"xiangqi\"") && f[1].contains("usermove=1") && f[1].contains("sigint=0")
        );
        assert!(f.contains(&"feature option=\"Skill Level -spin 20 0 20\"".to_string()));
        assert!(f.contains(&"feature option=\"Clear Hash -button\"".to_string()));
        assert!(f.contains(&"feature option=\"resign -check 1\"".to_string()));
        assert!(f.iter().any(|l| l.contains("Knowledge -combo none /// small /// medium /// *large")));
        assert!(!f.iter().any(|l| l.contains("option=\"Hash ")), "memory sets the hash");
    }

    #[test]
    fn thinking_lines_use_centiseconds_and_xboard_mates() {
        let pos = Position::startpos();
        let info = SearchInfo {
            depth: 7,
            seldepth: 9,
            multipv: 1,
            score: 400,
            bound: Bound::Exact,
            nodes: 5000,
            nps: 1,
            hashfull: 0,
            time_ms: 1234,
            tbhits: 0,
            pv: vec![pos.parse_move("h2e2").unwrap()],
        };
        assert_eq!(thinking(&info), "7 100 123 5000 h2e2");
        assert_eq!(thinking(&SearchInfo { bound: Bound::Upper, ..info.clone() }), "7 100 123 5000 h2e2?");
        assert_eq!(score(MATE - 3), 100_002);
        assert_eq!(score(-MATE + 4), -100_002);
    }

    #[test]
    fn illegal_moves_and_errors_name_the_reason() {
        assert_eq!(illegal_move("no piece there", "a5a6"), "Illegal move (no piece there): a5a6");
        assert_eq!(error("unknown command", "foo"), "Error (unknown command): foo");
    }
}
