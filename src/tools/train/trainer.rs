//! Training steps and validation over threads.
//!
//! A batch is cut into `SLICES` equal runs of positions, always the same cuts whatever the
//! thread count; each slice's gradient is summed in position order into a buffer of its own,
//! the threads taking whole slices, and Adam sums the slices in slice order. So a step gives
//! the same weights, to the bit, on any number of threads; so do the losses.

use super::adam::Adam;
use super::data::Dataset;
use super::gradient::{self, Gradient};
use crate::eval::nnue::float::FloatNetwork;
use std::ops::Range;

/// Slices of a batch, and the most threads a run can use.
pub const SLICES: usize = 32;

/// The positions of slice `k` of `len`.
fn slice(len: usize, k: usize) -> Range<usize> {
    k * len / SLICES..(k + 1) * len / SLICES
}

/// The weights, the optimiser and the gradient buffers of a run.
pub struct Trainer {
    /// The weights.
    pub net: FloatNetwork,
    /// The optimiser's state.
    pub adam: Adam,
    /// One gradient per slice.
    grads: Vec<Gradient>,
    /// Threads to use (1..=SLICES).
    threads: usize,
}

impl Trainer {
    /// A trainer continuing from `net` and `adam`, on `threads` threads (at most `SLICES`).
    pub fn new(net: FloatNetwork, adam: Adam, threads: usize) -> Trainer {
        Trainer {
            net,
            adam,
            grads: (0..SLICES).map(|_| Gradient::default()).collect(),
            threads: threads.clamp(1, SLICES),
        }
    }

    /// One step on the positions `batch` of `data` (the loss is their mean), at learning rate
    /// `lr`, with targets blending results by `wdl`. Returns the sum of their losses.
    pub fn step(&mut self, data: &Dataset, batch: &[u32], wdl: f32, lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        let scale = 1.0 / batch.len() as f32;
        let per_thread = SLICES.div_ceil(self.threads);
        let net = &self.net;
        std::thread::scope(|s| {
            for (t, group) in self.grads.chunks_mut(per_thread).enumerate() {
                s.spawn(move || {
                    for (k, grad) in group.iter_mut().enumerate() {
                        grad.clear();
                        for &i in &batch[slice(batch.len(), t * per_thread + k)] {
                            let i = i as usize;
                            let target = data.target(i, wdl);
                            gradient::backprop(net, data.features(i), target, scale, grad);
                        }
                    }
                });
            }
        });
        let loss = self.grads.iter().map(|g| g.loss).sum();
        self.adam.step(&mut self.net, &self.grads, lr, self.threads);
        loss
    }

    /// The mean loss of `net` over `data` (`None` when it is empty), on the trainer's threads.
    pub fn mean_loss(&self, data: &Dataset, wdl: f32) -> Option<f64> {
        if data.is_empty() {
            return None;
        }
        let mut sums = [0.0f64; SLICES];
        let per_thread = SLICES.div_ceil(self.threads);
        let net = &self.net;
        std::thread::scope(|s| {
            for (t, group) in sums.chunks_mut(per_thread).enumerate() {
                s.spawn(move || {
                    for (k, sum) in group.iter_mut().enumerate() {
                        for i in slice(data.len(), t * per_thread + k) {
                            let l = gradient::loss(net, data.features(i), data.target(i, wdl));
                            *sum += f64::from(l);
                        }
                    }
                });
            }
        });
        Some(sums.iter().sum::<f64>() / data.len() as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::super::weights;
    use super::*;
    use crate::board::playout::random_playout;
    use crate::board::position::Position;
    use crate::board::rng::Rng;
    use crate::board::types::PieceKind;
    use crate::tools::datagen::record::{Sample, Wdl};

    /// Positions of random playouts scored by material from the side to move's view (rook
    /// 900, horse and cannon 450, advisor and elephant 200, pawn 100 centipawns), the result
    /// following the score.
    pub(crate) fn material_data(seed: u64, n: usize) -> Dataset {
        let value = |k: PieceKind| match k {
            PieceKind::Rook => 900,
            PieceKind::Horse | PieceKind::Cannon => 450,
            PieceKind::Advisor | PieceKind::Elephant => 200,
            PieceKind::Pawn => 100,
            PieceKind::King => 0,
        };
        let mut data = Dataset::new();
        for pos in random_playout(&mut Rng::new(seed), n, 100) {
            let mut score = 0i32;
            for sq in pos.occupied() {
                if let Some(p) = pos.piece_on(sq) {
                    let v = value(p.kind());
                    score += if p.color() == pos.side_to_move() {
                        v
                    } else {
                        -v
                    };
                }
            }
            let result = match score {
                s if s > 150 => Wdl::Win,
                s if s < -150 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            let sample = Sample {
                pos: Position::from_fen(&pos.to_fen()).unwrap(),
                score: score as i16,
                result,
            };
            data.push(&sample).unwrap();
        }
        data
    }

    /// Train `epochs` passes over `data` in order, in batches of `batch`.
    fn train(data: &Dataset, threads: usize, epochs: usize, batch: usize) -> Trainer {
        let mut t = Trainer::new(weights::initial(1), Adam::default(), threads);
        let order: Vec<u32> = (0..data.len() as u32).collect();
        for _ in 0..epochs {
            for b in order.chunks(batch) {
                t.step(data, b, 0.3, 0.01);
            }
        }
        t
    }

    #[test]
    fn training_lowers_the_loss() {
        let data = material_data(2, 1500);
        let before = Trainer::new(weights::initial(1), Adam::default(), 2)
            .mean_loss(&data, 0.3)
            .unwrap();
        let after = train(&data, 2, 3, 100).mean_loss(&data, 0.3).unwrap();
        assert!(after < 0.5 * before, "{before} -> {after}");
    }

    #[test]
    fn steps_repeat_exactly_on_any_thread_count() {
        let data = material_data(3, 300);
        let one = train(&data, 1, 1, 128);
        for threads in [2, 3, 32] {
            let other = train(&data, threads, 1, 128);
            assert!(one.net.ft_weights == other.net.ft_weights, "{threads}");
            assert!(one.net.ft_bias == other.net.ft_bias);
            assert!(one.net.out_weights == other.net.out_weights);
            assert!(one.adam.v.ft_weights == other.adam.v.ft_weights);
            assert_eq!(one.net.out_bias, other.net.out_bias);
            assert_eq!(one.mean_loss(&data, 0.3), other.mean_loss(&data, 0.3));
        }
        assert!(one.net.ft_weights != weights::initial(1).ft_weights);
    }
}
