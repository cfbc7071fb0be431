//! The referee: checks every move an engine sends, and asks the rules whether the game is over.
//!
//! Game-end rulings come from `rules::adjudicate`, the same rules module the search uses.
//! Engine faults (illegal move, crash, no answer, protocol error, time forfeit) are ruled here:
//! each is a loss for the side at fault, with the reason recorded for the PGN's `Termination`
//! tag.

use crate::board::position::{MoveError, Position};
use crate::board::types::{Color, Move};

use crate::rules;

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// PGN result text.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// Parse PGN result text.
    pub fn from_pgn(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::RedWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// A loss for `color`.
    pub fn loss_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }

    /// Points for `color`: 1, ½ or 0.
    pub fn points_for(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::RedWins, Color::Red) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// How a game ended, for statistics and the PGN `Termination` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the rules on the board (mate, stalemate, repetition, 60 moves, material).
    Rules,
    /// An engine sent an illegal or malformed move.
    IllegalMove,
    /// An engine overstepped its time.
    TimeForfeit,
    /// An engine exited, closed its pipes, or failed to start.
    Crash,
    /// An engine did not answer (fixed depth/nodes with no reply within the timeout).
    NoAnswer,
    /// An engine broke the protocol (rejected a legal move, answered `Error`) or could not be
    /// told the game (a FEN opening for a CECP engine without `setboard`).
    ProtocolError,
    /// An engine resigned.
    Resignation,
    /// The runner adjudicated by agreed engine scores.
    Adjudication,
}

impl Termination {
    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::IllegalMove => "illegal move",
            Termination::TimeForfeit => "time forfeit",
            Termination::Crash => "crash",
            Termination::NoAnswer => "no answer",
            Termination::ProtocolError => "protocol error",
            Termination::Resignation => "resignation",
            Termination::Adjudication => "adjudication",
        }
    }
}

/// The referee's final word on a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Who won.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// Why, in words ("Black is checkmated", "Red lost on time", …).
    pub reason: String,
}

/// The rule set chosen on the command line (kept separate from `rules::RuleSet` so the
/// runner needs no trait of that type but its three variants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleChoice {
    /// Chinese rules.
    Chinese,
    /// Asian rules.
    Asian,
    /// All repetitions draw.
    Draw,
}

impl std::str::FromStr for RuleChoice {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> anyhow::Result<Self> {
        match s.to_ascii_lowercase().as_str() {
            "chinese" => Ok(RuleChoice::Chinese),
            "asian" => Ok(RuleChoice::Asian),
            "draw" => Ok(RuleChoice::Draw),
            _ => Err(anyhow::anyhow!(
                "unknown rule set '{s}' (chinese, asian or draw)"
            )),
        }
    }
}

impl RuleChoice {
    fn to_rules(self) -> rules::RuleSet {
        match self {
            RuleChoice::Chinese => rules::RuleSet::Chinese,
            RuleChoice::Asian => rules::RuleSet::Asian,
            RuleChoice::Draw => rules::RuleSet::Draw,
        }
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            RuleChoice::Chinese => "chinese",
            RuleChoice::Asian => "asian",
            RuleChoice::Draw => "draw",
        }
    }
}

/// Is the game over at `pos` by the rules? (Whole history judged: repetitions, 60 moves.)
pub fn game_over(pos: &Position, rules: RuleChoice) -> Option<Verdict> {
    let ruling = rules::adjudicate(pos, rules.to_rules())?;
    let result = match ruling.outcome {
        rules::Outcome::RedWins => GameResult::RedWins,
        rules::Outcome::BlackWins => GameResult::BlackWins,
        rules::Outcome::Draw => GameResult::Draw,
    };
    Some(Verdict {
        result,
        termination: Termination::Rules,
        reason: ruling.reason,
    })
}

/// Check the move text an engine sent: the move, or the verdict against `side`.
pub fn check_move(pos: &Position, text: &str, side: Color) -> Result<Move, Verdict> {
    pos.parse_move(text).map_err(|e| {
        let what = match e {
            MoveError::Syntax(s) => format!("sends an unreadable move '{s}'"),
            MoveError::Illegal(s) => format!("plays an illegal move '{s}'"),
        };
        fault(side, Termination::IllegalMove, &what)
    })
}

/// A loss for `side` for an engine fault.
pub fn fault(side: Color, termination: Termination, what: &str) -> Verdict {
    Verdict {
        result: GameResult::loss_for(side),
        termination,
        reason: format!("{} {what}", color_name(side)),
    }
}

/// "Red" or "Black".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &str) -> Position {
        let mut pos = Position::from_fen(fen).unwrap();
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    #[test]
    fn mate_and_stalemate_lose() {
        // Two rooks: a8 holds rank 8, b0-b9 checks on rank 9 (f9 stays covered behind the king).
        let pos = play("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "b0b9");
        let v = game_over(&pos, RuleChoice::Chinese).unwrap();
        assert_eq!(v.result, GameResult::RedWins);
        assert!(v.reason.contains("checkmate"), "{}", v.reason);
        // Black to move with no legal move and not in check: loses.
        let pos = Position::from_fen("3k5/4P4/4P4/9/9/9/9/9/9/4K4 b").unwrap();
        let v = game_over(&pos, RuleChoice::Draw).unwrap();
        assert_eq!(v.result, GameResult::RedWins);
        assert!(v.reason.contains("stalemate"), "{}", v.reason);
    }

    #[test]
    fn bad_move_text_is_a_loss() {
        let pos = Position::startpos();
        let v = check_move(&pos, "h2h8", Color::Red).unwrap_err();
        assert_eq!(v.result, GameResult::BlackWins);
        assert_eq!(v.termination, Termination::IllegalMove);
        assert!(check_move(&pos, "zz", Color::Red).is_err());
        assert!(check_move(&pos, "h2e2", Color::Red).is_ok());
    }

    #[test]
    fn points() {
        assert_eq!(GameResult::RedWins.points_for(Color::Red), 1.0);
        assert_eq!(GameResult::RedWins.points_for(Color::Black), 0.0);
        assert_eq!(GameResult::Draw.points_for(Color::Black), 0.5);
        for r in [GameResult::RedWins, GameResult::BlackWins, GameResult::Draw] {
            assert_eq!(GameResult::from_pgn(r.pgn()), Some(r));
        }
    }
}
