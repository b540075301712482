//! Which rules a game is played under: the repetition rules (docs/rules.md, "Rule sets") and the natural
//! move limit (art. 4.2.4, which lets an event choose its own number).
//!
//! The Chinese rules are the default everywhere, and with them every verdict and every search is what it
//! was before the other sets existed.

use crate::rules::limit::NATURAL_LIMIT_PLIES;
use std::fmt;
use std::str::FromStr;

/// The rule book that judges repetitions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Chinese Xiangqi Association's 棋例 (docs/rules.md, art. 24-29): the default.
    #[default]
    Chinese,
    /// The Asian Xiangqi Federation's rules (docs/rules.md, "The Asian rules").
    Asian,
    /// The engine-tournament rule: perpetual check loses, every other repetition is a draw.
    Computer,
}

impl RuleSet {
    /// Every rule set, in the order options list them.
    pub const ALL: [RuleSet; 3] = [RuleSet::Chinese, RuleSet::Asian, RuleSet::Computer];

    /// The set's name in options, PGN headers and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Chinese => "chinese",
            RuleSet::Asian => "asian",
            RuleSet::Computer => "computer",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule-set name that is none of [`RuleSet::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetError(pub String);

impl fmt::Display for RuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        write!(f, "unknown rule set '{}': expected one of {}", crate::text::clip(&self.0), names.join(", "))
    }
}

impl std::error::Error for RuleSetError {}

impl FromStr for RuleSet {
    type Err = RuleSetError;

    /// Reads a name of [`RuleSet::name`], in any case (`axf` is also read as the Asian set).
    fn from_str(s: &str) -> Result<RuleSet, RuleSetError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "axf" => Ok(RuleSet::Asian),
            _ => RuleSet::ALL.into_iter().find(|r| r.name() == t).ok_or_else(|| RuleSetError(s.to_string())),
        }
    }
}

/// The rules of one game: how repetitions are judged and after how many capture-free plies it is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRules {
    /// The repetition rules.
    pub set: RuleSet,
    /// Capture-free plies that draw the game (twice the moves of an event's limit); 0: no limit.
    pub move_limit_plies: u32,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules { set: RuleSet::Chinese, move_limit_plies: NATURAL_LIMIT_PLIES }
    }
}

impl GameRules {
    /// The default rules with another repetition rule set.
    pub fn with_set(set: RuleSet) -> GameRules {
        GameRules { set, ..GameRules::default() }
    }

    /// Whether `plies` capture-free plies reach the move limit (never when there is none).
    #[inline(always)]
    pub fn limit_reached(&self, plies: u32) -> bool {
        self.move_limit_plies != 0 && plies >= self.move_limit_plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_bad_ones_are_named() {
        for r in RuleSet::ALL {
            assert_eq!(r.name().parse::<RuleSet>(), Ok(r));
            assert_eq!(r.to_string().to_uppercase().parse::<RuleSet>(), Ok(r));
        }
        assert_eq!("AXF".parse::<RuleSet>(), Ok(RuleSet::Asian));
        let e = "sky".parse::<RuleSet>().unwrap_err().to_string();
        assert!(e.contains("'sky'") && e.contains("chinese, asian, computer"), "{e}");
    }

    #[test]
    fn the_default_is_the_chinese_sixty_moves() {
        let r = GameRules::default();
        assert_eq!((r.set, r.move_limit_plies), (RuleSet::Chinese, 120));
        assert!(!r.limit_reached(119) && r.limit_reached(120));
        let none = GameRules { move_limit_plies: 0, ..r };
        assert!(!none.limit_reached(100_000));
    }
}
