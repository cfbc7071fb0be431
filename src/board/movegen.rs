//! Move generation into a fixed-size `MoveList`: pseudo-legal captures, quiets or both, and
//! legal moves (all, captures, evasions). Legality is checked by `Position::is_legal`, which
//! only does real work for moves near the king's lines.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Move, PieceKind};

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
fn add_targets(list: &mut MoveList, from: crate::board::types::Square, mut targets: Bitboard) {
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

/// Points where a move may expose its own king, computed once per position (out of check):
/// a move of a non-king piece is legal unless it leaves a point of `from_danger` or enters a
/// point of `to_danger`. The reasoning, line by line: a rook or the enemy king attacks the king
/// only with no piece between, so the sole piece between is in danger; a cannon needs exactly
/// one screen, so with two pieces between both are in danger, and with none every empty point
/// between is a `to_danger`; a horse attacks once its leg is empty, so a piece on the leg of an
/// enemy horse aimed at the king is in danger. Pawns cannot be uncovered.
struct KingDanger {
    from_danger: Bitboard,
    to_danger: Bitboard,
}

impl KingDanger {
    fn new(pos: &Position) -> KingDanger {
        let us = pos.side_to_move();
        let them = us.flip();
        let ksq = pos.king_square(us);
        let occ = pos.occupied();
        let k_bb = Bitboard::from_square(ksq);
        let mut from_danger = Bitboard::EMPTY;
        let mut to_danger = Bitboard::EMPTY;
        let lines = rook_attacks(ksq, Bitboard::EMPTY);
        let liners =
            (pos.pieces(them, PieceKind::Rook) | pos.pieces(them, PieceKind::King)) & lines;
        let cannons = pos.pieces(them, PieceKind::Cannon) & lines;
        for s in liners | cannons {
            // Aligned with the king, so the two rays meet exactly on the points between.
            let between = rook_attacks(ksq, Bitboard::from_square(s)) & rook_attacks(s, k_bb);
            let pieces = between & occ;
            if cannons.has(s) {
                match pieces.count() {
                    0 => to_danger |= between,
                    2 => from_danger |= pieces,
                    _ => {}
                }
            } else if pieces.count() == 1 {
                from_danger |= pieces;
            }
        }
        let diagonal = king_exposure(ksq).without(lines);
        for h in pos.pieces(them, PieceKind::Horse) & horse_attackers_of(ksq, Bitboard::EMPTY) {
            // With every point occupied, a rook "attacks" exactly the four neighbours.
            from_danger |= rook_attacks(h, Bitboard::ALL) & diagonal;
        }
        KingDanger {
            from_danger,
            to_danger,
        }
    }

    #[inline(always)]
    fn is_safe(&self, m: Move) -> bool {
        !self.from_danger.has(m.from()) && !self.to_danger.has(m.to())
    }
}

/// Append the legal moves of the kind `gen`.
pub fn generate_legal_of(pos: &Position, gen: GenType, list: &mut MoveList) {
    let start = list.len();
    generate(pos, gen, list);
    let ksq = pos.king_square(pos.side_to_move());
    let mut j = start;
    if pos.in_check() {
        for i in start..list.len {
            let m = list.moves[i];
            if pos.is_legal(m) {
                list.moves[j] = m;
                j += 1;
            }
        }
    } else {
        let danger = KingDanger::new(pos);
        for i in start..list.len {
            let m = list.moves[i];
            if (m.from() != ksq && danger.is_safe(m)) || pos.is_legal(m) {
                list.moves[j] = m;
                j += 1;
            }
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

/// Number of legal moves, without storing them (perft's last ply). Out of check, moves that
/// `KingDanger` clears are counted by popcount; only the rest are tested one by one.
pub fn count_legal(pos: &Position) -> usize {
    if pos.in_check() {
        let mut list = MoveList::new();
        generate(pos, GenType::All, &mut list);
        return list.as_slice().iter().filter(|&&m| pos.is_legal(m)).count();
    }
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let target = !pos.color_bb(us);
    let them_bb = pos.color_bb(us.flip());
    let ksq = pos.king_square(us);
    let danger = KingDanger::new(pos);
    let mut n = 0usize;
    let mut count = |from: crate::board::types::Square, targets: Bitboard| {
        if danger.from_danger.has(from) {
            for to in targets {
                n += usize::from(pos.is_legal(Move::new(from, to)));
            }
        } else {
            n += targets.without(danger.to_danger).count() as usize;
            for to in targets & danger.to_danger {
                n += usize::from(pos.is_legal(Move::new(from, to)));
            }
        }
    };
    for from in pos.pieces(us, PieceKind::Rook) {
        count(from, rook_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Cannon) {
        count(
            from,
            (cannon_attacks(from, occ) & them_bb) | rook_attacks(from, occ).without(occ),
        );
    }
    for from in pos.pieces(us, PieceKind::Horse) {
        count(from, horse_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Pawn) {
        count(from, pawn_attacks(us, from) & target);
    }
    for from in pos.pieces(us, PieceKind::Elephant) {
        count(from, elephant_attacks(from, occ) & target);
    }
    for from in pos.pieces(us, PieceKind::Advisor) {
        count(from, advisor_attacks(from) & target);
    }
    for to in king_attacks(ksq) & target {
        n += usize::from(pos.is_legal(Move::new(ksq, to)));
    }
    n
}
