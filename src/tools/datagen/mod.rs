//! `chuhan datagen`: training positions from self-play, for an NNUE evaluation.
//!
//! - `record`: the 32-byte record of a kept position (board, side to move, score, result).

pub mod record;
