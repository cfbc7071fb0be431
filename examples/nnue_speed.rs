//! What the network costs in speed. First the cost of one evaluation along random games: the
//! classical evaluation, the network's incremental update plus output, and the network from
//! scratch. Then `bench` with the classical evaluation and with the network, interleaved,
//! `runs` times each, with both medians and their ratio (the two search different trees, so
//! the ratio is not the cost of the evaluation alone). The network is the built-in one unless
//! `net=FILE` names a network file; `write=FILE` saves a random network (seed 1, the size of a
//! trained one), e.g. for `setoption name EvalFile value FILE`.
//! `cargo run --release --example nnue_speed -- [depth] [runs] [net=FILE] [write=FILE]`
use chuhan::board::movegen::legal_moves;
use chuhan::board::position::Position;
use chuhan::board::rng::Rng;
use chuhan::board::types::Move;
use chuhan::engine::files::read_network;
use chuhan::eval::evaluate;
use chuhan::eval::nnue::{architecture, built_in, Accumulator, AccumulatorStack, Network};
use chuhan::search::SearchSettings;
use chuhan::tools::bench::run_with_settings;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// Random games from the start position (at most 150 plies each).
fn random_games(count: usize) -> Vec<Vec<Move>> {
    let mut rng = Rng::new(5);
    (0..count)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut line = Vec::new();
            for _ in 0..150 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len())];
                pos.make_move(m);
                line.push(m);
            }
            line
        })
        .collect()
}

/// Nanoseconds per position of `step` (called after each move of each game), less the cost of
/// replaying the games.
fn per_position(games: &[Vec<Move>], mut step: impl FnMut(&Position, bool) -> i32) -> f64 {
    let replay = |step: &mut dyn FnMut(&Position, bool) -> i32, work: bool| {
        let start = Instant::now();
        let mut count = 0;
        for _ in 0..5 {
            for line in games {
                let mut pos = Position::startpos();
                black_box(step(&pos, false));
                for &m in line {
                    pos.make_move(m);
                    if work {
                        black_box(step(&pos, true));
                    }
                    count += 1;
                }
            }
        }
        (start.elapsed().as_nanos() as f64, count as f64)
    };
    let (base, _) = replay(&mut |_, _| 0, false);
    let (t, n) = replay(&mut step, true);
    (t - base) / n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let depth = numbers.first().copied().unwrap_or(9);
    let runs = numbers.get(1).copied().unwrap_or(3);
    let mut loaded = None;
    for arg in &args {
        if let Some(path) = arg.strip_prefix("net=") {
            let net = read_network(std::path::Path::new(path))
                .unwrap_or_else(|why| panic!("network file '{path}' {why}"));
            loaded = Some(Arc::new(net));
        } else if let Some(path) = arg.strip_prefix("write=") {
            std::fs::write(path, Network::random(1).to_bytes()).expect("write the network");
            println!("wrote {path}");
        }
    }
    let network: &Network = loaded.as_deref().unwrap_or_else(|| built_in());
    let games = random_games(200);
    let classical = per_position(&games, |pos, _| evaluate(pos));
    let mut stack = AccumulatorStack::new(network, &Position::startpos());
    let mut plies = 0;
    let incremental = per_position(&games, |pos, after_move| {
        if after_move {
            stack.push_move(pos);
            plies += 1;
        } else {
            // A new game: back to the root.
            for _ in 0..plies {
                stack.pop();
            }
            plies = 0;
            stack.refresh(pos);
        }
        stack.evaluate(pos)
    });
    let scratch = per_position(&games, |pos, _| {
        network.evaluate(&Accumulator::refresh(network, pos), pos.side_to_move())
    });
    println!("one evaluation: classical {classical:.0} ns, network {incremental:.0} ns (update + output), network from scratch {scratch:.0} ns");
    let with_network = SearchSettings {
        network: loaded.clone(),
        ..SearchSettings::DEFAULT
    };
    let mut nps = [Vec::new(), Vec::new()];
    let mut nodes = [0, 0];
    for _ in 0..runs {
        for (i, nps) in nps.iter_mut().enumerate() {
            let r = match i {
                0 => run_with_settings(depth, 1, 16, SearchSettings::DEFAULT.classical()),
                _ => run_with_settings(depth, 1, 16, with_network.clone()),
            }
            .expect("16 MB");
            nodes[i] = r.nodes;
            nps.push(r.nodes as f64 * 1000.0 / r.millis.max(1) as f64);
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let (c, n) = (median(&mut nps[0]), median(&mut nps[1]));
    println!("classical: {} nodes, median {c:.0} nps", nodes[0]);
    println!(
        "network:   {} nodes, median {n:.0} nps ({})",
        nodes[1],
        architecture()
    );
    println!("network/classical nps ratio: {:.3}", n / c);
}
