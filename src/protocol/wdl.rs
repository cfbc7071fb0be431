//! The win/draw/loss model behind `UCI_ShowWDL`: how often a score wins, draws or loses.
//!
//! A score `v` (the side to move's view) wins with probability `1 / (1 + exp((a - v) / b))` and
//! loses with `1 / (1 + exp((a + v) / b))`; the rest is the draw. `a` is the score that wins
//! half the time, `b` how fast the odds grow around it. Both depend on the material on the
//! board, `m = 10·rooks + 5·horses + 5·cannons + 3·elephants + 2·advisors + pawns` (both sides,
//! 0..110, the weighting Pikafish's model uses): the same score means less with fewer pieces,
//! where more games end drawn. Each is a cubic in `m / ANCHOR`, with `m` clamped to the range
//! the data covered.
//!
//! The numbers are fitted to Chuhan's own games by `chuhan datagen wdl` (maximum likelihood,
//! [`crate::tools::datagen::wdl`]) and written to `wdl_fit.rs` by `scripts/fit-wdl.sh`, which
//! is rerun for each shipped network; `docs/wdl.md` gives the last fit and its error.

use crate::board::position::Position;
use crate::board::types::{Color, PieceKind, Value, MATE_BOUND};

/// The material count at which `m / ANCHOR = 1`: the middle of the range, which keeps the
/// cubics' coefficients of one size.
pub const ANCHOR: f64 = 65.0;

/// A fitted model: `a` and `b` as cubics in `m / ANCHOR`, highest power first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The coefficients of `a(m)`.
    pub a: [f64; 4],
    /// The coefficients of `b(m)`.
    pub b: [f64; 4],
    /// The material range of the data the fit saw; other counts are clamped into it.
    pub material: (u32, u32),
}

/// Each kind's share of the material count, by [`PieceKind::index`]: king, advisor, elephant,
/// horse, rook, cannon, pawn.
const WEIGHT: [u32; 7] = [0, 2, 3, 5, 10, 5, 1];

/// The material count of a position, both sides together.
pub fn material(pos: &Position) -> u32 {
    PieceKind::ALL
        .iter()
        .map(|&k| WEIGHT[k.index()] * (pos.count(Color::Red, k) + pos.count(Color::Black, k)))
        .sum()
}

fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

impl WdlModel {
    /// `(a, b)` at a material count.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let (lo, hi) = self.material;
        let x = f64::from(material.clamp(lo, hi)) / ANCHOR;
        // A fit keeps `b` positive over its range; the floor only guards a hand-made model.
        (cubic(&self.a, x), cubic(&self.b, x).max(1.0))
    }

    /// The probability that a score wins, at a material count.
    pub fn win_rate(&self, score: f64, material: u32) -> f64 {
        let (a, b) = self.params(material);
        1.0 / (1.0 + ((a - score) / b).exp())
    }

    /// Win, draw and loss per mille for a score (the side to move's view) at a material count;
    /// mate scores are certain.
    pub fn wdl(&self, score: Value, material: u32) -> (u32, u32, u32) {
        if score >= MATE_BOUND {
            return (1000, 0, 0);
        }
        if score <= -MATE_BOUND {
            return (0, 0, 1000);
        }
        let per_mille = |p: f64| (1000.0 * p).round().clamp(0.0, 1000.0) as u32;
        let w = per_mille(self.win_rate(f64::from(score), material));
        let l = per_mille(self.win_rate(-f64::from(score), material)).min(1000 - w);
        (w, 1000 - w - l, l)
    }
}

/// The model fitted to the shipped network's games.
pub fn shipped() -> &'static WdlModel {
    &super::wdl_fit::MODEL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_counts_both_sides_with_pikafish_weights() {
        assert_eq!(material(&Position::startpos()), 110);
        let pos = Position::from_fen("5k3/9/9/9/9/9/9/9/4A4/3RK4 w - - 0 1").unwrap();
        assert_eq!(material(&pos), 12);
    }

    #[test]
    fn the_shipped_model_is_a_sensible_distribution() {
        let model = shipped();
        for m in [0, 12, 30, 65, 110] {
            let (a, b) = model.params(m);
            assert!(a > 0.0 && b > 0.0, "material {m}: a {a} b {b}");
            let mut last_w = 0;
            for s in (-1500..=1500).step_by(50) {
                let (w, d, l) = model.wdl(s, m);
                assert_eq!(w + d + l, 1000);
                assert!(w >= last_w, "wins grow with the score");
                last_w = w;
                assert_eq!(model.wdl(-s, m), (l, d, w), "symmetric");
            }
            assert!(model.wdl(0, m).1 > 100, "a level position draws often");
            assert!(model.wdl(1200, m).0 > 900, "far ahead wins");
        }
        assert!(model.wdl(0, 20).1 > 800, "a level ending is mostly drawn");
        assert_eq!(model.wdl(MATE_BOUND, 110), (1000, 0, 0));
        assert_eq!(model.wdl(-MATE_BOUND - 5, 110), (0, 0, 1000));
    }

    #[test]
    fn fewer_pieces_make_the_same_score_draw_more() {
        let model = shipped();
        assert!(model.wdl(150, 20).1 > model.wdl(150, 100).1);
    }
}
