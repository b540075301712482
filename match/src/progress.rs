//! The live progress line on stderr: redrawn in place on a terminal, printed now and then otherwise.

use super::stats::Sprt;
use super::tally::{elo_text, sprt_word, Tally};
use std::io::{IsTerminal, Write};

/// Writes progress and messages to stderr without tearing the progress line.
pub struct Progress {
    tty: bool,
    total: u64,
    shown: bool,
    every: u64,
}

impl Progress {
    /// Progress towards `total` games.
    pub fn new(total: u64) -> Progress {
        let tty = std::io::stderr().is_terminal();
        // Off a terminal (logs, CI) a line per game would bury everything else in long matches.
        let every = if tty { 1 } else { (total / 40).max(1) };
        Progress { tty, total, shown: false, every }
    }

    /// A message on its own line (above the progress line on a terminal).
    pub fn message(&mut self, text: &str) {
        let mut err = std::io::stderr().lock();
        if self.tty && self.shown {
            let _ = write!(err, "\r\x1b[K");
            self.shown = false;
        }
        let _ = writeln!(err, "{text}");
    }

    /// Shows the state after `done` games; `tally` is the pairing to summarise.
    pub fn update(&mut self, done: u64, tally: &Tally, sprt: Option<&Sprt>) {
        if !self.tty && !done.is_multiple_of(self.every) && done != self.total {
            return;
        }
        let line = line(done, self.total, tally, sprt);
        let mut err = std::io::stderr().lock();
        if self.tty {
            let _ = write!(err, "\r{line}\x1b[K");
            self.shown = true;
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    /// Ends the progress line before the final report.
    pub fn finish(&mut self) {
        if self.tty && self.shown {
            let _ = writeln!(std::io::stderr());
            self.shown = false;
        }
    }
}

/// The progress text: games done, W/D/L, score, Elo ± error, LOS and the SPRT state.
pub fn line(done: u64, total: u64, t: &Tally, sprt: Option<&Sprt>) -> String {
    let w = &t.wdl;
    let mut s = format!("[{done}/{total}] {} vs {}: +{} ={} -{}", t.a, t.b, w.wins, w.draws, w.losses);
    if let Some(score) = w.score() {
        s.push_str(&format!("  {:.1}%", score * 100.0));
    }
    if let Some((e, _)) = t.estimate() {
        // An interval open on one side (a clean sweep) is given by its ends, not as "± inf".
        let err = if e.error().is_finite() {
            format!("±{:.0}", e.error())
        } else {
            format!("({} to {})", elo_text(e.elo_low), elo_text(e.elo_high))
        };
        s.push_str(&format!("  Elo {} {err}  LOS {:.0}%", elo_text(e.elo), e.los * 100.0));
    }
    if let Some(test) = sprt {
        let llr = test.llr(&t.penta);
        let (lo, hi) = test.bounds();
        let llr = if llr.abs() < 0.005 { 0.0 } else { llr };
        s.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2}) {}", sprt_word(test.state(llr))));
    }
    s
}
