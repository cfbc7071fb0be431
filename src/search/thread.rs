//! Lazy SMP: `threads` workers search the same root, sharing only the transposition table and
//! the stop flag; helper threads skip depths so they spread over the tree. The main thread
//! watches the clock and reports; the final move is voted by all threads, weighted by depth.

use crate::board::position::Position;
use crate::board::types::{Move, INFINITE, MATE_BOUND};
use crate::search::history::History;
use crate::search::time::{Limits, TimeManager};
use crate::search::tt::TranspositionTable;
use crate::search::{SearchInfo, SearchResult, SearchSettings, Shared, Worker};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Stack size of search threads: deep recursion with move lists on the stack.
pub const SEARCH_STACK: usize = 64 * 1024 * 1024;

/// Everything one search needs, borrowed from the engine.
pub struct SearchRequest<'a> {
    /// Position to search, with its game history.
    pub pos: &'a Position,
    /// Limits from `go`.
    pub limits: &'a Limits,
    /// Shared hash table.
    pub tt: &'a TranspositionTable,
    /// Stop flag for all threads.
    pub stop: &'a AtomicBool,
    /// True while pondering.
    pub pondering: &'a AtomicBool,
    /// Deadlines.
    pub time: &'a Mutex<TimeManager>,
    /// Ordering statistics per thread, kept across searches (resized to the thread count).
    pub histories: &'a mut Vec<History>,
    /// Progress callback.
    pub report: &'a (dyn Fn(SearchInfo) + Sync),
    /// Threads, lines, techniques, rules and tables.
    pub settings: &'a SearchSettings,
}

/// Run a search to its end on the calling thread plus `settings.threads - 1` helpers.
pub fn run_search(req: SearchRequest<'_>) -> SearchResult {
    let threads = req.settings.threads.max(1);
    req.histories.resize_with(threads, History::new);
    req.histories.truncate(threads);
    let nodes: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let shared = Shared {
        tt: req.tt,
        stop: req.stop,
        pondering: req.pondering,
        limits: req.limits,
        time: req.time,
        nodes: &nodes,
        report: req.report,
        settings: req.settings,
        eval: req.settings.tables(),
        network: req.settings.evaluating_network(),
    };
    req.tt.new_search();
    let histories = std::mem::take(req.histories);
    let results: Vec<(u32, Vec<crate::search::RootMove>, History)> = std::thread::scope(|s| {
        let mut iter = histories.into_iter();
        let main_history = iter.next().unwrap_or_default();
        let helpers: Vec<_> = iter
            .enumerate()
            .map(|(i, h)| {
                let shared = &shared;
                let pos = req.pos.clone();
                std::thread::Builder::new()
                    .stack_size(SEARCH_STACK)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::new(i + 1, shared, pos, h);
                        w.iterate();
                        (
                            w.completed_depth,
                            std::mem::take(&mut w.root_moves),
                            w.into_history(),
                        )
                    })
                    .expect("spawn search thread")
            })
            .collect();
        let mut main = Worker::new(0, &shared, req.pos.clone(), main_history);
        main.iterate();
        // The main thread is done: the helpers stop too.
        shared.stop.store(true, Ordering::Relaxed);
        let mut out = vec![(
            main.completed_depth,
            std::mem::take(&mut main.root_moves),
            main.into_history(),
        )];
        for h in helpers {
            out.push(h.join().expect("search thread panicked"));
        }
        out
    });
    let total_nodes = shared.total_nodes();
    let chosen = vote(&results);
    let (depth, roots, _) = &results[chosen];
    let result = match roots.first() {
        None => SearchResult {
            nodes: total_nodes,
            ..SearchResult::default()
        },
        Some(rm) => SearchResult {
            best: Some(rm.mv),
            ponder: rm.pv.get(1).copied(),
            score: Some(if rm.score == -INFINITE {
                rm.prev_score
            } else {
                rm.score
            }),
            depth: *depth,
            nodes: total_nodes,
            pv: rm.pv.clone(),
        },
    };
    *req.histories = results.into_iter().map(|(_, _, h)| h).collect();
    result
}

/// Pick the thread whose best move has the most support: each thread votes for its move with
/// weight (score above the worst + margin) x depth. The main thread wins ties.
fn vote(results: &[(u32, Vec<crate::search::RootMove>, History)]) -> usize {
    if results.len() == 1 {
        return 0;
    }
    let score_of = |rm: &crate::search::RootMove| {
        if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        }
    };
    let valid: Vec<usize> = (0..results.len())
        .filter(|&i| {
            results[i].0 > 0
                && results[i]
                    .1
                    .first()
                    .is_some_and(|rm| score_of(rm) > -INFINITE)
        })
        .collect();
    if valid.is_empty() {
        return 0;
    }
    // A proven win: take the shortest mate found by any thread.
    let best_score = valid
        .iter()
        .map(|&i| score_of(&results[i].1[0]))
        .max()
        .unwrap_or(0);
    if best_score >= MATE_BOUND {
        return valid
            .into_iter()
            .find(|&i| score_of(&results[i].1[0]) == best_score)
            .unwrap_or(0);
    }
    let min = valid
        .iter()
        .map(|&i| score_of(&results[i].1[0]))
        .min()
        .unwrap_or(0);
    let mut votes: HashMap<Move, i64> = HashMap::new();
    for &i in &valid {
        let rm = &results[i].1[0];
        *votes.entry(rm.mv).or_default() += (score_of(rm) - min + 14) as i64 * results[i].0 as i64;
    }
    let mut best = valid[0];
    for &i in &valid {
        let (bi, ci) = (&results[best].1[0], &results[i].1[0]);
        let (vb, vc) = (votes[&bi.mv], votes[&ci.mv]);
        if vc > vb || (vc == vb && results[i].0 > results[best].0 && score_of(ci) > score_of(bi)) {
            best = i;
        }
    }
    best
}
