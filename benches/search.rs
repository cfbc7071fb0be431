//! Search bench: fixed-depth searches over a few bench positions with one thread and a fresh
//! hash, asserting the node count is the same every time (it changes only with the search).

use chuhan::engine::Engine;
use chuhan::search::time::Limits;
use chuhan::tools::bench::BENCH_FENS;
use criterion::{criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn nodes_for(engine: &mut Engine, fen: &str, depth: u32) -> u64 {
    engine.clear_hash();
    engine.set_position(Some(fen), &[] as &[&str]).unwrap();
    engine
        .search_sync(Limits {
            depth: Some(depth),
            ..Limits::default()
        })
        .nodes
}

fn fixed_depth(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    let mut engine = Engine::new();
    engine.set_hash_mb(16).unwrap();
    for (i, fen) in BENCH_FENS.iter().enumerate().step_by(10) {
        let expected = nodes_for(&mut engine, fen, 8);
        group.bench_function(format!("bench_fen_{i}_d8"), |b| {
            b.iter(|| assert_eq!(nodes_for(&mut engine, fen, 8), expected));
        });
    }
    group.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
