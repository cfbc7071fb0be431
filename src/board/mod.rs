//! The board: squares and pieces, bitboards over the 90 points, attack tables, Zobrist keys, the
//! position with make/unmake, position lines, legal move generation, notation, perft and the
//! random playouts tests walk. Knows nothing of search or text protocols.

pub(crate) mod attacks;
pub mod bitboard;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod playout;
pub mod position;
pub mod position_line;
pub mod rng;
pub mod types;
pub(crate) mod zobrist;
