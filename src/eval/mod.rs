//! Evaluation, the layer between the rules and the search: a position's static score from the
//! side to move's point of view, by the classical terms below or by the network (`nnue/`), and
//! `evaluator`, which keeps either one move by move along a line. It uses only the board (and
//! `param_text`, the one reader of parameter files); the search, the tuner and the trainer use
//! it, never the reverse.
//!
//! The classical evaluation (this file): material and piece-square terms are tapered between
//! middlegame and endgame by the attacking material left (rooks, horses, cannons). Further terms:
//! mobility of rooks, horses and cannons; king safety (missing defenders against attackers, rooks
//! on open files toward the king, cannons aimed at the king with one screen); crossed and connected
//! pawns; and a scale for endings that cannot be won (no attacking pieces, a lone cannon, a rook
//! against a full defence). Piece-square tables are built once from a few readable shape parameters
//! (advancement, centralisation) plus fitted offsets per kind and point, all in `Params` (declared
//! in `eval/params.rs`), which the tuner adjusts.

use crate::board::attacks::*;
use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceKind, Square, Value, SQUARE_NB};
use once_cell::sync::Lazy;

pub mod endgame;
pub(crate) mod evaluator;
pub mod nnue;
pub mod param_text;
mod params;
pub use params::Params;

/// A middlegame/endgame pair of values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl std::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl std::ops::SubAssign for Score {
    fn sub_assign(&mut self, o: Score) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}
impl std::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Phase weights per kind; full phase = all attacking pieces on the board.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];
const FULL_PHASE: i32 = 2 * (2 * 2 + 2 * 4 + 2 * 2);

/// Precomputed piece-square tables, material included, and the points from which a horse
/// threatens each palace.
#[derive(Debug)]
pub struct Tables {
    /// Per piece and point, signed: Red's values count up, Black's (its rank-mirrored point) down.
    psq: [[Score; SQUARE_NB]; Piece::NB],
    /// Per colour, the points of its horses that stand in or one free leap from the enemy palace.
    horse_near_palace: [Bitboard; 2],
    params: Params,
}

impl Tables {
    /// Build the tables from parameters.
    pub fn new(params: Params) -> Tables {
        let mut pst = [[Score::default(); SQUARE_NB]; 7];
        for sq in Square::all() {
            let (f, r) = (sq.file() as i32, sq.rank() as i32);
            let center = 4 - (f - 4).abs(); // 0 at the edge files, 4 on the e-file
            for kind in PieceKind::ALL {
                let mut s = params.material[kind.index()];
                match kind {
                    PieceKind::Pawn if r >= 5 => {
                        s += params.pawn_crossed;
                        s += params.pawn_advance * (r - 5).min(3);
                        if (3..=5).contains(&f) {
                            s += params.pawn_center;
                        }
                        if r == 9 {
                            s += params.pawn_bottom;
                        }
                    }
                    PieceKind::Horse => {
                        s += params.horse_center * center.min(3);
                        s += params.horse_advance * r.min(7);
                        if f == 0 || f == 8 {
                            s -= params.horse_center * 2;
                        }
                    }
                    PieceKind::Rook => s += params.rook_advance * r.min(7),
                    PieceKind::Cannon if f == 4 => s += params.cannon_center,
                    _ => {}
                }
                s += params.pst_offset(kind, sq);
                pst[kind.index()][sq.index()] = s;
            }
        }
        let mut psq = [[Score::default(); SQUARE_NB]; Piece::NB];
        let mut horse_near_palace = [Bitboard::EMPTY; 2];
        for color in [Color::Red, Color::Black] {
            let their_palace = Bitboard::palace(color.flip());
            for sq in Square::all() {
                let own = if color == Color::Red {
                    sq
                } else {
                    sq.flip_rank()
                };
                for kind in PieceKind::ALL {
                    let s = pst[kind.index()][own.index()];
                    psq[Piece::new(color, kind).index()][sq.index()] =
                        if color == Color::Red { s } else { s * -1 };
                }
                if their_palace.has(sq) || (horse_attacks(sq, Bitboard::EMPTY) & their_palace).any()
                {
                    horse_near_palace[color.index()] |= Bitboard::from_square(sq);
                }
            }
        }
        Tables {
            psq,
            horse_near_palace,
            params,
        }
    }

    /// Material and piece-square sum of `pos`, Red's minus Black's.
    pub fn psq_sum(&self, pos: &Position) -> Score {
        let mut s = Score::default();
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                for sq in pos.pieces(color, kind) {
                    s += self.psq[piece.index()][sq.index()];
                }
            }
        }
        s
    }

    /// What the last move made on `pos` changed in [`Self::psq_sum`]; `None` when `pos` is not
    /// just after a move (a pass changes nothing, so the caller knows).
    pub fn psq_change(&self, pos: &Position) -> Option<Score> {
        let (piece, mv, captured) = pos.last_move()?;
        let (from, to) = (mv.from(), mv.to());
        let moved = &self.psq[piece.index()];
        let mut change = moved[to.index()] - moved[from.index()];
        if let Some(captured) = captured {
            change -= self.psq[captured.index()][to.index()];
        }
        Some(change)
    }

    /// The parameters these tables were built from.
    pub fn params(&self) -> &Params {
        &self.params
    }
}

static TABLES: Lazy<Tables> = Lazy::new(|| Tables::new(Params::default()));

/// The tables of the built-in parameters.
pub fn default_tables() -> &'static Tables {
    &TABLES
}

/// Evaluate with the built-in parameters.
pub fn evaluate(pos: &Position) -> Value {
    evaluate_with(pos, &TABLES)
}

/// Evaluate with given tables (the tuner's entry point).
pub fn evaluate_with(pos: &Position, t: &Tables) -> Value {
    evaluate_with_psq(pos, t, t.psq_sum(pos))
}

/// Evaluate with given tables, given their [`Tables::psq_sum`] of `pos` (which the search
/// keeps move by move).
#[inline]
pub fn evaluate_with_psq(pos: &Position, t: &Tables, psq: Score) -> Value {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `evaluate_popcnt` requires only that the CPU has POPCNT, checked just above.
        return unsafe { evaluate_popcnt(pos, t, psq) };
    }
    evaluate_any_cpu(pos, t, psq)
}

/// [`evaluate_with_psq`] compiled with the POPCNT instruction, which the baseline x86-64 build
/// may not assume: its piece and mobility counts are otherwise computed in software, twice
/// per 128-bit board.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Position, t: &Tables, psq: Score) -> Value {
    evaluate_any_cpu(pos, t, psq)
}

#[inline(always)]
fn evaluate_any_cpu(pos: &Position, t: &Tables, psq: Score) -> Value {
    let (score, phase) = (
        psq + side_score(pos, t, Color::Red) - side_score(pos, t, Color::Black),
        game_phase(pos),
    );
    let mg = score.0;
    let eg = score.1;
    let blended = (mg * phase + eg * (FULL_PHASE - phase)) / FULL_PHASE;
    let strong = if blended > 0 {
        Color::Red
    } else {
        Color::Black
    };
    let scaled = blended * endgame::scale(pos, strong) / endgame::FULL;
    let v = if pos.side_to_move() == Color::Red {
        scaled
    } else {
        -scaled
    };
    v + t.params.tempo
}

/// Attacking material left, 0 (bare) .. FULL_PHASE (all rooks, horses and cannons).
#[inline(always)]
pub fn game_phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in [PieceKind::Horse, PieceKind::Rook, PieceKind::Cannon] {
        let n = pos.count(Color::Red, kind) + pos.count(Color::Black, kind);
        phase += n as i32 * PHASE_WEIGHT[kind.index()];
    }
    phase.min(FULL_PHASE)
}

#[inline(always)]
fn side_score(pos: &Position, t: &Tables, us: Color) -> Score {
    let p = &t.params;
    let them = us.flip();
    let occ = pos.occupied();
    let own = pos.color_bb(us);
    let mut s = Score::default();
    let their_king = pos.king_square(them);

    for sq in pos.pieces(us, PieceKind::Rook) {
        let a = rook_attacks(sq, occ);
        s += p.mobility[0] * (a.without(own).count() as i32);
        // Open file (no own pawn ahead) on the files of the enemy palace.
        if (3..=5).contains(&sq.file())
            && (Bitboard::file(sq.file()) & pos.pieces(us, PieceKind::Pawn)).is_empty()
        {
            s += p.rook_open_file;
        }
    }
    for sq in pos.pieces(us, PieceKind::Horse) {
        let a = horse_attacks(sq, occ);
        s += p.mobility[1] * (a.without(own).count() as i32);
        if t.horse_near_palace[us.index()].has(sq) {
            s += p.horse_near_palace;
        }
    }
    for sq in pos.pieces(us, PieceKind::Cannon) {
        s += p.mobility[2] * (rook_attacks(sq, occ).without(occ).count() as i32);
        if cannon_attacks(sq, occ).has(their_king) {
            // Already a check; in the tree this is handled by search, here a small bonus.
            s += p.cannon_pin_king;
        } else if sq.file() == their_king.file() || sq.rank() == their_king.rank() {
            let between = rook_attacks(sq, occ) & rook_attacks(their_king, occ);
            if between.any() && !between.more_than_one() {
                s += p.cannon_pin_king;
            }
        }
    }
    // Crossed pawns side by side.
    let crossed = pos.pieces(us, PieceKind::Pawn).without(Bitboard::half(us));
    for sq in crossed {
        if sq.file() < 8 && crossed.has(Square::from_coords(sq.file() + 1, sq.rank())) {
            s += p.pawn_connected;
        }
    }
    // King safety: our missing defenders weigh more the more enemy attackers crossed the river.
    let attackers = (pos.pieces(them, PieceKind::Rook)
        | pos.pieces(them, PieceKind::Horse)
        | pos.pieces(them, PieceKind::Cannon)
        | pos.pieces(them, PieceKind::Pawn))
        & Bitboard::half(us);
    let missing =
        4 - (pos.count(us, PieceKind::Advisor) + pos.count(us, PieceKind::Elephant)) as i32;
    s += p.missing_defender * (missing * attackers.count() as i32);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Value {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let v = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w");
        let w = eval("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b");
        assert_eq!(v, w, "side-relative and colour-symmetric");
        assert!(v.abs() < 50);
    }

    #[test]
    fn mirrored_positions_score_alike() {
        // Colour-flipped (and rank-mirrored) versions of a middlegame evaluate the same for the mover.
        let a = eval("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w");
        let b = eval("2bakab2/9/1cCc5/p1p2r2p/6p2/4C4/PnP1P1P1P/2N1B4/4KN3/R1BA1A3 b");
        assert_eq!(a, b);
    }

    #[test]
    fn piece_square_offsets_count_for_both_colours() {
        // A horse on c2 (Red) or c7 (Black, the same point from its side) gains the offset.
        let mut p = Params {
            pst_horse: params::Pst::ZERO,
            ..Params::default()
        };
        let without = Tables::new(p.clone());
        p.pst_horse.0[2][2] = Score(100, 100);
        let t = Tables::new(p);
        for (fen, gain) in [
            ("3k5/9/9/9/9/9/9/2N6/9/4K4 w", 100),
            ("3k5/9/9/9/9/9/9/6N2/9/4K4 w", 100), // g2, the mirror
            ("3k5/9/9/9/9/9/9/9/2N6/4K4 w", 0),
            ("3k5/9/2n6/9/9/9/9/9/9/4K4 b", 100),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(
                evaluate_with(&pos, &t) - evaluate_with(&pos, &without),
                gain,
                "{fen}"
            );
        }
    }

    #[test]
    fn material_matters() {
        let up_rook = eval("3k5/9/9/9/9/9/9/9/9/R3K4 w");
        assert!(up_rook > 500, "{up_rook}");
        assert!(eval("3k5/9/9/9/9/9/9/9/9/R3K4 b") < -500);
    }

    #[test]
    fn hopeless_material_is_drawish() {
        // Advisors and elephants alone can never mate.
        assert!(eval("3k5/9/9/9/9/9/9/9/4A4/2B1KAB2 w").abs() <= 20);
        // A lone cannon cannot win against a bare king.
        assert!(eval("3k5/9/9/9/9/9/9/9/9/2C1K4 w") < 100);
    }
}
