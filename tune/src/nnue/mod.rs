//! The trainer of the learned evaluation (`eval::nnue`): samples from game files ([`data`]), the float
//! network and Adam ([`model`]), and the training loop with its validation split ([`train`]).

pub mod data;
pub mod model;
pub mod train;

pub use data::Dataset;
pub use model::Model;
pub use train::{train, TrainConfig, TrainOutcome};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gamefile::GameRecord;
    use engine::random::Rng;
    use engine::rules::GameResult;

    /// A few random games with made-up scores.
    fn tiny_dataset() -> Dataset {
        let mut rng = Rng::new(42);
        let mut games = Vec::new();
        for g in 0..12 {
            let start = engine::Position::startpos();
            let mut pos = start.clone();
            let mut moves = Vec::new();
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.below(legal.len())];
                let score = (rng.below(801) as i32) - 400;
                moves.push(crate::selfplay::PlayedMove { mv, score });
                pos.make_move(mv);
            }
            let result = [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins][g % 3];
            games.push(GameRecord { start, moves, result, ending: 0 });
        }
        let mut data = Dataset::default();
        data.add_games(&games, 0);
        data
    }

    fn config() -> TrainConfig {
        TrainConfig {
            hidden: 16,
            epochs: 3,
            batch_size: 64,
            validation: 0.25,
            seed: 7,
            ..TrainConfig::default()
        }
    }

    #[test]
    fn training_is_deterministic_for_a_seed_and_thread_count_free() {
        let data = tiny_dataset();
        assert!(data.len() > 200, "{}", data.len());
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let a = one.install(|| train(&data, &config(), |_| {}));
        let b = two.install(|| train(&data, &config(), |_| {}));
        assert_eq!(a.model, b.model);
        assert_eq!(a.network, b.network);
        assert_eq!(a.losses, b.losses);
        let c = train(&data, &TrainConfig { seed: 8, ..config() }, |_| {});
        assert_ne!(a.model, c.model);
    }

    #[test]
    fn training_lowers_the_loss_and_quantisation_stays_close() {
        let data = tiny_dataset();
        let out = train(&data, &TrainConfig { epochs: 8, learning_rate: 0.01, ..config() }, |_| {});
        let (first, last) = (out.losses[0].0, out.losses[out.losses.len() - 1].0);
        assert!(last < first, "{:?}", out.losses);
        assert!(out.quantisation_cp < 5.0, "{}", out.quantisation_cp);
    }
}
