//! Chuhan (楚汉): a xiangqi engine. The library holds everything; `src/main.rs` is a thin CLI.

#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod judge;
pub mod movegen;
pub mod perft;
pub mod position;
pub mod rules;
pub mod types;
pub mod zobrist;
