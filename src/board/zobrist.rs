//! Zobrist keys, generated at compile time by the crate's SplitMix64 (`rng::splitmix64`, a
//! `const fn`): the same on every run and build.

use crate::board::rng::splitmix64;
use crate::board::types::{Color, Piece, Square, SQUARE_NB};

struct Keys {
    pieces: [[u64; SQUARE_NB]; Piece::NB],
    side: u64,
}

static KEYS: Keys = {
    let mut pieces = [[0u64; SQUARE_NB]; Piece::NB];
    let mut state = 0x6368_7568_616e_u64; // "chuhan"
    let mut p = 0;
    while p < Piece::NB {
        let mut sq = 0;
        while sq < SQUARE_NB {
            let (s, k) = splitmix64(state);
            state = s;
            pieces[p][sq] = k;
            sq += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    Keys { pieces, side }
};

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// Key toggled when the side to move changes (present when Black is to move).
#[inline(always)]
pub fn side_key() -> u64 {
    KEYS.side
}

/// The side-to-move part of a key.
#[inline(always)]
pub fn color_key(color: Color) -> u64 {
    match color {
        Color::Red => 0,
        Color::Black => KEYS.side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for p in 0..Piece::NB {
            for sq in 0..SQUARE_NB {
                let k = KEYS.pieces[p][sq];
                assert_ne!(k, 0);
                assert!(seen.insert(k));
            }
        }
        assert!(seen.insert(side_key()));
    }
}
