//! Search one position and print the progress: `cargo run --release --example think -- [depth|ms] [FEN]`.
use chuhan::engine::{Engine, SearchEvent};
use chuhan::search::time::Limits;
use std::sync::Arc;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut engine = Engine::new();
    let fen = args.get(1).cloned();
    engine
        .set_position(fen.as_deref(), &[] as &[&str])
        .expect("valid FEN");
    let n: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(12);
    let limits = if n > 64 {
        Limits {
            movetime: Some(Duration::from_millis(n)),
            ..Limits::default()
        }
    } else {
        Limits {
            depth: Some(n as u32),
            ..Limits::default()
        }
    };
    // Progress lines are printed as they come; the result once the search is over.
    engine.go(
        limits,
        Arc::new(|event| match event {
            SearchEvent::Info(i) => {
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                println!(
                    "depth {} sel {} score {} nodes {} nps {} time {} pv {}",
                    i.depth,
                    i.seldepth,
                    i.score,
                    i.nodes,
                    i.nps,
                    i.time_ms,
                    pv.join(" ")
                );
            }
            SearchEvent::Book(b) => println!("book move {} weight {}", b.mv, b.weight),
            SearchEvent::BestMove(r) => println!(
                "best {:?} ponder {:?} score {:?} depth {} nodes {}",
                r.best, r.ponder, r.score, r.depth, r.nodes
            ),
        }),
    );
    engine.wait();
}
