//! The per-thread state of the network evaluator: one pair of accumulators (Red's and Black's
//! perspective) per ply of the position's history, brought up to date lazily.
//!
//! An entry is tagged with the key of the position it was computed for. To evaluate, the stack walks
//! back from the current ply to the nearest entry whose tag matches the key the line had at that ply
//! (the history's `Undo` entries keep those keys), then replays the moves from there: each move
//! subtracts the mover's old square, adds its new one and subtracts a captured piece, in both
//! perspectives. With no usable entry within [`MAX_REPLAY`] plies (a new root, a long jump) it
//! recomputes from the board. Tags make the cache safe whatever line the search went down before.

use super::features::index;
use super::network::Network;
use super::simd;
use engine::position::Undo;
use engine::{Color, Position};

/// Plies replayed at most before a full refresh is cheaper: a refresh adds ~32 rows per perspective, a
/// replayed move touches 2-3.
pub const MAX_REPLAY: usize = 8;

/// Accumulators along the current line, for one search thread.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    /// Which network the entries belong to (its checksum) and its hidden size.
    net: Option<(u64, usize)>,
    /// Per ply: Red's perspective then Black's, `hidden` values each.
    values: Vec<i16>,
    /// The key of the position each entry holds (`None`: nothing yet).
    tags: Vec<Option<u64>>,
}

impl Accumulators {
    /// An empty stack (it allocates on first use).
    pub fn new() -> Accumulators {
        Accumulators::default()
    }

    /// Forgets every entry if they belong to another network.
    fn adopt(&mut self, net: &Network) {
        let id = (net.checksum(), net.hidden());
        if self.net != Some(id) {
            self.net = Some(id);
            self.values.clear();
            self.tags.clear();
        }
    }

    /// Makes room for entries up to ply `ply`.
    fn reserve_to(&mut self, ply: usize, hidden: usize) {
        if self.tags.len() <= ply {
            let len = (ply + 1).next_power_of_two().max(64);
            self.tags.resize(len, None);
            self.values.resize(len * 2 * hidden, 0);
        }
    }

    /// The score of `pos` for the side to move, updating the entries along its history.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.adopt(net);
        let hidden = net.hidden();
        let history = pos.history();
        let ply = history.len();
        self.reserve_to(ply, hidden);
        let key_at = |i: usize| if i == ply { pos.key() } else { history[i].key };
        let lowest = ply.saturating_sub(MAX_REPLAY);
        let mut from = ply;
        let found = loop {
            if self.tags[from] == Some(key_at(from)) {
                break true;
            }
            if from == lowest {
                break false;
            }
            from -= 1;
        };
        if found {
            for i in from + 1..=ply {
                self.replay(net, &history[i - 1], i);
                self.tags[i] = Some(key_at(i));
            }
        } else {
            let entry = &mut self.values[ply * 2 * hidden..(ply + 1) * 2 * hidden];
            let (red, black) = entry.split_at_mut(hidden);
            net.refresh(pos, Color::Red, red);
            net.refresh(pos, Color::Black, black);
            self.tags[ply] = Some(pos.key());
        }
        let entry = &self.values[ply * 2 * hidden..(ply + 1) * 2 * hidden];
        let (red, black) = entry.split_at(hidden);
        match pos.side_to_move() {
            Color::Red => net.output(red, black),
            Color::Black => net.output(black, red),
        }
    }

    /// Entry `ply` from entry `ply - 1` and the move `undo` records between them.
    fn replay(&mut self, net: &Network, undo: &Undo, ply: usize) {
        let hidden = net.hidden();
        let (before, after) = self.values.split_at_mut(ply * 2 * hidden);
        let before = &before[(ply - 1) * 2 * hidden..];
        let after = &mut after[..2 * hidden];
        let (Some(mv), Some(moved)) = (undo.mv, undo.moved) else {
            // A null move changes no piece.
            after.copy_from_slice(before);
            return;
        };
        for (half, perspective) in [(0, Color::Red), (1, Color::Black)] {
            let range = half * hidden..(half + 1) * hidden;
            let added = [index(perspective, moved, mv.to())];
            let mut removed = [index(perspective, moved, mv.from()), 0];
            let n_removed = match undo.captured {
                Some(c) => {
                    removed[1] = index(perspective, c, mv.to());
                    2
                }
                None => 1,
            };
            simd::update(
                &mut after[range.clone()],
                &before[range],
                net.input_weights(),
                hidden,
                &added,
                &removed[..n_removed],
            );
        }
    }
}
