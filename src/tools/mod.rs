//! The tools built on the engine: `bench` (the search signature), `judge` (a referee for game
//! records), the match runner, the evaluation tuner and its self-play loop. The engine never
//! depends on them.

pub mod bench;
pub mod book_builder;
pub mod judge;
pub mod match_runner;
pub mod selfplay;
pub mod tune;
