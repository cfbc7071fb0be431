//! The opening book: for each position of a set of opening lines, the moves played there and
//! how often. Lookup also tries the left-right mirror of the position (a mirrored line is as
//! good as the original), and picks among the stored moves at random, weighted by count.
//!
//! The book is built when it is loaded, from opening lines (the format of `book/openings.txt`,
//! read by `openings`); lines that start from a FEN are skipped. The built-in book is
//! `book/openings.txt`, compiled in.

use crate::movegen::legal_moves;
use crate::openings::{self, DEFAULT_OPENINGS};
use crate::position::Position;
use crate::types::{Move, Square};
use std::collections::HashMap;

/// Moves by position key, with how many lines play each.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Vec<(Move, u32)>>,
}

/// A book line that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

impl Book {
    /// The built-in book.
    pub fn built_in() -> Book {
        Book::from_lines(DEFAULT_OPENINGS).expect("the built-in book is valid")
    }

    /// Build from move lines (see the module doc); an illegal move names its line.
    pub fn from_lines(text: &str) -> Result<Book, BookError> {
        let mut book = Book::default();
        // Openings from a FEN start elsewhere: not part of an opening book.
        let lines = openings::parse_openings(text).map_err(BookError)?;
        for line in lines.iter().filter(|o| o.from_start()) {
            let mut pos = Position::startpos();
            for &m in &line.moves {
                let moves = book.entries.entry(pos.key()).or_default();
                match moves.iter_mut().find(|(bm, _)| *bm == m) {
                    Some((_, count)) => *count += 1,
                    None => moves.push((m, 1)),
                }
                pos.make_move(m);
            }
        }
        Ok(book)
    }

    /// Read and build a book file.
    pub fn load(path: &str) -> Result<Book, BookError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| BookError(format!("cannot read book '{path}': {e}")))?;
        Book::from_lines(&text)
    }

    /// Number of positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's legal moves for `pos` with their weights (mirrored lines included).
    pub fn moves(&self, pos: &Position) -> Vec<(Move, u32)> {
        let legal = legal_moves(pos);
        let mut out: Vec<(Move, u32)> = Vec::new();
        let mut add = |m: Move, w: u32| {
            if legal.contains(m) {
                match out.iter_mut().find(|(o, _)| *o == m) {
                    Some((_, c)) => *c += w,
                    None => out.push((m, w)),
                }
            }
        };
        if let Some(list) = self.entries.get(&pos.key()) {
            list.iter().for_each(|&(m, w)| add(m, w));
        }
        let mirror = pos.mirrored();
        if mirror.key() != pos.key() {
            if let Some(list) = self.entries.get(&mirror.key()) {
                let flip = |s: Square| s.mirror_file();
                list.iter()
                    .for_each(|&(m, w)| add(Move::new(flip(m.from()), flip(m.to())), w));
            }
        }
        out
    }

    /// A book move for `pos`, chosen with probability proportional to its weight; `random` is
    /// uniform in [0, 1).
    pub fn choose(&self, pos: &Position, random: f64) -> Option<Move> {
        let moves = self.moves(pos);
        let total: u32 = moves.iter().map(|(_, w)| w).sum();
        let mut x = random.clamp(0.0, 0.999_999) * total as f64;
        for (m, w) in &moves {
            if x < *w as f64 {
                return Some(*m);
            }
            x -= *w as f64;
        }
        moves.last().map(|(m, _)| *m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_book_covers_the_start() {
        let book = Book::built_in();
        assert!(book.len() > 50);
        let start = Position::startpos();
        let moves = book.moves(&start);
        assert!(moves.iter().any(|(m, _)| m.to_string() == "h2e2"));
        // The mirror of h2e2 (b2e2) is in the book through the mirrored lookup.
        assert!(moves.iter().any(|(m, _)| m.to_string() == "b2e2"));
        for r in [0.0, 0.3, 0.7, 0.99] {
            let m = book.choose(&start, r).unwrap();
            assert!(legal_moves(&start).contains(m));
        }
    }

    #[test]
    fn mirrored_positions_find_mirrored_moves() {
        let book = Book::from_lines("h2e2 h9g7 h0g2").unwrap();
        let mut pos = Position::startpos();
        for m in ["b2e2", "b9c7"] {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        // Mirror of "h2e2 h9g7": the book answers with the mirror of h0g2.
        assert_eq!(
            book.choose(&pos, 0.5).map(|m| m.to_string()),
            Some("b0c2".into())
        );
        assert!(book
            .choose(
                &Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap(),
                0.5
            )
            .is_none());
    }

    #[test]
    fn bad_lines_are_reported() {
        let err = Book::from_lines("h2e2\nh2e2 h2e3").unwrap_err();
        assert!(err.0.contains("line 2"), "{err}");
        // Lines from a FEN are valid openings but no book lines.
        let book = Book::from_lines("3k5/9/9/9/9/9/9/9/2R6/4K4 w moves c1c2\nh2e2").unwrap();
        assert_eq!(book.len(), 1);
        assert!(Book::load("/nonexistent/book.txt").is_err());
    }
}
