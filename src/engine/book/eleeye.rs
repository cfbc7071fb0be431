//! ElephantEye's opening book, `BOOK.DAT`: read it and look positions up in it.
//!
//! The format, as learnt from ElephantEye's public source (`xqbase/eleeye`: `eleeye/book.h`,
//! `eleeye/book.cpp`, `eleeye/pregen.cpp`, `eleeye/position.cpp`, `base/rc4prng.h`,
//! `BOOK/MAKEBOOK.CPP`) and checked against the `BOOK/BOOK.DAT` shipped there:
//!
//! - The file is a flat array of 8-byte records, little-endian (x86 structs): a `u32` position
//!   lock, a `u16` move, a `u16` weight. Records are sorted by lock (unsigned), so a position's
//!   moves are one run found by binary search. The weight is how good the move did in the games
//!   the book was made from (wins, draws and losses weighed and scaled), at least 1 as made;
//!   ElephantEye's book editor can set it to 0, and such a move is then never chosen.
//! - The lock is one of three 32-bit Zobrist values ElephantEye keeps per position. Its random
//!   numbers come from an RC4 stream keyed with four zero bytes; each 32-bit number is four
//!   consecutive bytes, the first the least significant. Triples (key, lock0, lock1) are drawn
//!   first for the side to move, then for each piece (Red king, advisor, elephant, horse, rook,
//!   cannon, pawn, then Black's in the same order: the order of our `Piece` index) on each of
//!   the 256 squares of ElephantEye's 16x16 board, off-board ones included. The book stores the
//!   third value, lock1: the XOR of the lock1 of every piece on its square, and of the
//!   side-to-move lock1 when Black is to move.
//! - Squares are `x + 16 * y` on that 16x16 board: files a..i are x = 3..11, and y = 3 is
//!   rank 9 (Black's back rank) down to y = 12 for rank 0. A move is `from | to << 8`.
//! - A position and its left-right mirror are stored once, under whichever of the two has the
//!   smaller lock (both when the locks tie, as in a symmetric position). ElephantEye looks the
//!   position up and, only when nothing is there, its mirror, mirroring the moves found. It
//!   keeps the moves that are legal (a 32-bit lock can collide) and chooses at random by
//!   weight. `EleeyeBook::probe` looks up exactly the position given; mirroring is the caller's.

use crate::board::position::Position;
use crate::board::types::{Color, Move, Piece, Square, FILE_NB, RANK_NB, SQUARE_NB};
use crate::engine::book::BookError;

/// Bytes per record: lock (4), move (2), weight (2).
const RECORD_BYTES: usize = 8;
/// ElephantEye's x of file a and y of rank 9 on its 16x16 board.
const BOARD_OFFSET: usize = 3;

/// ElephantEye's lock1 values for each piece on each of our squares, and for Black to move.
struct Locks {
    pieces: [[u32; SQUARE_NB]; Piece::NB],
    black_to_move: u32,
}

/// An RC4 keystream, as ElephantEye draws its Zobrist numbers from it.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    /// The stream keyed with `key` (the key schedule of RC4).
    const fn new(key: &[u8]) -> Rc4 {
        let mut s = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            s[i] = i as u8;
            i += 1;
        }
        let mut j = 0u8;
        let mut i = 0;
        while i < 256 {
            j = j.wrapping_add(s[i]).wrapping_add(key[i % key.len()]);
            let t = s[i];
            s[i] = s[j as usize];
            s[j as usize] = t;
            i += 1;
        }
        Rc4 { s, i: 0, j: 0 }
    }

    /// The next keystream byte.
    const fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        let t = self.s[self.i as usize];
        self.s[self.i as usize] = self.s[self.j as usize];
        self.s[self.j as usize] = t;
        self.s[self.s[self.i as usize].wrapping_add(self.s[self.j as usize]) as usize]
    }

    /// The next four bytes as a number, the first byte least significant.
    const fn next_u32(&mut self) -> u32 {
        let mut n = 0u32;
        let mut k = 0;
        while k < 4 {
            n |= (self.next_byte() as u32) << (8 * k);
            k += 1;
        }
        n
    }

    /// The lock1 of the next (key, lock0, lock1) triple.
    const fn next_lock1(&mut self) -> u32 {
        self.next_u32();
        self.next_u32();
        self.next_u32()
    }
}

/// ElephantEye's 16x16 square of one of ours.
const fn eleeye_square(sq: Square) -> usize {
    (sq.file() + BOARD_OFFSET) + 16 * (BOARD_OFFSET + RANK_NB - 1 - sq.rank())
}

/// Our square of one of ElephantEye's, if it is on the board.
fn square_from_eleeye(sq: usize) -> Option<Square> {
    let (x, y) = (sq % 16, sq / 16);
    let file = x.checked_sub(BOARD_OFFSET).filter(|&f| f < FILE_NB)?;
    let from_top = y.checked_sub(BOARD_OFFSET).filter(|&r| r < RANK_NB)?;
    Some(Square::from_coords(file, RANK_NB - 1 - from_top))
}

static LOCKS: Locks = {
    let mut rc4 = Rc4::new(&[0; 4]);
    let black_to_move = rc4.next_lock1();
    // Which of our squares each ElephantEye square is (off-board ones draw numbers too).
    let mut ours = [usize::MAX; 256];
    let mut sq = 0;
    while sq < SQUARE_NB {
        ours[eleeye_square(Square::new(sq))] = sq;
        sq += 1;
    }
    let mut pieces = [[0u32; SQUARE_NB]; Piece::NB];
    let mut p = 0;
    while p < Piece::NB {
        let mut e = 0;
        while e < 256 {
            let lock = rc4.next_lock1();
            if ours[e] != usize::MAX {
                pieces[p][ours[e]] = lock;
            }
            e += 1;
        }
        p += 1;
    }
    Locks {
        pieces,
        black_to_move,
    }
};

/// ElephantEye's lock of `pos`: the key its book records are sorted and found by.
pub fn lock(pos: &Position) -> u32 {
    let mut lock = match pos.side_to_move() {
        Color::Red => 0,
        Color::Black => LOCKS.black_to_move,
    };
    for sq in pos.occupied() {
        if let Some(p) = pos.piece_on(sq) {
            lock ^= LOCKS.pieces[p.index()][sq.index()];
        }
    }
    lock
}

/// ElephantEye's encoding of a move (`m` a real move, not `Move::NONE` or `Move::NULL`).
pub fn encode_move(m: Move) -> u16 {
    (eleeye_square(m.from()) | eleeye_square(m.to()) << 8) as u16
}

/// Our move of ElephantEye's encoding, if both squares are on the board and differ.
pub fn decode_move(raw: u16) -> Option<Move> {
    let from = square_from_eleeye(usize::from(raw & 0xff))?;
    let to = square_from_eleeye(usize::from(raw >> 8))?;
    (from != to).then(|| Move::new(from, to))
}

/// One record of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    lock: u32,
    mv: u16,
    weight: u16,
}

/// An ElephantEye book held in memory.
#[derive(Clone, Debug)]
pub struct EleeyeBook {
    /// Sorted by lock.
    records: Vec<Record>,
}

impl EleeyeBook {
    /// Read the bytes of a `BOOK.DAT`, refusing what cannot be one: an empty file, a length
    /// that is not whole records, records not sorted by lock.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<EleeyeBook, BookError> {
        let fail = |why: String| Err(BookError(format!("not an ElephantEye book: {why}")));
        if bytes.is_empty() {
            return fail("the file is empty".into());
        }
        if !bytes.len().is_multiple_of(RECORD_BYTES) {
            return fail(format!(
                "{} bytes is not a whole number of {RECORD_BYTES}-byte records",
                bytes.len()
            ));
        }
        let records: Vec<Record> = bytes
            .chunks_exact(RECORD_BYTES)
            .map(|r| Record {
                lock: u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
                mv: u16::from_le_bytes([r[4], r[5]]),
                weight: u16::from_le_bytes([r[6], r[7]]),
            })
            .collect();
        if let Some(i) = records.windows(2).position(|w| w[0].lock > w[1].lock) {
            return fail(format!(
                "records {} and {} are not sorted by position lock",
                i + 1,
                i + 2
            ));
        }
        Ok(EleeyeBook { records })
    }

    /// Number of records (moves) in the book.
    pub fn record_count(&self) -> usize {
        self.records.len()
    }

    /// The moves stored for exactly `pos` (not its mirror), with their weights as stored, in
    /// file order; records whose move is not on the board are skipped. Not checked for
    /// legality: a lock is 32 bits and can belong to another position too.
    pub fn probe(&self, pos: &Position) -> Vec<(Move, u32)> {
        let key = lock(pos);
        let start = self.records.partition_point(|r| r.lock < key);
        self.records[start..]
            .iter()
            .take_while(|r| r.lock == key)
            .filter_map(|r| Some((decode_move(r.mv)?, u32::from(r.weight))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::movegen::legal_moves;

    fn play(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        pos
    }

    fn record(lock: u32, mv: &str, weight: u16) -> [u8; 8] {
        let m = Move::new(
            Square::parse(&mv[..2]).unwrap(),
            Square::parse(&mv[2..]).unwrap(),
        );
        let mut r = [0u8; 8];
        r[..4].copy_from_slice(&lock.to_le_bytes());
        r[4..6].copy_from_slice(&encode_move(m).to_le_bytes());
        r[6..].copy_from_slice(&weight.to_le_bytes());
        r
    }

    fn book_of(mut records: Vec<[u8; 8]>) -> EleeyeBook {
        records.sort_by_key(|r| u32::from_le_bytes([r[0], r[1], r[2], r[3]]));
        EleeyeBook::from_bytes(records.concat()).unwrap()
    }

    fn texts(moves: &[(Move, u32)]) -> Vec<(String, u32)> {
        moves.iter().map(|(m, w)| (m.to_string(), *w)).collect()
    }

    #[test]
    fn squares_and_moves_map_as_elephanteye_numbers_them() {
        // a9 (Black's back-left corner) is 0x33, i0 (Red's back-right corner) is 0xcb.
        assert_eq!(eleeye_square(Square::parse("a9").unwrap()), 0x33);
        assert_eq!(eleeye_square(Square::parse("a0").unwrap()), 0xc3);
        assert_eq!(eleeye_square(Square::parse("i0").unwrap()), 0xcb);
        // h2e2: from x=10, y=10 (0xaa) to x=7, y=10 (0xa7).
        let h2e2 = Position::startpos().parse_move("h2e2").unwrap();
        assert_eq!(encode_move(h2e2), 0xa7aa);
        assert_eq!(decode_move(0xa7aa), Some(h2e2));
        // Off the board, or no move at all.
        for raw in [0, 0xa7a2, 0xa7ac, 0xa723, 0xd3aa, 0xaaaa] {
            assert_eq!(decode_move(raw), None, "{raw:#06x}");
        }
    }

    #[test]
    fn moves_round_trip_over_all_legal_moves() {
        let positions = [
            Position::startpos(),
            play(&["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]),
            Position::from_fen("3k5/4P4/3a5/9/9/9/9/4B4/3p5/4K4 b").unwrap(),
        ];
        for pos in &positions {
            let moves = legal_moves(pos);
            assert!(!moves.is_empty());
            for &m in &moves {
                assert_eq!(decode_move(encode_move(m)), Some(m), "{m}");
            }
        }
    }

    #[test]
    fn locks_depend_on_pieces_squares_and_side() {
        let start = Position::startpos();
        let black = Position::from_fen(&start.to_fen().replace(" w", " b")).unwrap();
        assert_eq!(lock(&black) ^ lock(&start), LOCKS.black_to_move);
        assert_ne!(LOCKS.black_to_move, 0);
        // The start position is symmetric: its mirror has the same lock.
        assert_eq!(lock(&start.mirrored()), lock(&start));
        assert_ne!(lock(&play(&["h2e2"]).mirrored()), lock(&play(&["h2e2"])));
    }

    #[test]
    fn stored_positions_are_found_with_their_moves() {
        let start = Position::startpos();
        let after = play(&["h2e2"]); // Black to move
        let other = play(&["c3c4", "c6c5"]);
        let book = book_of(vec![
            record(lock(&start), "h2e2", 500),
            record(lock(&after), "h9g7", 70),
            record(lock(&start), "b0c2", 3),
            record(lock(&after), "h7e7", 0),
            record(lock(&other), "b0c2", 9),
        ]);
        assert_eq!(book.record_count(), 5);
        let mut found = texts(&book.probe(&start));
        found.sort();
        assert_eq!(found, [("b0c2".into(), 3), ("h2e2".into(), 500)]);
        let mut found = texts(&book.probe(&after));
        found.sort();
        assert_eq!(found, [("h7e7".into(), 0), ("h9g7".into(), 70)]);
        // Exactly the position given: not its mirror, not an unstored one.
        assert!(book.probe(&play(&["b2e2"])).is_empty());
        assert!(book.probe(&play(&["a3a4"])).is_empty());
    }

    #[test]
    fn moves_off_the_board_are_skipped() {
        let start = Position::startpos();
        let mut bad = record(lock(&start), "h2e2", 5);
        bad[4..6].copy_from_slice(&0x0102u16.to_le_bytes());
        let book = book_of(vec![bad, record(lock(&start), "b2e2", 4)]);
        assert_eq!(texts(&book.probe(&start)), [("b2e2".into(), 4)]);
    }

    #[test]
    fn files_that_are_no_book_are_refused() {
        let why = |bytes: Vec<u8>| EleeyeBook::from_bytes(bytes).unwrap_err().0;
        assert!(why(Vec::new()).contains("empty"));
        let one = record(7, "h2e2", 1).to_vec();
        assert!(why(one[..7].to_vec()).contains("7 bytes"));
        let mut truncated = [one.clone(), one.clone()].concat();
        truncated.pop();
        assert!(why(truncated).contains("15 bytes"));
        let unsorted = [record(9, "h2e2", 1), record(8, "b2e2", 1)].concat();
        assert!(why(unsorted).contains("records 1 and 2 are not sorted"));
        // Equal locks in a row are one position's moves: sorted.
        assert!(EleeyeBook::from_bytes([one.clone(), one].concat()).is_ok());
    }

    /// Records as found in ElephantEye's `BOOK/BOOK.DAT` (xqbase/eleeye, commit a9d3914e,
    /// blob 8f5eeaeb; 12081 records): (lock, move as stored, weight). Our key and move mapping
    /// must find them where ElephantEye does, so a drift in either fails here.
    const FOUND_IN_BOOK_DAT: [(u32, u16, u16); 8] = [
        (0x0526_56d5, 0xa7aa, 1473), // start: h2e2
        (0x0526_56d5, 0xa7a4, 1473), // start: b2e2
        (0x0526_56d5, 0x8595, 546),  // start: c3c4
        (0x0526_56d5, 0xa7c5, 311),  // start: c0e2
        (0x5396_644f, 0x5534, 761),  // after b2e2, Black to move: b9c7
        (0x5396_644f, 0x593a, 172),  // after b2e2: h9g7
        (0xdf3a_d30d, 0xa9ca, 955),  // after h2e2 h9g7: h0g2
        (0xdf3a_d30d, 0x8999, 61),   // after h2e2 h9g7: g3g4
    ];

    #[test]
    fn locks_and_moves_match_elephanteyes_own_book() {
        assert_eq!(lock(&Position::startpos()), 0x0526_56d5);
        assert_eq!(lock(&play(&["b2e2"])), 0x5396_644f);
        assert_eq!(lock(&play(&["h2e2", "h9g7"])), 0xdf3a_d30d);
        let bytes: Vec<u8> = FOUND_IN_BOOK_DAT
            .iter()
            .flat_map(|&(lock, mv, w)| {
                let mut r = lock.to_le_bytes().to_vec();
                r.extend(mv.to_le_bytes());
                r.extend(w.to_le_bytes());
                r
            })
            .collect();
        let book = EleeyeBook::from_bytes(bytes).unwrap();
        let found = |moves: &[&str]| {
            let pos = play(moves);
            let found = texts(&book.probe(&pos));
            let legal = legal_moves(&pos);
            assert!(book.probe(&pos).iter().all(|&(m, _)| legal.contains(m)));
            found
        };
        let start = found(&[]);
        assert_eq!(
            start,
            [
                ("h2e2".into(), 1473),
                ("b2e2".into(), 1473),
                ("c3c4".into(), 546),
                ("c0e2".into(), 311)
            ]
        );
        assert_eq!(
            found(&["b2e2"]),
            [("b9c7".into(), 761), ("h9g7".into(), 172)]
        );
        assert_eq!(
            found(&["h2e2", "h9g7"]),
            [("h0g2".into(), 955), ("g3g4".into(), 61)]
        );
        // The book holds a position under the smaller lock of it and its mirror: after h2e2
        // the moves are found only through the mirror (after b2e2).
        assert!(found(&["h2e2"]).is_empty());
    }
}
