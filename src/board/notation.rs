//! Move notation: how a move is written for people and files, and how such text is read back.
//!
//! - Coordinates (`h2e2`): the protocol form, `Move`'s `Display` and `Position::parse_move`.
//! - ICCS (`H2-E2`): the same coordinates in capitals with a dash, the XQ-PGN default.
//! - WXF (`C2.5`, also written `C2=5`): piece letter K A E H R C P; the file counted 1-9 from
//!   the mover's right (Red: file i = 1 … a = 9; Black: a = 1 … i = 9); `+` forward, `-`
//!   backward, `.` sideways; then the destination file (sideways moves and the diagonal movers
//!   A, E, H) or the number of ranks (K, R, C, P moving straight). Two like pieces on one file:
//!   `+`/`-` (front/rear) replace the file digit (`R+.3`, `C--1`); pawns follow the WXF
//!   tandem-pawn rules (`P+`, `P3`, `P-`, `++`, `--`, and a leading file digit when two files
//!   hold tandem pawns: `3+.4`).
//!
//! [`parse_move`] reads any of the three, so PGN files and judge input may use either.

use crate::board::movegen::legal_moves;
use crate::board::position::{MoveError, Position};
use crate::board::types::{Color, Move, PieceKind, Square};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// ICCS coordinates, `H2-E2`.
    Iccs,
    /// WXF, `C2.5`.
    Wxf,
}

impl Notation {
    /// The legal move `m` of `pos` in this notation.
    pub fn write(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Iccs => iccs(m),
            Notation::Wxf => wxf(pos, m),
        }
    }
}

impl std::str::FromStr for Notation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "iccs" => Ok(Notation::Iccs),
            "wxf" => Ok(Notation::Wxf),
            _ => Err(format!("unknown notation '{s}' (iccs or wxf)")),
        }
    }
}

/// ICCS form of a move: `H2-E2`.
pub fn iccs(m: Move) -> String {
    let s = m.to_string().to_ascii_uppercase();
    format!("{}-{}", &s[..2], &s[2..])
}

fn wxf_file(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => 9 - sq.file(),
        Color::Black => sq.file() + 1,
    }
}

/// How far forward `sq` is for `color` (larger = more advanced).
fn advance(color: Color, sq: Square) -> usize {
    match color {
        Color::Red => sq.rank(),
        Color::Black => 9 - sq.rank(),
    }
}

/// WXF form of the legal move `m` in `pos`.
pub fn wxf(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let piece = pos.piece_on(from).expect("a move starts on a piece");
    let (us, kind) = (piece.color(), piece.kind());
    let letter = match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    };
    let file_digit = wxf_file(us, from).to_string();
    let same_file = |f: usize| -> Vec<Square> {
        let mut v: Vec<Square> = pos
            .pieces(us, kind)
            .into_iter()
            .filter(|s| s.file() == f)
            .collect();
        v.sort_by_key(|&s| std::cmp::Reverse(advance(us, s)));
        v
    };
    let column = same_file(from.file());
    let k = column.iter().position(|&s| s == from).unwrap_or(0);
    let n = column.len();
    let prefix = if n == 1 {
        format!("{letter}{file_digit}")
    } else if kind != PieceKind::Pawn {
        format!("{letter}{}", if k == 0 { '+' } else { '-' })
    } else {
        let tandem_files = (0..9).filter(|&f| same_file(f).len() >= 2).count();
        if tandem_files >= 2 {
            let mark = if k == 0 {
                "+".to_string()
            } else if k == n - 1 {
                "-".to_string()
            } else {
                file_digit.clone()
            };
            format!("{file_digit}{mark}")
        } else {
            match (n, k) {
                (_, 0) if n >= 4 => "++".to_string(),
                (_, 0) => "P+".to_string(),
                (_, k) if k == n - 1 && n >= 4 => "--".to_string(),
                (_, k) if k == n - 1 => "P-".to_string(),
                (4, 1) | (5, 1) => "P+".to_string(),
                (4, 2) | (5, 3) => "P-".to_string(),
                _ => format!("P{file_digit}"),
            }
        }
    };
    let (action, number) = if from.rank() == to.rank() {
        ('.', wxf_file(us, to))
    } else {
        let forward = advance(us, to) > advance(us, from);
        let number = match kind {
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse => wxf_file(us, to),
            _ => from.rank().abs_diff(to.rank()),
        };
        (if forward { '+' } else { '-' }, number)
    };
    format!("{prefix}{action}{number}")
}

/// The legal move of `pos` written as `token`: coordinates (`h2e2`), ICCS (`H2-E2`, any case)
/// or WXF (`C2.5` or `C2=5`); trailing `!`, `?` and `#` are ignored. A token of one of these
/// forms that names no legal move is [`MoveError::Illegal`]; anything else is
/// [`MoveError::Syntax`].
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, MoveError> {
    let t = token.trim().trim_end_matches(['!', '?', '#']);
    let coord = t.replace('-', "").to_ascii_lowercase();
    let is_coord = coord.len() == 4
        && coord.is_ascii()
        && Square::parse(&coord[..2]).is_some()
        && Square::parse(&coord[2..]).is_some();
    if is_coord {
        return pos
            .parse_move(&coord)
            .map_err(|_| MoveError::Illegal(token.to_string()));
    }
    let wxf_text = t.replace('=', ".");
    if !looks_like_wxf(&wxf_text) {
        return Err(MoveError::Syntax(token.to_string()));
    }
    legal_moves(pos)
        .as_slice()
        .iter()
        .copied()
        .find(|&m| wxf(pos, m) == wxf_text)
        .ok_or_else(|| MoveError::Illegal(token.to_string()))
}

/// Whether `t` has the shape of a WXF move: a two-character prefix (piece letter, file digit or
/// front/rear mark), an action (`+ - .`) and a digit 1-9.
fn looks_like_wxf(t: &str) -> bool {
    let b = t.as_bytes();
    let digit = |c: u8| (b'1'..=b'9').contains(&c);
    b.len() == 4
        && (b"KAEHRCP+-".contains(&b[0]) || digit(b[0]))
        && (b"+-".contains(&b[1]) || digit(b[1]))
        && b"+-.".contains(&b[2])
        && digit(b[3])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, s: &str) -> Move {
        pos.parse_move(s).unwrap()
    }

    #[test]
    fn wxf_of_common_moves() {
        let mut pos = Position::startpos();
        let cases = [
            ("h2e2", "C2.5"),
            ("h9g7", "H8+7"),
            ("h0g2", "H2+3"),
            ("i9h9", "R9.8"),
            ("i0h0", "R1.2"),
            ("b9c7", "H2+3"),
            ("c3c4", "P7+1"),
            ("g6g5", "P7+1"),
            ("h0h6", "R2+6"),
            ("h7i7", "C8.9"),
        ];
        for (coord, want) in cases {
            let m = mv(&pos, coord);
            assert_eq!(wxf(&pos, m), want, "{coord}");
            pos.make_move(m);
        }
        // Elephant and advisor, and a backward move.
        let pos = Position::startpos();
        assert_eq!(wxf(&pos, mv(&pos, "g0e2")), "E3+5");
        assert_eq!(wxf(&pos, mv(&pos, "f0e1")), "A4+5");
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w").unwrap();
        assert_eq!(wxf(&pos, mv(&pos, "a1a0")), "R9-1");
    }

    #[test]
    fn wxf_tandem_pieces() {
        // Two red rooks on file e (Red's 5th): front = higher rank.
        let pos = Position::from_fen("5k3/9/9/9/4R4/9/9/4R4/9/3K5 w").unwrap();
        assert_eq!(wxf(&pos, mv(&pos, "e5c5")), "R+.7");
        assert_eq!(wxf(&pos, mv(&pos, "e2e1")), "R--1");
        // Black cannons on file c (Black's 3rd): front = lower rank.
        let pos = Position::from_fen("4k4/9/2c6/9/2c6/9/9/9/9/3K5 b").unwrap();
        assert_eq!(wxf(&pos, mv(&pos, "c5c4")), "C++1");
        assert_eq!(wxf(&pos, mv(&pos, "c7d7")), "C-.4");
        // Three red pawns on file c (Red's 7th) stepping to file d (Red's 6th).
        let pos = Position::from_fen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w").unwrap();
        assert_eq!(wxf(&pos, mv(&pos, "c7d7")), "P+.6");
        assert_eq!(wxf(&pos, mv(&pos, "c6d6")), "P7.6");
        assert_eq!(wxf(&pos, mv(&pos, "c5d5")), "P-.6");
        // Tandem pawns on two files: a leading file digit.
        let pos = Position::from_fen("3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w").unwrap();
        assert_eq!(wxf(&pos, mv(&pos, "c7d7")), "7+.6");
        assert_eq!(wxf(&pos, mv(&pos, "g6f6")), "3-.4");
    }

    #[test]
    fn move_tokens_in_any_notation() {
        let pos = Position::startpos();
        let h2e2 = mv(&pos, "h2e2");
        assert_eq!(iccs(h2e2), "H2-E2");
        for t in ["H2-E2", "h2e2", "h2-e2", "H2E2", "C2.5", "C2=5", "h2e2!?"] {
            assert_eq!(parse_move(&pos, t), Ok(h2e2), "{t}");
        }
        assert_eq!(
            parse_move(&Position::startpos(), "b9c7"),
            Err(MoveError::Illegal("b9c7".into()))
        );
        let mut after = pos.clone();
        after.make_move(h2e2);
        assert_eq!(wxf(&after, mv(&after, "b9c7")), "H2+3");
        assert_eq!(parse_move(&after, "H2+3"), Ok(mv(&after, "b9c7")));
    }

    #[test]
    fn unknown_text_is_a_syntax_error_and_unplayable_moves_are_illegal() {
        let pos = Position::startpos();
        for t in ["H2-H8", "h2h8", "C2.9", "R1+9", "P5=1"] {
            assert_eq!(
                parse_move(&pos, t),
                Err(MoveError::Illegal(t.into())),
                "{t}"
            );
        }
        for t in [
            "",
            "zz99",
            "h2e",
            "j2e2",
            "C2.0",
            "X2.5",
            "C2*5",
            "炮二平五",
            "h2e2e",
        ] {
            assert_eq!(parse_move(&pos, t), Err(MoveError::Syntax(t.into())), "{t}");
        }
    }
}
