//! The fit's model of the evaluation: linear in its numbers.
//!
//! The evaluation is a tapered sum of terms, each one number times a count (material, a
//! piece-square entry, a mobility point), times an ending's scale. So around a set of numbers
//! `v0`, `E(v) = E(v0) + Σ c_i (v_i − v0_i)`, exactly but for integer rounding and for which
//! side an ending's scale favours. The coefficients `c_i` of each position are measured once,
//! by moving each number by [`PROBE`], and the fit then descends the loss's gradient over
//! hundreds of numbers in the time one evaluation pass of each would take.

use super::{eval_red, Sample, LOSS_PARTS};
use crate::eval::{Params, Tables};

/// How far each number is moved to measure its coefficients: far enough that the evaluation's
/// rounding (under 2 points) is a small part of the change.
const PROBE: i32 = 1000;

/// Each position's evaluation for Red as a linear function of the numbers around `v0`.
pub struct LinearModel {
    /// The numbers the coefficients were measured around.
    v0: Vec<i32>,
    /// What the fit should predict for Red, per position (the samples' results).
    targets: Vec<f64>,
    /// `E(v0)` for Red, per position.
    base: Vec<f64>,
    /// The nonzero coefficients of position `s` are `terms[offsets[s]..offsets[s + 1]]`, as
    /// (number's index, coefficient).
    offsets: Vec<usize>,
    terms: Vec<(u32, f32)>,
}

impl LinearModel {
    /// Measure the coefficients of every number of `start` in every sample, on `threads`
    /// threads (the result does not depend on their count).
    pub fn measure(samples: &[Sample], start: &Params, threads: usize) -> LinearModel {
        let v0 = super::values(start);
        let base_tables = Tables::new(start.clone());
        let probes: Vec<Tables> = (0..v0.len())
            .map(|i| {
                let mut v = v0.clone();
                v[i] += PROBE;
                Tables::new(super::with_values(start, &v))
            })
            .collect();
        let rows = super::in_parts(samples.len(), threads, |range| {
            samples[range]
                .iter()
                .map(|s| {
                    let base = eval_red(&s.pos, &base_tables);
                    let terms: Vec<(u32, f32)> = probes
                        .iter()
                        .enumerate()
                        .filter_map(|(i, t)| {
                            let d = eval_red(&s.pos, t) - base;
                            (d != 0).then(|| (i as u32, d as f32 / PROBE as f32))
                        })
                        .collect();
                    (f64::from(base), terms)
                })
                .collect::<Vec<_>>()
        });
        let mut model = LinearModel {
            v0,
            targets: samples.iter().map(|s| s.result).collect(),
            base: Vec::with_capacity(rows.len()),
            offsets: vec![0],
            terms: Vec::new(),
        };
        for (base, terms) in rows.into_iter().flatten() {
            model.base.push(base);
            model.terms.extend(terms);
            model.offsets.push(model.terms.len());
        }
        model
    }

    /// Positions modelled.
    fn len(&self) -> usize {
        self.base.len()
    }

    /// The modelled evaluation of position `s` with the numbers `v`.
    fn eval(&self, s: usize, v: &[f64]) -> f64 {
        self.base[s]
            + self.terms[self.offsets[s]..self.offsets[s + 1]]
                .iter()
                .map(|&(i, c)| f64::from(c) * (v[i as usize] - f64::from(self.v0[i as usize])))
                .sum::<f64>()
    }

    /// The mean squared error of `sigmoid(K·E/400)` against the targets, and its gradient in the
    /// numbers, summed in fixed parts on threads (the same on every machine).
    fn loss_and_gradient(&self, v: &[f64], k: f64) -> (f64, Vec<f64>) {
        let slope = k * std::f64::consts::LN_10 / 400.0;
        let parts = super::in_parts(self.len(), LOSS_PARTS, |range| {
            let mut grad = vec![0.0; v.len()];
            let mut loss = 0.0;
            for s in range {
                let p = 1.0 / (1.0 + (-slope * self.eval(s, v)).exp());
                let r = p - self.targets[s];
                loss += r * r;
                let g = 2.0 * r * p * (1.0 - p) * slope;
                for &(i, c) in &self.terms[self.offsets[s]..self.offsets[s + 1]] {
                    grad[i as usize] += g * f64::from(c);
                }
            }
            (loss, grad)
        });
        let mut loss = 0.0;
        let mut grad = vec![0.0; v.len()];
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        let scale = 1.0 / self.len().max(1) as f64;
        (loss * scale, grad.iter().map(|g| g * scale).collect())
    }

    /// Adam on the modelled loss plus `prior · Σ ((v − v0) / spread)²` (see [`spread`]),
    /// `steps` full-batch steps from `v0`, the step size falling from 2 points to 0.1. Returns
    /// the numbers rounded, and logs the objective every few hundred steps. Deterministic.
    pub fn descend(&self, k: f64, steps: usize, prior: f64, log: &mut dyn FnMut(&str)) -> Vec<i32> {
        let spread = spread(&self.v0);
        let mut v: Vec<f64> = self.v0.iter().map(|&x| f64::from(x)).collect();
        let (mut m, mut second) = (vec![0.0; v.len()], vec![0.0; v.len()]);
        let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-12);
        for step in 1..=steps {
            let (loss, mut grad) = self.loss_and_gradient(&v, k);
            let mut penalty = 0.0;
            for i in 0..v.len() {
                let d = (v[i] - f64::from(self.v0[i])) / spread[i];
                penalty += d * d;
                grad[i] += prior * 2.0 * d / spread[i];
            }
            if step == 1 || step % 250 == 0 || step == steps {
                log(&format!(
                    "step {step}: objective {:.6} (loss {loss:.6})",
                    loss + prior * penalty
                ));
            }
            let rate = 0.1 + 1.9 * (1.0 - step as f64 / steps as f64);
            for i in 0..v.len() {
                m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
                second[i] = beta2 * second[i] + (1.0 - beta2) * grad[i] * grad[i];
                let m_hat = m[i] / (1.0 - beta1.powi(step as i32));
                let s_hat = second[i] / (1.0 - beta2.powi(step as i32));
                v[i] -= rate * m_hat / (s_hat.sqrt() + eps);
            }
        }
        v.iter().map(|x| x.round() as i32).collect()
    }
}

/// How far a number may move for the prior's unit cost: half its starting size, at least 10.
fn spread(v0: &[i32]) -> Vec<f64> {
    v0.iter()
        .map(|&x| (f64::from(x.abs()) / 2.0).max(10.0))
        .collect()
}
