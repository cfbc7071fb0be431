//! What one move does, for the repetition rulings: check (将), mate threat (杀), chase (捉).
//!
//! **Chase.** A side *attacks* an enemy piece X with its piece A when A can legally capture X.
//! The attack is a chase (捉) when the capture would win material by the seeds' values
//! (25.3: rook 4 = two horses = two cannons; horse = cannon = 2; advisor = elephant = 1; a pawn
//! across the river 1, its value "floats"):
//! - X is worth more than A (a horse or cannon attacking a rook, an advisor attacking a horse …),
//!   or
//! - X has no real protection (无根 or 假根): after A takes X, the defender has no *legal*
//!   recapture on that point. Playing the capture out on a copy of the position makes every false
//!   root false: a pinned protector, a king that would face the other king, a cannon whose screen
//!   was the capturer itself, a protector that must answer a discovered check.
//!
//! Not chases: attacks on the king (those are checks) or on a pawn that has not crossed the river
//! (通则: 未过河兵 is no 子力); attacks by the king alone (通则 1: 帅本身叫吃 = 闲); attacks by a
//! pawn alone, which are recorded apart and count only when the other side attacks perpetually
//! (通则 3 / 细则: 相互长打时兵叫吃按捉); a formal attack where the capture lets the defender mate
//! at once (细则: "一旦吃子立即会被对方将死者, 按闲").
//!
//! **Only new chases count** (细则: "从没捉到捉" is a chase, "从捉到捉" is idle): a move chases X
//! when, after it, some piece chases X that did not chase X just before the move (the moved piece
//! counted on its old point). So a rook sliding along a file it already attacked along is idle,
//! while a second piece taking over the chase of the same piece is a chase (two pieces chasing
//! one in turn). Under the Chinese rules that is all: discovered attacks, pinned or cut-off
//! protectors, a formal attack turning real — every "no chase to chase" counts. The Asian rules
//! (the WXF rule-book diagrams, Fairy-Stockfish) need the chase to come from a new attack, a
//! capture that now gives a discovered check, a protector newly pinned, or a protector cut off —
//! the last not when the move parries a chase on the mover's own piece (解捉), and never a king
//! that may no longer take back because the point is now defended.
//!
//! **Exchange offers** (兑). Under the Asian rules a piece attacking an enemy piece of the same kind
//! that can legally take it back offers an exchange and does not chase (the WXF rule-book and
//! Fairy-Stockfish). The Chinese rules say "凡捉子兼具兑献…也按捉处理": a chase that is also an
//! exchange offer or an offer is a chase, so under them the exemption does not apply (an equal
//! protected piece is no chase anyway; an unprotected one is).
//!
//! **Mate threat** (杀): the move creates a threat to mate by a series of checks (seed 001:
//! "企图於下一着听将或连续叫将, 令对方无法解救") — were the opponent to pass, the mover would mate by
//! checks within [`THREAT_DEPTH`] of its moves — and no such mate was already available before the
//! move. It is tested only when a ruling needs it: under the Chinese rules for any attacking
//! cycle, under the Asian rules where it outranks a chase (通则 5: "杀兼捉，按杀"); there mates
//! that take a piece the move chases do not count ([`threat_of_last_move`]'s `besides`).

use super::RuleSet;
use crate::board::bitboard::Bitboard;
use crate::board::movegen::{generate, legal_moves, GenType, MoveList};
use crate::board::position::Position;
use crate::board::types::{Color, Move, PieceKind, Square};

/// How many moves of the threatening side a mate threat (杀) may take, all of them checks.
pub const THREAT_DEPTH: u32 = 3;

/// Node budget for one mate-threat probe (it gives up, answering "no threat", beyond it).
const THREAT_NODES: u32 = 20_000;

/// Material value by the seeds (25.3); the king never counts.
pub fn value(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Rook => 4,
        PieceKind::Horse | PieceKind::Cannon => 2,
        PieceKind::Advisor | PieceKind::Elephant | PieceKind::Pawn => 1,
        PieceKind::King => 0,
    }
}

/// What a side's attacks on one enemy piece amount to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TargetInfo {
    /// Pieces that can legally take it (any kind, with gain or not).
    pub attackers: Bitboard,
    /// Of those, the ones whose capture gives check.
    pub checking_attackers: Bitboard,
    /// Of those, the ones whose capture wins material (the chasers).
    pub chasers: Bitboard,
    /// The kinds of the chasers (bit `1 << kind`).
    pub chaser_kinds: u8,
    /// Its defenders that could legally take back after one of the captures.
    pub roots: Bitboard,
    /// Its defenders that could take back ignoring their own king's safety, after a capture by
    /// one of the chasers.
    pub chase_pseudo_roots: Bitboard,
    /// Its defenders that could legally take back after a capture by one of the chasers.
    pub chase_roots: Bitboard,
}

/// The chases one side has on the board (a snapshot, not yet "new").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chases {
    /// Enemy pieces chased by some piece other than a lone pawn.
    pub pieces: Bitboard,
    /// Enemy pieces attacked with gain by pawns only.
    pub by_pawns: Bitboard,
    /// Per point, what the attacks on the piece there amount to.
    pub info: Vec<TargetInfo>,
}

/// What a move did, seen from the side that made it.
#[derive(Clone, Copy, Debug)]
pub struct MoveEffect {
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub mover: Color,
    /// It gives check.
    pub check: bool,
    /// It creates a mate threat (杀); `None` until computed (only when a ruling needs it).
    pub threat: Option<bool>,
    /// Enemy pieces it newly chases (not counting lone pawns).
    pub chased: Bitboard,
    /// Enemy pieces it newly attacks with gain by pawns alone.
    pub pawn_chased: Bitboard,
    /// For each point, the kinds (bit `1 << kind`) of the pieces chasing it after the move.
    pub chasers: [u8; 90],
}

/// Whether a pawn of `color` on `sq` has crossed the river.
fn crossed(color: Color, sq: Square) -> bool {
    !sq.on_own_half(color)
}

/// The chases `side` has in `pos` (whoever is to move).
pub fn chases(pos: &mut Position, side: Color, rules: RuleSet) -> Chases {
    if pos.side_to_move() != side {
        pos.make_null();
        let c = chases(pos, side, rules);
        pos.unmake_null();
        return c;
    }
    let mut out = Chases {
        pieces: Bitboard::EMPTY,
        by_pawns: Bitboard::EMPTY,
        info: vec![TargetInfo::default(); 90],
    };
    let them = side.flip();
    let candidates = legal_moves(pos);
    for &m in candidates.as_slice() {
        let (a, s) = (m.from(), m.to());
        let Some(x) = pos.piece_on(s) else { continue };
        let ak = pos.piece_on(a).expect("mover on its square").kind();
        let xk = x.kind();
        if x.color() != them || xk == PieceKind::King {
            continue;
        }

        if xk == PieceKind::Pawn && !crossed(them, s) {
            continue;
        }
        let info = &mut out.info[s.index()];
        info.attackers |= Bitboard::from_square(a);
        let (gains, roots, pseudo_roots, check) = capture_gains(pos, m, ak, xk, rules);
        let info = &mut out.info[s.index()];
        if check {
            info.checking_attackers |= Bitboard::from_square(a);
        }
        info.roots |= roots;
        if !gains || ak == PieceKind::King {
            continue;
        }
        info.chase_roots |= roots;
        info.chase_pseudo_roots |= pseudo_roots;
        info.chasers |= Bitboard::from_square(a);
        info.chaser_kinds |= 1 << ak.index();
        if ak == PieceKind::Pawn {
            out.by_pawns |= Bitboard::from_square(s);
        } else {
            out.pieces |= Bitboard::from_square(s);
        }
    }
    out.by_pawns &= !out.pieces;
    out
}

/// Whether taking with `m` (side to move; a legal capture of `xk` by `ak`) wins material and is
/// no formal attack that gets the capturer mated; also the defenders that could take back
/// (legally, and ignoring their king's safety), and whether the capture gives check.
fn capture_gains(
    pos: &mut Position,
    m: Move,
    ak: PieceKind,
    xk: PieceKind,
    rules: RuleSet,
) -> (bool, Bitboard, Bitboard, bool) {
    let (a, s) = (m.from(), m.to());
    let mut exchange = false;
    if rules == RuleSet::Asian && ak == xk {
        // Exchange offer: the attacked piece can take the attacker back.
        pos.make_null();
        exchange = pos.is_legal_move(Move::new(s, a));
        pos.unmake_null();
    }
    pos.make_move(m);
    let mut pseudo = MoveList::new();
    generate(pos, GenType::Captures, &mut pseudo);
    let (mut roots, mut pseudo_roots) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for &r in pseudo.as_slice() {
        if r.to() == s {
            pseudo_roots |= Bitboard::from_square(r.from());
            if pos.is_legal(r) {
                roots |= Bitboard::from_square(r.from());
            }
        }
    }
    let gains = !exchange && (value(xk) > value(ak) || roots.is_empty()) && !mates_in_one(pos);
    let check = pos.in_check();
    pos.unmake_move();
    (gains, roots, pseudo_roots, check)
}

/// Whether the side to move can mate at once.
fn mates_in_one(pos: &mut Position) -> bool {
    let moves = legal_moves(pos);
    for &m in moves.as_slice() {
        pos.make_move(m);
        let mate = pos.in_check() && legal_moves(pos).is_empty();
        pos.unmake_move();
        if mate {
            return true;
        }
    }
    false
}

/// Whether the side to move mates by checks alone within `moves` of its moves, none of them a
/// capture on `besides`.
fn mate_by_checks(pos: &mut Position, moves: u32, besides: Bitboard, budget: &mut u32) -> bool {
    let list = legal_moves(pos);
    for &m in list.as_slice() {
        if besides.has(m.to()) {
            continue;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        pos.make_move(m);
        if !pos.in_check() {
            pos.unmake_move();
            continue;
        }
        let replies = legal_moves(pos);
        let mated = replies.is_empty()
            || (moves > 1
                && replies.as_slice().iter().all(|&r| {
                    pos.make_move(r);
                    let ok = mate_by_checks(pos, moves - 1, besides, budget);
                    pos.unmake_move();
                    ok
                }));
        pos.unmake_move();
        if mated {
            return true;
        }
    }
    false
}

/// Whether `side` (which need not be to move) threatens mate by checks: with it to move, it
/// mates by checks within [`THREAT_DEPTH`] moves. `false` when the other side is in check and so
/// cannot pass.
pub fn threatens_mate(pos: &mut Position, side: Color) -> bool {
    threatens_mate_besides(pos, side, Bitboard::EMPTY)
}

/// Like [`threatens_mate`], not counting mates that capture on a point of `besides`.
pub fn threatens_mate_besides(pos: &mut Position, side: Color, besides: Bitboard) -> bool {
    let mut budget = THREAT_NODES;
    if pos.side_to_move() == side {
        return mate_by_checks(pos, THREAT_DEPTH, besides, &mut budget);
    }
    if pos.in_check() {
        return false;
    }
    pos.make_null();
    let t = mate_by_checks(pos, THREAT_DEPTH, besides, &mut budget);
    pos.unmake_null();
    t
}

/// Classify the last move played in `pos` (which must have one). The mate threat is left
/// unknown; see [`threat_of_last_move`].
pub fn effect_of_last_move(pos: &mut Position, rules: RuleSet) -> MoveEffect {
    let st = *pos.history().last().expect("history is never empty");
    let mv = st.mv;
    let mover = pos.side_to_move().flip();
    let after = chases(pos, mover, rules);
    let threats_after = if rules == RuleSet::Asian {
        chases(pos, mover.flip(), rules).pieces
    } else {
        Bitboard::EMPTY
    };
    pos.unmake_move();
    let before = chases(pos, mover, rules);
    let threats_before = if rules == RuleSet::Asian {
        chases(pos, mover.flip(), rules).pieces
    } else {
        Bitboard::EMPTY
    };
    pos.make_move(mv);
    // The move parries a chase on one of the mover's pieces (解捉).
    let parries = (from_to_sq(threats_before, mv) & !threats_after).any();
    let from_to = |b: Bitboard| from_to_sq(b, mv);
    let mut chased = Bitboard::EMPTY;
    let mut pawn_chased = Bitboard::EMPTY;
    let mut chasers = [0u8; 90];
    for sq in after.pieces | after.by_pawns {
        let (a, b) = (&after.info[sq.index()], &before.info[sq.index()]);
        // 从捉到捉 is idle: only a chaser that was not chasing this piece before the move (the
        // moved piece counted on its old point) makes a new chase.
        let fresh = a.chasers & !from_to(b.chasers);
        if fresh.is_empty() {
            continue;
        }
        if rules == RuleSet::Asian {
            // What made the chase new: a new attack; a capture that now gives a discovered check
            // (the defender must answer it and cannot take back); a protector newly pinned; or,
            // unless the move parries a chase on the mover's own piece (解捉), a protector cut
            // off. A king that may no longer take back counts as neither (the point is now
            // defended), nor does a formal attack turning real.
            let new_attack = (fresh & !from_to(b.attackers)).any();
            let new_check = (fresh & a.checking_attackers & !from_to(b.checking_attackers)).any();
            let king = Bitboard::from_square(pos.king_square(mover.flip()));
            let lost_roots = b.roots & !a.chase_roots & !king;
            let pinned_root = (lost_roots & a.chase_pseudo_roots).any();
            let cut_root = lost_roots.any() && !parries;
            if !new_attack && !new_check && !pinned_root && !cut_root {
                continue;
            }
        }
        if after.pieces.has(sq) {
            chased |= Bitboard::from_square(sq);
        } else {
            pawn_chased |= Bitboard::from_square(sq);
        }
        chasers[sq.index()] = a.chaser_kinds;
    }
    MoveEffect {
        mv,
        mover,
        check: st.checkers.any(),
        threat: None,
        chased,
        pawn_chased,
        chasers,
    }
}

/// `b` with the point `mv` leaves replaced by the point it goes to.
fn from_to_sq(b: Bitboard, mv: Move) -> Bitboard {
    if b.has(mv.from()) {
        b ^ Bitboard::from_square(mv.from()) ^ Bitboard::from_square(mv.to())
    } else {
        b
    }
}

/// Whether the last move played in `pos` created a mate threat (杀), not counting mates that
/// capture on a point of `besides` (see [`crate::rules::cycle`] for when that matters).
pub fn threat_of_last_move(pos: &mut Position, besides: Bitboard) -> bool {
    let mover = pos.side_to_move().flip();
    if pos.in_check() || !threatens_mate_besides(pos, mover, besides) {
        return false;
    }
    let mv = pos.history().last().expect("history is never empty").mv;
    pos.unmake_move();
    let already = threatens_mate_besides(pos, mover, besides);
    pos.make_move(mv);
    !already
}
