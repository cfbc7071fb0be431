//! The search of one thread: iterative deepening with aspiration windows, principal variation
//! search, quiescence (captures; evasions when in check), mate-distance pruning, check
//! extension, null move (verified in sparse endings, where zugzwang is common in xiangqi),
//! late-move reductions and pruning, futility and reverse futility pruning, history pruning;
//! the static evaluation corrected by what earlier searches found it missed (`correction`).
//!
//! No I/O here: the main thread reports through the `Shared::report` callback. Scores are
//! side-relative; having no legal move loses (checkmate and 困毙 alike). Repeated positions are
//! scored by `repetition_score`, the one seam where the rules of repetition enter the search.

pub(crate) mod correction;
pub(crate) mod gravity;
pub(crate) mod history;
pub(crate) mod movepick;
pub mod params;
pub mod see;
pub mod strength;
pub mod thread;
pub mod time;
pub(crate) mod tt;

use crate::board::movegen::{generate, legal_moves, GenType, MoveList};
use crate::board::position::Position;
use crate::board::types::*;
use crate::eval::evaluator::Evaluator;
use crate::eval::nnue::Network;
use crate::eval::{default_tables, Tables};
use crate::rules::{self, RepetitionFilter, RepetitionVerdict, RuleSet};
use crate::search::history::{History, PieceTo, CONTINUATION_PLIES, MAX_PLY};
use crate::search::movepick::MovePicker;
use crate::search::params::SearchParams;
use crate::search::see::{see_ge, ORDER_VALUE};
use crate::search::time::{Limits, TimeManager};
use crate::search::tt::{Bound, TranspositionTable};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// One line of search progress, as the protocols report it.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: Value,
    /// Whether the score is exact or a bound.
    pub bound: Bound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Hash table use in per mille.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a finished search decided: the one shape every caller gets (`Engine::search_sync`, the
/// final `SearchEvent::BestMove`, the threads' vote).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is none (no legal root move, or all excluded).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of `best` for the side to move; `None` exactly when `best` is.
    pub score: Option<Value>,
    /// Depth completed by the chosen thread (0 for a book move).
    pub depth: u32,
    /// Nodes searched by all threads (0 for a book move).
    pub nodes: u64,
    /// The line starting with `best` (empty when there is no move).
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// A move played from the opening book, without searching, with the score the book knows
    /// for it (none where it knows none: a book move is no verdict on the position).
    pub fn book(m: Move, score: Option<Value>) -> SearchResult {
        SearchResult {
            best: Some(m),
            score,
            pv: vec![m],
            ..SearchResult::default()
        }
    }
}

/// Switches for each pruning and extension technique, on by default but for IIR. They exist
/// so that self-play can measure what each one is worth (ablation), not for users.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFeatures {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Late-move pruning of quiet moves at shallow depth.
    pub lmp: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// Pruning of shallow quiet moves whose history is far below zero.
    pub history_pruning: bool,
    /// Reverse futility (static null move) pruning.
    pub reverse_futility: bool,
    /// Check extension.
    pub check_extension: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Internal iterative reduction (off by default, see `Default`).
    pub iir: bool,
    /// Quiescence skips captures that lose material by static exchange evaluation.
    pub qsearch_see: bool,
    /// Move ordering puts captures that lose material by SEE after the quiet moves (off: those
    /// where a more valuable piece takes a defended one).
    pub see_ordering: bool,
}

impl Default for SearchFeatures {
    fn default() -> Self {
        SearchFeatures::DEFAULT
    }
}

impl SearchFeatures {
    /// All on but IIR.
    pub const DEFAULT: SearchFeatures = SearchFeatures {
        null_move: true,
        lmr: true,
        lmp: true,
        futility: true,
        history_pruning: true,
        reverse_futility: true,
        check_extension: true,
        aspiration: true,
        // Off: self-play without it scored +64 ± 51 (8 000 nodes) and +20 ± 48 (16 000); on
        // from depth 4 it scored −16.6 ± 19.0 in 587 games at 2 s + 0.02 s (`docs/screens.tsv`).
        iir: false,
        qsearch_see: true,
        see_ordering: true,
    };

    /// Turn off the feature called `name` (as in the field names); false if unknown.
    pub fn disable(&mut self, name: &str) -> bool {
        let flag = match name {
            "null_move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "lmp" => &mut self.lmp,
            "futility" => &mut self.futility,
            "history_pruning" => &mut self.history_pruning,
            "reverse_futility" => &mut self.reverse_futility,
            "check_extension" => &mut self.check_extension,
            "aspiration" => &mut self.aspiration,
            "iir" => &mut self.iir,
            "qsearch_see" => &mut self.qsearch_see,
            "see_ordering" => &mut self.see_ordering,
            _ => return false,
        };
        *flag = false;
        true
    }
}

/// The largest `SearchSettings::contempt` either way: half a rook, far beyond any sensible use.
pub const MAX_CONTEMPT: Value = 500;

/// How searches search: the engine's settings the search reads, in one place. The engine
/// owns them (`EngineOptions::search`) and lends them to each search by reference.
#[derive(Clone, Debug)]
pub struct SearchSettings {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Search techniques switched on (all by default; for self-play ablation).
    pub features: SearchFeatures,
    /// Repetition rules the search follows (Chinese by default).
    pub rules: RuleSet,
    /// Evaluation tables to search with instead of the built-in ones (for self-play between
    /// parameter sets, e.g. tuned against hand-set values); `None` = built-in.
    pub eval: Option<Arc<Tables>>,
    /// Evaluate with a network (the default) rather than the classical tables.
    pub use_network: bool,
    /// The network loaded from a file (`EvalFile`); `None` = the built-in one.
    pub network: Option<Arc<Network>>,
    /// Margins, reductions and history scales (`SearchParams`; the shipped ones by default).
    pub params: SearchParams,
    /// How far below zero a draw scores for the side the engine plays, in evaluation units:
    /// a stronger engine plays on in a level position rather than repeat or run out the 60-move
    /// limit. Not applied while analysing (`go infinite`), where the score should be the truth.
    pub contempt: Value,
}

impl SearchSettings {
    /// One thread, one line, every default technique, the Chinese rules, the built-in tables.
    pub const DEFAULT: SearchSettings = SearchSettings {
        threads: 1,
        multipv: 1,
        features: SearchFeatures::DEFAULT,
        rules: RuleSet::Chinese,
        eval: None,
        use_network: true,
        network: None,
        params: SearchParams::DEFAULT,
        contempt: 0,
    };

    /// The evaluation tables in force.
    pub fn tables(&self) -> &Tables {
        self.eval.as_deref().unwrap_or_else(|| default_tables())
    }

    /// The network that evaluates, if one does (`None`: the classical tables).
    pub fn evaluating_network(&self) -> Option<&Network> {
        match (self.use_network, &self.network) {
            (false, _) => None,
            (true, Some(loaded)) => Some(loaded),
            (true, None) => Some(crate::eval::nnue::built_in()),
        }
    }

    /// The static evaluation of `pos` for the side to move, as the search evaluates it (the
    /// network or the classical tables, with the endgame scale; no search, no correction).
    pub fn static_eval(&self, pos: &Position) -> Value {
        Evaluator::new(self.evaluating_network(), self.tables(), pos).evaluate(pos)
    }

    /// The classical evaluation, with the tables in force and no network.
    pub fn classical(self) -> SearchSettings {
        SearchSettings {
            use_network: false,
            ..self
        }
    }
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings::DEFAULT
    }
}

/// State shared by all threads of one search.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a TranspositionTable,
    /// Set to stop every thread.
    pub stop: &'a AtomicBool,
    /// True while pondering: no deadlines apply.
    pub pondering: &'a AtomicBool,
    /// The limits of this search.
    pub limits: &'a Limits,
    /// Deadlines; restarted at `ponderhit`.
    pub time: &'a Mutex<TimeManager>,
    /// Nodes searched, per thread.
    pub nodes: &'a [AtomicU64],
    /// Progress callback (called by the main thread only).
    pub report: &'a (dyn Fn(SearchInfo) + Sync),
    /// Threads, lines, techniques, rules and tables.
    pub settings: &'a SearchSettings,
    /// `settings.tables()`, looked up once rather than at every node.
    pub eval: &'a Tables,
    /// `settings.evaluating_network()`: when present it evaluates, and the tables are not used.
    pub network: Option<&'a Network>,
}

impl Shared<'_> {
    /// Nodes searched by all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Score of the last search of this move (-INFINITE if it failed low).
    pub score: Value,
    /// Score from the previous iteration.
    pub prev_score: Value,
    /// Bound of `score`.
    pub bound: Bound,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Seldepth when last searched.
    pub seldepth: u32,
}

#[derive(Clone, Copy, Default)]
struct Frame {
    eval: Value,
    mv: Move,
    piece: Option<Piece>,
}

/// Late-move reductions by depth and move number, from the parameters' formula; built once
/// per search and thread (4 096 entries: microseconds).
struct Reductions([[i32; 64]; 64]);

impl Reductions {
    fn new(p: &SearchParams) -> Box<Reductions> {
        let base = f64::from(p.lmr_base) / 100.0;
        let divisor = f64::from(p.lmr_divisor) / 100.0;
        let mut t = Box::new(Reductions([[0; 64]; 64]));
        for (d, row) in t.0.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
            }
        }
        t
    }

    /// The reduction of the `number`th move (1-based) of a node at `depth`.
    #[inline(always)]
    fn get(&self, depth: i32, number: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][number.min(63)]
    }
}

/// Depth-skipping pattern of helper threads (lazy SMP), so they spread over depths.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// One search thread.
pub struct Worker<'a> {
    id: usize,
    shared: &'a Shared<'a>,
    pos: Position,
    history: History,
    frames: Vec<Frame>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    pv_idx: usize,
    /// Root moves, best first after each iteration.
    pub root_moves: Vec<RootMove>,
    /// Deepest fully completed iteration.
    pub completed_depth: u32,
    best_move_changes: f64,
    null_verify_ply: usize,
    /// Keys of the current line, so the walk back for repetitions runs only when one may repeat.
    filter: RepetitionFilter,
    /// Count of rule wins/losses by repetition returned so far: a node whose subtree saw one has a
    /// path-dependent score and is not stored in the hash table.
    rule_verdicts: u64,
    /// The static evaluation kept along the current line: the network's or the classical.
    evaluator: Evaluator<'a>,
    /// `shared.settings.params`, kept at hand.
    params: SearchParams,
    /// The late-move reductions those parameters give.
    reductions: Box<Reductions>,
    /// The score of a draw by the side to move (`SearchSettings::contempt`).
    draw: [Value; 2],
}

/// What the reduction of a move after the first depends on, besides the node.
struct LateMove {
    /// Its number among the legal moves tried (1-based).
    number: usize,
    /// A capture ...
    capture: bool,
    /// ... that loses material by SEE (tried after the quiet moves).
    losing_capture: bool,
    /// It gives check.
    gives_check: bool,
    /// A killer of this ply.
    killer: bool,
    /// Its butterfly and continuation history (0 for a capture).
    stat: i32,
}

impl<'a> Worker<'a> {
    /// A worker searching `pos` (whose history holds the game so far).
    pub fn new(id: usize, shared: &'a Shared<'a>, pos: Position, history: History) -> Worker<'a> {
        let mut roots: Vec<Move> = legal_moves(&pos).as_slice().to_vec();
        if !shared.limits.search_moves.is_empty() {
            roots.retain(|m| shared.limits.search_moves.contains(m));
        }
        let root_moves = roots
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                bound: Bound::Upper,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        Worker {
            id,
            shared,
            history,
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root_depth: 0,
            pv_idx: 0,
            root_moves,
            completed_depth: 0,
            best_move_changes: 0.0,
            null_verify_ply: 0,
            filter: RepetitionFilter::from_position(&pos),
            rule_verdicts: 0,
            evaluator: Evaluator::new(shared.network, shared.eval, &pos),
            params: shared.settings.params,
            reductions: Reductions::new(&shared.settings.params),
            draw: draw_scores(&pos, shared),
            pos,
        }
    }

    /// Give back the ordering statistics (kept between searches of a game).
    pub fn into_history(self) -> History {
        self.history
    }

    /// Whether to unwind. The first iteration always completes (it takes microseconds), so
    /// even a search stopped at once answers with a searched move, not the first legal one.
    #[inline(always)]
    fn stopped(&self) -> bool {
        self.completed_depth > 0 && self.shared.stop.load(Ordering::Relaxed)
    }

    fn publish_nodes(&self) {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Count a node; the main thread also watches the clock and the node limit.
    #[inline(always)]
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.publish_nodes();
            if self.id == 0 {
                self.check_limits();
            }
        }
    }

    fn check_limits(&self) {
        let sh = self.shared;
        if let Some(n) = sh.limits.nodes {
            if sh.total_nodes() >= n {
                sh.stop.store(true, Ordering::Relaxed);
            }
        }
        if !sh.pondering.load(Ordering::Relaxed) && sh.time.lock().hard_expired() {
            sh.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Iterative deepening. Returns when the limits are reached or `stop` is set.
    pub fn iterate(&mut self) {
        if self.root_moves.is_empty() {
            return;
        }
        let limits = self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let multipv = self.shared.settings.multipv.clamp(1, self.root_moves.len());
        self.history.clear_killers();
        let mut last_best = Move::NONE;
        let mut stable_iterations = 0;
        // Best scores of the completed iterations: the last one, and an average of them all that
        // halves the weight of the older ones at each iteration.
        let mut last_score: Option<Value> = None;
        let mut average_score = 0.0;
        for depth in 1..=max_depth {
            if self.id > 0 {
                let i = (self.id - 1) % 20;
                if !((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]).is_multiple_of(2) && depth > 1 {
                    continue;
                }
            }
            self.root_depth = depth as i32;
            self.best_move_changes *= 0.5;
            // Scores are per iteration: -INFINITE until a move is searched at this depth.
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth as i32);
                // Stable: moves that failed low keep their relative order.
                self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // A completed first line of a partial iteration is still trustworthy.
                if self.root_moves[0].score > -INFINITE && self.id == 0 {
                    self.report(depth, multipv.min(1));
                }
                break;
            }
            self.completed_depth = depth;
            // The root itself goes into the table too (the protocol's `probe` asks for it).
            let best = &self.root_moves[0];
            if best.score > -INFINITE {
                let eval = self.frames[0].eval;
                self.shared.tt.store(
                    self.pos.key(),
                    0,
                    best.mv,
                    best.score,
                    eval,
                    depth as i32,
                    Bound::Exact,
                );
            }
            if self.id != 0 {
                continue;
            }
            self.report(depth, multipv);
            // Mate found within the asked distance, or a forced move: no need to go on.
            let best = &self.root_moves[0];
            if let Some(mate) = limits.mate {
                if best.score >= MATE_BOUND && (MATE - best.score + 1) / 2 <= mate as Value {
                    break;
                }
            }
            if best.mv == last_best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            last_best = best.mv;
            let falling = falling_score_factor(last_score, average_score, best.score);
            if best.score.abs() < MATE_BOUND {
                average_score = match last_score {
                    Some(_) => (average_score + f64::from(best.score)) / 2.0,
                    None => f64::from(best.score),
                };
                last_score = Some(best.score);
            }
            if self.shared.time.lock().is_timed() && !self.shared.pondering.load(Ordering::Relaxed)
            {
                if self.root_moves.len() == 1 && depth >= 4 {
                    break;
                }
                // Unstable best move: think longer; a long-stable one: stop earlier; a score
                // falling from what the earlier iterations found: think longer.
                let scale = (1.0 + self.best_move_changes)
                    * if stable_iterations >= 6 { 0.6 } else { 1.0 }
                    * falling;
                if self.shared.time.lock().soft_expired(scale) {
                    break;
                }
            }
        }
        self.publish_nodes();
    }

    fn report(&self, depth: u32, lines: usize) {
        let sh = self.shared;
        let elapsed = sh.time.lock().elapsed();
        let nodes = sh.total_nodes().max(self.nodes);
        let ms = elapsed.as_millis() as u64;
        for (i, rm) in self.root_moves.iter().take(lines).enumerate() {
            // A line not (fully) searched at this depth reports its previous iteration.
            let (score, d) = if rm.score > -INFINITE {
                (rm.score, depth)
            } else if rm.prev_score > -INFINITE {
                (rm.prev_score, depth.saturating_sub(1).max(1))
            } else {
                continue;
            };
            (sh.report)(SearchInfo {
                depth: d,
                seldepth: rm.seldepth.max(d),
                multipv: i + 1,
                score,
                bound: rm.bound,
                nodes,
                nps: nodes * 1000 / ms.max(1),
                hashfull: sh.tt.hashfull(),
                time_ms: ms,
                pv: rm.pv.clone(),
            });
        }
    }

    fn aspiration(&mut self, depth: i32) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = self.params.aspiration_delta;
        let (mut alpha, mut beta) =
            if self.shared.settings.features.aspiration && depth >= 5 && prev.abs() < MATE_BOUND {
                ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.search_root(alpha, beta, depth);
            if self.stopped() {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn search_root(&mut self, mut alpha: Value, beta: Value, depth: i32) -> Value {
        let mut best = -INFINITE;
        self.pv_len[0] = 0;
        self.frames[0].eval = if self.pos.in_check() {
            -INFINITE
        } else {
            let raw = self.evaluate();
            self.corrected(raw)
        };
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            self.frames[0].mv = m;
            self.frames[0].piece = self.pos.piece_on(m.from());
            self.play(m);
            let ext =
                i32::from(self.shared.settings.features.check_extension && self.pos.in_check());
            let new_depth = depth - 1 + ext;
            let mut score;
            if i == self.pv_idx {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                let quiet = self
                    .pos
                    .history()
                    .last()
                    .is_some_and(|s| s.captured.is_none());
                let r = root_reduction(
                    &self.shared.settings.features,
                    &self.reductions,
                    depth,
                    i - self.pv_idx,
                    ext > 0,
                    quiet,
                );
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.take_back();
            if self.stopped() {
                return best.max(alpha);
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.seldepth as u32;
                rm.bound = if score >= beta {
                    Bound::Lower
                } else if score <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv
                    .extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                if i != self.pv_idx {
                    self.best_move_changes += 1.0;
                }
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score of the current position if it repeats (once inside the tree, or a third time
    /// through the game), by the rules in force: a cycle the opponent may not keep up wins, one we
    /// may not keep up loses (scored like a mate here), anything else is a draw.
    fn repetition_score(&mut self, ply: usize) -> Option<Value> {
        if !self.filter.may_repeat(self.pos.key()) {
            return None;
        }
        match rules::repetition_verdict_in_search(&self.pos, self.shared.settings.rules, ply)? {
            RepetitionVerdict::Draw => Some(self.draw_score()),
            RepetitionVerdict::Win => {
                self.rule_verdicts += 1;
                Some(mate_in(ply))
            }
            RepetitionVerdict::Loss => {
                self.rule_verdicts += 1;
                Some(mated_in(ply))
            }
        }
    }

    /// The score of a draw here, for the side to move (`SearchSettings::contempt`).
    #[inline(always)]
    fn draw_score(&self) -> Value {
        self.draw[self.pos.side_to_move().index()]
    }

    /// The static evaluation of the current position for the side to move: the network's
    /// when one is in use, else the classical one.
    #[inline(always)]
    fn evaluate(&mut self) -> Value {
        self.evaluator.evaluate(&self.pos)
    }

    /// `raw`, the static evaluation of the current position, corrected by what earlier
    /// searches found it missed in positions like this one (`correction`), short of a mate.
    #[inline(always)]
    fn corrected(&self, raw: Value) -> Value {
        (raw + self.history.correction.value(&self.pos)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Make a move on the board, keeping the evaluator in step.
    #[inline(always)]
    fn make(&mut self, m: Move) {
        self.pos.make_move(m);
        self.shared.tt.prefetch(self.pos.key());
        self.evaluator.push_move(&self.pos);
    }

    /// Take back the last move made by `make`.
    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.evaluator.pop();
    }

    /// Play a move of the search, keeping the repetition filter in step.
    #[inline(always)]
    fn play(&mut self, m: Move) {
        self.make(m);
        self.filter.push(self.pos.key());
    }

    /// Take back the last move played by `play`.
    #[inline(always)]
    fn take_back(&mut self) {
        self.filter.pop(self.pos.key());
        self.unmake();
    }

    /// Pass the turn (null-move pruning): the same pieces, so the same evaluator state.
    fn make_null(&mut self) {
        self.pos.make_null();
        self.shared.tt.prefetch(self.pos.key());
        self.evaluator.push_null();
    }

    /// Take back a null move.
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
        self.evaluator.pop();
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The moves played 1 and 2 plies before `ply` (piece and point), where there were any:
    /// the context the continuation history judges a quiet move in. Null moves and plies
    /// before the root have none.
    fn continuation_context(&self, ply: usize) -> [Option<PieceTo>; CONTINUATION_PLIES] {
        let mut context = [None; CONTINUATION_PLIES];
        for (back, c) in context.iter_mut().enumerate() {
            if let Some(frame) = ply.checked_sub(back + 1).map(|p| &self.frames[p]) {
                if frame.mv.is_ok() {
                    *c = frame.piece.map(|p| (p, frame.mv.to()));
                }
            }
        }
        context
    }

    fn has_attackers(&self, c: Color) -> bool {
        (self.pos.pieces(c, PieceKind::Rook)
            | self.pos.pieces(c, PieceKind::Horse)
            | self.pos.pieces(c, PieceKind::Cannon))
        .any()
    }

    fn search(
        &mut self,
        mut alpha: Value,
        mut beta: Value,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Value {
        // Step 1: the horizon, the node count, games over by rule, mate distance pruning.
        let pv_node = beta - alpha > 1;
        // The PV ends here until a move improves alpha; set before the quiescence search too,
        // which keeps no PV, or the parent would copy a stale one (an illegal ponder move).
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.visit();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.stopped() {
            return 0;
        }
        // Repetition first, then the natural limit (checks beyond ten per side do not count),
        // in the referee's order (`rules::adjudicate`): a forbidden cycle completed on the last
        // ply still loses, and a mate there still wins.
        if let Some(score) = self.repetition_score(ply) {
            return score;
        }
        if self.pos.rule60() >= 120
            && rules::natural_limit_reached(&self.pos)
            && has_legal_move(&self.pos)
        {
            return self.draw_score();
        }
        if ply >= MAX_PLY - 2 {
            return if self.pos.in_check() {
                0
            } else {
                self.evaluate()
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 2: the hash table, whose score ends a non-PV node searched deep enough.
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key, ply);
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = tte {
            if !pv_node
                && e.depth >= depth
                && self.pos.rule60() < 100
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                    Bound::None => false,
                }
            {
                return e.score;
            }
        }

        // Step 3: the static evaluation, corrected; whether it improves on two plies ago.
        let in_check = self.pos.in_check();
        let us = self.pos.side_to_move();
        // The hash table keeps the evaluation uncorrected: the correction goes on learning.
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(e) = tte {
            e.eval
        } else {
            self.evaluate()
        };
        let eval = if in_check {
            -INFINITE
        } else {
            self.corrected(raw_eval)
        };
        self.frames[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;
        self.history.reset_killers(ply);

        // Step 4: pruning the whole node before any move: reverse futility, null move.
        let p = self.params;
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth.
            if self.shared.settings.features.reverse_futility
                && depth <= p.rfp_depth
                && eval - p.rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }
            // Null move, unless our side has nothing but pawns and defenders (zugzwang risk).
            let prev_null = ply > 0 && self.frames[ply - 1].mv == Move::NULL;
            if self.shared.settings.features.null_move
                && depth >= p.null_min_depth
                && eval >= beta
                && !prev_null
                && ply >= self.null_verify_ply
                && self.has_attackers(us)
            {
                let r = p.null_base
                    + depth / p.null_depth_div
                    + ((eval - beta) / p.null_eval_div).min(p.null_eval_max);
                self.frames[ply].mv = Move::NULL;
                self.frames[ply].piece = None;
                self.make_null();
                let v = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.unmake_null();
                if self.stopped() {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= MATE_BOUND { beta } else { v };
                    // In sparse endings verify with a reduced search without null moves.
                    let pieces =
                        self.pos.color_count(Color::Red) + self.pos.color_count(Color::Black);
                    let sparse = pieces <= p.sparse_pieces as u32;
                    if !sparse && depth < p.null_verify_depth {
                        return v;
                    }
                    let saved = self.null_verify_ply;
                    // depth - r may be negative (a shallow sparse node): clamp before the cast.
                    self.null_verify_ply = ply + (3 * (depth - r)).max(0) as usize / 4 + 1;
                    let w = self.search(beta - 1, beta, depth - r, ply, false);
                    self.null_verify_ply = saved;
                    if w >= beta {
                        return v;
                    }
                }
            }
        }

        // Step 5: internal iterative reduction: no hash move at a deep node.
        let depth = if self.shared.settings.features.iir
            && tt_move == Move::NONE
            && depth >= p.iir_depth
            && (pv_node || cut_node)
        {
            depth - 1
        } else {
            depth
        };

        // Step 6: the moves, in the picker's order: pruned, extended, searched (the first with
        // the full window, later ones reduced with a null window, re-searched when they beat
        // alpha).
        let (prev_move, prev_piece) = if ply > 0 {
            (self.frames[ply - 1].mv, self.frames[ply - 1].piece)
        } else {
            (Move::NONE, None)
        };
        let counter = match prev_piece {
            Some(p) if prev_move.is_ok() => self.history.counter(p, prev_move),
            _ => Move::NONE,
        };
        let continuation = self.continuation_context(ply);
        let mut picker = MovePicker::new(
            &self.pos,
            tt_move,
            self.history.killers(ply),
            counter,
            continuation,
            self.shared.settings.features.see_ordering,
        );
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut legal = 0;
        let mut quiets_tried: [Move; 64] = [Move::NONE; 64];
        let mut quiet_count = 0;
        let old_alpha = alpha;
        let killers = self.history.killers(ply);
        let verdicts_before = self.rule_verdicts;

        while let Some(m) = picker.next(&self.pos, &self.history) {
            if !self.pos.is_legal(m) {
                continue;
            }
            legal += 1;
            let capture = self.pos.is_capture(m);
            // A capture that loses material by SEE, tried after every quiet move: reduced
            // like a late quiet move.
            let losing_capture = capture && picker.giving_bad_captures();
            let quiet_index = legal - 1;
            let gives_check = self.pos.gives_check(m);
            let piece = self.pos.piece_on(m.from());
            // How quiet moves like this one fared: butterfly and continuation history.
            let stat = if capture {
                0
            } else {
                self.history.score(us, m)
                    + piece.map_or(0, |p| {
                        self.history.continuation_score(&continuation, (p, m.to()))
                    })
            };
            // Shallow pruning of quiet moves that do not check (`prune_quiet`). Checks are
            // kept: they are how mates at the horizon are found.
            if !in_check
                && !capture
                && !gives_check
                && best > -MATE_BOUND
                && depth <= p.prune_depth
                && self.prune_quiet(depth, quiet_index, improving, eval, alpha, stat)
            {
                continue;
            }
            self.frames[ply].mv = m;
            self.frames[ply].piece = piece;
            self.play(m);
            debug_assert_eq!(gives_check, self.pos.in_check(), "gives_check of {m}");
            let ext = i32::from(
                self.shared.settings.features.check_extension
                    && gives_check
                    && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + ext;
            let mut score;
            if legal == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            } else {
                let late = LateMove {
                    number: legal,
                    capture,
                    losing_capture,
                    gives_check,
                    killer: m == killers[0] || m == killers[1],
                    stat,
                };
                let r = self.reduction(depth, new_depth, pv_node, cut_node, &late);
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    // The reduced search beat alpha: verify at full depth, a ply deeper when
                    // it beat the best score by far, a ply shallower when only just.
                    let deeper = i32::from(
                        score
                            > best
                                + p.research_deeper_base
                                + p.research_deeper_per_depth * new_depth,
                    );
                    let shallower = i32::from(score < best + p.research_shallower);
                    let verify_depth = new_depth + deeper - shallower;
                    score = -self.search(-alpha - 1, -alpha, verify_depth, ply + 1, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.take_back();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !capture {
                            self.reward_quiet(
                                ply,
                                m,
                                depth,
                                &quiets_tried[..quiet_count],
                                &continuation,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = m;
                quiet_count += 1;
            }
        }

        // Step 7: the result: no legal move loses; the bound, the correction history and the
        // hash table learn from it.
        if legal == 0 {
            // Checkmate or stalemate (困毙): either way the side to move loses.
            return mated_in(ply);
        }
        // A fail high's score is only a bound, trusted more the deeper the search: pull it
        // toward beta by depth, so one lucky line does not overstate a whole subtree.
        if best >= beta && best.abs() < MATE_BOUND && beta.abs() < MATE_BOUND {
            best = (best * depth + beta) / (depth + 1);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && alpha > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.rule_verdicts == verdicts_before {
            // Learn how far the static evaluation was off, where the score says so: a score
            // below it that is not a fail high, or above it with a move that earned it. A
            // capture's gain is the search's, not a misjudged position.
            let quiet_best = best_move == Move::NONE || !self.pos.is_capture(best_move);
            if !in_check
                && quiet_best
                && best.abs() < MATE_BOUND
                && ((best < eval && best < beta) || (best > eval && best_move != Move::NONE))
            {
                self.history
                    .correction
                    .update(&self.pos, best - eval, depth);
            }
            self.shared.tt.store(
                key,
                ply,
                best_move,
                best,
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
        }
        best
    }

    /// Whether a quiet move that gives no check, at a shallow node not in check, is pruned:
    /// a late one (move-count pruning), any whose node is far below alpha (futility), or one
    /// with a bad history. Futility waits while alpha is a mate: no static margin reaches one,
    /// yet a quiet move can still mate sooner (a 困毙, leaving no move), and the shortest mate
    /// would be missed.
    #[inline(always)]
    fn prune_quiet(
        &self,
        depth: i32,
        quiet_index: usize,
        improving: bool,
        eval: Value,
        alpha: Value,
        stat: i32,
    ) -> bool {
        let p = self.params;
        let f = &self.shared.settings.features;
        let lmp_limit = (p.lmp_base + depth * depth) / if improving { 1 } else { 2 };
        (f.lmp && quiet_index as i32 >= lmp_limit)
            || (f.futility
                && alpha < MATE_BOUND
                && eval + p.futility_base + p.futility_margin * depth <= alpha)
            || (f.history_pruning
                && depth <= p.history_prune_depth
                && stat < -p.history_prune_margin * depth)
    }

    /// The late-move reduction of a move searched after the first (0: none), at most
    /// `new_depth - 1`. A late check is reduced too, one ply less: in xiangqi rooks and cannons
    /// check at almost every turn, and most such checks lead nowhere. So is a late capture
    /// that keeps its material, a ply less than a quiet move; a quiet killer a ply less, and a
    /// quiet move by its history.
    #[inline(always)]
    fn reduction(
        &self,
        depth: i32,
        new_depth: i32,
        pv_node: bool,
        cut_node: bool,
        m: &LateMove,
    ) -> i32 {
        let p = self.params;
        if !(self.shared.settings.features.lmr
            && depth >= p.lmr_depth
            && m.number > 1 + usize::from(pv_node))
        {
            return 0;
        }
        let mut r = self.reductions.get(depth, m.number);
        r += i32::from(!pv_node) + i32::from(cut_node) - i32::from(m.gives_check);
        r -= i32::from(m.capture && !m.losing_capture);
        if !m.capture {
            r -= i32::from(m.killer);
            r -= m.stat / p.lmr_history_div;
        }
        r.clamp(0, new_depth - 1)
    }

    fn reward_quiet(
        &mut self,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Move],
        continuation: &[Option<PieceTo>; CONTINUATION_PLIES],
    ) {
        let us = self.pos.side_to_move();
        let p = &self.params;
        let bonus = (depth * depth * p.history_bonus_scale).min(p.history_bonus_max);
        self.history.update(us, m, bonus);
        if let Some(p) = self.pos.piece_on(m.from()) {
            self.history
                .update_continuation(continuation, (p, m.to()), bonus);
        }
        for &q in tried {
            self.history.update(us, q, -bonus);
            if let Some(p) = self.pos.piece_on(q.from()) {
                self.history
                    .update_continuation(continuation, (p, q.to()), -bonus);
            }
        }
        self.history.add_killer(ply, m);
        let prev = ply.checked_sub(1).map(|p| self.frames[p]);
        if let Some(Frame {
            mv: prev_move,
            piece: Some(p),
            ..
        }) = prev
        {
            if prev_move.is_ok() {
                self.history.set_counter(p, prev_move, m);
            }
        }
    }

    fn qsearch(&mut self, mut alpha: Value, beta: Value, ply: usize) -> Value {
        self.visit();
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if self.stopped() {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.pos.key();
        let tte = self.shared.tt.probe(key, ply);
        if let Some(e) = tte {
            if match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
                Bound::None => false,
            } {
                return e.score;
            }
        }
        let tt_move = tte.map_or(Move::NONE, |e| e.mv);
        let stand_pat;
        let mut raw_eval = 0;
        let mut best;
        if in_check {
            stand_pat = -INFINITE;
            best = -INFINITE;
        } else {
            // With few pieces left, having no move at all (困毙, a loss) is a real danger that
            // standing pat would hide.
            let us = self.pos.side_to_move();
            if self.pos.color_count(us) <= 5 && !has_legal_move(&self.pos) {
                return mated_in(ply);
            }
            raw_eval = match tte {
                Some(e) => e.eval,
                None => self.evaluate(),
            };
            stand_pat = self.corrected(raw_eval);
            if stand_pat >= beta {
                return if stand_pat.abs() < MATE_BOUND {
                    (stand_pat + beta) / 2
                } else {
                    stand_pat
                };
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut picker = if in_check {
            MovePicker::new(
                &self.pos,
                tt_move,
                [Move::NONE; 2],
                Move::NONE,
                [None; CONTINUATION_PLIES],
                self.shared.settings.features.see_ordering,
            )
        } else {
            MovePicker::new_captures(&self.pos, tt_move)
        };
        let mut legal = 0;
        let mut best_move = Move::NONE;
        while let Some(m) = picker.next(&self.pos, &self.history) {
            if !self.pos.is_legal(m) {
                continue;
            }
            legal += 1;
            if !in_check {
                // Delta pruning: even winning the victim cannot lift us to alpha.
                let victim = self
                    .pos
                    .piece_on(m.to())
                    .map_or(0, |p| ORDER_VALUE[p.kind().index()]);
                if stand_pat + victim + self.params.qsearch_delta < alpha
                    && victim < ORDER_VALUE[PieceKind::King.index()]
                {
                    continue;
                }
                // A capture that loses material in the exchange on its point is not worth a look:
                // stand pat already bounds what the captures can do here.
                if self.shared.settings.features.qsearch_see && !see_ge(&self.pos, m, 0) {
                    continue;
                }
            }
            self.make(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        // As in the main search: a fail high here is a bound at depth 0.
        if best >= beta && best.abs() < MATE_BOUND {
            best = (3 * best + beta) / 4;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, ply, best_move, best, raw_eval, -1, bound);
        best
    }
}

/// The late-move reduction of a root move: for a quiet, unextended move from the fourth of its
/// line on (`order`: its place counted from the line's first move, 0-based) at depth 3 or more,
/// what the `LMR` table gives a PV node, at least one ply, and never below depth 1; none when
/// LMR is switched off.
fn root_reduction(
    features: &SearchFeatures,
    reductions: &Reductions,
    depth: i32,
    order: usize,
    extended: bool,
    quiet: bool,
) -> i32 {
    if !(features.lmr && depth >= 3 && order >= 3 && !extended && quiet) {
        return 0;
    }
    reductions.get(depth, order + 1).clamp(1, depth - 2)
}

/// How much longer to think for the way the best score moved: `score` against the last
/// iteration's and the average of the earlier ones. A falling score (trouble ahead) gets
/// up to half as long again, a rising one down to three quarters; mate scores change nothing.
fn falling_score_factor(last: Option<Value>, average: f64, score: Value) -> f64 {
    match last {
        Some(last) if score.abs() < MATE_BOUND => {
            let fall = 2.0 * (average - f64::from(score)) + f64::from(last - score);
            (1.0 + fall / 300.0).clamp(0.75, 1.5)
        }
        _ => 1.0,
    }
}

/// The score of a draw for each side to move, indexed by colour: the root's side counts it
/// `contempt` below zero and the other side as much above, so both agree on the same line.
fn draw_scores(root: &Position, shared: &Shared) -> [Value; 2] {
    let contempt = if shared.limits.is_unbounded() {
        0
    } else {
        shared.settings.contempt
    };
    let mut draw = [DRAW; 2];
    draw[root.side_to_move().index()] = DRAW - contempt;
    draw[root.side_to_move().flip().index()] = DRAW + contempt;
    draw
}

/// Whether the side to move has any legal move (stops at the first one).
fn has_legal_move(pos: &Position) -> bool {
    let mut list = MoveList::new();
    generate(pos, GenType::All, &mut list);
    list.as_slice().iter().any(|&m| pos.is_legal(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_see_switches_are_on_by_default_and_named() {
        let mut f = SearchFeatures::default();
        assert!(f.qsearch_see && f.see_ordering);
        assert!(f.disable("qsearch_see"));
        assert!(!f.qsearch_see && f.see_ordering);
        assert!(f.disable("see_ordering"));
        assert!(!f.see_ordering);
        assert!(!f.disable("no_such_feature"));
    }

    #[test]
    fn a_falling_score_buys_time_and_a_rising_one_saves_it() {
        assert_eq!(falling_score_factor(None, 0.0, 50), 1.0);
        assert_eq!(falling_score_factor(Some(20), 20.0, 20), 1.0);
        let fell = falling_score_factor(Some(20), 20.0, -10);
        let rose = falling_score_factor(Some(20), 20.0, 50);
        assert!(fell > 1.2 && fell <= 1.5, "{fell}");
        assert!((0.75..0.8).contains(&rose), "{rose}");
        assert_eq!(falling_score_factor(Some(20), 20.0, -2000), 1.5);
        assert_eq!(falling_score_factor(Some(20), 20.0, MATE - 10), 1.0);
    }

    #[test]
    fn root_moves_are_reduced_only_late_quiet_and_with_lmr_on_and_more_when_later() {
        let on = SearchFeatures::default();
        let t = Reductions::new(&SearchParams::DEFAULT);
        assert_eq!(root_reduction(&on, &t, 3, 3, false, true), 1);
        // Deeper and later: reduced more, as in the tree, yet the reduced search keeps depth 1.
        assert!(root_reduction(&on, &t, 12, 30, false, true) >= 3);
        for depth in 3..40 {
            for order in 3..60 {
                let r = root_reduction(&on, &t, depth, order, false, true);
                assert!((1..=depth - 2).contains(&r), "{depth} {order}: {r}");
                assert!(r >= root_reduction(&on, &t, depth, order - 1, false, true));
            }
        }
        // Too shallow, too early, extended, or a capture: searched at full depth.
        assert_eq!(root_reduction(&on, &t, 2, 3, false, true), 0);
        assert_eq!(root_reduction(&on, &t, 3, 2, false, true), 0);
        assert_eq!(root_reduction(&on, &t, 3, 3, true, true), 0);
        assert_eq!(root_reduction(&on, &t, 3, 3, false, false), 0);
        // With LMR switched off nothing is reduced, at the root either.
        let mut off = on;
        assert!(off.disable("lmr"));
        for depth in 1..20 {
            for order in 0..40 {
                assert_eq!(root_reduction(&off, &t, depth, order, false, true), 0);
            }
        }
    }
}
