//! The network's integer weights, the file that holds them, and its two layers computed from
//! scratch: a position's accumulators (`Accumulator::refresh`) and the output layer
//! (`Network::evaluate`). Kept move by move, the accumulators are `accumulator`'s.
//!
//! File format (version 2; version 1 was the same layout 256 wide), all numbers little-endian,
//! nothing after the last array:
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANNN` (ASCII) |
//! | 8 | 4 | format version, u32 = 2 |
//! | 12 | 4 | input count, u32 = 1260 |
//! | 16 | 4 | hidden size, u32 = 512 |
//! | 20 | 4 | QA, u32 = 255 |
//! | 24 | 4 | QB, u32 = 64 |
//! | 28 | 4 | SCALE, u32 = 400 |
//! | 32 | 1260 × 512 × 2 | feature weights, i16, input-major: input `f`'s weight to hidden unit `j` at index `f * 512 + j` |
//! | 1 290 272 | 512 × 2 | feature biases, i16 |
//! | 1 291 296 | 1024 × 2 | output weights, i16: 512 for the side to move's accumulator, then 512 for the other side's |
//! | 1 293 344 | 4 | output bias, i32 |
//!
//! 1 293 348 bytes in all (`FILE_LEN`). Loading refuses a file with another magic, version or
//! architecture number, a truncated or overlong one, and weights the integer inference could
//! overflow with (see `Network::from_parts`). The weights are the float network's
//! (`float::FloatNetwork`) times their scales, rounded to nearest: QA for the feature weights
//! and biases, QB for the output weights, QA · QB for the output bias.

use super::features::{index, INPUTS, MAX_ACTIVE};
use super::{architecture, EVAL_LIMIT, HIDDEN, QA, QB, SCALE};
use crate::board::position::Position;
use crate::board::rng::Rng;
use crate::board::types::{Color, Value};
use std::fmt;

/// The first bytes of every network file.
pub const MAGIC: [u8; 8] = *b"CHUHANNN";
/// The format version this engine reads and writes.
pub const FORMAT_VERSION: u32 = 2;
/// Bytes before the weights: the magic and six u32s.
pub const HEADER_LEN: usize = MAGIC.len() + 6 * 4;
/// Length of a network file.
pub const FILE_LEN: usize = HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// The architecture numbers of the header after the version, in file order, with their names
/// for error messages.
const HEADER_FIELDS: [(&str, u32); 5] = [
    ("input count", INPUTS as u32),
    ("hidden size", HIDDEN as u32),
    ("QA", QA as u32),
    ("QB", QB as u32),
    ("SCALE", SCALE as u32),
];

/// A quantised network, ready for the engine. Its weights are checked when it is built, so
/// the integer inference cannot overflow (`from_parts`).
pub struct Network {
    /// Feature weights (scale QA), one row of `HIDDEN` per input.
    pub(super) ft_weights: Box<[[i16; HIDDEN]]>,
    /// Feature biases (scale QA).
    pub(super) ft_bias: [i16; HIDDEN],
    /// Output weights (scale QB): `[0]` for the side to move's accumulator, `[1]` for the other.
    pub(super) out_weights: [[i16; HIDDEN]; 2],
    /// Output bias (scale QA · QB).
    pub(super) out_bias: i32,
}

/// Why bytes are not a network this engine can use. Each says what is wrong with "the file",
/// so callers write `network file 'x' {error}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// Does not start with `CHUHANNN`.
    NotANetwork,
    /// Another format version.
    Version(u32),
    /// Another architecture: which header number, what the file says, what the engine has.
    Architecture {
        /// The header field's name.
        field: &'static str,
        /// The file's value.
        found: u32,
        /// The engine's value.
        expected: u32,
    },
    /// Shorter than a network (`len` bytes).
    Truncated(usize),
    /// Longer than a network: something follows the weights.
    Overlong,
    /// A weight the integer inference could overflow with, saying which.
    TooLarge(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::NotANetwork => {
                write!(
                    f,
                    "is not a Chuhan network (it does not begin with CHUHANNN)"
                )
            }
            NetworkError::Version(v) => write!(
                f,
                "is network format version {v}; this engine reads version {FORMAT_VERSION}"
            ),
            NetworkError::Architecture {
                field,
                found,
                expected,
            } => write!(
                f,
                "is another architecture ({field} {found}; this engine's network has {expected})"
            ),
            NetworkError::Truncated(0) => write!(f, "is empty"),
            NetworkError::Truncated(len) => {
                write!(f, "is truncated ({len} bytes; a network has {FILE_LEN})")
            }
            NetworkError::Overlong => {
                write!(f, "is too long (more than a network's {FILE_LEN} bytes)")
            }
            NetworkError::TooLarge(why) => write!(f, "has weights too large: {why}"),
        }
    }
}

impl std::error::Error for NetworkError {}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({})", architecture())
    }
}

impl Network {
    /// A network from its arrays (`ft_weights` has one row per input), refused where the
    /// integer inference could overflow:
    /// - a hidden unit's bias plus its 32 largest feature weights in absolute value must fit
    ///   an i16 (a position switches on at most 32 inputs per view, so no accumulator can
    ///   overflow);
    /// - the output bias plus QA times the sum of the absolute output weights must fit an i32.
    pub fn from_parts(
        ft_weights: Box<[[i16; HIDDEN]]>,
        ft_bias: [i16; HIDDEN],
        out_weights: [[i16; HIDDEN]; 2],
        out_bias: i32,
    ) -> Result<Network, NetworkError> {
        if ft_weights.len() != INPUTS {
            return Err(NetworkError::Architecture {
                field: "input count",
                found: ft_weights.len() as u32,
                expected: INPUTS as u32,
            });
        }
        let mut column = vec![0i64; INPUTS];
        for j in 0..HIDDEN {
            for (c, row) in column.iter_mut().zip(ft_weights.iter()) {
                *c = -i64::from(row[j]).abs();
            }
            // The MAX_ACTIVE largest magnitudes (most negative values) come first.
            column.select_nth_unstable(MAX_ACTIVE - 1);
            let worst = i64::from(ft_bias[j]).abs() - column[..MAX_ACTIVE].iter().sum::<i64>();
            if worst > i64::from(i16::MAX) {
                return Err(NetworkError::TooLarge(format!(
                    "hidden unit {j} can reach {worst}, beyond a 16-bit accumulator"
                )));
            }
        }
        let out_sum: i64 = out_weights
            .iter()
            .flatten()
            .map(|&w| i64::from(w).abs())
            .sum();
        let worst = i64::from(out_bias).abs() + i64::from(QA) * out_sum;
        if worst > i64::from(i32::MAX) {
            return Err(NetworkError::TooLarge(format!(
                "the output can reach {worst}, beyond 32 bits"
            )));
        }
        Ok(Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// A network of random weights drawn from `seed`, in ranges that clip some hidden units at
    /// 0 and some at QA. It plays nonsense: for tests and for measuring the inference's speed.
    pub fn random(seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut draw = |r: i32| rng.below(2 * r as usize + 1) as i32 - r;
        let mut ft_weights = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        for w in ft_weights.iter_mut().flatten() {
            *w = draw(40) as i16;
        }
        let mut ft_bias = [0i16; HIDDEN];
        for b in &mut ft_bias {
            *b = draw(120) as i16;
        }
        let mut out_weights = [[0i16; HIDDEN]; 2];
        for w in out_weights.iter_mut().flatten() {
            *w = draw(16) as i16;
        }
        let out_bias = draw(4000);
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias)
            .expect("random weights are far inside the limits")
    }

    /// The score for `stm` (the side to move) of a position whose accumulators are `acc`:
    /// `(out_bias + Σ crelu(acc[stm]) · w[0] + Σ crelu(acc[other]) · w[1]) · SCALE / (QA · QB)`,
    /// rounded toward zero, where `crelu(x) = clamp(x, 0, QA)`; then clamped to `±EVAL_LIMIT`.
    pub fn evaluate(&self, acc: &Accumulator, stm: Color) -> Value {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: `evaluate_avx2` requires only that the CPU has AVX2, checked just above.
            return unsafe { self.evaluate_avx2(acc, stm) };
        }
        self.evaluate_any_cpu(acc, stm)
    }

    /// [`Self::evaluate`] compiled for AVX2 (twice the vector width of baseline x86-64).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, acc: &Accumulator, stm: Color) -> Value {
        self.evaluate_any_cpu(acc, stm)
    }

    #[inline(always)]
    fn evaluate_any_cpu(&self, acc: &Accumulator, stm: Color) -> Value {
        let ours = &acc.by_color[stm.index()];
        let theirs = &acc.by_color[stm.flip().index()];
        // No overflow: `from_parts` bounds the whole sum by i32::MAX.
        let sum = self.out_bias
            + crelu_dot(ours, &self.out_weights[0])
            + crelu_dot(theirs, &self.out_weights[1]);
        let cp = i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as Value
    }

    /// The file's bytes (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        for (_, value) in HEADER_FIELDS {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let arrays = self
            .ft_weights
            .iter()
            .flatten()
            .chain(&self.ft_bias)
            .chain(self.out_weights.iter().flatten());
        for w in arrays {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        debug_assert_eq!(out.len(), FILE_LEN);
        out
    }

    /// The network in a file's bytes, or why they are none this engine can use. A reader needs
    /// at most `FILE_LEN + 1` bytes of a file to tell (the extra byte shows an overlong one).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(if MAGIC.starts_with(bytes) {
                NetworkError::Truncated(bytes.len())
            } else {
                NetworkError::NotANetwork
            });
        }
        if bytes.len() < HEADER_LEN {
            return Err(NetworkError::Truncated(bytes.len()));
        }
        let mut words = bytes[MAGIC.len()..HEADER_LEN]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let version = words.next().unwrap_or(0);
        if version != FORMAT_VERSION {
            return Err(NetworkError::Version(version));
        }
        for ((field, expected), found) in HEADER_FIELDS.into_iter().zip(words) {
            if found != expected {
                return Err(NetworkError::Architecture {
                    field,
                    found,
                    expected,
                });
            }
        }
        if bytes.len() < FILE_LEN {
            return Err(NetworkError::Truncated(bytes.len()));
        }
        if bytes.len() > FILE_LEN {
            return Err(NetworkError::Overlong);
        }
        let mut i16s = bytes[HEADER_LEN..FILE_LEN - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut ft_weights = vec![[0i16; HIDDEN]; INPUTS].into_boxed_slice();
        let mut ft_bias = [0i16; HIDDEN];
        let mut out_weights = [[0i16; HIDDEN]; 2];
        let slots = ft_weights
            .iter_mut()
            .flatten()
            .chain(&mut ft_bias)
            .chain(out_weights.iter_mut().flatten());
        for (slot, w) in slots.zip(&mut i16s) {
            *slot = w;
        }
        let b = &bytes[FILE_LEN - 4..];
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        Network::from_parts(ft_weights, ft_bias, out_weights, out_bias)
    }
}

/// One position's accumulators, one per view.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Red's view (`[0]`) and Black's (`[1]`), indexed by `Color::index`.
    pub by_color: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The accumulators of `pos` computed from scratch.
    pub fn refresh(net: &Network, pos: &Position) -> Accumulator {
        let mut acc = Accumulator {
            by_color: [net.ft_bias; 2],
        };
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                for view in Color::ALL {
                    let row = &net.ft_weights[index(view, piece, sq)];
                    let sums = &mut acc.by_color[view.index()];
                    for (s, &w) in sums.iter_mut().zip(row) {
                        *s = s.wrapping_add(w);
                    }
                }
            }
        }
        acc
    }
}

/// `Σ clamp(a, 0, QA) · w`: the clipped ReLU and one half of the output layer. Plain loops
/// over fixed-size arrays, which the compiler vectorises.
#[inline(always)]
fn crelu_dot(acc: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_and_layout_are_as_documented() {
        assert_eq!(HEADER_LEN, 32);
        assert_eq!(FILE_LEN, 1_293_348);
        let net = Network::random(1);
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], b"CHUHANNN");
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        assert_eq!(
            [word(8), word(12), word(16), word(20), word(24), word(28)],
            [2, 1260, 512, 255, 64, 400]
        );
        let i16_at = |at: usize| i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap());
        // Input 7's weight to hidden unit 9, the last feature bias, the first output weight of
        // the other side's half, the output bias: at the offsets the table gives.
        assert_eq!(i16_at(32 + 2 * (7 * 512 + 9)), net.ft_weights[7][9]);
        assert_eq!(i16_at(1_290_272 + 2 * 511), net.ft_bias[511]);
        assert_eq!(i16_at(1_291_296 + 2 * 512), net.out_weights[1][0]);
        assert_eq!(
            i32::from_le_bytes(bytes[1_293_344..].try_into().unwrap()),
            net.out_bias
        );
    }

    #[test]
    fn every_cpu_gets_the_same_evaluation() {
        // The AVX2 build (where the CPU has it) and the baseline one run the same integer code,
        // so they must agree exactly; the built-in network's weights have realistic ranges.
        let net = super::super::built_in();
        let mut rng = crate::board::rng::Rng::new(3);
        for pos in crate::board::playout::random_playout(&mut rng, 400, 400) {
            let acc = Accumulator::refresh(net, &pos);
            for stm in Color::ALL {
                assert_eq!(net.evaluate(&acc, stm), net.evaluate_any_cpu(&acc, stm));
            }
        }
    }

    #[test]
    fn files_round_trip_bit_exactly() {
        for seed in [1, 2, 99] {
            let bytes = Network::random(seed).to_bytes();
            let again = Network::from_bytes(&bytes).unwrap().to_bytes();
            assert!(bytes == again, "seed {seed}");
        }
        assert!(Network::random(1).to_bytes() != Network::random(2).to_bytes());
    }

    #[test]
    fn bad_files_are_refused_with_their_reason() {
        let good = Network::random(3).to_bytes();
        let with = |at: usize, value: u32| {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&value.to_le_bytes());
            b
        };
        let mut wrong_magic = good.clone();
        wrong_magic[..8].copy_from_slice(b"CHUHANBK");
        let mut overlong = good.clone();
        overlong.push(0);
        let cases: Vec<(Vec<u8>, NetworkError)> = vec![
            (Vec::new(), NetworkError::Truncated(0)),
            (b"CHUH".to_vec(), NetworkError::Truncated(4)),
            (b"#!/bin/sh\necho hi\n".to_vec(), NetworkError::NotANetwork),
            (wrong_magic, NetworkError::NotANetwork),
            (good[..20].to_vec(), NetworkError::Truncated(20)),
            (with(8, 1), NetworkError::Version(1)),
            (
                with(12, 1260 * 2),
                NetworkError::Architecture {
                    field: "input count",
                    found: 2520,
                    expected: 1260,
                },
            ),
            (
                with(16, 256),
                NetworkError::Architecture {
                    field: "hidden size",
                    found: 256,
                    expected: 512,
                },
            ),
            (
                with(20, 127),
                NetworkError::Architecture {
                    field: "QA",
                    found: 127,
                    expected: 255,
                },
            ),
            (
                with(24, 128),
                NetworkError::Architecture {
                    field: "QB",
                    found: 128,
                    expected: 64,
                },
            ),
            (
                with(28, 600),
                NetworkError::Architecture {
                    field: "SCALE",
                    found: 600,
                    expected: 400,
                },
            ),
            (
                good[..FILE_LEN - 1].to_vec(),
                NetworkError::Truncated(FILE_LEN - 1),
            ),
            (
                good[..HEADER_LEN].to_vec(),
                NetworkError::Truncated(HEADER_LEN),
            ),
            (overlong, NetworkError::Overlong),
        ];
        for (bytes, want) in cases {
            assert_eq!(Network::from_bytes(&bytes).unwrap_err(), want, "{want}");
        }
        // Every reason reads as a sentence about the file.
        assert_eq!(NetworkError::Truncated(0).to_string(), "is empty");
        assert_eq!(
            NetworkError::Version(1).to_string(),
            "is network format version 1; this engine reads version 2"
        );
    }

    #[test]
    fn weights_that_could_overflow_are_refused() {
        let net = Network::random(4);
        let parts = |net: &Network| {
            (
                net.ft_weights.clone(),
                net.ft_bias,
                net.out_weights,
                net.out_bias,
            )
        };
        // 32 inputs of 1000 and a bias of 800 fit (32 800 > 32 767 does not).
        let (mut ft, mut bias, out, ob) = parts(&net);
        for row in ft.iter_mut().take(40) {
            row[5] = 1000;
        }
        bias[5] = 767;
        assert!(Network::from_parts(ft.clone(), bias, out, ob).is_ok());
        bias[5] = -768;
        let err = Network::from_parts(ft, bias, out, ob).unwrap_err();
        assert!(
            matches!(&err, NetworkError::TooLarge(why) if why.contains("hidden unit 5")),
            "{err}"
        );
        // The output sum: 1024 weights of 8 000 times QA fit 32 bits, of 8 500 they do not.
        let (ft, bias, _, ob) = parts(&net);
        assert!(Network::from_parts(ft.clone(), bias, [[8_000; HIDDEN]; 2], 0).is_ok());
        let err = Network::from_parts(ft, bias, [[8_500; HIDDEN]; 2], ob).unwrap_err();
        assert!(
            matches!(&err, NetworkError::TooLarge(why) if why.contains("output")),
            "{err}"
        );
        // The same through a file.
        let mut bytes = net.to_bytes();
        bytes[HEADER_LEN..HEADER_LEN + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        for f in 1..MAX_ACTIVE {
            let at = HEADER_LEN + 2 * f * HIDDEN;
            bytes[at..at + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        }
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(NetworkError::TooLarge(_))
        ));
    }
}
