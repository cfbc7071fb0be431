//! INTERIM stand-in for `crate::rules` (being written in parallel), with the same API:
//! `RuleSet`, `Outcome`, `Ruling` and `adjudicate(pos, rules)`. The referee reaches it only
//! through the alias `rules` in `referee.rs`; when `src/rules.rs` lands, that one line becomes
//! `pub use crate::rules;` and this file is deleted.
//!
//! What it rules, minimally:
//! - no legal move: the side to move loses (checkmate, or 困毙 stalemate, which also loses);
//! - the natural limit: 120 plies without a capture (`rule60() >= 120`) is a draw; we count
//!   checks like any other move (no "first ten checks only" exemption);
//! - insufficient material: neither side has a rook, horse, cannon or pawn: draw;
//! - repetition at the third occurrence of a position: with `RuleSet::Draw` always a draw; with
//!   the Chinese or Asian rules a one-sided perpetual check (every move of one side since the
//!   first occurrence gave check, not every move of the other) loses for the checking side,
//!   anything else is a draw. Perpetual chase is NOT detected here (needs move classification):
//!   it is exactly what `crate::rules` adds.

use crate::movegen::legal_moves;
use crate::position::Position;
use crate::types::{Color, PieceKind};
use std::str::FromStr;

/// Which repetition rules are in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// Chinese Xiangqi Association rules (default).
    Chinese,
    /// Asian Xiangqi Federation rules.
    Asian,
    /// Every repetition is a draw.
    Draw,
}

impl FromStr for RuleSet {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "chinese" => Ok(RuleSet::Chinese),
            "asian" => Ok(RuleSet::Asian),
            "draw" => Ok(RuleSet::Draw),
            _ => Err(format!("unknown rule set '{s}' (chinese, asian or draw)")),
        }
    }
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Red won.
    RedWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

/// A game-ending ruling with its reason in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// The result.
    pub outcome: Outcome,
    /// Why, e.g. "Black is checkmated".
    pub reason: String,
}

fn win_for(color: Color) -> Outcome {
    match color {
        Color::Red => Outcome::RedWins,
        Color::Black => Outcome::BlackWins,
    }
}

fn name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Whether the game is over at `pos` (judging its whole history), and why.
pub fn adjudicate(pos: &Position, rules: RuleSet) -> Option<Ruling> {
    let us = pos.side_to_move();
    if legal_moves(pos).is_empty() {
        let how = if pos.in_check() {
            "is checkmated"
        } else {
            "has no legal move (stalemate loses)"
        };
        return Some(Ruling {
            outcome: win_for(us.flip()),
            reason: format!("{} {how}", name(us)),
        });
    }
    if let Some(r) = repetition(pos, rules) {
        return Some(r);
    }
    if pos.rule60() >= 120 {
        return Some(Ruling {
            outcome: Outcome::Draw,
            reason: "60 moves without a capture".to_string(),
        });
    }
    let attackers = [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];
    if attackers.iter().all(|&k| pos.kind_bb(k).is_empty()) {
        return Some(Ruling {
            outcome: Outcome::Draw,
            reason: "insufficient material".to_string(),
        });
    }
    None
}

/// The third occurrence of the current position since the last capture, and its verdict.
fn repetition(pos: &Position, rules: RuleSet) -> Option<Ruling> {
    let hist = pos.history();
    let now = hist.len() - 1;
    let window = (pos.rule60() as usize).min(pos.plies_from_null() as usize);
    let key = pos.key();
    let mut seen = 0;
    let mut first = now;
    let mut back = 4;
    while back <= window {
        if hist[now - back].key == key {
            seen += 1;
            first = now - back;
        }
        back += 2;
    }
    if seen < 2 {
        return None;
    }
    let draw = Some(Ruling {
        outcome: Outcome::Draw,
        reason: "threefold repetition".to_string(),
    });
    if rules == RuleSet::Draw {
        return draw;
    }
    // hist[i].checkers: did the move that led to state i give check? The move into the last
    // state was made by the side not to move now.
    let mover_of = |i: usize| {
        if (now - i).is_multiple_of(2) {
            pos.side_to_move().flip()
        } else {
            pos.side_to_move()
        }
    };
    let mut all_checks = [true, true];
    for (i, st) in hist.iter().enumerate().take(now + 1).skip(first + 1) {
        if !st.checkers.any() {
            all_checks[mover_of(i).index()] = false;
        }
    }
    match all_checks {
        [true, false] => Some(Ruling {
            outcome: Outcome::BlackWins,
            reason: "Red gives perpetual check".to_string(),
        }),
        [false, true] => Some(Ruling {
            outcome: Outcome::RedWins,
            reason: "Black gives perpetual check".to_string(),
        }),
        _ => draw,
    }
}
