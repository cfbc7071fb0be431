//! Record files: reading them with their size and fields checked, writing them whole or not at
//! all, and the tools over them (`count`, `shuffle`, `dedup`, `merge`).
//!
//! A file whose size is not a multiple of the record size, or holding a record with a bad
//! field, is refused with its name and the record's number; `count` also checks that every
//! record is a legal position. Outputs are written to `OUT.partial` and renamed to `OUT` when
//! complete; an existing `OUT` or `OUT.partial` is never overwritten.

use super::record::{self, RECORD_SIZE};
use crate::board::rng::{splitmix64, Rng};
use anyhow::{bail, Context, Result};
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Records a shuffle holds in memory at once (256 MiB); larger files go through buckets.
const SHUFFLE_IN_MEMORY: u64 = 8 << 20;

/// A record file being read, its size checked when opened.
pub struct Records {
    reader: BufReader<File>,
    path: PathBuf,
    len: u64,
    read: u64,
}

impl Records {
    /// Open `path`: it must be readable and a whole number of records.
    pub fn open(path: &Path) -> Result<Records> {
        let file = File::open(path).with_context(|| format!("cannot open '{}'", path.display()))?;
        let size = file
            .metadata()
            .with_context(|| format!("cannot read '{}'", path.display()))?
            .len();
        if size % RECORD_SIZE as u64 != 0 {
            bail!(
                "'{}': {size} bytes is not a whole number of {RECORD_SIZE}-byte records \
                 (a truncated or foreign file?)",
                path.display()
            );
        }
        Ok(Records {
            reader: BufReader::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            len: size / RECORD_SIZE as u64,
            read: 0,
        })
    }

    /// Records in the file.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file holds no record.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The next record, its fields checked; `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<[u8; RECORD_SIZE]>> {
        if self.read == self.len {
            return Ok(None);
        }
        let mut r = [0u8; RECORD_SIZE];
        self.reader.read_exact(&mut r).with_context(|| {
            format!(
                "'{}': cannot read record {}",
                self.path.display(),
                self.read
            )
        })?;
        record::check_fields(&r).map_err(|e| self.bad(self.read, e))?;
        self.read += 1;
        Ok(Some(r))
    }

    /// The error for record `index` (from 0) of the file.
    fn bad(&self, index: u64, e: record::RecordError) -> anyhow::Error {
        anyhow::anyhow!(
            "'{}': record {index} (byte {}): {e}",
            self.path.display(),
            index * RECORD_SIZE as u64
        )
    }
}

/// An output file written to `PATH.partial`, renamed to `PATH` by [`Output::finish`]. Dropped
/// unfinished (an error), the partial file is removed unless [`Output::keep_unfinished`] said
/// to keep it.
pub struct Output {
    file: BufWriter<File>,
    partial: PathBuf,
    path: PathBuf,
    keep: bool,
}

/// `PATH.partial`.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}

impl Output {
    /// Create `PATH.partial`; refused when `PATH` or `PATH.partial` exists.
    pub fn create(path: &Path) -> Result<Output> {
        let partial = partial_path(path);
        if path.exists() {
            bail!("'{}' exists; not overwriting it", path.display());
        }
        if partial.exists() {
            bail!(
                "'{}' exists (left by an interrupted run?): rename it to keep its records, \
                 or remove it",
                partial.display()
            );
        }
        let file = File::create(&partial)
            .with_context(|| format!("cannot create '{}'", partial.display()))?;
        Ok(Output {
            file: BufWriter::with_capacity(1 << 16, file),
            partial,
            path: path.to_path_buf(),
            keep: false,
        })
    }

    /// Keep the partial file if the output is not finished (what it holds is worth keeping).
    pub fn keep_unfinished(&mut self) {
        self.keep = true;
    }

    /// The unbuffered file, for writers that write whole games at once.
    pub fn unbuffered(&mut self) -> Result<&mut File> {
        self.file.flush()?;
        Ok(self.file.get_mut())
    }

    /// Write records.
    pub fn write(&mut self, bytes: &[u8]) -> Result<()> {
        self.file
            .write_all(bytes)
            .with_context(|| format!("cannot write '{}'", self.partial.display()))
    }

    /// Flush, sync and rename to the final name.
    pub fn finish(mut self) -> Result<()> {
        let name = self.partial.display().to_string();
        self.file
            .flush()
            .with_context(|| format!("cannot write '{name}'"))?;
        self.file
            .get_ref()
            .sync_all()
            .with_context(|| format!("cannot write '{name}'"))?;
        std::fs::rename(&self.partial, &self.path)
            .with_context(|| format!("cannot rename '{name}' to '{}'", self.path.display()))?;
        self.keep = true;
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}

/// What `count` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Records.
    pub positions: u64,
    /// Results from the side to move's view: losses, draws, wins.
    pub wdl: [u64; 3],
    /// Positions with Red to move.
    pub red_to_move: u64,
}

/// Count a file's records, checking each one fully (a legal position, good fields).
pub fn count(path: &Path) -> Result<Counts> {
    let mut input = Records::open(path)?;
    let mut c = Counts::default();
    while let Some(r) = input.next_record()? {
        let s = record::decode(&r).map_err(|e| input.bad(c.positions, e))?;
        c.positions += 1;
        c.wdl[s.result as usize] += 1;
        if s.pos.side_to_move() == crate::board::types::Color::Red {
            c.red_to_move += 1;
        }
    }
    Ok(c)
}

/// Concatenate `inputs` into `output`, every input checked before anything is written.
pub fn merge(output: &Path, inputs: &[PathBuf]) -> Result<u64> {
    if inputs.is_empty() {
        bail!("merge needs at least one input file");
    }
    let mut opened: Vec<Records> = inputs
        .iter()
        .map(|p| Records::open(p))
        .collect::<Result<_>>()?;
    let mut out = Output::create(output)?;
    let mut n = 0;
    for input in &mut opened {
        while let Some(r) = input.next_record()? {
            out.write(&r)?;
            n += 1;
        }
    }
    out.finish()?;
    Ok(n)
}

/// A 128-bit fingerprint of a record's position (board and side to move); two positions
/// share one with odds about n² / 2¹²⁹ over n positions.
fn fingerprint(r: &[u8; RECORD_SIZE]) -> u128 {
    let key = record::position_bytes(r);
    let mut padded = [0u8; 32];
    padded[..key.len()].copy_from_slice(&key);
    let (mut a, mut b) = (0x5EED_u64, 0xD00D_u64);
    for word in padded.chunks_exact(8) {
        let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        a = splitmix64(a ^ w).1;
        b = splitmix64(b.rotate_left(29) ^ w).1;
    }
    (u128::from(a) << 64) | u128::from(b)
}

/// Copy `input` to `output` keeping the first record of each position (board and side to
/// move). Returns the records kept and dropped.
pub fn dedup(input: &Path, output: &Path) -> Result<(u64, u64)> {
    let mut input = Records::open(input)?;
    let mut out = Output::create(output)?;
    let mut seen: HashSet<u128> = HashSet::new();
    let (mut kept, mut dropped) = (0, 0);
    while let Some(r) = input.next_record()? {
        if seen.insert(fingerprint(&r)) {
            out.write(&r)?;
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    out.finish()?;
    Ok((kept, dropped))
}

/// Copy `input` to `output` with every position mirrored left-right (file a ↔ file i), score
/// and result kept: the rules and so the values are the same in the mirror, which doubles the
/// positions a network trains on. Returns the records written; a bad record stops the copy
/// with its number.
pub fn mirror(input: &Path, output: &Path) -> Result<u64> {
    let mut records = Records::open(input)?;
    let mut out = Output::create(output)?;
    let mut n = 0u64;
    while let Some(r) = records.next_record()? {
        let sample = record::decode(&r).map_err(|e| {
            anyhow::anyhow!(
                "'{}': record {n} (byte {}): {e}",
                input.display(),
                n * RECORD_SIZE as u64
            )
        })?;
        out.write(&record::encode(
            &sample.pos.mirrored(),
            sample.score,
            sample.result,
        ))?;
        n += 1;
    }
    out.finish()?;
    Ok(n)
}

/// Write `input`'s records to `output` in a random order, the same for the same seed.
pub fn shuffle(input: &Path, output: &Path, seed: u64) -> Result<u64> {
    shuffle_with(input, output, seed, SHUFFLE_IN_MEMORY)
}

/// Temporary bucket files, removed when dropped.
struct Buckets(Vec<PathBuf>);

impl Drop for Buckets {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The shuffle, holding at most about `in_memory` records at once: a file that does not fit
/// is dealt into buckets (temporary files beside the output), each record to a bucket drawn
/// at random; each bucket is then shuffled in memory and written in turn. Dealing at random
/// and shuffling each bucket gives every order the same chance.
fn shuffle_with(input: &Path, output: &Path, seed: u64, in_memory: u64) -> Result<u64> {
    let mut input = Records::open(input)?;
    let mut out = Output::create(output)?;
    let mut rng = Rng::new(seed);
    let n = input.len();
    let count = n.div_ceil(in_memory.max(1)).max(1) as usize;
    let mut records: Vec<[u8; RECORD_SIZE]> = Vec::new();
    if count == 1 {
        while let Some(r) = input.next_record()? {
            records.push(r);
        }
        rng.shuffle(&mut records);
        out.write(&records.concat())?;
        out.finish()?;
        return Ok(n);
    }
    let buckets = Buckets(
        (0..count)
            .map(|j| {
                let mut p = partial_path(output).into_os_string();
                p.push(format!(".bucket{j}"));
                PathBuf::from(p)
            })
            .collect(),
    );
    let mut writers: Vec<BufWriter<File>> = buckets
        .0
        .iter()
        .map(|p| {
            File::create(p)
                .map(|f| BufWriter::with_capacity(1 << 16, f))
                .with_context(|| format!("cannot create '{}'", p.display()))
        })
        .collect::<Result<_>>()?;
    while let Some(r) = input.next_record()? {
        writers[rng.below(count)].write_all(&r)?;
    }
    for w in &mut writers {
        w.flush()?;
    }
    drop(writers);
    for p in &buckets.0 {
        let mut bytes = Vec::new();
        File::open(p)
            .and_then(|mut f| f.read_to_end(&mut bytes))
            .with_context(|| format!("cannot read '{}'", p.display()))?;
        records.clear();
        records.extend(
            bytes
                .chunks_exact(RECORD_SIZE)
                .map(|c| <[u8; RECORD_SIZE]>::try_from(c).expect("whole records")),
        );
        rng.shuffle(&mut records);
        out.write(&records.concat())?;
    }
    out.finish()?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::playout::random_playout;
    use crate::tools::datagen::record::Wdl;

    /// A fresh scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("chuhan-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `n` records of the start position and a random playout (distinct positions), scores
    /// 0..n.
    fn records(n: usize, seed: u64) -> Vec<[u8; RECORD_SIZE]> {
        let mut seen = std::collections::HashSet::new();
        let mut positions = vec![crate::board::position::Position::startpos()];
        positions.extend(random_playout(&mut Rng::new(seed), 4 * n, 100));
        let distinct = positions.iter().filter(|p| seen.insert(p.key())).take(n);
        let out: Vec<_> = (0..)
            .zip(distinct)
            .map(|(score, pos)| record::encode(pos, score, Wdl::Draw))
            .collect();
        assert_eq!(out.len(), n);
        out
    }

    fn write(path: &Path, records: &[[u8; RECORD_SIZE]]) {
        std::fs::write(path, records.concat()).unwrap();
    }

    fn read(path: &Path) -> Vec<[u8; RECORD_SIZE]> {
        std::fs::read(path)
            .unwrap()
            .chunks(RECORD_SIZE)
            .map(|c| c.try_into().unwrap())
            .collect()
    }

    #[test]
    fn mirror_flips_every_position_left_right_and_twice_gives_the_file_back() {
        let dir = scratch("mirror");
        let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
        let original = records(300, 11);
        write(&a, &original);
        assert_eq!(mirror(&a, &b).unwrap(), 300);
        let mirrored = read(&b);
        let mut changed = 0;
        for (r, m) in original.iter().zip(&mirrored) {
            let (r, m) = (record::decode(r).unwrap(), record::decode(m).unwrap());
            assert_eq!(m.pos.to_fen(), r.pos.mirrored().to_fen());
            assert_eq!((m.score, m.result), (r.score, r.result));
            changed += usize::from(m.pos.to_fen() != r.pos.to_fen());
        }
        assert!(changed > 250, "{changed}");
        assert_eq!(mirror(&b, &c).unwrap(), 300);
        assert_eq!(read(&c), original);
        // A damaged record is named, and no output is left.
        let mut bad = original.clone();
        bad[7][30] = 7; // the result byte: no such result
        write(&a, &bad);
        let err = mirror(&a, &dir.join("d")).unwrap_err().to_string();
        assert!(err.contains("record 7"), "{err}");
        assert!(!dir.join("d").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn merge_concatenates_and_count_counts() {
        let dir = scratch("merge");
        let (a, b) = (records(30, 1), records(20, 2));
        write(&dir.join("a"), &a);
        write(&dir.join("b"), &b);
        let n = merge(&dir.join("ab"), &[dir.join("a"), dir.join("b")]).unwrap();
        assert_eq!(n, 50);
        assert_eq!(read(&dir.join("ab")), [a.clone(), b].concat());
        assert!(!partial_path(&dir.join("ab")).exists());
        let c = count(&dir.join("ab")).unwrap();
        assert_eq!((c.positions, c.wdl), (50, [0, 50, 0]));
        assert_eq!(c.red_to_move, 25);
        // The output is never overwritten.
        let err = merge(&dir.join("ab"), &[dir.join("a")]).unwrap_err();
        assert!(err.to_string().contains("exists"), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn shuffle_permutes_the_same_way_for_a_seed() {
        let dir = scratch("shuffle");
        let input = records(100, 3);
        write(&dir.join("in"), &input);
        for (name, in_memory) in [("one", SHUFFLE_IN_MEMORY), ("buckets", 7)] {
            let out = dir.join(name);
            assert_eq!(
                shuffle_with(&dir.join("in"), &out, 5, in_memory).unwrap(),
                100
            );
            let shuffled = read(&out);
            assert_ne!(shuffled, input);
            let (mut a, mut b) = (shuffled.clone(), input.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{name}: a permutation");
            let again = dir.join(format!("{name}-again"));
            shuffle_with(&dir.join("in"), &again, 5, in_memory).unwrap();
            assert_eq!(read(&again), shuffled, "{name}: same seed, same order");
            let other = dir.join(format!("{name}-other"));
            shuffle_with(&dir.join("in"), &other, 6, in_memory).unwrap();
            assert_ne!(
                read(&other),
                shuffled,
                "{name}: another seed, another order"
            );
        }
        // The buckets are gone.
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 7);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn dedup_keeps_the_first_record_of_each_position() {
        let dir = scratch("dedup");
        let a = records(40, 4);
        let mut again = a[5];
        record::set_result(&mut again, Wdl::Win);
        // The start position with Black to move: the same board, another position.
        let mut other_side = a[0];
        other_side[31] = 1;
        assert!(record::decode(&other_side).is_ok());
        let mut input = a.clone();
        input.extend([a[3], again, other_side, a[0]]);
        write(&dir.join("in"), &input);
        let (kept, dropped) = dedup(&dir.join("in"), &dir.join("out")).unwrap();
        assert_eq!((kept, dropped), (41, 3));
        assert_eq!(read(&dir.join("out")), [a, vec![other_side]].concat());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn bad_files_are_refused_with_their_name() {
        let dir = scratch("bad");
        let good = records(3, 5);
        write(&dir.join("good"), &good);
        let mut bytes = good.concat();
        bytes.pop();
        std::fs::write(dir.join("short"), &bytes).unwrap();
        let mut corrupt = good.clone();
        corrupt[2][30] = 7;
        write(&dir.join("corrupt"), &corrupt);
        let mut illegal = good.clone();
        illegal[1][12] = 0x30; // a second red king
        write(&dir.join("illegal"), &illegal);

        let short = dir.join("short");
        for err in [
            count(&short).unwrap_err(),
            merge(&dir.join("m1"), &[dir.join("good"), short.clone()]).unwrap_err(),
            dedup(&short, &dir.join("d1")).unwrap_err(),
            shuffle(&short, &dir.join("s1"), 1).unwrap_err(),
        ] {
            let text = format!("{err:#}");
            assert!(
                text.contains("short") && text.contains("95 bytes"),
                "{text}"
            );
        }
        // Nothing is written from a refused input.
        assert!(!dir.join("m1").exists() && !partial_path(&dir.join("m1")).exists());
        let text = format!("{:#}", count(&dir.join("corrupt")).unwrap_err());
        assert!(
            text.contains("record 2") && text.contains("result byte 7"),
            "{text}"
        );
        assert!(dedup(&dir.join("corrupt"), &dir.join("d2")).is_err());
        // A refused output leaves no partial file behind.
        assert!(!dir.join("d2").exists() && !partial_path(&dir.join("d2")).exists());
        let text = format!("{:#}", count(&dir.join("illegal")).unwrap_err());
        assert!(
            text.contains("record 1") && text.contains("legal"),
            "{text}"
        );
        let text = format!("{:#}", count(&dir.join("missing")).unwrap_err());
        assert!(text.contains("missing"), "{text}");
        assert!(merge(&dir.join("m3"), &[]).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }
}
