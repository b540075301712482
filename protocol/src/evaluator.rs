//! The one place that names the evaluators the binary plays with, and the text of the `eval` command.
//!
//! The `Eval` option picks the learned network (`nnue`, the default) or the handcrafted evaluation
//! (`classical`); `EvalFile` picks the network. [`EngineEval`] holds either, so one searcher type serves both:
//! the choice costs one well-predicted branch per evaluation.

use engine::evaluate::Evaluate;
use engine::search::Searcher;
use engine::Position;
use eval::nnue::{Accumulators, Network, Nnue};
use std::sync::Arc;

/// The evaluator chuhan plays with.
#[derive(Clone, Debug)]
pub enum EngineEval {
    /// The handcrafted evaluation (possibly reduced by the `knowledge` option).
    Classical(eval::Evaluator),
    /// The learned network.
    Nnue(Nnue),
}

impl Evaluate for EngineEval {
    /// The network's accumulators; empty (never allocated) while the classical evaluation plays.
    type State = Accumulators;

    fn new_state(&self) -> Accumulators {
        Accumulators::new()
    }

    #[inline]
    fn evaluate_with(&self, pos: &Position, state: &mut Accumulators) -> i32 {
        match self {
            EngineEval::Classical(e) => e.evaluate_with(pos, &mut ()),
            EngineEval::Nnue(n) => n.evaluate_with(pos, state),
        }
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        match self {
            EngineEval::Classical(e) => e.evaluate(pos),
            EngineEval::Nnue(n) => n.evaluate(pos),
        }
    }
}

/// The searcher chuhan plays with.
pub type EngineSearcher = Searcher<EngineEval>;

/// A fresh evaluator: the default options' choice.
pub fn new_evaluator() -> EngineEval {
    EvalChoice::default().evaluator()
}

/// What the evaluation options ask for.
#[derive(Clone, Debug)]
pub struct EvalChoice {
    /// The `knowledge` word: `none` is material and piece-square tables only (for A/B tests of the
    /// handcrafted evaluation and for handicap games); every other level is the full evaluation.
    pub knowledge: crate::options::Level,
    /// Whether the network plays (`Eval` = `nnue`).
    pub nnue: bool,
    /// The network loaded for `EvalFile`.
    pub net: Arc<Network>,
}

impl Default for EvalChoice {
    /// The default options' choice: the built-in network ([`crate::options::DEFAULT_EVAL`]).
    fn default() -> Self {
        EvalChoice::from_settings(&crate::options::Settings::default(), &eval::nnue::embedded())
    }
}

impl EvalChoice {
    /// What `settings` (`Eval`, `knowledge`) ask for, with `net` as the network.
    pub fn from_settings(settings: &crate::options::Settings, net: &Arc<Network>) -> EvalChoice {
        EvalChoice { knowledge: settings.knowledge, nnue: settings.uses_network(), net: Arc::clone(net) }
    }

    /// Whether `other` would build the same evaluator.
    pub fn same_as(&self, other: &EvalChoice) -> bool {
        self.knowledge == other.knowledge
            && self.nnue == other.nnue
            && (!self.nnue || self.net.checksum() == other.net.checksum())
    }

    /// The evaluator for this choice.
    pub fn evaluator(&self) -> EngineEval {
        if self.nnue {
            EngineEval::Nnue(Nnue::new(Arc::clone(&self.net)))
        } else if self.knowledge == crate::options::Level::None {
            EngineEval::Classical(eval::Evaluator::material_and_pst())
        } else {
            EngineEval::Classical(eval::Evaluator::default())
        }
    }
}

/// The network `EvalFile` chose and the name it was loaded under; one loader for every dialect.
#[derive(Clone, Debug)]
pub struct LoadedNet {
    /// The network.
    pub net: Arc<Network>,
    /// The option value it came from ([`eval::nnue::EMBEDDED_NAME`] for the built-in one).
    pub name: String,
}

impl Default for LoadedNet {
    /// The built-in network.
    fn default() -> Self {
        LoadedNet { net: eval::nnue::embedded(), name: eval::nnue::EMBEDDED_NAME.to_string() }
    }
}

/// A network file `EvalFile` named that cannot be used; the network in use stays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFileError {
    /// The option value, as the user wrote it (shortened for the message).
    pub name: String,
    /// Why the file was refused.
    pub reason: String,
    /// The network kept instead.
    pub kept: String,
}

impl std::fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EvalFile {}: {}; keeping {}", self.name, self.reason, self.kept)
    }
}

impl std::error::Error for EvalFileError {}

/// What loading a network did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// The built-in network (asked for by its name, `<empty>` or an empty value).
    BuiltIn,
    /// A file, with the message that says so.
    File(String),
}

impl LoadedNet {
    /// Loads the network `name` names: the built-in name, `<empty>` or an empty name mean the built-in
    /// network. A file that cannot be used is an error and leaves the network as it was.
    pub fn load(&mut self, name: &str) -> Result<Loaded, EvalFileError> {
        if name.is_empty() || name == eval::nnue::EMBEDDED_NAME || name.eq_ignore_ascii_case("<empty>") {
            *self = LoadedNet::default();
            return Ok(Loaded::BuiltIn);
        }
        match eval::nnue::file::load(std::path::Path::new(name)) {
            Ok(net) => {
                let text = format!("EvalFile: loaded {name} ({}x2 network)", net.hidden());
                *self = LoadedNet { net: Arc::new(net), name: name.to_string() };
                Ok(Loaded::File(text))
            }
            Err(e) => Err(EvalFileError {
                name: crate::parse::echo(name),
                reason: e.to_string(),
                kept: self.name.clone(),
            }),
        }
    }
}

/// The `eval` command's answer: every handcrafted term for Red, Black and the total (100 = a horse), the
/// phase, the draw scale and the final score from the side to move; then the network's score.
pub fn eval_text(pos: &Position, net: &Network, net_name: &str) -> String {
    let nnue = net.evaluate_from_scratch(pos);
    let side = if pos.side_to_move() == engine::Color::Red { "Red" } else { "Black" };
    format!(
        "{}\nNNUE evaluation ({net_name}, {side} to move): {:+.2}",
        eval::trace(pos),
        nnue as f64 / engine::evaluate::UNITS_PER_HORSE as f64
    )
}

/// Brings an idle searcher up to the settings both protocol sessions share: search features, the tunable
/// parameters, the evaluator (`applied` is what it was last given; a new one empties the table), and a
/// pending clear.
pub fn sync_searcher(
    searcher: &mut EngineSearcher,
    settings: &crate::options::Settings,
    wanted: EvalChoice,
    applied: &mut EvalChoice,
    clear_pending: &mut bool,
) {
    let features = settings.search_features();
    if searcher.features() != features {
        searcher.set_features(features);
    }
    if searcher.params() != &settings.params {
        searcher.set_params(settings.params.clone());
    }
    if !applied.same_as(&wanted) {
        searcher.set_evaluator(wanted.evaluator());
        *applied = wanted;
        *clear_pending = true;
    }
    if *clear_pending {
        searcher.clear();
        *clear_pending = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_text_shows_the_handcrafted_terms_and_the_network() {
        let net = eval::nnue::embedded();
        let t = eval_text(&Position::startpos(), &net, eval::nnue::EMBEDDED_NAME);
        assert!(t.contains("Material"), "{t}");
        assert!(t.contains("Final score (Red to move)"), "{t}");
        assert!(t.lines().last().unwrap().starts_with("NNUE evaluation (chuhan-"), "{t}");
        let t = eval_text(&Position::from_fen("5k3/9/9/9/9/9/9/9/9/R3K4 b").unwrap(), &net, "x.nnue");
        assert!(t.contains("Final score (Black to move): -"), "{t}");
        assert!(t.lines().last().unwrap().starts_with("NNUE evaluation (x.nnue, Black to move)"), "{t}");
    }

    #[test]
    fn the_choice_picks_the_evaluator() {
        let pos = Position::startpos();
        let net = eval::nnue::embedded();
        let classical =
            EvalChoice { knowledge: crate::options::Level::Large, nnue: false, net: Arc::clone(&net) };
        let nnue = EvalChoice { nnue: true, ..classical.clone() };
        assert!(matches!(classical.evaluator(), EngineEval::Classical(_)));
        assert_eq!(nnue.evaluator().evaluate(&pos), net.evaluate_from_scratch(&pos));
        assert!(!classical.same_as(&nnue));
        assert!(classical.same_as(&EvalChoice { net: Arc::new(Network::zero(16)), ..classical.clone() }));
    }
}
