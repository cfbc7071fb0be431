//! A book of opening lines in text (the format of `book/openings.txt`, read by `openings`):
//! for each position of the lines, the moves played there and how often. Built in memory
//! when loaded; for small hand-written books.
//!
//! A line that is not a line from the start position (a FEN line, a bad move, text that is no
//! move at all) is skipped whole and counted, so that whoever loads a file can tell a book
//! from a wrong file.

use crate::board::position::Position;
use crate::board::types::Move;
use crate::engine::book::BookError;
use crate::engine::openings;
use std::collections::HashMap;

/// Moves by position key, with how many lines play each.
#[derive(Clone, Debug, Default)]
pub struct LinesBook {
    entries: HashMap<u64, Vec<(Move, u32)>>,
}

/// A book built from text, with what was left out of it.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The book of the usable lines.
    pub book: LinesBook,
    /// Lines used.
    pub used: usize,
    /// Lines skipped (blank lines and comments are not counted).
    pub skipped: usize,
    /// Why the first skipped line was skipped.
    pub first_skipped: Option<BookError>,
}

impl LinesBook {
    /// Build from the usable lines of a text (see the module doc), counting the others.
    pub fn parse(text: &str) -> Parsed {
        let mut parsed = Parsed {
            book: LinesBook::default(),
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

    /// The moves stored for the position with `key`, with their counts.
    pub fn probe(&self, key: u64) -> &[(Move, u32)] {
        self.entries.get(&key).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_count_each_position_s_moves() {
        let parsed = LinesBook::parse("h2e2 h9g7\nh2e2 b9c7\nb0c2\n");
        assert_eq!((parsed.used, parsed.skipped), (3, 0));
        let book = parsed.book;
        let mut start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").unwrap();
        let b0c2 = start.parse_move("b0c2").unwrap();
        let mut at_start = book.probe(start.key()).to_vec();
        at_start.sort();
        let mut expected = vec![(h2e2, 2), (b0c2, 1)];
        expected.sort();
        assert_eq!(at_start, expected);
        start.make_move(h2e2);
        assert_eq!(book.probe(start.key()).len(), 2);
        assert_eq!(book.len(), 2);
    }

    #[test]
    fn unusable_lines_are_skipped_whole_and_counted() {
        let text = "\u{feff}h2e2 h9g7 # central cannon\n\n# comment\nh2e2 h2e3\n\
                    root:x:0:0:root:/root:/bin/bash\n\
                    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b moves h9g7\n\
                    \u{0}\u{1b}garbage\r\nc3c4\r\n";
        let parsed = LinesBook::parse(text);
        assert_eq!((parsed.used, parsed.skipped), (2, 4));
        assert!(parsed.first_skipped.unwrap().0.starts_with("line 4: "));
        // The bad line's first move (h2e2, also on line 1) is not counted twice.
        let start = Position::startpos();
        let h2e2 = start.parse_move("h2e2").unwrap();
        assert!(parsed.book.probe(start.key()).contains(&(h2e2, 1)));
        let nothing = LinesBook::parse("");
        assert_eq!((nothing.used, nothing.skipped), (0, 0));
        assert!(nothing.book.is_empty());
    }
}
