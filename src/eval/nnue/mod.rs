//! NNUE: an efficiently updatable neural network evaluation, in integers.
//!
//! Architecture (version 2; `architecture()` names it):
//!
//! - **Inputs**, per perspective: 1260 binary features, one per (own/their, piece kind, point),
//!   the board seen from that side's own bottom (Red's view as it is, Black's rank-mirrored);
//!   `features` defines the index.
//! - **Feature transformer**: 1260 → 512, i16 weights and biases at scale QA = 255, one
//!   transformer shared by both perspectives. Its output for a view is its *accumulator*:
//!   bias plus the weight rows of the inputs switched on (`accumulator`).
//! - **Activation**: clipped ReLU, `clamp(x, 0, QA)`, on each accumulator.
//! - **Output**: the side to move's 512 activations then the other side's 512, dotted with 1024
//!   i16 weights at scale QB = 64, plus an i32 bias at scale QA · QB; the score in centipawns is
//!   that sum times SCALE = 400 divided by QA · QB (rounded toward zero), clamped to
//!   `±EVAL_LIMIT`. A float network trained so that `sigmoid(output)` is the side to move's
//!   expected result gives 400 centipawns per unit of output (`float`).
//!
//! `network` holds the weights, the file format and both layers computed from scratch,
//! `accumulator` the incremental updates, `float` the same network in `f32` computed from the whole
//! board (the tests' reference and a trainer's starting point). Everything is portable Rust over
//! fixed-size i16 arrays, which the compiler vectorises; where the CPU has AVX2, the accumulator
//! update and the output run a copy compiled for it, the only `unsafe` being the two calls made
//! after detecting AVX2.
//!
//! The engine ships one network, compiled into the binary from `nets/default.nnue`
//! ([`built_in`]); "The shipped network" in `docs/nnue.md` gives the recipe that rebuilt it.

pub mod accumulator;
pub mod features;
pub mod float;
pub mod network;

pub use accumulator::AccumulatorStack;
pub use network::{Accumulator, Network, NetworkError};

use crate::board::types::Value;
use once_cell::sync::Lazy;

/// Hidden units per perspective.
pub const HIDDEN: usize = 512;
/// Scale of the feature weights and biases; also the clip of the activation.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// The largest score the network gives: far above any real advantage, far from mate scores
/// (`MATE_BOUND`) and from the UCCI score limit (29 000).
pub const EVAL_LIMIT: Value = 20_000;

/// The bytes of the network compiled into the binary.
static BUILT_IN_FILE: &[u8] = include_bytes!("../../../nets/default.nnue");

/// The network compiled into the binary, read from its bytes on first use.
static BUILT_IN: Lazy<Network> = Lazy::new(|| match Network::from_bytes(BUILT_IN_FILE) {
    Ok(net) => net,
    // A build-time fact, not input: `the_built_in_network_loads_and_knows_material` checks it.
    Err(why) => panic!("nets/default.nnue {why}"),
});

/// The network the engine ships with.
pub fn built_in() -> &'static Network {
    &BUILT_IN
}

/// The architecture in words, for reports: `(1260 -> 512) x 2 -> 1, clipped ReLU`.
pub fn architecture() -> String {
    format!("({} -> {HIDDEN}) x 2 -> 1, clipped ReLU", features::INPUTS)
}

#[cfg(test)]
mod tests {
    use super::float::FloatNetwork;
    use super::*;
    use crate::board::movegen::legal_moves;
    use crate::board::playout::random_playout;
    use crate::board::position::Position;
    use crate::board::rng::Rng;

    /// Positions of random playouts: about `games` games of about `plies` plies.
    fn playout_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
        random_playout(&mut Rng::new(seed), games * plies, plies)
    }

    #[test]
    fn the_architecture_is_named_from_its_numbers() {
        assert_eq!(architecture(), "(1260 -> 512) x 2 -> 1, clipped ReLU");
    }

    #[test]
    fn the_built_in_network_loads_and_knows_material() {
        let net = built_in();
        let eval = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            AccumulatorStack::new(net, &pos).evaluate(&pos)
        };
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        // The start position is about level for either side to move.
        assert!(eval(&format!("{start} w")).abs() < 100);
        assert!(eval(&format!("{start} b")).abs() < 100);
        // Without Black's rook on a9 Red is far ahead, whoever moves.
        let no_rook = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        assert!(eval(&format!("{no_rook} w")) > 300);
        assert!(eval(&format!("{no_rook} b")) < -300);
    }

    #[test]
    fn integer_inference_equals_the_float_reference() {
        // The float reference is the same network (every weight divided by its scale), computed
        // from the whole board at each position; the integer side is updated move by move along
        // the playout. The only difference allowed is the final rounding toward zero (< 1 cp)
        // plus the float sum's own error.
        for seed in [1, 2, 3] {
            let net = Network::random(seed);
            let float = FloatNetwork::from_quantised(&net);
            let mut rng = Rng::new(seed + 100);
            let (mut clipped_high, mut checked) = (0, 0);
            for _ in 0..20 {
                let mut pos = Position::startpos();
                let mut stack = AccumulatorStack::new(&net, &pos);
                for _ in 0..120 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make_move(moves.as_slice()[rng.below(moves.len())]);
                    stack.push_move(&pos);
                    let int = stack.evaluate(&pos);
                    let reference = float.evaluate(&pos);
                    assert!(
                        (f64::from(int) - f64::from(reference)).abs() < 1.01,
                        "seed {seed}, {}: integer {int}, float {reference}",
                        pos.to_fen()
                    );
                    checked += 1;
                    let h = float.hidden(&pos, pos.side_to_move());
                    clipped_high += h.iter().filter(|&&x| x == 1.0).count();
                }
            }
            assert!(checked > 1000);
            // The random weights do reach the upper clip (and the lower one, surely).
            assert!(clipped_high > 0, "seed {seed}");
        }
    }

    #[test]
    fn quantisation_rounds_each_weight_to_nearest() {
        let mut rng = Rng::new(5);
        let mut draw = |r: f64| ((rng.unit() * 2.0 - 1.0) * r) as f32;
        let mut f = FloatNetwork::zeros();
        for w in f.ft_weights.iter_mut().flatten() {
            *w = draw(0.15);
        }
        for b in &mut f.ft_bias {
            *b = draw(0.5);
        }
        for w in f.out_weights.iter_mut().flatten() {
            *w = draw(0.5);
        }
        f.out_bias = draw(0.3);
        let back = FloatNetwork::from_quantised(&f.quantise().unwrap());
        let step_a = 0.5 / QA as f32 + 1e-6;
        let step_b = 0.5 / QB as f32 + 1e-6;
        for (a, b) in f
            .ft_weights
            .iter()
            .flatten()
            .zip(back.ft_weights.iter().flatten())
        {
            assert!((a - b).abs() <= step_a, "{a} {b}");
        }
        for (a, b) in f.ft_bias.iter().zip(&back.ft_bias) {
            assert!((a - b).abs() <= step_a, "{a} {b}");
        }
        for (a, b) in f
            .out_weights
            .iter()
            .flatten()
            .zip(back.out_weights.iter().flatten())
        {
            assert!((a - b).abs() <= step_b, "{a} {b}");
        }
        assert!((f.out_bias - back.out_bias).abs() <= 0.5 / (QA * QB) as f32 + 1e-6);
        // And the quantised network scores like the float one, within what rounding the weights
        // can move: per hidden unit at most (pieces + 1) half-steps of QA, per output weight half
        // a step of QB; plus the final rounding.
        let net = f.quantise().unwrap();
        for pos in playout_positions(6, 10, 100) {
            let int = net.evaluate(&Accumulator::refresh(&net, &pos), pos.side_to_move());
            let stm = pos.side_to_move();
            let dh = (pos.occupied().count() as f32 + 1.0) * 0.5 / QA as f32;
            let mut bound = 0.5 / (QA * QB) as f32;
            for (weights, view) in f.out_weights.iter().zip([stm, stm.flip()]) {
                let h = f.hidden(&pos, view);
                for (h, v) in h.iter().zip(weights) {
                    bound += v.abs() * dh + 0.5 / QB as f32 * (h + dh);
                }
            }
            let bound = bound * SCALE as f32 + 1.0;
            let diff = (int as f32 - f.evaluate(&pos)).abs();
            assert!(diff <= bound, "{}: {diff} > {bound}", pos.to_fen());
        }
    }

    #[test]
    fn quantisation_refuses_weights_out_of_range() {
        let mut f = FloatNetwork::zeros();
        f.ft_weights[3][4] = 200.0; // 51 000 at QA
        assert!(matches!(f.quantise(), Err(NetworkError::TooLarge(_))));
        f.ft_weights[3][4] = f32::NAN;
        assert!(matches!(f.quantise(), Err(NetworkError::TooLarge(_))));
        f.ft_weights[3][4] = 0.5;
        f.out_bias = 1e6;
        assert!(matches!(f.quantise(), Err(NetworkError::TooLarge(_))));
        f.out_bias = 0.25;
        let net = f.quantise().unwrap();
        assert_eq!(net.ft_weights[3][4], 128); // 127.5 rounds away from zero
        assert_eq!(net.out_bias, 4080);
    }

    #[test]
    fn incremental_accumulators_equal_a_refresh_at_every_ply() {
        // Long random walks: moves, take-backs and null moves, checked against a full refresh
        // after every step.
        let net = Network::random(11);
        let mut rng = Rng::new(12);
        let mut pos = Position::startpos();
        let mut stack = AccumulatorStack::new(&net, &pos);
        let mut line: Vec<bool> = Vec::new(); // true: a null move
        let (mut captures, mut nulls, mut takebacks) = (0, 0, 0);
        for step in 0..6000 {
            let moves = legal_moves(&pos);
            let r = rng.below(10);
            if (r < 3 || moves.is_empty() || line.len() > 200) && !line.is_empty() {
                if line.pop() == Some(true) {
                    pos.unmake_null();
                } else {
                    pos.unmake_move();
                }
                stack.pop();
                takebacks += 1;
            } else if r == 3 && !pos.in_check() && line.last() != Some(&true) {
                pos.make_null();
                stack.push_null();
                line.push(true);
                nulls += 1;
            } else if !moves.is_empty() {
                let m = moves.as_slice()[rng.below(moves.len())];
                captures += usize::from(pos.is_capture(m));
                pos.make_move(m);
                stack.push_move(&pos);
                line.push(false);
            }
            // Asked for at some steps only: the others leave their sums put off, so lines of
            // several uncomputed plies (and take-backs through them) are checked too.
            if rng.below(3) == 0 {
                assert_eq!(
                    *stack.current(),
                    Accumulator::refresh(&net, &pos),
                    "step {step}: {}",
                    pos.to_fen()
                );
            }
        }
        assert!(captures > 100 && nulls > 100 && takebacks > 1000);
    }

    #[test]
    fn colour_flipped_positions_evaluate_alike() {
        let net = Network::random(21);
        let float = FloatNetwork::from_quantised(&net);
        let mut distinct = std::collections::HashSet::new();
        for pos in playout_positions(22, 20, 80) {
            let flipped = pos.color_flipped();
            let a = Accumulator::refresh(&net, &pos);
            let b = Accumulator::refresh(&net, &flipped);
            // Each side's view of one is the other side's view of the other.
            assert_eq!(a.by_color[0], b.by_color[1]);
            assert_eq!(a.by_color[1], b.by_color[0]);
            let v = net.evaluate(&a, pos.side_to_move());
            assert_eq!(
                v,
                net.evaluate(&b, flipped.side_to_move()),
                "{}",
                pos.to_fen()
            );
            // The float sums add the pieces in another order: alike up to rounding.
            assert!((float.evaluate(&pos) - float.evaluate(&flipped)).abs() < 1e-3);
            distinct.insert(v);
        }
        assert!(distinct.len() > 100, "the network tells positions apart");
    }

    #[test]
    fn a_stack_refreshes_where_it_cannot_update() {
        let net = Network::random(31);
        let mut pos = Position::startpos();
        let mut stack = AccumulatorStack::new(&net, &pos);
        // Pushing without a move played (the caller's mistake) still gives the right sums.
        pos.make_null();
        stack.push_move(&pos);
        assert_eq!(*stack.current(), Accumulator::refresh(&net, &pos));
        // `refresh` recomputes the current entry.
        let start = stack.current().clone();
        pos.unmake_null();
        stack.pop();
        let m = legal_moves(&pos).as_slice()[0];
        pos.make_move(m);
        stack.push_null(); // wrong on purpose: the sums are still the parent's
        assert_eq!(*stack.current(), start);
        stack.refresh(&pos);
        assert_eq!(*stack.current(), Accumulator::refresh(&net, &pos));
        // Deeper lines than the stack was made for grow it.
        for _ in 0..300 {
            stack.push_null();
        }
        assert_eq!(*stack.current(), Accumulator::refresh(&net, &pos));
    }
}
