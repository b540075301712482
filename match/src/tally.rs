//! Running totals of one pairing (engine A against engine B), from A's point of view, and its summary table.

use super::game::Termination;
use super::results::{MoveStats, ResultRow};
use super::stats::{self, Estimate, Pentanomial, Sprt, Wdl};
use engine::Color;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Totals of one pairing.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Engine A's name.
    pub a: String,
    /// Engine B's name.
    pub b: String,
    /// A's wins, draws and losses.
    pub wdl: Wdl,
    /// Complete game pairs by A's points.
    pub penta: Pentanomial,
    /// A's points in the first finished game of each incomplete pair.
    half_pairs: HashMap<u32, f64>,
    /// Games by termination.
    pub terminations: BTreeMap<Termination, u64>,
    /// Move statistics of A and B.
    pub moves: [MoveStats; 2],
}

impl Tally {
    /// An empty tally of A against B.
    pub fn new(a: &str, b: &str) -> Tally {
        Tally { a: a.to_string(), b: b.to_string(), ..Tally::default() }
    }

    /// Adds a finished game.
    pub fn add(&mut self, row: &ResultRow) {
        let a_colour = if row.red == self.a { Color::Red } else { Color::Black };
        let points = row.outcome.points(a_colour);
        if points == 1.0 {
            self.wdl.wins += 1;
        } else if points == 0.0 {
            self.wdl.losses += 1;
        } else {
            self.wdl.draws += 1;
        }
        match self.half_pairs.remove(&row.id.pair) {
            Some(first) => self.penta.add(first, points),
            None => {
                self.half_pairs.insert(row.id.pair, points);
            }
        }
        *self.terminations.entry(row.termination).or_default() += 1;
        let (a_stats, b_stats) = match a_colour {
            Color::Red => (row.stats[0], row.stats[1]),
            Color::Black => (row.stats[1], row.stats[0]),
        };
        for (total, s) in self.moves.iter_mut().zip([a_stats, b_stats]) {
            total.depth_moves += s.depth_moves;
            total.depth_sum += s.depth_sum;
            total.moves += s.moves;
            total.time_ms += s.time_ms;
        }
    }

    /// The Elo estimate: from complete pairs when there are any (pentanomial), else from single games.
    pub fn estimate(&self) -> Option<(Estimate, &'static str)> {
        match stats::pentanomial(&self.penta) {
            Some(e) => Some((e, "pentanomial")),
            None => stats::trinomial(&self.wdl).map(|e| (e, "trinomial")),
        }
    }

    /// The summary table of this pairing.
    pub fn table(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let w = &self.wdl;
        let _ = writeln!(out, "{} vs {}", self.a, self.b);
        let pct = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}%", v * 100.0));
        let _ = writeln!(
            out,
            "  games {:<6} W {} D {} L {}   score {}   draw ratio {}",
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            pct(w.score()),
            pct(w.draw_ratio())
        );
        match self.estimate() {
            Some((e, basis)) => {
                // "± inf" says nothing: an interval open on one side is given by its ends only.
                let error = if e.error().is_finite() {
                    format!(" ± {}", elo_abs_text(e.error()))
                } else {
                    String::new()
                };
                let _ = writeln!(
                    out,
                    "  Elo {}{error} (95%: {} to {})   LOS {:.1}%   [{basis}]",
                    elo_text(e.elo),
                    elo_text(e.elo_low),
                    elo_text(e.elo_high),
                    e.los * 100.0
                );
            }
            None => {
                let _ = writeln!(out, "  Elo -");
            }
        }
        let p = self.penta.0;
        let _ = writeln!(
            out,
            "  pairs {}: pentanomial [0, ½, 1, 1½, 2 points] = [{}, {}, {}, {}, {}]",
            self.penta.pairs(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
        if let Some(t) = sprt {
            let llr = t.llr(&self.penta);
            let llr = if llr.abs() < 0.005 { 0.0 } else { llr };
            let (lo, hi) = t.bounds();
            let _ = writeln!(
                out,
                "  SPRT elo0={} elo1={} alpha={} beta={} (logistic): LLR {:.2} [{:.2}, {:.2}] {}",
                t.elo0,
                t.elo1,
                t.alpha,
                t.beta,
                llr,
                lo,
                hi,
                sprt_word(t.state(llr))
            );
        }
        let terms: Vec<String> = self.terminations.iter().map(|(t, n)| format!("{t} {n}")).collect();
        let _ =
            writeln!(out, "  terminations: {}", if terms.is_empty() { "-".into() } else { terms.join(", ") });
        for (name, m) in [&self.a, &self.b].iter().zip(&self.moves) {
            let depth = if m.depth_moves > 0 {
                format!("{:.1}", m.depth_sum as f64 / m.depth_moves as f64)
            } else {
                "-".into()
            };
            let time =
                if m.moves > 0 { format!("{:.0} ms", m.time_ms as f64 / m.moves as f64) } else { "-".into() };
            let _ = writeln!(out, "  {name}: {} moves, average depth {depth}, average time {time}", m.moves);
        }
        out
    }
}

/// Signed Elo for display (`+12.3`, `-inf`).
pub fn elo_text(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Rounded first so that a tiny negative value does not print as "-0.0".
        let r = (e * 10.0).round() / 10.0;
        format!("{:+.1}", if r == 0.0 { 0.0 } else { r })
    }
}

fn elo_abs_text(e: f64) -> String {
    if e.is_finite() {
        format!("{e:.1}")
    } else {
        "inf".to_string()
    }
}

/// The SPRT state in words.
pub fn sprt_word(s: stats::SprtState) -> &'static str {
    match s {
        stats::SprtState::Continue => "continue",
        stats::SprtState::AcceptH0 => "H0 accepted",
        stats::SprtState::AcceptH1 => "H1 accepted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::GameId;
    use engine::rules::{GameResult, Reason};

    fn row(pair: u32, slot: u8, outcome: GameResult) -> ResultRow {
        let (red, black) = if slot == 0 { ("a", "b") } else { ("b", "a") };
        ResultRow {
            id: GameId { pairing: 0, pair, slot },
            opening: 0,
            red: red.into(),
            black: black.into(),
            outcome,
            termination: Termination::Rules(Reason::Checkmate),
            plies: 40,
            stats: [
                MoveStats { depth_moves: 2, depth_sum: 10, moves: 20, time_ms: 2000 },
                MoveStats::default(),
            ],
            detail: String::new(),
        }
    }

    #[test]
    fn games_are_counted_from_the_first_engines_view_and_paired() {
        let mut t = Tally::new("a", "b");
        t.add(&row(0, 0, GameResult::RedWins)); // a wins with Red
        t.add(&row(0, 1, GameResult::RedWins)); // b wins with Red
        t.add(&row(1, 1, GameResult::Draw));
        assert_eq!(t.wdl, Wdl { wins: 1, draws: 1, losses: 1 });
        assert_eq!(t.penta.0, [0, 0, 1, 0, 0]);
        t.add(&row(1, 0, GameResult::BlackWins)); // a loses with Red
        assert_eq!(t.penta.0, [0, 1, 1, 0, 0]);
        assert_eq!(t.moves[0].moves, 40, "a's moves as Red in pairs 0 and 1");
        assert_eq!(t.moves[1].moves, 40);
        assert_eq!(
            (elo_text(-0.01), elo_text(-0.06), elo_text(f64::NEG_INFINITY)),
            ("+0.0".into(), "-0.1".into(), "-inf".into())
        );
        let table = t.table(None);
        assert!(table.contains("W 1 D 1 L 2"), "{table}");
        assert!(table.contains("checkmate 4"), "{table}");
    }

    /// The summary and progress lines of the degenerate matches, printed so a run of this test shows them.
    #[test]
    fn degenerate_matches_print_bounds_that_mean_something() {
        let won =
            |pair, slot| row(pair, slot, if slot == 0 { GameResult::RedWins } else { GameResult::BlackWins });
        let mut sweep = Tally::new("a", "b");
        for (pair, slot) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            sweep.add(&won(pair, slot));
        }
        let table = sweep.table(None);
        println!("4-0:\n{table}{}", crate::progress::line(4, 4, &sweep, None));
        assert!(table.contains("Elo +inf (95%: -113.4 to +inf)   LOS 81.1%   [pentanomial]"), "{table}");
        assert!(!table.contains("± inf") && !table.contains("LOS 50.0%"), "{table}");
        assert!(crate::progress::line(4, 4, &sweep, None).contains("Elo +inf (-113.4 to +inf)  LOS 81%"));

        let mut empty = Tally::new("a", "b");
        println!("no games:\n{}", empty.table(None));
        assert!(empty.table(None).contains("  Elo -\n"));
        empty.add(&row(0, 0, GameResult::Draw));
        let one = empty.table(None);
        println!("one draw:\n{one}");
        assert!(one.contains("Elo +0.0 ±") && one.contains("LOS 50.0%   [trinomial]"), "{one}");
        empty.add(&row(0, 1, GameResult::Draw));
        let pair = empty.table(None);
        println!("one drawn pair:\n{pair}");
        assert!(pair.contains("Elo +0.0 ±") && pair.contains("LOS 50.0%   [pentanomial]"), "{pair}");
    }
}
