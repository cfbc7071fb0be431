//! Endgame knowledge by material: how much of an advantage endgame theory lets a side turn
//! into a win.
//!
//! Both evaluations (the network and the classical one) score material, and material alone
//! misleads in the endings that xiangqi manuals list as theoretical draws (例和): a lone rook
//! against a full defence (单车难胜士象全), a horse against two elephants, a cannon with no
//! screen, a pawn on the last rank. [`scale`] gives, for the side an evaluation favours, a
//! factor out of [`FULL`] by which the evaluation is multiplied: [`FULL`] where the material
//! can win, small where theory says it cannot, 0 where mate is impossible. The rules look
//! only at the material of both sides (a *signature*), as the classical engines' endgame
//! tables do; each rule names its verdict, and `tests/endgames.rs` checks the evaluation and
//! the search against positions of each kind with their published verdicts
//! (`tests/data/endgames.tsv`, sources given per row).

use crate::board::position::Position;
use crate::board::types::{Color, PieceKind};

/// The scale that leaves an evaluation as it is.
pub const FULL: i32 = 64;

/// The scale of a theoretical draw: the advantage shrinks to a thirty-second, so the side ahead still
/// prefers its extra material (a draw it might yet win against a weak defence) to nothing,
/// but any real winning chance elsewhere scores higher.
const DRAWN: i32 = 2;

/// The scale of an ending that is hard to win, mostly a draw (the sources' 难胜): the defence
/// holds if it plays well.
const HARD: i32 = 12;

/// The scale of an ending that cannot be won by any play, such as a lone cannon against a
/// bare king: a sliver of the advantage, so the side ahead keeps its pieces all the same.
const DEAD: i32 = 1;

/// One side's material as endgame theory counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Material {
    rooks: u32,
    horses: u32,
    cannons: u32,
    /// Pawns not yet on the enemy's back rank (高兵 and 低兵).
    pawns: u32,
    /// Pawns on the enemy's back rank (底兵, 老兵), which can no longer reach the palace.
    bottom_pawns: u32,
    advisors: u32,
    elephants: u32,
}

impl Material {
    fn of(pos: &Position, side: Color) -> Material {
        let back_rank = match side {
            Color::Red => 9,
            Color::Black => 0,
        };
        let bottom_pawns = pos
            .pieces(side, PieceKind::Pawn)
            .into_iter()
            .filter(|sq| sq.rank() == back_rank)
            .count() as u32;
        Material {
            rooks: pos.count(side, PieceKind::Rook),
            horses: pos.count(side, PieceKind::Horse),
            cannons: pos.count(side, PieceKind::Cannon),
            pawns: pos.count(side, PieceKind::Pawn) - bottom_pawns,
            bottom_pawns,
            advisors: pos.count(side, PieceKind::Advisor),
            elephants: pos.count(side, PieceKind::Elephant),
        }
    }

    /// Rooks, horses and cannons.
    fn pieces(&self) -> u32 {
        self.rooks + self.horses + self.cannons
    }

    /// Advisors and elephants.
    fn defenders(&self) -> u32 {
        self.advisors + self.elephants
    }

    /// Both advisors and both elephants (士象全).
    fn full_defence(&self) -> bool {
        self.advisors == 2 && self.elephants == 2
    }
}

/// The factor, out of [`FULL`], by which an evaluation that favours `strong` is scaled.
#[inline]
pub fn scale(pos: &Position, strong: Color) -> i32 {
    // The rules below concern at most two attacking pieces a side and a few pawns: with more
    // on the board, material decides.
    if pos.color_count(strong) > 10 {
        return FULL;
    }
    let s = Material::of(pos, strong);
    if s.pieces() > 2 {
        return FULL;
    }
    let w = Material::of(pos, strong.flip());
    signature_scale(&s, &w)
}

/// The scale for a side with material `s` against material `w`.
fn signature_scale(s: &Material, w: &Material) -> i32 {
    let pieces = s.pieces();
    if pieces == 0 {
        return pawns_only(s, w);
    }
    if pieces == 1 && s.pawns == 0 {
        if s.cannons == 1 {
            return lone_cannon(s, w);
        }
        if s.horses == 1 {
            return lone_horse(w);
        }
        return lone_rook(w);
    }
    if s.pawns == 0 && s.rooks >= 1 && w.rooks == 1 && w.pieces() == 1 {
        return rook_against_rook(s, w);
    }
    if pieces == 1 && s.horses == 1 && s.pawns == 1 && w.pieces() == 1 && w.defenders() >= 2 {
        // A horse and a pawn against a piece with two defenders (马兵难胜炮双象, 炮单士象).
        return HARD;
    }
    FULL
}

/// A rook with one more rook, horse or cannon and no pawn, against a lone rook with
/// defenders.
fn rook_against_rook(s: &Material, w: &Material) -> i32 {
    if s.rooks == 2 {
        // Two rooks against a rook and a full defence (双车难胜车士象全).
        return if w.full_defence() { HARD } else { FULL };
    }
    // A rook and a horse or cannon against a rook: elephants hold (车马仕难胜车双象, 车炮难胜车单象),
    // and so do two advisors when the attacker has no advisor of its own against the rook's
    // checks (车马难胜车双士; with an advisor, 车马仕胜车双士); one advisor alone does not
    // (车炮胜车单士).
    if w.elephants >= 1 || (w.advisors == 2 && s.advisors == 0) {
        HARD
    } else {
        FULL
    }
}

/// Pawns and nothing else that attacks.
fn pawns_only(s: &Material, w: &Material) -> i32 {
    match s.pawns {
        // Advisors, elephants and pawns stuck on the last rank never mate (a last-rank pawn
        // only moves along it, and the king steps up out of its reach).
        0 => 0,
        // One pawn wins against a bare king, a single advisor or a single elephant
        // (高兵胜单士, 高兵胜单象), not against two defenders.
        1 if w.defenders() >= 2 || w.pieces() > 0 => DRAWN,
        // Two pawns do not break a full defence (双兵难胜士象全); three do.
        2 if w.full_defence() => DRAWN,
        _ => FULL,
    }
}

/// A lone cannon (no other rook, horse, cannon or live pawn).
fn lone_cannon(s: &Material, w: &Material) -> i32 {
    if w.defenders() + w.pieces() + w.pawns + w.bottom_pawns == 0 {
        // Against a bare king an advisor of its own is the screen it needs (炮仕胜将).
        if s.advisors > 0 {
            FULL
        } else {
            DEAD
        }
    } else {
        DRAWN
    }
}

/// A lone horse.
fn lone_horse(w: &Material) -> i32 {
    // The horse beats advisors (马胜单士, 双士) but not an elephant well placed (单马难胜单象,
    // 双象), nor any piece.
    if w.elephants >= 1 || w.pieces() > 0 {
        DRAWN
    } else {
        FULL
    }
}

/// A lone rook.
fn lone_rook(w: &Material) -> i32 {
    // The rook wins against any defence but the full one (单车难胜士象全), against a horse with
    // two advisors (单车胜马双士), not against a horse or cannon with two elephants (马双象,
    // 炮双象 hold) nor against two pieces (双炮).
    if w.full_defence() || (w.pieces() >= 1 && w.elephants >= 2) || w.pieces() >= 2 {
        DRAWN
    } else {
        FULL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scale_of(fen: &str, strong: Color) -> i32 {
        scale(&Position::from_fen(fen).unwrap(), strong)
    }

    #[test]
    fn a_full_board_is_never_scaled() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        assert_eq!(scale_of(start, Color::Red), FULL);
        assert_eq!(scale_of(start, Color::Black), FULL);
    }

    #[test]
    fn a_lone_rook_against_a_full_defence_is_drawn_and_against_less_it_is_not() {
        let full = "2bakab2/9/9/9/9/9/9/9/9/3R1K3 w";
        assert_eq!(scale_of(full, Color::Red), DRAWN);
        let one_elephant = "3akab2/9/9/9/9/9/9/9/9/3R1K3 w";
        assert_eq!(scale_of(one_elephant, Color::Red), FULL);
        // The same for Black.
        assert_eq!(
            scale_of("3k1r3/9/9/9/9/9/9/9/9/2BAKAB2 b", Color::Black),
            DRAWN
        );
    }

    #[test]
    fn nothing_that_attacks_can_never_win() {
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/9/4A4/2B1KAB2 w", Color::Red), 0);
        // A pawn on the last rank counts as nothing.
        assert_eq!(scale_of("3k1P3/9/9/9/9/9/9/9/9/4K4 w", Color::Red), 0);
        // One a rank higher still wins against a bare king.
        assert_eq!(scale_of("3k5/5P3/9/9/9/9/9/9/9/4K4 w", Color::Red), FULL);
    }

    #[test]
    fn a_cannon_needs_a_screen() {
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/9/9/2C1K4 w", Color::Red), DEAD);
        assert_eq!(scale_of("3k5/9/9/9/9/9/9/9/4A4/2C1K4 w", Color::Red), FULL);
    }
}
