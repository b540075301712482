//! The per-thread state of the network evaluator: one pair of accumulators (Red's and Black's
//! perspective) per ply of the position's history, brought up to date lazily, and a [`RefreshCache`].
//!
//! Each perspective's half of an entry is tagged with the key of the position it was computed for. To
//! evaluate, each perspective walks back from the current ply to the nearest half whose tag matches the
//! key the line had at that ply (the history's `Undo` entries keep those keys), then replays the moves
//! from there: each move subtracts the mover's old square, adds its new one and subtracts a captured
//! piece. With no usable half within [`MAX_REPLAY`] plies (a new root, a long jump), or when the line
//! moved this perspective's king into another [`View`] (king buckets: every feature changes), it refreshes
//! the current ply from the board through the refresh cache. Tags make the stack safe whatever line the
//! search went down before; per-perspective tags let one perspective refresh while the other replays.

use super::features::{index_in, View};
use super::network::Network;
use super::refresh::RefreshCache;
use super::simd;
use engine::position::Undo;
use engine::{Color, Piece, PieceKind, Position};

/// Plies replayed at most before a refresh is cheaper: a refresh adds ~32 rows per perspective, a
/// replayed move touches 2-3.
pub const MAX_REPLAY: usize = 8;

/// Accumulators along the current line, for one search thread.
#[derive(Clone, Debug, Default)]
pub struct Accumulators {
    /// Which network the entries belong to (its checksum) and its hidden size.
    net: Option<(u64, usize)>,
    /// Per ply: Red's perspective then Black's, `hidden` values each.
    values: Vec<i16>,
    /// Per ply and perspective: the key of the position the half holds (`None`: nothing yet).
    tags: Vec<[Option<u64>; 2]>,
    /// Accumulators by king view, for refreshes.
    cache: RefreshCache,
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
            self.cache.reset(net);
        }
    }

    /// Makes room for entries up to ply `ply`.
    fn reserve_to(&mut self, ply: usize, hidden: usize) {
        if self.tags.len() <= ply {
            let len = (ply + 1).next_power_of_two().max(64);
            self.tags.resize(len, [None; 2]);
            self.values.resize(len * 2 * hidden, 0);
        }
    }

    /// The score of `pos` for the side to move, updating the entries along its history.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.adopt(net);
        let hidden = net.hidden();
        let ply = pos.history().len();
        self.reserve_to(ply, hidden);
        self.bring_up_to_date(net, pos, Color::Red);
        self.bring_up_to_date(net, pos, Color::Black);
        let entry = &self.values[ply * 2 * hidden..(ply + 1) * 2 * hidden];
        let (red, black) = entry.split_at(hidden);
        match pos.side_to_move() {
            Color::Red => net.output(red, black),
            Color::Black => net.output(black, red),
        }
    }

    /// Makes `perspective`'s half of the current ply's entry hold `pos`'s accumulator.
    #[inline]
    fn bring_up_to_date(&mut self, net: &Network, pos: &Position, perspective: Color) {
        let history = pos.history();
        let ply = history.len();
        let half = perspective.index();
        let key_at = |i: usize| if i == ply { pos.key() } else { history[i].key };
        let lowest = ply.saturating_sub(MAX_REPLAY);
        let mut from = ply;
        let found = loop {
            if self.tags[from][half] == Some(key_at(from)) {
                break true;
            }
            if from == lowest {
                break false;
            }
            from -= 1;
        };
        if found && from == ply {
            return;
        }
        let features = net.features();
        let view = features.view(perspective, pos.king_square(perspective));
        let king = Piece::new(perspective, PieceKind::King);
        // Only a king's own move changes its view; the piece-square set has one view.
        let view_changed = |u: &Undo| match (u.mv, u.moved) {
            (Some(mv), Some(moved)) if moved == king => {
                features.view(perspective, mv.from()) != features.view(perspective, mv.to())
            }
            _ => false,
        };
        if found && !history[from..ply].iter().any(view_changed) {
            for i in from + 1..=ply {
                self.replay(net, &history[i - 1], i, perspective, view);
                self.tags[i][half] = Some(key_at(i));
            }
        } else {
            let hidden = net.hidden();
            let at = (ply * 2 + half) * hidden;
            self.cache.refresh(net, pos, perspective, view, &mut self.values[at..at + hidden]);
            self.tags[ply][half] = Some(pos.key());
        }
    }

    /// `perspective`'s half of entry `ply` from that of entry `ply - 1` and the move `undo` records
    /// between them, in `view` (the same at both plies).
    #[inline]
    fn replay(&mut self, net: &Network, undo: &Undo, ply: usize, perspective: Color, view: View) {
        let hidden = net.hidden();
        let half = perspective.index();
        let (before, after) = self.values.split_at_mut(ply * 2 * hidden);
        let before = &before[((ply - 1) * 2 + half) * hidden..][..hidden];
        let after = &mut after[half * hidden..(half + 1) * hidden];
        let (Some(mv), Some(moved)) = (undo.mv, undo.moved) else {
            // A null move changes no piece.
            after.copy_from_slice(before);
            return;
        };
        let added = [index_in(view, perspective, moved, mv.to())];
        let mut removed = [index_in(view, perspective, moved, mv.from()), 0];
        let n_removed = match undo.captured {
            Some(c) => {
                removed[1] = index_in(view, perspective, c, mv.to());
                2
            }
            None => 1,
        };
        simd::update(after, before, net.input_weights(), hidden, &added, &removed[..n_removed]);
    }
}
