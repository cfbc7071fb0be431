//! Chuhan (楚汉): a xiangqi engine. The library holds everything; `src/main.rs` is a thin CLI.
//!
//! The layers, each using only those below it:
//! - [`tools`]: bench, judge, match runner, tuner: they use the engine, never the reverse;
//! - [`protocol`]: UCCI and UCI text to engine calls and back;
//! - [`engine`]: the facade a front end drives (position, options, `go`, the opening book);
//! - [`search`]: move ordering, transposition table, workers, threads, time, strength;
//! - [`eval`]: the static evaluation, classical and NNUE, kept move by move along a line;
//! - [`rules`]: the repetition rulings (棋例), the 60-move limit, adjudication;
//! - [`board`]: squares, bitboards, attack tables, Zobrist keys, positions, move generation.

#![warn(missing_docs)]

pub mod board;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
