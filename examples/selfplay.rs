//! Quick in-process self-play for search ablation: the full engine against one with a search
//! feature switched off, at a fixed node count per move, over paired openings (each opening of
//! the default set played twice, colours swapped). With `params=FILE` the opponent is instead
//! the full engine evaluating with the parameters in FILE (`name = value` lines, as `chuhan tune
//! fit` prints them; names left out keep the built-in values), to measure a change of the
//! evaluation's numbers.
//!
//! `cargo run --release --example selfplay -- <feature|none|params=FILE> <nodes> <pairs> [threads]`
//! (defaults: none, 20000 nodes, one pair per opening, 2 threads). Features are the field names
//! of `SearchFeatures` (`lmr`, `null_move`, ...). Prints W/D/L of the full (built-in) engine and
//! its Elo difference with the 95 % error bar.
//!
//! The games are `chuhan::tools::selfplay`'s (the loop of `tune gen` and `datagen`, with one
//! engine a side), the statistics the match runner's. This example exists because `chuhan
//! match` plays engine processes through the protocol, which has no option to switch a search
//! feature off or to load other evaluation parameters.

use anyhow::{bail, Result};
use chuhan::engine::openings::{self, Opening};
use chuhan::engine::Engine;
use chuhan::eval::{Params, Tables};
use chuhan::rules::Outcome;
use chuhan::tools::args::{number_in, Args};
use chuhan::tools::match_runner::stats::Tally;
use chuhan::tools::selfplay::{play_between, Playout};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const USAGE: &str = "usage: selfplay <feature|none|params=FILE> <nodes> <pairs> [threads]";

/// What the command line asked.
struct Config {
    /// The feature switched off, `none`, or `params=FILE`.
    opponent: String,
    /// The opponent's evaluation tables, for `params=FILE`.
    other_eval: Option<Arc<Tables>>,
    nodes: u64,
    pairs: usize,
    threads: usize,
}

fn parse_args(words: &[String], openings: usize) -> Result<Config> {
    let words = Args::new(words, USAGE).words()?;
    if words.len() > 4 {
        bail!("too many arguments ({})\n{USAGE}", words.len());
    }
    let opponent = words.first().unwrap_or(&"none").to_string();
    let other_eval = match opponent.strip_prefix("params=") {
        Some(path) => Some(Arc::new(Tables::new(
            Params::load(path).map_err(anyhow::Error::msg)?,
        ))),
        None => None,
    };
    if other_eval.is_none()
        && opponent != "none"
        && !chuhan::search::SearchFeatures::default().disable(&opponent)
    {
        bail!("unknown feature '{opponent}'");
    }
    let number = |i: usize, what: &str, default: usize, max: usize| -> Result<usize> {
        words
            .get(i)
            .map_or(Ok(default), |t| number_in(what, t, 1..=max))
    };
    Ok(Config {
        opponent,
        other_eval,
        nodes: number(1, "node count", 20_000, usize::MAX)? as u64,
        // Games at a node limit repeat exactly, so a second pair of an opening adds nothing.
        pairs: number(2, "pair count", openings, openings)?,
        threads: number(3, "thread count", 2, chuhan::engine::MAX_THREADS)?,
    })
}

/// An engine with a small hash table (several play at once): the full one, or its opponent with
/// a feature off or other evaluation tables.
fn engine(config: &Config, full: bool) -> Result<Engine> {
    let mut e = Engine::new();
    e.set_hash_mb(16).map_err(anyhow::Error::msg)?;
    if full {
        return Ok(e);
    }
    if let Some(tables) = &config.other_eval {
        e.options.search.eval = Some(Arc::clone(tables));
    } else if config.opponent != "none" {
        e.options.search.features.disable(&config.opponent);
    }
    Ok(e)
}

/// The full engine's points in each game of a pair from `opening`, colours swapped.
fn pair(full: &mut Engine, other: &mut Engine, opening: &Opening, nodes: u64) -> Result<[f64; 2]> {
    let cfg = Playout {
        nodes,
        max_plies: usize::MAX,
        win: None,
    };
    let red_points = |o: Outcome| match o {
        Outcome::RedWins => 1.0,
        Outcome::Draw => 0.5,
        Outcome::BlackWins => 0.0,
    };
    let first = play_between(full, other, opening, &cfg, &mut |_, _| {})?;
    let second = play_between(other, full, opening, &cfg, &mut |_, _| {})?;
    Ok([red_points(first.outcome), 1.0 - red_points(second.outcome)])
}

/// Play `config.pairs` pairs on `config.threads` threads; the full engine's tally.
fn run(config: &Config, openings: &[Opening]) -> Result<Tally> {
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..config.threads {
            s.spawn(|| {
                let fail = |e| *failure.lock().unwrap() = Some(e);
                let (mut full, mut other) = match (engine(config, true), engine(config, false)) {
                    (Ok(full), Ok(other)) => (full, other),
                    (Err(e), _) | (_, Err(e)) => return fail(e),
                };
                while failure.lock().unwrap().is_none() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.pairs {
                        break;
                    }
                    match pair(&mut full, &mut other, &openings[i], config.nodes) {
                        Ok([a, b]) => {
                            let mut t = tally.lock().unwrap();
                            t.add_game(a);
                            t.add_game(b);
                            t.add_pair(a + b);
                            let (w, d, l) = (t.wins, t.draws, t.losses);
                            eprintln!("{} games: +{w} ={d} -{l}", t.games());
                        }
                        Err(e) => fail(e),
                    }
                }
            });
        }
    });
    match failure.into_inner().unwrap() {
        Some(e) => Err(e),
        None => Ok(tally.into_inner().unwrap()),
    }
}

fn main() -> ExitCode {
    let openings = openings::load(None).expect("the built-in opening set");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args, openings.len()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("selfplay: {e:#}");
            return ExitCode::from(2);
        }
    };
    let t = match run(&config, &openings) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("selfplay: {e:#}");
            return ExitCode::FAILURE;
        }
    };
    let label = if config.other_eval.is_some() {
        format!("built-in vs {}", config.opponent)
    } else {
        format!("full vs no-{}", config.opponent)
    };
    let elo = match t.elo_pentanomial() {
        Some(e) => format!(
            "Elo {:+.1} ± {:.1} (95 %, pentanomial), LOS {:.1} %",
            e.elo,
            e.error,
            e.los * 100.0
        ),
        None => "Elo -".into(),
    };
    println!(
        "{label} at {} nodes: {} games +{} ={} -{}, score {:.3}, {elo}, pentanomial {:?}",
        config.nodes,
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.score(),
        t.penta
    );
    ExitCode::SUCCESS
}
