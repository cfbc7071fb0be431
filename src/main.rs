//! The `chuhan` binary: the protocol loop (no arguments) and subcommands over the library.

use anyhow::{bail, Context, Result};
use chuhan::perft;
use chuhan::position::Position;
use std::time::Instant;

const USAGE: &str = "usage: chuhan [bench [depth] | perft <depth> [FEN]]
  with no arguments: the UCCI/UCI protocol loop on stdin/stdout";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("chuhan: {e:#}");
        std::process::exit(2);
    }
}

fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some(other) => bail!("unknown command '{other}'\n{USAGE}"),
        None => {
            let input = std::io::BufReader::new(std::io::stdin());
            chuhan::protocol::run(input, std::io::stdout());
            Ok(())
        }
    }
}

/// `chuhan bench [depth]`: the search signature and speed.
fn bench_command(args: &[String]) -> Result<()> {
    let depth = match args.first() {
        None => chuhan::bench::DEFAULT_DEPTH,
        Some(t) => t
            .parse()
            .ok()
            .filter(|d| (1..=64).contains(d))
            .with_context(|| format!("bad bench depth '{t}' (expected 1..64)"))?,
    };
    let r = chuhan::bench::run(depth);
    eprintln!("Total time (ms): {}", r.millis);
    println!("Nodes searched: {}", r.nodes);
    println!("Nodes/second: {}", r.nodes * 1000 / r.millis.max(1));
    Ok(())
}

/// `chuhan perft <depth> [FEN]`: divide, total and speed.
fn perft_command(args: &[String]) -> Result<()> {
    let depth_text = args.first().context("perft needs a depth")?;
    let depth: u32 = depth_text
        .parse()
        .ok()
        .filter(|d| (1..=12).contains(d))
        .with_context(|| format!("bad perft depth '{depth_text}' (expected 1..12)"))?;
    let mut pos = if args.len() > 1 {
        let fen = args[1..].join(" ");
        Position::from_fen(&fen).with_context(|| format!("bad FEN '{fen}'"))?
    } else {
        Position::startpos()
    };
    let start = Instant::now();
    let rows = perft::divide(&mut pos, depth);
    let elapsed = start.elapsed();
    let total: u64 = rows.iter().map(|(_, n)| n).sum();
    for (m, n) in &rows {
        println!("{m}: {n}");
    }
    println!();
    println!("Nodes searched: {total}");
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    println!("Time: {} ms, Nodes/second: {nps}", elapsed.as_millis());
    Ok(())
}
