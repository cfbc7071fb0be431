//! The float checkpoint: everything a run needs to continue exactly where it stopped.
//!
//! File format (version 1), little-endian, nothing after the last array:
//!
//! | offset | size | what |
//! |---|---|---|
//! | 0 | 8 | magic `CHUHANTR` (ASCII) |
//! | 8 | 4 | format version, u32 = 1 |
//! | 12 | 4 | input count, u32 = 1260 |
//! | 16 | 4 | hidden size, u32 = 512 |
//! | 20 | 4 | epochs done, u32 |
//! | 24 | 8 | Adam steps taken, u64 |
//! | 32 | 8 | `--seed`, u64 |
//! | 40 | 8 | fingerprint of the training data (every record in order), u64 |
//! | 48 | 8 | records in the training data, u64 |
//! | 56 | 4 | `--batch`, u32 |
//! | 60 | 4 | `--lr-drop-epoch`, u32 |
//! | 64 | 4 | `--lr`, f32 |
//! | 68 | 4 | `--lr-gamma`, f32 |
//! | 72 | 4 | `--wdl`, f32 |
//! | 76 | 8 | `--val-fraction`, f64 |
//! | 84 | 3 × 2 586 628 | the weights, then Adam's first moments, then its second moments |
//!
//! Each of the three is a network in f32 in the order of the network file: feature weights
//! input-major (input `f`'s weight to hidden unit `j` at `f * 512 + j`), 512 feature biases, 1024
//! output weights (side to move's, then the other side's), the output bias; 646 657 floats.
//! The weights are in the float units of `nnue::float` (not quantised).

use super::adam::Adam;
use crate::eval::nnue::features::INPUTS;
use crate::eval::nnue::float::FloatNetwork;
use crate::eval::nnue::HIDDEN;
use crate::tools::datagen::files::Output;
use anyhow::{bail, Context, Result};
use std::path::Path;

/// The first bytes of every checkpoint.
pub const MAGIC: [u8; 8] = *b"CHUHANTR";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Bytes before the arrays.
pub const HEADER_LEN: usize = 84;
/// Floats in one network.
pub const FLOATS: usize = INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1;
/// Length of a checkpoint file.
pub const FILE_LEN: usize = HEADER_LEN + 3 * 4 * FLOATS;

/// The settings that decide a run's weights: a resumed run keeps them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recipe {
    /// Seed of the starting weights and of each epoch's order.
    pub seed: u64,
    /// Positions per step.
    pub batch: u32,
    /// Starting learning rate.
    pub lr: f32,
    /// The rate is multiplied by `lr_gamma` after every `lr_drop_epoch` epochs (0: never).
    pub lr_drop_epoch: u32,
    /// The rate's factor at each drop.
    pub lr_gamma: f32,
    /// Weight of the game result in the target (the rest is the score's).
    pub wdl: f32,
    /// Share of the positions held out for validation.
    pub validation_fraction: f64,
}

impl Recipe {
    /// The learning rate of epoch `epoch` (from 1): `lr · gamma^⌊(epoch - 1) / drop⌋`.
    pub fn lr_at(&self, epoch: u32) -> f32 {
        if self.lr_drop_epoch == 0 {
            return self.lr;
        }
        let drops = (epoch.max(1) - 1) / self.lr_drop_epoch;
        (f64::from(self.lr) * f64::from(self.lr_gamma).powi(drops.min(i32::MAX as u32) as i32))
            as f32
    }
}

/// Which data a run trains on: a resumed run must be given the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataId {
    /// Records in all the files.
    pub records: u64,
    /// The hash of every record in order.
    pub fingerprint: u64,
}

/// A run's state at the end of an epoch.
#[derive(Clone)]
pub struct Checkpoint {
    /// The settings of the run.
    pub recipe: Recipe,
    /// The data of the run.
    pub data: DataId,
    /// Epochs done.
    pub epochs: u32,
    /// The weights.
    pub net: FloatNetwork,
    /// The optimiser's state.
    pub adam: Adam,
}

/// The floats of a network in file order.
fn floats(net: &FloatNetwork) -> impl Iterator<Item = &f32> {
    net.ft_weights
        .iter()
        .flatten()
        .chain(&net.ft_bias)
        .chain(net.out_weights.iter().flatten())
        .chain(std::iter::once(&net.out_bias))
}

/// A network from its floats in file order (`FLOATS` of them).
fn network(bytes: &[u8]) -> FloatNetwork {
    let mut net = FloatNetwork::zeros();
    let mut values = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let slots = net
        .ft_weights
        .iter_mut()
        .flatten()
        .chain(&mut net.ft_bias)
        .chain(net.out_weights.iter_mut().flatten())
        .chain(std::iter::once(&mut net.out_bias));
    for (slot, v) in slots.zip(&mut values) {
        *slot = v;
    }
    net
}

impl Checkpoint {
    /// The file's bytes (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let r = &self.recipe;
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        for word in [VERSION, INPUTS as u32, HIDDEN as u32, self.epochs] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for word in [
            self.adam.steps,
            r.seed,
            self.data.fingerprint,
            self.data.records,
        ] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&r.batch.to_le_bytes());
        out.extend_from_slice(&r.lr_drop_epoch.to_le_bytes());
        for value in [r.lr, r.lr_gamma, r.wdl] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        out.extend_from_slice(&r.validation_fraction.to_le_bytes());
        debug_assert_eq!(out.len(), HEADER_LEN);
        for net in [&self.net, &self.adam.m, &self.adam.v] {
            for v in floats(net) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        debug_assert_eq!(out.len(), FILE_LEN);
        out
    }

    /// A checkpoint from a file's bytes, or why they are none.
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            bail!("is not a Chuhan training checkpoint (it does not begin with CHUHANTR)");
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8"));
        let f32_at = |at: usize| f32::from_le_bytes(bytes[at..at + 4].try_into().expect("4"));
        if bytes.len() < HEADER_LEN {
            bail!(
                "is truncated ({} bytes; a checkpoint has {FILE_LEN})",
                bytes.len()
            );
        }
        if u32_at(8) != VERSION {
            bail!(
                "is checkpoint format version {}; this trainer reads version {VERSION}",
                u32_at(8)
            );
        }
        if (u32_at(12), u32_at(16)) != (INPUTS as u32, HIDDEN as u32) {
            bail!(
                "is another architecture ({} inputs, {} hidden units; this trainer has \
                 {INPUTS} and {HIDDEN})",
                u32_at(12),
                u32_at(16)
            );
        }
        if bytes.len() != FILE_LEN {
            bail!(
                "is {} bytes; a checkpoint has {FILE_LEN} (truncated or damaged?)",
                bytes.len()
            );
        }
        let recipe = Recipe {
            seed: u64_at(32),
            batch: u32_at(56),
            lr_drop_epoch: u32_at(60),
            lr: f32_at(64),
            lr_gamma: f32_at(68),
            wdl: f32_at(72),
            validation_fraction: f64::from_le_bytes(bytes[76..84].try_into().expect("8")),
        };
        let net_len = 4 * FLOATS;
        let at = |k: usize| &bytes[HEADER_LEN + k * net_len..HEADER_LEN + (k + 1) * net_len];
        Ok(Checkpoint {
            recipe,
            data: DataId {
                fingerprint: u64_at(40),
                records: u64_at(48),
            },
            epochs: u32_at(20),
            net: network(at(0)),
            adam: Adam {
                m: network(at(1)),
                v: network(at(2)),
                steps: u64_at(24),
            },
        })
    }

    /// Read a checkpoint file.
    pub fn read(path: &Path) -> Result<Checkpoint> {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read '{}'", path.display()))?;
        Checkpoint::from_bytes(&bytes)
            .with_context(|| format!("checkpoint '{}'", path.display()))
            .map_err(|e| anyhow::anyhow!("{e:#}"))
    }

    /// Write a checkpoint file (through `PATH.partial`; an existing file is not overwritten).
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut out = Output::create(path)?;
        out.write(&self.to_bytes())?;
        out.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::super::weights;
    use super::*;

    fn sample() -> Checkpoint {
        let mut adam = Adam {
            m: weights::initial(2),
            v: weights::initial(3),
            steps: 12_345,
        };
        adam.v.out_bias = -0.25;
        Checkpoint {
            recipe: Recipe {
                seed: u64::MAX - 1,
                batch: 16_384,
                lr: 0.001,
                lr_drop_epoch: 8,
                lr_gamma: 0.3,
                wdl: 0.25,
                validation_fraction: 0.01,
            },
            data: DataId {
                records: 1_000_000,
                fingerprint: 0xDEAD_BEEF,
            },
            epochs: 7,
            net: weights::initial(1),
            adam,
        }
    }

    #[test]
    fn checkpoints_round_trip_bit_exactly() {
        let c = sample();
        let bytes = c.to_bytes();
        assert_eq!(bytes.len(), FILE_LEN);
        assert_eq!(FILE_LEN, 84 + 3 * 2_586_628);
        assert_eq!(&bytes[..8], b"CHUHANTR");
        // The output bias of the second moments is the file's last float.
        assert_eq!(bytes[FILE_LEN - 4..], (-0.25f32).to_le_bytes());
        // Input 5's weight to hidden unit 9 is at 84 + 4 · (5 · 512 + 9).
        let at = 84 + 4 * (5 * 512 + 9);
        assert_eq!(bytes[at..at + 4], c.net.ft_weights[5][9].to_le_bytes());
        let back = Checkpoint::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!((back.recipe, back.data, back.epochs), (c.recipe, c.data, 7));
        assert_eq!(back.adam.steps, 12_345);
    }

    #[test]
    fn bad_checkpoints_are_refused_with_their_reason() {
        let good = sample().to_bytes();
        let reason = |b: &[u8]| Checkpoint::from_bytes(b).err().unwrap().to_string();
        assert!(reason(b"").contains("not a Chuhan training checkpoint"));
        assert!(reason(&crate::eval::nnue::Network::random(1).to_bytes()).contains("not a"));
        assert!(reason(&good[..40]).contains("truncated"));
        assert!(reason(&good[..FILE_LEN - 1]).contains("truncated or damaged"));
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(reason(&v2).contains("version 2"));
        let mut wide = good.clone();
        wide[16..20].copy_from_slice(&256u32.to_le_bytes());
        assert!(reason(&wide).contains("another architecture"));
    }

    #[test]
    fn the_learning_rate_drops_every_n_epochs() {
        let mut r = sample().recipe;
        r.lr_drop_epoch = 3;
        r.lr_gamma = 0.5;
        let rates: Vec<f32> = (1..=7).map(|e| r.lr_at(e)).collect();
        assert_eq!(
            rates,
            [0.001, 0.001, 0.001, 0.0005, 0.0005, 0.0005, 0.00025]
        );
        r.lr_drop_epoch = 0;
        assert_eq!(r.lr_at(100), 0.001);
    }
}
