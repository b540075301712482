//! Games between two in-process searchers, judged move by move by [`Referee`]: the one game loop behind
//! self-play data (`datagen`, `chuhan-tune selfplay`) and the search sanity check
//! `examples/plain_vs_full.rs`. (`chuhan match` plays engine
//! processes instead, and asks the same referee.)
//!
//! A game ends when the referee says so (mate, stalemate, the 棋例 of docs/rules.md, art. 24-29, the
//! 60-move limit, a dead position), when adjudication is on and both sides' searches agree for several
//! plies that one side is winning, or at a ply cap (unfinished, scored as a draw by whoever needs a
//! number).

use engine::rules::{GameResult, Judgement, Referee};
use engine::search::{Limits, SearchControl, Searcher, SilentReporter};
use engine::{Color, Evaluate, Move, Position};

/// Adjudicate a win when the side to move's score stays beyond `score` (internal units, from the mover's
/// side, agreeing in sign from both sides) for `plies` plies in a row.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// Score threshold, internal units.
    pub score: i32,
    /// Consecutive plies beyond it.
    pub plies: usize,
}

/// How games are played.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The limits of every search (usually `depth` or `nodes`; one thread makes node limits exact), and
    /// the rules (`limits.rules`) the referee and the searches play by.
    pub limits: Limits,
    /// Plies after which the game stops unfinished.
    pub max_plies: usize,
    /// Win adjudication, if any.
    pub adjudication: Option<Adjudication>,
}

/// Why a game of this loop ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The referee's verdict.
    Rules(Judgement),
    /// Both searches agreed one side was winning.
    Adjudicated,
    /// The ply cap was reached.
    PlyCap,
}

/// One move of a game and what the search that chose it said.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The search's score, internal units, from the mover's side.
    pub score: i32,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The position the game started from (no history).
    pub start: Position,
    /// The moves with their scores.
    pub moves: Vec<PlayedMove>,
    /// The result (`Draw` for an unfinished game at the ply cap).
    pub result: GameResult,
    /// Why it ended.
    pub ending: Ending,
}

impl Game {
    /// A short word for why the game ended (the referee's reason, `adjudicated` or `ply-cap`).
    pub fn ending_label(&self) -> String {
        match &self.ending {
            Ending::Rules(j) => j.reason.to_string(),
            Ending::Adjudicated => "adjudicated".to_string(),
            Ending::PlyCap => "ply-cap".to_string(),
        }
    }
}

/// Plays one game from `start` with `red` moving for Red and `black` for Black. Both searchers are
/// cleared first, so a game depends only on its inputs.
pub fn play<R: Evaluate, B: Evaluate>(
    start: &Position,
    red: &mut Searcher<R>,
    black: &mut Searcher<B>,
    config: &GameConfig,
) -> Game {
    let mut start = start.clone();
    start.clear_history();
    red.clear();
    black.clear();
    // One rule book for the referee and both searches: the one the limits carry.
    let mut referee = Referee::with_rules(start.clone(), config.limits.rules);
    let control = SearchControl::new();
    let mut moves = Vec::new();
    let mut lopsided: (Option<Color>, usize) = (None, 0);
    let finish = |moves, result, ending| Game { start: start.clone(), moves, result, ending };
    loop {
        let judgement = referee.judgement();
        if judgement.is_over() {
            return finish(moves, judgement.result, Ending::Rules(judgement));
        }
        if moves.len() >= config.max_plies {
            return finish(moves, GameResult::Draw, Ending::PlyCap);
        }
        let pos = referee.position();
        let us = pos.side_to_move();
        control.reset(false);
        let result = match us {
            Color::Red => red.search(pos, &config.limits, &mut SilentReporter, &control),
            Color::Black => black.search(pos, &config.limits, &mut SilentReporter, &control),
        };
        // The referee found a legal move above, so the search has one.
        let Some(mv) = result.best else {
            return finish(moves, GameResult::loss_for(us), Ending::Rules(referee.judgement()));
        };
        moves.push(PlayedMove { mv, score: result.score });
        if let Some(adj) = config.adjudication {
            let ahead = if result.score >= adj.score {
                Some(us)
            } else if result.score <= -adj.score {
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
                if n >= adj.plies {
                    return finish(moves, GameResult::win_for(c), Ending::Adjudicated);
                }
            }
        }
        referee.play(mv);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::evaluate::MaterialEval;
    use engine::rules::Reason;

    fn config(depth: u32, max_plies: usize) -> GameConfig {
        GameConfig {
            limits: Limits { depth: Some(depth), ..Default::default() },
            max_plies,
            adjudication: None,
        }
    }

    #[test]
    fn a_short_game_replays_and_stops_at_the_cap() {
        let mut a = Searcher::new(MaterialEval);
        let mut b = Searcher::new(MaterialEval);
        let game = play(&Position::startpos(), &mut a, &mut b, &config(1, 12));
        assert_eq!(game.ending, Ending::PlyCap);
        assert_eq!(game.moves.len(), 12);
        let mut referee = Referee::new(game.start.clone());
        for m in &game.moves {
            assert_eq!(referee.play(m.mv).result, GameResult::Ongoing);
        }
    }

    #[test]
    fn the_referee_ends_the_game_at_mate() {
        // Ra9 mates: d8 is covered by the other rook, e9 would face the red king.
        let pos = Position::from_fen("3k5/7R1/9/9/9/9/9/9/9/R3K4 w - - 0 1").expect("valid");
        let mut a = Searcher::new(MaterialEval);
        let mut b = Searcher::new(MaterialEval);
        let game = play(&pos, &mut a, &mut b, &config(3, 50));
        assert_eq!(game.result, GameResult::RedWins);
        match game.ending {
            Ending::Rules(j) => assert_eq!(j.reason, Reason::Checkmate),
            other => panic!("{other:?}"),
        }
    }
}
