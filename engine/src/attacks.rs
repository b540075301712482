//! Attack tables for every piece, built at compile time by `const fn`.
//!
//! Rooks and cannons look up the occupancy of their rank (9 bits, read straight from the board word) and of
//! their file (10 bits, read from a transposed copy of the occupancy that `Position` keeps up to date), so no
//! ray is walked in the hot path. Horses and elephants index a 16-entry table by which of their four legs or
//! eyes are occupied. Every table has a slow reference (`*_slow`) that walks the board, and the tests
//! compare the two over random occupancies.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// A compile-time table of `$n` entries, entry `$i` being `$entry` (starting from `$zero` everywhere): the
/// `while` loop every table builder here needs, as a `const` context cannot run an iterator or a closure.
macro_rules! table {
    ($n:expr, $zero:expr, |$i:ident| $entry:expr) => {{
        let mut a = [const { $zero }; $n];
        let mut $i = 0;
        while $i < $n {
            a[$i] = $entry;
            $i += 1;
        }
        a
    }};
}

/// Index of `sq` in the transposed occupancy word (file-major: `file * 10 + rank`).
pub const TRANSPOSE: [u8; 90] = table!(90, 0u8, |i| ((i % 9) * 10 + i / 9) as u8);

/// The bit of each square in the transposed occupancy word: a table load is cheaper than the variable
/// 128-bit shift `1 << TRANSPOSE[sq]` on the make/unmake, legality and exchange paths.
static TRANSPOSED_BITS: [u128; 90] = table!(90, 0u128, |i| 1u128 << TRANSPOSE[i]);

/// The bit of `sq` in the transposed occupancy word.
#[inline(always)]
pub fn transposed_bit(sq: Square) -> u128 {
    TRANSPOSED_BITS[sq.index()]
}

const fn sq_at(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 9) as i32 + df;
    let r = (sq / 9) as i32 + dr;
    if f < 0 || f > 8 || r < 0 || r > 9 {
        None
    } else {
        Some((r * 9 + f) as usize)
    }
}

const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn palace_of(sq: usize) -> u128 {
    let p = Bitboard::PALACE;
    if p[0].0 & bit(sq) != 0 {
        p[0].0
    } else if p[1].0 & bit(sq) != 0 {
        p[1].0
    } else {
        0
    }
}

const fn half_of(sq: usize) -> u128 {
    if sq < 45 {
        Bitboard::HALF[0].0
    } else {
        Bitboard::HALF[1].0
    }
}

const fn steps(sq: usize, dirs: [(i32, i32); 4], within: u128) -> u128 {
    let mut m = 0;
    let mut i = 0;
    while i < 4 {
        m |= bit_at(sq, dirs[i].0, dirs[i].1);
        i += 1;
    }
    m & within
}

/// King steps inside its palace.
pub static KING_ATTACKS: [Bitboard; 90] =
    table!(90, Bitboard(0), |s| Bitboard(steps(s, ORTHO, palace_of(s))));

/// Advisor steps inside its palace.
pub static ADVISOR_ATTACKS: [Bitboard; 90] =
    table!(90, Bitboard(0), |s| Bitboard(steps(s, DIAG, palace_of(s))));

/// A piece that moves in one step, or is blocked at the point between (horse leg, elephant eye):
/// the four blocking points as fixed steps from the piece, and for each square the targets for each of
/// the 16 blocked/unblocked patterns.
///
/// The blocking points sit at the same step from every square, so [`lame_leaper`] reads all four from
/// one window of the board instead of shifting the 128-bit board once per point (which took a quarter
/// of the move generator's instructions). Where a step leaves the board (or wraps to another rank) the
/// direction has no targets, so whatever the window holds there selects the same target set.
struct LameLeaper {
    window_bits: [u32; 4],
    gather: Gather,
    targets: [[Bitboard; 16]; 90],
}

/// How [`lame_leaper`] packs the four blocking bits of its window into a table index with one
/// multiplication instead of four shift-and-mask steps: `(window & mask) * magic` (wrapping, 32 bits)
/// moves the bit of direction `d` to bit `28 + slot[d]`, and no other product lands in bits 28-31.
#[derive(Copy, Clone)]
struct Gather {
    mask: u32,
    magic: u32,
    slot: [u32; 4],
}

impl Gather {
    /// The index the multiplication makes of `window`.
    const fn index(self, window: u32) -> usize {
        ((window & self.mask).wrapping_mul(self.magic) >> 28) as usize
    }
}

/// A [`Gather`] for the window bits `bits` (all below 28): tries every assignment of directions to index
/// bits and keeps the first for which all 16 patterns come out right.
const fn gather(bits: [u32; 4]) -> Gather {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        mask |= 1 << bits[d];
        d += 1;
    }
    let mut a = 0;
    while a < 4 {
        let mut b = 0;
        while b < 4 {
            let mut c = 0;
            while c < 4 {
                // The fourth slot is the one left of 0..4, whose sum is 6.
                if a != b && a != c && b != c {
                    let slot = [a, b, c, 6 - a - b - c];
                    let mut magic = 0u32;
                    let mut d = 0;
                    while d < 4 {
                        magic |= 1 << (28 + slot[d] - bits[d]);
                        d += 1;
                    }
                    let g = Gather { mask, magic, slot };
                    let mut ok = true;
                    let mut pattern = 0;
                    while pattern < 16 {
                        let mut window = 0u32;
                        let mut expected = 0;
                        let mut d = 0;
                        while d < 4 {
                            if pattern >> d & 1 != 0 {
                                window |= 1 << bits[d];
                                expected |= 1 << slot[d];
                            }
                            d += 1;
                        }
                        // Points outside the mask must not matter either.
                        if g.index(window | !mask) != expected {
                            ok = false;
                        }
                        pattern += 1;
                    }
                    if ok {
                        return g;
                    }
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    panic!("no multiplier gathers these window bits")
}

/// Where square `sq + k` of the board lands in [`lame_leaper`]'s window around `sq`; blocking points are
/// at most ten squares away, so the window never reaches below bit 0 or above bit 31.
const WINDOW_CENTRE: i32 = 16;

/// The window bit of the point one step (`df`, `dr`) away.
const fn window_bit((df, dr): (i32, i32)) -> u32 {
    (WINDOW_CENTRE + dr * 9 + df) as u32
}

/// Whether `point` lands on window bit `bit` of the window around `sq` (checked as the tables are built).
const fn in_window(sq: usize, point: usize, bit: u32) -> bool {
    point as i32 - sq as i32 + WINDOW_CENTRE == bit as i32
}

/// The window bits of the four steps `dirs`.
const fn window_bits(dirs: [(i32, i32); 4]) -> [u32; 4] {
    [window_bit(dirs[0]), window_bit(dirs[1]), window_bit(dirs[2]), window_bit(dirs[3])]
}

const fn fill_patterns(out: &mut [Bitboard; 16], gather: Gather, dir_targets: [u128; 4]) {
    let mut idx = 0;
    while idx < 16 {
        let mut m = 0;
        let mut d = 0;
        while d < 4 {
            if idx >> gather.slot[d] & 1 == 0 {
                m |= dir_targets[d];
            }
            d += 1;
        }
        out[idx] = Bitboard(m);
        idx += 1;
    }
}

/// The three [`LameLeaper`] tables.
#[derive(Copy, Clone)]
enum Leaper {
    /// Two diagonal steps, blocked at the eye, never across the river.
    Elephant,
    /// One orthogonal step (the leg) then one diagonal step outward.
    Horse,
    /// Horses that attack a square: for target `t`, the leg of any attacking horse is a diagonal neighbour
    /// of `t`.
    HorseReverse,
}

/// The bit of the point (`df`, `dr`) away from `sq`, or 0 off the board.
const fn bit_at(sq: usize, df: i32, dr: i32) -> u128 {
    match sq_at(sq, df, dr) {
        Some(t) => bit(t),
        None => 0,
    }
}

/// The targets of `kind` on `s` behind its blocking point one step (`df`, `dr`) away.
const fn leaper_targets(kind: Leaper, s: usize, df: i32, dr: i32) -> u128 {
    match kind {
        Leaper::Elephant => match sq_at(s, 2 * df, 2 * dr) {
            Some(to) if half_of(to) == half_of(s) => bit(to),
            _ => 0,
        },
        // Outward: keep the step's direction and add one sideways step either way.
        Leaper::Horse if df == 0 => bit_at(s, 1, 2 * dr) | bit_at(s, -1, 2 * dr),
        Leaper::Horse => bit_at(s, 2 * df, 1) | bit_at(s, 2 * df, -1),
        Leaper::HorseReverse => bit_at(s, df, 2 * dr) | bit_at(s, 2 * df, dr),
    }
}

/// The [`LameLeaper`] table of `kind`.
const fn lame_leaper_table(kind: Leaper) -> LameLeaper {
    let dirs = match kind {
        Leaper::Horse => ORTHO,
        Leaper::Elephant | Leaper::HorseReverse => DIAG,
    };
    let mut t = LameLeaper {
        window_bits: window_bits(dirs),
        gather: gather(window_bits(dirs)),
        targets: [[Bitboard(0); 16]; 90],
    };
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        let mut dir_targets = [0u128; 4];
        while d < 4 {
            let (df, dr) = dirs[d];
            if let Some(block) = sq_at(s, df, dr) {
                let m = leaper_targets(kind, s, df, dr);
                if m != 0 {
                    assert!(in_window(s, block, t.window_bits[d]));
                    dir_targets[d] = m;
                }
            }
            d += 1;
        }
        fill_patterns(&mut t.targets[s], t.gather, dir_targets);
        s += 1;
    }
    t
}

static ELEPHANT: LameLeaper = lame_leaper_table(Leaper::Elephant);
static HORSE: LameLeaper = lame_leaper_table(Leaper::Horse);
static HORSE_REVERSE: LameLeaper = lame_leaper_table(Leaper::HorseReverse);

#[inline(always)]
fn lame_leaper(table: &LameLeaper, sq: Square, occ: Bitboard) -> Bitboard {
    // Bit `WINDOW_CENTRE + k` of the window is square `sq + k`; the board's top bits are zero, so the
    // shift up cannot lose a point.
    let window = ((occ.0 << WINDOW_CENTRE) >> sq.index()) as u32;
    table.targets[sq.index()][table.gather.index(window)]
}

/// Elephant moves from `sq` with the board occupied by `occ`.
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    lame_leaper(&ELEPHANT, sq, occ)
}

/// Horse moves from `sq` with the board occupied by `occ`.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    lame_leaper(&HORSE, sq, occ)
}

/// The points from which a horse would attack `sq` with the board occupied by `occ`.
#[inline(always)]
pub fn horse_attackers_from(sq: Square, occ: Bitboard) -> Bitboard {
    lame_leaper(&HORSE_REVERSE, sq, occ)
}

/// The horse legs around `sq`: the points whose occupation blocks horses aimed at `sq` (its diagonal neighbours).
#[inline(always)]
pub fn diagonal_neighbours(sq: Square) -> Bitboard {
    ADVISOR_STEPS[sq.index()]
}

static ADVISOR_STEPS: [Bitboard; 90] = table!(90, Bitboard(0), |s| Bitboard(steps(s, DIAG, u128::MAX)));

const fn pawn_steps(color: Color, sq: usize) -> u128 {
    let fwd = match color {
        Color::Red => 1,
        Color::Black => -1,
    };
    let crossed = match color {
        Color::Red => sq >= 45,
        Color::Black => sq < 45,
    };
    let sideways = if crossed { bit_at(sq, 1, 0) | bit_at(sq, -1, 0) } else { 0 };
    bit_at(sq, 0, fwd) | sideways
}

/// Pawn moves by colour and square: forward, and sideways once across the river.
pub static PAWN_ATTACKS: [[Bitboard; 90]; 2] = [
    table!(90, Bitboard(0), |s| Bitboard(pawn_steps(Color::Red, s))),
    table!(90, Bitboard(0), |s| Bitboard(pawn_steps(Color::Black, s))),
];

/// The orthogonal neighbours of all of `pieces` at once, by shifting the set: a superset of where pawns
/// there can move, whatever their colour, for the move generator's quick test whether any pawn can capture.
#[inline(always)]
pub fn orthogonal_neighbours_all(pieces: Bitboard) -> Bitboard {
    let b = pieces.0;
    let sideways = ((b & !Bitboard::FILES[8].0) << 1) | ((b & !Bitboard::FILES[0].0) >> 1);
    Bitboard(((b << 9) | (b >> 9) | sideways) & Bitboard::FULL.0)
}

/// Every point an elephant of each colour can ever stand on (seven on its own side of the river, as
/// `fen::square_allowed` enforces): no elephant can capture a piece elsewhere.
pub static ELEPHANT_POINTS: [Bitboard; 2] = {
    let mut a = [Bitboard(0); 2];
    let mut s = 0;
    while s < 90 {
        // Red's: even files and ranks 0, 2, 4 with file + rank = 2 (mod 4): c0 g0 a2 e2 i2 c4 g4; Black's mirrored.
        let (f, r) = (s % 9, s / 9);
        let own_rank = if r < 5 { r } else { 9 - r };
        if f % 2 == 0 && own_rank % 2 == 0 && (f + own_rank) % 4 == 2 {
            a[if r < 5 { 0 } else { 1 }].0 |= bit(s);
        }
        s += 1;
    }
    a
};

/// The points from which a pawn of the given colour attacks a square.
pub static PAWN_ATTACKERS_FROM: [[Bitboard; 90]; 2] = [
    table!(90, Bitboard(0), |t| Bitboard(pawn_attackers(Color::Red, t))),
    table!(90, Bitboard(0), |t| Bitboard(pawn_attackers(Color::Black, t))),
];

/// The points from which a pawn of `color` steps to `t`.
const fn pawn_attackers(color: Color, t: usize) -> u128 {
    let mut m = 0;
    let mut s = 0;
    while s < 90 {
        if pawn_steps(color, s) & bit(t) != 0 {
            m |= bit(s);
        }
        s += 1;
    }
    m
}

/// Rook and cannon targets along a line of `len` points for a piece at `pos` and line occupancy `occ`:
/// rook reach in the low 16 bits, cannon captures in the high 16.
const fn line_slide(pos: i32, occ: u32, len: i32) -> u32 {
    let mut rook = 0u32;
    let mut cannon = 0u32;
    let mut dir = -1;
    while dir <= 1 {
        let mut p = pos + dir;
        let mut screen = false;
        while p >= 0 && p < len {
            let occupied = occ >> p & 1 != 0;
            if !screen {
                rook |= 1 << p;
                if occupied {
                    screen = true;
                }
            } else if occupied {
                cannon |= 1 << p;
                break;
            }
            p += dir;
        }
        dir += 2;
    }
    rook | cannon << 16
}

static RANK_SLIDE: [[u32; 512]; 9] =
    table!(9, [0u32; 512], |f| table!(512, 0u32, |o| line_slide(f as i32, o as u32, 9)));

static FILE_SLIDE: [[u32; 1024]; 10] =
    table!(10, [0u32; 1024], |r| table!(1024, 0u32, |o| line_slide(r as i32, o as u32, 10)));

/// A set of ranks (10 bits) spread onto file a.
static SPREAD_FILE: [u128; 1024] = {
    let mut a = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m >> r & 1 != 0 {
                a[m] |= bit(r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    a
};

/// Rank and file lookups for a slider at `sq`; `shift` 0 selects the rook part, 16 the cannon part.
#[inline(always)]
fn slide(sq: Square, occ: Bitboard, occ_t: u128, shift: u32) -> Bitboard {
    let at = &SLIDE_AT[sq.index()];
    let (f, r) = (at.file as usize, at.rank as usize);
    let rank_occ = (occ.0 >> at.rank_shift) as usize & 0x1ff;
    let file_occ = (occ_t >> at.file_shift) as usize & 0x3ff;
    let h = (RANK_SLIDE[f][rank_occ] >> shift) & 0x1ff;
    let v = (FILE_SLIDE[r][file_occ] >> shift) & 0x3ff;
    // Multiplying by the rank's first bit places the rank's bits with fewer instructions than the
    // general variable 128-bit shift.
    Bitboard(((h as u128) * RANK_BASE[r]) | (SPREAD_FILE[v as usize] << f))
}

/// Where a slider's rank and file lie in the occupancy words, per square: read from a table, as dividing
/// the square by 9 costs more instructions.
struct SlideAt {
    file: u8,
    rank: u8,
    /// The rank's first bit in the board word.
    rank_shift: u8,
    /// The file's first bit in the transposed word.
    file_shift: u8,
}

/// The bit of each rank's a-file point.
static RANK_BASE: [u128; 10] = table!(10, 0u128, |r| bit(r * 9));

static SLIDE_AT: [SlideAt; 90] =
    table!(90, SlideAt { file: 0, rank: 0, rank_shift: 0, file_shift: 0 }, |s| SlideAt {
        file: (s % 9) as u8,
        rank: (s / 9) as u8,
        rank_shift: (s / 9 * 9) as u8,
        file_shift: (s % 9 * 10) as u8
    });

/// Rook moves from `sq` (up to and including the first piece in each direction).
/// `occ_t` is the same occupancy transposed (see [`TRANSPOSE`]).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard, occ_t: u128) -> Bitboard {
    slide(sq, occ, occ_t, 0)
}

/// Cannon captures from `sq`: the first piece behind exactly one screen in each direction.
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard, occ_t: u128) -> Bitboard {
    slide(sq, occ, occ_t, 16)
}

/// The points on the file of `sq` a rook there reaches: used for kings facing each other.
#[inline(always)]
pub fn file_attacks(sq: Square, occ_t: u128) -> Bitboard {
    let f = sq.file() as usize;
    let file_occ = (occ_t >> (f * 10)) as usize & 0x3ff;
    let v = FILE_SLIDE[sq.rank() as usize][file_occ] & 0x3ff;
    Bitboard(SPREAD_FILE[v as usize] << f)
}

/// The transposed form of an occupancy (slow; for building positions, not for the hot path).
pub fn transpose(occ: Bitboard) -> u128 {
    occ.fold(0, |t, sq| t | 1u128 << TRANSPOSE[sq.index()])
}

/// Squares on the four rays from `sq` to the edge of the board, by direction (up, down, right, left).
pub static RAYS: [[Bitboard; 4]; 90] =
    table!(90, [Bitboard(0); 4], |s| table!(4, Bitboard(0), |d| ray(s, ORTHO[d])));

/// The points from `sq` to the edge of the board in steps of (`df`, `dr`).
const fn ray(sq: usize, (df, dr): (i32, i32)) -> Bitboard {
    let mut m = 0;
    let mut k = 1;
    while let Some(t) = sq_at(sq, df * k, dr * k) {
        m |= bit(t);
        k += 1;
    }
    Bitboard(m)
}

/// The points strictly between two squares on one rank or file (empty if they are not aligned).
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// [`between`] for every pair, built at compile time: the check-evasion and pin logic of the move generator
/// looks it up several times per position, where a lazily built table would cost an atomic load each time.
static BETWEEN: [[Bitboard; 90]; 90] = table!(90, [Bitboard(0); 90], |a| {
    table!(90, Bitboard(0), |b| match RAY_DIRECTION[a][b] as usize {
        4 => Bitboard(0),
        // The points of the ray from `a` up to `b`: those past `b` are on the ray from `b` the same way.
        d => Bitboard(RAYS[a][d].0 & !RAYS[b][d].0 & !bit(b)),
    })
});

/// The ray from `from` through `through` to the edge of the board (`through` included), if the two share a
/// rank or file; empty otherwise.
#[inline(always)]
pub fn ray_through(from: Square, through: Square) -> Bitboard {
    let d = RAY_DIRECTION[from.index()][through.index()] as usize;
    RAYS_OR_EMPTY[from.index()][d]
}

/// The index in [`RAYS`] of the ray from one square that holds another; 4 where none does.
static RAY_DIRECTION: [[u8; 90]; 90] = table!(90, [4u8; 90], |a| table!(90, 4u8, |b| ray_direction(a, b)));

/// The index in [`RAYS`] of the ray from `a` that holds `b`; 4 where none does.
const fn ray_direction(a: usize, b: usize) -> u8 {
    let mut d = 0;
    while d < 4 {
        if RAYS[a][d].0 & bit(b) != 0 {
            return d as u8;
        }
        d += 1;
    }
    4
}

/// [`RAYS`] with a fifth, empty ray for [`RAY_DIRECTION`]'s "none".
static RAYS_OR_EMPTY: [[Bitboard; 5]; 90] =
    table!(90, [Bitboard(0); 5], |s| [RAYS[s][0], RAYS[s][1], RAYS[s][2], RAYS[s][3], Bitboard(0)]);

/// The rank and file through `sq`, without `sq`: every point a rook, cannon or facing king could attack
/// it from.
#[inline(always)]
pub fn lines_through(sq: Square) -> Bitboard {
    LINES[sq.index()]
}

static LINES: [Bitboard; 90] =
    table!(90, Bitboard(0), |s| Bitboard(RAYS[s][0].0 | RAYS[s][1].0 | RAYS[s][2].0 | RAYS[s][3].0));

/// The orthogonal neighbours of `sq`, anywhere on the board: a horse's possible legs.
#[inline(always)]
pub fn orthogonal_neighbours(sq: Square) -> Bitboard {
    ORTHO_STEPS[sq.index()]
}

static ORTHO_STEPS: [Bitboard; 90] = table!(90, Bitboard(0), |s| Bitboard(steps(s, ORTHO, u128::MAX)));

// ---------------------------------------------------------------------------------------------------------
// Slow references: walk the board point by point. Used by the tests and by nothing in the hot path.

fn walk(sq: Square, occ: Bitboard, cannon: bool) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in ORTHO {
        let mut screen = false;
        let mut cur = sq;
        while let Some(next) = cur.offset(df as i8, dr as i8) {
            cur = next;
            let occupied = occ.has(cur);
            if !screen {
                if !cannon {
                    out = out.with(cur);
                }
                if occupied {
                    if !cannon {
                        break;
                    }
                    screen = true;
                }
            } else if occupied {
                out = out.with(cur);
                break;
            }
        }
    }
    out
}

/// Rook moves by walking the board.
pub fn rook_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    walk(sq, occ, false)
}

/// Cannon captures by walking the board.
pub fn cannon_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    walk(sq, occ, true)
}

/// Horse moves by checking each leg.
pub fn horse_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in [(1i8, 2i8), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)] {
        let leg = if dr.abs() == 2 { sq.offset(0, dr / 2) } else { sq.offset(df / 2, 0) };
        if let (Some(leg), Some(to)) = (leg, sq.offset(df, dr)) {
            if !occ.has(leg) {
                out = out.with(to);
            }
        }
    }
    out
}

/// Elephant moves by checking each eye and the river.
pub fn elephant_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in DIAG {
        let (df, dr) = (df as i8, dr as i8);
        if let (Some(eye), Some(to)) = (sq.offset(df, dr), sq.offset(2 * df, 2 * dr)) {
            if !occ.has(eye) && (to.rank() <= 4) == (sq.rank() <= 4) {
                out = out.with(to);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::random::Rng;

    /// A random occupancy, sparse and dense alike.
    fn occupancy(rng: &mut Rng) -> Bitboard {
        let density = rng.next_u64() % 4;
        let mut b = (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
        for _ in 0..density {
            b &= (rng.next_u64() as u128) << 64 | rng.next_u64() as u128;
        }
        Bitboard(b) & Bitboard::FULL
    }

    #[test]
    fn fast_tables_match_slow_walks() {
        let mut rng = Rng::from_state(0x9e3779b97f4a7c15);
        for _ in 0..20_000 {
            let occ = occupancy(&mut rng);
            let occ_t = transpose(occ);
            for sq in Square::all() {
                assert_eq!(rook_attacks(sq, occ, occ_t), rook_attacks_slow(sq, occ), "rook {sq} {occ:?}");
                assert_eq!(
                    cannon_attacks(sq, occ, occ_t),
                    cannon_attacks_slow(sq, occ),
                    "cannon {sq} {occ:?}"
                );
                assert_eq!(horse_attacks(sq, occ), horse_attacks_slow(sq, occ), "horse {sq} {occ:?}");
                assert_eq!(elephant_attacks(sq, occ), elephant_attacks_slow(sq, occ), "elephant {sq}");
                let from: Bitboard = Square::all().filter(|&s| horse_attacks_slow(s, occ).has(sq)).collect();
                assert_eq!(horse_attackers_from(sq, occ), from, "reverse horse {sq}");
                assert_eq!(
                    file_attacks(sq, occ_t),
                    rook_attacks_slow(sq, occ) & Bitboard::FILES[sq.file() as usize]
                );
            }
        }
    }

    #[test]
    fn palace_and_pawn_tables() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(KING_ATTACKS[sq("e1").index()].count(), 4);
        assert_eq!(KING_ATTACKS[sq("d0").index()].count(), 2);
        assert_eq!(KING_ATTACKS[sq("c0").index()].count(), 0);
        assert_eq!(ADVISOR_ATTACKS[sq("e8").index()].count(), 4);
        assert_eq!(ADVISOR_ATTACKS[sq("d7").index()], Bitboard::from_square(sq("e8")));
        // Elephants stay home.
        assert_eq!(elephant_attacks(sq("c4"), Bitboard::EMPTY).count(), 2);
        assert_eq!(elephant_attacks(sq("e2"), Bitboard::EMPTY).count(), 4);
        assert!(elephant_attacks(sq("e2"), Bitboard::from_square(sq("d3"))).count() == 3);
        // Pawns: forward only before the river, sideways after, never back.
        assert_eq!(PAWN_ATTACKS[0][sq("e3").index()], Bitboard::from_square(sq("e4")));
        assert_eq!(PAWN_ATTACKS[0][sq("e5").index()].count(), 3);
        assert_eq!(PAWN_ATTACKS[0][sq("a9").index()], Bitboard::from_square(sq("b9")));
        assert_eq!(PAWN_ATTACKS[1][sq("e6").index()], Bitboard::from_square(sq("e5")));
        assert_eq!(PAWN_ATTACKS[1][sq("e4").index()].count(), 3);
        assert!(PAWN_ATTACKERS_FROM[0][sq("e5").index()].has(sq("e4")));
        assert!(PAWN_ATTACKERS_FROM[0][sq("e5").index()].has(sq("d5")));
        assert!(!PAWN_ATTACKERS_FROM[0][sq("e4").index()].has(sq("d4")));
        assert_eq!(ELEPHANT_POINTS[0].count(), 7);
        assert_eq!(ELEPHANT_POINTS[1], ELEPHANT_POINTS[0].flip_rank());
        assert!(ELEPHANT_POINTS[1].has(sq("c9")) && ELEPHANT_POINTS[1].has(sq("e7")));
        // The points are exactly where a position may hold an elephant, and elephants stay on them.
        for (points, color) in ELEPHANT_POINTS.into_iter().zip([Color::Red, Color::Black]) {
            let elephant = crate::types::Piece::new(color, crate::types::PieceKind::Elephant);
            for s in Square::all() {
                assert_eq!(points.has(s), crate::fen::square_allowed(elephant, s), "{s}");
            }
            for p in points {
                assert_eq!(elephant_attacks(p, Bitboard::EMPTY) & !points, Bitboard::EMPTY);
            }
        }
        // The set-wise neighbours are the union of the per-square table, from any set of points.
        let mut rng = Rng::from_state(0x5851_f42d_4c95_7f2d);
        for _ in 0..2000 {
            let pieces = occupancy(&mut rng);
            let union = pieces.fold(Bitboard::EMPTY, |u, s| u | ORTHO_STEPS[s.index()]);
            assert_eq!(orthogonal_neighbours_all(pieces), union);
        }
        for s in Square::all() {
            for table in &PAWN_ATTACKS {
                assert_eq!(table[s.index()] & !ORTHO_STEPS[s.index()], Bitboard::EMPTY);
            }
        }
    }

    #[test]
    fn between_squares() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(between(sq("e0"), sq("e9")).count(), 8);
        assert_eq!(between(sq("a0"), sq("i0")).count(), 7);
        assert_eq!(between(sq("a0"), sq("b1")).count(), 0);
        assert_eq!(between(sq("e4"), sq("e5")).count(), 0);
        for a in Square::all() {
            assert_eq!(lines_through(a), rook_attacks_slow(a, Bitboard::EMPTY));
            let ortho = horse_attacks_slow(a, Bitboard::EMPTY);
            for b in Square::all() {
                let aligned = a != b && (a.file() == b.file() || a.rank() == b.rank());
                let expected = if aligned {
                    let one = |s: Square| Bitboard::from_square(s);
                    rook_attacks_slow(a, one(b)) & rook_attacks_slow(b, one(a))
                } else {
                    Bitboard::EMPTY
                };
                assert_eq!(between(a, b), expected, "between {a} {b}");
                let ray = RAYS[a.index()].into_iter().find(|r| r.has(b)).unwrap_or(Bitboard::EMPTY);
                assert_eq!(ray_through(a, b), ray, "ray {a} {b}");
                let adjacent = (a.file() as i32 - b.file() as i32).abs()
                    + (a.rank() as i32 - b.rank() as i32).abs()
                    == 1;
                assert_eq!(orthogonal_neighbours(a).has(b), adjacent, "neighbours {a} {b}");
            }
            // Each horse target is reached over exactly one leg, an orthogonal neighbour of the horse and a
            // diagonal neighbour of the target.
            for t in ortho {
                assert_eq!((orthogonal_neighbours(a) & diagonal_neighbours(t)).count(), 1, "leg {a} {t}");
            }
        }
    }
}
