//! Self-play games for training data, on all threads, the output the same for any thread count.
//!
//! Game `i` (numbered from 0 over the whole run) draws its start from its own random stream,
//! seeded by `seed` and `i` alone: an opening line of the set, then `random_plies` uniformly
//! random legal plies; a start where the game is already over, or where a search at the game's
//! node count scores beyond `balance`, is drawn again from the same stream. The game is then
//! played by `selfplay::play_out` (fresh hash and statistics, `nodes` per move, the rules of
//! the match runner's referee, a draw at `max_plies`, a win when the searches agree for
//! `win.plies` plies that one side is `win.score` ahead). A searched position is kept when the
//! side to move is not in check, the best move is quiet (no capture) and the score is not a
//! mate score; it is written with that score and the game's result (`record`).
//!
//! Threads take games in order and the writer puts them out in that order, so the file is a
//! function of the settings (but `threads`) alone. A shard `K/N` plays the games `i` with
//! `i mod N = K - 1`: shards are disjoint, and together they play the games of one unsharded
//! run (in another order).

use super::record::{self, Wdl, RECORD_SIZE};
use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::rng::{splitmix64, Rng};
use crate::board::types::{Color, Value, MATE_BOUND};
use crate::engine::openings::Opening;
use crate::engine::Engine;
use crate::eval::nnue::Network;
use crate::rules::{adjudicate, Outcome, RuleSet};
use crate::search::time::Limits;
use crate::search::SearchResult;
use crate::tools::selfplay::{play_out, Playout, WinAdjudication};
use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Tries at drawing a balanced start before giving up.
const START_TRIES: usize = 100;

/// One part of a run split over machines or jobs: games `i` with `i mod count = index`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based (`K - 1` of `K/N`).
    pub index: u64,
    /// `N`.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parse `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard> {
        let parsed = text
            .split_once('/')
            .and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)))
            .filter(|&(k, n)| (1..=n).contains(&k));
        let (k, n) =
            parsed.with_context(|| format!("bad shard '{text}' (expected K/N, 1 <= K <= N)"))?;
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    /// The run's number of this shard's `k`-th game.
    pub fn game(self, k: u64) -> u64 {
        k.saturating_mul(self.count).saturating_add(self.index)
    }
}

/// The evaluation datagen's searches use.
#[derive(Clone, Debug)]
pub enum Evaluation {
    /// The hand-written tables (round 1's data).
    Classical,
    /// The network compiled into the binary.
    BuiltIn,
    /// A network read from a file.
    Network(Arc<Network>),
}

impl PartialEq for Evaluation {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Evaluation::Network(a), Evaluation::Network(b)) => Arc::ptr_eq(a, b),
            (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
        }
    }
}

impl Eq for Evaluation {}

/// What `chuhan datagen` plays and keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes searched per move (and for the balance check of a start).
    pub nodes: u64,
    /// Random legal plies after the opening line.
    pub random_plies: usize,
    /// A start scored beyond this (centipawns, either side) is drawn again.
    pub balance: Value,
    /// A game reaching this many plies (opening included) is drawn.
    pub max_plies: usize,
    /// A win called when the searches agree.
    pub win: WinAdjudication,
    /// Seed of the whole run.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Which part of the run this is.
    pub shard: Shard,
    /// Games of the whole run (this shard plays its part of them); `None`: no limit.
    pub games: Option<u64>,
    /// Stop once this many positions are written (the last game is cut); `None`: no limit.
    pub positions: Option<u64>,
    /// Hash table of each thread's engine, MB.
    pub hash_mb: usize,
    /// What the searches evaluate with.
    pub evaluation: Evaluation,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            nodes: 5000,
            random_plies: 4,
            balance: 200,
            max_plies: 400,
            win: WinAdjudication {
                score: 2000,
                plies: 4,
            },
            seed: 1,
            threads: 1,
            shard: Shard::ALL,
            games: None,
            positions: None,
            hash_mb: 16,
            evaluation: Evaluation::BuiltIn,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its number in the run.
    pub index: u64,
    /// The kept positions, in the order played.
    pub records: Vec<[u8; RECORD_SIZE]>,
    /// Positions searched (kept or not).
    pub searched: u64,
    /// Its result.
    pub outcome: Outcome,
}

/// What has been written so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games written (the last one perhaps cut by the position limit).
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Positions searched in the games written (kept or not).
    pub searched: u64,
    /// Red wins, draws, Black wins.
    pub wdl: [u64; 3],
}

/// The random stream of game `index` of a run seeded `seed`.
fn game_rng(seed: u64, index: u64) -> Rng {
    Rng::new(splitmix64(seed ^ splitmix64(index).1).1)
}

/// A game's start: an opening line plus random plies, not over, and balanced by a search.
fn draw_start(
    engine: &mut Engine,
    openings: &[Opening],
    s: &Settings,
    rng: &mut Rng,
) -> Result<Opening> {
    for _ in 0..START_TRIES {
        let mut start = openings[rng.below(openings.len())].clone();
        let mut pos = start.position();
        for _ in 0..s.random_plies {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[rng.below(moves.len())];
            pos.make_move(m);
            start.moves.push(m);
        }
        if adjudicate(&pos, RuleSet::Chinese).is_some() {
            continue;
        }
        engine.clear_hash();
        let moves: Vec<String> = start.moves.iter().map(|m| m.to_string()).collect();
        engine
            .set_position(Some(&start.fen), &moves)
            .map_err(anyhow::Error::msg)?;
        let r = engine.search_sync(Limits {
            nodes: Some(s.nodes),
            ..Limits::default()
        });
        if r.score.is_some_and(|v| v.abs() <= s.balance) {
            return Ok(start);
        }
    }
    bail!(
        "no start within {} cp found in {START_TRIES} tries (is --balance too small?)",
        s.balance
    )
}

/// The score to keep for a searched position, if it is kept: not in check, a quiet best move,
/// not a mate score.
pub fn kept_score(pos: &Position, r: &SearchResult) -> Option<i16> {
    let (mv, score) = (r.best?, r.score?);
    if pos.in_check() || pos.is_capture(mv) || score.abs() >= MATE_BOUND {
        return None;
    }
    i16::try_from(score).ok()
}

/// The result of `outcome` for `side`.
fn wdl_for(outcome: Outcome, side: Color) -> Wdl {
    match (outcome, side) {
        (Outcome::Draw, _) => Wdl::Draw,
        (Outcome::RedWins, Color::Red) | (Outcome::BlackWins, Color::Black) => Wdl::Win,
        _ => Wdl::Loss,
    }
}

/// Play game `index` of the run on `engine` (whose state it resets).
pub fn play_game(
    engine: &mut Engine,
    openings: &[Opening],
    s: &Settings,
    index: u64,
) -> Result<Game> {
    let mut rng = game_rng(s.seed, index);
    let start = draw_start(engine, openings, s, &mut rng)?;
    let playout = Playout {
        nodes: s.nodes,
        max_plies: s.max_plies,
        win: Some(s.win),
    };
    let mut kept: Vec<([u8; RECORD_SIZE], Color)> = Vec::new();
    let mut searched = 0;
    let ending = play_out(engine, &start, &playout, &mut |pos, r| {
        searched += 1;
        if let Some(score) = kept_score(pos, r) {
            kept.push((record::encode(pos, score, Wdl::Draw), pos.side_to_move()));
        }
    })?;
    let records = kept
        .into_iter()
        .map(|(mut r, side)| {
            record::set_result(&mut r, wdl_for(ending.outcome, side));
            r
        })
        .collect();
    Ok(Game {
        index,
        records,
        searched,
        outcome: ending.outcome,
    })
}

/// An engine as datagen searches with: one thread, the settings' hash and evaluation.
fn engine(s: &Settings) -> Result<Engine> {
    let mut e = Engine::new();
    e.set_threads(1);
    e.set_hash_mb(s.hash_mb).map_err(anyhow::Error::msg)?;
    match &s.evaluation {
        Evaluation::Classical => e.set_use_network(false),
        Evaluation::BuiltIn => e.set_network(None),
        Evaluation::Network(net) => e.set_network(Some(Arc::clone(net))),
    }
    Ok(e)
}

/// Play the run (this shard of it) on `s.threads` threads and write its records to `out`, game
/// by game in game order (one `write_all` per game, so an interrupted file holds whole games
/// when `out` is unbuffered). `progress` is called after each game written.
pub fn generate(
    s: &Settings,
    openings: &[Opening],
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Stats),
) -> Result<Stats> {
    if openings.is_empty() {
        bail!("the opening set is empty");
    }
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<(u64, Result<Game>)>();
    // No more threads than games to play.
    let games = s
        .games
        .map(|g| g.saturating_sub(s.shard.index).div_ceil(s.shard.count));
    let threads = s
        .threads
        .clamp(1, games.map_or(usize::MAX, |n| n.max(1) as usize));
    let mut engines: Vec<Engine> = (0..threads).map(|_| engine(s)).collect::<Result<_>>()?;
    let in_run = |k: u64| s.games.is_none_or(|g| s.shard.game(k) < g);
    std::thread::scope(|scope| {
        for engine in engines.iter_mut() {
            let (tx, next, stop) = (tx.clone(), &next, &stop);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                if stop.load(Ordering::SeqCst) || !in_run(k) {
                    break;
                }
                let game = play_game(engine, openings, s, s.shard.game(k));
                if tx.send((k, game)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let written = write_in_order(s, rx, out, progress);
        // On an error or at the position limit, the other threads finish their game and stop.
        stop.store(true, Ordering::SeqCst);
        written
    })
}

/// The writer: games as they come, put out in game order, until the limits or the threads end.
fn write_in_order(
    s: &Settings,
    rx: crossbeam_channel::Receiver<(u64, Result<Game>)>,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Stats),
) -> Result<Stats> {
    let mut stats = Stats::default();
    let mut waiting: BTreeMap<u64, Game> = BTreeMap::new();
    let mut next_k = 0u64;
    for (k, game) in rx.iter() {
        waiting.insert(k, game?);
        while let Some(game) = waiting.remove(&next_k) {
            next_k += 1;
            let room = s.positions.map_or(u64::MAX, |p| p - stats.positions);
            let take = (game.records.len() as u64).min(room) as usize;
            out.write_all(&game.records[..take].concat())?;
            stats.games += 1;
            stats.positions += take as u64;
            stats.searched += game.searched;
            stats.wdl[match game.outcome {
                Outcome::RedWins => 0,
                Outcome::Draw => 1,
                Outcome::BlackWins => 2,
            }] += 1;
            progress(&stats);
            if s.positions.is_some_and(|p| stats.positions >= p) {
                out.flush()?;
                return Ok(stats);
            }
        }
    }
    out.flush()?;
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::openings;
    use crate::tools::datagen::record::decode;

    fn tiny(threads: usize, shard: Shard) -> Settings {
        Settings {
            nodes: 300,
            max_plies: 120,
            threads,
            shard,
            games: Some(2),
            seed: 9,
            hash_mb: 2,
            ..Settings::default()
        }
    }

    fn run(s: &Settings) -> (Vec<u8>, Stats) {
        let book = openings::load(None).unwrap();
        let mut out = Vec::new();
        let stats = generate(s, &book, &mut out, &mut |_| {}).unwrap();
        (out, stats)
    }

    fn sorted_records(bytes: &[u8]) -> Vec<&[u8]> {
        let mut v: Vec<&[u8]> = bytes.chunks(RECORD_SIZE).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn shards_parse_and_split_the_games() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 1, count: 3 });
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let mut seen: Vec<u64> = (1..=3)
            .flat_map(|k| {
                let shard = Shard::parse(&format!("{k}/3")).unwrap();
                (0..4).map(move |i| shard.game(i))
            })
            .collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..12).collect::<Vec<_>>());
    }

    #[test]
    fn the_same_seed_gives_the_same_file_on_any_thread_count() {
        let (one, stats) = run(&tiny(1, Shard::ALL));
        assert_eq!(stats.games, 2);
        assert_eq!(one.len() as u64, stats.positions * RECORD_SIZE as u64);
        assert!(stats.positions > 10, "{stats:?}");
        let (two, stats2) = run(&tiny(2, Shard::ALL));
        assert_eq!(stats2, stats);
        assert_eq!(two, one);
        let (other, _) = run(&Settings {
            seed: 10,
            ..tiny(1, Shard::ALL)
        });
        assert_ne!(other, one);

        // The file starts with game 0's records: legal positions, not in check, not mate
        // scores, each with the game's result from its side to move's view.
        let book = openings::load(None).unwrap();
        let mut engine = engine(&tiny(1, Shard::ALL)).unwrap();
        let game = play_game(&mut engine, &book, &tiny(1, Shard::ALL), 0).unwrap();
        assert!(!game.records.is_empty());
        assert_eq!(
            game.records.concat()[..],
            one[..game.records.len() * RECORD_SIZE]
        );
        for r in &game.records {
            let s = decode(r).unwrap();
            assert!(!s.pos.in_check(), "{}", s.pos.to_fen());
            assert!(i32::from(s.score).abs() < MATE_BOUND);
            assert_eq!(s.result, wdl_for(game.outcome, s.pos.side_to_move()));
        }

        // The two shards of the run are its games, each played once.
        let (a, sa) = run(&tiny(2, Shard { index: 0, count: 2 }));
        let (b, sb) = run(&tiny(1, Shard { index: 1, count: 2 }));
        assert_eq!((sa.games, sb.games), (1, 1));
        let both = [a.clone(), b.clone()].concat();
        assert_eq!(sorted_records(&both), sorted_records(&one));
        // Game 0 is shard 1's; the unsharded run writes it first.
        assert_eq!(a[..], one[..a.len()]);
    }

    #[test]
    fn the_position_limit_cuts_the_run_exactly() {
        let (full, _) = run(&tiny(1, Shard::ALL));
        let s = Settings {
            positions: Some(7),
            games: None,
            ..tiny(2, Shard::ALL)
        };
        let (cut, stats) = run(&s);
        assert_eq!((stats.positions, stats.games), (7, 1));
        assert_eq!(cut[..], full[..7 * RECORD_SIZE]);
    }

    #[test]
    fn kept_positions_have_quiet_best_moves() {
        let book = openings::load(None).unwrap();
        let s = tiny(1, Shard::ALL);
        let mut engine = engine(&s).unwrap();
        let mut rng = game_rng(s.seed, 0);
        let start = draw_start(&mut engine, &book, &s, &mut rng).unwrap();
        let playout = Playout {
            nodes: s.nodes,
            max_plies: 80,
            win: Some(s.win),
        };
        let (mut kept, mut dropped) = (0, 0);
        play_out(
            &mut engine,
            &start,
            &playout,
            &mut |pos, r| match kept_score(pos, r) {
                Some(score) => {
                    kept += 1;
                    assert!(!pos.in_check());
                    assert!(!pos.is_capture(r.best.unwrap()));
                    assert_eq!(Some(i32::from(score)), r.score);
                }
                None => {
                    dropped += 1;
                    let (mv, score) = (r.best.unwrap(), r.score.unwrap());
                    assert!(pos.in_check() || pos.is_capture(mv) || score.abs() >= MATE_BOUND);
                }
            },
        )
        .unwrap();
        assert!(kept > 0 && dropped > 0, "kept {kept}, dropped {dropped}");
        // The start itself came from the opening set plus the random plies.
        assert!(book.iter().any(|o| o.fen == start.fen
            && start.moves.starts_with(&o.moves)
            && start.moves.len() == o.moves.len() + s.random_plies));
    }
}
