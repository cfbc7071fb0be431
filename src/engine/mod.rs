//! The engine facade the protocol layer talks to: it owns the position, the hash table, the
//! options and the running search. Searches run on a controller thread; progress and the
//! final move arrive through a listener callback, so the caller's thread stays free to read
//! `stop`, `isready` and `ponderhit`. Exactly one `SearchEvent::BestMove` is sent per `go`.

pub mod book;
pub mod files;
pub mod openings;

use crate::board::movegen::legal_moves;
use crate::board::position::{MoveError, Position};
use crate::board::position_line::PositionError;
use crate::board::rng::Rng;
use crate::board::types::Move;
use crate::engine::book::{Book, BookMove, BookPolicy};
use crate::eval::nnue::Network;
use crate::eval::Tables;
use crate::search::history::History;
pub use crate::search::strength::StrengthRequest;
use crate::search::thread::{run_search, SearchRequest, SEARCH_STACK};
use crate::search::time::{Limits, TimeManager};
use crate::search::tt::{TranspositionTable, TtEntry};
use crate::search::{SearchInfo, SearchResult, SearchSettings};
use parking_lot::Mutex;
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
    /// The move comes from the opening book (sent just before its `BestMove`).
    Book(BookMove),
    /// The search is over: the move to play (none when there is none) and the expected reply.
    BestMove(SearchResult),
}

/// Receives search events; called from the search's controller thread.
pub type Listener = Arc<dyn Fn(SearchEvent) + Send + Sync>;

/// Tunable engine settings.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// How the search searches: threads, lines, techniques, rules, evaluation tables.
    pub search: SearchSettings,
    /// Time kept in reserve per move for communication delays.
    pub move_overhead: Duration,
    /// Play from the opening book when it has the position (UCCI `usebook`, UCI `OwnBook`);
    /// off for the library, on for GUIs (`Engine::for_gui`).
    pub use_book: bool,
    /// How the book chooses among a position's moves.
    pub book_policy: BookPolicy,
    /// Strength limit asked by the GUI: `UCI_LimitStrength` with `UCI_Elo`, or `Skill Level`
    /// (0..20, 20 = full strength).
    pub strength: StrengthRequest,
}

impl EngineOptions {
    /// The library's defaults (no opening book), the one home of every default value.
    pub const DEFAULT: EngineOptions = EngineOptions {
        search: SearchSettings::DEFAULT,
        move_overhead: Duration::from_millis(10),
        use_book: false,
        book_policy: BookPolicy::DEFAULT,
        strength: StrengthRequest::FULL,
    };

    /// What GUIs get (`Engine::for_gui`) and the handshake announces: the book in use.
    pub const FOR_GUI: EngineOptions = EngineOptions {
        use_book: true,
        ..EngineOptions::DEFAULT
    };
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions::DEFAULT
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
    /// Draws the book's choices: seeded for repeatable games, else from the clock.
    book_rng: Rng,
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
            book_rng: Rng::from_clock(0),
            options: EngineOptions::default(),
        }
    }

    /// An engine as GUIs expect it: the built-in opening book loaded and in use.
    pub fn for_gui() -> Engine {
        let mut e = Engine::new();
        e.book = Arc::new(Book::built_in());
        e.options = EngineOptions::FOR_GUI;
        e
    }

    /// Replace the opening book (the protocol reads book files: `BookFile`).
    pub fn set_book(&mut self, book: Book) {
        self.book = Arc::new(book);
    }

    /// The opening book in use (whether it is played depends on `options.use_book`).
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// Seed the book's choices: the same seed and the same games give the same book moves.
    /// Seed 0 draws from the clock, so that games differ.
    pub fn seed_book(&mut self, seed: u64) {
        self.book_rng = match seed {
            0 => Rng::from_clock(0),
            s => Rng::new(s),
        };
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
        self.pos = crate::board::position_line::play(fen, moves)?;
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

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.is_finished())
    }

    /// Start a search; returns at once. Any previous search is stopped and joined first.
    pub fn go(&mut self, mut limits: Limits, listener: Listener) {
        self.stop();
        self.wait();
        limits.search_moves = self.root_moves(&limits);
        let source = self.move_source(&limits);
        limits.nodes = self.options.strength.cap_nodes(limits.nodes);
        self.arm(&limits);
        let job = Job {
            pos: self.pos.clone(),
            limits,
            source,
            options: self.options.clone(),
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&self.control),
            histories: std::mem::take(&mut self.histories),
        };
        let fallback = Arc::clone(&listener);
        let spawn = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK)
            .spawn(move || job.run(&listener));
        match spawn {
            Ok(handle) => self.job = Some(handle),
            // No thread to search on: answer at once, without a move.
            Err(_) => fallback(SearchEvent::BestMove(SearchResult::default())),
        }
    }

    /// The moves this search may play: legal, not banned, and among `searchmoves` if given.
    fn root_moves(&self, limits: &Limits) -> Vec<Move> {
        legal_moves(&self.pos)
            .as_slice()
            .iter()
            .copied()
            .filter(|m| !self.banned.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .collect()
    }

    /// Where the move comes from, `limits.search_moves` being the root moves. A book move
    /// answers a game move (clock or move time) at once; analysis (infinite, ponder) and fixed
    /// depth, nodes or mate searches always search.
    fn move_source(&mut self, limits: &Limits) -> MoveSource {
        let roots = &limits.search_moves;
        if roots.is_empty() {
            return MoveSource::NoMove;
        }
        let analysing = limits.infinite
            || limits.ponder
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some();
        if self.options.use_book && !analysing {
            let policy = self.options.book_policy;
            if let Some(b) = self.book.choose(&self.pos, policy, &mut self.book_rng) {
                if roots.contains(&b.mv) {
                    return MoveSource::Book(b);
                }
            }
        }
        MoveSource::Search
    }

    /// Clear the stop flags and set the clock and pondering state for a new search.
    fn arm(&self, limits: &Limits) {
        let c = &self.control;
        c.stop.store(false, Ordering::SeqCst);
        c.stop_requested.store(false, Ordering::SeqCst);
        c.pondering.store(limits.ponder, Ordering::SeqCst);
        *c.time.lock() = Self::plan(limits, self.options.move_overhead);
        *c.limits.lock() = limits.clone();
    }

    /// The clock of a search: deadlines under a clock or move time, none otherwise.
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

    /// Resize the hash table (stops any search). If the memory cannot be had, the old table
    /// is kept and the error says how much was asked.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        self.wait();
        let mb = mb.clamp(1, MAX_HASH_MB);
        let old = self.tt.size_mb();
        let failed = |e| format!("cannot allocate a {mb} MB hash table ({e}); kept {old} MB");
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.resize(mb, self.options.search.threads).map_err(failed),
            None => {
                let mut tt = TranspositionTable::new(1);
                tt.resize(mb, self.options.search.threads).map_err(failed)?;
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
        self.options.search.threads = n.clamp(1, MAX_THREADS);
    }

    /// The static evaluation of the current position for the side to move, as the search
    /// evaluates it (see [`SearchSettings::static_eval`]).
    pub fn static_eval(&self) -> crate::board::types::Value {
        self.options.search.static_eval(&self.pos)
    }

    /// Evaluate with the network (`true`) or the classical tables (`false`).
    pub fn set_use_network(&mut self, on: bool) {
        self.change_evaluation(|s| s.use_network = on);
    }

    /// The network to evaluate with when one does; `None`: the built-in one.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.change_evaluation(|s| s.network = network);
    }

    /// The classical evaluation's tables (`EvalParams`); `None`: the built-in ones.
    pub fn set_eval_tables(&mut self, tables: Option<Arc<Tables>>) {
        self.change_evaluation(|s| s.eval = tables);
    }

    /// Apply `change` to the search settings; when another evaluation results, empty the hash
    /// table, whose entries hold static evaluations (and scores) of the old one.
    fn change_evaluation(&mut self, change: impl FnOnce(&mut SearchSettings)) {
        // The network that evaluates, or else the classical tables in force.
        let identity = |s: &SearchSettings| match s.evaluating_network() {
            Some(n) => (n as *const Network).cast::<()>(),
            None => (s.tables() as *const Tables).cast::<()>(),
        };
        let before = identity(&self.options.search);
        change(&mut self.options.search);
        if identity(&self.options.search) != before {
            self.clear_hash();
        }
    }

    /// Empty the hash table and the ordering statistics.
    pub fn clear_hash(&mut self) {
        self.stop();
        self.wait();
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(self.options.search.threads),
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

    /// Search synchronously and return the result (for bench, tests and tools); the progress
    /// lines are dropped (`go` with a listener sees them).
    pub fn search_sync(&mut self, limits: Limits) -> SearchResult {
        self.analyse(limits).0
    }

    /// Search synchronously: the result, and the last line reported for each MultiPV index
    /// (in index order), for tools that need the scores of several moves.
    pub fn analyse(&mut self, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
        let (tx, rx) = crossbeam_channel::unbounded();
        self.go(
            limits,
            Arc::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        let mut lines: Vec<SearchInfo> = Vec::new();
        let mut result = SearchResult::default();
        for event in rx.iter() {
            match event {
                SearchEvent::Info(i) => {
                    let slot = i.multipv.saturating_sub(1);
                    if lines.len() <= slot {
                        lines.resize(slot + 1, i.clone());
                    }
                    lines[slot] = i;
                }
                SearchEvent::Book(_) => {}
                SearchEvent::BestMove(r) => {
                    result = r;
                    break;
                }
            }
        }
        self.wait();
        (result, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// Where the move of one `go` comes from.
enum MoveSource {
    /// The opening book's move, played without searching.
    Book(BookMove),
    /// No root move is left to play (mated, or all banned or excluded).
    NoMove,
    /// A search.
    Search,
}

/// One `go` on the search thread, with everything it owns.
struct Job {
    pos: Position,
    /// The limits in force; `search_moves` holds exactly the moves that may be played.
    limits: Limits,
    source: MoveSource,
    options: EngineOptions,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    histories: Vec<History>,
}

impl Job {
    /// Find the move, hold it while the search must go on, send it; the ordering statistics go
    /// back to the engine for the next search.
    fn run(mut self, listener: &Listener) -> Vec<History> {
        let result = match self.source {
            MoveSource::Book(b) => {
                listener(SearchEvent::Book(b));
                SearchResult::book(b.mv, b.score)
            }
            MoveSource::NoMove => SearchResult::default(),
            MoveSource::Search => self.search(listener),
        };
        self.hold_until_released();
        listener(SearchEvent::BestMove(result));
        self.histories
    }

    /// Search; below full strength, choose among the best lines instead of taking the best.
    fn search(&mut self, listener: &Listener) -> SearchResult {
        let strength = self.options.strength;
        let lines: Mutex<Vec<SearchInfo>> = Mutex::new(Vec::new());
        let report = |info: SearchInfo| {
            if strength.chooses() {
                lines.lock().push(info.clone());
            }
            listener(SearchEvent::Info(info))
        };
        // Below full strength, more lines are searched to choose among.
        let search = &mut self.options.search;
        search.multipv = strength.lines_to_search(search.multipv);
        let result = run_search(SearchRequest {
            pos: &self.pos,
            limits: &self.limits,
            tt: &self.tt,
            stop: &self.control.stop,
            pondering: &self.control.pondering,
            time: &self.control.time,
            histories: &mut self.histories,
            report: &report,
            settings: &self.options.search,
        });
        let random = Rng::from_clock(self.pos.key()).unit();
        strength.weaken(result, &lines.into_inner(), random)
    }

    /// Infinite and ponder searches report their move only when told to (`stop`, or
    /// `ponderhit` for a ponder search).
    fn hold_until_released(&self) {
        let c = &self.control;
        while (self.limits.infinite || c.pondering.load(Ordering::SeqCst))
            && !c.stop_requested.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_micros(500));
        }
    }
}
