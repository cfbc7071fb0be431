//! Adam (Kingma and Ba, β1 0.9, β2 0.999, ε 1e-8), dense: every weight is updated at every
//! step, as in the paper, which a batch of thousands of positions makes cheap next to the
//! forward and backward passes (a step costs about what 20 positions do). After each update a
//! weight is clipped to its range (`weights`), so the network always quantises.
//!
//! The batch's gradient arrives in slices (`trainer::SLICES`); each feature row sums the slices
//! that touched it in slice order, so the sum, and the step, do not depend on how many threads
//! share the work. The threads split the feature rows.

use super::gradient::{add, Gradient};
use super::weights::{FT_LIMIT, OUT_BIAS_LIMIT, OUT_LIMIT};
use crate::eval::nnue::features::INPUTS;
use crate::eval::nnue::float::FloatNetwork;
use crate::eval::nnue::HIDDEN;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// The optimiser's state: the moving averages of the gradient and of its square, in the
/// network's shape, and the steps taken.
#[derive(Clone)]
pub struct Adam {
    /// First moments.
    pub m: FloatNetwork,
    /// Second moments.
    pub v: FloatNetwork,
    /// Steps taken (for the bias correction).
    pub steps: u64,
}

/// What one step's updates share: the learning rate and the bias corrections.
#[derive(Clone, Copy)]
struct Rates {
    lr: f32,
    /// `1 / (1 - β1^t)`.
    c1: f32,
    /// `1 / (1 - β2^t)`.
    c2: f32,
}

/// Update one weight from its gradient `g`, keeping it within ±`limit`.
#[inline(always)]
fn update(w: &mut f32, m: &mut f32, v: &mut f32, g: f32, r: Rates, limit: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    let step = r.lr * (*m * r.c1) / ((*v * r.c2).sqrt() + EPSILON);
    *w = (*w - step).clamp(-limit, limit);
}

/// Update a row of weights.
#[inline(always)]
fn update_row(
    w: &mut [f32; HIDDEN],
    m: &mut [f32; HIDDEN],
    v: &mut [f32; HIDDEN],
    g: &[f32; HIDDEN],
    r: Rates,
    limit: f32,
) {
    for j in 0..HIDDEN {
        update(&mut w[j], &mut m[j], &mut v[j], g[j], r, limit);
    }
}

impl Default for Adam {
    fn default() -> Adam {
        Adam {
            m: FloatNetwork::zeros(),
            v: FloatNetwork::zeros(),
            steps: 0,
        }
    }
}

impl Adam {
    /// One step of `net` down the sum of `grads`, at learning rate `lr`, on `threads` threads.
    pub fn step(&mut self, net: &mut FloatNetwork, grads: &[Gradient], lr: f32, threads: usize) {
        self.steps += 1;
        let t = self.steps.min(i32::MAX as u64) as i32;
        let r = Rates {
            lr,
            c1: (1.0 / (1.0 - f64::from(BETA1).powi(t))) as f32,
            c2: (1.0 / (1.0 - f64::from(BETA2).powi(t))) as f32,
        };
        let rows_per_thread = INPUTS.div_ceil(threads.max(1));
        let rows = net
            .ft_weights
            .chunks_mut(rows_per_thread)
            .zip(self.m.ft_weights.chunks_mut(rows_per_thread))
            .zip(self.v.ft_weights.chunks_mut(rows_per_thread));
        std::thread::scope(|s| {
            for (t, ((w, m), v)) in rows.enumerate() {
                s.spawn(move || {
                    for (k, ((w, m), v)) in w.iter_mut().zip(m).zip(v).enumerate() {
                        let row = t * rows_per_thread + k;
                        let mut g = [0.0; HIDDEN];
                        for grad in grads.iter().filter(|grad| grad.touched(row)) {
                            add(&mut g, &grad.net.ft_weights[row]);
                        }
                        update_row(w, m, v, &g, r, FT_LIMIT);
                    }
                });
            }
        });
        let mut g = [0.0; HIDDEN];
        for grad in grads {
            add(&mut g, &grad.net.ft_bias);
        }
        update_row(
            &mut net.ft_bias,
            &mut self.m.ft_bias,
            &mut self.v.ft_bias,
            &g,
            r,
            FT_LIMIT,
        );
        for side in 0..2 {
            let mut g = [0.0; HIDDEN];
            for grad in grads {
                add(&mut g, &grad.net.out_weights[side]);
            }
            update_row(
                &mut net.out_weights[side],
                &mut self.m.out_weights[side],
                &mut self.v.out_weights[side],
                &g,
                r,
                OUT_LIMIT,
            );
        }
        let g = grads.iter().map(|grad| grad.net.out_bias).sum();
        update(
            &mut net.out_bias,
            &mut self.m.out_bias,
            &mut self.v.out_bias,
            g,
            r,
            OUT_BIAS_LIMIT,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_step_moves_each_weight_by_the_learning_rate_against_its_gradient() {
        // Adam's first step is lr · sign(g) (up to ε), whatever the gradient's size.
        let mut net = FloatNetwork::zeros();
        let mut grads = vec![Gradient::default(), Gradient::default()];
        grads[0].net.out_bias = 0.5;
        grads[1].net.out_bias = 0.25;
        grads[1].net.out_weights[1][7] = -1e-3;
        grads[1].net.ft_bias[3] = 2.0;
        let mut adam = Adam::default();
        adam.step(&mut net, &grads, 0.01, 2);
        assert!((net.out_bias + 0.01).abs() < 1e-6);
        assert!((net.out_weights[1][7] - 0.01).abs() < 1e-6);
        assert!((net.ft_bias[3] + 0.01).abs() < 1e-6);
        assert_eq!(net.ft_bias[4], 0.0);
        assert!((adam.m.out_bias - 0.075).abs() < 1e-7 && adam.steps == 1);
    }

    #[test]
    fn weights_stay_within_their_limits() {
        let mut net = FloatNetwork::zeros();
        net.ft_bias[0] = FT_LIMIT;
        net.out_weights[0][0] = -OUT_LIMIT;
        let mut grads = vec![Gradient::default()];
        grads[0].net.ft_bias[0] = -1.0;
        grads[0].net.out_weights[0][0] = 1.0;
        let mut adam = Adam::default();
        adam.step(&mut net, &grads, 0.5, 1);
        assert_eq!(net.ft_bias[0], FT_LIMIT);
        assert_eq!(net.out_weights[0][0], -OUT_LIMIT);
    }
}
