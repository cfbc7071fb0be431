//! Position lines: `[position] (startpos | [fen] <FEN fields…>) [moves m1 m2 …]`, the way the
//! protocols, the judge, opening files and test tools name a position. One parser
//! ([`PositionSpec::parse`]) splits such a line; one replay ([`play`], [`play_moves`]) turns a
//! FEN and a move list into a [`Position`], numbering the move that fails.
//!
//! Keywords (`position`, `startpos`, `fen`, `moves`) match in any case. Without `startpos` or
//! `fen`, everything before `moves` is the FEN; splitting never judges a FEN or a move, the
//! replay does.

use crate::board::position::{FenError, MoveError, Position};
use crate::board::types::Move;
use std::fmt;

/// A position as a line names it: a FEN (None = the start position) and moves from there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionSpec {
    /// FEN fields joined by single spaces; None for `startpos`.
    pub fen: Option<String>,
    /// Moves to play from that position, as text (`h2e2`).
    pub moves: Vec<String>,
}

/// Why a line names no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// Neither `startpos` nor a FEN.
    Empty,
    /// `fen` with no fields after it.
    MissingFen,
    /// A word between `startpos` and `moves`.
    Unexpected(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => write!(f, "missing startpos or fen"),
            SpecError::MissingFen => write!(f, "missing the FEN"),
            SpecError::Unexpected(w) => write!(f, "unexpected '{w}' after startpos"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Why a FEN and move list give no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Bad FEN.
    Fen(FenError),
    /// A move of the list that cannot be played (1-based index).
    Move(usize, MoveError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::Move(i, e) => write!(f, "move {i}: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

impl PositionSpec {
    /// Split a whole line; a leading `position` is skipped.
    pub fn parse(line: &str) -> Result<PositionSpec, SpecError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.split_first() {
            Some((first, rest)) if first.eq_ignore_ascii_case("position") => {
                PositionSpec::from_words(rest)
            }
            _ => PositionSpec::from_words(&words),
        }
    }

    /// Split the words after `position`: `startpos [moves …]`, `fen <fields…> [moves …]` or
    /// `<fields…> [moves …]`.
    pub fn from_words(words: &[&str]) -> Result<PositionSpec, SpecError> {
        let owned = |ws: &[&str]| -> Vec<String> { ws.iter().map(|w| w.to_string()).collect() };
        let (head, moves) = match words.iter().position(|w| w.eq_ignore_ascii_case("moves")) {
            Some(i) => (&words[..i], owned(&words[i + 1..])),
            None => (words, Vec::new()),
        };
        let Some((&first, rest)) = head.split_first() else {
            return Err(SpecError::Empty);
        };
        if first.eq_ignore_ascii_case("startpos") {
            if let Some(w) = rest.first() {
                return Err(SpecError::Unexpected(w.to_string()));
            }
            return Ok(PositionSpec { fen: None, moves });
        }
        let fen = if first.eq_ignore_ascii_case("fen") {
            rest
        } else {
            head
        };
        if fen.is_empty() {
            return Err(SpecError::MissingFen);
        }
        Ok(PositionSpec {
            fen: Some(fen.join(" ")),
            moves,
        })
    }

    /// The position this spec names (moves in coordinates, `h2e2`).
    pub fn play(&self) -> Result<Position, PositionError> {
        play(self.fen.as_deref(), &self.moves)
    }
}

impl std::str::FromStr for PositionSpec {
    type Err = SpecError;

    fn from_str(line: &str) -> Result<PositionSpec, SpecError> {
        PositionSpec::parse(line)
    }
}

/// Whether `word` can open the words after `position`: `startpos`, `fen`, or a FEN board (it
/// has a `/`). Readers that accept other lines too (a bare move list) tell them apart by it.
pub fn opens_position(word: &str) -> bool {
    word.eq_ignore_ascii_case("startpos") || word.eq_ignore_ascii_case("fen") || word.contains('/')
}

/// The position `fen` names (None = the start position), before any move.
pub fn root(fen: Option<&str>) -> Result<Position, FenError> {
    match fen {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f),
    }
}

/// The position `fen` names (None = the start position) with `moves` (coordinates) played.
pub fn play<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Position, PositionError> {
    let mut pos = root(fen).map_err(PositionError::Fen)?;
    play_moves(&mut pos, moves, Position::parse_move)?;
    Ok(pos)
}

/// Play `moves` onto `pos`, each read by `read` (`Position::parse_move` for coordinates,
/// `notation::parse_move` for any notation). On error `pos` stands before the failing move.
pub fn play_moves<S: AsRef<str>>(
    pos: &mut Position,
    moves: &[S],
    read: fn(&Position, &str) -> Result<Move, MoveError>,
) -> Result<(), PositionError> {
    for (i, text) in moves.iter().enumerate() {
        let m = read(pos, text.as_ref()).map_err(|e| PositionError::Move(i + 1, e))?;
        pos.make_move(m);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::position::START_FEN;

    fn spec(fen: Option<&str>, moves: &[&str]) -> PositionSpec {
        PositionSpec {
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    #[test]
    fn lines_split_in_every_spelling() {
        let fen = "3k5/9/9/9/9/9/9/9/2R6/4K4 w - - 0 1";
        let start = spec(None, &["h2e2", "h9g7"]);
        for line in [
            "startpos moves h2e2 h9g7",
            "position startpos moves h2e2 h9g7",
            "  POSITION  StartPos MOVES h2e2   h9g7\r",
        ] {
            assert_eq!(PositionSpec::parse(line), Ok(start.clone()), "{line}");
        }
        let with_fen = spec(Some(fen), &["c1d1"]);
        for line in [
            format!("fen {fen} moves c1d1"),
            format!("position fen {fen} moves c1d1"),
            format!("{fen} moves c1d1"),
            format!("position {fen} moves c1d1"),
        ] {
            assert_eq!(line.parse(), Ok(with_fen.clone()), "{line}");
        }
        assert_eq!(PositionSpec::parse("startpos moves"), Ok(spec(None, &[])));
        for w in ["startpos", "FEN", "9/9"] {
            assert!(opens_position(w), "{w}");
        }
        for w in ["h2e2", "position", "moves"] {
            assert!(!opens_position(w), "{w}");
        }
        assert_eq!(PositionSpec::parse("position"), Err(SpecError::Empty));
        assert_eq!(PositionSpec::parse("moves h2e2"), Err(SpecError::Empty));
        assert_eq!(
            PositionSpec::parse("fen moves h2e2"),
            Err(SpecError::MissingFen)
        );
        assert_eq!(
            PositionSpec::parse("startpos x moves h2e2"),
            Err(SpecError::Unexpected("x".into()))
        );
    }

    #[test]
    fn replay_plays_the_moves_and_numbers_the_one_that_fails() {
        let pos = spec(None, &["h2e2", "h9g7"]).play().unwrap();
        let mut want = Position::startpos();
        for m in ["h2e2", "h9g7"] {
            let m = want.parse_move(m).unwrap();
            want.make_move(m);
        }
        assert_eq!(pos.key(), want.key());
        assert_eq!(pos.to_fen(), want.to_fen());
        assert_eq!(
            spec(Some(START_FEN), &[]).play().unwrap().key(),
            Position::startpos().key()
        );
        assert!(matches!(
            spec(Some("9/9 w"), &[]).play(),
            Err(PositionError::Fen(_))
        ));
        assert_eq!(
            spec(None, &["h2e2", "h2e3"]).play().unwrap_err(),
            PositionError::Move(2, MoveError::Illegal("h2e3".into()))
        );
        assert_eq!(
            spec(None, &["zz"]).play().unwrap_err().to_string(),
            "move 1: cannot parse move 'zz'"
        );
        // On error the position stands before the failing move.
        let mut pos = Position::startpos();
        let err = play_moves(
            &mut pos,
            &["C2.5", "R1+9"],
            crate::board::notation::parse_move,
        );
        assert_eq!(
            err,
            Err(PositionError::Move(2, MoveError::Illegal("R1+9".into())))
        );
        assert_eq!(pos.to_fen(), spec(None, &["h2e2"]).play().unwrap().to_fen());
    }
}
