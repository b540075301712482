//! What the engine writes, per dialect. Pure functions from values to lines (no trailing newline). CECP's
//! text is `cecp::format`'s; these functions never get [`Dialect::Cecp`] and give it UCI's.

use crate::command::Dialect;
use crate::draw::Verdict;
use crate::options::{OptionKind, OPTIONS};
use engine::search::tt_size::{SizeLimit, TableSize};
use engine::search::{Bound, ProbeResult, Score, SearchInfo, MATE, MATE_BOUND};
use engine::Move;
use std::fmt::Write;

/// The engine's name as the GUIs show it.
pub const ENGINE_NAME: &str = concat!("chuhan ", env!("CARGO_PKG_VERSION"));
/// The authors line.
pub const AUTHORS: &str = "the chuhan developers";
/// UCCI has no mate keyword: a mate in n plies is printed as ±(`UCCI_MATE` - n), as UCCI engines do.
pub const UCCI_MATE: i32 = 10_000;

/// `id`, `option` lines and `uciok`/`ucciok`: the answer to `uci` or `ucci`.
pub fn introduction(dialect: Dialect) -> Vec<String> {
    let mut lines = match dialect {
        Dialect::Uci | Dialect::Cecp => {
            vec![format!("id name {ENGINE_NAME}"), format!("id author {AUTHORS}")]
        }
        Dialect::Ucci => vec![
            format!("id name {ENGINE_NAME}"),
            format!("id copyright {AUTHORS}, {}", env!("CARGO_PKG_LICENSE")),
            format!("id author {AUTHORS}"),
        ],
    };
    lines.extend(option_lines(dialect));
    lines.push(if dialect == Dialect::Uci { "uciok" } else { "ucciok" }.to_string());
    lines
}

/// One `option` line per option the dialect knows (and, in `tune` builds, per search parameter).
pub fn option_lines(dialect: Dialect) -> Vec<String> {
    let mut lines = table_option_lines(dialect);
    if cfg!(feature = "tune") {
        for t in engine::search::SearchParams::TUNABLES {
            let (name, min, max, default) =
                (format!("{}{}", crate::options::TUNE_PREFIX, t.name), t.min, t.max, t.default);
            lines.push(match dialect {
                // CECP announces options in its own feature lines (cecp::format).
                Dialect::Cecp => continue,
                Dialect::Uci => format!("option name {name} type spin default {default} min {min} max {max}"),
                Dialect::Ucci => format!("option {name} type spin min {min} max {max} default {default}"),
            });
        }
    }
    lines
}

/// The option lines of the options table.
fn table_option_lines(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|spec| {
            let name = match dialect {
                Dialect::Uci | Dialect::Cecp => format!("name {}", spec.uci?),
                Dialect::Ucci => spec.ucci?.to_string(),
            };
            let mut line = format!("option {name} type ");
            match (spec.kind, dialect) {
                (OptionKind::Check(d), _) => write!(line, "check default {d}"),
                (OptionKind::Spin { default, min, max }, Dialect::Uci | Dialect::Cecp) => {
                    write!(line, "spin default {default} min {min} max {max}")
                }
                (OptionKind::Spin { default, min, max }, Dialect::Ucci) => {
                    write!(line, "spin min {min} max {max} default {default}")
                }
                (OptionKind::Combo { default, vars }, Dialect::Uci | Dialect::Cecp) => {
                    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                    write!(line, "combo default {default}{vars}")
                }
                (OptionKind::Combo { default, vars }, Dialect::Ucci) => {
                    let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                    write!(line, "combo{vars} default {default}")
                }
                (OptionKind::Button, _) => write!(line, "button"),
                (OptionKind::Text { default }, _) => write!(line, "string default {default}"),
            }
            .ok()?;
            Some(line)
        })
        .collect()
}

/// A UCCI score: centipawns, or ±(10000 - plies) for a mate.
pub fn ucci_score(internal: i32) -> i32 {
    if internal.abs() >= MATE_BOUND {
        internal.signum() * (UCCI_MATE - (MATE - internal.abs()))
    } else {
        match Score::from_internal(internal) {
            Score::Cp(cp) => cp,
            Score::Mate(_) => 0,
        }
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// The progress lines for one search report (UCCI gives line 1 only: it has no `multipv`).
pub fn info(dialect: Dialect, info: &SearchInfo, show_wdl: bool) -> Vec<String> {
    match dialect {
        Dialect::Uci | Dialect::Cecp => {
            let score = Score::from_internal(info.score);
            let mut s = format!(
                "info depth {} seldepth {} multipv {} score ",
                info.depth, info.seldepth, info.multipv
            );
            let _ = match score {
                Score::Cp(cp) => write!(s, "cp {cp}"),
                Score::Mate(n) => write!(s, "mate {n}"),
            };
            match info.bound {
                Bound::Lower => s.push_str(" lowerbound"),
                Bound::Upper => s.push_str(" upperbound"),
                Bound::Exact => {}
            }
            if show_wdl {
                let (w, d, l) = crate::wdl::wdl(score);
                let _ = write!(s, " wdl {w} {d} {l}");
            }
            let _ = write!(
                s,
                " nodes {} nps {} hashfull {} tbhits {} time {}",
                info.nodes, info.nps, info.hashfull, info.tbhits, info.time_ms
            );
            if !info.pv.is_empty() {
                let _ = write!(s, " pv {}", pv_text(&info.pv));
            }
            vec![s]
        }
        Dialect::Ucci if info.multipv <= 1 => {
            let mut s = format!("info depth {} score {}", info.depth, ucci_score(info.score));
            if !info.pv.is_empty() {
                let _ = write!(s, " pv {}", pv_text(&info.pv));
            }
            vec![s, format!("info time {} nodes {}", info.time_ms, info.nodes)]
        }
        Dialect::Ucci => vec![],
    }
}

/// The root move being searched.
pub fn currmove(dialect: Dialect, m: Move, number: usize, depth: u32) -> String {
    match dialect {
        Dialect::Uci | Dialect::Cecp => format!("info depth {depth} currmove {m} currmovenumber {number}"),
        Dialect::Ucci => format!("info currmove {m}"),
    }
}

/// The static evaluation as a depth-0 report (UCCI `go depth 0`).
pub fn static_eval(dialect: Dialect, internal: i32) -> String {
    match dialect {
        Dialect::Ucci => format!("info depth 0 score {}", ucci_score(internal)),
        Dialect::Uci | Dialect::Cecp => match Score::from_internal(internal) {
            Score::Cp(cp) => format!("info depth 0 score cp {cp}"),
            Score::Mate(n) => format!("info depth 0 score mate {n}"),
        },
    }
}

/// The final answer: `bestmove m [ponder p] [draw|resign]`, `bestmove (none)` (UCI) or `nobestmove`
/// (UCCI) when there is no move. UCI has no draw offers, so the verdict is UCCI's only.
pub fn bestmove(dialect: Dialect, best: Option<Move>, ponder: Option<Move>, verdict: Verdict) -> String {
    let Some(best) = best else {
        return match dialect {
            Dialect::Uci | Dialect::Cecp => "bestmove (none)".to_string(),
            Dialect::Ucci => NOBESTMOVE.to_string(),
        };
    };
    let mut s = format!("bestmove {best}");
    if let Some(p) = ponder {
        let _ = write!(s, " ponder {p}");
    }
    if dialect == Dialect::Ucci {
        match verdict {
            Verdict::Draw => s.push_str(" draw"),
            Verdict::Resign => s.push_str(" resign"),
            Verdict::Play => {}
        }
    }
    s
}

/// A one-line message to the user: `info string` (UCI, or before the dialect is known) or `info message`
/// (UCCI). Line breaks in `text` are flattened so one message stays one line.
pub fn message(dialect: Option<Dialect>, text: &str) -> String {
    let text = text.replace(['\r', '\n'], " ");
    match dialect {
        Some(Dialect::Ucci) => format!("info message {text}"),
        _ => format!("info string {text}"),
    }
}

/// What to tell the user when the hash table is smaller than asked (`None` when it is not).
pub fn hash_size_note(size: &TableSize) -> Option<String> {
    let why = match size.limit {
        SizeLimit::Fits => return None,
        SizeLimit::Memory { available_mb, reserve_mb } => format!(
            "the machine has {available_mb} MiB of memory available and {reserve_mb} MiB of it are left for \
             everything else"
        ),
        SizeLimit::Maximum => "that is the largest table chuhan makes".to_string(),
        SizeLimit::Unknown => "this system does not say how much memory it has".to_string(),
        SizeLimit::Allocation => "the system would not give more memory".to_string(),
    };
    Some(format!("Hash: using {} MiB instead of {} MiB: {why}", size.used_mb, size.asked_mb))
}

/// What to tell the user when fewer search threads run than `Threads` asks for.
pub fn threads_note(asked: usize, used: usize) -> String {
    format!(
        "Threads: using {used} search threads instead of {asked}: this machine runs {used} at a time, and \
         more would only share those cores and answer late"
    )
}

/// The message for an input line over the length limit, which is ignored whole (`command`: its first word).
pub fn too_long(len: usize, max: usize, command: &str) -> String {
    let what = match command {
        "" => String::new(),
        c => format!(" ('{}' ...)", crate::parse::echo(c)),
    };
    let kept = if command.eq_ignore_ascii_case("position") { "; the position is unchanged" } else { "" };
    format!("line of {len} bytes{what} is longer than the limit of {max} bytes; ignored whole{kept}")
}

/// `readyok`.
pub const READYOK: &str = "readyok";

/// UCCI's answer to `go depth 0` after the static evaluation, and to a search with nothing to play.
pub const NOBESTMOVE: &str = "nobestmove";

/// UCI's report before `bestmove (none)` when the side to move has no legal move (it is mated, or
/// stalemated, which loses too).
pub const MATED_NOW: &str = "info depth 0 score mate 0";

/// UCCI `pophash`: what the hash table holds for a position (bare `pophash` when it holds nothing).
pub fn pophash(entry: Option<ProbeResult>) -> String {
    let mut line = String::from("pophash");
    let Some(entry) = entry else { return line };
    if let Some(m) = entry.best {
        let _ = write!(line, " bestmove {m}");
    }
    let (v, d) = (ucci_score(entry.score), entry.depth);
    if matches!(entry.bound, Bound::Lower | Bound::Exact) {
        let _ = write!(line, " lowerbound {v} depth {d}");
    }
    if matches!(entry.bound, Bound::Upper | Bound::Exact) {
        let _ = write!(line, " upperbound {v} depth {d}");
    }
    line
}
/// UCCI's answer to `quit`.
pub const BYE: &str = "bye";

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Position;

    fn report(score: i32, bound: Bound, multipv: usize) -> SearchInfo {
        let pos = Position::startpos();
        SearchInfo {
            depth: 6,
            seldepth: 9,
            multipv,
            score,
            bound,
            nodes: 12345,
            nps: 100000,
            hashfull: 7,
            time_ms: 123,
            tbhits: 0,
            pv: vec![
                pos.parse_move("h2e2").unwrap(),
                Move::new("h9".parse().unwrap(), "g7".parse().unwrap()),
            ],
        }
    }

    #[test]
    fn introductions_end_with_ok_and_list_options() {
        let uci = introduction(Dialect::Uci);
        let id = format!("id name chuhan {}", env!("CARGO_PKG_VERSION"));
        assert_eq!(uci[0], id);
        assert_eq!(uci.last().map(String::as_str), Some("uciok"));
        assert!(uci.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(uci.contains(&"option name Clear Hash type button".to_string()));
        assert!(uci.contains(&"option name UCI_ShowWDL type check default false".to_string()));
        assert!(uci.iter().all(|l| !l.contains("usemillisec")));
        let ucci = introduction(Dialect::Ucci);
        assert_eq!(ucci[0], id);
        assert_eq!(ucci.last().map(String::as_str), Some("ucciok"));
        let first_option = ucci.iter().position(|l| l.starts_with("option")).unwrap();
        assert_eq!(ucci[first_option], "option usemillisec type check default false");
        assert!(ucci.contains(&"option hashsize type spin min 1 max 65536 default 16".to_string()));
        assert!(ucci.contains(&"option newgame type button".to_string()));
        assert!(ucci
            .contains(&"option randomness type combo var none var tiny var small var medium var large var huge default none".to_string()));
        assert!(
            ucci.iter().filter(|l| l.starts_with("option")).all(|l| !l.contains(" name ")),
            "UCCI options have no name keyword"
        );
    }

    #[test]
    fn uci_info_lines() {
        assert_eq!(
            info(Dialect::Uci, &report(400, Bound::Exact, 1), false),
            vec!["info depth 6 seldepth 9 multipv 1 score cp 100 nodes 12345 nps 100000 hashfull 7 tbhits 0 time 123 pv h2e2 h9g7"]
        );
        let l = &info(Dialect::Uci, &report(MATE - 3, Bound::Lower, 2), true)[0];
        assert!(l.contains("multipv 2 score mate 2 lowerbound wdl 1000 0 0 nodes"), "{l}");
        let l = &info(Dialect::Uci, &report(-MATE + 4, Bound::Upper, 1), false)[0];
        assert!(l.contains("score mate -2 upperbound"), "{l}");
    }

    #[test]
    fn ucci_info_lines_have_no_cp_and_no_multipv() {
        assert_eq!(
            info(Dialect::Ucci, &report(-80, Bound::Exact, 1), false),
            vec!["info depth 6 score -20 pv h2e2 h9g7", "info time 123 nodes 12345"]
        );
        assert_eq!(
            info(Dialect::Ucci, &report(MATE - 3, Bound::Exact, 1), false)[0],
            "info depth 6 score 9997 pv h2e2 h9g7"
        );
        assert!(info(Dialect::Ucci, &report(0, Bound::Exact, 2), false).is_empty());
        assert_eq!(ucci_score(-MATE + 2), -9998);
    }

    #[test]
    fn bestmove_lines() {
        let pos = Position::startpos();
        let m = pos.parse_move("h2e2").ok();
        let p = Some(Move::new("h9".parse().unwrap(), "g7".parse().unwrap()));
        assert_eq!(bestmove(Dialect::Uci, m, p, Verdict::Draw), "bestmove h2e2 ponder h9g7");
        assert_eq!(bestmove(Dialect::Ucci, m, p, Verdict::Draw), "bestmove h2e2 ponder h9g7 draw");
        assert_eq!(bestmove(Dialect::Ucci, m, None, Verdict::Resign), "bestmove h2e2 resign");
        assert_eq!(bestmove(Dialect::Uci, None, None, Verdict::Play), "bestmove (none)");
        assert_eq!(bestmove(Dialect::Ucci, None, None, Verdict::Play), "nobestmove");
    }

    #[test]
    fn messages() {
        assert_eq!(message(None, "x"), "info string x");
        assert_eq!(message(Some(Dialect::Uci), "a\nb"), "info string a b");
        assert_eq!(message(Some(Dialect::Ucci), "x"), "info message x");
        assert_eq!(static_eval(Dialect::Ucci, 400), "info depth 0 score 100");
        assert_eq!(
            currmove(Dialect::Ucci, Move::new("h2".parse().unwrap(), "e2".parse().unwrap()), 1, 3),
            "info currmove h2e2"
        );
    }

    #[test]
    fn too_long_lines_name_their_command() {
        assert_eq!(
            too_long(5_000_000, 4_194_304, "position"),
            "line of 5000000 bytes ('position' ...) is longer than the limit of 4194304 bytes; ignored whole; \
             the position is unchanged"
        );
        assert_eq!(too_long(9, 8, ""), "line of 9 bytes is longer than the limit of 8 bytes; ignored whole");
    }

    #[test]
    fn hash_notes_say_the_size_used_and_why() {
        let size = |limit| TableSize { asked_mb: 65536, used_mb: 19456, limit };
        assert_eq!(hash_size_note(&TableSize { asked_mb: 16, used_mb: 16, limit: SizeLimit::Fits }), None);
        let note = hash_size_note(&size(SizeLimit::Memory { available_mb: 22528, reserve_mb: 3072 }));
        assert_eq!(
            note.as_deref(),
            Some(
                "Hash: using 19456 MiB instead of 65536 MiB: the machine has 22528 MiB of memory available \
                 and 3072 MiB of it are left for everything else"
            )
        );
        for limit in [SizeLimit::Maximum, SizeLimit::Unknown, SizeLimit::Allocation] {
            let note = hash_size_note(&size(limit)).unwrap_or_default();
            assert!(note.starts_with("Hash: using 19456 MiB instead of 65536 MiB: "), "{note}");
        }
    }
}
