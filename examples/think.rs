//! Search one position and print the progress: `cargo run --release --example think -- [depth|ms] [FEN]`.
use chuhan::engine::Engine;
use chuhan::time::Limits;
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
    let (best, ponder, score, infos) = engine.search_sync(limits);
    for i in &infos {
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
    println!("best {best:?} ponder {ponder:?} score {score:?}");
}
