//! The opening book: which moves a position has in the book, and the choice among them.
//!
//! Three kinds of book file are read, told apart by their content: Chuhan's own binary book
//! (`binary`, also the built-in one; it starts with `CHUHANBK`), opening lines in text
//! (`lines`), and anything else binary as ElephantEye's `BOOK.DAT` (`eleeye`), which has no
//! header but must be whole sorted records. Lookup also tries the left-right mirror of the position (a mirrored line is
//! as good as the original, and our own books store each line once). A move the position
//! does not allow (a key collision, a foreign book's mistake) is never offered.

pub mod binary;
pub mod lines;

pub mod eleeye;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::rng::Rng;
use crate::board::types::{Move, Square, Value};
use crate::engine::files::file_problem;
use binary::{BinaryBook, NO_SCORE};
use eleeye::EleeyeBook;
use lines::LinesBook;
use std::path::Path;

/// The book compiled into the binary, built by `chuhan book build` (see `docs/book.md`).
const BUILT_IN: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/book/chuhan.book"));

/// A book file that cannot be used, or a part of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

/// One move the book has for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move, legal in the position.
    pub mv: Move,
    /// Its weight among the position's book moves.
    pub weight: u32,
    /// Its searched score for the side playing it, where the book knows one.
    pub score: Option<Value>,
    /// What book learning saw of it: games, and their net result for the side playing it
    /// (wins minus losses); (0, 0) where nothing was learned or the book cannot learn.
    pub learned: (u32, i32),
}

/// How the book chooses among a position's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPolicy {
    /// 0: always the move of the highest weight; 50: at random in proportion to the weights;
    /// 100: flatter still (the square roots of the weights). In between, the weights are
    /// raised to the power 50 / variety.
    pub variety: u32,
}

impl BookPolicy {
    /// Most variety accepted.
    pub const MAX_VARIETY: u32 = 100;
    /// Chosen in proportion to the weights, as the book's builder meant them.
    pub const DEFAULT: BookPolicy = BookPolicy { variety: 50 };
}

/// A move is a sideline too rare to trust when its weight is under the best one's divided
/// by this.
pub const RARE_SIDELINE: u32 = 16;
/// A book whose best move scores below this for the side to move leads somewhere bad: the
/// search does better there than the book.
pub const WEAK_SCORE: Value = -150;

/// The move mirrored left-right (file a ↔ file i).
pub fn mirror_move(m: Move) -> Move {
    let flip = |s: Square| s.mirror_file();
    Move::new(flip(m.from()), flip(m.to()))
}

/// Where the book's moves are read from.
#[derive(Debug)]
enum Source {
    Lines(LinesBook),
    Binary(BinaryBook),
    Eleeye(EleeyeBook),
}

/// An opening book; the default one is empty.
#[derive(Debug, Default)]
pub struct Book {
    source: Option<Source>,
}

/// A book file read, with what was left out of it.
#[derive(Debug)]
pub struct Opened {
    /// The book.
    pub book: Book,
    /// For a text book with lines that could not be used: the lines used, the lines skipped,
    /// and why the first one was.
    pub skipped: Option<(usize, usize, BookError)>,
}

/// The most a book file that is read whole (text, `BOOK.DAT`) may hold: far above any real
/// one, and a bound on what a wrong path costs. Our binary books are never read whole.
pub const MAX_READ_WHOLE: u64 = 64 << 20;

impl Book {
    /// The built-in book.
    pub fn built_in() -> Book {
        let book = BinaryBook::from_bytes(BUILT_IN).expect("the built-in book is valid");
        Book {
            source: Some(Source::Binary(book)),
        }
    }

    /// A book of our binary format.
    pub fn from_binary(book: BinaryBook) -> Book {
        Book {
            source: Some(Source::Binary(book)),
        }
    }

    /// A book of opening lines in text, refusing any line that cannot be used.
    pub fn from_lines(text: &str) -> Result<Book, BookError> {
        let parsed = LinesBook::parse(text);
        match parsed.first_skipped {
            Some(e) => Err(e),
            None => Ok(Book {
                source: Some(Source::Lines(parsed.book)),
            }),
        }
    }

    /// Open a book file of any kind this engine reads (see the module doc). A file that is
    /// no book, or a broken one, is refused with the reason.
    pub fn open(path: &Path) -> Result<Opened, BookError> {
        use std::io::Read;
        let io = |e: std::io::Error| BookError(file_problem(&e));
        let mut file = std::fs::File::open(path).map_err(io)?;
        let mut head = [0; 8];
        let got = file.read(&mut head).map_err(io)?;
        if binary::has_magic(&head[..got]) {
            let book = BinaryBook::open(path)?;
            return Ok(Opened {
                book: Book {
                    source: Some(Source::Binary(book)),
                },
                skipped: None,
            });
        }
        let len = file.metadata().map_err(io)?.len();
        if len > MAX_READ_WHOLE {
            return Err(BookError(format!(
                "is too large for a text book (more than {} MB)",
                MAX_READ_WHOLE >> 20
            )));
        }
        let mut bytes = head[..got].to_vec();
        file.take(MAX_READ_WHOLE)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        Self::from_text_bytes(&bytes)
    }

    /// A book from the bytes of a file that is not one of our binary books: opening lines
    /// when it is text, else ElephantEye's `BOOK.DAT`.
    fn from_text_bytes(bytes: &[u8]) -> Result<Opened, BookError> {
        let text = match std::str::from_utf8(bytes) {
            Ok(text) if !text.contains('\0') => text,
            _ => {
                let book = EleeyeBook::from_bytes(bytes.to_vec())
                    .map_err(|e| BookError(format!("is neither a book nor opening lines ({e})")))?;
                return Ok(Opened {
                    book: Book {
                        source: Some(Source::Eleeye(book)),
                    },
                    skipped: None,
                });
            }
        };
        let parsed = LinesBook::parse(text);
        if parsed.used == 0 {
            let why = parsed
                .first_skipped
                .map(|e| format!(" ({e})"))
                .unwrap_or_default();
            return Err(BookError(format!("has no usable opening line{why}")));
        }
        Ok(Opened {
            book: Book {
                source: Some(Source::Lines(parsed.book)),
            },
            skipped: parsed
                .first_skipped
                .map(|e| (parsed.used, parsed.skipped, e)),
        })
    }

    /// What the book holds, in a few words.
    pub fn describe(&self) -> String {
        match &self.source {
            None => "empty".into(),
            Some(Source::Lines(b)) => format!("{} positions from opening lines", b.len()),
            Some(Source::Binary(b)) => format!("{} moves (Chuhan book)", b.len()),
            Some(Source::Eleeye(b)) => format!("{} moves (ElephantEye book)", b.record_count()),
        }
    }

    /// Whether the book has no move at all.
    pub fn is_empty(&self) -> bool {
        match &self.source {
            None => true,
            Some(Source::Lines(b)) => b.is_empty(),
            Some(Source::Binary(b)) => b.is_empty(),
            Some(Source::Eleeye(b)) => b.record_count() == 0,
        }
    }

    /// The moves stored for exactly this position (not its mirror), legal or not.
    fn stored(&self, pos: &Position) -> Vec<BookMove> {
        let key = pos.key();
        match &self.source {
            None => Vec::new(),
            Some(Source::Lines(b)) => b
                .probe(key)
                .iter()
                .map(|&(mv, weight)| BookMove {
                    mv,
                    weight,
                    score: None,
                    learned: (0, 0),
                })
                .collect(),
            // A file that became unreadable after it was opened answers nothing: the search
            // plays instead.
            Some(Source::Binary(b)) => b
                .probe(key)
                .unwrap_or_default()
                .into_iter()
                .map(|r| BookMove {
                    mv: r.mv,
                    weight: u32::from(r.weight),
                    score: (r.score != NO_SCORE).then_some(Value::from(r.score)),
                    learned: r.learned(),
                })
                .collect(),
            Some(Source::Eleeye(b)) => b
                .probe(pos)
                .into_iter()
                .map(|(mv, weight)| BookMove {
                    mv,
                    weight,
                    score: None,
                    learned: (0, 0),
                })
                .collect(),
        }
    }

    /// The book's legal moves for `pos`, mirrored lines included, in a fixed order (highest
    /// weight first, then by move).
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let legal = legal_moves(pos);
        let mut out: Vec<BookMove> = Vec::new();
        let mut add = |b: BookMove| {
            if !legal.contains(b.mv) {
                return;
            }
            match out.iter_mut().find(|o| o.mv == b.mv) {
                Some(o) => {
                    o.weight = o.weight.saturating_add(b.weight);
                    o.score = o.score.or(b.score);
                    o.learned = (o.learned.0 + b.learned.0, o.learned.1 + b.learned.1);
                }
                None => out.push(b),
            }
        };
        let flip = |b: BookMove| BookMove {
            mv: mirror_move(b.mv),
            ..b
        };
        let here = self.stored(pos);
        let mirror = pos.mirrored();
        // A symmetric position is its own mirror: each stored move stands for its mirror too.
        let there = if mirror.key() == pos.key() {
            here.clone()
        } else {
            self.stored(&mirror)
        };
        here.into_iter().for_each(&mut add);
        there.into_iter().map(flip).for_each(&mut add);
        out.sort_by_key(|b| (std::cmp::Reverse(b.weight), b.mv));
        out
    }

    /// The moves the book would play in `pos`: no move that repeats a position of the game, no
    /// move of weight 0, no sideline too rare to trust, and none at all when the best move
    /// scores badly (the book is weak there).
    pub fn candidates(&self, pos: &Position) -> Vec<BookMove> {
        let seen: Vec<u64> = pos.history().iter().map(|st| st.key).collect();
        let mut moves: Vec<BookMove> = self
            .moves(pos)
            .into_iter()
            .filter(|b| b.weight > 0)
            .filter(|b| {
                let mut next = pos.clone();
                next.make_move(b.mv);
                !seen.contains(&next.key())
            })
            .collect();
        let Some(best) = moves.first().copied() else {
            return moves;
        };
        if best.score.is_some_and(|s| s < WEAK_SCORE) {
            return Vec::new();
        }
        moves.retain(|b| b.weight.saturating_mul(RARE_SIDELINE) >= best.weight);
        moves
    }

    /// A book move for `pos` under `policy`, drawn with `rng`; none when the book has no move
    /// it would play.
    pub fn choose(&self, pos: &Position, policy: BookPolicy, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.candidates(pos);
        let best = *moves.first()?;
        if policy.variety == 0 {
            return Some(best);
        }
        let power = 50.0 / f64::from(policy.variety.min(BookPolicy::MAX_VARIETY));
        let weights: Vec<f64> = moves
            .iter()
            .map(|b| (f64::from(b.weight) / f64::from(best.weight)).powf(power))
            .collect();
        let mut x = rng.unit() * weights.iter().sum::<f64>();
        for (b, w) in moves.iter().zip(&weights) {
            if x < *w {
                return Some(*b);
            }
            x -= w;
        }
        moves.last().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_move(text).unwrap()
    }

    #[test]
    fn built_in_book_covers_the_start() {
        let book = Book::built_in();
        let start = Position::startpos();
        let moves = book.moves(&start);
        assert!(moves.iter().any(|b| b.mv.to_string() == "h2e2"));
        // The mirror of h2e2 (b2e2) is in the book through the mirrored lookup.
        assert!(moves.iter().any(|b| b.mv.to_string() == "b2e2"));
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let m = book.choose(&start, BookPolicy::DEFAULT, &mut rng).unwrap();
            assert!(legal_moves(&start).contains(m.mv));
        }
    }

    #[test]
    fn mirrored_positions_find_mirrored_moves() {
        let book = Book::from_lines("h2e2 h9g7 h0g2").unwrap();
        let mut pos = Position::startpos();
        for m in ["b2e2", "b9c7"] {
            let m = mv(&pos, m);
            pos.make_move(m);
        }
        // Mirror of "h2e2 h9g7": the book answers with the mirror of h0g2.
        let mut rng = Rng::new(3);
        let chosen = book.choose(&pos, BookPolicy::DEFAULT, &mut rng).unwrap();
        assert_eq!(chosen.mv.to_string(), "b0c2");
        let bare = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w").unwrap();
        assert!(book.choose(&bare, BookPolicy::DEFAULT, &mut rng).is_none());
    }

    #[test]
    fn bad_lines_are_reported() {
        let err = Book::from_lines("h2e2\nh2e2 h2e3").unwrap_err();
        assert!(err.0.contains("line 2"), "{err}");
    }

    #[test]
    fn choice_follows_the_weights_and_the_variety() {
        // h2e2 three times as often as b0c2 (and so their mirrors, b2e2 and h0g2).
        let book = Book::from_lines("h2e2\nh2e2\nh2e2\nb0c2\n").unwrap();
        let start = Position::startpos();
        let count = |variety: u32, seed: u64| {
            let mut rng = Rng::new(seed);
            (0..4000)
                .filter(|_| {
                    let b = book
                        .choose(&start, BookPolicy { variety }, &mut rng)
                        .unwrap();
                    matches!(b.mv.to_string().as_str(), "h2e2" | "b2e2")
                })
                .count()
        };
        assert_eq!(count(0, 1), 4000);
        // Proportional: 3/4 of the choices.
        let proportional = count(50, 2);
        assert!((2800..3200).contains(&proportional), "{proportional}");
        // Square roots: sqrt(3)/(sqrt(3)+1) = 0.63 of the choices.
        let flat = count(100, 3);
        assert!((2350..2700).contains(&flat), "{flat}");
        // The same seed draws the same moves.
        assert_eq!(count(50, 9), count(50, 9));
    }

    #[test]
    fn the_book_never_repeats_a_position_of_the_game() {
        let book =
            Book::from_lines("h0g2 h9g7 g2h0 g7h9 h0g2\nh0g2 h9g7 g2h0 g7h9 b0c2\n").unwrap();
        let mut pos = Position::startpos();
        for m in ["h0g2", "h9g7", "g2h0", "g7h9"] {
            let m = mv(&pos, m);
            pos.make_move(m);
        }
        // Back at the start: h0g2 would repeat the position after move 1; b0c2 is new.
        let moves: Vec<String> = book
            .candidates(&pos)
            .iter()
            .map(|b| b.mv.to_string())
            .collect();
        assert_eq!(moves, ["b0c2"]);
    }

    #[test]
    fn rare_sidelines_and_weak_books_are_left_alone() {
        let mut lines = "h2e2\n".repeat(20);
        lines.push_str("c3c4\n");
        let book = Book::from_lines(&lines).unwrap();
        let start = Position::startpos();
        let mut moves: Vec<String> = book
            .candidates(&start)
            .iter()
            .map(|b| b.mv.to_string())
            .collect();
        moves.sort();
        assert_eq!(
            moves,
            ["b2e2", "h2e2"],
            "c3c4 (1 in 21) is too rare to play"
        );
        assert_eq!(
            book.moves(&start).len(),
            4,
            "but it is in the book, mirror and all"
        );
    }

    #[test]
    fn a_book_whose_best_move_scores_badly_is_left() {
        use binary::Record;
        let start = Position::startpos();
        let record = |m: &str, weight: u16, score: i16| Record {
            key: start.key(),
            mv: mv(&start, m),
            weight,
            score,
            learn: 0,
        };
        let book_of = |records: &[Record]| {
            let mut bytes = Vec::new();
            binary::write(&mut bytes, records).unwrap();
            Book {
                source: Some(Source::Binary(BinaryBook::from_bytes(bytes).unwrap())),
            }
        };
        let good = book_of(&[record("h2e2", 10, 30), record("c3c4", 5, -150)]);
        let moves = good.candidates(&start);
        // The start is symmetric: each move stands for its mirror too.
        assert_eq!(moves.len(), 4);
        let score_of = |m: &str| moves.iter().find(|b| b.mv.to_string() == m).unwrap().score;
        assert_eq!(score_of("b2e2"), Some(30));
        assert_eq!(score_of("g3g4"), Some(-150));
        let weak = book_of(&[
            record("h2e2", 10, (WEAK_SCORE - 20) as i16),
            record("c3c4", 5, NO_SCORE),
        ]);
        assert!(weak.candidates(&start).is_empty());
        assert_eq!(weak.moves(&start).len(), 4);
        let unknown = book_of(&[record("h2e2", 10, NO_SCORE)]);
        assert_eq!(unknown.candidates(&start)[0].score, None);
        // Weight 0: known, never played.
        let zero = book_of(&[record("h2e2", 0, 10)]);
        assert!(zero.candidates(&start).is_empty());
    }

    #[test]
    fn files_of_each_kind_are_told_apart_by_their_content() {
        let dir = std::env::temp_dir().join(format!("chuhan-book-kinds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let start = Position::startpos();
        let c3c4 = mv(&start, "c3c4");
        // An ElephantEye book of one record: its lock of the start position, c3c4.
        let mut dat = eleeye::lock(&start).to_le_bytes().to_vec();
        dat.extend_from_slice(&eleeye::encode_move(c3c4).to_le_bytes());
        dat.extend_from_slice(&7u16.to_le_bytes());
        let mut ours = Vec::new();
        binary::write(
            &mut ours,
            &[binary::Record {
                key: start.key(),
                mv: c3c4,
                weight: 3,
                score: 12,
                learn: 0,
            }],
        )
        .unwrap();
        let files = [
            ("BOOK.DAT", dat.clone(), "ElephantEye"),
            ("ours.book", ours, "Chuhan"),
            ("lines.txt", b"c3c4 h9g7\n".to_vec(), "opening lines"),
        ];
        for (name, bytes, kind) in files {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let book = Book::open(&path).unwrap().book;
            assert!(
                book.describe().contains(kind),
                "{name}: {}",
                book.describe()
            );
            let moves: Vec<String> = book
                .moves(&start)
                .iter()
                .map(|b| b.mv.to_string())
                .collect();
            // The start is symmetric: c3c4 stands for g3g4 too.
            assert_eq!(moves.len(), 2, "{name}: {moves:?}");
            assert!(moves.contains(&"c3c4".to_string()), "{name}: {moves:?}");
        }
        // Broken or foreign files are refused with the reason.
        let refused = [
            ("cut.DAT", dat[..7].to_vec(), "ElephantEye"),
            ("empty.book", Vec::new(), "no usable opening line"),
            ("cut.book", b"CHUHANBK\x01\0\0\0".to_vec(), "truncated"),
            (
                "words.txt",
                b"hello world\n".to_vec(),
                "no usable opening line",
            ),
        ];
        for (name, bytes, why) in refused {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            let err = Book::open(&path).unwrap_err();
            assert!(err.0.contains(why), "{name}: {err}");
        }
        assert_eq!(
            Book::open(&dir.join("none")).unwrap_err().0,
            "does not exist"
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_move_the_position_does_not_allow_is_never_played() {
        // As a key collision or a broken book would give: a0a5 (the rook is blocked by its
        // pawn) and a move from an empty point, beside one good move.
        let start = Position::startpos();
        let raw = |from: &str, to: &str| {
            Move::new(Square::parse(from).unwrap(), Square::parse(to).unwrap())
        };
        let record = |mv: Move, weight: u16| binary::Record {
            key: start.key(),
            mv,
            weight,
            score: NO_SCORE,
            learn: 0,
        };
        let mut bytes = Vec::new();
        let records = [
            record(raw("a0", "a5"), 1000),
            record(raw("e5", "e6"), 1000),
            record(mv(&start, "h0g2"), 1),
        ];
        binary::write(&mut bytes, &records).unwrap();
        let book = Book::from_binary(BinaryBook::from_bytes(bytes).unwrap());
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let b = book.choose(&start, BookPolicy::DEFAULT, &mut rng).unwrap();
            assert!(
                matches!(b.mv.to_string().as_str(), "h0g2" | "b0c2"),
                "{}",
                b.mv
            );
        }
    }
}
