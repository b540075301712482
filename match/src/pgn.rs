//! Games as PGN: tags (with the FEN, result and termination reason) and move text in coordinates or Chinese
//! notation, the other notation and the engine's score, depth and time in a comment after each move.

use super::config::Notation;
use super::game::GameRecord;
use engine::position::START_FEN;
use engine::rules::GameRules;
use engine::{Color, Position};
use std::collections::HashSet;
use std::fmt::Write;

/// The PGN text of one game played under the Chinese rules (ends with a blank line).
pub fn write_game(rec: &GameRecord, event: &str, round: u64, notation: Notation) -> String {
    write_game_under(rec, event, round, notation, GameRules::default())
}

/// The PGN text of one game played under `rules`, which the `Rules` and `MoveLimit` tags name (the limit in
/// moves, 0 for none).
pub fn write_game_under(
    rec: &GameRecord,
    event: &str,
    round: u64,
    notation: Notation,
    rules: GameRules,
) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(out, "[{name} \"{escaped}\"]");
    };
    tag(&mut out, "Game", "Chinese Chess");
    tag(&mut out, "Event", event);
    tag(&mut out, "Site", "?");
    tag(&mut out, "Date", &today());
    tag(&mut out, "Round", &round.to_string());
    tag(&mut out, "Red", &rec.red);
    tag(&mut out, "Black", &rec.black);
    tag(&mut out, "Result", &rec.outcome.to_string());
    if rec.fen != START_FEN {
        tag(&mut out, "FEN", &rec.fen);
    }
    tag(
        &mut out,
        "Format",
        match notation {
            Notation::Iccs => "ICCS",
            Notation::Chinese => "Chinese",
        },
    );
    tag(&mut out, "Rules", rules.set.name());
    tag(&mut out, "MoveLimit", &(rules.move_limit_plies / 2).to_string());
    tag(&mut out, "Termination", &rec.termination.label());
    if !rec.detail.is_empty() {
        tag(&mut out, "TerminationDetails", &rec.detail);
    }
    tag(&mut out, "PlyCount", &rec.moves.len().to_string());
    out.push('\n');

    let start = Position::from_fen(&rec.fen).ok();
    let mut number = start.as_ref().map_or(1, |p| p.fullmove_number());
    let mut side = start.as_ref().map_or(Color::Red, |p| p.side_to_move());
    let mut words: Vec<String> = Vec::new();
    for (i, m) in rec.moves.iter().enumerate() {
        if side == Color::Red {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        let (main, other) = match notation {
            Notation::Iccs => (&m.iccs, &m.chinese),
            Notation::Chinese => (&m.chinese, &m.iccs),
        };
        words.push(main.clone());
        let mut comment = other.clone();
        if m.book {
            comment.push_str(" book");
        } else {
            match (m.score, m.depth) {
                (Some(s), Some(d)) => {
                    let _ = write!(comment, " {s:+}/{d}");
                }
                (Some(s), None) => {
                    let _ = write!(comment, " {s:+}");
                }
                _ => {}
            }
            let _ = write!(comment, " {}ms", m.time_ms);
        }
        words.push(format!("{{{comment}}}"));
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    words.push(rec.outcome.to_string().to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.chars().count() + 1 + w.chars().count() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// How many leading bytes of a PGN file written by the runner to keep when resuming: everything but the
/// records at its end whose `Round` is not among `saved` (or that have none: a record cut by a kill). The
/// runner writes each game's PGN record before its results line, so a runner killed between the two leaves
/// one such record; the game is then played again and would otherwise appear twice.
pub fn kept_on_resume(text: &str, saved: &HashSet<u64>) -> usize {
    let mut keep = text.len();
    while keep > 0 {
        let head = &text[..keep];
        // Every record starts with its `Game` tag at the start of a line.
        let start = head.rfind("\n[Game \"").map_or(0, |i| i + 1);
        let round = head[start..]
            .lines()
            .find_map(|l| l.strip_prefix("[Round \"").and_then(|r| r.strip_suffix("\"]")))
            .and_then(|r| r.parse::<u64>().ok());
        if round.is_some_and(|r| saved.contains(&r)) {
            break;
        }
        keep = start;
    }
    keep
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock without a date crate.
fn today() -> String {
    let secs =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MoveRecord, Termination};
    use crate::openings;
    use engine::rules::GameResult;

    fn record() -> GameRecord {
        let mv = |iccs: &str, chinese: &str, book| MoveRecord {
            iccs: iccs.into(),
            chinese: chinese.into(),
            book,
            score: Some(12),
            depth: Some(7),
            time_ms: 310,
        };
        GameRecord {
            red: "a".into(),
            black: "b \"quoted\"".into(),
            fen: START_FEN.into(),
            moves: vec![
                mv("h2e2", "炮二平五", true),
                mv("h9g7", "马8进7", false),
                mv("h0g2", "马二进三", false),
            ],
            outcome: GameResult::Draw,
            termination: Termination::MaxPlies,
            detail: "3 plies".into(),
        }
    }

    #[test]
    fn iccs_movetext_with_chinese_comments() {
        let text = write_game(&record(), "ev", 3, Notation::Iccs);
        assert!(text.contains("[Black \"b \\\"quoted\\\"\"]"), "{text}");
        assert!(text.contains("[Termination \"max-plies\"]"));
        assert!(!text.contains("[FEN"));
        assert!(text.contains("1. h2e2 {炮二平五 book} h9g7 {马8进7 +12/7 310ms} 2. h0g2"), "{text}");
        assert!(text.trim_end().ends_with("1/2-1/2"));
        let back = openings::parse(&text).expect("reads back");
        assert_eq!(back[0].moves, vec!["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn chinese_movetext_reads_back() {
        let text = write_game(&record(), "ev", 3, Notation::Chinese);
        assert!(text.contains("1. 炮二平五 {h2e2 book} 马8进7"), "{text}");
        let back = openings::parse(&text).expect("reads back");
        assert_eq!(back[0].moves, vec!["h2e2", "h9g7", "h0g2"]);
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn the_rules_are_written_in_the_header() {
        let text = write_game(&record(), "ev", 3, Notation::Iccs);
        assert!(text.contains("[Rules \"chinese\"]\n[MoveLimit \"60\"]"), "{text}");
        let asian = GameRules { set: engine::rules::RuleSet::Asian, move_limit_plies: 100 };
        let text = write_game_under(&record(), "ev", 3, Notation::Iccs, asian);
        assert!(text.contains("[Rules \"asian\"]\n[MoveLimit \"50\"]"), "{text}");
    }

    #[test]
    fn a_resume_drops_the_records_at_the_end_whose_game_was_not_saved() {
        let game = |round| write_game(&record(), "e", round, Notation::Iccs);
        let text = format!("{}{}{}", game(1), game(3), game(2));
        let saved: HashSet<u64> = [1, 3].into();
        assert_eq!(kept_on_resume(&text, &saved), game(1).len() + game(3).len());
        // A record cut in its tags (the runner killed while writing it) goes too; a complete file stays.
        let cut = format!("{}{}", game(1), &game(3)[..20]);
        assert_eq!(kept_on_resume(&cut, &saved), game(1).len());
        assert_eq!(kept_on_resume(&text, &[1, 2, 3].into()), text.len());
        assert_eq!(kept_on_resume(&game(5), &saved), 0);
        assert_eq!(kept_on_resume("", &saved), 0);
    }
}
