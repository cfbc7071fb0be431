//! `chuhan book learn`: a book's weights follow the results of made-up games whose effect is
//! known exactly (`round(w × 2^(net / scale))`, see `tools::book_builder::learn`), the
//! learning field counts the games and their net result, and bad input is an error or is
//! counted, never a panic.

use chuhan::board::position::Position;
use chuhan::engine::book::binary::{self, BinaryBook, Record, NO_SCORE};
use chuhan::tools::book_builder::canonical;
use chuhan::tools::book_builder::learn::{learn, PlayedGame};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CHUHAN: &str = env!("CARGO_BIN_EXE_chuhan");

fn chuhan(args: &[&str]) -> Output {
    Command::new(CHUHAN).args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("chuhan-learn-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The position after `moves` from the start.
fn after(moves: &str) -> Position {
    let mut pos = Position::startpos();
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

/// The book's record of `mv` after `moves`, stored as our books store it.
fn record(moves: &str, mv: &str, weight: u16) -> Record {
    let pos = after(moves);
    let (key, mv) = canonical(&pos, pos.parse_move(mv).unwrap());
    Record {
        key,
        mv,
        weight,
        score: 10,
        learn: 0,
    }
}

/// A small book: the central cannon and its answers, c3c4, and a loop of horse moves that
/// comes back to the start.
fn book_records() -> Vec<Record> {
    vec![
        record("", "h2e2", 1000),
        record("", "c3c4", 500),
        record("h2e2", "h9g7", 1000),
        record("h2e2", "b9c7", 1000),
        record("h2e2 h9g7", "h0g2", 1000),
        record("h2e2 h9g7 h0g2", "i9h9", 0),
        record("", "h0g2", 100),
        record("h0g2", "h9g7", 100),
        record("h0g2 h9g7", "g2h0", 100),
        record("h0g2 h9g7 g2h0", "g7h9", 100),
    ]
}

fn write_book(path: &Path, records: &[Record]) {
    let mut bytes = Vec::new();
    binary::write(&mut bytes, records).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn read_book(path: &Path) -> Vec<Record> {
    BinaryBook::open(path)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect()
}

/// The weight and the learning field of a move of a learned book.
fn learned(records: &[Record], moves: &str, mv: &str) -> (u16, (u32, i32)) {
    let want = record(moves, mv, 0);
    let r = records
        .iter()
        .find(|r| r.key == want.key && r.mv == want.mv)
        .unwrap_or_else(|| panic!("{moves} {mv} not in the book"));
    (r.weight, r.learned())
}

/// Ten games, each there for a reason (the comments), in ICCS as `chuhan match` writes them
/// and in plain coordinates.
const GAMES: &str = r#"[Event "1: Red wins the main line"]
[Result "1-0"]

1. H2-E2 {book} H9-G7 2. H0-G2 I9-H9 3. I0-H0 1-0

[Event "2: the same again"]
[Result "1-0"]

1. h2e2 h9g7 2. h0g2 1-0

[Event "3: Black wins with b9c7"]
[Result "0-1"]

1. h2e2 b9c7 0-1

[Event "4: the mirror of game 2 (learned into h2e2 h9g7 h0g2)"]
[Result "1-0"]

1. b2e2 b9c7 2. b0c2 1-0

[Event "5: a draw"]
[Result "1/2-1/2"]

1. c3c4 c6c5 1/2-1/2

[Event "6: no result"]
[Result "*"]

1. h2e2 h9g7 *

[Event "7: not from the book's positions"]
[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]
[Result "1-0"]

1. d0d1 e9e8 1-0

[Event "8: an illegal move"]
[Result "1-0"]

1. h2e2 h9h3 1-0

[Event "9: leaves the book at a0a1; Black wins"]
[Result "0-1"]

1. h2e2 h9g7 2. a0a1 a9a8 0-1

[Event "10: round the horse loop and back: each move counts once"]
[Result "1-0"]

1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 1-0
"#;

#[test]
fn weights_follow_the_results_exactly() {
    let dir = TempDir::new("exact");
    let book = dir.file("in.book", b"");
    write_book(&book, &book_records());
    let before = std::fs::read(&book).unwrap();
    let pgn = dir.file("games.pgn", GAMES.as_bytes());
    let out = dir.0.join("out.book");
    let run = chuhan(&[
        "book",
        "learn",
        book.to_str().unwrap(),
        pgn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--scale",
        "4",
    ]);
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    assert!(
        said.contains(
            "10 games read: 7 learned from (19 book moves, 10 records changed), \
             1 out of book, 1 without a result, 1 unreadable"
        ),
        "{said}"
    );
    assert!(
        said.contains("games.pgn:37: illegal or unknown move 'h9h3'"),
        "{said}"
    );
    // -o: the book read is left as it was.
    assert_eq!(std::fs::read(&book).unwrap(), before);
    let r = read_book(&out);
    assert_eq!(r.len(), 10);
    // Scale 4: w × 2^(net / 4), rounded.
    // h2e2: games 1, 2, 4 won, 3 and 9 lost: net +1 in 5 games: 1000 × 2^(1/4) = 1189.2.
    assert_eq!(learned(&r, "", "h2e2"), (1189, (5, 1)));
    // h9g7 for Black: lost in 1, 2, 4, won in 9: net −2: 1000 × 2^(−1/2) = 707.1.
    assert_eq!(learned(&r, "h2e2", "h9g7"), (707, (4, -2)));
    assert_eq!(learned(&r, "h2e2", "b9c7"), (1189, (1, 1)));
    // h0g2: won in 1, 2 and 4 (the mirror): 1000 × 2^(3/4) = 1681.8.
    assert_eq!(learned(&r, "h2e2 h9g7", "h0g2"), (1682, (3, 3)));
    // Weight 0 stays 0; game 1's i9h9 is learned all the same.
    assert_eq!(learned(&r, "h2e2 h9g7 h0g2", "i9h9"), (0, (1, -1)));
    // A draw changes no weight, but it is counted.
    assert_eq!(learned(&r, "", "c3c4"), (500, (1, 0)));
    // The loop: each move once, though played twice: 100 × 2^(±1/4).
    assert_eq!(learned(&r, "", "h0g2"), (119, (1, 1)));
    assert_eq!(learned(&r, "h0g2", "h9g7"), (84, (1, -1)));
    assert_eq!(learned(&r, "h0g2 h9g7", "g2h0"), (119, (1, 1)));
    assert_eq!(learned(&r, "h0g2 h9g7 g2h0", "g7h9"), (84, (1, -1)));
    // Scores are the analysis's, untouched.
    assert!(r.iter().all(|r| r.score == 10 && r.score != NO_SCORE));

    // `book show` prints the tree with the learning field. At the start the book plays h2e2
    // and b2e2 (its mirror) 1189, c3c4/g3g4 500, h0g2/b0c2 119: h2e2 is 1189 / 3616.
    let shown = chuhan(&["book", "show", out.to_str().unwrap(), "--depth", "2"]);
    let shown = text(&shown);
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[2], "weight  play%  score    learn  move", "{shown}");
    for want in [
        "  1189   32.9     10     5/+1  h2e2",
        "  1189   32.9     10     5/+1  b2e2",
        "   500   13.8     10     1/+0  c3c4",
        // Below h2e2: b9c7 1189 and h9g7 707 (1896 in all).
        "  1189   62.7     10     1/+1    b9c7",
        "   707   37.3     10     4/-2    h9g7",
        // Below h0g2, depth 2: h9g7.
        "    84  100.0     10     1/-1    h9g7",
    ] {
        assert!(lines.contains(&want), "'{want}' not in:\n{shown}");
    }
    // Depth 2: nothing three plies deep (h0g2 after h2e2 h9g7).
    assert!(!lines.iter().any(|l| l.ends_with("      h0g2")), "{shown}");
    let deeper = chuhan(&[
        "book",
        "show",
        out.to_str().unwrap(),
        "h2e2",
        "h9g7",
        "--depth",
        "2",
    ]);
    let deeper = text(&deeper);
    // i9h9 has weight 0: shown, never played.
    assert!(
        deeper.contains("  1682  100.0     10     3/+3  h0g2"),
        "{deeper}"
    );
    assert!(
        deeper.contains("     0      -     10     1/-1    i9h9"),
        "{deeper}"
    );
    let outside = chuhan(&["book", "show", out.to_str().unwrap(), "a3a4"]);
    assert!(
        text(&outside).ends_with("not in the book\n"),
        "{}",
        text(&outside)
    );

    // In place, a second time with the default scale (8): the field adds up.
    let again = chuhan(&[
        "book",
        "learn",
        out.to_str().unwrap(),
        pgn.to_str().unwrap(),
    ]);
    assert!(again.status.success(), "{}", text(&again));
    let r = read_book(&out);
    // 1189 × 2^(1/8) = 1296.7; 707 × 2^(−2/8) = 594.5.
    assert_eq!(learned(&r, "", "h2e2"), (1297, (10, 2)));
    assert_eq!(learned(&r, "h2e2", "h9g7"), (595, (8, -4)));
}

/// The same games in another order teach the same.
#[test]
fn learning_does_not_depend_on_the_order_of_the_games() {
    let lines = [
        ("h2e2 h9g7 h0g2", 1),
        ("h2e2 b9c7", -1),
        ("c3c4", 0),
        ("h2e2 h9g7", -1),
        ("b2e2 b9c7 b0c2", 1),
        ("h0g2 h9g7 g2h0 g7h9 h0g2", 1),
    ];
    let games: Vec<PlayedGame> = lines
        .iter()
        .map(|&(moves, result)| {
            let mut pos = Position::startpos();
            let moves = moves
                .split_whitespace()
                .map(|m| {
                    let mv = pos.parse_move(m).unwrap();
                    pos.make_move(mv);
                    mv
                })
                .collect();
            PlayedGame {
                start: Position::startpos(),
                moves,
                red_result: Some(result),
            }
        })
        .collect();
    let mut forward = book_records();
    let a = learn(&mut forward, &games, 8);
    let mut backward = book_records();
    let reversed: Vec<PlayedGame> = games.iter().rev().cloned().collect();
    let b = learn(&mut backward, &reversed, 8);
    assert_eq!(a, b);
    assert_eq!(forward, backward);
    assert_eq!(a.games, 6);
    // h2e2: +1 −1 −1 +1 = 0 in 4 games: the weight stays, the games are counted.
    assert_eq!(learned(&forward, "", "h2e2"), (1000, (4, 0)));
}

#[test]
fn bad_input_is_an_error_and_leaves_the_book_alone() {
    let dir = TempDir::new("bad");
    let book = dir.file("in.book", b"");
    write_book(&book, &book_records());
    let before = std::fs::read(&book).unwrap();
    let good = dir.file("good.pgn", GAMES.as_bytes());
    let b = book.to_str().unwrap();
    let g = good.to_str().unwrap();
    let broken_tag = dir.file("tag.pgn", b"[Event \"a\n\n1. h2e2 1-0\n");
    let not_utf8 = dir.file("bytes.pgn", b"\xff\xfe\x00garbage");
    let empty = dir.file("empty.pgn", b"");
    let outside = dir.file(
        "outside.pgn",
        b"[Result \"1-0\"]\n\n1. a3a4 a6a5 1-0\n\n[Result \"0-1\"]\n\n1. b0a2 0-1\n",
    );
    let words = dir.file("words.pgn", b"hello world\n");
    let lines = dir.file("lines.txt", b"h2e2 h9g7\n");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["book", "learn"], "needs a book"),
        (vec!["book", "learn", b], "needs PGN files"),
        (
            vec!["book", "learn", b, "/nonexistent/x.pgn"],
            "does not exist",
        ),
        (
            vec!["book", "learn", "/nonexistent/x.book", g],
            "does not exist",
        ),
        (
            vec!["book", "learn", lines.to_str().unwrap(), g],
            "only a Chuhan book",
        ),
        (vec!["book", "learn", b, g, "--scale", "0"], "--scale"),
        (vec!["book", "learn", b, g, "--bogus"], "unknown option"),
        (vec!["book", "learn", b, g, "-o"], "needs a value"),
        // A file unreadable as a whole: nothing is learned, even from the good file.
        (
            vec!["book", "learn", b, g, broken_tag.to_str().unwrap()],
            "bad tag line",
        ),
        (
            vec!["book", "learn", b, not_utf8.to_str().unwrap()],
            "not UTF-8",
        ),
        (
            vec!["book", "learn", b, empty.to_str().unwrap()],
            "no game in",
        ),
        (
            vec!["book", "learn", b, outside.to_str().unwrap()],
            "no game went through the book",
        ),
        (
            vec!["book", "learn", b, words.to_str().unwrap()],
            "no game went through the book",
        ),
    ];
    for (args, why) in cases {
        let out = chuhan(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(why), "{args:?}: {said} lacks '{why}'");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert_eq!(std::fs::read(&book).unwrap(), before, "{args:?}");
    }
    // Games outside the book and unreadable ones are counted and reported.
    let out = chuhan(&["book", "learn", b, words.to_str().unwrap()]);
    assert!(
        text(&out).contains("1 games read: 0 learned from"),
        "{}",
        text(&out)
    );
    assert!(
        text(&out).contains("words.pgn:1: illegal or unknown move 'hello'"),
        "{}",
        text(&out)
    );
    let out = chuhan(&["book", "learn", b, outside.to_str().unwrap()]);
    assert!(text(&out).contains("2 out of book"), "{}", text(&out));
}
