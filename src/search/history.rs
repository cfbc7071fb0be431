//! Move-ordering statistics gathered by a search thread: butterfly history, continuation
//! history, counter moves and killers. Updated with the "gravity" formula so values stay
//! bounded.

use crate::board::types::{Color, Move, Piece, Square, SQUARE_NB};
use crate::search::correction::Correction;
use crate::search::gravity::gravity;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

/// A move as the continuation history sees it: the piece that moved and where it went.
pub type PieceTo = (Piece, Square);

/// Plies back whose move the continuation history pairs a quiet move with (the opponent's
/// last move, and our own before it).
pub const CONTINUATION_PLIES: usize = 2;

/// Per-thread ordering statistics.
pub struct History {
    butterfly: Vec<i32>,
    /// How a quiet move fared after an earlier move of the line: one table of (earlier piece,
    /// its point) × (piece, point) for every distance in `CONTINUATION_PLIES`, a separate one
    /// for each.
    continuation: Vec<i16>,
    counter: Vec<Move>,
    killers: [[Move; 2]; MAX_PLY + 2],
    /// How far searches found the static evaluation off (not move ordering, but learned and
    /// kept between the searches of a game alike).
    pub correction: Correction,
}

impl Default for History {
    fn default() -> Self {
        History::new()
    }
}

impl History {
    /// Empty statistics.
    pub fn new() -> History {
        History {
            butterfly: vec![0; 2 * SQUARE_NB * SQUARE_NB],
            continuation: vec![0; CONTINUATION_PLIES * PIECE_TO_NB * PIECE_TO_NB],
            counter: vec![Move::NONE; Piece::NB * SQUARE_NB],
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
            correction: Correction::new(),
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.continuation.fill(0);
        self.counter.fill(Move::NONE);
        self.correction.clear();
        self.clear_killers();
    }

    /// Forget the killers (new search).
    pub fn clear_killers(&mut self) {
        self.killers = [[Move::NONE; 2]; MAX_PLY + 2];
    }

    #[inline(always)]
    fn index(color: Color, m: Move) -> usize {
        (color.index() * SQUARE_NB + m.from().index()) * SQUARE_NB + m.to().index()
    }

    /// History score of a quiet move.
    #[inline(always)]
    pub fn score(&self, color: Color, m: Move) -> i32 {
        self.butterfly[Self::index(color, m)]
    }

    /// Reward (positive) or punish (negative) a quiet move.
    #[inline(always)]
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        gravity(
            &mut self.butterfly[Self::index(color, m)],
            bonus,
            HISTORY_MAX,
        );
    }

    #[inline(always)]
    fn continuation_index(back: usize, earlier: PieceTo, now: PieceTo) -> usize {
        ((back * PIECE_TO_NB) + piece_to_index(earlier)) * PIECE_TO_NB + piece_to_index(now)
    }

    /// Continuation score of playing `now` when `earlier[i]` was played `i + 1` plies before
    /// (`None` where there was no such move: the root, or a null move).
    #[inline(always)]
    pub fn continuation_score(
        &self,
        earlier: &[Option<PieceTo>; CONTINUATION_PLIES],
        now: PieceTo,
    ) -> i32 {
        let mut sum = 0;
        for (back, e) in earlier.iter().enumerate() {
            if let Some(e) = *e {
                sum += i32::from(self.continuation[Self::continuation_index(back, e, now)]);
            }
        }
        sum
    }

    /// Reward (positive) or punish (negative) `now` in the context of `earlier`.
    #[inline(always)]
    pub fn update_continuation(
        &mut self,
        earlier: &[Option<PieceTo>; CONTINUATION_PLIES],
        now: PieceTo,
        bonus: i32,
    ) {
        for (back, e) in earlier.iter().enumerate() {
            if let Some(e) = *e {
                let v = &mut self.continuation[Self::continuation_index(back, e, now)];
                let mut wide = i32::from(*v);
                gravity(&mut wide, bonus, HISTORY_MAX);
                // Within ±HISTORY_MAX (gravity's bound), so it fits.
                *v = wide as i16;
            }
        }
    }

    /// Killer moves at `ply`.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Record a quiet move that caused a cutoff at `ply`.
    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, m: Move) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    /// The reply that refuted `prev` (moved piece `piece` to its square) last time.
    #[inline(always)]
    pub fn counter(&self, piece: Piece, prev: Move) -> Move {
        self.counter[piece.index() * SQUARE_NB + prev.to().index()]
    }

    /// Remember `m` as the refutation of `prev`.
    #[inline(always)]
    pub fn set_counter(&mut self, piece: Piece, prev: Move, m: Move) {
        self.counter[piece.index() * SQUARE_NB + prev.to().index()] = m;
    }

    /// Clear the killers two plies down (children of the current node start fresh).
    #[inline(always)]
    pub fn reset_killers(&mut self, ply: usize) {
        if ply + 2 < self.killers.len() {
            self.killers[ply + 2] = [Move::NONE; 2];
        }
    }
}

/// Number of (piece, point) pairs.
const PIECE_TO_NB: usize = Piece::NB * SQUARE_NB;

#[inline(always)]
fn piece_to_index((piece, to): PieceTo) -> usize {
    piece.index() * SQUARE_NB + to.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::types::{Color, PieceKind};

    fn piece_to(color: Color, kind: PieceKind, sq: usize) -> PieceTo {
        (Piece::new(color, kind), Square::new(sq))
    }

    #[test]
    fn continuation_scores_stay_bounded_and_keep_each_distance_apart() {
        let mut h = History::new();
        let horse = piece_to(Color::Red, PieceKind::Horse, 20);
        let cannon = piece_to(Color::Black, PieceKind::Cannon, 64);
        let rook = piece_to(Color::Red, PieceKind::Rook, 9);
        let both = [Some(cannon), Some(horse)];
        for _ in 0..10_000 {
            h.update_continuation(&both, rook, 4000);
        }
        let one = h.continuation_score(&[Some(cannon), None], rook);
        let two = h.continuation_score(&[None, Some(horse)], rook);
        assert!(one > 0 && one <= HISTORY_MAX && two > 0 && two <= HISTORY_MAX);
        assert_eq!(h.continuation_score(&both, rook), one + two);
        // The same pair at the other distance was never updated.
        assert_eq!(h.continuation_score(&[Some(horse), Some(cannon)], rook), 0);
        for _ in 0..10_000 {
            h.update_continuation(&both, rook, -4000);
        }
        let low = h.continuation_score(&both, rook);
        assert!((-2 * HISTORY_MAX..0).contains(&low), "{low}");
        h.clear();
        assert_eq!(h.continuation_score(&both, rook), 0);
    }
}
