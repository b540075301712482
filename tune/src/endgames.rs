//! Endgame start positions for testing tablebases: random legal placements of named materials (a covered
//! material plus a piece or two, so that the game runs into the tables), kept when they make a fair test.
//!
//! A placement is drawn as a random slot of the material's tablebase index, so every legal placement is as
//! likely as any other (kings in the palace and never facing, advisors, elephants and pawns on their own
//! points, the side not to move not in check). It is kept when the side to move is not in check, has a
//! move and no capture (nothing is decided by the first move), and a short search does not already find a
//! mate or a lopsided score (a game decided before the tables can matter tests nothing). With tables
//! ([`sample_won`]), a placement of a covered material is kept only when the tables call it won for the side
//! to move while the search, without them, still scores it as close: the wins a search alone may fail to
//! convert. The draw depends only on the seed and the settings.

use engine::egtb::index::Indexer;
use engine::egtb::{Material, Tablebases, Wdl};
use engine::random::Rng;
use engine::search::{Limits, SearchControl, Searcher, SilentReporter};
use engine::{Evaluate, Position};
use std::collections::HashSet;

/// How endgame positions are drawn and filtered.
#[derive(Clone, Debug)]
pub struct EndgameConfig {
    /// Positions to keep per material.
    pub per_material: usize,
    /// Nodes of the filtering search.
    pub nodes: u64,
    /// The largest score (centipawns, either side) the filtering search may return.
    pub max_score: i32,
    /// Random slots tried per kept position before a material is given up.
    pub tries_per_position: usize,
    /// The seed of the draw.
    pub seed: u64,
}

impl Default for EndgameConfig {
    fn default() -> Self {
        EndgameConfig { per_material: 10, nodes: 20_000, max_score: 600, tries_per_position: 2_000, seed: 1 }
    }
}

/// Why a material yields no positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndgameError {
    /// The material has more pieces than a table index holds.
    TooManyPieces(Material),
    /// No table covers the material.
    NotCovered(Material),
}

impl std::fmt::Display for EndgameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndgameError::TooManyPieces(m) => write!(f, "{m} has more pieces than a table index holds"),
            EndgameError::NotCovered(m) => write!(f, "no table covers {m}"),
        }
    }
}

impl std::error::Error for EndgameError {}

/// Whether `pos` is a quiet start: the side to move is not in check, has a move, and has no capture.
pub fn is_quiet_start(pos: &Position) -> bool {
    if pos.in_check() {
        return false;
    }
    let moves = pos.legal_moves();
    !moves.is_empty() && moves.into_iter().all(|&m| !pos.is_capture(m))
}

/// Draws up to `config.per_material` positions of `material` (fewer when the tries run out), each quiet
/// ([`is_quiet_start`]) and scored within `config.max_score` by `searcher` at `config.nodes`.
pub fn sample<E: Evaluate>(
    material: &Material,
    config: &EndgameConfig,
    searcher: &mut Searcher<E>,
) -> Result<Vec<Position>, EndgameError> {
    sample_where(material, config, searcher, |_| true)
}

/// Like [`sample`], for a material `tables` cover, keeping only positions they call won for the side to move.
pub fn sample_won<E: Evaluate>(
    material: &Material,
    config: &EndgameConfig,
    searcher: &mut Searcher<E>,
    tables: &Tablebases,
) -> Result<Vec<Position>, EndgameError> {
    if tables.table(&material.canonical().0).is_none() {
        return Err(EndgameError::NotCovered(*material));
    }
    sample_where(material, config, searcher, |pos| tables.probe_wdl(pos) == Some(Wdl::Win))
}

fn sample_where<E: Evaluate>(
    material: &Material,
    config: &EndgameConfig,
    searcher: &mut Searcher<E>,
    keep: impl Fn(&Position) -> bool,
) -> Result<Vec<Position>, EndgameError> {
    let indexer = Indexer::new(material).ok_or(EndgameError::TooManyPieces(*material))?;
    let salt = material.to_string().bytes().fold(0u64, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b));
    let mut rng = Rng::new(config.seed ^ salt);
    let limits = Limits { nodes: Some(config.nodes), ..Default::default() };
    let control = SearchControl::new();
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    let tries = config.per_material.saturating_mul(config.tries_per_position);
    for _ in 0..tries {
        if kept.len() >= config.per_material {
            break;
        }
        let slot = rng.next_u64() % indexer.size();
        let Some(pos) = indexer.position_of(slot) else { continue };
        if !is_quiet_start(&pos) || !keep(&pos) || !seen.insert(pos.to_fen()) {
            continue;
        }
        searcher.clear();
        control.reset(false);
        let result = searcher.search(&pos, &limits, &mut SilentReporter, &control);
        if result.score.abs() <= config.max_score {
            kept.push(pos);
        }
    }
    Ok(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::Evaluator;

    #[test]
    fn drawn_positions_are_quiet_legal_and_of_the_material() {
        let material: Material = "KRPKRA".parse().expect("a material");
        let config = EndgameConfig { per_material: 4, nodes: 500, ..Default::default() };
        let mut searcher = Searcher::new(Evaluator::default());
        let positions = sample(&material, &config, &mut searcher).expect("six pieces fit");
        assert_eq!(positions.len(), 4);
        for pos in &positions {
            assert_eq!(Material::of(pos), material);
            assert!(is_quiet_start(pos), "{}", pos.to_fen());
            let again = Position::from_fen(&pos.to_fen()).expect("the FEN reads back");
            assert_eq!(again.to_fen(), pos.to_fen());
        }
    }

    #[test]
    fn the_same_seed_draws_the_same_positions() {
        let material: Material = "KRKNAA".parse().expect("a material");
        let config = EndgameConfig { per_material: 3, nodes: 300, ..Default::default() };
        let fens = |seed| {
            let mut searcher = Searcher::new(Evaluator::default());
            let c = EndgameConfig { seed, ..config.clone() };
            sample(&material, &c, &mut searcher)
                .expect("fits")
                .iter()
                .map(Position::to_fen)
                .collect::<Vec<_>>()
        };
        assert_eq!(fens(7), fens(7));
        assert_ne!(fens(7), fens(8));
    }

    #[test]
    fn a_start_in_check_or_with_a_capture_is_not_quiet() {
        let in_check = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").expect("legal");
        assert!(!is_quiet_start(&in_check));
        let capture = Position::from_fen("4k4/9/9/9/9/9/9/9/r8/R2K5 w - - 0 1").expect("legal");
        assert!(!is_quiet_start(&capture));
        let quiet = Position::from_fen("3k5/9/9/9/9/9/9/9/r8/4K3R w - - 0 1").expect("legal");
        assert!(is_quiet_start(&quiet));
    }

    #[test]
    fn won_positions_are_won_in_the_tables_and_close_for_the_search() {
        use engine::egtb::{file, generate_all, Rules};
        let dir = std::env::temp_dir().join(format!("chuhan-endgames-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let set = generate_all(&["KNKA".parse().unwrap()], Rules::Chinese, |_, _| {}).unwrap();
        for m in set.materials() {
            file::write(set.get(m).unwrap(), Rules::Chinese, &dir).unwrap();
        }
        let tables = Tablebases::open(std::slice::from_ref(&dir));
        let material: Material = "KNKA".parse().unwrap();
        let config = EndgameConfig { per_material: 3, nodes: 500, max_score: 300, ..Default::default() };
        let mut searcher = Searcher::new(Evaluator::default());
        let won = sample_won(&material, &config, &mut searcher, &tables).expect("covered");
        assert_eq!(won.len(), 3);
        for pos in &won {
            assert_eq!(tables.probe_wdl(pos), Some(Wdl::Win), "{}", pos.to_fen());
            assert!(is_quiet_start(pos));
        }
        let bare: Material = "KRPKR".parse().unwrap();
        assert!(matches!(
            sample_won(&bare, &config, &mut searcher, &tables),
            Err(EndgameError::NotCovered(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
