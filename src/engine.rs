//! The engine facade the protocol layer talks to: it owns the position, the hash table, the
//! options and the running search. Searches run on a controller thread; progress and the
//! final move arrive through a listener callback, so the caller's thread stays free to read
//! `stop`, `isready` and `ponderhit`. Exactly one `SearchEvent::BestMove` is sent per `go`.

use crate::book::Book;
use crate::eval::{default_tables, Tables};
use crate::history::History;
use crate::movegen::legal_moves;
use crate::position::{FenError, MoveError, Position};
use crate::rules::RuleSet;
use crate::search::{SearchFeatures, SearchInfo};
pub use crate::strength::StrengthRequest;
use crate::thread::{run_search, SearchOutcome, SearchRequest, SEARCH_STACK};
use crate::time::{Limits, TimeManager};
use crate::tt::{TranspositionTable, TtEntry};
use crate::types::{Move, Value};
use parking_lot::Mutex;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Most threads accepted by `set_threads`.
pub const MAX_THREADS: usize = 1024;
/// Largest hash table accepted, in MB.
pub const MAX_HASH_MB: usize = 1 << 20;

/// What a search tells its listener.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// Progress: one principal variation.
    Info(SearchInfo),
    /// The search is over: the move to play (None when there is none) and the expected reply.
    BestMove {
        /// Move to play.
        best: Option<Move>,
        /// Expected reply, for pondering.
        ponder: Option<Move>,
        /// Score of the best move for the side to move, if searched.
        score: Option<Value>,
    },
}

/// Receives search events; called from the search's controller thread.
pub type Listener = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Why a position or move list was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Bad FEN.
    Fen(FenError),
    /// A move of the list that cannot be played (1-based index).
    Move(usize, MoveError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => write!(f, "bad FEN: {e}"),
            PositionError::Move(i, e) => write!(f, "move {i}: {e}"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Tunable engine settings.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move for communication delays.
    pub move_overhead: Duration,
    /// Search techniques switched on (all by default; for self-play ablation).
    pub features: SearchFeatures,
    /// Repetition rules the search follows (Chinese by default).
    pub rules: RuleSet,
    /// Play from the opening book when it has the position (UCCI `usebook`, UCI `OwnBook`);
    /// off for the library, on for GUIs (`Engine::for_gui`).
    pub use_book: bool,
    /// Strength limit asked by the GUI: `UCI_LimitStrength` with `UCI_Elo`, or `Skill Level`
    /// (0..20, 20 = full strength).
    pub strength: StrengthRequest,
    /// Evaluation tables to search with instead of the built-in ones (for self-play between
    /// parameter sets, e.g. tuned against hand-set values); `None` = built-in.
    pub eval: Option<Arc<Tables>>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            features: SearchFeatures::default(),
            rules: RuleSet::default(),
            use_book: false,
            strength: StrengthRequest::default(),
            eval: None,
        }
    }
}

struct Control {
    stop: AtomicBool,
    stop_requested: AtomicBool,
    pondering: AtomicBool,
    time: Mutex<TimeManager>,
    limits: Mutex<Limits>,
}

/// The engine: position, hash table, options and the running search.
pub struct Engine {
    pos: Position,
    banned: Vec<Move>,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    job: Option<JoinHandle<Vec<History>>>,
    histories: Vec<History>,
    book: Arc<Book>,
    /// Current settings (threads, MultiPV, overhead).
    pub options: EngineOptions,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// Default hash size in MB.
    pub const DEFAULT_HASH_MB: usize = 64;

    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        Engine {
            pos: Position::startpos(),
            banned: Vec::new(),
            tt: Arc::new(TranspositionTable::new(Self::DEFAULT_HASH_MB)),
            control: Arc::new(Control {
                stop: AtomicBool::new(false),
                stop_requested: AtomicBool::new(false),
                pondering: AtomicBool::new(false),
                time: Mutex::new(TimeManager::unlimited(Instant::now())),
                limits: Mutex::new(Limits::default()),
            }),
            job: None,
            histories: Vec::new(),
            book: Arc::new(Book::default()),
            options: EngineOptions::default(),
        }
    }

    /// An engine as GUIs expect it: the built-in opening book loaded and in use.
    pub fn for_gui() -> Engine {
        let mut e = Engine::new();
        e.book = Arc::new(Book::built_in());
        e.options.use_book = true;
        e
    }

    /// Replace the opening book (the protocol reads book files: `BookFile`).
    pub fn set_book(&mut self, book: Book) {
        self.book = Arc::new(book);
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Set the position from a FEN (None = start position) and play `moves`. On error the
    /// previous position is kept. Banned moves are cleared.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        fen: Option<&str>,
        moves: &[S],
    ) -> Result<(), PositionError> {
        let mut pos = match fen {
            None => Position::startpos(),
            Some(f) => Position::from_fen(f).map_err(PositionError::Fen)?,
        };
        for (i, text) in moves.iter().enumerate() {
            let m = pos
                .parse_move(text.as_ref())
                .map_err(|e| PositionError::Move(i + 1, e))?;
            pos.make_move(m);
        }
        self.pos = pos;
        self.banned.clear();
        Ok(())
    }

    /// Forbid these moves at the root of the next searches (until the next position).
    pub fn ban_moves<S: AsRef<str>>(&mut self, moves: &[S]) -> Result<(), MoveError> {
        let mut banned = Vec::new();
        for text in moves {
            banned.push(self.pos.parse_move(text.as_ref())?);
        }
        self.banned = banned;
        Ok(())
    }

    /// Moves currently banned at the root.
    pub fn banned_moves(&self) -> &[Move] {
        &self.banned
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.is_finished())
    }

    /// Start a search; returns at once. Any previous search is stopped and joined first.
    pub fn go(&mut self, mut limits: Limits, listener: Listener) {
        self.stop();
        self.wait();
        let legal = legal_moves(&self.pos);
        let mut roots: Vec<Move> = legal
            .as_slice()
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .collect();
        if !limits.search_moves.is_empty() {
            roots.retain(|m| limits.search_moves.contains(m));
        }
        let no_moves = roots.is_empty();
        // A book move answers a game move (clock or move time) at once; analysis (infinite,
        // ponder) and fixed depth, nodes or mate searches always search.
        let analysing = limits.infinite
            || limits.ponder
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some();
        let book_move = if self.options.use_book && !analysing {
            self.book
                .choose(&self.pos, crate::strength::clock_random(self.pos.key()))
                .filter(|m| roots.contains(m))
        } else {
            None
        };
        limits.search_moves = roots;

        if self.options.strength.is_limited() {
            let budget = self.options.strength.node_budget();
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
        }
        let c = &self.control;
        c.stop.store(false, Ordering::SeqCst);
        c.stop_requested.store(false, Ordering::SeqCst);
        c.pondering.store(limits.ponder, Ordering::SeqCst);
        *c.time.lock() = Self::plan(&limits, self.options.move_overhead);
        *c.limits.lock() = limits.clone();

        let control = Arc::clone(&self.control);
        let tt = Arc::clone(&self.tt);
        let pos = self.pos.clone();
        let options = self.options.clone();
        let mut histories = std::mem::take(&mut self.histories);
        let fallback = Arc::clone(&listener);
        let spawn = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || {
                let report_listener = Arc::clone(&listener);
                // Below full strength the last lines are kept for the weighted choice.
                let lines: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
                let keep_lines = options.strength.is_limited();
                let report = |info: SearchInfo| {
                    if keep_lines {
                        lines.lock().push(info.clone());
                    }
                    report_listener(SearchEvent::Info(info))
                };
                let outcome = if let Some(m) = book_move {
                    Some(SearchOutcome {
                        best: Some(m),
                        ponder: None,
                        score: 0,
                        depth: 0,
                        nodes: 0,
                        pv: vec![m],
                    })
                } else if no_moves {
                    None
                } else {
                    Some(run_search(SearchRequest {
                        pos: &pos,
                        limits: &limits,
                        tt: &tt,
                        stop: &control.stop,
                        pondering: &control.pondering,
                        time: &control.time,
                        multipv: if keep_lines {
                            options.multipv.max(crate::strength::CANDIDATES)
                        } else {
                            options.multipv
                        },
                        histories: &mut histories,
                        threads: options.threads,
                        report: &report,
                        features: options.features,
                        rules: options.rules,
                        eval: match &options.eval {
                            Some(t) => t,
                            None => default_tables(),
                        },
                    }))
                };
                // Infinite and ponder searches report their move only when told to.
                while (limits.infinite || control.pondering.load(Ordering::SeqCst))
                    && !control.stop_requested.load(Ordering::SeqCst)
                {
                    std::thread::sleep(Duration::from_micros(500));
                }
                let outcome = match outcome {
                    Some(o) if keep_lines => Some(Self::weaken(o, &lines.lock(), &options, &pos)),
                    other => other,
                };
                let event = match outcome {
                    Some(o) => SearchEvent::BestMove {
                        best: o.best,
                        ponder: o.ponder,
                        score: Some(o.score),
                    },
                    None => SearchEvent::BestMove {
                        best: None,
                        ponder: None,
                        score: None,
                    },
                };
                listener(event);
                histories
            });
        match spawn {
            Ok(handle) => self.job = Some(handle),
            Err(_) => fallback(SearchEvent::BestMove {
                best: None,
                ponder: None,
                score: None,
            }),
        }
    }

    /// Below full strength: replace the best move by a weighted choice among the lines of the
    /// deepest iteration that reported all of them.
    fn weaken(
        o: SearchOutcome,
        lines: &[SearchInfo],
        options: &EngineOptions,
        pos: &Position,
    ) -> SearchOutcome {
        let Some(depth) = lines
            .iter()
            .filter(|i| i.multipv > 1)
            .map(|i| i.depth)
            .max()
        else {
            return o;
        };
        let mut last: Vec<&SearchInfo> = lines.iter().filter(|i| i.depth == depth).collect();
        last.sort_by_key(|i| i.multipv);
        last.dedup_by_key(|i| i.multipv);
        let choices: Vec<(Move, Value)> = last
            .iter()
            .filter_map(|i| Some((*i.pv.first()?, i.score)))
            .collect();
        let random = crate::strength::clock_random(pos.key());
        match options.strength.choose(&choices, random) {
            Some(m) if Some(m) != o.best => {
                let line = last.iter().find(|i| i.pv.first() == Some(&m));
                SearchOutcome {
                    best: Some(m),
                    ponder: line.and_then(|i| i.pv.get(1).copied()),
                    score: line.map_or(o.score, |i| i.score),
                    ..o
                }
            }
            _ => o,
        }
    }

    fn plan(limits: &Limits, overhead: Duration) -> TimeManager {
        if limits.movetime.is_some() || limits.time.is_some() {
            TimeManager::new(limits, overhead, Instant::now())
        } else {
            TimeManager::unlimited(Instant::now())
        }
    }

    /// Stop the running search (its best move is reported promptly). Harmless when idle.
    pub fn stop(&self) {
        self.control.stop_requested.store(true, Ordering::SeqCst);
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: the search goes on under the clock from now.
    pub fn ponderhit(&self) {
        let c = &self.control;
        let limits = c.limits.lock().clone();
        *c.time.lock() = Self::plan(&limits, self.options.move_overhead);
        c.pondering.store(false, Ordering::SeqCst);
    }

    /// Wait for the running search to end (it must be bounded or stopped).
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            if let Ok(h) = job.join() {
                self.histories = h;
            }
        }
    }

    /// Resize the hash table (stops any search).
    /// Resize the hash table (stops any search). If the memory cannot be had, the old table
    /// is kept and the error says how much was asked.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        self.wait();
        let mb = mb.clamp(1, MAX_HASH_MB);
        let old = self.tt.size_mb();
        let failed = |_| format!("cannot allocate a {mb} MB hash table; kept {old} MB");
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.resize(mb).map_err(failed),
            None => {
                let mut tt = TranspositionTable::new(1);
                tt.resize(mb).map_err(failed)?;
                self.tt = Arc::new(tt);
                Ok(())
            }
        }
    }

    /// What the hash table holds for `pos` (UCCI `probe`); an illegal stored move is dropped.
    pub fn probe_hash(&self, pos: &Position) -> Option<TtEntry> {
        let mut e = self.tt.probe(pos.key(), 0)?;
        if e.mv.is_ok() && !pos.is_legal_move(e.mv) {
            e.mv = Move::NONE;
        }
        Some(e)
    }

    /// Hash size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Set the number of search threads (1..MAX_THREADS).
    pub fn set_threads(&mut self, n: usize) {
        self.options.threads = n.clamp(1, MAX_THREADS);
    }

    /// Empty the hash table and the ordering statistics.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.wait();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb())),
        }
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// A new game: clear everything learned and go back to the start position.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.pos = Position::startpos();
        self.banned.clear();
    }

    /// Search synchronously and return the outcome (for bench, tests and tools).
    pub fn search_sync(
        &mut self,
        limits: Limits,
    ) -> (Option<Move>, Option<Move>, Option<Value>, Vec<SearchInfo>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        self.go(
            limits,
            Arc::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        let mut infos = Vec::new();
        let mut result = (None, None, None);
        for e in rx.iter() {
            match e {
                SearchEvent::Info(i) => infos.push(i),
                SearchEvent::BestMove {
                    best,
                    ponder,
                    score,
                } => {
                    result = (best, ponder, score);
                    break;
                }
            }
        }
        self.wait();
        (result.0, result.1, result.2, infos)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
