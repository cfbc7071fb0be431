//! Opening sets: one opening a line, either a move line from the start position
//! (`h2e2 h9g7 h0g2`) or a FEN/EPD (`<board> <side> [- - [halfmove fullmove]] [moves …]`, EPD
//! operations after the fields are ignored). `#` starts a comment; blank lines are skipped.
//! Each opening is checked on load: the FEN must be valid and every move legal.
//! The default set, `book/openings.txt`, is compiled in.

use crate::position::{Position, START_FEN};
use crate::types::Move;

/// The default opening set shipped with the crate.
pub const DEFAULT_OPENINGS: &str = include_str!("../../book/openings.txt");

/// One opening: where the game starts and the moves already played from there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The root FEN (the start position for move lines).
    pub fen: String,
    /// Moves from the root, in protocol form.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        }
    }

    /// The position at the root with the opening moves played (history kept).
    pub fn position(&self) -> Position {
        let mut pos = Position::from_fen(&self.fen).expect("opening FEN was checked on load");
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }

    /// Whether the root is the standard start position.
    pub fn from_start(&self) -> bool {
        self.fen == START_FEN
    }
}

/// Parse one line (without comments). `Ok(None)` for a blank line.
pub fn parse_line(line: &str) -> Result<Option<Opening>, String> {
    let line = line.split('#').next().unwrap_or("").trim();
    if line.is_empty() {
        return Ok(None);
    }
    let line = line.split(';').next().unwrap_or("").trim(); // EPD operations end at ';'
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let (root, move_tokens): (Position, &[&str]) = if tokens[0].contains('/') {
        let moves_at = tokens.iter().position(|t| *t == "moves");
        let fen_tokens = &tokens[..moves_at.unwrap_or(tokens.len())];
        // Try the longest prefix that parses: 6 fields, 4 (EPD), 2, 1.
        let mut found = None;
        for n in [6, 4, 2, 1] {
            if fen_tokens.len() >= n {
                if let Ok(p) = Position::from_fen(&fen_tokens[..n].join(" ")) {
                    found = Some(p);
                    break;
                }
            }
        }
        let pos = found.ok_or_else(|| format!("bad FEN in opening '{line}'"))?;
        let rest: &[&str] = match moves_at {
            Some(i) => &tokens[i + 1..],
            None => &[],
        };
        (pos, rest)
    } else {
        (Position::startpos(), &tokens[..])
    };
    let fen = root.to_fen();
    let mut pos = root;
    let mut moves = Vec::new();
    for t in move_tokens {
        let m = pos
            .parse_move(t)
            .map_err(|e| format!("opening '{line}': {e}"))?;
        pos.make_move(m);
        moves.push(m);
    }
    if crate::movegen::legal_moves(&pos).is_empty() {
        return Err(format!("opening '{line}' leaves no legal move"));
    }
    Ok(Some(Opening { fen, moves }))
}

/// Parse a whole opening file; errors name the line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(o) = parse_line(line).map_err(|e| format!("line {}: {e}", i + 1))? {
            out.push(o);
        }
    }
    Ok(out)
}

/// Load an opening file, or the default set for `None`.
pub fn load(path: Option<&std::path::Path>) -> Result<Vec<Opening>, String> {
    let text = match path {
        Some(p) => std::fs::read_to_string(p)
            .map_err(|e| format!("cannot read openings '{}': {e}", p.display()))?,
        None => DEFAULT_OPENINGS.to_string(),
    };
    let list = parse_openings(&text)?;
    if list.is_empty() {
        return Err("the opening set is empty".to_string());
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn default_set_is_legal_and_distinct() {
        let list = load(None).unwrap();
        assert!(list.len() >= 30, "{} openings", list.len());
        let mut keys: Vec<u64> = list.iter().map(|o| o.position().key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(
            keys.len(),
            list.len(),
            "two openings reach the same position"
        );
        for o in &list {
            assert!(o.from_start());
            assert!(o.moves.len() >= 2);
        }
    }

    #[test]
    fn parses_fens_epd_and_moves() {
        let o = parse_line("h2e2 h9g7  # central cannon").unwrap().unwrap();
        assert_eq!(o.moves.len(), 2);
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let o = parse_line(&format!("{fen} w - - bm h2e2; id \"x\";"))
            .unwrap()
            .unwrap();
        assert!(o.moves.is_empty());
        let o = parse_line(&format!("{fen} w - - 0 1 moves h2e2 h9g7"))
            .unwrap()
            .unwrap();
        assert_eq!(o.moves.len(), 2);
        let o = parse_line(&format!("{fen} b")).unwrap().unwrap();
        assert_eq!(o.position().side_to_move(), crate::types::Color::Black);
        assert_eq!(parse_line("   # nothing").unwrap(), None);
        assert!(parse_line("h2e2 h2e2").is_err());
        assert!(parse_line("rnbakabnr/9 w").is_err());
        assert!(parse_openings("h2e2\nbad")
            .unwrap_err()
            .starts_with("line 2"));
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut a = load(None).unwrap();
        let mut b = a.clone();
        Rng::new(7).shuffle(&mut a);
        Rng::new(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut sorted_a: Vec<String> = a.iter().map(|o| format!("{:?}", o.moves)).collect();
        let mut orig: Vec<String> = load(None)
            .unwrap()
            .iter()
            .map(|o| format!("{:?}", o.moves))
            .collect();
        sorted_a.sort();
        orig.sort();
        assert_eq!(sorted_a, orig);
    }
}
