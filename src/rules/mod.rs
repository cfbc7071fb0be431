//! Every game-end rule: checkmate and stalemate (困毙, a loss too), the flying general (a move
//! that makes the kings face is illegal, so it never appears in a position), the 60-move natural
//! limit, insufficient material, and repetition judged by the 棋例.
//!
//! The rule texts are `shared/seeds/` (the Chinese Xiangqi Association rules and summaries);
//! `shared/docs/rules.md` restates them. Three rule sets ([`RuleSet`]):
//! - `chinese` (default): the seeds. Perpetual check, perpetual mate threat (长杀), perpetual chase
//!   and every cycle made only of attacks (一将一杀, 一将一捉, 一杀一捉 …) are forbidden.
//! - `asian`: the AXF/WXF rules as the WXF rule-book diagrams and Fairy-Stockfish read them:
//!   perpetual check and perpetual chase (of one piece) are forbidden; mate threats and mixes of
//!   check and chase are allowed; a piece offering an exchange to one of its own kind does not
//!   chase it.
//! - `draw`: every repetition is a draw (perpetual check too), for referees that judge that way.
//!
//! A move with several effects counts as its heaviest (通则 5: 将 > 杀 > 捉 > 闲, "如杀兼捉，按杀"):
//! a mate threat that also chases is a mate threat under both the Chinese and the Asian rules.
//! The Asian rules, as the WXF rule-book diagrams and Fairy-Stockfish rule them, differ in two
//! details: a threat to mate by taking the chased piece is that chase, and a check that also
//! chases a piece counts towards a perpetual chase of it ([`cycle`]).
//!
//! Where the seeds are silent we decided (and say so where it is coded):
//! - **Checks and the natural limit** ([`limits`]): a side's checks beyond its first ten in a
//!   capture-free stretch do not advance the 120-ply counter.
//! - **Insufficient material** ([`limits`]): only when neither side has a rook, horse, cannon or
//!   pawn.
//! - **Which cycle**: a repetition is judged on the moves between the earliest of the occurrences
//!   that count (three for [`adjudicate`], two for [`repetition_verdict`]) and now; a side is
//!   forbidden only if it is forbidden through that whole stretch.
//! - **Mate threat** (杀): a threat to mate by checks alone within
//!   [`effects::THREAT_DEPTH`] moves; quiet mating nets are not seen.
//! - **Chase details** ([`effects`]): the seeds' values and true/false roots, played out on a copy
//!   of the board; only new chases count (从没捉到捉).
//! - Not implemented (they need a referee's judgement): "占据防守要点, 立即构成简明和棋" (an attack
//!   on an advisor or elephant made while occupying a key drawing point is idle), and the old rule
//!   allowing two attacks to rescue a trapped piece.

pub mod cycle;
pub mod effects;
pub mod filter;
pub mod limits;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::{Color, PieceKind};
use std::fmt;
use std::str::FromStr;

pub use cycle::{judge_cycle, CycleRuling};
pub use filter::RepetitionFilter;
pub use limits::{insufficient_material, natural_limit_count, natural_limit_reached};

/// The repetition rules in force.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Chinese Xiangqi Association rules (the seeds): 长杀 and 一将一捉 are forbidden.
    #[default]
    Chinese,
    /// The AXF/WXF rules: perpetual check and perpetual chase are forbidden, the rest allowed.
    Asian,
    /// Every repetition is a draw.
    Draw,
}

impl RuleSet {
    /// All rule sets.
    pub const ALL: [RuleSet; 3] = [RuleSet::Chinese, RuleSet::Asian, RuleSet::Draw];
}

/// The rule-set name was not recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule set '{}' (expected chinese, asian or draw)",
            self.0
        )
    }
}

impl std::error::Error for UnknownRuleSet {}

impl FromStr for RuleSet {
    type Err = UnknownRuleSet;

    /// `chinese`, `asian`, `draw` in any case, and the GUI spellings: `ChineseRule`, `AsianRule`
    /// (also `AXF`, `WXF`), `SkyRule` (天天象棋's rules, a form of the Chinese rules, so
    /// `Chinese`), and `DrawRule` / `NoRule` / `none` (every repetition a draw).
    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        let t = s.trim().to_ascii_lowercase();
        let t = t
            .strip_suffix("rules")
            .or(t.strip_suffix("rule"))
            .unwrap_or(&t);
        let t = t.trim_end_matches(['_', '-', ' ']);
        match t {
            "chinese" | "china" | "cxa" | "sky" | "cn" => Ok(RuleSet::Chinese),
            "asian" | "asia" | "axf" | "wxf" => Ok(RuleSet::Asian),
            "draw" | "no" | "none" | "norule" => Ok(RuleSet::Draw),
            _ => Err(UnknownRuleSet(s.to_string())),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Chinese => "chinese",
            RuleSet::Asian => "asian",
            RuleSet::Draw => "draw",
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Red wins.
    RedWins,
    /// Black wins.
    BlackWins,
    /// Draw.
    Draw,
}

impl Outcome {
    /// The outcome in which `loser` loses.
    pub fn loss_for(loser: Color) -> Outcome {
        match loser {
            Color::Red => Outcome::BlackWins,
            Color::Black => Outcome::RedWins,
        }
    }
}

impl fmt::Display for Outcome {
    /// `red-wins`, `black-wins`, `draw` (the judge's words).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::RedWins => "red-wins",
            Outcome::BlackWins => "black-wins",
            Outcome::Draw => "draw",
        })
    }
}

/// A ruling: the outcome and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why, in words, e.g. `perpetual check by red`, `60-move limit`, `stalemate`.
    pub reason: String,
}

/// The verdict of a repetition from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionVerdict {
    /// Neither side must deviate (or both must): a draw.
    Draw,
    /// The opponent may not continue the cycle: the side to move wins.
    Win,
    /// The side to move may not continue the cycle: it loses.
    Loss,
}

pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

pub(crate) fn kind_name(k: PieceKind) -> &'static str {
    match k {
        PieceKind::King => "king",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Rook => "rook",
        PieceKind::Cannon => "cannon",
        PieceKind::Pawn => "pawn",
    }
}

/// How far back a repetition may reach: captures and null moves end it, and so does the start of
/// the recorded history.
fn repetition_reach(pos: &Position) -> usize {
    (pos.rule60().min(pos.plies_from_null()) as usize).min(pos.game_ply())
}

/// The plies back to the `count`-th earlier occurrence of the current position, if it has
/// occurred `count` times before (same side to move, within the reach of a repetition).
pub fn earlier_occurrence(pos: &Position, count: usize) -> Option<usize> {
    let reach = repetition_reach(pos);
    if reach < 4 {
        return None;
    }
    let hist = pos.history();
    let n = hist.len() - 1;
    let key = hist[n].key;
    let mut seen = 0;
    let mut i = 4;
    while i <= reach {
        if hist[n - i].key == key {
            seen += 1;
            if seen == count {
                return Some(i);
            }
        }
        i += 2;
    }
    None
}

/// Whether the game is over at this position (using its whole history since set-up), and how.
/// Repetition is ruled only when the current position has occurred 3 times.
///
/// Order: no legal move (checkmate or 困毙: the side to move loses), repetition, the natural
/// limit, insufficient material.
pub fn adjudicate(pos: &Position, rules: RuleSet) -> Option<Ruling> {
    let stm = pos.side_to_move();
    if legal_moves(pos).is_empty() {
        let reason = if pos.in_check() {
            "checkmate"
        } else {
            "stalemate"
        };
        return Some(Ruling {
            outcome: Outcome::loss_for(stm),
            reason: reason.to_string(),
        });
    }
    if let Some(span) = earlier_occurrence(pos, 2) {
        let r = judge_cycle(pos, span, rules);
        return Some(Ruling {
            outcome: r.loser.map_or(Outcome::Draw, Outcome::loss_for),
            reason: r.reason,
        });
    }
    if natural_limit_reached(pos) {
        return Some(Ruling {
            outcome: Outcome::Draw,
            reason: "60-move limit".to_string(),
        });
    }
    if insufficient_material(pos) {
        return Some(Ruling {
            outcome: Outcome::Draw,
            reason: "insufficient material".to_string(),
        });
    }
    None
}

fn verdict_for(pos: &Position, span: usize, rules: RuleSet) -> RepetitionVerdict {
    match judge_cycle(pos, span, rules).loser {
        None => RepetitionVerdict::Draw,
        Some(c) if c == pos.side_to_move() => RepetitionVerdict::Loss,
        Some(_) => RepetitionVerdict::Win,
    }
}

/// For the search: when the current position repeats an earlier position of the history
/// (one earlier occurrence suffices, within `pos.plies_from_null()` plies, same side to move),
/// the verdict of that cycle for the side to move; `None` when there is no repetition.
///
/// Cheap when there is no repetition: a walk back over the keys of the same side to move, two
/// plies at a time, stopping at the last capture or null move. Classifying the cycle replays it
/// on a copy of the position; that happens only when a key repeats.
///
/// The verdict depends on the path, not only on the position: do not store it in the
/// transposition table.
pub fn repetition_verdict(pos: &Position, rules: RuleSet) -> Option<RepetitionVerdict> {
    let span = earlier_occurrence(pos, 1)?;
    Some(verdict_for(pos, span, rules))
}

/// Like [`repetition_verdict`], with the usual search convention: a repetition counts when the
/// earlier occurrence lies inside the tree (fewer than `ply` plies back, `ply` = distance from the
/// root), or, reaching back into the game before the root, when the position occurs for the
/// third time.
pub fn repetition_verdict_in_search(
    pos: &Position,
    rules: RuleSet,
    ply: usize,
) -> Option<RepetitionVerdict> {
    let span = earlier_occurrence(pos, 1)?;
    if span < ply {
        return Some(verdict_for(pos, span, rules));
    }
    let span = earlier_occurrence(pos, 2)?;
    Some(verdict_for(pos, span, rules))
}
