//! The `chuhan` binary: the protocol loop (no arguments) and subcommands over the library.

use anyhow::{bail, Context, Result};
use chuhan::board::perft;
use chuhan::board::position::Position;
use std::io::Write;
use std::time::Instant;

const USAGE: &str = "usage: chuhan [bench [depth] [threads] [hash_mb] | perft <depth> [FEN] | judge [--rules chinese|asian|draw] [--explain] | match <options> (see chuhan match -help) | match rate FILE.pgn… | tune gen|fit … | spsa <state-file> … (see chuhan spsa) | book build|learn|show … (see chuhan book) | datagen … (see chuhan datagen) | train … (see chuhan train --help)]
  with no arguments: the UCCI/UCI protocol loop on stdin/stdout";

fn main() {
    if let Err(e) = utf8_args().and_then(|args| run(&args)) {
        eprintln!("chuhan: {e:#}");
        std::process::exit(2);
    }
}

/// The arguments after the program name. `std::env::args` panics on one that is not UTF-8;
/// here it is an error like any other bad argument.
fn utf8_args() -> Result<Vec<String>> {
    std::env::args_os()
        .skip(1)
        .map(|a| {
            a.into_string()
                .map_err(|a| anyhow::anyhow!("argument '{}' is not UTF-8", a.to_string_lossy()))
        })
        .collect()
}

fn run(args: &[String]) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("match") => match_command(&args[1..]),
        Some("judge") => judge_command(&args[1..]),
        Some("book") => chuhan::tools::book_builder::run(&args[1..], &mut std::io::stdout().lock()),
        Some("tune") => chuhan::tools::tune::run(&args[1..], &mut std::io::stdout().lock()),
        Some("spsa") => spsa_command(&args[1..]),
        Some("datagen") => chuhan::tools::datagen::run(&args[1..], &mut std::io::stdout().lock()),
        Some("train") => chuhan::tools::train::run(&args[1..], &mut std::io::stdout().lock()),
        Some("help" | "-h" | "--help") => {
            writeln!(std::io::stdout().lock(), "{USAGE}")?;
            Ok(())
        }
        Some(other) => bail!("unknown command '{other}'\n{USAGE}"),
        None => {
            let input = std::io::BufReader::new(std::io::stdin());
            chuhan::protocol::run(input, std::io::stdout());
            Ok(())
        }
    }
}

/// `chuhan bench [depth] [threads] [hash_mb]`: the search signature and speed.
fn bench_command(args: &[String]) -> Result<()> {
    let number = |i: usize, name: &str, default: usize, max: usize| -> Result<usize> {
        match args.get(i) {
            None => Ok(default),
            Some(t) => t
                .parse()
                .ok()
                .filter(|v| (1..=max).contains(v))
                .with_context(|| format!("bad bench {name} '{t}' (expected 1..{max})")),
        }
    };
    let depth = number(0, "depth", chuhan::tools::bench::DEFAULT_DEPTH as usize, 64)?;
    let threads = number(1, "threads", 1, chuhan::engine::MAX_THREADS)?;
    let hash = number(2, "hash size", 16, 65_536)?;
    let r =
        chuhan::tools::bench::run_with(depth as u32, threads, hash).map_err(anyhow::Error::msg)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "Total time (ms): {}", r.millis)?;
    writeln!(out, "Nodes searched: {}", r.nodes)?;
    writeln!(out, "Nodes/second: {}", r.nodes * 1000 / r.millis.max(1))?;
    Ok(())
}

/// `chuhan judge [--rules R] [--explain]`: verdicts for games read from stdin (see `chuhan::tools::judge`).
fn judge_command(args: &[String]) -> Result<()> {
    let mut rules = chuhan::rules::RuleSet::default();
    let mut explain = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--rules" => rules = rest.next().context("--rules needs a name")?.parse()?,
            "--explain" => explain = true,
            _ => bail!("{USAGE}"),
        }
    }
    let stdin = std::io::stdin();
    chuhan::tools::judge::run(stdin.lock(), std::io::stdout().lock(), rules, explain)?;
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
    let mut out = std::io::stdout().lock();
    for (m, n) in &rows {
        writeln!(out, "{m}: {n}")?;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {total}")?;
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "Time: {} ms, Nodes/second: {nps}", elapsed.as_millis())?;
    Ok(())
}

/// `chuhan spsa <state-file> …`: tune the search's parameters by self-play (see
/// `chuhan::tools::spsa`).
fn spsa_command(args: &[String]) -> Result<()> {
    use chuhan::tools::match_runner::install_interrupt_handler;
    let (state, cfg) = chuhan::tools::spsa::parse_args(args)?;
    install_interrupt_handler();
    let done = chuhan::tools::spsa::run(&cfg, &state, &mut std::io::stdout())?;
    let path = format!("{}.params", state.display());
    writeln!(
        std::io::stdout().lock(),
        "{} iterations done; the values are in '{path}'",
        done.iteration
    )?;
    Ok(())
}

/// `chuhan match …`: engine-vs-engine games (see `chuhan::tools::match_runner::cli::USAGE`).
fn match_command(args: &[String]) -> Result<()> {
    use chuhan::tools::match_runner::{cli, install_interrupt_handler, rating, run_match};
    if args.first().map(String::as_str) == Some("rate") {
        let list = rating::rate_command(&args[1..]).map_err(anyhow::Error::msg)?;
        write!(std::io::stdout().lock(), "{list}")?;
        return Ok(());
    }
    let cfg = cli::parse_args(args).map_err(anyhow::Error::msg)?;
    install_interrupt_handler();
    run_match(&cfg, &mut std::io::stdout()).map_err(anyhow::Error::msg)?;
    Ok(())
}
