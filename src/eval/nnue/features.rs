//! The input features: which of the 1260 inputs a piece on a point switches on, for each
//! perspective.
//!
//! Each side sees the board from its own bottom: Red's view is the board as it is (rank 0 is
//! Red's back rank), Black's view is rank-mirrored (`Square::flip_rank`), so in both views the
//! viewer's own pieces start on ranks 0-3. Pieces are told apart by kind and by whether they are
//! the viewer's own or the opponent's:
//!
//! `index = (relation * 7 + kind) * 90 + point`
//!
//! with `relation` 0 for the viewer's own piece and 1 for the opponent's, `kind` the
//! `PieceKind` index (king 0, advisor 1, elephant 2, horse 3, rook 4, cannon 5, pawn 6) and
//! `point` the square index `rank * 9 + file` in the viewer's frame. A position switches on one
//! input per piece in each view: at most 32. [`index`] is the one place that says so; the
//! trainer's [`other_view`] is derived from it.

use crate::board::types::{Color, Piece, PieceKind, Square, SQUARE_NB};

/// Inputs per perspective: 2 relations × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * SQUARE_NB;

/// Most inputs a position switches on in one view: 16 pieces a side.
pub const MAX_ACTIVE: usize = 32;

/// The input that `piece` on `sq` switches on in `perspective`'s view.
#[inline(always)]
pub const fn index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relation = (piece.color() as usize != perspective as usize) as usize;
    let point = match perspective {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    (relation * 7 + piece.kind().index()) * SQUARE_NB + point.index()
}

/// For each input, the input the same piece on the same point switches on in the other view:
/// own and opponent's swapped, ranks mirrored. The trainer keeps one view of a position and
/// reads the other through it.
static OTHER_VIEW: [u16; INPUTS] = other_view_table();

/// Every piece on every point, seen by both sides, through [`index`].
const fn other_view_table() -> [u16; INPUTS] {
    let mut table = [0u16; INPUTS];
    let mut i = 0;
    while i < 2 * 7 * SQUARE_NB {
        let color = if i / (7 * SQUARE_NB) == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let piece = Piece::new(color, PieceKind::from_index(i / SQUARE_NB % 7));
        let sq = Square::new(i % SQUARE_NB);
        let (red, black) = (index(Color::Red, piece, sq), index(Color::Black, piece, sq));
        table[red] = black as u16;
        table[black] = red as u16;
        i += 1;
    }
    table
}

/// The input of the other view for input `i` of one view: the same piece on the same point,
/// own and opponent's swapped, ranks mirrored.
#[inline(always)]
pub fn other_view(i: u16) -> u16 {
    OTHER_VIEW[usize::from(i)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_and_point_has_its_own_input_in_each_view() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for sq in Square::all() {
                        let i = index(perspective, Piece::new(color, kind), sq);
                        assert!(i < INPUTS);
                        assert!(!seen[i], "{perspective:?} {color:?} {kind:?} {sq}");
                        seen[i] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn the_other_view_is_the_other_sides_view_of_the_same_piece() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                for sq in Square::all() {
                    let red = index(Color::Red, piece, sq) as u16;
                    let black = index(Color::Black, piece, sq) as u16;
                    assert_eq!(other_view(red), black);
                    assert_eq!(other_view(black), red);
                }
            }
        }
    }

    #[test]
    fn each_side_sees_the_board_from_its_own_bottom() {
        let e0 = Square::parse("e0").unwrap();
        let e9 = Square::parse("e9").unwrap();
        let red_king = Piece::new(Color::Red, PieceKind::King);
        let black_king = Piece::new(Color::Black, PieceKind::King);
        // Each king at home is the viewer's own king on e0 in its own view...
        assert_eq!(index(Color::Red, red_king, e0), e0.index());
        assert_eq!(index(Color::Black, black_king, e9), e0.index());
        // ...and the opponent's king on e9 in the other view.
        let theirs = (7 + PieceKind::King.index()) * SQUARE_NB;
        assert_eq!(index(Color::Red, black_king, e9), theirs + e9.index());
        assert_eq!(index(Color::Black, red_king, e0), theirs + e9.index());
        // A Red rook on a1 is Red's own rook on a1; Black sees it as the opponent's on a8.
        let rook = Piece::new(Color::Red, PieceKind::Rook);
        let a1 = Square::parse("a1").unwrap();
        assert_eq!(index(Color::Red, rook, a1), 4 * SQUARE_NB + a1.index());
        assert_eq!(
            index(Color::Black, rook, a1),
            11 * SQUARE_NB + Square::parse("a8").unwrap().index()
        );
    }
}
