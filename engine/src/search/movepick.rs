//! The staged move picker: hands out a node's legal moves best-first, generating each group only when the
//! earlier ones failed to cut.
//!
//! Main search: hash move, captures that do not lose material (victim value, then capture history), the two
//! killers, the counter-move, quiet moves by history (butterfly plus continuation), and last the losing
//! captures. In check: hash move, then every evasion (captures first). Quiescence: hash move if it is a
//! capture, then captures (or evasions when in check), and at the quiescence search's first ply, where the
//! search asks for them, the quiet moves that give check (by history).
//!
//! The generator is exactly legal, so generated moves need no check; the hash move, killers and
//! counter-move come from other positions and are checked with `Position::is_legal` first.

use super::history::{from_to, piece_to, Histories};
use super::see::{see_ge, victim_value, SeeValues};
use crate::movegen::{GenType, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Color, Move, Piece, PieceKind};
use crate::Bitboard;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    MainTt,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    EvasionTt,
    GenEvasions,
    Evasions,
    QsTt,
    QsGenCaptures,
    QsCaptures,
    QsGenChecks,
    QsChecks,
    Done,
}

/// What move ordering knows about the line leading to the node: the histories and the continuation rows of
/// the moves one, two and four plies earlier.
#[derive(Copy, Clone)]
pub struct OrderInfo<'a> {
    /// The thread's statistics.
    pub hist: &'a Histories,
    /// Continuation-history rows of the moves 1, 2 and 4 plies before this node.
    pub rows: [usize; 3],
    /// Exchange values (the search's parameters).
    pub see: &'a SeeValues,
    /// Weight of threat escapes in quiet-move ordering (`SearchParams::threat_order`; 0: off).
    pub threat_weight: i32,
    /// Bonus of a quiet checking move in quiet-move ordering (`SearchParams::check_order`; 0: off).
    pub check_weight: i32,
}

/// Score of an evasion capture: always ahead of quiet evasions.
const EVASION_CAPTURE: i32 = 1 << 24;

/// Captures are ordered by victim value times this plus capture history over [`CAPTURE_HISTORY_DIVISOR`]:
/// the victim dominates (a rook and a horse lie about 6,300 apart here), while the history, at most ±2,048
/// after the division, reorders victims of close worth, such as a pawn and an advisor.
const VICTIM_WEIGHT: i32 = 16;

/// See [`VICTIM_WEIGHT`].
const CAPTURE_HISTORY_DIVISOR: i32 = 8;

/// A capture stays among the good captures when it loses at most its ordering score over this in exchange:
/// about 40% of the victim's value (16/40), more when its history is good, so that a capture the history
/// favours is still tried early despite a small loss on the board.
const GOOD_CAPTURE_SEE_DIVISOR: i32 = 40;

/// The squares the opponent of the side to move attacks with its cheap pieces, for threat-aware ordering.
struct Threats {
    /// Attacked by a pawn, advisor or elephant (worth less than a horse or cannon).
    by_low: Bitboard,
    /// Attacked by any of those or a horse or cannon (worth less than a rook). A cannon is counted only on
    /// the pieces it could capture now, not on the empty squares behind its screen.
    by_minor: Bitboard,
}

impl Threats {
    fn against(pos: &Position) -> Threats {
        let them: Color = !pos.side_to_move();
        let attacks = |kinds: &[PieceKind]| {
            let mut b = Bitboard::EMPTY;
            for &kind in kinds {
                let piece = Piece::new(them, kind);
                for sq in pos.pieces(them, kind) {
                    b |= pos.attacks_of(piece, sq);
                }
            }
            b
        };
        let by_low = attacks(&[PieceKind::Pawn, PieceKind::Advisor, PieceKind::Elephant]);
        let by_minor = by_low | attacks(&[PieceKind::Horse, PieceKind::Cannon]);
        Threats { by_low, by_minor }
    }
}

/// Hands out the moves of one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    counter: Option<Move>,
    /// Moves already handed out before their group was generated (hash move, killers, counter-move).
    special: [Option<Move>; 4],
    list: MoveList,
    scores: [i32; MAX_MOVES],
    cur: usize,
    /// Losing captures are moved to `list[..bad_end]` while the good ones are handed out.
    bad_end: usize,
    /// Where the quiet moves start in `list`.
    quiet_start: usize,
    /// Quiescence: whether quiet checks follow the captures.
    qs_checks: bool,
}

impl MovePicker {
    fn with_stage(stage: Stage, tt_move: Option<Move>) -> MovePicker {
        MovePicker {
            stage,
            tt_move,
            killers: [None; 2],
            counter: None,
            special: [tt_move, None, None, None],
            list: MoveList::new(),
            scores: [0; MAX_MOVES],
            cur: 0,
            bad_end: 0,
            quiet_start: 0,
            qs_checks: false,
        }
    }

    /// A picker for an inner node of the main search.
    pub fn new_main(
        pos: &Position,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| pos.is_legal(m));
        if pos.in_check() {
            return MovePicker::with_stage(Stage::EvasionTt, tt_move);
        }
        let mut p = MovePicker::with_stage(Stage::MainTt, tt_move);
        p.killers = killers;
        p.counter = counter;
        p
    }

    /// A picker for a quiescence node: captures only, or all evasions when in check.
    pub fn new_qsearch(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        if pos.in_check() {
            let tt_move = tt_move.filter(|&m| pos.is_legal(m));
            return MovePicker::with_stage(Stage::EvasionTt, tt_move);
        }
        let tt_move = tt_move.filter(|&m| pos.is_capture(m) && pos.is_legal(m));
        MovePicker::with_stage(Stage::QsTt, tt_move)
    }

    /// A quiescence picker that hands out the quiet checking moves after the captures (out of check; in
    /// check it is [`MovePicker::new_qsearch`]).
    pub fn new_qsearch_with_checks(pos: &Position, tt_move: Option<Move>) -> MovePicker {
        let mut p = MovePicker::new_qsearch(pos, tt_move);
        p.qs_checks = p.stage == Stage::QsTt;
        p
    }

    fn score_captures(&mut self, pos: &Position, ord: &OrderInfo, from: usize) {
        for i in from..self.list.len() {
            let m = self.list[i];
            let (Some(piece), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
                continue;
            };
            self.scores[i] = VICTIM_WEIGHT * victim_value(pos, m, ord.see)
                + ord.hist.capture(piece, m, victim.kind()) / CAPTURE_HISTORY_DIVISOR;
        }
    }

    fn quiet_score(pos: &Position, ord: &OrderInfo, m: Move) -> i32 {
        let Some(piece) = pos.piece_at(m.from()) else { return 0 };
        let col = piece_to(piece, m);
        2 * ord.hist.butterfly(pos, m)
            + ord.hist.continuation(ord.rows[0], col)
            + ord.hist.continuation(ord.rows[1], col)
            + ord.hist.continuation(ord.rows[2], col) / 2
    }

    fn score_quiets(&mut self, pos: &Position, ord: &OrderInfo, from: usize) {
        if ord.threat_weight > 0 || ord.check_weight > 0 {
            self.score_quiets_with_threats(pos, ord, from);
            return;
        }
        // `quiet_score` with the four tables sliced once for the whole list (callgrind: the per-move index
        // arithmetic and bounds checks were most of the scoring).
        let butterfly = ord.hist.butterfly_of(pos);
        let [r0, r1, r2] = ord.rows.map(|r| ord.hist.continuation_row(r));
        for i in from..self.list.len() {
            let m = self.list[i];
            let Some(piece) = pos.piece_at(m.from()) else {
                self.scores[i] = 0;
                continue;
            };
            let col = piece_to(piece, m);
            let b = butterfly[from_to(m)] as i32;
            self.scores[i] = 2 * b + r0[col] as i32 + r1[col] as i32 + r2[col] as i32 / 2;
        }
    }

    /// `score_quiets` plus the threat terms of [`OrderInfo::threat_weight`] and the check bonus of
    /// [`OrderInfo::check_weight`].
    fn score_quiets_with_threats(&mut self, pos: &Position, ord: &OrderInfo, from: usize) {
        let threats = if ord.threat_weight > 0 {
            Threats::against(pos)
        } else {
            Threats { by_low: Bitboard::EMPTY, by_minor: Bitboard::EMPTY }
        };
        let rook_weight = ord.threat_weight;
        let minor_weight = ord.threat_weight * 3 / 5;
        for i in from..self.list.len() {
            let m = self.list[i];
            let Some(piece) = pos.piece_at(m.from()) else {
                self.scores[i] = 0;
                continue;
            };
            let (danger, weight) = match piece.kind() {
                PieceKind::Rook => (threats.by_minor, rook_weight),
                PieceKind::Horse | PieceKind::Cannon => (threats.by_low, minor_weight),
                _ => (Bitboard::EMPTY, 0),
            };
            let threat = match (danger.has(m.from()), danger.has(m.to())) {
                (true, false) => weight,
                (false, true) => -weight,
                _ => 0,
            };
            let check = if ord.check_weight > 0 && pos.gives_check(m) { ord.check_weight } else { 0 };
            self.scores[i] = Self::quiet_score(pos, ord, m) + threat + check;
        }
    }

    fn score_evasions(&mut self, pos: &Position, ord: &OrderInfo) {
        for i in 0..self.list.len() {
            let m = self.list[i];
            self.scores[i] = if pos.is_capture(m) {
                EVASION_CAPTURE + VICTIM_WEIGHT * victim_value(pos, m, ord.see)
            } else {
                Self::quiet_score(pos, ord, m)
            };
        }
    }

    /// Moves the best-scored move of `list[cur..end]` to `cur` and returns it with its score.
    #[inline]
    fn select_best(&mut self, end: usize) -> (Move, i32) {
        // The first maximum, as a plain selection sort finds it; keeping the best score in a register lets
        // the compiler use conditional moves, where the compare branch mispredicted often (cachegrind).
        let mut best = self.cur;
        let mut best_score = self.scores[self.cur];
        for (i, &s) in self.scores[..end].iter().enumerate().skip(self.cur + 1) {
            let better = s > best_score;
            best = if better { i } else { best };
            best_score = if better { s } else { best_score };
        }
        let slice = self.list.as_mut_slice();
        slice.swap(self.cur, best);
        self.scores.swap(self.cur, best);
        (slice[self.cur], self.scores[self.cur])
    }

    fn is_special(&self, m: Move) -> bool {
        self.special.contains(&Some(m))
    }

    /// A killer or counter-move, if it is a legal quiet move not handed out yet.
    fn usable_quiet(&self, pos: &Position, m: Option<Move>) -> Option<Move> {
        m.filter(|&m| !self.is_special(m) && !pos.is_capture(m) && pos.is_legal(m))
    }

    /// The next move, or `None` when all are out. With `skip_quiets` the remaining quiet moves (not yet
    /// handed out) are dropped; losing captures still come.
    pub fn next(&mut self, pos: &Position, ord: &OrderInfo, skip_quiets: bool) -> Option<Move> {
        loop {
            match self.stage {
                Stage::MainTt | Stage::EvasionTt | Stage::QsTt => {
                    self.stage = match self.stage {
                        Stage::MainTt => Stage::GenCaptures,
                        Stage::EvasionTt => Stage::GenEvasions,
                        _ => Stage::QsGenCaptures,
                    };
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GenCaptures | Stage::QsGenCaptures => {
                    pos.generate(GenType::Captures, &mut self.list);
                    self.score_captures(pos, ord, 0);
                    self.cur = 0;
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::GoodCaptures
                    } else {
                        Stage::QsCaptures
                    };
                }
                Stage::GoodCaptures => {
                    let end = self.list.len();
                    while self.cur < end {
                        let (m, score) = self.select_best(end);
                        if Some(m) == self.tt_move {
                            self.cur += 1;
                            continue;
                        }
                        if see_ge(pos, m, -score / GOOD_CAPTURE_SEE_DIVISOR, ord.see) {
                            self.cur += 1;
                            return Some(m);
                        }
                        self.list.as_mut_slice()[self.bad_end] = m;
                        self.bad_end += 1;
                        self.cur += 1;
                    }
                    self.quiet_start = end;
                    self.stage = Stage::Killer1;
                }
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let (slot, next) = match self.stage {
                        Stage::Killer1 => (1, Stage::Killer2),
                        Stage::Killer2 => (2, Stage::Counter),
                        _ => (3, Stage::GenQuiets),
                    };
                    self.stage = next;
                    let candidate = match slot {
                        1 => self.killers[0],
                        2 => self.killers[1],
                        _ => self.counter,
                    };
                    if let Some(m) = self.usable_quiet(pos, candidate) {
                        self.special[slot] = Some(m);
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    if !skip_quiets {
                        pos.generate(GenType::Quiets, &mut self.list);
                        self.score_quiets(pos, ord, self.quiet_start);
                    }
                    self.cur = self.quiet_start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let end = self.list.len();
                    while !skip_quiets && self.cur < end {
                        let (m, _) = self.select_best(end);
                        self.cur += 1;
                        if !self.is_special(m) {
                            return Some(m);
                        }
                    }
                    self.cur = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.cur < self.bad_end {
                        self.cur += 1;
                        return Some(self.list[self.cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    pos.generate(GenType::All, &mut self.list);
                    self.score_evasions(pos, ord);
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions | Stage::QsCaptures | Stage::QsChecks => {
                    let end = self.list.len();
                    while self.cur < end {
                        let (m, _) = self.select_best(end);
                        self.cur += 1;
                        if Some(m) != self.tt_move {
                            return Some(m);
                        }
                    }
                    self.stage = if self.stage == Stage::QsCaptures && self.qs_checks {
                        Stage::QsGenChecks
                    } else {
                        Stage::Done
                    };
                }
                Stage::QsGenChecks => {
                    // The hash move is a capture here, so none of these repeats it.
                    self.list.clear();
                    pos.generate(GenType::Quiets, &mut self.list);
                    self.list.retain(|m| pos.gives_check(m));
                    self.score_quiets(pos, ord, 0);
                    self.cur = 0;
                    self.stage = Stage::QsChecks;
                }
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;
    use crate::search::history::NO_ROW;
    use crate::search::params::SearchParams;

    /// The search's default exchange values.
    fn see() -> &'static SeeValues {
        static PARAMS: std::sync::OnceLock<SearchParams> = std::sync::OnceLock::new();
        PARAMS.get_or_init(SearchParams::default).see_values()
    }

    /// Perft where every node's moves come from a main-search picker, fed with hash moves, killers and
    /// counter-moves taken from elsewhere in the tree (often illegal here, sometimes captures, sometimes
    /// duplicates of each other), so the legality filter and the de-duplication are exercised.
    fn picker_perft(pos: &mut Position, depth: u32, hist: &Histories, junk: &mut Vec<Move>) -> u64 {
        if depth == 0 {
            return 1;
        }
        let pick = |i: usize| junk.get(junk.len().wrapping_sub(i + 1)).copied();
        let killers = [pick(3), pick(5)];
        let counter = if depth.is_multiple_of(2) { pick(3) } else { pick(7) };
        // Odd depths order quiets with the threat terms, so their scoring is exercised too.
        let threat_weight = if depth % 2 == 1 { 16_000 } else { 0 };
        let ord =
            OrderInfo { hist, rows: [NO_ROW; 3], see: see(), threat_weight, check_weight: threat_weight };
        let mut picker = MovePicker::new_main(pos, pick(1), killers, counter);
        let mut seen = Vec::new();
        while let Some(m) = picker.next(pos, &ord, false) {
            seen.push(m);
        }
        let legal = pos.legal_moves();
        let mut a: Vec<u16> = seen.iter().map(|m| m.to_u16()).collect();
        let mut b: Vec<u16> = legal.iter().map(|m| m.to_u16()).collect();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "picker moves differ from the legal moves in {pos:?}");
        let mut n = 0;
        for m in seen {
            junk.push(m);
            pos.make_move(m);
            n += picker_perft(pos, depth - 1, hist, junk);
            pos.unmake_move();
        }
        n
    }

    const FENS: [&str; 4] = [
        crate::position::START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    ];

    #[test]
    fn picker_perft_equals_perft() {
        let hist = Histories::new();
        for fen in FENS {
            let mut pos = Position::from_fen(fen).expect("valid fen");
            let depth = 3;
            let expected = perft(&mut pos, depth);
            let mut junk = Vec::new();
            assert_eq!(picker_perft(&mut pos, depth, &hist, &mut junk), expected, "{fen}");
        }
    }

    #[test]
    fn quiescence_picker_yields_captures_or_evasions() {
        let hist = Histories::new();
        let ord = OrderInfo { hist: &hist, rows: [NO_ROW; 3], see: see(), threat_weight: 0, check_weight: 0 };
        for fen in FENS {
            let pos = Position::from_fen(fen).expect("valid fen");
            let tt = pos.legal_moves().first().copied();
            let mut picker = MovePicker::new_qsearch(&pos, tt);
            let mut got = Vec::new();
            while let Some(m) = picker.next(&pos, &ord, false) {
                got.push(m.to_u16());
            }
            let mut want = MoveList::new();
            pos.generate(if pos.in_check() { GenType::All } else { GenType::Captures }, &mut want);
            let mut want: Vec<u16> = want.iter().map(|m| m.to_u16()).collect();
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{fen}");
        }
    }

    #[test]
    fn quiescence_picker_with_checks_adds_the_quiet_checks_after_the_captures() {
        let hist = Histories::new();
        let ord = OrderInfo { hist: &hist, rows: [NO_ROW; 3], see: see(), threat_weight: 0, check_weight: 0 };
        let mut some_check = false;
        for fen in FENS {
            let pos = Position::from_fen(fen).expect("valid fen");
            // Every legal move as the hash move in turn: a quiet one is never handed out twice.
            for tt in pos.legal_moves().iter().copied().map(Some).chain([None]) {
                let mut picker = MovePicker::new_qsearch_with_checks(&pos, tt);
                let mut got = Vec::new();
                while let Some(m) = picker.next(&pos, &ord, false) {
                    got.push(m);
                }
                let want: Vec<Move> = pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| pos.in_check() || pos.is_capture(m) || pos.gives_check(m))
                    .collect();
                if !pos.in_check() {
                    // The captures come first.
                    let first_quiet = got.iter().position(|&m| !pos.is_capture(m)).unwrap_or(got.len());
                    assert!(got[first_quiet..].iter().all(|&m| !pos.is_capture(m)), "{fen}");
                    some_check |= first_quiet < got.len();
                }
                let mut got: Vec<u16> = got.iter().map(|m| m.to_u16()).collect();
                let mut want: Vec<u16> = want.iter().map(|m| m.to_u16()).collect();
                got.sort_unstable();
                want.sort_unstable();
                assert_eq!(got, want, "{fen}");
            }
        }
        assert!(some_check, "no test position has a quiet check");
    }

    #[test]
    fn threatened_rook_escapes_first() {
        // The black horse on b7 attacks the red rook on c5; with empty histories only the threat terms
        // order the quiet moves, so the rook's moves to squares no cheap piece attacks come first.
        let pos = Position::from_fen("4k4/9/1n7/9/2R6/9/9/9/9/3K1N3 w - - 0 1").expect("valid fen");
        let hist = Histories::new();
        let ord =
            OrderInfo { hist: &hist, rows: [NO_ROW; 3], see: see(), threat_weight: 16_000, check_weight: 0 };
        let threats = Threats::against(&pos);
        let rook = pos.pieces(Color::Red, PieceKind::Rook).lsb().expect("a rook");
        assert!(threats.by_minor.has(rook));
        let mut picker = MovePicker::new_main(&pos, None, [None; 2], None);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &ord, false) {
            order.push(m);
        }
        let escapes = order.iter().filter(|m| m.from() == rook && !threats.by_minor.has(m.to())).count();
        assert!(escapes > 5);
        assert!(
            order[..escapes].iter().all(|m| m.from() == rook && !threats.by_minor.has(m.to())),
            "{order:?}"
        );
    }

    #[test]
    fn skip_quiets_drops_only_quiets() {
        let hist = Histories::new();
        let ord = OrderInfo { hist: &hist, rows: [NO_ROW; 3], see: see(), threat_weight: 0, check_weight: 0 };
        let pos = Position::from_fen(FENS[1]).expect("valid fen");
        let mut picker = MovePicker::new_main(&pos, None, [None; 2], None);
        let mut got = Vec::new();
        while let Some(m) = picker.next(&pos, &ord, true) {
            got.push(m);
        }
        let mut captures = MoveList::new();
        pos.generate(GenType::Captures, &mut captures);
        assert_eq!(got.len(), captures.len());
        assert!(got.iter().all(|&m| pos.is_capture(m)));
    }
}
