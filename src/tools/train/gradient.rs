//! The network's output for a training position and the gradient of its loss, over the inputs
//! switched on only.
//!
//! For a position with inputs `F` (side to move's view) and `other_view(F)` (the other side's):
//!
//! ```text
//! a_v = ft_bias + Σ_{f in F_v} ft_weights[f]      (the accumulators, v = side to move, other)
//! h_v = clamp(a_v, 0, 1)
//! out = out_bias + w[0]·h_stm + w[1]·h_other       (FloatNetwork::output)
//! p   = sigmoid(out)
//! loss = (p - target)²
//! ```
//!
//! and backward, with `d = ∂loss/∂out = 2 (p - target) p (1 - p)`: `∂out_bias = d`,
//! `∂w[v] = d · h_v`, `∂a_v = d · w[v]` where `0 < a_v < 1` (0 where clipped),
//! `∂ft_bias = ∂a_stm + ∂a_other`, and `∂ft_weights[f] += ∂a_v` for each input `f` of view
//! `v`. Only the rows of the inputs switched on are written; `Gradient` remembers which, so
//! clearing it and summing it cost what the positions touched, not the whole table.

use super::data::sigmoid;
use crate::eval::nnue::features::other_view;
use crate::eval::nnue::features::INPUTS;
use crate::eval::nnue::float::FloatNetwork;
use crate::eval::nnue::HIDDEN;

/// The gradient of a sum of losses, in the network's shape, and that sum.
pub struct Gradient {
    /// ∂loss/∂weight for every weight; feature rows not in `rows` are zero.
    pub net: FloatNetwork,
    /// Whether each feature row may be non-zero.
    touched: Vec<bool>,
    /// The rows with `touched` set, in the order first touched.
    rows: Vec<u16>,
    /// The sum of the losses (not scaled).
    pub loss: f64,
}

impl Default for Gradient {
    fn default() -> Gradient {
        Gradient {
            net: FloatNetwork::zeros(),
            touched: vec![false; INPUTS],
            rows: Vec::new(),
            loss: 0.0,
        }
    }
}

impl Gradient {
    /// Back to zero.
    pub fn clear(&mut self) {
        for &r in &self.rows {
            self.net.ft_weights[usize::from(r)] = [0.0; HIDDEN];
            self.touched[usize::from(r)] = false;
        }
        self.rows.clear();
        self.net.ft_bias = [0.0; HIDDEN];
        self.net.out_weights = [[0.0; HIDDEN]; 2];
        self.net.out_bias = 0.0;
        self.loss = 0.0;
    }

    /// Whether feature row `r` may be non-zero.
    #[inline]
    pub fn touched(&self, r: usize) -> bool {
        self.touched[r]
    }

    /// Add `delta` to feature row `r`.
    #[inline(always)]
    fn add_row(&mut self, r: u16, delta: &[f32; HIDDEN]) {
        let i = usize::from(r);
        if !self.touched[i] {
            self.touched[i] = true;
            self.rows.push(r);
        }
        add(&mut self.net.ft_weights[i], delta);
    }
}

/// `acc += row`, element by element (vectorised).
#[inline(always)]
pub(super) fn add(acc: &mut [f32; HIDDEN], row: &[f32; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// `Σ a·b` in eight lanes summed at the end: the compiler vectorises the lanes, and the order
/// of the additions is fixed, so the result repeats exactly.
#[inline(always)]
fn dot(a: &[f32; HIDDEN], b: &[f32; HIDDEN]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (a, b) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for l in 0..8 {
            lanes[l] += a[l] * b[l];
        }
    }
    lanes.iter().sum()
}

/// The accumulators of a position whose side to move's inputs are `features`: `[0]` the side
/// to move's view, `[1]` the other side's.
#[inline(always)]
fn accumulate(net: &FloatNetwork, features: &[u16]) -> [[f32; HIDDEN]; 2] {
    let mut acc = [net.ft_bias; 2];
    for &f in features {
        add(&mut acc[0], &net.ft_weights[usize::from(f)]);
        add(&mut acc[1], &net.ft_weights[usize::from(other_view(f))]);
    }
    acc
}

/// The output given the accumulators, and the activations.
#[inline(always)]
fn output_of(net: &FloatNetwork, acc: &[[f32; HIDDEN]; 2]) -> (f32, [[f32; HIDDEN]; 2]) {
    let h = acc.map(|a| a.map(|x| x.clamp(0.0, 1.0)));
    let out = net.out_bias + dot(&h[0], &net.out_weights[0]) + dot(&h[1], &net.out_weights[1]);
    (out, h)
}

/// The network's output for a position (what `FloatNetwork::output` gives for the board).
pub fn output(net: &FloatNetwork, features: &[u16]) -> f32 {
    output_of(net, &accumulate(net, features)).0
}

/// The loss of one position, `(sigmoid(out) - target)²`.
pub fn loss(net: &FloatNetwork, features: &[u16], target: f32) -> f32 {
    let e = sigmoid(output(net, features)) - target;
    e * e
}

/// Add `scale` times the gradient of one position's loss to `grad`, and the loss (unscaled) to
/// `grad.loss`.
pub fn backprop(
    net: &FloatNetwork,
    features: &[u16],
    target: f32,
    scale: f32,
    grad: &mut Gradient,
) {
    let acc = accumulate(net, features);
    let (out, h) = output_of(net, &acc);
    let p = sigmoid(out);
    let e = p - target;
    grad.loss += f64::from(e * e);
    let d = 2.0 * e * p * (1.0 - p) * scale;
    grad.net.out_bias += d;
    let mut da = [[0.0f32; HIDDEN]; 2];
    for v in 0..2 {
        let w = &net.out_weights[v];
        for (j, g) in grad.net.out_weights[v].iter_mut().enumerate() {
            *g += d * h[v][j];
            let a = acc[v][j];
            da[v][j] = if a > 0.0 && a < 1.0 { d * w[j] } else { 0.0 };
        }
    }
    for (j, b) in grad.net.ft_bias.iter_mut().enumerate() {
        *b += da[0][j] + da[1][j];
    }
    for &f in features {
        grad.add_row(f, &da[0]);
        grad.add_row(other_view(f), &da[1]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::Dataset;
    use super::super::weights;
    use super::*;
    use crate::board::playout::random_playout;
    use crate::board::position::Position;
    use crate::board::rng::Rng;
    use crate::tools::datagen::record::{Sample, Wdl};

    /// Positions of a few random playouts, with made-up scores and results.
    fn positions(seed: u64, n: usize) -> (Vec<Position>, Dataset) {
        let mut rng = Rng::new(seed);
        let (mut list, mut data) = (Vec::new(), Dataset::new());
        for pos in random_playout(&mut rng, n, 40) {
            let sample = Sample {
                pos: Position::from_fen(&pos.to_fen()).unwrap(),
                score: rng.below(1200) as i16 - 600,
                result: [Wdl::Loss, Wdl::Draw, Wdl::Win][rng.below(3)],
            };
            data.push(&sample).unwrap();
            list.push(sample.pos);
        }
        (list, data)
    }

    #[test]
    fn the_output_is_the_float_networks() {
        let net = weights::initial(3);
        let (list, data) = positions(4, 300);
        for (i, pos) in list.iter().enumerate() {
            let want = net.output(pos);
            let got = output(&net, data.features(i));
            assert!((want - got).abs() < 1e-4, "{}: {want} {got}", pos.to_fen());
        }
    }

    /// The loss of `list` (targets from `data`) under `net`, computed by the float reference
    /// from the boards.
    fn total_loss(net: &FloatNetwork, list: &[Position], data: &Dataset) -> f64 {
        list.iter()
            .enumerate()
            .map(|(i, pos)| {
                let e = f64::from(sigmoid(net.output(pos))) - f64::from(data.target(i, 0.3));
                e * e
            })
            .sum()
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        // A network with larger output weights than at the start, so every part of the
        // gradient is well above the float noise.
        let mut net = weights::initial(5);
        let mut rng = Rng::new(6);
        for w in net.out_weights.iter_mut().flatten() {
            *w = (rng.unit() as f32 - 0.5) * 0.8;
        }
        let (list, data) = positions(7, 6);
        let mut grad = Gradient::default();
        for i in 0..data.len() {
            backprop(&net, data.features(i), data.target(i, 0.3), 1.0, &mut grad);
        }
        assert!((grad.loss - total_loss(&net, &list, &data)).abs() < 1e-5);
        // The hidden units no position has within `margin` of a clip edge: their gradient is
        // smooth over the finite difference's step.
        let h = 1e-2f32;
        let margin = 2.5 * h;
        let smooth: Vec<usize> = (0..HIDDEN)
            .filter(|&j| {
                (0..data.len()).all(|i| {
                    accumulate(&net, data.features(i))
                        .iter()
                        .all(|a| a[j].abs() > margin && (a[j] - 1.0).abs() > margin)
                })
            })
            .collect();
        assert!(smooth.len() > 20, "{} smooth units", smooth.len());
        let check = |name: &str, analytic: f32, set: &dyn Fn(&mut FloatNetwork, f32)| {
            let (mut plus, mut minus) = (net.clone(), net.clone());
            set(&mut plus, h);
            set(&mut minus, -h);
            let numeric = (total_loss(&plus, &list, &data) - total_loss(&minus, &list, &data))
                / (2.0 * f64::from(h));
            let analytic = f64::from(analytic);
            assert!(
                (numeric - analytic).abs() <= 1e-2 * numeric.abs().max(analytic.abs()) + 1e-4,
                "{name}: numeric {numeric}, analytic {analytic}"
            );
            usize::from(analytic.abs() > 1e-3)
        };
        let mut large = check("out_bias", grad.net.out_bias, &|n, d| n.out_bias += d);
        for &j in &smooth {
            for v in 0..2 {
                large += check("out weight", grad.net.out_weights[v][j], &|n, d| {
                    n.out_weights[v][j] += d
                });
            }
            large += check("ft bias", grad.net.ft_bias[j], &|n, d| n.ft_bias[j] += d);
            // Rows of both views, and one no position switches on (gradient zero: a king
            // never stands on a0).
            for f in [data.features(0)[0], other_view(data.features(1)[3]), 0] {
                let f = usize::from(f);
                large += check("ft weight", grad.net.ft_weights[f][j], &|n, d| {
                    n.ft_weights[f][j] += d
                });
            }
        }
        // Most checks compared gradients far from zero.
        assert!(large > 3 * smooth.len(), "{large} of {}", 6 * smooth.len());
    }

    #[test]
    fn clearing_leaves_a_zero_gradient() {
        let net = weights::initial(8);
        let (_, data) = positions(9, 20);
        let mut grad = Gradient::default();
        for i in 0..data.len() {
            backprop(&net, data.features(i), data.target(i, 0.5), 0.1, &mut grad);
        }
        assert!(grad.rows.len() > 32 && grad.loss > 0.0);
        grad.clear();
        let zero = Gradient::default();
        assert!(grad.net.ft_weights == zero.net.ft_weights);
        assert!(
            grad.net.ft_bias == zero.net.ft_bias && grad.net.out_weights == zero.net.out_weights
        );
        assert!(grad.touched.iter().all(|&t| !t) && grad.loss == 0.0);
    }
}
