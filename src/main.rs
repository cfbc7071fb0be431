//! The `chuhan` binary: subcommands over the library.

use anyhow::{bail, Context, Result};
use chuhan::perft;
use chuhan::position::Position;
use std::time::Instant;

const USAGE: &str =
    "usage: chuhan [perft <depth> [FEN] | match <options> (see chuhan match -help)]";

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
        Some("match") => match_command(&args[1..]),
        Some(other) => bail!("unknown command '{other}'\n{USAGE}"),
        None => bail!("{USAGE}"),
    }
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

/// `chuhan match …`: engine-vs-engine games (see `chuhan::match_runner::cli::USAGE`).
fn match_command(args: &[String]) -> Result<()> {
    use chuhan::match_runner::{cli, install_interrupt_handler, run_match};
    let cfg = cli::parse_args(args).map_err(anyhow::Error::msg)?;
    install_interrupt_handler();
    run_match(&cfg, &mut std::io::stdout()).map_err(anyhow::Error::msg)?;
    Ok(())
}
