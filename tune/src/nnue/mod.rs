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

    /// Random games that move a king every third move where one can, scored by the handcrafted
    /// evaluation (a target with something to learn).
    fn king_walk_games(n: usize, seed: u64) -> Vec<GameRecord> {
        let mut rng = Rng::new(seed);
        let hce = eval::Evaluator::default();
        (0..n)
            .map(|g| {
                let start = engine::Position::startpos();
                let mut pos = start.clone();
                let mut moves = Vec::new();
                for _ in 0..80 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let king = pos.king_square(pos.side_to_move());
                    let kings: Vec<_> = legal.iter().copied().filter(|m| m.from() == king).collect();
                    let mv = if !kings.is_empty() && rng.below(3) == 0 {
                        kings[rng.below(kings.len())]
                    } else {
                        legal[rng.below(legal.len())]
                    };
                    let score = engine::Evaluate::evaluate(&hce, &pos);
                    moves.push(crate::selfplay::PlayedMove { mv, score });
                    pos.make_move(mv);
                }
                let result = [GameResult::RedWins, GameResult::Draw, GameResult::BlackWins][g % 3];
                GameRecord { start, moves, result, ending: 0 }
            })
            .collect()
    }

    #[test]
    fn a_king_bucket_net_trains_from_a_game_file_and_the_engine_scores_as_the_trainer_does() {
        use eval::nnue::features::{active_in, FeatureSet};
        use eval::nnue::{network_from, Nnue};
        let games = king_walk_games(60, 5);
        let dir = std::env::temp_dir().join(format!("chuhan-kb-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (data_path, net_path) = (dir.join("games.bin"), dir.join("net.nnue"));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&data_path).unwrap());
        crate::gamefile::write_header(&mut file).unwrap();
        for game in &games {
            crate::gamefile::write_game(&mut file, game).unwrap();
        }
        drop(file);
        let (data, n_games) = Dataset::read(&[&data_path]).expect("the file just written");
        assert_eq!(n_games, games.len());
        let set = FeatureSet::KingBuckets;
        let config = TrainConfig { features: set, hidden: 32, epochs: 2, learning_rate: 0.01, ..config() };
        let out = train(&data, &config, |_| {});
        eval::nnue::file::save(&out.network, &net_path).unwrap();
        let net = network_from(Some(&net_path)).expect("the engine loads the trained file");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(net.features(), set);
        assert_eq!(*net, out.network);
        assert!(out.losses[1].0 < out.losses[0].0, "{:?}", out.losses);
        // The trainer's features, derived from the stored piece-square ones, are the engine's.
        let maps = super::data::FeatureMaps::new();
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let mut i = 0;
        for game in &games {
            for tp in crate::gamefile::training_positions(game) {
                super::train::sample_features(set, &data, &maps, i, false, &mut us, &mut them);
                let sorted = |mut v: Vec<usize>| {
                    v.sort_unstable();
                    v
                };
                let mover = tp.pos.side_to_move();
                assert_eq!(sorted(us.clone()), sorted(active_in(set, &tp.pos, mover).collect()));
                assert_eq!(sorted(them.clone()), sorted(active_in(set, &tp.pos, !mover).collect()));
                i += 1;
            }
        }
        assert_eq!(i, data.len());
        // Along each game, incrementally (king moves across buckets included): the engine's score is the
        // quantised network's on the trainer's features exactly, and the float model's within the rounding
        // of the quantisation (1 horse = OUTPUT_SCALE internal units = 100 cp).
        let quantised = out.network.clone();
        let nnue = Nnue::new(net);
        let mut state = engine::Evaluate::new_state(&nnue);
        let (mut worst, mut sum, mut n) = (0f32, 0f32, 0);
        for game in &games {
            let mut pos = game.start.clone();
            for m in &game.moves {
                pos.make_move(m.mv);
                let mover = pos.side_to_move();
                let us: Vec<usize> = active_in(set, &pos, mover).collect();
                let them: Vec<usize> = active_in(set, &pos, !mover).collect();
                let float = out.model.evaluate(&us, &them);
                let int = engine::Evaluate::evaluate_with(&nnue, &pos, &mut state);
                assert_eq!(int, quantised.evaluate_active(&us, &them), "{pos:?}");
                let int = int as f32;
                worst = worst.max((float - int).abs());
                sum += (float - int).abs();
                n += 1;
            }
        }
        let scale = eval::nnue::network::OUTPUT_SCALE as f32;
        let (mean_cp, worst_cp) = (sum / n as f32 * 100.0 / scale, worst * 100.0 / scale);
        eprintln!("{n} positions: |float - engine| {mean_cp:.2} cp on average, {worst_cp:.2} cp at worst");
        assert!(mean_cp < 3.0 && worst_cp < 15.0, "{mean_cp} cp on average, {worst_cp} at worst");
    }
}
