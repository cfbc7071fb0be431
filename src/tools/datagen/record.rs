//! The training record: one position, its search score and its game's result in 32 bytes.
//!
//! Files are headerless streams of records, so files concatenate (`cat` works as well as
//! `chuhan datagen merge`), and a file whose size is not a multiple of 32 is damaged.
//!
//! | bytes | field |
//! |---|---|
//! | 0..12 | occupancy: bit `s` (byte `s / 8`, bit `s % 8`, least significant first) is set when point `s` holds a piece; points `s = rank * 9 + file`, file a..i = 0..8, rank 0 = Red's back rank; bits 90..95 are zero |
//! | 12..28 | pieces: one 4-bit code per set bit of the occupancy, in increasing point order; the `i`-th in byte `12 + i / 2`, low nibble for even `i`, high nibble for odd `i`; nibbles past the last piece are zero |
//! | 28..30 | score: `i16`, little-endian, centipawns from the side to move's view (never a mate score) |
//! | 30 | result from the side to move's view: 0 loss, 1 draw, 2 win |
//! | 31 | side to move: 0 Red, 1 Black |
//!
//! Piece codes are `colour * 7 + kind`: Red king, advisor, elephant, horse, rook, cannon, pawn
//! = 0..6 (FEN `K A B N R C P`), Black's = 7..13 (`k a b n r c p`); 14 and 15 are invalid. A
//! side has at most 16 pieces, so 32 codes always fit.
//!
//! The record keeps the board and the side to move, not the move counters or the history:
//! a decoded position has the FEN of the original with `- - 0 1` counters.
//!
//! In numpy: `np.dtype([("occ", "u1", 12), ("pieces", "u1", 16), ("score", "<i2"), ("result",
//! "u1"), ("stm", "u1")])`.

use crate::board::bitboard::Bitboard;
use crate::board::position::Position;
use crate::board::types::{Color, Piece, PieceKind, SQUARE_NB};
use std::fmt;

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// Most pieces a record holds (and a legal position has).
const MAX_PIECES: usize = 32;

const PIECES_AT: usize = 12;
const SCORE_AT: usize = 28;
const RESULT_AT: usize = 30;
const SIDE_AT: usize = 31;

/// A game's result from one side's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// That side lost.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// That side won.
    Win = 2,
}

impl Wdl {
    fn from_byte(b: u8) -> Option<Wdl> {
        match b {
            0 => Some(Wdl::Loss),
            1 => Some(Wdl::Draw),
            2 => Some(Wdl::Win),
            _ => None,
        }
    }
}

/// One training position, decoded.
#[derive(Clone)]
pub struct Sample {
    /// The position (side to move included; no history, counters zero).
    pub pos: Position,
    /// The search score in centipawns, from the side to move's view.
    pub score: i16,
    /// The game's result, from the side to move's view.
    pub result: Wdl,
}

/// Why 32 bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Occupancy bits beyond point 89 are set.
    StrayBits,
    /// More than 32 points are occupied.
    TooManyPieces(u32),
    /// A piece code is 14 or 15.
    BadPiece(u8),
    /// A nibble past the last piece is not zero.
    Padding,
    /// The result byte is not 0, 1 or 2.
    BadResult(u8),
    /// The side byte is not 0 or 1.
    BadSide(u8),
    /// The pieces do not make a legal position (kings, counts, points, check).
    Illegal(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::StrayBits => write!(f, "occupancy bits past point 89 are set"),
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32)"),
            RecordError::BadPiece(c) => write!(f, "piece code {c} (expected 0..13)"),
            RecordError::Padding => write!(f, "piece codes past the last piece are not zero"),
            RecordError::BadResult(b) => write!(f, "result byte {b} (expected 0, 1 or 2)"),
            RecordError::BadSide(b) => write!(f, "side byte {b} (expected 0 or 1)"),
            RecordError::Illegal(why) => write!(f, "not a legal position: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// The record of `pos` (board and side to move) with its score and result.
pub fn encode(pos: &Position, score: i16, result: Wdl) -> [u8; RECORD_SIZE] {
    let mut r = [0u8; RECORD_SIZE];
    let occupied = pos.occupied();
    r[..PIECES_AT].copy_from_slice(&occupied.0.to_le_bytes()[..PIECES_AT]);
    for (i, sq) in occupied.enumerate() {
        let code = pos.piece_on(sq).map_or(0, |p| p.index() as u8);
        r[PIECES_AT + i / 2] |= code << (4 * (i % 2));
    }
    r[SCORE_AT..RESULT_AT].copy_from_slice(&score.to_le_bytes());
    r[RESULT_AT] = result as u8;
    r[SIDE_AT] = pos.side_to_move() as u8;
    r
}

/// Set the result field of a record (the result is known only once the game is over).
pub fn set_result(r: &mut [u8; RECORD_SIZE], result: Wdl) {
    r[RESULT_AT] = result as u8;
}

/// The occupancy bitboard of a record.
fn occupancy(r: &[u8; RECORD_SIZE]) -> Bitboard {
    let mut bytes = [0u8; 16];
    bytes[..PIECES_AT].copy_from_slice(&r[..PIECES_AT]);
    Bitboard(u128::from_le_bytes(bytes))
}

/// The `i`-th piece code of a record.
fn code(r: &[u8; RECORD_SIZE], i: usize) -> u8 {
    (r[PIECES_AT + i / 2] >> (4 * (i % 2))) & 0xF
}

/// The piece of each point, checking the fields that need no position to check.
fn board(r: &[u8; RECORD_SIZE]) -> Result<[Option<Piece>; SQUARE_NB], RecordError> {
    let occupied = occupancy(r);
    if occupied.0 >> SQUARE_NB != 0 {
        return Err(RecordError::StrayBits);
    }
    let n = occupied.count();
    if n as usize > MAX_PIECES {
        return Err(RecordError::TooManyPieces(n));
    }
    if (n as usize..MAX_PIECES).any(|i| code(r, i) != 0) {
        return Err(RecordError::Padding);
    }
    let mut board = [None; SQUARE_NB];
    for (i, sq) in occupied.enumerate() {
        let c = code(r, i);
        if usize::from(c) >= Piece::NB {
            return Err(RecordError::BadPiece(c));
        }
        let color = if c < 7 { Color::Red } else { Color::Black };
        board[sq.index()] = Some(Piece::new(color, PieceKind::from_index(usize::from(c % 7))));
    }
    Ok(board)
}

/// The side to move of a record.
fn side(r: &[u8; RECORD_SIZE]) -> Result<Color, RecordError> {
    match r[SIDE_AT] {
        0 => Ok(Color::Red),
        1 => Ok(Color::Black),
        b => Err(RecordError::BadSide(b)),
    }
}

/// Every field of a record checked, but not the legality of its position (cheap: for the
/// tools that copy records without looking at them).
pub fn check_fields(r: &[u8; RECORD_SIZE]) -> Result<(), RecordError> {
    fields(r).map(|_| ())
}

/// The board, side to move and result of a record, checked field by field.
fn fields(r: &[u8; RECORD_SIZE]) -> Result<([Option<Piece>; SQUARE_NB], Color, Wdl), RecordError> {
    let board = board(r)?;
    let side = side(r)?;
    let result = Wdl::from_byte(r[RESULT_AT]).ok_or(RecordError::BadResult(r[RESULT_AT]))?;
    Ok((board, side, result))
}

/// The FEN of a record's board and side (`- - 0 1` counters), every field but the position's
/// legality checked.
pub fn fen(r: &[u8; RECORD_SIZE]) -> Result<String, RecordError> {
    let (board, side, _) = fields(r)?;
    let s = crate::board::position::board_fen(&board);
    let side = if side == Color::Red { 'w' } else { 'b' };
    Ok(format!("{s} {side} - - 0 1"))
}

/// Decode and check a record: every field, and that the board is a legal position.
pub fn decode(r: &[u8; RECORD_SIZE]) -> Result<Sample, RecordError> {
    let fen = fen(r)?;
    let pos = Position::from_fen(&fen).map_err(|e| RecordError::Illegal(e.to_string()))?;
    Ok(Sample {
        // A clone keeps only the history in use (the parser reserves room for a game).
        pos: pos.clone(),
        score: i16::from_le_bytes([r[SCORE_AT], r[SCORE_AT + 1]]),
        result: Wdl::from_byte(r[RESULT_AT]).ok_or(RecordError::BadResult(r[RESULT_AT]))?,
    })
}

/// The bytes that say which position a record holds (board and side), for de-duplication.
pub fn position_bytes(r: &[u8; RECORD_SIZE]) -> [u8; SCORE_AT + 1] {
    let mut key = [0u8; SCORE_AT + 1];
    key[..SCORE_AT].copy_from_slice(&r[..SCORE_AT]);
    key[SCORE_AT] = r[SIDE_AT];
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::playout::random_playout;
    use crate::board::rng::Rng;

    /// The board and side fields of a FEN.
    fn board_and_side(fen: &str) -> String {
        fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn records_decode_to_the_same_positions() {
        let mut rng = Rng::new(5);
        let positions = random_playout(&mut rng, 4000, 200);
        for (i, pos) in positions.iter().enumerate() {
            let score = (rng.next_u64() as i16).clamp(-30_000, 30_000);
            let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][i % 3];
            let r = encode(pos, score, result);
            let s = decode(&r).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
            assert_eq!(
                board_and_side(&s.pos.to_fen()),
                board_and_side(&pos.to_fen())
            );
            assert_eq!(s.pos.key(), pos.key());
            assert_eq!((s.score, s.result), (score, result));
            assert_eq!(encode(&s.pos, score, result), r);
        }
    }

    #[test]
    fn the_start_position_is_laid_out_as_documented() {
        let r = encode(&Position::startpos(), -7, Wdl::Win);
        // Red's back rank on points 0..8, rank 1 empty, the cannons on 19 and 25, the pawns on
        // 27, 29, 31.
        assert_eq!(&r[..4], &[0xFF, 0x01, 0x08, 0xAA]);
        // Rook, horse, elephant, advisor, king, advisor: 4, 3, 2, 1, 0, 1, low nibble first.
        assert_eq!(&r[12..15], &[0x34, 0x12, 0x10]);
        assert_eq!(&r[28..], &[0xF9, 0xFF, 2, 0]);
        assert_eq!(occupancy(&r).count(), 32);
    }

    #[test]
    fn bad_records_are_refused() {
        let good = encode(&Position::startpos(), 0, Wdl::Draw);
        let with = |i: usize, b: u8| {
            let mut r = good;
            r[i] = b;
            r
        };
        assert_eq!(decode(&with(30, 3)).err(), Some(RecordError::BadResult(3)));
        assert_eq!(decode(&with(31, 2)).err(), Some(RecordError::BadSide(2)));
        assert_eq!(decode(&with(11, 0x04)).err(), Some(RecordError::StrayBits));
        assert_eq!(
            decode(&with(12, 0x3E)).err(),
            Some(RecordError::BadPiece(14))
        );
        // A red king on Red's left rook point: two red kings.
        assert!(matches!(
            decode(&with(12, 0x30)),
            Err(RecordError::Illegal(_))
        ));
        let bare = encode(
            &Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap(),
            0,
            Wdl::Draw,
        );
        let mut r = bare;
        r[20] = 1;
        assert_eq!(decode(&r).err(), Some(RecordError::Padding));
        assert!(decode(&[0xFF; RECORD_SIZE]).is_err());
        assert!(decode(&[0; RECORD_SIZE]).is_err());
    }
}
