//! The match runner (`chuhan match`): games between engines run as child processes, each
//! speaking UCCI, UCI or CECP (xboard), refereed by our own rules, with clocks, openings played
//! twice with colours swapped, N games at once, Elo and SPRT statistics, and PGN output.
//!
//! Files: `cli` (arguments), `engine_process` (spawn, protocol client, timeouts, reaping),
//! `xboard` (what CECP lines mean), `clock` (time controls), `game` (one game loop), `referee`
//! (move checks and rulings, by `crate::rules`), `stats` (Elo, error bars, SPRT), `rating`
//! (rating lists of many players and `chuhan match rate`), `pgn` (writer and reader). Openings come from
//! `crate::engine::openings`, notation from `crate::board::notation`.
//!
//! Data flow: the main thread hands out game numbers; each worker thread owns its engine
//! processes (started once, reused while healthy), plays the game and sends the record back;
//! the main thread alone counts, prints and writes the PGN, so output is never interleaved.
//!
//! An engine that cannot be started would lose every game by forfeit, which measures nothing:
//! every engine is started once before the first game, and a match whose engine cannot be
//! started, or restarted after a fault, or cannot be held to its time control (a CECP engine
//! without `nps` at a node count), stops with an error instead.

pub mod cli;
pub mod clock;
pub mod engine_process;
pub mod game;
pub mod pgn;
pub mod rating;
pub mod referee;
pub mod stats;
pub mod xboard;

use crate::board::notation::Notation;
use crate::board::rng::Rng;
use crate::engine::openings::{self, Opening};
use engine_process::{EngineFault, EngineProcess, EngineSpec};
use game::{GameRecord, GameSettings};
use parking_lot::Mutex;
use stats::{Sprt, SprtVerdict, Tally};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines; every pair meets (round robin), or the first meets each other one
    /// (`gauntlet`).
    pub engines: Vec<EngineSpec>,
    /// Only the first engine against each of the others.
    pub gauntlet: bool,
    /// The part of the schedule this run plays.
    pub shard: Shard,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Opening file (`None`: the built-in set).
    pub openings: Option<PathBuf>,
    /// Shuffle the openings with this seed.
    pub shuffle: Option<u64>,
    /// Games per pairing (rounded up to an even number).
    pub games: Option<usize>,
    /// Games at once.
    pub concurrency: usize,
    /// Sequential test (two engines only).
    pub sprt: Option<Sprt>,
    /// PGN file to append to.
    pub pgn_out: Option<PathBuf>,
    /// PGN move notation.
    pub notation: Notation,
    /// PGN Event tag.
    pub event: String,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: Vec::new(),
            gauntlet: false,
            shard: Shard::WHOLE,
            settings: GameSettings {
                tc: clock::TimeControl::Increment {
                    base_ms: 10_000,
                    inc_ms: 100,
                },
                margin_ms: 100,
                untimed_timeout_ms: game::DEFAULT_UNTIMED_TIMEOUT.as_millis() as u64,
                rules: referee::RuleChoice::Chinese,
                adjudication: game::Adjudication::default(),
            },
            openings: None,
            shuffle: None,
            games: None,
            concurrency: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1),
            sprt: None,
            pgn_out: None,
            notation: Notation::Iccs,
            event: "chuhan match".to_string(),
        }
    }
}

/// Games per pairing when SPRT runs without `-games`.
pub const SPRT_GAME_CAP: usize = 100_000;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    number: usize,
    pairing: usize,
    pair: usize,
    red: usize,
    black: usize,
    opening: usize,
}

/// Most shards a schedule can be cut into.
pub const MAX_SHARDS: usize = 1_000_000;

/// Part `k` of `n` of a schedule (`-shard K/N`): the game pairs `p` (games `2p` and `2p + 1`,
/// one opening with colours swapped) with `p mod n = k - 1`. Every shard computes the same
/// schedule, so shards run anywhere, in any order, play disjoint parts of one tournament, and
/// together exactly its games. The unit is the pair, not the game, so that each shard still
/// plays every opening from both sides: its own Elo has no colour bias and its pentanomial
/// counts are whole pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, from 1.
    pub k: usize,
    /// Parts in all.
    pub n: usize,
}

impl Shard {
    /// The whole schedule.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Parse `K/N` with `1 <= K <= N <= MAX_SHARDS`.
    pub fn parse(text: &str) -> anyhow::Result<Shard> {
        let bad = || {
            anyhow::anyhow!(
                "bad -shard '{text}' (expected K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. 1/4)"
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

/// The schedule: pairs of games (same opening, colours swapped), pairings interleaved; of it,
/// this run plays its shard.
struct Schedule {
    pairings: Vec<(usize, usize)>,
    games_per_pairing: usize,
    openings: usize,
    shard: Shard,
}

impl Schedule {
    /// Games in the whole schedule.
    fn total(&self) -> usize {
        self.games_per_pairing * self.pairings.len()
    }

    /// Games in this run's shard.
    fn shard_games(&self) -> usize {
        let pairs = self.total() / 2;
        // Pairs p < pairs with p mod n = k - 1.
        2 * ((pairs + self.shard.n - self.shard.k) / self.shard.n)
    }

    /// The `c`-th game (from 0) of this run's shard.
    fn job(&self, c: usize) -> Option<Job> {
        let Shard { k, n } = self.shard;
        let pair = (c / 2).checked_mul(n)?.checked_add(k - 1)?;
        self.game(pair.checked_mul(2)?.checked_add(c % 2)?)
    }

    /// Game `i` (from 0) of the whole schedule.
    fn game(&self, i: usize) -> Option<Job> {
        if i >= self.total() {
            return None;
        }
        let block = 2 * self.pairings.len();
        let pair = i / block;
        let pairing = (i % block) / 2;
        let (a, b) = self.pairings[pairing];
        let (red, black) = if i.is_multiple_of(2) { (a, b) } else { (b, a) };
        Some(Job {
            number: i + 1,
            pairing,
            pair,
            red,
            black,
            opening: pair % self.openings,
        })
    }
}

/// The standing of one pairing (from the first engine's view).
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Engine indices (a, b).
    pub engines: (usize, usize),
    /// Results for engine a.
    pub tally: Tally,
    /// Points of a in the first finished game of each unfinished pair.
    open_pairs: HashMap<usize, f64>,
}

/// What a match ended with.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// Engine names.
    pub names: Vec<String>,
    /// Per pairing.
    pub pairings: Vec<PairingStats>,
    /// Games counted.
    pub games: usize,
    /// The SPRT's verdict, if it ran.
    pub sprt: Option<(f64, SprtVerdict)>,
    /// How games ended, by kind.
    pub terminations: BTreeMap<&'static str, usize>,
    /// Every game, in the order they finished.
    pub records: Vec<GameRecord>,
}

/// Set by the Ctrl-C handler so workers stop taking games.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Install the Ctrl-C / SIGTERM handler: kill every engine, say so, exit 130.
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        INTERRUPTED.store(true, Ordering::SeqCst);
        let n = engine_process::kill_all();
        eprintln!("chuhan match: interrupted; killed {n} engine process(es)");
        std::process::exit(130);
    });
}

fn points_line(t: &Tally) -> String {
    format!(
        "W {} D {} L {}  {:.1}/{} [{:.3}]",
        t.wins,
        t.draws,
        t.losses,
        t.points(),
        t.games(),
        t.score()
    )
}

fn elo_text(t: &Tally) -> String {
    let (est, label) = match t.elo_pentanomial() {
        Some(e) if t.pairs() > 0 => (Some(e), "ptnml"),
        _ => (t.elo_trinomial(), "trinomial"),
    };
    match est {
        Some(e) if e.elo.is_finite() && e.error.is_finite() => format!(
            "Elo {} ({label}), LOS {:.1} %",
            elo_with_error(e.elo, e.error, 1),
            e.los * 100.0
        ),
        Some(e) => format!("Elo {}", elo_with_error(e.elo, e.error, 1)),
        None => "Elo -".to_string(),
    }
}

/// Run a match, printing progress to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> anyhow::Result<MatchSummary> {
    if cfg.engines.len() < 2 {
        anyhow::bail!("a match needs at least two engines");
    }
    let mut book: Vec<Opening> =
        openings::load(cfg.openings.as_deref()).map_err(anyhow::Error::msg)?;
    if let Some(seed) = cfg.shuffle {
        Rng::new(seed).shuffle(&mut book);
    }
    let n = cfg.engines.len();
    let pairings: Vec<(usize, usize)> = match cfg.gauntlet {
        true => (1..n).map(|b| (0, b)).collect(),
        false => (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .collect(),
    };
    let per_pairing = match (cfg.games, cfg.sprt) {
        (Some(g), _) => g.max(1).div_ceil(2) * 2,
        (None, Some(_)) => SPRT_GAME_CAP,
        (None, None) => 2 * book.len(),
    };
    let schedule = Schedule {
        pairings: pairings.clone(),
        games_per_pairing: per_pairing,
        openings: book.len(),
        shard: cfg.shard,
    };
    let mut pgn_file = match &cfg.pgn_out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| anyhow::anyhow!("cannot open '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let concurrency = cfg.concurrency.clamp(1, schedule.shard_games().max(1));
    let games = match cfg.shard {
        Shard::WHOLE => format!("{} games", schedule.total()),
        Shard { k, n } => format!(
            "{} games (shard {k}/{n} of {})",
            schedule.shard_games(),
            schedule.total()
        ),
    };
    // The shared clock, then any engine's own (time odds).
    let mut clocks = cfg.settings.tc.describe();
    for e in &cfg.engines {
        if let Some(tc) = e.tc.filter(|&tc| tc != cfg.settings.tc) {
            clocks.push_str(&format!(", {} {}", e.name, tc.describe()));
        }
    }
    let _ = writeln!(
        out,
        "Match: {}{} | {clocks} | {games}, {} at once | {} openings | rules {}",
        names.join(" vs "),
        if cfg.gauntlet { " (gauntlet)" } else { "" },
        concurrency,
        book.len(),
        cfg.settings.rules.name()
    );
    // Every engine once before the first game (the first worker then uses them).
    let mut first_engines = HashMap::new();
    for (idx, spec) in cfg.engines.iter().enumerate() {
        let engine = EngineProcess::start(spec).map_err(|e| {
            anyhow::anyhow!(
                "match aborted: engine '{}' cannot be started: {e}",
                spec.name
            )
        })?;
        let tc = spec.tc.unwrap_or(cfg.settings.tc);
        engine.check_time_control(tc).map_err(|why| {
            anyhow::anyhow!(
                "match aborted: engine '{}' cannot play at {}: {why}",
                spec.name,
                tc.describe()
            )
        })?;
        first_engines.insert(idx, engine);
    }
    let mut first_engines = Some(first_engines);

    let mut summary = MatchSummary {
        names: names.clone(),
        pairings: pairings
            .iter()
            .map(|&p| PairingStats {
                engines: p,
                ..Default::default()
            })
            .collect(),
        games: 0,
        sprt: None,
        terminations: BTreeMap::new(),
        records: Vec::new(),
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let abort: Mutex<Option<String>> = Mutex::new(None);
    let start = Instant::now();
    let date = pgn::today();
    let (tx, rx) = crossbeam_channel::unbounded::<(Job, GameRecord)>();

    let shared = Shared {
        specs: &cfg.engines,
        settings: &cfg.settings,
        book: &book,
        schedule: &schedule,
        next: &next,
        stop: &stop,
        abort: &abort,
    };
    std::thread::scope(|scope| {
        for w in 0..concurrency {
            let tx = tx.clone();
            let shared = &shared;
            let running = first_engines.take().unwrap_or_default();
            std::thread::Builder::new()
                .name(format!("match worker {w}"))
                .spawn_scoped(scope, move || worker(shared, running, &tx))
                .expect("spawn a worker thread");
        }
        drop(tx);
        for (job, rec) in rx.iter() {
            if INTERRUPTED.load(Ordering::SeqCst) {
                // The handler is killing the engines and ends the process: what ends now is
                // no result, and nothing more is printed or written.
                loop {
                    std::thread::park();
                }
            }
            summary.games += 1;
            *summary
                .terminations
                .entry(rec.verdict.termination.label())
                .or_default() += 1;
            let st = &mut summary.pairings[job.pairing];
            let a = st.engines.0;
            let a_color = if job.red == a {
                crate::board::types::Color::Red
            } else {
                crate::board::types::Color::Black
            };
            let pts = rec.verdict.result.points_for(a_color);
            st.tally.add_game(pts);
            if let Some(first) = st.open_pairs.remove(&job.pair) {
                st.tally.add_pair(first + pts);
            } else {
                st.open_pairs.insert(job.pair, pts);
            }
            if let Some(f) = pgn_file.as_mut() {
                let text = pgn::write_game(&rec, &cfg.event, job.number, &date, cfg.notation);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    let _ = writeln!(out, "warning: cannot write the PGN: {e}");
                }
            }
            let mut line = format!(
                "[{}/{}] {} vs {}: {} {{{}}} | {} vs {}: {}, {}",
                summary.games,
                schedule.shard_games(),
                rec.red,
                rec.black,
                rec.verdict.result.pgn(),
                rec.verdict.reason,
                names[st.engines.0],
                names[st.engines.1],
                points_line(&st.tally),
                elo_text(&st.tally)
            );
            if let Some(s) = &cfg.sprt {
                let llr = s.llr_pentanomial(&st.tally.penta);
                let verdict = s.verdict(llr);
                line.push_str(&format!(
                    ", LLR {llr:.2} ({:.2}, {:.2})",
                    s.lower_bound(),
                    s.upper_bound()
                ));
                summary.sprt = Some((llr, verdict));
            }
            let _ = writeln!(out, "{line}");
            summary.records.push(rec);
            if matches!(summary.sprt, Some((_, v)) if v != SprtVerdict::Continue) {
                // Decided: games still in flight are not counted (workers see `stop`).
                stop.store(true, Ordering::SeqCst);
                break;
            }
        }
    });

    print_summary(cfg, &summary, start.elapsed().as_secs_f64(), out);
    match abort.into_inner() {
        Some(why) => Err(anyhow::Error::msg(why)),
        None => Ok(summary),
    }
}

/// What every worker shares.
struct Shared<'a> {
    specs: &'a [EngineSpec],
    settings: &'a GameSettings,
    book: &'a [Opening],
    schedule: &'a Schedule,
    next: &'a AtomicUsize,
    stop: &'a AtomicBool,
    /// Why the match stopped early (an engine that cannot be restarted).
    abort: &'a Mutex<Option<String>>,
}

/// Play games until the schedule runs out or the match stops. `running`: engines already
/// started, by index.
fn worker(
    shared: &Shared,
    mut running: HashMap<usize, EngineProcess>,
    tx: &crossbeam_channel::Sender<(Job, GameRecord)>,
) {
    let Shared {
        specs,
        settings,
        book,
        schedule,
        next,
        stop,
        abort,
    } = *shared;
    loop {
        if stop.load(Ordering::SeqCst) || INTERRUPTED.load(Ordering::SeqCst) {
            return;
        }
        let Some(job) = schedule.job(next.fetch_add(1, Ordering::SeqCst)) else {
            return;
        };
        let opening = &book[job.opening];
        // Every engine started fine before the first game, so a failure here is a restart
        // after a fault: the engine would forfeit every game from here on.
        let cannot_restart = |idx: usize, e: EngineFault| {
            abort.lock().get_or_insert(format!(
                "match aborted: engine '{}' cannot be restarted: {e}",
                specs[idx].name
            ));
            stop.store(true, Ordering::SeqCst);
        };
        let red = take_engine(&mut running, specs, job.red);
        let black = take_engine(&mut running, specs, job.black);
        let (mut red, mut black) = match (red, black) {
            (Ok(r), Ok(b)) => (r, b),
            (Err(e), _) => return cannot_restart(job.red, e),
            (_, Err(e)) => return cannot_restart(job.black, e),
        };
        let (red_name, black_name) = (&specs[job.red].name, &specs[job.black].name);
        let record = game::play_game(
            &mut red, &mut black, red_name, black_name, opening, settings, stop,
        );
        for (idx, e) in [(job.red, red), (job.black, black)] {
            if e.is_healthy() {
                running.insert(idx, e);
            }
        }
        match record {
            Some(rec) => {
                if tx.send((job, rec)).is_err() {
                    return;
                }
            }
            None => return,
        }
    }
}

fn take_engine(
    running: &mut HashMap<usize, EngineProcess>,
    specs: &[EngineSpec],
    idx: usize,
) -> Result<EngineProcess, EngineFault> {
    match running.remove(&idx) {
        Some(e) => Ok(e),
        None => EngineProcess::start(&specs[idx]),
    }
}

/// An Elo estimate and its error bar with `decimals` decimals, in words where either is not
/// finite (a perfect score has no finite estimate; one game has no error bar): the one wording
/// of the running line and the final summary.
fn elo_with_error(elo: f64, error: f64, decimals: usize) -> String {
    // `+ 0.0` turns -0.0 into 0.0, so nothing prints "-0.0".
    if !elo.is_finite() {
        "- (every game won or every game lost)".to_string()
    } else if !error.is_finite() {
        format!("{:+.*} (no error bar)", decimals, elo + 0.0)
    } else {
        format!("{:+.*} ± {:.*}", decimals, elo + 0.0, decimals, error)
    }
}

fn print_summary(cfg: &MatchConfig, s: &MatchSummary, secs: f64, out: &mut dyn Write) {
    let _ = writeln!(out, "\nMatch finished: {} games in {secs:.1} s", s.games);
    for p in &s.pairings {
        let t = &p.tally;
        let _ = writeln!(
            out,
            "{} vs {}: {}",
            s.names[p.engines.0],
            s.names[p.engines.1],
            points_line(t)
        );
        if let Some(e) = t.elo_pentanomial().filter(|_| t.pairs() > 0) {
            let _ = writeln!(
                out,
                "  Elo {} (pentanomial, {} pairs), LOS {:.2} %, Ptnml(0-2) {:?}",
                elo_with_error(e.elo, e.error, 2),
                t.pairs(),
                e.los * 100.0,
                t.penta
            );
            if let Some((ne, ne_err)) = stats::normalized_elo(&t.penta) {
                let _ = writeln!(out, "  nElo {}", elo_with_error(ne, ne_err, 2));
            }
        }
        if let Some(e) = t.elo_trinomial() {
            let _ = writeln!(
                out,
                "  Elo {} (trinomial), LOS(W/L) {:.2} %, draws {:.1} %",
                elo_with_error(e.elo, e.error, 2),
                stats::los_wl(t.wins, t.losses) * 100.0,
                100.0 * t.draws as f64 / t.games().max(1) as f64
            );
        }
    }
    if let (Some(sp), Some((llr, verdict))) = (&cfg.sprt, s.sprt) {
        let what = match verdict {
            SprtVerdict::H0 => "H0 accepted (failed: the change is not worth elo1)",
            SprtVerdict::H1 => "H1 accepted (passed: the change is worth more than elo0)",
            SprtVerdict::Continue => "undecided",
        };
        let _ = writeln!(
            out,
            "SPRT [{}, {}] {:?} alpha {} beta {}: LLR {llr:.2} ({:.2}, {:.2}): {what}",
            sp.elo0,
            sp.elo1,
            sp.model,
            sp.alpha,
            sp.beta,
            sp.lower_bound(),
            sp.upper_bound()
        );
    }
    let ends: Vec<String> = s
        .terminations
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    let _ = writeln!(out, "Terminations: {}", ends.join(", "));
    if s.names.len() > 2 {
        // The rating list of `chuhan match rate`, from the same games.
        let mut table = rating::Crosstable::default();
        for name in &s.names {
            table.player(name);
        }
        for p in &s.pairings {
            table.add(p.engines.0, p.engines.1, &p.tally);
        }
        let _ = match rating::RatingList::compute(&table, rating::Anchor::Mean) {
            Ok(list) => write!(out, "{}", list.text()),
            Err(e) => writeln!(out, "Ratings: {e}"),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_running_elo_never_prints_inf_or_nan() {
        let mut t = Tally::default();
        assert_eq!(elo_text(&t), "Elo -");
        t.add_game(1.0);
        let one_win = elo_text(&t);
        assert!(one_win.starts_with("Elo - (every game won"), "{one_win}");
        t.add_game(0.5);
        let text = elo_text(&t);
        assert!(text.starts_with("Elo +"), "{text}");
        for text in [one_win, text] {
            assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
        }
        // The summary at the end says the same.
        for (elo, error) in [
            (f64::INFINITY, f64::NAN),
            (f64::NEG_INFINITY, f64::INFINITY),
        ] {
            assert_eq!(
                elo_with_error(elo, error, 2),
                "- (every game won or every game lost)"
            );
        }
        assert_eq!(elo_with_error(-0.0, f64::NAN, 2), "+0.00 (no error bar)");
        assert_eq!(elo_with_error(12.5, 3.25, 2), "+12.50 ± 3.25");
        assert_eq!(elo_with_error(12.54, 3.26, 1), "+12.5 ± 3.3");
    }

    #[test]
    fn schedule_pairs_colours_and_openings() {
        let s = Schedule {
            pairings: vec![(0, 1), (0, 2), (1, 2)],
            games_per_pairing: 4,
            openings: 5,
            shard: Shard::WHOLE,
        };
        assert_eq!(s.total(), 12);
        assert_eq!(s.shard_games(), 12);
        let jobs: Vec<Job> = (0..12).map(|i| s.job(i).unwrap()).collect();
        assert!(s.job(12).is_none());
        // Games 1 and 2: pairing 0, same opening, colours swapped.
        assert_eq!((jobs[0].red, jobs[0].black), (0, 1));
        assert_eq!((jobs[1].red, jobs[1].black), (1, 0));
        assert_eq!(jobs[0].opening, jobs[1].opening);
        assert_eq!(jobs[0].pair, jobs[1].pair);
        assert_eq!((jobs[2].red, jobs[2].black), (0, 2));
        assert_eq!((jobs[5].red, jobs[5].black), (2, 1));
        assert_eq!(jobs[6].opening, 1);
        assert_eq!(jobs[6].pairing, 0);
    }

    #[test]
    fn shards_split_the_schedule_by_pairs() {
        let whole = |shard| Schedule {
            pairings: vec![(0, 1), (0, 2), (1, 2)],
            games_per_pairing: 6,
            openings: 4,
            shard,
        };
        let all: Vec<Job> = (0..18)
            .map(|i| whole(Shard::WHOLE).game(i).unwrap())
            .collect();
        for n in [1, 2, 3, 4, 5, 9, 10, 20] {
            let mut seen = Vec::new();
            for k in 1..=n {
                let s = whole(Shard { k, n });
                let jobs: Vec<Job> = (0..s.shard_games()).map(|c| s.job(c).unwrap()).collect();
                assert!(s.job(s.shard_games()).is_none(), "{k}/{n}");
                for j in &jobs {
                    // Pair p = (number - 1) / 2 belongs to shard p mod n + 1.
                    assert_eq!((j.number - 1) / 2 % n, k - 1, "{k}/{n}");
                }
                // Both games of each pair: one opening, colours swapped.
                for two in jobs.chunks(2) {
                    assert_eq!(two[0].opening, two[1].opening);
                    assert_eq!((two[0].red, two[0].black), (two[1].black, two[1].red));
                }
                seen.extend(jobs);
            }
            seen.sort_by_key(|j| j.number);
            assert_eq!(seen, all, "n = {n}");
        }
        assert_eq!(whole(Shard { k: 3, n: 4 }).shard_games(), 4); // pairs 2 and 6
        assert_eq!(whole(Shard { k: 10, n: 20 }).shard_games(), 0);
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { k: 2, n: 3 });
        for bad in [
            "0/2",
            "3/2",
            "1/0",
            "2",
            "a/b",
            "-1/2",
            "1/2/3",
            "1/1000001",
            "",
        ] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
