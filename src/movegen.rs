//! Move generation into a fixed-size `MoveList`: pseudo-legal captures, quiets or both, and
//! legal moves (all, captures, evasions). Legality is checked by `Position::is_legal`, which
//! only does real work for moves near the king's lines.

use crate::attacks::*;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Move, PieceKind};

/// Upper bound on pseudo-legal moves in a valid position: 2 rooks and 2 cannons x 17, 2 horses
/// x 8, 5 pawns x 3, advisors 6, elephants 8, king 4 = 117.
pub const MAX_MOVES: usize = 128;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    /// Append a move.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        // Positions are validated on input, so MAX_MOVES is never exceeded; a debug build checks.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keep only the moves for which `keep` is true.
    #[inline(always)]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which pseudo-legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
    /// Both.
    All,
}

#[inline(always)]
fn add_targets(list: &mut MoveList, from: crate::types::Square, mut targets: Bitboard) {
    while let Some(to) = targets.pop() {
        list.push(Move::new(from, to));
    }
}

/// Append the pseudo-legal moves of the side to move of the kind `gen`.
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let them_bb = pos.color_bb(us.flip());
    let target = match gen {
        GenType::Captures => them_bb,
        GenType::Quiets => !occ,
        GenType::All => !pos.color_bb(us),
    };

    for from in pos.pieces(us, PieceKind::Rook) {
        add_targets(list, from, rook_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        let mut t = Bitboard::EMPTY;
        if gen != GenType::Quiets {
            t |= cannon_attacks(from, occ) & them_bb;
        }
        if gen != GenType::Captures {
            t |= rook_attacks(from, occ).without(occ);
        }
        add_targets(list, from, t);
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        add_targets(list, from, horse_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Pawn) {
        add_targets(list, from, pawn_attacks(us, from) & target);
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        add_targets(list, from, elephant_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        add_targets(list, from, advisor_attacks(from) & target);
    }
    let ksq = pos.king_square(us);
    add_targets(list, ksq, king_attacks(ksq) & target);
}

/// Append the legal moves of the kind `gen`.
pub fn generate_legal_of(pos: &Position, gen: GenType, list: &mut MoveList) {
    let start = list.len();
    generate(pos, gen, list);
    let mut j = start;
    for i in start..list.len {
        let m = list.moves[i];
        if pos.is_legal(m) {
            list.moves[j] = m;
            j += 1;
        }
    }
    list.len = j;
}

/// All legal moves (when in check these are exactly the evasions).
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_of(pos, GenType::All, &mut list);
    list
}

/// Legal captures.
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate_legal_of(pos, GenType::Captures, &mut list);
    list
}

/// Legal check evasions; the side to move must be in check.
pub fn evasions(pos: &Position) -> MoveList {
    debug_assert!(pos.in_check());
    legal_moves(pos)
}

/// Number of legal moves, without storing them (perft's last ply).
pub fn count_legal(pos: &Position) -> usize {
    let mut list = MoveList::new();
    generate(pos, GenType::All, &mut list);
    list.as_slice().iter().filter(|&&m| pos.is_legal(m)).count()
}
