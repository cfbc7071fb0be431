//! Quick in-process self-play for search ablation: the full engine against one with a search
//! feature switched off, at a fixed node count per move, over paired openings. With
//! `params=FILE` the opponent is instead the full engine evaluating with the `Params` literal in
//! FILE (as `chuhan tune fit` prints it), to measure a change of the evaluation's numbers.
//!
//! `cargo run --release --example selfplay -- <feature|none|params=FILE> <nodes> <pairs> [threads]`
//! Prints W/D/L of the full (built-in) engine and the Elo difference with its 95 % error bar.
//! (The real match runner is `chuhan match`; this exists to measure features quickly.)

use chuhan::engine::Engine;
use chuhan::eval::Tables;
use chuhan::movegen::legal_moves;
use chuhan::position::Position;
use chuhan::time::Limits;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const FIRST: [&str; 12] = [
    "h2e2", "b2e2", "g3g4", "c3c4", "c0e2", "g0e2", "b0c2", "h0g2", "h2d2", "b2f2", "h2g2", "i0i1",
];
const REPLY: [&str; 9] = [
    "h9g7", "b9c7", "h7e7", "b7e7", "g6g5", "c6c5", "c9e7", "g9e7", "h7g7",
];

/// Play one game; returns the score of Red (1, 0.5, 0).
fn play(red: &mut Engine, black: &mut Engine, opening: &[&str], nodes: u64) -> f64 {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for m in opening {
        let mv = pos.parse_move(m).expect("opening move");
        pos.make_move(mv);
        moves.push(m.to_string());
    }
    red.clear_hash();
    black.clear_hash();
    loop {
        if legal_moves(&pos).is_empty() {
            return if pos.side_to_move() == chuhan::types::Color::Red {
                0.0
            } else {
                1.0
            };
        }
        let h = pos.history();
        let key = pos.key();
        let reps = h.iter().rev().step_by(2).filter(|s| s.key == key).count();
        if reps >= 3 || pos.rule60() >= 120 || moves.len() >= 400 {
            return 0.5;
        }
        let engine = if pos.side_to_move() == chuhan::types::Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        engine.set_position(None, &moves).expect("legal game");
        let result = engine.search_sync(Limits {
            nodes: Some(nodes),
            ..Limits::default()
        });
        let m = result.best.expect("a move when moves exist");
        pos.make_move(m);
        moves.push(m.to_string());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let feature = args.first().cloned().unwrap_or_else(|| "none".into());
    let nodes: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let pairs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(54);
    let threads: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(2);
    let other_eval = feature.strip_prefix("params=").map(|path| {
        let text = std::fs::read_to_string(path).expect("readable parameter file");
        let params = chuhan::tune::params_from_rust(&text).expect("a Params literal");
        Arc::new(Tables::new(params))
    });
    let openings: Vec<[&str; 2]> = FIRST
        .iter()
        .flat_map(|a| REPLY.iter().map(move |b| [*a, *b]))
        .collect();
    let next = AtomicUsize::new(0);
    let wdl = Mutex::new([0u32; 3]);
    let pentanomial = Mutex::new([0u32; 5]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let mut full = Engine::new();
                let mut other = Engine::new();
                full.set_hash_mb(16).unwrap();
                other.set_hash_mb(16).unwrap();
                if other_eval.is_some() {
                    other.options.eval = other_eval.clone();
                } else if feature != "none" && !other.options.features.disable(&feature) {
                    panic!("unknown feature {feature}");
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pairs {
                        break;
                    }
                    let op = openings[i % openings.len()];
                    let a = play(&mut full, &mut other, &op, nodes);
                    let b = 1.0 - play(&mut other, &mut full, &op, nodes);
                    let mut w = wdl.lock().unwrap();
                    for r in [a, b] {
                        w[if r == 1.0 {
                            0
                        } else if r == 0.5 {
                            1
                        } else {
                            2
                        }] += 1;
                    }
                    pentanomial.lock().unwrap()[((a + b) * 2.0) as usize] += 1;
                    let n = w[0] + w[1] + w[2];
                    eprintln!("{n} games: +{} ={} -{}", w[0], w[1], w[2]);
                }
            });
        }
    });
    let label = if other_eval.is_some() {
        format!("built-in vs {feature}")
    } else {
        format!("full vs no-{feature}")
    };
    let [w, d, l] = *wdl.lock().unwrap();
    let penta = *pentanomial.lock().unwrap();
    let n = (w + d + l) as f64;
    let score = (w as f64 + d as f64 / 2.0) / n;
    // Error from the pentanomial (game-pair) variance, which accounts for the paired openings.
    let pairs_n: f64 = penta.iter().sum::<u32>() as f64;
    let mean_pair: f64 = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 / 4.0 * c as f64)
        .sum::<f64>()
        / pairs_n;
    let var_pair: f64 = penta
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0 - mean_pair).powi(2) * c as f64)
        .sum::<f64>()
        / pairs_n;
    let se = (var_pair / pairs_n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    println!(
        "{label} at {nodes} nodes: {} games +{w} ={d} -{l}, score {:.3}, Elo {:+.1} ± {:.1} (95%), pentanomial {:?}",
        w + d + l,
        score,
        elo(score),
        (elo(score + 1.96 * se) - elo(score - 1.96 * se)) / 2.0,
        penta
    );
}
