//! Chuhan's own book file: sorted fixed-size records keyed by the position's Zobrist key,
//! looked up by binary search, from memory (the built-in book) or straight from a file, so a
//! large book is never loaded whole.
//!
//! Layout (all numbers little-endian):
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `CHUHANBK` |
//! | 8 | 4 | format version, 1 |
//! | 12 | 4 | record size, 16 |
//! | 16 | 8 | number of records |
//! | 24 | 8 | the start position's key under the keys the book was built with |
//! | 32 | 16 × n | records, sorted by key, then move |
//!
//! A record: the position's key (u64: `Position::key`, side to move included), the move (u16:
//! from-square + 128 × to-square, a square being rank × 9 + file, rank 0 Red's back rank), the
//! weight (u16, relative to the position's other moves; 0 = known but never played), the
//! searched score of the move for the side playing it (i16 centipawns, `i16::MIN` = unknown),
//! and the learning field (u16): what `chuhan book learn` learned of the move from played
//! games, the number of games in the high byte (saturating at 255) and their net result for the
//! side playing the move, wins minus losses, in the low byte (an i8, saturating at ±127); 0 in
//! a book that never learned. The choice reads only the weight (learning changes it too); the
//! field is there to be shown and added to.
//!
//! A line is stored once: of a position and its left-right mirror, only the one with the
//! smaller key, so readers look up both (`Book` does). A book built with other Zobrist keys
//! is refused, since none of its positions would ever be found.

use crate::board::position::Position;
use crate::board::types::Move;
use crate::engine::book::BookError;
use crate::engine::files::file_problem;
use parking_lot::Mutex;
use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The first eight bytes of every book file.
pub const MAGIC: &[u8; 8] = b"CHUHANBK";
/// The format version this code reads and writes.
pub const VERSION: u32 = 1;
/// Bytes in the header.
pub const HEADER_SIZE: u64 = 32;
/// Bytes in a record.
pub const RECORD_SIZE: u64 = 16;
/// The score of a record whose move was never searched.
pub const NO_SCORE: i16 = i16::MIN;

/// One stored move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Record {
    /// The position's key.
    pub key: u64,
    /// The move (not checked against the position: a key may collide).
    pub mv: Move,
    /// Weight among the position's moves.
    pub weight: u16,
    /// Searched score of the move for its side, or `NO_SCORE`.
    pub score: i16,
    /// What learning saw of the move: see `Record::learned` (0: nothing).
    pub learn: u16,
}

impl Record {
    /// The learning field read: games learned from, and their net result for the side
    /// playing the move (wins minus losses).
    pub fn learned(&self) -> (u32, i32) {
        let [games, net] = self.learn.to_be_bytes();
        (u32::from(games), i32::from(net as i8))
    }

    /// The learning field with `games` more games of net result `net` added, each part
    /// saturating at the edge of its byte.
    pub fn add_learned(&mut self, games: u32, net: i32) {
        let (old_games, old_net) = self.learned();
        let games = old_games.saturating_add(games).min(u32::from(u8::MAX)) as u8;
        let net = old_net.saturating_add(net).clamp(-127, 127) as i8;
        self.learn = u16::from_be_bytes([games, net as u8]);
    }

    fn to_bytes(self) -> [u8; RECORD_SIZE as usize] {
        let mut b = [0; RECORD_SIZE as usize];
        b[0..8].copy_from_slice(&self.key.to_le_bytes());
        b[8..10].copy_from_slice(&self.mv.raw().to_le_bytes());
        b[10..12].copy_from_slice(&self.weight.to_le_bytes());
        b[12..14].copy_from_slice(&self.score.to_le_bytes());
        b[14..16].copy_from_slice(&self.learn.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; RECORD_SIZE as usize]) -> Record {
        let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
        let mut key = [0; 8];
        key.copy_from_slice(&b[0..8]);
        Record {
            key: u64::from_le_bytes(key),
            mv: Move::from_raw(u16_at(8)),
            weight: u16_at(10),
            score: u16_at(12) as i16,
            learn: u16_at(14),
        }
    }
}

/// Where the records are read from.
enum Storage {
    Memory(Cow<'static, [u8]>),
    File(Mutex<File>),
}

/// An open book file.
pub struct BinaryBook {
    storage: Storage,
    records: u64,
}

impl std::fmt::Debug for BinaryBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BinaryBook({} records)", self.records)
    }
}

/// Whether `bytes` start like a book file of ours (any version).
pub fn has_magic(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// The number of records a header announces, after checking it against the file's length.
fn check_header(header: &[u8], len: u64) -> Result<u64, BookError> {
    let err = |why: String| Err(BookError(why));
    if !has_magic(header) {
        return err("not a Chuhan book (no CHUHANBK header)".into());
    }
    if len < HEADER_SIZE {
        return err(format!("truncated: {len} bytes, less than a header"));
    }
    let u32_at =
        |i: usize| u32::from_le_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
    let u64_at = |i: usize| {
        let mut b = [0; 8];
        b.copy_from_slice(&header[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let version = u32_at(8);
    if version != VERSION {
        return err(format!(
            "book format version {version}; this engine reads version {VERSION}"
        ));
    }
    if u64::from(u32_at(12)) != RECORD_SIZE {
        return err(format!(
            "record size {} (expected {RECORD_SIZE})",
            u32_at(12)
        ));
    }
    let records = u64_at(16);
    let expected = records
        .checked_mul(RECORD_SIZE)
        .and_then(|n| n.checked_add(HEADER_SIZE));
    if expected != Some(len) {
        return err(format!(
            "truncated or padded: the header announces {records} records, the file has {len} bytes"
        ));
    }
    if u64_at(24) != Position::startpos().key() {
        return err("built with other position keys (another engine version); rebuild it".into());
    }
    Ok(records)
}

impl BinaryBook {
    /// A book held in memory (the built-in one), checked like a file.
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<BinaryBook, BookError> {
        let bytes = bytes.into();
        let records = check_header(
            &bytes[..bytes.len().min(HEADER_SIZE as usize)],
            bytes.len() as u64,
        )?;
        let book = BinaryBook {
            storage: Storage::Memory(bytes),
            records,
        };
        book.check_order()?;
        Ok(book)
    }

    /// Open a book file; its records are read on demand.
    pub fn open(path: &Path) -> Result<BinaryBook, BookError> {
        let io = |e: std::io::Error| BookError(file_problem(&e));
        let mut file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let mut header = [0; HEADER_SIZE as usize];
        let got = file.read(&mut header).map_err(io)?;
        let records = check_header(&header[..got], len)?;
        let book = BinaryBook {
            storage: Storage::File(Mutex::new(file)),
            records,
        };
        book.check_order()?;
        Ok(book)
    }

    /// Records in the book.
    pub fn len(&self) -> u64 {
        self.records
    }

    /// Whether the book has no record.
    pub fn is_empty(&self) -> bool {
        self.records == 0
    }

    /// Record `i` (< len).
    fn record(&self, i: u64) -> Result<Record, BookError> {
        let offset = HEADER_SIZE + i * RECORD_SIZE;
        let mut b = [0; RECORD_SIZE as usize];
        match &self.storage {
            Storage::Memory(bytes) => {
                let at = offset as usize;
                b.copy_from_slice(&bytes[at..at + RECORD_SIZE as usize]);
            }
            Storage::File(file) => {
                let mut file = file.lock();
                file.seek(SeekFrom::Start(offset))
                    .and_then(|_| file.read_exact(&mut b))
                    .map_err(|e| BookError(file_problem(&e)))?;
            }
        }
        Ok(Record::from_bytes(&b))
    }

    /// A book whose records are out of order would silently miss positions: refuse it. Checks
    /// a sample of neighbours (all of them in a small book), so opening stays fast.
    fn check_order(&self) -> Result<(), BookError> {
        let step = (self.records / 4096).max(1);
        let mut i = 1;
        while i < self.records {
            if self.record(i - 1)? > self.record(i)? {
                return Err(BookError(format!("records not sorted (at record {i})")));
            }
            i += step;
        }
        Ok(())
    }

    /// The records of the position with `key`, in the order stored.
    pub fn probe(&self, key: u64) -> Result<Vec<Record>, BookError> {
        // The first record whose key is not below `key`.
        let (mut lo, mut hi) = (0, self.records);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.record(mid)?.key < key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let mut out = Vec::new();
        while lo < self.records {
            let r = self.record(lo)?;
            if r.key != key {
                break;
            }
            out.push(r);
            lo += 1;
        }
        Ok(out)
    }

    /// Every record, in order (for tools that inspect a book).
    pub fn records(&self) -> impl Iterator<Item = Result<Record, BookError>> + '_ {
        (0..self.records).map(|i| self.record(i))
    }
}

/// Write `records` as a book file (sorted here; the caller need not sort them).
pub fn write(out: &mut impl Write, records: &[Record]) -> std::io::Result<()> {
    let mut sorted = records.to_vec();
    sorted.sort();
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&(RECORD_SIZE as u32).to_le_bytes())?;
    out.write_all(&(sorted.len() as u64).to_le_bytes())?;
    out.write_all(&Position::startpos().key().to_le_bytes())?;
    for r in &sorted {
        out.write_all(&r.to_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    fn bytes_of(records: &[Record]) -> Vec<u8> {
        let mut out = Vec::new();
        write(&mut out, records).unwrap();
        out
    }

    fn sample() -> Vec<Record> {
        let start = Position::startpos();
        let mut records = Vec::new();
        for (i, &m) in legal_moves(&start).as_slice().iter().enumerate().take(5) {
            records.push(Record {
                key: start.key(),
                mv: m,
                weight: 10 * i as u16,
                score: -3 * i as i16,
                learn: 0,
            });
            let mut next = start.clone();
            next.make_move(m);
            records.push(Record {
                key: next.key(),
                mv: legal_moves(&next).as_slice()[0],
                weight: 1,
                score: NO_SCORE,
                learn: 7,
            });
        }
        records
    }

    #[test]
    fn records_round_trip_through_memory_and_file() {
        let records = sample();
        let bytes = bytes_of(&records);
        assert_eq!(
            bytes.len() as u64,
            HEADER_SIZE + RECORD_SIZE * records.len() as u64
        );
        let path = std::env::temp_dir().join(format!("chuhan-book-{}.bin", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let from_file = BinaryBook::open(&path).unwrap();
        let in_memory = BinaryBook::from_bytes(bytes).unwrap();
        let mut sorted = records.clone();
        sorted.sort();
        for book in [&from_file, &in_memory] {
            let all: Vec<Record> = book.records().map(Result::unwrap).collect();
            assert_eq!(all, sorted);
            for r in &records {
                let found = book.probe(r.key).unwrap();
                assert!(found.contains(r), "{r:?}");
                assert!(found.iter().all(|f| f.key == r.key));
            }
            let start = Position::startpos();
            assert_eq!(book.probe(start.key()).unwrap().len(), 5);
            assert!(book.probe(start.key() ^ 1).unwrap().is_empty());
            assert!(book.probe(0).unwrap().is_empty());
            assert!(book.probe(u64::MAX).unwrap().is_empty());
        }
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn broken_files_are_refused() {
        let good = bytes_of(&sample());
        let refuse = |bytes: Vec<u8>, why: &str| {
            let err = BinaryBook::from_bytes(bytes).unwrap_err();
            assert!(err.0.contains(why), "{err} lacks {why}");
        };
        refuse(good[..good.len() - 1].to_vec(), "truncated");
        refuse(good[..20].to_vec(), "truncated: 20 bytes");
        refuse(Vec::new(), "CHUHANBK");
        refuse(b"h2e2 h9g7\n".to_vec(), "CHUHANBK");
        let mut other_version = good.clone();
        other_version[8] = 2;
        refuse(other_version, "version 2");
        let mut other_keys = good.clone();
        other_keys[24] ^= 1;
        refuse(other_keys, "other position keys");
        let mut huge = good.clone();
        huge[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        refuse(huge, "truncated");
        // Two records swapped: out of order.
        let mut unsorted = good.clone();
        let (a, b) = (HEADER_SIZE as usize, (HEADER_SIZE + RECORD_SIZE) as usize);
        let first: Vec<u8> = unsorted[a..b].to_vec();
        unsorted.copy_within(b..b + RECORD_SIZE as usize, a);
        unsorted[b..b + RECORD_SIZE as usize].copy_from_slice(&first);
        refuse(unsorted, "not sorted");
        let missing = std::env::temp_dir().join("chuhan-no-such-book.bin");
        assert_eq!(BinaryBook::open(&missing).unwrap_err().0, "does not exist");
    }

    #[test]
    fn the_learning_field_counts_games_and_their_net_result() {
        let mut r = sample()[0];
        assert_eq!(r.learned(), (0, 0));
        r.add_learned(3, -2);
        assert_eq!(r.learned(), (3, -2));
        assert_eq!(r.learn, 0x03fe);
        r.add_learned(1, 1);
        assert_eq!(r.learned(), (4, -1));
        r.add_learned(1000, -1000);
        assert_eq!(r.learned(), (255, -127));
        r.add_learned(1, 300);
        assert_eq!(r.learned(), (255, 127));
    }

    #[test]
    fn an_empty_book_is_a_valid_book() {
        let book = BinaryBook::from_bytes(bytes_of(&[])).unwrap();
        assert!(book.is_empty());
        assert!(book.probe(Position::startpos().key()).unwrap().is_empty());
    }
}
