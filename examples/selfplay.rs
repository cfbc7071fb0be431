//! Quick in-process self-play for search ablation: the full engine against one with a search
//! feature switched off, at a fixed node count per move, over paired openings (each opening
//! played twice, colours swapped). With `params=FILE` the opponent is instead the full engine
//! evaluating with the parameters in FILE (`name = value` lines, as `chuhan tune fit` prints
//! them; names left out keep the built-in values), to measure a change of the evaluation's numbers.
//!
//! `cargo run --release --example selfplay -- <feature|none|params=FILE> <nodes> <pairs> [threads]`
//! (defaults: none, 20000 nodes, 54 pairs, 2 threads). Features are the field names of
//! `SearchFeatures` (`lmr`, `null_move`, ...). Prints W/D/L of the full (built-in) engine and its
//! Elo difference with the 95 % error bar.
//!
//! Games are judged by `rules::adjudicate` under the Chinese rules (the 棋例, the 60-move limit),
//! as `chuhan match` judges them, and the statistics are the match runner's. This example exists
//! because `chuhan match` plays engine processes through the protocol, which has no option to
//! switch a search feature off or to load other evaluation parameters.

use chuhan::board::position::Position;
use chuhan::engine::Engine;
use chuhan::eval::{Params, Tables};
use chuhan::rules::{self, Outcome, RuleSet};
use chuhan::search::time::Limits;
use chuhan::tools::match_runner::stats::Tally;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const FIRST: [&str; 12] = [
    "h2e2", "b2e2", "g3g4", "c3c4", "c0e2", "g0e2", "b0c2", "h0g2", "h2d2", "b2f2", "h2g2", "i0i1",
];
const REPLY: [&str; 9] = [
    "h9g7", "b9c7", "h7e7", "b7e7", "g6g5", "c6c5", "c9e7", "g9e7", "h7g7",
];
const RULES: RuleSet = RuleSet::Chinese;

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

/// A numeric argument, or `default` when it is absent.
fn number<T: std::str::FromStr>(arg: Option<&String>, what: &str, default: T) -> Result<T, String> {
    match arg {
        None => Ok(default),
        Some(a) => a.parse().map_err(|_| format!("bad {what} '{a}'")),
    }
}

fn parse_args(args: &[String]) -> Result<Config, String> {
    if args.len() > 4 {
        return Err(format!("too many arguments ({})", args.len()));
    }
    let opponent = args.first().cloned().unwrap_or_else(|| "none".into());
    let other_eval = match opponent.strip_prefix("params=") {
        Some(path) => Some(load_params(path)?),
        None => None,
    };
    if other_eval.is_none()
        && opponent != "none"
        && !chuhan::search::SearchFeatures::default().disable(&opponent)
    {
        return Err(format!("unknown feature '{opponent}'"));
    }
    let config = Config {
        opponent,
        other_eval,
        nodes: number(args.get(1), "node count", 20_000)?,
        pairs: number(args.get(2), "pair count", 54)?,
        threads: number(args.get(3), "thread count", 2)?,
    };
    let openings = FIRST.len() * REPLY.len();
    if config.nodes == 0 || config.pairs == 0 || config.threads == 0 {
        return Err("nodes, pairs and threads must be at least 1".into());
    }
    // Games at a node limit repeat exactly, so a second pair of an opening adds nothing.
    if config.pairs > openings {
        return Err(format!("at most {openings} pairs (one per opening)"));
    }
    Ok(config)
}

/// The evaluation tables of a parameter file: the one place this example reads one.
fn load_params(path: &str) -> Result<Arc<Tables>, String> {
    let params = Params::load(path).map_err(|e| e.to_string())?;
    Ok(Arc::new(Tables::new(params)))
}

/// An engine as the opponent of the full one: a feature off, or other evaluation tables.
fn opponent(config: &Config) -> Result<Engine, String> {
    let mut e = small_engine()?;
    if let Some(tables) = &config.other_eval {
        e.options.search.eval = Some(Arc::clone(tables));
    } else if config.opponent != "none" {
        e.options.search.features.disable(&config.opponent);
    }
    Ok(e)
}

/// An engine with a small hash table: cleared before every game, and several play at once.
fn small_engine() -> Result<Engine, String> {
    let mut e = Engine::new();
    e.set_hash_mb(16)?;
    Ok(e)
}

/// Play one game from `opening` until the referee ends it; Red's points (1, ½ or 0).
fn play(
    red: &mut Engine,
    black: &mut Engine,
    opening: [&str; 2],
    nodes: u64,
) -> Result<f64, String> {
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for m in opening {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("opening move {m}: {e}"))?;
        pos.make_move(mv);
        moves.push(m.to_string());
    }
    red.clear_hash();
    black.clear_hash();
    loop {
        if let Some(ruling) = rules::adjudicate(&pos, RULES) {
            return Ok(match ruling.outcome {
                Outcome::RedWins => 1.0,
                Outcome::Draw => 0.5,
                Outcome::BlackWins => 0.0,
            });
        }
        let engine = if pos.side_to_move() == chuhan::board::types::Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        engine
            .set_position(None, &moves)
            .map_err(|e| e.to_string())?;
        let result = engine.search_sync(Limits {
            nodes: Some(nodes),
            ..Limits::default()
        });
        let m = result.best.ok_or_else(|| {
            format!(
                "no move after {} where the referee saw one",
                moves.join(" ")
            )
        })?;
        pos.make_move(m);
        moves.push(m.to_string());
    }
}

/// Play `config.pairs` pairs on `config.threads` threads; the full engine's tally.
fn run(config: &Config) -> Result<Tally, String> {
    let openings: Vec<[&str; 2]> = FIRST
        .iter()
        .flat_map(|a| REPLY.iter().map(move |b| [*a, *b]))
        .collect();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let failure: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..config.threads {
            s.spawn(|| {
                let engines = small_engine().and_then(|full| Ok((full, opponent(config)?)));
                let (mut full, mut other) = match engines {
                    Ok(pair) => pair,
                    Err(e) => {
                        *failure.lock().unwrap() = Some(e);
                        return;
                    }
                };
                let pair =
                    |full: &mut Engine, other: &mut Engine, op| -> Result<(f64, f64), String> {
                        let a = play(full, other, op, config.nodes)?;
                        let b = 1.0 - play(other, full, op, config.nodes)?;
                        Ok((a, b))
                    };
                while failure.lock().unwrap().is_none() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.pairs {
                        break;
                    }
                    match pair(&mut full, &mut other, openings[i]) {
                        Ok((a, b)) => {
                            let mut t = tally.lock().unwrap();
                            t.add_game(a);
                            t.add_game(b);
                            t.add_pair(a + b);
                            eprintln!(
                                "{} games: +{} ={} -{}",
                                t.games(),
                                t.wins,
                                t.draws,
                                t.losses
                            );
                        }
                        Err(e) => *failure.lock().unwrap() = Some(e),
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match parse_args(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("selfplay: {e}");
            eprintln!("usage: selfplay <feature|none|params=FILE> <nodes> <pairs> [threads]");
            return ExitCode::from(2);
        }
    };
    let t = match run(&config) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("selfplay: {e}");
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
