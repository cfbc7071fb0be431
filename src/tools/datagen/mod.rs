//! `chuhan datagen`: training positions from self-play, for an NNUE evaluation.
//!
//! - `generate`: the games (openings plus random plies, balanced starts, fixed nodes per move,
//!   the referee's rules, deterministic for a seed on any thread count, shards).
//! - `record`: the 32-byte record of a kept position (board, side to move, score, result).
//! - `files`: reading and writing record files; `count`, `shuffle`, `dedup`, `merge`.
//!
//! The output of a run goes to `FILE.partial`, renamed to `FILE` when the run is complete.
//! Games are written whole and in order, so the partial file of an interrupted run holds
//! whole games of the run (its first ones): rename it to keep them.

pub mod files;
pub mod generate;
pub mod record;
pub mod wdl;

use crate::engine::files::read_network;
use crate::engine::openings;
use crate::tools::args::{Arg, Args};
use anyhow::{bail, Context, Result};
use generate::{Evaluation, Settings, Shard};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `chuhan datagen …` usage.
pub const USAGE: &str = "usage:
  chuhan datagen -o FILE [--games N] [--positions N] [--nodes N] [--threads N] [--seed S]
                 [--shard K/N] [--random-plies N] [--balance CP] [--max-plies N]
                 [--win-score CP] [--win-plies N] [--hash MB] [--openings FILE]
                 [--eval built-in|classical|NETWORK_FILE]
      self-play games; kept positions as 32-byte records to FILE (via FILE.partial);
      at least one of --games (of the whole run, over all shards) and --positions;
      the searches evaluate with the built-in network unless --eval says otherwise
  chuhan datagen count FILE             records in FILE, each checked
  chuhan datagen shuffle IN OUT --seed S   IN's records in a random order
  chuhan datagen dedup IN OUT           the first record of each position
  chuhan datagen merge OUT IN...        the records of IN... one file after another
  chuhan datagen mirror IN OUT          IN's positions mirrored left-right (a <-> i)
  chuhan datagen wdl [-o RUST_FILE] [--source TEXT] FILE...
      fits UCI_ShowWDL's win/draw/loss model to FILE...'s scores and results and
      prints the report; -o writes the model as src/protocol/wdl_fit.rs, with TEXT
      (where the records came from) in its header";

/// Seconds between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Run `chuhan datagen` with its arguments (after `datagen`).
pub fn run(words: &[String], out: &mut dyn Write) -> Result<()> {
    let Some((command, rest)) = words.split_first() else {
        return generate_command(words, out);
    };
    // The file commands take files only, `shuffle` its seed too.
    let files = || Args::new(rest, USAGE).words();
    match command.as_str() {
        "count" => {
            let [path] = files()?[..] else {
                bail!("count takes one file\n{USAGE}")
            };
            let c = files::count(Path::new(path))?;
            writeln!(
                out,
                "{path}: {} positions ({} with Red to move); side to move won {}, drew {}, lost {}",
                c.positions, c.red_to_move, c.wdl[2], c.wdl[1], c.wdl[0]
            )?;
        }
        "shuffle" => {
            let mut args = Args::new(rest, USAGE);
            let (mut paths, mut seed) = (Vec::new(), None);
            while let Some(arg) = args.next()? {
                match arg {
                    Arg::Flag("seed") => seed = Some(args.number()?),
                    Arg::Flag(_) => return Err(args.unknown()),
                    Arg::Word(path) => paths.push(path),
                }
            }
            let (&[input, output], Some(seed)) = (&paths[..], seed) else {
                bail!("shuffle takes IN OUT --seed S\n{USAGE}")
            };
            let n = files::shuffle(Path::new(input), Path::new(output), seed)?;
            writeln!(out, "shuffled {n} positions into {output}")?;
        }
        "dedup" => {
            let [input, output] = files()?[..] else {
                bail!("dedup takes IN OUT\n{USAGE}")
            };
            let (kept, dropped) = files::dedup(Path::new(input), Path::new(output))?;
            writeln!(
                out,
                "kept {kept} positions, dropped {dropped} repeated ones, into {output}"
            )?;
        }
        "mirror" => {
            let [input, output] = files()?[..] else {
                bail!("mirror takes IN OUT\n{USAGE}")
            };
            let n = files::mirror(Path::new(input), Path::new(output))?;
            writeln!(out, "mirrored {n} positions into {output}")?;
        }
        "merge" => {
            let files = files()?;
            let Some((output, inputs)) = files.split_first() else {
                bail!("merge takes OUT IN...\n{USAGE}")
            };
            let inputs: Vec<PathBuf> = inputs.iter().map(PathBuf::from).collect();
            let n = files::merge(Path::new(output), &inputs)?;
            writeln!(out, "merged {n} positions into {output}")?;
        }
        "wdl" => wdl_command(rest, out)?,
        _ => generate_command(words, out)?,
    }
    Ok(())
}

/// `chuhan datagen wdl [-o RUST_FILE] [--source TEXT] FILE...`.
fn wdl_command(words: &[String], out: &mut dyn Write) -> Result<()> {
    let (mut output, mut source, mut inputs) = (None, None, Vec::new());
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        match arg {
            Arg::Flag("o" | "out") => output = Some(PathBuf::from(args.value()?)),
            Arg::Flag("source") => source = Some(args.value()?.to_string()),
            Arg::Flag(_) => return Err(args.unknown()),
            Arg::Word(path) => inputs.push(PathBuf::from(path)),
        }
    }
    if inputs.is_empty() {
        bail!("wdl needs record files\n{USAGE}");
    }
    let table = wdl::Table::read(&inputs)?;
    let fit = wdl::fit(&table)?;
    write!(out, "{}", wdl::report(&table, &fit))?;
    if let Some(path) = output {
        let source = source.unwrap_or_else(|| format!("{} records", table.positions()));
        std::fs::write(&path, wdl::rust_source(&fit.model, &source))
            .with_context(|| format!("cannot write {}", path.display()))?;
        writeln!(out, "wrote the model to {}", path.display())?;
    }
    Ok(())
}

/// `--eval`'s value: `built-in`, `classical` or a network file.
fn evaluation(text: &str) -> Result<Evaluation> {
    Ok(match text {
        "built-in" => Evaluation::BuiltIn,
        "classical" => Evaluation::Classical,
        path => {
            let net = read_network(Path::new(path))
                .map_err(|why| anyhow::anyhow!("--eval: network file '{path}' {why}"))?;
            Evaluation::Network(Arc::new(net))
        }
    })
}

/// What the generation command was asked.
struct Request {
    settings: Settings,
    output: PathBuf,
    openings: Option<PathBuf>,
}

fn parse(words: &[String]) -> Result<Request> {
    let mut s = Settings {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        ..Settings::default()
    };
    let mut output: Option<PathBuf> = None;
    let mut openings: Option<PathBuf> = None;
    let mut args = Args::new(words, USAGE);
    while let Some(arg) = args.next()? {
        let name = match arg {
            Arg::Flag(name) => name,
            Arg::Word(w) => return Err(args.fail(format!("unexpected argument '{w}'"))),
        };
        match name {
            "o" | "out" => output = Some(PathBuf::from(args.value()?)),
            "games" => s.games = Some(args.number_in(1..)?),
            "positions" => s.positions = Some(args.number_in(1..)?),
            "nodes" => s.nodes = args.number_in(1..)?,
            "threads" => s.threads = args.number_in(1..=crate::engine::MAX_THREADS)?,
            "seed" => s.seed = args.number()?,
            "shard" => s.shard = Shard::parse(args.value()?)?,
            "random-plies" => s.random_plies = args.number()?,
            "balance" => s.balance = args.number_in(0..)?,
            "max-plies" => s.max_plies = args.number_in(1..)?,
            "win-score" => s.win.score = args.number_in(1..)?,
            "win-plies" => s.win.plies = args.number_in(1..)?,
            "hash" => s.hash_mb = args.number_in(1..)?,
            "openings" => openings = Some(PathBuf::from(args.value()?)),
            "eval" => s.evaluation = evaluation(args.value()?)?,
            _ => return Err(args.unknown()),
        }
    }
    let output = output.with_context(|| format!("datagen needs -o FILE\n{USAGE}"))?;
    if s.games.is_none() && s.positions.is_none() {
        bail!("datagen needs --games N or --positions N (or both)\n{USAGE}");
    }
    Ok(Request {
        settings: s,
        output,
        openings,
    })
}

/// `chuhan datagen -o FILE …`: play, write, report.
fn generate_command(args: &[String], out: &mut dyn Write) -> Result<()> {
    let r = parse(args)?;
    let book = openings::load(r.openings.as_deref()).map_err(anyhow::Error::msg)?;
    let s = &r.settings;
    let mut output = files::Output::create(&r.output)?;
    output.keep_unfinished();
    let start = Instant::now();
    let mut last = start;
    let line = |st: &generate::Stats| {
        let secs = start.elapsed().as_secs_f64().max(1e-3);
        format!(
            "datagen: {} positions ({:.0}% of {} searched), {:.1} positions/s, {} games \
             (+{} ={} -{} for Red), {:.0} s",
            st.positions,
            100.0 * st.positions as f64 / st.searched.max(1) as f64,
            st.searched,
            st.positions as f64 / secs,
            st.games,
            st.wdl[0],
            st.wdl[1],
            st.wdl[2],
            secs
        )
    };
    let stats = generate::generate(s, &book, output.unbuffered()?, &mut |st| {
        if last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            eprintln!("{}", line(st));
        }
    })?;
    output.finish()?;
    eprintln!("{}", line(&stats));
    writeln!(
        out,
        "wrote {} positions from {} games to {}",
        stats.positions,
        stats.games,
        r.output.display()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn options_are_parsed() {
        let r = parse(&args(
            "-o x.bin --games 10 --positions 500 --nodes 300 --threads 3 --seed 4 --shard 2/5 \
             --random-plies 6 --balance 150 --max-plies 300 --win-score 1500 --win-plies 6 \
             --hash 8 --openings o.txt --eval classical",
        ))
        .unwrap();
        let s = r.settings;
        assert_eq!(r.output, PathBuf::from("x.bin"));
        assert_eq!(r.openings, Some(PathBuf::from("o.txt")));
        assert_eq!((s.games, s.positions, s.nodes), (Some(10), Some(500), 300));
        assert_eq!(
            (s.threads, s.seed, s.shard),
            (3, 4, Shard { index: 1, count: 5 })
        );
        assert_eq!((s.random_plies, s.balance, s.max_plies), (6, 150, 300));
        assert_eq!((s.win.score, s.win.plies, s.hash_mb), (1500, 6, 8));
        assert_eq!(s.evaluation, Evaluation::Classical);
        let d = parse(&args("--positions 5 -o y")).unwrap().settings;
        assert_eq!((d.nodes, d.random_plies, d.balance), (5000, 4, 200));
        assert_eq!(d.evaluation, Evaluation::BuiltIn);
    }

    #[test]
    fn bad_arguments_are_errors() {
        let mut sink = Vec::new();
        for bad in [
            "",
            "--games 2",
            "-o x",
            "-o x --games 0",
            "-o x --games two",
            "-o x --games 2 --nodes",
            "-o x --games 2 --shard 3/2",
            "-o x --games 2 --balance -5",
            "-o x --games 2 --threads 0",
            "-o x --games 2 --frobnicate 1",
            "-o x --games 2 --eval /no/such/net.nnue",
            "-o x --games 2 --eval",
            "count",
            "count a b",
            "shuffle a b",
            "shuffle a b --seed x",
            "dedup a",
            "merge",
        ] {
            assert!(run(&args(bad), &mut sink).is_err(), "'{bad}'");
        }
    }
}
