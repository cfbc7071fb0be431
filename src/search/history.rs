//! Move-ordering statistics gathered by a search thread: butterfly history, counter moves and
//! killers. Updated with the "gravity" formula so values stay bounded.

use crate::board::types::{Color, Move, Piece, SQUARE_NB};

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

/// Per-thread ordering statistics.
pub struct History {
    butterfly: Vec<i32>,
    counter: Vec<Move>,
    killers: [[Move; 2]; MAX_PLY + 2],
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
            counter: vec![Move::NONE; Piece::NB * SQUARE_NB],
            killers: [[Move::NONE; 2]; MAX_PLY + 2],
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
        self.counter.fill(Move::NONE);
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
        let e = &mut self.butterfly[Self::index(color, m)];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
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
