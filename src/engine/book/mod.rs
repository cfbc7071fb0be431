//! The opening book: for each position of a set of opening lines, the moves played there and
//! how often. Lookup also tries the left-right mirror of the position (a mirrored line is as
//! good as the original), and picks among the stored moves at random, weighted by count.
//!
//! The book is built when it is loaded, from opening lines (the format of `book/openings.txt`,
//! read by `openings`) that start from the start position. A line that is not such a line (a
//! FEN line, a bad move, text that is no move at all) is skipped whole and counted, so that
//! whoever loads a file can tell a book from a wrong file. The built-in book is
//! `book/openings.txt`, compiled in.

pub mod eleeye;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::{Move, Square};
use crate::engine::openings::{self, DEFAULT_OPENINGS};
use std::collections::HashMap;

/// Moves by position key, with how many lines play each.
#[derive(Clone, Debug, Default)]
pub struct Book {
    entries: HashMap<u64, Vec<(Move, u32)>>,
}

/// A book built from text, with what was left out of it.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The book of the usable lines.
    pub book: Book,
    /// Lines used.
    pub used: usize,
    /// Lines skipped (blank lines and comments are not counted).
    pub skipped: usize,
    /// Why the first skipped line was skipped.
    pub first_skipped: Option<BookError>,
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

    /// Build from move lines (see the module doc), refusing any line that cannot be used: for
    /// text that must be a book (the built-in one).
    pub fn from_lines(text: &str) -> Result<Book, BookError> {
        let parsed = Book::parse(text);
        match parsed.first_skipped {
            Some(e) => Err(e),
            None => Ok(parsed.book),
        }
    }

    /// Build from the usable lines of a text (see the module doc), counting the others.
    pub fn parse(text: &str) -> Parsed {
        let mut parsed = Parsed {
            book: Book::default(),
            used: 0,
            skipped: 0,
            first_skipped: None,
        };
        // A byte-order mark (Windows editors) is not part of the first move.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (n, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            match Self::line_moves(line) {
                Ok(moves) => {
                    parsed.book.add_line(&moves);
                    parsed.used += 1;
                }
                Err(why) => {
                    parsed.skipped += 1;
                    if parsed.first_skipped.is_none() {
                        parsed.first_skipped = Some(BookError(format!("line {}: {why}", n + 1)));
                    }
                }
            }
        }
        parsed
    }

    /// The moves of one line from the start position, or why the line cannot be used.
    fn line_moves(line: &str) -> Result<Vec<Move>, String> {
        match openings::parse_line(line) {
            Ok(Some(o)) if o.from_start() => Ok(o.moves),
            Ok(Some(_)) => Err("a FEN line (the book holds lines from the start position)".into()),
            Ok(None) => Err("not a line of moves".into()),
            Err(e) => Err(e),
        }
    }

    /// Count every position of a line of moves from the start position.
    fn add_line(&mut self, line: &[Move]) {
        let mut pos = Position::startpos();
        for &m in line {
            let moves = self.entries.entry(pos.key()).or_default();
            match moves.iter_mut().find(|(bm, _)| *bm == m) {
                Some((_, count)) => *count += 1,
                None => moves.push((m, 1)),
            }
            pos.make_move(m);
        }
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
    }

    #[test]
    fn unusable_lines_are_skipped_whole_and_counted() {
        let text = "\u{feff}h2e2 h9g7 # central cannon\n\n# comment\nh2e2 h2e3\n\
                    root:x:0:0:root:/root:/bin/bash\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b moves h9g7\n\
                    \u{0}\u{1b}garbage\r\nc3c4\r\n";
        let parsed = Book::parse(text);
        assert_eq!((parsed.used, parsed.skipped), (2, 4));
        assert!(parsed.first_skipped.unwrap().0.starts_with("line 4: "));
        // The bad line's first move (h2e2, also on line 1) is not counted twice.
        let start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").unwrap();
        assert!(parsed.book.moves(&start).contains(&(h2e2, 1)));
        let nothing = Book::parse("");
        assert_eq!((nothing.used, nothing.skipped), (0, 0));
        assert!(nothing.book.is_empty());
    }
}
