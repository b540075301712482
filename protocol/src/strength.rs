//! Weaker play for `Skill Level`, `UCI_LimitStrength`/`UCI_Elo` and UCCI `randomness`.
//!
//! To stay human-looking the engine never plays a random move: it searches several lines (MultiPV) to a
//! depth that grows with the level, then picks the line whose score plus a random push is highest. The
//! push shrinks as the level rises and is zero at level 20, so a weak setting plays plausible moves that
//! are a little (or, at level 0, a lot) worse than the best one, and never walks into a mate it has seen
//! when a safe move exists.
//!
//! The Elo scale: [`level_from_elo`] is a straight line between the ends of [`ELO_RANGE`], about 90 Elo per
//! level. Measured with `chuhan match` (round robin of levels 0, 5, 10, 15, 20, 20 games a pairing,
//! 50 ms a move): each step of 5 levels scored 90-95% (+380 to +510 Elo; 95% lower bounds +240 to +310),
//! and every pairing two or more steps apart was 100%, which agrees with 450 Elo per 5 levels within the
//! error. The absolute anchor (level 20 = 2800) is not measured against outside engines.

use crate::options::{Settings, ELO_RANGE, RANDOMNESS_LEVELS};
use engine::random::Rng;
use engine::search::{Score, SearchInfo};
use engine::Move;

/// Strongest level.
pub const MAX_LEVEL: f64 = 20.0;
/// Largest random push per level below 20, centipawns (level 0: 20 times this).
pub const NOISE_CP_PER_LEVEL: f64 = 12.0;
/// Largest random push for each UCCI `randomness` word, centipawns.
pub const RANDOMNESS_CP: [f64; 6] = [0.0, 5.0, 10.0, 20.0, 40.0, 80.0];
/// Lines searched when choosing a weaker move.
pub const CANDIDATE_LINES: usize = 4;

/// How a search is weakened (or not).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Strength {
    /// 0.0 (weakest) to 20.0 (full strength).
    pub level: f64,
    /// Largest random push, centipawns; 0 = always the best line.
    pub noise_cp: f64,
}

/// The level matching `elo` on the linear scale (about 90 Elo a level, checked by self-play).
pub fn level_from_elo(elo: u32) -> f64 {
    let (lo, hi) = (ELO_RANGE.0 as f64, ELO_RANGE.1 as f64);
    ((elo as f64 - lo) / (hi - lo) * MAX_LEVEL).clamp(0.0, MAX_LEVEL)
}

impl Strength {
    /// The strength the options ask for.
    pub fn from_settings(s: &Settings) -> Strength {
        let mut level = (s.skill_level as f64).min(MAX_LEVEL);
        if s.limit_strength {
            level = level.min(level_from_elo(s.elo));
        }
        let randomness = RANDOMNESS_CP[s.randomness.min(RANDOMNESS_LEVELS.len() - 1)];
        Strength { level, noise_cp: (MAX_LEVEL - level) * NOISE_CP_PER_LEVEL + randomness }
    }

    /// Whether play is weakened at all.
    pub fn is_weakened(&self) -> bool {
        self.noise_cp > 0.0
    }

    /// Deepest iteration allowed (`None`: no cap).
    pub fn depth_cap(&self) -> Option<u32> {
        (self.level < MAX_LEVEL).then(|| 2 + (self.level / 2.0).round() as u32)
    }

    /// Lines the search should report so there is something to choose from.
    pub fn lines(&self) -> usize {
        if self.is_weakened() {
            CANDIDATE_LINES
        } else {
            1
        }
    }

    /// Picks one of `lines` (the latest report of each MultiPV line, best first). Returns the index.
    pub fn choose(&self, lines: &[SearchInfo], rng: &mut Rng) -> Option<usize> {
        let value = |info: &SearchInfo| match Score::from_internal(info.score) {
            Score::Cp(cp) => cp as f64,
            // Mates stay beyond any push: a seen mate is always taken, a seen loss always avoided.
            Score::Mate(n) if n > 0 => 1e6 - n as f64,
            Score::Mate(n) => -1e6 - n as f64,
        };
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.pv.is_empty())
            .map(|(i, l)| (i, value(l) + rng.unit() * self.noise_cp))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

/// The first two moves of the chosen line: the move to play and the expected reply.
pub fn line_moves(line: &SearchInfo) -> (Option<Move>, Option<Move>) {
    (line.pv.first().copied(), line.pv.get(1).copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::{Bound, MATE};

    fn line(mv: &str, score: i32) -> SearchInfo {
        let pos = engine::Position::startpos();
        SearchInfo {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score,
            bound: Bound::Exact,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            tbhits: 0,
            pv: vec![pos.parse_move(mv).unwrap()],
        }
    }

    #[test]
    fn full_strength_is_not_weakened() {
        let s = Strength::from_settings(&Settings::default());
        assert!(!s.is_weakened());
        assert_eq!(s.depth_cap(), None);
        assert_eq!(s.lines(), 1);
    }

    #[test]
    fn noise_shrinks_with_level() {
        let mut settings = Settings::default();
        let mut last = f64::INFINITY;
        for level in 0..=20 {
            settings.skill_level = level;
            let s = Strength::from_settings(&settings);
            assert!(s.noise_cp < last || level == 0);
            last = s.noise_cp;
        }
        assert_eq!(last, 0.0);
        settings.skill_level = 20;
        settings.limit_strength = true;
        settings.elo = ELO_RANGE.0 as u32;
        assert_eq!(Strength::from_settings(&settings).level, 0.0);
    }

    #[test]
    fn weak_play_varies_but_takes_mates_and_avoids_blunders() {
        let s = Strength { level: 0.0, noise_cp: 240.0 };
        let lines = [line("h2e2", 400), line("b2e2", 350), line("h0g2", 300), line("a3a4", -2000)];
        let mut rng = Rng::from_state(7);
        let mut seen = [0; 4];
        for _ in 0..1000 {
            seen[s.choose(&lines, &mut rng).unwrap()] += 1;
        }
        assert!(seen[0] > seen[1] && seen[1] > seen[2] && seen[2] > 0, "{seen:?}");
        assert_eq!(seen[3], 0);
        let mate = [line("h2e2", 0), line("b2e2", MATE - 3)];
        assert_eq!(s.choose(&mate, &mut rng), Some(1));
        let strong = Strength { level: 20.0, noise_cp: 0.0 };
        assert_eq!(strong.choose(&lines, &mut rng), Some(0));
    }

    #[test]
    fn elo_scale_is_monotone() {
        assert_eq!(level_from_elo(0), 0.0);
        assert_eq!(level_from_elo(10_000), MAX_LEVEL);
        assert!(level_from_elo(1500) < level_from_elo(2000));
    }
}
