//! Correction history: how far the searches found the static evaluation off, remembered by
//! pawn structure and by where each side's other pieces stand, for the side to move. The search
//! adds the remembered error to the static evaluation before it prunes by it, so an evaluation
//! that misjudges a kind of position is corrected by what deeper searches of its like found.

use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, PieceKind, Value};
use crate::search::gravity::gravity;

/// Entries per table and side to move (a power of two).
const ENTRIES: usize = 16_384;
/// Bound of an entry; an update moves it at most a quarter of the way.
const LIMIT: i32 = 1024;
/// An entry of `LIMIT` in every table corrects by `3 · LIMIT / SCALE` = 192 centipawns.
const SCALE: i32 = 16;

/// The tables of one search thread.
pub struct Correction {
    /// By both sides' pawns.
    pawns: Vec<i16>,
    /// By Red's pieces other than pawns.
    red: Vec<i16>,
    /// By Black's.
    black: Vec<i16>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    /// Tables that correct nothing.
    pub fn new() -> Correction {
        Correction {
            pawns: vec![0; 2 * ENTRIES],
            red: vec![0; 2 * ENTRIES],
            black: vec![0; 2 * ENTRIES],
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        self.pawns.fill(0);
        self.red.fill(0);
        self.black.fill(0);
    }

    /// What to add to the static evaluation of `pos` (side to move's view).
    #[inline]
    pub fn value(&self, pos: &Position) -> Value {
        let [p, r, b] = indices(pos);
        (i32::from(self.pawns[p]) + i32::from(self.red[r]) + i32::from(self.black[b])) / SCALE
    }

    /// Record that a search of `pos` found `error` = its score − the corrected static evaluation
    /// (a bound's error only where the bound says the evaluation was off that way), weighted by
    /// the search's `depth`.
    pub fn update(&mut self, pos: &Position, error: Value, depth: i32) {
        let bonus = (error * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        let [p, r, b] = indices(pos);
        for e in [&mut self.pawns[p], &mut self.red[r], &mut self.black[b]] {
            let mut v = i32::from(*e);
            gravity(&mut v, bonus, LIMIT);
            // Gravity keeps it within ±LIMIT, so it fits.
            *e = v as i16;
        }
    }
}

/// The three tables' slots for `pos`.
#[inline]
fn indices(pos: &Position) -> [usize; 3] {
    let side = pos.side_to_move().index() * ENTRIES;
    let slot = |h: u64| side + (h >> 50) as usize;
    let pawns = fold(
        pos.pieces(Color::Red, PieceKind::Pawn),
        0x9E37_79B9_7F4A_7C15,
    ) ^ fold(
        pos.pieces(Color::Black, PieceKind::Pawn),
        0xC2B2_AE3D_27D4_EB4F,
    );
    [
        slot(pawns),
        slot(pieces_hash(pos, Color::Red)),
        slot(pieces_hash(pos, Color::Black)),
    ]
}

/// A hash of where `color`'s pieces other than pawns stand, kind by kind.
#[inline]
fn pieces_hash(pos: &Position, color: Color) -> u64 {
    const MULTIPLIERS: [u64; 6] = [
        0xFF51_AFD7_ED55_8CCD,
        0xC4CE_B9FE_1A85_EC53,
        0x9E37_79B9_7F4A_7C15,
        0xD6E8_FEB8_6659_FD93,
        0xA076_1D64_78BD_642F,
        0xE703_7ED1_A0B4_28DB,
    ];
    let mut h = 0;
    for (kind, k) in PieceKind::ALL[..6].iter().zip(MULTIPLIERS) {
        h ^= fold(pos.pieces(color, *kind), k);
    }
    h
}

/// Mix a set of points into 64 bits by multiplier `k`; the high bits are the well mixed ones.
#[inline(always)]
fn fold(b: Bitboard, k: u64) -> u64 {
    let lo = b.0 as u64;
    let hi = (b.0 >> 64) as u64;
    (lo ^ hi.rotate_left(29))
        .wrapping_mul(k)
        .rotate_left(17)
        .wrapping_mul(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

    #[test]
    fn corrections_follow_the_errors_found_and_stay_bounded() {
        let pos = Position::from_fen(START).unwrap();
        let mut c = Correction::new();
        assert_eq!(c.value(&pos), 0);
        for _ in 0..1000 {
            c.update(&pos, 500, 12);
        }
        let high = c.value(&pos);
        assert!((1..=3 * LIMIT / SCALE).contains(&high), "{high}");
        for _ in 0..1000 {
            c.update(&pos, -500, 12);
        }
        let low = c.value(&pos);
        assert!((-3 * LIMIT / SCALE..0).contains(&low), "{low}");
        // The other side to move has tables of its own.
        let black = Position::from_fen(&START.replace(" w", " b")).unwrap();
        assert_eq!(c.value(&black), 0);
        c.clear();
        assert_eq!(c.value(&pos), 0);
    }

    #[test]
    fn a_small_error_at_low_depth_moves_the_correction_less() {
        let pos = Position::from_fen(START).unwrap();
        let mut shallow = Correction::new();
        let mut deep = Correction::new();
        shallow.update(&pos, 200, 2);
        deep.update(&pos, 200, 10);
        assert!(0 < shallow.value(&pos) && shallow.value(&pos) < deep.value(&pos));
    }
}
