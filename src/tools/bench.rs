//! `bench`: a fixed-depth search over fixed positions with one thread and a 16 MB hash. The
//! node count is a signature of the search: identical on every run and machine, it changes
//! only when the search does (commit messages carry it as `Bench: N`).

use crate::engine::Engine;
use crate::rules::RuleSet;
use crate::search::time::Limits;
use crate::search::SearchSettings;
use std::time::{Duration, Instant};

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Openings, middlegames (from real and random games) and endgames.
pub const BENCH_FENS: &[&str] = &[
    "1C2k1b2/1r7/8b/p1p1p1pnp/9/9/P1P1P1P1P/4B4/5R1C1/4KABc1 b - - 5 16",
    "1n1k2b1r/2r6/4b4/R3p1p1p/1Cp6/4P4/2P5P/9/9/2BAKABNR w - - 1 12",
    "1nba2b2/5k3/5r3/2p6/4p3p/9/9/8r/4K4/9 b - - 13 40",
    "1nbakabnr/9/r6c1/p3p1C1p/9/9/PCP1P1P1P/9/9/R1BcKABNR w - - 0 6",
    "1rb1kab1r/4a4/1c7/p1p3p1p/4P4/9/P1P3P1P/4B4/R8/3AKABNR b - - 2 8",
    "1rbakab2/9/9/p1p1p1p1p/1c7/P5P2/2P1c3P/2R6/8R/2BAKAB2 w - - 5 11",
    "1rbakabr1/9/7c1/p1p1p1p1p/9/9/P1P1c1P1P/R5N2/9/1NBAKAB1R w - - 0 5",
    "2b1kab1C/1N2a4/n3ccn2/p5r1p/4p4/P1P2RN2/2r1P3P/C3B4/4A4/2BAK2R1 w - - 0 1",
    "2ba1ab2/1C2k4/rc4n2/p1p6/4p3p/4PcPrP/P1P6/R1N6/3K5/2BA2B1R w - - 4 22",
    "2bak1b2/4a4/3r2n1c/p3p1R1p/3R1n3/2C2N3/P3P3P/6NrC/4A4/1cBAK1B2 b - - 1 21",
    "2baka1r1/9/4b1n2/p3p3p/2P2P3/P3P4/N7P/4B4/4CcC2/2BAKARc1 b - - 2 20",
    "2bakab1r/9/6n2/p3p1C1p/2P2nPc1/9/P3P3P/R1N1B4/1r2Cc3/2BAKAR2 b - - 3 14",
    "2bakabr1/9/7c1/2R1p1p1p/9/2r6/4P3P/8B/4A4/3AK2NR w - - 0 9",
    "2r2a3/3k5/b8/p1p5r/8p/2P1p1B1P/P6c1/R1NA5/9/1RBAK2c1 w - - 2 20",
    "3a5/3P5/5k1r1/9/1Rb6/2PN5/9/B2N1A3/9/4KA3 w - - 59 105",
    "3ak1b2/8C/4r1r2/6Pcp/PNp1p4/2P6/4P3P/3A4R/9/2BAK1BN1 b - - 7 41",
    "3ak4/9/n8/2p1p4/1c7/6C2/2P1P4/B8/4A1R2/1N2KA3 b - - 6 25",
    "3akc3/4a4/4b4/1r6p/P1b1C2R1/9/8P/3AB1N2/5Kn2/2B6 w - - 3 57",
    "3k1abnr/9/4b4/p1p3p1p/4pr3/4P3c/P1P1N1P2/N3Bc2R/1R3C3/2BAKA3 b - - 7 15",
    "4k4/2r6/3aP4/p7p/1n7/P8/9/B4R3/9/1N1AK4 w - - 3 41",
    "4ka1n1/2n1a4/4b2cb/p1p1p1pcp/3r5/P3C4/2P1P1P1P/N1C3N2/4AR3/2BAK1B2 w - - 3 11",
    "4kab2/4a4/r3b4/p1p1n3R/6p2/4P4/P1P3P2/R2A5/9/1NBA1KBN1 b - - 0 17",
    "5k3/9/4b4/p1p1p4/8p/PR2P4/2N5P/3RB2c1/4K4/9 w - - 3 28",
    "9/4k4/9/2P1N4/2P6/9/9/3A1R3/9/4K2p1 w - - 63 66",
    "r1b1ka1n1/4ar3/n6cb/p1p1p1pcp/9/PC7/2P1P1P1P/N1C3N2/8R/R1BAKAB2 w - - 10 6",
    "r1ba1kb1r/9/9/p1p1p1p1p/9/P8/4P1c1P/1c2B4/9/RN1AKABNR w - - 0 7",
    "r1bakabnr/9/1C5c1/2p1p1p1p/p8/9/P1P1P1P1P/9/C8/RNBAKABcR b - - 3 4",
    "r2C1a2r/4k4/b5cc1/p1p1p4/8p/6B2/P1P1P1P1P/8R/9/RNBAKA1N1 b - - 2 10",
    "rCbakabnr/9/1c5c1/p3p1p1p/2p6/9/P1P1P1P1P/7C1/9/RNBAKABNR w - - 1 2",
    "rn1akabr1/9/4b4/P1p1p1p2/8p/9/2P1PCP1P/9/c3A4/2BK2BNR b - - 0 9",
    "rnba1a3/4k4/4b4/p1p3pc1/3P5/2P3P2/R8/8B/4N3R/2BAKA3 w - - 1 19",
    "rnbaka1nr/9/4b2c1/p1p1p1p1p/1c7/9/PCP1P1P1P/4C4/4K4/RNBA1ABNR w - - 8 5",
    "rnbakabn1/7r1/7c1/p1C1p1p1p/9/9/P1P1P1P1P/8C/9/R1BK1ABNR w - - 3 5",
    "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2B2C1/4A4/Rc2KABNR b - - 1 2",
    "rnc1k4/4a4/9/p1p1p1p1p/9/9/4PC2c/9/4A4/RNBAK1BNR b - - 1 13",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "3ak4/4a4/4b4/9/9/9/9/9/4A4/2R1K4 w - - 0 1",
    "4k4/9/3a5/9/2p6/9/9/9/4A4/3NK4 w - - 0 1",
    "3k5/9/9/9/2p1p4/9/9/9/9/4KC3 w - - 0 1",
    "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/1R2KA3 w - - 0 1",
    "5k3/9/9/9/9/9/4n4/9/4A4/3AK1R2 b - - 0 1",
];

/// Result of a bench run.
pub struct BenchResult {
    /// Total nodes searched.
    pub nodes: u64,
    /// Milliseconds spent searching: the hash is cleared before each position (so that the
    /// node count does not depend on the order), and that clearing is not search speed.
    pub millis: u64,
}

/// Search every bench position to `depth` with one thread and a fresh 16 MB hash.
pub fn run(depth: u32) -> BenchResult {
    run_with(depth, 1, 16).expect("a 16 MB hash table")
}

/// The same with `threads` threads and a `hash_mb` table (the node count is then no signature).
pub fn run_with(depth: u32, threads: usize, hash_mb: usize) -> anyhow::Result<BenchResult> {
    run_with_rules(depth, threads, hash_mb, RuleSet::default())
}

/// The same under the repetition rules `rules` (to measure what the rules cost).
pub fn run_with_rules(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    rules: RuleSet,
) -> anyhow::Result<BenchResult> {
    let settings = SearchSettings {
        rules,
        ..SearchSettings::DEFAULT
    };
    run_with_settings(depth, threads, hash_mb, settings)
}

/// The same with `settings` (threads aside), e.g. the classical evaluation or another network,
/// to measure what an evaluation costs or gains in speed.
pub fn run_with_settings(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    settings: SearchSettings,
) -> anyhow::Result<BenchResult> {
    let mut engine = Engine::new();
    engine.options.search = settings;
    run_engine(engine, depth, threads, hash_mb)
}

/// Search every bench position with `engine`'s settings.
fn run_engine(
    mut engine: Engine,
    depth: u32,
    threads: usize,
    hash_mb: usize,
) -> anyhow::Result<BenchResult> {
    engine.set_hash_mb(hash_mb).map_err(anyhow::Error::msg)?;
    engine.set_threads(threads);
    let mut searching = Duration::ZERO;
    let mut nodes = 0;
    for fen in BENCH_FENS {
        engine.clear_hash();
        if engine.set_position(Some(fen), &[] as &[&str]).is_err() {
            continue;
        }
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let start = Instant::now();
        nodes += engine.search_sync(limits).nodes;
        searching += start.elapsed();
    }
    Ok(BenchResult {
        nodes,
        millis: searching.as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::position::Position;

    #[test]
    fn bench_positions_are_valid_and_playable() {
        assert!(BENCH_FENS.len() >= 40);
        for fen in BENCH_FENS {
            let p = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(!crate::board::movegen::legal_moves(&p).is_empty(), "{fen}");
        }
    }
}
