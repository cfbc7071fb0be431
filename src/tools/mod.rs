//! The tools built on the engine: `bench` (the search signature), `judge` (a referee for game
//! records), the match runner, the evaluation tuner, the training-data generator and the
//! self-play loop those two share, and the network trainer. Each reads its command line through
//! `args`. The engine never depends on them.

pub mod args;
pub mod bench;
pub mod book_builder;
pub mod datagen;
pub mod judge;
pub mod match_runner;
pub mod selfplay;
pub mod spsa;
pub mod train;
pub mod tune;
