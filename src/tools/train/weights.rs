//! The float weights a run starts from, and the ranges training keeps them in so that
//! `FloatNetwork::quantise` always succeeds.
//!
//! `Network::from_parts` refuses a hidden unit whose bias plus its 32 largest feature weights
//! (in absolute value) could leave an i16, and an output whose bias plus QA times the sum of
//! the absolute output weights could leave an i32. Training clips every weight after each step:
//!
//! - feature weights and biases to ±`FT_LIMIT` = 992 / QA, so 33 of them (a bias and 32 inputs)
//!   quantise to at most 33 · 992 = 32 736 ≤ 32 767;
//! - output weights to ±`OUT_LIMIT` = 125 (8 000 at QB) and the output bias to
//!   ±`OUT_BIAS_LIMIT` = 1 000 (16 320 000 at QA · QB): 1 024 · 8 000 · 255 + 16 320 000 < 2³¹.
//!
//! A trained network is far inside these (r4w's feature weights reach about 1.2, its output
//! weights 0.36), so the clip only guards against a diverging run.

use crate::board::rng::Rng;
use crate::eval::nnue::features::MAX_ACTIVE;
use crate::eval::nnue::float::FloatNetwork;
use crate::eval::nnue::{HIDDEN, QA, QB};

/// The largest quantised feature weight or bias: 33 of them fit an i16.
const FT_LIMIT_Q: i32 = i16::MAX as i32 / (MAX_ACTIVE as i32 + 1);
/// The largest quantised output weight.
const OUT_LIMIT_Q: i64 = 8_000;
/// The largest quantised output bias.
const OUT_BIAS_LIMIT_Q: i64 = 1_000 * (QA * QB) as i64;

const _: () = assert!(FT_LIMIT_Q == 992 && (MAX_ACTIVE as i32 + 1) * FT_LIMIT_Q <= i16::MAX as i32);
const _: () = assert!(
    OUT_BIAS_LIMIT_Q + QA as i64 * 2 * HIDDEN as i64 * OUT_LIMIT_Q <= i32::MAX as i64
        && OUT_LIMIT_Q <= i16::MAX as i64
);

/// Largest absolute feature weight and feature bias.
pub const FT_LIMIT: f32 = FT_LIMIT_Q as f32 / QA as f32;
/// Largest absolute output weight.
pub const OUT_LIMIT: f32 = OUT_LIMIT_Q as f32 / QB as f32;
/// Largest absolute output bias.
pub const OUT_BIAS_LIMIT: f32 = (OUT_BIAS_LIMIT_Q / (QA * QB) as i64) as f32;

/// The starting weights of a run, drawn from `seed`:
///
/// - feature weights uniform in ±1/√32: a position switches on about 30 inputs, so a hidden
///   unit's sum has a spread of about ±0.55 around its bias;
/// - feature biases 0.5: with that spread most units start inside the clip's linear part
///   (0, 1), where they pass gradient, and differ from position to position;
/// - output weights uniform in ±1/√1024 (the fan-in, 2 · HIDDEN), output bias 0: the first outputs are
///   small (about ±0.3, ±120 centipawns), so the first steps learn rather than unlearn.
///
/// From there a first epoch learns material: after one epoch over the round-1 datagen files
/// (`docs/nnue.md`; measured 256 wide), the start position with a rook, horse or cannon removed scores +1 038,
/// +350 and +315 centipawns for the side with it, -776 with the rook removed on the other side.
pub fn initial(seed: u64) -> FloatNetwork {
    let mut rng = Rng::new(seed);
    let mut uniform = |r: f32| ((rng.unit() * 2.0 - 1.0) as f32) * r;
    let mut net = FloatNetwork::zeros();
    let ft = 1.0 / (MAX_ACTIVE as f32).sqrt();
    for w in net.ft_weights.iter_mut().flatten() {
        *w = uniform(ft);
    }
    net.ft_bias = [0.5; HIDDEN];
    let out = 1.0 / ((2 * HIDDEN) as f32).sqrt();
    for w in net.out_weights.iter_mut().flatten() {
        *w = uniform(out);
    }
    net.out_bias = 0.0;
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::features::INPUTS;

    #[test]
    fn weights_at_the_limits_quantise() {
        // The worst case for every check: all weights at a limit, with one sign, then the other.
        for sign in [1.0f32, -1.0] {
            let mut net = FloatNetwork::zeros();
            for w in net.ft_weights.iter_mut().flatten() {
                *w = sign * FT_LIMIT;
            }
            net.ft_bias = [sign * FT_LIMIT; HIDDEN];
            net.out_weights = [[sign * OUT_LIMIT; HIDDEN]; 2];
            net.out_bias = sign * OUT_BIAS_LIMIT;
            net.quantise().unwrap();
        }
        // The feature limit is the tight one: a quantisation step more is refused. (The
        // output weights' limit, 8 000 over 1 024 weights, sits just under what the 32-bit sum
        // allows: about 8 160 with the output bias at its limit.)
        let step = 1.0 / QA as f32;
        let mut net = FloatNetwork::zeros();
        for row in net.ft_weights.iter_mut().take(MAX_ACTIVE) {
            row[0] = FT_LIMIT + step;
        }
        net.ft_bias[0] = FT_LIMIT + step;
        assert!(net.quantise().is_err());
        let mut net = FloatNetwork::zeros();
        net.out_weights = [[OUT_LIMIT * 2.1; HIDDEN]; 2];
        assert!(net.quantise().is_err());
        assert_eq!(INPUTS, net.ft_weights.len());
    }

    #[test]
    fn the_start_is_random_small_and_repeatable() {
        let a = initial(1);
        let b = initial(1);
        let c = initial(2);
        assert!(a.ft_weights == b.ft_weights && a.out_weights == b.out_weights);
        assert!(a.ft_weights != c.ft_weights);
        let limit = 1.0 / 32f32.sqrt();
        assert!(a.ft_weights.iter().flatten().all(|w| w.abs() <= limit));
        let mean = a.ft_weights.iter().flatten().sum::<f32>() / (INPUTS * HIDDEN) as f32;
        assert!(mean.abs() < 0.01, "{mean}");
        a.quantise().unwrap();
    }
}
