//! Move generation benches: perft 4 and 5 from the start position (asserting the node counts, so
//! a speed-up cannot hide a correctness change) and legal move generation over the bench FENs.

use chuhan::board::movegen::legal_moves;
use chuhan::board::perft::perft;
use chuhan::board::position::Position;
use chuhan::tools::bench::BENCH_FENS;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;

fn perft_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (depth, nodes) in [(4u32, 3_290_240u64), (5, 133_312_995)] {
        group.bench_function(format!("startpos_d{depth}"), |b| {
            let mut pos = Position::startpos();
            b.iter(|| assert_eq!(perft(&mut pos, black_box(depth)), nodes));
        });
    }
    group.finish();
}

fn generate(c: &mut Criterion) {
    let positions: Vec<Position> = BENCH_FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let total: usize = positions.iter().map(|p| legal_moves(p).len()).sum();
    c.bench_function("legal_moves_bench_fens", |b| {
        b.iter(|| {
            let n: usize = positions
                .iter()
                .map(|p| legal_moves(black_box(p)).len())
                .sum();
            assert_eq!(n, total);
        })
    });
}

criterion_group!(benches, perft_start, generate);
criterion_main!(benches);
