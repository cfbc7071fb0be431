//! The same network in floating point, computed the plain way from the whole board. It is the
//! reference the integer inference is tested against, and the form a trainer fills in: train
//! in `f32`, then `quantise` gives the engine's `Network` (and `Network::to_bytes` its file).
//!
//! Units: a hidden unit is `clamp(bias + Σ weights of the inputs switched on, 0, 1)`; the
//! output `out_bias + Σ w[0]·hidden(side to move) + Σ w[1]·hidden(other side)` is a score with
//! `sigmoid(out)` the side to move's expected result, and the engine's score in centipawns is
//! `out · SCALE` (400 centipawns per unit). Quantisation multiplies feature weights and biases
//! by QA (255), output weights by QB (64) and the output bias by QA · QB, rounding to nearest.

use super::features::{index, INPUTS};
use super::network::{Network, NetworkError};
use super::{HIDDEN, QA, QB, SCALE};
use crate::board::position::Position;
use crate::board::types::Color;

/// A network in `f32` (see the module documentation for the units).
#[derive(Clone)]
pub struct FloatNetwork {
    /// Feature weights, one row of `HIDDEN` per input.
    pub ft_weights: Vec<[f32; HIDDEN]>,
    /// Feature biases.
    pub ft_bias: [f32; HIDDEN],
    /// Output weights: `[0]` for the side to move's hidden units, `[1]` for the other side's.
    pub out_weights: [[f32; HIDDEN]; 2],
    /// Output bias.
    pub out_bias: f32,
}

impl FloatNetwork {
    /// All weights zero.
    pub fn zeros() -> FloatNetwork {
        FloatNetwork {
            ft_weights: vec![[0.0; HIDDEN]; INPUTS],
            ft_bias: [0.0; HIDDEN],
            out_weights: [[0.0; HIDDEN]; 2],
            out_bias: 0.0,
        }
    }

    /// The float network an integer one stands for (exact: every weight divided by its scale).
    pub fn from_quantised(net: &Network) -> FloatNetwork {
        let (qa, qb) = (QA as f32, QB as f32);
        let mut f = FloatNetwork::zeros();
        for (row, q) in f.ft_weights.iter_mut().zip(net.ft_weights.iter()) {
            for (w, &q) in row.iter_mut().zip(q) {
                *w = f32::from(q) / qa;
            }
        }
        for (b, &q) in f.ft_bias.iter_mut().zip(&net.ft_bias) {
            *b = f32::from(q) / qa;
        }
        for (w, &q) in f
            .out_weights
            .iter_mut()
            .flatten()
            .zip(net.out_weights.iter().flatten())
        {
            *w = f32::from(q) / qb;
        }
        f.out_bias = net.out_bias as f32 / (qa * qb);
        f
    }

    /// The engine's network: each weight times its scale, rounded to nearest; refused when a
    /// weight does not fit its integer type or the integer inference could overflow
    /// (`Network::from_parts`).
    pub fn quantise(&self) -> Result<Network, NetworkError> {
        if self.ft_weights.len() != INPUTS {
            return Err(NetworkError::Architecture {
                field: "input count",
                found: self.ft_weights.len() as u32,
                expected: INPUTS as u32,
            });
        }
        let to_i16 = |w: f32, scale: i32, what: &str| -> Result<i16, NetworkError> {
            let q = (w * scale as f32).round();
            if (f32::from(i16::MIN)..=f32::from(i16::MAX)).contains(&q) {
                Ok(q as i16)
            } else {
                Err(NetworkError::TooLarge(format!(
                    "{what} {w} is beyond a 16-bit weight"
                )))
            }
        };
        let mut ft_weights = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for (q, row) in ft_weights.iter_mut().zip(&self.ft_weights) {
            for (q, &w) in q.iter_mut().zip(row) {
                *q = to_i16(w, QA, "a feature weight")?;
            }
        }
        let mut ft_bias = [0i16; HIDDEN];
        for (q, &w) in ft_bias.iter_mut().zip(&self.ft_bias) {
            *q = to_i16(w, QA, "a feature bias")?;
        }
        let mut out_weights = [[0i16; HIDDEN]; 2];
        for (q, &w) in out_weights
            .iter_mut()
            .flatten()
            .zip(self.out_weights.iter().flatten())
        {
            *q = to_i16(w, QB, "an output weight")?;
        }
        let bias = (f64::from(self.out_bias) * f64::from(QA * QB)).round();
        if !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&bias) {
            return Err(NetworkError::TooLarge(format!(
                "the output bias {} is beyond 32 bits",
                self.out_bias
            )));
        }
        Network::from_parts(ft_weights, ft_bias, out_weights, bias as i32)
    }

    /// The hidden units of `view` for `pos`, summed over every piece on the board.
    pub fn hidden(&self, pos: &Position, view: Color) -> [f32; HIDDEN] {
        let mut h = self.ft_bias;
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                for (h, w) in h.iter_mut().zip(&self.ft_weights[index(view, piece, sq)]) {
                    *h += w;
                }
            }
        }
        h.map(|x| x.clamp(0.0, 1.0))
    }

    /// The output for `pos`'s side to move, in the network's units (no rounding, no limit).
    pub fn output(&self, pos: &Position) -> f32 {
        let stm = pos.side_to_move();
        let mut out = self.out_bias;
        for (weights, view) in self.out_weights.iter().zip([stm, stm.flip()]) {
            let h = self.hidden(pos, view);
            out += h.iter().zip(weights).map(|(h, w)| h * w).sum::<f32>();
        }
        out
    }

    /// The score of `pos` for its side to move in centipawns: `output · SCALE`.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.output(pos) * SCALE as f32
    }
}
