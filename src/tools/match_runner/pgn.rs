//! PGN for xiangqi: a writer with the tags xiangqi tools read (`Game "Chinese Chess"`,
//! `Variant "xiangqi"`, `Red`/`Black`, `Result`, `FEN` when not the start, `TimeControl`,
//! `Termination`, `Format`), moves in ICCS (`H2-E2`, the XQ-PGN default) or WXF (`C2.5`), and a
//! small reader that replays either back into moves (used to check the round trip and to build
//! books), or reads the tags alone (for rating lists, from any tool's PGN). The notations
//! themselves live in `crate::board::notation`.

use super::engine_process::Score;
use super::game::GameRecord;
use crate::board::notation::{self, Notation};
use crate::board::position::{Position, START_FEN};
use crate::board::types::{Color, Move};

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
    // One tag when both sides have the same clock; at time odds one per side, as
    // cutechess-cli writes WhiteTimeControl and BlackTimeControl.
    let [red_tc, black_tc] = rec.tc;
    if red_tc == black_tc {
        tag("TimeControl", &red_tc.pgn_tag());
    } else {
        tag("RedTimeControl", &red_tc.pgn_tag());
        tag("BlackTimeControl", &black_tc.pgn_tag());
    }
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
        tokens.push(notation.write(&pos, m));
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
        find_tag(&self.tags, key)
    }
}

fn find_tag<'a>(tags: &'a [(String, String)], key: &str) -> Option<&'a str> {
    tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
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

/// One game as it stands in a PGN text: its tags and its movetext, not yet read.
struct RawGame {
    /// Line number (from 1) where the game starts.
    line: usize,
    tags: Vec<(String, String)>,
    movetext: String,
}

/// Split a PGN text into games: tag lines, then movetext up to the next tag line.
fn split_games(text: &str) -> Result<Vec<RawGame>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    loop {
        while lines.peek().is_some_and(|(_, l)| l.trim().is_empty()) {
            lines.next();
        }
        let Some(&(start, _)) = lines.peek() else {
            break;
        };
        let mut tags = Vec::new();
        while let Some(&(n, l)) = lines.peek() {
            if !l.trim_start().starts_with('[') {
                break;
            }
            let (k, v) = parse_tag(l).ok_or_else(|| format!("bad tag line {}: '{l}'", n + 1))?;
            tags.push((k, v));
            lines.next();
        }
        let mut movetext = String::new();
        while let Some(&(_, l)) = lines.peek() {
            if l.trim_start().starts_with('[') {
                break;
            }
            movetext.push_str(l);
            movetext.push('\n');
            lines.next();
        }
        games.push(RawGame {
            line: start + 1,
            tags,
            movetext,
        });
    }
    Ok(games)
}

/// Read every game in a PGN text; moves are replayed and must be legal.
pub fn read_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    split_games(text)?.into_iter().map(replay).collect()
}

/// A game read on its own: the line (from 1) it starts on, and the game or why it is unreadable.
pub type NumberedGame = (usize, Result<PgnGame, String>);

/// Every game in a PGN text, each read on its own: a game with a bad FEN or an illegal move is
/// an error for that game alone, and the others are still read. Each comes with the line (from
/// 1) it starts on. Only a text that cannot be split into games (a broken tag line) fails whole.
pub fn read_pgn_each(text: &str) -> Result<Vec<NumberedGame>, String> {
    Ok(split_games(text)?
        .into_iter()
        .map(|g| (g.line, replay(g)))
        .collect())
}

fn replay(raw: RawGame) -> Result<PgnGame, String> {
    let RawGame { tags, movetext, .. } = raw;
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
        let m = notation::parse_move(&pos, body)
            .map_err(|_| format!("illegal or unknown move '{body}' in {}", pos.to_fen()))?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(PgnGame {
        tags,
        fen,
        moves,
        result,
    })
}

/// A game's tags alone, its moves not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnTags {
    /// Line number (from 1) where the game starts.
    pub line: usize,
    /// Tags in file order.
    pub tags: Vec<(String, String)>,
}

impl PgnTags {
    /// A tag's value.
    pub fn tag(&self, key: &str) -> Option<&str> {
        find_tag(&self.tags, key)
    }
}

/// Every game's tags, the movetext skipped: enough to rate games written in any move notation
/// (ICCS, WXF, cutechess-cli's or XBoard's own).
pub fn read_tags(text: &str) -> Result<Vec<PgnTags>, String> {
    Ok(split_games(text)?
        .into_iter()
        .map(|g| PgnTags {
            line: g.line,
            tags: g.tags,
        })
        .collect())
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

    #[test]
    fn games_are_read_one_by_one() {
        let text = "[Event \"a\"]\n\n1. H2-E2 H9-G7 1-0\n\n[Event \"b\"]\n\n1. H2-H8 *\n\n\
                    [Event \"c\"]\n\n1. C3-C4 0-1\n";
        let games = read_pgn_each(text).unwrap();
        let lines: Vec<usize> = games.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 5, 9]);
        assert_eq!(games[0].1.as_ref().unwrap().moves.len(), 2);
        assert!(games[1].1.as_ref().unwrap_err().contains("H2-H8"));
        assert_eq!(games[2].1.as_ref().unwrap().result, "0-1");
        assert!(read_pgn_each("[Event \"a\n\n1. H2-E2 *\n").is_err());
    }
}
