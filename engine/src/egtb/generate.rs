//! Retrograde analysis of one material, given the tables its captures lead into.
//!
//! 1. Every slot is set up once: illegal placements are marked, mates and stalemates are losses in 0,
//!    captures are looked up in the smaller tables, and each position counts its moves that stay here.
//! 2. Positions are decided in order of distance: a loss in `d` makes every position that can move into
//!    it a win in `d + 1`; a win in `d` takes one from the count of each predecessor, and a predecessor
//!    whose moves are all used up that way (and whose captures do not save it) loses. Predecessors come
//!    from un-moves on the decided position, so every position is set up a bounded number of times.
//! 3. What is left can only be played for ever: [`super::perpetual`] judges it by the perpetual-check
//!    rule (unless the rules asked for are [`Rules::CycleDraw`]); the rest is drawn.

use super::index::{empty_placement, Indexer, Placement};
use super::material::Material;
use super::perpetual::{self, Edge, Graph, EXTERNAL};
use super::set::TableSet;
use super::table::{Table, Verdict, Wdl, CODE_DRAW, CODE_ILLEGAL, CODE_LOSS, CODE_WIN, DTM_PERPETUAL};
use crate::attacks::{
    elephant_attacks, horse_attackers_from, ADVISOR_ATTACKS, KING_ATTACKS, PAWN_ATTACKERS_FROM,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Piece, PieceKind, Square};
use std::fmt;
use std::time::Instant;

/// How play that never ends is judged.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The Chinese rules as far as checks go: one-sided perpetual check loses (art. 26.1); chases are not
    /// modelled.
    Chinese,
    /// Every cycle is a draw (what other generators do; kept to count where the rule matters).
    CycleDraw,
}

impl Rules {
    /// The name written in file headers.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Chinese => "chinese-perpetual-check",
            Rules::CycleDraw => "cycle-draw",
        }
    }

    /// The rules of a header name.
    pub fn from_name(name: &str) -> Option<Rules> {
        [Rules::Chinese, Rules::CycleDraw].into_iter().find(|r| r.name() == name)
    }
}

/// Why a table could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenError {
    /// A capture leads into a table that is not in the set.
    MissingSubtable(Material),
    /// Too many pieces or slots for the index.
    TooLarge(Material),
    /// The perpetual-check rule's fixed point needs more rounds or layers than a table stores.
    RuleTooDeep(Material, u32, u32),
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::MissingSubtable(m) => write!(f, "the table {m} that captures lead into is missing"),
            GenError::TooLarge(m) => write!(f, "{m} has too many pieces or slots for a table"),
            GenError::RuleTooDeep(m, rounds, layers) => write!(
                f,
                "{m}: the perpetual-check rule needs {rounds} rounds and {layers} layers, more than a table stores \
                 ({} and {})",
                perpetual::MAX_ROUND,
                perpetual::MAX_LAYER
            ),
        }
    }
}

impl std::error::Error for GenError {}

/// Counts from one generation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Slots in the index (both sides to move).
    pub slots: u64,
    /// Legal positions among them.
    pub legal: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions that plain retrograde analysis leaves drawn and the perpetual-check rule decides.
    pub perpetual: u64,
    /// The longest distance to mate, in plies (forced mates only).
    pub max_dtm: u16,
    /// The rounds of the perpetual-check rule's fixed point (0 when it decides nothing).
    pub rule_rounds: u16,
    /// Seconds taken.
    pub seconds: f64,
    /// Of which: setting up every slot, plain retrograde analysis, the perpetual-check rule.
    pub phase_seconds: [f64; 3],
}

/// Generation codes per slot: 0 undecided, 1 illegal, 2 + 2d loss in d, 3 + 2d win in d.
const UNK: u16 = 0;
const ILLEGAL: u16 = 1;
/// In capture summaries: at least one capture draws and none wins.
const CAP_DRAW: u16 = 1;
/// Count value for a position already queued as a win.
const QUEUED: u8 = u8::MAX;

const fn loss(d: u16) -> u16 {
    2 + 2 * d
}
const fn win(d: u16) -> u16 {
    3 + 2 * d
}
/// Plies of a win or loss code.
const fn plies(code: u16) -> u16 {
    (code - 2) / 2
}
const fn is_win(code: u16) -> bool {
    code >= 2 && code & 1 == 1
}
const fn is_loss(code: u16) -> bool {
    code >= 2 && code & 1 == 0
}

/// Orders codes from the mover's view: shortest win best, longest loss best among losses.
fn rank(code: u16) -> i32 {
    match code {
        CAP_DRAW => 0,
        c if is_win(c) => 100_000 - plies(c) as i32,
        c => -100_000 + plies(c) as i32,
    }
}

/// The value for the mover of a move into a position with verdict `v` (for the side to move there), as plain
/// retrograde analysis sees it: a forced mate's distance, one ply longer. A position the perpetual-check rule
/// decides counts as a draw here: its number is a standing, not plies (the analysis reads win or loss from
/// the parity of plies), and a result reached through the rule is the rule's to decide, so the capture
/// leaves its position to the rule's phase, where it is an exit with its true result.
fn code_after(v: Verdict) -> u16 {
    match (v.wdl, v.perpetual) {
        (Wdl::Draw, _) | (_, true) => CAP_DRAW,
        (Wdl::Win, false) => loss(v.dtm + 1),
        (Wdl::Loss, false) => win(v.dtm + 1),
    }
}

struct Gen<'a> {
    material: Material,
    ix: Indexer,
    subs: &'a TableSet,
    pos: Position,
    list: Vec<(Piece, Square)>,
}

impl Gen<'_> {
    /// Sets `self.pos` to `sq` with `side` to move.
    fn set(&mut self, sq: &Placement, side: Color) {
        self.list.clear();
        for (i, &p) in self.ix.pieces().iter().enumerate() {
            self.list.push((p, sq[i]));
        }
        self.pos.reset_to(&self.list, side);
    }

    /// Decodes slot `i` into `self.pos`; `None` when no legal position has that placement.
    fn load(&mut self, i: u64) -> Option<Color> {
        self.ix.load_into(i, &mut self.pos, &mut self.list)
    }

    /// The verdict after the capture `m` in `self.pos` (for the side to move then), from the smaller table.
    fn capture_verdict(&mut self, m: crate::types::Move) -> Result<Verdict, GenError> {
        self.pos.make_move(m);
        let v = self.subs.probe(&self.pos);
        let missing = || GenError::MissingSubtable(Material::of(&self.pos).canonical().0);
        let v = v.ok_or_else(missing);
        self.pos.unmake_move();
        v
    }

    /// Calls `f` with every slot that reaches slot `c` (decoded already into `self.sq`) by one move that
    /// stays in this table, once per such move; `legal` says which slots hold legal positions.
    fn predecessors(&mut self, c: u64, legal: impl Fn(u64) -> bool, out: &mut Vec<u32>) {
        out.clear();
        let mut sq = empty_placement();
        let side = self.ix.decode(c, &mut sq);
        let mover = !side;
        let n = self.ix.pieces().len();
        let king = (0..n).find(|&i| self.ix.is_red_king(i)).unwrap_or(0);
        let variants = if sq[king].file() == 3 { 2 } else { 1 };
        for variant in 0..variants {
            let mut y = sq;
            if variant == 1 {
                for s in &mut y[..n] {
                    *s = s.mirror_file();
                }
            }
            self.set(&y, side);
            let occ = self.pos.occupied();
            let empty = Bitboard(!occ.0 & Bitboard::FULL.0);
            for j in 0..n {
                let p = self.ix.pieces()[j];
                if p.color() != mover {
                    continue;
                }
                let s = y[j];
                let from = match p.kind() {
                    PieceKind::King => KING_ATTACKS[s.index()],
                    PieceKind::Advisor => ADVISOR_ATTACKS[s.index()],
                    PieceKind::Elephant => elephant_attacks(s, occ),
                    PieceKind::Horse => horse_attackers_from(s, occ),
                    PieceKind::Rook | PieceKind::Cannon => self.pos.rook_attacks(s),
                    PieceKind::Pawn => PAWN_ATTACKERS_FROM[mover.index()][s.index()],
                } & empty;
                for x in from {
                    let mut q = y;
                    q[j] = x;
                    if q[king].file() > 4 {
                        // Stored as its mirror, which the other variant reaches.
                        continue;
                    }
                    if let Some(qi) = self.ix.encode(&q, mover) {
                        if legal(qi) {
                            out.push(qi as u32);
                        }
                    }
                }
            }
        }
    }
}

/// Generates the table of `material` (a stored colouring) under `rules`; `subs` must hold every table a
/// capture leads into.
pub fn generate(material: Material, subs: &TableSet, rules: Rules) -> Result<(Table, Stats), GenError> {
    let started = Instant::now();
    let ix = Indexer::new(&material).ok_or(GenError::TooLarge(material))?;
    let n = ix.size();
    if n >= u32::MAX as u64 {
        return Err(GenError::TooLarge(material));
    }
    let n = n as usize;
    let mut g = Gen { material, ix, subs, pos: Position::startpos(), list: Vec::new() };
    let mut val = vec![UNK; n];
    let mut cnt = vec![0u8; n];
    let mut cap = vec![0u16; n];
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, d: u16, i: usize| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(i as u32);
    };

    for i in 0..n {
        if g.load(i as u64).is_none() {
            val[i] = ILLEGAL;
            continue;
        }
        let moves = g.pos.legal_moves();
        if moves.is_empty() {
            push(&mut buckets, 0, i);
            continue;
        }
        let mut quiet = 0u32;
        let mut best = 0u16;
        for &m in moves.as_slice() {
            if g.pos.is_capture(m) {
                let code = code_after(g.capture_verdict(m)?);
                if best == 0 || rank(code) > rank(best) {
                    best = code;
                }
            } else {
                quiet += 1;
            }
        }
        debug_assert!(quiet < QUEUED as u32);
        cnt[i] = quiet as u8;
        cap[i] = best;
        if is_win(best) || (quiet == 0 && is_loss(best)) {
            push(&mut buckets, plies(best), i);
        }
    }

    let setup_done = started.elapsed().as_secs_f64();
    let mut preds = Vec::new();
    let mut d = 0usize;
    while d < buckets.len() {
        let list = std::mem::take(&mut buckets[d]);
        let dd = d as u16;
        for i in list {
            let i = i as usize;
            if val[i] != UNK {
                continue;
            }
            val[i] = if d.is_multiple_of(2) { loss(dd) } else { win(dd) };
            g.predecessors(i as u64, |q| val[q as usize] != ILLEGAL, &mut preds);
            for &q in &preds {
                let q = q as usize;
                if val[q] != UNK || cnt[q] == QUEUED {
                    continue;
                }
                if d.is_multiple_of(2) {
                    cnt[q] = QUEUED;
                    push(&mut buckets, dd + 1, q);
                    continue;
                }
                cnt[q] -= 1;
                if cnt[q] == 0 {
                    let c = cap[q];
                    if c == 0 {
                        push(&mut buckets, dd + 1, q);
                    } else if is_loss(c) {
                        push(&mut buckets, (dd + 1).max(plies(c)), q);
                    }
                }
            }
        }
        d += 1;
    }
    drop(cap);
    drop(cnt);
    let retro_done = started.elapsed().as_secs_f64();

    let mut perpetual = vec![false; 0];
    let mut perpetual_count = 0u64;
    if rules == Rules::Chinese && (material.can_check(Color::Red) || material.can_check(Color::Black)) {
        let (graph, nodes) = undecided_graph(&mut g, &val)?;
        let decided =
            perpetual::solve(&graph).map_err(|d| GenError::RuleTooDeep(material, d.rounds, d.layers))?;
        perpetual = vec![false; n];
        for (k, dec) in decided.into_iter().enumerate() {
            if let Some((wdl, dtm)) = dec {
                let i = nodes[k] as usize;
                val[i] = if wdl == Wdl::Win { win(dtm) } else { loss(dtm) };
                perpetual[i] = true;
                perpetual_count += 1;
            }
        }
    }

    let mut stats = Stats { slots: n as u64, perpetual: perpetual_count, ..Stats::default() };
    let mut wdl = vec![0u8; n.div_ceil(4)];
    let mut dtm = vec![0u16; n];
    for i in 0..n {
        let (code, words) = match val[i] {
            ILLEGAL => (CODE_ILLEGAL, 0),
            UNK => (CODE_DRAW, 0),
            v if is_win(v) => (CODE_WIN, plies(v)),
            v => (CODE_LOSS, plies(v)),
        };
        match code {
            CODE_WIN => stats.wins += 1,
            CODE_LOSS => stats.losses += 1,
            CODE_DRAW => stats.draws += 1,
            _ => {}
        }
        let by_rule = perpetual.get(i).copied().unwrap_or(false);
        if by_rule {
            stats.rule_rounds = stats.rule_rounds.max(perpetual::round_of(words));
        } else {
            stats.max_dtm = stats.max_dtm.max(words);
        }
        wdl[i / 4] |= code << (2 * (i % 4));
        dtm[i] = words | if by_rule { DTM_PERPETUAL } else { 0 };
    }
    stats.legal = stats.wins + stats.draws + stats.losses;
    stats.seconds = started.elapsed().as_secs_f64();
    stats.phase_seconds = [setup_done, retro_done - setup_done, stats.seconds - retro_done];
    Ok((Table::from_parts(g.material, g.ix, wdl, dtm), stats))
}

/// The undecided positions as a game graph for the perpetual-check rule, and the slot of each node.
fn undecided_graph(g: &mut Gen<'_>, val: &[u16]) -> Result<(Graph, Vec<u32>), GenError> {
    let mut local = vec![u32::MAX; val.len()];
    let mut nodes = Vec::new();
    for (i, &v) in val.iter().enumerate() {
        if v == UNK {
            local[i] = nodes.len() as u32;
            nodes.push(i as u32);
        }
    }
    let mut graph = Graph::default();
    for &i in &nodes {
        let side = g.load(i as u64).unwrap_or(Color::Red);
        graph.mover.push(side);
        graph.start.push(graph.edges.len());
        let moves = g.pos.legal_moves();
        for &m in moves.as_slice() {
            let check = g.pos.gives_check(m);
            if g.pos.is_capture(m) {
                // The capture's true result, the rule's included (see `code_after`).
                let v = g.capture_verdict(m)?;
                graph.edges.push(Edge { to: EXTERNAL, check, exit: (v.wdl.flip(), v.dtm) });
                continue;
            }
            g.pos.make_move(m);
            let child = g.ix.locate(&g.pos, false);
            g.pos.unmake_move();
            let child = child.ok_or(GenError::TooLarge(g.material))? as usize;
            let code = match val[child] {
                UNK => {
                    graph.edges.push(Edge { to: local[child], check, exit: (Wdl::Draw, 0) });
                    continue;
                }
                v if is_win(v) => loss(plies(v) + 1),
                v => win(plies(v) + 1),
            };
            let exit = match code {
                CAP_DRAW => (Wdl::Draw, 0),
                c if is_win(c) => (Wdl::Win, plies(c)),
                c => (Wdl::Loss, plies(c)),
            };
            graph.edges.push(Edge { to: EXTERNAL, check, exit });
        }
    }
    graph.start.push(graph.edges.len());
    Ok((graph, nodes))
}
