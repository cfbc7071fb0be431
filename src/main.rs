//! The `chuhan` binary: the protocol loop (no arguments) and subcommands over the library.

use anyhow::{bail, Context, Result};
use chuhan::board::perft;
use chuhan::board::position::Position;
use chuhan::tools::args::{self, Arg, Args, Help};
use std::io::Write;
use std::time::Instant;

const USAGE: &str =
    "usage: chuhan [COMMAND [ARGUMENTS...]]; a command's own usage: chuhan COMMAND --help
  (no command)  the UCCI/UCI protocol loop on stdin/stdout
  bench         the search signature: nodes searched and speed
  perft         leaf counts of the move tree
  judge         verdicts for games read from stdin
  match         engine-vs-engine games (cutechess-cli style flags); match rate: rating lists
  tune          the classical evaluation's numbers: gen, label, fit
  spsa          the search parameters, tuned by self-play
  book          opening books: build, learn, show, walk
  datagen       training positions from self-play
  train         the NNUE trainer";
const BENCH_USAGE: &str = "usage: chuhan bench [depth] [threads] [hash_mb]
  searches the bench positions (1 thread, 16 MB by default) and prints the node count";
const PERFT_USAGE: &str = "usage: chuhan perft <depth> [FEN]
  counts the leaves of the move tree to <depth> (1 to 12) from FEN or the start";
const JUDGE_USAGE: &str = "usage: chuhan judge [--rules chinese|asian|draw] [--explain]
  reads games from stdin, one a line ('FEN moves ...'), and prints each one's verdict";

fn main() {
    match utf8_args().and_then(|args| run(&args)) {
        Ok(()) => {}
        // `--help`: the usage, asked for.
        Err(e) if e.is::<Help>() => println!("{e}"),
        // The reader went away (`chuhan book show … | head`): nothing left to say to anyone.
        Err(e) if is_broken_pipe(&e) => {}
        Err(e) => {
            eprintln!("chuhan: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Whether `e` comes from writing to a pipe whose reader has closed it.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
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
fn bench_command(words: &[String]) -> Result<()> {
    let words = Args::new(words, BENCH_USAGE).words()?;
    if words.len() > 3 {
        bail!("too many arguments\n{BENCH_USAGE}");
    }
    let number = |i: usize, name: &str, default: usize, max: usize| -> Result<usize> {
        words
            .get(i)
            .map_or(Ok(default), |t| args::number_in(name, t, 1..=max))
    };
    let depth = number(
        0,
        "bench depth",
        chuhan::tools::bench::DEFAULT_DEPTH as usize,
        64,
    )?;
    let threads = number(1, "bench threads", 1, chuhan::engine::MAX_THREADS)?;
    let hash = number(2, "bench hash size", 16, 65_536)?;
    let r = chuhan::tools::bench::run_with(depth as u32, threads, hash)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "Total time (ms): {}", r.millis)?;
    writeln!(out, "Nodes searched: {}", r.nodes)?;
    writeln!(out, "Nodes/second: {}", r.nodes * 1000 / r.millis.max(1))?;
    Ok(())
}

/// `chuhan judge [--rules R] [--explain]`: verdicts for games read from stdin (see `chuhan::tools::judge`).
fn judge_command(words: &[String]) -> Result<()> {
    let mut rules = chuhan::rules::RuleSet::default();
    let mut explain = false;
    let mut args = Args::new(words, JUDGE_USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("rules") => rules = args.value()?.parse()?,
            Arg::Flag("explain") => explain = true,
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
        }
    }
    let stdin = std::io::stdin();
    chuhan::tools::judge::run(stdin.lock(), std::io::stdout().lock(), rules, explain)?;
    Ok(())
}

/// `chuhan perft <depth> [FEN]`: divide, total and speed.
fn perft_command(words: &[String]) -> Result<()> {
    let words = Args::new(words, PERFT_USAGE).words()?;
    let (depth, fen) = words
        .split_first()
        .with_context(|| format!("perft needs a depth\n{PERFT_USAGE}"))?;
    let depth: u32 = args::number_in("perft depth", depth, 1..=12)?;
    let mut pos = if fen.is_empty() {
        Position::startpos()
    } else {
        let fen = fen.join(" ");
        Position::from_fen(&fen).with_context(|| format!("bad FEN '{fen}'"))?
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
        let list = rating::rate_command(&args[1..])?;
        write!(std::io::stdout().lock(), "{list}")?;
        return Ok(());
    }
    let cfg = cli::parse_args(args)?;
    install_interrupt_handler();
    run_match(&cfg, &mut std::io::stdout())?;
    Ok(())
}
