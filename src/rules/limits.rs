//! The game ends that need no move classification: the 60-move natural limit (自然限着) and
//! insufficient material.
//!
//! **Natural limit.** Seed 001, 4.2.4: "在连续60个回合中……双方都没有吃过一个棋子" is a draw:
//! 60 moves by each side (120 plies) without a capture. The seeds do not say how checks count.
//! We follow the Asian rules and the strongest engines: each side's first ten checks within the
//! capture-free stretch count like any other move; **a check given by a side that has already
//! given ten checks in the stretch does not advance the counter**. So a side cannot run the clock
//! down by checking. Plies before set-up (the FEN's halfmove counter) count as non-checks, because
//! the FEN does not say which of them were checks. A mate or a stalemate on the 120th ply still
//! wins: the position is judged before the limit (see [`crate::rules::adjudicate`]).
//!
//! **Insufficient material** (4.2.1 "双方均无可能取胜的简单局势"): we rule it only in the one
//! case that needs no judgement — neither side has a rook, horse, cannon or pawn, so no piece can
//! ever attack a king. Anything subtler (e.g. a lone cannon without a possible screen) is left to
//! the natural limit.

use crate::board::position::Position;
use crate::board::types::PieceKind;

/// Plies without a capture after which the game is drawn (60 回合).
pub const NATURAL_LIMIT_PLIES: u32 = 120;

/// Checks per side, within one capture-free stretch, that still advance the counter.
pub const FREE_CHECKS_PER_SIDE: u32 = 10;

/// The natural-limit counter: plies since the last capture, less the checks that do not count
/// (each side's checks beyond its first ten in the stretch).
///
/// It never exceeds [`Position::rule60`], so a caller may skip it while `rule60() < 120`.
pub fn natural_limit_count(pos: &Position) -> u32 {
    let raw = pos.rule60();
    if raw < NATURAL_LIMIT_PLIES {
        return raw;
    }
    let history = pos.history();
    let played = history.len() - 1;
    let span = (raw as usize).min(played);
    // checks[i]: checks given by side i (0 = the side that made the last move, 1 = the other).
    let mut checks = [0u32; 2];
    for (back, st) in history.iter().rev().take(span).enumerate() {
        if st.checkers.any() {
            checks[back % 2] += 1;
        }
    }
    let uncounted: u32 = checks
        .iter()
        .map(|&c| c.saturating_sub(FREE_CHECKS_PER_SIDE))
        .sum();
    raw - uncounted
}

/// Whether the natural limit has been reached.
pub fn natural_limit_reached(pos: &Position) -> bool {
    pos.rule60() >= NATURAL_LIMIT_PLIES && natural_limit_count(pos) >= NATURAL_LIMIT_PLIES
}

/// Whether neither side has a piece that can ever attack a king (rook, horse, cannon, pawn).
pub fn insufficient_material(pos: &Position) -> bool {
    [
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ]
    .iter()
    .all(|&k| pos.kind_bb(k).is_empty())
}
