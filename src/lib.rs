//! Chuhan (楚汉): a xiangqi engine. The library holds everything; `src/main.rs` is a thin CLI.

#![warn(missing_docs)]

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod book;
pub mod engine;
pub mod eval;
pub mod history;
pub mod judge;
pub mod match_runner;
pub mod movegen;
pub mod movepick;
pub mod notation;
pub mod openings;
pub mod perft;
pub mod position;
pub mod position_line;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod search;
pub mod strength;
pub mod thread;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod zobrist;
