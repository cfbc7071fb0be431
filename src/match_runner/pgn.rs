//! PGN for xiangqi: a writer with the tags xiangqi tools read (`Game "Chinese Chess"`,
//! `Variant "xiangqi"`, `Red`/`Black`, `Result`, `FEN` when not the start, `TimeControl`,
//! `Termination`, `Format`), moves in ICCS (`H2-E2`, the XQ-PGN default) or WXF (`C2.5`), and a
//! small reader that replays either back into moves (used to check the round trip).
//!
//! WXF notation: piece letter K A E H R C P; the file counted 1-9 from the mover's right (Red:
//! file i = 1 … a = 9; Black: a = 1 … i = 9); `+` forward, `-` backward, `.` sideways; then the
//! destination file (sideways moves and the diagonal movers A, E, H) or the number of ranks
//! (K, R, C, P moving straight). Two like pieces on one file: `+`/`-` (front/rear) replace the
//! file digit (`R+.3`, `C--1`); pawns follow the WXF tandem-pawn rules (`P+`, `P3`, `P-`,
//! `++`, `--`, and a leading file digit when two files hold tandem pawns: `3+.4`).

use super::engine_process::Score;
use super::game::GameRecord;
use crate::movegen::legal_moves;
use crate::position::{Position, START_FEN};
use crate::types::{Color, Move, PieceKind, Square};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// ICCS coordinates, `H2-E2`.
    Iccs,
    /// WXF, `C2.5`.
    Wxf,
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

/// Today as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 → (year, month, day) (H. Hinnant's civil_from_days).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

fn score_comment(score: Option<Score>, depth: Option<u32>, time_ms: u64) -> String {
    let s = match score {
        Some(Score::Cp(cp)) => format!("{:+.2}", cp as f64 / 100.0),
        Some(Score::Mate(n)) if n >= 0 => format!("+M{n}"),
        Some(Score::Mate(n)) => format!("-M{}", n.unsigned_abs()),
        None => "?".to_string(),
    };
    let d = depth.map_or(String::new(), |d| format!("/{d}"));
    format!("{{{s}{d} {:.3}s}}", time_ms as f64 / 1000.0)
}

/// The PGN text of a game (ends with a blank line).
pub fn write_game(
    rec: &GameRecord,
    event: &str,
    round: usize,
    date: &str,
    notation: Notation,
) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Game", "Chinese Chess");
    tag("Variant", "xiangqi");
    tag("Event", event);
    tag("Site", "?");
    tag("Date", date);
    tag("Round", &round.to_string());
    tag("Red", &rec.red);
    tag("Black", &rec.black);
    tag("Result", rec.verdict.result.pgn());
    if !rec.from_start() {
        tag("SetUp", "1");
        tag("FEN", &rec.root_fen);
    }
    tag("TimeControl", &rec.tc.pgn_tag());
    tag("Termination", &rec.verdict.reason);
    tag("PlyCount", &(rec.book.len() + rec.moves.len()).to_string());
    tag(
        "Format",
        match notation {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
        },
    );
    out.push('\n');

    let mut pos = Position::from_fen(&rec.root_fen).expect("the root FEN is valid");
    let mut tokens: Vec<String> = Vec::new();
    let comments = rec.book.iter().map(|_| "{book}".to_string()).chain(
        rec.moves
            .iter()
            .map(|p| score_comment(p.score, p.depth, p.time_ms)),
    );
    for (i, (m, comment)) in rec.all_moves().into_iter().zip(comments).enumerate() {
        let red = pos.side_to_move() == Color::Red;
        if red {
            tokens.push(format!("{}.", pos.fullmove()));
        } else if i == 0 {
            tokens.push(format!("{}...", pos.fullmove()));
        }
        tokens.push(match notation {
            Notation::Iccs => iccs(m),
            Notation::Wxf => wxf(&pos, m),
        });
        tokens.push(comment);
        pos.make_move(m);
    }
    tokens.push(format!("{{{}}}", rec.verdict.reason.replace('}', ")")));
    tokens.push(rec.verdict.result.pgn().to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// A game read back from PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
    /// The root FEN (the `FEN` tag, or the start).
    pub fen: String,
    /// The moves, replayed and checked for legality.
    pub moves: Vec<Move>,
    /// The result token at the end of the movetext.
    pub result: String,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Some((key.to_string(), value))
}

/// Movetext → tokens: comments `{…}`/`;…`, variations `(…)` and NAGs dropped.
fn movetext_tokens(text: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut chars = text.chars().peekable();
    let mut depth = 0; // variation nesting
    let flush = |cur: &mut String, tokens: &mut Vec<String>| {
        if !cur.is_empty() {
            tokens.push(std::mem::take(cur));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                flush(&mut cur, &mut tokens);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                flush(&mut cur, &mut tokens);
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut cur, &mut tokens);
                depth += 1;
            }
            ')' => {
                cur.clear();
                depth -= 1;
            }
            c if c.is_whitespace() => {
                if depth == 0 {
                    flush(&mut cur, &mut tokens);
                } else {
                    cur.clear();
                }
            }
            c => cur.push(c),
        }
    }
    if depth == 0 {
        flush(&mut cur, &mut tokens);
    }
    tokens.retain(|t| !t.starts_with('$'));
    tokens
}

/// Find the legal move written as `token` (ICCS `H2-E2`, coordinates `h2e2`, or WXF).
pub fn parse_move_token(pos: &Position, token: &str) -> Option<Move> {
    let t = token.trim_end_matches(['!', '?', '#']);
    let coord = t.replace('-', "").to_ascii_lowercase();
    let wxf_text = t.replace('=', ".");
    legal_moves(pos)
        .as_slice()
        .iter()
        .copied()
        .find(|&m| (coord.len() == 4 && m.to_string() == coord) || wxf(pos, m) == wxf_text)
}

/// Read every game in a PGN text; moves are replayed and must be legal.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut lines = text.lines().peekable();
    loop {
        while lines.peek().is_some_and(|l| l.trim().is_empty()) {
            lines.next();
        }
        if lines.peek().is_none() {
            break;
        }
        let mut tags = Vec::new();
        while let Some(l) = lines.peek() {
            if !l.trim_start().starts_with('[') {
                break;
            }
            let (k, v) = parse_tag(l).ok_or_else(|| format!("bad tag line '{l}'"))?;
            tags.push((k, v));
            lines.next();
        }
        let mut movetext = String::new();
        while let Some(l) = lines.peek() {
            if l.trim_start().starts_with('[') {
                break;
            }
            movetext.push_str(l);
            movetext.push('\n');
            lines.next();
        }
        let fen = tags
            .iter()
            .find(|(k, _)| k == "FEN")
            .map_or(START_FEN.to_string(), |(_, v)| v.clone());
        let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
        let mut moves = Vec::new();
        let mut result = "*".to_string();
        for token in movetext_tokens(&movetext) {
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token.as_str()) {
                result = token;
                break;
            }
            // Move numbers: "12." or "12..." alone, or glued to a move ("12.H2-E2").
            let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let body = if digits.len() < token.len() && digits.starts_with('.') {
                let rest = digits.trim_start_matches('.');
                if rest.is_empty() {
                    continue;
                }
                if rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    rest
                } else {
                    token.as_str() // a WXF tandem-pawn move such as "33.4"
                }
            } else {
                token.as_str()
            };
            let m = parse_move_token(&pos, body)
                .ok_or_else(|| format!("illegal or unknown move '{body}' in {}", pos.to_fen()))?;
            pos.make_move(m);
            moves.push(m);
        }
        games.push(PgnGame {
            tags,
            fen,
            moves,
            result,
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_comments_take_any_reported_score() {
        assert_eq!(
            score_comment(Some(Score::Cp(-35)), Some(9), 1500),
            "{-0.35/9 1.500s}"
        );
        assert_eq!(
            score_comment(Some(Score::Mate(-3)), None, 0),
            "{-M3 0.000s}"
        );
        assert_eq!(
            score_comment(Some(Score::Mate(i32::MIN)), None, 0),
            "{-M2147483648 0.000s}"
        );
    }

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
        for t in ["H2-E2", "h2e2", "h2-e2", "C2.5", "C2=5"] {
            assert_eq!(parse_move_token(&pos, t), Some(h2e2), "{t}");
        }
        assert_eq!(parse_move_token(&pos, "H2-H8"), None);
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn reader_skips_comments_and_variations() {
        let text = "[Game \"Chinese Chess\"]\n[Red \"a \\\"b\\\"\"]\n\n1. H2-E2 {x} (1. C3-C4) H9-G7 ; rest\n2.H0-G2 $1 1/2-1/2\n";
        let g = read_pgn(text).unwrap();
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].tag("Red"), Some("a \"b\""));
        assert_eq!(g[0].moves.len(), 3);
        assert_eq!(g[0].result, "1/2-1/2");
        assert!(read_pgn("[FEN \"x\"]\n\n1. H2-E2 *\n").is_err());
        assert!(read_pgn("\n1. H2-H8 *\n").is_err());
    }
}
