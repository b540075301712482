//! Network file bytes (`EvalFile`), two ways. The bytes as a file: a refusal is one short message, and a
//! file that loads writes back to the very same bytes and stops loading when its checksum or length is
//! changed. The bytes as weights: a header of a small legal shape, the input repeated to the file's length
//! and sealed with the right checksum, so the fuzzer reaches the weights (a mutated file almost never passes
//! the checksum). Property: such a file loads, and over a game the incremental evaluation (accumulators
//! updated move by move) always equals the evaluation from scratch, whatever the weights, for each feature
//! set (piece-square in a version 1 file, king buckets in a version 2 file).
#![no_main]

use engine::checksum::fnv1a;
use engine::{Evaluate, Position};
use eval::nnue::features::FeatureSet;
use eval::nnue::file::{file_len, from_bytes, to_bytes, MAGIC, VERSION, VERSION_1};
use eval::nnue::network::{OUTPUT_SCALE, QA, QB};
use eval::nnue::Nnue;
use fuzzkit::{assert_one_short_line, play_choices};
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

/// A file of `features` and `hidden` units whose weights are `data` repeated, with its checksum.
fn sealed(features: FeatureSet, hidden: usize, data: &[u8]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    match features {
        FeatureSet::PieceSquare => b.extend_from_slice(&VERSION_1.to_le_bytes()),
        _ => [VERSION, features.id()].iter().for_each(|v| b.extend_from_slice(&v.to_le_bytes())),
    }
    for v in [features.inputs() as u32, hidden as u32, QA as u32, QB as u32, OUTPUT_SCALE as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let body = file_len(features, hidden) - 8 - b.len();
    if data.is_empty() {
        b.resize(b.len() + body, 0);
    } else {
        b.extend(data.iter().cycle().take(body));
    }
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

fuzz_target!(|data: &[u8]| {
    match from_bytes(data) {
        Ok(net) => {
            assert_eq!(to_bytes(&net), data, "a loaded network writes back other bytes");
            let mut changed = data.to_vec();
            let last = changed.len() - 1;
            changed[last] ^= 1;
            assert!(from_bytes(&changed).is_err(), "a changed checksum still loads");
            assert!(from_bytes(&data[..last]).is_err(), "a truncated file still loads");
        }
        Err(e) => assert_one_short_line(&e.to_string(), 400),
    }

    let Some((&shape, weights)) = data.split_first() else { return };
    let hidden = 16 * (1 + shape as usize % 4);
    let features = FeatureSet::ALL[(shape as usize / 4) % FeatureSet::ALL.len()];
    let file = sealed(features, hidden, weights);
    let net = from_bytes(&file)
        .unwrap_or_else(|e| panic!("a sealed {features:?} file of {hidden} units is refused: {e}"));
    assert_eq!(to_bytes(&net), file);
    let nnue = Nnue::new(Arc::new(net));
    let mut state = nnue.new_state();
    let mut pos = Position::startpos();
    assert_eq!(nnue.evaluate_with(&pos, &mut state), nnue.evaluate(&pos));
    // The game is chosen by the weights' own bytes, so that each input plays its own game.
    for &choice in weights.iter().take(60) {
        if play_choices(&mut pos, &[choice]).is_empty() {
            break;
        }
        assert_eq!(nnue.evaluate_with(&pos, &mut state), nnue.evaluate(&pos), "{pos:?}");
    }
});
