//! `chuhan tune`: where the evaluation's numbers come from.
//!
//! - `gen` plays fast self-play games (a few thousand nodes a move) from the default opening set
//!   plus a couple of random but sound plies, rules them with `rules::adjudicate` (Chinese rules)
//!   or calls them drawn at a length limit, and writes every quiet position of each game with the
//!   game's result, one per line: `FEN;result` (1, 0.5 or 0 for Red). Quiet = not in check and
//!   no capture sequence changes the static evaluation (a small capture-only search agrees with
//!   it), so the evaluation is judged on positions it is meant to score.
//! - `fit` is the Texel method: with E the evaluation for Red and
//!   `sigmoid(E) = 1 / (1 + 10^(-K E / 400))`, minimise the mean squared error between the
//!   results and `sigmoid(E)` over the positions. K is fitted first, with the current parameters,
//!   then held; every number of `Params` is then adjusted by gradient descent on the
//!   evaluation's linear model (`linear.rs`), under a prior chosen by the held-out loss. The last
//!   tenth of the file (whole games, as the generator writes them in order) is held out and its
//!   loss reported, to show the fit generalises.
//!
//! - `label` distils the shipped network into the data: each position's game result becomes a
//!   blend of that result and what the network expects of the position, `sigmoid(N / 400)` of
//!   its score N for Red (the reading its training gave its scores). One game result says little
//!   about one position; the network, far stronger than the hand-written evaluation, says much.
//!
//! Parameter sets are read and written in the text format of `eval/params.rs` (`name = value`
//! lines): `fit` starts from such a file and prints the tuned set in it, and self-play can pit two
//! such files against each other.

use crate::board::movegen::{legal_captures, legal_moves};
use crate::board::position::Position;
use crate::board::rng::Rng;
use crate::board::types::{Color, Value};
use crate::engine::openings::{self, Opening};
use crate::engine::Engine;
use crate::eval::nnue::{self, Accumulator};
use crate::eval::{default_tables, evaluate_with, Params, Tables};
use crate::rules::{adjudicate, Outcome, RuleSet};
use crate::tools::args::{self, Args};
use crate::tools::selfplay::{play_out, Playout};
use crate::tools::train::data::sigmoid as network_sigmoid;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, Write};

mod linear;
use linear::LinearModel;

/// The tunable numbers of `p`, in [`Params::for_each`] order.
pub fn values(p: &Params) -> Vec<i32> {
    let mut v = Vec::new();
    p.clone().for_each(|_, x| v.push(*x));
    v
}

/// `p` with its tunable numbers replaced by `v` (in [`Params::for_each`] order).
pub fn with_values(p: &Params, v: &[i32]) -> Params {
    let mut out = p.clone();
    let mut v = v.iter();
    out.for_each(|_, x| *x = *v.next().expect("one value per number"));
    out
}

/// Deepest capture sequence the quietness test follows.
const QS_PLIES: usize = 8;

/// A capture-only search (stand pat allowed, checks ignored): what the side to move can win by
/// captures. Used to tell quiet positions and to keep random opening plies sound.
fn capture_search(
    pos: &mut Position,
    mut alpha: Value,
    beta: Value,
    t: &Tables,
    ply: usize,
) -> Value {
    let stand = evaluate_with(pos, t);
    if stand >= beta || ply >= QS_PLIES {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut best = stand;
    for m in legal_captures(pos).as_slice() {
        pos.make_move(*m);
        let v = -capture_search(pos, -beta, -alpha, t, ply + 1);
        pos.unmake_move();
        if v > best {
            best = v;
            if v >= beta {
                break;
            }
            alpha = alpha.max(v);
        }
    }
    best
}

/// Quiet: not in check, and no capture sequence changes the static evaluation.
pub fn is_quiet(pos: &Position, t: &Tables) -> bool {
    if pos.in_check() {
        return false;
    }
    let mut p = pos.clone();
    capture_search(&mut p, -30_000, 30_000, t, 0) == evaluate_with(pos, t)
}

/// How `chuhan tune gen` plays its games.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Games to play.
    pub games: usize,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Seed of the opening choice and the random plies (same seed, same games).
    pub seed: u64,
    /// Random plies after the book line, among the moves that lose at most `RANDOM_MARGIN`.
    pub random_plies: usize,
    /// Positions of the first plies of a game (book and random ones included) are not written.
    pub skip_plies: usize,
    /// A game still going after this many plies is called a draw.
    pub max_plies: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            games: 100,
            nodes: 3000,
            seed: 1,
            random_plies: 2,
            skip_plies: 10,
            max_plies: 300,
        }
    }
}

/// A random ply may lose at most this much against the best capture-search reply.
const RANDOM_MARGIN: Value = 40;

/// What `gen` produced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GenStats {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Red wins, draws, Black wins.
    pub wdl: [usize; 3],
}

fn result_text(r: f64) -> &'static str {
    if r == 1.0 {
        "1"
    } else if r == 0.0 {
        "0"
    } else {
        "0.5"
    }
}

/// Play `cfg.games` self-play games and write their quiet positions to `out` as `FEN;result`.
/// `progress` is called after each game.
pub fn generate_games(
    cfg: &GenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&GenStats),
) -> Result<GenStats> {
    let book = openings::load(None).map_err(anyhow::Error::msg)?;
    let mut engine = Engine::new();
    engine.set_hash_mb(16).map_err(anyhow::Error::msg)?;
    // The games of the evaluation being tuned, as they always were.
    engine.set_use_network(false);
    let tables = default_tables();
    let mut stats = GenStats::default();
    for game in 0..cfg.games {
        let mut rng = Rng::new(cfg.seed.wrapping_mul(0x1000_0000_01B3) ^ game as u64);
        let opening = &book[rng.below(book.len())];
        let (fens, result) = play_game(&mut engine, opening, cfg, &mut rng, tables)?;
        for fen in &fens {
            writeln!(out, "{fen};{}", result_text(result))?;
        }
        stats.games += 1;
        stats.positions += fens.len();
        stats.wdl[if result == 1.0 {
            0
        } else if result == 0.5 {
            1
        } else {
            2
        }] += 1;
        progress(&stats);
    }
    out.flush()?;
    Ok(stats)
}

/// One game: the quiet positions met and the result for Red.
fn play_game(
    engine: &mut Engine,
    opening: &Opening,
    cfg: &GenConfig,
    rng: &mut Rng,
    tables: &Tables,
) -> Result<(Vec<String>, f64)> {
    let mut start = opening.clone();
    let mut pos = start.position();
    for _ in 0..cfg.random_plies {
        // A game over (or long enough) already is ruled by `play_out` at once.
        if pos.game_ply() >= cfg.max_plies || adjudicate(&pos, RuleSet::Chinese).is_some() {
            break;
        }
        let m = sound_random_move(&mut pos, rng, tables);
        pos.make_move(m);
        start.moves.push(m);
    }
    let playout = Playout {
        nodes: cfg.nodes,
        max_plies: cfg.max_plies,
        win: None,
    };
    let mut fens = Vec::new();
    let ending = play_out(engine, &start, &playout, &mut |pos, _| {
        if pos.game_ply() >= cfg.skip_plies && is_quiet(pos, tables) {
            fens.push(pos.to_fen());
        }
    })?;
    let result = match ending.outcome {
        Outcome::RedWins => 1.0,
        Outcome::Draw => 0.5,
        Outcome::BlackWins => 0.0,
    };
    Ok((fens, result))
}

/// A random legal move among those within `RANDOM_MARGIN` of the best by capture search, so the
/// openings vary without handing material away.
fn sound_random_move(pos: &mut Position, rng: &mut Rng, t: &Tables) -> crate::board::types::Move {
    let moves = legal_moves(pos);
    let scored: Vec<(crate::board::types::Move, Value)> = moves
        .as_slice()
        .iter()
        .map(|&m| {
            pos.make_move(m);
            let v = -capture_search(pos, -30_000, 30_000, t, 0);
            pos.unmake_move();
            (m, v)
        })
        .collect();
    let best = scored.iter().map(|s| s.1).max().unwrap_or(0);
    let ok: Vec<_> = scored
        .iter()
        .filter(|s| s.1 >= best - RANDOM_MARGIN)
        .collect();
    ok[rng.below(ok.len())].0
}

/// One training position.
#[derive(Clone)]
pub struct Sample {
    /// The position (no history).
    pub pos: Position,
    /// What the fit should predict for Red: the game's result (1, 0.5 or 0), or a soft target
    /// in between (`label`).
    pub result: f64,
}

/// Read `FEN;result` lines (blank lines and `#` comments skipped); a result is 1, 0.5, 0 or,
/// as `label` writes them, any number from 0 to 1. Errors name the line.
pub fn read_samples(input: impl BufRead) -> Result<Vec<Sample>> {
    let mut out = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.with_context(|| format!("line {}: cannot read", i + 1))?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, result) = line
            .rsplit_once(';')
            .with_context(|| format!("line {}: expected 'FEN;result', got '{line}'", i + 1))?;
        let result = match result.trim().parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => r,
            _ => bail!(
                "line {}: result must be a number from 0 to 1, got '{}'",
                i + 1,
                result.trim()
            ),
        };
        let pos = Position::from_fen(fen.trim())
            .map_err(|e| anyhow::anyhow!("line {}: bad FEN '{fen}': {e}", i + 1))?;
        // A clone keeps only the history in use (the parser reserves room for a game).
        out.push(Sample {
            pos: pos.clone(),
            result,
        });
    }
    Ok(out)
}

/// [`read_samples`] of the file at `path`; errors name the file.
fn read_sample_file(path: &str) -> Result<Vec<Sample>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open '{path}'"))?;
    read_samples(std::io::BufReader::new(file)).with_context(|| format!("in '{path}'"))
}

/// The evaluation from Red's point of view.
pub fn eval_red(pos: &Position, t: &Tables) -> Value {
    let v = evaluate_with(pos, t);
    if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }
}

fn sigmoid(k: f64, e: Value) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e as f64 / 400.0))
}

/// Parts the loss is summed in, each on a thread of its own: fixed, so the sum (and the fit)
/// is the same on every machine.
const LOSS_PARTS: usize = 4;

/// `f` of `parts` consecutive ranges that together cover `0..n` (fewer where `n` is small),
/// each on a thread of its own; the results in order.
fn in_parts<R: Send>(
    n: usize,
    parts: usize,
    f: impl Fn(std::ops::Range<usize>) -> R + Sync,
) -> Vec<R> {
    let size = n.div_ceil(parts.max(1)).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..n)
            .step_by(size)
            .map(|lo| scope.spawn(move || f(lo..(lo + size).min(n))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a part cannot panic"))
            .collect()
    })
}

/// Mean squared error of the predictions over the samples.
pub fn loss(samples: &[Sample], t: &Tables, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sums = in_parts(samples.len(), LOSS_PARTS, |range| -> f64 {
        samples[range]
            .iter()
            .map(|s| (s.result - sigmoid(k, eval_red(&s.pos, t))).powi(2))
            .sum()
    });
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// What the shipped network expects of `pos` for Red, from 0 (a loss) to 1 (a win):
/// `sigmoid(N / 400)` of its score N for Red, as its training read its targets.
pub fn network_expectation(pos: &Position) -> f64 {
    let net = nnue::built_in();
    let stm = pos.side_to_move();
    let score = net.evaluate(&Accumulator::refresh(net, pos), stm);
    let red = if stm == Color::Red { score } else { -score };
    f64::from(network_sigmoid(red as f32 / nnue::SCALE as f32))
}

/// The soft target of a sample: `result_weight` of its result, the rest the network's
/// expectation ([`network_expectation`]).
pub fn soft_target(s: &Sample, result_weight: f64) -> f64 {
    result_weight * s.result + (1.0 - result_weight) * network_expectation(&s.pos)
}

/// The K minimising the loss with the given tables: a scan, then two finer scans around the
/// best (K in 0.01..=4.0; the loss is smooth and has one minimum there).
pub fn fit_k(samples: &[Sample], t: &Tables) -> f64 {
    let evals: Vec<(Value, f64)> = samples
        .iter()
        .map(|s| (eval_red(&s.pos, t), s.result))
        .collect();
    let err = |k: f64| -> f64 {
        evals
            .iter()
            .map(|&(e, r)| (r - sigmoid(k, e)).powi(2))
            .sum::<f64>()
    };
    let (mut best, mut step) = (1.0, 0.1);
    let (mut lo, mut hi) = (0.01, 4.0);
    for _ in 0..3 {
        let mut best_err = f64::INFINITY;
        let mut k = lo;
        while k <= hi + 1e-12 {
            let e = err(k);
            if e < best_err {
                best_err = e;
                best = k;
            }
            k += step;
        }
        lo = (best - step).max(0.001);
        hi = best + step;
        step /= 10.0;
    }
    best
}

/// Weights of the prior that holds each number near its starting value, tried in turn; `fit`
/// keeps the one whose result predicts the held-out positions best. A fit of 45 numbers on 190k
/// positions of game results at no prior ran away (a rook worth 2168 in the endgame, connected
/// pawns -229) and lost 97 ± 47 Elo against the hand-set values: numbers of rare terms chase
/// noise. Soft targets (`label`) carry far less noise and can take a weaker prior.
pub const PRIORS: [f64; 5] = [2e-4, 2e-5, 2e-6, 2e-7, 2e-8];

/// Every tunable number of `p` times `c`, rounded: the same evaluation in other units.
pub fn scaled(p: &Params, c: f64) -> Params {
    let v: Vec<i32> = values(p)
        .iter()
        .map(|&x| (x as f64 * c).round() as i32)
        .collect();
    with_values(p, &v)
}

fn mean_abs_eval(samples: &[Sample], t: &Tables) -> f64 {
    samples
        .iter()
        .map(|s| f64::from(eval_red(&s.pos, t).abs()))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// What `fit` found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The scaling constant of the sigmoid, fitted to the starting parameters.
    pub k: f64,
    /// K refitted to the tuned (and rescaled) parameters.
    pub k_after: f64,
    /// The prior weight kept (of [`PRIORS`]).
    pub prior: f64,
    /// Training and held-out loss before.
    pub before: (f64, f64),
    /// Training and held-out loss after (at `k_after`).
    pub after: (f64, f64),
    /// Positions used for training and held out.
    pub sizes: (usize, usize),
    /// The tuned parameters.
    pub params: Params,
}

/// Fit K with `start`, then tune: the first nine tenths of `samples` train, the last tenth is
/// held out. The linear model is measured once; each prior of [`PRIORS`] gets a descent of
/// `steps` steps, and the result with the lowest held-out loss (by the real evaluation) wins. At
/// a fixed K the fit is free to change the scale of the whole evaluation (a sharper evaluation
/// predicts better), but the search's margins are in the old units, so the result is scaled
/// back to the starting parameters' mean absolute evaluation and K refitted.
pub fn fit(
    samples: &[Sample],
    start: &Params,
    steps: usize,
    log: &mut dyn FnMut(&str),
) -> FitReport {
    let split = samples.len() - samples.len() / 10;
    let (train, test) = samples.split_at(split);
    let old = Tables::new(start.clone());
    let k = fit_k(train, &old);
    let before = (loss(train, &old, k), loss(test, &old, k));
    log(&format!(
        "{} training positions, {} held out, {} numbers; K = {k:.3}; loss {:.6} (held out {:.6})",
        train.len(),
        test.len(),
        values(start).len(),
        before.0,
        before.1
    ));
    let model = LinearModel::measure(train, start, LOSS_PARTS);
    let mut best: Option<(f64, f64, Params)> = None;
    for prior in PRIORS {
        log(&format!("prior {prior:e}:"));
        let tuned = with_values(start, &model.descend(k, steps, prior, log));
        let held_out = loss(test, &Tables::new(tuned.clone()), k);
        log(&format!("prior {prior:e}: held-out loss {held_out:.6}"));
        if best.as_ref().is_none_or(|b| held_out < b.0) {
            best = Some((held_out, prior, tuned));
        }
    }
    let (_, prior, tuned) = best.expect("at least one prior");
    let c = mean_abs_eval(train, &old) / mean_abs_eval(train, &Tables::new(tuned.clone()));
    log(&format!(
        "prior {prior:e} kept; scaled by {c:.3} back to the starting units"
    ));
    let params = scaled(&tuned, c);
    let new = Tables::new(params.clone());
    let k_after = fit_k(train, &new);
    let after = (loss(train, &new, k_after), loss(test, &new, k_after));
    FitReport {
        k,
        k_after,
        prior,
        before,
        after,
        sizes: (train.len(), test.len()),
        params,
    }
}

/// `chuhan tune …` usage.
pub const USAGE: &str = "usage: chuhan tune gen <games> <out> [nodes] [seed]
       chuhan tune label <data> <out> [result-percent]
       chuhan tune fit <data> [steps] [start-params-file]
  gen: self-play games at <nodes> per move (default 3000), quiet positions as 'FEN;result' lines
  label: each result becomes result-percent (default 25) of itself plus the rest of what the
       shipped network expects of the position, written as 'FEN;target' (0 to 1)
  fit: Texel tuning of the evaluation on such a file by <steps> gradient steps (default
       1500) per prior, from the built-in parameters or from start-params-file ('name = value'
       lines); prints the tuned set in that format";

/// `chuhan tune` with its arguments (after `tune`).
pub fn run(words: &[String], stdout: &mut dyn Write) -> Result<()> {
    let args = Args::new(words, USAGE).words()?;
    let number = |i: usize, what: &str, default: u64| -> Result<u64> {
        args.get(i)
            .map_or(Ok(default), |t| args::number_in(what, t, 1..))
    };
    match args.first().copied() {
        Some("gen") => {
            if !(3..=5).contains(&args.len()) {
                bail!("{USAGE}");
            }
            let games = number(1, "game count", 0)? as usize;
            let cfg = GenConfig {
                games,
                nodes: number(3, "node count", 3000)?,
                seed: number(4, "seed", 1)?,
                ..GenConfig::default()
            };
            let path = args[2];
            let file =
                std::fs::File::create(path).with_context(|| format!("cannot create '{path}'"))?;
            let mut out = std::io::BufWriter::new(file);
            let stats = generate_games(&cfg, &mut out, &mut |s| {
                if s.games % 10 == 0 || s.games == games {
                    eprintln!(
                        "{} games (+{} ={} -{} for Red), {} positions",
                        s.games, s.wdl[0], s.wdl[1], s.wdl[2], s.positions
                    );
                }
            })?;
            writeln!(
                stdout,
                "wrote {} positions from {} games to {path}",
                stats.positions, stats.games
            )?;
        }
        Some("label") => {
            if !(3..=4).contains(&args.len()) {
                bail!("{USAGE}");
            }
            let percent: u8 = match args.get(3) {
                None => 25,
                Some(t) => args::number_in("result-percent", t, 0..=100)?,
            };
            let (path, out_path) = (args[1], args[2]);
            let samples = read_sample_file(path)?;
            let file = std::fs::File::create(out_path)
                .with_context(|| format!("cannot create '{out_path}'"))?;
            let mut out = std::io::BufWriter::new(file);
            let weight = f64::from(percent) / 100.0;
            for s in &samples {
                writeln!(out, "{};{:.4}", s.pos.to_fen(), soft_target(s, weight))?;
            }
            out.flush()?;
            writeln!(
                stdout,
                "wrote {} positions to {out_path}: {percent} % result, the rest the network",
                samples.len()
            )?;
        }
        Some("fit") => {
            if !(2..=4).contains(&args.len()) {
                bail!("{USAGE}");
            }
            let steps = number(2, "step count", 1500)? as usize;
            let start = match args.get(3) {
                None => Params::default(),
                Some(f) => Params::load(f).map_err(anyhow::Error::msg)?,
            };
            let path = args[1];
            let samples = read_sample_file(path)?;
            if samples.len() < 10 {
                bail!(
                    "'{path}' holds {} positions; at least 10 are needed",
                    samples.len()
                );
            }
            let r = fit(&samples, &start, steps, &mut |l| eprintln!("{l}"));
            eprintln!(
                "K = {:.3} -> {:.3}; loss {:.6} -> {:.6}; held out {:.6} -> {:.6}",
                r.k, r.k_after, r.before.0, r.after.0, r.before.1, r.after.1
            );
            writeln!(
                stdout,
                "# chuhan tune {}: {} training positions, {} held out, prior {:e};\n\
                 # K {:.3} -> {:.3}; loss {:.6} -> {:.6}, held out {:.6} -> {:.6}",
                words.join(" "),
                r.sizes.0,
                r.sizes.1,
                r.prior,
                r.k,
                r.k_after,
                r.before.0,
                r.after.0,
                r.before.1,
                r.after.1
            )?;
            write!(stdout, "{}", r.params.to_text())?;
        }
        _ => bail!("{USAGE}"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Score;

    #[test]
    fn values_round_trip_in_visitor_order() {
        let p = Params::default();
        let v = values(&p);
        assert_eq!(v.len(), Params::names().len());
        assert_eq!(with_values(&p, &v), p);
        // The first number is the advisor's middlegame material, the last the pawn's endgame
        // offset on e9 (the highest point of the last table).
        let mut w = v.clone();
        w[0] = 7;
        *w.last_mut().unwrap() = -3;
        let q = with_values(&p, &w);
        assert_eq!(q.material[1].0, 7);
        assert_eq!(q.pst_pawn.0[9][4], Score(p.pst_pawn.0[9][4].0, -3));
    }

    #[test]
    fn loss_decreases_on_synthetic_data() {
        // Red is a rook up and wins, or a cannon up and mostly wins; level positions are drawn.
        // Start from absurd material values: the search must move them toward the data.
        let lines = [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1.0),
            ("3k5/9/9/9/9/9/9/9/9/R3K4 b", 1.0),
            ("4k4/9/9/9/9/9/9/9/9/3KR4 b", 1.0),
            ("3k5/9/9/9/9/9/9/9/4A4/2C1K4 w", 1.0),
            ("3k5/9/9/9/9/9/9/9/4A4/2C1K4 b", 0.5),
            ("3ak4/9/9/9/9/9/9/9/4A4/4K4 w", 0.5),
            ("3ak4/9/9/9/9/9/9/9/4A4/4K4 b", 0.5),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 b", 0.0),
            ("3k5/9/9/9/9/9/9/9/9/R3K2r1 w", 0.5),
        ];
        let samples: Vec<Sample> = lines
            .iter()
            .map(|(f, r)| Sample {
                pos: Position::from_fen(f).unwrap(),
                result: *r,
            })
            .collect();
        let mut start = Params::default();
        start.material[4] = Score(10, 10);
        start.material[5] = Score(900, 900);
        let t = Tables::new(start.clone());
        let k = fit_k(&samples, &t);
        let before = loss(&samples, &t, k);
        let model = LinearModel::measure(&samples, &start, LOSS_PARTS);
        let tuned = with_values(&start, &model.descend(k, 200, PRIORS[0], &mut |_| {}));
        let after = loss(&samples, &Tables::new(tuned.clone()), k);
        assert!(after < before, "{after} < {before}");
        assert!(tuned.material[4].1 > 10, "the rook gained value");
    }

    #[test]
    fn generator_writes_fens_with_results() {
        let cfg = GenConfig {
            games: 2,
            nodes: 300,
            seed: 7,
            random_plies: 2,
            skip_plies: 6,
            max_plies: 40,
        };
        let mut out = Vec::new();
        let stats = generate_games(&cfg, &mut out, &mut |_| {}).unwrap();
        assert_eq!(stats.games, 2);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), stats.positions);
        assert!(stats.positions > 0);
        let samples = read_samples(text.as_bytes()).unwrap();
        assert_eq!(samples.len(), stats.positions);
        let t = default_tables();
        for s in &samples {
            assert!([0.0, 0.5, 1.0].contains(&s.result));
            assert!(is_quiet(&s.pos, t));
        }
        // Same seed, same games.
        let mut again = Vec::new();
        generate_games(&cfg, &mut again, &mut |_| {}).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text);
    }

    #[test]
    fn loss_in_parts_is_the_plain_mean() {
        let samples: Vec<Sample> = [
            ("3k5/9/9/9/9/9/9/9/9/R3K4 w", 1.0),
            ("3k5/9/9/9/9/9/9/9/4A4/2C1K4 b", 0.75),
            ("3ak4/9/9/9/9/9/9/9/4A4/4K4 w", 0.5),
            ("r2k5/9/9/9/9/9/9/9/9/4K4 w", 0.0),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                0.5,
            ),
        ]
        .iter()
        .map(|(f, r)| Sample {
            pos: Position::from_fen(f).unwrap(),
            result: *r,
        })
        .collect();
        let t = default_tables();
        let plain = samples
            .iter()
            .map(|s| (s.result - sigmoid(0.5, eval_red(&s.pos, t))).powi(2))
            .sum::<f64>()
            / samples.len() as f64;
        assert!((loss(&samples, t, 0.5) - plain).abs() < 1e-12);
        assert!(plain > 0.0);
    }

    #[test]
    fn the_network_target_follows_material_and_the_blend() {
        let sample = |fen: &str, result: f64| Sample {
            pos: Position::from_fen(fen).unwrap(),
            result,
        };
        // Red a rook up, whoever moves; Black a rook up; the start.
        let red_up = sample("3k5/9/9/9/9/9/9/9/9/R3K4 b", 0.0);
        let black_up = sample("r2k5/9/9/9/9/9/9/9/9/4K4 w", 1.0);
        let start = sample(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
            0.5,
        );
        // How sure the network is depends on the one built in (r6b: 0.90 here, r5f a little
        // more); a sign or side slip would put a rook up below a half.
        let e = network_expectation(&red_up.pos);
        assert!(e > 0.8, "{e}");
        assert!(network_expectation(&black_up.pos) < 0.2);
        assert!((network_expectation(&start.pos) - 0.5).abs() < 0.15);
        // The blend: all result, all network, and a quarter of the result.
        assert_eq!(soft_target(&red_up, 1.0), 0.0);
        assert!((soft_target(&red_up, 0.0) - e).abs() < 1e-12);
        assert!((soft_target(&red_up, 0.25) - 0.75 * e).abs() < 1e-12);
    }

    #[test]
    fn label_writes_soft_targets_that_fit_reads() {
        let dir = std::env::temp_dir().join(format!("chuhan-label-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (input, output) = (dir.join("in.txt"), dir.join("out.txt"));
        std::fs::write(
            &input,
            "3k5/9/9/9/9/9/9/9/9/R3K4 w;0.5\nr2k5/9/9/9/9/9/9/9/9/4K4 w;0\n",
        )
        .unwrap();
        let arg = |p: &std::path::Path| p.to_str().unwrap().to_string();
        let args = vec!["label".into(), arg(&input), arg(&output), "50".into()];
        let mut said = Vec::new();
        run(&args, &mut said).unwrap();
        let text = std::fs::read_to_string(&output).unwrap();
        let samples = read_samples(text.as_bytes()).unwrap();
        assert_eq!(samples.len(), 2);
        // Half of a draw plus half of a won position; half of a loss plus half of a lost one:
        // the network's expectations, written to four decimals.
        let (won, lost) = (
            network_expectation(&samples[0].pos),
            network_expectation(&samples[1].pos),
        );
        assert!(won > 0.8 && lost < 0.2, "{won} {lost}");
        for (s, want) in samples.iter().zip([0.5 * 0.5 + 0.5 * won, 0.5 * lost]) {
            assert!((s.result - want).abs() < 1e-4, "{} {want}", s.result);
        }
        assert_eq!(
            samples[0].pos.to_fen(),
            Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w")
                .unwrap()
                .to_fen()
        );
        for bad in ["101", "-1", "x"] {
            let args = vec!["label".into(), arg(&input), arg(&output), bad.into()];
            assert!(run(&args, &mut said).is_err(), "{bad}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut sink = Vec::new();
        let cases: [&[&str]; 7] = [
            &[],
            &["spin"],
            &["gen", "x", "out.txt"],
            &["gen", "0", "out.txt"],
            &["fit"],
            &["fit", "/nonexistent/data.txt"],
            &["label", "/nonexistent/data.txt", "out.txt"],
        ];
        for args in cases {
            let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            assert!(run(&args, &mut sink).is_err(), "{args:?}");
        }
        assert!(read_samples("rnbakabnr/9 w;1\n".as_bytes()).is_err());
        assert!(read_samples("3k5/9/9/9/9/9/9/9/9/R3K4 w;2\n".as_bytes()).is_err());
        assert!(read_samples("3k5/9/9/9/9/9/9/9/9/R3K4 w\n".as_bytes()).is_err());
        assert!(read_samples("3k5/9/9/9/9/9/9/9/9/R3K4 w;-0.1\n".as_bytes()).is_err());
        assert!(read_samples("3k5/9/9/9/9/9/9/9/9/R3K4 w;NaN\n".as_bytes()).is_err());
        let soft = read_samples("3k5/9/9/9/9/9/9/9/9/R3K4 w;0.7321\n".as_bytes()).unwrap();
        assert_eq!(soft[0].result, 0.7321);
    }
}
