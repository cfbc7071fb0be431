//! Basic types: colours, piece kinds, pieces, squares, moves and scores.
//!
//! Squares are numbered `rank * 9 + file`, 0..90, with file `a`..`i` = 0..8 from Red's left
//! and rank 0..9 from Red's back rank (the UCCI / Pikafish convention). Red moves first and
//! starts on ranks 0-3.

use std::fmt;

/// Number of points on the board.
pub const SQUARE_NB: usize = 90;
/// Number of files (a..i).
pub const FILE_NB: usize = 9;
/// Number of ranks (0..9).
pub const RANK_NB: usize = 10;

/// The side of a piece or of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Red (upper case in FEN), moves first, starts on ranks 0-3.
    Red = 0,
    /// Black (lower case in FEN), starts on ranks 6-9.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// Index for arrays (Red = 0, Black = 1).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The seven kinds of xiangqi piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帅/将: moves one step orthogonally inside its palace.
    King = 0,
    /// 仕/士: one step diagonally inside its palace.
    Advisor = 1,
    /// 相/象: two steps diagonally, blocked at the eye, never across the river.
    Elephant = 2,
    /// 马: one step orthogonally then one diagonally outward, blocked at the leg.
    Horse = 3,
    /// 车: any distance orthogonally.
    Rook = 4,
    /// 炮: moves like a rook, captures by jumping exactly one screen.
    Cannon = 5,
    /// 兵/卒: one step forward, also sideways after crossing the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// Index for arrays (0..7).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Kind from an index 0..7.
    #[inline(always)]
    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// Upper-case FEN letter (Red's letter).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// How many of this kind each side has at the start (and at most).
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }
}

/// A coloured piece, packed as `color * 7 + kind` (0..14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// Number of distinct pieces.
    pub const NB: usize = 14;

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color as u8 * 7 + kind as u8)
    }

    /// Its colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 < 7 {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// Its kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::from_index((self.0 % 7) as usize)
    }

    /// Index 0..14 for arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// FEN letter: upper case for Red, lower case for Black.
    pub fn to_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Piece from a FEN letter, accepting the aliases `E`/`H` for elephant/horse.
    pub fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        };
        Some(Piece::new(color, kind))
    }
}

/// A point of the board, `rank * 9 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (0..90); the caller guarantees the range.
    #[inline(always)]
    pub const fn new(i: usize) -> Square {
        debug_assert!(i < SQUARE_NB);
        Square(i as u8)
    }

    /// The square on `file` (0..9) and `rank` (0..10).
    #[inline(always)]
    pub const fn from_coords(file: usize, rank: usize) -> Square {
        Square::new(rank * FILE_NB + file)
    }

    /// Index 0..90.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (a..i).
    #[inline(always)]
    pub const fn file(self) -> usize {
        self.0 as usize % FILE_NB
    }

    /// Rank 0..10 from Red's back rank.
    #[inline(always)]
    pub const fn rank(self) -> usize {
        self.0 as usize / FILE_NB
    }

    /// The same point seen from the other side (rank mirrored).
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square::from_coords(self.file(), 9 - self.rank())
    }

    /// The point mirrored left-right.
    #[inline(always)]
    pub const fn mirror_file(self) -> Square {
        Square::from_coords(8 - self.file(), self.rank())
    }

    /// Whether this point is on `color`'s own half of the board (before the river).
    #[inline(always)]
    pub const fn on_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.rank() <= 4,
            Color::Black => self.rank() >= 5,
        }
    }

    /// Parse `a0`..`i9`.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let file = b[0].wrapping_sub(b'a') as usize;
        let rank = b[1].wrapping_sub(b'0') as usize;
        (file < FILE_NB && rank < RANK_NB).then(|| Square::from_coords(file, rank))
    }

    /// Iterate over all 90 squares.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARE_NB).map(Square::new)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            (b'0' + self.rank() as u8) as char
        )
    }
}

/// A move: from-square in the low 7 bits, to-square in the next 7. `Move::NONE` is 0
/// (a1→a1 can never be a move), `Move::NULL` passes the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);
    /// The null move (from = to = b0), used by null-move pruning.
    pub const NULL: Move = Move(1 | (1 << 7));

    /// The move `from` → `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | ((to.0 as u16) << 7))
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 >> 7) as u8)
    }

    /// Raw 14-bit encoding.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Move from its raw encoding (used by the transposition table); not validated.
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw & 0x3fff)
    }

    /// Whether this is a real move (not NONE or NULL) whose squares are in range.
    #[inline(always)]
    pub const fn is_ok(self) -> bool {
        let (f, t) = (self.0 & 0x7f, self.0 >> 7);
        f != t && (f as usize) < SQUARE_NB && (t as usize) < SQUARE_NB
    }
}

impl fmt::Display for Move {
    /// Protocol form `h2e2`; the null move prints as `0000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_ok() {
            write!(f, "{}{}", self.from(), self.to())
        } else {
            write!(f, "0000")
        }
    }
}

/// Search scores in centipawn-like units, side-relative.
pub type Value = i32;

/// The score of delivering mate now; mate in n plies scores `MATE - n`.
pub const MATE: Value = 32_000;
/// Larger than any real score.
pub const INFINITE: Value = 32_001;
/// Any score at or beyond this is a mate score.
pub const MATE_BOUND: Value = MATE - 1_000;
/// A draw.
pub const DRAW: Value = 0;

/// Score for mating at `ply` plies from the root.
#[inline(always)]
pub const fn mate_in(ply: usize) -> Value {
    MATE - ply as Value
}

/// Score for being mated at `ply` plies from the root.
#[inline(always)]
pub const fn mated_in(ply: usize) -> Value {
    -MATE + ply as Value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("j0"), None);
        assert_eq!(Square::parse("a10"), None);
        assert_eq!(Square::parse(""), None);
        assert_eq!(Square::parse("e2").unwrap(), Square::from_coords(4, 2));
    }

    #[test]
    fn move_encoding() {
        let m = Move::new(Square::parse("h2").unwrap(), Square::parse("e2").unwrap());
        assert_eq!(m.to_string(), "h2e2");
        assert!(m.is_ok());
        assert!(!Move::NONE.is_ok());
        assert!(!Move::NULL.is_ok());
        assert_eq!(Move::from_raw(m.raw()), m);
    }

    #[test]
    fn piece_letters() {
        for c in "KABNRCPkabnrcp".chars() {
            assert_eq!(Piece::from_char(c).unwrap().to_char(), c);
        }
        assert_eq!(Piece::from_char('E').unwrap().to_char(), 'B');
        assert_eq!(Piece::from_char('h').unwrap().to_char(), 'n');
        assert_eq!(Piece::from_char('x'), None);
    }
}
