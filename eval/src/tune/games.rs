//! Fixed-depth games between two searchers: self-play for tuning data, and small in-process matches.
//!
//! Openings are varied by a few random legal moves from the start position. A game ends on mate (no
//! legal move loses), on a threefold repetition or the 120-ply no-capture limit (both scored as draws:
//! the perpetual-check and chase rules are not applied here), on a ply cap (draw), or by adjudication when
//! both searches agree one side is far ahead for several plies.

use super::Rng;
use engine::search::{Limits, SearchControl, Searcher, SilentReporter, MATE_BOUND};
use engine::{Color, Evaluate, Position};

/// How games are played.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// Search depth per move.
    pub depth: u32,
    /// Random legal moves played from the start position before the searches take over.
    pub random_plies: usize,
    /// Plies after which the game is a draw.
    pub max_plies: usize,
    /// Adjudicate when the score (internal units) stays beyond this ...
    pub adjudicate_score: i32,
    /// ... for this many plies in a row.
    pub adjudicate_plies: usize,
    /// Re-search without a move that would repeat an earlier position (when another move exists): the
    /// searches know nothing of repetition, and shuffling games teach the tuner little.
    pub avoid_repetition: bool,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            depth: 3,
            random_plies: 6,
            max_plies: 300,
            adjudicate_score: 2400,
            adjudicate_plies: 6,
            avoid_repetition: true,
        }
    }
}

/// How a game ended, from Red's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Red won.
    RedWin,
    /// Black won.
    BlackWin,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// 1, 0.5 or 0 for Red.
    pub fn red_score(self) -> f64 {
        match self {
            GameResult::RedWin => 1.0,
            GameResult::BlackWin => 0.0,
            GameResult::Draw => 0.5,
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWin,
            Color::Black => GameResult::BlackWin,
        }
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The result.
    pub outcome: GameResult,
    /// Why it ended.
    pub reason: &'static str,
    /// Plies played by the searches.
    pub plies: usize,
    /// FENs of the quiet positions met (not in check, and the search chose a quiet move).
    pub quiet_positions: Vec<String>,
}

/// The start position followed by `plies` random legal moves (stops early if a side has no move).
pub fn random_opening(rng: &mut Rng, plies: usize) -> Position {
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.below(moves.len())]);
    }
    pos
}

fn repetitions(pos: &Position) -> usize {
    let recent = pos.history().iter().rev().take(pos.halfmove_clock() as usize);
    1 + recent.filter(|u| u.key == pos.key()).count()
}

/// Whether playing `m` would bring back a position of the game.
fn repeats(pos: &mut Position, m: engine::Move) -> bool {
    pos.make_move(m);
    let again = repetitions(pos) > 1;
    pos.unmake_move();
    again
}

/// Plays one game from `start` with `red` moving for Red and `black` for Black.
pub fn play<R: Evaluate, B: Evaluate>(
    start: &Position,
    red: &mut Searcher<R>,
    black: &mut Searcher<B>,
    config: &GameConfig,
) -> Game {
    let mut pos = start.clone();
    pos.clear_history();
    red.clear();
    black.clear();
    let mut limits = Limits { depth: Some(config.depth), ..Default::default() };
    let control = SearchControl::new();
    let mut quiet_positions = Vec::new();
    let mut lopsided: (Option<Color>, usize) = (None, 0);
    for ply in 0..config.max_plies {
        let us = pos.side_to_move();
        if !pos.has_legal_move() {
            return Game { outcome: GameResult::win_for(!us), reason: "mate", plies: ply, quiet_positions };
        }
        if repetitions(&pos) >= 3 {
            return Game { outcome: GameResult::Draw, reason: "repetition", plies: ply, quiet_positions };
        }
        if pos.halfmove_clock() >= 120 {
            return Game {
                outcome: GameResult::Draw,
                reason: "no capture in 120 plies",
                plies: ply,
                quiet_positions,
            };
        }
        limits.banmoves.clear();
        let result = loop {
            control.reset(false);
            let result = match us {
                Color::Red => red.search(&pos, &limits, &mut SilentReporter, &control),
                Color::Black => black.search(&pos, &limits, &mut SilentReporter, &control),
            };
            match result.best {
                Some(m) if config.avoid_repetition && limits.banmoves.len() < 4 && repeats(&mut pos, m) => {
                    limits.banmoves.push(m);
                    let others = pos.legal_moves().iter().filter(|m| !limits.banmoves.contains(m)).count();
                    if others == 0 {
                        limits.banmoves.pop();
                        break result;
                    }
                }
                _ => break result,
            }
        };
        let Some(m) = result.best else {
            return Game { outcome: GameResult::win_for(!us), reason: "mate", plies: ply, quiet_positions };
        };
        if !pos.in_check() && !pos.is_capture(m) && result.score.abs() < MATE_BOUND {
            quiet_positions.push(pos.to_fen());
        }
        // Adjudication: the side to move's score, turned into the side it favours.
        let ahead = if result.score >= config.adjudicate_score {
            Some(us)
        } else if result.score <= -config.adjudicate_score {
            Some(!us)
        } else {
            None
        };
        lopsided = match (ahead, lopsided) {
            (Some(c), (Some(prev), n)) if c == prev => (Some(c), n + 1),
            (Some(c), _) => (Some(c), 1),
            (None, _) => (None, 0),
        };
        if let (Some(c), n) = lopsided {
            if n >= config.adjudicate_plies {
                return Game {
                    outcome: GameResult::win_for(c),
                    reason: "adjudicated",
                    plies: ply,
                    quiet_positions,
                };
            }
        }
        pos.make_move(m);
    }
    Game { outcome: GameResult::Draw, reason: "ply limit", plies: config.max_plies, quiet_positions }
}

/// Wins, draws and losses of one side of a match.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, 0..=1.
    pub fn fraction(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// The Elo difference the score suggests and a rough 95% margin (normal approximation over games).
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games().max(1) as f64;
        let s = self.fraction().clamp(0.5 / n, 1.0 - 0.5 / n);
        let elo = |p: f64| -400.0 * (1.0 / p - 1.0).log10();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let margin = 1.96 * (var / n).sqrt();
        let lo = elo((s - margin).clamp(1e-6, 1.0 - 1e-6));
        let hi = elo((s + margin).clamp(1e-6, 1.0 - 1e-6));
        (elo(s), (hi - lo) / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluator;

    #[test]
    fn a_shallow_game_finishes_with_a_result() {
        let mut rng = Rng::new(7);
        let start = random_opening(&mut rng, 4);
        let config = GameConfig { depth: 1, max_plies: 60, ..Default::default() };
        let mut a = Searcher::new(Evaluator::default());
        let mut b = Searcher::new(Evaluator::material_and_pst());
        let game = play(&start, &mut a, &mut b, &config);
        assert!(game.plies <= 60);
        assert!(!game.quiet_positions.is_empty());
        for fen in &game.quiet_positions {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn match_score_elo() {
        let even = MatchScore { wins: 5, draws: 10, losses: 5 };
        assert!(even.elo().0.abs() < 1e-9);
        let better = MatchScore { wins: 10, draws: 5, losses: 5 };
        assert!(better.elo().0 > 50.0 && better.elo().1 > 0.0);
        assert_eq!(MatchScore::default().games(), 0);
    }
}
