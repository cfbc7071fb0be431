//! The training positions in memory: per position, the inputs its side to move's view switches
//! on (u16 indices, at most 32), its search score and its game's result.
//!
//! The other side's view is not stored: it switches on the same pieces seen from the other
//! bottom, `features::other_view(i)` for each input `i` of the side to move's view (own and
//! opponent's swapped, ranks mirrored). A position takes about 2 bytes per piece plus 7, so 10 M
//! positions of 26 pieces take about 600 MB.
//!
//! Loading checks every record fully (fields and a legal position) and refuses a file that is
//! empty, truncated or holds a bad record: nothing is skipped. Which positions are held out for
//! validation depends only on the position (board and side to move) through a hash, so every
//! copy of a position lands on the same side of the split, and runs with other seeds or files
//! in another order validate on the same positions.

use crate::board::rng::splitmix64;
use crate::eval::nnue::features::{index, MAX_ACTIVE};
use crate::tools::datagen::files::Records;
use crate::tools::datagen::record::{self, RECORD_SIZE};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

/// Centipawns per unit of the network's output: the target's sigmoid reads a score in the
/// units the engine's network gives (`nnue::SCALE`).
const SCALE: f32 = crate::eval::nnue::SCALE as f32;

/// Positions as feature lists (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// The side to move's inputs of every position, one list after another.
    features: Vec<u16>,
    /// Where each position's list starts in `features`, and one more entry for the end.
    starts: Vec<u32>,
    /// Search scores, centipawns from the side to move's view.
    scores: Vec<i16>,
    /// Game results from the side to move's view: 0 loss, 1 draw, 2 win.
    results: Vec<u8>,
}

impl Dataset {
    /// No positions.
    pub fn new() -> Dataset {
        Dataset {
            starts: vec![0],
            ..Dataset::default()
        }
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// The inputs position `i`'s side to move's view switches on.
    #[inline]
    pub fn features(&self, i: usize) -> &[u16] {
        &self.features[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The training target of position `i`: `wdl · result + (1 - wdl) · sigmoid(score / 400)`,
    /// the side to move's expected result with the result counting 0, ½ or 1.
    #[inline]
    pub fn target(&self, i: usize, wdl: f32) -> f32 {
        let result = f32::from(self.results[i]) / 2.0;
        let score = sigmoid(f32::from(self.scores[i]) / SCALE);
        wdl * result + (1.0 - wdl) * score
    }

    /// Add a decoded record.
    pub fn push(&mut self, sample: &record::Sample) -> Result<()> {
        let pos = &sample.pos;
        let stm = pos.side_to_move();
        let before = self.features.len();
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_on(sq) {
                self.features.push(index(stm, piece, sq) as u16);
            }
        }
        debug_assert!(self.features.len() - before <= MAX_ACTIVE);
        self.starts.push(Self::start(self.features.len())?);
        self.scores.push(sample.score);
        self.results.push(sample.result as u8);
        Ok(())
    }

    /// Add the positions of `other`.
    pub fn append(&mut self, other: &Dataset) -> Result<()> {
        let base = self.features.len();
        self.features.extend_from_slice(&other.features);
        for &end in &other.starts[1..] {
            self.starts.push(Self::start(base + end as usize)?);
        }
        self.scores.extend_from_slice(&other.scores);
        self.results.extend_from_slice(&other.results);
        Ok(())
    }

    /// An offset into `features` as stored.
    fn start(offset: usize) -> Result<u32> {
        u32::try_from(offset)
            .ok()
            .context("too many positions for one run (over 4 G pieces in all)")
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Everything loaded from the record files.
pub struct Loaded {
    /// The positions trained on.
    pub train: Dataset,
    /// The positions held out (`validation_fraction` of them, chosen by position).
    pub validation: Dataset,
    /// A hash of every record in the order read: a resumed run checks it is given the same
    /// data.
    pub fingerprint: u64,
}

/// Records read at a time; their decoding is shared among the threads.
const BLOCK: usize = 1 << 16;

/// Load record files, holding out about `validation_fraction` of the positions, decoding on
/// `threads` threads (the result does not depend on their number).
pub fn load(paths: &[PathBuf], validation_fraction: f64, threads: usize) -> Result<Loaded> {
    if paths.is_empty() {
        bail!("no record files given");
    }
    let mut loaded = Loaded {
        train: Dataset::new(),
        validation: Dataset::new(),
        fingerprint: 0,
    };
    for path in paths {
        let mut records = Records::open(path)?;
        if records.is_empty() {
            bail!("'{}' holds no records", path.display());
        }
        let mut first = 0;
        loop {
            let mut block = Vec::with_capacity(BLOCK);
            while block.len() < BLOCK {
                match records.next_record()? {
                    Some(r) => block.push(r),
                    None => break,
                }
            }
            if block.is_empty() {
                break;
            }
            for r in &block {
                loaded.fingerprint = hash_words(loaded.fingerprint, r);
            }
            let part_len = block.len().div_ceil(threads.max(1));
            let parts: Vec<Result<[Dataset; 2]>> = std::thread::scope(|s| {
                let handles: Vec<_> = block
                    .chunks(part_len)
                    .enumerate()
                    .map(|(k, part)| {
                        let first = first + (k * part_len) as u64;
                        s.spawn(move || decode_part(part, first, path, validation_fraction))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            });
            // In record order, so the first bad record is the one reported.
            for part in parts {
                let [train, validation] = part?;
                loaded.train.append(&train)?;
                loaded.validation.append(&validation)?;
            }
            first += block.len() as u64;
        }
    }
    Ok(loaded)
}

/// Decode `records`, the first of them record `first` of `path`: the training positions and
/// the held-out ones.
fn decode_part(
    records: &[[u8; RECORD_SIZE]],
    first: u64,
    path: &Path,
    validation_fraction: f64,
) -> Result<[Dataset; 2]> {
    let mut sets = [Dataset::new(), Dataset::new()];
    for (n, r) in (first..).zip(records) {
        let sample = record::decode(r).map_err(|e| {
            anyhow::anyhow!(
                "'{}': record {n} (byte {}): {e}",
                path.display(),
                n * RECORD_SIZE as u64
            )
        })?;
        let held_out = unit(hash_words(0, &record::position_bytes(r))) < validation_fraction;
        sets[usize::from(held_out)].push(&sample)?;
    }
    Ok(sets)
}

/// `seed` with `bytes` mixed in, 8 at a time (the last word zero-padded).
fn hash_words(seed: u64, bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(seed, |h, chunk| {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        splitmix64(h ^ u64::from_le_bytes(word)).1
    })
}

/// A hash as a number in [0, 1).
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::position::Position;
    use crate::tools::datagen::record::{Sample, Wdl};

    #[test]
    fn loading_is_the_same_on_any_thread_count_and_names_a_bad_record() {
        use crate::board::playout::random_playout;
        use crate::board::rng::Rng;
        let dir = std::env::temp_dir().join(format!("chuhan-train-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut bytes = Vec::new();
        for (i, pos) in random_playout(&mut Rng::new(1), 400, 50).iter().enumerate() {
            bytes.extend_from_slice(&record::encode(pos, i as i16, Wdl::Draw));
        }
        let path = dir.join("a.bin");
        std::fs::write(&path, &bytes).unwrap();
        let paths = [path.clone(), path.clone()];
        let one = load(&paths, 0.2, 1).unwrap();
        assert_eq!(one.train.len() + one.validation.len(), 800);
        assert!(
            (50..270).contains(&one.validation.len()),
            "{}",
            one.validation.len()
        );
        for threads in [2, 3, 7] {
            let other = load(&paths, 0.2, threads).unwrap();
            assert_eq!(one.train, other.train);
            assert_eq!(one.validation, other.validation);
            assert_eq!(one.fingerprint, other.fingerprint);
        }
        // An illegal position (the first piece made a red king, beside the real one) in the
        // third thread's part: reported with its number in the file.
        bytes[32 * 301 + 12] &= 0xF0;
        std::fs::write(&path, &bytes).unwrap();
        let err = load(&[path], 0.2, 3).err().unwrap().to_string();
        assert!(
            err.contains("record 301 (byte 9632): not a legal position"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn positions_keep_their_inputs_score_and_result() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 b").unwrap();
        let mut d = Dataset::new();
        d.push(&Sample {
            pos: pos.clone(),
            score: -400,
            result: Wdl::Loss,
        })
        .unwrap();
        d.push(&Sample {
            pos: Position::startpos(),
            score: 0,
            result: Wdl::Win,
        })
        .unwrap();
        assert_eq!(d.len(), 2);
        // Black to move: its own king on d0 of its view, Red's king and rook on e9 and e8.
        let mut f = d.features(0).to_vec();
        f.sort_unstable();
        assert_eq!(f, [3, 7 * 90 + 9 * 9 + 4, (7 + 4) * 90 + 8 * 9 + 4]);
        assert_eq!(d.features(1).len(), 32);
        // Score -400 (one unit): sigmoid(-1) = 0.2689; a loss counts 0.
        assert!((d.target(0, 0.0) - 0.268_941_4).abs() < 1e-6);
        assert_eq!(d.target(0, 1.0), 0.0);
        assert!((d.target(0, 0.25) - 0.75 * 0.268_941_4).abs() < 1e-6);
        assert_eq!(d.target(1, 1.0), 1.0);
        assert_eq!(d.target(1, 0.0), 0.5);
        // Appended, the positions keep their lists, after those there.
        let mut e = Dataset::new();
        e.append(&d).unwrap();
        e.append(&d).unwrap();
        assert_eq!(e.len(), 4);
        assert_eq!(e.features(2), d.features(0));
        assert_eq!(e.features(3), d.features(1));
        assert_eq!(e.target(2, 0.3), d.target(0, 0.3));
    }
}
