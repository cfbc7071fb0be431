//! Static exchange evaluation (SEE): what a capture wins once every piece bearing on its target
//! has had its say, with no other move on the board. The search uses it to put losing captures
//! after the quiet moves and to skip them in quiescence.
//!
//! The exchange is played as a small game on the target point: the sides take turns, each may
//! capture on it with any of its attackers or stop, and the material balance is minimaxed with
//! the piece values of `ORDER_VALUE` (the ones capture ordering and delta pruning use).
//!
//! Why a search over the attackers and not a chess-style swap list (least valuable attacker
//! each turn): in xiangqi taking off a piece can also take away an attacker. A cannon needs
//! exactly one screen, so the piece that screens it may, by capturing, leave it with none;
//! and a side's capture can open a line or a horse leg for the other side. Then the least
//! valuable attacker is not always the best one, so every attacker is tried, least valuable
//! first, with the usual bounds cutting off most of the tree (most calls end before looking
//! at any attacker).
//!
//! After each capture the attackers are found again under the new occupancy (only the pieces
//! that left for the target are gone from it): rooks x-ray through the pieces that moved,
//! cannons gain or lose their screen, horse legs and elephant eyes open. Pawns attack forward,
//! and sideways once across the river; kings and advisors stay in their palace and elephants
//! on their side (all as `Position::attackers_to` has it). A king may capture only where the
//! other side has no attacker left, the other king facing it down an open file (将帅对面)
//! included; nothing can take it back, so its capture ends the exchange. Pins are ignored:
//! apart from the king, any piece that attacks the point may capture on it.

use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, Move, PieceKind, Square, Value};

/// Piece values of the static exchange evaluation, which capture ordering (`movepick`) and
/// delta pruning use too; not the evaluation's.
pub const ORDER_VALUE: [i32; 7] = [5000, 200, 200, 450, 1000, 450, 100];

/// Attackers in the order they are tried: least valuable first, the king last.
const CAPTURE_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// Thresholds are clamped to this, far beyond any balance an exchange can reach, so that the
/// arithmetic below cannot overflow.
const THRESHOLD_LIMIT: Value = 1 << 20;

#[inline(always)]
fn value(kind: PieceKind) -> Value {
    ORDER_VALUE[kind.index()]
}

/// Whether the exchange on `m.to()` that `m` starts wins at least `threshold` for the side
/// to move (`m` a pseudo-legal move of that side, a capture or not): the balance, in
/// `ORDER_VALUE` units, that it can keep against the best replies when each side may stop
/// capturing whenever it likes, the mover only after `m`.
pub fn see_ge(pos: &Position, m: Move, threshold: Value) -> bool {
    let (from, to) = (m.from(), m.to());
    let threshold = threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
    let Some(mover) = pos.piece_on(from) else {
        // No move at all: nothing is exchanged.
        return threshold <= 0;
    };
    let victim = pos.piece_on(to).map_or(0, |p| value(p.kind()));
    let exchange = Exchange { pos, to };
    let occ = pos.occupied().without(Bitboard::from_square(from)) | Bitboard::from_square(to);
    // The other side moves next, `victim` behind; it "wins" by keeping the mover below the
    // threshold, that is by ending at least 1 - threshold ahead.
    !exchange.can_reach(
        mover.color().flip(),
        -victim,
        1 - threshold,
        value(mover.kind()),
        occ,
    )
}

/// The fixed part of one exchange: the position and the target point.
struct Exchange<'a> {
    pos: &'a Position,
    to: Square,
}

impl Exchange<'_> {
    /// Whether `side`, to move and `gain` ahead so far, can end the exchange at least `need`
    /// ahead, the piece on the target being worth `on_target` and `occ` the occupancy.
    fn can_reach(
        &self,
        side: Color,
        gain: Value,
        need: Value,
        on_target: Value,
        occ: Bitboard,
    ) -> bool {
        if gain >= need {
            return true; // it stops here
        }
        if gain + on_target < need {
            return false; // even a free capture falls short, and the reply may be to stop
        }
        let attackers = self.pos.attackers_to(self.to, side, occ);
        for kind in CAPTURE_ORDER {
            for sq in attackers & self.pos.kind_bb(kind) {
                let after = occ.without(Bitboard::from_square(sq));
                if kind == PieceKind::King && self.defended(side.flip(), after) {
                    continue;
                }
                if !self.can_reach(
                    side.flip(),
                    -(gain + on_target),
                    1 - need,
                    value(kind),
                    after,
                ) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `color` attacks the target under `occ`, counting its king when it faces the
    /// target down an open file: a king may not capture there.
    fn defended(&self, color: Color, occ: Bitboard) -> bool {
        (self.pos.king_attackers(self.to, color, occ) & occ).any()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::{generate, legal_moves, GenType, MoveList};
    use crate::board::rng::Rng;
    use std::collections::HashMap;

    /// The slow reference: the exchange played out on the board. The side to move tries every
    /// pseudo-legal capture on `to` (a king's only if legal) or stops; returns what it gains
    /// from here on. Memoised by position key, as orders of captures often meet again.
    fn played_out(pos: &mut Position, to: Square, memo: &mut HashMap<u64, Value>) -> Value {
        if let Some(&v) = memo.get(&pos.key()) {
            return v;
        }
        let mut list = MoveList::new();
        generate(pos, GenType::Captures, &mut list);
        let mut best = 0;
        for &c in list.as_slice().iter().filter(|c| c.to() == to) {
            let piece = pos.piece_on(c.from()).expect("a capturing piece");
            if piece.kind() == PieceKind::King && !pos.is_legal(c) {
                continue;
            }
            let gain = value(pos.piece_on(to).expect("a victim").kind());
            pos.make_move(c);
            best = best.max(gain - played_out(pos, to, memo));
            pos.unmake_move();
        }
        memo.insert(pos.key(), best);
        best
    }

    /// The reference value of the exchange that `m` starts.
    fn reference(pos: &Position, m: Move) -> Value {
        let mut pos = pos.clone();
        let victim = pos.piece_on(m.to()).map_or(0, |p| value(p.kind()));
        pos.make_move(m);
        victim - played_out(&mut pos, m.to(), &mut HashMap::new())
    }

    /// The value `see_ge` implies: the highest threshold it accepts (by bisection).
    fn see_value(pos: &Position, m: Move) -> Value {
        let (mut lo, mut hi) = (-100_000, 100_000); // see_ge(lo) holds, see_ge(hi) does not
        assert!(see_ge(pos, m, lo) && !see_ge(pos, m, hi));
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if see_ge(pos, m, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// A position from pieces written as FEN letter and point (`"Ke0"`), with `side` to move.
    fn setup(pieces: &[&str], side: char) -> Position {
        let mut grid = [[None; 9]; 10];
        for p in pieces {
            let sq = Square::parse(&p[1..]).expect("a point");
            grid[sq.rank()][sq.file()] = p.chars().next();
        }
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for cell in grid[rank] {
                match cell {
                    Some(c) => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        Position::from_fen(&format!("{fen} {side} - - 0 1")).expect("a valid position")
    }

    /// The SEE value of `mv` in the position, checked against the reference too.
    fn see_of(pieces: &[&str], side: char, mv: &str) -> Value {
        let pos = setup(pieces, side);
        let m = pos.parse_move(mv).expect("a legal move");
        let v = see_value(&pos, m);
        assert_eq!(v, reference(&pos, m), "{pos:?} {mv}");
        v
    }

    #[test]
    fn undefended_and_defended_captures() {
        // A rook takes a lone horse; then the same horse guarded by a rook.
        assert_eq!(see_of(&["Kf0", "Ra4", "kd9", "nd4"], 'w', "a4d4"), 450);
        assert_eq!(
            see_of(&["Kf0", "Ra4", "kd9", "nd4", "rd7"], 'w', "a4d4"),
            -550
        );
        // A quiet rook move onto a point a pawn attacks loses the rook.
        assert_eq!(see_of(&["Kf0", "Ra4", "kd9", "pc5"], 'w', "a4c4"), -1000);
        assert_eq!(see_of(&["Kf0", "Ra4", "kd9", "pc5"], 'w', "a4b4"), 0);
    }

    #[test]
    fn rooks_x_ray_through_the_rook_that_took() {
        let pieces = ["Kf0", "Re1", "Re2", "kd9", "ne6", "ra6"];
        assert_eq!(see_of(&pieces, 'w', "e2e6"), 450);
        assert_eq!(
            see_of(&["Kf0", "Re2", "kd9", "ne6", "ra6"], 'w', "e2e6"),
            -550
        );
    }

    #[test]
    fn a_cannon_screen_appears_when_the_rook_in_front_takes() {
        // Two screens (advisor e1, rook e3) keep the cannon out until the rook has taken.
        let pieces = ["Kf0", "Ce0", "Ae1", "Re3", "kd9", "ne6", "ra6"];
        assert_eq!(see_of(&pieces, 'w', "e3e6"), 450);
        // Without the cannon the rook is lost for the horse.
        assert_eq!(
            see_of(&["Kf0", "Ae1", "Re3", "kd9", "ne6", "ra6"], 'w', "e3e6"),
            -550
        );
    }

    #[test]
    fn a_cannon_loses_its_screen_when_the_screen_takes() {
        // The pawn on e4 screens the cannon on e0. Recapturing with the pawn first would leave
        // the cannon without a screen; the cannon first keeps both (a least-valuable-attacker
        // swap list says -200 here).
        let pieces = ["Kf0", "Ce0", "Pe4", "Ri5", "kd9", "nd7", "ne5", "ra5"];
        assert_eq!(see_of(&pieces, 'w', "i5e5"), -100);
        // The pawn taking first (as the move itself) leaves the cannon out.
        assert_eq!(see_of(&pieces, 'w', "e4e5"), 350);
    }

    #[test]
    fn a_horse_leg_opens_when_the_piece_on_it_takes() {
        // The advisor on d9 blocks the horse on c9 until it takes on e8 itself.
        let pieces = ["Kd0", "Re1", "Re4", "kf9", "ad9", "nc9", "ce8"];
        assert_eq!(see_of(&pieces, 'w', "e4e8"), -550);
        // With the king on its leg instead (the king cannot take on e8), the horse stays out.
        let blocked = ["Kf0", "Re1", "Re4", "kd9", "af9", "nc9", "ce8"];
        assert_eq!(see_of(&blocked, 'w', "e4e8"), -350);
    }

    #[test]
    fn a_king_may_not_recapture_facing_the_other_king() {
        // After the rook takes on d0 the d file is open: the king taking it would face the
        // black king (将帅对面), so the advisor is lost for nothing.
        assert_eq!(see_of(&["Ke0", "Ad0", "kd9", "rd5"], 'b', "d5d0"), 200);
        // A pawn on d6 shuts the file: the king takes the rook back.
        assert_eq!(
            see_of(&["Ke0", "Ad0", "Pd6", "kd9", "rd5"], 'b', "d5d0"),
            -800
        );
    }

    #[test]
    fn a_king_may_not_recapture_a_defended_point() {
        // The second rook x-rays through the first: the king cannot take back on e1.
        assert_eq!(
            see_of(&["Ke0", "Ae1", "kd9", "re5", "re7"], 'b', "e5e1"),
            200
        );
        assert_eq!(see_of(&["Ke0", "Ae1", "kd9", "re5"], 'b', "e5e1"), -800);
    }

    #[test]
    fn pawns_defend_sideways_only_across_the_river() {
        // Black: on e4 the pawn has crossed and guards d4 beside it; on e5 it has not and
        // guards only e4, not d5; on c5 it guards c4 straight ahead.
        assert_eq!(
            see_of(&["Kf0", "Ra4", "kd9", "nd4", "pe4"], 'w', "a4d4"),
            -550
        );
        assert_eq!(
            see_of(&["Kf0", "Ra5", "kd9", "nd5", "pe5"], 'w', "a5d5"),
            450
        );
        assert_eq!(
            see_of(&["Kf0", "Ra4", "kd9", "nc4", "pc5"], 'w', "a4c4"),
            -550
        );
        // Red the other way round: crossed on e5, guarding d5; not yet on e4.
        assert_eq!(
            see_of(&["Kf0", "Pe5", "kd9", "ra5", "Nd5"], 'b', "a5d5"),
            -550
        );
        assert_eq!(
            see_of(&["Kf0", "Pe4", "kd9", "ra4", "Nd4"], 'b', "a4d4"),
            450
        );
    }

    /// Positions to compare on: the perft suite and random playouts from the start.
    fn sample_positions() -> Vec<Position> {
        let mut out: Vec<Position> = include_str!("../../tests/data/perft.epd")
            .lines()
            .filter_map(|l| l.split(';').next())
            .map(|fen| Position::from_fen(fen.trim()).expect("a perft FEN"))
            .collect();
        let mut rng = Rng::new(0x5ee);
        for _ in 0..1_000 {
            let mut pos = Position::startpos();
            let plies = 10 + rng.below(150);
            for _ in 0..plies {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len())]);
            }
            out.push(pos);
        }
        out
    }

    #[test]
    fn agrees_with_playing_the_exchange_out() {
        let mut rng = Rng::new(0x5ee_5ee);
        let (mut moves_checked, mut captures) = (0, 0);
        for pos in sample_positions() {
            let moves = legal_moves(&pos);
            let quiet: Vec<Move> = moves
                .as_slice()
                .iter()
                .copied()
                .filter(|&m| !pos.is_capture(m))
                .collect();
            let mut tried: Vec<Move> = moves
                .as_slice()
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m))
                .collect();
            captures += tried.len();
            for _ in 0..2.min(quiet.len()) {
                tried.push(quiet[rng.below(quiet.len())]);
            }
            for m in tried {
                let want = reference(&pos, m);
                for t in [want - 1, want, want + 1, 0, want - 100, want + 100] {
                    assert_eq!(
                        see_ge(&pos, m, t),
                        want >= t,
                        "{pos:?} {m} threshold {t}, reference {want}"
                    );
                }
                moves_checked += 1;
            }
        }
        assert!(
            captures > 3_000 && moves_checked > 5_000,
            "{captures} captures, {moves_checked} moves"
        );
    }
}
