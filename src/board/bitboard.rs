//! `Bitboard`: a set of board points as a `u128`, bit `rank * 9 + file` (bits 90..128 stay 0).

use crate::board::types::{Color, Square, FILE_NB, SQUARE_NB};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of points of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << SQUARE_NB) - 1;

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 points.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one point.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Whether the set has two points or more.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Number of points.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest point; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::new(self.0.trailing_zeros() as usize)
    }

    /// Remove and return the lowest point.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    /// Set union (const-friendly).
    #[inline(always)]
    pub const fn or(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    /// Set difference.
    #[inline(always)]
    pub const fn without(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    /// Points of one file.
    pub const fn file(file: usize) -> Bitboard {
        let mut b = 0u128;
        let mut r = 0;
        while r < 10 {
            b |= 1u128 << (r * FILE_NB + file);
            r += 1;
        }
        Bitboard(b)
    }

    /// Points of one rank.
    pub const fn rank(rank: usize) -> Bitboard {
        Bitboard(0x1ffu128 << (rank * FILE_NB))
    }

    /// `color`'s half of the board (ranks 0-4 for Red, 5-9 for Black).
    pub const fn half(color: Color) -> Bitboard {
        let red = (1u128 << 45) - 1;
        match color {
            Color::Red => Bitboard(red),
            Color::Black => Bitboard(ALL_BITS & !red),
        }
    }

    /// `color`'s palace (files d-f, ranks 0-2 or 7-9).
    pub const fn palace(color: Color) -> Bitboard {
        let base: u128 = (0b111 << 3) | (0b111 << 12) | (0b111 << 21);
        match color {
            Color::Red => Bitboard(base),
            Color::Black => Bitboard(base << 63),
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.pop()
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $op:tt $atrait:ident $afn:ident),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atrait for Bitboard {
            #[inline(always)]
            fn $afn(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand & BitAndAssign bitand_assign,
         BitOr bitor | BitOrAssign bitor_assign,
         BitXor bitxor ^ BitXorAssign bitxor_assign);

impl Not for Bitboard {
    type Output = Bitboard;
    /// Complement within the 90 points.
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}

impl std::fmt::Debug for Bitboard {
    /// Draws the set as a board, rank 9 on top.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for rank in (0..10).rev() {
            for file in 0..9 {
                let c = if self.has(Square::from_coords(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(Bitboard::file(4).count(), 10);
        assert_eq!(Bitboard::rank(9).count(), 9);
        assert_eq!(Bitboard::half(Color::Red).count(), 45);
        assert_eq!(
            (Bitboard::half(Color::Red) | Bitboard::half(Color::Black)),
            Bitboard::ALL
        );
        for c in Color::ALL {
            let p = Bitboard::palace(c);
            assert_eq!(p.count(), 9);
            for sq in p {
                assert!((3..=5).contains(&sq.file()));
                assert!(sq.on_own_half(c));
            }
        }
        assert_eq!((!Bitboard::EMPTY), Bitboard::ALL);
    }

    #[test]
    fn iteration_and_pop() {
        let mut b = Bitboard::from_square(Square::new(3)) | Bitboard::from_square(Square::new(89));
        assert!(b.more_than_one());
        assert_eq!(b.collect::<Vec<_>>(), vec![Square::new(3), Square::new(89)]);
        assert_eq!(b.pop(), Some(Square::new(3)));
        assert!(!b.more_than_one());
        assert_eq!(b.pop(), Some(Square::new(89)));
        assert_eq!(b.pop(), None);
    }
}
