//! Attack tables for every piece kind, all built at compile time by `const fn`.
//!
//! Leapers (king, advisor, elephant, horse, pawn) use per-square tables; the elephant and the
//! horse are indexed by the occupancy of their 4 blocking points (elephant eye 象眼, horse
//! leg 马腿). Sliders (rook, cannon) split the line into its rank and its file: the occupancy
//! of the rank's 7 inner points, or of the file's 8 inner points gathered by a multiply, indexes
//! a small table per position on the line. Edge points never change an attack set, so they are
//! left out of the index. The cannon's "attack set" is every point past its screen up to and
//! including the next piece; it captures the enemy pieces in it.
//!
//! Every table is checked against a slow reference in the tests below.

use crate::board::bitboard::Bitboard;
use crate::board::types::{Color, Square, FILE_NB, RANK_NB, SQUARE_NB};

/// Orthogonal steps (file, rank): N, E, S, W.
const ORTHO: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Diagonal steps: NE, SE, SW, NW.
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Off-board "square" used as an always-empty blocker index (bit 127 is never set).
const NO_SQ: u8 = 127;

const fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % FILE_NB) as i32 + df;
    let r = (sq / FILE_NB) as i32 + dr;
    if f >= 0 && f < FILE_NB as i32 && r >= 0 && r < RANK_NB as i32 {
        Some(r as usize * FILE_NB + f as usize)
    } else {
        None
    }
}

const fn in_palace(sq: usize) -> bool {
    let f = sq % FILE_NB;
    let r = sq / FILE_NB;
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Red half = ranks 0-4.
const fn red_half(sq: usize) -> bool {
    sq / FILE_NB <= 4
}

const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

const fn build_palace_steps(steps: [(i32, i32); 4]) -> [Bitboard; SQUARE_NB] {
    let mut t = [Bitboard::EMPTY; SQUARE_NB];
    let mut sq = 0;
    while sq < SQUARE_NB {
        if in_palace(sq) {
            let mut b = 0u128;
            let mut i = 0;
            while i < 4 {
                if let Some(to) = offset(sq, steps[i].0, steps[i].1) {
                    // Both palaces are disjoint and far apart, so staying in "a" palace is staying
                    // in one's own.
                    if in_palace(to) {
                        b |= bit(to);
                    }
                }
                i += 1;
            }
            t[sq] = Bitboard(b);
        }
        sq += 1;
    }
    t
}

/// King steps from each palace point.
static KING: [Bitboard; SQUARE_NB] = build_palace_steps(ORTHO);
/// Advisor steps from each palace point.
static ADVISOR: [Bitboard; SQUARE_NB] = build_palace_steps(DIAG);

const fn pawn_targets(color: usize, sq: usize) -> u128 {
    let forward = if color == 0 { 1 } else { -1 };
    let crossed = if color == 0 {
        !red_half(sq)
    } else {
        red_half(sq)
    };
    let mut b = 0u128;
    if let Some(to) = offset(sq, 0, forward) {
        b |= bit(to);
    }
    if crossed {
        if let Some(to) = offset(sq, 1, 0) {
            b |= bit(to);
        }
        if let Some(to) = offset(sq, -1, 0) {
            b |= bit(to);
        }
    }
    b
}

const fn build_pawn() -> [[Bitboard; SQUARE_NB]; 2] {
    let mut t = [[Bitboard::EMPTY; SQUARE_NB]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < SQUARE_NB {
            t[c][sq] = Bitboard(pawn_targets(c, sq));
            sq += 1;
        }
        c += 1;
    }
    t
}

const fn build_pawn_reverse() -> [[Bitboard; SQUARE_NB]; 2] {
    let mut t = [[Bitboard::EMPTY; SQUARE_NB]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < SQUARE_NB {
            let mut targets = pawn_targets(c, from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                t[c][to].0 |= bit(from);
            }
            from += 1;
        }
        c += 1;
    }
    t
}

/// Pawn targets by colour and square.
static PAWN: [[Bitboard; SQUARE_NB]; 2] = build_pawn();
/// Squares from which a pawn of the colour attacks the square.
static PAWN_REVERSE: [[Bitboard; SQUARE_NB]; 2] = build_pawn_reverse();

/// A leaper blocked at intermediate points: for each square, its 4 blocker squares and the
/// targets each blocker guards; tables indexed by the 4-bit blocker occupancy.
struct BlockedLeaper {
    blockers: [[u8; 4]; SQUARE_NB],
    table: [[Bitboard; 16]; SQUARE_NB],
}

/// Horse: leg = orthogonal neighbour; from it, the two diagonal steps pointing outward.
const fn build_horse() -> BlockedLeaper {
    let mut blockers = [[NO_SQ; 4]; SQUARE_NB];
    let mut table = [[Bitboard::EMPTY; 16]; SQUARE_NB];
    let mut sq = 0;
    while sq < SQUARE_NB {
        let mut guarded = [0u128; 4];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = ORTHO[i];
            if let Some(leg) = offset(sq, df, dr) {
                blockers[sq][i] = leg as u8;
                // Outward diagonals: twice the orthogonal step plus one step sideways.
                let (sf, sr) = (dr, df);
                if let Some(to) = offset(sq, 2 * df + sf, 2 * dr + sr) {
                    guarded[i] |= bit(to);
                }
                if let Some(to) = offset(sq, 2 * df - sf, 2 * dr - sr) {
                    guarded[i] |= bit(to);
                }
            }
            i += 1;
        }
        table[sq] = expand_blocked(guarded);
        sq += 1;
    }
    BlockedLeaper { blockers, table }
}

/// Squares from which a horse attacks `sq`: its leg is then a diagonal neighbour of `sq`.
const fn build_horse_reverse() -> BlockedLeaper {
    let mut blockers = [[NO_SQ; 4]; SQUARE_NB];
    let mut table = [[Bitboard::EMPTY; 16]; SQUARE_NB];
    let mut sq = 0;
    while sq < SQUARE_NB {
        let mut guarded = [0u128; 4];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAG[i];
            if let Some(leg) = offset(sq, df, dr) {
                blockers[sq][i] = leg as u8;
                // The horse stands one further step from the leg, horizontally or vertically.
                if let Some(from) = offset(sq, 2 * df, dr) {
                    guarded[i] |= bit(from);
                }
                if let Some(from) = offset(sq, df, 2 * dr) {
                    guarded[i] |= bit(from);
                }
            }
            i += 1;
        }
        table[sq] = expand_blocked(guarded);
        sq += 1;
    }
    BlockedLeaper { blockers, table }
}

/// Elephant: two diagonal steps, blocked at the eye, never leaving its own half.
const fn build_elephant() -> BlockedLeaper {
    let mut blockers = [[NO_SQ; 4]; SQUARE_NB];
    let mut table = [[Bitboard::EMPTY; 16]; SQUARE_NB];
    let mut sq = 0;
    while sq < SQUARE_NB {
        let mut guarded = [0u128; 4];
        let mut i = 0;
        while i < 4 {
            let (df, dr) = DIAG[i];
            if let Some(to) = offset(sq, 2 * df, 2 * dr) {
                if red_half(to) == red_half(sq) {
                    if let Some(eye) = offset(sq, df, dr) {
                        blockers[sq][i] = eye as u8;
                        guarded[i] |= bit(to);
                    }
                }
            }
            i += 1;
        }
        table[sq] = expand_blocked(guarded);
        sq += 1;
    }
    BlockedLeaper { blockers, table }
}

/// Table over the 16 blocker occupancies: bit i set = blocker i occupied.
const fn expand_blocked(guarded: [u128; 4]) -> [Bitboard; 16] {
    let mut t = [Bitboard::EMPTY; 16];
    let mut idx = 0;
    while idx < 16 {
        let mut b = 0u128;
        let mut i = 0;
        while i < 4 {
            if idx & (1 << i) == 0 {
                b |= guarded[i];
            }
            i += 1;
        }
        t[idx] = Bitboard(b);
        idx += 1;
    }
    t
}

static HORSE: BlockedLeaper = build_horse();
static HORSE_REVERSE: BlockedLeaper = build_horse_reverse();
static ELEPHANT: BlockedLeaper = build_elephant();

impl BlockedLeaper {
    #[inline(always)]
    fn attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let b = &self.blockers[sq.index()];
        let o = occ.0;
        let idx = ((o >> b[0]) & 1)
            | (((o >> b[1]) & 1) << 1)
            | (((o >> b[2]) & 1) << 2)
            | (((o >> b[3]) & 1) << 3);
        self.table[sq.index()][idx as usize]
    }
}

/// Attack set of a slider at `pos` on a line of `len` points with full occupancy `occ`
/// (bit per point); rook: up to and including the first piece; cannon: past the first piece
/// (the screen) up to and including the second.
const fn line_attacks(pos: usize, len: usize, occ: u32, cannon: bool) -> u32 {
    let mut out = 0u32;
    let mut dir = 0;
    while dir < 2 {
        let mut screened = false;
        let mut p = pos as i32;
        loop {
            p += if dir == 0 { 1 } else { -1 };
            if p < 0 || p >= len as i32 {
                break;
            }
            let occupied = occ & (1 << p) != 0;
            if !cannon || screened {
                out |= 1 << p;
                if occupied {
                    break;
                }
            } else if occupied {
                screened = true;
            }
        }
        dir += 1;
    }
    out
}

/// Rank tables: [file][inner-7 occupancy] → mask of files.
const fn build_rank(cannon: bool) -> [[u16; 128]; FILE_NB] {
    let mut t = [[0u16; 128]; FILE_NB];
    let mut f = 0;
    while f < FILE_NB {
        let mut idx = 0;
        while idx < 128 {
            t[f][idx] = line_attacks(f, FILE_NB, (idx as u32) << 1, cannon) as u16;
            idx += 1;
        }
        f += 1;
    }
    t
}

/// File tables: [rank][inner-8 occupancy] → attack set on file a.
const fn build_file(cannon: bool) -> [[Bitboard; 256]; RANK_NB] {
    let mut t = [[Bitboard::EMPTY; 256]; RANK_NB];
    let mut r = 0;
    while r < RANK_NB {
        let mut idx = 0;
        while idx < 256 {
            let ranks = line_attacks(r, RANK_NB, (idx as u32) << 1, cannon);
            let mut b = 0u128;
            let mut k = 0;
            while k < RANK_NB {
                if ranks & (1 << k) != 0 {
                    b |= bit(k * FILE_NB);
                }
                k += 1;
            }
            t[r][idx] = Bitboard(b);
            idx += 1;
        }
        r += 1;
    }
    t
}

static ROOK_RANK: [[u16; 128]; FILE_NB] = build_rank(false);
static CANNON_RANK: [[u16; 128]; FILE_NB] = build_rank(true);
static ROOK_FILE: [[Bitboard; 256]; RANK_NB] = build_file(false);
static CANNON_FILE: [[Bitboard; 256]; RANK_NB] = build_file(true);

/// Bits 0, 9, .., 63: ranks 1..8 of a file once shifted down to file a, rank 1.
const FILE_GATHER: u64 = 0x8040_2010_0804_0201;
/// Moves bit 9k to bit 56 + k; every partial product lands on a distinct bit, so no carries.
const FILE_MAGIC: u64 = 0x0101_0101_0101_0101;

#[inline(always)]
fn rank_index(sq: Square, occ: Bitboard) -> usize {
    ((occ.0 >> (sq.rank() * FILE_NB + 1)) & 0x7f) as usize
}

#[inline(always)]
fn file_index(sq: Square, occ: Bitboard) -> usize {
    let inner = (occ.0 >> (sq.file() + FILE_NB)) as u64 & FILE_GATHER;
    (inner.wrapping_mul(FILE_MAGIC) >> 56) as usize
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let rank = (ROOK_RANK[sq.file()][rank_index(sq, occ)] as u128) << (sq.rank() * FILE_NB);
    let file = ROOK_FILE[sq.rank()][file_index(sq, occ)].0 << sq.file();
    Bitboard(rank | file)
}

/// Rook attacks along the file only (used for the facing kings).
#[inline(always)]
pub fn file_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(ROOK_FILE[sq.rank()][file_index(sq, occ)].0 << sq.file())
}

/// Cannon attack set from `sq`: the points beyond exactly one screen, up to the next piece.
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let rank = (CANNON_RANK[sq.file()][rank_index(sq, occ)] as u128) << (sq.rank() * FILE_NB);
    let file = CANNON_FILE[sq.rank()][file_index(sq, occ)].0 << sq.file();
    Bitboard(rank | file)
}

/// Horse targets from `sq`, legs blocked by `occ`.
#[inline(always)]
pub fn horse_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE.attacks(sq, occ)
}

/// Squares from which a horse would attack `sq` given `occ` (its leg is next to `sq` diagonally).
#[inline(always)]
pub fn horse_attackers_of(sq: Square, occ: Bitboard) -> Bitboard {
    HORSE_REVERSE.attacks(sq, occ)
}

/// Elephant targets from `sq`, eyes blocked by `occ`, on its own half only.
#[inline(always)]
pub fn elephant_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    ELEPHANT.attacks(sq, occ)
}

/// King steps from `sq` (empty outside the palaces).
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Advisor steps from `sq` (empty outside the palaces).
#[inline(always)]
pub fn advisor_attacks(sq: Square) -> Bitboard {
    ADVISOR[sq.index()]
}

/// Pawn targets of `color` from `sq`.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Squares from which a pawn of `color` attacks `sq`.
#[inline(always)]
pub fn pawn_attackers_of(color: Color, sq: Square) -> Bitboard {
    PAWN_REVERSE[color.index()][sq.index()]
}

/// Points whose occupancy change can expose a king on `ksq` to a new attack: its rank and
/// file (rooks, cannons, the other king) and its four diagonal neighbours (horse legs).
static KING_EXPOSURE: [Bitboard; SQUARE_NB] = {
    let mut t = [Bitboard::EMPTY; SQUARE_NB];
    let mut sq = 0;
    while sq < SQUARE_NB {
        let mut b = Bitboard::file(sq % FILE_NB).0 | Bitboard::rank(sq / FILE_NB).0;
        let mut i = 0;
        while i < 4 {
            if let Some(d) = offset(sq, DIAG[i].0, DIAG[i].1) {
                b |= bit(d);
            }
            i += 1;
        }
        t[sq] = Bitboard(b);
        sq += 1;
    }
    t
};

/// See [`KING_EXPOSURE`].
#[inline(always)]
pub fn king_exposure(ksq: Square) -> Bitboard {
    KING_EXPOSURE[ksq.index()]
}

/// Slow, obviously-correct references used by the tests (and nothing else).
#[cfg(test)]
pub(crate) mod reference {
    use super::*;

    fn step(sq: Square, df: i32, dr: i32) -> Option<Square> {
        offset(sq.index(), df, dr).map(Square::new)
    }

    /// Walk a ray; rook stops at the first piece, cannon jumps one screen.
    pub fn slider(sq: Square, occ: Bitboard, cannon: bool) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in ORTHO {
            let mut screened = false;
            let mut cur = sq;
            while let Some(next) = step(cur, df, dr) {
                cur = next;
                let occupied = occ.has(next);
                if !cannon || screened {
                    out |= Bitboard::from_square(next);
                    if occupied {
                        break;
                    }
                } else if occupied {
                    screened = true;
                }
            }
        }
        out
    }

    pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [
            (1, 2),
            (-1, 2),
            (1, -2),
            (-1, -2),
            (2, 1),
            (2, -1),
            (-2, 1),
            (-2, -1),
        ] {
            if let Some(to) = step(sq, df, dr) {
                // The leg is the orthogonal neighbour in the long direction.
                let leg = if i32::abs(dr) == 2 {
                    step(sq, 0, dr / 2)
                } else {
                    step(sq, df / 2, 0)
                };
                if !occ.has(leg.unwrap()) {
                    out |= Bitboard::from_square(to);
                }
            }
        }
        out
    }

    pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in DIAG {
            if let Some(to) = step(sq, 2 * df, 2 * dr) {
                let eye = step(sq, df, dr).unwrap();
                if !occ.has(eye) && (to.rank() <= 4) == (sq.rank() <= 4) {
                    out |= Bitboard::from_square(to);
                }
            }
        }
        out
    }

    pub fn pawn(color: Color, sq: Square) -> Bitboard {
        let fwd = if color == Color::Red { 1 } else { -1 };
        let mut out = Bitboard::EMPTY;
        let mut dirs = vec![(0, fwd)];
        if !sq.on_own_half(color) {
            dirs.extend([(1, 0), (-1, 0)]);
        }
        for (df, dr) in dirs {
            if let Some(to) = step(sq, df, dr) {
                out |= Bitboard::from_square(to);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::reference;
    use super::*;

    use crate::board::rng::Rng;

    /// A random occupancy with roughly `density`/8 of the points filled.
    fn occupancy(rng: &mut Rng, density: u32) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in Square::all() {
            if (rng.next_u64() % 8) < density as u64 {
                b |= Bitboard::from_square(sq);
            }
        }
        b
    }

    #[test]
    fn sliders_match_reference() {
        let mut rng = Rng::new(1);
        for i in 0..4000 {
            let occ = occupancy(&mut rng, 1 + i % 7);
            for sq in Square::all() {
                assert_eq!(
                    rook_attacks(sq, occ),
                    reference::slider(sq, occ, false),
                    "rook {sq}"
                );
                assert_eq!(
                    cannon_attacks(sq, occ),
                    reference::slider(sq, occ, true),
                    "cannon {sq}"
                );
                assert_eq!(
                    file_attacks(sq, occ),
                    reference::slider(sq, occ, false) & Bitboard::file(sq.file())
                );
            }
        }
    }

    #[test]
    fn leapers_match_reference() {
        let mut rng = Rng::new(12345);
        for i in 0..2000 {
            let occ = occupancy(&mut rng, 1 + i % 7);
            for sq in Square::all() {
                assert_eq!(
                    horse_attacks(sq, occ),
                    reference::horse(sq, occ),
                    "horse {sq}"
                );
                assert_eq!(
                    elephant_attacks(sq, occ),
                    reference::elephant(sq, occ),
                    "elephant {sq}"
                );
                let attackers: Bitboard = Square::all()
                    .filter(|&from| reference::horse(from, occ).has(sq))
                    .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
                assert_eq!(
                    horse_attackers_of(sq, occ),
                    attackers,
                    "horse attackers of {sq}"
                );
            }
        }
        for c in Color::ALL {
            for sq in Square::all() {
                assert_eq!(pawn_attacks(c, sq), reference::pawn(c, sq));
                let attackers: Bitboard = Square::all()
                    .filter(|&from| reference::pawn(c, from).has(sq))
                    .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
                assert_eq!(pawn_attackers_of(c, sq), attackers);
            }
        }
    }

    #[test]
    fn palace_pieces() {
        let e1 = Square::parse("e1").unwrap();
        assert_eq!(king_attacks(e1).count(), 4);
        assert_eq!(advisor_attacks(e1).count(), 4);
        let d0 = Square::parse("d0").unwrap();
        assert_eq!(king_attacks(d0).count(), 2);
        assert_eq!(advisor_attacks(d0), Bitboard::from_square(e1));
        assert!(king_attacks(Square::parse("a0").unwrap()).is_empty());
        for c in Color::ALL {
            for sq in Bitboard::palace(c) {
                assert!((king_attacks(sq) | advisor_attacks(sq))
                    .without(Bitboard::palace(c))
                    .is_empty());
            }
        }
    }

    #[test]
    fn elephant_never_crosses_river() {
        for sq in Square::all() {
            for to in elephant_attacks(sq, Bitboard::EMPTY) {
                assert_eq!(to.rank() <= 4, sq.rank() <= 4);
            }
        }
        // c4 (Red's river bank) reaches a2 and e2 only.
        assert_eq!(
            elephant_attacks(Square::parse("c4").unwrap(), Bitboard::EMPTY).count(),
            2
        );
    }
}
