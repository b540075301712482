//! One game between two engine processes: the opening, the clocks, the moves, and every way it can end.

use super::clock::Clock;
use super::config::{DrawRule, EngineSpec, ResignRule};
use super::engine_proc::{ClockView, EngineError, EngineProcess, GoOutcome, GoRequest, TrafficLog};
use super::openings::Opening;
use super::referee::{self, Arbiter, Verdict};
use engine::rules::{GameResult, Reason};
use engine::{Color, Position};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// How long an engine that overran its time gets, after `stop`, to answer before it counts as hung.
pub const GRACE_MS: u64 = 1000;

/// Why a game ended: the referee's reason, or what only the runner can see (an engine that crashed,
/// hung or overstepped its clock, a resignation, the runner's own adjudications and ply limit).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// The rules ended it (checkmate, stalemate, the 棋例, the move limit, a dead position, an illegal or
    /// unreadable move, or `nobestmove` with legal moves left).
    Rules(Reason),
    /// The engine exited, failed to start, or stopped reading.
    Crash,
    /// No reply to `go` even after `stop`.
    NoReply,
    /// The move came after the clock (plus margin) ran out.
    TimeForfeit,
    /// The engine resigned (`bestmove ... resign`).
    Resignation,
    /// Draw adjudication (`--draw`).
    DrawAdjudication,
    /// Resign adjudication (`--resign`).
    ResignAdjudication,
    /// `--max-plies` reached.
    MaxPlies,
}

impl Termination {
    /// Every termination, in table order.
    pub const ALL: [Termination; 16] = [
        Termination::Rules(Reason::Checkmate),
        Termination::Rules(Reason::Stalemate),
        Termination::Rules(Reason::PerpetualCheck),
        Termination::Rules(Reason::PerpetualChase),
        Termination::Rules(Reason::ForbiddenRepetition),
        Termination::Rules(Reason::RepetitionDraw),
        Termination::Rules(Reason::MoveLimit),
        Termination::Rules(Reason::DeadPosition),
        Termination::Rules(Reason::IllegalMove),
        Termination::Crash,
        Termination::NoReply,
        Termination::TimeForfeit,
        Termination::Resignation,
        Termination::DrawAdjudication,
        Termination::ResignAdjudication,
        Termination::MaxPlies,
    ];

    /// One-word label used in the results file and PGN (the referee's own words for its reasons).
    pub fn label(self) -> String {
        match self {
            Termination::Rules(reason) => reason.to_string(),
            Termination::Crash => "crash".into(),
            Termination::NoReply => "no-reply".into(),
            Termination::TimeForfeit => "time-forfeit".into(),
            Termination::Resignation => "resignation".into(),
            Termination::DrawAdjudication => "draw-adjudication".into(),
            Termination::ResignAdjudication => "resign-adjudication".into(),
            Termination::MaxPlies => "max-plies".into(),
        }
    }

    /// Reads a label.
    pub fn from_label(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.label() == s)
    }

    /// Whether an engine misbehaved (worth a line on the console).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::Rules(Reason::IllegalMove)
                | Termination::Crash
                | Termination::NoReply
                | Termination::TimeForfeit
        )
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// One ply of the game record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// Coordinates (`h2e2`).
    pub iccs: String,
    /// Chinese notation (`炮二平五`).
    pub chinese: String,
    /// Part of the opening line (not chosen by an engine).
    pub book: bool,
    /// Engine's last reported score, centipawns from its view.
    pub score: Option<i32>,
    /// Engine's last reported depth.
    pub depth: Option<u32>,
    /// Time the move took, milliseconds.
    pub time_ms: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Red engine's name.
    pub red: String,
    /// Black engine's name.
    pub black: String,
    /// Starting FEN.
    pub fen: String,
    /// The moves, opening included.
    pub moves: Vec<MoveRecord>,
    /// Result.
    pub outcome: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// Details (who checked perpetually, the illegal move and position, ...).
    pub detail: String,
}

impl GameRecord {
    /// (moves with a reported depth, sum of depths, engine moves, sum of times) for the side playing `c`.
    pub fn move_stats(&self, c: Color) -> (u64, u64, u64, u64) {
        let start_side = Position::from_fen(&self.fen).map(|p| p.side_to_move()).unwrap_or(Color::Red);
        let mut s = (0, 0, 0, 0);
        for (i, m) in self.moves.iter().enumerate() {
            let side = if i % 2 == 0 { start_side } else { !start_side };
            if side != c || m.book {
                continue;
            }
            if let Some(d) = m.depth {
                s.0 += 1;
                s.1 += d as u64;
            }
            s.2 += 1;
            s.3 += m.time_ms;
        }
        s
    }
}

/// The game rules that are the runner's, not the referee's.
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    /// Clock overrun allowed, milliseconds.
    pub margin_ms: u64,
    /// Wait for a move without a clock, milliseconds.
    pub timeout_ms: u64,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Ply limit.
    pub max_plies: Option<u32>,
    /// Tell the mover which moves would lose by a repetition rule, as GUIs do (UCCI `banmoves`, UCI
    /// `searchmoves`). The referee still judges whatever is played.
    pub ban_forbidden: bool,
    /// The rules the referee judges by (`--rules`, `--move-limit`).
    pub game: engine::rules::GameRules,
}

/// What one game needs.
pub struct GameSetup<'a> {
    /// Engine playing Red.
    pub red: &'a EngineSpec,
    /// Engine playing Black.
    pub black: &'a EngineSpec,
    /// Opening line.
    pub opening: &'a Opening,
    /// Runner's rules.
    pub rules: &'a Adjudication,
    /// Traffic log.
    pub log: Option<TrafficLog>,
    /// Set when the match is over (SPRT decided, interrupted): the game is abandoned.
    pub stop: &'a AtomicBool,
}

/// Plays the game; `None` if it was abandoned because `stop` was set.
pub fn play(setup: &GameSetup) -> Option<GameRecord> {
    let mut pos = match Position::from_fen(&setup.opening.fen) {
        Ok(p) => p,
        // Openings are checked when loaded; this cannot happen with a checked line.
        Err(e) => return Some(failed(setup, Color::Red, Termination::Crash, format!("bad opening: {e}"))),
    };
    let specs = [setup.red, setup.black];
    let mut moves: Vec<MoveRecord> = Vec::new();
    let mut arbiter = Arbiter::with_rules(pos.clone(), setup.rules.game);
    if let Some(v) = arbiter.initial_verdict() {
        return Some(finish(setup, moves, v));
    }
    for text in &setup.opening.moves {
        let Ok(m) = pos.parse_move(text) else { break };
        moves.push(MoveRecord {
            iccs: text.clone(),
            chinese: referee::to_chinese(&pos, m),
            book: true,
            score: None,
            depth: None,
            time_ms: 0,
        });
        pos.make_move(m);
        if let Some(v) = arbiter.play(m) {
            return Some(finish(setup, moves, v));
        }
    }

    // Engines start after the opening is known to be playable; each lives exactly as long as this game.
    let mut engines: Vec<EngineProcess> = Vec::with_capacity(2);
    for (i, spec) in specs.iter().enumerate() {
        let side = if i == 0 { Color::Red } else { Color::Black };
        match EngineProcess::start(spec, setup.log.clone()).and_then(|mut e| e.new_game().map(|_| e)) {
            Ok(e) => engines.push(e),
            Err(e) => {
                let mut rec =
                    failed(setup, side, Termination::Crash, format!("{} did not start: {e}", spec.name));
                rec.moves = moves;
                return Some(rec);
            }
        }
    }

    let mut clocks: [Option<Clock>; 2] =
        [setup.red.limits.tc.map(Clock::new), setup.black.limits.tc.map(Clock::new)];
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    // The position sent is the one after the last capture, plus the moves since (what GUIs do; it keeps the
    // lines short and loses nothing a repetition rule needs).
    let mut base_fen = pos.to_fen();
    let mut base_index = moves.len();

    loop {
        if setup.stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(max) = setup.rules.max_plies {
            if moves.len() as u32 >= max {
                let v = Verdict {
                    outcome: GameResult::Draw,
                    termination: Termination::MaxPlies,
                    detail: format!("{max} plies"),
                };
                return Some(finish(setup, moves, v));
            }
        }
        let side = pos.side_to_move();
        let spec = specs[side.index()];
        let view = |c: &Option<Clock>| {
            c.as_ref().map(|c| ClockView {
                remaining_ms: c.remaining_ms(),
                increment_ms: c.increment_ms(),
                movestogo: c.movestogo(),
            })
        };
        let since_base: Vec<String> = moves[base_index..].iter().map(|m| m.iccs.clone()).collect();
        let history: Vec<String> = moves.iter().map(|m| m.iccs.clone()).collect();
        let (banned, allowed) =
            if setup.rules.ban_forbidden { ban_lists(&arbiter) } else { (vec![], vec![]) };
        let req = GoRequest {
            fen: &base_fen,
            moves: &since_base,
            red_to_move: side == Color::Red,
            own: view(&clocks[side.index()]),
            opp: view(&clocks[(!side).index()]),
            movetime_ms: spec.limits.movetime_ms,
            depth: spec.limits.depth,
            nodes: spec.limits.nodes,
            banned: &banned,
            allowed: &allowed,
            start_fen: &setup.opening.fen,
            history: &history,
        };
        let margin = setup.rules.margin_ms;
        let clock_allowance = clocks[side.index()].as_ref().map(|c| c.allowance_ms(margin));
        let movetime_allowance = spec.limits.movetime_ms.map(|t| t + margin);
        let allowance = match (clock_allowance, movetime_allowance) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => setup.rules.timeout_ms,
        };
        let loses = |t: Termination, detail: String| Verdict {
            outcome: GameResult::win_for(!side),
            termination: t,
            detail,
        };
        let reply = match engines[side.index()].go(&req, allowance, GRACE_MS.max(margin)) {
            Ok(GoOutcome::Reply(r)) => r,
            Ok(GoOutcome::NoReply) => {
                let detail =
                    format!("{} gave no move within {allowance} ms nor {GRACE_MS} ms after stop", spec.name);
                return Some(finish(setup, moves, loses(Termination::NoReply, detail)));
            }
            Ok(GoOutcome::Exited) | Err(EngineError::Exited(_)) | Err(EngineError::Write(_)) => {
                let detail = format!("{} exited during the game", spec.name);
                return Some(finish(setup, moves, loses(Termination::Crash, detail)));
            }
            Err(e) => {
                let detail = format!("{}: {e}", spec.name);
                return Some(finish(setup, moves, loses(Termination::Crash, detail)));
            }
        };
        if let Some(clock) = clocks[side.index()].as_mut() {
            if let Err(o) = clock.charge(reply.elapsed_ms, margin) {
                let detail = format!("{} used {} ms with {} ms left", spec.name, o.used_ms, o.had_ms);
                return Some(finish(setup, moves, loses(Termination::TimeForfeit, detail)));
            }
        }
        if let Some(t) = spec.limits.movetime_ms {
            if reply.elapsed_ms > t + margin {
                let detail = format!("{} used {} ms of a {t} ms movetime", spec.name, reply.elapsed_ms);
                return Some(finish(setup, moves, loses(Termination::TimeForfeit, detail)));
            }
        }
        // A CECP engine resigns instead of moving; a UCCI one says `bestmove m resign`.
        if reply.resign {
            let detail = format!("{} resigned", spec.name);
            return Some(finish(setup, moves, loses(Termination::Resignation, detail)));
        }
        let Some(text) = reply.bestmove.clone() else {
            let detail = match &reply.said {
                Some(said) => format!("{} said '{said}' instead of moving in {}", spec.name, pos.to_fen()),
                None => format!("{} answered nobestmove with legal moves in {}", spec.name, pos.to_fen()),
            };
            return Some(finish(setup, moves, loses(Termination::Rules(Reason::IllegalMove), detail)));
        };
        let m = match pos.parse_move(&text) {
            Ok(m) => m,
            Err(e) => {
                let detail = format!("{} played {e} in {}", spec.name, pos.to_fen());
                return Some(finish(setup, moves, loses(Termination::Rules(Reason::IllegalMove), detail)));
            }
        };
        let capture = pos.is_capture(m);
        moves.push(MoveRecord {
            iccs: m.to_string(),
            chinese: referee::to_chinese(&pos, m),
            book: false,
            score: reply.score,
            depth: reply.depth,
            time_ms: reply.elapsed_ms,
        });
        scores[side.index()].push(reply.score);
        pos.make_move(m);
        if capture {
            base_fen = pos.to_fen();
            base_index = moves.len();
        }
        if let Some(v) = arbiter.play(m) {
            return Some(finish(setup, moves, v));
        }
        if let Some(v) = adjudicate(setup.rules, &scores, pos.fullmove_number()) {
            return Some(finish(setup, moves, v));
        }
    }
}

/// The moves that would lose by a repetition rule and the legal moves left, as ICCS text (both empty when
/// nothing is forbidden).
fn ban_lists(arbiter: &Arbiter) -> (Vec<String>, Vec<String>) {
    let forbidden = arbiter.forbidden_moves();
    if forbidden.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let legal = arbiter.position().legal_moves();
    let allowed = legal.iter().filter(|m| !forbidden.contains(m)).map(|m| m.to_string()).collect();
    (forbidden.iter().map(|m| m.to_string()).collect(), allowed)
}

/// Draw and resign adjudication from the engines' recent scores (each from its own view).
fn adjudicate(rules: &Adjudication, scores: &[Vec<Option<i32>>; 2], move_number: u32) -> Option<Verdict> {
    let last = |c: Color, n: u32| -> Option<Vec<i32>> {
        let s = &scores[c.index()];
        if (s.len() as u32) < n {
            return None;
        }
        s[s.len() - n as usize..].iter().copied().collect()
    };
    if let Some(r) = rules.resign {
        for c in Color::ALL {
            if let (Some(mine), Some(theirs)) = (last(c, r.movecount), last(!c, r.movecount)) {
                if mine.iter().all(|&s| s <= -r.score) && theirs.iter().all(|&s| s >= r.score) {
                    return Some(Verdict {
                        outcome: GameResult::win_for(!c),
                        termination: Termination::ResignAdjudication,
                        detail: format!("{c:?} scored -{} or worse for {} moves", r.score, r.movecount),
                    });
                }
            }
        }
    }
    if let Some(d) = rules.draw {
        if move_number >= d.movenumber {
            if let (Some(a), Some(b)) = (last(Color::Red, d.movecount), last(Color::Black, d.movecount)) {
                if a.iter().chain(&b).all(|s| s.abs() <= d.score) {
                    return Some(Verdict {
                        outcome: GameResult::Draw,
                        termination: Termination::DrawAdjudication,
                        detail: format!("both scores within ±{} for {} moves", d.score, d.movecount),
                    });
                }
            }
        }
    }
    None
}

fn finish(setup: &GameSetup, moves: Vec<MoveRecord>, v: Verdict) -> GameRecord {
    GameRecord {
        red: setup.red.name.clone(),
        black: setup.black.name.clone(),
        fen: setup.opening.fen.clone(),
        moves,
        outcome: v.outcome,
        termination: v.termination,
        detail: v.detail,
    }
}

fn failed(setup: &GameSetup, loser: Color, t: Termination, detail: String) -> GameRecord {
    finish(setup, Vec::new(), Verdict { outcome: GameResult::win_for(!loser), termination: t, detail })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudication {
        Adjudication { draw, resign, ..Adjudication::default() }
    }

    #[test]
    fn resign_adjudication_needs_both_engines_to_agree() {
        let r = rules(None, Some(ResignRule { movecount: 2, score: 500 }));
        let s = [vec![Some(-600), Some(-700)], vec![Some(600), Some(400)]];
        assert_eq!(adjudicate(&r, &s, 10), None, "Black's 400 is below the bound");
        let s = [vec![Some(-600), Some(-700)], vec![Some(600), Some(800)]];
        let v = adjudicate(&r, &s, 10).expect("adjudicated");
        assert_eq!((v.outcome, v.termination), (GameResult::BlackWins, Termination::ResignAdjudication));
        let s = [vec![None, Some(-700)], vec![Some(600), Some(800)]];
        assert_eq!(adjudicate(&r, &s, 10), None, "a move without a score breaks the run");
    }

    #[test]
    fn draw_adjudication_waits_for_the_move_number() {
        let r = rules(Some(DrawRule { movenumber: 20, movecount: 2, score: 10 }), None);
        let s = [vec![Some(5), Some(-3)], vec![Some(0), Some(10)]];
        assert_eq!(adjudicate(&r, &s, 19), None);
        let v = adjudicate(&r, &s, 20).expect("adjudicated");
        assert_eq!((v.outcome, v.termination), (GameResult::Draw, Termination::DrawAdjudication));
        let s = [vec![Some(5), Some(-30)], vec![Some(0), Some(10)]];
        assert_eq!(adjudicate(&r, &s, 20), None);
    }

    #[test]
    fn labels_round_trip() {
        for t in Termination::ALL {
            assert_eq!(Termination::from_label(&t.label()), Some(t));
        }
        for o in [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw] {
            assert_eq!(GameResult::from_pgn(&o.to_string()), Some(o));
        }
    }
}
