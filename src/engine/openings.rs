//! Opening lines, the format of `book/openings.txt`: one opening a line, either a move line
//! from the start position (`h2e2 h9g7 h0g2`) or a position line (`<FEN> [moves …]`, also with
//! `startpos`/`fen`, see `position_line`) whose FEN may be an EPD (`<board> <side> [- -
//! [halfmove fullmove]]`, EPD operations after the fields ignored). `#` starts a comment; blank
//! lines are skipped. Each opening is checked on load: the FEN must be valid, every move legal,
//! and the side to move must have a move left.
//!
//! The one reader of the format: the opening book (`book`) builds from it, the match runner and
//! the tuner's self-play start games from it. The default set is compiled in.

use crate::board::movegen::legal_moves;
use crate::board::position::{Position, START_FEN};
use crate::board::position_line::{self, PositionSpec};
use crate::board::types::Move;

/// The default opening set (and the built-in book), `book/openings.txt`.
pub const DEFAULT_OPENINGS: &str =
    include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/book/openings.txt"));

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

/// Parse one line. `Ok(None)` for a blank or comment line.
pub fn parse_line(line: &str) -> Result<Option<Opening>, String> {
    let line = line.split('#').next().unwrap_or("");
    let line = line.split(';').next().unwrap_or("").trim(); // EPD operations end at ';'
    let Some(first) = line.split_whitespace().next() else {
        return Ok(None);
    };
    let spec = if !first.eq_ignore_ascii_case("position") && !position_line::opens_position(first) {
        PositionSpec {
            fen: None,
            moves: line.split_whitespace().map(str::to_string).collect(),
        }
    } else {
        let mut spec = PositionSpec::parse(line).map_err(|e| format!("opening '{line}': {e}"))?;
        if let Some(fen) = &spec.fen {
            let fen = epd_fen(fen).ok_or_else(|| format!("bad FEN in opening '{line}'"))?;
            spec.fen = Some(fen);
        }
        spec
    };
    let mut pos = position_line::root(spec.fen.as_deref())
        .map_err(|e| format!("bad FEN in opening '{line}': {e}"))?;
    let fen = pos.to_fen();
    position_line::play_moves(&mut pos, &spec.moves, Position::parse_move)
        .map_err(|e| format!("opening '{line}': {e}"))?;
    if legal_moves(&pos).is_empty() {
        return Err(format!("opening '{line}' leaves no legal move"));
    }
    let moves = pos.history()[1..].iter().map(|st| st.mv).collect();
    Ok(Some(Opening { fen, moves }))
}

/// The longest leading fields of an EPD that make a valid FEN: 6 fields, 4 (EPD), 2, 1.
fn epd_fen(epd: &str) -> Option<String> {
    let fields: Vec<&str> = epd.split_whitespace().collect();
    [6, 4, 2, 1]
        .into_iter()
        .filter(|&n| fields.len() >= n)
        .map(|n| fields[..n].join(" "))
        .find(|fen| Position::from_fen(fen).is_ok())
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
        assert_eq!(
            o.position().side_to_move(),
            crate::board::types::Color::Black
        );
        assert_eq!(parse_line("   # nothing").unwrap(), None);
        assert_eq!(parse_line("; id \"no position\"").unwrap(), None);
        let o = parse_line("position startpos moves h2e2 h9g7")
            .unwrap()
            .unwrap();
        assert_eq!((o.from_start(), o.moves.len()), (true, 2));
        assert!(parse_line("startpos x").is_err());
        assert!(parse_line("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b")
            .unwrap_err()
            .contains("leaves no legal move"));
        assert!(parse_line("h2e2 h2e2").is_err());
        assert!(parse_line("rnbakabnr/9 w").is_err());
        assert!(parse_openings("h2e2\nbad")
            .unwrap_err()
            .starts_with("line 2"));
    }
}
